//! Reading a whole document: one policy, or an OpenDC experiment file whose
//! `allocationPolicies` each hold one (SPEC 1).

use super::parse::Reader;
use super::prefab;
use super::spec::Policy;
use crate::diag::{has_errors, Diagnostic};
use crate::json::{self, LineIndex, Node};

/// What kind of document was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    /// A single policy object.
    Policy,
    /// An OpenDC experiment file; its policies are its `allocationPolicies`.
    Experiment,
}

/// One policy of a document, with where it sits.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// `""` for a lone policy, `allocationPolicies[1]` in an experiment.
    pub path: String,
    /// `None` when the entry has errors.
    pub policy: Option<Policy>,
}

/// The result of reading a document: its policies and every problem found.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub kind: DocumentKind,
    pub entries: Vec<Entry>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    /// True when no diagnostic is an error.
    pub fn ok(&self) -> bool {
        !has_errors(&self.diagnostics)
    }

    /// The policies, when every entry is valid.
    pub fn policies(&self) -> Option<Vec<Policy>> {
        if !self.ok() {
            return None;
        }
        self.entries.iter().map(|e| e.policy.clone()).collect()
    }
}

const EXPERIMENT_KEYS: [&str; 3] = ["topologies", "workloads", "allocationPolicies"];

/// True when `node` looks like an OpenDC experiment: an object without `type` holding any of
/// `topologies`, `workloads`, `allocationPolicies`.
pub fn is_experiment(node: &Node) -> bool {
    node.get("type").is_none() && EXPERIMENT_KEYS.iter().any(|k| node.get(k).is_some())
}

/// Reads a policy or experiment document from text.
pub fn check_text(text: &str) -> Checked {
    match json::parse(text) {
        Err(d) => Checked {
            kind: DocumentKind::Policy,
            entries: vec![],
            diagnostics: vec![d],
        },
        Ok(root) => check_node(&root, &LineIndex::new(text)),
    }
}

/// Reads a policy or experiment document that has already been parsed from the text `index` was
/// made of.
pub fn check_node(root: &Node, index: &LineIndex) -> Checked {
    let mut reader = Reader::new(index);
    if !is_experiment(root) {
        let policy = reader.policy(root, "");
        return Checked {
            kind: DocumentKind::Policy,
            entries: vec![Entry {
                path: String::new(),
                policy,
            }],
            diagnostics: in_document_order(reader.diagnostics),
        };
    }
    let mut entries = Vec::new();
    match root.get("allocationPolicies") {
        None => entries.push(Entry {
            path: "allocationPolicies".into(),
            policy: Some(prefab::default_policy()),
        }),
        Some(Node {
            value: json::Value::Array(items),
            ..
        }) => {
            for (i, item) in items.iter().enumerate() {
                let path = format!("allocationPolicies[{i}]");
                let policy = reader.policy(item, &path);
                entries.push(Entry { path, policy });
            }
        }
        Some(other) => reader.error(
            "allocationPolicies",
            other.offset,
            format!(
                "`allocationPolicies` must be a list of policies, found {}",
                other.type_name()
            ),
        ),
    }
    Checked {
        kind: DocumentKind::Experiment,
        entries,
        diagnostics: in_document_order(reader.diagnostics),
    }
}

/// Diagnostics sorted by position (stable: problems at one token keep the order found).
fn in_document_order(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics.sort_by_key(|d| (d.line, d.column));
    diagnostics
}

/// Reads one policy (not an experiment) from text: the policy, or every problem found.
pub fn policy_from_text(text: &str) -> Result<(Policy, Vec<Diagnostic>), Vec<Diagnostic>> {
    let root = json::parse(text).map_err(|d| vec![d])?;
    let index = LineIndex::new(text);
    let mut reader = Reader::new(&index);
    match reader.policy(&root, "") {
        Some(p) => Ok((p, in_document_order(reader.diagnostics))),
        None => Err(in_document_order(reader.diagnostics)),
    }
}
