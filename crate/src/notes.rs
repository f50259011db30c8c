//! Notes on a run: a policy feature that cannot act on the loaded inputs, or a run in which the
//! policy could not make a difference, said with the reason and what to change.
//!
//! A note is not a warning: nothing is wrong with the inputs or the policy, but a user who
//! compares policies should know that, for example, time-shifting has nothing to defer here. The
//! page shows a run's notes beside its result; the CLI prints them under its summary. They are
//! not part of the result JSON, which stays OpenDC's figures.

use crate::model::Workload;
use crate::policy::Policy;
use crate::sim::SimResult;
use serde::Serialize;

/// One note: which feature it is about (a stable key) and what to know.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Note {
    /// `timeshift`, `taskStopper`, `subsetSize`, `weighers` or `waiting`.
    pub feature: &'static str,
    pub message: String,
}

fn note(feature: &'static str, message: String) -> Note {
    Note { feature, message }
}

/// The notes of `result`, a finished run of `policy` on `workload` (its hosts are the run's
/// topology, host counts applied).
pub fn notes(policy: &Policy, workload: &Workload, result: &SimResult) -> Vec<Note> {
    let hosts = result.hosts.len() as u64;
    let mut out = deferral_notes(policy, workload);
    if result.provenance.semantics.is_classic() || policy.timeshift.is_some() {
        out.extend(ranking_notes(policy, hosts));
    } else {
        out.extend(current_notes(policy));
    }
    out.extend(waiting_note(result, hosts));
    out
}

/// Time-shifting and the task stopper act only on deferrable tasks with a deadline (SPEC 7.2,
/// 7.4).
fn deferral_notes(policy: &Policy, workload: &Workload) -> Vec<Note> {
    let Some(timeshift) = &policy.timeshift else {
        return vec![];
    };
    if workload.tasks.iter().any(|t| t.can_be_deferred()) {
        return vec![];
    }
    let without = workload
        .tasks
        .iter()
        .filter(|t| t.deferrable_without_deadline())
        .count();
    let why = if without == 0 {
        format!(
            "none of the workload's {} tasks is deferrable",
            workload.tasks.len()
        )
    } else {
        format!(
            "{} tasks are deferrable but none has a deadline, and a task without one is never deferred",
            without
        )
    };
    let mut out = vec![note(
        "timeshift",
        format!(
            "time-shifting defers nothing here: {why}, so this run is the one without it. Load a \
             workload whose tasks are deferrable and have deadlines (OpenDC's `deferrable` and \
             `deadline` columns)"
        ),
    )];
    if timeshift.task_stopper.is_some() {
        out.push(note(
            "taskStopper",
            "the task stopper never pauses here: it pauses only deferrable tasks with a deadline"
                .into(),
        ));
    }
    out
}

/// The filter scheduler draws among the best `subsetSize` candidates (SPEC 4.4); the memorizing
/// scheduler ignores both (the policy's own warnings say so).
fn ranking_notes(policy: &Policy, hosts: u64) -> Vec<Note> {
    if policy.memorize {
        return vec![];
    }
    let mut out = vec![];
    if u64::from(policy.subset_size) > hosts && hosts > 0 {
        out.push(note(
            "subsetSize",
            format!(
                "subsetSize {} is more than the {hosts} hosts: each task is drawn among every \
                 candidate host",
                policy.subset_size
            ),
        ));
    }
    let all_tie = policy.weighers.iter().all(|w| w.multiplier == 0.0);
    if all_tie && policy.subset_size == 1 {
        let weighers = if policy.weighers.is_empty() {
            "without weighers"
        } else {
            "with every weigher's multiplier 0"
        };
        out.push(note(
            "weighers",
            format!(
                "{weighers} every candidate ties and subsetSize is 1: each task goes to the \
                 first host, in topology order, that passes the filters"
            ),
        ));
    }
    out
}

/// Under Current, OpenDC 3's filter scheduler decides (SPEC 11.12): it ignores `subsetSize` and
/// draws nothing (C10), and without weighers it takes its first candidate, a used host before an
/// empty one (C6, C9). Memorizing policies keep SPEC 6.3 (C16).
fn current_notes(policy: &Policy) -> Vec<Note> {
    if policy.memorize {
        return vec![];
    }
    let mut out = vec![];
    if policy.subset_size > 1 {
        out.push(note(
            "subsetSize",
            format!(
                "OpenDC 3 ignores subsetSize: under Current nothing is drawn, so subsetSize {}                  places every task as subsetSize 1 would. Switch to Classic to see OpenDC 2's                  random pick among the best {}",
                policy.subset_size, policy.subset_size
            ),
        ));
    }
    if policy.weighers.iter().all(|w| w.multiplier == 0.0) {
        out.push(note(
            "weighers",
            "without a weigher that counts, OpenDC 3 takes its first candidate: the used host              with the smallest key that fits, else the first empty host of the first type"
                .into(),
        ));
    }
    out
}

/// A run in which no task waited: the policy chose where tasks ran, never when.
fn waiting_note(result: &SimResult, hosts: u64) -> Option<Note> {
    let m = &result.metrics;
    // Waits are never negative: a mean of 0 is every wait 0.
    let nobody_waited = m.tasks_completed > 0 && m.mean_wait_ms == Some(0.0);
    (nobody_waited && m.deferred_tasks == 0).then(|| {
        note(
            "waiting",
            format!(
                "no task waited: the {hosts} hosts always had room, so the policy decided where \
                 tasks ran but never when, and waiting is the same under every policy. Fewer \
                 hosts (the host counts) make policies differ in waiting too"
            ),
        )
    })
}
