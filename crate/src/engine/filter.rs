//! Filters: which hosts may take a task (SPEC 3), and why a host was turned away, in numbers.

use super::host::{Demand, HostState};
use crate::diag::num;
use crate::policy::Filter;

/// True when the host passes the filter for this demand.
#[inline]
pub fn passes(filter: &Filter, h: &HostState, d: &Demand) -> bool {
    match *filter {
        Filter::Compute => h.up,
        Filter::VCpu { allocation_ratio } => {
            d.cpu_count <= h.cores
                && h.cores as f64 * allocation_ratio - h.provisioned_cores as f64
                    >= d.cpu_count as f64
        }
        Filter::VCpuCapacity => h.core_speed >= per_core_demand(d),
        Filter::Ram { allocation_ratio } => {
            d.memory <= h.memory
                && h.memory as f64 * allocation_ratio - (h.memory - h.available_memory) as f64
                    >= d.memory as f64
        }
        Filter::InstanceCount { limit } => h.instance_count < limit,
        Filter::SameHost | Filter::DifferentHost => true,
        Filter::VGpu { allocation_ratio } => {
            d.gpu_count <= h.gpu_cores
                && h.gpu_cores as f64 * allocation_ratio - h.provisioned_gpu_cores as f64
                    >= d.gpu_count as f64
        }
    }
}

/// The task's CPU capacity per core (0 for a task without cores).
fn per_core_demand(d: &Demand) -> f64 {
    if d.cpu_count == 0 {
        0.0
    } else {
        d.cpu_capacity / d.cpu_count as f64
    }
}

/// Index of the first filter the host fails, `None` when it passes all.
#[inline]
pub fn first_failing(filters: &[Filter], h: &HostState, d: &Demand) -> Option<usize> {
    filters.iter().position(|f| !passes(f, h, d))
}

/// Sets `out` to the indices, in topology order, of the hosts that pass every filter: the set
/// [`first_failing`] accepts (which does not depend on the filters' order).
///
/// The first Compute, VCpu and Ram filters (OpenDC's default set) are tested together in one
/// branch-free pass over all hosts, so that a policy of those three reads each host once; every
/// other filter then narrows what that pass kept, one tight loop per filter.
pub fn keep(filters: &[Filter], hosts: &[HostState], d: &Demand, out: &mut Vec<u32>) {
    out.clear();
    let fused = Fused::of(filters);
    out.resize(hosts.len(), 0);
    let n = fused.pass(hosts, d, out);
    out.truncate(n);
    for (k, f) in filters.iter().enumerate() {
        if out.is_empty() {
            return;
        }
        if fused.covers(k) {
            continue;
        }
        let n = narrow(f, hosts, d, out);
        out.truncate(n);
    }
}

/// The filters of [`keep`]'s first pass: the first Compute, VCpu and Ram filter of a policy, by
/// their index in it.
#[derive(Debug, Clone, Copy, Default)]
struct Fused {
    compute: Option<usize>,
    vcpu: Option<(usize, f64)>,
    ram: Option<(usize, f64)>,
}

impl Fused {
    fn of(filters: &[Filter]) -> Self {
        let mut fused = Fused::default();
        for (k, f) in filters.iter().enumerate() {
            match *f {
                Filter::Compute if fused.compute.is_none() => fused.compute = Some(k),
                Filter::VCpu { allocation_ratio } if fused.vcpu.is_none() => {
                    fused.vcpu = Some((k, allocation_ratio))
                }
                Filter::Ram { allocation_ratio } if fused.ram.is_none() => {
                    fused.ram = Some((k, allocation_ratio))
                }
                _ => {}
            }
        }
        fused
    }

    /// True when filter `k` of the policy is tested by this pass.
    fn covers(&self, k: usize) -> bool {
        self.compute == Some(k)
            || self.vcpu.is_some_and(|(i, _)| i == k)
            || self.ram.is_some_and(|(i, _)| i == k)
    }

    /// Writes the indices of the hosts that pass these filters to the front of `out` (as long
    /// as `hosts`) and returns how many: every host when there are none.
    fn pass(&self, hosts: &[HostState], d: &Demand, out: &mut [u32]) -> usize {
        let v = self.vcpu.map_or(0.0, |(_, r)| r);
        let r = self.ram.map_or(0.0, |(_, r)| r);
        match (
            self.compute.is_some(),
            self.vcpu.is_some(),
            self.ram.is_some(),
        ) {
            (false, false, false) => fused::<false, false, false>(hosts, d, v, r, out),
            (false, false, true) => fused::<false, false, true>(hosts, d, v, r, out),
            (false, true, false) => fused::<false, true, false>(hosts, d, v, r, out),
            (false, true, true) => fused::<false, true, true>(hosts, d, v, r, out),
            (true, false, false) => fused::<true, false, false>(hosts, d, v, r, out),
            (true, false, true) => fused::<true, false, true>(hosts, d, v, r, out),
            (true, true, false) => fused::<true, true, false>(hosts, d, v, r, out),
            (true, true, true) => fused::<true, true, true>(hosts, d, v, r, out),
        }
    }
}

