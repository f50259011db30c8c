//! The carbon intensity series of a result and the warnings about a carbon trace that does not
//! cover the run (SPEC 6.5, 7.1), for traces placed by hand around small runs.

#[path = "explanations/fixtures.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "explanations/runs.rs"]
#[allow(dead_code)]
mod runs;

use policy_playground::model::CarbonTrace;
use policy_playground::policy::{Filter, Policy};
use policy_playground::sim::{Options, SimResult};
use runs::{task, with_simulation, Task, EPOCH, H};

/// VCpu(1) and no weigher: no time-shifting, so the trace only prices the energy.
fn plain() -> Policy {
    let vcpu = Filter::VCpu {
        allocation_ratio: 1.0,
    };
    fixtures::policy(vec![vcpu], vec![], 1)
}

/// A trace of `(simulation time, intensity)` samples.
fn trace(samples: &[(i64, f64)]) -> CarbonTrace {
    CarbonTrace {
        timestamps_ms: samples.iter().map(|&(t, _)| EPOCH + t).collect(),
        intensity: samples.iter().map(|&(_, v)| v).collect(),
    }
}

/// `tasks` on one host of 4 cores under `p`, with `carbon`.
fn run(tasks: &[Task], carbon: Option<&CarbonTrace>, p: &Policy) -> SimResult {
    with_simulation(
        &[("A", 4)],
        tasks,
        carbon,
        p,
        Options::default(),
        |mut sim| {
            while !sim.step(1 << 16) {}
            sim.finish()
        },
    )
}

const ENDS_EARLY: &str = "the carbon trace ends before the run does";
const STARTS_LATE: &str = "the carbon trace starts after the first submission";
const NO_TRACE: &str = "a timeshift policy without a carbon trace";

/// The warnings of `r` that contain one of the three carbon messages, by message.
fn carbon_warnings(r: &SimResult) -> Vec<&'static str> {
    [ENDS_EARLY, STARTS_LATE, NO_TRACE]
        .into_iter()
        .filter(|m| r.warnings.iter().any(|d| d.message.contains(m)))
        .collect()
}

/// A run of 0-2 h under hourly samples from 0 to 3 h: the series holds the samples up to and
/// including the one starting at the run's end (2 h), each once; the trace covers the run.
#[test]
fn the_series_holds_the_samples_up_to_the_end_of_the_run() {
    let c = trace(&[(0, 10.0), (H, 20.0), (2 * H, 30.0), (3 * H, 40.0)]);
    let r = run(&[task(0, 2 * H, 1)], Some(&c), &plain());
    assert_eq!(r.metrics.makespan_ms, 2 * H);
    assert_eq!(
        r.series.carbon_intensity,
        vec![(0, 10.0), (H, 20.0), (2 * H, 30.0)]
    );
    assert_eq!(carbon_warnings(&r), Vec::<&str>::new());
}

/// Samples at -2 h, -1 h and 1 h: the one in force at time 0 is -1 h's (20), drawn from 0. The
/// run goes on to 1.5 h, past the last sample's start, so the trace is said to end early.
#[test]
fn the_series_starts_with_the_sample_in_force_at_zero() {
    let c = trace(&[(-2 * H, 10.0), (-H, 20.0), (H, 30.0)]);
    let r = run(&[task(0, 90 * 60_000, 1)], Some(&c), &plain());
    assert_eq!(r.series.carbon_intensity, vec![(0, 20.0), (H, 30.0)]);
    assert_eq!(carbon_warnings(&r), vec![ENDS_EARLY]);
}

/// Samples at 0 and 1 h, a run to 2 h: the last value is held for the last hour, and a
/// warning says so.
#[test]
fn a_trace_that_ends_before_the_run_is_warned_about() {
    let c = trace(&[(0, 10.0), (H, 20.0)]);
    let r = run(&[task(0, 2 * H, 1)], Some(&c), &plain());
    assert_eq!(r.series.carbon_intensity, vec![(0, 10.0), (H, 20.0)]);
    assert_eq!(carbon_warnings(&r), vec![ENDS_EARLY]);
}

/// A trace of one sample is a constant: it covers every run, however long.
#[test]
fn a_trace_of_one_sample_covers_the_run() {
    let c = trace(&[(0, 10.0)]);
    let r = run(&[task(0, 2 * H, 1)], Some(&c), &plain());
    assert_eq!(r.series.carbon_intensity, vec![(0, 10.0)]);
    assert_eq!(carbon_warnings(&r), Vec::<&str>::new());
}

/// A run that ends at time 0 (its only task is rejected at submission: 8 cores, the host has
/// 4) is covered by any trace, even one whose samples all lie before it.
#[test]
fn a_run_that_ends_at_zero_is_covered() {
    let c = trace(&[(-2 * H, 10.0), (-H, 20.0)]);
    let r = run(&[task(0, H, 8)], Some(&c), &plain());
    assert_eq!(r.metrics.tasks_terminated, 1);
    assert_eq!(r.metrics.makespan_ms, 0);
    assert_eq!(carbon_warnings(&r), Vec::<&str>::new());
}

/// Samples from 1 h on, a task submitted at 0: the first value (10) is held before 1 h, and a
/// warning says so; the trace's end (2 h) is the run's, so no other warning.
#[test]
fn a_trace_that_starts_after_the_first_submission_is_warned_about() {
    let c = trace(&[(H, 10.0), (2 * H, 20.0)]);
    let r = run(&[task(0, 2 * H, 1)], Some(&c), &plain());
    assert_eq!(r.series.carbon_intensity, vec![(0, 10.0), (2 * H, 20.0)]);
    assert_eq!(carbon_warnings(&r), vec![STARTS_LATE]);
}

/// Without a trace, only a timeshift policy is warned about (nothing is ever low-carbon).
#[test]
fn a_missing_trace_is_warned_about_only_under_timeshift() {
    let r = run(&[task(0, H, 1)], None, &plain());
    assert!(r.series.carbon_intensity.is_empty());
    assert_eq!(carbon_warnings(&r), Vec::<&str>::new());
    let timeshift = policy_playground::policy::policy_from_text(
        r#"{"type": "timeshift", "filters": [{"type": "Compute"}], "weighers": []}"#,
    )
    .expect("a valid timeshift policy")
    .0;
    let r = run(&[task(0, H, 1)], None, &timeshift);
    assert_eq!(carbon_warnings(&r), vec![NO_TRACE]);
}
