//! Running a DDL statement's plan: each [`DdlOp`] in order, the metadata-lock phases
//! through the session's own tickets, the storage engine's executors (sim/ddl,
//! sim/alter.rs) started on threads of their own with the session's ticket, and the
//! dictionary change applied at the end.

use super::plan::DdlOp;
use super::plan::DictEffect;
use super::plan::Plan;
use super::{MdlPoll, Running, SecondaryIndex, Step};
use crate::dict::Table;
use crate::mdl::{MdlContextId, MdlDuration, MdlRequest, MdlTicketId};
use crate::resultset::ResultSet;
use crate::sim::catalog::TableId;
use crate::sim::{Next, Sim, Thread};
use crate::sql::Command;
use crate::time::Tick;
use crate::ThreadId;

impl Sim {
    pub(in crate::sim) fn step_ddl_ops(&mut self, t: ThreadId, id: u32, run: &mut Running) -> Next {
        let Some(op) = run.ddl.get(run.ddl_idx).cloned() else {
            self.ddl_finished(run);
            run.step = Step::End;
            return Next::After(Tick::ZERO);
        };
        let ctx = MdlContextId(id);
        match op {
            DdlOp::Upgrade(i, to) => {
                let ticket = run.tickets[i];
                let poll = self.mdl_upgrade(t, ctx, ticket, to);
                self.ddl_lock_step(id, run, poll)
            }
            DdlOp::Reacquire(i, to) => {
                if let Some(old) = run.tickets.get(i).copied() {
                    if self.sql.mdl.ticket(old).is_some_and(|k| k.mdl_type != to) {
                        self.mdl_release(old);
                    }
                }
                let key = run.plan[i].key.clone();
                let req = MdlRequest::new(key, to, MdlDuration::Transaction);
                let poll = self.mdl_acquire(t, ctx, req);
                if let MdlPoll::Granted(ticket) = poll {
                    run.tickets[i] = ticket;
                }
                self.ddl_lock_step(id, run, poll)
            }
            DdlOp::Downgrade(i, to) => {
                self.mdl_downgrade(run.tickets[i], to);
                run.ddl_idx += 1;
                Next::After(Tick::ZERO)
            }
            DdlOp::Work(state, cost) => {
                self.set_state(id, state);
                run.ddl_idx += 1;
                Next::After(cost)
            }
            DdlOp::DropStorage(tables) => {
                if let Some(d) = run.ddl_thread {
                    return self.ddl_thread_returned(id, run, d, false);
                }
                if tables.is_empty() {
                    run.ddl_idx += 1;
                    return Next::After(Tick::ZERO);
                }
                self.set_state(id, "checking permissions");
                let sql = self.sql.statements[run.stmt as usize].sql.clone();
                let d = self.spawn_drop(id, sql, tables, t);
                self.sql.ddl_running.push(id);
                run.ddl_thread = Some(d);
                Next::Parked
            }
            DdlOp::Executor(plan, lock) => {
                if let Some(d) = run.ddl_thread {
                    return self.ddl_thread_returned(id, run, d, true);
                }
                let mdl = (ctx, run.tickets[lock]);
                let sql = self.sql.statements[run.stmt as usize].sql.clone();
                let thread = self.executor_thread(plan, id, sql, mdl, t);
                let d = self.sched.spawn(thread);
                self.sched.schedule_thread(self.sched.now, d);
                self.sql.ddl_running.push(id);
                run.ddl_thread = Some(d);
                Next::Parked
            }
            DdlOp::Dict(effect) => {
                self.apply_dict(effect);
                run.ddl_idx += 1;
                Next::After(Tick::ZERO)
            }
            DdlOp::Trigger(change) => match self.apply_trigger_change(run, change) {
                Ok(()) => {
                    run.ddl_idx += 1;
                    Next::After(Tick::ZERO)
                }
                Err(e) => self.fail(id, run, e),
            },
        }
    }

