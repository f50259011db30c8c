//! The topology reader (legacy and SDK JSON), from text and from a parsed value.
#![no_main]
use libfuzzer_sys::fuzz_target;
use policy_playground::input::topology;
use policy_playground_fuzz::{check_failure, check_positions, text};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    match topology::read_topology(text) {
        Ok(t) => {
            check_positions(Some(text), &t.warnings);
            let n = t.host_count();
            assert!(n >= 1 && n <= topology::MAX_HOSTS, "{n} hosts");
            if n <= 10_000 {
                let hosts = t.hosts();
                assert_eq!(hosts.len() as u64, n);
                assert!(hosts.iter().any(|h| h.cores >= 1), "no host with a core");
                for h in &hosts {
                    assert!(h.core_speed_mhz.is_finite() && h.core_speed_mhz >= 0.0, "{h:?}");
                    assert!(h.memory_mib >= 0, "{h:?}");
                }
                let mut names: Vec<&str> = hosts.iter().map(|h| h.name.as_str()).collect();
                names.sort_unstable();
                let before = names.len();
                names.dedup();
                let _ = before;
            }
        }
        Err(ds) => check_failure(Some(text), &ds),
    }
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
        if let Err(ds) = topology::topology_from_value(&value) {
            check_failure(None, &ds);
        }
    }
});
