//! `policy-playground sweep` with two `--parameter`s: every value of the first against every
//! value of the second ([`policy_playground::portfolio::grid`]), each cell under the same
//! seeds, printed as a table of one metric (values of the first across, of the second down),
//! as JSON or as CSV (one row per run).

use super::inputs::LoadedRun;
use super::simulate::emit;
use super::sweep::{parse_values, Args};
use super::{print_diagnostics, Exit, INVALID, UNREADABLE};
use policy_playground::compare::shown;
use policy_playground::portfolio::grid::{self, Axis, GridReport, GridSpec};
use policy_playground::sim::metric_catalog;
use serde_json::Value;
use std::io::IsTerminal;

/// Runs a 2-D sweep of `loaded`'s policy.
pub fn run(args: &Args, loaded: &LoadedRun) -> Result<(), Exit> {
    if args.values.len() != 2 {
        eprintln!(
            "sweep: two --parameter need two --values, one for each ({} given)",
            args.values.len()
        );
        return Err(UNREADABLE);
    }
    let metric = args.metric.as_deref().unwrap_or("energyJ");
    let Some(m) = metric_catalog::find(metric) else {
        eprintln!("sweep: --metric {metric}: not a metric of the catalog");
        return Err(UNREADABLE);
    };
    let axis = |i: usize| -> Result<Axis, Exit> {
        Ok(Axis {
            parameter: args.parameter[i].clone(),
            values: parse_values(&args.values[i..=i])?,
        })
    };
    let spec = GridSpec {
        x: axis(0)?,
        y: axis(1)?,
        seeds: args.seeds,
    };
    let mut request = loaded.request(args.seed, args.quantum_ms);
    if let Some(semantics) = args.semantics {
        request.options.semantics = semantics;
    }
    if let Err(ds) = request.options.sim_options(None) {
        print_diagnostics(None, &ds);
        return Err(UNREADABLE);
    }
    let plan = grid::plan(&loaded.file.policy, &spec, request.options.seed).map_err(|ds| {
        print_diagnostics(None, &ds);
        INVALID
    })?;
    print_diagnostics(None, &request.warnings);
    let show = std::io::stderr().is_terminal();
    let report = grid::run(
        &spec,
        plan,
        policy_playground::sweep::side_by_side(|policy, value, seed| {
            let mut run = request.clone();
            run.policy = policy;
            run.options = grid::cell_options(&spec, value, &run.options);
            run.options.seed = seed;
            run.run(&mut |_| {})
                .map(|outcome| outcome.result.metrics)
                .unwrap_or_default()
        }),
        &mut |done, total| {
            if show && total > 1 {
                eprint!("\rsweep: {done} of {total} runs");
                if done == total {
                    eprintln!();
                }
            }
        },
    );
    let text = if args.csv {
        grid::csv(&report).trim_end().to_string()
    } else if args.json {
        serde_json::to_string(&report).map_err(|e| {
            eprintln!("sweep: cannot write the report: {e}");
            INVALID
        })?
    } else {
        table(&loaded.label, &report, m)
    };
    emit(&args.out, &text)
}

/// One metric over the grid: a row per value of the second setting, a column per value of
/// the first, each cell the mean over the seeds with its range when they differ.
fn table(label: &str, r: &GridReport, m: &metric_catalog::MetricInfo) -> String {
    let nx = r.x.values.len();
    let mut rows = vec![
        std::iter::once(format!("{} \\ {}", r.y.parameter, r.x.parameter))
            .chain(r.x.values.iter().map(Value::to_string))
            .collect::<Vec<_>>(),
    ];
    for (i, vy) in r.y.values.iter().enumerate() {
        let mut row = vec![vy.to_string()];
        for cell in &r.cells[i * nx..(i + 1) * nx] {
            let s = cell.summary.get(m.key).and_then(Value::as_object);
            let f = |k: &str| s.and_then(|s| s.get(k)).and_then(Value::as_f64);
            row.push(match (f("mean"), f("min"), f("max")) {
                (Some(mean), Some(lo), Some(hi)) if lo != hi => {
                    format!("{} [{} – {}]", shown(m, mean), shown(m, lo), shown(m, hi))
                }
                (Some(mean), ..) => shown(m, mean),
                _ => "—".to_string(),
            });
        }
        rows.push(row);
    }
    let seeds = match r.seeds.as_slice() {
        [one] => format!("seed {one}"),
        s => format!(
            "seeds {}-{}, mean [min – max]",
            s.first().copied().unwrap_or(0),
            s.last().copied().unwrap_or(0)
        ),
    };
    let mut out = format!("{label}, {} ({}), {seeds}\n", m.label, m.key);
    for line in super::table::aligned(&rows) {
        out.push_str("  ");
        out.push_str(&line);
        out.push('\n');
    }
    out.trim_end().to_string()
}
