//! Differential test (issue 15, item 2): the simulator against a second, deliberately simple
//! implementation of SPEC 2-8 (`differential/reference.rs` and its `ref_*` modules), on seeded
//! random small scenarios (`differential/generate.rs`).
//!
//! Every task's host, start, finish, state, wait, deferral and pause spans and runs, every
//! metric, and every host's busy time, energy and carbon must agree: integers exactly, floats to
//! a relative 1e-12. A disagreement prints its seed, the first differing field and the scenario
//! as a `simulate --scenario` file; `cargo run --example differential -- --shrink SEED` reduces
//! it.
//!
//! It found a fourth: hosts' busy time was integrated after the host's running set changed, so
//! the time before a host's first task counted as busy and its last task's time did not
//! (1,952 of 2,000 seeds disagreed; seed 0 on `hosts[..].busyMs`).
//!
//! The suite catches each of the three simulator bugs fixed just before it was written, when
//! that fix alone is reverted (found by reverting each in a scratch copy; the first differing
//! field in brackets):
//! - (a) a stale latest start, a wake-up from a stay in the queue before a pause that started
//!   the task (SPEC 7.3): 30 seeds, among them 183 (`tasks[0].deferrals`), 184, 340, 529
//!   (`finishMs`), 769 (`host`);
//! - (b) a rejected submission that made no cycle due (SPEC 6.2; seen through memorizing skip
//!   counts): 13 seeds, 179, 402, 469, 1021 (`startMs`), 447, 708 (`deferrals`), 891, 1023,
//!   1091, 1230, 1624, 1715, 1991;
//! - (c) host usage kept as a running total of increments, whose residue `sqrt` magnifies
//!   (SPEC 6.5): 38 seeds, among them 32, 45, 55, 57, 82 (`metrics.energyJ`).
//!
//! Where SPEC leaves a choice open the reference follows the simulator: the start of a carbon
//! trace's first sample, when that is after time 0, is no instant of its own (the sample is in
//! force from 0); and a latest start is due only while the task is still deferred (a task whose
//! deferral ended in a cycle that could not place it makes no cycle due at its latest start).

#[path = "differential/compare.rs"]
mod compare;
#[path = "differential/gen_policy.rs"]
mod gen_policy;
#[allow(dead_code)]
#[path = "differential/generate.rs"]
mod generate;
#[path = "differential/ref_energy.rs"]
mod ref_energy;
#[path = "differential/ref_hosts.rs"]
mod ref_hosts;
#[path = "differential/ref_policy.rs"]
mod ref_policy;
#[path = "differential/ref_result.rs"]
mod ref_result;
#[path = "differential/ref_task.rs"]
mod ref_task;
#[path = "differential/reference.rs"]
mod reference;
#[allow(dead_code)]
#[path = "differential/suite.rs"]
mod suite;

use std::time::Instant;

/// Each feature of the rules must be exercised by at least this many scenarios of the suite.
const MIN_COVERAGE: usize = 10;

#[test]
fn the_simulator_agrees_with_the_reference() {
    let started = Instant::now();
    let mut tally = suite::Tally::default();
    let mut failures = Vec::new();
    for seed in suite::seeds() {
        let (doc, verdict) = suite::run_seed(seed);
        let verdict = verdict.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        tally.add(&verdict);
        if let Some(d) = &verdict.difference {
            failures.push((seed, suite::report(seed, &doc, d)));
        }
    }
    eprintln!(
        "differential: {} in {:.1} s",
        tally.summary(),
        started.elapsed().as_secs_f64()
    );
    let seeds: Vec<u64> = failures.iter().take(20).map(|f| f.0).collect();
    let shown: Vec<&str> = failures.iter().take(3).map(|f| f.1.as_str()).collect();
    assert!(
        failures.is_empty(),
        "{} scenarios disagree (seeds {seeds:?}...); the first:\n{}",
        failures.len(),
        shown.join("\n")
    );
    let short = tally.short_of(MIN_COVERAGE);
    assert!(
        short.is_empty(),
        "features exercised by fewer than {MIN_COVERAGE} scenarios: {short:?}"
    );
}
