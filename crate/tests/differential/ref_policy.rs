//! The reference's host choice, written from SPEC 2-5 alone: the host state a policy sees, the
//! filters, the weighers, the ranking with its one random draw, the memorizing scheduler's
//! lowest bucket, the rejection test of SPEC 6.2 and the prefab table of SPEC 5.
//!
//! Deliberately naive: every decision looks at every host, nothing is cached or fused.

use policy_playground::model::{HostSpec, Topology};
use policy_playground::policy::{Filter, Policy, Timeshift, Weigher, WeigherKind};
use rand::Rng;

/// A host as the policy sees it (SPEC 2): static capacity and what is provisioned now.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HostView {
    pub cores: u32,
    pub core_speed: f64,
    pub memory: i64,
    pub gpu_cores: u32,
    pub instances: u32,
    pub provisioned_cores: i64,
    pub available_memory: i64,
    pub provisioned_gpu_cores: i64,
}

/// What a task asks of a host (SPEC 2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Demand {
    pub cpu_count: u32,
    pub cpu_capacity: f64,
    pub memory: i64,
    pub gpu_count: u32,
}

impl HostView {
    /// The empty state of a host of the topology.
    pub fn empty(spec: &HostSpec) -> Self {
        HostView {
            cores: spec.cores,
            core_speed: spec.core_speed_mhz,
            memory: spec.memory_mib,
            gpu_cores: spec.gpus.iter().map(|g| g.cores).sum(),
            instances: 0,
            provisioned_cores: 0,
            available_memory: spec.memory_mib,
            provisioned_gpu_cores: 0,
        }
    }

    /// `cores x coreSpeed`, MHz.
    pub fn cpu_capacity(&self) -> f64 {
        self.cores as f64 * self.core_speed
    }

    /// The same host with nothing placed on it.
    pub fn emptied(&self) -> Self {
        HostView {
            instances: 0,
            provisioned_cores: 0,
            available_memory: self.memory,
            provisioned_gpu_cores: 0,
            ..*self
        }
    }

    /// Charges the host with a demand (placement), or releases it (`sign = -1`).
    pub fn charge(&mut self, d: &Demand, sign: i64) {
        self.instances = (self.instances as i64 + sign) as u32;
        self.provisioned_cores += sign * d.cpu_count as i64;
        self.available_memory -= sign * d.memory;
        self.provisioned_gpu_cores += sign * d.gpu_count as i64;
    }
}

/// The hosts of a topology in topology order, with their names (first use as given, repeats
/// `name-0`, `name-1`, ... counted per name across the topology: SPEC 10).
pub fn expand_hosts(topology: &Topology) -> Vec<(String, HostSpec)> {
    let mut seen: Vec<(String, u32)> = Vec::new();
    let mut out = Vec::new();
    for (c, cluster) in topology.clusters.iter().enumerate() {
        for (g, group) in cluster.groups.iter().enumerate() {
            for _ in 0..group.count {
                let name = match seen.iter_mut().find(|(n, _)| *n == group.name) {
                    None => {
                        seen.push((group.name.clone(), 0));
                        group.name.clone()
                    }
                    Some((_, k)) => {
                        *k += 1;
                        format!("{}-{}", group.name, *k - 1)
                    }
                };
                let spec = HostSpec {
                    name: name.clone(),
                    cluster: c as u32,
                    group: g as u32,
                    cores: group.cores,
                    core_speed_mhz: group.core_speed_mhz,
                    memory_mib: group.memory_mib,
                    gpus: group.gpus.clone(),
                    power: group.power,
                };
                out.push((name, spec));
            }
        }
    }
    out
}

