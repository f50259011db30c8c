//! When generated tasks arrive: the steady (or daily) Poisson process, by thinning, and the
//! bursts, as submission times in ms since the epoch, sorted.

use super::draw::Draw;
use super::settings::{GeneratorSettings, Pattern, MAX_TASKS};
use crate::diag::Diagnostic;

const HOUR_MS: f64 = 3_600_000.0;
const DAY_MS: f64 = 86_400_000.0;

/// The rate at `t` hours after the start, relative to its maximum (the thinning's acceptance
/// probability): 1 but for the daily pattern.
fn relative_rate(s: &GeneratorSettings, t: f64) -> f64 {
    match s.pattern {
        Pattern::Daily => {
            let absolute = s.start_ms as f64 + t * HOUR_MS;
            let hour = (absolute % DAY_MS) / HOUR_MS;
            let phase = 2.0 * std::f64::consts::PI * (hour - s.peak_hour) / 24.0;
            (1.0 + s.daily_amplitude * libm::cos(phase)) / (1.0 + s.daily_amplitude)
        }
        Pattern::Constant | Pattern::Bursts => 1.0,
    }
}

/// The error for more arrivals than a workload may hold.
fn too_many() -> Vec<Diagnostic> {
    vec![Diagnostic::error(
        "tasksPerHour",
        format!("these settings gave more than {MAX_TASKS} tasks; a generated workload holds at most {MAX_TASKS}"),
    )]
}

/// The submission times, ascending (ties in the order they were drawn), each the start plus a
/// whole number of seconds (the arrival time rounded down). Draws, in order: for
/// each candidate of the steady process, its gap (`−ln(1 − u) / λmax` hours, `λmax` the
/// largest rate) and, for the daily pattern only, its acceptance (`u < λ(t) / λmax`); then for
/// each burst in time order, each of its tasks' offset (`u × burstMinutes`).
pub fn submissions(s: &GeneratorSettings, draw: &mut Draw) -> Result<Vec<i64>, Vec<Diagnostic>> {
    let mut out: Vec<i64> = Vec::new();
    let peak_rate = match s.pattern {
        Pattern::Daily => s.tasks_per_hour * (1.0 + s.daily_amplitude),
        Pattern::Constant | Pattern::Bursts => s.tasks_per_hour,
    };
    // Whole seconds after the start: times a person reads in the task table.
    let at = |hours: f64| s.start_ms + libm::floor(hours * 3600.0) as i64 * 1000;
    if peak_rate > 0.0 {
        let mut t = 0.0;
        loop {
            t += -libm::log(1.0 - draw.uniform()) / peak_rate;
            if t >= s.hours {
                break;
            }
            let accepted = match s.pattern {
                Pattern::Daily => draw.uniform() < relative_rate(s, t),
                Pattern::Constant | Pattern::Bursts => true,
            };
            if accepted {
                if out.len() as u64 >= MAX_TASKS {
                    return Err(too_many());
                }
                out.push(at(t));
            }
        }
    }
    if s.pattern == Pattern::Bursts {
        for k in 0..s.bursts() {
            let centre = (k as f64 + 0.5) * s.burst_every_hours;
            for _ in 0..s.burst_size {
                if out.len() as u64 >= MAX_TASKS {
                    return Err(too_many());
                }
                out.push(at(centre + draw.uniform() * s.burst_minutes / 60.0));
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_daily_rate_peaks_at_its_hour() {
        let s = GeneratorSettings {
            start_ms: 0,
            peak_hour: 14.0,
            daily_amplitude: 0.5,
            ..GeneratorSettings::default()
        };
        // At 14:00 the rate is its maximum; at 02:00 it is (1 - 0.5) / (1 + 0.5) of it.
        assert_eq!(relative_rate(&s, 14.0), 1.0);
        assert!((relative_rate(&s, 26.0) - 1.0 / 3.0).abs() < 1e-15);
        assert!((relative_rate(&s, 2.0) - 1.0 / 3.0).abs() < 1e-15);
    }

    /// Over 1000 days at 4 tasks an hour, a swing of 0.8 peaking at 14:00: each hour of the
    /// day holds about 1000 x the integral of the rate over it, 4 (x + 0.8 x 24 / 2π x
    /// sin(2π (x - 14) / 24)) between its ends (from about 7 000 around 14:00 down to about
    /// 830 around 02:00), within 4 Poisson standard deviations.
    #[test]
    fn daily_arrivals_follow_the_curve() {
        let s = GeneratorSettings {
            start_ms: 0,
            hours: 24_000.0,
            tasks_per_hour: 4.0,
            daily_amplitude: 0.8,
            peak_hour: 14.0,
            ..GeneratorSettings::default()
        };
        let times = submissions(&s, &mut Draw::new(3)).expect("arrivals");
        let mut per_hour = [0u32; 24];
        for t in &times {
            per_hour[((t / 3_600_000) % 24) as usize] += 1;
        }
        let expected = |h: f64| {
            // The mean of the rate over the hour [h, h + 1).
            let f = |x: f64| {
                x + 0.8 * 24.0 / (2.0 * std::f64::consts::PI)
                    * ((2.0 * std::f64::consts::PI * (x - 14.0) / 24.0).sin())
            };
            4.0 * 1000.0 * (f(h + 1.0) - f(h))
        };
        for (h, &count) in per_hour.iter().enumerate() {
            let e = expected(h as f64);
            let n = count as f64;
            // Poisson: sd = sqrt(e) (at most 85); 4 sd.
            assert!((n - e).abs() < 4.0 * e.sqrt(), "hour {h}: {n} against {e}");
        }
    }

    #[test]
    fn bursts_land_in_their_windows() {
        let s = GeneratorSettings {
            start_ms: 0,
            pattern: Pattern::Bursts,
            tasks_per_hour: 0.0,
            hours: 48.0,
            burst_every_hours: 12.0,
            burst_size: 5,
            burst_minutes: 30.0,
            ..GeneratorSettings::default()
        };
        let times = submissions(&s, &mut Draw::new(1)).expect("arrivals");
        assert_eq!(times.len(), 20);
        for (i, t) in times.iter().enumerate() {
            let centre = (i / 5) as i64 * 12 * 3_600_000 + 6 * 3_600_000;
            assert!((centre..centre + 1_800_000).contains(t), "{t}");
        }
    }
}
