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

/// In an SDK experiment, a key OpenDC3 reads that is not modelled here: its warning kind and
/// message, or no message when it cannot change a result (SPEC 11.10: descriptive hardware
/// strings, memory speed, names; a power source's capacity is compared by the experiment reader).
pub(super) fn sdk_not_modelled(
    object: &str,
    key: &str,
) -> Option<(&'static str, Option<&'static str>)> {
    let silent = matches!(
        (object, key),
        (
            "cpu" | "memory" | "gpu",
            "vendor" | "modelName" | "architecture"
        ) | ("memory", "speed")
            | ("powerSource", "maxPower")
    );
    if silent {
        return Some(("silent", None));
    }
    if sdk_legacy_only(object, key) {
        return None;
    }
    not_modelled(object, key).map(|(kind, message)| (kind, Some(message)))
}

/// Removes from an SDK experiment's topology every key that only the legacy format has, so that
/// the walk reads SDK spellings only; each removed key is returned with its path, to be reported
/// as a key OpenDC3 does not know (SPEC 11.5: "a warning, then a missing-field error").
pub(super) fn strip_legacy_keys(value: &mut Value) -> Vec<(String, String)> {
    let mut removed = Vec::new();
    strip(value, "topology", "", &mut removed);
    removed
}

fn strip(value: &mut Value, kind: &str, path: &str, removed: &mut Vec<(String, String)>) {
    let Value::Object(obj) = value else {
        return;
    };
    let legacy: Vec<String> = obj
        .keys()
        .filter(|k| sdk_legacy_only(kind, k))
        .cloned()
        .collect();
    for key in legacy {
        obj.shift_remove(&key);
        removed.push((kind.to_string(), super::join(path, &key)));
    }
    for (key, child) in obj.iter_mut() {
        let at = super::join(path, key);
        let child_kind = match (kind, key.as_str()) {
            ("topology", "clusters") | ("cluster", "hosts") => {
                let item = if kind == "topology" {
                    "cluster"
                } else {
                    "host"
                };
                if let Value::Array(items) = child {
                    for (i, v) in items.iter_mut().enumerate() {
                        strip(v, item, &format!("{at}[{i}]"), removed);
                    }
                }
                continue;
            }
            ("cluster", "powerSource") => "powerSource",
            ("powerSource", "carbon") => "carbon",
            ("host", "cpu") => "cpu",
            ("host", "memory") => "memory",
            ("host", "gpu") => "gpu",
            ("host", "cpuPowerModel" | "gpuPowerModel") => "powerModel",
            _ => continue,
        };
        strip(child, child_kind, &at, removed);
    }
}

/// Keys of the legacy format that OpenDC3's SDK reader does not know.
fn sdk_legacy_only(object: &str, key: &str) -> bool {
    matches!(
        (object, key),
        ("topology", "datacenters")
            | ("memory", "memorySize")
            | ("powerModel", "modelType")
            | ("powerSource", "carbonTracePath")
            | ("cpu" | "memory" | "gpu", "arch")
            | ("memory", "memorySpeed")
            | ("gpu", "memorySize" | "virtualizationOverHeadModel")
            | (
                "host",
                "powerModel" | "cpuDistributionPolicy" | "gpuDistributionPolicy"
            )
    )
}

/// The keys OpenDC3's SDK model has for each kind of topology object (SPEC 11.5), for the
/// message about an unknown key.
pub(super) fn sdk_keys(object: &str) -> &'static [&'static str] {
    match object {
        "topology" => &["clusters"],
        "cluster" => &["name", "count", "hosts", "powerSource", "battery"],
        "host" => &[
            "name",
            "count",
            "cpu",
            "memory",
            "gpu",
            "cpuPowerModel",
            "gpuPowerModel",
            "cpuDistribution",
            "gpuDistribution",
        ],
        "cpu" => &[
            "coreCount",
            "coreSpeed",
            "count",
            "vendor",
            "modelName",
            "architecture",
        ],
        "memory" => &["size", "speed", "vendor", "modelName", "architecture"],
        "gpu" => &[
            "count",
            "coreCount",
            "coreSpeed",
            "memory",
            "memoryBandwidth",
            "vendor",
            "modelName",
            "architecture",
            "virtualizationOverhead",
        ],
        "powerModel" => &[
            "type",
            "power",
            "idlePower",
            "maxPower",
            "calibrationFactor",
            "asymUtil",
            "dvfs",
        ],
        "powerSource" => &["name", "maxPower", "carbon"],
        "carbon" => &["type", "name", "uri"],
        _ => &[],
    }
}
