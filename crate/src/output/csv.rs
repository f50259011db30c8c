//! The tasks of a result as CSV, one row per task, for spreadsheets and plotting scripts (the
//! page's "Tasks (CSV)" download and `simulate --tasks-csv`). Times are simulation ms, as in the
//! JSON result; an empty cell means "none" (a task that never started has no host or start).

use crate::sim::result::{Span, TaskRecord};
use crate::sim::SimResult;

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
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // Writing to a Vec cannot fail; a failure would only lose rows, so it is not hidden either.
    let mut ok = w.write_record(TASK_COLUMNS).is_ok();
    for t in &result.tasks {
        ok &= w.write_record(row(t)).is_ok();
    }
    debug_assert!(ok, "writing CSV into memory failed");
    let bytes = w.into_inner().unwrap_or_default();
    // Every cell came from a String, so the bytes are UTF-8.
    String::from_utf8(bytes).unwrap_or_default()
}
