//! gh-ost as a client: the statements `go/logic/applier.go` sends, in the order
//! `Migrator.Migrate()` and `atomicCutOver()` send them, on three connections (the
//! applier's, the cut-over's lock connection, its rename connection), and its binlog
//! streamer reading the source's binary log (`sim/binlog.rs`).
//!
//! ```text
//!   CreateGhost   create /* gh-ost */ table `db`.`_t_gho` like `db`.`t`
//!   AlterGhost    alter /* gh-ost */ table `db`.`_t_gho` <--alter>
//!   Changelog     create /* gh-ost */ table `db`.`_t_ghc` (...)
//!   Migrate       one writer (executeWriteFuncs): binlog row events of t first,
//!                 --dml-batch-size at a time (replace into _t_gho ... values ...),
//!                 else the next --chunk-size copy (insert ignore into _t_gho (select
//!                 ... lock in share mode)); each write waits while throttled
//!                 (Threads_running >= --max-load, replica lag > --max-lag-millis;
//!                 --critical-load aborts), checking every 250 ms
//!   cut-over      (atomicCutOver, each attempt retried --default-retries times 1 s apart)
//!     lock conn     set session lock_wait_timeout:=2 x --cut-over-lock-timeout-seconds
//!     applier       create table `_t_del` (...) comment='ghost-cut-over-sentry'
//!     lock conn     lock tables `t` write, `_t_del` write      (1205 after the timeout)
//!     applier       the binlog backlog of t applied (waitForEventsUpToLock)
//!     rename conn   set session lock_wait_timeout:=--cut-over-lock-timeout-seconds
//!                   rename table `t` to `_t_del`, `_t_gho` to `t`   (blocks)
//!     (the rename seen waiting on a metadata lock in the processlist)
//!     lock conn     drop table if exists `_t_del`; unlock tables  -> the RENAME runs
//!   DropChangelog drop /* gh-ost */ table if exists `_t_ghc`  (the old table stays:
//!                 --ok-to-drop-table is off by default)
//! ```
//!
//! A failed attempt unlocks, drops the sentry and tries again after a second.
//!
//! Simplifications: the copy's range and chunk boundaries are read from the table's
//! primary-key values (what gh-ost's range queries return); a binlog row event's row
//! is named by its position on the table (`sim/binlog.rs`) and its other columns are
//! written as constants; the heartbeat is not written (the replica's lag is read as
//! its heartbeat would measure it).

use super::{rows_of, Sent};
use crate::scenario::tool::GhOstOptions;
use crate::sim::binlog::EntryKind;
use crate::sim::{Next, Sim};
use crate::time::Tick;
use crate::ThreadId;

/// `throttle()`'s sleep between checks.
const THROTTLE_POLL: Tick = Tick::from_ms(250);
/// `retryOperation()`'s sleep between tries.
const RETRY_SLEEP: Tick = Tick::SECOND;

/// gh-ost's connections.
const APPLIER: usize = 0;
const LOCKER: usize = 1;
const RENAMER: usize = 2;

/// gh-ost's state.
#[derive(Clone, Debug)]
pub(super) struct GhOst {
    o: GhOstOptions,
    db: String,
    conns: [u32; 3],
    reader: usize,
    step: GhStep,
    /// The statement the step waits for.
    pending: Option<u32>,
    /// The cut-over's RENAME, while it runs.
    rename: Option<u32>,
    /// The copy: the last key copied, and the range's end (read at the start).
    copied_to: i64,
    range_end: Option<i64>,
    /// Binlog transactions, and their row events, in the batch being applied.
    applying: u64,
    applying_rows: u64,
    throttle_started: Option<Tick>,
    /// The copy's last key before the chunk in flight (restored if it fails).
    copied_before: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GhStep {
    CreateGhost,
    AlterGhost,
    Changelog,
    /// Copy and apply.
    Migrate,
    CutLockTimeout,
    CutSentry,
    CutLock,
    CutDrain,
    CutRenameTimeout,
    CutRename,
    CutWaitBlocked,
    CutDropSentry,
    CutUnlock,
    CutWaitRename,
    /// A failed attempt: unlock, drop the sentry, sleep, try again.
    AbortUnlock,
    AbortDropSentry,
    DropChangelog,
}

impl GhOst {
    pub(super) fn new(o: GhOstOptions, schema: &str, conns: [u32; 3], reader: usize) -> GhOst {
        let db = o.database.clone().unwrap_or_else(|| schema.to_owned());
        GhOst {
            o,
            db,
            conns,
            reader,
            step: GhStep::CreateGhost,
            pending: None,
            rename: None,
            copied_to: i64::MIN,
            range_end: None,
            applying: 0,
            applying_rows: 0,
            throttle_started: None,
            copied_before: i64::MIN,
        }
    }