    /// Every phase has run: the client's message, and OPTIMIZE's result rows.
    fn ddl_finished(&self, run: &mut Running) {
        if !run.message.is_empty() {
            // A note the statement left (CREATE TRIGGER IF NOT EXISTS).
            return;
        }
        run.message = if matches!(
            run.command,
            Command::AlterTable { .. } | Command::CreateIndex { .. } | Command::DropIndex { .. }
        ) {
            "Query OK, 0 rows affected\nRecords: 0  Duplicates: 0  Warnings: 0".into()
        } else {
            "Query OK, 0 rows affected".into()
        };
        if let Command::OptimizeTable { tables } = &run.command {
            let full = format!("{}.{}", self.schema(), tables[0].table);
            let mut r = ResultSet::new(&["Table", "Op", "Msg_type", "Msg_text"], &[]);
            let note = "Table does not support optimize, doing recreate + analyze instead";
            for (kind, text) in [("note", note), ("status", "OK")] {
                r.push(vec![
                    Some(full.clone()),
                    Some("optimize".into()),
                    Some(kind.into()),
                    Some(text.into()),
                ]);
            }
            run.result = Some(r);
        }
    }

    /// A phase's metadata-lock request answered: on to the next phase, park in
    /// "Waiting for table metadata lock", or fail the statement.
    fn ddl_lock_step(&mut self, id: u32, run: &mut Running, poll: MdlPoll) -> Next {
        match poll {
            MdlPoll::Granted(_) => {
                run.ddl_idx += 1;
                Next::After(Tick::ZERO)
            }
            MdlPoll::Wait => {
                self.set_state(id, "Waiting for table metadata lock");
                Next::Parked
            }
            MdlPoll::Failed(e) => self.fail(id, run, e.into()),
        }
    }

    /// The session woke while its storage-engine thread `d` runs: park again until it
    /// has exited, then go on (or, for an executor, report how its own lock wait
    /// failed).
    fn ddl_thread_returned(
        &mut self,
        id: u32,
        run: &mut Running,
        d: ThreadId,
        executor: bool,
    ) -> Next {
        if !matches!(self.sched.threads[d.0 as usize], Thread::Exited) {
            return Next::Parked;
        }
        run.ddl_thread = None;
        self.sql.ddl_running.retain(|s| *s != id);
        if executor {
            if let Some(e) = self.sql.ddl_outcomes.remove(&id) {
                return self.fail(id, run, e);
            }
        }
        run.ddl_idx += 1;
        Next::After(Tick::ZERO)
    }

    /// The storage-engine thread that carries out `plan` for session `id`'s statement
    /// `sql`, given the session's ticket `mdl` and told back through thread `t`.
    fn executor_thread(
        &self,
        plan: Plan,
        id: u32,
        sql: String,
        mdl: (MdlContextId, MdlTicketId),
        t: ThreadId,
    ) -> Thread {
        use crate::sim::alter::{IndexBuild, MetaChange, MetaDdl, Rebuild};
        use crate::sim::ddl::{Ddl, DropTarget};
        let storage = |targets: Vec<DropTarget>, truncate: bool, discard: bool| {
            let mut d = Ddl::new(id, sql.clone(), self.sched.now, targets);
            d.truncate = truncate;
            d.discard = discard;
            d.notify = Some(t);
            Thread::Ddl(Box::new(d))
        };
        match plan {
            Plan::AddIndex {
                table,
                name,
                entry_bytes,
            } => Thread::IndexBuild(Box::new(IndexBuild::new(
                id,
                table,
                name,
                entry_bytes,
                mdl,
                t,
            ))),
            Plan::Meta(change) => {
                // An instant column change upgrades the session's SU itself; RENAME and
                // CREATE ... LIKE hold their X locks already.
                let upgrade = matches!(change, MetaChange::Columns { .. });
                Thread::MetaDdl(Box::new(MetaDdl::new(
                    id,
                    change,
                    upgrade.then_some(mdl),
                    t,
                )))
            }
            Plan::Rebuild { table, add, drop } => Thread::IndexBuild(Box::new(
                IndexBuild::rebuild(id, table, Rebuild::new(add, drop), mdl, t),
            )),
            Plan::Discard(table) => storage(vec![DropTarget { table }], false, true),
            Plan::TruncatePartitions(targets) => storage(targets, true, false),
            Plan::DropPartitions(targets) => storage(targets, false, false),
            Plan::Truncate(table) => storage(vec![DropTarget { table }], true, false),
        }
    }

