//! `policy-playground export`: a run's inputs and policies written as a folder OpenDC runs, in
//! the OpenDC3 (SDK) format of SPEC 11.11 (`opendc run experiment.json`) or the legacy one
//! (`opendc --legacy run`). The inputs are named as for `simulate`; every file is made by the
//! session's exports, so the page's download and this folder hold the same bytes.

use super::inputs::{load_error, load_inputs, InputArgs};
use super::{print_diagnostics, read_text, Exit, INVALID, UNREADABLE};
use policy_playground::api::export_sdk::OpenDc3Export;
use policy_playground::api::handles::{Handles, RunOptions, Session};
use policy_playground::api::Answer;
use policy_playground::engine::Semantics;
use policy_playground::experiment::{self, Disk};
use policy_playground::output::opendc3;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Which OpenDC reads the folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// OpenDC3's SDK experiment (SPEC 11.11): `opendc run experiment.json`.
    Opendc3,
    /// An OpenDC 2 experiment with its topology file: `opendc --legacy run`.
    Legacy,
}

/// The arguments of `export`.
#[derive(clap::Args)]
pub struct Args {
    /// opendc3 (SDK format, the default) or legacy.
    #[arg(long, value_enum, default_value = "opendc3")]
    pub format: Format,
    /// The folder to write; it must be empty or hold only files this command writes.
    #[arg(long)]
    pub out: PathBuf,
    /// A scenario file (its policy, unless --policy is given).
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// An OpenDC topology JSON (legacy or SDK).
    #[arg(long)]
    pub topology: Option<PathBuf>,
    /// An OpenDC workload folder (tasks.parquet + fragments.parquet), or a JSON or CSV file.
    #[arg(long)]
    pub workload: Option<PathBuf>,
    /// A carbon trace (parquet, CSV or JSON); otherwise the topology's own reference.
    #[arg(long)]
    pub carbon: Option<PathBuf>,
    /// A policy file; repeat for several policies (one `allocationPolicies` entry each).
    #[arg(long)]
    pub policy: Vec<PathBuf>,
    /// The seed (default: the scenario's, else 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Scheduling quantum in ms (default: the scenario's, else 1000).
    #[arg(long = "quantum-ms")]
    pub quantum_ms: Option<i64>,
    /// classic or current: the semantics of the run the notes compare with.
    #[arg(long)]
    pub semantics: Option<Semantics>,
}

/// Every file name this command writes, at the folder's top level.
const OURS: [&str; 5] = [
    "experiment.json",
    "topology.json",
    "carbon.parquet",
    "NOTES.md",
    "workload",
];
/// The files of the workload folder.
const WORKLOAD_FILES: [&str; 2] = ["tasks.parquet", "fragments.parquet"];

/// The files of one export, by path relative to the folder.
type Files = Vec<(String, Vec<u8>)>;

/// Runs `export`.
pub fn run(args: Args) -> Result<(), Exit> {
    let separate = args.topology.is_some() || args.workload.is_some() || args.carbon.is_some();
    if args.scenario.is_some() == separate {
        eprintln!("export: give either --scenario FILE [--policy FILE...], or --topology FILE --workload PATH --policy FILE... [--carbon FILE]");
        return Err(UNREADABLE);
    }
    check_folder(&args.out)?;
    let inputs = InputArgs {
        scenario: args.scenario.clone(),
        topology: args.topology.clone(),
        workload: args.workload.clone(),
        carbon: args.carbon.clone(),
        policy: args.policy.first().cloned(),
    };
    let loaded = load_inputs(&inputs)?;
    print_diagnostics(None, &loaded.file.warnings);
    let options = RunOptions {
        seed: args.seed.unwrap_or(loaded.file.seed),
        quantum_ms: Some(args.quantum_ms.unwrap_or(loaded.file.quantum_ms)),
        semantics: args.semantics.unwrap_or(loaded.file.semantics),
        ..RunOptions::default()
    };
    let policies = policy_texts(&args)?;
    let texts: Vec<&str> = policies.iter().map(String::as_str).collect();
    let file = loaded.file;
    let (session, handles) =
        Session::holding(file.topology, file.workload, file.carbon).map_err(|ds| {
            print_diagnostics(None, &ds);
            INVALID
        })?;
    let files = match args.format {
        Format::Opendc3 => opendc3_files(&session, &handles, &texts, &options)?,
        Format::Legacy => legacy_files(&session, &handles, &texts, &options)?,
    };
    write_folder(&args.out, &files)?;
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    println!("{}: {}", args.out.display(), names.join(", "));
    Ok(())
}

/// The text of each policy: the `--policy` files (checked first, so that problems name the
/// file), else the scenario's own policy.
fn policy_texts(args: &Args) -> Result<Vec<String>, Exit> {
    if args.policy.is_empty() {
        let Some(path) = &args.scenario else {
            eprintln!("export: --policy FILE is needed with --topology and --workload");
            return Err(UNREADABLE);
        };
        return Ok(vec![scenario_policy(&read_text(path)?)]);
    }
    args.policy
        .iter()
        .map(|p| {
            experiment::load_policy(&Disk, p).map_err(load_error)?;
            read_text(p)
        })
        .collect()
}

