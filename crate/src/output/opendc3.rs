//! A run as an OpenDC3 (SDK) experiment (SPEC 11.11): the `experiment.json` value that `opendc
//! run` reads without `--legacy`, the notes on what OpenDC3 will do differently, and the
//! workload to write as `workload/tasks.parquet` + `workload/fragments.parquet` (its task ids
//! renumbered when OpenDC3 could not read them).
//!
//! Every reference in the file is relative to it (`workload`, `carbon.parquet`), so the folder
//! runs from any working directory, and reading it back with [`crate::experiment::load`] gives
//! the same hosts, host types, tasks, policy and seed, hence the same run.

use crate::diag::Diagnostic;
use crate::engine::Semantics;
use crate::model::{ClusterSpec, HostGroup, PowerModel, Topology, Workload};
use crate::policy::{catalog, prefab, Filter, Policy, TaskStopper, Timeshift};
use serde_json::{json, Map, Value};
use std::borrow::Cow;

/// The folder of the workload, relative to `experiment.json`.
pub const WORKLOAD_FOLDER: &str = "workload";
/// The carbon trace's file, relative to `experiment.json`.
pub const CARBON_FILE: &str = "carbon.parquet";
/// The experiment's `name`.
pub const NAME: &str = "policy-playground";
/// The quantum OpenDC3 schedules on, ms (it has no setting for it).
const OPENDC_QUANTUM_MS: i64 = 1000;
/// The `maxTimesSkipped` of OpenDC3's memorizing prefabs (it has no key for it).
const OPENDC_MAX_TIMES_SKIPPED: u32 = 7;

/// One policy to export: as read, and as the user wrote it (so that a prefab stays a prefab).
#[derive(Debug, Clone, Copy)]
pub struct PolicyEntry<'a> {
    pub policy: &'a Policy,
    /// The policy's JSON as written, when known.
    pub written: Option<&'a Value>,
}

/// What an export is made of: the run's inputs (host counts applied), its policies and options.
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    pub topology: &'a Topology,
    pub workload: &'a Workload,
    /// One entry of `allocationPolicies` each, in order.
    pub policies: &'a [PolicyEntry<'a>],
    pub seed: u64,
    pub quantum_ms: i64,
    /// Whether the run has a carbon trace (written beside the file as [`CARBON_FILE`]).
    pub has_carbon: bool,
    /// The semantics the playground run used.
    pub semantics: Semantics,
}

/// An exported experiment: the file's value, the notes for `NOTES.md`, and the workload to
/// write in [`WORKLOAD_FOLDER`] (borrowed unless its task ids were renumbered).
#[derive(Debug, Clone)]
pub struct Exported<'a> {
    pub experiment: Value,
    pub notes: Vec<String>,
    pub workload: Cow<'a, Workload>,
}

/// The SDK experiment of `run` (SPEC 11.11), or every reason OpenDC3 could not run it as the
/// playground did (each naming the field).
pub fn experiment<'a>(run: &Run<'a>) -> Result<Exported<'a>, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let topology = topology(run.topology, run.has_carbon);
    let mut policies = Vec::new();
    for (i, entry) in run.policies.iter().enumerate() {
        match sdk_policy(entry.policy, entry.written) {
            Ok(p) => policies.push(p),
            Err(message) => errors.push(Diagnostic::error(
                format!("allocationPolicies[{i}]"),
                message,
            )),
        }
    }
    if run.policies.is_empty() {
        errors.push(Diagnostic::error(
            "allocationPolicies",
            "an export needs at least one policy",
        ));
    }
    let topology = match topology {
        Ok(t) => Some(t),
        Err(mut e) => {
            errors.append(&mut e);
            None
        }
    };
    let Some(topology) = topology.filter(|_| errors.is_empty()) else {
        return Err(errors);
    };
    let (seed, seed_note) = initial_seed(run.seed);
    let (workload, workload_notes) = trace_workload(run.workload);
    let mut notes = vec![layout_note(run.has_carbon)];
    notes.extend(policy_notes(run));
    notes.extend(topology.notes);
    notes.extend(seed_note);
    notes.extend(workload_notes);
    Ok(Exported {
        experiment: json!({
            "name": NAME,
            "initialSeed": seed,
            "runs": 1,
            "topologies": [{"clusters": topology.clusters}],
            "workloads": [{"type": "trace", "source": {"type": "uri", "uri": WORKLOAD_FOLDER}}],
            "allocationPolicies": policies,
            "exportModels": [{"exportInterval": "3600 seconds"}],
        }),
        notes,
        workload,
    })
}

/// A quantity as OpenDC3's unit string: Rust's shortest round-trip `Display` of the f64 (never
/// an exponent), a blank, the unit (SPEC 11.11.1).
pub fn quantity(value: f64, unit: &str) -> String {
    format!("{value} {unit}")
}

/// `initialSeed`: the run's seed when it fits OpenDC3's 32-bit int, else 0 with a note.
fn initial_seed(seed: u64) -> (i32, Option<String>) {
    match i32::try_from(seed) {
        Ok(s) => (s, None),
        Err(_) => (0, Some(format!("The run's seed {seed} does not fit OpenDC3's 32-bit `initialSeed`: the file says 0, so reading it back runs seed 0, not this run (the random draws differ from OpenDC's in any case, SPEC 8)."))),
    }
}

// ---------------------------------------------------------------------------------------------
// Topology (SPEC 11.11.2-3)

/// The clusters of the file, and what the notes must say about them.
struct Clusters {
    clusters: Vec<Value>,
    notes: Vec<String>,
}

