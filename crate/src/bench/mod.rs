//! The inputs and measurements of `policy-playground bench` (issue 6) that need no files: the
//! decision path against its [`reference`](mod@reference) kernel, synthetic clusters and workloads, and the
//! runs timed on them. The command line adds the surf_week runs, peak memory and the wasm
//! comparison. Times are medians of several repetitions; nothing here is a timed test.
//!
//! Synthetic clusters ([`cluster`]) cycle through four host shapes (16, 32, 64, 128 cores at
//! 2.1-3.0 GHz, 4-8 GiB per core, linear power 100-400 W). Synthetic workloads come from
//! [`crate::synth`] with the specs below ([`scale_workload`], [`memorizing_workload`]), so anyone
//! regenerates them bit for bit.

pub mod reference;

use crate::engine::rank::{self, Scratch};
use crate::engine::{self, Demand, HostState};
use crate::model::{ClusterSpec, HostGroup, PowerModel, Topology, Workload};
use crate::policy::{policy_from_text, Policy};
use crate::sim::{simulate, Options, Scenario};
use crate::synth::{generate, SynthSpec};
use rand::Rng as _;
use rand::SeedableRng;
use reference::{FlatHost, Kernel};
use std::hint::black_box;
use std::time::Instant;

/// The filter policy of the decision and scale benchmarks: three filters, two weighers.
pub const FILTER_POLICY: &str = r#"{"type": "filter",
  "filters": [{"type": "Compute"}, {"type": "VCpu", "allocationRatio": 1.0},
              {"type": "Ram", "allocationRatio": 1.0}],
  "weighers": [{"type": "Ram", "multiplier": 1.0}, {"type": "VCpu", "multiplier": 1.0}]}"#;

/// A policy from the text of a built-in benchmark policy.
pub fn policy(text: &str) -> Result<Policy, String> {
    policy_from_text(text)
        .map(|p| p.0)
        .map_err(|e| format!("benchmark policy: {e:?}"))
}

/// The streaming floor (issue 21): one pass over every task's fragment runs, reading each run's
/// piece and summing the work it asks for (count x duration x CPU usage, MHz·ms), median ms of
/// `repetitions` passes and the work. A simulation reads at least this much of the workload, so
/// a figure's ratio to it says how far the figure is from the memory-bound limit.
pub fn stream_floor(w: &Workload, repetitions: usize) -> (f64, f64) {
    let mut work = 0.0;
    let times = (0..repetitions.max(1))
        .map(|_| {
            let t0 = Instant::now();
            work = 0.0;
            for t in &w.tasks {
                for run in w.fragments.runs(&t.fragments) {
                    let p = w.fragments.piece(run);
                    work += f64::from(run.count) * p.duration_ms as f64 * p.cpu_usage_mhz;
                }
            }
            black_box(work);
            ms_since(t0)
        })
        .collect();
    (median(times), work)
}

/// The median of some samples (0 for none).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Milliseconds since `t0`.
pub fn ms_since(t0: Instant) -> f64 {
    t0.elapsed().as_secs_f64() * 1000.0
}

/// A cluster of `hosts` hosts cycling through four shapes (see the module doc).
pub fn cluster(hosts: u32) -> Topology {
    let shapes = [
        (16, 2100.0, 4),
        (32, 2400.0, 8),
        (64, 2600.0, 4),
        (128, 3000.0, 6),
    ];
    let groups = shapes
        .iter()
        .enumerate()
        .map(|(i, &(cores, speed, gib_per_core))| HostGroup {
            name: format!("shape{i}"),
            count: hosts / 4 + u32::from((i as u32) < hosts % 4),
            cores,
            core_speed_mhz: speed,
            memory_mib: cores as i64 * gib_per_core * 1024,
            gpus: vec![],
            power: PowerModel::Linear {
                idle: 100.0,
                max: 400.0,
            },
        })
        .collect();
    Topology {
        clusters: vec![ClusterSpec {
            name: "bench".into(),
            groups,
        }],
        ..Topology::default()
    }
}

/// The engine's and the reference kernel's time per host of one decision, ns.
#[derive(Debug, Clone, Copy)]
pub struct DecisionTiming {
    pub engine_ns_per_host: f64,
    pub reference_ns_per_host: f64,
}

/// Times the filter scheduler's decision against the reference kernel over `hosts` hosts in
/// a seeded, partly loaded state, for 2,000,000 / `hosts` demands (at least 64) per
/// repetition. Errs when the two ever choose different hosts.
pub fn decision(hosts: u32, repetitions: usize) -> Result<DecisionTiming, String> {
    let policy = policy(FILTER_POLICY)?;
    let (states, demands) = decision_inputs(hosts);
    let flat: Vec<FlatHost> = states.iter().map(FlatHost::of).collect();
    let mut scratch = Scratch::default();
    let mut kernel = Kernel::new(states.len());
    let mut rng = engine::rng(0);
    for d in &demands {
        let engine = rank::select(&policy, &states, d, &mut rng, &mut scratch).host;
        let reference = kernel.select(&flat, d);
        if engine != reference {
            return Err(format!(
                "{hosts} hosts: engine chose {engine:?}, reference {reference:?} for {d:?}"
            ));
        }
    }
    let per_host = 1e6 / (demands.len() as f64 * hosts as f64);
    let (mut e, mut r) = (Vec::new(), Vec::new());
    for _ in 0..repetitions {
        let t0 = Instant::now();
        for d in &demands {
            black_box(rank::select(
                &policy,
                &states,
                black_box(d),
                &mut rng,
                &mut scratch,
            ));
        }
        e.push(ms_since(t0) * per_host);
        let t0 = Instant::now();
        for d in &demands {
            black_box(kernel.select(&flat, black_box(d)));
        }
        r.push(ms_since(t0) * per_host);
    }
    Ok(DecisionTiming {
        engine_ns_per_host: median(e),
        reference_ns_per_host: median(r),
    })
}

