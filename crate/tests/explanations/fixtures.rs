//! Hosts, policies and decisions for the explanation tests, and assertions on a placement's
//! host table.

use policy_playground::engine::explain::{HostRow, Placement};
use policy_playground::engine::rank::{self, Choice, Scratch};
use policy_playground::engine::{Demand, HostState};
use policy_playground::policy::{Filter, Policy, Weigher, WeigherKind};

/// An empty, up host without GPUs.
pub fn host(cores: u32, core_speed: f64, memory: i64) -> HostState {
    HostState::empty(cores, core_speed, memory, 0)
}

/// An empty, up host with `gpu_cores` GPU cores.
pub fn host_gpu(cores: u32, core_speed: f64, memory: i64, gpu_cores: u32) -> HostState {
    HostState::empty(cores, core_speed, memory, gpu_cores)
}

/// `h` changed by `f`.
pub fn with(mut h: HostState, f: impl FnOnce(&mut HostState)) -> HostState {
    f(&mut h);
    h
}

/// A task's demand without GPUs.
pub fn demand(cpu_count: u32, cpu_capacity: f64, memory: i64) -> Demand {
    Demand {
        cpu_count,
        cpu_capacity,
        memory,
        ..Demand::default()
    }
}

/// A filter policy (not memorizing, not time-shifting).
pub fn policy(filters: Vec<Filter>, weighers: Vec<(WeigherKind, f64)>, subset_size: u32) -> Policy {
    Policy {
        filters,
        weighers: weighers
            .into_iter()
            .map(|(kind, multiplier)| Weigher { kind, multiplier })
            .collect(),
        subset_size,
        memorize: false,
        max_times_skipped: 0,
        timeshift: None,
    }
}

/// Host names by topology index: A, B, C, ...
pub fn letters(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| ((b'A' + i as u8) as char).to_string())
        .collect()
}

/// The filter scheduler's decision and its explanation, hosts named A, B, C, ...; the generator
/// must not be used (`subsetSize` 1, or no more than one candidate).
pub fn decide(p: &Policy, hosts: &[HostState], d: &Demand) -> (Choice, Placement) {
    decide_with(p, hosts, d, &mut Fixed(vec![]))
}

/// [`decide`] drawing from `rng`.
pub fn decide_with(
    p: &Policy,
    hosts: &[HostState],
    d: &Demand,
    rng: &mut Fixed,
) -> (Choice, Placement) {
    decide_named(p, hosts, &letters(hosts.len()), d, rng)
}

/// The decision and explanation with the hosts named `names`, as a caller does: `select`, then
/// `explain` on the same scratch space.
pub fn decide_named<R: rand::Rng + ?Sized>(
    p: &Policy,
    hosts: &[HostState],
    names: &[String],
    d: &Demand,
    rng: &mut R,
) -> (Choice, Placement) {
    let mut s = Scratch::default();
    let choice = rank::select(p, hosts, d, rng, &mut s);
    let e = rank::explain(p, hosts, names, d, &choice, &mut s);
    (choice, e)
}

/// A generator that returns these 64-bit outputs, in order (and panics past them).
pub struct Fixed(pub Vec<u64>);

impl rand::TryRng for Fixed {
    type Error = std::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.0.remove(0) as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.0.remove(0))
    }
    fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
        unimplemented!("a placement draws 64-bit outputs only")
    }
}

/// The row of the host called `name`.
pub fn row<'a>(e: &'a Placement, name: &str) -> &'a HostRow {
    e.hosts
        .iter()
        .find(|h| h.name == name)
        .unwrap_or_else(|| panic!("no host {name} in {e:?}"))
}

/// Every row's rank, in topology order.
pub fn ranks(e: &Placement) -> Vec<Option<usize>> {
    e.hosts.iter().map(|h| h.rank).collect()
}

/// Every row's total, in topology order.
pub fn totals(e: &Placement) -> Vec<Option<f64>> {
    e.hosts.iter().map(|h| h.total).collect()
}

/// Asserts a candidate's row: per weigher `(raw, normalised, contribution)`, then its total and
/// rank. Floats compare exactly (0.0 equals -0.0).
pub fn assert_scores(
    e: &Placement,
    name: &str,
    scores: &[(f64, f64, f64)],
    total: f64,
    rank: usize,
) {
    let r = row(e, name);
    assert!(
        r.passed && r.rejected_by.is_none() && r.reason.is_none(),
        "{r:?}"
    );
    let got: Vec<(f64, f64, f64)> = r
        .scores
        .iter()
        .map(|s| (s.raw, s.normalized, s.contribution))
        .collect();
    assert_eq!(
        got, scores,
        "{name}: (raw, normalized, contribution) per weigher"
    );
    let multipliers: Vec<f64> = r.scores.iter().map(|s| s.multiplier).collect();
    let policy_multipliers: Vec<f64> = e.weighers.iter().map(|w| w.multiplier).collect();
    assert_eq!(multipliers, policy_multipliers, "{name}: multipliers");
    assert_eq!(r.total, Some(total), "{name}: total");
    assert_eq!(r.rank, Some(rank), "{name}: rank");
}

/// Asserts a rejected host's row: the first filter that failed and its reason.
pub fn assert_rejected(e: &Placement, name: &str, filter: &str, reason: &str) {
    let r = row(e, name);
    assert!(!r.passed, "{name} should be rejected: {r:?}");
    assert_eq!(r.rejected_by, Some(filter), "{name}: filter");
    assert_eq!(r.reason.as_deref(), Some(reason), "{name}: reason");
    assert!(
        r.scores.is_empty() && r.total.is_none() && r.rank.is_none(),
        "{r:?}"
    );
}

/// Asserts each weigher's `(min, max, active)` over the candidates.
pub fn assert_ranges(e: &Placement, ranges: &[(f64, f64, bool)]) {
    let got: Vec<(Option<f64>, Option<f64>, bool)> = e
        .weighers
        .iter()
        .map(|w| (w.min, w.max, w.active))
        .collect();
    let want: Vec<(Option<f64>, Option<f64>, bool)> = ranges
        .iter()
        .map(|&(min, max, active)| (Some(min), Some(max), active))
        .collect();
    assert_eq!(got, want, "(min, max, active) per weigher");
}
