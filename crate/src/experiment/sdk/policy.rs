//! Allocation policies in SDK files (SPEC 11.9): OpenDC3's spellings checked exactly, the keys it
//! ignores removed with a warning that says what will run (an error under `--strict`), and what
//! is left read by the policy reader every other document uses, so the rules of a policy have
//! one copy.

use super::document::Document;
use crate::diag::{join_path, Diagnostic, Severity};
use crate::json::{Member, Node, Value};
use crate::policy::catalog::{self, Field};
use crate::policy::parse::Reader;
use crate::policy::prefab::PREFABS;
use crate::policy::Policy;

/// Keys people write for a prefab's name that OpenDC3 drops, so that the prefab runs Mem
/// (SPEC 11.9.3); compared ignoring case.
const IGNORED_NAME_KEYS: [&str; 5] = ["scheduler", "policyname", "name", "prefab", "policy"];

/// A policy of the file with its JSON as OpenDC3 reads it (ignored keys dropped); `None` for an
/// entry with errors.
pub type Entry = Option<(Policy, serde_json::Value)>;

/// The policies of `allocationPolicies` (the node, when present), one entry per item; Mem when
/// the key is absent (OpenDC3's default). Diagnostics are placed in the document.
pub fn read(doc: &Document, list: Option<&Node>, strict: bool) -> (Vec<Entry>, Vec<Diagnostic>) {
    let mut out = Diagnostics {
        doc,
        strict,
        list: vec![],
    };
    let Some(list) = list else {
        let mem = serde_json::json!({"type": "prefab", "prefabName": "Mem"});
        return (
            vec![Some((crate::policy::prefab::default_policy(), mem))],
            vec![],
        );
    };
    let Value::Array(items) = &list.value else {
        let message = format!(
            "`allocationPolicies` must be a list of policies, found {}",
            list.type_name()
        );
        out.error("allocationPolicies", list.offset, message);
        return (vec![], out.list);
    };
    if items.is_empty() {
        out.error("allocationPolicies", list.offset, "`allocationPolicies` is empty: OpenDC3 needs at least one policy (or leave the key out for Mem)".into());
    }
    let mut policies = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = format!("allocationPolicies[{i}]");
        let cleaned = out.policy(item, &path);
        let mut reader = Reader::new(doc);
        let policy = reader.policy(&cleaned, &path);
        policies.push(policy.map(|p| (p, cleaned.to_serde())));
        out.list.extend(reader.diagnostics);
    }
    (policies, out.list)
}

struct Diagnostics<'d> {
    doc: &'d Document,
    strict: bool,
    list: Vec<Diagnostic>,
}

