//! Console sessions: connections that run the statements people type, one at a time,
//! with transactions, metadata locks, row locks and a processlist state, as a server
//! thread running `do_command()` → `dispatch_command()` → `mysql_execute_command()`.
//!
//! ```text
//!  submit(session, "BEGIN; UPDATE t SET k=1")      (parsed first: a syntax error runs nothing)
//!        │ statements queue on the session; its thread runs them in order
//!        ▼
//!  Start ── implicit commit (DDL, LOCK TABLES, BEGIN) ── checks that need no lock
//!    │
//!  Mdl   ── the statement's metadata locks, in order (open_tables()/lock_table_names());
//!    │       a conflict parks the thread: "Waiting for table metadata lock"
//!  Open  ── the table exists? (1146/1051 after the lock, as the server finds out)
//!    │
//!    ├─ DML:  RowLock (lock wait, innodb_lock_wait_timeout) ─ Walk (pages through the
//!    │        buffer pool, client.rs's PageWalk) ─ RowWork (per-row CPU)
//!    ├─ DDL:  the SQL layer's phases (MDL upgrades/downgrades) around the storage
//!    │        engine's (sim/ddl.rs): see `DdlOp`
//!    └─ the rest: SET, SHOW, SELECT from performance_schema, KILL, ...: at once
//!    │
//!  End   ── statement locks released; autocommit commits (redo flush, row and
//!            transactional locks released); a failed statement releases what it took
//! ```
//!
//! Each statement's record ([`StatementRecord`]) keeps when it was issued, started
//! and finished, every processlist state it went through and its outcome (the
//! `mysql` client's message or a result set), for the console, the CLI and the
//! session-script runner.
//!
//! Simplification: statements act on row counts and pages, never on values: an
//! `UPDATE` reports every matched row as changed, a `SELECT` reports how many rows it
//! returns but not their contents, and a search on the secondary column `k` finds one
//! row per value (sysbench loads `k` uniformly), placed as if `k` were the id.

use super::client::{PageWalk, WalkNext};
use super::locks::{MdlPoll, RowPoll, RowRange};
use super::{Next, Sim, Thread};
use crate::dict::Table;
use crate::events::EventKind;
use crate::mdl::{MdlContextId, MdlDuration, MdlError, MdlKey, MdlRequest, MdlTicketId, MdlType};
use crate::resultset::{secs, ResultSet};
use crate::rng::SimRng;
use crate::sql::{
    Algorithm, AlterAction, Command, FlushMode, KillKind, RowAccess, RowLock, SetValue, SqlError,
    TableLockMode, TableName, VarScope,
};
use crate::time::Tick;
use crate::workload::{statement_ops, PageOp, StatementKind};
use crate::ThreadId;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};

/// Statement parse, privilege check and the like: the time a trivial statement takes.
const STATEMENT_OVERHEAD: Tick = Tick::from_us(50);

/// What a statement gave back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum StatementOutcome {
    /// Success: the client's message (`Query OK, 1 row affected`) and, for a query,
    /// its result set.
    Ok {
        /// What the client prints for a statement without a result set.
        message: String,
        /// The result set, if the statement returns one.
        result: Option<ResultSet>,
    },
    /// Failure.
    Error {
        /// The error number.
        code: u16,
        /// The SQLSTATE.
        sqlstate: &'static str,
        /// The message.
        message: String,
    },
}

/// One statement a session was given, and what became of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatementRecord {
    /// Its number, in submission order from 0.
    pub id: u32,
    /// The session (processlist id).
    pub session: u32,
    /// The statement text.
    pub sql: String,
    /// When it was submitted.
    pub issued_at: Tick,
    /// When the session started running it (after the session's earlier statements).
    pub started_at: Option<Tick>,
    /// When it finished; `None` while it runs or waits.
    pub finished_at: Option<Tick>,
    /// Its outcome, once finished.
    pub outcome: Option<StatementOutcome>,
    /// Every processlist state it showed, in order, without repeats in a row.
    pub states_seen: Vec<String>,
}

impl StatementRecord {
    /// What the `mysql` client prints for it: the message or the table, or the error.
    pub fn client_output(&self) -> Option<String> {
        let elapsed = self.finished_at? - self.started_at.unwrap_or(self.issued_at);
        Some(match self.outcome.as_ref()? {
            StatementOutcome::Ok {
                result: Some(r), ..
            } => r.render(elapsed),
            StatementOutcome::Ok { message, .. } => {
                // The elapsed time goes on the first line, as the client prints it.
                let mut lines = message.lines();
                let first = lines.next().unwrap_or("");
                let rest: Vec<&str> = lines.collect();
                let mut s = format!("{first} ({})", secs(elapsed));
                for l in rest {
                    s.push('\n');
                    s.push_str(l);
                }
                s
            }
            StatementOutcome::Error {
                code,
                sqlstate,
                message,
            } => format!("ERROR {code} ({sqlstate}): {message}"),
        })
    }
}

/// The SQL layer's state: connections, their statements and transactions, and the
/// locks above the storage engine (metadata locks, and console sessions' row locks).
#[derive(Clone, Debug)]
pub(super) struct SqlLayer {
    /// The metadata-lock manager (`MDL_map` and every `MDL_context`).
    pub(super) mdl: crate::mdl::MdlManager,
    /// Threads parked on a metadata-lock request, by context (processlist id).
    pub(super) mdl_waiters: BTreeMap<u32, ThreadId>,
    /// How finished waits ended, until the woken thread reads it.
    pub(super) mdl_outcomes: BTreeMap<u32, Result<MdlTicketId, MdlError>>,
    /// Granted row locks of console sessions' transactions.
    pub(super) row_locks: Vec<super::locks::RowLock>,
    /// Console sessions waiting for a row lock.
    pub(super) row_waits: BTreeMap<u32, super::locks::RowWait>,
    /// Console sessions by processlist id.
    pub(super) sessions: BTreeMap<u32, Session>,
    /// Every statement given to a console session.
    pub(super) statements: Vec<StatementRecord>,
    /// Each statement's command until its session runs it.
    pub(super) stmt_commands: Vec<Option<Command>>,
    pub(super) next_session_id: u32,
    pub(super) next_trx_id: u64,
    /// `SET GLOBAL` values new sessions start with.
    pub(super) global_vars: SessionVars,
    /// Sessions whose DDL is in a storage-engine phase on a thread of its own.
    pub(super) ddl_running: Vec<u32>,
    /// How a DDL executor's metadata-lock wait failed, for its session to report.
    pub(super) ddl_outcomes: BTreeMap<u32, SqlError>,
    /// The session `Sim::execute` and the scenario's script lines run in.
    pub(super) console_session: u32,
    /// Every statement given to `Sim::execute`, with its time.
    pub(super) commands: Vec<(Tick, String)>,
}

impl SqlLayer {
    /// No sessions yet; ids start after the workload's `workload_threads`, and new
    /// sessions take the profile's timeouts.
    pub(super) fn new(workload_threads: u32, profile: &crate::profile::Profile) -> SqlLayer {
        SqlLayer {
            mdl: crate::mdl::MdlManager::new(),
            mdl_waiters: BTreeMap::new(),
            mdl_outcomes: BTreeMap::new(),
            row_locks: Vec::new(),
            row_waits: BTreeMap::new(),
            sessions: BTreeMap::new(),
            statements: Vec::new(),
            stmt_commands: Vec::new(),
            next_session_id: workload_threads + 1,
            next_trx_id: 0,
            global_vars: SessionVars {
                autocommit: true,
                lock_wait_timeout_s: profile.sql.lock_wait_timeout_s,
                innodb_lock_wait_timeout_s: profile.sql.innodb_lock_wait_timeout_s,
            },
            ddl_running: Vec::new(),
            ddl_outcomes: BTreeMap::new(),
            console_session: workload_threads + 1,
            commands: Vec::new(),
        }
    }
}

/// A session's variables (`SET [SESSION]`); `SET GLOBAL` changes the defaults new
/// sessions start with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct SessionVars {
    pub(super) autocommit: bool,
    pub(super) lock_wait_timeout_s: u64,
    pub(super) innodb_lock_wait_timeout_s: u64,
}

/// An InnoDB transaction (`trx_t`) as this model keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Trx {
    pub(super) id: u64,
    pub(super) started: Tick,
    /// Opened by BEGIN / START TRANSACTION (or autocommit=0), not by one statement.
    pub(super) explicit: bool,
    /// When its read view was created (`trx->read_view`): at WITH CONSISTENT SNAPSHOT
    /// or its first consistent read.
    pub(super) read_view: Option<Tick>,
    pub(super) rows_modified: u64,
    pub(super) rows_locked: u64,
    pub(super) lock_bytes: u64,
    pub(super) wrote: bool,
    pub(super) last_lsn: crate::bufpool::Lsn,
}

/// A connection.
#[derive(Clone, Debug)]
pub(super) struct Session {
    pub(super) id: u32,
    pub(super) user: &'static str,
    pub(super) db: Option<String>,
    pub(super) thread: ThreadId,
    /// Statements waiting their turn (ids into `Sim::statements`).
    pub(super) queue: VecDeque<u32>,
    /// The statement running.
    pub(super) running: Option<u32>,
    pub(super) state: &'static str,
    /// When the current command (or the idle time) began: the processlist's Time.
    pub(super) since: Tick,
    /// The thread is parked with nothing to do.
    pub(super) idle: bool,
    pub(super) vars: SessionVars,
    pub(super) trx: Option<Trx>,
    /// Tables held by `LOCK TABLES` (index, write).
    pub(super) locked_tables: Vec<(usize, bool)>,
    /// `FLUSH TABLES WITH READ LOCK` is held.
    pub(super) global_read_lock: bool,
    /// `KILL QUERY` / `KILL` arrived for the running statement.
    pub(super) killed: Option<KillKind>,
    /// The connection was killed.
    pub(super) gone: bool,
}

