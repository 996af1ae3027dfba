//! Locks as simulated threads take them: metadata locks through [`crate::mdl`], and
//! InnoDB row locks held to commit.
//!
//! ## Metadata locks
//!
//! A thread (a console session, a workload client, a DDL executor) asks for a lock
//! with [`Sim::mdl_acquire`] or [`Sim::mdl_upgrade`] and gets an [`MdlPoll`]:
//!
//! ```text
//!   step N:   mdl_acquire(t, ctx, req) ──Granted(ticket)──▶ go on
//!                   │ Wait: return Next::Parked (state "Waiting for table metadata lock")
//!                   ▼
//!   (another thread releases / lock_wait_timeout passes / KILL / deadlock victim)
//!                   │ the outcome is stored for ctx and thread t is woken
//!                   ▼
//!   step N again: mdl_acquire(t, ctx, req) ──Granted(ticket) or Failed(1205/1213/1317)
//! ```
//!
//! Calling the same function again after the wake-up reads the outcome instead of
//! asking twice, so a step is written once, as the server's `MDL_context::acquire_lock()`
//! call reads: ask, and if you had to wait, find out how it ended. Timeouts are
//! scheduled at each waiting request's deadline (`lock_wait_timeout`), so a wait ends
//! exactly when the server's `MDL_wait::timed_wait()` would.
//!
//! ## Row locks
//!
//! Simplification: a row lock covers a range of row positions of one table (InnoDB
//! locks index records one by one; a range here is what a statement's search would
//! have locked, taken at once before its page work). `FOR SHARE` takes shared locks,
//! `FOR UPDATE`, `UPDATE` and `DELETE` exclusive ones, `INSERT` an exclusive lock on
//! each new row's position (its id's, `dml.rs`), after a shared one (exclusive for ON
//! DUPLICATE KEY UPDATE) on an id that is there, its duplicate check; a scan without a usable index locks every row and the gap at the end
//! (so inserts wait too). A range on an index locks the record past its end too (the
//! next-key lock on the first record that fails the range; on the primary key only
//! where the profile's `unique_range_locks_next_record` says so, as before MySQL
//! 8.0.18), or the gap to the supremum when it runs past the last row. A conflicting
//! request waits up to
//! `innodb_lock_wait_timeout`, then fails with 1205 and only the statement is rolled
//! back (`innodb_rollback_on_timeout=OFF`); a wait that closes a cycle in the waits-for
//! graph fails at once with 1213 and rolls back the requester's transaction
//! (InnoDB picks the transaction that changed fewer rows; here, the requester).
//! Workload clients' own row locks are not recorded (their transactions last
//! milliseconds); they are counted as lock memory only.

use crate::events::EventKind;
use crate::mdl::{
    Acquire, MdlContextId, MdlDuration, MdlError, MdlLockId, MdlRequest, MdlRequestId, MdlTicketId,
    MdlType, Wakeups,
};
use crate::profile::Profile;
use crate::sim::catalog::TableId;
use crate::sim::{Sim, Wake};
use crate::sql::SqlError;
use crate::time::Tick;
use crate::ThreadId;

/// The answer to a metadata-lock request made by a simulated thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MdlPoll {
    /// Granted (at once, or after the wait this thread was woken from).
    Granted(MdlTicketId),
    /// Queued: return [`Next::Parked`]; the thread is woken when the wait ends, and
    /// then calls the same function again to read the outcome.
    Wait,
    /// Failed: lock_wait_timeout (1205), deadlock victim (1213) or killed (1317).
    Failed(MdlError),
}

/// An InnoDB lock's mode (`enum lock_mode`), as far as console sessions take them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sim) enum LockMode {
    /// `LOCK_S` on records: shared next-key locks.
    Shared,
    /// `LOCK_X` on records: exclusive next-key locks.
    Exclusive,
    /// `LOCK_AUTO_INC`: the table-level AUTO-INC lock an insert holds to its
    /// statement's end (`lock_table(LOCK_AUTO_INC)`), which only another AUTO-INC
    /// lock conflicts with (`lock_compatibility_matrix`); its range is empty.
    AutoInc,
}

/// How an insert statement uses InnoDB's AUTO-INC lock (`innobase_lock_autoinc()`;
/// the session's side is `session/autoinc.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sim) enum AutoIncLock {
    /// Not at all (no AUTO_INCREMENT column, or mode 2).
    None,
    /// The mutex, unless another transaction holds or waits for the table lock: then
    /// the table lock, held to the statement's end (mode 1, a simple insert).
    IfOthersHold,
    /// The table lock, held to the statement's end.
    Table,
}

