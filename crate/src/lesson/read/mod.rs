//! Reading a lesson text: every problem reported at once, each at its line and column (SPEC
//! 1.1's diagnostics), the embedded policies read by the policy language's own reader and an
//! embedded scenario by the scenario reader, their problems placed in the lesson text.

mod inputs;
mod question;

use super::{
    Field, Lesson, LessonOptions, LessonPolicy, LESSON_FIELDS, MAX_LESSON_BYTES, MAX_PARAGRAPHS,
    MAX_POLICIES, MAX_TEXT_CHARS, MAX_TITLE_CHARS, OPTION_FIELDS, POLICY_FIELDS, VERSION,
};
use crate::diag::{has_errors, join_path, Diagnostic};
use crate::engine::Semantics;
use crate::json::{self, LineIndex, Node, Value};
use crate::policy::parse::Reader;

/// Largest seed a lesson takes: what JavaScript holds exactly (the page sends it).
const MAX_SEED: i64 = (1 << 53) - 1;

/// Reads and checks a lesson text: the lesson, or every problem found (errors and warnings),
/// in the order of the text.
pub fn read(text: &str) -> Result<Lesson, Vec<Diagnostic>> {
    if text.len() > MAX_LESSON_BYTES {
        return Err(vec![Diagnostic::error(
            "",
            format!(
                "the lesson is {} bytes; a lesson file is at most {} MiB",
                text.len(),
                MAX_LESSON_BYTES >> 20
            ),
        )]);
    }
    let root = json::parse(text).map_err(|mut d| {
        d.message = format!("the lesson is not valid JSON: {}", d.message);
        vec![d]
    })?;
    let index = LineIndex::new(text);
    let mut w = Walk {
        reader: Reader::new(&index),
        text,
        index: &index,
    };
    let lesson = w.lesson(&root);
    let mut diagnostics = w.reader.diagnostics;
    diagnostics.sort_by_key(|d| (d.line, d.column));
    match lesson {
        Some(lesson) if !has_errors(&diagnostics) => Ok(Lesson {
            warnings: diagnostics,
            ..lesson
        }),
        _ => Err(diagnostics),
    }
}

/// The walk over a lesson's tree: its diagnostics, and the text they are placed in.
pub(super) struct Walk<'a> {
    pub reader: Reader<'a>,
    pub text: &'a str,
    pub index: &'a LineIndex<'a>,
}

