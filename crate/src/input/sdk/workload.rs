//! An OpenDC3 inline workload, `{"type": "inline", "tasks": [...]}`, read into a
//! [`Workload`] (SPEC 11.7).
//!
//! OpenDC3 decodes it with kotlinx-serialization (`MODEL/workload/TaskSpec.kt`,
//! `TaskFragmentSpec.kt`, `WorkloadSpec.kt`) and builds its tasks in
//! `RUN/factory/WorkloadFactory.kt`. This reader applies the same rules and says what OpenDC3
//! would refuse, at OpenDC's dotted paths (`workloads[0].tasks[1].memory`):
//! - wrong JSON types, `null` in a non-nullable field, missing required fields, an enum not
//!   spelled exactly and integers with a fraction or outside 32 bits are errors (SPEC 11.2.4);
//!   so are the violations of `validate()` (SPEC 11.2.5);
//! - unit-typed fields go through [`super::units`];
//! - unknown keys are warnings, or errors when `strict` (SPEC 11.2.3);
//! - what is read but not modelled (`scalingPolicy: Perfect`, GPU usage and memory, workflows)
//!   gives one warning per kind with the count of further occurrences (SPEC 11.10).
//!
//! Times stay as written (epoch ms); the simulator makes the first submission time 0.

use super::units::{sdk_memory_mib, sdk_quantity, sdk_time_ms, Quantity};
use crate::diag::{join_path, Diagnostic};
use crate::input::problems::{suggest, MAX_ERRORS};
use crate::model::{TaskSpec, Workload};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The keys of an inline workload.
pub const WORKLOAD_KEYS: [&str; 3] = ["type", "tasks", "scalingPolicy"];

/// The keys of an inline workload's task (`TaskSpec`).
pub const TASK_KEYS: [&str; 15] = [
    "id",
    "name",
    "submissionTime",
    "duration",
    "cpuCoreCount",
    "cpuCapacity",
    "memory",
    "fragments",
    "gpuCoreCount",
    "gpuCapacity",
    "gpuMemory",
    "deferrable",
    "deadline",
    "parents",
    "children",
];

/// The keys of a task's fragment (`TaskFragmentSpec`).
pub const FRAGMENT_KEYS: [&str; 4] = ["duration", "cpuUsage", "gpuUsage", "gpuMemory"];

/// The most tasks, and separately the most fragments, one inline workload may have: the reader's
/// work and memory stay bounded whatever the input.
pub const MAX_INLINE_ITEMS: usize = 5_000_000;

/// Reads an SDK inline workload (SPEC 11.7) from its JSON value.
///
/// `at` is the workload's path in the document (`workloads[0]`); every diagnostic's path starts
/// with it and follows OpenDC's dotted form (`workloads[0].tasks[1].memory`), without a line or
/// column: the caller places them in its text. `strict` makes unknown keys errors, as
/// `opendc --strict run` refuses them.
///
/// Returns the workload when there is no error, and every diagnostic found (errors first, then
/// warnings; after [`MAX_ERRORS`] errors the rest are counted). The workload's own `warnings` is
/// left empty: each warning is in the returned list once, for the caller to place and pass on.
/// Tasks whose fragments last 0 ms in all are left out with a warning and counted in `dropped`,
/// as the parquet reader does.
pub fn inline_workload(
    value: &Value,
    at: &str,
    strict: bool,
) -> (Option<Workload>, Vec<Diagnostic>) {
    let mut r = Reader::new(at, strict, MAX_INLINE_ITEMS);
    let w = r.workload(value);
    let diagnostics = r.finish();
    let ok = !diagnostics.iter().any(Diagnostic::is_error);
    (w.filter(|_| ok), diagnostics)
}

/// A warning given once per kind: where it was first seen, and how many more times.
struct Once {
    kind: &'static str,
    path: String,
    message: String,
    more: u64,
}

/// The diagnostics of one workload while it is read.
struct Reader<'a> {
    at: &'a str,
    strict: bool,
    /// The most tasks, and the most fragments, read.
    limit: usize,
    errors: Vec<Diagnostic>,
    more_errors: u64,
    warnings: Vec<Diagnostic>,
    unknown_warnings: usize,
    more_unknown: u64,
    once: Vec<Once>,
}

