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

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields of a host that placements change: (instanceCount, provisionedCores,
    /// availableMemory, provisionedGpuCores).
    fn dynamic(h: &HostState) -> (u32, i64, i64, i64) {
        (
            h.instance_count,
            h.provisioned_cores,
            h.available_memory,
            h.provisioned_gpu_cores,
        )
    }

    /// SPEC 2: cpuCapacity = cores x coreSpeed (6 x 2500 = 15000); an empty host has nothing
    /// provisioned and all its memory available.
    #[test]
    fn an_empty_host_has_its_capacity_and_nothing_provisioned() {
        let h = HostState::empty(6, 2500.0, 8192, 3);
        assert_eq!(
            (h.cores, h.core_speed, h.cpu_capacity),
            (6, 2500.0, 15000.0)
        );
        assert_eq!((h.memory, h.gpu_cores, h.up), (8192, 3, true));
        assert_eq!(dynamic(&h), (0, 0, 8192, 0));
    }

    /// A placement charges the task's demand (3 cores, 1536 MiB, 1 GPU core) and a release
    /// gives it back: two placements on 4096 MiB leave 4096 - 2 x 1536 = 1024 MiB; one release
    /// 2560. `emptied` forgets every placement and keeps the static fields.
    #[test]
    fn placements_charge_and_releases_return_the_demand() {
        let d = Demand {
            cpu_count: 3,
            cpu_capacity: 6000.0,
            memory: 1536,
            gpu_count: 1,
            gpu_capacity: 0.0,
        };
        let empty = HostState::empty(8, 2000.0, 4096, 4);
        let mut h = empty;
        h.place(&d);
        h.place(&d);
        assert_eq!(dynamic(&h), (2, 6, 1024, 2));
        h.release(&d);
        assert_eq!(dynamic(&h), (1, 3, 2560, 1));
        assert_eq!(h.emptied(), empty);
        h.release(&d);
        assert_eq!(h, empty);
    }
}
