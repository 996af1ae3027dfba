//! pt-online-schema-change (Percona Toolkit 3.x) as a client: the statements it sends,
//! in its order (`main()` of `bin/pt-online-schema-change`), on its one connection.
//!
//! ```text
//!   SetVars      SET SESSION lock_wait_timeout=60 / innodb_lock_wait_timeout=1 (--set-vars)
//!   ShowCreate   SHOW CREATE TABLE `db`.`t`
//!   CreateNew    CREATE TABLE `db`.`_t_new` (...)   (the definition, renamed)
//!   AlterNew     ALTER TABLE `db`.`_t_new` <--alter>
//!   Triggers     CREATE TRIGGER `pt_osc_db_t_del|upd|ins` AFTER ... BEGIN ... END
//!                (each tried --tries create_triggers times, 1 s apart)
//!   Boundary     SELECT /*!40001 SQL_NO_CACHE */ `id` FROM t FORCE INDEX(`PRIMARY`)
//!                WHERE ((`id` >= 'lo')) ORDER BY `id` LIMIT chunk-1, 2
//!                /*next chunk boundary*/ (NibbleIterator's `ub_sql`: this chunk's
//!                upper boundary and the next one's lower)
//!   Copy         INSERT LOW_PRIORITY IGNORE INTO _t_new (...) SELECT ... FROM t
//!                FORCE INDEX(PRIMARY) WHERE ((id >= 'lo')) AND ((id <= 'hi'))
//!                LOCK IN SHARE MODE     a chunk sized to take --chunk-time
//!                (WeightedAvgRate: rates weighted 0.75 old / new); a lock wait
//!                timeout retried --tries copy_rows times, 0.25 s apart
//!   CheckLoad    SHOW GLOBAL STATUS LIKE 'Threads_running' after each chunk:
//!                >= --critical-load aborts, >= --max-load waits 1 s and asks again
//!   Analyze      ANALYZE TABLE `db`.`_t_new` (--analyze-before-swap)
//!   Swap         RENAME TABLE `db`.`t` TO `db`.`_t_old`, `db`.`_t_new` TO `db`.`t`
//!                (--tries swap_tables: 10, 1 s apart)
//!   DropOld      DROP TABLE IF EXISTS `db`.`_t_old`  (the profile's DROP path)
//!   DropTriggers DROP TRIGGER IF EXISTS ... (gone with the old table: warnings)
//! ```
//!
//! Simplifications: the boundary query is sent and costs what it reads, but the
//! boundaries are taken from the table's primary-key values (what it returns: the
//! simulator's SELECT reports no values); the `EXPLAIN`s of `--check-plan` are not
//! sent; the columns are the SQL layer's.

use super::{rows_of, Sent};
use crate::scenario::tool::{PtOscOptions, Tries};
use crate::sim::catalog::TableId;
use crate::sim::{Next, Sim, StatementOutcome};
use crate::time::Tick;
use crate::ThreadId;

/// `--check-interval`: the sleep between two load checks.
const CHECK_INTERVAL: Tick = Tick::SECOND;
/// `WeightedAvgRate`'s weight of the past.
const RATE_WEIGHT: f64 = 0.75;

/// pt-online-schema-change's state.
#[derive(Clone, Debug)]
pub(super) struct PtOsc {
    o: PtOscOptions,
    db: String,
    conn: u32,
    step: PtStep,
    /// The statement it waits for.
    pending: Option<u32>,
    /// Failed tries of the current operation.
    tries: u32,
    /// The copy's next lower boundary, and the current chunk's upper one.
    lo: i64,
    hi: i64,
    chunk_size: u64,
    /// `WeightedAvgRate`: rows and seconds, decayed.
    avg_n: f64,
    avg_t: f64,
    chunk_started: Tick,
    throttle_started: Option<Tick>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PtStep {
    SetLockWait,
    SetInnodbLockWait,
    ShowCreate,
    CreateNew,
    AlterNew,
    /// The n-th trigger (del, upd, ins).
    Trigger(u8),
    Boundary,
    Copy,
    CheckLoad,
    Analyze,
    Swap,
    DropOld,
    /// The n-th DROP TRIGGER.
    DropTrigger(u8),
}

const TRIGGERS: [&str; 3] = ["del", "upd", "ins"];

impl PtOsc {
    pub(super) fn new(o: PtOscOptions, schema: &str, conn: u32) -> PtOsc {
        let db = o.database.clone().unwrap_or_else(|| schema.to_owned());
        let chunk_size = o.chunk_size;
        PtOsc {
            o,
            db,
            conn,
            step: PtStep::SetLockWait,
            pending: None,
            tries: 0,
            lo: i64::MIN,
            hi: 0,
            chunk_size,
            avg_n: 0.0,
            avg_t: 0.0,
            chunk_started: Tick::ZERO,
            throttle_started: None,
        }
    }

