//! A sweep of two settings at once: every value of one against every value of the other, each
//! cell run under the same seeds, drawn as a heat map of one metric (with the Pareto front of
//! two metrics over its cells). Each setting is what a one-setting sweep takes
//! ([`crate::sweep`]): a JSON Pointer into the policy's explicit form, or a run option; each
//! cell's policy is the policy with both values written in, checked as any policy is, so a
//! cell is exactly the run one would make by hand with that policy.

use crate::diag::Diagnostic;
use crate::policy::Policy;
use crate::request::{RunOptions, SWEEPABLE_OPTIONS};
use crate::sim::result::Metrics;
use crate::sweep::{self, SweepPoint, SweepSpec, MAX_RUNS};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One setting of a 2-D sweep and its values.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Axis {
    /// A JSON Pointer into the policy's explicit form, or a run option's name.
    pub parameter: String,
    pub values: Vec<Value>,
}

/// What a 2-D sweep varies.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GridSpec {
    /// The setting along the columns.
    pub x: Axis,
    /// The setting along the rows.
    pub y: Axis,
    /// Seeds per cell: the run's seed and the ones after it (default 1).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub seeds: Option<u32>,
}

/// A finished 2-D sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct GridReport {
    pub x: Axis,
    pub y: Axis,
    pub seeds: Vec<u64>,
    /// Row by row: the cell of `y.values[r]` and `x.values[c]` is `cells[r * x.values.len() +
    /// c]`, its `value` being `[x value, y value]`.
    pub cells: Vec<SweepPoint>,
}

/// The cells of a 2-D sweep (row by row, each with `[x value, y value]` and the policy that
/// has both) and the seeds, every value checked before anything runs.
pub fn plan(
    policy: &Policy,
    spec: &GridSpec,
    first_seed: u64,
) -> Result<sweep::Plan, Vec<Diagnostic>> {
    let (x, y) = (&spec.x, &spec.y);
    if x.parameter.is_empty() || y.parameter.is_empty() {
        return Err(vec![Diagnostic::error(
            "",
            "a 2-D sweep needs two settings, each with its values",
        )]);
    }
    if x.parameter == y.parameter {
        return Err(vec![Diagnostic::error(
            "y.parameter",
            format!(
                "both settings are `{}`: choose two different ones",
                x.parameter
            ),
        )]);
    }
    let seeds = spec.seeds.unwrap_or(1).max(1) as usize;
    let runs = x
        .values
        .len()
        .saturating_mul(y.values.len())
        .saturating_mul(seeds);
    if runs > MAX_RUNS {
        return Err(vec![Diagnostic::error(
            "",
            format!(
                "{} x {} values x {seeds} seeds is {runs} runs; a sweep makes at most {MAX_RUNS}",
                x.values.len(),
                y.values.len()
            ),
        )]);
    }
    let along = |p: &Policy, axis: &Axis, seeds: Option<u32>, name: &str| {
        let one = SweepSpec {
            parameter: axis.parameter.clone(),
            values: axis.values.clone(),
            seeds,
        };
        sweep::plan(p, &one, first_seed)
            .map_err(|ds| ds.into_iter().map(|d| d.under(name)).collect::<Vec<_>>())
    };
    let (columns, seeds) = along(policy, x, spec.seeds, "x")?;
    let mut rows: Vec<Vec<(Value, Policy)>> =
        vec![Vec::with_capacity(columns.len()); y.values.len()];
    for (vx, px) in &columns {
        let (cells, _) = along(px, y, None, "y")?;
        for (r, (vy, p)) in cells.into_iter().enumerate() {
            rows[r].push((Value::Array(vec![vx.clone(), vy]), p));
        }
    }
    Ok((rows.into_iter().flatten().collect(), seeds))
}

/// The run options of a cell: `options` with the cell's values of any run-option setting
/// ([`SWEEPABLE_OPTIONS`]) set (checked by [`plan`]: a refused value never gets here).
pub fn cell_options(spec: &GridSpec, value: &Value, options: &RunOptions) -> RunOptions {
    let mut o = options.clone();
    for (axis, v) in [(&spec.x, &value[0]), (&spec.y, &value[1])] {
        if SWEEPABLE_OPTIONS.contains(&axis.parameter.as_str()) {
            o = o.with_option(&axis.parameter, v).unwrap_or(o);
        }
    }
    o
}

