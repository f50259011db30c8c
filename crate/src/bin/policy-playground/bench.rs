//! `policy-playground bench`: how long surf_week takes natively, parquet decoding and simulation
//! measured separately (medians of several repetitions). A benchmark, never a timed test.

use super::{Exit, INVALID, UNREADABLE};
use policy_playground::experiment::{self, Disk};
use policy_playground::policy::policy_from_text;
use policy_playground::sim::{simulate, Options, Scenario};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where the embedded samples are: `www/samples` under the current folder, else beside the crate.
fn samples_dir() -> PathBuf {
    let here = PathBuf::from("www/samples");
    if here.is_dir() {
        here
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/samples")
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs the benchmark and prints its figures (as one JSON object with `json`).
pub fn run(json: bool, quick: bool) -> Result<(), Exit> {
    let dir = samples_dir().join("surf_week");
    let repetitions = if quick { 3 } else { 7 };
    let tasks = std::fs::read(dir.join("tasks.parquet")).map_err(|e| {
        eprintln!("{}: {e}", dir.display());
        UNREADABLE
    })?;
    let fragments = std::fs::read(dir.join("fragments.parquet")).map_err(|_| UNREADABLE)?;
    let topology =
        experiment::load_topology(&Disk, &dir.join("topology.json")).map_err(|_| INVALID)?;
    let (carbon, _) = experiment::referenced_carbon(&Disk, &topology, &dir.join("topology.json"));
    let policy = policy_from_text(r#"{"type": "prefab", "policyName": "Mem"}"#)
        .map_err(|_| INVALID)?
        .0;
    let mut decode = Vec::new();
    let mut sim = Vec::new();
    let mut completed = 0;
    for _ in 0..repetitions {
        let t0 = Instant::now();
        let workload =
            policy_playground::input::workload::read_parquet_workload(&tasks, &fragments)
                .map_err(|_| INVALID)?;
        decode.push(t0.elapsed().as_secs_f64() * 1000.0);
        let t1 = Instant::now();
        let r = simulate(
            Scenario {
                topology: &topology,
                workload: &workload,
                carbon: carbon.as_ref(),
                policy: &policy,
                seed: 0,
                quantum_ms: 1000,
            },
            Options::default(),
        );
        sim.push(t1.elapsed().as_secs_f64() * 1000.0);
        completed = r.metrics.tasks_completed;
    }
    let (d, s) = (median(decode), median(sim));
    if json {
        println!(
            "{}",
            serde_json::json!({
                "surfWeekDecodeMs": d,
                "surfWeekSimulateMs": s,
                "surfWeekTotalMs": d + s,
                "surfWeekTasksCompleted": completed,
                "repetitions": repetitions,
            })
        );
    } else {
        println!("surf_week (6295 tasks, 277 hosts, Mem, NL carbon), median of {repetitions}:");
        println!("  decode parquet  {d:8.1} ms");
        println!("  simulate        {s:8.1} ms");
        println!(
            "  total           {:8.1} ms  ({completed} tasks completed)",
            d + s
        );
    }
    Ok(())
}
