//! The vocabulary of the policy language, as data: every field with its type, range, default and
//! meaning; every filter, weigher and prefab with its spellings.
//!
//! The parser checks documents against these tables, the JSON Schema for the page's editor is
//! generated from them and the README's tables describe them, so a field is defined once.

use super::spec::WeigherKind;

/// The type and range of a scalar field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    Bool,
    /// An integer in `[min, max]`.
    Int {
        min: i64,
        max: i64,
    },
    /// A finite number `> 0`.
    Positive,
    /// A number in `[0, 1]`.
    Fraction,
    /// Any finite number.
    Finite,
}

impl Kind {
    /// What a value of this kind must be, for messages: `an integer >= 1`.
    pub fn expected(&self) -> String {
        match self {
            Kind::Bool => "true or false".into(),
            Kind::Int { min, max } if *max == i32::MAX as i64 => format!("an integer >= {min}"),
            Kind::Int { min, max } => format!("an integer in [{min}, {max}]"),
            Kind::Positive => "a number > 0".into(),
            Kind::Fraction => "a number in [0, 1]".into(),
            Kind::Finite => "a finite number".into(),
        }
    }
}

/// A field's default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Default {
    Bool(bool),
    Int(i64),
    Number(f64),
    /// The field must be given.
    Required,
}

/// One scalar field of an object of the policy language.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field {
    pub name: &'static str,
    pub kind: Kind,
    pub default: Default,
    pub doc: &'static str,
}

/// OpenDC reads these as 32-bit integers.
pub const INT_MAX: i64 = i32::MAX as i64;

const fn int(name: &'static str, min: i64, default: i64, doc: &'static str) -> Field {
    Field {
        name,
        kind: Kind::Int { min, max: INT_MAX },
        default: Default::Int(default),
        doc,
    }
}

const fn flag(name: &'static str, default: bool, doc: &'static str) -> Field {
    Field {
        name,
        kind: Kind::Bool,
        default: Default::Bool(default),
        doc,
    }
}

const fn fraction(name: &'static str, default: f64, doc: &'static str) -> Field {
    Field {
        name,
        kind: Kind::Fraction,
        default: Default::Number(default),
        doc,
    }
}

pub const SUBSET_SIZE: Field = int(
    "subsetSize",
    1,
    1,
    "Pick at random among the best `subsetSize` ranked hosts (1: always the best). OpenDC 3 (the Current semantics) ignores it and draws nothing.",
);
pub const MAX_TIMES_SKIPPED: Field = int(
    "maxTimesSkipped",
    0,
    7,
    "Memorizing scheduler: after this many skips a task that does not fit blocks the queue.",
);

/// Scalar fields of a `filter` policy, besides `filters` and `weighers`.
pub const FILTER_POLICY_FIELDS: &[Field] = &[
    SUBSET_SIZE,
    flag(
        "memorize",
        false,
        "Use the memorizing scheduler: least-loaded fitting host, tasks that do not fit are passed over.",
    ),
    MAX_TIMES_SKIPPED,
];

/// Scalar fields of a `timeshift` policy, besides `filters`, `weighers` and `taskStopper`.
pub const TIMESHIFT_FIELDS: &[Field] = &[
    SUBSET_SIZE,
    flag(
        "forecast",
        true,
        "Judge the current carbon intensity against a forecast (true) or a running mean (false).",
    ),
    int(
        "forecastSize",
        1,
        24,
        "Number of future carbon samples in the forecast.",
    ),
    fraction(
        "shortForecastThreshold",
        0.2,
        "Quantile of the forecast below which it is low-carbon for short tasks (< 2 h).",
    ),
    fraction(
        "longForecastThreshold",
        0.35,
        "Quantile of the forecast below which it is low-carbon for long tasks (>= 2 h).",
    ),
    int(
        "windowSize",
        1,
        168,
        "Number of past carbon samples in the running mean.",
    ),
    flag(
        "memorize",
        true,
        "Use the memorizing scheduler for the tasks that are not deferred.",
    ),
    MAX_TIMES_SKIPPED,
];

/// Fields of a timeshift policy's `taskStopper`.
pub const TASK_STOPPER_FIELDS: &[Field] = &[
    flag(
        "forecast",
        true,
        "Judge the current carbon intensity against a forecast (true) or a running mean (false).",
    ),
    int(
        "forecastSize",
        1,
        24,
        "Number of future carbon samples in the forecast.",
    ),
    fraction(
        "forecastThreshold",
        0.6,
        "Quantile of the forecast above which running deferrable tasks are paused.",
    ),
    int(
        "windowSize",
        1,
        168,
        "Number of past carbon samples in the running mean.",
    ),
];

const fn ratio(doc: &'static str) -> Field {
    Field {
        name: "allocationRatio",
        kind: Kind::Positive,
        default: Default::Number(1.0),
        doc,
    }
}

/// A filter of the catalog.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FilterDef {
    /// The documentation's (and OpenDC 2 legacy) spelling.
    pub name: &'static str,
    /// OpenDC SDK's lower-camel spelling.
    pub sdk: &'static str,
    pub params: &'static [Field],
    pub doc: &'static str,
}

