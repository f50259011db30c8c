//! The model as the JSON the readers take: a topology in OpenDC's `clusters[].hosts[]` form, a
//! workload `{"tasks": [...]}` with compact fragments, a carbon trace
//! `[{"timestamp", "carbonIntensity"}]`. Numbers are written by serde_json, whose shortest
//! round-trip form reads back to the same `f64`.

use crate::model::{CarbonTrace, PowerModel, Topology, Workload};
use serde_json::{json, Map, Value};

/// A power model as a topology's `cpuPowerModel`.
pub fn power_model(p: &PowerModel) -> Value {
    match *p {
        PowerModel::Constant { power } => json!({"modelType": "constant", "power": power}),
        PowerModel::Linear { idle, max } => {
            json!({"modelType": "linear", "idlePower": idle, "maxPower": max})
        }
        PowerModel::Sqrt { idle, max } => {
            json!({"modelType": "sqrt", "idlePower": idle, "maxPower": max})
        }
        PowerModel::Square { idle, max } => {
            json!({"modelType": "square", "idlePower": idle, "maxPower": max})
        }
        PowerModel::Cubic { idle, max } => {
            json!({"modelType": "cubic", "idlePower": idle, "maxPower": max})
        }
        PowerModel::Mse {
            idle,
            max,
            calibration,
        } => json!({"modelType": "mse", "idlePower": idle, "maxPower": max,
                    "calibrationFactor": calibration}),
        PowerModel::Asymptotic {
            idle,
            max,
            asym_util,
            dvfs,
        } => json!({"modelType": "asymptotic", "idlePower": idle, "maxPower": max,
                    "asymUtil": asym_util, "dvfs": dvfs}),
    }
}

/// A topology (clusters already repeated by their counts, as the reader leaves them).
/// `carbon_path` is written as the first cluster's `powerSource.carbonTracePath` when given.
pub fn topology(t: &Topology, carbon_path: Option<&str>) -> Value {
    let clusters: Vec<Value> = t
        .clusters
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let hosts: Vec<Value> = c
                .groups
                .iter()
                .map(|g| {
                    let mut host = Map::new();
                    host.insert("name".into(), json!(g.name));
                    host.insert("count".into(), json!(g.count));
                    host.insert(
                        "cpu".into(),
                        json!({"coreCount": g.cores, "coreSpeed": g.core_speed_mhz}),
                    );
                    host.insert("memory".into(), json!({"memorySize": g.memory_mib}));
                    if let Some(gpu) = g.gpus.first() {
                        host.insert(
                            "gpu".into(),
                            json!({"count": g.gpus.len(), "coreCount": gpu.cores,
                                   "coreSpeed": gpu.core_speed_mhz}),
                        );
                    }
                    host.insert("cpuPowerModel".into(), power_model(&g.power));
                    Value::Object(host)
                })
                .collect();
            let mut cluster = json!({"name": c.name, "hosts": hosts});
            if let (0, Some(path)) = (i, carbon_path) {
                cluster["powerSource"] = json!({"carbonTracePath": path});
            }
            cluster
        })
        .collect();
    json!({ "clusters": clusters })
}

/// A workload: every task with its fragments (or its duration when it has none).
pub fn workload(w: &Workload) -> Value {
    let tasks: Vec<Value> = w
        .tasks
        .iter()
        .map(|t| {
            let mut task = Map::new();
            task.insert("id".into(), json!(t.id));
            task.insert("name".into(), json!(t.name));
            task.insert("submissionTime".into(), json!(t.submission_ms));
            if t.fragments.is_empty() {
                task.insert("duration".into(), json!(t.duration_ms));
            }
            task.insert("cpuCount".into(), json!(t.cpu_count));
            task.insert("cpuCapacity".into(), json!(t.cpu_capacity_mhz));
            task.insert("memory".into(), json!(t.memory_mib));
            if t.gpu_count > 0 || t.gpu_capacity_mhz != 0.0 {
                task.insert("gpuCount".into(), json!(t.gpu_count));
                task.insert("gpuCapacity".into(), json!(t.gpu_capacity_mhz));
            }
            if t.deferrable {
                task.insert("deferrable".into(), json!(true));
            }
            if let Some(d) = t.deadline_ms {
                task.insert("deadline".into(), json!(d));
            }
            if !t.fragments.is_empty() {
                let (duration, usage): (Vec<i64>, Vec<f64>) = w.task_fragments(t).unzip();
                task.insert(
                    "fragments".into(),
                    json!({"duration": duration, "cpuUsage": usage}),
                );
            }
            Value::Object(task)
        })
        .collect();
    json!({ "tasks": tasks })
}

/// A carbon trace, timestamps in ms since the epoch.
pub fn carbon(c: &CarbonTrace) -> Value {
    Value::Array(
        c.timestamps_ms
            .iter()
            .zip(&c.intensity)
            .map(|(t, v)| json!({"timestamp": t, "carbonIntensity": v}))
            .collect(),
    )
}
