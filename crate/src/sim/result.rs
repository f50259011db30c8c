//! The result of a run (SPEC 6.6): metrics, per-task and per-host records, series at their change
//! points, warnings and provenance. Field names are stable: the page, the CLI's `--json` and
//! saved results all read them. Times are simulation ms unless the name says otherwise.

use crate::diag::Diagnostic;
use crate::engine::Semantics;
use serde::{Deserialize, Serialize};

/// Everything a run produced.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SimResult {
    pub metrics: Metrics,
    pub tasks: Vec<TaskRecord>,
    pub hosts: Vec<HostRecord>,
    pub series: Series,
    pub warnings: Vec<Diagnostic>,
    /// Absolute time (ms since the Unix epoch) of simulation time 0: the first submission.
    pub start_epoch_ms: i64,
    pub provenance: Provenance,
}

/// The run's figures (SPEC 6.6).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Metrics {
    pub tasks_total: u64,
    pub tasks_completed: u64,
    pub tasks_terminated: u64,
    pub tasks_dropped: u64,
    pub makespan_ms: i64,
    pub mean_wait_ms: Option<f64>,
    pub p95_wait_ms: Option<i64>,
    /// Mean of finish - submission over completed tasks (SPEC 6.6); `None` when none completed.
    #[serde(default)]
    pub mean_turnaround_ms: Option<f64>,
    /// Mean bounded slowdown over completed tasks ([`TaskRecord::bounded_slowdown`]).
    #[serde(default)]
    pub mean_bounded_slowdown: Option<f64>,
    /// 95th percentile (nearest rank) of the bounded slowdowns of completed tasks.
    #[serde(default)]
    pub p95_bounded_slowdown: Option<f64>,
    pub deferred_tasks: u64,
    pub deferral_ms: i64,
    pub paused_tasks: u64,
    pub deadline_misses: u64,
    pub mean_utilization: f64,
    /// Population standard deviation of the hosts' busy times over their mean (0 when the mean
    /// is 0): how unevenly the work was spread.
    #[serde(default)]
    pub load_imbalance: f64,
    pub energy_j: f64,
    pub idle_energy_j: f64,
    pub dynamic_energy_j: f64,
    pub carbon_g: Option<f64>,
    pub idle_carbon_g: Option<f64>,
    pub dynamic_carbon_g: Option<f64>,
}

/// A span of time `[fromMs, toMs)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Span {
    pub from_ms: i64,
    pub to_ms: i64,
}

/// One uninterrupted run of a task on a host.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RunSpan {
    pub host: String,
    pub from_ms: i64,
    pub to_ms: i64,
}

/// What became of one task.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TaskRecord {
    pub id: String,
    pub name: String,
    /// The host of its last run; `None` when it never started.
    pub host: Option<String>,
    pub submit_ms: i64,
    pub start_ms: Option<i64>,
    pub finish_ms: i64,
    /// `completed` or `terminated`.
    pub state: &'static str,
    pub wait_ms: Option<i64>,
    pub deferrals: Vec<Span>,
    pub pauses: Vec<Span>,
    pub runs: Vec<RunSpan>,
    pub deadline_ms: Option<i64>,
    pub duration_ms: i64,
    pub cpu_count: u32,
    pub memory_mib: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub reason: Option<String>,
}

/// The bound of bounded slowdown (SPEC 6.6): tasks shorter than 10 s count as 10 s long, so
/// that a short task's wait does not dominate the mean.
pub const SLOWDOWN_BOUND_MS: i64 = 10_000;

impl TaskRecord {
    /// Finish minus submission of a completed task; `None` for a terminated one.
    pub fn turnaround_ms(&self) -> Option<i64> {
        (self.state == "completed").then_some(self.finish_ms - self.submit_ms)
    }

    /// Bounded slowdown of a completed task (SPEC 6.6): `max(1, turnaround / max(duration,
    /// 10 s))`, the duration being the task's original one; `None` for a terminated task.
    pub fn bounded_slowdown(&self) -> Option<f64> {
        self.turnaround_ms().map(|t| {
            let bound = self.duration_ms.max(SLOWDOWN_BOUND_MS) as f64;
            (t as f64 / bound).max(1.0)
        })
    }
}

/// What one host did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct HostRecord {
    pub name: String,
    pub cluster: String,
    pub cores: u32,
    pub memory: i64,
    /// Time with at least one task running.
    pub busy_ms: i64,
    /// The time-weighted mean of its utilisation u over the run (SPEC 6.5; 0 for an empty
    /// run): the per-host part of the run's `meanUtilization`.
    #[serde(default)]
    pub mean_utilization: f64,
    pub energy_j: f64,
    pub idle_energy_j: f64,
    pub dynamic_energy_j: f64,
    pub carbon_g: Option<f64>,
    pub tasks_run: u64,
}

/// Step functions over simulation time, as `[timeMs, value]` change points.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Series {
    /// The resolution power was averaged over (0: exact change points).
    pub resolution_ms: i64,
    pub carbon_intensity: Vec<(i64, f64)>,
    /// Total power of all hosts, W (averaged over `resolutionMs` windows when that is > 0).
    pub power_w: Vec<(i64, f64)>,
    pub running_tasks: Vec<(i64, u64)>,
    pub queued_tasks: Vec<(i64, u64)>,
    pub deferred_tasks: Vec<(i64, u64)>,
    /// The time-shifting regime at each carbon sample where it changed.
    pub regime: Vec<RegimePoint>,
}

/// The regime from `timeMs` on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RegimePoint {
    pub time_ms: i64,
    pub short_low: bool,
    pub long_low: bool,
    pub stopper_high: bool,
}

/// What the result was computed from, so that a saved result can be traced and reproduced.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Provenance {
    pub program: String,
    pub version: String,
    pub seed: u64,
    pub quantum_ms: i64,
    /// `current` when the run followed OpenDC 3's scheduler (SPEC 11.12); absent for Classic.
    #[serde(default, skip_serializing_if = "Semantics::is_classic")]
    pub semantics: Semantics,
    /// FNV-1a-style 64-bit digests (hex) of the inputs as read: topology, workload, carbon, policy.
    pub digests: Digests,
}

/// Digests of the inputs (of their parsed content, so that the scenario path and the handle path
/// agree).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Digests {
    pub topology: String,
    pub workload: String,
    pub carbon: Option<String>,
    pub policy: String,
}
