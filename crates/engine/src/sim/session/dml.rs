//! DML of console sessions: SELECT, INSERT, UPDATE and DELETE set up as the row locks
//! they take and the pages they walk through the buffer pool (with the workload's own
//! `PageWalk`), then finished with their per-row work counted.
//!
//! Simplification: statements act on row counts and pages, never on values, the
//! primary key's excepted (`keys.rs`): an INSERT checks each row's key value
//! (`row_ins_clust_index_entry_low()` → `row_ins_duplicate_error_in_clust()`), and
//! a DELETE by the primary key (or of every row) removes its values.

use super::trigger_run::RowsChanged;
use super::{RowPoll, RowRange, Running, Step, TableDef};
use crate::dict::Table;
use crate::resultset::ResultSet;
use crate::rng::SimRng;
use crate::sim::catalog::keys::KeyUndo;
use crate::sim::catalog::TableId;
use crate::sim::locks::InsertKind;
use crate::sim::{Next, Sim};
use crate::sql::{Command, OnDuplicate, RowAccess, RowLock, SqlError, TableName};
use crate::time::Tick;
use crate::workload::{statement_ops, PageOp, StatementKind};
use crate::ThreadId;

/// The row position a key value's record stands at (the sysbench rows' ids are
/// `1..=rows` at positions `0..rows`), which is what row locks name.
fn key_pos(k: i64) -> u64 {
    k.max(1) as u64 - 1
}

/// An INSERT's rows as primary-key values, inserted one at a time after the
/// duplicate check (`row_ins_clust_index_entry_low()`).
#[derive(Clone, Debug)]
pub(in crate::sim) struct InsertKeys {
    table: TableId,
    /// Each row's value, in order; `None` where none was given, until the row's turn
    /// gives it the table's next auto-increment value (`get_auto_increment()`, under
    /// the AUTO-INC lock).
    keys: Vec<Option<i64>>,
    /// The table's next appended row when the statement began: the least
    /// auto-increment value of its `i`th row is `base + i + 1`.
    base: u64,
    /// The next row to insert.
    next: usize,
    on_duplicate: OnDuplicate,
    /// The values this statement inserted (a failure removes them again).
    inserted: Vec<i64>,
    /// Rows skipped by INSERT IGNORE, rows ON DUPLICATE KEY UPDATE updated, and rows
    /// REPLACE deleted and inserted again.
    skipped: u64,
    updated: u64,
    replaced: u64,
    /// The transaction's key undo before this statement (its savepoint).
    undo_mark: usize,
    /// The values that were there and were updated or replaced.
    found: Vec<i64>,
    /// The AUTO-INC lock is held, or was not needed.
    autoinc_held: bool,
}

impl InsertKeys {
    /// The rows the INSERT changed, by the event they fire.
    fn rows_changed(&self) -> RowsChanged {
        let spans = |keys: &[i64]| {
            let mut v: Vec<(i64, i64)> = keys.iter().map(|&k| (k, k)).collect();
            v.sort_unstable();
            v
        };
        let mut changed = RowsChanged {
            inserted: spans(&self.inserted),
            ..RowsChanged::default()
        };
        match self.on_duplicate {
            OnDuplicate::Update => changed.updated = spans(&self.found),
            OnDuplicate::Replace => {
                changed.deleted = spans(&self.found);
                changed.inserted.extend(spans(&self.found));
                changed.inserted.sort_unstable();
            }
            OnDuplicate::Error | OnDuplicate::Ignore => {}
        }
        changed
    }
}

/// What a locking read reaches: positions `lo..=hi` read, up to `lock_hi` locked
/// (the next record, or the supremum), the rows matched and read, and its pages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) struct LockingRead {
    pub(in crate::sim) lo: u64,
    pub(in crate::sim) hi: u64,
    pub(in crate::sim) lock_hi: u64,
    pub(in crate::sim) matched: u64,
    pub(in crate::sim) scanned: u64,
    pub(in crate::sim) full: bool,
    pub(in crate::sim) pages: Vec<PageOp>,
}

/// Which kind of work a statement's pages and rows are.
pub(in crate::sim) fn dml_kind(c: &Command) -> Option<(&TableName, bool)> {
    match c {
        Command::Select { table, lock, .. } => Some((table, *lock == RowLock::Exclusive)),
        Command::Insert { table, .. }
        | Command::Update { table, .. }
        | Command::Delete { table, .. } => Some((table, true)),
        _ => None,
    }
}

