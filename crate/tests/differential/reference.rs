//! A second, deliberately simple implementation of the simulator's rules (SPEC 6 and 7), for
//! the differential test: it steps from instant to instant (the next instant being the least of
//! every time something could happen), and at each instant runs the phases of SPEC 6.1 in order,
//! one task and one host at a time, with no event queue and no fast path.
//!
//! It reads only the input types of `policy_playground` (topology, workload, carbon trace,
//! policy); filters, weighers, power models and the random draw are its own (`ref_policy`,
//! `ref_energy`), placements and the hosts' power are in `ref_hosts`, and the result is its own
//! ([`Outcome`], built in `ref_result`).

use super::ref_energy::{self, Meter, Steps};
use super::ref_policy::{self, HostView};
use super::ref_result::{Coverage, Outcome};
use super::ref_task::{Phase, Task};
use policy_playground::model::{CarbonTrace, HostSpec, Topology, Workload};
use policy_playground::policy::Policy;
use rand::SeedableRng;

/// A task is short when its original duration is under two hours (SPEC 7.2).
const SHORT_MS: i64 = 2 * 3600 * 1000;

/// Everything a run is a function of (SPEC 8).
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    pub topology: &'a Topology,
    pub workload: &'a Workload,
    pub carbon: Option<&'a CarbonTrace>,
    pub policy: &'a Policy,
    pub seed: u64,
    pub quantum_ms: i64,
}

/// The state of a reference run.
pub struct Run<'a> {
    pub(super) input: Input<'a>,
    pub(super) specs: Vec<(String, HostSpec)>,
    pub(super) hosts: Vec<HostView>,
    pub(super) meters: Vec<Meter>,
    pub(super) tasks: Vec<Task>,
    /// Task indices in (submission, input position) order, and the next one to submit.
    order: Vec<usize>,
    next_submission: usize,
    queue: Vec<usize>,
    next_cycle: Option<i64>,
    pub(super) carbon: Option<Steps>,
    next_sample: usize,
    /// (low for short tasks, low for long tasks); `None` before the first evaluation.
    regime: Option<(bool, bool)>,
    history: Vec<f64>,
    pub(super) rng: rand_pcg::Pcg64,
    pub(super) placements: u64,
    now: i64,
    pub(super) end: i64,
    /// Hosts whose usage changed at the current instant.
    pub(super) changed: Vec<bool>,
    pub(super) coverage: Coverage,
}

/// Runs the reference simulation to the end.
pub fn run(input: Input) -> Outcome {
    let mut run = Run::new(input);
    run.evaluate_sample(run.carbon.as_ref().map_or(0, |c| c.first), 0);
    while run.tasks.iter().any(|t| !t.ended()) {
        match run.next_instant() {
            Some(t) => run.instant(t),
            None => {
                let now = run.now;
                run.terminate_queue(now);
                break;
            }
        }
    }
    run.finish()
}

impl<'a> Run<'a> {
    fn new(input: Input<'a>) -> Self {
        let specs = ref_policy::expand_hosts(input.topology);
        let hosts: Vec<HostView> = specs.iter().map(|(_, s)| HostView::empty(s)).collect();
        let meters = specs
            .iter()
            .zip(&hosts)
            .map(|((_, s), h)| Meter::new(s.power, h.cpu_capacity()))
            .collect();
        let epoch = input
            .workload
            .tasks
            .iter()
            .map(|t| t.submission_ms)
            .min()
            .unwrap_or(0);
        let tasks = Task::all(input.workload, epoch);
        let mut order: Vec<usize> = (0..tasks.len()).collect();
        order.sort_by_key(|&i| (tasks[i].submit, i));
        let carbon = input.carbon.and_then(|c| Steps::new(c, epoch));
        let next_sample = carbon.as_ref().map_or(0, |c| c.first + 1);
        Run {
            changed: vec![false; specs.len()],
            specs,
            hosts,
            meters,
            tasks,
            order,
            next_submission: 0,
            queue: vec![],
            next_cycle: None,
            carbon,
            next_sample,
            regime: None,
            history: vec![],
            rng: rand_pcg::Pcg64::seed_from_u64(input.seed),
            placements: 0,
            now: 0,
            end: 0,
            input,
            coverage: Coverage::default(),
        }
    }

