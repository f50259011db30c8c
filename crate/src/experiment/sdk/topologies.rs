//! The `topologies` axis of an SDK experiment (SPEC 11.5): each topology read with SDK spellings,
//! its expanded host names checked for collisions as OpenDC3 checks them, its power sources and
//! carbon references checked as SPEC 11.5 and 11.10 say, and its carbon trace resolved under the
//! experiment's folder (SPEC 11.8).

use super::super::load_carbon;
use super::collect::Collector;
use super::resources;
use super::Reading;
use crate::input::sdk::units::sdk_quantity;
use crate::input::topology::sdk_experiment_topology;
use crate::input::units::Quantity;
use crate::model::{CarbonTrace, PowerModel, Topology};
use serde_json::Value;

/// A topology of the experiment: its label, the topology and its carbon trace.
pub type Entry = (String, Topology, Option<CarbonTrace>);

/// Reads every topology; `None` for an entry with errors.
pub fn read(r: &Reading, list: &[Value], c: &mut Collector) -> Vec<Option<Entry>> {
    list.iter()
        .enumerate()
        .map(|(i, v)| one(r, v, &format!("topologies[{i}]"), c))
        .collect()
}

fn one(r: &Reading, v: &Value, at: &str, c: &mut Collector) -> Option<Entry> {
    let topology = match sdk_experiment_topology(v, c.strict) {
        Ok(t) => {
            c.extend_under(at, t.warnings.clone());
            t
        }
        Err(ds) => {
            c.extend_under(at, ds);
            return None;
        }
    };
    if let Some(name) = collision(&topology) {
        c.error(at, format!("OpenDC3 stops with \"Host with name {name} already exists\": a host entry's generated name collides with another entry's name; rename one of them"));
        return None;
    }
    power_sources(v, at, c);
    let carbon = carbon(r, v, &topology, at, c);
    Some((at.to_string(), topology, carbon))
}

/// The first host name given twice after expansion (SPEC 11.5).
fn collision(t: &Topology) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    t.hosts()
        .into_iter()
        .map(|h| h.name)
        .find(|n| !seen.insert(n.clone()))
}

fn clusters(v: &Value) -> impl Iterator<Item = (usize, &Value)> {
    v.get("clusters")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

/// Power sources whose `maxPower` is below the cluster's summed host `maxPower`: a cap that is
/// not modelled (SPEC 11.10).
fn power_sources(v: &Value, at: &str, c: &mut Collector) {
    for (i, cluster) in clusters(v) {
        let Some(cap) = cluster.pointer("/powerSource/maxPower") else {
            continue;
        };
        let Ok(cap) = sdk_quantity(cap, Quantity::Power) else {
            continue;
        };
        let hosts = cluster
            .get("hosts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        let peak: f64 = hosts
            .map(|h| {
                let count = h.get("count").and_then(Value::as_f64).unwrap_or(1.0);
                let max = h
                    .pointer("/cpuPowerModel/maxPower")
                    .and_then(|m| sdk_quantity(m, Quantity::Power).ok())
                    .unwrap_or(max_power(&PowerModel::default()));
                count * max
            })
            .sum();
        if cap.is_finite() && cap < peak {
            let path = format!("{at}.clusters[{i}].powerSource.maxPower");
            c.once("power-cap", &path, format!("the power source's maxPower ({cap} W) is below the cluster's summed host maxPower ({peak} W): power caps are not modelled, so OpenDC3's figures may differ"));
        }
    }
}

fn max_power(m: &PowerModel) -> f64 {
    match *m {
        PowerModel::Constant { power } => power,
        PowerModel::Linear { max, .. }
        | PowerModel::Sqrt { max, .. }
        | PowerModel::Square { max, .. }
        | PowerModel::Cubic { max, .. }
        | PowerModel::Mse { max, .. }
        | PowerModel::Asymptotic { max, .. } => max,
    }
}

/// The carbon trace the topology names, resolved under the experiment's folder; a trace that
/// cannot be read is a warning and the run has no carbon (SPEC 11.8.5).
fn carbon(
    r: &Reading,
    v: &Value,
    t: &Topology,
    at: &str,
    c: &mut Collector,
) -> Option<CarbonTrace> {
    t.carbon_ref.as_ref()?;
    let mut written = None;
    let mut carbon_clusters = 0u64;
    for (i, cluster) in clusters(v) {
        if let Some(written_ref) = cluster
            .pointer("/powerSource/carbon")
            .filter(|x| !x.is_null())
        {
            written.get_or_insert((
                format!("{at}.clusters[{i}].powerSource.carbon"),
                written_ref.clone(),
            ));
            carbon_clusters += cluster.get("count").and_then(Value::as_u64).unwrap_or(1);
        }
    }
    let (path, written_ref) = written?;
    if carbon_clusters >= 2 {
        c.warn(&path, format!("{carbon_clusters} clusters name this carbon trace: `opendc run` stops with \"Duplicate service\" (it accepts one carbon cluster); the playground uses the one trace for every host"));
    }
    let reference = match resources::reference(&written_ref) {
        Ok(x) => x,
        Err(e) => {
            c.error(&path, e);
            return None;
        }
    };
    let file = match resources::resolve(r.files, r.root, &reference) {
        Ok(f) => f,
        Err(e) => {
            c.error(&path, e);
            return None;
        }
    };
    if !r.resolve {
        return None;
    }
    match load_carbon(r.files, &file) {
        Ok(trace) => {
            if !file
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("parquet"))
            {
                c.warn(&path, format!("`{}` is read by its extension here, but `opendc run` reads only parquet carbon traces", file.display()));
            }
            Some(trace)
        }
        Err(e) => {
            let why = e
                .diagnostics()
                .first()
                .map_or(String::new(), |d| d.message.clone());
            c.warn(&path, format!("{} was not found or cannot be read at `{}` ({why}): the run has no carbon figures, and `opendc run` would stop with \"Resource not found on filesystem\"", reference.describe("carbon trace"), file.display()));
            None
        }
    }
}
