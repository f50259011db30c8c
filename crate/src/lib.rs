//! policy-playground: OpenDC's task allocation policies (filters, weighers, prefabs, carbon-aware
//! time-shifting and the task stopper) and a small discrete-event simulator, compiled for the host
//! and for WebAssembly.
//!
//! Data flows one way: text -> [`policy`] (the policy language) -> [`engine`] (decisions) ->
//! `sim` (a whole run) -> result -> views. [`api`] is the JSON contract that the CLI and the wasm
//! facade share; neither knows a JSON shape of its own.

pub mod api;
pub mod bench;
pub mod case;
pub mod compare;
pub mod diag;
pub mod engine;
pub mod experiment;
pub mod format;
pub mod generate;
pub mod input;
pub mod json;
pub mod lesson;
pub mod model;
pub mod notes;
pub mod output;
pub mod overview;
pub mod parallel;
pub mod policy;
pub mod portfolio;
pub mod request;
pub mod scenario;
pub mod select;
pub mod sim;
pub mod sweep;
pub mod synth;
pub mod task_table;
pub mod tile;
#[cfg(feature = "ts")]
pub mod typescript;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
pub mod whatif;
