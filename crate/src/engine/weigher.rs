//! Weighers: raw scores and their normalised contributions (SPEC 4).

use super::host::HostState;
use crate::policy::WeigherKind;

/// The raw score of a host; higher is preferred when the multiplier is positive.
#[inline]
pub fn raw(kind: WeigherKind, h: &HostState) -> f64 {
    match kind {
        WeigherKind::Ram => h.available_memory as f64,
        WeigherKind::CoreRam => {
            if h.cores == 0 {
                0.0
            } else {
                h.available_memory as f64 / h.cores as f64
            }
        }
        WeigherKind::InstanceCount => h.instance_count as f64,
        WeigherKind::VCpuCapacity => h.cpu_capacity,
        WeigherKind::VCpu => -(h.provisioned_cores as f64),
        WeigherKind::VGpu => -(h.provisioned_gpu_cores as f64),
    }
}

/// A candidate's contribution: `(multiplier * (raw - min)) / (max - min)`, in that order, or
/// nothing when all candidates score the same (SPEC 4.1, and difference 2 of SPEC 9).
#[inline]
pub fn contribution(multiplier: f64, raw: f64, min: f64, max: f64) -> f64 {
    if max == min {
        0.0
    } else {
        (multiplier * (raw - min)) / (max - min)
    }
}

/// The key a total is ranked by: a NaN total (only possible when huge multipliers overflow)
/// ranks last.
#[inline]
pub fn rank_key(total: f64) -> f64 {
    if total.is_nan() {
        f64::NEG_INFINITY
    } else {
        total
    }
}
