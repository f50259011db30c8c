//! The data a simulation runs on, as the input readers produce it: a topology of hosts, a workload
//! of tasks with their fragments, and a carbon-intensity trace.
//!
//! These are plain values with no behaviour beyond small derived quantities: readers (`input`)
//! build them, the engine and simulator read them. Times here are absolute (ms since the Unix
//! epoch, UTC); the simulator shifts them so that simulation time 0 is the first submission.

use crate::diag::Diagnostic;

mod chunked;
mod fragments;
pub use fragments::{Fragments, Piece, Run, Runs};

/// A datacenter: clusters of host groups, expanded to hosts in topology order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Topology {
    pub clusters: Vec<ClusterSpec>,
    /// The carbon trace the topology refers to (legacy `powerSource.carbonTracePath` or SDK
    /// `powerSource.carbon.name`), exactly as written in the file.
    pub carbon_ref: Option<String>,
    /// What was read but is not modelled (batteries, GPU power, ...), one warning each.
    pub warnings: Vec<Diagnostic>,
}

/// A cluster: a name and its host groups, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterSpec {
    pub name: String,
    pub groups: Vec<HostGroup>,
}

impl ClusterSpec {
    /// The key of its host group `group`, `cluster/host`: how run options' `hostCounts`, the
    /// topology summary and the cluster overview name a group.
    pub fn group_key(&self, group: &HostGroup) -> String {
        format!("{}/{}", self.name, group.name)
    }
}

/// `count` identical hosts, as one entry of a cluster's `hosts` list describes them.
#[derive(Debug, Clone, PartialEq)]
pub struct HostGroup {
    /// The entry's `name`; the hosts are named from it (see [`Topology::hosts`]).
    pub name: String,
    pub count: u32,
    /// Cores of the host: cpu count x cores per cpu.
    pub cores: u32,
    pub core_speed_mhz: f64,
    pub memory_mib: i64,
    /// The host's GPUs, each with its core count and speed.
    pub gpus: Vec<GpuSpec>,
    pub power: PowerModel,
}

/// One GPU of a host.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GpuSpec {
    pub cores: u32,
    pub core_speed_mhz: f64,
}

/// OpenDC's CPU power models (idle and max in W), SPEC 6.5.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PowerModel {
    Constant {
        power: f64,
    },
    Linear {
        idle: f64,
        max: f64,
    },
    Sqrt {
        idle: f64,
        max: f64,
    },
    Square {
        idle: f64,
        max: f64,
    },
    Cubic {
        idle: f64,
        max: f64,
    },
    /// `idle + (max - idle) * (2u - u^calibration)`.
    Mse {
        idle: f64,
        max: f64,
        calibration: f64,
    },
    /// `idle + (max - idle) / 2 * (1 + x - exp(-x / asym_util))` with `x = u` or, with DVFS, `u^3`.
    Asymptotic {
        idle: f64,
        max: f64,
        asym_util: f64,
        dvfs: bool,
    },
}

impl Default for PowerModel {
    /// OpenDC's default for a host without a model: linear, idle 200 W, max 400 W.
    fn default() -> Self {
        PowerModel::Linear {
            idle: 200.0,
            max: 400.0,
        }
    }
}

/// A host of the expanded topology: its static description and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct HostSpec {
    pub name: String,
    /// Index into [`Topology::clusters`].
    pub cluster: u32,
    /// Index of the host group within its cluster.
    pub group: u32,
    pub cores: u32,
    pub core_speed_mhz: f64,
    pub memory_mib: i64,
    pub gpus: Vec<GpuSpec>,
    pub power: PowerModel,
}

impl HostSpec {
    /// Total CPU capacity in MHz: cores x core speed.
    pub fn cpu_capacity_mhz(&self) -> f64 {
        self.cores as f64 * self.core_speed_mhz
    }

    /// Sum of the cores over the host's GPUs.
    pub fn gpu_cores(&self) -> u32 {
        self.gpus.iter().map(|g| g.cores).sum()
    }
}

