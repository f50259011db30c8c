//! The state of a run at one instant, for the page's time cursor: what runs where, the queue in
//! order with why each task waits (no host fits the head; head-of-line blocking behind it; a
//! deferral to a greener hour), so that blocking and deferral can be shown, not only told.
//!
//! A snapshot is taken by stepping a fresh run to the instant ([`Simulation::step_until`]) and
//! asking the same scheduler the run decides with, on copies of its state: looking changes
//! nothing, and it is computed on demand, so a bulk run pays nothing for it.

use super::run::Simulation;
use super::task::State;
use crate::engine::timeshift::{self, Deferral};
use crate::engine::Semantics;
use crate::format::duration;
use serde::Serialize;

/// How many queued tasks get a full reason (a host search each); the rest are listed with a
/// short one, so that a snapshot of a long queue stays cheap.
pub const DETAILED_QUEUE_ENTRIES: usize = 100;

/// The run just after the instant `time_ms` (simulation ms).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct QueueSnapshot {
    pub time_ms: i64,
    /// True when the run was over by then.
    pub ended: bool,
    pub running: Vec<RunningTask>,
    /// Queued tasks, head first (deferred ones included, where they sit in the queue).
    pub queue: Vec<QueuedTask>,
    /// Tasks not submitted yet.
    pub pending: u64,
    pub completed: u64,
    pub terminated: u64,
    /// The next scheduling cycle, if one is due.
    pub next_cycle_ms: Option<i64>,
}

/// A task running at the instant.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RunningTask {
    pub task_id: String,
    pub host: String,
    /// Start of its current run.
    pub since_ms: i64,
    pub remaining_ms: i64,
}

/// A task in the queue at the instant.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct QueuedTask {
    pub task_id: String,
    /// 0 for the head of the queue.
    pub position: usize,
    /// `waiting` or `deferred`.
    pub state: &'static str,
    /// When it joined the queue (its submission, or the end of its last run when paused).
    pub since_ms: i64,
    /// The host it would get if it were tried now (`None`: no host fits, or not looked at).
    pub fits_now: Option<String>,
    /// Why it is still in the queue, in one sentence.
    pub reason: String,
    /// The time-shifting test with its numbers, for a deferred task.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub deferral: Option<Deferral>,
}

impl Simulation<'_> {
    /// The snapshot of the current state (after [`Simulation::step_until`]).
    pub fn snapshot(&self, time_ms: i64) -> QueueSnapshot {
        let workload = self.scenario.workload;
        let policy = self.scenario.policy;
        let id = |i: usize| workload.tasks[self.tasks[i].spec as usize].id.clone();
        let mut running: Vec<(u64, RunningTask)> = Vec::new();
        let (mut pending, mut completed, mut terminated) = (0, 0, 0);
        for (i, tk) in self.tasks.iter().enumerate() {
            match tk.state {
                State::Pending => pending += 1,
                State::Completed => completed += 1,
                State::Terminated => terminated += 1,
                State::Queued => {}
                State::Running => {
                    let since = tk.runs.last().map_or(time_ms, |r| r.1);
                    running.push((
                        self.task_placed_seq(i),
                        RunningTask {
                            task_id: id(i),
                            host: tk
                                .host
                                .map_or_else(String::new, |h| self.names[h as usize].clone()),
                            since_ms: since,
                            remaining_ms: self.task_remaining_at(i, time_ms),
                        },
                    ));
                }
            }
        }
        running.sort_by_key(|(seq, _)| *seq);

        let mut scheduler = self.scheduler.clone();
        let mut rng = self.rng.clone();
        let mut queue = Vec::new();
        let mut head: Option<String> = None;
        for (position, &i) in self.queue.iter().enumerate() {
            let iu = i as usize;
            let tk = &self.tasks[iu];
            if tk.state != State::Queued {
                continue;
            }
            let since = tk
                .pauses
                .last()
                .map_or(tk.submit, |p| p.from_ms.max(tk.submit));
            if let Some(from) = tk.deferring_since {
                let d = timeshift::deferral_with(
                    self.deadline_test,
                    self.regime.as_ref(),
                    time_ms,
                    tk.duration,
                    tk.remaining,
                    tk.deferrable,
                    tk.deadline,
                );
                // The cycle it is due at: its latest start (or, under C14's `<=`, the next
                // cycle after a latest start that was already reached).
                let latest = tk
                    .wake
                    .or(tk.deadline.map(|d| d - tk.remaining))
                    .unwrap_or(time_ms);
                queue.push(QueuedTask {
                    task_id: id(iu),
                    position,
                    state: "deferred",
                    since_ms: from,
                    fits_now: None,
                    reason: format!(
                        "deferred since t = {} ({}); it starts at the latest at t = {}",
                        duration(from as f64),
                        d.reason,
                        duration(latest as f64)
                    ),
                    deferral: Some(d),
                });
                continue;
            }
            let fits_now = if queue.len() < DETAILED_QUEUE_ENTRIES {
                // A Current decision is explained as it is taken; a Classic one only when no
                // host fits.
                let explain_now = scheduler.semantics() == Semantics::Current;
                let (choice, placement) = scheduler.decide(
                    policy,
                    &self.hosts,
                    &self.names,
                    &tk.demand,
                    &mut rng,
                    explain_now,
                );
                Some(match (choice.host, choice.refusal) {
                    (Some(h), None) => Ok(self.names[h].clone()),
                    _ => Err(placement.map_or_else(
                        || {
                            scheduler
                                .explain(policy, &self.hosts, &self.names, &tk.demand, &choice)
                                .summary
                        },
                        |p| p.summary,
                    )),
                })
            } else {
                None
            };
            let reason = match (&fits_now, &head) {
                (None, _) => "further back in the queue".to_string(),
                (Some(Err(summary)), None) => format!("no host fits it now: {summary}"),
                (Some(Err(summary)), Some(_)) if policy.memorize => format!(
                    "no host fits it now ({summary}); passed over {} of {} times",
                    tk.skips, policy.max_times_skipped
                ),
                (Some(Err(summary)), Some(h)) => {
                    format!("behind the head task {h} (head-of-line blocking); no host fits it either: {summary}")
                }
                (Some(Ok(host)), None) => match self.next_cycle_at() {
                    Some(c) => format!(
                        "fits {host}; waits for the next scheduling cycle at t = {}",
                        duration(c as f64)
                    ),
                    None => format!("fits {host}; waits for the next scheduling cycle"),
                },
                (Some(Ok(host)), Some(h)) if !policy.memorize => format!(
                    "would fit {host} now, but waits behind the head task {h} (head-of-line blocking)"
                ),
                (Some(Ok(host)), Some(_)) => format!(
                    "fits {host}; waits for the next scheduling cycle behind a task passed over {} times",
                    policy.max_times_skipped
                ),
            };
            if head.is_none() {
                head = Some(id(iu));
            }
            queue.push(QueuedTask {
                task_id: id(iu),
                position,
                state: "waiting",
                since_ms: since,
                fits_now: fits_now.and_then(|f| f.ok()),
                reason,
                deferral: None,
            });
        }
        QueueSnapshot {
            time_ms,
            ended: self.done(),
            running: running.into_iter().map(|(_, r)| r).collect(),
            queue,
            pending,
            completed,
            terminated,
            next_cycle_ms: self.next_cycle_at(),
        }
    }
}
