//! A run's step series (total power and the running, queued and deferred task counts at their
//! change points, [`Series`]) as columns: the page's strips read them as typed arrays, so that
//! the largest part of a small run's answer (the teaching sample's power changes are 136 KB of
//! JSON, three quarters of its answer) crosses from the worker without being written as text
//! and parsed again. The values are the JSON result's, in the same order: change `k` of a series
//! is `(xAtMs[k], x[k])`, times as simulation ms (exact in a float up to 2^53 ms).
//!
//! `crate/tests/columns.rs` checks every column against the JSON result's series.

use super::columns::Column;
use crate::sim::result::Series;
use serde::Serialize;

/// The step series of a run as columns, each change point's time beside its value.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct StepColumns {
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub power_at_ms: Vec<f64>,
    /// Total power of all hosts, W (averaged over the series' resolution when it is > 0).
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub power_w: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub running_at_ms: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub running_tasks: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub queued_at_ms: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub queued_tasks: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub deferred_at_ms: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub deferred_tasks: Vec<f64>,
}

/// Splits `[time, value]` points into a time column and a value column. Task counts become
/// floats exactly: the page's limits keep them far below 2^53.
fn split<T: Copy>(points: &[(i64, T)], value: impl Fn(T) -> f64) -> (Vec<f64>, Vec<f64>) {
    points.iter().map(|&(t, v)| (t as f64, value(v))).unzip()
}

impl StepColumns {
    /// The columns of a result's series.
    pub fn from_series(s: &Series) -> StepColumns {
        let (power_at_ms, power_w) = split(&s.power_w, |w| w);
        let (running_at_ms, running_tasks) = split(&s.running_tasks, |n| n as f64);
        let (queued_at_ms, queued_tasks) = split(&s.queued_tasks, |n| n as f64);
        let (deferred_at_ms, deferred_tasks) = split(&s.deferred_tasks, |n| n as f64);
        StepColumns {
            power_at_ms,
            power_w,
            running_at_ms,
            running_tasks,
            queued_at_ms,
            queued_tasks,
            deferred_at_ms,
            deferred_tasks,
        }
    }

    /// Every column by its name on the page (the serialized field names).
    pub fn columns(&self) -> Vec<(&'static str, Column<'_>)> {
        use Column::F64;
        vec![
            ("powerAtMs", F64(&self.power_at_ms)),
            ("powerW", F64(&self.power_w)),
            ("runningAtMs", F64(&self.running_at_ms)),
            ("runningTasks", F64(&self.running_tasks)),
            ("queuedAtMs", F64(&self.queued_at_ms)),
            ("queuedTasks", F64(&self.queued_tasks)),
            ("deferredAtMs", F64(&self.deferred_at_ms)),
            ("deferredTasks", F64(&self.deferred_tasks)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two power changes and one count change, split by hand.
    #[test]
    fn points_split_into_times_and_values() {
        let s = Series {
            power_w: vec![(0, 150.5), (60_000, 210.25)],
            running_tasks: vec![(30_000, 3)],
            ..Series::default()
        };
        let c = StepColumns::from_series(&s);
        assert_eq!(c.power_at_ms, vec![0.0, 60_000.0]);
        assert_eq!(c.power_w, vec![150.5, 210.25]);
        assert_eq!(
            (c.running_at_ms, c.running_tasks),
            (vec![30_000.0], vec![3.0])
        );
        assert!(c.queued_at_ms.is_empty() && c.deferred_tasks.is_empty());
    }
}
