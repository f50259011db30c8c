//! Comparing workloads whatever the layout of their fragment runs: a task's range of runs
//! depends on how a reader laid the runs out, its fragments do not.

use policy_playground::model::{TaskSpec, Workload};

/// The tasks without their ranges of fragment runs.
pub fn without_ranges(w: &Workload) -> Vec<TaskSpec> {
    let mut tasks = w.tasks.clone();
    for t in &mut tasks {
        t.fragments = 0..0;
    }
    tasks
}

/// Each task's fragments, (duration ms, usage MHz), in task order.
pub fn per_task(w: &Workload) -> Vec<Vec<(i64, f64)>> {
    w.tasks
        .iter()
        .map(|t| w.task_fragments(t).collect())
        .collect()
}
