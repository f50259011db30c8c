//! The portfolio (issue 19), checked against independent computations: the Pareto front
//! against a brute force over random point sets with ties and equal points, each metric's
//! better direction honoured; a portfolio's figures against single runs made the ordinary way
//! (`Session::run` under each seed, `Session::compare` for the common window); its
//! distributions against a sort of the raw per-task values; a 2-D sweep's cells against single
//! runs of the policy written by hand.

use policy_playground::api::handles::{parse_request, Handles, RunOptions, Session};
use policy_playground::api::portfolio::portfolio_csv;
use policy_playground::api::{compare::CompareRequest, Answer};
use policy_playground::portfolio::cdf::{rank, Cdf, QUANTILES};
use policy_playground::portfolio::grid::GridSpec;
use policy_playground::portfolio::pareto::{front, pareto, Point};
use policy_playground::portfolio::PortfolioSpec;
use policy_playground::sim::metric_catalog::Better;
use policy_playground::sim::result::TaskRecord;
use serde_json::{json, Value};

const TEACHING: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../www/samples/teaching/scenario.json"
);

fn value<T>(answer: Answer<T>) -> T {
    match answer {
        Answer::Success { value } => value,
        Answer::Failure { errors } => panic!("{errors:?}"),
    }
}

/// A small deterministic generator (xorshift64*), so that the random sets are the same on
/// every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Whether `p` dominates `q`: at least as good in both, better in one.
fn dominates(p: (f64, f64), q: (f64, f64), bx: Better, by: Better) -> bool {
    let ge = |a: f64, b: f64, better| {
        if better == Better::Higher {
            a >= b
        } else {
            a <= b
        }
    };
    let gt = |a: f64, b: f64, better| {
        if better == Better::Higher {
            a > b
        } else {
            a < b
        }
    };
    ge(p.0, q.0, bx) && ge(p.1, q.1, by) && (gt(p.0, q.0, bx) || gt(p.1, q.1, by))
}

fn brute_force(points: &[Point], bx: Better, by: Better) -> Vec<usize> {
    let both = |p: &Point| Some((p.x?, p.y?));
    (0..points.len())
        .filter(|&i| {
            let Some(q) = both(&points[i]) else {
                return false;
            };
            !points
                .iter()
                .filter_map(both)
                .any(|p| dominates(p, q, bx, by))
        })
        .collect()
}

#[test]
fn the_front_is_the_brute_force_front_on_random_points_with_ties() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let directions = [Better::Lower, Better::Higher];
    let mut sizes = 0;
    for case in 0..2000 {
        let n = rng.below(30) as usize;
        // Few distinct values, so that ties in one metric and equal points are common; some
        // points miss a value (a run without carbon), and a -0 stands beside 0.
        let coordinate = |rng: &mut Rng| match rng.below(12) {
            0 => None,
            1 => Some(-0.0),
            k => Some((k % 6) as f64 * 0.5 - 1.0),
        };
        let points: Vec<Point> = (0..n)
            .map(|_| Point {
                x: coordinate(&mut rng),
                y: coordinate(&mut rng),
            })
            .collect();
        for &bx in &directions {
            for &by in &directions {
                let mut got = front(&points, bx, by);
                // Listed in drawing order: x ascending, then y.
                let drawn: Vec<(f64, f64)> = got
                    .iter()
                    .map(|&i| (points[i].x.unwrap(), points[i].y.unwrap()))
                    .collect();
                assert!(
                    drawn
                        .windows(2)
                        .all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 <= w[1].1)),
                    "case {case}: {drawn:?}"
                );
                got.sort_unstable();
                let want = brute_force(&points, bx, by);
                assert_eq!(got, want, "case {case} ({bx:?}, {by:?}): {points:?}");
                sizes += want.len();
            }
        }
    }
    assert!(
        sizes > 4000,
        "the sets should have fronts to compare: {sizes}"
    );
}

/// Tasks completed are better higher, waits lower: (10 tasks, 5 s) beats (8 tasks, 6 s); (12
/// tasks, 9 s) trades off against it; read as lower-is-better for both, the front would be the
/// 8-task point alone.
#[test]
fn each_metric_improves_in_its_catalog_direction() {
    let p = |x: f64, y: f64| Point {
        x: Some(x),
        y: Some(y),
    };
    let points = [p(10.0, 5000.0), p(8.0, 6000.0), p(12.0, 9000.0)];
    let f = value(policy_playground::api::portfolio::pareto(
        &serde_json::from_value(json!({"x": "tasksCompleted", "y": "meanWaitMs",
            "points": [{"x": 10.0, "y": 5000.0}, {"x": 8.0, "y": 6000.0}, {"x": 12.0, "y": 9000.0}]}))
        .expect("a request"),
    ));
    assert_eq!((f.x_better, f.y_better), (Better::Higher, Better::Lower));
    assert_eq!(f.front, vec![0, 2]);
    assert_eq!(front(&points, Better::Lower, Better::Lower), vec![1, 0]);
    assert_eq!(
        pareto("meanWaitMs", "tasksCompleted", &points)
            .expect("a front")
            .front,
        vec![1, 2]
    );
}

