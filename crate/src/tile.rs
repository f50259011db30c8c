//! A workload repeated in time: `copies` copies, each shifted by a fixed step, with task ids made
//! unique. This is how the benchmark builds OpenDC's half-year scale: surf_week tiled 18 times,
//! each copy a week later than the one before (113,310 tasks, 41.8 M fragments); `policy-playground
//! tile` writes such a workload as an OpenDC folder.

use crate::model::{TaskSpec, Workload};
use std::collections::HashSet;

/// `w` repeated `copies` times in time: copy `k` (0-based) has every task's submission and
/// deadline `k * shift_ms` later, the same fragments, and ids made unique. Copy 0 keeps its ids;
/// in copy `k > 0` an id that is a non-negative integer (written canonically, such as `17`, not
/// `017`) becomes `id + k * stride`, with `stride` the largest such id + 1, and any other id
/// becomes `{id}-{k}`. Names follow the same rule. The input's warnings are kept once and its
/// dropped count is counted once per copy.
///
/// Errors: `copies` is 0, a shifted time or a renumbered id does not fit in an i64, or a new id
/// is already another task's (a string id `a-1` next to `a`, or ids repeated in the input).
pub fn tile(w: &Workload, copies: u32, shift_ms: i64) -> Result<Workload, String> {
    if copies == 0 {
        return Err("tile: copies must be at least 1, got 0".to_string());
    }
    let stride = w
        .tasks
        .iter()
        .filter_map(|t| integer_id(&t.id))
        .max()
        .map_or(0, |max| max + 1);
    let mut out = Workload {
        dropped: w.dropped.saturating_mul(copies as u64),
        warnings: w.warnings.clone(),
        ..Workload::default()
    };
    let mut seen: HashSet<String> = w.tasks.iter().map(|t| t.id.clone()).collect();
    for k in 0..copies {
        for task in &w.tasks {
            let copy = if k == 0 {
                task.clone()
            } else {
                shifted(task, k, stride, shift_ms)?
            };
            if k > 0 && !seen.insert(copy.id.clone()) {
                return Err(format!(
                    "tile: copy {k} of task `{}` would get the id `{}`, which another task has",
                    task.id, copy.id
                ));
            }
            out.push_task(copy, w.task_fragments(task));
        }
    }
    Ok(out)
}

/// The id as a non-negative integer when it is one written canonically.
fn integer_id(id: &str) -> Option<i64> {
    id.parse::<i64>()
        .ok()
        .filter(|&n| n >= 0 && n.to_string() == id)
}

/// Copy `k` of `task`: renamed and `k * shift_ms` later (its fragment range is set when pushed).
fn shifted(task: &TaskSpec, k: u32, stride: i64, shift_ms: i64) -> Result<TaskSpec, String> {
    let overflow = |what: &str| {
        format!(
            "tile: copy {k} of task `{}`: its {what} does not fit in an i64",
            task.id
        )
    };
    let offset = shift_ms
        .checked_mul(k as i64)
        .ok_or_else(|| overflow("shift"))?;
    let later = |t: i64, what: &str| t.checked_add(offset).ok_or_else(|| overflow(what));
    Ok(TaskSpec {
        id: renamed(&task.id, k, stride).ok_or_else(|| overflow("id"))?,
        name: renamed(&task.name, k, stride).ok_or_else(|| overflow("name"))?,
        submission_ms: later(task.submission_ms, "submission time")?,
        deadline_ms: match task.deadline_ms {
            Some(d) => Some(later(d, "deadline")?),
            None => None,
        },
        ..task.clone()
    })
}