/// The topology's clusters: one host entry per host group, clusters `count` 1, the carbon trace
/// on one cluster (several are merged into the first when there is a trace).
fn topology(t: &Topology, has_carbon: bool) -> Result<Clusters, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    if let Some(name) = duplicate_host_name(t) {
        errors.push(Diagnostic::error("topology", format!("two hosts are named `{name}` once the host entries are expanded: OpenDC3 stops with \"Host with name {name} already exists\"; rename a host entry")));
    }
    let mut kept: Vec<(&ClusterSpec, Vec<Value>)> = Vec::new();
    let mut empty = Vec::new();
    for (c, cluster) in t.clusters.iter().enumerate() {
        let mut hosts = Vec::new();
        for (g, group) in cluster.groups.iter().enumerate() {
            if group.count == 0 {
                empty.push(cluster.group_key(group));
                continue;
            }
            match host(group) {
                Ok(h) => hosts.push(h),
                Err(message) => errors.push(Diagnostic::error(
                    format!("topology.clusters[{c}].hosts[{g}].gpu"),
                    message,
                )),
            }
        }
        if !cluster.groups.iter().all(|g| g.count == 0) {
            kept.push((cluster, hosts));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut notes = Vec::new();
    if !empty.is_empty() {
        notes.push(format!("Host entries with count 0 are left out ({}): OpenDC3 needs a count > 0, and they have no hosts in this run either.", empty.join(", ")));
    }
    let clusters = if has_carbon && kept.len() > 1 {
        notes.push(merge_note(&kept));
        let name = kept[0].0.name.clone();
        let hosts = kept.into_iter().flat_map(|(_, h)| h).collect();
        vec![cluster(&name, hosts, true)]
    } else {
        kept.into_iter()
            .map(|(c, hosts)| cluster(&c.name, hosts, has_carbon))
            .collect()
    };
    Ok(Clusters { clusters, notes })
}

/// The first host name that two hosts share after expansion (OpenDC3 refuses it).
fn duplicate_host_name(t: &Topology) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    t.hosts()
        .into_iter()
        .map(|h| h.name)
        .find(|n| !seen.insert(n.clone()))
}

fn merge_note(kept: &[(&ClusterSpec, Vec<Value>)]) -> String {
    let names: Vec<String> = kept.iter().map(|(c, _)| format!("`{}`", c.name)).collect();
    format!("The clusters {} are merged into one cluster named `{}`, host entries in their order, so host names and host types are unchanged: OpenDC3 accepts one cluster with a carbon trace and counts carbon only for it, while this run's trace covers every host. Results name that one cluster for every host.", names.join(", "), kept[0].0.name)
}

/// A cluster entry; its power source names the carbon trace when `carbon`.
fn cluster(name: &str, hosts: Vec<Value>, carbon: bool) -> Value {
    let mut c = Map::new();
    c.insert("name".into(), json!(name));
    c.insert("count".into(), json!(1));
    c.insert("hosts".into(), Value::Array(hosts));
    if carbon {
        c.insert(
            "powerSource".into(),
            json!({"name": "PowerSource", "carbon": {"type": "uri", "uri": CARBON_FILE}}),
        );
    }
    Value::Object(c)
}

/// A host entry of a host group: its name and count, one CPU of all its cores (the model keeps
/// no per-CPU split), memory, GPUs, and the full power model.
fn host(g: &HostGroup) -> Result<Value, String> {
    let mut h = Map::new();
    h.insert("name".into(), json!(g.name));
    h.insert("count".into(), json!(g.count));
    h.insert(
        "cpu".into(),
        json!({"coreCount": g.cores, "coreSpeed": quantity(g.core_speed_mhz, "MHz"), "count": 1}),
    );
    h.insert(
        "memory".into(),
        json!({"size": format!("{} MiB", g.memory_mib)}),
    );
    if let Some(gpu) = gpu(g)? {
        h.insert("gpu".into(), gpu);
    }
    h.insert("cpuPowerModel".into(), power_model(&g.power));
    Ok(Value::Object(h))
}

/// `gpu {coreCount, coreSpeed, count}` when the host has GPUs, all alike.
fn gpu(g: &HostGroup) -> Result<Option<Value>, String> {
    let Some(first) = g.gpus.first() else {
        return Ok(None);
    };
    let alike = g.gpus.iter().all(|x| {
        x.cores == first.cores && x.core_speed_mhz.to_bits() == first.core_speed_mhz.to_bits()
    });
    if !alike {
        return Err(format!("host `{}` has GPUs of different kinds: OpenDC3 describes a host's GPUs as count × one model (`gpu {{coreCount, coreSpeed, count}}`)", g.name));
    }
    Ok(Some(json!({
        "coreCount": first.cores,
        "coreSpeed": quantity(first.core_speed_mhz, "MHz"),
        "count": g.gpus.len(),
    })))
}

/// The full power model: both bounds even for `constant` (its power, idle and max all equal),
/// `power` OpenDC's 400 W elsewhere (only the constant model reads it, and the playground's
/// model keeps no other), and the parameters of `mse` and `asymptotic` as they are.
fn power_model(m: &PowerModel) -> Value {
    let (kind, idle, max, power) = match *m {
        PowerModel::Constant { power } => ("constant", power, power, power),
        PowerModel::Linear { idle, max } => ("linear", idle, max, 400.0),
        PowerModel::Sqrt { idle, max } => ("sqrt", idle, max, 400.0),
        PowerModel::Square { idle, max } => ("square", idle, max, 400.0),
        PowerModel::Cubic { idle, max } => ("cubic", idle, max, 400.0),
        PowerModel::Mse { idle, max, .. } => ("mse", idle, max, 400.0),
        PowerModel::Asymptotic { idle, max, .. } => ("asymptotic", idle, max, 400.0),
    };
    let calibration = match *m {
        PowerModel::Mse { calibration, .. } => calibration,
        _ => 1.0,
    };
    let (asym_util, dvfs) = match *m {
        PowerModel::Asymptotic {
            asym_util, dvfs, ..
        } => (asym_util, dvfs),
        _ => (0.0, true),
    };
    json!({
        "type": kind,
        "idlePower": quantity(idle, "W"),
        "maxPower": quantity(max, "W"),
        "power": quantity(power, "W"),
        "calibrationFactor": calibration,
        "asymUtil": asym_util,
        "dvfs": dvfs,
    })
}

