//! The event loop (SPEC 6 and 7): integer time, and at each instant the fixed order of phases of
//! SPEC 6.1 (completions, carbon sample start, submissions, one scheduling cycle).
//!
//! A [`Simulation`] is stepped in chunks of instants so that a caller can report progress and
//! abandon a long run; [`Simulation::finish`] turns the final state into a [`SimResult`]. What
//! each phase does to the tasks is in `schedule.rs`, the hosts' power, energy and carbon in
//! `energy.rs`, and a task's record of its run in `task.rs`.

use super::carbon::CarbonClock;
use super::energy::HostMeter;
use super::events::EventQueue;
use super::explain::{ExplanationRecorder, TaskExplanation};
use super::power::idle_power;
use super::power_memo::{PowerMemo, MAX_MEMOS};
use super::result::{RunSpan, SimResult, Span};
use super::series::SeriesRecorder;
use super::task::{Cursor, State, Task};
use super::{finish, Options, Scenario};
use crate::diag::Diagnostic;
use crate::engine::current::HostTypes;
use crate::engine::scheduler::Scheduler;
use crate::engine::timeshift::DeadlineTest;
use crate::engine::timeshift::Regime;
use crate::engine::{Demand, HostState, Rng};
use crate::model::HostSpec;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// The fewest fragments for which a run hashes its workload beside the run rather than after it
/// (see [`Simulation::step_to_end`]): below, starting a thread costs about what it saves.
pub const DIGEST_BESIDE_MIN_FRAGMENTS: u64 = 100_000;

/// A running simulation.
pub struct Simulation<'a> {
    pub(super) scenario: Scenario<'a>,
    pub(super) options: Options,
    pub(super) specs: Vec<HostSpec>,
    pub(super) names: Vec<String>,
    pub(super) hosts: Vec<HostState>,
    pub(super) meters: Vec<HostMeter>,
    /// Each kind of host's utilisation and power at the usages seen (`HostMeter::memo`).
    pub(super) power_memos: Vec<PowerMemo>,
    pub(super) tasks: Vec<Task>,
    pub(super) start_epoch: i64,
    pub(super) carbon: Option<CarbonClock>,
    pub(super) warnings: Vec<Diagnostic>,
    pub(super) series: SeriesRecorder,
    pub(super) explainer: Option<ExplanationRecorder>,
    pub(super) scheduler: Scheduler,
    pub(super) rng: Rng,
    /// Task indices in submission order (stable on input order).
    pub(super) order: Vec<u32>,
    pub(super) next_submission: usize,
    pub(super) queue: VecDeque<u32>,
    /// Running tasks' next changes (events of an earlier run of a task are skipped).
    pub(super) events: EventQueue,
    /// Latest starts of deferred tasks: (time, task).
    pub(super) wakeups: BinaryHeap<Reverse<(i64, u32)>>,
    pub(super) next_cycle: Option<i64>,
    /// Next carbon sample whose start is still to come.
    pub(super) next_sample: usize,
    pub(super) regime: Option<Regime>,
    pub(super) regime_history: Vec<f64>,
    pub(super) placed_seq: u64,
    pub(super) running_count: u64,
    pub(super) deferred_count: u64,
    pub(super) finished: u64,
    pub(super) now: i64,
    pub(super) end: i64,
    pub(super) total_dynamic_power: f64,
    pub(super) total_idle_power: f64,
    pub(super) instants: u64,
    /// Whether a running task steps over the boundaries between fragments of the same usage
    /// at once: such a boundary changes nothing but the fragment index (the usage, power and
    /// every figure stay as they are), so its instant is not needed. Only the instant limit
    /// could see the difference; `skipped` counts the boundaries stepped over, and when
    /// `instants + skipped` reaches the limit the run starts again without merging, so a run
    /// that hits the limit ends exactly where it would have (see [`Simulation::step`]).
    pub(super) merge: bool,
    /// Fragment boundaries stepped over (each at most one instant of the unmerged run).
    pub(super) skipped: u64,
    /// Cache: the empty state of each distinct host, for the rejection test.
    pub(super) distinct_empty: Vec<HostState>,
    /// The carbon sample reached by the energy integration (time only moves forward).
    pub(super) carbon_cursor: usize,
    /// The deferral test's comparison with the deadline (C14 under Current).
    pub(super) deadline_test: DeadlineTest,
    /// The instant whose change of total power is still to be recorded in the series (see
    /// [`Simulation::record_power`]).
    pub(super) power_pending: Option<i64>,
    /// The carbon integral (see [`CarbonClock::integral_to_monotonic`]) at a time: the last
    /// one the energy integration asked for.
    pub(super) carbon_at: (i64, f64),
    /// The task of each placement, in order, while the first pass of a two-pass run
    /// (`usage_replay.rs`) records them.
    pub(super) placement_log: Option<Vec<u32>>,
    /// The run was cut: by a limit of [`Options`], or by the guard against a run that never
    /// ends (`terminate_blocked`, which ends the queue at the last instant: a first pass may
    /// have its last instant elsewhere than the event loop, so such a run is not replayed).
    pub(super) cut: bool,
    /// Whether [`Simulation::step_to_end`] may run in two passes (the tests turn it off to
    /// compare with the event loop alone).
    pub(super) may_replay: bool,
    /// Whether the run was made in two passes (`usage_replay.rs`), for the tests.
    pub(super) replayed: bool,
}

