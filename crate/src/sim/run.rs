//! The event loop (SPEC 6 and 7): integer time, and at each instant the fixed order of phases of
//! SPEC 6.1 (completions, carbon sample start, submissions, one scheduling cycle).
//!
//! A [`Simulation`] is stepped in chunks of instants so that a caller can report progress and
//! abandon a long run; [`Simulation::finish`] turns the final state into a [`SimResult`].

use super::carbon::CarbonClock;
use super::explain::{Recorder as Explainer, TaskExplanation};
use super::power::{idle_power, power};
use super::queue::EventQueue;
use super::result::{RunSpan, SimResult, Span};
use super::series::Recorder;
use super::{finish, Options, Scenario};
use crate::diag::Diagnostic;
use crate::engine::scheduler::Scheduler;
use crate::engine::timeshift::{self, Regime};
use crate::engine::{filter, Demand, HostState, Rng};
use crate::model::{HostSpec, PowerModel};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

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
    pub spec: u32,
    pub submit: i64,
    pub deadline: Option<i64>,
    pub duration: i64,
    pub deferrable: bool,
    pub demand: Demand,
    pub remaining: i64,
    pub state: State,
    pub host: Option<u32>,
    pub first_start: Option<i64>,
    pub finish: Option<i64>,
    pub skips: u32,
    pub deferring_since: Option<i64>,
    pub deferrals: Vec<Span>,
    pub pause_since: Option<i64>,
    pub pauses: Vec<Span>,
    pub runs: Vec<(u32, i64, i64)>,
    pub reason: Option<String>,
    /// Bumped at every placement, so that stale events of an earlier run are ignored.
    generation: u32,
    placed_seq: u64,
    /// Fragment being run (absolute index; `u32::MAX` for a task without fragments): the last
    /// of the fragments merged into one step when their usage repeats (see
    /// [`Simulation::merge`]).
    frag: u32,
    /// The first fragment of that step.
    frag_first: u32,
    /// The end of the task's fragment range (its spec's `fragments.end`), kept here so that a
    /// fragment boundary does not load the spec.
    frag_stop: u32,
    /// Time the current fragment (or the task, without fragments) ends.
    frag_end: i64,
    /// CPU usage of the current fragment, MHz.
    usage: f64,
}

/// A host during the run: its power draw and what it has accumulated.
#[derive(Debug, Clone)]
pub(super) struct Host {
    pub model: PowerModel,
    pub idle: f64,
    pub usage: f64,
    pub power: f64,
    pub last: i64,
    pub last_carbon: f64,
    pub dynamic_energy: f64,
    pub dynamic_carbon: f64,
    pub utilization_ms: f64,
    pub busy_ms: i64,
    pub running: u32,
    pub tasks_run: u64,
}

/// A running simulation.
pub struct Simulation<'a> {
    pub(super) scenario: Scenario<'a>,
    pub(super) options: Options,
    pub(super) specs: Vec<HostSpec>,
    pub(super) names: Vec<String>,
    pub(super) hosts: Vec<HostState>,
    pub(super) rt: Vec<Host>,
    pub(super) tasks: Vec<Task>,
    pub(super) start_epoch: i64,
    pub(super) carbon: Option<CarbonClock>,
    pub(super) warnings: Vec<Diagnostic>,
    pub(super) series: Recorder,
    pub(super) explainer: Option<Explainer>,
    pub(super) scheduler: Scheduler,
    pub(super) rng: Rng,
    /// Task indices in submission order (stable on input order).
    order: Vec<u32>,
    next_submission: usize,
    pub(super) queue: VecDeque<u32>,
    /// Running tasks' next changes (events of an earlier run of a task are skipped).
    events: EventQueue,
    /// Latest starts of deferred tasks: (time, task).
    wakeups: BinaryHeap<Reverse<(i64, u32)>>,
    next_cycle: Option<i64>,
    /// Next carbon sample whose start is still to come.
    next_sample: usize,
    pub(super) regime: Option<Regime>,
    regime_history: Vec<f64>,
    placed_seq: u64,
    running_count: u64,
    deferred_count: u64,
    finished: u64,
    pub(super) now: i64,
    pub(super) end: i64,
    total_dynamic_power: f64,
    total_idle_power: f64,
    instants: u64,
    /// Whether a running task steps over the boundaries between fragments of the same usage
    /// at once: such a boundary changes nothing but the fragment index (the usage, power and
    /// every figure stay as they are), so its instant is not needed. Only the instant limit
    /// could see the difference; `skipped` counts the boundaries stepped over, and when
    /// `instants + skipped` reaches the limit the run starts again without merging, so a run
    /// that hits the limit ends exactly where it would have (see [`Simulation::step`]).
    merge: bool,
    /// Fragment boundaries stepped over (each at most one instant of the unmerged run).
    skipped: u64,
    /// Cache: the empty state of each distinct host, for the rejection test.
    distinct_empty: Vec<HostState>,
    /// The carbon sample reached by the energy integration (time only moves forward).
    carbon_cursor: usize,
}

