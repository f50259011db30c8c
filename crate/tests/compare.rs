//! Comparisons of runs (SPEC 7's common window; `crate::compare`): energy and carbon over the
//! latest end of the runs compared, worked out by hand for a small run, and the comparison
//! table of the page, from the session's kept runs.

#[path = "explanations/fixtures.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "explanations/runs.rs"]
#[allow(dead_code)]
mod runs;

use policy_playground::api::compare::CompareRequest;
use policy_playground::api::handles::{parse_request, Session};
use policy_playground::api::Answer;
use policy_playground::compare::{compare, ComparedRun, RowView, Verdict};
use policy_playground::policy::Filter;
use policy_playground::sim::result::Metrics;
use policy_playground::sim::window::window_figures;
use policy_playground::sim::{Options, SimResult};
use runs::{hourly, task, topology, with_simulation, H};
use serde_json::Value;

/// Hosts A and B (4 cores at 2000 MHz, 100-200 W: 200 W idle in all), task 0 (1 core, 0-600 s)
/// and task 1 (2 cores, 60-660 s) both on A, under hourly carbon 100 then 400 g/kWh. The run
/// ends at 660 s with 15 000 J of dynamic energy, all in the first hour: 15 000 / 3.6e6 kWh x
/// 100 g/kWh = 0.41667 g of dynamic carbon.
fn small_run() -> SimResult {
    let vcpu = Filter::VCpu {
        allocation_ratio: 1.0,
    };
    let p = fixtures::policy(vec![vcpu], vec![], 1);
    let carbon = hourly(&[100.0, 400.0]);
    let tasks = [task(0, 600_000, 1), task(60_000, 600_000, 2)];
    with_simulation(
        &[("A", 4), ("B", 4)],
        &tasks,
        Some(&carbon),
        &p,
        Options::default(),
        |sim| sim.run(),
    )
}

#[test]
fn a_window_at_the_run_end_gives_the_run_figures_bit_for_bit() {
    let r = small_run();
    let m = &r.metrics;
    assert_eq!(m.makespan_ms, 660_000);
    assert_eq!(m.dynamic_energy_j, 15_000.0);
    let carbon = hourly(&[100.0, 400.0]);
    let topology = topology(&[("A", 4), ("B", 4)]);
    // A window that ends before the run is the run's own.
    for end in [660_000, 1000] {
        let w = window_figures(&topology, Some(&carbon), m, r.start_epoch_ms, end);
        assert_eq!(w.window_end_ms, 660_000);
        assert_eq!(w.window_energy_j.to_bits(), m.energy_j.to_bits());
        assert_eq!(w.window_idle_energy_j.to_bits(), m.idle_energy_j.to_bits());
        assert_eq!(w.window_carbon_g, m.carbon_g);
        assert_eq!(w.window_idle_carbon_g, m.idle_carbon_g);
    }
}

/// To 2 h: 200 W idle for 7200 s is 1 440 000 J; its carbon is 200 W x (1 h at 100 + 1 h at
/// 400 g/kWh) = 0.2 kW x 500 g/kWh h = 100 g. The dynamic parts stay the run's.
#[test]
fn a_longer_window_adds_idle_energy_and_its_carbon() {
    let r = small_run();
    let m = &r.metrics;
    let carbon = hourly(&[100.0, 400.0]);
    let topology = topology(&[("A", 4), ("B", 4)]);
    let w = window_figures(&topology, Some(&carbon), m, r.start_epoch_ms, 2 * H);
    assert_eq!(w.window_end_ms, 2 * H);
    assert_eq!(w.window_idle_energy_j, 1_440_000.0);
    assert_eq!(w.window_energy_j, 1_455_000.0);
    let idle_c = w.window_idle_carbon_g.expect("a run with carbon");
    assert!((idle_c - 100.0).abs() < 1e-9, "{idle_c}");
    let dynamic_c = m.dynamic_carbon_g.expect("a run with carbon");
    assert!(
        (dynamic_c - 15_000.0 / 3.6e6 * 100.0).abs() < 1e-12,
        "{dynamic_c}"
    );
    assert_eq!(w.window_carbon_g, Some(idle_c + dynamic_c));
    // Without a trace there is no carbon, in the window either.
    let w = window_figures(&topology, None, m, r.start_epoch_ms, 2 * H);
    assert_eq!((w.window_carbon_g, w.window_idle_carbon_g), (None, None));
}

