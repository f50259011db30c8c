//! A task during a run: where it is in its life, what it has done so far, and the fragment it
//! runs (stepping over fragments of a repeated usage at once, where the step would end without
//! that, and when the task will finish).

use super::result::Span;
use super::Scenario;
use crate::engine::Demand;
use crate::model::Workload;

/// Where a task is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// Not submitted yet.
    Pending,
    Queued,
    Running,
    Completed,
    Terminated,
}

/// A task during the run.
#[derive(Debug, Clone)]
pub(super) struct Task {
    /// Index into the workload's tasks.
    pub(super) spec: u32,
    pub(super) submit: i64,
    pub(super) deadline: Option<i64>,
    pub(super) duration: i64,
    pub(super) deferrable: bool,
    pub(super) demand: Demand,
    pub(super) remaining: i64,
    pub(super) state: State,
    pub(super) host: Option<u32>,
    pub(super) first_start: Option<i64>,
    pub(super) finish: Option<i64>,
    pub(super) skips: u32,
    pub(super) deferring_since: Option<i64>,
    /// The cycle at which the deferred task is due (SPEC 7.3): its latest start, or, when that
    /// is not after the deferral (C14's `<=`), the next multiple of the quantum after it.
    pub(super) wake: Option<i64>,
    pub(super) deferrals: Vec<Span>,
    pub(super) pause_since: Option<i64>,
    pub(super) pauses: Vec<Span>,
    pub(super) runs: Vec<(u32, i64, i64)>,
    pub(super) reason: Option<String>,
    /// Bumped at every placement, so that stale events of an earlier run are ignored.
    pub(super) generation: u32,
    pub(super) placed_seq: u64,
    /// Fragment being run (absolute index; `u32::MAX` for a task without fragments): the last
    /// of the fragments merged into one step when their usage repeats (see
    /// [`Simulation::merge`]).
    pub(super) frag: u32,
    /// The first fragment of that step.
    pub(super) frag_first: u32,
    /// The end of the task's fragment range (its spec's `fragments.end`), kept here so that a
    /// fragment boundary does not load the spec.
    pub(super) frag_stop: u32,
    /// Time the current fragment (or the task, without fragments) ends.
    pub(super) frag_end: i64,
    /// CPU usage of the current fragment, MHz.
    pub(super) usage: f64,
}

impl Task {
    /// The latest start of a deferred task in its current stay in the queue, `deadline -
    /// remaining` (SPEC 7.3): the remaining work changes only while the task runs, so a
    /// latest start computed in an earlier stay (before a pause) differs from this one.
    pub(super) fn latest_start(&self) -> Option<i64> {
        self.deadline.map(|d| d - self.remaining)
    }
}

/// Asks the CPU to bring the fragment after `frag` (its duration and usage) into the cache: the
/// task reads it at its next boundary, hundreds of instants later, and the fragment arrays are
/// far larger than the cache (surf_week: 37 MB), so without this nearly every eighth boundary
/// waits for memory. A hint only (no effect on results); nothing outside x86-64.
#[inline(always)]
pub(super) fn prefetch_next_fragment(workload: &Workload, frag: u32) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let k = frag as usize + 1;
        if let (Some(d), Some(u)) = (
            workload.fragment_duration_ms.get(k),
            workload.fragment_cpu_usage_mhz.get(k),
        ) {
            // SAFETY: SSE is part of every x86-64 CPU, and a prefetch only hints at an address
            // (of a live element here): it reads nothing into the program and never faults.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>((d as *const i64).cast());
                _mm_prefetch::<_MM_HINT_T0>((u as *const f64).cast());
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (workload, frag);
}

impl Task {
    /// Extends the current step (fragment `frag`, ending at `frag_end`) over the fragments
    /// after it with the same usage, bit for bit, up to the task's last fragment (`end` is the
    /// end of its range); returns how many boundaries it stepped over.
    #[inline]
    pub(super) fn merge_repeats(&mut self, workload: &Workload, end: u32) -> u64 {
        let usages = &workload.fragment_cpu_usage_mhz;
        let durations = &workload.fragment_duration_ms;
        let u = self.usage;
        let mut k = self.frag as usize;
        let end = end as usize;
        while k + 1 < end {
            let next = usages[k + 1];
            if next != u || next.to_bits() != u.to_bits() {
                break;
            }
            k += 1;
            self.frag_end += durations[k];
        }
        let skipped = k as u64 - u64::from(self.frag);
        self.frag = k as u32;
        skipped
    }

    /// When the running task will finish: the end of its current fragment plus the fragments
    /// after it.
    pub(super) fn frag_finish(&self, scenario: Scenario) -> i64 {
        if self.frag == u32::MAX {
            return self.frag_end;
        }
        let spec = &scenario.workload.tasks[self.spec as usize];
        let rest: i64 = scenario.workload.fragment_duration_ms
            [(self.frag + 1) as usize..spec.fragments.end as usize]
            .iter()
            .sum();
        self.frag_end + rest
    }
}
