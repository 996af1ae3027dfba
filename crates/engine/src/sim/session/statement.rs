//! A console statement's state machine, as `mysql_execute_command()` runs it: take
//! the next statement, implicit commit and the checks that need no lock, the lock
//! plan's metadata locks in order, open the tables, then the work (DML, DDL phases,
//! SLEEP, the rest at once), and the end: the result goes back and the statement's
//! locks are released.
//!
//! ```text
//!   Next ─▶ Start ─▶ Mdl ─▶ Open ─┬─ RowLock ─▶ Walk ─▶ RowWork ─┐
//!                                 ├─ Ddl (sim/session/ddl_phases.rs) ─┤
//!                                 ├─ Sleep ───────────────────────────┤
//!                                 └───────────────────────────────────┴─▶ Commit ─▶ End
//! ```

use super::dml::dml_kind;
use super::lock_plan::{lock_plan, LockContext};
use super::locked_tables::reads_only;
use super::show::project;
use super::vars::fmt_secs_ms;
use super::{MdlPoll, RowPoll, Running, SessionThread, StatementOutcome, Step, STATEMENT_OVERHEAD};
use crate::events::EventKind;
use crate::mdl::{MdlContextId, MdlRequest};
use crate::resultset::ResultSet;
use crate::rng::SimRng;
use crate::sim::catalog::TableId;
use crate::sim::client::{PageWalk, WalkNext};
use crate::sim::{Next, Sim};
use crate::sql::codes;
use crate::sql::{Command, FlushMode, KillKind, RowLock, SqlError, TableLockMode, TableName};
use crate::time::Tick;
use crate::ThreadId;

/// Whether a lock plan opens tables (the "Opening tables" stage of `open_tables()`).
pub(in crate::sim) fn opens_tables(plan: &[MdlRequest]) -> bool {
    plan.iter()
        .any(|r| r.key.namespace() == crate::mdl::MdlNamespace::Table)
}

impl Sim {
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `Sim::step_thread_until_it_waits`
    pub(in crate::sim) fn step_session(&mut self, t: ThreadId, th: &mut SessionThread) -> Next {
        let id = th.id;
        self.session_cpu_done(id);
        if th.run.is_none() {
            let Some(s) = self.sql.sessions.get_mut(&id) else {
                return Next::Exit;
            };
            let Some(stmt) = s.queue.pop_front() else {
                s.idle = true;
                s.since = self.sched.now;
                return Next::Parked;
            };
            s.running = Some(stmt);
            s.since = self.sched.now;
            s.killed = None;
            let command = self.sql.stmt_commands[stmt as usize]
                .take()
                .expect("each statement runs once");
            self.sql.statements[stmt as usize].started_at = Some(self.sched.now);
            let sql = self.sql.statements[stmt as usize].sql.clone();
            let client = s_client(&self.sql.sessions, id);
            self.emit(EventKind::StatementStarted {
                session: client,
                sql,
            });
            th.run = Some(Box::new(Running {
                stmt,
                command,
                step: Step::Start,
                plan: Vec::new(),
                tickets: Vec::new(),
                savepoint: self.sql.mdl.tickets_of(MdlContextId(id)),
                opened: false,
                walk: PageWalk::new(),
                walks: Vec::new(),
                subject: None,
                row_range: None,
                insert: None,
                insert_select: None,
                trigger_writes: Vec::new(),
                undo_mark: 0,
                rows_scanned: 0,
                rows_matched: 0,
                rows_changed: 0,
                rows_inserted: 0,
                insert_cpu: Tick::ZERO,
                ddl: Vec::new(),
                ddl_idx: 0,
                ddl_thread: None,
                message: String::new(),
                result: None,
                error: None,
                autocommit_trx: false,
                work_until: None,
                cpu_left: Tick::ZERO,
            }));
            self.set_state(id, "starting");
            return self.session_cpu(t, id, self.statement_cpu());
        }
        let mut run = th.run.take().expect("checked");
        let next = self.step_statement(t, id, &mut run, &mut th.rng);
        if run.step == Step::Next {
            self.set_state(id, "");
            if let Some(s) = self.sql.sessions.get_mut(&id) {
                s.running = None;
                s.since = self.sched.now;
                if s.gone {
                    return Next::Exit;
                }
            }
            return Next::After(Tick::ZERO);
        }
        th.run = Some(run);
        next
    }

