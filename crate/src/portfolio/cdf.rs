//! Empirical distributions of per-task figures (wait, turnaround, bounded slowdown: SPEC 6.6),
//! as the points of a step CDF downsampled to what a chart can show, and exact at the quantiles
//! it prints: each quantile is the nearest-rank value of the sorted figures (as `p95WaitMs`),
//! and the point at its rank is among the points.
//!
//! A point `(v, f)` says that the figure of rank `r` (1-based, in ascending order) is `v`, with
//! `f = r / n`: every point lies on the step function, so a chart that joins them as steps
//! draws the distribution up to the ranks left out between them.

use crate::sim::result::TaskRecord;
use serde::{Deserialize, Serialize};

/// The quantiles a distribution prints, in percent (100: the largest).
pub const QUANTILES: [u32; 5] = [50, 90, 95, 99, 100];

/// Points a distribution keeps by default, and the most it may be asked for.
pub const DEFAULT_POINTS: usize = 200;
pub const MAX_POINTS: usize = 5000;

/// An empirical CDF.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Cdf {
    /// How many figures it is made of.
    pub n: usize,
    /// `[value, fraction]` in ascending order of rank: the figure of rank `r` and `r / n`.
    pub points: Vec<(f64, f64)>,
    /// The quantiles of [`QUANTILES`] that exist (none for an empty distribution).
    pub quantiles: Vec<Quantile>,
}

/// One quantile: the nearest-rank value `sorted[ceil(percent / 100 * n) - 1]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Quantile {
    pub percent: u32,
    pub value: f64,
}

/// The 1-based nearest rank of `percent` among `n` figures (n > 0).
pub fn rank(percent: u32, n: usize) -> usize {
    (percent as usize * n).div_ceil(100).max(1)
}

/// The CDF of `values` (any order; non-finite values are left out) in at most `max_points`
/// points besides the quantiles' (the smallest and the largest figure always among them).
pub fn cdf(values: &[f64], max_points: usize) -> Cdf {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    sorted.sort_unstable_by(f64::total_cmp);
    let n = sorted.len();
    if n == 0 {
        return Cdf {
            n,
            points: vec![],
            quantiles: vec![],
        };
    }
    let m = max_points.clamp(2, MAX_POINTS).min(n);
    // Evenly spaced ranks 1..=n (k (n - 1) / (m - 1) + 1, so the first and last are in), then
    // the quantiles' ranks.
    let mut ranks: Vec<usize> = (0..m).map(|k| k * (n - 1) / (m - 1).max(1) + 1).collect();
    ranks.extend(QUANTILES.iter().map(|&q| rank(q, n)));
    ranks.sort_unstable();
    ranks.dedup();
    Cdf {
        n,
        points: ranks
            .iter()
            .map(|&r| (sorted[r - 1], r as f64 / n as f64))
            .collect(),
        quantiles: QUANTILES
            .iter()
            .map(|&percent| Quantile {
                percent,
                value: sorted[rank(percent, n) - 1],
            })
            .collect(),
    }
}

/// The distributions of a policy's completed tasks, each linked to the catalog metric whose
/// unit it is read in.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Distributions {
    /// Waits, ms (unit of `meanWaitMs`).
    pub wait: Cdf,
    /// Turnarounds, ms (unit of `meanTurnaroundMs`).
    pub turnaround: Cdf,
    /// Bounded slowdowns (unit of `meanBoundedSlowdown`).
    pub bounded_slowdown: Cdf,
}

/// Per-task figures of completed tasks, gathered over several runs (a policy's seeds).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TaskFigures {
    pub wait: Vec<f64>,
    pub turnaround: Vec<f64>,
    pub bounded_slowdown: Vec<f64>,
}

impl TaskFigures {
    /// Adds the completed tasks of a run.
    pub fn add(&mut self, tasks: &[TaskRecord]) {
        for t in tasks {
            if let (Some(w), Some(ta), Some(s)) =
                (t.wait_ms, t.turnaround_ms(), t.bounded_slowdown())
            {
                self.wait.push(w as f64);
                self.turnaround.push(ta as f64);
                self.bounded_slowdown.push(s);
            }
        }
    }

    /// Adds the figures of another run (or runs) after these.
    pub fn append(&mut self, mut other: TaskFigures) {
        self.wait.append(&mut other.wait);
        self.turnaround.append(&mut other.turnaround);
        self.bounded_slowdown.append(&mut other.bounded_slowdown);
    }

    /// Their distributions, in at most `max_points` points each.
    pub fn distributions(&self, max_points: usize) -> Distributions {
        Distributions {
            wait: cdf(&self.wait, max_points),
            turnaround: cdf(&self.turnaround, max_points),
            bounded_slowdown: cdf(&self.bounded_slowdown, max_points),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_distribution_keeps_every_rank() {
        let c = cdf(&[3.0, 1.0, 2.0, 2.0], 10);
        assert_eq!(c.n, 4);
        assert_eq!(
            c.points,
            vec![(1.0, 0.25), (2.0, 0.5), (2.0, 0.75), (3.0, 1.0)]
        );
        // 50 %: rank 2; 90, 95, 99 %: rank 4; the largest.
        let q: Vec<(u32, f64)> = c.quantiles.iter().map(|q| (q.percent, q.value)).collect();
        assert_eq!(
            q,
            vec![(50, 2.0), (90, 3.0), (95, 3.0), (99, 3.0), (100, 3.0)]
        );
        assert_eq!(cdf(&[], 10).points, vec![]);
        assert_eq!(cdf(&[f64::NAN, 5.0], 10).n, 1);
    }
}
