//! The JSON Schema (draft-07) of a lesson file, generated from the field tables the reader uses
//! ([`super::LESSON_FIELDS`] and the others), the sample names, the limits, the metrics catalog
//! and the policy language's own schema, as [`crate::policy::schema`] generates the policy's.
//! The reader stays the judge of validity (conditions are checked by parsing them); the schema
//! describes, for editors.

use super::{
    Field, INPUT_FIELDS, LESSON_FIELDS, MAX_CHOICES, MAX_CONDITIONS, MAX_PARAGRAPHS, MAX_POLICIES,
    MAX_TEXT_CHARS, MAX_TITLE_CHARS, OPTION_FIELDS, POLICY_FIELDS, QUESTION_FIELDS, SAMPLES,
    VERSION,
};
use crate::lesson::expr::MAX_EXPRESSION_CHARS;
use serde_json::{json, Map, Value};

/// An object schema of `fields`, each described by its doc, with `shapes` giving the schema of
/// the keys that have one (others are described only).
fn object(fields: &[Field], shapes: &[(&str, Value)]) -> Value {
    let mut props = Map::new();
    for f in fields {
        let mut s = shapes
            .iter()
            .find(|(k, _)| *k == f.name)
            .map_or_else(|| json!({}), |(_, v)| v.clone());
        if let Some(o) = s.as_object_mut() {
            o.insert("description".into(), json!(f.doc));
        }
        props.insert(f.name.into(), s);
    }
    let required: Vec<&str> = fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name)
        .collect();
    json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
}

fn text(max: usize) -> Value {
    json!({"type": "string", "minLength": 1, "maxLength": max})
}

fn paragraphs() -> Value {
    json!({"anyOf": [text(MAX_TEXT_CHARS), {"type": "array", "minItems": 1, "maxItems": MAX_PARAGRAPHS, "items": text(MAX_TEXT_CHARS)}]})
}

fn expression() -> Value {
    let keys: Vec<&str> = crate::sim::metric_catalog::METRICS
        .iter()
        .chain(crate::sim::metric_catalog::WINDOW_METRICS)
        .map(|m| m.key)
        .collect();
    json!({
        "type": "string", "minLength": 1, "maxLength": MAX_EXPRESSION_CHARS,
        "description": format!("An expression: numbers, figures RUN.key (RUN: A, B or a policy's name; key: {}), + - * /, < <= > >= == !=, and, or, not, parentheses.", keys.join(", ")),
    })
}

fn inputs() -> Value {
    let mut s = object(
        INPUT_FIELDS,
        &[
            ("sample", json!({"enum": SAMPLES})),
            (
                "scenario",
                json!({"type": "object", "properties": {"topology": {}, "workload": {}, "carbon": {}}, "required": ["topology", "workload"]}),
            ),
            ("generator", json!({"not": {}})),
        ],
    );
    if let Some(o) = s.as_object_mut() {
        o.insert("minProperties".into(), json!(1));
        o.insert("maxProperties".into(), json!(1));
    }
    s
}

fn options() -> Value {
    object(
        OPTION_FIELDS,
        &[
            (
                "seed",
                json!({"type": "integer", "minimum": 0, "maximum": 9_007_199_254_740_991_u64}),
            ),
            (
                "quantumMs",
                json!({"type": "integer", "minimum": 1, "maximum": crate::request::MAX_QUANTUM_MS}),
            ),
            (
                "hostCounts",
                json!({"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": u32::MAX}}),
            ),
            (
                "semantics",
                json!({"enum": crate::engine::semantics::NAMES}),
            ),
        ],
    )
}

fn question() -> Value {
    object(
        QUESTION_FIELDS,
        &[
            ("prompt", text(MAX_TEXT_CHARS)),
            (
                "choices",
                json!({"type": "array", "minItems": 2, "maxItems": MAX_CHOICES, "uniqueItems": true, "items": text(MAX_TEXT_CHARS)}),
            ),
            (
                "answer",
                json!({"anyOf": [{"type": "number"}, {"type": "string"}]}),
            ),
            ("tolerance", json!({"type": "number", "minimum": 0})),
            ("unit", text(20)),
        ],
    )
}

fn policies() -> Value {
    let mut policy = crate::policy::schema::policy_schema();
    if let Some(o) = policy.as_object_mut() {
        o.remove("$schema");
    }
    let name = json!({"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$", "not": {"enum": ["A", "B", "and", "or", "not"]}});
    json!({"type": "array", "minItems": 1, "maxItems": MAX_POLICIES,
           "items": object(POLICY_FIELDS, &[("name", name), ("policy", policy)])})
}

/// The JSON Schema of a lesson file.
pub fn lesson_schema() -> Value {
    let mut s = object(
        LESSON_FIELDS,
        &[
            ("$schema", json!({"type": "string"})),
            ("version", json!({"const": VERSION})),
            (
                "id",
                json!({"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,63}$"}),
            ),
            ("title", text(MAX_TITLE_CHARS)),
            ("intro", paragraphs()),
            ("inputs", inputs()),
            ("options", options()),
            ("policies", policies()),
            ("question", question()),
            (
                "conditions",
                json!({"type": "array", "minItems": 1, "maxItems": MAX_CONDITIONS, "items": expression()}),
            ),
            ("explanation", paragraphs()),
        ],
    );
    if let Some(o) = s.as_object_mut() {
        o.insert(
            "$schema".into(),
            json!("http://json-schema.org/draft-07/schema#"),
        );
        o.insert("title".into(), json!("policy-playground lesson"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema describes exactly the keys the reader reads, at every level.
    #[test]
    fn the_schema_has_the_readers_keys() {
        let s = lesson_schema();
        let keys = |v: &Value| -> Vec<String> {
            v["properties"]
                .as_object()
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default()
        };
        let names = |f: &[Field]| -> Vec<String> { f.iter().map(|f| f.name.to_string()).collect() };
        assert_eq!(keys(&s), names(LESSON_FIELDS));
        assert_eq!(keys(&s["properties"]["inputs"]), names(INPUT_FIELDS));
        assert_eq!(keys(&s["properties"]["options"]), names(OPTION_FIELDS));
        assert_eq!(keys(&s["properties"]["question"]), names(QUESTION_FIELDS));
        assert_eq!(
            keys(&s["properties"]["policies"]["items"]),
            names(POLICY_FIELDS)
        );
        assert_eq!(
            s["required"],
            json!([
                "title",
                "inputs",
                "policies",
                "question",
                "conditions",
                "explanation"
            ])
        );
        assert_eq!(
            s["properties"]["inputs"]["properties"]["sample"]["enum"],
            json!(["teaching", "surf_week"])
        );
        // The policy is the policy language's schema.
        let policy = &s["properties"]["policies"]["items"]["properties"]["policy"];
        assert_eq!(
            policy["anyOf"],
            crate::policy::schema::policy_schema()["anyOf"]
        );
    }
}
