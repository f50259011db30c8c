//! The carbon what-ifs (beyond OpenDC, `crate::whatif`): shifting and scaling the carbon trace
//! on a one-task run worked out by hand, the forecast error (none at 0, its own generator, never
//! on the carbon charged) and a sweep over it.

use policy_playground::api::handles::{Handles, RunOptions, Session};
use policy_playground::model::*;
use policy_playground::policy::policy_from_text;
use policy_playground::request::{CarbonReference, Inputs, RunRequest};
use policy_playground::sim::SimResult;
use policy_playground::sweep::SweepSpec;
use serde_json::{json, Value};

const H: i64 = 3_600_000;
const EPOCH: i64 = 1_700_000_000_000;

/// One host of 4 cores at 1000 MHz, linear power 100-200 W.
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

/// One task of 1 core (1000 MHz, a quarter of the host) for one hour from time 0.
fn one_task() -> Workload {
    Workload {
        tasks: vec![TaskSpec {
            id: "t".into(),
            name: "t".into(),
            submission_ms: EPOCH,
            duration_ms: H,
            cpu_count: 1,
            cpu_capacity_mhz: 1000.0,
            memory_mib: 10,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable: false,
            deadline_ms: None,
            fragments: 0..0,
        }],
        ..Workload::default()
    }
}

/// Hourly samples 100, 200, 300, 400 gCO2/kWh from time 0: the span is 4 h.
fn trace() -> CarbonTrace {
    CarbonTrace {
        timestamps_ms: (0..4).map(|i| EPOCH + i * H).collect(),
        intensity: vec![100.0, 200.0, 300.0, 400.0],
    }
}

fn run_with(options: RunOptions) -> SimResult {
    let (t, w, c) = (topology(), one_task(), trace());
    let policy = policy_from_text(r#"{"type": "prefab", "policyName": "Mem"}"#)
        .expect("a policy")
        .0;
    let inputs = Inputs {
        topology: &t,
        workload: &w,
        carbon: Some(&c),
    };
    let mut request = RunRequest::new(inputs, &policy, CarbonReference::NotFollowed);
    request.options = options;
    request.run(&mut |_| {}).expect("runs").result
}

/// The task runs 0-1 h on the host at u = 1/4: 125 W, so 450 000 J (360 000 idle, 90 000
/// dynamic), 0.125 kWh. Its carbon is 0.125 kWh x the intensity it sees (0.1 and 0.025 kWh for
/// the idle and dynamic parts).
fn carbon(r: &SimResult) -> (f64, f64, f64) {
    let m = &r.metrics;
    assert_eq!(
        (m.energy_j, m.idle_energy_j, m.dynamic_energy_j),
        (450_000.0, 360_000.0, 90_000.0)
    );
    assert_eq!(m.makespan_ms, H);
    let g = |x: Option<f64>| x.expect("carbon figures");
    (g(m.carbon_g), g(m.idle_carbon_g), g(m.dynamic_carbon_g))
}

fn close(a: (f64, f64, f64), b: (f64, f64, f64)) {
    for (x, y) in [(a.0, b.0), (a.1, b.1), (a.2, b.2)] {
        assert!((x - y).abs() <= 1e-9 * y.abs().max(1.0), "{a:?} != {b:?}");
    }
}

#[test]
fn the_trace_as_given_prices_the_hour_at_its_first_sample() {
    // 0.125 kWh x 100 = 12.5 g: 10 g idle, 2.5 g dynamic.
    close(carbon(&run_with(RunOptions::default())), (12.5, 10.0, 2.5));
}

#[test]
fn a_shift_reads_the_trace_later_and_wraps_round_its_span() {
    let shifted = |ms| {
        carbon(&run_with(RunOptions {
            carbon_shift_ms: Some(ms),
            ..RunOptions::default()
        }))
    };
    // Two hours later: 300 -> 37.5 g (30 idle, 7.5 dynamic).
    close(shifted(2 * H), (37.5, 30.0, 7.5));
    // One hour earlier wraps round the 4 h span to the last sample: 400 -> 50 g.
    close(shifted(-H), (50.0, 40.0, 10.0));
    // Half an hour: 0-30 min sees 100, 30-60 min sees 200: 0.0625 x 300 = 18.75 g.
    close(shifted(H / 2), (18.75, 15.0, 3.75));
    // A whole span is no shift at all.
    assert_eq!(
        run_with(RunOptions {
            carbon_shift_ms: Some(4 * H),
            ..RunOptions::default()
        }),
        run_with(RunOptions::default())
    );
}

#[test]
fn a_scale_multiplies_the_carbon_and_leaves_the_energy() {
    let scaled = |k, shift| {
        carbon(&run_with(RunOptions {
            carbon_scale: Some(k),
            carbon_shift_ms: shift,
            ..RunOptions::default()
        }))
    };
    close(scaled(0.5, None), (6.25, 5.0, 1.25));
    // Shifted by 2 h (300) and halved: 150 -> 18.75 g.
    close(scaled(0.5, Some(2 * H)), (18.75, 15.0, 3.75));
    close(scaled(0.0, None), (0.0, 0.0, 0.0));
}

#[test]
fn bad_what_ifs_are_refused_by_name() {
    let (t, w, c) = (topology(), one_task(), trace());
    let policy = policy_from_text(r#"{"type": "prefab"}"#)
        .expect("a policy")
        .0;
    let inputs = Inputs {
        topology: &t,
        workload: &w,
        carbon: Some(&c),
    };
    let mut request = RunRequest::new(inputs, &policy, CarbonReference::NotFollowed);
    request.options.carbon_scale = Some(-2.0);
    request.options.forecast_error = Some(11.0);
    let errors = request.run(&mut |_| {}).expect_err("refused");
    let messages: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`carbonScale` must be a number in [0, 1000], found -2",
            "`forecastError` must be a number in [0, 10] (a relative standard deviation: 0.1 is 10 %), found 11"
        ]
    );
}

