//! Seeded random small scenarios for the differential test, as scenario documents (the
//! `simulate --scenario` format): 1-5 hosts of every power model, 1-12 tasks (with and without
//! fragments, some of zero usage or length, some too large for any host, deferrable ones with
//! deadlines), an hourly carbon trace or none, and every kind of policy.
//!
//! The generator has its own small PRNG (splitmix64), so a seed means the same scenario whatever
//! the versions of the project's dependencies.

use super::gen_policy;
use serde_json::{json, Map, Value};

/// Absolute time of the scenarios' first hour: 2023-10-01T00:00:00Z.
pub const EPOCH_MS: i64 = 1_696_118_400_000;
const MINUTE: i64 = 60_000;
const HOUR: i64 = 3_600_000;

/// splitmix64: a tiny seeded generator of our own.
#[derive(Debug, Clone)]
pub struct Prng(u64);

impl Prng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Self {
        Prng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An integer in `[lo, hi]`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// One of `xs`.
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.range(0, xs.len() as i64 - 1) as usize]
    }
}

/// What a scenario leans towards, so that rarer rules are exercised often enough.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flavour {
    /// Anything.
    General,
    /// Few many-core hosts, mostly `sqrt`, shared by tasks of fractional usage whose fragments
    /// end at usage 0 (where a usage kept as a running total would leave a residue).
    Packing,
    /// A memorizing policy with a small `maxTimesSkipped`, tasks that often fit nowhere now,
    /// and some that fit nowhere ever (rejected at submission).
    Memorizing,
}

/// What the workload generator needs to know of the hosts.
#[derive(Debug, Clone, Copy, Default)]
struct Sizes {
    cores: i64,
    memory: i64,
    speed: f64,
    gpus: bool,
}

/// The scenario document of `seed`.
pub fn scenario(seed: u64) -> Value {
    let mut g = Prng::new(seed);
    let flavour = match g.range(0, 9) {
        0 | 1 => Flavour::Packing,
        2..=4 => Flavour::Memorizing,
        _ => Flavour::General,
    };
    let (topology, sizes) = topology(&mut g, flavour);
    let (workload, first, last) = workload(&mut g, sizes, flavour);
    let mut doc = Map::new();
    doc.insert("topology".into(), topology);
    doc.insert("workload".into(), workload);
    if g.chance(0.8) {
        doc.insert("carbon".into(), carbon(&mut g, first, last));
    }
    doc.insert(
        "policy".into(),
        gen_policy::policy(&mut g, flavour == Flavour::Memorizing),
    );
    doc.insert("seed".into(), json!(g.range(0, 999)));
    if !g.chance(0.2) {
        let quantum = if g.chance(0.75) {
            1000
        } else {
            g.pick(&[1, 7, 500, 60_000, 300_000, HOUR])
        };
        doc.insert("quantumMs".into(), json!(quantum));
    }
    Value::Object(doc)
}

/// 1-5 hosts in 1-3 groups, in one or two clusters.
fn topology(g: &mut Prng, flavour: Flavour) -> (Value, Sizes) {
    let mut left = match flavour {
        Flavour::General => g.range(1, 5),
        _ => g.range(1, 2),
    };
    let mut sizes = Sizes::default();
    let mut groups = Vec::new();
    while left > 0 && groups.len() < 3 {
        let count = g.range(1, left.min(2));
        left -= count;
        let cores = match flavour {
            Flavour::Packing => g.pick(&[4, 8, 16]),
            _ => g.pick(&[1, 2, 2, 4, 4, 8]),
        };
        let speed = g.pick(&[1000.0, 2000.0, 2500.0, 3200.0]);
        let memory = g.pick(&[1024, 2048, 4096, 4096, 8192]);
        sizes.cores = sizes.cores.max(cores);
        sizes.memory = sizes.memory.max(memory);
        sizes.speed = sizes.speed.max(speed);
        let name = if g.chance(0.2) {
            "H".to_string()
        } else {
            format!("H{}", groups.len())
        };
        let mut host = json!({"name": name, "count": count,
            "cpu": {"coreCount": cores, "coreSpeed": speed}, "memory": {"memorySize": memory}});
        if g.chance(0.25) {
            sizes.gpus = true;
            host["gpu"] =
                json!({"coreCount": g.range(1, 4), "coreSpeed": 1000, "count": g.range(1, 2)});
        }
        let model = if flavour == Flavour::Packing && g.chance(0.7) {
            Some(json!({"modelType": "sqrt", "idlePower": g.pick(&[0.0, 32.0]), "maxPower": 180.0}))
        } else {
            power_model(g)
        };
        if let Some(model) = model {
            host["cpuPowerModel"] = model;
        }
        groups.push(host);
    }
    let split = if groups.len() > 1 && g.chance(0.3) {
        1
    } else {
        groups.len()
    };
    let mut clusters = vec![json!({"name": "C01", "hosts": groups[..split].to_vec()})];
    if split < groups.len() {
        clusters.push(json!({"name": "C02", "hosts": groups[split..].to_vec()}));
    }
    (json!({ "clusters": clusters }), sizes)
}