/// SPEC 3: whether one filter keeps the host.
fn passes(filter: &Filter, h: &HostView, d: &Demand) -> bool {
    match *filter {
        Filter::Compute | Filter::SameHost | Filter::DifferentHost => true,
        Filter::VCpu {
            allocation_ratio: r,
        } => {
            d.cpu_count <= h.cores
                && h.cores as f64 * r - h.provisioned_cores as f64 >= d.cpu_count as f64
        }
        Filter::VCpuCapacity => h.core_speed >= d.cpu_capacity / d.cpu_count as f64,
        Filter::Ram {
            allocation_ratio: r,
        } => {
            d.memory <= h.memory
                && h.memory as f64 * r - (h.memory - h.available_memory) as f64 >= d.memory as f64
        }
        Filter::InstanceCount { limit } => h.instances < limit,
        Filter::VGpu {
            allocation_ratio: r,
        } => {
            d.gpu_count <= h.gpu_cores
                && h.gpu_cores as f64 * r - h.provisioned_gpu_cores as f64 >= d.gpu_count as f64
        }
    }
}

/// A host passes every filter.
pub fn fits(filters: &[Filter], h: &HostView, d: &Demand) -> bool {
    filters.iter().all(|f| passes(f, h, d))
}

/// SPEC 6.2: no host could take the task even with nothing placed on it.
pub fn rejected(filters: &[Filter], hosts: &[HostView], d: &Demand) -> bool {
    !hosts.iter().any(|h| fits(filters, &h.emptied(), d))
}

/// SPEC 4: the raw score of a host under a weigher.
fn raw(kind: WeigherKind, h: &HostView) -> f64 {
    match kind {
        WeigherKind::Ram => h.available_memory as f64,
        WeigherKind::CoreRam if h.cores == 0 => 0.0,
        WeigherKind::CoreRam => h.available_memory as f64 / h.cores as f64,
        WeigherKind::InstanceCount => h.instances as f64,
        WeigherKind::VCpuCapacity => h.cpu_capacity(),
        WeigherKind::VCpu => -(h.provisioned_cores as f64),
        WeigherKind::VGpu => -(h.provisioned_gpu_cores as f64),
    }
}

/// What one decision did, for the coverage counts.
#[derive(Debug, Clone, Copy, Default)]
pub struct Decision {
    pub host: Option<usize>,
    pub drew: bool,
}

/// Chooses a host for `d` (SPEC 4 for filter policies, SPEC 6.3 for memorizing ones).
pub fn choose(policy: &Policy, hosts: &[HostView], d: &Demand, rng: &mut impl Rng) -> Decision {
    if policy.memorize {
        return Decision {
            host: lowest_bucket(&policy.filters, hosts, d),
            drew: false,
        };
    }
    let candidates: Vec<usize> = (0..hosts.len())
        .filter(|&h| fits(&policy.filters, &hosts[h], d))
        .collect();
    if candidates.is_empty() {
        return Decision::default();
    }
    let ranked = rank(&policy.weighers, hosts, &candidates);
    let k = (policy.subset_size as usize).min(ranked.len());
    if k == 1 {
        return Decision {
            host: Some(ranked[0]),
            drew: false,
        };
    }
    let index = draw_index(rng, k as u64) as usize;
    Decision {
        host: Some(ranked[index]),
        drew: true,
    }
}

