//! Quantities in OpenDC3 (SDK) files: `"2.1 GHz"`, `"16 GiB"`, `"50 kWatts"`, `"10 minutes"`,
//! `"PT10M"` (SPEC 11.6).
//!
//! OpenDC3 reads these with its own serializers (`opendc-common/.../units/UnitSerializer.kt` and
//! one per quantity), whose rules differ from the legacy format's (SPEC 10, [`crate::input::units`]):
//! data sizes are case-sensitive and know bits (`2 Gb` is 2 gigabits), `m` alone is minutes,
//! `mHz` is MHz, `watt` is not a unit, and a time may be an ISO-8601 duration or instant. This
//! module follows those rules exactly, so that an SDK file means here what it means to OpenDC3;
//! legacy files keep SPEC 10's units.
//!
//! A quantity is a JSON number (in the base unit), or a JSON string that is a bare number or a
//! number with a unit, with optional blanks around each. The number is
//! `-?[0-9]+(\.[0-9]+)?([eE]-?[0-9]+)?`. Powers of ten are applied on the decimal text (`2.1 GHz`
//! is read as `2.1e3` MHz), so the result is the correctly rounded value of what was written and
//! `2.1 GHz` is exactly 2100 MHz.

use crate::input::time::parse_iso8601_ms;
use crate::input::units::json_type;
use serde_json::Value;

pub use crate::input::units::Quantity;

/// How a unit converts to its quantity's base unit (ms, MHz, MiB or W).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scale {
    /// Times 10^k (on the decimal text), then times 2^j (exact).
    Pow10Pow2(i32, i32),
    /// Times 10^k (on the decimal text), then times a factor (minutes, hours).
    Pow10Times(i32, f64),
}

/// The base unit itself.
const BASE: Scale = Scale::Pow10Pow2(0, 0);

/// Reads an SDK quantity into its base unit: ms for [`Quantity::Duration`] (OpenDC's
/// `TimeDelta`), MHz for a frequency, MiB for a data size, W for a power.
///
/// Why: every unit-typed field of an SDK topology, workload or experiment goes through here, so
/// that one set of rules (SPEC 11.6) decides what a value means. The error says what was found,
/// gives an example and lists the accepted units; the caller puts it at the field's path.
pub fn sdk_quantity(value: &Value, q: Quantity) -> Result<f64, String> {
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(v) if v.is_finite() => Ok(v),
            _ => Err(not_a(&n.to_string(), q, Some("the number is out of range"))),
        },
        Value::String(s) => parse_text(s, q),
        other => Err(not_a(
            &shown(other),
            q,
            Some(&format!("found {}", json_type(other))),
        )),
    }
}

/// Reads an SDK time (a `TimeDelta`: a duration, or an instant as epoch ms) into whole ms,
/// truncated toward 0 as OpenDC's `toMsLong` does: `1.5 ms` is 1, `1 ns` is 0.
///
/// Why: task submissions, durations, deadlines and fragment durations are integer ms in the
/// model; truncating as OpenDC does keeps their values identical to OpenDC3's. A value outside the
/// range of i64 is an error (OpenDC would silently saturate it).
pub fn sdk_time_ms(value: &Value) -> Result<i64, String> {
    let ms = sdk_quantity(value, Quantity::Duration)?;
    truncate(ms).ok_or_else(|| {
        not_a(
            &shown(value),
            Quantity::Duration,
            Some("it is out of the range of whole milliseconds"),
        )
    })
}

/// Reads an SDK data size into whole MiB, truncated toward 0 as OpenDC's
/// `memory.toMiB().toLong()` does (`1.9 MiB` is 1).
///
/// Why: task and host memory are integer MiB in the model; truncating as OpenDC does keeps them
/// identical to OpenDC3's. A value outside the range of i64 is an error.
pub fn sdk_memory_mib(value: &Value) -> Result<i64, String> {
    let mib = sdk_quantity(value, Quantity::DataSize)?;
    truncate(mib).ok_or_else(|| {
        not_a(
            &shown(value),
            Quantity::DataSize,
            Some("it is out of the range of whole MiB"),
        )
    })
}

