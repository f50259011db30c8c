//! The metrics catalog: for each figure of [`Metrics`], what a person reads (label, unit, scale,
//! decimals), which direction is better, and a line of help. The page's metrics panel, compare
//! and sweep views and the CLI's tables all read it (the wasm's `metrics()`), so a label or a
//! unit is written once, here, beside the result it describes.

use super::result::Metrics;
use serde::Serialize;

/// Which way a metric improves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Better {
    Lower,
    Higher,
    /// Neither: a count that describes the run (tasks deferred, tasks in the run).
    Neither,
}

/// One metric as a person reads it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct MetricInfo {
    /// The field of [`Metrics`]' JSON (`energyJ`).
    pub key: &'static str,
    /// What it is, for a table row or an axis (`dynamic energy`).
    pub label: &'static str,
    /// The unit it is shown in (`kWh`; empty for a count).
    pub unit: &'static str,
    /// The unit of the raw number in the result (`J`, `ms`, `g`; empty for a count or a
    /// fraction).
    pub raw_unit: &'static str,
    /// The shown value is the raw number times this (J -> kWh: 1 / 3.6e6).
    pub scale: f64,
    /// Decimals shown.
    pub decimals: u8,
    pub better: Better,
    /// A part of the metric before it (idle and dynamic energy of energy), shown indented.
    pub part: bool,
    /// Whether a sweep or a chart offers it (the descriptive counts are left out).
    pub chartable: bool,
    /// The metric shown instead of this one when runs that end at different times are compared
    /// (`windowEnergyJ` for `energyJ`: see [`WINDOW_METRICS`]).
    pub window: Option<&'static str>,
    /// One line on what it measures.
    pub help: &'static str,
}

const KWH: f64 = 1.0 / 3.6e6;
const HOURS: f64 = 1.0 / 3.6e6;

#[allow(clippy::too_many_arguments)]
const fn metric(
    key: &'static str,
    label: &'static str,
    unit: &'static str,
    raw_unit: &'static str,
    scale: f64,
    decimals: u8,
    better: Better,
    help: &'static str,
) -> MetricInfo {
    MetricInfo {
        key,
        label,
        unit,
        raw_unit,
        scale,
        decimals,
        better,
        part: false,
        chartable: true,
        window: None,
        help,
    }
}

/// The same metric, replaced by `window` in comparisons of runs of different lengths.
const fn windowed(m: MetricInfo, window: &'static str) -> MetricInfo {
    MetricInfo {
        window: Some(window),
        ..m
    }
}

/// The same metric, shown as a part of the one before it.
const fn part(m: MetricInfo) -> MetricInfo {
    MetricInfo { part: true, ..m }
}

/// The same metric, not offered for charts.
const fn descriptive(m: MetricInfo) -> MetricInfo {
    MetricInfo {
        chartable: false,
        ..m
    }
}

use Better::{Higher, Lower, Neither};

/// Every metric of a run, in the order the page shows them (SPEC 6.6).
pub const METRICS: &[MetricInfo] = &[
    descriptive(metric("tasksTotal", "tasks in the run", "", "", 1.0, 0, Neither, "Tasks accepted into the run.")),
    metric("tasksCompleted", "tasks completed", "", "", 1.0, 0, Higher, "Tasks that ran their whole duration."),
    metric("tasksTerminated", "tasks terminated", "", "", 1.0, 0, Lower, "Tasks ended without completing: rejected at submission, blocked, or cut by a limit."),
    descriptive(metric("tasksDropped", "tasks dropped", "", "", 1.0, 0, Lower, "Input tasks left out of the run (for example parquet tasks without fragments).")),
    metric("makespanMs", "makespan", "h", "ms", HOURS, 2, Lower, "The end of the run: its last completion or termination."),
    metric("meanWaitMs", "mean wait", "s", "ms", 1e-3, 1, Lower, "Mean of first start minus submission over completed tasks (deferral and queueing included)."),
    metric("p95WaitMs", "p95 wait", "s", "ms", 1e-3, 1, Lower, "95th percentile (nearest rank) of the waits of completed tasks."),
    metric("meanTurnaroundMs", "mean turnaround", "s", "ms", 1e-3, 1, Lower, "Mean of finish minus submission over completed tasks: the wait and the run together."),
    metric("meanBoundedSlowdown", "mean bounded slowdown", "", "", 1.0, 2, Lower, "Mean over completed tasks of max(1, turnaround / max(duration, 10 s)): how many times longer than its own duration a task took, short tasks counted as 10 s long."),
    metric("p95BoundedSlowdown", "p95 bounded slowdown", "", "", 1.0, 2, Lower, "95th percentile (nearest rank) of the bounded slowdowns of completed tasks."),
    windowed(metric("energyJ", "energy", "kWh", "J", KWH, 3, Lower, "Energy drawn by every host from time 0 to the end of the run."), "windowEnergyJ"),
    windowed(part(metric("idleEnergyJ", "idle energy", "kWh", "J", KWH, 3, Lower, "The hosts' idle power times the run's length.")), "windowIdleEnergyJ"),
    part(metric("dynamicEnergyJ", "dynamic energy", "kWh", "J", KWH, 3, Lower, "Energy above idle: what the tasks cause, comparable across runs of different lengths.")),
    windowed(metric("carbonG", "carbon", "kg", "g", 1e-3, 3, Lower, "Operational carbon: power times the carbon intensity, integrated (none without a carbon trace)."), "windowCarbonG"),
    windowed(part(metric("idleCarbonG", "idle carbon", "kg", "g", 1e-3, 3, Lower, "The carbon of the idle power.")), "windowIdleCarbonG"),
    part(metric("dynamicCarbonG", "dynamic carbon", "kg", "g", 1e-3, 3, Lower, "The carbon of the power above idle: what carbon-aware scheduling can move.")),
    descriptive(metric("deferredTasks", "deferred tasks", "", "", 1.0, 0, Neither, "Tasks deferred at least once by time-shifting.")),
    metric("deferralMs", "deferral", "h", "ms", HOURS, 2, Neither, "Total time tasks spent deferred."),
    descriptive(metric("pausedTasks", "paused tasks", "", "", 1.0, 0, Neither, "Tasks paused at least once by the task stopper.")),
    metric("deadlineMisses", "deadline misses", "", "", 1.0, 0, Lower, "Completed tasks that finished after their deadline."),
    metric("meanUtilization", "mean utilisation", "%", "", 100.0, 2, Higher, "Time-weighted mean CPU utilisation over all hosts and the run."),
    metric("loadImbalance", "load imbalance", "", "", 1.0, 3, Neither, "Standard deviation of the hosts' busy times over their mean (0: every host busy as long). Neither better nor worse: spreading lowers it, packing (to leave hosts idle) raises it."),
];

