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

fn power(h: &mut Fnv, p: &PowerModel) {
    let (tag, a, b, c) = match *p {
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
    h.u64(tag);
    h.f64(a);
    h.f64(b);
    h.f64(c);
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
        h.u64(t.fragments.start as u64);
        h.u64(t.fragments.end as u64);
    }
    for (d, u) in w.fragment_duration_ms.iter().zip(&w.fragment_cpu_usage_mhz) {
        h.u64(*d as u64);
        h.f64(*u);
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
