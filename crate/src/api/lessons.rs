//! Lesson files for the page: [`read_lesson`] checks a lesson text and gives what the page
//! shows before the answer (never the answer, the conditions or the explanation);
//! [`Session::reveal_lesson`] evaluates the conditions on the page's own runs of it (kept run
//! handles) and grades the student's answer; [`lesson_schema`] and [`lesson_limits`] are the
//! format's schema and bounds. See [`crate::lesson`].

use super::handles::Session;
use super::{guard, Answer};
use crate::compare::FinishedRun;
use crate::diag::Diagnostic;
use crate::lesson::verdict::{self, ConditionVerdict, Figures, Grade, StudentAnswer};
use crate::lesson::{self, Lesson, LessonInputs, LessonOptions, Question};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the page shows of a lesson before the student answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LessonView {
    pub id: Option<String>,
    pub title: String,
    pub intro: Vec<String>,
    pub inputs: LessonInputsView,
    pub options: LessonOptions,
    /// The policies in order (A, then B).
    pub policies: Vec<LessonPolicyView>,
    pub question: QuestionView,
    /// How many conditions the reveal checks.
    pub conditions: usize,
    pub warnings: Vec<Diagnostic>,
}

/// What a lesson runs on: a sample's name, or a scenario file's text for `loadScenario`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LessonInputsView {
    pub sample: Option<String>,
    pub scenario: Option<String>,
}

/// A lesson's policy as the page's editor takes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LessonPolicyView {
    pub label: String,
    pub name: Option<String>,
    /// The policy, pretty-printed JSON.
    pub text: String,
}

/// The question without its answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum QuestionView {
    Choice {
        prompt: String,
        choices: Vec<String>,
    },
    Numeric {
        prompt: String,
        unit: Option<String>,
    },
}

/// The reveal: the conditions on the runs shown, the answer graded, the explanation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LessonReveal {
    pub title: String,
    pub conditions: Vec<ConditionVerdict>,
    /// Every condition holds.
    pub holds: bool,
    /// The runs are the lesson's own: its policies under its options (not edited since).
    pub own_runs: bool,
    /// For the lesson's author: each condition that fails on the lesson's own run, with its
    /// line, column and figures (empty when the runs are not the lesson's own).
    pub failures: Vec<String>,
    pub grade: Grade,
    pub explanation: Vec<String>,
}

/// The bounds of lesson files and of the links that carry them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LessonLimits {
    pub max_lesson_bytes: usize,
    /// The most bytes a share or lesson link may inflate to; past it the page refuses it.
    pub max_link_bytes: usize,
    pub max_expression_chars: usize,
}

/// Reads a lesson text: what the page shows before the answer, or every problem with its line
/// and column.
pub fn read_lesson(text: &str) -> Answer<LessonView> {
    guard(|| match lesson::read(text) {
        Err(errors) => Answer::Failure { errors },
        Ok(l) => Answer::Success { value: view(l) },
    })
}

fn view(l: Lesson) -> LessonView {
    let (sample, scenario) = match l.inputs {
        LessonInputs::Sample(s) => (Some(s), None),
        LessonInputs::Scenario(s) => (None, Some(s.text)),
    };
    LessonView {
        id: l.id,
        title: l.title,
        intro: l.intro,
        inputs: LessonInputsView { sample, scenario },
        options: l.options,
        policies: l
            .policies
            .into_iter()
            .map(|p| LessonPolicyView {
                label: p.label,
                name: p.name,
                text: p.text,
            })
            .collect(),
        question: match l.question {
            Question::Choice {
                prompt, choices, ..
            } => QuestionView::Choice { prompt, choices },
            Question::Numeric { prompt, unit, .. } => QuestionView::Numeric { prompt, unit },
        },
        conditions: l.conditions.len(),
        warnings: l.warnings,
    }
}

/// The JSON Schema of lesson files.
pub fn lesson_schema() -> Answer<Value> {
    guard(|| Answer::Success {
        value: lesson::schema::lesson_schema(),
    })
}

