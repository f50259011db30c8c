//! The reference's placements and releases, and the hosts' usage and power after each instant
//! (SPEC 6.4, 6.5): one task and one host at a time.

use super::ref_energy;
use super::ref_policy;
use super::ref_task::{Phase, Task};
use super::reference::Run;

impl Run<'_> {
    /// Places task `i` now if the policy finds a host; true when it did.
    pub(super) fn try_place(&mut self, i: usize, t: i64) -> bool {
        let demand = self.tasks[i].demand;
        let decision = ref_policy::choose(self.input.policy, &self.hosts, &demand, &mut self.rng);
        self.coverage.draw |= decision.drew;
        let Some(h) = decision.host else {
            return false;
        };
        self.placements += 1;
        self.hosts[h].charge(&demand, 1);
        self.touch(h, t);
        let seq = self.placements;
        let task = &mut self.tasks[i];
        task.phase = Phase::Running;
        task.host = Some(h);
        task.since = t;
        task.seq = seq;
        task.usage = task.usage_at(task.duration - task.remaining);
        task.first_start.get_or_insert(t);
        if let Some(from) = task.paused_since.take() {
            task.pauses.push((from, t));
        }
        task.runs.push((h, t, t));
        true
    }

    /// Takes running task `i` off its host at `t`, keeping its progress.
    pub(super) fn stop(&mut self, i: usize, t: i64) {
        let task = &mut self.tasks[i];
        task.remaining = task.remaining_at(t);
        if let Some(run) = task.runs.last_mut() {
            run.2 = t;
        }
        let (h, demand) = (task.host.unwrap_or(0), task.demand);
        self.hosts[h].charge(&demand, -1);
        self.touch(h, t);
    }

    /// Host `h` changes at `t`: its draw so far is integrated at the power it had.
    pub(super) fn touch(&mut self, h: usize, t: i64) {
        self.meters[h].integrate(t, self.carbon.as_ref());
        self.changed[h] = true;
    }

    /// The new usage of every host that changed at `t`: the sum over its running tasks, added
    /// in the order of their latest placement (SPEC 6.5).
    pub(super) fn settle(&mut self, t: i64) {
        for h in 0..self.hosts.len() {
            if !std::mem::replace(&mut self.changed[h], false) {
                continue;
            }
            let mut running: Vec<&Task> = self
                .tasks
                .iter()
                .filter(|k| k.phase == Phase::Running && k.host == Some(h))
                .collect();
            running.sort_by_key(|k| k.seq);
            let usage = running.iter().fold(0.0, |sum, k| sum + k.usage);
            if usage > 0.0 || !running.is_empty() {
                self.coverage.models[ref_energy::model_index(&self.meters[h].model)] = true;
            }
            self.meters[h].set(usage, !running.is_empty());
            debug_assert_eq!(self.meters[h].last, t);
        }
    }
}
