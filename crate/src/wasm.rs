//! The WebAssembly facade: `#[wasm_bindgen]` wrappers over [`crate::api`], and nothing else.
//!
//! Every export takes text or bytes and returns the api's tagged answer as serde_json text, so
//! the page parses one shape and gets the same bytes the CLI prints. A panic aborts a wasm
//! instance; the hook installed by [`start`] records its message first, and [`last_panic`] hands
//! it to the page's guard, which turns the trap into a `failure` and re-instantiates the module.

use crate::api;
use crate::api::handles;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs the panic hook (runs when the module is instantiated).
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(message));
    }));
}

/// The message of the panic that aborted the previous call, if any (`""` otherwise).
#[wasm_bindgen(js_name = lastPanic)]
pub fn last_panic() -> String {
    LAST_PANIC.with(|p| p.borrow().clone().unwrap_or_default())
}

/// See [`api::check`].
#[wasm_bindgen]
pub fn check(policy_text: &str) -> String {
    api::check_json_str(policy_text)
}

/// See [`api::expand`].
#[wasm_bindgen]
pub fn expand(policy_text: &str) -> String {
    api::expand_json_str(policy_text)
}

/// See [`api::prefabs`].
#[wasm_bindgen]
pub fn prefabs() -> String {
    api::prefabs_json_str()
}

/// See [`api::default_policy`].
#[wasm_bindgen(js_name = defaultPolicy)]
pub fn default_policy() -> String {
    api::default_policy_json_str()
}

/// See [`api::policy_schema`].
#[wasm_bindgen(js_name = policySchema)]
pub fn policy_schema() -> String {
    api::policy_schema_json_str()
}

/// See [`api::decide`].
#[wasm_bindgen]
pub fn decide(case_text: &str) -> String {
    api::decide_json_str(case_text)
}

/// See [`api::simulate`].
#[wasm_bindgen]
pub fn simulate(scenario_text: &str) -> String {
    api::simulate_json_str(scenario_text)
}

thread_local! {
    static SESSION: RefCell<handles::Session> = RefCell::new(handles::Session::new());
}

fn with_session(f: impl FnOnce(&mut handles::Session) -> String) -> String {
    SESSION.with(|s| f(&mut s.borrow_mut()))
}

/// See [`handles::Session::load_scenario`].
#[wasm_bindgen(js_name = loadScenario)]
pub fn load_scenario(text: &str) -> String {
    with_session(|s| s.load_scenario(text).to_json_string())
}

/// See [`handles::Session::load_topology`].
#[wasm_bindgen(js_name = loadTopology)]
pub fn load_topology(text: &str) -> String {
    with_session(|s| s.load_topology(text).to_json_string())
}

/// See [`handles::Session::load_workload_parquet`]: the bytes of `tasks.parquet` and
/// `fragments.parquet` (JavaScript `Uint8Array`s).
#[wasm_bindgen(js_name = loadWorkloadParquet)]
pub fn load_workload_parquet(tasks: &[u8], fragments: &[u8]) -> String {
    with_session(|s| s.load_workload_parquet(tasks, fragments).to_json_string())
}

/// See [`handles::Session::load_workload`]: `format` is `json` or `csv`.
#[wasm_bindgen(js_name = loadWorkload)]
pub fn load_workload(text: &str, format: &str) -> String {
    with_session(|s| s.load_workload(text, format).to_json_string())
}

/// See [`handles::Session::load_carbon`]: `format` is `parquet`, `csv` or `json`.
#[wasm_bindgen(js_name = loadCarbon)]
pub fn load_carbon(bytes: &[u8], format: &str) -> String {
    with_session(|s| s.load_carbon(bytes, format).to_json_string())
}

/// See [`handles::Session::run`]: `handles` is `{"topology", "workload", "carbon"}` and
/// `options` `{"seed", "quantumMs", "seriesResolutionMs", "hostCounts"}`, both as JSON text.
#[wasm_bindgen]
pub fn run(handles_json: &str, policy_text: &str, options_json: &str) -> String {
    with_session(
        |s| match handles::parse_request(handles_json, options_json) {
            Ok((h, o)) => s.run(&h, policy_text, &o).to_json_string(),
            Err(errors) => api::Answer::<()>::Failure { errors }.to_json_string(),
        },
    )
}

/// See [`handles::Session::explain`].
#[wasm_bindgen]
pub fn explain(run: u32, task_id: &str) -> String {
    with_session(|s| s.explain(run, task_id).to_json_string())
}

/// See [`handles::Session::release`].
#[wasm_bindgen]
pub fn release(handle: u32) -> String {
    with_session(|s| s.release(handle).to_json_string())
}
