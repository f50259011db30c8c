//! Numbers as a person reads them: durations in adaptive units (`350 ms`, `41 s`, `12 min 5 s`,
//! `2 h 14 min`, `3 d 18 h`, `11.7 d`, `1.4 y`), figures with thousands separators, signed differences and
//! relative changes. Every text the engine writes for people (comparison tables, explanations,
//! notes) goes through here, so that one rule decides how a figure looks everywhere.
//!
//! A negative figure starts with the minus sign U+2212 (`−`), a difference with `+` or `−`.

const SECOND: f64 = 1000.0;
const MINUTE: f64 = 60.0 * SECOND;
const HOUR: f64 = 60.0 * MINUTE;
const DAY: f64 = 24.0 * HOUR;
/// A Julian year, 365.25 days.
const YEAR: f64 = 365.25 * DAY;
const MINUS: char = '\u{2212}';

/// A duration of `ms` milliseconds in the largest units that keep it exact enough to compare:
/// under 10 ms to 0.1 ms, under 1 s in ms, under 1 min to 0.1 s, under 1 h in min and s, under
/// 1 d in h and min, under a year in days to 0.1, then in years to 0.1. A value that rounds up
/// to the next unit is written in it (59.96 s is `1 min`).
pub fn duration(ms: f64) -> String {
    if ms.is_nan() {
        return "—".into();
    }
    if ms < 0.0 {
        return format!("{MINUS}{}", duration(-ms));
    }
    if ms.is_infinite() {
        return "∞".into();
    }
    if ms == 0.0 {
        return "0 s".into();
    }
    if ms < 10.0 && round_to(ms, 0.1) < 10.0 {
        return format!("{} ms", trimmed(ms, 1));
    }
    if ms.round() < SECOND {
        return format!("{} ms", ms.round());
    }
    let tenths = (ms / 100.0).round();
    if tenths < 600.0 {
        return format!("{} s", trimmed(tenths / 10.0, 1));
    }
    let seconds = (ms / SECOND).round();
    if seconds < 3600.0 {
        return pair(seconds / 60.0, "min", seconds % 60.0, "s");
    }
    let minutes = (ms / MINUTE).round();
    if minutes < 1440.0 {
        return pair(minutes / 60.0, "h", minutes % 60.0, "min");
    }
    let hours = (ms / HOUR).round();
    if hours < 240.0 {
        return pair(hours / 24.0, "d", hours % 24.0, "h");
    }
    let days = round_to(ms / DAY, 0.1);
    if days < 365.0 {
        return format!("{} d", trimmed(days, 1));
    }
    format!("{} y", grouped(round_to(ms / YEAR, 0.1), 1, true))
}

/// A signed difference of two durations: `+2 h 14 min`, `−41 s`, `0 s` for none.
pub fn duration_difference(ms: f64) -> String {
    if ms > 0.0 {
        format!("+{}", duration(ms))
    } else {
        duration(ms)
    }
}

/// `x` with thousands separators and exactly `decimals` decimals: `1,234.50`, `−3`.
pub fn number(x: f64, decimals: u8) -> String {
    grouped(x, decimals, false)
}

/// A signed difference with `decimals` decimals: `+1,234.5`, `−0.25`, `0` for none.
pub fn number_difference(x: f64, decimals: u8) -> String {
    let text = number(x, decimals);
    if x > 0.0 && !is_zero_text(&text) {
        format!("+{text}")
    } else if is_zero_text(&text) {
        text.trim_start_matches(MINUS).to_string()
    } else {
        text
    }
}

/// A relative change `to / from - 1` as a percentage with two significant digits at least
/// (`+7.7 %`, `−0.42 %`, `+12 %`, `+130 %`), and as a factor past +1,000 % (`×12`), which reads better
/// than `+1,100 %`. `None` when `from` is zero (no relative change).
pub fn relative_change(from: f64, to: f64) -> Option<String> {
    if from == 0.0 || !from.is_finite() || !to.is_finite() {
        return None;
    }
    let ratio = (to - from) / from.abs();
    if ratio > 10.0 {
        let factor = to / from;
        return Some(format!(
            "×{}",
            grouped(factor, if factor < 100.0 { 1 } else { 0 }, true)
        ));
    }
    let pct = ratio * 100.0;
    let magnitude = pct.abs();
    let decimals = if magnitude >= 10.0 {
        0
    } else if magnitude >= 1.0 {
        1
    } else {
        2
    };
    let text = grouped(pct, decimals, false);
    Some(if pct > 0.0 && !is_zero_text(&text) {
        format!("+{text} %")
    } else {
        let text = if is_zero_text(&text) {
            text.trim_start_matches(MINUS)
        } else {
            &text
        };
        format!("{text} %")
    })
}

