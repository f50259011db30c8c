//! A run's placements before its figures ([`Session::run_placements`]): the tasks' columns and
//! the timeline's bars of a run made without the hosts' usage
//! ([`crate::sim::Options::placements_only`]), about a tenth of a full run on traces of many
//! fragments, which the page draws while the full run goes on; and the rule for when it does
//! ([`placements_first`]).

use super::binary::SeriesHead;
use super::handles::Session;
use super::runs::{Handles, RunOptions};
use super::{guard, Answer};
use crate::diag::Diagnostic;
use crate::output::bars::TimelineBars;
use crate::output::columns::RunColumns;
use serde::Serialize;

/// What of a run's result a placements-only run gives exactly ([`Session::run_placements`]):
/// its end, time 0, and the carbon intensity and regime over time (none of which follows the
/// hosts' usage).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PlacementsHead {
    /// The run's end (SPEC 6.6's `makespanMs`).
    pub makespan_ms: i64,
    /// Absolute time (ms since the Unix epoch) of simulation time 0: the first submission.
    pub start_epoch_ms: i64,
    /// The carbon intensity and the time-shifting regime over time, as the full run's.
    pub series: SeriesHead,
}

/// The placements of a run, for the page's first draw after an edit while the full run goes on
/// ([`Session::run_placements`]): the tasks' columns and the timeline's bars, exactly the full
/// run's; the hosts' columns keep their names, clusters, cores, memory and tasks run, and the
/// figures that follow usage (busy time, utilisation, energy, carbon) are NaN, since this run
/// does not compute them.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlacementsRun {
    pub result: PlacementsHead,
    pub columns: RunColumns,
    pub bars: TimelineBars,
}

impl PlacementsRun {
    /// The placements of a placements-only run's result.
    fn from_result(r: crate::sim::SimResult) -> PlacementsRun {
        let mut columns = RunColumns::from_result(&r);
        for figures in [
            &mut columns.host_busy_ms,
            &mut columns.host_mean_utilization,
            &mut columns.host_energy_j,
            &mut columns.host_idle_energy_j,
            &mut columns.host_dynamic_energy_j,
            &mut columns.host_carbon_g,
        ] {
            figures.fill(f64::NAN);
        }
        let bars = TimelineBars::from_columns(&columns);
        let (series, _) = SeriesHead::split(r.series);
        PlacementsRun {
            result: PlacementsHead {
                makespan_ms: r.metrics.makespan_ms,
                start_epoch_ms: r.start_epoch_ms,
                series,
            },
            columns,
            bars,
        }
    }
}

/// Fragments from which a run's placements are worth drawing first: 200,000, where a full run in
/// wasm takes a frame or more (surf_week's 2.3 M: 120-140 ms, its placements 13-19 ms; the
/// teaching sample's 2-4 ms in all).
pub const PLACEMENTS_FIRST_MIN_FRAGMENTS: u64 = 200_000;

/// Whether the page draws the placements of a run on a workload of `fragments` fragments first,
/// while its full run goes on: after an edit, the timeline then follows within a frame or two
/// on large traces, and a small trace is not run twice.
pub fn placements_first(fragments: u64) -> bool {
    fragments >= PLACEMENTS_FIRST_MIN_FRAGMENTS
}

impl Session {
    /// The placements of the run [`Session::run_binary`] would make, about ten times faster on
    /// traces of many fragments ([`crate::sim::Options::placements_only`]): not kept, no
    /// progress. The page draws its timeline and task list from it while the full run goes on.
    pub fn run_placements(
        &self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
    ) -> Answer<PlacementsRun> {
        guard(|| {
            let run = || -> Result<PlacementsRun, Vec<Diagnostic>> {
                let (policy, _) = super::runs::parse_policy(policy_text)?;
                let mut request = self.request(handles, &policy, options)?;
                request.placements_only = true;
                let outcome = request.run(&mut |_| {})?;
                Ok(PlacementsRun::from_result(outcome.result))
            };
            run().into()
        })
    }

    /// [`Session::run_placements`] from the page's JSON texts.
    pub fn run_placements_str(
        &self,
        handles: &str,
        policy_text: &str,
        options: &str,
    ) -> Answer<PlacementsRun> {
        match super::runs::parse_request(handles, options) {
            Ok((h, o)) => self.run_placements(&h, policy_text, &o),
            Err(errors) => Answer::Failure { errors },
        }
    }
}
