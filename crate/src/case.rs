//! Decision cases (the format of `shared/conformance/README.md`): a cluster at decision time, a
//! policy and a sequence of tasks to place, each with what is expected. `policy-playground
//! decide` runs them, and the conformance tests are such cases.

use crate::diag::{join_path, Diagnostic};
use crate::engine::current::HostTypes;
use crate::engine::explain::Placement;
use crate::engine::scheduler::Scheduler;
use crate::engine::timeshift::{self, DeadlineTest, Deferral};
use crate::engine::{Demand, HostState, Semantics};
use crate::json::{self, LineIndex, Node};
use crate::policy::parse::Reader;
use crate::policy::Policy;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A host of a case: static fields, then the dynamic ones (defaults 0, `availableMemory`
/// defaults to `memory`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CaseHost {
    name: String,
    /// The host type (SPEC 11.13), read by Current only; defaults to the name.
    #[serde(default, rename = "type")]
    host_type: Option<String>,
    #[serde(default = "yes")]
    up: bool,
    #[serde(default)]
    cores: u32,
    #[serde(default)]
    core_speed: f64,
    #[serde(default)]
    memory: i64,
    #[serde(default)]
    gpus: Vec<CaseGpu>,
    #[serde(default)]
    provisioned_cores: i64,
    #[serde(default)]
    available_memory: Option<i64>,
    #[serde(default)]
    instance_count: u32,
    #[serde(default)]
    provisioned_gpu_cores: i64,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CaseGpu {
    cores: u32,
    #[serde(default)]
    #[allow(dead_code)]
    core_speed: f64,
}

/// A task of a case (absent fields are 0, false or none).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
struct CaseTask {
    cpu_count: u32,
    cpu_capacity: f64,
    memory: i64,
    gpu_count: u32,
    gpu_capacity: f64,
    duration: i64,
    deferrable: bool,
    deadline: Option<i64>,
}

/// Fields a step may overwrite on a host before it runs.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct HostPatch {
    up: Option<bool>,
    cores: Option<u32>,
    core_speed: Option<f64>,
    memory: Option<i64>,
    provisioned_cores: Option<i64>,
    available_memory: Option<i64>,
    instance_count: Option<u32>,
    provisioned_gpu_cores: Option<i64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CaseStep {
    #[serde(default)]
    set: BTreeMap<String, HostPatch>,
    task: CaseTask,
    /// A host name, `null` (not placed now) or `"deferred"`; absent means no expectation.
    #[serde(default, deserialize_with = "some_value")]
    expect: Option<serde_json::Value>,
}

fn some_value<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(d).map(Some)
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseCarbon {
    #[serde(default)]
    history: Vec<f64>,
    #[serde(default)]
    forecast: Vec<f64>,
}

/// Everything of a case but its policy (read separately, with diagnostics).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CaseBody {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    source: Option<String>,
    /// A free-text note: why the expectations are what they are.
    #[serde(default)]
    #[allow(dead_code)]
    why: Option<String>,
    #[allow(dead_code)]
    policy: serde_json::Value,
    #[serde(default)]
    hosts: Vec<CaseHost>,
    #[serde(default)]
    steps: Vec<CaseStep>,
    #[serde(default)]
    now: i64,
    #[serde(default)]
    carbon: Option<CaseCarbon>,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    expect_error: Option<String>,
    /// `classic` (default) or `current` (SPEC 11.13).
    #[serde(default)]
    semantics: Semantics,
}

/// What a step decided.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum Chosen {
    Host(String),
    Deferred(#[cfg_attr(feature = "ts", ts(type = "\"deferred\""))] &'static str),
    NotPlaced(Option<()>),
}

impl Chosen {
    fn as_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// The explanation of one step: the deferral test (timeshift policies) and the placement.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StepExplanation {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub deferral: Option<Deferral>,
    pub placement: Option<Placement>,
}

/// One step's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StepOutcome {
    pub chosen: Chosen,
    pub explanation: StepExplanation,
    /// The case's expectation, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub expected: Option<serde_json::Value>,
    /// Whether the outcome met the expectation.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub matches: Option<bool>,
}

/// A case's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CaseOutcome {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub source: Option<String>,
    pub steps: Vec<StepOutcome>,
    /// The policy's diagnostics (warnings, or the errors when it was rejected).
    pub diagnostics: Vec<Diagnostic>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub expect_error: Option<String>,
    /// True when the case ran and every expectation held (or the expected error was given).
    pub ok: bool,
    /// `current` when the case ran under Current (SPEC 11.13); absent for Classic.
    #[serde(default, skip_serializing_if = "Semantics::is_classic")]
    pub semantics: Semantics,
}

