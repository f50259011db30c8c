//! `policy-playground simulate`: a scenario file, an OpenDC experiment, or separate files, run
//! and summarised (or printed as JSON).

use super::inputs::{load_error, load_inputs, InputArgs};
use super::{print_diagnostics, Exit, INVALID, UNREADABLE};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use policy_playground::engine::Semantics;
use policy_playground::experiment::{self, Disk};
use policy_playground::notes::notes;
use policy_playground::policy::Policy;
use policy_playground::request::{CarbonReference, Inputs, RunOptions, RunOutcome, RunRequest};
use policy_playground::sim::SimResult;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The inputs of `simulate`, as parsed from the command line.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub inputs: InputArgs,
    /// An OpenDC experiment file, run as it is.
    #[arg(long)]
    pub experiment: Option<PathBuf>,
    /// The seed of the run's random draws (default: the scenario's, else 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Scheduling quantum in ms (default 1000).
    #[arg(long = "quantum-ms")]
    pub quantum_ms: Option<i64>,
    /// classic (SPEC 1-10) or current (OpenDC 3's scheduler, SPEC 11.12); default: the
    /// scenario's, else classic.
    #[arg(long)]
    pub semantics: Option<Semantics>,
    /// OpenDC3 (SDK) experiments: a key OpenDC3 does not know is an error, as `opendc --strict
    /// run` refuses it (legacy files are strict already).
    #[arg(long)]
    pub strict: bool,
    /// Print the full result as JSON (an array for an experiment).
    #[arg(long)]
    pub json: bool,
    /// Write the output to FILE instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also print every decision about the task with this id.
    #[arg(long = "explain")]
    pub explain: Option<String>,
    /// Also write the tasks of the result as CSV to FILE (one row per task).
    #[arg(long = "tasks-csv")]
    pub tasks_csv: Option<PathBuf>,
    /// Power series resolution in ms (0: exact change points; default 60000).
    #[arg(long = "series-resolution-ms")]
    pub series_resolution_ms: Option<i64>,
    /// Stop the run at this simulated time, ms; the tasks not ended by then are terminated
    /// (default ten years).
    #[arg(long = "max-time-ms")]
    pub max_time_ms: Option<i64>,
    /// Stop the run after this many instants (distinct event times) the same way
    /// (default 250000000).
    #[arg(long = "max-instants")]
    pub max_instants: Option<u64>,
    /// Beyond OpenDC: read the carbon trace this many ms later, cyclically over its span
    /// (another season of the same year). The carbon flags override a scenario file's.
    #[arg(long = "carbon-shift-ms", allow_hyphen_values = true)]
    pub carbon_shift_ms: Option<i64>,
    /// Beyond OpenDC: multiply every carbon intensity by this.
    #[arg(long = "carbon-scale")]
    pub carbon_scale: Option<f64>,
    /// Beyond OpenDC: the relative error (standard deviation) of the seeded noise on the carbon
    /// forecast a time-shifting policy reads; never on the carbon charged.
    #[arg(long = "forecast-error")]
    pub forecast_error: Option<f64>,
}

