//! Runs over loaded handles: [`Session::run`] (with progress: [`Session::run_with_progress`]),
//! and what the page asks about a finished run afterwards, each computed on demand by re-running
//! the same inputs with the same code: [`Session::explain`] (every decision about one task) and
//! [`Session::queue_at`] (the queue at one instant). A bulk run stores neither.

use super::handles::{Held, RunInputs, Session};
use super::{failure, guard, Answer};
use crate::diag::Diagnostic;
use crate::notes::{notes, Note};
use crate::overview;
use crate::policy::{self, Policy};
pub use crate::request::RunOptions;
use crate::request::{CarbonReference, Inputs, RunOutcome, RunRequest};
use crate::sim::{self, QueueSnapshot};
use serde::{Deserialize, Serialize};

/// A finished run over handles: its handle (to ask about it later) and its result.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunAnswer {
    pub run: u32,
    /// What a policy feature could not do on these inputs, and why ([`crate::notes`]).
    pub notes: Vec<Note>,
    /// The cluster overview ([`crate::overview`]) in [`crate::overview::answer_buckets`]
    /// buckets: made from the result here, so that the page's strip costs no second run.
    pub overview: crate::overview::Overview,
    pub result: sim::SimResult,
}

/// The handles a run is made of.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Handles {
    pub topology: u32,
    pub workload: u32,
    #[serde(default)]
    pub carbon: Option<u32>,
}

impl Session {
    /// The run request of the handles' inputs under `policy` and `options` (the page reads no
    /// paths, so a topology's carbon reference is not followed), checked against the session's
    /// limits once the host counts are applied.
    pub(super) fn request<'a>(
        &'a self,
        h: &Handles,
        policy: &'a Policy,
        options: &RunOptions,
    ) -> Result<RunRequest<'a>, Vec<Diagnostic>> {
        let (topology, workload, carbon) = self.inputs(h)?;
        let inputs = Inputs {
            topology,
            workload,
            carbon,
        };
        let mut request = RunRequest::new(inputs, policy, CarbonReference::NotFollowed);
        request.options = options.clone();
        request.workload_digest = Some(self.workload_digest(h.workload, workload));
        self.limits.check_hosts(request.topology()?.host_count())?;
        Ok(request)
    }

    /// Runs to the end, reporting the fraction of tasks ended after every chunk of instants.
    pub(super) fn simulate(
        &self,
        h: &Handles,
        policy: &Policy,
        o: &RunOptions,
        explain: Option<String>,
        progress: &mut dyn FnMut(f64),
    ) -> Result<RunOutcome, Vec<Diagnostic>> {
        let mut request = self.request(h, policy, o)?;
        request.explain = explain;
        request.run(progress)
    }

    /// Runs loaded inputs under a policy; the value is `{"run": handle, "result": ...}`, the
    /// result being what the scenario path gives for the same inputs.
    pub fn run(
        &mut self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
    ) -> Answer<RunAnswer> {
        self.run_with_progress(handles, policy_text, options, &mut |_| {})
    }

    /// [`Session::run`], calling `progress` with the fraction of tasks ended as the run goes
    /// (the page's progress bar; it cancels by terminating the worker the run is in).
    pub fn run_with_progress(
        &mut self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        progress: &mut dyn FnMut(f64),
    ) -> Answer<RunAnswer> {
        guard(
            || match self.run_kept(handles, policy_text, options, progress) {
                Ok(value) => Answer::Success { value },
                Err(errors) => Answer::Failure { errors },
            },
        )
    }

    /// Runs loaded inputs under a policy and keeps the run (to be asked about later): the
    /// answer of [`Session::run`] (and, as columns, of [`Session::run_binary`]).
    pub(super) fn run_kept(
        &mut self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        progress: &mut dyn FnMut(f64),
    ) -> Result<RunAnswer, Vec<Diagnostic>> {
        let (policy, policy_warnings) = parse_policy(policy_text)?;
        let mut request = self.request(handles, &policy, options)?;
        // As a scenario file's: the policy's warnings, under `policy`.
        request.warnings = policy_warnings
            .into_iter()
            .map(|d| d.under("policy"))
            .collect();
        let RunOutcome { result, .. } = request.run(progress)?;
        let notes = notes(&policy, request.inputs.workload, &result);
        let topology = request.topology()?;
        let buckets =
            overview::answer_buckets(topology.clusters.iter().map(|c| c.groups.len()).sum());
        let overview = overview::overview(&topology, &result, buckets);
        let id = self.keep_run(RunInputs {
            handles: *handles,
            policy,
            options: options.clone(),
            metrics: result.metrics.clone(),
            start_epoch_ms: result.start_epoch_ms,
        });
        Ok(RunAnswer {
            run: id,
            notes,
            overview,
            result,
        })
    }

    /// [`Session::run`] from the page's JSON texts, as JSON text.
    pub fn run_json_str(&mut self, handles: &str, policy_text: &str, options: &str) -> String {
        self.run_with_progress_json_str(handles, policy_text, options, &mut |_| {})
    }

    /// [`Session::run_with_progress`] from the page's JSON texts, as JSON text.
    pub fn run_with_progress_json_str(
        &mut self,
        handles: &str,
        policy_text: &str,
        options: &str,
        progress: &mut dyn FnMut(f64),
    ) -> String {
        match parse_request(handles, options) {
            Ok((h, o)) => self
                .run_with_progress(&h, policy_text, &o, progress)
                .to_json_string(),
            Err(errors) => Answer::<()>::Failure { errors }.to_json_string(),
        }
    }

    /// Kept run `run` again, recording every decision about `explain` if given: runs are
    /// deterministic, so this is how the page's questions about a finished run are answered.
    fn rerun(&self, run: u32, explain: Option<String>) -> Result<RunOutcome, Vec<Diagnostic>> {
        let inputs = self.run_inputs(run)?;
        self.simulate(
            &inputs.handles,
            &inputs.policy,
            &inputs.options,
            explain,
            &mut |_| {},
        )
    }

    pub(super) fn run_inputs(&self, run: u32) -> Result<RunInputs, Vec<Diagnostic>> {
        match self.get(run, "run")? {
            Held::Run(r) => Ok(RunInputs::clone(r)),
            _ => Err(vec![Diagnostic::error(
                "",
                format!("handle {run} is not a run"),
            )]),
        }
    }

    /// Every decision about one task of a finished run, computed by re-running it with that task
    /// recorded (a bulk run stores no explanation).
    pub fn explain(&self, run: u32, task_id: &str) -> Answer<sim::TaskExplanation> {
        guard(|| match self.rerun(run, Some(task_id.to_string())) {
            Err(errors) => Answer::Failure { errors },
            Ok(RunOutcome {
                explanation: Some(e),
                ..
            }) => Answer::Success { value: e },
            Ok(_) => failure(format!("the run has no task with id `{task_id}`")),
        })
    }

    /// The state of a finished run just after the instant `time_ms` (simulation ms): who runs
    /// where, the queue in order and why each task waits (see [`crate::sim::queue`]).
    pub fn queue_at(&self, run: u32, time_ms: i64) -> Answer<QueueSnapshot> {
        guard(|| {
            let inputs = match self.run_inputs(run) {
                Ok(r) => r,
                Err(errors) => return Answer::Failure { errors },
            };
            let snapshot = self
                .request(&inputs.handles, &inputs.policy, &inputs.options)
                .and_then(|request| {
                    request.with_simulation(|mut sim| {
                        sim.step_until(time_ms);
                        sim.snapshot(time_ms)
                    })
                });
            match snapshot {
                Ok(value) => Answer::Success { value },
                Err(errors) => Answer::Failure { errors },
            }
        })
    }
}

