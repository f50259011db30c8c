//! The reference kernel of the decision benchmark: the tightest code that makes the filter
//! scheduler's choice for one fixed policy (filters Compute, VCpu(1), Ram(1); weighers Ram(1),
//! VCpu(1); `subsetSize` 1), written for the benchmark over a flat host array.
//!
//! One pass filters into a preallocated buffer and tracks each weigher's min and max; one pass
//! scores and keeps a running best. No allocation, no explanation, no dispatch on the policy.
//! With allocation ratios of 1 the filters' float comparisons are integer comparisons (exact
//! below 2^53), and the scores use the engine's formula term by term, so the totals, and hence
//! the choice, are the same bits.

use crate::engine::{Demand, HostState};

/// A host as the kernel reads it.
#[derive(Debug, Clone, Copy)]
pub struct FlatHost {
    pub up: bool,
    pub cores: u32,
    pub provisioned_cores: i64,
    pub memory: i64,
    pub available_memory: i64,
}

impl FlatHost {
    /// The kernel's view of an engine host.
    pub fn of(h: &HostState) -> Self {
        FlatHost {
            up: h.up,
            cores: h.cores,
            provisioned_cores: h.provisioned_cores,
            memory: h.memory,
            available_memory: h.available_memory,
        }
    }
}

/// The kernel with its preallocated candidate buffer.
#[derive(Debug)]
pub struct Kernel {
    candidates: Vec<u32>,
}

impl Kernel {
    /// A kernel for clusters of up to `hosts` hosts.
    pub fn new(hosts: usize) -> Self {
        Kernel {
            candidates: Vec::with_capacity(hosts),
        }
    }

    /// The host the policy chooses for `d`, `None` when none passes the filters.
    #[inline(never)]
    pub fn select(&mut self, hosts: &[FlatHost], d: &Demand) -> Option<usize> {
        let c = &mut self.candidates;
        c.clear();
        let (mut min0, mut max0) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut min1, mut max1) = (f64::INFINITY, f64::NEG_INFINITY);
        let cpus = d.cpu_count as i64;
        for (i, h) in hosts.iter().enumerate() {
            let fits = h.up
                & (cpus <= h.cores as i64)
                & (h.cores as i64 - h.provisioned_cores >= cpus)
                & (d.memory <= h.memory)
                & (h.available_memory >= d.memory);
            if fits {
                c.push(i as u32);
                let r0 = h.available_memory as f64;
                let r1 = -(h.provisioned_cores as f64);
                min0 = min0.min(r0);
                max0 = max0.max(r0);
                min1 = min1.min(r1);
                max1 = max1.max(r1);
            }
        }
        let (d0, d1) = (max0 - min0, max1 - min1);
        let mut best = *c.first()?;
        let mut best_total = f64::NEG_INFINITY;
        for &i in c.iter() {
            let h = &hosts[i as usize];
            let mut t = 0.0;
            if d0 != 0.0 {
                t += (1.0 * (h.available_memory as f64 - min0)) / d0;
            }
            if d1 != 0.0 {
                t += (1.0 * (-(h.provisioned_cores as f64) - min1)) / d1;
            }
            if t > best_total {
                best = i;
                best_total = t;
            }
        }
        Some(best as usize)
    }
}
