//! The lock manager ([`MdlManager`]): the server's `MDL_map` of lock objects plus every
//! session's `MDL_context`. It acquires, upgrades, downgrades and releases tickets,
//! queues what cannot be granted, grants queued requests when something leaves a lock
//! (`reschedule_waiters()`), fails waits at their deadline, and runs the deadlock search
//! when a wait starts.
//!
//! ```text
//!   MdlManager
//!     names:    MdlKey -> MdlLockId                                 (MDL_map)
//!     locks:    MdlLockId -> MdlLock { key, granted: [..], waiting: [..] }  (lock.rs)
//!     tickets:  MdlTicketId  -> MdlTicket { lock, .. }              (granted)
//!     pending:  MdlRequestId -> MdlPending { lock, .. }             (waiting)
//!     contexts: MdlContextId -> MdlContext { tickets per duration, waiting_for }
//! ```
//!
//! A name is looked up once, when it is first locked ([`MdlManager::lock_id`]); its
//! tickets and requests carry its [`MdlLockId`], so releasing a lock or granting its
//! waiters compares no names, and a caller that keeps the id (a workload client, for
//! its tables) acquires without looking the name up at all
//! ([`MdlManager::acquire_lock`]).
//!
//! Every ticket is in exactly one lock's granted list and one context's duration list;
//! every request in one lock's queue and its context's `waiting_for`
//! ([`MdlManager::validate`] checks it).
//!
//! Simplification: a request's end (grant, timeout, kill, deadlock victim) happens at
//! once, so the transient `performance_schema` statuses VICTIM, TIMEOUT, KILLED and the
//! storage-engine notifications (PRE_ACQUIRE_NOTIFY, POST_RELEASE_NOTIFY) never show.
//! Timeouts fire when the scheduler calls [`MdlManager::expire`], at the deadline it got
//! from [`MdlManager::next_deadline`].
//!
//! Simplification: the server keeps an `MDL_lock` whose last ticket went in its hash,
//! so the next request on that name finds it instead of making one, and past
//! `mdl_locks_unused_locks_low_water` (1,000 by default in 5.7 and 8.0) frees unused
//! ones (`MDL_map::remove_random_unused()`). Here every name's lock object stays once
//! made, reset as a new one when it becomes unused, so that a name's [`MdlLockId`]
//! stays valid: the names are those of the tables and schemas a run has locked, an
//! unused object two empty lists.

use super::context_map::ContextMap;
use super::deadlock::{self, DeadlockSearch, WaitForGraph, DEADLOCK_WEIGHT_DML};
use super::id_map::IdMap;
use super::lock::{GrantedEntry, MdlBlocker, MdlLock, WaitingEntry};
use super::matrix::has_stronger_or_equal_type;
#[cfg(test)]
use super::types::MdlRequest;
use super::types::{
    Acquire, MdlAborted, MdlContextId, MdlDuration, MdlError, MdlGranted, MdlKey, MdlLockId,
    MdlLockStrategy, MdlPending, MdlRequestId, MdlTicket, MdlTicketId, MdlType, Wakeups,
};
use crate::time::Tick;
use std::collections::BTreeMap;

/// `lock_wait_timeout`'s default, one year (`LONG_TIMEOUT`, `sql/sql_const.h`).
#[cfg(test)]
pub const LOCK_WAIT_TIMEOUT_DEFAULT: Tick = Tick::from_secs(31_536_000);

/// One session's locks (`MDL_context`).
#[derive(Clone, Debug, Default)]
struct MdlContext {
    /// Tickets per duration, oldest first (the server keeps newest first).
    tickets: [Vec<MdlTicketId>; 3],
    /// The request this context waits for (`m_waiting_for`); at most one.
    waiting_for: Option<MdlRequestId>,
    /// Weigh this context's waits as DML whatever their type
    /// (`m_force_dml_deadlock_weight`, set for `LOCK TABLES`).
    force_dml_deadlock_weight: bool,
}

/// Every metadata lock in the server and every session's tickets: the server's
/// `MDL_map` plus all `MDL_context`s.
#[derive(Clone, Debug)]
pub struct MdlManager {
    /// `max_write_lock_count`: hogs or piglets granted in a row past weaker waiters
    /// before a lock switches to a fairer priority matrix. Default `u64::MAX` (the
    /// server's `ULONG_MAX`), which keeps the default matrix.
    pub max_write_lock_count: u64,
    /// The `MDL_map`: every name ever locked, and its lock object's index in `locks`.
    names: BTreeMap<MdlKey, MdlLockId>,
    /// The lock objects by [`MdlLockId`]: those with something granted or waiting, and
    /// the unused ones kept for their name's next use.
    pub(super) locks: Vec<MdlLock>,
    pub(super) tickets: IdMap<MdlTicketId, MdlTicket>,
    pub(super) pending: BTreeMap<MdlRequestId, MdlPending>,
    contexts: ContextMap<MdlContext>,
    next_ticket: u64,
    next_request: u64,
    /// The virtual time new grants are stamped with.
    clock: Tick,
}

impl Default for MdlManager {
    fn default() -> MdlManager {
        MdlManager::new()
    }
}