/// Runs a planned 2-D sweep: `run` gives the runs' metrics (`run(policy, [x value, y value],
/// seed)` each, [`sweep::Runs`]);
/// `progress(done, total)` after each run.
pub fn run(
    spec: &GridSpec,
    (cells, seeds): sweep::Plan,
    run: impl sweep::Runs,
    progress: &mut dyn FnMut(usize, usize),
) -> GridReport {
    let parameter = format!("{} x {}", spec.x.parameter, spec.y.parameter);
    let report = sweep::run(&parameter, cells, seeds, run, progress);
    GridReport {
        x: spec.x.clone(),
        y: spec.y.clone(),
        seeds: report.seeds,
        cells: report.points,
    }
}

/// Every run of a 2-D sweep as CSV text: the two settings' values (the columns named by their
/// settings), the seed, then every metric by its name in the JSON result; row by row, each
/// cell's seeds in order (`sweep --csv` with two settings, and the page's download).
pub fn csv(report: &GridReport) -> String {
    let metrics = |m: &Metrics| crate::sim::metric_catalog::by_key(m);
    let keys: Vec<String> = report
        .cells
        .first()
        .and_then(|c| c.runs.first())
        .map(|m| metrics(m).keys().cloned().collect())
        .unwrap_or_default();
    let mut w = ::csv::WriterBuilder::new()
        .terminator(::csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let header = [
        report.x.parameter.clone(),
        report.y.parameter.clone(),
        "seed".into(),
    ]
    .into_iter()
    .chain(keys.iter().cloned());
    let mut ok = w.write_record(header.collect::<Vec<String>>()).is_ok();
    for cell in &report.cells {
        for (m, seed) in cell.runs.iter().zip(&report.seeds) {
            let o = metrics(m);
            let row = [
                cell.value[0].to_string(),
                cell.value[1].to_string(),
                seed.to_string(),
            ]
            .into_iter()
            .chain(keys.iter().map(|k| match o.get(k) {
                None | Some(Value::Null) => String::new(),
                Some(v) => v.to_string(),
            }));
            ok &= w.write_record(row.collect::<Vec<String>>()).is_ok();
        }
    }
    debug_assert!(ok, "writing CSV into memory failed");
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::policy_from_text;
    use serde_json::json;

    fn spec(x: &str, xs: Vec<Value>, y: &str, ys: Vec<Value>) -> GridSpec {
        GridSpec {
            x: Axis {
                parameter: x.into(),
                values: xs,
            },
            y: Axis {
                parameter: y.into(),
                values: ys,
            },
            seeds: Some(2),
        }
    }

    #[test]
    fn cells_hold_both_values_row_by_row() {
        let (p, _) = policy_from_text(r#"{"type": "prefab", "policyName": "Mem"}"#).unwrap();
        let s = spec(
            "/subsetSize",
            vec![json!(1), json!(2), json!(3)],
            "/weighers/0/multiplier",
            vec![json!(1.0), json!(-1.0)],
        );
        let (cells, seeds) = plan(&p, &s, 4).expect("a plan");
        assert_eq!(seeds, vec![4, 5]);
        let values: Vec<&Value> = cells.iter().map(|c| &c.0).collect();
        assert_eq!(
            values,
            [
                &json!([1, 1.0]),
                &json!([2, 1.0]),
                &json!([3, 1.0]),
                &json!([1, -1.0]),
                &json!([2, -1.0]),
                &json!([3, -1.0])
            ]
        );
        assert_eq!(cells[4].1.subset_size, 2);
        assert_eq!(cells[4].1.weighers[0].multiplier, -1.0);
    }

    #[test]
    fn bad_grids_say_which_setting() {
        let (p, _) = policy_from_text(r#"{"type": "prefab", "policyName": "Mem"}"#).unwrap();
        let e = plan(
            &p,
            &spec("/subsetSize", vec![json!(1)], "/subsetSize", vec![json!(2)]),
            0,
        )
        .unwrap_err();
        assert!(e[0].message.contains("two different"), "{}", e[0].message);
        let e = plan(
            &p,
            &spec(
                "/subsetSize",
                vec![json!(1)],
                "/weighers/0/multiplier",
                vec![json!("x")],
            ),
            0,
        )
        .unwrap_err();
        assert!(e[0].path.starts_with("y."), "{}", e[0].path);
        let many: Vec<Value> = (1..=40).map(Value::from).collect();
        let e = plan(
            &p,
            &spec("/subsetSize", many.clone(), "/weighers/0/multiplier", many),
            0,
        )
        .unwrap_err();
        assert!(e[0].message.contains("3200 runs"), "{}", e[0].message);
    }
}
