//! Experiment files opened in the page (SPEC 11.1, 11.8.4): the experiment and the files it names
//! arrive together, as the user dropped or picked them; one run's inputs become handles, so the
//! page runs it as it runs any other inputs, and every policy of the file comes back for the
//! editors.

use super::handles::{Held, LoadedInput, Session};
use super::{guard, Answer, CheckReport};
use crate::diag::Diagnostic;
use crate::experiment::Files;
use crate::experiment::{self, DroppedFiles, Format, LoadError, LoadOptions};
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

/// An experiment opened with one of its runs loaded.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LoadedExperiment {
    pub name: String,
    /// `legacy` (OpenDC 2) or `sdk` (OpenDC3).
    #[cfg_attr(feature = "ts", ts(type = "\"legacy\" | \"sdk\""))]
    pub format: Format,
    /// Every run of the file, in OpenDC3's scenario order.
    pub runs: Vec<ExperimentRun>,
    /// The run whose inputs are loaded.
    pub run: u32,
    pub topology: LoadedInput,
    pub workload: LoadedInput,
    pub carbon: Option<LoadedInput>,
    /// Every policy of the file, as its reader understood it.
    pub policies: Vec<Value>,
    pub warnings: Vec<Diagnostic>,
    /// What the page should say about the file, e.g. that OpenDC3 decides it under Current.
    pub notes: Vec<String>,
}

/// One run of an experiment, as a list shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ExperimentRun {
    /// "trace on topologies[0], policy 2, run 1 (seed 43)".
    pub label: String,
    pub policy: u32,
    pub seed: u64,
    /// OpenDC3's scenario index (its `raw-output/<i>/` folder).
    pub scenario: u64,
}

/// The SDK notes the page shows beside an SDK file.
fn notes(format: Format) -> Vec<String> {
    match format {
        Format::Sdk => vec!["This is an OpenDC3 (SDK) experiment: `opendc run` decides it with OpenDC3's scheduler (the Current semantics), while the playground runs Classic unless you choose Current.".into()],
        Format::Legacy => vec![],
    }
}

impl Session {
    /// Opens the experiment at `path` among `files` (path and bytes, as the browser reports
    /// them) and loads run `run`'s topology, workload and carbon trace as handles.
    pub fn load_experiment(
        &mut self,
        files: Vec<(String, Vec<u8>)>,
        path: &str,
        run: u32,
        strict: bool,
    ) -> Answer<LoadedExperiment> {
        let total: usize = files.iter().map(|(_, b)| b.len()).sum();
        if let Err(errors) = self.limits.check_bytes(total, "the dropped files") {
            return Answer::Failure { errors };
        }
        guard(|| {
            let files = DroppedFiles::new(files);
            let options = LoadOptions { strict };
            match experiment::load_with(&files, Path::new(path), options) {
                Err(LoadError::Invalid(errors) | LoadError::Unreadable(errors)) => {
                    Answer::Failure { errors }
                }
                Ok(exp) => self.keep_experiment(exp, run),
            }
        })
    }

    fn keep_experiment(
        &mut self,
        exp: experiment::Experiment,
        run: u32,
    ) -> Answer<LoadedExperiment> {
        let Some(chosen) = exp.runs.get(run as usize) else {
            let message = format!(
                "the experiment has {} runs; there is no run {run}",
                exp.runs.len()
            );
            return Answer::Failure {
                errors: vec![Diagnostic::error("", message)],
            };
        };
        let (_, topology, carbon) = exp.topologies[chosen.topology].clone();
        let workload = exp.workloads[chosen.workload].1.clone();
        let parts = self.keep_loaded(Held::Topology(topology)).and_then(|t| {
            let w = self.keep_loaded(Held::Workload(workload))?;
            let c = carbon
                .map(|c| self.keep_loaded(Held::Carbon(c)))
                .transpose()?;
            Ok((t, w, c))
        });
        let (topology, workload, carbon) = match parts {
            Ok(p) => p,
            Err(errors) => return Answer::Failure { errors },
        };
        let runs = exp
            .runs
            .iter()
            .map(|r| ExperimentRun {
                label: format!(
                    "{} on {}, policy {}, run {} (seed {})",
                    exp.workloads[r.workload].0,
                    exp.topologies[r.topology].0,
                    r.policy + 1,
                    r.run + 1,
                    r.seed
                ),
                policy: r.policy as u32,
                seed: r.seed,
                scenario: r.scenario,
            })
            .collect();
        Answer::Success {
            value: LoadedExperiment {
                name: exp.name,
                format: exp.format,
                runs,
                run,
                topology,
                workload,
                carbon,
                policies: exp.policy_json,
                warnings: exp.warnings,
                notes: notes(exp.format),
            },
        }
    }

    fn keep_loaded(&mut self, item: Held) -> Result<LoadedInput, Vec<Diagnostic>> {
        match self.keep(item) {
            Answer::Success { value } => Ok(value),
            Answer::Failure { errors } => Err(errors),
        }
    }
}

/// `check` of an SDK experiment: its keys, values, imports and policies by SPEC 11's rules, as
/// `opendc validate` (and with `strict`, `opendc --strict validate`) would judge them; the traces
/// it names are not read. `None` for a file that is not an SDK experiment.
pub fn check_experiment(
    files: &dyn Files,
    path: &Path,
    text: &str,
    strict: bool,
) -> Option<Answer<CheckReport>> {
    let value: Value = serde_json::from_str(text).ok()?;
    let is_experiment = value.get("type").is_none()
        && ["topologies", "workloads"]
            .iter()
            .all(|k| value.get(k).is_some());
    if !is_experiment || experiment::format_of(&value) != Ok(Format::Sdk) {
        return None;
    }
    Some(guard(|| {
        let v = experiment::sdk::validate(files, path, text.to_string(), strict);
        let ok = !crate::diag::has_errors(&v.diagnostics);
        let policies: Vec<_> = v
            .policies
            .iter()
            .map(|e| e.as_ref().map(|(p, _)| p))
            .collect();
        Answer::Success {
            value: CheckReport {
                ok,
                document: "experiment",
                paths: (0..policies.len())
                    .map(|i| format!("allocationPolicies[{i}]"))
                    .collect(),
                policies: policies
                    .iter()
                    .map(|p| p.map_or(Value::Null, crate::policy::expand::to_json))
                    .collect(),
                descriptions: policies.iter().map(|p| p.map(|p| p.describe())).collect(),
                diagnostics: v.diagnostics,
            },
        }
    }))
}

/// [`check_experiment`] on a text alone, as the page's editor checks it: an `importFrom` is an
/// error there, since no other file is at hand.
pub fn check_sdk_text(text: &str) -> Option<Answer<CheckReport>> {
    let files = DroppedFiles::new([("experiment.json".to_string(), text.as_bytes().to_vec())]);
    check_experiment(&files, Path::new("experiment.json"), text, false)
}
