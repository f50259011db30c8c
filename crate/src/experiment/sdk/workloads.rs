//! The `workloads` axis of an SDK experiment (SPEC 11.7): inline workloads, and trace workloads
//! whose `source` names a folder of OpenDC parquet files under the experiment's folder, with
//! `submissionTime`, `deferAll`, `sampleFraction` and `scalingPolicy` applied or warned about.

use super::super::{defer_all, load_workload, shift_to, LoadError};
use super::collect::Collector;
use super::resources;
use super::Reading;
use crate::input::sdk::workload::inline_workload;
use crate::model::Workload;
use serde_json::{Map, Value};

/// The keys of a trace workload.
const TRACE_KEYS: [&str; 6] = [
    "type",
    "source",
    "sampleFraction",
    "submissionTime",
    "scalingPolicy",
    "deferAll",
];

/// A workload of the experiment: its label and the workload.
pub type Entry = (String, Workload);

/// Reads every workload; `None` for an entry with errors.
pub fn read(r: &Reading, list: &[Value], c: &mut Collector) -> Vec<Option<Entry>> {
    list.iter()
        .enumerate()
        .map(|(i, v)| one(r, v, &format!("workloads[{i}]"), c))
        .collect()
}

fn one(r: &Reading, v: &Value, at: &str, c: &mut Collector) -> Option<Entry> {
    let Some(obj) = v.as_object() else {
        c.error(
            at,
            format!("a workload is an object with `type` (`trace` or `inline`), found {v}"),
        );
        return None;
    };
    match obj.get("type").and_then(Value::as_str) {
        Some("inline") => {
            let (w, ds) = inline_workload(v, at, c.strict);
            c.extend_under("", ds);
            Some((format!("{at} (inline)"), w?))
        }
        Some("trace") => trace(r, obj, at, c),
        Some(other) => {
            c.error(
                &format!("{at}.type"),
                format!("unknown workload type `{other}`: OpenDC3 reads `trace` and `inline`"),
            );
            None
        }
        None => {
            c.error(at, "the workload lacks `type` (`trace` or `inline`)");
            None
        }
    }
}

fn trace(r: &Reading, obj: &Map<String, Value>, at: &str, c: &mut Collector) -> Option<Entry> {
    c.keys(obj, at, "a trace workload", &TRACE_KEYS);
    let options = TraceOptions::read(obj, at, c)?;
    let source_at = format!("{at}.source");
    let Some(source) = obj.get("source") else {
        c.error(at, "a trace workload needs `source`, a reference to a folder with tasks.parquet and fragments.parquet");
        return None;
    };
    let reference = resources::reference(source)
        .map_err(|e| c.error(&source_at, e))
        .ok()?;
    let folder = resources::resolve(r.files, r.root, &reference)
        .map_err(|e| c.error(&source_at, e))
        .ok()?;
    if !r.resolve {
        // `check`: what the file says is valid; the folder is read only for a run.
        return Some((reference.target, Workload::default()));
    }
    if !r.files.is_dir(&folder) {
        c.unreadable = true;
        c.error(&source_at, format!(
            "{} was not found at `{}/` (tasks.parquet, fragments.parquet); put the trace folder there (in the page: drop the folder that holds the experiment and its traces)",
            reference.describe("workload"),
            folder.display()
        ));
        return None;
    }
    let mut w = match load_workload(r.files, &folder) {
        Ok(w) => w,
        Err(e) => {
            c.unreadable |= matches!(e, LoadError::Unreadable(_));
            for d in e.diagnostics() {
                c.error(&source_at, d.message.clone());
            }
            return None;
        }
    };
    options.apply(&mut w);
    Some((reference.target, w))
}

/// What a trace workload asks to be done to its tasks.
struct TraceOptions {
    start_ms: Option<i64>,
    defer_all: bool,
}