    /// Its binlog reader.
    pub(super) fn reader(&self) -> usize {
        self.reader
    }

    /// `db`.`t`, or `db`.`_t_<suffix>`.
    fn q(&self, suffix: &str) -> String {
        if suffix.is_empty() {
            format!("`{}`.`{}`", self.db, self.o.table)
        } else {
            format!("`{}`.`_{}_{suffix}`", self.db, self.o.table)
        }
    }
}

impl Sim {
    /// One step of gh-ost.
    pub(super) fn step_gh_ost(&mut self, _t: ThreadId, view: usize, g: &mut GhOst) -> Next {
        if let Some(id) = g.pending {
            match self.tool_result(id) {
                Sent::Pending => return Next::Parked,
                Sent::Ok(msg) => {
                    g.pending = None;
                    return self.gh_ost_ok(view, g, &msg);
                }
                Sent::Failed(code, msg) => {
                    g.pending = None;
                    return self.gh_ost_failed(view, g, code, &msg);
                }
            }
        }
        match g.step {
            GhStep::Migrate => self.gh_ost_migrate(view, g),
            GhStep::CutDrain => self.gh_ost_drain(view, g),
            GhStep::CutWaitBlocked => self.gh_ost_wait_blocked(view, g),
            GhStep::CutWaitRename => self.gh_ost_wait_rename(view, g),
            _ => {
                let (conn, sql) = self.gh_ost_sql(view, g);
                self.gh_ost_send(view, g, conn, &sql)
            }
        }
    }

    fn gh_ost_send(&mut self, view: usize, g: &mut GhOst, conn: usize, sql: &str) -> Next {
        match self.tool_send(g.conns[conn], sql) {
            Ok(id) => {
                if g.step == GhStep::CutRename {
                    g.rename = Some(id);
                    g.step = GhStep::CutWaitBlocked;
                    return Next::After(Tick::ZERO);
                }
                g.pending = Some(id);
                Next::Parked
            }
            Err(e) => self.tool_fail(view, format!("FATAL {e}")),
        }
    }

    /// The statement of a step that sends one, and its connection.
    fn gh_ost_sql(&mut self, view: usize, g: &GhOst) -> (usize, String) {
        let (orig, ghost, del) = (g.q(""), g.q("gho"), g.q("del"));
        let timeout = g.o.cut_over_lock_timeout_s;
        match g.step {
            GhStep::CreateGhost => (
                APPLIER,
                format!("create /* gh-ost */ table {ghost} like {orig}"),
            ),
            GhStep::AlterGhost => (APPLIER, format!("alter /* gh-ost */ table {ghost} {}", g.o.alter)),
            GhStep::Changelog => (APPLIER, format!(
                "create /* gh-ost */ table {} (id bigint unsigned auto_increment, last_update timestamp not null DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, hint varchar(64) charset ascii not null, value varchar(4096) charset ascii not null, primary key(id), unique key hint_uidx(hint)) auto_increment=256 comment='gh-ost changelog'",
                g.q("ghc")
            )),
            GhStep::CutLockTimeout => {
                self.tool_view(view).cut_over_attempts += 1;
                self.tool_view(view).state = "cut-over".into();
                (LOCKER, format!("set /* gh-ost */ session lock_wait_timeout:={}", 2 * timeout))
            }
            GhStep::CutSentry => (APPLIER, format!(
                "create /* gh-ost */ table {del} (id int auto_increment primary key) engine=InnoDB comment='ghost-cut-over-sentry'"
            )),
            GhStep::CutLock => (
                LOCKER,
                format!("lock /* gh-ost */ tables {orig} write, {del} write"),
            ),
            GhStep::CutRenameTimeout => (
                RENAMER,
                format!("set /* gh-ost */ session lock_wait_timeout:={timeout}"),
            ),
            GhStep::CutRename => (RENAMER, format!(
                "rename /* gh-ost */ table {orig} to {del}, {ghost} to {orig}"
            )),
            GhStep::CutDropSentry | GhStep::AbortDropSentry => (
                if g.step == GhStep::AbortDropSentry { APPLIER } else { LOCKER },
                format!("drop /* gh-ost */ table if exists {del}"),
            ),
            GhStep::CutUnlock | GhStep::AbortUnlock => {
                (LOCKER, "unlock /* gh-ost */ tables".to_owned())
            }
            GhStep::DropChangelog => (
                APPLIER,
                format!("drop /* gh-ost */ table if exists {}", g.q("ghc")),
            ),
            GhStep::Migrate | GhStep::CutDrain | GhStep::CutWaitBlocked | GhStep::CutWaitRename => {
                unreachable!("steps that send nothing of their own")
            }
        }
    }

