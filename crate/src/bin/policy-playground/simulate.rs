//! `policy-playground simulate`: a scenario file, an OpenDC experiment, or separate files, run
//! and summarised (or printed as JSON).

use super::{print_diagnostics, Exit, INVALID, UNREADABLE};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use policy_playground::diag::Diagnostic;
use policy_playground::experiment::{self, Disk, LoadError};
use policy_playground::model::{CarbonTrace, Topology, Workload};
use policy_playground::policy::Policy;
use policy_playground::scenario;
use policy_playground::sim::{Options, Scenario, SimResult, Simulation};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The inputs of `simulate`, as parsed from the command line.
#[derive(clap::Args)]
pub struct Args {
    /// A scenario file: {"topology", "workload", "carbon", "policy", "seed", "quantumMs"}.
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// An OpenDC experiment file, run as it is.
    #[arg(long)]
    pub experiment: Option<PathBuf>,
    /// An OpenDC topology JSON (legacy or SDK).
    #[arg(long)]
    pub topology: Option<PathBuf>,
    /// An OpenDC workload folder (tasks.parquet + fragments.parquet), or a JSON or CSV file.
    #[arg(long)]
    pub workload: Option<PathBuf>,
    /// A carbon trace (parquet, CSV or JSON); otherwise the topology's own reference.
    #[arg(long)]
    pub carbon: Option<PathBuf>,
    /// A policy file.
    #[arg(long)]
    pub policy: Option<PathBuf>,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Scheduling quantum in ms (default 1000).
    #[arg(long = "quantum-ms")]
    pub quantum_ms: Option<i64>,
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
}

fn load_error(e: LoadError) -> Exit {
    match e {
        LoadError::Invalid(ds) => {
            print_diagnostics(None, &ds);
            INVALID
        }
        LoadError::Unreadable(ds) => {
            print_diagnostics(None, &ds);
            UNREADABLE
        }
    }
}

/// One run to make: borrowed inputs and labels for the summary.
struct Job<'a> {
    label: String,
    scenario: Scenario<'a>,
}