/// Every filter, in the order of SPEC 3.
pub const FILTERS: &[FilterDef] = &[
    FilterDef {
        name: "Compute",
        sdk: "compute",
        params: &[],
        doc: "Keeps hosts that are up.",
    },
    FilterDef {
        name: "VCpu",
        sdk: "vcpu",
        params: &[ratio("Cores may be provisioned up to cores x allocationRatio.")],
        doc: "Keeps hosts with at least the task's core count and enough unprovisioned cores.",
    },
    FilterDef {
        name: "VCpuCapacity",
        sdk: "vcpuCapacity",
        params: &[],
        doc: "Keeps hosts whose core speed is at least the task's capacity per core.",
    },
    FilterDef {
        name: "Ram",
        sdk: "ram",
        params: &[ratio("Memory may be provisioned up to memory x allocationRatio (values other than 1 are warned about).")],
        doc: "Keeps hosts with at least the task's memory and enough unprovisioned memory.",
    },
    FilterDef {
        name: "InstanceCount",
        sdk: "instanceCount",
        params: &[Field {
            name: "limit",
            kind: Kind::Int { min: 1, max: INT_MAX },
            default: Default::Required,
            doc: "Largest number of tasks a host may run.",
        }],
        doc: "Keeps hosts running fewer than `limit` tasks.",
    },
    FilterDef {
        name: "SameHost",
        sdk: "sameHost",
        params: &[],
        doc: "Accepted for compatibility; currently has no effect.",
    },
    FilterDef {
        name: "DifferentHost",
        sdk: "differentHost",
        params: &[],
        doc: "Accepted for compatibility; currently has no effect.",
    },
    FilterDef {
        name: "VGpu",
        sdk: "vgpu",
        params: &[ratio("GPU cores may be provisioned up to GPU cores x allocationRatio.")],
        doc: "Keeps hosts with at least the task's GPU count and enough unprovisioned GPU cores.",
    },
];

/// The weigher's multiplier.
pub const MULTIPLIER: Field = Field {
    name: "multiplier",
    kind: Kind::Finite,
    default: Default::Number(1.0),
    doc: "Scales the weigher's normalised score; negative prefers low raw scores.",
};

/// A weigher of the catalog.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WeigherDef {
    pub name: &'static str,
    pub sdk: &'static str,
    pub kind: WeigherKind,
    /// What the raw score is.
    pub doc: &'static str,
}

/// Every weigher, in the order of SPEC 4.
pub const WEIGHERS: &[WeigherDef] = &[
    WeigherDef {
        name: "Ram",
        sdk: "ram",
        kind: WeigherKind::Ram,
        doc: "available memory (MiB)",
    },
    WeigherDef {
        name: "CoreRam",
        sdk: "coreRam",
        kind: WeigherKind::CoreRam,
        doc: "available memory per core (MiB)",
    },
    WeigherDef {
        name: "InstanceCount",
        sdk: "instanceCount",
        kind: WeigherKind::InstanceCount,
        doc: "number of running tasks",
    },
    WeigherDef {
        name: "VCpuCapacity",
        sdk: "vcpuCapacity",
        kind: WeigherKind::VCpuCapacity,
        doc: "CPU capacity, cores x core speed (MHz)",
    },
    WeigherDef {
        name: "VCpu",
        sdk: "vcpu",
        kind: WeigherKind::VCpu,
        doc: "minus the provisioned cores",
    },
    WeigherDef {
        name: "VGpu",
        sdk: "vgpu",
        kind: WeigherKind::VGpu,
        doc: "minus the provisioned GPU cores",
    },
];

/// The three policy types.
pub const POLICY_TYPES: &[&str] = &["prefab", "filter", "timeshift"];

/// Keys that people write for a prefab's name but that OpenDC silently ignores.
pub const PREFAB_NAME_PITFALLS: &[&str] = &[
    "name",
    "scheduler",
    "prefab",
    "policy",
    "prefabname",
    "policyname",
];

/// Looks a filter up by its legacy or SDK spelling.
pub fn filter_def(name: &str) -> Option<&'static FilterDef> {
    FILTERS.iter().find(|f| f.name == name || f.sdk == name)
}

/// Looks a weigher up by its legacy or SDK spelling.
pub fn weigher_def(name: &str) -> Option<&'static WeigherDef> {
    WEIGHERS.iter().find(|w| w.name == name || w.sdk == name)
}

/// The closest of `candidates` to a misspelt `word`: equal ignoring case, or within an edit
/// distance of 2 (for words longer than 3 letters).
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = if c.to_lowercase() == lower {
            0
        } else {
            edit_distance(&lower, &c.to_lowercase())
        };
        let limit = if word.chars().count() > 3 { 2 } else { 0 };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance over chars (the readers' "did you mean" use it too).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(row[j]).min(row[j + 1])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_spellings_only() {
        assert_eq!(
            suggest("multipler", ["type", "multiplier"]),
            Some("multiplier")
        );
        assert_eq!(
            suggest("policyname", ["type", "policyName"]),
            Some("policyName")
        );
        assert_eq!(suggest("ram", ["Ram", "VCpu"]), Some("Ram"));
        assert_eq!(suggest("xyz", ["Ram", "VCpu"]), None);
        assert_eq!(suggest("banana", ["subsetSize"]), None);
    }

    #[test]
    fn every_filter_and_weigher_has_two_spellings_that_find_it() {
        for f in FILTERS {
            assert_eq!(filter_def(f.name), Some(f));
            assert_eq!(filter_def(f.sdk), Some(f));
        }
        for w in WEIGHERS {
            assert_eq!(weigher_def(w.name), Some(w));
            assert_eq!(weigher_def(w.sdk), Some(w));
        }
    }
}
