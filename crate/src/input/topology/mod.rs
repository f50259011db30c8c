//! OpenDC topology JSON, in the legacy format and in the SDK format (SPEC 10).
//!
//! Both formats describe `clusters[].hosts[]`; they differ in a few spellings (`memory.memorySize`
//! vs `memory.size`, `cpuPowerModel.modelType` vs `.type`, `powerSource.carbonTracePath` vs
//! `powerSource.carbon {type: named, name}`) and in one meaning: a cluster's `count` is ignored by
//! OpenDC's legacy reader and repeats the cluster in the SDK. A file is SDK when it uses any
//! SDK-only key (see [`is_sdk`]); either spelling is then accepted for each field, so only the
//! cluster `count` depends on the format.
//!
//! What OpenDC reads but this project does not model (batteries, GPU power, vendors, memory
//! speed, ...) is a warning, one per kind of thing; keys nobody knows are warnings too (OpenDC
//! ignores them), with a "did you mean" when one is close. Errors carry the dotted path and, for a
//! text, the line and column of the offending value.
//!
//! Memory is kept in whole MiB, rounded to the nearest (`"16 GB"` = 15 258.79 MiB -> 15 259;
//! OpenDC truncates to 15 258). Power-model defaults follow OpenDC's `PowerModelSpec`: `power`
//! 400 W for `constant`, `calibrationFactor` 1.0 for `mse`, `dvfs` true for `asymptotic`. OpenDC's
//! legacy default `asymUtil` of 0.0 makes the asymptotic model NaN at idle, so here `asymUtil` must
//! be given and > 0 (as the SDK requires).

use serde_json::{Map, Value};

use crate::diag::{has_errors, Diagnostic};
use crate::model::{ClusterSpec, GpuSpec, HostGroup, PowerModel, Topology};

use super::json_text;
use super::problems::{suggest, Anchor, Problems};
use super::units::{self, json_type, Quantity};

// The walk is split by what it reads: the document's vocabulary (keys, what is not modelled,
// the SDK's marks), host entries, and power models with their carbon references.
mod hosts;
mod power;
#[cfg(test)]
mod tests;
mod vocabulary;

pub use vocabulary::is_sdk;
use vocabulary::{known_keys, not_modelled};

/// Most hosts a topology may expand to; a guard against `"count": 1e9` exhausting memory.
pub const MAX_HOSTS: u64 = 1_000_000;

/// The power model types, as OpenDC names them.
pub const POWER_MODEL_TYPES: [&str; 7] = [
    "constant",
    "linear",
    "sqrt",
    "square",
    "cubic",
    "mse",
    "asymptotic",
];

/// Reads a topology JSON text. Warnings are in [`Topology::warnings`]; on error, every
/// diagnostic is returned (errors first), placed at its line and column.
pub fn read_topology(text: &str) -> Result<Topology, Vec<Diagnostic>> {
    let value = json_text::parse(text, "the topology").map_err(|d| vec![d])?;
    let (topology, problems) = walk(&value);
    let diagnostics = json_text::place(text, problems.into_diagnostics());
    finish(topology, diagnostics)
}

/// Reads a topology already parsed (an experiment or scenario file embeds one). Paths are
/// relative to `value`; the diagnostics carry no line or column.
pub fn topology_from_value(value: &Value) -> Result<Topology, Vec<Diagnostic>> {
    let (topology, problems) = walk(value);
    finish(topology, problems.into_diagnostics())
}

/// Reads a topology of an SDK experiment (SPEC 11.5): SDK spellings only (a legacy key is an
/// unknown key), a key OpenDC3 does not know is a warning, or an error when `strict`, and what
/// cannot change a result (descriptive strings, a power source's capacity) is not warned about
/// here. Paths are relative to `value`.
pub fn sdk_experiment_topology(value: &Value, strict: bool) -> Result<Topology, Vec<Diagnostic>> {
    let mut value = value.clone();
    let legacy = vocabulary::strip_legacy_keys(&mut value);
    let mut w = Walk::new(&value);
    w.sdk = true;
    w.experiment = Some(strict);
    for (kind, at) in legacy {
        let key = at.rsplit('.').next().unwrap_or(&at).to_string();
        w.check_sdk_key(&kind, &key, &at, strict);
    }
    let (topology, problems) = w.run(&value);
    finish(topology, problems.into_diagnostics())
}