/// The units a quantity accepts in SDK files, and what a bare number means, for messages.
///
/// Why: an error about a unit is only useful when it says what would have been accepted, and the
/// SDK's case rules (case-sensitive data sizes, minutes and hours) are easy to get wrong.
pub fn accepted_units(q: Quantity) -> &'static str {
    match q {
        Quantity::Duration => {
            "ns, micros, ms, s (also nano, milli, sec, second, optionally with a plural s; any case), \
             m, min, minute, minutes, Min, Minute (case-sensitive), \
             h, hour, hours, Hour (case-sensitive), \
             ISO-8601 durations such as PT10M or P1DT2H, \
             ISO-8601 instants such as 2022-01-01T00:00:00Z (epoch ms); a bare number is ms"
        }
        Quantity::Frequency => {
            "Hz, kHz, MHz, GHz, also hertz, kilohertz, megahertz, gigahertz \
             (any case, so mHz is MHz); a bare number is MHz"
        }
        Quantity::DataSize => {
            "B, KB, MB, GB, TB (powers of 1000), KiB, MiB, GiB, TiB (powers of 1024), \
             the same with b for bits (Kb, Mib, Gb, ...), also byte(s), bit(s), kilo, mega, giga, \
             tera, kibi, mebi, gibi, tebi (case-sensitive); a bare number is MiB"
        }
        Quantity::Power => {
            "W, watts, kW, kwatts, kilowatts (any case; not watt, not MW); a bare number is W"
        }
    }
}

/// Truncates toward 0 into an i64; None when not finite or out of range.
fn truncate(v: f64) -> Option<i64> {
    let t = v.trunc();
    // -2^63 is an i64; 2^63 is not.
    let two_63 = -(i64::MIN as f64);
    (-two_63..two_63).contains(&t).then_some(t as i64)
}

/// The blanks of Java's `\s`: space, tab, newline, vertical tab, form feed, carriage return.
fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r')
}

/// Reads the text of a JSON string as a quantity (SPEC 11.6.1-2).
fn parse_text(text: &str, q: Quantity) -> Result<f64, String> {
    let body = text.trim_matches(is_blank);
    if let Some((mantissa, exponent, rest)) = split_number(body) {
        let unit = rest.trim_start_matches(is_blank);
        if let Some(scale) = unit_scale(unit, q) {
            return apply(mantissa, exponent, scale)
                .ok_or_else(|| not_a(text, q, Some("the number is out of range")));
        }
    }
    if q == Quantity::Duration {
        // `java.time.Duration.parse` and `Instant.parse` take the text as it is, blanks included.
        if let Some(ms) = iso_duration_ms(text) {
            return Ok(ms);
        }
        if let Some(ms) = iso_instant_ms(text) {
            return Ok(ms as f64);
        }
    }
    Err(not_a(text, q, hint(body, q).as_deref()))
}

/// Splits the number `-?[0-9]+(\.[0-9]+)?([eE]-?[0-9]+)?` off the start of `s`: the mantissa's
/// text, the exponent (saturated to ±99 999 when absurd) and the rest. None when `s` does not
/// start with a number.
fn split_number(s: &str) -> Option<(&str, i64, &str)> {
    let b = s.as_bytes();
    let digits = |from: usize| from + b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let end = digits(i);
    if end == i {
        return None;
    }
    i = end;
    if b.get(i) == Some(&b'.') {
        let end = digits(i + 1);
        if end > i + 1 {
            i = end;
        }
    }
    let mantissa = &s[..i];
    let mut exponent = 0i64;
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let sign = i + 1 + usize::from(b.get(i + 1) == Some(&b'-'));
        let end = digits(sign);
        if end > sign {
            exponent =
                s[i + 1..end]
                    .parse::<i64>()
                    .unwrap_or(if sign > i + 1 { -99_999 } else { 99_999 });
            i = end;
        }
    }
    Some((mantissa, exponent.clamp(-99_999, 99_999), &s[i..]))
}

