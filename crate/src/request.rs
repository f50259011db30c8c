//! One run request: the inputs, the policy, the options with their defaults and checks, the host
//! edits and the limits of one run, and [`RunRequest::run`], the one function that runs it.
//!
//! Every entry point builds a [`RunRequest`]: a scenario file through the api (and the CLI's
//! `--scenario`), the page's loaded handles, the CLI's `simulate` and `sweep` over separate files,
//! and the runs of an experiment file. So each rule about a run exists once here: the quantum's
//! range, the series resolution, the host counts, the warning that a topology's carbon reference
//! cannot be followed, and the order of a result's warnings (the inputs' and the policy's as
//! read, then that reference warning, then the run's own).

use crate::diag::Diagnostic;
use crate::engine::Semantics;
use crate::model::{CarbonTrace, Topology, Workload};
use crate::policy::Policy;
use crate::sim::{self, SimResult, Simulation, TaskExplanation};
use crate::whatif::CarbonWhatIf;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Largest accepted quantum: one day.
pub const MAX_QUANTUM_MS: i64 = 24 * 3600 * 1000;

/// Instants simulated between two progress reports.
const PROGRESS_CHUNK: u64 = 1 << 12;

/// The options of a run. Each `None` takes its default ([`sim::DEFAULT_QUANTUM_MS`], the
/// series resolution and limits of [`sim::Options::default`]).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct RunOptions {
    /// The seed of the run's generator (SPEC 8).
    pub seed: u64,
    /// Scheduling quantum, ms (default 1000; at most [`MAX_QUANTUM_MS`]).
    pub quantum_ms: Option<i64>,
    /// Power series resolution, ms (default 60 000; 0: exact change points).
    pub series_resolution_ms: Option<i64>,
    /// Host counts overriding the topology's, by `cluster/host` name (a teacher's edit).
    pub host_counts: BTreeMap<String, u32>,
    /// Simulated time past which the run stops, its tasks left terminated (default ten years).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub max_time_ms: Option<i64>,
    /// Instants after which the run stops the same way (default 250 million).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub max_instants: Option<u64>,
    /// `classic` (the default, SPEC 1-10) or `current` (OpenDC 3's filter scheduler, SPEC
    /// 11.12); omitted when classic.
    #[serde(default, skip_serializing_if = "Semantics::is_classic")]
    pub semantics: Semantics,
    /// Beyond OpenDC: the run sees the carbon trace this many ms later, read cyclically over the
    /// trace's span ([`crate::whatif`]: another season of the same year); omitted when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub carbon_shift_ms: Option<i64>,
    /// Beyond OpenDC: every carbon intensity times this (in [0, 1000]); omitted when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub carbon_scale: Option<f64>,
    /// Beyond OpenDC: the relative standard deviation of the seeded noise on the carbon forecast
    /// a time-shifting policy reads, never on the intensity it is charged (in [0, 10]; 0 is no
    /// noise); omitted when unset. See [`crate::engine::timeshift::ForecastNoise`].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub forecast_error: Option<f64>,
}

/// The run options a sweep can vary besides the policy's settings (a sweep's `parameter`
/// names one instead of a JSON Pointer): the carbon what-ifs, beyond OpenDC.
pub const SWEEPABLE_OPTIONS: [&str; 3] = ["forecastError", "carbonScale", "carbonShiftMs"];

/// The quantum of a run: `quantum_ms`, or the default, checked to lie in `[1, MAX_QUANTUM_MS]`.
pub fn quantum(quantum_ms: Option<i64>) -> Result<i64, Diagnostic> {
    let q = quantum_ms.unwrap_or(sim::DEFAULT_QUANTUM_MS);
    if (1..=MAX_QUANTUM_MS).contains(&q) {
        Ok(q)
    } else {
        Err(bad_quantum(&q))
    }
}

/// The error for a quantum that is not an integer in `[1, MAX_QUANTUM_MS]` (`found` as given).
pub fn bad_quantum(found: &dyn std::fmt::Display) -> Diagnostic {
    Diagnostic::error(
        "quantumMs",
        format!("`quantumMs` must be an integer in [1, {MAX_QUANTUM_MS}], found {found}"),
    )
}

impl RunOptions {
    /// The options with every default written out (what the page starts from: the wasm's
    /// `defaultOptions()`); the limits stay absent, meaning the simulator's.
    pub fn defaults() -> Self {
        RunOptions {
            seed: 0,
            quantum_ms: Some(sim::DEFAULT_QUANTUM_MS),
            series_resolution_ms: Some(sim::Options::default().series_resolution_ms),
            ..RunOptions::default()
        }
    }