/// What a request that must wait asks for: the lock, the type and duration, and the
/// ticket it upgrades, if it is an upgrade.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    lock: MdlLockId,
    mdl_type: MdlType,
    duration: MdlDuration,
    upgrade: Option<MdlTicketId>,
}

impl MdlManager {
    /// The global read lock's object, made with the map (`MDL_map::m_global_lock`).
    pub const GLOBAL: MdlLockId = MdlLockId(0);
    /// The commit lock's object, made with the map (`MDL_map::m_commit_lock`).
    pub const COMMIT: MdlLockId = MdlLockId(1);

    /// No locks, default `max_write_lock_count`.
    pub fn new() -> MdlManager {
        let mut mdl = MdlManager {
            max_write_lock_count: u64::MAX,
            names: BTreeMap::new(),
            locks: Vec::new(),
            tickets: IdMap::default(),
            pending: BTreeMap::new(),
            contexts: ContextMap::default(),
            next_ticket: 1,
            next_request: 1,
            clock: Tick::ZERO,
        };
        assert_eq!(mdl.lock_id(&MdlKey::global()), MdlManager::GLOBAL);
        assert_eq!(mdl.lock_id(&MdlKey::commit()), MdlManager::COMMIT);
        mdl
    }

    /// Sets the virtual time that the next operations' grants are stamped with
    /// ([`MdlTicket::granted_at`]). [`MdlManager::acquire_lock`], [`MdlManager::upgrade`]
    /// and [`MdlManager::expire`] take the time as an argument and set it themselves;
    /// call this before a release, downgrade or cancel, whose wakeups grant waiting
    /// requests at that moment.
    pub fn set_clock(&mut self, now: Tick) {
        self.clock = now;
    }

    /// [`MdlManager::acquire_lock`] on the request's name, looked up first
    /// ([`MdlManager::lock_id`]).
    ///
    /// # Panics
    /// As [`MdlManager::acquire_lock`].
    #[cfg(test)]
    pub fn acquire(
        &mut self,
        ctx: MdlContextId,
        request: MdlRequest,
        now: Tick,
        lock_wait_timeout: Tick,
    ) -> (Acquire, Wakeups) {
        let lock = self.lock_id(&request.key);
        let MdlRequest {
            mdl_type, duration, ..
        } = request;
        self.acquire_lock(ctx, lock, mdl_type, duration, now, lock_wait_timeout)
    }

    /// The lock object of `key`: found, or made if the name has none
    /// (`MDL_map::find_or_insert()`). The id stays valid for the manager's life, so a
    /// caller may keep it and pass it to [`MdlManager::acquire_lock`].
    pub fn lock_id(&mut self, key: &MdlKey) -> MdlLockId {
        if let Some(&id) = self.names.get(key) {
            return id;
        }
        let id = MdlLockId(u32::try_from(self.locks.len()).expect("under 2^32 lock names"));
        self.locks.push(MdlLock::new(key.clone()));
        self.names.insert(key.clone(), id);
        id
    }

    /// The name of a lock object.
    pub fn key(&self, lock: MdlLockId) -> &MdlKey {
        &self.locks[lock.index()].key
    }

    /// Every lock object with something granted or waiting, in name order.
    pub(super) fn used_locks(&self) -> impl Iterator<Item = (&MdlKey, &MdlLock)> {
        self.names
            .iter()
            .map(|(key, lock)| (key, &self.locks[lock.index()]))
            .filter(|(_, lock)| !lock.is_unused())
    }

    /// Requests a lock on a name already looked up ([`MdlManager::lock_id`]) and waits
    /// if it conflicts (`MDL_context::acquire_lock()`).
    ///
    /// A context that already holds an equal or stronger ticket on the name gets it
    /// back (the same ticket for the same non-explicit duration, else a clone of the
    /// requested type), as `find_ticket()` does. Otherwise the lock is granted or the
    /// request queued with deadline `now + lock_wait_timeout`, and the wait-for graph is
    /// searched: a deadlock victim's request fails at once, whether it is this one
    /// ([`Acquire::Failed`]) or another session's (in the returned [`Wakeups`]). A zero
    /// timeout fails a conflicting request without queueing it.
    ///
    /// # Panics
    /// If `ctx` is already waiting, or the type does not exist in the key's namespace.
    #[cfg(test)]
    pub fn acquire_lock(
        &mut self,
        ctx: MdlContextId,
        lock_id: MdlLockId,
        mdl_type: MdlType,
        duration: MdlDuration,
        now: Tick,
        lock_wait_timeout: Tick,
    ) -> (Acquire, Wakeups) {
        self.acquire_lock_with(ctx, lock_id, mdl_type, duration, now, || lock_wait_timeout)
    }

