//! DML of console sessions: SELECT, INSERT, UPDATE and DELETE set up as the row locks
//! they take and the pages they walk through the buffer pool (with the workload's own
//! `PageWalk`), then finished with their per-row work counted.
//!
//! Simplification: statements act on row counts and pages, never on values.

use super::{RowRange, Running, Step, TableDef};
use crate::dict::Table;
use crate::resultset::ResultSet;
use crate::rng::SimRng;
use crate::sim::catalog::TableId;
use crate::sim::{Next, Sim};
use crate::sql::{Command, RowAccess, RowLock, SqlError, TableName};
use crate::time::Tick;
use crate::workload::{statement_ops, PageOp, StatementKind};

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

/// LIMIT `l` cuts the rows reached.
fn apply_limit(r: &mut Reach, l: u64) {
    r.matched = r.matched.min(l);
    if r.full {
        r.scanned = r.scanned.min(l.max(1));
        r.hi = if l == 0 { 0 } else { l - 1 };
    } else {
        r.hi = r.hi.min(r.lo + l.max(1) - 1);
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
    let mut path = Vec::new();
    pk.search_path(first, &mut path);
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
    /// Sets up a DML statement's row locks and page walk.
    pub(in crate::sim) fn open_dml(
        &mut self,
        id: u32,
        run: &mut Running,
        ti: TableId,
    ) -> Result<Next, SqlError> {
        let def = self.catalog[ti].def.clone();
        let table_rows = self.catalog[ti].table.rows.max(1);
        if def.discarded {
            return Err(SqlError::tablespace_discarded(&self.catalog[ti].table.name));
        }
        if let Command::Select { index_hints, .. } = &run.command {
            if let Some(key) = def.unknown_hinted_index(index_hints) {
                let table = self.catalog[ti].table.sql_name();
                return Err(SqlError::key_does_not_exist(key, table));
            }
        }
        // Start (or join) the transaction.
        let autocommit = self.sql.sessions[&id].vars.autocommit;
        let had_trx = self.sql.sessions[&id].trx.is_some();
        let trx = self.sql.trx_of(id, self.sched.now);
        if !had_trx {
            trx.explicit = !autocommit;
            run.autocommit_trx = autocommit;
        }
        let req = DmlRequest::of(&run.command);
        if req.kind == DmlKind::Select && req.lock == RowLock::NonLocking {
            // A consistent read: the read view is created now if the transaction has
            // none, and a view older than the table's clustered index cannot read it
            // (row_search_mvcc(): !index->is_usable(trx) → DB_MISSING_HISTORY).
            let now = self.sched.now;
            let trx = self.sql.trx_of(id, self.sched.now);
            let view = *trx.read_view.get_or_insert(now);
            if view < def.rebuilt_at {
                return Err(SqlError::table_def_changed());
            }
            // The same for a secondary index built after the view (FORCE INDEX).
            if let Command::Select { index_hints, .. } = &run.command {
                if def
                    .index_read(&req.access, index_hints)
                    .is_some_and(|ix| view < ix.built_at)
                {
                    return Err(SqlError::table_def_changed());
                }
            }
        }
        // The rows reached, their pages, and the last row position the search locks.
        let (reach, ops, lock_hi) = if req.kind == DmlKind::Insert {
            let (reach, ops) = self.insert_pages(ti, req.limit.unwrap_or(1));
            let hi = reach.hi;
            (reach, ops, hi)
        } else {
            let mut reach = rows_reached(&def, &req.access, table_rows, def.live_rows)?;
            let range_end = reach.hi;
            if let Some(l) = req.limit {
                apply_limit(&mut reach, l);
            }
            let lock_hi = if reach.hi < range_end {
                // The LIMIT stopped the scan before the range's end: nothing past the
                // last row read is locked.
                reach.hi
            } else {
                let unique_stops = !self.profile.mechanisms.unique_range_locks_next_record;
                locked_hi(&def, &req.access, &reach, table_rows, unique_stops)
            };
            let write = matches!(req.kind, DmlKind::Update | DmlKind::Delete);
            let ops = search_pages(&self.catalog[ti].table, &reach, table_rows, write);
            (reach, ops, lock_hi)
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
        let locking = req.kind != DmlKind::Select || req.lock != RowLock::NonLocking;
        if locking && (reach.matched > 0 || reach.full || req.kind == DmlKind::Insert) {
            run.row_range = Some(RowRange {
                table: ti,
                lo: reach.lo,
                hi: lock_hi,
                exclusive: req.lock == RowLock::Exclusive,
            });
            run.step = Step::RowLock;
        } else {
            self.set_state(id, self.work_state(&run.command));
            run.step = Step::Walk;
        }
        Ok(Next::After(Tick::ZERO))
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
        let ti = run.walk.table;
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
            Command::Select { .. } => {
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
                self.catalog[ti].def.live_rows -= n.min(self.catalog[ti].def.live_rows);
                run.message = format!(
                    "Query OK, {n} {} affected",
                    if n == 1 { "row" } else { "rows" }
                );
            }
            Command::Insert { .. } => {
                self.catalog[ti].def.live_rows += n;
                run.message = if n == 1 {
                    "Query OK, 1 row affected".into()
                } else {
                    format!("Query OK, {n} rows affected\nRecords: {n}  Duplicates: 0  Warnings: 0")
                };
            }
            _ => {}
        }
        self.rec.counters.queries += 1;
    }
}