/// The figures over a common window (SPEC 7; [`super::window`]), shown in comparisons of runs
/// that end at different times in place of the per-run figures that name them.
pub const WINDOW_METRICS: &[MetricInfo] = &[
    metric("windowEnergyJ", "energy over the common window", "kWh", "J", KWH, 3, Lower, "Energy from time 0 to the latest end of the runs compared: the hosts of a run that ends earlier draw their idle power until then."),
    part(metric("windowIdleEnergyJ", "idle energy over the common window", "kWh", "J", KWH, 3, Lower, "The hosts' idle power times the common window's length.")),
    metric("windowCarbonG", "carbon over the common window", "kg", "g", 1e-3, 3, Lower, "Carbon from time 0 to the latest end of the runs compared: the idle power of a run that ends earlier is counted until then."),
    part(metric("windowIdleCarbonG", "idle carbon over the common window", "kg", "g", 1e-3, 3, Lower, "The carbon of the idle power over the common window.")),
];

/// The catalog entry of `key`, if it names a metric.
pub fn find(key: &str) -> Option<&'static MetricInfo> {
    METRICS.iter().find(|m| m.key == key)
}

/// The keys of [`Metrics`]' JSON, in their order, for the test that the catalog covers them.
pub fn result_keys() -> Vec<String> {
    by_key(&Metrics::default()).keys().cloned().collect()
}

/// Figures (a [`Metrics`], a window's figures) by their catalog key: the JSON object they
/// serialize to, the keys of the catalog being its field names.
pub fn by_key(figures: &impl Serialize) -> serde_json::Map<String, serde_json::Value> {
    match serde_json::to_value(figures) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_describes_every_metric_of_a_result_once() {
        let mut catalog: Vec<&str> = METRICS.iter().map(|m| m.key).collect();
        let mut result = result_keys();
        assert_eq!(result.len(), 22, "{result:?}");
        catalog.sort_unstable();
        result.sort_unstable();
        assert_eq!(catalog, result);
    }

    #[test]
    fn parts_follow_their_whole_and_descriptive_counts_are_not_charted() {
        let flags = |key: &str| find(key).map(|m| (m.part, m.chartable));
        // Idle and dynamic energy are shown as parts of the energy before them.
        assert_eq!(flags("energyJ"), Some((false, true)));
        assert_eq!(flags("idleEnergyJ"), Some((true, true)));
        assert_eq!(flags("dynamicCarbonG"), Some((true, true)));
        // Counts that describe the input or the run, not its quality, are not offered for charts.
        assert_eq!(flags("tasksTotal"), Some((false, false)));
        assert_eq!(flags("pausedTasks"), Some((false, false)));
        assert_eq!(flags("meanWaitMs"), Some((false, true)));
    }

    #[test]
    fn scales_turn_raw_units_into_shown_ones() {
        // 7.2e6 J is 2 kWh, 5,400,000 ms is 1.5 h, 2,500 g is 2.5 kg, 0.25 is 25 %, 1,500 ms
        // is 1.5 s (to a rounding of the scale: shown values are rounded to their decimals).
        let close = |key: &str, raw: f64, want: f64| {
            let got = find(key).map_or(f64::NAN, |m| raw * m.scale);
            assert!(
                (got - want).abs() <= 1e-15 * want,
                "{key}: {got} for {want}"
            );
        };
        close("energyJ", 7.2e6, 2.0);
        close("makespanMs", 5.4e6, 1.5);
        close("carbonG", 2500.0, 2.5);
        close("meanUtilization", 0.25, 25.0);
        close("meanWaitMs", 1500.0, 1.5);
        assert!(find("energy").is_none());
    }
}
