//! `policy-playground export --format opendc3` (SPEC 11.11): the folder reads back through the
//! SDK reader to the same run, byte for byte but for what the format cannot carry; the file has
//! every key OpenDC3 requires, in the forms it requires, and none of the keys it must never get;
//! the folder rules and the legacy format of the same command.

use policy_playground::experiment::{self, Disk, Format};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_policy-playground");

fn sample(path: &str) -> String {
    format!("{}/../www/samples/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// A scratch folder of this test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("pp-export-sdk-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }

    fn file(&self, name: &str, content: &str) -> String {
        std::fs::write(self.0.join(name), content).expect("writable");
        self.path(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Exit code, stdout and stderr of the binary.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{args:?} panicked:\n{stderr}");
    (
        out.status.code().expect("exited"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    )
}

/// stdout of a run that must succeed.
fn ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 0, "{args:?}:\n{stderr}");
    stdout
}

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text:.200}"))
}

/// The results of `simulate --experiment DIR/experiment.json --json`, one per run.
fn read_back(dir: &str, extra: &[&str]) -> Vec<Value> {
    let experiment = format!("{dir}/experiment.json");
    let mut args = vec!["simulate", "--experiment", &experiment, "--json"];
    args.extend(extra);
    let runs = json_of(&ok(&args));
    runs.as_array()
        .expect("an array of runs")
        .iter()
        .map(|r| r["result"].clone())
        .collect()
}

/// The result of `simulate ARGS --json`, as text exactly as printed, and parsed.
fn original(args: &[&str]) -> (String, Value) {
    let text = ok(&[&["simulate"], args, &["--json"]].concat());
    let text = text.trim_end().to_string();
    let value = json_of(&text);
    (text, value)
}

/// What the SDK folder cannot carry, made equal on both sides: the merged clusters' names
/// (`merged` maps each original cluster to the one it was merged into), task names (OpenDC's
/// tasks.parquet has no name column: a task read back is named by its id) and the digests of
/// the topology and workload, which those two change.
fn normalise(result: &mut Value, merged: &BTreeMap<String, String>) {
    for h in result["hosts"].as_array_mut().expect("hosts") {
        if let Some(to) = h["cluster"].as_str().and_then(|c| merged.get(c)) {
            h["cluster"] = json!(to);
        }
    }
    for t in result["tasks"].as_array_mut().expect("tasks") {
        t["name"] = t["id"].clone();
    }
    let digests = &mut result["provenance"]["digests"];
    digests["topology"] = json!("(merge)");
    digests["workload"] = json!("(task names)");
}

/// Asserts that a result read back is the original's text, byte for byte, after `normalise`
/// when `merged` is given (and without any change otherwise).
fn assert_same(
    original: &(String, Value),
    back: &Value,
    merged: Option<&BTreeMap<String, String>>,
) {
    let (text, value) = original;
    assert_eq!(
        &serde_json::to_string(value).expect("json"),
        text,
        "the comparison re-serialises the original without changing a byte"
    );
    let (mut a, mut b) = (value.clone(), back.clone());
    if let Some(m) = merged {
        normalise(&mut a, m);
        normalise(&mut b, m);
    }
    let (a, b) = (
        serde_json::to_string(&a).expect("json"),
        serde_json::to_string(&b).expect("json"),
    );
    if a != b {
        let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
        let from = at.saturating_sub(80);
        panic!(
            "the results differ at byte {at}:\n  original  ...{}\n  read back ...{}",
            &a[from..(at + 80).min(a.len())],
            &b[from..(at + 80).min(b.len())]
        );
    }
}

/// A copy of the teaching scenario with another policy, seed and semantics.
fn teaching_with(scratch: &Scratch, name: &str, policy: &Value) -> String {
    let text = std::fs::read_to_string(sample("teaching/scenario.json")).expect("the sample");
    let mut scenario = json_of(&text);
    scenario["policy"] = policy.clone();
    scenario["seed"] = json!(5);
    scenario["semantics"] = json!("current");
    scratch.file(name, &scenario.to_string())
}

