//! `policy-playground sweep`: one policy setting given several values, each run under several
//! seeds ([`policy_playground::sweep`]), printed as a table of means with their ranges, or as
//! JSON.

use super::inputs::{load_inputs, InputArgs};
use super::simulate::emit;
use super::{print_diagnostics, Exit, INVALID, UNREADABLE};
use policy_playground::engine::Semantics;
use policy_playground::policy::expand;
use policy_playground::request::SWEEPABLE_OPTIONS;
use policy_playground::sim::metric_catalog;
use policy_playground::sweep::{self, SweepReport, SweepSpec};
use serde_json::Value;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;

/// The inputs of `sweep`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub inputs: InputArgs,
    /// The setting to vary: a JSON Pointer into the policy's explicit form (`expand` prints it),
    /// such as /filters/1/allocationRatio or /subsetSize. Without it, only the seeds vary;
    /// `--parameter list` prints the settings. Twice: a 2-D sweep (the first across, the
    /// second down), each with its own --values.
    #[arg(long)]
    pub parameter: Vec<String>,
    /// The values, comma-separated (numbers, true, false); one --values per --parameter.
    #[arg(long, allow_hyphen_values = true)]
    pub values: Vec<String>,
    /// The metric a 2-D sweep's table shows (a key of the metrics catalog; default energyJ).
    #[arg(long)]
    pub metric: Option<String>,
    /// Runs per value, with seeds from --seed on (default 1).
    #[arg(long)]
    pub seeds: Option<u32>,
    /// The first seed (default: the scenario's, else 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Scheduling quantum in ms (default: the scenario's, else 1000).
    #[arg(long = "quantum-ms")]
    pub quantum_ms: Option<i64>,
    /// classic or current (SPEC 11.12); default: the scenario's, else classic.
    #[arg(long)]
    pub semantics: Option<Semantics>,
    /// Print the whole report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Print every run as CSV: the value, the seed, then every metric.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Write the output to FILE instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `sweep`.
pub fn run(args: Args) -> Result<(), Exit> {
    if args.inputs.scenario.is_some()
        == (args.inputs.topology.is_some() || args.inputs.policy.is_some())
    {
        eprintln!("sweep: give --scenario FILE, or --topology FILE --workload PATH --policy FILE");
        return Err(UNREADABLE);
    }
    let loaded = load_inputs(&args.inputs)?;
    let policy = &loaded.file.policy;
    if args.parameter.len() == 2 {
        return super::sweep_grid::run(&args, &loaded);
    }
    if args.parameter.len() > 2 {
        eprintln!("sweep: one --parameter, or two for a 2-D sweep");
        return Err(UNREADABLE);
    }
    if args.parameter.first().map(String::as_str) == Some("list") {
        let mut text = String::new();
        for (pointer, value) in sweep::settings(&expand::to_json(policy)) {
            let _ = writeln!(text, "{pointer} = {value}");
        }
        return emit(&args.out, text.trim_end());
    }
    let values = parse_values(&args.values)?;
    let spec = SweepSpec {
        parameter: args.parameter.first().cloned().unwrap_or_default(),
        values,
        seeds: args.seeds,
    };
    // One request for every run: only its policy and seed change.
    let mut request = loaded.request(args.seed, args.quantum_ms);
    if let Some(semantics) = args.semantics {
        request.options.semantics = semantics;
    }
    if let Err(ds) = request.options.sim_options(None) {
        print_diagnostics(None, &ds);
        return Err(UNREADABLE);
    }
    let (points, seeds) = sweep::plan(policy, &spec, request.options.seed).map_err(|ds| {
        print_diagnostics(None, &ds);
        INVALID
    })?;
    print_diagnostics(None, &request.warnings);
    let total = points.len() * seeds.len();
    let show = total > 1 && std::io::stderr().is_terminal();
    let report = sweep::run(
        &spec.parameter,
        points,
        seeds,
        sweep::side_by_side(|policy, value, seed| {
            let mut run = request.clone();
            run.policy = policy;
            run.options.seed = seed;
            if SWEEPABLE_OPTIONS.contains(&spec.parameter.as_str()) {
                // Checked by the plan: a refused value never gets here.
                run.options = run
                    .options
                    .with_option(&spec.parameter, value)
                    .unwrap_or(run.options);
            }
            run.run(&mut |_| {})
                .map(|outcome| outcome.result.metrics)
                .unwrap_or_default()
        }),
        &mut |done, _| {
            if show {
                eprint!("\rsweep: {done} of {total} runs");
                if done == total {
                    eprintln!();
                }
            }
        },
    );
    let text = if args.csv {
        policy_playground::output::csv::sweep(&report)
            .trim_end()
            .to_string()
    } else if args.json {
        serde_json::to_string(&report).map_err(|e| {
            eprintln!("sweep: cannot write the report: {e}");
            INVALID
        })?
    } else {
        table(&loaded.label, &report, loaded.file.carbon.is_some())
    };
    emit(&args.out, &text)
}

