//! The engine's `LatchId` as the messages carry it: one number. The engine
//! serialises it as an adjacently tagged enum (`{"latch": "buf_pool", "instance":
//! 3}`, the events' JSON form), which a positional format such as bincode cannot
//! read back; these `serde(with)` modules write the latch as a `u32` code and the
//! spans holding one as tuples, for the fields of the frames that carry latches.

use crate::model::spans::{LatchSpan, ScanSpan};
use ddlscope_engine::{LatchId, SpaceId, ThreadId, Tick};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The first code of the buffer-pool instances' mutexes (instance `i` is this + i).
const BUF_POOL: u32 = 1 << 16;

/// `latch` as a number.
pub fn code(latch: LatchId) -> u32 {
    match latch {
        LatchId::LockOpen => 0,
        LatchId::DictSys => 1,
        LatchId::FilSys => 2,
        LatchId::BufPool(i) => BUF_POOL + u32::from(i),
    }
}

/// The latch numbered `c`, if there is one.
pub fn latch_of(c: u32) -> Option<LatchId> {
    match c {
        0 => Some(LatchId::LockOpen),
        1 => Some(LatchId::DictSys),
        2 => Some(LatchId::FilSys),
        c if c >= BUF_POOL => u16::try_from(c - BUF_POOL).ok().map(LatchId::BufPool),
        _ => None,
    }
}

fn decode<E: serde::de::Error>(c: u32) -> Result<LatchId, E> {
    latch_of(c).ok_or_else(|| E::custom(format!("no latch has the code {c}")))
}

/// A `LatchId` field.
pub mod latch {
    use super::*;

    pub fn serialize<S: Serializer>(l: &LatchId, s: S) -> Result<S::Ok, S::Error> {
        code(*l).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<LatchId, D::Error> {
        decode(u32::deserialize(d)?)
    }
}

/// A scan span as a tuple: instance, space, latch, from, to, t0, t1.
type ScanWire = (u16, SpaceId, u32, u32, u32, Tick, Tick);

/// A `Vec<ScanSpan>` field.
pub mod scans {
    use super::*;

    pub fn serialize<S: Serializer>(v: &[ScanSpan], s: S) -> Result<S::Ok, S::Error> {
        let wire: Vec<ScanWire> = v
            .iter()
            .map(|x| (x.instance, x.space, code(x.latch), x.from, x.to, x.t0, x.t1))
            .collect();
        wire.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<ScanSpan>, D::Error> {
        Vec::<ScanWire>::deserialize(d)?
            .into_iter()
            .map(|(instance, space, latch, from, to, t0, t1)| {
                Ok(ScanSpan {
                    instance,
                    space,
                    latch: decode(latch)?,
                    from,
                    to,
                    t0,
                    t1,
                })
            })
            .collect()
    }
}

/// A latch hold as a tuple: latch, thread, t0, t1, waiters.
type HoldWire = (u32, ThreadId, Tick, Tick, u32);

/// A `Vec<LatchSpan>` field.
pub mod latch_spans {
    use super::*;

    pub fn serialize<S: Serializer>(v: &[LatchSpan], s: S) -> Result<S::Ok, S::Error> {
        let wire: Vec<HoldWire> = v
            .iter()
            .map(|x| (code(x.latch), x.thread, x.t0, x.t1, x.waiters))
            .collect();
        wire.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<LatchSpan>, D::Error> {
        Vec::<HoldWire>::deserialize(d)?
            .into_iter()
            .map(|(latch, thread, t0, t1, waiters)| {
                Ok(LatchSpan {
                    latch: decode(latch)?,
                    thread,
                    t0,
                    t1,
                    waiters,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_latch_has_its_own_code() {
        let all = [
            LatchId::LockOpen,
            LatchId::DictSys,
            LatchId::FilSys,
            LatchId::BufPool(0),
            LatchId::BufPool(63),
            LatchId::BufPool(u16::MAX),
        ];
        for l in all {
            assert_eq!(latch_of(code(l)), Some(l));
        }
        assert_eq!(latch_of(3), None);
        assert_eq!(
            decode::<serde::de::value::Error>(7).map_err(|e| e.to_string()),
            Err("no latch has the code 7".into())
        );
    }
}
