//! Loaded inputs kept between calls, so that a re-run after a policy edit parses nothing again:
//! each `load_*` parses once and returns a handle with a summary; [`run`] combines handles with a
//! policy; [`explain`] re-runs a finished run with one task's decisions recorded.
//!
//! A [`Session`] owns everything loaded; the wasm facade keeps one per module instance.

use super::{guard, Answer};
use crate::diag::Diagnostic;
use crate::input;
use crate::model::{CarbonTrace, Topology, Workload};
use crate::policy::{self, Policy};
use crate::sim::{self, Options, SimResult};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// One loaded input.
#[derive(Debug, Clone)]
enum Loaded {
    Topology(Topology),
    Workload(Workload),
    Carbon(CarbonTrace),
    Run(RunInputs),
}

/// What a finished run was made of, to explain it later.
#[derive(Debug, Clone)]
struct RunInputs {
    handles: Handles,
    policy: Policy,
    options: RunOptions,
}

/// Everything loaded in one session, by handle.
#[derive(Debug, Default)]
pub struct Session {
    next: u32,
    items: BTreeMap<u32, Loaded>,
}

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

/// A loaded input's handle and what it holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadedInput {
    pub handle: u32,
    pub summary: Summary,
}

/// What an input holds, for the page to show.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hosts: Option<u64>,
    /// `cluster/host` groups with their counts (topologies).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub host_groups: Vec<HostGroupSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tasks: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fragments: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub samples: Option<u64>,
    /// First and last time, absolute ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_ms: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_ms: Option<i64>,
    pub warnings: Vec<Diagnostic>,
}

/// A host group of a topology summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HostGroupSummary {
    pub key: String,
    pub count: u32,
    pub cores: u32,
    pub memory_mib: i64,
}

fn summarize(item: &Loaded) -> Summary {
    match item {
        Loaded::Topology(t) => Summary {
            kind: "topology",
            hosts: Some(t.host_count()),
            host_groups: t
                .clusters
                .iter()
                .flat_map(|c| {
                    c.groups.iter().map(move |g| HostGroupSummary {
                        key: format!("{}/{}", c.name, g.name),
                        count: g.count,
                        cores: g.cores,
                        memory_mib: g.memory_mib,
                    })
                })
                .collect(),
            warnings: t.warnings.clone(),
            ..Summary::default()
        },
        Loaded::Workload(w) => Summary {
            kind: "workload",
            tasks: Some(w.tasks.len() as u64),
            fragments: Some(w.fragment_duration_ms.len() as u64),
            from_ms: w.tasks.iter().map(|t| t.submission_ms).min(),
            to_ms: w
                .tasks
                .iter()
                .map(|t| t.submission_ms + t.duration_ms)
                .max(),
            warnings: w.warnings.clone(),
            ..Summary::default()
        },
        Loaded::Carbon(c) => Summary {
            kind: "carbon",
            samples: Some(c.len() as u64),
            from_ms: c.timestamps_ms.first().copied(),
            to_ms: c.timestamps_ms.last().copied(),
            ..Summary::default()
        },
        Loaded::Run(_) => Summary {
            kind: "run",
            ..Summary::default()
        },
    }
}

impl Session {
    /// An empty session.
    pub fn new() -> Self {
        Session::default()
    }

    fn keep(&mut self, item: Loaded) -> Answer<LoadedInput> {
        self.next += 1;
        let summary = summarize(&item);
        self.items.insert(self.next, item);
        Answer::Success {
            value: LoadedInput {
                handle: self.next,
                summary,
            },
        }
    }

    /// Forgets a handle (the page releases what it no longer shows).
    pub fn release(&mut self, handle: u32) -> Answer<bool> {
        Answer::Success {
            value: self.items.remove(&handle).is_some(),
        }
    }

    /// Parses a topology JSON once.
    pub fn load_topology(&mut self, text: &str) -> Answer<LoadedInput> {
        guard(|| match input::topology::read_topology(text) {
            Ok(t) => self.keep(Loaded::Topology(under_topology(t))),
            Err(errors) => Answer::Failure { errors },
        })
    }