    /// Ends the statement with `e`, and a deadlock or a killed connection rolls the
    /// whole transaction back. A statement that failed to lock or open its tables
    /// lets go of what it took (`open_tables()` rolls back to its MDL savepoint); one
    /// that failed once its table was open (a duplicate key, a row lock wait timeout,
    /// KILL QUERY, 1412) keeps its table's metadata lock until the transaction ends,
    /// as only the statement is rolled back (MariaDB 10.11.19: a failed INSERT's
    /// SHARED_WRITE in an open transaction holds off LOCK TABLES ... READ).
    pub(in crate::sim) fn fail(&mut self, id: u32, run: &mut Running, e: SqlError) -> Next {
        let ctx = MdlContextId(id);
        self.undo_insert_keys(id, run);
        if run.opened {
            self.undo_statement_keys(id, run.undo_mark);
        }
        self.autoinc_release(id);
        if e.code == codes::ER_LOCK_DEADLOCK || e.code == codes::CR_SERVER_LOST {
            self.rollback_trx(id);
        }
        if !run.opened {
            self.mdl_rollback_to(ctx, &run.savepoint);
        }
        if run.autocommit_trx {
            self.rollback_trx(id);
        }
        if let Some(s) = self.sql.sessions.get(&id) {
            let t = s.thread;
            self.sql.row_waits.remove(&id);
            let _ = t;
        }
        match admin_error_rows(&run.command, &self.schema(), &e) {
            Some(rows) => run.result = Some(rows),
            None => run.error = Some(e),
        }
        run.step = Step::End;
        Next::After(Tick::ZERO)
    }

    /// One step of a console statement, in the server's order: `mysql_execute_command()`
    /// takes its metadata locks, opens the tables, takes its row locks, walks its pages,
    /// does the rows' work, and ends.
    pub(in crate::sim) fn step_statement(
        &mut self,
        t: ThreadId,
        id: u32,
        run: &mut Running,
        rng: &mut SimRng,
    ) -> Next {
        // A kill is acted on between steps, never in the middle of the page walk, whose
        // steps may hold or be queued for a buffer-pool mutex.
        if run.step != Step::End && run.step != Step::Walk {
            if let Some(e) = self.pending_kill(id) {
                return self.fail(id, run, e);
            }
        }
        match run.step {
            Step::Next => Next::After(Tick::ZERO),
            Step::Start => self.statement_start(id, run),
            Step::Mdl => self.step_statement_mdl(t, id, run),
            Step::Open => match self.statement_open(id, run) {
                Ok(next) => next,
                Err(e) => self.fail(id, run, e),
            },
            Step::RowLock if run.insert.is_some() => self.step_insert_keys(t, id, run),
            Step::RowLock if run.insert_select.is_some() => self.step_insert_select(t, id, run),
            Step::RowLock => self.step_statement_row_lock(t, id, run),
            Step::Triggers => self.step_trigger_writes(t, id, run),
            Step::Walk => self.step_statement_walk(t, id, run, rng),
            Step::RowWork => self.step_statement_row_work(t, id, run),
            Step::Ddl => self.step_ddl_ops(t, id, run),
            Step::Sleep | Step::Commit => {
                run.step = Step::End;
                Next::After(Tick::ZERO)
            }
            Step::End => self.statement_end(t, id, run),
        }
    }

