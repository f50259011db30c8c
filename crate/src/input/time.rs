//! Absolute times: ms since the Unix epoch, written as numbers or as ISO-8601 text (SPEC 10).
//!
//! Hand-parsed rather than pulling in a date-time crate: the inputs need only the calendar date,
//! an optional time of day with optional fraction, and an optional zone (`Z`, `+hh:mm`, `+hhmm`,
//! `+hh`). A time without a zone is UTC, as OpenDC reads timestamps. The proleptic Gregorian
//! calendar is used for every year.

use serde_json::Value;

use super::units;

/// The forms accepted, for messages.
pub const FORMS: &str = "ms since the epoch or ISO-8601 such as \"2022-10-06T22:00:00Z\"";

/// Parses an ISO-8601 date or date-time into ms since the epoch, UTC.
///
/// Accepted: `YYYY-MM-DD`, then optionally `T` (or `t` or a space) with `hh:mm`, `hh:mm:ss` or
/// `hh:mm:ss.fff...` (digits past the ms are truncated), then optionally `Z`, `±hh:mm`, `±hhmm`
/// or `±hh`.
pub fn parse_iso8601_ms(text: &str) -> Result<i64, String> {
    let bad = |why: &str| format!("\"{text}\" is not an ISO-8601 time ({why}); expected {FORMS}");
    let s = text.trim().as_bytes();
    let mut p = Cursor { s, i: 0 };
    let year = p.digits(4).ok_or_else(|| bad("expected a 4-digit year"))?;
    p.expect(b'-')
        .ok_or_else(|| bad("expected '-' after the year"))?;
    let month = p.digits(2).ok_or_else(|| bad("expected a 2-digit month"))?;
    p.expect(b'-')
        .ok_or_else(|| bad("expected '-' after the month"))?;
    let day = p.digits(2).ok_or_else(|| bad("expected a 2-digit day"))?;
    if !(1..=12).contains(&month) {
        return Err(bad("month out of range"));
    }
    if day < 1 || day > days_in_month(year, month) {
        return Err(bad("day out of range"));
    }
    let mut ms_of_day = 0i64;
    let mut offset_min = 0i64;
    if p.i < s.len() && matches!(s[p.i], b'T' | b't' | b' ') {
        p.i += 1;
        let h = p.digits(2).ok_or_else(|| bad("expected a 2-digit hour"))?;
        p.expect(b':')
            .ok_or_else(|| bad("expected ':' after the hour"))?;
        let m = p.digits(2).ok_or_else(|| bad("expected 2-digit minutes"))?;
        let mut sec = 0;
        let mut ms = 0;
        if p.peek() == Some(b':') {
            p.i += 1;
            sec = p.digits(2).ok_or_else(|| bad("expected 2-digit seconds"))?;
            if matches!(p.peek(), Some(b'.') | Some(b',')) {
                p.i += 1;
                let start = p.i;
                while p.peek().is_some_and(|c| c.is_ascii_digit()) {
                    p.i += 1;
                }
                if p.i == start {
                    return Err(bad("expected digits after the decimal point"));
                }
                let frac = &s[start..p.i.min(start + 3)];
                ms = frac.iter().fold(0i64, |a, d| a * 10 + (d - b'0') as i64)
                    * 10i64.pow(3 - frac.len() as u32);
            }
        }
        if h > 23 || m > 59 || sec > 59 {
            return Err(bad("time of day out of range"));
        }
        ms_of_day = ((h * 60 + m) * 60 + sec) * 1000 + ms;
        match p.peek() {
            Some(b'Z') | Some(b'z') => p.i += 1,
            Some(sign @ (b'+' | b'-')) => {
                p.i += 1;
                let oh = p
                    .digits(2)
                    .ok_or_else(|| bad("expected a 2-digit zone hour"))?;
                let mut om = 0;
                if p.peek() == Some(b':') {
                    p.i += 1;
                    om = p
                        .digits(2)
                        .ok_or_else(|| bad("expected 2-digit zone minutes"))?;
                } else if p.peek().is_some_and(|c| c.is_ascii_digit()) {
                    om = p
                        .digits(2)
                        .ok_or_else(|| bad("expected 2-digit zone minutes"))?;
                }
                if oh > 23 || om > 59 {
                    return Err(bad("zone offset out of range"));
                }
                offset_min = (oh * 60 + om) * if sign == b'-' { -1 } else { 1 };
            }
            _ => {}
        }
    }
    if p.i != s.len() {
        return Err(bad("unexpected text at the end"));
    }
    let days = days_from_civil(year, month, day);
    Ok(days * 86_400_000 + ms_of_day - offset_min * 60_000)
}