impl TraceOptions {
    fn read(obj: &Map<String, Value>, at: &str, c: &mut Collector) -> Option<Self> {
        let mut ok = true;
        match obj.get("sampleFraction") {
            None => {}
            Some(v) => match v.as_f64() {
                Some(f) if f > 0.0 && f < 1.0 => c.once("sample-fraction", &format!("{at}.sampleFraction"), format!("`sampleFraction` {f} is not applied: every task runs (OpenDC3 samples randomly, with replacement and an unseeded generator)")),
                Some(f) if f >= 1.0 => {}
                _ => {
                    c.error(&format!("{at}.sampleFraction"), format!("`sampleFraction` must be a number > 0, found {v}"));
                    ok = false;
                }
            },
        }
        match obj.get("scalingPolicy").map(|v| (v, v.as_str())) {
            None | Some((_, Some("NoDelay"))) => {}
            Some((_, Some("Perfect"))) => c.once(
                "scaling",
                &format!("{at}.scalingPolicy"),
                "`scalingPolicy: Perfect` is not modelled: tasks run as NoDelay",
            ),
            Some((v, _)) => {
                c.error(
                    &format!("{at}.scalingPolicy"),
                    format!(
                        "`scalingPolicy` must be `NoDelay` or `Perfect` (exact case), found {v}"
                    ),
                );
                ok = false;
            }
        }
        let defer_all = match obj.get("deferAll") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                c.error(
                    &format!("{at}.deferAll"),
                    format!("`deferAll` must be true or false, found {v}"),
                );
                ok = false;
                false
            }
        };
        let start_ms = match obj.get("submissionTime") {
            None | Some(Value::Null) => None,
            Some(v) => match local_date_time_ms(v) {
                Ok(t) => Some(t),
                Err(e) => {
                    c.error(&format!("{at}.submissionTime"), e);
                    ok = false;
                    None
                }
            },
        };
        ok.then_some(TraceOptions {
            start_ms,
            defer_all,
        })
    }

    /// `deferAll` first (deadlines from the times as read), then the shift, as OpenDC3 does.
    fn apply(&self, w: &mut Workload) {
        if self.defer_all {
            defer_all(w);
        }
        if let Some(t) = self.start_ms {
            shift_to(w, t);
        }
    }
}

/// A `java.time.LocalDateTime` string, `uuuu-MM-ddTHH:mm[:ss[.fraction]]`, read as UTC; a zone
/// suffix is an error because OpenDC3 fails to parse it (SPEC 11.7).
pub fn local_date_time_ms(v: &Value) -> Result<i64, String> {
    let Some(s) = v.as_str() else {
        return Err(format!("`submissionTime` of a trace workload is a date-time string such as \"2024-03-01T00:00\", found {v}"));
    };
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let shape = b.len() >= 16
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16);
    let rest = &s[16.min(s.len())..];
    let seconds_ok = rest.is_empty()
        || (rest.len() >= 3 && rest.as_bytes()[0] == b':' && digits(17..19) && {
            let frac = &rest[3..];
            frac.is_empty()
                || (frac.len() > 1
                    && frac.starts_with('.')
                    && frac[1..].bytes().all(|d| d.is_ascii_digit()))
        });
    if !shape || !seconds_ok {
        let zone = if s.ends_with('Z') || rest.contains(['+', '-']) {
            " without a zone (OpenDC3 fails on `Z` or an offset)"
        } else {
            ""
        };
        return Err(format!("`{s}` is not a local date-time: write `uuuu-MM-ddTHH:mm[:ss[.fraction]]`{zone}, read as UTC"));
    }
    crate::input::time::parse_iso8601_ms(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn submission_time_is_a_local_date_time_read_as_utc() {
        assert_eq!(
            local_date_time_ms(&json!("2022-01-01T00:00")).unwrap(),
            1_640_995_200_000
        );
        assert_eq!(
            local_date_time_ms(&json!("2022-01-01T00:00:01.5")).unwrap(),
            1_640_995_201_500
        );
        assert!(local_date_time_ms(&json!("2022-01-01T00:00Z"))
            .unwrap_err()
            .contains("without a zone"));
        assert!(local_date_time_ms(&json!("2022-01-01T00:00:00+01:00"))
            .unwrap_err()
            .contains("without a zone"));
        assert!(local_date_time_ms(&json!("2022-01-01")).is_err());
        assert!(local_date_time_ms(&json!(0)).is_err());
    }
}
