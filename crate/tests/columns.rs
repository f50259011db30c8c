//! The page's binary run (`Session::run_binary`, the wasm's `runBinaryWithProgress`): every
//! column equals the JSON result's field (`Session::run`, what the CLI prints), read from the
//! JSON text, on the teaching sample under several policies (deferrals, pauses, terminations) and
//! on a hand-made run with a task never placed; and the timeline's bars of that run, worked out
//! by hand, with the invariants the page's drawing relies on checked on every run.

use policy_playground::api::binary::BinaryRun;
use policy_playground::api::handles::{parse_request, Session};
use policy_playground::api::Answer;
use policy_playground::output::bars::{TimelineBars, DEFER, PAUSE, RUN, TERM, WAIT};
use policy_playground::output::columns::RunColumns;
use policy_playground::output::steps::StepColumns;
use serde_json::{json, Value};

const T0: i64 = 1_700_000_000_000;
const MEM: &str = r#"{"type": "prefab", "policyName": "Mem"}"#;

fn read(rel: &str) -> String {
    std::fs::read_to_string(format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))).expect(rel)
}

fn success<T>(a: Answer<T>) -> T {
    match a {
        Answer::Success { value } => value,
        Answer::Failure { errors } => panic!("failure: {errors:?}"),
    }
}

/// The JSON result and the binary run of the same inputs (runs are deterministic).
fn both(s: &mut Session, handles: &str, policy: &str, options: &str) -> (Value, BinaryRun) {
    let (h, o) = parse_request(handles, options).expect("request");
    let json = success(s.run(&h, policy, &o));
    let text = serde_json::to_string(&json.result).expect("serializable");
    let binary = success(s.run_binary(&h, policy, &o, &mut |_| {}));
    (serde_json::from_str(&text).expect("JSON"), binary)
}

/// A number of the JSON (`null` as NaN), as the columns hold it.
fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

fn same(a: f64, b: f64, what: &str) {
    assert!(a == b || (a.is_nan() && b.is_nan()), "{what}: {a} != {b}");
}

