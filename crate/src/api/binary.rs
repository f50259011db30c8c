//! A run for the page, with its per-task and per-host data as columns rather than JSON
//! ([`Session::run_binary`]): the wasm facade hands the columns over as typed arrays that the
//! worker transfers, so a large result crosses to the page without a JSON text and without a
//! parse; so do its step series (power and task counts over time, [`StepColumns`]). The JSON
//! result ([`Session::run`], `exportResult`, the CLI) is unchanged.

use super::compare::CompareRequest;
use super::handles::Session;
use super::runs::{Handles, RunAnswer, RunOptions};
use super::{guard, Answer};
use crate::compare::Comparison;
use crate::diag::Diagnostic;
use crate::notes::Note;
use crate::output::bars::TimelineBars;
use crate::output::columns::RunColumns;
use crate::output::steps::StepColumns;
use crate::sim::result::{Metrics, Provenance, RegimePoint, Series};
use serde::Serialize;

/// The result of a run without its tasks and hosts (those are in [`BinaryRun::columns`]) and its
/// step series (in [`BinaryRun::steps`]): the same fields, with the same values, as the JSON
/// result's.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ResultHead {
    pub metrics: Metrics,
    pub series: SeriesHead,
    pub warnings: Vec<Diagnostic>,
    pub start_epoch_ms: i64,
    pub provenance: Provenance,
}

/// The JSON result's `series` but its step series: the small ones, read whole by the timeline.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SeriesHead {
    pub resolution_ms: i64,
    pub carbon_intensity: Vec<(i64, f64)>,
    pub regime: Vec<RegimePoint>,
}

impl SeriesHead {
    /// The head of `s`, and its step series as columns.
    pub(super) fn split(s: Series) -> (SeriesHead, StepColumns) {
        let steps = StepColumns::from_series(&s);
        let head = SeriesHead {
            resolution_ms: s.resolution_ms,
            carbon_intensity: s.carbon_intensity,
            regime: s.regime,
        };
        (head, steps)
    }
}

/// The parts of a binary run answer that are JSON (small, whatever the run's size).
#[derive(Debug, Clone, Serialize)]
pub struct BinaryRunHead {
    pub run: u32,
    pub notes: Vec<Note>,
    pub overview: crate::overview::Overview,
    pub result: ResultHead,
    pub comparison: Comparison,
}

/// A finished run for the page: [`RunAnswer`] with the result's tasks and hosts as columns, its
/// step series as columns and the timeline's bars laid out ([`TimelineBars`]).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BinaryRun {
    pub run: u32,
    pub notes: Vec<Note>,
    pub overview: crate::overview::Overview,
    pub result: ResultHead,
    pub columns: RunColumns,
    pub steps: StepColumns,
    pub bars: TimelineBars,
    /// The run's figures as the page's table: what `compare` answers for this run alone,
    /// labelled `A` (the page shows it without asking again; with two policies it compares).
    pub comparison: Comparison,
}

impl BinaryRun {
    /// The columns of a run answer, with its `comparison`.
    pub fn from_answer(a: RunAnswer, comparison: Comparison) -> BinaryRun {
        let columns = RunColumns::from_result(&a.result);
        let bars = TimelineBars::from_columns(&columns);
        let r = a.result;
        let (series, steps) = SeriesHead::split(r.series);
        BinaryRun {
            run: a.run,
            notes: a.notes,
            overview: a.overview,
            result: ResultHead {
                metrics: r.metrics,
                series,
                warnings: r.warnings,
                start_epoch_ms: r.start_epoch_ms,
                provenance: r.provenance,
            },
            columns,
            steps,
            bars,
            comparison,
        }
    }

    /// The JSON parts, taken apart from the columns (the wasm facade writes them as JSON).
    pub fn split(self) -> (BinaryRunHead, RunColumns, StepColumns, TimelineBars) {
        (
            BinaryRunHead {
                run: self.run,
                notes: self.notes,
                overview: self.overview,
                result: self.result,
                comparison: self.comparison,
            },
            self.columns,
            self.steps,
            self.bars,
        )
    }
}

impl Session {
    /// [`Session::run_with_progress`], its result's tasks and hosts as columns.
    pub fn run_binary(
        &mut self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        progress: &mut dyn FnMut(f64),
    ) -> Answer<BinaryRun> {
        guard(|| {
            self.binary_run(handles, policy_text, options, progress)
                .into()
        })
    }

    /// A kept run as columns, with its table of figures.
    fn binary_run(
        &mut self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        progress: &mut dyn FnMut(f64),
    ) -> Result<BinaryRun, Vec<Diagnostic>> {
        let answer = self.run_kept(handles, policy_text, options, progress)?;
        let table = self.compared(&CompareRequest {
            runs: vec![answer.run],
            labels: Some(vec!["A".to_string()]),
            baseline: Some(0),
        });
        match table {
            Ok(comparison) => Ok(BinaryRun::from_answer(answer, comparison)),
            Err(errors) => {
                // No handle reaches the caller: the kept run is let go.
                let _ = self.release(answer.run);
                Err(errors)
            }
        }
    }

    /// [`Session::run_binary`] from the page's JSON texts.
    pub fn run_binary_str(
        &mut self,
        handles: &str,
        policy_text: &str,
        options: &str,
        progress: &mut dyn FnMut(f64),
    ) -> Answer<BinaryRun> {
        match super::runs::parse_request(handles, options) {
            Ok((h, o)) => self.run_binary(&h, policy_text, &o, progress),
            Err(errors) => Answer::Failure { errors },
        }
    }
}