/// Runs `simulate`.
pub fn run(args: Args) -> Result<(), Exit> {
    let forms = [
        args.inputs.scenario.is_some(),
        args.experiment.is_some(),
        args.inputs.topology.is_some()
            || args.inputs.workload.is_some()
            || args.inputs.policy.is_some(),
    ];
    if forms.iter().filter(|&&f| f).count() != 1 {
        eprintln!("simulate: give exactly one of --scenario FILE, --experiment FILE, or --topology FILE --workload PATH --policy FILE");
        return Err(UNREADABLE);
    }
    if let Some(path) = &args.experiment {
        return run_experiment(path, &args);
    }
    let loaded = load_inputs(&args.inputs)?;
    let mut request = loaded.request(args.seed, args.quantum_ms);
    set_options(&mut request.options, &args);
    request.explain = args.explain.clone();
    let RunOutcome {
        result,
        explanation,
    } = run_with_progress(&loaded.label, &request)?;
    if let Some(path) = &args.tasks_csv {
        let csv = policy_playground::output::csv::tasks(&result);
        std::fs::write(path, csv).map_err(|e| {
            eprintln!("{}: cannot write: {e}", path.display());
            UNREADABLE
        })?;
    }
    if args.json {
        let mut text = serde_json::to_string(&result).map_err(|e| {
            eprintln!("cannot write the result: {e}");
            INVALID
        })?;
        if let Some(e) = explanation {
            text = format!(
                "{{\"result\":{text},\"explanation\":{}}}",
                serde_json::to_string(&e).unwrap_or_default()
            );
        }
        emit(&args.out, &text)?;
    } else {
        print_diagnostics(None, &result.warnings);
        let mut text = summary(&loaded.label, &loaded.file.policy, &result);
        for n in &notes(request.policy, request.inputs.workload, &result) {
            text.push_str(&format!("\nnote: {}", n.message));
        }
        if let Some(e) = explanation {
            text.push_str(&format!(
                "\nexplanation of task {}:\n{}\n",
                args.explain.unwrap_or_default(),
                serde_json::to_string_pretty(&e).unwrap_or_default()
            ));
        }
        emit(&args.out, &text)?;
    }
    Ok(())
}

/// The run options the command line sets besides the seed and the quantum (a carbon what-if
/// given both in a scenario file and as a flag: the flag's).
fn set_options(o: &mut RunOptions, args: &Args) {
    o.series_resolution_ms = args.series_resolution_ms;
    o.max_time_ms = args.max_time_ms;
    o.max_instants = args.max_instants;
    o.carbon_shift_ms = args.carbon_shift_ms.or(o.carbon_shift_ms);
    o.carbon_scale = args.carbon_scale.or(o.carbon_scale);
    o.forecast_error = args.forecast_error.or(o.forecast_error);
    if let Some(semantics) = args.semantics {
        o.semantics = semantics;
    }
}

pub(super) fn emit(out: &Option<PathBuf>, text: &str) -> Result<(), Exit> {
    match out {
        Some(path) => std::fs::write(path, text).map_err(|e| {
            eprintln!("{}: cannot write: {e}", path.display());
            UNREADABLE
        }),
        None => {
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{text}");
            Ok(())
        }
    }
}

/// Runs one request, with a progress bar on stderr once it has taken more than a second. A
/// request the run refuses (a bad option) is printed, and is a usage error.
pub(super) fn run_with_progress(label: &str, request: &RunRequest) -> Result<RunOutcome, Exit> {
    let bar = LateBar::new(label);
    let outcome = request.run(&mut |fraction| bar.set(fraction));
    bar.finish();
    outcome.map_err(|ds| {
        print_diagnostics(None, &ds);
        UNREADABLE
    })
}

/// A progress bar on stderr that shows itself only once the work has taken a second.
struct LateBar {
    bar: ProgressBar,
    started: Instant,
    shown: std::cell::Cell<bool>,
}

impl LateBar {
    fn new(label: &str) -> Self {
        let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{msg} [{bar:30}] {percent}% ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(label.to_string());
        LateBar {
            bar,
            started: Instant::now(),
            shown: std::cell::Cell::new(false),
        }
    }

