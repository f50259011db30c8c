//! The WebAssembly facade: `#[wasm_bindgen]` wrappers over [`crate::api`], and nothing else.
//!
//! Every export takes text or bytes and returns the api's tagged answer as serde_json text, so
//! the page parses one shape and gets the same bytes the CLI prints. A panic aborts a wasm
//! instance; the hook installed by [`start`] records its message first, and [`last_panic`] hands
//! it to the page's guard, which turns the trap into a `failure` and re-instantiates the module.

use crate::api;
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