/// The four DML statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DmlKind {
    Select,
    Update,
    Delete,
    Insert,
}

/// What a DML statement asks for: its kind, the rows its WHERE clause reaches, its
/// LIMIT (the row count for an INSERT) and its row locks.
struct DmlRequest {
    kind: DmlKind,
    access: RowAccess,
    limit: Option<u64>,
    lock: RowLock,
}

impl DmlRequest {
    fn of(command: &Command) -> DmlRequest {
        let (kind, access, limit, lock) = match command {
            Command::Select {
                access,
                lock,
                limit,
                ..
            } => (DmlKind::Select, access.clone(), *limit, *lock),
            Command::Update { access, limit, .. } => {
                (DmlKind::Update, access.clone(), *limit, RowLock::Exclusive)
            }
            Command::Delete { access, limit, .. } => {
                (DmlKind::Delete, access.clone(), *limit, RowLock::Exclusive)
            }
            Command::Insert { rows, .. } => (
                DmlKind::Insert,
                RowAccess::Point {
                    column: String::new(),
                    value: 0,
                },
                Some(*rows),
                RowLock::Exclusive,
            ),
            _ => unreachable!("dml_kind"),
        };
        DmlRequest {
            kind,
            access,
            limit,
            lock,
        }
    }
}

/// How a WHERE clause's column is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ColumnSearch {
    /// No such column: 1054.
    Unknown,
    /// The primary key or an indexed column: a B-tree search.
    Key,
    /// Any other column: a full scan.
    Scan,
}

/// The rows a search reaches: positions `lo..=hi`, how many match and how many are
/// read, and whether it is a full scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reach {
    lo: u64,
    hi: u64,
    matched: u64,
    scanned: u64,
    full: bool,
}

impl Reach {
    fn new(lo: u64, hi: u64, matched: u64, scanned: u64, full: bool) -> Reach {
        Reach {
            lo,
            hi,
            matched,
            scanned,
            full,
        }
    }
}

/// Which rows `access` reaches in a table of `table_rows` positions with `live` rows
/// defined as `def`, before LIMIT.
fn rows_reached(
    def: &TableDef,
    access: &RowAccess,
    table_rows: u64,
    live: u64,
) -> Result<Reach, SqlError> {
    let column_of = |c: &str| {
        let key = def.pk.as_deref().is_some_and(|p| p.eq_ignore_ascii_case(c))
            || def
                .indexes
                .iter()
                .any(|ix| ix.column.eq_ignore_ascii_case(c));
        if key {
            ColumnSearch::Key
        } else if def.columns.iter().any(|col| col.eq_ignore_ascii_case(c)) {
            ColumnSearch::Scan
        } else {
            ColumnSearch::Unknown
        }
    };
    let place = "where clause";
    Ok(match access {
        RowAccess::Point { column, value } => match column_of(column) {
            ColumnSearch::Unknown => return Err(SqlError::unknown_column_in(column, place)),
            ColumnSearch::Key => {
                let v = *value;
                if v >= 1 && (v as u64) <= live.max(table_rows) {
                    let p = (v - 1) as u64;
                    Reach::new(p, p, 1, 1, false)
                } else {
                    let p = (v.max(1) as u64 - 1).min(table_rows - 1);
                    Reach::new(p, p, 0, 0, false)
                }
            }
            ColumnSearch::Scan => Reach::new(0, u64::MAX, 1.min(live), live, true),
        },
        RowAccess::Range { column, min, max } => match column_of(column) {
            ColumnSearch::Unknown => return Err(SqlError::unknown_column_in(column, place)),
            ColumnSearch::Key => {
                let a = min.unwrap_or(1).max(1) as u64;
                let b = max.map_or(table_rows, |m| m.max(0) as u64).min(table_rows);
                if a > b {
                    let p = (a - 1).min(table_rows - 1);
                    Reach::new(p, p, 0, 0, false)
                } else {
                    Reach::new(a - 1, b - 1, b - a + 1, b - a + 1, false)
                }
            }
            ColumnSearch::Scan => {
                let n = match (min, max) {
                    (Some(a), Some(b)) if b >= a => ((b - a + 1) as u64).min(live),
                    _ => live,
                };
                Reach::new(0, u64::MAX, n, live, true)
            }
        },
        RowAccess::FullScan => Reach::new(0, u64::MAX, live, live, true),
    })
}