    pub(in crate::sim) fn apply_dict(&mut self, effect: DictEffect) {
        let now = self.sched.now;
        match effect {
            DictEffect::Create {
                name,
                def,
                rows,
                row_bytes,
            } => {
                let space = self.catalog.next_space_id();
                let secondary = def.indexes.len().min(63) as u8;
                let table = Table::new(&name, space, rows.max(1), row_bytes, secondary, 0);
                self.pool.register_space(table.space);
                self.catalog.push(table, def, rows);
                self.catalog.refresh_workload_tables();
            }
            DictEffect::Truncate(ti) => {
                self.catalog[ti].def.live_rows = 0;
                self.catalog[ti].keys = crate::sim::catalog::keys::KeySet::ids(0);
                self.catalog[ti].def.rebuilt_at = now;
            }
            DictEffect::AddIndex(ti, name, column) => {
                let ix = SecondaryIndex::new(name, column, now);
                self.catalog[ti].def.indexes.push(ix)
            }
            DictEffect::DropIndex(ti, name) => {
                self.catalog[ti].def.indexes.retain(|ix| !ix.is(&name))
            }
            DictEffect::AddColumn(ti, name) => {
                // A rebuild's new column (the instant executor adds its own).
                if self.catalog[ti].table.column(&name).is_none() {
                    self.catalog[ti].table.columns.push(crate::dict::Column {
                        name: name.clone(),
                        bytes: 4,
                    });
                }
                self.catalog[ti].def.columns.push(name)
            }
            DictEffect::DropColumn(ti, name) => {
                self.catalog[ti]
                    .table
                    .columns
                    .retain(|c| !c.name.eq_ignore_ascii_case(&name));
                self.catalog[ti]
                    .def
                    .columns
                    .retain(|c| !c.eq_ignore_ascii_case(&name))
            }
            DictEffect::Rebuild(ti) => self.catalog[ti].def.rebuilt_at = now,
            DictEffect::DropPartitions(ti, names) => {
                // Every partition's table carries the table's partition list.
                let table = self.catalog[ti].table.sql_name().to_owned();
                for i in self.catalog.ids() {
                    if !self.catalog[i]
                        .table
                        .sql_name()
                        .eq_ignore_ascii_case(&table)
                    {
                        continue;
                    }
                    let dropped = self.catalog[i].table.dropped;
                    let partitioned = self.catalog[i].table.partition.is_some();
                    let def = &mut self.catalog[i].def;
                    let before = def.partitions.len() as u64;
                    def.partitions
                        .retain(|p| !names.iter().any(|n| n.eq_ignore_ascii_case(p)));
                    let after = def.partitions.len() as u64;
                    def.live_rows = if dropped {
                        0
                    } else if partitioned {
                        def.live_rows
                    } else {
                        def.live_rows * after / before.max(1)
                    };
                }
            }
            DictEffect::Discard(ti) => self.catalog[ti].def.discarded = true,
            DictEffect::Import(ti) => {
                // Simplification: the imported file is taken as it is; no page is read.
                self.catalog[ti].def.discarded = false;
                self.catalog[ti].table.discarded = false;
            }
            DictEffect::None => {}
        }
    }

    /// Spawns DROP TABLE's storage-engine thread (sim/ddl) for `tables`; `notify`
    /// is woken when it is done.
    pub(in crate::sim) fn spawn_drop(
        &mut self,
        session: u32,
        sql: String,
        tables: Vec<TableId>,
        notify: ThreadId,
    ) -> ThreadId {
        let targets = tables
            .into_iter()
            .map(|table| crate::sim::ddl::DropTarget { table })
            .collect();
        let mut d = crate::sim::ddl::Ddl::new(session, sql, self.sched.now, targets);
        d.notify = Some(notify);
        let id = self.sched.spawn(Thread::Ddl(Box::new(d)));
        self.sched.schedule_thread(self.sched.now, id);
        id
    }
}
