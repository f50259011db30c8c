//! A run's energy and carbon over a common window (SPEC 7, its opening paragraph): runs that end
//! at different times are compared over the same span, from time 0 to the latest end of the
//! runs compared, each host drawing its idle power from its run's end to that window's end. A
//! shorter run would otherwise look cheaper only because its datacenter stops existing sooner
//! (the time-shifting lesson: a later end adds idle energy that hides the carbon saved).
//!
//! Only the idle parts grow; the dynamic parts are the run's own. The sums are made in the
//! order the run's own figures are, so that a window ending at the run's end gives them bit for
//! bit.

use super::carbon::CarbonClock;
use super::power::{grams, idle_power, joules};
use super::result::Metrics;
use crate::model::{CarbonTrace, Topology};
use serde::Serialize;

/// A run's energy and carbon from time 0 to `window_end_ms`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct WindowFigures {
    /// The end of the window, simulation ms: the latest end of every run compared.
    pub window_end_ms: i64,
    pub window_energy_j: f64,
    pub window_idle_energy_j: f64,
    /// `None` when the run has no carbon trace.
    pub window_carbon_g: Option<f64>,
    pub window_idle_carbon_g: Option<f64>,
}

/// The figures of a run with `metrics` on `topology` (host counts applied) under `carbon`,
/// whose time 0 is `start_epoch_ms`, over a window ending at `window_end_ms` (at least the
/// run's end: a window never cuts a run short).
pub fn window_figures(
    topology: &Topology,
    carbon: Option<&CarbonTrace>,
    metrics: &Metrics,
    start_epoch_ms: i64,
    window_end_ms: i64,
) -> WindowFigures {
    let end = window_end_ms.max(metrics.makespan_ms);
    let clock = carbon.and_then(|c| CarbonClock::new(c, start_epoch_ms));
    let carbon_to_end = clock.as_ref().map_or(0.0, |c| c.integral_to(end));
    let (mut idle_e, mut idle_c) = (0.0, 0.0);
    for host in topology.hosts() {
        let idle = idle_power(&host.power);
        idle_e += joules(idle, end as f64);
        idle_c += grams(idle, carbon_to_end);
    }
    let has_carbon = clock.is_some() && metrics.dynamic_carbon_g.is_some();
    WindowFigures {
        window_end_ms: end,
        window_energy_j: idle_e + metrics.dynamic_energy_j,
        window_idle_energy_j: idle_e,
        window_carbon_g: metrics
            .dynamic_carbon_g
            .filter(|_| has_carbon)
            .map(|d| idle_c + d),
        window_idle_carbon_g: has_carbon.then_some(idle_c),
    }
}