/// The value of `mantissa`e`exponent` in the unit's scale; None when not finite.
fn apply(mantissa: &str, exponent: i64, scale: Scale) -> Option<f64> {
    let decimal = |k: i32| -> Option<f64> {
        format!("{mantissa}e{}", exponent + i64::from(k))
            .parse::<f64>()
            .ok()
    };
    let v = match scale {
        Scale::Pow10Pow2(k, j) => decimal(k)? * pow2(j),
        Scale::Pow10Times(k, f) => decimal(k)? * f,
    };
    v.is_finite().then_some(v)
}

/// 2^j exactly, for |j| < 1000.
fn pow2(j: i32) -> f64 {
    f64::from_bits(((1023 + j) as u64) << 52)
}

/// The scale of `unit` for quantity `q` under the SDK's rules, first match first; the empty unit
/// is the base unit. None for a unit the quantity does not accept.
fn unit_scale(unit: &str, q: Quantity) -> Option<Scale> {
    if unit.is_empty() {
        return Some(BASE);
    }
    match q {
        Quantity::Duration => time_scale(unit),
        Quantity::Frequency => frequency_scale(unit),
        Quantity::DataSize => data_size_scale(unit),
        Quantity::Power => power_scale(unit),
    }
}

/// `TimeDelta`: (a) case-insensitive n/nano, micro, m/milli or no prefix, then s/sec/second and
/// an optional s; (b) case-sensitive minutes; (c) case-sensitive hours.
fn time_scale(unit: &str) -> Option<Scale> {
    let lower = unit.to_ascii_lowercase();
    let groups: [(&[&str], i32); 4] = [
        (&["n", "nano"], -6),
        (&["micro"], -3),
        (&["m", "milli"], 0),
        (&[""], 3),
    ];
    let prefixed = groups.iter().find(|(prefixes, _)| {
        prefixes
            .iter()
            .any(|p| lower.strip_prefix(p).is_some_and(seconds_unit))
    });
    if let Some(&(_, k)) = prefixed {
        return Some(Scale::Pow10Pow2(k, 0));
    }
    let minutes = [
        "m", "min", "mins", "Min", "Mins", "minute", "minutes", "Minute", "Minutes",
    ];
    if minutes.contains(&unit) {
        return Some(Scale::Pow10Times(3, 60.0));
    }
    let hours = ["h", "hs", "hour", "hours", "Hour", "Hours"];
    if hours.contains(&unit) {
        return Some(Scale::Pow10Times(3, 3600.0));
    }
    None
}

/// The second units of OpenDC's `SEC(?:|s)`, lower case: s, sec, second, each optionally with
/// one more `s`.
fn seconds_unit(r: &str) -> bool {
    matches!(r, "s" | "ss" | "sec" | "secs" | "second" | "seconds")
}

/// `Frequency`, case-insensitive: an optional k/kilo, m/mega or g/giga, then hz or hertz.
fn frequency_scale(unit: &str) -> Option<Scale> {
    let lower = unit.to_ascii_lowercase();
    let prefix = lower
        .strip_suffix("hertz")
        .or_else(|| lower.strip_suffix("hz"))?;
    let k = match prefix {
        "" => -6,
        "k" | "kilo" => -3,
        "m" | "mega" => 0,
        "g" | "giga" => 3,
        _ => return None,
    };
    Some(Scale::Pow10Pow2(k, 0))
}

