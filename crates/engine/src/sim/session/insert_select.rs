//! `INSERT [IGNORE] ... SELECT` and `REPLACE ... SELECT` (`SQLCOM_INSERT_SELECT`,
//! `select_insert::send_data()`): a shared locking read of one table, each row it
//! returns written into another (or the same) table as it is read.
//!
//! ```text
//!   Mdl       GLOBAL IX, TABLE target SW, TABLE source SR   (lock_plan.rs)
//!   Open      the target's triggers' tables (prelocking), the source's rows
//!   RowLock   loop: the source's rows up to the next one another transaction
//!                   holds exclusively: shared next-key locks (LOCK_S, whatever the
//!                   SELECT's own locking clause says: ha_innobase::store_lock() reads
//!                   for SQLCOM_INSERT_SELECT with LOCK_S above READ COMMITTED);
//!                   their rows into the target: the AUTO-INC lock at the first row
//!                   (held to the statement's end in modes 0 and 1), the rows' locks,
//!                   the duplicates as IGNORE/REPLACE/ON DUPLICATE KEY UPDATE say;
//!                   then wait for that row's lock, and go on
//!   Triggers  the target's triggers for the rows written
//!   Walk      the source's pages, then the target's
//! ```
//!
//! So a statement waiting for a row of its source holds the target's AUTO-INC lock
//! and the rows it has copied: an insert into the target waits (mode 0, or mode 1
//! through the fallback of `innobase_lock_autoinc()`), and so does any write of the
//! rows it has read. Seen on mariadbd 10.11.19: conformance script
//! `insert-select-autoinc`.
//!
//! A row's key moves with it when the target's primary-key column takes the source's
//! primary-key column (`INSERT INTO n (id, ...) SELECT id, ... FROM t`, and `SELECT *`
//! between tables of the same shape); otherwise the target gives its rows new
//! AUTO_INCREMENT values.
//!
//! Simplification: rows are locked as runs of positions, and a waiting shared
//! request waits only for granted exclusive locks (InnoDB also queues it behind a
//! waiting exclusive request on the same record).

use super::dml::{InsertCounts, LockingRead};
use super::key_write::{span_len, KeyOp, KeyWrite, WritePoll};
use super::trigger_run::RowsChanged;
use super::{RowPoll, RowRange, Running, Step, TableDef};
use crate::sim::catalog::TableId;
use crate::sim::locks::LockMode;
use crate::sim::locks::{AutoIncLock, InsertKind};
use crate::sim::{Next, Sim};
use crate::sql::{InsertSelect, OnDuplicate, SelectColumn, SqlError, TableName};
use crate::time::Tick;
use crate::workload::PageOp;
use crate::ThreadId;

/// How the source's rows become the target's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sim) enum KeyMapping {
    /// The target's primary key takes the source's: each row keeps its value.
    SourceKeys,
    /// The target's primary key gets a value that is not the source's key: new
    /// AUTO_INCREMENT values.
    NewValues,
    /// The target has no primary key: rows are appended.
    NoKey,
}

/// How `items` of a SELECT from `source` fill the `columns` (empty: every column) of
/// `target`: 1054 for a column either table lacks, 1136 when the counts differ.
pub(in crate::sim) fn key_mapping(
    source: &TableDef,
    target: &TableDef,
    columns: &[String],
    items: &[SelectColumn],
) -> Result<KeyMapping, SqlError> {
    let mut values: Vec<Option<&str>> = Vec::new();
    for item in items {
        match item {
            SelectColumn::Star => values.extend(source.columns.iter().map(|c| Some(c.as_str()))),
            SelectColumn::Column(c) if !source.has_column(c) => {
                return Err(SqlError::unknown_column_in(c, "field list"));
            }
            SelectColumn::Column(c) => values.push(Some(c.as_str())),
            SelectColumn::Expr => values.push(None),
        }
    }
    let cols: Vec<&str> = if columns.is_empty() {
        target.columns.iter().map(String::as_str).collect()
    } else {
        columns.iter().map(String::as_str).collect()
    };
    if let Some(c) = cols.iter().find(|c| !target.has_column(c)) {
        return Err(SqlError::unknown_column_in(c, "field list"));
    }
    if cols.len() != values.len() {
        return Err(SqlError::value_count(1));
    }
    if target.pk.is_none() {
        return Ok(KeyMapping::NoKey);
    }
    let keeps = cols
        .iter()
        .position(|c| target.is_pk(c))
        .and_then(|i| values[i])
        .is_some_and(|c| source.is_pk(c));
    Ok(if keeps {
        KeyMapping::SourceKeys
    } else {
        KeyMapping::NewValues
    })
}

