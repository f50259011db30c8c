//! A portfolio: several policies on the same inputs and options, each under the same seeds,
//! side by side. Each policy's figures are the means over its seeds with their minimum and
//! maximum; the table is the comparison of [`crate::compare`] (one column per policy, the
//! differences from a chosen baseline, the best of each row marked, energy and carbon over the
//! common window of every run); the trade-off of two metrics gives its Pareto front
//! ([`pareto`]); the completed tasks' waits, turnarounds and bounded slowdowns give their
//! distributions ([`cdf`]). The command line's `compare` and the page's portfolio both run
//! [`run`], so they give the same numbers.

pub mod cdf;
pub mod csv;
pub mod grid;
pub mod pareto;

use crate::compare::{
    compare_columns, window_of, ComparedColumn, ComparedRun, Comparison, FinishedRun,
};
use crate::diag::Diagnostic;
use crate::engine::Semantics;
use crate::policy::expand;
use crate::request::RunRequest;
use crate::sim::metric_catalog::by_key;
use crate::sim::result::Metrics;
use crate::sim::window::WindowFigures;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The most policies one portfolio takes.
pub const MAX_POLICIES: usize = 64;
/// The most seeds each policy runs under.
pub const MAX_SEEDS: u32 = 100;
/// The most runs (policies x seeds) one portfolio makes.
pub const MAX_RUNS: usize = 1000;
/// The trade-off a portfolio opens on: what carbon-aware scheduling saves against what it
/// costs in waiting.
pub const DEFAULT_X: &str = "dynamicCarbonG";
pub const DEFAULT_Y: &str = "meanWaitMs";

/// One policy of a portfolio, as the page sends it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PortfolioEntry {
    /// Its name in the table (`Mem`, `my policy`, `subsetSize = 4`).
    pub label: String,
    /// The policy document (JSON text).
    pub policy: String,
    /// Its own semantics; default: the run options'.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub semantics: Option<Semantics>,
}

/// What a portfolio runs and reports.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct PortfolioSpec {
    pub entries: Vec<PortfolioEntry>,
    /// Seeds per policy: the run options' seed and the ones after it (default 1).
    #[cfg_attr(feature = "ts", ts(optional))]
    pub seeds: Option<u32>,
    /// The entry the others are compared with (default 0).
    #[cfg_attr(feature = "ts", ts(optional))]
    pub baseline: Option<usize>,
    /// The trade-off's metrics (catalog keys; default `dynamicCarbonG` and `meanWaitMs`).
    #[cfg_attr(feature = "ts", ts(optional))]
    pub x: Option<String>,
    #[cfg_attr(feature = "ts", ts(optional))]
    pub y: Option<String>,
    /// Points per distribution (default [`cdf::DEFAULT_POINTS`]).
    #[cfg_attr(feature = "ts", ts(optional))]
    pub cdf_points: Option<usize>,
}

/// How a planned portfolio runs: its seeds, baseline, trade-off and distribution size.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub seeds: Vec<u64>,
    pub baseline: usize,
    pub x: String,
    pub y: String,
    pub cdf_points: usize,
}

impl Settings {
    /// Checks a portfolio of `policies` policies against the limits; the seeds are `first_seed`
    /// and the ones after it.
    pub fn new(
        policies: usize,
        spec: &PortfolioSpec,
        first_seed: u64,
    ) -> Result<Self, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let seeds = spec.seeds.unwrap_or(1);
        if policies == 0 || policies > MAX_POLICIES {
            errors.push(Diagnostic::error(
                "entries",
                format!("a portfolio takes 1 to {MAX_POLICIES} policies, not {policies}"),
            ));
        }
        if seeds == 0 || seeds > MAX_SEEDS {
            errors.push(Diagnostic::error(
                "seeds",
                format!("`seeds` must be 1 to {MAX_SEEDS}, not {seeds}"),
            ));
        } else if policies * seeds as usize > MAX_RUNS {
            errors.push(Diagnostic::error(
                "seeds",
                format!(
                    "{policies} policies x {seeds} seeds is {} runs; a portfolio makes at most {MAX_RUNS}",
                    policies * seeds as usize
                ),
            ));
        }
        let baseline = spec.baseline.unwrap_or(0);
        if baseline >= policies.max(1) {
            errors.push(Diagnostic::error(
                "baseline",
                format!(
                    "baseline {baseline} is not a policy: there are {policies} (0 to {})",
                    policies.saturating_sub(1)
                ),
            ));
        }
        let x = spec.x.clone().unwrap_or_else(|| DEFAULT_X.into());
        let y = spec.y.clone().unwrap_or_else(|| DEFAULT_Y.into());
        errors.extend(pareto::axis(&x, "x").err());
        errors.extend(pareto::axis(&y, "y").err());
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Settings {
            seeds: (0..u64::from(seeds))
                .map(|k| first_seed.wrapping_add(k))
                .collect(),
            baseline,
            x,
            y,
            cdf_points: spec.cdf_points.unwrap_or(cdf::DEFAULT_POINTS),
        })
    }
}

