//! What a reference run produced: per-task and per-host records, the metrics of SPEC 6.6, and
//! which features of the rules the run exercised (for the coverage assertion).

use super::ref_energy::MODEL_NAMES;
use super::ref_task::Phase;
use super::reference::Run;

/// Which rules a run exercised.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Coverage {
    /// A task was deferred (SPEC 7.2).
    pub deferral: bool,
    /// A task was started at its latest start (SPEC 7.3).
    pub wakeup_start: bool,
    /// A task was deferred again after a pause.
    pub redeferral_after_pause: bool,
    /// The task stopper paused a task (SPEC 7.4).
    pub pause: bool,
    /// A non-memorizing cycle ended at a task that fits nowhere, with tasks behind it.
    pub head_of_line: bool,
    /// A memorizing cycle ended at a task at `maxTimesSkipped`, with tasks behind it.
    pub skip_block: bool,
    /// A task was rejected at its submission.
    pub rejection: bool,
    /// Tasks were terminated as blocked.
    pub blocked: bool,
    /// A placement drew a random number.
    pub draw: bool,
    /// A host of each power model ran a task.
    pub models: [bool; 7],
}

impl Coverage {
    /// Every feature with whether this run exercised it, by name.
    pub fn features(&self) -> Vec<(String, bool)> {
        let mut out: Vec<(String, bool)> = [
            ("deferral", self.deferral),
            (
                "latest-start wake-up that started a task",
                self.wakeup_start,
            ),
            ("re-deferral after a pause", self.redeferral_after_pause),
            ("pause", self.pause),
            ("head-of-line block", self.head_of_line),
            ("skip block", self.skip_block),
            ("rejection at submission", self.rejection),
            ("random draw", self.draw),
        ]
        .iter()
        .map(|(n, b)| (n.to_string(), *b))
        .collect();
        for (name, used) in MODEL_NAMES.iter().zip(self.models) {
            out.push((format!("power model {name}"), used));
        }
        out
    }
}

/// One task's fate.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskOut {
    pub id: String,
    pub host: Option<String>,
    pub start: Option<i64>,
    pub finish: i64,
    pub state: &'static str,
    pub wait: Option<i64>,
    pub deferrals: Vec<(i64, i64)>,
    pub pauses: Vec<(i64, i64)>,
    pub runs: Vec<(String, i64, i64)>,
}

/// One host's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct HostOut {
    pub name: String,
    pub busy_ms: i64,
    pub energy_j: f64,
    pub dynamic_energy_j: f64,
    pub carbon_g: Option<f64>,
}

/// The metrics of SPEC 6.6 (same names as the simulator's result, in snake case).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Metrics {
    pub tasks_total: u64,
    pub tasks_completed: u64,
    pub tasks_terminated: u64,
    pub tasks_dropped: u64,
    pub makespan_ms: i64,
    pub mean_wait_ms: Option<f64>,
    pub p95_wait_ms: Option<i64>,
    pub deferred_tasks: u64,
    pub deferral_ms: i64,
    pub paused_tasks: u64,
    pub deadline_misses: u64,
    pub mean_utilization: f64,
    pub energy_j: f64,
    pub idle_energy_j: f64,
    pub dynamic_energy_j: f64,
    pub carbon_g: Option<f64>,
    pub idle_carbon_g: Option<f64>,
    pub dynamic_carbon_g: Option<f64>,
}

/// Everything a reference run produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub tasks: Vec<TaskOut>,
    pub hosts: Vec<HostOut>,
    pub metrics: Metrics,
    pub coverage: Coverage,
}

