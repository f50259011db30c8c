//! The Current semantics (SPEC 11.12-11.13) end to end: spawn refusal and the memorizing
//! time-shift's `<=` in small simulations, the generator left alone, NaN weights that poison
//! positions, `set` on `up` in cases, the explanation's other choice, and the semantics recorded
//! in results. Every expected number is worked out by hand in the test's comment.

use policy_playground::case::{run_document, run_text, CaseOptions, Chosen};
use policy_playground::engine::current::{Current, HostTypes};
use policy_playground::engine::scheduler::Scheduler;
use policy_playground::engine::{Demand, HostState, Semantics};
use policy_playground::policy::{policy_from_text, prefab, Policy};
use policy_playground::scenario;
use policy_playground::sim::SimResult;

const T0: i64 = 1_700_000_000_000;
const MIN: i64 = 60_000;

fn policy(text: &str) -> Policy {
    policy_from_text(text).expect("a valid policy").0
}

/// A scenario of one cluster with the given host entries (name, count, cores, MiB), tasks
/// (submission ms, duration ms, cores, MiB, deadline ms) and policy, run under `semantics`,
/// optionally explaining one task.
fn run(
    hosts: &[(&str, u32, u32, i64)],
    tasks: &[(i64, i64, u32, i64, Option<i64>)],
    policy: &str,
    semantics: &str,
    explain: Option<&str>,
) -> (SimResult, Option<serde_json::Value>) {
    let hosts: Vec<String> = hosts
        .iter()
        .map(|(name, count, cores, mem)| {
            format!(r#"{{"name": "{name}", "count": {count}, "cpu": {{"coreCount": {cores}, "coreSpeed": 2000}}, "memory": {{"memorySize": {mem}}}}}"#)
        })
        .collect();
    let tasks: Vec<String> = tasks
        .iter()
        .enumerate()
        .map(|(i, (submit, duration, cores, mem, deadline))| {
            let deadline = deadline.map_or(String::new(), |d| {
                format!(r#", "deferrable": true, "deadline": {}"#, T0 + d)
            });
            format!(r#"{{"id": "t{i}", "name": "t{i}", "submissionTime": {}, "duration": {duration}, "cpuCount": {cores}, "cpuCapacity": 1000.0, "memory": {mem}{deadline}}}"#, T0 + submit)
        })
        .collect();
    let text = format!(
        r#"{{"topology": {{"clusters": [{{"name": "C", "hosts": [{}]}}]}}, "workload": {{"tasks": [{}]}}, "policy": {policy}, "semantics": "{semantics}"}}"#,
        hosts.join(", "),
        tasks.join(", ")
    );
    let file = scenario::read(&text).expect("a valid scenario");
    let mut request = file.request();
    request.explain = explain.map(String::from);
    let outcome = request.run(&mut |_| {}).expect("a valid request");
    let explanation = outcome
        .explanation
        .map(|e| serde_json::to_value(e).expect("serializable"));
    (outcome.result, explanation)
}

/// C13. One host H of 4 cores and 4096 MiB, the policy `{"type": "filter"}` (filters
/// [Compute], no weighers). t0 (3072 MiB) and t1 (2048 MiB), both at 0 for 10 min. The cycle at
/// 0 places t0 on H (the head of its type); for t1, C = U = [H] (Compute passes), but H has
/// 4096 - 3072 = 1024 MiB free < 2048: OpenDC 3 refuses, so t1 is terminated at 0 and never
/// starts; t0 ends at 10 min. Classic never refuses: both run on H (memory goes negative).
#[test]
fn a_refused_task_is_terminated_at_once() {
    let hosts = [("H", 1, 4, 4096)];
    let tasks = [(0, 10 * MIN, 1, 3072, None), (0, 10 * MIN, 1, 2048, None)];
    let (r, _) = run(&hosts, &tasks, r#"{"type": "filter"}"#, "current", None);
    let t1 = &r.tasks[1];
    assert_eq!(
        (t1.state, t1.start_ms, t1.finish_ms, t1.host.as_deref()),
        ("terminated", None, 0, None)
    );
    assert_eq!(
        t1.reason.as_deref(),
        Some("OpenDC3 refuses to start it on H (needs 2048 MiB, 1024 free)")
    );
    let t0 = &r.tasks[0];
    assert_eq!((t0.state, t0.finish_ms), ("completed", 10 * MIN));
    assert_eq!(
        (r.metrics.tasks_terminated, r.metrics.makespan_ms),
        (1, 10 * MIN)
    );
    let (classic, _) = run(&hosts, &tasks, r#"{"type": "filter"}"#, "classic", None);
    assert_eq!(classic.metrics.tasks_completed, 2);
}

/// C14 in the simulator. A memorizing time-shift policy without a carbon trace (nothing is
/// ever low) and one deferrable task of 10 min submitted at 0 with its deadline at 10 min:
/// slack 0. Classic (`<`): not deferred, placed at 0, done at 10 min. Current (`<=`): deferred at
/// 0, its latest start 0 is not after now, so it is due at the next cycle on the quantum,
/// 1000 ms, where it is placed without the test: done at 601 000 ms, one deadline miss, a
/// deferral span [0, 1000].
#[test]
fn the_memorizing_time_shift_defers_at_zero_slack_under_current() {
    let p = r#"{"type": "timeshift", "filters": [{"type": "Compute"}], "weighers": [],
                "memorize": true, "forecast": false, "windowSize": 2}"#;
    let hosts = [("H", 1, 4, 4096)];
    let tasks = [(0, 10 * MIN, 1, 1024, Some(10 * MIN))];
    let (current, _) = run(&hosts, &tasks, p, "current", None);
    let t = &current.tasks[0];
    assert_eq!((t.start_ms, t.finish_ms), (Some(1000), 10 * MIN + 1000));
    let spans: Vec<(i64, i64)> = t.deferrals.iter().map(|s| (s.from_ms, s.to_ms)).collect();
    assert_eq!(spans, [(0, 1000)]);
    assert_eq!(current.metrics.deadline_misses, 1);
    let (classic, _) = run(&hosts, &tasks, p, "classic", None);
    let t = &classic.tasks[0];
    assert_eq!((t.start_ms, t.finish_ms), (Some(0), 10 * MIN));
    assert!(t.deferrals.is_empty());
}

/// C10. Random under Current takes C[0] and draws nothing: the generator after three
/// decisions equals a fresh one. Under Classic the same decisions draw (subsetSize 2^31 - 1
/// over three candidates), so the generator moves.
#[test]
fn random_under_current_leaves_the_generator_alone() {
    let random = prefab::expand(prefab::find("Random").expect("a prefab"));
    let hosts = vec![HostState::empty(4, 2000.0, 8192, 0); 3];
    let d = Demand {
        cpu_count: 1,
        memory: 1024,
        ..Demand::default()
    };
    let types = || HostTypes::from_names(["A", "B", "C"]);
    let fresh = policy_playground::engine::rng(7);
    for (semantics, moves) in [(Semantics::Current, false), (Semantics::Classic, true)] {
        let mut s = Scheduler::with_semantics(&random, &hosts, semantics, types, false);
        let mut rng = fresh.clone();
        for _ in 0..3 {
            let choice = s.select(&random, &hosts, &d, &mut rng);
            if semantics == Semantics::Current {
                assert_eq!((choice.host, choice.draw), (Some(0), None));
            }
        }
        assert_eq!(rng != fresh, moves, "{semantics:?}");
    }
}

/// C9, consequence 3. Weighers [InstanceCount(1), Ram(1)] on three empty hosts A (8192 MiB),
/// B (16384), C (8192), each its own type. Decision 1: C = [A, B, C]; instance counts all 0:
/// lo 0, hi 4.9e-324, range 4.9e-324, factor 1 / 4.9e-324 = +inf, and +inf x 0 = NaN in every
/// position; the Ram pass adds to NaN. Nothing beats maxW: index 0, A (Classic: InstanceCount
/// adds nothing and Ram picks B). Decision 2, A charged: C = [A, B, C] again (A used first);
/// W stays NaN, so A again though B has the most memory and A the most tasks.
#[test]
fn nan_weights_poison_their_positions_for_the_rest_of_the_run() {
    let p =
        policy(r#"{"type": "filter", "weighers": [{"type": "InstanceCount"}, {"type": "Ram"}]}"#);
    let mut hosts = vec![
        HostState::empty(4, 2000.0, 8192, 0),
        HostState::empty(4, 2000.0, 16384, 0),
        HostState::empty(4, 2000.0, 8192, 0),
    ];
    let d = Demand {
        cpu_count: 1,
        memory: 1024,
        ..Demand::default()
    };
    let mut s = Current::new(&p.filters, HostTypes::from_names(["A", "B", "C"]), &hosts);
    assert_eq!(s.choose(&p, &hosts, &d, None).0, Some(0));
    assert!(s.weights().iter().all(|w| w.is_nan()));
    s.admit(&hosts, 0);
    hosts[0].place(&d);
    s.update(&hosts, 0);
    assert_eq!(s.candidates(), &[0, 1, 2]);
    assert_eq!(s.choose(&p, &hosts, &d, None).0, Some(0));
    assert_eq!(s.candidates(), &[0, 1, 2]);
    assert!(s.weights().iter().all(|w| w.is_nan()));
}

/// 11.13's `set` on `up`. Hosts A, B, C of one type, empty, Mem. Step 1 sets A down: E = [B, C],
/// C = [B] -> B. Step 2 sets A up again: it is appended to the end, E = [C, A]; U = [B (15
/// cores, 64512)], C = [B, C]: raw [64512, 65536], range 1024, W = [0, 1] -> C, not A. Classic:
/// A at step 1 (Mem has no Compute filter, SPEC 5, so a down host with the most free memory
/// wins), then B (the first of the two empty hosts).
#[test]
fn a_host_that_comes_back_up_queues_at_the_end_of_its_type() {
    let case = r#"{"semantics": "current", "policy": {"type": "prefab", "policyName": "Mem"},
        "hosts": [{"name": "A", "type": "t", "cores": 16, "coreSpeed": 2000, "memory": 65536},
                  {"name": "B", "type": "t", "cores": 16, "coreSpeed": 2000, "memory": 65536},
                  {"name": "C", "type": "t", "cores": 16, "coreSpeed": 2000, "memory": 65536}],
        "steps": [{"set": {"A": {"up": false}}, "task": {"cpuCount": 1, "memory": 1024}, "expect": "B"},
                  {"set": {"A": {"up": true}}, "task": {"cpuCount": 1, "memory": 1024}, "expect": "C"}]}"#;
    let outcome = &run_text(case).expect("a valid case")[0];
    assert!(
        outcome.ok,
        "{}",
        serde_json::to_string(outcome).unwrap_or_default()
    );
    let classic = CaseOptions {
        semantics: Some(Semantics::Classic),
        ..CaseOptions::default()
    };
    let (outcomes, single) = run_document(case, &classic).expect("a valid case");
    assert!(single);
    let chosen: Vec<&Chosen> = outcomes[0].steps.iter().map(|s| &s.chosen).collect();
    let names = ["A", "B"].map(|n| Chosen::Host(n.into()));
    assert_eq!(chosen, names.iter().collect::<Vec<_>>());
}

/// `--semantics classic` on the first Current case (three hosts of type H01, Mem): Classic
/// chooses by free memory, H01, H01-0, H01-1, as its `why` says; the case, written for
/// Current, then fails its third step.
#[test]
fn the_semantics_option_overrides_the_cases() {
    let path = format!(
        "{}/../tests/conformance/opendc3/cases.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the Current cases");
    let classic = CaseOptions {
        semantics: Some(Semantics::Classic),
        ..CaseOptions::default()
    };
    let (outcomes, single) = run_document(&text, &classic).expect("valid cases");
    assert!(!single);
    let chosen: Vec<&Chosen> = outcomes[0].steps.iter().map(|s| &s.chosen).collect();
    let names = ["H01", "H01-0", "H01-1"].map(|n| Chosen::Host(n.into()));
    assert_eq!(chosen, names.iter().collect::<Vec<_>>());
    assert!(!outcomes[0].ok);
}

/// C20's other choice in a Classic run. Two entries named `node` (one type): `node` with 32 GiB
/// and `node-0` with 64 GiB. Classic Mem takes the most free memory, node-0; OpenDC 3 sees only
/// the first empty host of the type, node. In a Current run the roles swap: it takes node, and
/// Classic would take node-0, which is not a Current candidate.
#[test]
fn explanations_say_what_the_other_semantics_would_choose() {
    let hosts = [("node", 1, 8, 32768), ("node", 1, 8, 65536)];
    let tasks = [(0, 10 * MIN, 1, 1024, None)];
    let mem = r#"{"type": "prefab", "policyName": "Mem"}"#;
    let placement = |semantics| {
        let (r, e) = run(&hosts, &tasks, mem, semantics, Some("t0"));
        let e = e.expect("an explanation");
        (r, e["decisions"][0]["placement"].clone())
    };
    let (r, p) = placement("classic");
    assert_eq!(r.tasks[0].host.as_deref(), Some("node-0"));
    assert_eq!(p["other"]["host"], "node");
    assert_eq!(p["other"]["rule"], "not a candidate");
    assert_eq!(
        p["other"]["text"],
        "OpenDC 3 would choose node: only the first empty host of each type is a candidate"
    );
    assert!(p.get("semantics").is_none() && p.get("current").is_none());
    let (r, p) = placement("current");
    assert_eq!(r.tasks[0].host.as_deref(), Some("node"));
    assert_eq!(p["semantics"], "current");
    assert_eq!(
        p["current"]["candidates"][0]["origin"],
        "empty, first of type node"
    );
    assert_eq!(
        p["other"]["text"],
        "Classic would choose node-0: only the first empty host of each type is a candidate"
    );
}

/// Results record the semantics: `provenance.semantics` is `current` under Current and absent
/// under Classic (so Classic outputs keep their bytes). The shadow state an explanation keeps
/// changes nothing in a Classic result.
#[test]
fn results_record_the_semantics_and_the_shadow_changes_nothing() {
    let hosts = [("node", 3, 8, 32768)];
    let tasks: Vec<_> = (0..12)
        .map(|i| (i * MIN, (5 + i % 4) * MIN, 1 + (i % 3) as u32, 2048, None))
        .collect();
    let mem = r#"{"type": "prefab", "policyName": "Mem"}"#;
    let (current, _) = run(&hosts, &tasks, mem, "current", None);
    let json = serde_json::to_value(&current).expect("serializable");
    assert_eq!(json["provenance"]["semantics"], "current");
    let (plain, _) = run(&hosts, &tasks, mem, "classic", None);
    let (explained, _) = run(&hosts, &tasks, mem, "classic", Some("t5"));
    let json = serde_json::to_value(&plain).expect("serializable");
    assert!(json["provenance"].get("semantics").is_none());
    assert!(plain == explained);
}

/// A scenario's `semantics` must be one of the two names; the error names the key.
#[test]
fn a_bad_semantics_in_a_scenario_is_an_error_at_its_key() {
    let text = r#"{"topology": {"clusters": [{"name": "C", "hosts": [{"name": "H", "count": 1,
        "cpu": {"coreCount": 4, "coreSpeed": 2000}, "memory": {"memorySize": 4096}}]}]},
        "workload": {"tasks": []}, "policy": {"type": "prefab", "policyName": "Mem"},
        "semantics": "opendc3"}"#;
    let errors = scenario::read(text).expect_err("an unknown semantics");
    let e = errors
        .iter()
        .find(|d| d.path == "semantics")
        .expect("at `semantics`");
    assert!(
        e.message.contains("\"classic\" or \"current\""),
        "{}",
        e.message
    );
}