    /// The simulator's options for these run options, or the errors naming each bad option.
    pub fn sim_options(&self, explain: Option<String>) -> Result<sim::Options, Vec<Diagnostic>> {
        let defaults = sim::Options::default();
        let resolution = self
            .series_resolution_ms
            .unwrap_or(defaults.series_resolution_ms);
        let mut errors = Vec::new();
        if let Err(e) = quantum(self.quantum_ms) {
            errors.push(e);
        }
        if resolution < 0 {
            errors.push(Diagnostic::error(
                "seriesResolutionMs",
                format!("`seriesResolutionMs` must be >= 0, found {resolution}"),
            ));
        }
        errors.extend(self.what_if().check());
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(sim::Options {
            series_resolution_ms: resolution,
            explain_task: explain,
            max_time_ms: self.max_time_ms.unwrap_or(defaults.max_time_ms),
            max_instants: self.max_instants.unwrap_or(defaults.max_instants),
            semantics: self.semantics,
            forecast_error: self.forecast_error.unwrap_or(0.0),
            workload_digest: None,
            placements_only: false,
        })
    }

    /// These options with the run option `name`, one of [`SWEEPABLE_OPTIONS`], set to `value`
    /// (what a sweep over a run option runs), or the error naming the value and the rule.
    pub fn with_option(&self, name: &str, value: &serde_json::Value) -> Result<Self, Diagnostic> {
        let mut o = self.clone();
        let bad = |expected: &str| {
            Diagnostic::error(name, format!("{name} = {value}: expected {expected}"))
        };
        match name {
            "forecastError" => {
                o.forecast_error = Some(value.as_f64().ok_or_else(|| bad("a number"))?)
            }
            "carbonScale" => o.carbon_scale = Some(value.as_f64().ok_or_else(|| bad("a number"))?),
            "carbonShiftMs" => {
                o.carbon_shift_ms = Some(value.as_i64().ok_or_else(|| bad("an integer (ms)"))?)
            }
            _ => return Err(bad(&format!("one of {}", SWEEPABLE_OPTIONS.join(", ")))),
        }
        match o.what_if().check().into_iter().next() {
            Some(e) => Err(Diagnostic::error(
                name,
                format!("{name} = {value}: {}", e.message),
            )),
            None => Ok(o),
        }
    }

    /// The carbon what-ifs these options ask for.
    pub fn what_if(&self) -> CarbonWhatIf {
        CarbonWhatIf {
            shift_ms: self.carbon_shift_ms,
            scale: self.carbon_scale,
            forecast_error: self.forecast_error,
        }
    }
}

/// The inputs of a run, borrowed as loaded (a re-run after a policy edit reads nothing again).
#[derive(Debug, Clone, Copy)]
pub struct Inputs<'a> {
    pub topology: &'a Topology,
    pub workload: &'a Workload,
    /// The carbon trace given for the run, if any.
    pub carbon: Option<&'a CarbonTrace>,
}

/// Whether the entry point of a run follows a topology's reference to a carbon trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CarbonReference {
    /// The CLI reads the file the topology names (and warns itself when it is missing).
    Followed,
    /// A scenario file or the page reads no paths: a reference left without a given trace is
    /// a warning that the run has no carbon figures.
    NotFollowed,
}

/// Everything one run is made of.
#[derive(Debug, Clone)]
pub struct RunRequest<'a> {
    pub inputs: Inputs<'a>,
    pub policy: &'a Policy,
    pub options: RunOptions,
    /// Record every decision about the task with this id.
    pub explain: Option<String>,
    /// What reading the inputs and the policy warned, first among the result's warnings.
    pub warnings: Vec<Diagnostic>,
    pub carbon_reference: CarbonReference,
    /// The workload's digest when known ([`sim::Options::workload_digest`]).
    pub workload_digest: Option<String>,
    /// Only the placements and task times ([`sim::Options::placements_only`]).
    pub placements_only: bool,
}

/// A finished run: its result, and the explanation asked for.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub result: SimResult,
    pub explanation: Option<TaskExplanation>,
}

impl<'a> RunRequest<'a> {
    /// A request with the default options, no explanation and no warnings of its own.
    pub fn new(inputs: Inputs<'a>, policy: &'a Policy, reference: CarbonReference) -> Self {
        RunRequest {
            inputs,
            policy,
            options: RunOptions::default(),
            explain: None,
            warnings: Vec::new(),
            carbon_reference: reference,
            workload_digest: None,
            placements_only: false,
        }
    }

