//! The events of a kept run in time order, for the page's replay: each task's submission, its
//! placements (with the host), deferrals, pauses by the task stopper, and its finish or
//! termination, as compact columns paged by index ([`Session::replay_events`]).
//!
//! The events are read from the run's task records (the run is done again, as for
//! [`Session::explain`]), and put in the order the simulator took them. Within one instant that
//! is SPEC 6.1's order of phases: completions (in placement order), the task stopper's pauses at
//! the start of a carbon sample (in placement order), submissions (in the workload's order), then
//! the scheduling cycle's deferrals, placements and terminations in the cycle's order: deferred
//! tasks due at their latest start first, then the queue from its head. The queue keeps the
//! order in which tasks joined it (a submission, or a pause), so that order is worked out from
//! the records; `crate/tests/replay.rs` checks it against the simulator's own state at every
//! instant. A task rejected at its submission ends right after it; one that OpenDC 3's scheduler
//! refuses (Current, C13) in the cycle of its own submission is listed there too. A task that
//! finishes in the instant it started (a zero-length run) finishes after the cycle, as the
//! simulator takes it in a second pass over the same time.

use super::handles::Session;
use super::{failure, guard, Answer};
use crate::sim::result::{Span, TaskRecord};
use crate::sim::SimResult;
use serde::Serialize;
use std::collections::HashMap;

/// The most events one answer holds: a page of columns of at most a few MB of JSON.
pub const MAX_REPLAY_PAGE: u32 = 100_000;

/// What happened to a task, as a code of [`ReplayEvents::kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EventKind {
    /// The task arrived (joined the queue, or was rejected right after).
    Submission = 0,
    /// The task started (or resumed after a pause) on a host.
    Placement = 1,
    /// The time-shifting policy deferred the task to a greener hour.
    Deferral = 2,
    /// The task stopper took the running task off its host.
    Pause = 3,
    /// The task completed.
    Finish = 4,
    /// The task ended without completing (rejected, refused, or stopped at a run limit).
    Termination = 5,
}

/// The names of the kinds, by code.
pub const EVENT_KINDS: [&str; 6] = [
    "submission",
    "placement",
    "deferral",
    "pause",
    "finish",
    "termination",
];

impl EventKind {
    /// The kind's name, as [`EVENT_KINDS`] lists it.
    pub fn name(self) -> &'static str {
        EVENT_KINDS[self as usize]
    }
}

/// One event of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunEvent {
    /// Simulation ms.
    pub time_ms: i64,
    pub kind: EventKind,
    /// Index of the task in the result's `tasks`.
    pub task: u32,
    /// Index of the host in the result's `hosts`: where a placement, pause, finish (or a
    /// termination of a running task) happened.
    pub host: Option<u32>,
}

/// A page of a run's events, as columns: event `from + i` is `timeMs[i]`, `kind[i]` (a code:
/// `kinds[kind[i]]` is its name), `task[i]` (an index into the result's `tasks`) and `host[i]`
/// (an index into the result's `hosts`, or null).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ReplayEvents {
    /// Events in the whole run.
    pub total: u32,
    /// Index of this page's first event.
    pub from: u32,
    /// The name of each kind code: submission, placement, deferral, pause, finish, termination.
    pub kinds: Vec<&'static str>,
    pub time_ms: Vec<i64>,
    pub kind: Vec<u8>,
    pub task: Vec<u32>,
    pub host: Vec<Option<u32>>,
}

impl Session {
    /// Events `from` to `from + limit` (at most [`MAX_REPLAY_PAGE`]) of kept run `run`, in the
    /// order the simulator took them, by running it again. A page past the end is empty.
    pub fn replay_events(&self, run: u32, from: u32, limit: u32) -> Answer<ReplayEvents> {
        guard(|| {
            if limit == 0 || limit > MAX_REPLAY_PAGE {
                return failure(format!(
                    "`limit`: {limit} events asked; a page holds 1 to {MAX_REPLAY_PAGE}"
                ));
            }
            let inputs = match self.run_inputs(run) {
                Ok(r) => r,
                Err(errors) => return Answer::Failure { errors },
            };
            let outcome = self.simulate(
                &inputs.handles,
                &inputs.policy,
                &inputs.options,
                None,
                &mut |_| {},
            );
            let quantum = crate::request::quantum(inputs.options.quantum_ms);
            match (outcome, quantum) {
                (Err(errors), _) => Answer::Failure { errors },
                (_, Err(e)) => Answer::Failure { errors: vec![e] },
                (Ok(outcome), Ok(q)) => Answer::Success {
                    value: page(&run_events(&outcome.result, q), from, limit),
                },
            }
        })
    }

