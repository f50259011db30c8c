//! The parser: tokens to a tree, with each node's kind (number or truth value) checked as it is
//! built, so that `A.x + (B.y < 1)` is refused at `(B.y < 1)` rather than at evaluation.

use super::lexer::{tokens, Tok, Token};
use super::{ExprError, Span, MAX_EXPRESSION_CHARS, MAX_NESTING};

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "and",
            BinOp::Or => "or",
        }
    }

    /// The kind its operands must have.
    fn operands(self) -> Kind {
        match self {
            BinOp::And | BinOp::Or => Kind::Truth,
            _ => Kind::Number,
        }
    }

    /// The kind it gives.
    fn result(self) -> Kind {
        match self {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => Kind::Number,
            _ => Kind::Truth,
        }
    }

    fn comparison(tok: &Tok) -> Option<BinOp> {
        Some(match tok {
            Tok::Lt => BinOp::Lt,
            Tok::Le => BinOp::Le,
            Tok::Gt => BinOp::Gt,
            Tok::Ge => BinOp::Ge,
            Tok::EqEq => BinOp::Eq,
            Tok::Ne => BinOp::Ne,
            _ => return None,
        })
    }
}

/// What an expression gives: a number or a truth value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Number,
    Truth,
}

/// An expression's tree; every node keeps the byte range of its text.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Number {
        value: f64,
        span: Span,
    },
    /// A run's figure: `run.key`.
    Figure {
        run: String,
        key: String,
        span: Span,
    },
    Neg {
        operand: Box<Expr>,
        span: Span,
    },
    Not {
        operand: Box<Expr>,
        span: Span,
    },
    Binary {
        op: BinOp,
        left: Box<Expr>,
        right: Box<Expr>,
        span: Span,
    },
}

impl Expr {
    /// Where the expression is in its text.
    pub fn span(&self) -> Span {
        match self {
            Expr::Number { span, .. }
            | Expr::Figure { span, .. }
            | Expr::Neg { span, .. }
            | Expr::Not { span, .. }
            | Expr::Binary { span, .. } => *span,
        }
    }

    /// Whether it gives a number or a truth value.
    pub fn kind(&self) -> Kind {
        match self {
            Expr::Number { .. } | Expr::Figure { .. } | Expr::Neg { .. } => Kind::Number,
            Expr::Not { .. } => Kind::Truth,
            Expr::Binary { op, .. } => op.result(),
        }
    }

    /// Every figure it reads, in the order written (repeats kept), with their ranges.
    pub fn figures(&self) -> Vec<(&str, &str, Span)> {
        let mut out = Vec::new();
        self.collect_figures(&mut out);
        out
    }

    fn collect_figures<'a>(&'a self, out: &mut Vec<(&'a str, &'a str, Span)>) {
        match self {
            Expr::Number { .. } => {}
            Expr::Figure { run, key, span } => out.push((run, key, *span)),
            Expr::Neg { operand, .. } | Expr::Not { operand, .. } => operand.collect_figures(out),
            Expr::Binary { left, right, .. } => {
                left.collect_figures(out);
                right.collect_figures(out);
            }
        }
    }
}

/// Parses `text` into an expression that gives `want`, or the first problem found.
pub fn parse(text: &str, want: Kind) -> Result<Expr, ExprError> {
    let chars = text.chars().count();
    if chars > MAX_EXPRESSION_CHARS {
        return Err(ExprError::new(
            format!("the expression is {chars} characters long; at most {MAX_EXPRESSION_CHARS} are read"),
            Span {
                start: 0,
                end: text.len(),
            },
        ));
    }
    let toks = tokens(text)?;
    if toks.len() == 1 {
        return Err(ExprError::new(
            "the expression is empty",
            Span { start: 0, end: 0 },
        ));
    }
    let mut p = Parser {
        toks,
        at: 0,
        depth: 0,
    };
    let expr = p.or()?;
    if p.peek() != &Tok::End {
        let t = p.next();
        return Err(ExprError::new(
            format!(
                "unexpected {} after a complete expression",
                t.tok.describe()
            ),
            t.span,
        ));
    }
    if expr.kind() != want {
        return Err(ExprError::new(
            match want {
                Kind::Truth => "a condition must be true or false: compare this number with something (`A.makespanMs < B.makespanMs`)",
                Kind::Number => "an answer must be a number, not a comparison",
            },
            expr.span(),
        ));
    }
    Ok(expr)
}

