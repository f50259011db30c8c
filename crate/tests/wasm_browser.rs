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