    /// [`MdlManager::acquire_lock`] with the `lock_wait_timeout` asked of the caller
    /// only if the request cannot be granted at once (the server reads the session's
    /// variable only in `MDL_context::acquire_lock()`'s wait path too).
    ///
    /// # Panics
    /// As [`MdlManager::acquire_lock`].
    pub fn acquire_lock_with(
        &mut self,
        ctx: MdlContextId,
        lock_id: MdlLockId,
        mdl_type: MdlType,
        duration: MdlDuration,
        now: Tick,
        lock_wait_timeout: impl FnOnce() -> Tick,
    ) -> (Acquire, Wakeups) {
        let lock = &self.locks[lock_id.index()];
        assert!(
            lock.strategy.supports(mdl_type),
            "{mdl_type} does not exist in namespace {}",
            lock.key.namespace().object_type()
        );
        self.assert_not_waiting(ctx);
        self.clock = now;
        let mut wakeups = Wakeups::default();
        if let Some((ticket, switched)) = self.grant_at_once(ctx, lock_id, mdl_type, duration) {
            if switched {
                self.reschedule_waiters(lock_id, &mut wakeups);
            }
            return (Acquire::Granted(ticket), wakeups);
        }
        let waiting = Waiting {
            lock: lock_id,
            mdl_type,
            duration,
            upgrade: None,
        };
        let acquire = self.wait_or_fail(ctx, waiting, now, lock_wait_timeout(), &mut wakeups);
        (acquire, wakeups)
    }

    /// [`MdlManager::acquire_lock_with`]'s commonest case on its own: `ctx` waits for
    /// nothing and holds nothing on the name, and the lock has no waiter and no granted
    /// type that conflicts, so the request is granted at once and wakes nobody. `None`
    /// (nothing changed) for every other case, which the full path decides.
    #[inline]
    pub fn acquire_fast(
        &mut self,
        ctx: MdlContextId,
        lock_id: MdlLockId,
        mdl_type: MdlType,
        duration: MdlDuration,
        now: Tick,
    ) -> Option<MdlTicketId> {
        if self.waiting_request(ctx).is_some() {
            return None;
        }
        let lock = &self.locks[lock_id.index()];
        if !lock.strategy.supports(mdl_type) || !lock.grants_at_once(mdl_type, ctx) {
            return None;
        }
        self.clock = now;
        Some(self.add_ticket(ctx, lock_id, mdl_type, duration))
    }

    /// The common cases with the lock in hand: this context's own ticket found in the
    /// lock's granted list, or a grant at once, the ticket joining the granted list and
    /// the hog and piglet counters (`find_ticket()`, `add_ticket()` then
    /// `after_grant()`). The ticket, and whether the priority matrix switched (the
    /// caller reschedules the waiters); `None` if the request must wait.
    fn grant_at_once(
        &mut self,
        ctx: MdlContextId,
        lock_id: MdlLockId,
        mdl_type: MdlType,
        duration: MdlDuration,
    ) -> Option<(MdlTicketId, bool)> {
        let max = self.max_write_lock_count;
        let lock = &mut self.locks[lock_id.index()];
        let strategy = lock.strategy;
        let mut own = lock
            .granted
            .iter()
            .filter(|g| g.ctx == ctx && has_stronger_or_equal_type(strategy, g.mdl_type, mdl_type));
        let found = match (own.next(), own.next()) {
            (None, _) => None,
            (Some(g), None) => Some((g.ticket, self.tickets[&g.ticket].duration)),
            // Several: which one find_ticket() meets first depends on the lists.
            (Some(_), Some(_)) => find_ticket(
                &self.contexts,
                &self.tickets,
                ctx,
                lock_id,
                strategy,
                mdl_type,
                duration,
            ),
        };
        if let Some((found, found_duration)) = found {
            if found_duration == duration && duration != MdlDuration::Explicit {
                return Some((found, false));
            }
            // clone_ticket(): a ticket of the requested (weaker or equal) type, granted
            // without checks since this context's own stronger lock already excludes
            // every conflicting one.
            let ticket = self.add_ticket(ctx, lock_id, mdl_type, duration);
            return Some((ticket, false));
        }
        if !lock.can_grant_lock(mdl_type, ctx) {
            return None;
        }
        let ticket = MdlTicketId(self.next_ticket);
        self.next_ticket += 1;
        lock.push_granted(GrantedEntry {
            ticket,
            ctx,
            mdl_type,
        });
        let switched = lock.strategy.affected_by_max_write_lock_count()
            && lock.count_piglets_and_hogs(mdl_type, max);
        self.record_ticket(ticket, ctx, lock_id, mdl_type, duration);
        Some((ticket, switched))
    }

    /// Grants a lock only if that needs no wait (`MDL_context::try_acquire_lock()`).
    /// `None` means a conflict; nothing is queued.
    ///
    /// # Panics
    /// As [`MdlManager::acquire_lock`].
    #[cfg(test)]
    pub fn try_acquire(
        &mut self,
        ctx: MdlContextId,
        request: MdlRequest,
    ) -> (Option<MdlTicketId>, Wakeups) {
        match self.acquire(ctx, request, self.clock, Tick::ZERO) {
            (Acquire::Granted(ticket), wakeups) => (Some(ticket), wakeups),
            (Acquire::Failed(_), wakeups) => (None, wakeups),
            (Acquire::Waiting(_), _) => unreachable!("a zero timeout never queues"),
        }
    }