/// [`Fused::pass`] compiled for one combination of the three filters, each test [`passes`]
/// itself (so the rule has one copy), combined without branches.
#[inline(never)]
fn fused<const C: bool, const V: bool, const R: bool>(
    hosts: &[HostState],
    d: &Demand,
    vcpu_ratio: f64,
    ram_ratio: f64,
    out: &mut [u32],
) -> usize {
    let vcpu = Filter::VCpu {
        allocation_ratio: vcpu_ratio,
    };
    let ram = Filter::Ram {
        allocation_ratio: ram_ratio,
    };
    compact(hosts, out, true, |h| {
        (!C || passes(&Filter::Compute, h, d))
            & (!V || passes(&vcpu, h, d))
            & (!R || passes(&ram, h, d))
    })
}

/// One filter's pass of [`keep`] over the indices already in `out`; the arms rebuild the filter
/// so that [`passes`] inlines to that filter's test alone.
#[inline]
fn narrow(f: &Filter, hosts: &[HostState], d: &Demand, out: &mut [u32]) -> usize {
    let all = false;
    match *f {
        Filter::Compute => compact(hosts, out, all, |h| passes(&Filter::Compute, h, d)),
        Filter::VCpu { allocation_ratio } => compact(hosts, out, all, |h| {
            passes(&Filter::VCpu { allocation_ratio }, h, d)
        }),
        Filter::VCpuCapacity => compact(hosts, out, all, |h| passes(&Filter::VCpuCapacity, h, d)),
        Filter::Ram { allocation_ratio } => compact(hosts, out, all, |h| {
            passes(&Filter::Ram { allocation_ratio }, h, d)
        }),
        Filter::InstanceCount { limit } => compact(hosts, out, all, |h| {
            passes(&Filter::InstanceCount { limit }, h, d)
        }),
        Filter::SameHost | Filter::DifferentHost => out.len(),
        Filter::VGpu { allocation_ratio } => compact(hosts, out, all, |h| {
            passes(&Filter::VGpu { allocation_ratio }, h, d)
        }),
    }
}

/// Writes the kept indices to the front of `out` and returns how many: over all hosts when
/// `all` (`out` as long as `hosts`), else over the indices already in `out`.
#[inline(always)]
fn compact(
    hosts: &[HostState],
    out: &mut [u32],
    all: bool,
    pass: impl Fn(&HostState) -> bool,
) -> usize {
    let mut n = 0;
    if all {
        for (i, h) in hosts.iter().enumerate() {
            out[n] = i as u32;
            n += pass(h) as usize;
        }
    } else {
        for j in 0..out.len() {
            let i = out[j];
            out[n] = i;
            n += pass(&hosts[i as usize]) as usize;
        }
    }
    n
}

/// Why a host fails a filter, in numbers: `needs 8 cores, 2 free`. Only meaningful when
/// [`passes`] is false.
pub fn reason(filter: &Filter, h: &HostState, d: &Demand) -> String {
    match *filter {
        Filter::Compute => "host is down".into(),
        Filter::VCpu { allocation_ratio } => {
            if d.cpu_count > h.cores {
                format!("needs {} cores, host has {}", d.cpu_count, h.cores)
            } else {
                let free = h.cores as f64 * allocation_ratio - h.provisioned_cores as f64;
                format!("needs {} cores, {} free", d.cpu_count, num(free.max(0.0)))
            }
        }
        Filter::VCpuCapacity => format!(
            "needs {} MHz per core, cores run at {} MHz",
            num(per_core_demand(d)),
            num(h.core_speed)
        ),
        Filter::Ram { allocation_ratio } => {
            if d.memory > h.memory {
                format!("needs {} MiB, host has {} MiB", d.memory, h.memory)
            } else {
                let free =
                    h.memory as f64 * allocation_ratio - (h.memory - h.available_memory) as f64;
                format!("needs {} MiB, {} MiB free", d.memory, num(free.max(0.0)))
            }
        }
        Filter::InstanceCount { limit } => {
            format!("runs {} tasks, limit {}", h.instance_count, limit)
        }
        Filter::SameHost | Filter::DifferentHost => "never rejects".into(),
        Filter::VGpu { allocation_ratio } => {
            if d.gpu_count > h.gpu_cores {
                format!("needs {} GPU cores, host has {}", d.gpu_count, h.gpu_cores)
            } else {
                let free = h.gpu_cores as f64 * allocation_ratio - h.provisioned_gpu_cores as f64;
                format!(
                    "needs {} GPU cores, {} free",
                    d.gpu_count,
                    num(free.max(0.0))
                )
            }
        }
    }
}

