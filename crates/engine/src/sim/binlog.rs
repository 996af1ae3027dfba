//! The source's binary log as its readers see it, and a replica's single-threaded
//! applier of it.
//!
//! ```text
//!   commit (workload event, console transaction, DDL)  ──▶ Binlog::append
//!        │  one entry a transaction, in commit order, stamped as the server stamps
//!        │  its events: the time the transaction's first statement began
//!        ▼
//!   readers, each at its own position:
//!     the replica's SQL thread  apply one entry at a time, each no earlier than it
//!                               was committed; a DDL takes as long as it took on the
//!                               source and holds up everything behind it
//!     gh-ost's binlog streamer  the row events of its table (`sim/tools/gh_ost.rs`)
//! ```
//!
//! `Seconds_Behind_Master` is what MySQL computes (`show_slave_status()`): now minus
//! the timestamp of the event the SQL thread is executing, 0 when it is idle. A DDL is
//! written to the binary log only when it is done on the source (its `Query_log_event`
//! after the commit), stamped with its start: the replica starts it only then and
//! shows its whole duration as lag and then some.
//!
//! Simplifications: a row costs the applier a fixed time (`[replica] apply_row_us`);
//! a DDL costs the replica as long as it ran on the source, waits included. A
//! transaction's rows are counted, not listed: its first row's position on its table
//! and how many it wrote there. Nothing is recorded without a reader; with readers,
//! at most `MAX_ENTRIES` entries are kept (past that a commit joins the newest entry).

use crate::sim::catalog::TableId;
use crate::time::Tick;
use std::collections::VecDeque;

/// Entries kept at most (a reader that far behind sees newer commits merged).
const MAX_ENTRIES: usize = 1 << 18;

/// One committed transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BinlogEntry {
    /// When its first statement began on the source (the events' timestamp).
    pub(super) stamped: Tick,
    /// When it committed (was written to the binary log).
    pub(super) committed: Tick,
    /// What it is.
    pub(super) kind: EntryKind,
}

/// A transaction's row events, or a DDL's query event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EntryKind {
    /// Row events: `rows` in all; `table_rows` of them on `table`, from row
    /// position `first`.
    Rows {
        rows: u64,
        table: TableId,
        table_rows: u64,
        first: u64,
    },
    /// A DDL statement that ran this long on the source.
    Ddl { ran: Tick },
}

/// The binary log and its readers' positions.
#[derive(Clone, Debug, Default)]
pub(super) struct Binlog {
    entries: VecDeque<BinlogEntry>,
    /// The position of `entries[0]`.
    base: u64,
    /// Each reader's next position (`None`: a reader that left).
    readers: Vec<Option<u64>>,
}

impl Binlog {
    /// A new reader, starting at the end of the log.
    pub(super) fn add_reader(&mut self) -> usize {
        let end = self.base + self.entries.len() as u64;
        self.readers.push(Some(end));
        self.readers.len() - 1
    }

    /// Reader `r` stops reading.
    pub(super) fn remove_reader(&mut self, r: usize) {
        self.readers[r] = None;
        self.trim();
    }

    fn recording(&self) -> bool {
        self.readers.iter().any(Option::is_some)
    }

    /// Writes a committed transaction (nothing when no one reads the log).
    pub(super) fn append(&mut self, e: BinlogEntry) {
        if !self.recording() {
            return;
        }
        if self.entries.len() >= MAX_ENTRIES {
            if let (Some(last), EntryKind::Rows { rows, .. }) = (self.entries.back_mut(), e.kind) {
                if let EntryKind::Rows { rows: r, .. } = &mut last.kind {
                    *r += rows;
                    last.committed = e.committed;
                    return;
                }
            }
        }
        self.entries.push_back(e);
    }

    /// The entry at reader `r`'s position, if there is one.
    pub(super) fn peek(&self, r: usize) -> Option<&BinlogEntry> {
        let pos = self.readers[r]?;
        self.entries.get((pos - self.base) as usize)
    }

    /// The entry `n` past reader `r`'s position, if there is one.
    pub(super) fn peek_nth(&self, r: usize, n: u64) -> Option<&BinlogEntry> {
        let pos = self.readers[r]?;
        self.entries.get((pos - self.base + n) as usize)
    }

    /// Reader `r` is past its entry.
    pub(super) fn advance(&mut self, r: usize) {
        if let Some(p) = &mut self.readers[r] {
            *p += 1;
        }
        self.trim();
    }

    /// Entries every reader is past go.
    fn trim(&mut self) {
        let min = self.readers.iter().flatten().min().copied();
        let keep_from = min.unwrap_or(self.base + self.entries.len() as u64);
        while self.base < keep_from && self.entries.pop_front().is_some() {
            self.base += 1;
        }
    }

    /// Entries not yet read by reader `r`.
    #[cfg(test)]
    fn behind(&self, r: usize) -> u64 {
        self.readers[r].map_or(0, |p| self.base + self.entries.len() as u64 - p)
    }
}

/// A replica's SQL thread: one entry at a time, in order.
#[derive(Clone, Debug)]
pub(super) struct Replica {
    reader: usize,
    apply_row: Tick,
    /// The entry being applied: when it is done, and its timestamp.
    applying: Option<(Tick, Tick)>,
    /// When the thread finished its last entry.
    free_at: Tick,
}