/// The teaching sample loaded into a session, and its handles.
fn teaching() -> (Session, Handles, String) {
    let mut s = Session::new();
    let loaded = value(s.load_scenario(&std::fs::read_to_string(TEACHING).expect("the sample")));
    let handles = json!({
        "topology": loaded.topology.handle, "workload": loaded.workload.handle,
        "carbon": loaded.carbon.as_ref().map(|c| c.handle),
    })
    .to_string();
    let (h, _) = parse_request(&handles, "{}").expect("handles");
    (s, h, handles)
}

const SUBSET3: &str = r#"{"type": "filter", "filters": [{"type": "VCpu"}, {"type": "Ram"}],
    "weighers": [{"type": "Ram"}], "subsetSize": 3}"#;

fn entries() -> Vec<(&'static str, String)> {
    vec![
        (
            "Mem",
            r#"{"type": "prefab", "policyName": "Mem"}"#.to_string(),
        ),
        (
            "Timeshift",
            r#"{"type": "prefab", "policyName": "Timeshift"}"#.to_string(),
        ),
        ("subset 3", SUBSET3.to_string()),
    ]
}

/// A portfolio of three policies under seeds 5 and 6: each policy's figures are the mean,
/// minimum and maximum of its single runs, its window figures those of `Session::compare` over
/// all six runs, the table's cells the same means with their differences from the baseline.
#[test]
fn a_portfolio_is_its_single_runs_side_by_side() {
    let (mut s, h, handles) = teaching();
    let spec: PortfolioSpec = serde_json::from_value(json!({
        "entries": entries().iter().map(|(l, p)| json!({"label": l, "policy": p})).collect::<Vec<_>>(),
        "seeds": 2, "baseline": 1,
    }))
    .expect("a spec");
    let o = RunOptions {
        seed: 5,
        ..RunOptions::default()
    };
    let mut fractions = Vec::new();
    let report = value(s.portfolio(&h, &o, &spec, &mut |f| fractions.push(f)));
    assert_eq!(report.seeds, vec![5, 6]);
    assert!(fractions.windows(2).all(|w| w[0] <= w[1]) && fractions.last() == Some(&1.0));
    // The single runs, kept, and compared over their common window.
    let mut runs = Vec::new();
    let mut metrics = Vec::new();
    for (_, policy) in entries() {
        for seed in [5, 6] {
            let (h, o) =
                parse_request(&handles, &json!({"seed": seed}).to_string()).expect("request");
            let run = value(s.run(&h, &policy, &o));
            runs.push(run.run);
            metrics.push(serde_json::to_value(&run.result.metrics).expect("metrics"));
        }
    }
    let window = value(s.compare(&CompareRequest {
        runs: runs.clone(),
        labels: None,
        baseline: None,
    }));
    assert_eq!(window.window_end_ms, report.comparison.window_end_ms);
    let window_of = |run: usize, key: &str| {
        window
            .rows
            .iter()
            .find(|r| r.key == key)
            .and_then(|r| r.cells[run].value)
    };
    for (i, p) in report.policies.iter().enumerate() {
        assert_eq!(p.label, entries()[i].0);
        let (a, b) = (&metrics[2 * i], &metrics[2 * i + 1]);
        for key in [
            "makespanMs",
            "energyJ",
            "dynamicCarbonG",
            "meanWaitMs",
            "meanBoundedSlowdown",
            "loadImbalance",
            "tasksCompleted",
        ] {
            let (x, y) = (a[key].as_f64().unwrap(), b[key].as_f64().unwrap());
            assert_eq!(
                p.metrics[key].as_f64(),
                Some((x + y) / 2.0),
                "{} {key}",
                p.label
            );
            assert_eq!(p.min[key].as_f64(), Some(x.min(y)), "{} {key}", p.label);
            assert_eq!(p.max[key].as_f64(), Some(x.max(y)), "{} {key}", p.label);
        }
        if let (Some(x), Some(y)) = (
            window_of(2 * i, "windowCarbonG"),
            window_of(2 * i + 1, "windowCarbonG"),
        ) {
            assert_eq!(
                p.metrics["windowCarbonG"].as_f64(),
                Some((x + y) / 2.0),
                "{}",
                p.label
            );
        }
        let row = report
            .comparison
            .rows
            .iter()
            .find(|r| r.key == "energyJ")
            .expect("an energy row");
        assert_eq!(row.cells[i].value, p.metrics["energyJ"].as_f64());
        assert_eq!(
            row.cells[1].difference, None,
            "the baseline has no difference"
        );
    }
    // subsetSize 3 draws: its seeds differ, and its cell shows their range.
    let energy = report
        .comparison
        .rows
        .iter()
        .find(|r| r.key == "energyJ")
        .unwrap();
    let range = energy.cells[2]
        .range
        .as_ref()
        .expect("a range over two seeds");
    assert!(range.min < range.max, "{range:?}");
    // The best of a row by its direction: the least energy.
    let least = energy
        .cells
        .iter()
        .filter_map(|c| c.value)
        .fold(f64::INFINITY, f64::min);
    for c in &energy.cells {
        assert_eq!(c.best, c.value == Some(least));
    }
    // The front over the means, dynamic carbon against mean wait, by brute force.
    let points: Vec<Point> = report
        .policies
        .iter()
        .map(|p| Point {
            x: p.metrics["dynamicCarbonG"].as_f64(),
            y: p.metrics["meanWaitMs"].as_f64(),
        })
        .collect();
    let mut got = report.pareto.front.clone();
    got.sort_unstable();
    assert_eq!(got, brute_force(&points, Better::Lower, Better::Lower));
    assert!(!got.is_empty());

    // The distributions, against a sort of the per-task values of the same single runs.
    for (i, p) in report.policies.iter().enumerate() {
        let mut tasks: Vec<TaskRecord> = Vec::new();
        for seed in [5, 6] {
            let (h, o) =
                parse_request(&handles, &json!({"seed": seed}).to_string()).expect("request");
            tasks.extend(value(s.run(&h, &entries()[i].1, &o)).result.tasks);
        }
        let done: Vec<&TaskRecord> = tasks.iter().filter(|t| t.state == "completed").collect();
        let wait: Vec<f64> = done.iter().map(|t| t.wait_ms.unwrap() as f64).collect();
        let turnaround: Vec<f64> = done
            .iter()
            .map(|t| (t.finish_ms - t.submit_ms) as f64)
            .collect();
        let slowdown: Vec<f64> = done
            .iter()
            .map(|t| {
                f64::max(
                    1.0,
                    (t.finish_ms - t.submit_ms) as f64 / t.duration_ms.max(10_000) as f64,
                )
            })
            .collect();
        check_cdf(&p.distributions.wait, wait, 200);
        check_cdf(&p.distributions.turnaround, turnaround, 200);
        check_cdf(&p.distributions.bounded_slowdown, slowdown, 200);
    }

    // The table as CSV: a row per policy and table row, the mean and best as in the table.
    let csv = value(portfolio_csv(
        &serde_json::to_string(&report).expect("JSON"),
    ));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 3 * report.comparison.rows.len());
    assert_eq!(
        lines[0],
        "policy,semantics,metric,view,unit,mean,min,max,runs,difference,relativeChange,best"
    );
    let subset_energy = lines
        .iter()
        .find(|l| l.starts_with("subset 3,classic,energyJ,"))
        .expect("a row");
    let cells: Vec<&str> = subset_energy.split(',').collect();
    assert_eq!(cells[5], energy.cells[2].value.unwrap().to_string());
    assert_eq!(
        (cells[6], cells[7], cells[8]),
        (
            range.min.to_string().as_str(),
            range.max.to_string().as_str(),
            "2"
        )
    );
    assert_eq!(cells[11], energy.cells[2].best.to_string());
}

