//! The whole server's invariants, for the property runs (`schedule_props.rs`) and
//! anything else that wants to know a state is sound.
//!
//! ```text
//!  check_invariants()   at any instant
//!    pool         BufPool::validate(): blocks conserved across free, LRU and lent
//!                 frames; the flush list in oldest_modification (LSN) order
//!    mdl          MdlManager::validate(): granted tickets pairwise compatible, no
//!                 grantable request waiting; every waiting context has its thread
//!                 parked on it and a lock_wait_timeout wake due by its deadline
//!    row locks    every row-lock waiter has a blocker or a wake-up queued, and its
//!                 innodb_lock_wait_timeout wake is queued
//!    latches      a latch with waiters has a holder; no exited thread holds one
//!    sessions     an idle session has nothing queued; one statement runs at a time
//!    statements   finished ⇔ has an outcome; issued ≤ started ≤ finished; one
//!                 StatementFinished event for each finished statement
//!  check_quiesced()     once every session committed and unlocked and the waits ran out
//!                 every statement finished, no console session holds or waits for a
//!                 metadata or row lock, no DDL executor is left, and no latch is held
//!                 or waited for by anything but the workload and the page cleaner
//! ```

use super::sched::Wake;
use super::{Sim, Thread};
use crate::events::EventKind;
use crate::mdl::MdlContextId;
use crate::ThreadId;
use std::collections::BTreeMap;

