//! The reference's power, energy and carbon (SPEC 6.5) and the carbon-driven rules of SPEC 7.1
//! and 7.4: power models, the carbon step function with its integral from time 0, one meter per
//! host integrating exactly from one change to the next, the low-carbon regime and the stopper.

use policy_playground::model::{CarbonTrace, PowerModel};
use policy_playground::policy::{TaskStopper, Timeshift};

/// SPEC 6.5: a host's power in W at utilisation `u` (clamped to [0, 1]); `pow` and `exp` from
/// `libm`, as SPEC requires.
pub fn power(model: &PowerModel, u: f64) -> f64 {
    let u = u.clamp(0.0, 1.0);
    match *model {
        PowerModel::Constant { power } => power,
        PowerModel::Linear { idle, max } => idle + (max - idle) * u,
        PowerModel::Sqrt { idle, max } => idle + (max - idle) * u.sqrt(),
        PowerModel::Square { idle, max } => idle + (max - idle) * (u * u),
        PowerModel::Cubic { idle, max } => idle + (max - idle) * (u * u * u),
        PowerModel::Mse {
            idle,
            max,
            calibration,
        } => idle + (max - idle) * (2.0 * u - libm::pow(u, calibration)),
        PowerModel::Asymptotic {
            idle,
            max,
            asym_util,
            dvfs,
        } => {
            let x = if dvfs { u * u * u } else { u };
            idle + (max - idle) / 2.0 * (1.0 + x - libm::exp(-x / asym_util))
        }
    }
}

/// The index of a power model in [`MODEL_NAMES`].
pub fn model_index(model: &PowerModel) -> usize {
    match model {
        PowerModel::Constant { .. } => 0,
        PowerModel::Linear { .. } => 1,
        PowerModel::Sqrt { .. } => 2,
        PowerModel::Square { .. } => 3,
        PowerModel::Cubic { .. } => 4,
        PowerModel::Mse { .. } => 5,
        PowerModel::Asymptotic { .. } => 6,
    }
}

/// The power models, in the order of [`model_index`].
pub const MODEL_NAMES: [&str; 7] = [
    "constant",
    "linear",
    "sqrt",
    "square",
    "cubic",
    "mse",
    "asymptotic",
];

/// The carbon trace on the simulation clock: a step function extended backwards and forwards.
#[derive(Debug, Clone)]
pub struct Steps {
    /// Sample starts, simulation ms.
    pub starts: Vec<i64>,
    pub values: Vec<f64>,
    /// The sample in force at time 0.
    pub first: usize,
    /// The integral of the intensity from 0 to each sample start after `first` (0 up to it).
    integral: Vec<f64>,
}

impl Steps {
    /// The trace with `epoch` as time 0; `None` for an empty trace.
    pub fn new(trace: &CarbonTrace, epoch: i64) -> Option<Self> {
        if trace.timestamps_ms.is_empty() {
            return None;
        }
        let starts: Vec<i64> = trace.timestamps_ms.iter().map(|&t| t - epoch).collect();
        let first = starts.iter().filter(|&&s| s <= 0).count().saturating_sub(1);
        let values = trace.intensity.clone();
        let mut integral = vec![0.0; starts.len()];
        for i in first + 1..starts.len() {
            let from = if i - 1 == first { 0 } else { starts[i - 1] };
            integral[i] = integral[i - 1] + values[i - 1] * (starts[i] - from) as f64;
        }
        Some(Steps {
            starts,
            values,
            first,
            integral,
        })
    }

    /// The integral of the intensity from 0 to `t >= 0`, gCO2/kWh x ms.
    pub fn integral_to(&self, t: i64) -> f64 {
        let i = (self.first..self.starts.len())
            .rev()
            .find(|&i| i == self.first || self.starts[i] <= t)
            .unwrap_or(self.first);
        let from = if i == self.first { 0 } else { self.starts[i] };
        self.integral[i] + self.values[i] * (t - from) as f64
    }
}

