//! A task in the reference run: its demand, its fragments (SPEC 6.4), and what has become of it.

use super::ref_policy::Demand;
use policy_playground::model::Workload;

/// Where a task is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Pending,
    Queued,
    Running,
    Completed,
    Terminated,
}

/// One task during the reference run. Times are simulation ms.
#[derive(Debug, Clone)]
pub struct Task {
    pub id: String,
    pub submit: i64,
    pub deadline: Option<i64>,
    pub deferrable: bool,
    /// The task's one duration (SPEC 6.4).
    pub duration: i64,
    pub demand: Demand,
    /// `(duration, usage)` of each fragment; empty: the task's `cpuCapacity` throughout.
    pub fragments: Vec<(i64, f64)>,
    pub phase: Phase,
    /// Work left when it last stopped (its whole duration before its first start).
    pub remaining: i64,
    pub host: Option<usize>,
    /// Start of the current run.
    pub since: i64,
    /// Placement sequence number of the latest placement.
    pub seq: u64,
    /// CPU usage now, MHz (while running).
    pub usage: f64,
    pub first_start: Option<i64>,
    pub finish: Option<i64>,
    pub skips: u32,
    pub deferring_since: Option<i64>,
    pub deferrals: Vec<(i64, i64)>,
    pub paused_since: Option<i64>,
    pub pauses: Vec<(i64, i64)>,
    pub runs: Vec<(usize, i64, i64)>,
}

impl Task {
    /// The tasks of a workload, with `epoch` as time 0.
    pub fn all(workload: &Workload, epoch: i64) -> Vec<Task> {
        workload
            .tasks
            .iter()
            .map(|t| {
                let fragments = workload.task_fragments(t).collect();
                Task {
                    id: t.id.clone(),
                    submit: t.submission_ms - epoch,
                    deadline: t.deadline_ms.map(|d| d - epoch),
                    deferrable: t.deferrable,
                    duration: t.duration_ms,
                    demand: Demand {
                        cpu_count: t.cpu_count,
                        cpu_capacity: t.cpu_capacity_mhz,
                        memory: t.memory_mib,
                        gpu_count: t.gpu_count,
                    },
                    fragments,
                    phase: Phase::Pending,
                    remaining: t.duration_ms,
                    host: None,
                    since: 0,
                    seq: 0,
                    usage: 0.0,
                    first_start: None,
                    finish: None,
                    skips: 0,
                    deferring_since: None,
                    deferrals: vec![],
                    paused_since: None,
                    pauses: vec![],
                    runs: vec![],
                }
            })
            .collect()
    }

    /// Work done at `t` (while running).
    pub fn progress(&self, t: i64) -> i64 {
        self.duration - self.remaining + (t - self.since)
    }

    /// Work left at `t` (while running).
    pub fn remaining_at(&self, t: i64) -> i64 {
        self.duration - self.progress(t)
    }

    /// The CPU usage with `done` ms of work done: the fragment holding that point (a fragment
    /// of zero length never holds one), the last one at the very end.
    pub fn usage_at(&self, done: i64) -> f64 {
        if self.fragments.is_empty() {
            return self.demand.cpu_capacity;
        }
        let mut end = 0;
        for &(d, u) in &self.fragments {
            end += d;
            if end > done {
                return u;
            }
        }
        self.fragments[self.fragments.len() - 1].1
    }

    /// The next point after `done` where the usage may change or the task ends, in work ms.
    pub fn next_boundary(&self, done: i64) -> i64 {
        let mut end = 0;
        for &(d, _) in &self.fragments {
            end += d;
            if end > done {
                return end;
            }
        }
        self.duration
    }

    /// The latest start of a deferred task in its current stay in the queue (SPEC 7.3).
    pub fn latest_start(&self) -> Option<i64> {
        match (self.phase, self.deferring_since, self.deadline) {
            (Phase::Queued, Some(_), Some(d)) => Some(d - self.remaining),
            _ => None,
        }
    }

    /// True when the task has ended.
    pub fn ended(&self) -> bool {
        matches!(self.phase, Phase::Completed | Phase::Terminated)
    }
}
