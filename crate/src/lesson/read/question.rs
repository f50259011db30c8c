//! A lesson's `question` and `conditions`: texts, choices, and expressions of [`crate::lesson::expr`]
//! whose problems are placed at their exact characters in the lesson text.

use super::Walk;
use crate::diag::Diagnostic;
use crate::json::{Node, Value};
use crate::lesson::expr::{self, Expr, ExprError, Kind, Span};
use crate::lesson::{
    Condition, LessonPolicy, Question, MAX_CHOICES, MAX_CONDITIONS, MAX_TEXT_CHARS, QUESTION_FIELDS,
};
use crate::sim::metric_catalog::{METRICS, WINDOW_METRICS};

/// The runs a lesson's expressions may name: each label (A, B) and policy name.
pub(in crate::lesson) struct Runs(Vec<(String, Option<String>)>);

impl Runs {
    pub fn of(policies: &[LessonPolicy]) -> Self {
        Runs(
            policies
                .iter()
                .map(|p| (p.label.clone(), p.name.clone()))
                .collect(),
        )
    }

    fn knows(&self, run: &str) -> bool {
        self.0
            .iter()
            .any(|(label, name)| label == run || name.as_deref() == Some(run))
    }

    /// The runs as a message lists them: `A (Mem), B (MemInv)`.
    fn listed(&self) -> String {
        let each: Vec<String> = self
            .0
            .iter()
            .map(|(l, n)| n.as_ref().map_or(l.clone(), |n| format!("{l} ({n})")))
            .collect();
        each.join(", ")
    }
}

/// Every key a figure may name: a run's metrics and its figures over the common window.
pub(in crate::lesson) fn figure_keys() -> impl Iterator<Item = &'static str> {
    METRICS.iter().chain(WINDOW_METRICS).map(|m| m.key)
}

