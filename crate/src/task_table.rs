//! A small workload as a table a person edits (the page's task table): one row per task with
//! its times as ISO-8601 text and its duration in minutes, and the workload an edited table
//! makes, read by the same reader as a JSON workload (so every rule about a task, and every
//! message, is the reader's; a row's errors name the row and its column).
//!
//! A row keeps the fragments of the task it came from (`from`, its index in the table's
//! workload). When its duration changes they are cut at the new duration (the last one kept
//! shortened) or the last is lengthened to it, so the task keeps its CPU usage over time; a new
//! row has no fragments and uses its whole capacity throughout (SPEC 6.4).

use crate::diag::Diagnostic;
use crate::model::{TaskSpec, Workload};
use serde::Serialize;
use serde_json::{json, Map, Value};

/// Most tasks the table edits: it is for small, hand-made workloads.
pub const MAX_TABLE_TASKS: usize = 1000;

const MINUTE_MS: f64 = 60_000.0;

/// One task as the table shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TaskRow {
    /// The index of the task this row came from, to keep its fragments (`null` for a new row).
    pub from: Option<u32>,
    pub id: String,
    pub name: String,
    /// ISO-8601, UTC (`2022-06-13T06:00:00Z`).
    pub submission: String,
    pub duration_minutes: f64,
    pub cpu_count: u32,
    pub cpu_capacity_mhz: f64,
    pub memory_mib: i64,
    pub deferrable: bool,
    /// ISO-8601, UTC; `null` for none.
    pub deadline: Option<String>,
    /// How many CPU-usage fragments the task has (not editable).
    pub fragments: u32,
}

/// The table of a workload: its rows, and the row "add a task" appends.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TaskTable {
    pub rows: Vec<TaskRow>,
    /// A new task: the next free integer id, submitted with the last task, one hour of one
    /// core (at the speed per core of the first task, or 2100 MHz), 1024 MiB.
    pub template: TaskRow,
}

/// The editable columns of a row, as an edit gives them.
const COLUMNS: [&str; 11] = [
    "from",
    "id",
    "name",
    "submission",
    "durationMinutes",
    "cpuCount",
    "cpuCapacityMhz",
    "memoryMib",
    "deferrable",
    "deadline",
    "fragments",
];

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `ms` since the epoch as ISO-8601 UTC (`.mmm` only when not whole seconds); as the number
/// of ms outside the years 0-9999, which ISO-8601's four digits cannot write.
pub fn iso8601(ms: i64) -> String {
    let (days, rest) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (year, month, day) = civil_from_days(days);
    if !(0..=9999).contains(&year) {
        return ms.to_string();
    }
    let (h, m, s, milli) = (
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000,
    );
    let fraction = if milli == 0 {
        String::new()
    } else {
        format!(".{milli:03}")
    };
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}{fraction}Z")
}

fn row(i: usize, t: &TaskSpec) -> TaskRow {
    TaskRow {
        from: Some(i as u32),
        id: t.id.clone(),
        name: t.name.clone(),
        submission: iso8601(t.submission_ms),
        duration_minutes: t.duration_ms as f64 / MINUTE_MS,
        cpu_count: t.cpu_count,
        cpu_capacity_mhz: t.cpu_capacity_mhz,
        memory_mib: t.memory_mib,
        deferrable: t.deferrable,
        deadline: t.deadline_ms.map(iso8601),
        fragments: t.fragments.len() as u32,
    }
}

/// The table of `w`, or an error past [`MAX_TABLE_TASKS`] saying what to do instead.
pub fn table(w: &Workload) -> Result<TaskTable, Vec<Diagnostic>> {
    if w.tasks.len() > MAX_TABLE_TASKS {
        return Err(vec![Diagnostic::error(
            "workload",
            format!(
                "the task table edits workloads of at most {MAX_TABLE_TASKS} tasks; this one has {}: take a window or a sample of it first",
                w.tasks.len()
            ),
        )]);
    }
    let rows: Vec<TaskRow> = w.tasks.iter().enumerate().map(|(i, t)| row(i, t)).collect();
    let next_id = w
        .tasks
        .iter()
        .filter_map(|t| t.id.parse::<u64>().ok())
        .max()
        .map_or(0, |n| n.saturating_add(1));
    let speed = w.tasks.first().map_or(2100.0, |t| {
        t.cpu_capacity_mhz / f64::from(t.cpu_count.max(1))
    });
    let template = TaskRow {
        from: None,
        id: next_id.to_string(),
        name: format!("task {next_id}"),
        submission: rows
            .last()
            .map_or_else(|| iso8601(0), |r| r.submission.clone()),
        duration_minutes: 60.0,
        cpu_count: 1,
        cpu_capacity_mhz: speed,
        memory_mib: 1024,
        deferrable: false,
        deadline: None,
        fragments: 0,
    };
    Ok(TaskTable { rows, template })
}