    /// A step's statement succeeded.
    fn gh_ost_ok(&mut self, view: usize, g: &mut GhOst, msg: &str) -> Next {
        g.step = match g.step {
            GhStep::CreateGhost => GhStep::AlterGhost,
            GhStep::AlterGhost => GhStep::Changelog,
            GhStep::Changelog => {
                self.tool_say(view, "Row copy and binlog apply begin".into(), false);
                self.tool_view(view).state = "migrating".into();
                GhStep::Migrate
            }
            GhStep::Migrate | GhStep::CutDrain => {
                if g.applying > 0 {
                    for _ in 0..g.applying {
                        self.binlog.advance(g.reader);
                    }
                    self.tool_view(view).events_applied += g.applying_rows;
                    g.applying = 0;
                } else {
                    let v = self.tool_view(view);
                    v.rows_copied += rows_of(msg);
                    v.chunks += 1;
                }
                g.step
            }
            GhStep::CutLockTimeout => GhStep::CutSentry,
            GhStep::CutSentry => GhStep::CutLock,
            GhStep::CutLock => GhStep::CutDrain,
            GhStep::CutRenameTimeout => GhStep::CutRename,
            GhStep::CutDropSentry => GhStep::CutUnlock,
            GhStep::CutUnlock => GhStep::CutWaitRename,
            GhStep::AbortUnlock => GhStep::AbortDropSentry,
            GhStep::AbortDropSentry => return self.gh_ost_retry(view, g),
            GhStep::DropChangelog => return self.tool_done(view),
            GhStep::CutRename | GhStep::CutWaitBlocked | GhStep::CutWaitRename => g.step,
        };
        Next::After(Tick::ZERO)
    }

    /// A step's statement failed: a cut-over attempt ends (unlocked, sentry dropped,
    /// tried again); anything else is fatal.
    fn gh_ost_failed(&mut self, view: usize, g: &mut GhOst, code: u16, msg: &str) -> Next {
        if code == 1205 {
            self.tool_view(view).lock_wait_timeouts += 1;
        }
        let line = format!("Error {code}: {msg}");
        match g.step {
            GhStep::CutSentry | GhStep::CutLock | GhStep::CutRenameTimeout => {
                self.tool_say(view, line, true);
                g.step = GhStep::AbortUnlock;
                Next::After(Tick::ZERO)
            }
            GhStep::CutDropSentry | GhStep::CutUnlock | GhStep::AbortUnlock => {
                // Must UNLOCK regardless (AtomicCutOverMagicLock).
                g.step = if g.step == GhStep::CutDropSentry {
                    GhStep::CutUnlock
                } else {
                    GhStep::AbortDropSentry
                };
                Next::After(Tick::ZERO)
            }
            GhStep::AbortDropSentry => self.gh_ost_retry(view, g),
            GhStep::Migrate if code == 1205 || code == 1213 => {
                // retryOperation: the same write again after a second.
                if g.applying == 0 {
                    g.copied_to = g.copied_before;
                }
                g.applying = 0;
                Next::After(RETRY_SLEEP)
            }
            _ => self.tool_fail(view, format!("FATAL {line}")),
        }
    }

