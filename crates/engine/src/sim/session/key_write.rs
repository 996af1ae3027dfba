//! Writing a set of primary-key values into or out of one table, for a console
//! session: the rows an INSERT ... SELECT copies (`select_insert::send_data()` →
//! `write_record()`), and the rows a trigger's body writes for its statement's rows.
//!
//! ```text
//!   KeyWrite { table, op: Insert(on duplicate) | Delete, spans, auto_rows }
//!     AutoInc ── the table's AUTO-INC lock, as the mode says (autoinc.rs)
//!     Lock    ── exclusive record locks on the rows' positions (row_ins_clust_index_entry(),
//!                the duplicate check's lock; row_upd_clust_step() for a DELETE)
//!     Apply   ── the key values: a duplicate fails (1062), is skipped (IGNORE),
//!                replaced (REPLACE) or updated (ON DUPLICATE KEY UPDATE)
//!   → what was inserted, found, deleted, and the pages to walk
//! ```
//!
//! Simplification: the rows are locked as one range from the first to the last
//! (InnoDB locks each record as it writes it), exclusively (a plain INSERT's or
//! IGNORE's duplicate check takes a shared lock on a row that is there); a table
//! without a primary key appends its rows (InnoDB's hidden row id never collides).

use super::{RowPoll, RowRange};
use crate::dict::Table;
use crate::sim::catalog::keys::KeyUndo;
use crate::sim::catalog::TableId;
use crate::sim::locks::AutoIncLock;
use crate::sim::Sim;
use crate::sql::{OnDuplicate, SqlError};
use crate::workload::PageOp;
use crate::ThreadId;

/// What a write does with its rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sim) enum KeyOp {
    /// Inserts them; a value that is there is handled as the statement says.
    Insert(OnDuplicate),
    /// Deletes them.
    Delete,
}

/// Where a write is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeyWriteStep {
    /// `innobase_lock_autoinc()`.
    AutoInc,
    /// The rows' record locks.
    Lock,
}

/// A write of key values into or out of one table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) struct KeyWrite {
    pub(in crate::sim) table: TableId,
    pub(in crate::sim) op: KeyOp,
    /// The rows' key values given, as sorted, disjoint spans.
    pub(in crate::sim) spans: Vec<(i64, i64)>,
    /// Rows that take the table's next AUTO_INCREMENT values (or, without a primary
    /// key, the next hidden row ids).
    pub(in crate::sim) auto_rows: u64,
    /// A DELETE that names no key: a full scan, every record locked to the supremum.
    pub(in crate::sim) scan: bool,
    /// The AUTO-INC lock an insert takes.
    pub(in crate::sim) autoinc: AutoIncLock,
    step: KeyWriteStep,
}

/// What a write did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::sim) struct KeyWritten {
    /// Key values inserted.
    pub(in crate::sim) inserted: Vec<(i64, i64)>,
    /// Rows inserted (with a primary key, the values of `inserted`).
    pub(in crate::sim) inserted_rows: u64,
    /// Values that were there already (skipped, replaced or updated).
    pub(in crate::sim) found: Vec<(i64, i64)>,
    /// Values deleted.
    pub(in crate::sim) deleted: Vec<(i64, i64)>,
    /// The pages the write walks.
    pub(in crate::sim) pages: Vec<PageOp>,
}

/// The answer to one step of a write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) enum WritePoll {
    Done(KeyWritten),
    Wait,
    Failed(SqlError),
}

/// How many values `spans` hold.
pub(in crate::sim) fn span_len(spans: &[(i64, i64)]) -> u64 {
    spans
        .iter()
        .map(|&(a, b)| b.abs_diff(a).saturating_add(1))
        .fold(0, u64::saturating_add)
}

/// `spans` without `gone` (both sorted and disjoint, `gone` within `spans`).
pub(in crate::sim) fn subtract(spans: &[(i64, i64)], gone: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for &(a, b) in spans {
        let mut from = a;
        for &(ga, gb) in gone.iter().filter(|&&(ga, gb)| gb >= a && ga <= b) {
            if ga > from {
                out.push((from, ga - 1));
            }
            from = gb.saturating_add(1);
        }
        if from <= b {
            out.push((from, b));
        }
    }
    out
}

/// The row position key value `k` stands at (ids `1..` at positions `0..`).
pub(in crate::sim) fn key_position(k: i64) -> u64 {
    k.max(1) as u64 - 1
}