/// A fraction (0.4527) as a percentage with `decimals` decimals: `45.27 %`.
pub fn percent(fraction: f64, decimals: u8) -> String {
    format!("{} %", number(fraction * 100.0, decimals))
}

/// Axis ticks for the range `[lo, hi]`: about `target` steps of 1, 2 or 5 times a power of
/// ten, from a multiple of the step at or below `lo` to one at or above `hi` (`0, 500, ...,
/// 2500` for `0..2093`). An empty range gets a step around its value; a range that is not
/// finite, or a target of 0, gets no ticks. At most 1,000 ticks.
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !lo.is_finite() || !hi.is_finite() || target == 0 {
        return Vec::new();
    }
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    let span = if hi > lo { hi - lo } else { lo.abs().max(1.0) };
    let raw = span / target as f64;
    let exponent = raw.log10().floor() as i32;
    let magnitude = 10f64.powi(exponent);
    let mantissa = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .find(|m| m * magnitude >= raw)
        .unwrap_or(10.0);
    let step = mantissa * magnitude;
    let first = (lo / step).floor() as i64;
    let last = ((hi / step).ceil() as i64).max(first + 1);
    // A multiple of the step as an integer count of its mantissa over a power of ten, so that
    // 3 x 0.1 is 0.3, not 0.30000000000000004.
    let at = |k: i64| {
        let units = k as f64 * mantissa;
        if exponent >= 0 {
            units * 10f64.powi(exponent)
        } else {
            units / 10f64.powi(-exponent)
        }
    };
    (first..=last.min(first + 1000)).map(at).collect()
}

/// `x` rounded to a multiple of `step`.
fn round_to(x: f64, step: f64) -> f64 {
    (x / step).round() * step
}

/// `x` to `decimals` decimals with the trailing zeros (and a bare point) dropped: `41`, `4.5`.
fn trimmed(x: f64, decimals: u8) -> String {
    grouped(x, decimals, true)
}

/// `whole unit rest unit2`, the rest left out when it is zero: `12 min 5 s`, `2 h`.
fn pair(whole: f64, unit: &str, rest: f64, unit2: &str) -> String {
    let whole = whole.floor();
    if rest == 0.0 {
        format!("{whole} {unit}")
    } else {
        format!("{whole} {unit} {rest} {unit2}")
    }
}

/// True for a text that shows zero (`0`, `0.00`, `−0.0`).
fn is_zero_text(text: &str) -> bool {
    text.chars().all(|c| matches!(c, '0' | '.' | ',' | MINUS))
}