    /// The error a KILL of this session asks for, with its waits cancelled
    /// (`THD::killed`, read between steps).
    fn pending_kill(&mut self, id: u32) -> Option<SqlError> {
        let kind = self.sql.sessions.get(&id).and_then(|s| s.killed)?;
        self.mdl_cancel_wait(MdlContextId(id));
        self.sql.mdl_outcomes.remove(&id);
        self.sql.row_waits.remove(&id);
        Some(match kind {
            KillKind::Query => SqlError::query_interrupted(),
            KillKind::Connection => SqlError::lost_connection(),
        })
    }

    /// `Mdl`: the plan's metadata locks, one at a time (`open_tables()` ->
    /// `MDL_context::acquire_lock()`), parked while one waits.
    fn step_statement_mdl(&mut self, t: ThreadId, id: u32, run: &mut Running) -> Next {
        while run.tickets.len() < run.plan.len() {
            let req = run.plan[run.tickets.len()].clone();
            let waiting_state = req.key.wait_state_name();
            match self.mdl_acquire(t, MdlContextId(id), req) {
                MdlPoll::Granted(ticket) => run.tickets.push(ticket),
                MdlPoll::Wait => {
                    self.set_state(id, waiting_state);
                    return Next::Parked;
                }
                MdlPoll::Failed(e) => return self.fail(id, run, e.into()),
            }
        }
        if opens_tables(&run.plan) {
            self.set_state(id, "Opening tables");
        }
        run.step = Step::Open;
        Next::After(Tick::ZERO)
    }

    /// `RowLock`: the statement's row range (`lock_rec_lock()`), parked while it waits.
    fn step_statement_row_lock(&mut self, t: ThreadId, id: u32, run: &mut Running) -> Next {
        let range = run.row_range.expect("set with the step");
        match self.row_lock(t, id, range) {
            RowPoll::Granted => {
                let locked = run.rows_matched.max(1);
                if let Some(trx) = self.sql.sessions.get_mut(&id).and_then(|s| s.trx.as_mut()) {
                    trx.rows_locked += locked;
                }
                self.set_state(id, self.work_state(&run.command));
                run.step = if run.trigger_writes.is_empty() {
                    Step::Walk
                } else {
                    Step::Triggers
                };
                Next::After(Tick::ZERO)
            }
            RowPoll::Wait => {
                self.set_state(id, self.work_state(&run.command));
                Next::Parked
            }
            RowPoll::Failed(e) => self.fail(id, run, e),
        }
    }

    /// `Walk`: the statement's page accesses through the buffer pool, one step each.
    fn step_statement_walk(
        &mut self,
        t: ThreadId,
        id: u32,
        run: &mut Running,
        rng: &mut SimRng,
    ) -> Next {
        if run.walk.ops.is_empty() {
            return self.next_walk(run);
        }
        match self.step_page_walk(t, &mut run.walk, rng) {
            WalkNext::Step(next) => next,
            WalkNext::Done if run.walk.lock_table_full => {
                self.rec.counters.errors += 1;
                self.fail(id, run, SqlError::lock_table_full())
            }
            WalkNext::Done => self.next_walk(run),
        }
    }

    /// The walk is done: the next table's pages (an INSERT ... SELECT's target, a
    /// trigger's table), or the rows' work.
    fn next_walk(&mut self, run: &mut Running) -> Next {
        if run.walks.is_empty() {
            run.step = Step::RowWork;
        } else {
            let (table, ops) = run.walks.remove(0);
            run.walk.ops = ops;
            run.walk.restart(table);
        }
        Next::After(Tick::ZERO)
    }

