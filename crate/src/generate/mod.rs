//! The workload generator a user drives (`policy-playground generate`, the page's generator
//! panel): tasks arriving at a rate with a daily pattern or in bursts, cores and memory drawn
//! from given choices, a duration distribution, a share of deferrable tasks with their deadline
//! slack, and optional CPU-usage fragments. Every setting has a default
//! ([`GeneratorSettings`]); the same settings give the same workload, byte for byte, natively and
//! in wasm. (`crate::synth` is the generator of the benchmark and the teaching sample, kept as it
//! is so that those regenerate bit for bit.)
//!
//! One PCG64 seeded with `seed_from_u64(seed)` makes every draw, in this order: the submission
//! times ([`arrivals::submissions`]); then, for each task in submission order, its cores (one
//! uniform), its memory per core (one), its duration (one, none for `constant`), whether it is
//! deferrable (one), and with fragments one per fragment for its CPU usage. So:
//! - tasks are numbered in submission order (`id` "0", "1", ..., `name` `job-00000`, ...), and
//!   submitted at whole seconds after `startMs`;
//! - a task asks `cores × coreSpeedMhz` MHz and `cores × memoryPerCoreMib` MiB;
//! - its duration is drawn in minutes, then made whole fragments (at least one) or, without
//!   fragments, whole seconds (at least one);
//! - a deferrable task's deadline is `submission + duration + round(slackFactor × duration)`;
//! - a fragment's CPU usage is `round(capacity × (usageMin + u (usageMax − usageMin)))` MHz;
//!   without fragments a task uses its whole capacity throughout (SPEC 6.4).
//!
//! Bounds: at most [`settings::MAX_TASKS`] tasks and [`settings::MAX_FRAGMENTS`] fragments,
//! checked as the workload is made; past them the answer is an error naming the setting.

pub mod arrivals;
pub mod draw;
pub mod settings;

pub use settings::{schema, GeneratorSettings, MAX_FRAGMENTS, MAX_TASKS};

use crate::diag::Diagnostic;
use crate::model::{TaskSpec, Workload};
use draw::Draw;
use settings::DurationDistribution;

const MINUTE_MS: f64 = 60_000.0;

/// The workload of `settings` (checked first).
pub fn generate(settings: &GeneratorSettings) -> Result<Workload, Vec<Diagnostic>> {
    settings.check()?;
    let s = settings;
    let mut draw = Draw::new(s.seed);
    let submissions = arrivals::submissions(s, &mut draw)?;
    let fragment_ms = (libm::round(s.fragment_minutes * MINUTE_MS) as i64).max(1);
    let mut w = Workload::default();
    for (i, &submit) in submissions.iter().enumerate() {
        let cores = draw.choose(&s.cores);
        let memory = i64::from(cores) * i64::from(draw.choose(&s.memory_per_core_mib));
        let minutes = duration_minutes(s, &mut draw);
        let deferrable = draw.uniform() < s.deferrable_share;
        let capacity = f64::from(cores) * s.core_speed_mhz;
        let start = w.fragments.begin_task();
        let duration = if s.fragments {
            let count = (libm::round(minutes * MINUTE_MS / fragment_ms as f64) as i64).max(1);
            if w.fragments.len().saturating_add(count as u64) > MAX_FRAGMENTS {
                return Err(vec![Diagnostic::error(
                    "fragmentMinutes",
                    format!("these settings give more than {MAX_FRAGMENTS} fragments; a generated workload holds at most {MAX_FRAGMENTS} (use longer fragments, or fewer or shorter tasks)"),
                )]);
            }
            for _ in 0..count {
                let share = s.usage_min + draw.uniform() * (s.usage_max - s.usage_min);
                w.fragments.push(fragment_ms, libm::round(capacity * share));
            }
            count * fragment_ms
        } else {
            (libm::round(minutes * 60.0) as i64).max(1) * 1000
        };
        let slack = libm::round(s.slack_factor * duration as f64) as i64;
        w.tasks.push(TaskSpec {
            id: i.to_string(),
            name: format!("job-{i:05}"),
            submission_ms: submit,
            duration_ms: duration,
            cpu_count: cores,
            cpu_capacity_mhz: capacity,
            memory_mib: memory,
            gpu_count: 0,
            gpu_capacity_mhz: 0.0,
            deferrable,
            deadline_ms: deferrable.then(|| submit + duration + slack),
            fragments: start..w.fragments.end(),
        });
    }
    Ok(w)
}

/// One task's duration in minutes, before rounding.
fn duration_minutes(s: &GeneratorSettings, draw: &mut Draw) -> f64 {
    let (lo, hi, mean) = (
        s.duration_min_minutes,
        s.duration_max_minutes,
        s.duration_mean_minutes,
    );
    match s.duration {
        DurationDistribution::Constant => mean,
        DurationDistribution::LogUniform => {
            let u = draw.uniform();
            libm::exp(libm::log(lo) + u * (libm::log(hi) - libm::log(lo)))
        }
        DurationDistribution::Exponential => {
            let u = draw.uniform();
            let tail = 1.0 - libm::exp(-(hi - lo) / mean);
            lo - mean * libm::log(1.0 - u * tail)
        }
    }
}

