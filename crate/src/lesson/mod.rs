//! Lesson files: a question about a run, answered before the run is shown, then revealed with
//! conditions over the run's figures that Rust checks (issue 20, "Lesson files").
//!
//! A lesson is one JSON document (`www/lessons/*.json`; the README's "For teachers" writes one):
//! a title, the inputs (an embedded sample by name, or a whole scenario), one or two policies
//! (A and B), the run options, a question with choices or a numeric answer with a tolerance,
//! conditions in the language of [`expr`] that must hold on the lesson's own run, and an
//! explanation shown after the answer. [`read`] checks a lesson text and places every problem at
//! its line and column; [`verdict`] evaluates the conditions and grades an answer over finished
//! runs; [`run`] runs a lesson from its inputs (the command line's `lesson check`); [`schema`]
//! is its JSON Schema, generated from the field tables below, which the reader also uses.
//!
//! Every input is bounded: the text ([`MAX_LESSON_BYTES`]), the policies, choices, conditions
//! and paragraphs by count, each text by length, and each expression by length and nesting.
//! Inputs made by a generator's settings are another issue's work: a `generator` input is
//! refused with an error that says so.

pub mod expr;
mod read;
pub mod run;
pub mod schema;
pub mod verdict;

pub use read::read;

use crate::engine::Semantics;
use crate::model::{CarbonTrace, Topology, Workload};
use crate::policy::Policy;
use crate::request::RunOptions;
use serde::Serialize;
use std::collections::BTreeMap;

/// Largest lesson text read, in bytes (a lesson with an embedded teaching scenario is ~0.3 MB).
pub const MAX_LESSON_BYTES: usize = 4 << 20;
/// Largest share or lesson link the page inflates, in bytes of JSON text: a lesson and the rest
/// of a share state, with room for JSON escaping.
pub const MAX_LINK_BYTES: usize = 2 * MAX_LESSON_BYTES;
/// Most policies of a lesson: the page compares two (A and B).
pub const MAX_POLICIES: usize = 2;
/// Most choices of a question.
pub const MAX_CHOICES: usize = 8;
/// Most conditions of a lesson.
pub const MAX_CONDITIONS: usize = 32;
/// Most paragraphs of an intro or an explanation.
pub const MAX_PARAGRAPHS: usize = 20;
/// Longest paragraph, prompt or choice, in characters.
pub const MAX_TEXT_CHARS: usize = 2000;
/// Longest title, in characters.
pub const MAX_TITLE_CHARS: usize = 200;
/// The version of the format this reader reads.
pub const VERSION: u64 = 1;

/// The embedded samples a lesson can name, as the page lists them (`www/samples/<name>`).
pub const SAMPLES: [&str; 2] = ["teaching", "surf_week"];

/// One key of a lesson object: its name, whether it must be there, and what it holds (the
/// schema's description). The reader refuses keys not in its table.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    pub required: bool,
    pub doc: &'static str,
}

const fn field(name: &'static str, required: bool, doc: &'static str) -> Field {
    Field {
        name,
        required,
        doc,
    }
}

/// The keys of a lesson document.
pub const LESSON_FIELDS: &[Field] = &[
    field("$schema", false, "The schema's address, for editors; not read."),
    field("version", false, "The format's version: 1 (the default)."),
    field("id", false, "A short name (lower-case letters, digits and `-`), as the page's gallery and links name the lesson."),
    field("title", true, "The lesson's title."),
    field("intro", false, "What the student sees before answering: a paragraph or a list of them. Say what is compared, not what comes out."),
    field("inputs", true, "What runs: `{\"sample\": name}` or `{\"scenario\": {...}}`."),
    field("options", false, "The run options: seed, quantumMs, hostCounts, semantics (each with its default)."),
    field("policies", true, "One or two policies, A then B: `[{\"name\", \"policy\"}]`."),
    field("question", true, "The question asked before the results are shown: choices, or a numeric answer with a tolerance."),
    field("conditions", true, "What must hold on the lesson's own run, checked by Rust (`B.dynamicCarbonG < A.dynamicCarbonG`); shown with their figures after the answer."),
    field("explanation", true, "What the student reads after answering: a paragraph or a list of them."),
];

/// The keys of `inputs` (exactly one of them).
pub const INPUT_FIELDS: &[Field] = &[
    field("sample", false, "An embedded sample by name: teaching or surf_week."),
    field("scenario", false, "A whole scenario embedded: {\"topology\", \"workload\", \"carbon\"} as a scenario file holds them (its policy, seed, quantumMs and semantics are ignored: the lesson's decide)."),
    field("generator", false, "A workload generator's settings: not read yet (issue 20, item 3); refused with an error."),
];