/// `text` in copy `k`: an integer plus `k * stride`, anything else with `-k` appended; `None`
/// on overflow.
fn renamed(text: &str, k: u32, stride: i64) -> Option<String> {
    match integer_id(text) {
        Some(n) => stride
            .checked_mul(k as i64)
            .and_then(|o| n.checked_add(o))
            .map(|n| n.to_string()),
        None => Some(format!("{text}-{k}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str, submission_ms: i64, deadline_ms: Option<i64>) -> TaskSpec {
        TaskSpec {
            id: id.to_string(),
            name: id.to_string(),
            submission_ms,
            duration_ms: 0,
            cpu_count: 1,
            cpu_capacity_mhz: 1000.0,
            memory_mib: 512,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable: deadline_ms.is_some(),
            deadline_ms,
            fragments: 0..0,
        }
    }

    /// Tasks `4` (two fragments, a deadline) and `9` (one fragment).
    fn two_tasks() -> Workload {
        let mut w = Workload::default();
        let mut a = task("4", 1_000, Some(50_000));
        a.duration_ms = 300;
        w.push_task(a, [(100, 500.0), (200, 750.0)]);
        let mut b = task("9", 2_500, None);
        b.duration_ms = 60;
        w.push_task(b, [(60, 1200.0)]);
        w
    }

    fn fragments(w: &Workload, t: usize) -> Vec<(i64, f64)> {
        w.task_fragments(&w.tasks[t]).collect()
    }

    #[test]
    fn three_copies_are_shifted_renumbered_and_keep_their_fragments() {
        let w = tile(&two_tasks(), 3, 10_000).expect("tiles");
        let ids: Vec<&str> = w.tasks.iter().map(|t| t.id.as_str()).collect();
        // stride = 9 + 1: copy 1 adds 10, copy 2 adds 20.
        assert_eq!(ids, ["4", "9", "14", "19", "24", "29"]);
        let names: Vec<&str> = w.tasks.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ids);
        let submissions: Vec<i64> = w.tasks.iter().map(|t| t.submission_ms).collect();
        assert_eq!(submissions, [1_000, 2_500, 11_000, 12_500, 21_000, 22_500]);
        let deadlines: Vec<Option<i64>> = w.tasks.iter().map(|t| t.deadline_ms).collect();
        assert_eq!(
            deadlines,
            [Some(50_000), None, Some(60_000), None, Some(70_000), None]
        );
        for t in [0, 2, 4] {
            assert_eq!(fragments(&w, t), [(100, 500.0), (200, 750.0)], "task {t}");
            assert_eq!(w.tasks[t].duration_ms, 300);
        }
        for t in [1, 3, 5] {
            assert_eq!(fragments(&w, t), [(60, 1200.0)], "task {t}");
            assert_eq!(w.tasks[t].duration_ms, 60);
        }
        let all: usize = (0..6).map(|t| fragments(&w, t).len()).sum();
        assert_eq!(all, 9);
    }

    #[test]
    fn string_ids_get_the_copy_number_and_integers_the_stride() {
        let mut w = Workload::default();
        w.push_task(task("vm-a", 0, None), [(10, 1.0)]);
        w.push_task(task("007", 5, None), [(20, 2.0)]);
        w.push_task(task("2", 7, None), [(30, 3.0)]);
        let t = tile(&w, 2, 100).expect("tiles");
        let ids: Vec<&str> = t.tasks.iter().map(|t| t.id.as_str()).collect();
        // `007` is not a canonical integer: a string. The stride is 2 + 1.
        assert_eq!(ids, ["vm-a", "007", "2", "vm-a-1", "007-1", "5"]);
        assert_eq!(t.tasks[3].submission_ms, 100);
        assert_eq!(fragments(&t, 4), [(20, 2.0)]);
    }

    #[test]
    fn one_copy_is_the_workload_itself() {
        let w = two_tasks();
        assert_eq!(tile(&w, 1, 604_800_000).expect("tiles"), w);
    }

    #[test]
    fn zero_copies_overflow_and_repeated_ids_are_errors() {
        assert!(tile(&two_tasks(), 0, 1).unwrap_err().contains("at least 1"));
        let late = tile(&two_tasks(), 2, i64::MAX).unwrap_err();
        assert!(
            late.contains("copy 1 of task `4`: its submission time"),
            "{late}"
        );
        let mut w = Workload::default();
        w.push_task(task("a", 0, None), []);
        w.push_task(task("a-1", 0, None), []);
        let clash = tile(&w, 2, 1).unwrap_err();
        assert!(clash.contains("the id `a-1`"), "{clash}");
    }
}
