//! A comparison of runs as a table a person reads: one row per metric of the catalog, one cell
//! per run with its value as text, and for every run but the baseline its difference from the
//! baseline (absolute, relative, better or worse by the metric's direction). The page's metrics
//! panel is this table for one run (no baseline to differ from) or for two (A and B); the page
//! draws it and computes nothing.
//!
//! Runs that end at different times are also compared over a common window (SPEC 7;
//! [`crate::sim::window`]): energy and carbon rows then come twice, per run and over the window,
//! each row saying in which view it is shown, the window being the default.
//!
//! A column may hold several runs of one policy (a portfolio's seeds, [`crate::portfolio`]):
//! its cell is then their mean, with the minimum and maximum beside it, and the difference is
//! between means. The page's A/B comparison is the two-column, one-seed case of the same table.

use crate::diag::Diagnostic;
use crate::format;
use crate::request::RunRequest;
use crate::sim::metric_catalog::{by_key, Better, MetricInfo, METRICS, WINDOW_METRICS};
use crate::sim::result::Metrics;
use crate::sim::window::window_figures;
use crate::sim::window::WindowFigures;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One run in a comparison: its label, its metrics and its figures over the common window.
#[derive(Debug, Clone)]
pub struct ComparedRun<'a> {
    pub label: String,
    pub metrics: &'a Metrics,
    pub window: WindowFigures,
}

/// One column of a comparison: a policy's runs (one per seed, at least one).
#[derive(Debug, Clone)]
pub struct ComparedColumn<'a> {
    pub label: String,
    pub runs: Vec<ComparedRun<'a>>,
}

/// The comparison table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// The runs' labels, in column order.
    pub labels: Vec<String>,
    /// The column the others are compared with.
    pub baseline: usize,
    /// The latest end of the runs compared, simulation ms.
    pub window_end_ms: i64,
    /// True when the runs end at different times: the window rows differ from the per-run rows
    /// and are shown by default.
    pub windowed: bool,
    /// What the window is, in a sentence (empty when not windowed).
    pub window_note: String,
    pub rows: Vec<ComparisonRow>,
}

/// In which view a row is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum RowView {
    /// Always.
    Both,
    /// With the figures over the common window (the default when windowed).
    Window,
    /// With each run's own figures.
    PerRun,
}

/// One metric across the runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ComparisonRow {
    pub key: String,
    pub label: String,
    pub help: String,
    /// A part of the row before it (idle energy of energy), shown indented.
    pub part: bool,
    pub view: RowView,
    /// One of the few figures shown above the table ([`HEADLINE`]).
    pub headline: bool,
    pub cells: Vec<ComparisonCell>,
}

/// The figures a comparison leads with: how long, how long tasks wait, and what it costs in
/// energy and carbon (over the common window when the runs end at different times).
pub const HEADLINE: [&str; 6] = [
    "makespanMs",
    "meanWaitMs",
    "energyJ",
    "windowEnergyJ",
    "carbonG",
    "windowCarbonG",
];

/// One run's value of a metric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ComparisonCell {
    /// The raw figure, in the result's unit (`None`: the run has none, e.g. no carbon trace).
    pub value: Option<f64>,
    /// The figure as shown (`2 h 14 min`, `1.234 kWh`, `—`).
    pub text: String,
    /// Its difference from the baseline's (`None` in the baseline's column, or when either
    /// has no value).
    pub difference: Option<Difference>,
    /// The least and greatest value over the column's runs, when it has more than one (a
    /// portfolio's seeds); `value` is then their mean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub range: Option<Range>,
    /// The best value of the row by the metric's direction (every cell that ties for it);
    /// never for a metric without a direction, nor when every value is the same.
    #[serde(default)]
    pub best: bool,
}

/// The spread of a cell over its column's runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Range {
    pub min: f64,
    pub max: f64,
    /// How many runs have a value.
    pub runs: usize,
    /// As shown: `1.2 kWh – 1.4 kWh`.
    pub text: String,
}

/// A difference from the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Difference {
    /// The raw difference, in the result's unit.
    pub value: f64,
    /// As shown: `+1.234 kWh (+7.7 %)`, `−41 s (−12 %)`, `=` for none.
    pub text: String,
    pub verdict: Verdict,
}

/// Whether a difference is an improvement, by the metric's direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    Better,
    Worse,
    Same,
    /// The metric has no better direction (a count that describes the run).
    Neither,
}

