//! Carbon what-ifs, beyond OpenDC: the run options that change the carbon trace a run sees
//! (`carbonShiftMs`, `carbonScale`) and the forecast its time-shifting policy reads
//! (`forecastError`, applied in [`crate::engine::timeshift::ForecastNoise`]). OpenDC has none of
//! them; with none set a run is exactly OpenDC's (SPEC 6.5, 7.1) and its output byte for byte
//! what it was before these options existed.
//!
//! - **Shift** by `s` ms: the run sees at time `t` the intensity the trace gives at `t + s`,
//!   read cyclically over the trace's own span (its first sample to the end of its last, the last
//!   sample lasting as long as the one before it). So a trace of one year shifted by three months
//!   starts with April's values in January and ends with January-March's in October-December: the
//!   same datacenter in another season of the same year, with the trace covering the same time as
//!   before. A shift that is not a whole number of samples splits the sample it falls in: one more
//!   sample, at the trace's start.
//! - **Scale** by `k` (>= 0): every intensity times `k` (a greener or dirtier grid with the same
//!   daily shape). Both the carbon accounting and what the policy sees use the shifted and scaled
//!   trace.
//! - **Forecast error** `e` (>= 0): what the policy *forecasts* is noisy; what the run is charged
//!   is not. See [`crate::engine::timeshift::ForecastNoise`].

use crate::diag::Diagnostic;
use crate::model::CarbonTrace;
use serde_json::{json, Map, Value};
use std::borrow::Cow;

/// Largest accepted `carbonScale`.
pub const MAX_SCALE: f64 = 1000.0;
/// Largest accepted `forecastError` (a relative standard deviation: 10 is 1,000 %).
pub const MAX_FORECAST_ERROR: f64 = 10.0;

/// The carbon what-ifs of one run, as the run options give them (`None`: not applied).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CarbonWhatIf {
    pub shift_ms: Option<i64>,
    pub scale: Option<f64>,
    pub forecast_error: Option<f64>,
}

impl CarbonWhatIf {
    /// True when no what-if is set (or each is set to its neutral value).
    pub fn is_neutral(&self) -> bool {
        self.shift_ms.unwrap_or(0) == 0
            && self.scale.unwrap_or(1.0) == 1.0
            && self.forecast_error.unwrap_or(0.0) == 0.0
    }

    /// The errors of out-of-range values, each naming its option.
    pub fn check(&self) -> Vec<Diagnostic> {
        let mut errors = Vec::new();
        if let Some(k) = self.scale {
            if !(k.is_finite() && (0.0..=MAX_SCALE).contains(&k)) {
                errors.push(Diagnostic::error(
                    "carbonScale",
                    format!("`carbonScale` must be a number in [0, {MAX_SCALE}], found {k}"),
                ));
            }
        }
        if let Some(e) = self.forecast_error {
            if !(e.is_finite() && (0.0..=MAX_FORECAST_ERROR).contains(&e)) {
                errors.push(Diagnostic::error(
                    "forecastError",
                    format!(
                        "`forecastError` must be a number in [0, {MAX_FORECAST_ERROR}] (a relative standard deviation: 0.1 is 10 %), found {e}"
                    ),
                ));
            }
        }
        errors
    }

