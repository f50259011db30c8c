//! The queue's explanation at an instant (`Simulation::snapshot`): what runs, what waits and
//! why, in numbers worked out by hand from SPEC 6-7.

use super::fixtures::policy;
use super::runs::{hourly, task, with_simulation, Task, H};
use policy_playground::policy::prefab::TIMESHIFT_DEFAULTS;
use policy_playground::policy::{Filter, Policy, Timeshift};
use policy_playground::sim::queue::{QueueSnapshot, QueuedTask, RunningTask};
use policy_playground::sim::Options;

/// The VCpu(1) filter alone: a host keeps a task when it has enough free cores.
fn vcpu_policy() -> Policy {
    policy(
        vec![Filter::VCpu {
            allocation_ratio: 1.0,
        }],
        vec![],
        1,
    )
}

/// The snapshot after stepping the run to `time` (one host A of 4 cores unless told).
fn snapshot_at(p: &Policy, tasks: &[Task], time: i64) -> QueueSnapshot {
    with_simulation(
        &[("A", 4)],
        tasks,
        None,
        p,
        Options::default(),
        |mut sim| {
            sim.step_until(time);
            sim.snapshot(time)
        },
    )
}

/// Each queued task's `(id, position, fits_now, reason)`.
fn waiting(s: &QueueSnapshot) -> Vec<(&str, usize, Option<&str>, &str)> {
    s.queue
        .iter()
        .map(|q| {
            assert_eq!((q.state, &q.deferral), ("waiting", &None), "{q:?}");
            let fits = q.fits_now.as_deref();
            (q.task_id.as_str(), q.position, fits, q.reason.as_str())
        })
        .collect()
}

/// "1 host: 1 rejected by VCpu; none fits now", the summary when A is too full.
const FULL: &str = "1 host: 1 rejected by VCpu; none fits now";

/// At 60 s on A (4 cores): task 0 (1 core, 10 s) has completed, task 1 (8 cores) was
/// terminated at submission, task 2 (3 cores) runs since 20 s with 620 - 60 = 560 s left, so 1
/// core is free. The queue: 3 (2 cores) at the head fits nowhere; 4 (1 core) would fit but is
/// blocked behind 3; 5 (2 cores) fits nowhere either. Task 6 (at 30 min) is not submitted.
#[test]
fn the_queue_says_why_each_task_waits() {
    let m = 600_000;
    let tasks = [
        task(0, 10_000, 1),
        task(0, m, 8),
        task(20_000, m, 3),
        task(30_000, m, 2),
        task(30_000, m, 1),
        task(40_000, m, 2),
        task(30 * 60_000, m, 1),
    ];
    let s = snapshot_at(&vcpu_policy(), &tasks, 60_000);
    assert_eq!((s.time_ms, s.ended, s.next_cycle_ms), (60_000, false, None));
    assert_eq!((s.pending, s.completed, s.terminated), (1, 1, 1));
    let running = RunningTask {
        task_id: "2".into(),
        host: "A".into(),
        since_ms: 20_000,
        remaining_ms: 560_000,
    };
    assert_eq!(s.running, vec![running]);
    let blocked = "would fit A now, but waits behind the head task 3 (head-of-line blocking)";
    let behind =
        format!("behind the head task 3 (head-of-line blocking); no host fits it either: {FULL}");
    assert_eq!(
        waiting(&s),
        vec![
            (
                "3",
                0,
                None,
                format!("no host fits it now: {FULL}").as_str()
            ),
            ("4", 1, Some("A"), blocked),
            ("5", 2, None, behind.as_str()),
        ]
    );
}

/// A task that fits waits only for the cycle: task 1, submitted at 0.5 s while task 0 runs on
/// 1 of A's 4 cores, fits A and waits for the cycle at the next multiple of the 1 s quantum.
#[test]
fn a_fitting_task_waits_for_the_next_cycle() {
    let tasks = [task(0, 600_000, 1), task(500, 600_000, 1)];
    let s = snapshot_at(&vcpu_policy(), &tasks, 500);
    assert_eq!(s.next_cycle_ms, Some(1000));
    let reason = "fits A; waits for the next scheduling cycle at t = 1 s";
    assert_eq!(waiting(&s), vec![("1", 0, Some("A"), reason)]);
}

