//! A whole run of a small fuzzed scenario (at most 8 host groups of at most 3 hosts, 20 tasks of
//! at most 6 fragments, 40 carbon samples, times within about 12 days), under a prefab, a policy
//! built from fuzzed parts, or fuzzed policy text. The scenario goes through the scenario reader
//! as the page sends it; the result must satisfy `check_result` and a second run must give the
//! same bytes.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use policy_playground::{policy::prefab, scenario};
use policy_playground_fuzz::check_result;
use serde_json::{json, Value};

#[derive(Arbitrary, Debug)]
struct Host {
    count: u8,
    cores: u8,
    speed: u16,
    memory: u32,
    gpus: u8,
    power: u8,
    idle: u8,
    max: u16,
}

#[derive(Arbitrary, Debug)]
struct Task {
    submit: u32,
    duration: u32,
    cpu_count: u8,
    cpu_capacity: u16,
    memory: u32,
    gpu_count: u8,
    deferrable: bool,
    deadline: Option<u32>,
    fragments: Vec<(u16, u16)>,
}

#[derive(Arbitrary, Debug)]
enum Filter {
    Compute,
    VCpu(u8),
    VCpuCapacity,
    Ram(u8),
    InstanceCount(u8),
    SameHost,
    DifferentHost,
    VGpu(u8),
}

#[derive(Arbitrary, Debug)]
struct Weigher {
    kind: u8,
    multiplier: i8,
}

#[derive(Arbitrary, Debug)]
enum Policy {
    Prefab(u8),
    Parts {
        timeshift: bool,
        filters: Vec<Filter>,
        weighers: Vec<Weigher>,
        subset: u8,
        memorize: bool,
        max_skipped: u8,
        forecast: bool,
        forecast_size: u8,
        short: u8,
        long: u8,
        window: u8,
        stopper: Option<(bool, u8, u8, u8)>,
    },
    Text(String),
}

#[derive(Arbitrary, Debug)]
struct Input {
    start: u32,
    hosts: Vec<Host>,
    tasks: Vec<Task>,
    carbon: Vec<(u16, u16)>,
    policy: Policy,
    seed: u64,
    quantum: u8,
}

const MINUTE: i64 = 60_000;

fn ratio(r: u8) -> f64 {
    // 0.25 .. 4 in quarters.
    (r % 16 + 1) as f64 / 4.0
}

fn policy_value(p: &Policy) -> Value {
    match p {
        Policy::Prefab(i) => {
            let defs = prefab::PREFABS;
            json!({"type": "prefab", "policyName": defs[*i as usize % defs.len()].name})
        }
        Policy::Parts {
            timeshift,
            filters,
            weighers,
            subset,
            memorize,
            max_skipped,
            forecast,
            forecast_size,
            short,
            long,
            window,
            stopper,
        } => {
            let filters: Vec<Value> = filters
                .iter()
                .take(6)
                .map(|f| match f {
                    Filter::Compute => json!({"type": "Compute"}),
                    Filter::VCpu(r) => json!({"type": "VCpu", "allocationRatio": ratio(*r)}),
                    Filter::VCpuCapacity => json!({"type": "VCpuCapacity"}),
                    Filter::Ram(r) => json!({"type": "Ram", "allocationRatio": ratio(*r)}),
                    Filter::InstanceCount(l) => json!({"type": "InstanceCount", "limit": (*l % 8) as u32 + 1}),
                    Filter::SameHost => json!({"type": "SameHost"}),
                    Filter::DifferentHost => json!({"type": "DifferentHost"}),
                    Filter::VGpu(r) => json!({"type": "VGpu", "allocationRatio": ratio(*r)}),
                })
                .collect();
            const KINDS: [&str; 6] = ["Ram", "CoreRam", "InstanceCount", "VCpuCapacity", "VCpu", "VGpu"];
            let weighers: Vec<Value> = weighers
                .iter()
                .take(4)
                .map(|w| json!({"type": KINDS[w.kind as usize % 6], "multiplier": w.multiplier as f64 / 8.0}))
                .collect();
            let mut p = json!({
                "type": if *timeshift { "timeshift" } else { "filter" },
                "filters": filters,
                "weighers": weighers,
                "subsetSize": (*subset % 5) as u32 + 1,
                "memorize": memorize,
                "maxTimesSkipped": (*max_skipped % 10) as u32,
            });
            if *timeshift {
                let o = p.as_object_mut().unwrap();
                o.insert("forecast".into(), json!(forecast));
                o.insert("forecastSize".into(), json!((*forecast_size % 30) as u32 + 1));
                o.insert("shortForecastThreshold".into(), json!((*short % 101) as f64 / 100.0));
                o.insert("longForecastThreshold".into(), json!((*long % 101) as f64 / 100.0));
                o.insert("windowSize".into(), json!((*window % 30) as u32 + 1));
                if let Some((f, size, threshold, w)) = stopper {
                    o.insert(
                        "taskStopper".into(),
                        json!({"forecast": f, "forecastSize": (*size % 30) as u32 + 1,
                               "forecastThreshold": (*threshold % 101) as f64 / 100.0,
                               "windowSize": (*w % 30) as u32 + 1}),
                    );
                }
            }
            p
        }
        Policy::Text(t) => serde_json::from_str(t).unwrap_or(json!({"type": "prefab", "policyName": "Mem"})),
    }
}

