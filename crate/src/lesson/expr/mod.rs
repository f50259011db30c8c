//! The condition language of lesson files: small expressions over a run's figures, such as
//! `B.dynamicCarbonG < A.dynamicCarbonG` or
//! `100 * (A.dynamicEnergyJ - B.dynamicEnergyJ) / A.dynamicEnergyJ >= 4.5`.
//!
//! - numbers: `12`, `0.5`, `1e6` (finite);
//! - figures: `RUN.key`, RUN being a run's label (`A`, `B`) or its policy's name in the lesson,
//!   key a metric of the catalog ([`crate::sim::metric_catalog`], the window figures included);
//! - arithmetic `+ - * /` and a leading `-`; comparisons `< <= > >= == !=` (they do not chain);
//!   `and`, `or`, `not`; parentheses.
//!
//! Precedence, loosest first: `or`, `and`, `not`, comparisons, `+ -`, `* /`, unary `-`.
//! Arithmetic takes numbers and comparisons give true or false, which only `and`, `or` and
//! `not` take: a condition that mixes them is refused when it is read, at the offending part.
//! `==` is exact (figures are the simulator's doubles); a division by zero or a figure a run
//! does not have (carbon without a carbon trace) is an error of the evaluation, never a silent
//! NaN.
//!
//! Bounded: an expression is at most [`MAX_EXPRESSION_CHARS`] characters and nests parentheses,
//! `not` and `-` at most [`MAX_NESTING`] deep, so that reading and evaluating it takes little
//! work and stack whatever the text.

mod eval;
mod lexer;
mod parser;

pub use eval::{evaluate, Value};
pub use parser::{parse, BinOp, Expr, Kind};

/// Longest expression read, in characters.
pub const MAX_EXPRESSION_CHARS: usize = 1000;

/// Deepest nesting of parentheses, `not` and unary `-`.
pub const MAX_NESTING: usize = 32;

/// A byte range of the expression's text: `start..end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    /// The span from the start of `self` to the end of `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start,
            end: other.end,
        }
    }
}

/// A problem with an expression: what is wrong and where, as a byte range of its text.
#[derive(Debug, Clone, PartialEq)]
pub struct ExprError {
    pub message: String,
    pub span: Span,
}

impl ExprError {
    pub(crate) fn new(message: impl Into<String>, span: Span) -> Self {
        ExprError {
            message: message.into(),
            span,
        }
    }
}