    /// Upgrades a ticket to a stronger type, waiting like an acquire while the old
    /// grant stays in force (`MDL_context::upgrade_shared_lock()`): SU→X, SU→SNW,
    /// SNW→X, SNRW→X. The pending request has `TRANSACTION` duration, as in the
    /// server; when granted, the ticket itself changes type and keeps its duration.
    /// Upgrading to a type the ticket already covers is granted at once.
    ///
    /// # Panics
    /// If the ticket does not exist or its owner is already waiting.
    pub fn upgrade(
        &mut self,
        ticket: MdlTicketId,
        new_type: MdlType,
        now: Tick,
        lock_wait_timeout: Tick,
    ) -> (Acquire, Wakeups) {
        let (ctx, lock, old_type) = {
            let t = self.ticket_or_panic(ticket);
            (t.ctx, t.lock, t.mdl_type)
        };
        self.assert_not_waiting(ctx);
        self.clock = now;
        let mut wakeups = Wakeups::default();
        let strategy = self.locks[lock.index()].strategy;
        assert!(
            strategy.supports(new_type),
            "{new_type} in {}",
            self.key(lock)
        );
        if has_stronger_or_equal_type(strategy, old_type, new_type) {
            return (Acquire::Granted(ticket), wakeups);
        }
        if self.locks[lock.index()].can_grant_lock(new_type, ctx) {
            self.set_ticket_type(ticket, new_type);
            self.after_grant(lock, new_type, &mut wakeups);
            return (Acquire::Granted(ticket), wakeups);
        }
        let waiting = Waiting {
            lock,
            mdl_type: new_type,
            duration: MdlDuration::Transaction,
            upgrade: Some(ticket),
        };
        let acquire = self.wait_or_fail(ctx, waiting, now, lock_wait_timeout, &mut wakeups);
        (acquire, wakeups)
    }

    /// A request that cannot be granted at once: refused at once with a zero
    /// `lock_wait_timeout` (ER_LOCK_WAIT_TIMEOUT), otherwise queued and waited for
    /// (`MDL_context::acquire_lock()`'s wait, an upgrade's too).
    fn wait_or_fail(
        &mut self,
        ctx: MdlContextId,
        w: Waiting,
        now: Tick,
        lock_wait_timeout: Tick,
        wakeups: &mut Wakeups,
    ) -> Acquire {
        if lock_wait_timeout == Tick::ZERO {
            return Acquire::Failed(MdlError::LockWaitTimeout);
        }
        let request = self.enqueue(ctx, w, now, lock_wait_timeout);
        self.wait_for(ctx, request, wakeups)
    }

    /// Downgrades an X or SNW ticket, as the online `ALTER` does after its prepare
    /// phase (X→SU, SNW→SU), and grants whatever that unblocks
    /// (`MDL_ticket::downgrade_lock()`). A no-op if the ticket is not stronger.
    ///
    /// # Panics
    /// If the ticket does not exist, or is stronger but neither X nor SNW.
    pub fn downgrade(&mut self, ticket: MdlTicketId, new_type: MdlType) -> Wakeups {
        let mut wakeups = Wakeups::default();
        let (lock, old_type) = {
            let t = self.ticket_or_panic(ticket);
            (t.lock, t.mdl_type)
        };
        let strategy = self.locks[lock.index()].strategy;
        if old_type == new_type || !has_stronger_or_equal_type(strategy, old_type, new_type) {
            return wakeups;
        }
        assert!(
            matches!(old_type, MdlType::Exclusive | MdlType::SharedNoWrite),
            "only X and SNW downgrade, not {old_type}"
        );
        self.set_ticket_type(ticket, new_type);
        self.reschedule_waiters(lock, &mut wakeups);
        wakeups
    }

    /// Releases one ticket and grants whatever that unblocks
    /// (`MDL_context::release_lock()`).
    ///
    /// # Panics
    /// If the ticket does not exist.
    pub fn release(&mut self, ticket: MdlTicketId) -> Wakeups {
        let mut wakeups = Wakeups::default();
        self.release_ticket(ticket, &mut wakeups);
        wakeups
    }

    /// Releases the context's statement-duration tickets, newest first
    /// (`MDL_context::release_statement_locks()`).
    pub fn release_statement_locks(&mut self, ctx: MdlContextId) -> Wakeups {
        let mut wakeups = Wakeups::default();
        self.release_duration(ctx, MdlDuration::Statement, &mut wakeups);
        wakeups
    }

    /// Releases the context's statement and transaction tickets, newest first, at
    /// `COMMIT` or `ROLLBACK`; explicit ones (`LOCK TABLES`, FTWRL) stay
    /// (`MDL_context::release_transactional_locks()`).
    pub fn release_transactional_locks(&mut self, ctx: MdlContextId) -> Wakeups {
        let mut wakeups = Wakeups::default();
        self.release_duration(ctx, MdlDuration::Statement, &mut wakeups);
        self.release_duration(ctx, MdlDuration::Transaction, &mut wakeups);
        wakeups
    }

    /// Releases everything the context holds, and withdraws its waiting request
    /// silently: the session is going away (disconnect).
    pub fn release_all(&mut self, ctx: MdlContextId) -> Wakeups {
        let mut wakeups = Wakeups::default();
        if let Some(request) = self.waiting_request(ctx) {
            let lock = self.remove_waiting(request).lock;
            self.after_removal(lock, &mut wakeups);
        }
        for duration in MdlDuration::ALL {
            self.release_duration(ctx, duration, &mut wakeups);
        }
        self.contexts.remove(&ctx);
        wakeups
    }