    /// The fraction done (0 to 1).
    fn set(&self, fraction: f64) {
        if !self.shown.get() && self.started.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown.set(true);
        }
        self.bar.set_position((fraction * 1000.0) as u64);
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn kwh(j: f64) -> String {
    format!("{:.3} kWh", j / 3.6e6)
}

fn kg(g: Option<f64>) -> String {
    g.map_or("n/a (no carbon trace)".into(), |g| {
        format!("{:.3} kg", g / 1000.0)
    })
}

fn hours(ms: f64) -> String {
    format!("{:.2} h", ms / 3.6e6)
}

/// The short human summary of one run.
pub fn summary(label: &str, policy: &Policy, r: &SimResult) -> String {
    let m = &r.metrics;
    let mut s = String::new();
    s.push_str(&format!("{label}\n  policy       {}\n", policy.describe()));
    if !r.provenance.semantics.is_classic() {
        s.push_str("  semantics    current (OpenDC 3's filter scheduler, SPEC 11.12)\n");
    }
    s.push_str(&format!(
        "  tasks        {} completed, {} terminated, {} dropped (of {})\n",
        m.tasks_completed, m.tasks_terminated, m.tasks_dropped, m.tasks_total
    ));
    s.push_str(&format!(
        "  makespan     {} ({} ms)\n",
        hours(m.makespan_ms as f64),
        m.makespan_ms
    ));
    s.push_str(&format!(
        "  wait         mean {}, p95 {}\n",
        m.mean_wait_ms
            .map_or("n/a".into(), |w| format!("{:.0} ms", w)),
        m.p95_wait_ms.map_or("n/a".into(), |w| format!("{w} ms"))
    ));
    s.push_str(&format!(
        "  energy       {} (idle {}, dynamic {})\n",
        kwh(m.energy_j),
        kwh(m.idle_energy_j),
        kwh(m.dynamic_energy_j)
    ));
    s.push_str(&format!(
        "  carbon       {} (idle {}, dynamic {})\n",
        kg(m.carbon_g),
        kg(m.idle_carbon_g),
        kg(m.dynamic_carbon_g)
    ));
    s.push_str(&format!(
        "  time-shift   {} tasks deferred for {} in all, {} paused, {} deadline misses\n",
        m.deferred_tasks,
        hours(m.deferral_ms as f64),
        m.paused_tasks,
        m.deadline_misses
    ));
    s.push_str(&format!(
        "  utilisation  {:.1} %",
        m.mean_utilization * 100.0
    ));
    s
}

fn run_experiment(path: &Path, args: &Args) -> Result<(), Exit> {
    let options = experiment::LoadOptions {
        strict: args.strict,
    };
    let exp = experiment::load_with(&Disk, path, options).map_err(load_error)?;
    if !args.json {
        print_diagnostics(None, &exp.warnings);
    }
    // The runs go side by side on the machine's cores; their results are read in run order.
    let label_of = |run: &experiment::Run| {
        let seed = args.seed.map_or(run.seed, |s| s + run.run as u64);
        let (tl, wl) = (
            &exp.topologies[run.topology].0,
            &exp.workloads[run.workload].0,
        );
        let label = format!(
            "{wl} on {tl}, policy {} run {} (seed {seed})",
            run.policy + 1,
            run.run + 1
        );
        (label, seed)
    };
    // Each workload's provenance digest (FNV over every fragment) once, not in every run's result.
    let digests: Vec<String> = exp
        .workloads
        .iter()
        .map(|(_, w)| policy_playground::sim::digest::workload(w))
        .collect();
    let work = |k: usize, sink: &mut dyn FnMut(f64)| {
        let run = &exp.runs[k];
        let (_, topology, carbon) = &exp.topologies[run.topology];
        let inputs = Inputs {
            topology,
            workload: &exp.workloads[run.workload].1,
            carbon: carbon.as_ref(),
        };
        let mut request =
            RunRequest::new(inputs, &exp.policies[run.policy], CarbonReference::Followed);
        request.options.seed = label_of(run).1;
        request.options.quantum_ms = args.quantum_ms;
        set_options(&mut request.options, args);
        request.explain = args.explain.clone();
        request.workload_digest = Some(digests[run.workload].clone());
        request.run(sink)
    };
    let mut rows: Vec<(String, &experiment::Run, SimResult)> = Vec::new();
    let mut failure = None;
    let bar = LateBar::new(&format!("experiment {}: {} runs", exp.name, exp.runs.len()));
    policy_playground::parallel::run_in_order(
        exp.runs.len(),
        policy_playground::parallel::workers(),
        work,
        &mut |fraction| bar.set(fraction),
        |k, outcome| match outcome {
            Ok(outcome) => {
                rows.push((label_of(&exp.runs[k]).0, &exp.runs[k], outcome.result));
                true
            }
            Err(errors) => {
                failure = Some(errors);
                false
            }
        },
    );
    bar.finish();
    if let Some(errors) = failure {
        print_diagnostics(None, &errors);
        return Err(UNREADABLE);
    }
    if args.json {
        let items: Vec<serde_json::Value> = rows
            .iter()
            .map(|(_, run, result)| {
                serde_json::json!({
                    "topology": exp.topologies[run.topology].0,
                    "workload": exp.workloads[run.workload].0,
                    "policy": run.policy,
                    "run": run.run,
                    "seed": result.provenance.seed,
                    "result": result,
                })
            })
            .collect();
        let text = serde_json::to_string(&items).unwrap_or_default();
        return emit(&args.out, &text);
    }
    let text = experiment_table(&exp, &rows);
    emit(&args.out, &text)
}

fn mean_sd(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    (mean, var.sqrt())
}

fn experiment_table(
    exp: &experiment::Experiment,
    rows: &[(String, &experiment::Run, SimResult)],
) -> String {
    let mut s = format!("experiment {}: {} runs\n\n", exp.name, rows.len());
    s.push_str(&format!(
        "{:<4} {:<3} {:>6} {:>9} {:>9} {:>11} {:>11} {:>10} {:>9} {:>9}\n",
        "pol",
        "run",
        "seed",
        "completed",
        "makespan",
        "energy",
        "carbon",
        "dyn carbon",
        "deferred",
        "mean wait"
    ));
    for (_, run, r) in rows {
        let m = &r.metrics;
        s.push_str(&format!(
            "{:<4} {:<3} {:>6} {:>9} {:>9} {:>11} {:>11} {:>10} {:>9} {:>9}\n",
            run.policy + 1,
            run.run + 1,
            r.provenance.seed,
            m.tasks_completed,
            format!("{:.1} h", m.makespan_ms as f64 / 3.6e6),
            format!("{:.1} kWh", m.energy_j / 3.6e6),
            m.carbon_g
                .map_or("n/a".into(), |g| format!("{:.1} kg", g / 1000.0)),
            m.dynamic_carbon_g
                .map_or("n/a".into(), |g| format!("{:.1} kg", g / 1000.0)),
            m.deferred_tasks,
            m.mean_wait_ms
                .map_or("n/a".into(), |w| format!("{:.0} s", w / 1000.0)),
        ));
    }
    s.push_str("\nper policy, mean ± sd over runs:\n");
    for (t, (tl, _, _)) in exp.topologies.iter().enumerate() {
        for (w, (wl, _)) in exp.workloads.iter().enumerate() {
            s.push_str(&format!("{wl} on {tl}\n"));
            for (p, policy) in exp.policies.iter().enumerate() {
                let group: Vec<&SimResult> = rows
                    .iter()
                    .filter(|(_, run, _)| run.topology == t && run.workload == w && run.policy == p)
                    .map(|(_, _, r)| r)
                    .collect();
                if group.is_empty() {
                    continue;
                }
                let energy: Vec<f64> = group.iter().map(|r| r.metrics.energy_j / 3.6e6).collect();
                let carbon: Vec<f64> = group
                    .iter()
                    .filter_map(|r| r.metrics.carbon_g)
                    .map(|g| g / 1000.0)
                    .collect();
                let wait: Vec<f64> = group
                    .iter()
                    .filter_map(|r| r.metrics.mean_wait_ms)
                    .map(|w| w / 1000.0)
                    .collect();
                let (e, esd) = mean_sd(&energy);
                let carbon_text = if carbon.is_empty() {
                    "carbon n/a".to_string()
                } else {
                    let (c, csd) = mean_sd(&carbon);
                    format!("carbon {c:.1} ± {csd:.1} kg")
                };
                let wait_text = if wait.is_empty() {
                    "wait n/a".to_string()
                } else {
                    let (m, msd) = mean_sd(&wait);
                    format!("mean wait {m:.0} ± {msd:.0} s")
                };
                s.push_str(&format!(
                    "  {}. {}\n     energy {e:.1} ± {esd:.1} kWh, {carbon_text}, {wait_text}\n",
                    p + 1,
                    policy.describe()
                ));
            }
        }
    }
    s
}
