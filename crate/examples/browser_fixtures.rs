//! Writes what the browser suite (`crate/tests/wasm_browser.rs`) replays in wasm and compares
//! with the native answers computed here, byte for byte:
//!
//! - `cases`: generated scenarios (a seeded `Pcg64`, so the same cases every time) with random
//!   topologies, workloads, carbon traces and policies: prefabs, filter and timeshift policies
//!   built from parts, task stoppers, quanta from 1 ms to 1 min; each with the answer of
//!   `simulate` under the browser's limits;
//! - `badInputs`: every file of `tests/bad-inputs/` as the page hands it to a loader (bytes, the
//!   format from its name), and the forged parquet workloads of `tests/fuzz-regressions/` (named
//!   `parquet-*`: they made the parquet crate panic, a trap in wasm, or spin for seconds), with
//!   the loader's answer.
//!
//! Run from the repository root (`scripts/test` does):
//! `cargo run --release --example browser_fixtures -- tests/output/browser-fixtures.json`.

use policy_playground::api::handles::{self, Limits, Session};
use policy_playground::api::simulate_within_json_str;
use policy_playground::policy::prefab::PREFABS;
use rand::{Rng, RngExt, SeedableRng};
use serde_json::{json, Value};
use std::path::Path;

/// How many scenarios are generated.
const CASES: usize = 40;
const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;

fn main() -> Result<(), String> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/output/browser-fixtures.json".into());
    let mut rng = rand_pcg::Pcg64::seed_from_u64(20261203);
    let cases: Vec<Value> = (0..CASES)
        .map(|_| {
            let scenario = scenario(&mut rng).to_string();
            let answer = simulate_within_json_str(&scenario, &Limits::BROWSER);
            json!({"scenario": scenario, "answer": answer})
        })
        .collect();
    let mut bad = bad_inputs(Path::new("tests/bad-inputs"))?;
    bad.extend(forged_parquet(Path::new("tests/fuzz-regressions"))?);
    let doc = json!({"cases": cases, "badInputs": bad});
    std::fs::write(&out, doc.to_string()).map_err(|e| format!("{out}: {e}"))?;
    eprintln!(
        "browser_fixtures: {} cases, {} bad inputs -> {out}",
        CASES,
        doc["badInputs"].as_array().map_or(0, Vec::len)
    );
    Ok(())
}

fn pick<'a, T>(rng: &mut impl Rng, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

