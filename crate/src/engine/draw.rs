//! The one random draw of a placement (SPEC 4.4 and 8): an index in `[0, k)` from the run's
//! generator, without bias, by Lemire's multiply-and-reject method written here so that the
//! mapping can never change with a library version.

use rand::Rng as RngCore;

/// A draw: the generator outputs consumed and the index they gave.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Draw {
    /// The 64-bit outputs used; one, except with probability below k / 2^64.
    pub values: Vec<u64>,
    /// Among how many ranked hosts the index was drawn.
    pub among: u64,
    pub index: u64,
}

/// Draws an index in `[0, k)`, `k >= 1`.
pub fn draw_index<R: RngCore + ?Sized>(rng: &mut R, k: u64) -> Draw {
    debug_assert!(k >= 1);
    let mut values = Vec::with_capacity(1);
    let mut x = rng.next_u64();
    values.push(x);
    let mut m = (x as u128) * (k as u128);
    let mut low = m as u64;
    if low < k {
        let threshold = k.wrapping_neg() % k;
        while low < threshold {
            x = rng.next_u64();
            values.push(x);
            m = (x as u128) * (k as u128);
            low = m as u64;
        }
    }
    Draw {
        values,
        among: k,
        index: (m >> 64) as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(Vec<u64>);
    impl rand::TryRng for Fixed {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.0.remove(0) as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(self.0.remove(0))
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            Ok(())
        }
    }

    #[test]
    fn maps_the_top_bits_to_an_index() {
        // index = floor(x * k / 2^64): x = 2^63 is the middle, so index k/2.
        assert_eq!(draw_index(&mut Fixed(vec![1 << 63]), 4).index, 2);
        assert_eq!(draw_index(&mut Fixed(vec![u64::MAX]), 3).index, 2);
        assert_eq!(
            draw_index(&mut Fixed(vec![0x5555_5555_5555_5556]), 3).index,
            1
        );
    }

    #[test]
    fn rejects_the_biased_sliver() {
        // k = 3: threshold = 2^64 mod 3 = 1; x = 0 gives low = 0 < 1 and is rejected.
        let d = draw_index(&mut Fixed(vec![0, 1 << 63]), 3);
        assert_eq!(d.values, vec![0, 1 << 63]);
        assert_eq!(d.index, 1);
    }
}

/// The edge of the rejection test (issue 15, item 3).
#[cfg(test)]
mod threshold_tests {
    use super::*;

    /// Yields these outputs, in order, and panics past them.
    struct Outputs(Vec<u64>);
    impl rand::TryRng for Outputs {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.0.remove(0) as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(self.0.remove(0))
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            unimplemented!()
        }
    }

    /// k = 3: the threshold is 2^64 mod 3 = 1. x = 0xAAAA_AAAA_AAAA_AAAB (the inverse of 3
    /// modulo 2^64) gives x * 3 = 2 * 2^64 + 1: low = 1, below k but not below the threshold,
    /// so the draw is kept with one output: index 2. A larger threshold (the quotient instead
    /// of the remainder) or `<=` would ask for a second output.
    #[test]
    fn a_low_part_at_the_threshold_is_kept() {
        let d = draw_index(&mut Outputs(vec![0xAAAA_AAAA_AAAA_AAAB]), 3);
        assert_eq!(
            (d.values, d.among, d.index),
            (vec![0xAAAA_AAAA_AAAA_AAAB], 3, 2)
        );
    }

    /// k = 5: the threshold is 2^64 mod 5 = 1 (2^4 = 16 = 1 mod 5). x = 0: low = 0 < 1 is
    /// rejected; then x = 2^62: 5 * 2^62 = 2^64 + 2^62, index 1, low 2^62 kept.
    #[test]
    fn a_rejected_output_is_replaced_by_the_next() {
        let d = draw_index(&mut Outputs(vec![0, 1 << 62]), 5);
        assert_eq!((d.values, d.among, d.index), (vec![0, 1 << 62], 5, 1));
    }
}