#[test]
fn the_teaching_scenario_reads_back_to_the_same_run() {
    let s = Scratch::new("teaching");
    let scenario = sample("teaching/scenario.json");
    let out = s.path("folder");
    ok(&["export", "--scenario", &scenario, "--out", &out]);
    for file in [
        "experiment.json",
        "workload/tasks.parquet",
        "workload/fragments.parquet",
        "carbon.parquet",
        "NOTES.md",
    ] {
        assert!(Path::new(&out).join(file).is_file(), "{file} is written");
    }
    assert!(
        !Path::new(&out).join("topology.json").exists(),
        "the SDK file holds its topology"
    );

    // The SDK reader takes it without a single diagnostic.
    let exp = experiment::load(&Disk, &Path::new(&out).join("experiment.json"))
        .unwrap_or_else(|e| panic!("the export reads back: {:?}", e.diagnostics()));
    assert_eq!(exp.format, Format::Sdk);
    assert!(exp.warnings.is_empty(), "{:?}", exp.warnings);
    assert_eq!((exp.runs.len(), exp.runs[0].seed), (1, 0));

    // The same hosts, names and types (host entry names), the same policy and tasks.
    let file =
        policy_playground::scenario::read(&std::fs::read_to_string(&scenario).expect("sample"))
            .expect("the sample is valid");
    let hosts = |t: &policy_playground::model::Topology| -> Vec<String> {
        t.hosts()
            .iter()
            .map(|h| {
                let ty = &t.clusters[h.cluster as usize].groups[h.group as usize].name;
                format!(
                    "{} {ty} {} {} {} {:?}",
                    h.name, h.cores, h.core_speed_mhz, h.memory_mib, h.power
                )
            })
            .collect()
    };
    let back = &exp.topologies[0].1;
    assert_eq!(hosts(back), hosts(&file.topology));
    assert_eq!(
        back.clusters.len(),
        1,
        "two clusters and a carbon trace: merged"
    );
    assert_eq!(exp.policies, std::slice::from_ref(&file.policy));
    let mut tasks = file.workload.tasks.clone();
    for t in &mut tasks {
        t.name = t.id.clone();
    }
    assert_eq!(exp.workloads[0].1.tasks, tasks);
    assert_eq!(exp.topologies[0].2, file.carbon);

    // The run: byte for byte, but for the merged cluster's name and the task names.
    let before = original(&["--scenario", &scenario]);
    let after = read_back(&out, &[]);
    assert_eq!(after.len(), 1);
    let merged: BTreeMap<String, String> = [("rack-B".to_string(), "rack-A".to_string())].into();
    assert_same(&before, &after[0], Some(&merged));
    assert_eq!(before.1["hosts"][6]["cluster"], "rack-B");
    assert_eq!(after[0]["hosts"][6]["cluster"], "rack-A");
    // The carbon trace and the policy are read back exactly: their digests agree as they are.
    assert_eq!(
        before.1["provenance"]["digests"]["carbon"],
        after[0]["provenance"]["digests"]["carbon"]
    );
    assert_eq!(
        before.1["provenance"]["digests"]["policy"],
        after[0]["provenance"]["digests"]["policy"]
    );
    let notes = std::fs::read_to_string(Path::new(&out).join("NOTES.md")).expect("notes");
    assert!(
        notes.contains("`rack-A`, `rack-B` are merged into one cluster named `rack-A`"),
        "{notes}"
    );
}

