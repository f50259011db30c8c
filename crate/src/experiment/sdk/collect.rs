//! The diagnostics of one SDK experiment as it is read: errors, warnings, the warnings OpenDC3's
//! `--strict` turns into errors, and the out-of-scope warnings given once per kind with a count
//! of the further occurrences (SPEC 11.10). They carry paths; the document places them.

use crate::diag::{Diagnostic, Severity};
use serde_json::{Map, Value};

/// Collects diagnostics by path.
#[derive(Debug, Default)]
pub struct Collector {
    /// `--strict`: unknown keys are errors.
    pub strict: bool,
    /// A file named by the experiment could not be read (exit 2 rather than 1).
    pub unreadable: bool,
    list: Vec<Diagnostic>,
    /// Kinds warned about once: kind, index into `list`, further occurrences.
    once: Vec<(String, usize, u64)>,
}

impl Collector {
    /// An empty collector.
    pub fn new(strict: bool) -> Self {
        Collector {
            strict,
            ..Collector::default()
        }
    }

    /// An error at `path`.
    pub fn error(&mut self, path: &str, message: impl Into<String>) {
        self.list.push(Diagnostic::error(path, message));
    }

    /// A warning at `path`.
    pub fn warn(&mut self, path: &str, message: impl Into<String>) {
        self.list.push(Diagnostic::warning(path, message));
    }

    /// A warning, or an error under `--strict`, placed at the key `path` ends with.
    pub fn lenient(&mut self, path: &str, message: impl Into<String>) {
        let severity = if self.strict {
            Severity::Error
        } else {
            Severity::Warning
        };
        let d = Diagnostic {
            severity,
            ..Diagnostic::error(path, message)
        };
        self.list.push(d.at_key());
    }

    /// One warning of `kind`: the first is kept, later ones are counted into it.
    pub fn once(&mut self, kind: &str, path: &str, message: impl Into<String>) {
        if let Some(entry) = self.once.iter_mut().find(|(k, _, _)| k == kind) {
            entry.2 += 1;
            return;
        }
        self.once.push((kind.to_string(), self.list.len(), 0));
        self.list.push(Diagnostic::warning(path, message));
    }

    /// Diagnostics a reader made with paths relative to `prefix`.
    pub fn extend_under(&mut self, prefix: &str, diagnostics: Vec<Diagnostic>) {
        self.list
            .extend(diagnostics.into_iter().map(|d| d.under(prefix)));
    }

    /// Checks an object's keys against OpenDC3's (SPEC 11.2.3): each other key is a warning
    /// naming the valid keys, or an error under `--strict`.
    pub fn keys(&mut self, obj: &Map<String, Value>, path: &str, what: &str, valid: &[&str]) {
        for key in obj.keys().filter(|k| !valid.contains(&k.as_str())) {
            let at = crate::diag::join_path(path, key);
            let list = valid.join(", ");
            let message = if self.strict {
                format!("unknown key `{key}` in {what}: `opendc --strict` refuses it; valid keys: {list}")
            } else {
                format!("unknown key `{key}` in {what}: OpenDC3 ignores it; valid keys: {list}")
            };
            self.lenient(&at, message);
        }
    }

    /// Every diagnostic, the once-per-kind warnings with their counts.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        for (_, i, more) in self.once {
            if more > 0 {
                let d = &mut self.list[i];
                d.message = format!("{} (and {more} more)", d.message);
            }
        }
        self.list
    }
}
