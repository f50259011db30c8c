//! Results as CSV for spreadsheets and plotting scripts: the tasks of a run, one row per task (the
//! page's "Tasks (CSV)" download and `simulate --tasks-csv`), and a sweep, one row per run (the
//! sweep view's download and `sweep --csv`). Times are simulation ms and figures in the JSON
//! result's units; an empty cell means "none" (a task that never started has no host or start).

use crate::sim::result::{Span, TaskRecord};
use crate::sim::SimResult;
use crate::sweep::SweepReport;
use serde_json::Value;

/// The header, in column order.
pub const TASK_COLUMNS: [&str; 19] = [
    "id",
    "name",
    "state",
    "reason",
    "host",
    "submitMs",
    "startMs",
    "finishMs",
    "waitMs",
    "durationMs",
    "cpuCount",
    "memoryMib",
    "deadlineMs",
    "deadlineMissed",
    "deferrals",
    "deferralMs",
    "pauses",
    "pauseMs",
    "runHosts",
];

fn cell<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(String::new, |v| v.to_string())
}

fn row(t: &TaskRecord) -> [String; 19] {
    let total = |spans: &[Span]| spans.iter().map(|s| s.to_ms - s.from_ms).sum::<i64>();
    // As the metrics count them: a completed task that finished after its deadline.
    let missed = t
        .deadline_ms
        .filter(|_| t.state == "completed")
        .map(|d| t.finish_ms > d);
    let mut hosts: Vec<&str> = Vec::new();
    for r in &t.runs {
        if hosts.last() != Some(&r.host.as_str()) {
            hosts.push(&r.host);
        }
    }
    [
        t.id.clone(),
        t.name.clone(),
        t.state.to_string(),
        t.reason.clone().unwrap_or_default(),
        t.host.clone().unwrap_or_default(),
        t.submit_ms.to_string(),
        cell(t.start_ms),
        t.finish_ms.to_string(),
        cell(t.wait_ms),
        t.duration_ms.to_string(),
        t.cpu_count.to_string(),
        t.memory_mib.to_string(),
        cell(t.deadline_ms),
        cell(missed),
        t.deferrals.len().to_string(),
        total(&t.deferrals).to_string(),
        t.pauses.len().to_string(),
        total(&t.pauses).to_string(),
        hosts.join(";"),
    ]
}

/// Every task of `result` as CSV text with a header row (RFC 4180 quoting, `\n` line ends).
pub fn tasks(result: &SimResult) -> String {
    write(
        TASK_COLUMNS.iter().map(|c| c.to_string()).collect(),
        result.tasks.iter().map(|t| row(t).to_vec()),
    )
}

/// Every run of a sweep as CSV text: the swept setting's value (`parameter` names the column;
/// `policy` without one), the seed, then every metric by its name in the JSON result, one row
/// per run in the report's order.
pub fn sweep(report: &SweepReport) -> String {
    let metrics = |m| match serde_json::to_value(m) {
        Ok(Value::Object(o)) => o,
        _ => serde_json::Map::new(),
    };
    let keys: Vec<String> = report
        .points
        .first()
        .and_then(|p| p.runs.first())
        .map(|m| metrics(m).keys().cloned().collect())
        .unwrap_or_default();
    let first = if report.parameter.is_empty() {
        "policy".to_string()
    } else {
        report.parameter.clone()
    };
    let header = [first, "seed".to_string()]
        .into_iter()
        .chain(keys.iter().cloned())
        .collect();
    let rows = report.points.iter().flat_map(|p| {
        let value = match &p.value {
            Value::Null => String::new(),
            v => v.to_string(),
        };
        let keys = &keys;
        p.runs.iter().zip(&report.seeds).map(move |(m, seed)| {
            let o = metrics(m);
            [value.clone(), seed.to_string()]
                .into_iter()
                .chain(keys.iter().map(|k| match o.get(k) {
                    None | Some(Value::Null) => String::new(),
                    Some(v) => v.to_string(),
                }))
                .collect::<Vec<String>>()
        })
    });
    write(header, rows)
}

/// A header and rows as CSV text (RFC 4180 quoting, `\n` line ends).
fn write(header: Vec<String>, rows: impl Iterator<Item = Vec<String>>) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // Writing to a Vec cannot fail; a failure would only lose rows, so it is not hidden either.
    let mut ok = w.write_record(&header).is_ok();
    for r in rows {
        ok &= w.write_record(&r).is_ok();
    }
    debug_assert!(ok, "writing CSV into memory failed");
    let bytes = w.into_inner().unwrap_or_default();
    // Every cell came from a String, so the bytes are UTF-8.
    String::from_utf8(bytes).unwrap_or_default()
}
