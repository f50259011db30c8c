//! `policy-playground bench`: the figures of issue 6 in one run (medians of several
//! repetitions). The file-free measurements live in [`policy_playground::bench`]; this adds the
//! surf_week runs, peak memory (a child process, `bench --rss-child [DIR]`, that does one run of
//! surf_week or of the workload folder DIR and reports its high-water mark) and the wasm package
//! in Node (`tests/bench/wasm-surf-week.mjs`). A benchmark, never a timed test.
//!
//! OpenDC's half-year scale (issue 21) is surf_week tiled 18 times a week apart
//! ([`policy_playground::tile`]), built once as parquet bytes (not timed); under Mem:
//! - `halfYearScaleCopies`: the copies, 18 (2 with `--quick`).
//! - `halfYearScaleTasks`, `halfYearScaleFragments`: what the tiled workload holds (113,310 tasks
//!   and 41.8 M fragments for 18 copies).
//! - `halfYearScaleMs`: median ms of decoding the parquet bytes (in memory) and simulating.
//! - `halfYearScalePeakRssBytes`: the peak resident set of a child process that reads the tiled
//!   folder from disk, decodes and simulates it.
//! - `halfYearScaleWasmMs`: load and run ms of the tiled folder through the wasm package in Node;
//!   `halfYearScaleWasmMemoryBytes`: the wasm linear memory after that run (null without
//!   `www/pkg`).
//! - `scale31CopiesMs`: decoding and simulating 31 copies, once (null with `--quick`).
//! - `fragmentStreamFloorMs`, `halfYearScaleFloorMs`: the streaming floor of surf_week and of the
//!   tiled workload ([`policy_playground::bench::stream_floor`]): one pass over the fragment runs
//!   summing their work, the memory-bound least a simulation reads; `surfWeekRuns` and
//!   `halfYearScaleRuns` are the runs the fragments are stored as.
//! - `surfWeekPlacementsMs`: surf_week's run under Mem without the hosts' usage
//!   ([`policy_playground::sim::Options::placements_only`]: the same placements, the page's first
//!   draw after an edit), its digest given as a session gives it.

use super::{Exit, INVALID, UNREADABLE};
use policy_playground::api::handles::Session;
use policy_playground::bench::{self as b, median, ms_since};
use policy_playground::experiment::{self, Disk};
use policy_playground::input::workload::read_parquet_workload;
use policy_playground::model::{CarbonTrace, Topology, Workload};
use policy_playground::output::parquet;
use policy_playground::policy::Policy;
use policy_playground::sim::{simulate, Options, Scenario};
use policy_playground::tile::tile;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The repository root: the current folder when it holds `www/samples`, else the crate's parent.
fn root() -> PathBuf {
    if Path::new("www/samples").is_dir() {
        PathBuf::from(".")
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }
}

/// The surf_week sample, read from disk.
struct SurfWeek {
    tasks: Vec<u8>,
    fragments: Vec<u8>,
    topology_text: String,
    carbon_bytes: Vec<u8>,
    topology: Topology,
    carbon: Option<CarbonTrace>,
}

fn surf_week() -> Result<SurfWeek, Exit> {
    let dir = root().join("www/samples/surf_week");
    let read = |name: &str| {
        std::fs::read(dir.join(name)).map_err(|e| {
            eprintln!("{}: {e}", dir.join(name).display());
            UNREADABLE
        })
    };
    let topology_path = dir.join("topology.json");
    let topology = experiment::load_topology(&Disk, &topology_path).map_err(|_| INVALID)?;
    let (carbon, _) = experiment::referenced_carbon(&Disk, &topology, &topology_path);
    Ok(SurfWeek {
        tasks: read("tasks.parquet")?,
        fragments: read("fragments.parquet")?,
        topology_text: String::from_utf8_lossy(&read("topology.json")?).into_owned(),
        carbon_bytes: read("carbon.json")?,
        topology,
        carbon,
    })
}

fn run_surf(sw: &SurfWeek, workload: &Workload, policy: &Policy) -> u64 {
    run_surf_with(sw, workload, policy, Options::default())
}

/// [`run_surf`] with its options (a placements-only run, the page's first draw after an edit,
/// is given the workload's digest, as a session gives it from its first run).
fn run_surf_with(sw: &SurfWeek, workload: &Workload, policy: &Policy, options: Options) -> u64 {
    simulate(
        Scenario {
            topology: &sw.topology,
            workload,
            carbon: sw.carbon.as_ref(),
            policy,
            seed: 0,
            quantum_ms: 1000,
        },
        options,
    )
    .metrics
    .tasks_completed
}