/// Under the memorizing scheduler with maxTimesSkipped 1: task 0 (3 cores) runs, 1 free core.
/// At 0, tasks 1 and 2 (2 cores) fit nowhere and are passed over once each. At 5 s task 3
/// (1 core) arrives; the cycle stops at the head (1), passed over as often as allowed, so 3 is
/// never tried although it fits.
#[test]
fn memorizing_explains_passed_over_tasks() {
    let mut p = vcpu_policy();
    (p.memorize, p.max_times_skipped) = (true, 1);
    let m = 600_000;
    let tasks = [
        task(0, m, 3),
        task(0, m, 2),
        task(0, m, 2),
        task(5_000, m, 1),
    ];
    let s = snapshot_at(&p, &tasks, 60_000);
    let passed = format!("no host fits it now ({FULL}); passed over 1 of 1 times");
    let fits = "fits A; waits for the next scheduling cycle behind a task passed over 1 times";
    assert_eq!(
        waiting(&s),
        vec![
            (
                "1",
                0,
                None,
                format!("no host fits it now: {FULL}").as_str()
            ),
            ("2", 1, None, passed.as_str()),
            ("3", 2, Some("A"), fits),
        ]
    );
}

/// A deferred task shows its deferral test at the instant and its latest start. Window mode of
/// size 2 over hourly samples 100, 300, ...: at 0 the mean of [100] is 100, not low, so the
/// task (1 h, deadline 5 h) is deferred. At 30 min: slack 5 h - (0.5 h + 1 h) = 3.5 h =
/// 12 600 000 ms; it starts at the latest at 5 h - 1 h = 14 400 000 ms.
#[test]
fn a_deferred_task_shows_its_slack_and_latest_start() {
    let mut p = policy(vec![], vec![], 1);
    p.timeshift = Some(Timeshift {
        forecast: false,
        window_size: 2,
        ..TIMESHIFT_DEFAULTS
    });
    let carbon = hourly(&[100.0, 300.0, 50.0, 50.0, 50.0, 50.0]);
    let tasks = [Task {
        deadline: Some(5 * H),
        ..task(0, H, 1)
    }];
    let s = with_simulation(
        &[("A", 4)],
        &tasks,
        Some(&carbon),
        &p,
        Options::default(),
        |mut sim| {
            sim.step_until(H / 2);
            sim.snapshot(H / 2)
        },
    );
    let [q]: &[QueuedTask; 1] = s.queue.as_slice().try_into().expect("one queued task");
    assert_eq!(
        (
            q.task_id.as_str(),
            q.state,
            q.since_ms,
            q.fits_now.as_deref()
        ),
        ("0", "deferred", 0, None)
    );
    assert_eq!(
        q.reason,
        "deferred since t = 0 s (carbon intensity is not low: deferred, can still wait \
         3 h 30 min); it starts at the latest at t = 4 h"
    );
    let d = q.deferral.as_ref().expect("the deferral test");
    assert_eq!(
        (d.deferred, d.current_intensity, d.reference_intensity),
        (true, Some(100.0), Some(100.0))
    );
    assert_eq!(
        (d.now_ms, d.remaining_ms, d.slack_ms),
        (H / 2, H, Some(12_600_000))
    );
}

/// Only the first 100 queue entries get a host search: with 101 tasks waiting behind a full
/// host, the entry at position 99 is explained in full and the one at position 100 is
/// "further back in the queue", without a host.
#[test]
fn only_the_first_100_queued_tasks_are_searched() {
    let mut tasks = vec![task(0, 600_000, 4)];
    tasks.extend((0..101).map(|_| task(1_000, 600_000, 1)));
    let s = snapshot_at(&vcpu_policy(), &tasks, 2_000);
    let w = waiting(&s);
    assert_eq!(w.len(), 101);
    let behind =
        format!("behind the head task 1 (head-of-line blocking); no host fits it either: {FULL}");
    assert_eq!(w[99], ("100", 99, None, behind.as_str()));
    assert_eq!(w[100], ("101", 100, None, "further back in the queue"));
}

/// Running tasks are listed in the order they were placed, not by id: task 1 (submitted at
/// 0) is placed before task 0 (submitted at 10 s); at 20 s both run on A.
#[test]
fn running_tasks_are_listed_in_placement_order() {
    let tasks = [task(10_000, H, 1), task(0, H, 1)];
    let s = snapshot_at(&vcpu_policy(), &tasks, 20_000);
    let order: Vec<(&str, i64)> = s
        .running
        .iter()
        .map(|r| (r.task_id.as_str(), r.since_ms))
        .collect();
    assert_eq!(order, vec![("1", 0), ("0", 10_000)]);
}
