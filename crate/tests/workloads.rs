//! Workloads made in the page (beyond OpenDC): the generator through the CLI and the api (the
//! same bytes), the task table (add, remove, change, errors by row and column), and windows and
//! samples of loaded workloads, including one past the browser's task limit.

use policy_playground::api::handles::{Limits, Session};
use policy_playground::api::{workloads, Answer};
use policy_playground::input::workload::read_json_workload;
use policy_playground::model::Workload;
use serde_json::{json, Value};
use std::process::Command;

#[path = "common/layout.rs"]
mod layout;
use layout::{per_task, without_ranges};

const BIN: &str = env!("CARGO_BIN_EXE_policy-playground");

fn ok<T: std::fmt::Debug>(a: Answer<T>) -> T {
    match a {
        Answer::Success { value } => value,
        Answer::Failure { errors } => panic!("failed: {errors:?}"),
    }
}

fn errors<T: std::fmt::Debug>(a: Answer<T>) -> Vec<(String, String)> {
    match a {
        Answer::Failure { errors } => errors.into_iter().map(|d| (d.path, d.message)).collect(),
        Answer::Success { value } => panic!("succeeded: {value:?}"),
    }
}

fn cli(args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = Command::new(BIN).args(args).output().expect("runs");
    (
        out.status.code().expect("exited"),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("pp-workloads-{}-{name}", std::process::id()))
}