/// Runs `simulate`.
pub fn run(args: Args) -> Result<(), Exit> {
    let forms = [
        args.scenario.is_some(),
        args.experiment.is_some(),
        args.topology.is_some() || args.workload.is_some() || args.policy.is_some(),
    ];
    if forms.iter().filter(|&&f| f).count() != 1 {
        eprintln!("simulate: give exactly one of --scenario FILE, --experiment FILE, or --topology FILE --workload PATH --policy FILE");
        return Err(UNREADABLE);
    }
    let options = Options {
        explain_task: args.explain.clone(),
        series_resolution_ms: args
            .series_resolution_ms
            .unwrap_or(Options::default().series_resolution_ms),
        max_time_ms: args
            .max_time_ms
            .unwrap_or(policy_playground::sim::MAX_TIME_MS),
        max_instants: args
            .max_instants
            .unwrap_or(policy_playground::sim::MAX_INSTANTS),
    };
    if let Some(q) = args.quantum_ms {
        if !(1..=scenario::MAX_QUANTUM_MS).contains(&q) {
            eprintln!(
                "simulate: --quantum-ms must be in [1, {}], got {q}",
                scenario::MAX_QUANTUM_MS
            );
            return Err(UNREADABLE);
        }
    }
    if let Some(path) = &args.experiment {
        return run_experiment(path, &args, options);
    }
    let Loaded {
        topology,
        workload,
        carbon,
        policy,
        seed,
        quantum_ms: quantum,
        warnings,
        label,
    } = load_inputs(
        args.scenario.as_deref(),
        args.topology.as_deref(),
        args.workload.as_deref(),
        args.carbon.as_deref(),
        args.policy.as_deref(),
    )?;
    let scenario = Scenario {
        topology: &topology,
        workload: &workload,
        carbon: carbon.as_ref(),
        policy: &policy,
        seed: args.seed.unwrap_or(seed),
        quantum_ms: args.quantum_ms.unwrap_or(quantum),
    };
    let mut result = simulate_with_progress(
        &Job {
            label: label.clone(),
            scenario,
        },
        options.clone(),
    );
    let mut all = warnings;
    all.append(&mut result.0.warnings);
    result.0.warnings = all;
    let (result, explanation) = result;
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
        let mut text = summary(&label, &policy, &result);
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

/// The inputs of one run, read from disk: a scenario file, or separate files.
pub(super) struct Loaded {
    pub topology: Topology,
    pub workload: Workload,
    pub carbon: Option<CarbonTrace>,
    pub policy: Policy,
    pub seed: u64,
    pub quantum_ms: i64,
    /// Warnings of every part, each naming its file.
    pub warnings: Vec<Diagnostic>,
    /// What ran, for summaries.
    pub label: String,
}

/// Reads a scenario file, or a topology, a workload, a policy and optionally a carbon trace
/// (otherwise the topology's own reference).
pub(super) fn load_inputs(
    scenario: Option<&Path>,
    topology: Option<&Path>,
    workload: Option<&Path>,
    carbon: Option<&Path>,
    policy: Option<&Path>,
) -> Result<Loaded, Exit> {
    if let Some(path) = scenario {
        let text = std::fs::read(path).map_err(|e| {
            eprintln!("{}: cannot read the file: {e}", path.display());
            UNREADABLE
        })?;
        let text = String::from_utf8(text).map_err(|_| {
            eprintln!("{}: not UTF-8 text", path.display());
            INVALID
        })?;
        let s = scenario::read(&text).map_err(|ds| {
            print_diagnostics(Some(path), &ds);
            INVALID
        })?;
        return Ok(Loaded {
            topology: s.topology,
            workload: s.workload,
            carbon: s.carbon,
            policy: s.policy,
            seed: s.seed,
            quantum_ms: s.quantum_ms,
            warnings: s.warnings,
            label: path.display().to_string(),
        });
    }
    let (Some(tp), Some(wp), Some(pp)) = (topology, workload, policy) else {
        eprintln!("--topology, --workload and --policy go together");
        return Err(UNREADABLE);
    };
    let topology = experiment::load_topology(&Disk, tp).map_err(load_error)?;
    let workload = experiment::load_workload(&Disk, wp).map_err(load_error)?;
    let (policy, policy_warnings) = experiment::load_policy(&Disk, pp).map_err(load_error)?;
    let mut warnings: Vec<Diagnostic> = policy_warnings
        .into_iter()
        .map(|d| d.in_file(&pp.display().to_string()))
        .collect();
    let carbon = match carbon {
        Some(cp) => Some(experiment::load_carbon(&Disk, cp).map_err(load_error)?),
        None => {
            let (carbon, w) = experiment::referenced_carbon(&Disk, &topology, tp);
            warnings.extend(w);
            carbon
        }
    };
    Ok(Loaded {
        label: format!("{} on {}", wp.display(), tp.display()),
        topology,
        workload,
        carbon,
        policy,
        seed: 0,
        quantum_ms: policy_playground::sim::DEFAULT_QUANTUM_MS,
        warnings,
    })
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

/// Runs one job, with a progress bar on stderr once it has taken more than a second.
fn simulate_with_progress(
    job: &Job,
    options: Options,
) -> (SimResult, Option<policy_playground::sim::TaskExplanation>) {
    let started = Instant::now();
    let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {percent}% ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(job.label.clone());
    let mut shown = false;
    let mut sim = Simulation::new(job.scenario, options);
    while !sim.step(4096) {
        if !shown && started.elapsed() > Duration::from_secs(1) {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            shown = true;
        }
        bar.set_position((sim.progress() * 1000.0) as u64);
    }
    bar.finish_and_clear();
    let explanation = sim.explanation().cloned();
    (sim.finish(), explanation)
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

fn run_experiment(path: &Path, args: &Args, options: Options) -> Result<(), Exit> {
    let exp = experiment::load(&Disk, path).map_err(load_error)?;
    if !args.json {
        print_diagnostics(None, &exp.warnings);
    }
    let mut rows: Vec<(String, &experiment::Run, SimResult)> = Vec::new();
    for run in &exp.runs {
        let (tl, topology, carbon) = &exp.topologies[run.topology];
        let (wl, workload) = &exp.workloads[run.workload];
        let policy = &exp.policies[run.policy];
        let seed = args.seed.map_or(run.seed, |s| s + run.run as u64);
        let label = format!(
            "{wl} on {tl}, policy {} run {} (seed {seed})",
            run.policy + 1,
            run.run + 1
        );
        let job = Job {
            label: label.clone(),
            scenario: Scenario {
                topology,
                workload,
                carbon: carbon.as_ref(),
                policy,
                seed,
                quantum_ms: args
                    .quantum_ms
                    .unwrap_or(policy_playground::sim::DEFAULT_QUANTUM_MS),
            },
        };
        let (result, _) = simulate_with_progress(&job, options.clone());
        rows.push((label, run, result));
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