/// Why a host can never take the task, even empty: the reason of the first filter the empty
/// host fails, phrased for the closest host of the cluster (`needs 32 cores, the largest host
/// has 16`). `filter` is the failing filter, `closest` the empty host that came closest.
pub fn rejection_reason(filter: &Filter, closest: &HostState, d: &Demand) -> String {
    match *filter {
        Filter::Compute => "every host is down".into(),
        Filter::VCpu { allocation_ratio } => format!(
            "needs {} cores, the largest host has {}{}",
            d.cpu_count,
            closest.cores,
            ratio_note(allocation_ratio)
        ),
        Filter::VCpuCapacity => format!(
            "needs {} MHz per core, the fastest host runs at {} MHz",
            num(per_core_demand(d)),
            num(closest.core_speed)
        ),
        Filter::Ram { allocation_ratio } => format!(
            "needs {} MiB, the largest host has {} MiB{}",
            d.memory,
            closest.memory,
            ratio_note(allocation_ratio)
        ),
        Filter::InstanceCount { limit } => format!("InstanceCount limit {limit} admits no task"),
        Filter::SameHost | Filter::DifferentHost => "never rejects".into(),
        Filter::VGpu { allocation_ratio } => format!(
            "needs {} GPU cores, the largest host has {}{}",
            d.gpu_count,
            closest.gpu_cores,
            ratio_note(allocation_ratio)
        ),
    }
}

fn ratio_note(ratio: f64) -> String {
    if ratio < 1.0 {
        format!(" (allocation ratio {})", num(ratio))
    } else {
        String::new()
    }
}

/// How much of the filter's resource an empty host offers, to find the host that came closest.
pub fn empty_capacity(filter: &Filter, h: &HostState) -> f64 {
    match *filter {
        Filter::VCpu { allocation_ratio } => {
            (h.cores as f64).min(h.cores as f64 * allocation_ratio)
        }
        Filter::VCpuCapacity => h.core_speed,
        Filter::Ram { allocation_ratio } => {
            (h.memory as f64).min(h.memory as f64 * allocation_ratio)
        }
        Filter::VGpu { allocation_ratio } => {
            (h.gpu_cores as f64).min(h.gpu_cores as f64 * allocation_ratio)
        }
        Filter::Compute
        | Filter::InstanceCount { .. }
        | Filter::SameHost
        | Filter::DifferentHost => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// A draw in `range` (the slight modulo bias does not matter here).
    fn draw<T: TryFrom<u64>>(rng: &mut rand_pcg::Pcg64, range: std::ops::Range<u64>) -> T {
        let v = range.start + rng.next_u64() % (range.end - range.start);
        T::try_from(v).ok().expect("in range")
    }

    /// [`keep`] (the decision's fused and narrowing passes) keeps exactly the hosts that
    /// [`first_failing`] (the explanation's test, one host and one filter at a time) passes:
    /// random hosts, demands and filter lists of every kind, in any order, kinds repeated with
    /// other ratios (only the first of each is fused), and none at all.
    #[test]
    fn keep_agrees_with_first_failing() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        let mut out = Vec::new();
        let mut kept_some = 0;
        for _ in 0..2000 {
            let hosts: Vec<HostState> = (0..draw::<usize>(&mut rng, 0..40))
                .map(|_| {
                    let mut h = HostState::empty(
                        draw(&mut rng, 0..16),
                        [1000.0, 2000.0, 3000.0][draw::<usize>(&mut rng, 0..3)],
                        draw::<i64>(&mut rng, 0..8) * 1024,
                        draw(&mut rng, 0..3),
                    );
                    h.up = draw::<u64>(&mut rng, 0..5) != 0;
                    h.instance_count = draw(&mut rng, 0..4);
                    h.provisioned_cores = draw(&mut rng, 0..20);
                    h.available_memory = h.memory - draw::<i64>(&mut rng, 0..9) * 1024;
                    h.provisioned_gpu_cores = draw(&mut rng, 0..3);
                    h
                })
                .collect();
            let cpu_count = draw(&mut rng, 0..10);
            let d = Demand {
                cpu_count,
                cpu_capacity: cpu_count as f64
                    * [500.0, 2000.0, 2500.0][draw::<usize>(&mut rng, 0..3)],
                memory: draw::<i64>(&mut rng, 0..6) * 1024,
                gpu_count: draw(&mut rng, 0..3),
                gpu_capacity: 0.0,
            };
            let ratio = |rng: &mut rand_pcg::Pcg64| [0.5, 1.0, 1.5, 16.0][draw::<usize>(rng, 0..4)];
            let filters: Vec<Filter> = (0..draw::<usize>(&mut rng, 0..7))
                .map(|_| match draw::<u64>(&mut rng, 0..8) {
                    0 => Filter::Compute,
                    1 => Filter::VCpu {
                        allocation_ratio: ratio(&mut rng),
                    },
                    2 => Filter::VCpuCapacity,
                    3 => Filter::Ram {
                        allocation_ratio: ratio(&mut rng),
                    },
                    4 => Filter::InstanceCount {
                        limit: draw(&mut rng, 0..4),
                    },
                    5 => Filter::SameHost,
                    6 => Filter::DifferentHost,
                    _ => Filter::VGpu {
                        allocation_ratio: ratio(&mut rng),
                    },
                })
                .collect();
            keep(&filters, &hosts, &d, &mut out);
            let expected: Vec<u32> = (0..hosts.len() as u32)
                .filter(|&i| first_failing(&filters, &hosts[i as usize], &d).is_none())
                .collect();
            assert_eq!(out, expected, "{filters:?} {d:?}");
            kept_some += usize::from(!out.is_empty() && out.len() < hosts.len());
        }
        assert!(
            kept_some > 200,
            "too few cases keep some hosts but not all: {kept_some}"
        );
    }
}

