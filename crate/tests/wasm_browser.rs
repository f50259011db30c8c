//! The wasm facade in a real browser (headless Chromium through wasm-bindgen-test-runner and
//! chromedriver; `wasm-pack test --headless --chrome` in `crate/` runs the same tests).
#![cfg(target_arch = "wasm32")]

#[path = "common/regressions.rs"]
mod regressions;

use policy_playground::wasm;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn answer(text: &str) -> Value {
    serde_json::from_str(text).expect("every export answers JSON")
}

/// Text as the JavaScript string the text loaders take.
fn js(text: &str) -> JsValue {
    JsValue::from_str(text)
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
    let loaded = answer(&wasm::load_scenario(&js(TEACHING)));
    assert_eq!(loaded["type"], "success");
    let v = &loaded["value"];
    let handles = serde_json::json!({"topology": v["topology"]["handle"], "workload": v["workload"]["handle"], "carbon": v["carbon"]["handle"]}).to_string();
    let run = wasm::run(&handles, &v["policy"].to_string(), "{}");
    let prefix = r#"{"type":"success","value":{"run":"#;
    assert!(run.starts_with(prefix), "{}", &run[..run.len().min(300)]);
    assert!(
        result_text(&run) == TEACHING_NATIVE.trim_end(),
        "handle path differs from native"
    );
    let ran = answer(&run);
    // The teaching workload has deferrable tasks and waits: nothing to note under its policy.
    assert_eq!(ran["value"]["notes"], serde_json::json!([]));
    let run_handle = ran["value"]["run"].as_u64().unwrap() as u32;
    // The page's download: the result's text as the CLI prints it.
    let downloaded = answer(&wasm::export_result(run_handle));
    assert_eq!(
        downloaded["value"].as_str(),
        Some(TEACHING_NATIVE.trim_end())
    );
    let e = answer(&wasm::explain(run_handle, "0"));
    assert_eq!(e["type"], "success");
    assert!(e["value"]["decisions"]
        .as_array()
        .is_some_and(|d| !d.is_empty()));
    for bad in [
        wasm::run("{", "{}", "{}"),
        wasm::explain(424242, "0"),
        wasm::export_result(424242),
        wasm::load_workload_parquet(b"PAR1", b"\x00\x01"),
        wasm::load_carbon(&[0xff, 0x00], "csv"),
    ] {
        assert_eq!(answer(&bad)["type"], "failure");
    }
}

/// The native CLI's output for surf_week under Mem with the NL carbon trace, written by
/// `scripts/test` (`simulate --topology ... --workload ... --carbon ... --policy mem.json --json`).
const SURF_WEEK_NATIVE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/output/surf_week.native.json"
));
const SURF_TASKS: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../www/samples/surf_week/tasks.parquet"
));
const SURF_FRAGMENTS: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../www/samples/surf_week/fragments.parquet"
));
const SURF_TOPOLOGY: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../www/samples/surf_week/topology.json"
));
const SURF_CARBON: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../www/samples/surf_week/carbon.json"
));
const MEM: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../www/samples/policies/mem.json"
));

fn handle(text: &str) -> Value {
    let a = answer(text);
    assert_eq!(a["type"], "success", "{a}");
    a["value"]["handle"].clone()
}

/// The `result` of a `run` answer, as the text wasm wrote.
fn result_text(run: &str) -> &str {
    let at = run.find(r#","result":"#).expect("a run answer") + r#","result":"#.len();
    &run[at..run.len() - 2]
}

#[wasm_bindgen_test]
fn surf_week_through_the_handles_gives_the_native_bytes() {
    let topology = handle(&wasm::load_topology(&js(SURF_TOPOLOGY)));
    let workload = answer(&wasm::load_workload_parquet(SURF_TASKS, SURF_FRAGMENTS));
    assert_eq!(workload["value"]["summary"]["tasks"], 6295);
    assert_eq!(workload["value"]["summary"]["fragments"], 2_323_475);
    let carbon = handle(&wasm::load_carbon(SURF_CARBON, "json"));
    let handles = serde_json::json!({"topology": topology, "workload": workload["value"]["handle"], "carbon": carbon}).to_string();
    let run = wasm::run(&handles, MEM, "{}");
    let result = result_text(&run);
    assert_eq!(result.len(), SURF_WEEK_NATIVE.trim_end().len());
    assert!(
        result == SURF_WEEK_NATIVE.trim_end(),
        "wasm and native surf_week results differ"
    );
    // With progress reported along the way: the same bytes, fractions rising to 1.
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::<f64>::new()));
    let sink = seen.clone();
    let callback = wasm_bindgen::closure::Closure::<dyn FnMut(f64)>::new(move |f: f64| {
        sink.borrow_mut().push(f)
    });
    let run = wasm::run_with_progress(
        &handles,
        MEM,
        "{}",
        callback.as_ref().unchecked_ref::<js_sys::Function>(),
    );
    assert!(result_text(&run) == SURF_WEEK_NATIVE.trim_end());
    let seen = seen.borrow();
    assert!(seen.len() >= 2, "{} progress reports", seen.len());
    assert!(seen.windows(2).all(|w| w[0] <= w[1]));
}

