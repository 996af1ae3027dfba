//! Transactions (`trx_t`): started on a statement's first need or by BEGIN, committed
//! with a redo flush if they wrote, rolled back; and the implicit commit that DDL,
//! LOCK TABLES and BEGIN perform first (`trans_commit_implicit()`), which also
//! releases the explicit metadata locks.

use crate::mdl::{MdlContextId, MdlDuration, MdlType};
use crate::sim::catalog::TableId;
use crate::sim::Sim;
use crate::sql::Command;

impl Sim {
    /// Commits the session's transaction (`trans_commit()`): row locks and
    /// transactional metadata locks go. The redo flush was charged by the caller.
    pub(in crate::sim) fn commit_trx(&mut self, id: u32) {
        let session = self.sql.sessions.get_mut(&id);
        // A tool's connections (pt-osc's copy, gh-ost's applier) are not the
        // workload: the throughput the charts and the advisor read is what the
        // application's clients get, as sysbench counts it.
        let program = session.as_ref().is_some_and(|s| s.watcher.is_some());
        if let Some(trx) = session.and_then(|s| s.trx.take()) {
            self.lock_heap_bytes -= trx.lock_bytes;
            if trx.wrote {
                if !program {
                    self.rec.counters.transactions += 1;
                }
                // Its row events, as the binary log gets them at commit: the rows on
                // the first table it changed keys of, from the first such key.
                let first = trx.key_undo.first().map(|(t, _)| *t);
                let on_first = first.map_or(0, |t| {
                    trx.key_undo.iter().filter(|(u, _)| *u == t).count() as u64
                });
                let table = first.unwrap_or(TableId(0));
                self.binlog_rows(trx.started, trx.rows_modified, (table, on_first, 0));
            }
        }
        self.row_release(id);
        self.mdl_release_transactional(MdlContextId(id));
    }

    /// Rolls the transaction back (`trans_rollback()`): its key changes are undone,
    /// newest first (`trx_rollback_to_savepoint()` → `row_undo_ins()`, `row_undo_mod()`).
    /// Simplification: the undo is applied at no cost.
    pub(in crate::sim) fn rollback_trx(&mut self, id: u32) {
        if let Some(trx) = self.sql.sessions.get_mut(&id).and_then(|s| s.trx.take()) {
            self.lock_heap_bytes -= trx.lock_bytes;
            for (ti, u) in trx.key_undo.iter().rev() {
                self.catalog[*ti].keys.undo(u);
            }
        }
        self.row_release(id);
        self.mdl_release_transactional(MdlContextId(id));
    }

    /// Whether the statement commits the open transaction before it runs
    /// (`stmt_causes_implicit_commit()`).
    pub(in crate::sim) fn implicit_commit(c: &Command) -> bool {
        c.is_ddl()
            || matches!(
                c,
                Command::LockTables { .. }
                    | Command::Begin { .. }
                    | Command::AnalyzeTable { .. }
                    | Command::FlushTables { .. }
            )
    }

    /// Releases `LOCK TABLES` (and, with `grl`, the global read lock).
    pub(in crate::sim) fn release_explicit(&mut self, id: u32, grl: bool) {
        let ctx = MdlContextId(id);
        for ticket in self.sql.mdl.tickets_of(ctx) {
            let Some(k) = self.sql.mdl.ticket(ticket) else {
                continue;
            };
            if k.duration != MdlDuration::Explicit {
                continue;
            }
            let is_grl = matches!(
                self.sql.mdl.key(k.lock).namespace(),
                crate::mdl::MdlNamespace::Global | crate::mdl::MdlNamespace::Commit
            ) && k.mdl_type == MdlType::Shared;
            if is_grl == grl || !grl {
                if is_grl && !grl {
                    continue;
                }
                self.mdl_release(ticket);
            }
        }
        self.sql.mdl.set_force_dml_deadlock_weight(ctx, false);
    }
}
