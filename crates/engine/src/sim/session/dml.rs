//! DML of console sessions: SELECT, INSERT, UPDATE and DELETE set up as the row locks
//! they take and the pages they walk through the buffer pool (with the workload's own
//! `PageWalk`), then finished with their per-row work counted.
//!
//! Simplification: statements act on row counts and pages, never on values.

use super::{RowRange, Running, Step};
use crate::resultset::ResultSet;
use crate::rng::SimRng;
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

impl Sim {
    /// Sets up a DML statement's row locks and page walk.
    pub(in crate::sim) fn open_dml(
        &mut self,
        id: u32,
        run: &mut Running,
        ti: usize,
    ) -> Result<Next, SqlError> {
        let def = self.catalog[ti].def.clone();
        let table_rows = self.catalog[ti].table.rows.max(1);
        let live = def.live_rows;
        if def.discarded {
            return Err(SqlError::tablespace_discarded(&self.catalog[ti].table.name));
        }
        // Start (or join) the transaction.
        let autocommit = self.sql.sessions[&id].vars.autocommit;
        let had_trx = self.sql.sessions[&id].trx.is_some();
        let trx = self.txn(id);
        if !had_trx {
            trx.explicit = !autocommit;
            run.autocommit_trx = autocommit;
        }
        let (access, limit, lock, kind) = match &run.command {
            Command::Select {
                access,
                lock,
                limit,
                ..
            } => (access.clone(), *limit, *lock, 0),
            Command::Update { access, limit, .. } => {
                (access.clone(), *limit, RowLock::Exclusive, 1)
            }
            Command::Delete { access, limit, .. } => {
                (access.clone(), *limit, RowLock::Exclusive, 2)
            }
            Command::Insert { rows, .. } => (
                RowAccess::Point {
                    column: String::new(),
                    value: 0,
                },
                Some(*rows),
                RowLock::Exclusive,
                3,
            ),
            _ => unreachable!("dml_kind"),
        };
        if kind == 0 && lock == RowLock::NonLocking {
            // A consistent read: the read view is created now if the transaction has
            // none, and a view older than the table's clustered index cannot read it
            // (row_search_mvcc(): !index->is_usable(trx) → DB_MISSING_HISTORY).
            let now = self.sched.now;
            let trx = self.txn(id);
            let view = *trx.read_view.get_or_insert(now);
            if view < def.rebuilt_at {
                return Err(SqlError::table_def_changed());
            }
        }
        // Which rows the search reaches: positions lo..=hi, and how many match.
        let column_of = |c: &str| {
            if def.pk.as_deref().is_some_and(|p| p.eq_ignore_ascii_case(c)) {
                1
            } else if def
                .indexes
                .iter()
                .any(|(_, col)| col.eq_ignore_ascii_case(c))
            {
                2
            } else if def.columns.iter().any(|col| col.eq_ignore_ascii_case(c)) {
                3
            } else {
                0
            }
        };
        let place = "where clause";
        let (mut lo, mut hi, mut matched, mut scanned, full) = match &access {
            _ if kind == 3 => (0, 0, 0, 0, false),
            RowAccess::Point { column, value } => match column_of(column) {
                0 => return Err(SqlError::unknown_column_in(column, place)),
                1 | 2 => {
                    let v = *value;
                    if v >= 1 && (v as u64) <= live.max(table_rows) {
                        let p = (v - 1) as u64;
                        (p, p, 1, 1, false)
                    } else {
                        let p = (v.max(1) as u64 - 1).min(table_rows - 1);
                        (p, p, 0, 0, false)
                    }
                }
                _ => (0, u64::MAX, 1.min(live), live, true),
            },
            RowAccess::Range { column, min, max } => match column_of(column) {
                0 => return Err(SqlError::unknown_column_in(column, place)),
                1 | 2 => {
                    let a = min.unwrap_or(1).max(1) as u64;
                    let b = max.map_or(table_rows, |m| m.max(0) as u64).min(table_rows);
                    if a > b {
                        let p = (a - 1).min(table_rows - 1);
                        (p, p, 0, 0, false)
                    } else {
                        (a - 1, b - 1, b - a + 1, b - a + 1, false)
                    }
                }
                _ => {
                    let n = match (min, max) {
                        (Some(a), Some(b)) if b >= a => ((b - a + 1) as u64).min(live),
                        _ => live,
                    };
                    (0, u64::MAX, n, live, true)
                }
            },
            RowAccess::FullScan => (0, u64::MAX, live, live, true),
        };
        if let Some(l) = limit {
            if kind != 3 {
                matched = matched.min(l);
                if full {
                    scanned = scanned.min(l.max(1));
                    hi = if l == 0 { 0 } else { l - 1 };
                } else {
                    hi = hi.min(lo + l.max(1) - 1);
                }
            }
        }
        // The pages: a descent of the clustered index, then the leaves in the range.
        let table = &self.catalog[ti].table;
        let pk = table.primary();
        let mut ops: Vec<PageOp> = Vec::new();
        let write_leaves = kind == 1 || kind == 2;
        if kind == 3 {
            let n = limit.unwrap_or(1);
            let mut append = self.catalog[ti].append_row;
            lo = append;
            for _ in 0..n {
                let mut one = Vec::new();
                statement_ops(
                    StatementKind::Insert,
                    table,
                    &self.dist,
                    &mut SimRng::stream(self.scenario.seed, "insert"),
                    &mut append,
                    &mut one,
                );
                ops.extend(one);
            }
            hi = append - 1;
            self.catalog[ti].append_row = append;
            matched = n;
            scanned = 0;
        } else {
            let last_pos = table_rows - 1;
            let first = lo.min(last_pos);
            let last = hi.min(last_pos);
            let mut path = Vec::new();
            pk.search_path(first, &mut path);
            let leaf_first = pk.leaf_of(first);
            let leaf_last = pk.leaf_of(last);
            let n = path.len();
            for (i, p) in path.into_iter().enumerate() {
                ops.push(PageOp {
                    page: p,
                    write: write_leaves && i + 1 == n && matched > 0,
                    create: false,
                });
            }
            for p in leaf_first + 1..=leaf_last {
                ops.push(PageOp {
                    page: p,
                    write: write_leaves && matched > 0,
                    create: false,
                });
            }
        }
        run.walk.ops = ops;
        run.walk.restart(ti);
        run.rows_scanned = scanned;
        run.rows_matched = matched;
        run.rows_changed = if kind == 0 { 0 } else { matched };
        let locking = kind != 0 || lock != RowLock::NonLocking;
        if locking && (matched > 0 || full || kind == 3) {
            run.row_range = Some(RowRange {
                table: ti,
                lo,
                hi,
                exclusive: lock == RowLock::Exclusive,
            });
            run.step = Step::RowLock;
        } else {
            self.set_state(id, self.work_state(&run.command));
            run.step = Step::Walk;
        }
        Ok(Next::After(Tick::ZERO))
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