/// Whether an insert is "simple" (its row count known up front: VALUES, a trigger's
/// INSERT or REPLACE) or "bulk" (INSERT ... SELECT, REPLACE ... SELECT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sim) enum InsertKind {
    Simple,
    Bulk,
}

/// The AUTO-INC lock an insert of `kind` takes at `innodb_autoinc_lock_mode` `mode`
/// (`innobase_lock_autoinc()`: 0 traditional, 1 consecutive, 2 interleaved).
pub(in crate::sim) fn autoinc_lock(mode: u8, kind: InsertKind) -> AutoIncLock {
    match (mode, kind) {
        (0, _) | (1, InsertKind::Bulk) => AutoIncLock::Table,
        (1, InsertKind::Simple) => AutoIncLock::IfOthersHold,
        _ => AutoIncLock::None,
    }
}

/// A row-lock request's range: row positions `lo..=hi` of `table` (for the AUTO-INC
/// lock, the table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sim) struct RowRange {
    pub(in crate::sim) table: TableId,
    pub(in crate::sim) lo: u64,
    pub(in crate::sim) hi: u64,
    pub(in crate::sim) mode: LockMode,
}

impl RowRange {
    /// Record locks on positions `lo..=hi`, exclusive or shared.
    pub(in crate::sim) fn records(table: TableId, lo: u64, hi: u64, exclusive: bool) -> RowRange {
        let mode = if exclusive {
            LockMode::Exclusive
        } else {
            LockMode::Shared
        };
        RowRange {
            table,
            lo,
            hi,
            mode,
        }
    }

    /// The table's AUTO-INC lock.
    pub(in crate::sim) fn auto_inc(table: TableId) -> RowRange {
        RowRange {
            table,
            lo: 0,
            hi: 0,
            mode: LockMode::AutoInc,
        }
    }

    pub(in crate::sim) fn conflicts(&self, other: &RowRange) -> bool {
        if self.table != other.table {
            return false;
        }
        match (self.mode, other.mode) {
            (LockMode::AutoInc, LockMode::AutoInc) => true,
            (LockMode::AutoInc, _) | (_, LockMode::AutoInc) => false,
            (LockMode::Shared, LockMode::Shared) => false,
            _ => self.lo <= other.hi && other.lo <= self.hi,
        }
    }
}

/// A granted row lock (`lock_rec_t`), held by a session's transaction until it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sim) struct RowLock {
    pub(in crate::sim) owner: u32,
    pub(in crate::sim) range: RowRange,
}

/// A session waiting for a row lock (`trx->lock.wait_lock`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sim) struct RowWait {
    pub(in crate::sim) thread: ThreadId,
    pub(in crate::sim) range: RowRange,
    pub(in crate::sim) since: Tick,
    pub(in crate::sim) deadline: Tick,
}

/// The answer to a row-lock request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) enum RowPoll {
    Granted,
    Wait,
    Failed(SqlError),
}

/// A session's `lock_wait_timeout` (seconds, `None` for a context that is not a
/// session's), or the server default for workload clients and DDL threads.
fn lock_wait_timeout_or_default(session_s: Option<u64>, profile: &Profile) -> Tick {
    Tick::from_secs(session_s.unwrap_or(profile.sql.lock_wait_timeout_s))
}

impl Sim {
    /// `innodb_autoinc_lock_mode`: the scenario's startup setting, or the profile's
    /// default.
    pub(in crate::sim) fn autoinc_lock_mode(&self) -> u8 {
        self.scenario
            .innodb
            .autoinc_lock_mode
            .unwrap_or(self.profile.sql.autoinc_lock_mode)
    }

    /// The AUTO-INC lock an insert of `kind` into table `ti` takes: none without an
    /// AUTO_INCREMENT column.
    pub(in crate::sim) fn autoinc_lock_for(&self, ti: TableId, kind: InsertKind) -> AutoIncLock {
        if self.catalog[ti].def.auto_increment.is_none() {
            return AutoIncLock::None;
        }
        autoinc_lock(self.autoinc_lock_mode(), kind)
    }

