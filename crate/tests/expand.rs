//! Expansion (SPEC 1.2 and 5): every prefab has an explicit policy, written out with every
//! default; reading it back gives the same policy, and it decides exactly as the prefab does.

use policy_playground::api::{self, Answer};
use policy_playground::engine::memorizing::Buckets;
use policy_playground::engine::{filter, rank, rng, Demand, HostState};
use policy_playground::policy::prefab::{self, PREFABS};
use policy_playground::policy::{policy_from_text, Policy};
use serde_json::{json, Value};

/// The explicit policy of each prefab, written by hand from the table of SPEC 5 and the
/// defaults of SPEC 1.
fn expected_expansion(name: &str) -> Value {
    let vcpu = json!({"type": "VCpu", "allocationRatio": 1.0});
    let ram = json!({"type": "Ram", "allocationRatio": 1.0});
    let vgpu = json!({"type": "VGpu", "allocationRatio": 1.0});
    let compute = json!({"type": "Compute"});
    let standard = json!([compute, vcpu, ram]);
    let gpu = json!([compute, vcpu, vgpu, ram]);
    let w = |kind: &str, m: f64| json!({"type": kind, "multiplier": m});
    let filter = |filters: &Value, weighers: Value| {
        json!({
            "type": "filter",
            "filters": filters,
            "weighers": weighers,
            "subsetSize": 1,
            "memorize": false,
            "maxTimesSkipped": 7,
        })
    };
    let with = |mut v: Value, key: &str, value: Value| {
        v[key] = value;
        v
    };
    match name {
        "Mem" => filter(&json!([vcpu, ram]), json!([w("Ram", 1.0)])),
        "MemInv" => filter(&standard, json!([w("Ram", -1.0)])),
        "CoreMem" => filter(&standard, json!([w("CoreRam", 1.0)])),
        "CoreMemInv" => filter(&standard, json!([w("CoreRam", -1.0)])),
        "ActiveServers" => filter(&standard, json!([w("InstanceCount", -1.0)])),
        "ActiveServersInv" => filter(&standard, json!([w("InstanceCount", 1.0)])),
        "ProvisionedCores" => filter(&standard, json!([w("VCpu", 1.0)])),
        "ProvisionedCoresInv" => filter(&standard, json!([w("VCpu", -1.0)])),
        "Random" => with(
            filter(&standard, json!([])),
            "subsetSize",
            json!(2147483647),
        ),
        "TaskNumMemorizing" => with(filter(&standard, json!([])), "memorize", json!(true)),
        "Timeshift" => json!({
            "type": "timeshift",
            "filters": standard,
            "weighers": [w("Ram", 1.0)],
            "subsetSize": 1,
            "forecast": true,
            "forecastSize": 24,
            "shortForecastThreshold": 0.2,
            "longForecastThreshold": 0.35,
            "windowSize": 168,
            "memorize": false,
            "maxTimesSkipped": 7,
        }),
        "ProvisionedCpuGpuCores" => filter(&gpu, json!([w("VCpu", 1.0), w("VGpu", 1.0)])),
        "ProvisionedCpuGpuCoresInv" => filter(&gpu, json!([w("VCpu", -1.0), w("VGpu", -1.0)])),
        "GpuTaskMemorizing" => with(filter(&gpu, json!([])), "memorize", json!(true)),
        other => panic!("no expected expansion for {other}"),
    }
}

fn expand_text(text: &str) -> Value {
    match api::expand(text) {
        Answer::Success { value } => value,
        Answer::Failure { errors } => panic!("{text}: {errors:?}"),
    }
}

fn prefab_doc(name: &str) -> String {
    json!({"type": "prefab", "policyName": name}).to_string()
}

