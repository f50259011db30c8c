//! The regression scenarios of `tests/conformance/regressions/` (copied from
//! `shared/conformance/regressions/`) with the results their README works out from SPEC, checked
//! on a result's JSON, so that the native suite and the browser suite assert the same figures.
//! Each was found by a differential test and reduced to its smallest form (issue 15).

use serde_json::Value;

/// What one task of a regression scenario must do (times in simulation ms).
pub struct TaskExpectation {
    pub id: &'static str,
    pub host: Option<&'static str>,
    pub start_ms: Option<i64>,
    pub finish_ms: i64,
    pub state: &'static str,
    /// Deferral spans `[from, to]`.
    pub deferrals: &'static [(i64, i64)],
    /// Pause spans `[from, to]`.
    pub pauses: &'static [(i64, i64)],
}

/// A regression scenario and its expected result.
pub struct Regression {
    pub file: &'static str,
    pub scenario: &'static str,
    pub makespan_ms: i64,
    pub energy_j: f64,
    /// The busy time of the one host `H0`: the union of its tasks' run spans.
    pub busy_ms: i64,
    pub tasks: &'static [TaskExpectation],
}

const H: i64 = 3_600_000;

macro_rules! scenario {
    ($file:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/conformance/regressions/",
            $file
        ))
    };
}

/// The four scenarios with the figures of their README.
pub const REGRESSIONS: &[Regression] = &[
    // SPEC 7.4: paused at 1H with 1H left (remaining is the work left at t), deferred to its
    // latest start 2.5H - 1H = 1.5H, finishing at 2.5H exactly; 2.5H at 360 W.
    Regression {
        file: "min-A-stopper-remaining.json",
        scenario: scenario!("min-A-stopper-remaining.json"),
        makespan_ms: 9_000_000,
        energy_j: 3_240_000.0,
        // Runs [0, 1H] and [1.5H, 2.5H].
        busy_ms: 2 * H,
        tasks: &[TaskExpectation {
            id: "a",
            host: Some("H0"),
            start_ms: Some(0),
            finish_ms: 9_000_000,
            state: "completed",
            deferrals: &[(H, 5_400_000)],
            pauses: &[(H, 5_400_000)],
        }],
    },
    // SPEC 7.3: the latest start 2.5H of the first deferral is void after the pause at 2H; the
    // new one is 4H - 0.5H = 3.5H. 4H at 275 W on average: 1.5H at 400 W + 2.5H at 200 W.
    Regression {
        file: "min-W-stale-latest-start.json",
        scenario: scenario!("min-W-stale-latest-start.json"),
        makespan_ms: 14_400_000,
        energy_j: 3_960_000.0,
        // Runs [1H, 2H] and [3.5H, 4H].
        busy_ms: 5_400_000,
        tasks: &[TaskExpectation {
            id: "w",
            host: Some("H0"),
            start_ms: Some(H),
            finish_ms: 14_400_000,
            state: "completed",
            deferrals: &[(0, H), (2 * H, 12_600_000)],
            pauses: &[(2 * H, 12_600_000)],
        }],
    },
    // SPEC 6.2: X's rejection at 2,000 makes a cycle due there, B's second skip, so that B
    // (at maxTimesSkipped 2) blocks C at 3,000.
    Regression {
        file: "min-J-rejected-submission-cycle.json",
        scenario: scenario!("min-J-rejected-submission-cycle.json"),
        makespan_ms: 11_000,
        energy_j: 2_800.0,
        // A over [0, 10,000], then B and C over [10,000, 11,000].
        busy_ms: 11_000,
        tasks: &[
            TaskExpectation {
                id: "A",
                host: Some("H0"),
                start_ms: Some(0),
                finish_ms: 10_000,
                state: "completed",
                deferrals: &[],
                pauses: &[],
            },
            TaskExpectation {
                id: "B",
                host: Some("H0"),
                start_ms: Some(10_000),
                finish_ms: 11_000,
                state: "completed",
                deferrals: &[],
                pauses: &[],
            },
            TaskExpectation {
                id: "X",
                host: None,
                start_ms: None,
                finish_ms: 2_000,
                state: "terminated",
                deferrals: &[],
                pauses: &[],
            },
            TaskExpectation {
                id: "C",
                host: Some("H0"),
                start_ms: Some(10_000),
                finish_ms: 11_000,
                state: "completed",
                deferrals: &[],
                pauses: &[],
            },
        ],
    },
    // SPEC 6.5: while Z runs alone at usage 0, the host's usage is exactly 0, so it draws the
    // sqrt model's idle 0 W; the energy is what P and Q cause in their first 2 s.
    Regression {
        file: "min-N-usage-residual.json",
        scenario: scenario!("min-N-usage-residual.json"),
        makespan_ms: 100_000_000,
        energy_j: 497.468_076_502_562,
        // Z runs throughout.
        busy_ms: 100_000_000,
        tasks: &[
            TaskExpectation {
                id: "Z",
                host: Some("H0"),
                start_ms: Some(0),
                finish_ms: 100_000_000,
                state: "completed",
                deferrals: &[],
                pauses: &[],
            },
            TaskExpectation {
                id: "P",
                host: Some("H0"),
                start_ms: Some(0),
                finish_ms: 1_000,
                state: "completed",
                deferrals: &[],
                pauses: &[],
            },
            TaskExpectation {
                id: "Q",
                host: Some("H0"),
                start_ms: Some(0),
                finish_ms: 2_000,
                state: "completed",
                deferrals: &[],
                pauses: &[],
            },
        ],
    },
];