struct Parser {
    toks: Vec<Token>,
    at: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.at].tok
    }

    fn next(&mut self) -> Token {
        let t = self.toks[self.at].clone();
        if self.at + 1 < self.toks.len() {
            self.at += 1;
        }
        t
    }

    /// Enters one level of nesting at `span`, refusing past [`MAX_NESTING`].
    fn enter(&mut self, span: Span) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(ExprError::new(
                format!("the expression nests deeper than {MAX_NESTING} levels (parentheses, `not`, `-`)"),
                span,
            ));
        }
        Ok(())
    }

    fn or(&mut self) -> Result<Expr, ExprError> {
        let mut left = self.and()?;
        while self.peek() == &Tok::Or {
            self.next();
            let right = self.and()?;
            left = binary(BinOp::Or, left, right)?;
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, ExprError> {
        let mut left = self.not()?;
        while self.peek() == &Tok::And {
            self.next();
            let right = self.not()?;
            left = binary(BinOp::And, left, right)?;
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Expr, ExprError> {
        if self.peek() != &Tok::Not {
            return self.comparison();
        }
        let t = self.next();
        self.enter(t.span)?;
        let operand = self.not()?;
        self.depth -= 1;
        expect_kind(&operand, Kind::Truth, "`not`")?;
        Ok(Expr::Not {
            span: t.span.to(operand.span()),
            operand: Box::new(operand),
        })
    }

    fn comparison(&mut self) -> Result<Expr, ExprError> {
        let left = self.sum()?;
        let Some(op) = BinOp::comparison(self.peek()) else {
            return Ok(left);
        };
        self.next();
        let right = self.sum()?;
        let expr = binary(op, left, right)?;
        if BinOp::comparison(self.peek()).is_some() {
            let t = self.next();
            return Err(ExprError::new(
                format!(
                    "comparisons do not chain: write `a {} b and b {} c`",
                    op.symbol(),
                    t.tok.symbol()
                ),
                t.span,
            ));
        }
        Ok(expr)
    }

    fn sum(&mut self) -> Result<Expr, ExprError> {
        let mut left = self.product()?;
        loop {
            let op = match self.peek() {
                Tok::Plus => BinOp::Add,
                Tok::Minus => BinOp::Sub,
                _ => return Ok(left),
            };
            self.next();
            let right = self.product()?;
            left = binary(op, left, right)?;
        }
    }

    fn product(&mut self) -> Result<Expr, ExprError> {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Star => BinOp::Mul,
                Tok::Slash => BinOp::Div,
                _ => return Ok(left),
            };
            self.next();
            let right = self.unary()?;
            left = binary(op, left, right)?;
        }
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        if self.peek() != &Tok::Minus {
            return self.primary();
        }
        let t = self.next();
        self.enter(t.span)?;
        let operand = self.unary()?;
        self.depth -= 1;
        expect_kind(&operand, Kind::Number, "`-`")?;
        Ok(Expr::Neg {
            span: t.span.to(operand.span()),
            operand: Box::new(operand),
        })
    }

    fn primary(&mut self) -> Result<Expr, ExprError> {
        let t = self.next();
        match t.tok {
            Tok::Number(value) => Ok(Expr::Number {
                value,
                span: t.span,
            }),
            Tok::Ident(run) => self.figure(run, t.span),
            Tok::LParen => {
                self.enter(t.span)?;
                let inner = self.or()?;
                self.depth -= 1;
                let close = self.next();
                if close.tok != Tok::RParen {
                    return Err(ExprError::new(
                        format!(
                            "expected `)` to close the `(`, found {}",
                            close.tok.describe()
                        ),
                        close.span,
                    ));
                }
                // The parentheses belong to the inner expression's range.
                Ok(with_span(inner, t.span.to(close.span)))
            }
            other => Err(ExprError::new(
                format!(
                    "expected a number, a figure such as `A.makespanMs` or `(`, found {}",
                    other.describe()
                ),
                t.span,
            )),
        }
    }

    /// `run.key`, the run's name already read.
    fn figure(&mut self, run: String, span: Span) -> Result<Expr, ExprError> {
        if self.peek() != &Tok::Dot {
            return Err(ExprError::new(
                format!(
                    "`{run}` alone is no figure: name one of its metrics, as in `{run}.makespanMs`"
                ),
                span,
            ));
        }
        self.next();
        let k = self.next();
        match k.tok {
            Tok::Ident(key) => Ok(Expr::Figure {
                run,
                key,
                span: span.to(k.span),
            }),
            other => Err(ExprError::new(
                format!(
                    "expected a metric's key after `{run}.`, found {}",
                    other.describe()
                ),
                k.span,
            )),
        }
    }
}

/// The node `left op right`, its operands' kinds checked.
fn binary(op: BinOp, left: Expr, right: Expr) -> Result<Expr, ExprError> {
    let what = format!("`{}`", op.symbol());
    expect_kind(&left, op.operands(), &what)?;
    expect_kind(&right, op.operands(), &what)?;
    Ok(Expr::Binary {
        op,
        span: left.span().to(right.span()),
        left: Box::new(left),
        right: Box::new(right),
    })
}

fn expect_kind(e: &Expr, want: Kind, operator: &str) -> Result<(), ExprError> {
    if e.kind() == want {
        return Ok(());
    }
    let message = match want {
        Kind::Number => format!("{operator} takes numbers, and this is a comparison (true or false)"),
        Kind::Truth => format!("{operator} takes conditions (true or false), and this is a number: compare it, as in `A.makespanMs < B.makespanMs`"),
    };
    Err(ExprError::new(message, e.span()))
}

/// The same expression with another range (a parenthesised one covers its parentheses).
fn with_span(e: Expr, s: Span) -> Expr {
    match e {
        Expr::Number { value, .. } => Expr::Number { value, span: s },
        Expr::Figure { run, key, .. } => Expr::Figure { run, key, span: s },
        Expr::Neg { operand, .. } => Expr::Neg { operand, span: s },
        Expr::Not { operand, .. } => Expr::Not { operand, span: s },
        Expr::Binary {
            op, left, right, ..
        } => Expr::Binary {
            op,
            left,
            right,
            span: s,
        },
    }
}
