//! Values with a unit: `"2.1 GHz"`, `"100000 MiB"`, `"50 kWatts"`, `"10 minutes"` (SPEC 10).
//!
//! OpenDC's topology and SDK files write quantities either as bare numbers (in a default unit) or
//! as strings with a unit. Every reader here goes through this module so that a unit means the
//! same thing everywhere: units are case-insensitive, the decimal byte units are powers of 1000
//! (`KB`, `MB`, `GB`, `TB`) and the binary ones powers of 1024 (`KiB` ... `TiB`); a bare number is
//! MHz, MiB, W or ms. Case-insensitivity means `"Mb"` is a megabyte, never a megabit.
//!
//! Conversions by a power of ten are done on the decimal text (`"2.1 GHz"` is parsed as `2.1e3`),
//! so the result is the correctly rounded value of what was written, not a product of two
//! rounded numbers.

use serde_json::Value;

/// What a value measures, and so which units it may carry and which one a bare number has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// Frequency, result in MHz.
    Frequency,
    /// Data size, result in MiB.
    DataSize,
    /// Power, result in W.
    Power,
    /// Duration, result in ms.
    Duration,
}

/// How one unit converts to the quantity's result unit.
#[derive(Clone, Copy)]
enum Factor {
    /// Multiply by 10^k (done exactly on the decimal text).
    Pow10(i32),
    /// Multiply by 10^k, then by 2^j (exact for the power of two).
    Pow10Pow2(i32, i32),
    /// Multiply by an arbitrary factor (minutes, hours, days).
    Times(f64),
}

impl Quantity {
    /// The name of the quantity, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Quantity::Frequency => "a frequency",
            Quantity::DataSize => "a data size",
            Quantity::Power => "a power",
            Quantity::Duration => "a duration",
        }
    }

    /// The unit a bare number is in.
    pub fn default_unit(self) -> &'static str {
        match self {
            Quantity::Frequency => "MHz",
            Quantity::DataSize => "MiB",
            Quantity::Power => "W",
            Quantity::Duration => "ms",
        }
    }

    /// The units accepted, as listed in messages.
    pub fn units(self) -> &'static str {
        match self {
            Quantity::Frequency => "Hz, kHz, MHz, GHz",
            Quantity::DataSize => "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB",
            Quantity::Power => "W, Watts, kW, kWatts",
            Quantity::Duration => {
                "ms, s, min, h, d (or milliseconds, seconds, minutes, hours, days)"
            }
        }
    }

    fn factor(self, unit: &str) -> Option<Factor> {
        use Factor::*;
        let u = unit.to_ascii_lowercase();
        let f = match self {
            Quantity::Frequency => match u.as_str() {
                "hz" => Pow10(-6),
                "khz" => Pow10(-3),
                "mhz" => Pow10(0),
                "ghz" => Pow10(3),
                _ => return None,
            },
            Quantity::DataSize => match u.as_str() {
                "b" | "byte" | "bytes" => Pow10Pow2(0, -20),
                "kb" => Pow10Pow2(3, -20),
                "mb" => Pow10Pow2(6, -20),
                "gb" => Pow10Pow2(9, -20),
                "tb" => Pow10Pow2(12, -20),
                "kib" => Pow10Pow2(0, -10),
                "mib" => Pow10(0),
                "gib" => Pow10Pow2(0, 10),
                "tib" => Pow10Pow2(0, 20),
                _ => return None,
            },
            Quantity::Power => match u.as_str() {
                "w" | "watt" | "watts" => Pow10(0),
                "kw" | "kwatt" | "kwatts" => Pow10(3),
                _ => return None,
            },
            Quantity::Duration => match u.as_str() {
                "ms" | "milli" | "millis" | "millisecond" | "milliseconds" => Pow10(0),
                "s" | "sec" | "secs" | "second" | "seconds" => Pow10(3),
                "min" | "mins" | "minute" | "minutes" => Times(60_000.0),
                "h" | "hr" | "hrs" | "hour" | "hours" => Times(3_600_000.0),
                "d" | "day" | "days" => Times(86_400_000.0),
                _ => return None,
            },
        };
        Some(f)
    }
}