impl<'a> Simulation<'a> {
    /// Prepares a run: hosts in their empty state, tasks ordered by submission, time 0 at the
    /// first submission.
    pub fn new(scenario: Scenario<'a>, options: Options) -> Self {
        let specs = scenario.topology.hosts();
        let names: Vec<String> = specs.iter().map(|h| h.name.clone()).collect();
        let hosts: Vec<HostState> = specs.iter().map(HostState::from_spec).collect();
        let rt: Vec<Host> = specs
            .iter()
            .map(|h| {
                let idle = idle_power(&h.power);
                Host {
                    model: h.power,
                    idle,
                    usage: 0.0,
                    power: idle,
                    last: 0,
                    last_carbon: 0.0,
                    dynamic_energy: 0.0,
                    dynamic_carbon: 0.0,
                    utilization_ms: 0.0,
                    busy_ms: 0,
                    running: 0,
                    tasks_run: 0,
                }
            })
            .collect();
        let workload = scenario.workload;
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
                deferrals: vec![],
                pause_since: None,
                pauses: vec![],
                runs: vec![],
                reason: None,
                generation: 0,
                placed_seq: 0,
                frag: u32::MAX,
                frag_first: u32::MAX,
                frag_stop: t.fragments.end,
                frag_end: 0,
                usage: 0.0,
            })
            .collect();
        let mut order: Vec<u32> = (0..tasks.len() as u32).collect();
        order.sort_by_key(|&i| tasks[i as usize].submit);
        let carbon = scenario
            .carbon
            .and_then(|c| CarbonClock::new(c, start_epoch));
        let total_idle_power = rt.iter().map(|h| h.idle).sum();
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
                .map(|i| Explainer::new(i as u32))
        });
        let series = Recorder::new(options.series_resolution_ms, total_idle_power);
        let scheduler = Scheduler::new(scenario.policy, &hosts);
        let rng = crate::engine::rng(scenario.seed);
        let next_sample = carbon.as_ref().map_or(0, |c| c.first_index() + 1);
        Simulation {
            scenario,
            options,
            specs,
            names,
            hosts,
            rt,
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
                    format!("blocked: the run reached the simulated-time limit of {limit} ms"),
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
    fn unmerge_near_limit(&mut self) {
        if self.merge && self.instants.saturating_add(self.skipped) >= self.options.max_instants {
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
        (self.tasks[i].frag_finish(self.scenario) - t).max(0)
    }

    /// The next scheduling cycle due, if any.
    pub(super) fn next_cycle_at(&self) -> Option<i64> {
        self.next_cycle
    }

    /// Runs to the end and returns the result.
    pub fn run(mut self) -> SimResult {
        while !self.step(1 << 16) {}
        self.finish()
    }

    /// The result of a finished run.
    pub fn finish(self) -> SimResult {
        finish::result(self)
    }

    /// The decisions recorded about the explained task (see [`Options::explain_task`]).
    pub fn explanation(&self) -> Option<&TaskExplanation> {
        self.explainer.as_ref().map(|e| &e.explanation)
    }

    fn next_instant(&self) -> Option<i64> {
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
    fn trigger(&mut self, t: i64) {
        let q = self.scenario.quantum_ms.max(1);
        let due = t.div_euclid(q) * q + if t.rem_euclid(q) == 0 { 0 } else { q };
        self.next_cycle = Some(self.next_cycle.map_or(due, |c| c.min(due)));
    }

    fn instant(&mut self, t: i64) {
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
            let tk = &self.tasks[task as usize];
            if time == t && tk.state == State::Queued && tk.deferring_since.is_some() {
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

    fn evaluate_carbon_at_zero(&mut self) {
        if let Some(c) = &self.carbon {
            let i = c.first_index();
            self.evaluate_carbon(i, 0);
        }
    }

    /// SPEC 7.1 and 7.4 at the start of sample `i`.
    fn evaluate_carbon(&mut self, i: usize, t: i64) {
        let Some(c) = &self.carbon else { return };
        let Some(ts) = &self.scenario.policy.timeshift else {
            return;
        };
        let v = c.value(i);
        self.regime_history.push(v);
        let regime = timeshift::evaluate(ts, v, c.after(i), &self.regime_history);
        let mut high = false;
        if let Some(st) = &ts.task_stopper {
            let verdict = timeshift::stopper(st, v, c.after(i), &self.regime_history);
            high = verdict.high;
            if high {
                self.pause_deferrable(t);
            }
        }
        self.series
            .regime(t, regime.low_short, regime.low_long, high);
        self.regime = Some(regime);
    }

    /// The task stopper: pauses every running deferrable task that can still meet its deadline.
    fn pause_deferrable(&mut self, t: i64) {
        let mut paused: Vec<(u64, usize)> = self
            .tasks
            .iter()
            .enumerate()
            .filter(|(_, tk)| {
                tk.state == State::Running
                    && tk.deferrable
                    && tk
                        .deadline
                        .is_some_and(|d| t + (tk.frag_finish(self.scenario) - t) < d)
            })
            .map(|(i, tk)| (tk.placed_seq, i))
            .collect();
        if paused.is_empty() {
            return;
        }
        paused.sort();
        for (_, i) in paused {
            self.stop(i, t);
            let tk = &mut self.tasks[i];
            tk.state = State::Queued;
            tk.pause_since = Some(t);
            self.queue.push_back(i as u32);
            if let Some(e) = &mut self.explainer {
                e.paused(i as u32, t, tk.remaining);
            }
        }
        self.trigger(t);
    }

    fn submit(&mut self, i: usize, t: i64) {
        let demand = self.tasks[i].demand;
        if let Some(reason) = self.rejection(&demand) {
            let tk = &mut self.tasks[i];
            tk.state = State::Terminated;
            tk.finish = Some(t);
            tk.reason = Some(reason.clone());
            self.finished += 1;
            self.end = self.end.max(t);
            if let Some(e) = &mut self.explainer {
                e.rejected(i as u32, t, reason);
            }
            return;
        }
        self.tasks[i].state = State::Queued;
        self.queue.push_back(i as u32);
        self.trigger(t);
    }

    /// Why no host could take the task even empty, `None` when some host could (SPEC 6.2).
    fn rejection(&self, d: &Demand) -> Option<String> {
        let filters = &self.scenario.policy.filters;
        let mut closest: Option<(usize, f64, &HostState)> = None;
        for h in &self.distinct_empty {
            match filter::first_failing(filters, h, d) {
                None => return None,
                Some(f) => {
                    let cap = filter::empty_capacity(&filters[f], h);
                    let better = closest.is_none_or(|(cf, cc, _)| f > cf || (f == cf && cap > cc));
                    if better {
                        closest = Some((f, cap, h));
                    }
                }
            }
        }
        Some(match closest {
            Some((f, _, h)) => filter::rejection_reason(&filters[f], h, d),
            None => "the topology has no host".into(),
        })
    }

    /// One scheduling cycle at `t` (SPEC 6.2, 7.2, 7.3). `due` are the deferred tasks whose
    /// latest start is now: tried first, in queue order.
    fn cycle(&mut self, t: i64, due: &[u32]) {
        if !due.is_empty() {
            let due_in_order: Vec<u32> = self
                .queue
                .iter()
                .copied()
                .filter(|i| due.contains(i))
                .collect();
            for i in due_in_order {
                self.end_deferral(i as usize, t);
                let _ = self.try_place(i as usize, t);
            }
        }
        let policy = self.scenario.policy;
        let memorize = policy.memorize;
        let timeshift = policy.timeshift.is_some();
        let mut kept: Vec<u32> = Vec::new();
        while let Some(i) = self.queue.pop_front() {
            let iu = i as usize;
            if self.tasks[iu].state != State::Queued {
                continue;
            }
            if timeshift && self.tasks[iu].deferrable && self.tasks[iu].deadline.is_some() {
                let tk = &self.tasks[iu];
                let d = timeshift::deferral(
                    self.regime.as_ref(),
                    t,
                    tk.duration,
                    tk.remaining,
                    tk.deferrable,
                    tk.deadline,
                );
                let deferred = d.deferred;
                if let Some(e) = &mut self.explainer {
                    e.deferral(i, d);
                }
                if deferred {
                    let tk = &mut self.tasks[iu];
                    if tk.deferring_since.is_none() {
                        tk.deferring_since = Some(t);
                        self.deferred_count += 1;
                        let latest = tk.deadline.unwrap_or(t) - tk.remaining;
                        self.wakeups.push(Reverse((latest, i)));
                    }
                    kept.push(i);
                    continue;
                }
                self.end_deferral(iu, t);
            }
            if self.try_place(iu, t) {
                continue;
            }
            kept.push(i);
            if !memorize {
                break;
            }
            let tk = &mut self.tasks[iu];
            if tk.skips >= policy.max_times_skipped {
                break;
            }
            tk.skips += 1;
        }
        for &i in kept.iter().rev() {
            self.queue.push_front(i);
        }
        if !self.queue.is_empty() && self.running_count == 0 && self.nothing_ahead() {
            self.terminate_blocked();
        }
    }

    /// True when no event can come that would let a queued task run.
    fn nothing_ahead(&self) -> bool {
        let carbon_left = self
            .carbon
            .as_ref()
            .is_some_and(|c| self.next_sample < c.len())
            && self.scenario.policy.timeshift.is_some();
        self.events.is_empty()
            && self.next_submission >= self.order.len()
            && self.wakeups.is_empty()
            && self.next_cycle.is_none()
            && !carbon_left
    }

    fn end_deferral(&mut self, i: usize, t: i64) {
        let tk = &mut self.tasks[i];
        if let Some(from) = tk.deferring_since.take() {
            tk.deferrals.push(Span {
                from_ms: from,
                to_ms: t,
            });
            self.deferred_count -= 1;
        }
    }

    /// Tries to place a queued task now; true when it was placed.
    fn try_place(&mut self, i: usize, t: i64) -> bool {
        let demand = self.tasks[i].demand;
        let policy = self.scenario.policy;
        let choice = self
            .scheduler
            .select(policy, &self.hosts, &demand, &mut self.rng);
        if let Some(e) = &mut self.explainer {
            if e.task == i as u32 {
                let placement =
                    self.scheduler
                        .explain(policy, &self.hosts, &self.names, &demand, &choice);
                e.placement(t, placement);
            }
        }
        match choice.host {
            Some(h) => {
                self.start(i, h, t);
                true
            }
            None => false,
        }
    }

    /// Starts (or resumes) task `i` on host `h` at `t`.
    fn start(&mut self, i: usize, h: usize, t: i64) {
        self.placed_seq += 1;
        let before = self.hosts[h].instance_count;
        self.hosts[h].place(&self.tasks[i].demand);
        self.scheduler
            .moved(h, before, self.hosts[h].instance_count);
        let workload = self.scenario.workload;
        let tk = &mut self.tasks[i];
        tk.state = State::Running;
        tk.host = Some(h as u32);
        tk.first_start.get_or_insert(t);
        if let Some(from) = tk.pause_since.take() {
            tk.pauses.push(Span {
                from_ms: from,
                to_ms: t,
            });
        }
        tk.generation += 1;
        tk.placed_seq = self.placed_seq;
        tk.runs.push((h as u32, t, t));
        // Find the fragment holding the task's progress.
        let spec = &workload.tasks[tk.spec as usize];
        let done = tk.duration - tk.remaining;
        if spec.fragments.is_empty() {
            tk.frag = u32::MAX;
            tk.frag_end = t + tk.remaining;
            tk.usage = spec.cpu_capacity_mhz;
        } else {
            let mut offset = 0;
            let mut k = spec.fragments.start;
            while k + 1 < spec.fragments.end
                && offset + workload.fragment_duration_ms[k as usize] <= done
            {
                offset += workload.fragment_duration_ms[k as usize];
                k += 1;
            }
            tk.frag_first = k;
            tk.frag = k;
            tk.frag_end = t + (offset + workload.fragment_duration_ms[k as usize] - done);
            tk.usage = workload.fragment_cpu_usage_mhz[k as usize];
            if self.merge {
                self.skipped += tk.merge_repeats(workload, spec.fragments.end);
            }
            prefetch_next_fragment(workload, tk.frag);
        }
        let (usage, end, seq, generation) = (tk.usage, tk.frag_end, tk.placed_seq, tk.generation);
        self.running_count += 1;
        let host = &mut self.rt[h];
        host.running += 1;
        host.tasks_run += 1;
        self.change_usage(h, t, usage);
        self.events.push((end, seq, i as u32, generation));
    }

    /// A running task reached the end of its fragment at `t`: the next fragment, or completion.
    fn advance(&mut self, i: usize, t: i64) {
        let workload = self.scenario.workload;
        let tk = &self.tasks[i];
        let last = tk.frag == u32::MAX || tk.frag + 1 >= tk.frag_stop;
        if last {
            self.stop(i, t);
            let tk = &mut self.tasks[i];
            tk.state = State::Completed;
            tk.finish = Some(t);
            self.finished += 1;
            self.end = self.end.max(t);
            self.trigger(t);
            return;
        }
        let h = tk.host.unwrap_or(0) as usize;
        let old = tk.usage;
        let k = tk.frag + 1;
        let new = workload.fragment_cpu_usage_mhz[k as usize];
        let end_fragments = tk.frag_stop;
        let tk = &mut self.tasks[i];
        tk.frag_first = k;
        tk.frag = k;
        tk.frag_end = t + workload.fragment_duration_ms[k as usize];
        tk.usage = new;
        if self.merge {
            self.skipped += tk.merge_repeats(workload, end_fragments);
        }
        prefetch_next_fragment(workload, tk.frag);
        let (end, seq, generation) = (tk.frag_end, tk.placed_seq, tk.generation);
        if new != old {
            self.change_usage(h, t, new - old);
        }
        self.events.push((end, seq, i as u32, generation));
    }

    /// Takes a running task off its host at `t` (completion or pause), keeping its progress.
    fn stop(&mut self, i: usize, t: i64) {
        let tk = &mut self.tasks[i];
        let h = tk.host.unwrap_or(0) as usize;
        let finish = tk.frag_finish(self.scenario);
        tk.remaining = finish - t;
        if let Some(run) = tk.runs.last_mut() {
            run.2 = t;
        }
        let usage = tk.usage;
        let demand = tk.demand;
        if self.merge && tk.frag != u32::MAX && tk.frag_end > t && tk.frag > tk.frag_first {
            // The run without merging would have its (now stale) event at the end of the
            // fragment holding `t`, and stale events make instants too: move it there.
            let unmerged = tk.unmerged_end(self.scenario.workload, t);
            if unmerged != tk.frag_end {
                let event = (tk.frag_end, tk.placed_seq, i as u32, tk.generation);
                if self.events.remove(event) {
                    self.events.push((unmerged, event.1, event.2, event.3));
                }
            }
        }
        let tk = &mut self.tasks[i];
        tk.generation += 1;
        self.running_count -= 1;
        let before = self.hosts[h].instance_count;
        self.hosts[h].release(&demand);
        self.scheduler
            .moved(h, before, self.hosts[h].instance_count);
        self.rt[h].running -= 1;
        self.change_usage(h, t, -usage);
    }

    /// Integrates host `h` up to `t`, then changes its CPU usage by `delta` MHz.
    fn change_usage(&mut self, h: usize, t: i64, delta: f64) {
        self.integrate(h, t);
        let capacity = self.hosts[h].cpu_capacity;
        let host = &mut self.rt[h];
        host.usage = if host.running == 0 {
            0.0
        } else {
            host.usage + delta
        };
        let u = if capacity > 0.0 {
            (host.usage / capacity).min(1.0)
        } else {
            0.0
        };
        let new_power = power(&host.model, u);
        self.total_dynamic_power += (new_power - host.idle) - (host.power - host.idle);
        host.power = new_power;
        self.series
            .power(t, self.total_idle_power + self.total_dynamic_power);
    }

    /// Adds host `h`'s energy, carbon, utilisation and busy time from its last change to `t`.
    pub(super) fn integrate(&mut self, h: usize, t: i64) {
        let capacity = self.hosts[h].cpu_capacity;
        let host = &mut self.rt[h];
        let dt = t - host.last;
        if dt <= 0 {
            return;
        }
        let dynamic = host.power - host.idle;
        host.dynamic_energy += dynamic * dt as f64 / 1000.0;
        if let Some(c) = &self.carbon {
            let now_c = c.integral_to_monotonic(t, &mut self.carbon_cursor);
            host.dynamic_carbon += dynamic * (now_c - host.last_carbon) / 3.6e9;
            host.last_carbon = now_c;
        }
        if capacity > 0.0 {
            host.utilization_ms += (host.usage / capacity).min(1.0) * dt as f64;
        }
        if host.running > 0 {
            host.busy_ms += dt;
        }
        host.last = t;
    }

    /// Ends the run of every queued task: nothing can happen any more (SPEC 6.2).
    fn terminate_blocked(&mut self) {
        let t = self.now;
        let reason = if self.running_count == 0 {
            "blocked: no host can take it and nothing is running that could free one"
        } else {
            "blocked: waiting for hosts that never free up"
        };
        self.terminate_queue(t, reason.to_string());
    }

    /// Ends the run at time `t`, at a limit of [`super::Options`]: every task not yet ended is
    /// terminated with `reason`, and a warning says so.
    fn terminate_at_limit(&mut self, t: i64, reason: String) {
        self.now = t;
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

    fn terminate_queue(&mut self, t: i64, reason: String) {
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

/// Asks the CPU to bring the fragment after `frag` (its duration and usage) into the cache: the
/// task reads it at its next boundary, hundreds of instants later, and the fragment arrays are
/// far larger than the cache (surf_week: 37 MB), so without this nearly every eighth boundary
/// waits for memory. A hint only (no effect on results); nothing outside x86-64.
#[inline(always)]
fn prefetch_next_fragment(workload: &crate::model::Workload, frag: u32) {
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
    fn merge_repeats(&mut self, workload: &crate::model::Workload, end: u32) -> u64 {
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

    /// The end of the single fragment of the current step that holds `t` (after the
    /// boundaries at `t`): where the step would end without merging.
    fn unmerged_end(&self, workload: &crate::model::Workload, t: i64) -> i64 {
        let durations = &workload.fragment_duration_ms;
        let mut end = self.frag_end;
        let mut k = self.frag as usize;
        while k > self.frag_first as usize && end - durations[k] > t {
            end -= durations[k];
            k -= 1;
        }
        end
    }

    /// When the running task will finish: the end of its current fragment plus the fragments
    /// after it.
    fn frag_finish(&self, scenario: Scenario) -> i64 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CarbonTrace, Workload};
    use crate::synth::{generate, SynthSpec};

    /// A seeded workload whose fragments often repeat the usage before them, some of zero
    /// length, half the tasks deferrable.
    fn repeating_workload(seed: u64, tasks: usize) -> Workload {
        let mut w = generate(&SynthSpec {
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
        });
        let mut state = seed | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % 100
        };
        for task in &mut w.tasks {
            let range = task.fragments.start as usize..task.fragments.end as usize;
            for k in range.clone().skip(1) {
                if next() < 60 {
                    w.fragment_cpu_usage_mhz[k] = w.fragment_cpu_usage_mhz[k - 1];
                }
                match next() {
                    0..=4 => w.fragment_duration_ms[k] = 0,
                    5..=14 => w.fragment_duration_ms[k] = 1 + next() as i64 * 977,
                    _ => {}
                }
            }
            task.duration_ms = w.fragment_duration_ms[range].iter().sum();
        }
        w.tasks.retain(|t| t.duration_ms > 0);
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
        let topology = crate::bench::cluster(6);
        let mut compared = 0;
        for seed in 1..4 {
            let workload = repeating_workload(seed, 300);
            let trace = carbon(1_700_000_000_000);
            for text in policies {
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
                }
            }
        }
        assert_eq!(compared, 3 * 4 * 2 * 4);
    }
}
