//! Parameter sweeps: one policy setting given several values, each run under several seeds, and
//! the metrics of every run with their mean, minimum and maximum per value. This is how a
//! researcher sees how sensitive a result is to an allocation ratio, a multiplier, `subsetSize`
//! or a time-shifting threshold, and how much of a difference is only the seed.
//!
//! The setting is named by a JSON Pointer (RFC 6901) into the policy's explicit form (what
//! `expand` prints), so a prefab's settings can be swept too: `/filters/1/allocationRatio`,
//! `/weighers/0/multiplier`, `/subsetSize`, `/shortForecastThreshold`. Each value is written
//! into the explicit form, which is then read as any policy is, so a value the policy language
//! refuses is an error naming the value and the reason. With no setting, the sweep repeats the
//! policy under the seeds alone.

use crate::diag::Diagnostic;
use crate::policy::{expand, policy_from_text, Policy};
use crate::sim::metric_catalog;
use crate::sim::result::Metrics;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Most runs one sweep may make (values x seeds).
pub const MAX_RUNS: usize = 1000;

/// What a sweep varies.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct SweepSpec {
    /// A JSON Pointer into the policy's explicit form; empty: the policy as it is.
    pub parameter: String,
    /// The values the setting takes, in order (ignored without a parameter).
    pub values: Vec<Value>,
    /// How many seeds each value runs under: the run's seed and the ones after it (default 1).
    pub seeds: Option<u32>,
}

/// One value of the swept setting and what its runs gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SweepPoint {
    /// The setting's value (`null` without a parameter).
    pub value: Value,
    /// The policy run, in its explicit form.
    pub policy: Value,
    /// The metrics of each seed's run, in seed order.
    pub runs: Vec<Metrics>,
    /// Mean, minimum and maximum over the seeds of every numeric metric, by its name in
    /// [`Metrics`]' JSON (a metric that is `null` in some run is summarised over the others):
    /// a [`Spread`], or `null` for a metric that is `null` in every run.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, Spread | null>"))]
    pub summary: Map<String, Value>,
}

/// One metric over a sweep point's seeds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Spread {
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    /// The runs in which the metric has a value.
    pub runs: usize,
}

/// A finished sweep (read back by [`crate::output::csv::sweep`]'s JSON twin).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SweepReport {
    pub parameter: String,
    pub seeds: Vec<u64>,
    pub points: Vec<SweepPoint>,
}

/// A planned sweep: each value with the policy that has it, and the seeds.
pub type Plan = (Vec<(Value, Policy)>, Vec<u64>);

