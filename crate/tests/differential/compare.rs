//! Runs one scenario document through the real simulator and through the reference, and finds
//! the first field where they disagree: integers exactly, floats to a relative 1e-12.

use super::ref_policy;
use super::ref_result::{Coverage, HostOut, Metrics, Outcome, TaskOut};
use super::reference::{self, Input};
use policy_playground::scenario;
use policy_playground::sim::result::{HostRecord, Metrics as SimMetrics, TaskRecord};
use policy_playground::sim::{self, Options, SimResult};
use serde_json::Value;

/// The verdict on one scenario.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The first difference, `None` when the runs agree.
    pub difference: Option<String>,
    pub coverage: Coverage,
    /// The policy's kinds, for the coverage counts: `prefab` (a prefab that expands to a
    /// filter policy), then one of `filter`, `memorizing`, `timeshift`, `timeshift+stopper`.
    pub kinds: Vec<&'static str>,
}

/// Reads the scenario document and runs it both ways. `Err` when the document is not a valid
/// scenario (the generator and the shrinker only make valid ones).
pub fn check(doc: &Value) -> Result<Verdict, String> {
    let text = doc.to_string();
    let sc = scenario::read(&text).map_err(|d| format!("invalid scenario: {d:?}"))?;
    let real = sim::simulate(
        sim::Scenario {
            topology: &sc.topology,
            workload: &sc.workload,
            carbon: sc.carbon.as_ref(),
            policy: &sc.policy,
            seed: sc.seed,
            quantum_ms: sc.quantum_ms,
        },
        Options {
            series_resolution_ms: 0,
            ..Options::default()
        },
    );
    let policy = match doc["policy"]["type"].as_str() {
        Some("prefab") => {
            let name = doc["policy"]["policyName"].as_str().unwrap_or("Mem");
            ref_policy::prefab(name).ok_or_else(|| format!("unknown prefab {name}"))?
        }
        _ => sc.policy.clone(),
    };
    let outcome = reference::run(Input {
        topology: &sc.topology,
        workload: &sc.workload,
        carbon: sc.carbon.as_ref(),
        policy: &policy,
        seed: sc.seed,
        quantum_ms: sc.quantum_ms,
    });
    let mut kinds = Vec::new();
    if doc["policy"]["type"] == "prefab" && policy.timeshift.is_none() && !policy.memorize {
        kinds.push("prefab");
    }
    kinds.push(match (&policy.timeshift, policy.memorize) {
        (Some(ts), _) if ts.task_stopper.is_some() => "timeshift+stopper",
        (Some(_), _) => "timeshift",
        (None, true) => "memorizing",
        (None, false) => "filter",
    });
    Ok(Verdict {
        difference: first_difference(&real, &outcome),
        coverage: outcome.coverage,
        kinds,
    })
}

/// The first field where the simulator's result and the reference's outcome differ.
pub fn first_difference(real: &SimResult, reference: &Outcome) -> Option<String> {
    if real.tasks.len() != reference.tasks.len() {
        return Some(format!(
            "number of tasks: simulator {}, reference {}",
            real.tasks.len(),
            reference.tasks.len()
        ));
    }
    for (i, (s, r)) in real.tasks.iter().zip(&reference.tasks).enumerate() {
        if let Some(d) = task_difference(s, r) {
            return Some(format!("tasks[{i}] ({}).{d}", s.id));
        }
    }
    if let Some(d) = metrics_difference(&real.metrics, &reference.metrics) {
        return Some(format!("metrics.{d}"));
    }
    for (i, (s, r)) in real.hosts.iter().zip(&reference.hosts).enumerate() {
        if let Some(d) = host_difference(s, r) {
            return Some(format!("hosts[{i}] ({}).{d}", s.name));
        }
    }
    None
}

/// `field: simulator X, reference Y` when `a != b`.
fn differ<T: PartialEq + std::fmt::Debug>(field: &str, a: T, b: T) -> Option<String> {
    (a != b).then(|| format!("{field}: simulator {a:?}, reference {b:?}"))
}

/// Floats equal to a relative 1e-12 (both zero, or both absent, are equal).
fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