/// `DataSize`, case-sensitive: an optional decimal or binary prefix, then bytes or bits. The
/// result is MiB: bytes / 2^20.
fn data_size_scale(unit: &str) -> Option<Scale> {
    // (prefix, power of ten, power of two)
    const PREFIXES: [(&str, i32, i32); 33] = [
        ("", 0, 0),
        ("K", 3, 0),
        ("k", 3, 0),
        ("Kilo", 3, 0),
        ("kilo", 3, 0),
        ("M", 6, 0),
        ("m", 6, 0),
        ("Mega", 6, 0),
        ("mega", 6, 0),
        ("G", 9, 0),
        ("g", 9, 0),
        ("Giga", 9, 0),
        ("giga", 9, 0),
        ("T", 12, 0),
        ("t", 12, 0),
        ("Tera", 12, 0),
        ("tera", 12, 0),
        ("Ki", 0, 10),
        ("ki", 0, 10),
        ("Kibi", 0, 10),
        ("kibi", 0, 10),
        ("Mi", 0, 20),
        ("mi", 0, 20),
        ("Mebi", 0, 20),
        ("mebi", 0, 20),
        ("Gi", 0, 30),
        ("gi", 0, 30),
        ("Gibi", 0, 30),
        ("gibi", 0, 30),
        ("Ti", 0, 40),
        ("ti", 0, 40),
        ("Tebi", 0, 40),
        ("tebi", 0, 40),
    ];
    const BYTES: [&str; 5] = ["B", "byte", "Byte", "bytes", "Bytes"];
    const BITS: [&str; 5] = ["b", "bit", "Bit", "bits", "Bits"];
    PREFIXES.iter().find_map(|&(p, k, j)| {
        let rest = unit.strip_prefix(p)?;
        if BYTES.contains(&rest) {
            Some(Scale::Pow10Pow2(k, j - 20))
        } else if BITS.contains(&rest) {
            Some(Scale::Pow10Pow2(k, j - 23))
        } else {
            None
        }
    })
}

/// `Power`, case-insensitive: w or watts, optionally after k or kilo.
fn power_scale(unit: &str) -> Option<Scale> {
    let lower = unit.to_ascii_lowercase();
    let (k, rest) = match lower
        .strip_prefix("kilo")
        .or_else(|| lower.strip_prefix('k'))
    {
        Some(rest) => (3, rest),
        None => (0, lower.as_str()),
    };
    matches!(rest, "w" | "watts").then_some(Scale::Pow10Pow2(k, 0))
}

/// `java.time.Duration.parse`: `[-+]P[nD][T[nH][nM][n[.f]S]]`, letters in any case, signs on
/// every number, at most 9 fraction digits on the seconds, at least one part, and a `T` only with
/// a time part. The result in ms is OpenDC's `toTimeDelta`: nanoseconds / 10^6 when they fit in a
/// long, else whole ms rounded down.
fn iso_duration_ms(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let mut i = 0;
    let negate = match b.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    if !matches!(b.get(i), Some(b'P' | b'p')) {
        return None;
    }
    i += 1;
    let mut seconds: i128 = 0;
    let mut nanos: i128 = 0;
    let mut parts = 0;
    // A signed integer at `at` followed by `letter` (either case): (value, next index).
    let part = |at: usize, letter: u8| -> Option<(i128, usize)> {
        let (value, end) = signed_int(b, at)?;
        b.get(end)
            .filter(|c| c.eq_ignore_ascii_case(&letter))
            .map(|_| (value, end + 1))
    };
    let times = |v: i128, m: i128| -> Option<i128> { fits_long(v.checked_mul(m)?) };
    if let Some((days, next)) = part(i, b'D') {
        seconds = times(days, 86_400)?;
        parts += 1;
        i = next;
    }
    if matches!(b.get(i), Some(b'T' | b't')) {
        i += 1;
        let mut time_parts = 0;
        if let Some((h, next)) = part(i, b'H') {
            seconds = fits_long(seconds + times(h, 3_600)?)?;
            time_parts += 1;
            i = next;
        }
        if let Some((m, next)) = part(i, b'M') {
            seconds = fits_long(seconds + times(m, 60)?)?;
            time_parts += 1;
            i = next;
        }
        if let Some((s, mut next)) = signed_int(b, i) {
            let mut fraction: i128 = 0;
            if matches!(b.get(next), Some(b'.' | b',')) {
                let start = next + 1;
                let end = start + b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
                if end - start > 9 {
                    return None;
                }
                let digits = &text[start..end];
                fraction = format!("{digits:0<9}").parse::<i128>().ok()?;
                next = end;
            }
            if matches!(b.get(next), Some(b'S' | b's')) {
                // The fraction takes the sign written on the seconds (`PT-0.5S` is -0.5 s).
                let sign = if b[i] == b'-' { -1 } else { 1 };
                seconds = fits_long(seconds + s)?;
                nanos = sign * fraction;
                time_parts += 1;
                i = next + 1;
            }
        }
        if time_parts == 0 {
            return None;
        }
        parts += time_parts;
    }
    if parts == 0 || i != b.len() {
        return None;
    }
    let mut total = seconds * 1_000_000_000 + nanos;
    if negate {
        total = -total;
    }
    Some(match i64::try_from(total) {
        Ok(n) => n as f64 / 1e6,
        Err(_) => total.div_euclid(1_000_000) as f64,
    })
}

