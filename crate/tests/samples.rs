//! The embedded samples (`www/samples/`): they load, run, and show what the README says.

use policy_playground::api::{self, Answer};
use policy_playground::experiment::{self, Disk};
use policy_playground::model::{PowerModel, TaskSpec, Topology, Workload};
use policy_playground::policy::policy_from_text;
use policy_playground::scenario::{self, ScenarioFile};
use policy_playground::sim::{simulate, Options, Scenario, SimResult};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn teaching_text() -> String {
    std::fs::read_to_string(root().join("www/samples/teaching/scenario.json"))
        .expect("teaching sample")
}

fn teaching_with(policy: &str) -> SimResult {
    teaching_run(policy).1
}

/// The teaching sample under `policy`: its inputs and the result.
fn teaching_run(policy: &str) -> (ScenarioFile, SimResult) {
    let mut s = scenario::read(&teaching_text()).expect("valid scenario");
    s.policy = policy_from_text(policy).expect("valid policy").0;
    let result = s.request().run(&mut |_| {}).expect("valid options").result;
    (s, result)
}

#[test]
fn timeshift_lowers_the_teaching_samples_dynamic_carbon() {
    let mem = teaching_with(r#"{"type": "prefab", "policyName": "Mem"}"#);
    let ts = teaching_with(r#"{"type": "prefab", "policyName": "Timeshift"}"#);
    let stopper_text =
        std::fs::read_to_string(root().join("www/samples/policies/timeshift-stopper.json"))
            .unwrap();
    let stopper = teaching_with(&stopper_text);
    for r in [&mem, &ts, &stopper] {
        assert_eq!(r.metrics.tasks_completed, 200);
        assert_eq!(r.metrics.deadline_misses, 0);
    }
    let (m, t, s) = (
        mem.metrics.dynamic_carbon_g.unwrap(),
        ts.metrics.dynamic_carbon_g.unwrap(),
        stopper.metrics.dynamic_carbon_g.unwrap(),
    );
    assert!(t < m, "Timeshift {t} g should be below Mem {m} g");
    assert!(s < m, "the stopper {s} g should be below Mem {m} g");
    assert!(ts.metrics.deferred_tasks > 0 && stopper.metrics.paused_tasks > 0);
    // The figures quoted in www/samples/README.md are this run's.
    let readme = std::fs::read_to_string(root().join("www/samples/README.md")).unwrap();
    let quoted = |g: f64| format!("{} {:05.1} g", (g / 1000.0).floor() as i64, g % 1000.0);
    for g in [m, t, s] {
        assert!(
            readme.contains(&quoted(g)),
            "README should quote {}",
            quoted(g)
        );
    }
}

#[test]
fn the_teaching_sample_is_deterministic_and_the_api_gives_the_cli_bytes() {
    let text = teaching_text();
    let a = api::simulate_json_str(&text);
    assert_eq!(a, api::simulate_json_str(&text));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_policy-playground"))
        .args(["simulate", "--json", "--scenario"])
        .arg(root().join("www/samples/teaching/scenario.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let cli = String::from_utf8(out.stdout).unwrap();
    let Answer::Success { value } = api::simulate(&text) else {
        panic!("simulate failed")
    };
    assert_eq!(cli.trim_end(), serde_json::to_string(&value).unwrap());
    assert!(a.starts_with(r#"{"type":"success","value":"#));
    assert_eq!(
        &a[r#"{"type":"success","value":"#.len()..a.len() - 1],
        cli.trim_end()
    );
}

/// Guards the surf_week sample (it loads and every task completes on the 277 hosts) and the
/// energy integration at scale: idle energy is the topology's idle power times the makespan,
/// dynamic energy the test's own integral of the fragments over the run spans.
#[test]
fn surf_week_completes_on_the_surf_topology_with_energy_as_worked_out_by_the_test() {
    let dir = root().join("www/samples/surf_week");
    let topology = experiment::load_topology(&Disk, &dir.join("topology.json")).unwrap();
    let workload = experiment::load_workload(&Disk, &dir).unwrap();
    let (carbon, warnings) =
        experiment::referenced_carbon(&Disk, &topology, &dir.join("topology.json"));
    assert!(warnings.is_empty(), "{warnings:?}");
    let policy = policy_from_text(r#"{"type": "prefab", "policyName": "Mem"}"#)
        .unwrap()
        .0;
    let r = simulate(
        Scenario {
            topology: &topology,
            workload: &workload,
            carbon: carbon.as_ref(),
            policy: &policy,
            seed: 0,
            quantum_ms: 1000,
        },
        Options::default(),
    );
    assert_eq!(r.metrics.tasks_total, 6295);
    assert_eq!(r.metrics.tasks_completed, 6295);
    assert_eq!(r.hosts.len(), 277);
    // Every host idles at 32 W (sqrt model at u = 0) from 0 to the makespan.
    let text = std::fs::read_to_string(dir.join("topology.json")).unwrap();
    let idle_w = idle_watts(&serde_json::from_str(&text).unwrap());
    assert_eq!(idle_w, 277.0 * 32.0, "the topology's idle power");
    assert_energy_by_hand(&topology, &workload, &r, idle_w);
    assert!(r.metrics.carbon_g.unwrap() > 0.0);
}

#[test]
fn the_cli_takes_the_run_limits() {
    // One instant: the first submissions are placed and nothing can complete, so every task
    // ends terminated at the limit.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_policy-playground"))
        .args(["simulate", "--json", "--max-instants", "1", "--scenario"])
        .arg(root().join("www/samples/teaching/scenario.json"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["metrics"];
    assert_eq!(m["tasksCompleted"], 0);
    assert_eq!(m["tasksTerminated"], m["tasksTotal"]);
    assert!(v["warnings"].to_string().contains("limit of 1 instants"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_policy-playground"))
        .args(["simulate", "--max-time-ms", "x", "--scenario"])
        .arg(root().join("www/samples/teaching/scenario.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a usage error");
}

/// Guards the energy integration (SPEC 6.5) on the teaching sample, with and without pauses
/// (the task stopper resumes tasks where they stopped): the result's idle and dynamic energy,
/// per host and in total, must be the test's own figures (see [`assert_energy_by_hand`]).
#[test]
fn the_teaching_samples_energy_is_the_integral_worked_out_by_the_test() {
    let stopper =
        std::fs::read_to_string(root().join("www/samples/policies/timeshift-stopper.json"))
            .unwrap();
    for policy in [
        r#"{"type": "prefab", "policyName": "Mem"}"#,
        stopper.as_str(),
    ] {
        let (s, r) = teaching_run(policy);
        let file: Value = serde_json::from_str(&teaching_text()).unwrap();
        let idle_w = idle_watts(&file["topology"]);
        // 4 small hosts at 70 W, 2 large at 150 W, bigmem at 120 W.
        assert_eq!(idle_w, 4.0 * 70.0 + 2.0 * 150.0 + 120.0);
        assert_energy_by_hand(&s.topology, &s.workload, &r, idle_w);
    }
}

/// Asserts the result's energy against figures the test works out without the simulator's
/// meters: idle energy is `idle_w` (read off the topology file) times the makespan; each host's
/// dynamic energy is integrated here from the result's run spans and the workload's fragments
/// ([`dynamic_energy_by_host`]); the total is their sum.
fn assert_energy_by_hand(topology: &Topology, workload: &Workload, r: &SimResult, idle_w: f64) {
    let m = &r.metrics;
    let idle = idle_w * m.makespan_ms as f64 / 1000.0;
    let dynamic = dynamic_energy_by_host(topology, workload, r);
    for h in &r.hosts {
        assert_close(
            h.dynamic_energy_j,
            dynamic[&h.name],
            &format!("{}'s dynamic energy", h.name),
        );
    }
    let total: f64 = dynamic.values().sum();
    assert!(total > 0.0, "the tasks draw dynamic power");
    assert_close(m.idle_energy_j, idle, "idle energy");
    assert_close(m.dynamic_energy_j, total, "dynamic energy");
    assert_close(m.energy_j, idle + total, "energy");
}

/// Fails unless `actual` is `expected` to within a relative 1e-9 (the order of the sums differs).
fn assert_close(actual: f64, expected: f64, what: &str) {
    let tolerance = 1e-9 * expected.abs().max(1.0);
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: the result says {actual} J, worked out by the test {expected} J"
    );
}

/// The idle power in W of a topology file's JSON: the sum over its host groups of the count
/// times the model's `idlePower` (`power` for a constant model).
fn idle_watts(topology: &Value) -> f64 {
    let groups = topology["clusters"].as_array().unwrap().iter();
    groups
        .flat_map(|c| c["hosts"].as_array().unwrap())
        .map(|h| {
            let model = &h["cpuPowerModel"];
            let key = if model["modelType"] == "constant" {
                "power"
            } else {
                "idlePower"
            };
            h["count"].as_f64().unwrap_or(1.0) * model[key].as_f64().unwrap()
        })
        .sum()
}

/// A time span `[from, to)` in ms during which a task uses `mhz` of its host's CPU.
type Piece = (i64, i64, f64);

/// Each host's dynamic energy in J, integrated by the test: a task runs its fragments in order
/// over its run spans (a resumed task goes on where it paused; a task without fragments uses its
/// cpuCapacity throughout), a host's utilisation is the sum of its running tasks' usages over
/// its capacity, capped at 1, and its dynamic power is its model's power above u = 0.
fn dynamic_energy_by_host(
    topology: &Topology,
    workload: &Workload,
    r: &SimResult,
) -> BTreeMap<String, f64> {
    let specs: HashMap<&str, &TaskSpec> =
        workload.tasks.iter().map(|t| (t.id.as_str(), t)).collect();
    assert_eq!(specs.len(), workload.tasks.len(), "task ids are unique");
    let mut pieces: HashMap<&str, Vec<Piece>> = HashMap::new();
    for t in &r.tasks {
        let steps = usage_steps(workload, specs[t.id.as_str()]);
        let mut done = 0;
        for run in &t.runs {
            let on = pieces.entry(run.host.as_str()).or_default();
            place(&steps, done, run.from_ms, run.to_ms, on);
            done += run.to_ms - run.from_ms;
        }
    }
    let hosts = topology.hosts();
    hosts
        .iter()
        .map(|h| {
            let on = pieces.remove(h.name.as_str()).unwrap_or_default();
            let capacity = h.cores as f64 * h.core_speed_mhz;
            (h.name.clone(), integrate(on, capacity, &h.power))
        })
        .collect()
}

/// A task's CPU usage over its progress: `(duration ms, MHz)` steps.
fn usage_steps(workload: &Workload, spec: &TaskSpec) -> Vec<(i64, f64)> {
    if workload.fragment_count(spec) == 0 {
        return vec![(spec.duration_ms, spec.cpu_capacity_mhz)];
    }
    workload.task_fragments(spec).collect()
}

/// Adds to `out` the pieces of a run from `from` to `to` that starts at progress `done`.
fn place(steps: &[(i64, f64)], done: i64, from: i64, to: i64, out: &mut Vec<Piece>) {
    let mut progress = 0;
    for &(duration, mhz) in steps {
        let (a, b) = (
            progress.max(done),
            (progress + duration).min(done + to - from),
        );
        if a < b {
            out.push((from + a - done, from + b - done, mhz));
        }
        progress += duration;
    }
}

/// The integral in J of a host's power above idle while it runs `pieces`, from one change of
/// its usage to the next.
fn integrate(mut pieces: Vec<Piece>, capacity: f64, model: &PowerModel) -> f64 {
    let mut times: Vec<i64> = pieces.iter().flat_map(|&(a, b, _)| [a, b]).collect();
    times.sort_unstable();
    times.dedup();
    pieces.sort_by_key(|p| p.0);
    let (mut next, mut running, mut energy) = (0, Vec::<Piece>::new(), 0.0);
    for w in times.windows(2) {
        while next < pieces.len() && pieces[next].0 <= w[0] {
            running.push(pieces[next]);
            next += 1;
        }
        running.retain(|p| p.1 > w[0]);
        let usage: f64 = running.iter().map(|p| p.2).sum();
        let u = (usage / capacity).min(1.0);
        energy += (power(model, u) - power(model, 0.0)) * (w[1] - w[0]) as f64 / 1000.0;
    }
    energy
}

/// The test's own power models (SPEC 6.5), those the samples use.
fn power(model: &PowerModel, u: f64) -> f64 {
    match *model {
        PowerModel::Linear { idle, max } => idle + (max - idle) * u,
        PowerModel::Sqrt { idle, max } => idle + (max - idle) * u.sqrt(),
        other => panic!("no power model {other:?} in the test"),
    }
}
