//! The story of one task in a run, recorded on request (`Options::explain_task`): each deferral
//! test with its regime, reference intensity and slack, each placement attempt with the
//! engine's host table, pauses and a rejection. A bulk run records nothing.

use crate::engine::explain::Placement;
use crate::engine::timeshift::Deferral;
use serde::Serialize;

/// At most this many decisions are kept in full; the rest are counted.
pub const MAX_DECISIONS: usize = 200;

/// One decision about the task.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum Decision {
    /// The time-shifting test at a cycle.
    Deferral(Deferral),
    /// An attempt to place the task, successful or not.
    Placement { time_ms: i64, placement: Placement },
    /// The task stopper paused the task.
    Pause { time_ms: i64, remaining_ms: i64 },
    /// The task fits no host even empty: terminated at submission.
    Rejection { time_ms: i64, reason: String },
}

/// Every decision about one task.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TaskExplanation {
    pub decisions: Vec<Decision>,
    /// Decisions past [`MAX_DECISIONS`], not kept.
    pub omitted: u64,
}

/// Records the decisions about `task` as the run takes them.
#[derive(Debug, Clone)]
pub struct ExplanationRecorder {
    pub task: u32,
    pub explanation: TaskExplanation,
}

impl ExplanationRecorder {
    /// A recorder for the task at index `task` of the workload.
    pub fn new(task: u32) -> Self {
        ExplanationRecorder {
            task,
            explanation: TaskExplanation::default(),
        }
    }

    fn push(&mut self, d: Decision) {
        if self.explanation.decisions.len() < MAX_DECISIONS {
            self.explanation.decisions.push(d);
        } else {
            self.explanation.omitted += 1;
        }
    }

    /// A deferral test of `task`.
    pub fn deferral(&mut self, task: u32, d: Deferral) {
        if task == self.task {
            self.push(Decision::Deferral(d));
        }
    }

    /// A placement attempt of the explained task.
    pub fn placement(&mut self, time_ms: i64, placement: Placement) {
        self.push(Decision::Placement { time_ms, placement });
    }

    /// A pause of `task`.
    pub fn paused(&mut self, task: u32, time_ms: i64, remaining_ms: i64) {
        if task == self.task {
            self.push(Decision::Pause {
                time_ms,
                remaining_ms,
            });
        }
    }

    /// The rejection of `task` at submission.
    pub fn rejected(&mut self, task: u32, time_ms: i64, reason: String) {
        if task == self.task {
            self.push(Decision::Rejection { time_ms, reason });
        }
    }
}
