//! A JSON Schema (draft-07) of the policy language, generated from [`catalog`] and the prefab
//! table, for the page's editor (completion and hover). The Rust reader stays the judge of
//! validity; the schema only describes.

use super::catalog::{self, Default, Field, Kind};
use super::prefab::PREFABS;
use serde_json::{json, Map, Value};

fn field_schema(field: &Field) -> Value {
    let mut s = match field.kind {
        Kind::Bool => json!({"type": "boolean"}),
        Kind::Int { min, max } => json!({"type": "integer", "minimum": min, "maximum": max}),
        Kind::Positive => json!({"type": "number", "exclusiveMinimum": 0}),
        Kind::Fraction => json!({"type": "number", "minimum": 0, "maximum": 1}),
        Kind::Finite => json!({"type": "number"}),
    };
    let obj = s.as_object_mut().expect("built as an object");
    obj.insert("description".into(), json!(field.doc));
    match field.default {
        Default::Bool(b) => {
            obj.insert("default".into(), json!(b));
        }
        Default::Int(i) => {
            obj.insert("default".into(), json!(i));
        }
        Default::Number(x) => {
            obj.insert("default".into(), json!(x));
        }
        Default::Required => {}
    }
    s
}

fn properties(fields: &[Field], mut props: Map<String, Value>) -> Map<String, Value> {
    for f in fields {
        props.insert(f.name.into(), field_schema(f));
    }
    props
}

fn filters_schema() -> Value {
    let variants: Vec<Value> = catalog::FILTERS
        .iter()
        .map(|f| {
            let mut props = Map::new();
            props.insert(
                "type".into(),
                json!({"enum": [f.name, f.sdk], "description": f.doc}),
            );
            props.insert(
                "filterName".into(),
                json!({"enum": [f.name, f.sdk], "description": "OpenDC 2 legacy: repeats the type."}),
            );
            let mut required = vec![json!("type")];
            required.extend(
                f.params
                    .iter()
                    .filter(|p| p.default == Default::Required)
                    .map(|p| json!(p.name)),
            );
            json!({
                "type": "object",
                "title": f.name,
                "description": f.doc,
                "properties": properties(f.params, props),
                "required": required,
                "additionalProperties": false,
            })
        })
        .collect();
    json!({"type": "array", "description": "Filters, in order; a host must pass all.", "items": {"anyOf": variants}})
}

fn weighers_schema() -> Value {
    let names: Vec<&str> = catalog::WEIGHERS
        .iter()
        .flat_map(|w| [w.name, w.sdk])
        .collect();
    let docs: Vec<String> = catalog::WEIGHERS
        .iter()
        .map(|w| format!("{}: {}", w.name, w.doc))
        .collect();
    let mut props = Map::new();
    props.insert(
        "type".into(),
        json!({"enum": names, "description": format!("Raw score: {}.", docs.join("; "))}),
    );
    json!({
        "type": "array",
        "description": "Weighers: each normalises its raw score over the candidates and adds multiplier x score.",
        "items": {
            "type": "object",
            "properties": properties(&[catalog::MULTIPLIER], props),
            "required": ["type"],
            "additionalProperties": false,
        }
    })
}

fn explicit_schema(timeshift: bool) -> Value {
    let mut props = Map::new();
    let name = if timeshift { "timeshift" } else { "filter" };
    props.insert("type".into(), json!({"const": name}));
    props.insert("filters".into(), filters_schema());
    props.insert("weighers".into(), weighers_schema());
    let fields = if timeshift {
        catalog::TIMESHIFT_FIELDS
    } else {
        catalog::FILTER_POLICY_FIELDS
    };
    let mut props = properties(fields, props);
    if timeshift {
        props.insert(
            "taskStopper".into(),
            json!({
                "type": "object",
                "description": "Pauses running deferrable tasks at high carbon intensity.",
                "properties": properties(catalog::TASK_STOPPER_FIELDS, Map::new()),
                "additionalProperties": false,
            }),
        );
    }
    let doc = if timeshift {
        "Filters and weighers, deferring deferrable tasks while carbon intensity is not low."
    } else {
        "Filters keep hosts that fit; weighers rank them."
    };
    json!({
        "type": "object",
        "title": format!("{name} policy"),
        "description": doc,
        "properties": props,
        "required": ["type"],
        "additionalProperties": false,
    })
}

fn prefab_schema() -> Value {
    let names: Vec<&str> = PREFABS.iter().map(|p| p.name).collect();
    let doc: Vec<String> = PREFABS
        .iter()
        .map(|p| format!("{}: {}", p.name, p.doc))
        .collect();
    let name =
        json!({"enum": names, "description": format!("Case-insensitive. {}", doc.join(" "))});
    json!({
        "type": "object",
        "title": "prefab policy",
        "description": "A ready-made policy chosen by name.",
        "properties": {
            "type": {"const": "prefab"},
            "policyName": name,
            "prefabName": name,
        },
        "required": ["type"],
        "additionalProperties": false,
    })
}

/// The JSON Schema of one policy document.
pub fn policy_schema() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "OpenDC allocation policy",
        "type": "object",
        "anyOf": [prefab_schema(), explicit_schema(false), explicit_schema(true)],
    })
}
