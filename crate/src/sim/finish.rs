//! Turning a finished run into its result: per-task and per-host records and the metrics of
//! SPEC 6.6 (energy and carbon as exact integrals, split into idle and dynamic parts).

use super::digest;
use super::power::{grams, joules};
use super::result::{Digests, HostRecord, Metrics, Provenance, SimResult, TaskRecord};
use super::run::Simulation;
use super::task::State;
use crate::diag::Diagnostic;

/// Mean turnaround, mean and p95 (nearest rank) bounded slowdown over the completed tasks
/// (SPEC 6.6), in task order for the sums; `None` each when no task completed.
pub(super) fn turnaround_figures(tasks: &[TaskRecord]) -> (Option<f64>, Option<f64>, Option<f64>) {
    let turnarounds: Vec<i64> = tasks.iter().filter_map(TaskRecord::turnaround_ms).collect();
    let mut slowdowns: Vec<f64> = tasks
        .iter()
        .filter_map(TaskRecord::bounded_slowdown)
        .collect();
    if turnarounds.is_empty() {
        return (None, None, None);
    }
    let n = turnarounds.len() as f64;
    let mean_turnaround = turnarounds.iter().map(|&t| t as f64).sum::<f64>() / n;
    let mean_slowdown = slowdowns.iter().sum::<f64>() / n;
    slowdowns.sort_unstable_by(f64::total_cmp);
    let p95 = slowdowns[(95 * slowdowns.len()).div_ceil(100) - 1];
    (Some(mean_turnaround), Some(mean_slowdown), Some(p95))
}

/// Population standard deviation of the hosts' busy times divided by their mean (SPEC 6.6);
/// 0 without hosts or when no host was ever busy.
pub(super) fn load_imbalance(hosts: &[HostRecord]) -> f64 {
    let n = hosts.len() as f64;
    let mean = hosts.iter().map(|h| h.busy_ms as f64).sum::<f64>() / n.max(1.0);
    if mean <= 0.0 {
        return 0.0;
    }
    let variance = hosts
        .iter()
        .map(|h| (h.busy_ms as f64 - mean) * (h.busy_ms as f64 - mean))
        .sum::<f64>()
        / n;
    variance.sqrt() / mean
}

/// The fewest tasks whose records are made on two cores (below, the thread costs about what it
/// saves): a record is several strings and lists, a few hundred nanoseconds each.
const RECORDS_BESIDE_MIN_TASKS: usize = 20_000;

/// Every task's record, in task order: for a large run the second half made on a second core
/// ([`crate::parallel::map_in_halves`]).
fn task_records(sim: &Simulation, end: i64) -> Vec<TaskRecord> {
    let n = sim.tasks.len();
    let beside = n >= RECORDS_BESIDE_MIN_TASKS;
    crate::parallel::map_in_halves(n, beside, |i| task_record(sim, i, end))
}

/// Task `i`'s record at the end of a run that ended at `end`.
fn task_record(sim: &Simulation, i: usize, end: i64) -> TaskRecord {
    let t = &sim.tasks[i];
    let spec = &sim.scenario.workload.tasks[t.spec as usize];
    let (state, wait) = match t.state {
        State::Completed => ("completed", t.first_start.map(|s| s - t.submit)),
        _ => ("terminated", None),
    };
    TaskRecord {
        id: spec.id.clone(),
        name: spec.name.clone(),
        host: t.host.map(|h| sim.names[h as usize].clone()),
        submit_ms: t.submit,
        start_ms: t.first_start,
        finish_ms: t.finish.unwrap_or(end),
        state,
        wait_ms: wait,
        deferrals: t.deferrals.clone(),
        pauses: t.pauses.clone(),
        runs: sim.run_spans(i),
        deadline_ms: t.deadline,
        duration_ms: t.duration,
        cpu_count: t.demand.cpu_count,
        memory_mib: t.demand.memory,
        reason: t.reason.clone(),
    }
}

