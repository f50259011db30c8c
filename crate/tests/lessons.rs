//! Lesson files (issue 20): every lesson of `www/lessons` holds its conditions on its own run
//! (`policy-playground lesson check`), the condition language operator by operator, problems
//! placed at their line and column, the bounds, an embedded scenario worked out by hand, the
//! README's example, and the page's reveal over kept runs.

use policy_playground::api::handles::{Handles, RunOptions, Session};
use policy_playground::api::lessons::RevealRequest;
use policy_playground::api::Answer;
use policy_playground::lesson::expr::{evaluate, parse, Kind, Value as V};
use policy_playground::lesson::verdict::StudentAnswer;
use policy_playground::lesson::{self, MAX_LESSON_BYTES};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_policy-playground");

fn www(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../www")
        .join(rel)
}

/// `policy-playground lesson check FILE --json`: exit code, stdout as JSON (null when not
/// JSON), stderr.
fn check(file: &Path) -> (i32, Value, String) {
    let out = Command::new(BIN)
        .args(["lesson", "check"])
        .arg(file)
        .arg("--json")
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().expect("exited"), json, stderr)
}

/// A file of this test holding `text`, removed when dropped.
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str, text: &str) -> Self {
        let path = std::env::temp_dir().join(format!("pp-lessons-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        Temp(path)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn lesson_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(www("lessons"))
        .expect("www/lessons exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_lesson_file_holds_its_conditions_on_its_own_run() {
    let files = lesson_files();
    let stems: Vec<String> = files
        .iter()
        .map(|f| f.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        stems,
        [
            "head-of-line",
            "spread-pack",
            "subset-size",
            "task-stopper",
            "time-shifting"
        ]
    );
    for file in files {
        let (code, out, stderr) = check(&file);
        assert_eq!(code, 0, "{}: {stderr}", file.display());
        assert_eq!(out["holds"], true, "{}", file.display());
        let conditions = out["conditions"].as_array().unwrap();
        assert!(conditions.len() >= 2, "{}", file.display());
        assert!(conditions
            .iter()
            .all(|c| c["holds"] == true && c["error"].is_null()));
        // Each lesson's id is its file's name.
        let text = std::fs::read_to_string(&file).unwrap();
        let l = lesson::read(&text).unwrap();
        assert_eq!(l.id.as_deref(), file.file_stem().and_then(|s| s.to_str()));
        assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    }
}

#[test]
fn the_time_shifting_lesson_states_the_simulators_figures() {
    // The figures of its explanation, as its conditions check them: dynamic carbon about 6 %
    // lower, total carbon over the common window about 1 % lower, a run 9 h longer.
    let (code, out, _) = check(&www("lessons/time-shifting.json"));
    assert_eq!(code, 0);
    let figure = |n: usize, f: usize| {
        out["conditions"][n]["figures"][f]["value"]
            .as_f64()
            .unwrap()
    };
    let (a, b) = (figure(1, 0), figure(1, 1));
    assert_eq!((100.0 * (a - b) / a).round(), 6.0);
    let (a, b) = (figure(2, 0), figure(2, 1));
    assert_eq!((100.0 * (a - b) / a).round(), 1.0);
    assert_eq!(
        out["conditions"][2]["figures"][0]["figure"],
        "A.windowCarbonG"
    );
    // The right answer is the change in dynamic carbon, in %.
    assert_eq!(out["answer"]["answer"], "−6.44 % (± 2.00)");
}

// ---- the condition language, one test per operator ---------------------------------------

/// Evaluates `text` with A.x = 6, B.x = 4 and B.zero = 0 (hand-picked figures).
fn eval(text: &str, kind: Kind) -> Result<V, String> {
    let figures = |run: &str, key: &str| match (run, key) {
        ("A", "makespanMs") => Ok(6.0),
        ("B", "makespanMs") => Ok(4.0),
        ("B", "deadlineMisses") => Ok(0.0),
        _ => Err(format!("no {run}.{key}")),
    };
    let e = parse(text, kind).map_err(|e| e.message)?;
    evaluate(&e, &figures).map_err(|e| e.message)
}
fn num(text: &str) -> f64 {
    match eval(text, Kind::Number) {
        Ok(V::Number(x)) => x,
        other => panic!("{text}: {other:?}"),
    }
}
fn truth(text: &str) -> bool {
    match eval(text, Kind::Truth) {
        Ok(V::Truth(t)) => t,
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn operator_plus() {
    assert_eq!(num("A.makespanMs + B.makespanMs"), 10.0);
    assert_eq!(num("0.5 + 1e3"), 1000.5);
}

#[test]
fn operator_minus() {
    assert_eq!(num("A.makespanMs - B.makespanMs"), 2.0);
    assert_eq!(num("B.makespanMs - A.makespanMs - 1"), -3.0);
}

#[test]
fn operator_times() {
    assert_eq!(num("A.makespanMs * B.makespanMs"), 24.0);
    assert_eq!(num("2 + 3 * A.makespanMs"), 20.0);
}

#[test]
fn operator_divide() {
    assert_eq!(num("A.makespanMs / B.makespanMs"), 1.5);
    assert_eq!(num("12 / A.makespanMs / 2"), 1.0);
    let e = eval("A.makespanMs / B.deadlineMisses", Kind::Number).unwrap_err();
    assert!(e.starts_with("division by zero"), "{e}");
}

#[test]
fn operator_negate() {
    assert_eq!(num("-A.makespanMs"), -6.0);
    assert_eq!(num("--B.makespanMs * 2"), 8.0);
}

#[test]
fn operator_less() {
    assert!(truth("B.makespanMs < A.makespanMs"));
    assert!(!truth("A.makespanMs < A.makespanMs"));
}

#[test]
fn operator_less_or_equal() {
    assert!(truth("A.makespanMs <= A.makespanMs"));
    assert!(!truth("A.makespanMs <= B.makespanMs"));
}

#[test]
fn operator_greater() {
    assert!(truth("A.makespanMs > B.makespanMs"));
    assert!(!truth("B.makespanMs > B.makespanMs"));
}

#[test]
fn operator_greater_or_equal() {
    assert!(truth("B.makespanMs >= 4"));
    assert!(!truth("B.makespanMs >= 4.001"));
}

#[test]
fn operator_equal() {
    assert!(truth("A.makespanMs == 2 * 3"));
    assert!(!truth("A.makespanMs == B.makespanMs"));
}

#[test]
fn operator_not_equal() {
    assert!(truth("A.makespanMs != B.makespanMs"));
    assert!(!truth("B.deadlineMisses != 0"));
}

#[test]
fn operator_and() {
    assert!(truth("A.makespanMs > 5 and B.makespanMs < 5"));
    assert!(!truth("A.makespanMs > 5 and B.makespanMs > 5"));
    assert!(!truth("A.makespanMs < 5 and B.makespanMs < 5"));
}

#[test]
fn operator_or() {
    assert!(truth("A.makespanMs < 5 or B.makespanMs < 5"));
    assert!(!truth("A.makespanMs < 5 or B.makespanMs > 5"));
    // `and` binds tighter: true or (false and false).
    assert!(truth("1 < 2 or 2 < 1 and 2 < 1"));
}

#[test]
fn operator_not() {
    assert!(truth("not A.makespanMs < B.makespanMs"));
    assert!(!truth("not not A.makespanMs < B.makespanMs"));
    // `not` binds looser than a comparison and tighter than `and`.
    assert!(!truth("not 1 < 2 and 1 < 2"));
}

#[test]
fn parentheses() {
    assert_eq!(num("(A.makespanMs + B.makespanMs) * 2"), 20.0);
    assert_eq!(num("A.makespanMs + B.makespanMs * 2"), 14.0);
    assert!(truth("not (1 < 2 and 2 < 1)"));
    assert!(truth("(1 < 2 or 2 < 1) and 2 < 3"));
}

#[test]
fn kinds_are_checked_when_read() {
    let err = |t: &str, k: Kind| eval(t, k).unwrap_err();
    assert!(err("A.makespanMs + (1 < 2)", Kind::Number).contains("takes numbers"));
    assert!(err("A.makespanMs and 1 < 2", Kind::Truth).contains("takes conditions"));
    assert!(err("A.makespanMs", Kind::Truth).contains("must be true or false"));
    assert!(err("1 < 2 < 3", Kind::Truth).contains("do not chain"));
    assert!(err("A.makespanMs = 1", Kind::Truth).contains("compare with `==`"));
    assert!(err("A < 1", Kind::Truth).contains("alone is no figure"));
    assert!(err("(1 < 2", Kind::Truth).contains("expected `)`"));
}

#[test]
fn expressions_are_bounded_in_length_and_nesting() {
    let long = format!("1{} < 2", " + 1".repeat(300));
    assert!(eval(&long, Kind::Truth)
        .unwrap_err()
        .contains("at most 1000 are read"));
    let deep = |n: usize| format!("{}1{} < 2", "(".repeat(n), ")".repeat(n));
    assert!(eval(&deep(32), Kind::Truth).is_ok());
    assert!(eval(&deep(33), Kind::Truth)
        .unwrap_err()
        .contains("deeper than 32"));
    let nots = format!("{}1 < 2", "not ".repeat(40));
    assert!(eval(&nots, Kind::Truth)
        .unwrap_err()
        .contains("deeper than 32"));
}

// ---- reading: problems at their line and column -------------------------------------------

/// A lesson of `www/lessons/spread-pack.json` with `edit` applied to its JSON.
fn spread_pack(edit: impl FnOnce(&mut Value)) -> String {
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(www("lessons/spread-pack.json")).unwrap())
            .unwrap();
    edit(&mut v);
    serde_json::to_string_pretty(&v).unwrap()
}

fn positions(text: &str) -> Vec<(u32, u32, String)> {
    let errors = lesson::read(text).expect_err("the lesson is refused");
    errors
        .into_iter()
        .map(|d| (d.line.unwrap_or(0), d.column.unwrap_or(0), d.message))
        .collect()
}

#[test]
fn a_broken_lesson_is_reported_at_lines_and_columns() {
    // Line 1 `{`, line 2 the title; line 3 its inputs, the sample misspelt at column 24; line 5
    // an unknown key; line 6 a condition whose `=` is at column 32 (`  "conditions": ["` is 17
    // characters, then `B.makespanMs > 0 and A.x = 1` has `=` at its 27th... see below).
    let text = "{\n  \"title\": \"Broken\",\n  \"inputs\": {\"sample\": \"teachin\"},\n  \"policies\": [{\"policy\": {\"type\": \"prefab\", \"policyName\": \"Mem\"}}],\n  \"questoin\": {},\n  \"conditions\": [\"A.makespanMs = 1\"],\n  \"explanation\": \"why\"\n}\n";
    let found = positions(text);
    let at = |line: u32| {
        found
            .iter()
            .find(|(l, _, _)| *l == line)
            .unwrap_or_else(|| panic!("no error on line {line}: {found:?}"))
    };
    assert_eq!(at(3).1, 24);
    assert!(at(3).2.contains("did you mean `teaching`?"), "{:?}", at(3));
    assert_eq!(at(5).1, 3);
    assert!(
        at(5).2.contains("unknown key `questoin`") && at(5).2.contains("did you mean `question`?")
    );
    // `  "conditions": ["` is 18 characters; `A.makespanMs =` puts `=` at 18 + 14.
    assert_eq!(at(6).1, 32);
    assert!(at(6).2.contains("compare with `==`"));
    // The missing question is reported at the lesson's opening brace.
    assert!(
        found
            .iter()
            .any(|(l, c, m)| (*l, *c) == (1, 1) && m.contains("needs `question`")),
        "{found:?}"
    );
    // A syntax error is one diagnostic at its place.
    let found = positions("{\n  \"title\": \"x\",\n  \"inputs\": [}\n");
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].0, found[0].1), (3, 14));
    assert!(found[0].2.starts_with("the lesson is not valid JSON"));
}

#[test]
fn expression_errors_point_into_the_string_past_its_escapes() {
    // `\"` and `\u00e9` before the error: the column counts them as written.
    let text = spread_pack(|v| {
        v["conditions"] = json!([
            "B.makespanMs == A.makespanMs",
            "B.dynamicEnergyJ < A.energy"
        ])
    });
    let text = text.replace(
        "B.makespanMs == A.makespanMs",
        "B.makespanMs == A.makespanMs and \\\"\\u00e9\\\" == 1",
    );
    let found = positions(&text);
    let line = text.lines().position(|l| l.contains("\\u00e9")).unwrap() as u32 + 1;
    let col = text
        .lines()
        .nth(line as usize - 1)
        .unwrap()
        .find("\\\"\\u00e9")
        .unwrap() as u32
        + 1;
    assert!(
        found
            .iter()
            .any(|(l, c, m)| (*l, *c) == (line, col) && m.contains("unexpected character `\"`")),
        "{found:?} at {line}:{col}"
    );
    let line = text.lines().position(|l| l.contains("A.energy\"")).unwrap() as u32 + 1;
    let col = text
        .lines()
        .nth(line as usize - 1)
        .unwrap()
        .find("A.energy")
        .unwrap() as u32
        + 1;
    assert!(
        found.iter().any(|(l, c, m)| (*l, *c) == (line, col)
            && m.contains("`energy` is no metric (did you mean `energyJ`?)")),
        "{found:?}"
    );
}

#[test]
fn names_runs_and_answers_are_checked() {
    let found = positions(&spread_pack(|v| {
        v["conditions"] = json!(["C.makespanMs > 0", "Mem.makespanMs == MemInv.makespanMs"])
    }));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0]
        .2
        .contains("no run `C` in this lesson: its runs are A (Mem), B (MemInv)"));
    let found = positions(&spread_pack(|v| v["question"]["answer"] = json!("C")));
    assert!(found[0]
        .2
        .starts_with("`answer` must be one of the choices, as written"));
    let found = positions(&spread_pack(|v| {
        v["question"] = json!({"prompt": "How much?", "answer": "B.makespanMs > 1", "unit": "%"});
    }));
    let messages: Vec<&str> = found.iter().map(|f| f.2.as_str()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("an answer must be a number")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("needs `tolerance`")),
        "{messages:?}"
    );
}