impl Walk<'_> {
    pub fn error(&mut self, path: &str, offset: usize, message: impl Into<String>) {
        self.reader.error(path, offset, message.into());
    }

    pub fn warning(&mut self, path: &str, offset: usize, message: impl Into<String>) {
        self.reader.warning(path, offset, message.into());
    }

    /// Checks that `node` is an object with only `fields` and all the required ones; `what`
    /// names it in messages (`the question`).
    pub fn object(&mut self, node: &Node, path: &str, fields: &[Field], what: &str) -> bool {
        let Some(members) = node.as_object() else {
            self.error(
                path,
                node.offset,
                format!("{what} must be an object, found {}", node.type_name()),
            );
            return false;
        };
        let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
        for m in members {
            if !names.contains(&m.key.as_str()) {
                let hint = crate::policy::catalog::suggest(&m.key, names.iter().copied())
                    .map_or(String::new(), |s| format!(" (did you mean `{s}`?)"));
                self.reader.diagnostics.push(self.index.place(
                    Diagnostic::error(
                        join_path(path, &m.key),
                        format!(
                            "unknown key `{}` in {what}{hint}; valid keys: {}",
                            m.key,
                            names.join(", ")
                        ),
                    ),
                    m.key_offset,
                ));
            }
        }
        for f in fields.iter().filter(|f| f.required) {
            if node.get(f.name).is_none() {
                self.error(
                    &join_path(path, f.name),
                    node.offset,
                    format!("{what} needs `{}`: {}", f.name, f.doc),
                );
            }
        }
        true
    }

    /// A non-empty string of at most `max` characters.
    pub fn string(&mut self, node: &Node, path: &str, max: usize) -> Option<String> {
        let Some(s) = node.as_str() else {
            self.error(
                path,
                node.offset,
                format!("`{}` must be text, found {}", last(path), node.type_name()),
            );
            return None;
        };
        let chars = s.chars().count();
        if s.trim().is_empty() {
            self.error(path, node.offset, format!("`{}` is empty", last(path)));
            None
        } else if chars > max {
            self.error(
                path,
                node.offset,
                format!("`{}` is {chars} characters long; at most {max}", last(path)),
            );
            None
        } else {
            Some(s.to_string())
        }
    }

    /// A paragraph, or a list of 1 to [`MAX_PARAGRAPHS`] of them.
    fn paragraphs(&mut self, node: &Node, path: &str) -> Option<Vec<String>> {
        let items = match &node.value {
            Value::String(_) => return self.string(node, path, MAX_TEXT_CHARS).map(|s| vec![s]),
            Value::Array(items) => items,
            _ => {
                self.error(
                    path,
                    node.offset,
                    format!(
                        "`{path}` must be a paragraph (text) or a list of them, found {}",
                        node.type_name()
                    ),
                );
                return None;
            }
        };
        if items.is_empty() || items.len() > MAX_PARAGRAPHS {
            self.error(
                path,
                node.offset,
                format!(
                    "`{path}` holds 1 to {MAX_PARAGRAPHS} paragraphs, not {}",
                    items.len()
                ),
            );
            return None;
        }
        let read: Vec<Option<String>> = items
            .iter()
            .enumerate()
            .map(|(i, p)| self.string(p, &format!("{path}[{i}]"), MAX_TEXT_CHARS))
            .collect();
        read.into_iter().collect()
    }

    fn lesson(&mut self, root: &Node) -> Option<Lesson> {
        if !self.object(root, "", LESSON_FIELDS, "a lesson") {
            return None;
        }
        if let Some(v) = root.get("version") {
            if !matches!(&v.value, Value::Number(n) if n.as_i64() == Some(VERSION as i64)) {
                self.error(
                    "version",
                    v.offset,
                    format!("this reader reads lesson format version {VERSION}"),
                );
            }
        }
        let id = root.get("id").and_then(|n| self.id(n));
        let title = root
            .get("title")
            .and_then(|n| self.string(n, "title", MAX_TITLE_CHARS));
        let intro = match root.get("intro") {
            None => Some(Vec::new()),
            Some(n) => self.paragraphs(n, "intro"),
        };
        let options = match root.get("options") {
            None => Some(LessonOptions::default()),
            Some(n) => self.options(n),
        };
        let policies = root.get("policies").and_then(|n| self.policies(n));
        let inputs = root
            .get("inputs")
            .and_then(|n| self.inputs(n, policies.as_deref()));
        let runs = policies.as_deref().map(question::Runs::of);
        let question = root
            .get("question")
            .and_then(|n| self.question(n, runs.as_ref()));
        let conditions = root
            .get("conditions")
            .and_then(|n| self.conditions(n, runs.as_ref()));
        let explanation = root
            .get("explanation")
            .and_then(|n| self.paragraphs(n, "explanation"));
        Some(Lesson {
            id,
            title: title?,
            intro: intro?,
            inputs: inputs?,
            options: options?,
            policies: policies?,
            question: question?,
            conditions: conditions?,
            explanation: explanation?,
            warnings: Vec::new(),
        })
    }

    /// A lesson's id: lower-case letters, digits and `-`, 1 to 64 of them.
    fn id(&mut self, node: &Node) -> Option<String> {
        let id = self.string(node, "id", 64)?;
        let ok = id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !id.starts_with('-');
        if !ok {
            self.error(
                "id",
                node.offset,
                format!("`id` is lower-case letters, digits and `-` (not first), found \"{id}\""),
            );
            return None;
        }
        Some(id)
    }

    fn options(&mut self, node: &Node) -> Option<LessonOptions> {
        if !self.object(node, "options", OPTION_FIELDS, "`options`") {
            return None;
        }
        let mut o = LessonOptions::default();
        let mut ok = true;
        if let Some(n) = node.get("seed") {
            match integer(n).filter(|s| (0..=MAX_SEED).contains(s)) {
                Some(s) => o.seed = s as u64,
                None => {
                    ok = false;
                    self.error(
                        "options.seed",
                        n.offset,
                        format!("`seed` must be an integer in [0, {MAX_SEED}]"),
                    );
                }
            }
        }
        if let Some(n) = node.get("quantumMs") {
            match integer(n).map(|q| crate::request::quantum(Some(q))) {
                Some(Ok(q)) => o.quantum_ms = q,
                _ => {
                    ok = false;
                    let message = crate::request::bad_quantum(&n.to_serde()).message;
                    self.error("options.quantumMs", n.offset, message);
                }
            }
        }
        if let Some(n) = node.get("semantics") {
            match n.as_str().and_then(Semantics::parse) {
                Some(s) => o.semantics = s,
                None => {
                    ok = false;
                    let message = Semantics::error("options.semantics", &n.to_serde()).message;
                    self.error("options.semantics", n.offset, message);
                }
            }
        }
        if let Some(n) = node.get("hostCounts") {
            ok &= self.host_counts(n, &mut o);
        }
        ok.then_some(o)
    }

    /// `hostCounts`: `{"cluster/host": count}`, each count in [0, 2^32).
    fn host_counts(&mut self, node: &Node, o: &mut LessonOptions) -> bool {
        let Some(members) = node.as_object() else {
            self.error(
                "options.hostCounts",
                node.offset,
                "`hostCounts` must be an object {\"cluster/host\": count}",
            );
            return false;
        };
        let mut ok = true;
        for m in members {
            match integer(&m.value).and_then(|c| u32::try_from(c).ok()) {
                Some(c) => {
                    o.host_counts.insert(m.key.clone(), c);
                }
                None => {
                    ok = false;
                    self.error(
                        &format!("options.hostCounts.{}", m.key),
                        m.value.offset,
                        format!("the count of `{}` must be a whole number >= 0", m.key),
                    );
                }
            }
        }
        ok
    }

    /// `policies`: 1 to [`MAX_POLICIES`] entries `{"name", "policy"}`, labelled A, B.
    fn policies(&mut self, node: &Node) -> Option<Vec<LessonPolicy>> {
        let Value::Array(items) = &node.value else {
            self.error(
                "policies",
                node.offset,
                format!(
                    "`policies` must be a list of {{\"name\", \"policy\"}}, found {}",
                    node.type_name()
                ),
            );
            return None;
        };
        if items.is_empty() || items.len() > MAX_POLICIES {
            self.error(
                "policies",
                node.offset,
                format!(
                    "a lesson has 1 or {MAX_POLICIES} policies (A and B), not {}",
                    items.len()
                ),
            );
            return None;
        }
        let read: Vec<Option<LessonPolicy>> = items
            .iter()
            .enumerate()
            .map(|(i, item)| self.policy(item, i))
            .collect();
        let policies: Vec<LessonPolicy> = read.into_iter().collect::<Option<_>>()?;
        if let [a, b] = &policies[..] {
            if a.name.is_some() && a.name == b.name {
                let n = &items[1];
                self.error(
                    "policies[1].name",
                    n.get("name").map_or(n.offset, |x| x.offset),
                    "the two policies have the same name",
                );
                return None;
            }
        }
        Some(policies)
    }

    fn policy(&mut self, node: &Node, i: usize) -> Option<LessonPolicy> {
        let path = format!("policies[{i}]");
        if !self.object(node, &path, POLICY_FIELDS, "a lesson's policy") {
            return None;
        }
        let label = ["A", "B"][i.min(1)].to_string();
        let name = match node.get("name") {
            None => Some(None),
            Some(n) => self.policy_name(n, &format!("{path}.name")).map(Some),
        };
        let p = node.get("policy")?;
        let policy = self.reader.policy(p, &format!("{path}.policy"));
        let text = serde_json::to_string_pretty(&p.to_serde()).unwrap_or_default();
        Some(LessonPolicy {
            label,
            name: name?,
            policy: policy?,
            text,
        })
    }

    /// A policy's name: what conditions write before the `.` besides A and B.
    fn policy_name(&mut self, node: &Node, path: &str) -> Option<String> {
        let name = self.string(node, path, 64)?;
        let ident = name
            .bytes()
            .enumerate()
            .all(|(k, b)| b == b'_' || b.is_ascii_alphabetic() || (k > 0 && b.is_ascii_digit()));
        let reserved = ["A", "B", "and", "or", "not"].contains(&name.as_str());
        if !ident || reserved {
            self.error(
                path,
                node.offset,
                format!("a policy's name is letters, digits and `_` (not a digit first), and not A, B, and, or, not; found \"{name}\""),
            );
            return None;
        }
        Some(name)
    }
}

/// The last segment of a path, for messages.
fn last(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}

/// An integer written without fraction or exponent.
fn integer(node: &Node) -> Option<i64> {
    match &node.value {
        Value::Number(n) => n.as_i64(),
        _ => None,
    }
}