/// One random scenario, as the page sends it.
fn scenario(rng: &mut impl Rng) -> Value {
    const MODELS: [&str; 7] = [
        "constant",
        "linear",
        "sqrt",
        "square",
        "cubic",
        "mse",
        "asymptotic",
    ];
    let hosts: Vec<Value> = (0..rng.random_range(1..=4))
        .map(|i| {
            let idle = rng.random_range(50..200) as f64;
            let max = idle + rng.random_range(10..300) as f64;
            let model = *pick(rng, &MODELS);
            let mut power = json!({"modelType": model, "idlePower": idle, "maxPower": max, "power": max});
            if model == "asymptotic" {
                power["asymUtil"] = json!(0.3);
            }
            let mut host = json!({
                "name": format!("g{i}"),
                "count": rng.random_range(1..=3),
                "cpu": {"coreCount": rng.random_range(1..=32), "coreSpeed": rng.random_range(1000..=3500)},
                "memory": {"memorySize": rng.random_range(1024..=65536)},
                "cpuPowerModel": power,
            });
            if rng.random_bool(0.2) {
                host["gpu"] = json!({"count": rng.random_range(1..=2), "coreCount": 4, "coreSpeed": 1000});
            }
            host
        })
        .collect();
    let start = 1_655_078_400_000i64 + rng.random_range(0..24) * HOUR;
    let tasks: Vec<Value> = (0..rng.random_range(1..=30))
        .map(|i| {
            let submit = start + rng.random_range(0..3 * 24 * 60) * MINUTE + rng.random_range(0..1000);
            let fragments: Vec<(i64, f64)> = (0..rng.random_range(1..=4))
                .map(|_| {
                    (
                        rng.random_range(1..=6 * 60) * MINUTE,
                        rng.random_range(0..4000) as f64,
                    )
                })
                .collect();
            let duration: i64 = fragments.iter().map(|f| f.0).sum();
            let mut task = json!({
                "id": format!("t{i}"),
                "submissionTime": submit,
                "duration": duration,
                "cpuCount": rng.random_range(1..=8),
                "cpuCapacity": rng.random_range(100..8000) as f64,
                "memory": rng.random_range(64..=16384),
                "gpuCount": if rng.random_bool(0.1) { 1 } else { 0 },
                "fragments": fragments.iter().map(|(d, u)| json!({"duration": d, "cpuUsage": u})).collect::<Vec<_>>(),
            });
            if rng.random_bool(0.4) {
                task["deferrable"] = json!(true);
                task["deadline"] = json!(submit + duration + rng.random_range(0..48) * HOUR);
            }
            task
        })
        .collect();
    let mut doc = json!({
        "topology": {"clusters": [{"name": "c", "hosts": hosts}]},
        "workload": {"tasks": tasks},
        "policy": policy(rng),
        "seed": rng.random_range(0..1_000_000u64),
        "quantumMs": *pick(rng, &[1, 7, 1000, 60_000]),
    });
    if rng.random_bool(0.6) {
        let carbon: Vec<Value> = (0..24 * 5)
            .map(|h| json!({"timestamp": start - 2 * HOUR + h * HOUR, "carbonIntensity": rng.random_range(50..600) as f64}))
            .collect();
        doc["carbon"] = json!(carbon);
    }
    doc
}

/// A prefab, or a filter or timeshift policy of random parts.
fn policy(rng: &mut impl Rng) -> Value {
    if rng.random_bool(0.3) {
        return json!({"type": "prefab", "policyName": pick(rng, PREFABS).name});
    }
    let ratio = |rng: &mut dyn rand::Rng| rng.random_range(1..=16) as f64 / 4.0;
    let filters: Vec<Value> = (0..rng.random_range(0..=3))
        .map(|_| match rng.random_range(0..6) {
            0 => json!({"type": "Compute"}),
            1 => json!({"type": "VCpu", "allocationRatio": ratio(rng)}),
            2 => json!({"type": "VCpuCapacity"}),
            3 => json!({"type": "Ram", "allocationRatio": ratio(rng)}),
            4 => json!({"type": "InstanceCount", "limit": rng.random_range(1..=8)}),
            _ => json!({"type": "VGpu", "allocationRatio": ratio(rng)}),
        })
        .collect();
    const WEIGHERS: [&str; 6] = [
        "Ram",
        "CoreRam",
        "InstanceCount",
        "VCpuCapacity",
        "VCpu",
        "VGpu",
    ];
    let weighers: Vec<Value> = (0..rng.random_range(0..=3))
        .map(|_| json!({"type": pick(rng, &WEIGHERS), "multiplier": rng.random_range(-16..=16) as f64 / 8.0}))
        .collect();
    let timeshift = rng.random_bool(0.5);
    let mut p = json!({
        "type": if timeshift { "timeshift" } else { "filter" },
        "filters": filters,
        "weighers": weighers,
        "subsetSize": rng.random_range(1..=3),
        "memorize": rng.random_bool(0.3),
        "maxTimesSkipped": rng.random_range(0..5),
    });
    if timeshift {
        p["forecast"] = json!(rng.random_bool(0.5));
        p["forecastSize"] = json!(rng.random_range(1..=24));
        p["shortForecastThreshold"] = json!(rng.random_range(0..=100) as f64 / 100.0);
        p["longForecastThreshold"] = json!(rng.random_range(0..=100) as f64 / 100.0);
        p["windowSize"] = json!(rng.random_range(1..=24));
        if rng.random_bool(0.4) {
            p["taskStopper"] = json!({
                "forecast": rng.random_bool(0.5),
                "forecastSize": rng.random_range(1..=24),
                "forecastThreshold": rng.random_range(0..=100) as f64 / 100.0,
                "windowSize": rng.random_range(1..=24),
            });
        }
    }
    p
}