/// Two runs by hand: A ends at 1 h, B at 2 h, both with 100 W of idle power.
fn hand_metrics(makespan_ms: i64, energy_j: f64, wait_ms: f64, utilization: f64) -> Metrics {
    Metrics {
        tasks_completed: 10,
        makespan_ms,
        mean_wait_ms: Some(wait_ms),
        energy_j,
        idle_energy_j: 100.0 * makespan_ms as f64 / 1000.0,
        dynamic_energy_j: energy_j - 100.0 * makespan_ms as f64 / 1000.0,
        mean_utilization: utilization,
        ..Metrics::default()
    }
}

#[test]
fn the_table_shows_figures_differences_and_the_window() {
    let a = hand_metrics(H, 500_000.0, 41_000.0, 0.5);
    let b = hand_metrics(2 * H, 800_000.0, 3_412_400.0, 0.25);
    let window = |m: &Metrics| {
        let t = topology(&[("A", 1)]); // 100 W idle
        window_figures(&t, None, m, 0, 2 * H)
    };
    let runs = [
        ComparedRun {
            label: "A".into(),
            metrics: &a,
            window: window(&a),
        },
        ComparedRun {
            label: "B".into(),
            metrics: &b,
            window: window(&b),
        },
    ];
    let c = compare(&runs, 0);
    assert_eq!((c.window_end_ms, c.windowed), (2 * H, true));
    assert!(
        c.window_note.contains("to 2 h, the latest end"),
        "{}",
        c.window_note
    );
    let row = |key: &str| {
        c.rows
            .iter()
            .find(|r| r.key == key)
            .unwrap_or_else(|| panic!("no row {key}"))
    };
    // Durations read in adaptive units; a longer wait is worse.
    let wait = row("meanWaitMs");
    assert_eq!(wait.view, RowView::Both);
    assert_eq!(wait.cells[0].text, "41 s");
    assert_eq!(wait.cells[1].text, "56 min 52 s");
    let d = wait.cells[1].difference.as_ref().expect("B differs from A");
    assert_eq!(d.text, "+56 min 11 s (×83.2)");
    assert_eq!(d.verdict, Verdict::Worse);
    assert!(wait.cells[0].difference.is_none());
    // Energy per run: A 0.139 kWh, B 0.222 kWh (+60 %); over the window A's hosts idle for
    // one more hour at 100 W: 500 000 + 360 000 = 860 000 J, 0.239 kWh, and B is better (-6.98 %).
    let energy = row("energyJ");
    assert_eq!(energy.view, RowView::PerRun);
    assert_eq!(energy.cells[0].text, "0.139 kWh");
    let d = energy.cells[1].difference.as_ref().expect("a difference");
    assert_eq!(
        (d.text.as_str(), d.verdict),
        ("+0.083 kWh (+60 %)", Verdict::Worse)
    );
    let windowed = row("windowEnergyJ");
    assert_eq!(windowed.view, RowView::Window);
    assert_eq!(windowed.cells[0].value, Some(860_000.0));
    assert_eq!(windowed.cells[0].text, "0.239 kWh");
    let d = windowed.cells[1].difference.as_ref().expect("a difference");
    assert_eq!(
        (d.text.as_str(), d.verdict),
        ("−0.017 kWh (−7.0 %)", Verdict::Better)
    );
    // The window row follows its per-run row.
    let at = |key: &str| c.rows.iter().position(|r| r.key == key);
    assert_eq!(at("windowEnergyJ"), at("energyJ").map(|i| i + 1));
    // A difference of percentages is in percentage points.
    let util = row("meanUtilization");
    let d = util.cells[1].difference.as_ref().expect("a difference");
    assert_eq!(d.text, "−25.00 pp (−50 %)");
    // Equal figures are the same, whatever the direction.
    let done = row("tasksCompleted");
    let d = done.cells[1].difference.as_ref().expect("a difference");
    assert_eq!((d.text.as_str(), d.verdict), ("=", Verdict::Same));
}

