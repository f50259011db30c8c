//! A run stepped piece by piece (the page's progress bar, the queue at an instant) is the run
//! done in one call, its progress counts every ended task, and the limits fall where SPEC 6.1
//! puts them; worked out by hand for small runs.

#[path = "explanations/fixtures.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "explanations/runs.rs"]
#[allow(dead_code)]
mod runs;

use policy_playground::policy::{policy_from_text, Filter, Policy};
use policy_playground::sim::{Options, SimResult, Simulation};
use runs::{hourly, task, with_simulation, Task, H};

const MIN: i64 = 60_000;

/// VCpu(1) and no weigher: every task goes to the first host with room.
fn first_fit() -> Policy {
    let vcpu = Filter::VCpu {
        allocation_ratio: 1.0,
    };
    fixtures::policy(vec![vcpu], vec![], 1)
}

/// Time-shifting in window mode (2 samples) with the task stopper, no memorizing.
fn timeshift_with_stopper() -> Policy {
    let text = r#"{"type": "timeshift", "filters": [{"type": "Compute"}], "weighers": [],
        "forecast": false, "windowSize": 2, "memorize": false,
        "taskStopper": {"forecast": false, "windowSize": 2}}"#;
    policy_from_text(text).expect("a valid policy").0
}

/// A deferrable task of 3 h with its deadline at 24 h.
fn deferrable() -> Task {
    Task {
        deadline: Some(24 * H),
        ..task(0, 3 * H, 1)
    }
}

/// `tasks` on one host A of 4 cores, driven by `drive`.
fn on_a<T>(
    tasks: &[Task],
    carbon: Option<&policy_playground::model::CarbonTrace>,
    p: &Policy,
    options: Options,
    drive: impl FnOnce(Simulation) -> T,
) -> T {
    with_simulation(&[("A", 4)], tasks, carbon, p, options, drive)
}

/// The result as the CLI would print it, to compare whole results.
fn json(r: &SimResult) -> String {
    serde_json::to_string(r).expect("a result serializes")
}

/// Task 0 needs 8 cores (rejected at 0), task 1 runs 0-1 h, task 2 runs 30 min-90 min. One
/// instant at a time: 0 (task 0 ends), 30 min, 1 h (task 1 ends), 90 min (task 2 ends).
#[test]
fn progress_counts_every_ended_task_instant_by_instant() {
    let tasks = [task(0, H, 8), task(0, H, 1), task(30 * MIN, H, 1)];
    let seen = on_a(&tasks, None, &first_fit(), Options::default(), |mut sim| {
        let mut seen = vec![(sim.progress(), sim.done())];
        for _ in 0..4 {
            let over = sim.step(1);
            seen.push((sim.progress(), over));
        }
        seen
    });
    let third = 1.0 / 3.0;
    assert_eq!(
        seen,
        vec![
            (0.0, false),
            (third, false),
            (third, false),
            (2.0 * third, false),
            (1.0, true)
        ]
    );
}

/// Five tasks of 1 min every 10 min, stopped after five instants (as in sim_basics): the run
/// has ended, every task counts as ended, and stepping on changes nothing.
#[test]
fn a_run_stopped_at_a_limit_is_over_and_complete() {
    let tasks: Vec<Task> = (0..5).map(|i| task(i * 10 * MIN, MIN, 1)).collect();
    let options = Options {
        max_instants: 5,
        ..Options::default()
    };
    let (progress, done, again) = on_a(&tasks, None, &first_fit(), options, |mut sim| {
        while !sim.step(1) {}
        (sim.progress(), sim.done(), sim.step(1))
    });
    assert_eq!((progress, done, again), (1.0, true, true));
}