/// The last row position a locking search of `access` locks, given the rows it
/// reached (`reach`, the whole range: no LIMIT stopped it): on a range of an index,
/// InnoDB takes a next-key lock on every record it reads, the first one past the
/// range included, so that record is locked too; a range that runs past the last row
/// locks the gap up to the supremum (inserts at the end wait). With `unique_stops`
/// (MySQL 8.0.18+), a range on the primary key stops at its end.
fn locked_hi(
    def: &TableDef,
    access: &RowAccess,
    reach: &Reach,
    table_rows: u64,
    unique_stops: bool,
) -> u64 {
    let RowAccess::Range { column, max, .. } = access else {
        return reach.hi;
    };
    if reach.full || reach.matched == 0 {
        return reach.hi;
    }
    let bounded = max.is_some_and(|m| m >= 1 && (m as u64) < table_rows);
    if !bounded {
        return u64::MAX;
    }
    let primary = def
        .pk
        .as_deref()
        .is_some_and(|p| p.eq_ignore_ascii_case(column));
    if primary && unique_stops {
        reach.hi
    } else {
        reach.hi + 1
    }
}

/// What an INSERT did with its rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::sim) struct InsertCounts {
    /// Rows read (its VALUES rows, or the rows its SELECT returned).
    pub(in crate::sim) rows: u64,
    /// Rows inserted.
    pub(in crate::sim) inserted: u64,
    /// Duplicates INSERT IGNORE skipped.
    pub(in crate::sim) skipped: u64,
    /// Duplicates ON DUPLICATE KEY UPDATE updated.
    pub(in crate::sim) updated: u64,
    /// Duplicates REPLACE deleted before inserting the row again.
    pub(in crate::sim) replaced: u64,
}

/// What the `mysql` client prints after an INSERT (`my_ok()` with `ER_INSERT_INFO` in
/// `mysql_insert()` and `select_insert::send_eof()`): each row inserted counts one
/// affected row, each updated by ON DUPLICATE KEY UPDATE and each replaced by REPLACE
/// two (`info.copied + info.deleted + info.updated`); each skipped by IGNORE a
/// warning. A multi-row INSERT and every INSERT ... SELECT (`records_line`) add the
/// Records line.
///
/// Simplification: a row REPLACE or ON DUPLICATE KEY UPDATE writes with the values it
/// already had counts as changed (the server counts it once, or not at all).
pub(in crate::sim) fn insert_message(c: InsertCounts, records_line: bool) -> String {
    let InsertCounts {
        rows,
        inserted,
        skipped,
        updated,
        replaced,
    } = c;
    let affected = inserted + 2 * (updated + replaced);
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut m = format!("Query OK, {} affected", plural(affected, "row", "rows"));
    if skipped > 0 {
        m += &format!(", {}", plural(skipped, "warning", "warnings"));
    }
    if rows > 1 || records_line {
        m += &format!(
            "\nRecords: {rows}  Duplicates: {}  Warnings: {skipped}",
            skipped + updated + replaced
        );
    }
    m
}

/// LIMIT `l` cuts the rows reached.
fn apply_limit(r: &mut Reach, l: u64) {
    r.matched = r.matched.min(l);
    if r.full {
        r.scanned = r.scanned.min(l.max(1));
        r.hi = if l == 0 { 0 } else { l - 1 };
    } else {
        r.hi = r.hi.min(r.lo + l.max(1) - 1);
        // The scan stops at the LIMIT's last row: it reads no position past it.
        r.scanned = r.scanned.min(r.hi.saturating_sub(r.lo) + 1);
    }
}

/// The pages a search of positions `r.lo..=r.hi` reads: a descent of the clustered
/// index to the first, then the leaves in the range; the leaves are written when
/// `write_leaves` and a row matched.
fn search_pages(table: &Table, r: &Reach, table_rows: u64, write_leaves: bool) -> Vec<PageOp> {
    let pk = table.primary();
    let last_pos = table_rows - 1;
    let first = r.lo.min(last_pos);
    let last = r.hi.min(last_pos);
    let path = pk.search_path(first);
    let leaf_first = pk.leaf_of(first);
    let leaf_last = pk.leaf_of(last);
    let n = path.len();
    let mut ops = Vec::new();
    for (i, p) in path.into_iter().enumerate() {
        ops.push(PageOp {
            page: p,
            write: write_leaves && i + 1 == n && r.matched > 0,
            create: false,
        });
    }
    for p in leaf_first + 1..=leaf_last {
        ops.push(PageOp {
            page: p,
            write: write_leaves && r.matched > 0,
            create: false,
        });
    }
    ops
}

