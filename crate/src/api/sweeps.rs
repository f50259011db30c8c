//! Parameter sweeps over loaded handles ([`crate::sweep`]): one setting of the policy given
//! several values, each run under several seeds, metrics only (no run is kept). A sweep is made
//! in one call ([`Session::sweep`]) or, in the page's two workers, in parts
//! ([`Session::sweep_split`], [`Session::sweep_part`], [`Session::sweep_assemble`]) whose report
//! is the same bytes.

use super::handles::{Handles, RunOptions, Session};
use super::runs::{parse_policy, parse_request};
use super::{guard, Answer};
use crate::diag::Diagnostic;
use crate::parallel::Split;
use crate::policy::Policy;
use crate::request::SWEEPABLE_OPTIONS;
use crate::sim::result::Metrics;
use crate::sweep::{self, SweepPart, SweepReport, SweepSpec};
use serde_json::Value;

impl Session {
    /// Sweeps `spec` over the policy of `policy_text` on the handles' inputs, with the run
    /// options of [`Session::run`] (the first seed is `options.seed`); `progress(done, total)`
    /// after each run.
    pub fn sweep(
        &self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        spec: &SweepSpec,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Answer<SweepReport> {
        guard(|| {
            let (points, seeds) = match self.sweep_plan(handles, policy_text, options, spec) {
                Ok(plan) => plan,
                Err(errors) => return Answer::Failure { errors },
            };
            let mut failed: Option<Vec<Diagnostic>> = None;
            let runs = self.sweep_runs(handles, options, spec, &mut failed);
            let report = sweep::run(&spec.parameter, points, seeds, runs, progress);
            match failed {
                Some(errors) => Answer::Failure { errors },
                None => Answer::Success { value: report },
            }
        })
    }

    /// How the page shares this sweep's runs between its two workers.
    pub fn sweep_split(
        &self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        spec: &SweepSpec,
    ) -> Answer<Split> {
        guard(|| {
            let split = self
                .sweep_plan(handles, policy_text, options, spec)
                .and_then(|(points, seeds)| self.split(handles, points.len() * seeds.len()));
            Answer::from(split)
        })
    }

    /// Makes runs `runs` of the sweep [`Session::sweep`] would make (see [`sweep::jobs`]), for
    /// [`Session::sweep_assemble`] in this or another session holding the same inputs.
    pub fn sweep_part(
        &self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        spec: &SweepSpec,
        runs: std::ops::Range<usize>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Answer<SweepPart> {
        guard(|| {
            let (points, seeds) = match self.sweep_plan(handles, policy_text, options, spec) {
                Ok(plan) => plan,
                Err(errors) => return Answer::Failure { errors },
            };
            let jobs = sweep::jobs(&points, &seeds);
            let mut failed: Option<Vec<Diagnostic>> = None;
            let made = self.sweep_runs(handles, options, spec, &mut failed);
            let part = sweep::run_part(&jobs, runs, made, progress);
            Answer::from(match failed {
                Some(errors) => Err(errors),
                None => part,
            })
        })
    }

    /// The report of the sweep whose runs are in `parts` (made by [`Session::sweep_part`]): the
    /// same as [`Session::sweep`]'s.
    pub fn sweep_assemble(
        &self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        spec: &SweepSpec,
        parts: Vec<SweepPart>,
    ) -> Answer<SweepReport> {
        guard(|| {
            let report = self
                .sweep_plan(handles, policy_text, options, spec)
                .and_then(|(points, seeds)| {
                    let runs = sweep::from_parts(parts, points.len() * seeds.len())?;
                    Ok(sweep::run(
                        &spec.parameter,
                        points,
                        seeds,
                        runs,
                        &mut |_, _| {},
                    ))
                });
            Answer::from(report)
        })
    }

    /// The points and seeds of a sweep, its policy and its run options checked before the
    /// first run (every run uses the same inputs and options).
    fn sweep_plan(
        &self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        spec: &SweepSpec,
    ) -> Result<sweep::Plan, Vec<Diagnostic>> {
        let (policy, _) = parse_policy(policy_text)?;
        let plan = sweep::plan(&policy, spec, options.seed).map_err(|errors| {
            errors
                .into_iter()
                .map(|d| d.under("sweep"))
                .collect::<Vec<_>>()
        })?;
        self.request(handles, &policy, options)
            .and_then(|r| r.options.sim_options(None).map(|_| ()))?;
        Ok(plan)
    }

    /// The sweep's runs one after the other (a run option's sweep sets the option to the
    /// point's value); the first run's errors go to `failed`.
    fn sweep_runs<'a>(
        &'a self,
        handles: &'a Handles,
        options: &'a RunOptions,
        spec: &'a SweepSpec,
        failed: &'a mut Option<Vec<Diagnostic>>,
    ) -> impl sweep::Runs + 'a {
        sweep::one_after_another(move |policy: &Policy, value: &Value, seed| {
            let mut o = RunOptions {
                seed,
                ..options.clone()
            };
            if SWEEPABLE_OPTIONS.contains(&spec.parameter.as_str()) {
                // Checked by the plan: a refused value never gets here.
                o = o.with_option(&spec.parameter, value).unwrap_or(o);
            }
            self.metrics_of(handles, policy, &o, failed)
        })
    }

