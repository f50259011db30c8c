//! Workloads (SPEC 10): an OpenDC folder (`tasks.parquet` + `fragments.parquet`), a JSON
//! document `{"tasks": [...]}` or a CSV file, all producing a [`Workload`] with tasks in input
//! order and fragments stored flat.
//!
//! A task's duration is the sum of its fragments (SPEC 6.4); a task without fragments runs its
//! `duration` at its `cpuCapacity` (JSON and CSV) or, in parquet, is dropped with a warning that
//! counts such tasks, as OpenDC does. Task memory from parquet is `round(mem_capacity / 1000)`
//! MiB. Every problem names the file, the row (0-based, as in the file) and the column, and says
//! what was expected; after 50 errors the rest are counted.

use super::parquet::{Column, Table};
use super::problems::{suggest, Problems};
use super::time;
use crate::diag::{has_errors, Diagnostic};
use crate::model::{TaskSpec, Workload};
use serde_json::Value;
use std::collections::HashMap;

const TASKS: &str = "tasks.parquet";
const FRAGMENTS: &str = "fragments.parquet";

/// Reads an OpenDC workload from the bytes of its two parquet files.
pub fn read_parquet_workload(tasks: &[u8], fragments: &[u8]) -> Result<Workload, Vec<Diagnostic>> {
    let t = Table::open(tasks, TASKS).map_err(|d| vec![d])?;
    let f = Table::open(fragments, FRAGMENTS).map_err(|d| vec![d])?;
    // The fragments file's columns are most of the decoding: two on another thread natively.
    let ((frag_int_ids, frag_duration), (frag_usage, gpu_usage)) = both(
        || (f.integer_column("id"), f.integer_column("duration")),
        || (f.number_column("cpu_usage"), f.number_column("gpu_usage")),
    );
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
    // Integer ids are kept as integers (surf_week has 2.3 M fragments); strings otherwise.
    let frag_ids = match frag_int_ids {
        Ok(Some(ints)) => Some(Ids::Int(ints)),
        _ => col(
            f.require_column("id", "int32 or string", f.string_column("id")),
            &mut errors,
        )
        .map(Ids::Str),
    };
    let frag_duration = col(
        f.require_column("duration", "int64 ms", frag_duration),
        &mut errors,
    );
    let frag_usage = col(
        f.require_column("cpu_usage", "double MHz", frag_usage),
        &mut errors,
    );
    let gpu_usage = col(gpu_usage, &mut errors).flatten();
    let (
        Some(ids),
        Some(submission),
        Some(cpu_count),
        Some(cpu_capacity),
        Some(mem),
        Some(frag_ids),
        Some(frag_duration),
        Some(frag_usage),
    ) = (
        ids,
        submission,
        cpu_count,
        cpu_capacity,
        mem,
        frag_ids,
        frag_duration,
        frag_usage,
    )
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

    // Group the fragments by task, keeping file order within a task (counting sort). Integer
    // ids (OpenDC's int32) are matched as integers: surf_week has 2.3 M fragments.
    let int_index: HashMap<i64, u32> = match &frag_ids {
        Ids::Int(_) => tasks
            .iter()
            .enumerate()
            .filter_map(|(k, task)| task.id.parse::<i64>().ok().map(|id| (id, k as u32)))
            .collect(),
        Ids::Str(_) => HashMap::new(),
    };
    // The common case first: integer ids, no nulls and every value valid (one branch-free pass
    // per column). Then the fragments are grouped by their runs of equal ids (OpenDC writes a
    // task's fragments together, not always in task order), with no owner per fragment.
    let runs = match &frag_ids {
        Ids::Int(ints) if ints.present.is_none() && all_valid(&frag_duration, &frag_usage) => {
            id_runs(&ints.values, &int_index)
        }
        _ => None,
    };
    let (counts, orphans, layout) = match runs {
        Some(runs) => {
            let mut counts = vec![0u32; tasks.len() + 1];
            for r in &runs {
                counts[r.task as usize + 1] += r.len;
            }
            prefix_sums(&mut counts);
            (counts, 0, Layout::Runs(runs))
        }
        None => {
            let (owner, orphans) = owners(
                &mut p,
                &frag_ids,
                &index,
                &int_index,
                &frag_duration,
                &frag_usage,
            );
            let mut counts = vec![0u32; tasks.len() + 1];
            for &o in &owner {
                if o != u32::MAX {
                    counts[o as usize + 1] += 1;
                }
            }
            prefix_sums(&mut counts);
            (counts, orphans, Layout::Owners(owner))
        }
    };
    if orphans > 0 {
        p.warn(
            "fragments.id",
            format!("{FRAGMENTS}: {orphans} fragments name no task of {TASKS} and are ignored"),
        );
    }
    if gpu_usage.as_ref().is_some_and(|g| g.any(|u| u != 0.0)) {
        p.warn(
            "fragments.gpu_usage",
            format!("{FRAGMENTS}: GPU usage is read but not modelled (GPU power is out of scope)"),
        );
    }
    if p.has_errors() {
        return Err(p.into_diagnostics());
    }
    let total = counts[tasks.len()] as usize;
    // Fragments already grouped in task order (OpenDC writes them so): the grouping is the
    // identity and the decoded columns are the arrays.
    let in_order = orphans == 0
        && match &layout {
            Layout::Runs(runs) => runs.windows(2).all(|w| w[0].task <= w[1].task),
            Layout::Owners(owner) => owner.windows(2).all(|w| w[0] <= w[1]),
        };
    let (durations, usages) = match (in_order, frag_duration, frag_usage, layout) {
        (
            true,
            Column {
                values: d,
                present: None,
            },
            Column {
                values: u,
                present: None,
            },
            _,
        ) => (d, u),
        (_, frag_duration, frag_usage, Layout::Runs(mut runs)) => {
            // Each run is a block of one task's fragments: in task order (stable, so file order
            // within a task), the blocks are the arrays. The ids' buffer (as many i64) takes
            // the durations and the durations' buffer the usages' bits, so that regrouping
            // touches no fresh memory (page faults are most of the cost of fresh memory).
            runs.sort_by_key(|r| r.task);
            let rows = |r: &Run| r.start as usize..(r.start + r.len) as usize;
            let mut durations = match frag_ids {
                Ids::Int(ids) => ids.values,
                Ids::Str(_) => Vec::new(),
            };
            durations.clear();
            for r in &runs {
                durations.extend_from_slice(&frag_duration.values[rows(r)]);
            }
            let mut bits = frag_duration.values;
            bits.clear();
            for r in &runs {
                bits.extend(
                    frag_usage.values[rows(r)]
                        .iter()
                        .map(|u| u.to_bits() as i64),
                );
            }
            drop(frag_usage);
            // Same size and alignment: collected in place.
            let usages: Vec<f64> = bits.into_iter().map(|b| f64::from_bits(b as u64)).collect();
            (durations, usages)
        }
        (_, frag_duration, frag_usage, Layout::Owners(owner)) => {
            let mut durations = vec![0i64; total];
            let mut usages = vec![0f64; total];
            let mut next = counts.clone();
            for (row, &o) in owner.iter().enumerate() {
                if o != u32::MAX {
                    let k = next[o as usize] as usize;
                    durations[k] = frag_duration.get(row).unwrap_or(0);
                    usages[k] = frag_usage.get(row).unwrap_or(0.0);
                    next[o as usize] += 1;
                }
            }
            (durations, usages)
        }
    };
    let mut w = Workload {
        fragment_duration_ms: durations,
        fragment_cpu_usage_mhz: usages,
        ..Workload::default()
    };
    let (mut dropped, mut zero, mut disagree) = (0u64, 0u64, 0u64);
    for (i, mut task) in tasks.into_iter().enumerate() {
        let range = counts[i]..counts[i + 1];
        if range.is_empty() {
            dropped += 1;
            continue;
        }
        let sum: i64 = w.fragment_duration_ms[range.start as usize..range.end as usize]
            .iter()
            .sum();
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

/// True when no fragment duration or CPU usage is null, negative or (for usages) not finite:
/// the per-row checks of [`owners`] would find nothing. Branch-free, so that it vectorises.
fn all_valid(durations: &Column<i64>, usages: &Column<f64>) -> bool {
    if durations.present.is_some() || usages.present.is_some() {
        return false;
    }
    let bad_duration = durations.values.iter().fold(false, |bad, &d| bad | (d < 0));
    let bad_usage = usages
        .values
        .iter()
        .fold(false, |bad, u| bad | !(0.0..=f64::MAX).contains(u));
    !bad_duration && !bad_usage
}

/// A run of consecutive fragment rows of one task.
struct Run {
    task: u32,
    start: u32,
    len: u32,
}

/// How the fragment rows map to tasks: by runs of equal ids, or one owner per row.
enum Layout {
    Runs(Vec<Run>),
    /// `u32::MAX` for a row of no task.
    Owners(Vec<u32>),
}

/// The runs of equal integer fragment ids (no nulls), each with its task; `None` when some id
/// names no task (the per-row path then counts the orphans).
fn id_runs(ids: &[i64], index: &HashMap<i64, u32>) -> Option<Vec<Run>> {
    let mut runs = Vec::new();
    let mut row = 0;
    while row < ids.len() {
        let id = ids[row];
        let len = ids[row..].iter().take_while(|&&x| x == id).count();
        runs.push(Run {
            task: *index.get(&id)?,
            start: row as u32,
            len: len as u32,
        });
        row += len;
    }
    Some(runs)
}

/// Turns per-task counts (shifted by one) into the start of each task's range.
fn prefix_sums(counts: &mut [u32]) {
    for i in 1..counts.len() {
        counts[i] += counts[i - 1];
    }
}

/// The owning task of every fragment row (`u32::MAX` for a null id or one naming no task) and
/// how many are orphans, with an error for every invalid duration or CPU usage.
fn owners(
    p: &mut Problems,
    frag_ids: &Ids,
    index: &HashMap<&str, u32>,
    int_index: &HashMap<i64, u32>,
    frag_duration: &Column<i64>,
    frag_usage: &Column<f64>,
) -> (Vec<u32>, u64) {
    let mut owner: Vec<u32> = Vec::with_capacity(frag_ids.len());
    let mut orphans = 0u64;
    let mut last_int: Option<(i64, u32)> = None;
    let mut last: Option<(&str, u32)> = None;
    for row in 0..frag_ids.len() {
        let task = match frag_ids {
            Ids::Int(ints) => match (ints.get(row), last_int) {
                (Some(id), Some((last_id, t))) if id == last_id => Some(t),
                (Some(id), _) => int_index
                    .get(&id)
                    .copied()
                    .inspect(|&t| last_int = Some((id, t))),
                (None, _) => None,
            },
            Ids::Str(strs) => match (strs.get_ref(row).map(String::as_str), last) {
                (Some(id), Some((last_id, t))) if id == last_id => Some(t),
                (Some(id), _) => index.get(id).copied().inspect(|&t| last = Some((id, t))),
                (None, _) => None,
            },
        };
        match task {
            Some(t) => owner.push(t),
            None => {
                orphans += 1;
                owner.push(u32::MAX);
            }
        }
        let at = |column: &str| format!("{FRAGMENTS} row {row}, column `{column}`");
        match frag_duration.get(row) {
            Some(d) if d >= 0 => {}
            other => p.error(
                format!("fragments[{row}].duration"),
                format!(
                    "{}: {}, expected an integer >= 0 (ms)",
                    at("duration"),
                    show(other)
                ),
            ),
        }
        finite_nonneg(
            p,
            frag_usage.get(row),
            || at("cpu_usage"),
            || format!("fragments[{row}].cpu_usage"),
        );
    }
    (owner, orphans)
}

/// `(a(), b())`, natively with `a` on a scoped thread of its own while `b` runs here (in
/// order when no thread can be made); in wasm, one after the other.
fn both<A: Send, B>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B) -> (A, B) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        // `a` stays here until the thread takes it, so that it still runs if none can be made.
        let a = std::sync::Mutex::new(Some(a));
        let take = || a.lock().ok().and_then(|mut a| a.take());
        std::thread::scope(|s| {
            let spawned = std::thread::Builder::new().spawn_scoped(s, || take().map(|a| a()));
            let b = b();
            let done = spawned.ok().and_then(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e))
            });
            let a = done.or_else(|| take().map(|a| a()));
            (a.expect("`a` runs once, here or on its thread"), b)
        })
    }
    #[cfg(target_arch = "wasm32")]
    {
        (a(), b())
    }
}

