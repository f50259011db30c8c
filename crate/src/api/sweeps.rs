//! Parameter sweeps over loaded handles ([`crate::sweep`]): one setting of the policy given
//! several values ([`SweepSpec`]), or two settings at once, a 2-D sweep
//! ([`crate::portfolio::grid`], [`GridSpec`]); each value run under several seeds, metrics only
//! (no run is kept). A sweep is made in one call ([`Session::sweep`]) or, in the page's two
//! workers, in parts ([`Session::sweep_split`], [`Session::sweep_part`],
//! [`Session::sweep_assemble`]) whose report is the same bytes. Both kinds share every step
//! here; what differs between them is [`SweepKind`].

use super::handles::{Handles, RunOptions, Session};
use super::runs::{parse_policy, parse_request};
use super::{failure, guard, Answer};
use crate::diag::Diagnostic;
use crate::parallel::Split;
use crate::policy::Policy;
use crate::portfolio::grid::{self, GridReport, GridSpec};
use crate::request::SWEEPABLE_OPTIONS;
use crate::sim::result::Metrics;
use crate::sweep::{self, SweepPart, SweepReport, SweepSpec};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// What differs between a 1-D and a 2-D sweep: how its request reads, its plan, a run's
/// options for a point's value, and the report of its runs.
pub trait SweepKind: DeserializeOwned {
    type Report: Serialize;
    /// The failure's message when the request's text is not one.
    fn unreadable(e: serde_json::Error) -> String;
    fn plan(&self, policy: &Policy, first_seed: u64) -> Result<sweep::Plan, Vec<Diagnostic>>;
    /// The options of a run at a point of `value`.
    fn options(&self, value: &Value, options: &RunOptions) -> RunOptions;
    fn report(
        &self,
        plan: sweep::Plan,
        runs: impl sweep::Runs,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Self::Report;
}

impl SweepKind for SweepSpec {
    type Report = SweepReport;
    fn unreadable(e: serde_json::Error) -> String {
        format!("not a sweep {{\"parameter\", \"values\", \"seeds\"}}: {e}")
    }
    fn plan(&self, policy: &Policy, first_seed: u64) -> Result<sweep::Plan, Vec<Diagnostic>> {
        sweep::plan(policy, self, first_seed)
    }
    fn options(&self, value: &Value, options: &RunOptions) -> RunOptions {
        if SWEEPABLE_OPTIONS.contains(&self.parameter.as_str()) {
            // Checked by the plan: a refused value never gets here.
            options
                .with_option(&self.parameter, value)
                .unwrap_or_else(|_| options.clone())
        } else {
            options.clone()
        }
    }
    fn report(
        &self,
        (points, seeds): sweep::Plan,
        runs: impl sweep::Runs,
        progress: &mut dyn FnMut(usize, usize),
    ) -> SweepReport {
        sweep::run(&self.parameter, points, seeds, runs, progress)
    }
}

impl SweepKind for GridSpec {
    type Report = GridReport;
    fn unreadable(e: serde_json::Error) -> String {
        format!(
            "not a sweep request {{\"x\": {{\"parameter\", \"values\"}}, \"y\": {{...}}, \"seeds\"}}: {e}"
        )
    }
    fn plan(&self, policy: &Policy, first_seed: u64) -> Result<sweep::Plan, Vec<Diagnostic>> {
        grid::plan(policy, self, first_seed)
    }
    fn options(&self, value: &Value, options: &RunOptions) -> RunOptions {
        grid::cell_options(self, value, options)
    }
    fn report(
        &self,
        plan: sweep::Plan,
        runs: impl sweep::Runs,
        progress: &mut dyn FnMut(usize, usize),
    ) -> GridReport {
        grid::run(self, plan, runs, progress)
    }
}

impl Session {
    /// Sweeps `spec` over the policy of `policy_text` on the handles' inputs, with the run
    /// options of [`Session::run`] (the first seed is `options.seed`); `progress(done, total)`
    /// after each run.
    pub fn sweep<K: SweepKind>(
        &self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        spec: &K,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Answer<K::Report> {
        guard(|| {
            let plan = match self.sweep_plan(handles, policy_text, options, spec) {
                Ok(plan) => plan,
                Err(errors) => return Answer::Failure { errors },
            };
            let mut failed: Option<Vec<Diagnostic>> = None;
            let runs = self.sweep_runs(handles, options, spec, &mut failed);
            let report = spec.report(plan, runs, progress);
            Answer::from(failed.map_or(Ok(report), Err))
        })
    }

    /// How the page shares this sweep's runs between its two workers.
    pub fn sweep_split<K: SweepKind>(
        &self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        spec: &K,
    ) -> Answer<Split> {
        guard(|| {
            Answer::from(
                self.sweep_plan(handles, policy_text, options, spec)
                    .and_then(|(points, seeds)| self.split(handles, points.len() * seeds.len())),
            )
        })
    }

    /// Makes runs `runs` of the sweep [`Session::sweep`] would make (see [`sweep::jobs`]), for
    /// [`Session::sweep_assemble`] in this or another session holding the same inputs.
    pub fn sweep_part<K: SweepKind>(
        &self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        spec: &K,
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
            Answer::from(failed.map_or(part, Err))
        })
    }

