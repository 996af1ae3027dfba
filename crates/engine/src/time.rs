//! Virtual time.
//!
//! The engine never reads a wall clock. Every duration and instant is a [`Tick`]: an
//! integer count of virtual nanoseconds since the simulation started. Integer time keeps
//! the event stream identical bit for bit on every target.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// An instant or a duration in virtual nanoseconds.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Tick(pub u64);

impl Tick {
    /// The start of the simulation.
    pub const ZERO: Tick = Tick(0);
    /// One virtual second.
    pub const SECOND: Tick = Tick(1_000_000_000);

    /// `n` nanoseconds.
    pub const fn from_ns(n: u64) -> Tick {
        Tick(n)
    }
    /// `n` microseconds.
    pub const fn from_us(n: u64) -> Tick {
        Tick(n * 1_000)
    }
    /// `n` milliseconds.
    pub const fn from_ms(n: u64) -> Tick {
        Tick(n * 1_000_000)
    }
    /// `n` seconds.
    pub const fn from_secs(n: u64) -> Tick {
        Tick(n * 1_000_000_000)
    }
    /// Nanoseconds.
    pub const fn as_ns(self) -> u64 {
        self.0
    }
    /// Whole microseconds (truncated).
    pub const fn as_us(self) -> u64 {
        self.0 / 1_000
    }
    /// Whole milliseconds (truncated).
    pub const fn as_ms(self) -> u64 {
        self.0 / 1_000_000
    }
    /// Whole seconds (truncated).
    pub const fn as_secs(self) -> u64 {
        self.0 / 1_000_000_000
    }
    /// Seconds as a float, for display only: never feed it back into the engine.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }
    /// `self - other`, or zero when `other` is later.
    pub const fn saturating_sub(self, other: Tick) -> Tick {
        Tick(self.0.saturating_sub(other.0))
    }
    /// This duration times `n`, saturating.
    pub const fn times(self, n: u64) -> Tick {
        Tick(self.0.saturating_mul(n))
    }
}

impl Add for Tick {
    type Output = Tick;
    fn add(self, rhs: Tick) -> Tick {
        Tick(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for Tick {
    fn add_assign(&mut self, rhs: Tick) {
        *self = *self + rhs;
    }
}

impl Sub for Tick {
    type Output = Tick;
    fn sub(self, rhs: Tick) -> Tick {
        self.saturating_sub(rhs)
    }
}

impl Tick {
    /// A duration: `250ms`, `2s`, `1.5s`, `500us`.
    pub fn parse_duration(s: &str) -> Option<Tick> {
        let s = s.trim();
        let (num, unit_ns) = if let Some(n) = s.strip_suffix("ms") {
            (n, 1_000_000u64)
        } else if let Some(n) = s.strip_suffix("us") {
            (n, 1_000)
        } else if let Some(n) = s.strip_suffix('s') {
            (n, 1_000_000_000)
        } else {
            return None;
        };
        let (int, frac) = num.split_once('.').unwrap_or((num, ""));
        if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) || frac.len() > 6 {
            return None;
        }
        if !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let whole: u64 = int.parse().ok()?;
        let mut ns = whole.checked_mul(unit_ns)?;
        if !frac.is_empty() {
            let f: u64 = frac.parse().ok()?;
            ns = ns.checked_add(f * unit_ns / 10u64.pow(frac.len() as u32))?;
        }
        Some(Tick(ns))
    }
}

impl fmt::Display for Tick {
    /// Prints the most readable unit: `12.345 s`, `4.200 ms`, `17 µs`, `250 ns`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ns = self.0;
        if ns >= 1_000_000_000 {
            write!(
                f,
                "{}.{:03} s",
                ns / 1_000_000_000,
                (ns / 1_000_000) % 1_000
            )
        } else if ns >= 1_000_000 {
            write!(f, "{}.{:03} ms", ns / 1_000_000, (ns / 1_000) % 1_000)
        } else if ns >= 1_000 {
            write!(f, "{} µs", ns / 1_000)
        } else {
            write!(f, "{ns} ns")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_picks_a_readable_unit() {
        assert_eq!(Tick::from_ms(12_345).to_string(), "12.345 s");
        assert_eq!(Tick::from_us(4_200).to_string(), "4.200 ms");
        assert_eq!(Tick::from_us(17).to_string(), "17 µs");
        assert_eq!(Tick::from_ns(250).to_string(), "250 ns");
    }

    #[test]
    fn arithmetic_saturates() {
        assert_eq!(Tick(5) - Tick(9), Tick::ZERO);
        assert_eq!(Tick(u64::MAX) + Tick(1), Tick(u64::MAX));
        assert_eq!(Tick::from_us(3).times(4), Tick::from_us(12));
    }
}
