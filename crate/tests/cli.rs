//! The `policy-playground` binary: output formats and exit codes (0 success, 1 invalid input,
//! 2 usage errors and unreadable files), and never a panic, whatever the input.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_policy-playground");

/// What a run of the binary gave.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }
}

fn run(args: &[&str]) -> Run {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs");
    let run = Run {
        code: out.status.code().expect("exited, not killed by a signal"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        !run.stderr.contains("panicked"),
        "{args:?} panicked:\n{}",
        run.stderr
    );
    run
}

/// A scratch folder of this test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "policy-playground-cli-{}-{name}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, name: &str, content: impl AsRef<[u8]>) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, content).unwrap();
        path.to_str().unwrap().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn shared(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(rel);
    assert!(path.exists(), "{}", path.display());
    path.to_str().unwrap().to_string()
}

fn conformance() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/conformance/decisions.json")
        .to_str()
        .unwrap()
        .to_string()
}

const MEM: &str = r#"{"type": "prefab", "policyName": "Mem"}"#;

// ---------------------------------------------------------------------------------------------
// check

#[test]
fn check_a_valid_policy() {
    let dir = Scratch::new("valid");
    let file = dir.file("mem.json", MEM);
    let r = run(&["check", &file]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    assert_eq!(
        r.stdout,
        format!(
            "{file}: 1 policy (policy file, 0 error(s), 0 warning(s))\n  1.: filter: filters [VCpu(1), Ram(1)], weighers [Ram(1)]\n"
        )
    );
}

#[test]
fn check_prints_file_line_column_severity_message_path() {
    let dir = Scratch::new("human");
    // Two problems on line 2: "policyname" (key at 3) and a missing policyName (brace at 1 of
    // line 1).
    let file = dir.file(
        "bad.json",
        "{\"type\": \"prefab\",\n  \"policyname\": \"Mem\"}",
    );
    let r = run(&["check", &file]);
    assert_eq!(r.code, 1);
    // Each diagnostic, then its line with its range underlined: the object's brace for the
    // missing key, exactly the misspelt key for the unknown one.
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 6, "{}", r.stderr);
    assert_eq!(
        lines[0],
        format!("{file}:1:1: warning: the prefab has no `policyName`: it runs Mem, the default (policyName)")
    );
    assert_eq!(lines[1..3], ["   1 | {\"type\": \"prefab\",", "     | ^"]);
    assert!(
        lines[3].starts_with(&format!(
            "{file}:2:3: error: unknown key `policyname` in a prefab policy (did you mean `policyName`?"
        )),
        "{}",
        lines[3]
    );
    assert!(lines[3].ends_with(" (policyname)"), "{}", lines[3]);
    assert_eq!(
        lines[4..6],
        ["   2 |   \"policyname\": \"Mem\"}", "     |   ^^^^^^^^^^^^"]
    );
    assert!(
        r.stdout.contains("1 error(s), 1 warning(s)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("  1.: invalid"), "{}", r.stdout);
}

#[test]
fn check_with_warnings_only_succeeds() {
    let file = shared("opendc-samples/experiments/legacy/features_experiment.json");
    let r = run(&["check", &file]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The one warning, then its line with the value 1.5 underlined.
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{}", r.stderr);
    assert_eq!(
        lines[1..3],
        [
            "  39 |                     \"allocationRatio\": 1.5",
            "     |                                        ^^^"
        ]
    );
    assert!(
        lines[0].starts_with(&format!(
            "{file}:39:40: warning: Ram allocationRatio 1.5: overcommitting memory is not supported"
        )),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].ends_with(" (allocationPolicies[1].filters[1].allocationRatio)"),
        "{}",
        lines[0]
    );
    let out: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        out[0],
        format!("{file}: 3 policies (experiment file, 0 error(s), 1 warning(s))")
    );
    assert_eq!(out.len(), 4);
    assert!(out[1].starts_with("  1. allocationPolicies[0]: filter:"));
    assert!(out[3].starts_with("  3. allocationPolicies[2]: timeshift:"));
}

#[test]
fn check_json_shape() {
    let file = shared("opendc-samples/experiments/legacy/experiment_2.json");
    let r = run(&["check", &file, "--json"]);
    assert_eq!(r.code, 1);
    let v = r.json();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["ok", "diagnostics", "policies"]);
    assert_eq!(v["ok"], false);
    let diagnostics = v["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 2);
    for d in diagnostics {
        let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["severity", "message", "path", "line", "column", "start", "end"]
        );
    }
    // The ranges, counted by hand: the warning covers the opening brace of the policy lacking
    // `policyName` (line 12, column 9: one character); the error covers the key `"name"`
    // (line 14, columns 13 to 19: six characters with its quotes).
    let range = |d: &Value| {
        let p = |k: &str| {
            (
                d[k]["line"].as_u64(),
                d[k]["column"].as_u64(),
                d[k]["offset"].as_u64(),
            )
        };
        (p("start"), p("end"))
    };
    let ((l0, c0, o0), (l1, c1, o1)) = range(&diagnostics[0]);
    assert_eq!((l0, c0, l1, c1), (Some(12), Some(9), Some(12), Some(10)));
    assert_eq!(o1.zip(o0).map(|(e, s)| e - s), Some(1));
    let ((l0, c0, o0), (l1, c1, o1)) = range(&diagnostics[1]);
    assert_eq!((l0, c0, l1, c1), (Some(14), Some(13), Some(14), Some(19)));
    assert_eq!(o1.zip(o0).map(|(e, s)| e - s), Some(6));
    assert_eq!(diagnostics[0]["severity"], "warning");
    assert_eq!(diagnostics[0]["path"], "allocationPolicies[0].policyName");
    assert_eq!(
        (&diagnostics[0]["line"], &diagnostics[0]["column"]),
        (&Value::from(12), &Value::from(9))
    );
    assert_eq!(diagnostics[1]["severity"], "error");
    assert_eq!(diagnostics[1]["path"], "allocationPolicies[0].name");
    assert_eq!(
        (&diagnostics[1]["line"], &diagnostics[1]["column"]),
        (&Value::from(14), &Value::from(13))
    );
    assert_eq!(v["policies"], serde_json::json!([null]));

    // A valid document: its policies in explicit form.
    let dir = Scratch::new("json");
    let file = dir.file("mem.json", MEM);
    let r = run(&["check", "--json", &file]);
    assert_eq!(r.code, 0);
    let v = r.json();
    assert_eq!(v["ok"], true);
    assert_eq!(v["diagnostics"], serde_json::json!([]));
    assert_eq!(v["policies"].as_array().unwrap().len(), 1);
    assert_eq!(v["policies"][0]["type"], "filter");
    assert_eq!(v["policies"][0]["maxTimesSkipped"], 7);
}