/// A finished portfolio.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PortfolioReport {
    /// The seeds every policy ran under.
    pub seeds: Vec<u64>,
    /// Each policy's figures, in entry order.
    pub policies: Vec<PortfolioPolicy>,
    /// The trade-off's Pareto front over the policies' means.
    pub pareto: pareto::Pareto,
    /// The table: a column per policy (`labels`, `baseline`, `windowEndMs`, `rows`, ...).
    #[serde(flatten)]
    pub comparison: Comparison,
}

/// One policy of a finished portfolio.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PortfolioPolicy {
    pub label: String,
    pub semantics: Semantics,
    /// The policy run, in its explicit form.
    pub policy: Value,
    /// Its metrics under the keys of `simulate --json`, then the window figures of SPEC 6.6:
    /// each the mean over the seeds that have it (an integer when every run's is and the mean
    /// is whole), `null` when no run has it.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number | null>"))]
    pub metrics: Map<String, Value>,
    /// The least value of each over the seeds (same keys).
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number | null>"))]
    pub min: Map<String, Value>,
    /// The greatest.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number | null>"))]
    pub max: Map<String, Value>,
    /// The distributions of its completed tasks' figures, over every seed's run.
    pub distributions: cdf::Distributions,
}

/// One policy to run: its label and the request of its first seed (inputs, policy, options
/// with its semantics).
pub struct Planned<'a> {
    pub label: String,
    pub request: RunRequest<'a>,
}

/// What one run of a portfolio leaves for its report (its result is dropped once read): its
/// metrics, its start and its completed tasks' figures. Run `k` is policy `k / seeds` under seed
/// `k % seeds`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RunFigures {
    pub metrics: Metrics,
    pub start_epoch_ms: i64,
    pub tasks: cdf::TaskFigures,
}

/// Runs `from..from + runs.len()` of a portfolio, made in one place (the page makes the two
/// halves of a portfolio in its two workers; [`assemble`] makes the report of the parts, and it
/// is the same bytes as the report of one [`run`]). Crosses between workers as JSON, whose
/// numbers read back to the same bits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PortfolioPart {
    pub from: usize,
    pub runs: Vec<RunFigures>,
}

/// Runs every policy under every seed, `progress` getting the fraction done (0 to 1). The runs
/// go side by side on the machine's cores ([`crate::parallel`]); the report is the same bytes
/// as one after the other gives.
pub fn run(
    planned: &[Planned],
    settings: &Settings,
    progress: &mut dyn FnMut(f64),
) -> Result<PortfolioReport, Vec<Diagnostic>> {
    run_on(planned, settings, progress, crate::parallel::workers())
}

/// [`run`] on up to `workers` threads.
fn run_on(
    planned: &[Planned],
    settings: &Settings,
    progress: &mut dyn FnMut(f64),
    workers: usize,
) -> Result<PortfolioReport, Vec<Diagnostic>> {
    let all = 0..planned.len() * settings.seeds.len();
    let part = run_part(planned, settings, all, progress, workers)?;
    assemble(planned, settings, vec![part])
}

/// Makes runs `runs` of the portfolio (see [`RunFigures`]) in order on up to `workers` threads,
/// `progress` getting the fraction of them done; the first run that fails (in order) fails the
/// part.
pub fn run_part(
    planned: &[Planned],
    settings: &Settings,
    runs: std::ops::Range<usize>,
    progress: &mut dyn FnMut(f64),
    workers: usize,
) -> Result<PortfolioPart, Vec<Diagnostic>> {
    let total = planned.len() * settings.seeds.len();
    if runs.start > runs.end || runs.end > total {
        return Err(vec![Diagnostic::error(
            "",
            format!(
                "runs {}..{} are not runs of this portfolio: it has {total} (0..{total})",
                runs.start, runs.end
            ),
        )]);
    }
    let seeds = settings.seeds.len();
    let mut made = Vec::with_capacity(runs.len());
    let mut failure = None;
    let work = |j: usize, sink: &mut dyn FnMut(f64)| {
        let k = runs.start + j;
        let (i, p) = (k / seeds, &planned[k / seeds]);
        let mut request = p.request.clone();
        request.options.seed = settings.seeds[k % seeds];
        request
            .run(sink)
            .map_err(|errors| under_entry(errors, i, &p.label))
    };
    let take =
        |_: usize, outcome: Result<crate::request::RunOutcome, Vec<Diagnostic>>| match outcome {
            Ok(outcome) => {
                let mut tasks = cdf::TaskFigures::default();
                tasks.add(&outcome.result.tasks);
                made.push(RunFigures {
                    metrics: outcome.result.metrics,
                    start_epoch_ms: outcome.result.start_epoch_ms,
                    tasks,
                });
                true
            }
            Err(errors) => {
                failure = Some(errors);
                false
            }
        };
    crate::parallel::run_in_order(runs.len(), workers, work, progress, take);
    match failure {
        Some(errors) => Err(errors),
        None => Ok(PortfolioPart {
            from: runs.start,
            runs: made,
        }),
    }
}