/// Every column against the JSON result's field.
fn check_columns(json: &Value, c: &RunColumns) {
    let tasks = json["tasks"].as_array().expect("tasks");
    let hosts = json["hosts"].as_array().expect("hosts");
    assert_eq!(
        (c.task_count as usize, c.host_count as usize),
        (tasks.len(), hosts.len())
    );
    let n = tasks.len();
    let host_index = |name: &Value| {
        hosts
            .iter()
            .position(|h| h["name"] == *name)
            .map_or(-1, |j| j as i32)
    };
    for (i, t) in tasks.iter().enumerate() {
        let w = format!("task {i}");
        assert_eq!(c.string(i), t["id"].as_str().unwrap(), "{w} id");
        assert_eq!(c.string(n + i), t["name"].as_str().unwrap(), "{w} name");
        assert_eq!(
            c.task_host[i],
            if t["host"].is_null() {
                -1
            } else {
                host_index(&t["host"])
            },
            "{w} host"
        );
        same(c.submit_ms[i], num(&t["submitMs"]), &w);
        same(c.start_ms[i], num(&t["startMs"]), &w);
        same(c.finish_ms[i], num(&t["finishMs"]), &w);
        same(c.wait_ms[i], num(&t["waitMs"]), &w);
        same(c.deadline_ms[i], num(&t["deadlineMs"]), &w);
        same(c.duration_ms[i], num(&t["durationMs"]), &w);
        same(c.memory_mib[i], num(&t["memoryMib"]), &w);
        assert_eq!(Some(c.cpu_count[i] as u64), t["cpuCount"].as_u64(), "{w}");
        assert_eq!(
            c.state_names[c.state[i] as usize],
            t["state"].as_str().unwrap(),
            "{w}"
        );
        match t.get("reason").and_then(Value::as_str) {
            Some(r) => assert_eq!(c.string(c.reason[i] as usize), r, "{w} reason"),
            None => assert_eq!(c.reason[i], -1, "{w} reason"),
        }
        let runs = t["runs"].as_array().unwrap();
        let k0 = c.run_start[i] as usize;
        assert_eq!(c.run_start[i + 1] as usize - k0, runs.len(), "{w} runs");
        for (k, r) in runs.iter().enumerate() {
            assert_eq!(c.run_host[k0 + k], host_index(&r["host"]), "{w} run host");
            same(c.run_from[k0 + k], num(&r["fromMs"]), &w);
            same(c.run_to[k0 + k], num(&r["toMs"]), &w);
        }
        for (key, start, from, to) in [
            (
                "deferrals",
                &c.deferral_start,
                &c.deferral_from,
                &c.deferral_to,
            ),
            ("pauses", &c.pause_start, &c.pause_from, &c.pause_to),
        ] {
            let spans = t[key].as_array().unwrap();
            let k0 = start[i] as usize;
            assert_eq!(start[i + 1] as usize - k0, spans.len(), "{w} {key}");
            for (k, s) in spans.iter().enumerate() {
                same(from[k0 + k], num(&s["fromMs"]), &w);
                same(to[k0 + k], num(&s["toMs"]), &w);
            }
        }
    }
    for (j, h) in hosts.iter().enumerate() {
        let w = format!("host {j}");
        assert_eq!(c.string(2 * n + j), h["name"].as_str().unwrap(), "{w}");
        assert_eq!(
            c.string(c.host_cluster[j] as usize),
            h["cluster"].as_str().unwrap(),
            "{w}"
        );
        assert_eq!(Some(c.host_cores[j] as u64), h["cores"].as_u64(), "{w}");
        for (col, key) in [
            (&c.host_memory, "memory"),
            (&c.host_busy_ms, "busyMs"),
            (&c.host_mean_utilization, "meanUtilization"),
            (&c.host_energy_j, "energyJ"),
            (&c.host_idle_energy_j, "idleEnergyJ"),
            (&c.host_dynamic_energy_j, "dynamicEnergyJ"),
            (&c.host_carbon_g, "carbonG"),
            (&c.host_tasks_run, "tasksRun"),
        ] {
            same(col[j], num(&h[key]), &format!("{w} {key}"));
        }
    }
    let ends = c.string_ends.last().copied().unwrap_or(0) as usize;
    assert_eq!(ends, c.strings.len());
    assert_eq!(c.ascii, c.strings.is_ascii());
}

/// What the page's drawing relies on: bars sorted by (lane, start, kind), the offsets, rows
/// that never overlap within a lane, every run of the JSON a run bar in its host's lane.
fn check_bars(json: &Value, c: &RunColumns, b: &TimelineBars) {
    let n = b.from.len();
    let lanes = b.lanes as usize;
    assert!(lanes == c.host_count as usize || lanes == c.host_count as usize + 1);
    for j in 1..n {
        let key = |j: usize| (b.lane[j], b.from[j] as i64, b.kind[j]);
        assert!(key(j - 1) <= key(j), "bar {j} out of order");
    }
    for l in 0..lanes {
        for j in b.lane_start[l] as usize..b.lane_start[l + 1] as usize {
            assert_eq!(b.lane[j] as usize, l);
            assert!(b.row[j] >= 0 && b.row[j] < b.lane_rows[l]);
            assert!(b.to[j] - b.from[j] <= b.lane_max_dur[l]);
        }
    }
    assert_eq!(b.lane_start[lanes] as usize, n);
    // Bars of different tasks in one row of one lane never overlap (a task's extent owns it).
    let mut extent = std::collections::HashMap::new();
    for j in 0..n {
        let e = extent
            .entry((b.lane[j], b.task[j]))
            .or_insert((b.row[j], b.from[j], b.to[j]));
        assert_eq!(e.0, b.row[j], "one row per task and lane");
        e.1 = e.1.min(b.from[j]);
        e.2 = e.2.max(b.to[j]);
    }
    let list: Vec<_> = extent.iter().collect();
    for (i, (&(lane, task), &(row, from, to))) in list.iter().enumerate() {
        for (&(lane2, task2), &(row2, from2, to2)) in &list[i + 1..] {
            if lane == lane2 && row == row2 && task != task2 {
                assert!(
                    to <= from2 || to2 <= from,
                    "tasks {task} and {task2} overlap in lane {lane}"
                );
            }
        }
    }
    let tasks = json["tasks"].as_array().unwrap();
    for (i, t) in tasks.iter().enumerate() {
        let mine: Vec<usize> = (b.task_bar_start[i]..b.task_bar_start[i + 1])
            .map(|k| b.task_bars[k as usize] as usize)
            .collect();
        assert!(mine.iter().all(|&j| b.task[j] as usize == i));
        for r in t["runs"].as_array().unwrap() {
            assert!(mine.iter().any(|&j| b.kind[j] == RUN
                && b.from[j] == num(&r["fromMs"])
                && b.to[j] == num(&r["toMs"])
                && c.string(2 * tasks.len() + b.lane[j] as usize) == r["host"].as_str().unwrap()));
        }
        let deadline = num(&t["deadlineMs"]);
        let missed = t["state"] == "completed" && num(&t["finishMs"]) > deadline;
        assert_eq!(b.missed[i] == 1, missed, "task {i} missed");
    }
}