/// A fragments file's task ids, as integers when the column is an integer column.
enum Ids {
    Int(Column<i64>),
    Str(Column<String>),
}

impl Ids {
    fn len(&self) -> usize {
        match self {
            Ids::Int(v) => v.len(),
            Ids::Str(v) => v.len(),
        }
    }
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

/// The fields of a JSON or CSV task.
pub const TASK_FIELDS: [&str; 12] = [
    "id",
    "name",
    "submissionTime",
    "duration",
    "cpuCount",
    "cpuCapacity",
    "memory",
    "gpuCount",
    "gpuCapacity",
    "deferrable",
    "deadline",
    "fragments",
];

/// Reads a JSON workload `{"tasks": [...]}` from text; problems are placed at their line and
/// column.
pub fn read_json_workload(text: &str) -> Result<Workload, Vec<Diagnostic>> {
    let value = super::json_text::parse(text, "the workload").map_err(|d| vec![d])?;
    let (w, p) = walk_json(&value);
    finish(w, super::json_text::place(text, p.into_anchored()))
}

/// Reads a JSON workload already parsed (a scenario file embeds one). Paths are relative to it.
pub fn workload_from_value(value: &Value) -> Result<Workload, Vec<Diagnostic>> {
    let (w, p) = walk_json(value);
    finish(w, p.into_diagnostics())
}

fn finish(w: Workload, diagnostics: Vec<Diagnostic>) -> Result<Workload, Vec<Diagnostic>> {
    if has_errors(&diagnostics) {
        Err(diagnostics)
    } else {
        Ok(Workload {
            warnings: diagnostics,
            ..w
        })
    }
}

fn walk_json(value: &Value) -> (Workload, Problems) {
    let mut p = Problems::new();
    let Some(tasks) = value.get("tasks").and_then(Value::as_array) else {
        p.error("tasks", "a workload must be an object {\"tasks\": [...]}");
        return (Workload::default(), p);
    };
    if let Some(obj) = value.as_object() {
        for k in obj.keys().filter(|k| *k != "tasks") {
            p.error_at_key(k.clone(), super::problems::unknown_key(k, &["tasks"]));
        }
    }
    let mut w = Workload::default();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut disagree = 0;
    for (i, t) in tasks.iter().enumerate() {
        let path = |f: &str| format!("tasks[{i}].{f}");
        let Some(obj) = t.as_object() else {
            p.error(
                format!("tasks[{i}]"),
                format!("task {i}: expected an object, found {t}"),
            );
            continue;
        };
        for k in obj.keys() {
            if !TASK_FIELDS.contains(&k.as_str()) {
                p.error_at_key(
                    path(k),
                    format!(
                        "task {i}: {}",
                        super::problems::unknown_key(k, &TASK_FIELDS)
                    ),
                );
            }
        }
        let field = |f: &str| obj.get(f).filter(|v| !v.is_null());
        let id = match field("id") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) if n.is_i64() || n.is_u64() => n.to_string(),
            other => {
                p.error(
                    path("id"),
                    format!(
                        "task {i}: `id` must be a string or an integer, found {}",
                        other.map_or("nothing".into(), |v| v.to_string())
                    ),
                );
                continue;
            }
        };
        if let Some(first) = seen.insert(id.clone(), i) {
            p.error(
                path("id"),
                format!("task {i}: the id `{id}` is also task {first}'s"),
            );
        }
        let name = match field("name") {
            None => id.clone(),
            Some(Value::String(s)) => s.clone(),
            Some(v) => {
                p.error(
                    path("name"),
                    format!("task {i}: `name` must be a string, found {v}"),
                );
                id.clone()
            }
        };
        let submit = match field("submissionTime").map(time::parse_time_value) {
            Some(Ok(t)) => t,
            Some(Err(e)) => {
                p.error(
                    path("submissionTime"),
                    format!("task {i}: `submissionTime`: {e}"),
                );
                0
            }
            None => {
                p.error(
                    path("submissionTime"),
                    format!("task {i}: missing `submissionTime` ({})", time::FORMS),
                );
                0
            }
        };
        let int = |p: &mut Problems, f: &str, min: i64, default: Option<i64>| -> i64 {
            match field(f) {
                None => default.unwrap_or_else(|| {
                    p.error(
                        path(f),
                        format!("task {i}: missing `{f}` (an integer >= {min})"),
                    );
                    min
                }),
                Some(v) => match v.as_i64() {
                    Some(x) if x >= min => x,
                    _ => {
                        p.error(
                            path(f),
                            format!("task {i}: `{f}` must be an integer >= {min}, found {v}"),
                        );
                        min
                    }
                },
            }
        };
        let num = |p: &mut Problems, f: &str, default: Option<f64>| -> f64 {
            match field(f) {
                None => default.unwrap_or_else(|| {
                    p.error(path(f), format!("task {i}: missing `{f}` (a number >= 0)"));
                    0.0
                }),
                Some(v) => match v.as_f64() {
                    Some(x) if x.is_finite() && x >= 0.0 => x,
                    _ => {
                        p.error(
                            path(f),
                            format!("task {i}: `{f}` must be a finite number >= 0, found {v}"),
                        );
                        0.0
                    }
                },
            }
        };
        let cpu_count = int(&mut p, "cpuCount", 1, None).min(u32::MAX as i64) as u32;
        let cpu_capacity = num(&mut p, "cpuCapacity", None);
        let memory = int(&mut p, "memory", 0, None);
        let gpu_count = int(&mut p, "gpuCount", 0, Some(0)).min(u32::MAX as i64) as u32;
        let gpu_capacity = num(&mut p, "gpuCapacity", Some(0.0));
        let deferrable = match field("deferrable") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                p.error(
                    path("deferrable"),
                    format!("task {i}: `deferrable` must be true or false, found {v}"),
                );
                false
            }
        };
        let deadline = match field("deadline") {
            None => None,
            Some(Value::Number(n)) if n.as_i64() == Some(-1) => None,
            Some(v) => match time::parse_time_value(v) {
                Ok(d) if d >= submit => Some(d),
                Ok(d) => {
                    p.error(path("deadline"), format!("task {i}: the deadline {d} is before the submission {submit} (use -1 for none)"));
                    None
                }
                Err(e) => {
                    p.error(path("deadline"), format!("task {i}: `deadline`: {e}"));
                    None
                }
            },
        };
        let start = w.fragment_duration_ms.len() as u32;
        if let Some(f) = field("fragments") {
            read_fragments(&mut p, &mut w, f, i);
        }
        let end = w.fragment_duration_ms.len() as u32;
        let sum: i64 = w.fragment_duration_ms[start as usize..].iter().sum();
        let duration = if end > start {
            if let Some(d) = field("duration").and_then(Value::as_i64) {
                if d != sum {
                    disagree += 1;
                }
            }
            if sum < 1 {
                p.error(
                    path("fragments"),
                    format!("task {i}: its fragments last 0 ms in all, expected at least 1"),
                );
            }
            sum
        } else {
            int(&mut p, "duration", 1, None)
        };
        w.tasks.push(TaskSpec {
            id,
            name,
            submission_ms: submit,
            duration_ms: duration,
            cpu_count,
            cpu_capacity_mhz: cpu_capacity,
            memory_mib: memory,
            gpu_count,
            gpu_capacity_mhz: gpu_capacity,
            deferrable,
            deadline_ms: deadline,
            fragments: start..end,
        });
    }
    if disagree > 0 {
        p.warn("tasks", format!("{disagree} tasks have a `duration` that differs from the sum of their fragments; the fragments win"));
    }
    let undated = w
        .tasks
        .iter()
        .filter(|t| t.deferrable && t.deadline_ms.is_none())
        .count();
    if undated > 0 {
        p.warn(
            "tasks",
            format!(
                "{undated} deferrable tasks have no deadline: they are never deferred (SPEC 7.2)"
            ),
        );
    }
    (w, p)
}