/// Parses a string such as `"2.1 GHz"`, `"2.1GHz"` or `"2100"` into the quantity's result unit
/// (MHz, MiB, W or ms). The error says what was expected.
pub fn parse_str(text: &str, quantity: Quantity) -> Result<f64, String> {
    let s = text.trim();
    let (mantissa, exponent, rest) = split_number(s).ok_or_else(|| expected(text, quantity))?;
    let unit = rest.trim();
    let factor = if unit.is_empty() {
        Factor::Pow10(0)
    } else {
        quantity.factor(unit).ok_or_else(|| {
            format!(
                "unknown unit \"{unit}\" in \"{text}\" for {}; expected one of {} (a bare number is {})",
                quantity.name(),
                quantity.units(),
                quantity.default_unit()
            )
        })?
    };
    let decimal = |k: i32| -> Option<f64> {
        format!("{mantissa}e{}", exponent.checked_add(k)?)
            .parse::<f64>()
            .ok()
    };
    let value = match factor {
        Factor::Pow10(k) => decimal(k),
        Factor::Pow10Pow2(k, j) => decimal(k).map(|v| v * pow2(j)),
        Factor::Times(f) => decimal(0).map(|v| v * f),
    };
    match value {
        Some(v) if v.is_finite() => Ok(v),
        _ => Err(format!("\"{text}\" is not a finite number")),
    }
}

/// Parses a JSON value that is either a number (in the default unit) or a string with a unit.
pub fn parse_value(value: &Value, quantity: Quantity) -> Result<f64, String> {
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(v) if v.is_finite() => Ok(v),
            _ => Err(format!("{n} is not a finite number")),
        },
        Value::String(s) => parse_str(s, quantity),
        other => Err(format!(
            "expected {}: a number of {} or a string such as {}, found {}",
            quantity.name(),
            quantity.default_unit(),
            example(quantity),
            json_type(other)
        )),
    }
}

/// A duration in whole ms: a bare number must be whole, one with a unit is rounded to the
/// nearest ms (`"1.1 hours"` is 3 960 000 ms).
pub fn parse_duration_ms(value: &Value) -> Result<i64, String> {
    let ms = parse_value(value, Quantity::Duration)?;
    let bare = matches!(value, Value::Number(_))
        || matches!(value, Value::String(s) if split_number(s.trim()).is_some_and(|(_, _, r)| r.trim().is_empty()));
    if bare && ms.fract() != 0.0 {
        return Err(format!(
            "expected a whole number of milliseconds, found {ms}"
        ));
    }
    to_i64(ms.round()).ok_or_else(|| format!("{ms} ms is out of range"))
}

/// 2^j exactly (|j| < 1000), without relying on `powi`.
fn pow2(j: i32) -> f64 {
    f64::from_bits(((1023 + j) as u64) << 52)
}

/// An f64 that holds an integer, as an i64 (None when out of range or not whole).
pub(crate) fn to_i64(v: f64) -> Option<i64> {
    if v.fract() == 0.0 && (-9.223_372_036_854_775e18..9.223_372_036_854_775e18).contains(&v) {
        Some(v as i64)
    } else {
        None
    }
}

/// Splits `"-2.1e3 GHz"` into mantissa `"-2.1"`, exponent `3` and the rest `" GHz"`. None when
/// the text does not start with a number.
fn split_number(s: &str) -> Option<(&str, i32, &str)> {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let digits_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut n_digits = i - digits_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let f = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        n_digits += i - f;
    }
    if n_digits == 0 {
        return None;
    }
    let mantissa = &s[..i];
    let mut exponent = 0i32;
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let e_start = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > e_start {
            // An absurd exponent saturates; the value then is 0 or infinite and is refused.
            exponent = s[i + 1..j].parse::<i32>().unwrap_or(if b[i + 1] == b'-' {
                -99_999
            } else {
                99_999
            });
            i = j;
        }
    }
    Some((mantissa, exponent, &s[i..]))
}

fn example(quantity: Quantity) -> &'static str {
    match quantity {
        Quantity::Frequency => "\"2.1 GHz\"",
        Quantity::DataSize => "\"16 GiB\"",
        Quantity::Power => "\"350 Watts\"",
        Quantity::Duration => "\"10 minutes\"",
    }
}

