//! The scheduler a policy selects, behind one entry point, so the simulator never asks which one
//! it runs: the filter scheduler ([`rank`]), the memorizing scheduler
//! ([`memorizing`](super::memorizing)) or, under Current, OpenDC 3's filter scheduler
//! ([`current`](super::current)). It is told of every change of a host's counters
//! ([`Scheduler::changed`]) and can keep a shadow Current state beside a Classic run, for the
//! explanation's other choice ([`other`](super::other)).

use super::current::{self, refusal, Current, HostTypes};
use super::explain::Placement;
use super::memorizing::Buckets;
use super::other::{other_choice, Choices};
use super::rank::{self, Choice, Scratch};
use super::semantics::Semantics;
use super::{Demand, HostState};
use crate::policy::Policy;
use rand::Rng as RngCore;

/// The host-choosing part of a policy, with the state it keeps between decisions.
#[derive(Debug, Clone)]
pub struct Scheduler {
    kind: Kind,
    /// Under Classic, OpenDC 3's state kept in step with the run, when asked for.
    shadow: Option<Box<Current>>,
}

#[derive(Debug, Clone)]
enum Kind {
    /// Filter, normalise, rank (SPEC 4).
    Filter(Scratch),
    /// Lowest bucket first (SPEC 6.3).
    Memorizing(Buckets),
    /// OpenDC 3's filter scheduler (SPEC 11.12).
    Current(Box<Current>),
}

impl Scheduler {
    /// The Classic scheduler of `policy` over hosts in their current state.
    pub fn new(policy: &Policy, hosts: &[HostState]) -> Self {
        let kind = if policy.memorize {
            Kind::Memorizing(Buckets::new(hosts))
        } else {
            Kind::Filter(Scratch::default())
        };
        Scheduler { kind, shadow: None }
    }

    /// The scheduler of `policy` under `semantics`: Current's filter scheduler where C1 says
    /// it decides. `shadow` keeps a Current state beside a Classic filter policy, so that
    /// explanations can say what OpenDC 3 would choose (it costs a Current decision per
    /// placement attempt). `types` gives the host types, read only when Current needs them.
    pub fn with_semantics(
        policy: &Policy,
        hosts: &[HostState],
        semantics: Semantics,
        types: impl FnOnce() -> HostTypes,
        shadow: bool,
    ) -> Self {
        let mut s = Scheduler::new(policy, hosts);
        if current::decides_for(policy) {
            let state = || Box::new(Current::new(&policy.filters, types(), hosts));
            match semantics {
                Semantics::Current => s.kind = Kind::Current(state()),
                Semantics::Classic if shadow => s.shadow = Some(state()),
                Semantics::Classic => {}
            }
        }
        s
    }

    /// The semantics this scheduler decides by.
    pub fn semantics(&self) -> Semantics {
        match self.kind {
            Kind::Current(_) => Semantics::Current,
            _ => Semantics::Classic,
        }
    }