    /// The `lock_wait_timeout` of the context's session (the server default for
    /// workload clients and DDL threads of sessions that never set it).
    pub(in crate::sim) fn lock_wait_timeout(&self, ctx: MdlContextId) -> Tick {
        let session_s = self
            .sql
            .sessions
            .get(&ctx.0)
            .map(|s| s.vars.lock_wait_timeout_s);
        lock_wait_timeout_or_default(session_s, &self.profile)
    }

    /// Asks for a metadata lock for context `ctx` on behalf of thread `t`
    /// (`MDL_context::acquire_lock()`); see the module doc for the protocol.
    pub(in crate::sim) fn mdl_acquire(
        &mut self,
        t: ThreadId,
        ctx: MdlContextId,
        req: MdlRequest,
    ) -> MdlPoll {
        if let Some(outcome) = self.mdl_outcome(ctx) {
            return outcome;
        }
        let lock = self.sql.mdl.lock_id(&req.key);
        self.mdl_acquire_lock(t, ctx, lock, req.mdl_type, req.duration)
    }

    /// [`Sim::mdl_acquire`] on a lock name already looked up
    /// ([`crate::mdl::MdlManager::lock_id`]).
    pub(in crate::sim) fn mdl_acquire_lock(
        &mut self,
        t: ThreadId,
        ctx: MdlContextId,
        lock: MdlLockId,
        mdl_type: MdlType,
        duration: MdlDuration,
    ) -> MdlPoll {
        let now = self.sched.now;
        // Most requests: no wait has ended anywhere, and this one is granted at once.
        if self.sql.mdl_outcomes.is_empty() {
            if let Some(ticket) = self
                .sql
                .mdl
                .acquire_fast(ctx, lock, mdl_type, duration, now)
            {
                return MdlPoll::Granted(ticket);
            }
        }
        if let Some(outcome) = self.mdl_outcome(ctx) {
            return outcome;
        }
        let (sessions, profile) = (&self.sql.sessions, &self.profile);
        let (answer, wakeups) =
            self.sql
                .mdl
                .acquire_lock_with(ctx, lock, mdl_type, duration, now, || {
                    let session_s = sessions.get(&ctx.0).map(|s| s.vars.lock_wait_timeout_s);
                    lock_wait_timeout_or_default(session_s, profile)
                });
        self.mdl_wake(wakeups);
        self.mdl_answer(t, ctx, answer, mdl_type)
    }

    /// Upgrades a granted ticket (`MDL_context::upgrade_shared_lock()`): SU→X, SU→SNW,
    /// SNW→X, SNRW→X. Same protocol as [`Sim::mdl_acquire`].
    pub(in crate::sim) fn mdl_upgrade(
        &mut self,
        t: ThreadId,
        ctx: MdlContextId,
        ticket: MdlTicketId,
        to: MdlType,
    ) -> MdlPoll {
        if let Some(outcome) = self.mdl_outcome(ctx) {
            return outcome;
        }
        let timeout = self.lock_wait_timeout(ctx);
        let (answer, wakeups) = self.sql.mdl.upgrade(ticket, to, self.sched.now, timeout);
        self.mdl_wake(wakeups);
        self.mdl_answer(t, ctx, answer, to)
    }

    /// Downgrades an X or SNW ticket (`MDL_ticket::downgrade_lock()`), waking whoever
    /// that lets through.
    pub(in crate::sim) fn mdl_downgrade(&mut self, ticket: MdlTicketId, to: MdlType) {
        self.sql.mdl.set_clock(self.sched.now);
        let w = self.sql.mdl.downgrade(ticket, to);
        self.mdl_wake(w);
    }

    /// Releases one ticket (`MDL_context::release_lock()`).
    pub(in crate::sim) fn mdl_release(&mut self, ticket: MdlTicketId) {
        self.sql.mdl.set_clock(self.sched.now);
        let w = self.sql.mdl.release(ticket);
        self.mdl_wake(w);
    }

    /// Releases the context's statement-duration tickets.
    pub(in crate::sim) fn mdl_release_statement(&mut self, ctx: MdlContextId) {
        self.sql.mdl.set_clock(self.sched.now);
        let w = self.sql.mdl.release_statement_locks(ctx);
        self.mdl_wake(w);
    }

    /// Releases the context's statement and transaction tickets (COMMIT, ROLLBACK).
    pub(in crate::sim) fn mdl_release_transactional(&mut self, ctx: MdlContextId) {
        self.sql.mdl.set_clock(self.sched.now);
        let w = self.sql.mdl.release_transactional_locks(ctx);
        self.mdl_wake(w);
    }