#[test]
fn invalid_inputs_exit_1_without_a_panic() {
    let dir = Scratch::new("invalid");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "errors.json",
            br#"{"type": "filter", "subsetSize": 0}"#.to_vec(),
            ":1:34: error: `subsetSize` must be an integer >= 1",
        ),
        ("not-json.json", b"type: filter\n".to_vec(), ":1:1: error: "),
        ("empty.json", Vec::new(), ":1:1: error: empty document"),
        (
            "deep.json",
            vec![b'['; 10 * 1024 * 1024],
            ":1:129: error: nesting deeper than 128",
        ),
        (
            "huge.json",
            br#"{"subsetSize": 1e999}"#.to_vec(),
            ":1:16: error: number out of range",
        ),
        (
            "latin1.json",
            b"{\"type\": \"prefab\", \"policyName\": \"M\xe9m\"}".to_vec(),
            "not UTF-8",
        ),
    ];
    for (name, content, message) in cases {
        let file = dir.file(name, content);
        for args in [
            vec!["check", file.as_str()],
            vec!["check", file.as_str(), "--json"],
        ] {
            let r = run(&args);
            assert_eq!(r.code, 1, "{args:?}: {}{}", r.stdout, r.stderr);
            let all = format!("{}{}", r.stdout, r.stderr);
            if !args.contains(&"--json") {
                assert!(all.contains(message), "{args:?}: {all}");
            }
        }
        let r = run(&["expand", &file]);
        assert_eq!(r.code, 1, "expand {name}: {}", r.stderr);
        assert_eq!(r.stdout, "", "expand {name} prints no policy");
        let r = run(&["decide", "--case", &file]);
        assert_eq!(r.code, 1, "decide {name}: {}", r.stderr);
    }
}

