//! The policy reader's diagnostics (SPEC 1.1): every problem reported, each with its severity,
//! dotted path, 1-based line and UTF-16 column — at the key of an unknown key, at the value of a
//! bad value, at the opening brace of an object lacking a required field, and where the parser
//! stopped for a syntax error.
//!
//! Every expected line and column below was counted by hand from the document text (and the
//! sample files' positions with an editor), never copied from the program's output.

use policy_playground::diag::{Diagnostic, Severity};
use policy_playground::policy::prefab;
use policy_playground::policy::{check_text, policy_from_text, Checked, DocumentKind};
use policy_playground::policy::{Filter, Policy, WeigherKind};

/// (severity, path, line, column) of a diagnostic, for compact comparisons.
type Place = (Severity, String, u32, u32);

const E: Severity = Severity::Error;
const W: Severity = Severity::Warning;

fn place(d: &Diagnostic) -> Place {
    (
        d.severity,
        d.path.clone(),
        d.line.expect("a text diagnostic has a line"),
        d.column.expect("a text diagnostic has a column"),
    )
}

fn p(severity: Severity, path: &str, line: u32, column: u32) -> Place {
    (severity, path.to_string(), line, column)
}

fn places(checked: &Checked) -> Vec<Place> {
    checked.diagnostics.iter().map(place).collect()
}

/// The diagnostics of a lone policy document (asserting it is read as a policy, not an
/// experiment).
fn check(text: &str) -> Checked {
    let checked = check_text(text);
    assert_eq!(checked.kind, DocumentKind::Policy, "{text}");
    checked
}

/// The one diagnostic of a document.
fn only(text: &str) -> Diagnostic {
    let checked = check(text);
    assert_eq!(checked.diagnostics.len(), 1, "{:#?}", checked.diagnostics);
    checked.diagnostics[0].clone()
}

fn sample(rel: &str) -> String {
    let path = format!(
        "{}/../../shared/opendc-samples/experiments/{rel}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn assert_contains(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(message.contains(part), "`{message}` lacks `{part}`");
    }
}

// ---------------------------------------------------------------------------------------------
// Typos and "did you mean"

#[test]
fn misspelt_policy_name_key_is_an_error_at_the_key_with_a_suggestion() {
    // {  "type"  :  "prefab"  ,  "policyname"
    // 1  2..7    8 9 10..17   18 19 20
    let text = r#"{"type": "prefab", "policyname": "Mem"}"#;
    let checked = check(text);
    assert_eq!(
        places(&checked),
        vec![p(W, "policyName", 1, 1), p(E, "policyname", 1, 20)]
    );
    let error = &checked.diagnostics[1];
    assert_contains(
        &error.message,
        &["unknown key `policyname`", "did you mean `policyName`?"],
    );
    assert!(!checked.ok());
    assert_eq!(checked.policies(), None);
}

#[test]
fn misspelt_multiplier_is_an_error_at_the_key_with_a_suggestion() {
    // line 3: 2 blanks, "weighers" at 3..12, `:` 13, ` ` 14, `[` 15, `{` 16, "type" 17..22,
    // `:` 23, ` ` 24, "Ram" 25..29, `,` 30, ` ` 31, "multipler" at 32.
    let text =
        "{\n  \"type\": \"filter\",\n  \"weighers\": [{\"type\": \"Ram\", \"multipler\": 2}]\n}";
    let d = only(text);
    assert_eq!(place(&d), p(E, "weighers[0].multipler", 3, 32));
    assert_contains(
        &d.message,
        &[
            "unknown key `multipler`",
            "did you mean `multiplier`?",
            "valid keys: type, multiplier",
        ],
    );
}

