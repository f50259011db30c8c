//! Carbon-intensity traces (SPEC 10): parquet (`timestamp`, `carbon_intensity`), CSV
//! (`timestamp,carbon_intensity`) or JSON (`[{"timestamp", "carbonIntensity"}]`). Timestamps
//! are ms since the epoch (a parquet timestamp without a zone is UTC) or, in text, ISO-8601.
//! Rows must be in strictly increasing time with finite values >= 0; gaps are allowed.

use super::parquet::Table;
use super::problems::Problems;
use super::time;
use crate::diag::{has_errors, Diagnostic};
use crate::model::CarbonTrace;
use serde_json::Value;

/// Checks the rows of a trace; `row(i)` names row `i` in messages and `path(i)` in paths.
fn check(
    p: &mut Problems,
    trace: &CarbonTrace,
    row: impl Fn(usize) -> String,
    path: impl Fn(usize) -> String,
) {
    if trace.is_empty() {
        p.error("", "the carbon trace has no rows");
    }
    for i in 0..trace.len() {
        let v = trace.intensity[i];
        if !(v.is_finite() && v >= 0.0) {
            p.error(
                path(i),
                format!(
                    "{}: carbon intensity {v}, expected a finite number >= 0 (gCO2/kWh)",
                    row(i)
                ),
            );
        }
        if i > 0 && trace.timestamps_ms[i] <= trace.timestamps_ms[i - 1] {
            p.error(
                path(i),
                format!(
                    "{}: timestamp {} is not after the previous row's {} (rows must be in strictly increasing time)",
                    row(i),
                    trace.timestamps_ms[i],
                    trace.timestamps_ms[i - 1]
                ),
            );
        }
    }
}

fn finish(trace: CarbonTrace, p: Problems) -> Result<CarbonTrace, Vec<Diagnostic>> {
    let ds = p.into_diagnostics();
    if has_errors(&ds) {
        Err(ds)
    } else {
        Ok(trace)
    }
}

/// Reads a parquet carbon trace from its bytes.
pub fn read_carbon_parquet(bytes: &[u8]) -> Result<CarbonTrace, Vec<Diagnostic>> {
    let file = "carbon trace (parquet)";
    let t = Table::open(bytes, file).map_err(|d| vec![d])?;
    let ts = t
        .require(
            "timestamp",
            "timestamp or int64 ms",
            t.integers("timestamp"),
        )
        .map_err(|d| vec![d]);
    let ci = t
        .require(
            "carbon_intensity",
            "double gCO2/kWh",
            t.numbers("carbon_intensity"),
        )
        .map_err(|d| vec![d]);
    let (ts, ci) = match (ts, ci) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => return Err(a.err().into_iter().chain(b.err()).flatten().collect()),
    };
    let mut p = Problems::new();
    let mut trace = CarbonTrace::default();
    for (i, (t, v)) in ts.iter().zip(&ci).enumerate() {
        match (t, v) {
            (Some(t), Some(v)) => {
                trace.timestamps_ms.push(*t);
                trace.intensity.push(*v);
            }
            _ => p.error(
                format!("[{i}]"),
                format!("row {i}: null timestamp or carbon intensity"),
            ),
        }
    }
    check(&mut p, &trace, |i| format!("row {i}"), |i| format!("[{i}]"));
    finish(trace, p)
}

/// Reads a CSV carbon trace: a header `timestamp,carbon_intensity`, rows numbered from 1 at it.
pub fn read_carbon_csv(text: &str) -> Result<CarbonTrace, Vec<Diagnostic>> {
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| {
            vec![Diagnostic::error("", format!("the CSV header cannot be read: {e}")).at(1, 1)]
        })?
        .clone();
    let col = |name: &str| headers.iter().position(|h| h == name);
    let (Some(tc), Some(vc)) = (col("timestamp"), col("carbon_intensity")) else {
        return Err(vec![Diagnostic::error(
            "",
            format!(
                "row 1: expected the columns `timestamp,carbon_intensity`, found `{}`",
                headers.iter().collect::<Vec<_>>().join(",")
            ),
        )
        .at(1, 1)]);
    };
    let mut p = Problems::new();
    let mut trace = CarbonTrace::default();
    for (r, record) in reader.records().enumerate() {
        let row = r + 2;
        let record = match record {
            Ok(rec) => rec,
            Err(e) => {
                p.error(format!("[{r}]"), format!("row {row}: {e}"));
                continue;
            }
        };
        let t = record.get(tc).unwrap_or("");
        let t = t.parse::<i64>().or_else(|_| time::parse_time_str(t));
        let v = record.get(vc).unwrap_or("").parse::<f64>();
        match (t, v) {
            (Ok(t), Ok(v)) => {
                trace.timestamps_ms.push(t);
                trace.intensity.push(v);
            }
            (Err(e), _) => p.error(
                format!("[{r}].timestamp"),
                format!("row {row}, column `timestamp`: {e}"),
            ),
            (_, Err(_)) => p.error(
                format!("[{r}].carbon_intensity"),
                format!(
                    "row {row}, column `carbon_intensity`: `{}` is not a number",
                    record.get(vc).unwrap_or("")
                ),
            ),
        }
    }
    if p.has_errors() {
        return Err(p.into_diagnostics());
    }
    check(
        &mut p,
        &trace,
        |i| format!("row {}", i + 2),
        |i| format!("[{i}]"),
    );
    finish(trace, p)
}

/// Reads a JSON carbon trace from text.
pub fn read_carbon_json(text: &str) -> Result<CarbonTrace, Vec<Diagnostic>> {
    let value = super::json_text::parse(text, "the carbon trace").map_err(|d| vec![d])?;
    carbon_from_value(&value).map_err(|ds| super::json_text::place(text, ds))
}

/// Reads a JSON carbon trace already parsed: `[{"timestamp", "carbonIntensity"}]`.
pub fn carbon_from_value(value: &Value) -> Result<CarbonTrace, Vec<Diagnostic>> {
    let Some(rows) = value.as_array() else {
        return Err(vec![Diagnostic::error(
            "",
            "a carbon trace must be a list of {\"timestamp\", \"carbonIntensity\"}",
        )]);
    };
    let mut p = Problems::new();
    let mut trace = CarbonTrace::default();
    for (i, row) in rows.iter().enumerate() {
        if let Some(obj) = row.as_object() {
            for k in obj
                .keys()
                .filter(|k| *k != "timestamp" && *k != "carbonIntensity")
            {
                p.error_at_key(
                    format!("[{i}].{k}"),
                    format!(
                        "row {i}: {}",
                        super::problems::unknown_key(k, &["timestamp", "carbonIntensity"])
                    ),
                );
            }
        }
        let t = row.get("timestamp").map(time::parse_time_value);
        let v = row.get("carbonIntensity").and_then(Value::as_f64);
        match (t, v) {
            (Some(Ok(t)), Some(v)) => {
                trace.timestamps_ms.push(t);
                trace.intensity.push(v);
            }
            (Some(Err(e)), _) => p.error(
                format!("[{i}].timestamp"),
                format!("row {i}: `timestamp`: {e}"),
            ),
            (None, _) => p.error(format!("[{i}]"), format!("row {i}: missing `timestamp`")),
            (_, None) => p.error(
                format!("[{i}].carbonIntensity"),
                format!("row {i}: `carbonIntensity` must be a number"),
            ),
        }
    }
    if p.has_errors() {
        return Err(p.into_diagnostics());
    }
    check(&mut p, &trace, |i| format!("row {i}"), |i| format!("[{i}]"));
    finish(trace, p)
}