/// The result of a finished simulation.
pub(super) fn result(mut sim: Simulation) -> SimResult {
    sim.record_power();
    let end = sim.end;
    for h in 0..sim.meters.len() {
        sim.integrate(h, end);
    }
    let workload = sim.scenario.workload;
    let has_carbon = sim.carbon.is_some();
    let carbon_to_end = sim.carbon.as_ref().map_or(0.0, |c| c.integral_to(end));

    let mut waits: Vec<i64> = Vec::new();
    let (mut completed, mut terminated, mut deferred, mut paused, mut misses) = (0, 0, 0, 0, 0);
    let mut deferral_ms = 0;
    for t in &sim.tasks {
        if t.state == State::Completed {
            completed += 1;
            waits.extend(t.first_start.map(|s| s - t.submit));
            if t.deadline.is_some_and(|d| t.finish.unwrap_or(0) > d) {
                misses += 1;
            }
        } else {
            terminated += 1;
        }
        if !t.deferrals.is_empty() {
            deferred += 1;
        }
        deferral_ms += t.deferrals.iter().map(|s| s.to_ms - s.from_ms).sum::<i64>();
        if !t.pauses.is_empty() {
            paused += 1;
        }
    }
    let tasks = task_records(&sim, end);
    waits.sort_unstable();
    let mean_wait = (!waits.is_empty())
        .then(|| waits.iter().map(|&w| w as f64).sum::<f64>() / waits.len() as f64);
    let p95 = (!waits.is_empty()).then(|| waits[(95 * waits.len()).div_ceil(100) - 1]);

    let mut hosts = Vec::with_capacity(sim.meters.len());
    let (mut idle_e, mut dyn_e, mut idle_c, mut dyn_c, mut util) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (h, meter) in sim.meters.iter().enumerate() {
        let idle_energy = joules(meter.idle, end as f64);
        let idle_carbon = grams(meter.idle, carbon_to_end);
        idle_e += idle_energy;
        dyn_e += meter.dynamic_energy;
        idle_c += idle_carbon;
        dyn_c += meter.dynamic_carbon;
        util += meter.utilization_ms;
        let spec = &sim.specs[h];
        hosts.push(HostRecord {
            name: sim.names[h].clone(),
            cluster: sim.scenario.topology.clusters[spec.cluster as usize]
                .name
                .clone(),
            cores: spec.cores,
            memory: spec.memory_mib,
            busy_ms: meter.busy_ms,
            mean_utilization: if end > 0 {
                meter.utilization_ms / end as f64
            } else {
                0.0
            },
            energy_j: idle_energy + meter.dynamic_energy,
            idle_energy_j: idle_energy,
            dynamic_energy_j: meter.dynamic_energy,
            carbon_g: has_carbon.then_some(idle_carbon + meter.dynamic_carbon),
            tasks_run: meter.tasks_run,
        });
    }
    let host_time = sim.meters.len() as f64 * end as f64;
    let (mean_turnaround, mean_slowdown, p95_slowdown) = turnaround_figures(&tasks);
    let metrics = Metrics {
        tasks_total: sim.tasks.len() as u64,
        tasks_completed: completed,
        tasks_terminated: terminated,
        tasks_dropped: workload.dropped,
        makespan_ms: end,
        mean_wait_ms: mean_wait,
        p95_wait_ms: p95,
        mean_turnaround_ms: mean_turnaround,
        mean_bounded_slowdown: mean_slowdown,
        p95_bounded_slowdown: p95_slowdown,
        deferred_tasks: deferred,
        deferral_ms,
        paused_tasks: paused,
        deadline_misses: misses,
        mean_utilization: if host_time > 0.0 {
            util / host_time
        } else {
            0.0
        },
        load_imbalance: load_imbalance(&hosts),
        energy_j: idle_e + dyn_e,
        idle_energy_j: idle_e,
        dynamic_energy_j: dyn_e,
        carbon_g: has_carbon.then_some(idle_c + dyn_c),
        idle_carbon_g: has_carbon.then_some(idle_c),
        dynamic_carbon_g: has_carbon.then_some(dyn_c),
    };

    let mut warnings: Vec<Diagnostic> = workload.warnings.clone();
    warnings.extend(sim.scenario.topology.warnings.iter().cloned());
    warnings.append(&mut sim.warnings);
    let mut carbon_points = Vec::new();
    if let Some(c) = &sim.carbon {
        let first = c.first_index();
        carbon_points.push((0, c.value(first)));
        for i in first + 1..c.len() {
            if c.start(i) > end {
                break;
            }
            carbon_points.push((c.start(i), c.value(i)));
        }
        if c.last_start() < end && c.len() > 1 && end > 0 {
            warnings.push(Diagnostic::warning(
                "carbon",
                "the carbon trace ends before the run does: its last value is held to the end",
            ));
        }
        if c.start(first) > 0 {
            warnings.push(Diagnostic::warning(
                "carbon",
                "the carbon trace starts after the first submission: its first value is held before it",
            ));
        }
    }
    if sim.scenario.policy.timeshift.is_some() && sim.carbon.is_none() {
        warnings.push(Diagnostic::warning(
            "policy",
            "a timeshift policy without a carbon trace: nothing is ever low-carbon, so deferrable tasks wait until their latest start",
        ));
    }
    let series = sim.series.finish(end, carbon_points);
    let s = &sim.scenario;
    SimResult {
        metrics,
        tasks,
        hosts,
        series,
        warnings,
        start_epoch_ms: sim.start_epoch,
        provenance: Provenance {
            program: "policy-playground".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            seed: s.seed,
            quantum_ms: s.quantum_ms,
            semantics: sim.options.semantics,
            digests: Digests {
                topology: digest::topology(s.topology),
                workload: (sim.options.workload_digest.clone())
                    .unwrap_or_else(|| digest::workload(s.workload)),
                carbon: s.carbon.map(digest::carbon),
                policy: digest::policy(s.policy),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Options, Scenario};

    /// The records of a run large enough to be made on two cores are, one by one, the records
    /// made on one (a run of 25,000 tasks, some waiting, on 100 hosts).
    #[test]
    fn records_made_on_two_cores_are_the_records_made_on_one() {
        let workload = crate::bench::scale_workload(25_000);
        let topology = crate::bench::cluster(100);
        let policy = crate::bench::policy(r#"{"type": "prefab", "policyName": "Mem"}"#).unwrap();
        let scenario = Scenario {
            topology: &topology,
            workload: &workload,
            carbon: None,
            policy: &policy,
            seed: 3,
            quantum_ms: 1000,
        };
        let mut sim = Simulation::new(scenario, Options::default());
        sim.step_to_end(1 << 16, &mut |_| {});
        assert!(sim.tasks.len() >= RECORDS_BESIDE_MIN_TASKS);
        let beside = task_records(&sim, sim.end);
        let one_by_one: Vec<TaskRecord> = (0..sim.tasks.len())
            .map(|i| task_record(&sim, i, sim.end))
            .collect();
        let json = |r: &[TaskRecord]| serde_json::to_string(r).unwrap();
        assert_eq!(json(&beside), json(&one_by_one));
        // The run is not trivial: tasks waited and hosts ran several tasks.
        assert!(one_by_one.iter().any(|t| t.wait_ms.unwrap_or(0) > 0));
        assert_eq!(one_by_one.len(), 25_000);
        assert_eq!(one_by_one[24_999].id, workload.tasks[24_999].id);
    }
}
