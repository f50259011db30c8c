//! One decision of the Current filter scheduler (SPEC 11.12, C6-C10): the candidates (used hosts
//! from the lower bound on, then the first empty host of each type), OpenDC 3's raw weights and
//! its choice over the persistent W. No random number is drawn (C10).

use super::super::filter;
use super::super::host::{Demand, HostState};
use super::super::java::{jmax, jmin, MIN_VALUE};
use super::order;
use super::trace::{nums, Candidate, CurrentTrace, FailedHead, MaxUpdate, Num, WeigherPass};
use super::Current;
use crate::policy::{Filter, Policy, WeigherKind};

/// OpenDC 3's raw weight of a host (C8); `multiplier` is applied here by CoreRam only.
#[inline]
pub fn raw(kind: WeigherKind, multiplier: f64, h: &HostState, d: &Demand) -> f64 {
    match kind {
        WeigherKind::Ram => h.available_memory as f64,
        WeigherKind::CoreRam => multiplier * (h.available_memory as f64 / h.cores as f64),
        WeigherKind::InstanceCount => h.instance_count as f64,
        WeigherKind::VCpuCapacity => h.cpu_capacity - d.cpu_capacity / d.cpu_count as f64,
        WeigherKind::VCpu => 1.0 - h.provisioned_cores as f64,
        WeigherKind::VGpu => 1.0 - h.provisioned_gpu_cores as f64,
    }
}

impl Current {
    /// Chooses a host for `d` (C6-C10), updating W. `None` when there is no candidate (C7).
    /// With `names`, the decision's record (C20) comes back too. The chosen host is not moved:
    /// see [`Current::admit`].
    pub fn choose(
        &mut self,
        policy: &Policy,
        hosts: &[HostState],
        d: &Demand,
        names: Option<&[String]>,
    ) -> (Option<usize>, Option<CurrentTrace>) {
        let mut trace = names.map(|_| CurrentTrace {
            candidates: vec![],
            lower_bound: 0,
            used: self.used.len(),
            failed_heads: vec![],
            weighers: vec![],
            max_updates: vec![],
            max_idx: None,
            max_w: Num(MIN_VALUE),
        });
        let n_used = self.candidates_for(&policy.filters, hosts, d, names, trace.as_mut());
        if let (Some(t), Some(names)) = (trace.as_mut(), names) {
            t.candidates = self.origins(n_used, names);
        }
        if self.candidates.is_empty() {
            self.last_choice = None;
            return (None, trace);
        }
        let idx = if policy.weighers.is_empty() {
            if let Some(t) = trace.as_mut() {
                t.max_idx = Some(0);
            }
            0
        } else {
            self.weigh(policy, hosts, d, names, trace.as_mut())
        };
        self.last_choice = Some(self.candidates[idx] as usize);
        (self.last_choice, trace)
    }

    /// Sets `self.candidates` to C (C6) and returns how many of them are used hosts.
    fn candidates_for(
        &mut self,
        filters: &[Filter],
        hosts: &[HostState],
        d: &Demand,
        names: Option<&[String]>,
        trace: Option<&mut CurrentTrace>,
    ) -> usize {
        self.candidates.clear();
        let (first, rest) = match filters.split_first() {
            Some((first, rest)) => (Some(first), rest),
            None => (None, filters),
        };
        let lo = first.map_or(0, |f| order::lower_bound(f, hosts, &self.used, d));
        self.lower_bound = lo;
        for &u in &self.used[lo..] {
            if filter::first_failing(rest, &hosts[u as usize], d).is_none() {
                self.candidates.push(u);
            }
        }
        let n_used = self.candidates.len();
        let mut failed = Vec::new();
        for (t, list) in self.empty.iter().enumerate() {
            let Some(&head) = list.front() else { continue };
            match filter::first_failing(filters, &hosts[head as usize], d) {
                None => self.candidates.push(head),
                Some(f) if names.is_some() => failed.push((t, head, f)),
                Some(_) => {}
            }
        }
        if let (Some(tr), Some(names)) = (trace, names) {
            tr.lower_bound = lo;
            tr.failed_heads = failed
                .into_iter()
                .map(|(t, head, f)| FailedHead {
                    host_type: self.types.names[t].clone(),
                    host: names[head as usize].clone(),
                    filter: filters[f].name(),
                    reason: filter::reason(&filters[f], &hosts[head as usize], d),
                })
                .collect();
        }
        n_used
    }

    /// Each candidate's origin: `used`, or `empty, first of type T`.
    fn origins(&self, n_used: usize, names: &[String]) -> Vec<Candidate> {
        self.candidates
            .iter()
            .enumerate()
            .map(|(i, &c)| Candidate {
                host: names[c as usize].clone(),
                origin: if i < n_used {
                    "used".to_string()
                } else {
                    format!("empty, first of type {}", self.types.name(c as usize))
                },
            })
            .collect()
    }

    /// The weights and the choice of C9 over `self.candidates`; returns maxIdx.
    fn weigh(
        &mut self,
        policy: &Policy,
        hosts: &[HostState],
        d: &Demand,
        names: Option<&[String]>,
        mut trace: Option<&mut CurrentTrace>,
    ) -> usize {
        let n = self.candidates.len();
        let (mut max_w, mut max_idx) = (MIN_VALUE, 0usize);
        for (wi, weigher) in policy.weighers.iter().enumerate() {
            let m = weigher.multiplier;
            self.raws.clear();
            for &c in &self.candidates {
                self.raws.push(raw(weigher.kind, m, &hosts[c as usize], d));
            }
            let (mut lo, mut hi) = (f64::MAX, MIN_VALUE);
            for &w in &self.raws {
                lo = jmin(lo, w);
                hi = jmax(hi, w);
            }
            let range = hi - lo;
            let w_before = trace.as_ref().map(|_| nums(&self.weights[..n]));
            let skipped = range == 0.0;
            let factor = m / range;
            if !skipped {
                for i in 0..n {
                    self.weights[i] += factor * (self.raws[i] - lo);
                    if self.weights[i] > max_w {
                        max_idx = i;
                        max_w = self.raws[i];
                        if let (Some(t), Some(names)) = (trace.as_mut(), names) {
                            t.max_updates.push(MaxUpdate {
                                weigher: wi,
                                index: i,
                                host: names[self.candidates[i] as usize].clone(),
                                w: Num(self.weights[i]),
                                max_w: Num(max_w),
                            });
                        }
                    }
                }
            }
            if let (Some(t), Some(w_before)) = (trace.as_mut(), w_before) {
                t.weighers.push(WeigherPass {
                    weigher: weigher.kind.name(),
                    multiplier: m,
                    raw: nums(&self.raws),
                    lo: Num(lo),
                    hi: Num(hi),
                    range: Num(range),
                    factor: (!skipped).then_some(Num(factor)),
                    skipped,
                    w_before,
                    w_after: nums(&self.weights[..n]),
                });
            }
        }
        if let Some(t) = trace {
            t.max_idx = Some(max_idx);
            t.max_w = Num(max_w);
        }
        max_idx
    }

    /// C, as the last decision left it.
    pub fn candidates(&self) -> &[u32] {
        &self.candidates
    }
}
