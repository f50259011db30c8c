//! The tokens of an expression, each with its byte range.

use super::{ExprError, Span};

/// One token.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Number(f64),
    Ident(String),
    Dot,
    Plus,
    Minus,
    Star,
    Slash,
    Lt,
    Le,
    Gt,
    Ge,
    EqEq,
    Ne,
    LParen,
    RParen,
    And,
    Or,
    Not,
    End,
}

impl Tok {
    /// The token as a message quotes it.
    pub fn describe(&self) -> String {
        match self {
            Tok::Number(x) => format!("the number `{}`", crate::diag::num(*x)),
            Tok::Ident(s) => format!("`{s}`"),
            Tok::End => "the end of the expression".into(),
            other => format!("`{}`", other.symbol()),
        }
    }

    /// The spelling of an operator or punctuation token.
    pub fn symbol(&self) -> &'static str {
        match self {
            Tok::Dot => ".",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::EqEq => "==",
            Tok::Ne => "!=",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::And => "and",
            Tok::Or => "or",
            Tok::Not => "not",
            Tok::Number(_) | Tok::Ident(_) | Tok::End => "",
        }
    }
}

/// A token and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// The tokens of `text`, ending with [`Tok::End`], or the first character that starts none.
pub fn tokens(text: &str) -> Result<Vec<Token>, ExprError> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let (tok, end) = if c.is_ascii_digit() {
            number(text, start)?
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let mut end = start + 1;
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                end += 1;
            }
            (word(&text[start..end]), end)
        } else {
            operator(text, start)?
        };
        out.push(Token {
            tok,
            span: Span { start, end },
        });
        i = end;
    }
    out.push(Token {
        tok: Tok::End,
        span: Span {
            start: text.len(),
            end: text.len(),
        },
    });
    Ok(out)
}

/// A keyword or an identifier.
fn word(w: &str) -> Tok {
    match w {
        "and" => Tok::And,
        "or" => Tok::Or,
        "not" => Tok::Not,
        _ => Tok::Ident(w.to_string()),
    }
}

/// A number starting at `start`: digits, an optional fraction, an optional exponent.
fn number(text: &str, start: usize) -> Result<(Tok, usize), ExprError> {
    let bytes = text.as_bytes();
    let digits = |mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut end = digits(start);
    if bytes.get(end) == Some(&b'.') {
        let after = digits(end + 1);
        if after == end + 1 {
            return Err(ExprError::new(
                "a number needs digits after its `.` (write `2.0` or `2`)",
                Span {
                    start,
                    end: end + 1,
                },
            ));
        }
        end = after;
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let mut k = end + 1;
        if matches!(bytes.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        let after = digits(k);
        if after == k {
            return Err(ExprError::new(
                "a number's exponent needs digits (write `1e6`)",
                Span { start, end: k },
            ));
        }
        end = after;
    }
    if bytes
        .get(end)
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        return Err(ExprError::new(
            "a number runs into a name: put an operator between them",
            Span {
                start,
                end: end + 1,
            },
        ));
    }
    let span = Span { start, end };
    match text[start..end].parse::<f64>() {
        Ok(x) if x.is_finite() => Ok((Tok::Number(x), end)),
        _ => Err(ExprError::new(
            format!("`{}` is too large for a number", &text[start..end]),
            span,
        )),
    }
}

/// An operator or punctuation at `start`, or the error for a character that is none.
fn operator(text: &str, start: usize) -> Result<(Tok, usize), ExprError> {
    let rest = &text[start..];
    let two = |t: Tok| Ok((t, start + 2));
    let one = |t: Tok| Ok((t, start + 1));
    if rest.starts_with("<=") {
        return two(Tok::Le);
    }
    if rest.starts_with(">=") {
        return two(Tok::Ge);
    }
    if rest.starts_with("==") {
        return two(Tok::EqEq);
    }
    if rest.starts_with("!=") {
        return two(Tok::Ne);
    }
    let c = rest.chars().next().unwrap_or(' ');
    let span = Span {
        start,
        end: start + c.len_utf8(),
    };
    let refuse = |message: &str| Err(ExprError::new(message, span));
    match c {
        '.' => one(Tok::Dot),
        '+' => one(Tok::Plus),
        '-' => one(Tok::Minus),
        '*' => one(Tok::Star),
        '/' => one(Tok::Slash),
        '<' => one(Tok::Lt),
        '>' => one(Tok::Gt),
        '(' => one(Tok::LParen),
        ')' => one(Tok::RParen),
        '=' => refuse("`=` is not an operator: compare with `==`"),
        '&' => refuse("`&` is not an operator: join conditions with `and`"),
        '|' => refuse("`|` is not an operator: join conditions with `or`"),
        '!' => refuse("`!` is not an operator: negate a condition with `not`"),
        _ => refuse(&format!(
            "unexpected character `{c}`: an expression holds numbers, figures such as `A.makespanMs`, + - * / < <= > >= == != and or not and parentheses"
        )),
    }
}