/// The report of a portfolio whose runs were made in `parts` (in any order; together they
/// must be every run once).
pub fn assemble(
    planned: &[Planned],
    settings: &Settings,
    parts: Vec<PortfolioPart>,
) -> Result<PortfolioReport, Vec<Diagnostic>> {
    let seeds = settings.seeds.len();
    let total = planned.len() * seeds;
    let parts = parts.into_iter().map(|p| (p.from, p.runs)).collect();
    let runs = crate::parallel::join_parts(parts, total).map_err(|d| vec![d])?;
    let mut finished: Vec<Vec<Finished>> =
        planned.iter().map(|_| Vec::with_capacity(seeds)).collect();
    let mut figures: Vec<cdf::TaskFigures> = planned.iter().map(|_| Default::default()).collect();
    for (k, run) in runs.into_iter().enumerate() {
        figures[k / seeds].append(run.tasks);
        finished[k / seeds].push(Finished {
            metrics: run.metrics,
            start_epoch_ms: run.start_epoch_ms,
        });
    }
    report(planned, settings, &finished, &figures)
}

/// What one run leaves for the report's table and summaries.
struct Finished {
    metrics: Metrics,
    start_epoch_ms: i64,
}

/// A run's errors, said to be the policy's.
fn under_entry(errors: Vec<Diagnostic>, i: usize, label: &str) -> Vec<Diagnostic> {
    errors
        .into_iter()
        .map(|mut d| {
            d.message = format!("{label}: {}", d.message);
            d.under(&format!("entries[{i}]"))
        })
        .collect()
}

/// The report of finished runs: window figures to the latest end of them all, each policy's
/// summary and distributions, the table and the front.
fn report(
    planned: &[Planned],
    settings: &Settings,
    finished: &[Vec<Finished>],
    figures: &[cdf::TaskFigures],
) -> Result<PortfolioReport, Vec<Diagnostic>> {
    let window_end = finished
        .iter()
        .flatten()
        .map(|f| f.metrics.makespan_ms)
        .max()
        .unwrap_or(0);
    let mut windows: Vec<Vec<WindowFigures>> = Vec::with_capacity(planned.len());
    for (p, runs) in planned.iter().zip(finished) {
        let mut column = Vec::with_capacity(runs.len());
        for f in runs {
            let run = FinishedRun {
                label: p.label.clone(),
                request: &p.request,
                metrics: &f.metrics,
                start_epoch_ms: f.start_epoch_ms,
            };
            column.push(window_of(&run, window_end)?);
        }
        windows.push(column);
    }
    let columns: Vec<ComparedColumn> = planned
        .iter()
        .zip(finished.iter().zip(&windows))
        .map(|(p, (runs, ws))| ComparedColumn {
            label: p.label.clone(),
            runs: runs
                .iter()
                .zip(ws)
                .map(|(f, w)| ComparedRun {
                    label: p.label.clone(),
                    metrics: &f.metrics,
                    window: *w,
                })
                .collect(),
        })
        .collect();
    let comparison = compare_columns(&columns, settings.baseline);
    let policies: Vec<PortfolioPolicy> = planned
        .iter()
        .zip(finished.iter().zip(&windows).zip(figures))
        .map(|(p, ((runs, ws), tasks))| {
            let maps: Vec<Map<String, Value>> = runs
                .iter()
                .zip(ws)
                .map(|(f, w)| {
                    let mut m = by_key(&f.metrics);
                    m.extend(by_key(w));
                    m
                })
                .collect();
            let (metrics, min, max) = summarise(&maps);
            PortfolioPolicy {
                label: p.label.clone(),
                semantics: p.request.options.semantics,
                policy: expand::to_json(p.request.policy),
                metrics,
                min,
                max,
                distributions: tasks.distributions(settings.cdf_points),
            }
        })
        .collect();
    let points: Vec<pareto::Point> = policies
        .iter()
        .map(|p| pareto::Point {
            x: p.metrics.get(&settings.x).and_then(Value::as_f64),
            y: p.metrics.get(&settings.y).and_then(Value::as_f64),
        })
        .collect();
    let pareto = pareto::pareto(&settings.x, &settings.y, &points)?;
    Ok(PortfolioReport {
        seeds: settings.seeds.clone(),
        policies,
        pareto,
        comparison,
    })
}

