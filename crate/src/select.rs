//! Part of a workload, for exploring a trace too large to run whole (in the browser, or quickly):
//! "take a window" (the tasks submitted in a time range) and "sample a fraction" (each task kept
//! with a seeded probability). Both are rules on single tasks, so they can be applied to a
//! workload in memory ([`select`]) or while a trace is read (a reader asks [`Selection::keeps`]
//! of each task), with the same result.
//!
//! - **Window** `[fromMs, toMs)`: a task is kept when `fromMs <= submission < toMs` (absolute
//!   ms; either end may be open). It is kept whole: its fragments are all kept, even those
//!   running past `toMs`, so a kept task runs as in the whole trace.
//! - **Sample** `fraction` with `seed`: a task is kept when its key
//!   `(splitmix64(fnv1a64(id) ^ splitmix64(seed)) >> 11) × 2^-53` is below `fraction`, where
//!   `fnv1a64` is 64-bit FNV-1a over the id's UTF-8 bytes and `splitmix64` SplitMix64's
//!   finaliser. So about `fraction` of the tasks are kept (each independently, not exactly that
//!   many); the same seed keeps the same tasks in any order, in any window and in any format of
//!   the trace, and a larger fraction keeps a superset. OpenDC's `sampleFraction` draws from an
//!   unseeded generator (SPEC 11.7), so its samples cannot be reproduced; this one can.
//!
//! Both together keep the tasks that pass both. The tasks keep their input order and fields.

use crate::diag::Diagnostic;
use crate::model::Workload;
use serde::Serialize;
use serde_json::Value;

/// Which tasks of a workload to keep.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Selection {
    /// Keep tasks submitted at or after this, ms since the epoch (absent: from the first); a
    /// request may also write it as ISO-8601 text.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number | string"))]
    pub from_ms: Option<i64>,
    /// Keep tasks submitted before this, ms since the epoch or ISO-8601 (absent: to the last).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number | string"))]
    pub to_ms: Option<i64>,
    /// Keep each task with this probability, in (0, 1] (absent: every task).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub fraction: Option<f64>,
    /// The sample's seed.
    pub seed: u64,
}

/// SplitMix64's finaliser.
fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// 64-bit FNV-1a of `bytes`.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The sample key of task `id` under `seed`, uniform in [0, 1).
pub fn sample_key(seed: u64, id: &str) -> f64 {
    let bits = splitmix64(fnv1a64(id.as_bytes()) ^ splitmix64(seed)) >> 11;
    bits as f64 * (1.0 / (1u64 << 53) as f64)
}

