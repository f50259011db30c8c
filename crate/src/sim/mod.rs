//! The simulator: replays a workload on a topology under a policy (SPEC 6 and 7).
//!
//! [`Scenario`] borrows the inputs (so that a re-run after a policy edit re-reads nothing),
//! [`Options`] say what to record, and [`simulate`] runs to the end. [`Simulation`] can also be
//! stepped, for progress and cancellation.

pub mod carbon;
pub mod digest;
mod energy;
mod events;
pub mod explain;
mod finish;
pub mod metric_catalog;
pub mod power;
mod power_memo;
pub mod queue;
pub mod result;
mod run;
mod schedule;
pub mod series;
mod task;
mod usage_replay;
pub mod window;

pub use explain::TaskExplanation;
pub use queue::QueueSnapshot;
pub use result::SimResult;
pub use run::Simulation;

use crate::engine::Semantics;
use crate::model::{CarbonTrace, Topology, Workload};
use crate::policy::Policy;

/// The default scheduling quantum, ms.
pub const DEFAULT_QUANTUM_MS: i64 = 1000;

/// Everything a run is a function of (SPEC 8).
#[derive(Debug, Clone, Copy)]
pub struct Scenario<'a> {
    pub topology: &'a Topology,
    pub workload: &'a Workload,
    pub carbon: Option<&'a CarbonTrace>,
    pub policy: &'a Policy,
    pub seed: u64,
    /// Scheduling cycles fall on multiples of this, ms (>= 1).
    pub quantum_ms: i64,
}

/// The default limit of simulated time: ten years, ms.
pub const MAX_TIME_MS: i64 = 10 * 366 * 24 * 3600 * 1000;

/// The default limit of instants: 250 million, about a minute of simulation natively. surf_week
/// (a week, 2.3 M fragments) has about 514 000 instants under Mem.
pub const MAX_INSTANTS: u64 = 250_000_000;

/// What a run records, and its limits.
#[derive(Debug, Clone)]
pub struct Options {
    /// Power is averaged over windows of this many ms in the series (0: exact change points).
    pub series_resolution_ms: i64,
    /// Record every decision about the task with this id.
    pub explain_task: Option<String>,
    /// Simulated time past which the run stops and the tasks left are terminated.
    pub max_time_ms: i64,
    /// Instants (distinct event times) after which the run stops the same way: with the time
    /// limit, this bounds the work of any run, whatever the input.
    pub max_instants: u64,
    /// Classic (SPEC 1-10) or Current (SPEC 11.12) scheduling.
    pub semantics: Semantics,
    /// Beyond OpenDC: the relative error of the carbon forecast a time-shifting policy reads
    /// ([`crate::engine::timeshift::ForecastNoise`], seeded with the run's seed); 0: none.
    pub forecast_error: f64,
    /// The workload's provenance digest when the caller already has it ([`digest::workload`]
    /// of this very workload): a session computes it once per loaded workload, so that a re-run
    /// does not hash every fragment again (surf_week's 2.3 M take about 8 % of its run).
    pub workload_digest: Option<String>,
    /// Only the placements and the tasks' times: every task runs as one step to its end, and
    /// the hosts' usage, power, energy, carbon and power series are not followed (they stay
    /// idle in the result, which is not to be shown as figures). Since contention never
    /// stretches a task (SPEC 6.4) and no filter, weigher or time-shifting rule reads a host's
    /// usage, the tasks' placements, starts, pauses, finishes and waits are the full run's, but
    /// for a run cut by the instant limit (this one counts fewer instants) and provided that a
    /// task's duration is the sum of its fragments' (every reader makes it so; a debug build
    /// checks it). About a tenth of a full run on traces of many fragments: the page draws its
    /// timeline while the full run goes on.
    pub placements_only: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            series_resolution_ms: 60_000,
            explain_task: None,
            // Ten years of simulated time.
            max_time_ms: MAX_TIME_MS,
            max_instants: MAX_INSTANTS,
            semantics: Semantics::Classic,
            forecast_error: 0.0,
            workload_digest: None,
            placements_only: false,
        }
    }
}

/// Runs a scenario to the end.
pub fn simulate(scenario: Scenario, options: Options) -> SimResult {
    Simulation::new(scenario, options).run()
}
