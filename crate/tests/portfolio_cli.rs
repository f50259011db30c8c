//! The command line's portfolio (`compare` with several `--policy` files or `--experiment`) and
//! 2-D sweep (`sweep` with two `--parameter`s), against single runs of `simulate`.

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_policy-playground");
const TEACHING: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../www/samples/teaching/scenario.json"
);

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

fn json_of(args: &[&str]) -> Value {
    let (code, stdout, stderr) = cli(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    serde_json::from_str(&stdout).expect("JSON")
}

/// A scratch folder with a policy file per prefab name.
fn policies(names: &[&str]) -> (PathBuf, Vec<String>) {
    let dir = std::env::temp_dir().join(format!(
        "pp-portfolio-cli-{}-{}",
        std::process::id(),
        names.join("-")
    ));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let files = names
        .iter()
        .map(|n| {
            let path = dir.join(format!("{n}.json"));
            std::fs::write(
                &path,
                json!({"type": "prefab", "policyName": n}).to_string(),
            )
            .expect("written");
            path.display().to_string()
        })
        .collect();
    (dir, files)
}

/// The teaching scenario under another policy, through `simulate --json`.
fn simulate(policy: &str, seed: u64) -> Value {
    let mut scenario: Value =
        serde_json::from_str(&std::fs::read_to_string(TEACHING).expect("the sample"))
            .expect("JSON");
    scenario["policy"] = json!({"type": "prefab", "policyName": policy});
    let dir = std::env::temp_dir().join(format!("pp-portfolio-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join(format!("{policy}-{seed}.json"));
    std::fs::write(&path, scenario.to_string()).expect("written");
    json_of(&[
        "simulate",
        "--scenario",
        &path.display().to_string(),
        "--seed",
        &seed.to_string(),
        "--json",
    ])
}

/// One seed: each policy's `metrics` hold `simulate --json`'s metrics, key for key and value
/// for value (the window figures after them), `min` and `max` the same; the table, the front
/// and the CSV say the same numbers.
#[test]
fn compare_of_several_policies_is_their_simulate_runs() {
    let names = ["Mem", "MemInv", "Timeshift"];
    let (_dir, files) = policies(&names);
    let mut args = vec!["compare", "--scenario", TEACHING];
    for f in &files {
        args.extend(["--policy", f.as_str()]);
    }
    let report = json_of(&[&args[..], &["--json", "--baseline", "MemInv"]].concat());
    assert_eq!(report["labels"], json!(names));
    assert_eq!(report["baseline"], 1);
    assert_eq!(report["seeds"], json!([0]));
    let mut ends = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let single = simulate(name, 0)["metrics"].clone();
        let p = &report["policies"][i];
        let Value::Object(single) = single else {
            panic!("metrics")
        };
        for (key, want) in &single {
            assert_eq!(&p["metrics"][key], want, "{name} {key}");
            assert_eq!(&p["min"][key], want, "{name} {key}");
            assert_eq!(&p["max"][key], want, "{name} {key}");
        }
        for key in [
            "windowEndMs",
            "windowEnergyJ",
            "windowIdleEnergyJ",
            "windowCarbonG",
            "windowIdleCarbonG",
        ] {
            assert!(p["metrics"][key].is_number(), "{name} {key}");
        }
        ends.push(single["makespanMs"].as_i64().unwrap());
    }
    assert_eq!(report["windowEndMs"].as_i64(), ends.iter().max().copied());
    let pareto = &report["pareto"];
    assert_eq!(
        (&pareto["x"], &pareto["y"]),
        (&json!("dynamicCarbonG"), &json!("meanWaitMs"))
    );
    // The front, by brute force over the policies' figures: no other policy has no more
    // dynamic carbon and no more wait, and less of one.
    let xy = |i: usize| {
        let m = &report["policies"][i]["metrics"];
        (
            m["dynamicCarbonG"].as_f64().unwrap(),
            m["meanWaitMs"].as_f64().unwrap(),
        )
    };
    let want: Vec<usize> = (0..3)
        .filter(|&i| {
            let (x, y) = xy(i);
            !(0..3).any(|j| {
                let (a, b) = xy(j);
                a <= x && b <= y && (a < x || b < y)
            })
        })
        .collect();
    let mut front: Vec<usize> = pareto["front"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_u64().unwrap() as usize)
        .collect();
    front.sort_unstable();
    assert_eq!(front, want);
    // Timeshift has the least dynamic carbon of the teaching sample: it is on the front.
    assert!(front.contains(&2), "{front:?}");

    // Another trade-off, and the CSV of the same table.
    let other = json_of(
        &[
            &args[..],
            &["--json", "--x", "tasksCompleted", "--y", "energyJ"],
        ]
        .concat(),
    );
    assert_eq!(other["pareto"]["xBetter"], "higher");
    let (code, csv, stderr) = cli(&[&args[..], &["--csv", "--baseline", "1"]].concat());
    assert_eq!(code, 0, "{stderr}");
    let row = csv
        .lines()
        .find(|l| l.starts_with("Timeshift,classic,dynamicCarbonG,"))
        .expect("a row");
    let cells: Vec<&str> = row.split(',').collect();
    let want = report["policies"][2]["metrics"]["dynamicCarbonG"]
        .as_f64()
        .unwrap();
    assert_eq!(cells[5].parse::<f64>().unwrap(), want);
    let base = report["policies"][1]["metrics"]["dynamicCarbonG"]
        .as_f64()
        .unwrap();
    assert_eq!(cells[9].parse::<f64>().unwrap(), want - base);
    assert_eq!(cells[11], "true", "Timeshift's dynamic carbon is the least");

    // The text table marks the best and lists the front.
    let (code, text, _) = cli(&args);
    assert_eq!(code, 0);
    assert!(text.starts_with("metric"), "{text}");
    assert!(text.contains("Timeshift − Mem"), "{text}");
    assert!(
        text.contains("Pareto front of dynamicCarbonG and meanWaitMs: "),
        "{text}"
    );
}

/// Seeds: subsetSize 3 draws among hosts, so seeds 4 and 5 differ; the portfolio's mean,
/// minimum and maximum are those of the two `simulate` runs.
#[test]
fn compare_under_several_seeds_gives_mean_minimum_and_maximum() {
    let dir = std::env::temp_dir().join(format!("pp-portfolio-seeds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let subset = dir.join("subset3.json");
    std::fs::write(&subset, r#"{"type": "filter", "filters": [{"type": "VCpu"}, {"type": "Ram"}], "weighers": [{"type": "Ram"}], "subsetSize": 3}"#).unwrap();
    let subset = subset.display().to_string();
    let report = json_of(&[
        "compare",
        "--scenario",
        TEACHING,
        "--policy",
        &subset,
        "--seed",
        "4",
        "--seeds",
        "2",
        "--json",
    ]);
    assert_eq!(report["seeds"], json!([4, 5]));
    let mut scenario: Value =
        serde_json::from_str(&std::fs::read_to_string(TEACHING).unwrap()).unwrap();
    scenario["policy"] = serde_json::from_str(&std::fs::read_to_string(&subset).unwrap()).unwrap();
    let path = dir.join("scenario.json");
    std::fs::write(&path, scenario.to_string()).unwrap();
    let energy = |seed: &str| {
        json_of(&[
            "simulate",
            "--scenario",
            &path.display().to_string(),
            "--seed",
            seed,
            "--json",
        ])["metrics"]["energyJ"]
            .as_f64()
            .unwrap()
    };
    let (a, b) = (energy("4"), energy("5"));
    assert_ne!(a, b);
    let p = &report["policies"][0];
    assert_eq!(p["metrics"]["energyJ"].as_f64(), Some((a + b) / 2.0));
    assert_eq!(p["min"]["energyJ"].as_f64(), Some(a.min(b)));
    assert_eq!(p["max"]["energyJ"].as_f64(), Some(a.max(b)));
}

#[test]
fn compare_refuses_what_it_cannot_do_and_says_why() {
    let (_dir, files) = policies(&["Mem", "FirstFit"]);
    let (code, _, stderr) = cli(&[
        "compare",
        "--scenario",
        TEACHING,
        "--policy",
        &files[0],
        "--baseline",
        "7",
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("--baseline 7"), "{stderr}");
    let (code, _, stderr) = cli(&[
        "compare",
        "--scenario",
        TEACHING,
        "--policy",
        &files[0],
        "--x",
        "deferredTasks",
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("no Pareto front"), "{stderr}");
    let (code, _, stderr) = cli(&["compare", "--scenario", TEACHING]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--policy FILE"), "{stderr}");
}

/// An experiment: every policy of the file on its first scenario's inputs, under its seed.
#[test]
fn compare_an_experiment_s_policies() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/goldens/experiment.json"
    );
    let report = json_of(&["compare", "--experiment", path, "--json"]);
    let runs = json_of(&["simulate", "--experiment", path, "--json"]);
    let runs = runs.as_array().expect("runs");
    let policies = report["policies"].as_array().expect("policies");
    assert!(policies.len() >= 2, "{}", policies.len());
    for (i, p) in policies.iter().enumerate() {
        let run = runs
            .iter()
            .find(|r| r["policy"] == i && r["run"] == 0)
            .expect("the policy's first run");
        assert_eq!(report["seeds"][0], run["seed"]);
        assert_eq!(
            p["metrics"]["energyJ"], run["result"]["metrics"]["energyJ"],
            "policy {i}"
        );
        assert_eq!(
            p["metrics"]["meanTurnaroundMs"], run["result"]["metrics"]["meanTurnaroundMs"],
            "policy {i}"
        );
    }
}

/// Two `--parameter`s: each cell's run is `simulate` of the policy with both values written.
#[test]
fn a_2d_sweep_s_cells_are_simulate_runs() {
    let report = json_of(&[
        "sweep",
        "--scenario",
        TEACHING,
        "--parameter",
        "/subsetSize",
        "--values",
        "1,3",
        "--parameter",
        "/weighers/0/multiplier",
        "--values=-1,1",
        "--json",
    ]);
    assert_eq!(report["x"]["values"], json!([1, 3]));
    assert_eq!(report["y"]["values"], json!([-1, 1]));
    let dir = std::env::temp_dir().join(format!("pp-grid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (r, m) in [-1.0, 1.0].into_iter().enumerate() {
        for (c, subset) in [1, 3].into_iter().enumerate() {
            let mut scenario: Value =
                serde_json::from_str(&std::fs::read_to_string(TEACHING).unwrap()).unwrap();
            scenario["policy"] = json!({"type": "filter", "filters": [{"type": "VCpu"}, {"type": "Ram"}],
                "weighers": [{"type": "Ram", "multiplier": m}], "subsetSize": subset});
            let path = dir.join(format!("cell-{r}-{c}.json"));
            std::fs::write(&path, scenario.to_string()).unwrap();
            let single = json_of(&[
                "simulate",
                "--scenario",
                &path.display().to_string(),
                "--json",
            ]);
            let cell = &report["cells"][r * 2 + c];
            assert_eq!(cell["value"], json!([subset, m as i64]));
            assert_eq!(cell["runs"][0], single["metrics"], "cell {r},{c}");
        }
    }
    let (code, csv, _) = cli(&[
        "sweep",
        "--scenario",
        TEACHING,
        "--parameter",
        "/subsetSize",
        "--values",
        "1,3",
        "--parameter",
        "/weighers/0/multiplier",
        "--values=-1,1",
        "--csv",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5);
    assert!(
        lines[0].starts_with("/subsetSize,/weighers/0/multiplier,seed,tasksTotal,"),
        "{}",
        lines[0]
    );
    assert!(lines[2].starts_with("3,-1,0,"), "{}", lines[2]);
    // The page's download (the api's sweepGridCsv of the JSON report) is the same text.
    match policy_playground::api::sweeps::sweep_grid_csv(&report.to_string()) {
        policy_playground::api::Answer::Success { value } => {
            assert_eq!(value.trim_end(), csv.trim_end())
        }
        policy_playground::api::Answer::Failure { errors } => panic!("{errors:?}"),
    }
    let (code, text, _) = cli(&[
        "sweep",
        "--scenario",
        TEACHING,
        "--parameter",
        "/subsetSize",
        "--values",
        "1,3",
        "--parameter",
        "/weighers/0/multiplier",
        "--values=-1,1",
        "--metric",
        "meanWaitMs",
    ]);
    assert_eq!(code, 0);
    assert!(text.contains("mean wait (meanWaitMs)"), "{text}");
    let (code, _, stderr) = cli(&[
        "sweep",
        "--scenario",
        TEACHING,
        "--parameter",
        "/subsetSize",
        "--parameter",
        "/x",
        "--values",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("two --values"), "{stderr}");
}
