//! The wasm facade in a real browser (headless Chromium through wasm-bindgen-test-runner and
//! chromedriver; `wasm-pack test --headless --chrome` in `crate/` runs the same tests).
#![cfg(target_arch = "wasm32")]

use policy_playground::wasm;
use serde_json::Value;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn answer(text: &str) -> Value {
    serde_json::from_str(text).expect("every export answers JSON")
}

#[wasm_bindgen_test]
fn check_reports_utf16_columns_after_non_ascii_text() {
    // Before `"bad"`: 35 ASCII units, the key "😀" (1 + 2 + 1 UTF-16 units), then `: 1, ` (5):
    // the quote is at UTF-16 offset 44, column 45 (chars would give 44, bytes 47).
    let text = "{\"type\": \"filter\", \"weighers\": [], \"😀\": 1, \"bad\": 2}";
    let a = answer(&wasm::check(text));
    assert_eq!(a["type"], "success");
    assert_eq!(a["value"]["ok"], false);
    let d = &a["value"]["diagnostics"][1];
    assert_eq!(d["path"], "bad");
    assert_eq!(d["line"], 1);
    assert_eq!(d["column"], 45);
}

#[wasm_bindgen_test]
fn expand_and_prefabs_come_from_rust() {
    let a = answer(&wasm::expand(r#"{"type":"prefab","policyName":"meminv"}"#));
    assert_eq!(a["value"]["weighers"][0]["multiplier"], -1.0);
    let p = answer(&wasm::prefabs());
    assert_eq!(p["value"].as_array().map(Vec::len), Some(14));
    let s = answer(&wasm::policy_schema());
    assert_eq!(
        s["value"]["$schema"],
        "http://json-schema.org/draft-07/schema#"
    );
}

#[wasm_bindgen_test]
fn garbage_gives_a_failure_or_a_diagnostic_never_a_throw() {
    for text in ["", "{", "\u{0}", "1e999", "[[[[[[", "{\"type\": 5}"] {
        let a = answer(&wasm::check(text));
        assert_eq!(a["type"], "success", "{text}");
        assert_eq!(a["value"]["ok"], false, "{text}");
        let e = answer(&wasm::expand(text));
        assert_eq!(e["type"], "failure", "{text}");
        assert!(e["errors"][0]["message"].is_string());
    }
}

/// The native CLI's output for the teaching sample, written by `scripts/test` just before this
/// suite is built (`simulate --scenario www/samples/teaching/scenario.json --json`).
const TEACHING_NATIVE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/output/teaching.native.json"
));
const TEACHING: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../www/samples/teaching/scenario.json"
));

#[wasm_bindgen_test]
fn simulate_gives_the_native_bytes_for_the_teaching_sample() {
    let answer = wasm::simulate(TEACHING);
    let prefix = r#"{"type":"success","value":"#;
    assert!(
        answer.starts_with(prefix),
        "{}",
        &answer[..answer.len().min(300)]
    );
    let value = &answer[prefix.len()..answer.len() - 1];
    assert_eq!(value.len(), TEACHING_NATIVE.trim_end().len());
    assert!(
        value == TEACHING_NATIVE.trim_end(),
        "wasm and native results differ"
    );
}

#[wasm_bindgen_test]
fn simulate_answers_garbage_with_a_failure() {
    for text in [
        "",
        "{}",
        "[",
        "{\"topology\": 1}",
        "\u{feff}{\"policy\": {}}",
        "1e999",
    ] {
        let a = answer(&wasm::simulate(text));
        assert_eq!(a["type"], "failure", "{text}");
        assert!(
            a["errors"].as_array().is_some_and(|e| !e.is_empty()),
            "{text}"
        );
    }
}

#[wasm_bindgen_test]
fn the_handle_path_gives_the_scenario_paths_bytes_and_explains() {
    let loaded = answer(&wasm::load_scenario(TEACHING));
    assert_eq!(loaded["type"], "success");
    let v = &loaded["value"];
    let handles = serde_json::json!({"topology": v["topology"]["handle"], "workload": v["workload"]["handle"], "carbon": v["carbon"]["handle"]}).to_string();
    let run = wasm::run(&handles, &v["policy"].to_string(), "{}");
    let prefix = r#"{"type":"success","value":{"run":"#;
    assert!(run.starts_with(prefix), "{}", &run[..run.len().min(300)]);
    let result_at = run.find(r#","result":"#).unwrap() + r#","result":"#.len();
    assert!(
        &run[result_at..run.len() - 2] == TEACHING_NATIVE.trim_end(),
        "handle path differs from native"
    );
    let run_handle: u32 = run[prefix.len()..result_at - r#","result":"#.len()]
        .parse()
        .unwrap();
    let e = answer(&wasm::explain(run_handle, "0"));
    assert_eq!(e["type"], "success");
    assert!(e["value"]["decisions"]
        .as_array()
        .is_some_and(|d| !d.is_empty()));
    for bad in [
        wasm::run("{", "{}", "{}"),
        wasm::explain(424242, "0"),
        wasm::load_workload_parquet(b"PAR1", b"\x00\x01"),
        wasm::load_carbon(&[0xff, 0x00], "csv"),
    ] {
        assert_eq!(answer(&bad)["type"], "failure");
    }
}