#[wasm_bindgen_test]
fn every_loader_answers_garbage_with_a_failure() {
    let garbage: [&[u8]; 6] = [
        b"",
        b"PAR1",
        b"PAR1\x00\x00\x00\x00PAR1",
        &[0xff, 0xfe, 0x00, 0x80],
        b"{\"clusters\": [{\"hosts\": 1e999}]}",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    ];
    for g in garbage {
        let text = String::from_utf8_lossy(g);
        let answers = [
            wasm::load_topology(&js(&text)),
            wasm::load_scenario(&js(&text)),
            wasm::load_topology(&JsValue::from(js_sys::Uint8Array::from(g))),
            wasm::load_workload(&JsValue::from_f64(1.0), "json"),
            wasm::load_workload(&js(&text), "json"),
            wasm::load_workload(&js(&text), "csv"),
            wasm::load_workload_parquet(g, g),
            wasm::load_workload_parquet(SURF_TASKS, g),
            wasm::load_carbon(g, "parquet"),
            wasm::load_carbon(g, "csv"),
            wasm::load_carbon(g, "json"),
            wasm::simulate(&text),
            wasm::run(&text, &text, &text),
            wasm::export_scenario(&text, MEM, "{}"),
        ];
        for (i, a) in answers.iter().enumerate() {
            let a = answer(a);
            assert_eq!(a["type"], "failure", "loader {i} on {g:?}");
            assert!(a["errors"][0]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()));
        }
    }
    // A huge number where a count is expected, and a policy with one.
    let huge = r#"{"clusters": [{"name": "c", "hosts": [{"name": "h", "count": 1e300, "cpu": {"coreCount": 1, "coreSpeed": 1}, "memory": {"memorySize": 1}}]}]}"#;
    assert_eq!(answer(&wasm::load_topology(&js(huge)))["type"], "failure");
    let policy = r#"{"type": "filter", "subsetSize": 1e300}"#;
    assert_eq!(answer(&wasm::check(policy))["value"]["ok"], false);
    assert_eq!(answer(&wasm::queue_at(987654, f64::NAN))["type"], "failure");
    let missing = wasm::export_workload_parquet(987654);
    let kind = js_sys::Reflect::get(&missing, &js("type")).expect("a tagged answer");
    assert_eq!(kind.as_string().as_deref(), Some("failure"));
}

#[wasm_bindgen_test]
fn exports_queue_seed_and_limits() {
    let loaded = answer(&wasm::load_scenario(&js(TEACHING)));
    let v = &loaded["value"];
    let handles = serde_json::json!({"topology": v["topology"]["handle"], "workload": v["workload"]["handle"], "carbon": v["carbon"]["handle"]}).to_string();
    let policy = v["policy"].to_string();
    let exported = answer(&wasm::export_scenario(&handles, &policy, "{}"));
    let scenario = exported["value"].as_str().expect("scenario text");
    // The exported scenario runs to the native bytes.
    let again = wasm::simulate(scenario);
    let prefix = r#"{"type":"success","value":"#;
    assert!(&again[prefix.len()..again.len() - 1] == TEACHING_NATIVE.trim_end());

    let experiment = answer(&wasm::export_opendc_experiment(&handles, &policy, "{}"));
    assert_eq!(experiment["value"]["experiment"]["runs"], 1);
    let parquet = wasm::export_workload_parquet(v["workload"]["handle"].as_u64().unwrap() as u32);
    let get = |o: &JsValue, key: &str| js_sys::Reflect::get(o, &js(key)).expect("a property");
    assert_eq!(
        get(&parquet, "type").as_string().as_deref(),
        Some("success")
    );
    let files = get(&parquet, "value");
    for file in ["tasks", "fragments"] {
        // Bytes as bytes: a Uint8Array, not base64 text.
        let bytes = get(&files, file)
            .dyn_into::<js_sys::Uint8Array>()
            .expect("a Uint8Array")
            .to_vec();
        // A parquet file opens and closes with its magic number.
        assert!(bytes.len() > 8 && bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
    }

    let run = wasm::run(&handles, &policy, "{}");
    let id = answer(&run)["value"]["run"].as_u64().expect("a run handle") as u32;
    let q = answer(&wasm::queue_at(id, 3_600_000.0));
    assert_eq!(q["type"], "success");
    assert!(q["value"]["running"].is_array() && q["value"]["queue"].is_array());

    let seed = answer(&wasm::new_seed());
    assert!(seed["value"].as_u64().is_some_and(|s| s <= u32::MAX as u64));
    let limits = answer(&wasm::limits());
    assert_eq!(limits["value"]["maxHosts"], 50_000);
}

/// Written by `scripts/test` (`cargo run --example browser_fixtures`): generated scenarios and
/// the bad-input corpus, each with its native answer.
const FIXTURES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/output/browser-fixtures.json"
));