impl Sim {
    /// Sets up a DML statement's row locks and page walk (`ha_innobase::external_lock()`
    /// starts the transaction, then the search or the insert positions).
    pub(in crate::sim) fn open_dml(
        &mut self,
        id: u32,
        run: &mut Running,
        ti: TableId,
    ) -> Result<Next, SqlError> {
        let def = self.catalog[ti].def.clone();
        if def.discarded {
            return Err(SqlError::tablespace_discarded(&self.catalog[ti].table.name));
        }
        if let Command::Select { index_hints, .. } = &run.command {
            if let Some(key) = def.unknown_hinted_index(index_hints) {
                let table = self.catalog[ti].table.sql_name();
                return Err(SqlError::key_does_not_exist(key, table));
            }
        }
        let req = DmlRequest::of(&run.command);
        self.dml_trx_start(id, run);
        run.subject = Some(ti);
        self.check_read_view(id, run, &req, &def)?;
        let (reach, ops, lock_hi) = if req.kind == DmlKind::Insert {
            let base = self.catalog[ti].append_row;
            run.insert = self.insert_keys(id, ti, &def, &run.command, base);
            let (reach, ops) = self.insert_pages(ti, req.limit.unwrap_or(1));
            let hi = reach.hi;
            (reach, ops, hi)
        } else {
            self.dml_search(id, ti, &req, &def)?
        };
        run.walk.ops = ops;
        run.walk.restart(ti);
        run.rows_scanned = reach.scanned;
        run.rows_matched = reach.matched;
        run.rows_changed = if req.kind == DmlKind::Select {
            0
        } else {
            reach.matched
        };
        if !def.triggers.is_empty() && run.insert.is_none() && req.kind != DmlKind::Select {
            let changed = self.rows_changed_by(ti, &req, &reach);
            run.trigger_writes = self.trigger_writes(&run.command, ti, &changed)?;
        }
        let locking = req.kind != DmlKind::Select || req.lock != RowLock::NonLocking;
        if locking && (reach.matched > 0 || reach.full || req.kind == DmlKind::Insert) {
            let exclusive = req.lock == RowLock::Exclusive;
            run.row_range = Some(RowRange::records(ti, reach.lo, lock_hi, exclusive));
            run.step = Step::RowLock;
        } else {
            self.set_state(id, self.work_state(&run.command));
            run.step = Step::Walk;
        }
        Ok(Next::After(Tick::ZERO))
    }

    /// The rows an UPDATE or DELETE reaching `reach` changes, or an INSERT into a
    /// table without a primary key, for its triggers: the key values at the rows'
    /// positions (every value from the first, for a range to the table's end or a
    /// scan), up to the rows matched.
    fn rows_changed_by(&self, ti: TableId, req: &DmlRequest, reach: &Reach) -> RowsChanged {
        let mut changed = RowsChanged::default();
        if reach.matched == 0 {
            return changed;
        }
        if req.kind == DmlKind::Insert {
            changed.inserted_rows = reach.matched;
            return changed;
        }
        let lo = i64::try_from(reach.lo.saturating_add(1)).unwrap_or(i64::MAX);
        let hi = if reach.full || reach.hi == u64::MAX {
            i64::MAX
        } else {
            i64::try_from(reach.hi + 1).unwrap_or(i64::MAX)
        };
        let spans = self.catalog[ti].keys.within(lo, hi, Some(reach.matched));
        match req.kind {
            DmlKind::Update => changed.updated = spans,
            _ => changed.deleted = spans,
        }
        changed
    }

    /// Starts (or joins) the session's transaction for a DML statement.
    pub(in crate::sim) fn dml_trx_start(&mut self, id: u32, run: &mut Running) {
        let autocommit = self.sql.sessions[&id].vars.autocommit;
        let had_trx = self.sql.sessions[&id].trx.is_some();
        let trx = self.sql.trx_of(id, self.sched.now);
        if !had_trx {
            trx.explicit = !autocommit;
            run.autocommit_trx = autocommit;
        }
    }

