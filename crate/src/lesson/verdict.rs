//! A lesson over finished runs: each run's figures, the conditions evaluated on them, and a
//! student's answer graded against the question's. The page asks this after its own runs
//! (through kept run handles, [`crate::api::lessons`]); `lesson check` after running the lesson
//! ([`super::run`]).

use super::expr::{self, Expr, ExprError, Value};
use super::{Lesson, Question};
use crate::compare::{shown, FinishedRun};
use crate::diag::Diagnostic;
use crate::sim::metric_catalog::{by_key, METRICS, WINDOW_METRICS};
use crate::sim::window::window_figures;
use serde::{Deserialize, Serialize};
use serde_json::Map;

/// Decimals of a numeric answer as shown.
const ANSWER_DECIMALS: u8 = 2;

/// One run's figures: its label, its policy's name and every figure by catalog key (the run's
/// metrics, and its energy and carbon over the common window of the lesson's runs).
#[derive(Debug, Clone)]
pub struct RunFigures {
    pub label: String,
    pub name: Option<String>,
    pub values: Map<String, serde_json::Value>,
}

/// The figures of a lesson's runs.
#[derive(Debug, Clone)]
pub struct Figures(pub Vec<RunFigures>);

impl Figures {
    /// The figures of finished runs, one per policy of `lesson` in order, over their common
    /// window (the latest end of them, as a comparison of them counts it).
    pub fn of(lesson: &Lesson, runs: &[FinishedRun]) -> Result<Figures, Vec<Diagnostic>> {
        if runs.len() != lesson.policies.len() {
            return Err(vec![Diagnostic::error(
                "runs",
                format!(
                    "the lesson has {} policies; give one run of each, not {}",
                    lesson.policies.len(),
                    runs.len()
                ),
            )]);
        }
        let end = runs
            .iter()
            .map(|r| r.metrics.makespan_ms)
            .max()
            .unwrap_or(0);
        let mut out = Vec::with_capacity(runs.len());
        for (run, policy) in runs.iter().zip(&lesson.policies) {
            let topology = run.request.topology()?;
            let window = window_figures(
                &topology,
                run.request.inputs.carbon,
                run.metrics,
                run.start_epoch_ms,
                end,
            );
            let mut values = by_key(run.metrics);
            values.extend(by_key(&window));
            out.push(RunFigures {
                label: policy.label.clone(),
                name: policy.name.clone(),
                values,
            });
        }
        Ok(Figures(out))
    }

    /// The figure `key` of the run labelled or named `run`, or why there is none.
    pub fn get(&self, run: &str, key: &str) -> Result<f64, String> {
        let r = self
            .0
            .iter()
            .find(|r| r.label == run || r.name.as_deref() == Some(run))
            .ok_or_else(|| format!("no run `{run}`"))?;
        match r.values.get(key) {
            Some(v) => v.as_f64().ok_or_else(|| {
                format!("{run}.{key} has no value in this run (carbon figures need a carbon trace)")
            }),
            None => Err(format!("`{key}` is no metric")),
        }
    }
}

/// A figure a condition read, with its value as the metrics table shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct FigureValue {
    /// As written: `B.dynamicEnergyJ`.
    pub figure: String,
    /// The raw figure, in the result's unit; `None` when the run has none.
    pub value: Option<f64>,
    /// As shown: `16.552 kWh`, `—`.
    pub text: String,
}

/// A condition evaluated on runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ConditionVerdict {
    /// The condition as written.
    pub text: String,
    pub holds: bool,
    /// Why it could not be evaluated (a figure the run lacks, a division by zero), naming the
    /// part: it then does not hold.
    pub error: Option<String>,
    /// The figures it reads, each once, in the order written.
    pub figures: Vec<FigureValue>,
    /// Where it is in the lesson text (1-based line, UTF-16 column).
    pub line: u32,
    pub column: u32,
}

impl ConditionVerdict {
    /// `condition 2 (line 14, column 5) `B.x < A.x` does not hold: B.x = 3, A.x = 2`.
    pub fn failure_message(&self, n: usize) -> String {
        let why = match &self.error {
            Some(e) => e.clone(),
            None => {
                let values: Vec<String> = self
                    .figures
                    .iter()
                    .map(|f| format!("{} = {}", f.figure, f.text))
                    .collect();
                format!("does not hold: {}", values.join(", "))
            }
        };
        format!(
            "condition {} (line {}, column {}) `{}` {why}",
            n + 1,
            self.line,
            self.column,
            self.text
        )
    }
}

