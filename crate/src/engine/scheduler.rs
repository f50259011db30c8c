//! The scheduler a policy selects, behind one entry point, so the simulator never asks which one
//! it runs: the filter scheduler ([`rank`]) or the memorizing scheduler ([`memorizing`](super::memorizing)).

use super::explain::Placement;
use super::memorizing::Buckets;
use super::rank::{self, Choice, Scratch};
use super::{Demand, HostState};
use crate::policy::Policy;
use rand::Rng as RngCore;

/// The host-choosing part of a policy, with the state it keeps between decisions.
#[derive(Debug, Clone)]
pub enum Scheduler {
    /// Filter, normalise, rank (SPEC 4).
    Filter(Scratch),
    /// Lowest bucket first (SPEC 6.3).
    Memorizing(Buckets),
}

impl Scheduler {
    /// The scheduler of `policy` over hosts in their current state.
    pub fn new(policy: &Policy, hosts: &[HostState]) -> Self {
        if policy.memorize {
            Scheduler::Memorizing(Buckets::new(hosts))
        } else {
            Scheduler::Filter(Scratch::default())
        }
    }

    /// Chooses a host for `d`; draws from `rng` only when the policy picks at random.
    pub fn select<R: RngCore + ?Sized>(
        &mut self,
        policy: &Policy,
        hosts: &[HostState],
        d: &Demand,
        rng: &mut R,
    ) -> Choice {
        match self {
            Scheduler::Filter(scratch) => rank::select(policy, hosts, d, rng, scratch),
            Scheduler::Memorizing(buckets) => Choice {
                host: buckets.select(&policy.filters, hosts, d),
                draw: None,
            },
        }
    }

    /// The explanation of the decision [`Scheduler::select`] just made with the same arguments.
    pub fn explain(
        &mut self,
        policy: &Policy,
        hosts: &[HostState],
        names: &[String],
        d: &Demand,
        choice: &Choice,
    ) -> Placement {
        match self {
            Scheduler::Filter(scratch) => rank::explain(policy, hosts, names, d, choice, scratch),
            Scheduler::Memorizing(buckets) => {
                buckets.explain(&policy.filters, hosts, names, d, choice.host)
            }
        }
    }

    /// A host's number of running tasks changed from `before` to `after`.
    pub fn moved(&mut self, host: usize, before: u32, after: u32) {
        if let Scheduler::Memorizing(buckets) = self {
            buckets.moved(host, before, after);
        }
    }
}