impl Sim {
    /// Checks every invariant of the list above; the first broken one as an error.
    pub(crate) fn check_invariants(&self) -> Result<(), String> {
        let pool = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.pool.validate()));
        if let Err(p) = pool {
            return Err(format!("buffer pool: {}", panic_text(&*p)));
        }
        self.sql.mdl.validate().map_err(|e| format!("mdl: {e}"))?;
        self.check_mdl_waiters()?;
        self.check_row_waiters()?;
        self.check_latches()?;
        self.check_sessions()?;
        self.check_statements()
    }

    /// Every context waiting in the lock manager has a parked thread that a grant or
    /// an abort wakes, and a timeout wake due no later than its deadline.
    fn check_mdl_waiters(&self) -> Result<(), String> {
        let waits = self.sql.mdl.waits();
        for w in &waits {
            if !self.sql.mdl_waiters.contains_key(&w.ctx.0) {
                return Err(format!(
                    "mdl: {:?} waits for {} {} with no thread to wake",
                    w.ctx, w.mdl_type, w.key
                ));
            }
        }
        for ctx in self.sql.mdl_waiters.keys() {
            if self.sql.mdl.waiting_request(MdlContextId(*ctx)).is_none() {
                return Err(format!(
                    "mdl: session {ctx}'s thread is parked on a request that is gone"
                ));
            }
        }
        if let Some(deadline) = self.sql.mdl.next_deadline() {
            let due = self
                .sched
                .pending()
                .any(|(at, w)| w == Wake::MdlTimeout && at <= deadline);
            if !due {
                return Err(format!("mdl: no timeout wake by the deadline {deadline}"));
            }
        }
        Ok(())
    }

    /// Every row-lock waiter is blocked by someone or about to look again, and its
    /// `innodb_lock_wait_timeout` is queued.
    fn check_row_waiters(&self) -> Result<(), String> {
        for (&session, w) in &self.sql.row_waits {
            let console = self.sql.sessions.contains_key(&session);
            let blocked = if console {
                !self.row_blockers(session, &w.range).is_empty()
            } else {
                self.sql.row_locks.iter().any(|l| {
                    self.sql.sessions.contains_key(&l.owner) && l.range.conflicts(&w.range)
                })
            };
            let woken = self.thread_scheduled(w.thread);
            if !blocked && !woken {
                return Err(format!(
                    "row lock: session {session} waits with no blocker and no wake-up"
                ));
            }
            let timeout = self
                .sched
                .pending()
                .any(|(at, k)| k == Wake::RowLockTimeout(session) && at <= w.deadline);
            if !timeout && !woken {
                return Err(format!(
                    "row lock: session {session}'s innodb_lock_wait_timeout is not queued"
                ));
            }
        }
        Ok(())
    }

    /// A latch with waiters is held; no exited thread holds or waits for one; no
    /// thread waits for two.
    fn check_latches(&self) -> Result<(), String> {
        let mut waiting: BTreeMap<ThreadId, usize> = BTreeMap::new();
        for l in &self.latches {
            if l.waiter_count() > 0 && l.holder().is_none() {
                return Err(format!("latch {}: waiters but no holder", l.id));
            }
            for t in l.holder().into_iter().chain(l.waiters()) {
                if matches!(self.sched.threads[t.0 as usize], Thread::Exited) {
                    return Err(format!("latch {}: thread {t:?} exited holding it", l.id));
                }
            }
            for t in l.waiters() {
                if Some(t) == l.holder() {
                    return Err(format!("latch {}: {t:?} waits for itself", l.id));
                }
                *waiting.entry(t).or_default() += 1;
            }
        }
        match waiting.iter().find(|(_, &n)| n > 1) {
            Some((t, _)) => Err(format!("latch: {t:?} queued for two latches")),
            None => Ok(()),
        }
    }

    /// An idle session has nothing to run; a running statement belongs to its session.
    fn check_sessions(&self) -> Result<(), String> {
        for s in self.sql.sessions.values() {
            if s.idle && (!s.queue.is_empty() || s.running.is_some()) {
                return Err(format!(
                    "session {}: idle with {} statement(s) queued",
                    s.id,
                    s.queue.len() + usize::from(s.running.is_some())
                ));
            }
            if s.gone && (s.running.is_some() || !s.queue.is_empty()) {
                return Err(format!("session {}: gone but still has statements", s.id));
            }
            if let Some(r) = s.running {
                let rec = &self.sql.statements[r as usize];
                if rec.finished_at.is_some() {
                    return Err(format!("session {}: runs finished statement {r}", s.id));
                }
            }
        }
        Ok(())
    }

    /// Each statement's record is consistent, and each finished one was reported by
    /// exactly one `StatementFinished` event of its session.
    fn check_statements(&self) -> Result<(), String> {
        let mut finished: BTreeMap<u32, usize> = BTreeMap::new();
        for r in &self.sql.statements {
            if r.finished_at.is_some() != r.outcome.is_some() {
                return Err(format!(
                    "statement {} ({}): finished without outcome, or the other way",
                    r.id, r.sql
                ));
            }
            let start = r.started_at.unwrap_or(r.issued_at);
            if start < r.issued_at || r.finished_at.is_some_and(|f| f < start) {
                return Err(format!(
                    "statement {} ({}): times out of order",
                    r.id, r.sql
                ));
            }
            if r.finished_at.is_some() {
                *finished.entry(r.session).or_default() += 1;
            }
        }
        if self.rec.events.dropped() > 0 {
            // The oldest reports are no longer kept to count.
            return Ok(());
        }
        let mut reported: BTreeMap<u32, usize> = BTreeMap::new();
        for e in self.rec.events.kept() {
            if let EventKind::StatementFinished { session, .. } = e.kind {
                if self.sql.sessions.contains_key(&session) {
                    *reported.entry(session).or_default() += 1;
                }
            }
        }
        if finished != reported {
            return Err(format!(
                "statements finished by session {finished:?}, reported {reported:?}"
            ));
        }
        Ok(())
    }

    /// The state after every session ended what it held and the waits ran out.
    pub(crate) fn check_quiesced(&self) -> Result<(), String> {
        self.check_invariants()?;
        if let Some(r) = self.sql.statements.iter().find(|r| r.finished_at.is_none()) {
            let waits: Vec<String> = self
                .sql
                .mdl
                .waits()
                .iter()
                .map(|w| {
                    format!(
                        "{:?} for {} {} ({:?})",
                        w.ctx, w.mdl_type, w.key, w.blockers
                    )
                })
                .collect();
            return Err(format!(
                "statement {} ({}) of session {} never finished: a waiter was forgotten; its states {:?}; metadata-lock waits {waits:?}; processlist {:?}",
                r.id, r.sql, r.session, r.states_seen, self.sessions()
            ));
        }
        for &id in self.sql.sessions.keys() {
            let held = self.sql.mdl.tickets_of(MdlContextId(id));
            if !held.is_empty() {
                let what: Vec<String> = held
                    .iter()
                    .filter_map(|t| self.sql.mdl.ticket(*t))
                    .map(|k| {
                        let key = self.sql.mdl.key(k.lock);
                        format!("{} {key} ({:?})", k.mdl_type, k.duration)
                    })
                    .collect();
                return Err(format!("session {id}: metadata lock(s) left: {what:?}"));
            }
            if self.sql.row_locks.iter().any(|l| l.owner == id) {
                return Err(format!("session {id}: row locks left"));
            }
            if self.sql.row_waits.contains_key(&id) || self.sql.mdl_waiters.contains_key(&id) {
                return Err(format!("session {id}: still waits"));
            }
        }
        for (i, th) in self.sched.threads.iter().enumerate() {
            let executor = matches!(
                th,
                Thread::Ddl(_) | Thread::IndexBuild(_) | Thread::MetaDdl(_)
            );
            if executor {
                return Err(format!("thread {i}: a DDL executor is left"));
            }
        }
        for l in &self.latches {
            for t in l.holder().into_iter().chain(l.waiters()) {
                let ok = matches!(
                    self.sched.threads[t.0 as usize],
                    Thread::Client(_) | Thread::PageCleaner(_) | Thread::HaProbe(_)
                );
                if !ok {
                    return Err(format!("latch {}: still held or awaited by {t:?}", l.id));
                }
            }
        }
        Ok(())
    }

    /// Whether a console session holds a metadata or row lock.
    pub(crate) fn console_holds_locks(&self) -> bool {
        self.sql.sessions.keys().any(|&id| {
            !self.sql.mdl.tickets_of(MdlContextId(id)).is_empty()
                || self.sql.row_locks.iter().any(|l| l.owner == id)
        })
    }

    /// Thread `t` has a live wake queued.
    fn thread_scheduled(&self, t: ThreadId) -> bool {
        self.sched
            .pending()
            .any(|(_, w)| matches!(w, Wake::Thread(x, _) if x == t))
    }
}

/// A caught panic's message.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "a panic".to_owned())
}
