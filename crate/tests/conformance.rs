//! Every case of OpenDC's conformance file (`tests/conformance/decisions.json`, copied from
//! `shared/conformance/`) and of this project's own cases (`tests/conformance/ours.json`) must
//! meet its expectations.

use policy_playground::case::{run_text, CaseOutcome};

fn run(file: &str) -> Vec<CaseOutcome> {
    let path = format!("{}/../tests/conformance/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    run_text(&text).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

fn assert_all_pass(file: &str, expected_cases: usize) {
    let outcomes = run(file);
    assert_eq!(outcomes.len(), expected_cases, "{file}: number of cases");
    let failed: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.ok)
        .map(|o| {
            format!(
                "{}: {}",
                o.name.clone().unwrap_or_default(),
                serde_json::to_string(o).unwrap()
            )
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{file}: failing cases:\n{}",
        failed.join("\n")
    );
}

#[test]
fn opendc_conformance_cases_pass() {
    assert_all_pass("decisions.json", 23);
}

#[test]
fn own_cases_pass() {
    assert_all_pass("ours.json", 39);
}

#[test]
fn the_shared_copy_is_unchanged() {
    // The copy under tests/ must stay identical to the shared file when that is present.
    let shared = format!(
        "{}/../../shared/conformance/decisions.json",
        env!("CARGO_MANIFEST_DIR")
    );
    if let Ok(original) = std::fs::read_to_string(shared) {
        let copy = std::fs::read_to_string(format!(
            "{}/../tests/conformance/decisions.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        assert_eq!(original, copy);
    }
}

#[test]
fn a_step_that_contradicts_its_expectation_fails() {
    let text = r#"{"policy": {"type": "filter", "filters": []}, "hosts": [{"name": "A", "cores": 1, "coreSpeed": 1, "memory": 1}],
                   "steps": [{"task": {}, "expect": "B"}]}"#;
    let outcome = &run_text(text).unwrap()[0];
    assert!(!outcome.ok);
    assert_eq!(outcome.steps[0].matches, Some(false));
}