    /// Withdraws a waiting request with `error` (KILL: [`MdlError::QueryInterrupted`])
    /// and grants whatever that unblocks. The withdrawn request is the first entry of
    /// the returned `aborted`, so its session is woken like any other.
    ///
    /// # Panics
    /// If the request is not waiting.
    pub fn cancel(&mut self, request: MdlRequestId, error: MdlError) -> Wakeups {
        let mut wakeups = Wakeups::default();
        let pending = self.remove_waiting(request);
        wakeups.aborted.push(MdlAborted {
            request,
            ctx: pending.ctx,
            error,
        });
        self.after_removal(pending.lock, &mut wakeups);
        wakeups
    }

    /// Fails every request whose deadline is at or before `now` with
    /// `ER_LOCK_WAIT_TIMEOUT`, then grants whatever their departure unblocks. All of
    /// them time out, even one that a co-expiring request's departure would unblock,
    /// as in the server where each waiter's timer fires independently.
    pub fn expire(&mut self, now: Tick) -> Wakeups {
        self.clock = now;
        let mut wakeups = Wakeups::default();
        let mut expired: Vec<(Tick, MdlRequestId)> = self
            .pending
            .iter()
            .filter(|(_, p)| p.deadline <= now)
            .map(|(&id, p)| (p.deadline, id))
            .collect();
        expired.sort_unstable();
        let mut left = Vec::new();
        for (_, request) in expired {
            let pending = self.remove_waiting(request);
            wakeups.aborted.push(MdlAborted {
                request,
                ctx: pending.ctx,
                error: MdlError::LockWaitTimeout,
            });
            left.push(pending.lock);
        }
        // The locks they left, each once, in name order.
        left.sort_unstable_by(|&a, &b| self.key(a).cmp(self.key(b)));
        left.dedup();
        for lock in left {
            self.after_removal(lock, &mut wakeups);
        }
        wakeups
    }

    /// The earliest deadline of any waiting request: when to call [`MdlManager::expire`].
    #[cfg(test)]
    pub fn next_deadline(&self) -> Option<Tick> {
        self.pending.values().map(|p| p.deadline).min()
    }

    /// Moves a ticket to another duration's list (`MDL_context::set_lock_duration()`),
    /// e.g. a transactional lock kept by `LOCK TABLES`.
    ///
    /// # Panics
    /// If the ticket does not exist.
    pub fn set_lock_duration(&mut self, ticket: MdlTicketId, duration: MdlDuration) {
        let t = self
            .tickets
            .get_mut(&ticket)
            .unwrap_or_else(|| panic!("no ticket {ticket:?}"));
        let old = t.duration;
        t.duration = duration;
        let c = self
            .contexts
            .get_mut(&t.ctx)
            .expect("ticket owner has a context");
        c.tickets[old as usize].retain(|&id| id != ticket);
        c.tickets[duration as usize].push(ticket);
    }

    /// Weighs this context's waits as DML in deadlock victim choice
    /// (`MDL_context::set_force_dml_deadlock_weight()`, used by `LOCK TABLES`).
    pub fn set_force_dml_deadlock_weight(&mut self, ctx: MdlContextId, force: bool) {
        self.contexts.or_default(ctx).force_dml_deadlock_weight = force;
    }

    /// A granted ticket.
    pub fn ticket(&self, ticket: MdlTicketId) -> Option<&MdlTicket> {
        self.tickets.get(&ticket)
    }

    /// A waiting request.
    pub fn pending(&self, request: MdlRequestId) -> Option<&MdlPending> {
        self.pending.get(&request)
    }

    /// The request the context waits for.
    pub fn waiting_request(&self, ctx: MdlContextId) -> Option<MdlRequestId> {
        self.contexts.get(&ctx).and_then(|c| c.waiting_for)
    }

