//! Seeded synthetic workloads, so that anyone can regenerate the teaching sample and the
//! benchmark inputs bit for bit.
//!
//! The generator owns one `rand_pcg::Pcg64` seeded with `seed_from_u64(seed)` and draws, per task,
//! in this order:
//! - the gap to the previous submission: exponential with mean `mean_interarrival_ms`
//!   (inverse CDF, `-mean * ln(1 - u)`, rounded down to whole ms);
//! - the core count: one of `cores` with the given weights;
//! - the memory: `cores x` a uniform draw in `memory_per_core_mib`, rounded;
//! - the duration: log-uniform in `duration_ms` (`exp(ln lo + u (ln hi - ln lo))`), rounded to
//!   whole `fragment_ms` (at least one fragment);
//! - deferrable: with probability `deferrable_share`; such a task's deadline is submission +
//!   3 x duration (OpenDC's `deferAll` rule);
//! - per fragment, the CPU usage: `cores x core_speed_mhz x` a uniform draw in `usage`.
//!
//! Uniform draws are `(next_u64() >> 11) x 2^-53`; `ln` and `exp` come from `libm`, so native and
//! wasm builds generate the same tasks.

use crate::model::{TaskSpec, Workload};
use rand::Rng as _;
use rand::SeedableRng;

/// The shape of a synthetic workload.
#[derive(Debug, Clone, PartialEq)]
pub struct SynthSpec {
    pub seed: u64,
    pub tasks: usize,
    /// Absolute time of the first submission, ms since the epoch.
    pub start_epoch_ms: i64,
    pub mean_interarrival_ms: f64,
    /// Core counts and their relative weights.
    pub cores: Vec<(u32, f64)>,
    pub memory_per_core_mib: (f64, f64),
    pub duration_ms: (f64, f64),
    /// Fragment length, ms; durations are whole multiples of it.
    pub fragment_ms: i64,
    pub deferrable_share: f64,
    /// The speed the CPU usage is expressed against, MHz per core.
    pub core_speed_mhz: f64,
    /// Range of the fraction of the requested capacity used in each fragment.
    pub usage: (f64, f64),
}

struct Draw(rand_pcg::Pcg64);

impl Draw {
    fn uniform(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    fn between(&mut self, (lo, hi): (f64, f64)) -> f64 {
        lo + self.uniform() * (hi - lo)
    }
}

/// Generates the workload described by `spec`.
pub fn generate(spec: &SynthSpec) -> Workload {
    let mut draw = Draw(rand_pcg::Pcg64::seed_from_u64(spec.seed));
    let total_weight: f64 = spec.cores.iter().map(|c| c.1).sum();
    let mut w = Workload::default();
    let mut t = spec.start_epoch_ms;
    for i in 0..spec.tasks {
        if i > 0 {
            let u = draw.uniform();
            t += (-spec.mean_interarrival_ms * libm::log(1.0 - u)) as i64;
        }
        let pick = draw.uniform() * total_weight;
        let mut acc = 0.0;
        let mut cores = spec.cores.last().map_or(1, |c| c.0);
        for &(c, weight) in &spec.cores {
            acc += weight;
            if pick < acc {
                cores = c;
                break;
            }
        }
        let memory = (cores as f64 * draw.between(spec.memory_per_core_mib)).round() as i64;
        let (lo, hi) = spec.duration_ms;
        let raw = libm::exp(libm::log(lo) + draw.uniform() * (libm::log(hi) - libm::log(lo)));
        let fragments = ((raw / spec.fragment_ms as f64).round() as i64).max(1);
        let deferrable = draw.uniform() < spec.deferrable_share;
        let capacity = cores as f64 * spec.core_speed_mhz;
        let start = w.fragments.begin_task();
        for _ in 0..fragments {
            let usage = (capacity * draw.between(spec.usage)).round();
            w.fragments.push(spec.fragment_ms, usage);
        }
        let duration = fragments * spec.fragment_ms;
        w.tasks.push(TaskSpec {
            id: i.to_string(),
            name: format!("job-{i:04}"),
            submission_ms: t,
            duration_ms: duration,
            cpu_count: cores,
            cpu_capacity_mhz: capacity,
            memory_mib: memory,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable,
            deadline_ms: deferrable.then_some(t + 3 * duration),
            fragments: start..w.fragments.end(),
        });
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> SynthSpec {
        SynthSpec {
            seed: 7,
            tasks: 500,
            start_epoch_ms: 1_000_000,
            mean_interarrival_ms: 60_000.0,
            cores: vec![(1, 1.0), (4, 1.0)],
            memory_per_core_mib: (1000.0, 2000.0),
            duration_ms: (60_000.0, 3_600_000.0),
            fragment_ms: 60_000,
            deferrable_share: 0.5,
            core_speed_mhz: 2000.0,
            usage: (0.5, 1.0),
        }
    }

    #[test]
    fn is_deterministic_and_within_its_ranges() {
        let a = generate(&spec());
        assert_eq!(a, generate(&spec()));
        assert_ne!(a, generate(&SynthSpec { seed: 8, ..spec() }));
        for t in &a.tasks {
            assert!(t.cpu_count == 1 || t.cpu_count == 4);
            let per_core = t.memory_mib as f64 / t.cpu_count as f64;
            assert!((999.0..=2001.0).contains(&per_core));
            assert!(t.duration_ms >= 60_000 && t.duration_ms <= 3_600_000);
            assert_eq!(t.duration_ms, a.fragment_count(t) as i64 * 60_000);
            assert_eq!(t.deadline_ms.is_some(), t.deferrable);
        }
        // Mean gap close to 60 s over 499 gaps (exponential: sd of the mean ~ 60 s / sqrt(499)).
        let span = a.tasks[499].submission_ms - a.tasks[0].submission_ms;
        let mean_gap = span as f64 / 499.0;
        assert!((50_000.0..70_000.0).contains(&mean_gap), "{mean_gap}");
        let deferrable = a.tasks.iter().filter(|t| t.deferrable).count();
        assert!((200..300).contains(&deferrable), "{deferrable}");
    }
}
