//! Digests of a run's inputs for the result's provenance: FNV-1a 64 (the xor-then-multiply step
//! applied to whole 64-bit words, eight times fewer steps than per byte: surf_week has 2.3 M
//! fragments) over a canonical encoding of the parsed content, so the same topology gives the
//! same digest whichever file or handle it came from.

use crate::model::{CarbonTrace, PowerModel, Topology, Workload};
use crate::policy::{expand, Policy};

/// An FNV-1a 64 hasher.
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn u64(&mut self, x: u64) {
        self.0 ^= x;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }
    fn f64(&mut self, x: f64) {
        self.u64(x.to_bits());
    }
    fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.bytes(s.as_bytes());
    }
    fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// A power model as a tag and its three parameters' bits: what the digest hashes, and what tells
/// two models apart bit for bit (`sim::power_memo`).
pub(super) fn power_model_bits(p: &PowerModel) -> (u64, [u64; 3]) {
    let (tag, a, b, c): (u64, f64, f64, f64) = match *p {
        PowerModel::Constant { power } => (0, power, 0.0, 0.0),
        PowerModel::Linear { idle, max } => (1, idle, max, 0.0),
        PowerModel::Sqrt { idle, max } => (2, idle, max, 0.0),
        PowerModel::Square { idle, max } => (3, idle, max, 0.0),
        PowerModel::Cubic { idle, max } => (4, idle, max, 0.0),
        PowerModel::Mse {
            idle,
            max,
            calibration,
        } => (5, idle, max, calibration),
        PowerModel::Asymptotic {
            idle,
            max,
            asym_util,
            dvfs,
        } => (6 + dvfs as u64, idle, max, asym_util),
    };
    (tag, [a.to_bits(), b.to_bits(), c.to_bits()])
}

fn power(h: &mut Fnv, p: &PowerModel) {
    let (tag, parameters) = power_model_bits(p);
    h.u64(tag);
    for x in parameters {
        h.u64(x);
    }
}

/// Digest of a topology.
pub fn topology(t: &Topology) -> String {
    let mut h = Fnv::new();
    for c in &t.clusters {
        h.str(&c.name);
        for g in &c.groups {
            h.str(&g.name);
            h.u64(g.count as u64);
            h.u64(g.cores as u64);
            h.f64(g.core_speed_mhz);
            h.u64(g.memory_mib as u64);
            for gpu in &g.gpus {
                h.u64(gpu.cores as u64);
                h.f64(gpu.core_speed_mhz);
            }
            power(&mut h, &g.power);
        }
    }
    h.hex()
}

/// Digest of a workload.
pub fn workload(w: &Workload) -> String {
    let mut h = Fnv::new();
    // Each task's fragments as a range of one flat list of the tasks' fragments in task order
    // (how the fragments were stored before they became runs, so the digests stayed the same).
    let mut flat = 0u64;
    for t in &w.tasks {
        h.str(&t.id);
        h.str(&t.name);
        h.u64(t.submission_ms as u64);
        h.u64(t.duration_ms as u64);
        h.u64(t.cpu_count as u64);
        h.f64(t.cpu_capacity_mhz);
        h.u64(t.memory_mib as u64);
        h.u64(t.gpu_count as u64);
        h.f64(t.gpu_capacity_mhz);
        h.u64(t.deferrable as u64);
        h.u64(t.deadline_ms.map_or(u64::MAX, |d| d as u64));
        let count = w.fragments.count(&t.fragments);
        h.u64(flat);
        h.u64(flat + count);
        flat += count;
    }
    for t in &w.tasks {
        for run in w.fragments.runs(&t.fragments) {
            let p = w.fragments.piece(run);
            for _ in 0..run.count {
                h.u64(p.duration_ms as u64);
                h.f64(p.cpu_usage_mhz);
            }
        }
    }
    h.hex()
}

/// Digest of a carbon trace.
pub fn carbon(c: &CarbonTrace) -> String {
    let mut h = Fnv::new();
    for (t, v) in c.timestamps_ms.iter().zip(&c.intensity) {
        h.u64(*t as u64);
        h.f64(*v);
    }
    h.hex()
}