/// The mean, minimum and maximum of every figure over runs (by key, in the first run's key
/// order; sums in run order). A figure that is an integer in every run keeps an integer mean
/// when it is whole, so that one seed's summary is the run's own figures, byte for byte.
pub fn summarise(
    runs: &[Map<String, Value>],
) -> (Map<String, Value>, Map<String, Value>, Map<String, Value>) {
    let (mut mean, mut min, mut max) = (Map::new(), Map::new(), Map::new());
    let Some(first) = runs.first() else {
        return (mean, min, max);
    };
    for key in first.keys() {
        let values: Vec<&Value> = runs
            .iter()
            .filter_map(|r| r.get(key))
            .filter(|v| v.is_number())
            .collect();
        let xs: Vec<f64> = values.iter().filter_map(|v| v.as_f64()).collect();
        if xs.is_empty() {
            for m in [&mut mean, &mut min, &mut max] {
                m.insert(key.clone(), Value::Null);
            }
            continue;
        }
        let integers = values.iter().all(|v| v.is_i64() || v.is_u64());
        let number = |x: f64| -> Value {
            if integers && x.fract() == 0.0 && x.abs() < 9.0e15 {
                Value::from(x as i64)
            } else {
                serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
            }
        };
        let sum: f64 = xs.iter().sum();
        mean.insert(key.clone(), number(sum / xs.len() as f64));
        min.insert(
            key.clone(),
            number(xs.iter().copied().fold(f64::INFINITY, f64::min)),
        );
        max.insert(
            key.clone(),
            number(xs.iter().copied().fold(f64::NEG_INFINITY, f64::max)),
        );
    }
    (mean, min, max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_run_summarises_to_its_own_figures() {
        let run = json!({"makespanMs": 7, "meanWaitMs": 1.5, "carbonG": null});
        let Value::Object(run) = run else {
            unreachable!()
        };
        let (mean, min, max) = summarise(std::slice::from_ref(&run));
        assert_eq!(
            Value::Object(mean.clone()).to_string(),
            r#"{"makespanMs":7,"meanWaitMs":1.5,"carbonG":null}"#
        );
        assert_eq!((mean, min.clone()), (min, max));
    }

    #[test]
    fn several_runs_give_mean_minimum_and_maximum() {
        let a = json!({"makespanMs": 10, "carbonG": 1.0});
        let b = json!({"makespanMs": 15, "carbonG": null});
        let runs: Vec<Map<String, Value>> = [a, b]
            .into_iter()
            .map(|v| match v {
                Value::Object(m) => m,
                _ => unreachable!(),
            })
            .collect();
        let (mean, min, max) = summarise(&runs);
        assert_eq!(mean["makespanMs"], json!(12.5));
        assert_eq!(min["makespanMs"], json!(10));
        assert_eq!(max["makespanMs"], json!(15));
        // A figure missing in one run is summarised over the others.
        assert_eq!(mean["carbonG"], json!(1.0));
    }

    /// Runs `names` (prefabs, or a time-shifting policy for "timeshift") under three seeds on a
    /// generated workload of 150 tasks and five hosts, with a carbon trace when asked; `check`
    /// gets the planned portfolio and its settings.
    fn with_portfolio(carbon: bool, check: impl FnOnce(&[Planned], &Settings)) {
        use crate::request::{CarbonReference, Inputs, RunRequest};
        let topology = crate::bench::cluster(5);
        let workload = crate::bench::scale_workload(150);
        let start = workload
            .tasks
            .iter()
            .map(|t| t.submission_ms)
            .min()
            .unwrap_or(0);
        let trace = crate::model::CarbonTrace {
            timestamps_ms: (0..24 * 60)
                .map(|h| start - 3_600_000 + h * 3_600_000)
                .collect(),
            intensity: (0..24 * 60)
                .map(|h| f64::from((h * 37 % 400) as u32) + 20.5)
                .collect(),
        };
        let names = ["Mem", "MemInv", "CoreMem", "Random", "timeshift"];
        let policies: Vec<crate::policy::Policy> = names
            .iter()
            .map(|n| {
                let text = if *n == "timeshift" {
                    r#"{"type": "timeshift", "taskStopper": {"forecastThreshold": 0.5}}"#
                        .to_string()
                } else {
                    format!(r#"{{"type": "prefab", "policyName": "{n}"}}"#)
                };
                crate::policy::policy_from_text(&text).expect("a policy").0
            })
            .collect();
        let inputs = Inputs {
            topology: &topology,
            workload: &workload,
            carbon: carbon.then_some(&trace),
        };
        let planned: Vec<Planned> = names
            .iter()
            .zip(&policies)
            .map(|(n, p)| Planned {
                label: n.to_string(),
                request: RunRequest::new(inputs, p, CarbonReference::NotFollowed),
            })
            .collect();
        let spec = PortfolioSpec {
            seeds: Some(3),
            ..Default::default()
        };
        let settings = Settings::new(planned.len(), &spec, 0).expect("fine");
        check(&planned, &settings);
    }

    /// Side by side or one after the other, the report is the same bytes: five policies under
    /// three seeds on a generated workload, on one thread and on three.
    #[test]
    fn runs_side_by_side_give_the_report_of_runs_one_after_the_other() {
        with_portfolio(false, |planned, settings| {
            let report = |workers| {
                let r = run_on(planned, settings, &mut |_| {}, workers).expect("runs");
                serde_json::to_string(&r).expect("serialises")
            };
            let one = report(1);
            assert!(one.contains("MemInv"), "{}", &one[..200.min(one.len())]);
            assert_eq!(one, report(3));
        });
    }

    /// A portfolio made in two parts, each through JSON text (as between the page's workers),
    /// gives the report of one run, byte for byte, with and without carbon; parts that leave a
    /// run out or overlap are refused, naming the runs.
    #[test]
    fn parts_made_apart_give_the_report_of_one_run() {
        for carbon in [false, true] {
            with_portfolio(carbon, |planned, settings| {
                let whole = run_on(planned, settings, &mut |_| {}, 1).expect("runs");
                let whole = serde_json::to_string(&whole).expect("serialises");
                let part = |runs| {
                    let p = run_part(planned, settings, runs, &mut |_| {}, 1).expect("runs");
                    let text = serde_json::to_string(&p).expect("serialises");
                    serde_json::from_str::<PortfolioPart>(&text).expect("reads back")
                };
                let (a, b) = (part(0..7), part(7..15));
                assert_eq!((a.runs.len(), b.from), (7, 7));
                let joined = assemble(planned, settings, vec![b.clone(), a.clone()]).expect("fine");
                assert_eq!(serde_json::to_string(&joined).expect("serialises"), whole);
                let first: Value = serde_json::from_str(&whole).expect("JSON");
                let g = &first["policies"][0]["metrics"]["dynamicCarbonG"];
                assert_eq!(g.as_f64().is_some_and(|g| g > 0.0), carbon, "{g}");
                let missing = assemble(planned, settings, vec![a.clone()]).expect_err("runs 7..15");
                assert!(
                    missing[0].message.contains("runs 0..7 of the 15"),
                    "{}",
                    missing[0].message
                );
                let overlap = assemble(planned, settings, vec![a.clone(), a]).expect_err("twice");
                assert!(
                    overlap[0].message.contains("holds runs 0..7 where run 7"),
                    "{}",
                    overlap[0].message
                );
                let outside =
                    run_part(planned, settings, 10..16, &mut |_| {}, 1).expect_err("past 15");
                assert!(
                    outside[0].message.contains("it has 15"),
                    "{}",
                    outside[0].message
                );
            });
        }
    }

    #[test]
    fn settings_are_checked_before_anything_runs() {
        let spec = |seeds, baseline, x: &str| PortfolioSpec {
            seeds: Some(seeds),
            baseline: Some(baseline),
            x: Some(x.into()),
            ..Default::default()
        };
        let s = Settings::new(3, &spec(2, 1, "energyJ"), 5).expect("fine");
        assert_eq!(
            (s.seeds, s.baseline, s.y.as_str()),
            (vec![5, 6], 1, "meanWaitMs")
        );
        let e = Settings::new(3, &spec(0, 3, "deferredTasks"), 0).unwrap_err();
        let paths: Vec<&str> = e.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["seeds", "baseline", "x"]);
        let e = Settings::new(20, &spec(100, 0, "energyJ"), 0).unwrap_err();
        assert!(e[0].message.contains("2000 runs"), "{}", e[0].message);
    }
}
