//! Reduces a scenario on which the simulator and the reference disagree to a smallest one that
//! still disagrees: drop tasks, hosts, carbon samples, fragments and optional fields, simplify the
//! policy, round times and numbers, one step at a time, keeping a step only when the smaller
//! scenario is valid and still disagrees, until no step helps.

use serde_json::{json, Value};

const MINUTE: i64 = 60_000;

/// The smallest scenario reached from `doc` on which `fails` still holds.
pub fn shrink(doc: &Value, fails: &dyn Fn(&Value) -> bool) -> Value {
    let mut best = doc.clone();
    'outer: loop {
        for candidate in candidates(&best) {
            if candidate != best && fails(&candidate) {
                best = candidate;
                continue 'outer;
            }
        }
        return best;
    }
}

/// Every one-step simplification of `doc`, boldest first.
fn candidates(doc: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    if doc.get("carbon").is_some() {
        out.push(without(doc, &[], "carbon"));
    }
    removals(doc, &["workload", "tasks"], &mut out);
    hosts(doc, &mut out);
    if let Some(n) = doc["carbon"].as_array().map(Vec::len) {
        if n > 1 {
            out.push(edit(doc, |d| truncate(&mut d["carbon"], 0, n / 2)));
            out.push(edit(doc, |d| truncate(&mut d["carbon"], n / 2, n)));
        }
        removals(doc, &["carbon"], &mut out);
    }
    tasks(doc, &mut out);
    policy(doc, &mut out);
    for key in ["seed", "quantumMs"] {
        out.push(without(doc, &[], key));
    }
    carbon_values(doc, &mut out);
    out
}

/// A copy of `doc` changed by `f`.
fn edit(doc: &Value, f: impl FnOnce(&mut Value)) -> Value {
    let mut d = doc.clone();
    f(&mut d);
    d
}

/// A copy of `doc` without `key` in the object at `path`.
fn without(doc: &Value, path: &[&str], key: &str) -> Value {
    edit(doc, |d| {
        if let Some(obj) = at(d, path).as_object_mut() {
            obj.shift_remove(key);
        }
    })
}

/// The value at `path` (object keys).
fn at<'a>(d: &'a mut Value, path: &[&str]) -> &'a mut Value {
    path.iter().fold(d, |v, k| &mut v[*k])
}

/// Keeps the items `from..to` of an array.
fn truncate(v: &mut Value, from: usize, to: usize) {
    if let Some(a) = v.as_array_mut() {
        *a = a[from..to].to_vec();
    }
}

/// For each item of the array at `path` (when it has more than one), a copy without it.
fn removals(doc: &Value, path: &[&str], out: &mut Vec<Value>) {
    let mut d = doc.clone();
    let n = at(&mut d, path).as_array().map_or(0, Vec::len);
    for i in (0..n).filter(|_| n > 1) {
        out.push(edit(doc, |d| {
            if let Some(a) = at(d, path).as_array_mut() {
                a.remove(i);
            }
        }));
    }
}