    /// A consistent read creates the read view if the transaction has none; a locking
    /// read, an UPDATE or a DELETE search the index with the view the transaction has,
    /// if any. A view older than the table's clustered index cannot use it
    /// (`ha_innobase::change_active_index()`: `!row_merge_is_index_usable()` →
    /// `DB_MISSING_HISTORY`, whatever the lock type; MariaDB 10.11.19: a DELETE in a
    /// consistent snapshot taken before ALTER TABLE ... FORCE gets 1412), nor can one
    /// older than a secondary index it is forced to use. An INSERT searches no index.
    fn check_read_view(
        &mut self,
        id: u32,
        run: &Running,
        req: &DmlRequest,
        def: &TableDef,
    ) -> Result<(), SqlError> {
        let consistent_read = req.kind == DmlKind::Select && req.lock == RowLock::NonLocking;
        let now = self.sched.now;
        let trx = self.sql.trx_of(id, now);
        let view = if consistent_read {
            Some(*trx.read_view.get_or_insert(now))
        } else if req.kind == DmlKind::Insert {
            None
        } else {
            trx.read_view
        };
        let Some(view) = view else {
            return Ok(());
        };
        if view < def.rebuilt_at {
            return Err(SqlError::table_def_changed());
        }
        if let Command::Select { index_hints, .. } = &run.command {
            if def
                .index_read(&req.access, index_hints)
                .is_some_and(|ix| view < ix.built_at)
            {
                return Err(SqlError::table_def_changed());
            }
        }
        Ok(())
    }

    /// The shared locking read an INSERT ... SELECT makes of `access` on table `ti`
    /// (`row_search_mvcc()` with `LOCK_S`): the rows it reaches and locks, and its
    /// pages.
    pub(in crate::sim) fn locking_read(
        &mut self,
        id: u32,
        ti: TableId,
        access: &RowAccess,
        limit: Option<u64>,
    ) -> Result<LockingRead, SqlError> {
        let req = DmlRequest {
            kind: DmlKind::Select,
            access: access.clone(),
            limit,
            lock: RowLock::Shared,
        };
        let def = self.catalog[ti].def.clone();
        let (reach, pages, lock_hi) = self.dml_search(id, ti, &req, &def)?;
        Ok(LockingRead {
            lo: reach.lo,
            hi: reach.hi,
            lock_hi,
            matched: reach.matched,
            scanned: reach.scanned,
            full: reach.full,
            pages,
        })
    }

    /// A search's rows reached, their pages, and the last row position it locks.
    fn dml_search(
        &mut self,
        id: u32,
        ti: TableId,
        req: &DmlRequest,
        def: &TableDef,
    ) -> Result<(Reach, Vec<PageOp>, u64), SqlError> {
        let table_rows = self.catalog[ti].table.rows.max(1);
        let mut reach = rows_reached(def, &req.access, table_rows, def.live_rows)?;
        let locking = req.kind != DmlKind::Select || req.lock != RowLock::NonLocking;
        if let (true, RowAccess::Point { column, value }) = (locking, &req.access) {
            if def
                .pk
                .as_deref()
                .is_some_and(|p| p.eq_ignore_ascii_case(column))
            {
                // A locking search by the primary key finds the record if it is there,
                // or delete-marked by another open transaction (whose lock it waits
                // for); a value that was never there matches nothing.
                let p = key_pos(*value);
                reach = if self.record_exists(id, ti, *value) {
                    Reach::new(p, p, 1, 1, false)
                } else {
                    let p = p.min(table_rows - 1);
                    Reach::new(p, p, 0, 0, false)
                };
            }
        }
        let range_end = reach.hi;
        if let Some(l) = req.limit {
            apply_limit(&mut reach, l);
        }
        let lock_hi = if reach.hi < range_end {
            // The LIMIT stopped the scan before the range's end: nothing past the last
            // row read is locked.
            reach.hi
        } else {
            let unique_stops = !self.profile.mechanisms.unique_range_locks_next_record;
            locked_hi(def, &req.access, &reach, table_rows, unique_stops)
        };
        let write = matches!(req.kind, DmlKind::Update | DmlKind::Delete);
        let ops = search_pages(&self.catalog[ti].table, &reach, table_rows, write);
        Ok((reach, ops, lock_hi))
    }

    /// Whether a locking search by the primary key for `k` finds a record: the value
    /// is there, or another open transaction deleted it (the record is delete-marked
    /// under that transaction's lock until it ends).
    fn record_exists(&self, id: u32, ti: TableId, k: i64) -> bool {
        self.catalog[ti].keys.contains(k)
            || self.sql.sessions.values().any(|s| {
                s.id != id
                    && s.trx.as_ref().is_some_and(|trx| {
                        trx.key_undo.iter().any(|(t, u)| {
                            *t == ti
                                && matches!(u, KeyUndo::Deleted(spans)
                                    if spans.iter().any(|&(a, b)| a <= k && k <= b))
                        })
                    })
            })
    }

