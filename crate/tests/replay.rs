//! The events of a kept run (`Session::replay_events`, the wasm's `replayEvents`, the page's
//! replay): a hand-made run worked out event by event; every task's submission, placements,
//! deferrals, pauses and finish against its record; and the order within each instant against
//! the simulator's own state, stepped instant by instant (who runs, in placement order, and
//! the queue from its head), on the teaching sample under several policies and on seeded
//! workloads with a carbon trace, deadlines and the task stopper. Paging and its bounds.

use policy_playground::api::handles::{parse_request, Session};
use policy_playground::api::replay::{run_events, EventKind, RunEvent, MAX_REPLAY_PAGE};
use policy_playground::api::Answer;
use policy_playground::model::{CarbonTrace, Topology, Workload};
use policy_playground::policy::policy_from_text;
use policy_playground::request::{CarbonReference, Inputs, RunOptions, RunRequest};
use policy_playground::sim::SimResult;
use policy_playground::synth::{generate, SynthSpec};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};

const T0: i64 = 1_700_000_000_000;
const MEM: &str = r#"{"type": "prefab", "policyName": "Mem"}"#;

fn value<T: serde::Serialize>(a: Answer<T>) -> Value {
    match a {
        Answer::Success { value } => serde_json::to_value(value).expect("serializable"),
        Answer::Failure { errors } => panic!("failure: {errors:?}"),
    }
}

fn teaching() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../www/samples/teaching/scenario.json"
    ))
    .expect("the teaching sample")
}

/// Host group `tiny`: 1 host of 1 core and 64 000 MiB; `main`: 1 host of 4 cores and 16 000
/// MiB (so Mem, which prefers free memory, puts a 1-core task on `tiny`).
fn small_topology() -> String {
    let group = |name: &str, cores: u32, memory: u32| {
        json!({"name": name, "count": 1, "cpu": {"coreCount": cores, "coreSpeed": 1000},
               "memory": {"memorySize": memory},
               "cpuPowerModel": {"modelType": "constant", "power": 100.0}})
    };
    json!({"clusters": [{"name": "rack", "hosts": [group("tiny", 1, 64_000), group("main", 4, 16_000)]}]})
        .to_string()
}

/// a: 4 cores for 2 s from 0; b: 2 cores for 1 s from 0 (waits for a); c: 8 cores at 0.5 s
/// (no host has them: rejected); d: 2 cores for 3 s from 1 s; e: 1 core for 1 s from 3 s.
fn small_workload() -> String {
    let task = |id: &str, submit: i64, duration: i64, cores: u32| {
        json!({"id": id, "submissionTime": T0 + submit, "duration": duration,
               "cpuCount": cores, "cpuCapacity": cores as f64 * 1000.0, "memory": 1000})
    };
    json!({"tasks": [task("a", 0, 2000, 4), task("b", 0, 1000, 2), task("c", 500, 1000, 8),
                     task("d", 1000, 3000, 2), task("e", 3000, 1000, 1)]})
    .to_string()
}

/// Loads the small case and runs it under Mem; the session, the run's handle and answer, and
/// the topology's handle.
fn small_run() -> (Session, u32, Value, u32) {
    let mut s = Session::new();
    let t = value(s.load_topology(&small_topology()));
    let w = value(s.load_workload(&small_workload(), "json"));
    let handles = json!({"topology": t["handle"], "workload": w["handle"]}).to_string();
    let (h, o) = parse_request(&handles, "{}").expect("valid handles");
    let r = value(s.run(&h, MEM, &o));
    let id = r["run"].as_u64().expect("a run handle") as u32;
    (s, id, r, t["handle"].as_u64().expect("a handle") as u32)
}

/// A page's events as (time, kind name, task index, host index).
fn rows(page: &Value) -> Vec<(i64, String, u64, Option<u64>)> {
    let kinds = page["kinds"].as_array().expect("kinds");
    (0..page["timeMs"].as_array().expect("timeMs").len())
        .map(|i| {
            let kind = page["kind"][i].as_u64().expect("a kind code") as usize;
            (
                page["timeMs"][i].as_i64().expect("a time"),
                kinds[kind].as_str().expect("a name").to_string(),
                page["task"][i].as_u64().expect("a task"),
                page["host"][i].as_u64(),
            )
        })
        .collect()
}

