//! Power models (with OpenDC's defaults) and power sources with their carbon trace references.

use super::*;

impl Walk {
    pub(super) fn power_model(&mut self, v: &Value, path: &str) -> Option<PowerModel> {
        let obj = self.object(v, path, "a power model object")?;
        self.check_keys(obj, path, "powerModel");
        let types = POWER_MODEL_TYPES.join(", ");
        let kind = self.power_model_type(obj, path, &types)?;
        let sdk_experiment = self.experiment.is_some();
        let mut watts = |key: &str, default: Option<f64>| -> Option<f64> {
            match obj.get(key) {
                Some(v) => self.quantity(v, &join(path, key), Quantity::Power),
                None if default.is_some() => default,
                None => {
                    self.p.error(
                        path,
                        format!("expected \"{key}\" (W) for the {kind} power model"),
                    );
                    None
                }
            }
        };
        if kind == "constant" {
            if sdk_experiment {
                // OpenDC3 requires both bounds even for a constant model (SPEC 11.5).
                let (idle, max) = (watts("idlePower", None), watts("maxPower", None));
                let _ = (idle?, max?);
            }
            return Some(PowerModel::Constant {
                power: watts("power", Some(400.0))?,
            });
        }
        let (idle, max) = (watts("idlePower", None), watts("maxPower", None));
        let (idle, max) = (idle?, max?);
        if max < idle {
            self.p.error(
                join(path, "maxPower"),
                format!(
                    "maxPower ({} W) must be at least idlePower ({} W)",
                    crate::diag::num(max),
                    crate::diag::num(idle)
                ),
            );
            return None;
        }
        Some(match kind {
            "linear" => PowerModel::Linear { idle, max },
            "sqrt" => PowerModel::Sqrt { idle, max },
            "square" => PowerModel::Square { idle, max },
            "cubic" => PowerModel::Cubic { idle, max },
            "mse" => PowerModel::Mse {
                idle,
                max,
                calibration: self.positive(obj, path, "calibrationFactor", Some(1.0))?,
            },
            _ => {
                let asym_util = self.positive(obj, path, "asymUtil", None)?;
                let dvfs = match obj.get("dvfs") {
                    None => true,
                    Some(Value::Bool(b)) => *b,
                    Some(other) => {
                        self.p.error(
                            join(path, "dvfs"),
                            format!("expected true or false, found {}", json_type(other)),
                        );
                        return None;
                    }
                };
                PowerModel::Asymptotic {
                    idle,
                    max,
                    asym_util,
                    dvfs,
                }
            }
        })
    }