impl<'a> Simulation<'a> {
    /// Prepares a run: hosts in their empty state, tasks ordered by submission, time 0 at the
    /// first submission.
    pub fn new(scenario: Scenario<'a>, options: Options) -> Self {
        let specs = scenario.topology.hosts();
        let names: Vec<String> = specs.iter().map(|h| h.name.clone()).collect();
        let hosts: Vec<HostState> = specs.iter().map(HostState::from_spec).collect();
        let mut power_memos: Vec<PowerMemo> = Vec::new();
        let meters: Vec<HostMeter> = specs
            .iter()
            .zip(&hosts)
            .map(|(h, state)| {
                let idle = idle_power(&h.power);
                let capacity = state.cpu_capacity;
                let memo = match power_memos
                    .iter()
                    .position(|m| m.serves(capacity, &h.power))
                {
                    Some(k) => k as u32,
                    None if power_memos.len() < MAX_MEMOS => {
                        power_memos.push(PowerMemo::new(capacity, h.power));
                        (power_memos.len() - 1) as u32
                    }
                    None => u32::MAX,
                };
                HostMeter {
                    model: h.power,
                    memo,
                    idle,
                    usage: 0.0,
                    utilization: 0.0,
                    power: idle,
                    last: 0,
                    last_carbon: 0.0,
                    dynamic_energy: 0.0,
                    dynamic_carbon: 0.0,
                    utilization_ms: 0.0,
                    busy_ms: 0,
                    running: Vec::new(),
                    tasks_run: 0,
                }
            })
            .collect();
        let workload = scenario.workload;
        debug_assert!(
            !options.placements_only
                || workload.tasks.iter().all(|t| t.fragments.is_empty()
                    || workload.fragments.duration(&t.fragments) == t.duration_ms),
            "placements_only takes a task's duration for the sum of its fragments'"
        );
        let start_epoch = workload
            .tasks
            .iter()
            .map(|t| t.submission_ms)
            .min()
            .unwrap_or(0);
        let tasks: Vec<Task> = workload
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| Task {
                spec: i as u32,
                submit: t.submission_ms - start_epoch,
                deadline: t.deadline_ms.map(|d| d - start_epoch),
                duration: t.duration_ms,
                deferrable: t.deferrable,
                demand: Demand {
                    cpu_count: t.cpu_count,
                    cpu_capacity: t.cpu_capacity_mhz,
                    memory: t.memory_mib,
                    gpu_count: t.gpu_count,
                    gpu_capacity: t.gpu_capacity_mhz,
                },
                remaining: t.duration_ms,
                state: State::Pending,
                host: None,
                first_start: None,
                finish: None,
                skips: 0,
                deferring_since: None,
                wake: None,
                deferrals: vec![],
                pause_since: None,
                pauses: vec![],
                runs: vec![],
                reason: None,
                generation: 0,
                placed_seq: 0,
                cursor: Cursor::unplaced(t.fragments.end),
            })
            .collect();
        // Stable on input order: ties ordered by index. Read from a short list of keys, not
        // the task records (the half-year scale's are 43 MB), and not sorted when already in
        // order (OpenDC's traces are).
        let mut keyed: Vec<(i64, u32)> = (tasks.iter().enumerate())
            .map(|(i, t)| (t.submit, i as u32))
            .collect();
        if !keyed.is_sorted() {
            keyed.sort_unstable();
        }
        let order: Vec<u32> = keyed.into_iter().map(|(_, i)| i).collect();
        let carbon = scenario
            .carbon
            .and_then(|c| CarbonClock::new(c, start_epoch));
        let total_idle_power = meters.iter().map(|h| h.idle).sum();
        let mut distinct_empty: Vec<HostState> = Vec::new();
        for h in &hosts {
            if !distinct_empty.contains(h) {
                distinct_empty.push(*h);
            }
        }
        let explainer = options.explain_task.as_ref().and_then(|id| {
            workload
                .tasks
                .iter()
                .position(|t| &t.id == id)
                .map(|i| ExplanationRecorder::new(i as u32))
        });
        let series = SeriesRecorder::new(options.series_resolution_ms, total_idle_power);
        // The shadow Current state serves only the explained task's other choice (C20).
        let scheduler = Scheduler::with_semantics(
            scenario.policy,
            &hosts,
            options.semantics,
            || HostTypes::of_topology(scenario.topology),
            explainer.is_some(),
        );
        let deadline_test = DeadlineTest::of(scenario.policy, options.semantics);
        let rng = crate::engine::rng(scenario.seed);
        let next_sample = carbon.as_ref().map_or(0, |c| c.first_index() + 1);
        Simulation {
            scenario,
            options,
            specs,
            names,
            hosts,
            meters,
            power_memos,
            tasks,
            start_epoch,
            carbon,
            warnings: vec![],
            series,
            explainer,
            scheduler,
            rng,
            order,
            next_submission: 0,
            queue: VecDeque::new(),
            events: EventQueue::default(),
            wakeups: BinaryHeap::new(),
            next_cycle: None,
            next_sample,
            regime: None,
            regime_history: vec![],
            placed_seq: 0,
            running_count: 0,
            deferred_count: 0,
            finished: 0,
            now: 0,
            end: 0,
            total_dynamic_power: 0.0,
            total_idle_power,
            instants: 0,
            merge: true,
            skipped: 0,
            distinct_empty,
            carbon_cursor: 0,
            deadline_test,
            power_pending: None,
            carbon_at: (i64::MIN, 0.0),
            placement_log: None,
            cut: false,
            may_replay: true,
            replayed: false,
        }
    }

    /// True when every task has ended.
    pub fn done(&self) -> bool {
        self.finished == self.tasks.len() as u64
    }

    /// Fraction of tasks that have ended, for progress bars.
    pub fn progress(&self) -> f64 {
        if self.tasks.is_empty() {
            1.0
        } else {
            self.finished as f64 / self.tasks.len() as f64
        }
    }

    /// Processes up to `instants` instants. Returns true when the run is over.
    pub fn step(&mut self, instants: u64) -> bool {
        if self.instants == 0 && !self.tasks.is_empty() {
            self.evaluate_carbon_at_zero();
        }
        for _ in 0..instants {
            if self.done() {
                return true;
            }
            self.unmerge_near_limit();
            let Some(t) = self.next_instant() else {
                self.terminate_blocked();
                return true;
            };
            if t > self.options.max_time_ms {
                // Nothing happens between the last instant and the limit: the run goes on to it.
                let limit = self.options.max_time_ms;
                self.terminate_at_limit(
                    limit.max(self.now),
                    format!(
                        "blocked: the run reached the simulated-time limit of {}",
                        crate::format::duration(limit as f64)
                    ),
                );
                return true;
            }
            if self.instants >= self.options.max_instants {
                let limit = self.options.max_instants;
                self.terminate_at_limit(
                    self.now,
                    format!("stopped: the run reached the limit of {limit} instants"),
                );
                return true;
            }
            self.instant(t);
            self.instants += 1;
        }
        self.done()
    }

    /// Processes every instant up to and including `t` (or to the end of the run), so that the
    /// state can be looked at as it was just after that instant. Returns true when the run is over.
    pub fn step_until(&mut self, t: i64) -> bool {
        if self.instants == 0 && !self.tasks.is_empty() {
            self.evaluate_carbon_at_zero();
        }
        loop {
            if self.done() {
                return true;
            }
            self.unmerge_near_limit();
            match self.next_instant() {
                Some(next)
                    if next <= t
                        && next <= self.options.max_time_ms
                        && self.instants < self.options.max_instants =>
                {
                    self.instant(next);
                    self.instants += 1;
                }
                _ => return false,
            }
        }
    }

    /// With merged fragment boundaries, the unmerged run could have had up to
    /// `instants + skipped` instants by now: once that reaches the instant limit, the run
    /// starts again from the beginning without merging (a run that long is rare, and at most
    /// done twice), so that the limit falls exactly where it falls without merging.
    /// A run of the placements only never merges (each task is one step), so it never restarts.
    pub(super) fn unmerge_near_limit(&mut self) {
        if self.merge
            && !self.options.placements_only
            && self.instants.saturating_add(self.skipped) >= self.options.max_instants
        {
            *self = Simulation::new(self.scenario, self.options.clone());
            self.merge = false;
            if !self.tasks.is_empty() {
                self.evaluate_carbon_at_zero();
            }
        }
    }

    /// The placement sequence number of task `i` (the order of completions at one instant).
    pub(super) fn task_placed_seq(&self, i: usize) -> u64 {
        self.tasks[i].placed_seq
    }

    /// The work left of running task `i` at time `t`.
    pub(super) fn task_remaining_at(&self, i: usize, t: i64) -> i64 {
        (self.tasks[i].cursor.frag_finish(self.scenario.workload) - t).max(0)
    }

    /// The next scheduling cycle due, if any.
    pub(super) fn next_cycle_at(&self) -> Option<i64> {
        self.next_cycle
    }

    /// Runs to the end and returns the result.
    pub fn run(mut self) -> SimResult {
        self.step_to_end(1 << 16, &mut |_| {});
        self.finish()
    }

    /// Steps to the end of the run in chunks of `chunk` instants, calling `progress` after each.
    /// When the result's provenance will need the workload's digest and the caller did not give
    /// it, a workload of [`DIGEST_BESIDE_MIN_FRAGMENTS`] fragments or more is hashed beside the
    /// run ([`crate::parallel::beside`]: on a second core natively) instead of after it: the
    /// same digest, off the run's path (surf_week: about 6 ms of its 80).
    pub fn step_to_end(&mut self, chunk: u64, progress: &mut dyn FnMut(f64)) {
        let workload = self.scenario.workload;
        let hash = self.options.workload_digest.is_none()
            && workload.fragments.len() >= DIGEST_BESIDE_MIN_FRAGMENTS;
        if !hash {
            self.run_to_end(chunk, progress);
            return;
        }
        let (digest, ()) = crate::parallel::beside(
            || super::digest::workload(workload),
            || self.run_to_end(chunk, progress),
        );
        self.options.workload_digest = Some(digest);
    }

    /// Runs to the end: in two passes where the second can reproduce the event loop's run bit
    /// for bit (`usage_replay.rs`: the placements, then the hosts' usage replayed from them,
    /// several times faster on traces of many fragments), else by the event loop alone.
    /// `progress` is given the fraction of tasks ended, or of the two passes' work done, never
    /// less than it was given before (a run the replay gives up on starts again).
    fn run_to_end(&mut self, chunk: u64, progress: &mut dyn FnMut(f64)) {
        let mut shown = 0.0f64;
        let mut progress = |f: f64| {
            shown = shown.max(f);
            progress(shown);
        };
        let workload = self.scenario.workload;
        let two_passes = self.may_replay
            && !self.options.placements_only
            && self.instants == 0
            && self.merge
            && super::usage_replay::replayable_workload(workload)
            && !super::usage_replay::may_reach_instant_limit(workload, self.options.max_instants);
        if two_passes {
            if self.run_two_passes(chunk, &mut progress).is_ok() {
                self.replayed = true;
                return;
            }
            *self = Simulation::new(self.scenario, self.options.clone());
            self.may_replay = false;
        }
        while !self.step(chunk) {
            progress(self.progress());
        }
    }

    /// [`Simulation::run_to_end`] in two passes; `Err` when the second cannot reproduce the
    /// event loop's run (the simulation is then to be made afresh): a run cut by a limit, or
    /// one that could be cut by the instant limit as the event loop counts instants (the first
    /// pass's instants, plus one per fragment, one per resumption mid-fragment and one per stale
    /// event of a paused run at most).
    fn run_two_passes(
        &mut self,
        chunk: u64,
        progress: &mut dyn FnMut(f64),
    ) -> Result<(), super::usage_replay::NotReplayable> {
        // The share of the progress bar the first pass fills (about its share of the time).
        const FIRST_PASS: f64 = 0.2;
        use super::usage_replay::NotReplayable;
        self.options.placements_only = true;
        self.placement_log = Some(Vec::new());
        while !self.step(chunk) {
            if self.cut {
                break;
            }
            progress(FIRST_PASS * self.progress());
        }
        self.options.placements_only = false;
        let log = self.placement_log.take().ok_or(NotReplayable::Limit)?;
        let fragments = self.scenario.workload.fragments.len();
        let bound = self
            .instants
            .saturating_add(fragments)
            .saturating_add(2 * log.len() as u64);
        if self.cut || bound >= self.options.max_instants {
            return Err(NotReplayable::Limit);
        }
        self.replay_usage(&log, &mut |f| progress(FIRST_PASS + (1.0 - FIRST_PASS) * f))
    }

    /// The result of a finished run.
    pub fn finish(self) -> SimResult {
        finish::result(self)
    }

    /// The decisions recorded about the explained task (see [`Options::explain_task`]).
    pub fn explanation(&self) -> Option<&TaskExplanation> {
        self.explainer.as_ref().map(|e| &e.explanation)
    }

    pub(super) fn next_instant(&self) -> Option<i64> {
        let mut t: Option<i64> = None;
        let mut consider = |x: Option<i64>| {
            if let Some(x) = x {
                t = Some(t.map_or(x, |t| t.min(x)));
            }
        };
        consider(self.events.peek_time());
        consider(
            self.order
                .get(self.next_submission)
                .map(|&i| self.tasks[i as usize].submit),
        );
        consider(self.next_cycle);
        consider(self.wakeups.peek().map(|Reverse(w)| w.0));
        // Every sample start is an instant of its own (phase 2), also while nothing runs: the
        // regime's history counts every sample (SPEC 7.1), and time never goes backwards.
        consider(
            self.carbon
                .as_ref()
                .filter(|c| self.next_sample < c.len())
                .map(|c| c.start(self.next_sample)),
        );
        t
    }

    /// Makes a cycle due at the first multiple of the quantum at or after `t`.
    pub(super) fn trigger(&mut self, t: i64) {
        let q = self.scenario.quantum_ms.max(1);
        let due = t.div_euclid(q) * q + if t.rem_euclid(q) == 0 { 0 } else { q };
        self.next_cycle = Some(self.next_cycle.map_or(due, |c| c.min(due)));
    }

    pub(super) fn instant(&mut self, t: i64) {
        self.now = t;
        // Phase 1: completions (and fragment boundaries), in placement order.
        while self.events.peek_time() == Some(t) {
            let Some((_, _, task, generation)) = self.events.pop() else {
                break;
            };
            if self.tasks[task as usize].generation == generation
                && self.tasks[task as usize].state == State::Running
            {
                self.advance(task as usize, t);
            }
        }
        // Phase 2: the start of a carbon sample.
        if let Some(c) = &self.carbon {
            if self.next_sample < c.len() && c.start(self.next_sample) == t {
                let i = self.next_sample;
                self.next_sample += 1;
                self.evaluate_carbon(i, t);
                self.trigger(t);
            }
        }
        // Phase 3: submissions.
        while let Some(&i) = self.order.get(self.next_submission) {
            if self.tasks[i as usize].submit != t {
                break;
            }
            self.next_submission += 1;
            self.submit(i as usize, t);
        }
        // Phase 4: one scheduling cycle, when one is due.
        let mut due_tasks = Vec::new();
        while let Some(&Reverse((time, task))) = self.wakeups.peek() {
            if time > t {
                break;
            }
            self.wakeups.pop();
            // A latest start is due only while it is still the task's own: one pushed
            // during an earlier stay in the queue (before a pause) is void (SPEC 7.3).
            let tk = &self.tasks[task as usize];
            if time == t
                && tk.state == State::Queued
                && tk.deferring_since.is_some()
                && tk.wake == Some(time)
            {
                due_tasks.push(task);
            }
        }
        if self.next_cycle == Some(t) || !due_tasks.is_empty() {
            if self.next_cycle == Some(t) {
                self.next_cycle = None;
            }
            self.cycle(t, &due_tasks);
        }
        self.series.counts(
            t,
            self.running_count,
            self.queue.len() as u64 - self.deferred_count,
            self.deferred_count,
        );
    }

    /// Ends the run of every queued task when no instant is ahead (SPEC 6.2). A guard against a
    /// run that never ends: a task is queued only when an empty host passes its filters (or it
    /// is rejected at submission), so a cycle with nothing running places the head, and a
    /// deferred task has its latest start ahead; no test or random scenario has reached it.
    /// Nothing runs here (a running task has its completion ahead).
    pub(super) fn terminate_blocked(&mut self) {
        self.cut = true;
        let reason = "blocked: no host can take it and nothing is running that could free one";
        self.terminate_queue(self.now, reason.to_string());
    }

    /// Ends the run at time `t`, at a limit of [`super::Options`]: every task not yet ended is
    /// terminated with `reason`, and a warning says so.
    pub(super) fn terminate_at_limit(&mut self, t: i64, reason: String) {
        self.now = t;
        self.cut = true;
        let running: Vec<usize> = (0..self.tasks.len())
            .filter(|&i| self.tasks[i].state == State::Running)
            .collect();
        for i in running {
            self.stop(i, t);
            self.tasks[i].state = State::Queued;
            self.queue.push_back(i as u32);
        }
        // A task the run never reached ends at its own submission (not before it), and does
        // not lengthen the run.
        let unsubmitted = format!("{reason}, before its submission");
        while self.next_submission < self.order.len() {
            let i = self.order[self.next_submission] as usize;
            self.next_submission += 1;
            let tk = &mut self.tasks[i];
            tk.state = State::Terminated;
            tk.finish = Some(tk.submit.max(t));
            tk.reason = Some(unsubmitted.clone());
            self.finished += 1;
        }
        self.warnings.push(Diagnostic::warning("", reason.clone()));
        self.terminate_queue(t, reason);
    }

    pub(super) fn terminate_queue(&mut self, t: i64, reason: String) {
        while let Some(i) = self.queue.pop_front() {
            let iu = i as usize;
            if self.tasks[iu].state != State::Queued {
                continue;
            }
            self.end_deferral(iu, t);
            let tk = &mut self.tasks[iu];
            if let Some(from) = tk.pause_since.take() {
                tk.pauses.push(Span {
                    from_ms: from,
                    to_ms: t,
                });
            }
            tk.state = State::Terminated;
            tk.finish = Some(t);
            tk.reason = Some(reason.clone());
            self.finished += 1;
            self.end = self.end.max(t);
        }
    }

    /// The run spans of task `i`, with host names.
    pub(super) fn run_spans(&self, i: usize) -> Vec<RunSpan> {
        self.tasks[i]
            .runs
            .iter()
            .map(|&(h, from, to)| RunSpan {
                host: self.names[h as usize].clone(),
                from_ms: from,
                to_ms: to,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Semantics;
    use crate::model::{CarbonTrace, Workload};
    use crate::synth::{generate, SynthSpec};

    /// The seeded synthetic workload the tests below start from: `tasks` tasks a minute apart on
    /// average, 1-8 cores, 5 min to 5.5 h long in 5-minute fragments, half of them deferrable.
    fn spec(seed: u64, tasks: usize) -> SynthSpec {
        SynthSpec {
            seed,
            tasks,
            start_epoch_ms: 1_700_000_000_000,
            mean_interarrival_ms: 60_000.0,
            cores: vec![(1, 4.0), (2, 3.0), (4, 2.0), (8, 1.0)],
            memory_per_core_mib: (1024.0, 4096.0),
            duration_ms: (300_000.0, 20_000_000.0),
            fragment_ms: 300_000,
            deferrable_share: 0.5,
            core_speed_mhz: 2000.0,
            usage: (0.2, 1.0),
        }
    }

    /// A seeded workload whose fragments often repeat the usage before them, some of zero
    /// length, half the tasks deferrable.
    fn repeating_workload(seed: u64, tasks: usize) -> Workload {
        repeating_workload_with(seed, tasks, true)
    }

    /// [`repeating_workload`], with or without fragments of zero length.
    fn repeating_workload_with(seed: u64, tasks: usize, zero_lengths: bool) -> Workload {
        let base = generate(&spec(seed, tasks));
        let mut state = seed | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % 100
        };
        let mut w = Workload::default();
        for task in &base.tasks {
            let mut fragments: Vec<(i64, f64)> = base.task_fragments(task).collect();
            for k in 1..fragments.len() {
                if next() < 60 {
                    fragments[k].1 = fragments[k - 1].1;
                }
                match next() {
                    0..=4 if zero_lengths => fragments[k].0 = 0,
                    0..=4 => fragments[k].0 = 1,
                    5..=14 => fragments[k].0 = 1 + next() as i64 * 977,
                    _ => {}
                }
            }
            let mut task = task.clone();
            task.duration_ms = fragments.iter().map(|f| f.0).sum();
            if task.duration_ms > 0 {
                w.push_task(task, fragments);
            }
        }
        w
    }

    fn carbon(start: i64) -> CarbonTrace {
        let mut state = 7u64;
        let hours = 24 * 40;
        CarbonTrace {
            timestamps_ms: (0..hours)
                .map(|h| start - 7_200_000 + h * 3_600_000)
                .collect(),
            intensity: (0..hours)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                    ((state >> 33) % 500) as f64
                })
                .collect(),
        }
    }

    /// A run that hashes its workload beside the run (one of [`DIGEST_BESIDE_MIN_FRAGMENTS`]
    /// fragments or more, no digest given) gives the result, provenance included, of a run
    /// given the workload's digest; so does a run stepped in small chunks with progress.
    #[test]
    fn a_workload_hashed_beside_the_run_gives_the_same_result() {
        let workload = generate(&SynthSpec {
            fragment_ms: 15_000,
            deferrable_share: 0.0,
            ..spec(4, 400)
        });
        assert!(
            workload.fragments.len() >= DIGEST_BESIDE_MIN_FRAGMENTS,
            "{} fragments",
            workload.fragments.len()
        );
        let topology = crate::bench::cluster(6);
        let policy = crate::policy::policy_from_text(r#"{"type": "prefab", "policyName": "Mem"}"#)
            .unwrap()
            .0;
        let scenario = Scenario {
            topology: &topology,
            workload: &workload,
            carbon: None,
            policy: &policy,
            seed: 4,
            quantum_ms: 1000,
        };
        let json = |r: &SimResult| serde_json::to_string(r).unwrap();
        let given = Simulation::new(
            scenario,
            Options {
                workload_digest: Some(crate::sim::digest::workload(&workload)),
                ..Options::default()
            },
        )
        .run();
        let beside = Simulation::new(scenario, Options::default()).run();
        assert_eq!(json(&beside), json(&given));
        let mut stepped = Simulation::new(scenario, Options::default());
        let mut reports = 0;
        stepped.step_to_end(64, &mut |_| reports += 1);
        assert!(reports > 1, "{reports} progress reports");
        assert!(
            stepped.options.workload_digest.is_some(),
            "hashed while stepping, not left to the result"
        );
        assert_eq!(json(&stepped.finish()), json(&given));
    }

    /// Calls `check` with each scenario the comparisons below run: seeds 1 to 3 of
    /// [`repeating_workload`] (300 tasks) on 6 hosts, under each of `policies`, without and with
    /// a carbon trace (the seed is also the run's).
    fn each_scenario(policies: &[&str], mut check: impl FnMut(u64, &str, bool, Scenario)) {
        let topology = crate::bench::cluster(6);
        let trace = carbon(1_700_000_000_000);
        for seed in 1..4 {
            let workload = repeating_workload(seed, 300);
            for &text in policies {
                let policy = crate::policy::policy_from_text(text).unwrap().0;
                for with_carbon in [false, true] {
                    let scenario = Scenario {
                        topology: &topology,
                        workload: &workload,
                        carbon: with_carbon.then_some(&trace),
                        policy: &policy,
                        seed,
                        quantum_ms: 1000,
                    };
                    check(seed, text, with_carbon, scenario);
                }
            }
        }
    }

    /// The policies the comparisons of whole runs below run: filter, reversed, memorizing, and
    /// time-shifting with the task stopper at two thresholds (pauses and resumptions).
    const STOPPER_POLICIES: [&str; 5] = [
        r#"{"type": "prefab", "policyName": "Mem"}"#,
        r#"{"type": "prefab", "policyName": "MemInv"}"#,
        r#"{"type": "prefab", "policyName": "TaskNumMemorizing"}"#,
        r#"{"type": "timeshift", "filters": [{"type": "Compute"}, {"type": "VCpu"}, {"type": "Ram"}],
            "weighers": [{"type": "Ram"}], "memorize": false,
            "taskStopper": {"forecastThreshold": 0.6}}"#,
        r#"{"type": "timeshift", "taskStopper": {"forecastThreshold": 0.4}}"#,
    ];

    /// A run of the placements only ([`Options::placements_only`]) places, starts, pauses,
    /// defers and ends every task exactly as the full run: with and without a carbon trace,
    /// under filter, memorizing and time-shifting policies (pauses by the stopper included),
    /// on workloads whose fragments change usage often, under Classic and Current scheduling and
    /// with runs cut by the time limit; the hosts' figures are the full run's only where they do
    /// not follow usage (the tasks each ran).
    #[test]
    fn placements_only_gives_the_full_runs_task_records() {
        let (mut compared, mut paused, mut cut) = (0, 0, 0);
        each_scenario(&STOPPER_POLICIES, |seed, text, with_carbon, scenario| {
            // Classic and Current scheduling; the second seed's runs are cut by the time limit
            // (every task still running or queued then terminated).
            let semantics = [Semantics::Classic, Semantics::Current][seed as usize % 2];
            let base = Options {
                semantics,
                max_time_ms: if seed == 2 {
                    3 * 3_600_000
                } else {
                    super::super::MAX_TIME_MS
                },
                ..Options::default()
            };
            let full = Simulation::new(scenario, base.clone()).run();
            let options = Options {
                placements_only: true,
                ..base
            };
            let placed = Simulation::new(scenario, options).run();
            let context = format!("seed {seed}, {text}, carbon {with_carbon}, {semantics:?}");
            assert_eq!(placed.tasks, full.tasks, "{context}");
            let m = (&placed.metrics, &full.metrics);
            assert_eq!(m.0.makespan_ms, m.1.makespan_ms, "{context}");
            assert_eq!(m.0.mean_wait_ms, m.1.mean_wait_ms, "{context}");
            assert_eq!(m.0.paused_tasks, m.1.paused_tasks, "{context}");
            assert_eq!(m.0.deferral_ms, m.1.deferral_ms, "{context}");
            let runs = |r: &SimResult| r.hosts.iter().map(|h| h.tasks_run).collect::<Vec<_>>();
            assert_eq!(runs(&placed), runs(&full), "{context}");
            // The full run's energy follows the usage; this one's does not.
            assert!(full.metrics.dynamic_energy_j > 0.0, "{context}");
            assert_eq!(placed.metrics.dynamic_energy_j, 0.0, "{context}");
            paused += full.metrics.paused_tasks;
            cut += full.metrics.tasks_terminated;
            compared += 1;
        });
        assert_eq!(compared, 3 * 5 * 2);
        assert!(
            paused > 0,
            "no run paused a task: the stopper went untested"
        );
        assert!(cut > 0, "no run was cut by the time limit");
    }

    /// A run in two passes (the placements, then the hosts' usage replayed from them, see
    /// `usage_replay.rs`) gives the event loop's result, every byte of it, and the same
    /// explanation of a task: under filter, memorizing and time-shifting policies (the stopper's
    /// pauses and resumptions), with and without a carbon trace, Classic and Current, exact and
    /// windowed power series, tasks without fragments, runs that span many of the replay's
    /// chunks and a day without any task. A run cut by a limit, or of a workload with
    /// zero-length fragments, is made by the event loop (the same bytes).
    #[test]
    fn two_passes_give_the_event_loops_result() {
        let topology = crate::bench::cluster(6);
        let trace = carbon(1_700_000_000_000);
        let (mut replayed, mut paused, mut compared) = (0, 0, 0);
        for seed in 1..5u64 {
            let workload = replay_workload(seed);
            for text in STOPPER_POLICIES {
                let policy = crate::policy::policy_from_text(text).unwrap().0;
                for (k, with_carbon) in [false, true].into_iter().enumerate() {
                    let scenario = Scenario {
                        topology: &topology,
                        workload: &workload,
                        carbon: with_carbon.then_some(&trace),
                        policy: &policy,
                        seed,
                        quantum_ms: 1000,
                    };
                    let limits = [
                        (super::super::MAX_INSTANTS, super::super::MAX_TIME_MS),
                        (3_000, super::super::MAX_TIME_MS),
                        (super::super::MAX_INSTANTS, 3 * 3_600_000),
                    ];
                    for (l, (max_instants, max_time_ms)) in limits.into_iter().enumerate() {
                        let options = Options {
                            semantics: [Semantics::Classic, Semantics::Current]
                                [(seed as usize + k) % 2],
                            series_resolution_ms: [0, 60_000][(seed as usize + l) % 2],
                            max_instants,
                            max_time_ms,
                            explain_task: Some(
                                workload.tasks[(seed as usize * 37) % 150].id.clone(),
                            ),
                            ..Options::default()
                        };
                        let context =
                            format!("seed {seed}, {text}, carbon {with_carbon}, limits {l}");
                        let result = compare_with_event_loop(scenario, options, &context);
                        let uncut = l == 0 && seed != 4;
                        assert_eq!(result.is_some(), uncut, "replayed: {context}");
                        replayed += usize::from(uncut);
                        paused += result.map_or(0, |r| r.metrics.paused_tasks);
                        compared += 1;
                    }
                }
            }
        }
        assert_eq!(compared, 4 * 5 * 2 * 3);
        assert_eq!(replayed, 3 * 5 * 2);
        assert!(
            paused > 0,
            "no replayed run paused a task: the stopper went untested"
        );
    }

    /// The workloads of [`two_passes_give_the_event_loops_result`]: seed 4's with zero-length
    /// fragments (not replayed), seed 3's with a day without tasks, seed 2's with every fifth
    /// task without fragments.
    fn replay_workload(seed: u64) -> Workload {
        let mut workload = repeating_workload_with(seed, 300, seed == 4);
        if seed == 3 {
            for task in workload.tasks.iter_mut().skip(150) {
                task.submission_ms += 3 * 86_400_000;
                task.deadline_ms = task.deadline_ms.map(|d| d + 3 * 86_400_000);
            }
        }
        if seed == 2 {
            for task in workload.tasks.iter_mut().step_by(5) {
                task.fragments = 0..0;
            }
        }
        workload
    }

    /// Runs `scenario` by the event loop alone and as it runs by default, asserting the same
    /// result (every byte of its JSON) and the same explanation; the result when the default
    /// run was made in two passes.
    fn compare_with_event_loop(
        scenario: Scenario,
        options: Options,
        context: &str,
    ) -> Option<SimResult> {
        let mut event_loop = Simulation::new(scenario, options.clone());
        event_loop.may_replay = false;
        event_loop.step_to_end(1 << 16, &mut |_| {});
        assert!(!event_loop.replayed, "{context}");
        let mut default = Simulation::new(scenario, options);
        let mut shown = Vec::new();
        default.step_to_end(1 << 10, &mut |f| shown.push(f));
        assert!(
            shown.windows(2).all(|w| w[0] <= w[1]),
            "progress goes back: {context}"
        );
        let explained = |s: &Simulation| serde_json::to_string(&s.explanation()).unwrap();
        assert_eq!(explained(&default), explained(&event_loop), "{context}");
        let expected = serde_json::to_string(&event_loop.finish()).unwrap();
        let replayed = default.replayed;
        let result = default.finish();
        assert_eq!(
            serde_json::to_string(&result).unwrap(),
            expected,
            "{context}"
        );
        replayed.then_some(result)
    }

    /// Merging the boundaries between fragments of the same usage changes nothing in the
    /// result: with and without a carbon trace, under filter, memorizing and time-shifting
    /// policies (deferrals and pauses), and with run limits that cut the run short, where
    /// the merged run starts again unmerged.
    #[test]
    fn merging_repeated_usages_gives_the_unmerged_result() {
        let policies = [
            r#"{"type": "prefab", "policyName": "Mem"}"#,
            r#"{"type": "prefab", "policyName": "TaskNumMemorizing"}"#,
            r#"{"type": "timeshift", "filters": [{"type": "Compute"}, {"type": "VCpu"}, {"type": "Ram"}],
                "weighers": [{"type": "Ram"}], "memorize": false,
                "taskStopper": {"forecastThreshold": 0.6}}"#,
            r#"{"type": "timeshift", "taskStopper": {"forecastThreshold": 0.4}}"#,
        ];
        let mut compared = 0;
        each_scenario(&policies, |seed, text, with_carbon, scenario| {
            for (max_instants, max_time_ms) in [
                (u64::MAX, super::super::MAX_TIME_MS),
                (700, super::super::MAX_TIME_MS),
                (3_000, super::super::MAX_TIME_MS),
                (u64::MAX, 2 * 86_400_000),
            ] {
                let options = Options {
                    series_resolution_ms: 0,
                    max_instants,
                    max_time_ms,
                    ..Options::default()
                };
                let merged = Simulation::new(scenario, options.clone());
                let mut unmerged = Simulation::new(scenario, options);
                unmerged.merge = false;
                let (merged, unmerged) = (merged.run(), unmerged.run());
                assert!(
                    merged == unmerged,
                    "seed {seed}, {text}, carbon {with_carbon}, limits {max_instants} {max_time_ms}"
                );
                compared += 1;
            }
        });
        assert_eq!(compared, 3 * 4 * 2 * 4);
    }
}
