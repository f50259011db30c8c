//! The explanation of a decision: per host, the filters' verdicts and the weighers' scores, in
//! numbers (the kube-scheduler-simulator's filter and score tables). Built only on request, by
//! re-reading the state the deciding code left (see `rank::explain` and `memorizing::explain`).

use super::current::trace::CurrentTrace;
use super::draw::Draw;
use super::semantics::Semantics;
use serde::Serialize;

/// Why one placement went where it did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Placement {
    /// `filter` (filter, normalise, rank) or `memorizing` (lowest bucket first).
    pub scheduler: &'static str,
    /// Every host, in topology order.
    pub hosts: Vec<HostRow>,
    /// Per weigher: its range over the candidates.
    pub weighers: Vec<WeigherRange>,
    /// Number of hosts that passed every filter.
    pub candidates: usize,
    /// `min(subsetSize, candidates)`: how many ranked hosts the choice was drawn among.
    pub subset: usize,
    pub draw: Option<Draw>,
    /// The chosen host's name, `None` when no host fits now.
    pub chosen: Option<String>,
    /// `3 hosts: 1 rejected by Ram, 1 by VCpu; chose B`.
    pub summary: String,
    /// `current` when OpenDC 3's filter scheduler decided (SPEC 11.12); absent under Classic.
    #[serde(default, skip_serializing_if = "Semantics::is_classic")]
    pub semantics: Semantics,
    /// The Current decision's record (C20): candidates, weights, maxIdx and maxW.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub current: Option<Box<CurrentTrace>>,
    /// Why the chosen host refused the task (C13); `chosen` is then `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub refusal: Option<String>,
    /// What the other semantics would choose, when it differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub other: Option<Box<OtherChoice>>,
}

/// The other semantics' choice for the same decision, when it differs from the one taken.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OtherChoice {
    /// The semantics that would choose differently.
    pub semantics: Semantics,
    /// Its host, `null` when it would place the task nowhere now.
    pub host: Option<String>,
    /// The first rule that applies: `not a candidate`, `no draw` or `persistent weights`.
    pub rule: &'static str,
    /// `OpenDC 3 would choose large-1: only the first empty host of each type is a candidate`.
    pub text: String,
}

/// One host's line in a placement's table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct HostRow {
    pub name: String,
    pub passed: bool,
    /// The first filter that rejected the host.
    pub rejected_by: Option<&'static str>,
    /// Why, in numbers.
    pub reason: Option<String>,
    /// Per weigher, in policy order (empty for rejected hosts).
    pub scores: Vec<Score>,
    /// Sum of the contributions (candidates of the filter scheduler only).
    pub total: Option<f64>,
    /// 1-based rank among the candidates (filter scheduler) or in bucket order (memorizing).
    pub rank: Option<usize>,
    /// The memorizing scheduler's bucket: the host's number of running tasks.
    pub bucket: Option<u32>,
}

/// One weigher's score of one host.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Score {
    pub weigher: &'static str,
    pub raw: f64,
    /// `(raw - min) / (max - min)`, 0 when the weigher adds nothing.
    pub normalized: f64,
    pub multiplier: f64,
    /// `(multiplier * (raw - min)) / (max - min)`, what the host's total got.
    pub contribution: f64,
}

/// A weigher's range of raw scores over the candidates.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct WeigherRange {
    pub weigher: &'static str,
    pub multiplier: f64,
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// False when every candidate scores the same: the weigher adds nothing.
    pub active: bool,
}

/// The aggregate sentence of a placement: `277 hosts: 12 rejected by Ram, 3 by VCpu; chose H01-7`.
pub fn summary(hosts: &[HostRow], chosen: Option<&str>) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for h in hosts {
        if let Some(f) = h.rejected_by {
            match counts.iter_mut().find(|(n, _)| *n == f) {
                Some((_, c)) => *c += 1,
                None => counts.push((f, 1)),
            }
        }
    }
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    let noun = if hosts.len() == 1 { "host" } else { "hosts" };
    let mut text = format!("{} {noun}", hosts.len());
    if !counts.is_empty() {
        let parts: Vec<String> = counts
            .iter()
            .enumerate()
            .map(|(i, (f, c))| {
                if i == 0 {
                    format!("{c} rejected by {f}")
                } else {
                    format!("{c} by {f}")
                }
            })
            .collect();
        text.push_str(": ");
        text.push_str(&parts.join(", "));
    }
    match chosen {
        Some(name) => text.push_str(&format!("; chose {name}")),
        None if hosts.is_empty() => text.push_str("; nothing to choose from"),
        None => text.push_str("; none fits now"),
    }
    text
}

impl Placement {
    /// The fields a Classic placement leaves out (the `..` of its literal): Classic semantics,
    /// no Current record, no refusal, no other choice. Placeholders for the rest.
    pub fn classic() -> Self {
        Placement {
            scheduler: "filter",
            hosts: vec![],
            weighers: vec![],
            candidates: 0,
            subset: 0,
            draw: None,
            chosen: None,
            summary: String::new(),
            semantics: Semantics::Classic,
            current: None,
            refusal: None,
            other: None,
        }
    }
}