    /// Releases the tickets the context took after `savepoint` (a failed statement's
    /// own locks, `MDL_context::rollback_to_savepoint()`), explicit ones too: the
    /// server makes LOCK TABLES' and FLUSH TABLES WITH READ LOCK's locks explicit only
    /// once the statement has succeeded, and a killed FTWRL lets its global read lock
    /// go (`reload_acl_and_cache()`: "don't leave things in a half-locked state").
    pub(in crate::sim) fn mdl_rollback_to(&mut self, ctx: MdlContextId, savepoint: &[MdlTicketId]) {
        for ticket in self.sql.mdl.tickets_of(ctx) {
            if !savepoint.contains(&ticket) {
                self.mdl_release(ticket);
            }
        }
    }

    /// Releases everything the context holds (a session going away).
    pub(in crate::sim) fn mdl_release_all(&mut self, ctx: MdlContextId) {
        self.sql.mdl_outcomes.remove(&ctx.0);
        self.sql.mdl_waiters.remove(&ctx.0);
        self.sql.mdl.set_clock(self.sched.now);
        let w = self.sql.mdl.release_all(ctx);
        self.mdl_wake(w);
    }

    /// KILL: withdraws the context's waiting request with 1317.
    pub(in crate::sim) fn mdl_cancel_wait(&mut self, ctx: MdlContextId) -> bool {
        match self.sql.mdl.waiting_request(ctx) {
            Some(r) => {
                self.sql.mdl.set_clock(self.sched.now);
                let w = self.sql.mdl.cancel(r, MdlError::QueryInterrupted);
                self.mdl_wake(w);
                true
            }
            None => false,
        }
    }

    pub(in crate::sim) fn mdl_outcome(&mut self, ctx: MdlContextId) -> Option<MdlPoll> {
        // Most often no wait has ended anywhere: the map is empty.
        if self.sql.mdl_outcomes.is_empty() {
            return self.sql.mdl.waiting_request(ctx).map(|_| MdlPoll::Wait);
        }
        if let Some(o) = self.sql.mdl_outcomes.remove(&ctx.0) {
            return Some(match o {
                Ok(ticket) => MdlPoll::Granted(ticket),
                Err(e) => MdlPoll::Failed(e),
            });
        }
        self.sql.mdl.waiting_request(ctx).map(|_| MdlPoll::Wait)
    }

    #[inline]
    pub(in crate::sim) fn mdl_answer(
        &mut self,
        t: ThreadId,
        ctx: MdlContextId,
        answer: Acquire,
        mdl_type: MdlType,
    ) -> MdlPoll {
        // Most requests are granted at once.
        match answer {
            Acquire::Granted(ticket) => MdlPoll::Granted(ticket),
            Acquire::Failed(e) => MdlPoll::Failed(e),
            Acquire::Waiting(request) => self.mdl_wait_started(t, ctx, request, mdl_type),
        }
    }

    /// [`Sim::mdl_answer`] for a queued request: the thread waits for the grant, or for
    /// the request's `lock_wait_timeout` deadline.
    #[inline(never)]
    fn mdl_wait_started(
        &mut self,
        t: ThreadId,
        ctx: MdlContextId,
        request: MdlRequestId,
        mdl_type: MdlType,
    ) -> MdlPoll {
        self.sql.mdl_waiters.insert(ctx.0, t);
        self.note_wait();
        // The queued request names the lock (an upgrade's, its ticket's).
        let (deadline, key) = self
            .sql
            .mdl
            .pending(request)
            .map_or((self.sched.now, String::new()), |p| {
                (p.deadline, self.sql.mdl.key(p.lock).to_string())
            });
        self.sched.schedule(deadline, Wake::MdlTimeout);
        self.emit(EventKind::MdlWaitStarted {
            session: ctx.0,
            lock: key,
            lock_type: mdl_type.pfs_name().to_owned(),
        });
        MdlPoll::Wait
    }

    /// Hands granted and failed requests to their threads and wakes them.
    #[inline]
    pub(in crate::sim) fn mdl_wake(&mut self, w: Wakeups) {
        // Most grants and releases wake nobody.
        if !w.is_empty() {
            self.mdl_wake_some(w);
        }
    }