/// The bounds of lesson files and links.
pub fn lesson_limits() -> Answer<LessonLimits> {
    Answer::Success {
        value: LessonLimits {
            max_lesson_bytes: lesson::MAX_LESSON_BYTES,
            max_link_bytes: lesson::MAX_LINK_BYTES,
            max_expression_chars: lesson::expr::MAX_EXPRESSION_CHARS,
        },
    }
}

/// [`read_lesson`] as JSON text.
pub fn read_lesson_json_str(text: &str) -> String {
    read_lesson(text).to_json_string()
}

/// [`lesson_schema`] as JSON text.
pub fn lesson_schema_json_str() -> String {
    lesson_schema().to_json_string()
}

/// [`lesson_limits`] as JSON text.
pub fn lesson_limits_json_str() -> String {
    lesson_limits().to_json_string()
}

/// What the page asks to reveal: its runs of the lesson (A, then B) and the student's answer
/// (absent: shown without answering).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RevealRequest {
    pub runs: Vec<u32>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub answer: Option<StudentAnswer>,
}

impl Session {
    /// The lesson `text` on the kept runs `runs` (one per policy, in order): its conditions,
    /// the student's answer graded, and the explanation.
    pub fn reveal_lesson(&self, text: &str, request: &RevealRequest) -> Answer<LessonReveal> {
        guard(|| match self.revealed(text, request) {
            Ok(value) => Answer::Success { value },
            Err(errors) => Answer::Failure { errors },
        })
    }

    /// [`Session::reveal_lesson`] from the page's JSON text, as JSON text.
    pub fn reveal_lesson_json_str(&self, text: &str, request: &str) -> String {
        match serde_json::from_str::<RevealRequest>(request) {
            Ok(r) => self.reveal_lesson(text, &r).to_json_string(),
            Err(e) => Answer::<()>::Failure {
                errors: vec![Diagnostic::error(
                    "request",
                    format!("not a reveal request {{\"runs\": [handles], \"answer\": {{\"choice\"}} or {{\"value\"}}}}: {e}"),
                )],
            }
            .to_json_string(),
        }
    }

    fn revealed(
        &self,
        text: &str,
        request: &RevealRequest,
    ) -> Result<LessonReveal, Vec<Diagnostic>> {
        let lesson = lesson::read(text)?;
        if request.runs.len() != lesson.policies.len() {
            return Err(vec![Diagnostic::error(
                "runs",
                format!(
                    "the lesson has {} policies: give one run of each, not {}",
                    lesson.policies.len(),
                    request.runs.len()
                ),
            )]);
        }
        let kept = request
            .runs
            .iter()
            .map(|&run| self.run_inputs(run))
            .collect::<Result<Vec<_>, _>>()?;
        let requests = kept
            .iter()
            .map(|k| self.request(&k.handles, &k.policy, &k.options))
            .collect::<Result<Vec<_>, _>>()?;
        let own_runs = kept
            .iter()
            .zip(&lesson.policies)
            .all(|(k, p)| k.policy == p.policy && lesson.options.matches(&k.options));
        let runs: Vec<FinishedRun> = kept
            .iter()
            .zip(&requests)
            .zip(&lesson.policies)
            .map(|((k, r), p)| FinishedRun {
                label: p.label.clone(),
                request: r,
                metrics: &k.metrics,
                start_epoch_ms: k.start_epoch_ms,
            })
            .collect();
        let figures = Figures::of(&lesson, &runs)?;
        let conditions = verdict::verdicts(&lesson, &figures);
        let grade =
            verdict::grade(&lesson, &figures, request.answer.as_ref()).map_err(|d| vec![d])?;
        let failures = if own_runs {
            conditions
                .iter()
                .enumerate()
                .filter(|(_, c)| !c.holds)
                .map(|(n, c)| c.failure_message(n))
                .collect()
        } else {
            Vec::new()
        };
        Ok(LessonReveal {
            title: lesson.title,
            holds: conditions.iter().all(|c| c.holds),
            conditions,
            own_runs,
            failures,
            grade,
            explanation: lesson.explanation,
        })
    }
}