/// The workload an edited table makes: `rows_json` is the table's rows in their new order
/// (each an object of [`TaskRow`]'s columns), `base` the workload the table was made from.
/// Errors name the row and column (`rows[3].cpuCount`).
pub fn edit(base: &Workload, rows_json: &str) -> Result<Workload, Vec<Diagnostic>> {
    let rows: Vec<Map<String, Value>> = serde_json::from_str(rows_json).map_err(|e| {
        vec![Diagnostic::error(
            "rows",
            format!("the task table's rows must be an array of objects: {e}"),
        )]
    })?;
    if rows.is_empty() {
        return Err(vec![Diagnostic::error(
            "rows",
            "a workload needs at least one task",
        )]);
    }
    if rows.len() > MAX_TABLE_TASKS {
        return Err(vec![Diagnostic::error(
            "rows",
            format!(
                "the task table edits at most {MAX_TABLE_TASKS} tasks, found {}",
                rows.len()
            ),
        )]);
    }
    let mut errors = Vec::new();
    let mut tasks = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        match task_json(base, i, r) {
            Ok(task) => tasks.push(task),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    crate::input::workload::workload_from_value(&json!({ "tasks": tasks })).map_err(|ds| {
        ds.into_iter()
            .filter(|d| d.is_error())
            .map(|d| {
                let path = d.path.replacen("tasks[", "rows[", 1);
                Diagnostic::error(column_of(&path), d.message)
            })
            .collect()
    })
}

/// A reader's path (`rows[3].memory`) with the table's column name (`rows[3].memoryMib`).
fn column_of(path: &str) -> String {
    let renames = [
        (".submissionTime", ".submission"),
        (".duration", ".durationMinutes"),
        (".cpuCapacity", ".cpuCapacityMhz"),
        (".memory", ".memoryMib"),
        (".fragments", ".durationMinutes"),
    ];
    for (from, to) in renames {
        if let Some(at) = path.strip_suffix(from) {
            return format!("{at}{to}");
        }
    }
    path.to_string()
}

/// Row `i` as a JSON workload's task, with the fragments of the task it came from adjusted to
/// its duration.
fn task_json(base: &Workload, i: usize, r: &Map<String, Value>) -> Result<Value, Vec<Diagnostic>> {
    let at = |c: &str| format!("rows[{i}].{c}");
    let mut errors = Vec::new();
    for k in r.keys().filter(|k| !COLUMNS.contains(&k.as_str())) {
        errors.push(Diagnostic::error(
            at(k),
            format!(
                "row {i}: {}",
                crate::input::problems::unknown_key(k, &COLUMNS)
            ),
        ));
    }
    let get = |c: &str| r.get(c).filter(|v| !v.is_null());
    let mut task = Map::new();
    for (column, key) in [
        ("id", "id"),
        ("name", "name"),
        ("submission", "submissionTime"),
        ("cpuCount", "cpuCount"),
        ("cpuCapacityMhz", "cpuCapacity"),
        ("memoryMib", "memory"),
        ("deferrable", "deferrable"),
    ] {
        if let Some(v) = get(column) {
            task.insert(key.into(), v.clone());
        }
    }
    match get("deadline") {
        Some(Value::String(s)) if s.trim().is_empty() => {}
        Some(v) => {
            task.insert("deadline".into(), v.clone());
        }
        None => {}
    }
    let duration = match get("durationMinutes").map(|v| (v, v.as_f64())) {
        Some((_, Some(m))) if m.is_finite() => Some(libm::round(m * MINUTE_MS) as i64),
        Some((v, _)) => {
            errors.push(Diagnostic::error(
                at("durationMinutes"),
                format!("row {i}: the duration must be a number of minutes, found {v}"),
            ));
            None
        }
        None => None,
    };
    let source = match get("from") {
        None => None,
        Some(v) => match v.as_u64().and_then(|k| base.tasks.get(k as usize)) {
            Some(t) => Some(t),
            None => {
                errors.push(Diagnostic::error(
                    at("from"),
                    format!("row {i}: `from` {v} is no task of the table's workload"),
                ));
                None
            }
        },
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let fragments = source
        .filter(|t| !t.fragments.is_empty())
        .map(|t| base.task_fragments(t).unzip::<_, _, Vec<i64>, Vec<f64>>());
    match (fragments, duration) {
        (Some((d, u)), Some(ms)) if ms >= 1 => {
            let (d, u) = fit(d, u, ms);
            task.insert("fragments".into(), json!({"duration": d, "cpuUsage": u}));
        }
        (_, Some(ms)) => {
            task.insert("duration".into(), json!(ms));
        }
        (_, None) => {}
    }
    Ok(Value::Object(task))
}

/// Fragments cut at `total` ms (the last one kept shortened), or the last lengthened to it.
fn fit(mut durations: Vec<i64>, mut usages: Vec<f64>, total: i64) -> (Vec<i64>, Vec<f64>) {
    let mut sum = 0;
    for k in 0..durations.len() {
        if sum + durations[k] >= total {
            durations[k] = total - sum;
            durations.truncate(k + 1);
            usages.truncate(k + 1);
            return (durations, usages);
        }
        sum += durations[k];
    }
    if let Some(last) = durations.last_mut() {
        *last += total - sum;
    }
    (durations, usages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_iso_8601_and_back() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(1_655_100_000_000), "2022-06-13T06:00:00Z");
        assert_eq!(iso8601(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(iso8601(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(iso8601(300_000_000_000_000), "300000000000000");
        for ms in [
            0,
            1_655_100_000_000,
            951_782_400_123,
            -86_400_001,
            253_402_300_799_999,
        ] {
            assert_eq!(
                crate::input::time::parse_time_str(&iso8601(ms)),
                Ok(ms),
                "{ms}"
            );
        }
    }

    #[test]
    fn fragments_are_cut_or_lengthened_to_the_new_duration() {
        let (d, u) = (vec![5, 5, 5], vec![1.0, 2.0, 3.0]);
        assert_eq!(
            fit(d.clone(), u.clone(), 15),
            (vec![5, 5, 5], vec![1.0, 2.0, 3.0])
        );
        assert_eq!(fit(d.clone(), u.clone(), 7), (vec![5, 2], vec![1.0, 2.0]));
        assert_eq!(fit(d.clone(), u.clone(), 10), (vec![5, 5], vec![1.0, 2.0]));
        assert_eq!(fit(d, u, 21), (vec![5, 5, 11], vec![1.0, 2.0, 3.0]));
    }
}
