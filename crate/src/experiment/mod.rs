//! OpenDC experiment files, run as they are: the product of topologies x workloads x
//! allocation policies, each run `runs` times with seeds `initialSeed + i`.
//!
//! Paths (`pathToFile`) are resolved relative to the experiment file. A workload's
//! `submissionTime` moves its first submission to that time, and `deferAll` makes every task
//! deferrable with the deadline submission + 3 x duration, as OpenDC does. What OpenDC can do and
//! this project does not model (failures, checkpoints, `sampleFraction`, `scalingPolicy:
//! Perfect`) is a warning, never silence. Files are read through [`Files`], so the same code runs
//! on a disk (the CLI) and on files a browser user dropped.

use crate::diag::Diagnostic;
use crate::input;
use crate::model::{CarbonTrace, Topology, Workload};
use crate::policy::{self, Policy};
use serde_json::Value;
use std::path::{Path, PathBuf};

mod legacy;
mod memory;
pub use memory::DroppedFiles;
pub mod sdk;

/// Where an experiment's files come from.
pub trait Files {
    /// The bytes of a file.
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>>;
    /// True when `path` is a folder (an OpenDC workload folder).
    fn is_dir(&self, path: &Path) -> bool;
    /// Whether an absolute path can be read: yes on a disk; not among files a browser user
    /// dropped, where only relative paths mean something (SPEC 11.3.7, 11.8.2).
    fn reads_absolute_paths(&self) -> bool {
        true
    }
}

/// The local disk.
pub struct Disk;

impl Files for Disk {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        std::fs::read(path)
    }
    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }
}

/// Why an input could not be loaded: its content is invalid (exit 1) or it cannot be read (exit 2).
#[derive(Debug, Clone, PartialEq)]
pub enum LoadError {
    Invalid(Vec<Diagnostic>),
    Unreadable(Vec<Diagnostic>),
}

impl LoadError {
    /// The diagnostics, whichever kind.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            LoadError::Invalid(d) | LoadError::Unreadable(d) => d,
        }
    }
}

fn unreadable(path: &Path, e: std::io::Error) -> LoadError {
    LoadError::Unreadable(vec![Diagnostic::error(
        "",
        format!("cannot read the file: {e}"),
    )
    .in_file(&path.display().to_string())])
}

fn invalid_in(path: &Path, ds: Vec<Diagnostic>) -> LoadError {
    let file = path.display().to_string();
    LoadError::Invalid(ds.into_iter().map(|d| d.in_file(&file)).collect())
}

fn text(files: &dyn Files, path: &Path) -> Result<String, LoadError> {
    let bytes = files.read(path).map_err(|e| unreadable(path, e))?;
    String::from_utf8(bytes).map_err(|e| {
        LoadError::Invalid(vec![Diagnostic::error(
            "",
            format!(
                "{}: not UTF-8 text (invalid byte at offset {})",
                path.display(),
                e.utf8_error().valid_up_to()
            ),
        )])
    })
}

/// Reads a topology file.
pub fn load_topology(files: &dyn Files, path: &Path) -> Result<Topology, LoadError> {
    let text = text(files, path)?;
    input::topology::read_topology(&text).map_err(|ds| invalid_in(path, ds))
}

/// Reads a workload: an OpenDC folder (`tasks.parquet` + `fragments.parquet`), or a JSON or CSV
/// file (by extension: `.csv` is CSV, anything else JSON).
pub fn load_workload(files: &dyn Files, path: &Path) -> Result<Workload, LoadError> {
    if files.is_dir(path) {
        let tasks_path = path.join("tasks.parquet");
        let fragments_path = path.join("fragments.parquet");
        let tasks = files
            .read(&tasks_path)
            .map_err(|e| unreadable(&tasks_path, e))?;
        let fragments = files
            .read(&fragments_path)
            .map_err(|e| unreadable(&fragments_path, e))?;
        let folder = path.display().to_string();
        return input::workload::read_parquet_workload(&tasks, &fragments).map_err(|ds| {
            LoadError::Invalid(ds.into_iter().map(|d| d.in_file(&folder)).collect())
        });
    }
    let text = text(files, path)?;
    let result = if has_extension(path, "csv") {
        input::workload::read_csv_workload(&text)
    } else {
        input::workload::read_json_workload(&text)
    };
    result.map_err(|ds| invalid_in(path, ds))
}