fn read_fragments(p: &mut Problems, w: &mut Workload, f: &Value, i: usize) {
    let path = format!("tasks[{i}].fragments");
    let mut push = |p: &mut Problems, k: usize, d: Option<&Value>, u: Option<&Value>| {
        let duration = d.and_then(Value::as_i64).filter(|d| *d >= 0);
        let usage = u
            .and_then(Value::as_f64)
            .filter(|u| u.is_finite() && *u >= 0.0);
        match (duration, usage) {
            (Some(d), Some(u)) => {
                w.fragment_duration_ms.push(d);
                w.fragment_cpu_usage_mhz.push(u);
            }
            _ => p.error(
                format!("{path}[{k}]"),
                format!("task {i}, fragment {k}: expected `duration` (an integer >= 0, ms) and `cpuUsage` (a number >= 0, MHz)"),
            ),
        }
    };
    match f {
        Value::Array(items) => {
            for (k, item) in items.iter().enumerate() {
                if let Some(obj) = item.as_object() {
                    for key in obj.keys().filter(|k| *k != "duration" && *k != "cpuUsage") {
                        let hint = suggest(key, &["duration", "cpuUsage"]).map_or(String::new(), |s| format!(" (did you mean `{s}`?)"));
                        p.error_at_key(format!("{path}[{k}].{key}"), format!("task {i}, fragment {k}: unknown key `{key}`{hint}"));
                    }
                }
                push(p, k, item.get("duration"), item.get("cpuUsage"));
            }
        }
        Value::Object(obj) => {
            let (Some(Value::Array(d)), Some(Value::Array(u))) = (obj.get("duration"), obj.get("cpuUsage")) else {
                p.error(path, format!("task {i}: compact fragments must be {{\"duration\": [...], \"cpuUsage\": [...]}}"));
                return;
            };
            if d.len() != u.len() {
                p.error(path, format!("task {i}: {} fragment durations but {} CPU usages", d.len(), u.len()));
                return;
            }
            for k in 0..d.len() {
                push(p, k, d.get(k), u.get(k));
            }
        }
        other => p.error(path, format!("task {i}: `fragments` must be a list or {{\"duration\", \"cpuUsage\"}}, found {other}")),
    }
}

