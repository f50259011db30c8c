//! A task during a run: where it is in its life, what it has done so far, and the fragment it
//! runs (stepping over fragments of a repeated usage at once, where the step would end without
//! that, and when the task will finish).

use super::result::Span;
use crate::engine::Demand;
use crate::model::{Piece, TaskSpec, Workload};
use std::ops::Range;

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

/// A task during the run. The fields read at every change of a running task (its generation,
/// fragment cursor, state, host and placement order) come first, in one cache line of
/// their own (`repr(C)`, aligned to 64 bytes): a change touches one line of a task's record,
/// not the three or four that the compiler's own field order spread them over (surf_week's 6,295
/// records are larger than the core's cache, the half-year scale's 113,310 larger than the last
/// level's).
#[derive(Debug, Clone)]
#[repr(C, align(64))]
pub(super) struct Task {
    /// Bumped at every placement, so that stale events of an earlier run are ignored.
    pub(super) generation: u32,
    /// Where the running task is in its fragments.
    pub(super) cursor: Cursor,
    pub(super) state: State,
    pub(super) host: Option<u32>,
    pub(super) placed_seq: u64,
    /// Index into the workload's tasks.
    pub(super) spec: u32,
    pub(super) submit: i64,
    pub(super) deadline: Option<i64>,
    pub(super) duration: i64,
    pub(super) deferrable: bool,
    pub(super) demand: Demand,
    pub(super) remaining: i64,
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
}

impl Task {
    /// The latest start of a deferred task in its current stay in the queue, `deadline -
    /// remaining` (SPEC 7.3): the remaining work changes only while the task runs, so a
    /// latest start computed in an earlier stay (before a pause) differs from this one.
    pub(super) fn latest_start(&self) -> Option<i64> {
        self.deadline.map(|d| d - self.remaining)
    }
}

/// Asks the CPU to bring the run that begins at `next` into the cache: the task reads it at its
/// next boundary, hundreds of instants later, and the runs are far larger than the cache
/// (surf_week: 5 MB), so without this many boundaries wait for memory. A hint only (no effect
/// on results); nothing outside x86-64.
#[inline(always)]
pub(super) fn prefetch_next_fragment(workload: &Workload, next: u32) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        if let Some(run) = workload.fragments.run_address(next) {
            // SAFETY: SSE is part of every x86-64 CPU, and a prefetch only hints at an address
            // (of a live element here): it reads nothing into the program and never faults.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(run.cast());
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (workload, next);
}

/// Where a running task is in its fragments, stepping from one change of usage to the next:
/// the rule of SPEC 6.3 for a task's fragments, shared by the event loop (`Task::cursor`) and by
/// the second pass of a two-pass run (`usage_replay.rs`), so that both step alike.
#[derive(Debug, Clone, Copy)]
#[repr(C)]
pub(super) struct Cursor {
    /// The fragment run being run (absolute index of a [`crate::model::Run`]; `u32::MAX` for a
    /// task without fragments): the last of the runs merged into one step when their usage
    /// repeats (see [`Simulation::merge`](super::run::Simulation)).
    pub(super) frag: u32,
    /// Where the run after `frag` begins (runs take one word or three).
    pub(super) next: u32,
    /// Fragments of run `frag` after the current one: stepped one by one without merging,
    /// taken into the step (0) with it.
    pub(super) left: u32,
    /// The end of the task's run range (its spec's `fragments.end`), kept here so that a
    /// fragment boundary does not load the spec.
    pub(super) frag_stop: u32,
    /// Time the current fragment (or the task, without fragments) ends.
    pub(super) frag_end: i64,
    /// CPU usage of the current fragment, MHz.
    pub(super) usage: f64,
}

/// What a fragment boundary was: the task's last (it completes), or a step to the next usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Boundary {
    Last,
    /// The next step began; `skipped` fragment boundaries were stepped over with it.
    Next {
        skipped: u64,
    },
}

impl Cursor {
    /// The cursor of a task before its first placement.
    pub(super) fn unplaced(frag_stop: u32) -> Self {
        Cursor {
            frag: u32::MAX,
            next: u32::MAX,
            left: 0,
            frag_stop,
            frag_end: 0,
            usage: 0.0,
        }
    }

    /// Places the task of `spec` at `t` with `remaining` of its `duration` left: its current
    /// step is the fragment holding its progress, or the whole rest as one step (at the spec's
    /// CPU capacity) for a task without fragments or when `single_step` (a run of the
    /// placements only). Returns the boundaries stepped over when `merge`.
    pub(super) fn place(
        &mut self,
        workload: &Workload,
        spec: &TaskSpec,
        remaining: i64,
        t: i64,
        merge: bool,
        single_step: bool,
    ) -> u64 {
        let done = spec.duration_ms - remaining;
        if spec.fragments.is_empty() || single_step {
            self.frag = u32::MAX;
            self.frag_end = t + remaining;
            self.usage = spec.cpu_capacity_mhz;
            return 0;
        }
        let (k, skip, offset) = progress_at(workload, &spec.fragments, done);
        let piece = self.enter_run(workload, k, skip, t + offset - done);
        if merge {
            return self.merge_repeats(workload, piece, spec.fragments.end);
        }
        prefetch_next_fragment(workload, self.next);
        0
    }