#[test]
fn runs_of_one_length_have_no_window_rows() {
    let a = hand_metrics(H, 500_000.0, 41_000.0, 0.5);
    let t = topology(&[("A", 1)]);
    let runs = [ComparedRun {
        label: "A".into(),
        metrics: &a,
        window: window_figures(&t, None, &a, 0, H),
    }];
    let c = compare(&runs, 0);
    assert!(!c.windowed && c.window_note.is_empty());
    assert!(c.rows.iter().all(|r| r.view == RowView::Both));
    assert!(c.rows.iter().all(|r| !r.key.starts_with("window")));
}

fn value<T: serde::Serialize>(a: Answer<T>) -> Value {
    match a {
        Answer::Success { value } => serde_json::to_value(value).expect("serializable"),
        Answer::Failure { errors } => panic!("failure: {errors:?}"),
    }
}

/// The teaching sample under Mem and under Timeshift (which ends later): the session compares
/// the kept runs; the later run's window figures are its own, the earlier one's idle energy
/// grows by its idle power (its idle energy over its length) times the extra time.
#[test]
fn the_session_compares_kept_runs() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../www/samples/teaching/scenario.json"
    ))
    .expect("the teaching sample");
    let mut s = Session::new();
    let loaded = value(s.load_scenario(&text));
    let handles = serde_json::json!({
        "topology": loaded["topology"]["handle"], "workload": loaded["workload"]["handle"],
        "carbon": loaded["carbon"]["handle"],
    });
    let (h, o) = parse_request(&handles.to_string(), "{}").expect("valid handles");
    let mem = value(s.run(&h, r#"{"type":"prefab","policyName":"Mem"}"#, &o));
    let ts = value(s.run(&h, r#"{"type":"prefab","policyName":"Timeshift"}"#, &o));
    let (ma, mb) = (&mem["result"]["metrics"], &ts["result"]["metrics"]);
    let (ea, eb) = (
        ma["makespanMs"].as_i64().unwrap(),
        mb["makespanMs"].as_i64().unwrap(),
    );
    assert!(eb > ea, "Timeshift ends later: {eb} against {ea}");
    let request = CompareRequest {
        runs: vec![
            mem["run"].as_u64().unwrap() as u32,
            ts["run"].as_u64().unwrap() as u32,
        ],
        labels: Some(vec!["Mem".into(), "Timeshift".into()]),
        baseline: Some(0),
    };
    let c = value(s.compare(&request));
    assert_eq!(c["windowEndMs"].as_i64(), Some(eb));
    assert_eq!(c["labels"], serde_json::json!(["Mem", "Timeshift"]));
    let cells = |key: &str| {
        c["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["key"] == key)
            .unwrap()["cells"]
            .clone()
    };
    let idle = cells("windowIdleEnergyJ");
    assert_eq!(idle[1]["value"], mb["idleEnergyJ"]);
    let idle_power = ma["idleEnergyJ"].as_f64().unwrap() / (ea as f64 / 1000.0);
    let expected = ma["idleEnergyJ"].as_f64().unwrap() + idle_power * (eb - ea) as f64 / 1000.0;
    let got = idle[0]["value"].as_f64().unwrap();
    assert!(
        (got - expected).abs() <= 1e-9 * expected,
        "{got} against {expected}"
    );
    let carbon = cells("windowCarbonG");
    assert_eq!(carbon[1]["value"], mb["carbonG"]);
    assert!(carbon[0]["value"].as_f64().unwrap() > ma["carbonG"].as_f64().unwrap());
    // A bad request names what is wrong.
    let bad = CompareRequest {
        runs: vec![1, 2],
        labels: Some(vec!["only one".into()]),
        baseline: None,
    };
    let Answer::Failure { errors } = s.compare(&bad) else {
        panic!("two runs with one label must fail")
    };
    assert_eq!(errors[0].message, "1 labels for 2 runs: give one per run");
    let Answer::Failure { errors } = s.compare(&CompareRequest {
        runs: vec![],
        labels: None,
        baseline: None,
    }) else {
        panic!("no run must fail")
    };
    assert!(errors[0]
        .message
        .starts_with("a comparison takes 1 to 256 runs"));
    let text = s.compare_json_str(r#"{"runs": [1], "baselin": 0}"#);
    assert!(text.contains("unknown field `baselin`"), "{text}");
}