/// An INSERT ... SELECT under way.
#[derive(Clone, Debug)]
pub(in crate::sim) struct InsertSelectRun {
    source: TableId,
    target: TableId,
    /// The rows the SELECT returns, as the source's key spans in key order.
    rows: Vec<(i64, i64)>,
    /// The next source position to lock, and the last one the read locks.
    next: u64,
    lock_hi: u64,
    /// Every position the read locks is locked.
    locked_all: bool,
    /// The rows at positions below this are handed to the target.
    copied_to: u64,
    mapping: KeyMapping,
    on_duplicate: OnDuplicate,
    autoinc: AutoIncLock,
    /// The target write under way.
    write: Option<KeyWrite>,
    /// What the statement did, for its message.
    pub(in crate::sim) counts: InsertCounts,
    /// The rows written, for the target's triggers.
    changed: RowsChanged,
    target_pages: Vec<PageOp>,
}

/// The key value of the row at position `p` (saturating).
fn id_at(p: u64) -> i64 {
    i64::try_from(p.saturating_add(1)).unwrap_or(i64::MAX)
}

/// The parts of `rows` whose values lie in `lo..=hi`.
fn rows_within(rows: &[(i64, i64)], lo: i64, hi: i64) -> Vec<(i64, i64)> {
    rows.iter()
        .filter(|&&(a, b)| b >= lo && a <= hi)
        .map(|&(a, b)| (a.max(lo), b.min(hi)))
        .collect()
}

impl Sim {
    /// Opens an INSERT ... SELECT: its tables (1146, LOCK TABLES' 1099/1100), its
    /// columns (1054, 1136), the target's triggers' tables (back to `Mdl` when they
    /// add locks), then the source's locking read.
    pub(in crate::sim) fn open_insert_select(
        &mut self,
        id: u32,
        run: &mut Running,
        is: &InsertSelect,
    ) -> Result<Next, SqlError> {
        let target = self.table_for_dml(id, &is.table, true)?;
        let source = self.table_for_dml(id, &is.source, false)?;
        let (sdef, tdef) = (&self.catalog[source].def, &self.catalog[target].def);
        let mapping = key_mapping(sdef, tdef, &is.columns, &is.items)?;
        if let Some(key) = sdef.unknown_hinted_index(&is.index_hints) {
            let table = self.catalog[source].table.sql_name();
            return Err(SqlError::key_does_not_exist(key, table));
        }
        if self.prelock_trigger_tables(id, run, target)? {
            run.step = Step::Mdl;
            return Ok(Next::After(Tick::ZERO));
        }
        run.undo_mark = self.key_undo_mark(id);
        run.opened = true;
        self.dml_trx_start(id, run);
        let read = self.locking_read(id, source, &is.access, is.limit)?;
        // LIMIT off, n: the first `off` rows are read and locked, not inserted.
        let rows = skip_keys(self.rows_read(source, &read, is.limit), is.offset);
        run.rows_scanned = read.scanned;
        run.walk.ops = read.pages.clone();
        run.walk.restart(source);
        run.subject = Some(target);
        let locks = read.matched > 0 || read.full;
        run.insert_select = Some(Box::new(InsertSelectRun {
            source,
            target,
            rows,
            next: read.lo,
            lock_hi: read.lock_hi,
            locked_all: !locks,
            copied_to: if locks { read.lo } else { u64::MAX },
            mapping,
            on_duplicate: is.on_duplicate,
            autoinc: self.autoinc_lock_for(target, InsertKind::Bulk),
            write: None,
            counts: InsertCounts::default(),
            changed: RowsChanged::default(),
            target_pages: Vec::new(),
        }));
        run.step = Step::RowLock;
        Ok(Next::After(Tick::ZERO))
    }

    /// The live table `name` names for a DML statement, checked against LOCK TABLES.
    fn table_for_dml(&self, id: u32, name: &TableName, write: bool) -> Result<TableId, SqlError> {
        self.check_locked_tables(id, name, write)?;
        let ti = self.resolve(name).first().copied().ok_or_else(|| {
            SqlError::no_such_table(
                name.schema.as_deref().unwrap_or(&self.scenario.schema),
                &name.table,
            )
        })?;
        if self.catalog[ti].def.discarded {
            return Err(SqlError::tablespace_discarded(&self.catalog[ti].table.name));
        }
        Ok(ti)
    }

