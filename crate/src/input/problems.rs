//! Collecting the problems of one input, and "did you mean" suggestions for misspelt keys.
//!
//! Every reader reports all the problems it finds (SPEC 1.1), but a trace with two million bad
//! rows must not produce two million diagnostics: after [`MAX_ERRORS`] errors the rest are
//! counted in one closing error. Warnings are meant to be one per kind of thing, which the
//! readers ensure by calling [`Problems::warn_once`] with a key naming the kind.

use std::collections::BTreeSet;

pub use crate::diag::Anchor;
use crate::diag::Diagnostic;

/// Errors kept in full before the rest are only counted.
pub const MAX_ERRORS: usize = 50;

/// The errors and warnings of one input, in the order found.
#[derive(Debug, Default)]
pub struct Problems {
    errors: Vec<Diagnostic>,
    more_errors: u64,
    warnings: Vec<Diagnostic>,
    warned: BTreeSet<String>,
}

impl Problems {
    /// An empty collection.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records an error placed at its path's value.
    pub fn error(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.push_error(Diagnostic::error(path, message), Anchor::Value);
    }

    /// Records an error placed at the key its path ends with.
    pub fn error_at_key(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.push_error(Diagnostic::error(path, message), Anchor::Key);
    }

    /// Records an error diagnostic as given.
    pub fn push_error(&mut self, mut d: Diagnostic, anchor: Anchor) {
        d.anchor = anchor;
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(d);
        } else {
            self.more_errors += 1;
        }
    }

    /// Records a warning, unless one with the same `kind` was recorded already.
    pub fn warn_once(&mut self, kind: &str, mut d: Diagnostic, anchor: Anchor) {
        d.anchor = anchor;
        if self.warned.insert(kind.to_string()) {
            self.warnings.push(d);
        }
    }

    /// Records a warning.
    pub fn warn(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.warnings.push(Diagnostic::warning(path, message));
    }

    /// True when an error was recorded.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// The diagnostics: errors first (with the closing count when some were left out), then
    /// warnings.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        let mut all = self.errors;
        if self.more_errors > 0 {
            all.push(Diagnostic::error(
                "",
                format!("{} more errors not shown", self.more_errors),
            ));
        }
        all.extend(self.warnings);
        all
    }

    /// The warnings only, for a result that is returned.
    pub fn into_warnings(self) -> Vec<Diagnostic> {
        self.warnings
    }

    /// `Ok(value)` with nothing else to say, or every diagnostic when there is an error.
    pub fn finish<T>(self, value: T) -> Result<(T, Vec<Diagnostic>), Vec<Diagnostic>> {
        if self.has_errors() {
            Err(self.into_diagnostics())
        } else {
            Ok((value, self.into_warnings()))
        }
    }
}

/// The candidate closest to `word`, when it is close enough to be a likely misspelling: equal
/// ignoring case, or within an edit distance of about a third of its length.
pub fn suggest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    if let Some(c) = candidates.iter().find(|c| c.to_ascii_lowercase() == lower) {
        return Some(c);
    }
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .iter()
        .map(|c| (edit_distance(&lower, &c.to_ascii_lowercase()), *c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// `unknown key "x"; did you mean "y"?` or, without a close candidate, the list of valid keys.
pub fn unknown_key(key: &str, candidates: &[&str]) -> String {
    match suggest(key, candidates) {
        Some(s) => format!("unknown key \"{key}\"; did you mean \"{s}\"?"),
        None => format!(
            "unknown key \"{key}\"; expected one of {}",
            candidates.join(", ")
        ),
    }
}

use crate::policy::catalog::edit_distance;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let keys = ["cpuCount", "cpuCapacity", "memory", "id"];
        assert_eq!(suggest("cpucount", &keys), Some("cpuCount"));
        assert_eq!(suggest("cpuCont", &keys), Some("cpuCount"));
        assert_eq!(suggest("memroy", &keys), Some("memory"));
        assert_eq!(suggest("banana", &keys), None);
        assert!(unknown_key("banana", &keys).contains("expected one of cpuCount"));
    }

    #[test]
    fn capped() {
        let mut p = Problems::new();
        for i in 0..(MAX_ERRORS + 7) {
            p.error(format!("[{i}]"), "bad");
        }
        p.warn_once("x", Diagnostic::warning("", "w"), Anchor::Value);
        p.warn_once("x", Diagnostic::warning("", "w"), Anchor::Value);
        let d = p.into_diagnostics();
        assert_eq!(d.len(), MAX_ERRORS + 2);
        assert_eq!(d[MAX_ERRORS].message, "7 more errors not shown");
    }
}
