//! What a topology document may hold: the keys read per kind of object, what OpenDC reads but
//! this project does not model, and the keys that mark the SDK format.

use serde_json::Value;

/// True when the document uses a key that only the SDK format has: top-level `datacenters`,
/// `memory.size`, `cpuPowerModel.type`, `gpuPowerModel.type`, `powerSource.carbon`,
/// `cpuDistribution`, `gpuDistribution`.
pub fn is_sdk(value: &Value) -> bool {
    let Some(top) = value.as_object() else {
        return false;
    };
    if top.contains_key("datacenters") {
        return true;
    }
    let clusters = top.get("clusters").and_then(Value::as_array);
    clusters
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .any(|c| {
            let carbon = c
                .get("powerSource")
                .and_then(Value::as_object)
                .is_some_and(|p| p.contains_key("carbon"));
            let hosts = c.get("hosts").and_then(Value::as_array);
            carbon
                || hosts
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_object)
                    .any(|h| {
                        let has = |obj: &str, key: &str| {
                            h.get(obj)
                                .and_then(Value::as_object)
                                .is_some_and(|o| o.contains_key(key))
                        };
                        has("memory", "size")
                            || has("cpuPowerModel", "type")
                            || has("gpuPowerModel", "type")
                            || h.contains_key("cpuDistribution")
                            || h.contains_key("gpuDistribution")
                    })
        })
}

/// What OpenDC reads but is not modelled here: the warning kind and its message.
pub(super) fn not_modelled(object: &str, key: &str) -> Option<(&'static str, &'static str)> {
    let descriptive = (
        "descriptive",
        "vendor, model name and architecture are descriptive and not modelled (ignored)",
    );
    Some(match (object, key) {
        (_, "battery") => ("battery", "batteries are not modelled (ignored)"),
        ("cpu" | "memory" | "gpu", "vendor" | "modelName" | "arch" | "architecture") => descriptive,
        ("memory", "memorySpeed" | "speed") => ("memory-speed", "memory speed is not modelled (ignored)"),
        ("gpu", "memorySize" | "memory" | "memoryBandwidth") => {
            ("gpu-memory", "GPU memory and memory bandwidth are not modelled (ignored)")
        }
        ("gpu", "virtualizationOverhead" | "virtualizationOverHeadModel") => {
            ("gpu-virtualization", "GPU virtualization overhead is not modelled (ignored)")
        }
        ("host", "gpuPowerModel") => (
            "gpu-power",
            "GPU power is not modelled: GPUs count for the VGpu filter and weigher only",
        ),
        ("host", "cpuDistribution" | "gpuDistribution" | "cpuDistributionPolicy" | "gpuDistributionPolicy") => (
            "distribution",
            "CPU/GPU distribution policies are not modelled (ignored): a task gets the usage its fragments ask for",
        ),
        ("host", "powerModel") => (
            "powerModel",
            "\"powerModel\" is an old key that OpenDC no longer reads (it reads \"cpuPowerModel\"); ignored",
        ),
        ("powerSource", "maxPower") => {
            ("power-source-capacity", "the power source's maxPower is not modelled (ignored)")
        }
        _ => return None,
    })
}

/// Keys read here, per kind of object.
pub(super) fn known_keys(object: &str) -> &'static [&'static str] {
    match object {
        "topology" => &["clusters", "datacenters"],
        "datacenter" => &["name", "clusters", "powerSource"],
        "cluster" => &["name", "count", "hosts", "powerSource"],
        "host" => &["name", "count", "cpu", "memory", "gpu", "cpuPowerModel"],
        "cpu" => &["coreCount", "coreSpeed", "count"],
        "memory" => &["memorySize", "size"],
        "gpu" => &["count", "coreCount", "coreSpeed"],
        "powerModel" => &[
            "type",
            "modelType",
            "power",
            "idlePower",
            "maxPower",
            "calibrationFactor",
            "asymUtil",
            "dvfs",
        ],
        "powerSource" => &["name", "carbonTracePath", "carbon"],
        "carbon" => &["type", "name", "uri"],
        _ => &[],
    }
}