    fn q(&self, table: &str) -> String {
        format!("`{}`.`{table}`", self.db)
    }

    fn orig(&self) -> String {
        self.q(&self.o.table)
    }

    fn new_table(&self) -> String {
        self.q(&format!("_{}_new", self.o.table))
    }

    fn old_table(&self) -> String {
        self.q(&format!("_{}_old", self.o.table))
    }

    fn trigger_name(&self, i: u8) -> String {
        let prefix: String = format!("pt_osc_{}_{}", self.db, self.o.table)
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("{prefix}_{}", TRIGGERS[usize::from(i)])
    }

    /// `create_triggers()`: the i-th trigger's statement, as the tool builds it.
    fn trigger_sql(&self, i: u8, columns: &[String], pk: &str) -> String {
        let name = self.trigger_name(i);
        let (orig, new) = (self.orig(), self.new_table());
        let qcols: Vec<String> = columns.iter().map(|c| format!("`{c}`")).collect();
        let new_vals: Vec<String> = columns.iter().map(|c| format!("NEW.`{c}`")).collect();
        let (qcols, new_vals) = (qcols.join(", "), new_vals.join(", "));
        let del_index = format!("{new}.`{pk}` <=> OLD.`{pk}`");
        let handler = "DECLARE CONTINUE HANDLER FOR 1146 begin end; ";
        let head = format!("CREATE TRIGGER `{name}` AFTER");
        match TRIGGERS[usize::from(i)] {
            "del" => format!(
                "{head} DELETE ON {orig} FOR EACH ROW BEGIN {handler}DELETE IGNORE FROM {new} WHERE {del_index}; END "
            ),
            "upd" => format!(
                "{head} UPDATE ON {orig} FOR EACH ROW BEGIN {handler}DELETE IGNORE FROM {new} WHERE !(OLD.`{pk}` <=> NEW.`{pk}`) AND {del_index}; REPLACE INTO {new} ({qcols}) VALUES ({new_vals}); END "
            ),
            _ => format!(
                "{head} INSERT ON {orig} FOR EACH ROW BEGIN {handler}REPLACE INTO {new} ({qcols}) VALUES ({new_vals});END "
            ),
        }
    }

    /// The copy statement of chunk `[lo, hi]`.
    fn copy_sql(&self, columns: &[String], pk: &str) -> String {
        let cols: Vec<String> = columns.iter().map(|c| format!("`{c}`")).collect();
        let cols = cols.join(", ");
        format!(
            "INSERT LOW_PRIORITY IGNORE INTO {} ({cols}) SELECT {cols} FROM {} FORCE INDEX(`PRIMARY`) WHERE ((`{pk}` >= '{}')) AND ((`{pk}` <= '{}')) LOCK IN SHARE MODE /*pt-online-schema-change copy nibble*/",
            self.new_table(),
            self.orig(),
            self.lo,
            self.hi
        )
    }

    /// NibbleIterator's `ub_sql`: from the chunk's lower boundary, the row at the
    /// chunk's size (its upper boundary) and the one after it (the next lower).
    fn boundary_sql(&self, pk: &str) -> String {
        format!(
            "SELECT /*!40001 SQL_NO_CACHE */ `{pk}` FROM {} FORCE INDEX(`PRIMARY`) WHERE ((`{pk}` >= '{}')) ORDER BY `{pk}` LIMIT {}, 2 /*next chunk boundary*/",
            self.orig(),
            self.lo,
            self.chunk_size.saturating_sub(1)
        )
    }