    /// The model's `type`: in an SDK experiment spelt exactly and `linear` when absent (OpenDC3's
    /// enum); elsewhere `type` or `modelType`, in any case.
    fn power_model_type(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        types: &str,
    ) -> Option<&'static str> {
        if self.experiment.is_some() && !obj.contains_key("type") {
            return Some("linear");
        }
        let (tv, tpath) = self.required(
            obj,
            path,
            &["type", "modelType"],
            &format!("the model: one of {types}"),
        )?;
        let Some(name) = tv.as_str() else {
            self.p.error(
                tpath,
                format!(
                    "expected the model's name, one of {types}; found {}",
                    json_type(tv)
                ),
            );
            return None;
        };
        let exact = self.experiment.is_some();
        let found = POWER_MODEL_TYPES.iter().copied().find(|t| {
            if exact {
                *t == name
            } else {
                t.eq_ignore_ascii_case(name.trim())
            }
        });
        if found.is_none() {
            let hint = suggest(name, &POWER_MODEL_TYPES)
                .map(|s| format!("; did you mean \"{s}\"?"))
                .unwrap_or_default();
            let case = if exact {
                " (OpenDC3 needs the exact lower-case name)"
            } else {
                ""
            };
            self.p.error(
                tpath,
                format!("unknown power model \"{name}\"{case}; expected one of {types}{hint}"),
            );
        }
        found
    }

    /// A finite number > 0, or `default` when absent (an error when there is none).
    pub(super) fn positive(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        key: &str,
        default: Option<f64>,
    ) -> Option<f64> {
        match obj.get(key) {
            None => {
                if default.is_none() {
                    self.p.error(
                        path,
                        format!(
                            "expected \"{key}\", a number > 0 (OpenDC's default 0 is not usable)"
                        ),
                    );
                }
                default
            }
            Some(v) => match v.as_f64() {
                Some(x) if x > 0.0 && x.is_finite() => Some(x),
                _ => {
                    self.p
                        .error(join(path, key), format!("expected a number > 0, found {v}"));
                    None
                }
            },
        }
    }

    /// A power source: its carbon reference is recorded for `cluster`.
    pub(super) fn power_source(&mut self, v: &Value, path: &str, cluster: &str) {
        let Some(obj) = self.object(v, path, "a power source object") else {
            return;
        };
        self.check_keys(obj, path, "powerSource");
        let _ = self.string(obj, path, "name");
        let reference = match (obj.get("carbonTracePath"), obj.get("carbon")) {
            (Some(_), Some(_)) => {
                self.p.error_at_key(
                    join(path, "carbon"),
                    "use either \"carbonTracePath\" (legacy) or \"carbon\" (SDK), not both",
                );
                return;
            }
            (Some(Value::Null), None) | (None, Some(Value::Null)) | (None, None) => None,
            (Some(Value::String(s)), None) => Some((s.clone(), join(path, "carbonTracePath"))),
            (Some(other), None) => {
                self.p.error(
                    join(path, "carbonTracePath"),
                    format!(
                        "expected the path of a carbon trace, found {}",
                        json_type(other)
                    ),
                );
                return;
            }
            (None, Some(c)) => self.carbon_reference(c, &join(path, "carbon")),
        };
        match reference {
            Some((name, at)) => self.carbon.push((name, at)),
            None => self.no_carbon.push(cluster.to_string()),
        }
    }

    /// SDK `{"type": "named", "name": ...}` or `{"type": "uri", "uri": ...}`.
    pub(super) fn carbon_reference(&mut self, v: &Value, path: &str) -> Option<(String, String)> {
        let obj = self.object(
            v,
            path,
            "a carbon reference such as {\"type\": \"named\", \"name\": ...}",
        )?;
        self.check_keys(obj, path, "carbon");
        let kind = self.string(obj, path, "type");
        let key = match kind.as_deref() {
            None | Some("named") => "name",
            Some("uri") => "uri",
            Some(other) => {
                self.p.error(
                    join(path, "type"),
                    format!(
                        "unknown carbon reference type \"{other}\"; expected \"named\" or \"uri\""
                    ),
                );
                return None;
            }
        };
        match self.string(obj, path, key) {
            Some(s) => Some((s, join(path, key))),
            None => {
                if !obj.contains_key(key) {
                    self.p.error(
                        path,
                        format!("expected \"{key}\": the carbon trace it refers to"),
                    );
                }
                None
            }
        }
    }

    /// The one carbon reference of the topology; two different ones are an error.
    pub(super) fn carbon_ref(&mut self) -> Option<String> {
        let (first, first_at) = self.carbon.first().cloned()?;
        if let Some((other, at)) = self.carbon.iter().find(|(n, _)| *n != first).cloned() {
            self.p.error(at, format!(
                "this names the carbon trace \"{other}\" but {first_at} names \"{first}\": a run has one carbon trace, so every cluster must name the same one"
            ));
            return None;
        }
        if let Some(c) = self.no_carbon.first().cloned() {
            let message = format!("{c} names no carbon trace; the trace \"{first}\" named at {first_at} is used for the whole topology");
            self.p.warn_once(
                "carbon-partial",
                Diagnostic::warning(c, message),
                Anchor::Value,
            );
        }
        Some(first)
    }
}