fn spans(v: &Value) -> Vec<(i64, i64)> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|s| {
                    (
                        s["fromMs"].as_i64().unwrap_or(-1),
                        s["toMs"].as_i64().unwrap_or(-1),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The differences between a result (the JSON of `simulate --json`) and the expectations, one
/// line each naming the field; empty when the result is right.
pub fn mismatches(r: &Regression, result: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |what: String, ok: bool, got: String| {
        if !ok {
            out.push(format!("{}: {what}, got {got}", r.file));
        }
    };
    let m = &result["metrics"];
    check(
        format!("makespanMs {}", r.makespan_ms),
        m["makespanMs"].as_i64() == Some(r.makespan_ms),
        m["makespanMs"].to_string(),
    );
    let energy = m["energyJ"].as_f64().unwrap_or(f64::NAN);
    check(
        format!("energyJ {} (relative 1e-12)", r.energy_j),
        ((energy - r.energy_j) / r.energy_j).abs() <= 1e-12,
        m["energyJ"].to_string(),
    );
    let busy = &result["hosts"][0]["busyMs"];
    check(
        format!("hosts[0].busyMs {}", r.busy_ms),
        busy.as_i64() == Some(r.busy_ms),
        busy.to_string(),
    );
    let tasks = result["tasks"].as_array().cloned().unwrap_or_default();
    check(
        format!("{} tasks", r.tasks.len()),
        tasks.len() == r.tasks.len(),
        tasks.len().to_string(),
    );
    for e in r.tasks {
        let Some(t) = tasks.iter().find(|t| t["id"] == e.id) else {
            check(format!("task {}", e.id), false, "no such task".into());
            continue;
        };
        let id = e.id;
        check(
            format!("{id}.host {:?}", e.host),
            t["host"].as_str() == e.host,
            t["host"].to_string(),
        );
        check(
            format!("{id}.startMs {:?}", e.start_ms),
            t["startMs"].as_i64() == e.start_ms,
            t["startMs"].to_string(),
        );
        check(
            format!("{id}.finishMs {}", e.finish_ms),
            t["finishMs"].as_i64() == Some(e.finish_ms),
            t["finishMs"].to_string(),
        );
        check(
            format!("{id}.state {}", e.state),
            t["state"] == e.state,
            t["state"].to_string(),
        );
        check(
            format!("{id}.deferrals {:?}", e.deferrals),
            spans(&t["deferrals"]) == e.deferrals,
            t["deferrals"].to_string(),
        );
        check(
            format!("{id}.pauses {:?}", e.pauses),
            spans(&t["pauses"]) == e.pauses,
            t["pauses"].to_string(),
        );
    }
    out
}