/// The pages a write of the rows at positions `lo..=hi` (one span of consecutive
/// values) of `table` touches: a descent to the first, then every leaf to the last,
/// written; leaves past the
/// table's loaded ones are new pages at the end of its file (`buf_page_create()`
/// for the first row of each).
pub(in crate::sim) fn write_pages(table: &Table, lo: u64, hi: u64) -> Vec<PageOp> {
    let pk = table.primary();
    let per = pk.records_per_leaf;
    let loaded = pk.leaves();
    let path: Vec<_> = pk.search_path(lo).collect();
    let n = path.len();
    let mut ops: Vec<PageOp> = path
        .into_iter()
        .take(n.saturating_sub(1))
        .map(|page| PageOp {
            page,
            write: false,
            create: false,
        })
        .collect();
    for leaf in lo / per..=hi / per {
        let (page, create) = if leaf < loaded {
            (pk.first_leaf() + leaf as u32, false)
        } else {
            let extra = leaf - (loaded - 1);
            (table.pages + extra as u32 - 1, leaf * per >= lo)
        };
        ops.push(PageOp {
            page,
            write: true,
            create,
        });
    }
    ops
}

impl KeyWrite {
    /// A write of `spans` and `auto_rows` new values into (or out of) `table`.
    pub(in crate::sim) fn new(
        table: TableId,
        op: KeyOp,
        spans: Vec<(i64, i64)>,
        auto_rows: u64,
        autoinc: AutoIncLock,
    ) -> KeyWrite {
        KeyWrite {
            table,
            op,
            spans,
            auto_rows,
            scan: false,
            autoinc,
            step: KeyWriteStep::AutoInc,
        }
    }
}

impl Sim {
    /// How many key changes session `id`'s transaction has made: a statement's
    /// savepoint (`trx->undo_no`).
    pub(in crate::sim) fn key_undo_mark(&self, id: u32) -> usize {
        self.sql
            .sessions
            .get(&id)
            .and_then(|s| s.trx.as_ref())
            .map_or(0, |t| t.key_undo.len())
    }

    /// A failed statement's key changes since `mark` are undone, newest first (the
    /// statement's rollback, `trx_rollback_to_savepoint()`); its locks stay.
    pub(in crate::sim) fn undo_statement_keys(&mut self, id: u32, mark: usize) {
        let Some(trx) = self.sql.sessions.get_mut(&id).and_then(|s| s.trx.as_mut()) else {
            return;
        };
        if trx.key_undo.len() <= mark {
            return;
        }
        let undo: Vec<_> = trx.key_undo.drain(mark..).collect();
        for (ti, u) in undo.iter().rev() {
            let def = &mut self.catalog[*ti].def;
            match u {
                KeyUndo::InsertedSpans(s) => def.live_rows -= span_len(s).min(def.live_rows),
                KeyUndo::Deleted(s) => def.live_rows += span_len(s),
                KeyUndo::Inserted(_) => {}
            }
            self.catalog[*ti].keys.undo(u);
        }
    }

    /// One step of console session `id`'s write `w`, on thread `t`.
    pub(in crate::sim) fn step_key_write(
        &mut self,
        t: ThreadId,
        id: u32,
        w: &mut KeyWrite,
    ) -> WritePoll {
        if w.step == KeyWriteStep::AutoInc {
            let how = if matches!(w.op, KeyOp::Insert(_)) {
                w.autoinc
            } else {
                AutoIncLock::None
            };
            match self.autoinc_acquire(t, id, w.table, how) {
                RowPoll::Granted => w.step = KeyWriteStep::Lock,
                RowPoll::Wait => return WritePoll::Wait,
                RowPoll::Failed(e) => return WritePoll::Failed(e),
            }
            self.take_auto_values(w);
        }
        let Some(range) = self.key_write_range(w) else {
            return WritePoll::Done(KeyWritten::default());
        };
        match self.row_lock(t, id, range) {
            RowPoll::Granted => {}
            RowPoll::Wait => return WritePoll::Wait,
            RowPoll::Failed(e) => return WritePoll::Failed(e),
        }
        if let Some(trx) = self.sql.sessions.get_mut(&id).and_then(|s| s.trx.as_mut()) {
            trx.rows_locked += span_len(&w.spans) + w.auto_rows;
        }
        match self.apply_key_write(id, w) {
            Ok(done) => WritePoll::Done(done),
            Err(e) => WritePoll::Failed(e),
        }
    }

    /// The values a write that gives none takes (`row_ins()`'s autoinc, consecutive
    /// for one statement); a table without a primary key keeps them as a row count.
    fn take_auto_values(&mut self, w: &mut KeyWrite) {
        if w.auto_rows == 0 || self.catalog[w.table].def.pk.is_none() {
            return;
        }
        let entry = &mut self.catalog[w.table];
        let floor = i64::try_from(entry.append_row + 1).unwrap_or(i64::MAX);
        let first = entry.keys.take_auto(floor);
        let last = first.saturating_add_unsigned(w.auto_rows - 1);
        entry.keys.note_explicit(last);
        w.spans.push((first, last));
        w.spans.sort_unstable();
        w.auto_rows = 0;
    }

