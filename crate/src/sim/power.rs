//! Power models (SPEC 6.5): a host's power draw at utilisation `u` in `[0, 1]`.
//!
//! Only correctly-rounded operations (`+ - * / sqrt`) are used directly; `pow` and `exp` come
//! from the pure-Rust `libm`, so native and wasm builds give the same bits.

use crate::model::PowerModel;

/// Power in W at utilisation `u` (clamped to `[0, 1]`).
#[inline]
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

/// `x.min(1.0)`, bit for bit (a NaN gives 1.0 as `f64::min` does), written as a comparison:
/// in wasm `f64::min` is a call (wasm's own `f64.min` propagates a NaN), made at every change of
/// a host's usage.
#[inline(always)]
pub fn at_most_one(x: f64) -> f64 {
    if x < 1.0 {
        x
    } else {
        1.0
    }
}

/// The energy of `watts` drawn for `ms` milliseconds, J.
#[inline]
pub fn joules(watts: f64, ms: f64) -> f64 {
    watts * ms / 1000.0
}

/// The carbon of `watts` drawn against an intensity integral of `intensity_ms` (gCO2/kWh x ms,
/// [`super::carbon::CarbonClock::integral_to`]), g: W x ms is 1 / 3.6e9 kWh.
#[inline]
pub fn grams(watts: f64, intensity_ms: f64) -> f64 {
    watts * intensity_ms / 3.6e9
}

/// The idle power: the model's power at `u = 0`.
pub fn idle_power(model: &PowerModel) -> f64 {
    power(model, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_one_is_min_one_bit_for_bit() {
        for x in [
            -0.0,
            0.0,
            0.5,
            1.0,
            1.5,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -2.0,
        ] {
            assert_eq!(at_most_one(x).to_bits(), x.min(1.0).to_bits(), "{x}");
        }
    }

    #[test]
    fn models_at_known_points() {
        let lin = PowerModel::Linear {
            idle: 100.0,
            max: 200.0,
        };
        assert_eq!(power(&lin, 0.5), 150.0);
        assert_eq!(idle_power(&lin), 100.0);
        let sq = PowerModel::Sqrt {
            idle: 32.0,
            max: 180.0,
        };
        assert_eq!(power(&sq, 0.25), 32.0 + 148.0 * 0.5);
        assert_eq!(
            power(
                &PowerModel::Square {
                    idle: 0.0,
                    max: 100.0
                },
                0.5
            ),
            25.0
        );
        assert_eq!(
            power(
                &PowerModel::Cubic {
                    idle: 0.0,
                    max: 100.0
                },
                0.5
            ),
            12.5
        );
        assert_eq!(power(&PowerModel::Constant { power: 42.0 }, 0.7), 42.0);
        // mse with calibration 2 at u = 0.5: 2 * 0.5 - 0.25 = 0.75.
        let mse = PowerModel::Mse {
            idle: 0.0,
            max: 100.0,
            calibration: 2.0,
        };
        assert_eq!(power(&mse, 0.5), 75.0);
        let asym = PowerModel::Asymptotic {
            idle: 10.0,
            max: 20.0,
            asym_util: 0.3,
            dvfs: false,
        };
        assert_eq!(power(&asym, 0.0), 10.0);
        assert!(power(&lin, 3.0) == 200.0, "utilisation is capped at 1");
    }
}
