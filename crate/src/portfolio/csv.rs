//! The portfolio's table as CSV, one row per policy and metric (a long table that plotting
//! scripts and spreadsheets pivot as they like): the page's "Table (CSV)" download and
//! `compare --csv`, the same bytes. Figures are in the JSON result's units (`unit`), an empty
//! cell meaning "none".

use crate::compare::Comparison;
use crate::sim::metric_catalog::{METRICS, WINDOW_METRICS};
use serde::Deserialize;

/// The header, in column order.
pub const COLUMNS: [&str; 12] = [
    "policy",
    "semantics",
    "metric",
    "view",
    "unit",
    "mean",
    "min",
    "max",
    "runs",
    "difference",
    "relativeChange",
    "best",
];

/// What the CSV is made of: a portfolio report's table and each policy's semantics (the
/// report's JSON reads as this).
#[derive(Debug, Clone, Deserialize)]
pub struct TableInput {
    pub policies: Vec<PolicyName>,
    #[serde(flatten)]
    pub comparison: Comparison,
}

/// A policy's label and semantics.
#[derive(Debug, Clone, Deserialize)]
pub struct PolicyName {
    pub label: String,
    #[serde(default)]
    pub semantics: crate::engine::Semantics,
}

/// The table as CSV text: for each policy (column order), each row of the table.
pub fn table(input: &TableInput) -> String {
    let c = &input.comparison;
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let mut ok = w.write_record(COLUMNS).is_ok();
    let number = |x: Option<f64>| x.map_or_else(String::new, |v| v.to_string());
    for (i, label) in c.labels.iter().enumerate() {
        let semantics = input.policies.get(i).map_or("classic", |p| {
            if p.semantics.is_classic() {
                "classic"
            } else {
                "current"
            }
        });
        for row in &c.rows {
            let Some(cell) = row.cells.get(i) else {
                continue;
            };
            let unit = METRICS
                .iter()
                .chain(WINDOW_METRICS)
                .find(|m| m.key == row.key)
                .map_or("", |m| m.raw_unit);
            let base = c
                .rows
                .iter()
                .find(|r| r.key == row.key)
                .and_then(|r| r.cells.get(c.baseline))
                .and_then(|b| b.value);
            let difference = cell.difference.as_ref().map(|d| d.value);
            let relative = match (difference, base) {
                (Some(d), Some(b)) if b != 0.0 => Some(d / b.abs()),
                _ => None,
            };
            let view = match row.view {
                crate::compare::RowView::Both => "both",
                crate::compare::RowView::Window => "window",
                crate::compare::RowView::PerRun => "perRun",
            };
            let record = [
                label.clone(),
                semantics.to_string(),
                row.key.clone(),
                view.to_string(),
                unit.to_string(),
                number(cell.value),
                number(cell.range.as_ref().map(|r| r.min).or(cell.value)),
                number(cell.range.as_ref().map(|r| r.max).or(cell.value)),
                cell.range
                    .as_ref()
                    .map_or(usize::from(cell.value.is_some()), |r| r.runs)
                    .to_string(),
                number(difference),
                number(relative),
                cell.best.to_string(),
            ];
            ok &= w.write_record(&record).is_ok();
        }
    }
    debug_assert!(ok, "writing CSV into memory failed");
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// A finished portfolio's table as CSV ([`table`]).
pub fn report(report: &super::PortfolioReport) -> String {
    table(&TableInput {
        policies: report
            .policies
            .iter()
            .map(|p| PolicyName {
                label: p.label.clone(),
                semantics: p.semantics,
            })
            .collect(),
        comparison: report.comparison.clone(),
    })
}
