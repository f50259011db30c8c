//! The carbon trace on the simulation clock: the step function of intensities (SPEC 6.5), its
//! running integral (for exact carbon integrals), and the values the time-shifting rules read
//! (SPEC 7.1: the sample in force, the forecast after it, this run's history).

use crate::model::CarbonTrace;

/// A carbon trace in simulation time.
#[derive(Debug, Clone)]
pub struct CarbonClock {
    /// Sample starts, simulation ms (may be negative: before the first submission).
    starts: Vec<i64>,
    values: Vec<f64>,
    /// `integral[i]` = integral of the intensity from time 0 to the start of sample `i`, in
    /// gCO2/kWh x ms, for the samples after the one in force at 0 (which, like those before it,
    /// holds 0: it is in force from time 0 on).
    integral: Vec<f64>,
    /// Index of the sample in force at time 0.
    first: usize,
}

impl CarbonClock {
    /// The trace shifted so that `start_epoch_ms` is simulation time 0. `None` for an empty trace.
    pub fn new(trace: &CarbonTrace, start_epoch_ms: i64) -> Option<Self> {
        if trace.is_empty() {
            return None;
        }
        let starts: Vec<i64> = trace
            .timestamps_ms
            .iter()
            .map(|&t| t.saturating_sub(start_epoch_ms))
            .collect();
        let values = trace.intensity.clone();
        let first = starts.partition_point(|&s| s <= 0).saturating_sub(1);
        let mut integral = vec![0.0; starts.len()];
        for i in first + 1..starts.len() {
            let from = if i - 1 == first { 0 } else { starts[i - 1] };
            integral[i] = integral[i - 1] + values[i - 1] * (starts[i] - from) as f64;
        }
        Some(CarbonClock {
            starts,
            values,
            integral,
            first,
        })
    }

    /// Index of the sample in force at time 0 (the first sample if the trace starts later).
    pub fn first_index(&self) -> usize {
        self.first
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// True for a trace without samples (never: `new` refuses them).
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Start of sample `i`, simulation ms.
    pub fn start(&self, i: usize) -> i64 {
        self.starts[i]
    }

    /// Intensity of sample `i`.
    pub fn value(&self, i: usize) -> f64 {
        self.values[i]
    }

    /// Values of the samples after `i`, in time order.
    pub fn after(&self, i: usize) -> &[f64] {
        &self.values[(i + 1).min(self.values.len())..]
    }

    /// Index of the sample in force at `t >= 0`.
    pub fn index_at(&self, t: i64) -> usize {
        self.starts
            .partition_point(|&s| s <= t)
            .saturating_sub(1)
            .max(self.first)
    }

    /// Intensity in force at `t >= 0`.
    pub fn intensity_at(&self, t: i64) -> f64 {
        self.values[self.index_at(t)]
    }

    /// Integral of the intensity from 0 to `t >= 0` (gCO2/kWh x ms).
    pub fn integral_to(&self, t: i64) -> f64 {
        let i = self.index_at(t);
        let from = if i == self.first { 0 } else { self.starts[i] };
        self.integral[i] + self.values[i] * (t - from) as f64
    }

    /// [`CarbonClock::integral_to`] for a caller whose times never decrease: `cursor` remembers
    /// the sample reached, so the look-up walks forward instead of searching (start it at 0).
    pub fn integral_to_monotonic(&self, t: i64, cursor: &mut usize) -> f64 {
        let mut i = (*cursor).max(self.first);
        while i + 1 < self.starts.len() && self.starts[i + 1] <= t {
            i += 1;
        }
        *cursor = i;
        let from = if i == self.first { 0 } else { self.starts[i] };
        self.integral[i] + self.values[i] * (t - from) as f64
    }

    /// Simulation time of the last sample start (for coverage warnings).
    pub fn last_start(&self) -> i64 {
        self.starts[self.starts.len() - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(points: &[(i64, f64)]) -> CarbonTrace {
        CarbonTrace {
            timestamps_ms: points.iter().map(|p| p.0).collect(),
            intensity: points.iter().map(|p| p.1).collect(),
        }
    }

    #[test]
    fn integrates_the_step_function_from_time_zero() {
        // Epoch 1000 is time 0: samples at -1000 (100), 500 (200), 1500 (50).
        let c = CarbonClock::new(&trace(&[(0, 100.0), (1500, 200.0), (2500, 50.0)]), 1000).unwrap();
        assert_eq!(c.first_index(), 0);
        assert_eq!(c.intensity_at(0), 100.0);
        assert_eq!(c.integral_to(500), 100.0 * 500.0);
        assert_eq!(c.integral_to(1000), 100.0 * 500.0 + 200.0 * 500.0);
        assert_eq!(c.integral_to(3000), 50_000.0 + 200_000.0 + 50.0 * 1500.0);
        let mut cursor = 0;
        for t in [0, 200, 500, 999, 1000, 2500, 9000] {
            assert_eq!(
                c.integral_to_monotonic(t, &mut cursor),
                c.integral_to(t),
                "at {t}"
            );
        }
    }

    #[test]
    fn the_first_sample_extends_backwards() {
        let c = CarbonClock::new(&trace(&[(5000, 80.0), (6000, 120.0)]), 0).unwrap();
        assert_eq!(c.first_index(), 0);
        assert_eq!(c.intensity_at(0), 80.0);
        assert_eq!(c.integral_to(5500), 80.0 * 5500.0);
        assert_eq!(c.integral_to(7000), 80.0 * 6000.0 + 120.0 * 1000.0);
    }

    #[test]
    fn the_clock_knows_its_samples() {
        let c = CarbonClock::new(&trace(&[(0, 100.0), (1500, 200.0), (2500, 50.0)]), 1000).unwrap();
        assert_eq!((c.len(), c.is_empty()), (3, false));
        assert_eq!((c.start(0), c.start(1), c.last_start()), (-1000, 500, 1500));
        assert_eq!(c.value(1), 200.0);
        assert_eq!(c.after(0), &[200.0, 50.0]);
        assert!(CarbonClock::new(&trace(&[]), 0).is_none());
    }
}