/// `[-+]?[0-9]+` at `at` as Java's `Long.parseLong` reads it: (value, next index); None when there
/// are no digits or the value does not fit in a long.
fn signed_int(b: &[u8], at: usize) -> Option<(i128, usize)> {
    let start = at + usize::from(matches!(b.get(at), Some(b'-' | b'+')));
    let end = start
        + b.get(start..)?
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
    if end == start || end - start > 20 {
        return None;
    }
    let text = std::str::from_utf8(&b[at..end]).ok()?;
    let v = text.parse::<i128>().ok()?;
    Some((fits_long(v)?, end))
}

/// `v` when it fits in a Java long (Java's `multiplyExact` and `addExact` throw otherwise).
fn fits_long(v: i128) -> Option<i128> {
    i64::try_from(v).is_ok().then_some(v)
}

/// `java.time.Instant.parse` (ISO_INSTANT): `YYYY-MM-DDTHH:MM:SS[.f]` with 1 to 9 fraction
/// digits, then `Z` or an offset `±HH:MM`; letters in any case, no blanks. Epoch ms, rounded down
/// as `toEpochMilli` does.
fn iso_instant_ms(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let d = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let shape = b.len() >= 20
        && (0..4).all(d)
        && b[4] == b'-'
        && d(5)
        && d(6)
        && b[7] == b'-'
        && d(8)
        && d(9)
        && matches!(b[10], b'T' | b't')
        && d(11)
        && d(12)
        && b[13] == b':'
        && d(14)
        && d(15)
        && b[16] == b':'
        && d(17)
        && d(18);
    if !shape {
        return None;
    }
    let mut i = 19;
    if b[i] == b'.' {
        let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if !(1..=9).contains(&n) {
            return None;
        }
        i += 1 + n;
    }
    let zone = &b[i..];
    let zone_ok = matches!(zone, [b'Z' | b'z'])
        || (zone.len() == 6
            && matches!(zone[0], b'+' | b'-')
            && zone[1].is_ascii_digit()
            && zone[2].is_ascii_digit()
            && zone[3] == b':'
            && zone[4].is_ascii_digit()
            && zone[5].is_ascii_digit());
    if !zone_ok {
        return None;
    }
    parse_iso8601_ms(text).ok()
}

/// The name of a quantity in messages.
fn name(q: Quantity) -> &'static str {
    match q {
        Quantity::Duration => "a duration",
        Quantity::Frequency => "a frequency",
        Quantity::DataSize => "a data size",
        Quantity::Power => "a power",
    }
}

/// A value of the quantity, as the example of messages.
fn example(q: Quantity) -> &'static str {
    match q {
        Quantity::Duration => "10 minutes",
        Quantity::Frequency => "2.1 GHz",
        Quantity::DataSize => "16 GiB",
        Quantity::Power => "350 W",
    }
}

/// "`<value>` is not <a quantity>: write e.g. `<example>`; accepted units: ..." and, when there
/// is one, a remark on what is wrong.
fn not_a(value: &str, q: Quantity, remark: Option<&str>) -> String {
    let remark = remark.map_or(String::new(), |r| format!(". Here: {r}"));
    format!(
        "`{value}` is not {}: write e.g. `{}`; accepted units: {}{remark}",
        name(q),
        example(q),
        accepted_units(q)
    )
}