fn decode(sw: &SurfWeek) -> Result<Workload, Exit> {
    read_parquet_workload(&sw.tasks, &sw.fragments).map_err(|_| INVALID)
}

fn fail(e: String) -> Exit {
    eprintln!("bench: {e}");
    INVALID
}

/// `bench --rss-child [DIR]`: one decode and run under Mem of surf_week, or of the workload
/// folder `dir` on surf_week's topology and carbon, then the process's peak resident set in
/// bytes on stdout (nothing on systems without `/proc/self/status`).
pub fn rss_child(dir: Option<&Path>) -> Result<(), Exit> {
    let sw = surf_week()?;
    let mem = b::policy(r#"{"type": "prefab", "policyName": "Mem"}"#).map_err(fail)?;
    let workload = match dir {
        None => decode(&sw)?,
        Some(dir) => experiment::load_workload(&Disk, dir).map_err(|_| {
            eprintln!("bench: {}: cannot read the workload folder", dir.display());
            INVALID
        })?,
    };
    std::hint::black_box(run_surf(&sw, &workload, &mem));
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    if let Some(kb) = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    {
        println!("{}", kb * 1024);
    }
    Ok(())
}

/// The peak resident set of `bench --rss-child [dir]`, `None` when it cannot be measured.
fn peak_rss(dir: Option<&Path>) -> Option<u64> {
    let exe = std::env::current_exe().ok()?;
    let out = std::process::Command::new(exe)
        .args(["bench", "--rss-child"])
        .args(dir)
        .current_dir(root())
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

/// The Node script's figures, on surf_week or (`DIR`) on the workload folder `dir`; `None` when
/// Node, the package or the script is missing or fails.
fn wasm_figures(repetitions: usize, dir: Option<&Path>) -> Option<Value> {
    let root = root();
    if !root.join("www/pkg/policy_playground_bg.wasm").is_file() {
        return None;
    }
    let mut node = std::process::Command::new("node");
    node.arg("tests/bench/wasm-surf-week.mjs")
        .arg(repetitions.to_string())
        .current_dir(&root);
    if let Some(dir) = dir {
        node.env("DIR", dir);
    }
    let out = node.output().ok()?;
    if !out.status.success() {
        eprintln!(
            "bench: wasm script: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    serde_json::from_slice(&out.stdout).ok()
}

/// The native counterpart of the wasm script: the same handles calls, load and run, median ms.
fn native_handles(sw: &SurfWeek, repetitions: usize) -> (f64, f64) {
    let mem = r#"{"type": "prefab", "policyName": "Mem"}"#;
    let (mut load, mut run) = (Vec::new(), Vec::new());
    for _ in 0..repetitions {
        let mut s = Session::new();
        let t0 = Instant::now();
        let handle =
            |a: String| serde_json::from_str::<Value>(&a).ok()?["value"]["handle"].as_u64();
        let w = handle(
            s.load_workload_parquet(&sw.tasks, &sw.fragments)
                .to_json_string(),
        );
        let t = handle(s.load_topology(&sw.topology_text).to_json_string());
        let c = handle(s.load_carbon(&sw.carbon_bytes, "json").to_json_string());
        load.push(ms_since(t0));
        let handles = json!({"topology": t, "workload": w, "carbon": c}).to_string();
        let t1 = Instant::now();
        std::hint::black_box(s.run_json_str(&handles, mem, "{}").len());
        run.push(ms_since(t1));
    }
    (median(load), median(run))
}

/// Runs the benchmark and prints its figures (as one JSON object with `json`).
pub fn run(json_out: bool, quick: bool) -> Result<(), Exit> {
    let reps = if quick { 3 } else { 7 };
    let sw = surf_week()?;
    let mem = b::policy(r#"{"type": "prefab", "policyName": "Mem"}"#).map_err(fail)?;
    let (mut dec, mut sim) = (Vec::new(), Vec::new());
    let mut completed = 0;
    let mut workload = Workload::default();
    for _ in 0..reps {
        let t0 = Instant::now();
        workload = decode(&sw)?;
        dec.push(ms_since(t0));
        let t1 = Instant::now();
        completed = run_surf(&sw, &workload, &mem);
        sim.push(ms_since(t1));
    }
    let (d, s) = (median(dec), median(sim));
    let (floor, _) = b::stream_floor(&workload, reps);
    let placements_only = || Options {
        placements_only: true,
        workload_digest: Some(String::new()),
        ..Options::default()
    };
    let placements = median(
        (0..reps)
            .map(|_| {
                let t0 = Instant::now();
                run_surf_with(&sw, &workload, &mem, placements_only());
                ms_since(t0)
            })
            .collect(),
    );

    // Every task deferrable, deadline = submission + duration + 24 h, timeshift with the stopper.
    for t in &mut workload.tasks {
        t.deferrable = true;
        t.deadline_ms = Some(t.submission_ms + t.duration_ms + 24 * 3_600_000);
    }
    let stopper =
        std::fs::read_to_string(root().join("www/samples/policies/timeshift-stopper.json"))
            .map_err(|_| UNREADABLE)?;
    let stopper = b::policy(&stopper).map_err(fail)?;
    let timeshift = median(
        (0..reps)
            .map(|_| {
                let t0 = Instant::now();
                run_surf(&sw, &workload, &stopper);
                ms_since(t0)
            })
            .collect(),
    );
    let workload_runs = workload.fragments.run_count();
    drop(workload);

    let d1k = b::decision(1_000, reps).map_err(fail)?;
    let d10k = b::decision(10_000, reps).map_err(fail)?;

    let filter = b::policy(b::FILTER_POLICY).map_err(fail)?;
    let scale_tasks = if quick { 4_000 } else { 20_000 };
    let scale = b::scale_workload(scale_tasks);
    let scale_reps = if quick { 1 } else { 3 };
    let (t1k, c1k) = b::time_simulation(&b::cluster(1_000), &scale, &filter, scale_reps);
    let (t10k, c10k) = b::time_simulation(&b::cluster(10_000), &scale, &filter, scale_reps);
    drop(scale);

    let memorize =
        b::policy(r#"{"type": "prefab", "policyName": "TaskNumMemorizing"}"#).map_err(fail)?;
    let memo_tasks = if quick { 100_000 } else { 1_000_000 };
    let (memo_ms, memo_done) = b::time_simulation(
        &b::cluster(10_000),
        &b::memorizing_workload(memo_tasks),
        &memorize,
        1,
    );

    let rss = peak_rss(None);
    let (native_load, native_run) = native_handles(&sw, reps);
    let wasm = wasm_figures(reps, None);
    let wasm_total = wasm.as_ref().and_then(|w| w["totalMs"].as_f64());
    let ratio = wasm_total.map(|w| w / (native_load + native_run));
    let w = |k: &str| wasm.as_ref().map(|w| w[k].clone());

    let half_year = half_year(&sw, &mem, quick, reps)?;
    let scale31 = if quick {
        None
    } else {
        Some(tiled_run(&sw, &mem, &tiled_bytes(&sw, 31)?)?.ms)
    };

    let mut report = json!({
        "surfWeekDecodeMs": d,
        "surfWeekSimulateMs": s,
        "surfWeekTotalMs": d + s,
        "surfWeekPlacementsMs": placements,
        "surfWeekTasksCompleted": completed,
        "surfWeekPeakRssBytes": rss,
        "surfWeekRuns": workload_runs,
        "fragmentStreamFloorMs": floor,
        "decisionNsPerHost": {"hosts1000": d1k.engine_ns_per_host, "hosts10000": d10k.engine_ns_per_host},
        "referenceNsPerHost": {"hosts1000": d1k.reference_ns_per_host, "hosts10000": d10k.reference_ns_per_host},
        "decisionRatioVsReference": {
            "hosts1000": d1k.engine_ns_per_host / d1k.reference_ns_per_host,
            "hosts10000": d10k.engine_ns_per_host / d10k.reference_ns_per_host,
        },
        "scaleTasks": scale_tasks,
        "scaleMs": {"hosts1000": t1k, "hosts10000": t10k},
        "scaleTasksCompleted": {"hosts1000": c1k, "hosts10000": c10k},
        "scaleRatio10kVs1k": t10k / t1k,
        "memorizingTasks": memo_tasks,
        "memorizingTasksCompleted": memo_done,
        "memorizingMs1MTasks10kHosts": memo_ms * 1_000_000.0 / memo_tasks as f64,
        "timeshiftSurfWeekMs": timeshift,
        "nativeHandlesLoadMs": native_load,
        "nativeHandlesRunMs": native_run,
        "wasmLoadMs": w("loadMs"),
        "wasmRunMs": w("runMs"),
        "wasmRerunMs": w("rerunMs"),
        "wasmNativeRatio": ratio,
        "scale31CopiesMs": scale31,
        "repetitions": reps,
        "quick": quick,
    });
    if let (Some(r), Value::Object(h)) = (report.as_object_mut(), half_year) {
        r.extend(h);
    }
    if json_out {
        println!("{report}");
    } else {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    }
    Ok(())
}

/// One week, ms: the step between the copies of the half-year scale.
const WEEK_MS: i64 = 7 * 24 * 3_600_000;

/// surf_week tiled `copies` times a week apart, as the bytes of tasks.parquet and
/// fragments.parquet.
fn tiled_bytes(sw: &SurfWeek, copies: u32) -> Result<(Vec<u8>, Vec<u8>), Exit> {
    let tiled = tile(&decode(sw)?, copies, WEEK_MS).map_err(fail)?;
    parquet::workload(&tiled).map_err(fail)
}

/// One decode and run of a tiled workload, and the workload decoded.
struct TiledRun {
    ms: f64,
    workload: Workload,
}

/// Decodes the parquet bytes `files` and runs them under `policy` on surf_week's topology: the ms
/// of both, and the workload's size.
fn tiled_run(sw: &SurfWeek, policy: &Policy, files: &(Vec<u8>, Vec<u8>)) -> Result<TiledRun, Exit> {
    let t0 = Instant::now();
    let workload = read_parquet_workload(&files.0, &files.1).map_err(|_| INVALID)?;
    std::hint::black_box(run_surf(sw, &workload, policy));
    Ok(TiledRun {
        ms: ms_since(t0),
        workload,
    })
}

/// The half-year figures (see the module's documentation), as a JSON object.
fn half_year(sw: &SurfWeek, mem: &Policy, quick: bool, reps: usize) -> Result<Value, Exit> {
    let copies = if quick { 2 } else { 18 };
    let files = tiled_bytes(sw, copies)?;
    let mut ms = Vec::new();
    let mut last = None;
    // At most 3 repetitions: 18 copies take seconds each.
    for _ in 0..reps.min(3) {
        let run = tiled_run(sw, mem, &files)?;
        ms.push(run.ms);
        last = Some(run);
    }
    // The last run's workload, for its size and the floor (not decoded once more).
    let workload = last.map(|r| r.workload).unwrap_or_default();
    let (floor, _) = b::stream_floor(&workload, reps.min(3));
    let fragments: u64 = workload
        .tasks
        .iter()
        .map(|t| workload.fragment_count(t))
        .sum();
    let (tasks, runs) = (workload.tasks.len(), workload.fragments.run_count());
    drop(workload);
    let dir = TempDir::with(&format!("half-year-{copies}"), &files)?;
    let rss = peak_rss(Some(&dir.0));
    let wasm = wasm_figures(1, Some(&dir.0));
    let w = |k: &str| wasm.as_ref().map(|w| w[k].clone());
    Ok(json!({
        "halfYearScaleCopies": copies,
        "halfYearScaleTasks": tasks,
        "halfYearScaleFragments": fragments,
        "halfYearScaleMs": median(ms),
        "halfYearScaleRuns": runs,
        "halfYearScaleFloorMs": floor,
        "halfYearScalePeakRssBytes": rss,
        "halfYearScaleWasmMs": w("totalMs"),
        "halfYearScaleWasmMemoryBytes": w("memoryBytes"),
    }))
}

/// A workload folder in the system's temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    /// Writes `files` (tasks.parquet, fragments.parquet) into a new folder named after `name`.
    fn with(name: &str, files: &(Vec<u8>, Vec<u8>)) -> Result<TempDir, Exit> {
        let dir =
            TempDir(std::env::temp_dir().join(format!("pp-bench-{}-{name}", std::process::id())));
        let cannot = |path: &Path, e: std::io::Error| {
            eprintln!("bench: {}: cannot write: {e}", path.display());
            UNREADABLE
        };
        std::fs::create_dir_all(&dir.0).map_err(|e| cannot(&dir.0, e))?;
        for (name, bytes) in [("tasks.parquet", &files.0), ("fragments.parquet", &files.1)] {
            let path = dir.0.join(name);
            std::fs::write(&path, bytes).map_err(|e| cannot(&path, e))?;
        }
        Ok(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
