//! `policy-playground compare`: the inputs of one run under the scenario's policy (the
//! baseline) and under each `--with` policy, as the page's metrics table: every figure, the
//! differences from the baseline, and energy and carbon over the runs' common window when they
//! end at different times (SPEC 7). `simulate` reports per-run figures only.

use super::inputs::{load_error, load_inputs, InputArgs};
use super::simulate::{emit, run_with_progress};
use super::{print_diagnostics, Exit, INVALID};
use policy_playground::compare::{compare_finished, Comparison, FinishedRun};
use policy_playground::engine::Semantics;
use policy_playground::experiment::{self, Disk};
use policy_playground::policy::Policy;
use policy_playground::request::RunRequest;
use std::path::PathBuf;

/// The most policies one comparison takes besides the baseline.
const MAX_WITH: usize = 64;

/// The inputs of `compare`, as parsed from the command line.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub inputs: InputArgs,
    /// A policy file to compare with the baseline (the scenario's or `--policy`'s); repeat it.
    #[arg(long = "with", required = true)]
    pub with: Vec<PathBuf>,
    /// The seed of every run's random draws (default: the scenario's, else 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Scheduling quantum in ms (default 1000).
    #[arg(long = "quantum-ms")]
    pub quantum_ms: Option<i64>,
    /// classic or current (SPEC 11.12), for every run; default: the scenario's, else classic.
    #[arg(long)]
    pub semantics: Option<Semantics>,
    /// Print the comparison as JSON (the page's `compare` answer).
    #[arg(long)]
    pub json: bool,
    /// Write the output to FILE instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `compare`.
pub fn run(args: Args) -> Result<(), Exit> {
    if args.with.len() > MAX_WITH {
        eprintln!(
            "compare: at most {MAX_WITH} --with policies, not {}",
            args.with.len()
        );
        return Err(INVALID);
    }
    let loaded = load_inputs(&args.inputs)?;
    let mut policies: Vec<(String, Policy)> = Vec::new();
    for path in &args.with {
        let (policy, warnings) = experiment::load_policy(&Disk, path).map_err(load_error)?;
        let file = path.display().to_string();
        let warnings: Vec<_> = warnings.into_iter().map(|d| d.in_file(&file)).collect();
        print_diagnostics(None, &warnings);
        policies.push((label_of(path), policy));
    }
    let mut baseline = loaded.request(args.seed, args.quantum_ms);
    if let Some(semantics) = args.semantics {
        baseline.options.semantics = semantics;
    }
    let mut requests: Vec<(String, RunRequest)> = vec![("baseline".into(), baseline.clone())];
    for (label, policy) in &policies {
        let mut request = baseline.clone();
        request.policy = policy;
        requests.push((label.clone(), request));
    }
    let mut results = Vec::with_capacity(requests.len());
    for (label, request) in &requests {
        results.push(run_with_progress(label, request)?.result);
    }
    let runs: Vec<FinishedRun> = requests
        .iter()
        .zip(&results)
        .map(|((label, request), result)| FinishedRun {
            label: label.clone(),
            request,
            metrics: &result.metrics,
            start_epoch_ms: result.start_epoch_ms,
        })
        .collect();
    let comparison = compare_finished(&runs, 0).map_err(|ds| {
        print_diagnostics(None, &ds);
        INVALID
    })?;
    let text = if args.json {
        serde_json::to_string(&comparison).map_err(|e| {
            eprintln!("cannot write the comparison: {e}");
            INVALID
        })?
    } else {
        table(&comparison)
    };
    emit(&args.out, &text)
}

/// A policy file's label: its name without the extension.
fn label_of(path: &std::path::Path) -> String {
    path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// The comparison as a text table: a column per run, then one per difference from the
/// baseline; the common window's note last.
fn table(c: &Comparison) -> String {
    let mut header = vec!["metric".to_string()];
    header.extend(c.labels.iter().cloned());
    header.extend(
        c.labels
            .iter()
            .skip(1)
            .map(|l| format!("{l} − {}", c.labels[0])),
    );
    let mut lines = vec![header];
    for row in &c.rows {
        let indent = if row.part { "  " } else { "" };
        let mut line = vec![format!("{indent}{}", row.label)];
        line.extend(row.cells.iter().map(|cell| cell.text.clone()));
        line.extend(row.cells.iter().skip(1).map(|cell| {
            cell.difference
                .as_ref()
                .map_or_else(|| "—".to_string(), |d| d.text.clone())
        }));
        lines.push(line);
    }
    let mut out = String::new();
    for line in super::table::aligned(&lines) {
        out.push_str(&line);
        out.push('\n');
    }
    if c.windowed {
        out.push_str(&c.window_note);
        out.push('\n');
    }
    out
}
