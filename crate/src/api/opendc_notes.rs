//! What OpenDC's code will do differently with an exported policy: the items of SPEC 9 that
//! apply to this policy and these options, each as one sentence a researcher can act on, so that
//! a study continued in OpenDC knows which figures to expect to move.

use crate::engine::Semantics;
use crate::policy::differences::differences;
use crate::policy::Policy;
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
    for d in differences(policy, Semantics::Classic) {
        // One note per kind: two CoreRam weighers are one difference.
        if !notes.contains(&d.text) {
            notes.push(d.text);
        }
    }
    if policy.timeshift.is_some() {
        if !has_carbon {
            notes.push(
                "No carbon trace: time-shifting has nothing to decide on, here or in OpenDC."
                    .to_string(),
            );
        }
        notes.push("Durations (SPEC 9.9): OpenDC's deferral test reads the `duration` column of tasks.parquet, which in some traces differs from the fragments it runs; the playground has one duration per task, written as that column.".to_string());
    }
    let mut add = |s: &str| notes.push(s.to_string());
    add("Tasks that fit no empty host (SPEC 9.10): the playground terminates them under any scheduler and ends a queue that can never progress; OpenDC checks only cores and memory, only for its filter path.");
    add("Unknown keys (SPEC 9.4): the playground rejects them, OpenDC ignores them; the exported policy has none.");
    notes
}