/// Worked out by hand (quantum 1 s, cycles on whole seconds). 0: a and b arrive, a takes
/// `main` (index 1), b does not fit beside it. 0.5 s: c arrives and is rejected (8 cores).
/// 1 s: d arrives; b at the head still does not fit. 2 s: a completes, then the cycle places
/// b and d on `main` in queue order. 3 s: b completes; e arrives and goes to `tiny` (index
/// 0, more free memory). 4 s: e completes. 5 s: d completes.
#[test]
fn a_small_run_by_hand() {
    let (s, run, r, _) = small_run();
    let page = value(s.replay_events(run, 0, 100));
    let (a, b, c, d, e) = (0, 1, 2, 3, 4);
    let ev = |t: i64, k: &str, task: u64, host: Option<u64>| (t, k.to_string(), task, host);
    assert_eq!(
        rows(&page),
        vec![
            ev(0, "submission", a, None),
            ev(0, "submission", b, None),
            ev(0, "placement", a, Some(1)),
            ev(500, "submission", c, None),
            ev(500, "termination", c, None),
            ev(1000, "submission", d, None),
            ev(2000, "finish", a, Some(1)),
            ev(2000, "placement", b, Some(1)),
            ev(2000, "placement", d, Some(1)),
            ev(3000, "finish", b, Some(1)),
            ev(3000, "submission", e, None),
            ev(3000, "placement", e, Some(0)),
            ev(4000, "finish", e, Some(0)),
            ev(5000, "finish", d, Some(1)),
        ]
    );
    assert_eq!(page["total"], 14);
    assert_eq!(page["from"], 0);
    assert_eq!(
        page["kinds"],
        json!([
            "submission",
            "placement",
            "deferral",
            "pause",
            "finish",
            "termination"
        ])
    );
    // The hosts of the result the indices point into.
    assert_eq!(r["result"]["hosts"][0]["name"], "tiny");
    assert_eq!(r["result"]["hosts"][1]["name"], "main");
    assert_eq!(r["result"]["tasks"][2]["state"], "terminated");
}