/// One host's power draw and what it has accumulated (SPEC 6.5, 6.6, 7).
#[derive(Debug, Clone)]
pub struct Meter {
    pub model: PowerModel,
    pub capacity: f64,
    pub idle: f64,
    pub usage: f64,
    pub power: f64,
    pub busy: bool,
    pub last: i64,
    pub last_carbon: f64,
    pub dynamic_energy: f64,
    pub dynamic_carbon: f64,
    pub utilization_ms: f64,
    pub busy_ms: i64,
}

impl Meter {
    /// An idle host.
    pub fn new(model: PowerModel, capacity: f64) -> Self {
        let idle = power(&model, 0.0);
        Meter {
            model,
            capacity,
            idle,
            usage: 0.0,
            power: idle,
            busy: false,
            last: 0,
            last_carbon: 0.0,
            dynamic_energy: 0.0,
            dynamic_carbon: 0.0,
            utilization_ms: 0.0,
            busy_ms: 0,
        }
    }

    /// Adds what the host drew from its last change to `t` at its current power.
    pub fn integrate(&mut self, t: i64, carbon: Option<&Steps>) {
        let dt = t - self.last;
        if dt <= 0 {
            return;
        }
        let dynamic = self.power - self.idle;
        self.dynamic_energy += dynamic * dt as f64 / 1000.0;
        if let Some(c) = carbon {
            let now = c.integral_to(t);
            self.dynamic_carbon += dynamic * (now - self.last_carbon) / 3.6e9;
            self.last_carbon = now;
        }
        if self.capacity > 0.0 {
            self.utilization_ms += (self.usage / self.capacity).min(1.0) * dt as f64;
        }
        if self.busy {
            self.busy_ms += dt;
        }
        self.last = t;
    }

    /// Sets the usage (MHz, the sum over the running tasks) and whether anything runs.
    pub fn set(&mut self, usage: f64, busy: bool) {
        self.usage = usage;
        self.busy = busy;
        let u = if self.capacity > 0.0 {
            (usage / self.capacity).min(1.0)
        } else {
            0.0
        };
        self.power = power(&self.model, u);
    }
}

/// `F[min(round(n q), n - 1)]` of ascending `f`, rounding half up.
fn quantile(f: &[f64], q: f64) -> f64 {
    let i = (f.len() as f64 * q + 0.5).floor() as usize;
    f[i.min(f.len() - 1)]
}

/// The next `size` values after the current sample, ascending; `[v]` when none remain.
fn forecast(v: f64, upcoming: &[f64], size: u32) -> Vec<f64> {
    let mut f: Vec<f64> = upcoming.iter().take(size as usize).copied().collect();
    if f.is_empty() {
        f.push(v);
    }
    f.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    f
}

/// The mean of the last `size` values of the history (the current one last), oldest first.
fn window_mean(history: &[f64], size: u32) -> f64 {
    let window = &history[history.len().saturating_sub(size as usize)..];
    let mut sum = 0.0;
    for v in window {
        sum += v;
    }
    sum / window.len() as f64
}

/// SPEC 7.1: (low for short tasks, low for long tasks).
pub fn regime(ts: &Timeshift, v: f64, upcoming: &[f64], history: &[f64]) -> (bool, bool) {
    if ts.forecast {
        let f = forecast(v, upcoming, ts.forecast_size);
        (
            v < quantile(&f, ts.short_forecast_threshold),
            v < quantile(&f, ts.long_forecast_threshold),
        )
    } else {
        let mean = window_mean(history, ts.window_size);
        (v < mean, v < mean)
    }
}

/// SPEC 7.4: whether the stopper finds the intensity high.
pub fn stopper_high(st: &TaskStopper, v: f64, upcoming: &[f64], history: &[f64]) -> bool {
    if st.forecast {
        v > quantile(
            &forecast(v, upcoming, st.forecast_size),
            st.forecast_threshold,
        )
    } else {
        v > window_mean(history, st.window_size)
    }
}