    /// `retryOperation(cutOver)`: another attempt after a second, or give up.
    fn gh_ost_retry(&mut self, view: usize, g: &mut GhOst) -> Next {
        g.rename = None;
        let attempts = self.tool_view(view).cut_over_attempts;
        if attempts >= g.o.default_retries {
            return self.tool_fail(view, format!("FATAL cut-over failed {attempts} times"));
        }
        self.tool_view(view).state = "migrating (cut-over retry)".into();
        g.step = GhStep::CutLockTimeout;
        Next::After(RETRY_SLEEP)
    }

    /// The throttler's answer now (`Throttler.shouldThrottle()`): why to wait, if so;
    /// `Err` when --critical-load is met.
    fn gh_ost_throttle_reason(&mut self, g: &GhOst) -> Result<Option<String>, String> {
        let running = self.tool_threads_running();
        if let Some(c) = g.o.critical_load {
            if running >= c.threads_running {
                return Err(format!(
                    "critical-load met: Threads_running={running}, >={}",
                    c.threads_running
                ));
            }
        }
        if let Some(m) = g.o.max_load {
            if running >= m.threads_running {
                return Ok(Some(format!(
                    "max-load Threads_running={running} >= {}",
                    m.threads_running
                )));
            }
        }
        let lag = self.replica_lag_ms();
        if lag > g.o.max_lag_ms {
            return Ok(Some(format!("lag={:.3}s", lag as f64 / 1000.0)));
        }
        Ok(None)
    }

    /// Whether to wait: throttled now (said once, its time counted).
    fn gh_ost_throttled(&mut self, view: usize, g: &mut GhOst) -> Result<bool, Next> {
        let now = self.sched.now;
        match self.gh_ost_throttle_reason(g) {
            Err(m) => Err(self.tool_fail(view, m)),
            Ok(Some(reason)) => {
                if g.throttle_started.is_none() {
                    g.throttle_started = Some(now);
                    self.tool_say(view, format!("throttled: {reason}"), false);
                    self.tool_view(view).state = format!("throttled, {reason}");
                }
                Ok(true)
            }
            Ok(None) => {
                if let Some(since) = g.throttle_started.take() {
                    let v = self.tool_view(view);
                    v.throttled_ms += (now - since).as_ms();
                    v.state = "migrating".into();
                }
                Ok(false)
            }
        }
    }

    /// The oldest unapplied row events of the table (other tables' skipped), whole
    /// transactions up to `limit` rows: each transaction's first row position and row
    /// count, and the oldest's commit.
    fn gh_ost_backlog(&mut self, g: &GhOst, limit: u64) -> Option<(Vec<(u64, u64)>, Tick)> {
        let table = self.tool_table(&g.db, &g.o.table)?;
        let mut trxs: Vec<(u64, u64)> = Vec::new();
        let (mut rows, mut skipped) = (0, 0);
        let mut oldest = None;
        while let Some(e) = self
            .binlog
            .peek_nth(g.reader, skipped + trxs.len() as u64)
            .copied()
        {
            match e.kind {
                EntryKind::Rows {
                    table: t,
                    table_rows,
                    first,
                    ..
                } if t == table && table_rows > 0 => {
                    if !trxs.is_empty() && rows + table_rows > limit {
                        break;
                    }
                    oldest.get_or_insert(e.committed);
                    trxs.push((first, table_rows));
                    rows += table_rows;
                }
                _ if trxs.is_empty() => skipped += 1,
                _ => break,
            }
        }
        for _ in 0..skipped {
            self.binlog.advance(g.reader);
        }
        oldest.map(|o| (trxs, o))
    }