impl Walk<'_> {
    pub(super) fn question(&mut self, node: &Node, runs: Option<&Runs>) -> Option<Question> {
        if !self.object(node, "question", QUESTION_FIELDS, "the question") {
            return None;
        }
        let prompt = node
            .get("prompt")
            .and_then(|n| self.string(n, "question.prompt", MAX_TEXT_CHARS));
        let answer = node.get("answer")?;
        if let Some(choices) = node.get("choices") {
            for key in ["tolerance", "unit"] {
                if let Some(n) = node.get(key) {
                    self.error(
                        &format!("question.{key}"),
                        n.offset,
                        format!(
                            "`{key}` is for a numeric answer; a question with choices has none"
                        ),
                    );
                }
            }
            let choices = self.choices(choices)?;
            let index = self.right_choice(answer, &choices)?;
            return Some(Question::Choice {
                prompt: prompt?,
                choices,
                answer: index,
            });
        }
        let answer = match &answer.value {
            Value::Number(n) => Some((
                Expr::Number {
                    value: n.value,
                    span: Span {
                        start: 0,
                        end: n.text.len(),
                    },
                },
                n.text.clone(),
            )),
            Value::String(s) => self
                .expression(answer, "question.answer", Kind::Number, runs)
                .map(|e| (e, s.clone())),
            _ => {
                self.error(
                    "question.answer",
                    answer.offset,
                    format!(
                        "a numeric `answer` is a number or an expression over the run's figures, found {}",
                        answer.type_name()
                    ),
                );
                None
            }
        };
        let tolerance = match node.get("tolerance") {
            Some(Node {
                value: Value::Number(n),
                ..
            }) if n.value >= 0.0 => Some(n.value),
            Some(n) => {
                self.error(
                    "question.tolerance",
                    n.offset,
                    "`tolerance` must be a number >= 0",
                );
                None
            }
            None => {
                self.error("question.tolerance", node.offset, "a question without choices needs `tolerance`: how far from the answer a student's number may be and still be right");
                None
            }
        };
        let unit = match node.get("unit") {
            None => Some(None),
            Some(n) => self.string(n, "question.unit", 20).map(Some),
        };
        let (expr, answer_text) = answer?;
        Some(Question::Numeric {
            prompt: prompt?,
            answer: expr,
            answer_text,
            tolerance: tolerance?,
            unit: unit?,
        })
    }

    /// 2 to [`MAX_CHOICES`] distinct texts.
    fn choices(&mut self, node: &Node) -> Option<Vec<String>> {
        let Value::Array(items) = &node.value else {
            self.error(
                "question.choices",
                node.offset,
                format!(
                    "`choices` must be a list of texts, found {}",
                    node.type_name()
                ),
            );
            return None;
        };
        if items.len() < 2 || items.len() > MAX_CHOICES {
            self.error(
                "question.choices",
                node.offset,
                format!(
                    "a question has 2 to {MAX_CHOICES} choices, not {}",
                    items.len()
                ),
            );
            return None;
        }
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let path = format!("question.choices[{i}]");
            let text = self.string(item, &path, MAX_TEXT_CHARS)?;
            if out.contains(&text) {
                self.error(
                    &path,
                    item.offset,
                    format!("the choice \"{text}\" is there twice"),
                );
                return None;
            }
            out.push(text);
        }
        Some(out)
    }

    /// The index of the choice `answer` names (its exact text).
    fn right_choice(&mut self, answer: &Node, choices: &[String]) -> Option<usize> {
        let found = answer
            .as_str()
            .and_then(|a| choices.iter().position(|c| c == a));
        if found.is_none() {
            self.error(
                "question.answer",
                answer.offset,
                format!(
                    "`answer` must be one of the choices, as written: {}",
                    choices
                        .iter()
                        .map(|c| format!("\"{c}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        found
    }

    pub(super) fn conditions(
        &mut self,
        node: &Node,
        runs: Option<&Runs>,
    ) -> Option<Vec<Condition>> {
        let Value::Array(items) = &node.value else {
            self.error(
                "conditions",
                node.offset,
                format!(
                    "`conditions` must be a list of expressions (texts), found {}",
                    node.type_name()
                ),
            );
            return None;
        };
        if items.is_empty() || items.len() > MAX_CONDITIONS {
            self.error(
                "conditions",
                node.offset,
                format!(
                    "a lesson has 1 to {MAX_CONDITIONS} conditions, not {}",
                    items.len()
                ),
            );
            return None;
        }
        let read: Vec<Option<Condition>> = items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let path = format!("conditions[{i}]");
                let expr = self.expression(item, &path, Kind::Truth, runs)?;
                let (line, column) = self.index.position(item.offset);
                Some(Condition {
                    text: item.as_str().unwrap_or_default().to_string(),
                    expr,
                    line,
                    column,
                })
            })
            .collect();
        read.into_iter().collect()
    }

    /// An expression written as a JSON string at `node`, giving `want`, whose figures name
    /// known runs and keys.
    fn expression(
        &mut self,
        node: &Node,
        path: &str,
        want: Kind,
        runs: Option<&Runs>,
    ) -> Option<Expr> {
        let Some(text) = node.as_str() else {
            self.error(
                path,
                node.offset,
                format!(
                    "an expression is written as text, found {}",
                    node.type_name()
                ),
            );
            return None;
        };
        let expr = match expr::parse(text, want) {
            Ok(e) => e,
            Err(e) => {
                self.expr_error(node, path, e);
                return None;
            }
        };
        let mut ok = true;
        for (run, key, span) in expr.figures() {
            if let Some(runs) = runs.filter(|r| !r.knows(run)) {
                ok = false;
                let message = format!(
                    "no run `{run}` in this lesson: its runs are {}",
                    runs.listed()
                );
                self.expr_error(node, path, ExprError { message, span });
            } else if !figure_keys().any(|k| k == key) {
                ok = false;
                let hint = crate::policy::catalog::suggest(key, figure_keys())
                    .map_or(String::new(), |s| format!(" (did you mean `{s}`?)"));
                let message = format!(
                    "`{key}` is no metric{hint}; the metrics are {}",
                    figure_keys().collect::<Vec<_>>().join(", ")
                );
                self.expr_error(node, path, ExprError { message, span });
            }
        }
        ok.then_some(expr)
    }

    /// An expression's error placed over its characters in the lesson text.
    fn expr_error(&mut self, node: &Node, path: &str, e: ExprError) {
        let start = raw_offset(self.text, node.offset, e.span.start);
        let end = raw_offset(self.text, node.offset, e.span.end);
        let d =
            Diagnostic::error(path, e.message).over(self.index.point(start), self.index.point(end));
        self.reader.diagnostics.push(d);
    }
}

/// The byte offset in `text` of byte `unescaped` of the JSON string whose opening quote is at
/// `string_at` (escapes such as `\"` and `\u00e9` counted as what they stand for).
pub(in crate::lesson) fn raw_offset(text: &str, string_at: usize, unescaped: usize) -> usize {
    let bytes = text.as_bytes();
    let mut raw = string_at + 1;
    let mut u = 0;
    while u < unescaped && raw < bytes.len() && bytes[raw] != b'"' {
        if bytes[raw] == b'\\' {
            if bytes.get(raw + 1) == Some(&b'u') {
                let code = text
                    .get(raw + 2..raw + 6)
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .unwrap_or(0);
                if (0xD800..0xDC00).contains(&code) {
                    raw += 12; // a surrogate pair: one 4-byte character
                    u += 4;
                } else {
                    raw += 6;
                    u += char::from_u32(code).map_or(1, char::len_utf8);
                }
            } else {
                raw += 2;
                u += 1;
            }
        } else {
            let len = text[raw..].chars().next().map_or(1, char::len_utf8);
            raw += len;
            u += len;
        }
    }
    raw.min(text.len())
}

#[cfg(test)]
mod tests {
    use super::raw_offset;

    #[test]
    fn offsets_in_a_json_string_skip_its_escapes() {
        // {"c": "\"x\" é < \u00e9"}: byte 0 of the value is after the quote at 6.
        let text = r#"{"c": "\"x\" é < \u00e9"}"#;
        assert_eq!(raw_offset(text, 6, 0), 7);
        // `"x"` unescaped is 3 bytes, written as 5.
        assert_eq!(raw_offset(text, 6, 3), 12);
        // After "é " (3 bytes), `<` is at unescaped 7 and raw 15.
        assert_eq!(&text[raw_offset(text, 6, 7)..raw_offset(text, 6, 8)], "<");
        // \u00e9 is 2 unescaped bytes over 6 raw ones.
        assert_eq!(raw_offset(text, 6, 11), text.len() - 2);
    }
}