/// The SQL layer's definition of a table (`dd::Table`): what DDL checks against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TableDef {
    pub(super) columns: Vec<String>,
    /// The primary key's first column, if any.
    pub(super) pk: Option<String>,
    /// Secondary indexes: name and first column.
    pub(super) indexes: Vec<(String, String)>,
    /// Range partitions, in order (empty: not partitioned).
    pub(super) partitions: Vec<String>,
    /// Rows in the table now.
    pub(super) live_rows: u64,
    /// When the clustered index was (re)built: a read view older than this cannot
    /// read it (`dict_index_t::trx_id` against the view, 1412).
    pub(super) rebuilt_at: Tick,
    /// `DISCARD TABLESPACE` removed its data.
    pub(super) discarded: bool,
}

impl TableDef {
    /// sysbench's `sbtest` shape: id, k, c, pad, KEY k_1 (k) (and more `k_n` on k).
    pub(super) fn sysbench(rows: u64, secondary: u8, partitions: u32) -> TableDef {
        TableDef {
            columns: ["id", "k", "c", "pad"].map(String::from).to_vec(),
            pk: Some("id".into()),
            indexes: (1..=secondary)
                .map(|i| (format!("k_{i}"), "k".to_owned()))
                .collect(),
            partitions: (0..partitions).map(|p| format!("p{p}")).collect(),
            live_rows: rows,
            rebuilt_at: Tick::ZERO,
            discarded: false,
        }
    }
}

/// A console session's thread.
#[derive(Clone, Debug)]
pub(super) struct SessionThread {
    id: u32,
    rng: SimRng,
    run: Option<Box<Running>>,
}

impl SessionThread {
    pub(super) fn new(id: u32, rng: SimRng) -> SessionThread {
        SessionThread { id, rng, run: None }
    }
}

/// Where a statement is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Take the next statement off the queue.
    Next,
    /// `mysql_execute_command()`: implicit commit, checks, the lock plan.
    Start,
    /// `open_tables()` / `lock_table_names()`: the plan's metadata locks, in order.
    Mdl,
    /// The tables are locked: look them up, set the work up.
    Open,
    /// `lock_rec_lock()`: the statement's row locks.
    RowLock,
    /// The pages, through the buffer pool.
    Walk,
    /// Per-row work (`row_search_mvcc()`, `row_upd()`), charged after the pages.
    RowWork,
    /// The DDL's phases.
    Ddl,
    /// `SELECT SLEEP(n)`.
    Sleep,
    /// `trx_commit()`: the redo flush of a transaction that wrote.
    Commit,
    /// The result goes back; locks of the statement (and of an autocommit transaction)
    /// are released.
    End,
}

/// One SQL-layer phase of a DDL statement.
#[derive(Clone, Debug, PartialEq, Eq)]
enum DdlOp {
    /// Upgrade the statement's lock on table `lock` (index into `Running::tickets`).
    Upgrade(usize, MdlType),
    /// Release it and ask again for another type (OPTIMIZE: the admin open's lock goes
    /// with `release_transactional_locks()`, then the recreate asks for SU).
    Reacquire(usize, MdlType),
    /// Downgrade it.
    Downgrade(usize, MdlType),
    /// The storage engine works for this long, in this processlist state.
    Work(&'static str, Tick),
    /// DROP TABLE's storage-engine path (sim/ddl.rs), on a thread of its own.
    DropStorage(Vec<usize>),
    /// A storage-engine executor (sim/alter.rs) on a thread of its own, given the
    /// session's context and its ticket on the table (index into `Running::tickets`)
    /// to upgrade and downgrade between its phases.
    Executor(super::Plan, usize),
    /// The dictionary changes.
    Dict(DictEffect),
}

/// What a DDL statement changes in the dictionary.
#[derive(Clone, Debug, PartialEq, Eq)]
enum DictEffect {
    Create {
        name: String,
        def: TableDef,
        rows: u64,
        row_bytes: u64,
    },
    Truncate(usize),
    AddIndex(usize, String, String),
    DropIndex(usize, String),
    AddColumn(usize, String),
    DropColumn(usize, String),
    Rebuild(usize),
    DropPartitions(usize, Vec<String>),
    Discard(usize),
    Import(usize),
    None,
}

/// A statement being run.
#[derive(Clone, Debug)]
struct Running {
    stmt: u32,
    command: Command,
    step: Step,
    /// Metadata locks to take, in order, and the tickets got.
    plan: Vec<MdlRequest>,
    tickets: Vec<MdlTicketId>,
    /// The session's tickets when the statement started (`MDL_savepoint`).
    savepoint: Vec<MdlTicketId>,
    walk: PageWalk,
    row_range: Option<RowRange>,
    rows_scanned: u64,
    rows_matched: u64,
    rows_changed: u64,
    ddl: Vec<DdlOp>,
    ddl_idx: usize,
    ddl_thread: Option<ThreadId>,
    /// The work is done: the message or result set to send.
    message: String,
    result: Option<ResultSet>,
    error: Option<SqlError>,
    /// This statement ran in (or opened) an autocommit transaction that ends with it.
    autocommit_trx: bool,
    /// When the per-row work ends.
    work_until: Option<Tick>,
}

/// Which kind of work a statement's pages and rows are.
fn dml_kind(c: &Command) -> Option<(&TableName, bool)> {
    match c {
        Command::Select { table, lock, .. } => Some((table, *lock == RowLock::Exclusive)),
        Command::Insert { table, .. }
        | Command::Update { table, .. }
        | Command::Delete { table, .. } => Some((table, true)),
        _ => None,
    }
}

impl Sim {
    // ---- public API ------------------------------------------------------------------

    /// Opens a console connection (`root@localhost`, default schema the scenario's)
    /// and returns its processlist id.
    pub fn connect(&mut self) -> u32 {
        let id = self.sql.next_session_id;
        self.sql.next_session_id += 1;
        let rng = SimRng::stream(self.scenario.seed, &format!("session.{id}"));
        let thread = self
            .sched
            .spawn(Thread::Session(Box::new(SessionThread::new(id, rng))));
        self.sql.sessions.insert(
            id,
            Session {
                id,
                user: "root",
                db: Some(self.scenario.schema.clone()),
                thread,
                queue: VecDeque::new(),
                running: None,
                state: "",
                since: self.sched.now,
                idle: true,
                vars: self.sql.global_vars.clone(),
                trx: None,
                locked_tables: Vec::new(),
                global_read_lock: false,
                killed: None,
                gone: false,
            },
        );
        id
    }

    /// Console sessions' processlist ids, in order.
    pub fn console_sessions(&self) -> Vec<u32> {
        self.sql.sessions.keys().copied().collect()
    }

    /// Every statement given to a console session, in submission order.
    pub fn statements(&self) -> &[StatementRecord] {
        &self.sql.statements
    }

    /// Queues `sql` (one or more `;`-separated statements) on console session
    /// `session`. The text is parsed first: a syntax error (1064) queues nothing. The
    /// statements run in order, after whatever the session is still running; their
    /// outcomes arrive in [`Sim::statements`] and as `StatementFinished` events.
    /// Returns the new statements' ids.
    pub fn submit_to(&mut self, session: u32, sql: &str) -> Result<Vec<u32>, SqlError> {
        let parsed = crate::sql::parse(sql)?;
        let Some(s) = self.sql.sessions.get(&session) else {
            return Err(SqlError::unknown_thread(u64::from(session)));
        };
        if s.gone {
            return Err(SqlError::server_gone());
        }
        let mut ids = Vec::new();
        for p in parsed {
            let id = self.sql.statements.len() as u32;
            self.sql.statements.push(StatementRecord {
                id,
                session,
                sql: p.text,
                issued_at: self.sched.now,
                started_at: None,
                finished_at: None,
                outcome: None,
                states_seen: Vec::new(),
            });
            self.sql.stmt_commands.push(Some(p.command));
            ids.push(id);
        }
        let s = self.sql.sessions.get_mut(&session).expect("checked");
        s.queue.extend(ids.iter().copied());
        if s.idle {
            s.idle = false;
            let t = s.thread;
            self.sched.schedule_thread(self.sched.now, t);
        }
        Ok(ids)
    }

    // ---- the thread ------------------------------------------------------------------

    pub(super) fn set_state(&mut self, session: u32, state: &'static str) {
        let Some(s) = self.sql.sessions.get_mut(&session) else {
            return;
        };
        if s.state == state {
            return;
        }
        s.state = state;
        if let Some(stmt) = s.running {
            let rec = &mut self.sql.statements[stmt as usize];
            if !state.is_empty() && rec.states_seen.last().map(String::as_str) != Some(state) {
                rec.states_seen.push(state.to_owned());
            }
        }
        self.emit(EventKind::SessionState {
            session,
            state: state.to_owned(),
        });
    }