/// The values of `--values` occurrences, each comma-separated, as JSON values.
pub(super) fn parse_values(items: &[String]) -> Result<Vec<Value>, Exit> {
    items
        .iter()
        .flat_map(|item| item.split(','))
        .filter(|v| !v.trim().is_empty())
        .map(|v| {
            serde_json::from_str::<Value>(v.trim()).map_err(|_| {
                eprintln!("sweep: --values: `{v}` is not a number, true or false");
                UNREADABLE
            })
        })
        .collect()
}

/// The report as a table: one row per value, each figure the mean over the seeds with its
/// range when the seeds differ.
fn table(label: &str, r: &SweepReport, carbon: bool) -> String {
    // The columns, as the metrics catalog labels and scales them.
    let mut keys = vec![
        "makespanMs",
        "meanWaitMs",
        "energyJ",
        "tasksCompleted",
        "deadlineMisses",
    ];
    if carbon {
        keys.splice(3..3, ["carbonG", "dynamicCarbonG"]);
    }
    let columns: Vec<(String, &str, f64)> = keys
        .into_iter()
        .filter_map(metric_catalog::find)
        .map(|m| {
            (
                format!("{} {}", m.label, m.unit).trim().to_string(),
                m.key,
                m.scale,
            )
        })
        .collect();
    let seeds = match r.seeds.as_slice() {
        [one] => format!("seed {one}"),
        s => format!(
            "seeds {}-{} (mean [min, max])",
            s.first().copied().unwrap_or(0),
            s.last().copied().unwrap_or(0)
        ),
    };
    let parameter = if r.parameter.is_empty() {
        "policy".to_string()
    } else {
        r.parameter.clone()
    };
    let mut rows = vec![std::iter::once(parameter)
        .chain(columns.iter().map(|c| c.0.clone()))
        .collect::<Vec<_>>()];
    for p in &r.points {
        let mut row = vec![if p.value.is_null() {
            "as given".to_string()
        } else {
            p.value.to_string()
        }];
        for (_, key, scale) in &columns {
            row.push(match p.summary.get(*key) {
                Some(Value::Object(s)) => {
                    let f = |k: &str| s.get(k).and_then(Value::as_f64).unwrap_or(f64::NAN) * scale;
                    let (mean, min, max) = (f("mean"), f("min"), f("max"));
                    if min == max {
                        fmt(mean)
                    } else {
                        format!("{} [{}, {}]", fmt(mean), fmt(min), fmt(max))
                    }
                }
                _ => "-".to_string(),
            });
        }
        rows.push(row);
    }
    let lines = super::table::aligned(&rows);
    let mut out = format!("{label}, {seeds}\n");
    for (i, line) in lines.iter().enumerate() {
        let _ = writeln!(out, "  {line}");
        if i == 0 {
            let _ = writeln!(out, "  {}", "-".repeat(super::table::width(&lines)));
        }
    }
    out.trim_end().to_string()
}

/// A figure with at most 4 significant decimals, no trailing zeros.
fn fmt(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let s = if x.abs() >= 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.3}")
    };
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}
