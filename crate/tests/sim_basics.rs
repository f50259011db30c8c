//! OpenDC's end-to-end expectations and the simulator's core rules, on topologies and
//! workloads built in the test (the readers have their own tests).

use policy_playground::model::*;
use policy_playground::policy::{policy_from_text, Policy};
use policy_playground::sim::{simulate, Options, Scenario, SimResult};

const MIN: i64 = 60_000;

/// One cluster of `count` hosts of `cores` cores at `speed` MHz, linear 100-200 W.
fn topology(count: u32, cores: u32, speed: f64, memory: i64) -> Topology {
    Topology {
        clusters: vec![ClusterSpec {
            name: "C01".into(),
            groups: vec![HostGroup {
                name: "H01".into(),
                count,
                cores,
                core_speed_mhz: speed,
                memory_mib: memory,
                gpus: vec![],
                power: PowerModel::Linear {
                    idle: 100.0,
                    max: 200.0,
                },
            }],
        }],
        carbon_ref: None,
        warnings: vec![],
    }
}

/// Tasks of one fragment each: (submission ms, duration ms, cpu usage MHz, cores).
fn workload(tasks: &[(i64, i64, f64, u32)]) -> Workload {
    let mut w = Workload::default();
    for (i, &(submit, duration, usage, cores)) in tasks.iter().enumerate() {
        let start = w.fragments.begin_task();
        w.fragments.push(duration, usage);
        w.tasks.push(TaskSpec {
            id: i.to_string(),
            name: format!("task-{i}"),
            submission_ms: 1_700_000_000_000 + submit,
            duration_ms: duration,
            cpu_count: cores,
            cpu_capacity_mhz: usage,
            memory_mib: 100,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable: false,
            deadline_ms: None,
            fragments: start..w.fragments.end(),
        });
    }
    w
}

fn policy(text: &str) -> Policy {
    policy_from_text(text).expect("valid policy").0
}

fn run(t: &Topology, w: &Workload, p: &Policy) -> SimResult {
    simulate(
        Scenario {
            topology: t,
            workload: w,
            carbon: None,
            policy: p,
            seed: 0,
            quantum_ms: 1000,
        },
        Options::default(),
    )
}