fn fixtures(key: &str) -> Vec<Value> {
    let doc: Value = serde_json::from_str(FIXTURES).expect("fixtures are JSON");
    doc[key].as_array().expect("an array").clone()
}

#[wasm_bindgen_test]
fn generated_scenarios_give_the_native_bytes() {
    let cases = fixtures("cases");
    assert!(cases.len() >= 40);
    for (i, case) in cases.iter().enumerate() {
        let scenario = case["scenario"].as_str().expect("scenario text");
        let native = case["answer"].as_str().expect("answer text");
        let got = wasm::simulate(scenario);
        assert!(
            got == native,
            "generated case {i} differs from native: {scenario}"
        );
    }
}

/// `v` without the session's handle numbers (native answers come from a fresh session each).
fn without_handles(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.remove("handle");
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

#[wasm_bindgen_test]
fn the_bad_input_corpus_gives_the_native_answers_from_file_bytes() {
    let entries = fixtures("badInputs");
    assert!(entries.len() >= 40);
    let mut failures = 0;
    for e in &entries {
        let name = e["name"].as_str().unwrap_or("?");
        let format = e["format"].as_str().unwrap_or("");
        let bytes: Vec<Vec<u8>> = serde_json::from_value(e["bytes"].clone()).expect("bytes");
        let file = |i: usize| JsValue::from(js_sys::Uint8Array::from(&bytes[i][..]));
        let got = match e["loader"].as_str().unwrap_or("") {
            "loadWorkloadParquet" => wasm::load_workload_parquet(&bytes[0], &bytes[1]),
            "loadCarbon" => wasm::load_carbon(&bytes[0], format),
            "loadTopology" => wasm::load_topology(&file(0)),
            "loadScenario" => wasm::load_scenario(&file(0)),
            "loadWorkload" => wasm::load_workload(&file(0), format),
            other => panic!("{name}: unknown loader {other}"),
        };
        let native = e["answer"].as_str().expect("answer text");
        if answer(native)["type"] == "failure" {
            failures += 1;
            assert!(got == native, "{name} ({}): {got} != {native}", e["loader"]);
        } else {
            assert_eq!(
                without_handles(answer(&got)),
                without_handles(answer(native)),
                "{name}"
            );
        }
    }
    assert!(failures >= 35, "{failures} failures");
}

/// The regression scenarios of issue 15 give, in the browser, the results worked out from SPEC
/// (the same checks as the native `tests/regressions.rs`).
#[wasm_bindgen_test]
fn each_regression_scenario_gives_its_worked_out_result() {
    let mut failures = Vec::new();
    for r in regressions::REGRESSIONS {
        let a = answer(&wasm::simulate(r.scenario));
        assert_eq!(a["type"], "success", "{}", r.file);
        failures.extend(regressions::mismatches(r, &a["value"]));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The page's defaults and metrics catalog come from the wasm, as natively.
#[wasm_bindgen_test]
fn default_options_and_metrics_come_from_rust() {
    let d = answer(&wasm::default_options());
    assert_eq!(d["value"]["quantumMs"], 1000);
    assert_eq!(d["value"]["seed"], 0);
    let m = answer(&wasm::metrics());
    let catalog = m["value"].as_array().expect("a list");
    // The 18 metrics of the typed contract and the 4 of the portfolio (SPEC 6.6).
    assert_eq!(catalog.len(), 22);
    assert!(catalog
        .iter()
        .any(|e| e["key"] == "dynamicCarbonG" && e["unit"] == "kg"));
    for key in [
        "meanTurnaroundMs",
        "meanBoundedSlowdown",
        "p95BoundedSlowdown",
        "loadImbalance",
    ] {
        assert!(catalog.iter().any(|e| e["key"] == key), "{key}");
    }
}
