//! The filter scheduler (SPEC 4): filter every host, normalise each weigher over the candidates,
//! rank by total (stable), and take the best or draw among the best `subsetSize`.
//!
//! The decision path allocates nothing per call (buffers live in [`Scratch`]) and does not sort
//! when `subsetSize` is 1: a running best gives the stable ranking's first host. [`explain`](fn@explain)
//! re-reads what [`select`] left in the scratch space, so the explanation is the decision's own.

use super::current::refusal::Refusal;
use super::draw::{draw_index, Draw};
use super::explain::{self, HostRow, Placement, Score, WeigherRange};
use super::filter;
use super::host::{Demand, HostState};
use super::weigher::{contribution, rank_key, raw};
use crate::policy::{Policy, WeigherKind};
use rand::Rng as RngCore;

/// Reusable buffers of the filter scheduler.
#[derive(Debug, Default, Clone)]
pub struct Scratch {
    candidates: Vec<u32>,
    mins: Vec<f64>,
    maxs: Vec<f64>,
    totals: Vec<f64>,
    order: Vec<u32>,
    /// Each weigher's raw scores of the candidates, weigher after weigher (`candidates.len()`
    /// each), so that the totals are computed over flat arrays.
    raws: Vec<f64>,
}

/// The outcome of a placement decision.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// Index of the chosen host, `None` when no host passes the filters.
    pub host: Option<usize>,
    pub draw: Option<Draw>,
    /// Under Current, why the chosen host refused the task (SPEC 11.12, C13): it is then not
    /// placed, and the task ends.
    pub refusal: Option<Refusal>,
}

/// Chooses a host for `d` among `hosts` under `policy`'s filters, weighers and `subsetSize`.
pub fn select<R: RngCore + ?Sized>(
    policy: &Policy,
    hosts: &[HostState],
    d: &Demand,
    rng: &mut R,
    s: &mut Scratch,
) -> Choice {
    filter::keep(&policy.filters, hosts, d, &mut s.candidates);
    ranges(policy, hosts, s);
    let n = s.candidates.len();
    if n == 0 {
        return Choice {
            host: None,
            draw: None,
            refusal: None,
        };
    }
    let k = (policy.subset_size as usize).min(n);
    if policy.weighers.is_empty() {
        if k == 1 {
            return Choice {
                host: Some(s.candidates[0] as usize),
                draw: None,
                refusal: None,
            };
        }
        let draw = draw_index(rng, k as u64);
        let host = s.candidates[draw.index as usize] as usize;
        return Choice {
            host: Some(host),
            draw: Some(draw),
            refusal: None,
        };
    }
    if k == 1 {
        totals(policy, s);
        let mut best = 0;
        let mut best_key = rank_key(s.totals[0]);
        for (j, &t) in s.totals.iter().enumerate().skip(1) {
            let key = rank_key(t);
            if key > best_key {
                best = j;
                best_key = key;
            }
        }
        return Choice {
            host: Some(s.candidates[best] as usize),
            draw: None,
            refusal: None,
        };
    }
    rank_candidates(policy, s);
    let draw = draw_index(rng, k as u64);
    let host = s.candidates[s.order[draw.index as usize] as usize] as usize;
    Choice {
        host: Some(host),
        draw: Some(draw),
        refusal: None,
    }
}

/// A candidate's total: 0.0 plus each weigher's contribution, in weigher order.
#[inline]
fn total(policy: &Policy, h: &HostState, mins: &[f64], maxs: &[f64]) -> f64 {
    let mut t = 0.0;
    for (w, weigher) in policy.weighers.iter().enumerate() {
        t += contribution(weigher.multiplier, raw(weigher.kind, h), mins[w], maxs[w]);
    }
    t
}

/// Calls `$body` with `$raw` bound to the raw score of weigher kind `$kind`, one arm per kind,
/// so that the loop in `$body` is compiled for that kind alone.
macro_rules! by_kind {
    ($kind:expr, |$raw:ident| $body:expr) => {
        match $kind {
            WeigherKind::Ram => {
                let $raw = |h: &HostState| raw(WeigherKind::Ram, h);
                $body
            }
            WeigherKind::CoreRam => {
                let $raw = |h: &HostState| raw(WeigherKind::CoreRam, h);
                $body
            }
            WeigherKind::InstanceCount => {
                let $raw = |h: &HostState| raw(WeigherKind::InstanceCount, h);
                $body
            }
            WeigherKind::VCpuCapacity => {
                let $raw = |h: &HostState| raw(WeigherKind::VCpuCapacity, h);
                $body
            }
            WeigherKind::VCpu => {
                let $raw = |h: &HostState| raw(WeigherKind::VCpu, h);
                $body
            }
            WeigherKind::VGpu => {
                let $raw = |h: &HostState| raw(WeigherKind::VGpu, h);
                $body
            }
        }
    };
}

