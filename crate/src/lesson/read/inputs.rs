//! A lesson's `inputs`: an embedded sample by name, or a whole scenario written into the lesson
//! (read by the scenario reader, its problems placed in the lesson text).

use super::Walk;
use crate::diag::{join_path, Diagnostic};
use crate::input::json_text::locate;
use crate::json::Node;
use crate::lesson::{LessonInputs, LessonPolicy, ScenarioInputs, INPUT_FIELDS, SAMPLES};
use serde_json::{json, Value};

/// Keys of an embedded scenario that the lesson's own `policies` and `options` replace.
const REPLACED: [&str; 4] = ["policy", "seed", "quantumMs", "semantics"];

impl Walk<'_> {
    /// `inputs`: exactly one of `sample`, `scenario` (`generator` is refused: not read yet).
    pub(super) fn inputs(
        &mut self,
        node: &Node,
        policies: Option<&[LessonPolicy]>,
    ) -> Option<LessonInputs> {
        if !self.object(node, "inputs", INPUT_FIELDS, "`inputs`") {
            return None;
        }
        let given: Vec<&str> = INPUT_FIELDS
            .iter()
            .map(|f| f.name)
            .filter(|k| node.get(k).is_some())
            .collect();
        if given.len() != 1 {
            self.error(
                "inputs",
                node.offset,
                format!(
                    "`inputs` holds exactly one of `sample` or `scenario`, found {}",
                    if given.is_empty() {
                        "neither".into()
                    } else {
                        given.join(" and ")
                    }
                ),
            );
            return None;
        }
        if let Some(g) = node.get("generator") {
            self.error(
                "inputs.generator",
                g.offset,
                "lessons do not read `generator` settings yet (the workload generator is issue 20, item 3): give a `sample` (teaching, surf_week) or an embedded `scenario`",
            );
            return None;
        }
        if let Some(s) = node.get("sample") {
            let name = self.string(s, "inputs.sample", 64)?;
            if !SAMPLES.contains(&name.as_str()) {
                let hint = crate::policy::catalog::suggest(&name, SAMPLES)
                    .map_or(String::new(), |s| format!(" (did you mean `{s}`?)"));
                self.error(
                    "inputs.sample",
                    s.offset,
                    format!(
                        "no sample called \"{name}\"{hint}; the samples are {}",
                        SAMPLES.join(", ")
                    ),
                );
                return None;
            }
            return Some(LessonInputs::Sample(name));
        }
        let scenario = node.get("scenario")?;
        self.scenario(scenario, policies)
            .map(|s| LessonInputs::Scenario(Box::new(s)))
    }

    /// An embedded scenario, read as a scenario file under policy A (or the default policy
    /// when A has errors, which are reported where A is).
    fn scenario(
        &mut self,
        node: &Node,
        policies: Option<&[LessonPolicy]>,
    ) -> Option<ScenarioInputs> {
        let path = "inputs.scenario";
        let mut value = node.to_serde();
        let Some(object) = value.as_object_mut() else {
            self.error(
                path,
                node.offset,
                format!("`scenario` must be an object {{\"topology\", \"workload\", \"carbon\"}}, found {}", node.type_name()),
            );
            return None;
        };
        let replaced: Vec<&str> = REPLACED
            .into_iter()
            .filter(|k| object.remove(*k).is_some())
            .collect();
        if !replaced.is_empty() {
            self.warning(
                path,
                node.offset,
                format!(
                    "the embedded scenario's {} {} ignored: the lesson's `policies` and `options` decide",
                    replaced.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "),
                    if replaced.len() == 1 { "is" } else { "are" }
                ),
            );
        }
        let policy = policies
            .and_then(|p| p.first())
            .and_then(|p| serde_json::from_str::<Value>(&p.text).ok())
            .unwrap_or_else(|| json!({"type": "prefab", "policyName": "Mem"}));
        object.insert("policy".into(), policy);
        let text = serde_json::to_string(&value).unwrap_or_default();
        match crate::scenario::read(&text) {
            Ok(file) => {
                for w in file.warnings {
                    self.place_under(node, path, w);
                }
                Some(ScenarioInputs {
                    topology: file.topology,
                    workload: file.workload,
                    carbon: file.carbon,
                    text,
                })
            }
            Err(diagnostics) => {
                for d in diagnostics {
                    self.place_under(node, path, d);
                }
                None
            }
        }
    }

    /// A diagnostic of the embedded scenario (its path relative to it) placed in the lesson
    /// text; the policy's are dropped (policy A is read, and reported, where the lesson has it).
    fn place_under(&mut self, node: &Node, prefix: &str, d: Diagnostic) {
        let policy =
            d.path == "policy" || d.path.starts_with("policy.") || d.path.starts_with("policy[");
        if policy {
            return;
        }
        let offset = locate(node, &d.path, d.anchor).unwrap_or(node.offset);
        let placed = Diagnostic {
            path: join_path(prefix, &d.path),
            line: None,
            column: None,
            range: None,
            ..d
        };
        self.reader
            .diagnostics
            .push(self.index.place(placed, offset));
    }
}
