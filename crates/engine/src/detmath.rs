//! Deterministic elementary functions.
//!
//! `f64::ln`, `exp` and `powf` call the platform's math library, whose last bits differ
//! between glibc and the wasm32 target; the engine must not depend on them. These use
//! only `+ - * /` and `sqrt`, which IEEE 754 rounds exactly on every target.

/// Natural logarithm of `x > 0`.
pub fn ln(x: f64) -> f64 {
    assert!(x > 0.0, "ln of a non-positive number");
    // x = m * 2^e with m in [sqrt(1/2), sqrt(2)).
    let mut m = x;
    let mut e = 0i32;
    while m >= std::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    while m < std::f64::consts::FRAC_1_SQRT_2 {
        m *= 2.0;
        e -= 1;
    }
    // ln(m) = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    let mut k = 1.0;
    while k < 40.0 {
        sum += term / k;
        term *= s2;
        k += 2.0;
    }
    2.0 * sum + f64::from(e) * std::f64::consts::LN_2
}

/// `e^x` for `x` in a sane range (|x| < 700).
pub fn exp(x: f64) -> f64 {
    // e^x = 2^n * e^r, |r| <= ln2/2.
    let n = (x / std::f64::consts::LN_2).round();
    let r = x - n * std::f64::consts::LN_2;
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..25 {
        term *= r / f64::from(k);
        sum += term;
    }
    sum * pow2(n as i32)
}

/// `2^n`, as exactly as repeated doubling or halving from 1 gives it (every step of
/// which is exact down to the least subnormal, 2^-1074): built from its bits.
fn pow2(n: i32) -> f64 {
    if (-1022..=1023).contains(&n) {
        f64::from_bits(((n + 1023) as u64) << 52)
    } else if (-1074..-1022).contains(&n) {
        f64::from_bits(1u64 << (n + 1074))
    } else if n > 0 {
        f64::INFINITY
    } else {
        0.0
    }
}

/// `x^y` for `x > 0`.
pub fn pow(x: f64, y: f64) -> f64 {
    exp(y * ln(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_platform_to_within_rounding() {
        for x in [1e-9, 0.001, 0.2, 0.5, 0.8, 1.0, 1.5, 2.0, 10.0, 12345.678] {
            assert!(
                (ln(x) - x.ln()).abs() <= 1e-12 * x.ln().abs().max(1.0),
                "ln {x}"
            );
        }
        for x in [-20.0, -1.0, -0.1, 0.0, 0.3, 1.0, 5.0, 30.0] {
            assert!((exp(x) - x.exp()).abs() <= 1e-12 * x.exp(), "exp {x}");
        }
        assert!((pow(0.5, 7.2126) - 0.5f64.powf(7.2126)).abs() < 1e-14);
    }

    /// The scaling loop `exp` had: `pow2` must give the same bits for every exponent.
    fn pow2_by_steps(n: i32) -> f64 {
        let mut scale = 1.0;
        let (base, steps) = if n >= 0 { (2.0, n) } else { (0.5, -n) };
        for _ in 0..steps {
            scale *= base;
        }
        scale
    }

    #[test]
    fn pow2_is_the_doubling_loop_bit_for_bit() {
        for n in -1200..=1200 {
            assert_eq!(pow2(n).to_bits(), pow2_by_steps(n).to_bits(), "2^{n}");
        }
    }
}