/// Why a task can never run (SPEC 6.2's rejection at submission), in numbers (issue 15, item 3).
#[cfg(test)]
mod rejection_tests {
    use super::*;

    /// An empty host of 16 cores at 2000 MHz, 4096 MiB and 4 GPU cores.
    fn largest() -> HostState {
        HostState::empty(16, 2000.0, 4096, 4)
    }

    /// What an empty host offers under each filter: the resource, capped by the allocation
    /// ratio when it is below 1 (16 x 0.5 = 8 cores, 4096 x 0.5 = 2048 MiB, 4 x 0.5 = 2 GPU
    /// cores), the core speed for VCpuCapacity, and nothing for the filters without a resource.
    #[test]
    fn empty_capacity_is_the_resource_under_the_ratio() {
        let h = largest();
        let ratio = |allocation_ratio| {
            [
                Filter::VCpu { allocation_ratio },
                Filter::Ram { allocation_ratio },
                Filter::VGpu { allocation_ratio },
            ]
            .map(|f| empty_capacity(&f, &h))
        };
        assert_eq!(ratio(0.5), [8.0, 2048.0, 2.0]);
        assert_eq!(ratio(3.0), [16.0, 4096.0, 4.0]);
        assert_eq!(empty_capacity(&Filter::VCpuCapacity, &h), 2000.0);
        for f in [
            Filter::Compute,
            Filter::InstanceCount { limit: 0 },
            Filter::SameHost,
            Filter::DifferentHost,
        ] {
            assert_eq!(empty_capacity(&f, &h), 0.0, "{f:?}");
        }
    }

    /// Each filter's sentence for a task of 32 cores at 80000 MHz (2500 per core), 8192 MiB and
    /// 8 GPU cores; a ratio below 1 is mentioned, 1 and above are not.
    #[test]
    fn rejection_reasons_name_the_closest_host() {
        let d = Demand {
            cpu_count: 32,
            cpu_capacity: 80000.0,
            memory: 8192,
            gpu_count: 8,
            gpu_capacity: 0.0,
        };
        let h = largest();
        let reason = |f: Filter| rejection_reason(&f, &h, &d);
        let vcpu = |allocation_ratio| Filter::VCpu { allocation_ratio };
        assert_eq!(
            reason(vcpu(0.5)),
            "needs 32 cores, the largest host has 16 (allocation ratio 0.5)"
        );
        assert_eq!(reason(vcpu(1.0)), "needs 32 cores, the largest host has 16");
        assert_eq!(reason(vcpu(2.0)), "needs 32 cores, the largest host has 16");
        assert_eq!(
            reason(Filter::Ram {
                allocation_ratio: 0.25
            }),
            "needs 8192 MiB, the largest host has 4096 MiB (allocation ratio 0.25)"
        );
        assert_eq!(
            reason(Filter::VGpu {
                allocation_ratio: 1.0
            }),
            "needs 8 GPU cores, the largest host has 4"
        );
        assert_eq!(
            reason(Filter::VCpuCapacity),
            "needs 2500 MHz per core, the fastest host runs at 2000 MHz"
        );
        assert_eq!(reason(Filter::Compute), "every host is down");
        assert_eq!(
            reason(Filter::InstanceCount { limit: 0 }),
            "InstanceCount limit 0 admits no task"
        );
    }
}
