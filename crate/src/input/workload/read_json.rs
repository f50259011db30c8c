//! A JSON workload, `{"tasks": [...]}` (also embedded in a scenario file), with every problem at
//! its path, line and column.

use crate::diag::{has_errors, Diagnostic};
use crate::input::problems::{suggest, Problems};
use crate::input::time;
use crate::model::{TaskSpec, Workload};
use serde_json::Value;
use std::collections::HashMap;

/// The fields of a JSON or CSV task.
pub const TASK_FIELDS: [&str; 12] = [
    "id",
    "name",
    "submissionTime",
    "duration",
    "cpuCount",
    "cpuCapacity",
    "memory",
    "gpuCount",
    "gpuCapacity",
    "deferrable",
    "deadline",
    "fragments",
];

/// Reads a JSON workload `{"tasks": [...]}` from text; problems are placed at their line and
/// column.
pub fn read_json_workload(text: &str) -> Result<Workload, Vec<Diagnostic>> {
    let value = crate::input::json_text::parse(text, "the workload").map_err(|d| vec![d])?;
    let (w, p) = walk_json(&value);
    finish(
        w,
        crate::input::json_text::place(text, p.into_diagnostics()),
    )
}

/// Reads a JSON workload already parsed (a scenario file embeds one). Paths are relative to it.
pub fn workload_from_value(value: &Value) -> Result<Workload, Vec<Diagnostic>> {
    let (w, p) = walk_json(value);
    finish(w, p.into_diagnostics())
}

fn finish(w: Workload, diagnostics: Vec<Diagnostic>) -> Result<Workload, Vec<Diagnostic>> {
    if has_errors(&diagnostics) {
        Err(diagnostics)
    } else {
        Ok(Workload {
            warnings: diagnostics,
            ..w
        })
    }
}

fn walk_json(value: &Value) -> (Workload, Problems) {
    let mut p = Problems::new();
    let Some(tasks) = value.get("tasks").and_then(Value::as_array) else {
        p.error("tasks", "a workload must be an object {\"tasks\": [...]}");
        return (Workload::default(), p);
    };
    if let Some(obj) = value.as_object() {
        for k in obj.keys().filter(|k| *k != "tasks") {
            p.error_at_key(
                k.clone(),
                crate::input::problems::unknown_key(k, &["tasks"]),
            );
        }
    }
    let mut w = Workload::default();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut disagree = 0;
    for (i, t) in tasks.iter().enumerate() {
        let path = |f: &str| format!("tasks[{i}].{f}");
        let Some(obj) = t.as_object() else {
            p.error(
                format!("tasks[{i}]"),
                format!("task {i}: expected an object, found {t}"),
            );
            continue;
        };
        for k in obj.keys() {
            if !TASK_FIELDS.contains(&k.as_str()) {
                p.error_at_key(
                    path(k),
                    format!(
                        "task {i}: {}",
                        crate::input::problems::unknown_key(k, &TASK_FIELDS)
                    ),
                );
            }
        }
        let field = |f: &str| obj.get(f).filter(|v| !v.is_null());
        let id = match field("id") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) if n.is_i64() || n.is_u64() => n.to_string(),
            other => {
                p.error(
                    path("id"),
                    format!(
                        "task {i}: `id` must be a string or an integer, found {}",
                        other.map_or("nothing".into(), |v| v.to_string())
                    ),
                );
                continue;
            }
        };
        if let Some(first) = seen.insert(id.clone(), i) {
            p.error(
                path("id"),
                format!("task {i}: the id `{id}` is also task {first}'s"),
            );
        }
        let name = match field("name") {
            None => id.clone(),
            Some(Value::String(s)) => s.clone(),
            Some(v) => {
                p.error(
                    path("name"),
                    format!("task {i}: `name` must be a string, found {v}"),
                );
                id.clone()
            }
        };
        let submit = match field("submissionTime").map(time::parse_time_value) {
            Some(Ok(t)) => t,
            Some(Err(e)) => {
                p.error(
                    path("submissionTime"),
                    format!("task {i}: `submissionTime`: {e}"),
                );
                0
            }
            None => {
                p.error(
                    path("submissionTime"),
                    format!("task {i}: missing `submissionTime` ({})", time::FORMS),
                );
                0
            }
        };
        let int = |p: &mut Problems, f: &str, min: i64, default: Option<i64>| -> i64 {
            match field(f) {
                None => default.unwrap_or_else(|| {
                    p.error(
                        path(f),
                        format!("task {i}: missing `{f}` (an integer >= {min})"),
                    );
                    min
                }),
                Some(v) => match v.as_i64() {
                    Some(x) if x >= min => x,
                    _ => {
                        p.error(
                            path(f),
                            format!("task {i}: `{f}` must be an integer >= {min}, found {v}"),
                        );
                        min
                    }
                },
            }
        };
        let num = |p: &mut Problems, f: &str, default: Option<f64>| -> f64 {
            match field(f) {
                None => default.unwrap_or_else(|| {
                    p.error(path(f), format!("task {i}: missing `{f}` (a number >= 0)"));
                    0.0
                }),
                Some(v) => match v.as_f64() {
                    Some(x) if x.is_finite() && x >= 0.0 => x,
                    _ => {
                        p.error(
                            path(f),
                            format!("task {i}: `{f}` must be a finite number >= 0, found {v}"),
                        );
                        0.0
                    }
                },
            }
        };
        let cpu_count = int(&mut p, "cpuCount", 1, None).min(u32::MAX as i64) as u32;
        let cpu_capacity = num(&mut p, "cpuCapacity", None);
        let memory = int(&mut p, "memory", 0, None);
        let gpu_count = int(&mut p, "gpuCount", 0, Some(0)).min(u32::MAX as i64) as u32;
        let gpu_capacity = num(&mut p, "gpuCapacity", Some(0.0));
        let deferrable = match field("deferrable") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                p.error(
                    path("deferrable"),
                    format!("task {i}: `deferrable` must be true or false, found {v}"),
                );
                false
            }
        };
        let deadline = match field("deadline") {
            None => None,
            Some(Value::Number(n)) if n.as_i64() == Some(-1) => None,
            Some(v) => match time::parse_time_value(v) {
                Ok(d) if d >= submit => Some(d),
                Ok(d) => {
                    p.error(path("deadline"), format!("task {i}: the deadline {d} is before the submission {submit} (use -1 for none)"));
                    None
                }
                Err(e) => {
                    p.error(path("deadline"), format!("task {i}: `deadline`: {e}"));
                    None
                }
            },
        };
        let start = w.fragments.begin_task();
        if let Some(f) = field("fragments") {
            read_fragments(&mut p, &mut w, f, i);
        }
        let end = w.fragments.end();
        let sum: i64 = w.fragments.duration(&(start..end));
        let duration = if end > start {
            if let Some(d) = field("duration").and_then(Value::as_i64) {
                if d != sum {
                    disagree += 1;
                }
            }
            if sum < 1 {
                p.error(
                    path("fragments"),
                    format!("task {i}: its fragments last 0 ms in all, expected at least 1"),
                );
            }
            sum
        } else {
            int(&mut p, "duration", 1, None)
        };
        w.tasks.push(TaskSpec {
            id,
            name,
            submission_ms: submit,
            duration_ms: duration,
            cpu_count,
            cpu_capacity_mhz: cpu_capacity,
            memory_mib: memory,
            gpu_count,
            gpu_capacity_mhz: gpu_capacity,
            deferrable,
            deadline_ms: deadline,
            fragments: start..end,
        });
    }
    if disagree > 0 {
        p.warn("tasks", format!("{disagree} tasks have a `duration` that differs from the sum of their fragments; the fragments win"));
    }
    let undated = w
        .tasks
        .iter()
        .filter(|t| t.deferrable_without_deadline())
        .count();
    if undated > 0 {
        p.warn(
            "tasks",
            format!(
                "{undated} deferrable tasks have no deadline: they are never deferred (SPEC 7.2)"
            ),
        );
    }
    (w, p)
}

