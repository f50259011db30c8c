//! The cluster overview of a kept run (`Session::overview`, the wasm's `overview`): per host
//! group, the share of its cores in use in equal time buckets and its figures, worked out by
//! hand for a run of two tasks on two host groups; the bucket count's bounds.

use policy_playground::api::handles::{parse_request, Session};
use policy_playground::api::Answer;
use serde_json::{json, Value};

const T0: i64 = 1_700_000_000_000;

/// Cluster `rack`: `small`, 2 hosts of 4 cores (64 000 MiB, a constant 100 W), and `big`, 1
/// host of 8 cores (1024 MiB, a constant 300 W).
fn topology() -> String {
    let group = |name: &str, count: u32, cores: u32, memory: u32, watts: f64| {
        json!({
            "name": name, "count": count,
            "cpu": {"coreCount": cores, "coreSpeed": 1000},
            "memory": {"memorySize": memory},
            "cpuPowerModel": {"modelType": "constant", "power": watts},
        })
    };
    json!({"clusters": [{"name": "rack", "hosts": [
        group("small", 2, 4, 64_000, 100.0),
        group("big", 1, 8, 1024, 300.0),
    ]}]})
    .to_string()
}

/// Task `a` needs 8 cores (only `big` has them) for 2 s from 0; task `b` 2 cores and 2000 MiB
/// (more than `big` has) for 3 s from 1 s, so it runs on a `small` host.
fn workload() -> String {
    let task = |id: &str, submit: i64, duration: i64, cores: u32, memory: u32| {
        json!({"id": id, "submissionTime": T0 + submit, "duration": duration,
               "cpuCount": cores, "cpuCapacity": cores as f64 * 1000.0, "memory": memory})
    };
    json!({"tasks": [task("a", 0, 2000, 8, 512), task("b", 1000, 3000, 2, 2000)]}).to_string()
}

fn value<T: serde::Serialize>(a: Answer<T>) -> Value {
    match a {
        Answer::Success { value } => serde_json::to_value(value).expect("serializable"),
        Answer::Failure { errors } => panic!("failure: {errors:?}"),
    }
}

