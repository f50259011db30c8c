//! The result's series (SPEC 6.5): total power at its change points and averaged over windows,
//! and the task counts, against figures worked out by hand for small runs.

#[path = "explanations/fixtures.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "explanations/runs.rs"]
#[allow(dead_code)]
mod runs;

use policy_playground::policy::{Filter, Policy};
use policy_playground::sim::{Options, SimResult};
use runs::{task, with_simulation, Task};

/// VCpu(1) and no weigher, subset 1: every task goes to the first host with room (A, then B).
fn first_fit() -> Policy {
    let vcpu = Filter::VCpu {
        allocation_ratio: 1.0,
    };
    fixtures::policy(vec![vcpu], vec![], 1)
}

/// Hosts A and B of 4 cores at 2000 MHz (8000 MHz each), linear 100-200 W: idle 200 W in all.
fn run(tasks: &[Task], resolution_ms: i64) -> SimResult {
    let options = Options {
        series_resolution_ms: resolution_ms,
        ..Options::default()
    };
    with_simulation(
        &[("A", 4), ("B", 4)],
        tasks,
        None,
        &first_fit(),
        options,
        |mut sim| {
            while !sim.step(1 << 16) {}
            sim.finish()
        },
    )
}

/// Task 0 (1 core, 1000 MHz, 0-600 s) and task 1 (2 cores, 1000 MHz, 60-660 s) both on A:
/// A draws 100 + 100 x 1000/8000 = 112.5 W, then 100 + 100 x 2000/8000 = 125 W, then 112.5 W
/// again when task 0 ends, then idle; B idles at 100 W throughout.
#[test]
fn power_at_its_change_points() {
    let r = run(&[task(0, 600_000, 1), task(60_000, 600_000, 2)], 0);
    assert_eq!(r.tasks[0].host.as_deref(), Some("A"));
    assert_eq!(r.tasks[1].host.as_deref(), Some("A"));
    assert_eq!(
        r.series.power_w,
        vec![
            (0, 212.5),
            (60_000, 225.0),
            (600_000, 212.5),
            (660_000, 200.0)
        ]
    );
    assert_eq!(
        r.series.running_tasks,
        vec![(0, 1), (60_000, 2), (600_000, 1), (660_000, 0)]
    );
    // Per host: A ran both tasks, busy from 0 to 660 s; B ran none.
    let hosts: Vec<(&str, u64, i64)> = r
        .hosts
        .iter()
        .map(|h| (h.name.as_str(), h.tasks_run, h.busy_ms))
        .collect();
    assert_eq!(hosts, vec![("A", 2, 660_000), ("B", 0, 0)]);
}

/// The same run averaged over 100 s windows: [0, 100 s) holds 212.5 W for 60 s and 225 W for
/// 40 s, (212.5 x 60 + 225 x 40) / 100 = 217.5 W; the windows from 100 s to 600 s hold 225 W
/// throughout (one point); the last window, cut at the run's end (660 s), holds 212.5 W.
#[test]
fn power_averaged_over_windows() {
    let r = run(&[task(0, 600_000, 1), task(60_000, 600_000, 2)], 100_000);
    assert_eq!(r.series.resolution_ms, 100_000);
    assert_eq!(
        r.series.power_w,
        vec![(0, 217.5), (100_000, 225.0), (600_000, 212.5)]
    );
}

/// Energy is the integral of the same power: 200 W idle for 660 s is 132 000 J; the dynamic
/// part is 12.5 W x 600 s (task 0) + 12.5 W x 600 s (task 1) = 15 000 J.
#[test]
fn energy_integrates_the_power_series() {
    let r = run(&[task(0, 600_000, 1), task(60_000, 600_000, 2)], 0);
    assert_eq!(r.metrics.makespan_ms, 660_000);
    assert_eq!(r.metrics.dynamic_energy_j, 15_000.0);
    assert_eq!(r.metrics.energy_j, 132_000.0 + 15_000.0);
}