    /// The context's thread state if it waits: "Waiting for table metadata lock", ...
    pub fn wait_state(&self, ctx: MdlContextId) -> Option<&'static str> {
        let request = self.waiting_request(ctx)?;
        Some(self.key(self.pending[&request].lock).wait_state_name())
    }

    /// The context's tickets: statement, transaction, explicit, each oldest first.
    pub fn tickets_of(&self, ctx: MdlContextId) -> Vec<MdlTicketId> {
        self.contexts
            .get(&ctx)
            .map(|c| c.tickets.iter().flatten().copied().collect())
            .unwrap_or_default()
    }

    /// The priority matrix a lock uses (0 default, 1 piglets, 2 hogs, 3 both); `None` if
    /// nothing is granted or waiting on `key`.
    #[cfg(test)]
    pub fn priority_matrix(&self, key: &MdlKey) -> Option<u8> {
        self.names
            .get(key)
            .map(|&lock| &self.locks[lock.index()])
            .filter(|l| !l.is_unused())
            .map(|l| l.waiting_incompatible_idx as u8)
    }

    /// Checks the invariants: lists and maps agree, granted tickets of different
    /// contexts are compatible, no waiting request could be granted, and each context
    /// waits for at most one request.
    #[cfg(test)]
    pub fn validate(&self) -> Result<(), String> {
        let mut granted_seen = 0usize;
        let mut waiting_seen = 0usize;
        if self.names.len() != self.locks.len() {
            return Err("lock names and objects disagree".to_owned());
        }
        for (key, &id) in &self.names {
            let lock = &self.locks[id.index()];
            if &lock.key != key {
                return Err(format!("{key}: its lock object is {}'s", lock.key));
            }
            if !lock.granted_counts_agree() {
                return Err(format!("{key}: granted counts disagree with the list"));
            }
            if lock.is_unused() {
                if !lock.is_fresh() {
                    return Err(format!("{key}: unused lock object keeps its counters"));
                }
                continue;
            }
            if lock.strategy != key.namespace().strategy() {
                return Err(format!("{key}: wrong strategy"));
            }
            for g in &lock.granted {
                granted_seen += 1;
                let t = self
                    .tickets
                    .get(&g.ticket)
                    .ok_or(format!("{key}: lost ticket"))?;
                if t.ctx != g.ctx || t.mdl_type != g.mdl_type || t.lock != id {
                    return Err(format!("{key}: ticket {:?} disagrees", g.ticket));
                }
                let c = self
                    .contexts
                    .get(&g.ctx)
                    .ok_or(format!("{key}: no context"))?;
                if !c.tickets[t.duration as usize].contains(&g.ticket) {
                    return Err(format!("{key}: ticket {:?} not in its context", g.ticket));
                }
                for h in &lock.granted {
                    if h.ctx != g.ctx
                        && lock.granted_incompatible(g.mdl_type) & h.mdl_type.bit() != 0
                    {
                        return Err(format!(
                            "{key}: {} of {:?} granted beside {} of {:?}",
                            g.mdl_type, g.ctx, h.mdl_type, h.ctx
                        ));
                    }
                }
            }
            for w in &lock.waiting {
                waiting_seen += 1;
                let p = self
                    .pending
                    .get(&w.request)
                    .ok_or(format!("{key}: lost request"))?;
                if p.ctx != w.ctx || p.mdl_type != w.mdl_type || p.lock != id {
                    return Err(format!("{key}: request {:?} disagrees", w.request));
                }
                if self.waiting_request(w.ctx) != Some(w.request) {
                    return Err(format!("{key}: {:?} waits for something else", w.ctx));
                }
                if lock.can_grant_lock(w.mdl_type, w.ctx) {
                    return Err(format!(
                        "{key}: request {:?} grantable but waits",
                        w.request
                    ));
                }
            }
        }
        let owned: usize = self
            .contexts
            .values()
            .map(|c| c.tickets.iter().map(Vec::len).sum::<usize>())
            .sum();
        if granted_seen != self.tickets.len() || owned != self.tickets.len() {
            return Err("ticket counts disagree".to_owned());
        }
        let waiting_contexts = self
            .contexts
            .values()
            .filter(|c| c.waiting_for.is_some())
            .count();
        if waiting_seen != self.pending.len() || waiting_contexts != self.pending.len() {
            return Err("request counts disagree".to_owned());
        }
        Ok(())
    }

    // --- internals ---------------------------------------------------------------

    fn assert_not_waiting(&self, ctx: MdlContextId) {
        if let Some(request) = self.waiting_request(ctx) {
            panic!("{ctx:?} already waits for {request:?}; a context waits for one lock");
        }
    }

    fn ticket_or_panic(&self, ticket: MdlTicketId) -> &MdlTicket {
        self.tickets
            .get(&ticket)
            .unwrap_or_else(|| panic!("no ticket {ticket:?}"))
    }

    /// Creates a granted ticket: lock list, ticket map, context list.
    fn add_ticket(
        &mut self,
        ctx: MdlContextId,
        lock: MdlLockId,
        mdl_type: MdlType,
        duration: MdlDuration,
    ) -> MdlTicketId {
        let ticket = MdlTicketId(self.next_ticket);
        self.next_ticket += 1;
        self.locks[lock.index()].push_granted(GrantedEntry {
            ticket,
            ctx,
            mdl_type,
        });
        self.record_ticket(ticket, ctx, lock, mdl_type, duration);
        ticket
    }

    /// Enters a ticket already in its lock's granted list into the ticket map and its
    /// context's duration list.
    fn record_ticket(
        &mut self,
        ticket: MdlTicketId,
        ctx: MdlContextId,
        lock: MdlLockId,
        mdl_type: MdlType,
        duration: MdlDuration,
    ) {
        self.tickets.insert(
            ticket,
            MdlTicket {
                ctx,
                lock,
                mdl_type,
                duration,
                granted_at: self.clock,
            },
        );
        self.contexts.or_default(ctx).tickets[duration as usize].push(ticket);
    }

    /// Gives a granted ticket a new type; like the server, it moves to the back of the
    /// granted list.
    fn set_ticket_type(&mut self, ticket: MdlTicketId, mdl_type: MdlType) {
        let t = self.tickets.get_mut(&ticket).expect("ticket exists");
        t.mdl_type = mdl_type;
        let lock = &mut self.locks[t.lock.index()];
        let mut entry = lock
            .remove_granted(ticket)
            .expect("ticket in its lock's granted list");
        entry.mdl_type = mdl_type;
        lock.push_granted(entry);
    }

    /// After a grant outside `reschedule_waiters()`: count hogs and piglets, and if the
    /// priority matrix changed, re-examine the queue (`try_acquire_lock_impl()`).
    fn after_grant(&mut self, lock_id: MdlLockId, mdl_type: MdlType, wakeups: &mut Wakeups) {
        let max = self.max_write_lock_count;
        let lock = &mut self.locks[lock_id.index()];
        if lock.strategy.affected_by_max_write_lock_count()
            && lock.count_piglets_and_hogs(mdl_type, max)
        {
            self.reschedule_waiters(lock_id, wakeups);
        }
    }

    /// Queues `w` for `ctx` (`MDL_lock::m_waiting`), its deadline `lock_wait_timeout`
    /// from `now`.
    fn enqueue(
        &mut self,
        ctx: MdlContextId,
        w: Waiting,
        now: Tick,
        lock_wait_timeout: Tick,
    ) -> MdlRequestId {
        let Waiting {
            lock,
            mdl_type,
            duration,
            upgrade: upgrade_of,
        } = w;
        let request = MdlRequestId(self.next_request);
        self.next_request += 1;
        self.locks[lock.index()].waiting.push(WaitingEntry {
            request,
            ctx,
            mdl_type,
        });
        self.pending.insert(
            request,
            MdlPending {
                ctx,
                lock,
                mdl_type,
                duration,
                upgrade_of,
                requested_at: now,
                deadline: now + lock_wait_timeout,
            },
        );
        self.contexts.or_default(ctx).waiting_for = Some(request);
        request
    }

    /// The start of a wait: search for deadlocks until none is left, failing victims
    /// (`MDL_context::find_deadlock()`). The search repeats because removing another
    /// context's wait breaks only the loop found, not necessarily every loop through
    /// this new edge. Bounded: each round removes one waiting request.
    fn wait_for(
        &mut self,
        ctx: MdlContextId,
        request: MdlRequestId,
        wakeups: &mut Wakeups,
    ) -> Acquire {
        let rounds = self.pending.len();
        for _ in 0..rounds {
            if !self.pending.contains_key(&request) {
                break;
            }
            let Some(victim) = DeadlockSearch::run(self, ctx) else {
                break;
            };
            let victim_request = self.waiting_request(victim).expect("a victim waits");
            let lock = self.remove_waiting(victim_request).lock;
            if victim == ctx {
                self.after_removal(lock, wakeups);
                return Acquire::Failed(MdlError::Deadlock);
            }
            wakeups.aborted.push(MdlAborted {
                request: victim_request,
                ctx: victim,
                error: MdlError::Deadlock,
            });
            self.after_removal(lock, wakeups);
        }
        if self.pending.contains_key(&request) {
            return Acquire::Waiting(request);
        }
        // Breaking a deadlock elsewhere let this request through.
        let pos = wakeups
            .granted
            .iter()
            .position(|g| g.request == request)
            .expect("a request that left the queue without failing was granted");
        Acquire::Granted(wakeups.granted.remove(pos).ticket)
    }

    /// Takes a request out of its queue and its context; the caller reschedules.
    fn remove_waiting(&mut self, request: MdlRequestId) -> MdlPending {
        let pending = self
            .pending
            .remove(&request)
            .unwrap_or_else(|| panic!("{request:?} is not waiting"));
        let lock = &mut self.locks[pending.lock.index()];
        lock.waiting.retain(|w| w.request != request);
        self.contexts
            .get_mut(&pending.ctx)
            .expect("waiting request has a context")
            .waiting_for = None;
        pending
    }

    /// Releases one ticket wherever it is in its context's lists (`MDL_context::release_lock()`).
    fn release_ticket(&mut self, ticket: MdlTicketId, wakeups: &mut Wakeups) {
        let (ctx, duration) = {
            let t = self.ticket_or_panic(ticket);
            (t.ctx, t.duration)
        };
        self.contexts
            .get_mut(&ctx)
            .expect("ticket owner has a context")
            .tickets[duration as usize]
            .retain(|&id| id != ticket);
        self.release_granted(ticket, wakeups);
    }

    /// The rest of a release once the ticket has left its context's list
    /// (`MDL_context::release_lock()` → `MDL_lock::remove_ticket()`): the ticket goes,
    /// and its lock grants what it now can.
    fn release_granted(&mut self, ticket: MdlTicketId, wakeups: &mut Wakeups) {
        let t = self
            .tickets
            .remove(&ticket)
            .unwrap_or_else(|| panic!("no ticket {ticket:?}"));
        let lock = &mut self.locks[t.lock.index()];
        lock.remove_granted(ticket);
        if lock.waiting.is_empty() {
            // after_removal() without the rescheduling: nothing waits, so
            // reschedule_waiters() would grant nothing and only reset the counters.
            if lock.granted.is_empty() {
                lock.reset_unused();
            } else if lock.strategy.affected_by_max_write_lock_count() {
                lock.reset_priority_matrix();
            }
        } else {
            self.after_removal(t.lock, wakeups);
        }
    }

    /// Releases one duration's tickets, newest first; each round removes one ticket.
    fn release_duration(
        &mut self,
        ctx: MdlContextId,
        duration: MdlDuration,
        wakeups: &mut Wakeups,
    ) {
        while let Some(ticket) = self
            .contexts
            .get_mut(&ctx)
            .and_then(|c| c.tickets[duration as usize].pop())
        {
            self.release_granted(ticket, wakeups);
        }
    }

    /// After a ticket or request left a lock (`MDL_lock::remove_ticket()`): an unused
    /// lock object stays, as fresh as a new one, for its name's next request; a used
    /// one grants what it now can.
    fn after_removal(&mut self, lock: MdlLockId, wakeups: &mut Wakeups) {
        let object = &mut self.locks[lock.index()];
        if object.is_unused() {
            object.reset_unused();
        } else {
            self.reschedule_waiters(lock, wakeups);
        }
    }

    /// Grants, in queue order, every waiting request that can now be granted
    /// (`MDL_lock::reschedule_waiters()`). A switch of priority matrix restarts the
    /// scan; that happens at most twice, as the matrix index only grows here.
    fn reschedule_waiters(&mut self, lock_id: MdlLockId, wakeups: &mut Wakeups) {
        let max = self.max_write_lock_count;
        let lock = &mut self.locks[lock_id.index()];
        let mut i = 0;
        let mut restarts = 0u32;
        while i < lock.waiting.len() {
            let w = lock.waiting[i];
            if !lock.can_grant_lock(w.mdl_type, w.ctx) {
                i += 1;
                continue;
            }
            lock.waiting.remove(i);
            let pending = self.pending.remove(&w.request).expect("queued request");
            let c = self.contexts.get_mut(&w.ctx).expect("waiter's context");
            c.waiting_for = None;
            let ticket = match pending.upgrade_of {
                None => {
                    let ticket = MdlTicketId(self.next_ticket);
                    self.next_ticket += 1;
                    lock.push_granted(GrantedEntry {
                        ticket,
                        ctx: w.ctx,
                        mdl_type: w.mdl_type,
                    });
                    c.tickets[pending.duration as usize].push(ticket);
                    self.tickets.insert(
                        ticket,
                        MdlTicket {
                            ctx: w.ctx,
                            lock: lock_id,
                            mdl_type: w.mdl_type,
                            duration: pending.duration,
                            granted_at: self.clock,
                        },
                    );
                    ticket
                }
                Some(ticket) => {
                    // Merge the upgrade into the old ticket, which moves to the back.
                    lock.remove_granted(ticket);
                    lock.push_granted(GrantedEntry {
                        ticket,
                        ctx: w.ctx,
                        mdl_type: w.mdl_type,
                    });
                    self.tickets
                        .get_mut(&ticket)
                        .expect("upgraded ticket")
                        .mdl_type = w.mdl_type;
                    ticket
                }
            };
            wakeups.granted.push(MdlGranted {
                request: w.request,
                ctx: w.ctx,
                ticket,
            });
            if lock.strategy.affected_by_max_write_lock_count()
                && lock.count_piglets_and_hogs(w.mdl_type, max)
            {
                // The new matrix may let through earlier waiters that are compatible
                // with what was just granted.
                restarts += 1;
                assert!(
                    restarts <= 3,
                    "priority matrix index only grows in one scan"
                );
                i = 0;
            }
        }
        if lock.strategy.affected_by_max_write_lock_count() {
            lock.reset_priority_matrix();
        }
    }
}

