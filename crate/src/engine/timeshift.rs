//! Carbon-aware time-shifting (SPEC 7): the low-carbon regime, the deferral test and the task
//! stopper's verdict. These functions see only intensities and times; the simulator decides when
//! they are evaluated (at the start of carbon samples) and what they apply to.

use crate::policy::{TaskStopper, Timeshift};
use serde::Serialize;
use std::borrow::Cow;

/// A task is short when its original duration is under two hours.
pub const SHORT_TASK_MS: i64 = 2 * 3600 * 1000;

/// What the current intensity was judged against.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Basis {
    /// Quantiles of the next `samples` forecast values.
    Forecast { samples: usize },
    /// The mean of the last `samples` values of this run.
    WindowMean { samples: usize },
}

/// The low-carbon regime at one carbon sample (SPEC 7.1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Regime {
    /// The intensity of the sample in force, gCO2/kWh.
    pub current: f64,
    pub low_short: bool,
    pub low_long: bool,
    /// The intensity short tasks wait to get below.
    pub reference_short: f64,
    /// The intensity long tasks wait to get below.
    pub reference_long: f64,
    pub basis: Basis,
}

/// `F[min(round(n * q), n - 1)]` of `sorted` ascending values (round half up).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    let i = libm::floor(n as f64 * q + 0.5) as usize;
    sorted[i.min(n - 1)]
}

/// The forecast values sorted ascending: the next `size` of `upcoming`, or `[current]` when none
/// remain.
fn forecast_sorted(current: f64, upcoming: &[f64], size: u32) -> Vec<f64> {
    let mut f: Vec<f64> = upcoming.iter().take(size as usize).copied().collect();
    if f.is_empty() {
        f.push(current);
    }
    f.sort_by(f64::total_cmp);
    f
}

/// Mean of the last `size` values of `history` (the current one last), summed oldest first.
fn window_mean(history: &[f64], size: u32) -> (f64, usize) {
    let start = history.len().saturating_sub(size as usize);
    let window = &history[start..];
    let mut sum = 0.0;
    for v in window {
        sum += v;
    }
    (sum / window.len().max(1) as f64, window.len())
}

/// The regime for the current intensity. `upcoming` are the values of the samples after the
/// current one, in time order; `history` the values evaluated so far in this run, the current
/// one last.
pub fn evaluate(ts: &Timeshift, current: f64, upcoming: &[f64], history: &[f64]) -> Regime {
    if ts.forecast {
        let f = forecast_sorted(current, upcoming, ts.forecast_size);
        let short = quantile(&f, ts.short_forecast_threshold);
        let long = quantile(&f, ts.long_forecast_threshold);
        Regime {
            current,
            low_short: current < short,
            low_long: current < long,
            reference_short: short,
            reference_long: long,
            basis: Basis::Forecast { samples: f.len() },
        }
    } else {
        let (mean, samples) = window_mean(history, ts.window_size);
        Regime {
            current,
            low_short: current < mean,
            low_long: current < mean,
            reference_short: mean,
            reference_long: mean,
            basis: Basis::WindowMean { samples },
        }
    }
}

/// Seeded noise on the forecast a time-shifting policy reads (the `forecastError` run option,
/// beyond OpenDC; see [`crate::whatif`]). The intensity the run is charged is never noisy.
///
/// At the start of carbon sample `i` the policy forecasts the next samples; the forecast of the
/// `k`-th of them is `v × max(0, 1 + error × z)`, `v` its true value and `z` a standard normal
/// draw. The draws come from a generator of their own, never the run's (whose draws
/// `subsetSize` uses): a PCG64 seeded (`seed_from_u64`) with
/// `splitmix64(seed ^ splitmix64(i ^ 0x666f_7265_6361_7374))`, `seed` being the run's seed, and
/// `z_k = sqrt(-2 ln(1 - u1)) cos(2π u2)` (Box-Muller, one normal from each pair of uniforms
/// `u = (next_u64 >> 11) × 2^-53`, `ln` and `cos` from `libm`). So a sample's forecast is the
/// same however often and in whatever order it is asked for, and native and wasm agree. An
/// error of 0 reads the trace itself: the run is the one without the option, byte for byte.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ForecastNoise {
    /// The relative standard deviation of the forecast (0.1 is 10 %).
    pub error: f64,
    /// The run's seed.
    pub seed: u64,
}