/// `generate --seed 5` alone, `generate --settings FILE` and the page's path (a generated
/// handle written out) give the same bytes.
#[test]
fn the_cli_and_the_page_generate_the_same_bytes() {
    let (code, stdout, stderr) = cli(&["generate", "--seed", "5"]);
    assert_eq!(code, 0, "{stderr}");
    let settings = r#"{"seed": 5}"#;
    let text = ok(workloads::generated_workload_json(settings));
    assert_eq!(stdout, format!("{text}\n").into_bytes());
    let mut s = Session::with_limits(Limits::BROWSER);
    let loaded = ok(s.generate_workload(settings));
    assert_eq!(ok(s.workload_json(loaded.handle)), text);
    let w = read_json_workload(&text).expect("reads");
    assert_eq!(loaded.summary.tasks, Some(w.tasks.len() as u64));
    // Flags and a settings file agree, `--out` writes exactly the page's bytes.
    let file = temp("settings.json");
    let out = temp("out.json");
    let richer = json!({"seed": 9, "pattern": "bursts", "cores": [{"value": 2, "weight": 1}],
                        "fragments": false, "duration": "exponential", "deferrableShare": 0.25});
    std::fs::write(&file, richer.to_string()).expect("writes");
    let (code, _, stderr) = cli(&[
        "generate",
        "--settings",
        file.to_str().expect("path"),
        "--out",
        out.to_str().expect("path"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let page = ok(workloads::generated_workload_json(&richer.to_string()));
    assert_eq!(std::fs::read(&out).expect("written"), page.as_bytes());
    let (_, by_flags, _) = cli(&[
        "generate",
        "--seed",
        "9",
        "--pattern",
        "bursts",
        "--cores",
        "2",
        "--fragments",
        "false",
        "--duration",
        "exponential",
        "--deferrable-share",
        "0.25",
    ]);
    assert_eq!(by_flags, format!("{page}\n").into_bytes());
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&out);
}

#[test]
fn bad_generator_settings_exit_1_naming_the_setting() {
    let (code, _, stderr) = cli(&[
        "generate",
        "--hours=0",
        "--usage-min",
        "0.9",
        "--usage-max",
        "0.1",
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr
            .contains("error: `hours` must be a number in [0.001, 8784], found 0 (settings.hours)"),
        "{stderr}"
    );
    assert!(stderr.contains("(settings.usageMax)"), "{stderr}");
    let (code, stdout, _) = cli(&["generate", "--schema"]);
    assert_eq!(code, 0);
    let schema: Value = serde_json::from_slice(&stdout).expect("JSON");
    assert_eq!(schema["properties"]["tasksPerHour"]["default"], json!(3.0));
}

fn teaching(s: &mut Session) -> u32 {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../www/samples/teaching/scenario.json"
    ))
    .expect("the teaching sample");
    ok(s.load_scenario(&text)).workload.handle
}

fn workload_of(s: &Session, h: u32) -> Workload {
    read_json_workload(&ok(s.workload_json(h))).expect("reads")
}

/// The table of the teaching sample, edited as it is, gives the same workload; a change, a
/// removal and an added row do what they say.
#[test]
fn the_task_table_edits_a_workload() {
    let mut s = Session::new();
    let h = teaching(&mut s);
    let table = ok(s.workload_table(h));
    assert_eq!(table.rows.len(), 200);
    let first = &table.rows[0];
    assert_eq!(first.submission, "2022-06-13T06:00:00Z");
    assert_eq!((first.duration_minutes, first.fragments), (290.0, 58));
    assert_eq!(table.template.id, "200");
    let rows = |r: &[Value]| Value::Array(r.to_vec()).to_string();
    let mut values: Vec<Value> = table
        .rows
        .iter()
        .map(|r| serde_json::to_value(r).expect("JSON"))
        .collect();
    let same = ok(s.edit_workload(h, &rows(&values)));
    assert_eq!(
        read_json_workload(&same).expect("reads"),
        workload_of(&s, h)
    );
    // Task 0 (58 fragments of 5 min) cut to 12 min: two fragments of 5 min and one of 2 min,
    // with the first three usages; 8 cores; task 1 removed; a new row at the end.
    values[0]["durationMinutes"] = json!(12);
    values[0]["cpuCount"] = json!(8);
    values.remove(1);
    values.push(serde_json::to_value(&table.template).expect("JSON"));
    let edited = read_json_workload(&ok(s.edit_workload(h, &rows(&values)))).expect("reads");
    let base = workload_of(&s, h);
    assert_eq!(edited.tasks.len(), 200);
    let t0 = &edited.tasks[0];
    assert_eq!((t0.duration_ms, t0.cpu_count), (720_000, 8));
    let (durations, usages): (Vec<i64>, Vec<f64>) = edited.task_fragments(t0).unzip();
    assert_eq!(durations, [300_000, 300_000, 120_000]);
    let base_usages: Vec<f64> = base.task_fragments(&base.tasks[0]).map(|f| f.1).collect();
    assert_eq!(usages, base_usages[..3]);
    assert_eq!(edited.tasks[1].id, "2");
    let added = &edited.tasks[199];
    assert_eq!(
        (added.id.as_str(), added.duration_ms, added.cpu_count),
        ("200", 3_600_000, 1)
    );
    assert!(added.fragments.is_empty());
    assert_eq!(added.submission_ms, base.tasks[199].submission_ms);
}

#[test]
fn a_bad_row_is_named_by_row_and_column() {
    let mut s = Session::new();
    let h = teaching(&mut s);
    let table = ok(s.workload_table(h));
    let mut values: Vec<Value> = table
        .rows
        .iter()
        .take(4)
        .map(|r| serde_json::to_value(r).expect("JSON"))
        .collect();
    values[3]["cpuCount"] = json!(0);
    values[2]["memoryMib"] = json!(-5);
    values[1]["submission"] = json!("2022-13-01");
    values[0]["colour"] = json!("red");
    let e = errors(s.edit_workload(h, &Value::Array(values).to_string()));
    let paths: Vec<&str> = e.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["rows[0].colour"]);
    let mut values: Vec<Value> = table
        .rows
        .iter()
        .take(4)
        .map(|r| serde_json::to_value(r).expect("JSON"))
        .collect();
    values[3]["cpuCount"] = json!(0);
    values[2]["memoryMib"] = json!(-5);
    values[1]["submission"] = json!("2022-13-01");
    values[0]["id"] = values[3]["id"].clone();
    let e = errors(s.edit_workload(h, &Value::Array(values).to_string()));
    let paths: Vec<&str> = e.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "rows[1].submission",
            "rows[2].memoryMib",
            "rows[3].id",
            "rows[3].cpuCount"
        ]
    );
    assert_eq!(
        e[3].1,
        "task 3: `cpuCount` must be an integer >= 1, found 0"
    );
    assert!(errors(s.edit_workload(h, "[]"))[0]
        .1
        .contains("at least one task"));
}