/// Every file of the bad-input corpus with the loader the page would use for it.
fn bad_inputs(dir: &Path) -> Result<Vec<Value>, String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n != "README.md")
        .collect();
    names.sort();
    let read = |name: &str| std::fs::read(dir.join(name)).map_err(|e| format!("{name}: {e}"));
    let mut out = Vec::new();
    for name in names {
        let mut session = Session::with_limits(Limits::BROWSER);
        let ext = name.rsplit_once('.').map_or("", |(_, e)| e).to_string();
        let mut entry = |loader: &str, format: &str, bytes: Vec<Vec<u8>>, answer: String| {
            out.push(json!({"name": name, "loader": loader, "format": format, "bytes": bytes, "answer": answer}));
        };
        if dir.join(&name).is_dir() {
            let (tasks, fragments) = (
                read(&format!("{name}/tasks.parquet"))?,
                read(&format!("{name}/fragments.parquet"))?,
            );
            let answer = session
                .load_workload_parquet(&tasks, &fragments)
                .to_json_string();
            entry("loadWorkloadParquet", "", vec![tasks, fragments], answer);
            continue;
        }
        let bytes = read(&name)?;
        // Text loaders get the file's bytes and decode them as the wasm facade does.
        let text = |what: &str, f: &mut dyn FnMut(&str) -> String| match handles::utf8_text(
            &bytes, what,
        ) {
            Ok(t) => f(t),
            Err(errors) => {
                policy_playground::api::Answer::<()>::Failure { errors }.to_json_string()
            }
        };
        let kind = name.split('-').next().unwrap_or("");
        let deep = name == "workload-deep-nesting.json" || name == "workload-invalid-utf8.json";
        if kind == "carbon" {
            let answer = session.load_carbon(&bytes, &ext).to_json_string();
            entry("loadCarbon", &ext, vec![bytes.clone()], answer);
        }
        if kind == "topology" || deep {
            let answer = text("the topology", &mut |t| {
                session.load_topology(t).to_json_string()
            });
            entry("loadTopology", "", vec![bytes.clone()], answer);
        }
        if kind == "scenario" || deep {
            let answer = text("the scenario", &mut |t| {
                session.load_scenario(t).to_json_string()
            });
            entry("loadScenario", "", vec![bytes.clone()], answer);
        }
        if kind == "workload" {
            let answer = text("the workload", &mut |t| {
                session.load_workload(t, &ext).to_json_string()
            });
            entry("loadWorkload", &ext, vec![bytes.clone()], answer);
        }
        if deep {
            let answer = session.load_carbon(&bytes, "json").to_json_string();
            entry("loadCarbon", "json", vec![bytes.clone()], answer);
        }
    }
    Ok(out)
}

/// The fuzzers' parquet workloads (`parquet-*`), split as the fuzz target splits them: a
/// little-endian u16 length, that many bytes of tasks.parquet, the rest fragments.parquet.
fn forged_parquet(dir: &Path) -> Result<Vec<Value>, String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.starts_with("parquet-"))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let data = std::fs::read(dir.join(&name)).map_err(|e| format!("{name}: {e}"))?;
        if data.len() < 2 {
            return Err(format!("{name}: shorter than its length prefix"));
        }
        let n = (u16::from_le_bytes([data[0], data[1]]) as usize).min(data.len() - 2);
        let (tasks, fragments) = data[2..].split_at(n);
        let answer = Session::with_limits(Limits::BROWSER)
            .load_workload_parquet(tasks, fragments)
            .to_json_string();
        out.push(
            json!({"name": name, "loader": "loadWorkloadParquet", "format": "",
                        "bytes": [tasks, fragments], "answer": answer}),
        );
    }
    Ok(out)
}