/// SplitMix64's finaliser: a bijection of u64 that spreads nearby inputs apart.
fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl ForecastNoise {
    /// The generator of sample `i`'s forecast.
    pub fn generator(&self, sample: usize) -> rand_pcg::Pcg64 {
        use rand::SeedableRng;
        let tag = 0x666f_7265_6361_7374; // "forecast"
        rand_pcg::Pcg64::seed_from_u64(splitmix64(self.seed ^ splitmix64(sample as u64 ^ tag)))
    }

    /// The forecast made at the start of sample `sample`: the first `n` of `upcoming` (the true
    /// values of the samples after it), each with its noise; `upcoming` itself at error 0.
    pub fn forecast<'a>(&self, upcoming: &'a [f64], n: usize, sample: usize) -> Cow<'a, [f64]> {
        if self.error == 0.0 {
            return Cow::Borrowed(upcoming);
        }
        use rand::Rng as _;
        let mut g = self.generator(sample);
        let mut uniform = || (g.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        let noisy = upcoming
            .iter()
            .take(n)
            .map(|&v| {
                let (u1, u2) = (uniform(), uniform());
                let z = libm::sqrt(-2.0 * libm::log(1.0 - u1))
                    * libm::cos(2.0 * std::f64::consts::PI * u2);
                v * (1.0 + self.error * z).max(0.0)
            })
            .collect();
        Cow::Owned(noisy)
    }
}

/// How many forecast values a time-shifting policy reads at a carbon sample: the larger of its
/// own and its task stopper's `forecastSize`, for those in forecast mode (0 when neither is).
pub fn forecast_len(ts: &Timeshift) -> usize {
    let own = if ts.forecast { ts.forecast_size } else { 0 };
    let stopper =
        ts.task_stopper
            .as_ref()
            .map_or(0, |st| if st.forecast { st.forecast_size } else { 0 });
    own.max(stopper) as usize
}

/// The task stopper's verdict at one carbon sample (SPEC 7.4).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct StopperVerdict {
    pub high: bool,
    pub current: f64,
    pub reference: f64,
    pub basis: Basis,
}

/// Whether the intensity is high enough to pause running deferrable tasks.
pub fn stopper(
    st: &TaskStopper,
    current: f64,
    upcoming: &[f64],
    history: &[f64],
) -> StopperVerdict {
    let (reference, basis) = if st.forecast {
        let f = forecast_sorted(current, upcoming, st.forecast_size);
        (
            quantile(&f, st.forecast_threshold),
            Basis::Forecast { samples: f.len() },
        )
    } else {
        let (mean, samples) = window_mean(history, st.window_size);
        (mean, Basis::WindowMean { samples })
    };
    StopperVerdict {
        high: current > reference,
        current,
        reference,
        basis,
    }
}

/// The deferral test of one task at one cycle (SPEC 7.2), with its numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Deferral {
    pub deferred: bool,
    /// `short` (< 2 h) or `long`.
    pub task_length: &'static str,
    /// `low`, `high`, or `none` before the first carbon sample is evaluated.
    pub regime: &'static str,
    pub current_intensity: Option<f64>,
    /// The intensity this task's regime compares against.
    pub reference_intensity: Option<f64>,
    pub basis: Option<Basis>,
    pub now_ms: i64,
    pub remaining_ms: i64,
    pub deadline_ms: Option<i64>,
    /// `deadline - (now + remaining)`: how long the task could still wait.
    pub slack_ms: Option<i64>,
    pub reason: String,
}

/// How the deferral test compares `now + remaining` with the deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeadlineTest {
    /// `now + remaining < deadline` (SPEC 7.2).
    Strict,
    /// `now + remaining <= deadline`: OpenDC 3's memorizing time-shift under Current (SPEC
    /// 11.12, C14).
    Inclusive,
}

impl DeadlineTest {
    /// The test of `policy` under `semantics`: inclusive only for a memorizing timeshift
    /// policy under Current.
    pub fn of(policy: &crate::policy::Policy, semantics: super::Semantics) -> Self {
        let memorizing_timeshift = policy.memorize && policy.timeshift.is_some();
        if memorizing_timeshift && semantics == super::Semantics::Current {
            DeadlineTest::Inclusive
        } else {
            DeadlineTest::Strict
        }
    }

    /// True when a task with this slack (`deadline - (now + remaining)`) may still wait.
    fn may_wait(self, slack: i64) -> bool {
        match self {
            DeadlineTest::Strict => slack > 0,
            DeadlineTest::Inclusive => slack >= 0,
        }
    }
}