    /// The least time at which anything could happen: a running task's next fragment boundary
    /// or completion, a submission, a due cycle, a deferred task's latest start, a sample start.
    fn next_instant(&self) -> Option<i64> {
        let running = self
            .tasks
            .iter()
            .filter(|t| t.phase == Phase::Running)
            .map(|t| {
                let done = t.progress(self.now);
                t.since + (t.next_boundary(done) - (t.duration - t.remaining))
            });
        let latest = self.tasks.iter().filter_map(Task::latest_start);
        let submission = self
            .order
            .get(self.next_submission)
            .map(|&i| self.tasks[i].submit);
        let sample = self
            .carbon
            .as_ref()
            .and_then(|c| c.starts.get(self.next_sample).copied());
        running
            .chain(latest)
            .chain(submission)
            .chain(self.next_cycle)
            .chain(sample)
            .min()
    }

    /// Makes a cycle due at the first multiple of the quantum at or after `t` (SPEC 6.2).
    fn trigger(&mut self, t: i64) {
        let q = self.input.quantum_ms;
        let due = (t + q - 1).div_euclid(q) * q;
        self.next_cycle = Some(self.next_cycle.map_or(due, |c| c.min(due)));
    }

    /// One instant: the four phases of SPEC 6.1, then the hosts' new power.
    fn instant(&mut self, t: i64) {
        self.now = t;
        self.completions(t);
        let sample = self
            .carbon
            .as_ref()
            .and_then(|c| c.starts.get(self.next_sample));
        if sample == Some(&t) {
            self.next_sample += 1;
            self.evaluate_sample(self.next_sample - 1, t);
            self.trigger(t);
        }
        while let Some(&i) = self.order.get(self.next_submission) {
            if self.tasks[i].submit != t {
                break;
            }
            self.next_submission += 1;
            self.submit(i, t);
        }
        let due: Vec<usize> = self
            .queue
            .iter()
            .copied()
            .filter(|&i| self.tasks[i].latest_start() == Some(t))
            .collect();
        if self.next_cycle == Some(t) || !due.is_empty() {
            if self.next_cycle == Some(t) {
                self.next_cycle = None;
            }
            self.cycle(t, &due);
        }
        self.settle(t);
    }

    /// Phase 1: completions and fragment boundaries, in placement order.
    fn completions(&mut self, t: i64) {
        let mut running: Vec<usize> = (0..self.tasks.len())
            .filter(|&i| self.tasks[i].phase == Phase::Running)
            .collect();
        running.sort_by_key(|&i| self.tasks[i].seq);
        for i in running {
            let task = &self.tasks[i];
            let done = task.progress(t);
            if done >= task.duration {
                self.stop(i, t);
                let task = &mut self.tasks[i];
                task.phase = Phase::Completed;
                task.finish = Some(t);
                self.end = self.end.max(t);
                self.trigger(t);
                continue;
            }
            let usage = task.usage_at(done);
            if usage != task.usage {
                let h = task.host.unwrap_or(0);
                self.touch(h, t);
                self.tasks[i].usage = usage;
            }
        }
    }

    /// Phase 2 (and time 0): the regime (SPEC 7.1), then the task stopper (SPEC 7.4).
    fn evaluate_sample(&mut self, i: usize, t: i64) {
        let (Some(c), Some(ts)) = (&self.carbon, &self.input.policy.timeshift) else {
            return;
        };
        let v = c.values[i];
        let upcoming = c.values[i + 1..].to_vec();
        self.history.push(v);
        self.regime = Some(ref_energy::regime(ts, v, &upcoming, &self.history));
        if let Some(st) = &ts.task_stopper {
            if ref_energy::stopper_high(st, v, &upcoming, &self.history) {
                self.pause_deferrable(t);
            }
        }
    }