    pub(super) fn step_session(&mut self, t: ThreadId, th: &mut SessionThread) -> Next {
        let id = th.id;
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
            self.emit(EventKind::StatementStarted { session: id, sql });
            th.run = Some(Box::new(Running {
                stmt,
                command,
                step: Step::Start,
                plan: Vec::new(),
                tickets: Vec::new(),
                savepoint: self.sql.mdl.tickets_of(MdlContextId(id)),
                walk: PageWalk::new(),
                row_range: None,
                rows_scanned: 0,
                rows_matched: 0,
                rows_changed: 0,
                ddl: Vec::new(),
                ddl_idx: 0,
                ddl_thread: None,
                message: String::new(),
                result: None,
                error: None,
                autocommit_trx: false,
                work_until: None,
            }));
            self.set_state(id, "starting");
            return Next::After(STATEMENT_OVERHEAD);
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

    /// Ends the statement with `e`: the statement's own locks go (the MDL savepoint),
    /// and a deadlock or a killed connection rolls the whole transaction back.
    fn fail(&mut self, id: u32, run: &mut Running, e: SqlError) -> Next {
        let ctx = MdlContextId(id);
        if e.code == 1213 || e.code == 2013 {
            self.rollback_trx(id);
        }
        self.mdl_rollback_to(ctx, &run.savepoint);
        if run.autocommit_trx {
            self.rollback_trx(id);
        }
        if let Some(s) = self.sql.sessions.get(&id) {
            let t = s.thread;
            self.sql.row_waits.remove(&id);
            let _ = t;
        }
        run.error = Some(e);
        run.step = Step::End;
        Next::After(Tick::ZERO)
    }

    fn step_statement(
        &mut self,
        t: ThreadId,
        id: u32,
        run: &mut Running,
        rng: &mut SimRng,
    ) -> Next {
        // A kill is acted on between steps, never in the middle of the page walk, whose
        // steps may hold or be queued for a buffer-pool mutex.
        if run.step != Step::End && run.step != Step::Walk {
            if let Some(kind) = self.sql.sessions.get(&id).and_then(|s| s.killed) {
                let e = match kind {
                    KillKind::Query => SqlError::query_interrupted(),
                    KillKind::Connection => SqlError::lost_connection(),
                };
                self.mdl_cancel_wait(MdlContextId(id));
                self.sql.mdl_outcomes.remove(&id);
                self.sql.row_waits.remove(&id);
                return self.fail(id, run, e);
            }
        }
        match run.step {
            Step::Next => Next::After(Tick::ZERO),
            Step::Start => self.statement_start(id, run),
            Step::Mdl => {
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
            Step::Open => match self.statement_open(id, run) {
                Ok(next) => next,
                Err(e) => self.fail(id, run, e),
            },
            Step::RowLock => {
                let range = run.row_range.expect("set with the step");
                match self.row_lock(t, id, range) {
                    RowPoll::Granted => {
                        let locked = run.rows_matched.max(1);
                        if let Some(trx) =
                            self.sql.sessions.get_mut(&id).and_then(|s| s.trx.as_mut())
                        {
                            trx.rows_locked += locked;
                        }
                        self.set_state(id, self.work_state(&run.command));
                        run.step = Step::Walk;
                        Next::After(Tick::ZERO)
                    }
                    RowPoll::Wait => {
                        self.set_state(id, self.work_state(&run.command));
                        Next::Parked
                    }
                    RowPoll::Failed(e) => self.fail(id, run, e),
                }
            }
            Step::Walk => {
                if run.walk.ops.is_empty() {
                    run.step = Step::RowWork;
                    return Next::After(Tick::ZERO);
                }
                match self.step_page_walk(t, &mut run.walk, rng) {
                    WalkNext::Step(next) => next,
                    WalkNext::Done => {
                        if run.walk.lock_table_full {
                            self.rec.counters.errors += 1;
                            return self.fail(id, run, SqlError::lock_table_full());
                        }
                        run.step = Step::RowWork;
                        Next::After(Tick::ZERO)
                    }
                }
            }
            Step::RowWork => {
                // The rows' CPU work, charged after the pages; a KILL wakes the session
                // early and ends it above.
                match run.work_until {
                    None => {
                        let c = &self.profile.costs;
                        let cost = Tick(c.row_search_ns_per_row).times(run.rows_scanned)
                            + Tick(c.row_update_ns_per_row).times(run.rows_changed);
                        run.work_until = Some(self.sched.now + cost);
                        Next::After(cost)
                    }
                    Some(until) if self.sched.now < until => Next::After(until - self.sched.now),
                    Some(_) => {
                        self.finish_dml(id, run);
                        run.step = Step::End;
                        Next::After(Tick::ZERO)
                    }
                }
            }
            Step::Ddl => self.step_ddl_ops(t, id, run),
            Step::Sleep => {
                run.step = Step::End;
                Next::After(Tick::ZERO)
            }
            Step::Commit => {
                run.step = Step::End;
                Next::After(Tick::ZERO)
            }
            Step::End => self.statement_end(t, id, run),
        }
    }

    /// The processlist state while a statement does its work.
    fn work_state(&self, c: &Command) -> &'static str {
        match c {
            Command::Update { .. } | Command::Delete { .. } => "updating",
            Command::Insert { .. } => "update",
            _ => "executing",
        }
    }

    fn schema(&self) -> String {
        self.scenario.schema.clone()
    }

    fn table_key(&self, name: &TableName) -> MdlKey {
        let db = name
            .schema
            .clone()
            .unwrap_or_else(|| self.schema())
            .to_ascii_lowercase();
        MdlKey::table(&db, &name.table.to_ascii_lowercase())
    }

    fn txn(&mut self, id: u32) -> &mut Trx {
        let now = self.sched.now;
        let next_id = &mut self.sql.next_trx_id;
        let s = self.sql.sessions.get_mut(&id).expect("session");
        s.trx.get_or_insert_with(|| {
            *next_id += 1;
            Trx {
                id: *next_id,
                started: now,
                explicit: false,
                read_view: None,
                rows_modified: 0,
                rows_locked: 0,
                lock_bytes: 0,
                wrote: false,
                last_lsn: crate::bufpool::Lsn(0),
            }
        })
    }

    /// Commits the session's transaction (`trans_commit()`): row locks and
    /// transactional metadata locks go. The redo flush was charged by the caller.
    pub(super) fn commit_trx(&mut self, id: u32) {
        if let Some(trx) = self.sql.sessions.get_mut(&id).and_then(|s| s.trx.take()) {
            self.lock_heap_bytes -= trx.lock_bytes;
            if trx.wrote {
                self.rec.counters.transactions += 1;
            }
        }
        self.row_release(id);
        self.mdl_release_transactional(MdlContextId(id));
    }

    /// Rolls the transaction back (`trans_rollback()`).
    /// Simplification: the undo is applied at no cost.
    pub(super) fn rollback_trx(&mut self, id: u32) {
        if let Some(trx) = self.sql.sessions.get_mut(&id).and_then(|s| s.trx.take()) {
            self.lock_heap_bytes -= trx.lock_bytes;
        }
        self.row_release(id);
        self.mdl_release_transactional(MdlContextId(id));
    }

    /// Whether the statement commits the open transaction before it runs
    /// (`stmt_causes_implicit_commit()`).
    fn implicit_commit(c: &Command) -> bool {
        c.is_ddl()
            || matches!(
                c,
                Command::LockTables { .. }
                    | Command::Begin { .. }
                    | Command::AnalyzeTable { .. }
                    | Command::FlushTables { .. }
            )
    }

    fn statement_start(&mut self, id: u32, run: &mut Running) -> Next {
        let ctx_key_global = MdlKey::global();
        if Self::implicit_commit(&run.command) {
            let has_trx = self.sql.sessions[&id].trx.is_some();
            if has_trx {
                self.commit_trx(id);
            }
            // LOCK TABLES and DDL also end LOCK TABLES (UNLOCK TABLES first).
            if matches!(run.command, Command::LockTables { .. }) || run.command.is_ddl() {
                let s = self.sql.sessions.get_mut(&id).expect("session");
                if !s.locked_tables.is_empty() {
                    s.locked_tables.clear();
                    self.release_explicit(id, false);
                }
            }
        }
        // Checks that need no lock, and the lock plan.
        let stmt = MdlDuration::Statement;
        let trx = MdlDuration::Transaction;
        let mut plan = Vec::new();
        let locked = !self.sql.sessions[&id].locked_tables.is_empty();
        let grl = self.sql.sessions[&id].global_read_lock;
        let schema_key = MdlKey::schema(&self.schema().to_ascii_lowercase());
        match &run.command {
            // Under LOCK TABLES the locks are already held.
            Command::Select { .. } if locked => {}
            Command::Select { table, lock, .. } => {
                let ty = if *lock == RowLock::Exclusive {
                    plan.push(MdlRequest::new(
                        ctx_key_global.clone(),
                        MdlType::IntentionExclusive,
                        stmt,
                    ));
                    MdlType::SharedWrite
                } else {
                    MdlType::SharedRead
                };
                plan.push(MdlRequest::new(self.table_key(table), ty, trx));
            }
            Command::Insert { table, .. }
            | Command::Update { table, .. }
            | Command::Delete { table, .. } => {
                if grl {
                    return self.fail(id, run, SqlError::cant_update_with_readlock());
                }
                if !locked {
                    plan.push(MdlRequest::new(
                        ctx_key_global.clone(),
                        MdlType::IntentionExclusive,
                        stmt,
                    ));
                    plan.push(MdlRequest::new(
                        self.table_key(table),
                        MdlType::SharedWrite,
                        trx,
                    ));
                }
            }
            Command::LockTables { tables } => {
                let mut keys: Vec<(MdlKey, MdlType)> = Vec::new();
                for (name, mode) in tables {
                    let ty = match mode {
                        TableLockMode::Read => MdlType::SharedReadOnly,
                        TableLockMode::Write => MdlType::SharedNoReadWrite,
                    };
                    keys.push((self.table_key(name), ty));
                }
                if keys.iter().any(|(_, t)| *t == MdlType::SharedNoReadWrite) {
                    plan.push(MdlRequest::new(
                        ctx_key_global.clone(),
                        MdlType::IntentionExclusive,
                        MdlDuration::Explicit,
                    ));
                    plan.push(MdlRequest::new(
                        schema_key.clone(),
                        MdlType::IntentionExclusive,
                        MdlDuration::Explicit,
                    ));
                }
                // lock_table_names() sorts the requests by key so every session takes
                // them in the same order.
                keys.sort_by(|a, b| a.0.cmp(&b.0));
                for (k, ty) in keys {
                    plan.push(MdlRequest::new(k, ty, MdlDuration::Explicit));
                }
                self.sql
                    .mdl
                    .set_force_dml_deadlock_weight(MdlContextId(id), true);
            }
            Command::FlushTables { mode, tables } => match mode {
                FlushMode::WithReadLock if tables.is_empty() => {
                    plan.push(MdlRequest::new(
                        ctx_key_global.clone(),
                        MdlType::Shared,
                        MdlDuration::Explicit,
                    ));
                    plan.push(MdlRequest::new(
                        MdlKey::commit(),
                        MdlType::Shared,
                        MdlDuration::Explicit,
                    ));
                }
                FlushMode::Close => {}
                _ => return self.fail(id, run, SqlError::not_modelled(run.command.name())),
            },
            Command::AnalyzeTable { tables } => {
                for name in tables {
                    plan.push(MdlRequest::new(
                        self.table_key(name),
                        MdlType::SharedRead,
                        trx,
                    ));
                }
            }
            c if c.is_ddl() => {
                if grl {
                    return self.fail(id, run, SqlError::cant_update_with_readlock());
                }
                plan.push(MdlRequest::new(
                    ctx_key_global.clone(),
                    MdlType::IntentionExclusive,
                    stmt,
                ));
                plan.push(MdlRequest::new(
                    schema_key,
                    MdlType::IntentionExclusive,
                    trx,
                ));
                let mut keys: Vec<(MdlKey, MdlType)> = Vec::new();
                match c {
                    Command::DropTable { tables, .. } => {
                        for n in tables {
                            keys.push((self.table_key(n), MdlType::Exclusive));
                        }
                    }
                    Command::RenameTable { renames } => {
                        for (a, b) in renames {
                            keys.push((self.table_key(a), MdlType::Exclusive));
                            keys.push((self.table_key(b), MdlType::Exclusive));
                        }
                    }
                    Command::TruncateTable { table } => {
                        keys.push((self.table_key(table), MdlType::Exclusive))
                    }
                    Command::CreateTable(ct) => {
                        keys.push((self.table_key(&ct.table), MdlType::Exclusive))
                    }
                    Command::CreateTableLike { table, like } => {
                        keys.push((self.table_key(table), MdlType::Exclusive));
                        keys.push((self.table_key(like), MdlType::SharedReadOnly));
                    }
                    Command::AlterTable { table, actions, .. }
                        if actions.iter().any(|a| {
                            matches!(
                                a,
                                AlterAction::TruncatePartition { .. }
                                    | AlterAction::DiscardTablespace
                                    | AlterAction::ImportTablespace
                            )
                        }) =>
                    {
                        // sql_partition_admin.cc, mysql_discard_or_import_tablespace():
                        // EXCLUSIVE up front.
                        keys.push((self.table_key(table), MdlType::Exclusive))
                    }
                    Command::CreateIndex { table, .. }
                    | Command::DropIndex { table, .. }
                    | Command::AlterTable { table, .. } => {
                        keys.push((self.table_key(table), MdlType::SharedUpgradable))
                    }
                    Command::OptimizeTable { tables } => {
                        // mysql_admin_table() opens the table for TL_WRITE first.
                        let ty = match self.profile.sql.optimize_open_lock {
                            crate::profile::AdminOpenLock::SharedNoReadWrite => {
                                MdlType::SharedNoReadWrite
                            }
                            crate::profile::AdminOpenLock::SharedNoWrite => MdlType::SharedNoWrite,
                        };
                        for n in tables {
                            keys.push((self.table_key(n), ty));
                        }
                    }
                    _ => {}
                }
                keys.sort_by(|a, b| a.0.cmp(&b.0));
                keys.dedup_by(|a, b| a.0 == b.0);
                for (k, ty) in keys {
                    plan.push(MdlRequest::new(k, ty, trx));
                }
            }
            Command::Commit if self.sql.sessions[&id].trx.as_ref().is_some_and(|t| t.wrote) => {
                // ha_commit_trans(): a committing writer takes COMMIT IX, which is what
                // FLUSH TABLES WITH READ LOCK's COMMIT S blocks ("Waiting for commit lock").
                plan.push(MdlRequest::new(
                    MdlKey::commit(),
                    MdlType::IntentionExclusive,
                    MdlDuration::Explicit,
                ));
            }
            _ => {}
        }
        run.plan = plan;
        run.step = Step::Mdl;
        if opens_tables(&run.plan) {
            self.set_state(id, "Opening tables");
        }
        Next::After(Tick::ZERO)
    }

    /// Releases `LOCK TABLES` (and, with `grl`, the global read lock).
    fn release_explicit(&mut self, id: u32, grl: bool) {
        let ctx = MdlContextId(id);
        for ticket in self.sql.mdl.tickets_of(ctx) {
            let Some(k) = self.sql.mdl.ticket(ticket) else {
                continue;
            };
            if k.duration != MdlDuration::Explicit {
                continue;
            }
            let is_grl = matches!(
                k.key.namespace(),
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

    fn check_locked_tables(&self, id: u32, name: &TableName, write: bool) -> Result<(), SqlError> {
        let s = &self.sql.sessions[&id];
        if s.locked_tables.is_empty() {
            return Ok(());
        }
        let found = self
            .resolve(name)
            .first()
            .copied()
            .and_then(|t| s.locked_tables.iter().find(|(lt, _)| *lt == t));
        match found {
            None => Err(SqlError::table_not_locked(&name.table)),
            Some((_, false)) if write => Err(SqlError::table_not_locked_for_write(&name.table)),
            _ => Ok(()),
        }
    }

    fn statement_open(&mut self, id: u32, run: &mut Running) -> Result<Next, SqlError> {
        let schema = self.schema();
        let command = run.command.clone();
        if let Some((name, _)) = dml_kind(&command) {
            let write = !matches!(command, Command::Select { .. })
                || matches!(
                    command,
                    Command::Select {
                        lock: RowLock::Exclusive,
                        ..
                    }
                );
            self.check_locked_tables(id, name, write)?;
            let Some(ti) = self.resolve(name).first().copied() else {
                return Err(SqlError::no_such_table(
                    name.schema.as_deref().unwrap_or(&schema),
                    &name.table,
                ));
            };
            return self.open_dml(id, run, ti);
        }
        match command {
            Command::Begin {
                consistent_snapshot,
            } => {
                let now = self.sched.now;
                let trx = self.txn(id);
                trx.explicit = true;
                if consistent_snapshot {
                    trx.read_view = Some(now);
                }
                run.message = "Query OK, 0 rows affected".into();
            }
            Command::Commit => {
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
                if wrote {
                    self.set_state(id, "waiting for handler commit");
                    let fsync = self.device.fsync_latency();
                    let done = self.log.commit_done_at(self.sched.now, lsn, fsync);
                    run.step = Step::Commit;
                    return Ok(Next::After(done - self.sched.now));
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
                let known = db.eq_ignore_ascii_case(&schema)
                    || ["information_schema", "performance_schema", "mysql", "sys"]
                        .iter()
                        .any(|d| d.eq_ignore_ascii_case(&db));
                if !known {
                    return Err(SqlError::unknown_database(&db));
                }
                self.sql.sessions.get_mut(&id).expect("session").db = Some(db);
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
            Command::SelectExpressions { items } => {
                run.result = Some(self.select_expressions(id, &items)?);
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
            Command::ShowTables => {
                let mut r = ResultSet::new(&[&format!("Tables_in_{schema}")], &[]);
                let mut names: Vec<&str> = self
                    .catalog
                    .tables()
                    .filter(|t| !t.dropped)
                    .map(|t| t.name.as_str())
                    .collect();
                names.sort_unstable();
                for n in names {
                    r.push(vec![Some(n.to_owned())]);
                }
                run.result = Some(r);
            }
            Command::ShowCreateTable { table } => {
                let Some(ti) = self.resolve(&table).first().copied() else {
                    return Err(SqlError::no_such_table(&schema, &table.table));
                };
                let mut r = ResultSet::new(&["Table", "Create Table"], &[]);
                r.push(vec![
                    Some(self.catalog[ti].table.sql_name().to_owned()),
                    Some(self.show_create(ti)),
                ]);
                run.result = Some(r);
            }
            Command::Kill { kind, id: target } => {
                self.kill(target, kind)?;
                run.message = "Query OK, 0 rows affected".into();
            }
            Command::LockTables { tables } => {
                let mut locked = Vec::new();
                for (name, mode) in &tables {
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
                run.message = "Query OK, 0 rows affected".into();
            }
            Command::UnlockTables => {
                let s = self.sql.sessions.get_mut(&id).expect("session");
                let grl = s.global_read_lock;
                s.locked_tables.clear();
                s.global_read_lock = false;
                self.release_explicit(id, false);
                if grl {
                    self.release_explicit(id, true);
                }
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
                let mut r = ResultSet::new(&["Table", "Op", "Msg_type", "Msg_text"], &[]);
                let mut cost = Tick::ZERO;
                for name in &tables {
                    let full = format!("{schema}.{}", name.table);
                    match self.resolve(name).first().copied() {
                        Some(ti) => {
                            // dict_stats_update(): sample innodb_stats_persistent_sample_pages
                            // (20) leaf pages per index.
                            cost += Tick(self.profile.costs.page_get_ns)
                                .times(20 * self.catalog[ti].table.indexes.len() as u64)
                                + Tick(self.profile.costs.drop_dict_ns);
                            r.push(vec![
                                Some(full),
                                Some("analyze".into()),
                                Some("status".into()),
                                Some("OK".into()),
                            ]);
                        }
                        None => {
                            r.push(vec![
                                Some(full.clone()),
                                Some("analyze".into()),
                                Some("Error".into()),
                                Some(format!("Table '{full}' doesn't exist")),
                            ]);
                            r.push(vec![
                                Some(full),
                                Some("analyze".into()),
                                Some("status".into()),
                                Some("Operation failed".into()),
                            ]);
                        }
                    }
                }
                run.result = Some(r);
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

    /// Sets up a DML statement's row locks and page walk.
    fn open_dml(&mut self, id: u32, run: &mut Running, ti: usize) -> Result<Next, SqlError> {
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
    fn finish_dml(&mut self, id: u32, run: &mut Running) {
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

    fn statement_end(&mut self, _t: ThreadId, id: u32, run: &mut Running) -> Next {
        let ctx = MdlContextId(id);
        self.mdl_release_statement(ctx);
        // DDL and the admin statements commit when they end (`trans_commit_implicit()`),
        // releasing their transactional locks.
        if run.command.is_ddl() || matches!(run.command, Command::AnalyzeTable { .. }) {
            self.mdl_release_transactional(ctx);
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
        let result = rec.client_output().unwrap_or_default();
        let sql = rec.sql.clone();
        self.emit(EventKind::StatementFinished {
            session: id,
            sql,
            elapsed,
            result,
            error,
        });
        if let Some(s) = self.sql.sessions.get_mut(&id) {
            if s.killed == Some(KillKind::Connection) {
                self.disconnect(id);
            }
        }
        run.step = Step::Next;
        Next::After(Tick::ZERO)
    }

    /// The connection goes away: its transaction rolls back and every lock goes.
    fn disconnect(&mut self, id: u32) {
        self.rollback_trx(id);
        self.sql.row_waits.remove(&id);
        self.mdl_release_all(MdlContextId(id));
        let failed: Vec<u32> = match self.sql.sessions.get_mut(&id) {
            Some(s) => {
                s.gone = true;
                s.locked_tables.clear();
                s.global_read_lock = false;
                s.queue.drain(..).collect()
            }
            None => Vec::new(),
        };
        for stmt in failed {
            let rec = &mut self.sql.statements[stmt as usize];
            rec.finished_at = Some(self.sched.now);
            let e = SqlError::server_gone();
            rec.outcome = Some(StatementOutcome::Error {
                code: e.code,
                sqlstate: e.sqlstate,
                message: e.message,
            });
        }
    }

    /// `KILL [QUERY] id` (`sql_kill()`): flags the target; a wait ends at once with
    /// 1317, running work stops at its next step.
    fn kill(&mut self, target: u64, kind: KillKind) -> Result<(), SqlError> {
        let Some(s) = u32::try_from(target)
            .ok()
            .and_then(|t| self.sql.sessions.get_mut(&t))
        else {
            return Err(SqlError::unknown_thread(target));
        };
        if s.gone {
            return Err(SqlError::unknown_thread(target));
        }
        let id = s.id;
        let thread = s.thread;
        if s.running.is_none() {
            if kind == KillKind::Connection {
                self.disconnect(id);
            }
            return Ok(());
        }
        s.killed = Some(kind);
        if self.mdl_cancel_wait(MdlContextId(id)) {
            // The wake-up comes with the aborted request.
        } else if let Some(t) = self.row_cancel_wait(id) {
            self.sched.schedule_thread(self.sched.now, t);
        } else if self.sql.ddl_running.contains(&id) {
            // Simplification: a DDL's storage-engine phase runs to its end; the kill
            // is seen at the next SQL-layer step.
        } else if self
            .latches
            .iter()
            .any(|l| l.holder() == Some(thread) || l.waiters().any(|w| w == thread))
        {
            // Holding or queued for a latch: the kill is seen once the page is done.
        } else {
            self.sched.wake_early(thread);
        }
        Ok(())
    }

    // ---- DDL -----------------------------------------------------------------------

    /// The SQL layer's phases of a DDL statement, checked against the dictionary now
    /// that its metadata locks are held.
    fn ddl_plan(&mut self, c: &Command, run: &Running) -> Result<Vec<DdlOp>, SqlError> {
        let schema = self.schema();
        let costs = self.profile.costs.clone();
        let dict = Tick(costs.drop_dict_ns);
        let find = |sim: &Sim, n: &TableName| {
            sim.resolve(n).first().copied().ok_or_else(|| {
                SqlError::no_such_table(n.schema.as_deref().unwrap_or(&schema), &n.table)
            })
        };
        // The table ticket's index in run.tickets: after GLOBAL IX and SCHEMA IX.
        const T: usize = 2;
        let _ = run;
        Ok(match c {
            Command::DropTable { tables, if_exists } => {
                let mut found = Vec::new();
                let mut missing = Vec::new();
                for n in tables {
                    // A partitioned table: every partition's table (main's executor
                    // drops them one after the other, in one statement).
                    let named = self.resolve(n);
                    match self.resolve(n).first().copied() {
                        Some(_) => {
                            for i in named {
                                if !found.contains(&i) {
                                    found.push(i);
                                }
                            }
                        }
                        None => missing.push(format!(
                            "{}.{}",
                            n.schema.as_deref().unwrap_or(&schema),
                            n.table
                        )),
                    }
                }
                if !missing.is_empty() && !if_exists {
                    // The server drops nothing and names every unknown table.
                    return Err(SqlError::unknown_tables(&missing));
                }
                vec![DdlOp::DropStorage(found)]
            }
            Command::TruncateTable { table } => {
                let ti = find(self, table)?;
                if self.catalog[ti].table.partition.is_some() {
                    // A partitioned table: the TRUNCATE path on every partition.
                    let parts = self.resolve(table);
                    let mut ops = vec![DdlOp::Executor(
                        super::Plan::TruncatePartitions(
                            parts
                                .iter()
                                .map(|&table| super::ddl::DropTarget { table })
                                .collect(),
                        ),
                        T,
                    )];
                    ops.extend(
                        parts
                            .into_iter()
                            .map(|p| DdlOp::Dict(DictEffect::Truncate(p))),
                    );
                    return Ok(ops);
                }
                // The storage engine's TRUNCATE (sim/ddl.rs): 5.7 in place under
                // fil_sys, 8.0 DROP + CREATE of the tablespace; the session holds X.
                vec![
                    DdlOp::Executor(super::Plan::Truncate(ti), T),
                    DdlOp::Dict(DictEffect::Truncate(ti)),
                ]
            }
            Command::RenameTable { renames } => {
                // Checked as the server does (1146, 1050), every pair at once; the
                // session holds X on every name, old and new.
                let plan = self.plan_rename(renames, &mut Vec::new())?;
                vec![DdlOp::Executor(plan, T)]
            }
            Command::CreateTable(ct) => {
                if self.resolve(&ct.table).first().copied().is_some() {
                    if ct.if_not_exists {
                        return Ok(vec![DdlOp::Dict(DictEffect::None)]);
                    }
                    return Err(SqlError::table_exists(&ct.table.table));
                }
                let def = TableDef {
                    columns: ct.columns.iter().map(|c| c.name.clone()).collect(),
                    pk: ct.primary_key.first().map(|k| k.column.clone()),
                    indexes: ct
                        .indexes
                        .iter()
                        .map(|ix| {
                            (
                                ix.name
                                    .clone()
                                    .unwrap_or_else(|| ix.columns[0].column.clone()),
                                ix.columns[0].column.clone(),
                            )
                        })
                        .collect(),
                    partitions: ct
                        .partition_by
                        .as_ref()
                        .map(|p| p.partitions.iter().map(|d| d.name.clone()).collect())
                        .unwrap_or_default(),
                    live_rows: 0,
                    rebuilt_at: self.sched.now,
                    discarded: false,
                };
                let row_bytes = ct
                    .columns
                    .iter()
                    .map(|c| column_bytes(&c.data_type))
                    .sum::<u64>()
                    .clamp(16, 65_535);
                vec![
                    DdlOp::Work("creating table", dict),
                    DdlOp::Dict(DictEffect::Create {
                        name: ct.table.table.clone(),
                        def,
                        rows: 0,
                        row_bytes,
                    }),
                ]
            }
            Command::CreateTableLike { table, like } => {
                let src = find(self, like)?;
                if self.resolve(table).first().copied().is_some() {
                    return Err(SqlError::table_exists(&table.table));
                }
                let change = super::alter::MetaChange::CreateLike {
                    like: src,
                    name: table.table.clone(),
                };
                vec![DdlOp::Executor(super::Plan::Meta(change), T)]
            }
            Command::CreateIndex {
                table,
                index,
                algorithm,
                ..
            } => self.add_index_plan(table, index, *algorithm, T)?,
            Command::DropIndex {
                table,
                name,
                algorithm,
                ..
            } => {
                let ti = find(self, table)?;
                if !self.catalog[ti]
                    .def
                    .indexes
                    .iter()
                    .any(|(n, _)| n.eq_ignore_ascii_case(name))
                {
                    return Err(SqlError::cant_drop(name));
                }
                self.online_alter(
                    ti,
                    T,
                    *algorithm,
                    false,
                    DictEffect::DropIndex(ti, name.clone()),
                )?
            }
            Command::OptimizeTable { tables } => {
                // InnoDB: "Table does not support optimize, doing recreate + analyze
                // instead" (HA_ADMIN_TRY_ALTER): the admin open's locks go, and the
                // recreate is an online ALTER TABLE ... FORCE (sql_admin.cc).
                let ti = find(self, &tables[0])?;
                if tables.len() > 1 {
                    return Err(SqlError::not_modelled("OPTIMIZE TABLE of several tables"));
                }
                vec![
                    DdlOp::Reacquire(T, MdlType::SharedUpgradable),
                    DdlOp::Executor(
                        super::Plan::Rebuild {
                            table: ti,
                            add: Vec::new(),
                            drop: Vec::new(),
                        },
                        T,
                    ),
                    DdlOp::Dict(DictEffect::Rebuild(ti)),
                ]
            }
            Command::AlterTable {
                table,
                actions,
                algorithm,
                ..
            } => {
                let ti = find(self, table)?;
                self.alter_plan(ti, T, actions, *algorithm)?
            }
            other => return Err(SqlError::not_modelled(other.name())),
        })
    }

    /// CREATE INDEX / ADD INDEX: checked by the storage engine's planner
    /// (`plan_add_index()`: 1146, 1061, 1072, 1845) and run by its online build
    /// (sim/alter.rs), which takes the session's lock through SU → X → SU → X; with
    /// ALGORITHM=COPY, the SQL layer's copy.
    fn add_index_plan(
        &self,
        table: &TableName,
        index: &crate::sql::IndexDef,
        algorithm: Algorithm,
        lock: usize,
    ) -> Result<Vec<DdlOp>, SqlError> {
        let ti = self
            .resolve(table)
            .first()
            .copied()
            .ok_or_else(|| SqlError::no_such_table(&self.schema(), &table.table))?;
        if algorithm == Algorithm::Copy {
            let name = index
                .name
                .clone()
                .unwrap_or_else(|| index.columns[0].column.clone());
            self.check_new_index(ti, &name, &index.columns[0].column)?;
            let first = index.columns[0].column.clone();
            return self.online_alter(
                ti,
                lock,
                algorithm,
                false,
                DictEffect::AddIndex(ti, name, first),
            );
        }
        let plan = self.plan_add_index(table, index, algorithm)?;
        let super::Plan::AddIndex { name, .. } = &plan else {
            unreachable!("plan_add_index plans an index build");
        };
        let effect = DictEffect::AddIndex(ti, name.clone(), index.columns[0].column.clone());
        Ok(vec![DdlOp::Executor(plan, lock), DdlOp::Dict(effect)])
    }

    /// ADD/DROP COLUMN done instantly if the profile can (`plan_column_change()`), by
    /// its executor; `None` if it needs a rebuild (the SQL layer's online path).
    fn instant_plan(
        &self,
        ti: usize,
        actions: &[AlterAction],
        algorithm: Algorithm,
        lock: usize,
    ) -> Result<Option<Vec<DdlOp>>, SqlError> {
        let name = TableName {
            schema: None,
            table: self.catalog[ti].table.sql_name().to_owned(),
        };
        match self.plan_column_change(&name, actions, algorithm) {
            // COPY works under SHARED_NO_WRITE: the SQL layer's path.
            Ok(super::Plan::Rebuild { .. }) if algorithm == Algorithm::Copy => Ok(None),
            Ok(plan) => {
                let rebuild = matches!(plan, super::Plan::Rebuild { .. });
                let mut ops = vec![DdlOp::Executor(plan, lock)];
                if rebuild {
                    ops.push(DdlOp::Dict(DictEffect::Rebuild(ti)));
                }
                for a in actions {
                    match a {
                        AlterAction::AddColumn { column, .. } => {
                            ops.push(DdlOp::Dict(DictEffect::AddColumn(ti, column.name.clone())))
                        }
                        AlterAction::DropColumn { name } => {
                            ops.push(DdlOp::Dict(DictEffect::DropColumn(ti, name.clone())))
                        }
                        _ => {}
                    }
                }
                Ok(Some(ops))
            }
            // 1235: a rebuild, which the SQL layer's online path runs.
            Err(e) if e.code == 1235 => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn check_new_index(&self, ti: usize, name: &str, column: &str) -> Result<(), SqlError> {
        let def = &self.catalog[ti].def;
        if def
            .indexes
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
            || name.eq_ignore_ascii_case("PRIMARY")
        {
            return Err(SqlError::duplicate_key(name));
        }
        if !def.columns.iter().any(|c| c.eq_ignore_ascii_case(column)) {
            return Err(SqlError::key_column_missing(column));
        }
        Ok(())
    }

    /// How long the storage engine's bulk work on table `ti` takes.
    /// Simplification: until the DDL executors of sim/ddl.rs are wired in here, a
    /// rebuild or index build costs `index_build_ns_per_row` per row (I4's idle build)
    /// plus the dictionary work (`drop_dict_ns`); its pages do not go through the pool.
    fn build_cost(&self, ti: usize) -> Tick {
        let c = &self.profile.costs;
        Tick(c.index_build_ns_per_row).times(self.catalog[ti].def.live_rows) + Tick(c.drop_dict_ns)
    }

    /// An in-place ALTER's choreography (`mysql_inplace_alter_table()`): SU held; X to
    /// prepare, back to SU while building, X again to commit; the instant path takes X
    /// for its commit only; COPY works under SNW and renames under X.
    fn online_alter(
        &self,
        ti: usize,
        lock: usize,
        algorithm: Algorithm,
        rebuild: bool,
        effect: DictEffect,
    ) -> Result<Vec<DdlOp>, SqlError> {
        let dict = Tick(self.profile.costs.drop_dict_ns);
        let build = if rebuild || matches!(effect, DictEffect::AddIndex(..)) {
            self.build_cost(ti)
        } else {
            dict
        };
        Ok(match algorithm {
            Algorithm::Copy => vec![
                // copy_data_between_tables() under SNW: reads go on, writes wait.
                DdlOp::Upgrade(lock, MdlType::SharedNoWrite),
                DdlOp::Work("copy to tmp table", self.build_cost(ti)),
                DdlOp::Upgrade(lock, MdlType::Exclusive),
                DdlOp::Work("rename result table", dict),
                DdlOp::Dict(match effect {
                    DictEffect::AddIndex(..)
                    | DictEffect::DropIndex(..)
                    | DictEffect::AddColumn(..)
                    | DictEffect::DropColumn(..) => effect,
                    _ => DictEffect::Rebuild(ti),
                }),
                DdlOp::Dict(DictEffect::Rebuild(ti)),
            ],
            Algorithm::Instant => vec![
                DdlOp::Upgrade(lock, MdlType::Exclusive),
                DdlOp::Work("committing alter table to storage engine", dict),
                DdlOp::Dict(effect),
            ],
            Algorithm::Default | Algorithm::Inplace => {
                let mut ops = vec![
                    DdlOp::Upgrade(lock, MdlType::Exclusive),
                    DdlOp::Work("preparing for alter table", dict),
                    DdlOp::Downgrade(lock, MdlType::SharedUpgradable),
                    DdlOp::Work("altering table", build),
                    DdlOp::Upgrade(lock, MdlType::Exclusive),
                    DdlOp::Work("committing alter table to storage engine", dict),
                ];
                if rebuild {
                    ops.push(DdlOp::Dict(DictEffect::Rebuild(ti)));
                }
                ops.push(DdlOp::Dict(effect));
                ops
            }
        })
    }

    fn alter_plan(
        &self,
        ti: usize,
        lock: usize,
        actions: &[AlterAction],
        algorithm: Algorithm,
    ) -> Result<Vec<DdlOp>, SqlError> {
        let dict = Tick(self.profile.costs.drop_dict_ns);
        let def = &self.catalog[ti].def;
        let [action] = actions else {
            return Err(SqlError::not_modelled("ALTER TABLE with several actions"));
        };
        Ok(match action {
            AlterAction::AddIndex(ix) => {
                let name = TableName {
                    schema: None,
                    table: self.catalog[ti].table.sql_name().to_owned(),
                };
                self.add_index_plan(&name, ix, algorithm, lock)?
            }
            AlterAction::DropIndex { name } => {
                if !def
                    .indexes
                    .iter()
                    .any(|(n, _)| n.eq_ignore_ascii_case(name))
                {
                    return Err(SqlError::cant_drop(name));
                }
                self.online_alter(
                    ti,
                    lock,
                    algorithm,
                    false,
                    DictEffect::DropIndex(ti, name.clone()),
                )?
            }
            AlterAction::AddColumn { column, .. } => {
                if def
                    .columns
                    .iter()
                    .any(|c| c.eq_ignore_ascii_case(&column.name))
                {
                    return Err(SqlError::duplicate_column(&column.name));
                }
                if let Some(ops) = self.instant_plan(ti, actions, algorithm, lock)? {
                    return Ok(ops);
                }
                // 8.0.29+: INSTANT by default; INPLACE and COPY rebuild.
                let rebuild = algorithm != Algorithm::Default && algorithm != Algorithm::Instant;
                let algorithm = if algorithm == Algorithm::Default {
                    Algorithm::Instant
                } else {
                    algorithm
                };
                self.online_alter(
                    ti,
                    lock,
                    algorithm,
                    rebuild,
                    DictEffect::AddColumn(ti, column.name.clone()),
                )?
            }
            AlterAction::DropColumn { name } => {
                if !def.columns.iter().any(|c| c.eq_ignore_ascii_case(name)) {
                    return Err(SqlError::cant_drop(name));
                }
                if let Some(ops) = self.instant_plan(ti, actions, algorithm, lock)? {
                    return Ok(ops);
                }
                let rebuild = algorithm != Algorithm::Default && algorithm != Algorithm::Instant;
                let algorithm = if algorithm == Algorithm::Default {
                    Algorithm::Instant
                } else {
                    algorithm
                };
                self.online_alter(
                    ti,
                    lock,
                    algorithm,
                    rebuild,
                    DictEffect::DropColumn(ti, name.clone()),
                )?
            }
            AlterAction::Engine { .. }
            | AlterAction::Force
            | AlterAction::RowFormat(_)
            | AlterAction::KeyBlockSize(_) => {
                if algorithm == Algorithm::Instant {
                    return Err(SqlError::algorithm_not_supported(
                        "ALGORITHM=INSTANT",
                        "ALGORITHM=COPY/INPLACE",
                    ));
                }
                if let AlterAction::Engine { name } = action {
                    if !name.eq_ignore_ascii_case("innodb") {
                        return Err(SqlError::not_modelled(&format!(
                            "ALTER TABLE ... ENGINE={name} (only InnoDB is simulated)"
                        )));
                    }
                }
                if algorithm == Algorithm::Copy {
                    self.online_alter(ti, lock, algorithm, true, DictEffect::Rebuild(ti))?
                } else {
                    // The storage engine's rebuild (sim/alter.rs): a new tablespace built
                    // like an index, names swapped, the old table dropped.
                    vec![
                        DdlOp::Executor(
                            super::Plan::Rebuild {
                                table: ti,
                                add: Vec::new(),
                                drop: Vec::new(),
                            },
                            lock,
                        ),
                        DdlOp::Dict(DictEffect::Rebuild(ti)),
                    ]
                }
            }
            AlterAction::DropPartition { names } => {
                self.check_partitions(ti, names, "DROP")?;
                if names.len() >= def.partitions.len() {
                    return Err(SqlError::drop_last_partition());
                }
                if self.catalog[ti].table.partition.is_none() {
                    // Partitioned at the dictionary level only (CREATE TABLE ...
                    // PARTITION BY in a session: one B-tree). InnoDB answers
                    // HA_ALTER_INPLACE_NO_LOCK_AFTER_PREPARE (handler0alter.cc
                    // alter_parts::need_copy): the online choreography with a
                    // metadata-only middle phase.
                    return Ok(vec![
                        DdlOp::Upgrade(lock, MdlType::Exclusive),
                        DdlOp::Work("preparing for alter table", dict),
                        DdlOp::Downgrade(lock, MdlType::SharedUpgradable),
                        DdlOp::Work("altering table", dict),
                        DdlOp::Upgrade(lock, MdlType::Exclusive),
                        DdlOp::Work("committing alter table to storage engine", dict),
                        DdlOp::Dict(DictEffect::DropPartitions(ti, names.clone())),
                    ]);
                }
                let (targets, _) =
                    self.plan_partition_alter(&self.sql_table_name(ti), actions, &[])?;
                // The storage engine's DROP path on each partition's table (sim/ddl.rs,
                // sim/partition.rs) under the session's EXCLUSIVE lock, as for DROP TABLE.
                // Simplification: the server's online choreography (X, SU for the
                // metadata-only middle phase, X to commit) is collapsed into one X.
                vec![
                    DdlOp::Upgrade(lock, MdlType::Exclusive),
                    DdlOp::Executor(
                        super::Plan::DropPartitions(
                            targets
                                .into_iter()
                                .map(|table| super::ddl::DropTarget { table })
                                .collect(),
                        ),
                        lock,
                    ),
                    DdlOp::Dict(DictEffect::DropPartitions(ti, names.clone())),
                ]
            }
            AlterAction::TruncatePartition { names } => {
                if !names.is_empty() {
                    self.check_partitions(ti, names, "TRUNCATE")?;
                }
                if self.catalog[ti].table.partition.is_none() {
                    if names.is_empty() {
                        self.check_partitions(ti, names, "TRUNCATE")?;
                    }
                    // Partitioned at the dictionary level only: no partition's own table.
                    return Ok(vec![DdlOp::Work("checking permissions", dict)]);
                }
                let (targets, _) =
                    self.plan_partition_alter(&self.sql_table_name(ti), actions, &[])?;
                // The TRUNCATE path on each partition's table, under X.
                let mut ops = vec![
                    DdlOp::Upgrade(lock, MdlType::Exclusive),
                    DdlOp::Executor(
                        super::Plan::TruncatePartitions(
                            targets
                                .iter()
                                .map(|&table| super::ddl::DropTarget { table })
                                .collect(),
                        ),
                        lock,
                    ),
                ];
                ops.extend(
                    targets
                        .into_iter()
                        .map(|p| DdlOp::Dict(DictEffect::Truncate(p))),
                );
                ops
            }
            // mysql_discard_or_import_tablespace() under X; the storage engine's
            // fil_delete_tablespace() (sim/ddl.rs).
            AlterAction::DiscardTablespace => vec![
                DdlOp::Executor(super::Plan::Discard(ti), lock),
                DdlOp::Dict(DictEffect::Discard(ti)),
            ],
            AlterAction::ImportTablespace => vec![
                DdlOp::Work("discard_or_import_tablespace", dict),
                DdlOp::Dict(DictEffect::Import(ti)),
            ],
        })
    }

    /// The SQL name of dictionary table `ti` (a partition's table: its table's name).
    fn sql_table_name(&self, ti: usize) -> TableName {
        TableName {
            schema: None,
            table: self.catalog[ti].table.sql_name().to_owned(),
        }
    }

    fn check_partitions(&self, ti: usize, names: &[String], op: &str) -> Result<(), SqlError> {
        let def = &self.catalog[ti].def;
        if def.partitions.is_empty() {
            return Err(SqlError::partition_mgmt_on_nonpartitioned());
        }
        if names
            .iter()
            .any(|n| !def.partitions.iter().any(|p| p.eq_ignore_ascii_case(n)))
        {
            return Err(SqlError::partition_list(op));
        }
        Ok(())
    }

    fn step_ddl_ops(&mut self, t: ThreadId, id: u32, run: &mut Running) -> Next {
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
                    super::Plan::AddIndex {
                        table,
                        name,
                        entry_bytes,
                    } => Thread::IndexBuild(Box::new(super::alter::IndexBuild::new(
                        id,
                        table,
                        name,
                        entry_bytes,
                        mdl,
                        t,
                    ))),
                    super::Plan::Meta(change) => {
                        // An instant column change upgrades the session's SU itself;
                        // RENAME and CREATE ... LIKE hold their X locks already.
                        let upgrade = matches!(change, super::alter::MetaChange::Columns { .. });
                        Thread::MetaDdl(Box::new(super::alter::MetaDdl::new(
                            id,
                            change,
                            upgrade.then_some(mdl),
                            t,
                        )))
                    }
                    super::Plan::Rebuild { table, add, drop } => {
                        Thread::IndexBuild(Box::new(super::alter::IndexBuild::rebuild(
                            id,
                            table,
                            super::alter::Rebuild::new(add, drop),
                            mdl,
                            t,
                        )))
                    }
                    super::Plan::Discard(table) => {
                        let sql = self.sql.statements[run.stmt as usize].sql.clone();
                        let mut d = super::ddl::Ddl::new(
                            id,
                            sql,
                            self.sched.now,
                            vec![super::ddl::DropTarget { table }],
                        );
                        d.discard = true;
                        d.notify = Some(t);
                        Thread::Ddl(Box::new(d))
                    }
                    super::Plan::TruncatePartitions(targets) => {
                        let sql = self.sql.statements[run.stmt as usize].sql.clone();
                        let mut d = super::ddl::Ddl::new(id, sql, self.sched.now, targets);
                        d.truncate = true;
                        d.notify = Some(t);
                        Thread::Ddl(Box::new(d))
                    }
                    super::Plan::DropPartitions(targets) => {
                        let sql = self.sql.statements[run.stmt as usize].sql.clone();
                        let mut d = super::ddl::Ddl::new(id, sql, self.sched.now, targets);
                        d.notify = Some(t);
                        Thread::Ddl(Box::new(d))
                    }
                    super::Plan::Truncate(table) => {
                        let sql = self.sql.statements[run.stmt as usize].sql.clone();
                        let mut d = super::ddl::Ddl::new(
                            id,
                            sql,
                            self.sched.now,
                            vec![super::ddl::DropTarget { table }],
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

    fn apply_dict(&mut self, effect: DictEffect) {
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

    // ---- variables ---------------------------------------------------------------------

    fn set_variable(
        &mut self,
        id: u32,
        scope: VarScope,
        name: &str,
        value: &SetValue,
    ) -> Result<(), SqlError> {
        let text = match value {
            SetValue::Int(i) => i.to_string(),
            SetValue::Str(s) => s.clone(),
            SetValue::Bool(b) => if *b { "ON" } else { "OFF" }.to_owned(),
            SetValue::Default => "DEFAULT".to_owned(),
        };
        let as_bool = || match value {
            SetValue::Bool(b) => Ok(*b),
            SetValue::Int(0) => Ok(false),
            SetValue::Int(1) => Ok(true),
            SetValue::Str(s) if s.eq_ignore_ascii_case("on") => Ok(true),
            SetValue::Str(s) if s.eq_ignore_ascii_case("off") => Ok(false),
            _ => Err(SqlError::wrong_value_for_var(name, &text)),
        };
        let as_int = |min: i128, max: i128, default: u64| match value {
            SetValue::Int(i) => Ok((*i).clamp(min, max) as u64),
            SetValue::Default => Ok(default),
            _ => Err(SqlError::wrong_type_for_var(name)),
        };
        let session_scope = scope == VarScope::Session;
        match name {
            "autocommit" => {
                let on = if *value == SetValue::Default {
                    true
                } else {
                    as_bool()?
                };
                if session_scope {
                    let had = self.sql.sessions[&id].vars.autocommit;
                    self.sql
                        .sessions
                        .get_mut(&id)
                        .expect("session")
                        .vars
                        .autocommit = on;
                    // SET autocommit=1 commits an open transaction.
                    if on && !had && self.sql.sessions[&id].trx.is_some() {
                        self.commit_trx(id);
                    }
                } else {
                    self.sql.global_vars.autocommit = on;
                }
            }
            "lock_wait_timeout" => {
                let v = as_int(1, 31_536_000, self.profile.sql.lock_wait_timeout_s)?;
                if session_scope {
                    self.sql
                        .sessions
                        .get_mut(&id)
                        .expect("session")
                        .vars
                        .lock_wait_timeout_s = v;
                } else {
                    self.sql.global_vars.lock_wait_timeout_s = v;
                }
            }
            "innodb_lock_wait_timeout" => {
                let v = as_int(
                    1,
                    1_073_741_824,
                    self.profile.sql.innodb_lock_wait_timeout_s,
                )?;
                if session_scope {
                    self.sql
                        .sessions
                        .get_mut(&id)
                        .expect("session")
                        .vars
                        .innodb_lock_wait_timeout_s = v;
                } else {
                    self.sql.global_vars.innodb_lock_wait_timeout_s = v;
                }
            }
            "innodb_adaptive_hash_index" => {
                if session_scope {
                    return Err(SqlError::global_variable(name));
                }
                // Simplification: switching the AHI off stops new entries; the server
                // also empties the hash (btr_search_disable()), which is not modelled.
                self.scenario.innodb.adaptive_hash_index = as_bool()?;
            }
            "max_write_lock_count" => {
                if session_scope {
                    return Err(SqlError::global_variable(name));
                }
                self.sql.mdl.max_write_lock_count = match value {
                    SetValue::Default => u64::MAX,
                    _ => as_int(1, i128::from(u64::MAX), u64::MAX)?,
                };
            }
            "innodb_lru_scan_depth" => {
                if session_scope {
                    return Err(SqlError::global_variable(name));
                }
                self.scenario.buffer_pool.lru_scan_depth =
                    as_int(100, i128::from(u32::MAX), 1024)? as u32;
            }
            "innodb_old_blocks_time" => {
                if session_scope {
                    return Err(SqlError::global_variable(name));
                }
                self.scenario.buffer_pool.old_blocks_time_ms =
                    as_int(0, i128::from(u32::MAX), 1000)? as u32;
            }
            n if VARIABLES.iter().any(|(v, _)| *v == n) => {
                return Err(SqlError::read_only_variable(n));
            }
            _ => return Err(SqlError::unknown_variable(name)),
        }
        Ok(())
    }

    pub(super) fn variable_value(&self, id: u32, scope: VarScope, name: &str) -> Option<String> {
        let vars = if scope == VarScope::Session {
            self.sql
                .sessions
                .get(&id)
                .map_or(&self.sql.global_vars, |s| &s.vars)
        } else {
            &self.sql.global_vars
        };
        let onoff = |b: bool| if b { "ON" } else { "OFF" }.to_owned();
        let bp = &self.scenario.buffer_pool;
        Some(match name {
            "autocommit" => onoff(vars.autocommit),
            "lock_wait_timeout" => vars.lock_wait_timeout_s.to_string(),
            "innodb_lock_wait_timeout" => vars.innodb_lock_wait_timeout_s.to_string(),
            "innodb_adaptive_hash_index" => onoff(self.scenario.innodb.adaptive_hash_index),
            "max_write_lock_count" => self.sql.mdl.max_write_lock_count.to_string(),
            "innodb_buffer_pool_size" => bp.size.bytes().to_string(),
            "innodb_buffer_pool_instances" => bp.instances.to_string(),
            "innodb_lru_scan_depth" => bp.lru_scan_depth.to_string(),
            "innodb_old_blocks_pct" => bp.old_blocks_pct.to_string(),
            "innodb_old_blocks_time" => bp.old_blocks_time_ms.to_string(),
            "innodb_page_size" => crate::units::PAGE_SIZE.to_string(),
            "innodb_rollback_on_timeout" => "OFF".into(),
            "transaction_isolation" => "REPEATABLE-READ".into(),
            "version" => self.profile.title.clone(),
            _ => return None,
        })
    }

    fn select_expressions(&self, id: u32, items: &[String]) -> Result<ResultSet, SqlError> {
        let cols: Vec<&str> = items.iter().map(String::as_str).collect();
        let mut r = ResultSet::new(&cols, &[]);
        let mut row = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let t = item.trim();
            let lower = t.to_ascii_lowercase();
            let value = if let Some(v) = lower.strip_prefix("@@") {
                let (scope, name) = if let Some(n) = v.strip_prefix("global.") {
                    (VarScope::Global, n)
                } else if let Some(n) = v.strip_prefix("session.") {
                    (VarScope::Session, n)
                } else {
                    (VarScope::Session, v)
                };
                let val = self
                    .variable_value(id, scope, name)
                    .ok_or_else(|| SqlError::unknown_variable(name))?;
                // The client shows ON/OFF switches as 1/0 through @@.
                Some(match val.as_str() {
                    "ON" => "1".to_owned(),
                    "OFF" => "0".to_owned(),
                    _ => val,
                })
            } else if lower == "connection_id()" {
                Some(id.to_string())
            } else if lower == "null" {
                None
            } else if t.parse::<i64>().is_ok() {
                Some(t.to_owned())
            } else if (t.starts_with('\'') && t.ends_with('\'') && t.len() >= 2)
                || (t.starts_with('"') && t.ends_with('"') && t.len() >= 2)
            {
                r.columns[i] = t[1..t.len() - 1].to_owned();
                Some(t[1..t.len() - 1].to_owned())
            } else {
                return Err(SqlError::not_modelled(&format!("SELECT {t}")));
            };
            if value.as_deref().is_some_and(|v| v.parse::<i64>().is_ok()) {
                r.numeric[i] = true;
            }
            row.push(value);
        }
        r.push(row);
        Ok(r)
    }

    fn show_create(&self, ti: usize) -> String {
        let t = &self.catalog[ti].table;
        let d = &self.catalog[ti].def;
        let mut lines: Vec<String> = d
            .columns
            .iter()
            .map(|c| format!("  `{c}` int NOT NULL"))
            .collect();
        if let Some(pk) = &d.pk {
            lines.push(format!("  PRIMARY KEY (`{pk}`)"));
        }
        for (n, c) in &d.indexes {
            lines.push(format!("  KEY `{n}` (`{c}`)"));
        }
        let mut s = format!(
            "CREATE TABLE `{}` (\n{}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
            t.name,
            lines.join(",\n")
        );
        if !d.partitions.is_empty() {
            s.push_str("\n/*!50100 PARTITION BY RANGE (`id`)\n(");
            let parts: Vec<String> = d
                .partitions
                .iter()
                .map(|p| format!("PARTITION {p} ENGINE = InnoDB"))
                .collect();
            s.push_str(&parts.join(",\n "));
            s.push_str(") */");
        }
        s
    }

    /// Spawns DROP TABLE's storage-engine thread (sim/ddl.rs) for `tables`; `notify`
    /// is woken when it is done.
    fn spawn_drop(
        &mut self,
        session: u32,
        sql: String,
        tables: Vec<usize>,
        notify: ThreadId,
    ) -> ThreadId {
        let targets = tables
            .into_iter()
            .map(|table| super::ddl::DropTarget { table })
            .collect();
        let mut d = super::ddl::Ddl::new(session, sql, self.sched.now, targets);
        d.notify = Some(notify);
        let id = self.sched.spawn(Thread::Ddl(Box::new(d)));
        self.sched.schedule_thread(self.sched.now, id);
        id
    }

    /// Console sessions waiting for something, with what: for the app's MDL panel.
    pub fn mdl(&self) -> &crate::mdl::MdlManager {
        &self.sql.mdl
    }

    /// The error an MDL wait ended with, as the SQL layer reports it.
    pub fn mdl_error_text(e: MdlError) -> String {
        SqlError::from(e).to_string()
    }
}

/// Whether a lock plan opens tables (the "Opening tables" stage of `open_tables()`).
fn opens_tables(plan: &[MdlRequest]) -> bool {
    plan.iter()
        .any(|r| r.key.namespace() == crate::mdl::MdlNamespace::Table)
}

/// 1.5 → "1.5", 2000 → "2".
fn fmt_secs_ms(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_owned()
    }
}

/// Bytes of a column of this type in a row (for a created table's row length).
fn column_bytes(t: &str) -> u64 {
    let t = t.to_ascii_uppercase();
    let n = t
        .split(['(', ')'])
        .nth(1)
        .and_then(|n| n.split(',').next())
        .and_then(|n| n.trim().parse::<u64>().ok());
    if t.starts_with("BIGINT") || t.starts_with("DATETIME") || t.starts_with("DOUBLE") {
        8
    } else if t.starts_with("CHAR") || t.starts_with("VARCHAR") || t.starts_with("BINARY") {
        n.unwrap_or(1)
    } else if t.starts_with("TEXT") || t.starts_with("BLOB") {
        20
    } else {
        4
    }
}

/// The variables SHOW VARIABLES lists, and whether they can be set.
pub(super) const VARIABLES: [(&str, bool); 14] = [
    ("autocommit", true),
    ("innodb_adaptive_hash_index", true),
    ("innodb_buffer_pool_instances", false),
    ("innodb_buffer_pool_size", false),
    ("innodb_lock_wait_timeout", true),
    ("innodb_lru_scan_depth", true),
    ("innodb_old_blocks_pct", false),
    ("innodb_old_blocks_time", true),
    ("innodb_page_size", false),
    ("innodb_rollback_on_timeout", false),
    ("lock_wait_timeout", true),
    ("max_write_lock_count", true),
    ("transaction_isolation", false),
    ("version", false),
];

/// Keeps the requested columns (`*` for all) and the rows matching a WHERE clause of
/// `col = value` terms joined by AND.
fn project(
    full: ResultSet,
    columns: &[String],
    where_text: Option<&str>,
) -> Result<ResultSet, SqlError> {
    let mut keep: Vec<usize> = Vec::new();
    for c in columns {
        let c = c.trim();
        if c == "*" {
            keep.extend(0..full.columns.len());
            continue;
        }
        let bare = c.rsplit('.').next().unwrap_or(c).trim_matches('`');
        match full.column(bare) {
            Some(i) => keep.push(i),
            None => return Err(SqlError::unknown_column_in(c, "field list")),
        }
    }
    let mut conds: Vec<(usize, String)> = Vec::new();
    if let Some(w) = where_text {
        for term in split_and(w) {
            let Some((l, r)) = term.split_once('=') else {
                return Err(SqlError::not_modelled(&format!("WHERE {term}")));
            };
            let l = l.trim();
            let bare = l.rsplit('.').next().unwrap_or(l).trim_matches('`');
            let Some(i) = full.column(bare) else {
                return Err(SqlError::unknown_column_in(l, "where clause"));
            };
            let v = r.trim().trim_matches(|c| c == '\'' || c == '"').to_owned();
            conds.push((i, v));
        }
    }
    let mut out = ResultSet {
        columns: keep.iter().map(|&i| full.columns[i].clone()).collect(),
        numeric: keep.iter().map(|&i| full.numeric[i]).collect(),
        rows: Vec::new(),
    };
    for row in &full.rows {
        let ok = conds.iter().all(|(i, v)| {
            row[*i]
                .as_deref()
                .is_some_and(|x| x.eq_ignore_ascii_case(v))
        });
        if ok {
            out.rows
                .push(keep.iter().map(|&i| row[i].clone()).collect());
        }
    }
    Ok(out)
}

/// `a = 1 AND b = 'x'` → `["a = 1", "b = 'x'"]` (AND in any case, outside quotes).
fn split_and(w: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    let words: Vec<&str> = w.split_inclusive(' ').collect();
    for word in words {
        for ch in word.chars() {
            match quote {
                Some(q) if ch == q => quote = None,
                None if ch == '\'' || ch == '"' => quote = Some(ch),
                _ => {}
            }
        }
        if quote.is_none() && word.trim().eq_ignore_ascii_case("and") {
            out.push(cur.trim().to_owned());
            cur.clear();
        } else {
            cur.push_str(word);
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_owned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn where_terms_split_on_and_outside_quotes() {
        assert_eq!(
            split_and("OBJECT_TYPE = 'TABLE' and OBJECT_NAME='a and b'"),
            vec!["OBJECT_TYPE = 'TABLE'", "OBJECT_NAME='a and b'"]
        );
    }

    #[test]
    fn sleep_column_is_named_as_written() {
        assert_eq!(fmt_secs_ms(2000), "2");
        assert_eq!(fmt_secs_ms(1500), "1.5");
    }
}
