//! Where a policy behaves differently here than in OpenDC (SPEC 9, SPEC 11.12): each documented
//! difference that applies to a policy, with the place in the policy it is about, so that the
//! editor can mark it there and an export's NOTES.md can list it. One copy of these texts.

use super::{Filter, Policy, WeigherKind};
use crate::engine::Semantics;

/// The part of a policy a difference is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The weigher at this index.
    Weigher(usize),
    /// The filter at this index.
    Filter(usize),
    SubsetSize,
    Memorize,
    /// The time-shifting part as a whole.
    Timeshift,
    Forecast,
    TaskStopper,
}

/// One documented difference.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub part: Part,
    pub text: String,
}

fn at(part: Part, text: &str) -> Difference {
    Difference {
        part,
        text: text.to_string(),
    }
}

/// The differences that apply to `policy` when it runs under `semantics`. Under Current, what
/// Current reproduces of OpenDC 3 (CoreRam's double multiplier, OpenDC 3's normalisation, the
/// ignored subsetSize) is no difference from OpenDC 3, only from OpenDC 2.
pub fn differences(policy: &Policy, semantics: Semantics) -> Vec<Difference> {
    let mut out = Vec::new();
    if policy.memorize {
        out.push(at(Part::Memorize, "Memorizing scheduler (SPEC 9.8): OpenDC's bucket index can overshoot and hide emptier hosts, counts a skip more than once per cycle and stops its walk after 10 000 tasks, so placements can differ."));
    } else {
        out.extend(ranking(policy, semantics));
    }
    if let Some(ts) = &policy.timeshift {
        out.push(at(Part::Timeshift, "Time-shifting (SPEC 9.6): deferred tasks get a wake-up at their latest start here; OpenDC has none and can miss deadlines or leave tasks queued."));
        let forecast = if ts.forecast {
            format!("Forecast mode (SPEC 9.7): OpenDC's forecast holds forecastSize - 1 = {} values, the playground's {}.", ts.forecast_size.saturating_sub(1), ts.forecast_size)
        } else {
            "Window mode (SPEC 9.7): OpenDC requires a rising intensity for short tasks and counts a spurious first value in its window.".to_string()
        };
        out.push(Difference {
            part: Part::Forecast,
            text: forecast,
        });
        if ts.task_stopper.is_some() {
            out.push(at(Part::TaskStopper, "Task stopper (SPEC 9.5): OpenDC pauses every running task and re-places the non-deferrable ones at once; here only deferrable tasks that can still meet their deadline pause, at sample starts."));
        }
    }
    out
}

/// The filter scheduler's differences (a timeshift policy keeps Classic's host choice, C15).
fn ranking(policy: &Policy, semantics: Semantics) -> Vec<Difference> {
    let current = !semantics.is_classic() && policy.timeshift.is_none();
    let mut out = Vec::new();
    if policy.subset_size > 1 {
        let text = if current {
            format!("subsetSize {} (SPEC 11.12, C10): ignored under Current, as OpenDC 3 ignores it; OpenDC 2 (v2.4e/v2.4f) picks at random among the best {}.", policy.subset_size, policy.subset_size)
        } else {
            format!("subsetSize {} (SPEC 9, filter scheduler): OpenDC after v2.4f ignores subsetSize and considers one empty host per host type; v2.4e/v2.4f pick at random among the best {} as here, but from another random stream.", policy.subset_size, policy.subset_size)
        };
        out.push(Difference {
            part: Part::SubsetSize,
            text,
        });
    }
    for (i, w) in policy.weighers.iter().enumerate() {
        if w.kind == WeigherKind::CoreRam && !current {
            out.push(at(Part::Weigher(i), "CoreRam weigher (SPEC 9.1): OpenDC applies its multiplier twice, so a negative multiplier (CoreMemInv) behaves like a positive one there."));
        }
        if w.kind == WeigherKind::VCpu && w.multiplier < 0.0 {
            out.push(at(Part::Weigher(i), "VCpu weigher with a negative multiplier (SPEC 9.3): OpenDC's legacy reader passes the multiplier as the allocation ratio and fails on a negative one."));
        }
    }
    let normalised = policy.weighers.len() > 1
        || policy
            .weighers
            .iter()
            .any(|w| w.kind == WeigherKind::InstanceCount);
    if normalised && !current {
        out.push(at(Part::Weigher(0), "Weigher normalisation (SPEC 9.2): where every host scores the same (often zero at the start), OpenDC's normalisation gives NaN while the playground adds nothing; ties can then break differently."));
    }
    for (i, f) in policy.filters.iter().enumerate() {
        if matches!(f, Filter::SameHost | Filter::DifferentHost) {
            out.push(at(Part::Filter(i), "SameHost / DifferentHost: without effect here and in OpenDC after v2.4f; v2.4f honours scheduler hints."));
        }
    }
    out
}