/// One task's fields as read, before it becomes a [`TaskSpec`].
struct TaskFields {
    id: Option<i32>,
    name: Option<String>,
    submission: Option<i64>,
    duration: Option<i64>,
    cpu_count: Option<u32>,
    cpu_capacity: Option<f64>,
    memory: Option<i64>,
    gpu_count: Option<u32>,
    gpu_capacity: Option<f64>,
    deferrable: Option<bool>,
    deadline: Option<Option<i64>>,
}

impl<'a> Reader<'a> {
    fn new(at: &'a str, strict: bool, limit: usize) -> Self {
        Reader {
            at,
            strict,
            limit,
            errors: Vec::new(),
            more_errors: 0,
            warnings: Vec::new(),
            unknown_warnings: 0,
            more_unknown: 0,
            once: Vec::new(),
        }
    }

    /// The full path of `rel` under the workload.
    fn path(&self, rel: &str) -> String {
        join_path(self.at, rel)
    }

    fn error(&mut self, rel: &str, message: impl Into<String>) {
        let d = Diagnostic::error(self.path(rel), message);
        self.push_error(d);
    }

    fn push_error(&mut self, d: Diagnostic) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(d);
        } else {
            self.more_errors += 1;
        }
    }

    fn warn(&mut self, rel: &str, message: impl Into<String>) {
        let d = Diagnostic::warning(self.path(rel), message);
        self.warnings.push(d);
    }

    /// A warning of `kind`, kept at its first path; later ones are only counted.
    fn warn_once(&mut self, kind: &'static str, rel: &str, message: impl Into<String>) {
        if let Some(o) = self.once.iter_mut().find(|o| o.kind == kind) {
            o.more += 1;
        } else {
            self.once.push(Once {
                kind,
                path: join_path(self.at, rel),
                message: message.into(),
                more: 0,
            });
        }
    }

    /// Every unknown key of `obj` (at `rel`): a warning at the key, or an error when strict.
    fn unknown_keys(&mut self, obj: &Map<String, Value>, rel: &str, valid: &[&str], what: &str) {
        for key in obj.keys() {
            if valid.contains(&key.as_str()) || key == "importFrom" {
                continue;
            }
            let hint =
                suggest(key, valid).map_or(String::new(), |s| format!(" (did you mean `{s}`?)"));
            let valid_list = valid.join(", ");
            let path = self.path(&join_path(rel, key));
            if self.strict {
                let d = Diagnostic::error(
                    path,
                    format!(
                        "unknown key `{key}` in {what}{hint}: `opendc --strict run` refuses it; valid keys: {valid_list}"
                    ),
                )
                .at_key();
                self.push_error(d);
            } else if self.unknown_warnings < MAX_ERRORS {
                self.unknown_warnings += 1;
                let d = Diagnostic::warning(
                    path,
                    format!(
                        "unknown key `{key}` in {what}{hint}: OpenDC3 ignores it; valid keys: {valid_list}"
                    ),
                )
                .at_key();
                self.warnings.push(d);
            } else {
                self.more_unknown += 1;
            }
        }
    }

    /// Errors first (with the count of those left out), then warnings in the order found, then
    /// the once-per-kind warnings with their counts.
    fn finish(self) -> Vec<Diagnostic> {
        let mut all = self.errors;
        if self.more_errors > 0 {
            all.push(Diagnostic::error(
                self.at,
                format!("{} more errors not shown", self.more_errors),
            ));
        }
        all.extend(self.warnings);
        if self.more_unknown > 0 {
            all.push(Diagnostic::warning(
                self.at,
                format!(
                    "{} more unknown keys not shown; OpenDC3 ignores them",
                    self.more_unknown
                ),
            ));
        }
        for o in self.once {
            let message = if o.more > 0 {
                format!("{} ... and {} more", o.message, o.more)
            } else {
                o.message
            };
            all.push(Diagnostic::warning(o.path, message));
        }
        all
    }

    /// The workload, or None when its shape prevents reading its tasks.
    fn workload(&mut self, value: &Value) -> Option<Workload> {
        let Some(obj) = value.as_object() else {
            self.error(
                "",
                format!(
                    "a workload must be an object {{\"type\": \"inline\", \"tasks\": [...]}}, found {}",
                    kind_of(value)
                ),
            );
            return None;
        };
        self.unknown_keys(obj, "", &WORKLOAD_KEYS, "an inline workload");
        match obj.get("type") {
            Some(Value::String(t)) if t == "inline" => {}
            Some(v) => self.error(
                "type",
                format!(
                    "`type` must be \"inline\" for an inline workload, found {}",
                    shown(v)
                ),
            ),
            None => self.error("type", "missing `type` (\"inline\" or \"trace\")"),
        }
        match obj.get("scalingPolicy") {
            None => {}
            Some(Value::String(s)) if s == "NoDelay" => {}
            Some(Value::String(s)) if s == "Perfect" => self.warn_once(
                "scalingPolicy",
                "scalingPolicy",
                "`scalingPolicy: Perfect` is read but not modelled: tasks run as with `NoDelay` \
                 (contention never stretches a task)",
            ),
            Some(v) => self.error(
                "scalingPolicy",
                format!(
                    "`scalingPolicy` must be \"NoDelay\" or \"Perfect\", spelled exactly, found {}",
                    shown(v)
                ),
            ),
        }
        let tasks = match obj.get("tasks") {
            Some(Value::Array(tasks)) => tasks,
            Some(v) => {
                self.error(
                    "tasks",
                    format!("`tasks` must be a list of tasks, found {}", kind_of(v)),
                );
                return None;
            }
            None => {
                self.error("tasks", "missing required field `tasks` (a list of tasks)");
                return None;
            }
        };
        if tasks.is_empty() {
            self.error("tasks", "`tasks` must not be empty");
            return None;
        }
        if tasks.len() > self.limit {
            self.error(
                "tasks",
                format!(
                    "the workload has {} tasks; at most {} are read",
                    tasks.len(),
                    self.limit
                ),
            );
            return None;
        }
        let fragments: usize = tasks
            .iter()
            .filter_map(|t| t.get("fragments").and_then(Value::as_array))
            .map(Vec::len)
            .sum();
        if fragments > self.limit {
            self.error(
                "tasks",
                format!(
                    "the workload has {fragments} fragments; at most {} are read",
                    self.limit
                ),
            );
            return None;
        }
        let mut w = Workload {
            tasks: Vec::with_capacity(tasks.len()),
            ..Workload::default()
        };
        let mut ids: HashMap<i32, usize> = HashMap::new();
        for (i, task) in tasks.iter().enumerate() {
            self.task(&mut w, &mut ids, task, i);
        }
        if w.dropped > 0 {
            self.warn(
                "tasks",
                format!(
                    "{} tasks have fragments that last 0 ms in all and are left out",
                    w.dropped
                ),
            );
        }
        if w.tasks.is_empty() && w.dropped > 0 {
            self.error("tasks", "no task lasts longer than 0 ms");
        }
        Some(w)
    }

    /// Reads task `i` and its fragments into `w` (when it has no error).
    fn task(&mut self, w: &mut Workload, ids: &mut HashMap<i32, usize>, task: &Value, i: usize) {
        let rel = format!("tasks[{i}]");
        let Some(obj) = task.as_object() else {
            self.error(
                &rel,
                format!("a task must be an object, found {}", kind_of(task)),
            );
            return;
        };
        self.unknown_keys(obj, &rel, &TASK_KEYS, "a task");
        let f = |key: &str| (obj.get(key), format!("{rel}.{key}"));
        let id = self.required(f("id"), "an integer", |r, v, p| r.int32(v, p, "id"));
        if let Some(id) = id {
            if let Some(&first) = ids.get(&id) {
                self.warn_once(
                    "duplicate id",
                    &format!("{rel}.id"),
                    format!(
                        "the id {id} is also task {first}'s: OpenDC looks tasks up by id (the task \
                         stopper reschedules them by id), and an explanation asked by id finds the first"
                    ),
                );
            } else {
                ids.insert(id, i);
            }
        }
        let name = self.required(f("name"), "a string", |r, v, p| match v {
            Value::String(s) => Some(s.clone()),
            other => {
                r.error(
                    p,
                    format!("`name` must be a string, found {}", kind_of(other)),
                );
                None
            }
        });
        let submission = self.required(f("submissionTime"), "a time", |r, v, p| {
            r.time(v, p, "submissionTime")
        });
        let duration = self.required(f("duration"), "a duration", |r, v, p| {
            r.time(v, p, "duration")
        });
        let cpu_count = self.required(f("cpuCoreCount"), "an integer > 0", |r, v, p| {
            let n = r.int32(v, p, "cpuCoreCount")?;
            if n <= 0 {
                r.error(
                    p,
                    format!("`cpuCoreCount` must be greater than zero, found {n}"),
                );
                return None;
            }
            Some(n as u32)
        });
        let cpu_capacity = self.required(f("cpuCapacity"), "a frequency > 0", |r, v, p| {
            let mhz = r.quantity(v, p, "cpuCapacity", Quantity::Frequency)?;
            if mhz <= 0.0 {
                r.error(
                    p,
                    format!("`cpuCapacity` must be greater than zero, found {mhz} MHz"),
                );
                return None;
            }
            Some(mhz)
        });
        let memory = self.required(f("memory"), "a data size", |r, v, p| {
            let mib = match sdk_memory_mib(v) {
                Ok(m) => m,
                Err(e) => {
                    r.error(p, format!("`memory`: {e}"));
                    return None;
                }
            };
            if mib < 0 {
                r.error(p, format!("`memory` must not be negative, found {mib} MiB: the playground cannot run it"));
                return None;
            }
            Some(mib)
        });
        let gpu_count = self.optional(f("gpuCoreCount"), Some(0), |r, v, p| {
            let n = r.int32(v, p, "gpuCoreCount")?;
            if n < 0 {
                r.error(p, format!("`gpuCoreCount` must not be negative, found {n}: the playground cannot run it"));
                return None;
            }
            Some(n as u32)
        });
        let gpu_capacity = self.optional(f("gpuCapacity"), Some(0.0), |r, v, p| {
            let mhz = r.quantity(v, p, "gpuCapacity", Quantity::Frequency)?;
            if mhz < 0.0 {
                r.error(p, format!("`gpuCapacity` must not be negative, found {mhz} MHz: the playground cannot run it"));
                return None;
            }
            Some(mhz)
        });
        self.optional(f("gpuMemory"), Some(()), |r, v, p| {
            let mib = r.quantity(v, p, "gpuMemory", Quantity::DataSize)?;
            if mib != 0.0 {
                r.gpu_warning(p);
            }
            Some(())
        });
        let deferrable = self.optional(f("deferrable"), Some(false), |r, v, p| match v {
            Value::Bool(b) => Some(*b),
            other => {
                r.error(
                    p,
                    format!("`deferrable` must be true or false, found {}", shown(other)),
                );
                None
            }
        });
        let deadline = match obj.get("deadline") {
            None | Some(Value::Null) => Some(None),
            Some(v) => self
                .time(v, &format!("{rel}.deadline"), "deadline")
                .map(Some),
        };
        for key in ["parents", "children"] {
            self.optional(f(key), Some(()), |r, v, p| {
                let Value::Array(items) = v else {
                    r.error(
                        p,
                        format!(
                            "`{key}` must be a list of task ids (integers), found {}",
                            kind_of(v)
                        ),
                    );
                    return None;
                };
                for (k, item) in items.iter().enumerate() {
                    r.int32(item, &format!("{p}[{k}]"), key);
                }
                if !items.is_empty() {
                    r.warn_once(
                        "workflows",
                        p,
                        "workflows are not modelled: `parents` and `children` are read but tasks \
                         do not wait for each other",
                    );
                }
                Some(())
            });
        }
        let start = w.fragments.begin_task();
        let fragments_ok = self.fragments(w, obj.get("fragments"), &rel);
        let fields = TaskFields {
            id,
            name,
            submission,
            duration,
            cpu_count,
            cpu_capacity,
            memory,
            gpu_count,
            gpu_capacity,
            deferrable,
            deadline,
        };
        if !fragments_ok {
            w.fragments.truncate(start);
            return;
        }
        self.push_task(w, fields, start, &rel);
    }

    /// Turns a task's fields into a [`TaskSpec`] over fragments `start..` (already pushed), or
    /// takes the fragments back when a field is missing or the task lasts 0 ms.
    fn push_task(&mut self, w: &mut Workload, t: TaskFields, start: u32, rel: &str) {
        let end = w.fragments.end();
        let take_back = |w: &mut Workload| w.fragments.truncate(start);
        let (
            Some(id),
            Some(name),
            Some(submission),
            Some(written),
            Some(cpu_count),
            Some(cpu_capacity),
            Some(memory),
            Some(gpu_count),
            Some(gpu_capacity),
            Some(deferrable),
            Some(deadline),
        ) = (
            t.id,
            t.name,
            t.submission,
            t.duration,
            t.cpu_count,
            t.cpu_capacity,
            t.memory,
            t.gpu_count,
            t.gpu_capacity,
            t.deferrable,
            t.deadline,
        )
        else {
            take_back(w);
            return;
        };
        let Some(sum) = w.fragments.checked_duration(&(start..end)) else {
            self.error(
                &format!("{rel}.fragments"),
                "the fragments last longer than the range of whole milliseconds",
            );
            take_back(w);
            return;
        };
        if sum == 0 {
            w.dropped += 1;
            take_back(w);
            return;
        }
        if written != sum {
            self.warn_once(
                "duration",
                &format!("{rel}.duration"),
                format!(
                    "`duration` is {written} ms but the fragments last {sum} ms: the fragments \
                     win (OpenDC3's time-shifting reads `duration`, so deferral can differ)"
                ),
            );
        }
        if deferrable && deadline.is_none() {
            self.warn_once(
                "no deadline",
                &format!("{rel}.deferrable"),
                "a deferrable task without a deadline is never deferred (SPEC 7.2)",
            );
        }
        w.tasks.push(TaskSpec {
            id: id.to_string(),
            name,
            submission_ms: submission,
            duration_ms: sum,
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

    /// Reads a task's `fragments` into `w`; false when there is an error (or none at all).
    fn fragments(&mut self, w: &mut Workload, value: Option<&Value>, rel: &str) -> bool {
        let path = format!("{rel}.fragments");
        let items = match value {
            Some(Value::Array(items)) => items,
            Some(v) => {
                self.error(
                    &path,
                    format!(
                        "`fragments` must be a list of fragments, found {}",
                        kind_of(v)
                    ),
                );
                return false;
            }
            None => {
                self.error(
                    &path,
                    "missing required field `fragments` (a list of fragments)",
                );
                return false;
            }
        };
        if items.is_empty() {
            self.error(&path, "`fragments` must not be empty");
            return false;
        }
        let mut ok = true;
        for (k, item) in items.iter().enumerate() {
            let rel = format!("{path}[{k}]");
            let Some(obj) = item.as_object() else {
                self.error(
                    &rel,
                    format!("a fragment must be an object, found {}", kind_of(item)),
                );
                ok = false;
                continue;
            };
            self.unknown_keys(obj, &rel, &FRAGMENT_KEYS, "a fragment");
            let f = |key: &str| (obj.get(key), format!("{rel}.{key}"));
            let duration = self.required(f("duration"), "a duration", |r, v, p| {
                let ms = r.time(v, p, "duration")?;
                if ms < 0 {
                    r.error(p, format!("a fragment's `duration` must not be negative, found {ms} ms: the playground cannot run it"));
                    return None;
                }
                Some(ms)
            });
            let usage = self.required(f("cpuUsage"), "a frequency", |r, v, p| {
                let mhz = r.quantity(v, p, "cpuUsage", Quantity::Frequency)?;
                if mhz < 0.0 {
                    r.error(p, format!("`cpuUsage` must not be negative, found {mhz} MHz: the playground cannot run it"));
                    return None;
                }
                Some(mhz)
            });
            for (key, q) in [
                ("gpuUsage", Quantity::Frequency),
                ("gpuMemory", Quantity::DataSize),
            ] {
                self.optional(f(key), Some(()), |r, v, p| {
                    if r.quantity(v, p, key, q)? != 0.0 {
                        r.gpu_warning(p);
                    }
                    Some(())
                });
            }
            match (duration, usage) {
                (Some(d), Some(u)) => {
                    w.fragments.push(d, u);
                }
                _ => ok = false,
            }
        }
        ok
    }

    /// The one warning about GPU usage and memory (counted after the first), at `rel`.
    fn gpu_warning(&mut self, rel: &str) {
        self.warn_once(
            "gpu",
            rel,
            "GPU power and GPU memory are not modelled (GPU cores still count for VGpu): \
             `gpuUsage` and `gpuMemory` are read but have no effect",
        );
    }

    /// A required field (`value`, its relative path): read by `read`, or an error naming what
    /// is expected when it is missing or null.
    fn required<T>(
        &mut self,
        (value, rel): (Option<&Value>, String),
        expected: &str,
        read: impl FnOnce(&mut Self, &Value, &str) -> Option<T>,
    ) -> Option<T> {
        let key = rel.rsplit('.').next().unwrap_or(&rel).to_string();
        match value {
            None => {
                self.error(&rel, format!("missing required field `{key}` ({expected})"));
                None
            }
            Some(Value::Null) => {
                self.error(&rel, format!("`{key}` must not be null ({expected})"));
                None
            }
            Some(v) => read(self, v, &rel),
        }
    }

    /// An optional field: its default when absent, an error when null, else read by `read`.
    fn optional<T>(
        &mut self,
        (value, rel): (Option<&Value>, String),
        default: Option<T>,
        read: impl FnOnce(&mut Self, &Value, &str) -> Option<T>,
    ) -> Option<T> {
        match value {
            None => default,
            Some(Value::Null) => {
                let key = rel.rsplit('.').next().unwrap_or(&rel).to_string();
                self.error(
                    &rel,
                    format!("`{key}` must not be null: leave it out for its default"),
                );
                None
            }
            Some(v) => read(self, v, &rel),
        }
    }

    /// A JSON integer within 32 bits (OpenDC's `Int`); a string, a fraction or a larger value
    /// is an error.
    fn int32(&mut self, v: &Value, rel: &str, key: &str) -> Option<i32> {
        let found = match v {
            Value::Number(n) => match n.as_i64() {
                Some(x) => match i32::try_from(x) {
                    Ok(x) => return Some(x),
                    Err(_) => format!("{x}, which is out of the 32-bit range"),
                },
                None if n.is_u64() => format!("{n}, which is out of the 32-bit range"),
                None => format!(
                    "{n}, written with a fraction or an exponent (write a whole number such as 2)"
                ),
            },
            Value::String(s) => format!("the string \"{s}\" (write the number without quotes)"),
            other => kind_of(other).to_string(),
        };
        self.error(rel, format!("`{key}` must be an integer, found {found}"));
        None
    }

    /// A unit-typed value in its base unit, or an error at `rel`.
    fn quantity(&mut self, v: &Value, rel: &str, key: &str, q: Quantity) -> Option<f64> {
        match sdk_quantity(v, q) {
            Ok(x) => Some(x),
            Err(e) => {
                self.error(rel, format!("`{key}`: {e}"));
                None
            }
        }
    }

    /// A time in whole ms (truncated), or an error at `rel`.
    fn time(&mut self, v: &Value, rel: &str, key: &str) -> Option<i64> {
        match sdk_time_ms(v) {
            Ok(x) => Some(x),
            Err(e) => {
                self.error(rel, format!("`{key}`: {e}"));
                None
            }
        }
    }
}

/// What kind of JSON value `v` is, with its text when short.
fn kind_of(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {}", shown(&Value::String(s.clone()))),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// A value's JSON text for messages, cut to 60 characters.
fn shown(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}...", s.chars().take(57).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn task(id: i64, fragments: usize) -> Value {
        json!({
            "id": id, "name": format!("t{id}"), "submissionTime": 0, "duration": "1 s",
            "cpuCoreCount": 1, "cpuCapacity": "1 GHz", "memory": "1 GiB",
            "fragments": vec![json!({"duration": "1 s", "cpuUsage": "1 GHz"}); fragments],
        })
    }

    fn read(value: &Value, limit: usize) -> (Option<Workload>, Vec<Diagnostic>) {
        let mut r = Reader::new("w", false, limit);
        let w = r.workload(value);
        let d = r.finish();
        let ok = !d.iter().any(Diagnostic::is_error);
        (w.filter(|_| ok), d)
    }

    #[test]
    fn too_many_tasks_or_fragments_are_refused_before_reading() {
        let three = json!({"type": "inline", "tasks": [task(0, 1), task(1, 1), task(2, 1)]});
        let (w, d) = read(&three, 2);
        assert!(w.is_none());
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].path, "w.tasks");
        assert_eq!(d[0].message, "the workload has 3 tasks; at most 2 are read");
        let wide = json!({"type": "inline", "tasks": [task(0, 2), task(1, 1)]});
        let (w, d) = read(&wide, 2);
        assert!(w.is_none());
        assert_eq!(
            d[0].message,
            "the workload has 3 fragments; at most 2 are read"
        );
        assert!(read(&wide, 3).0.is_some());
    }

    #[test]
    fn errors_are_capped_and_counted() {
        let tasks: Vec<Value> = (0..MAX_ERRORS + 5).map(|_| json!(1)).collect();
        let (w, d) = read(&json!({"type": "inline", "tasks": tasks}), 1000);
        assert!(w.is_none());
        assert_eq!(d.len(), MAX_ERRORS + 1);
        assert_eq!(d[MAX_ERRORS].message, "5 more errors not shown");
        assert_eq!(d[MAX_ERRORS].path, "w");
    }
}