impl Selection {
    /// Parses a selection `{"fromMs", "toMs", "fraction", "seed"}` (times as ms since the epoch
    /// or ISO-8601 text) and checks it; each problem is an error naming its key.
    pub fn from_json(text: &str) -> Result<Self, Vec<Diagnostic>> {
        const KEYS: [&str; 4] = ["fromMs", "toMs", "fraction", "seed"];
        let error = |path: &str, message: String| vec![Diagnostic::error(path, message)];
        let value: Value = serde_json::from_str(text)
            .map_err(|e| error("selection", format!("the selection is not JSON: {e}")))?;
        let Value::Object(map) = value else {
            return Err(error(
                "selection",
                "a selection is an object {\"fromMs\", \"toMs\", \"fraction\", \"seed\"}".into(),
            ));
        };
        let mut errors = Vec::new();
        for k in map.keys().filter(|k| !KEYS.contains(&k.as_str())) {
            errors.push(Diagnostic::error(
                k.as_str(),
                crate::input::problems::unknown_key(k, &KEYS),
            ));
        }
        let get = |k: &str| map.get(k).filter(|v| !v.is_null());
        let mut time = |k: &str| match get(k).map(crate::input::time::parse_time_value) {
            None => None,
            Some(Ok(t)) => Some(t),
            Some(Err(e)) => {
                errors.push(Diagnostic::error(k, format!("`{k}`: {e}")));
                None
            }
        };
        let (from_ms, to_ms) = (time("fromMs"), time("toMs"));
        let fraction = match get("fraction") {
            None => None,
            Some(v) => match v.as_f64() {
                Some(f) => Some(f),
                None => {
                    errors.push(Diagnostic::error(
                        "fraction",
                        format!("`fraction` must be a number in (0, 1], found {v}"),
                    ));
                    None
                }
            },
        };
        let seed = match get("seed") {
            None => 0,
            Some(v) => v.as_u64().unwrap_or_else(|| {
                errors.push(Diagnostic::error(
                    "seed",
                    format!("`seed` must be an integer >= 0, found {v}"),
                ));
                0
            }),
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        let s = Selection {
            from_ms,
            to_ms,
            fraction,
            seed,
        };
        s.check().map(|()| s)
    }

    /// The errors of a selection that cannot keep anything or is out of range.
    pub fn check(&self) -> Result<(), Vec<Diagnostic>> {
        let mut errors = Vec::new();
        if let (Some(from), Some(to)) = (self.from_ms, self.to_ms) {
            if to <= from {
                errors.push(Diagnostic::error(
                    "toMs",
                    format!("the window ends ({to}) at or before it starts ({from})"),
                ));
            }
        }
        if let Some(f) = self.fraction {
            if !(f.is_finite() && f > 0.0 && f <= 1.0) {
                errors.push(Diagnostic::error(
                    "fraction",
                    format!("the fraction to sample must be in (0, 1], found {f}"),
                ));
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// True when the selection keeps every task.
    pub fn keeps_all(&self) -> bool {
        self.from_ms.is_none() && self.to_ms.is_none() && self.fraction.is_none_or(|f| f >= 1.0)
    }

    /// Whether the task `id` submitted at `submission_ms` is kept.
    pub fn keeps(&self, id: &str, submission_ms: i64) -> bool {
        self.from_ms.is_none_or(|from| submission_ms >= from)
            && self.to_ms.is_none_or(|to| submission_ms < to)
            && self
                .fraction
                .is_none_or(|f| f >= 1.0 || sample_key(self.seed, id) < f)
    }

    /// What the selection keeps, in words (for warnings and summaries).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.from_ms.is_some() || self.to_ms.is_some() {
            let end = |t: Option<i64>| t.map_or("open".to_string(), |t| t.to_string());
            parts.push(format!(
                "tasks submitted in [{}, {}) ms",
                end(self.from_ms),
                end(self.to_ms)
            ));
        }
        if let Some(f) = self.fraction.filter(|&f| f < 1.0) {
            parts.push(format!("a sample of {f} (seed {})", self.seed));
        }
        if parts.is_empty() {
            "every task".into()
        } else {
            parts.join(", ")
        }
    }
}

/// The tasks of `w` that `s` keeps, with their fragments; an error when none is kept.
pub fn select(w: &Workload, s: &Selection) -> Result<Workload, Vec<Diagnostic>> {
    s.check()?;
    let mut out = Workload {
        dropped: w.dropped,
        warnings: w.warnings.clone(),
        ..Workload::default()
    };
    for t in w.tasks.iter().filter(|t| s.keeps(&t.id, t.submission_ms)) {
        let start = out.fragments.begin_task();
        for run in w.fragments.runs(&t.fragments) {
            let p = w.fragments.piece(run);
            out.fragments
                .push_run(p.duration_ms, p.cpu_usage_mhz, run.count);
        }
        let mut task = t.clone();
        task.fragments = start..out.fragments.end();
        out.tasks.push(task);
    }
    if out.tasks.is_empty() {
        return Err(vec![Diagnostic::error(
            "selection",
            format!(
                "the selection ({}) keeps none of the workload's {} tasks",
                s.describe(),
                w.tasks.len()
            ),
        )]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TaskSpec;

    /// Tasks `a`..`h` submitted at 0, 10, ..., 70 ms, task k with k + 1 fragments of 5 ms
    /// using k MHz.
    fn workload() -> Workload {
        let mut w = Workload::default();
        for (k, id) in ["a", "b", "c", "d", "e", "f", "g", "h"].iter().enumerate() {
            let task = TaskSpec {
                id: id.to_string(),
                name: id.to_string(),
                submission_ms: 10 * k as i64,
                duration_ms: 5 * (k as i64 + 1),
                cpu_count: 1,
                cpu_capacity_mhz: 8.0,
                memory_mib: 1,
                gpu_count: 0,
                gpu_capacity_mhz: 0.0,
                deferrable: false,
                deadline_ms: None,
                fragments: 0..0,
            };
            w.push_task(task, (0..=k).map(|_| (5, k as f64)));
        }
        w
    }

    fn ids(w: &Workload) -> Vec<&str> {
        w.tasks.iter().map(|t| t.id.as_str()).collect()
    }

    /// [20, 50) keeps c (20), d (30) and e (40), with 3 + 4 + 5 fragments of usages 2, 3, 4.
    #[test]
    fn a_window_keeps_the_tasks_submitted_in_it_whole() {
        let s = Selection {
            from_ms: Some(20),
            to_ms: Some(50),
            ..Selection::default()
        };
        let w = select(&workload(), &s).expect("some tasks");
        assert_eq!(ids(&w), ["c", "d", "e"]);
        let fragments: Vec<(i64, f64)> = w.tasks.iter().flat_map(|t| w.task_fragments(t)).collect();
        let usages: Vec<f64> = fragments.iter().map(|f| f.1).collect();
        assert!(fragments.iter().all(|f| f.0 == 5));
        assert_eq!(
            usages,
            [2.0, 2.0, 2.0, 3.0, 3.0, 3.0, 3.0, 4.0, 4.0, 4.0, 4.0, 4.0]
        );
        let counts: Vec<_> = w.tasks.iter().map(|t| w.fragment_count(t)).collect();
        assert_eq!(counts, [3, 4, 5]);
        // Open ends: from 60 on is g and h; before 10 is a.
        let from = Selection {
            from_ms: Some(60),
            ..Selection::default()
        };
        assert_eq!(ids(&select(&workload(), &from).expect("g, h")), ["g", "h"]);
        let to = Selection {
            to_ms: Some(10),
            ..Selection::default()
        };
        assert_eq!(ids(&select(&workload(), &to).expect("a")), ["a"]);
    }

    /// The keys of a..h, worked out separately (Python, the formula of the module doc):
    /// seed 7: a 0.701, b 0.553, c 0.777, d 0.875, e 0.457, f 0.688, g 0.118, h 0.111;
    /// seed 8: a 0.556, b 0.303, c 0.806, d 0.011, e 0.336, f 0.626, g 0.294, h 0.185.
    #[test]
    fn a_sample_keeps_the_tasks_whose_key_is_below_the_fraction() {
        let key = |seed, id| (sample_key(seed, id) * 1e6).round() / 1e6;
        assert_eq!(key(7, "a"), 0.70135);
        assert_eq!(key(7, "e"), 0.456577);
        assert_eq!(key(8, "d"), 0.011381);
        let sample = |fraction, seed| {
            let s = Selection {
                fraction: Some(fraction),
                seed,
                ..Selection::default()
            };
            ids(&select(&workload(), &s).expect("some")).join("")
        };
        assert_eq!(sample(0.5, 7), "egh");
        assert_eq!(sample(0.6, 7), "begh");
        assert_eq!(sample(0.5, 8), "bdegh");
        assert_eq!(sample(1.0, 7), "abcdefgh");
        // With a window: the same tasks as the sample of the window.
        let both = Selection {
            from_ms: Some(40),
            fraction: Some(0.5),
            seed: 7,
            ..Selection::default()
        };
        assert_eq!(
            ids(&select(&workload(), &both).expect("e, g, h")),
            ["e", "g", "h"]
        );
    }

    #[test]
    fn empty_or_impossible_selections_are_errors() {
        let none = Selection {
            from_ms: Some(1000),
            ..Selection::default()
        };
        let e = select(&workload(), &none).expect_err("empty");
        assert_eq!(
            e[0].message,
            "the selection (tasks submitted in [1000, open) ms) keeps none of the workload's 8 tasks"
        );
        let bad =
            Selection::from_json(r#"{"fromMs": 5, "toMs": 5, "fraction": 0}"#).expect_err("bad");
        let paths: Vec<&str> = bad.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["toMs", "fraction"]);
        let e = Selection::from_json(r#"{"fromMS": 1, "toMs": "2022-13-01", "seed": -1}"#)
            .expect_err("bad");
        let paths: Vec<&str> = e.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["fromMS", "toMs", "seed"]);
        assert_eq!(
            e[0].message,
            "unknown key \"fromMS\"; did you mean \"fromMs\"?"
        );
        let iso =
            Selection::from_json(r#"{"fromMs": "2022-06-13T06:00:00Z", "toMs": 1655200000000}"#)
                .expect("valid");
        assert_eq!(
            (iso.from_ms, iso.to_ms),
            (Some(1_655_100_000_000), Some(1_655_200_000_000))
        );
        assert!(Selection::default().keeps_all());
    }
}