    /// The metrics of one run of a sweep or portfolio; its errors go to `failed` (the first
    /// only) and the metrics are then the defaults, never reported.
    pub(super) fn metrics_of(
        &self,
        handles: &Handles,
        policy: &Policy,
        options: &RunOptions,
        failed: &mut Option<Vec<Diagnostic>>,
    ) -> Metrics {
        match self.simulate(handles, policy, options, None, &mut |_| {}) {
            Ok(outcome) => outcome.result.metrics,
            Err(errors) => {
                failed.get_or_insert(errors);
                Metrics::default()
            }
        }
    }

    /// How the page shares `runs` runs on the handles' workload between its two workers.
    pub(super) fn split(&self, handles: &Handles, runs: usize) -> Result<Split, Vec<Diagnostic>> {
        let (_, workload, _) = self.inputs(handles)?;
        Ok(Split::of(runs, workload.fragments.len()))
    }

    /// [`Session::sweep`] with its request as JSON text: `handles` and `options` as for
    /// [`Session::run`], `spec` `{"parameter", "values", "seeds"}`.
    pub fn sweep_json_str(
        &self,
        handles: &str,
        policy_text: &str,
        options: &str,
        spec: &str,
        progress: &mut dyn FnMut(usize, usize),
    ) -> String {
        match read_sweep(handles, options, spec) {
            Ok((h, o, spec)) => self
                .sweep(&h, policy_text, &o, &spec, progress)
                .to_json_string(),
            Err(failure) => failure,
        }
    }

    /// [`Session::sweep_split`] with its request as JSON text (as [`Session::sweep_json_str`]).
    pub fn sweep_split_json_str(
        &self,
        handles: &str,
        policy_text: &str,
        options: &str,
        spec: &str,
    ) -> String {
        match read_sweep(handles, options, spec) {
            Ok((h, o, spec)) => self
                .sweep_split(&h, policy_text, &o, &spec)
                .to_json_string(),
            Err(failure) => failure,
        }
    }

    /// [`Session::sweep_part`] with its request as JSON text (as [`Session::sweep_json_str`])
    /// and runs `from..to`.
    pub fn sweep_part_json_str(
        &self,
        handles: &str,
        policy_text: &str,
        options: &str,
        spec: &str,
        runs: std::ops::Range<usize>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> String {
        match read_sweep(handles, options, spec) {
            Ok((h, o, spec)) => self
                .sweep_part(&h, policy_text, &o, &spec, runs, progress)
                .to_json_string(),
            Err(failure) => failure,
        }
    }

    /// [`Session::sweep_assemble`] with its request as JSON text (as
    /// [`Session::sweep_json_str`]) and `parts` a JSON array of the parts' values.
    pub fn sweep_assemble_json_str(
        &self,
        handles: &str,
        policy_text: &str,
        options: &str,
        spec: &str,
        parts: &str,
    ) -> String {
        let parts: Vec<SweepPart> = match serde_json::from_str(parts) {
            Ok(p) => p,
            Err(e) => {
                return failure_text(
                    "parts",
                    format!("not sweep parts [{{\"from\", \"metrics\"}}]: {e}"),
                )
            }
        };
        match read_sweep(handles, options, spec) {
            Ok((h, o, spec)) => self
                .sweep_assemble(&h, policy_text, &o, &spec, parts)
                .to_json_string(),
            Err(failure) => failure,
        }
    }
}

/// A sweep request's handles, options and spec read from JSON text, or the failure's JSON text.
fn read_sweep(
    handles: &str,
    options: &str,
    spec: &str,
) -> Result<(Handles, RunOptions, SweepSpec), String> {
    let spec: SweepSpec = serde_json::from_str(spec).map_err(|e| {
        failure_text(
            "sweep",
            format!("not a sweep {{\"parameter\", \"values\", \"seeds\"}}: {e}"),
        )
    })?;
    parse_request(handles, options)
        .map(|(h, o)| (h, o, spec))
        .map_err(|errors| Answer::<()>::Failure { errors }.to_json_string())
}

/// The JSON text of a failure of one error at `path`.
fn failure_text(path: &str, message: String) -> String {
    Answer::<()>::Failure {
        errors: vec![Diagnostic::error(path, message)],
    }
    .to_json_string()
}
