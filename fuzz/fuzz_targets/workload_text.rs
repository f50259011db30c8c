//! The JSON and CSV workload readers, both on every input.
#![no_main]
use libfuzzer_sys::fuzz_target;
use policy_playground::input::workload;
use policy_playground::model::Workload;
use policy_playground_fuzz::{check_failure, check_positions, text};

/// What every workload a reader accepts must satisfy.
fn check_workload(w: &Workload, text: Option<&str>) {
    check_positions(text, &w.warnings);
    for t in &w.tasks {
        assert!(t.cpu_count >= 1, "{t:?}");
        assert!(t.duration_ms >= 1, "{t:?}");
        assert!(t.memory_mib >= 0, "{t:?}");
        assert!(t.cpu_capacity_mhz.is_finite() && t.cpu_capacity_mhz >= 0.0, "{t:?}");
        if let Some(d) = t.deadline_ms {
            assert!(d >= t.submission_ms, "{t:?}");
        }
        assert!(t.fragments.end <= w.fragments.end(), "{t:?}");
        if !t.fragments.is_empty() {
            let sum: i64 = w.task_fragments(t).map(|(d, _)| d).sum();
            assert_eq!(sum, t.duration_ms, "{t:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    match workload::read_json_workload(text) {
        Ok(w) => check_workload(&w, Some(text)),
        Err(ds) => check_failure(Some(text), &ds),
    }
    match workload::read_csv_workload(text) {
        Ok(w) => check_workload(&w, None),
        Err(ds) => check_failure(None, &ds),
    }
});