/// One of OpenDC's power models, or none (the default linear 200-400 W).
fn power_model(g: &mut Prng) -> Option<Value> {
    let kind = g.pick(&[
        "constant",
        "linear",
        "sqrt",
        "square",
        "cubic",
        "mse",
        "asymptotic",
        "none",
    ]);
    let idle = g.pick(&[0.0, 32.0, 100.0, 200.0]);
    let max = idle + g.pick(&[0.0, 50.0, 180.0, 250.5]);
    Some(match kind {
        "none" => return None,
        "constant" => json!({"modelType": "constant", "power": g.pick(&[150.0, 300.5])}),
        "mse" => json!({"modelType": "mse", "idlePower": idle, "maxPower": max,
            "calibrationFactor": g.pick(&[1.0, 1.4, 2.0, 3.5])}),
        "asymptotic" => json!({"modelType": "asymptotic", "idlePower": idle, "maxPower": max,
            "asymUtil": g.pick(&[0.1, 0.3, 0.5]), "dvfs": g.chance(0.5)}),
        other => json!({"modelType": other, "idlePower": idle, "maxPower": max}),
    })
}

/// 1-12 tasks; returns the workload and the first and last submission (absolute ms).
fn workload(g: &mut Prng, sizes: Sizes, flavour: Flavour) -> (Value, i64, i64) {
    let n = match flavour {
        Flavour::General => g.range(1, 12),
        _ => g.range(4, 12),
    };
    // Memorizing: a burst, so that a rejected submission often falls between the arrival of a
    // task that must wait and that of one that fits (its cycle then shows in the skip counts).
    let spread = match flavour {
        Flavour::Memorizing => g.pick(&[n * MINUTE, n * 5 * MINUTE]),
        _ => g.pick(&[30 * MINUTE, 3 * HOUR, 8 * HOUR]),
    };
    let start = EPOCH_MS + g.pick(&[0, 0, 0, 17 * MINUTE, 1234]);
    let mut tasks = Vec::new();
    let (mut first, mut last) = (i64::MAX, i64::MIN);
    for k in 0..n {
        let offset = g.range(0, spread);
        let submit = start + jitter(g, offset);
        first = first.min(submit);
        last = last.max(submit);
        tasks.push(task(g, sizes, flavour, k, submit));
    }
    (json!({ "tasks": tasks }), first, last)
}

/// A time rounded to minutes mostly, to seconds sometimes, exact otherwise.
fn jitter(g: &mut Prng, t: i64) -> i64 {
    match g.range(0, 9) {
        0..=5 => t / MINUTE * MINUTE,
        6..=8 => t / 1000 * 1000,
        _ => t,
    }
}

