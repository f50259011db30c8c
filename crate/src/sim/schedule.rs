//! What happens to tasks at an instant (SPEC 6.2, 7.2-7.4): submission, or rejection when no
//! host could ever take the task; the scheduling cycle with head-of-line blocking, memorizing
//! backfill and deferral; placement, fragment boundaries, pauses and completion; and the
//! time-shifting regime with the task stopper at the start of each carbon sample.

use super::result::Span;
use super::run::Simulation;
use super::task::{Boundary, State};
use crate::engine::timeshift;
use crate::engine::{filter, Demand, HostState};
use std::cmp::Reverse;

impl Simulation<'_> {
    pub(super) fn evaluate_carbon_at_zero(&mut self) {
        if let Some(c) = &self.carbon {
            let i = c.first_index();
            self.evaluate_carbon(i, 0);
        }
    }

    /// SPEC 7.1 and 7.4 at the start of sample `i`.
    pub(super) fn evaluate_carbon(&mut self, i: usize, t: i64) {
        let Some(c) = &self.carbon else { return };
        let Some(ts) = &self.scenario.policy.timeshift else {
            return;
        };
        let v = c.value(i);
        self.regime_history.push(v);
        // The forecast the policy reads: the trace itself, or with a what-if's noise.
        let noise = timeshift::ForecastNoise {
            error: self.options.forecast_error,
            seed: self.scenario.seed,
        };
        let upcoming = noise.forecast(c.after(i), timeshift::forecast_len(ts), i);
        let regime = timeshift::evaluate(ts, v, &upcoming, &self.regime_history);
        let mut high = false;
        if let Some(st) = &ts.task_stopper {
            let verdict = timeshift::stopper(st, v, &upcoming, &self.regime_history);
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
    pub(super) fn pause_deferrable(&mut self, t: i64) {
        let mut paused: Vec<(u64, usize)> = self
            .tasks
            .iter()
            .enumerate()
            .filter(|(_, tk)| {
                tk.state == State::Running
                    && tk.deferrable
                    && tk.deadline.is_some_and(|d| {
                        t + (tk.cursor.frag_finish(self.scenario.workload) - t) < d
                    })
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

    pub(super) fn submit(&mut self, i: usize, t: i64) {
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
            // Still a submission: it makes a cycle due, as in OpenDC, where the task is queued
            // and terminated inside that cycle (SPEC 6.2; memorizing skip counts see it).
            self.trigger(t);
            return;
        }
        self.tasks[i].state = State::Queued;
        self.queue.push_back(i as u32);
        self.trigger(t);
    }

    /// Why no host could take the task even empty, `None` when some host could (SPEC 6.2).
    pub(super) fn rejection(&self, d: &Demand) -> Option<String> {
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
    pub(super) fn cycle(&mut self, t: i64, due: &[u32]) {
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
                let d = timeshift::deferral_with(
                    self.deadline_test,
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
                        let q = self.scenario.quantum_ms.max(1);
                        // A latest start that is not after now (C14's `<=`) is due at the next
                        // cycle on the quantum: one cycle per instant (SPEC 6.1).
                        tk.wake = tk.latest_start().map(|latest| {
                            if latest > t {
                                latest
                            } else {
                                (t.div_euclid(q) + 1) * q
                            }
                        });
                        if let Some(wake) = tk.wake {
                            self.wakeups.push(Reverse((wake, i)));
                        }
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
    }

    pub(super) fn end_deferral(&mut self, i: usize, t: i64) {
        let tk = &mut self.tasks[i];
        if let Some(from) = tk.deferring_since.take() {
            tk.deferrals.push(Span {
                from_ms: from,
                to_ms: t,
            });
            self.deferred_count -= 1;
        }
    }

    /// Tries to place a queued task now; true when it left the queue: placed, or terminated
    /// because the chosen host refused it (Current, C13).
    pub(super) fn try_place(&mut self, i: usize, t: i64) -> bool {
        let demand = self.tasks[i].demand;
        let policy = self.scenario.policy;
        let explained = self.explainer.as_ref().is_some_and(|e| e.task == i as u32);
        let (choice, placement) = self.scheduler.decide(
            policy,
            &self.hosts,
            &self.names,
            &demand,
            &mut self.rng,
            explained,
        );
        if let (Some(e), Some(placement)) = (&mut self.explainer, placement) {
            e.placement(t, placement);
        }
        match (choice.host, choice.refusal) {
            (Some(h), Some(refusal)) => {
                let reason = refusal.reason(&self.names[h]);
                self.refuse(i, t, reason);
                true
            }
            (Some(h), None) => {
                self.start(i, h, t);
                true
            }
            (None, _) => false,
        }
    }

    /// Terminates task `i` at `t`, refused by the host Current chose (C13): the host is not
    /// charged, and the cycle goes on with the next queued task.
    fn refuse(&mut self, i: usize, t: i64, reason: String) {
        if let Some(from) = self.tasks[i].pause_since.take() {
            self.tasks[i].pauses.push(Span {
                from_ms: from,
                to_ms: t,
            });
        }
        let tk = &mut self.tasks[i];
        tk.state = State::Terminated;
        tk.finish = Some(t);
        tk.reason = Some(reason);
        self.finished += 1;
        self.end = self.end.max(t);
    }

    /// Starts (or resumes) task `i` on host `h` at `t`.
    pub(super) fn start(&mut self, i: usize, h: usize, t: i64) {
        self.placed_seq += 1;
        if let Some(log) = &mut self.placement_log {
            log.push(i as u32);
        }
        let before = self.hosts[h].instance_count;
        self.hosts[h].place(&self.tasks[i].demand);
        self.scheduler.changed(&self.hosts, h, before);
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
        let spec = &workload.tasks[tk.spec as usize];
        let (merge, single_step) = (self.merge, self.options.placements_only);
        self.skipped += (tk.cursor).place(workload, spec, tk.remaining, t, merge, single_step);
        let (end, usage) = (tk.cursor.frag_end, tk.cursor.usage);
        let (seq, generation) = (tk.placed_seq, tk.generation);
        self.running_count += 1;
        self.events.push((end, seq, i as u32, generation));
        self.meters[h].tasks_run += 1;
        if self.options.placements_only {
            return;
        }
        self.host_start(h, i as u32, usage, t);
    }

    /// A running task reached the end of its fragment at `t`: the next fragment, or completion.
    pub(super) fn advance(&mut self, i: usize, t: i64) {
        let workload = self.scenario.workload;
        let tk = &mut self.tasks[i];
        let old = tk.cursor.usage;
        let skipped = match tk.cursor.cross(workload, t, self.merge) {
            Boundary::Last => {
                self.stop(i, t);
                let tk = &mut self.tasks[i];
                tk.state = State::Completed;
                tk.finish = Some(t);
                self.finished += 1;
                self.end = self.end.max(t);
                self.trigger(t);
                return;
            }
            Boundary::Next { skipped } => skipped,
        };
        self.skipped += skipped;
        let h = tk.host.unwrap_or(0) as usize;
        let new = tk.cursor.usage;
        let (end, seq, generation) = (tk.cursor.frag_end, tk.placed_seq, tk.generation);
        if new != old {
            self.host_change(h, i as u32, new, t);
        }
        self.events.push((end, seq, i as u32, generation));
    }

    /// Takes a running task off its host at `t` (completion or pause), keeping its progress.
    pub(super) fn stop(&mut self, i: usize, t: i64) {
        let tk = &mut self.tasks[i];
        let h = tk.host.unwrap_or(0) as usize;
        let finish = tk.cursor.frag_finish(self.scenario.workload);
        tk.remaining = finish - t;
        if let Some(run) = tk.runs.last_mut() {
            run.2 = t;
        }
        let demand = tk.demand;
        // The task's queued event is now stale: it is ignored while the task is not running,
        // and its next start moves the generation on. With merged fragments it lies later than
        // the unmerged run's would, which changes only the count of instants, and a merged run
        // never meets the instant limit (see `unmerge_near_limit`: the boundaries it stepped
        // over are counted, among them the one where the unmerged run has this stale event).
        self.running_count -= 1;
        let before = self.hosts[h].instance_count;
        self.hosts[h].release(&demand);
        self.scheduler.changed(&self.hosts, h, before);
        if self.options.placements_only {
            return;
        }
        self.host_stop(h, i as u32, t);
    }
}
