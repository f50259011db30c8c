//! The editor's marks for where a policy behaves differently than in OpenDC
//! ([`crate::policy::differences`]): each documented difference placed on the key of the policy
//! it is about (the weigher, `subsetSize`, `taskStopper`, ...; a prefab's name for a prefab).

use super::{guard, Answer};
use crate::diag::{Anchor, Diagnostic};
use crate::engine::Semantics;
use crate::input::json_text;
use crate::policy::differences::{differences, Part};
use serde_json::Value;

/// The documented differences from OpenDC that apply to the policy in `text` when it runs under
/// `semantics` (`classic` or `current`), as warnings placed where they apply. An empty list for
/// a text that is not a valid policy: `check` reports its problems.
pub fn opendc_differences(text: &str, semantics: &str) -> Answer<Vec<Diagnostic>> {
    let Some(semantics) = Semantics::parse(semantics) else {
        return Answer::Failure {
            errors: vec![Semantics::error("semantics", &semantics)],
        };
    };
    guard(|| {
        let Ok((policy, _)) = crate::policy::policy_from_text(text) else {
            return Answer::Success { value: vec![] };
        };
        let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let marks = differences(&policy, semantics)
            .into_iter()
            .map(|d| {
                let (path, anchor) = path_of(&value, d.part);
                let mut diagnostic =
                    Diagnostic::warning(path, format!("Where OpenDC differs: {}", d.text));
                diagnostic.anchor = anchor;
                diagnostic
            })
            .collect();
        Answer::Success {
            value: json_text::place(text, marks),
        }
    })
}

/// Where in the written policy a part is: the key itself when written, else the policy's
/// `type` (or a prefab's name, which stands for every part of its expansion).
fn path_of(policy: &Value, part: Part) -> (String, Anchor) {
    let has = |k: &str| policy.get(k).is_some();
    let fallback = ["policyName", "prefabName", "type"]
        .into_iter()
        .find(|k| has(k))
        .unwrap_or("type");
    let keyed = |k: &str| {
        if has(k) {
            k.to_string()
        } else {
            fallback.to_string()
        }
    };
    let path = match part {
        Part::Weigher(i) if has("weighers") => format!("weighers[{i}]"),
        Part::Filter(i) if has("filters") => format!("filters[{i}]"),
        Part::Weigher(_) | Part::Filter(_) | Part::Timeshift => fallback.to_string(),
        Part::SubsetSize => keyed("subsetSize"),
        Part::Memorize => keyed("memorize"),
        Part::Forecast if has("forecastSize") => "forecastSize".to_string(),
        Part::Forecast => keyed("forecast"),
        Part::TaskStopper => keyed("taskStopper"),
    };
    let anchor = if path.ends_with(']') {
        Anchor::Value
    } else {
        Anchor::Key
    };
    (path, anchor)
}

/// [`opendc_differences`] as JSON text.
pub fn opendc_differences_json_str(text: &str, semantics: &str) -> String {
    opendc_differences(text, semantics).to_json_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(text: &str, semantics: &str) -> Vec<Diagnostic> {
        match opendc_differences(text, semantics) {
            Answer::Success { value } => value,
            Answer::Failure { errors } => panic!("{errors:?}"),
        }
    }

    #[test]
    fn a_negative_core_ram_multiplier_is_marked_on_its_weigher_under_classic_only() {
        let text = "{\"type\": \"filter\",\n \"weighers\": [{\"type\": \"Ram\"}, {\"type\": \"CoreRam\", \"multiplier\": -1}]}";
        let classic = marks(text, "classic");
        let core_ram = classic
            .iter()
            .find(|d| d.message.contains("CoreRam weigher (SPEC 9.1)"))
            .expect("the CoreRam mark");
        assert_eq!(
            (core_ram.path.as_str(), core_ram.line, core_ram.column),
            ("weighers[1]", Some(2), Some(32))
        );
        assert!(!core_ram.is_error());
        // Current applies the multiplier twice, as OpenDC 3 does: no difference from OpenDC 3.
        assert!(marks(text, "current")
            .iter()
            .all(|d| !d.message.contains("CoreRam")));
    }

    #[test]
    fn a_prefab_is_marked_on_its_name_and_subset_size_follows_the_semantics() {
        let d = marks(
            r#"{"type": "prefab", "policyName": "TaskNumMemorizing"}"#,
            "classic",
        );
        assert_eq!(d.len(), 1);
        assert_eq!((d[0].path.as_str(), d[0].column), ("policyName", Some(20)));
        let text = r#"{"type": "filter", "subsetSize": 3}"#;
        assert!(marks(text, "classic")[0]
            .message
            .contains("OpenDC after v2.4f ignores subsetSize"));
        assert!(marks(text, "current")[0]
            .message
            .contains("ignored under Current"));
        assert!(
            marks("{", "classic").is_empty(),
            "check reports a broken policy"
        );
        assert!(matches!(
            opendc_differences(text, "Current"),
            Answer::Failure { .. }
        ));
    }
}