#[test]
fn generator_inputs_are_refused_with_an_error_that_says_why() {
    let found = positions(&spread_pack(|v| {
        v["inputs"] = json!({"generator": {"seed": 5}})
    }));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0]
            .2
            .starts_with("lessons do not read `generator` settings yet"),
        "{}",
        found[0].2
    );
    let found = positions(&spread_pack(|v| {
        v["inputs"] = json!({"sample": "teaching", "scenario": {}})
    }));
    assert!(found[0]
        .2
        .contains("exactly one of `sample` or `scenario`, found sample and scenario"));
}

#[test]
fn a_lesson_file_past_the_bound_is_refused_unread() {
    let text = format!("{{\"title\": \"{}\"}}", "x".repeat(MAX_LESSON_BYTES));
    let errors = lesson::read(&text).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].message.contains("a lesson file is at most 4 MiB"),
        "{}",
        errors[0].message
    );
    let t = Temp::new("big.json", &text);
    let (code, _, stderr) = check(&t.0);
    assert_eq!(code, 1);
    assert!(stderr.contains("at most 4 MiB"), "{stderr}");
}

#[test]
fn a_condition_that_fails_exits_1_naming_it() {
    let text = spread_pack(|v| {
        v["conditions"]
            .as_array_mut()
            .unwrap()
            .push(json!("B.dynamicEnergyJ > A.dynamicEnergyJ"))
    });
    let t = Temp::new("fails.json", &text);
    let (code, out, stderr) = check(&t.0);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(out["holds"], false);
    let line = text
        .lines()
        .position(|l| l.contains("B.dynamicEnergyJ > A.dynamicEnergyJ"))
        .unwrap()
        + 1;
    assert!(
        stderr.contains(&format!(":{line}:5: error: condition 5 (line {line}, column 5) `B.dynamicEnergyJ > A.dynamicEnergyJ` does not hold: B.dynamicEnergyJ = 16.552 kWh, A.dynamicEnergyJ = 17.419 kWh")),
        "{stderr}"
    );
    // The four that hold are not named.
    assert_eq!(stderr.matches("does not hold").count(), 1);
}

