//! Loaded inputs kept between calls, so that a re-run after a policy edit parses nothing again:
//! each `load_*` parses once (within the session's [`Limits`]) and returns a handle with a
//! summary. Runs over handles are in [`super::runs`], exports in [`super::export`].
//!
//! A [`Session`] owns everything loaded; the wasm facade keeps one per module instance.

pub use super::limits::Limits;
pub use super::runs::{parse_request, Handles, RunOptions};
use super::{failure, guard, Answer};
use crate::diag::Diagnostic;
use crate::input;
use crate::model::{CarbonTrace, Topology, Workload};
use crate::policy::Policy;
use serde::Serialize;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// One input held by a session: loaded, or a finished run kept to be asked about.
#[derive(Debug, Clone)]
pub(super) enum Held {
    Topology(Topology),
    Workload(Workload),
    Carbon(CarbonTrace),
    Run(Box<RunInputs>),
}

/// What a finished run was made of, to explain it later.
#[derive(Debug, Clone)]
pub(super) struct RunInputs {
    pub handles: Handles,
    pub policy: Policy,
    pub options: RunOptions,
    /// The run's metrics and time 0 (epoch ms), for comparisons without running it again.
    pub metrics: crate::sim::result::Metrics,
    pub start_epoch_ms: i64,
}

/// Everything loaded in one session, by handle.
#[derive(Debug, Default)]
pub struct Session {
    next: u32,
    pub(super) items: BTreeMap<u32, Held>,
    pub(super) limits: Limits,
    /// The provenance digest of each loaded workload a run has used, by handle: computed at its
    /// first run (a loaded workload never changes), not at every run.
    workload_digests: RefCell<BTreeMap<u32, String>>,
}

/// A scenario file loaded as handles, with what else it holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LoadedScenario {
    pub topology: LoadedInput,
    pub workload: LoadedInput,
    pub carbon: Option<LoadedInput>,
    /// The policy as the file writes it.
    pub policy: Value,
    pub seed: u64,
    pub quantum_ms: i64,
    /// The file's `semantics`; absent when classic.
    #[serde(default, skip_serializing_if = "crate::engine::Semantics::is_classic")]
    pub semantics: crate::engine::Semantics,
    /// The file's carbon what-ifs (beyond OpenDC), each absent when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub carbon_shift_ms: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub carbon_scale: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub forecast_error: Option<f64>,
    pub warnings: Vec<Diagnostic>,
}

/// A loaded input's handle and what it holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LoadedInput {
    pub handle: u32,
    pub summary: Summary,
}

/// What an input holds, for the page to show.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub hosts: Option<u64>,
    /// `cluster/host` groups with their counts (topologies).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional, as = "Option<Vec<HostGroupSummary>>"))]
    pub host_groups: Vec<HostGroupSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub tasks: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub fragments: Option<u64>,
    /// Tasks time-shifting can defer: deferrable, with a deadline (workloads).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub deferrable_tasks: Option<u64>,
    /// Tasks marked deferrable without a deadline, which are never deferred (workloads).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub deferrable_without_deadline: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub samples: Option<u64>,
    /// First and last time, absolute ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub from_ms: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub to_ms: Option<i64>,
    pub warnings: Vec<Diagnostic>,
}

/// A host group of a topology summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct HostGroupSummary {
    pub key: String,
    pub count: u32,
    pub cores: u32,
    pub memory_mib: i64,
}

