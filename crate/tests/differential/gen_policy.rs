//! Random policies for the differential scenarios: prefabs, filter policies (memorizing or
//! not, with random filters, weighers and `subsetSize`), and timeshift policies with small
//! forecast and window sizes, with or without a task stopper.

use super::generate::Prng;
use serde_json::{json, Map, Value};

/// Any kind of policy: a prefab, a filter policy (memorizing or not), or a timeshift policy
/// (with or without a task stopper).
pub fn policy(g: &mut Prng, memorizing: bool) -> Value {
    let r = g.range(0, 99);
    if memorizing {
        return memorizing_policy(g, r < 50);
    }
    if r < 16 {
        return json!({"type": "prefab", "policyName": g.pick(&PREFABS)});
    }
    let mut p = Map::new();
    let timeshift = r >= 42;
    p.insert(
        "type".into(),
        json!(if timeshift { "timeshift" } else { "filter" }),
    );
    if !g.chance(0.1) {
        p.insert("filters".into(), filters(g));
    }
    if g.chance(0.6) {
        p.insert("weighers".into(), weighers(g));
    }
    if g.chance(0.35) {
        p.insert("subsetSize".into(), json!(g.pick(&[1, 2, 3, 4, 100])));
    }
    if g.chance(if timeshift { 0.6 } else { 0.5 }) {
        p.insert("memorize".into(), json!(g.chance(0.5)));
    }
    if g.chance(0.8) {
        p.insert("maxTimesSkipped".into(), json!(g.range(0, 3)));
    }
    if timeshift {
        timeshift_fields(g, &mut p);
    }
    Value::Object(p)
}

/// A memorizing filter or timeshift policy with a small `maxTimesSkipped`.
fn memorizing_policy(g: &mut Prng, timeshift: bool) -> Value {
    let mut p = Map::new();
    p.insert(
        "type".into(),
        json!(if timeshift { "timeshift" } else { "filter" }),
    );
    if !g.chance(0.1) {
        p.insert("filters".into(), filters(g));
    }
    p.insert("memorize".into(), json!(true));
    p.insert("maxTimesSkipped".into(), json!(g.pick(&[0, 1, 2, 2, 2, 3])));
    if timeshift {
        timeshift_fields(g, &mut p);
    }
    Value::Object(p)
}

/// Every prefab of SPEC 5.
const PREFABS: [&str; 14] = [
    "Mem",
    "MemInv",
    "CoreMem",
    "CoreMemInv",
    "ActiveServers",
    "ActiveServersInv",
    "ProvisionedCores",
    "ProvisionedCoresInv",
    "Random",
    "TaskNumMemorizing",
    "Timeshift",
    "ProvisionedCpuGpuCores",
    "ProvisionedCpuGpuCoresInv",
    "GpuTaskMemorizing",
];

/// A filter list: mostly VCpu and Ram with a few others, in a random order.
fn filters(g: &mut Prng) -> Value {
    let mut out = Vec::new();
    if g.chance(0.85) {
        out.push(json!({"type": "VCpu", "allocationRatio": g.pick(&[1.0, 1.0, 0.5, 1.5, 2.0])}));
    }
    if g.chance(0.8) {
        out.push(json!({"type": "Ram", "allocationRatio": g.pick(&[1.0, 1.0, 1.5, 0.75])}));
    }
    for _ in 0..g.range(0, 2) {
        out.push(match g.range(0, 5) {
            0 => json!({"type": "Compute"}),
            1 => json!({"type": "VCpuCapacity"}),
            2 => json!({"type": "InstanceCount", "limit": g.range(1, 3)}),
            3 => json!({"type": g.pick(&["SameHost", "DifferentHost"])}),
            _ => json!({"type": "VGpu", "allocationRatio": g.pick(&[1.0, 2.0])}),
        });
    }
    for i in (1..out.len()).rev() {
        out.swap(i, g.range(0, i as i64) as usize);
    }
    json!(out)
}

/// 0-3 weighers with multipliers of both signs.
fn weighers(g: &mut Prng) -> Value {
    let kinds = [
        "Ram",
        "CoreRam",
        "InstanceCount",
        "VCpuCapacity",
        "VCpu",
        "VGpu",
    ];
    let out: Vec<Value> = (0..g.range(0, 3))
        .map(
            |_| json!({"type": g.pick(&kinds), "multiplier": g.pick(&[1.0, -1.0, 0.5, 2.0, -2.5])}),
        )
        .collect();
    json!(out)
}

/// The time-shifting fields, small sizes so that the trace's end and the window matter.
fn timeshift_fields(g: &mut Prng, p: &mut Map<String, Value>) {
    let thresholds = [0.0, 0.2, 0.35, 0.5, 0.6, 0.8, 1.0];
    p.insert("forecast".into(), json!(g.chance(0.5)));
    p.insert("forecastSize".into(), json!(g.range(1, 8)));
    p.insert("shortForecastThreshold".into(), json!(g.pick(&thresholds)));
    p.insert("longForecastThreshold".into(), json!(g.pick(&thresholds)));
    p.insert("windowSize".into(), json!(g.range(1, 10)));
    if g.chance(0.7) {
        p.insert(
            "taskStopper".into(),
            json!({"forecast": g.chance(0.5), "forecastSize": g.range(1, 8),
                "forecastThreshold": g.pick(&thresholds), "windowSize": g.range(1, 10)}),
        );
    }
}
