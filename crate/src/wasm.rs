//! The WebAssembly facade: `#[wasm_bindgen]` wrappers over [`crate::api`], and nothing else.
//!
//! Every export takes text or bytes and returns the api's tagged answer as serde_json text, so
//! the page parses one shape and gets the same bytes the CLI prints. A panic aborts a wasm
//! instance; the hook installed by [`start`] records its message first, and [`last_panic`] hands
//! it to the page's guard, which turns the trap into a `failure` and re-instantiates the module.

use crate::api;
use crate::api::handles;
use crate::portfolio::grid::GridSpec;
use crate::sweep::SweepSpec;
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

/// A duration as [`crate::format::duration`] writes it (`2 h 14 min`), as plain text: the
/// page formats axis ticks and task lists with it on its main thread, synchronously, so that
/// one rule decides how a duration reads everywhere.
#[wasm_bindgen(js_name = formatDuration)]
pub fn format_duration(ms: f64) -> String {
    crate::format::duration(ms)
}

/// A signed difference of durations as [`crate::format::duration_difference`] writes it
/// (`+41 s`), as plain text.
#[wasm_bindgen(js_name = formatDurationDifference)]
pub fn format_duration_difference(ms: f64) -> String {
    crate::format::duration_difference(ms)
}

/// Axis ticks for `[lo, hi]` as [`crate::format::nice_ticks`] gives them, as a JSON array
/// (plain text, like the format functions: the page's charts ask on their main thread).
#[wasm_bindgen(js_name = axisTicks)]
pub fn axis_ticks(lo: f64, hi: f64, target: u32) -> String {
    serde_json::to_string(&crate::format::nice_ticks(lo, hi, target as usize))
        .unwrap_or_else(|_| "[]".into())
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

/// See [`api::default_options`].
#[wasm_bindgen(js_name = defaultOptions)]
pub fn default_options() -> String {
    api::default_options_json_str()
}

/// See [`api::metrics`].
#[wasm_bindgen]
pub fn metrics() -> String {
    api::metrics_json_str()
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

/// See [`api::simulate`]; inputs past the browser's [`handles::Limits`] are refused first.
#[wasm_bindgen]
pub fn simulate(scenario_text: &str) -> String {
    api::simulate_within_json_str(scenario_text, &handles::Limits::BROWSER)
}

/// The browser's limits, `{"maxFileBytes", "maxTasks", "maxFragments", "maxHosts"}`, so that the
/// page can refuse a file before reading it.
#[wasm_bindgen]
pub fn limits() -> String {
    api::Answer::Success {
        value: handles::Limits::BROWSER,
    }
    .to_json_string()
}

/// A fresh random seed (a u32, so that JavaScript holds it exactly) for the page's "new random
/// seed" button. The runs themselves are seeded and never draw from here.
#[wasm_bindgen(js_name = newSeed)]
pub fn new_seed() -> String {
    match getrandom::u32() {
        Ok(seed) => api::Answer::Success { value: seed }.to_json_string(),
        Err(e) => api::Answer::<u32>::Failure {
            errors: vec![crate::diag::Diagnostic::error(
                "",
                format!("no random source: {e}"),
            )],
        }
        .to_json_string(),
    }
}

thread_local! {
    static SESSION: RefCell<handles::Session> =
        RefCell::new(handles::Session::with_limits(handles::Limits::BROWSER));
}

fn with_session(f: impl FnOnce(&mut handles::Session) -> String) -> String {
    SESSION.with(|s| f(&mut s.borrow_mut()))
}

/// Hands `f` the text of `input`: a JavaScript string, or the bytes of a file (a `Uint8Array`)
/// decoded as UTF-8 by [`handles::utf8_text`], after the size limit is checked. `what` names the
/// input in errors ("the topology").
fn with_text(input: &JsValue, what: &str, f: impl FnOnce(&str) -> String) -> String {
    let refuse = |errors| api::Answer::<()>::Failure { errors }.to_json_string();
    if let Some(text) = input.as_string() {
        return f(&text);
    }
    if !input.is_instance_of::<js_sys::Uint8Array>() {
        return refuse(vec![crate::diag::Diagnostic::error(
            "",
            format!("{what}: expected text or the bytes of a file (a Uint8Array)"),
        )]);
    }
    let bytes = js_sys::Uint8Array::new(input);
    if let Err(errors) = handles::Limits::BROWSER.check_bytes(bytes.length() as usize, what) {
        return refuse(errors);
    }
    let bytes = bytes.to_vec();
    match handles::utf8_text(&bytes, what) {
        Ok(text) => f(text),
        Err(errors) => refuse(errors),
    }
}

/// See [`handles::Session::load_scenario`]: `input` is the text or the file's bytes.
#[wasm_bindgen(js_name = loadScenario)]
pub fn load_scenario(input: &JsValue) -> String {
    with_text(input, "the scenario", |text| {
        with_session(|s| s.load_scenario(text).to_json_string())
    })
}

/// See [`handles::Session::load_topology`]: `input` is the text or the file's bytes.
#[wasm_bindgen(js_name = loadTopology)]
pub fn load_topology(input: &JsValue) -> String {
    with_text(input, "the topology", |text| {
        with_session(|s| s.load_topology(text).to_json_string())
    })
}

/// See [`handles::Session::load_workload_parquet`]: the bytes of `tasks.parquet` and
/// `fragments.parquet` (JavaScript `Uint8Array`s).
#[wasm_bindgen(js_name = loadWorkloadParquet)]
pub fn load_workload_parquet(tasks: &[u8], fragments: &[u8]) -> String {
    with_session(|s| s.load_workload_parquet(tasks, fragments).to_json_string())
}

/// See [`handles::Session::load_workload`]: `input` is the text or the file's bytes, `format`
/// is `json` or `csv`.
#[wasm_bindgen(js_name = loadWorkload)]
pub fn load_workload(input: &JsValue, format: &str) -> String {
    with_text(input, "the workload", |text| {
        with_session(|s| s.load_workload(text, format).to_json_string())
    })
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
    with_session(|s| s.run_json_str(handles_json, policy_text, options_json))
}

/// [`run`], calling `progress(fraction)` (the fraction of tasks ended) as the run goes. A
/// worker posts it to the page; the page cancels by terminating the worker.
#[wasm_bindgen(js_name = runWithProgress)]
pub fn run_with_progress(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
    progress: &js_sys::Function,
) -> String {
    with_session(|s| {
        s.run_with_progress_json_str(handles_json, policy_text, options_json, &mut |f| {
            // A callback that throws is the page's bug; the run goes on.
            let _ = progress.call1(&JsValue::NULL, &JsValue::from_f64(f));
        })
    })
}

/// [`run_with_progress`] for the page: see [`api::binary`]. The answer is an object, `{type:
/// "success", value: {run, notes, overview, result, columns, steps, bars}}` where `result` holds
/// the JSON result's fields but its tasks and hosts, which `columns` holds as typed arrays (each
/// with a buffer of its own, so that the worker can transfer them), and its step series, which
/// `steps` holds so, with the timeline's `bars`.
#[wasm_bindgen(js_name = runBinaryWithProgress)]
pub fn run_binary_with_progress(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
    progress: &js_sys::Function,
) -> JsValue {
    SESSION.with(|s| {
        let answer =
            s.borrow_mut()
                .run_binary_str(handles_json, policy_text, options_json, &mut |f| {
                    // A callback that throws is the page's bug; the run goes on.
                    let _ = progress.call1(&JsValue::NULL, &JsValue::from_f64(f));
                });
        bytes_answer(answer, |run| {
            let (head, columns, steps, bars) = run.split();
            let value = json_value(&head);
            set(&value, "columns", &columns_js(&columns));
            set(&value, "steps", &typed_arrays(steps.columns()));
            set(&value, "bars", &bars_js(&bars));
            value
        })
    })
}

/// See [`handles::Session::run_placements`]: the placements of the run
/// [`run_binary_with_progress`] would make, about ten times sooner on traces of many
/// fragments, for a first draw of the timeline while that run goes on: `{type: "success",
/// value: {result: {makespanMs, startEpochMs, series}, columns, bars}}`, the columns and bars
/// as that answer's (the hosts' figures that follow usage are NaN).
#[wasm_bindgen(js_name = runPlacements)]
pub fn run_placements(handles_json: &str, policy_text: &str, options_json: &str) -> JsValue {
    SESSION.with(|s| {
        let answer = s
            .borrow()
            .run_placements_str(handles_json, policy_text, options_json);
        bytes_answer(answer, |run| {
            let value = js_sys::Object::new().into();
            set(&value, "result", &json_value(&run.result));
            set(&value, "columns", &columns_js(&run.columns));
            set(&value, "bars", &bars_js(&run.bars));
            value
        })
    })
}

/// See [`api::placements::placements_first`]: whether the page draws a run's placements
/// ([`run_placements`]) before its full result, for a workload of `fragments` fragments (its
/// summary's count). A plain boolean, not a tagged answer: the page's main thread asks it of its
/// own instance (as it formats durations), before it posts the run, so that the placements are
/// asked first.
#[wasm_bindgen(js_name = placementsFirst)]
pub fn placements_first(fragments: f64) -> bool {
    fragments.is_finite() && fragments >= 0.0 && api::placements::placements_first(fragments as u64)
}

/// A serialisable value as a JS object (through JSON text: plain objects and arrays, no `Map`).
fn json_value(v: &impl serde::Serialize) -> JsValue {
    let text = serde_json::to_string(v).unwrap_or_else(|_| "{}".into());
    js_sys::JSON::parse(&text).unwrap_or_else(|_| js_sys::Object::new().into())
}

/// A run's columns as typed arrays, with their counts and the names of the state codes.
fn columns_js(columns: &crate::output::columns::RunColumns) -> JsValue {
    let c = typed_arrays(columns.columns());
    set(&c, "taskCount", &JsValue::from(columns.task_count));
    set(&c, "hostCount", &JsValue::from(columns.host_count));
    set(&c, "ascii", &JsValue::from_bool(columns.ascii));
    let names = js_sys::Array::new();
    for n in &columns.state_names {
        names.push(&JsValue::from_str(n));
    }
    set(&c, "stateNames", &names);
    c
}

/// The timeline's bars as typed arrays, with their lane count.
fn bars_js(bars: &crate::output::bars::TimelineBars) -> JsValue {
    let b = typed_arrays(bars.columns());
    set(&b, "lanes", &JsValue::from(bars.lanes));
    b
}

/// Sets `o[key] = v` (on a fresh object, which cannot refuse it).
fn set(o: &JsValue, key: &str, v: &JsValue) {
    let _ = js_sys::Reflect::set(o, &JsValue::from_str(key), v);
}

/// An object holding each named column as a typed array of its own.
fn typed_arrays(columns: Vec<(&'static str, crate::output::columns::Column<'_>)>) -> JsValue {
    let o: JsValue = js_sys::Object::new().into();
    for (key, column) in columns {
        set(&o, key, &typed_array(column));
    }
    o
}

/// A column as a typed array of its own (a copy out of the wasm memory).
fn typed_array(column: crate::output::columns::Column<'_>) -> JsValue {
    use crate::output::columns::Column;
    match column {
        Column::F64(v) => js_sys::Float64Array::from(v).into(),
        Column::I32(v) => js_sys::Int32Array::from(v).into(),
        Column::U32(v) => js_sys::Uint32Array::from(v).into(),
        Column::U8(v) => js_sys::Uint8Array::from(v).into(),
    }
}

/// See [`handles::Session::sweep`]: `spec_json` is `{"parameter", "values", "seeds"}`; the
/// other arguments are [`run`]'s. Metrics only: no run is kept.
#[wasm_bindgen]
pub fn sweep(handles_json: &str, policy_text: &str, options_json: &str, spec_json: &str) -> String {
    with_session(|s| {
        s.sweep_json_str::<SweepSpec>(
            handles_json,
            policy_text,
            options_json,
            spec_json,
            &mut |_, _| {},
        )
    })
}

/// [`sweep`], calling `progress(fraction)` (the fraction of its runs done) after each run.
#[wasm_bindgen(js_name = sweepWithProgress)]
pub fn sweep_with_progress(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
    spec_json: &str,
    progress: &js_sys::Function,
) -> String {
    with_session(|s| {
        s.sweep_json_str::<SweepSpec>(
            handles_json,
            policy_text,
            options_json,
            spec_json,
            &mut fraction_of(progress),
        )
    })
}

/// See [`api::sweep_csv`]: the value of a sweep answer (JSON text) as CSV.
#[wasm_bindgen(js_name = sweepCsv)]
pub fn sweep_csv(report_json: &str) -> String {
    api::sweep_csv_json_str(report_json)
}

/// See [`api::sweep_settings`].
#[wasm_bindgen(js_name = sweepSettings)]
pub fn sweep_settings(policy_text: &str) -> String {
    api::sweep_settings_json_str(policy_text)
}

/// See [`handles::Session::queue_at`]: the queue of a finished run just after `time_ms`
/// (simulation ms; a JavaScript number, whole).
#[wasm_bindgen(js_name = queueAt)]
pub fn queue_at(run: u32, time_ms: f64) -> String {
    let t = if time_ms.is_nan() {
        0
    } else {
        time_ms as i64 // saturating
    };
    with_session(|s| s.queue_at(run, t).to_json_string())
}

/// See [`handles::Session::compare`]: finished runs side by side (`{"runs": [handles],
/// "labels": [texts], "baseline": index}`), with energy and carbon over their common window.
#[wasm_bindgen]
pub fn compare(request_json: &str) -> String {
    with_session(|s| s.compare_json_str(request_json))
}

fn with_request(
    handles_json: &str,
    options_json: &str,
    f: impl FnOnce(&handles::Session, &handles::Handles, &handles::RunOptions) -> String,
) -> String {
    with_session(
        |s| match handles::parse_request(handles_json, options_json) {
            Ok((h, o)) => f(s, &h, &o),
            Err(errors) => api::Answer::<()>::Failure { errors }.to_json_string(),
        },
    )
}

/// See [`handles::Session::export_scenario`]: the value is the scenario file's text.
#[wasm_bindgen(js_name = exportScenario)]
pub fn export_scenario(handles_json: &str, policy_text: &str, options_json: &str) -> String {
    with_request(handles_json, options_json, |s, h, o| {
        s.export_scenario(h, policy_text, o).to_json_string()
    })
}

/// See [`handles::Session::export_opendc_experiment`].
#[wasm_bindgen(js_name = exportOpenDcExperiment)]
pub fn export_opendc_experiment(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
) -> String {
    with_request(handles_json, options_json, |s, h, o| {
        s.export_opendc_experiment(h, policy_text, o)
            .to_json_string()
    })
}

/// A tagged answer whose value is bytes, as a JavaScript object: `{type: "success", value}`
/// with the value made by `to_js` (`Uint8Array`s, never base64 in JSON), or the failure's JSON
/// parsed into an object.
fn bytes_answer<T>(answer: api::Answer<T>, to_js: impl FnOnce(T) -> JsValue) -> JsValue {
    let object = js_sys::Object::new();
    let set = |key: &str, value: &JsValue| {
        // Setting a property of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&object, &JsValue::from_str(key), value);
    };
    match answer {
        api::Answer::Success { value } => {
            set("type", &JsValue::from_str("success"));
            set("value", &to_js(value));
            object.into()
        }
        api::Answer::Failure { errors } => {
            let text = api::Answer::<()>::Failure { errors }.to_json_string();
            js_sys::JSON::parse(&text).unwrap_or_else(|_| JsValue::from_str(&text))
        }
    }
}

/// See [`handles::Session::export_workload_parquet`]: `{type: "success", value: {tasks,
/// fragments}}`, each file a `Uint8Array`.
#[wasm_bindgen(js_name = exportWorkloadParquet)]
pub fn export_workload_parquet(workload: u32) -> JsValue {
    SESSION.with(|s| {
        bytes_answer(s.borrow().export_workload_parquet(workload), |files| {
            let value = js_sys::Object::new();
            for (key, bytes) in [("tasks", files.tasks), ("fragments", files.fragments)] {
                let array = js_sys::Uint8Array::from(bytes.as_slice());
                let _ = js_sys::Reflect::set(&value, &JsValue::from_str(key), &array);
            }
            value.into()
        })
    })
}

/// See [`handles::Session::export_carbon_parquet`]: `{type: "success", value}`, the file a
/// `Uint8Array`.
#[wasm_bindgen(js_name = exportCarbonParquet)]
pub fn export_carbon_parquet(carbon: u32) -> JsValue {
    SESSION.with(|s| {
        bytes_answer(s.borrow().export_carbon_parquet(carbon), |bytes| {
            js_sys::Uint8Array::from(bytes.as_slice()).into()
        })
    })
}

/// See [`handles::Session::tasks_csv`]: a finished run's tasks as CSV text.
/// A finished run's result as the JSON text the CLI's `simulate --json` prints (by running it
/// again): what the page downloads.
#[wasm_bindgen(js_name = exportResult)]
pub fn export_result(run: u32) -> String {
    with_session(|s| s.result_json(run).to_json_string())
}

#[wasm_bindgen(js_name = exportTasksCsv)]
pub fn export_tasks_csv(run: u32) -> String {
    with_session(|s| s.tasks_csv(run).to_json_string())
}

/// See [`handles::Session::explain`].
#[wasm_bindgen]
pub fn explain(run: u32, task_id: &str) -> String {
    with_session(|s| s.explain(run, task_id).to_json_string())
}

/// See [`handles::Session::overview`]: the cluster overview of a finished run, per host group,
/// in `buckets` equal time buckets over the run (a whole number from 1 to 2000).
#[wasm_bindgen]
pub fn overview(run: u32, buckets: f64) -> String {
    with_session(|s| s.overview_json_str(run, buckets))
}

/// See [`handles::Session::release`].
#[wasm_bindgen]
pub fn release(handle: u32) -> String {
    with_session(|s| s.release(handle).to_json_string())
}

/// See [`handles::Session::load_experiment`]: the dropped files as their relative paths, their
/// sizes in bytes and their bytes concatenated in the same order (one `Uint8Array`); the path of
/// the experiment file among them; the run to load; `strict` as `opendc --strict`.
#[wasm_bindgen(js_name = loadExperiment)]
pub fn load_experiment(
    paths: Vec<String>,
    sizes: Vec<u32>,
    bytes: &[u8],
    experiment: &str,
    run: u32,
    strict: bool,
) -> String {
    let refuse = |message: String| {
        api::Answer::<()>::Failure {
            errors: vec![crate::diag::Diagnostic::error("", message)],
        }
        .to_json_string()
    };
    if paths.len() != sizes.len() {
        return refuse(format!("{} paths but {} sizes", paths.len(), sizes.len()));
    }
    let mut files = Vec::with_capacity(paths.len());
    let mut at = 0usize;
    for (path, size) in paths.into_iter().zip(sizes) {
        let end = at.saturating_add(size as usize);
        let Some(content) = bytes.get(at..end) else {
            return refuse(format!(
                "the sizes add up to more than the {} bytes given",
                bytes.len()
            ));
        };
        files.push((path, content.to_vec()));
        at = end;
    }
    with_session(|s| {
        s.load_experiment(files, experiment, run, strict)
            .to_json_string()
    })
}

/// See [`handles::Session::export_opendc3`]: the value is `{experiment, notes, tasks,
/// fragments, carbon}`, the parquet files as `Uint8Array`s (`carbon` null without a trace).
#[wasm_bindgen(js_name = exportOpenDc3Experiment)]
pub fn export_opendc3_experiment(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
) -> JsValue {
    let answer = match handles::parse_request(handles_json, options_json) {
        Ok((h, o)) => SESSION.with(|s| s.borrow().export_opendc3(&h, policy_text, &o)),
        Err(errors) => api::Answer::Failure { errors },
    };
    bytes_answer(answer, opendc3_files)
}

/// See [`handles::Session::export_opendc3_policies`]: a portfolio as one OpenDC3 experiment,
/// one `allocationPolicies` entry per policy of `policies_json` (a JSON array of policy texts,
/// in order); the value is that of [`export_opendc3_experiment`].
#[wasm_bindgen(js_name = exportOpenDc3Portfolio)]
pub fn export_opendc3_portfolio(
    handles_json: &str,
    policies_json: &str,
    options_json: &str,
) -> JsValue {
    let answer = match (
        handles::parse_request(handles_json, options_json),
        api::export_sdk::policy_texts(policies_json),
    ) {
        (Ok((h, o)), Ok(texts)) => SESSION.with(|s| {
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            s.borrow().export_opendc3_policies(&h, &texts, &o)
        }),
        (Err(errors), _) | (_, Err(errors)) => api::Answer::Failure { errors },
    };
    bytes_answer(answer, opendc3_files)
}

/// An OpenDC3 export as a plain object of JSON values and `Uint8Array`s.
fn opendc3_files(e: api::export_sdk::OpenDc3Export) -> JsValue {
    let object = js_sys::Object::new();
    let set = |key: &str, value: &JsValue| {
        // Setting a property of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&object, &JsValue::from_str(key), value);
    };
    let json = |v: &serde_json::Value| js_sys::JSON::parse(&v.to_string()).unwrap_or(JsValue::NULL);
    set("experiment", &json(&e.experiment));
    set("notes", &json(&serde_json::json!(e.notes)));
    set("tasks", &js_sys::Uint8Array::from(&e.tasks[..]).into());
    set(
        "fragments",
        &js_sys::Uint8Array::from(&e.fragments[..]).into(),
    );
    let carbon = e
        .carbon
        .map_or(JsValue::NULL, |c| js_sys::Uint8Array::from(&c[..]).into());
    set("carbon", &carbon);
    object.into()
}

/// See [`api::differences::opendc_differences`]: where the policy behaves differently than in
/// OpenDC under `semantics` (`classic` or `current`), as warnings for the editor.
#[wasm_bindgen(js_name = opendcDifferences)]
pub fn opendc_differences(policy_text: &str, semantics: &str) -> String {
    api::differences::opendc_differences_json_str(policy_text, semantics)
}

/// See [`handles::Session::replay_events`]: events `from` to `from + limit` (at most
/// [`api::replay::MAX_REPLAY_PAGE`]) of a finished run in the order the simulator took them,
/// as columns (time, kind code, task index, host index), for the page's replay.
#[wasm_bindgen(js_name = replayEvents)]
pub fn replay_events(run: u32, from: u32, limit: u32) -> String {
    with_session(|s| s.replay_events_json_str(run, from, limit))
}

/// See [`api::workloads::generator_schema`]: the generator's settings as a JSON Schema, with
/// every default.
#[wasm_bindgen(js_name = generatorSchema)]
pub fn generator_schema() -> String {
    api::workloads::generator_schema_json_str()
}

/// See [`api::workloads::generated_workload_json`]: the generated workload as JSON text, the
/// bytes of `policy-playground generate`.
#[wasm_bindgen(js_name = generatedWorkloadJson)]
pub fn generated_workload_json(settings_json: &str) -> String {
    api::workloads::generated_workload_json_str(settings_json)
}

/// See [`handles::Session::generate_workload`]: generates a workload and keeps it as a handle.
#[wasm_bindgen(js_name = generateWorkload)]
pub fn generate_workload(settings_json: &str) -> String {
    with_session(|s| s.generate_workload(settings_json).to_json_string())
}

/// See [`handles::Session::workload_json`]: a workload handle as JSON text.
#[wasm_bindgen(js_name = workloadJson)]
pub fn workload_json(handle: u32) -> String {
    with_session(|s| s.workload_json(handle).to_json_string())
}

/// See [`handles::Session::workload_table`]: a small workload's task table.
#[wasm_bindgen(js_name = workloadTable)]
pub fn workload_table(handle: u32) -> String {
    with_session(|s| s.workload_table(handle).to_json_string())
}

/// See [`handles::Session::edit_workload`]: the workload of an edited task table, as JSON text.
#[wasm_bindgen(js_name = editWorkload)]
pub fn edit_workload(handle: u32, rows_json: &str) -> String {
    with_session(|s| s.edit_workload(handle, rows_json).to_json_string())
}

/// See [`handles::Session::select_workload`]: a window and/or sample of a workload, as JSON text.
#[wasm_bindgen(js_name = selectWorkload)]
pub fn select_workload(handle: u32, selection_json: &str) -> String {
    with_session(|s| s.select_workload(handle, selection_json).to_json_string())
}

/// See [`handles::Session::load_workload_selected`]: a JSON or CSV workload read keeping only a
/// window and/or sample of it, the limits checked on what is kept.
#[wasm_bindgen(js_name = loadWorkloadSelected)]
pub fn load_workload_selected(input: &JsValue, format: &str, selection_json: &str) -> String {
    with_text(input, "the workload", |text| {
        with_session(|s| {
            s.load_workload_selected(text, format, selection_json)
                .to_json_string()
        })
    })
}

/// See [`handles::Session::portfolio`]: `spec_json` is `{"entries": [{"label", "policy",
/// "semantics"}], "seeds", "baseline", "x", "y", "cdfPoints"}`; `handles` and `options` as for
/// [`run`]. Metrics and distributions only: no run is kept.
#[wasm_bindgen]
pub fn portfolio(handles_json: &str, options_json: &str, spec_json: &str) -> String {
    with_session(|s| s.portfolio_json_str(handles_json, options_json, spec_json, &mut |_| {}))
}

/// [`portfolio`], calling `progress(fraction)` (of all its runs) as it goes.
#[wasm_bindgen(js_name = portfolioWithProgress)]
pub fn portfolio_with_progress(
    handles_json: &str,
    options_json: &str,
    spec_json: &str,
    progress: &js_sys::Function,
) -> String {
    with_session(|s| {
        s.portfolio_json_str(handles_json, options_json, spec_json, &mut |f| {
            // A callback that throws is the page's bug; the portfolio goes on.
            let _ = progress.call1(&JsValue::NULL, &JsValue::from_f64(f));
        })
    })
}

/// A progress callback of JavaScript as `(done, total)` of runs: it gets the fraction.
fn fraction_of(progress: &js_sys::Function) -> impl FnMut(usize, usize) + '_ {
    move |done: usize, total: usize| {
        let fraction = done as f64 / total.max(1) as f64;
        // A callback that throws is the page's bug; the runs go on.
        let _ = progress.call1(&JsValue::NULL, &JsValue::from_f64(fraction));
    }
}

/// See [`handles::Session::sweep_split`]: how the page's two workers share the runs of the
/// sweep [`sweep_with_progress`] would make with the same arguments.
#[wasm_bindgen(js_name = sweepSplit)]
pub fn sweep_split(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
    spec_json: &str,
) -> String {
    with_session(|s| {
        s.sweep_split_json_str::<SweepSpec>(handles_json, policy_text, options_json, spec_json)
    })
}

/// See [`handles::Session::sweep_part`]: runs `from..to` of that sweep, `progress(fraction)`
/// of these as it goes; the value is a part for [`sweep_assemble`].
#[wasm_bindgen(js_name = sweepPartWithProgress)]
pub fn sweep_part_with_progress(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
    spec_json: &str,
    from: u32,
    to: u32,
    progress: &js_sys::Function,
) -> String {
    let runs = from as usize..to as usize;
    with_session(|s| {
        s.sweep_part_json_str::<SweepSpec>(
            handles_json,
            policy_text,
            options_json,
            spec_json,
            runs,
            &mut fraction_of(progress),
        )
    })
}

/// See [`handles::Session::sweep_assemble`]: the report of the sweep whose runs are in
/// `parts_json` (a JSON array of [`sweep_part_with_progress`]'s values).
#[wasm_bindgen(js_name = sweepAssemble)]
pub fn sweep_assemble(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
    spec_json: &str,
    parts_json: &str,
) -> String {
    with_session(|s| {
        s.sweep_assemble_json_str::<SweepSpec>(
            handles_json,
            policy_text,
            options_json,
            spec_json,
            parts_json,
        )
    })
}

/// See [`handles::Session::sweep_split`]: as [`sweep_split`] for a 2-D sweep.
#[wasm_bindgen(js_name = sweepGridSplit)]
pub fn sweep_grid_split(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
    spec_json: &str,
) -> String {
    with_session(|s| {
        s.sweep_split_json_str::<GridSpec>(handles_json, policy_text, options_json, spec_json)
    })
}

/// See [`handles::Session::sweep_part`]: as [`sweep_part_with_progress`] for a 2-D sweep.
#[wasm_bindgen(js_name = sweepGridPartWithProgress)]
pub fn sweep_grid_part_with_progress(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
    spec_json: &str,
    from: u32,
    to: u32,
    progress: &js_sys::Function,
) -> String {
    let runs = from as usize..to as usize;
    with_session(|s| {
        s.sweep_part_json_str::<GridSpec>(
            handles_json,
            policy_text,
            options_json,
            spec_json,
            runs,
            &mut fraction_of(progress),
        )
    })
}

/// See [`handles::Session::sweep_assemble`]: as [`sweep_assemble`] for a 2-D sweep.
#[wasm_bindgen(js_name = sweepGridAssemble)]
pub fn sweep_grid_assemble(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
    spec_json: &str,
    parts_json: &str,
) -> String {
    with_session(|s| {
        s.sweep_assemble_json_str::<GridSpec>(
            handles_json,
            policy_text,
            options_json,
            spec_json,
            parts_json,
        )
    })
}

/// See [`handles::Session::portfolio_split`]: the ranges of runs the page's two workers make
/// of the portfolio [`portfolio`] would run with the same arguments.
#[wasm_bindgen(js_name = portfolioSplit)]
pub fn portfolio_split(handles_json: &str, options_json: &str, spec_json: &str) -> String {
    with_session(|s| s.portfolio_split_json_str(handles_json, options_json, spec_json))
}

/// See [`handles::Session::portfolio_part`]: runs `from..to` of the portfolio that
/// [`portfolio`] would make with the same arguments, calling `progress(fraction)` (of these
/// runs) as it goes; the value is a part for [`portfolio_assemble`] (the page makes a
/// portfolio's two halves in its two workers).
#[wasm_bindgen(js_name = portfolioPartWithProgress)]
pub fn portfolio_part_with_progress(
    handles_json: &str,
    options_json: &str,
    spec_json: &str,
    from: u32,
    to: u32,
    progress: &js_sys::Function,
) -> String {
    with_session(|s| {
        let runs = from as usize..to as usize;
        s.portfolio_part_json_str(handles_json, options_json, spec_json, runs, &mut |f| {
            // A callback that throws is the page's bug; the part goes on.
            let _ = progress.call1(&JsValue::NULL, &JsValue::from_f64(f));
        })
    })
}

/// See [`handles::Session::portfolio_assemble`]: the report of the portfolio whose runs are in
/// `parts_json` (a JSON array of [`portfolio_part_with_progress`]'s values), the same as
/// [`portfolio`]'s.
#[wasm_bindgen(js_name = portfolioAssemble)]
pub fn portfolio_assemble(
    handles_json: &str,
    options_json: &str,
    spec_json: &str,
    parts_json: &str,
) -> String {
    with_session(|s| {
        s.portfolio_assemble_json_str(handles_json, options_json, spec_json, parts_json)
    })
}

/// See [`api::portfolio::portfolio_csv`]: a portfolio answer's value (JSON text) as the CSV
/// of its table.
#[wasm_bindgen(js_name = portfolioCsv)]
pub fn portfolio_csv(report_json: &str) -> String {
    api::portfolio::portfolio_csv_json_str(report_json)
}

/// See [`api::portfolio::pareto`]: `{"x", "y", "points": [{"x", "y"}]}`, the metrics by their
/// catalog keys; the value lists the non-dominated points.
#[wasm_bindgen]
pub fn pareto(request_json: &str) -> String {
    api::portfolio::pareto_json_str(request_json)
}

/// See [`handles::Session::sweep`]: a 2-D sweep, `spec_json` `{"x": {"parameter",
/// "values"}, "y": {...}, "seeds"}`; the other arguments are [`sweep`]'s.
#[wasm_bindgen(js_name = sweepGrid)]
pub fn sweep_grid(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
    spec_json: &str,
) -> String {
    with_session(|s| {
        s.sweep_json_str::<GridSpec>(
            handles_json,
            policy_text,
            options_json,
            spec_json,
            &mut |_, _| {},
        )
    })
}

/// [`sweep_grid`], calling `progress(fraction)` after each run.
#[wasm_bindgen(js_name = sweepGridWithProgress)]
pub fn sweep_grid_with_progress(
    handles_json: &str,
    policy_text: &str,
    options_json: &str,
    spec_json: &str,
    progress: &js_sys::Function,
) -> String {
    with_session(|s| {
        s.sweep_json_str::<GridSpec>(
            handles_json,
            policy_text,
            options_json,
            spec_json,
            &mut fraction_of(progress),
        )
    })
}

/// See [`api::lessons::read_lesson`]: a lesson text checked, and what the page shows of it
/// before the student answers.
#[wasm_bindgen(js_name = readLesson)]
pub fn read_lesson(text: &str) -> String {
    api::lessons::read_lesson_json_str(text)
}

/// See [`handles::Session::reveal_lesson`]: the lesson's conditions on the page's runs of it and
/// the student's answer graded; `request_json` is `{"runs": [handles], "answer": {"choice"} or
/// {"value"}}` (no answer: shown without answering).
#[wasm_bindgen(js_name = revealLesson)]
pub fn reveal_lesson(text: &str, request_json: &str) -> String {
    with_session(|s| s.reveal_lesson_json_str(text, request_json))
}

/// See [`api::lessons::lesson_schema`].
#[wasm_bindgen(js_name = lessonSchema)]
pub fn lesson_schema() -> String {
    api::lessons::lesson_schema_json_str()
}

/// See [`api::lessons::lesson_limits`]: the bounds of lesson files and of the links the page
/// inflates.
#[wasm_bindgen(js_name = lessonLimits)]
pub fn lesson_limits() -> String {
    api::lessons::lesson_limits_json_str()
}

/// See [`handles::Session::load_workload_parquet_selected`]: the bytes of `tasks.parquet` and
/// `fragments.parquet`, read keeping only a window and/or sample of them.
#[wasm_bindgen(js_name = loadWorkloadParquetSelected)]
pub fn load_workload_parquet_selected(
    tasks: &[u8],
    fragments: &[u8],
    selection_json: &str,
) -> String {
    with_session(|s| {
        s.load_workload_parquet_selected(tasks, fragments, selection_json)
            .to_json_string()
    })
}

/// See [`api::sweeps::sweep_grid_csv`]: a 2-D sweep answer's value (JSON text) as CSV.
#[wasm_bindgen(js_name = sweepGridCsv)]
pub fn sweep_grid_csv(report_json: &str) -> String {
    api::sweeps::sweep_grid_csv_json_str(report_json)
}