/// Hosts of [`cluster`] with a seeded share of their cores and memory provisioned (some full,
/// a few down), and the demands to place on them.
fn decision_inputs(hosts: u32) -> (Vec<HostState>, Vec<Demand>) {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(6);
    let states = cluster(hosts)
        .hosts()
        .iter()
        .map(|spec| {
            let mut h = HostState::from_spec(spec);
            h.up = below(&mut rng, 100) != 0;
            let cores = below(&mut rng, h.cores as u64 + 1) as i64;
            h.provisioned_cores = cores;
            h.instance_count = (cores / 4) as u32;
            h.available_memory = h.memory - below(&mut rng, h.memory as u64 + 1) as i64;
            h
        })
        .collect();
    let count = (2_000_000 / hosts as usize).max(64);
    let demands = (0..count)
        .map(|_| {
            let cpu_count = 1 << below(&mut rng, 6);
            Demand {
                cpu_count,
                cpu_capacity: cpu_count as f64 * 2000.0,
                memory: cpu_count as i64 * (512 + below(&mut rng, 7680) as i64),
                gpu_count: 0,
                gpu_capacity: 0.0,
            }
        })
        .collect();
    (states, demands)
}

/// A draw below `n` (> 0); the slight modulo bias does not matter for benchmark inputs.
fn below(rng: &mut rand_pcg::Pcg64, n: u64) -> u64 {
    rng.next_u64() % n
}

/// The workload of the scale benchmark: `tasks` tasks, one every 2 s on average (Poisson), 1-16
/// cores, 2-6 GiB per core, 5 min to 4 h long in 5-minute fragments at 30-100 % usage.
pub fn scale_workload(tasks: usize) -> Workload {
    generate(&SynthSpec {
        seed: 61,
        tasks,
        start_epoch_ms: 1_700_000_000_000,
        mean_interarrival_ms: 2_000.0,
        cores: vec![(1, 4.0), (2, 3.0), (4, 2.0), (8, 1.0), (16, 0.5)],
        memory_per_core_mib: (2048.0, 6144.0),
        duration_ms: (300_000.0, 14_400_000.0),
        fragment_ms: 300_000,
        deferrable_share: 0.0,
        core_speed_mhz: 2000.0,
        usage: (0.3, 1.0),
    })
}

/// The workload of the memorizing benchmark: `tasks` tasks, one every 100 ms on average
/// (Poisson), 1-8 cores, 1-4 GiB per core, 10 min to 2 h long in 1-hour fragments.
pub fn memorizing_workload(tasks: usize) -> Workload {
    generate(&SynthSpec {
        seed: 62,
        tasks,
        start_epoch_ms: 1_700_000_000_000,
        mean_interarrival_ms: 100.0,
        cores: vec![(1, 4.0), (2, 2.0), (4, 1.0), (8, 0.5)],
        memory_per_core_mib: (1024.0, 4096.0),
        duration_ms: (600_000.0, 7_200_000.0),
        fragment_ms: 3_600_000,
        deferrable_share: 0.0,
        core_speed_mhz: 2000.0,
        usage: (0.5, 1.0),
    })
}

/// Median ms of simulating `workload` on `topology` under `policy`, without carbon; also the
/// number of tasks completed.
pub fn time_simulation(
    topology: &Topology,
    workload: &Workload,
    policy: &Policy,
    repetitions: usize,
) -> (f64, u64) {
    let mut times = Vec::new();
    let mut completed = 0;
    for _ in 0..repetitions {
        let t0 = Instant::now();
        let r = simulate(
            Scenario {
                topology,
                workload,
                carbon: None,
                policy,
                seed: 0,
                quantum_ms: 1000,
            },
            Options::default(),
        );
        times.push(ms_since(t0));
        completed = r.metrics.tasks_completed;
    }
    (median(times), completed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TaskSpec;

    /// Two tasks: 2 x (30 ms at 1 MHz) then 10 ms at 2 MHz, and 4 x (5 ms at 0.5 MHz): work
    /// 30 + 30 + 20 + 4 x 2.5 = 90 MHz·ms, whatever the runs.
    #[test]
    fn the_floor_sums_every_fragments_work() {
        let task = TaskSpec {
            id: "a".into(),
            name: "a".into(),
            submission_ms: 0,
            duration_ms: 70,
            cpu_count: 1,
            cpu_capacity_mhz: 2.0,
            memory_mib: 1,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable: false,
            deadline_ms: None,
            fragments: 0..0,
        };
        let mut w = Workload::default();
        w.push_task(task.clone(), [(30, 1.0), (30, 1.0), (10, 2.0)]);
        w.push_task(task, [(5, 0.5); 4]);
        assert_eq!(w.fragments.run_count(), 3);
        assert_eq!(stream_floor(&w, 1).1, 90.0);
    }
}