    /// [`Session::replay_events`] as JSON text.
    pub fn replay_events_json_str(&self, run: u32, from: u32, limit: u32) -> String {
        self.replay_events(run, from, limit).to_json_string()
    }
}

/// Events `from` to `from + limit` of `events`, as columns.
fn page(events: &[RunEvent], from: u32, limit: u32) -> ReplayEvents {
    let start = (from as usize).min(events.len());
    let end = start.saturating_add(limit as usize).min(events.len());
    let part = &events[start..end];
    ReplayEvents {
        total: events.len() as u32,
        from: start as u32,
        kinds: EVENT_KINDS.to_vec(),
        time_ms: part.iter().map(|e| e.time_ms).collect(),
        kind: part.iter().map(|e| e.kind as u8).collect(),
        task: part.iter().map(|e| e.task).collect(),
        host: part.iter().map(|e| e.host).collect(),
    }
}

/// The phase of an instant an event belongs to (SPEC 6.1), in order.
const COMPLETIONS: u8 = 0;
const STOPPER: u8 = 1;
const SUBMISSIONS: u8 = 2;
const CYCLE: u8 = 3;
/// A zero-length run's completion, taken in a second pass over the same time.
const AFTER_CYCLE: u8 = 4;

/// An event before its place in the instant is known: `run` is the index of the run span it
/// starts, pauses or ends.
#[derive(Debug, Clone, Copy)]
struct Raw {
    event: RunEvent,
    phase: u8,
    run: Option<usize>,
}

/// Every event of a finished run, in the order the simulator took them (see the module's
/// documentation); `quantum_ms` is the run's scheduling quantum (the cycle a deferred task is
/// due at, when its latest start has passed).
pub fn run_events(result: &SimResult, quantum_ms: i64) -> Vec<RunEvent> {
    let mut host_index: HashMap<&str, u32> = HashMap::new();
    for (i, h) in result.hosts.iter().enumerate() {
        host_index.entry(h.name.as_str()).or_insert(i as u32);
    }
    let mut raw: Vec<Raw> = Vec::new();
    for (i, t) in result.tasks.iter().enumerate() {
        task_events(i as u32, t, &host_index, &mut raw);
    }
    raw.sort_by_key(|r| (r.event.time_ms, r.phase));
    // Placement numbers of each task's runs, given instant by instant: an instant's order
    // needs only those of runs started at earlier instants.
    let mut seq: Vec<Vec<u64>> = result.tasks.iter().map(|t| vec![0; t.runs.len()]).collect();
    let mut next_seq = 0u64;
    let mut out = Vec::with_capacity(raw.len());
    let mut at = 0;
    while at < raw.len() {
        let time = raw[at].event.time_ms;
        let end = at + raw[at..].partition_point(|r| r.event.time_ms == time);
        let instant = &mut raw[at..end];
        instant.sort_by_cached_key(|r| order_key(r, &result.tasks, &seq, quantum_ms));
        for r in instant.iter() {
            if let (EventKind::Placement, Some(k)) = (r.event.kind, r.run) {
                next_seq += 1;
                seq[r.event.task as usize][k] = next_seq;
            }
            out.push(r.event);
        }
        at = end;
    }
    out
}