/// Reads a CSV workload: a header row of [`TASK_FIELDS`] names (all but `fragments`), one task
/// per row. Rows are numbered from 1 at the header.
pub fn read_csv_workload(text: &str) -> Result<Workload, Vec<Diagnostic>> {
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| {
            vec![Diagnostic::error("", format!("the CSV header cannot be read: {e}")).at(1, 1)]
        })?
        .clone();
    let csv_fields = &TASK_FIELDS[..11];
    let mut errors = Vec::new();
    // A misspelt column is one error, which names the column it was probably meant to be; that
    // column is then not also reported missing.
    let mut meant = Vec::new();
    for (c, h) in headers.iter().enumerate() {
        if !csv_fields.contains(&h) {
            let expected = match suggest(h, csv_fields).filter(|s| !headers.iter().any(|x| x == *s))
            {
                Some(s) => {
                    meant.push(s);
                    format!("did you mean `{s}`?")
                }
                None => format!("expected some of {}", csv_fields.join(", ")),
            };
            errors.push(
                Diagnostic::error(
                    h,
                    format!("row 1, column {}: unknown column `{h}`; {expected}", c + 1),
                )
                .at(1, 1),
            );
        }
    }
    for required in [
        "id",
        "submissionTime",
        "cpuCount",
        "cpuCapacity",
        "memory",
        "duration",
    ] {
        if !headers.iter().any(|h| h == required) && !meant.contains(&required) {
            errors.push(
                Diagnostic::error(required, format!("row 1: missing the column `{required}`"))
                    .at(1, 1),
            );
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut tasks = Vec::new();
    for (r, record) in reader.records().enumerate() {
        let row = r + 2;
        let record = record.map_err(|e| {
            vec![Diagnostic::error("", format!("row {row}: {e}")).at(row as u32, 1)]
        })?;
        let mut task = serde_json::Map::new();
        for (h, v) in headers.iter().zip(record.iter()) {
            if v.is_empty() {
                continue;
            }
            let value = match h {
                "id" | "name" => Value::String(v.to_string()),
                "deferrable" => match v.to_ascii_lowercase().as_str() {
                    "true" | "1" => Value::Bool(true),
                    "false" | "0" => Value::Bool(false),
                    _ => Value::String(v.to_string()),
                },
                _ => v
                    .parse::<i64>()
                    .map(Value::from)
                    .or_else(|_| {
                        v.parse::<f64>().map(|x| {
                            serde_json::Number::from_f64(x)
                                .map_or(Value::String(v.to_string()), Value::Number)
                        })
                    })
                    .unwrap_or_else(|_| Value::String(v.to_string())),
            };
            task.insert(h.to_string(), value);
        }
        tasks.push(Value::Object(task));
    }
    workload_from_value(&serde_json::json!({ "tasks": tasks })).map_err(|ds| {
        ds.into_iter()
            .map(|mut d| {
                if let Some(i) = d
                    .path
                    .strip_prefix("tasks[")
                    .and_then(|r| r.split(']').next())
                    .and_then(|n| n.parse::<usize>().ok())
                {
                    d.message = format!("row {}: {}", i + 2, d.message);
                    d.line = Some(i as u32 + 2);
                }
                d
            })
            .collect()
    })
}
