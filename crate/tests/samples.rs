//! The embedded samples (`www/samples/`): they load, run, and show what the README says.

use policy_playground::api::{self, Answer};
use policy_playground::experiment::{self, Disk};
use policy_playground::policy::policy_from_text;
use policy_playground::scenario;
use policy_playground::sim::{simulate, Options, Scenario, SimResult};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn teaching_text() -> String {
    std::fs::read_to_string(root().join("www/samples/teaching/scenario.json"))
        .expect("teaching sample")
}

fn teaching_with(policy: &str) -> SimResult {
    let mut s = scenario::read(&teaching_text()).expect("valid scenario");
    s.policy = policy_from_text(policy).expect("valid policy").0;
    s.request().run(&mut |_| {}).expect("valid options").result
}

#[test]
fn timeshift_lowers_the_teaching_samples_dynamic_carbon() {
    let mem = teaching_with(r#"{"type": "prefab", "policyName": "Mem"}"#);
    let ts = teaching_with(r#"{"type": "prefab", "policyName": "Timeshift"}"#);
    let stopper_text =
        std::fs::read_to_string(root().join("www/samples/policies/timeshift-stopper.json"))
            .unwrap();
    let stopper = teaching_with(&stopper_text);
    for r in [&mem, &ts, &stopper] {
        assert_eq!(r.metrics.tasks_completed, 200);
        assert_eq!(r.metrics.deadline_misses, 0);
    }
    let (m, t, s) = (
        mem.metrics.dynamic_carbon_g.unwrap(),
        ts.metrics.dynamic_carbon_g.unwrap(),
        stopper.metrics.dynamic_carbon_g.unwrap(),
    );
    assert!(t < m, "Timeshift {t} g should be below Mem {m} g");
    assert!(s < m, "the stopper {s} g should be below Mem {m} g");
    assert!(ts.metrics.deferred_tasks > 0 && stopper.metrics.paused_tasks > 0);
    // The figures quoted in www/samples/README.md are this run's.
    let readme = std::fs::read_to_string(root().join("www/samples/README.md")).unwrap();
    let quoted = |g: f64| format!("{} {:05.1} g", (g / 1000.0).floor() as i64, g % 1000.0);
    for g in [m, t, s] {
        assert!(
            readme.contains(&quoted(g)),
            "README should quote {}",
            quoted(g)
        );
    }
}

#[test]
fn the_teaching_sample_is_deterministic_and_the_api_gives_the_cli_bytes() {
    let text = teaching_text();
    let a = api::simulate_json_str(&text);
    assert_eq!(a, api::simulate_json_str(&text));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_policy-playground"))
        .args(["simulate", "--json", "--scenario"])
        .arg(root().join("www/samples/teaching/scenario.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let cli = String::from_utf8(out.stdout).unwrap();
    let Answer::Success { value } = api::simulate(&text) else {
        panic!("simulate failed")
    };
    assert_eq!(cli.trim_end(), serde_json::to_string(&value).unwrap());
    assert!(a.starts_with(r#"{"type":"success","value":"#));
    assert_eq!(
        &a[r#"{"type":"success","value":"#.len()..a.len() - 1],
        cli.trim_end()
    );
}

#[test]
fn surf_week_completes_on_the_surf_topology_with_idle_energy_as_computed_by_hand() {
    let dir = root().join("www/samples/surf_week");
    let topology = experiment::load_topology(&Disk, &dir.join("topology.json")).unwrap();
    let workload = experiment::load_workload(&Disk, &dir).unwrap();
    let (carbon, warnings) =
        experiment::referenced_carbon(&Disk, &topology, &dir.join("topology.json"));
    assert!(warnings.is_empty(), "{warnings:?}");
    let policy = policy_from_text(r#"{"type": "prefab", "policyName": "Mem"}"#)
        .unwrap()
        .0;
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
    assert_eq!(r.metrics.tasks_total, 6295);
    assert_eq!(r.metrics.tasks_completed, 6295);
    assert_eq!(r.hosts.len(), 277);
    // Every host idles at 32 W (sqrt model at u = 0) from 0 to the makespan.
    let idle = 277.0 * 32.0 * r.metrics.makespan_ms as f64 / 1000.0;
    assert!(
        (r.metrics.idle_energy_j - idle).abs() < 1e-3 * idle.max(1.0) / 1e6,
        "{} vs {idle}",
        r.metrics.idle_energy_j
    );
    assert!(r.metrics.dynamic_energy_j > 0.0);
    assert_eq!(
        r.metrics.energy_j,
        r.metrics.idle_energy_j + r.metrics.dynamic_energy_j
    );
    assert!(r.metrics.carbon_g.unwrap() > 0.0);
}

#[test]
fn the_cli_takes_the_run_limits() {
    // One instant: the first submissions are placed and nothing can complete, so every task
    // ends terminated at the limit.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_policy-playground"))
        .args(["simulate", "--json", "--max-instants", "1", "--scenario"])
        .arg(root().join("www/samples/teaching/scenario.json"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["metrics"];
    assert_eq!(m["tasksCompleted"], 0);
    assert_eq!(m["tasksTerminated"], m["tasksTotal"]);
    assert!(v["warnings"].to_string().contains("limit of 1 instants"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_policy-playground"))
        .args(["simulate", "--max-time-ms", "x", "--scenario"])
        .arg(root().join("www/samples/teaching/scenario.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a usage error");
}
