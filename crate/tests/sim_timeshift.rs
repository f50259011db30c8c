//! Time-shifting in whole runs (SPEC 7): deferral while the regime is not low, the latest start,
//! the task stopper, with carbon traces and expectations worked out by hand.

use policy_playground::model::*;
use policy_playground::policy::policy_from_text;
use policy_playground::sim::{simulate, Options, Scenario, SimResult};

const H: i64 = 3_600_000;
const EPOCH: i64 = 1_700_000_000_000;

fn topology() -> Topology {
    Topology {
        clusters: vec![ClusterSpec {
            name: "C".into(),
            groups: vec![HostGroup {
                name: "H".into(),
                count: 1,
                cores: 4,
                core_speed_mhz: 1000.0,
                memory_mib: 1000,
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

/// One deferrable task without fragments: submitted at 0, `duration`, deadline `deadline`.
fn workload(duration: i64, deadline: i64) -> Workload {
    Workload {
        tasks: vec![TaskSpec {
            id: "t".into(),
            name: "t".into(),
            submission_ms: EPOCH,
            duration_ms: duration,
            cpu_count: 1,
            cpu_capacity_mhz: 1000.0,
            memory_mib: 10,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable: true,
            deadline_ms: Some(EPOCH + deadline),
            fragments: 0..0,
        }],
        ..Workload::default()
    }
}

/// Hourly samples from time 0.
fn trace(values: &[f64]) -> CarbonTrace {
    CarbonTrace {
        timestamps_ms: (0..values.len() as i64).map(|i| EPOCH + i * H).collect(),
        intensity: values.to_vec(),
    }
}

fn run(policy: &str, w: &Workload, c: &CarbonTrace) -> SimResult {
    run_with(policy, w, c, Options::default())
}

fn run_with(policy: &str, w: &Workload, c: &CarbonTrace, options: Options) -> SimResult {
    let p = policy_from_text(policy).expect("valid policy").0;
    let t = topology();
    simulate(
        Scenario {
            topology: &t,
            workload: w,
            carbon: Some(c),
            policy: &p,
            seed: 0,
            quantum_ms: 1000,
        },
        options,
    )
}

const PREFAB: &str = r#"{"type": "prefab", "policyName": "Timeshift"}"#;

#[test]
fn a_single_sample_trace_is_never_low_so_the_task_starts_at_its_latest_start() {
    // F = [v] at the end of the trace: v < v never holds. Latest start = 3 h - 1 h = 2 h.
    let r = run(PREFAB, &workload(H, 3 * H), &trace(&[100.0]));
    let t = &r.tasks[0];
    assert_eq!(t.start_ms, Some(2 * H));
    assert_eq!(t.finish_ms, 3 * H);
    assert_eq!(t.deferrals.len(), 1);
    assert_eq!((t.deferrals[0].from_ms, t.deferrals[0].to_ms), (0, 2 * H));
    assert_eq!(
        r.metrics.deadline_misses, 0,
        "finishing exactly at the deadline meets it"
    );
    assert_eq!(r.metrics.deferral_ms, 2 * H);
    assert_eq!(r.metrics.deferred_tasks, 1);
}

#[test]
fn deferral_lasts_only_while_the_regime_is_not_low() {
    // At 0: v = 300, F = [50, 400] -> short reference F[round(0.4)] = F[0] = 50: not low.
    // At 1 h: v = 50, F = [400] -> reference 400: low; the sample start triggers a cycle at 1 h.
    let r = run(
        PREFAB,
        &workload(H / 2, 10 * H),
        &trace(&[300.0, 50.0, 400.0]),
    );
    let t = &r.tasks[0];
    assert_eq!(t.start_ms, Some(H));
    assert_eq!((t.deferrals[0].from_ms, t.deferrals[0].to_ms), (0, H));
    assert!(!r.series.regime[0].short_low);
    assert!(r
        .series
        .regime
        .iter()
        .any(|p| p.time_ms == H && p.short_low));
    // Carbon: 100 W idle x 10.5 h ... dynamic: u = 1000 / 4000 = 0.25 -> 25 W for 0.5 h at 50 g/kWh.
    let dynamic = r.metrics.dynamic_carbon_g.unwrap();
    assert!(
        (dynamic - 25.0 * 0.5 * 50.0 / 1000.0).abs() < 1e-9,
        "{dynamic}"
    );
}

#[test]
fn a_task_is_not_deferred_past_its_deadline_when_a_host_is_free() {
    // now + remaining = 1 h, not < deadline 1 h: runs at once although carbon is high.
    let r = run(PREFAB, &workload(H, H), &trace(&[500.0, 10.0, 10.0]));
    assert_eq!(r.tasks[0].start_ms, Some(0));
    assert!(r.tasks[0].deferrals.is_empty());
}

#[test]
fn the_task_stopper_pauses_and_resumes_with_progress_kept() {
    // Window mode (2 samples). 0: [100] mean 100, not low -> deferred. 1 h: [100, 50] mean 75:
    // low -> starts. 2 h: [50, 500] mean 275: stopper high (500 > 275) -> paused with 2 h left;
    // not low -> deferred (2 h + 2 h < 24 h). 3 h: [500, 100] mean 300: low -> resumes, runs
    // its remaining 2 h, finishes at 5 h.
    let policy = r#"{"type": "timeshift", "filters": [{"type": "Compute"}], "weighers": [],
        "forecast": false, "windowSize": 2, "memorize": false,
        "taskStopper": {"forecast": false, "windowSize": 2}}"#;
    let r = run(
        policy,
        &workload(3 * H, 24 * H),
        &trace(&[100.0, 50.0, 500.0, 100.0, 100.0, 100.0]),
    );
    let t = &r.tasks[0];
    assert_eq!(t.start_ms, Some(H));
    assert_eq!(t.finish_ms, 5 * H);
    assert_eq!(t.pauses.len(), 1);
    assert_eq!((t.pauses[0].from_ms, t.pauses[0].to_ms), (2 * H, 3 * H));
    let deferrals: Vec<(i64, i64)> = t.deferrals.iter().map(|s| (s.from_ms, s.to_ms)).collect();
    assert_eq!(deferrals, vec![(0, H), (2 * H, 3 * H)]);
    let runs: Vec<(i64, i64)> = t.runs.iter().map(|s| (s.from_ms, s.to_ms)).collect();
    assert_eq!(runs, vec![(H, 2 * H), (3 * H, 5 * H)]);
    assert_eq!(r.metrics.paused_tasks, 1);
    assert_eq!(r.metrics.tasks_completed, 1);
    // Energy: 5 h idle at 100 W + 3 h at 25 W dynamic (u = 0.25).
    assert_eq!(r.metrics.idle_energy_j, 100.0 * 5.0 * 3600.0);
    assert_eq!(r.metrics.dynamic_energy_j, 25.0 * 3.0 * 3600.0);
    assert!(r
        .series
        .regime
        .iter()
        .any(|p| p.time_ms == 2 * H && p.stopper_high));
}

/// The stopper's run of the test above with the task made of six 30-min fragments of
/// different usages (1000, 500, 750, 250, 1000, 500 MHz on a host of 4000 MHz, 100-200 W):
/// paused at 2 h, exactly at the end of its second fragment, it resumes at 3 h with the third.
/// Dynamic power is 100 W x usage / 4000: 25, 12.5, then 18.75, 6.25, 25, 12.5 W, 30 min each:
/// (25 + 12.5 + 18.75 + 6.25 + 25 + 12.5) x 1800 s = 180 000 J. Its instants: 0, 1 h, 1.5 h,
/// 2 h, 2.5 h (the paused fragment's stale end), 3 h, 3.5 h, 4 h, 4.5 h, 5 h: ten, so a limit of
/// ten instants lets it complete and nine stop it at 4.5 h.
#[test]
fn the_task_stopper_resumes_a_task_of_fragments_at_the_fragment_it_reached() {
    let policy = r#"{"type": "timeshift", "filters": [{"type": "Compute"}], "weighers": [],
        "forecast": false, "windowSize": 2, "memorize": false,
        "taskStopper": {"forecast": false, "windowSize": 2}}"#;
    let base = workload(3 * H, 24 * H);
    let mut w = Workload::default();
    let usages = [1000.0, 500.0, 750.0, 250.0, 1000.0, 500.0];
    w.push_task(base.tasks[0].clone(), usages.map(|u| (H / 2, u)));
    let c = trace(&[100.0, 50.0, 500.0, 100.0, 100.0, 100.0]);
    let limited = |max_instants| Options {
        max_instants,
        ..Options::default()
    };
    let r = run_with(policy, &w, &c, limited(10));
    let t = &r.tasks[0];
    assert_eq!((t.state, t.finish_ms), ("completed", 5 * H));
    let runs: Vec<(i64, i64)> = t.runs.iter().map(|s| (s.from_ms, s.to_ms)).collect();
    assert_eq!(runs, vec![(H, 2 * H), (3 * H, 5 * H)]);
    assert_eq!(r.metrics.dynamic_energy_j, 180_000.0);
    assert_eq!(r.metrics.idle_energy_j, 100.0 * 5.0 * 3600.0);
    let r = run_with(policy, &w, &c, limited(9));
    assert_eq!(
        (r.tasks[0].state, r.tasks[0].finish_ms),
        ("terminated", 9 * H / 2)
    );
}

#[test]
fn a_non_deferrable_task_is_never_deferred() {
    let mut w = workload(H, 24 * H);
    w.tasks[0].deferrable = false;
    let r = run(PREFAB, &w, &trace(&[500.0, 400.0, 300.0]));
    assert_eq!(r.tasks[0].start_ms, Some(0));
}

#[test]
fn a_carbon_sample_during_an_idle_gap_does_not_start_a_later_task_early() {
    // Task 1 is submitted at 1.5 h, after an idle gap that holds the sample start at 1 h; time
    // must not go back to that sample once the task is queued.
    let mut w = workload(H / 2, 24 * H);
    let mut second = w.tasks[0].clone();
    second.id = "u".into();
    second.submission_ms = EPOCH + 3 * H / 2 + 7;
    second.deadline_ms = Some(EPOCH + 30 * H);
    w.tasks.push(second);
    for t in &mut w.tasks {
        t.deferrable = false;
    }
    let r = run(PREFAB, &w, &trace(&[100.0, 200.0, 300.0]));
    assert_eq!(r.tasks[1].submit_ms, 3 * H / 2 + 7);
    assert_eq!(r.tasks[1].start_ms, Some(3 * H / 2 + 1000));
}