/// The task stopper's run (deferred 0-1 h, runs 1-2 h, paused and deferred 2-3 h, runs 3-5 h,
/// see sim_timeshift): stepped one instant at a time, or to each hour with `step_until`, it is
/// the run done in one call, byte for byte.
#[test]
fn stepping_in_pieces_gives_the_run_of_one_call() {
    let carbon = hourly(&[100.0, 50.0, 500.0, 100.0, 100.0, 100.0]);
    let tasks = [deferrable(), task(30 * MIN, 4 * H, 1)];
    let p = timeshift_with_stopper();
    let once = on_a(&tasks, Some(&carbon), &p, Options::default(), |sim| {
        sim.run()
    });
    assert_eq!(once.tasks[0].finish_ms, 5 * H);
    assert_eq!(once.metrics.paused_tasks, 1);
    let by_instant = on_a(&tasks, Some(&carbon), &p, Options::default(), |mut sim| {
        while !sim.step(1) {}
        sim.finish()
    });
    assert_eq!(json(&by_instant), json(&once));
    let by_hour = on_a(&tasks, Some(&carbon), &p, Options::default(), |mut sim| {
        for hour in 0..6 {
            sim.step_until(hour * H);
        }
        while !sim.step(1 << 16) {}
        sim.finish()
    });
    assert_eq!(json(&by_hour), json(&once));
}

/// `step_until` stops at the instant limit as `step` does: five tasks of 1 min every 10 min
/// with a limit of 5 instants end as in sim_basics whether or not the queue was looked at
/// on the way.
#[test]
fn step_until_keeps_the_instant_limit() {
    let tasks: Vec<Task> = (0..5).map(|i| task(i * 10 * MIN, MIN, 1)).collect();
    let options = Options {
        max_instants: 5,
        ..Options::default()
    };
    let once = on_a(&tasks, None, &first_fit(), options.clone(), |sim| sim.run());
    assert_eq!(once.metrics.makespan_ms, 20 * MIN);
    let looked = on_a(&tasks, None, &first_fit(), options, |mut sim| {
        sim.step_until(H);
        while !sim.step(1 << 16) {}
        sim.finish()
    });
    assert_eq!(json(&looked), json(&once));
}

/// An instant exactly at the simulated-time limit still happens: a task ending at the limit
/// completes, and nothing is said about the limit.
#[test]
fn an_instant_at_the_time_limit_happens() {
    let options = Options {
        max_time_ms: H,
        ..Options::default()
    };
    let r = on_a(&[task(0, H, 1)], None, &first_fit(), options, |sim| {
        sim.run()
    });
    assert_eq!(r.tasks[0].state, "completed");
    assert_eq!(r.tasks[0].finish_ms, H);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

/// The stopper's run counts a deferred task as deferred, not as queued: deferred 0-1 h and
/// 2-3 h, running 1-2 h and 3-5 h, never waiting for a host.
#[test]
fn deferred_tasks_are_not_counted_as_queued() {
    let carbon = hourly(&[100.0, 50.0, 500.0, 100.0, 100.0, 100.0]);
    let p = timeshift_with_stopper();
    let r = on_a(
        &[deferrable()],
        Some(&carbon),
        &p,
        Options::default(),
        |sim| sim.run(),
    );
    assert_eq!(
        r.series.deferred_tasks,
        vec![(0, 1), (H, 0), (2 * H, 1), (3 * H, 0)]
    );
    assert_eq!(
        r.series.running_tasks,
        vec![(0, 0), (H, 1), (2 * H, 0), (3 * H, 1), (5 * H, 0)]
    );
    assert_eq!(r.series.queued_tasks, vec![(0, 0)]);
}

/// Under time-shifting with a trace longer than the run, the regime is followed only while
/// the run lasts: no regime point after its end (1 h, a task that is not deferrable).
#[test]
fn the_regime_stops_with_the_run() {
    let carbon = hourly(&[100.0, 50.0, 500.0, 100.0, 10.0, 900.0]);
    let p = timeshift_with_stopper();
    let r = on_a(
        &[task(0, H, 1)],
        Some(&carbon),
        &p,
        Options::default(),
        |sim| sim.run(),
    );
    assert_eq!(r.metrics.makespan_ms, H);
    let times: Vec<i64> = r.series.regime.iter().map(|p| p.time_ms).collect();
    assert_eq!(times, vec![0, H]);
}
