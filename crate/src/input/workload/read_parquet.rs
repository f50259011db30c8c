//! OpenDC's workload folder: `tasks.parquet` and `fragments.parquet`, decoded column-wise, the
//! fragments grouped by task.

use crate::diag::Diagnostic;
use crate::input::parquet::{Column, Table};
use crate::input::problems::Problems;
use crate::model::{TaskSpec, Workload};
use std::collections::HashMap;

const TASKS: &str = "tasks.parquet";
const FRAGMENTS: &str = "fragments.parquet";

/// Reads an OpenDC workload from the bytes of its two parquet files.
pub fn read_parquet_workload(tasks: &[u8], fragments: &[u8]) -> Result<Workload, Vec<Diagnostic>> {
    let t = Table::open(tasks, TASKS).map_err(|d| vec![d])?;
    let f = Table::open(fragments, FRAGMENTS).map_err(|d| vec![d])?;
    read_tables(&t, &f)
}

/// Reads an OpenDC workload from its two files opened (each perhaps limited to some of its
/// rows: [`super::select_parquet`]).
pub(super) fn read_tables(t: &Table, f: &Table) -> Result<Workload, Vec<Diagnostic>> {
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