    /// `RowWork`: the rows' CPU work, charged after the pages; a KILL wakes the session
    /// early and ends it in [`Sim::step_statement`]. With `server.cpus` > 0 the work
    /// runs on a core, in bursts from the run queue (`session/cpu.rs`), after the
    /// rows' sleeps.
    fn step_statement_row_work(&mut self, t: ThreadId, id: u32, run: &mut Running) -> Next {
        match run.work_until {
            None => {
                let c = &self.profile.costs;
                let per_row_read = match run.command {
                    Command::Select {
                        lock: RowLock::NonLocking,
                        ..
                    } => c.consistent_read_ns_per_row,
                    _ => c.row_search_ns_per_row,
                };
                let updated = run.rows_changed.saturating_sub(run.rows_inserted);
                let cpu = Tick(per_row_read).times(run.rows_scanned)
                    + Tick(c.row_update_ns_per_row).times(updated)
                    + run.insert_cpu;
                let mut cost = Tick::ZERO;
                if self.cpu.limited() {
                    run.cpu_left = cpu;
                } else {
                    cost = cpu;
                }
                if let Command::Select {
                    sleep_ms_per_row: sleep @ 1..,
                    ..
                } = run.command
                {
                    // Item_func_sleep::val_int() once per row sent.
                    self.set_state(id, "User sleep");
                    cost += Tick::from_ms(sleep).times(run.rows_matched);
                }
                run.work_until = Some(self.sched.now + cost);
                Next::After(cost)
            }
            Some(until) if self.sched.now < until => Next::After(until - self.sched.now),
            Some(_) if run.cpu_left > Tick::ZERO => {
                let slice = run.cpu_left.min(super::cpu::SESSION_CPU_SLICE);
                run.cpu_left = run.cpu_left.saturating_sub(slice);
                self.session_cpu(t, id, slice)
            }
            Some(_) => {
                self.finish_dml(id, run);
                run.step = Step::End;
                Next::After(Tick::ZERO)
            }
        }
    }