/// SPEC 4 steps 1-3: the candidates ranked by their total, descending, ties in topology order.
fn rank(weighers: &[Weigher], hosts: &[HostView], candidates: &[usize]) -> Vec<usize> {
    if weighers.is_empty() {
        return candidates.to_vec();
    }
    let mut totals = vec![0.0f64; candidates.len()];
    for w in weighers {
        let raws: Vec<f64> = candidates.iter().map(|&h| raw(w.kind, &hosts[h])).collect();
        let min = raws.iter().copied().fold(f64::INFINITY, f64::min);
        let max = raws.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if max == min {
            continue;
        }
        for (total, r) in totals.iter_mut().zip(&raws) {
            *total += (w.multiplier * (r - min)) / (max - min);
        }
    }
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    // A stable sort on the total, descending: ties keep topology order.
    order.sort_by(|&a, &b| {
        totals[b]
            .partial_cmp(&totals[a])
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    order.into_iter().map(|j| candidates[j]).collect()
}

/// SPEC 6.3: the first host, in topology order, of the lowest bucket (fewest running tasks)
/// that holds a host passing the filters.
fn lowest_bucket(filters: &[Filter], hosts: &[HostView], d: &Demand) -> Option<usize> {
    (0..hosts.len())
        .filter(|&h| fits(filters, &hosts[h], d))
        .min_by_key(|&h| (hosts[h].instances, h))
}

/// SPEC 8: one `next_u64` mapped without bias to `[0, k)` (multiply, keep the high word, reject
/// the low words below `2^64 mod k`).
fn draw_index(rng: &mut impl Rng, k: u64) -> u64 {
    let threshold = k.wrapping_neg() % k;
    loop {
        let product = rng.next_u64() as u128 * k as u128;
        if (product as u64) >= threshold {
            return (product >> 64) as u64;
        }
    }
}

/// A filter of the prefab table.
fn vcpu() -> Filter {
    Filter::VCpu {
        allocation_ratio: 1.0,
    }
}

/// A filter of the prefab table.
fn ram() -> Filter {
    Filter::Ram {
        allocation_ratio: 1.0,
    }
}

/// SPEC 5: the explicit policy of a prefab (name matched case-insensitively, blanks trimmed).
pub fn prefab(name: &str) -> Option<Policy> {
    use WeigherKind as K;
    let standard = vec![Filter::Compute, vcpu(), ram()];
    let gpu = vec![
        Filter::Compute,
        vcpu(),
        Filter::VGpu {
            allocation_ratio: 1.0,
        },
        ram(),
    ];
    let w = |kind, multiplier| Weigher { kind, multiplier };
    let plain = |filters: &Vec<Filter>, weighers| Policy {
        filters: filters.clone(),
        weighers,
        subset_size: 1,
        memorize: false,
        max_times_skipped: 7,
        timeshift: None,
    };
    let name = name.trim().to_ascii_lowercase();
    Some(match name.as_str() {
        "mem" => plain(&vec![vcpu(), ram()], vec![w(K::Ram, 1.0)]),
        "meminv" => plain(&standard, vec![w(K::Ram, -1.0)]),
        "coremem" => plain(&standard, vec![w(K::CoreRam, 1.0)]),
        "corememinv" => plain(&standard, vec![w(K::CoreRam, -1.0)]),
        "activeservers" => plain(&standard, vec![w(K::InstanceCount, -1.0)]),
        "activeserversinv" => plain(&standard, vec![w(K::InstanceCount, 1.0)]),
        "provisionedcores" => plain(&standard, vec![w(K::VCpu, 1.0)]),
        "provisionedcoresinv" => plain(&standard, vec![w(K::VCpu, -1.0)]),
        "random" => Policy {
            subset_size: 2_147_483_647,
            ..plain(&standard, vec![])
        },
        "tasknummemorizing" => Policy {
            memorize: true,
            ..plain(&standard, vec![])
        },
        "timeshift" => Policy {
            timeshift: Some(Timeshift {
                forecast: true,
                forecast_size: 24,
                short_forecast_threshold: 0.2,
                long_forecast_threshold: 0.35,
                window_size: 168,
                task_stopper: None,
            }),
            ..plain(&standard, vec![w(K::Ram, 1.0)])
        },
        "provisionedcpugpucores" => plain(&gpu, vec![w(K::VCpu, 1.0), w(K::VGpu, 1.0)]),
        "provisionedcpugpucoresinv" => plain(&gpu, vec![w(K::VCpu, -1.0), w(K::VGpu, -1.0)]),
        "gputaskmemorizing" => Policy {
            memorize: true,
            ..plain(&gpu, vec![])
        },
        _ => return None,
    })
}