    /// The topology the run uses: the loaded one, or a copy with the host counts applied.
    pub fn topology(&self) -> Result<Cow<'a, Topology>, Vec<Diagnostic>> {
        if self.options.host_counts.is_empty() {
            Ok(Cow::Borrowed(self.inputs.topology))
        } else {
            with_host_counts(self.inputs.topology, &self.options.host_counts).map(Cow::Owned)
        }
    }

    /// The carbon trace the run sees: the given one, shifted and scaled by the options'
    /// what-ifs ([`crate::whatif`]).
    pub fn carbon(&self) -> Result<Option<Cow<'a, CarbonTrace>>, Vec<Diagnostic>> {
        let what_if = self.options.what_if();
        self.inputs
            .carbon
            .map(|c| what_if.apply(c).map_err(|e| vec![e]))
            .transpose()
    }

    /// Checks the request and hands a simulation of it, ready to step, to `f`.
    pub fn with_simulation<R>(
        &self,
        f: impl FnOnce(Simulation<'_>) -> R,
    ) -> Result<R, Vec<Diagnostic>> {
        let mut options = self.options.sim_options(self.explain.clone())?;
        options.workload_digest = self.workload_digest.clone();
        options.placements_only = self.placements_only;
        let topology = self.topology()?;
        let carbon = self.carbon()?;
        let scenario = sim::Scenario {
            topology: &topology,
            workload: self.inputs.workload,
            carbon: carbon.as_deref(),
            policy: self.policy,
            seed: self.options.seed,
            quantum_ms: quantum(self.options.quantum_ms).map_err(|e| vec![e])?,
        };
        Ok(f(Simulation::new(scenario, options)))
    }

    /// Runs to the end, calling `progress` with the fraction of tasks ended after every chunk
    /// of instants. The result's warnings are the request's, then the carbon reference's, then
    /// the run's.
    pub fn run(&self, progress: &mut dyn FnMut(f64)) -> Result<RunOutcome, Vec<Diagnostic>> {
        let (mut result, explanation) = self.with_simulation(|mut run| {
            run.step_to_end(PROGRESS_CHUNK, progress);
            let explanation = run.explanation().cloned();
            (run.finish(), explanation)
        })?;
        let mut warnings = self.warnings.clone();
        warnings.extend(self.unfollowed_reference());
        let reads_forecast = self
            .policy
            .timeshift
            .as_ref()
            .is_some_and(|ts| crate::engine::timeshift::forecast_len(ts) > 0);
        warnings.extend(
            self.options
                .what_if()
                .warnings(self.inputs.carbon.is_some(), reads_forecast),
        );
        warnings.append(&mut result.warnings);
        result.warnings = warnings;
        Ok(RunOutcome {
            result,
            explanation,
        })
    }

    /// The warning for a topology's carbon reference that this entry point cannot follow
    /// when no trace was given.
    fn unfollowed_reference(&self) -> Option<Diagnostic> {
        let reference = self.inputs.topology.carbon_ref.as_ref()?;
        let unfollowed = self.carbon_reference == CarbonReference::NotFollowed;
        (unfollowed && self.inputs.carbon.is_none()).then(|| {
            Diagnostic::warning(
                "carbon",
                format!("the topology names the carbon trace `{reference}`, which a scenario cannot follow (it reads no paths): give `carbon` in the scenario; this run has no carbon figures"),
            )
        })
    }
}

/// The topology with some host groups' counts changed (`cluster/host` keys).
pub fn with_host_counts(
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
                let keys: Vec<String> = c.groups.iter().map(|g| c.group_key(g)).collect();
                keys.into_iter().zip(c.groups.iter_mut())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quantum_defaults_to_one_second_and_must_lie_in_its_range() {
        assert_eq!(quantum(None).ok(), Some(1000));
        assert_eq!(quantum(Some(MAX_QUANTUM_MS)).ok(), Some(MAX_QUANTUM_MS));
        for bad in [0, -5, MAX_QUANTUM_MS + 1] {
            let e = quantum(Some(bad)).expect_err("out of range");
            assert_eq!(e.path, "quantumMs");
            assert!(
                e.message.ends_with(&format!("found {bad}")),
                "{}",
                e.message
            );
        }
    }

    #[test]
    fn bad_options_are_each_reported() {
        let o = RunOptions {
            quantum_ms: Some(0),
            series_resolution_ms: Some(-1),
            ..RunOptions::default()
        };
        let errors = o.sim_options(None).expect_err("two bad options");
        let paths: Vec<&str> = errors.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["quantumMs", "seriesResolutionMs"]);
    }

    #[test]
    fn the_written_out_defaults_run_as_absent_ones() {
        let written = RunOptions::defaults();
        assert_eq!(written.quantum_ms, Some(1000));
        assert_eq!(written.series_resolution_ms, Some(60_000));
        let (a, b) = (
            written.sim_options(None),
            RunOptions::default().sim_options(None),
        );
        let (a, b) = (a.expect("valid"), b.expect("valid"));
        assert_eq!(
            (a.series_resolution_ms, a.max_time_ms, a.max_instants),
            (b.series_resolution_ms, b.max_time_ms, b.max_instants)
        );
        let json = serde_json::to_value(&written).expect("serializable");
        assert_eq!(
            json,
            serde_json::json!({"seed": 0, "quantumMs": 1000, "seriesResolutionMs": 60000, "hostCounts": {}})
        );
    }

    #[test]
    fn absent_options_take_the_simulators_defaults() {
        let o = RunOptions::default()
            .sim_options(Some("t".into()))
            .expect("valid");
        let d = sim::Options::default();
        assert_eq!(o.series_resolution_ms, 60_000);
        assert_eq!(
            (o.max_time_ms, o.max_instants),
            (d.max_time_ms, d.max_instants)
        );
        assert_eq!(o.explain_task.as_deref(), Some("t"));
    }
}
