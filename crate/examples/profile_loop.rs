//! A profiling harness: repeats one of the measurements of `policy-playground bench` so that
//! `perf record` or `valgrind --tool=callgrind` shows where its time goes, and prints medians and
//! minima (on a shared machine the minimum is the steadier figure).
//!
//! ```text
//! cargo run --release --example profile_loop -- surf-week [N] [decode|simulate]
//! cargo run --release --example profile_loop -- decision [N]
//! ```
//!
//! `surf-week` decodes surf_week and simulates it under Mem `N` times (default 20), as
//! `surfWeekDecodeMs` and `surfWeekSimulateMs` do; with `decode` or `simulate` only that part is
//! repeated (the other runs once). `decision` times the filter scheduler against the reference
//! kernel at 1,000 and 10,000 hosts, `N` times (default 3) with 7 repetitions each.
//!
//! With `PROFILE_COLLAPSE=1`, `surf-week` runs each task as one fragment of its whole duration
//! at its first fragment's usage: the same placements, completions and results without the
//! changes of usage, so the figure is what the scheduling, the event loop's task-level instants
//! and the result cost on their own (the part of the run that no way of stepping through the
//! fragments can remove; the decode figure then includes the collapsing). With
//! `PROFILE_PLACEMENTS=1` the run is of the placements only (`Options::placements_only`, the
//! page's first draw after an edit) with the workload's digest given, as a session gives it.

use policy_playground::bench::{self, median, ms_since};
use policy_playground::experiment::{self, Disk};
use policy_playground::input::workload::read_parquet_workload;
use policy_playground::model::Workload;
use policy_playground::sim::{simulate, Options, Scenario};
use std::path::Path;
use std::time::Instant;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n = |default: usize| args.get(1).and_then(|a| a.parse().ok()).unwrap_or(default);
    match args.first().map(String::as_str) {
        Some("surf-week") => surf_week(n(20), args.get(2).map(String::as_str)),
        Some("decision") => decision(n(3)),
        _ => Err("usage: profile_loop surf-week [N] [decode|simulate] | decision [N]".into()),
    }
}

fn min(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

fn surf_week(n: usize, only: Option<&str>) -> Result<(), String> {
    // Another folder of the same files (a tiling of surf_week, say) through PROFILE_DIR.
    let dir = std::env::var_os("PROFILE_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/samples/surf_week"),
        std::path::PathBuf::from,
    );
    let read = |name: &str| std::fs::read(dir.join(name)).map_err(|e| format!("{name}: {e}"));
    let (tasks, fragments) = (read("tasks.parquet")?, read("fragments.parquet")?);
    let topology_path = dir.join("topology.json");
    let topology = experiment::load_topology(&Disk, &topology_path)
        .map_err(|_| "the surf_week topology does not load".to_string())?;
    let (carbon, _) = experiment::referenced_carbon(&Disk, &topology, &topology_path);
    let policy = bench::policy(r#"{"type": "prefab", "policyName": "Mem"}"#)?;
    let collapse = std::env::var_os("PROFILE_COLLAPSE").is_some();
    let placements_only = std::env::var_os("PROFILE_PLACEMENTS").is_some();
    let decode_once = || {
        read_parquet_workload(&tasks, &fragments)
            .map(|w| if collapse { one_fragment_each(&w) } else { w })
            .map_err(|e| format!("surf_week: {e:?}"))
    };
    let (mut decode, mut sim) = (Vec::new(), Vec::new());
    let mut workload = decode_once()?;
    for i in 0..n {
        if only != Some("simulate") || i == 0 {
            let t0 = Instant::now();
            workload = decode_once()?;
            decode.push(ms_since(t0));
        }
        if only != Some("decode") || i == 0 {
            let t0 = Instant::now();
            let scenario = Scenario {
                topology: &topology,
                workload: &workload,
                carbon: carbon.as_ref(),
                policy: &policy,
                seed: 0,
                quantum_ms: 1000,
            };
            let options = Options {
                placements_only,
                workload_digest: placements_only.then(|| "given".to_string()),
                ..Options::default()
            };
            let r = simulate(scenario, options);
            sim.push(ms_since(t0));
            if r.metrics.tasks_completed as usize != workload.tasks.len() {
                return Err(format!("{} tasks completed", r.metrics.tasks_completed));
            }
        }
    }
    println!(
        "surf_week decode {:.1} ms, simulate {:.1} ms (medians of {} and {}; minima {:.1} and {:.1})",
        median(decode.clone()),
        median(sim.clone()),
        decode.len(),
        sim.len(),
        min(&decode),
        min(&sim)
    );
    Ok(())
}

/// `workload` with each task's fragments replaced by one of the task's duration at the usage of
/// its first fragment.
fn one_fragment_each(workload: &Workload) -> Workload {
    let mut out = Workload::default();
    for task in &workload.tasks {
        let usage = workload.task_fragments(task).next().map_or(0.0, |f| f.1);
        out.push_task(task.clone(), vec![(task.duration_ms, usage)]);
    }
    out
}

fn decision(n: usize) -> Result<(), String> {
    for hosts in [1_000, 10_000] {
        for _ in 0..n {
            let t = bench::decision(hosts, 7)?;
            println!(
                "{hosts} hosts: engine {:.2} ns/host, reference {:.2}, ratio {:.2}",
                t.engine_ns_per_host,
                t.reference_ns_per_host,
                t.engine_ns_per_host / t.reference_ns_per_host
            );
        }
    }
    Ok(())
}