/// Reads a carbon trace: parquet, CSV or JSON, by extension.
pub fn load_carbon(files: &dyn Files, path: &Path) -> Result<CarbonTrace, LoadError> {
    let result = if has_extension(path, "parquet") {
        let bytes = files.read(path).map_err(|e| unreadable(path, e))?;
        input::carbon::read_carbon_parquet(&bytes)
    } else {
        let text = text(files, path)?;
        if has_extension(path, "csv") {
            input::carbon::read_carbon_csv(&text)
        } else {
            input::carbon::read_carbon_json(&text)
        }
    };
    result.map_err(|ds| invalid_in(path, ds))
}

/// Reads a policy file (one policy, not an experiment).
pub fn load_policy(files: &dyn Files, path: &Path) -> Result<(Policy, Vec<Diagnostic>), LoadError> {
    let text = text(files, path)?;
    policy::policy_from_text(&text).map_err(|ds| invalid_in(path, ds))
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// The carbon trace a topology refers to, read relative to the topology file's folder
/// (SPEC 10). A reference that cannot be read is a warning and the run has no carbon.
pub fn referenced_carbon(
    files: &dyn Files,
    topology: &Topology,
    topology_path: &Path,
) -> (Option<CarbonTrace>, Vec<Diagnostic>) {
    let Some(reference) = &topology.carbon_ref else {
        return (None, vec![]);
    };
    let path = topology_path
        .parent()
        .unwrap_or(Path::new("."))
        .join(reference);
    match load_carbon(files, &path) {
        Ok(trace) => (Some(trace), vec![]),
        Err(e) => {
            let why = e
                .diagnostics()
                .first()
                .map_or(String::new(), |d| d.message.clone());
            (
                None,
                vec![Diagnostic::warning(
                    "powerSource",
                    format!("the topology's carbon trace `{reference}` could not be used ({why}): the run has no carbon figures"),
                )],
            )
        }
    }
}

/// One run of an experiment: which inputs, which seed.
#[derive(Debug, Clone)]
pub struct Run {
    pub topology: usize,
    pub workload: usize,
    pub policy: usize,
    pub run: u32,
    pub seed: u64,
    /// OpenDC3's scenario index: its results are in `<out>/<name>/raw-output/<scenario>/`
    /// (SPEC 11.4.1). For a legacy file, the index in the same order.
    pub scenario: u64,
}

/// An experiment, loaded: its inputs (each read once) and the runs to make of them.
#[derive(Debug, Clone)]
pub struct Experiment {
    pub name: String,
    /// Topology labels (the path as written), the topology and its carbon trace.
    pub topologies: Vec<(String, Topology, Option<CarbonTrace>)>,
    pub workloads: Vec<(String, Workload)>,
    pub policies: Vec<Policy>,
    /// Each policy's JSON as the reader understood it (SDK: the keys OpenDC3 ignores dropped),
    /// for an editor to show.
    pub policy_json: Vec<Value>,
    pub runs: Vec<Run>,
    pub warnings: Vec<Diagnostic>,
    /// The format it was read as.
    pub format: Format,
}

/// Which reader an experiment file gets (SPEC 11.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Format {
    /// An OpenDC 2 experiment (`pathToFile`), read as SPEC 1 and 10 say.
    Legacy,
    /// An OpenDC3 (SDK) experiment, read as SPEC 11 says.
    Sdk,
}

/// How to read an experiment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// `--strict`: a key OpenDC3 does not know is an error in an SDK file, as `opendc --strict`
    /// refuses it (SPEC 11.14.3). Legacy files are strict already.
    pub strict: bool,
}

