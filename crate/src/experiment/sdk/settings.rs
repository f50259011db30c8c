//! The experiment-level keys of an SDK file (SPEC 11.4): `runs`, `initialSeed`, `name`, and the
//! axes the playground does not model (`failureModels`, `maxNumFailures`, `checkpointModels`,
//! `exportModels`), validated as OpenDC3 validates them and warned about as SPEC 11.10 says.

use super::collect::Collector;
use serde_json::{Map, Value};

/// The keys of an SDK experiment.
pub const EXPERIMENT_KEYS: [&str; 10] = [
    "name",
    "topologies",
    "workloads",
    "allocationPolicies",
    "failureModels",
    "maxNumFailures",
    "checkpointModels",
    "exportModels",
    "runs",
    "initialSeed",
];

/// Most runs one experiment may ask for (scenarios x runs), a bound on the work a file causes.
pub const MAX_RUNS: u64 = 10_000;

/// What the experiment-level keys say.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub name: String,
    pub runs: u32,
    pub initial_seed: i32,
    /// Product of the lengths of the axes that change no playground result (after equal entries
    /// collapse): each playground scenario stands for this many of OpenDC3's.
    pub identical: u64,
}

/// Reads the experiment-level keys.
pub fn read(top: &Map<String, Value>, c: &mut Collector) -> Settings {
    c.keys(top, "", "an experiment", &EXPERIMENT_KEYS);
    let name = match top.get("name") {
        None => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            c.error("name", format!("`name` must be a string, found {other}"));
            String::new()
        }
    };
    let runs = int(top, "runs", 1, 1, c) as u32;
    let initial_seed = int(top, "initialSeed", 0, i32::MIN as i64, c) as i32;
    let mut identical = 1u64;
    for (key, default_len, check) in [
        (
            "failureModels",
            1,
            failure_model as fn(&Value, &str, &mut Collector),
        ),
        ("maxNumFailures", 1, max_failures),
        ("checkpointModels", 1, checkpoint_model),
        ("exportModels", 1, export_model),
    ] {
        let n = match top.get(key) {
            None => default_len,
            Some(v) => axis(v, key, check, c),
        };
        identical = identical.saturating_mul(n.max(1));
        if n > 1 {
            c.warn(key, format!("{n} scenarios differ only in `{key}`, which the playground does not model; their runs are identical here"));
        }
    }
    Settings {
        name,
        runs,
        initial_seed,
        identical,
    }
}

/// An integer key with OpenDC3's 32-bit range and a lower bound.
fn int(top: &Map<String, Value>, key: &str, default: i64, min: i64, c: &mut Collector) -> i64 {
    let Some(v) = top.get(key) else {
        return default;
    };
    match v.as_i64() {
        Some(n) if n >= min && n <= i32::MAX as i64 => n,
        _ => {
            let bound = if min > 0 {
                format!(", at least {min}")
            } else {
                String::new()
            };
            c.error(
                key,
                format!("`{key}` must be a 32-bit integer{bound}, found {v}"),
            );
            default
        }
    }
}

/// An axis: a non-empty list whose equal entries collapse into one (a `Set` in OpenDC3).
/// Returns the number of distinct entries.
fn axis(v: &Value, key: &str, check: fn(&Value, &str, &mut Collector), c: &mut Collector) -> u64 {
    let Some(items) = v.as_array() else {
        c.error(key, format!("`{key}` must be a list, found {v}"));
        return 1;
    };
    if items.is_empty() {
        c.error(
            key,
            format!("`{key}` is empty: OpenDC3 needs at least one entry"),
        );
        return 1;
    }
    let mut distinct: Vec<&Value> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        check(item, &format!("{key}[{i}]"), c);
        if !distinct.contains(&item) {
            distinct.push(item);
        }
    }
    distinct.len() as u64
}

fn failure_model(v: &Value, path: &str, c: &mut Collector) {
    match v.get("type").and_then(Value::as_str) {
        _ if v.is_null() => c.error(path, "a failure model cannot be null in an SDK file: write {\"type\": \"none\"}"),
        Some("none") => {}
        Some("traceBased" | "prefab" | "custom") => c.once(
            "failures",
            path,
            "host failures are not modelled (`traceBased` sources are not resolved): the runs have no failures",
        ),
        Some(other) => c.error(path, format!("unknown failure model `{other}`: expected none, traceBased, prefab or custom")),
        None => c.error(path, "a failure model needs `type` (none, traceBased, prefab or custom)"),
    }
}

fn max_failures(v: &Value, path: &str, c: &mut Collector) {
    if !v
        .as_i64()
        .is_some_and(|n| (1..=i32::MAX as i64).contains(&n))
    {
        c.error(
            path,
            format!("`maxNumFailures` entries must be integers >= 1, found {v}"),
        );
    }
}

fn checkpoint_model(v: &Value, path: &str, c: &mut Collector) {
    match v {
        Value::Null => {}
        Value::Object(_) => c.once(
            "checkpoints",
            path,
            "checkpoints are not modelled: the runs have none",
        ),
        other => c.error(
            path,
            format!("a checkpoint model is an object or null, found {other}"),
        ),
    }
}

fn export_model(v: &Value, path: &str, c: &mut Collector) {
    let Some(obj) = v.as_object() else {
        c.error(path, format!("an export model is an object, found {v}"));
        return;
    };
    c.keys(
        obj,
        path,
        "an export model",
        &[
            "exportInterval",
            "printFrequency",
            "columns",
            "filesToExport",
        ],
    );
    if let Some(interval) = obj.get("exportInterval") {
        let at = format!("{path}.exportInterval");
        let bare = interval.is_number()
            || interval
                .as_str()
                .is_some_and(|s| s.trim().parse::<f64>().is_ok());
        if bare {
            c.once("bare-export-interval", &at, "a bare number is milliseconds in OpenDC3 (the legacy format meant seconds); it has no effect on results here");
        }
        match crate::input::sdk::units::sdk_time_ms(interval) {
            Ok(ms) if ms > 0 => {}
            Ok(_) => c.error(&at, "`exportInterval` must be > 0"),
            Err(e) => c.error(&at, e),
        }
    }
    match obj.get("printFrequency") {
        None | Some(Value::Null) => {}
        Some(v) if v.as_i64().is_some_and(|n| n > 0) => {}
        Some(v) => c.error(
            &format!("{path}.printFrequency"),
            format!("`printFrequency` must be null or an integer > 0, found {v}"),
        ),
    }
}
