//! The Current filter scheduler (SPEC 11.12, C2-C13): OpenDC 3's `FilterScheduler`.
//!
//! Its state lives for a whole run: `E`, one FIFO of empty hosts per host type ([`types`]); `U`,
//! the used hosts sorted by key ([`order`]); and `W`, weights by candidate position that are
//! never reset. [`choose`] makes a decision (candidates, weights, the choice), [`refusal`] is
//! the host's spawn check, [`trace`] the record of a decision and [`explain`] its table.
//!
//! The scheduler is told of every change of a host's counters ([`Current::update`], C5):
//! after a placement, after a release, and after a case's `set`.

pub mod choose;
pub mod explain;
pub mod order;
pub mod refusal;
pub mod trace;
pub mod types;

use super::host::HostState;
use crate::policy::{Filter, Policy};
use std::collections::VecDeque;
pub use types::HostTypes;

/// True when the Current filter scheduler decides for `policy` under Current (C1): filter
/// policies without `memorize`. Memorizing policies keep SPEC 6.3 (C16) and time-shifting ones
/// the Classic choice (C15).
pub fn decides_for(policy: &Policy) -> bool {
    !policy.memorize && policy.timeshift.is_none()
}

/// The state of a Current filter policy for one run (C2).
#[derive(Debug, Clone)]
pub struct Current {
    /// The policy's filters: the key of a used host (C3).
    filters: Vec<Filter>,
    types: HostTypes,
    /// `E`: per type, in order of first appearance, its empty hosts, first in first out.
    empty: Vec<VecDeque<u32>>,
    /// `U`: the used hosts, sorted by key.
    used: Vec<u32>,
    in_empty: Vec<bool>,
    in_used: Vec<bool>,
    /// `W`: one slot per host, indexed by position in C, never reset.
    weights: Vec<f64>,
    /// Buffers of a decision: C, and one weigher's raw weights.
    candidates: Vec<u32>,
    raws: Vec<f64>,
    /// The last decision's lower bound in U (C6.1).
    lower_bound: usize,
    /// The last decision's choice.
    last_choice: Option<usize>,
}

impl Current {
    /// The state at the start (C2, and 11.13 for cases): used hosts inserted into U in host
    /// order, empty ones appended to their type's list, down hosts in neither; W all zeros.
    pub fn new(filters: &[Filter], types: HostTypes, hosts: &[HostState]) -> Self {
        let n = hosts.len();
        let mut state = Current {
            filters: filters.to_vec(),
            empty: vec![VecDeque::new(); types.names.len()],
            types,
            used: Vec::new(),
            in_empty: vec![false; n],
            in_used: vec![false; n],
            weights: vec![0.0; n],
            candidates: Vec::new(),
            raws: Vec::new(),
            lower_bound: 0,
            last_choice: None,
        };
        for h in 0..n {
            state.update(hosts, h);
        }
        state
    }

    /// Update(h) of C5, after h's counters changed: an empty host leaves U and queues at the
    /// end of its type's list (unless already there); a used one leaves E and is re-inserted
    /// into U. A host that is down is in neither (C12).
    pub fn update(&mut self, hosts: &[HostState], h: usize) {
        if !hosts[h].up {
            self.remove_empty(h);
            self.remove_used(h);
        } else if hosts[h].instance_count == 0 {
            self.remove_used(h);
            if !self.in_empty[h] {
                self.empty[self.types.of[h] as usize].push_back(h as u32);
                self.in_empty[h] = true;
            }
        } else {
            self.remove_empty(h);
            self.remove_used(h);
            self.insert_used(hosts, h);
        }
    }

    /// A host that came back up (C12): appended to the end of its type's list, then updated
    /// (so a host with tasks goes to U).
    pub fn came_up(&mut self, hosts: &[HostState], h: usize) {
        self.remove_used(h);
        if !self.in_empty[h] {
            self.empty[self.types.of[h] as usize].push_back(h as u32);
            self.in_empty[h] = true;
        }
        self.update(hosts, h);
    }

    /// The first step after a choice (C13): a chosen host still in E leaves it and enters U
    /// with its current key, before the host's spawn check.
    pub fn admit(&mut self, hosts: &[HostState], h: usize) {
        if self.in_empty[h] {
            self.remove_empty(h);
            if !self.in_used[h] {
                self.insert_used(hosts, h);
            }
        }
    }

