//! The regression scenarios of issue 15 (`tests/conformance/regressions/`), run natively
//! through the api's scenario path: each gives exactly the result worked out from SPEC.

#[path = "common/regressions.rs"]
mod regressions;

use policy_playground::api::simulate_json_str;
use regressions::{mismatches, REGRESSIONS};
use serde_json::Value;

#[test]
fn each_regression_scenario_gives_its_worked_out_result() {
    let mut failures = Vec::new();
    for r in REGRESSIONS {
        let answer: Value = serde_json::from_str(&simulate_json_str(r.scenario))
            .unwrap_or_else(|e| panic!("{}: the answer is not JSON: {e}", r.file));
        assert_eq!(answer["type"], "success", "{}: {answer}", r.file);
        failures.extend(mismatches(r, &answer["value"]));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_copies_match_the_shared_scenarios() {
    // tests/conformance/regressions/ is a copy of shared/conformance/regressions/, kept so
    // that a clone without ../shared still runs these tests.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/conformance/regressions");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().into_string().unwrap_or_default();
        let copy = format!(
            "{}/../tests/conformance/regressions/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let original = std::fs::read(entry.path()).unwrap_or_default();
        assert_eq!(
            std::fs::read(&copy).ok(),
            Some(original),
            "{copy} differs from {}",
            entry.path().display()
        );
    }
}

#[test]
fn a_wrong_expectation_is_reported_with_its_field() {
    // The checker itself must see a difference: the A scenario against W's expectations.
    let answer: Value =
        serde_json::from_str(&simulate_json_str(REGRESSIONS[0].scenario)).expect("JSON");
    let found = mismatches(&REGRESSIONS[1], &answer["value"]);
    assert!(found.iter().any(|m| m.contains("makespanMs 14400000")), "{found:?}");
    assert!(found.iter().any(|m| m.contains("task w")), "{found:?}");
}