// ---- an embedded scenario, worked out by hand ------------------------------------------------

/// One host of 2 cores (idle 100 W, full 200 W); three 2-core tasks of 1 h submitted at 0:
/// they run one after the other. Makespan 3 h; waits 0, 1 h and 2 h, mean 1 h; the host is
/// busy all 3 h, so its dynamic energy is 100 W x 10,800 s = 1,080,000 J.
const TINY: &str = r#"{
  "title": "One host, three tasks",
  "inputs": {"scenario": {
    "topology": {"clusters": [{"name": "c", "hosts": [{"name": "h", "count": 1, "cpu": {"coreCount": 2, "coreSpeed": 1000}, "memory": {"memorySize": 4096}, "cpuPowerModel": {"modelType": "linear", "idlePower": 100.0, "maxPower": 200.0}}]}]},
    "workload": {"tasks": [
      {"id": "1", "submissionTime": 0, "duration": 3600000, "cpuCount": 2, "cpuCapacity": 2000, "memory": 1024},
      {"id": "2", "submissionTime": 0, "duration": 3600000, "cpuCount": 2, "cpuCapacity": 2000, "memory": 1024},
      {"id": "3", "submissionTime": 0, "duration": 3600000, "cpuCount": 2, "cpuCapacity": 2000, "memory": 1024}]},
    "seed": 7
  }},
  "policies": [{"policy": {"type": "prefab", "policyName": "Mem"}}],
  "question": {"prompt": "How long does a task wait on average, in hours?", "answer": "A.meanWaitMs / 3600000", "tolerance": 0.25, "unit": "h"},
  "conditions": ["A.makespanMs == 3 * 3600000", "A.meanWaitMs == 3600000", "A.dynamicEnergyJ == 100 * 10800", "A.windowEnergyJ == A.energyJ"],
  "explanation": "One host runs one task at a time: the second waits 1 h, the third 2 h."
}"#;