    /// The processlist state while a statement does its work.
    pub(in crate::sim) fn work_state(&self, c: &Command) -> &'static str {
        match c {
            Command::Update { .. } | Command::Delete { .. } => "updating",
            Command::Insert { .. } => "update",
            Command::InsertSelect(_) => "Sending data",
            _ => "executing",
        }
    }

    pub(in crate::sim) fn statement_start(&mut self, id: u32, run: &mut Running) -> Next {
        if Self::implicit_commit(&run.command) {
            let has_trx = self.sql.sessions[&id].trx.is_some();
            if has_trx {
                self.commit_trx(id);
            }
            // LOCK TABLES and BEGIN also end LOCK TABLES (UNLOCK TABLES first); a DDL
            // runs within it (`locked_tables.rs`).
            if Self::unlocks_tables(&run.command) {
                let s = self.sql.sessions.get_mut(&id).expect("session");
                if !s.locked_tables.is_empty() {
                    s.locked_tables.clear();
                    self.release_explicit(id, false);
                }
            }
        }
        if let Err(e) = self.check_under_lock_tables(id, &run.command) {
            return self.fail(id, run, e);
        }
        // Checks that need no lock, and the lock plan.
        let schema = self.schema();
        let session = &self.sql.sessions[&id];
        let ctx = LockContext {
            schema: &schema,
            under_lock_tables: !session.locked_tables.is_empty(),
            global_read_lock: session.global_read_lock,
            trx_wrote: session.trx.as_ref().is_some_and(|t| t.wrote),
        };
        let plan = match lock_plan(&run.command, &ctx, &self.profile.sql) {
            Ok(plan) => plan,
            Err(e) => return self.fail(id, run, e),
        };
        if plan.force_dml_deadlock_weight {
            self.sql
                .mdl
                .set_force_dml_deadlock_weight(MdlContextId(id), true);
        }
        run.plan = plan.requests;
        run.step = Step::Mdl;
        if opens_tables(&run.plan) {
            self.set_state(id, "Opening tables");
        }
        Next::After(Tick::ZERO)
    }

    pub(in crate::sim) fn statement_open(
        &mut self,
        id: u32,
        run: &mut Running,
    ) -> Result<Next, SqlError> {
        let command = run.command.clone();
        if let Some((name, _)) = dml_kind(&command) {
            let ti = self.open_dml_table(id, &command, name)?;
            if self.prelock_trigger_tables(id, run, ti)? {
                run.step = Step::Mdl;
                return Ok(Next::After(Tick::ZERO));
            }
            run.undo_mark = self.key_undo_mark(id);
            run.opened = true;
            return self.open_dml(id, run, ti);
        }
        match command {
            Command::InsertSelect(is) => return self.open_insert_select(id, run, &is),
            Command::CreateTrigger(_) | Command::DropTrigger { .. } => {
                return self.open_trigger_ddl(id, run);
            }
            Command::ShowTriggers { like } => {
                run.result = Some(self.show_triggers(like.as_deref()));
            }
            Command::Begin {
                consistent_snapshot,
            } => {
                self.begin(id, consistent_snapshot);
                run.message = "Query OK, 0 rows affected".into();
            }
            Command::Commit => {
                if let Some(next) = self.commit_statement(id, run) {
                    return Ok(next);
                }
            }
            Command::Rollback => {
                self.rollback_trx(id);
                run.message = "Query OK, 0 rows affected".into();
            }
            Command::SetVariable { scope, name, value } => {
                self.set_variable(id, scope, &name, &value)?;
                run.message = "Query OK, 0 rows affected".into();
            }
            Command::Use { schema: db } => {
                self.use_schema(id, db)?;
                run.message = "Database changed".into();
            }
            Command::SelectSleep { duration_ms } => {
                self.set_state(id, "User sleep");
                let mut r = ResultSet::new(&["SLEEP"], &["SLEEP"]);
                r.columns[0] = format!("SLEEP({})", fmt_secs_ms(duration_ms));
                r.push(vec![Some("0".into())]);
                run.result = Some(r);
                run.step = Step::Sleep;
                return Ok(Next::After(Tick::from_ms(duration_ms)));
            }
            Command::SelectExpressions { items, aliases } => {
                let mut r = self.select_expressions(id, &items)?;
                for (column, alias) in r.columns.iter_mut().zip(aliases) {
                    if let Some(alias) = alias {
                        *column = alias;
                    }
                }
                run.result = Some(r);
            }
            Command::SelectSystemTable {
                schema: s,
                table,
                columns,
                where_text,
            } => {
                let full = self.system_table(&s, &table, id)?;
                run.result = Some(project(full, &columns, where_text.as_deref())?);
            }
            other => return self.open_admin(id, run, other),
        }
        run.step = Step::End;
        Ok(Next::After(Tick::ZERO))
    }

    /// [`Self::statement_open`] for what operators send: SHOW, KILL, LOCK/UNLOCK
    /// TABLES, FLUSH TABLES, ANALYZE TABLE and DDL.
    fn open_admin(
        &mut self,
        id: u32,
        run: &mut Running,
        command: Command,
    ) -> Result<Next, SqlError> {
        match command {
            Command::ShowProcesslist { full } => {
                run.result = Some(self.processlist(id, full));
            }
            Command::ShowEngineInnodbStatus => {
                run.result = Some(self.innodb_status());
            }
            Command::ShowVariables { scope, like } => {
                run.result = Some(self.show_variables(id, scope, like.as_deref()));
            }
            Command::ShowStatus { like, .. } => {
                run.result = Some(self.show_status(like.as_deref()));
            }
            Command::ShowTables => run.result = Some(self.show_tables()),
            Command::ShowCreateTable { table } => {
                run.result = Some(self.show_create_table(&table)?);
            }
            Command::Kill { kind, id: target } => {
                self.kill(target, kind)?;
                run.message = "Query OK, 0 rows affected".into();
            }
            Command::LockTables { tables } => {
                self.lock_tables(id, &tables)?;
                run.message = "Query OK, 0 rows affected".into();
            }
            Command::UnlockTables => {
                self.unlock_tables(id);
                run.message = "Query OK, 0 rows affected".into();
            }
            Command::FlushTables { mode, .. } => {
                if mode == FlushMode::WithReadLock {
                    self.sql
                        .sessions
                        .get_mut(&id)
                        .expect("session")
                        .global_read_lock = true;
                }
                run.message = "Query OK, 0 rows affected".into();
            }
            Command::AnalyzeTable { tables } => {
                let (result, cost) = self.analyze_tables(&tables);
                run.result = Some(result);
                self.set_state(id, "executing");
                run.step = Step::Sleep;
                return Ok(Next::After(cost));
            }
            c if c.is_ddl() => {
                run.ddl = self.ddl_plan(&c, run)?;
                run.step = Step::Ddl;
                return Ok(Next::After(Tick::ZERO));
            }
            other => return Err(SqlError::not_modelled(other.name())),
        }
        run.step = Step::End;
        Ok(Next::After(Tick::ZERO))
    }

    /// The table a DML statement names, checked against LOCK TABLES (1100, 1099) and
    /// looked up (1146).
    fn open_dml_table(
        &self,
        id: u32,
        command: &Command,
        name: &TableName,
    ) -> Result<TableId, SqlError> {
        self.check_locked_tables(id, name, !reads_only(command))?;
        self.resolve(name).first().copied().ok_or_else(|| {
            SqlError::no_such_table(
                name.schema.as_deref().unwrap_or(&self.scenario.schema),
                &name.table,
            )
        })
    }

    /// BEGIN / START TRANSACTION [WITH CONSISTENT SNAPSHOT]: the read view now, for a
    /// consistent snapshot.
    fn begin(&mut self, id: u32, consistent_snapshot: bool) {
        let now = self.sched.now;
        let trx = self.sql.trx_of(id, self.sched.now);
        trx.explicit = true;
        if consistent_snapshot {
            trx.read_view = Some(now);
        }
    }

    /// USE db: the scenario's schema and the server's own are known; others are 1049.
    fn use_schema(&mut self, id: u32, db: String) -> Result<(), SqlError> {
        let known = db.eq_ignore_ascii_case(&self.scenario.schema)
            || ["information_schema", "performance_schema", "mysql", "sys"]
                .iter()
                .any(|d| d.eq_ignore_ascii_case(&db));
        if !known {
            return Err(SqlError::unknown_database(&db));
        }
        self.sql.sessions.get_mut(&id).expect("session").db = Some(db);
        Ok(())
    }

    /// UNLOCK TABLES: LOCK TABLES' locks go, and FLUSH TABLES WITH READ LOCK's.
    fn unlock_tables(&mut self, id: u32) {
        let s = self.sql.sessions.get_mut(&id).expect("session");
        let grl = s.global_read_lock;
        s.locked_tables.clear();
        s.global_read_lock = false;
        self.release_explicit(id, false);
        if grl {
            self.release_explicit(id, true);
        }
    }

    /// COMMIT: the transaction commits; a writer then waits for its redo flush
    /// (`Step::Commit`), which this returns the wait for.
    fn commit_statement(&mut self, id: u32, run: &mut Running) -> Option<Next> {
        let wrote = self.sql.sessions[&id].trx.as_ref().is_some_and(|t| t.wrote);
        let lsn = self.sql.sessions[&id]
            .trx
            .as_ref()
            .map_or(crate::bufpool::Lsn(0), |t| t.last_lsn);
        self.commit_trx(id);
        // The COMMIT IX lock, if taken, is held only for the commit itself.
        for ticket in run.tickets.drain(..) {
            self.mdl_release(ticket);
        }
        run.message = "Query OK, 0 rows affected".into();
        if !wrote {
            return None;
        }
        self.set_state(id, "waiting for handler commit");
        let fsync = self.device.fsync_latency();
        let done = self.log.commit_done_at(self.sched.now, lsn, fsync);
        run.step = Step::Commit;
        Some(Next::After(done - self.sched.now))
    }

    /// LOCK TABLES, its metadata locks granted: the session now holds these tables.
    fn lock_tables(
        &mut self,
        id: u32,
        tables: &[(TableName, TableLockMode)],
    ) -> Result<(), SqlError> {
        let schema = self.schema();
        let mut locked = Vec::new();
        for (name, mode) in tables {
            let Some(ti) = self.resolve(name).first().copied() else {
                return Err(SqlError::no_such_table(
                    name.schema.as_deref().unwrap_or(&schema),
                    &name.table,
                ));
            };
            locked.push((ti, *mode == TableLockMode::Write));
        }
        // The GLOBAL IX of LOCK TABLES WRITE is held with the table locks.
        self.sql
            .sessions
            .get_mut(&id)
            .expect("session")
            .locked_tables = locked;
        Ok(())
    }

    /// ANALYZE TABLE: the result rows, and the time `dict_stats_update()` takes to
    /// sample `innodb_stats_persistent_sample_pages` (20) leaf pages per index.
    fn analyze_tables(&self, tables: &[TableName]) -> (ResultSet, Tick) {
        let schema = self.schema();
        let mut r = ResultSet::new(&["Table", "Op", "Msg_type", "Msg_text"], &[]);
        let mut cost = Tick::ZERO;
        let row = |full: &str, kind: &str, text: &str| {
            vec![
                Some(full.to_owned()),
                Some("analyze".into()),
                Some(kind.into()),
                Some(text.into()),
            ]
        };
        for name in tables {
            let full = format!("{schema}.{}", name.table);
            match self.resolve(name).first().copied() {
                Some(ti) => {
                    cost += Tick(self.profile.costs.page_get_ns)
                        .times(20 * self.catalog[ti].table.indexes.len() as u64)
                        + Tick(self.profile.costs.drop_dict_ns);
                    r.push(row(&full, "status", "OK"));
                }
                None => {
                    r.push(row(
                        &full,
                        "Error",
                        &format!("Table '{full}' doesn't exist"),
                    ));
                    r.push(row(&full, "status", "Operation failed"));
                }
            }
        }
        (r, cost)
    }

    pub(in crate::sim) fn statement_end(
        &mut self,
        _t: ThreadId,
        id: u32,
        run: &mut Running,
    ) -> Next {
        let ctx = MdlContextId(id);
        self.mdl_release_statement(ctx);
        // The AUTO-INC lock is held to the statement's end, not the transaction's.
        self.autoinc_release(id);
        // DDL and the admin statements commit when they end (`trans_commit_implicit()`),
        // releasing their transactional locks.
        if let Command::RenameTable { renames } = &run.command {
            let locked = !self.sql.sessions[&id].locked_tables.is_empty();
            if locked && run.error.is_none() {
                self.keep_renamed_tables_locked(id, renames);
            }
        }
        if run.command.is_ddl() || matches!(run.command, Command::AnalyzeTable { .. }) {
            self.mdl_release_transactional(ctx);
        }
        if run.command.is_ddl() && run.error.is_none() {
            self.forget_dropped_locked_tables(id);
        }
        // An autocommit transaction ends with its statement.
        if run.error.is_none() && run.autocommit_trx {
            let (wrote, lsn) = self.sql.sessions[&id]
                .trx
                .as_ref()
                .map_or((false, crate::bufpool::Lsn(0)), |t| (t.wrote, t.last_lsn));
            if wrote && run.step == Step::End && !run.message.is_empty() {
                // trx_commit() → log_write_up_to(flush): wait for the redo flush once.
                run.autocommit_trx = false;
                self.set_state(id, "waiting for handler commit");
                let fsync = self.device.fsync_latency();
                let done = self.log.commit_done_at(self.sched.now, lsn, fsync);
                self.commit_trx(id);
                return Next::After(done - self.sched.now);
            }
            self.commit_trx(id);
            run.autocommit_trx = false;
        }
        let rec = &mut self.sql.statements[run.stmt as usize];
        rec.finished_at = Some(self.sched.now);
        let elapsed = self.sched.now - rec.started_at.unwrap_or(rec.issued_at);
        let (outcome, error) = match run.error.take() {
            Some(e) => (
                StatementOutcome::Error {
                    code: e.code,
                    sqlstate: e.sqlstate,
                    message: e.message.clone(),
                },
                true,
            ),
            None => {
                let mut result = run.result.take();
                if let Command::Select { .. } = run.command {
                    result = None;
                }
                (
                    StatementOutcome::Ok {
                        message: if run.message.is_empty() {
                            "Query OK, 0 rows affected".into()
                        } else {
                            run.message.clone()
                        },
                        result,
                    },
                    false,
                )
            }
        };
        rec.outcome = Some(outcome);
        let started = rec.started_at.unwrap_or(rec.issued_at);
        let result = rec.client_output().unwrap_or_default();
        let sql = rec.sql.clone();
        if run.command.is_ddl() && !error {
            self.binlog_ddl(started, replica_cost(&run.command, elapsed));
        }
        self.emit(EventKind::StatementFinished {
            session: s_client(&self.sql.sessions, id),
            sql,
            elapsed,
            result,
            error,
        });
        if let Some(s) = self.sql.sessions.get_mut(&id) {
            // A program's connection: the program reads the result.
            if let Some(w) = s.watcher {
                self.sched.wake_early(w);
            }
            if s.killed == Some(KillKind::Connection) {
                self.disconnect(id);
            }
        }
        run.step = Step::Next;
        Next::After(Tick::ZERO)
    }
}