/// The events of task `i` (record `t`), each with its phase.
fn task_events(i: u32, t: &TaskRecord, hosts: &HashMap<&str, u32>, raw: &mut Vec<Raw>) {
    let host = |k: usize| {
        t.runs
            .get(k)
            .and_then(|r| hosts.get(r.host.as_str()).copied())
    };
    let mut push = |time_ms: i64, kind: EventKind, phase: u8, run: Option<usize>| {
        let host = run.and_then(host);
        raw.push(Raw {
            event: RunEvent {
                time_ms,
                kind,
                task: i,
                host,
            },
            phase,
            run,
        });
    };
    push(t.submit_ms, EventKind::Submission, SUBMISSIONS, None);
    for d in &t.deferrals {
        push(d.from_ms, EventKind::Deferral, CYCLE, None);
    }
    for (k, r) in t.runs.iter().enumerate() {
        push(r.from_ms, EventKind::Placement, CYCLE, Some(k));
        // A run followed by another was ended by the task stopper, and so was a last run
        // that ended before the task was terminated (paused, never resumed).
        let last = k + 1 == t.runs.len();
        if !last || (t.state != "completed" && r.to_ms < t.finish_ms) {
            push(r.to_ms, EventKind::Pause, STOPPER, Some(k));
        }
    }
    let last = t.runs.len().checked_sub(1);
    if t.state == "completed" {
        let zero_length = last.is_some_and(|k| t.runs[k].from_ms == t.runs[k].to_ms);
        let phase = if zero_length {
            AFTER_CYCLE
        } else {
            COMPLETIONS
        };
        push(t.finish_ms, EventKind::Finish, phase, last);
    } else if last.is_none() && t.finish_ms == t.submit_ms {
        // Rejected at its submission: no host could ever take it (SPEC 6.2).
        push(t.finish_ms, EventKind::Termination, SUBMISSIONS, None);
    } else {
        // Terminated while running (at a run limit): on the host it ran on.
        let running = last.filter(|&k| t.runs[k].to_ms == t.finish_ms);
        push(t.finish_ms, EventKind::Termination, CYCLE, running);
    }
}

/// Where an event falls among those of its instant and phase: completions and pauses in
/// placement order; submissions in the workload's order; the cycle's events with the deferred
/// tasks due now first, then in queue order (the order tasks joined the queue).
fn order_key(
    r: &Raw,
    tasks: &[TaskRecord],
    seq: &[Vec<u64>],
    quantum_ms: i64,
) -> (u8, u8, i64, u8, u64, u8) {
    let task = r.event.task as usize;
    let run_seq = |k: Option<usize>| k.map_or(0, |k| seq[task][k]);
    match r.phase {
        CYCLE => {
            let t = &tasks[task];
            let due =
                r.event.kind == EventKind::Placement && due_now(t, r.event.time_ms, quantum_ms);
            let (joined, how, tiebreak) = joined_queue(t, task, r.event.time_ms, seq);
            (
                CYCLE,
                u8::from(!due),
                joined,
                how,
                tiebreak,
                r.event.kind as u8,
            )
        }
        SUBMISSIONS => (SUBMISSIONS, 0, 0, 0, task as u64, r.event.kind as u8),
        phase => (phase, 0, 0, 0, run_seq(r.run), r.event.kind as u8),
    }
}

/// When task `t` (index `task`) last joined the queue at or before `time`: at its submission,
/// or when the task stopper paused it (pauses come before submissions within an instant, in
/// placement order of the runs they end). The queue keeps this order: a cycle takes tasks
/// from its head and puts back those it keeps, in order.
fn joined_queue(t: &TaskRecord, task: usize, time: i64, seq: &[Vec<u64>]) -> (i64, u8, u64) {
    let pause = t
        .pauses
        .iter()
        .filter(|p| p.from_ms <= time)
        .max_by_key(|p| p.from_ms);
    let paused_run = pause.and_then(|p| t.runs.iter().position(|r| r.to_ms == p.from_ms));
    match (pause, paused_run) {
        (Some(p), Some(k)) => (p.from_ms, STOPPER, seq[task][k]),
        _ => (t.submit_ms, SUBMISSIONS, task as u64),
    }
}

/// Whether task `t`, placed at `time`, was a deferred task due at its latest start then (the
/// cycle tries those first, SPEC 7.3): its deferral ends now, at the cycle it was due at.
fn due_now(t: &TaskRecord, time: i64, quantum_ms: i64) -> bool {
    t.deferrals
        .iter()
        .any(|d| d.to_ms == time && due_at(t, d, quantum_ms) == Some(time))
}

/// The cycle deferral `d` of task `t` was due at: its latest start, the deadline less the work
/// left when it was deferred, or, when that was not after the deferral, the next multiple of
/// the quantum after it (SPEC 7.3, C14).
fn due_at(t: &TaskRecord, d: &Span, quantum_ms: i64) -> Option<i64> {
    let done: i64 = t
        .runs
        .iter()
        .filter(|r| r.to_ms <= d.from_ms)
        .map(|r| r.to_ms - r.from_ms)
        .sum();
    let latest = t.deadline_ms? - (t.duration_ms - done);
    let q = quantum_ms.max(1);
    Some(if latest > d.from_ms {
        latest
    } else {
        (d.from_ms.div_euclid(q) + 1) * q
    })
}
