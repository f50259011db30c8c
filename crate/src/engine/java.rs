//! Java's floating-point rules, as OpenDC 3's scheduler (Kotlin on the JVM) applies them
//! (SPEC 11.12, C3 and C8): `Math.min`, `Math.max` and `Double.compare`. Rust's `f64::min` and
//! `f64::max` ignore a NaN operand and may treat -0.0 and 0.0 as equal, so they must not be
//! used where Current reproduces OpenDC's arithmetic.

use std::cmp::Ordering;

/// The smallest positive f64, 4.9e-324 (Java's `Double.MIN_VALUE`): where OpenDC starts its
/// maxima.
pub const MIN_VALUE: f64 = f64::from_bits(1);

/// Java's `Math.min`: NaN when either operand is NaN, and -0.0 below 0.0.
pub fn jmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return a;
    }
    if b.is_nan() {
        return b;
    }
    if a == 0.0 && b == 0.0 {
        // Equal zeros: -0.0 if either is negative.
        return if a.is_sign_negative() { a } else { b };
    }
    if a <= b {
        a
    } else {
        b
    }
}

/// Java's `Math.max`: NaN when either operand is NaN, and 0.0 above -0.0.
pub fn jmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return a;
    }
    if b.is_nan() {
        return b;
    }
    if a == 0.0 && b == 0.0 {
        // Equal zeros: 0.0 if either is positive.
        return if a.is_sign_positive() { a } else { b };
    }
    if a >= b {
        a
    } else {
        b
    }
}

/// Java's `Double.compare`: a total order where -0.0 < 0.0 and NaN is above everything (all
/// NaNs equal).
pub fn jcompare(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.total_cmp(&b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(x: f64) -> u64 {
        x.to_bits()
    }

    /// NaN propagates from either side, unlike `f64::min`, which returns the other operand.
    #[test]
    fn nan_propagates() {
        assert!(jmin(f64::NAN, 1.0).is_nan());
        assert!(jmin(1.0, f64::NAN).is_nan());
        assert!(jmax(f64::NAN, 1.0).is_nan());
        assert!(jmax(1.0, f64::NAN).is_nan());
        assert_eq!(f64::NAN.min(1.0), 1.0, "the Rust rule this module avoids");
    }

    /// -0.0 is below 0.0 in both argument orders.
    #[test]
    fn negative_zero_is_below_zero() {
        assert_eq!(bits(jmin(0.0, -0.0)), bits(-0.0));
        assert_eq!(bits(jmin(-0.0, 0.0)), bits(-0.0));
        assert_eq!(bits(jmax(0.0, -0.0)), bits(0.0));
        assert_eq!(bits(jmax(-0.0, 0.0)), bits(0.0));
    }

    /// Ordinary values, and OpenDC's starting points: `lo` from f64::MAX, `hi` from
    /// 4.9e-324, which a weight of 0 does not lower.
    #[test]
    fn ordinary_values_and_the_starting_points() {
        assert_eq!(jmin(3.0, -2.0), -2.0);
        assert_eq!(jmax(3.0, -2.0), 3.0);
        assert_eq!(jmin(f64::MAX, 5.0), 5.0);
        assert_eq!(jmax(MIN_VALUE, 0.0), MIN_VALUE);
        assert_eq!(MIN_VALUE, 4.9e-324);
        assert_eq!(jmax(f64::NEG_INFINITY, -1.0), -1.0);
    }

    /// `Double.compare`: -0.0 < 0.0, NaN greatest and equal to itself.
    #[test]
    fn compare_is_javas_total_order() {
        assert_eq!(jcompare(-0.0, 0.0), Ordering::Less);
        assert_eq!(jcompare(f64::NAN, f64::INFINITY), Ordering::Greater);
        assert_eq!(jcompare(f64::NAN, -f64::NAN), Ordering::Equal);
        assert_eq!(jcompare(1.0, 2.0), Ordering::Less);
        assert_eq!(jcompare(2.0, 2.0), Ordering::Equal);
    }
}