/// Pages of any size put together are the whole list; a page past the end is empty; a limit
/// of 0 or past the bound, and a handle that is not a run, are failures that say so.
#[test]
fn pages_and_their_bounds() {
    let (s, run, _, topology) = small_run();
    let whole = rows(&value(s.replay_events(run, 0, MAX_REPLAY_PAGE)));
    for size in [1, 3, 5, 13, 14] {
        let mut joined = Vec::new();
        let mut from = 0;
        loop {
            let page = value(s.replay_events(run, from, size));
            assert_eq!(page["from"], from);
            assert_eq!(page["total"], 14);
            let part = rows(&page);
            if part.is_empty() {
                break;
            }
            assert!(part.len() <= size as usize);
            from += part.len() as u32;
            joined.extend(part);
        }
        assert_eq!(joined, whole, "pages of {size}");
    }
    let past = value(s.replay_events(run, 99, 10));
    assert_eq!(
        (past["from"].as_u64(), past["total"].as_u64()),
        (Some(14), Some(14))
    );
    assert!(rows(&past).is_empty());
    for limit in [0, MAX_REPLAY_PAGE + 1] {
        let Answer::Failure { errors } = s.replay_events(run, 0, limit) else {
            panic!("limit {limit} accepted")
        };
        assert_eq!(
            errors[0].message,
            format!("`limit`: {limit} events asked; a page holds 1 to {MAX_REPLAY_PAGE}")
        );
    }
    let Answer::Failure { errors } = s.replay_events(topology, 0, 10) else {
        panic!("a topology handle replayed")
    };
    assert_eq!(errors[0].message, format!("handle {topology} is not a run"));
    let Answer::Failure { errors } = s.replay_events(999, 0, 10) else {
        panic!("a handle never given replayed")
    };
    assert_eq!(errors[0].message, "no run is loaded under handle 999");
    let text = s.replay_events_json_str(run, 0, 2);
    assert!(
        text.starts_with(r#"{"type":"success","value":{"total":14,"from":0,"#),
        "{text}"
    );
}

/// Each task's events, in list order, are its record: submission, then its deferrals,
/// placements (on the run's host) and pauses in time order, then its finish or termination;
/// and the list is in time order.
fn check_against_records(result: &SimResult, events: &[RunEvent]) {
    let hosts: HashMap<&str, u32> = result
        .hosts
        .iter()
        .enumerate()
        .map(|(i, h)| (h.name.as_str(), i as u32))
        .collect();
    assert!(events.windows(2).all(|w| w[0].time_ms <= w[1].time_ms));
    let mut per_task: Vec<Vec<(i64, EventKind, Option<u32>)>> = vec![vec![]; result.tasks.len()];
    for e in events {
        per_task[e.task as usize].push((e.time_ms, e.kind, e.host));
    }
    for (i, t) in result.tasks.iter().enumerate() {
        let mut expected = vec![(t.submit_ms, EventKind::Submission, None)];
        let mut middle = vec![];
        for d in &t.deferrals {
            middle.push((d.from_ms, EventKind::Deferral, None));
        }
        for (k, r) in t.runs.iter().enumerate() {
            let host = Some(hosts[r.host.as_str()]);
            middle.push((r.from_ms, EventKind::Placement, host));
            if t.pauses.iter().any(|p| p.from_ms == r.to_ms) {
                middle.push((r.to_ms, EventKind::Pause, host));
            }
            assert!(k + 1 == t.runs.len() || t.pauses.iter().any(|p| p.from_ms == r.to_ms));
        }
        // A pause comes at the start of its instant, before the cycle that may defer it.
        middle.sort_by_key(|e| (e.0, e.1 != EventKind::Pause));
        expected.extend(middle);
        let last_host = t.runs.last().map(|r| hosts[r.host.as_str()]);
        expected.push(match t.state {
            "completed" => (t.finish_ms, EventKind::Finish, last_host),
            _ => {
                let running = t.runs.last().is_some_and(|r| r.to_ms == t.finish_ms);
                (
                    t.finish_ms,
                    EventKind::Termination,
                    last_host.filter(|_| running),
                )
            }
        });
        assert_eq!(per_task[i], expected, "task {} ({})", i, t.id);
    }
}

/// What a replay of `events` says about the run just after the instant `time`: who runs, in
/// the order of their placements, and the queue from its head (tasks join it when submitted
/// or paused, leave it when placed or terminated, and keep their place while deferred).
fn state_after(events: &[RunEvent], time: i64) -> (Vec<u32>, Vec<u32>, usize) {
    let mut running: Vec<u32> = vec![];
    let mut queue: VecDeque<u32> = VecDeque::new();
    let mut ended = 0;
    for e in events.iter().take_while(|e| e.time_ms <= time) {
        match e.kind {
            EventKind::Submission => queue.push_back(e.task),
            EventKind::Pause => {
                running.retain(|&t| t != e.task);
                queue.push_back(e.task);
            }
            EventKind::Placement => {
                queue.retain(|&t| t != e.task);
                running.push(e.task);
            }
            EventKind::Finish | EventKind::Termination => {
                running.retain(|&t| t != e.task);
                queue.retain(|&t| t != e.task);
                ended += 1;
            }
            EventKind::Deferral => {}
        }
    }
    (running, queue.into(), ended)
}

/// Steps the run instant by instant and compares, at every instant an event falls on, the
/// simulator's snapshot (running tasks in placement order, the queue from its head, the ended
/// ones) with what the events say. Returns how many placements shared their instant with an
/// earlier one, how many were of a deferred task due then, and the pauses and deferrals.
fn check_against_simulator(
    request: &RunRequest,
    result: &SimResult,
    events: &[RunEvent],
) -> [usize; 4] {
    let ids: Vec<&str> = result.tasks.iter().map(|t| t.id.as_str()).collect();
    let mut times: Vec<i64> = events.iter().map(|e| e.time_ms).collect();
    times.dedup();
    request
        .with_simulation(|mut sim| {
            for &t in &times {
                sim.step_until(t);
                let snap = sim.snapshot(t);
                let (running, queue, ended) = state_after(events, t);
                let running: Vec<&str> = running.iter().map(|&i| ids[i as usize]).collect();
                let snap_running: Vec<&str> =
                    snap.running.iter().map(|r| r.task_id.as_str()).collect();
                assert_eq!(snap_running, running, "running at t = {t}");
                let queue: Vec<&str> = queue.iter().map(|&i| ids[i as usize]).collect();
                let snap_queue: Vec<&str> = snap.queue.iter().map(|q| q.task_id.as_str()).collect();
                assert_eq!(snap_queue, queue, "queue at t = {t}");
                assert_eq!(
                    (snap.completed + snap.terminated) as usize,
                    ended,
                    "ended by t = {t}"
                );
            }
        })
        .expect("the run starts");
    let mut shared = 0;
    let mut due = 0;
    for (i, e) in events.iter().enumerate() {
        if e.kind != EventKind::Placement {
            continue;
        }
        if events[..i]
            .iter()
            .rev()
            .take_while(|x| x.time_ms == e.time_ms)
            .any(|x| x.kind == EventKind::Placement)
        {
            shared += 1;
        }
        let t = &result.tasks[e.task as usize];
        if t.deferrals.iter().any(|d| d.to_ms == e.time_ms) {
            due += 1;
        }
    }
    let count = |k: EventKind| events.iter().filter(|e| e.kind == k).count();
    [
        shared,
        due,
        count(EventKind::Pause),
        count(EventKind::Deferral),
    ]
}

/// The teaching sample under policies that place several tasks per cycle, backfill, defer and
/// pause, under both semantics: every task against its record, every instant against the
/// simulator, and through the session the same list.
#[test]
fn the_teaching_sample_against_records_and_the_simulator() {
    let scenario = policy_playground::scenario::read(&teaching()).expect("the teaching sample");
    let policies = [
        (MEM, "classic"),
        (
            r#"{"type": "prefab", "policyName": "TaskNumMemorizing"}"#,
            "classic",
        ),
        (
            r#"{"type": "prefab", "policyName": "Timeshift"}"#,
            "classic",
        ),
        (
            r#"{"type": "timeshift", "taskStopper": {"forecastThreshold": 0.4}}"#,
            "classic",
        ),
        (MEM, "current"),
    ];
    let mut totals = [0; 4];
    for (text, semantics) in policies {
        let policy = policy_from_text(text).expect("a valid policy").0;
        let mut request = scenario.request();
        request.policy = &policy;
        request.options.semantics = serde_json::from_value(json!(semantics)).expect("semantics");
        let result = request.run(&mut |_| {}).expect("the run").result;
        let events = run_events(&result, 1000);
        check_against_records(&result, &events);
        let counts = check_against_simulator(&request, &result, &events);
        for (t, c) in totals.iter_mut().zip(counts) {
            *t += c;
        }
    }
    let [shared, due, pauses, deferrals] = totals;
    assert!(shared >= 20 && pauses > 0 && deferrals > 100, "{totals:?}");
    assert!(due > 0, "{totals:?}");

    // Through the session, the kept run's events are the same list.
    let mut s = Session::new();
    let loaded = value(s.load_scenario(&teaching()));
    let handles = json!({"topology": loaded["topology"]["handle"], "workload": loaded["workload"]["handle"],
                         "carbon": loaded["carbon"]["handle"]});
    let (h, o) = parse_request(&handles.to_string(), "{}").expect("valid handles");
    let run = value(s.run(&h, MEM, &o));
    let page = value(s.replay_events(
        run["run"].as_u64().expect("a handle") as u32,
        0,
        MAX_REPLAY_PAGE,
    ));
    let result = scenario.request().run(&mut |_| {}).expect("the run").result;
    let events = run_events(&result, 1000);
    assert_eq!(page["total"].as_u64(), Some(events.len() as u64));
    let listed: Vec<(i64, u64, u64)> = rows(&page)
        .into_iter()
        .map(|(t, _, task, host)| (t, task, host.map_or(u64::MAX, |h| h)))
        .collect();
    let expected: Vec<(i64, u64, u64)> = events
        .iter()
        .map(|e| {
            (
                e.time_ms,
                u64::from(e.task),
                e.host.map_or(u64::MAX, u64::from),
            )
        })
        .collect();
    assert_eq!(listed, expected);
    assert_eq!(
        events.len(),
        200 * 3,
        "each of the 200 tasks: submitted, placed once, finished"
    );
}

/// A carbon trace of hourly samples from 2 h before `start`, seeded.
fn carbon(start: i64, seed: u64) -> CarbonTrace {
    let mut state = seed | 1;
    let hours = 24 * 40;
    CarbonTrace {
        timestamps_ms: (0..hours)
            .map(|h| start - 7_200_000 + h * 3_600_000)
            .collect(),
        intensity: (0..hours)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                ((state >> 33) % 500) as f64
            })
            .collect(),
    }
}

