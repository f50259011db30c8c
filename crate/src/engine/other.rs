//! The other semantics' choice (SPEC 11.12, C20): beside every explained decision, which host
//! the semantics that did not run would choose, and the first rule that makes them differ:
//! `not a candidate` (C6, C12), `no draw` (C10) or `persistent weights` (C9).
//!
//! Under a Classic run a shadow [`Current`] state is kept in step with the actual placements
//! and releases, its W updated by its own decisions; under a Current run Classic's choice is
//! drawn from a clone of the run's generator, so the run itself is untouched.

use super::current::Current;
use super::explain::OtherChoice;
use super::filter;
use super::host::{Demand, HostState};
use super::semantics::Semantics;
use crate::policy::Policy;

/// The two choices of one decision: Classic's (and whether it drew) and Current's, with the
/// Current state as that decision left it (its candidates), before the chosen host moved.
pub struct Choices<'a> {
    pub classic: Option<usize>,
    pub classic_drew: bool,
    pub current: Option<usize>,
    pub state: &'a Current,
}

/// What `other` would choose when it differs from the choice taken; `None` when they agree.
pub fn other_choice(
    other: Semantics,
    c: &Choices,
    policy: &Policy,
    hosts: &[HostState],
    names: &[String],
    d: &Demand,
) -> Option<OtherChoice> {
    if c.classic == c.current {
        return None;
    }
    let (who, host) = match other {
        Semantics::Current => ("OpenDC 3", c.current),
        Semantics::Classic => ("Classic", c.classic),
    };
    let (rule, why) = rule(c, policy, hosts, names, d);
    let what = host.map_or("place it nowhere now".to_string(), |h| {
        format!("choose {}", names[h])
    });
    Some(OtherChoice {
        semantics: other,
        host: host.map(|h| names[h].clone()),
        rule,
        text: format!("{who} would {what}: {why}"),
    })
}

/// The first rule that separates the two choices, and the sentence saying it.
fn rule(
    c: &Choices,
    policy: &Policy,
    hosts: &[HostState],
    names: &[String],
    d: &Demand,
) -> (&'static str, String) {
    if let Some(x) = c.classic {
        if let Some(why) = c.state.not_considered(hosts, x) {
            return ("not a candidate", why);
        }
    }
    if let Some(y) = c.current {
        if let Some(f) = filter::first_failing(&policy.filters, &hosts[y], d) {
            return (
                "not a candidate",
                format!(
                    "{} fails {}, which OpenDC 3 does not test again on used hosts",
                    names[y],
                    policy.filters[f].name()
                ),
            );
        }
    }
    if c.classic_drew {
        return (
            "no draw",
            "OpenDC 3 ignores subsetSize and draws nothing; Classic draws among the best ranked"
                .into(),
        );
    }
    (
        "persistent weights",
        "OpenDC 3's weights persist by candidate position, and the first W above the raw weight of the previous best wins".into(),
    )
}