fn read_fragments(p: &mut Problems, w: &mut Workload, f: &Value, i: usize) {
    let path = format!("tasks[{i}].fragments");
    let mut push = |p: &mut Problems, k: usize, d: Option<&Value>, u: Option<&Value>| {
        let duration = d.and_then(Value::as_i64).filter(|d| *d >= 0);
        let usage = u
            .and_then(Value::as_f64)
            .filter(|u| u.is_finite() && *u >= 0.0);
        match (duration, usage) {
            (Some(d), Some(u)) => {
                w.fragments.push(d, u);
            }
            _ => p.error(
                format!("{path}[{k}]"),
                format!("task {i}, fragment {k}: expected `duration` (an integer >= 0, ms) and `cpuUsage` (a number >= 0, MHz)"),
            ),
        }
    };
    match f {
        Value::Array(items) => {
            for (k, item) in items.iter().enumerate() {
                if let Some(obj) = item.as_object() {
                    for key in obj.keys().filter(|k| *k != "duration" && *k != "cpuUsage") {
                        let hint = suggest(key, &["duration", "cpuUsage"]).map_or(String::new(), |s| format!(" (did you mean `{s}`?)"));
                        p.error_at_key(format!("{path}[{k}].{key}"), format!("task {i}, fragment {k}: unknown key `{key}`{hint}"));
                    }
                }
                push(p, k, item.get("duration"), item.get("cpuUsage"));
            }
        }
        Value::Object(obj) => {
            let (Some(Value::Array(d)), Some(Value::Array(u))) = (obj.get("duration"), obj.get("cpuUsage")) else {
                p.error(path, format!("task {i}: compact fragments must be {{\"duration\": [...], \"cpuUsage\": [...]}}"));
                return;
            };
            if d.len() != u.len() {
                p.error(path, format!("task {i}: {} fragment durations but {} CPU usages", d.len(), u.len()));
                return;
            }
            for k in 0..d.len() {
                push(p, k, d.get(k), u.get(k));
            }
        }
        other => p.error(path, format!("task {i}: `fragments` must be a list or {{\"duration\", \"cpuUsage\"}}, found {other}")),
    }
}