/// One task submitted at `submit`.
fn task(g: &mut Prng, sizes: Sizes, flavour: Flavour, k: i64, submit: i64) -> Value {
    let duration = match g.range(0, 9) {
        0 => g.range(1, 5000),
        1..=5 => {
            let d = g.range(MINUTE, 2 * HOUR - 1);
            jitter(g, d)
        }
        _ => {
            let d = g.range(2 * HOUR, 6 * HOUR);
            jitter(g, d)
        }
    };
    let oversize = g.chance(if flavour == Flavour::Memorizing {
        0.3
    } else {
        0.05
    });
    let cpu_count = if oversize && g.chance(0.6) {
        sizes.cores + g.range(1, 3)
    } else if flavour == Flavour::Packing {
        g.range(1, 2)
    } else {
        g.range(1, sizes.cores)
    };
    let speed = sizes.speed * g.pick(&[0.25, 0.5, 1.0, 1.0, 1.3]);
    let capacity = cpu_count as f64 * speed;
    let memory = if oversize && g.chance(0.5) {
        sizes.memory + 1
    } else {
        g.pick(&[0, 128, 512, 1000, 2048, 4096]).min(sizes.memory)
    };
    let mut t = json!({"id": format!("t{k}"), "submissionTime": submit, "duration": duration,
        "cpuCount": cpu_count, "cpuCapacity": capacity, "memory": memory});
    if sizes.gpus && g.chance(0.3) || oversize && g.chance(0.2) {
        t["gpuCount"] = json!(g.range(1, 3));
    }
    let deferrable = g.chance(0.55);
    if deferrable {
        t["deferrable"] = json!(true);
    }
    if deferrable && g.chance(0.9) || g.chance(0.15) {
        let slack = g.pick(&[
            0,
            1,
            15 * MINUTE,
            HOUR,
            2 * HOUR,
            3 * HOUR,
            5 * HOUR,
            9 * HOUR,
        ]);
        let slack = jitter(g, slack);
        t["deadline"] = json!(submit + duration + slack);
    }
    let fragmented = if flavour == Flavour::Packing {
        0.85
    } else {
        0.45
    };
    if g.chance(fragmented) {
        let tail = flavour == Flavour::Packing && g.chance(0.6);
        let fragments = fragments(g, duration, capacity, tail);
        let sum: i64 = fragments
            .iter()
            .map(|f| f["duration"].as_i64().unwrap_or(0))
            .sum();
        t["duration"] = json!(sum);
        t["fragments"] = json!(fragments);
    }
    t
}

/// 1-5 fragments lasting `duration` in all (some of zero length), with usages of 0, fractions
/// of the task's capacity, or the whole of it; with `tail`, the last one is at usage 0.
fn fragments(g: &mut Prng, duration: i64, capacity: f64, tail: bool) -> Vec<Value> {
    let k = g.range(1, 5);
    let mut cuts: Vec<i64> = (1..k).map(|_| g.range(0, duration)).collect();
    cuts.push(0);
    cuts.push(duration);
    cuts.sort_unstable();
    let mut out = Vec::new();
    for w in cuts.windows(2) {
        if g.chance(0.15) {
            out.push(json!({"duration": 0, "cpuUsage": capacity * 0.3}));
        }
        let usage = match g.range(0, 5) {
            0 | 1 => 0.0,
            2 => capacity,
            3 => capacity * g.pick(&[0.1, 0.2, 0.3, 0.7]),
            _ => capacity * g.range(1, 999) as f64 / 1000.0,
        };
        out.push(json!({"duration": w[1] - w[0], "cpuUsage": usage}));
    }
    if tail {
        let length = g.range(1, 4) * HOUR;
        out.push(json!({"duration": length, "cpuUsage": 0.0}));
    }
    out
}

/// An hourly carbon trace starting a few hours before or after the first submission; it may end
/// before the run does.
fn carbon(g: &mut Prng, first: i64, last: i64) -> Value {
    let hour0 = (first - EPOCH_MS).div_euclid(HOUR) * HOUR + EPOCH_MS;
    let mut t = hour0 + g.pick(&[-3, -2, -1, 0, 0, 0, 1, 2]) * HOUR;
    let hours = (last - t).max(0) / HOUR + g.range(1, 30);
    let mut v = g.range(20, 600) as f64;
    let mut samples = Vec::new();
    for _ in 0..hours {
        samples.push(json!({"timestamp": t, "carbonIntensity": v}));
        t += if g.chance(0.1) { 2 * HOUR } else { HOUR };
        if !g.chance(0.2) {
            v = (v + g.range(-250, 250) as f64).clamp(5.0, 800.0);
            if g.chance(0.3) {
                v += 0.25;
            }
        }
    }
    json!(samples)
}