/// A remark for the mistakes the SDK's rules make easy: a unit in the wrong case, `us`, `hr`,
/// `watt`, `MW`, a leading `+` or `.`.
fn hint(body: &str, q: Quantity) -> Option<String> {
    if body.is_empty() {
        return Some("there is no number".into());
    }
    if body.starts_with('+') {
        return Some("a number may not start with `+`".into());
    }
    if body.starts_with('.') || body.starts_with("-.") {
        return Some("write a digit before the decimal point, e.g. `0.5`".into());
    }
    let Some((_, _, rest)) = split_number(body) else {
        return Some("there is no number before the unit".into());
    };
    let unit = rest.trim_start_matches(is_blank);
    let lower = unit.to_ascii_lowercase();
    match q {
        Quantity::Duration => match lower.as_str() {
            "us" | "µs" => Some("write `micros` for microseconds; `us` is not accepted".into()),
            "hr" | "hrs" => Some("write `h` or `hours`; `hr` is not accepted".into()),
            "d" | "day" | "days" => Some("days are not a unit: write e.g. `24 h` or `P1D`".into()),
            _ if unit == "M" => {
                Some("`M` is not a unit: write `m` for minutes or `ms` for milliseconds".into())
            }
            _ if time_scale(&lower).is_some() => {
                Some(format!(
                    "`{unit}`: minutes and hours are case-sensitive, write `min`, `minutes`, `h` or `hours`"
                ))
            }
            _ => None,
        },
        Quantity::DataSize => {
            let wrong_case = ["B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB", "bytes"]
                .iter()
                .any(|u| u.eq_ignore_ascii_case(unit));
            wrong_case.then(|| {
                format!("`{unit}`: data-size units are case-sensitive, e.g. `GiB`, `GB`, or `Gb` for gigabits")
            })
        }
        Quantity::Power => match lower.as_str() {
            "watt" | "kwatt" | "kilowatt" => {
                Some("the singular `watt` is not accepted: write `W` or `watts`".into())
            }
            "mw" | "mwatts" | "megawatts" => {
                Some("megawatts are not accepted: write e.g. `1000 kW`".into())
            }
            _ => None,
        },
        Quantity::Frequency => None,
    }
}

