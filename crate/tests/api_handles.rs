//! The handle path of the api: inputs parsed once, re-run under other policies, explained on
//! demand, giving what the scenario path gives.

use policy_playground::api::handles::{parse_request, Session};
use policy_playground::api::{self, Answer};
use serde_json::Value;

fn teaching() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../www/samples/teaching/scenario.json"
    ))
    .unwrap()
}

fn value<T: serde::Serialize>(a: Answer<T>) -> Value {
    match a {
        Answer::Success { value } => serde_json::to_value(value).unwrap(),
        Answer::Failure { errors } => panic!("failure: {errors:?}"),
    }
}

#[test]
fn a_run_from_handles_equals_the_scenario_path() {
    let mut s = Session::new();
    let loaded = value(s.load_scenario(&teaching()));
    let handles = serde_json::json!({
        "topology": loaded["topology"]["handle"], "workload": loaded["workload"]["handle"], "carbon": loaded["carbon"]["handle"],
    });
    assert_eq!(loaded["workload"]["summary"]["tasks"], 200);
    assert_eq!(loaded["topology"]["summary"]["hosts"], 7);
    let (h, o) = parse_request(&handles.to_string(), "{}").unwrap();
    let policy = loaded["policy"].to_string();
    let run = value(s.run(&h, &policy, &o));
    let Answer::Success { value: direct } = api::simulate(&teaching()) else {
        panic!()
    };
    assert_eq!(
        serde_json::to_string(&run["result"]).unwrap(),
        serde_json::to_string(&direct).unwrap()
    );
    // Again through the same handles: the session's workload digest, computed at the first run,
    // is the one the scenario path computes.
    let again = value(s.run(&h, &policy, &o));
    assert_eq!(
        again["result"]["provenance"]["digests"],
        serde_json::to_value(&direct).unwrap()["provenance"]["digests"]
    );

    // A policy edit re-runs on the same handles and changes the outcome.
    let ts = value(s.run(&h, r#"{"type":"prefab","policyName":"Timeshift"}"#, &o));
    assert!(ts["result"]["metrics"]["deferredTasks"].as_u64().unwrap() > 0);

    // Explaining a task re-runs with its decisions recorded.
    let id = ts["result"]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| !t["deferrals"].as_array().unwrap().is_empty())
        .unwrap()["id"]
        .clone();
    let e = value(s.explain(ts["run"].as_u64().unwrap() as u32, id.as_str().unwrap()));
    let kinds: Vec<&str> = e["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"deferral") && kinds.contains(&"placement"),
        "{kinds:?}"
    );
    let placed = e["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|d| d["kind"] == "placement")
        .unwrap();
    assert_eq!(placed["placement"]["hosts"].as_array().unwrap().len(), 7);
}

#[test]
fn host_counts_edit_the_topology_and_bad_handles_fail() {
    let mut s = Session::new();
    let loaded = value(s.load_scenario(&teaching()));
    let handles = format!(
        r#"{{"topology": {}, "workload": {}}}"#,
        loaded["topology"]["handle"], loaded["workload"]["handle"]
    );
    let (h, o) = parse_request(&handles, r#"{"hostCounts": {"rack-A/small": 1}}"#).unwrap();
    let r = value(s.run(&h, r#"{"type":"prefab","policyName":"Mem"}"#, &o));
    assert_eq!(
        r["result"]["hosts"].as_array().unwrap().len(),
        4,
        "1 small + 2 large + 1 bigmem"
    );
    let (h, o) = parse_request(&handles, r#"{"hostCounts": {"nope/x": 1}}"#).unwrap();
    assert!(matches!(
        s.run(&h, "{\"type\":\"prefab\"}", &o),
        Answer::Failure { .. }
    ));
    assert!(matches!(s.explain(9999, "0"), Answer::Failure { .. }));
    assert!(parse_request("[]", "{}").is_err());
    assert!(matches!(
        s.load_workload_parquet(b"garbage", b"garbage"),
        Answer::Failure { .. }
    ));
    assert!(matches!(
        s.load_carbon(b"\xff\xfe", "json"),
        Answer::Failure { .. }
    ));
    assert!(matches!(
        s.load_workload("{}", "yaml"),
        Answer::Failure { .. }
    ));
}

/// The page's defaults and metric labels come from Rust: `defaultOptions` writes every default
/// out, and a run with them gives exactly the run with no options; `metrics` lists every field
/// of a result's metrics with its label, unit and scale.
#[test]
fn default_options_and_the_metrics_catalog_are_rusts() {
    use policy_playground::api::{default_options_json_str, metrics_json_str};
    let defaults: serde_json::Value = serde_json::from_str(&default_options_json_str()).unwrap();
    assert_eq!(
        defaults["value"],
        serde_json::json!({"seed": 0, "quantumMs": 1000, "seriesResolutionMs": 60000, "hostCounts": {}})
    );
    let mut s = Session::new();
    let teaching = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../www/samples/teaching/scenario.json"
    ))
    .unwrap();
    let loaded: serde_json::Value =
        serde_json::from_str(&s.load_scenario(&teaching).to_json_string()).unwrap();
    let handles = serde_json::json!({
        "topology": loaded["value"]["topology"]["handle"],
        "workload": loaded["value"]["workload"]["handle"],
        "carbon": loaded["value"]["carbon"]["handle"],
    })
    .to_string();
    let policy = r#"{"type": "prefab", "policyName": "Mem"}"#;
    let mut result = |options: &str| {
        let v: serde_json::Value =
            serde_json::from_str(&s.run_json_str(&handles, policy, options)).unwrap();
        v["value"]["result"].clone()
    };
    let with_defaults = result(&defaults["value"].to_string());
    assert!(with_defaults["metrics"]["tasksTotal"].as_u64() > Some(0));
    assert_eq!(with_defaults, result("{}"));
    let catalog: serde_json::Value = serde_json::from_str(&metrics_json_str()).unwrap();
    let keys: Vec<&str> = catalog["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["key"].as_str().unwrap())
        .collect();
    let mut in_result: Vec<&str> = with_defaults["metrics"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut listed = keys.clone();
    listed.sort_unstable();
    in_result.sort_unstable();
    assert_eq!(listed, in_result);
    let energy = &catalog["value"][keys.iter().position(|k| *k == "energyJ").unwrap()];
    assert_eq!(
        (energy["unit"].as_str(), energy["rawUnit"].as_str()),
        (Some("kWh"), Some("J"))
    );
    let kwh = energy["scale"].as_f64().map_or(f64::NAN, |s| s * 3.6e6);
    assert!((kwh - 1.0).abs() < 1e-15, "J to kWh: {kwh}");
    assert_eq!(energy["better"], "lower");
}
