//! The parquet workload reader: the input split in two (a u16 length, then tasks.parquet, then
//! fragments.parquet).
#![no_main]
use libfuzzer_sys::fuzz_target;
use policy_playground::input::workload;
use policy_playground_fuzz::{check_failure, split};

fuzz_target!(|data: &[u8]| {
    let (tasks, fragments) = split(data);
    match workload::read_parquet_workload(tasks, fragments) {
        Ok(w) => {
            for t in &w.tasks {
                assert!(t.cpu_count >= 1, "{t:?}");
                assert!(t.duration_ms >= 1, "{t:?}");
                assert!(!t.fragments.is_empty(), "{t:?}");
                assert!(t.fragments.end <= w.fragments.end(), "{t:?}");
                let sum: i64 = w.task_fragments(t).map(|(d, _)| d).sum();
                assert_eq!(sum, t.duration_ms, "{t:?}");
                if let Some(d) = t.deadline_ms {
                    assert!(d >= t.submission_ms, "{t:?}");
                }
            }
        }
        Err(ds) => check_failure(None, &ds),
    }
});