fn read(text: &str) -> Policy {
    let (policy, _) = policy_from_text(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    policy
}

#[test]
fn there_are_fourteen_prefabs_in_the_order_of_the_spec() {
    let names: Vec<&str> = PREFABS.iter().map(|p| p.name).collect();
    assert_eq!(
        names,
        [
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
        ]
    );
}

#[test]
fn every_prefab_expands_to_the_explicit_policy_of_the_spec() {
    for p in PREFABS {
        let got = expand_text(&prefab_doc(p.name));
        let want = expected_expansion(p.name);
        assert_eq!(got, want, "{}", p.name);
        // Same keys, nothing more: every default is written and nothing else.
        let keys: Vec<&String> = got.as_object().unwrap().keys().collect();
        let want_keys: Vec<&String> = want.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), want_keys.len(), "{}", p.name);
    }
}

#[test]
fn mem_and_timeshift_by_hand() {
    // Read field by field, so that a wrong type (an integer where a float is meant) shows.
    let mem = expand_text(r#"{"type": "prefab", "policyName": "Mem"}"#);
    assert_eq!(mem["type"], "filter");
    let filters = mem["filters"].as_array().unwrap();
    assert_eq!(filters.len(), 2, "Mem has no Compute filter");
    assert_eq!(filters[0]["type"], "VCpu");
    assert_eq!(filters[0]["allocationRatio"].as_f64(), Some(1.0));
    assert_eq!(filters[1]["type"], "Ram");
    assert_eq!(filters[1]["allocationRatio"].as_f64(), Some(1.0));
    let weighers = mem["weighers"].as_array().unwrap();
    assert_eq!(weighers.len(), 1);
    assert_eq!(weighers[0]["type"], "Ram");
    assert_eq!(weighers[0]["multiplier"].as_f64(), Some(1.0));
    assert_eq!(mem["subsetSize"].as_u64(), Some(1));
    assert_eq!(mem["memorize"], false);
    assert_eq!(mem["maxTimesSkipped"].as_u64(), Some(7));

    let ts = expand_text(r#"{"type": "prefab", "policyName": "Timeshift"}"#);
    assert_eq!(ts["type"], "timeshift");
    assert_eq!(ts["forecast"], true);
    assert_eq!(ts["forecastSize"].as_u64(), Some(24));
    assert_eq!(ts["shortForecastThreshold"].as_f64(), Some(0.2));
    assert_eq!(ts["longForecastThreshold"].as_f64(), Some(0.35));
    assert_eq!(ts["windowSize"].as_u64(), Some(168));
    assert_eq!(ts["memorize"], false);
    assert!(ts.get("taskStopper").is_none(), "no task stopper");
    assert_eq!(ts["filters"].as_array().unwrap().len(), 3);

    let random = expand_text(r#"{"type": "prefab", "policyName": "Random"}"#);
    assert_eq!(random["subsetSize"].as_u64(), Some(2147483647));
    assert_eq!(random["weighers"], json!([]));
}

#[test]
fn expanding_an_explicit_policy_writes_its_defaults() {
    let got = expand_text(r#"{"type": "timeshift", "taskStopper": {"forecast": false}}"#);
    assert_eq!(
        got,
        json!({
            "type": "timeshift",
            "filters": [{"type": "Compute"}],
            "weighers": [],
            "subsetSize": 1,
            "forecast": true,
            "forecastSize": 24,
            "shortForecastThreshold": 0.2,
            "longForecastThreshold": 0.35,
            "windowSize": 168,
            "memorize": true,
            "maxTimesSkipped": 7,
            "taskStopper": {"forecast": false, "forecastSize": 24, "forecastThreshold": 0.6, "windowSize": 168},
        })
    );
    // SDK spellings come out in the documentation's spelling.
    let got = expand_text(
        r#"{"type": "filter", "filters": [{"type": "vcpu"}], "weighers": [{"type": "coreRam"}]}"#,
    );
    assert_eq!(
        got["filters"],
        json!([{"type": "VCpu", "allocationRatio": 1.0}])
    );
    assert_eq!(
        got["weighers"],
        json!([{"type": "CoreRam", "multiplier": 1.0}])
    );
}

#[test]
fn reading_the_expansion_back_gives_the_same_policy_without_diagnostics() {
    for p in PREFABS {
        let from_prefab = read(&prefab_doc(p.name));
        assert_eq!(from_prefab, prefab::expand(p), "{}", p.name);
        let expansion = expand_text(&prefab_doc(p.name)).to_string();
        let (back, diagnostics) = policy_from_text(&expansion).unwrap();
        assert!(diagnostics.is_empty(), "{}: {diagnostics:?}", p.name);
        assert_eq!(back, from_prefab, "{}", p.name);
        // And expanding the expansion changes nothing.
        assert_eq!(expand_text(&expansion).to_string(), expansion, "{}", p.name);
    }
}

#[test]
fn prefab_names_are_case_insensitive_and_prefab_name_is_accepted() {
    let want = expected_expansion("TaskNumMemorizing");
    for text in [
        r#"{"type": "prefab", "policyName": " tasknummemorizing "}"#,
        r#"{"type": "prefab", "policyName": "TASKNUMMEMORIZING"}"#,
        r#"{"type": "prefab", "prefabName": "TaskNumMemorizing"}"#,
        r#"{"type": "prefab", "prefabName": "\ttaskNumMemorizing\n"}"#,
    ] {
        assert_eq!(expand_text(text), want, "{text}");
    }
    assert_eq!(
        expand_text(r#"{"type": "prefab", "prefabName": "gputaskmemorizing"}"#),
        expected_expansion("GpuTaskMemorizing")
    );
}

#[test]
fn an_experiment_expands_to_an_array() {
    let text = r#"{"allocationPolicies": [{"type": "prefab", "policyName": "Mem"},
                                         {"type": "prefab", "policyName": "Random"}]}"#;
    assert_eq!(
        expand_text(text),
        json!([expected_expansion("Mem"), expected_expansion("Random")])
    );
    assert_eq!(
        expand_text(r#"{"workloads": []}"#),
        json!([expected_expansion("Mem")])
    );
    // A document with errors does not expand.
    assert!(matches!(
        api::expand(r#"{"type": "prefab", "policyName": "Nope"}"#),
        Answer::Failure { .. }
    ));
}

// ---------------------------------------------------------------------------------------------
// The expansion decides as the prefab does

/// xorshift64*: a small generator of our own, so that the test's hosts and tasks do not depend
/// on any library.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform enough in `[lo, hi]` for a test.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
}

fn random_hosts(g: &mut XorShift) -> Vec<HostState> {
    let n = g.range(1, 10) as usize;
    (0..n)
        .map(|_| {
            let cores = g.range(1, 32) as u32;
            let memory = g.range(1, 64) as i64 * 1024;
            let gpu_cores = [0, 0, 4, 8][g.range(0, 3) as usize];
            let mut h = HostState::empty(cores, g.range(1, 4) as f64 * 800.0, memory, gpu_cores);
            h.up = g.range(0, 9) != 0;
            h.instance_count = g.range(0, 4) as u32;
            h.provisioned_cores = g.range(0, cores as u64 / 2) as i64;
            h.available_memory = memory - g.range(0, memory as u64 / 2048) as i64 * 1024;
            h.provisioned_gpu_cores = g.range(0, gpu_cores as u64 / 2) as i64;
            h
        })
        .collect()
}

fn random_task(g: &mut XorShift) -> Demand {
    let cpu_count = g.range(1, 8) as u32;
    Demand {
        cpu_count,
        cpu_capacity: cpu_count as f64 * g.range(1, 4) as f64 * 700.0,
        memory: g.range(1, 12) as i64 * 1024,
        gpu_count: [0, 0, 1, 2][g.range(0, 3) as usize],
        gpu_capacity: 0.0,
    }
}

/// The host chosen for each of `steps` random tasks, placing each chosen task before the next
/// decision, as `decide` does (crate/src/case.rs). Every 6 steps the cluster is drawn afresh, so
/// that decisions see both busy and idle clusters.
fn decisions(policy: &Policy, world_seed: u64, run_seed: u64, steps: usize) -> Vec<Option<usize>> {
    decisions_and_choices(policy, world_seed, run_seed, steps).0
}

/// [`decisions`], and how many of them had more than one host to choose from.
fn decisions_and_choices(
    policy: &Policy,
    world_seed: u64,
    run_seed: u64,
    steps: usize,
) -> (Vec<Option<usize>>, usize) {
    let mut g = XorShift(world_seed);
    let mut draws = rng(run_seed);
    let mut scratch = rank::Scratch::default();
    let mut hosts = random_hosts(&mut g);
    let mut out = Vec::with_capacity(steps);
    let mut several = 0;
    for step in 0..steps {
        if step % 6 == 5 {
            hosts = random_hosts(&mut g);
        }
        let task = random_task(&mut g);
        let fitting = hosts
            .iter()
            .filter(|h| filter::first_failing(&policy.filters, h, &task).is_none())
            .count();
        several += (fitting > 1) as usize;
        let host = if policy.memorize {
            Buckets::new(&hosts).select(&policy.filters, &hosts, &task)
        } else {
            rank::select(policy, &hosts, &task, &mut draws, &mut scratch).host
        };
        if let Some(i) = host {
            hosts[i].place(&task);
        }
        out.push(host);
    }
    (out, several)
}

#[test]
fn the_expansion_decides_identically_to_the_prefab() {
    for (n, p) in PREFABS.iter().enumerate() {
        let from_prefab = read(&prefab_doc(p.name));
        let from_expansion = read(&expand_text(&prefab_doc(p.name)).to_string());
        let (mut placed, mut not_placed, mut choices) = (0, 0, 0);
        for round in 0..4u64 {
            let world = 0x9e37_79b9_7f4a_7c15 ^ ((n as u64) << 8 | round);
            let (a, several) = decisions_and_choices(&from_prefab, world, round, 30);
            let b = decisions(&from_expansion, world, round, 30);
            assert_eq!(a, b, "{} round {round}", p.name);
            placed += a.iter().filter(|c| c.is_some()).count();
            not_placed += a.iter().filter(|c| c.is_none()).count();
            choices += several;
        }
        // The random worlds exercise both outcomes and real choices among several hosts, so
        // that equality means something.
        assert!(placed >= 40, "{}: only {placed} of 120 placed", p.name);
        assert!(not_placed > 0, "{}: every task was placed", p.name);
        assert!(choices >= 30, "{}: only {choices} real choices", p.name);
    }
}

#[test]
fn random_decisions_depend_on_the_seed_and_ranking_ones_do_not() {
    // Sanity of the harness above: Random draws, so another run seed changes some choices;
    // Mem ranks deterministically, so it does not.
    let random = read(&prefab_doc("Random"));
    let mem = read(&prefab_doc("Mem"));
    let world = 42;
    assert_ne!(
        decisions(&random, world, 1, 60),
        decisions(&random, world, 2, 60)
    );
    assert_eq!(decisions(&mem, world, 1, 60), decisions(&mem, world, 2, 60));
    // And prefabs that differ decide differently on these worlds.
    for (a, b) in [
        ("Mem", "MemInv"),
        ("CoreMem", "CoreMemInv"),
        ("ActiveServers", "ActiveServersInv"),
        ("ProvisionedCores", "ProvisionedCoresInv"),
        ("ProvisionedCpuGpuCores", "ProvisionedCpuGpuCoresInv"),
        ("TaskNumMemorizing", "MemInv"),
    ] {
        assert_ne!(
            decisions(&read(&prefab_doc(a)), world, 0, 60),
            decisions(&read(&prefab_doc(b)), world, 0, 60),
            "{a} and {b}"
        );
    }
}
