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
/// [`first_failing`] accepts, computed one filter at a time so that each filter's test is one
/// tight, branch-free loop (the first over all hosts, the next over the hosts kept so far).
pub fn keep(filters: &[Filter], hosts: &[HostState], d: &Demand, out: &mut Vec<u32>) {
    out.clear();
    let mut filters = filters.iter();
    let Some(first) = filters.next() else {
        out.extend(0..hosts.len() as u32);
        return;
    };
    out.resize(hosts.len(), 0);
    let n = narrow(first, hosts, d, out, true);
    out.truncate(n);
    for f in filters {
        if out.is_empty() {
            return;
        }
        let n = narrow(f, hosts, d, out, false);
        out.truncate(n);
    }
}

/// One filter's pass of [`keep`]; the arms rebuild the filter so that [`passes`] inlines to
/// that filter's test alone.
#[inline]
fn narrow(f: &Filter, hosts: &[HostState], d: &Demand, out: &mut [u32], all: bool) -> usize {
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
