//! Diagnostics: the one shape in which every problem with an input is reported (SPEC 1.1).
//!
//! A diagnostic names where the problem is (a dotted `path` relative to the document and, for text
//! inputs, a 1-based `line` and UTF-16 `column`) and says what was expected. Policy text, topology,
//! workload and carbon readers, the CLI and the wasm facade all speak this type, so that a problem
//! reads the same wherever it surfaces.

use serde::Serialize;

/// How bad a problem is: an `Error` stops the input from being used, a `Warning` does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A point in a text: 1-based line, 1-based column in UTF-16 code units (what browser editors
/// count), and the byte offset from the start of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TextPoint {
    pub line: u32,
    pub column: u32,
    /// Byte offset (a u32: inputs are far below 4 GiB, and a diagnostic stays small).
    pub offset: u32,
}

/// Where a diagnostic without a position should be placed in a JSON text: at the value its
/// path names, or at the key the path ends with (an unknown key, SPEC 1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Anchor {
    #[default]
    Value,
    Key,
}

/// The range of an offending token in a text: `start..end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextRange {
    pub start: TextPoint,
    /// Just after the token's last character.
    pub end: TextPoint,
}

/// One problem found in an input. Its JSON: `severity`, `message`, `path`, `line`, `column`,
/// then `file` when it names one and `start` and `end` when it has a text range.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    /// Dotted path with indices relative to the document, `""` for the root.
    pub path: String,
    /// 1-based line of the offending token; `None` for inputs without lines (parquet).
    pub line: Option<u32>,
    /// 1-based column of the offending token, in UTF-16 code units.
    pub column: Option<u32>,
    /// The file the problem is in, when the input spans several files (an experiment and the
    /// files it names); absent for a single document.
    pub file: Option<String>,
    /// The offending token's range, for text inputs: an editor underlines exactly it. Boxed,
    /// so that a diagnostic stays small in the `Result`s that carry one.
    pub range: Option<Box<TextRange>>,
    /// Where a reader that places diagnostics by path puts this one (not part of its JSON).
    pub anchor: Anchor,
}

/// A diagnostic's JSON, field by field: `Diagnostic` serializes through it, and its TypeScript
/// declaration is derived from it, so that both come from one definition.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "Diagnostic"))]
pub struct DiagnosticJson<'a> {
    pub severity: Severity,
    pub message: &'a str,
    pub path: &'a str,
    pub line: Option<u32>,
    pub column: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub start: Option<TextPoint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub end: Option<TextPoint>,
}

impl<'a> From<&'a Diagnostic> for DiagnosticJson<'a> {
    fn from(d: &'a Diagnostic) -> Self {
        DiagnosticJson {
            severity: d.severity,
            message: &d.message,
            path: &d.path,
            line: d.line,
            column: d.column,
            file: d.file.as_deref(),
            start: d.range.as_ref().map(|r| r.start),
            end: d.range.as_ref().map(|r| r.end),
        }
    }
}

impl Serialize for Diagnostic {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        DiagnosticJson::from(self).serialize(serializer)
    }
}

/// In TypeScript a diagnostic is its JSON shape.
#[cfg(feature = "ts")]
impl ts_rs::TS for Diagnostic {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;
    fn name(cfg: &ts_rs::Config) -> String {
        DiagnosticJson::name(cfg)
    }
    fn inline(cfg: &ts_rs::Config) -> String {
        DiagnosticJson::inline(cfg)
    }
}

/// Two diagnostics are equal when they say the same thing at the same place; the anchor only
/// says how a place is found.
impl PartialEq for Diagnostic {
    fn eq(&self, other: &Self) -> bool {
        (
            &self.severity,
            &self.message,
            &self.path,
            self.line,
            self.column,
            &self.file,
        ) == (
            &other.severity,
            &other.message,
            &other.path,
            other.line,
            other.column,
            &other.file,
        ) && self.range == other.range
    }
}

impl Diagnostic {
    /// An error without a text position (a parquet row, a missing file).
    pub fn error(path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            path: path.into(),
            line: None,
            column: None,
            file: None,
            range: None,
            anchor: Anchor::Value,
        }
    }

    /// A warning without a text position.
    pub fn warning(path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(path, message)
        }
    }

    /// The same diagnostic, to be placed at the key its path ends with.
    pub fn at_key(mut self) -> Self {
        self.anchor = Anchor::Key;
        self
    }

    /// The same diagnostic placed over the range `start..end` (its line and column are the
    /// start's).
    pub fn over(mut self, start: TextPoint, end: TextPoint) -> Self {
        self.line = Some(start.line);
        self.column = Some(start.column);
        self.range = Some(Box::new(TextRange { start, end }));
        self
    }

    /// The same diagnostic placed at a line and column.
    pub fn at(mut self, line: u32, column: u32) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The diagnostic with its path put under `prefix` (`allocationPolicies[1]` + `weighers[0]`).
    pub fn under(mut self, prefix: &str) -> Self {
        if !prefix.is_empty() {
            self.path = join_path(prefix, &self.path);
        }
        self
    }

    /// The diagnostic marked with the file it came from (kept when it already names one).
    pub fn in_file(mut self, file: &str) -> Self {
        if self.file.is_none() {
            self.file = Some(file.to_string());
        }
        self
    }
}

/// Joins a path prefix and a relative path: `a` + `b` = `a.b`, `a` + `[0].b` = `a[0].b`.
pub fn join_path(prefix: &str, rest: &str) -> String {
    if prefix.is_empty() {
        rest.to_string()
    } else if rest.is_empty() {
        prefix.to_string()
    } else if rest.starts_with('[') {
        format!("{prefix}{rest}")
    } else {
        format!("{prefix}.{rest}")
    }
}

/// True when any of the diagnostics is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

/// Formats a number for a message: integers without a fraction, others as Rust prints them.
pub fn num(x: f64) -> String {
    if x.is_finite() && x == x.trunc() && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}
