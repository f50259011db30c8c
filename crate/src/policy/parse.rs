//! Reading a policy from its JSON: every problem reported with its path and position (SPEC 1.1).
//!
//! The reader walks a [`crate::json::Node`] tree, checks each object against the vocabulary of
//! [`catalog`], and keeps going after a problem so that one pass reports all of them. A policy is
//! produced only when there is no error; warnings never stop it.

use super::catalog::{self, Default, Field, Kind};
use super::prefab;
use super::spec::{Filter, Policy, TaskStopper, Timeshift, Weigher};
use crate::diag::{join_path, Diagnostic, Severity};
use crate::json::{Member, Node, Place, Value};

/// Collects the diagnostics of one document.
pub struct Reader<'a> {
    index: &'a dyn Place,
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> Reader<'a> {
    /// A reader placing diagnostics with `index`.
    pub fn new(index: &'a dyn Place) -> Self {
        Reader {
            index,
            diagnostics: Vec::new(),
        }
    }

    fn report(&mut self, severity: Severity, path: &str, offset: usize, message: String) {
        let d = Diagnostic {
            severity,
            ..Diagnostic::error(path, message)
        };
        self.diagnostics
            .push(self.index.place_diagnostic(d, offset));
    }

    /// Records an error at a byte offset.
    pub fn error(&mut self, path: &str, offset: usize, message: String) {
        self.report(Severity::Error, path, offset, message);
    }

    /// Records a warning at a byte offset.
    pub fn warning(&mut self, path: &str, offset: usize, message: String) {
        self.report(Severity::Warning, path, offset, message);
    }

    fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    /// Reads one policy at `path`. Returns it when it has no error.
    pub fn policy(&mut self, node: &Node, path: &str) -> Option<Policy> {
        let errors_before = self.error_count();
        let policy = self.policy_inner(node, path);
        (self.error_count() == errors_before)
            .then_some(policy)
            .flatten()
    }

    fn policy_inner(&mut self, node: &Node, path: &str) -> Option<Policy> {
        let Some(members) = node.as_object() else {
            self.error(
                path,
                node.offset,
                format!("expected a policy object, found {}", node.type_name()),
            );
            return None;
        };
        let type_path = join_path(path, "type");
        let Some(type_node) = find(members, "type") else {
            self.error(
                &type_path,
                node.offset,
                "the policy lacks the required field `type` (one of prefab, filter, timeshift)"
                    .into(),
            );
            return None;
        };
        let Some(kind) = type_node.as_str() else {
            self.error(
                &type_path,
                type_node.offset,
                format!(
                    "`type` must be a string (one of prefab, filter, timeshift), found {}",
                    type_node.type_name()
                ),
            );
            return None;
        };
        match kind {
            "prefab" => self.prefab(node, members, path),
            "filter" | "timeshift" => {
                self.explicit(members, node.offset, path, kind == "timeshift")
            }
            other => {
                let hint = did_you_mean(catalog::suggest(
                    other,
                    catalog::POLICY_TYPES.iter().copied(),
                ));
                self.error(
                    &type_path,
                    type_node.offset,
                    format!("unknown policy type `{other}`{hint}; expected one of prefab, filter, timeshift"),
                );
                None
            }
        }
    }

    fn prefab(&mut self, node: &Node, members: &[Member], path: &str) -> Option<Policy> {
        let allowed = ["type", "policyName", "prefabName"];
        for m in members {
            if allowed.contains(&m.key.as_str()) {
                continue;
            }
            let hint = if catalog::PREFAB_NAME_PITFALLS.contains(&m.key.to_lowercase().as_str()) {
                " (did you mean `policyName`? OpenDC ignores this key and runs Mem)".to_string()
            } else {
                did_you_mean(catalog::suggest(&m.key, allowed))
            };
            self.error(
                &join_path(path, &m.key),
                m.key_offset,
                format!("unknown key `{}` in a prefab policy{hint}; valid keys: type, policyName, prefabName", m.key),
            );
        }
        let named: Vec<&Member> = members
            .iter()
            .filter(|m| m.key == "policyName" || m.key == "prefabName")
            .collect();
        if named.len() > 1 {
            self.error(
                &join_path(path, &named[1].key),
                named[1].key_offset,
                "give either `policyName` or `prefabName`, not both".into(),
            );
            return None;
        }
        let Some(member) = named.first() else {
            self.warning(
                &join_path(path, "policyName"),
                node.offset,
                "the prefab has no `policyName`: it runs Mem, the default".into(),
            );
            return Some(prefab::default_policy());
        };
        let name_path = join_path(path, &member.key);
        let Some(name) = member.value.as_str() else {
            self.error(
                &name_path,
                member.value.offset,
                format!(
                    "`{}` must be a string naming a prefab, found {}",
                    member.key,
                    member.value.type_name()
                ),
            );
            return None;
        };
        match prefab::find(name) {
            Some(def) => Some(prefab::expand(def)),
            None => {
                let names = prefab::PREFABS.iter().map(|p| p.name);
                let hint = did_you_mean(catalog::suggest(name.trim(), names.clone()));
                self.error(
                    &name_path,
                    member.value.offset,
                    format!(
                        "unknown prefab `{name}`{hint}; valid prefabs: {}",
                        names.collect::<Vec<_>>().join(", ")
                    ),
                );
                None
            }
        }
    }

    fn explicit(
        &mut self,
        members: &[Member],
        object_offset: usize,
        path: &str,
        timeshift: bool,
    ) -> Option<Policy> {
        let scalars = if timeshift {
            catalog::TIMESHIFT_FIELDS
        } else {
            catalog::FILTER_POLICY_FIELDS
        };
        let mut allowed: Vec<&str> = vec!["type", "filters", "weighers"];
        allowed.extend(scalars.iter().map(|f| f.name));
        if timeshift {
            allowed.push("taskStopper");
        }
        let kind = if timeshift {
            "a timeshift policy"
        } else {
            "a filter policy"
        };
        self.unknown_keys(members, path, &allowed, kind);

        let filters = match find(members, "filters") {
            None => Some(vec![Filter::Compute]),
            Some(node) => self.list(node, &join_path(path, "filters"), Self::filter),
        };
        let weighers = match find(members, "weighers") {
            None => Some(vec![]),
            Some(node) => self.list(node, &join_path(path, "weighers"), Self::weigher),
        };
        let values = self.fields(members, object_offset, path, scalars);
        let task_stopper = if timeshift {
            match find(members, "taskStopper") {
                None => Some(None),
                Some(Node {
                    value: Value::Null, ..
                }) => Some(None),
                Some(node) => self
                    .task_stopper(node, &join_path(path, "taskStopper"))
                    .map(Some),
            }
        } else {
            Some(None)
        };
        self.memorize_warnings(members, path, scalars);
        let (filters, weighers, values, task_stopper) =
            (filters?, weighers?, values?, task_stopper?);
        let memorize = values.bool("memorize");
        Some(Policy {
            filters,
            weighers,
            subset_size: values.int("subsetSize") as u32,
            memorize,
            max_times_skipped: values.int("maxTimesSkipped") as u32,
            timeshift: timeshift.then(|| Timeshift {
                forecast: values.bool("forecast"),
                forecast_size: values.int("forecastSize") as u32,
                short_forecast_threshold: values.number("shortForecastThreshold"),
                long_forecast_threshold: values.number("longForecastThreshold"),
                window_size: values.int("windowSize") as u32,
                task_stopper,
            }),
        })
    }

    /// Warns about weighers and a `subsetSize` above 1 that the memorizing scheduler ignores.
    /// Read from the members themselves, so that the warnings are reported even when another
    /// field of the policy is wrong (SPEC 1.1: every problem is reported).
    fn memorize_warnings(&mut self, members: &[Member], path: &str, scalars: &[Field]) {
        let memorize = match find(members, "memorize") {
            Some(Node {
                value: Value::Bool(b),
                ..
            }) => *b,
            // Invalid, and reported as such: whether it memorizes is unknown.
            Some(_) => false,
            None => scalars
                .iter()
                .any(|f| f.name == "memorize" && f.default == Default::Bool(true)),
        };
        if !memorize {
            return;
        }
        if let Some(node) = find(members, "weighers")
            .filter(|n| matches!(&n.value, Value::Array(items) if !items.is_empty()))
        {
            self.warning(
                &join_path(path, "weighers"),
                node.offset,
                "weighers are ignored by the memorizing scheduler (set `memorize: false` to rank hosts)".into(),
            );
        }
        let subset_above_one = |n: &&Node| match &n.value {
            Value::Number(x) => x.as_i64().is_some_and(|i| i > 1 && i <= catalog::INT_MAX),
            _ => false,
        };
        if let Some(node) = find(members, "subsetSize").filter(subset_above_one) {
            self.warning(
                &join_path(path, "subsetSize"),
                node.offset,
                "subsetSize is ignored by the memorizing scheduler".into(),
            );
        }
    }

    fn task_stopper(&mut self, node: &Node, path: &str) -> Option<TaskStopper> {
        let Some(members) = node.as_object() else {
            self.error(
                path,
                node.offset,
                format!(
                    "`taskStopper` must be an object, found {}",
                    node.type_name()
                ),
            );
            return None;
        };
        let allowed: Vec<&str> = catalog::TASK_STOPPER_FIELDS
            .iter()
            .map(|f| f.name)
            .collect();
        self.unknown_keys(members, path, &allowed, "a task stopper");
        let values = self.fields(members, node.offset, path, catalog::TASK_STOPPER_FIELDS)?;
        Some(TaskStopper {
            forecast: values.bool("forecast"),
            forecast_size: values.int("forecastSize") as u32,
            forecast_threshold: values.number("forecastThreshold"),
            window_size: values.int("windowSize") as u32,
        })
    }

    fn list<T>(
        &mut self,
        node: &Node,
        path: &str,
        item: fn(&mut Self, &Node, &str) -> Option<T>,
    ) -> Option<Vec<T>> {
        let Value::Array(items) = &node.value else {
            self.error(
                path,
                node.offset,
                format!("expected a list, found {}", node.type_name()),
            );
            return None;
        };
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for (i, n) in items.iter().enumerate() {
            match item(self, n, &format!("{path}[{i}]")) {
                Some(v) => out.push(v),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// Reads the `type` of a filter or weigher object; `what` is `filter` or `weigher`.
    fn element_type<'n>(
        &mut self,
        node: &'n Node,
        path: &str,
        what: &str,
    ) -> Option<(&'n [Member], &'n Node, &'n str)> {
        let Some(members) = node.as_object() else {
            self.error(
                path,
                node.offset,
                format!(
                    "expected a {what} object like {{\"type\": \"Ram\"}}, found {}",
                    node.type_name()
                ),
            );
            return None;
        };
        let Some(type_node) = find(members, "type") else {
            self.error(
                &join_path(path, "type"),
                node.offset,
                format!("the {what} lacks the required field `type`"),
            );
            return None;
        };
        let Some(name) = type_node.as_str() else {
            self.error(
                &join_path(path, "type"),
                type_node.offset,
                format!(
                    "the {what} `type` must be a string, found {}",
                    type_node.type_name()
                ),
            );
            return None;
        };
        Some((members, type_node, name))
    }

    fn filter(&mut self, node: &Node, path: &str) -> Option<Filter> {
        let (members, type_node, name) = self.element_type(node, path, "filter")?;
        let type_path = join_path(path, "type");
        let Some(def) = catalog::filter_def(name) else {
            let names = catalog::FILTERS.iter().map(|f| f.name);
            let hint = did_you_mean(catalog::suggest(
                name,
                catalog::FILTERS.iter().flat_map(|f| [f.name, f.sdk]),
            ));
            self.error(
                &type_path,
                type_node.offset,
                format!(
                    "unknown filter `{name}`{hint}; valid filters: {}",
                    names.collect::<Vec<_>>().join(", ")
                ),
            );
            return None;
        };
        let mut allowed = vec!["type", "filterName"];
        allowed.extend(def.params.iter().map(|p| p.name));
        self.unknown_keys(members, path, &allowed, &format!("the {} filter", def.name));
        let mut ok = true;
        if let Some(fname) = find(members, "filterName") {
            if catalog::filter_def(fname.as_str().unwrap_or("")) != Some(def) {
                self.error(
                    &join_path(path, "filterName"),
                    fname.offset,
                    format!("`filterName` must repeat the filter's type `{name}`"),
                );
                ok = false;
            }
        }
        let values = self.fields(members, node.offset, path, def.params);
        if !ok {
            return None;
        }
        let values = values?;
        let filter = match def.name {
            "Compute" => Filter::Compute,
            "VCpu" => Filter::VCpu {
                allocation_ratio: values.number("allocationRatio"),
            },
            "VCpuCapacity" => Filter::VCpuCapacity,
            "Ram" => Filter::Ram {
                allocation_ratio: values.number("allocationRatio"),
            },
            "InstanceCount" => Filter::InstanceCount {
                limit: values.int("limit") as u32,
            },
            "SameHost" => Filter::SameHost,
            "DifferentHost" => Filter::DifferentHost,
            "VGpu" => Filter::VGpu {
                allocation_ratio: values.number("allocationRatio"),
            },
            other => {
                // A catalog entry without a variant: a defect of this program, which the test
                // `every_catalog_filter_reads_as_its_own_variant` catches; never a wrong filter.
                self.error(
                    &type_path,
                    type_node.offset,
                    format!("the filter `{other}` is in the catalog but not implemented"),
                );
                return None;
            }
        };
        match filter {
            Filter::Ram { allocation_ratio } if allocation_ratio != 1.0 => {
                let at = find(members, "allocationRatio").map_or(node.offset, |n| n.offset);
                self.warning(
                    &join_path(path, "allocationRatio"),
                    at,
                    format!(
                        "Ram allocationRatio {}: overcommitting memory is not supported (hosts may be provisioned beyond their memory, at no modelled cost)",
                        crate::diag::num(allocation_ratio)
                    ),
                );
            }
            Filter::SameHost | Filter::DifferentHost => {
                self.warning(
                    &type_path,
                    type_node.offset,
                    format!(
                        "the {} filter currently has no effect (tasks carry no scheduling hints)",
                        def.name
                    ),
                );
            }
            _ => {}
        }
        Some(filter)
    }

    fn weigher(&mut self, node: &Node, path: &str) -> Option<Weigher> {
        let (members, type_node, name) = self.element_type(node, path, "weigher")?;
        let Some(def) = catalog::weigher_def(name) else {
            let names = catalog::WEIGHERS.iter().map(|w| w.name);
            let hint = did_you_mean(catalog::suggest(
                name,
                catalog::WEIGHERS.iter().flat_map(|w| [w.name, w.sdk]),
            ));
            self.error(
                &join_path(path, "type"),
                type_node.offset,
                format!(
                    "unknown weigher `{name}`{hint}; valid weighers: {}",
                    names.collect::<Vec<_>>().join(", ")
                ),
            );
            return None;
        };
        self.unknown_keys(
            members,
            path,
            &["type", "multiplier"],
            &format!("the {} weigher", def.name),
        );
        let values = self.fields(members, node.offset, path, &[catalog::MULTIPLIER])?;
        Some(Weigher {
            kind: def.kind,
            multiplier: values.number("multiplier"),
        })
    }

    fn unknown_keys(&mut self, members: &[Member], path: &str, allowed: &[&str], what: &str) {
        for m in members {
            if allowed.contains(&m.key.as_str()) {
                continue;
            }
            let hint = did_you_mean(catalog::suggest(&m.key, allowed.iter().copied()));
            self.error(
                &join_path(path, &m.key),
                m.key_offset,
                format!(
                    "unknown key `{}` in {what}{hint}; valid keys: {}",
                    m.key,
                    allowed.join(", ")
                ),
            );
        }
    }

    /// Reads the scalar `fields` of the object at `object_offset`, with their defaults. `None`
    /// when any is invalid or a required one is missing (reported at the object's opening brace).
    fn fields(
        &mut self,
        members: &[Member],
        object_offset: usize,
        path: &str,
        fields: &[Field],
    ) -> Option<Values> {
        let mut values = Values(Vec::new());
        let mut ok = true;
        for field in fields {
            let field_path = join_path(path, field.name);
            let value = match find(members, field.name) {
                Some(node) => self.scalar(node, &field_path, field),
                None => match field.default {
                    Default::Bool(b) => Some(Scalar::Bool(b)),
                    Default::Int(i) => Some(Scalar::Int(i)),
                    Default::Number(x) => Some(Scalar::Number(x)),
                    Default::Required => {
                        self.error(
                            &field_path,
                            object_offset,
                            format!(
                                "missing the required field `{}` ({})",
                                field.name,
                                field.kind.expected()
                            ),
                        );
                        None
                    }
                },
            };
            match value {
                Some(v) => values.0.push((field.name, v)),
                None => ok = false,
            }
        }
        ok.then_some(values)
    }

    fn scalar(&mut self, node: &Node, path: &str, field: &Field) -> Option<Scalar> {
        let expected = field.kind.expected();
        let bad = |r: &mut Self, found: String| {
            r.error(
                path,
                node.offset,
                format!("`{}` must be {expected}, found {found}", field.name),
            );
            None
        };
        match (&field.kind, &node.value) {
            (Kind::Bool, Value::Bool(b)) => Some(Scalar::Bool(*b)),
            (Kind::Bool, _) => bad(self, node.type_name().into()),
            (Kind::Int { min, max }, Value::Number(n)) => match n.as_i64() {
                Some(i) if i >= *min && i <= *max => Some(Scalar::Int(i)),
                Some(_) => bad(self, n.text.clone()),
                None if n.value.fract() == 0.0
                    && n.value >= *min as f64
                    && n.value <= *max as f64 =>
                {
                    bad(
                        self,
                        format!("{} (write it without a fraction or exponent)", n.text),
                    )
                }
                None => bad(self, n.text.clone()),
            },
            (Kind::Positive, Value::Number(n)) if n.value > 0.0 => Some(Scalar::Number(n.value)),
            (Kind::Fraction, Value::Number(n)) if (0.0..=1.0).contains(&n.value) => {
                Some(Scalar::Number(n.value))
            }
            (Kind::Finite, Value::Number(n)) => Some(Scalar::Number(n.value)),
            (_, Value::Number(n)) => bad(self, n.text.clone()),
            (_, _) => bad(self, node.type_name().into()),
        }
    }
}

/// A scalar read from a document.
#[derive(Debug, Clone, Copy)]
enum Scalar {
    Bool(bool),
    Int(i64),
    Number(f64),
}

/// The scalars read from one object, by field name (every field present: given or default).
struct Values(Vec<(&'static str, Scalar)>);

impl Values {
    /// The value of the field `name`. Every field of the object's catalog entry is present
    /// (given or default), so an absent name is a misspelling in this program: it panics in
    /// debug builds (every test), and reads as 0 only in a release build.
    fn get(&self, name: &str) -> Scalar {
        let found = self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        debug_assert!(
            found.is_some(),
            "no field `{name}` was read; fields: {:?}",
            self.0
        );
        found.unwrap_or(Scalar::Int(0))
    }
    fn bool(&self, name: &str) -> bool {
        matches!(self.get(name), Scalar::Bool(true))
    }
    fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            Scalar::Int(i) => i,
            _ => 0,
        }
    }
    fn number(&self, name: &str) -> f64 {
        match self.get(name) {
            Scalar::Number(x) => x,
            Scalar::Int(i) => i as f64,
            Scalar::Bool(_) => 0.0,
        }
    }
}

fn find<'n>(members: &'n [Member], key: &str) -> Option<&'n Node> {
    members.iter().find(|m| m.key == key).map(|m| &m.value)
}

fn did_you_mean(suggestion: Option<&str>) -> String {
    suggestion.map_or(String::new(), |s| format!(" (did you mean `{s}`?)"))
}
