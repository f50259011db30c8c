//! The JSON Schema of the policy language (for the page's editor) and the README's tables must
//! both describe exactly the vocabulary of `crate/src/policy/catalog.rs`, so that neither can
//! drift from the code.
//!
//! No schema library is used: `well_formed` checks the draft-07 keywords the schema may use and
//! their types, and `validate` is a small validator of the subset it does use, so that the schema
//! is also shown to accept the documents the reader accepts and to refuse what it refuses.

use policy_playground::api::{self, Answer};
use policy_playground::policy::catalog::{
    self, Default, Field, FILTERS, FILTER_POLICY_FIELDS, MULTIPLIER, TASK_STOPPER_FIELDS,
    TIMESHIFT_FIELDS, WEIGHERS,
};
use policy_playground::policy::check_text;
use policy_playground::policy::prefab::PREFABS;
use serde_json::{json, Map, Value};

fn schema() -> Value {
    match api::policy_schema() {
        Answer::Success { value } => value,
        Answer::Failure { errors } => panic!("{errors:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Draft-07 well-formedness

const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

/// Every keyword of JSON Schema draft-07 (validation and core vocabulary).
const KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "readOnly",
    "writeOnly",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "items",
    "additionalItems",
    "maxItems",
    "minItems",
    "uniqueItems",
    "contains",
    "maxProperties",
    "minProperties",
    "required",
    "properties",
    "patternProperties",
    "additionalProperties",
    "dependencies",
    "propertyNames",
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "definitions",
    "format",
    "contentMediaType",
    "contentEncoding",
];

const TYPES: &[&str] = &[
    "null", "boolean", "object", "array", "number", "string", "integer",
];

fn unique(items: &[Value]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(i, a)| items[..i].iter().all(|b| a != b))
}

/// Checks that `s` is a well-formed draft-07 schema; `at` names where, for messages.
fn well_formed(s: &Value, at: &str, root: bool) {
    let obj = match s {
        Value::Bool(_) => return,
        Value::Object(o) => o,
        other => panic!("{at}: a schema must be an object or a boolean, found {other}"),
    };
    for (key, v) in obj {
        let here = format!("{at}/{key}");
        assert!(
            KEYWORDS.contains(&key.as_str()),
            "{here}: not a draft-07 keyword"
        );
        match key.as_str() {
            "$schema" => {
                assert!(root, "{here}: only at the root");
                assert_eq!(v, DRAFT_07, "{here}");
            }
            "title" | "description" | "$comment" => assert!(v.is_string(), "{here}"),
            "type" => match v {
                Value::String(t) => assert!(TYPES.contains(&t.as_str()), "{here}: {t}"),
                Value::Array(ts) => {
                    assert!(!ts.is_empty() && unique(ts), "{here}");
                    for t in ts {
                        assert!(TYPES.contains(&t.as_str().unwrap_or("")), "{here}: {t}");
                    }
                }
                other => panic!("{here}: {other}"),
            },
            "enum" => {
                let items = v.as_array().unwrap_or_else(|| panic!("{here}: an array"));
                assert!(!items.is_empty(), "{here}: empty");
                assert!(unique(items), "{here}: repeated values");
            }
            // Draft-07 (unlike draft-04) makes the exclusive bounds numbers, not booleans.
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                assert!(v.is_number(), "{here}: a number")
            }
            "required" => {
                let items = v.as_array().unwrap_or_else(|| panic!("{here}: an array"));
                assert!(
                    items.iter().all(Value::is_string) && unique(items),
                    "{here}"
                );
                let props = obj.get("properties").and_then(Value::as_object);
                for name in items {
                    assert!(
                        props.is_some_and(|p| p.contains_key(name.as_str().unwrap())),
                        "{here}: {name} is required but not a property"
                    );
                }
            }
            "properties" | "definitions" | "patternProperties" => {
                let props = v.as_object().unwrap_or_else(|| panic!("{here}: an object"));
                for (name, sub) in props {
                    well_formed(sub, &format!("{here}/{name}"), false);
                }
            }
            "items" => match v {
                Value::Array(subs) => {
                    for (i, sub) in subs.iter().enumerate() {
                        well_formed(sub, &format!("{here}/{i}"), false)
                    }
                }
                sub => well_formed(sub, &here, false),
            },
            "additionalProperties"
            | "additionalItems"
            | "not"
            | "contains"
            | "propertyNames"
            | "if"
            | "then"
            | "else" => well_formed(v, &here, false),
            "anyOf" | "allOf" | "oneOf" => {
                let subs = v.as_array().unwrap_or_else(|| panic!("{here}: an array"));
                assert!(!subs.is_empty(), "{here}: empty");
                for (i, sub) in subs.iter().enumerate() {
                    well_formed(sub, &format!("{here}/{i}"), false);
                }
            }
            "default" => {
                let errors = validate(s, v, "");
                assert!(
                    errors.is_empty(),
                    "{here}: the default fails its schema: {errors:?}"
                );
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A validator of the keywords the schema uses

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        // Draft-07: an integer is a number without a fractional part (1.0 included).
        "integer" => v.as_f64().is_some_and(|x| x.fract() == 0.0),
        _ => false,
    }
}

/// The problems of `v` under schema `s` (empty when it validates).
fn validate(s: &Value, v: &Value, at: &str) -> Vec<String> {
    let obj = match s {
        Value::Bool(true) => return vec![],
        Value::Bool(false) => return vec![format!("{at}: not allowed")],
        Value::Object(o) => o,
        _ => panic!("not a schema"),
    };
    let mut errors = Vec::new();
    for (key, k) in obj {
        match key.as_str() {
            "$schema" | "title" | "description" | "default" | "$comment" => {}
            "type" => {
                if !type_matches(k.as_str().unwrap(), v) {
                    errors.push(format!("{at}: not of type {k}"));
                }
            }
            "enum" => {
                if !k.as_array().unwrap().contains(v) {
                    errors.push(format!("{at}: {v} not in {k}"));
                }
            }
            "const" => {
                if k != v {
                    errors.push(format!("{at}: {v} is not {k}"));
                }
            }
            "minimum" | "maximum" | "exclusiveMinimum" => {
                if let Some(x) = v.as_f64() {
                    let bound = k.as_f64().unwrap();
                    let ok = match key.as_str() {
                        "minimum" => x >= bound,
                        "maximum" => x <= bound,
                        _ => x > bound,
                    };
                    if !ok {
                        errors.push(format!("{at}: {x} fails {key} {bound}"));
                    }
                }
            }
            "required" => {
                if let Some(o) = v.as_object() {
                    for name in k.as_array().unwrap() {
                        if !o.contains_key(name.as_str().unwrap()) {
                            errors.push(format!("{at}: lacks {name}"));
                        }
                    }
                }
            }
            "properties" => {
                if let Some(o) = v.as_object() {
                    for (name, sub) in k.as_object().unwrap() {
                        if let Some(x) = o.get(name) {
                            errors.extend(validate(sub, x, &format!("{at}.{name}")));
                        }
                    }
                }
            }
            "additionalProperties" => {
                if let Some(o) = v.as_object() {
                    let props = obj.get("properties").and_then(Value::as_object);
                    for (name, x) in o {
                        if !props.is_some_and(|p| p.contains_key(name)) {
                            errors.extend(validate(k, x, &format!("{at}.{name}")));
                        }
                    }
                }
            }
            "items" => {
                if let Some(items) = v.as_array() {
                    for (i, x) in items.iter().enumerate() {
                        errors.extend(validate(k, x, &format!("{at}[{i}]")));
                    }
                }
            }
            "anyOf" => {
                let subs = k.as_array().unwrap();
                if !subs.iter().any(|sub| validate(sub, v, at).is_empty()) {
                    errors.push(format!("{at}: matches none of anyOf"));
                }
            }
            other => panic!("the test's validator does not know `{other}`: extend it"),
        }
    }
    errors
}

#[test]
fn the_schema_is_well_formed_draft_07() {
    let s = schema();
    assert_eq!(s["$schema"], DRAFT_07);
    well_formed(&s, "#", true);
    // It is also what the JSON text of the API gives.
    let text: Value = serde_json::from_str(&api::policy_schema_json_str()).unwrap();
    assert_eq!(text["type"], "success");
    assert_eq!(text["value"], s);
}

#[test]
fn the_schema_accepts_what_the_reader_accepts() {
    let s = schema();
    let mut documents: Vec<Value> = Vec::new();
    for p in PREFABS {
        documents.push(json!({"type": "prefab", "policyName": p.name}));
        documents.push(json!({"type": "prefab", "prefabName": p.name}));
        match api::expand(&json!({"type": "prefab", "policyName": p.name}).to_string()) {
            Answer::Success { value } => documents.push(value),
            Answer::Failure { errors } => panic!("{errors:?}"),
        }
    }
    documents.push(json!({"type": "prefab"}));
    documents.push(json!({"type": "filter"}));
    documents.push(json!({"type": "timeshift", "taskStopper": {}}));
    // Every policy of OpenDC's sample experiments (legacy and SDK spellings).
    for rel in [
        "legacy/features_experiment.json",
        "sdk/timeshift-taskstopper.json",
    ] {
        let path = format!(
            "{}/../../shared/opendc-samples/experiments/{rel}",
            env!("CARGO_MANIFEST_DIR")
        );
        let experiment: Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        documents.extend(
            experiment["allocationPolicies"]
                .as_array()
                .unwrap()
                .iter()
                .cloned(),
        );
    }
    for d in &documents {
        assert!(check_text(&d.to_string()).ok(), "the reader accepts {d}");
        let errors = validate(&s, d, "");
        assert!(errors.is_empty(), "{d}: {errors:?}");
    }
}

#[test]
fn the_schema_refuses_what_the_reader_refuses() {
    let s = schema();
    for d in [
        json!({"type": "filter", "subsetSize": 0}),
        json!({"type": "filter", "subsetSize": 2147483648u64}),
        json!({"type": "filter", "memorize": 1}),
        json!({"type": "filter", "bogus": 1}),
        json!({"type": "filter", "filters": [{"type": "Cpu"}]}),
        json!({"type": "filter", "filters": [{"type": "InstanceCount"}]}),
        json!({"type": "filter", "filters": [{"type": "Ram", "allocationRatio": 0}]}),
        json!({"type": "filter", "filters": [{"type": "Compute", "limit": 1}]}),
        json!({"type": "filter", "weighers": [{"type": "Disk"}]}),
        json!({"type": "filter", "weighers": [{"type": "Ram", "multipler": 1}]}),
        json!({"type": "timeshift", "shortForecastThreshold": 1.5}),
        json!({"type": "timeshift", "taskStopper": {"forecastThreshold": -0.1}}),
        json!({"type": "prefab", "name": "Mem"}),
        json!({"type": "prefab", "policyName": "Memory"}),
        json!({"type": "banana"}),
        json!({"subsetSize": 1}),
    ] {
        assert!(!check_text(&d.to_string()).ok(), "the reader refuses {d}");
        assert!(!validate(&s, &d, "").is_empty(), "the schema accepts {d}");
    }
}

// ---------------------------------------------------------------------------------------------
// The schema names every filter, weigher, prefab and field with its default

/// The variant of the root `anyOf` whose `type` is `kind`.
fn variant(s: &Value, kind: &str) -> Map<String, Value> {
    s["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["properties"]["type"]["const"] == kind)
        .unwrap_or_else(|| panic!("no {kind} variant"))
        .as_object()
        .unwrap()
        .clone()
}

fn default_json(d: &Default) -> Option<Value> {
    match *d {
        Default::Bool(b) => Some(json!(b)),
        Default::Int(i) => Some(json!(i)),
        Default::Number(x) => Some(json!(x)),
        Default::Required => None,
    }
}

/// Every field is a property of `object` with its default, and the required ones are required.
fn assert_fields(object: &Value, fields: &[Field], what: &str) {
    for f in fields {
        let prop = &object["properties"][f.name];
        assert!(prop.is_object(), "{what}: no property {}", f.name);
        assert_eq!(
            prop.get("default").cloned(),
            default_json(&f.default),
            "{what}.{}: default",
            f.name
        );
        assert!(
            prop["description"].as_str().is_some_and(|d| !d.is_empty()),
            "{what}.{}: described",
            f.name
        );
        let required = object["required"]
            .as_array()
            .is_some_and(|r| r.contains(&json!(f.name)));
        assert_eq!(
            required,
            f.default == Default::Required,
            "{what}.{}: required",
            f.name
        );
    }
}

#[test]
fn the_schema_names_the_whole_catalog_with_defaults() {
    let s = schema();
    let filter = Value::Object(variant(&s, "filter"));
    let timeshift = Value::Object(variant(&s, "timeshift"));
    let prefab = Value::Object(variant(&s, "prefab"));
    assert_fields(&filter, FILTER_POLICY_FIELDS, "filter");
    assert_fields(&timeshift, TIMESHIFT_FIELDS, "timeshift");
    assert_fields(
        &timeshift["properties"]["taskStopper"],
        TASK_STOPPER_FIELDS,
        "taskStopper",
    );
    assert!(filter["properties"].get("taskStopper").is_none());
    // The memorize default differs between the two policy types.
    assert_eq!(filter["properties"]["memorize"]["default"], false);
    assert_eq!(timeshift["properties"]["memorize"]["default"], true);

    for policy in [&filter, &timeshift] {
        let variants = policy["properties"]["filters"]["items"]["anyOf"]
            .as_array()
            .unwrap();
        assert_eq!(variants.len(), FILTERS.len());
        for f in FILTERS {
            let v = variants
                .iter()
                .find(|v| v["properties"]["type"]["enum"] == json!([f.name, f.sdk]))
                .unwrap_or_else(|| panic!("no filter {} ({})", f.name, f.sdk));
            assert_fields(v, f.params, f.name);
        }
        let weigher = &policy["properties"]["weighers"]["items"];
        let names: Vec<&str> = weigher["properties"]["type"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        for w in WEIGHERS {
            assert!(names.contains(&w.name), "weigher {}", w.name);
            assert!(names.contains(&w.sdk), "weigher {}", w.sdk);
        }
        assert_eq!(names.len(), 2 * WEIGHERS.len());
        assert_fields(weigher, &[MULTIPLIER], "weigher");
    }

    for key in ["policyName", "prefabName"] {
        let names = prefab["properties"][key]["enum"].as_array().unwrap();
        assert_eq!(names.len(), PREFABS.len(), "{key}");
        for p in PREFABS {
            assert!(names.contains(&json!(p.name)), "{key}: {}", p.name);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The README's policy-language tables

/// The README section `## The policy language`, up to the next section.
fn readme_language_section() -> String {
    let path = format!("{}/../README.md", env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let start = readme
        .find("## The policy language")
        .expect("a policy-language section");
    let rest = &readme[start + 3..];
    let end = rest.find("\n## ").map_or(rest.len(), |i| i);
    rest[..end].replace("**", "")
}

/// The table row of the README section that starts with `| first`.
fn row<'a>(section: &'a str, first: &str) -> &'a str {
    section
        .lines()
        .find(|l| l.starts_with(&format!("| {first}")))
        .unwrap_or_else(|| panic!("no README row starting with `| {first}`"))
}

/// How the README writes a default: `1`, `1.0`, `0.2`, `true`, `required`.
fn default_text(d: &Default) -> String {
    match *d {
        Default::Bool(b) => b.to_string(),
        Default::Int(i) => i.to_string(),
        Default::Number(x) if x.fract() == 0.0 => format!("{x:.1}"),
        Default::Number(x) => x.to_string(),
        Default::Required => "required".into(),
    }
}

/// `row` documents the field as `` `name` (default, ...) `` or `` `name` (default) ``.
fn documents(row: &str, f: &Field) -> bool {
    let d = default_text(&f.default);
    [",", ")"]
        .iter()
        .any(|end| row.contains(&format!("`{}` ({d}{end}", f.name)))
}

#[test]
fn the_readme_tables_name_the_whole_catalog_with_defaults() {
    let section = readme_language_section();
    for t in catalog::POLICY_TYPES {
        row(&section, &format!("`{t}`"));
    }
    let filter_row = row(&section, "`filter`");
    for f in FILTER_POLICY_FIELDS {
        assert!(
            documents(filter_row, f),
            "README filter row: {} ({:?})",
            f.name,
            f.default
        );
    }
    let timeshift_row = row(&section, "`timeshift`");
    assert!(timeshift_row.contains("as `filter`"));
    for f in TIMESHIFT_FIELDS {
        // A field the timeshift row does not repeat is the filter row's, with the same default.
        let documented = documents(timeshift_row, f)
            || (!timeshift_row.contains(&format!("`{}`", f.name))
                && FILTER_POLICY_FIELDS.contains(f)
                && documents(filter_row, f));
        assert!(
            documented,
            "README timeshift row: {} ({:?})",
            f.name, f.default
        );
    }
    assert!(timeshift_row.contains("`taskStopper` (absent)"));
    let stopper_row = row(&section, "`taskStopper`");
    for f in TASK_STOPPER_FIELDS {
        assert!(
            documents(stopper_row, f),
            "README taskStopper row: {}",
            f.name
        );
    }

    for f in FILTERS {
        let r = section
            .lines()
            .find(|l| l.starts_with('|') && l.contains(&format!("`{}` (`{}`)", f.name, f.sdk)))
            .unwrap_or_else(|| panic!("README: no filter row for {} ({})", f.name, f.sdk));
        for p in f.params {
            assert!(documents(r, p), "README filter {}: {}", f.name, p.name);
        }
    }
    for w in WEIGHERS {
        assert!(
            section.contains(&format!("| `{}` (`{}`) |", w.name, w.sdk)),
            "README: no weigher row for {} ({})",
            w.name,
            w.sdk
        );
    }
    assert!(
        section.contains(&format!(
            "\"multiplier\": m}}`, `m` finite, default {}",
            default_text(&MULTIPLIER.default)
        )),
        "README: the multiplier and its default"
    );
    for p in PREFABS {
        assert!(
            section.contains(&format!("| `{}` |", p.name))
                || section.contains(&format!("| `{}` (default) |", p.name)),
            "README: no prefab row for {}",
            p.name
        );
    }
}
