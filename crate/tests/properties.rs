//! Property tests over random topologies, workloads, carbon traces and policies (issue 7 item 2):
//! capacity under VCpu and Ram filters, every task ended with a reason when it did not complete,
//! no start before submission, deferrable deadlines held when a host stays free, the energy split
//! and its idle part worked out from the topology, and the same seed giving the same result.
//! Native only (proptest is a native dev-dependency); the browser suite replays generated cases.
#![cfg(not(target_arch = "wasm32"))]

use policy_playground::model::*;
use policy_playground::policy::{policy_from_text, Policy};
use policy_playground::sim::{simulate, Options, Scenario, SimResult};
use proptest::prelude::*;
use std::collections::HashMap;

const MIN: i64 = 60_000;
const EPOCH: i64 = 1_700_000_000_000;

/// A host group: (count, cores, speed MHz, memory MiB, idle W, extra W to max).
type GroupSpec = (u32, u32, f64, i64, f64, f64);
/// A task: (submit min, duration min, cores, usage per core MHz, memory MiB, deferrable, slack min).
type TaskIn = (i64, i64, u32, f64, i64, bool, i64);

fn topology(groups: &[GroupSpec]) -> Topology {
    Topology {
        clusters: vec![ClusterSpec {
            name: "C".into(),
            groups: groups
                .iter()
                .enumerate()
                .map(
                    |(i, &(count, cores, speed, memory, idle, extra))| HostGroup {
                        name: format!("g{i}"),
                        count,
                        cores,
                        core_speed_mhz: speed,
                        memory_mib: memory,
                        gpus: vec![],
                        power: PowerModel::Linear {
                            idle,
                            max: idle + extra,
                        },
                    },
                )
                .collect(),
        }],
        carbon_ref: None,
        warnings: vec![],
    }
}

fn workload(tasks: &[TaskIn]) -> Workload {
    let mut w = Workload::default();
    for (i, &(submit, duration, cores, usage, memory, deferrable, slack)) in
        tasks.iter().enumerate()
    {
        let start = w.fragments.begin_task();
        // Two fragments: the first half at full usage, the rest at half.
        let d1 = (duration * MIN) / 2;
        let d2 = duration * MIN - d1;
        for (d, u) in [(d1, usage * cores as f64), (d2, usage * cores as f64 / 2.0)] {
            if d > 0 {
                w.fragments.push(d, u);
            }
        }
        let submission = EPOCH + submit * MIN;
        w.tasks.push(TaskSpec {
            id: i.to_string(),
            name: format!("task-{i}"),
            submission_ms: submission,
            duration_ms: duration * MIN,
            cpu_count: cores,
            cpu_capacity_mhz: usage * cores as f64,
            memory_mib: memory,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable,
            deadline_ms: deferrable.then_some(submission + duration * MIN + slack * MIN),
            fragments: start..w.fragments.end(),
        });
    }
    w
}

fn carbon(values: &[f64]) -> CarbonTrace {
    CarbonTrace {
        timestamps_ms: (0..values.len() as i64)
            .map(|i| EPOCH - 60 * MIN + i * 60 * MIN)
            .collect(),
        intensity: values.to_vec(),
    }
}

fn policy(text: &str) -> Policy {
    policy_from_text(text)
        .unwrap_or_else(|e| panic!("{text}: {e:?}"))
        .0
}

fn run(t: &Topology, w: &Workload, c: Option<&CarbonTrace>, p: &Policy, seed: u64) -> SimResult {
    simulate(
        Scenario {
            topology: t,
            workload: w,
            carbon: c,
            policy: p,
            seed,
            quantum_ms: 60_000,
        },
        Options::default(),
    )
}

fn groups() -> impl Strategy<Value = Vec<GroupSpec>> {
    prop::collection::vec(
        (
            1u32..4,
            1u32..17,
            prop::sample::select(vec![1000.0, 2000.0, 2400.0]),
            1024i64..65_536,
            0.0f64..200.0,
            0.0f64..300.0,
        ),
        1..4,
    )
}

fn tasks(max_cores: u32) -> impl Strategy<Value = Vec<TaskIn>> {
    prop::collection::vec(
        (
            0i64..600,
            1i64..240,
            1u32..=max_cores,
            0.0f64..2400.0,
            0i64..70_000,
            any::<bool>(),
            0i64..600,
        ),
        1..25,
    )
}

