//! Regenerates the playground's embedded samples under `www/samples/` from the seeded generator
//! (`policy_playground::synth`) and OpenDC's sample data (`shared/opendc-samples/`, MIT):
//!
//! - `teaching/scenario.json`: seven hosts of three sizes, 200 synthetic tasks over three days
//!   (about half deferrable, deadline = submission + 3 x duration as OpenDC's `deferAll`), and the
//!   real hourly Netherlands carbon intensity for those days, cut from `NL_2021-2024.parquet`;
//! - `surf_week/`: OpenDC's surf_week workload as it is, its SURF topology, and the Netherlands
//!   carbon trace for that week (as JSON).
//!
//! Run from the repository root: `cargo run --release --example make_samples -- ../shared/opendc-samples`.

use policy_playground::experiment::{self, Disk};
use policy_playground::model::{CarbonTrace, Workload};
use policy_playground::synth::{generate, SynthSpec};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// 2022-06-13T00:00:00Z: a June week with sunny middays in the Netherlands.
const TEACHING_START_MS: i64 = 1_655_078_400_000;
const DAY_MS: i64 = 86_400_000;

fn main() -> Result<(), String> {
    let samples = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "../shared/opendc-samples".into()),
    );
    let out = PathBuf::from("www/samples");
    let nl = experiment::load_carbon(&Disk, &samples.join("carbon/NL_2021-2024.parquet"))
        .map_err(|e| format!("{:?}", e.diagnostics()))?;
    teaching(&out.join("teaching"), &nl)?;
    surf_week(&samples, &out.join("surf_week"), &nl)?;
    Ok(())
}

fn teaching_spec() -> SynthSpec {
    SynthSpec {
        seed: 2022,
        tasks: 200,
        start_epoch_ms: TEACHING_START_MS + 6 * 3_600_000,
        mean_interarrival_ms: (3 * DAY_MS) as f64 / 200.0,
        cores: vec![(1, 3.0), (2, 3.0), (4, 2.0), (8, 1.5), (16, 0.5)],
        memory_per_core_mib: (1024.0, 4096.0),
        duration_ms: (10.0 * 60_000.0, 8.0 * 3_600_000.0),
        fragment_ms: 5 * 60_000,
        deferrable_share: 0.5,
        core_speed_mhz: 2100.0,
        usage: (0.4, 1.0),
    }
}

fn teaching_topology() -> Value {
    let host = |name: &str,
                count: u32,
                cores: u32,
                speed: u32,
                memory: u64,
                model: &str,
                idle: f64,
                max: f64| {
        json!({
            "name": name, "count": count,
            "cpu": {"coreCount": cores, "coreSpeed": speed},
            "memory": {"memorySize": memory},
            "cpuPowerModel": {"modelType": model, "idlePower": idle, "maxPower": max, "power": max}
        })
    };
    json!({"clusters": [
        {"name": "rack-A", "hosts": [host("small", 4, 8, 2400, 32768, "linear", 70.0, 200.0)]},
        {"name": "rack-B", "hosts": [
            host("large", 2, 32, 2100, 131072, "sqrt", 150.0, 450.0),
            host("bigmem", 1, 16, 2100, 262144, "linear", 120.0, 300.0)
        ]}
    ]})
}

/// The workload as the scenario file's `{"tasks": [...]}`, fragments in the compact form.
fn workload_json(w: &Workload) -> Value {
    let tasks: Vec<Value> = w
        .tasks
        .iter()
        .map(|t| {
            let (duration, usage): (Vec<i64>, Vec<f64>) = w.task_fragments(t).unzip();
            let mut task = json!({
                "id": t.id, "name": t.name, "submissionTime": t.submission_ms, "duration": t.duration_ms,
                "cpuCount": t.cpu_count, "cpuCapacity": t.cpu_capacity_mhz, "memory": t.memory_mib,
                "deferrable": t.deferrable,
                "fragments": {"duration": duration, "cpuUsage": usage}
            });
            if let Some(d) = t.deadline_ms {
                task["deadline"] = json!(d);
            }
            task
        })
        .collect();
    json!({"tasks": tasks})
}

/// The samples of `trace` from the one in force at `from` to the first at or after `to`.
fn cut(trace: &CarbonTrace, from: i64, to: i64) -> Vec<Value> {
    let first = trace
        .timestamps_ms
        .partition_point(|&t| t <= from)
        .saturating_sub(1);
    let last = trace
        .timestamps_ms
        .partition_point(|&t| t < to)
        .min(trace.len() - 1);
    (first..=last)
        .map(
            |i| json!({"timestamp": trace.timestamps_ms[i], "carbonIntensity": trace.intensity[i]}),
        )
        .collect()
}

fn write(path: &Path, value: &Value) -> Result<(), String> {
    std::fs::create_dir_all(path.parent().unwrap_or(Path::new("."))).map_err(|e| e.to_string())?;
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))
}

fn teaching(dir: &Path, nl: &CarbonTrace) -> Result<(), String> {
    let spec = teaching_spec();
    let workload = generate(&spec);
    let scenario = json!({
        "topology": teaching_topology(),
        "workload": workload_json(&workload),
        "carbon": cut(nl, TEACHING_START_MS, TEACHING_START_MS + 5 * DAY_MS),
        "policy": {"type": "prefab", "policyName": "Mem"},
        "seed": 0,
        "quantumMs": 1000
    });
    write(&dir.join("scenario.json"), &scenario)
}

fn surf_week(samples: &Path, dir: &Path, nl: &CarbonTrace) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    for f in ["tasks.parquet", "fragments.parquet"] {
        std::fs::copy(samples.join("workloads/surf_week").join(f), dir.join(f))
            .map_err(|e| format!("{f}: {e}"))?;
    }
    let topology = std::fs::read_to_string(samples.join("topologies/legacy/surfsara_NL.json"))
        .map_err(|e| e.to_string())?;
    let mut topology: Value = serde_json::from_str(&topology).map_err(|e| e.to_string())?;
    topology["clusters"][0]["powerSource"]["carbonTracePath"] = json!("carbon.json");
    write(&dir.join("topology.json"), &topology)?;
    let workload = experiment::load_workload(&Disk, &samples.join("workloads/surf_week"))
        .map_err(|e| format!("{:?}", e.diagnostics()))?;
    let first = workload
        .tasks
        .iter()
        .map(|t| t.submission_ms)
        .min()
        .unwrap_or(0);
    let last = workload
        .tasks
        .iter()
        .map(|t| t.submission_ms + 4 * t.duration_ms)
        .max()
        .unwrap_or(0);
    write(
        &dir.join("carbon.json"),
        &Value::Array(cut(nl, first, last)),
    )
}