/// The table of `runs` against `runs[baseline]` (clamped to the runs given): one run per
/// column.
pub fn compare(runs: &[ComparedRun], baseline: usize) -> Comparison {
    let columns: Vec<ComparedColumn> = runs
        .iter()
        .map(|r| ComparedColumn {
            label: r.label.clone(),
            runs: vec![r.clone()],
        })
        .collect();
    compare_columns(&columns, baseline)
}

/// The table of `columns` against `columns[baseline]` (clamped): each cell the mean of its
/// column's runs, with their range when there are several.
pub fn compare_columns(columns: &[ComparedColumn], baseline: usize) -> Comparison {
    let baseline = baseline.min(columns.len().saturating_sub(1));
    let all = || columns.iter().flat_map(|c| c.runs.iter());
    let window_end_ms = all().map(|r| r.window.window_end_ms).max().unwrap_or(0);
    let windowed = all().any(|r| r.metrics.makespan_ms != window_end_ms);
    let values: Vec<Vec<Map<String, Value>>> = columns
        .iter()
        .map(|c| c.runs.iter().map(figures).collect())
        .collect();
    let mut rows = Vec::new();
    for m in METRICS {
        let twin = m
            .window
            .and_then(|k| WINDOW_METRICS.iter().find(|w| w.key == k));
        match twin.filter(|_| windowed) {
            Some(w) => {
                rows.push(row(m, RowView::PerRun, &values, baseline));
                rows.push(row(w, RowView::Window, &values, baseline));
            }
            None => rows.push(row(m, RowView::Both, &values, baseline)),
        }
    }
    let window_note = if windowed {
        format!(
            "Energy and carbon are counted from time 0 to {}, the latest end of the runs compared; a run that ends earlier has its hosts idle until then.",
            format::duration(window_end_ms as f64)
        )
    } else {
        String::new()
    };
    Comparison {
        labels: columns.iter().map(|c| c.label.clone()).collect(),
        baseline,
        window_end_ms,
        windowed,
        window_note,
        rows,
    }
}

/// A finished run to compare: its label, the request it ran (for its topology, host counts
/// applied, and its carbon trace), its metrics and its time 0 (epoch ms).
pub struct FinishedRun<'a> {
    pub label: String,
    pub request: &'a RunRequest<'a>,
    pub metrics: &'a Metrics,
    pub start_epoch_ms: i64,
}

/// Compares finished runs over their common window (the latest end of them all): the one path
/// of the command line (which has the results) and the page's session (which keeps metrics).
pub fn compare_finished(
    runs: &[FinishedRun],
    baseline: usize,
) -> Result<Comparison, Vec<Diagnostic>> {
    let columns: Vec<(String, Vec<&FinishedRun>)> =
        runs.iter().map(|r| (r.label.clone(), vec![r])).collect();
    compare_finished_columns(&columns, baseline)
}

/// [`compare_finished`] with several runs per column (a policy under several seeds): the
/// window ends at the latest end over every run of every column.
pub fn compare_finished_columns(
    columns: &[(String, Vec<&FinishedRun>)],
    baseline: usize,
) -> Result<Comparison, Vec<Diagnostic>> {
    let window_end = columns
        .iter()
        .flat_map(|(_, runs)| runs.iter().map(|r| r.metrics.makespan_ms))
        .max()
        .unwrap_or(0);
    let mut compared = Vec::with_capacity(columns.len());
    for (label, runs) in columns {
        let mut column = ComparedColumn {
            label: label.clone(),
            runs: Vec::with_capacity(runs.len()),
        };
        for run in runs {
            column.runs.push(ComparedRun {
                label: run.label.clone(),
                metrics: run.metrics,
                window: window_of(run, window_end)?,
            });
        }
        compared.push(column);
    }
    Ok(compare_columns(&compared, baseline))
}

/// A finished run's figures over a window ending at `window_end`, from the topology (host
/// counts applied) and the carbon trace it ran with (its what-ifs applied).
pub fn window_of(run: &FinishedRun, window_end: i64) -> Result<WindowFigures, Vec<Diagnostic>> {
    let topology = run.request.topology()?;
    let carbon = run.request.carbon()?;
    Ok(window_figures(
        &topology,
        carbon.as_deref(),
        run.metrics,
        run.start_epoch_ms,
        window_end,
    ))
}