/// What a DDL that took `elapsed` on the source costs a replica's applier: the
/// statements that copy, build or drop data as long (waits included: a
/// simplification), the others about nothing.
fn replica_cost(c: &Command, elapsed: Tick) -> Tick {
    match c {
        Command::AlterTable { .. }
        | Command::CreateIndex { .. }
        | Command::DropIndex { .. }
        | Command::OptimizeTable { .. }
        | Command::TruncateTable { .. }
        | Command::DropTable { .. } => elapsed,
        _ => STATEMENT_OVERHEAD,
    }
}

/// The client (console tab, script session) connection `id` belongs to: events and
/// statement records name it, so a reconnect stays in its tab.
fn s_client(sessions: &std::collections::BTreeMap<u32, super::Session>, id: u32) -> u32 {
    sessions.get(&id).map_or(id, |s| s.client)
}

/// `mysql_admin_table()` (OPTIMIZE and ANALYZE TABLE) reports a failed open of its
/// table as rows of its result, not as an error: `Error` with the message, then
/// `status` "Operation failed" (a lock wait timeout, a KILL QUERY, no such table, one
/// LOCK TABLES does not allow). `None` for any other statement or error.
fn admin_error_rows(c: &Command, schema: &str, e: &SqlError) -> Option<ResultSet> {
    let (tables, op) = match c {
        Command::OptimizeTable { tables } => (tables, "optimize"),
        Command::AnalyzeTable { tables } => (tables, "analyze"),
        _ => return None,
    };
    let per_table = [
        codes::ER_LOCK_WAIT_TIMEOUT,
        codes::ER_QUERY_INTERRUPTED,
        codes::ER_NO_SUCH_TABLE,
        codes::ER_TABLE_NOT_LOCKED,
        codes::ER_TABLE_NOT_LOCKED_FOR_WRITE,
    ];
    if !per_table.contains(&e.code) {
        return None;
    }
    let full = format!("{schema}.{}", tables.first()?.table);
    let mut r = ResultSet::new(&["Table", "Op", "Msg_type", "Msg_text"], &[]);
    for (kind, text) in [
        ("Error", e.message.as_str()),
        ("status", "Operation failed"),
    ] {
        r.push(vec![
            Some(full.clone()),
            Some(op.into()),
            Some(kind.into()),
            Some(text.into()),
        ]);
    }
    Some(r)
}
