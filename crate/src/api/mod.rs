//! The JSON contract shared by the CLI and the wasm facade: one function per operation, text in,
//! a tagged answer out (the shape of cedar-policy's ffi).
//!
//! Every operation has a typed function returning [`Answer`] and a `*_json_str` twin returning
//! its serde_json text. An answer is `{"type": "success", "value": ...}` or
//! `{"type": "failure", "errors": [diagnostics]}`; `failure` means the operation could not be
//! carried out (a policy with errors is still a successful `check` whose value says `ok: false`).
//! A panic inside an operation becomes a `failure` carrying its message, never an unwind across
//! the boundary.

use crate::case;
use crate::diag::Diagnostic;
use crate::policy::{self, expand, prefab, schema, DocumentKind};
use serde::Serialize;
use serde_json::{json, Value};

/// The answer of every operation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Answer<T> {
    Success { value: T },
    Failure { errors: Vec<Diagnostic> },
}

impl<T> From<Result<T, Vec<Diagnostic>>> for Answer<T> {
    /// Success with the value, or failure with the errors.
    fn from(result: Result<T, Vec<Diagnostic>>) -> Self {
        match result {
            Ok(value) => Answer::Success { value },
            Err(errors) => Answer::Failure { errors },
        }
    }
}

impl<T: Serialize> Answer<T> {
    /// The answer as serde_json text.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(
                r#"{{"type":"failure","errors":[{{"severity":"error","message":"could not write the answer: {e}","path":"","line":null,"column":null}}]}}"#
            )
        })
    }
}

/// Runs `f`, turning a panic into a `failure` with the panic's message.
pub fn guard<T>(f: impl FnOnce() -> Answer<T>) -> Answer<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(answer) => answer,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Answer::Failure {
                errors: vec![Diagnostic::error(
                    "",
                    format!("internal error (a bug, please report it): {message}"),
                )],
            }
        }
    }
}

/// The value of a `check`: whether the document is valid, every diagnostic, and each policy in
/// its explicit form (`null` for an entry with errors).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CheckReport {
    pub ok: bool,
    pub diagnostics: Vec<Diagnostic>,
    pub policies: Vec<Value>,
    /// `policy` or `experiment`.
    pub document: &'static str,
    /// Where each policy sits in the document (`allocationPolicies[1]`, or `""`).
    pub paths: Vec<String>,
    /// A one-line description of each policy (`null` for an entry with errors).
    pub descriptions: Vec<Option<String>>,
}

/// Validates a policy or an OpenDC experiment file. An OpenDC3 (SDK) experiment is checked by
/// SPEC 11's rules, on its own text (an `importFrom` needs the files: see
/// [`experiments::check_experiment`]).
pub fn check(text: &str) -> Answer<CheckReport> {
    if let Some(report) = experiments::check_sdk_text(text) {
        return report;
    }
    guard(|| {
        let checked = policy::check_text(text);
        Answer::Success {
            value: CheckReport {
                ok: checked.ok(),
                document: match checked.kind {
                    DocumentKind::Policy => "policy",
                    DocumentKind::Experiment => "experiment",
                },
                paths: checked.entries.iter().map(|e| e.path.clone()).collect(),
                policies: checked
                    .entries
                    .iter()
                    .map(|e| e.policy.as_ref().map_or(Value::Null, expand::to_json))
                    .collect(),
                descriptions: checked
                    .entries
                    .iter()
                    .map(|e| e.policy.as_ref().map(|p| p.describe()))
                    .collect(),
                diagnostics: checked.diagnostics,
            },
        }
    })
}

/// The explicit form of a policy (an array of them for an experiment file); `failure` when the
/// document has errors.
pub fn expand(text: &str) -> Answer<Value> {
    guard(|| {
        let checked = policy::check_text(text);
        match checked.policies() {
            None => Answer::Failure {
                errors: checked.diagnostics,
            },
            Some(policies) => {
                let mut values: Vec<Value> = policies.iter().map(expand::to_json).collect();
                Answer::Success {
                    value: match checked.kind {
                        DocumentKind::Policy => values.pop().unwrap_or(Value::Null),
                        DocumentKind::Experiment => Value::Array(values),
                    },
                }
            }
        }
    })
}

