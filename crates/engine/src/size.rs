//! Byte sizes as operators write them: `128G`, `512M`, `16K`, `10GB`, `1.5G`, `16384`.
//!
//! MySQL's own option parser accepts the suffixes K, M, G, T (powers of 1024); we also
//! accept a trailing `B`/`iB` and a decimal fraction, since scenario files are written
//! by people.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A size in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct ByteSize(pub u64);

/// Why a size could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeError(pub String);

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SizeError {}

impl ByteSize {
    /// One kibibyte.
    pub const KIB: u64 = 1 << 10;
    /// One mebibyte.
    pub const MIB: u64 = 1 << 20;
    /// One gibibyte.
    pub const GIB: u64 = 1 << 30;
    /// One tebibyte.
    pub const TIB: u64 = 1 << 40;

    /// Parses `text` (see the module doc).
    pub fn parse(text: &str) -> Result<ByteSize, SizeError> {
        let t = text.trim();
        let bad = || {
            SizeError(format!(
                "invalid size '{text}': expected a number with an optional K, M, G or T suffix, like 128M or 10G"
            ))
        };
        if t.is_empty() {
            return Err(bad());
        }
        let upper = t.to_ascii_uppercase();
        let body = upper
            .strip_suffix("IB")
            .or_else(|| upper.strip_suffix('B'))
            .unwrap_or(&upper);
        let (num, mult) = match body.chars().last() {
            Some('K') => (&body[..body.len() - 1], Self::KIB),
            Some('M') => (&body[..body.len() - 1], Self::MIB),
            Some('G') => (&body[..body.len() - 1], Self::GIB),
            Some('T') => (&body[..body.len() - 1], Self::TIB),
            _ => (body, 1),
        };
        let num = num.trim();
        let (int_part, frac_part) = match num.split_once('.') {
            Some((i, f)) => (i, f),
            None => (num, ""),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return Err(bad());
        }
        if !int_part.chars().all(|c| c.is_ascii_digit())
            || !frac_part.chars().all(|c| c.is_ascii_digit())
        {
            return Err(bad());
        }
        let int: u64 = if int_part.is_empty() {
            0
        } else {
            int_part.parse().map_err(|_| bad())?
        };
        let mut bytes = int
            .checked_mul(mult)
            .ok_or_else(|| SizeError(format!("size '{text}' is too large")))?;
        // Fractions, exact to the byte for up to 9 decimal places.
        if !frac_part.is_empty() {
            let digits = &frac_part[..frac_part.len().min(9)];
            let frac: u64 = digits.parse().map_err(|_| bad())?;
            let scale = 10u64.pow(digits.len() as u32);
            let extra = u128::from(frac) * u128::from(mult) / u128::from(scale);
            bytes = bytes
                .checked_add(extra as u64)
                .ok_or_else(|| SizeError(format!("size '{text}' is too large")))?;
        }
        Ok(ByteSize(bytes))
    }

    /// Bytes.
    pub const fn bytes(self) -> u64 {
        self.0
    }
}

impl fmt::Display for ByteSize {
    /// The largest unit that divides the size exactly, else one decimal: `128G`, `1.5G`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        for (unit, m) in [
            ("T", Self::TIB),
            ("G", Self::GIB),
            ("M", Self::MIB),
            ("K", Self::KIB),
        ] {
            if b >= m {
                return if b.is_multiple_of(m) {
                    write!(f, "{}{unit}", b / m)
                } else {
                    write!(f, "{:.1}{unit}", b as f64 / m as f64)
                };
            }
        }
        write!(f, "{b}")
    }
}

/// As text in TOML and JSON (`"128G"`); as the number of bytes in binary formats
/// (bincode: the compiled built-ins, `builtin.rs`), where it must round-trip exactly.
impl Serialize for ByteSize {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_str(&self.to_string())
        } else {
            s.serialize_u64(self.0)
        }
    }
}

impl<'de> Deserialize<'de> for ByteSize {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ByteSize, D::Error> {
        if !d.is_human_readable() {
            return u64::deserialize(d).map(ByteSize);
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Int(u64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Int(n) => Ok(ByteSize(n)),
            Raw::Text(t) => ByteSize::parse(&t).map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_operators_write() {
        for (text, bytes) in [
            ("16384", 16384),
            ("16K", 16 << 10),
            ("128M", 128 << 20),
            ("128G", 128 << 30),
            ("10GB", 10 << 30),
            ("10GiB", 10 << 30),
            ("1.5G", 3 << 29),
            ("2t", 2 << 40),
            (" 4 G ", 4 << 30),
        ] {
            assert_eq!(ByteSize::parse(text), Ok(ByteSize(bytes)), "{text}");
        }
    }

    #[test]
    fn rejects_nonsense_with_a_clear_message() {
        for text in ["", "G", "-1G", "12Q", "1..5G", "abc", "99999999999T"] {
            let err = ByteSize::parse(text).unwrap_err();
            assert!(
                err.0.contains(text.trim()) || err.0.contains("too large"),
                "{err}"
            );
        }
    }

    #[test]
    fn displays_round_trip() {
        for text in ["128G", "1.5G", "512M", "16K", "100"] {
            assert_eq!(ByteSize::parse(text).unwrap().to_string(), text);
        }
    }
}
