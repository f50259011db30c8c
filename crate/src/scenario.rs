//! The scenario file: everything one run needs, in one JSON document.
//!
//! ```json
//! {"topology": <OpenDC topology JSON>, "workload": {"tasks": [...]},
//!  "carbon": [{"timestamp", "carbonIntensity"}], "policy": <policy JSON>,
//!  "seed": 0, "quantumMs": 1000}
//! ```
//! `carbon`, `seed`, `quantumMs`, `semantics` (`"classic"`, the default, or `"current"`,
//! SPEC 11.12) and the carbon what-ifs `carbonShiftMs`, `carbonScale`, `forecastError` (beyond
//! OpenDC, [`crate::whatif`]) are optional. The page and the CLI read the same format;
//! diagnostics carry paths into the document (`workload.tasks[3].cpuCount`) and, where the
//! readers can place them, lines and columns.

use crate::diag::{has_errors, join_path, Diagnostic};
use crate::engine::Semantics;
use crate::input;
use crate::json::{self, LineIndex};
use crate::model::{CarbonTrace, Topology, Workload};
use crate::policy::parse::Reader;
use crate::policy::Policy;
use crate::request::{self, CarbonReference, Inputs, RunOptions, RunRequest};
use crate::whatif::CarbonWhatIf;
use serde_json::Value;

/// A scenario file, read and checked: the inputs, policy and options of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioFile {
    pub topology: Topology,
    pub workload: Workload,
    pub carbon: Option<CarbonTrace>,
    pub policy: Policy,
    pub seed: u64,
    pub quantum_ms: i64,
    /// Classic (default) or Current scheduling (SPEC 11.12).
    pub semantics: Semantics,
    /// The carbon what-ifs (beyond OpenDC, [`crate::whatif`]); none set by default.
    pub what_if: CarbonWhatIf,
    /// Warnings of every part, with paths into the scenario document.
    pub warnings: Vec<Diagnostic>,
}

/// The keys of a scenario document.
pub const KEYS: [&str; 10] = [
    "topology",
    "workload",
    "carbon",
    "policy",
    "seed",
    "quantumMs",
    "semantics",
    "carbonShiftMs",
    "carbonScale",
    "forecastError",
];

/// Reads a scenario document. All problems of all parts are reported together.
pub fn read(text: &str) -> Result<ScenarioFile, Vec<Diagnostic>> {
    let value = input::json_text::parse(text, "the scenario").map_err(|d| vec![d])?;
    let mut problems: Vec<Diagnostic> = Vec::new();
    let Some(object) = value.as_object() else {
        return Err(vec![Diagnostic::error(
            "",
            "a scenario must be an object with `topology`, `workload` and `policy`",
        )
        .at(1, 1)]);
    };
    for key in object.keys() {
        if !KEYS.contains(&key.as_str()) {
            let hint = crate::policy::catalog::suggest(key, KEYS)
                .map_or(String::new(), |s| format!(" (did you mean `{s}`?)"));
            problems.push(
                Diagnostic::error(
                    key.clone(),
                    format!(
                        "unknown key `{key}` in a scenario{hint}; valid keys: {}",
                        KEYS.join(", ")
                    ),
                )
                .at_key(),
            );
        }
    }
    let mut part = |key: &str| -> Option<&Value> {
        let v = object.get(key);
        if v.is_none() && key != "carbon" {
            problems.push(Diagnostic::error(key, format!("a scenario needs `{key}`")));
        }
        v
    };
    let (topology_v, workload_v, carbon_v, policy_v) = (
        part("topology"),
        part("workload"),
        part("carbon"),
        part("policy"),
    );
    let topology = topology_v.and_then(|v| {
        collect(
            &mut problems,
            "topology",
            input::topology::topology_from_value(v),
        )
    });
    let workload = workload_v.and_then(|v| {
        collect(
            &mut problems,
            "workload",
            input::workload::workload_from_value(v),
        )
    });
    let carbon = match carbon_v {
        None | Some(Value::Null) => Some(None),
        Some(v) => collect(&mut problems, "carbon", input::carbon::carbon_from_value(v)).map(Some),
    };
    let seed = match object.get("seed") {
        None => Some(0),
        Some(v) => v.as_u64().or_else(|| {
            problems.push(Diagnostic::error(
                "seed",
                format!("`seed` must be an integer >= 0, found {v}"),
            ));
            None
        }),
    };
    let quantum_ms = match object.get("quantumMs") {
        None => Some(request::quantum(None)),
        Some(v) => Some(match v.as_i64() {
            Some(q) => request::quantum(Some(q)),
            None => Err(request::bad_quantum(v)),
        }),
    }
    .and_then(|q| q.map_err(|e| problems.push(e)).ok());
    let semantics = match object.get("semantics") {
        None => Some(Semantics::Classic),
        Some(v) => v.as_str().and_then(Semantics::parse).or_else(|| {
            problems.push(Semantics::error("semantics", v));
            None
        }),
    };
    let what_if = CarbonWhatIf::from_object(object)
        .map_err(|e| problems.extend(e))
        .ok();
    // The policy is read by the policy language's own reader, on the positioned tree of the
    // document, so its diagnostics point into the scenario text.
    let policy = policy_v.and_then(|_| {
        let node = policy_node(text)?;
        let index = LineIndex::new(text);
        let mut reader = Reader::new(&index);
        let policy = reader.policy(&node, "policy");
        problems.extend(reader.diagnostics);
        policy
    });
    let mut diagnostics = input::json_text::place(text, problems);
    if has_errors(&diagnostics) {
        diagnostics.sort_by_key(|d| !d.is_error());
        return Err(diagnostics);
    }
    let (
        Some(topology),
        Some(workload),
        Some(carbon),
        Some(policy),
        Some(seed),
        Some(quantum_ms),
        Some(semantics),
        Some(what_if),
    ) = (
        topology, workload, carbon, policy, seed, quantum_ms, semantics, what_if,
    )
    else {
        return Err(diagnostics);
    };
    Ok(ScenarioFile {
        topology,
        workload,
        carbon,
        policy,
        seed,
        quantum_ms,
        semantics,
        what_if,
        warnings: diagnostics,
    })
}