    /// The source's rows a read returns, as key spans (up to its LIMIT).
    fn rows_read(
        &self,
        source: TableId,
        read: &LockingRead,
        limit: Option<u64>,
    ) -> Vec<(i64, i64)> {
        if read.matched == 0 && !read.full {
            return Vec::new();
        }
        let keys = &self.catalog[source].keys;
        if read.full || read.lock_hi == u64::MAX {
            return keys.within(
                id_at(read.lo),
                i64::MAX,
                limit.or(read.full.then_some(read.matched)),
            );
        }
        keys.within(id_at(read.lo), id_at(read.hi), limit)
    }

    /// `RowLock` of an INSERT ... SELECT: lock the source's rows up to the next
    /// conflict, write them into the target, wait at the conflict, go on.
    pub(in crate::sim) fn step_insert_select(
        &mut self,
        t: ThreadId,
        id: u32,
        run: &mut Running,
    ) -> Next {
        let mut is = run.insert_select.take().expect("set with the step");
        let next = loop {
            if let Some(w) = is.write.as_mut() {
                match self.step_key_write(t, id, w) {
                    WritePoll::Wait => break self.park_in_work_state(id, run),
                    WritePoll::Failed(e) => {
                        run.insert_select = Some(is);
                        return self.fail(id, run, e);
                    }
                    WritePoll::Done(done) => {
                        is.note_written(done);
                        is.write = None;
                    }
                }
            }
            if is.hand_over_locked_rows() {
                continue;
            }
            if is.locked_all {
                break self.insert_select_done(id, run, &mut is);
            }
            match self.lock_source_run(t, id, &mut is) {
                RowPoll::Granted => {}
                RowPoll::Wait => break self.park_in_work_state(id, run),
                RowPoll::Failed(e) => {
                    run.insert_select = Some(is);
                    return self.fail(id, run, e);
                }
            }
        };
        run.insert_select = Some(is);
        next
    }

    /// Parks the statement in its work state ("Sending data" for the read).
    fn park_in_work_state(&mut self, id: u32, run: &Running) -> Next {
        self.set_state(id, self.work_state(&run.command));
        Next::Parked
    }

    /// Shared locks on the source's next run of positions: up to the first one
    /// another session holds exclusively, or on that one alone (waiting for it).
    fn lock_source_run(&mut self, t: ThreadId, id: u32, is: &mut InsertSelectRun) -> RowPoll {
        let (next, hi) = (is.next, is.lock_hi);
        let conflict = self
            .sql
            .row_locks
            .iter()
            .filter(|l| {
                l.owner != id
                    && l.range.table == is.source
                    && l.range.mode == LockMode::Exclusive
                    && l.range.lo <= hi
                    && l.range.hi >= next
            })
            .map(|l| l.range.lo.max(next))
            .min();
        let end = match conflict {
            Some(p) if p > next => p - 1,
            Some(p) => p,
            None => hi,
        };
        let poll = self.row_lock(t, id, RowRange::records(is.source, next, end, false));
        if poll == RowPoll::Granted {
            if end >= hi {
                is.locked_all = true;
            }
            is.next = end.saturating_add(1);
        }
        poll
    }

    /// Every position is locked and every row written: the target's triggers, then
    /// the pages.
    fn insert_select_done(&mut self, id: u32, run: &mut Running, is: &mut InsertSelectRun) -> Next {
        run.rows_matched = is.counts.rows;
        run.rows_changed = is.counts.inserted + is.counts.replaced + is.counts.updated;
        self.note_inserted(run, is.target, is.counts.inserted + is.counts.replaced);
        let pages = std::mem::take(&mut is.target_pages);
        if !pages.is_empty() {
            run.walks.push((is.target, pages));
        }
        let target = is.target;
        let changed = std::mem::take(&mut is.changed);
        if let Err(e) = self.after_rows(run, target, &changed) {
            return self.fail(id, run, e);
        }
        if run.step == Step::Walk {
            self.set_state(id, self.work_state(&run.command));
        }
        Next::After(Tick::ZERO)
    }
}

impl InsertSelectRun {
    /// Hands the rows at the locked positions not yet written to a target write;
    /// true when it started one.
    fn hand_over_locked_rows(&mut self) -> bool {
        let locked_to = if self.locked_all { u64::MAX } else { self.next };
        if locked_to <= self.copied_to {
            return false;
        }
        let lo = id_at(self.copied_to);
        let hi = if locked_to == u64::MAX {
            i64::MAX
        } else {
            id_at(locked_to - 1)
        };
        self.copied_to = locked_to;
        let spans = rows_within(&self.rows, lo, hi);
        let n = span_len(&spans);
        if n == 0 {
            return false;
        }
        self.counts.rows += n;
        let op = KeyOp::Insert(self.on_duplicate);
        self.write = Some(match self.mapping {
            KeyMapping::SourceKeys => KeyWrite::new(self.target, op, spans, 0, self.autoinc),
            KeyMapping::NewValues | KeyMapping::NoKey => {
                KeyWrite::new(self.target, op, Vec::new(), n, self.autoinc)
            }
        });
        true
    }