    /// [`Sim::mdl_wake`] with someone to wake.
    #[inline(never)]
    fn mdl_wake_some(&mut self, w: Wakeups) {
        for g in w.granted {
            self.sql.mdl_outcomes.insert(g.ctx.0, Ok(g.ticket));
            self.emit(EventKind::MdlWaitEnded {
                session: g.ctx.0,
                error: None,
            });
            if let Some(t) = self.sql.mdl_waiters.remove(&g.ctx.0) {
                self.sched.schedule_thread(self.sched.now, t);
            }
        }
        for a in w.aborted {
            self.sql.mdl_outcomes.insert(a.ctx.0, Err(a.error));
            self.emit(EventKind::MdlWaitEnded {
                session: a.ctx.0,
                error: Some(a.error.code()),
            });
            if let Some(t) = self.sql.mdl_waiters.remove(&a.ctx.0) {
                self.sched.schedule_thread(self.sched.now, t);
            }
        }
    }

    /// A `lock_wait_timeout` deadline passed: fail every request due.
    pub(in crate::sim) fn mdl_expire(&mut self) {
        let w = self.sql.mdl.expire(self.sched.now);
        self.mdl_wake(w);
    }

    // ---- row locks -----------------------------------------------------------------

    /// Asks for row locks on `range` for `session`'s transaction, waiting up to its
    /// `innodb_lock_wait_timeout` (`lock_rec_lock()` → `lock_wait_suspend_thread()`).
    pub(in crate::sim) fn row_lock(
        &mut self,
        t: ThreadId,
        session: u32,
        range: RowRange,
    ) -> RowPoll {
        let blocked = self.row_blockers(session, &range);
        if let Some(w) = self.sql.row_waits.get_mut(&session) {
            // An INSERT's duplicate check may ask for another mode once woken.
            w.range = range;
        }
        if let Some(w) = self.sql.row_waits.get(&session).copied() {
            if blocked.is_empty() {
                self.sql.row_waits.remove(&session);
                self.sql.row_locks.push(RowLock {
                    owner: session,
                    range,
                });
                return RowPoll::Granted;
            }
            if self.sched.now >= w.deadline {
                self.sql.row_waits.remove(&session);
                return RowPoll::Failed(SqlError::lock_wait_timeout());
            }
            return RowPoll::Wait;
        }
        if blocked.is_empty() {
            self.sql.row_locks.push(RowLock {
                owner: session,
                range,
            });
            return RowPoll::Granted;
        }
        if self.row_deadlock(session, &blocked) {
            return RowPoll::Failed(SqlError::deadlock());
        }
        let timeout = self
            .sql
            .sessions
            .get(&session)
            .map_or(self.profile.sql.innodb_lock_wait_timeout_s, |s| {
                s.vars.innodb_lock_wait_timeout_s
            });
        self.start_row_wait(t, session, range, timeout)
    }

    /// `session`'s thread `t` starts waiting for `range`, for at most `timeout_s`
    /// seconds (`innodb_lock_wait_timeout`; its deadline is a scheduled wake).
    fn start_row_wait(
        &mut self,
        t: ThreadId,
        session: u32,
        range: RowRange,
        timeout_s: u64,
    ) -> RowPoll {
        let deadline = self.sched.now + Tick::from_secs(timeout_s);
        self.sql.row_waits.insert(
            session,
            RowWait {
                thread: t,
                range,
                since: self.sched.now,
                deadline,
            },
        );
        self.note_wait();
        self.sched.schedule(deadline, Wake::RowLockTimeout(session));
        RowPoll::Wait
    }

    /// A workload client's write waits for console sessions' conflicting row locks
    /// (`lock_rec_lock()` for sysbench's row). Simplification: the client's own lock is
    /// not recorded (see the module doc), so only console sessions block it, and no
    /// deadlock can run through it.
    pub(in crate::sim) fn row_wait_for_console(
        &mut self,
        t: ThreadId,
        session: u32,
        range: RowRange,
    ) -> RowPoll {
        let blocked = self
            .sql
            .row_locks
            .iter()
            .any(|l| self.sql.sessions.contains_key(&l.owner) && l.range.conflicts(&range));
        match self.sql.row_waits.get(&session).copied() {
            _ if !blocked => {
                self.sql.row_waits.remove(&session);
                RowPoll::Granted
            }
            Some(w) if self.sched.now >= w.deadline => {
                self.sql.row_waits.remove(&session);
                RowPoll::Failed(SqlError::lock_wait_timeout())
            }
            Some(_) => RowPoll::Wait,
            None => {
                let timeout = self.profile.sql.innodb_lock_wait_timeout_s;
                self.start_row_wait(t, session, range, timeout)
            }
        }
    }

