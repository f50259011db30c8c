//! A run in two passes: the placements first, then the hosts' usage replayed from them.
//!
//! No filter, weigher or time-shifting rule reads a host's usage, and contention never stretches
//! a task (SPEC 6.4), so a run of the placements only ([`super::Options::placements_only`])
//! places, pauses and ends every task as the full run does, about ten times faster. What it
//! leaves out (each host's usage, power, energy, carbon, utilisation and busy time, and the power
//! series) follows from where and when each task ran: this module replays it, stepping every
//! run of a task through its fragments with the event loop's own [`Cursor`] and charging the
//! hosts with its own `host_start`, `host_change` and `host_stop`, in exactly the event loop's
//! order, so that every sum is made in the same order and the result is the same bit for bit.
//!
//! That order (SPEC 6.1): by time; at one instant, the fragment boundaries and completions
//! (phase 1) in placement order, then the task stopper's pauses (phase 2) in placement order,
//! then the cycle's placements (phase 4) in placement order. The replay goes through time in
//! chunks of [`CHUNK_MS`]: it steps every run that is on a host in the chunk, in placement
//! order, collecting its changes, then sorts the chunk's changes by (time, phase) with a stable
//! radix sort (placement order stays within each), and applies them. A chunk's changes fit in
//! the core's cache, and no event queue is kept for the fragment boundaries.
//!
//! The event loop is still the reference: a run the replay cannot reproduce exactly (cut by a
//! limit, a zero-length fragment or run, whose boundaries fall at the instant of a placement,
//! or a task whose fragments do not add up to its duration) is run by the event loop instead
//! ([`Simulation::step_to_end`]); the tests compare the two on random workloads.

use super::run::Simulation;
use super::task::{Boundary, Cursor, State};
use crate::model::Workload;

/// The longest time a chunk of the replay spans, ms (about 70 minutes): a chunk's changes are
/// sorted by their time within it and phase, a 24-bit key. A chunk starts at the first change
/// due, so a stretch of time without any change costs nothing.
const CHUNK_MS: i64 = 1 << 22;

/// The most changes a chunk should hold: past this the next chunks span a quarter of the time
/// (and twice as much again once they hold under a sixteenth), so the replay's memory stays in
/// proportion to the busiest stretch of a trace, not to its length.
const DENSE_CHUNK: usize = 1 << 18;

/// The replay steps as the event loop does with merged fragments (a run that would not merge
/// is made by the event loop: `Simulation::run_to_end`).
const MERGED: bool = true;

/// The radix sort's digits: two of 12 bits cover the key.
const DIGIT_BITS: u32 = 12;

/// The event loop's phases at one instant (SPEC 6.1), as the low bits of a change's sort key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Phase {
    /// A fragment boundary or a completion.
    Boundary = 0,
    /// A pause by the task stopper.
    Pause = 1,
    /// A placement.
    Placement = 2,
}

/// One change of a host's usage, in 24 bytes (a chunk's changes are written, copied in order
/// and read once each); its place in the order is kept apart (see [`Chunks::order`]).
#[derive(Debug, Clone, Copy)]
struct Change {
    t: i64,
    /// The task's usage from `t` on (unused for a stop).
    usage: f64,
    host: u32,
    /// The task (index into the run's tasks) times 4 plus the [`ChangeKind`].
    task_kind: u32,
}

/// The most tasks a replay takes: a change holds a task's index in 30 bits. A larger workload
/// (far past the browser's limits) is run by the event loop.
const MAX_TASKS: usize = 1 << 30;

impl Change {
    fn task(&self) -> u32 {
        self.task_kind >> 2
    }

    fn kind(&self) -> ChangeKind {
        match self.task_kind & 3 {
            0 => ChangeKind::Start,
            1 => ChangeKind::Usage,
            // 2; 3 is never written (`push` writes a `ChangeKind`).
            _ => ChangeKind::Stop,
        }
    }
}

// What the replay's memory and copies were sized for.
const _: () = assert!(std::mem::size_of::<Change>() == 24);

/// What a change does to its host (`host_start`, `host_change`, `host_stop`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum ChangeKind {
    Start = 0,
    Usage = 1,
    Stop = 2,
}