#[test]
fn unknown_key_of_a_filter_policy_lists_the_valid_keys() {
    // {"type": "filter", "subsetsize": 2}: "subsetsize" at 20.
    let d = only(r#"{"type": "filter", "subsetsize": 2}"#);
    assert_eq!(place(&d), p(E, "subsetsize", 1, 20));
    assert_contains(
        &d.message,
        &[
            "did you mean `subsetSize`?",
            "type, filters, weighers, subsetSize, memorize, maxTimesSkipped",
        ],
    );
    // A timeshift key in a filter policy is unknown there.
    let d = only(r#"{"type": "filter", "forecast": true}"#);
    assert_eq!(place(&d), p(E, "forecast", 1, 20));
}

#[test]
fn unknown_key_of_a_task_stopper() {
    // line 3: 2 blanks, "taskStopper" 3..15, `:` 16, ` ` 17, `{` 18, "threshold" at 19.
    let text = "{\n  \"type\": \"timeshift\",\n  \"taskStopper\": {\"threshold\": 0.5}\n}";
    let d = only(text);
    assert_eq!(place(&d), p(E, "taskStopper.threshold", 3, 19));
    assert_contains(
        &d.message,
        &["forecast, forecastSize, forecastThreshold, windowSize"],
    );
}

// ---------------------------------------------------------------------------------------------
// Wrong types and ranges: at the value

#[test]
fn three_wrong_types_give_three_errors_at_their_values() {
    // {"type": "filter", "subsetSize": "2", "memorize": 1, "filters": {"type": "Ram"}}
    // "subsetSize" 20..31, `:` 32, ` ` 33, "2" at 34; `,` 37, ` ` 38, "memorize" 39..48,
    // `:` 49, ` ` 50, 1 at 51; `,` 52, ` ` 53, "filters" 54..62, `:` 63, ` ` 64, `{` at 65.
    let text =
        r#"{"type": "filter", "subsetSize": "2", "memorize": 1, "filters": {"type": "Ram"}}"#;
    let checked = check(text);
    assert_eq!(
        places(&checked),
        vec![
            p(E, "subsetSize", 1, 34),
            p(E, "memorize", 1, 51),
            p(E, "filters", 1, 65),
        ]
    );
    let m: Vec<&str> = checked
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_contains(m[0], &["`subsetSize` must be an integer >= 1", "a string"]);
    assert_contains(m[1], &["`memorize` must be true or false", "a number"]);
    assert_contains(m[2], &["expected a list", "an object"]);
    assert_eq!(checked.entries.len(), 1);
    assert_eq!(checked.entries[0].policy, None);
}

#[test]
fn out_of_range_numbers_are_errors_at_the_value() {
    // One field per line, each at 2 blanks of indent: the value's column is
    // 2 (indent) + len("\"name\"") + 2 (`: `) + 1.
    let text = "{
  \"type\": \"timeshift\",
  \"subsetSize\": 0,
  \"forecastSize\": 0,
  \"shortForecastThreshold\": 1.5,
  \"longForecastThreshold\": -0.1,
  \"maxTimesSkipped\": -1,
  \"windowSize\": 0,
  \"filters\": [
    {\"type\": \"VCpu\", \"allocationRatio\": 0},
    {\"type\": \"Ram\", \"allocationRatio\": -1},
    {\"type\": \"InstanceCount\"},
    {\"type\": \"InstanceCount\", \"limit\": 0}
  ]
}";
    let checked = check(text);
    // "subsetSize" is 12 chars: 2 + 12 + 2 + 1 = 17; "forecastSize" 14: 19;
    // "shortForecastThreshold" 24: 29; "longForecastThreshold" 23: 28; "maxTimesSkipped" 17: 22;
    // "windowSize" 12: 17.
    // line 10: 4 blanks, `{` 5, "type" 6..11, `:` 12, ` ` 13, "VCpu" 14..19, `,` 20, ` ` 21,
    //          "allocationRatio" 22..38, `:` 39, ` ` 40, 0 at 41.
    // line 11: "Ram" is one shorter than "VCpu": -1 at 40.
    // line 12: the InstanceCount filter lacks `limit`: at its `{`, column 5.
    // line 13: `{` 5, "type" 6..11, `: ` 12..13, "InstanceCount" 14..28, `, ` 29..30, "limit"
    //          31..37, `: ` 38..39, 0 at 40.
    assert_eq!(
        places(&checked),
        vec![
            p(E, "subsetSize", 3, 17),
            p(E, "forecastSize", 4, 19),
            p(E, "shortForecastThreshold", 5, 29),
            p(E, "longForecastThreshold", 6, 28),
            p(E, "maxTimesSkipped", 7, 22),
            p(E, "windowSize", 8, 17),
            p(E, "filters[0].allocationRatio", 10, 41),
            p(E, "filters[1].allocationRatio", 11, 40),
            p(E, "filters[2].limit", 12, 5),
            p(E, "filters[3].limit", 13, 40),
        ]
    );
    let m: Vec<&str> = checked
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_contains(m[0], &["an integer >= 1", "found 0"]);
    assert_contains(m[2], &["a number in [0, 1]", "found 1.5"]);
    assert_contains(m[3], &["a number in [0, 1]", "found -0.1"]);
    assert_contains(m[4], &["an integer >= 0", "found -1"]);
    assert_contains(m[6], &["a number > 0", "found 0"]);
    assert_contains(m[7], &["a number > 0", "found -1"]);
    assert_contains(m[8], &["missing the required field `limit`"]);
}

#[test]
fn subset_size_bounds_and_integers_written_with_a_fraction() {
    // {"type": "filter", "subsetSize": VALUE}: the value starts at column 34.
    for (value, found) in [
        ("0", "found 0"),
        ("-2", "found -2"),
        ("2147483648", "found 2147483648"),
        ("1.5", "found 1.5"),
        ("2.0", "write it without a fraction or exponent"),
        ("2e0", "write it without a fraction or exponent"),
        ("true", "found a boolean"),
        ("null", "found null"),
    ] {
        let text = format!(r#"{{"type": "filter", "subsetSize": {value}}}"#);
        let d = only(&text);
        assert_eq!(place(&d), p(E, "subsetSize", 1, 34), "{text}");
        assert_contains(&d.message, &["`subsetSize` must be an integer >= 1", found]);
    }
    // The largest 32-bit integer is accepted (it is the Random prefab's subset).
    let (policy, diagnostics) =
        policy_from_text(r#"{"type": "filter", "subsetSize": 2147483647}"#).unwrap();
    assert_eq!(policy.subset_size, 2147483647);
    assert!(diagnostics.is_empty());
    // maxTimesSkipped 0 is in range.
    let (policy, _) = policy_from_text(r#"{"type": "filter", "maxTimesSkipped": 0}"#).unwrap();
    assert_eq!(policy.max_times_skipped, 0);
}

#[test]
fn thresholds_at_the_bounds_are_accepted() {
    let text = r#"{"type": "timeshift", "shortForecastThreshold": 0, "longForecastThreshold": 1,
                   "taskStopper": {"forecastThreshold": 1.0}}"#;
    let (policy, _) = policy_from_text(text).unwrap();
    let ts = policy.timeshift.unwrap();
    assert_eq!(ts.short_forecast_threshold, 0.0);
    assert_eq!(ts.long_forecast_threshold, 1.0);
    assert_eq!(ts.task_stopper.unwrap().forecast_threshold, 1.0);
    // In the task stopper, out of range is an error at the value too:
    // {"type": "timeshift", "taskStopper": {"forecastThreshold": 1.01}}
    // "type" 2..7, `: ` 8..9, "timeshift" 10..20, `, ` 21..22, "taskStopper" 23..35, `: ` 36..37,
    // `{` 38, "forecastThreshold" 39..57, `: ` 58..59, 1.01 at 60.
    let d = only(r#"{"type": "timeshift", "taskStopper": {"forecastThreshold": 1.01}}"#);
    assert_eq!(place(&d), p(E, "taskStopper.forecastThreshold", 1, 60));
}

#[test]
fn missing_or_bad_type() {
    // No `type`: at the policy's opening brace.
    let d = only("  {\"subsetSize\": 1}");
    assert_eq!(place(&d), p(E, "type", 1, 3));
    // A filter without `type`: at the filter's brace. {"type": "filter", "filters": [{}]}:
    // "filters" 20..28, `: ` 29..30, `[` 31, `{` 32.
    let d = only(r#"{"type": "filter", "filters": [{}]}"#);
    assert_eq!(place(&d), p(E, "filters[0].type", 1, 32));
    // An unknown policy type: at the value, with a suggestion.
    let d = only(r#"{"type": "filters"}"#);
    assert_eq!(place(&d), p(E, "type", 1, 10));
    assert_contains(&d.message, &["did you mean `filter`?"]);
    // A non-object policy.
    let d = only("[1]");
    assert_eq!(place(&d), p(E, "", 1, 1));
}

// ---------------------------------------------------------------------------------------------
// Unknown names list the valid ones

#[test]
fn unknown_prefab_lists_every_prefab() {
    // {"type": "prefab", "policyName": "Memory"}: "policyName" 20..31, `: ` 32..33, value at 34.
    let d = only(r#"{"type": "prefab", "policyName": "Memory"}"#);
    assert_eq!(place(&d), p(E, "policyName", 1, 34));
    let names: Vec<&str> = prefab::PREFABS.iter().map(|p| p.name).collect();
    assert_eq!(names.len(), 14);
    assert_contains(&d.message, &["unknown prefab `Memory`"]);
    assert_contains(&d.message, &[&names.join(", ")]);
    // Close misspellings get a suggestion.
    let d = only(r#"{"type": "prefab", "policyName": "CoreMme"}"#);
    assert_contains(&d.message, &["did you mean `CoreMem`?"]);
}

#[test]
fn unknown_filter_and_weigher_list_the_valid_names() {
    // {"type": "filter", "filters": [{"type": "Cpu"}]}: `{` 32, "type" 33..38, `: ` 39..40,
    // "Cpu" at 41.
    let d = only(r#"{"type": "filter", "filters": [{"type": "Cpu"}]}"#);
    assert_eq!(place(&d), p(E, "filters[0].type", 1, 41));
    assert_contains(
        &d.message,
        &[
            "unknown filter `Cpu`",
            "Compute, VCpu, VCpuCapacity, Ram, InstanceCount, SameHost, DifferentHost, VGpu",
        ],
    );
    // "weighers" is one letter longer than "filters": "Disk" at 42.
    let d = only(r#"{"type": "filter", "weighers": [{"type": "Disk"}]}"#);
    assert_eq!(place(&d), p(E, "weighers[0].type", 1, 42));
    assert_contains(
        &d.message,
        &[
            "unknown weigher `Disk`",
            "Ram, CoreRam, InstanceCount, VCpuCapacity, VCpu, VGpu",
        ],
    );
    // A misspelt SDK name is suggested in that spelling.
    let d = only(r#"{"type": "filter", "weighers": [{"type": "coreRAM"}]}"#);
    assert_contains(&d.message, &["did you mean `CoreRam`?"]);
}

#[test]
fn both_spellings_of_every_filter_and_weigher_are_read() {
    let text = r#"{"type": "filter",
      "filters": [{"type": "compute"}, {"type": "vcpu", "allocationRatio": 2}, {"type": "vcpuCapacity"},
                  {"type": "ram"}, {"type": "instanceCount", "limit": 3}, {"type": "vgpu"},
                  {"type": "VCpuCapacity", "filterName": "VCpuCapacity"}],
      "weighers": [{"type": "ram"}, {"type": "coreRam", "multiplier": -2}, {"type": "instanceCount"},
                   {"type": "vcpuCapacity"}, {"type": "vcpu"}, {"type": "vgpu", "multiplier": 0.5}]}"#;
    let (policy, diagnostics) = policy_from_text(text).unwrap();
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    assert_eq!(
        policy.filters,
        vec![
            Filter::Compute,
            Filter::VCpu {
                allocation_ratio: 2.0
            },
            Filter::VCpuCapacity,
            Filter::Ram {
                allocation_ratio: 1.0
            },
            Filter::InstanceCount { limit: 3 },
            Filter::VGpu {
                allocation_ratio: 1.0
            },
            Filter::VCpuCapacity,
        ]
    );
    let kinds: Vec<(WeigherKind, f64)> = policy
        .weighers
        .iter()
        .map(|w| (w.kind, w.multiplier))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (WeigherKind::Ram, 1.0),
            (WeigherKind::CoreRam, -2.0),
            (WeigherKind::InstanceCount, 1.0),
            (WeigherKind::VCpuCapacity, 1.0),
            (WeigherKind::VCpu, 1.0),
            (WeigherKind::VGpu, 0.5),
        ]
    );
    // A filterName that differs from the type is an error at its value:
    // {"type": "filter", "filters": [{"type": "Ram", "filterName": "VCpu"}]}: `{` 32,
    // "type" 33..38, `: ` 39..40, "Ram" 41..45, `, ` 46..47, "filterName" 48..59, `: ` 60..61,
    // "VCpu" at 62.
    let d = only(r#"{"type": "filter", "filters": [{"type": "Ram", "filterName": "VCpu"}]}"#);
    assert_eq!(place(&d), p(E, "filters[0].filterName", 1, 62));
}

#[test]
fn defaults_of_an_empty_filter_and_timeshift_policy() {
    let (policy, diagnostics) = policy_from_text(r#"{"type": "filter"}"#).unwrap();
    assert!(diagnostics.is_empty());
    assert_eq!(
        policy,
        Policy {
            filters: vec![Filter::Compute],
            weighers: vec![],
            subset_size: 1,
            memorize: false,
            max_times_skipped: 7,
            timeshift: None,
        }
    );
    // An explicit [] means no filter at all.
    let (policy, _) = policy_from_text(r#"{"type": "filter", "filters": []}"#).unwrap();
    assert!(policy.filters.is_empty());
    let (policy, diagnostics) = policy_from_text(r#"{"type": "timeshift"}"#).unwrap();
    assert!(diagnostics.is_empty());
    assert_eq!(policy.filters, vec![Filter::Compute]);
    assert!(
        policy.memorize,
        "memorize defaults to true in a timeshift policy"
    );
    assert_eq!(policy.max_times_skipped, 7);
    let ts = policy.timeshift.unwrap();
    assert!(ts.forecast);
    assert_eq!(ts.forecast_size, 24);
    assert_eq!(ts.short_forecast_threshold, 0.2);
    assert_eq!(ts.long_forecast_threshold, 0.35);
    assert_eq!(ts.window_size, 168);
    assert_eq!(ts.task_stopper, None);
    let (policy, _) = policy_from_text(r#"{"type": "timeshift", "taskStopper": {}}"#).unwrap();
    let stopper = policy.timeshift.unwrap().task_stopper.unwrap();
    assert!(stopper.forecast);
    assert_eq!(stopper.forecast_size, 24);
    assert_eq!(stopper.forecast_threshold, 0.6);
    assert_eq!(stopper.window_size, 168);
}

// ---------------------------------------------------------------------------------------------
// The prefab pitfall and the prefab name

#[test]
fn prefab_with_name_instead_of_policy_name() {
    // {"type":"prefab","name":"ProvisionedCpuGpuCores"}: `{` 1, "type" 2..7, `:` 8,
    // "prefab" 9..16, `,` 17, "name" at 18.
    let text = r#"{"type":"prefab","name":"ProvisionedCpuGpuCores"}"#;
    let checked = check(text);
    assert_eq!(
        places(&checked),
        vec![p(W, "policyName", 1, 1), p(E, "name", 1, 18)]
    );
    assert_contains(
        &checked.diagnostics[0].message,
        &["no `policyName`", "runs Mem"],
    );
    assert_contains(
        &checked.diagnostics[1].message,
        &[
            "unknown key `name`",
            "did you mean `policyName`?",
            "OpenDC ignores this key",
        ],
    );
    assert!(!checked.ok());
}

#[test]
fn prefab_names_are_case_insensitive_and_prefab_name_is_accepted() {
    let want = prefab::expand(prefab::find("TaskNumMemorizing").unwrap());
    for text in [
        r#"{"type": "prefab", "policyName": " tasknummemorizing "}"#,
        r#"{"type": "prefab", "policyName": "TASKNUMMEMORIZING"}"#,
        r#"{"type": "prefab", "prefabName": "TaskNumMemorizing"}"#,
    ] {
        let (policy, diagnostics) = policy_from_text(text).unwrap();
        assert!(diagnostics.is_empty(), "{text}: {diagnostics:?}");
        assert_eq!(policy, want, "{text}");
    }
    // Both names at once: an error at the second key.
    // {"type": "prefab", "policyName": "Mem", "prefabName": "Mem"}: "policyName" 20..31,
    // `: ` 32..33, "Mem" 34..38, `, ` 39..40, "prefabName" at 41.
    let d = only(r#"{"type": "prefab", "policyName": "Mem", "prefabName": "Mem"}"#);
    assert_eq!(place(&d), p(E, "prefabName", 1, 41));
    // A non-string name: at the value.
    let d = only(r#"{"type": "prefab", "policyName": 3}"#);
    assert_eq!(place(&d), p(E, "policyName", 1, 34));
}

// ---------------------------------------------------------------------------------------------
// Warnings, exactly those of SPEC 1.1

#[test]
fn ram_allocation_ratio_other_than_one_is_a_warning_at_the_value() {
    // {"type": "filter", "filters": [{"type": "Ram", "allocationRatio": 1.5}]}: `{` 32,
    // "type" 33..38, `: ` 39..40, "Ram" 41..45, `, ` 46..47, "allocationRatio" 48..64,
    // `: ` 65..66, 1.5 at 67.
    let text = r#"{"type": "filter", "filters": [{"type": "Ram", "allocationRatio": 1.5}]}"#;
    let checked = check(text);
    assert_eq!(
        places(&checked),
        vec![p(W, "filters[0].allocationRatio", 1, 67)]
    );
    assert_contains(
        &checked.diagnostics[0].message,
        &["overcommitting memory is not supported"],
    );
    assert!(checked.ok(), "a warning does not stop the policy");
    assert_eq!(
        checked.policies().unwrap()[0].filters,
        vec![Filter::Ram {
            allocation_ratio: 1.5
        }]
    );
    // Below 1 is warned about too; exactly 1 (written either way) is not; nor are VCpu and
    // VGpu ratios.
    let d = only(r#"{"type": "filter", "filters": [{"type": "Ram", "allocationRatio": 0.5}]}"#);
    assert_eq!(d.severity, W);
    for text in [
        r#"{"type": "filter", "filters": [{"type": "Ram", "allocationRatio": 1}]}"#,
        r#"{"type": "filter", "filters": [{"type": "Ram", "allocationRatio": 1.0}]}"#,
        r#"{"type": "filter", "filters": [{"type": "VCpu", "allocationRatio": 16}]}"#,
        r#"{"type": "filter", "filters": [{"type": "VGpu", "allocationRatio": 2}]}"#,
    ] {
        assert!(check(text).diagnostics.is_empty(), "{text}");
    }
}

#[test]
fn same_host_and_different_host_are_warnings_at_the_type() {
    // {"type": "filter", "filters": [{"type": "SameHost"}, {"type": "differentHost"}]}:
    // `{` 32, "type" 33..38, `: ` 39..40, "SameHost" 41..50, `}` 51, `, ` 52..53, `{` 54,
    // "type" 55..60, `: ` 61..62, "differentHost" at 63.
    let text =
        r#"{"type": "filter", "filters": [{"type": "SameHost"}, {"type": "differentHost"}]}"#;
    let checked = check(text);
    assert_eq!(
        places(&checked),
        vec![
            p(W, "filters[0].type", 1, 41),
            p(W, "filters[1].type", 1, 63)
        ]
    );
    assert_contains(&checked.diagnostics[0].message, &["SameHost", "no effect"]);
    assert_contains(
        &checked.diagnostics[1].message,
        &["DifferentHost", "no effect"],
    );
    assert!(checked.ok());
}

#[test]
fn weighers_and_subset_size_with_memorize_are_warnings() {
    // {"type": "filter", "memorize": true, "weighers": [{"type": "Ram"}], "subsetSize": 3}
    // "memorize" 20..29, `: ` 30..31, true 32..35, `, ` 36..37, "weighers" 38..47, `: ` 48..49,
    // `[` at 50; `{"type": "Ram"}` 51..65, `]` 66, `, ` 67..68, "subsetSize" 69..80,
    // `: ` 81..82, 3 at 83.
    let text =
        r#"{"type": "filter", "memorize": true, "weighers": [{"type": "Ram"}], "subsetSize": 3}"#;
    let checked = check(text);
    assert_eq!(
        places(&checked),
        vec![p(W, "weighers", 1, 50), p(W, "subsetSize", 1, 83)]
    );
    assert_contains(
        &checked.diagnostics[0].message,
        &["ignored by the memorizing scheduler"],
    );
    assert_contains(
        &checked.diagnostics[1].message,
        &["ignored by the memorizing scheduler"],
    );
    assert!(checked.ok());
    // Without memorize, or with nothing to ignore, no warning.
    for text in [
        r#"{"type": "filter", "weighers": [{"type": "Ram"}], "subsetSize": 3}"#,
        r#"{"type": "filter", "memorize": false, "weighers": [{"type": "Ram"}]}"#,
        r#"{"type": "filter", "memorize": true, "weighers": [], "subsetSize": 1}"#,
        r#"{"type": "timeshift", "memorize": false, "weighers": [{"type": "Ram"}], "subsetSize": 2}"#,
        r#"{"type": "timeshift"}"#,
    ] {
        assert!(check(text).diagnostics.is_empty(), "{text}");
    }
}

#[test]
fn a_timeshift_policy_memorizes_by_default_so_its_weighers_are_warned_about() {
    // {"type": "timeshift", "weighers": [{"type": "Ram"}]}: "timeshift" 10..20, `, ` 21..22,
    // "weighers" 23..32, `: ` 33..34, `[` at 35.
    let checked = check(r#"{"type": "timeshift", "weighers": [{"type": "Ram"}]}"#);
    assert_eq!(places(&checked), vec![p(W, "weighers", 1, 35)]);
    // ... and its subsetSize: "subsetSize" 23..34, `: ` 35..36, 2 at 37.
    let checked = check(r#"{"type": "timeshift", "subsetSize": 2}"#);
    assert_eq!(places(&checked), vec![p(W, "subsetSize", 1, 37)]);
}

#[test]
fn memorize_warnings_are_reported_alongside_errors() {
    // Every problem is reported: the ignored weighers even when another field is wrong.
    // {"type": "timeshift", "weighers": [{"type": "Ram"}], "forecastSize": 0}: `[` at 35,
    // `{"type": "Ram"}` 36..50, `]` 51, `, ` 52..53, "forecastSize" 54..67, `: ` 68..69, 0 at 70.
    let text = r#"{"type": "timeshift", "weighers": [{"type": "Ram"}], "forecastSize": 0}"#;
    let checked = check(text);
    assert_eq!(
        places(&checked),
        vec![p(W, "weighers", 1, 35), p(E, "forecastSize", 1, 70)]
    );
    // The subsetSize warning too, when a filter is wrong:
    // {"type": "filter", "memorize": true, "subsetSize": 2, "filters": [{"type": "X"}]}
    // "memorize" 20..29, `: ` 30..31, true 32..35, `, ` 36..37, "subsetSize" 38..49, `: ` 50..51,
    // 2 at 52, `, ` 53..54, "filters" 55..63, `: ` 64..65, `[` 66, `{` 67, "type" 68..73,
    // `: ` 74..75, "X" at 76.
    let text =
        r#"{"type": "filter", "memorize": true, "subsetSize": 2, "filters": [{"type": "X"}]}"#;
    let checked = check(text);
    assert_eq!(
        places(&checked),
        vec![p(W, "subsetSize", 1, 52), p(E, "filters[0].type", 1, 76)]
    );
}

#[test]
fn missing_policy_name_is_a_warning_and_runs_mem() {
    let checked = check("\n   {\"type\": \"prefab\"}");
    assert_eq!(places(&checked), vec![p(W, "policyName", 2, 4)]);
    assert!(checked.ok());
    assert_eq!(
        checked.policies().unwrap(),
        vec![prefab::expand(prefab::find("Mem").unwrap())]
    );
}

#[test]
fn clean_policies_have_no_diagnostics() {
    for text in [
        r#"{"type": "prefab", "policyName": "Mem"}"#,
        r#"{"type": "filter", "filters": [{"type": "Compute"}, {"type": "VCpu", "allocationRatio": 16.0}],
            "weighers": [{"type": "CoreRam", "multiplier": -1}], "subsetSize": 4}"#,
        r#"{"type": "filter", "memorize": true, "maxTimesSkipped": 3}"#,
        r#"{"type": "timeshift", "forecast": false, "windowSize": 24, "memorize": false,
            "weighers": [{"type": "Ram"}], "taskStopper": {"forecast": false, "windowSize": 12}}"#,
    ] {
        let checked = check(text);
        assert!(
            checked.diagnostics.is_empty(),
            "{text}: {:?}",
            checked.diagnostics
        );
        assert!(checked.ok());
        assert_eq!(checked.policies().unwrap().len(), 1);
    }
}

// ---------------------------------------------------------------------------------------------
// Positions: UTF-16 columns, CRLF, syntax errors

#[test]
fn columns_count_utf16_code_units_after_non_ascii_text() {
    // {"type": "filter", "é😀x": 1, "subsetSize": 0}
    // `{` 1, "type" 2..7, `:` 8, ` ` 9, "filter" 10..17, `,` 18, ` ` 19, the key's quote at 20,
    // é 21, 😀 22..23 (a surrogate pair), x 24, quote 25, `:` 26, ` ` 27, 1 28, `,` 29, ` ` 30,
    // "subsetSize" 31..42, `:` 43, ` ` 44, 0 at 45.
    // Counted in chars 0 would be at 44, counted in bytes (é 2, 😀 4) at 48.
    let text = r#"{"type": "filter", "é😀x": 1, "subsetSize": 0}"#;
    let checked = check(text);
    assert_eq!(
        places(&checked),
        vec![p(E, "é😀x", 1, 20), p(E, "subsetSize", 1, 45)]
    );
    // A string value with emoji before the error, on the same line:
    // {"type": "prefab", "policyName": "😀😀", "x": 1}: value quote 34, 😀😀 35..38, quote 39,
    // `,` 40, ` ` 41, "x" at 42 (38 in chars + 2 = 40 by chars, 50 by bytes).
    let checked = check(r#"{"type": "prefab", "policyName": "😀😀", "x": 1}"#);
    assert_eq!(
        places(&checked),
        vec![p(E, "policyName", 1, 34), p(E, "x", 1, 42)]
    );
    assert_contains(&checked.diagnostics[0].message, &["unknown prefab `😀😀`"]);
    // Non-ASCII text on an earlier line does not shift later lines.
    let text = "{\"type\": \"filter\", \"weighers\": [{\"type\": \"Ram\", \"multiplier\": 1}], \"ö\": 0,\n \"subsetSize\": 0}";
    let checked = check(text);
    // line 2: ` ` 1, "subsetSize" 2..13, `:` 14, ` ` 15, 0 at 16.
    assert_eq!(
        checked.diagnostics.last().map(place),
        Some(p(E, "subsetSize", 2, 16))
    );
}

#[test]
fn crlf_line_endings() {
    let text =
        "{\r\n  \"type\": \"filter\",\r\n  \"subsetSize\": 0,\r\n\r\n  \"bogus\": 1\r\n}\r\n";
    let checked = check(text);
    // line 3: 2 blanks, "subsetSize" 3..14, `: ` 15..16, 0 at 17; line 5: "bogus" at 3.
    assert_eq!(
        places(&checked),
        vec![p(E, "subsetSize", 3, 17), p(E, "bogus", 5, 3)]
    );
    // A lone CR ends a line as well.
    let checked = check("{\r\"type\": \"filter\",\r \"bogus\": 1}");
    assert_eq!(places(&checked), vec![p(E, "bogus", 3, 2)]);
}

#[test]
fn a_byte_order_mark_is_not_a_column() {
    // Editors do not show a BOM, and the browser's text decoding removes it: the first visible
    // character is column 1. {"type": "filter", "subsetSize": 0}: 0 at 34 after the BOM.
    let checked = check("\u{feff}{\"type\": \"filter\", \"subsetSize\": 0}");
    assert_eq!(places(&checked), vec![p(E, "subsetSize", 1, 34)]);
    let checked = check("\u{feff}{\"type\": \"filter\",\n\"subsetSize\": 0}");
    assert_eq!(places(&checked), vec![p(E, "subsetSize", 2, 15)]);
}

#[test]
fn syntax_errors_are_placed_where_the_parser_stopped() {
    let cases: &[(&str, u32, u32, &str)] = &[
        // the `}` after a trailing comma: {"type": "filter",} -> `,` 18, `}` 19.
        (r#"{"type": "filter",}"#, 1, 19, "trailing comma"),
        // the end of the input, after `{"type": "filter"` (17 chars).
        (r#"{"type": "filter""#, 1, 18, "unexpected end of input"),
        // a missing colon: {"type" "filter"} -> the second string at 9.
        (r#"{"type" "filter"}"#, 1, 9, "expected `:`"),
        // a bare word on line 2 after 2 blanks.
        ("{\"type\":\n  filter}", 2, 3, "expected a value"),
        // a number that does not fit an f64: `{` 1, "subsetSize" 2..13, `: ` 14..15, at 16.
        (r#"{"subsetSize": 1e999}"#, 1, 16, "out of range"),
        // a duplicate key: at the second key. {"type": "filter", "type": "timeshift"} -> 20.
        (
            r#"{"type": "filter", "type": "timeshift"}"#,
            1,
            20,
            "duplicate key `type`",
        ),
        // after non-ASCII text: {"é😀": tru} -> `{` 1, quote 2, é 3, 😀 4..5, quote 6, `:` 7,
        // ` ` 8, tru at 9.
        (r#"{"é😀": tru}"#, 1, 9, "did you mean `true`?"),
        // an empty document.
        ("", 1, 1, "empty document"),
        ("\n\n", 3, 1, "empty document"),
        // text after the value: {} x -> x at 4.
        ("{} x", 1, 4, "after the JSON value"),
    ];
    for &(text, line, column, message) in cases {
        let checked = check_text(text);
        assert_eq!(checked.diagnostics.len(), 1, "{text:?}");
        let d = &checked.diagnostics[0];
        assert_eq!(
            (d.severity, d.line, d.column),
            (E, Some(line), Some(column)),
            "{text:?}: {d:?}"
        );
        assert_contains(&d.message, &[message]);
        assert!(!checked.ok());
        assert!(checked.entries.is_empty());
    }
}

#[test]
fn deep_nesting_is_an_error_at_the_first_bracket_too_deep() {
    let deep = "[".repeat(10 * 1024 * 1024);
    let checked = check_text(&deep);
    assert_eq!(checked.diagnostics.len(), 1);
    // 128 levels are accepted, so the 129th `[` is where the parser stops.
    assert_eq!(place(&checked.diagnostics[0]), p(E, "", 1, 129));
}

// ---------------------------------------------------------------------------------------------
// OpenDC experiment files

#[test]
fn experiment_paths_are_prefixed_with_allocation_policies() {
    let text = r#"{
  "topologies": [],
  "allocationPolicies": [
    {"type": "prefab", "policyName": "Mem"},
    {"type": "filter", "filters": [{"type": "Compute"}, {"type": "Ram", "allocationRatio": 0}],
     "weighers": [{"type": "Ram", "multiplier": "x"}]}
  ]
}"#;
    let checked = check_text(text);
    assert_eq!(checked.kind, DocumentKind::Experiment);
    // line 5: 4 blanks, `{` 5, "type" 6..11, `: ` 12..13, "filter" 14..21, `, ` 22..23,
    // "filters" 24..32, `: ` 33..34, `[` 35, `{"type": "Compute"}` 36..54, `, ` 55..56, `{` 57,
    // "type" 58..63, `: ` 64..65, "Ram" 66..70, `, ` 71..72, "allocationRatio" 73..89,
    // `: ` 90..91, 0 at 92.
    // line 6: 5 blanks, "weighers" 6..15, `: ` 16..17, `[` 18, `{` 19, "type" 20..25, `: `
    // 26..27, "Ram" 28..32, `, ` 33..34, "multiplier" 35..46, `: ` 47..48, "x" at 49.
    assert_eq!(
        places(&checked),
        vec![
            p(E, "allocationPolicies[1].filters[1].allocationRatio", 5, 92),
            p(E, "allocationPolicies[1].weighers[0].multiplier", 6, 49),
        ]
    );
    assert_eq!(checked.entries.len(), 2);
    assert_eq!(checked.entries[0].path, "allocationPolicies[0]");
    assert!(checked.entries[0].policy.is_some());
    assert_eq!(checked.entries[1].path, "allocationPolicies[1]");
    assert!(checked.entries[1].policy.is_none());
    assert_eq!(checked.policies(), None);
}

#[test]
fn experiment_without_allocation_policies_holds_one_mem() {
    for text in [
        r#"{"topologies": [{"pathToFile": "t.json"}]}"#,
        r#"{"workloads": []}"#,
    ] {
        let checked = check_text(text);
        assert_eq!(checked.kind, DocumentKind::Experiment, "{text}");
        assert!(checked.diagnostics.is_empty());
        assert_eq!(
            checked.policies().unwrap(),
            vec![prefab::expand(prefab::find("Mem").unwrap())]
        );
    }
    // An object with `type` is a policy even with experiment keys (which are then unknown).
    let checked = check_text(r#"{"type": "filter", "workloads": []}"#);
    assert_eq!(checked.kind, DocumentKind::Policy);
    assert_eq!(places(&checked), vec![p(E, "workloads", 1, 20)]);
}

#[test]
fn experiment_with_a_non_list_allocation_policies_is_an_error() {
    // {"allocationPolicies": {"type": "prefab"}}: "allocationPolicies" 2..21, `: ` 22..23, `{` 24.
    let checked = check_text(r#"{"allocationPolicies": {"type": "prefab"}}"#);
    assert_eq!(checked.kind, DocumentKind::Experiment);
    assert_eq!(places(&checked), vec![p(E, "allocationPolicies", 1, 24)]);
    assert_contains(
        &checked.diagnostics[0].message,
        &["must be a list", "an object"],
    );
    assert!(!checked.ok());
    let checked = check_text(r#"{"allocationPolicies": "Mem"}"#);
    assert_eq!(places(&checked), vec![p(E, "allocationPolicies", 1, 24)]);
    // An empty list holds no policy and is not an error.
    let checked = check_text(r#"{"allocationPolicies": []}"#);
    assert!(checked.ok());
    assert_eq!(checked.policies().unwrap(), vec![]);
}

#[test]
fn opendc_features_experiment() {
    let checked = check_text(&sample("legacy/features_experiment.json"));
    assert_eq!(checked.kind, DocumentKind::Experiment);
    // Line 39 is `                    "allocationRatio": 1.5`: 20 blanks, the key at 21..37,
    // `: ` 38..39, 1.5 at 40.
    assert_eq!(
        places(&checked),
        vec![p(
            W,
            "allocationPolicies[1].filters[1].allocationRatio",
            39,
            40
        )]
    );
    let policies = checked.policies().expect("only a warning");
    assert_eq!(policies.len(), 3);
    // CoreMem; the explicit filter policy; the timeshift policy with a task stopper.
    assert_eq!(
        policies[0],
        prefab::expand(prefab::find("CoreMem").unwrap())
    );
    let explicit = &policies[1];
    assert_eq!(
        explicit.filters,
        vec![
            Filter::Compute,
            Filter::Ram {
                allocation_ratio: 1.5
            },
            Filter::VCpu {
                allocation_ratio: 16.0
            },
            Filter::InstanceCount { limit: 8 },
        ]
    );
    assert_eq!(explicit.subset_size, 2);
    assert_eq!(explicit.weighers.len(), 2);
    assert_eq!(explicit.weighers[1].kind, WeigherKind::VCpuCapacity);
    assert_eq!(explicit.weighers[1].multiplier, -1.0);
    let timeshift = policies[2].timeshift.expect("a timeshift policy");
    assert!(!policies[2].memorize);
    assert_eq!(timeshift.task_stopper.unwrap().forecast_threshold, 0.6);
}

#[test]
fn opendc_experiment_2_runs_mem_unnoticed_in_opendc() {
    let checked = check_text(&sample("legacy/experiment_2.json"));
    assert_eq!(checked.kind, DocumentKind::Experiment);
    // Line 12 is `        {` (the policy's brace at 9); line 14 is `            "name": ...`
    // (the key at 13).
    assert_eq!(
        places(&checked),
        vec![
            p(W, "allocationPolicies[0].policyName", 12, 9),
            p(E, "allocationPolicies[0].name", 14, 13),
        ]
    );
    assert_contains(
        &checked.diagnostics[1].message,
        &["unknown key `name`", "did you mean `policyName`?"],
    );
    assert!(!checked.ok());
}

#[test]
fn opendc_sdk_timeshift_taskstopper_experiment() {
    let checked = check_text(&sample("sdk/timeshift-taskstopper.json"));
    assert_eq!(checked.kind, DocumentKind::Experiment);
    // Line 73 is `            "weighers": [`: 12 blanks, the key 13..22, `: ` 23..24, `[` at 25.
    assert_eq!(
        places(&checked),
        vec![p(W, "allocationPolicies[0].weighers", 73, 25)]
    );
    assert_contains(
        &checked.diagnostics[0].message,
        &["ignored by the memorizing scheduler"],
    );
    let policies = checked.policies().unwrap();
    assert_eq!(policies.len(), 1);
    assert!(policies[0].memorize);
    assert_eq!(policies[0].filters, vec![Filter::Compute]);
    let ts = policies[0].timeshift.unwrap();
    assert_eq!(ts.task_stopper.unwrap().forecast_size, 24);
}

#[test]
fn opendc_sdk_tiny_experiment_scheduler_key_is_unknown() {
    let checked = check_text(&sample("sdk/tiny-experiment.json"));
    assert_eq!(checked.kind, DocumentKind::Experiment);
    // Line 67 is `        { "type": "prefab", "scheduler": "Mem" }`: `{` 9, ` ` 10, "type"
    // 11..16, `: ` 17..18, "prefab" 19..26, `, ` 27..28, "scheduler" at 29.
    assert_eq!(
        places(&checked),
        vec![
            p(W, "allocationPolicies[0].policyName", 67, 9),
            p(E, "allocationPolicies[0].scheduler", 67, 29),
        ]
    );
    assert_contains(
        &checked.diagnostics[1].message,
        &["unknown key `scheduler`", "did you mean `policyName`?"],
    );
}

// ---------------------------------------------------------------------------------------------
// Robustness

#[test]
fn truncated_and_damaged_documents_never_panic_and_stay_inside_the_text() {
    let text = sample("legacy/features_experiment.json");
    let lines: Vec<&str> = text.split('\n').collect();
    let inside = |d: &Diagnostic, t: &str| {
        let lines: Vec<&str> = t.split('\n').collect();
        let (l, c) = (d.line.unwrap() as usize, d.column.unwrap() as usize);
        l >= 1 && l <= lines.len() && c >= 1 && c <= lines[l - 1].encode_utf16().count() + 1
    };
    assert!(lines.len() > 100);
    let boundaries: Vec<usize> = (0..text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    for &i in &boundaries {
        // Every prefix, and the text with one character removed.
        let next = boundaries
            .iter()
            .copied()
            .find(|&j| j > i)
            .unwrap_or(text.len());
        for damaged in [
            text[..i].to_string(),
            format!("{}{}", &text[..i], &text[next..]),
        ] {
            let checked = check_text(&damaged);
            for d in &checked.diagnostics {
                assert!(inside(d, &damaged), "{d:?} outside the text cut at {i}");
            }
        }
    }
}

/// A value of `kind` other than any default of the catalog, for the test below.
fn unusual_value(kind: policy_playground::policy::catalog::Kind) -> serde_json::Value {
    use policy_playground::policy::catalog::Kind;
    match kind {
        Kind::Bool => serde_json::json!(true),
        Kind::Int { min, .. } => serde_json::json!(min + 2),
        Kind::Positive => serde_json::json!(0.625),
        Kind::Fraction => serde_json::json!(0.375),
        Kind::Finite => serde_json::json!(-2.5),
    }
}

/// Every filter of the catalog reads as the variant of its own name, with each of its
/// parameters as given (not a default, and not another filter: the reader maps names to
/// variants by an exhaustive list, and a catalog entry it lacks would fail here).
#[test]
fn every_catalog_filter_reads_as_its_own_variant() {
    use policy_playground::policy::{catalog, expand};
    for def in catalog::FILTERS {
        let mut filter = serde_json::json!({ "type": def.name });
        for p in def.params {
            filter[p.name] = unusual_value(p.kind);
        }
        let text = serde_json::json!({"type": "filter", "filters": [filter]}).to_string();
        let (policy, _) = policy_from_text(&text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(policy.filters.len(), 1, "{text}");
        assert_eq!(policy.filters[0].name(), def.name, "{text}");
        let written = &expand::to_json(&policy)["filters"][0];
        for p in def.params {
            assert_eq!(written[p.name], filter[p.name], "{}.{}", def.name, p.name);
        }
    }
}

/// Every weigher of the catalog reads as its own kind with the multiplier given.
#[test]
fn every_catalog_weigher_reads_as_its_own_kind() {
    use policy_playground::policy::catalog;
    for def in catalog::WEIGHERS {
        let text = format!(
            r#"{{"type": "filter", "weighers": [{{"type": "{}", "multiplier": -2.5}}]}}"#,
            def.name
        );
        let (policy, _) = policy_from_text(&text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(policy.weighers[0].kind.name(), def.name, "{text}");
        assert_eq!(policy.weighers[0].multiplier, -2.5, "{text}");
    }
}
