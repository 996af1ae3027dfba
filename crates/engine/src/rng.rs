//! The one seeded random-number generator.
//!
//! PCG-64 (MCG variant) from `rand_pcg`: a named algorithm whose output is fixed across
//! crate versions and targets, unlike `StdRng`. Each subsystem draws from its own stream,
//! derived from the scenario seed and the subsystem's name, so adding draws in one
//! subsystem does not shift the numbers another one sees.

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A deterministic random stream.
#[derive(Clone, Debug)]
pub struct SimRng {
    inner: Pcg64Mcg,
}

impl SimRng {
    /// The stream for subsystem `name` under scenario seed `seed`.
    pub fn stream(seed: u64, name: &str) -> SimRng {
        // FNV-1a of the name, folded with the seed: stable and cheap.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in name.as_bytes() {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        let state = (u128::from(seed) << 64) | u128::from(h ^ seed.rotate_left(17));
        SimRng {
            inner: Pcg64Mcg::new(state | 1),
        }
    }

    /// A uniform `u64`.
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-shift (bias below 2^-32
    /// for the ranges used here).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }
}

impl SeedableRng for SimRng {
    type Seed = [u8; 16];
    fn from_seed(seed: [u8; 16]) -> SimRng {
        SimRng {
            inner: Pcg64Mcg::from_seed(seed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_independent() {
        let a: Vec<u64> = (0..4)
            .map(|_| SimRng::stream(7, "workload").next_u64())
            .collect();
        assert!(
            a.windows(2).all(|w| w[0] == w[1]),
            "same seed and name, same first draw"
        );
        let mut w = SimRng::stream(7, "workload");
        let mut c = SimRng::stream(7, "cleaner");
        assert_ne!(w.next_u64(), c.next_u64());
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SimRng::stream(1, "t");
        for n in [1u64, 2, 3, 1000, u64::MAX] {
            for _ in 0..1000 {
                assert!(r.below(n) < n);
            }
        }
    }
}