#[test]
fn one_task_at_half_load_on_single_1_2000() {
    // u = 1000 / 2000 = 0.5 -> 150 W for 600 s = 90 000 J.
    let r = run(
        &topology(1, 1, 2000.0, 140_457_600_000),
        &workload(&[(0, 10 * MIN, 1000.0, 1)]),
        &policy(r#"{"type":"prefab","policyName":"Mem"}"#),
    );
    assert_eq!(r.metrics.makespan_ms, 600_000);
    assert_eq!(r.metrics.energy_j, 90_000.0);
    assert_eq!(r.metrics.idle_energy_j, 60_000.0);
    assert_eq!(r.metrics.dynamic_energy_j, 30_000.0);
    assert_eq!(r.metrics.tasks_completed, 1);
}

#[test]
fn two_tasks_together_on_single_2_2000() {
    // 2 x 1000 MHz on 4000 MHz: u = 0.5 -> 150 W for 600 s.
    let r = run(
        &topology(1, 2, 2000.0, 140_457_600_000),
        &workload(&[(0, 10 * MIN, 1000.0, 1), (0, 10 * MIN, 1000.0, 1)]),
        &policy(r#"{"type":"prefab","policyName":"Mem"}"#),
    );
    assert_eq!(r.metrics.makespan_ms, 600_000);
    assert_eq!(r.metrics.energy_j, 90_000.0);
    assert_eq!(r.metrics.mean_wait_ms, Some(0.0));
}

#[test]
fn a_later_task_after_an_idle_gap() {
    // 0-600 s at 150 W (90 000 J), idle 600-1200 s at 100 W (60 000 J), 1200-1500 s at 200 W (60 000 J).
    let r = run(
        &topology(1, 1, 2000.0, 140_457_600_000),
        &workload(&[(0, 10 * MIN, 1000.0, 1), (20 * MIN, 5 * MIN, 2000.0, 1)]),
        &policy(r#"{"type":"prefab","policyName":"Mem"}"#),
    );
    assert_eq!(r.metrics.makespan_ms, 1_500_000);
    assert_eq!(r.metrics.energy_j, 210_000.0);
}

#[test]
fn memorizing_makes_the_second_task_wait() {
    // Both at 0 on one core: 0-600 s at 150 W, then 600-900 s at 200 W = 150 000 J.
    let r = run(
        &topology(1, 1, 2000.0, 140_457_600_000),
        &workload(&[(0, 10 * MIN, 1000.0, 1), (0, 5 * MIN, 2000.0, 1)]),
        &policy(r#"{"type":"prefab","policyName":"TaskNumMemorizing"}"#),
    );
    assert_eq!(r.metrics.makespan_ms, 900_000);
    assert_eq!(r.metrics.energy_j, 150_000.0);
    assert_eq!(r.tasks[1].wait_ms, Some(600_000));
    assert_eq!(r.metrics.p95_wait_ms, Some(600_000));
}

#[test]
fn a_task_wider_than_every_host_is_terminated_at_submission() {
    let r = run(
        &topology(2, 16, 2000.0, 1000),
        &workload(&[(0, MIN, 1000.0, 32), (0, MIN, 1000.0, 4)]),
        &policy(r#"{"type":"prefab","policyName":"Mem"}"#),
    );
    assert_eq!(r.metrics.tasks_terminated, 1);
    assert_eq!(r.metrics.tasks_completed, 1);
    assert_eq!(r.tasks[0].state, "terminated");
    assert_eq!(
        r.tasks[0].reason.as_deref(),
        Some("needs 32 cores, the largest host has 16")
    );
    assert_eq!(r.tasks[0].finish_ms, 0);
    assert_eq!(r.tasks[1].finish_ms, MIN);
}

#[test]
fn submissions_wait_for_the_next_multiple_of_the_quantum() {
    // Submitted at 1500 ms, quantum 1000: the cycle is at 2000 ms; time 0 is the first submission.
    let t = topology(1, 4, 2000.0, 1000);
    let w = workload(&[(0, 1000, 100.0, 1), (1500, 1000, 100.0, 1)]);
    let p = policy(r#"{"type":"prefab","policyName":"Mem"}"#);
    let r = run(&t, &w, &p);
    assert_eq!(r.tasks[1].start_ms, Some(2000));
    assert_eq!(r.tasks[1].wait_ms, Some(500));
    let r = simulate(
        Scenario {
            topology: &t,
            workload: &w,
            carbon: None,
            policy: &p,
            seed: 0,
            quantum_ms: 7,
        },
        Options::default(),
    );
    assert_eq!(r.tasks[1].start_ms, Some(1505));
}

#[test]
fn head_of_line_blocking_under_a_filter_policy_and_backfill_under_memorizing() {
    // One 4-core host: task 0 takes 3 cores for 10 min; task 1 needs 4 (waits); task 2 needs 1.
    let t = topology(1, 4, 1000.0, 1000);
    let w = workload(&[
        (0, 10 * MIN, 100.0, 3),
        (0, MIN, 100.0, 4),
        (0, MIN, 100.0, 1),
    ]);
    let r = run(&t, &w, &policy(r#"{"type":"prefab","policyName":"Mem"}"#));
    assert_eq!(
        r.tasks[2].start_ms,
        Some(11 * MIN),
        "blocked behind task 1 until it has run"
    );
    let r = run(
        &t,
        &w,
        &policy(r#"{"type":"prefab","policyName":"TaskNumMemorizing"}"#),
    );
    assert_eq!(r.tasks[2].start_ms, Some(0), "passed over task 1");
}

#[test]
fn same_seed_same_bytes_and_subset_size_draws() {
    let t = topology(8, 4, 1000.0, 1000);
    let tasks: Vec<(i64, i64, f64, u32)> = (0..40).map(|i| (i * 1000, 5 * MIN, 100.0, 1)).collect();
    let w = workload(&tasks);
    let p = policy(r#"{"type":"prefab","policyName":"Random"}"#);
    let a = |seed| {
        serde_json::to_string(&simulate(
            Scenario {
                topology: &t,
                workload: &w,
                carbon: None,
                policy: &p,
                seed,
                quantum_ms: 1000,
            },
            Options::default(),
        ))
        .unwrap()
    };
    assert_eq!(a(0), a(0));
    assert_ne!(a(0), a(1));
}

fn run_with(t: &Topology, w: &Workload, p: &Policy, options: Options) -> SimResult {
    simulate(
        Scenario {
            topology: t,
            workload: w,
            carbon: None,
            policy: p,
            seed: 0,
            quantum_ms: 1000,
        },
        options,
    )
}

#[test]
fn the_simulated_time_limit_ends_the_run_at_the_limit() {
    // One host, 2 cores of 2000 MHz, 100-200 W. Task 0 runs 0-30 min, task 1 from 0 for 3 h,
    // task 2 arrives at 2 h. With a 1 h limit: 0-30 min at u = 2000/4000 (150 W), 30-60 min at
    // u = 1000/4000 (125 W): 270 000 + 225 000 J; idle 100 W x 3600 s.
    let hour = 60 * MIN;
    let r = run_with(
        &topology(1, 2, 2000.0, 1 << 20),
        &workload(&[
            (0, 30 * MIN, 1000.0, 1),
            (0, 3 * hour, 1000.0, 1),
            (2 * hour, 10 * MIN, 1000.0, 1),
        ]),
        &policy(r#"{"type":"prefab","policyName":"Mem"}"#),
        Options {
            max_time_ms: hour,
            ..Options::default()
        },
    );
    let states: Vec<_> = r.tasks.iter().map(|t| (t.state, t.finish_ms)).collect();
    assert_eq!(
        states,
        [
            ("completed", 30 * MIN),
            ("terminated", hour),
            ("terminated", 2 * hour)
        ]
    );
    let limit = "the run reached the simulated-time limit of 1 h";
    assert!(r.tasks[1].reason.as_deref().unwrap().contains(limit));
    assert!(r.tasks[2]
        .reason
        .as_deref()
        .unwrap()
        .ends_with("before its submission"));
    assert_eq!(r.tasks[2].start_ms, None);
    assert_eq!(r.metrics.makespan_ms, hour);
    assert_eq!(r.metrics.energy_j, 495_000.0);
    assert_eq!(r.metrics.idle_energy_j, 360_000.0);
    assert_eq!(r.metrics.tasks_terminated, 2);
    assert!(r.warnings.iter().any(|d| d.message.contains(limit)));
}

/// One task of ten 1-min fragments of the same usage (the simulator steps over their boundaries
/// at once): the instant limit still counts every boundary. Five instants are its submission at
/// 0 and the boundaries at 1-4 min, so the run stops at 4 min; ten are not enough to complete it
/// (the submission and nine boundaries, the completion at 10 min is the eleventh), eleven are.
#[test]
fn the_instant_limit_counts_the_boundaries_of_fragments_of_the_same_usage() {
    let one = workload(&[(0, 10 * MIN, 500.0, 1)]);
    let mut w = Workload::default();
    w.push_task(one.tasks[0].clone(), vec![(MIN, 500.0); 10]);
    let t = topology(1, 2, 2000.0, 1 << 20);
    let p = policy(r#"{"type":"prefab","policyName":"Mem"}"#);
    let end = |max_instants: u64| {
        let options = Options {
            max_instants,
            ..Options::default()
        };
        let r = run_with(&t, &w, &p, options);
        (r.tasks[0].state, r.tasks[0].finish_ms)
    };
    assert_eq!(end(5), ("terminated", 4 * MIN));
    assert_eq!(end(10), ("terminated", 9 * MIN));
    assert_eq!(end(11), ("completed", 10 * MIN));
}

#[test]
fn the_instant_limit_ends_the_run_at_its_last_instant() {
    // Tasks of 1 min every 10 min on an idle host: each takes two instants (its submission and
    // placement, its completion). Five instants: tasks 0 and 1 complete, task 2 starts at 20 min
    // and is stopped there, tasks 3 and 4 end at their submissions.
    let tasks: Vec<(i64, i64, f64, u32)> = (0..5).map(|i| (i * 10 * MIN, MIN, 500.0, 1)).collect();
    let r = run_with(
        &topology(1, 2, 2000.0, 1 << 20),
        &workload(&tasks),
        &policy(r#"{"type":"prefab","policyName":"Mem"}"#),
        Options {
            max_instants: 5,
            ..Options::default()
        },
    );
    let states: Vec<_> = r.tasks.iter().map(|t| (t.state, t.finish_ms)).collect();
    assert_eq!(
        states,
        [
            ("completed", MIN),
            ("completed", 11 * MIN),
            ("terminated", 20 * MIN),
            ("terminated", 30 * MIN),
            ("terminated", 40 * MIN)
        ]
    );
    assert_eq!(r.tasks[2].start_ms, Some(20 * MIN));
    let limit = "stopped: the run reached the limit of 5 instants";
    assert!(r.tasks[2].reason.as_deref().unwrap().contains(limit));
    assert_eq!(r.metrics.makespan_ms, 20 * MIN);
    // The default limit lets the same run finish.
    let r = run(
        &topology(1, 2, 2000.0, 1 << 20),
        &workload(&tasks),
        &policy(r#"{"type":"prefab","policyName":"Mem"}"#),
    );
    assert_eq!(r.metrics.tasks_completed, 5);
}
