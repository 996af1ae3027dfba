//! Metadata locks: the SQL layer's lock manager, and how one `ALTER TABLE` can stall
//! every query on a table.
//!
//! MySQL protects table *definitions* (not rows) with metadata locks (MDL). Every
//! statement locks each table it opens, and keeps the lock to the end of the statement or
//! of the transaction: `SELECT` takes `SHARED_READ` (SR), DML `SHARED_WRITE` (SW), `LOCK
//! TABLES` `SHARED_READ_ONLY`/`SHARED_NO_READ_WRITE`, `DROP`/`RENAME`/`TRUNCATE`
//! `EXCLUSIVE` (X), and an online `ALTER` runs under `SHARED_UPGRADABLE` (SU) which it
//! upgrades to X for its short prepare and commit phases. Statements that may change
//! data also take an intention-exclusive lock in the GLOBAL namespace, which is what
//! `FLUSH TABLES WITH READ LOCK` (shared GLOBAL and COMMIT locks) waits for.
//!
//! Each lock name ([`MdlKey`]) has one lock object (`MDL_lock`) with a list of granted
//! tickets and a queue of waiting requests. [`MdlLock::can_grant_lock`](lock::MdlLock::can_grant_lock) is the whole
//! policy: a request is granted iff no *granted* ticket of another context is
//! incompatible with it (the compatibility matrix) and no *waiting* request is
//! incompatible with it (the priority matrix). The second rule is what keeps a stream of
//! readers from starving DDL, and it is also what turns one blocked DDL into a convoy:
//!
//! ```text
//!   trx:   BEGIN; SELECT ... FROM t;       SR  granted, held until COMMIT
//!   alter: ALTER TABLE t ...               SU  granted; upgrade to X: PENDING
//!   q1:    SELECT ... FROM t;              SR  PENDING (an SR may not pass a pending X)
//!   q2:    UPDATE t ...;                   SW  PENDING
//!
//!   MDL_lock TABLE db.t
//!     granted: [trx SR] [alter SU]
//!     waiting: [alter X] <- [q1 SR] <- [q2 SW] <- ... every new statement on t
//!                  |            |         |
//!                  |            +---------+--> wait for alter's *pending* X
//!                  +--> waits for trx's *granted* SR
//! ```
//!
//! The idle transaction blocks nobody by itself; it is the pending X, queued behind it,
//! that blocks everyone else, for as long as `lock_wait_timeout` (one year by default).
//! When `trx` commits, X is granted; when `alter` releases or downgrades X, the queued
//! requests are granted in queue order ([`MdlManager::release`] returns them as
//! [`Wakeups`] so the scheduler can wake those sessions).
//!
//! `SHARED_HIGH_PRIO` (SH, used by `INFORMATION_SCHEMA`) ignores pending X; SW ignores a
//! pending `SHARED_READ_ONLY`. To stop the strong "hog" types (SNW, SNRW, X) and the
//! "piglet" SW from starving weaker requests, the server counts how many of them it
//! granted in a row while weaker requests waited, and past `max_write_lock_count`
//! switches the lock to one of three alternative priority matrices. The default
//! `max_write_lock_count` is `ULONG_MAX`, so in practice the default matrix is the only
//! one in use; [`MdlManager::max_write_lock_count`] lets a scenario lower it.
//!
//! When a request has to wait, the waiting context searches the wait-for graph (an edge
//! goes from a waiting context to each context owning a granted or waiting ticket that
//! blocks it) for a path back to itself. On a cycle the context whose wait has the lowest
//! deadlock weight is the victim (DML 25 < DDL 100, ties go to the context that ran the
//! search), and its request fails with `ER_LOCK_DEADLOCK`.
//!
//! The scoped namespaces (GLOBAL, BACKUP LOCK, SCHEMA, COMMIT) use a three-type strategy
//! (IX, S, X); TABLE uses the ten object types. Both follow 8.0.40
//! `sql/mdl.cc` (`MDL_lock::m_scoped_lock_strategy`, `m_object_lock_strategy`,
//! `can_grant_lock()`, `reschedule_waiters()`, `count_piglets_and_hogs()`,
//! `MDL_context::find_deadlock()`).
//!
//! Where this model is simpler than the server, the file with the code says so in a
//! `Simplification:` note: the grant fast path (`lock.rs`), requests that end at once
//! (`manager.rs`), the deadlock search's memory (`deadlock.rs`), and the namespaces left
//! out (`types.rs`).
//!
//! Code map, each file depending only on those before it:
//!
//! ```text
//!   types.rs     the vocabulary: keys, types, durations, requests, errors, wakeups
//!   matrix.rs    the compatibility and priority matrices (sql/mdl.cc's bitmaps)
//!   lock.rs      one lock name: granted list, waiting queue, can_grant_lock()
//!   deadlock.rs  the wait-for graph search and the victim's choice, over a trait
//!   id_map.rs    the granted tickets by id, a sorted Vec
//!   manager.rs   MdlManager: acquire, upgrade, downgrade, release, expire, validate
//!   view.rs      performance_schema.metadata_locks rows, waits, queues()
//!   golden.rs    the transcript tests, testdata/*.mdl (tests.rs: the other tests)
//!   session_props.rs  property runs: the manager's invariants under random sessions
//! ```

mod context_map;
mod deadlock;
mod id_map;
mod lock;
mod manager;
mod matrix;
mod types;
mod view;

#[cfg(test)]
mod golden;
#[cfg(test)]
mod session_props;
#[cfg(test)]
mod tests;

pub use lock::{MdlBlocker, MdlLockStatus};
pub use manager::MdlManager;
pub use types::{
    Acquire, MdlContextId, MdlDuration, MdlError, MdlKey, MdlLockId, MdlNamespace, MdlRequest,
    MdlRequestId, MdlTicketId, MdlType, Wakeups,
};
pub use view::{MdlQueue, MdlQueueEntry, MdlRowId, MdlWait, MetadataLockRow};
#[cfg(test)]
use {manager::LOCK_WAIT_TIMEOUT_DEFAULT, types::MdlLockStrategy};