/// A run's figures by key: its metrics and its window figures, as one JSON object.
fn figures(run: &ComparedRun) -> Map<String, Value> {
    let mut map = by_key(run.metrics);
    map.extend(by_key(&run.window));
    map
}

/// The row of metric `m` over every column's figures (one map per run of the column).
fn row(
    m: &MetricInfo,
    view: RowView,
    values: &[Vec<Map<String, Value>>],
    baseline: usize,
) -> ComparisonRow {
    let spreads: Vec<Option<Range>> = values.iter().map(|runs| spread(m, runs)).collect();
    let means: Vec<Option<f64>> = values.iter().map(|runs| mean(m, runs)).collect();
    let base = means.get(baseline).copied().flatten();
    let best = best_value(m, &means);
    let cells = means
        .iter()
        .zip(spreads)
        .enumerate()
        .map(|(i, (&value, range))| ComparisonCell {
            value,
            text: value.map_or_else(|| "—".to_string(), |v| shown(m, v)),
            difference: match (base, value) {
                (Some(a), Some(b)) if i != baseline => Some(difference(m, a, b)),
                _ => None,
            },
            range,
            best: best.is_some() && value == best,
        })
        .collect();
    ComparisonRow {
        key: m.key.to_string(),
        label: m.label.to_string(),
        help: m.help.to_string(),
        part: m.part,
        view,
        headline: HEADLINE.contains(&m.key),
        cells,
    }
}

/// The figures of `m` in the runs that have one, in run order.
fn present(m: &MetricInfo, runs: &[Map<String, Value>]) -> Vec<f64> {
    runs.iter()
        .filter_map(|v| v.get(m.key).and_then(Value::as_f64))
        .collect()
}

/// The mean of `m` over the runs that have it (summed in run order); `None` when none has.
pub fn mean(m: &MetricInfo, runs: &[Map<String, Value>]) -> Option<f64> {
    let xs = present(m, runs);
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// The range of `m` over a column of several runs.
fn spread(m: &MetricInfo, runs: &[Map<String, Value>]) -> Option<Range> {
    let xs = present(m, runs);
    if runs.len() < 2 || xs.is_empty() {
        return None;
    }
    let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some(Range {
        min,
        max,
        runs: xs.len(),
        text: format!("{} – {}", shown(m, min), shown(m, max)),
    })
}

/// The best of a row's values by `m`'s direction, `None` for a metric without one or a row
/// whose values are all the same (no cell is better than another).
fn best_value(m: &MetricInfo, values: &[Option<f64>]) -> Option<f64> {
    let xs: Vec<f64> = values.iter().flatten().copied().collect();
    let first = *xs.first()?;
    if xs.iter().all(|&x| x == first) {
        return None;
    }
    match m.better {
        Better::Lower => Some(xs.iter().copied().fold(f64::INFINITY, f64::min)),
        Better::Higher => Some(xs.iter().copied().fold(f64::NEG_INFINITY, f64::max)),
        Better::Neither => None,
    }
}

/// A raw figure of `m` as shown: durations in adaptive units, the rest in the catalog's unit
/// with its decimals.
pub fn shown(m: &MetricInfo, raw: f64) -> String {
    if m.raw_unit == "ms" {
        return format::duration(raw);
    }
    let text = format::number(raw * m.scale, m.decimals);
    match m.unit {
        "" => text,
        unit => format!("{text} {unit}"),
    }
}

/// The difference `b - a` of metric `m`, with its relative change and verdict.
fn difference(m: &MetricInfo, a: f64, b: f64) -> Difference {
    let d = b - a;
    let absolute = if m.raw_unit == "ms" {
        format::duration_difference(d)
    } else {
        // A difference of percentages is in percentage points.
        let unit = if m.unit == "%" { "pp" } else { m.unit };
        let text = format::number_difference(d * m.scale, m.decimals);
        if unit.is_empty() {
            text
        } else {
            format!("{text} {unit}")
        }
    };
    let text = if d == 0.0 {
        "=".to_string()
    } else {
        match format::relative_change(a, b) {
            Some(change) => format!("{absolute} ({change})"),
            None => absolute,
        }
    };
    let verdict = match m.better {
        _ if d == 0.0 => Verdict::Same,
        Better::Neither => Verdict::Neither,
        Better::Lower if d < 0.0 => Verdict::Better,
        Better::Higher if d > 0.0 => Verdict::Better,
        _ => Verdict::Worse,
    };
    Difference {
        value: d,
        text,
        verdict,
    }
}