/// A filter policy with VCpu and Ram filters at the given ratios, an InstanceCount filter of
/// the given limit, and random weighers.
fn filter_policy() -> impl Strategy<Value = (String, f64, f64, u32)> {
    (
        prop::sample::select(vec![0.5, 1.0, 1.5, 2.0, 4.0]),
        prop::sample::select(vec![0.5, 1.0, 1.5, 2.0]),
        prop::sample::subsequence(vec!["Ram", "CoreRam", "InstanceCount", "VCpu"], 0..3),
        any::<bool>(),
        0u32..3,
        any::<bool>(),
        1u32..6,
    )
        .prop_map(|(vcpu, ram, weighers, negative, subset, timeshift, limit)| {
            let m = if negative { -1.0 } else { 1.0 };
            let ws: Vec<String> = weighers
                .iter()
                .map(|w| format!(r#"{{"type":"{w}","multiplier":{m}}}"#))
                .collect();
            let kind = if timeshift { "timeshift" } else { "filter" };
            let text = format!(
                r#"{{"type":"{kind}","filters":[{{"type":"Compute"}},{{"type":"VCpu","allocationRatio":{vcpu}}},{{"type":"Ram","allocationRatio":{ram}}},{{"type":"InstanceCount","limit":{limit}}}],"weighers":[{}],"subsetSize":{},"memorize":true,"maxTimesSkipped":2}}"#,
                ws.join(","),
                subset + 1
            );
            (text, vcpu, ram, limit)
        })
}

/// The most cores, memory and tasks running together on each host at any instant (runs are
/// `[from, to)`: an end and a start at the same instant do not overlap).
fn peaks(r: &SimResult) -> HashMap<String, (u64, i64, i64)> {
    let mut events: HashMap<&str, Vec<(i64, i64, i64)>> = HashMap::new();
    for t in &r.tasks {
        for run in &t.runs {
            let e = events.entry(run.host.as_str()).or_default();
            e.push((run.from_ms, 1, 0));
            e.push((run.to_ms, -1, 0));
            let last = e.len() - 1;
            e[last - 1].2 = t.cpu_count as i64 * 1_000_000_000 + t.memory_mib;
            e[last].2 = t.cpu_count as i64 * 1_000_000_000 + t.memory_mib;
        }
    }
    let mut out = HashMap::new();
    for (host, mut e) in events {
        e.sort_by_key(|&(t, sign, _)| (t, sign));
        let (mut cores, mut mem, mut n, mut peak) = (0i64, 0i64, 0i64, (0u64, 0i64, 0i64));
        for (_, sign, packed) in e {
            cores += sign * (packed / 1_000_000_000);
            mem += sign * (packed % 1_000_000_000);
            n += sign;
            peak.0 = peak.0.max(cores as u64);
            peak.1 = peak.1.max(mem);
            peak.2 = peak.2.max(n);
        }
        out.insert(host.to_string(), peak);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Under VCpu, Ram and InstanceCount filters no host holds more than cores x ratio cores,
    /// memory x ratio MiB or `limit` tasks at once; every task ends completed (having run its duration) or terminated with a
    /// reason; no run starts before its task's submission.
    #[test]
    fn filters_bound_what_a_host_holds(
        g in groups(),
        ts in tasks(20),
        (text, vcpu, ram, limit) in filter_policy(),
        cv in prop::collection::vec(0.0f64..600.0, 0..30),
        seed in any::<u64>(),
    ) {
        let (t, w, p) = (topology(&g), workload(&ts), policy(&text));
        let c = (!cv.is_empty()).then(|| carbon(&cv));
        let r = run(&t, &w, c.as_ref(), &p, seed);
        let hosts: HashMap<&str, &policy_playground::sim::result::HostRecord> =
            r.hosts.iter().map(|h| (h.name.as_str(), h)).collect();
        for (name, (cores, mem, n)) in peaks(&r) {
            let h = hosts[name.as_str()];
            prop_assert!(n <= limit as i64, "{name}: {n} tasks under InstanceCount {limit}");
            prop_assert!(cores as f64 <= h.cores as f64 * vcpu, "{name}: {cores} cores on {} x {vcpu}", h.cores);
            prop_assert!(mem as f64 <= h.memory as f64 * ram, "{name}: {mem} MiB on {} x {ram}", h.memory);
        }
        prop_assert_eq!(r.tasks.len(), ts.len());
        for (task, spec) in r.tasks.iter().zip(&w.tasks) {
            prop_assert_eq!(task.submit_ms, spec.submission_ms - r.start_epoch_ms);
            for run in &task.runs {
                prop_assert!(run.from_ms >= task.submit_ms, "{task:?}");
                prop_assert!(run.to_ms > run.from_ms, "{task:?}");
            }
            match task.state {
                "completed" => {
                    let ran: i64 = task.runs.iter().map(|r| r.to_ms - r.from_ms).sum();
                    prop_assert_eq!(ran, spec.duration_ms, "{:?}", task);
                    prop_assert!(task.reason.is_none());
                }
                "terminated" => prop_assert!(task.reason.as_deref().is_some_and(|r| !r.is_empty()), "{task:?}"),
                other => prop_assert!(false, "state {other}"),
            }
            // A task too big for every host under the filters can never run; one that fits
            // an empty host (and there is no limit that stops the run) completes.
            let fits_some = g.iter().any(|&(_, cores, _, memory, _, _)| {
                spec.cpu_count as f64 <= cores as f64 * vcpu && spec.memory_mib as f64 <= memory as f64 * ram
            });
            if !fits_some {
                prop_assert_eq!(task.state, "terminated", "{:?}", task);
                prop_assert!(task.runs.is_empty());
            }
        }
        prop_assert_eq!(r.metrics.tasks_completed + r.metrics.tasks_terminated, ts.len() as u64);
    }

    /// Energy is the idle part plus the dynamic part, both >= 0; the idle part is the idle power
    /// of every host times the makespan; the same seed gives the same result, bit for bit.
    #[test]
    fn energy_splits_and_runs_repeat(
        g in groups(),
        ts in tasks(8),
        (text, _, _, _) in filter_policy(),
        cv in prop::collection::vec(0.0f64..600.0, 0..30),
        seed in any::<u64>(),
    ) {
        let (t, w, p) = (topology(&g), workload(&ts), policy(&text));
        let c = (!cv.is_empty()).then(|| carbon(&cv));
        let r = run(&t, &w, c.as_ref(), &p, seed);
        let m = &r.metrics;
        let scale = m.energy_j.max(1.0);
        prop_assert!(m.idle_energy_j >= 0.0 && m.dynamic_energy_j >= -1e-9 * scale, "{m:?}");
        prop_assert!((m.idle_energy_j + m.dynamic_energy_j - m.energy_j).abs() <= 1e-9 * scale, "{m:?}");
        let idle_w: f64 = g.iter().map(|&(count, _, _, _, idle, _)| count as f64 * idle).sum();
        let expected = idle_w * m.makespan_ms as f64 / 1000.0;
        prop_assert!((m.idle_energy_j - expected).abs() <= 1e-9 * expected.max(1.0),
            "idle {} vs {idle_w} W x {} ms = {expected}", m.idle_energy_j, m.makespan_ms);
        let last_end = r.tasks.iter().map(|t| t.finish_ms).max().unwrap_or(0);
        prop_assert_eq!(m.makespan_ms, last_end);
        let again = run(&t, &w, c.as_ref(), &p, seed);
        prop_assert!(again == r, "a second run with seed {seed} differs");
    }

    /// A deferrable task never misses its deadline when a host that fits it stays free: there are
    /// as many hosts as tasks and each task needs more than half a host's cores, so a host is
    /// always free for every task, whatever the carbon trace defers.
    #[test]
    fn deadlines_hold_when_a_host_stays_free(
        specs in prop::collection::vec((0i64..600, 1i64..240, 0i64..900), 1..12),
        cv in prop::collection::vec(0.0f64..600.0, 1..40),
        forecast in any::<bool>(),
        short in 0.0f64..1.0,
        seed in any::<u64>(),
    ) {
        let n = specs.len() as u32;
        let g = [(n, 8, 2000.0, 16_384, 100.0, 100.0)];
        let ts: Vec<TaskIn> = specs.iter().map(|&(s, d, slack)| (s, d, 5, 1000.0, 1000, true, slack)).collect();
        let (t, w) = (topology(&g), workload(&ts));
        let p = policy(&format!(
            r#"{{"type":"timeshift","filters":[{{"type":"Compute"}},{{"type":"VCpu","allocationRatio":1.0}},{{"type":"Ram","allocationRatio":1.0}}],"weighers":[],"forecast":{forecast},"shortForecastThreshold":{short},"longForecastThreshold":0.5,"windowSize":4}}"#
        ));
        let c = carbon(&cv);
        let r = run(&t, &w, Some(&c), &p, seed);
        prop_assert_eq!(r.metrics.deadline_misses, 0, "{:?}", r.metrics);
        for task in &r.tasks {
            prop_assert_eq!(task.state, "completed", "{:?}", task);
            let deadline = task.deadline_ms.expect("a deadline");
            prop_assert!(task.finish_ms <= deadline, "{task:?}");
        }
    }
}
