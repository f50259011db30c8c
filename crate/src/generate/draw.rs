//! The generator's random draws: one PCG64 seeded with `seed_from_u64(seed)`, uniforms
//! `(next_u64 >> 11) × 2^-53` in [0, 1), and weighted choices.

use super::settings::Choice;
use rand::Rng as _;
use rand::SeedableRng;

/// The generator of one workload.
pub struct Draw(rand_pcg::Pcg64);

impl Draw {
    /// The generator for `seed`.
    pub fn new(seed: u64) -> Self {
        Draw(rand_pcg::Pcg64::seed_from_u64(seed))
    }

    /// A uniform number in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// One value of `choices` with probability proportional to its weight: the first whose
    /// running sum of weights exceeds `u × total` (one uniform).
    pub fn choose(&mut self, choices: &[Choice]) -> u32 {
        let total: f64 = choices.iter().map(|c| c.weight).sum();
        let pick = self.uniform() * total;
        let mut sum = 0.0;
        for c in choices {
            sum += c.weight;
            if pick < sum {
                return c.value;
            }
        }
        choices
            .iter()
            .rev()
            .find(|c| c.weight > 0.0)
            .map_or(1, |c| c.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_follow_their_weights_and_never_pick_a_weight_of_zero() {
        let choices = [
            Choice {
                value: 1,
                weight: 3.0,
            },
            Choice {
                value: 2,
                weight: 0.0,
            },
            Choice {
                value: 8,
                weight: 1.0,
            },
        ];
        let mut d = Draw::new(2);
        let picks: Vec<u32> = (0..40_000).map(|_| d.choose(&choices)).collect();
        let ones = picks.iter().filter(|&&v| v == 1).count() as f64;
        assert!(!picks.contains(&2));
        // 3/4 of 40 000 = 30 000, sd about 87.
        assert!((ones - 30_000.0).abs() < 400.0, "{ones}");
    }
}
