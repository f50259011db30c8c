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
