//! `policy-playground compare`: a portfolio ([`policy_playground::portfolio`]) of policies on
//! the same inputs: a scenario file or separate inputs with several `--policy` files, or every
//! policy of an OpenDC experiment. Each policy runs under the same seeds; the output is the
//! page's portfolio table (every figure as the mean over the seeds with its range, the
//! differences from the baseline, the best of each row marked with `*`), the Pareto front of
//! two metrics, and energy and carbon over the runs' common window when they end at different
//! times (SPEC 7). `simulate` reports per-run figures only.

use super::inputs::{load_error, load_inputs, InputArgs};
use super::simulate::emit;
use super::{print_diagnostics, Exit, INVALID, UNREADABLE};
use policy_playground::engine::Semantics;
use policy_playground::experiment::{self, Disk, LoadOptions};
use policy_playground::policy::Policy;
use policy_playground::portfolio::{self, Planned, PortfolioReport, PortfolioSpec, Settings};
use policy_playground::request::{CarbonReference, Inputs, RunRequest};
use serde_json::Value;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// The inputs of `compare`, as parsed from the command line.
#[derive(clap::Args)]
pub struct Args {
    /// A scenario file: its inputs, options and (without --policy) its policy, labelled
    /// `baseline`.
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// An OpenDC topology JSON (legacy or SDK), with --workload and --policy.
    #[arg(long)]
    pub topology: Option<PathBuf>,
    /// An OpenDC workload folder (tasks.parquet + fragments.parquet), or a JSON or CSV file.
    #[arg(long)]
    pub workload: Option<PathBuf>,
    /// A carbon trace (parquet, CSV or JSON); otherwise the topology's own reference.
    #[arg(long)]
    pub carbon: Option<PathBuf>,
    /// A policy of the portfolio (labelled by its file name); repeat it.
    #[arg(long = "policy")]
    pub policies: Vec<PathBuf>,
    /// A policy to compare with the scenario's; repeat it (after the --policy ones).
    #[arg(long = "with")]
    pub with: Vec<PathBuf>,
    /// An OpenDC experiment file: its first scenario's inputs and every one of its policies.
    #[arg(long)]
    pub experiment: Option<PathBuf>,
    /// OpenDC3 (SDK) experiments: a key OpenDC3 does not know is an error.
    #[arg(long)]
    pub strict: bool,
    /// The first seed (default: the scenario's or the experiment's, else 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Runs per policy, with seeds from --seed on (default 1).
    #[arg(long)]
    pub seeds: Option<u32>,
    /// Scheduling quantum in ms (default 1000).
    #[arg(long = "quantum-ms")]
    pub quantum_ms: Option<i64>,
    /// classic or current (SPEC 11.12), for every run; default: the scenario's, else classic.
    #[arg(long)]
    pub semantics: Option<Semantics>,
    /// The policy the others are compared with: its position (0 is the first) or its label.
    #[arg(long)]
    pub baseline: Option<String>,
    /// The trade-off's metric across (default dynamicCarbonG).
    #[arg(long)]
    pub x: Option<String>,
    /// The trade-off's metric up (default meanWaitMs).
    #[arg(long)]
    pub y: Option<String>,
    /// Print the portfolio as JSON: per policy its metrics under `simulate --json`'s keys
    /// (means over the seeds, with `min` and `max`), `pareto`, and the table.
    #[arg(long)]
    pub json: bool,
    /// Print the table as CSV, one row per policy and metric.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Write the output to FILE instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The most policies one comparison takes.
const MAX_POLICIES: usize = portfolio::MAX_POLICIES;

/// Runs `compare`.
pub fn run(args: Args) -> Result<(), Exit> {
    let forms = [
        args.scenario.is_some(),
        args.experiment.is_some(),
        args.topology.is_some() || args.workload.is_some(),
    ];
    if forms.iter().filter(|&&f| f).count() != 1 {
        eprintln!("compare: give one of --scenario FILE, --experiment FILE, or --topology FILE --workload PATH, with --policy FILE for each policy");
        return Err(UNREADABLE);
    }
    let count = args.policies.len() + args.with.len();
    if count > MAX_POLICIES {
        eprintln!("compare: at most {MAX_POLICIES} policies, not {count}");
        return Err(INVALID);
    }
    match &args.experiment {
        Some(path) => run_experiment(path, &args),
        None => run_inputs(&args),
    }
}

/// Policy files read from disk, each labelled by its file name.
fn load_policies(paths: &[PathBuf]) -> Result<Vec<(String, Policy)>, Exit> {
    let mut out = Vec::with_capacity(paths.len());
    for path in paths {
        let (policy, warnings) = experiment::load_policy(&Disk, path).map_err(load_error)?;
        let file = path.display().to_string();
        let warnings: Vec<_> = warnings.into_iter().map(|d| d.in_file(&file)).collect();
        print_diagnostics(None, &warnings);
        out.push((label_of(path), policy));
    }
    Ok(out)
}

/// A scenario file or separate inputs, with the policies of the command line.
fn run_inputs(args: &Args) -> Result<(), Exit> {
    if args.scenario.is_none() && args.policies.is_empty() {
        eprintln!("compare: with --topology and --workload, give each policy with --policy FILE");
        return Err(UNREADABLE);
    }
    if args.scenario.is_some() && args.policies.is_empty() && args.with.is_empty() {
        eprintln!("compare: give the policies to compare with --policy FILE (or --with FILE, beside the scenario's)");
        return Err(UNREADABLE);
    }
    let inputs = InputArgs {
        scenario: args.scenario.clone(),
        topology: args.topology.clone(),
        workload: args.workload.clone(),
        carbon: args.carbon.clone(),
        policy: args.scenario.is_none().then(|| args.policies[0].clone()),
    };
    let loaded = load_inputs(&inputs)?;
    let mut policies = load_policies(&args.policies)?;
    if args.scenario.is_some() && policies.is_empty() {
        policies.push(("baseline".into(), loaded.file.policy.clone()));
    }
    policies.extend(load_policies(&args.with)?);
    let mut base = loaded.request(args.seed, args.quantum_ms);
    print_diagnostics(None, &base.warnings);
    base.warnings.clear();
    finish(args, &base, &policies)
}

/// Every policy of an experiment on its first scenario's inputs (and any --policy or --with
/// files after them).
fn run_experiment(path: &Path, args: &Args) -> Result<(), Exit> {
    let options = LoadOptions {
        strict: args.strict,
    };
    let exp = experiment::load_with(&Disk, path, options).map_err(load_error)?;
    print_diagnostics(None, &exp.warnings);
    let Some(first) = exp.runs.first() else {
        eprintln!("{}: the experiment has no run", path.display());
        return Err(INVALID);
    };
    let (_, topology, carbon) = &exp.topologies[first.topology];
    let (_, workload) = &exp.workloads[first.workload];
    let mut policies: Vec<(String, Policy)> = exp
        .policies
        .iter()
        .enumerate()
        .map(|(i, p)| (experiment_label(exp.policy_json.get(i), i), p.clone()))
        .collect();
    policies.extend(load_policies(&args.policies)?);
    policies.extend(load_policies(&args.with)?);
    if policies.len() > MAX_POLICIES {
        eprintln!(
            "compare: at most {MAX_POLICIES} policies, not {}",
            policies.len()
        );
        return Err(INVALID);
    }
    let inputs = Inputs {
        topology,
        workload,
        carbon: carbon.as_ref(),
    };
    let mut base = RunRequest::new(inputs, &exp.policies[0], CarbonReference::Followed);
    // Every run has this workload: its provenance digest is worked out once, here.
    base.workload_digest = Some(policy_playground::sim::digest::workload(workload));
    base.options.seed = args.seed.unwrap_or(first.seed);
    base.options.quantum_ms = args.quantum_ms;
    finish(args, &base, &policies)
}

/// An experiment policy's label: a prefab's name, the policy's `name`, else its position.
fn experiment_label(json: Option<&Value>, i: usize) -> String {
    let text = |k: &str| json.and_then(|j| j.get(k)).and_then(Value::as_str);
    text("policyName")
        .or_else(|| text("name"))
        .map_or_else(|| format!("policy {}", i + 1), str::to_string)
}

/// Runs the portfolio of `policies` on `base`'s inputs and options and prints it.
fn finish(args: &Args, base: &RunRequest, policies: &[(String, Policy)]) -> Result<(), Exit> {
    let labels = unique_labels(policies.iter().map(|(l, _)| l.clone()).collect());
    let baseline = match &args.baseline {
        None => 0,
        Some(b) => baseline_index(b, &labels)?,
    };
    let spec = PortfolioSpec {
        seeds: args.seeds,
        baseline: Some(baseline),
        x: args.x.clone(),
        y: args.y.clone(),
        ..Default::default()
    };
    let mut base = base.clone();
    if let Some(semantics) = args.semantics {
        base.options.semantics = semantics;
    }
    let refused = |ds: Vec<policy_playground::diag::Diagnostic>| {
        print_diagnostics(None, &ds);
        INVALID
    };
    let settings = Settings::new(policies.len(), &spec, base.options.seed).map_err(refused)?;
    if let Err(ds) = base.options.sim_options(None) {
        print_diagnostics(None, &ds);
        return Err(UNREADABLE);
    }
    let planned: Vec<Planned> = policies
        .iter()
        .zip(labels)
        .map(|((_, policy), label)| {
            let mut request = base.clone();
            request.policy = policy;
            Planned { label, request }
        })
        .collect();
    let total = planned.len() * settings.seeds.len();
    let show = total > 1 && std::io::stderr().is_terminal();
    let mut shown = 0;
    let report = portfolio::run(&planned, &settings, &mut |f| {
        let done = (f * total as f64).floor() as usize;
        if show && done != shown {
            shown = done;
            eprint!("\rcompare: {done} of {total} runs");
            if done == total {
                eprintln!();
            }
        }
    })
    .map_err(|ds| {
        print_diagnostics(None, &ds);
        UNREADABLE
    })?;
    let text = if args.json {
        serde_json::to_string(&report).map_err(|e| {
            eprintln!("compare: cannot write the portfolio: {e}");
            INVALID
        })?
    } else if args.csv {
        portfolio::csv::report(&report).trim_end().to_string()
    } else {
        table(&report)
    };
    emit(&args.out, &text)
}

/// Labels made unique by a ` (2)`, ` (3)`... after a repeated one.
fn unique_labels(labels: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(labels.len());
    for label in labels {
        let mut unique = label.clone();
        let mut k = 2;
        while out.contains(&unique) {
            unique = format!("{label} ({k})");
            k += 1;
        }
        out.push(unique);
    }
    out
}

/// `--baseline`: a position among the policies, or a label.
fn baseline_index(b: &str, labels: &[String]) -> Result<usize, Exit> {
    if let Some(i) = labels.iter().position(|l| l == b) {
        return Ok(i);
    }
    match b.parse::<usize>() {
        Ok(i) if i < labels.len() => Ok(i),
        _ => {
            eprintln!(
                "compare: --baseline {b}: not a position 0 to {} nor a label ({})",
                labels.len().saturating_sub(1),
                labels.join(", ")
            );
            Err(INVALID)
        }
    }
}

/// A policy file's label: its name without the extension.
fn label_of(path: &Path) -> String {
    path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// The portfolio as a text table: a column per policy (the mean over the seeds, its range when
/// the seeds differ, `*` on the best of the row), then one per difference from the baseline;
/// the Pareto front and the common window's note last.
fn table(r: &PortfolioReport) -> String {
    let c = &r.comparison;
    let base = &c.labels[c.baseline];
    let mut header = vec!["metric".to_string()];
    header.extend(c.labels.iter().cloned());
    header.extend(
        (c.labels.iter().enumerate())
            .filter(|&(i, _)| i != c.baseline)
            .map(|(_, l)| format!("{l} − {base}")),
    );
    let mut lines = vec![header];
    for row in &c.rows {
        let indent = if row.part { "  " } else { "" };
        let mut line = vec![format!("{indent}{}", row.label)];
        line.extend(row.cells.iter().map(|cell| {
            let range = cell.range.as_ref().filter(|g| g.min != g.max);
            let text = match range {
                Some(g) => format!("{} [{}]", cell.text, g.text),
                None => cell.text.clone(),
            };
            if cell.best {
                format!("*{text}")
            } else {
                text
            }
        }));
        line.extend(
            (row.cells.iter().enumerate())
                .filter(|&(i, _)| i != c.baseline)
                .map(|(_, cell)| {
                    cell.difference
                        .as_ref()
                        .map_or_else(|| "—".to_string(), |d| d.text.clone())
                }),
        );
        lines.push(line);
    }
    let mut out = String::new();
    if r.seeds.len() > 1 {
        out.push_str(&format!(
            "means over seeds {}-{} [min – max]\n",
            r.seeds[0],
            r.seeds[r.seeds.len() - 1]
        ));
    }
    for line in super::table::aligned(&lines) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("* the best of the row by the metric's direction\n");
    let front: Vec<&str> = r
        .pareto
        .front
        .iter()
        .map(|&i| c.labels[i].as_str())
        .collect();
    out.push_str(&format!(
        "Pareto front of {} and {}: {}\n",
        r.pareto.x,
        r.pareto.y,
        if front.is_empty() {
            "none (no policy has both figures)".to_string()
        } else {
            front.join(", ")
        }
    ));
    if c.windowed {
        out.push_str(&c.window_note);
        out.push('\n');
    }
    out
}
