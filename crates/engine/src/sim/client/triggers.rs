//! Triggers at work in the workload's writes: a sysbench UPDATE, DELETE or INSERT on a
//! table with triggers for its event runs each body too, as a console statement does
//! (`session/trigger_run.rs`):
//!
//! ```text
//!   OpenTable  the table's SHARED_WRITE, then each body's table's (prelocking)
//!   BeforeDml  a console session's lock on the row's leaf, on the body's table's rows
//!              there, or on the AUTO-INC lock an insert (the body's, or the
//!              statement's own) waits for at modes 0 and 1
//!   Walk       the statement's pages, then a search of each body's table, its leaf
//!              written
//! ```
//!
//! This is what makes pt-online-schema-change's copy visible to the workload: every
//! write of the original table also writes the new one, queues behind a copy chunk's
//! AUTO-INC lock at `innodb_autoinc_lock_mode` 1, and holds the new table's metadata
//! lock until its transaction ends, which the final RENAME waits for.
//!
//! Simplification: as for its own row, a client's body write stands at the position of
//! the statement's leaf, clamped to the body table's layout, and changes no key values
//! (the workload's rows are pages and positions, not values).

use super::Client;
use crate::mdl::{MdlContextId, MdlDuration, MdlType};
use crate::sim::catalog::TableId;
use crate::sim::locks::{AutoIncLock, InsertKind, LockMode, RowPoll, RowRange};
use crate::sim::{Next, Sim};
use crate::sql::{TriggerBody, TriggerEvent};
use crate::workload::{PageOp, StatementKind};
use crate::ThreadId;

/// A table a workload write's trigger writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ClientTrigger {
    pub(super) table: TableId,
    /// The body inserts (INSERT, REPLACE): it goes through the AUTO-INC lock.
    pub(super) insert: bool,
}

/// The trigger event of a sysbench statement.
fn event_of(kind: StatementKind) -> Option<TriggerEvent> {
    match kind {
        StatementKind::UpdateIndex | StatementKind::UpdateNonIndex => Some(TriggerEvent::Update),
        StatementKind::Delete => Some(TriggerEvent::Delete),
        StatementKind::Insert | StatementKind::Reinsert => Some(TriggerEvent::Insert),
        _ => None,
    }
}

impl Sim {
    /// The tables `table`'s triggers for statement `kind` write, or `Err` when a
    /// body's table is not there (the statement fails, 1146).
    pub(super) fn client_triggers(
        &self,
        table: TableId,
        kind: StatementKind,
        out: &mut Vec<ClientTrigger>,
    ) -> Result<(), ()> {
        out.clear();
        let def = &self.catalog[table].def;
        if def.triggers.is_empty() {
            return Ok(());
        }
        let Some(event) = event_of(kind) else {
            return Ok(());
        };
        for t in def.triggers_on(event) {
            for body in t.statements(def) {
                let found = self.catalog.resolve(&self.scenario.schema, body.table());
                let Some(&target) = found.first() else {
                    // DECLARE CONTINUE HANDLER FOR 1146 skips it; else the write fails.
                    if t.continue_on_no_such_table {
                        continue;
                    }
                    return Err(());
                };
                out.push(ClientTrigger {
                    table: target,
                    insert: matches!(body, TriggerBody::Insert { .. }),
                });
            }
        }
        Ok(())
    }

    /// Prelocking: SHARED_WRITE on each body's table, after the statement's own locks
    /// (`taken` of them held). `None`: parked; `Some(Err)`: the wait failed.
    pub(super) fn client_trigger_mdl(
        &mut self,
        t: ThreadId,
        c: &mut Client,
    ) -> Option<Result<(), ()>> {
        let ctx = MdlContextId(c.session);
        while let Some(trig) = c.triggers.get(c.trigger_mdl_taken).copied() {
            let schema = &self.scenario.schema;
            let lock = self.catalog[trig.table].mdl_lock(schema, &mut self.sql.mdl);
            let ty = MdlType::SharedWrite;
            match self.mdl_acquire_lock(t, ctx, lock, ty, MdlDuration::Transaction) {
                crate::sim::locks::MdlPoll::Granted(_) => c.trigger_mdl_taken += 1,
                crate::sim::locks::MdlPoll::Wait => return None,
                crate::sim::locks::MdlPoll::Failed(_) => return Some(Err(())),
            }
            if self.catalog[trig.table].table.dropped {
                return Some(Err(()));
            }
        }
        Some(Ok(()))
    }

    /// The first console lock a write with triggers (or an insert into a table whose
    /// AUTO-INC lock a console session holds) waits for: its row's leaf, each body's
    /// table's rows there, the AUTO-INC locks of the inserts.
    fn client_first_blocked(&self, c: &Client, row: Option<RowRange>) -> Option<RowRange> {
        let kind = c.stmts[c.stmt_idx];
        let mut ranges: Vec<RowRange> = row.into_iter().collect();
        let inserts = matches!(kind, StatementKind::Insert | StatementKind::Reinsert);
        if inserts && self.autoinc_blocks_client(c.walk.table) {
            ranges.push(RowRange::auto_inc(c.walk.table));
        }
        for trig in &c.triggers {
            if let Some(r) = row {
                ranges.push(RowRange::records(trig.table, r.lo, r.hi, true));
            }
            if trig.insert && self.autoinc_blocks_client(trig.table) {
                ranges.push(RowRange::auto_inc(trig.table));
            }
        }
        ranges.into_iter().find(|r| {
            self.sql
                .row_locks
                .iter()
                .any(|l| self.sql.sessions.contains_key(&l.owner) && l.range.conflicts(r))
        })
    }

    /// `BeforeDml` for a write with triggers, or an insert while a console session
    /// holds some AUTO-INC lock: wait for the first console lock in the way.
    pub(super) fn client_trigger_waits(&mut self, t: ThreadId, c: &mut Client) -> RowPoll {
        let row = self.client_row(c);
        match self.client_first_blocked(c, row) {
            Some(range) => self.row_wait_for_console(t, c.session, range),
            None => {
                self.sql.row_waits.remove(&c.session);
                RowPoll::Granted
            }
        }
    }

    /// Whether a workload insert into `ti` must wait for a console session's AUTO-INC
    /// lock there (its own, held for a few microseconds, is not recorded): at modes 0
    /// and 1, as a simple insert falls back to the table lock while another holds it.
    pub(super) fn autoinc_blocks_client(&self, ti: TableId) -> bool {
        self.autoinc_lock_for(ti, InsertKind::Simple) != AutoIncLock::None
            && self
                .sql
                .row_locks
                .iter()
                .any(|l| l.range.table == ti && l.range.mode == LockMode::AutoInc)
    }

    /// The statement's own pages are done: the next body's page work (a search of its
    /// table at the row's position, the leaf written), or `None` when all are done.
    pub(super) fn client_next_trigger_walk(&mut self, c: &mut Client) -> Option<Next> {
        let trig = *c.triggers.get(c.trigger_walked)?;
        let pos = c.trigger_pos;
        c.trigger_walked += 1;
        let pk = self.catalog[trig.table].table.primary();
        let path: Vec<_> = pk.search_path(pos).collect();
        let last = path.len() - 1;
        c.walk.ops.clear();
        c.walk
            .ops
            .extend(path.into_iter().enumerate().map(|(i, page)| PageOp {
                page,
                write: i == last,
                create: false,
            }));
        c.walk.restart(trig.table);
        Some(Next::After(crate::time::Tick::ZERO))
    }
}