/// `x` with `decimals` decimals and a comma every three digits; `trim` drops trailing zeros.
fn grouped(x: f64, decimals: u8, trim: bool) -> String {
    let text = format!("{:.*}", usize::from(decimals), x.abs());
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i, f),
        None => (text.as_str(), ""),
    };
    let mut out = String::with_capacity(text.len() + text.len() / 3 + 1);
    if x < 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0') {
        out.push(MINUS);
    }
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    let frac = if trim {
        frac.trim_end_matches('0')
    } else {
        frac
    };
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: f64 = 1000.0;
    const MIN: f64 = 60.0 * S;
    const H: f64 = 60.0 * MIN;
    const D: f64 = 24.0 * H;

    #[test]
    fn durations_from_a_millisecond_to_years() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0 s"),
            (0.26, "0.3 ms"),
            (1.0, "1 ms"),
            (9.94, "9.9 ms"),
            (9.96, "10 ms"),
            (350.0, "350 ms"),
            (999.4, "999 ms"),
            (999.6, "1 s"),
            (1_000.0, "1 s"),
            (4_500.0, "4.5 s"),
            (41_000.0, "41 s"),
            (59_940.0, "59.9 s"),
            (59_960.0, "1 min"),
            (60_000.0, "1 min"),
            (12.0 * MIN + 5.0 * S, "12 min 5 s"),
            (3_412.4 * S, "56 min 52 s"),
            (H, "1 h"),
            (2.0 * H + 14.0 * MIN, "2 h 14 min"),
            (76_506.0 * S, "21 h 15 min"),
            (D - 20.0 * S, "1 d"),
            (D, "1 d"),
            (1.5 * D, "1 d 12 h"),
            (89.5 * H, "3 d 18 h"),
            (D + 20.0 * MIN, "1 d"),
            (10.0 * D - 20.0 * MIN, "10 d"),
            (11.7 * D, "11.7 d"),
            (364.0 * D, "364 d"),
            (365.25 * D, "1 y"),
            (1.4 * 365.25 * D, "1.4 y"),
            (2_000.0 * 365.25 * D, "2,000 y"),
        ];
        for &(ms, want) in cases {
            assert_eq!(duration(ms), want, "{ms} ms");
        }
    }

    #[test]
    fn a_rounded_up_duration_moves_to_the_next_unit() {
        // 3599.6 s rounds to 3600 s: one hour, not "59 min 60 s".
        assert_eq!(duration(3_599_600.0), "1 h");
        // 23 h 59.6 min rounds to 24 h: a day.
        assert_eq!(duration(D - 24.0 * S), "1 d");
    }

    #[test]
    fn negative_and_signed_durations() {
        assert_eq!(duration(-41_000.0), "−41 s");
        assert_eq!(duration_difference(2.0 * H + 14.0 * MIN), "+2 h 14 min");
        assert_eq!(duration_difference(-41_000.0), "−41 s");
        assert_eq!(duration_difference(0.0), "0 s");
        assert_eq!(duration(f64::NAN), "—");
    }

    #[test]
    fn numbers_are_grouped_with_their_decimals() {
        assert_eq!(number(1234.5, 2), "1,234.50");
        assert_eq!(number(1_234_567.0, 0), "1,234,567");
        assert_eq!(number(-0.25, 3), "−0.250");
        assert_eq!(number(-0.0001, 2), "0.00");
        assert_eq!(number(999.999, 2), "1,000.00");
        assert_eq!(number_difference(12.5, 1), "+12.5");
        assert_eq!(number_difference(-3.0, 0), "−3");
        assert_eq!(number_difference(0.0004, 3), "0.000");
        assert_eq!(number_difference(-0.0004, 3), "0.000");
        assert_eq!(percent(0.4527, 2), "45.27 %");
    }

    #[test]
    fn ticks_are_round_steps_covering_the_range() {
        assert_eq!(
            nice_ticks(0.0, 2093.4, 5),
            vec![0.0, 500.0, 1000.0, 1500.0, 2000.0, 2500.0]
        );
        assert_eq!(
            nice_ticks(2080.0, 2093.0, 5),
            vec![2080.0, 2085.0, 2090.0, 2095.0]
        );
        assert_eq!(nice_ticks(0.1, 0.7, 3), vec![0.0, 0.2, 0.4, 0.6, 0.8]);
        assert_eq!(nice_ticks(0.0, 0.3, 3), vec![0.0, 0.1, 0.2, 0.3]);
        assert_eq!(
            nice_ticks(7.0, -3.0, 5),
            vec![-4.0, -2.0, 0.0, 2.0, 4.0, 6.0, 8.0]
        );
        // An empty range still gets a step: 5 alone is 4..6 in steps of 1.
        assert_eq!(nice_ticks(5.0, 5.0, 5), vec![5.0, 6.0]);
        assert_eq!(nice_ticks(0.0, 0.0, 4), vec![0.0, 0.5]);
        assert!(nice_ticks(f64::NAN, 1.0, 5).is_empty());
        assert!(nice_ticks(0.0, 1.0, 0).is_empty());
        assert!(nice_ticks(0.0, 1e300, 5).len() <= 1001);
    }

    #[test]
    fn relative_changes_keep_two_significant_digits() {
        let change = |from, to| relative_change(from, to).unwrap_or_default();
        assert_eq!(change(100.0, 107.7), "+7.7 %");
        assert_eq!(change(100.0, 99.58), "−0.42 %");
        assert_eq!(change(100.0, 100.004), "0.00 %");
        assert_eq!(change(100.0, 112.34), "+12 %");
        assert_eq!(change(100.0, 230.0), "+130 %");
        assert_eq!(change(100.0, 1_100.0), "+1,000 %");
        // Past +1,000 %, a factor: 0.5 s to 57 min is ×6,840.
        assert_eq!(change(500.0, 57.0 * MIN), "×6,840");
        assert_eq!(change(2.0, 25.0), "×12.5");
        // From a negative figure, the change is relative to its size.
        assert_eq!(change(-200.0, -100.0), "+50 %");
        assert_eq!(relative_change(0.0, 5.0), None);
    }
}