/// Moves a part's diagnostics under its key; returns its value when it has no error. A part's
/// warnings are kept by the part itself (topology and workload carry theirs); here they are
/// only re-pathed.
fn collect<T: HasWarnings>(
    problems: &mut Vec<Diagnostic>,
    key: &str,
    result: Result<T, Vec<Diagnostic>>,
) -> Option<T> {
    match result {
        Ok(mut value) => {
            for w in value.warnings_mut() {
                w.path = join_path(key, &w.path);
            }
            Some(value)
        }
        Err(ds) => {
            problems.extend(ds.into_iter().map(|d| d.under(key)));
            None
        }
    }
}

/// Inputs that carry their own warnings.
trait HasWarnings {
    fn warnings_mut(&mut self) -> &mut [Diagnostic];
}

impl HasWarnings for Topology {
    fn warnings_mut(&mut self) -> &mut [Diagnostic] {
        &mut self.warnings
    }
}

impl HasWarnings for Workload {
    fn warnings_mut(&mut self) -> &mut [Diagnostic] {
        &mut self.warnings
    }
}

impl HasWarnings for CarbonTrace {
    fn warnings_mut(&mut self) -> &mut [Diagnostic] {
        &mut []
    }
}

/// The positioned tree of the document's `policy` only (found with serde_json's `RawValue`, so a
/// large embedded workload is not parsed twice).
fn policy_node(text: &str) -> Option<json::Node> {
    #[derive(serde::Deserialize)]
    struct Parts<'a> {
        #[serde(borrow)]
        policy: Option<&'a serde_json::value::RawValue>,
    }
    let parts: Parts = serde_json::from_str(text).ok()?;
    let raw = parts.policy?.get();
    let start = (raw.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    json::parse_within(text, start, start + raw.len()).ok()
}

impl ScenarioFile {
    /// The run this scenario asks for (its seed, quantum and semantics, the other options at
    /// their defaults); a scenario reads no paths, so a topology's carbon reference is not
    /// followed.
    pub fn request(&self) -> RunRequest<'_> {
        let inputs = Inputs {
            topology: &self.topology,
            workload: &self.workload,
            carbon: self.carbon.as_ref(),
        };
        let mut request = RunRequest::new(inputs, &self.policy, CarbonReference::NotFollowed);
        request.options = RunOptions {
            seed: self.seed,
            quantum_ms: Some(self.quantum_ms),
            semantics: self.semantics,
            carbon_shift_ms: self.what_if.shift_ms,
            carbon_scale: self.what_if.scale,
            forecast_error: self.what_if.forecast_error,
            ..RunOptions::default()
        };
        request.warnings = self.warnings.clone();
        request
    }
}