/// The keys of `options`.
pub const OPTION_FIELDS: &[Field] = &[
    field(
        "seed",
        false,
        "The seed of the runs' random draws (default 0).",
    ),
    field(
        "quantumMs",
        false,
        "The scheduling quantum in ms (default 1000).",
    ),
    field(
        "hostCounts",
        false,
        "Host counts by `cluster/host` group, overriding the topology's.",
    ),
    field(
        "semantics",
        false,
        "`classic` (default) or `current` (OpenDC 3's scheduler).",
    ),
];

/// The keys of an entry of `policies`.
pub const POLICY_FIELDS: &[Field] = &[
    field(
        "name",
        false,
        "A name conditions can use besides the run's label (A, B): letters, digits and `_`.",
    ),
    field("policy", true, "The policy, in the policy language."),
];

/// The keys of `question`.
pub const QUESTION_FIELDS: &[Field] = &[
    field("prompt", true, "The question."),
    field("choices", false, "The choices, 2 to 8; without them the answer is a number."),
    field("answer", true, "With choices: the right choice's text. Without: a number, or an expression over the run's figures (`100 * (A.dynamicEnergyJ - B.dynamicEnergyJ) / A.dynamicEnergyJ`)."),
    field("tolerance", false, "A numeric answer is right within this distance of the answer (required without choices)."),
    field("unit", false, "The unit of a numeric answer, shown beside the input (`%`)."),
];

/// A lesson, read and checked.
#[derive(Debug, Clone)]
pub struct Lesson {
    pub id: Option<String>,
    pub title: String,
    pub intro: Vec<String>,
    pub inputs: LessonInputs,
    pub options: LessonOptions,
    pub policies: Vec<LessonPolicy>,
    pub question: Question,
    pub conditions: Vec<Condition>,
    pub explanation: Vec<String>,
    /// What reading it warned about, placed in the text.
    pub warnings: Vec<crate::diag::Diagnostic>,
}

/// What a lesson runs on.
#[derive(Debug, Clone)]
pub enum LessonInputs {
    /// An embedded sample, one of [`SAMPLES`].
    Sample(String),
    /// A scenario written into the lesson.
    Scenario(Box<ScenarioInputs>),
}

/// The inputs of an embedded scenario, and the scenario file the page loads for them.
#[derive(Debug, Clone)]
pub struct ScenarioInputs {
    pub topology: Topology,
    pub workload: Workload,
    pub carbon: Option<CarbonTrace>,
    /// A scenario file of these inputs (under policy A), as the page's `loadScenario` takes it.
    pub text: String,
}

/// The run options of a lesson: every run of it takes these.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LessonOptions {
    pub seed: u64,
    pub quantum_ms: i64,
    pub host_counts: BTreeMap<String, u32>,
    pub semantics: Semantics,
}

impl Default for LessonOptions {
    fn default() -> Self {
        LessonOptions {
            seed: 0,
            quantum_ms: crate::sim::DEFAULT_QUANTUM_MS,
            host_counts: BTreeMap::new(),
            semantics: Semantics::Classic,
        }
    }
}

impl LessonOptions {
    /// The options of one run of the lesson.
    pub fn run_options(&self) -> RunOptions {
        RunOptions {
            seed: self.seed,
            quantum_ms: Some(self.quantum_ms),
            host_counts: self.host_counts.clone(),
            semantics: self.semantics,
            ..RunOptions::default()
        }
    }

    /// Whether a run made with `o` is a run of these options (what the page sends: seed,
    /// quantum, host counts and semantics; the series resolution changes no figure).
    pub fn matches(&self, o: &RunOptions) -> bool {
        o.seed == self.seed
            && crate::request::quantum(o.quantum_ms).ok() == Some(self.quantum_ms)
            && o.host_counts == self.host_counts
            && o.semantics == self.semantics
            && o.what_if().is_neutral()
    }
}

/// One policy of a lesson.
#[derive(Debug, Clone)]
pub struct LessonPolicy {
    /// `A` or `B`, by position.
    pub label: String,
    /// The name conditions may use besides the label.
    pub name: Option<String>,
    pub policy: Policy,
    /// The policy as the lesson writes it, pretty-printed: what the page's editor shows.
    pub text: String,
}

/// The question of a lesson.
#[derive(Debug, Clone)]
pub enum Question {
    /// Pick one of `choices`; `answer` is the right one's index.
    Choice {
        prompt: String,
        choices: Vec<String>,
        answer: usize,
    },
    /// Give a number; right within `tolerance` of what `answer` gives on the run.
    Numeric {
        prompt: String,
        answer: expr::Expr,
        /// The answer as written (a number or an expression).
        answer_text: String,
        tolerance: f64,
        unit: Option<String>,
    },
}

/// A condition of a lesson: its text, its tree, and where it is in the lesson text.
#[derive(Debug, Clone)]
pub struct Condition {
    pub text: String,
    pub expr: expr::Expr,
    /// 1-based line and UTF-16 column of the condition's string in the lesson text.
    pub line: u32,
    pub column: u32,
}