/// Three policy files, a filter policy OpenDC3 only has as a prefab, seed 5 and Current: the
/// runs read back equal the scenario's under each policy.
#[test]
fn several_policies_under_current_read_back_run_for_run() {
    let s = Scratch::new("policies");
    let memorizing = json!({"type": "filter", "filters": [{"type": "Compute"}, {"type": "VCpu"}, {"type": "Ram"}], "memorize": true});
    let policies = [
        sample("policies/features.json"),
        sample("policies/timeshift-stopper.json"),
        s.file("memorizing.json", &memorizing.to_string()),
    ];
    let scenario = sample("teaching/scenario.json");
    let out = s.path("folder");
    ok(&[
        "export",
        "--scenario",
        &scenario,
        "--policy",
        &policies[0],
        "--policy",
        &policies[1],
        "--policy",
        &policies[2],
        "--seed",
        "5",
        "--semantics",
        "current",
        "--out",
        &out,
    ]);
    let experiment = json_of(
        &std::fs::read_to_string(Path::new(&out).join("experiment.json")).expect("written"),
    );
    assert_eq!(experiment["initialSeed"], 5);
    let kinds: Vec<&Value> = experiment["allocationPolicies"]
        .as_array()
        .expect("policies")
        .iter()
        .map(|p| &p["type"])
        .collect();
    assert_eq!(kinds, ["filter", "timeshift", "prefab"]);
    assert_eq!(
        experiment["allocationPolicies"][2],
        json!({"type": "prefab", "prefabName": "TaskNumMemorizing"})
    );

    let after = read_back(&out, &["--semantics", "current"]);
    assert_eq!(after.len(), 3);
    let merged: BTreeMap<String, String> = [("rack-B".to_string(), "rack-A".to_string())].into();
    for (i, path) in policies.iter().enumerate() {
        let policy = json_of(&std::fs::read_to_string(path).expect("policy"));
        let one = teaching_with(&s, &format!("scenario-{i}.json"), &policy);
        let before = original(&["--scenario", &one]);
        assert_eq!(before.1["provenance"]["semantics"], "current");
        assert_same(&before, &after[i], Some(&merged));
    }
    let deferred = after[1]["metrics"]["deferredTasks"]
        .as_u64()
        .expect("a count");
    assert!(
        deferred > 0,
        "the timeshift run defers: the comparison covers time-shifting"
    );
}

#[test]
fn surf_week_reads_back_byte_for_byte() {
    let s = Scratch::new("surf");
    let (topology, workload) = (sample("surf_week/topology.json"), sample("surf_week"));
    let policies = [
        sample("policies/mem.json"),
        sample("policies/features.json"),
    ];
    let out = s.path("folder");
    ok(&[
        "export",
        "--topology",
        &topology,
        "--workload",
        &workload,
        "--policy",
        &policies[0],
        "--policy",
        &policies[1],
        "--out",
        &out,
    ]);
    let after = read_back(&out, &[]);
    assert_eq!(after.len(), 2);
    for (i, policy) in policies.iter().enumerate() {
        let before = original(&[
            "--topology",
            &topology,
            "--workload",
            &workload,
            "--policy",
            policy,
        ]);
        // One cluster, integer task ids: nothing to map, digests included.
        assert_same(&before, &after[i], None);
        assert_eq!(after[i]["metrics"]["tasksTotal"], 6295);
    }
    let notes = std::fs::read_to_string(Path::new(&out).join("NOTES.md")).expect("notes");
    assert!(
        notes.contains(
            "allocationPolicies[1]: subsetSize 2: OpenDC3's filter scheduler ignores subsetSize"
        ),
        "{notes}"
    );
    assert!(!notes.contains("merged"), "{notes}");
}

// ---------------------------------------------------------------------------------------------
// What OpenDC3 requires (SPEC 11.11), checked on the file written

/// `number unit` with SPEC 11.6's number `-?[0-9]+(\.[0-9]+)?` and no exponent.
fn unit_string(v: &Value, unit: &str) -> Option<f64> {
    let s = v.as_str()?;
    let number = s.strip_suffix(&format!(" {unit}"))?;
    let digits = number.strip_prefix('-').unwrap_or(number);
    let (whole, fraction) = match digits.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (digits, None),
    };
    let all_digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    (all_digits(whole) && fraction.is_none_or(all_digits)).then(|| number.parse().ok())?
}

fn list<'v>(v: &'v Value, key: &str) -> &'v Vec<Value> {
    let items = v[key]
        .as_array()
        .unwrap_or_else(|| panic!("`{key}` is a list: {v:.200}"));
    assert!(!items.is_empty(), "`{key}` is not empty");
    items
}