/// A seeded workload: bursts of arrivals on a small cluster (long queues), half the tasks
/// deferrable with a deadline.
fn workload(seed: u64) -> Workload {
    generate(&SynthSpec {
        seed,
        tasks: 250,
        start_epoch_ms: T0,
        mean_interarrival_ms: 90_000.0,
        cores: vec![(1, 4.0), (2, 3.0), (4, 2.0), (16, 1.0)],
        memory_per_core_mib: (1024.0, 4096.0),
        duration_ms: (300_000.0, 20_000_000.0),
        fragment_ms: 300_000,
        deferrable_share: 0.5,
        core_speed_mhz: 2000.0,
        usage: (0.2, 1.0),
    })
}

/// Seeded workloads with a carbon trace under time-shifting with the task stopper (deferrals,
/// due tasks, pauses and resumptions), memorizing backfill and quanta of 1 s and 7 min: every
/// instant against the simulator.
#[test]
fn seeded_runs_against_the_simulator() {
    let topology: Topology = policy_playground::bench::cluster(5);
    let policies = [
        r#"{"type": "timeshift", "taskStopper": {"forecastThreshold": 0.5}}"#,
        r#"{"type": "timeshift", "filters": [{"type": "VCpu"}, {"type": "Ram"}], "weighers": [{"type": "Ram"}],
            "memorize": true, "forecast": false, "windowSize": 3, "taskStopper": {"forecast": false, "windowSize": 2}}"#,
        r#"{"type": "prefab", "policyName": "TaskNumMemorizing"}"#,
    ];
    let mut totals = [0; 4];
    for seed in 1..4 {
        let w = workload(seed);
        let trace = carbon(T0, seed);
        for text in policies {
            for quantum in [1000, 420_000] {
                let policy = policy_from_text(text).expect("a valid policy").0;
                let inputs = Inputs {
                    topology: &topology,
                    workload: &w,
                    carbon: Some(&trace),
                };
                let mut request = RunRequest::new(inputs, &policy, CarbonReference::NotFollowed);
                request.options = RunOptions {
                    seed,
                    quantum_ms: Some(quantum),
                    ..RunOptions::defaults()
                };
                let result = request.run(&mut |_| {}).expect("the run").result;
                let events = run_events(&result, quantum);
                check_against_records(&result, &events);
                let counts = check_against_simulator(&request, &result, &events);
                for (t, c) in totals.iter_mut().zip(counts) {
                    *t += c;
                }
            }
        }
    }
    let [shared, due, pauses, deferrals] = totals;
    assert!(
        shared > 100 && due > 10 && pauses > 10 && deferrals > 100,
        "{totals:?}"
    );
}
