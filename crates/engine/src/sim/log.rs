//! The redo log: the LSN, and commits waiting for the log to be flushed.
//!
//! With `innodb_flush_log_at_trx_commit = 1` a COMMIT returns only once the redo up to
//! its last change is written and fsynced. Commits that arrive while a flush is under
//! way wait for the next one, which then covers all of them: group commit.
//!
//! ```text
//!   flush 1 [=====]            commits arriving here ─┐
//!                 flush 2 [=====]  ◀──────────────────┘ all ride on flush 2
//! ```

use crate::bufpool::Lsn;
use crate::time::Tick;

/// The redo log's state.
#[derive(Clone, Debug, Default)]
pub struct LogSys {
    /// The current LSN (`log_sys->lsn`).
    pub lsn: Lsn,
    /// Flushed and synced up to here.
    pub flushed_lsn: Lsn,
    /// The flush under way: (covers up to, done at).
    in_flight: Option<(Lsn, Tick)>,
    /// The next flush, already promised to waiting commits: (covers up to, done at).
    queued: Option<(Lsn, Tick)>,
    /// Flushes done so far.
    pub flushes: u64,
}

impl LogSys {
    /// A mini-transaction wrote `bytes` of redo; returns its end LSN.
    pub fn append(&mut self, bytes: u64) -> Lsn {
        self.lsn = Lsn(self.lsn.0 + bytes);
        self.lsn
    }

    /// Retires flushes that have finished by `now`.
    pub fn advance(&mut self, now: Tick) {
        while let Some((lsn, done)) = self.in_flight {
            if done > now {
                break;
            }
            self.flushed_lsn = self.flushed_lsn.max(lsn);
            self.flushes += 1;
            self.in_flight = self.queued.take();
        }
    }

    /// When a commit whose last change is at `lsn` may return, if it asks at `now` and
    /// one flush takes `fsync`.
    pub fn commit_done_at(&mut self, now: Tick, lsn: Lsn, fsync: Tick) -> Tick {
        self.advance(now);
        if self.flushed_lsn >= lsn {
            return now;
        }
        match (self.in_flight, self.queued) {
            (None, _) => {
                let done = now + fsync;
                self.in_flight = Some((self.lsn, done));
                done
            }
            (Some((covers, done)), _) if covers >= lsn => done,
            (Some(_), Some((covers, done))) => {
                self.queued = Some((covers.max(self.lsn), done));
                done
            }
            (Some((_, busy_until)), None) => {
                let done = busy_until + fsync;
                self.queued = Some((self.lsn, done));
                done
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commits_during_a_flush_share_the_next_one() {
        let mut log = LogSys::default();
        let fsync = Tick::from_us(1000);
        let a = log.append(100);
        assert_eq!(
            log.commit_done_at(Tick::ZERO, a, fsync),
            Tick::from_us(1000)
        );
        let b = log.append(100);
        let c = log.append(100);
        let tb = log.commit_done_at(Tick::from_us(100), b, fsync);
        let tc = log.commit_done_at(Tick::from_us(200), c, fsync);
        assert_eq!(
            (tb, tc),
            (Tick::from_us(2000), Tick::from_us(2000)),
            "b and c ride together"
        );
        log.advance(Tick::from_us(2000));
        assert_eq!(log.flushed_lsn, c);
        assert_eq!(log.flushes, 2);
        assert_eq!(
            log.commit_done_at(Tick::from_us(2500), b, fsync),
            Tick::from_us(2500),
            "already durable"
        );
    }
}