/// One run of a task on a host, as the first pass left it.
#[derive(Debug, Clone, Copy)]
struct Segment {
    /// The task (index into the run's tasks and the workload's).
    task: u32,
    host: u32,
    from: i64,
    to: i64,
    /// The task's work left when the run began, ms.
    remaining: i64,
    /// Ended by the task stopper (else the task completed).
    paused: bool,
}

/// Why the replay cannot reproduce the event loop's run (the event loop makes it instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NotReplayable {
    /// The first pass was cut by a limit of [`super::Options`], the event loop could reach
    /// the instant limit (it counts instants the first pass does not have), or the workload
    /// has more tasks than a change can name ([`MAX_TASKS`]).
    Limit,
    /// A run of zero length: its start and end fall at one time, in two instants.
    ZeroLengthRun,
    /// A task's fragments do not end where its duration does (the first pass ran the duration).
    FragmentsDisagree,
}

/// Whether a workload can be replayed at all: no zero-length fragment (its boundary would fall
/// at the instant its step began, an instant of its own in the event loop).
pub(super) fn replayable_workload(workload: &Workload) -> bool {
    !workload.fragments.has_zero_duration()
}

/// Whether the event loop could reach `max_instants` on `workload` whatever the first pass
/// counts: it may have an instant per fragment besides the first pass's, so a workload of as
/// many fragments as the limit is left to the event loop without a first pass.
pub(super) fn may_reach_instant_limit(workload: &Workload, max_instants: u64) -> bool {
    workload.fragments.len() >= max_instants
}

impl Simulation<'_> {
    /// The runs of the first pass in placement order (`log`: the task of each placement), with
    /// the work each began with; `Err` for a run of zero length or one not ended by a
    /// completion or a pause.
    fn segments(&self, log: &[u32]) -> Result<Vec<Segment>, NotReplayable> {
        if self.tasks.len() > MAX_TASKS {
            return Err(NotReplayable::Limit);
        }
        let mut taken = vec![0u32; self.tasks.len()];
        let mut done = vec![0i64; self.tasks.len()];
        let mut segments = Vec::with_capacity(log.len());
        for &i in log {
            let iu = i as usize;
            let tk = &self.tasks[iu];
            let j = taken[iu] as usize;
            taken[iu] += 1;
            let &(host, from, to) = tk.runs.get(j).ok_or(NotReplayable::Limit)?;
            let last = j + 1 == tk.runs.len();
            let completed = last && tk.state == State::Completed;
            // A run ends by a pause, unless it is the completed task's last.
            let paused = !completed;
            if to <= from {
                return Err(NotReplayable::ZeroLengthRun);
            }
            if paused && tk.pauses.len() <= j {
                return Err(NotReplayable::Limit);
            }
            // A completed task's fragments are checked against its runs as they are replayed;
            // a task that ends paused is checked here (few are).
            let spec = &self.scenario.workload.tasks[iu];
            let fragments = &self.scenario.workload.fragments;
            let ends_paused = last && paused && !spec.fragments.is_empty();
            let disagree = || fragments.checked_duration(&spec.fragments) != Some(spec.duration_ms);
            if ends_paused && disagree() {
                return Err(NotReplayable::FragmentsDisagree);
            }
            segments.push(Segment {
                task: i,
                host,
                from,
                to,
                remaining: tk.duration - done[iu],
                paused,
            });
            done[iu] += to - from;
        }
        Ok(segments)
    }

    /// The second pass: replays the hosts' usage over the first pass's runs (`log`: the task of
    /// each placement, in order), calling `progress` with the fraction of the run's time
    /// replayed after each chunk. `Err` leaves the hosts' figures unfinished.
    pub(super) fn replay_usage(
        &mut self,
        log: &[u32],
        progress: &mut dyn FnMut(f64),
    ) -> Result<(), NotReplayable> {
        let mut chunks = Chunks::new(self.scenario.workload, self.segments(log)?);
        let mut failed = None;
        let end = self.end.max(1) as f64;
        // Natively the next chunks are made on a second core while this one is applied.
        crate::parallel::pipeline(
            |chunk: &mut Chunk| match chunks.next_chunk(chunk) {
                Ok(made) => made,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            },
            |chunk| {
                for change in &chunk.changes {
                    let (h, i, t) = (change.host as usize, change.task(), change.t);
                    match change.kind() {
                        ChangeKind::Start => self.host_start(h, i, change.usage, t),
                        ChangeKind::Usage => self.host_change(h, i, change.usage, t),
                        ChangeKind::Stop => self.host_stop(h, i, t),
                    }
                }
                progress((chunk.end as f64 / end).min(1.0));
            },
        );
        failed.map_or(Ok(()), Err)
    }
}

