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
    let diagnostics = json_text::place(text, problems.into_anchored());
    finish(topology, diagnostics)
}

/// Reads a topology already parsed (an experiment or scenario file embeds one). Paths are
/// relative to `value`; the diagnostics carry no line or column.
pub fn topology_from_value(value: &Value) -> Result<Topology, Vec<Diagnostic>> {
    let (topology, problems) = walk(value);
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

/// True when the document uses a key that only the SDK format has: top-level `datacenters`,
/// `memory.size`, `cpuPowerModel.type`, `gpuPowerModel.type`, `powerSource.carbon`,
/// `cpuDistribution`, `gpuDistribution`.
pub fn is_sdk(value: &Value) -> bool {
    let Some(top) = value.as_object() else {
        return false;
    };
    if top.contains_key("datacenters") {
        return true;
    }
    let clusters = top.get("clusters").and_then(Value::as_array);
    clusters
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .any(|c| {
            let carbon = c
                .get("powerSource")
                .and_then(Value::as_object)
                .is_some_and(|p| p.contains_key("carbon"));
            let hosts = c.get("hosts").and_then(Value::as_array);
            carbon
                || hosts
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_object)
                    .any(|h| {
                        let has = |obj: &str, key: &str| {
                            h.get(obj)
                                .and_then(Value::as_object)
                                .is_some_and(|o| o.contains_key(key))
                        };
                        has("memory", "size")
                            || has("cpuPowerModel", "type")
                            || has("gpuPowerModel", "type")
                            || h.contains_key("cpuDistribution")
                            || h.contains_key("gpuDistribution")
                    })
        })
}

/// What OpenDC reads but is not modelled here: the warning kind and its message.
fn not_modelled(object: &str, key: &str) -> Option<(&'static str, &'static str)> {
    let descriptive = (
        "descriptive",
        "vendor, model name and architecture are descriptive and not modelled (ignored)",
    );
    Some(match (object, key) {
        (_, "battery") => ("battery", "batteries are not modelled (ignored)"),
        ("cpu" | "memory" | "gpu", "vendor" | "modelName" | "arch" | "architecture") => descriptive,
        ("memory", "memorySpeed" | "speed") => ("memory-speed", "memory speed is not modelled (ignored)"),
        ("gpu", "memorySize" | "memory" | "memoryBandwidth") => {
            ("gpu-memory", "GPU memory and memory bandwidth are not modelled (ignored)")
        }
        ("gpu", "virtualizationOverhead" | "virtualizationOverHeadModel") => {
            ("gpu-virtualization", "GPU virtualization overhead is not modelled (ignored)")
        }
        ("host", "gpuPowerModel") => (
            "gpu-power",
            "GPU power is not modelled: GPUs count for the VGpu filter and weigher only",
        ),
        ("host", "cpuDistribution" | "gpuDistribution" | "cpuDistributionPolicy" | "gpuDistributionPolicy") => (
            "distribution",
            "CPU/GPU distribution policies are not modelled (ignored): a task gets the usage its fragments ask for",
        ),
        ("host", "powerModel") => (
            "powerModel",
            "\"powerModel\" is an old key that OpenDC no longer reads (it reads \"cpuPowerModel\"); ignored",
        ),
        ("powerSource", "maxPower") => {
            ("power-source-capacity", "the power source's maxPower is not modelled (ignored)")
        }
        _ => return None,
    })
}

