//! A CSV workload: a header row of task fields, one task per row (no fragments).

use super::{workload_from_value, TASK_FIELDS};
use crate::diag::Diagnostic;
use crate::input::problems::suggest;
use crate::model::Workload;
use serde_json::Value;

/// Reads a CSV workload: a header row of [`TASK_FIELDS`] names (all but `fragments`), one task
/// per row. Rows are numbered from 1 at the header.
pub fn read_csv_workload(text: &str) -> Result<Workload, Vec<Diagnostic>> {
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| {
            vec![Diagnostic::error("", format!("the CSV header cannot be read: {e}")).at(1, 1)]
        })?
        .clone();
    let csv_fields = &TASK_FIELDS[..11];
    let mut errors = Vec::new();
    // A misspelt column is one error, which names the column it was probably meant to be; that
    // column is then not also reported missing.
    let mut meant = Vec::new();
    for (c, h) in headers.iter().enumerate() {
        if !csv_fields.contains(&h) {
            let expected = match suggest(h, csv_fields).filter(|s| !headers.iter().any(|x| x == *s))
            {
                Some(s) => {
                    meant.push(s);
                    format!("did you mean `{s}`?")
                }
                None => format!("expected some of {}", csv_fields.join(", ")),
            };
            errors.push(
                Diagnostic::error(
                    h,
                    format!("row 1, column {}: unknown column `{h}`; {expected}", c + 1),
                )
                .at(1, 1),
            );
        }
    }
    for required in [
        "id",
        "submissionTime",
        "cpuCount",
        "cpuCapacity",
        "memory",
        "duration",
    ] {
        if !headers.iter().any(|h| h == required) && !meant.contains(&required) {
            errors.push(
                Diagnostic::error(required, format!("row 1: missing the column `{required}`"))
                    .at(1, 1),
            );
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut tasks = Vec::new();
    for (r, record) in reader.records().enumerate() {
        let row = r + 2;
        let record = record.map_err(|e| {
            vec![Diagnostic::error("", format!("row {row}: {e}")).at(row as u32, 1)]
        })?;
        let mut task = serde_json::Map::new();
        for (h, v) in headers.iter().zip(record.iter()) {
            if v.is_empty() {
                continue;
            }
            let value = match h {
                "id" | "name" => Value::String(v.to_string()),
                "deferrable" => match v.to_ascii_lowercase().as_str() {
                    "true" | "1" => Value::Bool(true),
                    "false" | "0" => Value::Bool(false),
                    _ => Value::String(v.to_string()),
                },
                _ => v
                    .parse::<i64>()
                    .map(Value::from)
                    .or_else(|_| {
                        v.parse::<f64>().map(|x| {
                            serde_json::Number::from_f64(x)
                                .map_or(Value::String(v.to_string()), Value::Number)
                        })
                    })
                    .unwrap_or_else(|_| Value::String(v.to_string())),
            };
            task.insert(h.to_string(), value);
        }
        tasks.push(Value::Object(task));
    }
    workload_from_value(&serde_json::json!({ "tasks": tasks })).map_err(|ds| {
        ds.into_iter()
            .map(|mut d| {
                if let Some(i) = d
                    .path
                    .strip_prefix("tasks[")
                    .and_then(|r| r.split(']').next())
                    .and_then(|n| n.parse::<usize>().ok())
                {
                    d.message = format!("row {}: {}", i + 2, d.message);
                    d.line = Some(i as u32 + 2);
                }
                d
            })
            .collect()
    })
}
