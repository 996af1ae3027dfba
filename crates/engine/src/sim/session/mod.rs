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
//!    │        engine's (sim/ddl, sim/alter.rs): see `DdlOp`
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
//! Simplification: statements act on row counts and pages, never on values (the
//! primary-key values excepted, `keys.rs`: an INSERT of a value that is there fails
//! with 1062): an `UPDATE` reports every matched row as changed, a `SELECT` reports how many rows it
//! returns but not their contents, and a search on the secondary column `k` finds one
//! row per value (sysbench loads `k` uniformly), placed as if `k` were the id.
//!
//! The files, in the order a statement meets them:
//!
//! | file | what it models |
//! |---|---|
//! | `mod.rs` | the SQL layer's state (`SqlLayer`), sessions, statements, `submit_to` |
//! | `statement.rs` | the statement state machine (`mysql_execute_command()`) |
//! | `lock_plan.rs` | which metadata locks a statement takes: a pure function |
//! | `locks.rs` | taking them (`MDL_context::acquire_lock()`), and row locks |
//! | `trx.rs` | transactions, implicit commit |
//! | `dml.rs` | SELECT/INSERT/UPDATE/DELETE: rows reached, pages walked |
//! | `insert_select.rs` | INSERT/REPLACE ... SELECT: the source's locking read, row by row into the target |
//! | `key_write.rs` | writing key values into or out of a table (INSERT ... SELECT, triggers' bodies) |
//! | `autoinc.rs` | the AUTO-INC lock by `innodb_autoinc_lock_mode` |
//! | `trigger_run.rs` | triggers at work: prelocking their tables, running their bodies |
//! | `triggers.rs` | CREATE TRIGGER, DROP TRIGGER, SHOW TRIGGERS |
//! | `keys.rs` | the primary-key values a table holds, and their undo (1062) |
//! | `plan.rs` | DDL planning: checks, MySQL's errors, the phases (`DdlOp`) |
//! | `ddl_phases.rs` | running the phases, starting the storage-engine executors |
//! | `vars.rs` | `SET`, `@@variables`, SELECT of expressions |
//! | `kill.rs` | KILL and disconnects |
//! | `show.rs` | SHOW PROCESSLIST, performance_schema, information_schema, ... |

mod autoinc;
mod cpu;
mod ddl_phases;
mod dml;
mod insert_select;
mod key_write;
mod kill;
mod lock_plan;
mod locked_tables;
mod plan;
mod show;
mod statement;
mod trigger_run;
mod triggers;
mod trx;
mod vars;

pub(in crate::sim) use crate::sim::catalog::table_def::{SecondaryIndex, TableDef};
use crate::sim::catalog::TableId;
pub use crate::sim::locks::MdlPoll;
pub(in crate::sim) use crate::sim::locks::{RowPoll, RowRange};
use plan::DdlOp;
pub use show::ProcesslistRow;

use crate::events::EventKind;
use crate::mdl::{MdlError, MdlRequest, MdlTicketId};
use crate::resultset::{secs, ResultSet};
use crate::rng::SimRng;
use crate::sim::client::PageWalk;
use crate::sim::{Sim, Thread};
use crate::sql::{Command, KillKind, SqlError};
use crate::time::Tick;
use crate::ThreadId;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};

/// Statement parse, privilege check and the like: the time a trivial statement takes.
pub(in crate::sim) const STATEMENT_OVERHEAD: Tick = Tick::from_us(50);

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
pub(in crate::sim) struct SqlLayer {
    /// The metadata-lock manager (`MDL_map` and every `MDL_context`).
    pub(super) mdl: crate::mdl::MdlManager,
    /// Threads parked on a metadata-lock request, by context (processlist id).
    pub(super) mdl_waiters: BTreeMap<u32, ThreadId>,
    /// How finished waits ended, until the woken thread reads it.
    pub(super) mdl_outcomes: BTreeMap<u32, Result<MdlTicketId, MdlError>>,
    /// Granted row locks of console sessions' transactions.
    pub(super) row_locks: Vec<crate::sim::locks::RowLock>,
    /// Console sessions waiting for a row lock.
    pub(super) row_waits: BTreeMap<u32, crate::sim::locks::RowWait>,
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
    /// The scenario script's other clients: `session = N` → its connection, opened
    /// when its first step came due.
    pub(super) script_sessions: BTreeMap<u32, u32>,
    /// Every statement given to `Sim::execute`, with its time.
    pub(super) commands: Vec<(Tick, String)>,
}