/// Every point of `c` lies on the step function of the sorted `raw` values, the first and last
/// rank are among them, and every quantile is the nearest-rank value.
fn check_cdf(c: &Cdf, mut raw: Vec<f64>, max_points: usize) {
    raw.sort_by(f64::total_cmp);
    let n = raw.len();
    assert_eq!(c.n, n);
    assert!(n > 0);
    assert!(
        c.points.len() <= max_points + QUANTILES.len(),
        "{}",
        c.points.len()
    );
    for &(v, f) in &c.points {
        let r = (f * n as f64).round() as usize;
        assert!((f - r as f64 / n as f64).abs() < 1e-12 && r >= 1, "{f}");
        assert_eq!(raw[r - 1], v, "rank {r} of {n}");
    }
    assert_eq!(c.points.first().map(|p| p.0), Some(raw[0]));
    assert_eq!(c.points.last(), Some(&(raw[n - 1], 1.0)));
    assert!(c.points.windows(2).all(|w| w[0].1 < w[1].1));
    for q in &c.quantiles {
        let r = ((q.percent as f64 / 100.0) * n as f64).ceil() as usize;
        assert_eq!(r.max(1), rank(q.percent, n));
        assert_eq!(q.value, raw[r.max(1) - 1], "p{}", q.percent);
        assert!(
            c.points.contains(&(q.value, r.max(1) as f64 / n as f64)),
            "p{} among the points",
            q.percent
        );
    }
}