    /// Parses an OpenDC parquet workload once.
    pub fn load_workload_parquet(&mut self, tasks: &[u8], fragments: &[u8]) -> Answer<LoadedInput> {
        guard(
            || match input::workload::read_parquet_workload(tasks, fragments) {
                Ok(w) => self.keep(Loaded::Workload(under_workload(w))),
                Err(errors) => Answer::Failure { errors },
            },
        )
    }

    /// Parses a JSON (`format` `json`) or CSV (`csv`) workload once.
    pub fn load_workload(&mut self, text: &str, format: &str) -> Answer<LoadedInput> {
        guard(|| {
            let read = match format {
                "json" => input::workload::read_json_workload(text),
                "csv" => input::workload::read_csv_workload(text),
                other => {
                    return failure(format!(
                        "unknown workload format `{other}`; expected json or csv"
                    ))
                }
            };
            match read {
                Ok(w) => self.keep(Loaded::Workload(under_workload(w))),
                Err(errors) => Answer::Failure { errors },
            }
        })
    }

    /// Parses a carbon trace once: `format` `parquet` (bytes), `csv` or `json` (UTF-8 text).
    pub fn load_carbon(&mut self, bytes: &[u8], format: &str) -> Answer<LoadedInput> {
        guard(|| {
            let text = || {
                std::str::from_utf8(bytes).map_err(|e| {
                    vec![Diagnostic::error(
                        "",
                        format!(
                            "the carbon trace is not UTF-8 text (invalid byte at offset {})",
                            e.valid_up_to()
                        ),
                    )]
                })
            };
            let read = match format {
                "parquet" => input::carbon::read_carbon_parquet(bytes),
                "csv" => text().and_then(input::carbon::read_carbon_csv),
                "json" => text().and_then(input::carbon::read_carbon_json),
                other => {
                    return failure(format!(
                        "unknown carbon format `{other}`; expected parquet, csv or json"
                    ))
                }
            };
            match read {
                Ok(c) => self.keep(Loaded::Carbon(c)),
                Err(errors) => Answer::Failure { errors },
            }
        })
    }

    /// Parses a scenario file once: its topology, workload and carbon become handles; the value
    /// also carries its policy (as written), seed and quantum.
    pub fn load_scenario(&mut self, text: &str) -> Answer<Value> {
        guard(|| match crate::scenario::read(text) {
            Err(errors) => Answer::Failure { errors },
            Ok(s) => {
                let policy_text = serde_json::from_str::<Value>(text)
                    .ok()
                    .and_then(|v| v.get("policy").cloned())
                    .unwrap_or(Value::Null);
                let mut handle = |item| match self.keep(item) {
                    Answer::Success { value } => serde_json::to_value(value).unwrap_or(Value::Null),
                    Answer::Failure { .. } => Value::Null,
                };
                let topology = handle(Loaded::Topology(s.topology));
                let workload = handle(Loaded::Workload(s.workload));
                let carbon = s.carbon.map_or(Value::Null, |c| handle(Loaded::Carbon(c)));
                Answer::Success {
                    value: serde_json::json!({
                        "topology": topology, "workload": workload, "carbon": carbon,
                        "policy": policy_text, "seed": s.seed, "quantumMs": s.quantum_ms,
                        "warnings": s.warnings,
                    }),
                }
            }
        })
    }

    fn get(&self, handle: u32, kind: &str) -> Result<&Loaded, Vec<Diagnostic>> {
        self.items.get(&handle).ok_or_else(|| {
            vec![Diagnostic::error(
                "",
                format!("no {kind} is loaded under handle {handle}"),
            )]
        })
    }

    fn inputs(
        &self,
        h: &Handles,
    ) -> Result<(&Topology, &Workload, Option<&CarbonTrace>), Vec<Diagnostic>> {
        let Loaded::Topology(t) = self.get(h.topology, "topology")? else {
            return Err(vec![Diagnostic::error(
                "topology",
                format!("handle {} is not a topology", h.topology),
            )]);
        };
        let Loaded::Workload(w) = self.get(h.workload, "workload")? else {
            return Err(vec![Diagnostic::error(
                "workload",
                format!("handle {} is not a workload", h.workload),
            )]);
        };
        let c = match h.carbon {
            None => None,
            Some(c) => match self.get(c, "carbon trace")? {
                Loaded::Carbon(c) => Some(c),
                _ => {
                    return Err(vec![Diagnostic::error(
                        "carbon",
                        format!("handle {c} is not a carbon trace"),
                    )])
                }
            },
        };
        Ok((t, w, c))
    }