    /// The trace a run sees: `trace` shifted and scaled (borrowed when neither applies).
    pub fn apply<'a>(&self, trace: &'a CarbonTrace) -> Result<Cow<'a, CarbonTrace>, Diagnostic> {
        let mut out = Cow::Borrowed(trace);
        if let Some(s) = self.shift_ms.filter(|&s| s != 0) {
            if let Some(shifted) = shifted(trace, s) {
                out = Cow::Owned(shifted);
            }
        }
        if let Some(k) = self.scale.filter(|&k| k != 1.0) {
            let scaled = scaled(&out, k)?;
            out = Cow::Owned(scaled);
        }
        Ok(out)
    }

    /// The what-ifs a scenario document sets (`carbonShiftMs`, an integer; `carbonScale` and
    /// `forecastError`, numbers), each checked as the run options are; the errors name the key.
    pub fn from_object(object: &Map<String, Value>) -> Result<CarbonWhatIf, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let mut number = |key: &str, integer: bool| {
            let v = object.get(key)?;
            let n = if integer {
                v.as_i64().map(|n| n as f64)
            } else {
                v.as_f64()
            };
            if n.is_none() {
                let kind = if integer {
                    "an integer (ms)"
                } else {
                    "a number"
                };
                errors.push(Diagnostic::error(
                    key,
                    format!("`{key}` must be {kind}, found {v}"),
                ));
            }
            n
        };
        let what_if = CarbonWhatIf {
            shift_ms: number("carbonShiftMs", true).map(|n| n as i64),
            scale: number("carbonScale", false),
            forecast_error: number("forecastError", false),
        };
        errors.extend(what_if.check());
        if errors.is_empty() {
            Ok(what_if)
        } else {
            Err(errors)
        }
    }

    /// Writes the what-ifs that are set into a scenario document (none when unset, so a
    /// scenario without them is OpenDC's).
    pub fn write(&self, scenario: &mut Value) {
        if let Some(s) = self.shift_ms {
            scenario["carbonShiftMs"] = json!(s);
        }
        if let Some(k) = self.scale {
            scenario["carbonScale"] = json!(k);
        }
        if let Some(e) = self.forecast_error {
            scenario["forecastError"] = json!(e);
        }
    }

    /// Warnings for what-ifs that cannot act on this run: any of them without a carbon trace,
    /// a forecast error under a policy that reads no forecast.
    pub fn warnings(&self, has_carbon: bool, reads_forecast: bool) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let any = self.shift_ms.is_some() || self.scale.is_some() || self.forecast_error.is_some();
        if any && !has_carbon {
            out.push(Diagnostic::warning(
                "carbon",
                "the carbon what-ifs (shift, scale, forecast error) change nothing: this run has no carbon trace",
            ));
        } else if self.forecast_error.unwrap_or(0.0) > 0.0 && !reads_forecast {
            out.push(Diagnostic::warning(
                "forecastError",
                "`forecastError` changes nothing here: the policy reads no carbon forecast (only a timeshift policy, or its task stopper, with `forecast: true` does)",
            ));
        }
        out
    }
}

/// The span a trace repeats over when shifted: from its first sample to the end of its last,
/// which lasts as long as the one before it. `None` for fewer than two samples (a constant
/// trace, which no shift changes) or a span past the range of i64.
pub fn span_ms(trace: &CarbonTrace) -> Option<i64> {
    let ts = &trace.timestamps_ms;
    let n = ts.len();
    if n < 2 {
        return None;
    }
    let last_len = ts[n - 1].checked_sub(ts[n - 2])?;
    ts[n - 1].checked_add(last_len)?.checked_sub(ts[0])
}

/// `trace` read `shift_ms` later, cyclically over [`span_ms`]: the value at `first + x`
/// (`0 <= x < span`) is the original's at `first + (x + shift) mod span`. `None` when the shift
/// changes nothing (a whole number of spans, or a trace of fewer than two samples).
pub fn shifted(trace: &CarbonTrace, shift_ms: i64) -> Option<CarbonTrace> {
    let span = span_ms(trace)?;
    let s = shift_ms.rem_euclid(span);
    if s == 0 {
        return None;
    }
    let first = trace.timestamps_ms[0];
    let offsets: Vec<i64> = trace.timestamps_ms.iter().map(|t| t - first).collect();
    // The first sample starting at or after `s` starts the shifted trace (at offset 0 when it
    // starts exactly at `s`; otherwise the sample `s` falls in supplies [0, its end - s)).
    let m = offsets.partition_point(|&b| b < s);
    let mut out = CarbonTrace::default();
    let mut push = |offset: i64, value: f64| {
        out.timestamps_ms.push(first + offset);
        out.intensity.push(value);
    };
    if offsets.get(m) != Some(&s) {
        push(0, trace.intensity[m - 1]);
    }
    let samples = offsets.iter().zip(&trace.intensity);
    for (&b, &v) in samples.clone().skip(m) {
        push(b - s, v);
    }
    for (&b, &v) in samples.take(m) {
        push(b - s + span, v);
    }
    Some(out)
}