impl Diagnostics<'_> {
    fn error(&mut self, path: &str, offset: usize, message: String) {
        self.list
            .push(self.doc.place_at(Diagnostic::error(path, message), offset));
    }

    /// A warning, or an error under `--strict` (for what `opendc --strict` refuses).
    fn lenient(&mut self, path: &str, offset: usize, message: String) {
        let severity = if self.strict {
            Severity::Error
        } else {
            Severity::Warning
        };
        let d = Diagnostic {
            severity,
            ..Diagnostic::error(path, message)
        };
        self.list.push(self.doc.place_at(d, offset));
    }

    /// The policy with OpenDC3's rules applied to its keys and spellings.
    fn policy(&mut self, node: &Node, path: &str) -> Node {
        let Some(members) = node.as_object() else {
            return node.clone();
        };
        let kind = node.get("type").and_then(Node::as_str).unwrap_or("");
        let kept = match kind {
            "prefab" => self.prefab(node, members, path),
            "filter" => self.explicit(members, path, false),
            "timeshift" => self.explicit(members, path, true),
            _ => members.to_vec(),
        };
        Node {
            value: Value::Object(kept),
            offset: node.offset,
        }
    }

    fn prefab(&mut self, node: &Node, members: &[Member], path: &str) -> Vec<Member> {
        let name = node.get("prefabName");
        let runs = match name.and_then(Node::as_str) {
            Some(n) => n.to_string(),
            None => "Mem".to_string(),
        };
        let mut kept = Vec::new();
        for m in members {
            let at = join_path(path, &m.key);
            match m.key.as_str() {
                "type" => kept.push(m.clone()),
                "prefabName" => {
                    if let Some(n) = m.value.as_str() {
                        if !PREFABS.iter().any(|p| p.name == n) {
                            let close = PREFABS
                                .iter()
                                .find(|p| p.name.eq_ignore_ascii_case(n.trim()));
                            let hint = match close {
                                Some(p) => format!("OpenDC3 needs the exact name `{}`", p.name),
                                None => format!("expected one of {}", names()),
                            };
                            self.error(
                                &at,
                                m.value.offset,
                                format!("unknown prefab `{n}`: {hint}"),
                            );
                            continue;
                        }
                    }
                    kept.push(m.clone());
                }
                k if IGNORED_NAME_KEYS.contains(&k.to_ascii_lowercase().as_str()) => {
                    let mut message = ignored_name_message(k, &m.value, &runs, name.is_none());
                    if self.strict {
                        message = format!("`opendc --strict` refuses the unknown key `{k}`; without --strict: {message}");
                    }
                    self.lenient(&at, m.key_offset, message);
                }
                k => self.unknown(
                    k,
                    &at,
                    m.key_offset,
                    "prefab policy",
                    &["type", "prefabName"],
                ),
            }
        }
        if name.is_none() {
            // OpenDC3's default: the prefab runs Mem, as if written.
            kept.push(Member {
                key: "prefabName".into(),
                key_offset: node.offset,
                value: Node {
                    value: Value::String("Mem".into()),
                    offset: node.offset,
                },
            });
        }
        kept
    }

    /// A `filter` or `timeshift` policy: its keys, and its filters' and weighers' spellings.
    fn explicit(&mut self, members: &[Member], path: &str, timeshift: bool) -> Vec<Member> {
        let fields: &[Field] = if timeshift {
            catalog::TIMESHIFT_FIELDS
        } else {
            catalog::FILTER_POLICY_FIELDS
        };
        let mut valid: Vec<&str> = vec!["type", "filters", "weighers"];
        valid.extend(
            fields
                .iter()
                .map(|f| f.name)
                .filter(|n| *n != "maxTimesSkipped" && (timeshift || *n != "memorize")),
        );
        if timeshift {
            valid.push("taskStopper");
        }
        let mut kept = Vec::new();
        for m in members {
            let at = join_path(path, &m.key);
            match m.key.as_str() {
                "maxTimesSkipped" | "memorize" if !valid.contains(&m.key.as_str()) => {
                    let message = format!("`{}` is a policy-playground key that OpenDC3 does not know: ignored here too, so that the file means what it means to `opendc run`", m.key);
                    self.lenient(&at, m.key_offset, message);
                }
                "filters" => kept.push(self.items(m, &at, true)),
                "weighers" => kept.push(self.items(m, &at, false)),
                "taskStopper" if timeshift => kept.push(self.stopper(m, &at)),
                k if valid.contains(&k) => kept.push(m.clone()),
                k => self.unknown(
                    k,
                    &at,
                    m.key_offset,
                    if timeshift {
                        "timeshift policy"
                    } else {
                        "filter policy"
                    },
                    &valid,
                ),
            }
        }
        kept
    }

    /// A list of filters or weighers: SDK spellings only; unknown parameters dropped.
    fn items(&mut self, m: &Member, path: &str, filters: bool) -> Member {
        let Value::Array(items) = &m.value.value else {
            return m.clone();
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let at = format!("{path}[{i}]");
            let Some(members) = item.as_object() else {
                out.push(item.clone());
                continue;
            };
            let kind = item.get("type").and_then(Node::as_str).unwrap_or("");
            let (sdk, params): (Option<&str>, Vec<&str>) = if filters {
                match catalog::filter_def(kind) {
                    Some(d) => (Some(d.sdk), d.params.iter().map(|p| p.name).collect()),
                    None => (None, vec![]),
                }
            } else {
                match catalog::weigher_def(kind) {
                    Some(d) => (Some(d.sdk), vec!["multiplier"]),
                    None => (None, vec![]),
                }
            };
            if let Some(sdk) = sdk.filter(|s| *s != kind) {
                let what = if filters { "filter" } else { "weigher" };
                let offset = item.get("type").map_or(item.offset, |n| n.offset);
                self.error(
                    &join_path(&at, "type"),
                    offset,
                    format!("`{kind}` is the legacy spelling of a {what}: OpenDC3 needs `{sdk}`"),
                );
            }
            let mut valid = vec!["type"];
            valid.extend(params);
            let mut kept = Vec::new();
            for p in members {
                if sdk.is_none() || valid.contains(&p.key.as_str()) {
                    kept.push(p.clone());
                } else {
                    let what = if filters { "filter" } else { "weigher" };
                    self.unknown(&p.key, &join_path(&at, &p.key), p.key_offset, what, &valid);
                }
            }
            out.push(Node {
                value: Value::Object(kept),
                offset: item.offset,
            });
        }
        Member {
            value: Node {
                value: Value::Array(out),
                offset: m.value.offset,
            },
            ..m.clone()
        }
    }

    /// A timeshift policy's `taskStopper`, with the keys OpenDC3 does not know dropped.
    fn stopper(&mut self, m: &Member, path: &str) -> Member {
        let Some(members) = m.value.as_object() else {
            return m.clone();
        };
        let valid: Vec<&str> = catalog::TASK_STOPPER_FIELDS
            .iter()
            .map(|f| f.name)
            .collect();
        let mut kept = Vec::new();
        for p in members {
            if valid.contains(&p.key.as_str()) {
                kept.push(p.clone());
            } else {
                self.unknown(
                    &p.key,
                    &join_path(path, &p.key),
                    p.key_offset,
                    "task stopper",
                    &valid,
                );
            }
        }
        Member {
            value: Node {
                value: Value::Object(kept),
                offset: m.value.offset,
            },
            ..m.clone()
        }
    }

    /// A key OpenDC3 does not know (SPEC 11.2.3).
    fn unknown(&mut self, key: &str, path: &str, offset: usize, what: &str, valid: &[&str]) {
        let valid = valid.join(", ");
        let message = if self.strict {
            format!("unknown key `{key}` in a {what}: `opendc --strict` refuses it; valid keys: {valid}")
        } else {
            format!("unknown key `{key}` in a {what}: OpenDC3 ignores it; valid keys: {valid}")
        };
        self.lenient(path, offset, message);
    }
}

fn names() -> String {
    PREFABS
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// "OpenDC3 ignores `scheduler`; this prefab runs Mem, the default, not Random. Write
/// `"prefabName": "Random"`." (SPEC 11.9.3).
fn ignored_name_message(key: &str, value: &Node, runs: &str, default: bool) -> String {
    let named = value
        .as_str()
        .and_then(|v| {
            PREFABS
                .iter()
                .find(|p| p.name.eq_ignore_ascii_case(v.trim()))
        })
        .map(|p| p.name);
    let what = if default {
        format!("{runs}, the default")
    } else {
        runs.to_string()
    };
    match named {
        Some(other) if other != runs => format!(
            "OpenDC3 ignores `{key}`; this prefab runs {what}, not {other}. Write `\"prefabName\": \"{other}\"`."
        ),
        _ => format!("OpenDC3 ignores `{key}`; this prefab runs {what}. Write `\"prefabName\"` to name a prefab."),
    }
}