    fn insert_used(&mut self, hosts: &[HostState], h: usize) {
        let at = order::insert_position(&self.filters, hosts, &self.used, h);
        self.used.insert(at, h as u32);
        self.in_used[h] = true;
    }

    fn remove_used(&mut self, h: usize) {
        if self.in_used[h] {
            if let Some(at) = self.used.iter().position(|&u| u as usize == h) {
                self.used.remove(at);
            }
            self.in_used[h] = false;
        }
    }

    fn remove_empty(&mut self, h: usize) {
        if self.in_empty[h] {
            let list = &mut self.empty[self.types.of[h] as usize];
            if let Some(at) = list.iter().position(|&e| e as usize == h) {
                list.remove(at);
            }
            self.in_empty[h] = false;
        }
    }

    /// `U`, in order.
    pub fn used(&self) -> &[u32] {
        &self.used
    }

    /// `E`'s list of type `t` (by its index in [`HostTypes::names`]).
    pub fn empty_of_type(&self, t: usize) -> &VecDeque<u32> {
        &self.empty[t]
    }

    /// `W`.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// The host the last decision chose (before any spawn check).
    pub fn last_choice(&self) -> Option<usize> {
        self.last_choice
    }

    /// The host types.
    pub fn types(&self) -> &HostTypes {
        &self.types
    }

    /// Why host `h` is not among the last decision's candidates, as a rule of C6 or C12;
    /// `None` when it is one, or when it was tested and failed a filter.
    pub fn not_considered(&self, hosts: &[HostState], h: usize) -> Option<String> {
        if self.candidates.iter().any(|&c| c as usize == h) {
            return None;
        }
        if !hosts[h].up {
            return Some("a host that is down is never a candidate".into());
        }
        if self.in_empty[h] {
            let head = self.empty[self.types.of[h] as usize].front();
            return (head != Some(&(h as u32)))
                .then(|| "only the first empty host of each type is a candidate".into());
        }
        let pos = self.used.iter().position(|&u| u as usize == h)?;
        (pos < self.lower_bound).then(|| {
            let first = self.filters.first().map_or("", |f| f.name());
            format!("a used host below the lower bound on {first} is not a candidate")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filters() -> Vec<Filter> {
        crate::policy::prefab::default_policy().filters
    }

    fn used(mut h: HostState, cores: i64, mem: i64) -> HostState {
        h.instance_count = 1;
        h.provisioned_cores = cores;
        h.available_memory -= mem;
        h
    }

    /// The start of 11.13: used hosts go to U by Insert, empty ones to their type's list in
    /// host order, down hosts nowhere; a release that empties a host queues it behind the other
    /// empty hosts of its type (C5, consequence 3).
    #[test]
    fn initial_state_and_release_order() {
        let e = HostState::empty(8, 2000.0, 16384, 0);
        let down = HostState { up: false, ..e };
        let mut hosts = vec![e, used(e, 2, 1024), e, down, used(e, 6, 1024)];
        let types = HostTypes::from_names(["a", "a", "a", "a", "b"]);
        let mut s = Current::new(&filters(), types, &hosts);
        // Keys (free cores): host 1 has 6, host 4 has 2: U = [4, 1].
        assert_eq!(s.used(), &[4, 1]);
        assert_eq!(s.empty_of_type(0), &VecDeque::from([0, 2]));
        assert!(s.empty_of_type(1).is_empty());
        hosts[1] = e;
        s.update(&hosts, 1);
        assert_eq!(s.used(), &[4]);
        assert_eq!(s.empty_of_type(0), &VecDeque::from([0, 2, 1]));
        hosts[3].up = true;
        s.came_up(&hosts, 3);
        assert_eq!(s.empty_of_type(0), &VecDeque::from([0, 2, 1, 3]));
        assert_eq!(s.weights(), &[0.0; 5]);
    }

    /// A chosen empty host leaves E for U before the spawn check (C13), and stays there with
    /// its empty key until an update moves it.
    #[test]
    fn admit_moves_a_head_into_u() {
        let e = HostState::empty(8, 2000.0, 16384, 0);
        let hosts = vec![e, e];
        let mut s = Current::new(&filters(), HostTypes::from_names(["a", "a"]), &hosts);
        s.admit(&hosts, 0);
        assert_eq!(s.used(), &[0]);
        assert_eq!(s.empty_of_type(0), &VecDeque::from([1]));
        s.admit(&hosts, 0);
        assert_eq!(s.used(), &[0], "not inserted a second time");
    }
}
