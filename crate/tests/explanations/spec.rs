//! SPEC 3 and 4 written out again, from the tables, for checking explanations on random inputs:
//! which hosts a filter keeps, a weigher's raw score, a contribution and a total.

use policy_playground::engine::{Demand, HostState};
use policy_playground::policy::{Filter, Policy, WeigherKind};

/// SPEC 3: true when filter `f` keeps host `h` for task `d`.
pub fn keeps(f: &Filter, h: &HostState, d: &Demand) -> bool {
    match *f {
        Filter::Compute => h.up,
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
            let provisioned = (h.memory - h.available_memory) as f64;
            d.memory <= h.memory && h.memory as f64 * r - provisioned >= d.memory as f64
        }
        Filter::InstanceCount { limit } => h.instance_count < limit,
        Filter::SameHost | Filter::DifferentHost => true,
        Filter::VGpu {
            allocation_ratio: r,
        } => {
            d.gpu_count <= h.gpu_cores
                && h.gpu_cores as f64 * r - h.provisioned_gpu_cores as f64 >= d.gpu_count as f64
        }
    }
}

/// SPEC 3: the index of the first filter, in list order, that turns `h` away.
pub fn first_rejecting(p: &Policy, h: &HostState, d: &Demand) -> Option<usize> {
    p.filters.iter().position(|f| !keeps(f, h, d))
}

/// SPEC 4: the raw score of `h` for weigher `kind`.
pub fn raw(kind: WeigherKind, h: &HostState) -> f64 {
    match kind {
        WeigherKind::Ram => h.available_memory as f64,
        WeigherKind::CoreRam if h.cores == 0 => 0.0,
        WeigherKind::CoreRam => h.available_memory as f64 / h.cores as f64,
        WeigherKind::InstanceCount => h.instance_count as f64,
        WeigherKind::VCpuCapacity => h.cores as f64 * h.core_speed,
        WeigherKind::VCpu => -(h.provisioned_cores as f64),
        WeigherKind::VGpu => -(h.provisioned_gpu_cores as f64),
    }
}

/// SPEC 4.1: `(multiplier * (raw - min)) / (max - min)`, nothing when `max == min`.
pub fn contribution(multiplier: f64, raw: f64, min: f64, max: f64) -> f64 {
    if max == min {
        0.0
    } else {
        (multiplier * (raw - min)) / (max - min)
    }
}

/// Per weigher, `(min, max)` of the raw scores of `candidates`.
pub fn ranges(p: &Policy, hosts: &[HostState], candidates: &[usize]) -> Vec<(f64, f64)> {
    p.weighers
        .iter()
        .map(|w| {
            let raws = candidates.iter().map(|&i| raw(w.kind, &hosts[i]));
            let min = raws.clone().fold(f64::INFINITY, f64::min);
            let max = raws.fold(f64::NEG_INFINITY, f64::max);
            (min, max)
        })
        .collect()
}

/// SPEC 4.2: a candidate's total, from 0.0, adding the contributions in weigher order.
pub fn total(p: &Policy, h: &HostState, ranges: &[(f64, f64)]) -> f64 {
    p.weighers
        .iter()
        .zip(ranges)
        .fold(0.0, |t, (w, &(min, max))| {
            t + contribution(w.multiplier, raw(w.kind, h), min, max)
        })
}

/// SPEC 4.2: the candidates (topology indices) ranked by total, descending, ties in topology
/// order.
pub fn ranking(p: &Policy, hosts: &[HostState], candidates: &[usize]) -> Vec<usize> {
    let ranges = ranges(p, hosts, candidates);
    let mut ranked = candidates.to_vec();
    ranked.sort_by(|&a, &b| {
        let (ta, tb) = (total(p, &hosts[a], &ranges), total(p, &hosts[b], &ranges));
        tb.partial_cmp(&ta).expect("finite totals")
    });
    ranked
}