#[test]
fn check_json_of_a_syntax_error_is_still_json() {
    let dir = Scratch::new("syntax-json");
    let file = dir.file("bad.json", "{\"type\": \"filter\",}");
    let r = run(&["check", "--json", &file]);
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(v["ok"], false);
    assert_eq!(v["diagnostics"][0]["line"], 1);
    assert_eq!(v["diagnostics"][0]["column"], 19);
    assert_eq!(v["policies"], serde_json::json!([]));
}

#[test]
fn usage_errors_and_missing_files_exit_2() {
    let missing = "/nonexistent/policy-playground/none.json";
    for args in [
        vec!["check", missing],
        vec!["expand", missing],
        vec!["decide", "--case", missing],
        vec!["frobnicate"],
        vec!["check", "--frobnicate", "x.json"],
        vec!["decide"],
        vec!["check"],
        vec![],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(!r.stderr.is_empty(), "{args:?} says why");
    }
    let r = run(&["check", missing]);
    assert!(r.stderr.contains("cannot read"), "{}", r.stderr);
    // Help and version are not errors.
    assert_eq!(run(&["--help"]).code, 0);
    assert_eq!(run(&["--version"]).code, 0);
}

// ---------------------------------------------------------------------------------------------
// expand

#[test]
fn expand_a_prefab() {
    let dir = Scratch::new("expand");
    let file = dir.file(
        "p.json",
        r#"{"type": "prefab", "policyName": " tasknummemorizing "}"#,
    );
    let r = run(&["expand", &file]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    assert_eq!(
        r.json(),
        serde_json::json!({
            "type": "filter",
            "filters": [{"type": "Compute"}, {"type": "VCpu", "allocationRatio": 1.0},
                        {"type": "Ram", "allocationRatio": 1.0}],
            "weighers": [],
            "subsetSize": 1,
            "memorize": true,
            "maxTimesSkipped": 7,
        })
    );
    // Warnings go to stderr, the policy to stdout.
    let file = dir.file("w.json", r#"{"type": "prefab"}"#);
    let r = run(&["expand", &file]);
    assert_eq!(r.code, 0);
    assert!(r.stderr.contains(":1:1: warning: "), "{}", r.stderr);
    assert_eq!(r.json()["weighers"][0]["type"], "Ram");
}

#[test]
fn expand_an_experiment_file() {
    let file = shared("opendc-samples/experiments/legacy/features_experiment.json");
    let r = run(&["expand", &file]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    let policies = v.as_array().expect("an array for an experiment");
    assert_eq!(policies.len(), 3);
    assert_eq!(policies[0]["weighers"][0]["type"], "CoreRam");
    assert_eq!(policies[1]["subsetSize"], 2);
    assert_eq!(policies[1]["filters"][3]["limit"], 8);
    assert_eq!(policies[2]["type"], "timeshift");
    assert_eq!(policies[2]["taskStopper"]["forecastThreshold"], 0.6);
    // The one warning is on stderr, with its line underlined.
    assert_eq!(r.stderr.lines().count(), 3, "{}", r.stderr);
    assert!(r
        .stderr
        .lines()
        .next()
        .unwrap()
        .contains(":39:40: warning: Ram allocationRatio 1.5"));
}

// ---------------------------------------------------------------------------------------------
// decide

/// The conformance case named `name`, as its own file.
fn single_case(dir: &Scratch, name: &str) -> String {
    let all: Value =
        serde_json::from_str(&std::fs::read_to_string(conformance()).unwrap()).unwrap();
    let case = all
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no case {name}"));
    dir.file(
        &format!("{}.json", name.replace(' ', "-")),
        serde_json::to_string_pretty(case).unwrap(),
    )
}

#[test]
fn decide_every_conformance_case() {
    let r = run(&["decide", "--case", &conformance(), "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    let cases = v.as_array().expect("an array of cases");
    assert_eq!(cases.len(), 23);
    for c in cases {
        assert_eq!(c["ok"], true, "{c}");
        for s in c["steps"].as_array().unwrap() {
            assert_eq!(s["matches"], true, "{c}");
        }
    }
    // The human form says so too.
    let r = run(&["decide", "--case", &conformance()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.matches("\ncase ").count() + 1, 23);
    assert!(!r.stdout.contains("EXPECTED"), "{}", r.stdout);
}

#[test]
fn decide_a_single_case_gives_its_steps() {
    let dir = Scratch::new("single");
    for (name, chosen) in [
        ("ram filter", Value::from("B")),
        ("no hosts", Value::Null),
        (
            "timeshift defers a deferrable task while carbon is not low",
            Value::from("deferred"),
        ),
    ] {
        let file = single_case(&dir, name);
        let r = run(&["decide", "--case", &file, "--json"]);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let v = r.json();
        assert!(v.is_object(), "{name}: one case gives an object");
        let steps = v["steps"].as_array().unwrap();
        assert_eq!(steps.len(), 1, "{name}");
        assert_eq!(steps[0]["chosen"], chosen, "{name}");
        assert_eq!(steps[0]["matches"], true, "{name}");
        assert_eq!(v["ok"], true);
    }
}

#[test]
fn decide_explains_in_numbers() {
    let dir = Scratch::new("explain");
    let file = single_case(&dir, "vcpu filter");
    let r = run(&["decide", "--case", &file]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("step 1: B  [as expected]"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("rejected by VCpu: needs"), "{}", r.stdout);
}

#[test]
fn decide_with_an_unmet_expectation_exits_1() {
    let dir = Scratch::new("unmet");
    let file = dir.file(
        "case.json",
        r#"{"policy": {"type": "filter", "filters": []},
            "hosts": [{"name": "A", "cores": 1, "coreSpeed": 1, "memory": 1}],
            "steps": [{"task": {}, "expect": "B"}]}"#,
    );
    let r = run(&["decide", "--case", &file, "--json"]);
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(v["ok"], false);
    assert_eq!(v["steps"][0]["chosen"], "A");
    assert_eq!(v["steps"][0]["matches"], false);
    let r = run(&["decide", "--case", &file]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains(r#"[EXPECTED "B"]"#), "{}", r.stdout);
    assert!(r.stderr.contains("not met"), "{}", r.stderr);
    // A case whose policy has errors is invalid input too.
    let file = dir.file(
        "bad-policy.json",
        r#"{"policy": {"type": "filter", "subsetSize": 0}, "hosts": [], "steps": []}"#,
    );
    assert_eq!(run(&["decide", "--case", &file]).code, 1);
    // And so is a document that is not a case.
    let file = dir.file("not-a-case.json", r#"{"hosts": []}"#);
    assert_eq!(run(&["decide", "--case", &file]).code, 1);
}

#[test]
fn decide_an_array_after_a_byte_order_mark() {
    // A BOM (as some Windows editors write) must not turn an array of cases into a single case.
    let dir = Scratch::new("bom");
    let mut text = "\u{feff}".as_bytes().to_vec();
    text.extend(std::fs::read(conformance()).unwrap());
    let file = dir.file("cases.json", text);
    let r = run(&["decide", "--case", &file, "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json().as_array().map(Vec::len), Some(23));
}

/// `compare` runs the scenario's policy and each `--with` policy on the same inputs: its JSON
/// holds each run's own figures (the ones `simulate` prints) and, the runs ending at different
/// times, the window to the later end, where the later run's figures are its own.
#[test]
fn compare_puts_simulate_runs_side_by_side_over_a_common_window() {
    let dir = Scratch::new("compare");
    let scenario = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../www/samples/teaching/scenario.json"
    );
    let with = dir.file(
        "Timeshift.json",
        r#"{"type": "prefab", "policyName": "Timeshift"}"#,
    );
    let ts_scenario = {
        let mut s: Value =
            serde_json::from_str(&std::fs::read_to_string(scenario).unwrap()).unwrap();
        s["policy"] = serde_json::json!({"type": "prefab", "policyName": "Timeshift"});
        dir.file("ts.json", s.to_string())
    };
    let base = run(&["simulate", "--scenario", scenario, "--json"]).json();
    let ts = run(&["simulate", "--scenario", &ts_scenario, "--json"]).json();
    let r = run(&["compare", "--scenario", scenario, "--with", &with, "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let c = r.json();
    assert_eq!(c["labels"], serde_json::json!(["baseline", "Timeshift"]));
    assert_eq!(
        c["windowEndMs"].as_i64(),
        ts["metrics"]["makespanMs"].as_i64()
    );
    assert_eq!(c["windowed"], true);
    let cells = |key: &str| {
        c["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["key"] == key)
            .unwrap()["cells"]
            .clone()
    };
    for key in ["makespanMs", "energyJ", "carbonG", "meanWaitMs"] {
        let values = cells(key);
        assert_eq!(
            values[0]["value"].as_f64(),
            base["metrics"][key].as_f64(),
            "{key}"
        );
        assert_eq!(
            values[1]["value"].as_f64(),
            ts["metrics"][key].as_f64(),
            "{key}"
        );
    }
    assert_eq!(cells("windowCarbonG")[1]["value"], ts["metrics"]["carbonG"]);
    // The text table names the runs and ends with the window's note.
    let r = run(&["compare", "--scenario", scenario, "--with", &with]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("metric"), "{}", r.stdout);
    assert!(r.stdout.contains("Timeshift − baseline"), "{}", r.stdout);
    assert!(
        r.stdout
            .trim_end()
            .ends_with("has its hosts idle until then."),
        "{}",
        r.stdout
    );
    // A missing policy file is named.
    let r = run(&[
        "compare",
        "--scenario",
        scenario,
        "--with",
        "/nonexistent/p.json",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("/nonexistent/p.json"), "{}", r.stderr);
}

/// `simulate --scenario` takes a scenario file's carbon what-ifs, and a flag wins over the
/// file's value: the file with `carbonScale` 0.5 runs as the plain file with `--carbon-scale
/// 0.5`, and with `--carbon-scale 2` as the plain file with that flag.
#[test]
fn a_scenario_files_what_ifs_run_and_flags_override_them() {
    let dir = Scratch::new("whatif");
    let plain = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../www/samples/teaching/scenario.json"
    );
    let halved = {
        let mut s: Value = serde_json::from_str(&std::fs::read_to_string(plain).unwrap()).unwrap();
        s["carbonScale"] = serde_json::json!(0.5);
        dir.file("halved.json", s.to_string())
    };
    let carbon = |args: &[&str]| {
        let r = run(&[&["simulate", "--json"], args].concat());
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.json()["metrics"]["carbonG"].as_f64().expect("carbon")
    };
    let from_file = carbon(&["--scenario", &halved]);
    assert_eq!(
        from_file,
        carbon(&["--scenario", plain, "--carbon-scale", "0.5"])
    );
    let doubled = carbon(&["--scenario", plain, "--carbon-scale", "2"]);
    assert_eq!(
        carbon(&["--scenario", &halved, "--carbon-scale", "2"]),
        doubled
    );
    // Carbon scales with the intensity: 2 is four times 0.5 (up to rounding).
    assert!(
        (doubled / from_file - 4.0).abs() < 1e-9,
        "{doubled} {from_file}"
    );
}
