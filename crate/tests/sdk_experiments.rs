//! OpenDC3 (SDK) experiments run whole (SPEC 11): the experiment cases of
//! `tests/conformance/opendc3/cases.json` through the CLI (`simulate --experiment`, under the
//! semantics each case names and under Classic), and OpenDC's own SDK samples.

use policy_playground::experiment::{self, Disk, Format, LoadError};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn checkout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn samples() -> PathBuf {
    checkout().join("../shared/opendc-samples")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pp-sdk-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `simulate --experiment FILE --json [ARGS]`: exit code, the parsed items, stderr.
fn simulate(file: &Path, args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_policy-playground"))
        .args(["simulate", "--experiment"])
        .arg(file)
        .arg("--json")
        .args(args)
        .output()
        .expect("runs the CLI");
    let code = out.status.code().unwrap_or(-1);
    let items = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        code,
        items,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(checkout().join("tests/conformance/opendc3/cases.json"))
        .expect("tests/conformance/opendc3/cases.json (a copy of shared/conformance/opendc3)");
    let v: Value = serde_json::from_str(&text).expect("cases.json is JSON");
    v["experiments"]
        .as_array()
        .expect("an experiments list")
        .clone()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// Checks one run's figures against an `expect` (or `classic`) block; returns the mismatches.
fn mismatches(result: &Value, expect: &Value) -> Vec<String> {
    let mut out = vec![];
    let m = &result["metrics"];
    for (key, metric) in [
        ("makespanMs", "makespanMs"),
        ("energyJ", "energyJ"),
        ("idleEnergyJ", "idleEnergyJ"),
        ("dynamicEnergyJ", "dynamicEnergyJ"),
    ] {
        if let Some(want) = expect[key].as_f64() {
            let got = m[metric].as_f64().unwrap_or(f64::NAN);
            if !close(got, want) {
                out.push(format!("{key}: expected {want}, got {got}"));
            }
        }
    }
    let tasks = result["tasks"].as_array().cloned().unwrap_or_default();
    let task = |name: &str| {
        tasks
            .iter()
            .find(|t| t["name"] == name)
            .cloned()
            .unwrap_or(Value::Null)
    };
    for want in expect["tasks"].as_array().into_iter().flatten() {
        let name = want["name"].as_str().unwrap_or("");
        let got = task(name);
        for key in ["host", "startMs", "finishMs"] {
            if got[key] != want[key] {
                out.push(format!(
                    "task {name} {key}: expected {}, got {}",
                    want[key], got[key]
                ));
            }
        }
    }
    if let Some(hosts) = expect["hosts"].as_object() {
        for (name, host) in hosts {
            if task(name)["host"] != *host {
                out.push(format!(
                    "task {name}: expected host {host}, got {}",
                    task(name)["host"]
                ));
            }
        }
    }
    out
}

#[test]
fn every_experiment_case_runs_to_its_expected_figures_under_both_semantics() {
    let cases = cases();
    assert_eq!(cases.len(), 2, "the opendc3 experiment cases");
    for case in cases {
        let name = case["name"].as_str().unwrap_or("?");
        let dir = temp_dir(&format!("case-{}", name.len()));
        let file = dir.join("experiment.json");
        std::fs::write(
            &file,
            serde_json::to_string_pretty(&case["experiment"]).unwrap(),
        )
        .unwrap();
        let semantics = case["semantics"].as_str().unwrap_or("classic");

        let (code, items, stderr) = simulate(&file, &["--semantics", semantics]);
        assert_eq!(code, 0, "{name}: {stderr}");
        let runs = items.as_array().expect("one item per run");
        assert_eq!(runs.len(), 1, "{name}");
        let problems = mismatches(&runs[0]["result"], &case["expect"]);
        assert!(
            problems.is_empty(),
            "{name} under {semantics}: {problems:#?}"
        );

        let exp = experiment::load(&Disk, &file).expect("loads");
        assert_eq!(exp.format, Format::Sdk, "{name}");
        let warned: Vec<&str> = exp.warnings.iter().map(|d| d.path.as_str()).collect();
        let expected: Vec<&str> = case["expect"]["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(warned, expected, "{name}: warnings {:#?}", exp.warnings);

        let (code, classic, stderr) = simulate(&file, &[]);
        assert_eq!(code, 0, "{name} under classic: {stderr}");
        let want = if case["classic"]["same"] == true {
            &case["expect"]
        } else {
            &case["classic"]
        };
        let problems = mismatches(&classic[0]["result"], want);
        assert!(problems.is_empty(), "{name} under classic: {problems:#?}");
    }
}

#[test]
fn opendc_tiny_experiment_runs_with_one_warning_for_the_ignored_scheduler_key() {
    let file = samples().join("experiments/sdk/tiny-experiment.json");
    let exp = experiment::load(&Disk, &file).expect("tiny-experiment.json loads");
    assert_eq!(exp.warnings.len(), 1, "{:#?}", exp.warnings);
    let w = &exp.warnings[0];
    assert_eq!(w.path, "allocationPolicies[0].scheduler");
    assert!(
        w.message
            .contains("OpenDC3 ignores `scheduler`; this prefab runs Mem"),
        "{}",
        w.message
    );
    // The key's line in the file: `{ "type": "prefab", "scheduler": "Mem" }`.
    let text = std::fs::read_to_string(&file).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("\"scheduler\""))
        .unwrap()
        + 1;
    assert_eq!(w.line, Some(line as u32));
    let (code, items, stderr) = simulate(&file, &[]);
    assert_eq!(code, 0, "{stderr}");
    let m = &items[0]["result"]["metrics"];
    assert_eq!(
        (m["tasksTotal"].as_u64(), m["tasksCompleted"].as_u64()),
        (Some(2), Some(2))
    );
}

#[test]
fn timeshift_taskstopper_names_the_folder_it_looked_for_then_runs_once_it_is_there() {
    let sample = samples().join("experiments/sdk/timeshift-taskstopper.json");
    let dir = temp_dir("taskstopper");
    let file = dir.join("experiment.json");
    std::fs::copy(&sample, &file).unwrap();
    let err = match experiment::load(&Disk, &file) {
        Err(LoadError::Unreadable(ds)) => ds,
        other => panic!("expected the not-found error, got {other:?}"),
    };
    let e = err.iter().find(|d| d.is_error()).expect("an error");
    assert_eq!(e.path, "workloads[0].source");
    let folder = format!("{}/azure-deferrable/", dir.display());
    assert!(
        e.message
            .contains("the named workload `azure-deferrable` was not found at")
            && e.message.contains(&folder),
        "{}",
        e.message
    );
    let warned: Vec<&str> = err
        .iter()
        .filter(|d| !d.is_error())
        .map(|d| d.path.as_str())
        .collect();
    // SPEC 11.10: the battery, the carbon on two cluster replicas, the missing carbon trace; the
    // policy's `memorize` is a timeshift key, so no warning for it.
    for path in [
        "topologies[0].clusters[0].battery",
        "topologies[0].clusters[0].powerSource.carbon",
    ] {
        assert!(warned.contains(&path), "no warning at {path}: {warned:#?}");
    }

    let trace = dir.join("azure-deferrable");
    std::fs::create_dir_all(&trace).unwrap();
    for f in ["tasks.parquet", "fragments.parquet"] {
        std::fs::copy(
            checkout().join("www/samples/surf_week").join(f),
            trace.join(f),
        )
        .unwrap();
    }
    let exp = experiment::load(&Disk, &file).expect("runs once the folder is there");
    // runs 2 x initialSeed 42: seeds 42 and 43 of one scenario.
    let seeds: Vec<u64> = exp.runs.iter().map(|r| r.seed).collect();
    assert_eq!(seeds, vec![42, 43]);
    assert!(
        exp.workloads[0]
            .1
            .tasks
            .iter()
            .all(|t| t.deferrable && t.deadline_ms == Some(t.submission_ms + 3 * t.duration_ms)),
        "deferAll"
    );
}

#[test]
fn strict_refuses_the_ignored_key_as_opendc_strict_does() {
    let file = samples().join("experiments/sdk/tiny-experiment.json");
    let (code, _, stderr) = simulate(&file, &["--strict"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("error: `opendc --strict` refuses the unknown key `scheduler`"),
        "{stderr}"
    );
    let check = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_policy-playground"))
            .arg("check")
            .args(args)
            .arg(&file)
            .output()
            .expect("runs the CLI")
            .status
            .code()
    };
    assert_eq!(check(&[]), Some(0));
    assert_eq!(check(&["--strict"]), Some(1));
}