/// The policies of a sweep: each value with the policy that has it, checked before anything
/// runs. `first_seed` is the run's seed; the seeds are it and the ones after it.
pub fn plan(policy: &Policy, spec: &SweepSpec, first_seed: u64) -> Result<Plan, Vec<Diagnostic>> {
    let seeds = spec.seeds.unwrap_or(1);
    if seeds == 0 {
        return Err(vec![Diagnostic::error(
            "seeds",
            "`seeds` must be at least 1",
        )]);
    }
    let seeds: Vec<u64> = (0..u64::from(seeds))
        .map(|k| first_seed.wrapping_add(k))
        .collect();
    if crate::request::SWEEPABLE_OPTIONS.contains(&spec.parameter.as_str()) {
        return plan_run_option(policy, spec, seeds);
    }
    let explicit = expand::to_json(policy);
    if spec.parameter.is_empty() {
        return check_size(1, seeds.len()).map(|()| (vec![(Value::Null, policy.clone())], seeds));
    }
    if spec.values.is_empty() {
        return Err(vec![Diagnostic::error(
            "values",
            "a sweep of a parameter needs at least one value",
        )]);
    }
    check_size(spec.values.len(), seeds.len())?;
    if explicit.pointer(&spec.parameter).is_none() {
        return Err(vec![Diagnostic::error(
            "parameter",
            format!(
                "`{}` names nothing in the policy's explicit form; its settings are {}",
                spec.parameter,
                settings(&explicit)
                    .iter()
                    .map(|(p, _)| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )]);
    }
    let mut points = Vec::with_capacity(spec.values.len());
    let mut errors = Vec::new();
    for (i, value) in spec.values.iter().enumerate() {
        let mut edited = explicit.clone();
        if let Some(slot) = edited.pointer_mut(&spec.parameter) {
            *slot = value.clone();
        }
        match policy_from_text(&edited.to_string()) {
            Ok((p, _)) => points.push((value.clone(), p)),
            Err(ds) => errors.extend(ds.into_iter().filter(|d| d.is_error()).map(|d| {
                Diagnostic::error(
                    format!("values[{i}]"),
                    format!("{} = {value}: {}", spec.parameter, d.message),
                )
            })),
        }
    }
    if errors.is_empty() {
        Ok((points, seeds))
    } else {
        Err(errors)
    }
}

/// A sweep of a run option ([`crate::request::SWEEPABLE_OPTIONS`]): the policy as it is at
/// every value, each value checked by [`crate::request::RunOptions::with_option`]; the runs
/// set the option with it (their `run` gets the point's value).
fn plan_run_option(
    policy: &Policy,
    spec: &SweepSpec,
    seeds: Vec<u64>,
) -> Result<Plan, Vec<Diagnostic>> {
    if spec.values.is_empty() {
        return Err(vec![Diagnostic::error(
            "values",
            "a sweep of a parameter needs at least one value",
        )]);
    }
    check_size(spec.values.len(), seeds.len())?;
    let base = crate::request::RunOptions::default();
    let errors: Vec<Diagnostic> = (spec.values.iter().enumerate())
        .filter_map(|(i, v)| {
            base.with_option(&spec.parameter, v)
                .err()
                .map(|e| Diagnostic::error(format!("values[{i}]"), e.message))
        })
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok((
        spec.values
            .iter()
            .map(|v| (v.clone(), policy.clone()))
            .collect(),
        seeds,
    ))
}

fn check_size(values: usize, seeds: usize) -> Result<(), Vec<Diagnostic>> {
    if values.saturating_mul(seeds) > MAX_RUNS {
        return Err(vec![Diagnostic::error(
            "",
            format!(
                "{values} values x {seeds} seeds is {} runs; a sweep makes at most {MAX_RUNS}",
                values.saturating_mul(seeds)
            ),
        )]);
    }
    Ok(())
}

/// Every setting of an explicit policy that a sweep can vary (numbers and booleans), as JSON
/// Pointers with their current values, in document order.
pub fn settings(explicit: &Value) -> Vec<(String, Value)> {
    fn walk(v: &Value, at: String, out: &mut Vec<(String, Value)>) {
        match v {
            Value::Number(_) | Value::Bool(_) => out.push((at, v.clone())),
            Value::Object(m) => {
                for (k, x) in m {
                    walk(
                        x,
                        format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                        out,
                    );
                }
            }
            Value::Array(a) => {
                for (k, x) in a.iter().enumerate() {
                    walk(x, format!("{at}/{k}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(explicit, String::new(), &mut out);
    out
}

/// A setting's name for people, from its JSON Pointer into the explicit policy `explicit`:
/// `/filters/1/allocationRatio` is `Ram filter: allocation ratio` (the filter at index 1 being
/// a Ram filter), `/taskStopper/windowSize` is `task stopper: window size`, `/subsetSize` is
/// `subset size`. The pointer stays the setting's identity; this is only how it reads.
pub fn setting_label(explicit: &Value, pointer: &str) -> String {
    let segments: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    let mut parts: Vec<String> = Vec::new();
    let mut at = explicit;
    let mut i = 0;
    while i < segments.len() {
        let key = &segments[i];
        let next = &at[key.as_str()];
        let list = match key.as_str() {
            "filters" => Some("filter"),
            "weighers" => Some("weigher"),
            _ => None,
        };
        match (
            list,
            segments.get(i + 1).and_then(|k| k.parse::<usize>().ok()),
        ) {
            (Some(kind), Some(index)) => {
                let item = &next[index];
                let name = item["type"].as_str().unwrap_or("?");
                parts.push(format!("{name} {kind}"));
                at = item;
                i += 2;
            }
            _ => {
                parts.push(words(key));
                at = next;
                i += 1;
            }
        }
    }
    parts.join(": ")
}

/// `allocationRatio` as `allocation ratio`.
fn words(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// How a sweep's runs are made: given every (policy, value, seed) in order, their metrics in the
/// same order, `progress(done, total)` after each.
pub trait Runs {
    /// Every job's metrics, in job order.
    fn metrics(
        &mut self,
        jobs: &[(&Policy, &Value, u64)],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Vec<Metrics>;
}

/// Runs one after the other, with any closure `run(policy, value, seed)` (the page's session
/// keeps its state in cells, and wasm has one thread).
pub fn one_after_another(run: impl FnMut(&Policy, &Value, u64) -> Metrics) -> impl Runs {
    OneAfterAnother(run)
}

/// Runs side by side on the machine's cores ([`crate::parallel`]), with a closure threads can
/// share; the metrics come back in job order, so the report is the same bytes.
pub fn side_by_side(run: impl Fn(&Policy, &Value, u64) -> Metrics + Sync) -> impl Runs {
    SideBySide(run)
}

/// See [`one_after_another`].
struct OneAfterAnother<F>(F);

impl<F: FnMut(&Policy, &Value, u64) -> Metrics> Runs for OneAfterAnother<F> {
    fn metrics(
        &mut self,
        jobs: &[(&Policy, &Value, u64)],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Vec<Metrics> {
        let mut out = Vec::with_capacity(jobs.len());
        for &(policy, value, seed) in jobs {
            out.push((self.0)(policy, value, seed));
            progress(out.len(), jobs.len());
        }
        out
    }
}

/// See [`side_by_side`].
struct SideBySide<F>(F);

impl<F: Fn(&Policy, &Value, u64) -> Metrics + Sync> Runs for SideBySide<F> {
    fn metrics(
        &mut self,
        jobs: &[(&Policy, &Value, u64)],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Vec<Metrics> {
        let total = jobs.len();
        let mut out = Vec::with_capacity(total);
        crate::parallel::run_in_order(
            total,
            crate::parallel::workers(),
            |k, _| {
                let (policy, value, seed) = jobs[k];
                (self.0)(policy, value, seed)
            },
            &mut |_| {},
            |_, metrics| {
                out.push(metrics);
                progress(out.len(), total);
                true
            },
        );
        out
    }
}

/// Every run of a planned sweep (1-D, or a 2-D sweep's cells) in order: `(policy, value, seed)`,
/// each point under each seed in turn.
pub fn jobs<'p>(
    points: &'p [(Value, Policy)],
    seeds: &'p [u64],
) -> Vec<(&'p Policy, &'p Value, u64)> {
    points
        .iter()
        .flat_map(|(value, policy)| seeds.iter().map(move |&seed| (policy, value, seed)))
        .collect()
}

/// The metrics of runs `from..from + metrics.len()` of a sweep ([`jobs`] order), made in one
/// place: the page makes a sweep's two halves in its two workers, and [`from_parts`] hands them
/// to [`run`] for the report, the same bytes as one place gives. Crosses as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SweepPart {
    pub from: usize,
    pub metrics: Vec<Metrics>,
}

/// Makes runs `range` of `jobs` with `runs` (`progress(done, total)` of these).
pub fn run_part(
    jobs: &[(&Policy, &Value, u64)],
    range: std::ops::Range<usize>,
    mut runs: impl Runs,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SweepPart, Vec<Diagnostic>> {
    let Some(part) = jobs.get(range.clone()) else {
        return Err(vec![Diagnostic::error(
            "",
            format!(
                "runs {}..{} are not runs of this sweep: it has {} (0..{})",
                range.start,
                range.end,
                jobs.len(),
                jobs.len()
            ),
        )]);
    };
    Ok(SweepPart {
        from: range.start,
        metrics: runs.metrics(part, progress),
    })
}

/// Hands on the metrics of `parts` as a sweep's runs (every one of `total` runs once, checked).
pub fn from_parts(parts: Vec<SweepPart>, total: usize) -> Result<impl Runs, Vec<Diagnostic>> {
    let parts = parts.into_iter().map(|p| (p.from, p.metrics)).collect();
    crate::parallel::join_parts(parts, total)
        .map(Made)
        .map_err(|d| vec![d])
}

/// See [`from_parts`].
struct Made(Vec<Metrics>);

impl Runs for Made {
    fn metrics(
        &mut self,
        jobs: &[(&Policy, &Value, u64)],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Vec<Metrics> {
        progress(jobs.len(), jobs.len());
        std::mem::take(&mut self.0)
    }
}

/// Runs a planned sweep: `runs` gives every run's metrics (`run(policy, value, seed)`, `value`
/// the point's, for a sweep of a run option); `progress(done, total)` is called after each run.
pub fn run(
    parameter: &str,
    points: Vec<(Value, Policy)>,
    seeds: Vec<u64>,
    mut runs: impl Runs,
    progress: &mut dyn FnMut(usize, usize),
) -> SweepReport {
    let jobs = jobs(&points, &seeds);
    let mut metrics = runs.metrics(&jobs, progress).into_iter();
    let points = points
        .iter()
        .map(|(value, policy)| {
            let runs: Vec<Metrics> = metrics.by_ref().take(seeds.len()).collect();
            SweepPoint {
                value: value.clone(),
                policy: expand::to_json(policy),
                summary: summary(&runs),
                runs,
            }
        })
        .collect();
    SweepReport {
        parameter: parameter.to_string(),
        seeds,
        points,
    }
}

/// Mean, minimum and maximum of every numeric metric over the runs (sums in run order).
fn summary(runs: &[Metrics]) -> Map<String, Value> {
    let rows: Vec<Map<String, Value>> = runs.iter().map(metric_catalog::by_key).collect();
    let mut out = Map::new();
    let Some(first) = rows.first() else {
        return out;
    };
    for key in first.keys() {
        let xs: Vec<f64> = rows
            .iter()
            .filter_map(|r| r.get(key).and_then(Value::as_f64))
            .collect();
        if xs.is_empty() {
            out.insert(key.clone(), Value::Null);
            continue;
        }
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
        let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let spread = Spread {
            mean,
            min,
            max,
            runs: xs.len(),
        };
        out.insert(
            key.clone(),
            serde_json::to_value(spread).unwrap_or(Value::Null),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(text: &str) -> Policy {
        policy_from_text(text).expect("a valid policy").0
    }

    /// Side by side or one after the other, the same report: each run's metrics where its
    /// point and seed put them (a stand-in run whose makespan encodes the value, the seed and the
    /// policy's subset size), and a progress call per run ending at the total.
    #[test]
    fn runs_side_by_side_fill_the_report_as_runs_one_after_the_other() {
        let spec = SweepSpec {
            parameter: "/subsetSize".into(),
            values: (1..=5).map(Value::from).collect(),
            seeds: Some(4),
        };
        let plan = || {
            plan(
                &policy(r#"{"type": "prefab", "policyName": "Mem"}"#),
                &spec,
                10,
            )
        };
        let fake = |p: &Policy, v: &Value, seed: u64| Metrics {
            makespan_ms: v.as_i64().unwrap_or(-1) * 1000
                + seed as i64 * 10
                + expand::to_json(p)["subsetSize"].as_i64().unwrap_or(-1),
            ..Default::default()
        };
        let report = |side: bool| {
            let (points, seeds) = plan().expect("a plan");
            let mut calls = Vec::new();
            let mut progress = |done, total| calls.push((done, total));
            let r = if side {
                run(
                    "/subsetSize",
                    points,
                    seeds,
                    side_by_side(fake),
                    &mut progress,
                )
            } else {
                run(
                    "/subsetSize",
                    points,
                    seeds,
                    one_after_another(fake),
                    &mut progress,
                )
            };
            (serde_json::to_string(&r).expect("serialises"), calls, r)
        };
        let (one, calls, r) = report(false);
        let third = &r.points[2];
        let makespans: Vec<i64> = third.runs.iter().map(|m| m.makespan_ms).collect();
        assert_eq!(makespans, [3103, 3113, 3123, 3133]);
        assert_eq!(calls.last(), Some(&(20, 20)));
        let (side, side_calls, _) = report(true);
        assert_eq!(one, side);
        assert_eq!(side_calls, calls);
    }

    /// A sweep made in two parts, each through JSON text (as between the page's workers), gives
    /// the report of one run, byte for byte; parts that leave runs out are refused.
    #[test]
    fn parts_made_apart_give_the_report_of_one_run() {
        let spec = SweepSpec {
            parameter: "/subsetSize".into(),
            values: (1..=5).map(Value::from).collect(),
            seeds: Some(3),
        };
        let (points, seeds) = plan(
            &policy(r#"{"type": "prefab", "policyName": "Mem"}"#),
            &spec,
            4,
        )
        .expect("a plan");
        let fake = |p: &Policy, v: &Value, seed: u64| Metrics {
            makespan_ms: v.as_i64().unwrap_or(-1) * 1000 + seed as i64,
            mean_wait_ms: Some(
                seed as f64 / 3.0 + expand::to_json(p)["subsetSize"].as_f64().unwrap_or(0.0),
            ),
            ..Default::default()
        };
        let whole = run(
            "/subsetSize",
            points.clone(),
            seeds.clone(),
            one_after_another(fake),
            &mut |_, _| {},
        );
        let jobs = jobs(&points, &seeds);
        let part = |range| {
            let p = run_part(&jobs, range, one_after_another(fake), &mut |_, _| {}).expect("runs");
            let text = serde_json::to_string(&p).expect("serialises");
            serde_json::from_str::<SweepPart>(&text).expect("reads back")
        };
        let (a, b) = (part(0..8), part(8..15));
        let joined = from_parts(vec![b, a.clone()], jobs.len()).expect("every run");
        let parted = run(
            "/subsetSize",
            points.clone(),
            seeds.clone(),
            joined,
            &mut |_, _| {},
        );
        assert_eq!(
            serde_json::to_string(&parted).expect("serialises"),
            serde_json::to_string(&whole).expect("serialises")
        );
        assert_eq!(whole.points[1].runs[2].makespan_ms, 2006);
        let missing = from_parts(vec![a], jobs.len())
            .err()
            .expect("runs 8..15 missing");
        assert!(
            missing[0].message.contains("runs 0..8 of the 15"),
            "{}",
            missing[0].message
        );
        let outside = run_part(&jobs, 12..16, one_after_another(fake), &mut |_, _| {}).err();
        assert!(outside.is_some_and(|e| e[0].message.contains("it has 15")));
    }

    #[test]
    fn settings_read_as_names_with_their_filter_or_weigher() {
        let explicit = serde_json::json!({
            "type": "timeshift",
            "filters": [{"type": "Compute"}, {"type": "Ram", "allocationRatio": 1.5}],
            "weighers": [{"type": "CoreRam", "multiplier": -1.0}],
            "subsetSize": 1,
            "taskStopper": {"windowSize": 24, "a/b": 1}
        });
        let label = |p: &str| setting_label(&explicit, p);
        assert_eq!(
            label("/filters/1/allocationRatio"),
            "Ram filter: allocation ratio"
        );
        assert_eq!(
            label("/weighers/0/multiplier"),
            "CoreRam weigher: multiplier"
        );
        assert_eq!(label("/subsetSize"), "subset size");
        assert_eq!(
            label("/taskStopper/windowSize"),
            "task stopper: window size"
        );
        assert_eq!(label("/taskStopper/a~1b"), "task stopper: a/b");
        // A pointer past the policy still reads, its filter unnamed.
        assert_eq!(label("/filters/9/limit"), "? filter: limit");
    }

    #[test]
    fn a_prefab_setting_is_swept_through_the_explicit_form() {
        let p = policy(r#"{"type": "prefab", "policyName": "Mem"}"#);
        let explicit = expand::to_json(&p);
        let names: Vec<String> = settings(&explicit).into_iter().map(|(k, _)| k).collect();
        assert!(names.contains(&"/subsetSize".to_string()), "{names:?}");
        let spec = SweepSpec {
            parameter: "/subsetSize".into(),
            values: vec![1.into(), 3.into()],
            seeds: Some(2),
        };
        let (points, seeds) = plan(&p, &spec, 7).expect("a plan");
        assert_eq!(seeds, vec![7, 8]);
        assert_eq!(points.len(), 2);
        assert_eq!(points[1].1.subset_size, 3);
        assert_eq!(points[0].1.subset_size, 1);
    }

    #[test]
    fn bad_sweeps_are_errors_that_say_why() {
        let p = policy(r#"{"type": "prefab", "policyName": "Mem"}"#);
        let e = |spec: SweepSpec| plan(&p, &spec, 0).expect_err("refused")[0].message.clone();
        let m = e(SweepSpec {
            parameter: "/filters/9/allocationRatio".into(),
            values: vec![1.into()],
            seeds: None,
        });
        assert!(
            m.contains("names nothing") && m.contains("`/subsetSize`"),
            "{m}"
        );
        let m = e(SweepSpec {
            parameter: "/subsetSize".into(),
            values: vec![0.into()],
            seeds: None,
        });
        assert!(m.starts_with("/subsetSize = 0: "), "{m}");
        let m = e(SweepSpec {
            parameter: "/subsetSize".into(),
            values: vec![],
            seeds: None,
        });
        assert!(m.contains("at least one value"), "{m}");
        let m = e(SweepSpec {
            parameter: String::new(),
            values: vec![],
            seeds: Some(0),
        });
        assert!(m.contains("at least 1"), "{m}");
        let m = e(SweepSpec {
            parameter: "/subsetSize".into(),
            values: (1..=11).map(Value::from).collect(),
            seeds: Some(100),
        });
        assert!(m.contains("1100 runs"), "{m}");
    }

    #[test]
    fn the_summary_is_the_mean_minimum_and_maximum_over_the_seeds() {
        let mut runs = Vec::new();
        for (makespan, carbon) in [(10, Some(1.0)), (20, None), (60, Some(4.0))] {
            runs.push(Metrics {
                makespan_ms: makespan,
                carbon_g: carbon,
                ..Metrics::default()
            });
        }
        let s = summary(&runs);
        assert_eq!(
            s["makespanMs"],
            serde_json::json!({"mean": 30.0, "min": 10.0, "max": 60.0, "runs": 3})
        );
        assert_eq!(
            s["carbonG"],
            serde_json::json!({"mean": 2.5, "min": 1.0, "max": 4.0, "runs": 2})
        );
        assert_eq!(s["dynamicCarbonG"], Value::Null);
    }
}