/// C20's record keeps NaN visible. The ProvisionedCpuGpuCores case of `opendc3/cases.json`,
/// step 3: C = [G2, G1]; VCpu raw [-1, -1]: lo -1, hi 4.9e-324, range 1, factor 1, W[1] = 2 >
/// 4.9e-324 -> maxIdx 1, maxW -1 (the only update); VGpu raw [0, 0]: range 4.9e-324, factor
/// 1 / 4.9e-324 = Infinity, W = [NaN, NaN]; final maxIdx 1, G1.
#[test]
fn the_record_shows_nan_factors_and_every_max_update() {
    let path = format!(
        "{}/../tests/conformance/opendc3/cases.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the Current cases");
    let outcomes = run_text(&text).expect("valid cases");
    let case = outcomes
        .iter()
        .find(|o| {
            o.name
                .as_deref()
                .is_some_and(|n| n.starts_with("ProvisionedCpuGpuCores"))
        })
        .expect("the NaN case");
    let step = serde_json::to_value(&case.steps[2]).expect("serializable");
    let c = &step["explanation"]["placement"]["current"];
    let hosts: Vec<&str> = c["candidates"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|k| k["host"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(hosts, ["G2", "G1"]);
    let vgpu = &c["weighers"][1];
    assert_eq!(vgpu["factor"], "Infinity");
    assert_eq!(vgpu["wAfter"], serde_json::json!(["NaN", "NaN"]));
    assert_eq!(c["weighers"][0]["range"], 1.0);
    assert_eq!(
        c["maxUpdates"],
        serde_json::json!([{"weigher": 0, "index": 1, "host": "G1", "w": 2.0, "maxW": -1.0}])
    );
    assert_eq!(c["maxIdx"], 1);
    assert_eq!(step["chosen"], "G1");
}

/// C13 in `decide`: filters [Compute] only, A (4096 MiB) already running a task with 1024 MiB
/// left. A task of 2048 MiB: C = U = [A], chosen, refused: the step's `chosen` is null and the
/// explanation names the refusal. Classic places it on A (memory goes to -1024).
#[test]
fn a_refused_step_chooses_nothing_and_says_why() {
    let case = r#"{"semantics": "current", "policy": {"type": "filter"},
        "hosts": [{"name": "A", "cores": 4, "coreSpeed": 2000, "memory": 4096,
                   "instanceCount": 1, "provisionedCores": 1, "availableMemory": 1024}],
        "steps": [{"task": {"cpuCount": 1, "memory": 2048}, "expect": null}]}"#;
    let outcome = &run_text(case).expect("a valid case")[0];
    assert!(outcome.ok);
    let p = outcome.steps[0]
        .explanation
        .placement
        .as_ref()
        .expect("a placement");
    assert_eq!(p.chosen, None);
    assert_eq!(
        p.refusal.as_deref(),
        Some("OpenDC3 refuses to start it on A (needs 2048 MiB, 1024 free)")
    );
    let classic = CaseOptions {
        semantics: Some(Semantics::Classic),
        ..CaseOptions::default()
    };
    let (outcomes, _) = run_document(case, &classic).expect("a valid case");
    assert_eq!(outcomes[0].steps[0].chosen, Chosen::Host("A".into()));
}