/// The settings of a policy that a sweep can vary: `[{"pointer", "value"}]`, JSON Pointers into
/// its explicit form with their current values ([`crate::sweep::settings`]).
pub fn sweep_settings(text: &str) -> Answer<Vec<SweepSetting>> {
    guard(|| match policy::policy_from_text(text) {
        Err(errors) => Answer::Failure { errors },
        Ok((p, _)) => {
            let explicit = expand::to_json(&p);
            let mut value: Vec<SweepSetting> = crate::sweep::settings(&explicit)
                .into_iter()
                .map(|(pointer, value)| SweepSetting {
                    label: crate::sweep::setting_label(&explicit, &pointer),
                    pointer,
                    value,
                })
                .collect();
            // A policy that reads a carbon forecast can also be swept over its error (a run
            // option, beyond OpenDC: crate::whatif).
            let forecast = p
                .timeshift
                .as_ref()
                .map_or(0, crate::engine::timeshift::forecast_len);
            if forecast > 0 {
                value.push(SweepSetting {
                    pointer: "forecastError".into(),
                    label: "carbon forecast error (what-if, beyond OpenDC)".into(),
                    value: json!(0.0),
                });
            }
            Answer::Success { value }
        }
    })
}

/// A setting a sweep can vary: a JSON Pointer into the policy's explicit form, and its value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SweepSetting {
    pub pointer: String,
    /// How the setting reads (`Ram filter: allocation ratio`).
    pub label: String,
    pub value: Value,
}

/// A prefab as the page lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PrefabInfo {
    pub name: &'static str,
    /// What it does, in a line.
    pub doc: &'static str,
    /// Its explicit policy, every default written out.
    pub expansion: Value,
}

/// One decision case's outcome, or those of an array of cases.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum Decided {
    One(case::CaseOutcome),
    Many(Vec<case::CaseOutcome>),
}

/// A sweep report (the value of a sweep, as JSON text) as CSV: one row per run
/// ([`crate::output::csv::sweep`]).
pub fn sweep_csv(report_json: &str) -> Answer<String> {
    guard(
        || match serde_json::from_str::<crate::sweep::SweepReport>(report_json) {
            Ok(report) => Answer::Success {
                value: crate::output::csv::sweep(&report),
            },
            Err(e) => failure(format!("not a sweep report: {e}")),
        },
    )
}

/// Every prefab: its name, what it does, and its explicit form.
pub fn prefabs() -> Answer<Vec<PrefabInfo>> {
    guard(|| Answer::Success {
        value: prefab::PREFABS
            .iter()
            .map(|p| PrefabInfo {
                name: p.name,
                doc: p.doc,
                expansion: expand::to_json(&prefab::expand(p)),
            })
            .collect(),
    })
}

/// The policy a new playground starts with: the `Mem` prefab, OpenDC's default.
pub fn default_policy() -> Answer<Value> {
    guard(|| Answer::Success {
        value: json!({"type": "prefab", "policyName": "Mem"}),
    })
}

/// The JSON Schema of the policy language.
pub fn policy_schema() -> Answer<Value> {
    guard(|| Answer::Success {
        value: schema::policy_schema(),
    })
}

/// Runs a decision case, or an array of them (`shared/conformance/README.md`). The value is
/// `{"steps": [...], ...}` for one case, an array of those for an array.
pub fn decide(text: &str) -> Answer<Decided> {
    decide_with(text, &case::CaseOptions::default())
}

/// [`decide`] with options: the CLI's `--semantics` overriding every case's, and the other
/// semantics' choice for Classic cases.
pub fn decide_with(text: &str, options: &case::CaseOptions) -> Answer<Decided> {
    guard(|| match case::run_document(text, options) {
        Err(errors) => Answer::Failure { errors },
        Ok((mut outcomes, single)) => Answer::Success {
            value: match (single, outcomes.pop()) {
                (true, Some(one)) if outcomes.is_empty() => Decided::One(one),
                (_, last) => Decided::Many(outcomes.into_iter().chain(last).collect()),
            },
        },
    })
}