    /// `WeightedAvgRate::update()`: the next chunk's size after `n` rows in `t`.
    fn adjust_chunk(&mut self, n: u64, t: Tick) {
        if self.o.chunk_time_ms == 0 {
            return;
        }
        let secs = t.as_secs_f64().max(1e-6);
        if self.avg_n > 0.0 && self.avg_t > 0.0 {
            self.avg_n = self.avg_n * RATE_WEIGHT + n as f64;
            self.avg_t = self.avg_t * RATE_WEIGHT + secs;
        } else {
            self.avg_n = n as f64;
            self.avg_t = secs;
        }
        let rate = self.avg_n / self.avg_t;
        let target = self.o.chunk_time_ms as f64 / 1000.0;
        self.chunk_size = ((rate * target) as u64).max(1);
    }
}

impl Sim {
    /// One step of pt-online-schema-change: send the step's statement, or read its
    /// result and move on.
    pub(super) fn step_pt_osc(&mut self, _t: ThreadId, view: usize, p: &mut PtOsc) -> Next {
        if let Some(id) = p.pending {
            match self.tool_result(id) {
                Sent::Pending => return Next::Parked,
                Sent::Ok(msg) => {
                    p.pending = None;
                    return self.pt_osc_done(view, p, id, &msg);
                }
                Sent::Failed(code, msg) => {
                    p.pending = None;
                    return self.pt_osc_failed(view, p, code, &msg);
                }
            }
        }
        let sql = match self.pt_osc_next_sql(view, p) {
            Ok(Some(sql)) => sql,
            Ok(None) => return Next::After(Tick::ZERO),
            Err(next) => return next,
        };
        match self.tool_send(p.conn, &sql) {
            Ok(id) => {
                p.pending = Some(id);
                Next::Parked
            }
            Err(e) => self.tool_fail(view, format!("Error: {e}")),
        }
    }

    /// The statement the step sends (`None`: the step moved on without one).
    fn pt_osc_next_sql(&mut self, view: usize, p: &mut PtOsc) -> Result<Option<String>, Next> {
        let Some(orig_id) = self.tool_table(&p.db, &p.o.table) else {
            let m = format!("The original table {} does not exist.", p.orig());
            return Err(self.tool_fail(view, m));
        };
        let def = &self.catalog[orig_id].def;
        let columns = def.columns.clone();
        let pk = def.pk.clone().unwrap_or_else(|| "id".into());
        Ok(Some(match p.step {
            PtStep::SetLockWait => {
                format!("SET SESSION lock_wait_timeout={}", p.o.lock_wait_timeout_s)
            }
            PtStep::SetInnodbLockWait => format!(
                "SET SESSION innodb_lock_wait_timeout={}",
                p.o.innodb_lock_wait_timeout_s
            ),
            PtStep::ShowCreate => format!("SHOW CREATE TABLE {}", p.orig()),
            PtStep::CheckLoad => "SHOW GLOBAL STATUS LIKE 'Threads_running'".into(),
            PtStep::CreateNew => unreachable!("sent with SHOW CREATE TABLE's result"),
            PtStep::AlterNew => format!("ALTER TABLE {} {}", p.new_table(), p.o.alter),
            PtStep::Trigger(i) => {
                if i == 0 && p.tries == 0 {
                    self.tool_say(view, "Creating triggers...".into(), false);
                }
                p.trigger_sql(i, &columns, &pk)
            }
            PtStep::Boundary => {
                let keys = &self.catalog[orig_id].keys;
                let chunk = keys.within(p.lo, i64::MAX, Some(p.chunk_size));
                let Some(&(_, hi)) = chunk.last() else {
                    self.tool_say(view, "Copied rows OK.".into(), false);
                    p.step = PtStep::Analyze;
                    return Ok(None);
                };
                if p.lo == i64::MIN {
                    p.lo = chunk[0].0;
                    self.tool_say(view, "Copying approximately all rows...".into(), false);
                }
                p.hi = hi;
                self.tool_view(view).state = "copying rows".into();
                p.boundary_sql(&pk)
            }
            PtStep::Copy => {
                p.chunk_started = self.sched.now;
                p.copy_sql(&columns, &pk)
            }
            PtStep::Analyze => format!(
                "ANALYZE TABLE {} /* pt-online-schema-change */",
                p.new_table()
            ),
            PtStep::Swap => {
                self.tool_view(view).state = "swapping tables".into();
                format!(
                    "RENAME TABLE {} TO {}, {} TO {}",
                    p.orig(),
                    p.old_table(),
                    p.new_table(),
                    p.orig()
                )
            }
            PtStep::DropOld | PtStep::DropTrigger(_) => self.pt_osc_cleanup_sql(p),
        }))
    }