impl SqlLayer {
    /// Session `id`'s transaction, started at `now` if it has none
    /// (`trx_start_if_not_started()`).
    pub(super) fn trx_of(&mut self, id: u32, now: Tick) -> &mut Trx {
        let next_id = &mut self.next_trx_id;
        let s = self.sessions.get_mut(&id).expect("session");
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
                key_undo: Vec::new(),
            }
        })
    }

    /// Sets session `session`'s processlist state, recording it in its running
    /// statement's states; false if nothing changed (no such session, same state).
    fn set_state(&mut self, session: u32, state: &'static str) -> bool {
        let Some(s) = self.sessions.get_mut(&session) else {
            return false;
        };
        if s.state == state {
            return false;
        }
        s.state = state;
        if let Some(stmt) = s.running {
            let rec = &mut self.statements[stmt as usize];
            if !state.is_empty() && rec.states_seen.last().map(String::as_str) != Some(state) {
                rec.states_seen.push(state.to_owned());
            }
        }
        true
    }

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
            script_sessions: BTreeMap::new(),
            commands: Vec::new(),
        }
    }
}

/// A session's variables (`SET [SESSION]`); `SET GLOBAL` changes the defaults new
/// sessions start with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) struct SessionVars {
    pub(super) autocommit: bool,
    pub(super) lock_wait_timeout_s: u64,
    pub(super) innodb_lock_wait_timeout_s: u64,
}

/// An InnoDB transaction (`trx_t`) as this model keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) struct Trx {
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
    /// The key changes it made, in order, undone by a rollback (`trx->undo_no`).
    pub(super) key_undo: Vec<(TableId, crate::sim::catalog::keys::KeyUndo)>,
}

/// A connection.
#[derive(Clone, Debug)]
pub(in crate::sim) struct Session {
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
    pub(super) locked_tables: Vec<(TableId, bool)>,
    /// `FLUSH TABLES WITH READ LOCK` is held.
    pub(super) global_read_lock: bool,
    /// `KILL QUERY` / `KILL` arrived for the running statement.
    pub(super) killed: Option<KillKind>,
    /// The connection was killed.
    pub(super) gone: bool,
    /// The client this connection belongs to: its first connection's id (a console
    /// tab, a script's session). A reconnect keeps the client and gets a new id.
    pub(super) client: u32,
    /// After the connection went away, the one the client reconnected with.
    pub(super) reconnected_as: Option<u32>,
    /// The thread of the program this connection belongs to (an online schema-change
    /// tool, `sim/tools`), woken when a statement of it finishes.
    pub(super) watcher: Option<ThreadId>,
    /// The thread runs a CPU burst on a core or waits in the run queue for one
    /// (`sim/cpu.rs`, with `server.cpus` > 0): a KILL is seen once the burst ends.
    pub(super) on_cpu: bool,
}