/// Runs a scenario file (see [`crate::scenario`]) with the default options; the value is the
/// result, the same bytes as `policy-playground simulate --scenario FILE --json`.
pub fn simulate(scenario_text: &str) -> Answer<crate::sim::SimResult> {
    guard(|| match crate::scenario::read(scenario_text) {
        Err(errors) => Answer::Failure { errors },
        Ok(s) => run_scenario(&s),
    })
}

/// [`simulate`], refusing a scenario past `limits` before running it (the browser's).
pub fn simulate_within(
    scenario_text: &str,
    limits: &handles::Limits,
) -> Answer<crate::sim::SimResult> {
    if let Err(errors) = limits.check_bytes(scenario_text.len(), "the scenario") {
        return Answer::Failure { errors };
    }
    guard(|| match crate::scenario::read(scenario_text) {
        Err(errors) => Answer::Failure { errors },
        Ok(s) => match limits.check_scenario(&s) {
            Err(errors) => Answer::Failure { errors },
            Ok(()) => run_scenario(&s),
        },
    })
}

/// Runs what a scenario file asks for.
fn run_scenario(s: &crate::scenario::ScenarioFile) -> Answer<crate::sim::SimResult> {
    match s.request().run(&mut |_| {}) {
        Ok(outcome) => Answer::Success {
            value: outcome.result,
        },
        Err(errors) => Answer::Failure { errors },
    }
}

/// [`simulate_within`] as JSON text.
pub fn simulate_within_json_str(scenario_text: &str, limits: &handles::Limits) -> String {
    simulate_within(scenario_text, limits).to_json_string()
}

/// The options a run takes when none are given, every default written out (`seed`,
/// `quantumMs`, `seriesResolutionMs`, `hostCounts`): the page starts from these.
pub fn default_options() -> Answer<crate::request::RunOptions> {
    Answer::Success {
        value: crate::request::RunOptions::defaults(),
    }
}

/// The metrics catalog (key, label, unit, raw unit, scale, decimals, better direction, part,
/// chartable, help): every view and table of metrics reads it.
pub fn metrics() -> Answer<&'static [crate::sim::metric_catalog::MetricInfo]> {
    Answer::Success {
        value: crate::sim::metric_catalog::METRICS,
    }
}

/// [`default_options`] as JSON text.
pub fn default_options_json_str() -> String {
    default_options().to_json_string()
}

/// [`metrics`] as JSON text.
pub fn metrics_json_str() -> String {
    metrics().to_json_string()
}

/// [`simulate`] as JSON text.
pub fn simulate_json_str(scenario_text: &str) -> String {
    simulate(scenario_text).to_json_string()
}

/// [`check`] as JSON text.
pub fn check_json_str(text: &str) -> String {
    check(text).to_json_string()
}

/// [`expand`](fn@expand) as JSON text.
pub fn expand_json_str(text: &str) -> String {
    expand(text).to_json_string()
}

/// [`prefabs`] as JSON text.
pub fn prefabs_json_str() -> String {
    prefabs().to_json_string()
}

/// [`default_policy`] as JSON text.
pub fn default_policy_json_str() -> String {
    default_policy().to_json_string()
}

/// [`policy_schema`] as JSON text.
pub fn policy_schema_json_str() -> String {
    policy_schema().to_json_string()
}

/// [`sweep_csv`] as JSON text.
pub fn sweep_csv_json_str(report_json: &str) -> String {
    sweep_csv(report_json).to_json_string()
}

/// [`sweep_settings`] as JSON text.
pub fn sweep_settings_json_str(text: &str) -> String {
    sweep_settings(text).to_json_string()
}

/// [`decide`] as JSON text.
pub fn decide_json_str(text: &str) -> String {
    decide(text).to_json_string()
}

/// A `failure` with one error that names no field.
pub(crate) fn failure<T>(message: String) -> Answer<T> {
    Answer::Failure {
        errors: vec![Diagnostic::error("", message)],
    }
}

pub mod binary;
pub mod compare;
pub mod differences;
pub mod experiments;
pub mod export;
pub mod export_sdk;
pub mod handles;
pub mod lessons;
pub mod limits;
pub mod opendc_notes;
pub mod overview;
pub mod placements;
pub mod portfolio;
pub mod replay;
pub mod runs;
pub mod sweeps;
pub mod workloads;