/// The generated workload as the JSON text `simulate --workload` reads (compact, tasks in
/// submission order): the bytes of `policy-playground generate --out FILE` and of the page's
/// download.
pub fn workload_json(w: &Workload) -> String {
    crate::output::json::workload(w).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use settings::{Choice, Pattern};

    /// Every task within its settings: cores and memory from the choices, durations in range
    /// and whole fragments, deadlines by the slack rule, usages within the shares.
    #[test]
    fn every_task_keeps_its_settings() {
        let s = GeneratorSettings {
            seed: 5,
            ..GeneratorSettings::default()
        };
        let w = generate(&s).expect("a workload");
        assert!((150..300).contains(&w.tasks.len()), "{}", w.tasks.len());
        let mut last = i64::MIN;
        for (i, t) in w.tasks.iter().enumerate() {
            assert_eq!(t.id, i.to_string());
            assert!(t.submission_ms >= last);
            last = t.submission_ms;
            assert!((s.start_ms..s.start_ms + 72 * 3_600_000).contains(&t.submission_ms));
            assert_eq!((t.submission_ms - s.start_ms) % 1000, 0);
            assert!([1, 2, 4, 8].contains(&t.cpu_count));
            let per_core = t.memory_mib / i64::from(t.cpu_count);
            assert!([1024, 2048, 4096].contains(&per_core));
            assert_eq!(t.cpu_capacity_mhz, f64::from(t.cpu_count) * 2100.0);
            assert_eq!(t.duration_ms % 300_000, 0);
            assert!((300_000..=480 * 60_000).contains(&t.duration_ms));
            assert_eq!(w.fragment_count(t) as i64, t.duration_ms / 300_000);
            match t.deadline_ms {
                Some(d) => assert_eq!(d, t.submission_ms + 3 * t.duration_ms),
                None => assert!(!t.deferrable),
            }
            for (_, usage) in w.task_fragments(t) {
                let u = usage / t.cpu_capacity_mhz;
                assert!((0.499..=1.0).contains(&u), "{u}");
            }
        }
        let deferrable = w.tasks.iter().filter(|t| t.deferrable).count() as f64;
        assert!((deferrable / w.tasks.len() as f64 - 0.5).abs() < 0.12);
    }

    #[test]
    fn the_same_settings_give_the_same_workload() {
        let s = GeneratorSettings::default();
        let a = generate(&s).expect("a workload");
        assert_eq!(a, generate(&s).expect("again"));
        let other = generate(&GeneratorSettings { seed: 1, ..s }).expect("another");
        assert_ne!(a, other);
    }

    /// The JSON text reads back, through the reader `simulate --workload` uses, as the same
    /// workload.
    #[test]
    fn the_json_reads_back_as_the_same_workload() {
        for fragments in [true, false] {
            let s = GeneratorSettings {
                fragments,
                pattern: Pattern::Bursts,
                duration: DurationDistribution::Exponential,
                ..GeneratorSettings::default()
            };
            let w = generate(&s).expect("a workload");
            let back =
                crate::input::workload::read_json_workload(&workload_json(&w)).expect("reads back");
            assert_eq!(back, w);
        }
    }

    /// Without fragments, durations are whole seconds; a constant duration is the mean.
    #[test]
    fn constant_durations_without_fragments() {
        let s = GeneratorSettings {
            fragments: false,
            duration: DurationDistribution::Constant,
            duration_mean_minutes: 90.5,
            cores: vec![Choice {
                value: 2,
                weight: 1.0,
            }],
            ..GeneratorSettings::default()
        };
        let w = generate(&s).expect("a workload");
        assert!(w.fragments.is_empty());
        assert!(w
            .tasks
            .iter()
            .all(|t| t.duration_ms == 5_430_000 && t.cpu_count == 2));
    }

    /// The truncated exponential stays in [min, max] and its mean is the truncated law's:
    /// for mean 60 on [5, 480], 5 + 60 - 475 e^(-475/60) / (1 - e^(-475/60)) = 64.83 min.
    #[test]
    fn exponential_durations_are_truncated() {
        let s = GeneratorSettings {
            duration: DurationDistribution::Exponential,
            ..GeneratorSettings::default()
        };
        let mut d = Draw::new(4);
        let xs: Vec<f64> = (0..50_000).map(|_| duration_minutes(&s, &mut d)).collect();
        assert!(xs.iter().all(|x| (5.0..=480.0).contains(x)));
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let tail = libm::exp(-475.0 / 60.0);
        let expected = 5.0 + 60.0 - 475.0 * tail / (1.0 - tail);
        assert!((mean - expected).abs() < 1.0, "{mean} against {expected}");
    }

    #[test]
    fn too_many_fragments_are_refused_by_name() {
        let s = GeneratorSettings {
            tasks_per_hour: 1000.0,
            hours: 100.0,
            fragment_minutes: 0.01,
            ..GeneratorSettings::default()
        };
        let e = generate(&s).expect_err("too many");
        assert_eq!(e[0].path, "fragmentMinutes");
    }
}
