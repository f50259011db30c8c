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

/// Where an experiment's files come from.
pub trait Files {
    /// The bytes of a file.
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>>;
    /// True when `path` is a folder (an OpenDC workload folder).
    fn is_dir(&self, path: &Path) -> bool;
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
}

/// An experiment, loaded: its inputs (each read once) and the runs to make of them.
#[derive(Debug, Clone)]
pub struct Experiment {
    pub name: String,
    /// Topology labels (the path as written), the topology and its carbon trace.
    pub topologies: Vec<(String, Topology, Option<CarbonTrace>)>,
    pub workloads: Vec<(String, Workload)>,
    pub policies: Vec<Policy>,
    pub runs: Vec<Run>,
    pub warnings: Vec<Diagnostic>,
}

/// Loads an experiment file and everything it names.
pub fn load(files: &dyn Files, path: &Path) -> Result<Experiment, LoadError> {
    let text = text(files, path)?;
    let value =
        input::json_text::parse(&text, "the experiment").map_err(|d| invalid_in(path, vec![d]))?;
    let checked = policy::check_text(&text);
    if !checked.ok() {
        return Err(invalid_in(path, checked.diagnostics));
    }
    let file = path.display().to_string();
    let mut warnings: Vec<Diagnostic> = checked
        .diagnostics
        .iter()
        .cloned()
        .map(|d| d.in_file(&file))
        .collect();
    let policies = checked.policies().unwrap_or_default();
    let base = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let warn = |warnings: &mut Vec<Diagnostic>, at: &str, message: String| {
        warnings.push(Diagnostic::warning(at, message).in_file(&file));
    };

    for (key, what) in [
        (
            "failureModels",
            "host failures are not modelled: the runs have no failures",
        ),
        (
            "checkpointModels",
            "checkpoints are not modelled: the runs have none",
        ),
        ("maxNumFailures", "host failures are not modelled"),
    ] {
        if let Some(v) = value.get(key) {
            let present = match v {
                Value::Array(items) => items
                    .iter()
                    .any(|i| !i.is_null() && i.get("type").and_then(Value::as_str) != Some("no")),
                Value::Null => false,
                _ => true,
            };
            if present {
                warn(&mut warnings, key, format!("`{key}`: {what}"));
            }
        }
    }

    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut unreadable_seen = false;
    let mut topologies = Vec::new();
    for (i, entry) in list(&value, "topologies").iter().enumerate() {
        let at = format!("topologies[{i}]");
        match entry.get("pathToFile").and_then(Value::as_str) {
            Some(p) => {
                let topology_path = base.join(p);
                match load_topology(files, &topology_path) {
                    Ok(t) => {
                        let (carbon, mut w) = referenced_carbon(files, &t, &topology_path);
                        warnings.extend(
                            w.drain(..)
                                .map(|d| d.in_file(&topology_path.display().to_string())),
                        );
                        topologies.push((p.to_string(), t, carbon));
                    }
                    Err(e) => {
                        unreadable_seen |= matches!(e, LoadError::Unreadable(_));
                        errors.extend(e.diagnostics().iter().cloned().map(|d| Diagnostic {
                            message: format!("{at}: {}", d.message),
                            ..d
                        }));
                    }
                }
            }
            None if entry.get("clusters").is_some() => {
                match input::topology::topology_from_value(entry) {
                    Ok(t) => {
                        if t.carbon_ref.is_some() {
                            warn(&mut warnings, &at, "an inline topology's carbon reference cannot be followed: the run has no carbon figures".into());
                        }
                        topologies.push((format!("{at} (inline)"), t, None));
                    }
                    Err(ds) => errors.extend(ds.into_iter().map(|d| d.under(&at).in_file(&file))),
                }
            }
            None => errors.push(
                Diagnostic::error(&at, "a topology needs `pathToFile` (or inline `clusters`)")
                    .in_file(&file),
            ),
        }
    }
    let mut workloads = Vec::new();
    for (i, entry) in list(&value, "workloads").iter().enumerate() {
        let at = format!("workloads[{i}]");
        let Some(p) = entry.get("pathToFile").and_then(Value::as_str) else {
            let kind = entry.get("type").and_then(Value::as_str).unwrap_or("?");
            errors.push(
                Diagnostic::error(&at, format!("the workload (type `{kind}`) has no `pathToFile`: named and inline SDK workloads cannot be resolved here"))
                    .in_file(&file),
            );
            continue;
        };
        if let Some(f) = entry
            .get("sampleFraction")
            .and_then(Value::as_f64)
            .filter(|f| *f < 1.0)
        {
            warn(
                &mut warnings,
                &format!("{at}.sampleFraction"),
                format!("`sampleFraction` {f} is not applied: every task runs"),
            );
        }
        if let Some(s) = entry
            .get("scalingPolicy")
            .and_then(Value::as_str)
            .filter(|s| *s != "NoDelay")
        {
            warn(
                &mut warnings,
                &format!("{at}.scalingPolicy"),
                format!("`scalingPolicy: {s}` is not modelled: tasks run as NoDelay"),
            );
        }
        match load_workload(files, &base.join(p)) {
            Ok(mut w) => {
                if let Some(v) = entry.get("submissionTime") {
                    match v.as_str().map(input::time::parse_iso8601_ms) {
                        Some(Ok(t)) => shift_to(&mut w, t),
                        _ => errors.push(
                            Diagnostic::error(
                                format!("{at}.submissionTime"),
                                format!("`submissionTime` must be an ISO-8601 time, found {v}"),
                            )
                            .in_file(&file),
                        ),
                    }
                }
                if entry.get("deferAll").and_then(Value::as_bool) == Some(true) {
                    defer_all(&mut w);
                }
                workloads.push((p.to_string(), w));
            }
            Err(e) => {
                unreadable_seen |= matches!(e, LoadError::Unreadable(_));
                errors.extend(e.diagnostics().iter().cloned().map(|d| Diagnostic {
                    message: format!("{at}: {}", d.message),
                    ..d
                }));
            }
        }
    }
    if list(&value, "topologies").is_empty() {
        errors.push(
            Diagnostic::error("topologies", "the experiment names no topology").in_file(&file),
        );
    }
    if list(&value, "workloads").is_empty() {
        errors.push(
            Diagnostic::error("workloads", "the experiment names no workload").in_file(&file),
        );
    }
    if !errors.is_empty() {
        errors.extend(warnings);
        return Err(if unreadable_seen {
            LoadError::Unreadable(errors)
        } else {
            LoadError::Invalid(errors)
        });
    }
    let initial_seed = value
        .get("initialSeed")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let run_count = value
        .get("runs")
        .and_then(Value::as_u64)
        .unwrap_or(1)
        .clamp(1, 1000) as u32;
    let mut runs = Vec::new();
    for topology in 0..topologies.len() {
        for workload in 0..workloads.len() {
            for policy in 0..policies.len() {
                for run in 0..run_count {
                    runs.push(Run {
                        topology,
                        workload,
                        policy,
                        run,
                        seed: initial_seed + run as u64,
                    });
                }
            }
        }
    }
    Ok(Experiment {
        name: value
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("experiment")
            .to_string(),
        topologies,
        workloads,
        policies,
        runs,
        warnings,
    })
}

fn list<'v>(value: &'v Value, key: &str) -> &'v [Value] {
    value
        .get(key)
        .and_then(Value::as_array)
        .map_or(&[], |v| v.as_slice())
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