// ---- the forecast error, on the teaching sample ------------------------------------------------

fn teaching() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../www/samples/teaching/scenario.json"
    ))
    .expect("the teaching sample");
    serde_json::from_str(&text).expect("JSON")
}

/// A session holding the teaching sample's inputs (with `edit` applied to the scenario first).
fn session(edit: impl FnOnce(&mut Value)) -> (Session, Handles) {
    let mut scenario = teaching();
    edit(&mut scenario);
    let mut s = Session::new();
    let loaded = match s.load_scenario(&scenario.to_string()) {
        policy_playground::api::Answer::Success { value } => value,
        other => panic!("the teaching sample loads: {other:?}"),
    };
    let h = Handles {
        topology: loaded.topology.handle,
        workload: loaded.workload.handle,
        carbon: loaded.carbon.map(|c| c.handle),
    };
    (s, h)
}

fn result_json(s: &mut Session, h: &Handles, policy: &str, options: RunOptions) -> String {
    match s.run(h, policy, &options) {
        policy_playground::api::Answer::Success { value } => {
            serde_json::to_string(&value.result).expect("JSON")
        }
        other => panic!("the run fails: {other:?}"),
    }
}

const TIMESHIFT: &str = r#"{"type": "prefab", "policyName": "Timeshift"}"#;
const STOPPER: &str = r#"{"type": "timeshift", "taskStopper": {}}"#;

#[test]
fn a_forecast_error_of_zero_is_no_option_byte_for_byte() {
    let (mut s, h) = session(|_| {});
    for policy in [TIMESHIFT, STOPPER] {
        let none = result_json(&mut s, &h, policy, RunOptions::default());
        let zero = RunOptions {
            forecast_error: Some(0.0),
            ..RunOptions::default()
        };
        assert_eq!(none, result_json(&mut s, &h, policy, zero), "{policy}");
        // A real error changes what the policy decides.
        let noisy = RunOptions {
            forecast_error: Some(0.3),
            ..RunOptions::default()
        };
        assert_ne!(none, result_json(&mut s, &h, policy, noisy), "{policy}");
    }
}