// ---------------------------------------------------------------------------------------------
// Policies (SPEC 11.11.5)

/// A policy in OpenDC3's spelling: a prefab as `prefabName` with its exact name; a memorizing
/// filter policy as the prefab OpenDC3 has for it; any other `filter` or `timeshift` policy
/// with every key written, filters and weighers in lower camel case. The error says why
/// OpenDC3 cannot express the policy.
pub fn sdk_policy(policy: &Policy, written: Option<&Value>) -> Result<Value, String> {
    if let Some(name) = written_prefab(policy, written) {
        return Ok(json!({"type": "prefab", "prefabName": name}));
    }
    if policy.timeshift.is_none() && policy.memorize {
        return memorizing_prefab(policy)
            .map(|name| json!({"type": "prefab", "prefabName": name}))
            .ok_or_else(|| format!("OpenDC3 has no memorizing filter policy with these filters (it has TaskNumMemorizing: compute, vcpu(1), ram(1); and GpuTaskMemorizing: compute, vcpu(1), vgpu(1), ram(1); both with maxTimesSkipped {OPENDC_MAX_TIMES_SKIPPED}), found filters [{}] and maxTimesSkipped {}", filter_names(policy), policy.max_times_skipped));
    }
    if policy.memorize && policy.max_times_skipped != OPENDC_MAX_TIMES_SKIPPED {
        return Err(format!("`maxTimesSkipped` is {}: OpenDC3's memorizing scheduler always skips a task {OPENDC_MAX_TIMES_SKIPPED} times and has no key for it; set it to {OPENDC_MAX_TIMES_SKIPPED} or `memorize` to false", policy.max_times_skipped));
    }
    Ok(explicit(policy))
}

/// The exact prefab name when the policy was written as a prefab and reads as that prefab.
fn written_prefab(policy: &Policy, written: Option<&Value>) -> Option<&'static str> {
    let w = written?;
    if w.get("type").and_then(Value::as_str) != Some("prefab") {
        return None;
    }
    let name = ["prefabName", "policyName"]
        .iter()
        .find_map(|k| w.get(*k).and_then(Value::as_str))
        .unwrap_or("Mem");
    let def = prefab::find(name)?;
    (prefab::expand(def) == *policy).then_some(def.name)
}

/// The memorizing prefab whose filters and `maxTimesSkipped` the policy has (its weighers and
/// `subsetSize` play no part in memorizing, SPEC 6.3).
fn memorizing_prefab(policy: &Policy) -> Option<&'static str> {
    ["TaskNumMemorizing", "GpuTaskMemorizing"]
        .into_iter()
        .find(|name| {
            prefab::find(name).is_some_and(|def| {
                let p = prefab::expand(def);
                p.filters == policy.filters && p.max_times_skipped == policy.max_times_skipped
            })
        })
}