impl Session {
    /// A finished run's result as the JSON text `policy-playground simulate --json` prints for
    /// the same inputs (the page's download), by running it again.
    pub fn result_json(&self, run: u32) -> Answer<String> {
        guard(|| match self.rerun(run, None) {
            Ok(outcome) => match serde_json::to_string(&outcome.result) {
                Ok(text) => Answer::Success { value: text },
                Err(e) => failure(format!("could not write the result: {e}")),
            },
            Err(errors) => Answer::Failure { errors },
        })
    }

    /// The tasks of a finished run as CSV ([`crate::output::csv::tasks`]), by running it again:
    /// runs are deterministic, and a bulk run keeps no per-task copy for this.
    pub fn tasks_csv(&self, run: u32) -> Answer<String> {
        guard(|| match self.rerun(run, None) {
            Ok(outcome) => Answer::Success {
                value: crate::output::csv::tasks(&outcome.result),
            },
            Err(errors) => Answer::Failure { errors },
        })
    }
}

/// The policy of a run or an export, its errors placed under `policy` (as in a scenario file).
pub(super) fn parse_policy(text: &str) -> Result<(Policy, Vec<Diagnostic>), Vec<Diagnostic>> {
    policy::policy_from_text(text)
        .map_err(|errors| errors.into_iter().map(|d| d.under("policy")).collect())
}

/// Reads a run's handles and options from the page's JSON.
pub fn parse_request(
    handles: &str,
    options: &str,
) -> Result<(Handles, RunOptions), Vec<Diagnostic>> {
    let h: Handles = serde_json::from_str(handles).map_err(|e| {
        vec![Diagnostic::error(
            "handles",
            format!("not valid handles {{\"topology\", \"workload\", \"carbon\"}}: {e}"),
        )]
    })?;
    let o: RunOptions = if options.trim().is_empty() {
        RunOptions::default()
    } else {
        serde_json::from_str(options).map_err(|e| {
            vec![Diagnostic::error(
                "options",
                format!("not valid run options: {e}"),
            )]
        })?
    };
    Ok((h, o))
}