    /// Sessions holding a lock that conflicts with `range`.
    pub(in crate::sim) fn row_blockers(&self, session: u32, range: &RowRange) -> Vec<u32> {
        let mut b: Vec<u32> = self
            .sql
            .row_locks
            .iter()
            .filter(|l| l.owner != session && l.range.conflicts(range))
            .map(|l| l.owner)
            .collect();
        b.sort_unstable();
        b.dedup();
        b
    }

    /// Whether `session` waiting for `blockers` closes a cycle (`DeadlockChecker`).
    pub(in crate::sim) fn row_deadlock(&self, session: u32, blockers: &[u32]) -> bool {
        let mut stack: Vec<u32> = blockers.to_vec();
        let mut seen: Vec<u32> = Vec::new();
        while let Some(s) = stack.pop() {
            if s == session {
                return true;
            }
            if seen.contains(&s) {
                continue;
            }
            seen.push(s);
            if let Some(w) = self.sql.row_waits.get(&s) {
                stack.extend(self.row_blockers(s, &w.range));
            }
        }
        false
    }

    /// Releases a transaction's row locks (commit or rollback: `lock_trx_release_locks()`)
    /// and wakes the waiters so they look again.
    pub(in crate::sim) fn row_release(&mut self, session: u32) {
        let before = self.sql.row_locks.len();
        self.sql.row_locks.retain(|l| l.owner != session);
        if self.sql.row_locks.len() != before {
            self.row_wake_waiters();
        }
    }

    /// Wakes every row-lock waiter to look again (some lock went). A waiter is parked,
    /// so its wake replaces any earlier one of the same instant (`wake_early`): two
    /// locks released before it runs (gh-ost's applier and copy commit in one instant)
    /// must wake it once, or it would run its next steps twice over, a second client
    /// on one thread.
    pub(in crate::sim) fn row_wake_waiters(&mut self) {
        let waiters: Vec<ThreadId> = self.sql.row_waits.values().map(|w| w.thread).collect();
        for t in waiters {
            self.sched.wake_early(t);
        }
    }

    /// A row-lock wait's deadline: wake the session so it sees its timeout (once, even
    /// if a lock went in the same instant).
    pub(in crate::sim) fn row_lock_timeout(&mut self, session: u32) {
        if let Some(w) = self.sql.row_waits.get(&session) {
            if self.sched.now >= w.deadline {
                let t = w.thread;
                self.sched.wake_early(t);
            }
        }
    }

    /// KILL: ends a row-lock wait with 1317.
    pub(in crate::sim) fn row_cancel_wait(&mut self, session: u32) -> Option<ThreadId> {
        self.sql.row_waits.remove(&session).map(|w| w.thread)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_autoinc_lock_an_insert_takes_follows_the_mode() {
        let rows = [
            (0, InsertKind::Simple, AutoIncLock::Table),
            (0, InsertKind::Bulk, AutoIncLock::Table),
            (1, InsertKind::Simple, AutoIncLock::IfOthersHold),
            (1, InsertKind::Bulk, AutoIncLock::Table),
            (2, InsertKind::Simple, AutoIncLock::None),
            (2, InsertKind::Bulk, AutoIncLock::None),
        ];
        for (mode, kind, expected) in rows {
            assert_eq!(autoinc_lock(mode, kind), expected, "mode {mode} {kind:?}");
        }
    }

    #[test]
    fn an_autoinc_lock_conflicts_only_with_another() {
        let t = TableId(1);
        let ai = RowRange::auto_inc(t);
        let all = RowRange::records(t, 0, u64::MAX, true);
        assert!(ai.conflicts(&RowRange::auto_inc(t)));
        assert!(!ai.conflicts(&all) && !all.conflicts(&ai));
        assert!(!ai.conflicts(&RowRange::auto_inc(TableId(2))));
        let s = RowRange::records(t, 5, 9, false);
        assert!(!s.conflicts(&RowRange::records(t, 9, 12, false)));
        assert!(s.conflicts(&RowRange::records(t, 9, 12, true)));
        assert!(!s.conflicts(&RowRange::records(t, 10, 12, true)));
    }
}
