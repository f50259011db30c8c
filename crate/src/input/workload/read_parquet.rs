//! OpenDC's workload folder: `tasks.parquet` decoded column-wise, `fragments.parquet` read a
//! batch at a time into runs grouped by task ([`super::parquet_fragments`]).

use super::parquet_fragments::{self as frags, Columns, TaskIds};
use crate::diag::Diagnostic;
use crate::input::parquet::Table;
use crate::input::problems::Problems;
use crate::model::{Fragments, TaskSpec, Workload};
use std::collections::HashMap;
use std::ops::Range;

const TASKS: &str = "tasks.parquet";
pub(super) const FRAGMENTS: &str = "fragments.parquet";

/// Reads an OpenDC workload from the bytes of its two parquet files.
pub fn read_parquet_workload(tasks: &[u8], fragments: &[u8]) -> Result<Workload, Vec<Diagnostic>> {
    let t = Table::open(tasks, TASKS).map_err(|d| vec![d])?;
    let f = Table::open(fragments, FRAGMENTS).map_err(|d| vec![d])?;
    read_tables(&t, &f)
}

/// Reads an OpenDC workload from its two files opened (each perhaps limited to some of its
/// rows: [`super::select_parquet`]).
pub(super) fn read_tables(t: &Table, f: &Table) -> Result<Workload, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let ids = col(
        t.require_column("id", "int32 or string", t.string_column("id")),
        &mut errors,
    );
    let submission = col(
        t.require_column(
            "submission_time",
            "int64 ms or timestamp",
            t.integer_column("submission_time"),
        ),
        &mut errors,
    );
    let duration = col(t.integer_column("duration"), &mut errors).flatten();
    let cpu_count = col(
        t.require_column("cpu_count", "int32", t.integer_column("cpu_count")),
        &mut errors,
    );
    let cpu_capacity = col(
        t.require_column(
            "cpu_capacity",
            "double MHz",
            t.number_column("cpu_capacity"),
        ),
        &mut errors,
    );
    let mem = col(
        t.require_column("mem_capacity", "int64 KB", t.integer_column("mem_capacity")),
        &mut errors,
    );
    let gpu_count = col(t.integer_column("gpu_count"), &mut errors).flatten();
    let gpu_capacity = col(t.number_column("gpu_capacity"), &mut errors).flatten();
    let deferrable = col(t.boolean_column("deferrable"), &mut errors).flatten();
    let deadline = col(t.integer_column("deadline"), &mut errors).flatten();
    let nature = col(t.string_column("nature"), &mut errors).flatten();
    let tasks_fail = !errors.is_empty()
        || ids.is_none()
        || submission.is_none()
        || cpu_count.is_none()
        || cpu_capacity.is_none()
        || mem.is_none();
    let columns = Columns::open(f, &mut errors, tasks_fail);
    let (
        Some(ids),
        Some(submission),
        Some(cpu_count),
        Some(cpu_capacity),
        Some(mem),
        Some(columns),
    ) = (ids, submission, cpu_count, cpu_capacity, mem, columns)
    else {
        return Err(errors);
    };
    // An optional column of the wrong type (a string `deadline`) is an error too, not ignored.
    if !errors.is_empty() {
        return Err(errors);
    }

    let mut p = Problems::new();
    let n = ids.len();
    let mut index: HashMap<&str, u32> = HashMap::with_capacity(n);
    let mut tasks: Vec<TaskSpec> = Vec::with_capacity(n);
    for row in 0..n {
        let at = |column: &str| format!("{TASKS} row {row}, column `{column}`");
        let path = |column: &str| format!("tasks[{row}].{column}");
        let Some(id) = ids.get_ref(row).map(String::as_str) else {
            p.error(path("id"), format!("{}: null, expected an id", at("id")));
            continue;
        };
        if index.insert(id, row as u32).is_some() {
            p.error(
                path("id"),
                format!("{}: the id `{id}` appears twice", at("id")),
            );
        }
        let submit = submission.get(row).unwrap_or_else(|| {
            p.error(
                path("submission_time"),
                format!("{}: null, expected a time", at("submission_time")),
            );
            0
        });
        let cores = match cpu_count.get(row) {
            Some(c) if (1..=u32::MAX as i64).contains(&c) => c as u32,
            other => {
                p.error(
                    path("cpu_count"),
                    format!(
                        "{}: {}, expected an integer >= 1",
                        at("cpu_count"),
                        show(other)
                    ),
                );
                1
            }
        };
        let capacity = finite_nonneg(
            &mut p,
            cpu_capacity.get(row),
            || at("cpu_capacity"),
            || path("cpu_capacity"),
        );
        let memory = match mem.get(row) {
            Some(m) if m >= 0 => (m + 500) / 1000,
            other => {
                p.error(
                    path("mem_capacity"),
                    format!(
                        "{}: {}, expected an integer >= 0 (KB)",
                        at("mem_capacity"),
                        show(other)
                    ),
                );
                0
            }
        };
        let deferrable_row = deferrable
            .as_ref()
            .and_then(|d| d.get(row))
            .unwrap_or(false)
            || nature
                .as_ref()
                .and_then(|n| n.get_ref(row).map(String::as_str))
                == Some("deferrable");
        let deadline_row = match deadline.as_ref().and_then(|d| d.get(row)) {
            None | Some(-1) => None,
            Some(d) if d < submit => {
                p.error(
                    path("deadline"),
                    format!(
                        "{}: {d} is before the submission {submit} (use -1 for no deadline)",
                        at("deadline")
                    ),
                );
                None
            }
            Some(d) => Some(d),
        };
        let gpus = gpu_count.as_ref().and_then(|g| g.get(row)).unwrap_or(0);
        tasks.push(TaskSpec {
            id: id.to_string(),
            name: id.to_string(),
            submission_ms: submit,
            duration_ms: duration.as_ref().and_then(|d| d.get(row)).unwrap_or(0),
            cpu_count: cores,
            cpu_capacity_mhz: capacity,
            memory_mib: memory,
            gpu_count: gpus.clamp(0, u32::MAX as i64) as u32,
            gpu_capacity_mhz: gpu_capacity
                .as_ref()
                .and_then(|g| g.get(row))
                .unwrap_or(0.0),
            deferrable: deferrable_row,
            deadline_ms: deadline_row,
            fragments: 0..0,
        });
    }
    if t.has("parents") || t.has("children") {
        p.warn("tasks.parents", format!("{TASKS}: workflow dependencies (`parents`/`children`) are read but not modelled: every task runs as soon as it is submitted"));
    }

    // Integer ids (OpenDC's int32) are matched as integers: surf_week has 2.3 M fragments.
    let task_ids = TaskIds {
        by_text: &index,
        by_integer: tasks
            .iter()
            .enumerate()
            .filter_map(|(k, task)| task.id.parse::<i64>().ok().map(|id| (id, k as u32)))
            .collect(),
    };
    let grouped = frags::read(f, columns, &task_ids, tasks.len(), &mut p)?;
    if grouped.orphans > 0 {
        p.warn(
            "fragments.id",
            format!(
                "{FRAGMENTS}: {} fragments name no task of {TASKS} and are ignored",
                grouped.orphans
            ),
        );
    }
    if grouped.gpu_used {
        p.warn(
            "fragments.gpu_usage",
            format!("{FRAGMENTS}: GPU usage is read but not modelled (GPU power is out of scope)"),
        );
    }
    if p.has_errors() {
        return Err(p.into_diagnostics());
    }
    let mut w = Workload {
        fragments: grouped.fragments,
        ..Workload::default()
    };
    let (mut dropped, mut zero, mut disagree) = (0u64, 0u64, 0u64);
    let sums = durations(&w.fragments, &grouped.ranges);
    for ((mut task, range), sum) in tasks.into_iter().zip(grouped.ranges).zip(sums) {
        if range.is_empty() {
            dropped += 1;
            continue;
        }
        if sum == 0 {
            zero += 1;
            continue;
        }
        if duration.is_some() && task.duration_ms != sum {
            disagree += 1;
        }
        task.duration_ms = sum;
        task.fragments = range;
        w.tasks.push(task);
    }
    if dropped > 0 {
        p.warn(
            "tasks",
            format!("{dropped} tasks of {TASKS} have no fragments and are left out, as in OpenDC"),
        );
    }
    if zero > 0 {
        p.warn(
            "tasks",
            format!(
                "{zero} tasks of {TASKS} have fragments of zero total duration and are left out"
            ),
        );
    }
    if disagree > 0 {
        p.warn(
            "tasks.duration",
            format!("{disagree} tasks of {TASKS} have a `duration` that differs from the sum of their fragments; the fragments win (SPEC 9.9)"),
        );
    }
    w.dropped = dropped + zero;
    w.warnings = p.into_warnings();
    Ok(w)
}