/// The changes of one chunk of time, in the event loop's order.
#[derive(Debug, Default)]
struct Chunk {
    /// Where the chunk's time ends (its changes are before).
    end: i64,
    changes: Vec<Change>,
}

/// The replay's walk through time: the runs on a host, each with its cursor, and the changes of
/// the chunk being made.
struct Chunks<'a> {
    workload: &'a Workload,
    segments: Vec<Segment>,
    /// The next segment not yet begun.
    next_segment: usize,
    /// Segments begun and not ended, in placement order, with their cursors.
    active: Vec<(u32, Cursor)>,
    /// The earliest change due of the segments in `active`.
    active_due: i64,
    /// The end of the chunk last made, and how long the next one may be.
    last_end: Option<i64>,
    length: i64,
    /// Where the chunk being made starts.
    start: i64,
    changes: Vec<Change>,
    /// For each change, `key << 32 | index into changes`, the key its time since `start` and
    /// its phase (written with the change, sorted by key in [`Chunks::sort`]); and the sort's
    /// other buffer.
    order: Vec<u64>,
    scratch: Vec<u64>,
}

impl<'a> Chunks<'a> {
    fn new(workload: &'a Workload, segments: Vec<Segment>) -> Self {
        Chunks {
            workload,
            segments,
            next_segment: 0,
            active: Vec::new(),
            active_due: i64::MAX,
            last_end: None,
            length: CHUNK_MS,
            start: 0,
            changes: Vec::new(),
            order: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Makes the changes of the next chunk that has any into `chunk`, sorted; false when every
    /// segment has been replayed. A chunk starts at the first change due (after the last chunk)
    /// and spans [`CHUNK_MS`] at most, less after a dense one (see [`DENSE_CHUNK`]).
    fn next_chunk(&mut self, chunk: &mut Chunk) -> Result<bool, NotReplayable> {
        let next_from = self.segments.get(self.next_segment).map(|s| s.from);
        let due = next_from.map_or(self.active_due, |from| from.min(self.active_due));
        if due == i64::MAX {
            return Ok(false);
        }
        let start = self.last_end.map_or(due, |last| last.max(due));
        let end = start.saturating_add(self.length);
        self.last_end = Some(end);
        self.start = start;
        self.changes.clear();
        self.order.clear();
        // The segments already on a host step first: the segments placed in this chunk come
        // after them in placement order.
        let mut active = std::mem::take(&mut self.active);
        let mut kept = 0;
        self.active_due = i64::MAX;
        for k in 0..active.len() {
            let (s, mut cursor) = active[k];
            if let Some(next) = self.step_segment(s, &mut cursor, end)? {
                active[kept] = (s, cursor);
                kept += 1;
                self.active_due = self.active_due.min(next);
            }
        }
        active.truncate(kept);
        while let Some(segment) = self.segments.get(self.next_segment) {
            if segment.from >= end {
                break;
            }
            let s = self.next_segment as u32;
            self.next_segment += 1;
            let mut cursor = self.begin_segment(s);
            if let Some(next) = self.step_segment(s, &mut cursor, end)? {
                active.push((s, cursor));
                self.active_due = self.active_due.min(next);
            }
        }
        self.active = active;
        self.sort();
        self.length = match self.changes.len() {
            n if n > DENSE_CHUNK => (self.length / 4).max(1),
            n if n < DENSE_CHUNK / 16 => (self.length * 2).min(CHUNK_MS),
            _ => self.length,
        };
        chunk.end = end;
        chunk.changes.clear();
        let changes = &self.changes;
        let index = |x: u64| (x & u64::from(u32::MAX)) as usize;
        chunk
            .changes
            .extend(self.order.iter().map(|&x| changes[index(x)]));
        Ok(true)
    }

    /// Places segment `s`'s task on its host, as the event loop's `start` does: its cursor,
    /// and the change of its start.
    fn begin_segment(&mut self, s: u32) -> Cursor {
        let segment = self.segments[s as usize];
        let spec = &self.workload.tasks[segment.task as usize];
        let mut cursor = Cursor::unplaced(spec.fragments.end);
        let single_step = false;
        let at = segment.from;
        cursor.place(
            self.workload,
            spec,
            segment.remaining,
            at,
            MERGED,
            single_step,
        );
        self.push(
            at,
            Phase::Placement,
            ChangeKind::Start,
            segment,
            cursor.usage,
        );
        cursor
    }

    /// Steps segment `s`'s cursor through its changes before `end`, as the event loop's
    /// `advance` and the task stopper do: the time of its next change when the segment goes on,
    /// `None` once it has ended. `Err` when its fragments do not end where the first pass ended
    /// it.
    fn step_segment(
        &mut self,
        s: u32,
        cursor: &mut Cursor,
        end: i64,
    ) -> Result<Option<i64>, NotReplayable> {
        let segment = self.segments[s as usize];
        loop {
            let boundary = cursor.frag_end;
            if segment.paused && boundary > segment.to {
                if segment.to >= end {
                    return Ok(Some(segment.to));
                }
                self.push(segment.to, Phase::Pause, ChangeKind::Stop, segment, 0.0);
                return Ok(None);
            }
            if boundary >= end {
                return Ok(Some(boundary));
            }
            if boundary > segment.to {
                return Err(NotReplayable::FragmentsDisagree);
            }
            let old = cursor.usage;
            match cursor.cross(self.workload, boundary, MERGED) {
                Boundary::Last if !segment.paused && boundary == segment.to => {
                    self.push(boundary, Phase::Boundary, ChangeKind::Stop, segment, 0.0);
                    return Ok(None);
                }
                Boundary::Last => return Err(NotReplayable::FragmentsDisagree),
                Boundary::Next { .. } if cursor.usage != old => {
                    let usage = cursor.usage;
                    self.push(boundary, Phase::Boundary, ChangeKind::Usage, segment, usage);
                }
                Boundary::Next { .. } => {}
            }
        }
    }

    #[inline]
    fn push(&mut self, t: i64, phase: Phase, kind: ChangeKind, segment: Segment, usage: f64) {
        debug_assert!((segment.task as usize) < MAX_TASKS, "checked in `segments`");
        let key = ((t - self.start) as u64) << 2 | phase as u64;
        self.order.push(key << 32 | self.changes.len() as u64);
        self.changes.push(Change {
            t,
            usage,
            host: segment.host,
            task_kind: segment.task << 2 | kind as u32,
        });
    }

    /// Orders the chunk's changes by (time, phase), keeping the order they were made in (the
    /// placement order) within each: a stable radix sort of `key << 32 | index` on the key's
    /// two 12-bit digits.
    fn sort(&mut self) {
        self.scratch.resize(self.order.len(), 0);
        for digit in 0..2 {
            let shift = 32 + digit * DIGIT_BITS;
            let mask = (1u64 << DIGIT_BITS) - 1;
            let mut at = [0u32; 1 << DIGIT_BITS];
            for &x in &self.order {
                at[((x >> shift) & mask) as usize] += 1;
            }
            let mut sum = 0;
            for slot in at.iter_mut() {
                let n = *slot;
                *slot = sum;
                sum += n;
            }
            for &x in &self.order {
                let d = ((x >> shift) & mask) as usize;
                self.scratch[at[d] as usize] = x;
                at[d] += 1;
            }
            std::mem::swap(&mut self.order, &mut self.scratch);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TaskSpec;

    fn task(id: &str) -> TaskSpec {
        TaskSpec {
            id: id.into(),
            name: id.into(),
            submission_ms: 0,
            duration_ms: 7_200_000,
            cpu_count: 1,
            cpu_capacity_mhz: 1000.0,
            memory_mib: 1,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable: false,
            deadline_ms: None,
            fragments: 0..0,
        }
    }

    /// The changes at one instant come in the event loop's order (SPEC 6.1): fragment
    /// boundaries and completions, then the stopper's pauses, then the placements, each in
    /// placement order; the same task's boundary at the instant of its pause comes first.
    #[test]
    fn changes_at_one_instant_come_in_phase_then_placement_order() {
        let mut workload = Workload::default();
        // Task 0 runs from 0, is paused at 1 h (its own boundary then) and resumed at once.
        workload.push_task(task("a"), [(3_600_000, 500.0), (3_600_000, 700.0)]);
        // Task 1 runs from 0 to 2 h, with boundaries at 30 min and 1 h.
        let fragments = [(1_800_000, 100.0), (1_800_000, 200.0), (3_600_000, 300.0)];
        workload.push_task(task("c"), fragments);
        // Task 2 runs from 1 h to 2 h.
        let mut b = task("b");
        b.duration_ms = 3_600_000;
        workload.push_task(b, [(3_600_000, 400.0)]);
        let (hour, all) = (3_600_000, 7_200_000);
        let segment = |task, from, to, remaining, paused| Segment {
            task,
            host: 0,
            from,
            to,
            remaining,
            paused,
        };
        let segments = vec![
            segment(1, 0, 2 * hour, all, false),
            segment(0, 0, hour, all, true),
            segment(2, hour, 2 * hour, hour, false),
            segment(0, hour, 2 * hour, hour, false),
        ];
        let mut chunks = Chunks::new(&workload, segments);
        let mut chunk = Chunk::default();
        let mut seen = Vec::new();
        while chunks.next_chunk(&mut chunk) == Ok(true) {
            seen.extend(
                chunk
                    .changes
                    .iter()
                    .map(|c| (c.t, c.kind(), c.task(), c.usage)),
            );
        }
        use ChangeKind::{Start, Stop, Usage};
        let expected = vec![
            (0, Start, 1, 100.0),
            (0, Start, 0, 500.0),
            (hour / 2, Usage, 1, 200.0),
            (hour, Usage, 1, 300.0),
            (hour, Usage, 0, 700.0),
            (hour, Stop, 0, 0.0),
            (hour, Start, 2, 400.0),
            (hour, Start, 0, 700.0),
            (2 * hour, Stop, 1, 0.0),
            (2 * hour, Stop, 2, 0.0),
            (2 * hour, Stop, 0, 0.0),
        ];
        assert_eq!(seen, expected);
    }

    /// A stretch without changes costs no chunk: a task of two fragments of five years each is
    /// replayed in three chunks (its start, its one boundary, its end), not in 75,000 of
    /// [`CHUNK_MS`].
    #[test]
    fn time_without_changes_is_stepped_over() {
        let years = 5 * 366 * 86_400_000;
        let mut workload = Workload::default();
        let mut long = task("long");
        long.duration_ms = 2 * years;
        workload.push_task(long, [(years, 500.0), (years, 700.0)]);
        let segments = vec![Segment {
            task: 0,
            host: 0,
            from: 0,
            to: 2 * years,
            remaining: 2 * years,
            paused: false,
        }];
        let mut chunks = Chunks::new(&workload, segments);
        let mut chunk = Chunk::default();
        let mut made = Vec::new();
        while chunks.next_chunk(&mut chunk) == Ok(true) {
            made.push(chunk.changes.iter().map(|c| c.t).collect::<Vec<_>>());
        }
        assert_eq!(made, vec![vec![0], vec![years], vec![2 * years]]);
    }

    /// A completed run whose fragments end before or after the first pass ended it cannot be
    /// replayed (its task's duration is not the sum of its fragments).
    #[test]
    fn fragments_that_outlast_their_run_are_not_replayed() {
        let mut workload = Workload::default();
        workload.push_task(task("a"), [(3_600_000, 500.0), (3_600_000, 700.0)]);
        for to in [3_600_000, 9_000_000] {
            let segments = vec![Segment {
                task: 0,
                host: 0,
                from: 0,
                to,
                remaining: 7_200_000,
                paused: false,
            }];
            let mut chunks = Chunks::new(&workload, segments);
            let mut chunk = Chunk::default();
            let mut answers = Vec::new();
            loop {
                let answer = chunks.next_chunk(&mut chunk);
                answers.push(answer);
                if answer != Ok(true) {
                    break;
                }
            }
            assert_eq!(
                answers.last(),
                Some(&Err(NotReplayable::FragmentsDisagree)),
                "run to {to}"
            );
        }
    }
}