/// The graph the deadlock search walks, read from the lock lists.
impl WaitForGraph for MdlManager {
    fn waiting_request(&self, ctx: MdlContextId) -> Option<MdlRequestId> {
        MdlManager::waiting_request(self, ctx)
    }

    fn blockers(&self, ctx: MdlContextId, request: MdlRequestId) -> Vec<MdlBlocker> {
        let p = &self.pending[&request];
        self.locks[p.lock.index()].blockers(p.mdl_type, ctx)
    }

    /// What the context waits for, not what it holds (`MDL_context::
    /// get_deadlock_weight()`), unless it is forced to DML weight.
    fn deadlock_weight(&self, ctx: MdlContextId) -> u32 {
        let c = &self.contexts[&ctx];
        if c.force_dml_deadlock_weight {
            return DEADLOCK_WEIGHT_DML;
        }
        let request = c.waiting_for.expect("only waiting contexts are weighed");
        let p = &self.pending[&request];
        deadlock::ticket_deadlock_weight(self.key(p.lock), p.mdl_type)
    }
}

/// A ticket of context `ctx` on `lock` (of `strategy`) of `mdl_type` or stronger,
/// looking first in `duration`'s list, then the next durations in turn, newest first
/// (`MDL_context::find_ticket()`).
fn find_ticket(
    contexts: &ContextMap<MdlContext>,
    tickets: &IdMap<MdlTicketId, MdlTicket>,
    ctx: MdlContextId,
    lock: MdlLockId,
    strategy: MdlLockStrategy,
    mdl_type: MdlType,
    duration: MdlDuration,
) -> Option<(MdlTicketId, MdlDuration)> {
    let c = contexts.get(&ctx)?;
    (0..MdlDuration::ALL.len())
        .map(|i| MdlDuration::ALL[(duration as usize + i) % MdlDuration::ALL.len()])
        .find_map(|d| {
            c.tickets[d as usize].iter().rev().find_map(|id| {
                let t = &tickets[id];
                (t.lock == lock && has_stronger_or_equal_type(strategy, t.mdl_type, mdl_type))
                    .then_some((*id, d))
            })
        })
}
