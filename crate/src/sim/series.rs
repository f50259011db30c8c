//! Recording the run's step functions at their change points (the result's `series`).

use super::result::{RegimePoint, Series};

/// Builds the series as the run goes.
#[derive(Debug, Default)]
pub struct SeriesRecorder {
    pub series: Series,
    /// Power averaging: the current window's start and its accumulated W x ms.
    window_start: i64,
    window_energy: f64,
    power: f64,
    power_since: i64,
}

/// Pushes `(t, v)` unless `v` repeats the last value; a second value at the same instant
/// replaces the first.
fn push_change<T: PartialEq + Copy>(points: &mut Vec<(i64, T)>, t: i64, v: T) {
    if let Some(last) = points.last_mut() {
        if last.0 == t {
            last.1 = v;
            let n = points.len();
            if n >= 2 && points[n - 2].1 == v {
                points.pop();
            }
            return;
        }
        if last.1 == v {
            return;
        }
    }
    points.push((t, v));
}

impl SeriesRecorder {
    /// A recorder averaging power over windows of `resolution_ms` (0: exact change points).
    pub fn new(resolution_ms: i64, idle_power: f64) -> Self {
        let mut r = SeriesRecorder {
            power: idle_power,
            ..SeriesRecorder::default()
        };
        r.series.resolution_ms = resolution_ms.max(0);
        if r.series.resolution_ms == 0 {
            r.series.power_w.push((0, idle_power));
        }
        r.series.running_tasks.push((0, 0));
        r.series.queued_tasks.push((0, 0));
        r.series.deferred_tasks.push((0, 0));
        r
    }

    /// The task counts at `t`.
    pub fn counts(&mut self, t: i64, running: u64, queued: u64, deferred: u64) {
        push_change(&mut self.series.running_tasks, t, running);
        push_change(&mut self.series.queued_tasks, t, queued);
        push_change(&mut self.series.deferred_tasks, t, deferred);
    }

    /// The total power is `watts` from `t` on.
    pub fn power(&mut self, t: i64, watts: f64) {
        let r = self.series.resolution_ms;
        if r == 0 {
            push_change(&mut self.series.power_w, t, watts);
        } else {
            self.advance_windows(t);
        }
        self.power = watts;
        self.power_since = t;
    }

    /// Integrates the current power up to `t`, closing the windows that end before it.
    fn advance_windows(&mut self, t: i64) {
        let r = self.series.resolution_ms;
        let mut from = self.power_since;
        while self.window_start + r <= t {
            let end = self.window_start + r;
            self.window_energy += self.power * (end - from) as f64;
            let avg = self.window_energy / r as f64;
            push_change(&mut self.series.power_w, self.window_start, avg);
            self.window_start = end;
            self.window_energy = 0.0;
            from = end;
            // Whole windows at constant power up to `t`: one point for all of them.
            let whole = (t - self.window_start) / r;
            if whole >= 1 {
                push_change(&mut self.series.power_w, self.window_start, self.power);
                self.window_start += whole * r;
                from = self.window_start;
            }
        }
        self.window_energy += self.power * (t - from) as f64;
        self.power_since = t;
    }

    /// The regime from `t` on.
    pub fn regime(&mut self, t: i64, short_low: bool, long_low: bool, stopper_high: bool) {
        let p = RegimePoint {
            time_ms: t,
            short_low,
            long_low,
            stopper_high,
        };
        let same = self.series.regime.last().is_some_and(|l| {
            l.short_low == short_low && l.long_low == long_low && l.stopper_high == stopper_high
        });
        if !same {
            self.series.regime.push(p);
        }
    }

    /// Closes the series at the end of the run.
    pub fn finish(mut self, end: i64, carbon: Vec<(i64, f64)>) -> Series {
        if self.series.resolution_ms > 0 {
            self.advance_windows(end);
            let r = self.series.resolution_ms;
            if end > self.window_start {
                let avg = self.window_energy / (end - self.window_start).min(r) as f64;
                push_change(&mut self.series.power_w, self.window_start, avg);
            }
        }
        self.series.carbon_intensity = carbon;
        self.series
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_change_points_drop_repeats() {
        let mut r = SeriesRecorder::new(0, 10.0);
        r.power(0, 10.0);
        r.power(5, 20.0);
        r.power(5, 30.0);
        r.power(7, 30.0);
        r.power(9, 10.0);
        let s = r.finish(10, vec![]);
        assert_eq!(s.power_w, vec![(0, 10.0), (5, 30.0), (9, 10.0)]);
    }

    #[test]
    fn windows_average_the_power() {
        let mut r = SeriesRecorder::new(10, 0.0);
        r.power(0, 100.0);
        r.power(5, 200.0); // window [0, 10): 5 x 100 + 5 x 200 = 1500 -> 150
        r.power(40, 0.0); // windows [10, 40) at 200
        let s = r.finish(45, vec![]);
        assert_eq!(s.power_w, vec![(0, 150.0), (10, 200.0), (40, 0.0)]);
    }

    #[test]
    fn the_regime_keeps_only_its_changes() {
        let mut r = SeriesRecorder::new(0, 0.0);
        r.regime(0, true, false, true);
        r.regime(5, true, false, true); // the same: no point
        r.regime(7, false, false, true); // short changes
        r.regime(8, false, true, true); // long changes
        r.regime(9, false, true, false); // the stopper changes
        r.regime(10, false, true, false); // the same again
        let times: Vec<i64> = r
            .finish(10, vec![])
            .regime
            .iter()
            .map(|p| p.time_ms)
            .collect();
        assert_eq!(times, vec![0, 7, 8, 9]);
    }
}