/// A value as shown in a message: a string's text, or the JSON of anything else, cut to 60
/// characters.
fn shown(v: &Value) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if s.chars().count() > 60 {
        format!("{}...", s.chars().take(57).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_split_as_the_spec_pattern_says() {
        assert_eq!(split_number("2.1 GHz"), Some(("2.1", 0, " GHz")));
        assert_eq!(split_number("-2.1e-3s"), Some(("-2.1", -3, "s")));
        assert_eq!(split_number("5E2"), Some(("5", 2, "")));
        // A dot or an `e` without digits after it is not part of the number.
        assert_eq!(split_number("1.e3"), Some(("1", 0, ".e3")));
        assert_eq!(split_number("2e s"), Some(("2", 0, "e s")));
        assert_eq!(split_number("1e+3"), Some(("1", 0, "e+3")));
        assert_eq!(split_number("+5"), None);
        assert_eq!(split_number(".5"), None);
        assert_eq!(split_number("-"), None);
        assert_eq!(split_number("GHz"), None);
        assert_eq!(split_number("1e99999999999"), Some(("1", 99_999, "")));
    }

    #[test]
    fn unit_tables() {
        use Scale::*;
        assert_eq!(time_scale("nanoseconds"), Some(Pow10Pow2(-6, 0)));
        assert_eq!(time_scale("NSS"), Some(Pow10Pow2(-6, 0)));
        assert_eq!(time_scale("Micros"), Some(Pow10Pow2(-3, 0)));
        assert_eq!(time_scale("MS"), Some(Pow10Pow2(0, 0)));
        assert_eq!(time_scale("ss"), Some(Pow10Pow2(3, 0)));
        assert_eq!(time_scale("m"), Some(Pow10Times(3, 60.0)));
        assert_eq!(time_scale("Hours"), Some(Pow10Times(3, 3600.0)));
        assert_eq!(time_scale("M"), None);
        assert_eq!(time_scale("nano"), None);
        assert_eq!(time_scale("sss"), None);
        assert_eq!(frequency_scale("MEGAHERTZ"), Some(Pow10Pow2(0, 0)));
        assert_eq!(frequency_scale("hz"), Some(Pow10Pow2(-6, 0)));
        assert_eq!(frequency_scale("thz"), None);
        assert_eq!(data_size_scale("kibibits"), Some(Pow10Pow2(0, -13)));
        assert_eq!(data_size_scale("Kilobytes"), Some(Pow10Pow2(3, -20)));
        assert_eq!(data_size_scale("KIB"), None);
        assert_eq!(power_scale("KILOWATTS"), Some(Pow10Pow2(3, 0)));
        assert_eq!(power_scale("kilow"), Some(Pow10Pow2(3, 0)));
        assert_eq!(power_scale("watt"), None);
    }

    #[test]
    fn iso_durations_follow_java() {
        assert_eq!(iso_duration_ms("PT10M"), Some(600_000.0));
        assert_eq!(iso_duration_ms("pt10m"), Some(600_000.0));
        assert_eq!(iso_duration_ms("P1DT2H"), Some(93_600_000.0));
        assert_eq!(iso_duration_ms("P2D"), Some(172_800_000.0));
        assert_eq!(iso_duration_ms("PT1.5S"), Some(1500.0));
        assert_eq!(iso_duration_ms("PT0,0015S"), Some(1.5));
        assert_eq!(iso_duration_ms("PT-0.5S"), Some(-500.0));
        assert_eq!(iso_duration_ms("-PT1H-30M"), Some(-1_800_000.0));
        assert_eq!(iso_duration_ms("+PT+1S"), Some(1000.0));
        assert_eq!(iso_duration_ms("PT1.S"), Some(1000.0));
        for bad in [
            "P",
            "PT",
            "P1DT",
            "PT1.5H",
            "PT1.1234567891S",
            " PT1S",
            "PT1S ",
            "P1H",
            "T1H",
            "PT1M1H",
            "P9223372036854775807D",
        ] {
            assert_eq!(iso_duration_ms(bad), None, "{bad}");
        }
        // More than 292 years do not fit in nanoseconds: whole ms, rounded down.
        assert_eq!(iso_duration_ms("P200000D"), Some(17_280_000_000_000.0));
    }

    #[test]
    fn iso_instants_follow_java() {
        assert_eq!(
            iso_instant_ms("2022-01-01T00:00:00Z"),
            Some(1_640_995_200_000)
        );
        assert_eq!(
            iso_instant_ms("2022-01-01t00:00:00.5z"),
            Some(1_640_995_200_500)
        );
        assert_eq!(
            iso_instant_ms("2022-01-01T01:00:00+01:00"),
            Some(1_640_995_200_000)
        );
        for bad in [
            "2022-01-01",
            "2022-01-01T00:00Z",
            "2022-01-01T00:00:00",
            "2022-01-01 00:00:00Z",
            " 2022-01-01T00:00:00Z",
            "2022-01-01T00:00:00+0100",
            "2022-01-01T00:00:00.Z",
            "2022-13-01T00:00:00Z",
        ] {
            assert_eq!(iso_instant_ms(bad), None, "{bad}");
        }
    }

    #[test]
    fn truncation_bounds() {
        assert_eq!(truncate(-1.9), Some(-1));
        assert_eq!(truncate(i64::MIN as f64), Some(i64::MIN));
        assert_eq!(truncate(-(i64::MIN as f64)), None);
        assert_eq!(truncate(f64::INFINITY), None);
        assert_eq!(truncate(f64::NAN), None);
    }
}