impl Topology {
    /// The hosts in topology order. A name is used as given the first time it appears; repeats
    /// are named `name-0`, `name-1`, ... with one counter per name across the whole topology.
    pub fn hosts(&self) -> Vec<HostSpec> {
        let mut seen: std::collections::BTreeMap<&str, u32> = std::collections::BTreeMap::new();
        let mut hosts = Vec::new();
        for (c, cluster) in self.clusters.iter().enumerate() {
            for (g, group) in cluster.groups.iter().enumerate() {
                for _ in 0..group.count {
                    let name = match seen.get_mut(group.name.as_str()) {
                        None => {
                            seen.insert(&group.name, 0);
                            group.name.clone()
                        }
                        Some(n) => {
                            let name = format!("{}-{}", group.name, n);
                            *n += 1;
                            name
                        }
                    };
                    hosts.push(HostSpec {
                        name,
                        cluster: c as u32,
                        group: g as u32,
                        cores: group.cores,
                        core_speed_mhz: group.core_speed_mhz,
                        memory_mib: group.memory_mib,
                        gpus: group.gpus.clone(),
                        power: group.power,
                    });
                }
            }
        }
        hosts
    }

    /// Number of hosts after expansion.
    pub fn host_count(&self) -> u64 {
        self.clusters
            .iter()
            .flat_map(|c| c.groups.iter())
            .map(|g| g.count as u64)
            .sum()
    }
}

/// A workload: tasks in input order, with the fragments of all tasks stored flat.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Workload {
    pub tasks: Vec<TaskSpec>,
    /// The fragments of every task, as runs; task `t` owns the runs `t.fragments`.
    pub fragments: Fragments,
    /// Input tasks left out (for example parquet tasks without fragments).
    pub dropped: u64,
    /// What was dropped, not modelled or inconsistent, one warning each.
    pub warnings: Vec<Diagnostic>,
}

/// One task of a workload.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskSpec {
    /// The task's id as in the input (an integer id is written in decimal).
    pub id: String,
    /// A display name; the id when the input has none.
    pub name: String,
    /// Submission, absolute ms.
    pub submission_ms: i64,
    /// The task's one duration, ms: the sum of its fragments when it has some (SPEC 6.4).
    pub duration_ms: i64,
    pub cpu_count: u32,
    /// Total over its cores, MHz.
    pub cpu_capacity_mhz: f64,
    pub memory_mib: i64,
    pub gpu_count: u32,
    pub gpu_capacity_mhz: f64,
    pub deferrable: bool,
    /// Absolute ms; `None` when the task has no deadline.
    pub deadline_ms: Option<i64>,
    /// Range of the workload's fragment runs ([`Fragments`]); empty when the task has no
    /// fragments.
    pub fragments: std::ops::Range<u32>,
}

impl Workload {
    /// Task `task`'s fragments in order, each as (duration ms, CPU usage MHz).
    pub fn task_fragments(&self, task: &TaskSpec) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.fragments.iter(&task.fragments)
    }

    /// Appends `task` with `fragments` (duration ms, CPU usage MHz) as its own, setting its
    /// fragment range (its `duration_ms` is left as given).
    pub fn push_task(
        &mut self,
        mut task: TaskSpec,
        fragments: impl IntoIterator<Item = (i64, f64)>,
    ) {
        let start = self.fragments.begin_task();
        for (d, u) in fragments {
            self.fragments.push(d, u);
        }
        task.fragments = start..self.fragments.end();
        self.tasks.push(task);
    }

    /// Every task's fragments in task order, as two columns (durations ms, CPU usages MHz):
    /// the flat form of writers and tests.
    pub fn fragment_columns(&self) -> (Vec<i64>, Vec<f64>) {
        self.tasks
            .iter()
            .flat_map(|t| self.task_fragments(t))
            .unzip()
    }

    /// How many fragments task `task` has.
    pub fn fragment_count(&self, task: &TaskSpec) -> u64 {
        self.fragments.count(&task.fragments)
    }
}

impl TaskSpec {
    /// Whether time-shifting can defer the task: deferrable and with a deadline (SPEC 7.2; a
    /// deferrable task without one is never deferred).
    pub fn can_be_deferred(&self) -> bool {
        self.deferrable && self.deadline_ms.is_some()
    }

    /// Marked deferrable but without a deadline: never deferred (a reader warns about these).
    pub fn deferrable_without_deadline(&self) -> bool {
        self.deferrable && self.deadline_ms.is_none()
    }
}

/// A carbon-intensity trace: a step function over absolute time (SPEC 6.5).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CarbonTrace {
    /// Sample starts, absolute ms, strictly increasing.
    pub timestamps_ms: Vec<i64>,
    /// gCO2/kWh, finite and >= 0, one per sample.
    pub intensity: Vec<f64>,
}

impl CarbonTrace {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.timestamps_ms.len()
    }

    /// True for a trace without samples.
    pub fn is_empty(&self) -> bool {
        self.timestamps_ms.is_empty()
    }
}