/// Parses a time given as text: an integer (ms), ISO-8601, or a duration with a unit counted
/// from the epoch (`"1 minutes"`, as OpenDC SDK inline workloads write submission offsets).
pub fn parse_time_str(text: &str) -> Result<i64, String> {
    let t = text.trim();
    let b = t.as_bytes();
    if b.len() >= 5 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' {
        return parse_iso8601_ms(t);
    }
    match units::parse_duration_ms(&Value::String(t.to_string())) {
        Ok(ms) => Ok(ms),
        Err(_) => Err(format!("expected a time, {FORMS}, found \"{text}\"")),
    }
}

/// Parses a JSON time: a whole number of ms, or a string as [`parse_time_str`] reads it.
pub fn parse_time_value(value: &Value) -> Result<i64, String> {
    match value {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                return Ok(i);
            }
            match n.as_f64().and_then(units::to_i64) {
                Some(i) => Ok(i),
                None => Err(format!(
                    "expected a time in whole ms since the epoch, found {n}"
                )),
            }
        }
        Value::String(s) => parse_time_str(s),
        other => Err(format!(
            "expected a time, {FORMS}, found {}",
            units::json_type(other)
        )),
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        _ => 28,
    }
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn expect(&mut self, c: u8) -> Option<()> {
        (self.peek() == Some(c)).then(|| self.i += 1)
    }

    fn digits(&mut self, n: usize) -> Option<i64> {
        let d = self.s.get(self.i..self.i + n)?;
        if !d.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.i += n;
        Some(d.iter().fold(0i64, |a, c| a * 10 + (c - b'0') as i64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn iso_forms() {
        // 2022-10-06T22:00:00Z is surf_week's first submission, 1665093600000.
        assert_eq!(
            parse_iso8601_ms("2022-10-06T22:00:00Z"),
            Ok(1_665_093_600_000)
        );
        assert_eq!(
            parse_iso8601_ms("2022-10-06T22:00:00"),
            Ok(1_665_093_600_000)
        );
        assert_eq!(parse_iso8601_ms("2022-10-06 22:00"), Ok(1_665_093_600_000));
        assert_eq!(
            parse_iso8601_ms("2022-10-07T00:00:00+02:00"),
            Ok(1_665_093_600_000)
        );
        assert_eq!(
            parse_iso8601_ms("2022-10-06T20:00:00-0200"),
            Ok(1_665_093_600_000)
        );
        assert_eq!(
            parse_iso8601_ms("2022-10-06T23:00:00+01"),
            Ok(1_665_093_600_000)
        );
        assert_eq!(
            parse_iso8601_ms("2022-10-06T22:00:00.123456Z"),
            Ok(1_665_093_600_123)
        );
        assert_eq!(
            parse_iso8601_ms("2022-10-06T22:00:00.5Z"),
            Ok(1_665_093_600_500)
        );
        assert_eq!(parse_iso8601_ms("1970-01-01"), Ok(0));
        assert_eq!(parse_iso8601_ms("2024-01-01T00:00Z"), Ok(1_704_067_200_000));
        assert_eq!(parse_iso8601_ms("2024-02-29"), Ok(1_709_164_800_000));
        assert_eq!(parse_iso8601_ms("1969-12-31T23:59:59.999Z"), Ok(-1));
    }

    #[test]
    fn iso_errors() {
        for bad in [
            "2023-02-29",
            "2022-13-01",
            "2022-10-06T24:00",
            "2022-10-06T22:00:00Q",
            "2022-1-6",
            "22-10-06",
        ] {
            let e = parse_iso8601_ms(bad).unwrap_err();
            assert!(e.contains("ISO-8601"), "{bad}: {e}");
        }
    }

    #[test]
    fn values() {
        assert_eq!(
            parse_time_value(&json!(1665093600000i64)),
            Ok(1_665_093_600_000)
        );
        assert_eq!(
            parse_time_value(&json!(1.6650936e12)),
            Ok(1_665_093_600_000)
        );
        assert_eq!(
            parse_time_value(&json!("2024-03-01T00:00:00")),
            Ok(1_709_251_200_000)
        );
        assert_eq!(parse_time_value(&json!("1 minutes")), Ok(60_000));
        assert_eq!(parse_time_str(" 1665093600000 "), Ok(1_665_093_600_000));
        assert_eq!(parse_time_str("-1"), Ok(-1));
        assert!(parse_time_value(&json!(1.5)).is_err());
        assert!(parse_time_value(&json!(true)).is_err());
        assert!(parse_time_str("yesterday")
            .unwrap_err()
            .contains("expected a time"));
    }
}