/// How cases run, beyond what they say themselves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CaseOptions {
    /// Overrides every case's `semantics` (the CLI's `decide --semantics`).
    pub semantics: Option<Semantics>,
    /// Classic cases also say what Current would choose when it differs (Current cases always
    /// say what Classic would choose). Off by default, so that Classic outputs stay as they were.
    pub other_choice: bool,
}

/// Runs a case document: one case object, an array of them, or a case file with a
/// `decisions` list (`opendc3/cases.json`; its `experiments` are not decisions and are ignored).
/// `Err` when the document itself is malformed (not JSON, a case missing `policy`, an unknown
/// field).
pub fn run_text(text: &str) -> Result<Vec<CaseOutcome>, Vec<Diagnostic>> {
    run_document(text, &CaseOptions::default()).map(|(outcomes, _)| outcomes)
}

/// [`run_text`] with `options`; also says whether the document was a single case.
pub fn run_document(
    text: &str,
    options: &CaseOptions,
) -> Result<(Vec<CaseOutcome>, bool), Vec<Diagnostic>> {
    let root = json::parse(text).map_err(|d| vec![d])?;
    let index = LineIndex::new(text);
    let (items, prefix) = match (&root.value, decisions(&root)) {
        (json::Value::Array(items), _) => (items, ""),
        (_, Some(items)) => (items, "decisions"),
        _ => return Ok((vec![run_case(&root, &index, "", options)?], true)),
    };
    let outcomes = items
        .iter()
        .enumerate()
        .map(|(i, item)| run_case(item, &index, &format!("{prefix}[{i}]"), options))
        .collect::<Result<_, _>>()?;
    Ok((outcomes, false))
}

/// The `decisions` list of a case file (an object with `decisions` and no `policy`).
fn decisions(root: &Node) -> Option<&Vec<Node>> {
    if root.get("policy").is_some() {
        return None;
    }
    match &root.get("decisions")?.value {
        json::Value::Array(items) => Some(items),
        _ => None,
    }
}

/// True when the document is a single case (not an array of cases nor a case file with a
/// `decisions` list). A leading byte order mark is skipped, as the JSON reader skips it.
pub fn is_single(text: &str) -> bool {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('[') {
        return false;
    }
    json::parse(text).map_or(true, |root| decisions(&root).is_none())
}

fn run_case(
    node: &Node,
    index: &LineIndex,
    path: &str,
    options: &CaseOptions,
) -> Result<CaseOutcome, Vec<Diagnostic>> {
    let place = |message: String| vec![index.place(Diagnostic::error(path, message), node.offset)];
    let body: CaseBody = serde_json::from_value(node.to_serde())
        .map_err(|e| place(format!("not a decision case: {e}")))?;
    let policy_node = node
        .get("policy")
        .ok_or_else(|| place("a case needs a `policy`".into()))?;
    let mut reader = Reader::new(index);
    let policy = reader.policy(policy_node, "");
    let diagnostics = reader.diagnostics;
    let semantics = options.semantics.unwrap_or(body.semantics);
    let Some(policy) = policy else {
        let ok = body
            .expect_error
            .as_ref()
            .is_some_and(|want| diagnostics.iter().any(|d| d.is_error() && &d.path == want));
        return Ok(CaseOutcome {
            name: body.name,
            source: body.source,
            steps: vec![],
            diagnostics,
            expect_error: body.expect_error,
            ok,
            semantics,
        });
    };
    if body.expect_error.is_some() {
        return Ok(CaseOutcome {
            name: body.name,
            source: body.source,
            steps: vec![],
            diagnostics,
            expect_error: body.expect_error,
            ok: false,
            semantics,
        });
    }
    let steps = run_steps(&policy, &body, path, semantics, options.other_choice)?;
    let ok = steps.iter().all(|s| s.matches != Some(false));
    Ok(CaseOutcome {
        name: body.name,
        source: body.source,
        steps,
        diagnostics,
        expect_error: None,
        ok,
        semantics,
    })
}

