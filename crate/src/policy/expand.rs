//! Writing a policy out as explicit JSON, every default present (SPEC 1.2). Reading the output
//! back gives the same [`Policy`], and so the same decisions.

use super::spec::{Filter, Policy, TaskStopper, Timeshift};
use serde_json::{json, Map, Value};

/// The explicit JSON of a policy: `type` `filter` or `timeshift`, every field written out, in the
/// order of the documentation. A timeshift policy without a task stopper has no `taskStopper`.
pub fn to_json(policy: &Policy) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), json!(policy.type_name()));
    out.insert(
        "filters".into(),
        Value::Array(policy.filters.iter().map(filter_json).collect()),
    );
    out.insert(
        "weighers".into(),
        Value::Array(
            policy
                .weighers
                .iter()
                .map(|w| json!({"type": w.kind.name(), "multiplier": w.multiplier}))
                .collect(),
        ),
    );
    out.insert("subsetSize".into(), json!(policy.subset_size));
    if let Some(ts) = &policy.timeshift {
        timeshift_fields(&mut out, ts);
    }
    out.insert("memorize".into(), json!(policy.memorize));
    out.insert("maxTimesSkipped".into(), json!(policy.max_times_skipped));
    if let Some(stopper) = policy
        .timeshift
        .as_ref()
        .and_then(|t| t.task_stopper.as_ref())
    {
        out.insert("taskStopper".into(), stopper_json(stopper));
    }
    Value::Object(out)
}

fn filter_json(filter: &Filter) -> Value {
    match filter {
        Filter::VCpu { allocation_ratio }
        | Filter::Ram { allocation_ratio }
        | Filter::VGpu { allocation_ratio } => {
            json!({"type": filter.name(), "allocationRatio": allocation_ratio})
        }
        Filter::InstanceCount { limit } => json!({"type": filter.name(), "limit": limit}),
        _ => json!({"type": filter.name()}),
    }
}

fn timeshift_fields(out: &mut Map<String, Value>, ts: &Timeshift) {
    out.insert("forecast".into(), json!(ts.forecast));
    out.insert("forecastSize".into(), json!(ts.forecast_size));
    out.insert(
        "shortForecastThreshold".into(),
        json!(ts.short_forecast_threshold),
    );
    out.insert(
        "longForecastThreshold".into(),
        json!(ts.long_forecast_threshold),
    );
    out.insert("windowSize".into(), json!(ts.window_size));
}

fn stopper_json(s: &TaskStopper) -> Value {
    json!({
        "forecast": s.forecast,
        "forecastSize": s.forecast_size,
        "forecastThreshold": s.forecast_threshold,
        "windowSize": s.window_size,
    })
}
