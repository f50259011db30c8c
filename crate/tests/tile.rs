//! `policy-playground tile`: surf_week repeated in time, written as an OpenDC folder, reads back
//! as the library's tiling and runs twice the tasks of one copy.

use policy_playground::experiment::{self, Disk};
use policy_playground::tile::tile;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_policy-playground");
const WEEK_MS: i64 = 604_800_000;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn surf_week() -> PathBuf {
    root().join("www/samples/surf_week")
}

/// Runs the binary: exit code, stdout, stderr.
fn cli(args: &[&Path]) -> (i32, Vec<u8>, String) {
    let out = Command::new(BIN).args(args).output().expect("runs");
    (
        out.status.code().expect("exited"),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `simulate --json` of a workload on surf_week's topology under Mem: its tasksCompleted.
fn tasks_completed(workload: &Path) -> u64 {
    let (code, stdout, stderr) = cli(&[
        Path::new("simulate"),
        Path::new("--json"),
        Path::new("--workload"),
        workload,
        Path::new("--topology"),
        &surf_week().join("topology.json"),
        Path::new("--policy"),
        &root().join("www/samples/policies/mem.json"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_slice(&stdout).expect("JSON");
    v["metrics"]["tasksCompleted"]
        .as_u64()
        .expect("tasksCompleted")
}

#[test]
fn two_copies_of_surf_week_complete_twice_its_tasks() {
    let out = std::env::temp_dir().join(format!("pp-tile-{}", std::process::id()));
    let (code, stdout, stderr) = cli(&[
        Path::new("tile"),
        Path::new("--workload"),
        &surf_week(),
        Path::new("--copies"),
        Path::new("2"),
        Path::new("--out"),
        &out,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(String::from_utf8_lossy(&stdout).contains("2 copies"));

    // The folder holds exactly the library's tiling (a week apart by default).
    let original = experiment::load_workload(&Disk, &surf_week()).expect("surf_week");
    let written = experiment::load_workload(&Disk, &out).expect("the tiled folder");
    let expected = tile(&original, 2, WEEK_MS).expect("tiles");
    assert_eq!(written.tasks.len(), 2 * original.tasks.len());
    assert_eq!(written.tasks, expected.tasks);
    let n = original.tasks.len();
    let (first, second) = (&written.tasks[0], &written.tasks[n]);
    assert_eq!(second.submission_ms - first.submission_ms, WEEK_MS);
    assert_eq!(
        written.task_fragments(second).collect::<Vec<_>>(),
        original
            .task_fragments(&original.tasks[0])
            .collect::<Vec<_>>()
    );

    let single = tasks_completed(&surf_week());
    assert!(single > 0);
    assert_eq!(tasks_completed(&out), 2 * single);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn zero_copies_is_invalid_input() {
    let out = std::env::temp_dir().join(format!("pp-tile-zero-{}", std::process::id()));
    let (code, _, stderr) = cli(&[
        Path::new("tile"),
        Path::new("--workload"),
        &surf_week(),
        Path::new("--copies"),
        Path::new("0"),
        Path::new("--out"),
        &out,
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("copies must be at least 1"), "{stderr}");
    assert!(!out.exists(), "nothing is written");
}
