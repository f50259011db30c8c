//! Running a lesson from its inputs: each policy on the inputs with the lesson's options, then
//! its conditions and its question's answer on those runs. `policy-playground lesson check`
//! and the tests run lessons this way; the page runs them itself and asks
//! [`super::verdict`] about its runs.

use super::verdict::{grade, verdicts, ConditionVerdict, Figures, Grade};
use super::Lesson;
use crate::compare::FinishedRun;
use crate::diag::Diagnostic;
use crate::request::{CarbonReference, Inputs, RunRequest};
use crate::sim::SimResult;

/// What a lesson's own run gives.
#[derive(Debug, Clone)]
pub struct LessonCheck {
    /// Each policy's result, in order (A, B).
    pub results: Vec<SimResult>,
    pub verdicts: Vec<ConditionVerdict>,
    /// The question's right answer on these runs.
    pub answer: Grade,
}

impl LessonCheck {
    /// Whether every condition holds.
    pub fn holds(&self) -> bool {
        self.verdicts.iter().all(|v| v.holds)
    }
}

/// Runs every policy of `lesson` on `inputs` with its options, and evaluates its conditions and
/// its answer. A run that cannot start (a host count naming no group) is an error whose path
/// is the lesson's (`options.hostCounts.x`).
pub fn check(lesson: &Lesson, inputs: Inputs) -> Result<LessonCheck, Vec<Diagnostic>> {
    let requests: Vec<RunRequest> = lesson
        .policies
        .iter()
        .map(|p| {
            let mut r = RunRequest::new(inputs, &p.policy, CarbonReference::NotFollowed);
            r.options = lesson.options.run_options();
            r
        })
        .collect();
    let mut results = Vec::with_capacity(requests.len());
    for r in &requests {
        let outcome = r.run(&mut |_| {}).map_err(under_options)?;
        results.push(outcome.result);
    }
    let runs: Vec<FinishedRun> = requests
        .iter()
        .zip(&results)
        .zip(&lesson.policies)
        .map(|((request, result), p)| FinishedRun {
            label: p.label.clone(),
            request,
            metrics: &result.metrics,
            start_epoch_ms: result.start_epoch_ms,
        })
        .collect();
    let figures = Figures::of(lesson, &runs).map_err(under_options)?;
    let verdicts = verdicts(lesson, &figures);
    let answer = grade(lesson, &figures, None).map_err(|d| vec![d])?;
    Ok(LessonCheck {
        results,
        verdicts,
        answer,
    })
}

/// A run's errors about its options, under the lesson's `options`.
fn under_options(errors: Vec<Diagnostic>) -> Vec<Diagnostic> {
    errors
        .into_iter()
        .map(|d| {
            if d.path.starts_with("hostCounts") || d.path == "quantumMs" || d.path == "seed" {
                d.under("options")
            } else {
                d
            }
        })
        .collect()
}
