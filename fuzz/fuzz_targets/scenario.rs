//! The scenario file: any text through the reader; a small scenario that reads is simulated
//! (bounded by the simulator's own time limit) and its result checked.
#![no_main]
use libfuzzer_sys::fuzz_target;
use policy_playground::scenario;
use policy_playground_fuzz::{check_failure, check_positions, check_result, text};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    match scenario::read(text) {
        Ok(s) => {
            check_positions(Some(text), &s.warnings);
            if s.workload.tasks.len() <= 64
                && s.topology.host_count() <= 64
                && s.workload.fragments.len() <= 1024
            {
                let r = s.request().run(&mut |_| {}).expect("a scenario read is a valid request").result;
                check_result(&r);
            }
        }
        Err(ds) => check_failure(Some(text), &ds),
    }
});