/// The noise has a generator of its own: with no deferrable task, the forecast changes the
/// regime series but nothing a task does, and the random draws of `subsetSize` 3 place every
/// task on the same host as without the error (were the noise drawn from the run's generator,
/// the draws after the first forecast would differ).
#[test]
fn the_noise_does_not_draw_from_the_runs_generator() {
    let (mut s, h) = session(|scenario| {
        for task in scenario["workload"]["tasks"].as_array_mut().expect("tasks") {
            task["deferrable"] = json!(false);
        }
    });
    let policy = r#"{"type": "timeshift", "subsetSize": 3, "memorize": false}"#;
    let run = |s: &mut Session, error: Option<f64>| -> Value {
        let o = RunOptions {
            forecast_error: error,
            ..RunOptions::default()
        };
        serde_json::from_str(&result_json(s, &h, policy, o)).expect("JSON")
    };
    let (plain, noisy) = (run(&mut s, None), run(&mut s, Some(0.5)));
    assert_eq!(plain["tasks"], noisy["tasks"]);
    assert_ne!(plain["series"]["regime"], noisy["series"]["regime"]);
    // The draws are there: the same policy under another seed places tasks elsewhere.
    let other = RunOptions {
        seed: 1,
        ..RunOptions::default()
    };
    let reseeded: Value =
        serde_json::from_str(&result_json(&mut s, &h, policy, other)).expect("JSON");
    assert_ne!(plain["tasks"], reseeded["tasks"]);
}

/// The carbon charged is the trace's: on one host at a fixed load, whatever the forecast, the
/// idle carbon of the same makespan is the same.
#[test]
fn the_noise_is_never_on_the_intensity_charged() {
    let (mut s, h) = session(|_| {});
    let mem = r#"{"type": "prefab", "policyName": "Mem"}"#;
    // Mem reads no forecast: the option changes nothing but adds a warning saying so.
    let plain: Value =
        serde_json::from_str(&result_json(&mut s, &h, mem, RunOptions::default())).expect("JSON");
    let o = RunOptions {
        forecast_error: Some(0.5),
        ..RunOptions::default()
    };
    let noisy: Value = serde_json::from_str(&result_json(&mut s, &h, mem, o)).expect("JSON");
    assert_eq!(plain["metrics"], noisy["metrics"]);
    let warnings = noisy["warnings"].as_array().expect("warnings");
    assert!(
        warnings.iter().any(|w| w["path"] == "forecastError"),
        "{warnings:?}"
    );
    // Under Timeshift the carbon intensity series (what is charged) is the trace's.
    let ts_plain: Value =
        serde_json::from_str(&result_json(&mut s, &h, TIMESHIFT, RunOptions::default()))
            .expect("JSON");
    let o = RunOptions {
        forecast_error: Some(0.5),
        ..RunOptions::default()
    };
    let ts_noisy: Value =
        serde_json::from_str(&result_json(&mut s, &h, TIMESHIFT, o)).expect("JSON");
    let series = |r: &Value| r["series"]["carbonIntensity"].as_array().cloned();
    let (a, b) = (series(&ts_plain).expect("a"), series(&ts_noisy).expect("b"));
    let common = a.len().min(b.len());
    assert!(common > 90, "{common}");
    assert_eq!(a[..common], b[..common]);
}

/// A sweep over the forecast error: each point's runs are single runs with that error, and the
/// same seeds give the same report.
#[test]
fn a_sweep_over_the_forecast_error_is_deterministic_per_seed() {
    let (mut s, h) = session(|_| {});
    let spec = SweepSpec {
        parameter: "forecastError".into(),
        values: vec![json!(0), json!(0.2), json!(0.5)],
        seeds: Some(3),
    };
    let options = RunOptions {
        seed: 4,
        ..RunOptions::default()
    };
    let sweep = |s: &Session| match s.sweep(&h, TIMESHIFT, &options, &spec, &mut |_, _| {}) {
        policy_playground::api::Answer::Success { value } => value,
        other => panic!("the sweep fails: {other:?}"),
    };
    let report = sweep(&s);
    assert_eq!(report, sweep(&s));
    assert_eq!(report.seeds, [4, 5, 6]);
    for point in &report.points {
        for (k, seed) in report.seeds.iter().enumerate() {
            let single = RunOptions {
                seed: *seed,
                forecast_error: point.value.as_f64(),
                ..RunOptions::default()
            };
            let r: SimResult = match s.run(&h, TIMESHIFT, &single) {
                policy_playground::api::Answer::Success { value } => value.result,
                other => panic!("{other:?}"),
            };
            assert_eq!(
                point.runs[k], r.metrics,
                "error {} seed {seed}",
                point.value
            );
        }
    }
    // At 0 the seeds agree (Timeshift draws nothing); with noise they differ.
    let spread = |p: usize| report.points[p].summary["dynamicCarbonG"].clone();
    assert_eq!(spread(0)["min"], spread(0)["max"]);
    assert_ne!(spread(2)["min"], spread(2)["max"]);
    // A value out of range is refused before anything runs, naming it.
    let bad = SweepSpec {
        values: vec![json!(-1)],
        ..spec.clone()
    };
    match s.sweep(&h, TIMESHIFT, &options, &bad, &mut |_, _| {}) {
        policy_playground::api::Answer::Failure { errors } => {
            assert_eq!(errors[0].path, "sweep.values[0]");
            assert!(
                errors[0].message.starts_with("forecastError = -1: "),
                "{}",
                errors[0].message
            );
        }
        other => panic!("accepted: {other:?}"),
    }
}