/// Every condition of `lesson` evaluated on `figures`.
pub fn verdicts(lesson: &Lesson, figures: &Figures) -> Vec<ConditionVerdict> {
    lesson
        .conditions
        .iter()
        .map(|c| {
            let got = expr::evaluate(&c.expr, &|run, key| figures.get(run, key));
            let (holds, error) = match got {
                Ok(Value::Truth(t)) => (t, None),
                Ok(Value::Number(_)) => (false, Some("is a number, not a condition".into())),
                Err(e) => (false, Some(cannot_evaluate(&c.text, &e))),
            };
            ConditionVerdict {
                text: c.text.clone(),
                holds,
                error,
                figures: figure_values(&c.expr, figures),
                line: c.line,
                column: c.column,
            }
        })
        .collect()
}

/// `cannot be evaluated at `B.x / A.zero`: division by zero ...`.
fn cannot_evaluate(text: &str, e: &ExprError) -> String {
    let part = text.get(e.span.start..e.span.end).unwrap_or(text);
    format!("cannot be evaluated at `{part}`: {}", e.message)
}

/// The figures an expression reads, each once, with their values as shown.
fn figure_values(e: &Expr, figures: &Figures) -> Vec<FigureValue> {
    let mut out: Vec<FigureValue> = Vec::new();
    for (run, key, _) in e.figures() {
        let figure = format!("{run}.{key}");
        if out.iter().any(|f| f.figure == figure) {
            continue;
        }
        let value = figures.get(run, key).ok();
        let info = METRICS.iter().chain(WINDOW_METRICS).find(|m| m.key == key);
        let text = match (value, info) {
            (Some(v), Some(m)) => shown(m, v),
            _ => "—".into(),
        };
        out.push(FigureValue {
            figure,
            value,
            text,
        });
    }
    out
}

/// A student's answer: a choice's index, or a number.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StudentAnswer {
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub choice: Option<usize>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub value: Option<f64>,
}

/// The right answer on the runs, and how a student's answer compares with it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Grade {
    /// The right answer as shown: the choice's text, or `4.98 %` (± the tolerance).
    pub answer: String,
    /// For a numeric question, the right number on these runs.
    pub value: Option<f64>,
    /// Whether the student's answer is right (`None` when there is no answer to grade).
    pub correct: Option<bool>,
    /// The student's answer as shown (`None` when there is none).
    pub given: Option<String>,
}

/// Grades `answer` (none: the student asked to see the results) against the question of
/// `lesson` on `figures`; an error when the right number cannot be computed on these runs.
pub fn grade(
    lesson: &Lesson,
    figures: &Figures,
    answer: Option<&StudentAnswer>,
) -> Result<Grade, Diagnostic> {
    let numeric = matches!(lesson.question, Question::Numeric { .. });
    if let Some(a) = answer {
        if a.choice.is_some() == a.value.is_some() || a.value.is_some() != numeric {
            let want = if numeric {
                "{\"value\": number}"
            } else {
                "{\"choice\": index}"
            };
            return Err(Diagnostic::error(
                "answer",
                format!("this question takes an answer {want}"),
            ));
        }
    }
    match &lesson.question {
        Question::Choice {
            choices,
            answer: right,
            ..
        } => {
            let given = answer.and_then(|a| a.choice);
            if let Some(i) = given.filter(|&i| i >= choices.len()) {
                return Err(Diagnostic::error(
                    "answer.choice",
                    format!(
                        "choice {i} is not one of the {} choices (0 to {})",
                        choices.len(),
                        choices.len() - 1
                    ),
                ));
            }
            Ok(Grade {
                answer: choices[*right].clone(),
                value: None,
                correct: given.map(|i| i == *right),
                given: given.map(|i| choices[i].clone()),
            })
        }
        Question::Numeric {
            answer: expr,
            answer_text,
            tolerance,
            unit,
            ..
        } => {
            let value = match expr::evaluate(expr, &|run, key| figures.get(run, key)) {
                Ok(Value::Number(x)) => x,
                Ok(Value::Truth(_)) => {
                    return Err(Diagnostic::error(
                        "question.answer",
                        "the answer is a condition, not a number",
                    ))
                }
                Err(e) => {
                    return Err(Diagnostic::error(
                        "question.answer",
                        format!(
                            "the answer `{answer_text}` {}",
                            cannot_evaluate(answer_text, &e)
                        ),
                    ))
                }
            };
            let with_unit = |x: f64| {
                let text = crate::format::number(x, ANSWER_DECIMALS);
                unit.as_ref()
                    .map_or(text.clone(), |u| format!("{text} {u}"))
            };
            let given = answer.and_then(|a| a.value);
            if given.is_some_and(|g| !g.is_finite()) {
                return Err(Diagnostic::error(
                    "answer.value",
                    "the answer must be a finite number",
                ));
            }
            Ok(Grade {
                answer: format!(
                    "{} (± {})",
                    with_unit(value),
                    crate::format::number(*tolerance, ANSWER_DECIMALS)
                ),
                value: Some(value),
                correct: given.map(|g| (g - value).abs() <= *tolerance),
                given: given.map(with_unit),
            })
        }
    }
}