    /// The record locks a write takes: its rows' positions, first to last; every
    /// record to the supremum for a scan; the appended positions of a table without
    /// a primary key. `None`: nothing to lock.
    fn key_write_range(&self, w: &KeyWrite) -> Option<RowRange> {
        if w.scan {
            return Some(RowRange::records(w.table, 0, u64::MAX, true));
        }
        if w.auto_rows > 0 {
            let from = self.catalog[w.table].append_row;
            let to = from + w.auto_rows - 1;
            return Some(RowRange::records(w.table, from, to, true));
        }
        let lo = w.spans.first()?.0;
        let hi = w.spans.last()?.1;
        Some(RowRange::records(
            w.table,
            key_position(lo),
            key_position(hi),
            true,
        ))
    }

    /// The write's rows are locked: change the keys (with their undo), and plan the
    /// pages.
    fn apply_key_write(&mut self, id: u32, w: &KeyWrite) -> Result<KeyWritten, SqlError> {
        let ti = w.table;
        let mut done = KeyWritten::default();
        if w.auto_rows > 0 {
            // No primary key: the rows are appended under new hidden row ids.
            let entry = &mut self.catalog[ti];
            let from = entry.append_row;
            entry.append_row += w.auto_rows;
            entry.def.live_rows += w.auto_rows;
            done.inserted_rows = w.auto_rows;
            done.pages = write_pages(&entry.table, from, from + w.auto_rows - 1);
            return Ok(done);
        }
        let now = self.sched.now;
        match w.op {
            KeyOp::Insert(on_duplicate) => {
                let found = self.catalog[ti].keys.present(&w.spans);
                if let (OnDuplicate::Error, Some(&(k, _))) = (on_duplicate, found.first()) {
                    return Err(self.duplicate_entry(ti, k));
                }
                let new = subtract(&w.spans, &found);
                let entry = &mut self.catalog[ti];
                for &(a, b) in &new {
                    entry.keys.add(a, b);
                    entry.keys.note_explicit(b);
                }
                done.inserted_rows = span_len(&new);
                entry.def.live_rows += done.inserted_rows;
                if !new.is_empty() {
                    let trx = self.sql.trx_of(id, now);
                    trx.key_undo.push((ti, KeyUndo::InsertedSpans(new.clone())));
                }
                done.inserted = new;
                done.found = found;
            }
            KeyOp::Delete => {
                let entry = &mut self.catalog[ti];
                let mut removed = Vec::new();
                for &(a, b) in &w.spans {
                    removed.extend(entry.keys.remove(a, b));
                }
                entry.def.live_rows -= span_len(&removed).min(entry.def.live_rows);
                if !removed.is_empty() {
                    let trx = self.sql.trx_of(id, now);
                    trx.key_undo.push((ti, KeyUndo::Deleted(removed.clone())));
                }
                done.deleted = removed;
            }
        }
        let mut touched: Vec<(i64, i64)> = [&done.inserted, &done.found, &done.deleted]
            .into_iter()
            .flatten()
            .copied()
            .collect();
        touched.sort_unstable();
        let entry = &mut self.catalog[ti];
        for (lo, hi) in touched {
            let (lo, hi) = (key_position(lo), key_position(hi));
            entry.append_row = entry.append_row.max(hi + 1);
            done.pages.extend(write_pages(&entry.table, lo, hi));
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_less_the_values_found() {
        assert_eq!(subtract(&[(1, 10)], &[]), vec![(1, 10)]);
        assert_eq!(subtract(&[(1, 10)], &[(1, 10)]), vec![]);
        assert_eq!(
            subtract(&[(1, 10)], &[(3, 4), (8, 8)]),
            vec![(1, 2), (5, 7), (9, 10)]
        );
        assert_eq!(
            subtract(&[(1, 3), (7, 9)], &[(3, 3), (7, 7)]),
            vec![(1, 2), (8, 9)]
        );
        assert_eq!(span_len(&[(1, 3), (7, 9)]), 6);
    }

    #[test]
    fn a_range_write_walks_each_leaf_once_and_creates_leaves_past_the_end() {
        let t = Table::new("t", crate::bufpool::SpaceId(5), 1000, 200, 1, 0);
        let pk = t.primary();
        let per = pk.records_per_leaf;
        let ops = write_pages(&t, 0, per * 2);
        let leaves: Vec<_> = ops.iter().filter(|o| o.write).map(|o| o.page).collect();
        assert_eq!(
            leaves,
            vec![pk.first_leaf(), pk.first_leaf() + 1, pk.first_leaf() + 2]
        );
        assert!(ops.iter().all(|o| !o.create));
        // Rows past the loaded leaves: new pages, created at their first row.
        let past = pk.leaves() * per;
        let ops = write_pages(&t, past, past + per);
        let created: Vec<_> = ops.iter().filter(|o| o.create).map(|o| o.page).collect();
        assert_eq!(created, vec![t.pages, t.pages + 1]);
    }
}
