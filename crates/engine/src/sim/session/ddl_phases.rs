//! Running a DDL statement's plan: each [`DdlOp`] in order, the metadata-lock phases
//! through the session's own tickets, the storage engine's executors (sim/ddl,
//! sim/alter.rs) started on threads of their own with the session's ticket, and the
//! dictionary change applied at the end.

use super::plan::DdlOp;
use super::plan::DictEffect;
use super::plan::Plan;
use super::{MdlPoll, Running, Step};
use crate::dict::Table;
use crate::mdl::{MdlContextId, MdlDuration, MdlRequest};
use crate::resultset::ResultSet;
use crate::sim::{Next, Sim, Thread};
use crate::sql::Command;
use crate::time::Tick;
use crate::ThreadId;

impl Sim {
    pub(in crate::sim) fn step_ddl_ops(&mut self, t: ThreadId, id: u32, run: &mut Running) -> Next {
        let Some(op) = run.ddl.get(run.ddl_idx).cloned() else {
            run.message = if matches!(
                run.command,
                Command::AlterTable { .. }
                    | Command::CreateIndex { .. }
                    | Command::DropIndex { .. }
            ) {
                "Query OK, 0 rows affected\nRecords: 0  Duplicates: 0  Warnings: 0".into()
            } else {
                "Query OK, 0 rows affected".into()
            };
            if matches!(run.command, Command::OptimizeTable { .. }) {
                let schema = self.schema();
                let mut r = ResultSet::new(&["Table", "Op", "Msg_type", "Msg_text"], &[]);
                if let Command::OptimizeTable { tables } = &run.command {
                    let full = format!("{schema}.{}", tables[0].table);
                    r.push(vec![
                        Some(full.clone()),
                        Some("optimize".into()),
                        Some("note".into()),
                        Some(
                            "Table does not support optimize, doing recreate + analyze instead"
                                .into(),
                        ),
                    ]);
                    r.push(vec![
                        Some(full),
                        Some("optimize".into()),
                        Some("status".into()),
                        Some("OK".into()),
                    ]);
                }
                run.result = Some(r);
            }
            run.step = Step::End;
            return Next::After(Tick::ZERO);
        };
        let ctx = MdlContextId(id);
        match op {
            DdlOp::Upgrade(i, to) => {
                let ticket = run.tickets[i];
                match self.mdl_upgrade(t, ctx, ticket, to) {
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
            DdlOp::Reacquire(i, to) => {
                if let Some(old) = run.tickets.get(i).copied() {
                    if self.sql.mdl.ticket(old).is_some_and(|k| k.mdl_type != to) {
                        self.mdl_release(old);
                    }
                }
                let key = run.plan[i].key.clone();
                let req = MdlRequest::new(key, to, MdlDuration::Transaction);
                match self.mdl_acquire(t, ctx, req) {
                    MdlPoll::Granted(ticket) => {
                        run.tickets[i] = ticket;
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
                    if !matches!(self.sched.threads[d.0 as usize], Thread::Exited) {
                        return Next::Parked;
                    }
                    self.sql.ddl_running.retain(|s| *s != id);
                    run.ddl_thread = None;
                    run.ddl_idx += 1;
                    return Next::After(Tick::ZERO);
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
                    if !matches!(self.sched.threads[d.0 as usize], Thread::Exited) {
                        return Next::Parked;
                    }
                    run.ddl_thread = None;
                    self.sql.ddl_running.retain(|s| *s != id);
                    if let Some(e) = self.sql.ddl_outcomes.remove(&id) {
                        return self.fail(id, run, e);
                    }
                    run.ddl_idx += 1;
                    return Next::After(Tick::ZERO);
                }
                let mdl = (ctx, run.tickets[lock]);
                let thread = match plan {
                    Plan::AddIndex {
                        table,
                        name,
                        entry_bytes,
                    } => Thread::IndexBuild(Box::new(crate::sim::alter::IndexBuild::new(
                        id,
                        table,
                        name,
                        entry_bytes,
                        mdl,
                        t,
                    ))),
                    Plan::Meta(change) => {
                        // An instant column change upgrades the session's SU itself;
                        // RENAME and CREATE ... LIKE hold their X locks already.
                        let upgrade =
                            matches!(change, crate::sim::alter::MetaChange::Columns { .. });
                        Thread::MetaDdl(Box::new(crate::sim::alter::MetaDdl::new(
                            id,
                            change,
                            upgrade.then_some(mdl),
                            t,
                        )))
                    }
                    Plan::Rebuild { table, add, drop } => {
                        Thread::IndexBuild(Box::new(crate::sim::alter::IndexBuild::rebuild(
                            id,
                            table,
                            crate::sim::alter::Rebuild::new(add, drop),
                            mdl,
                            t,
                        )))
                    }
                    Plan::Discard(table) => {
                        let sql = self.sql.statements[run.stmt as usize].sql.clone();
                        let mut d = crate::sim::ddl::Ddl::new(
                            id,
                            sql,
                            self.sched.now,
                            vec![crate::sim::ddl::DropTarget { table }],
                        );
                        d.discard = true;
                        d.notify = Some(t);
                        Thread::Ddl(Box::new(d))
                    }
                    Plan::TruncatePartitions(targets) => {
                        let sql = self.sql.statements[run.stmt as usize].sql.clone();
                        let mut d = crate::sim::ddl::Ddl::new(id, sql, self.sched.now, targets);
                        d.truncate = true;
                        d.notify = Some(t);
                        Thread::Ddl(Box::new(d))
                    }
                    Plan::DropPartitions(targets) => {
                        let sql = self.sql.statements[run.stmt as usize].sql.clone();
                        let mut d = crate::sim::ddl::Ddl::new(id, sql, self.sched.now, targets);
                        d.notify = Some(t);
                        Thread::Ddl(Box::new(d))
                    }
                    Plan::Truncate(table) => {
                        let sql = self.sql.statements[run.stmt as usize].sql.clone();
                        let mut d = crate::sim::ddl::Ddl::new(
                            id,
                            sql,
                            self.sched.now,
                            vec![crate::sim::ddl::DropTarget { table }],
                        );
                        d.truncate = true;
                        d.notify = Some(t);
                        Thread::Ddl(Box::new(d))
                    }
                };
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
                self.pool.register_space(table.space, table.pages);
                self.catalog.push(table, def, rows);
                self.catalog.refresh_workload_tables();
            }
            DictEffect::Truncate(ti) => {
                self.catalog[ti].def.live_rows = 0;
                self.catalog[ti].def.rebuilt_at = now;
            }
            DictEffect::AddIndex(ti, name, column) => {
                self.catalog[ti].def.indexes.push((name, column))
            }
            DictEffect::DropIndex(ti, name) => self.catalog[ti]
                .def
                .indexes
                .retain(|(n, _)| !n.eq_ignore_ascii_case(&name)),
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

    /// Spawns DROP TABLE's storage-engine thread (sim/ddl.rs) for `tables`; `notify`
    /// is woken when it is done.
    pub(in crate::sim) fn spawn_drop(
        &mut self,
        session: u32,
        sql: String,
        tables: Vec<usize>,
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
