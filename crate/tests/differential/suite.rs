//! The differential suite shared by the test and the example: which seeds it runs, one seed's
//! verdict, the report of a disagreement, and the coverage tally.

use super::compare::{check, Verdict};
use super::generate;
use serde_json::Value;

/// The suite runs the scenarios of seeds `0..SEEDS`.
pub const SEEDS: u64 = 2000;

/// Seeds outside `0..SEEDS` that the suite also runs (none needed so far: every seed that
/// catches one of the reverted fixes lies in the range; see the test's documentation).
pub const EXTRA_SEEDS: &[u64] = &[];

/// Every seed of the suite.
pub fn seeds() -> impl Iterator<Item = u64> {
    (0..SEEDS).chain(EXTRA_SEEDS.iter().copied())
}

/// The scenario of `seed` and its verdict.
pub fn run_seed(seed: u64) -> (Value, Result<Verdict, String>) {
    let doc = generate::scenario(seed);
    let verdict = check(&doc);
    (doc, verdict)
}

/// A disagreement, with everything needed to rerun it.
pub fn report(seed: u64, doc: &Value, difference: &str) -> String {
    let text = serde_json::to_string_pretty(doc).unwrap_or_default();
    format!(
        "seed {seed}: {difference}\nscenario (save as file.json, then `policy-playground simulate --scenario file.json --json`):\n{text}\n"
    )
}

/// How many scenarios exercised each feature and each kind of policy.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    pub scenarios: usize,
    pub counts: Vec<(String, usize)>,
}

impl Tally {
    /// Counts one verdict.
    pub fn add(&mut self, v: &Verdict) {
        self.scenarios += 1;
        let mut features = v.coverage.features();
        for kind in [
            "prefab",
            "filter",
            "memorizing",
            "timeshift",
            "timeshift+stopper",
        ] {
            features.push((format!("policy {kind}"), v.kinds.contains(&kind)));
        }
        for (name, used) in features {
            match self.counts.iter_mut().find(|(n, _)| *n == name) {
                Some((_, c)) => *c += used as usize,
                None => self.counts.push((name, used as usize)),
            }
        }
    }

    /// One line per feature.
    pub fn summary(&self) -> String {
        let lines: Vec<String> = self
            .counts
            .iter()
            .map(|(n, c)| format!("  {c:4}  {n}"))
            .collect();
        format!("{} scenarios:\n{}", self.scenarios, lines.join("\n"))
    }

    /// The features exercised by fewer than `at_least` scenarios.
    pub fn short_of(&self, at_least: usize) -> Vec<String> {
        self.counts
            .iter()
            .filter(|(_, c)| *c < at_least)
            .map(|(n, c)| format!("{n} ({c})"))
            .collect()
    }
}