fn run_steps(
    policy: &Policy,
    body: &CaseBody,
    path: &str,
    semantics: Semantics,
    other_choice: bool,
) -> Result<Vec<StepOutcome>, Vec<Diagnostic>> {
    let names: Vec<String> = body.hosts.iter().map(|h| h.name.clone()).collect();
    let mut hosts: Vec<HostState> = body.hosts.iter().map(CaseHost::state).collect();
    let regime = match (&policy.timeshift, &body.carbon) {
        (Some(ts), Some(c)) if !c.history.is_empty() => {
            let current = c.history[c.history.len() - 1];
            Some(timeshift::evaluate(ts, current, &c.forecast, &c.history))
        }
        _ => None,
    };
    let types = || {
        HostTypes::from_names(
            body.hosts
                .iter()
                .map(|h| h.host_type.as_deref().unwrap_or(&h.name)),
        )
    };
    // Classic cases keep the shadow Current state only when asked for the other choice.
    let shadow = other_choice || semantics == Semantics::Current;
    let mut scheduler = Scheduler::with_semantics(policy, &hosts, semantics, types, shadow);
    let test = DeadlineTest::of(policy, semantics);
    let mut rng = crate::engine::rng(body.seed);
    let mut out = Vec::new();
    for (s, step) in body.steps.iter().enumerate() {
        for (name, patch) in &step.set {
            let i = names.iter().position(|n| n == name).ok_or_else(|| {
                vec![Diagnostic::error(
                    join_path(path, &format!("steps[{s}].set.{name}")),
                    format!("`set` names the host `{name}`, which the case does not have"),
                )]
            })?;
            let before = hosts[i];
            patch.apply(&mut hosts[i]);
            scheduler.overwritten(&hosts, i, &before);
        }
        let t = &step.task;
        let demand = t.demand();
        let deferral = policy.timeshift.as_ref().map(|_| {
            let remaining = t.duration;
            timeshift::deferral_with(
                test,
                regime.as_ref(),
                body.now,
                t.duration,
                remaining,
                t.deferrable,
                t.deadline,
            )
        });
        let (chosen, placement) = if deferral.as_ref().is_some_and(|d| d.deferred) {
            (Chosen::Deferred("deferred"), None)
        } else {
            let (choice, placement) =
                scheduler.decide(policy, &hosts, &names, &demand, &mut rng, true);
            let chosen = match (choice.host, choice.refusal) {
                (Some(h), None) => {
                    let before = hosts[h].instance_count;
                    hosts[h].place(&demand);
                    scheduler.changed(&hosts, h, before);
                    Chosen::Host(names[h].clone())
                }
                _ => Chosen::NotPlaced(None),
            };
            (chosen, placement)
        };
        let matches = step.expect.as_ref().map(|e| *e == chosen.as_json());
        out.push(StepOutcome {
            chosen,
            explanation: StepExplanation {
                deferral,
                placement,
            },
            expected: step.expect.clone(),
            matches,
        });
    }
    Ok(out)
}

impl CaseHost {
    /// The host's state at decision time.
    fn state(&self) -> HostState {
        HostState {
            up: self.up,
            instance_count: self.instance_count,
            provisioned_cores: self.provisioned_cores,
            available_memory: self.available_memory.unwrap_or(self.memory),
            provisioned_gpu_cores: self.provisioned_gpu_cores,
            ..HostState::empty(
                self.cores,
                self.core_speed,
                self.memory,
                self.gpus.iter().map(|g| g.cores).sum(),
            )
        }
    }
}

impl CaseTask {
    /// What the task asks of a host.
    fn demand(&self) -> Demand {
        Demand {
            cpu_count: self.cpu_count,
            cpu_capacity: self.cpu_capacity,
            memory: self.memory,
            gpu_count: self.gpu_count,
            gpu_capacity: self.gpu_capacity,
        }
    }
}

impl HostPatch {
    fn apply(&self, h: &mut HostState) {
        if let Some(v) = self.up {
            h.up = v;
        }
        if let Some(v) = self.cores {
            h.cores = v;
        }
        if let Some(v) = self.core_speed {
            h.core_speed = v;
        }
        if let Some(v) = self.memory {
            h.memory = v;
        }
        h.cpu_capacity = h.cores as f64 * h.core_speed;
        if let Some(v) = self.provisioned_cores {
            h.provisioned_cores = v;
        }
        if let Some(v) = self.available_memory {
            h.available_memory = v;
        }
        if let Some(v) = self.instance_count {
            h.instance_count = v;
        }
        if let Some(v) = self.provisioned_gpu_cores {
            h.provisioned_gpu_cores = v;
        }
    }
}
