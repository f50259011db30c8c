//! Runs over loaded handles: [`Session::run`] (with progress: [`Session::run_with_progress`]),
//! and what the page asks about a finished run afterwards, each computed on demand by re-running
//! the same inputs with the same code: [`Session::explain`] (every decision about one task) and
//! [`Session::queue_at`] (the queue at one instant). A bulk run stores neither.

use super::handles::{Loaded, RunInputs, Session};
use super::{failure, guard, Answer};
use crate::diag::Diagnostic;
use crate::model::{CarbonTrace, Topology, Workload};
use crate::policy::{self, Policy};
use crate::sim::{self, Options, QueueSnapshot, SimResult, Simulation};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Instants simulated between two progress reports.
const PROGRESS_CHUNK: u64 = 1 << 12;

/// A run's inputs: the topology (edited by host counts, or borrowed as loaded), the workload and
/// the carbon trace.
pub(super) type EditedInputs<'a> = (Cow<'a, Topology>, &'a Workload, Option<&'a CarbonTrace>);

/// The handles a run is made of.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Handles {
    pub topology: u32,
    pub workload: u32,
    #[serde(default)]
    pub carbon: Option<u32>,
}

/// The options of a run.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct RunOptions {
    pub seed: u64,
    /// Scheduling quantum, ms (default 1000).
    pub quantum_ms: Option<i64>,
    /// Power series resolution, ms (default 60 000; 0: exact change points).
    pub series_resolution_ms: Option<i64>,
    /// Host counts overriding the topology's, by `cluster/host` name (a teacher's edit).
    pub host_counts: BTreeMap<String, u32>,
}

impl Session {
    /// Sets up a run of the handles under `policy` and hands it to `f`.
    fn with_simulation<R>(
        &self,
        h: &Handles,
        policy: &Policy,
        o: &RunOptions,
        explain: Option<String>,
        f: impl FnOnce(Simulation, &Topology) -> R,
    ) -> Result<R, Vec<Diagnostic>> {
        let (topology, workload, carbon) = self.edited_inputs(h, o)?;
        let topology = &*topology;
        let quantum_ms = o.quantum_ms.unwrap_or(sim::DEFAULT_QUANTUM_MS);
        if !(1..=crate::scenario::MAX_QUANTUM_MS).contains(&quantum_ms) {
            return Err(vec![Diagnostic::error(
                "quantumMs",
                format!(
                    "`quantumMs` must be in [1, {}], found {quantum_ms}",
                    crate::scenario::MAX_QUANTUM_MS
                ),
            )]);
        }
        let resolution = o
            .series_resolution_ms
            .unwrap_or(Options::default().series_resolution_ms);
        if resolution < 0 {
            return Err(vec![Diagnostic::error(
                "seriesResolutionMs",
                format!("`seriesResolutionMs` must be >= 0, found {resolution}"),
            )]);
        }
        let options = Options {
            series_resolution_ms: resolution,
            explain_task: explain,
            ..Options::default()
        };
        let scenario = sim::Scenario {
            topology,
            workload,
            carbon,
            policy,
            seed: o.seed,
            quantum_ms,
        };
        Ok(f(Simulation::new(scenario, options), topology))
    }

    /// Runs to the end, reporting the fraction of tasks ended after every chunk of instants.
    pub(super) fn simulate(
        &self,
        h: &Handles,
        policy: &Policy,
        o: &RunOptions,
        explain: Option<String>,
        progress: &mut dyn FnMut(f64),
    ) -> Result<(SimResult, Option<sim::TaskExplanation>), Vec<Diagnostic>> {
        let has_carbon = h.carbon.is_some();
        self.with_simulation(h, policy, o, explain, |mut run, topology| {
            while !run.step(PROGRESS_CHUNK) {
                progress(run.progress());
            }
            let explanation = run.explanation().cloned();
            let mut result = run.finish();
            // Where the scenario path puts it: after the policy's warnings, before the inputs'.
            if let (false, Some(reference)) = (has_carbon, &topology.carbon_ref) {
                result.warnings.insert(
                    0,
                    Diagnostic::warning(
                        "carbon",
                        format!("the topology names the carbon trace `{reference}`, which a scenario cannot follow (it reads no paths): give `carbon` in the scenario; this run has no carbon figures"),
                    ),
                );
            }
            (result, explanation)
        })
    }

