//! The policy language as typed values: what a policy JSON means once it has been read.
//!
//! A [`Policy`] is always explicit: prefabs are expanded when read (SPEC 5), every default is
//! filled in, so the engine never sees a prefab name and `expand` only has to print the value.

/// One filter and its parameters (SPEC 3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Filter {
    /// Keeps hosts that are up.
    Compute,
    /// Keeps hosts with enough cores under the allocation ratio.
    VCpu { allocation_ratio: f64 },
    /// Keeps hosts whose core speed covers the task's per-core demand.
    VCpuCapacity,
    /// Keeps hosts with enough memory under the allocation ratio.
    Ram { allocation_ratio: f64 },
    /// Keeps hosts running fewer than `limit` tasks.
    InstanceCount { limit: u32 },
    /// Accepted for compatibility; keeps every host.
    SameHost,
    /// Accepted for compatibility; keeps every host.
    DifferentHost,
    /// Keeps hosts with enough GPU cores under the allocation ratio.
    VGpu { allocation_ratio: f64 },
}

impl Filter {
    /// The filter's name as the documentation writes it (`VCpu`).
    pub fn name(&self) -> &'static str {
        match self {
            Filter::Compute => "Compute",
            Filter::VCpu { .. } => "VCpu",
            Filter::VCpuCapacity => "VCpuCapacity",
            Filter::Ram { .. } => "Ram",
            Filter::InstanceCount { .. } => "InstanceCount",
            Filter::SameHost => "SameHost",
            Filter::DifferentHost => "DifferentHost",
            Filter::VGpu { .. } => "VGpu",
        }
    }
}

/// What a weigher scores (SPEC 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeigherKind {
    Ram,
    CoreRam,
    InstanceCount,
    VCpuCapacity,
    VCpu,
    VGpu,
}

impl WeigherKind {
    /// The weigher's name as the documentation writes it.
    pub fn name(&self) -> &'static str {
        match self {
            WeigherKind::Ram => "Ram",
            WeigherKind::CoreRam => "CoreRam",
            WeigherKind::InstanceCount => "InstanceCount",
            WeigherKind::VCpuCapacity => "VCpuCapacity",
            WeigherKind::VCpu => "VCpu",
            WeigherKind::VGpu => "VGpu",
        }
    }
}

/// A weigher and its multiplier.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weigher {
    pub kind: WeigherKind,
    pub multiplier: f64,
}

/// Carbon-aware time-shifting (SPEC 7): when to defer deferrable tasks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timeshift {
    pub forecast: bool,
    pub forecast_size: u32,
    pub short_forecast_threshold: f64,
    pub long_forecast_threshold: f64,
    pub window_size: u32,
    pub task_stopper: Option<TaskStopper>,
}

/// The task stopper (SPEC 7.4): pauses running deferrable tasks when carbon intensity is high.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TaskStopper {
    pub forecast: bool,
    pub forecast_size: u32,
    pub forecast_threshold: f64,
    pub window_size: u32,
}

/// An explicit allocation policy: a filter policy, and the time-shifting part when it is a
/// timeshift policy.
#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    pub filters: Vec<Filter>,
    pub weighers: Vec<Weigher>,
    pub subset_size: u32,
    /// Use the memorizing scheduler (SPEC 6.3) instead of filter-and-rank.
    pub memorize: bool,
    pub max_times_skipped: u32,
    /// `Some` for a timeshift policy.
    pub timeshift: Option<Timeshift>,
}

impl Policy {
    /// `"filter"` or `"timeshift"`, the policy's `type` once expanded.
    pub fn type_name(&self) -> &'static str {
        if self.timeshift.is_some() {
            "timeshift"
        } else {
            "filter"
        }
    }

    /// True when any filter or weigher looks at GPUs.
    pub fn uses_gpus(&self) -> bool {
        self.filters
            .iter()
            .any(|f| matches!(f, Filter::VGpu { .. }))
            || self.weighers.iter().any(|w| w.kind == WeigherKind::VGpu)
    }

    /// A one-line description: `filter: Compute, VCpu(1), Ram(1); Ram(1)`.
    pub fn describe(&self) -> String {
        use crate::diag::num;
        let filters: Vec<String> = self
            .filters
            .iter()
            .map(|f| match f {
                Filter::VCpu {
                    allocation_ratio: r,
                }
                | Filter::Ram {
                    allocation_ratio: r,
                }
                | Filter::VGpu {
                    allocation_ratio: r,
                } => format!("{}({})", f.name(), num(*r)),
                Filter::InstanceCount { limit } => format!("{}({limit})", f.name()),
                _ => f.name().to_string(),
            })
            .collect();
        let weighers: Vec<String> = self
            .weighers
            .iter()
            .map(|w| format!("{}({})", w.kind.name(), num(w.multiplier)))
            .collect();
        let mut text = format!(
            "{}: filters [{}], weighers [{}]",
            self.type_name(),
            filters.join(", "),
            weighers.join(", ")
        );
        if self.memorize {
            text.push_str(&format!(
                ", memorizing (maxTimesSkipped {})",
                self.max_times_skipped
            ));
        } else if self.subset_size > 1 {
            text.push_str(&format!(", random among the best {}", self.subset_size));
        }
        if let Some(ts) = &self.timeshift {
            if ts.forecast {
                text.push_str(&format!(
                    ", defers on a {}-sample forecast (thresholds {} / {})",
                    ts.forecast_size,
                    num(ts.short_forecast_threshold),
                    num(ts.long_forecast_threshold)
                ));
            } else {
                text.push_str(&format!(", defers below a {}-sample mean", ts.window_size));
            }
            if ts.task_stopper.is_some() {
                text.push_str(", with a task stopper");
            }
        }
        text
    }
}