    /// `executeWriteFuncs()`: apply binlog events first, else copy the next chunk,
    /// else start the cut-over.
    fn gh_ost_migrate(&mut self, view: usize, g: &mut GhOst) -> Next {
        match self.gh_ost_throttled(view, g) {
            Err(next) => return next,
            Ok(true) => return Next::After(THROTTLE_POLL),
            Ok(false) => {}
        }
        if let Some(next) = self.gh_ost_apply_batch(view, g) {
            return next;
        }
        self.tool_view(view).apply_lag_ms = 0;
        let Some(table) = self.tool_table(&g.db, &g.o.table) else {
            return self.tool_fail(view, "FATAL the original table is gone".into());
        };
        let keys = &self.catalog[table].keys;
        let end = *g.range_end.get_or_insert_with(|| keys.max().unwrap_or(0));
        let chunk = keys.within(g.copied_to.saturating_add(1), end, Some(g.o.chunk_size));
        let Some(&(_, hi)) = chunk.last() else {
            self.tool_say(view, "Row copy complete".into(), false);
            g.step = GhStep::CutLockTimeout;
            return Next::After(Tick::ZERO);
        };
        let lo = g.copied_to;
        g.copied_before = lo;
        g.copied_to = hi;
        let cols = self.catalog[table]
            .def
            .columns
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let (orig, ghost) = (g.q(""), g.q("gho"));
        let lo_cond = if lo == i64::MIN {
            format!("((`id` >= {}))", chunk[0].0)
        } else {
            format!("((`id` > {lo}))")
        };
        let sql = format!(
            "insert /* gh-ost {orig} */ ignore into {ghost} ({cols}) (select {cols} from {orig} force index (`PRIMARY`) where ({lo_cond} and ((`id` < {hi}) or ((`id` = {hi})))) lock in share mode)"
        );
        self.gh_ost_send(view, g, APPLIER, &sql)
    }

    /// The next --dml-batch-size binlog row events of the table, applied to the
    /// ghost table in one transaction (`ApplyDMLEventQueries`), if there are any.
    fn gh_ost_apply_batch(&mut self, view: usize, g: &mut GhOst) -> Option<Next> {
        let (trxs, oldest) = self.gh_ost_backlog(g, g.o.dml_batch_size)?;
        let lag = self.sched.now.saturating_sub(oldest).as_ms();
        self.tool_view(view).apply_lag_ms = lag;
        let rows: Vec<String> = trxs
            .iter()
            .flat_map(|&(first, n)| (0..n).map(move |i| format!("({}, 0, '', '')", first + 1 + i)))
            .collect();
        let sql = format!(
            "replace /* gh-ost {} */ into {} (`id`, `k`, `c`, `pad`) values {}",
            g.q("gho"),
            g.q("gho"),
            rows.join(", ")
        );
        g.applying = trxs.len() as u64;
        g.applying_rows = rows.len() as u64;
        Some(self.gh_ost_send(view, g, APPLIER, &sql))
    }

    /// `waitForEventsUpToLock()`: with the table locked, apply what is left of its
    /// binlog events; then the RENAME.
    fn gh_ost_drain(&mut self, view: usize, g: &mut GhOst) -> Next {
        if let Some(next) = self.gh_ost_apply_batch(view, g) {
            return next;
        }
        g.step = GhStep::CutRenameTimeout;
        Next::After(Tick::ZERO)
    }

    /// `ExpectProcess(renameSessionId, "metadata lock", "rename")`, retried a second
    /// apart: once the RENAME waits, unlock; if it already failed, abort the attempt.
    fn gh_ost_wait_blocked(&mut self, view: usize, g: &mut GhOst) -> Next {
        let rename = g.rename.expect("the RENAME was sent");
        if let Sent::Failed(code, msg) = self.tool_result(rename) {
            if code == 1205 {
                self.tool_view(view).lock_wait_timeouts += 1;
            }
            self.tool_say(view, format!("Error {code}: {msg}"), true);
            g.step = GhStep::AbortUnlock;
            return Next::After(Tick::ZERO);
        }
        if self
            .tool_peer_state(g.conns[RENAMER])
            .contains("metadata lock")
        {
            g.step = GhStep::CutDropSentry;
            return Next::After(Tick::ZERO);
        }
        Next::After(RETRY_SLEEP)
    }

    /// After UNLOCK TABLES: the RENAME's result ends the attempt.
    fn gh_ost_wait_rename(&mut self, view: usize, g: &mut GhOst) -> Next {
        let rename = g.rename.expect("the RENAME was sent");
        match self.tool_result(rename) {
            Sent::Pending => Next::Parked,
            Sent::Ok(_) => {
                self.tool_say(view, "Tables renamed".into(), false);
                g.rename = None;
                g.step = GhStep::DropChangelog;
                Next::After(Tick::ZERO)
            }
            Sent::Failed(code, msg) => {
                if code == 1205 {
                    self.tool_view(view).lock_wait_timeouts += 1;
                }
                self.tool_say(view, format!("Error {code}: {msg}"), true);
                self.gh_ost_retry(view, g)
            }
        }
    }
}