    /// A target write is done: its counts, the rows its triggers fire for, its pages.
    fn note_written(&mut self, done: super::key_write::KeyWritten) {
        self.counts.inserted += done.inserted_rows;
        let found = span_len(&done.found);
        match self.on_duplicate {
            OnDuplicate::Ignore => self.counts.skipped += found,
            OnDuplicate::Update => {
                self.counts.updated += found;
                self.changed.updated.extend(done.found.iter().copied());
            }
            OnDuplicate::Replace => {
                self.counts.replaced += found;
                self.changed.deleted.extend(done.found.iter().copied());
                self.changed.inserted.extend(done.found.iter().copied());
            }
            OnDuplicate::Error => {}
        }
        if self.mapping == KeyMapping::NoKey {
            self.changed.inserted_rows += done.inserted_rows;
        }
        self.changed.inserted.extend(done.inserted);
        self.changed.inserted.sort_unstable();
        self.target_pages.extend(done.pages);
    }
}

/// The key intervals `runs` without their first `n` keys.
fn skip_keys(runs: Vec<(i64, i64)>, mut n: u64) -> Vec<(i64, i64)> {
    let mut out = Vec::with_capacity(runs.len());
    for (a, b) in runs {
        let len = b.abs_diff(a).saturating_add(1);
        if n >= len {
            n -= len;
            continue;
        }
        out.push((a.saturating_add_unsigned(n), b));
        n = 0;
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn skip_keys_drops_the_first_n_keys_across_intervals() {
        assert_eq!(super::skip_keys(vec![(1, 3), (7, 9)], 4), vec![(8, 9)]);
        assert_eq!(super::skip_keys(vec![(1, 3), (7, 9)], 3), vec![(7, 9)]);
        assert_eq!(super::skip_keys(vec![(1, 3)], 0), vec![(1, 3)]);
        assert_eq!(super::skip_keys(vec![(1, 3)], 5), vec![]);
    }

    use super::*;

    fn def(columns: &[&str], pk: Option<&str>) -> TableDef {
        let mut d = TableDef::sysbench(0, 0, 0);
        d.columns = columns.iter().map(|c| c.to_string()).collect();
        d.pk = pk.map(str::to_owned);
        d
    }

    #[test]
    fn the_key_moves_with_the_row_when_the_pk_takes_the_pk() {
        let t = def(&["id", "k", "c", "pad"], Some("id"));
        let col = |c: &str| SelectColumn::Column(c.into());
        let cols = |cs: &[&str]| cs.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        let check = |columns: &[String], items: &[SelectColumn]| {
            key_mapping(&t, &t, columns, items).map_err(|e| e.code)
        };
        assert_eq!(
            check(&[], &[SelectColumn::Star]),
            Ok(KeyMapping::SourceKeys)
        );
        assert_eq!(
            check(&cols(&["id", "k"]), &[col("id"), col("k")]),
            Ok(KeyMapping::SourceKeys)
        );
        assert_eq!(
            check(&cols(&["id", "k"]), &[col("k"), col("id")]),
            Ok(KeyMapping::NewValues)
        );
        assert_eq!(
            check(&cols(&["k", "c"]), &[col("k"), col("c")]),
            Ok(KeyMapping::NewValues)
        );
        assert_eq!(check(&cols(&["id"]), &[col("id"), col("k")]), Err(1136));
        assert_eq!(check(&cols(&["id"]), &[col("nosuch")]), Err(1054));
        assert_eq!(check(&cols(&["nosuch"]), &[col("id")]), Err(1054));
        let heap = def(&["a", "b"], None);
        assert_eq!(
            key_mapping(&t, &heap, &cols(&["a", "b"]), &[col("id"), col("k")]),
            Ok(KeyMapping::NoKey)
        );
    }

    #[test]
    fn the_rows_of_a_locked_run_are_cut_from_the_spans() {
        assert_eq!(
            rows_within(&[(1, 10), (20, 30)], 5, 25),
            vec![(5, 10), (20, 25)]
        );
        assert_eq!(rows_within(&[(1, 10)], 11, 20), vec![]);
        assert_eq!(id_at(u64::MAX), i64::MAX);
    }
}