    /// Runs loaded inputs under a policy; the value is `{"run": handle, "result": ...}`, the
    /// result being what the scenario path gives for the same inputs.
    pub fn run(
        &mut self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
    ) -> Answer<Value> {
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
    ) -> Answer<Value> {
        guard(|| {
            let (policy, policy_warnings) = match parse_policy(policy_text) {
                Ok(read) => read,
                Err(errors) => return Answer::Failure { errors },
            };
            match self.simulate(handles, &policy, options, None, progress) {
                Err(errors) => Answer::Failure { errors },
                Ok((mut result, _)) => {
                    // As the scenario path does: the policy's warnings first, under `policy`.
                    let mut warnings: Vec<Diagnostic> = policy_warnings
                        .into_iter()
                        .map(|d| d.under("policy"))
                        .collect();
                    warnings.append(&mut result.warnings);
                    result.warnings = warnings;
                    let id = self.keep_run(RunInputs {
                        handles: *handles,
                        policy,
                        options: options.clone(),
                    });
                    Answer::Success {
                        value: serde_json::json!({"run": id, "result": result}),
                    }
                }
            }
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

    /// The handles' inputs with the options' host counts applied and held to the limits: what
    /// a run and the exports start from.
    pub(super) fn edited_inputs(
        &self,
        h: &Handles,
        o: &RunOptions,
    ) -> Result<EditedInputs<'_>, Vec<Diagnostic>> {
        let (topology, workload, carbon) = self.inputs(h)?;
        if o.host_counts.is_empty() {
            return Ok((Cow::Borrowed(topology), workload, carbon));
        }
        let edited = with_host_counts(topology, &o.host_counts)?;
        self.limits.check_hosts(edited.host_count())?;
        Ok((Cow::Owned(edited), workload, carbon))
    }

    /// Kept run `run` again, recording every decision about `explain` if given: runs are
    /// deterministic, so this is how the page's questions about a finished run are answered.
    fn rerun(
        &self,
        run: u32,
        explain: Option<String>,
    ) -> Result<(SimResult, Option<sim::TaskExplanation>), Vec<Diagnostic>> {
        let inputs = self.run_inputs(run)?;
        self.simulate(
            &inputs.handles,
            &inputs.policy,
            &inputs.options,
            explain,
            &mut |_| {},
        )
    }

    fn run_inputs(&self, run: u32) -> Result<RunInputs, Vec<Diagnostic>> {
        match self.get(run, "run")? {
            Loaded::Run(r) => Ok(r.clone()),
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
            Ok((_, Some(e))) => Answer::Success { value: e },
            Ok((_, None)) => failure(format!("the run has no task with id `{task_id}`")),
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
            let snapshot = self.with_simulation(
                &inputs.handles,
                &inputs.policy,
                &inputs.options,
                None,
                |mut sim, _| {
                    sim.step_until(time_ms);
                    sim.snapshot(time_ms)
                },
            );
            match snapshot {
                Ok(value) => Answer::Success { value },
                Err(errors) => Answer::Failure { errors },
            }
        })
    }
}

impl Session {
    /// The tasks of a finished run as CSV ([`crate::output::csv::tasks`]), by running it again:
    /// runs are deterministic, and a bulk run keeps no per-task copy for this.
    pub fn tasks_csv(&self, run: u32) -> Answer<String> {
        guard(|| match self.rerun(run, None) {
            Ok((result, _)) => Answer::Success {
                value: crate::output::csv::tasks(&result),
            },
            Err(errors) => Answer::Failure { errors },
        })
    }
}

/// The topology with some host groups' counts changed (`cluster/host` keys).
pub(super) fn with_host_counts(
    t: &Topology,
    counts: &BTreeMap<String, u32>,
) -> Result<Topology, Vec<Diagnostic>> {
    let mut t = t.clone();
    let mut unknown = Vec::new();
    for (key, &count) in counts {
        let found = t
            .clusters
            .iter_mut()
            .flat_map(|c| {
                let name = c.name.clone();
                c.groups
                    .iter_mut()
                    .map(move |g| (format!("{name}/{}", g.name), g))
            })
            .find(|(k, _)| k == key);
        match found {
            Some((_, g)) => g.count = count,
            None => unknown.push(Diagnostic::error(
                format!("hostCounts.{key}"),
                format!("the topology has no host group `{key}` (keys are cluster/host)"),
            )),
        }
    }
    if !unknown.is_empty() {
        return Err(unknown);
    }
    if t.host_count() == 0 {
        return Err(vec![Diagnostic::error(
            "hostCounts",
            "the edited topology has no host",
        )]);
    }
    let max = crate::input::topology::MAX_HOSTS;
    if t.host_count() > max {
        return Err(vec![Diagnostic::error(
            "hostCounts",
            format!(
                "the edited topology has {} hosts; at most {max} are supported",
                t.host_count()
            ),
        )]);
    }
    Ok(t)
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