/// `trace` with every intensity times `k`; an error when a value would become infinite.
pub fn scaled(trace: &CarbonTrace, k: f64) -> Result<CarbonTrace, Diagnostic> {
    let intensity: Vec<f64> = trace.intensity.iter().map(|v| v * k).collect();
    if let Some(i) = intensity.iter().position(|v| !v.is_finite()) {
        return Err(Diagnostic::error(
            "carbonScale",
            format!(
                "`carbonScale` {k} makes sample {i} ({} gCO2/kWh) infinite",
                trace.intensity[i]
            ),
        ));
    }
    Ok(CarbonTrace {
        timestamps_ms: trace.timestamps_ms.clone(),
        intensity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = 3_600_000;

    fn trace(points: &[(i64, f64)]) -> CarbonTrace {
        CarbonTrace {
            timestamps_ms: points.iter().map(|p| p.0).collect(),
            intensity: points.iter().map(|p| p.1).collect(),
        }
    }

    fn points(t: &CarbonTrace) -> Vec<(i64, f64)> {
        t.timestamps_ms
            .iter()
            .copied()
            .zip(t.intensity.iter().copied())
            .collect()
    }

    /// Three hourly samples 100, 200, 300 from 10 h: the span is 3 h.
    fn three() -> CarbonTrace {
        trace(&[(10 * H, 100.0), (11 * H, 200.0), (12 * H, 300.0)])
    }

    #[test]
    fn a_shift_of_whole_samples_rotates_the_values() {
        assert_eq!(span_ms(&three()), Some(3 * H));
        let one = shifted(&three(), H).expect("a shift");
        assert_eq!(
            points(&one),
            [(10 * H, 200.0), (11 * H, 300.0), (12 * H, 100.0)]
        );
        // Back by one hour is forward by two.
        let back = shifted(&three(), -H).expect("a shift");
        assert_eq!(
            points(&back),
            [(10 * H, 300.0), (11 * H, 100.0), (12 * H, 200.0)]
        );
        assert_eq!(shifted(&three(), -2 * H), Some(one));
    }

    /// Half an hour: 10:00-10:30 sees 10:30-11:00 (100), 10:30-11:30 sees 11:00-12:00 (200),
    /// 11:30-12:30 sees 12:00-13:00 (300), and 12:30-13:00 wraps round to 10:00-10:30 (100).
    #[test]
    fn a_shift_inside_a_sample_splits_it() {
        let half = shifted(&three(), H / 2).expect("a shift");
        assert_eq!(
            points(&half),
            [
                (10 * H, 100.0),
                (10 * H + H / 2, 200.0),
                (11 * H + H / 2, 300.0),
                (12 * H + H / 2, 100.0)
            ]
        );
    }

    #[test]
    fn whole_spans_and_single_samples_are_not_shifted() {
        assert_eq!(shifted(&three(), 3 * H), None);
        assert_eq!(shifted(&three(), -6 * H), None);
        assert_eq!(shifted(&trace(&[(0, 5.0)]), H), None);
        let w = CarbonWhatIf {
            shift_ms: Some(3 * H),
            ..CarbonWhatIf::default()
        };
        assert!(matches!(w.apply(&three()), Ok(Cow::Borrowed(_))));
    }

    #[test]
    fn scaling_multiplies_every_intensity() {
        let w = CarbonWhatIf {
            shift_ms: Some(H),
            scale: Some(0.5),
            ..CarbonWhatIf::default()
        };
        let original = three();
        let t = w.apply(&original).expect("applies");
        assert_eq!(
            points(&t),
            [(10 * H, 100.0), (11 * H, 150.0), (12 * H, 50.0)]
        );
        let e = scaled(&trace(&[(0, f64::MAX)]), 2.0).expect_err("infinite");
        assert_eq!(e.path, "carbonScale");
    }

    #[test]
    fn out_of_range_options_are_each_named() {
        let w = CarbonWhatIf {
            shift_ms: Some(1),
            scale: Some(-1.0),
            forecast_error: Some(f64::NAN),
        };
        let paths: Vec<String> = w.check().into_iter().map(|d| d.path).collect();
        assert_eq!(paths, ["carbonScale", "forecastError"]);
        assert!(CarbonWhatIf::default().is_neutral());
        assert!(CarbonWhatIf {
            forecast_error: Some(0.0),
            scale: Some(1.0),
            shift_ms: Some(0)
        }
        .is_neutral());
    }
}