    /// After the swap: drop the old table, then the triggers.
    fn pt_osc_cleanup_sql(&self, p: &PtOsc) -> String {
        match p.step {
            PtStep::DropOld => format!("DROP TABLE IF EXISTS {}", p.old_table()),
            PtStep::DropTrigger(i) => {
                format!("DROP TRIGGER IF EXISTS `{}`.`{}`", p.db, p.trigger_name(i))
            }
            _ => unreachable!("cleanup after the swap"),
        }
    }

    /// The step's statement succeeded: on to the next.
    fn pt_osc_done(&mut self, view: usize, p: &mut PtOsc, id: u32, msg: &str) -> Next {
        p.tries = 0;
        p.step = match p.step {
            PtStep::SetLockWait => PtStep::SetInnodbLockWait,
            PtStep::SetInnodbLockWait => PtStep::ShowCreate,
            PtStep::ShowCreate => return self.pt_osc_create_new(view, p, id),
            PtStep::CreateNew => {
                self.tool_say(
                    view,
                    format!("Altering new table {}...", p.new_table()),
                    false,
                );
                PtStep::AlterNew
            }
            PtStep::AlterNew => PtStep::Trigger(0),
            PtStep::Trigger(i) if usize::from(i) + 1 < TRIGGERS.len() => PtStep::Trigger(i + 1),
            PtStep::Trigger(_) => PtStep::Boundary,
            PtStep::Boundary => PtStep::Copy,
            PtStep::Copy => {
                let rows = rows_of(msg);
                let took = self.sched.now - p.chunk_started;
                let v = self.tool_view(view);
                v.rows_copied += rows;
                v.chunks += 1;
                p.adjust_chunk(rows, took);
                p.lo = p.hi.saturating_add(1);
                return self.pt_osc_check_load(view, p);
            }
            PtStep::CheckLoad => return self.pt_osc_load_checked(view, p, id),
            PtStep::Analyze => PtStep::Swap,
            PtStep::Swap => {
                self.tool_say(view, "Swapped original and new tables OK.".into(), false);
                if !p.o.drop_old_table {
                    PtStep::DropTrigger(0)
                } else {
                    self.tool_say(view, "Dropping old table...".into(), false);
                    PtStep::DropOld
                }
            }
            PtStep::DropOld => PtStep::DropTrigger(0),
            PtStep::DropTrigger(i) if usize::from(i) + 1 < TRIGGERS.len() => {
                PtStep::DropTrigger(i + 1)
            }
            PtStep::DropTrigger(_) => return self.tool_done(view),
        };
        Next::After(Tick::ZERO)
    }