fn object_keys(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push(format!("{path}.{k}"));
                object_keys(x, &format!("{path}.{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                object_keys(x, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

fn check_host(h: &Value, names: &mut HashSet<String>, counters: &mut BTreeMap<String, u64>) {
    let cpu = &h["cpu"];
    assert!(
        cpu["coreCount"].as_u64().is_some_and(|c| c >= 1),
        "cpu.coreCount >= 1: {h}"
    );
    assert!(
        unit_string(&cpu["coreSpeed"], "MHz").is_some(),
        "cpu.coreSpeed: {h}"
    );
    assert!(
        cpu["count"].as_u64().is_some_and(|c| c >= 1),
        "cpu.count: {h}"
    );
    assert!(
        unit_string(&h["memory"]["size"], "MiB").is_some(),
        "memory.size: {h}"
    );
    let power = &h["cpuPowerModel"];
    assert!(power["type"].is_string(), "cpuPowerModel.type: {h}");
    let max = unit_string(&power["maxPower"], "W").expect("maxPower in W");
    let idle = unit_string(&power["idlePower"], "W").expect("idlePower in W");
    assert!(max >= idle, "max >= idle: {h}");
    assert!(
        unit_string(&power["power"], "W").is_some(),
        "power in W: {h}"
    );
    assert!(
        power["calibrationFactor"].is_number()
            && power["asymUtil"].is_number()
            && power["dvfs"].is_boolean()
    );
    // Host names are unique after expansion (one counter per name over the topology).
    let name = h["name"].as_str().expect("a host name");
    for _ in 0..h["count"].as_u64().expect("count") {
        let n = counters.entry(name.to_string()).or_insert(0);
        let expanded = if *n == 0 {
            name.to_string()
        } else {
            format!("{name}-{}", *n - 1)
        };
        *n += 1;
        assert!(
            names.insert(expanded.clone()),
            "host name {expanded} is unique"
        );
    }
}

fn check_policy(p: &Value) {
    let kind = p["type"].as_str().expect("a policy has `type`");
    match kind {
        "prefab" => assert!(p["prefabName"].is_string(), "{p}"),
        "filter" | "timeshift" => {
            for f in p["filters"].as_array().expect("filters") {
                let t = f["type"].as_str().expect("a filter has `type`");
                assert!(
                    t.starts_with(|c: char| c.is_ascii_lowercase()),
                    "lower camel: {t}"
                );
                if t == "instanceCount" {
                    assert!(
                        f["limit"].as_u64().is_some_and(|l| l >= 1),
                        "instanceCount needs limit"
                    );
                }
            }
            for w in p["weighers"].as_array().expect("weighers") {
                let t = w["type"].as_str().expect("a weigher has `type`");
                assert!(
                    t.starts_with(|c: char| c.is_ascii_lowercase()),
                    "lower camel: {t}"
                );
                assert!(w["multiplier"].is_number());
            }
            assert!(p["subsetSize"].as_u64().is_some_and(|s| s >= 1));
            assert_eq!(
                kind == "timeshift",
                p.get("memorize").is_some(),
                "memorize only in a timeshift policy: {p}"
            );
            if kind == "timeshift" {
                for key in [
                    "forecast",
                    "forecastSize",
                    "shortForecastThreshold",
                    "longForecastThreshold",
                    "windowSize",
                ] {
                    assert!(p.get(key).is_some(), "timeshift writes {key}");
                }
            }
        }
        other => panic!("unknown policy type {other}"),
    }
}

/// Every requirement of SPEC 11.11's "What OpenDC3 requires", on a written folder.
fn check_requirements(dir: &Path) {
    let e = json_of(&std::fs::read_to_string(dir.join("experiment.json")).expect("written"));
    let keys: Vec<&String> = e.as_object().expect("an object").keys().collect();
    assert_eq!(
        keys,
        [
            "name",
            "initialSeed",
            "runs",
            "topologies",
            "workloads",
            "allocationPolicies",
            "exportModels"
        ]
    );
    assert!(
        e["initialSeed"]
            .as_i64()
            .is_some_and(|s| i32::try_from(s).is_ok()),
        "initialSeed is an int32"
    );
    assert_eq!(e["runs"], 1);
    assert_eq!(
        e["exportModels"],
        json!([{"exportInterval": "3600 seconds"}])
    );
    let (mut names, mut counters) = (HashSet::new(), BTreeMap::new());
    let mut carbon_clusters = 0;
    for t in list(&e, "topologies") {
        for c in list(t, "clusters") {
            assert_eq!(c["count"], 1);
            for h in list(c, "hosts") {
                check_host(h, &mut names, &mut counters);
            }
            if let Some(carbon) = c.pointer("/powerSource/carbon") {
                carbon_clusters += 1;
                assert_eq!(carbon["type"], "uri", "a reference has `type`");
                let uri = carbon["uri"].as_str().expect("a uri");
                assert!(dir.join(uri).is_file(), "the carbon file {uri} exists");
            }
        }
    }
    assert!(
        carbon_clusters <= 1,
        "at most one cluster names a carbon trace"
    );
    for w in list(&e, "workloads") {
        assert_eq!(w["type"], "trace");
        assert_eq!(w["source"]["type"], "uri");
        let uri = w["source"]["uri"].as_str().expect("source.uri");
        for f in ["tasks.parquet", "fragments.parquet"] {
            assert!(dir.join(uri).join(f).is_file(), "{uri}/{f} exists");
        }
    }
    for p in list(&e, "allocationPolicies") {
        check_policy(p);
    }
    let mut all = Vec::new();
    object_keys(&e, "", &mut all);
    let never = [
        "scheduler",
        "policyName",
        "filterName",
        "maxTimesSkipped",
        "pathToFile",
        "outputFolder",
        "submissionTime",
        "sampleFraction",
        "deferAll",
    ];
    for path in &all {
        let key = path.rsplit('.').next().unwrap_or("");
        assert!(!never.contains(&key), "{path} is never written");
    }
}

#[test]
fn the_file_holds_what_opendc3_requires_and_nothing_it_must_not_get() {
    let s = Scratch::new("requires");
    let memorizing = s.file(
        "gpu.json",
        r#"{"type": "prefab", "policyName": "gpuTaskMemorizing"}"#,
    );
    let random = s.file(
        "random.json",
        r#"{"type": "prefab", "policyName": "Random"}"#,
    );
    let constant = s.file("topology.json", r#"{"clusters": [{"name": "c", "hosts": [
        {"name": "g", "count": 2, "cpu": {"coreCount": 4, "coreSpeed": 2500.5, "count": 2}, "memory": {"memorySize": 8192},
         "gpu": {"count": 2, "coreCount": 64, "coreSpeed": 1200},
         "cpuPowerModel": {"modelType": "constant", "power": 150.25}},
        {"name": "g", "count": 1, "cpu": {"coreCount": 2, "coreSpeed": 1000}, "memory": {"memorySize": 1024}}]}]}"#);
    let workload = s.file("workload.json", r#"{"tasks": [{"id": "x", "submissionTime": 0, "duration": 60000, "cpuCount": 1, "cpuCapacity": 1000, "memory": 100}]}"#);
    for (name, args) in [
        (
            "teaching",
            vec![
                "--scenario".to_string(),
                sample("teaching/scenario.json"),
                "--policy".into(),
                sample("policies/features.json"),
                "--policy".into(),
                sample("policies/timeshift-stopper.json"),
                "--policy".into(),
                memorizing.clone(),
            ],
        ),
        (
            "gpu",
            vec![
                "--topology".to_string(),
                constant.clone(),
                "--workload".into(),
                workload.clone(),
                "--policy".into(),
                random.clone(),
                "--policy".into(),
                memorizing.clone(),
            ],
        ),
    ] {
        let out = s.path(name);
        let mut all: Vec<&str> = vec!["export", "--out", &out];
        all.extend(args.iter().map(String::as_str));
        ok(&all);
        check_requirements(Path::new(&out));
    }
    // The hand-made topology: cores = count x coreCount, GPUs as count x one model, the
    // constant model with both bounds, repeated names made unique.
    let e = json_of(
        &std::fs::read_to_string(Path::new(&s.path("gpu")).join("experiment.json"))
            .expect("written"),
    );
    let host = &e["topologies"][0]["clusters"][0]["hosts"][0];
    assert_eq!(
        host["cpu"],
        json!({"coreCount": 8, "coreSpeed": "2500.5 MHz", "count": 1})
    );
    assert_eq!(
        host["gpu"],
        json!({"coreCount": 64, "coreSpeed": "1200 MHz", "count": 2})
    );
    assert_eq!(
        host["cpuPowerModel"],
        json!({"type": "constant", "idlePower": "150.25 W", "maxPower": "150.25 W", "power": "150.25 W", "calibrationFactor": 1.0, "asymUtil": 0.0, "dvfs": true})
    );
    assert_eq!(
        e["allocationPolicies"],
        json!([{"type": "prefab", "prefabName": "Random"}, {"type": "prefab", "prefabName": "GpuTaskMemorizing"}])
    );
    assert!(
        e["topologies"][0]["clusters"][0]
            .get("powerSource")
            .is_none(),
        "no carbon, no carbon key"
    );
    // The id `x` is not an int32: renumbered, with the mapping in the notes.
    let notes = std::fs::read_to_string(Path::new(&s.path("gpu")).join("NOTES.md")).expect("notes");
    assert!(
        notes.contains("renumbered 0..0") && notes.contains("\n  0 -> x"),
        "{notes}"
    );
    let back = experiment::load(&Disk, &Path::new(&s.path("gpu")).join("experiment.json"))
        .expect("reads back");
    let ids: Vec<&str> = back.workloads[0]
        .1
        .tasks
        .iter()
        .map(|t| t.id.as_str())
        .collect();
    assert_eq!(ids, ["0"]);
    assert!(notes.contains("1 tasks have no fragments"), "{notes}");
    // That task runs as before: the same figures, hosts and series (only its id changed).
    let before = original(&[
        "--topology",
        &constant,
        "--workload",
        &workload,
        "--policy",
        &random,
    ]);
    let after = read_back(&s.path("gpu"), &[]);
    for key in ["metrics", "hosts", "series", "startEpochMs"] {
        assert_eq!(before.1[key], after[0][key], "{key}");
    }
    assert_eq!(after[0]["tasks"][0]["id"], "0");
    let names: Vec<String> = back.topologies[0]
        .1
        .hosts()
        .into_iter()
        .map(|h| h.name)
        .collect();
    assert_eq!(names, ["g", "g-0", "g-1"]);
}

// ---------------------------------------------------------------------------------------------
// The command's folder rules, errors and legacy format

#[test]
fn the_command_keeps_to_its_own_folder_and_names_what_it_refuses() {
    let s = Scratch::new("folder");
    let scenario = sample("teaching/scenario.json");
    let out = s.path("folder");
    std::fs::create_dir_all(&out).expect("folder");
    std::fs::write(Path::new(&out).join("thesis.tex"), "mine").expect("writable");
    let (code, _, stderr) = run(&["export", "--scenario", &scenario, "--out", &out]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("`thesis.tex` is not a file export writes"),
        "{stderr}"
    );
    assert!(
        !Path::new(&out).join("experiment.json").exists(),
        "nothing written"
    );
    std::fs::remove_file(Path::new(&out).join("thesis.tex")).expect("removable");

    // Over its own files it writes again, the same bytes for the same inputs; a run without
    // carbon removes the earlier carbon.parquet.
    ok(&["export", "--scenario", &scenario, "--out", &out]);
    let first = std::fs::read(Path::new(&out).join("experiment.json")).expect("written");
    ok(&["export", "--scenario", &scenario, "--out", &out]);
    assert_eq!(
        std::fs::read(Path::new(&out).join("experiment.json")).expect("written"),
        first
    );
    let text = std::fs::read_to_string(&scenario).expect("sample");
    let mut no_carbon = json_of(&text);
    no_carbon.as_object_mut().expect("object").remove("carbon");
    let no_carbon = s.file("no-carbon.json", &no_carbon.to_string());
    ok(&["export", "--scenario", &no_carbon, "--out", &out]);
    assert!(
        !Path::new(&out).join("carbon.parquet").exists(),
        "no stale trace"
    );

    // A policy OpenDC3 cannot express is invalid input, named.
    let odd = s.file(
        "odd.json",
        r#"{"type": "filter", "filters": [{"type": "Compute"}], "memorize": true}"#,
    );
    let (code, _, stderr) = run(&[
        "export",
        "--scenario",
        &scenario,
        "--policy",
        &odd,
        "--out",
        &s.path("odd"),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("OpenDC3 has no memorizing filter policy with these filters")
            && stderr.contains("allocationPolicies[0]"),
        "{stderr}"
    );
    // Usage: a scenario and separate inputs together; an unreadable policy file.
    let (code, _, _) = run(&[
        "export",
        "--scenario",
        &scenario,
        "--topology",
        &scenario,
        "--out",
        &s.path("u"),
    ]);
    assert_eq!(code, 2);
    let missing = s.path("missing.json");
    let (code, _, _) = run(&[
        "export",
        "--scenario",
        &scenario,
        "--policy",
        &missing,
        "--out",
        &s.path("u"),
    ]);
    assert_eq!(code, 2);
}

#[test]
fn the_legacy_format_is_the_legacy_exporters_with_every_policy() {
    let s = Scratch::new("legacy");
    let scenario = sample("teaching/scenario.json");
    let out = s.path("folder");
    let policies = [
        sample("policies/mem.json"),
        sample("policies/features.json"),
    ];
    ok(&[
        "export",
        "--format",
        "legacy",
        "--scenario",
        &scenario,
        "--policy",
        &policies[0],
        "--policy",
        &policies[1],
        "--out",
        &out,
    ]);
    for file in [
        "experiment.json",
        "topology.json",
        "workload/tasks.parquet",
        "workload/fragments.parquet",
        "carbon.parquet",
        "NOTES.md",
    ] {
        assert!(Path::new(&out).join(file).is_file(), "{file} is written");
    }
    let e = json_of(
        &std::fs::read_to_string(Path::new(&out).join("experiment.json")).expect("written"),
    );
    assert_eq!(e["topologies"], json!([{"pathToFile": "topology.json"}]));
    let written: Vec<Value> = policies
        .iter()
        .map(|p| json_of(&std::fs::read_to_string(p).expect("policy")))
        .collect();
    assert_eq!(
        e["allocationPolicies"],
        Value::Array(written),
        "each policy as written"
    );
    let back =
        experiment::load(&Disk, &Path::new(&out).join("experiment.json")).expect("reads back");
    assert_eq!(back.format, Format::Legacy);
    assert_eq!(back.runs.len(), 2);
    // Re-exported as OpenDC3 into the same folder: the legacy topology goes.
    ok(&["export", "--scenario", &scenario, "--out", &out]);
    assert!(!Path::new(&out).join("topology.json").exists());
}

/// The page's path: the session's export of loaded handles applies the host counts, carries
/// the carbon trace as parquet, and refuses a policy OpenDC3 cannot express, naming it.
#[test]
fn the_session_export_applies_host_counts_and_carries_the_files() {
    use policy_playground::api::handles::{parse_request, Session};
    use policy_playground::api::Answer;
    use policy_playground::input;
    let text = std::fs::read_to_string(sample("teaching/scenario.json")).expect("sample");
    let mut s = Session::new();
    let Answer::Success { value: loaded } = s.load_scenario(&text) else {
        panic!("the sample loads")
    };
    let handles = json!({"topology": loaded.topology.handle, "workload": loaded.workload.handle,
                         "carbon": loaded.carbon.as_ref().map(|c| c.handle)});
    let options = r#"{"seed": 3000000000, "quantumMs": 2000, "hostCounts": {"rack-A/small": 2}}"#;
    let (h, o) = parse_request(&handles.to_string(), options).expect("valid request");
    let policy = r#"{"type": "prefab", "policyName": "ActiveServers"}"#;
    let e = match s.export_opendc3(&h, policy, &o) {
        Answer::Success { value } => value,
        Answer::Failure { errors } => panic!("{errors:?}"),
    };
    let hosts = &e.experiment["topologies"][0]["clusters"][0]["hosts"];
    assert_eq!(hosts[0]["count"], 2, "the page's count edit");
    assert_eq!(
        e.experiment["initialSeed"], 0,
        "3000000000 does not fit an int32"
    );
    assert_eq!(
        e.experiment["allocationPolicies"],
        json!([{"type": "prefab", "prefabName": "ActiveServers"}])
    );
    let notes = e.notes.join("\n");
    assert!(
        notes.contains("seed 3000000000") && notes.contains("quantum of 2000 ms"),
        "{notes}"
    );
    let carbon =
        input::carbon::read_carbon_parquet(e.carbon.as_deref().expect("a trace")).expect("parquet");
    assert_eq!(carbon.len(), 121, "the teaching trace's samples");
    let w = input::workload::read_parquet_workload(&e.tasks, &e.fragments).expect("parquet");
    assert_eq!(w.tasks.len(), 200);
    let bad = r#"{"type": "timeshift", "memorize": true, "maxTimesSkipped": 3}"#;
    let Answer::Failure { errors } = s.export_opendc3(&h, bad, &o) else {
        panic!("maxTimesSkipped 3 cannot be exported")
    };
    assert_eq!(errors[0].path, "allocationPolicies[0]");
    assert!(
        errors[0].message.contains("`maxTimesSkipped` is 3"),
        "{errors:?}"
    );
}