    /// An INSERT's rows as key values: the primary key's column in each row, or the
    /// next auto-increment value where the row gives none (or NULL, 0, DEFAULT, an
    /// expression). `None` for a table without a primary key (InnoDB's hidden row id
    /// is never a duplicate) and for INSERT ... SELECT.
    fn insert_keys(
        &mut self,
        id: u32,
        ti: TableId,
        def: &TableDef,
        command: &Command,
        base: u64,
    ) -> Option<Box<InsertKeys>> {
        let Command::Insert {
            columns,
            values,
            on_duplicate,
            ..
        } = command
        else {
            return None;
        };
        let pk = def.pk.as_deref()?;
        if values.is_empty() {
            return None;
        }
        let same = |c: &String| c.eq_ignore_ascii_case(pk);
        let at = if columns.is_empty() {
            def.columns.iter().position(same)
        } else {
            columns.iter().position(same)
        };
        let entry = &mut self.catalog[ti];
        let mut keys = Vec::with_capacity(values.len());
        for row in values {
            let given = at.and_then(|a| row.get(a).copied().flatten());
            keys.push(match given {
                Some(v) if v != 0 => {
                    entry.keys.note_explicit(v);
                    Some(v)
                }
                // Taken when the row's turn comes, under the AUTO-INC lock.
                _ => None,
            });
        }
        let undo_mark = self
            .sql
            .sessions
            .get(&id)
            .and_then(|s| s.trx.as_ref())
            .map_or(0, |t| t.key_undo.len());
        Some(Box::new(InsertKeys {
            table: ti,
            keys,
            base,
            next: 0,
            on_duplicate: *on_duplicate,
            inserted: Vec::new(),
            skipped: 0,
            updated: 0,
            replaced: 0,
            undo_mark,
            found: Vec::new(),
            autoinc_held: false,
        }))
    }

    /// An INSERT's rows one at a time (`row_ins_clust_index_entry_low()`): a value
    /// that is there is checked under a record lock on it, shared for a plain INSERT
    /// and INSERT IGNORE (`row_ins_set_shared_rec_lock()`), exclusive for ON DUPLICATE
    /// KEY UPDATE (`trx->duplicates`, which `ha_innobase::extra()` sets for
    /// `HA_EXTRA_INSERT_WITH_UPDATE` and REPLACE's `HA_EXTRA_WRITE_CAN_REPLACE`, not
    /// for IGNORE: `row_ins_set_exclusive_rec_lock()`; seen on mariadbd 10.11.19,
    /// conformance script `duplicate-key`); a record
    /// another open transaction inserted is under its implicit lock, which the check
    /// turns into an explicit one and waits for (`lock_rec_convert_impl_to_expl()`), as
    /// it waits for one that transaction deleted. Once granted: a value still there is
    /// 1062 (or skipped, or updated); a value that is not is inserted under an
    /// exclusive lock on its position (which also waits for a gap another search
    /// locked: the insert intention).
    pub(in crate::sim) fn step_insert_keys(
        &mut self,
        t: ThreadId,
        id: u32,
        run: &mut Running,
    ) -> Next {
        let mut ins = run.insert.take().expect("set with the step");
        if !ins.autoinc_held {
            // innobase_lock_autoinc(), before the first row (autoinc.rs).
            let how = self.autoinc_lock_for(ins.table, InsertKind::Simple);
            match self.autoinc_acquire(t, id, ins.table, how) {
                RowPoll::Granted => ins.autoinc_held = true,
                RowPoll::Wait => {
                    run.insert = Some(ins);
                    self.set_state(id, self.work_state(&run.command));
                    return Next::Parked;
                }
                RowPoll::Failed(e) => {
                    run.insert = Some(ins);
                    return self.fail(id, run, e);
                }
            }
        }
        let next = loop {
            let Some(&given) = ins.keys.get(ins.next) else {
                run.rows_matched = ins.inserted.len() as u64 + ins.updated + ins.replaced;
                run.rows_changed = run.rows_matched;
                let inserted = ins.inserted.len() as u64 + ins.replaced;
                self.note_inserted(run, ins.table, inserted);
                self.set_state(id, self.work_state(&run.command));
                let changed = ins.rows_changed();
                if let Err(e) = self.after_rows(run, ins.table, &changed) {
                    run.insert = Some(ins);
                    return self.fail(id, run, e);
                }
                break Next::After(Tick::ZERO);
            };
            let ti = ins.table;
            let k = given.unwrap_or_else(|| {
                let floor = i64::try_from(ins.base + ins.next as u64 + 1).unwrap_or(i64::MAX);
                let k = self.catalog[ti].keys.take_auto(floor);
                ins.keys[ins.next] = Some(k);
                k
            });
            let there = self.catalog[ti].keys.contains(k);
            // ON DUPLICATE KEY UPDATE and REPLACE lock the duplicate exclusively.
            let exclusive =
                !there || matches!(ins.on_duplicate, OnDuplicate::Update | OnDuplicate::Replace);
            let range = RowRange::records(ti, key_pos(k), key_pos(k), exclusive);
            match self.row_lock(t, id, range) {
                RowPoll::Wait => {
                    self.set_state(id, self.work_state(&run.command));
                    break Next::Parked;
                }
                RowPoll::Failed(e) => {
                    run.insert = Some(ins);
                    return self.fail(id, run, e);
                }
                RowPoll::Granted => {
                    let trx = self.sql.trx_of(id, self.sched.now);
                    trx.rows_locked += 1;
                    if !there {
                        trx.key_undo.push((ti, KeyUndo::Inserted(k)));
                        self.catalog[ti].keys.add(k, k);
                        ins.inserted.push(k);
                    } else {
                        match ins.on_duplicate {
                            OnDuplicate::Error => {
                                let e = self.duplicate_entry(ti, k);
                                run.insert = Some(ins);
                                return self.fail(id, run, e);
                            }
                            OnDuplicate::Ignore => ins.skipped += 1,
                            OnDuplicate::Update => {
                                ins.updated += 1;
                                ins.found.push(k);
                            }
                            OnDuplicate::Replace => {
                                ins.replaced += 1;
                                ins.found.push(k);
                            }
                        }
                    }
                    ins.next += 1;
                }
            }
        };
        run.insert = Some(ins);
        next
    }