fn expected(text: &str, quantity: Quantity) -> String {
    format!(
        "expected {}: a number of {} or a string such as {}, found \"{text}\"",
        quantity.name(),
        quantity.default_unit(),
        example(quantity)
    )
}

/// A short name of a JSON value's type, for messages.
pub(crate) fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn frequencies() {
        assert_eq!(parse_str("2.1 GHz", Quantity::Frequency), Ok(2100.0));
        assert_eq!(parse_str("2.1ghz", Quantity::Frequency), Ok(2100.0));
        assert_eq!(parse_str("2800 MHz", Quantity::Frequency), Ok(2800.0));
        assert_eq!(parse_str("2100000 kHz", Quantity::Frequency), Ok(2100.0));
        assert_eq!(parse_str("2.1e9 Hz", Quantity::Frequency), Ok(2100.0));
        assert_eq!(parse_value(&json!(2100), Quantity::Frequency), Ok(2100.0));
        assert_eq!(parse_str("2.3 GHz", Quantity::Frequency), Ok(2300.0));
    }

    #[test]
    fn data_sizes() {
        assert_eq!(parse_str("100000 MiB", Quantity::DataSize), Ok(100000.0));
        assert_eq!(parse_str("192 GiB", Quantity::DataSize), Ok(196608.0));
        assert_eq!(parse_str("1 TiB", Quantity::DataSize), Ok(1048576.0));
        assert_eq!(parse_str("2048 KiB", Quantity::DataSize), Ok(2.0));
        assert_eq!(parse_str("1048576 B", Quantity::DataSize), Ok(1.0));
        assert_eq!(parse_str("1 GB", Quantity::DataSize), Ok(1e9 / 1048576.0));
        assert_eq!(
            parse_str("1 kb", Quantity::DataSize),
            Ok(1000.0 / 1048576.0)
        );
        assert_eq!(
            parse_value(&json!(140457600000u64), Quantity::DataSize),
            Ok(140457600000.0)
        );
    }

    #[test]
    fn powers() {
        assert_eq!(parse_str("350 Watts", Quantity::Power), Ok(350.0));
        assert_eq!(parse_str("50 kWatts", Quantity::Power), Ok(50000.0));
        assert_eq!(parse_str("1.5 kW", Quantity::Power), Ok(1500.0));
        assert_eq!(parse_str("32 W", Quantity::Power), Ok(32.0));
        assert_eq!(parse_value(&json!(400.0), Quantity::Power), Ok(400.0));
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration_ms(&json!("10 minutes")), Ok(600_000));
        assert_eq!(parse_duration_ms(&json!("1 hours")), Ok(3_600_000));
        assert_eq!(parse_duration_ms(&json!("1.1 hours")), Ok(3_960_000));
        assert_eq!(parse_duration_ms(&json!("30 s")), Ok(30_000));
        assert_eq!(parse_duration_ms(&json!("0.1 s")), Ok(100));
        assert_eq!(parse_duration_ms(&json!(1500)), Ok(1500));
        assert_eq!(parse_duration_ms(&json!("1500")), Ok(1500));
        assert!(parse_duration_ms(&json!(1.5))
            .unwrap_err()
            .contains("whole"));
    }

    #[test]
    fn bad_values() {
        let e = parse_str("2.1 GHzz", Quantity::Frequency).unwrap_err();
        assert!(
            e.contains("unknown unit \"GHzz\"") && e.contains("GHz"),
            "{e}"
        );
        let e = parse_str("fast", Quantity::Frequency).unwrap_err();
        assert!(e.contains("expected a frequency"), "{e}");
        assert!(parse_str("1e999", Quantity::Power)
            .unwrap_err()
            .contains("finite"));
        assert!(parse_str("NaN", Quantity::Power).is_err());
        assert!(parse_str("inf W", Quantity::Power).is_err());
        assert!(parse_str("", Quantity::Power).is_err());
        let e = parse_value(&json!(true), Quantity::DataSize).unwrap_err();
        assert!(e.contains("found a boolean"), "{e}");
        assert!(parse_str("5 Mbit", Quantity::DataSize).is_err());
    }
}
