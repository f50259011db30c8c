//! Parameter sweeps, checked against single runs made the ordinary way: through the CLI
//! (`sweep` against `simulate`) and through the api's handles (`Session::sweep` against
//! `Session::run` under each seed).

use policy_playground::api::handles::{parse_request, Session};
use policy_playground::api::{self, Answer};
use policy_playground::sweep::SweepSpec;
use serde_json::{json, Value};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_policy-playground");
const TEACHING: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../www/samples/teaching/scenario.json"
);

/// The value of a successful answer.
fn value<T>(answer: Answer<T>) -> T {
    match answer {
        Answer::Success { value } => value,
        Answer::Failure { errors } => panic!("{errors:?}"),
    }
}

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().expect("exited"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The teaching scenario's metrics under another policy (its `policy` replaced), seed `seed`,
/// through the scenario path.
fn metrics_with(policy: Value, seed: u64) -> Value {
    let mut scenario: Value =
        serde_json::from_str(&std::fs::read_to_string(TEACHING).expect("the sample"))
            .expect("JSON");
    scenario["policy"] = policy;
    scenario["seed"] = seed.into();
    serde_json::to_value(value(api::simulate(&scenario.to_string())).metrics).expect("metrics")
}

/// The teaching sample's policy is Mem (Ram weigher, multiplier 1, no Compute filter). With the
/// multiplier at -1 it ranks as MemInv does, and every host is up, so the metrics are MemInv's;
/// at 1 they are the sample's own.
#[test]
fn the_cli_sweep_of_a_multiplier_gives_the_runs_of_those_policies() {
    let (code, stdout, stderr) = cli(&[
        "sweep",
        "--scenario",
        TEACHING,
        "--parameter",
        "/weighers/0/multiplier",
        "--values=-1,1",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(report["seeds"], json!([0]));
    let points = report["points"].as_array().expect("points");
    assert_eq!(points.len(), 2);
    assert_eq!(points[0]["value"], json!(-1));
    // Both sides through JSON text once, as the CLI's output is (exact with serde_json's
    // float_roundtrip, and the same text reads the same in any case).
    let as_read = |v: Value| serde_json::from_str::<Value>(&v.to_string()).expect("JSON");
    let meminv = as_read(metrics_with(
        json!({"type": "prefab", "policyName": "MemInv"}),
        0,
    ));
    let mem = as_read(metrics_with(
        json!({"type": "prefab", "policyName": "Mem"}),
        0,
    ));
    assert_eq!(points[0]["runs"][0], meminv);
    assert_eq!(points[1]["runs"][0], mem);
    assert_ne!(
        meminv["energyJ"], mem["energyJ"],
        "the two policies place differently"
    );
    // One seed: mean, min and max are the run's own figure.
    let e = &points[0]["summary"]["energyJ"];
    assert_eq!(
        (&e["mean"], &e["min"], &e["max"]),
        (&meminv["energyJ"], &meminv["energyJ"], &meminv["energyJ"])
    );
    assert_eq!(
        points[0]["policy"]["weighers"][0]["multiplier"],
        json!(-1.0)
    );
}

#[test]
fn the_cli_refuses_a_bad_sweep_naming_the_value() {
    let (code, _, stderr) = cli(&[
        "sweep",
        "--scenario",
        TEACHING,
        "--parameter",
        "/subsetSize",
        "--values",
        "2,0",
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("/subsetSize = 0: `subsetSize` must be an integer >= 1, found 0"),
        "{stderr}"
    );
    let (code, _, stderr) = cli(&[
        "sweep",
        "--scenario",
        TEACHING,
        "--parameter",
        "/subsetSize",
        "--values",
        "two",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("`two` is not a number"), "{stderr}");
    let (code, stdout, _) = cli(&["sweep", "--scenario", TEACHING, "--parameter", "list"]);
    assert_eq!(code, 0);
    assert!(stdout.lines().any(|l| l == "/subsetSize = 1"), "{stdout}");
}

/// subsetSize 3 draws among the three best hosts, so seeds differ: each run of the sweep is
/// the run of that policy under that seed, and the summary is their mean, minimum and maximum.
#[test]
fn an_api_sweep_over_seeds_is_the_runs_under_each_seed() {
    let mut s = Session::new();
    let loaded = value(s.load_scenario(&std::fs::read_to_string(TEACHING).expect("the sample")));
    let handles = json!({
        "topology": loaded.topology.handle, "workload": loaded.workload.handle,
        "carbon": loaded.carbon.as_ref().map(|c| c.handle),
    })
    .to_string();
    let mem = r#"{"type": "prefab", "policyName": "Mem"}"#;
    let (h, o) = parse_request(&handles, r#"{"seed": 5}"#).expect("request");
    let spec: SweepSpec =
        serde_json::from_str(r#"{"parameter": "/subsetSize", "values": [3], "seeds": 4}"#)
            .expect("a sweep");
    // The typed answer, figures compared as the JSON text each side writes.
    let report = value(s.sweep(&h, mem, &o, &spec, &mut |_, _| {}));
    assert_eq!(report.seeds, vec![5, 6, 7, 8]);
    let point = &report.points[0];
    let subset3 = r#"{"type": "filter", "filters": [{"type": "VCpu"}, {"type": "Ram"}],
        "weighers": [{"type": "Ram"}], "subsetSize": 3}"#;
    let mut energies = Vec::new();
    for (k, seed) in (5..9).enumerate() {
        let (h, o) =
            parse_request(&handles, &json!({ "seed": seed }).to_string()).expect("request");
        let run = value(s.run(&h, subset3, &o));
        assert_eq!(
            serde_json::to_string(&point.runs[k]).expect("text"),
            serde_json::to_string(&run.result.metrics).expect("text"),
            "seed {seed}"
        );
        energies.push(run.result.metrics.energy_j);
    }
    let mean = energies.iter().sum::<f64>() / 4.0;
    let (min, max) = energies
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &e| {
            (a.min(e), b.max(e))
        });
    assert!(
        min < max,
        "the seeds should place differently: {energies:?}"
    );
    assert_eq!(
        point.summary["energyJ"],
        json!({"mean": mean, "min": min, "max": max, "runs": 4})
    );
    // A bad request is a failure answer, never a panic.
    let bad: Value =
        serde_json::from_str(&s.sweep_json_str::<policy_playground::sweep::SweepSpec>(
            &handles,
            mem,
            "{}",
            "{\"values\": 3}",
            &mut |_, _| {},
        ))
        .expect("JSON");
    assert_eq!(bad["type"], "failure");
    assert!(
        bad["errors"][0]["message"]
            .as_str()
            .unwrap_or("")
            .starts_with("not a sweep"),
        "{bad}"
    );
}

/// `sweep --csv` is one row per run, value and seed first, then each metric as the JSON report
/// writes it; the api's sweepCsv of that report (what the page downloads) is the same text.
#[test]
fn a_sweep_as_csv_is_one_row_per_run_with_the_reports_figures() {
    let args = [
        "sweep",
        "--scenario",
        TEACHING,
        "--parameter",
        "/subsetSize",
        "--values",
        "1,3",
        "--seeds",
        "2",
    ];
    let (code, json_text, stderr) = cli(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0, "{stderr}");
    let (code, csv_text, stderr) = cli(&[&args[..], &["--csv"]].concat());
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&json_text).expect("JSON");
    let lines: Vec<&str> = csv_text.lines().collect();
    assert_eq!(lines.len(), 1 + 2 * 2, "{csv_text}");
    let header: Vec<&str> = lines[0].split(',').collect();
    assert_eq!(&header[..3], &["/subsetSize", "seed", "tasksTotal"]);
    let energy = header
        .iter()
        .position(|&h| h == "energyJ")
        .expect("an energyJ column");
    for (r, line) in lines[1..].iter().enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        let (p, k) = (r / 2, r % 2);
        assert_eq!(cells[0], report["points"][p]["value"].to_string());
        assert_eq!(cells[1], report["seeds"][k].to_string());
        assert_eq!(
            cells[energy],
            report["points"][p]["runs"][k]["energyJ"].to_string()
        );
    }
    match api::sweep_csv(json_text.trim()) {
        Answer::Success { value } => assert_eq!(value.trim_end(), csv_text.trim_end()),
        Answer::Failure { errors } => panic!("{errors:?}"),
    }
    assert!(matches!(api::sweep_csv("{}"), Answer::Failure { .. }));
}