fn filter_names(policy: &Policy) -> String {
    policy
        .filters
        .iter()
        .map(|f| {
            sdk_filter(f)["type"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A `filter` or `timeshift` policy with every key OpenDC3 knows, in the order of the
/// documentation; `memorize` only in a timeshift policy (a filter policy has no such key).
fn explicit(policy: &Policy) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), json!(policy.type_name()));
    out.insert(
        "filters".into(),
        Value::Array(policy.filters.iter().map(sdk_filter).collect()),
    );
    let weighers = policy.weighers.iter().map(|w| {
        let name = w.kind.name();
        let sdk = catalog::weigher_def(name).map_or(name, |d| d.sdk);
        json!({"type": sdk, "multiplier": w.multiplier})
    });
    out.insert("weighers".into(), Value::Array(weighers.collect()));
    out.insert("subsetSize".into(), json!(policy.subset_size));
    if let Some(ts) = &policy.timeshift {
        timeshift_fields(&mut out, ts, policy.memorize);
    }
    Value::Object(out)
}

fn sdk_filter(f: &Filter) -> Value {
    let sdk = catalog::filter_def(f.name()).map_or(f.name(), |d| d.sdk);
    match f {
        Filter::VCpu { allocation_ratio }
        | Filter::Ram { allocation_ratio }
        | Filter::VGpu { allocation_ratio } => {
            json!({"type": sdk, "allocationRatio": allocation_ratio})
        }
        Filter::InstanceCount { limit } => json!({"type": sdk, "limit": limit}),
        _ => json!({"type": sdk}),
    }
}

fn timeshift_fields(out: &mut Map<String, Value>, ts: &Timeshift, memorize: bool) {
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
    out.insert("memorize".into(), json!(memorize));
    if let Some(s) = &ts.task_stopper {
        out.insert("taskStopper".into(), stopper(s));
    }
}

fn stopper(s: &TaskStopper) -> Value {
    json!({
        "forecast": s.forecast,
        "forecastSize": s.forecast_size,
        "forecastThreshold": s.forecast_threshold,
        "windowSize": s.window_size,
    })
}

// ---------------------------------------------------------------------------------------------
// The workload (SPEC 11.11.4, 11.11.9)

/// The workload as OpenDC3's trace reader must get it, and the notes on what was changed:
/// task ids renumbered when they are not distinct int32s, and one fragment made for each task
/// that has none. Borrowed when nothing changes.
fn trace_workload(w: &Workload) -> (Cow<'_, Workload>, Vec<String>) {
    let mut notes = Vec::new();
    let mut owned = renumbered(w).map(|(out, original)| {
        notes.push(renumbering_note(&original));
        out
    });
    let bare = w.tasks.iter().filter(|t| t.fragments.is_empty()).count();
    if bare > 0 {
        with_fragments(owned.get_or_insert_with(|| w.clone()));
        notes.push(format!("{bare} tasks have no fragments: each is written with one fragment of its duration at its cpuCapacity, which is how the playground runs it (OpenDC's trace reader drops a task without fragments)."));
    }
    (owned.map_or(Cow::Borrowed(w), Cow::Owned), notes)
}

/// Gives every task without fragments one: its duration at its CPU capacity (SPEC 6.4: such a
/// task runs at its capacity for its duration).
pub fn with_fragments(w: &mut Workload) {
    for t in &mut w.tasks {
        if t.fragments.is_empty() {
            let at = w.fragments.begin_task();
            w.fragments.push(t.duration_ms, t.cpu_capacity_mhz);
            t.fragments = at..w.fragments.end();
        }
    }
}

/// The workload with every task renumbered 0..n-1 in queue order (stable on submission time),
/// and the original id of each new id, when some id is not a distinct canonical int32 (what
/// OpenDC3's trace reader needs); `None` when the ids can be written as they are.
pub fn renumbered(w: &Workload) -> Option<(Workload, Vec<String>)> {
    let mut seen = std::collections::HashSet::new();
    let readable = w.tasks.iter().all(|t| {
        let canonical = t.id.parse::<i32>().is_ok_and(|i| i.to_string() == t.id);
        canonical && seen.insert(t.id.as_str())
    });
    if readable {
        return None;
    }
    let mut order: Vec<usize> = (0..w.tasks.len()).collect();
    order.sort_by_key(|&i| w.tasks[i].submission_ms);
    let mut out = w.clone();
    let mut original = Vec::with_capacity(order.len());
    for (new_id, &i) in order.iter().enumerate() {
        original.push(w.tasks[i].id.clone());
        out.tasks[i].id = new_id.to_string();
        out.tasks[i].name = new_id.to_string();
    }
    Some((out, original))
}

fn renumbering_note(original: &[String]) -> String {
    let mut note = format!("Task ids: OpenDC3's trace reader needs distinct 32-bit integer ids, and these are not, so every task is renumbered 0..{} in queue order (submission time, then input order). New id -> original id:", original.len().saturating_sub(1));
    for (new_id, id) in original.iter().enumerate() {
        note.push_str(&format!("\n{new_id} -> {id}"));
    }
    note
}

// ---------------------------------------------------------------------------------------------
// Notes (SPEC 11.11.7)

fn layout_note(has_carbon: bool) -> String {
    let carbon = if has_carbon {
        " and the carbon trace `carbon.parquet`"
    } else {
        ""
    };
    format!("Run it with `opendc run experiment.json`, without `--legacy`, from any folder: the workload folder `workload/` (tasks.parquet, fragments.parquet){carbon} are referenced relative to experiment.json.")
}

/// The notes of every policy, merged by [`merge_policy_notes`].
fn policy_notes(run: &Run) -> Vec<String> {
    merge_policy_notes(
        run.policies
            .iter()
            .map(|entry| one_policy_notes(run, entry.policy))
            .collect(),
    )
}

/// The notes of several policies (one list per `allocationPolicies` entry) as one list: a
/// note that holds for every policy once, unmarked; the others prefixed with the entries they
/// concern (`allocationPolicies[0, 2]: ...`). Order of first appearance, so the same policies
/// give the same notes.
pub fn merge_policy_notes(per_policy: Vec<Vec<String>>) -> Vec<String> {
    let all = per_policy.len();
    let mut notes: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, list) in per_policy.into_iter().enumerate() {
        for note in list {
            match notes.iter_mut().find(|(n, _)| *n == note) {
                Some((_, at)) if at.last() != Some(&i) => at.push(i),
                Some(_) => {}
                None => notes.push((note, vec![i])),
            }
        }
    }
    notes
        .into_iter()
        .map(|(note, at)| {
            if at.len() == all {
                note
            } else {
                let list: Vec<String> = at.iter().map(|i| i.to_string()).collect();
                format!("allocationPolicies[{}]: {note}", list.join(", "))
            }
        })
        .collect()
}

