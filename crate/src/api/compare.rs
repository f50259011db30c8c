//! [`Session::compare`]: finished runs side by side, as the table of [`crate::compare`], with
//! each run's energy and carbon over the common window computed from its own inputs (no run is
//! done again: a kept run holds its metrics).

use super::handles::Session;
use super::{guard, Answer};
use crate::compare::{compare_finished, Comparison, FinishedRun};
use crate::diag::Diagnostic;
use serde::Deserialize;

/// The most runs one comparison takes (a portfolio of policies and seeds).
pub const MAX_COMPARED_RUNS: usize = 256;

/// Which runs to compare, their column labels and the baseline column.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CompareRequest {
    /// Run handles, in column order.
    pub runs: Vec<u32>,
    /// One label per run (`A`, `B`, a policy's name); default: `run 1`, `run 2`, ...
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub labels: Option<Vec<String>>,
    /// The column the others are compared with (default 0).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub baseline: Option<usize>,
}

impl Session {
    /// Compares finished runs (see [`crate::compare`]).
    pub fn compare(&self, request: &CompareRequest) -> Answer<Comparison> {
        guard(|| match self.compared(request) {
            Ok(value) => Answer::Success { value },
            Err(errors) => Answer::Failure { errors },
        })
    }

    /// [`Session::compare`] from the page's JSON text, as JSON text.
    pub fn compare_json_str(&self, request: &str) -> String {
        match serde_json::from_str::<CompareRequest>(request) {
            Ok(r) => self.compare(&r).to_json_string(),
            Err(e) => Answer::<()>::Failure {
                errors: vec![Diagnostic::error(
                    "request",
                    format!("not a comparison request {{\"runs\": [handles], \"labels\": [texts], \"baseline\": index}}: {e}"),
                )],
            }
            .to_json_string(),
        }
    }

    pub(super) fn compared(&self, request: &CompareRequest) -> Result<Comparison, Vec<Diagnostic>> {
        let n = request.runs.len();
        if n == 0 || n > MAX_COMPARED_RUNS {
            return Err(vec![Diagnostic::error(
                "runs",
                format!("a comparison takes 1 to {MAX_COMPARED_RUNS} runs, not {n}"),
            )]);
        }
        if let Some(labels) = request.labels.as_ref().filter(|l| l.len() != n) {
            return Err(vec![Diagnostic::error(
                "labels",
                format!("{} labels for {n} runs: give one per run", labels.len()),
            )]);
        }
        let baseline = request.baseline.unwrap_or(0);
        if baseline >= n {
            return Err(vec![Diagnostic::error(
                "baseline",
                format!(
                    "baseline {baseline} is not a column: there are {n} runs (0 to {})",
                    n - 1
                ),
            )]);
        }
        let kept = request
            .runs
            .iter()
            .map(|&run| self.run_inputs(run))
            .collect::<Result<Vec<_>, _>>()?;
        let requests = kept
            .iter()
            .map(|k| self.request(&k.handles, &k.policy, &k.options))
            .collect::<Result<Vec<_>, _>>()?;
        let runs: Vec<FinishedRun> = kept
            .iter()
            .zip(&requests)
            .enumerate()
            .map(|(i, (k, r))| FinishedRun {
                label: match &request.labels {
                    Some(labels) => labels[i].clone(),
                    None => format!("run {}", i + 1),
                },
                request: r,
                metrics: &k.metrics,
                start_epoch_ms: k.start_epoch_ms,
            })
            .collect();
        compare_finished(&runs, baseline)
    }
}