fn scenario_text(input: &Input) -> String {
    let start = 1_600_000_000_000i64 + input.start as i64;
    const MODELS: [&str; 7] = ["constant", "linear", "sqrt", "square", "cubic", "mse", "asymptotic"];
    let hosts: Vec<Value> = input
        .hosts
        .iter()
        .take(8)
        .enumerate()
        .map(|(i, h)| {
            let idle = h.idle as f64;
            let max = idle + h.max as f64 / 64.0;
            let model = MODELS[h.power as usize % MODELS.len()];
            let mut power = json!({"modelType": model, "idlePower": idle, "maxPower": max, "power": max});
            if model == "asymptotic" {
                power["asymUtil"] = json!(0.3);
            }
            let gpus = h.gpus % 3;
            let mut host = json!({
                "name": format!("h{}", i % 3),
                "count": (h.count % 3) as u32 + 1,
                "cpu": {"coreCount": (h.cores % 16) as u32 + 1, "coreSpeed": (h.speed % 4000) as u32 + 1},
                "memory": {"memorySize": (h.memory % 65536) as u32},
                "cpuPowerModel": power,
            });
            if gpus > 0 {
                host["gpu"] = json!({"count": gpus as u32, "coreCount": 4, "coreSpeed": 1000});
            }
            host
        })
        .collect();
    let hosts = if hosts.is_empty() {
        vec![json!({"name": "h", "cpu": {"coreCount": 4, "coreSpeed": 2000}, "memory": {"memorySize": 8192}})]
    } else {
        hosts
    };
    let tasks: Vec<Value> = input
        .tasks
        .iter()
        .take(20)
        .enumerate()
        .map(|(i, t)| {
            // Submissions within 12 days, durations up to about 4 days.
            let submit = start + (t.submit as i64 % (12 * 24 * 60)) * MINUTE + (t.submit as i64 >> 24);
            let duration = (t.duration as i64 % (4 * 24 * 60 * MINUTE)) + 1;
            let mut task = json!({
                "id": format!("t{i}"),
                "submissionTime": submit,
                "duration": duration,
                "cpuCount": (t.cpu_count % 20) as u32 + 1,
                "cpuCapacity": t.cpu_capacity as f64,
                "memory": (t.memory % 70000) as u32,
                "gpuCount": (t.gpu_count % 4) as u32,
                "deferrable": t.deferrable,
            });
            if let Some(d) = t.deadline {
                task["deadline"] = json!(submit + (d as i64 % (6 * 24 * 60)) * MINUTE);
            }
            if !t.fragments.is_empty() {
                let frags: Vec<Value> = t
                    .fragments
                    .iter()
                    .take(6)
                    .map(|(d, u)| json!({"duration": (*d as i64) * 100, "cpuUsage": *u as f64}))
                    .collect();
                let sum: i64 = t.fragments.iter().take(6).map(|(d, _)| *d as i64 * 100).sum();
                if sum >= 1 {
                    task["fragments"] = json!(frags);
                    task["duration"] = json!(sum);
                }
            }
            task
        })
        .collect();
    let mut carbon = Vec::new();
    let mut ts = start - 2 * 3600 * 1000;
    for (gap, value) in input.carbon.iter().take(40) {
        ts += (*gap as i64 % (12 * 60) + 1) * MINUTE;
        carbon.push(json!({"timestamp": ts, "carbonIntensity": *value as f64 / 100.0}));
    }
    const QUANTA: [i64; 6] = [1, 7, 1000, 60_000, 300_000, 3_600_000];
    let mut doc = json!({
        "topology": {"clusters": [{"name": "c", "hosts": hosts}]},
        "workload": {"tasks": tasks},
        "policy": policy_value(&input.policy),
        "seed": input.seed,
        "quantumMs": QUANTA[input.quantum as usize % QUANTA.len()],
    });
    if !carbon.is_empty() {
        doc["carbon"] = json!(carbon);
    }
    doc.to_string()
}

fuzz_target!(|input: Input| {
    let text = scenario_text(&input);
    let s = match scenario::read(&text) {
        Ok(s) => s,
        Err(ds) => {
            // Only fuzzed policy text may be invalid; everything else is built valid.
            assert!(
                matches!(input.policy, Policy::Text(_)),
                "a built scenario does not read: {ds:#?}\n{text}"
            );
            return;
        }
    };
    let first = s.request().run(&mut |_| {}).expect("a scenario read is a valid request").result;
    check_result(&first);
    let second = s.request().run(&mut |_| {}).expect("a scenario read is a valid request").result;
    let (a, b) = (serde_json::to_string(&first).unwrap(), serde_json::to_string(&second).unwrap());
    assert!(a == b, "two runs differ");
});