    /// ER_DUP_ENTRY for value `k` of table `ti`'s primary key, named as the profile's
    /// server names it.
    pub(in crate::sim) fn duplicate_entry(&self, ti: TableId, k: i64) -> SqlError {
        let key = if self.profile.sql.dup_key_name_has_table {
            format!("{}.PRIMARY", self.catalog[ti].table.sql_name())
        } else {
            "PRIMARY".to_owned()
        };
        SqlError::duplicate_entry(&k.to_string(), &key)
    }

    /// A failed INSERT's own rows go (the statement's rollback, `row_undo_ins()`),
    /// with the locks they took; the lock of a duplicate it checked stays.
    pub(in crate::sim) fn undo_insert_keys(&mut self, id: u32, run: &mut Running) {
        let Some(ins) = run.insert.take() else {
            return;
        };
        let ti = ins.table;
        if let Some(trx) = self.sql.sessions.get_mut(&id).and_then(|s| s.trx.as_mut()) {
            trx.key_undo.truncate(ins.undo_mark);
        }
        let mut released = false;
        for &k in ins.inserted.iter().rev() {
            self.catalog[ti].keys.remove(k, k);
            let mine = RowRange::records(ti, key_pos(k), key_pos(k), true);
            if let Some(i) = self
                .sql
                .row_locks
                .iter()
                .rposition(|l| l.owner == id && l.range == mine)
            {
                self.sql.row_locks.remove(i);
                released = true;
            }
        }
        if released {
            self.row_wake_waiters();
        }
    }

    /// A DELETE's rows as key values, removed from the table's keys: those of a
    /// search by the primary key, or of a scan with no WHERE clause, in key order up
    /// to its LIMIT. Simplification: a DELETE through another column removes rows
    /// whose values are not known, and leaves the keys as they were.
    fn delete_keys(&mut self, id: u32, ti: TableId, command: &Command) {
        let Command::Delete { access, limit, .. } = command else {
            return;
        };
        let def = &self.catalog[ti].def;
        let is_pk = |c: &str| def.pk.as_deref().is_some_and(|p| p.eq_ignore_ascii_case(c));
        let (lo, hi) = match access {
            RowAccess::Point { column, value } if is_pk(column) => (*value, *value),
            RowAccess::Range { column, min, max } if is_pk(column) => {
                (min.unwrap_or(i64::MIN), max.unwrap_or(i64::MAX))
            }
            RowAccess::FullScan => (i64::MIN, i64::MAX),
            _ => return,
        };
        let keys = &mut self.catalog[ti].keys;
        let mut removed = Vec::new();
        for (a, b) in keys.within(lo, hi, *limit) {
            removed.extend(keys.remove(a, b));
        }
        if removed.is_empty() {
            return;
        }
        let trx = self.sql.trx_of(id, self.sched.now);
        trx.key_undo.push((ti, KeyUndo::Deleted(removed)));
    }