/// A console session's thread.
#[derive(Clone, Debug)]
pub(in crate::sim) struct SessionThread {
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
pub(in crate::sim) enum Step {
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
    /// The triggers' bodies for the statement's rows (`trigger_run.rs`).
    Triggers,
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

/// A statement being run.
#[derive(Clone, Debug)]
pub(in crate::sim) struct Running {
    stmt: u32,
    command: Command,
    step: Step,
    /// Metadata locks to take, in order, and the tickets got.
    plan: Vec<MdlRequest>,
    tickets: Vec<MdlTicketId>,
    /// The session's tickets when the statement started (`MDL_savepoint`).
    savepoint: Vec<MdlTicketId>,
    /// Its table is open: an error from here on keeps the statement's metadata locks
    /// to the transaction's end (`Sim::fail`).
    opened: bool,
    walk: PageWalk,
    /// Page work on other tables, walked after `walk` in order: an INSERT ... SELECT's
    /// target, the tables triggers wrote.
    walks: Vec<(TableId, Vec<crate::workload::PageOp>)>,
    /// The table a DML statement changes (its `walk` may be of another: an INSERT ...
    /// SELECT reads its source first).
    subject: Option<TableId>,
    row_range: Option<RowRange>,
    /// An INSERT's rows' key values, checked one by one for duplicates (`dml.rs`).
    insert: Option<Box<dml::InsertKeys>>,
    /// An INSERT ... SELECT under way (`insert_select.rs`).
    insert_select: Option<Box<insert_select::InsertSelectRun>>,
    /// The triggers' writes still to make (`trigger_run.rs`).
    trigger_writes: Vec<key_write::KeyWrite>,
    /// The transaction's key undo when the statement began: a failed statement's
    /// key changes after it are undone (the statement's rollback).
    undo_mark: usize,
    rows_scanned: u64,
    rows_matched: u64,
    rows_changed: u64,
    /// Of `rows_changed`, the rows inserted, and their CPU by the indexes of the
    /// tables they went into ([`Sim::insert_row_cpu`]).
    rows_inserted: u64,
    insert_cpu: Tick,
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
    /// The rows' CPU still to run on a core (with `server.cpus` > 0), in bursts.
    cpu_left: Tick,
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
                client: id,
                reconnected_as: None,
                watcher: None,
                on_cpu: false,
            },
        );
        id
    }

    /// Opens a connection for a program whose thread `watcher` is woken each time
    /// one of its statements finishes (an online schema-change tool reading results).
    pub(in crate::sim) fn connect_program(&mut self, watcher: ThreadId) -> u32 {
        let id = self.connect();
        if let Some(s) = self.sql.sessions.get_mut(&id) {
            s.watcher = Some(watcher);
        }
        id
    }

    /// Console sessions (clients: a tab, a script's session), each by the processlist
    /// id of its first connection, in order. A statement's `session` is one of these.
    pub fn console_sessions(&self) -> Vec<u32> {
        self.sql
            .sessions
            .values()
            .filter(|s| s.client == s.id)
            .map(|s| s.id)
            .collect()
    }

    /// Every console connection's processlist id, reconnections included.
    pub fn console_connections(&self) -> Vec<u32> {
        self.sql.sessions.keys().copied().collect()
    }

    /// The console session (its first connection's id, a console tab) that
    /// connection `connection` belongs to: itself, or the session whose client
    /// reconnected with it; `None` for a workload thread or an unknown id.
    pub fn client_of(&self, connection: u32) -> Option<u32> {
        self.sql.sessions.get(&connection).map(|s| s.client)
    }

    /// The connection console session `session` uses now: itself, or the one its
    /// client reconnected with after a KILL (`CONNECTION_ID()`, the processlist id).
    pub fn connection_of(&self, session: u32) -> u32 {
        let mut id = session;
        while let Some(next) = self.sql.sessions.get(&id).and_then(|s| s.reconnected_as) {
            id = next;
        }
        id
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
    ///
    /// On a connection that was killed, the first statement fails with 2006 and the
    /// client reconnects (`mysql.cc` `reconnect()`: a new connection id, the session's
    /// variables and transaction reset); the rest run on the new connection.
    pub fn submit_to(&mut self, session: u32, sql: &str) -> Result<Vec<u32>, SqlError> {
        let parsed = crate::sql::parse(sql)?;
        self.queue_parsed(session, parsed)
    }

    /// Queues `sql` on console session `session` as one query, `;` and all (a
    /// program's `COM_QUERY`, not the `mysql` client's `;`-split lines): how an online
    /// schema-change tool sends a trigger with a compound body. Returns its id.
    pub fn submit_one(&mut self, session: u32, sql: &str) -> Result<u32, SqlError> {
        let parsed = crate::sql::parse_one(sql)?;
        Ok(self.queue_parsed(session, vec![parsed])?[0])
    }

    fn queue_parsed(
        &mut self,
        session: u32,
        parsed: Vec<crate::sql::Parsed>,
    ) -> Result<Vec<u32>, SqlError> {
        let Some(s) = self.sql.sessions.get(&session) else {
            return Err(SqlError::unknown_thread(u64::from(session)));
        };
        let client = s.client;
        let mut ids = Vec::new();
        for p in parsed {
            let id = self.sql.statements.len() as u32;
            self.sql.statements.push(StatementRecord {
                id,
                session: client,
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
        self.queue_statements(self.connection_of(client), &ids);
        Ok(ids)
    }

    /// Gives statements `ids` to connection `conn` (one that went away sends the first
    /// back with 2006 and reconnects for the rest) and wakes it.
    pub(in crate::sim) fn queue_statements(&mut self, conn: u32, ids: &[u32]) {
        let mut conn = conn;
        let mut ids = ids;
        if self.sql.sessions[&conn].gone {
            let Some((&first, rest)) = ids.split_first() else {
                return;
            };
            conn = self.reconnect(conn, first);
            ids = rest;
        }
        let s = self.sql.sessions.get_mut(&conn).expect("a connection");
        s.queue.extend(ids.iter().copied());
        if s.idle && !ids.is_empty() {
            s.idle = false;
            let t = s.thread;
            self.sched.schedule_thread(self.sched.now, t);
        }
    }

    // ---- the thread ------------------------------------------------------------------

    pub(super) fn set_state(&mut self, session: u32, state: &'static str) {
        if self.sql.set_state(session, state) {
            self.emit(EventKind::SessionState {
                session,
                state: state.to_owned(),
            });
        }
    }

    fn schema(&self) -> String {
        self.scenario.schema.clone()
    }

    // ---- DDL -----------------------------------------------------------------------

    // ---- variables ---------------------------------------------------------------------

    /// The metadata-lock manager, for the views built on it.
    pub(crate) fn mdl(&self) -> &crate::mdl::MdlManager {
        &self.sql.mdl
    }
}

/// The variables SHOW VARIABLES lists, and whether they can be set.
pub(in crate::sim) const VARIABLES: [(&str, bool); 15] = [
    ("autocommit", true),
    ("innodb_adaptive_hash_index", true),
    ("innodb_autoinc_lock_mode", false),
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