    fn simulate(
        &self,
        h: &Handles,
        policy: &Policy,
        o: &RunOptions,
        explain: Option<String>,
    ) -> Result<(SimResult, Option<sim::TaskExplanation>), Vec<Diagnostic>> {
        let (topology, workload, carbon) = self.inputs(h)?;
        let edited;
        let topology = if o.host_counts.is_empty() {
            topology
        } else {
            edited = with_host_counts(topology, &o.host_counts)?;
            &edited
        };
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
        let options = Options {
            series_resolution_ms: o
                .series_resolution_ms
                .unwrap_or(Options::default().series_resolution_ms),
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
        let mut run = sim::Simulation::new(scenario, options);
        while !run.step(1 << 16) {}
        let explanation = run.explanation().cloned();
        let mut result = run.finish();
        // Where the scenario path puts it: after the policy's warnings, before the inputs'.
        if let (None, Some(reference)) = (carbon, &topology.carbon_ref) {
            result.warnings.insert(
                0,
                Diagnostic::warning(
                    "carbon",
                    format!("the topology names the carbon trace `{reference}`, which a scenario cannot follow (it reads no paths): give `carbon` in the scenario; this run has no carbon figures"),
                ),
            );
        }
        Ok((result, explanation))
    }

    /// Runs loaded inputs under a policy; the value is `{"run": handle, "result": ...}`, the
    /// result being what the scenario path gives for the same inputs.
    pub fn run(
        &mut self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
    ) -> Answer<Value> {
        guard(|| {
            let (policy, policy_warnings) = match policy::policy_from_text(policy_text) {
                Ok(read) => read,
                Err(errors) => {
                    return Answer::Failure {
                        errors: errors.into_iter().map(|d| d.under("policy")).collect(),
                    }
                }
            };
            match self.simulate(handles, &policy, options, None) {
                Err(errors) => Answer::Failure { errors },
                Ok((mut result, _)) => {
                    // As the scenario path does: the policy's warnings first, under `policy`.
                    let mut warnings: Vec<Diagnostic> = policy_warnings
                        .into_iter()
                        .map(|d| d.under("policy"))
                        .collect();
                    warnings.append(&mut result.warnings);
                    result.warnings = warnings;
                    self.next += 1;
                    let id = self.next;
                    self.items.insert(
                        id,
                        Loaded::Run(RunInputs {
                            handles: *handles,
                            policy,
                            options: options.clone(),
                        }),
                    );
                    Answer::Success {
                        value: serde_json::json!({"run": id, "result": result}),
                    }
                }
            }
        })
    }

    /// Every decision about one task of a finished run, computed by re-running it with that task
    /// recorded (a bulk run stores no explanation).
    pub fn explain(&self, run: u32, task_id: &str) -> Answer<sim::TaskExplanation> {
        guard(|| {
            let inputs = match self.get(run, "run") {
                Ok(Loaded::Run(r)) => r.clone(),
                Ok(_) => return failure(format!("handle {run} is not a run")),
                Err(errors) => return Answer::Failure { errors },
            };
            match self.simulate(
                &inputs.handles,
                &inputs.policy,
                &inputs.options,
                Some(task_id.to_string()),
            ) {
                Err(errors) => Answer::Failure { errors },
                Ok((_, Some(e))) => Answer::Success { value: e },
                Ok((_, None)) => failure(format!("the run has no task with id `{task_id}`")),
            }
        })
    }
}

/// A loaded topology's warnings with the paths a scenario file gives them (`topology.…`), so
/// that the handle path and the scenario path report the same.
fn under_topology(mut t: Topology) -> Topology {
    t.warnings = t
        .warnings
        .into_iter()
        .map(|d| d.under("topology"))
        .collect();
    t
}

/// A loaded workload's warnings under `workload.…`, as in a scenario file.
fn under_workload(mut w: Workload) -> Workload {
    w.warnings = w
        .warnings
        .into_iter()
        .map(|d| d.under("workload"))
        .collect();
    w
}

fn failure<T>(message: String) -> Answer<T> {
    Answer::Failure {
        errors: vec![Diagnostic::error("", message)],
    }
}

/// The topology with some host groups' counts changed (`cluster/host` keys).
fn with_host_counts(
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
    Ok(t)
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
