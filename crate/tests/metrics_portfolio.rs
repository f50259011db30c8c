//! The metrics added with the portfolio (SPEC 6.6): mean turnaround, bounded slowdown with its
//! 10 s bound, and load imbalance, each worked out by hand on a small run.

#[path = "explanations/fixtures.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "explanations/runs.rs"]
#[allow(dead_code)]
mod runs;

use policy_playground::policy::Filter;
use policy_playground::sim::{Options, SimResult};
use runs::{task, with_simulation};

/// One host of 4 cores, a VCpu filter, quantum 1 s. Task 0 (4 cores, 4 s) runs 0-4 s; task 1
/// (4 cores, 20 s, submitted at 0) waits for it and runs 4-24 s; task 2 (4 cores, 2 s,
/// submitted at 1 s) waits for both and runs 24-26 s; task 3 (8 cores) fits no host and is
/// rejected at its submission (2 s): terminated, so in none of the figures.
fn run() -> SimResult {
    let vcpu = Filter::VCpu {
        allocation_ratio: 1.0,
    };
    let p = fixtures::policy(vec![vcpu], vec![], 1);
    let tasks = [
        task(0, 4_000, 4),
        task(0, 20_000, 4),
        task(1_000, 2_000, 4),
        task(2_000, 60_000, 8),
    ];
    with_simulation(&[("A", 4)], &tasks, None, &p, Options::default(), |sim| {
        sim.run()
    })
}

#[test]
fn turnaround_and_bounded_slowdown_by_hand() {
    let r = run();
    let finish: Vec<(i64, &str)> = r.tasks.iter().map(|t| (t.finish_ms, t.state)).collect();
    assert_eq!(
        finish,
        [
            (4_000, "completed"),
            (24_000, "completed"),
            (26_000, "completed"),
            (2_000, "terminated")
        ]
    );
    let m = &r.metrics;
    // Turnarounds 4 s, 24 s and 25 s.
    assert_eq!(
        m.mean_turnaround_ms,
        Some((4_000.0 + 24_000.0 + 25_000.0) / 3.0)
    );
    // Bounded slowdowns: task 0 took 4 s for 4 s of work, but shorter than the 10 s bound:
    // max(1, 4 / 10) = 1; task 1: 24 s / 20 s = 1.2; task 2: 25 s / max(2 s, 10 s) = 2.5.
    let slowdowns: Vec<Option<f64>> = r.tasks.iter().map(|t| t.bounded_slowdown()).collect();
    assert_eq!(slowdowns, [Some(1.0), Some(1.2), Some(2.5), None]);
    assert_eq!(m.mean_bounded_slowdown, Some((1.0 + 1.2 + 2.5) / 3.0));
    // Nearest rank of 3 values at 95 %: ceil(2.85) = 3, the largest.
    assert_eq!(m.p95_bounded_slowdown, Some(2.5));
    // One host: nothing to be uneven.
    assert_eq!(m.load_imbalance, 0.0);
}

#[test]
fn without_a_completed_task_the_figures_are_null() {
    let vcpu = Filter::VCpu {
        allocation_ratio: 1.0,
    };
    let p = fixtures::policy(vec![vcpu], vec![], 1);
    let r = with_simulation(
        &[("A", 4)],
        &[task(0, 1_000, 8)],
        None,
        &p,
        Options::default(),
        |sim| sim.run(),
    );
    let m = &r.metrics;
    assert_eq!(m.tasks_completed, 0);
    assert_eq!(
        (
            m.mean_turnaround_ms,
            m.mean_bounded_slowdown,
            m.p95_bounded_slowdown
        ),
        (None, None, None)
    );
    assert_eq!(m.load_imbalance, 0.0);
    let json = serde_json::to_value(m).unwrap();
    for key in [
        "meanTurnaroundMs",
        "meanBoundedSlowdown",
        "p95BoundedSlowdown",
    ] {
        assert!(json[key].is_null(), "{key}: {json}");
    }
    assert_eq!(json["loadImbalance"], 0.0);
}

/// Hosts A, B and C of 4 cores, a VCpu filter and no weigher (so the first host that fits):
/// task 0 (4 cores, 10 s) on A, task 1 (4 cores, 30 s) on B, both from 0; C stays idle. Busy
/// times 10 s, 30 s, 0: mean 40/3 s; population variance ((10-40/3)^2 + (30-40/3)^2 +
/// (40/3)^2) / 3 = 1400/9 s^2; imbalance sqrt(1400/9) / (40/3) = 0.935414...
#[test]
fn load_imbalance_by_hand() {
    let vcpu = Filter::VCpu {
        allocation_ratio: 1.0,
    };
    let p = fixtures::policy(vec![vcpu], vec![], 1);
    let tasks = [task(0, 10_000, 4), task(0, 30_000, 4)];
    let r = with_simulation(
        &[("A", 4), ("B", 4), ("C", 4)],
        &tasks,
        None,
        &p,
        Options::default(),
        |sim| sim.run(),
    );
    let busy: Vec<(&str, i64)> = r
        .hosts
        .iter()
        .map(|h| (h.name.as_str(), h.busy_ms))
        .collect();
    assert_eq!(busy, [("A", 10_000), ("B", 30_000), ("C", 0)]);
    let want = (1400.0f64 / 9.0).sqrt() / (40.0 / 3.0);
    assert!((want - 0.935_414_346_693_485_4).abs() < 1e-15);
    let got = r.metrics.load_imbalance;
    assert!((got - want).abs() < 1e-12, "{got} for {want}");
    // Per host, the mean utilisation over the 30 s run: each task uses 1000 of the host's
    // 4 x 2000 MHz, u = 1/8, on A for 10 s and on B for 30 s; their mean is the run's.
    let util: Vec<f64> = r.hosts.iter().map(|h| h.mean_utilization).collect();
    assert_eq!(util, [1250.0 / 30_000.0, 0.125, 0.0]);
    let mean = util.iter().sum::<f64>() / 3.0;
    assert!((mean - r.metrics.mean_utilization).abs() < 1e-15, "{mean}");
}
