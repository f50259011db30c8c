//! A host's utilisation and power at a CPU usage, remembered per kind of host.
//!
//! Every change of a host's usage works out `usage / capacity` (capped at 1) and the power model
//! at it (SPEC 6.5): a division and, for the `sqrt` model, a square root, which share one slow
//! unit of the core with the energy's and carbon's divisions (about half of that unit's time on
//! the half-year scale). Both are pure functions of the host's summed usage for a given capacity
//! and model, and those sums repeat (a host mostly runs one task at a time, and surf_week's
//! fragments have 1,601 distinct usages: with 2,048 slots 12 % of its changes missed, fewer with
//! 4,096), so each kind of host remembers them in a small direct-mapped table keyed by the
//! usage's bits: a hit gives the very bits a computation would. The tables are made with each
//! run (96 KB each, filled once: a few microseconds), also for a run that never changes a usage.

use super::digest::power_model_bits;
use super::power::{at_most_one, power};
use crate::model::PowerModel;

/// The table's slots: 4,096 of 24 bytes (96 KB, within the core's L2 cache).
const SLOT_BITS: u32 = 12;

/// The most kinds of host given a table (the rest compute every time): bounds the memory a
/// topology of many distinct hosts can cause to 16 x 96 KB.
pub(super) const MAX_MEMOS: usize = 16;

/// The utilisation (`usage / capacity`, at most 1; 0 without capacity) and the power, W, of a
/// host of `capacity` MHz and power `model` at CPU usage `usage` MHz.
#[inline(always)]
pub(super) fn utilization_and_power(capacity: f64, model: &PowerModel, usage: f64) -> (f64, f64) {
    let u = if capacity > 0.0 {
        at_most_one(usage / capacity)
    } else {
        0.0
    };
    (u, power(model, u))
}

/// One remembered usage.
#[derive(Debug, Clone, Copy)]
struct Slot {
    usage_bits: u64,
    utilization: f64,
    power: f64,
}

/// [`utilization_and_power`] for one kind of host (capacity and model), remembered.
#[derive(Debug, Clone)]
pub(super) struct PowerMemo {
    capacity: f64,
    model: PowerModel,
    slots: Box<[Slot]>,
}

impl PowerMemo {
    /// A table for hosts of `capacity` MHz and `model`; every slot starts as usage 0 (whose
    /// bits are 0), worked out, so that no slot holds anything but a true answer.
    pub(super) fn new(capacity: f64, model: PowerModel) -> Self {
        let (utilization, power) = utilization_and_power(capacity, &model, 0.0);
        let zero = Slot {
            usage_bits: 0,
            utilization,
            power,
        };
        PowerMemo {
            capacity,
            model,
            slots: vec![zero; 1 << SLOT_BITS].into_boxed_slice(),
        }
    }

    /// Whether this table serves hosts of `capacity` and `model` (compared bit for bit, so
    /// that -0.0 and 0.0, or two NaNs, are never taken for each other).
    pub(super) fn serves(&self, capacity: f64, model: &PowerModel) -> bool {
        self.capacity.to_bits() == capacity.to_bits()
            && power_model_bits(&self.model) == power_model_bits(model)
    }

    /// [`utilization_and_power`] at `usage`.
    #[inline(always)]
    pub(super) fn at(&mut self, usage: f64) -> (f64, f64) {
        let bits = usage.to_bits();
        // Fibonacci hashing: the top bits of the product mix every bit of the usage.
        let k = (bits.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - SLOT_BITS)) as usize;
        let slot = &mut self.slots[k];
        if slot.usage_bits != bits {
            let (utilization, power) = utilization_and_power(self.capacity, &self.model, usage);
            *slot = Slot {
                usage_bits: bits,
                utilization,
                power,
            };
        }
        (slot.utilization, slot.power)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Remembered answers are the computed ones bit for bit, for usages that collide in the
    /// table, repeat, or are special (zero, minus zero, past the capacity, infinite), for every
    /// model and for a host without capacity.
    #[test]
    fn remembered_answers_are_the_computed_ones() {
        let models = [
            PowerModel::Sqrt {
                idle: 32.0,
                max: 180.0,
            },
            PowerModel::Linear {
                idle: 100.0,
                max: 350.0,
            },
            PowerModel::Mse {
                idle: 10.0,
                max: 90.0,
                calibration: 1.4,
            },
            PowerModel::Asymptotic {
                idle: 10.0,
                max: 90.0,
                asym_util: 0.3,
                dvfs: true,
            },
        ];
        let mut usages: Vec<f64> = vec![0.0, -0.0, 1e-300, 4800.0, 9600.0, 1e9, f64::INFINITY];
        // A pseudo-random walk of usages, with repeats (every value is asked for three times).
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..5_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            usages.push((x % 1_000_000) as f64 / 97.0);
        }
        for capacity in [4800.0, 0.0, 2.5e3] {
            for model in models {
                let mut memo = PowerMemo::new(capacity, model);
                for round in 0..3 {
                    for &u in &usages {
                        let (a, b) = memo.at(u);
                        let (c, d) = utilization_and_power(capacity, &model, u);
                        assert_eq!(
                            (a.to_bits(), b.to_bits()),
                            (c.to_bits(), d.to_bits()),
                            "usage {u}, capacity {capacity}, {model:?}, round {round}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_table_serves_its_own_kind_of_host_only() {
        let model = PowerModel::Linear {
            idle: 1.0,
            max: 2.0,
        };
        let memo = PowerMemo::new(100.0, model);
        assert!(memo.serves(100.0, &model));
        assert!(!memo.serves(200.0, &model));
        assert!(!memo.serves(
            100.0,
            &PowerModel::Linear {
                idle: 1.0,
                max: 3.0
            }
        ));
        // Equal as numbers, not as bits: a table answers for its own bits only.
        let zero = PowerModel::Constant { power: 0.0 };
        let minus_zero = PowerModel::Constant { power: -0.0 };
        assert!(!PowerMemo::new(100.0, zero).serves(100.0, &minus_zero));
        assert!(!PowerMemo::new(0.0, zero).serves(-0.0, &zero));
    }
}
