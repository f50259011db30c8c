//! Evaluation of an expression over figures looked up by run and key.

use super::{BinOp, Expr, ExprError};

/// What an expression gives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Number(f64),
    Truth(bool),
}

/// Evaluates `expr`, reading each figure with `figure(run, key)` (an error message when the run
/// has no such figure). `and` and `or` stop at their left operand when it decides.
pub fn evaluate(
    expr: &Expr,
    figure: &dyn Fn(&str, &str) -> Result<f64, String>,
) -> Result<Value, ExprError> {
    Ok(match expr {
        Expr::Number { value, .. } => Value::Number(*value),
        Expr::Figure { run, key, span } => {
            Value::Number(figure(run, key).map_err(|m| ExprError::new(m, *span))?)
        }
        Expr::Neg { operand, .. } => Value::Number(-number(operand, figure)?),
        Expr::Not { operand, .. } => Value::Truth(!truth(operand, figure)?),
        Expr::Binary {
            op,
            left,
            right,
            span,
        } => match op {
            BinOp::And => Value::Truth(truth(left, figure)? && truth(right, figure)?),
            BinOp::Or => Value::Truth(truth(left, figure)? || truth(right, figure)?),
            _ => {
                let (a, b) = (number(left, figure)?, number(right, figure)?);
                match op {
                    BinOp::Add => finite(a + b, *span)?,
                    BinOp::Sub => finite(a - b, *span)?,
                    BinOp::Mul => finite(a * b, *span)?,
                    BinOp::Div if b == 0.0 => {
                        return Err(ExprError::new(
                            "division by zero: the divisor is 0 in this run",
                            right.span(),
                        ))
                    }
                    BinOp::Div => finite(a / b, *span)?,
                    BinOp::Lt => Value::Truth(a < b),
                    BinOp::Le => Value::Truth(a <= b),
                    BinOp::Gt => Value::Truth(a > b),
                    BinOp::Ge => Value::Truth(a >= b),
                    BinOp::Eq => Value::Truth(a == b),
                    BinOp::Ne => Value::Truth(a != b),
                    BinOp::And | BinOp::Or => unreachable!("handled above"),
                }
            }
        },
    })
}

fn number(e: &Expr, figure: &dyn Fn(&str, &str) -> Result<f64, String>) -> Result<f64, ExprError> {
    match evaluate(e, figure)? {
        Value::Number(x) => Ok(x),
        // The parser checks kinds; a tree built by hand may not.
        Value::Truth(_) => Err(ExprError::new("expected a number here", e.span())),
    }
}

fn truth(e: &Expr, figure: &dyn Fn(&str, &str) -> Result<f64, String>) -> Result<bool, ExprError> {
    match evaluate(e, figure)? {
        Value::Truth(t) => Ok(t),
        Value::Number(_) => Err(ExprError::new("expected a condition here", e.span())),
    }
}

fn finite(x: f64, span: super::Span) -> Result<Value, ExprError> {
    if x.is_finite() {
        Ok(Value::Number(x))
    } else {
        Err(ExprError::new("the result is too large for a number", span))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Kind};
    use super::*;

    fn run(text: &str) -> Result<Value, ExprError> {
        let figures = |run: &str, key: &str| match (run, key) {
            ("A", "x") => Ok(6.0),
            ("B", "x") => Ok(4.0),
            ("B", "zero") => Ok(0.0),
            _ => Err(format!("no {run}.{key}")),
        };
        let kind = if text.contains(['<', '>', '=']) || text.contains("not") {
            Kind::Truth
        } else {
            Kind::Number
        };
        evaluate(&parse(text, kind)?, &figures)
    }

    #[test]
    fn precedence_and_associativity() {
        // * before +, left to right: 2 + 3 * 4 = 14, 10 - 4 - 3 = 3, 24 / 4 / 2 = 3.
        assert_eq!(run("2 + 3 * 4"), Ok(Value::Number(14.0)));
        assert_eq!(run("10 - 4 - 3"), Ok(Value::Number(3.0)));
        assert_eq!(run("24 / 4 / 2"), Ok(Value::Number(3.0)));
        assert_eq!(run("-A.x * 2"), Ok(Value::Number(-12.0)));
        // `and` binds tighter than `or`: true or (false and false) is true.
        assert_eq!(run("1 < 2 or 2 < 1 and 2 < 1"), Ok(Value::Truth(true)));
    }

    #[test]
    fn division_by_zero_and_missing_figures_are_errors_at_their_part() {
        let e = run("A.x / B.zero").unwrap_err();
        assert_eq!((e.span.start, e.span.end), (6, 12));
        assert!(e.message.starts_with("division by zero"), "{}", e.message);
        let e = run("A.x + B.y").unwrap_err();
        assert_eq!(
            (e.span.start, e.span.end, e.message.as_str()),
            (6, 9, "no B.y")
        );
    }
}