impl Run<'_> {
    /// The records and metrics of the finished run.
    pub(super) fn finish(mut self) -> Outcome {
        let end = self.end;
        for m in &mut self.meters {
            m.integrate(end, self.carbon.as_ref());
        }
        let tasks: Vec<TaskOut> = self.tasks.iter().map(|t| self.task_out(t)).collect();
        let mut metrics = self.task_metrics(&tasks);
        let carbon_to_end = self.carbon.as_ref().map(|c| c.integral_to(end));
        let mut hosts = Vec::new();
        let mut util = 0.0;
        for ((name, _), m) in self.specs.iter().zip(&self.meters) {
            let idle_energy = m.idle * end as f64 / 1000.0;
            let idle_carbon = carbon_to_end.map(|c| m.idle * c / 3.6e9);
            metrics.idle_energy_j += idle_energy;
            metrics.dynamic_energy_j += m.dynamic_energy;
            util += m.utilization_ms;
            if let Some(ic) = idle_carbon {
                *metrics.idle_carbon_g.get_or_insert(0.0) += ic;
                *metrics.dynamic_carbon_g.get_or_insert(0.0) += m.dynamic_carbon;
            }
            hosts.push(HostOut {
                name: name.clone(),
                busy_ms: m.busy_ms,
                energy_j: idle_energy + m.dynamic_energy,
                dynamic_energy_j: m.dynamic_energy,
                carbon_g: idle_carbon.map(|ic| ic + m.dynamic_carbon),
            });
        }
        metrics.energy_j = metrics.idle_energy_j + metrics.dynamic_energy_j;
        if let (Some(i), Some(d)) = (metrics.idle_carbon_g, metrics.dynamic_carbon_g) {
            metrics.carbon_g = Some(i + d);
        }
        let host_time = self.meters.len() as f64 * end as f64;
        metrics.mean_utilization = if host_time > 0.0 {
            util / host_time
        } else {
            0.0
        };
        metrics.makespan_ms = end;
        metrics.tasks_dropped = self.input.workload.dropped;
        Outcome {
            tasks,
            hosts,
            metrics,
            coverage: self.coverage,
        }
    }

    /// A task's record.
    fn task_out(&self, t: &super::ref_task::Task) -> TaskOut {
        let completed = t.phase == Phase::Completed;
        TaskOut {
            id: t.id.clone(),
            host: t.host.map(|h| self.specs[h].0.clone()),
            start: t.first_start,
            finish: t.finish.unwrap_or(self.end),
            state: if completed { "completed" } else { "terminated" },
            wait: if completed {
                t.first_start.map(|s| s - t.submit)
            } else {
                None
            },
            deferrals: t.deferrals.clone(),
            pauses: t.pauses.clone(),
            runs: t
                .runs
                .iter()
                .map(|&(h, from, to)| (self.specs[h].0.clone(), from, to))
                .collect(),
        }
    }

    /// The task counts and times of SPEC 6.6 (the energy figures start at 0).
    fn task_metrics(&self, out: &[TaskOut]) -> Metrics {
        let mut m = Metrics {
            tasks_total: out.len() as u64,
            ..Metrics::default()
        };
        let mut waits: Vec<i64> = Vec::new();
        for (t, o) in self.tasks.iter().zip(out) {
            if o.state == "completed" {
                m.tasks_completed += 1;
                waits.extend(o.wait);
                m.deadline_misses += t.deadline.is_some_and(|d| o.finish > d) as u64;
            } else {
                m.tasks_terminated += 1;
            }
            m.deferred_tasks += !o.deferrals.is_empty() as u64;
            m.deferral_ms += o.deferrals.iter().map(|(a, b)| b - a).sum::<i64>();
            m.paused_tasks += !o.pauses.is_empty() as u64;
        }
        waits.sort_unstable();
        if !waits.is_empty() {
            let n = waits.len();
            m.mean_wait_ms = Some(waits.iter().map(|&w| w as f64).sum::<f64>() / n as f64);
            // Nearest rank: sorted[ceil(0.95 n) - 1], in integers.
            m.p95_wait_ms = Some(waits[(95 * n).div_ceil(100) - 1]);
        }
        m
    }
}