    /// SHOW CREATE TABLE answered: create the new table from its definition.
    fn pt_osc_create_new(&mut self, view: usize, p: &mut PtOsc, id: u32) -> Next {
        let ddl = match &self.sql.statements[id as usize].outcome {
            Some(StatementOutcome::Ok {
                result: Some(rs), ..
            }) => rs.rows.first().and_then(|r| r.get(1).cloned().flatten()),
            _ => None,
        };
        let Some(ddl) = ddl else {
            return self.tool_fail(view, "SHOW CREATE TABLE returned no definition".into());
        };
        let head = format!("CREATE TABLE `{}`", p.o.table);
        let sql = ddl.replacen(&head, &format!("CREATE TABLE {}", p.new_table()), 1);
        self.tool_say(
            view,
            format!("Creating new table {}...", p.new_table()),
            false,
        );
        p.step = PtStep::CreateNew;
        match self.tool_send(p.conn, &sql) {
            Ok(id) => {
                p.pending = Some(id);
                Next::Parked
            }
            Err(e) => self.tool_fail(view, format!("Error creating new table: {e}")),
        }
    }

    /// After a chunk: `SHOW GLOBAL STATUS LIKE 'Threads_running'` (`MySQLStatusWaiter`).
    fn pt_osc_check_load(&mut self, _view: usize, p: &mut PtOsc) -> Next {
        p.step = PtStep::CheckLoad;
        Next::After(Tick::ZERO)
    }

    /// The load is known: abort above --critical-load, wait above --max-load.
    fn pt_osc_load_checked(&mut self, view: usize, p: &mut PtOsc, id: u32) -> Next {
        let running = match &self.sql.statements[id as usize].outcome {
            Some(StatementOutcome::Ok {
                result: Some(rs), ..
            }) => rs
                .rows
                .first()
                .and_then(|r| r.get(1).cloned().flatten())
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0),
            _ => 0,
        };
        let now = self.sched.now;
        if running >= p.o.critical_load.threads_running {
            let m = format!(
                "Threads_running={running} exceeds its critical threshold {}",
                p.o.critical_load.threads_running
            );
            return self.tool_fail(view, m);
        }
        if running >= p.o.max_load.threads_running {
            if p.throttle_started.is_none() {
                p.throttle_started = Some(now);
                let m = format!(
                    "Pausing because Threads_running={running} (--max-load {}).",
                    p.o.max_load.threads_running
                );
                self.tool_say(view, m, false);
                self.tool_view(view).state = "throttled: Threads_running".into();
            }
            return Next::After(CHECK_INTERVAL);
        }
        if let Some(since) = p.throttle_started.take() {
            self.tool_view(view).throttled_ms += (now - since).as_ms();
        }
        p.step = PtStep::Boundary;
        Next::After(Tick::ZERO)
    }

    /// The step's statement failed: retry a lock wait timeout or a deadlock as
    /// `--tries` says, give up otherwise.
    fn pt_osc_failed(&mut self, view: usize, p: &mut PtOsc, code: u16, msg: &str) -> Next {
        let tries: Option<Tries> = match p.step {
            PtStep::Trigger(_) | PtStep::DropTrigger(_) => Some(p.o.triggers_tries),
            PtStep::Copy => Some(p.o.copy_tries),
            PtStep::Swap => Some(p.o.swap_tries),
            _ => None,
        };
        let retryable = matches!(code, 1205 | 1213);
        if code == 1205 {
            self.tool_view(view).lock_wait_timeouts += 1;
        }
        match tries {
            Some(t) if retryable && p.tries + 1 < t.tries => {
                p.tries += 1;
                let m = format!("{msg} ({code}); try {} of {}", p.tries + 1, t.tries);
                self.tool_say(view, m, true);
                Next::After(t.wait)
            }
            _ => {
                let what = match p.step {
                    PtStep::Trigger(_) => "Error creating triggers",
                    PtStep::Copy => "Error copying rows",
                    PtStep::Swap => "Error swapping tables",
                    _ => "Error",
                };
                self.tool_fail(view, format!("{what}: ERROR {code}: {msg}"))
            }
        }
    }

    /// The live table `name` of schema `db`, if there is one.
    pub(super) fn tool_table(&self, db: &str, name: &str) -> Option<TableId> {
        let t = crate::sql::TableName {
            schema: Some(db.to_owned()),
            table: name.to_owned(),
        };
        self.catalog
            .resolve(&self.scenario.schema, &t)
            .first()
            .copied()
    }
}