/// Every step series column against the JSON result's series (`[[timeMs, value]]`).
fn check_steps(json: &Value, st: &StepColumns) {
    let series = &json["series"];
    for (key, at, values) in [
        ("powerW", &st.power_at_ms, &st.power_w),
        ("runningTasks", &st.running_at_ms, &st.running_tasks),
        ("queuedTasks", &st.queued_at_ms, &st.queued_tasks),
        ("deferredTasks", &st.deferred_at_ms, &st.deferred_tasks),
    ] {
        let points = series[key].as_array().expect(key);
        assert_eq!(
            (at.len(), values.len()),
            (points.len(), points.len()),
            "{key}"
        );
        for (k, p) in points.iter().enumerate() {
            same(at[k], num(&p[0]), &format!("{key}[{k}] time"));
            same(values[k], num(&p[1]), &format!("{key}[{k}] value"));
        }
    }
}

/// The teaching sample's handles in a new session.
fn teaching(s: &mut Session) -> String {
    let v = success(s.load_scenario(&read("www/samples/teaching/scenario.json")));
    json!({"topology": v.topology.handle, "workload": v.workload.handle,
           "carbon": v.carbon.map(|c| c.handle)})
    .to_string()
}

#[test]
fn the_columns_are_the_json_results_fields_on_the_teaching_sample() {
    let mut s = Session::default();
    let handles = teaching(&mut s);
    let timeshift = read("www/samples/policies/timeshift-stopper.json");
    let features = read("www/samples/policies/features.json");
    let mut kinds = [0usize; 5];
    for policy in [MEM, timeshift.as_str(), features.as_str()] {
        let (json, run) = both(&mut s, &handles, policy, r#"{"seriesResolutionMs": 0}"#);
        check_columns(&json, &run.columns);
        check_bars(&json, &run.columns, &run.bars);
        check_steps(&json, &run.steps);
        assert!(run.steps.power_w.len() > 100, "exact power changes");
        for &k in &run.bars.kind {
            kinds[k as usize] += 1;
        }
        // The head is the JSON result's other fields, unchanged.
        let head = serde_json::to_value(&run.result).unwrap();
        for key in ["metrics", "warnings", "startEpochMs", "provenance"] {
            assert_eq!(head[key], json[key], "{key}");
        }
        for key in ["resolutionMs", "carbonIntensity", "regime"] {
            assert_eq!(head["series"][key], json["series"][key], "series.{key}");
        }
        assert_eq!(head["series"].as_object().map(|o| o.len()), Some(3));
    }
    // The policies between them make every kind of bar but the never-placed one.
    assert!(
        kinds[WAIT as usize] > 0 && kinds[RUN as usize] > 0,
        "{kinds:?}"
    );
    assert!(
        kinds[DEFER as usize] > 0 && kinds[PAUSE as usize] > 0,
        "{kinds:?}"
    );
}

/// The page's first draw after an edit (`Session::run_placements`) is the full run's: the same
/// task columns and bars, the hosts' names, clusters, cores, memory and tasks run, end and
/// regime; the hosts' figures that follow usage are NaN. The binary run's table of figures is
/// what `compare` answers for that run alone.
#[test]
fn the_placements_are_the_full_runs_and_the_table_is_compares() {
    let mut s = Session::default();
    let handles = teaching(&mut s);
    let timeshift = read("www/samples/policies/timeshift-stopper.json");
    let features = read("www/samples/policies/features.json");
    let mut pauses = 0;
    for policy in [MEM, timeshift.as_str(), features.as_str()] {
        let (h, o) = parse_request(&handles, "{}").expect("request");
        let full = success(s.run_binary(&h, policy, &o, &mut |_| {}));
        let placed = success(s.run_placements(&h, policy, &o));
        let (f, p) = (&full.columns, &placed.columns);
        assert_eq!(placed.bars, full.bars, "{policy}: bars");
        assert_eq!((p.task_count, p.host_count), (f.task_count, f.host_count));
        assert_eq!((&p.strings, &p.string_ends), (&f.strings, &f.string_ends));
        assert_eq!(p.task_host, f.task_host, "{policy}");
        for (a, b, what) in [
            (&p.submit_ms, &f.submit_ms, "submit"),
            (&p.start_ms, &f.start_ms, "start"),
            (&p.finish_ms, &f.finish_ms, "finish"),
            (&p.wait_ms, &f.wait_ms, "wait"),
            (&p.deadline_ms, &f.deadline_ms, "deadline"),
            (&p.duration_ms, &f.duration_ms, "duration"),
            (&p.memory_mib, &f.memory_mib, "memory"),
            (&p.run_from, &f.run_from, "run from"),
            (&p.run_to, &f.run_to, "run to"),
            (&p.deferral_from, &f.deferral_from, "deferral from"),
            (&p.deferral_to, &f.deferral_to, "deferral to"),
            (&p.pause_from, &f.pause_from, "pause from"),
            (&p.pause_to, &f.pause_to, "pause to"),
            (&p.host_memory, &f.host_memory, "host memory"),
            (&p.host_tasks_run, &f.host_tasks_run, "tasks run"),
        ] {
            assert_eq!(a.len(), b.len(), "{policy}: {what}");
            for (x, y) in a.iter().zip(b) {
                same(*x, *y, &format!("{policy}: {what}"));
            }
        }
        assert_eq!((&p.state, &p.run_host), (&f.state, &f.run_host));
        assert_eq!((&p.reason, &p.cpu_count), (&f.reason, &f.cpu_count));
        assert_eq!(
            (&p.run_start, &p.deferral_start, &p.pause_start),
            (&f.run_start, &f.deferral_start, &f.pause_start)
        );
        assert_eq!(
            (&p.host_cluster, &p.host_cores),
            (&f.host_cluster, &f.host_cores)
        );
        pauses += f.pause_from.len();
        assert!(p.host_energy_j.iter().all(|e| e.is_nan()), "{policy}");
        assert!(f.host_energy_j.iter().all(|e| *e > 0.0), "{policy}");
        let r = &placed.result;
        assert_eq!(r.makespan_ms, full.result.metrics.makespan_ms);
        assert_eq!(r.start_epoch_ms, full.result.start_epoch_ms);
        assert_eq!(r.series.regime, full.result.series.regime);
        assert_eq!(
            r.series.carbon_intensity,
            full.result.series.carbon_intensity
        );
        let request = json!({"runs": [full.run], "labels": ["A"], "baseline": 0}).to_string();
        let compared: Value = serde_json::from_str(&s.compare_json_str(&request)).unwrap();
        assert_eq!(
            serde_json::to_value(&full.comparison).unwrap(),
            compared["value"],
            "{policy}: the table"
        );
    }
    assert!(pauses > 0, "no run paused a task: the pauses went untested");
}

/// Host `tiny`: 1 core, 64 000 MiB; `main`: 4 cores, 16 000 MiB. a: 4 cores for 2 s from 0;
/// b: 2 cores for 1 s from 0; c: 8 cores at 0.5 s (no host has them: never placed); d: 2 cores
/// for 3 s from 1 s; e: 1 core for 1 s from 3 s.
fn small(s: &mut Session) -> String {
    let group = |name: &str, cores: u32, memory: u32| {
        json!({"name": name, "count": 1, "cpu": {"coreCount": cores, "coreSpeed": 1000},
               "memory": {"memorySize": memory},
               "cpuPowerModel": {"modelType": "constant", "power": 100.0}})
    };
    let topology = json!({"clusters": [{"name": "rack",
        "hosts": [group("tiny", 1, 64_000), group("main", 4, 16_000)]}]});
    let task = |id: &str, submit: i64, duration: i64, cores: u32| {
        json!({"id": id, "submissionTime": T0 + submit, "duration": duration,
               "cpuCount": cores, "cpuCapacity": cores as f64 * 1000.0, "memory": 1000})
    };
    let workload = json!({"tasks": [task("a", 0, 2000, 4), task("b", 0, 1000, 2),
        task("c", 500, 1000, 8), task("d", 1000, 3000, 2), task("e", 3000, 1000, 1)]});
    let t = success(s.load_topology(&topology.to_string()));
    let w = success(s.load_workload(&workload.to_string(), "json"));
    json!({"topology": t.handle, "workload": w.handle}).to_string()
}

#[test]
fn the_bars_of_a_small_run_as_worked_out_by_hand() {
    let mut s = Session::default();
    let handles = small(&mut s);
    let (json, run) = both(&mut s, &handles, MEM, "{}");
    check_columns(&json, &run.columns);
    check_bars(&json, &run.columns, &run.bars);
    check_steps(&json, &run.steps);
    // Running: a from 0; b and d from 2 s, when a ends; b ends at 3 s as e starts on tiny; e
    // ends at 4 s, d at 5 s.
    let running: Vec<(f64, f64)> = run
        .steps
        .running_at_ms
        .iter()
        .copied()
        .zip(run.steps.running_tasks.iter().copied())
        .collect();
    assert_eq!(
        running,
        vec![(0.0, 1.0), (2000.0, 2.0), (4000.0, 1.0), (5000.0, 0.0)]
    );
    let b = &run.bars;
    // Lanes: tiny-0, main-0 (the hosts' names as the result lists them), never placed.
    assert_eq!(b.lanes, 3);
    // main: a runs 0-2 s (row 0); b waits 0-2 s and runs 2-3 s (row 1: a holds row 0 until
    // 2 s); d waits 1-2 s and runs 2-5 s (row 2: rows 0 and 1 are taken at 1 s). tiny: e runs
    // 3-4 s (Mem prefers its free memory). Never placed: c, from 0.5 s to its end.
    let bars: Vec<(i32, i32, u8, &str, i64, i64)> = (0..b.from.len())
        .map(|j| {
            let id = run.columns.string(b.task[j] as usize);
            (
                b.lane[j],
                b.row[j],
                b.kind[j],
                id,
                b.from[j] as i64,
                b.to[j] as i64,
            )
        })
        .collect();
    let c_end = run.columns.finish_ms[2] as i64;
    assert_eq!(
        bars,
        vec![
            (0, 0, RUN, "e", 3000, 4000),
            (1, 1, WAIT, "b", 0, 2000), // before a's run: at one time, by kind
            (1, 0, RUN, "a", 0, 2000),
            (1, 2, WAIT, "d", 1000, 2000),
            (1, 1, RUN, "b", 2000, 3000),
            (1, 2, RUN, "d", 2000, 5000),
            (2, 0, TERM, "c", 500, c_end.max(500)),
        ]
    );
    assert_eq!(b.lane_rows, vec![1, 3, 1]);
    assert_eq!(b.lane_start, vec![0, 1, 6, 7]);
    assert_eq!(
        b.lane_max_dur,
        vec![1000.0, 3000.0, (c_end.max(500) - 500) as f64]
    );
    assert_eq!(b.task_bar_start, vec![0, 1, 3, 4, 6, 7]);
    assert_eq!(b.task_bars, vec![2, 1, 4, 6, 3, 5, 0]);
}