/// A session with the two inputs loaded, and a run of them under Mem with `options`.
fn run(options: &str) -> (Session, u32) {
    let mut s = Session::new();
    let t = value(s.load_topology(&topology()));
    let w = value(s.load_workload(&workload(), "json"));
    let handles = json!({"topology": t["handle"], "workload": w["handle"]}).to_string();
    let (h, o) = parse_request(&handles, options).expect("valid handles and options");
    let r = value(s.run(&h, r#"{"type":"prefab","policyName":"Mem"}"#, &o));
    let tasks = &r["result"]["tasks"];
    assert_eq!(
        tasks[0]["runs"],
        json!([{"host": "big", "fromMs": 0, "toMs": 2000}])
    );
    assert_eq!(tasks[1]["runs"][0]["fromMs"], 1000);
    assert_eq!(r["result"]["metrics"]["makespanMs"], 4000);
    let id = r["run"].as_u64().expect("a run handle") as u32;
    (s, id)
}

/// Four buckets of 1 s. `big` (8 cores): a holds all 8 over 0-2 s: 1, 1, 0, 0, a mean of 1/2.
/// `small` (8 cores): b holds 2 over 1-4 s: 0, 2/8, 2/8, 2/8, a mean of 6000 / 32 000 core-ms
/// = 0.1875. Busy: big 2 of 4 s, small 3 of 2 x 4 s. Energy: the constant powers over 4 s,
/// 2 x 100 W x 4 s = 800 J and 300 W x 4 s = 1200 J.
#[test]
fn two_tasks_on_two_groups_by_hand() {
    let (s, id) = run("{}");
    let o = value(s.overview(id, 4));
    assert_eq!(o["makespanMs"], 4000);
    assert_eq!(
        (o["buckets"].as_u64(), o["bucketMs"].as_f64()),
        (Some(4), Some(1000.0))
    );
    assert_eq!(o["bucketText"], "1 s");
    let groups = o["groups"].as_array().expect("groups");
    assert_eq!(groups.len(), 2);
    let (small, big) = (&groups[0], &groups[1]);
    assert_eq!(small["key"], "rack/small");
    assert_eq!(
        (&small["cluster"], &small["name"]),
        (&json!("rack"), &json!("small"))
    );
    assert_eq!(small["firstHost"], 0);
    assert_eq!(
        (small["hosts"].as_u64(), small["coresPerHost"].as_u64()),
        (Some(2), Some(4))
    );
    assert_eq!(small["cores"], 8);
    assert_eq!(small["utilization"], json!([0.0, 0.25, 0.25, 0.25]));
    assert_eq!(small["peak"], 0.25);
    assert_eq!(small["meanUtilization"], 0.1875);
    assert_eq!(small["tasksRun"], 1);
    assert_eq!(small["busyFraction"], 0.375);
    assert_eq!(small["energyJ"], 800.0);
    assert_eq!(
        small["summary"],
        "1 task · 18.8 % of cores in use (peak 25.0 %) · 0.000 kWh"
    );
    assert_eq!(big["key"], "rack/big");
    assert_eq!(
        (big["firstHost"].as_u64(), big["cores"].as_u64()),
        (Some(2), Some(8))
    );
    assert_eq!(big["utilization"], json!([1.0, 1.0, 0.0, 0.0]));
    assert_eq!(
        (big["peak"].as_f64(), big["meanUtilization"].as_f64()),
        (Some(1.0), Some(0.5))
    );
    assert_eq!(
        (big["tasksRun"].as_u64(), big["busyFraction"].as_f64()),
        (Some(1), Some(0.5))
    );
    assert_eq!(big["energyJ"], 1200.0);
    // Without a carbon trace there is no carbon.
    assert!(big.get("carbonG").is_none_or(Value::is_null));
    // Two buckets of 2 s: small 2 cores over 1-2 s (2000 of 16 000 core-ms), then over 2-4 s
    // (4000 of 16 000); big all 8 cores over the whole first bucket.
    let o = value(s.overview(id, 2));
    assert_eq!(o["groups"][0]["utilization"], json!([0.125, 0.25]));
    assert_eq!(o["groups"][1]["utilization"], json!([1.0, 0.0]));
}

/// The run's host counts apply: with one `small` host (4 cores), b's 2 cores are half of it.
#[test]
fn host_counts_change_the_groups() {
    let (s, id) = run(r#"{"hostCounts": {"rack/small": 1}}"#);
    let o = value(s.overview(id, 4));
    let small = &o["groups"][0];
    assert_eq!(
        (small["hosts"].as_u64(), small["cores"].as_u64()),
        (Some(1), Some(4))
    );
    assert_eq!(small["utilization"], json!([0.0, 0.5, 0.5, 0.5]));
    // big follows the single small host.
    assert_eq!(o["groups"][1]["firstHost"], 1);
}

/// Bucket counts outside 1-2000, or not whole, are refused under `buckets`; a handle that is
/// not a run is refused too.
#[test]
fn bad_bucket_counts_and_handles_are_refused() {
    let (s, id) = run("{}");
    for n in [0, 2001, u32::MAX] {
        let Answer::Failure { errors } = s.overview(id, n) else {
            panic!("{n} buckets must fail")
        };
        assert_eq!(errors[0].path, "buckets");
        assert_eq!(
            errors[0].message,
            format!("buckets must be a whole number from 1 to 2000, not {n}")
        );
    }
    for (n, shown) in [
        (2.5, "2.5"),
        (f64::NAN, "NaN"),
        (-1.0, "-1"),
        (1e10, "10000000000"),
    ] {
        let text = s.overview_json_str(id, n);
        let v: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(v["type"], "failure");
        assert_eq!(v["errors"][0]["path"], "buckets");
        assert_eq!(
            v["errors"][0]["message"],
            format!("buckets must be a whole number from 1 to 2000, not {shown}")
        );
    }
    let ok: Value = serde_json::from_str(&s.overview_json_str(id, 2000.0)).expect("JSON");
    assert_eq!(ok["type"], "success");
    assert_eq!(
        ok["value"]["groups"][0]["utilization"]
            .as_array()
            .map(Vec::len),
        Some(2000)
    );
    let Answer::Failure { errors } = s.overview(1, 4) else {
        panic!("handle 1 is the topology, not a run")
    };
    assert_eq!(errors[0].message, "handle 1 is not a run");
    let Answer::Failure { errors } = s.overview(99, 4) else {
        panic!("no handle 99")
    };
    assert_eq!(errors[0].message, "no run is loaded under handle 99");
}
