//! The carbon readers: parquet on the bytes, CSV and JSON on the text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use policy_playground::input::carbon;
use policy_playground::model::CarbonTrace;
use policy_playground_fuzz::{check_failure, text};

fn check_trace(c: &CarbonTrace) {
    assert!(!c.is_empty());
    assert_eq!(c.timestamps_ms.len(), c.intensity.len());
    assert!(c.timestamps_ms.windows(2).all(|w| w[0] < w[1]), "{c:?}");
    assert!(c.intensity.iter().all(|v| v.is_finite() && *v >= 0.0), "{c:?}");
}

fuzz_target!(|data: &[u8]| {
    match carbon::read_carbon_parquet(data) {
        Ok(c) => check_trace(&c),
        Err(ds) => check_failure(None, &ds),
    }
    let Some(text) = text(data) else { return };
    match carbon::read_carbon_csv(text) {
        Ok(c) => check_trace(&c),
        Err(ds) => check_failure(None, &ds),
    }
    match carbon::read_carbon_json(text) {
        Ok(c) => check_trace(&c),
        Err(ds) => check_failure(Some(text), &ds),
    }
});