/// The scenario's `policy` as written (the scenario was read already, so it is there).
fn scenario_policy(text: &str) -> String {
    #[derive(serde::Deserialize)]
    struct Parts<'a> {
        #[serde(borrow)]
        policy: Option<&'a serde_json::value::RawValue>,
    }
    serde_json::from_str::<Parts>(text)
        .ok()
        .and_then(|p| p.policy)
        .map_or_else(|| "{}".to_string(), |raw| raw.get().to_string())
}

/// The answer's value, or its errors printed (an input OpenDC cannot run: exit 1).
fn value<T>(answer: Answer<T>) -> Result<T, Exit> {
    match answer {
        Answer::Success { value } => Ok(value),
        Answer::Failure { errors } => {
            print_diagnostics(None, &errors);
            Err(INVALID)
        }
    }
}

fn opendc3_files(
    s: &Session,
    h: &Handles,
    policies: &[&str],
    o: &RunOptions,
) -> Result<Files, Exit> {
    let OpenDc3Export {
        experiment,
        notes,
        tasks,
        fragments,
        carbon,
    } = value(s.export_opendc3_policies(h, policies, o))?;
    let mut files = vec![
        ("experiment.json".to_string(), json_bytes(&experiment)),
        ("workload/tasks.parquet".to_string(), tasks),
        ("workload/fragments.parquet".to_string(), fragments),
    ];
    files.extend(carbon.map(|c| ("carbon.parquet".to_string(), c)));
    files.push((
        "NOTES.md".to_string(),
        notes_md("OpenDC3 experiment", &notes),
    ));
    Ok(files)
}

/// The legacy export of each policy, its `allocationPolicies` entries gathered in the first.
fn legacy_files(
    s: &Session,
    h: &Handles,
    policies: &[&str],
    o: &RunOptions,
) -> Result<Files, Exit> {
    let mut experiment = Value::Null;
    let mut topology = Value::Null;
    let mut entries = Vec::new();
    let mut notes = Vec::new();
    for text in policies {
        let e = value(s.export_opendc_experiment(h, text, o))?;
        entries.extend(
            e.experiment["allocationPolicies"]
                .as_array()
                .cloned()
                .unwrap_or_default(),
        );
        notes.push(e.notes);
        if experiment.is_null() {
            (experiment, topology) = (e.experiment, e.topology);
        }
    }
    experiment["allocationPolicies"] = Value::Array(entries);
    let workload = value(s.export_workload_parquet(h.workload))?;
    let mut files = vec![
        ("experiment.json".to_string(), json_bytes(&experiment)),
        ("topology.json".to_string(), json_bytes(&topology)),
        ("workload/tasks.parquet".to_string(), workload.tasks),
        ("workload/fragments.parquet".to_string(), workload.fragments),
    ];
    if let Some(c) = h.carbon {
        files.push((
            "carbon.parquet".to_string(),
            value(s.export_carbon_parquet(c))?,
        ));
    }
    let notes = opendc3::merge_policy_notes(notes);
    files.push((
        "NOTES.md".to_string(),
        notes_md("OpenDC experiment", &notes),
    ));
    Ok(files)
}

fn json_bytes(v: &Value) -> Vec<u8> {
    let mut text = serde_json::to_string_pretty(v).unwrap_or_default();
    text.push('\n');
    text.into_bytes()
}

/// `NOTES.md`: a title and one item per note (a note's later lines indented under it).
fn notes_md(title: &str, notes: &[String]) -> Vec<u8> {
    let mut md = format!("# Notes on this {title}\n\nWritten by policy-playground: what OpenDC will do differently from the playground's run.\n\n");
    for note in notes {
        md.push_str("- ");
        md.push_str(&note.replace('\n', "\n  "));
        md.push('\n');
    }
    md.into_bytes()
}

/// Refuses a folder holding anything this command does not write.
fn check_folder(dir: &Path) -> Result<(), Exit> {
    let foreign = |why: String| {
        eprintln!("{}: {why}; export writes only into an empty folder or one that holds only its own files ({}, workload/{{{}}})", dir.display(), OURS[..4].join(", "), WORKLOAD_FILES.join(", "));
        UNREADABLE
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(foreign(format!("cannot read the folder: {e}"))),
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let path = entry.path();
        let ok = if name == "workload" {
            path.is_dir() && only_workload_files(&path)
        } else {
            OURS.contains(&name.as_str()) && path.is_file()
        };
        if !ok {
            return Err(foreign(format!("`{name}` is not a file export writes")));
        }
    }
    Ok(())
}

fn only_workload_files(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().all(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            WORKLOAD_FILES.contains(&name.as_str()) && e.path().is_file()
        })
    })
}

/// Writes the files, and removes this command's files that this export does not write (a
/// carbon trace of an earlier export, the legacy topology), so the folder is exactly the export.
fn write_folder(dir: &Path, files: &Files) -> Result<(), Exit> {
    let cannot = |path: &Path, e: std::io::Error| {
        eprintln!("{}: cannot write: {e}", path.display());
        UNREADABLE
    };
    let workload = dir.join("workload");
    std::fs::create_dir_all(&workload).map_err(|e| cannot(&workload, e))?;
    for stale in OURS.iter().take(4) {
        let path = dir.join(stale);
        if path.is_file() && !files.iter().any(|(n, _)| n == stale) {
            std::fs::remove_file(&path).map_err(|e| cannot(&path, e))?;
        }
    }
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| cannot(&path, e))?;
    }
    Ok(())
}