    /// An INSERT of `n` rows: appended at the table's end, each as the workload's own
    /// insert's pages; the rows reached are the new positions.
    fn insert_pages(&mut self, ti: TableId, n: u64) -> (Reach, Vec<PageOp>) {
        let mut ops = Vec::new();
        let entry = &mut self.catalog[ti];
        let mut append = entry.append_row;
        let lo = append;
        for _ in 0..n {
            let mut one = Vec::new();
            statement_ops(
                StatementKind::Insert,
                &entry.table,
                &self.dist,
                &mut SimRng::stream(self.scenario.seed, "insert"),
                &mut append,
                &mut one,
            );
            ops.extend(one);
        }
        entry.append_row = append;
        (Reach::new(lo, append - 1, n, 0, false), ops)
    }

    /// The statement's rows are done: the message, the row counts, the transaction's
    /// bookkeeping.
    pub(in crate::sim) fn finish_dml(&mut self, id: u32, run: &mut Running) {
        let ti = run.subject.unwrap_or(run.walk.table);
        if self.catalog[ti].online_build && !matches!(run.command, Command::Select { .. }) {
            // row_log_online_op(): an index is being built; each changed row is logged,
            // an UPDATE's as the old entry's delete and the new one's insert.
            let per_row = if matches!(run.command, Command::Update { .. }) {
                2
            } else {
                1
            };
            self.catalog[ti].row_log_ops += run.rows_changed * per_row;
        }
        let n = run.rows_matched;
        let lock_bytes = run.walk.lock_bytes;
        let (wrote, lsn) = (run.walk.wrote, run.walk.last_lsn);
        run.walk.lock_bytes = 0;
        if let Some(trx) = self.sql.sessions.get_mut(&id).and_then(|s| s.trx.as_mut()) {
            trx.lock_bytes += lock_bytes;
            trx.rows_modified += run.rows_changed;
            if wrote {
                trx.wrote = true;
                trx.last_lsn = lsn;
            }
        }
        match &run.command {
            Command::Select { offset, .. } => {
                // LIMIT off, n: the first `off` rows read are not sent.
                let n = n.saturating_sub(*offset);
                let mut r = ResultSet::new(&["rows"], &["rows"]);
                r.rows.clear();
                // The rows' values are not modelled: report the count as the client's
                // footer does, with one summary row.
                r.push(vec![Some(n.to_string())]);
                run.message = format!("{n} {} in set", if n == 1 { "row" } else { "rows" });
            }
            Command::Update { .. } => {
                run.message = format!(
                    "Query OK, {n} {} affected\nRows matched: {n}  Changed: {n}  Warnings: 0",
                    if n == 1 { "row" } else { "rows" }
                );
            }
            Command::Delete { .. } => {
                self.delete_keys(id, ti, &run.command);
                self.catalog[ti].def.live_rows -= n.min(self.catalog[ti].def.live_rows);
                run.message = format!(
                    "Query OK, {n} {} affected",
                    if n == 1 { "row" } else { "rows" }
                );
            }
            Command::Insert { rows, .. } => {
                let counts = match &run.insert {
                    Some(ins) => InsertCounts {
                        rows: *rows,
                        inserted: ins.inserted.len() as u64,
                        skipped: ins.skipped,
                        updated: ins.updated,
                        replaced: ins.replaced,
                    },
                    None => InsertCounts {
                        rows: *rows,
                        inserted: n,
                        ..InsertCounts::default()
                    },
                };
                self.catalog[ti].def.live_rows += counts.inserted;
                run.message = insert_message(counts, false);
            }
            Command::InsertSelect(_) => {
                if let Some(is) = &run.insert_select {
                    run.message = insert_message(is.counts, true);
                }
            }
            _ => {}
        }
        self.rec.counters.queries += 1;
    }
}