fn finish(
    mut topology: Topology,
    diagnostics: Vec<Diagnostic>,
) -> Result<Topology, Vec<Diagnostic>> {
    if has_errors(&diagnostics) {
        Err(diagnostics)
    } else {
        topology.warnings = diagnostics;
        Ok(topology)
    }
}

/// A path with its indices removed (`clusters[].hosts[].cpu`), to group warnings by kind.
fn generic(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_index = false;
    for c in path.chars() {
        match c {
            '[' => {
                in_index = true;
                out.push_str("[]");
            }
            ']' => in_index = false,
            _ if !in_index => out.push(c),
            _ => {}
        }
    }
    out
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The walk over one document.
struct Walk {
    p: Problems,
    sdk: bool,
    /// Every carbon reference, with the path where it was written.
    carbon: Vec<(String, String)>,
    /// Paths of the clusters without a carbon reference.
    no_carbon: Vec<String>,
    hosts: u64,
    /// Inside an SDK experiment: `Some(strict)` (see [`sdk_experiment_topology`]).
    experiment: Option<bool>,
}

fn walk(value: &Value) -> (Topology, Problems) {
    Walk::new(value).run(value)
}

impl Walk {
    fn new(value: &Value) -> Self {
        Walk {
            p: Problems::new(),
            sdk: is_sdk(value),
            carbon: vec![],
            no_carbon: vec![],
            hosts: 0,
            experiment: None,
        }
    }

    fn run(self, value: &Value) -> (Topology, Problems) {
        run_walk(self, value)
    }
}

fn run_walk(mut w: Walk, value: &Value) -> (Topology, Problems) {
    let mut topology = Topology::default();
    let Some(top) = w.object(value, "", "a topology object with \"clusters\"") else {
        return (topology, w.p);
    };
    w.check_keys(top, "", "topology");
    let mut raw = Vec::new();
    match (top.get("clusters"), top.get("datacenters")) {
        (Some(_), Some(_)) => w.p.error_at_key(
            "datacenters",
            "use either \"clusters\" or \"datacenters\", not both",
        ),
        (None, None) => w.p.error(
            "",
            "expected \"clusters\": a list of clusters with their hosts",
        ),
        (Some(c), None) => w.clusters(c, "clusters", None, &mut raw),
        (None, Some(d)) => w.datacenters(d, &mut raw),
    }
    let mut names = std::collections::BTreeMap::new();
    // Repeat the clusters only within the host limit (checked below), so that a huge SDK
    // cluster `count` is an error and not an allocation of a billion clusters.
    let within_limit = w.hosts <= MAX_HOSTS;
    for (name, count, groups) in raw {
        for _ in 0..if within_limit { count } else { 0 } {
            topology.clusters.push(ClusterSpec {
                name: unique_name(&name, &mut names),
                groups: groups.clone(),
            });
        }
    }
    if !w.p.has_errors() {
        if w.hosts == 0 {
            w.p.error(
                if top.contains_key("datacenters") {
                    "datacenters"
                } else {
                    "clusters"
                },
                "the topology has no hosts: expected at least one cluster with at least one host",
            );
        } else if w.hosts > MAX_HOSTS {
            w.p.error(
                "",
                format!(
                    "the topology expands to {} hosts; at most {MAX_HOSTS} are supported",
                    w.hosts
                ),
            );
        }
    }
    topology.carbon_ref = w.carbon_ref();
    (topology, w.p)
}

/// OpenDC's naming of repeats: the first use as given, then `name-0`, `name-1`, ...
fn unique_name(name: &str, seen: &mut std::collections::BTreeMap<String, u32>) -> String {
    match seen.get_mut(name) {
        None => {
            seen.insert(name.to_string(), 0);
            name.to_string()
        }
        Some(n) => {
            let s = format!("{name}-{n}");
            *n += 1;
            s
        }
    }
}

type RawCluster = (String, u32, Vec<HostGroup>);

impl Walk {
    pub(super) fn object<'v>(
        &mut self,
        v: &'v Value,
        path: &str,
        what: &str,
    ) -> Option<&'v Map<String, Value>> {
        match v {
            Value::Object(m) => Some(m),
            other => {
                self.p
                    .error(path, format!("expected {what}, found {}", json_type(other)));
                None
            }
        }
    }

    /// Warns about every key of `obj` that is not read: not modelled, or unknown.
    pub(super) fn check_keys(&mut self, obj: &Map<String, Value>, path: &str, kind: &str) {
        let known = known_keys(kind);
        for key in obj.keys() {
            if known.contains(&key.as_str()) {
                continue;
            }
            let at = join(path, key);
            if let Some(strict) = self.experiment {
                self.check_sdk_key(kind, key, &at, strict);
                continue;
            }
            if let Some((warning_kind, message)) = not_modelled(kind, key) {
                self.p
                    .warn_once(warning_kind, Diagnostic::warning(&at, message), Anchor::Key);
            } else {
                let hint = match suggest(key, known) {
                    Some(s) => format!("; did you mean \"{s}\"?"),
                    None => String::new(),
                };
                let message = format!("unknown key \"{key}\" in a {kind}, ignored{hint}");
                self.p.warn_once(
                    &format!("unknown:{}", generic(&at)),
                    Diagnostic::warning(&at, message),
                    Anchor::Key,
                );
            }
        }
    }

    /// An SDK experiment's key that is not read: not modelled (a warning once per kind, unless
    /// it cannot change a result), or unknown to OpenDC3 (a warning, an error when `strict`).
    fn check_sdk_key(&mut self, kind: &str, key: &str, at: &str, strict: bool) {
        if let Some((warning_kind, message)) = vocabulary::sdk_not_modelled(kind, key) {
            if let Some(message) = message {
                self.p
                    .warn_once(warning_kind, Diagnostic::warning(at, message), Anchor::Key);
            }
            return;
        }
        let valid = vocabulary::sdk_keys(kind).join(", ");
        if strict {
            let message = format!("unknown key `{key}` in a {kind}: `opendc --strict` refuses it; valid keys: {valid}");
            self.p.error_at_key(at, message);
        } else {
            let message =
                format!("unknown key `{key}` in a {kind}: OpenDC3 ignores it; valid keys: {valid}");
            self.p.warn_once(
                &format!("unknown:{}", generic(at)),
                Diagnostic::warning(at, message),
                Anchor::Key,
            );
        }
    }

    pub(super) fn datacenters(&mut self, v: &Value, raw: &mut Vec<RawCluster>) {
        let Some(list) = self.array(v, "datacenters", "a list of datacenters") else {
            return;
        };
        for (i, dc) in list.iter().enumerate() {
            let path = format!("datacenters[{i}]");
            let Some(obj) = self.object(dc, &path, "a datacenter object") else {
                continue;
            };
            self.check_keys(obj, &path, "datacenter");
            let inherited = obj
                .get("powerSource")
                .map(|ps| (ps, join(&path, "powerSource")));
            match obj.get("clusters") {
                Some(c) => self.clusters(c, &join(&path, "clusters"), inherited, raw),
                None => self
                    .p
                    .error(&path, "expected \"clusters\": a list of clusters"),
            }
        }
    }

    pub(super) fn array<'v>(
        &mut self,
        v: &'v Value,
        path: &str,
        what: &str,
    ) -> Option<&'v Vec<Value>> {
        match v {
            Value::Array(a) => Some(a),
            other => {
                self.p
                    .error(path, format!("expected {what}, found {}", json_type(other)));
                None
            }
        }
    }

    /// Reads `clusters`; `inherited` is a datacenter's power source.
    pub(super) fn clusters(
        &mut self,
        v: &Value,
        path: &str,
        inherited: Option<(&Value, String)>,
        raw: &mut Vec<RawCluster>,
    ) {
        let Some(list) = self.array(v, path, "a list of clusters") else {
            return;
        };
        let mut dc_carbon_done = false;
        for (i, c) in list.iter().enumerate() {
            let cpath = format!("{path}[{i}]");
            let Some(obj) = self.object(c, &cpath, "a cluster object") else {
                continue;
            };
            self.check_keys(obj, &cpath, "cluster");
            let name = self
                .string(obj, &cpath, "name")
                .unwrap_or_else(|| "Cluster".to_string());
            let mut count = 1u32;
            if let Some(cv) = obj.get("count") {
                let min = if self.experiment.is_some() { 0 } else { 1 };
                let n = self
                    .int(cv, &join(&cpath, "count"), min, u32::MAX as i64)
                    .unwrap_or(1) as u32;
                if n == 0 {
                    let message = "a cluster `count` of 0 leaves the cluster out of the topology, as OpenDC3 does";
                    self.p.warn_once(
                        "cluster-count-0",
                        Diagnostic::warning(join(&cpath, "count"), message),
                        Anchor::Value,
                    );
                }
                if self.sdk {
                    count = n;
                } else if n != 1 {
                    let message = "a cluster's count is ignored in the legacy format, as OpenDC's legacy reader does (in the SDK format it repeats the cluster)";
                    self.p.warn_once(
                        "cluster-count",
                        Diagnostic::warning(join(&cpath, "count"), message),
                        Anchor::Key,
                    );
                }
            }
            // A cluster's own power source wins over the datacenter's.
            match (obj.get("powerSource"), &inherited) {
                (Some(ps), _) => self.power_source(ps, &join(&cpath, "powerSource"), &cpath),
                (None, Some((ps, ps_path))) => {
                    if !dc_carbon_done {
                        self.power_source(ps, ps_path, &cpath);
                        dc_carbon_done = true;
                    }
                }
                (None, None) => self.no_carbon.push(cpath.clone()),
            }
            let mut groups = Vec::new();
            match obj.get("hosts") {
                None => self.p.error(&cpath, "expected \"hosts\": a list of hosts"),
                Some(h) => {
                    let hpath = join(&cpath, "hosts");
                    if let Some(hosts) = self.array(h, &hpath, "a list of hosts") {
                        for (j, host) in hosts.iter().enumerate() {
                            if let Some(g) = self.host(host, &format!("{hpath}[{j}]")) {
                                groups.push(g);
                            }
                        }
                    }
                }
            }
            let per_cluster: u64 = groups.iter().map(|g| g.count as u64).sum();
            self.hosts = self
                .hosts
                .saturating_add(per_cluster.saturating_mul(count as u64));
            raw.push((name, count, groups));
        }
    }

    pub(super) fn string(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        key: &str,
    ) -> Option<String> {
        match obj.get(key)? {
            Value::String(s) => Some(s.clone()),
            other => {
                self.p.error(
                    join(path, key),
                    format!("expected a string, found {}", json_type(other)),
                );
                None
            }
        }
    }

    /// An integer in `[min, max]` (a number with a zero fraction counts as one).
    pub(super) fn int(&mut self, v: &Value, path: &str, min: i64, max: i64) -> Option<i64> {
        let n = match v {
            Value::Number(n) => n.as_i64().or_else(|| n.as_f64().and_then(units::to_i64)),
            _ => None,
        };
        match n {
            Some(n) if n >= min && n <= max => Some(n),
            _ => {
                let found = match v {
                    Value::Number(n) => n.to_string(),
                    other => json_type(other).to_string(),
                };
                let range = if max >= u32::MAX as i64 {
                    format!(">= {min}")
                } else {
                    format!("in [{min}, {max}]")
                };
                self.p
                    .error(path, format!("expected an integer {range}, found {found}"));
                None
            }
        }
    }

    /// A quantity with a unit, finite and >= 0.
    /// SDK files take OpenDC3's unit strings (SPEC 11.6), legacy files SPEC 10's.
    pub(super) fn quantity(&mut self, v: &Value, path: &str, q: Quantity) -> Option<f64> {
        let parsed = if self.sdk {
            crate::input::sdk::units::sdk_quantity(v, q)
        } else {
            units::parse_value(v, q)
        };
        match parsed {
            Ok(x) if x >= 0.0 => Some(x),
            Ok(x) => {
                self.p.error(
                    path,
                    format!("expected {} >= 0, found {}", q.name(), crate::diag::num(x)),
                );
                None
            }
            Err(e) => {
                self.p.error(path, e);
                None
            }
        }
    }

    /// A required member read by `f`, or an error at the object naming what was expected.
    pub(super) fn required<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        path: &str,
        keys: &[&str],
        what: &str,
    ) -> Option<(&'v Value, String)> {
        let present: Vec<&str> = keys
            .iter()
            .copied()
            .filter(|k| obj.contains_key(*k))
            .collect();
        match present.as_slice() {
            [] => {
                let names: Vec<String> = keys.iter().map(|k| format!("\"{k}\"")).collect();
                self.p
                    .error(path, format!("expected {} ({what})", names.join(" or ")));
                None
            }
            [k] => Some((&obj[*k], join(path, k))),
            [a, b, ..] => {
                self.p.error_at_key(
                    join(path, b),
                    format!("\"{a}\" and \"{b}\" are two spellings of the same field: give one"),
                );
                None
            }
        }
    }
}