/// Loads an experiment file and everything it names, with the default options.
pub fn load(files: &dyn Files, path: &Path) -> Result<Experiment, LoadError> {
    load_with(files, path, LoadOptions::default())
}

/// Loads an experiment file and everything it names: an SDK file with the SDK reader, a legacy
/// file with the legacy one (SPEC 11.1).
pub fn load_with(
    files: &dyn Files,
    path: &Path,
    options: LoadOptions,
) -> Result<Experiment, LoadError> {
    let text = text(files, path)?;
    let value =
        input::json_text::parse(&text, "the experiment").map_err(|d| invalid_in(path, vec![d]))?;
    match format_of(&value) {
        Ok(Format::Sdk) => sdk::load(files, path, text, options.strict),
        Ok(Format::Legacy) => legacy::load(files, path, &text, &value),
        Err(message) => Err(invalid_in(path, vec![Diagnostic::error("", message)])),
    }
}

/// The format of an experiment by its markers (SPEC 11.1); mixed markers are an error, since
/// OpenDC3 reads neither kind as a whole.
pub fn format_of(value: &Value) -> Result<Format, String> {
    let items = |key: &str| {
        value
            .get(key)
            .and_then(Value::as_array)
            .map_or(&[][..], |v| v.as_slice())
    };
    let kind = |v: &Value| v.get("type").and_then(Value::as_str).map(str::to_string);
    let sdk_marker = value.get("importFrom").is_some()
        || items("topologies")
            .iter()
            .any(|t| t.get("clusters").is_some() || t.get("importFrom").is_some())
        || items("workloads")
            .iter()
            .any(|w| matches!(kind(w).as_deref(), Some("trace" | "inline")));
    let legacy_marker = items("topologies")
        .iter()
        .any(|t| t.get("pathToFile").is_some())
        || items("workloads").iter().any(|w| {
            w.get("pathToFile").is_some() || kind(w).as_deref() == Some("ComputeWorkload")
        });
    match (sdk_marker, legacy_marker) {
        (true, true) => Err("the experiment mixes the SDK format (inline `clusters`, `importFrom`, `trace` or `inline` workloads) with the legacy format (`pathToFile`, `ComputeWorkload`): OpenDC3 reads neither kind as a whole; write every topology and workload in one format".into()),
        (true, false) => Ok(Format::Sdk),
        (false, true) => Ok(Format::Legacy),
        (false, false) => Ok(if items("allocationPolicies").iter().any(sdk_spelt_policy) {
            Format::Sdk
        } else {
            Format::Legacy
        }),
    }
}

/// A policy spelt the SDK way: `prefabName`, or a lower-camel filter or weigher `type`.
fn sdk_spelt_policy(p: &Value) -> bool {
    let lower_camel = |list: &str| {
        p.get(list).and_then(Value::as_array).is_some_and(|items| {
            items.iter().any(|f| {
                f.get("type")
                    .and_then(Value::as_str)
                    .and_then(|t| t.chars().next())
                    .is_some_and(|c| c.is_ascii_lowercase())
            })
        })
    };
    p.get("prefabName").is_some() || lower_camel("filters") || lower_camel("weighers")
}

/// Moves every time of the workload so that its first submission is at `start_epoch_ms`.
pub fn shift_to(w: &mut Workload, start_epoch_ms: i64) {
    let Some(first) = w.tasks.iter().map(|t| t.submission_ms).min() else {
        return;
    };
    let delta = start_epoch_ms - first;
    for t in &mut w.tasks {
        t.submission_ms += delta;
        if let Some(d) = &mut t.deadline_ms {
            *d += delta;
        }
    }
}

/// OpenDC's `deferAll`: every task deferrable, deadline = submission + 3 x duration.
pub fn defer_all(w: &mut Workload) {
    for t in &mut w.tasks {
        t.deferrable = true;
        t.deadline_ms = Some(t.submission_ms + 3 * t.duration_ms);
    }
}

/// Where a path given on the command line or in an experiment points: kept as written.
pub fn label(path: &Path) -> String {
    PathBuf::from(path).display().to_string()
}