#[test]
fn an_embedded_scenario_runs_to_the_figures_worked_out_by_hand() {
    let l = lesson::read(TINY).unwrap();
    // The scenario's own seed is ignored (the lesson's options decide), with a warning there.
    assert_eq!(l.warnings.len(), 1);
    assert!(
        l.warnings[0].message.contains("`seed` is ignored"),
        "{}",
        l.warnings[0].message
    );
    assert_eq!(l.warnings[0].line, Some(3));
    let t = Temp::new("tiny.json", TINY);
    let (code, out, stderr) = check(&t.0);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(out["holds"], true);
    assert_eq!(
        out["conditions"][0]["figures"][0],
        json!({"figure": "A.makespanMs", "value": 10800000.0, "text": "3 h"})
    );
    assert_eq!(out["answer"]["value"], 1.0);
    assert_eq!(out["answer"]["answer"], "1.00 h (± 0.25)");
    // A problem inside the embedded scenario is placed in the lesson text.
    let broken = TINY.replace(
        "\"cpuCount\": 2, \"cpuCapacity\": 2000, \"memory\": 1024}]}",
        "\"cpuCount\": -2, \"cpuCapacity\": 2000, \"memory\": 1024}]}",
    );
    let errors = lesson::read(&broken).unwrap_err();
    let line = broken.lines().position(|l| l.contains("-2")).unwrap() as u32 + 1;
    let col = broken
        .lines()
        .nth(line as usize - 1)
        .unwrap()
        .find("-2")
        .unwrap() as u32
        + 1;
    assert!(
        errors.iter().any(|d| d.line == Some(line)
            && d.column == Some(col)
            && d.path == "inputs.scenario.workload.tasks[2].cpuCount"),
        "{errors:?}"
    );
}