/// Digest of a policy (of its explicit form).
pub fn policy(p: &Policy) -> String {
    let mut h = Fnv::new();
    h.str(&expand::to_json(p).to_string());
    h.hex()
}

#[cfg(test)]
mod tests {
    //! Expected digests computed by a separate Python implementation of the encoding above
    //! (FNV-1a 64 over bytes, and the same step over whole 64-bit words); `"a"` over bytes is
    //! FNV-1a 64's published test vector.
    use super::*;
    use crate::model::{ClusterSpec, GpuSpec, HostGroup, TaskSpec};
    use crate::policy::Filter;

    #[test]
    fn the_hasher_steps_match_fnv_1a() {
        assert_eq!(Fnv::new().hex(), "cbf29ce484222325");
        let mut h = Fnv::new();
        h.bytes(b"a");
        assert_eq!(h.hex(), "af63dc4c8601ec8c");
        let mut h = Fnv::new();
        h.u64(1);
        assert_eq!(h.hex(), "af63bc4c8601b62c");
        let mut h = Fnv::new();
        h.f64(1.5);
        assert_eq!(h.hex(), "d02bbd4c8601b7df");
        let mut h = Fnv::new();
        h.str("ab");
        assert_eq!(h.hex(), "ea30041875801e8a");
    }

    #[test]
    fn a_carbon_trace_digest() {
        let c = CarbonTrace {
            timestamps_ms: vec![1_700_000_000_000, 1_700_003_600_000],
            intensity: vec![120.5, 80.0],
        };
        assert_eq!(carbon(&c), "b913ef1a540c6175");
    }

    /// Cluster C, 2 hosts A of 4 cores at 2000 MHz, 8192 MiB, one GPU (1 core at 1500 MHz), the
    /// asymptotic model with DVFS (tag 7), idle 100 W, max 200 W, asymUtil 0.3.
    #[test]
    fn a_topology_digest() {
        let t = Topology {
            clusters: vec![ClusterSpec {
                name: "C".into(),
                groups: vec![HostGroup {
                    name: "A".into(),
                    count: 2,
                    cores: 4,
                    core_speed_mhz: 2000.0,
                    memory_mib: 8192,
                    gpus: vec![GpuSpec {
                        cores: 1,
                        core_speed_mhz: 1500.0,
                    }],
                    power: PowerModel::Asymptotic {
                        idle: 100.0,
                        max: 200.0,
                        asym_util: 0.3,
                        dvfs: true,
                    },
                }],
            }],
            ..Topology::default()
        };
        assert_eq!(topology(&t), "7f95e1d965fc796a");
    }

    /// Task "0" named "t" at 1000 ms, 600 s, 2 cores at 1000 MHz, 100 MiB, no GPU, one fragment
    /// of 600 s at 1000 MHz; deferrable with deadline 5000 ms, and then not (deadline hashed as
    /// u64::MAX).
    #[test]
    fn a_workload_digest() {
        let task = TaskSpec {
            id: "0".into(),
            name: "t".into(),
            submission_ms: 1000,
            duration_ms: 600_000,
            cpu_count: 2,
            cpu_capacity_mhz: 1000.0,
            memory_mib: 100,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable: true,
            deadline_ms: Some(5000),
            fragments: 0..0,
        };
        let mut w = Workload::default();
        w.push_task(task, [(600_000, 1000.0)]);
        assert_eq!(workload(&w), "39f5e26cd07f7437");
        (w.tasks[0].deferrable, w.tasks[0].deadline_ms) = (false, None);
        assert_eq!(workload(&w), "ee02c57306ac156b");
    }

    /// The digest of the policy's explicit JSON text, hashed as a string.
    #[test]
    fn a_policy_digest() {
        let p = Policy {
            filters: vec![Filter::VCpu {
                allocation_ratio: 1.0,
            }],
            weighers: vec![],
            subset_size: 1,
            memorize: false,
            max_times_skipped: 0,
            timeshift: None,
        };
        assert_eq!(policy(&p), "75db6de94e5a5d14");
    }
}