/// What OpenDC3 does differently with one policy: Current's rules, the draw it does not make,
/// its fixed quantum, and the SPEC 9 notes ([`crate::api::opendc_notes`]) but their legacy
/// file layout and quantum (said here for OpenDC3).
fn one_policy_notes(run: &Run, policy: &Policy) -> Vec<String> {
    let mut notes = vec![match run.semantics {
        Semantics::Current => "OpenDC3 decides with the Current rules (SPEC 11.12), as this run did.".to_string(),
        Semantics::Classic => "OpenDC3 decides with the Current rules (SPEC 11.12), and this run was Classic (SPEC 1-10): compare with this run under Current (`--semantics current`, or the page's Current semantics) before comparing figures.".to_string(),
    }];
    let filter_scheduler = policy.timeshift.is_none() && !policy.memorize;
    if filter_scheduler && policy.subset_size > 1 {
        let random = if policy.subset_size == i32::MAX as u32 {
            " (the Random prefab)"
        } else {
            ""
        };
        notes.push(format!("subsetSize {}{random}: OpenDC3's filter scheduler ignores subsetSize and draws nothing.", policy.subset_size));
    }
    if run.quantum_ms != OPENDC_QUANTUM_MS {
        notes.push(format!("The scheduling quantum of {} ms has no setting in OpenDC3: it schedules every {OPENDC_QUANTUM_MS} ms (ComputeSteps.kt:44).", run.quantum_ms));
    }
    let spec9 =
        crate::api::opendc_notes::notes(policy, crate::sim::DEFAULT_QUANTUM_MS, run.has_carbon);
    // The first SPEC 9 note describes the legacy files (topology.json beside the experiment).
    notes.extend(spec9.into_iter().skip(1));
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GpuSpec, TaskSpec};
    use crate::policy::{Weigher, WeigherKind};

    fn group(name: &str, count: u32) -> HostGroup {
        HostGroup {
            name: name.into(),
            count,
            cores: 16,
            core_speed_mhz: 2100.0,
            memory_mib: 65536,
            gpus: vec![],
            power: PowerModel::Linear {
                idle: 32.0,
                max: 180.0,
            },
        }
    }

    fn topology_of(clusters: Vec<(&str, Vec<HostGroup>)>) -> Topology {
        Topology {
            clusters: clusters
                .into_iter()
                .map(|(name, groups)| ClusterSpec {
                    name: name.into(),
                    groups,
                })
                .collect(),
            ..Topology::default()
        }
    }

    fn task(id: &str, submission_ms: i64) -> TaskSpec {
        TaskSpec {
            id: id.into(),
            name: format!("task {id}"),
            submission_ms,
            duration_ms: 1000,
            cpu_count: 1,
            cpu_capacity_mhz: 1000.0,
            memory_mib: 1,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable: false,
            deadline_ms: None,
            fragments: 0..0,
        }
    }

    /// The tasks, each with one fragment of its duration at its capacity.
    fn workload(tasks: Vec<TaskSpec>) -> Workload {
        let mut w = Workload {
            tasks,
            ..Workload::default()
        };
        with_fragments(&mut w);
        w
    }

    fn mem() -> Policy {
        prefab::default_policy()
    }

    fn run<'a>(t: &'a Topology, w: &'a Workload, p: &'a [PolicyEntry<'a>]) -> Run<'a> {
        Run {
            topology: t,
            workload: w,
            policies: p,
            seed: 0,
            quantum_ms: 1000,
            has_carbon: false,
            semantics: Semantics::Classic,
        }
    }

    fn filter_policy(filters: Vec<Filter>, memorize: bool, max_times_skipped: u32) -> Policy {
        Policy {
            filters,
            weighers: vec![Weigher {
                kind: WeigherKind::Ram,
                multiplier: 1.0,
            }],
            subset_size: 1,
            memorize,
            max_times_skipped,
            timeshift: None,
        }
    }

    const ONE: f64 = 1.0;

    fn task_num_filters() -> Vec<Filter> {
        vec![
            Filter::Compute,
            Filter::VCpu {
                allocation_ratio: ONE,
            },
            Filter::Ram {
                allocation_ratio: ONE,
            },
        ]
    }

    /// SPEC 11.6's number grammar `-?[0-9]+(\.[0-9]+)?` followed by a blank and the unit.
    fn is_unit_string(s: &str, unit: &str) -> bool {
        let Some(number) = s.strip_suffix(&format!(" {unit}")) else {
            return false;
        };
        let digits = number.strip_prefix('-').unwrap_or(number);
        let mut parts = digits.splitn(2, '.');
        let whole = parts.next().unwrap_or("");
        let ok = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
        ok(whole) && parts.next().is_none_or(ok)
    }

    #[test]
    fn quantities_are_shortest_round_trip_decimals_without_exponents() {
        assert_eq!(quantity(2100.0, "MHz"), "2100 MHz");
        assert_eq!(quantity(2.5, "W"), "2.5 W");
        assert_eq!(quantity(0.1 + 0.2, "W"), "0.30000000000000004 W");
        assert_eq!(quantity(1e21, "W"), "1000000000000000000000 W");
        assert_eq!(quantity(1e-7, "MHz"), "0.0000001 MHz");
        for (v, unit) in [(1e21, "W"), (1e-7, "MHz"), (0.1 + 0.2, "W"), (-3.0, "W")] {
            let s = quantity(v, unit);
            assert!(is_unit_string(&s, unit), "{s}");
            let back: f64 = s.trim_end_matches(unit).trim().parse().expect("a number");
            assert_eq!(back.to_bits(), v.to_bits(), "{s} round-trips");
        }
        assert!(
            !is_unit_string("1e21 W", "W"),
            "the checker refuses exponents"
        );
    }

    #[test]
    fn a_host_group_is_one_entry_with_units_and_the_full_power_model() {
        let mut g = group("H01", 4);
        g.power = PowerModel::Constant { power: 250.5 };
        g.gpus = vec![
            GpuSpec {
                cores: 128,
                core_speed_mhz: 1500.0,
            };
            2
        ];
        let h = host(&g).expect("alike GPUs");
        assert_eq!(
            serde_json::to_string(&h).expect("json"),
            r#"{"name":"H01","count":4,"cpu":{"coreCount":16,"coreSpeed":"2100 MHz","count":1},"memory":{"size":"65536 MiB"},"gpu":{"coreCount":128,"coreSpeed":"1500 MHz","count":2},"cpuPowerModel":{"type":"constant","idlePower":"250.5 W","maxPower":"250.5 W","power":"250.5 W","calibrationFactor":1.0,"asymUtil":0.0,"dvfs":true}}"#
        );
        let m = power_model(&PowerModel::Asymptotic {
            idle: 10.0,
            max: 20.0,
            asym_util: 0.3,
            dvfs: false,
        });
        assert_eq!(
            m,
            json!({"type": "asymptotic", "idlePower": "10 W", "maxPower": "20 W", "power": "400 W",
                   "calibrationFactor": 1.0, "asymUtil": 0.3, "dvfs": false})
        );
        let m = power_model(&PowerModel::Mse {
            idle: 1.0,
            max: 2.0,
            calibration: 1.5,
        });
        assert_eq!(
            (m["type"].clone(), m["calibrationFactor"].clone()),
            (json!("mse"), json!(1.5))
        );
        g.gpus[1].cores = 64;
        let e = host(&g).expect_err("GPUs of two kinds");
        assert!(e.contains("count × one model"), "{e}");
    }

    #[test]
    fn clusters_with_a_carbon_trace_are_merged_into_the_first() {
        let t = topology_of(vec![
            ("rack-A", vec![group("small", 4)]),
            ("rack-B", vec![group("large", 2), group("bigmem", 1)]),
        ]);
        let merged = topology(&t, true).expect("valid");
        assert_eq!(merged.clusters.len(), 1);
        let c = &merged.clusters[0];
        assert_eq!(c["name"], "rack-A");
        assert_eq!(c["count"], 1);
        let names: Vec<&str> = c["hosts"]
            .as_array()
            .expect("hosts")
            .iter()
            .map(|h| h["name"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(names, ["small", "large", "bigmem"]);
        assert_eq!(
            c["powerSource"],
            json!({"name": "PowerSource", "carbon": {"type": "uri", "uri": "carbon.parquet"}})
        );
        assert_eq!(merged.notes.len(), 1);
        assert!(
            merged.notes[0].contains("`rack-A`, `rack-B` are merged"),
            "{:?}",
            merged.notes
        );

        let separate = topology(&t, false).expect("valid");
        assert_eq!(separate.clusters.len(), 2);
        assert!(separate.notes.is_empty());
        assert!(separate
            .clusters
            .iter()
            .all(|c| c.get("powerSource").is_none()));
        let one = topology(&topology_of(vec![("C01", vec![group("H01", 3)])]), true).expect("ok");
        assert_eq!(
            one.clusters[0]["powerSource"]["carbon"]["uri"],
            "carbon.parquet"
        );
        assert!(one.notes.is_empty(), "one cluster is not merged");
    }

    #[test]
    fn empty_host_entries_are_left_out_and_colliding_names_refused() {
        let t = topology_of(vec![
            ("a", vec![group("x", 0), group("y", 1)]),
            ("b", vec![group("z", 0)]),
        ]);
        let c = topology(&t, true).expect("valid");
        assert_eq!(c.clusters.len(), 1, "b has no host left, nothing to merge");
        assert_eq!(c.clusters[0]["hosts"].as_array().map(Vec::len), Some(1));
        assert!(c.notes[0].contains("a/x, b/z"), "{:?}", c.notes);
        // `H` twice gives H and H-0; a second entry named H-0 collides.
        let t = topology_of(vec![("a", vec![group("H", 2), group("H-0", 1)])]);
        let Err(e) = topology(&t, false) else {
            panic!("a collision is refused")
        };
        assert!(
            e[0].message.contains("Host with name H-0 already exists"),
            "{e:?}"
        );
    }

    #[test]
    fn a_written_prefab_keeps_its_exact_name() {
        let written = json!({"type": "prefab", "policyName": " mem "});
        assert_eq!(
            sdk_policy(&mem(), Some(&written)),
            Ok(json!({"type": "prefab", "prefabName": "Mem"}))
        );
        let random = prefab::find("random").map(prefab::expand).expect("Random");
        let written = json!({"type": "prefab", "prefabName": "RANDOM"});
        assert_eq!(
            sdk_policy(&random, Some(&written)),
            Ok(json!({"type": "prefab", "prefabName": "Random"}))
        );
        // Without the written form, Mem is written out in full.
        assert_eq!(
            sdk_policy(&mem(), None),
            Ok(json!({"type": "filter",
                      "filters": [{"type": "vcpu", "allocationRatio": 1.0}, {"type": "ram", "allocationRatio": 1.0}],
                      "weighers": [{"type": "ram", "multiplier": 1.0}], "subsetSize": 1}))
        );
    }

    #[test]
    fn a_filter_policy_spells_every_filter_and_weigher_the_sdk_way() {
        use WeigherKind as W;
        let weigher = |kind, multiplier| Weigher { kind, multiplier };
        let p = Policy {
            filters: vec![
                Filter::Compute,
                Filter::VCpu {
                    allocation_ratio: 2.0,
                },
                Filter::VCpuCapacity,
                Filter::Ram {
                    allocation_ratio: 1.5,
                },
                Filter::InstanceCount { limit: 4 },
                Filter::SameHost,
                Filter::DifferentHost,
                Filter::VGpu {
                    allocation_ratio: 0.5,
                },
            ],
            weighers: vec![
                weigher(W::Ram, 1.0),
                weigher(W::CoreRam, -1.0),
                weigher(W::InstanceCount, 2.0),
                weigher(W::VCpuCapacity, -0.5),
                weigher(W::VCpu, 3.0),
                weigher(W::VGpu, 0.25),
            ],
            subset_size: 3,
            memorize: false,
            max_times_skipped: 2,
            timeshift: None,
        };
        let text = serde_json::to_string(&sdk_policy(&p, None).expect("exportable")).expect("json");
        assert_eq!(
            text,
            r#"{"type":"filter","filters":[{"type":"compute"},{"type":"vcpu","allocationRatio":2.0},{"type":"vcpuCapacity"},{"type":"ram","allocationRatio":1.5},{"type":"instanceCount","limit":4},{"type":"sameHost"},{"type":"differentHost"},{"type":"vgpu","allocationRatio":0.5}],"weighers":[{"type":"ram","multiplier":1.0},{"type":"coreRam","multiplier":-1.0},{"type":"instanceCount","multiplier":2.0},{"type":"vcpuCapacity","multiplier":-0.5},{"type":"vcpu","multiplier":3.0},{"type":"vgpu","multiplier":0.25}],"subsetSize":3}"#
        );
    }

    #[test]
    fn a_timeshift_policy_writes_every_key_and_its_task_stopper() {
        let p = Policy {
            timeshift: Some(Timeshift {
                forecast: false,
                forecast_size: 12,
                short_forecast_threshold: 0.1,
                long_forecast_threshold: 0.4,
                window_size: 48,
                task_stopper: Some(TaskStopper {
                    forecast: true,
                    forecast_size: 6,
                    forecast_threshold: 0.7,
                    window_size: 24,
                }),
            }),
            ..filter_policy(vec![Filter::Compute], true, 7)
        };
        let text = serde_json::to_string(&sdk_policy(&p, None).expect("exportable")).expect("json");
        assert_eq!(
            text,
            r#"{"type":"timeshift","filters":[{"type":"compute"}],"weighers":[{"type":"ram","multiplier":1.0}],"subsetSize":1,"forecast":false,"forecastSize":12,"shortForecastThreshold":0.1,"longForecastThreshold":0.4,"windowSize":48,"memorize":true,"taskStopper":{"forecast":true,"forecastSize":6,"forecastThreshold":0.7,"windowSize":24}}"#
        );
        // maxTimesSkipped has no key in OpenDC3: only 7 can be exported while memorizing...
        let odd = Policy {
            max_times_skipped: 5,
            ..p.clone()
        };
        let e = sdk_policy(&odd, None).expect_err("maxTimesSkipped 5");
        assert!(e.contains("`maxTimesSkipped` is 5"), "{e}");
        // ...and it does not matter without memorizing.
        let plain = Policy {
            memorize: false,
            ..odd
        };
        let v = sdk_policy(&plain, None).expect("exportable");
        assert_eq!(v["memorize"], false);
        assert!(v.get("maxTimesSkipped").is_none());
    }

    #[test]
    fn memorizing_filter_policies_become_opendc3s_memorizing_prefabs() {
        let p = filter_policy(task_num_filters(), true, 7);
        assert_eq!(
            sdk_policy(&p, None),
            Ok(json!({"type": "prefab", "prefabName": "TaskNumMemorizing"}))
        );
        let mut gpu = task_num_filters();
        gpu.insert(
            2,
            Filter::VGpu {
                allocation_ratio: ONE,
            },
        );
        assert_eq!(
            sdk_policy(&filter_policy(gpu, true, 7), None),
            Ok(json!({"type": "prefab", "prefabName": "GpuTaskMemorizing"}))
        );
        // Other filters, or another maxTimesSkipped: no such policy in OpenDC3.
        let e = sdk_policy(&filter_policy(vec![Filter::Compute], true, 7), None)
            .expect_err("compute only");
        assert!(
            e.contains("OpenDC3 has no memorizing filter policy with these filters"),
            "{e}"
        );
        let e = sdk_policy(&filter_policy(task_num_filters(), true, 3), None)
            .expect_err("maxTimesSkipped 3");
        assert!(e.contains("maxTimesSkipped 3"), "{e}");
        // The memorize key itself is never written in a filter policy.
        let v = sdk_policy(&filter_policy(task_num_filters(), false, 3), None).expect("ok");
        assert!(v.get("memorize").is_none() && v.get("maxTimesSkipped").is_none());
    }

    #[test]
    fn export_errors_name_the_policy_entry() {
        let t = topology_of(vec![("C", vec![group("H", 1)])]);
        let w = workload(vec![task("1", 0)]);
        let bad = filter_policy(vec![Filter::Compute], true, 7);
        let good = mem();
        let entries = [
            PolicyEntry {
                policy: &good,
                written: None,
            },
            PolicyEntry {
                policy: &bad,
                written: None,
            },
        ];
        let Err(e) = experiment(&run(&t, &w, &entries)) else {
            panic!("the second policy cannot be exported")
        };
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].path, "allocationPolicies[1]");
    }

    #[test]
    fn task_ids_are_renumbered_in_queue_order_when_one_is_not_an_int32() {
        assert!(renumbered(&workload(vec![task("3", 5), task("-1", 0)])).is_none());
        let w = workload(vec![task("b", 20), task("7", 10), task("a", 20)]);
        let (out, original) = renumbered(&w).expect("`b` is not an int");
        let ids: Vec<&str> = out.tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["1", "0", "2"], "queue order: 7 (10), b (20), a (20)");
        assert_eq!(original, ["7", "b", "a"]);
        assert_eq!(out.tasks[0].name, "1");
        assert_eq!(out.tasks[0].submission_ms, 20, "only ids change");
        for ids in [vec!["007"], vec!["1", "1"], vec!["2147483648"]] {
            let w = workload(ids.iter().map(|i| task(i, 0)).collect());
            assert!(renumbered(&w).is_some(), "{ids:?}");
        }
        let note = renumbering_note(&original);
        assert!(
            note.contains("renumbered 0..2") && note.ends_with("0 -> 7\n1 -> b\n2 -> a"),
            "{note}"
        );
        // Through the export: the workload is replaced and the mapping is in the notes.
        let t = topology_of(vec![("C", vec![group("H", 1)])]);
        let p = mem();
        let entries = [PolicyEntry {
            policy: &p,
            written: None,
        }];
        let e = experiment(&run(&t, &w, &entries)).expect("exportable");
        assert!(matches!(e.workload, Cow::Owned(_)));
        assert!(e.notes.iter().any(|n| n.contains("0 -> 7")));
        let plain = workload(vec![task("3", 5)]);
        let e = experiment(&run(&t, &plain, &entries)).expect("exportable");
        assert!(matches!(e.workload, Cow::Borrowed(_)));
        assert!(!e.notes.iter().any(|n| n.contains("renumbered")));
    }

    #[test]
    fn a_seed_past_i32_max_is_written_as_zero_with_a_note() {
        assert_eq!(initial_seed(2_147_483_647), (i32::MAX, None));
        let (seed, note) = initial_seed(2_147_483_648);
        assert_eq!(seed, 0);
        assert!(note.is_some_and(|n| n.contains("2147483648")));
        let t = topology_of(vec![("C", vec![group("H", 1)])]);
        let w = workload(vec![task("1", 0)]);
        let p = mem();
        let entries = [PolicyEntry {
            policy: &p,
            written: None,
        }];
        let mut r = run(&t, &w, &entries);
        r.seed = u64::MAX;
        let e = experiment(&r).expect("exportable");
        assert_eq!(e.experiment["initialSeed"], 0);
        assert!(e.notes.iter().any(|n| n.contains("18446744073709551615")));
    }

    #[test]
    fn the_file_has_the_keys_of_spec_11_11_in_order() {
        let t = topology_of(vec![("C01", vec![group("H01", 4)])]);
        let w = workload(vec![task("1", 0)]);
        let p = mem();
        let written = json!({"type": "prefab", "policyName": "Mem"});
        let entries = [PolicyEntry {
            policy: &p,
            written: Some(&written),
        }];
        let mut r = run(&t, &w, &entries);
        r.seed = 42;
        r.has_carbon = true;
        let e = experiment(&r).expect("exportable");
        let keys: Vec<&String> = e.experiment.as_object().expect("object").keys().collect();
        assert_eq!(
            keys,
            [
                "name",
                "initialSeed",
                "runs",
                "topologies",
                "workloads",
                "allocationPolicies",
                "exportModels"
            ]
        );
        assert_eq!(e.experiment["initialSeed"], 42);
        assert_eq!(e.experiment["runs"], 1);
        assert_eq!(
            e.experiment["workloads"],
            json!([{"type": "trace", "source": {"type": "uri", "uri": "workload"}}])
        );
        assert_eq!(
            e.experiment["exportModels"],
            json!([{"exportInterval": "3600 seconds"}])
        );
        assert_eq!(
            e.experiment["allocationPolicies"],
            json!([{"type": "prefab", "prefabName": "Mem"}])
        );
        let first = &e.experiment["topologies"][0]["clusters"][0]["hosts"][0];
        assert_eq!(first["cpuPowerModel"]["idlePower"], "32 W");
    }

    #[test]
    fn the_notes_say_current_quantum_and_subset_size() {
        let t = topology_of(vec![("C", vec![group("H", 1)])]);
        let w = workload(vec![task("1", 0)]);
        let random = prefab::find("Random").map(prefab::expand).expect("Random");
        let p = mem();
        let entries = [
            PolicyEntry {
                policy: &p,
                written: None,
            },
            PolicyEntry {
                policy: &random,
                written: None,
            },
        ];
        let mut r = run(&t, &w, &entries);
        r.quantum_ms = 500;
        let notes = experiment(&r).expect("exportable").notes;
        let classic = notes
            .iter()
            .find(|n| n.contains("Current rules"))
            .expect("the Current note");
        assert!(
            classic.contains("compare with this run under Current"),
            "{classic}"
        );
        assert!(
            !classic.starts_with("allocationPolicies"),
            "it holds for both: {classic}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("allocationPolicies[1]: subsetSize 2147483647")),
            "{notes:?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("The scheduling quantum of 500 ms")),
            "{notes:?}"
        );
        assert!(
            !notes.iter().any(|n| n.contains("topology.json")),
            "{notes:?}"
        );
        r.semantics = Semantics::Current;
        r.quantum_ms = 1000;
        let notes = experiment(&r).expect("exportable").notes;
        assert!(notes.iter().any(|n| n.ends_with("as this run did.")));
        assert!(!notes.iter().any(|n| n.contains("quantum")), "{notes:?}");
    }

    #[test]
    fn notes_of_several_policies_are_merged_and_marked() {
        let list = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let merged = merge_policy_notes(vec![
            list(&["a", "b"]),
            list(&["a", "c"]),
            list(&["c", "a"]),
        ]);
        assert_eq!(
            merged,
            [
                "a",
                "allocationPolicies[0]: b",
                "allocationPolicies[1, 2]: c"
            ]
        );
        // A note given twice for one policy counts once for it.
        assert_eq!(
            merge_policy_notes(vec![list(&["x", "x"]), list(&["y"])]),
            ["allocationPolicies[0]: x", "allocationPolicies[1]: y"]
        );
    }

    #[test]
    fn a_task_without_fragments_gets_one_of_its_duration_at_its_capacity() {
        let bare = TaskSpec {
            duration_ms: 7000,
            cpu_capacity_mhz: 2500.0,
            ..task("2", 5)
        };
        let mut w = Workload::default();
        w.push_task(task("1", 0), [(400, 10.0), (600, 20.0)]);
        w.push_task(bare.clone(), []);
        let (out, notes) = trace_workload(&w);
        let fragments = |t: usize| out.task_fragments(&out.tasks[t]).collect::<Vec<_>>();
        assert_eq!(
            fragments(0),
            [(400, 10.0), (600, 20.0)],
            "a task with fragments keeps them"
        );
        assert_eq!(fragments(1), [(7000, 2500.0)]);
        let all: Vec<(i64, f64)> = out
            .tasks
            .iter()
            .flat_map(|t| out.task_fragments(t))
            .collect();
        assert_eq!(all, [(400, 10.0), (600, 20.0), (7000, 2500.0)]);
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].starts_with("1 tasks have no fragments"),
            "{notes:?}"
        );
        let mut w = Workload::default();
        w.push_task(task("1", 0), [(400, 10.0)]);
        w.push_task(bare, [(7000, 2500.0)]);
        let (same, notes) = trace_workload(&w);
        assert!(matches!(same, Cow::Borrowed(_)) && notes.is_empty());
    }
}
