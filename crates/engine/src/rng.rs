//! The one seeded random-number generator.
//!
//! PCG-64 (MCG variant), `rand_pcg`'s `Pcg64Mcg` draw for draw (its test checks it):
//! a named algorithm whose output is fixed across crate versions and targets, unlike
//! `StdRng`. Each subsystem draws from its own stream,
//! derived from the scenario seed and the subsystem's name, so adding draws in one
//! subsystem does not shift the numbers another one sees.

use rand_core::SeedableRng;

/// PCG-64's multiplier (`rand_pcg`'s `MULTIPLIER`, PCG's default 128-bit one), as
/// its low and high 64-bit halves.
const MUL_LO: u64 = 0x4385_DF64_9FCC_F645;
const MUL_HI: u64 = 0x2360_ED05_1FC6_5DA4;

/// A deterministic random stream: `rand_pcg::Pcg64Mcg` (`Mcg128Xsl64`), draw for
/// draw, with its 128-bit state in two halves. The state's product by the
/// multiplier needs only its low 128 bits: one 64×64→128 product and two 64-bit
/// ones, where a `u128` multiply is a call to `__multi3` in wasm.
#[derive(Clone)]
pub struct SimRng {
    lo: u64,
    hi: u64,
}

impl std::fmt::Debug for SimRng {
    /// As the derived one printed with `Pcg64Mcg` inside, which hides its state.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SimRng { inner: Mcg128Xsl64 {} }")
    }
}

/// `a * b` as its low and high 64-bit halves.
#[inline(always)]
fn mul_wide(a: u64, b: u64) -> (u64, u64) {
    #[cfg(target_arch = "wasm32")]
    {
        mul_wide_halves(a, b)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let p = u128::from(a) * u128::from(b);
        (p as u64, (p >> 64) as u64)
    }
}

/// `a * b` from four 32×32→64 products (what wasm has, where a `u128` multiply is a
/// library call).
#[inline(always)]
#[cfg(any(target_arch = "wasm32", test))]
fn mul_wide_halves(a: u64, b: u64) -> (u64, u64) {
    const LOW: u64 = 0xFFFF_FFFF;
    let (a0, a1) = (a & LOW, a >> 32);
    let (b0, b1) = (b & LOW, b >> 32);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 32) + (p01 & LOW) + (p10 & LOW);
    let lo = (mid << 32) | (p00 & LOW);
    let hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    (lo, hi)
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
        // Pcg64Mcg::new forces the low bit to 1.
        SimRng {
            lo: (h ^ seed.rotate_left(17)) | 1,
            hi: seed,
        }
    }

    /// A uniform `u64`: the state times the multiplier (mod 2^128), then PCG's XSL RR
    /// output (`Mcg128Xsl64::next_u64`).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let (lo, carry) = mul_wide(self.lo, MUL_LO);
        let hi = carry
            .wrapping_add(self.lo.wrapping_mul(MUL_HI))
            .wrapping_add(self.hi.wrapping_mul(MUL_LO));
        (self.lo, self.hi) = (lo, hi);
        (hi ^ lo).rotate_right((hi >> 58) as u32)
    }

    /// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-shift (bias below 2^-32
    /// for the ranges used here).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        mul_wide(self.next_u64(), n).1
    }

    /// True with probability `num / den`.
    #[inline]
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }
}

impl SeedableRng for SimRng {
    type Seed = [u8; 16];
    /// As `Pcg64Mcg::from_seed`: the seed as a little-endian `u128`, its low bit set.
    fn from_seed(seed: [u8; 16]) -> SimRng {
        let half = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&seed[i..i + 8]);
            u64::from_le_bytes(b)
        };
        SimRng {
            lo: half(0) | 1,
            hi: half(8),
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

    /// The stream as `rand_pcg` draws it, for `stream`'s and `from_seed`'s states.
    #[test]
    fn draws_are_rand_pcg_s_draw_for_draw() {
        use rand_core::RngCore;
        for (seed, name) in [(1u64, "warm"), (4, "workload"), (u64::MAX, ""), (0, "x")] {
            let h = {
                let mut h: u64 = 0xcbf2_9ce4_8422_2325;
                for b in name.as_bytes() {
                    h ^= u64::from(*b);
                    h = h.wrapping_mul(0x0000_0100_0000_01b3);
                }
                h
            };
            let state = (u128::from(seed) << 64) | u128::from(h ^ seed.rotate_left(17));
            let mut theirs = rand_pcg::Pcg64Mcg::new(state | 1);
            let mut ours = SimRng::stream(seed, name);
            for i in 0..200_000 {
                let want = theirs.next_u64();
                // below() and chance() as they were: on the crate's draw.
                match i % 3 {
                    0 => assert_eq!(ours.next_u64(), want, "{name}: draw {i}"),
                    1 => {
                        let n = want.rotate_left(i % 64) | 1;
                        let was = ((u128::from(want) * u128::from(n)) >> 64) as u64;
                        assert_eq!(ours.below(n), was, "{name}: below, draw {i}");
                    }
                    _ => {
                        let was = (((u128::from(want) * 1000) >> 64) as u64) < 17;
                        assert_eq!(ours.chance(17, 1000), was, "{name}: chance, draw {i}");
                    }
                }
            }
        }
        let seed: [u8; 16] = std::array::from_fn(|i| (i * 37 + 5) as u8);
        let mut theirs = rand_pcg::Pcg64Mcg::from_seed(seed);
        let mut ours = SimRng::from_seed(seed);
        for i in 0..10_000 {
            assert_eq!(ours.next_u64(), theirs.next_u64(), "from_seed: draw {i}");
        }
    }

    /// The 32-bit pieces wasm multiplies by give the full product.
    #[test]
    fn the_halves_product_is_the_u128_one() {
        let mut r = SimRng::stream(3, "mul");
        let edge = [
            0,
            1,
            0xFFFF_FFFF,
            0x1_0000_0000,
            u64::MAX,
            u64::MAX - 1,
            MUL_LO,
            MUL_HI,
        ];
        for i in 0..300_000usize {
            let a = if i < 64 { edge[i % 8] } else { r.next_u64() };
            let b = if i < 64 { edge[i / 8] } else { r.next_u64() };
            let p = u128::from(a) * u128::from(b);
            assert_eq!(
                mul_wide_halves(a, b),
                (p as u64, (p >> 64) as u64),
                "{a} * {b}"
            );
            assert_eq!(mul_wide(a, b), (p as u64, (p >> 64) as u64), "{a} * {b}");
        }
    }

    #[test]
    fn debug_prints_as_before() {
        assert_eq!(
            format!("{:?}", SimRng::stream(1, "t")),
            "SimRng { inner: Mcg128Xsl64 {} }"
        );
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
