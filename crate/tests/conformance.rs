//! Every case of OpenDC's conformance file (`tests/conformance/decisions.json`, copied from
//! `shared/conformance/`), of the Current decision cases (`tests/conformance/opendc3/cases.json`,
//! SPEC 11.13, copied the same way) and of this project's own cases
//! (`tests/conformance/ours.json`) must meet its expectations.

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

/// The `decisions` of the Current case file, each worked out by hand from SPEC 11.12 (the
/// file is an object; its `experiments` are simulated elsewhere, not decided).
#[test]
fn opendc3_decision_cases_pass() {
    assert_all_pass("opendc3/cases.json", 12);
    assert!(run("opendc3/cases.json")
        .iter()
        .all(|o| o.semantics == policy_playground::engine::Semantics::Current));
}

#[test]
fn own_cases_pass() {
    assert_all_pass("ours.json", 39);
}

/// The checkout's root: the directory above the crate.
fn checkout() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Guards the copy `tests/conformance/decisions.json` against drifting from OpenDC's conformance
/// file in `shared/`, which lies beside the checkout (CI clones shared/ beside it). A missing
/// shared file fails: a test that passes without its subject checks nothing.
#[test]
fn the_shared_copy_is_unchanged() {
    assert_copy_unchanged("decisions.json");
}

/// The same guard for the Current cases, `opendc3/cases.json`.
#[test]
fn the_shared_opendc3_copy_is_unchanged() {
    assert_copy_unchanged("opendc3/cases.json");
}

fn assert_copy_unchanged(file: &str) {
    let shared = checkout().join("../shared/conformance").join(file);
    let original = std::fs::read_to_string(&shared).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; the shared data must be at <checkout>/../shared/conformance/{file} \
             (CI puts shared/ beside the clone)",
            shared.display()
        )
    });
    let copy_path = checkout().join("tests/conformance").join(file);
    let copy = std::fs::read_to_string(&copy_path)
        .unwrap_or_else(|e| panic!("{}: {e}", copy_path.display()));
    assert!(
        original == copy,
        "{} differs from {}",
        copy_path.display(),
        shared.display()
    );
}

#[test]
fn a_step_that_contradicts_its_expectation_fails() {
    let text = r#"{"policy": {"type": "filter", "filters": []}, "hosts": [{"name": "A", "cores": 1, "coreSpeed": 1, "memory": 1}],
                   "steps": [{"task": {}, "expect": "B"}]}"#;
    let outcome = &run_text(text).unwrap()[0];
    assert!(!outcome.ok);
    assert_eq!(outcome.steps[0].matches, Some(false));
}
