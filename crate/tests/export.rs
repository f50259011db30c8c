//! Exports read back to the same inputs and the same run; the queue at an instant; progress;
//! the browser's limits.

use policy_playground::api::handles::{parse_request, Limits, Session};
use policy_playground::api::{self, Answer};
use policy_playground::input;
use serde_json::{json, Value};

#[path = "common/layout.rs"]
mod layout;
use layout::{per_task, without_ranges};

fn sample(path: &str) -> String {
    format!("{}/../www/samples/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn value<T: serde::Serialize>(a: Answer<T>) -> Value {
    match a {
        Answer::Success { value } => serde_json::to_value(value).unwrap(),
        Answer::Failure { errors } => panic!("failure: {errors:?}"),
    }
}

fn handles_of(loaded: &Value) -> String {
    json!({"topology": loaded["topology"]["handle"], "workload": loaded["workload"]["handle"],
           "carbon": loaded["carbon"]["handle"]})
    .to_string()
}

#[test]
fn an_exported_scenario_simulates_to_the_same_bytes() {
    let text = std::fs::read_to_string(sample("teaching/scenario.json")).unwrap();
    let mut s = Session::new();
    let loaded = value(s.load_scenario(&text));
    let policy = &std::fs::read_to_string(sample("policies/timeshift-stopper.json")).unwrap();
    let options = r#"{"seed": 7, "quantumMs": 2000, "hostCounts": {"rack-A/small": 2}}"#;
    let (h, o) = parse_request(&handles_of(&loaded), options).unwrap();
    let ran = value(s.run(&h, policy, &o));
    let Answer::Success { value: exported } = s.export_scenario(&h, policy, &o) else {
        panic!("export failed")
    };
    let again = value(api::simulate(&exported));
    assert_eq!(
        serde_json::to_string(&ran["result"]).unwrap(),
        serde_json::to_string(&again).unwrap()
    );
    assert_eq!(again["provenance"]["seed"], 7);
    assert_eq!(again["provenance"]["quantumMs"], 2000);
    assert_eq!(
        again["hosts"].as_array().unwrap().len(),
        5,
        "2 small + 2 large + 1 bigmem"
    );
}

#[test]
fn surf_week_round_trips_through_opendc_parquet_bit_for_bit() {
    let tasks = std::fs::read(sample("surf_week/tasks.parquet")).unwrap();
    let fragments = std::fs::read(sample("surf_week/fragments.parquet")).unwrap();
    let original = input::workload::read_parquet_workload(&tasks, &fragments).unwrap();
    let mut s = Session::new();
    let loaded = value(s.load_workload_parquet(&tasks, &fragments));
    let Answer::Success { value: out } =
        s.export_workload_parquet(loaded["handle"].as_u64().unwrap() as u32)
    else {
        panic!("the workload exports");
    };
    let back = input::workload::read_parquet_workload(&out.tasks, &out.fragments).unwrap();
    assert_eq!(without_ranges(&back), without_ranges(&original));
    assert_eq!(per_task(&back), per_task(&original));
    assert_eq!(back.tasks.len(), 6295);
    assert_eq!(back.fragments.len(), 2_323_475);

    let carbon = std::fs::read(sample("surf_week/carbon.json")).unwrap();
    let c = value(s.load_carbon(&carbon, "json"));
    let Answer::Success { value: parquet } =
        s.export_carbon_parquet(c["handle"].as_u64().unwrap() as u32)
    else {
        panic!("the carbon trace exports");
    };
    let back = input::carbon::read_carbon_parquet(&parquet).unwrap();
    let original = input::carbon::read_carbon_json(std::str::from_utf8(&carbon).unwrap()).unwrap();
    assert_eq!(back, original);
}

#[test]
fn an_opendc_experiment_names_its_files_and_carries_the_policy() {
    let text = std::fs::read_to_string(sample("teaching/scenario.json")).unwrap();
    let mut s = Session::new();
    let loaded = value(s.load_scenario(&text));
    let (h, o) = parse_request(&handles_of(&loaded), r#"{"seed": 3}"#).unwrap();
    let policy = r#"{"type": "prefab", "policyName": "Mem"}"#;
    let e = value(s.export_opendc_experiment(&h, policy, &o));
    assert_eq!(
        e["experiment"]["allocationPolicies"][0]["policyName"],
        "Mem"
    );
    assert_eq!(e["experiment"]["initialSeed"], 3);
    assert_eq!(
        e["topology"]["clusters"][0]["powerSource"]["carbonTracePath"],
        "carbon.parquet"
    );
    // The topology reads back with the same hosts.
    let topology = input::topology::read_topology(&e["topology"].to_string()).unwrap();
    assert_eq!(topology.host_count(), 7);
    // The notes name the SPEC 9 items that apply to this policy, and only those.
    let notes = |e: &Value| -> String {
        e["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string() + "\n")
            .collect()
    };
    let mem = notes(&e);
    assert!(
        mem.contains("SPEC 9.10") && !mem.contains("Time-shifting") && !mem.contains("subsetSize")
    );
    let stopper = std::fs::read_to_string(sample("policies/timeshift-stopper.json")).unwrap();
    let (_, quick) = parse_request(&handles_of(&loaded), r#"{"quantumMs": 500}"#).unwrap();
    let ts = notes(&value(s.export_opendc_experiment(&h, &stopper, &quick)));
    assert!(
        ts.contains("Task stopper (SPEC 9.5)") && ts.contains("SPEC 9.6"),
        "{ts}"
    );
    assert!(ts.contains("quantum of 500 ms"), "{ts}");
    let random = r#"{"type": "prefab", "policyName": "Random"}"#;
    let r = notes(&value(s.export_opendc_experiment(&h, random, &o)));
    assert!(r.contains("ignores subsetSize"), "{r}");
    let memorizing = r#"{"type": "prefab", "policyName": "TaskNumMemorizing"}"#;
    let m = notes(&value(s.export_opendc_experiment(&h, memorizing, &o)));
    assert!(m.contains("SPEC 9.8") && !m.contains("subsetSize"), "{m}");
    // A policy with errors is not exported.
    assert!(matches!(
        s.export_opendc_experiment(
            &h,
            r#"{"type": "filter", "filters": [{"type": "Nope"}]}"#,
            &o
        ),
        Answer::Failure { .. }
    ));
}

/// Two hosts (8 and 2 cores); A takes all 8 cores of `big` at 0; B needs 8 cores at 1 s and
/// fits no host until A ends; C needs 1 core at 2 s and would fit `small`, but a filter policy
/// does not look past the head of the queue.
const BLOCKING: &str = r#"{
  "topology": {"clusters": [{"name": "c", "hosts": [
    {"name": "big", "cpu": {"coreCount": 8, "coreSpeed": 1000}, "memory": {"memorySize": 8192}},
    {"name": "small", "cpu": {"coreCount": 2, "coreSpeed": 1000}, "memory": {"memorySize": 8192}}]}]},
  "workload": {"tasks": [
    {"id": "A", "submissionTime": 0, "duration": 600000, "cpuCount": 8, "cpuCapacity": 8000, "memory": 100},
    {"id": "B", "submissionTime": 1000, "duration": 600000, "cpuCount": 8, "cpuCapacity": 8000, "memory": 100},
    {"id": "C", "submissionTime": 2000, "duration": 60000, "cpuCount": 1, "cpuCapacity": 1000, "memory": 100}]},
  "policy": {"type": "filter", "filters": [{"type": "Compute"}, {"type": "VCpu", "allocationRatio": 1.0}, {"type": "Ram"}],
             "weighers": [{"type": "VCpu"}]}
}"#;

#[test]
fn the_queue_at_an_instant_shows_head_of_line_blocking() {
    let mut s = Session::new();
    let loaded = value(s.load_scenario(BLOCKING));
    let (h, o) = parse_request(&handles_of(&loaded), "{}").unwrap();
    let policy = serde_json::to_string(&loaded["policy"]).unwrap();
    let run = value(s.run(&h, &policy, &o))["run"].as_u64().unwrap() as u32;
    let q = value(s.queue_at(run, 5000));
    assert_eq!(q["running"][0]["taskId"], "A");
    assert_eq!(q["running"][0]["host"], "big");
    assert_eq!(q["running"][0]["remainingMs"], 595_000);
    let queue = q["queue"].as_array().unwrap();
    assert_eq!(queue.len(), 2);
    assert_eq!(queue[0]["taskId"], "B");
    assert_eq!(queue[0]["fitsNow"], Value::Null);
    let head = queue[0]["reason"].as_str().unwrap();
    assert!(
        head.starts_with("no host fits it now: 2 hosts: 2 rejected by VCpu"),
        "{head}"
    );
    assert_eq!(queue[1]["taskId"], "C");
    assert_eq!(queue[1]["fitsNow"], "small");
    let c = queue[1]["reason"].as_str().unwrap();
    assert!(
        c.contains("behind the head task B (head-of-line blocking)"),
        "{c}"
    );

    // When A ends at 600 000, B takes big and C small at the next cycle: the queue is empty.
    let q = value(s.queue_at(run, 600_000));
    assert_eq!(q["queue"].as_array().unwrap().len(), 0);
    assert_eq!(q["running"].as_array().unwrap().len(), 2);
    assert_eq!(q["completed"], 1);
    // Before anything is submitted... and after the end.
    let q = value(s.queue_at(run, -1));
    assert_eq!(q["pending"], 3);
    let q = value(s.queue_at(run, i64::MAX));
    assert_eq!(
        (q["ended"].clone(), q["completed"].clone()),
        (json!(true), json!(3))
    );

    // Under a memorizing policy, C is placed past B.
    let memorizing = r#"{"type": "prefab", "policyName": "TaskNumMemorizing"}"#;
    let run = value(s.run(&h, memorizing, &o))["run"].as_u64().unwrap() as u32;
    let q = value(s.queue_at(run, 5000));
    let running: Vec<&str> = q["running"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["taskId"].as_str().unwrap())
        .collect();
    assert_eq!(running, ["A", "C"]);
    assert_eq!(q["queue"][0]["taskId"], "B");
}

#[test]
fn the_queue_agrees_with_the_series_of_the_run() {
    let text = std::fs::read_to_string(sample("teaching/scenario.json")).unwrap();
    let mut s = Session::new();
    let loaded = value(s.load_scenario(&text));
    let (h, o) = parse_request(&handles_of(&loaded), r#"{"seriesResolutionMs": 0}"#).unwrap();
    let policy = r#"{"type": "prefab", "policyName": "Timeshift"}"#;
    let ran = value(s.run(&h, policy, &o));
    let run = ran["run"].as_u64().unwrap() as u32;
    let series = &ran["result"]["series"];
    // The series' change points of queued, deferred and running tasks at a few instants.
    let at = |name: &str, t: i64| -> u64 {
        series[name]
            .as_array()
            .unwrap()
            .iter()
            .take_while(|p| p[0].as_i64().unwrap() <= t)
            .last()
            .map_or(0, |p| p[1].as_u64().unwrap())
    };
    let mut checked = 0;
    for p in series["deferredTasks"]
        .as_array()
        .unwrap()
        .iter()
        .step_by(7)
        .take(12)
    {
        let t = p[0].as_i64().unwrap();
        let q = value(s.queue_at(run, t));
        let queue = q["queue"].as_array().unwrap();
        let deferred = queue.iter().filter(|e| e["state"] == "deferred").count() as u64;
        assert_eq!(deferred, at("deferredTasks", t), "deferred at {t}");
        assert_eq!(
            queue.len() as u64 - deferred,
            at("queuedTasks", t),
            "queued at {t}"
        );
        assert_eq!(
            q["running"].as_array().unwrap().len() as u64,
            at("runningTasks", t)
        );
        for e in queue.iter().filter(|e| e["state"] == "deferred") {
            assert_eq!(e["deferral"]["deferred"], true);
            assert!(e["deferral"]["slackMs"].as_i64().unwrap() >= 0);
        }
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} instants");
}

#[test]
fn progress_rises_to_the_end_and_the_result_is_the_same() {
    let text = std::fs::read_to_string(sample("teaching/scenario.json")).unwrap();
    let mut s = Session::new();
    let loaded = value(s.load_scenario(&text));
    let (h, o) = parse_request(&handles_of(&loaded), "{}").unwrap();
    let policy = r#"{"type": "prefab", "policyName": "Mem"}"#;
    let mut seen = Vec::new();
    let with = value(s.run_with_progress(&h, policy, &o, &mut |f| seen.push(f)));
    let without = value(s.run(&h, policy, &o));
    assert_eq!(with["result"], without["result"]);
    assert!(!seen.is_empty());
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert!(seen.iter().all(|f| (0.0..=1.0).contains(f)));
}

#[test]
fn inputs_past_the_limits_fail_clearly_and_change_nothing() {
    let limits = Limits {
        max_file_bytes: 10_000_000,
        max_tasks: 100,
        max_fragments: 1000,
        max_hosts: 10,
    };
    let mut s = Session::with_limits(limits);
    let text = std::fs::read_to_string(sample("teaching/scenario.json")).unwrap();
    let Answer::Failure { errors } = s.load_scenario(&text) else {
        panic!("200 tasks loaded past a limit of 100")
    };
    assert!(
        errors[0].message.contains("200 tasks") && errors[0].message.contains("at most 100"),
        "{}",
        errors[0].message
    );
    let tasks = std::fs::read(sample("surf_week/tasks.parquet")).unwrap();
    let fragments = std::fs::read(sample("surf_week/fragments.parquet")).unwrap();
    let Answer::Failure { errors } = s.load_workload_parquet(&tasks, &fragments) else {
        panic!()
    };
    assert!(
        errors[0]
            .message
            .starts_with("tasks.parquet has 6295 tasks"),
        "{}",
        errors[0].message
    );
    let big = " ".repeat(10_000_001);
    let Answer::Failure { errors } = s.load_workload(&big, "json") else {
        panic!()
    };
    assert!(
        errors[0].message.contains("10000001 bytes"),
        "{}",
        errors[0].message
    );
    // Something within the limits still loads, and host counts are held to the limit too.
    let t = value(s.load_topology(
        r#"{"clusters": [{"name": "c", "hosts": [{"name": "h", "count": 3, "cpu": {"coreCount": 4, "coreSpeed": 1000}, "memory": {"memorySize": 1024}}]}]}"#,
    ));
    assert_eq!(t["handle"], 1, "the failed loads kept nothing");
    let w = value(s.load_workload(
        r#"{"tasks": [{"id": 1, "submissionTime": 0, "duration": 1000, "cpuCount": 1, "cpuCapacity": 100, "memory": 1}]}"#,
        "json",
    ));
    let handles = json!({"topology": t["handle"], "workload": w["handle"]}).to_string();
    let (h, o) = parse_request(&handles, r#"{"hostCounts": {"c/h": 11}}"#).unwrap();
    let Answer::Failure { errors } = s.run(&h, r#"{"type":"prefab","policyName":"Mem"}"#, &o)
    else {
        panic!()
    };
    assert!(
        errors[0].message.contains("11 hosts"),
        "{}",
        errors[0].message
    );
    let (h, o) = parse_request(&handles, r#"{"hostCounts": {"c/h": 10}}"#).unwrap();
    assert_eq!(
        value(s.run(&h, r#"{"type":"prefab","policyName":"Mem"}"#, &o))["result"]["hosts"]
            .as_array()
            .unwrap()
            .len(),
        10
    );
}

/// The tasks CSV says what the JSON result says: recomputed from its cells, the metrics agree.
#[test]
fn the_tasks_csv_agrees_with_the_result_and_the_cli() {
    let text = std::fs::read_to_string(sample("teaching/scenario.json")).unwrap();
    let mut s = Session::new();
    let loaded = value(s.load_scenario(&text));
    let policy = &std::fs::read_to_string(sample("policies/timeshift-stopper.json")).unwrap();
    let (h, o) = parse_request(&handles_of(&loaded), "{}").unwrap();
    let ran = value(s.run(&h, policy, &o));
    let run = ran["run"].as_u64().unwrap() as u32;
    let Answer::Success { value: csv_text } = s.tasks_csv(run) else {
        panic!("tasks_csv failed")
    };
    let m = &ran["result"]["metrics"];
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len() as u64, m["tasksTotal"].as_u64().unwrap());
    let num = |r: &csv::StringRecord, c: &str| r[col(c)].parse::<i64>().unwrap();
    let completed: Vec<_> = rows
        .iter()
        .filter(|r| &r[col("state")] == "completed")
        .collect();
    assert_eq!(
        completed.len() as u64,
        m["tasksCompleted"].as_u64().unwrap()
    );
    let waits: i64 = completed.iter().map(|r| num(r, "waitMs")).sum();
    let mean = waits as f64 / completed.len() as f64;
    assert!((mean - m["meanWaitMs"].as_f64().unwrap()).abs() < 1e-9);
    let deferred = rows.iter().filter(|r| num(r, "deferrals") > 0).count();
    assert!(deferred > 0, "the timeshift policy defers some task");
    assert_eq!(deferred as u64, m["deferredTasks"].as_u64().unwrap());
    let deferral: i64 = rows.iter().map(|r| num(r, "deferralMs")).sum();
    assert_eq!(deferral, m["deferralMs"].as_i64().unwrap());
    let paused = rows.iter().filter(|r| num(r, "pauses") > 0).count();
    assert_eq!(paused as u64, m["pausedTasks"].as_u64().unwrap());
    let missed = rows
        .iter()
        .filter(|r| &r[col("deadlineMissed")] == "true")
        .count();
    assert_eq!(missed as u64, m["deadlineMisses"].as_u64().unwrap());
    let makespan = rows.iter().map(|r| num(r, "finishMs")).max().unwrap();
    assert!(makespan <= m["makespanMs"].as_i64().unwrap());
    for r in &rows {
        if &r[col("state")] == "completed" {
            assert_eq!(
                num(r, "startMs") - num(r, "submitMs"),
                num(r, "waitMs"),
                "task {}",
                &r[0]
            );
        }
    }

    // The CLI writes the same bytes for the same run.
    let dir = std::env::temp_dir().join(format!("pp-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("tasks.csv");
    let scenario = dir.join("scenario.json");
    let mut sc: Value = serde_json::from_str(&text).unwrap();
    sc["policy"] = serde_json::from_str(policy).unwrap();
    std::fs::write(&scenario, sc.to_string()).unwrap();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_policy-playground"))
        .args(["simulate", "--scenario"])
        .arg(&scenario)
        .arg("--tasks-csv")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), csv_text);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The page's result download is the CLI's `simulate --json` output, byte for byte: the teaching
/// scenario under its own policy and options, run over handles and written out again by
/// `result_json`.
#[test]
fn the_result_download_is_what_the_cli_prints() {
    let scenario = sample("teaching/scenario.json");
    let mut s = Session::new();
    let loaded = value(s.load_scenario(&std::fs::read_to_string(&scenario).unwrap()));
    let options = json!({"seed": loaded["seed"], "quantumMs": loaded["quantumMs"]}).to_string();
    let (h, o) = parse_request(&handles_of(&loaded), &options).unwrap();
    let ran = value(s.run(&h, &loaded["policy"].to_string(), &o));
    let run = ran["run"].as_u64().unwrap() as u32;
    let Answer::Success { value: text } = s.result_json(run) else {
        panic!("result_json failed")
    };
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_policy-playground"))
        .args(["simulate", "--scenario", &scenario, "--json"])
        .output()
        .unwrap();
    assert!(
        cli.status.success(),
        "{}",
        String::from_utf8_lossy(&cli.stderr)
    );
    let printed = String::from_utf8(cli.stdout).unwrap();
    assert!(text.contains("\"tasksCompleted\":"), "{text}");
    assert_eq!(text, printed.trim_end());
    let Answer::Failure { errors } = s.result_json(run + 100) else {
        panic!("an unknown run is refused")
    };
    assert!(errors[0].message.contains("handle"), "{errors:?}");
}
