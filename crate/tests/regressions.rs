//! The regression scenarios of issue 15 (`tests/conformance/regressions/`), run natively
//! through the api's scenario path: each gives exactly the result worked out from SPEC.

#[path = "common/regressions.rs"]
mod regressions;

use policy_playground::api::simulate_json_str;
use regressions::{mismatches, REGRESSIONS};
use serde_json::Value;
use std::path::Path;

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

/// The names of the files in `dir`, sorted; a missing directory fails with `hint`.
fn file_names(dir: &Path, hint: &str) -> Vec<String> {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}; {hint}", dir.display()));
    let mut names: Vec<String> = entries
        .map(|e| {
            e.expect("a directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// Guards `tests/conformance/regressions/`, the copy kept so that a clone without ../shared
/// still runs the regression scenarios, against drifting from `shared/conformance/regressions/`
/// beside the checkout: the same files, byte for byte, none more and none fewer on either side.
/// A missing shared directory fails (CI clones shared/ beside the checkout).
#[test]
fn the_copies_match_the_shared_scenarios() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let shared = root.join("../shared/conformance/regressions");
    let copy = root.join("tests/conformance/regressions");
    let originals = file_names(
        &shared,
        "the shared scenarios must be in <checkout>/../shared/conformance/regressions/ \
         (CI puts shared/ beside the clone)",
    );
    let copies = file_names(&copy, "the copy is part of the checkout");
    assert_eq!(
        copies,
        originals,
        "the files of {} and of {}",
        copy.display(),
        shared.display()
    );
    for name in &originals {
        let (a, b) = (shared.join(name), copy.join(name));
        assert!(
            std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
            "{} differs from {}",
            b.display(),
            a.display()
        );
    }
}

#[test]
fn a_wrong_expectation_is_reported_with_its_field() {
    // The checker itself must see a difference: the A scenario against W's expectations.
    let answer: Value =
        serde_json::from_str(&simulate_json_str(REGRESSIONS[0].scenario)).expect("JSON");
    let found = mismatches(&REGRESSIONS[1], &answer["value"]);
    assert!(
        found.iter().any(|m| m.contains("makespanMs 14400000")),
        "{found:?}"
    );
    assert!(found.iter().any(|m| m.contains("task w")), "{found:?}");
}
