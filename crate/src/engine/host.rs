//! The host state a policy sees (SPEC 2) and a task's demand on it.
//!
//! `HostState` is small and `Copy` so that a cluster is one flat array the filters scan; names
//! live elsewhere (the explanation looks them up by index).

use crate::model::HostSpec;

/// A host as the filters and weighers see it: static capacity and what is provisioned now.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HostState {
    pub up: bool,
    pub cores: u32,
    /// MHz.
    pub core_speed: f64,
    /// cores x coreSpeed, MHz.
    pub cpu_capacity: f64,
    /// MiB.
    pub memory: i64,
    /// Sum of the cores over the host's GPUs.
    pub gpu_cores: u32,
    pub instance_count: u32,
    pub provisioned_cores: i64,
    /// memory - provisioned memory, MiB; below 0 under a Ram allocation ratio above 1.
    pub available_memory: i64,
    pub provisioned_gpu_cores: i64,
}

/// What a task asks of a host.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Demand {
    pub cpu_count: u32,
    /// Total over its cores, MHz.
    pub cpu_capacity: f64,
    /// MiB.
    pub memory: i64,
    pub gpu_count: u32,
    pub gpu_capacity: f64,
}

impl HostState {
    /// An empty, up host.
    pub fn empty(cores: u32, core_speed: f64, memory: i64, gpu_cores: u32) -> Self {
        HostState {
            up: true,
            cores,
            core_speed,
            cpu_capacity: cores as f64 * core_speed,
            memory,
            gpu_cores,
            instance_count: 0,
            provisioned_cores: 0,
            available_memory: memory,
            provisioned_gpu_cores: 0,
        }
    }

    /// The empty state of a topology host.
    pub fn from_spec(spec: &HostSpec) -> Self {
        HostState::empty(
            spec.cores,
            spec.core_speed_mhz,
            spec.memory_mib,
            spec.gpu_cores(),
        )
    }

    /// The same host with nothing placed on it.
    pub fn emptied(&self) -> Self {
        HostState {
            instance_count: 0,
            provisioned_cores: 0,
            available_memory: self.memory,
            provisioned_gpu_cores: 0,
            ..*self
        }
    }

    /// Charges the host with a task's demand (at placement).
    pub fn place(&mut self, d: &Demand) {
        self.instance_count += 1;
        self.provisioned_cores += d.cpu_count as i64;
        self.available_memory -= d.memory;
        self.provisioned_gpu_cores += d.gpu_count as i64;
    }

    /// Releases a task's demand (at completion or pause).
    pub fn release(&mut self, d: &Demand) {
        self.instance_count -= 1;
        self.provisioned_cores -= d.cpu_count as i64;
        self.available_memory += d.memory;
        self.provisioned_gpu_cores -= d.gpu_count as i64;
    }
}