/// Keys read here, per kind of object.
fn known_keys(object: &str) -> &'static [&'static str] {
    match object {
        "topology" => &["clusters", "datacenters"],
        "datacenter" => &["name", "clusters", "powerSource"],
        "cluster" => &["name", "count", "hosts", "powerSource"],
        "host" => &["name", "count", "cpu", "memory", "gpu", "cpuPowerModel"],
        "cpu" => &["coreCount", "coreSpeed", "count"],
        "memory" => &["memorySize", "size"],
        "gpu" => &["count", "coreCount", "coreSpeed"],
        "powerModel" => &[
            "type",
            "modelType",
            "power",
            "idlePower",
            "maxPower",
            "calibrationFactor",
            "asymUtil",
            "dvfs",
        ],
        "powerSource" => &["name", "carbonTracePath", "carbon"],
        "carbon" => &["type", "name", "uri"],
        _ => &[],
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
}

fn walk(value: &Value) -> (Topology, Problems) {
    let mut w = Walk {
        p: Problems::new(),
        sdk: is_sdk(value),
        carbon: vec![],
        no_carbon: vec![],
        hosts: 0,
    };
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
    fn object<'v>(
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
    fn check_keys(&mut self, obj: &Map<String, Value>, path: &str, kind: &str) {
        let known = known_keys(kind);
        for key in obj.keys() {
            if known.contains(&key.as_str()) {
                continue;
            }
            let at = join(path, key);
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

    fn datacenters(&mut self, v: &Value, raw: &mut Vec<RawCluster>) {
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

    fn array<'v>(&mut self, v: &'v Value, path: &str, what: &str) -> Option<&'v Vec<Value>> {
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
    fn clusters(
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
                let n = self
                    .int(cv, &join(&cpath, "count"), 1, u32::MAX as i64)
                    .unwrap_or(1) as u32;
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

    fn string(&mut self, obj: &Map<String, Value>, path: &str, key: &str) -> Option<String> {
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
    fn int(&mut self, v: &Value, path: &str, min: i64, max: i64) -> Option<i64> {
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
    fn quantity(&mut self, v: &Value, path: &str, q: Quantity) -> Option<f64> {
        match units::parse_value(v, q) {
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
    fn required<'v>(
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

    fn host(&mut self, v: &Value, path: &str) -> Option<HostGroup> {
        let obj = self.object(v, path, "a host object")?;
        self.check_keys(obj, path, "host");
        let name = self
            .string(obj, path, "name")
            .unwrap_or_else(|| "Host".to_string());
        let count = match obj.get("count") {
            Some(c) => self
                .int(c, &join(path, "count"), 1, u32::MAX as i64)
                .map(|n| n as u32),
            None => Some(1),
        };
        let cpu = self.cpu(obj, path);
        let memory = self.memory(obj, path);
        let gpus = match obj.get("gpu") {
            Some(g) => self.gpu(g, &join(path, "gpu")),
            None => Some(vec![]),
        };
        let power = match obj.get("cpuPowerModel") {
            Some(pm) => self.power_model(pm, &join(path, "cpuPowerModel")),
            None => Some(PowerModel::default()),
        };
        let (cores, core_speed_mhz) = cpu?;
        Some(HostGroup {
            name,
            count: count?,
            cores,
            core_speed_mhz,
            memory_mib: memory?,
            gpus: gpus?,
            power: power?,
        })
    }

    fn cpu(&mut self, host: &Map<String, Value>, path: &str) -> Option<(u32, f64)> {
        let (v, cpath) =
            self.required(host, path, &["cpu"], "the host's CPU: coreCount, coreSpeed")?;
        let obj = self.object(v, &cpath, "a CPU object with coreCount and coreSpeed")?;
        self.check_keys(obj, &cpath, "cpu");
        let cores = self
            .required(
                obj,
                &cpath,
                &["coreCount"],
                "cores per CPU, an integer >= 1",
            )
            .and_then(|(v, p)| self.int(v, &p, 1, u32::MAX as i64));
        let speed = self
            .required(
                obj,
                &cpath,
                &["coreSpeed"],
                "the speed of a core: MHz or a string such as \"2.1 GHz\"",
            )
            .and_then(|(v, p)| self.quantity(v, &p, Quantity::Frequency));
        let count = match obj.get("count") {
            Some(c) => self.int(c, &join(&cpath, "count"), 1, u32::MAX as i64),
            None => Some(1),
        };
        let (cores, count, speed) = (cores?, count?, speed?);
        match u32::try_from(cores * count) {
            Ok(total) => Some((total, speed)),
            Err(_) => {
                self.p.error(
                    &cpath,
                    format!("{count} CPUs of {cores} cores is more cores than supported"),
                );
                None
            }
        }
    }

    fn memory(&mut self, host: &Map<String, Value>, path: &str) -> Option<i64> {
        let (v, mpath) = self.required(host, path, &["memory"], "the host's memory")?;
        let obj = self.object(
            v,
            &mpath,
            "a memory object with \"memorySize\" (legacy) or \"size\" (SDK)",
        )?;
        self.check_keys(obj, &mpath, "memory");
        let (v, spath) = self.required(
            obj,
            &mpath,
            &["memorySize", "size"],
            "the memory size: MiB or a string such as \"16 GiB\"",
        )?;
        let mib = self.quantity(v, &spath, Quantity::DataSize)?.round();
        match units::to_i64(mib) {
            Some(m) => Some(m),
            None => {
                self.p.error(spath, "the memory size is too large");
                None
            }
        }
    }

    fn gpu(&mut self, v: &Value, path: &str) -> Option<Vec<GpuSpec>> {
        let obj = self.object(v, path, "a GPU object with coreCount and coreSpeed")?;
        self.check_keys(obj, path, "gpu");
        let message = "GPU power is not modelled: GPUs count for the VGpu filter and weigher only";
        self.p
            .warn_once("gpu-power", Diagnostic::warning(path, message), Anchor::Key);
        let cores = self
            .required(obj, path, &["coreCount"], "cores per GPU, an integer >= 0")
            .and_then(|(v, p)| self.int(v, &p, 0, u32::MAX as i64));
        let speed = self
            .required(
                obj,
                path,
                &["coreSpeed"],
                "the speed of a GPU core: MHz or a string such as \"1.4 GHz\"",
            )
            .and_then(|(v, p)| self.quantity(v, &p, Quantity::Frequency));
        let count = match obj.get("count") {
            Some(c) => self.int(c, &join(path, "count"), 0, 1024),
            None => Some(1),
        };
        let gpu = GpuSpec {
            cores: cores? as u32,
            core_speed_mhz: speed?,
        };
        Some(vec![gpu; count? as usize])
    }

    fn power_model(&mut self, v: &Value, path: &str) -> Option<PowerModel> {
        let obj = self.object(v, path, "a power model object")?;
        self.check_keys(obj, path, "powerModel");
        let types = POWER_MODEL_TYPES.join(", ");
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
        let Some(kind) = POWER_MODEL_TYPES
            .iter()
            .find(|t| t.eq_ignore_ascii_case(name.trim()))
        else {
            let hint = suggest(name, &POWER_MODEL_TYPES)
                .map(|s| format!("; did you mean \"{s}\"?"))
                .unwrap_or_default();
            self.p.error(
                tpath,
                format!("unknown power model \"{name}\"; expected one of {types}{hint}"),
            );
            return None;
        };
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
        if *kind == "constant" {
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
        Some(match *kind {
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

    /// A finite number > 0, or `default` when absent (an error when there is none).
    fn positive(
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
    fn power_source(&mut self, v: &Value, path: &str, cluster: &str) {
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
    fn carbon_reference(&mut self, v: &Value, path: &str) -> Option<(String, String)> {
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
    fn carbon_ref(&mut self) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn host_json(extra: &str) -> String {
        format!(
            r#"{{"clusters": [{{"name": "C01", "hosts": [{{"name": "H01", "cpu": {{"coreCount": 4, "coreSpeed": 2000}},
            "memory": {{"memorySize": 1024}}{extra}}}]}}]}}"#
        )
    }

    #[test]
    fn minimal_legacy_host() {
        let t = read_topology(&host_json("")).unwrap();
        let h = t.hosts();
        assert_eq!(h.len(), 1);
        assert_eq!(
            (h[0].cores, h[0].core_speed_mhz, h[0].memory_mib),
            (4, 2000.0, 1024)
        );
        assert_eq!(
            h[0].power,
            PowerModel::Linear {
                idle: 200.0,
                max: 400.0
            }
        );
        assert!(t.warnings.is_empty(), "{:?}", t.warnings);
        assert_eq!(t.carbon_ref, None);
    }

    #[test]
    fn every_power_model() {
        let pm = |s: &str| {
            let t = read_topology(&host_json(&format!(r#", "cpuPowerModel": {s}"#))).unwrap();
            t.hosts()[0].power
        };
        assert_eq!(
            pm(r#"{"modelType": "constant"}"#),
            PowerModel::Constant { power: 400.0 }
        );
        assert_eq!(
            pm(r#"{"modelType": "Constant", "power": "1 kW"}"#),
            PowerModel::Constant { power: 1000.0 }
        );
        assert_eq!(
            pm(r#"{"modelType": "cubic", "idlePower": 1, "maxPower": 2}"#),
            PowerModel::Cubic {
                idle: 1.0,
                max: 2.0
            }
        );
        assert_eq!(
            pm(r#"{"type": "square", "idlePower": "1 W", "maxPower": "2 W"}"#),
            PowerModel::Square {
                idle: 1.0,
                max: 2.0
            }
        );
        assert_eq!(
            pm(r#"{"modelType": "mse", "idlePower": 1, "maxPower": 2}"#),
            PowerModel::Mse {
                idle: 1.0,
                max: 2.0,
                calibration: 1.0
            }
        );
        assert_eq!(
            pm(
                r#"{"modelType": "asymptotic", "idlePower": 1, "maxPower": 2, "asymUtil": 0.3, "dvfs": false}"#
            ),
            PowerModel::Asymptotic {
                idle: 1.0,
                max: 2.0,
                asym_util: 0.3,
                dvfs: false
            }
        );
        assert_eq!(
            pm(r#"{"modelType": "asymptotic", "idlePower": 1, "maxPower": 2, "asymUtil": 0.3}"#),
            PowerModel::Asymptotic {
                idle: 1.0,
                max: 2.0,
                asym_util: 0.3,
                dvfs: true
            }
        );
    }

    #[test]
    fn power_model_errors() {
        let err =
            |s: &str| read_topology(&host_json(&format!(r#", "cpuPowerModel": {s}"#))).unwrap_err();
        let e = err(r#"{"modelType": "lineer", "idlePower": 1, "maxPower": 2}"#);
        assert!(e[0].message.contains("did you mean \"linear\""), "{e:?}");
        assert_eq!(e[0].path, "clusters[0].hosts[0].cpuPowerModel.modelType");
        let e = err(r#"{"modelType": "linear", "idlePower": 3, "maxPower": 2}"#);
        assert!(e[0].message.contains("at least idlePower"), "{e:?}");
        let e = err(r#"{"modelType": "linear", "maxPower": 2}"#);
        assert!(e[0].message.contains("idlePower"), "{e:?}");
        let e = err(r#"{"modelType": "asymptotic", "idlePower": 1, "maxPower": 2}"#);
        assert!(e[0].message.contains("asymUtil"), "{e:?}");
        let e = err(r#"{"modelType": "linear", "idlePower": "1 Wattz", "maxPower": 2}"#);
        assert!(e[0].message.contains("unknown unit \"Wattz\""), "{e:?}");
        assert!(e[0].line.is_some());
    }

    #[test]
    fn warnings_once_per_kind() {
        let text = r#"{"clusters": [{"name": "C", "battery": {}, "hosts": [
            {"cpu": {"coreCount": 1, "coreSpeed": 1, "vendor": "x", "modelName": "y"}, "memory": {"memorySize": 1, "vendor": "z"}, "color": 1},
            {"cpu": {"coreCount": 1, "coreSpeed": 1, "vendor": "x"}, "memory": {"memorySize": 1}, "color": 2, "coreCont": 3}]}]}"#;
        let t = read_topology(text).unwrap();
        let messages: Vec<&str> = t.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(t.warnings.len(), 4, "{messages:?}");
        assert!(messages.iter().any(|m| m.contains("batteries")));
        assert!(messages.iter().any(|m| m.contains("descriptive")));
        assert!(messages.iter().any(|m| m.contains("\"color\"")));
        assert!(t.warnings.iter().all(|w| w.line.is_some()));
    }

    #[test]
    fn sdk_cluster_count_and_names() {
        let text = r#"{"clusters": [{"name": "C", "count": 2, "hosts": [{"name": "H", "count": 3,
            "cpu": {"coreCount": 2, "coreSpeed": "1 GHz"}, "memory": {"size": "1 GiB"}}]}]}"#;
        let t = read_topology(text).unwrap();
        assert_eq!(t.host_count(), 6);
        let names: Vec<String> = t.clusters.iter().map(|c| c.name.clone()).collect();
        assert_eq!(names, ["C", "C-0"]);
        assert_eq!(t.hosts()[5].name, "H-4");
        assert_eq!(t.hosts()[0].memory_mib, 1024);
        // The same file in legacy spelling ignores the cluster count, with a warning.
        let legacy = text.replace("\"size\"", "\"memorySize\"");
        let t = read_topology(&legacy).unwrap();
        assert_eq!(t.host_count(), 3);
        assert!(t.warnings[0].message.contains("count is ignored"));
    }

    #[test]
    fn carbon_references() {
        let cluster = |ps: &str| {
            format!(
                r#"{{"hosts": [{{"cpu": {{"coreCount": 1, "coreSpeed": 1}}, "memory": {{"memorySize": 1}}}}], "powerSource": {ps}}}"#
            )
        };
        let a = cluster(r#"{"carbonTracePath": "a.parquet"}"#);
        let b = cluster(r#"{"carbonTracePath": "b.parquet"}"#);
        let t = read_topology(&format!(r#"{{"clusters": [{a}, {a}]}}"#)).unwrap();
        assert_eq!(t.carbon_ref.as_deref(), Some("a.parquet"));
        let e = read_topology(&format!(r#"{{"clusters": [{a}, {b}]}}"#)).unwrap_err();
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].path, "clusters[1].powerSource.carbonTracePath");
        let n = cluster(r#"{"carbon": {"type": "named", "name": "NL"}}"#);
        let t = read_topology(&format!(r#"{{"clusters": [{n}]}}"#)).unwrap();
        assert_eq!(t.carbon_ref.as_deref(), Some("NL"));
    }

    #[test]
    fn structural_errors() {
        let e = read_topology(r#"{"clusters": []}"#).unwrap_err();
        assert_eq!(e.len(), 1);
        assert!(e[0].message.contains("no hosts"));
        let e = read_topology(r#"{"clusters": [{"hosts": []}]}"#).unwrap_err();
        assert!(e[0].message.contains("no hosts"));
        let e = read_topology(&host_json("").replace("\"coreCount\": 4", "\"coreCount\": 0"))
            .unwrap_err();
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].path, "clusters[0].hosts[0].cpu.coreCount");
        assert!(e[0].message.contains("expected an integer >= 1, found 0"));
        assert_eq!(e[0].line, Some(1));
        let e = read_topology(&host_json("").replace("\"coreCount\": 4, ", "")).unwrap_err();
        assert!(e[0].message.contains("\"coreCount\""), "{e:?}");
        let e = read_topology("[1, 2]").unwrap_err();
        assert!(e[0].message.contains("expected a topology object"));
        let e = read_topology("{\"clusters\": [").unwrap_err();
        assert!(
            e[0].message.contains("not valid JSON") && e[0].line == Some(1),
            "{e:?}"
        );
        let e = read_topology(r#"{"clusters": [{"count": 1e9, "hosts": [{"count": 4000000000, "cpu": {"coreCount": 1, "coreSpeed": 1}, "memory": {"size": 1}}]}]}"#).unwrap_err();
        assert!(e[0].message.contains("at most"), "{e:?}");
    }
}