impl Replica {
    /// A replica reading `binlog` from now on.
    pub(super) fn new(binlog: &mut Binlog, apply_row: Tick) -> Replica {
        Replica {
            reader: binlog.add_reader(),
            apply_row,
            applying: None,
            free_at: Tick::ZERO,
        }
    }

    /// How long the applier takes over `e`.
    fn cost(&self, e: &BinlogEntry) -> Tick {
        match e.kind {
            EntryKind::Rows { rows, .. } => Tick(self.apply_row.as_ns() * rows),
            EntryKind::Ddl { ran } => ran,
        }
    }

    /// Applies what it can up to `now` (`exec_relay_log_event()` in a loop).
    pub(super) fn catch_up(&mut self, binlog: &mut Binlog, now: Tick) {
        loop {
            if let Some((done, _)) = self.applying {
                if done > now {
                    return;
                }
                self.free_at = done;
                self.applying = None;
                binlog.advance(self.reader);
            }
            let Some(e) = binlog.peek(self.reader).copied() else {
                return;
            };
            let start = self.free_at.max(e.committed);
            if start > now {
                return;
            }
            self.applying = Some((start + self.cost(&e), e.stamped));
        }
    }

    /// `Seconds_Behind_Master` at `now` (after [`Replica::catch_up`]): now minus the
    /// timestamp of the event being applied, 0 when idle.
    pub(super) fn seconds_behind(&self, now: Tick) -> u64 {
        self.lag(now).as_secs()
    }

    /// Now minus the timestamp of the event being applied.
    pub(super) fn lag(&self, now: Tick) -> Tick {
        self.applying
            .map_or(Tick::ZERO, |(_, stamped)| now.saturating_sub(stamped))
    }

    /// Transactions received but not yet applied.
    #[cfg(test)]
    fn queued(&self, binlog: &Binlog) -> u64 {
        binlog.behind(self.reader)
    }
}

impl super::Sim {
    /// A transaction that wrote `rows` rows committed: `table_rows` of them on
    /// `table` from position `first`; its first statement began at `stamped`.
    pub(super) fn binlog_rows(
        &mut self,
        stamped: Tick,
        rows: u64,
        (table, table_rows, first): (TableId, u64, u64),
    ) {
        if rows == 0 {
            return;
        }
        let kind = EntryKind::Rows {
            rows,
            table,
            table_rows,
            first,
        };
        let committed = self.sched.now;
        self.binlog.append(BinlogEntry {
            stamped,
            committed,
            kind,
        });
    }

    /// A DDL statement that began at `stamped` is done and ran for `ran`.
    pub(super) fn binlog_ddl(&mut self, stamped: Tick, ran: Tick) {
        let committed = self.sched.now;
        self.binlog.append(BinlogEntry {
            stamped,
            committed,
            kind: EntryKind::Ddl { ran },
        });
    }

    /// The replica's `Seconds_Behind_Master` now, if there is a replica.
    pub(super) fn replica_lag(&mut self) -> Option<u64> {
        let now = self.sched.now;
        let r = self.replica.as_mut()?;
        r.catch_up(&mut self.binlog, now);
        Some(r.seconds_behind(now))
    }

    /// The replica's lag in ms (finer than `Seconds_Behind_Master`, as gh-ost's
    /// heartbeat measures it), 0 without a replica.
    pub(super) fn replica_lag_ms(&mut self) -> u64 {
        let now = self.sched.now;
        let Some(r) = self.replica.as_mut() else {
            return 0;
        };
        r.catch_up(&mut self.binlog, now);
        r.lag(now).as_ms()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(stamped_ms: u64, committed_ms: u64, rows: u64) -> BinlogEntry {
        BinlogEntry {
            stamped: Tick::from_ms(stamped_ms),
            committed: Tick::from_ms(committed_ms),
            kind: EntryKind::Rows {
                rows,
                table: TableId(0),
                table_rows: rows,
                first: 0,
            },
        }
    }

    #[test]
    fn a_ddl_holds_the_applier_for_as_long_as_it_ran_and_shows_as_lag() {
        let mut log = Binlog::default();
        let mut r = Replica::new(&mut log, Tick::from_us(20));
        log.append(rows(0, 1, 4));
        // A 60 s ALTER that began at 10 s, committed at 70 s.
        log.append(BinlogEntry {
            stamped: Tick::from_secs(10),
            committed: Tick::from_secs(70),
            kind: EntryKind::Ddl {
                ran: Tick::from_secs(60),
            },
        });
        log.append(rows(70_000, 70_001, 4));
        r.catch_up(&mut log, Tick::from_secs(50));
        assert_eq!(
            r.seconds_behind(Tick::from_secs(50)),
            0,
            "the ALTER is not in the log yet"
        );
        r.catch_up(&mut log, Tick::from_secs(100));
        assert_eq!(r.seconds_behind(Tick::from_secs(100)), 90);
        assert_eq!(r.queued(&log), 2, "the ALTER and the write behind it");
        r.catch_up(&mut log, Tick::from_secs(131));
        assert_eq!(r.seconds_behind(Tick::from_secs(131)), 0);
        assert_eq!(r.queued(&log), 0);
    }

    #[test]
    fn nothing_is_kept_without_a_reader() {
        let mut log = Binlog::default();
        log.append(rows(0, 1, 4));
        assert!(log.entries.is_empty());
        let r = log.add_reader();
        log.append(rows(0, 1, 4));
        assert_eq!(log.behind(r), 1);
        log.remove_reader(r);
        assert!(log.entries.is_empty());
    }
}