/// A workload of 1001 tasks has no table; its window does.
#[test]
fn the_table_is_for_small_workloads() {
    let mut s = Session::new();
    let big = ok(s.generate_workload(r#"{"tasksPerHour": 50, "hours": 40, "seed": 1}"#));
    assert!(big.summary.tasks.expect("tasks") > 1000);
    let e = errors(s.workload_table(big.handle));
    assert!(
        e[0].1
            .starts_with("the task table edits workloads of at most 1000 tasks"),
        "{}",
        e[0].1
    );
    let text = ok(s.select_workload(big.handle, r#"{"fraction": 0.2, "seed": 3}"#));
    let small = ok(s.load_workload(&text, "json"));
    assert!(ok(s.workload_table(small.handle)).rows.len() < 1000);
}

/// `window` on the CLI and a selection of the loaded workload keep the same tasks, byte for
/// byte; both follow the rule (a window by submission, whole tasks).
#[test]
fn the_cli_window_and_the_pages_selection_agree() {
    let surf = concat!(env!("CARGO_MANIFEST_DIR"), "/../www/samples/surf_week");
    let (code, stdout, stderr) = cli(&[
        "window",
        "--workload",
        surf,
        "--from",
        "2022-10-08T00:00:00Z",
        "--to",
        "1665273600000",
        "--sample",
        "0.5",
        "--seed",
        "2",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let mut s = Session::with_limits(Limits::BROWSER);
    let tasks = std::fs::read(format!("{surf}/tasks.parquet")).expect("tasks");
    let fragments = std::fs::read(format!("{surf}/fragments.parquet")).expect("fragments");
    let h = ok(s.load_workload_parquet(&tasks, &fragments)).handle;
    let selection =
        r#"{"fromMs": 1665187200000, "toMs": 1665273600000, "fraction": 0.5, "seed": 2}"#;
    let text = ok(s.select_workload(h, selection));
    assert_eq!(stdout, format!("{text}\n").into_bytes());
    let kept = read_json_workload(&text).expect("reads");
    let all = workload_of(&s, h);
    let expected: Vec<&str> = all
        .tasks
        .iter()
        .filter(|t| (1_665_187_200_000..1_665_273_600_000).contains(&t.submission_ms))
        .filter(|t| policy_playground::select::sample_key(2, &t.id) < 0.5)
        .map(|t| t.id.as_str())
        .collect();
    let got: Vec<&str> = kept.tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(got, expected);
    assert!((150..350).contains(&got.len()), "{}", got.len());
    assert!(
        stderr.contains(&format!("window: kept {} of 6295 tasks", got.len())),
        "{stderr}"
    );
}

/// A CSV workload past the session's task limit: the loader refuses it, and the same text
/// read with a window keeps what the window holds and runs. The browser's limits with the task
/// limit at 5 000 (the browser's 500 000 take a minute in a debug build; the rule is the same
/// code, and the browser suite loads a trace of 500 001 tasks this way).
#[test]
fn a_trace_past_the_browser_limit_is_windowed_into_one_the_page_runs() {
    let n = 5_001;
    let mut csv = String::from("id,submissionTime,duration,cpuCount,cpuCapacity,memory\n");
    for i in 0..n {
        csv.push_str(&format!(
            "{i},{},60000,1,1000,100\n",
            1_700_000_000_000i64 + i * 1000
        ));
    }
    let limits = Limits {
        max_tasks: 5_000,
        ..Limits::BROWSER
    };
    let mut s = Session::with_limits(limits);
    let refused = errors(s.load_workload(&csv, "csv"));
    assert!(
        refused[0].1.contains(
            "the workload has 5001 tasks; the playground in the browser takes at most 5000"
        ),
        "{}",
        refused[0].1
    );
    // The first hour: tasks 0..3599.
    let window = r#"{"toMs": 1700003600000}"#;
    let loaded = ok(s.load_workload_selected(&csv, "csv", window));
    assert_eq!(loaded.summary.tasks, Some(3600));
    let topology = r#"{"clusters": [{"name": "C", "hosts": [{"name": "h", "count": 2,
        "cpu": {"coreCount": 4, "coreSpeed": 1000}, "memory": {"memorySize": 1000}}]}]}"#;
    let t = ok(s.load_topology(topology)).handle;
    let h = policy_playground::api::handles::Handles {
        topology: t,
        workload: loaded.handle,
        carbon: None,
    };
    let run = ok(s.run(&h, r#"{"type": "prefab"}"#, &Default::default()));
    assert_eq!(run.result.metrics.tasks_completed, 3600);
    // A selection that still holds too many is refused by the limit, naming it.
    let most = r#"{"fraction": 1.0}"#;
    assert!(errors(s.load_workload_selected(&csv, "csv", most))[0]
        .1
        .contains("at most 5000"));
}

/// surf_week read through a window decodes only the window's tasks and fragments, and gives
/// exactly the tasks and fragments of the window taken of the whole; with the fragment limit
/// below surf_week's 2.3 M the whole is refused before decoding and the window of a day (about
/// 437 000 fragments) is read.
#[test]
fn a_parquet_trace_past_the_limit_is_read_through_a_window() {
    let surf = concat!(env!("CARGO_MANIFEST_DIR"), "/../www/samples/surf_week");
    let tasks = std::fs::read(format!("{surf}/tasks.parquet")).expect("tasks");
    let fragments = std::fs::read(format!("{surf}/fragments.parquet")).expect("fragments");
    let limits = Limits {
        max_fragments: 1_000_000,
        ..Limits::BROWSER
    };
    let mut s = Session::with_limits(limits);
    let refused = errors(s.load_workload_parquet(&tasks, &fragments));
    assert!(
        refused[0]
            .1
            .contains("has 2323475 fragments; the playground in the browser takes at most 1000000"),
        "{}",
        refused[0].1
    );
    let day = r#"{"fromMs": "2022-10-08T00:00:00Z", "toMs": "2022-10-09T00:00:00Z"}"#;
    let loaded = ok(s.load_workload_parquet_selected(&tasks, &fragments, day));
    assert_eq!(loaded.summary.tasks, Some(474));
    assert_eq!(loaded.summary.fragments, Some(436_516));
    let read = workload_of(&s, loaded.handle);
    let mut whole_session = Session::new();
    let whole = ok(whole_session.load_workload_parquet(&tasks, &fragments)).handle;
    let selection = policy_playground::select::Selection::from_json(day).expect("valid");
    let expected =
        policy_playground::select::select(&workload_of(&whole_session, whole), &selection)
            .expect("kept");
    assert_eq!(without_ranges(&read), without_ranges(&expected));
    assert_eq!(per_task(&read), per_task(&expected));
    // A sample too: the same tasks as sampling the whole.
    let sample = r#"{"fraction": 0.3, "seed": 9}"#;
    let sampled = ok(s.load_workload_parquet_selected(&tasks, &fragments, sample)).handle;
    let read = workload_of(&s, sampled);
    let selection = policy_playground::select::Selection::from_json(sample).expect("valid");
    let expected =
        policy_playground::select::select(&workload_of(&whole_session, whole), &selection)
            .expect("kept");
    assert_eq!(without_ranges(&read), without_ranges(&expected));
    let usages = |w: &Workload| -> Vec<Vec<f64>> {
        let per_task = per_task(w).into_iter();
        per_task
            .map(|f| f.into_iter().map(|f| f.1).collect())
            .collect()
    };
    assert_eq!(usages(&read), usages(&expected));
    // Everything holds too many fragments: refused before decoding, naming the limit.
    let two = r#"{"fromMs": "2022-10-01T00:00:00Z"}"#;
    let e = errors(s.load_workload_parquet_selected(&tasks, &fragments, two));
    assert!(
        e[0].1
            .contains("fragments; the playground in the browser takes at most 1000000"),
        "{}",
        e[0].1
    );
}

/// The selected reader on the broken parquet workloads of the bad-input corpus and the fuzzers'
/// forgeries: an error where the whole-file reader gives one, a workload where it gives one,
/// and never a panic inside the parquet crate (which the reader would report as "the parquet
/// decoder failed").
#[test]
fn the_selected_reader_refuses_what_the_whole_reader_refuses() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut cases: Vec<(String, Vec<u8>, Vec<u8>)> = Vec::new();
    for entry in std::fs::read_dir(format!("{root}/tests/bad-inputs")).expect("corpus") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            let read = |f: &str| std::fs::read(path.join(f)).unwrap_or_default();
            cases.push((
                path.display().to_string(),
                read("tasks.parquet"),
                read("fragments.parquet"),
            ));
        }
    }
    for name in [
        "parquet-negative-column-start",
        "parquet-dict-decoder-unset",
        "parquet-bool-list-in-footer",
        "parquet-bool-list-in-page-header",
        "parquet-desynced-field-type",
        "parquet-num-children-oom",
    ] {
        let data = std::fs::read(format!("{root}/tests/fuzz-regressions/{name}")).expect("input");
        let n = (u16::from_le_bytes([data[0], data[1]]) as usize).min(data.len() - 2);
        let (t, f) = data[2..].split_at(n);
        cases.push((name.into(), t.to_vec(), f.to_vec()));
    }
    assert!(cases.len() >= 12, "{}", cases.len());
    let all = policy_playground::select::Selection::default();
    for (name, tasks, fragments) in &cases {
        let whole = policy_playground::input::workload::read_parquet_workload(tasks, fragments);
        let part = policy_playground::input::workload::read_parquet_selected(
            tasks,
            fragments,
            &all,
            u64::MAX,
            u64::MAX,
        );
        assert_eq!(whole.is_ok(), part.is_ok(), "{name}: {part:?}");
        if let (Ok(w), Ok(p)) = (&whole, &part) {
            assert_eq!(w.tasks, p.tasks, "{name}");
        }
        if let Err(ds) = part {
            assert!(
                !ds.iter().any(|d| d.message.contains("decoder failed")),
                "{name}: a panic was caught: {ds:?}"
            );
        }
    }
}
