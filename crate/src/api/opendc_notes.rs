//! What OpenDC's code will do differently with an exported policy: the items of SPEC 9 that
//! apply to this policy and these options, each as one sentence a researcher can act on, so that
//! a study continued in OpenDC knows which figures to expect to move.

use crate::policy::{Filter, Policy, WeigherKind};
use crate::sim::DEFAULT_QUANTUM_MS;

/// The notes for an OpenDC experiment running `policy` with this quantum and carbon trace.
pub fn notes(policy: &Policy, quantum_ms: i64, has_carbon: bool) -> Vec<String> {
    let mut notes = vec![
        "OpenDC reads the workload folder `workload/` (tasks.parquet, fragments.parquet), `topology.json` and `carbon.parquet` beside experiment.json; run it from that folder.".to_string(),
    ];
    let mut add = |s: &str| notes.push(s.to_string());
    if quantum_ms != DEFAULT_QUANTUM_MS {
        add(&format!("The scheduling quantum of {quantum_ms} ms is not an OpenDC experiment setting: OpenDC schedules every 1000 ms."));
    }
    if policy.memorize {
        add("Memorizing scheduler (SPEC 9.8): OpenDC's bucket index can overshoot and hide emptier hosts, counts a skip more than once per cycle and stops its walk after 10 000 tasks, so placements can differ.");
    } else {
        if policy.subset_size > 1 {
            add(&format!("subsetSize {} (SPEC 9, filter scheduler): OpenDC after v2.4f ignores subsetSize and considers one empty host per host type; v2.4e/v2.4f pick at random among the best {} as here, but from another random stream.", policy.subset_size, policy.subset_size));
        }
        if policy
            .weighers
            .iter()
            .any(|w| w.kind == WeigherKind::CoreRam)
        {
            add("CoreRam weigher (SPEC 9.1): OpenDC applies its multiplier twice, so a negative multiplier (CoreMemInv) behaves like a positive one there.");
        }
        if policy
            .weighers
            .iter()
            .any(|w| w.kind == WeigherKind::VCpu && w.multiplier < 0.0)
        {
            add("VCpu weigher with a negative multiplier (SPEC 9.3): OpenDC's legacy reader passes the multiplier as the allocation ratio and fails on a negative one.");
        }
        if policy.weighers.len() > 1
            || policy
                .weighers
                .iter()
                .any(|w| w.kind == WeigherKind::InstanceCount)
        {
            add("Weigher normalisation (SPEC 9.2): where every host scores the same (often zero at the start), OpenDC's normalisation gives NaN while the playground adds nothing; ties can then break differently.");
        }
        if policy
            .filters
            .iter()
            .any(|f| matches!(f, Filter::SameHost | Filter::DifferentHost))
        {
            add("SameHost / DifferentHost: without effect here and in OpenDC after v2.4f; v2.4f honours scheduler hints.");
        }
    }
    if let Some(ts) = &policy.timeshift {
        add("Time-shifting (SPEC 9.6): deferred tasks get a wake-up at their latest start here; OpenDC has none and can miss deadlines or leave tasks queued.");
        if ts.forecast {
            add(&format!("Forecast mode (SPEC 9.7): OpenDC's forecast holds forecastSize - 1 = {} values, the playground's {}.", ts.forecast_size.saturating_sub(1), ts.forecast_size));
        } else {
            add("Window mode (SPEC 9.7): OpenDC requires a rising intensity for short tasks and counts a spurious first value in its window.");
        }
        if ts.task_stopper.is_some() {
            add("Task stopper (SPEC 9.5): OpenDC pauses every running task and re-places the non-deferrable ones at once; here only deferrable tasks that can still meet their deadline pause, at sample starts.");
        }
        if !has_carbon {
            add("No carbon trace: time-shifting has nothing to decide on, here or in OpenDC.");
        }
        add("Durations (SPEC 9.9): OpenDC's deferral test reads the `duration` column of tasks.parquet, which in some traces differs from the fragments it runs; the playground has one duration per task, written as that column.");
    }
    add("Tasks that fit no empty host (SPEC 9.10): the playground terminates them under any scheduler and ends a queue that can never progress; OpenDC checks only cores and memory, only for its filter path.");
    add("Unknown keys (SPEC 9.4): the playground rejects them, OpenDC ignores them; the exported policy has none.");
    notes
}
