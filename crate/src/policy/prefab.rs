//! The 14 prefab policies and their explicit equivalents (SPEC 5).

use super::spec::{Filter, Policy, Timeshift, Weigher, WeigherKind};

/// A prefab name, as the documentation spells it, with a one-line description.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrefabDef {
    pub name: &'static str,
    pub doc: &'static str,
}

/// Every prefab, in the order of SPEC 5.
pub const PREFABS: &[PrefabDef] = &[
    PrefabDef {
        name: "Mem",
        doc: "Most free memory first (the default policy; no Compute filter).",
    },
    PrefabDef {
        name: "MemInv",
        doc: "Least free memory first (packing).",
    },
    PrefabDef {
        name: "CoreMem",
        doc: "Most free memory per core first.",
    },
    PrefabDef {
        name: "CoreMemInv",
        doc: "Least free memory per core first.",
    },
    PrefabDef {
        name: "ActiveServers",
        doc: "Fewest running tasks first (spreading).",
    },
    PrefabDef {
        name: "ActiveServersInv",
        doc: "Most running tasks first (packing).",
    },
    PrefabDef {
        name: "ProvisionedCores",
        doc: "Fewest provisioned cores first.",
    },
    PrefabDef {
        name: "ProvisionedCoresInv",
        doc: "Most provisioned cores first.",
    },
    PrefabDef {
        name: "Random",
        doc: "A random host among all that fit.",
    },
    PrefabDef {
        name: "TaskNumMemorizing",
        doc: "Least-loaded fitting host; tasks that do not fit are passed over.",
    },
    PrefabDef {
        name: "Timeshift",
        doc: "Mem, deferring deferrable tasks while carbon intensity is high.",
    },
    PrefabDef {
        name: "ProvisionedCpuGpuCores",
        doc: "Fewest provisioned CPU and GPU cores first.",
    },
    PrefabDef {
        name: "ProvisionedCpuGpuCoresInv",
        doc: "Most provisioned CPU and GPU cores first.",
    },
    PrefabDef {
        name: "GpuTaskMemorizing",
        doc: "Memorizing, with the GPU filter.",
    },
];

/// Finds a prefab by name: case-insensitive, surrounding blanks ignored.
pub fn find(name: &str) -> Option<&'static PrefabDef> {
    let name = name.trim();
    PREFABS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

const COMPUTE_VCPU_RAM: [Filter; 3] = [
    Filter::Compute,
    Filter::VCpu {
        allocation_ratio: 1.0,
    },
    Filter::Ram {
        allocation_ratio: 1.0,
    },
];

const GPU_FILTERS: [Filter; 4] = [
    Filter::Compute,
    Filter::VCpu {
        allocation_ratio: 1.0,
    },
    Filter::VGpu {
        allocation_ratio: 1.0,
    },
    Filter::Ram {
        allocation_ratio: 1.0,
    },
];

fn weigher(kind: WeigherKind, multiplier: f64) -> Weigher {
    Weigher { kind, multiplier }
}

fn filter_policy(filters: &[Filter], weighers: Vec<Weigher>) -> Policy {
    Policy {
        filters: filters.to_vec(),
        weighers,
        subset_size: 1,
        memorize: false,
        max_times_skipped: 7,
        timeshift: None,
    }
}

/// The timeshift defaults of SPEC 1, without a task stopper.
pub const TIMESHIFT_DEFAULTS: Timeshift = Timeshift {
    forecast: true,
    forecast_size: 24,
    short_forecast_threshold: 0.2,
    long_forecast_threshold: 0.35,
    window_size: 168,
    task_stopper: None,
};

/// The explicit policy of a prefab (SPEC 5). `name` must be one of [`PREFABS`].
pub fn expand(def: &PrefabDef) -> Policy {
    use WeigherKind as W;
    match def.name {
        "Mem" => filter_policy(&COMPUTE_VCPU_RAM[1..], vec![weigher(W::Ram, 1.0)]),
        "MemInv" => filter_policy(&COMPUTE_VCPU_RAM, vec![weigher(W::Ram, -1.0)]),
        "CoreMem" => filter_policy(&COMPUTE_VCPU_RAM, vec![weigher(W::CoreRam, 1.0)]),
        "CoreMemInv" => filter_policy(&COMPUTE_VCPU_RAM, vec![weigher(W::CoreRam, -1.0)]),
        "ActiveServers" => filter_policy(&COMPUTE_VCPU_RAM, vec![weigher(W::InstanceCount, -1.0)]),
        "ActiveServersInv" => {
            filter_policy(&COMPUTE_VCPU_RAM, vec![weigher(W::InstanceCount, 1.0)])
        }
        "ProvisionedCores" => filter_policy(&COMPUTE_VCPU_RAM, vec![weigher(W::VCpu, 1.0)]),
        "ProvisionedCoresInv" => filter_policy(&COMPUTE_VCPU_RAM, vec![weigher(W::VCpu, -1.0)]),
        "Random" => Policy {
            subset_size: i32::MAX as u32,
            ..filter_policy(&COMPUTE_VCPU_RAM, vec![])
        },
        "TaskNumMemorizing" => Policy {
            memorize: true,
            ..filter_policy(&COMPUTE_VCPU_RAM, vec![])
        },
        "Timeshift" => Policy {
            timeshift: Some(TIMESHIFT_DEFAULTS),
            ..filter_policy(&COMPUTE_VCPU_RAM, vec![weigher(W::Ram, 1.0)])
        },
        "ProvisionedCpuGpuCores" => filter_policy(
            &GPU_FILTERS,
            vec![weigher(W::VCpu, 1.0), weigher(W::VGpu, 1.0)],
        ),
        "ProvisionedCpuGpuCoresInv" => filter_policy(
            &GPU_FILTERS,
            vec![weigher(W::VCpu, -1.0), weigher(W::VGpu, -1.0)],
        ),
        "GpuTaskMemorizing" => Policy {
            memorize: true,
            ..filter_policy(&GPU_FILTERS, vec![])
        },
        other => unreachable!("{other} is not in PREFABS"),
    }
}

/// The default policy, `Mem`.
pub fn default_policy() -> Policy {
    expand(&PREFABS[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_trimmed() {
        assert_eq!(
            find(" tasknummemorizing ").map(|p| p.name),
            Some("TaskNumMemorizing")
        );
        assert_eq!(find("MEM").map(|p| p.name), Some("Mem"));
        assert!(find("Memory").is_none());
    }

    #[test]
    fn every_prefab_expands() {
        assert_eq!(PREFABS.len(), 14);
        for p in PREFABS {
            let policy = expand(p);
            assert!(!policy.filters.is_empty(), "{}", p.name);
        }
        assert_eq!(
            expand(&PREFABS[0]).filters.len(),
            2,
            "Mem has no Compute filter"
        );
        assert_eq!(
            expand(find("Timeshift").unwrap())
                .timeshift
                .unwrap()
                .task_stopper,
            None
        );
    }
}