    /// Chooses a host for `d`; draws from `rng` only when a Classic policy picks at random.
    /// Under Current the chosen host may refuse the task ([`Choice::refusal`]).
    pub fn select<R: RngCore + ?Sized>(
        &mut self,
        policy: &Policy,
        hosts: &[HostState],
        d: &Demand,
        rng: &mut R,
    ) -> Choice {
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.choose(policy, hosts, d, None);
        }
        match &mut self.kind {
            Kind::Filter(scratch) => rank::select(policy, hosts, d, rng, scratch),
            Kind::Memorizing(buckets) => Choice {
                host: buckets.select(&policy.filters, hosts, d),
                draw: None,
                refusal: None,
            },
            Kind::Current(state) => {
                let (host, _) = state.choose(policy, hosts, d, None);
                commit(state, hosts, d, host)
            }
        }
    }

    /// Chooses a host for `d` as [`Scheduler::select`] does and, when `explain` is set, explains
    /// the decision, with the other semantics' choice when it differs. The run's generator is
    /// advanced exactly as by `select`: the other choice draws from a clone.
    pub fn decide<R: RngCore + Clone>(
        &mut self,
        policy: &Policy,
        hosts: &[HostState],
        names: &[String],
        d: &Demand,
        rng: &mut R,
        explain: bool,
    ) -> (Choice, Option<Placement>) {
        if !explain {
            return (self.select(policy, hosts, d, rng), None);
        }
        match &mut self.kind {
            Kind::Current(state) => {
                let (host, trace) = state.choose(policy, hosts, d, Some(names));
                let classic =
                    rank::select(policy, hosts, d, &mut rng.clone(), &mut Scratch::default());
                let mut placement =
                    trace.map(|t| state.placement(policy, hosts, names, d, host, t));
                let choices = Choices {
                    classic: classic.host,
                    classic_drew: classic.draw.is_some(),
                    current: host,
                    state,
                };
                let other = other_choice(Semantics::Classic, &choices, policy, hosts, names, d);
                let choice = commit(state, hosts, d, host);
                if let Some(p) = placement.as_mut() {
                    p.other = other.map(Box::new);
                    refused(p, &choice, names);
                }
                (choice, placement)
            }
            _ => {
                let choice = self.select(policy, hosts, d, rng);
                let mut placement = self.explain(policy, hosts, names, d, &choice);
                if let Some(shadow) = &self.shadow {
                    let choices = Choices {
                        classic: choice.host,
                        classic_drew: choice.draw.is_some(),
                        current: shadow.last_choice(),
                        state: shadow,
                    };
                    placement.other =
                        other_choice(Semantics::Current, &choices, policy, hosts, names, d)
                            .map(Box::new);
                }
                (choice, Some(placement))
            }
        }
    }

    /// The explanation of the decision [`Scheduler::select`] just made with the same arguments
    /// (Classic schedulers; a Current decision is explained only by [`Scheduler::decide`], since
    /// deciding again would change its weights).
    pub fn explain(
        &mut self,
        policy: &Policy,
        hosts: &[HostState],
        names: &[String],
        d: &Demand,
        choice: &Choice,
    ) -> Placement {
        match &mut self.kind {
            Kind::Filter(scratch) => rank::explain(policy, hosts, names, d, choice, scratch),
            Kind::Memorizing(buckets) => {
                buckets.explain(&policy.filters, hosts, names, d, choice.host)
            }
            Kind::Current(_) => Placement {
                semantics: Semantics::Current,
                chosen: choice.host.map(|h| names[h].clone()),
                summary: "a Current decision is explained as it is taken (Scheduler::decide)"
                    .into(),
                ..Placement::classic()
            },
        }
    }

    /// A host's number of running tasks changed from `before` to `after` (Classic memorizing
    /// buckets only; see [`Scheduler::changed`]).
    pub fn moved(&mut self, host: usize, before: u32, after: u32) {
        if let Kind::Memorizing(buckets) = &mut self.kind {
            buckets.moved(host, before, after);
        }
    }

    /// A case's `set` overwrote host `host`, which was `before` (SPEC 11.13): the memorizing
    /// buckets follow its task count; Current removes a host that went down, appends one that
    /// came up to the end of its type, and updates any other (C5, C12).
    pub fn overwritten(&mut self, hosts: &[HostState], host: usize, before: &HostState) {
        self.moved(host, before.instance_count, hosts[host].instance_count);
        let came_up = !before.up && hosts[host].up;
        let states = match &mut self.kind {
            Kind::Current(state) => Some(state),
            _ => None,
        };
        for state in states.into_iter().chain(self.shadow.as_mut()) {
            if came_up {
                state.came_up(hosts, host);
            } else {
                state.update(hosts, host);
            }
        }
    }

    /// Host `host`'s counters changed (a placement or a release), its running tasks from
    /// `before` to what `hosts` now says: every state that orders hosts follows (C5, C11).
    pub fn changed(&mut self, hosts: &[HostState], host: usize, before: u32) {
        self.moved(host, before, hosts[host].instance_count);
        if let Kind::Current(state) = &mut self.kind {
            state.update(hosts, host);
        }
        if let Some(shadow) = self.shadow.as_mut() {
            shadow.update(hosts, host);
        }
    }
}

/// After a Current choice (C13): the chosen empty host enters U, then its spawn check.
fn commit(state: &mut Current, hosts: &[HostState], d: &Demand, host: Option<usize>) -> Choice {
    if let Some(h) = host {
        state.admit(hosts, h);
    }
    Choice {
        host,
        draw: None,
        refusal: host.and_then(|h| refusal::check(&hosts[h], d)),
    }
}

/// Marks a placement whose chosen host refused the task: no host is chosen, the refusal says
/// why.
fn refused(p: &mut Placement, choice: &Choice, names: &[String]) {
    if let (Some(r), Some(h)) = (choice.refusal, choice.host) {
        let reason = r.reason(&names[h]);
        p.summary.push_str(&format!("; {reason}"));
        p.refusal = Some(reason);
        p.chosen = None;
    }
}