/// [`differ`] for floats, to a relative 1e-12.
fn differ_f(field: &str, a: Option<f64>, b: Option<f64>) -> Option<String> {
    let same = match (a, b) {
        (Some(x), Some(y)) => close(x, y),
        (x, y) => x == y,
    };
    (!same).then(|| format!("{field}: simulator {a:?}, reference {b:?}"))
}

/// Spans as pairs.
fn spans(s: &[policy_playground::sim::result::Span]) -> Vec<(i64, i64)> {
    s.iter().map(|s| (s.from_ms, s.to_ms)).collect()
}

/// The first field of a task record that differs.
fn task_difference(s: &TaskRecord, r: &TaskOut) -> Option<String> {
    let runs: Vec<(String, i64, i64)> = s
        .runs
        .iter()
        .map(|r| (r.host.clone(), r.from_ms, r.to_ms))
        .collect();
    differ("id", &s.id, &r.id)
        .or_else(|| differ("state", s.state, r.state))
        .or_else(|| differ("host", &s.host, &r.host))
        .or_else(|| differ("startMs", s.start_ms, r.start))
        .or_else(|| differ("finishMs", s.finish_ms, r.finish))
        .or_else(|| differ("waitMs", s.wait_ms, r.wait))
        .or_else(|| differ("deferrals", spans(&s.deferrals), r.deferrals.clone()))
        .or_else(|| differ("pauses", spans(&s.pauses), r.pauses.clone()))
        .or_else(|| differ("runs", runs, r.runs.clone()))
}

/// The first metric that differs, in the order of SPEC 6.6.
fn metrics_difference(s: &SimMetrics, r: &Metrics) -> Option<String> {
    differ("tasksTotal", s.tasks_total, r.tasks_total)
        .or_else(|| differ("tasksCompleted", s.tasks_completed, r.tasks_completed))
        .or_else(|| differ("tasksTerminated", s.tasks_terminated, r.tasks_terminated))
        .or_else(|| differ("tasksDropped", s.tasks_dropped, r.tasks_dropped))
        .or_else(|| differ("makespanMs", s.makespan_ms, r.makespan_ms))
        .or_else(|| differ_f("meanWaitMs", s.mean_wait_ms, r.mean_wait_ms))
        .or_else(|| differ("p95WaitMs", s.p95_wait_ms, r.p95_wait_ms))
        .or_else(|| differ("deferredTasks", s.deferred_tasks, r.deferred_tasks))
        .or_else(|| differ("deferralMs", s.deferral_ms, r.deferral_ms))
        .or_else(|| differ("pausedTasks", s.paused_tasks, r.paused_tasks))
        .or_else(|| differ("deadlineMisses", s.deadline_misses, r.deadline_misses))
        .or_else(|| {
            differ_f(
                "meanUtilization",
                Some(s.mean_utilization),
                Some(r.mean_utilization),
            )
        })
        .or_else(|| differ_f("energyJ", Some(s.energy_j), Some(r.energy_j)))
        .or_else(|| differ_f("idleEnergyJ", Some(s.idle_energy_j), Some(r.idle_energy_j)))
        .or_else(|| {
            differ_f(
                "dynamicEnergyJ",
                Some(s.dynamic_energy_j),
                Some(r.dynamic_energy_j),
            )
        })
        .or_else(|| differ_f("carbonG", s.carbon_g, r.carbon_g))
        .or_else(|| differ_f("idleCarbonG", s.idle_carbon_g, r.idle_carbon_g))
        .or_else(|| differ_f("dynamicCarbonG", s.dynamic_carbon_g, r.dynamic_carbon_g))
}

/// The first figure of a host record that differs.
fn host_difference(s: &HostRecord, r: &HostOut) -> Option<String> {
    differ("name", &s.name, &r.name)
        .or_else(|| differ("busyMs", s.busy_ms, r.busy_ms))
        .or_else(|| differ_f("energyJ", Some(s.energy_j), Some(r.energy_j)))
        .or_else(|| {
            differ_f(
                "dynamicEnergyJ",
                Some(s.dynamic_energy_j),
                Some(r.dynamic_energy_j),
            )
        })
        .or_else(|| differ_f("carbonG", s.carbon_g, r.carbon_g))
}
