//! A comparison of runs as a table a person reads: one row per metric of the catalog, one cell
//! per run with its value as text, and for every run but the baseline its difference from the
//! baseline (absolute, relative, better or worse by the metric's direction). The page's metrics
//! panel is this table for one run (no baseline to differ from) or for two (A and B); the page
//! draws it and computes nothing.
//!
//! Runs that end at different times are also compared over a common window (SPEC 7;
//! [`crate::sim::window`]): energy and carbon rows then come twice, per run and over the window,
//! each row saying in which view it is shown, the window being the default.

use crate::diag::Diagnostic;
use crate::format;
use crate::request::RunRequest;
use crate::sim::metric_catalog::{by_key, Better, MetricInfo, METRICS, WINDOW_METRICS};
use crate::sim::result::Metrics;
use crate::sim::window::window_figures;
use crate::sim::window::WindowFigures;
use serde::Serialize;
use serde_json::{Map, Value};

/// One run in a comparison: its label, its metrics and its figures over the common window.
#[derive(Debug, Clone)]
pub struct ComparedRun<'a> {
    pub label: String,
    pub metrics: &'a Metrics,
    pub window: WindowFigures,
}

/// The comparison table.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
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
}

/// A difference from the baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    Better,
    Worse,
    Same,
    /// The metric has no better direction (a count that describes the run).
    Neither,
}

/// The table of `runs` against `runs[baseline]` (clamped to the runs given).
pub fn compare(runs: &[ComparedRun], baseline: usize) -> Comparison {
    let baseline = baseline.min(runs.len().saturating_sub(1));
    let window_end_ms = runs
        .iter()
        .map(|r| r.window.window_end_ms)
        .max()
        .unwrap_or(0);
    let windowed = runs.iter().any(|r| r.metrics.makespan_ms != window_end_ms);
    let values: Vec<Map<String, Value>> = runs.iter().map(figures).collect();
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
        labels: runs.iter().map(|r| r.label.clone()).collect(),
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
    let window_end = runs
        .iter()
        .map(|r| r.metrics.makespan_ms)
        .max()
        .unwrap_or(0);
    let mut compared = Vec::with_capacity(runs.len());
    for run in runs {
        let topology = run.request.topology()?;
        let window = window_figures(
            &topology,
            run.request.inputs.carbon,
            run.metrics,
            run.start_epoch_ms,
            window_end,
        );
        compared.push(ComparedRun {
            label: run.label.clone(),
            metrics: run.metrics,
            window,
        });
    }
    Ok(compare(&compared, baseline))
}

/// A run's figures by key: its metrics and its window figures, as one JSON object.
fn figures(run: &ComparedRun) -> Map<String, Value> {
    let mut map = by_key(run.metrics);
    map.extend(by_key(&run.window));
    map
}

/// The row of metric `m` over every run's figures.
fn row(
    m: &MetricInfo,
    view: RowView,
    values: &[Map<String, Value>],
    baseline: usize,
) -> ComparisonRow {
    let raw: Vec<Option<f64>> = values
        .iter()
        .map(|v| v.get(m.key).and_then(Value::as_f64))
        .collect();
    let base = raw.get(baseline).copied().flatten();
    let cells = raw
        .iter()
        .enumerate()
        .map(|(i, &value)| ComparisonCell {
            value,
            text: value.map_or_else(|| "—".to_string(), |v| shown(m, v)),
            difference: match (base, value) {
                (Some(a), Some(b)) if i != baseline => Some(difference(m, a, b)),
                _ => None,
            },
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