/// The what-ifs of a scenario file: a run of the file is the session's run with those options,
/// the page's scenario export writes them (and reads back to the same run), and a bad value is
/// refused by its key.
#[test]
fn a_scenario_file_holds_its_what_ifs() {
    let what_ifs = RunOptions {
        carbon_shift_ms: Some(-3_600_000),
        carbon_scale: Some(0.5),
        forecast_error: Some(0.2),
        ..RunOptions::default()
    };
    let (mut s, h) = session(|_| {});
    let direct = result_json(&mut s, &h, TIMESHIFT, what_ifs.clone());
    let plain = result_json(&mut s, &h, TIMESHIFT, RunOptions::default());
    assert_ne!(direct, plain, "the what-ifs change the run");

    let mut scenario = teaching();
    scenario["policy"] = serde_json::from_str(TIMESHIFT).unwrap();
    scenario["carbonShiftMs"] = json!(-3_600_000);
    scenario["carbonScale"] = json!(0.5);
    scenario["forecastError"] = json!(0.2);
    let from_file = match policy_playground::api::simulate(&scenario.to_string()) {
        policy_playground::api::Answer::Success { value } => serde_json::to_string(&value).unwrap(),
        other => panic!("the scenario runs: {other:?}"),
    };
    assert_eq!(from_file, direct);

    // The session's scenario export with the what-ifs set: the same keys, the same run.
    let exported = match s.export_scenario(&h, TIMESHIFT, &what_ifs) {
        policy_playground::api::Answer::Success { value } => value,
        other => panic!("the export: {other:?}"),
    };
    let doc: Value = serde_json::from_str(&exported).unwrap();
    assert_eq!(
        (
            &doc["carbonShiftMs"],
            &doc["carbonScale"],
            &doc["forecastError"]
        ),
        (&json!(-3_600_000), &json!(0.5), &json!(0.2))
    );
    let loaded = match s.load_scenario(&exported) {
        policy_playground::api::Answer::Success { value } => value,
        other => panic!("the export loads: {other:?}"),
    };
    assert_eq!(
        (
            loaded.carbon_shift_ms,
            loaded.carbon_scale,
            loaded.forecast_error
        ),
        (Some(-3_600_000), Some(0.5), Some(0.2))
    );
    let again = match policy_playground::api::simulate(&exported) {
        policy_playground::api::Answer::Success { value } => serde_json::to_string(&value).unwrap(),
        other => panic!("the export runs: {other:?}"),
    };
    assert_eq!(again, direct);
    // Without what-ifs the export has none of the keys.
    let none = match s.export_scenario(&h, TIMESHIFT, &RunOptions::default()) {
        policy_playground::api::Answer::Success { value } => value,
        other => panic!("the export: {other:?}"),
    };
    assert!(!none.contains("carbonShiftMs") && !none.contains("forecastError"));

    // Bad values, each refused by its key.
    for (key, value, says) in [
        ("carbonScale", json!(-1), "must be a number in [0, 1000]"),
        ("forecastError", json!("high"), "must be a number"),
        ("carbonShiftMs", json!(1.5), "must be an integer (ms)"),
    ] {
        let mut bad = teaching();
        bad[key] = value;
        match policy_playground::api::simulate(&bad.to_string()) {
            policy_playground::api::Answer::Failure { errors } => assert!(
                errors
                    .iter()
                    .any(|e| e.path == key && e.message.contains(says)),
                "{key}: {errors:?}"
            ),
            policy_playground::api::Answer::Success { .. } => panic!("{key} accepted"),
        }
    }
}