    /// The task stopper: pauses every running deferrable task that can still meet its deadline.
    fn pause_deferrable(&mut self, t: i64) {
        let mut paused: Vec<usize> = (0..self.tasks.len())
            .filter(|&i| {
                let task = &self.tasks[i];
                task.phase == Phase::Running
                    && task.deferrable
                    && task.deadline.is_some_and(|d| t + task.remaining_at(t) < d)
            })
            .collect();
        paused.sort_by_key(|&i| self.tasks[i].seq);
        for &i in &paused {
            self.stop(i, t);
            self.tasks[i].phase = Phase::Queued;
            self.tasks[i].paused_since = Some(t);
            self.queue.push(i);
            self.coverage.pause = true;
        }
        if !paused.is_empty() {
            self.trigger(t);
        }
    }

    /// Phase 3: a submission, or a rejection when no empty host could take the task (SPEC 6.2).
    fn submit(&mut self, i: usize, t: i64) {
        let demand = self.tasks[i].demand;
        if ref_policy::rejected(&self.input.policy.filters, &self.hosts, &demand) {
            let task = &mut self.tasks[i];
            task.phase = Phase::Terminated;
            task.finish = Some(t);
            self.end = self.end.max(t);
            self.coverage.rejection = true;
        } else {
            self.tasks[i].phase = Phase::Queued;
            self.queue.push(i);
        }
        self.trigger(t);
    }

    /// Phase 4: one scheduling cycle (SPEC 6.2, 7.2, 7.3); `due` are the deferred tasks whose
    /// latest start is now, in queue order.
    fn cycle(&mut self, t: i64, due: &[usize]) {
        for &i in due {
            self.end_deferral(i, t);
            if self.try_place(i, t) {
                self.coverage.wakeup_start = true;
            }
        }
        let policy = self.input.policy;
        let walk: Vec<usize> = std::mem::take(&mut self.queue)
            .into_iter()
            .filter(|&i| self.tasks[i].phase == Phase::Queued)
            .collect();
        let mut kept = Vec::new();
        let mut k = 0;
        while k < walk.len() {
            let i = walk[k];
            k += 1;
            if policy.timeshift.is_some() && self.tasks[i].deferrable {
                if let Some(deadline) = self.tasks[i].deadline {
                    if self.defers(i, t, deadline) {
                        kept.push(i);
                        continue;
                    }
                    self.end_deferral(i, t);
                }
            }
            if self.try_place(i, t) {
                continue;
            }
            kept.push(i);
            let behind = k < walk.len();
            if !policy.memorize {
                self.coverage.head_of_line |= behind;
                break;
            }
            if self.tasks[i].skips >= policy.max_times_skipped {
                self.coverage.skip_block |= behind;
                break;
            }
            self.tasks[i].skips += 1;
        }
        kept.extend_from_slice(&walk[k..]);
        self.queue = kept;
    }

    /// SPEC 7.2: whether task `i` is deferred now; starts its deferral span when it is.
    fn defers(&mut self, i: usize, t: i64, deadline: i64) -> bool {
        let task = &self.tasks[i];
        let low = self.regime.is_some_and(|(short, long)| {
            if task.duration < SHORT_MS {
                short
            } else {
                long
            }
        });
        if low || t + task.remaining >= deadline {
            return false;
        }
        if task.deferring_since.is_none() {
            self.coverage.deferral = true;
            self.coverage.redeferral_after_pause |=
                task.paused_since.is_some() || !task.pauses.is_empty();
            self.tasks[i].deferring_since = Some(t);
        }
        true
    }

    /// Ends task `i`'s deferral span, if one is open.
    fn end_deferral(&mut self, i: usize, t: i64) {
        let task = &mut self.tasks[i];
        if let Some(from) = task.deferring_since.take() {
            task.deferrals.push((from, t));
        }
    }

    /// Ends every queued task: nothing can happen any more (SPEC 6.2).
    fn terminate_queue(&mut self, t: i64) {
        for i in std::mem::take(&mut self.queue) {
            self.end_deferral(i, t);
            let task = &mut self.tasks[i];
            if let Some(from) = task.paused_since.take() {
                task.pauses.push((from, t));
            }
            task.phase = Phase::Terminated;
            task.finish = Some(t);
            self.end = self.end.max(t);
            self.coverage.blocked = true;
        }
    }
}
