//! The explanation of a Current decision (SPEC 11.12, C20) as a [`Placement`]: every host's line
//! (a candidate with its weights, a type head that failed a filter, a used host below the lower
//! bound, an empty host behind its type's head, a down host), the weighers' ranges, the
//! decision's record and a sentence saying why the winner won.

use super::super::explain::{self, HostRow, Placement, Score, WeigherRange};
use super::super::filter;
use super::super::host::{Demand, HostState};
use super::super::semantics::Semantics;
use super::trace::CurrentTrace;
use super::Current;
use crate::policy::Policy;

/// `1st`, `2nd`, `3rd`, `4th`, ...
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl Current {
    /// The placement of the decision [`Current::choose`] just made (before [`Current::admit`]
    /// moves the chosen host), from its record.
    pub fn placement(
        &self,
        policy: &Policy,
        hosts: &[HostState],
        names: &[String],
        d: &Demand,
        chosen: Option<usize>,
        trace: CurrentTrace,
    ) -> Placement {
        let rows: Vec<HostRow> = (0..hosts.len())
            .map(|h| self.row(policy, hosts, names, d, &trace, h))
            .collect();
        let weighers = trace
            .weighers
            .iter()
            .map(|p| WeigherRange {
                weigher: p.weigher,
                multiplier: p.multiplier,
                min: Some(p.lo.0),
                max: Some(p.hi.0),
                active: !p.skipped,
            })
            .collect();
        let chosen_name = chosen.map(|i| names[i].clone());
        let mut summary = explain::summary(&rows, chosen_name.as_deref());
        if chosen.is_some() {
            summary.push_str(&format!(" {}", why(policy, &trace)));
        }
        let n = trace.candidates.len();
        Placement {
            scheduler: "filter",
            hosts: rows,
            weighers,
            candidates: n,
            subset: n.min(1),
            draw: None,
            chosen: chosen_name,
            summary,
            semantics: Semantics::Current,
            current: Some(Box::new(trace)),
            refusal: None,
            other: None,
        }
    }

    /// The line of host `h`.
    fn row(
        &self,
        policy: &Policy,
        hosts: &[HostState],
        names: &[String],
        d: &Demand,
        trace: &CurrentTrace,
        h: usize,
    ) -> HostRow {
        let mut row = HostRow {
            name: names[h].clone(),
            passed: false,
            rejected_by: None,
            reason: None,
            scores: vec![],
            total: None,
            rank: None,
            bucket: None,
        };
        if let Some(i) = self.candidates.iter().position(|&c| c as usize == h) {
            row.passed = true;
            row.rank = Some(i + 1);
            row.scores = scores(policy, trace, i);
            row.total = Some(self.weights[i]);
            return row;
        }
        let filters = &policy.filters;
        let failing = filter::first_failing(filters, &hosts[h], d);
        let reason = if !hosts[h].up {
            "down: in neither the empty lists nor the used list".to_string()
        } else if let Some(pos) = self.used.iter().position(|&u| u as usize == h) {
            if pos < trace.lower_bound {
                format!(
                    "used, below the lower bound on {}: not tested",
                    filters[0].name()
                )
            } else {
                return rejected(row, policy, hosts, d, h, failing);
            }
        } else {
            let list = &self.empty[self.types.of[h] as usize];
            match list.front() {
                Some(&head) if head as usize == h => {
                    return rejected(row, policy, hosts, d, h, failing)
                }
                Some(&head) => format!(
                    "empty, behind {} in type {}: only the first empty host of a type is considered",
                    names[head as usize],
                    self.types.name(h)
                ),
                None => "in neither list".to_string(),
            }
        };
        row.reason = Some(reason);
        row
    }
}

/// The line of a host that was tested and failed the filter `failing`.
fn rejected(
    mut row: HostRow,
    policy: &Policy,
    hosts: &[HostState],
    d: &Demand,
    h: usize,
    failing: Option<usize>,
) -> HostRow {
    if let Some(f) = failing {
        row.rejected_by = Some(policy.filters[f].name());
        row.reason = Some(filter::reason(&policy.filters[f], &hosts[h], d));
    }
    row
}

/// Candidate `i`'s scores: raw weight, `(raw - lo) / range`, multiplier and what its W got.
fn scores(policy: &Policy, trace: &CurrentTrace, i: usize) -> Vec<Score> {
    trace
        .weighers
        .iter()
        .zip(&policy.weighers)
        .map(|(p, w)| {
            let raw = p.raw[i].0;
            let (normalized, contribution) = match p.factor {
                Some(factor) => ((raw - p.lo.0) / p.range.0, factor.0 * (raw - p.lo.0)),
                None => (0.0, 0.0),
            };
            Score {
                weigher: p.weigher,
                raw,
                normalized,
                multiplier: w.multiplier,
                contribution,
            }
        })
        .collect()
}

/// Why C[maxIdx] won: `(used, 2nd candidate): W 1 > maxW 4.9e-324 at weigher Ram; ...`.
fn why(policy: &Policy, t: &CurrentTrace) -> String {
    let idx = t.max_idx.unwrap_or(0);
    let origin = t
        .candidates
        .get(idx)
        .map_or(String::new(), |c| c.origin.clone());
    let head = format!("({origin}, {} candidate)", ordinal(idx + 1));
    if policy.weighers.is_empty() {
        return format!("{head}: no weighers, the first candidate; nothing drawn");
    }
    let mut text = match t.max_updates.last() {
        None => format!("{head}: no W exceeded 4.9e-324, so the default index 0"),
        Some(u) => {
            let before = t
                .max_updates
                .len()
                .checked_sub(2)
                .map_or("4.9e-324".to_string(), |k| {
                    t.max_updates[k].max_w.to_string()
                });
            format!(
                "{head}: W {} > maxW {before} at weigher {}, maxW is now its raw weight {}",
                u.w,
                policy.weighers[u.weigher].kind.name(),
                u.max_w
            )
        }
    };
    let later: Vec<String> = t
        .weighers
        .last()
        .map(|p| {
            p.w_after
                .iter()
                .enumerate()
                .filter(|&(i, w)| i != idx && w.0 > 0.0)
                .map(|(i, w)| format!("{} had W {w}", t.candidates[i].host))
                .collect()
        })
        .unwrap_or_default();
    if !later.is_empty() {
        text.push_str(&format!(
            "; {} but could not beat maxW = {}",
            later.join(", "),
            t.max_w
        ));
    }
    if t.weighers
        .iter()
        .any(|p| p.w_after.iter().any(|w| w.0.is_nan()))
    {
        text.push_str("; NaN weights never win again");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal).into();
        assert_eq!(
            got,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
        );
    }
}
