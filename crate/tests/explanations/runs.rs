//! Small runs for the explanation tests: a cluster of named hosts and tasks of one fragment.

use policy_playground::model::{
    CarbonTrace, ClusterSpec, HostGroup, PowerModel, TaskSpec, Topology, Workload,
};
use policy_playground::policy::Policy;
use policy_playground::sim::{Options, Scenario, Simulation};

/// Absolute time of simulation time 0 (the first submission of every workload here).
pub const EPOCH: i64 = 1_700_000_000_000;

/// One hour, ms.
pub const H: i64 = 3_600_000;

/// One cluster with one host per `(name, cores)`, at 2000 MHz with 8192 MiB.
pub fn topology(hosts: &[(&str, u32)]) -> Topology {
    let group = |&(name, cores): &(&str, u32)| HostGroup {
        name: name.into(),
        count: 1,
        cores,
        core_speed_mhz: 2000.0,
        memory_mib: 8192,
        gpus: vec![],
        power: PowerModel::Linear {
            idle: 100.0,
            max: 200.0,
        },
    };
    Topology {
        clusters: vec![ClusterSpec {
            name: "C".into(),
            groups: hosts.iter().map(group).collect(),
        }],
        carbon_ref: None,
        warnings: vec![],
    }
}

/// A task of one fragment at 1000 MHz, 100 MiB; times in simulation ms.
#[derive(Debug, Clone, Copy)]
pub struct Task {
    pub submit: i64,
    pub duration: i64,
    pub cores: u32,
    /// `Some(deadline)`: deferrable with that deadline.
    pub deadline: Option<i64>,
}

/// A task that is not deferrable.
pub fn task(submit: i64, duration: i64, cores: u32) -> Task {
    Task {
        submit,
        duration,
        cores,
        deadline: None,
    }
}

/// The workload of `tasks`, ids 0, 1, ... in this order.
pub fn workload(tasks: &[Task]) -> Workload {
    let mut w = Workload::default();
    for (i, t) in tasks.iter().enumerate() {
        let start = w.fragments.begin_task();
        w.fragments.push(t.duration, 1000.0);
        w.tasks.push(TaskSpec {
            id: i.to_string(),
            name: format!("task-{i}"),
            submission_ms: EPOCH + t.submit,
            duration_ms: t.duration,
            cpu_count: t.cores,
            cpu_capacity_mhz: 1000.0,
            memory_mib: 100,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable: t.deadline.is_some(),
            deadline_ms: t.deadline.map(|d| EPOCH + d),
            fragments: start..w.fragments.end(),
        });
    }
    w
}

/// Hourly carbon samples from time 0.
pub fn hourly(values: &[f64]) -> CarbonTrace {
    CarbonTrace {
        timestamps_ms: (0..values.len() as i64).map(|i| EPOCH + i * H).collect(),
        intensity: values.to_vec(),
    }
}

/// A run of `tasks` on `hosts` under `p` (seed 0, quantum 1 s), ready to be stepped.
pub fn with_simulation<T>(
    hosts: &[(&str, u32)],
    tasks: &[Task],
    carbon: Option<&CarbonTrace>,
    p: &Policy,
    options: Options,
    f: impl FnOnce(Simulation) -> T,
) -> T {
    let topology = topology(hosts);
    let workload = workload(tasks);
    let scenario = Scenario {
        topology: &topology,
        workload: &workload,
        carbon,
        policy: p,
        seed: 0,
        quantum_ms: 1000,
    };
    f(Simulation::new(scenario, options))
}