/// Decides whether a task is deferred at `now` under the strict test of SPEC 7.2.
/// `duration_ms` is its original duration (for short/long), `remaining_ms` its remaining work.
pub fn deferral(
    regime: Option<&Regime>,
    now: i64,
    duration_ms: i64,
    remaining_ms: i64,
    deferrable: bool,
    deadline_ms: Option<i64>,
) -> Deferral {
    deferral_with(
        DeadlineTest::Strict,
        regime,
        now,
        duration_ms,
        remaining_ms,
        deferrable,
        deadline_ms,
    )
}

/// [`deferral`] with the deadline comparison `test`.
pub fn deferral_with(
    test: DeadlineTest,
    regime: Option<&Regime>,
    now: i64,
    duration_ms: i64,
    remaining_ms: i64,
    deferrable: bool,
    deadline_ms: Option<i64>,
) -> Deferral {
    let short = duration_ms < SHORT_TASK_MS;
    let low = regime.is_some_and(|r| if short { r.low_short } else { r.low_long });
    let slack = deadline_ms.map(|d| d.saturating_sub(now.saturating_add(remaining_ms)));
    let (deferred, reason) = if !deferrable {
        (false, "not deferrable".to_string())
    } else if deadline_ms.is_none() {
        (
            false,
            "deferrable but without a deadline: never deferred".to_string(),
        )
    } else if low {
        (false, "carbon intensity is low: runs now".to_string())
    } else if slack.is_some_and(|s| test.may_wait(s)) {
        let why = if regime.is_none() {
            "no carbon sample evaluated yet"
        } else {
            "carbon intensity is not low"
        };
        (
            true,
            format!(
                "{why}: deferred, can still wait {}",
                crate::format::duration(slack.unwrap_or(0) as f64)
            ),
        )
    } else {
        (
            false,
            "carbon intensity is not low, but waiting longer would miss the deadline".to_string(),
        )
    };
    Deferral {
        deferred,
        task_length: if short { "short" } else { "long" },
        regime: match regime {
            None => "none",
            Some(_) if low => "low",
            Some(_) => "high",
        },
        current_intensity: regime.map(|r| r.current),
        reference_intensity: regime.map(|r| {
            if short {
                r.reference_short
            } else {
                r.reference_long
            }
        }),
        basis: regime.map(|r| r.basis),
        now_ms: now,
        remaining_ms,
        deadline_ms,
        slack_ms: slack,
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::prefab::TIMESHIFT_DEFAULTS;

    #[test]
    fn quantile_rounds_half_up_without_interpolation() {
        let f: Vec<f64> = (0..24).map(|i| i as f64).collect();
        assert_eq!(quantile(&f, 0.2), 5.0); // 24 * 0.2 = 4.8 -> 5
        assert_eq!(quantile(&f, 0.35), 8.0); // 8.4 -> 8
        assert_eq!(quantile(&[1.0, 2.0], 0.25), 2.0); // 0.5 -> 1
        assert_eq!(quantile(&[1.0, 2.0], 1.0), 2.0); // clamped to n - 1
    }

    #[test]
    fn forecast_regime_compares_with_quantiles_of_the_next_samples() {
        let upcoming: Vec<f64> = (1..=30).map(|i| i as f64 * 10.0).collect();
        // F = 10..240 (24 values); short ref F[5] = 60, long ref F[8] = 90.
        let r = evaluate(&TIMESHIFT_DEFAULTS, 70.0, &upcoming, &[]);
        assert_eq!((r.reference_short, r.reference_long), (60.0, 90.0));
        assert!(!r.low_short && r.low_long);
        // At the end of the trace F = [v]: never strictly below itself.
        let r = evaluate(&TIMESHIFT_DEFAULTS, 70.0, &[], &[]);
        assert!(!r.low_short && !r.low_long);
    }

    #[test]
    fn window_regime_uses_the_mean_of_the_last_values() {
        let ts = Timeshift {
            forecast: false,
            window_size: 2,
            ..TIMESHIFT_DEFAULTS
        };
        let r = evaluate(&ts, 200.0, &[], &[50.0, 100.0, 200.0]);
        assert_eq!(r.reference_short, 150.0);
        assert!(!r.low_short);
        let r = evaluate(&ts, 100.0, &[], &[300.0, 100.0]);
        assert!(r.low_short && r.low_long);
    }

    #[test]
    fn deferral_needs_a_deadline_a_high_regime_and_slack() {
        let ts = Timeshift {
            forecast: false,
            window_size: 2,
            ..TIMESHIFT_DEFAULTS
        };
        let high = evaluate(&ts, 200.0, &[], &[100.0, 200.0]);
        let d = deferral(Some(&high), 10, 10, 10, true, Some(50));
        assert!(d.deferred);
        assert_eq!(d.slack_ms, Some(30));
        assert!(!deferral(Some(&high), 10, 10, 10, true, Some(20)).deferred);
        assert!(!deferral(Some(&high), 10, 10, 10, false, Some(50)).deferred);
        assert!(!deferral(Some(&high), 10, 10, 10, true, None).deferred);
        assert!(deferral(None, 10, 10, 10, true, Some(50)).deferred);
    }

    /// C14: with no slack left (10 + 10 = 20 = deadline) the strict test runs the task now
    /// and the inclusive one (memorizing time-shift under Current) defers it; one ms past the
    /// deadline neither defers.
    #[test]
    fn the_inclusive_test_defers_at_zero_slack() {
        let ts = Timeshift {
            forecast: false,
            window_size: 2,
            ..TIMESHIFT_DEFAULTS
        };
        let high = evaluate(&ts, 200.0, &[], &[100.0, 200.0]);
        let at = |test, deadline| {
            deferral_with(test, Some(&high), 10, 10, 10, true, Some(deadline)).deferred
        };
        assert!(!at(DeadlineTest::Strict, 20));
        assert!(at(DeadlineTest::Inclusive, 20));
        assert!(!at(DeadlineTest::Inclusive, 19));
        assert!(at(DeadlineTest::Strict, 21));
    }
}

/// The boundaries of the time-shifting tests (issue 15, item 3): each comparison at equality,
/// the short/long split, and the task stopper.
#[cfg(test)]
mod boundary_tests {
    use super::*;
    use crate::policy::prefab::TIMESHIFT_DEFAULTS;

    /// Forecast 10, 20, ..., 300 after a current 70: F is the next 24 (10..240), the short
    /// reference F[round(24 x 0.2) = 5] = 60, the long one F[round(24 x 0.35) = 8] = 90; so 70
    /// is low for long tasks only.
    fn split_regime() -> Regime {
        let upcoming: Vec<f64> = (1..=30).map(|i| i as f64 * 10.0).collect();
        evaluate(&TIMESHIFT_DEFAULTS, 70.0, &upcoming, &[])
    }

    /// Short means under 2 h = 7 200 000 ms: a task of 7 199 999 ms is short and waits for 60
    /// (deferred, slack 10 000 000 - 7 199 999 = 2 800 001 ms); one of exactly 2 h is long and
    /// runs now (70 < 90).
    #[test]
    fn short_and_long_tasks_compare_with_their_own_reference() {
        assert_eq!(SHORT_TASK_MS, 7_200_000);
        let r = split_regime();
        let short = deferral(Some(&r), 0, 7_199_999, 7_199_999, true, Some(10_000_000));
        assert_eq!(
            (short.deferred, short.task_length, short.regime),
            (true, "short", "high")
        );
        assert_eq!(
            (short.reference_intensity, short.slack_ms),
            (Some(60.0), Some(2_800_001))
        );
        let long = deferral(Some(&r), 0, 7_200_000, 7_200_000, true, Some(10_000_000));
        assert_eq!(
            (long.deferred, long.task_length, long.regime),
            (false, "long", "low")
        );
        assert_eq!(long.reference_intensity, Some(90.0));
        assert_eq!(long.reason, "carbon intensity is low: runs now");
    }

    /// In window mode the current value is low only strictly below the mean: 150 against the
    /// mean of [150, 150] is not low.
    #[test]
    fn the_window_mean_itself_is_not_low() {
        let ts = Timeshift {
            forecast: false,
            window_size: 2,
            ..TIMESHIFT_DEFAULTS
        };
        let r = evaluate(&ts, 150.0, &[], &[150.0, 150.0]);
        assert_eq!(
            (r.low_short, r.low_long, r.reference_short),
            (false, false, 150.0)
        );
        assert_eq!(r.basis, Basis::WindowMean { samples: 2 });
    }

    /// The stopper pauses strictly above its reference. Window mode, size 2: 200 against
    /// (100 + 200) / 2 = 150 is high; 150 against 150 is not; 100 against 150 is not.
    /// Forecast mode, the next 4 of [10, 40, 20, 30, 99] sorted [10, 20, 30, 40], quantile 0.5:
    /// F[round(4 x 0.5) = 2] = 30; 35 is high.
    #[test]
    fn the_stopper_is_high_strictly_above_its_reference() {
        let window = TaskStopper {
            forecast: false,
            forecast_size: 24,
            forecast_threshold: 0.5,
            window_size: 2,
        };
        let v = stopper(&window, 200.0, &[], &[100.0, 200.0]);
        assert_eq!((v.high, v.reference), (true, 150.0));
        assert!(!stopper(&window, 150.0, &[], &[150.0, 150.0]).high);
        assert!(!stopper(&window, 100.0, &[], &[200.0, 100.0]).high);
        let forecast = TaskStopper {
            forecast: true,
            forecast_size: 4,
            ..window
        };
        let v = stopper(&forecast, 35.0, &[10.0, 40.0, 20.0, 30.0, 99.0], &[]);
        assert_eq!((v.high, v.reference), (true, 30.0));
        assert_eq!(v.basis, Basis::Forecast { samples: 4 });
        assert!(!stopper(&forecast, 30.0, &[10.0, 40.0, 20.0, 30.0], &[]).high);
    }
}

/// The forecast noise of the `forecastError` what-if: none at 0, the same draws for the same
/// seed and sample however the forecast is asked for, and the stated spread.
#[cfg(test)]
mod noise_tests {
    use super::*;
    use crate::policy::prefab::TIMESHIFT_DEFAULTS;

    const TRUE: [f64; 6] = [100.0, 200.0, 300.0, 400.0, 500.0, 600.0];

    #[test]
    fn no_error_reads_the_trace_itself() {
        let none = ForecastNoise {
            error: 0.0,
            seed: 9,
        };
        assert!(matches!(none.forecast(&TRUE, 2, 0), Cow::Borrowed(f) if f == TRUE));
    }

    #[test]
    fn a_samples_forecast_depends_only_on_the_seed_and_the_sample() {
        let noise = ForecastNoise {
            error: 0.2,
            seed: 9,
        };
        let a = noise.forecast(&TRUE, 6, 3);
        assert_eq!(a, noise.forecast(&TRUE, 6, 3));
        // The first values do not depend on how many are asked for.
        assert_eq!(noise.forecast(&TRUE, 2, 3)[..], a[..2]);
        assert_eq!(noise.forecast(&TRUE, 99, 3).len(), 6);
        assert_ne!(a, noise.forecast(&TRUE, 6, 4));
        assert_ne!(a, ForecastNoise { seed: 10, ..noise }.forecast(&TRUE, 6, 3));
        // Every value moved, none below 0.
        assert!(a.iter().zip(TRUE).all(|(f, v)| *f != v && *f >= 0.0));
    }

    /// 20 000 forecasts of one value 100 at error 0.1: the mean is 100 (its standard error is
    /// 10 / sqrt(20 000) = 0.07) and the standard deviation 10 (standard error about 0.05).
    #[test]
    fn the_noise_has_the_stated_spread() {
        let noise = ForecastNoise {
            error: 0.1,
            seed: 1,
        };
        let draws: Vec<f64> = (0..20_000)
            .map(|i| noise.forecast(&[100.0], 1, i)[0])
            .collect();
        let n = draws.len() as f64;
        let mean = draws.iter().sum::<f64>() / n;
        let sd = (draws.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n).sqrt();
        assert!((mean - 100.0).abs() < 0.3, "mean {mean}");
        assert!((sd - 10.0).abs() < 0.3, "sd {sd}");
        // At an error of 3, z < -1/3 (a third of the draws) clamps the forecast to 0.
        let wild = ForecastNoise {
            error: 3.0,
            ..noise
        };
        let zeros = (0..3_000)
            .filter(|&i| wild.forecast(&[100.0], 1, i)[0] == 0.0)
            .count();
        assert!((800..1_300).contains(&zeros), "{zeros}");
    }

    #[test]
    fn the_forecast_read_is_the_longer_of_the_policys_and_its_stoppers() {
        assert_eq!(forecast_len(&TIMESHIFT_DEFAULTS), 24);
        let window = Timeshift {
            forecast: false,
            ..TIMESHIFT_DEFAULTS
        };
        assert_eq!(forecast_len(&window), 0);
        let stopper = TaskStopper {
            forecast: true,
            forecast_size: 48,
            forecast_threshold: 0.6,
            window_size: 168,
        };
        let with_stopper = Timeshift {
            task_stopper: Some(stopper),
            ..window
        };
        assert_eq!(forecast_len(&with_stopper), 48);
    }
}