/// The fewest fragments whose tasks' durations are summed on two cores (below, the thread costs
/// about what it saves).
const SUMS_BESIDE_MIN_FRAGMENTS: u64 = 1 << 20;

/// The total duration of each range's fragments (`i64::MAX` past it): a pass over every run, on
/// two cores for a large workload (the half-year scale's 21 M runs: about 25 ms on one).
fn durations(fragments: &Fragments, ranges: &[Range<u32>]) -> Vec<i64> {
    let beside = fragments.len() >= SUMS_BESIDE_MIN_FRAGMENTS;
    crate::parallel::map_in_halves(ranges.len(), beside, |k| fragments.duration(&ranges[k]))
}

/// The value of a column read, or `None` with its error recorded.
fn col<T>(r: Result<T, Diagnostic>, errors: &mut Vec<Diagnostic>) -> Option<T> {
    r.map_err(|d| errors.push(d)).ok()
}

fn show<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or("null".into(), |v| v.to_string())
}

/// The value when finite and >= 0; otherwise an error at the place `at()` and `path()` name
/// (built only then: this runs for every fragment).
fn finite_nonneg(
    p: &mut Problems,
    v: Option<f64>,
    at: impl Fn() -> String,
    path: impl Fn() -> String,
) -> f64 {
    match v {
        Some(x) if x.is_finite() && x >= 0.0 => x,
        other => {
            p.error(
                path(),
                format!("{}: {}, expected a finite number >= 0", at(), show(other)),
            );
            0.0
        }
    }
}