/// Sets `s.mins` and `s.maxs` to each weigher's range over the candidates (infinities when
/// there are none) and `s.raws` to their raw scores, one weigher at a time.
fn ranges(policy: &Policy, hosts: &[HostState], s: &mut Scratch) {
    s.mins.clear();
    s.maxs.clear();
    let n = s.candidates.len();
    s.raws.clear();
    s.raws.resize(n * policy.weighers.len(), 0.0);
    for (weigher, raws) in policy
        .weighers
        .iter()
        .zip(s.raws.chunks_exact_mut(n.max(1)))
    {
        let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
        by_kind!(
            weigher.kind,
            |score| for (out, &c) in raws.iter_mut().zip(&s.candidates) {
                let r = score(&hosts[c as usize]);
                *out = r;
                if r < min {
                    min = r;
                }
                if r > max {
                    max = r;
                }
            }
        );
        s.mins.push(min);
        s.maxs.push(max);
    }
    // `chunks_exact_mut` of an empty buffer yields nothing: without candidates every weigher's
    // range is still (+inf, -inf).
    while s.mins.len() < policy.weighers.len() {
        s.mins.push(f64::INFINITY);
        s.maxs.push(f64::NEG_INFINITY);
    }
}

/// Sets `s.totals` to each candidate's [`total`], built one weigher at a time over the flat
/// raw scores that [`ranges`] left (the same operations in the same order as [`contribution`];
/// a weigher whose candidates all score the same adds +0.0 to a sum that starts at +0.0 and so
/// is skipped).
fn totals(policy: &Policy, s: &mut Scratch) {
    let n = s.candidates.len();
    s.totals.clear();
    s.totals.resize(n, 0.0);
    for (w, weigher) in policy.weighers.iter().enumerate() {
        let (min, max, m) = (s.mins[w], s.maxs[w], weigher.multiplier);
        if min == max {
            continue;
        }
        let span = max - min;
        for (t, &r) in s.totals.iter_mut().zip(&s.raws[w * n..(w + 1) * n]) {
            *t += (m * (r - min)) / span;
        }
    }
}

/// Fills `s.totals` and `s.order` (positions into `s.candidates`, best first, ties in topology
/// order).
fn rank_candidates(policy: &Policy, s: &mut Scratch) {
    totals(policy, s);
    s.order.clear();
    s.order.extend(0..s.candidates.len() as u32);
    let totals = &s.totals;
    s.order.sort_by(|&a, &b| {
        rank_key(totals[b as usize])
            .partial_cmp(&rank_key(totals[a as usize]))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
}

/// The explanation of the decision that [`select`] just made with the same arguments: every
/// host's filter verdict, every candidate's scores, total and rank.
pub fn explain(
    policy: &Policy,
    hosts: &[HostState],
    names: &[String],
    d: &Demand,
    choice: &Choice,
    s: &mut Scratch,
) -> Placement {
    rank_candidates(policy, s);
    let mut rank_of = vec![None; hosts.len()];
    for (r, &pos) in s.order.iter().enumerate() {
        rank_of[s.candidates[pos as usize] as usize] = Some(r + 1);
    }
    let rows: Vec<HostRow> = hosts
        .iter()
        .enumerate()
        .map(
            |(i, h)| match filter::first_failing(&policy.filters, h, d) {
                Some(f) => HostRow {
                    name: names[i].clone(),
                    passed: false,
                    rejected_by: Some(policy.filters[f].name()),
                    reason: Some(filter::reason(&policy.filters[f], h, d)),
                    scores: vec![],
                    total: None,
                    rank: None,
                    bucket: None,
                },
                None => {
                    let scores = policy
                        .weighers
                        .iter()
                        .enumerate()
                        .map(|(w, weigher)| {
                            let r = raw(weigher.kind, h);
                            let (min, max) = (s.mins[w], s.maxs[w]);
                            Score {
                                weigher: weigher.kind.name(),
                                raw: r,
                                normalized: if max == min {
                                    0.0
                                } else {
                                    (r - min) / (max - min)
                                },
                                multiplier: weigher.multiplier,
                                contribution: contribution(weigher.multiplier, r, min, max),
                            }
                        })
                        .collect();
                    HostRow {
                        name: names[i].clone(),
                        passed: true,
                        rejected_by: None,
                        reason: None,
                        scores,
                        total: Some(total(policy, h, &s.mins, &s.maxs)),
                        rank: rank_of[i],
                        bucket: None,
                    }
                }
            },
        )
        .collect();
    let weighers = policy
        .weighers
        .iter()
        .enumerate()
        .map(|(w, weigher)| {
            let has = !s.candidates.is_empty();
            WeigherRange {
                weigher: weigher.kind.name(),
                multiplier: weigher.multiplier,
                min: has.then(|| s.mins[w]),
                max: has.then(|| s.maxs[w]),
                active: has && s.mins[w] != s.maxs[w],
            }
        })
        .collect();
    let chosen = choice.host.map(|i| names[i].clone());
    Placement {
        scheduler: "filter",
        summary: explain::summary(&rows, chosen.as_deref()),
        hosts: rows,
        weighers,
        candidates: s.candidates.len(),
        subset: (policy.subset_size as usize).min(s.candidates.len()),
        draw: choice.draw.clone(),
        chosen,
        ..Placement::classic()
    }
}