    /// The task reached the end of its current step at `t`: its last (nothing changes), or the
    /// next step begins (merged over repeated usages when `merge`).
    #[inline(always)]
    pub(super) fn cross(&mut self, workload: &Workload, t: i64, merge: bool) -> Boundary {
        if self.frag == u32::MAX || (self.left == 0 && self.next >= self.frag_stop) {
            return Boundary::Last;
        }
        if self.left > 0 {
            // The next fragment of the same run (only without merging).
            self.left -= 1;
            let f = &workload.fragments;
            self.frag_end = t + f.piece(f.run(self.frag)).duration_ms;
        } else {
            let piece = self.enter_run(workload, self.next, 0, t);
            if merge {
                let skipped = self.merge_repeats(workload, piece, self.frag_stop);
                return Boundary::Next { skipped };
            }
        }
        prefetch_next_fragment(workload, self.next);
        Boundary::Next { skipped: 0 }
    }

    /// Starts run `k` at `t`, `skip` of its fragments already done: its next fragment is the
    /// current step. Returns the run's piece.
    #[inline(always)]
    fn enter_run(&mut self, workload: &Workload, k: u32, skip: u32, t: i64) -> Piece {
        let (run, next) = workload.fragments.run_at(k);
        let piece = workload.fragments.piece(run);
        self.frag = k;
        self.next = next;
        self.left = run.count - 1 - skip;
        self.frag_end = t + piece.duration_ms;
        self.usage = piece.cpu_usage_mhz;
        piece
    }

    /// Extends the current step (a fragment of run `frag`, made of `current`, ending at
    /// `frag_end`) over the rest of its run and over the runs after it with the same usage, bit
    /// for bit, up to the task's last run (`end` is the end of its range); returns how many
    /// fragment boundaries it stepped over. No prefetch is needed after it: it has read the
    /// run after the step (unless the task has none).
    #[inline(always)]
    fn merge_repeats(&mut self, workload: &Workload, current: Piece, end: u32) -> u64 {
        let f = &workload.fragments;
        let mut skipped = u64::from(self.left);
        self.frag_end += current.duration_ms * i64::from(self.left);
        self.left = 0;
        let bits = self.usage.to_bits();
        while self.next < end {
            let (run, after) = f.run_at(self.next);
            let piece = f.piece(run);
            if piece.cpu_usage_mhz.to_bits() != bits {
                break;
            }
            self.frag = self.next;
            self.next = after;
            self.frag_end += piece.duration_ms * i64::from(run.count);
            skipped += u64::from(run.count);
        }
        skipped
    }

    /// When the running task will finish: the end of its current fragment plus the fragments
    /// after it.
    pub(super) fn frag_finish(&self, workload: &Workload) -> i64 {
        if self.frag == u32::MAX {
            return self.frag_end;
        }
        let f = &workload.fragments;
        let current = f.piece(f.run(self.frag)).duration_ms * i64::from(self.left);
        self.frag_end + current + f.duration(&(self.next..self.frag_stop))
    }
}

/// Where a task resumes after `done` ms of work over its runs `range` (not empty): the run,
/// how many of its fragments are done, and where the fragment being run began (ms of work).
/// A fragment ending exactly at `done` is done, except the task's last, which is resumed.
fn progress_at(workload: &Workload, range: &Range<u32>, done: i64) -> (u32, u32, i64) {
    let f = &workload.fragments;
    let mut offset = 0;
    let mut k = range.start;
    loop {
        let (run, next) = f.run_at(k);
        let d = f.piece(run).duration_ms;
        let last_run = next >= range.end;
        let whole = d * i64::from(run.count);
        if !last_run && offset + whole <= done {
            offset += whole;
            k = next;
            continue;
        }
        // Fragments of this run wholly done, but never past its last one.
        let skip = if d == 0 {
            run.count - 1
        } else {
            u32::try_from((done - offset) / d).map_or(run.count - 1, |j| j.min(run.count - 1))
        };
        return (k, skip, offset + d * i64::from(skip));
    }
}

#[cfg(test)]
mod tests {
    use super::{Cursor, Task};
    use std::mem::{align_of, offset_of, size_of};

    /// The fields a change of a running task reads lie in the record's first cache line.
    #[test]
    fn the_fields_of_a_change_share_the_first_cache_line() {
        assert_eq!(align_of::<Task>(), 64);
        let ends = [
            offset_of!(Task, generation) + 4,
            offset_of!(Task, cursor) + size_of::<Cursor>(),
            offset_of!(Task, state) + 1,
            offset_of!(Task, host) + 8,
            offset_of!(Task, placed_seq) + 8,
        ];
        assert!(ends.iter().all(|&end| end <= 64), "{ends:?}");
    }
}