/// Fewer hosts: drop a host entry, a cluster, or one of a group's count; plainer hosts.
fn hosts(doc: &Value, out: &mut Vec<Value>) {
    let clusters = doc["topology"]["clusters"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let total: usize = clusters
        .iter()
        .map(|c| c["hosts"].as_array().map_or(0, Vec::len))
        .sum();
    if clusters.len() > 1 {
        removals(doc, &["topology", "clusters"], out);
    }
    for (c, cluster) in clusters.iter().enumerate() {
        for (h, host) in cluster["hosts"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let host_at =
                |d: &mut Value| -> Value { d["topology"]["clusters"][c]["hosts"][h].take() };
            if total > 1 {
                out.push(edit(doc, |d| {
                    let _ = host_at(d);
                    if let Some(a) = d["topology"]["clusters"][c]["hosts"].as_array_mut() {
                        a.retain(|x| !x.is_null());
                    }
                }));
            }
            let count = host["count"].as_i64().unwrap_or(1);
            if count > 1 {
                out.push(edit(doc, |d| {
                    d["topology"]["clusters"][c]["hosts"][h]["count"] = json!(count - 1)
                }));
            }
            for key in ["gpu", "cpuPowerModel", "name", "count"] {
                if host.get(key).is_some() {
                    out.push(edit(doc, |d| {
                        let mut x = host_at(d);
                        if let Some(o) = x.as_object_mut() {
                            o.shift_remove(key);
                        }
                        d["topology"]["clusters"][c]["hosts"][h] = x;
                    }));
                }
            }
        }
    }
}

/// Simpler tasks: no fragments, fewer fragments, fewer optional fields, rounder times.
fn tasks(doc: &Value, out: &mut Vec<Value>) {
    let tasks = doc["workload"]["tasks"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for (i, t) in tasks.iter().enumerate() {
        let mut change = |f: &dyn Fn(&mut Value)| {
            let mut d = doc.clone();
            f(&mut d["workload"]["tasks"][i]);
            out.push(d);
        };
        if let Some(frags) = t["fragments"].as_array() {
            change(&|t| {
                if let Some(o) = t.as_object_mut() {
                    o.shift_remove("fragments");
                }
            });
            for k in (0..frags.len()).filter(|_| frags.len() > 1) {
                change(&|t| drop_fragment(t, k));
            }
        }
        for key in ["gpuCount", "deferrable", "deadline", "name"] {
            if t.get(key).is_some() {
                change(&|t| {
                    if let Some(o) = t.as_object_mut() {
                        o.shift_remove(key);
                    }
                });
            }
        }
        for key in ["submissionTime", "deadline", "duration"] {
            if let Some(v) = t[key].as_i64() {
                for unit in [3_600_000, MINUTE, 1000] {
                    let rounded = (v + unit / 2) / unit * unit;
                    if rounded != v && rounded > 0 {
                        change(&|t| t[key] = json!(rounded));
                    }
                }
            }
        }
        if t["memory"].as_i64().is_some_and(|m| m > 0) {
            change(&|t| t["memory"] = json!(0));
        }
    }
}

/// Removes fragment `k` of a task and sets its duration to the sum of the rest.
fn drop_fragment(t: &mut Value, k: usize) {
    if let Some(a) = t["fragments"].as_array_mut() {
        a.remove(k);
        let sum: i64 = a.iter().filter_map(|f| f["duration"].as_i64()).sum();
        t["duration"] = json!(sum);
    }
}

/// A plainer policy: fewer filters and weighers, no stopper, defaults for the other fields.
fn policy(doc: &Value, out: &mut Vec<Value>) {
    let p = &doc["policy"];
    if p.get("taskStopper").is_some() {
        out.push(without(doc, &["policy"], "taskStopper"));
    }
    for list in ["filters", "weighers"] {
        if p.get(list).is_some() {
            out.push(without(doc, &["policy"], list));
            removals(doc, &["policy", list], out);
            if p[list].as_array().is_some_and(|a| a.len() == 1) {
                out.push(edit(doc, |d| d["policy"][list] = json!([])));
            }
        }
    }
    if let Some(stopper) = p["taskStopper"].as_object() {
        for key in stopper.keys() {
            out.push(without(doc, &["policy", "taskStopper"], key));
        }
    }
    if let Some(obj) = p.as_object() {
        for key in obj
            .keys()
            .filter(|k| !["type", "filters", "weighers", "policyName"].contains(&k.as_str()))
        {
            out.push(without(doc, &["policy"], key));
        }
    }
}

/// Rounder carbon intensities.
fn carbon_values(doc: &Value, out: &mut Vec<Value>) {
    for (i, s) in doc["carbon"].as_array().into_iter().flatten().enumerate() {
        if let Some(v) = s["carbonIntensity"].as_f64() {
            let rounded = (v / 100.0).round() * 100.0;
            if rounded != v {
                out.push(edit(doc, |d| {
                    d["carbon"][i]["carbonIntensity"] = json!(rounded)
                }));
            }
        }
    }
}