    /// The report of the sweep whose runs are in `parts` (made by [`Session::sweep_part`]): the
    /// same as [`Session::sweep`]'s.
    pub fn sweep_assemble<K: SweepKind>(
        &self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        spec: &K,
        parts: Vec<SweepPart>,
    ) -> Answer<K::Report> {
        guard(|| {
            Answer::from(
                self.sweep_plan(handles, policy_text, options, spec)
                    .and_then(|plan| {
                        let runs = sweep::from_parts(parts, plan.0.len() * plan.1.len())?;
                        Ok(spec.report(plan, runs, &mut |_, _| {}))
                    }),
            )
        })
    }

    /// The points and seeds of a sweep, its policy and its run options checked before the
    /// first run (every run uses the same inputs and options).
    fn sweep_plan<K: SweepKind>(
        &self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        spec: &K,
    ) -> Result<sweep::Plan, Vec<Diagnostic>> {
        let (policy, _) = parse_policy(policy_text)?;
        let plan = spec.plan(&policy, options.seed).map_err(|errors| {
            errors
                .into_iter()
                .map(|d| d.under("sweep"))
                .collect::<Vec<_>>()
        })?;
        self.request(handles, &policy, options)
            .and_then(|r| r.options.sim_options(None).map(|_| ()))?;
        Ok(plan)
    }

    /// The sweep's runs one after the other, each with its point's options; the first run's
    /// errors go to `failed`.
    fn sweep_runs<'a, K: SweepKind>(
        &'a self,
        handles: &'a Handles,
        options: &'a RunOptions,
        spec: &'a K,
        failed: &'a mut Option<Vec<Diagnostic>>,
    ) -> impl sweep::Runs + 'a {
        sweep::one_after_another(move |policy: &Policy, value: &Value, seed| {
            let o = RunOptions {
                seed,
                ..spec.options(value, options)
            };
            self.metrics_of(handles, policy, &o, failed)
        })
    }

    /// The metrics of one run of a sweep; its errors go to `failed` (the first only) and the
    /// metrics are then the defaults, never reported.
    fn metrics_of(
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
    /// [`Session::run`], `spec` a [`SweepSpec`] or a [`GridSpec`].
    pub fn sweep_json_str<K: SweepKind>(
        &self,
        handles: &str,
        policy_text: &str,
        options: &str,
        spec: &str,
        progress: &mut dyn FnMut(usize, usize),
    ) -> String {
        match read_sweep::<K>(handles, options, spec) {
            Ok((h, o, spec)) => self
                .sweep(&h, policy_text, &o, &spec, progress)
                .to_json_string(),
            Err(failure) => failure,
        }
    }

    /// [`Session::sweep_split`] with its request as JSON text (as [`Session::sweep_json_str`]).
    pub fn sweep_split_json_str<K: SweepKind>(
        &self,
        handles: &str,
        policy_text: &str,
        options: &str,
        spec: &str,
    ) -> String {
        match read_sweep::<K>(handles, options, spec) {
            Ok((h, o, spec)) => self
                .sweep_split(&h, policy_text, &o, &spec)
                .to_json_string(),
            Err(failure) => failure,
        }
    }

    /// [`Session::sweep_part`] with its request as JSON text (as [`Session::sweep_json_str`])
    /// and runs `from..to`.
    pub fn sweep_part_json_str<K: SweepKind>(
        &self,
        handles: &str,
        policy_text: &str,
        options: &str,
        spec: &str,
        runs: std::ops::Range<usize>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> String {
        match read_sweep::<K>(handles, options, spec) {
            Ok((h, o, spec)) => self
                .sweep_part(&h, policy_text, &o, &spec, runs, progress)
                .to_json_string(),
            Err(failure) => failure,
        }
    }

    /// [`Session::sweep_assemble`] with its request as JSON text (as
    /// [`Session::sweep_json_str`]) and `parts` a JSON array of the parts' values.
    pub fn sweep_assemble_json_str<K: SweepKind>(
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
                return failure_at(
                    "parts",
                    format!("not sweep parts [{{\"from\", \"metrics\"}}]: {e}"),
                )
            }
        };
        match read_sweep::<K>(handles, options, spec) {
            Ok((h, o, spec)) => self
                .sweep_assemble(&h, policy_text, &o, &spec, parts)
                .to_json_string(),
            Err(failure) => failure,
        }
    }
}

/// A sweep request's handles, options and spec read from JSON text, or the failure's JSON text.
fn read_sweep<K: SweepKind>(
    handles: &str,
    options: &str,
    spec: &str,
) -> Result<(Handles, RunOptions, K), String> {
    let spec: K = serde_json::from_str(spec).map_err(|e| failure_at("sweep", K::unreadable(e)))?;
    parse_request(handles, options)
        .map(|(h, o)| (h, o, spec))
        .map_err(|errors| Answer::<()>::Failure { errors }.to_json_string())
}

/// The JSON text of a failure of one error at `path`.
fn failure_at(path: &str, message: String) -> String {
    Answer::<()>::Failure {
        errors: vec![Diagnostic::error(path, message)],
    }
    .to_json_string()
}

/// A 2-D sweep report (its JSON text) as CSV, one row per run ([`grid::csv`]): the bytes of
/// `sweep --csv` with two settings.
pub fn sweep_grid_csv(report_json: &str) -> Answer<String> {
    guard(|| match serde_json::from_str::<GridReport>(report_json) {
        Ok(report) => Answer::Success {
            value: grid::csv(&report),
        },
        Err(e) => failure(format!("not a 2-D sweep report: {e}")),
    })
}

/// [`sweep_grid_csv`] as JSON text.
pub fn sweep_grid_csv_json_str(report_json: &str) -> String {
    sweep_grid_csv(report_json).to_json_string()
}