fn summarize(item: &Held) -> Summary {
    match item {
        Held::Topology(t) => Summary {
            kind: "topology",
            hosts: Some(t.host_count()),
            host_groups: t
                .clusters
                .iter()
                .flat_map(|c| {
                    c.groups.iter().map(move |g| HostGroupSummary {
                        key: c.group_key(g),
                        count: g.count,
                        cores: g.cores,
                        memory_mib: g.memory_mib,
                    })
                })
                .collect(),
            warnings: t.warnings.clone(),
            ..Summary::default()
        },
        Held::Workload(w) => Summary {
            kind: "workload",
            tasks: Some(w.tasks.len() as u64),
            fragments: Some(w.fragments.len()),
            deferrable_tasks: Some(w.tasks.iter().filter(|t| t.can_be_deferred()).count() as u64),
            deferrable_without_deadline: Some(
                w.tasks
                    .iter()
                    .filter(|t| t.deferrable_without_deadline())
                    .count() as u64,
            ),
            from_ms: w.tasks.iter().map(|t| t.submission_ms).min(),
            to_ms: w
                .tasks
                .iter()
                .map(|t| t.submission_ms + t.duration_ms)
                .max(),
            warnings: w.warnings.clone(),
            ..Summary::default()
        },
        Held::Carbon(c) => Summary {
            kind: "carbon",
            samples: Some(c.len() as u64),
            from_ms: c.timestamps_ms.first().copied(),
            to_ms: c.timestamps_ms.last().copied(),
            ..Summary::default()
        },
        Held::Run(_) => Summary {
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

    /// An empty session whose loaders refuse inputs past `limits` (the browser's, in wasm).
    pub fn with_limits(limits: Limits) -> Self {
        Session {
            limits,
            ..Session::default()
        }
    }

    /// The limits the loaders check.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Keeps a finished run's inputs under a new handle.
    pub(super) fn keep_run(&mut self, run: RunInputs) -> u32 {
        self.next += 1;
        self.items.insert(self.next, Held::Run(Box::new(run)));
        self.next
    }

    pub(super) fn keep(&mut self, item: Held) -> Answer<LoadedInput> {
        if let Err(errors) = self.limits.check_loaded(&item) {
            return Answer::Failure { errors };
        }
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
        self.workload_digests.borrow_mut().remove(&handle);
        Answer::Success {
            value: self.items.remove(&handle).is_some(),
        }
    }

    /// Parses a topology JSON once.
    pub fn load_topology(&mut self, text: &str) -> Answer<LoadedInput> {
        if let Err(errors) = self.limits.check_bytes(text.len(), "the topology") {
            return Answer::Failure { errors };
        }
        guard(|| match input::topology::read_topology(text) {
            Ok(t) => self.keep(Held::Topology(under_topology(t))),
            Err(errors) => Answer::Failure { errors },
        })
    }

    /// Parses an OpenDC parquet workload once.
    pub fn load_workload_parquet(&mut self, tasks: &[u8], fragments: &[u8]) -> Answer<LoadedInput> {
        if let Err(errors) = self.limits.check_parquet_workload(tasks, fragments) {
            return Answer::Failure { errors };
        }
        guard(
            || match input::workload::read_parquet_workload(tasks, fragments) {
                Ok(w) => self.keep(Held::Workload(under_workload(w))),
                Err(errors) => Answer::Failure { errors },
            },
        )
    }

    /// Parses a JSON (`format` `json`) or CSV (`csv`) workload once.
    pub fn load_workload(&mut self, text: &str, format: &str) -> Answer<LoadedInput> {
        if let Err(errors) = self.limits.check_bytes(text.len(), "the workload") {
            return Answer::Failure { errors };
        }
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
                Ok(w) => self.keep(Held::Workload(under_workload(w))),
                Err(errors) => Answer::Failure { errors },
            }
        })
    }

    /// Parses a carbon trace once: `format` `parquet` (bytes), `csv` or `json` (UTF-8 text).
    pub fn load_carbon(&mut self, bytes: &[u8], format: &str) -> Answer<LoadedInput> {
        if let Err(errors) = self.limits.check_bytes(bytes.len(), "the carbon trace") {
            return Answer::Failure { errors };
        }
        guard(|| {
            let text = || utf8_text(bytes, "the carbon trace");
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
                Ok(c) => self.keep(Held::Carbon(c)),
                Err(errors) => Answer::Failure { errors },
            }
        })
    }

    /// Parses a scenario file once: its topology, workload and carbon become handles; the value
    /// also carries its policy (as written), seed and quantum.
    pub fn load_scenario(&mut self, text: &str) -> Answer<LoadedScenario> {
        if let Err(errors) = self.limits.check_bytes(text.len(), "the scenario") {
            return Answer::Failure { errors };
        }
        guard(|| match crate::scenario::read(text) {
            Err(errors) => Answer::Failure { errors },
            Ok(s) => {
                let topology = Held::Topology(s.topology);
                let workload = Held::Workload(s.workload);
                let carbon = s.carbon.map(Held::Carbon);
                for item in [Some(&topology), Some(&workload), carbon.as_ref()]
                    .into_iter()
                    .flatten()
                {
                    if let Err(errors) = self.limits.check_loaded(item) {
                        return Answer::Failure { errors };
                    }
                }
                let policy_text = serde_json::from_str::<Value>(text)
                    .ok()
                    .and_then(|v| v.get("policy").cloned())
                    .unwrap_or(Value::Null);
                let mut kept = |item| match self.keep(item) {
                    Answer::Success { value } => Ok(value),
                    Answer::Failure { errors } => Err(errors),
                };
                let parts = kept(topology).and_then(|t| {
                    let w = kept(workload)?;
                    let c = carbon.map(&mut kept).transpose()?;
                    Ok((t, w, c))
                });
                match parts {
                    Err(errors) => Answer::Failure { errors },
                    Ok((topology, workload, carbon)) => Answer::Success {
                        value: LoadedScenario {
                            topology,
                            workload,
                            carbon,
                            policy: policy_text,
                            seed: s.seed,
                            quantum_ms: s.quantum_ms,
                            semantics: s.semantics,
                            carbon_shift_ms: s.what_if.shift_ms,
                            carbon_scale: s.what_if.scale,
                            forecast_error: s.what_if.forecast_error,
                            warnings: s.warnings,
                        },
                    },
                }
            }
        })
    }

    /// The provenance digest of the workload loaded under `handle` ([`crate::sim::digest`]),
    /// `w` being that workload.
    pub(super) fn workload_digest(&self, handle: u32, w: &Workload) -> String {
        let mut digests = self.workload_digests.borrow_mut();
        let digest = digests
            .entry(handle)
            .or_insert_with(|| crate::sim::digest::workload(w));
        digest.clone()
    }

    pub(super) fn get(&self, handle: u32, kind: &str) -> Result<&Held, Vec<Diagnostic>> {
        self.items.get(&handle).ok_or_else(|| {
            vec![Diagnostic::error(
                "",
                format!("no {kind} is loaded under handle {handle}"),
            )]
        })
    }

    pub(super) fn inputs(
        &self,
        h: &Handles,
    ) -> Result<(&Topology, &Workload, Option<&CarbonTrace>), Vec<Diagnostic>> {
        let Held::Topology(t) = self.get(h.topology, "topology")? else {
            return Err(vec![Diagnostic::error(
                "topology",
                format!("handle {} is not a topology", h.topology),
            )]);
        };
        let Held::Workload(w) = self.get(h.workload, "workload")? else {
            return Err(vec![Diagnostic::error(
                "workload",
                format!("handle {} is not a workload", h.workload),
            )]);
        };
        let c = match h.carbon {
            None => None,
            Some(c) => match self.get(c, "carbon trace")? {
                Held::Carbon(c) => Some(c),
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

/// `bytes` as UTF-8 text, or one error naming `what` and the offset of the first invalid byte:
/// a file in another encoding is refused, as the CLI refuses it, rather than decoded with
/// replacement characters.
pub fn utf8_text<'a>(bytes: &'a [u8], what: &str) -> Result<&'a str, Vec<Diagnostic>> {
    std::str::from_utf8(bytes).map_err(|e| {
        vec![Diagnostic::error(
            "",
            format!(
                "{what} is not UTF-8 text (invalid byte at offset {})",
                e.valid_up_to()
            ),
        )]
    })
}