#[test]
fn a_large_distribution_is_downsampled_and_stays_exact_at_its_quantiles() {
    let mut rng = Rng(7);
    // Many ties: values from a few hundred, 10 007 of them.
    let raw: Vec<f64> = (0..10_007).map(|_| rng.below(300) as f64 * 1.5).collect();
    for m in [2, 50, 200] {
        let c = policy_playground::portfolio::cdf::cdf(&raw, m);
        check_cdf(&c, raw.clone(), m);
    }
}

/// A 2-D sweep of Mem over subsetSize and the Ram weigher's multiplier, under two seeds: each
/// cell's runs are the runs of the policy written out with both values, made with
/// `Session::run`.
#[test]
fn a_2d_sweep_s_cells_are_single_runs_made_the_ordinary_way() {
    let (mut s, h, handles) = teaching();
    let spec: GridSpec = serde_json::from_value(json!({
        "x": {"parameter": "/subsetSize", "values": [1, 3]},
        "y": {"parameter": "/weighers/0/multiplier", "values": [1.0, -1.0]},
        "seeds": 2,
    }))
    .expect("a grid");
    let o = RunOptions {
        seed: 3,
        ..RunOptions::default()
    };
    let mem = r#"{"type": "prefab", "policyName": "Mem"}"#;
    let mut calls = 0;
    let report = value(s.sweep(&h, mem, &o, &spec, &mut |_, total| {
        calls += 1;
        assert_eq!(total, 8);
    }));
    assert_eq!(calls, 8);
    assert_eq!(report.seeds, vec![3, 4]);
    assert_eq!(report.cells.len(), 4);
    let mut distinct = std::collections::BTreeSet::new();
    for (r, multiplier) in [1.0, -1.0].into_iter().enumerate() {
        for (c, subset) in [1, 3].into_iter().enumerate() {
            let cell = &report.cells[r * 2 + c];
            assert_eq!(cell.value, json!([subset, multiplier]));
            let policy = json!({"type": "filter", "filters": [{"type": "VCpu"}, {"type": "Ram"}],
                "weighers": [{"type": "Ram", "multiplier": multiplier}], "subsetSize": subset})
            .to_string();
            for (k, seed) in [3, 4].into_iter().enumerate() {
                let (h, o) =
                    parse_request(&handles, &json!({"seed": seed}).to_string()).expect("request");
                let run = value(s.run(&h, &policy, &o));
                let text = serde_json::to_string(&run.result.metrics).expect("text");
                assert_eq!(
                    serde_json::to_string(&cell.runs[k]).expect("text"),
                    text,
                    "cell {r},{c} seed {seed}"
                );
                distinct.insert(text);
            }
        }
    }
    assert!(
        distinct.len() >= 3,
        "the cells should differ: {}",
        distinct.len()
    );
    // A bad grid is a failure answer naming the setting, never a panic.
    let bad: Value = serde_json::from_str(&s.sweep_json_str::<GridSpec>(
        &handles,
        mem,
        "{}",
        r#"{"x": {"parameter": "/subsetSize", "values": [0]}, "y": {"parameter": "/weighers/0/multiplier", "values": [1]}}"#,
        &mut |_, _| {},
    ))
    .expect("JSON");
    assert_eq!(bad["type"], "failure");
    assert_eq!(bad["errors"][0]["path"], "sweep.x.values[0]", "{bad}");
}

/// Entries that cannot run are failures naming the entry; a portfolio's limits are checked
/// before anything runs.
#[test]
fn bad_portfolios_say_which_entry() {
    let (s, _, handles) = teaching();
    let answer = |spec: Value| -> Value {
        serde_json::from_str(&s.portfolio_json_str(&handles, "{}", &spec.to_string(), &mut |_| {}))
            .expect("JSON")
    };
    let a = answer(
        json!({"entries": [{"label": "ok", "policy": "{\"type\": \"prefab\", \"policyName\": \"Mem\"}"},
        {"label": "typo", "policy": "{\"type\": \"prefab\", \"policyName\": \"Nope\"}"}]}),
    );
    assert_eq!(a["type"], "failure");
    assert!(
        a["errors"][0]["path"]
            .as_str()
            .unwrap()
            .starts_with("entries[1]"),
        "{a}"
    );
    assert!(
        a["errors"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("typo: "),
        "{a}"
    );
    let a = answer(json!({"entries": [], "seeds": 0}));
    assert_eq!(a["errors"].as_array().map(Vec::len), Some(2), "{a}");
    let a = answer(json!({"entries": [{"label": "x", "policy": "{}"}], "y": "loadImbalance"}));
    assert!(
        a["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("no Pareto front"),
        "{a}"
    );
    let a = answer(json!({"entrys": []}));
    assert!(
        a["errors"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("not a portfolio request"),
        "{a}"
    );
}
