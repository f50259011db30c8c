//! Hosts during a run: the power each draws as its CPU usage changes (SPEC 6.5), and the energy,
//! carbon, utilisation and busy time it accumulates, integrated exactly from one change to the
//! next and split into idle and dynamic parts.

use super::power::{grams, joules};
use super::power_memo::utilization_and_power;
use super::run::Simulation;
use crate::model::PowerModel;

/// A host during the run: its power draw and what it has accumulated.
#[derive(Debug, Clone)]
pub(super) struct HostMeter {
    pub(super) model: PowerModel,
    /// The host's table in `Simulation::power_memos` (`u32::MAX`: none, past
    /// [`super::power_memo::MAX_MEMOS`] kinds of host).
    pub(super) memo: u32,
    pub(super) idle: f64,
    /// The sum of `running`'s usages, in their order (what a start adds its task's usage to).
    pub(super) usage: f64,
    /// `usage` over the host's capacity, at most 1 (0 for a host without capacity): worked
    /// out once per change, for the power and for the utilisation integrated until the next.
    pub(super) utilization: f64,
    pub(super) power: f64,
    pub(super) last: i64,
    pub(super) last_carbon: f64,
    pub(super) dynamic_energy: f64,
    pub(super) dynamic_carbon: f64,
    pub(super) utilization_ms: f64,
    pub(super) busy_ms: i64,
    /// The tasks running on the host with their current CPU usage (MHz), in the order of their
    /// latest placement (a resumed task counts from its resumption): the order in which their
    /// usages are summed (SPEC 6.5). The usage is kept here, next to its neighbours, so that the
    /// sum at a change reads one short array instead of each task's record.
    pub(super) running: Vec<(u32, f64)>,
    pub(super) tasks_run: u64,
}

// The three changes are inlined into their callers natively (the replay's loop keeps its
// registers across changes: about 3 % off surf_week's run) but not in wasm, where one loop
// holding all three ran the half-year scale's replay 10-20 % slower in Node. `change_usage` and
// `integrate` are inlined into each of the three on every target (measured only as part of the
// whole change).
impl Simulation<'_> {
    /// Task `i` starts (or resumes) on host `h` at `t` with CPU usage `usage`. The time up to
    /// now is integrated with the host's tasks as they were: a host is busy from its first
    /// task's start, not before it. The task goes last, so the sum of the usages in placement
    /// order is the last sum plus its usage: the very additions a sum afresh would make.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(super) fn host_start(&mut self, h: usize, i: u32, usage: f64, t: i64) {
        self.integrate(h, t);
        let host = &mut self.meters[h];
        host.running.push((i, usage));
        let sum = host.usage + usage;
        self.change_usage(h, t, sum);
    }

    /// Running task `i`'s CPU usage on host `h` becomes `usage` at `t` (a fragment boundary):
    /// set and summed with the others in one pass over the host's tasks.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(super) fn host_change(&mut self, h: usize, i: u32, usage: f64, t: i64) {
        self.integrate(h, t);
        let mut sum = 0.0;
        for entry in self.meters[h].running.iter_mut() {
            if entry.0 == i {
                entry.1 = usage;
            }
            sum += entry.1;
        }
        self.change_usage(h, t, sum);
    }

    /// Task `i` leaves host `h` at `t` (completion or pause), integrated with the task still
    /// running: a host is busy until its last task ends. The others are kept in order and
    /// summed in the same pass.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(super) fn host_stop(&mut self, h: usize, i: u32, t: i64) {
        self.integrate(h, t);
        let mut sum = 0.0;
        // `retain` visits each entry once, in order.
        self.meters[h].running.retain(|&(r, usage)| {
            let kept = r != i;
            if kept {
                sum += usage;
            }
            kept
        });
        self.change_usage(h, t, sum);
    }

    /// Sets host `h`'s CPU usage at `t` to `sum` (each caller has integrated the host up to `t`
    /// once, before changing its list): its running tasks'
    /// usages added in the order of their latest placement (SPEC 6.5; the callers add them as
    /// they change the list). The sum is made afresh at every change (a start adds to the sum
    /// of the list it extends), never kept as a running total of increments and decrements,
    /// whose rounding residue would leave a tiny usage on a host whose busy tasks have ended
    /// (which the `sqrt` model magnifies).
    #[inline(always)]
    fn change_usage(&mut self, h: usize, t: i64, sum: f64) {
        if self.power_pending != Some(t) {
            self.record_power();
        }
        let host = &mut self.meters[h];
        host.usage = sum;
        let (u, new_power) = match self.power_memos.get_mut(host.memo as usize) {
            Some(memo) => memo.at(sum),
            None => utilization_and_power(self.hosts[h].cpu_capacity, &host.model, sum),
        };
        host.utilization = u;
        self.total_dynamic_power += (new_power - host.idle) - (host.power - host.idle);
        host.power = new_power;
        self.power_pending = Some(t);
    }

    /// Hands the total power of the instant whose usages last changed to the series, once all
    /// of that instant's changes are made (the next change at a later time, or the end of the
    /// run, calls this). The series keeps only an instant's last value (a second value at one
    /// instant replaces the first, and a window adds the first value times 0 ms), so recording
    /// once per instant gives the same series, bit for bit, as recording at every change (for
    /// finite totals: power models take finite figures).
    pub(super) fn record_power(&mut self) {
        if let Some(t) = self.power_pending.take() {
            self.series
                .power(t, self.total_idle_power + self.total_dynamic_power);
        }
    }

    /// Adds host `h`'s energy, carbon, utilisation and busy time from its last change to `t`.
    #[inline(always)]
    pub(super) fn integrate(&mut self, h: usize, t: i64) {
        let capacity = self.hosts[h].cpu_capacity;
        let host = &mut self.meters[h];
        let dt = t - host.last;
        if dt <= 0 {
            return;
        }
        let dynamic = host.power - host.idle;
        host.dynamic_energy += joules(dynamic, dt as f64);
        if let Some(c) = &self.carbon {
            // Hosts changing at one instant share the integral up to it.
            let now_c = if self.carbon_at.0 == t {
                self.carbon_at.1
            } else {
                let now_c = c.integral_to_monotonic(t, &mut self.carbon_cursor);
                self.carbon_at = (t, now_c);
                now_c
            };
            host.dynamic_carbon += grams(dynamic, now_c - host.last_carbon);
            host.last_carbon = now_c;
        }
        if capacity > 0.0 {
            host.utilization_ms += host.utilization * dt as f64;
        }
        if !host.running.is_empty() {
            host.busy_ms += dt;
        }
        host.last = t;
    }
}
