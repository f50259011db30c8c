//! The record of one Current decision (SPEC 11.12, C20): the candidates with their origin, the
//! type heads that failed, each weigher's arithmetic with W before and after, and every update of
//! maxIdx and maxW. Numbers that can be NaN or infinite are [`Num`]s, written as the strings
//! `"NaN"`, `"Infinity"` and `"-Infinity"` (JSON has no such numbers, and `null` would hide them).

use serde::{Serialize, Serializer};

/// An f64 that keeps NaN and the infinities visible in JSON.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(
    feature = "ts",
    ts(type = "number | \"NaN\" | \"Infinity\" | \"-Infinity\"")
)]
pub struct Num(pub f64);

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let x = self.0;
        if x.is_nan() {
            s.serialize_str("NaN")
        } else if x == f64::INFINITY {
            s.serialize_str("Infinity")
        } else if x == f64::NEG_INFINITY {
            s.serialize_str("-Infinity")
        } else {
            s.serialize_f64(x)
        }
    }
}

impl std::fmt::Display for Num {
    /// Short text: `NaN`, `4.9e-324` for Java's `Double.MIN_VALUE`, exponent notation for
    /// other tiny or huge magnitudes, plain digits otherwise.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = self.0;
        let a = x.abs();
        if x.is_nan() {
            write!(f, "NaN")
        } else if x == super::super::java::MIN_VALUE {
            write!(f, "4.9e-324")
        } else if x != 0.0 && x.is_finite() && !(1e-6..1e16).contains(&a) {
            write!(f, "{x:e}")
        } else {
            write!(f, "{x}")
        }
    }
}

/// Nums of a slice of f64.
pub fn nums(values: &[f64]) -> Vec<Num> {
    values.iter().map(|&v| Num(v)).collect()
}

/// A candidate of C6, in C's order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    pub host: String,
    /// `used`, or `empty, first of type T`.
    pub origin: String,
}

/// A type whose first empty host failed a filter, so that the type offered no candidate.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct FailedHead {
    #[serde(rename = "type")]
    #[cfg_attr(feature = "ts", ts(rename = "type"))]
    pub host_type: String,
    pub host: String,
    pub filter: &'static str,
    /// Why, in numbers (`needs 8 cores, 2 free`).
    pub reason: String,
}

/// One weigher's pass of C8 and C9 over the candidates.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct WeigherPass {
    pub weigher: &'static str,
    pub multiplier: f64,
    /// Raw weights, per candidate (C8).
    pub raw: Vec<Num>,
    pub lo: Num,
    pub hi: Num,
    pub range: Num,
    /// `m / range`; `null` when the range is 0 and the weigher is skipped.
    pub factor: Option<Num>,
    pub skipped: bool,
    /// W per candidate position, before and after this weigher.
    pub w_before: Vec<Num>,
    pub w_after: Vec<Num>,
}

/// An update of maxIdx and maxW (C9): position `index` had `w` > the previous maxW.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct MaxUpdate {
    /// The weigher (index in the policy) whose pass made the update.
    pub weigher: usize,
    pub index: usize,
    pub host: String,
    /// W at that position after the addition.
    pub w: Num,
    /// The new maxW: the candidate's raw weight.
    pub max_w: Num,
}

/// The record of one Current decision.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CurrentTrace {
    /// C, in order.
    pub candidates: Vec<Candidate>,
    /// Used hosts before this position of U were skipped by the lower bound on the first filter.
    pub lower_bound: usize,
    /// Used hosts at that point: |U|.
    pub used: usize,
    pub failed_heads: Vec<FailedHead>,
    pub weighers: Vec<WeigherPass>,
    pub max_updates: Vec<MaxUpdate>,
    /// The chosen position in C (`null` when C is empty).
    pub max_idx: Option<usize>,
    /// The final maxW (4.9e-324 when nothing beat it).
    pub max_w: Num,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NaN and the infinities are strings; other numbers stay numbers.
    #[test]
    fn non_finite_numbers_are_written_as_strings() {
        let text = serde_json::to_string(&nums(&[f64::NAN, f64::INFINITY, -f64::INFINITY, 1.5]));
        assert_eq!(
            text.ok().as_deref(),
            Some(r#"["NaN","Infinity","-Infinity",1.5]"#)
        );
        assert_eq!(Num(f64::NAN).to_string(), "NaN");
        assert_eq!(Num(f64::from_bits(1)).to_string(), "4.9e-324");
        assert_eq!(Num(64512.0).to_string(), "64512");
        assert_eq!(Num(1.0 / 3.0).to_string(), "0.3333333333333333");
    }
}