#[test]
fn the_readmes_example_lesson_loads_and_holds() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let section = readme
        .split("### For teachers")
        .nth(1)
        .expect("the README has a `### For teachers` section");
    let example = section
        .split("```json\n")
        .nth(1)
        .and_then(|s| s.split("\n```").next())
        .expect("with a ```json example");
    let t = Temp::new("readme.json", example);
    let (code, out, stderr) = check(&t.0);
    assert_eq!(code, 0, "the README's example: {stderr}");
    assert_eq!(out["holds"], true);
}

// ---- the page's reveal, over kept runs --------------------------------------------------------

#[test]
fn the_reveal_grades_answers_and_knows_the_lessons_own_runs() {
    let text = std::fs::read_to_string(www("lessons/spread-pack.json")).unwrap();
    let scenario = std::fs::read_to_string(www("samples/teaching/scenario.json")).unwrap();
    let mut s = Session::new();
    let Answer::Success { value: loaded } = s.load_scenario(&scenario) else {
        panic!("the teaching sample loads")
    };
    let h = Handles {
        topology: loaded.topology.handle,
        workload: loaded.workload.handle,
        carbon: loaded.carbon.map(|c| c.handle),
    };
    let options: RunOptions =
        serde_json::from_value(json!({"seed": 0, "quantumMs": 1000, "hostCounts": {}})).unwrap();
    let mut run = |policy: &str, o: &RunOptions| match s.run(&h, policy, o) {
        Answer::Success { value } => value.run,
        Answer::Failure { errors } => panic!("{errors:?}"),
    };
    let (a, b) = (
        run(r#"{"type": "prefab", "policyName": "Mem"}"#, &options),
        run(r#"{"type": "prefab", "policyName": "MemInv"}"#, &options),
    );
    let edited = run(r#"{"type": "prefab", "policyName": "CoreMem"}"#, &options);
    let reveal = |runs: Vec<u32>, answer: Option<StudentAnswer>| match s
        .reveal_lesson(&text, &RevealRequest { runs, answer })
    {
        Answer::Success { value } => value,
        Answer::Failure { errors } => panic!("{errors:?}"),
    };
    // The right choice is index 1; a wrong one is told so, and the answer named.
    let r = reveal(
        vec![a, b],
        Some(StudentAnswer {
            choice: Some(1),
            value: None,
        }),
    );
    assert_eq!(
        (r.grade.correct, r.own_runs, r.holds),
        (Some(true), true, true)
    );
    assert!(r.failures.is_empty());
    let r = reveal(
        vec![a, b],
        Some(StudentAnswer {
            choice: Some(0),
            value: None,
        }),
    );
    assert_eq!(r.grade.correct, Some(false));
    assert_eq!(r.grade.answer, "B (MemInv): packing the small hosts first");
    assert_eq!(
        r.grade.given.as_deref(),
        Some("A (Mem): spreading the tasks keeps every host lightly loaded")
    );
    assert_eq!(r.explanation.len(), 2);
    // Shown without answering: nothing to grade.
    assert_eq!(reveal(vec![a, b], None).grade.correct, None);
    // B edited (CoreMem): not the lesson's own runs, so a failing condition is no author error.
    let r = reveal(vec![a, edited], None);
    assert!(!r.own_runs);
    assert!(r.failures.is_empty());
    // The runs swapped are the lesson's policies in the wrong places: not its own either.
    let r = reveal(vec![b, a], None);
    assert!(!r.own_runs && !r.holds);
    // A numeric answer to a choice question is refused.
    let Answer::Failure { errors } = s.reveal_lesson(
        &text,
        &RevealRequest {
            runs: vec![a, b],
            answer: Some(StudentAnswer {
                choice: None,
                value: Some(5.0),
            }),
        },
    ) else {
        panic!()
    };
    assert!(errors[0]
        .message
        .contains("takes an answer {\"choice\": index}"));
}

#[test]
fn a_numeric_answer_is_right_within_its_tolerance() {
    // The time-shifting lesson: dynamic carbon changes by (5,818.617 - 6,219.042) / 6,219.042
    // = -6.4387 % from Mem (A) to Timeshift (B); the tolerance is 2.
    let text = std::fs::read_to_string(www("lessons/time-shifting.json")).unwrap();
    let scenario = std::fs::read_to_string(www("samples/teaching/scenario.json")).unwrap();
    let mut s = Session::new();
    let Answer::Success { value: loaded } = s.load_scenario(&scenario) else {
        panic!("the teaching sample loads")
    };
    let h = Handles {
        topology: loaded.topology.handle,
        workload: loaded.workload.handle,
        carbon: loaded.carbon.map(|c| c.handle),
    };
    let options = RunOptions::defaults();
    let mut run = |policy: &str| match s.run(&h, policy, &options) {
        Answer::Success { value } => value.run,
        Answer::Failure { errors } => panic!("{errors:?}"),
    };
    let runs = vec![
        run(r#"{"type": "prefab", "policyName": "Mem"}"#),
        run(r#"{"type": "prefab", "policyName": "Timeshift"}"#),
    ];
    let graded = |value: f64| {
        let request = RevealRequest {
            runs: runs.clone(),
            answer: Some(StudentAnswer {
                choice: None,
                value: Some(value),
            }),
        };
        match s.reveal_lesson(&text, &request) {
            Answer::Success { value } => value,
            Answer::Failure { errors } => panic!("{errors:?}"),
        }
    };
    let r = graded(-6.0);
    assert!(
        (r.grade.value.unwrap() + 6.4387).abs() < 1e-4,
        "{:?}",
        r.grade
    );
    assert_eq!(r.grade.correct, Some(true));
    assert_eq!(r.grade.given.as_deref(), Some("−6.00 %"));
    assert!(r.own_runs && r.holds);
    assert_eq!(graded(-8.4).grade.correct, Some(true));
    assert_eq!(graded(-8.5).grade.correct, Some(false));
    assert_eq!(graded(-4.43).grade.correct, Some(false));
    assert_eq!(graded(6.44).grade.correct, Some(false));
}
