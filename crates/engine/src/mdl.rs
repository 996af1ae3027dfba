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
//! tickets and a queue of waiting requests. [`MdlLock::can_grant_lock`] is the whole
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
//! Simplification: the server grants the "unobtrusive" types (S, SH, SR, SW, SWLP) on a
//! lock-free fast path while no obtrusive lock is granted or pending; that path only
//! changes the cost, never the decision, so every ticket here takes the slow path.
//!
//! Simplification: a request's end (grant, timeout, kill, deadlock victim) happens at
//! once, so the transient `performance_schema` statuses VICTIM, TIMEOUT, KILLED and the
//! storage-engine notifications (PRE_ACQUIRE_NOTIFY, POST_RELEASE_NOTIFY) never show.
//! Timeouts fire when the scheduler calls [`MdlManager::expire`], at the deadline it got
//! from [`MdlManager::next_deadline`].
//!
//! Simplification: the deadlock search remembers contexts it has fully explored, so it
//! stays linear on the wide wait-for graphs a convoy builds; the server re-walks them.
//! The answer differs only when a path is longer than the 32-context search limit.
//!
//! Simplification: no user-level locks, stored routines, tablespaces or commit-order
//! waits; names are compared as given (no `lower_case_table_names`).

use crate::time::Tick;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// `lock_wait_timeout`'s default, one year (`LONG_TIMEOUT`, `sql/sql_const.h`).
pub const LOCK_WAIT_TIMEOUT_DEFAULT: Tick = Tick::from_secs(31_536_000);

/// Deadlock weight of a wait for a DML-type lock (`DEADLOCK_WEIGHT_DML`, 8.0.40).
pub const DEADLOCK_WEIGHT_DML: u32 = 25;

/// Deadlock weight of a wait for SU or stronger, or in GLOBAL (`DEADLOCK_WEIGHT_DDL`).
pub const DEADLOCK_WEIGHT_DDL: u32 = 100;

/// Past this many contexts on one path the search declares a deadlock
/// (`Deadlock_detection_visitor::MAX_SEARCH_DEPTH`).
pub const MAX_SEARCH_DEPTH: u32 = 32;

/// One session's metadata-lock owner (`MDL_context`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MdlContextId(pub u32);

/// A granted lock (`MDL_ticket` in a lock's granted list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MdlTicketId(pub u64);

/// A pending request (`MDL_ticket` in a lock's waiting queue); it becomes a ticket when
/// granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MdlRequestId(pub u64);

/// Lock namespaces (`MDL_key::enum_mdl_namespace`), in the server's order, which is also
/// the order keys sort in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MdlNamespace {
    /// The global read lock (`FLUSH TABLES WITH READ LOCK` takes S, writers IX).
    Global,
    /// `LOCK INSTANCE FOR BACKUP` (S) against DDL (IX).
    BackupLock,
    /// A schema: DDL takes IX on its schema, `DROP DATABASE` X.
    Schema,
    /// A table or view.
    Table,
    /// Commits (FTWRL's second lock; a committing transaction takes IX).
    Commit,
}

/// Which set of types and matrices a namespace uses (`MDL_lock_strategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MdlLockStrategy {
    /// IX, S and X only (`m_scoped_lock_strategy`).
    Scoped,
    /// The ten object types, no IX (`m_object_lock_strategy`).
    Object,
}

impl MdlNamespace {
    /// The lock strategy (`MDL_lock::get_strategy()`).
    pub const fn strategy(self) -> MdlLockStrategy {
        match self {
            MdlNamespace::Table => MdlLockStrategy::Object,
            MdlNamespace::Global
            | MdlNamespace::BackupLock
            | MdlNamespace::Schema
            | MdlNamespace::Commit => MdlLockStrategy::Scoped,
        }
    }

    /// `performance_schema.metadata_locks.OBJECT_TYPE`.
    pub const fn object_type(self) -> &'static str {
        match self {
            MdlNamespace::Global => "GLOBAL",
            MdlNamespace::BackupLock => "BACKUP LOCK",
            MdlNamespace::Schema => "SCHEMA",
            MdlNamespace::Table => "TABLE",
            MdlNamespace::Commit => "COMMIT",
        }
    }

    /// The thread state while waiting (`MDL_key::m_namespace_to_wait_state_name`).
    pub const fn wait_state_name(self) -> &'static str {
        match self {
            MdlNamespace::Global => "Waiting for global read lock",
            MdlNamespace::BackupLock => "Waiting for backup lock",
            MdlNamespace::Schema => "Waiting for schema metadata lock",
            MdlNamespace::Table => "Waiting for table metadata lock",
            MdlNamespace::Commit => "Waiting for commit lock",
        }
    }
}

impl MdlLockStrategy {
    /// Whether requests of `mdl_type` exist in this strategy.
    pub const fn supports(self, mdl_type: MdlType) -> bool {
        let scoped = matches!(
            mdl_type,
            MdlType::IntentionExclusive | MdlType::Shared | MdlType::Exclusive
        );
        match self {
            MdlLockStrategy::Scoped => scoped,
            MdlLockStrategy::Object => !matches!(mdl_type, MdlType::IntentionExclusive),
        }
    }

    fn matrices(self) -> &'static matrix::Matrices {
        match self {
            MdlLockStrategy::Scoped => &matrix::SCOPED,
            MdlLockStrategy::Object => &matrix::OBJECT,
        }
    }

    /// Whether `max_write_lock_count` applies (`m_is_affected_by_max_write_lock_count`).
    const fn affected_by_max_write_lock_count(self) -> bool {
        matches!(self, MdlLockStrategy::Object)
    }
}

/// A lock name (`MDL_key`): namespace, schema and object name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MdlKey {
    namespace: MdlNamespace,
    db: String,
    name: String,
}

impl MdlKey {
    /// The global read lock's key.
    pub fn global() -> MdlKey {
        MdlKey::new(MdlNamespace::Global, "", "")
    }
    /// The backup lock's key.
    pub fn backup_lock() -> MdlKey {
        MdlKey::new(MdlNamespace::BackupLock, "", "")
    }
    /// The commit lock's key.
    pub fn commit() -> MdlKey {
        MdlKey::new(MdlNamespace::Commit, "", "")
    }
    /// A schema's key.
    pub fn schema(db: &str) -> MdlKey {
        MdlKey::new(MdlNamespace::Schema, db, "")
    }
    /// A table's key.
    pub fn table(db: &str, name: &str) -> MdlKey {
        MdlKey::new(MdlNamespace::Table, db, name)
    }

    fn new(namespace: MdlNamespace, db: &str, name: &str) -> MdlKey {
        MdlKey {
            namespace,
            db: db.to_owned(),
            name: name.to_owned(),
        }
    }

    /// The namespace.
    pub fn namespace(&self) -> MdlNamespace {
        self.namespace
    }
    /// The schema name; empty for GLOBAL, BACKUP LOCK and COMMIT.
    pub fn db_name(&self) -> &str {
        &self.db
    }
    /// The object name; empty except for tables.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The thread state a session shows while waiting for this lock.
    pub fn wait_state_name(&self) -> &'static str {
        self.namespace.wait_state_name()
    }

    /// `OBJECT_SCHEMA` as `performance_schema` shows it (NULL = `None`).
    pub fn object_schema(&self) -> Option<&str> {
        match self.namespace {
            MdlNamespace::Schema | MdlNamespace::Table => Some(&self.db),
            _ => None,
        }
    }
    /// `OBJECT_NAME` as `performance_schema` shows it (NULL = `None`).
    pub fn object_name(&self) -> Option<&str> {
        match self.namespace {
            MdlNamespace::Table => Some(&self.name),
            _ => None,
        }
    }
}

impl fmt::Display for MdlKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.namespace {
            MdlNamespace::Schema => write!(f, "SCHEMA {}", self.db),
            MdlNamespace::Table => write!(f, "TABLE {}.{}", self.db, self.name),
            ns => f.write_str(ns.object_type()),
        }
    }
}

/// Lock types (`enum_mdl_type`), weakest first, in the server's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MdlType {
    /// IX: scoped locks only; a statement that may change data or metadata.
    IntentionExclusive,
    /// S: metadata only (prepared statements, `HANDLER`, routines).
    Shared,
    /// SH: metadata only, granted even past a pending X (`INFORMATION_SCHEMA`).
    SharedHighPrio,
    /// SR: read data (`SELECT`).
    SharedRead,
    /// SW: change data (DML, `SELECT ... FOR UPDATE`).
    SharedWrite,
    /// SWLP: DML with `LOW_PRIORITY`, yields to pending SRO.
    SharedWriteLowPrio,
    /// SU: upgradable; reads allowed, one per table (first phase of `ALTER`).
    SharedUpgradable,
    /// SRO: read, block all changes (`LOCK TABLES ... READ`).
    SharedReadOnly,
    /// SNW: upgradable; reads allowed, writes blocked (copying `ALTER`).
    SharedNoWrite,
    /// SNRW: upgradable; only metadata access by others (`LOCK TABLES ... WRITE`).
    SharedNoReadWrite,
    /// X: exclusive (`DROP`, `RENAME`, `TRUNCATE`, `ALTER`'s prepare and commit).
    Exclusive,
}

impl MdlType {
    /// Every type, in the server's order.
    pub const ALL: [MdlType; 11] = [
        MdlType::IntentionExclusive,
        MdlType::Shared,
        MdlType::SharedHighPrio,
        MdlType::SharedRead,
        MdlType::SharedWrite,
        MdlType::SharedWriteLowPrio,
        MdlType::SharedUpgradable,
        MdlType::SharedReadOnly,
        MdlType::SharedNoWrite,
        MdlType::SharedNoReadWrite,
        MdlType::Exclusive,
    ];

    /// The object-lock types, as the manual's matrices list them.
    pub const OBJECT: [MdlType; 10] = [
        MdlType::Shared,
        MdlType::SharedHighPrio,
        MdlType::SharedRead,
        MdlType::SharedWrite,
        MdlType::SharedWriteLowPrio,
        MdlType::SharedUpgradable,
        MdlType::SharedReadOnly,
        MdlType::SharedNoWrite,
        MdlType::SharedNoReadWrite,
        MdlType::Exclusive,
    ];

    /// The scoped-lock types.
    pub const SCOPED: [MdlType; 3] = [
        MdlType::IntentionExclusive,
        MdlType::Shared,
        MdlType::Exclusive,
    ];

    /// The abbreviation the server's comments use: `SR`, `SNW`, ...
    pub const fn abbrev(self) -> &'static str {
        match self {
            MdlType::IntentionExclusive => "IX",
            MdlType::Shared => "S",
            MdlType::SharedHighPrio => "SH",
            MdlType::SharedRead => "SR",
            MdlType::SharedWrite => "SW",
            MdlType::SharedWriteLowPrio => "SWLP",
            MdlType::SharedUpgradable => "SU",
            MdlType::SharedReadOnly => "SRO",
            MdlType::SharedNoWrite => "SNW",
            MdlType::SharedNoReadWrite => "SNRW",
            MdlType::Exclusive => "X",
        }
    }

    /// The type with this abbreviation.
    pub fn from_abbrev(s: &str) -> Option<MdlType> {
        MdlType::ALL.into_iter().find(|t| t.abbrev() == s)
    }

    /// `performance_schema.metadata_locks.LOCK_TYPE`: `SHARED_READ`, ...
    pub const fn pfs_name(self) -> &'static str {
        match self {
            MdlType::IntentionExclusive => "INTENTION_EXCLUSIVE",
            MdlType::Shared => "SHARED",
            MdlType::SharedHighPrio => "SHARED_HIGH_PRIO",
            MdlType::SharedRead => "SHARED_READ",
            MdlType::SharedWrite => "SHARED_WRITE",
            MdlType::SharedWriteLowPrio => "SHARED_WRITE_LOW_PRIO",
            MdlType::SharedUpgradable => "SHARED_UPGRADABLE",
            MdlType::SharedReadOnly => "SHARED_READ_ONLY",
            MdlType::SharedNoWrite => "SHARED_NO_WRITE",
            MdlType::SharedNoReadWrite => "SHARED_NO_READ_WRITE",
            MdlType::Exclusive => "EXCLUSIVE",
        }
    }

    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// The server's enum name: `MDL_SHARED_READ`.
impl fmt::Display for MdlType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MDL_{}", self.pfs_name())
    }
}

/// How long a ticket lives (`enum_mdl_duration`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MdlDuration {
    /// Released at the end of the statement (or transaction).
    Statement,
    /// Released at `COMMIT`/`ROLLBACK`; what DML locks use.
    Transaction,
    /// Released only on request (`LOCK TABLES`, FTWRL, `HANDLER`).
    Explicit,
}

impl MdlDuration {
    /// Every duration, in the server's order.
    pub const ALL: [MdlDuration; 3] = [
        MdlDuration::Statement,
        MdlDuration::Transaction,
        MdlDuration::Explicit,
    ];

    /// `performance_schema.metadata_locks.LOCK_DURATION`.
    pub const fn pfs_name(self) -> &'static str {
        match self {
            MdlDuration::Statement => "STATEMENT",
            MdlDuration::Transaction => "TRANSACTION",
            MdlDuration::Explicit => "EXPLICIT",
        }
    }
}

/// The server's enum name: `MDL_TRANSACTION`.
impl fmt::Display for MdlDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MDL_{}", self.pfs_name())
    }
}

/// What to lock (`MDL_request`): a name, a type and a duration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdlRequest {
    /// The lock name.
    pub key: MdlKey,
    /// The type requested.
    pub mdl_type: MdlType,
    /// How long the ticket lives once granted.
    pub duration: MdlDuration,
}

impl MdlRequest {
    /// A request (`MDL_REQUEST_INIT`).
    pub fn new(key: MdlKey, mdl_type: MdlType, duration: MdlDuration) -> MdlRequest {
        MdlRequest {
            key,
            mdl_type,
            duration,
        }
    }
}

/// Why a lock request failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MdlError {
    /// `ER_LOCK_DEADLOCK` (1213): this request was the deadlock victim.
    Deadlock,
    /// `ER_LOCK_WAIT_TIMEOUT` (1205): `lock_wait_timeout` passed.
    LockWaitTimeout,
    /// `ER_QUERY_INTERRUPTED` (1317): the waiting statement was killed.
    QueryInterrupted,
}

impl MdlError {
    /// The server error number.
    pub const fn code(self) -> u16 {
        match self {
            MdlError::Deadlock => 1213,
            MdlError::LockWaitTimeout => 1205,
            MdlError::QueryInterrupted => 1317,
        }
    }
    /// The SQLSTATE.
    pub const fn sqlstate(self) -> &'static str {
        match self {
            MdlError::Deadlock => "40001",
            MdlError::LockWaitTimeout => "HY000",
            MdlError::QueryInterrupted => "70100",
        }
    }
    /// The message.
    pub const fn message(self) -> &'static str {
        match self {
            MdlError::Deadlock => {
                "Deadlock found when trying to get lock; try restarting transaction"
            }
            MdlError::LockWaitTimeout => "Lock wait timeout exceeded; try restarting transaction",
            MdlError::QueryInterrupted => "Query execution was interrupted",
        }
    }
}

/// As the `mysql` client prints it.
impl fmt::Display for MdlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ERROR {} ({}): {}",
            self.code(),
            self.sqlstate(),
            self.message()
        )
    }
}

impl std::error::Error for MdlError {}

impl From<MdlError> for crate::sql::SqlError {
    fn from(e: MdlError) -> crate::sql::SqlError {
        crate::sql::SqlError {
            code: e.code(),
            sqlstate: e.sqlstate(),
            message: e.message().to_owned(),
        }
    }
}

/// The answer to [`MdlManager::acquire`] or [`MdlManager::upgrade`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acquire {
    /// Granted at once.
    Granted(MdlTicketId),
    /// Queued; the session sleeps until a [`Wakeups`] entry names this request.
    Waiting(MdlRequestId),
    /// Refused: deadlock victim, or `lock_wait_timeout` = 0 and a conflict.
    Failed(MdlError),
}

/// A waiting request that has just been granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MdlGranted {
    /// The request that waited.
    pub request: MdlRequestId,
    /// Its owner, the session to wake.
    pub ctx: MdlContextId,
    /// The new ticket; for an upgrade, the upgraded ticket.
    pub ticket: MdlTicketId,
}

/// A waiting request that has just failed and left the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MdlAborted {
    /// The request that waited.
    pub request: MdlRequestId,
    /// Its owner, the session to wake with the error.
    pub ctx: MdlContextId,
    /// Why.
    pub error: MdlError,
}

/// Sessions to wake after an operation: their requests were granted or failed.
#[must_use = "the sessions named here are waiting to be woken"]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wakeups {
    /// Granted requests, in the order they were granted.
    pub granted: Vec<MdlGranted>,
    /// Failed requests, in the order they failed.
    pub aborted: Vec<MdlAborted>,
}

impl Wakeups {
    /// Nobody to wake.
    pub fn is_empty(&self) -> bool {
        self.granted.is_empty() && self.aborted.is_empty()
    }
}

/// A granted lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdlTicket {
    /// The owner.
    pub ctx: MdlContextId,
    /// The lock name.
    pub key: MdlKey,
    /// The current type (upgrades and downgrades change it).
    pub mdl_type: MdlType,
    /// When it is released.
    pub duration: MdlDuration,
    /// When it was granted (see [`MdlManager::set_clock`]); an upgrade or a downgrade
    /// keeps the first grant's time, since the context has held the name all along.
    pub granted_at: Tick,
}

/// A waiting request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdlPending {
    /// The owner.
    pub ctx: MdlContextId,
    /// The lock name.
    pub key: MdlKey,
    /// The type requested.
    pub mdl_type: MdlType,
    /// The duration it will have; upgrades request `TRANSACTION`, as the server does.
    pub duration: MdlDuration,
    /// For an upgrade, the ticket that gets the new type when granted.
    pub upgrade_of: Option<MdlTicketId>,
    /// When it started waiting.
    pub requested_at: Tick,
    /// When it times out: `requested_at + lock_wait_timeout`.
    pub deadline: Tick,
}

/// `LOCK_STATUS` of a `performance_schema.metadata_locks` row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MdlLockStatus {
    /// Granted.
    Granted,
    /// Waiting.
    Pending,
}

impl MdlLockStatus {
    /// `GRANTED` or `PENDING`.
    pub const fn pfs_name(self) -> &'static str {
        match self {
            MdlLockStatus::Granted => "GRANTED",
            MdlLockStatus::Pending => "PENDING",
        }
    }
}

/// Which ticket or request a `metadata_locks` row shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MdlRowId {
    /// A granted ticket.
    Ticket(MdlTicketId),
    /// A pending request.
    Request(MdlRequestId),
}

/// One row of `performance_schema.metadata_locks`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetadataLockRow {
    /// `OBJECT_TYPE`: `TABLE`, `SCHEMA`, `GLOBAL`, `COMMIT`, `BACKUP LOCK`.
    pub object_type: &'static str,
    /// `OBJECT_SCHEMA`, `None` for NULL.
    pub object_schema: Option<String>,
    /// `OBJECT_NAME`, `None` for NULL.
    pub object_name: Option<String>,
    /// `LOCK_TYPE`.
    pub lock_type: MdlType,
    /// `LOCK_DURATION`.
    pub lock_duration: MdlDuration,
    /// `LOCK_STATUS`.
    pub lock_status: MdlLockStatus,
    /// The owner (`OWNER_THREAD_ID` maps from it).
    pub owner: MdlContextId,
    /// The ticket or request behind the row.
    pub id: MdlRowId,
}

/// A ticket or request that a waiting request waits for: one wait-for edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MdlBlocker {
    /// The context in the way.
    pub ctx: MdlContextId,
    /// Its type.
    pub mdl_type: MdlType,
    /// Granted (compatibility matrix) or pending ahead in priority (priority matrix).
    pub status: MdlLockStatus,
}

/// A waiting request and what blocks it, for the UI's arrows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdlWait {
    /// The request.
    pub request: MdlRequestId,
    /// Who waits.
    pub ctx: MdlContextId,
    /// The lock name.
    pub key: MdlKey,
    /// The type requested.
    pub mdl_type: MdlType,
    /// The thread state: "Waiting for table metadata lock", ...
    pub wait_state: &'static str,
    /// When it started waiting.
    pub requested_at: Tick,
    /// When it times out.
    pub deadline: Tick,
    /// Everything in its way, granted tickets first, each in list order.
    pub blockers: Vec<MdlBlocker>,
}

/// A granted ticket or a waiting request in one lock's lists, for a picture of the
/// queue: who holds or wants what, since when, and (for a waiter) who is in its way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdlQueueEntry {
    /// The owner; the session's processlist id.
    pub ctx: MdlContextId,
    /// The type granted or requested (`LOCK_TYPE`).
    pub mdl_type: MdlType,
    /// `LOCK_DURATION`.
    pub duration: MdlDuration,
    /// `GRANTED` or `PENDING`.
    pub status: MdlLockStatus,
    /// Granted at ([`MdlTicket::granted_at`]), or waiting since
    /// ([`MdlPending::requested_at`]).
    pub since: Tick,
    /// For a waiting request, its wait-for edges as in [`MdlWait::blockers`]: granted
    /// tickets first, then requests ahead of it in priority. Empty for a granted ticket.
    pub blockers: Vec<MdlBlocker>,
}

/// One lock name's state (`MDL_lock`): its granted list and its waiting queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdlQueue {
    /// The lock name.
    pub key: MdlKey,
    /// Granted tickets in list order: oldest first, an upgraded or downgraded ticket
    /// moved to the back, as the server keeps `m_granted`.
    pub granted: Vec<MdlQueueEntry>,
    /// Waiting requests in arrival order (`m_waiting`).
    pub waiting: Vec<MdlQueueEntry>,
}

/// The compatibility and priority matrices, as bitmaps: entry `[t]` holds the types that
/// block a request of type `t` (`m_granted_incompatible`, `m_waiting_incompatible`).
mod matrix {
    use super::MdlType;

    const IX: u16 = MdlType::IntentionExclusive.bit();
    const S: u16 = MdlType::Shared.bit();
    const SH: u16 = MdlType::SharedHighPrio.bit();
    const SR: u16 = MdlType::SharedRead.bit();
    const SW: u16 = MdlType::SharedWrite.bit();
    const SWLP: u16 = MdlType::SharedWriteLowPrio.bit();
    const SU: u16 = MdlType::SharedUpgradable.bit();
    const SRO: u16 = MdlType::SharedReadOnly.bit();
    const SNW: u16 = MdlType::SharedNoWrite.bit();
    const SNRW: u16 = MdlType::SharedNoReadWrite.bit();
    const X: u16 = MdlType::Exclusive.bit();

    /// The strong types that may starve weaker ones (`MDL_OBJECT_HOG_LOCK_TYPES`).
    pub(super) const HOG: u16 = SNW | SNRW | X;
    pub(super) const SHARED_WRITE: u16 = SW;
    pub(super) const SHARED_WRITE_LOW_PRIO: u16 = SWLP;
    pub(super) const SHARED_READ_ONLY: u16 = SRO;

    /// One strategy's matrices; rows are indexed by the requested type.
    #[derive(Debug)]
    pub(super) struct Matrices {
        /// Granted types (of other contexts) that block a request.
        pub(super) granted: [u16; 11],
        /// Waiting types that block a request: #0 default, #1 piglets over the limit,
        /// #2 hogs over the limit, #3 both.
        pub(super) waiting: [[u16; 11]; 4],
    }

    pub(super) const SCOPED: Matrices = Matrices {
        granted: [
            /* IX   */ S | X,
            /* S    */ IX | X,
            /* SH   */ 0,
            /* SR   */ 0,
            /* SW   */ 0,
            /* SWLP */ 0,
            /* SU   */ 0,
            /* SRO  */ 0,
            /* SNW  */ 0,
            /* SNRW */ 0,
            /* X    */ IX | S | X,
        ],
        // Scoped locks use only the default priority matrix.
        waiting: [
            [S | X, X, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            [0; 11],
            [0; 11],
            [0; 11],
        ],
    };

    pub(super) const OBJECT: Matrices = Matrices {
        granted: [
            /* IX   */ 0,
            /* S    */ X,
            /* SH   */ X,
            /* SR   */ X | SNRW,
            /* SW   */ X | SNRW | SNW | SRO,
            /* SWLP */ X | SNRW | SNW | SRO,
            /* SU   */ X | SNRW | SNW | SU,
            /* SRO  */ X | SNRW | SW | SWLP,
            /* SNW  */ X | SNRW | SNW | SU | SW | SWLP,
            /* SNRW */ X | SNRW | SNW | SRO | SU | SW | SWLP | SR,
            /* X    */ X | SNRW | SNW | SRO | SU | SW | SWLP | SR | SH | S,
        ],
        waiting: [
            // #0: the default. X outranks everything but SH; SNW/SNRW outrank SR/SW.
            [
                /* IX   */ 0,
                /* S    */ X,
                /* SH   */ 0,
                /* SR   */ X | SNRW,
                /* SW   */ X | SNRW | SNW,
                /* SWLP */ X | SNRW | SNW | SRO,
                /* SU   */ X,
                /* SRO  */ X | SNRW | SW,
                /* SNW  */ X,
                /* SNRW */ X,
                /* X    */ 0,
            ],
            // #1: too many SW ("piglets") in a row: SRO now outranks SW.
            [
                /* IX   */ 0,
                /* S    */ X,
                /* SH   */ 0,
                /* SR   */ X | SNRW,
                /* SW   */ X | SNRW | SNW | SRO,
                /* SWLP */ X | SNRW | SNW | SRO,
                /* SU   */ X,
                /* SRO  */ X | SNRW,
                /* SNW  */ X,
                /* SNRW */ X,
                /* X    */ 0,
            ],
            // #2: too many hogs in a row: every weaker type outranks them.
            [
                /* IX   */ 0,
                /* S    */ 0,
                /* SH   */ 0,
                /* SR   */ 0,
                /* SW   */ 0,
                /* SWLP */ SRO,
                /* SU   */ 0,
                /* SRO  */ SW,
                /* SNW  */ X | SU | SWLP | SW,
                /* SNRW */ X | SRO | SU | SWLP | SW | SR,
                /* X    */ S | SH | SR | SW | SWLP | SU | SRO,
            ],
            // #3: both: SRO outranks SW/SWLP, other weak types outrank the hogs.
            [
                /* IX   */ 0,
                /* S    */ 0,
                /* SH   */ 0,
                /* SR   */ 0,
                /* SW   */ X | SNRW | SNW | SRO,
                /* SWLP */ X | SNRW | SNW | SRO,
                /* SU   */ 0,
                /* SRO  */ 0,
                /* SNW  */ X | SU,
                /* SNRW */ X | SRO | SU | SR,
                /* X    */ S | SH | SR | SU | SRO,
            ],
        ],
    };
}

/// Whether a ticket of type `held` allows nothing that `wanted` forbids
/// (`MDL_ticket::has_stronger_or_equal_type()`).
fn has_stronger_or_equal_type(strategy: MdlLockStrategy, held: MdlType, wanted: MdlType) -> bool {
    let granted = &strategy.matrices().granted;
    granted[wanted as usize] & !granted[held as usize] == 0
}

/// One entry of a lock's granted list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct GrantedEntry {
    ticket: MdlTicketId,
    ctx: MdlContextId,
    mdl_type: MdlType,
}

/// One entry of a lock's waiting queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WaitingEntry {
    request: MdlRequestId,
    ctx: MdlContextId,
    mdl_type: MdlType,
}

/// One lock name's state (`MDL_lock`). It exists while anything is granted or waiting.
#[derive(Clone, Debug)]
struct MdlLock {
    strategy: MdlLockStrategy,
    /// Granted tickets, oldest first (`m_granted`).
    granted: Vec<GrantedEntry>,
    /// Waiting requests in arrival order (`m_waiting`).
    waiting: Vec<WaitingEntry>,
    /// Hogs granted in a row while weaker requests waited (`m_hog_lock_count`).
    hog_lock_count: u64,
    /// SW granted in a row while SRO waited (`m_piglet_lock_count`).
    piglet_lock_count: u64,
    /// Which priority matrix is in use (`m_current_waiting_incompatible_idx`).
    waiting_incompatible_idx: usize,
}

impl MdlLock {
    fn new(strategy: MdlLockStrategy) -> MdlLock {
        MdlLock {
            strategy,
            granted: Vec::new(),
            waiting: Vec::new(),
            hog_lock_count: 0,
            piglet_lock_count: 0,
            waiting_incompatible_idx: 0,
        }
    }

    fn is_unused(&self) -> bool {
        self.granted.is_empty() && self.waiting.is_empty()
    }

    fn granted_incompatible(&self, mdl_type: MdlType) -> u16 {
        self.strategy.matrices().granted[mdl_type as usize]
    }

    fn waiting_incompatible(&self, mdl_type: MdlType) -> u16 {
        self.strategy.matrices().waiting[self.waiting_incompatible_idx][mdl_type as usize]
    }

    fn waiting_bitmap(&self) -> u16 {
        self.waiting.iter().fold(0, |b, w| b | w.mdl_type.bit())
    }

    /// Whether a request of `mdl_type` by `ctx` can be granted now
    /// (`MDL_lock::can_grant_lock()`): no incompatible waiting request, whoever owns it,
    /// and no incompatible granted ticket of another context.
    fn can_grant_lock(&self, mdl_type: MdlType, ctx: MdlContextId) -> bool {
        if self.waiting_bitmap() & self.waiting_incompatible(mdl_type) != 0 {
            return false;
        }
        let incompatible = self.granted_incompatible(mdl_type);
        !self
            .granted
            .iter()
            .any(|g| g.ctx != ctx && g.mdl_type.bit() & incompatible != 0)
    }

    /// The wait-for edges of a request of `mdl_type` by `ctx`: granted tickets, then
    /// waiting requests, of other contexts that block it (`MDL_lock::visit_subgraph()`).
    fn blockers(&self, mdl_type: MdlType, ctx: MdlContextId) -> Vec<MdlBlocker> {
        let granted_incompatible = self.granted_incompatible(mdl_type);
        let waiting_incompatible = self.waiting_incompatible(mdl_type);
        let granted = self
            .granted
            .iter()
            .filter(|g| g.ctx != ctx && g.mdl_type.bit() & granted_incompatible != 0)
            .map(|g| MdlBlocker {
                ctx: g.ctx,
                mdl_type: g.mdl_type,
                status: MdlLockStatus::Granted,
            });
        let waiting = self
            .waiting
            .iter()
            .filter(|w| w.ctx != ctx && w.mdl_type.bit() & waiting_incompatible != 0)
            .map(|w| MdlBlocker {
                ctx: w.ctx,
                mdl_type: w.mdl_type,
                status: MdlLockStatus::Pending,
            });
        granted.chain(waiting).collect()
    }

    /// The priority matrix the counters call for
    /// (`get_incompatible_waiting_types_bitmap_idx()`).
    fn incompatible_waiting_types_bitmap_idx(&self, max_write_lock_count: u64) -> usize {
        let mut idx = 0;
        if self.piglet_lock_count >= max_write_lock_count {
            idx += 1;
        }
        if self.hog_lock_count >= max_write_lock_count {
            idx += 2;
        }
        idx
    }

    /// After granting `mdl_type`: count it if it is a hog or piglet that jumped weaker
    /// waiters, and switch matrices past the limit. True if the matrix changed
    /// (`count_piglets_and_hogs()`).
    fn count_piglets_and_hogs(&mut self, mdl_type: MdlType, max_write_lock_count: u64) -> bool {
        let waiting = self.waiting_bitmap();
        if mdl_type.bit() & matrix::HOG != 0 {
            if waiting & !matrix::HOG == 0 {
                return false;
            }
            self.hog_lock_count += 1;
        } else if mdl_type == MdlType::SharedWrite {
            if waiting & matrix::SHARED_READ_ONLY == 0 {
                return false;
            }
            self.piglet_lock_count += 1;
        } else {
            return false;
        }
        let idx = self.incompatible_waiting_types_bitmap_idx(max_write_lock_count);
        let switched = idx != self.waiting_incompatible_idx;
        self.waiting_incompatible_idx = idx;
        switched
    }

    /// End of `reschedule_waiters()`: once no weaker request waits, forget the counts
    /// and fall back towards the default matrix.
    fn reset_priority_matrix(&mut self) {
        let waiting = self.waiting_bitmap();
        if self.waiting_incompatible_idx == 3 {
            // From #3 straight to #0: a stream of SW and SRO would otherwise keep #2 (or
            // #3) forever and starve the hogs.
            let weak = !(matrix::HOG | matrix::SHARED_WRITE | matrix::SHARED_WRITE_LOW_PRIO);
            if waiting & weak == 0 {
                self.piglet_lock_count = 0;
                self.hog_lock_count = 0;
                self.waiting_incompatible_idx = 0;
            }
        } else {
            if waiting & !matrix::HOG == 0 {
                self.hog_lock_count = 0;
                self.waiting_incompatible_idx &= !2;
            }
            if waiting & matrix::SHARED_READ_ONLY == 0 {
                self.piglet_lock_count = 0;
                self.waiting_incompatible_idx &= !1;
            }
        }
    }
}

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
    locks: BTreeMap<MdlKey, MdlLock>,
    tickets: BTreeMap<MdlTicketId, MdlTicket>,
    pending: BTreeMap<MdlRequestId, MdlPending>,
    contexts: BTreeMap<MdlContextId, MdlContext>,
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

impl MdlManager {
    /// No locks, default `max_write_lock_count`.
    pub fn new() -> MdlManager {
        MdlManager {
            max_write_lock_count: u64::MAX,
            locks: BTreeMap::new(),
            tickets: BTreeMap::new(),
            pending: BTreeMap::new(),
            contexts: BTreeMap::new(),
            next_ticket: 1,
            next_request: 1,
            clock: Tick::ZERO,
        }
    }

    /// Sets the virtual time that the next operations' grants are stamped with
    /// ([`MdlTicket::granted_at`]). [`MdlManager::acquire`], [`MdlManager::upgrade`]
    /// and [`MdlManager::expire`] take the time as an argument and set it themselves;
    /// call this before a release, downgrade or cancel, whose wakeups grant waiting
    /// requests at that moment.
    pub fn set_clock(&mut self, now: Tick) {
        self.clock = now;
    }

    /// Requests a lock and waits if it conflicts (`MDL_context::acquire_lock()`).
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
    pub fn acquire(
        &mut self,
        ctx: MdlContextId,
        request: MdlRequest,
        now: Tick,
        lock_wait_timeout: Tick,
    ) -> (Acquire, Wakeups) {
        let MdlRequest {
            key,
            mdl_type,
            duration,
        } = request;
        let strategy = key.namespace().strategy();
        assert!(
            strategy.supports(mdl_type),
            "{mdl_type} does not exist in namespace {}",
            key.namespace().object_type()
        );
        self.assert_not_waiting(ctx);
        self.clock = now;
        let mut wakeups = Wakeups::default();

        if let Some((found, found_duration)) = self.find_ticket(ctx, &key, mdl_type, duration) {
            if found_duration == duration && duration != MdlDuration::Explicit {
                return (Acquire::Granted(found), wakeups);
            }
            // clone_ticket(): a ticket of the requested (weaker or equal) type, granted
            // without checks since this context's own stronger lock already excludes
            // every conflicting one.
            let ticket = self.add_ticket(ctx, &key, mdl_type, duration);
            return (Acquire::Granted(ticket), wakeups);
        }

        let lock = self
            .locks
            .entry(key.clone())
            .or_insert_with(|| MdlLock::new(strategy));
        if lock.can_grant_lock(mdl_type, ctx) {
            let ticket = self.add_ticket(ctx, &key, mdl_type, duration);
            self.after_grant(&key, mdl_type, &mut wakeups);
            return (Acquire::Granted(ticket), wakeups);
        }
        if lock_wait_timeout == Tick::ZERO {
            return (Acquire::Failed(MdlError::LockWaitTimeout), wakeups);
        }
        let request = self.enqueue(ctx, key, mdl_type, duration, None, now, lock_wait_timeout);
        let acquire = self.wait_for(ctx, request, &mut wakeups);
        (acquire, wakeups)
    }

    /// Grants a lock only if that needs no wait (`MDL_context::try_acquire_lock()`).
    /// `None` means a conflict; nothing is queued.
    ///
    /// # Panics
    /// As [`MdlManager::acquire`].
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
        let (ctx, key, old_type) = {
            let t = self.ticket_or_panic(ticket);
            (t.ctx, t.key.clone(), t.mdl_type)
        };
        self.assert_not_waiting(ctx);
        self.clock = now;
        let mut wakeups = Wakeups::default();
        let strategy = key.namespace().strategy();
        assert!(strategy.supports(new_type), "{new_type} in {key}");
        if has_stronger_or_equal_type(strategy, old_type, new_type) {
            return (Acquire::Granted(ticket), wakeups);
        }
        if self.lock(&key).can_grant_lock(new_type, ctx) {
            self.set_ticket_type(ticket, new_type);
            self.after_grant(&key, new_type, &mut wakeups);
            return (Acquire::Granted(ticket), wakeups);
        }
        if lock_wait_timeout == Tick::ZERO {
            return (Acquire::Failed(MdlError::LockWaitTimeout), wakeups);
        }
        let request = self.enqueue(
            ctx,
            key,
            new_type,
            MdlDuration::Transaction,
            Some(ticket),
            now,
            lock_wait_timeout,
        );
        let acquire = self.wait_for(ctx, request, &mut wakeups);
        (acquire, wakeups)
    }

    /// Downgrades an X or SNW ticket, as the online `ALTER` does after its prepare
    /// phase (X→SU, SNW→SU), and grants whatever that unblocks
    /// (`MDL_ticket::downgrade_lock()`). A no-op if the ticket is not stronger.
    ///
    /// # Panics
    /// If the ticket does not exist, or is stronger but neither X nor SNW.
    pub fn downgrade(&mut self, ticket: MdlTicketId, new_type: MdlType) -> Wakeups {
        let mut wakeups = Wakeups::default();
        let (key, old_type) = {
            let t = self.ticket_or_panic(ticket);
            (t.key.clone(), t.mdl_type)
        };
        let strategy = key.namespace().strategy();
        if old_type == new_type || !has_stronger_or_equal_type(strategy, old_type, new_type) {
            return wakeups;
        }
        assert!(
            matches!(old_type, MdlType::Exclusive | MdlType::SharedNoWrite),
            "only X and SNW downgrade, not {old_type}"
        );
        self.set_ticket_type(ticket, new_type);
        self.reschedule_waiters(&key, &mut wakeups);
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
            let key = self.remove_waiting(request).key;
            self.after_removal(&key, &mut wakeups);
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
        self.after_removal(&pending.key, &mut wakeups);
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
        let mut keys = BTreeSet::new();
        for (_, request) in expired {
            let pending = self.remove_waiting(request);
            wakeups.aborted.push(MdlAborted {
                request,
                ctx: pending.ctx,
                error: MdlError::LockWaitTimeout,
            });
            keys.insert(pending.key);
        }
        for key in keys {
            self.after_removal(&key, &mut wakeups);
        }
        wakeups
    }

    /// The earliest deadline of any waiting request: when to call [`MdlManager::expire`].
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
        self.contexts
            .entry(ctx)
            .or_default()
            .force_dml_deadlock_weight = force;
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
        Some(self.pending[&request].key.wait_state_name())
    }

    /// The context's tickets: statement, transaction, explicit, each oldest first.
    pub fn tickets_of(&self, ctx: MdlContextId) -> Vec<MdlTicketId> {
        self.contexts
            .get(&ctx)
            .map(|c| c.tickets.iter().flatten().copied().collect())
            .unwrap_or_default()
    }

    /// Whether the context holds `mdl_type` or stronger on `key`
    /// (`MDL_context::owns_equal_or_stronger_lock()`).
    pub fn owns_equal_or_stronger_lock(
        &self,
        ctx: MdlContextId,
        key: &MdlKey,
        mdl_type: MdlType,
    ) -> bool {
        self.find_ticket(ctx, key, mdl_type, MdlDuration::Transaction)
            .is_some()
    }

    /// The priority matrix a lock uses (0 default, 1 piglets, 2 hogs, 3 both); `None` if
    /// nothing is granted or waiting on `key`.
    pub fn priority_matrix(&self, key: &MdlKey) -> Option<u8> {
        self.locks
            .get(key)
            .map(|l| l.waiting_incompatible_idx as u8)
    }

    /// `performance_schema.metadata_locks`: by key, granted tickets then waiting
    /// requests, each in list order.
    pub fn metadata_locks(&self) -> Vec<MetadataLockRow> {
        let mut rows = Vec::new();
        for (key, lock) in &self.locks {
            let row = |mdl_type, duration, status, owner, id| MetadataLockRow {
                object_type: key.namespace().object_type(),
                object_schema: key.object_schema().map(str::to_owned),
                object_name: key.object_name().map(str::to_owned),
                lock_type: mdl_type,
                lock_duration: duration,
                lock_status: status,
                owner,
                id,
            };
            for g in &lock.granted {
                let duration = self.tickets[&g.ticket].duration;
                rows.push(row(
                    g.mdl_type,
                    duration,
                    MdlLockStatus::Granted,
                    g.ctx,
                    MdlRowId::Ticket(g.ticket),
                ));
            }
            for w in &lock.waiting {
                let duration = self.pending[&w.request].duration;
                rows.push(row(
                    w.mdl_type,
                    duration,
                    MdlLockStatus::Pending,
                    w.ctx,
                    MdlRowId::Request(w.request),
                ));
            }
        }
        rows
    }

    /// Every waiting request, by key then queue order, with what blocks it.
    pub fn waits(&self) -> Vec<MdlWait> {
        let mut waits = Vec::new();
        for (key, lock) in &self.locks {
            for w in &lock.waiting {
                let pending = &self.pending[&w.request];
                waits.push(MdlWait {
                    request: w.request,
                    ctx: w.ctx,
                    key: key.clone(),
                    mdl_type: w.mdl_type,
                    wait_state: key.wait_state_name(),
                    requested_at: pending.requested_at,
                    deadline: pending.deadline,
                    blockers: lock.blockers(w.mdl_type, w.ctx),
                });
            }
        }
        waits
    }

    /// Every lock name with something granted or waiting, in key order, with its granted
    /// list and waiting queue: [`MdlManager::metadata_locks`] and [`MdlManager::waits`]
    /// in one picture, plus how long each ticket has been held.
    pub fn queues(&self) -> Vec<MdlQueue> {
        self.locks
            .iter()
            .map(|(key, lock)| MdlQueue {
                key: key.clone(),
                granted: lock
                    .granted
                    .iter()
                    .map(|g| {
                        let t = &self.tickets[&g.ticket];
                        MdlQueueEntry {
                            ctx: g.ctx,
                            mdl_type: g.mdl_type,
                            duration: t.duration,
                            status: MdlLockStatus::Granted,
                            since: t.granted_at,
                            blockers: Vec::new(),
                        }
                    })
                    .collect(),
                waiting: lock
                    .waiting
                    .iter()
                    .map(|w| {
                        let p = &self.pending[&w.request];
                        MdlQueueEntry {
                            ctx: w.ctx,
                            mdl_type: w.mdl_type,
                            duration: p.duration,
                            status: MdlLockStatus::Pending,
                            since: p.requested_at,
                            blockers: lock.blockers(w.mdl_type, w.ctx),
                        }
                    })
                    .collect(),
            })
            .collect()
    }

    /// Checks the invariants: lists and maps agree, granted tickets of different
    /// contexts are compatible, no waiting request could be granted, and each context
    /// waits for at most one request.
    pub fn validate(&self) -> Result<(), String> {
        let mut granted_seen = 0usize;
        let mut waiting_seen = 0usize;
        for (key, lock) in &self.locks {
            if lock.is_unused() {
                return Err(format!("{key}: unused lock object kept"));
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
                if t.ctx != g.ctx || t.mdl_type != g.mdl_type || &t.key != key {
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
                if p.ctx != w.ctx || p.mdl_type != w.mdl_type || &p.key != key {
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

    fn lock(&self, key: &MdlKey) -> &MdlLock {
        self.locks
            .get(key)
            .unwrap_or_else(|| panic!("no lock object for {key}"))
    }

    /// A ticket of this context on `key` of `mdl_type` or stronger, looking first in
    /// `duration`'s list, then the next durations in turn, newest first
    /// (`MDL_context::find_ticket()`).
    fn find_ticket(
        &self,
        ctx: MdlContextId,
        key: &MdlKey,
        mdl_type: MdlType,
        duration: MdlDuration,
    ) -> Option<(MdlTicketId, MdlDuration)> {
        let c = self.contexts.get(&ctx)?;
        let strategy = key.namespace().strategy();
        (0..MdlDuration::ALL.len())
            .map(|i| MdlDuration::ALL[(duration as usize + i) % MdlDuration::ALL.len()])
            .find_map(|d| {
                c.tickets[d as usize].iter().rev().find_map(|id| {
                    let t = &self.tickets[id];
                    (&t.key == key && has_stronger_or_equal_type(strategy, t.mdl_type, mdl_type))
                        .then_some((*id, d))
                })
            })
    }

    /// Creates a granted ticket: lock list, ticket map, context list.
    fn add_ticket(
        &mut self,
        ctx: MdlContextId,
        key: &MdlKey,
        mdl_type: MdlType,
        duration: MdlDuration,
    ) -> MdlTicketId {
        let ticket = MdlTicketId(self.next_ticket);
        self.next_ticket += 1;
        let strategy = key.namespace().strategy();
        self.locks
            .entry(key.clone())
            .or_insert_with(|| MdlLock::new(strategy))
            .granted
            .push(GrantedEntry {
                ticket,
                ctx,
                mdl_type,
            });
        self.tickets.insert(
            ticket,
            MdlTicket {
                ctx,
                key: key.clone(),
                mdl_type,
                duration,
                granted_at: self.clock,
            },
        );
        self.contexts.entry(ctx).or_default().tickets[duration as usize].push(ticket);
        ticket
    }

    /// Gives a granted ticket a new type; like the server, it moves to the back of the
    /// granted list.
    fn set_ticket_type(&mut self, ticket: MdlTicketId, mdl_type: MdlType) {
        let t = self.tickets.get_mut(&ticket).expect("ticket exists");
        t.mdl_type = mdl_type;
        let lock = self
            .locks
            .get_mut(&t.key)
            .expect("granted ticket has a lock");
        let pos = lock
            .granted
            .iter()
            .position(|g| g.ticket == ticket)
            .expect("ticket in its lock's granted list");
        let mut entry = lock.granted.remove(pos);
        entry.mdl_type = mdl_type;
        lock.granted.push(entry);
    }

    /// After a grant outside `reschedule_waiters()`: count hogs and piglets, and if the
    /// priority matrix changed, re-examine the queue (`try_acquire_lock_impl()`).
    fn after_grant(&mut self, key: &MdlKey, mdl_type: MdlType, wakeups: &mut Wakeups) {
        let max = self.max_write_lock_count;
        let lock = self.locks.get_mut(key).expect("lock of a granted ticket");
        if lock.strategy.affected_by_max_write_lock_count()
            && lock.count_piglets_and_hogs(mdl_type, max)
        {
            self.reschedule_waiters(key, wakeups);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn enqueue(
        &mut self,
        ctx: MdlContextId,
        key: MdlKey,
        mdl_type: MdlType,
        duration: MdlDuration,
        upgrade_of: Option<MdlTicketId>,
        now: Tick,
        lock_wait_timeout: Tick,
    ) -> MdlRequestId {
        let request = MdlRequestId(self.next_request);
        self.next_request += 1;
        let strategy = key.namespace().strategy();
        self.locks
            .entry(key.clone())
            .or_insert_with(|| MdlLock::new(strategy))
            .waiting
            .push(WaitingEntry {
                request,
                ctx,
                mdl_type,
            });
        self.pending.insert(
            request,
            MdlPending {
                ctx,
                key,
                mdl_type,
                duration,
                upgrade_of,
                requested_at: now,
                deadline: now + lock_wait_timeout,
            },
        );
        self.contexts.entry(ctx).or_default().waiting_for = Some(request);
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
            let key = self.remove_waiting(victim_request).key;
            if victim == ctx {
                self.after_removal(&key, wakeups);
                return Acquire::Failed(MdlError::Deadlock);
            }
            wakeups.aborted.push(MdlAborted {
                request: victim_request,
                ctx: victim,
                error: MdlError::Deadlock,
            });
            self.after_removal(&key, wakeups);
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
        let lock = self
            .locks
            .get_mut(&pending.key)
            .expect("waiting request has a lock");
        lock.waiting.retain(|w| w.request != request);
        self.contexts
            .get_mut(&pending.ctx)
            .expect("waiting request has a context")
            .waiting_for = None;
        pending
    }

    fn release_ticket(&mut self, ticket: MdlTicketId, wakeups: &mut Wakeups) {
        let t = self
            .tickets
            .remove(&ticket)
            .unwrap_or_else(|| panic!("no ticket {ticket:?}"));
        let c = self
            .contexts
            .get_mut(&t.ctx)
            .expect("ticket owner has a context");
        c.tickets[t.duration as usize].retain(|&id| id != ticket);
        let lock = self
            .locks
            .get_mut(&t.key)
            .expect("granted ticket has a lock");
        lock.granted.retain(|g| g.ticket != ticket);
        self.after_removal(&t.key, wakeups);
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
            .get(&ctx)
            .and_then(|c| c.tickets[duration as usize].last().copied())
        {
            self.release_ticket(ticket, wakeups);
        }
    }

    /// After a ticket or request left a lock (`MDL_lock::remove_ticket()`): drop the
    /// lock object if unused (which also resets its counters), else reschedule.
    fn after_removal(&mut self, key: &MdlKey, wakeups: &mut Wakeups) {
        if self.locks.get(key).is_some_and(MdlLock::is_unused) {
            self.locks.remove(key);
        } else {
            self.reschedule_waiters(key, wakeups);
        }
    }

    /// Grants, in queue order, every waiting request that can now be granted
    /// (`MDL_lock::reschedule_waiters()`). A switch of priority matrix restarts the
    /// scan; that happens at most twice, as the matrix index only grows here.
    fn reschedule_waiters(&mut self, key: &MdlKey, wakeups: &mut Wakeups) {
        let max = self.max_write_lock_count;
        let Some(lock) = self.locks.get_mut(key) else {
            return;
        };
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
                    lock.granted.push(GrantedEntry {
                        ticket,
                        ctx: w.ctx,
                        mdl_type: w.mdl_type,
                    });
                    c.tickets[pending.duration as usize].push(ticket);
                    self.tickets.insert(
                        ticket,
                        MdlTicket {
                            ctx: w.ctx,
                            key: key.clone(),
                            mdl_type: w.mdl_type,
                            duration: pending.duration,
                            granted_at: self.clock,
                        },
                    );
                    ticket
                }
                Some(ticket) => {
                    // Merge the upgrade into the old ticket, which moves to the back.
                    lock.granted.retain(|g| g.ticket != ticket);
                    lock.granted.push(GrantedEntry {
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

    /// The deadlock weight of a waiting context (`MDL_context::get_deadlock_weight()`,
    /// `MDL_ticket::get_deadlock_weight()`): what it waits for, not what it holds.
    fn deadlock_weight(&self, ctx: MdlContextId) -> u32 {
        let c = &self.contexts[&ctx];
        if c.force_dml_deadlock_weight {
            return DEADLOCK_WEIGHT_DML;
        }
        let request = c.waiting_for.expect("only waiting contexts are weighed");
        let p = &self.pending[&request];
        if p.key.namespace() == MdlNamespace::Global || p.mdl_type >= MdlType::SharedUpgradable {
            DEADLOCK_WEIGHT_DDL
        } else {
            DEADLOCK_WEIGHT_DML
        }
    }
}

/// One search of the wait-for graph from a context that has just started waiting
/// (`Deadlock_detection_visitor` driven by `MDL_context::visit_subgraph()`).
struct DeadlockSearch<'a> {
    mdl: &'a MdlManager,
    start: MdlContextId,
    depth: u32,
    found: bool,
    victim: Option<(MdlContextId, u32)>,
    /// Contexts whose whole subgraph was searched without reaching `start`.
    explored: BTreeSet<MdlContextId>,
}

impl DeadlockSearch<'_> {
    /// The victim if `start` is on a cycle (or a path longer than the search limit).
    fn run(mdl: &MdlManager, start: MdlContextId) -> Option<MdlContextId> {
        let mut search = DeadlockSearch {
            mdl,
            start,
            depth: 0,
            found: false,
            victim: None,
            explored: BTreeSet::new(),
        };
        if search.visit_context(start) {
            search.victim.map(|(ctx, _)| ctx)
        } else {
            None
        }
    }

    fn visit_context(&mut self, ctx: MdlContextId) -> bool {
        match self.mdl.waiting_request(ctx) {
            Some(request) => self.visit_request(ctx, request),
            None => false,
        }
    }

    /// Checks every edge of `src` for the start first, then descends into each
    /// (breadth first at each node, as the server does).
    fn visit_request(&mut self, src: MdlContextId, request: MdlRequestId) -> bool {
        if self.explored.contains(&src) {
            return false;
        }
        if self.enter_node(src) {
            return true;
        }
        let p = &self.mdl.pending[&request];
        let blockers = self.mdl.lock(&p.key).blockers(p.mdl_type, src);
        let mut next: Vec<MdlContextId> = Vec::with_capacity(blockers.len());
        for b in &blockers {
            if !next.contains(&b.ctx) {
                next.push(b.ctx);
            }
        }
        if next.contains(&self.start) {
            self.found = true;
            self.leave_node(src);
            return true;
        }
        for dest in next {
            if self.visit_context(dest) {
                self.leave_node(src);
                return true;
            }
        }
        self.explored.insert(src);
        self.leave_node(src);
        false
    }

    fn enter_node(&mut self, node: MdlContextId) -> bool {
        self.depth += 1;
        self.found = self.depth >= MAX_SEARCH_DEPTH;
        if self.found {
            self.opt_change_victim_to(node);
        }
        self.found
    }

    fn leave_node(&mut self, node: MdlContextId) {
        self.depth -= 1;
        if self.found {
            self.opt_change_victim_to(node);
        }
    }

    /// Nodes are offered from the far end of the cycle back to the start; a later one
    /// replaces the victim if it weighs no more, so ties go to the start.
    fn opt_change_victim_to(&mut self, node: MdlContextId) {
        let weight = self.mdl.deadlock_weight(node);
        if self.victim.is_none_or(|(_, w)| w >= weight) {
            self.victim = Some((node, weight));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SimRng;
    use expect_test::{expect, Expect};
    use std::fmt::Write;

    /// Runs a script of session commands against one manager and checks the transcript:
    /// each command echoed, then what it returned and whom it woke.
    ///
    /// ```text
    /// NAME: acquire TYPE KEY [stmt|trx|explicit] [timeout DUR]   KEY: global, commit,
    /// NAME: try TYPE KEY [stmt|trx|explicit]                          backup, schema:db, db.t
    /// NAME: upgrade T<n> TYPE [timeout DUR]    NAME: downgrade T<n> TYPE
    /// NAME: release T<n> | release-stmt | release-trx | release-all | kill | dml-weight
    /// advance DUR | expire | next-deadline | locks | waits | matrix KEY
    /// max-write-lock-count N                   DUR: 5s, 20ms, 7ns
    /// ```
    fn check(script: &str, expect: Expect) {
        let mut h = Harness::default();
        for line in script.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            writeln!(h.out, "{line}").unwrap();
            h.run(line);
            if let Err(e) = h.mdl.validate() {
                panic!("invariant broken after `{line}`: {e}\n{}", h.out);
            }
        }
        expect.assert_eq(&h.out);
    }

    #[derive(Default)]
    struct Harness {
        mdl: MdlManager,
        now: Tick,
        names: Vec<String>,
        out: String,
    }

    impl Harness {
        fn ctx(&mut self, name: &str) -> MdlContextId {
            let i = match self.names.iter().position(|n| n == name) {
                Some(i) => i,
                None => {
                    self.names.push(name.to_owned());
                    self.names.len() - 1
                }
            };
            MdlContextId(i as u32)
        }

        fn name(&self, ctx: MdlContextId) -> &str {
            &self.names[ctx.0 as usize]
        }

        fn run(&mut self, line: &str) {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["advance", d] => self.now += dur(d),
                ["expire"] => {
                    let w = self.mdl.expire(self.now);
                    self.print_wakeups(&w);
                }
                ["next-deadline"] => {
                    let d = self.mdl.next_deadline().map_or("none".to_owned(), tick);
                    writeln!(self.out, "  {d}").unwrap();
                }
                ["max-write-lock-count", n] => self.mdl.max_write_lock_count = n.parse().unwrap(),
                ["matrix", k] => {
                    let m = self.mdl.priority_matrix(&key(k));
                    writeln!(self.out, "  {m:?}").unwrap();
                }
                ["locks"] => self.print_locks(),
                ["waits"] => self.print_waits(),
                ["queues"] => self.print_queues(),
                [who, verb, args @ ..] => {
                    let ctx = self.ctx(who.strip_suffix(':').expect("NAME: verb"));
                    self.session(ctx, verb, args);
                }
                _ => panic!("bad line {line}"),
            }
        }

        fn session(&mut self, ctx: MdlContextId, verb: &str, args: &[&str]) {
            // As the simulator does: grants from a release are made at the current time.
            self.mdl.set_clock(self.now);
            let timeout = match args.iter().position(|a| *a == "timeout") {
                Some(i) => dur(args[i + 1]),
                None => LOCK_WAIT_TIMEOUT_DEFAULT,
            };
            let duration = match args.get(2).copied() {
                Some("stmt") => MdlDuration::Statement,
                Some("explicit") => MdlDuration::Explicit,
                _ => MdlDuration::Transaction,
            };
            match verb {
                "acquire" => {
                    let req = MdlRequest::new(key(args[1]), ty(args[0]), duration);
                    let (a, w) = self.mdl.acquire(ctx, req, self.now, timeout);
                    self.print_acquire(a, &w);
                }
                "try" => {
                    let req = MdlRequest::new(key(args[1]), ty(args[0]), duration);
                    let (t, w) = self.mdl.try_acquire(ctx, req);
                    match t {
                        Some(t) => writeln!(self.out, "  granted T{}", t.0).unwrap(),
                        None => writeln!(self.out, "  conflict").unwrap(),
                    }
                    self.print_wakeups(&w);
                }
                "upgrade" => {
                    let (a, w) = self
                        .mdl
                        .upgrade(ticket(args[0]), ty(args[1]), self.now, timeout);
                    self.print_acquire(a, &w);
                }
                "downgrade" => {
                    let w = self.mdl.downgrade(ticket(args[0]), ty(args[1]));
                    self.print_wakeups(&w);
                }
                "release" => {
                    let w = self.mdl.release(ticket(args[0]));
                    self.print_wakeups(&w);
                }
                "release-stmt" => {
                    let w = self.mdl.release_statement_locks(ctx);
                    self.print_wakeups(&w);
                }
                "release-trx" => {
                    let w = self.mdl.release_transactional_locks(ctx);
                    self.print_wakeups(&w);
                }
                "release-all" => {
                    let w = self.mdl.release_all(ctx);
                    self.print_wakeups(&w);
                }
                "kill" => {
                    let r = self
                        .mdl
                        .waiting_request(ctx)
                        .expect("kill a waiting session");
                    let w = self.mdl.cancel(r, MdlError::QueryInterrupted);
                    self.print_wakeups(&w);
                }
                "dml-weight" => self.mdl.set_force_dml_deadlock_weight(ctx, true),
                _ => panic!("bad verb {verb}"),
            }
        }

        fn print_acquire(&mut self, a: Acquire, w: &Wakeups) {
            match a {
                Acquire::Granted(t) => writeln!(self.out, "  granted T{}", t.0),
                Acquire::Waiting(r) => {
                    let state = self.mdl.pending(r).unwrap().key.wait_state_name();
                    writeln!(self.out, "  waiting R{} ({state})", r.0)
                }
                Acquire::Failed(e) => writeln!(self.out, "  failed {e}"),
            }
            .unwrap();
            self.print_wakeups(w);
        }

        fn print_wakeups(&mut self, w: &Wakeups) {
            for g in &w.granted {
                let t = self.mdl.ticket(g.ticket).unwrap().mdl_type.abbrev();
                let line = format!(
                    "  wake {}: R{} granted T{} {t}",
                    self.name(g.ctx),
                    g.request.0,
                    g.ticket.0
                );
                writeln!(self.out, "{line}").unwrap();
            }
            for a in &w.aborted {
                let line = format!("  wake {}: R{} {}", self.name(a.ctx), a.request.0, a.error);
                writeln!(self.out, "{line}").unwrap();
            }
        }

        fn print_locks(&mut self) {
            let mut text = String::new();
            for r in self.mdl.metadata_locks() {
                let id = match r.id {
                    MdlRowId::Ticket(t) => format!("T{}", t.0),
                    MdlRowId::Request(q) => format!("R{}", q.0),
                };
                writeln!(
                    text,
                    "  {:<6} {:<4} {:<4} {:<20} {:<11} {:<7} {:<5} {id}",
                    r.object_type,
                    r.object_schema.as_deref().unwrap_or("NULL"),
                    r.object_name.as_deref().unwrap_or("NULL"),
                    r.lock_type.pfs_name(),
                    r.lock_duration.pfs_name(),
                    r.lock_status.pfs_name(),
                    self.name(r.owner),
                )
                .unwrap();
            }
            if text.is_empty() {
                text.push_str("  (none)\n");
            }
            self.out.push_str(&text);
        }

        fn print_queues(&mut self) {
            let mut text = String::new();
            for q in self.mdl.queues() {
                writeln!(text, "  {}", q.key).unwrap();
                for e in q.granted.iter().chain(&q.waiting) {
                    let blockers: Vec<String> = e
                        .blockers
                        .iter()
                        .map(|b| {
                            let s = b.status.pfs_name().to_lowercase();
                            format!("{} {} {s}", self.name(b.ctx), b.mdl_type.abbrev())
                        })
                        .collect();
                    let arrow = if blockers.is_empty() {
                        String::new()
                    } else {
                        format!(" <- {}", blockers.join(", "))
                    };
                    writeln!(
                        text,
                        "    {} {} {} {} since {}{arrow}",
                        e.status.pfs_name(),
                        self.name(e.ctx),
                        e.mdl_type.abbrev(),
                        e.duration.pfs_name(),
                        tick(e.since),
                    )
                    .unwrap();
                }
            }
            if text.is_empty() {
                text.push_str("  (none)\n");
            }
            self.out.push_str(&text);
        }

        fn print_waits(&mut self) {
            let mut text = String::new();
            for w in self.mdl.waits() {
                let blockers: Vec<String> = w
                    .blockers
                    .iter()
                    .map(|b| {
                        let s = b.status.pfs_name().to_lowercase();
                        format!("{} {} {s}", self.name(b.ctx), b.mdl_type.abbrev())
                    })
                    .collect();
                writeln!(
                    text,
                    "  {} R{} {} {} [{}] since {} until {} <- {}",
                    self.name(w.ctx),
                    w.request.0,
                    w.mdl_type.abbrev(),
                    w.key,
                    w.wait_state,
                    tick(w.requested_at),
                    tick(w.deadline),
                    blockers.join(", ")
                )
                .unwrap();
            }
            self.out.push_str(&text);
        }
    }

    fn dur(s: &str) -> Tick {
        let num = |suffix: &str| s.strip_suffix(suffix).unwrap().parse::<u64>().unwrap();
        if s.ends_with("ns") {
            Tick::from_ns(num("ns"))
        } else if s.ends_with("ms") {
            Tick::from_ms(num("ms"))
        } else {
            Tick::from_secs(num("s"))
        }
    }

    fn tick(t: Tick) -> String {
        if Tick::from_secs(t.as_secs()) == t {
            format!("{}s", t.as_secs())
        } else {
            format!("{}ns", t.as_ns())
        }
    }

    fn ty(s: &str) -> MdlType {
        MdlType::from_abbrev(s).unwrap_or_else(|| panic!("no type {s}"))
    }

    fn ticket(s: &str) -> MdlTicketId {
        MdlTicketId(s.strip_prefix('T').unwrap().parse().unwrap())
    }

    fn key(s: &str) -> MdlKey {
        match s {
            "global" => MdlKey::global(),
            "commit" => MdlKey::commit(),
            "backup" => MdlKey::backup_lock(),
            _ => match s.strip_prefix("schema:") {
                Some(db) => MdlKey::schema(db),
                None => {
                    let (db, t) = s.split_once('.').expect("db.table");
                    MdlKey::table(db, t)
                }
            },
        }
    }

    /// A matrix as the fact sheet prints it: rows are requests, columns the other lock.
    fn render(types: &[MdlType], cell: impl Fn(MdlType, MdlType) -> bool) -> String {
        let mut s = String::from("| req |");
        for c in types {
            write!(s, " {} |", c.abbrev()).unwrap();
        }
        s.push_str("\n|");
        s.push_str(&"---|".repeat(types.len() + 1));
        s.push('\n');
        for &r in types {
            write!(s, "| {} |", r.abbrev()).unwrap();
            for &c in types {
                write!(s, " {} |", if cell(r, c) { '+' } else { '-' }).unwrap();
            }
            s.push('\n');
        }
        s
    }

    /// Whether `request` is granted while another context holds `granted`, through the
    /// public API.
    fn granted_compatible(key: &MdlKey, request: MdlType, granted: MdlType) -> bool {
        let mut mdl = MdlManager::new();
        let holder = MdlRequest::new(key.clone(), granted, MdlDuration::Transaction);
        let (held, _) = mdl.try_acquire(MdlContextId(2), holder);
        assert!(held.is_some());
        let req = MdlRequest::new(key.clone(), request, MdlDuration::Transaction);
        let (got, wakeups) = mdl.try_acquire(MdlContextId(1), req);
        assert!(wakeups.is_empty());
        mdl.validate().unwrap();
        got.is_some()
    }

    /// Whether `request` passes a `pending` request of another context, under priority
    /// matrix `idx`, nothing being granted.
    fn pending_compatible(
        strategy: MdlLockStrategy,
        idx: usize,
        request: MdlType,
        pending: MdlType,
    ) -> bool {
        let mut lock = MdlLock::new(strategy);
        lock.waiting_incompatible_idx = idx;
        lock.waiting.push(WaitingEntry {
            request: MdlRequestId(1),
            ctx: MdlContextId(2),
            mdl_type: pending,
        });
        lock.can_grant_lock(request, MdlContextId(1))
    }

    #[test]
    fn granted_matrix_is_the_fact_sheets() {
        // Fact sheet 4.2, cell by cell: row = request, column = granted by another context.
        let t = MdlKey::table("db", "t");
        let got = render(&MdlType::OBJECT, |r, c| granted_compatible(&t, r, c));
        expect![[r#"
            | req | S | SH | SR | SW | SWLP | SU | SRO | SNW | SNRW | X |
            |---|---|---|---|---|---|---|---|---|---|---|
            | S | + | + | + | + | + | + | + | + | + | - |
            | SH | + | + | + | + | + | + | + | + | + | - |
            | SR | + | + | + | + | + | + | + | + | - | - |
            | SW | + | + | + | + | + | + | - | - | - | - |
            | SWLP | + | + | + | + | + | + | - | - | - | - |
            | SU | + | + | + | + | + | - | + | - | - | - |
            | SRO | + | + | + | - | - | + | + | + | - | - |
            | SNW | + | + | + | - | - | - | + | - | - | - |
            | SNRW | + | + | - | - | - | - | - | - | - | - |
            | X | - | - | - | - | - | - | - | - | - | - |
        "#]]
        .assert_eq(&got);
    }

    #[test]
    fn own_granted_locks_never_conflict() {
        let t = MdlKey::table("db", "t");
        for held in MdlType::OBJECT {
            for wanted in MdlType::OBJECT {
                let mut mdl = MdlManager::new();
                let ctx = MdlContextId(1);
                let req = MdlRequest::new(t.clone(), held, MdlDuration::Statement);
                assert!(mdl.try_acquire(ctx, req).0.is_some());
                let req = MdlRequest::new(t.clone(), wanted, MdlDuration::Transaction);
                assert!(
                    mdl.try_acquire(ctx, req).0.is_some(),
                    "{held} then {wanted}"
                );
            }
        }
    }

    #[test]
    fn pending_matrix_is_the_fact_sheets() {
        // Fact sheet 4.3 (matrix #0), cell by cell: column = pending in another context.
        let got = render(&MdlType::OBJECT, |r, c| {
            pending_compatible(MdlLockStrategy::Object, 0, r, c)
        });
        expect![[r#"
            | req | S | SH | SR | SW | SWLP | SU | SRO | SNW | SNRW | X |
            |---|---|---|---|---|---|---|---|---|---|---|
            | S | + | + | + | + | + | + | + | + | + | - |
            | SH | + | + | + | + | + | + | + | + | + | + |
            | SR | + | + | + | + | + | + | + | + | - | - |
            | SW | + | + | + | + | + | + | + | - | - | - |
            | SWLP | + | + | + | + | + | + | - | - | - | - |
            | SU | + | + | + | + | + | + | + | + | + | - |
            | SRO | + | + | + | - | + | + | + | + | - | - |
            | SNW | + | + | + | + | + | + | + | + | + | - |
            | SNRW | + | + | + | + | + | + | + | + | + | - |
            | X | + | + | + | + | + | + | + | + | + | + |
        "#]]
        .assert_eq(&got);
    }

    #[test]
    fn alternative_priority_matrices() {
        // Fact sheet 4.3's prose: #1 SW also yields to pending SRO, SRO ignores pending
        // SW; #2 S/SH/SR/SW/SU ignore pending, SWLP waits for SRO, SRO for SW, SNW for
        // X,SU,SWLP,SW, SNRW for X,SRO,SU,SWLP,SW,SR, X for every non-hog; #3 SW/SWLP wait
        // for X,SNRW,SNW,SRO, SNW for X,SU, SNRW for X,SRO,SU,SR, X for S,SH,SR,SU,SRO.
        let mut got = String::new();
        for idx in 1..4 {
            writeln!(got, "#{idx}").unwrap();
            got.push_str(&render(&MdlType::OBJECT, |r, c| {
                pending_compatible(MdlLockStrategy::Object, idx, r, c)
            }));
        }
        expect![[r#"
            #1
            | req | S | SH | SR | SW | SWLP | SU | SRO | SNW | SNRW | X |
            |---|---|---|---|---|---|---|---|---|---|---|
            | S | + | + | + | + | + | + | + | + | + | - |
            | SH | + | + | + | + | + | + | + | + | + | + |
            | SR | + | + | + | + | + | + | + | + | - | - |
            | SW | + | + | + | + | + | + | - | - | - | - |
            | SWLP | + | + | + | + | + | + | - | - | - | - |
            | SU | + | + | + | + | + | + | + | + | + | - |
            | SRO | + | + | + | + | + | + | + | + | - | - |
            | SNW | + | + | + | + | + | + | + | + | + | - |
            | SNRW | + | + | + | + | + | + | + | + | + | - |
            | X | + | + | + | + | + | + | + | + | + | + |
            #2
            | req | S | SH | SR | SW | SWLP | SU | SRO | SNW | SNRW | X |
            |---|---|---|---|---|---|---|---|---|---|---|
            | S | + | + | + | + | + | + | + | + | + | + |
            | SH | + | + | + | + | + | + | + | + | + | + |
            | SR | + | + | + | + | + | + | + | + | + | + |
            | SW | + | + | + | + | + | + | + | + | + | + |
            | SWLP | + | + | + | + | + | + | - | + | + | + |
            | SU | + | + | + | + | + | + | + | + | + | + |
            | SRO | + | + | + | - | + | + | + | + | + | + |
            | SNW | + | + | + | - | - | - | + | + | + | - |
            | SNRW | + | + | - | - | - | - | - | + | + | - |
            | X | - | - | - | - | - | - | - | + | + | + |
            #3
            | req | S | SH | SR | SW | SWLP | SU | SRO | SNW | SNRW | X |
            |---|---|---|---|---|---|---|---|---|---|---|
            | S | + | + | + | + | + | + | + | + | + | + |
            | SH | + | + | + | + | + | + | + | + | + | + |
            | SR | + | + | + | + | + | + | + | + | + | + |
            | SW | + | + | + | + | + | + | - | - | - | - |
            | SWLP | + | + | + | + | + | + | - | - | - | - |
            | SU | + | + | + | + | + | + | + | + | + | + |
            | SRO | + | + | + | + | + | + | + | + | + | + |
            | SNW | + | + | + | + | + | - | + | + | + | - |
            | SNRW | + | + | - | + | + | - | - | + | + | - |
            | X | - | - | - | + | + | - | - | + | + | + |
        "#]]
        .assert_eq(&got);
    }

    #[test]
    fn scoped_matrices() {
        // Fact sheet 4.3's last lines: granted IX⊥{S,X}, S⊥{IX,X}, X⊥all; pending: IX
        // waits for S/X, S waits for X. Checked for every scoped namespace.
        for k in [
            MdlKey::global(),
            MdlKey::backup_lock(),
            MdlKey::schema("db"),
            MdlKey::commit(),
        ] {
            let granted = render(&MdlType::SCOPED, |r, c| granted_compatible(&k, r, c));
            expect![[r#"
                | req | IX | S | X |
                |---|---|---|---|
                | IX | + | - | - |
                | S | - | + | - |
                | X | - | - | - |
            "#]]
            .assert_eq(&granted);
        }
        let pending = render(&MdlType::SCOPED, |r, c| {
            pending_compatible(MdlLockStrategy::Scoped, 0, r, c)
        });
        expect![[r#"
            | req | IX | S | X |
            |---|---|---|---|
            | IX | + | - | - |
            | S | + | + | - |
            | X | + | + | + |
        "#]]
        .assert_eq(&pending);
    }

    #[test]
    fn names_and_states() {
        let mut got = String::new();
        for t in MdlType::ALL {
            writeln!(got, "{:<4} {t} {}", t.abbrev(), t.pfs_name()).unwrap();
        }
        for d in MdlDuration::ALL {
            writeln!(got, "{d} {}", d.pfs_name()).unwrap();
        }
        for k in [
            MdlKey::global(),
            MdlKey::backup_lock(),
            MdlKey::schema("db"),
            MdlKey::table("db", "t"),
            MdlKey::commit(),
        ] {
            writeln!(got, "{k}: {}", k.wait_state_name()).unwrap();
        }
        for e in [
            MdlError::Deadlock,
            MdlError::LockWaitTimeout,
            MdlError::QueryInterrupted,
        ] {
            writeln!(got, "{}", crate::sql::SqlError::from(e)).unwrap();
        }
        expect![[r#"
            IX   MDL_INTENTION_EXCLUSIVE INTENTION_EXCLUSIVE
            S    MDL_SHARED SHARED
            SH   MDL_SHARED_HIGH_PRIO SHARED_HIGH_PRIO
            SR   MDL_SHARED_READ SHARED_READ
            SW   MDL_SHARED_WRITE SHARED_WRITE
            SWLP MDL_SHARED_WRITE_LOW_PRIO SHARED_WRITE_LOW_PRIO
            SU   MDL_SHARED_UPGRADABLE SHARED_UPGRADABLE
            SRO  MDL_SHARED_READ_ONLY SHARED_READ_ONLY
            SNW  MDL_SHARED_NO_WRITE SHARED_NO_WRITE
            SNRW MDL_SHARED_NO_READ_WRITE SHARED_NO_READ_WRITE
            X    MDL_EXCLUSIVE EXCLUSIVE
            MDL_STATEMENT STATEMENT
            MDL_TRANSACTION TRANSACTION
            MDL_EXPLICIT EXPLICIT
            GLOBAL: Waiting for global read lock
            BACKUP LOCK: Waiting for backup lock
            SCHEMA db: Waiting for schema metadata lock
            TABLE db.t: Waiting for table metadata lock
            COMMIT: Waiting for commit lock
            ERROR 1213 (40001): Deadlock found when trying to get lock; try restarting transaction
            ERROR 1205 (HY000): Lock wait timeout exceeded; try restarting transaction
            ERROR 1317 (70100): Query execution was interrupted
        "#]]
        .assert_eq(&got);
    }

    #[test]
    fn convoy_behind_a_pending_exclusive() {
        check(
            "
            # trx: BEGIN; SELECT * FROM t1;  (and then idles, transaction open)
            trx: acquire SR db.t1
            # alter: ALTER TABLE t1 ...: SU, then the upgrade to X waits for trx.
            alter: acquire SU db.t1 stmt
            alter: upgrade T2 X
            # Every later statement on t1 queues behind the pending X, not behind trx.
            q1: acquire SR db.t1
            q2: acquire SW db.t1
            # Other tables are unaffected; SH (INFORMATION_SCHEMA) passes the pending X.
            q3: acquire SR db.t2
            is: acquire SH db.t1 stmt
            is: release-stmt
            waits
            locks
            # COMMIT: X is granted; the queue still waits, now behind the granted X.
            trx: release-trx
            waits
            # ALTER finishes and releases X: the queue drains in order.
            alter: release-stmt
            locks
            ",
            expect![[r#"
                trx: acquire SR db.t1
                  granted T1
                alter: acquire SU db.t1 stmt
                  granted T2
                alter: upgrade T2 X
                  waiting R1 (Waiting for table metadata lock)
                q1: acquire SR db.t1
                  waiting R2 (Waiting for table metadata lock)
                q2: acquire SW db.t1
                  waiting R3 (Waiting for table metadata lock)
                q3: acquire SR db.t2
                  granted T3
                is: acquire SH db.t1 stmt
                  granted T4
                is: release-stmt
                waits
                  alter R1 X TABLE db.t1 [Waiting for table metadata lock] since 0s until 31536000s <- trx SR granted
                  q1 R2 SR TABLE db.t1 [Waiting for table metadata lock] since 0s until 31536000s <- alter X pending
                  q2 R3 SW TABLE db.t1 [Waiting for table metadata lock] since 0s until 31536000s <- alter X pending
                locks
                  TABLE  db   t1   SHARED_READ          TRANSACTION GRANTED trx   T1
                  TABLE  db   t1   SHARED_UPGRADABLE    STATEMENT   GRANTED alter T2
                  TABLE  db   t1   EXCLUSIVE            TRANSACTION PENDING alter R1
                  TABLE  db   t1   SHARED_READ          TRANSACTION PENDING q1    R2
                  TABLE  db   t1   SHARED_WRITE         TRANSACTION PENDING q2    R3
                  TABLE  db   t2   SHARED_READ          TRANSACTION GRANTED q3    T3
                trx: release-trx
                  wake alter: R1 granted T2 X
                waits
                  q1 R2 SR TABLE db.t1 [Waiting for table metadata lock] since 0s until 31536000s <- alter X granted
                  q2 R3 SW TABLE db.t1 [Waiting for table metadata lock] since 0s until 31536000s <- alter X granted
                alter: release-stmt
                  wake q1: R2 granted T5 SR
                  wake q2: R3 granted T6 SW
                locks
                  TABLE  db   t1   SHARED_READ          TRANSACTION GRANTED q1    T5
                  TABLE  db   t1   SHARED_WRITE         TRANSACTION GRANTED q2    T6
                  TABLE  db   t2   SHARED_READ          TRANSACTION GRANTED q3    T3
            "#]],
        );
    }

    /// The queue picture a UI draws: per name, granted then waiting, each with the time
    /// it was granted or started waiting, and each waiter's wait-for edges. A grant made
    /// by a release is stamped with the time of the release.
    #[test]
    fn queues_show_each_name_with_times_and_wait_for_edges() {
        check(
            "
            queues
            trx: acquire SR db.t1
            advance 1s
            alter: acquire SU db.t1 stmt
            alter: upgrade T2 X
            advance 1s
            q1: acquire SR db.t1
            q2: acquire SW db.t2
            queues
            advance 3s
            trx: release-trx
            queues
            ",
            expect![[r#"
                queues
                  (none)
                trx: acquire SR db.t1
                  granted T1
                advance 1s
                alter: acquire SU db.t1 stmt
                  granted T2
                alter: upgrade T2 X
                  waiting R1 (Waiting for table metadata lock)
                advance 1s
                q1: acquire SR db.t1
                  waiting R2 (Waiting for table metadata lock)
                q2: acquire SW db.t2
                  granted T3
                queues
                  TABLE db.t1
                    GRANTED trx SR TRANSACTION since 0s
                    GRANTED alter SU STATEMENT since 1s
                    PENDING alter X TRANSACTION since 1s <- trx SR granted
                    PENDING q1 SR TRANSACTION since 2s <- alter X pending
                  TABLE db.t2
                    GRANTED q2 SW TRANSACTION since 2s
                advance 3s
                trx: release-trx
                  wake alter: R1 granted T2 X
                queues
                  TABLE db.t1
                    GRANTED alter X STATEMENT since 1s
                    PENDING q1 SR TRANSACTION since 2s <- alter X granted
                  TABLE db.t2
                    GRANTED q2 SW TRANSACTION since 2s
            "#]],
        );
    }

    #[test]
    fn upgrade_waits_for_every_reader() {
        check(
            "
            r1: acquire SR db.t1
            alter: acquire SU db.t1 stmt
            # SU admits readers and writers, but not a second SU.
            w: acquire SW db.t1
            alter2: try SU db.t1 stmt
            alter: upgrade T2 X
            waits
            r1: release-trx
            w: release-trx
            # Upgrading to what the ticket already covers is immediate.
            alter: upgrade T2 SNW
            locks
            ",
            expect![[r#"
                r1: acquire SR db.t1
                  granted T1
                alter: acquire SU db.t1 stmt
                  granted T2
                w: acquire SW db.t1
                  granted T3
                alter2: try SU db.t1 stmt
                  conflict
                alter: upgrade T2 X
                  waiting R1 (Waiting for table metadata lock)
                waits
                  alter R1 X TABLE db.t1 [Waiting for table metadata lock] since 0s until 31536000s <- r1 SR granted, w SW granted
                r1: release-trx
                w: release-trx
                  wake alter: R1 granted T2 X
                alter: upgrade T2 SNW
                  granted T2
                locks
                  TABLE  db   t1   EXCLUSIVE            STATEMENT   GRANTED alter T2
            "#]],
        );
    }

    #[test]
    fn downgrade_lets_waiters_through() {
        check(
            "
            # Online ALTER: X for prepare, then down to SU while rows are copied.
            alter: acquire SU db.t1 stmt
            alter: upgrade T1 X
            w: acquire SW db.t1
            r: acquire SR db.t1
            alter: downgrade T1 SU
            # The commit phase needs X again: it waits for both.
            alter: upgrade T1 X
            w: release-trx
            r: release-trx
            # A downgrade to a type the ticket does not cover does nothing.
            alter: release-stmt
            r: acquire SR db.t1
            r: downgrade T4 X
            # SNW (LOCK=SHARED) lets readers in; downgrading it to SU lets the writer in.
            copy: acquire SNW db.t2 stmt
            r2: acquire SR db.t2
            w2: acquire SW db.t2
            copy: downgrade T5 SU
            locks
            ",
            expect![[r#"
                alter: acquire SU db.t1 stmt
                  granted T1
                alter: upgrade T1 X
                  granted T1
                w: acquire SW db.t1
                  waiting R1 (Waiting for table metadata lock)
                r: acquire SR db.t1
                  waiting R2 (Waiting for table metadata lock)
                alter: downgrade T1 SU
                  wake w: R1 granted T2 SW
                  wake r: R2 granted T3 SR
                alter: upgrade T1 X
                  waiting R3 (Waiting for table metadata lock)
                w: release-trx
                r: release-trx
                  wake alter: R3 granted T1 X
                alter: release-stmt
                r: acquire SR db.t1
                  granted T4
                r: downgrade T4 X
                copy: acquire SNW db.t2 stmt
                  granted T5
                r2: acquire SR db.t2
                  granted T6
                w2: acquire SW db.t2
                  waiting R4 (Waiting for table metadata lock)
                copy: downgrade T5 SU
                  wake w2: R4 granted T7 SW
                locks
                  TABLE  db   t1   SHARED_READ          TRANSACTION GRANTED r     T4
                  TABLE  db   t2   SHARED_READ          TRANSACTION GRANTED r2    T6
                  TABLE  db   t2   SHARED_UPGRADABLE    STATEMENT   GRANTED copy  T5
                  TABLE  db   t2   SHARED_WRITE         TRANSACTION GRANTED w2    T7
            "#]],
        );
    }

    #[test]
    fn statement_transaction_and_explicit_durations() {
        check(
            "
            s: acquire IX global stmt
            s: acquire SW db.t1 trx
            s: acquire SNRW db.t2 explicit
            # The same lock again in the same duration is the same ticket; in another
            # duration it is a clone of the requested type.
            s: acquire SR db.t1 trx
            s: acquire SR db.t1 stmt
            locks
            s: release-stmt
            locks
            s: release-trx
            locks
            s: release-all
            locks
            ",
            expect![[r#"
                s: acquire IX global stmt
                  granted T1
                s: acquire SW db.t1 trx
                  granted T2
                s: acquire SNRW db.t2 explicit
                  granted T3
                s: acquire SR db.t1 trx
                  granted T2
                s: acquire SR db.t1 stmt
                  granted T4
                locks
                  GLOBAL NULL NULL INTENTION_EXCLUSIVE  STATEMENT   GRANTED s     T1
                  TABLE  db   t1   SHARED_WRITE         TRANSACTION GRANTED s     T2
                  TABLE  db   t1   SHARED_READ          STATEMENT   GRANTED s     T4
                  TABLE  db   t2   SHARED_NO_READ_WRITE EXPLICIT    GRANTED s     T3
                s: release-stmt
                locks
                  TABLE  db   t1   SHARED_WRITE         TRANSACTION GRANTED s     T2
                  TABLE  db   t2   SHARED_NO_READ_WRITE EXPLICIT    GRANTED s     T3
                s: release-trx
                locks
                  TABLE  db   t2   SHARED_NO_READ_WRITE EXPLICIT    GRANTED s     T3
                s: release-all
                locks
                  (none)
            "#]],
        );
    }

    #[test]
    fn timeouts_expire_exactly_at_the_deadline() {
        check(
            "
            x: acquire X db.t1
            a: acquire SR db.t1 timeout 5s
            b: acquire SW db.t1 timeout 10s
            next-deadline
            advance 4999999999ns
            expire
            advance 1ns
            expire
            next-deadline
            x: release-trx
            next-deadline
            # lock_wait_timeout = 0 fails a conflicting request without queueing it.
            z: acquire X db.t1 timeout 0s
            ",
            expect![[r#"
                x: acquire X db.t1
                  granted T1
                a: acquire SR db.t1 timeout 5s
                  waiting R1 (Waiting for table metadata lock)
                b: acquire SW db.t1 timeout 10s
                  waiting R2 (Waiting for table metadata lock)
                next-deadline
                  5s
                advance 4999999999ns
                expire
                advance 1ns
                expire
                  wake a: R1 ERROR 1205 (HY000): Lock wait timeout exceeded; try restarting transaction
                next-deadline
                  10s
                x: release-trx
                  wake b: R2 granted T2 SW
                next-deadline
                  none
                z: acquire X db.t1 timeout 0s
                  failed ERROR 1205 (HY000): Lock wait timeout exceeded; try restarting transaction
            "#]],
        );
    }

    #[test]
    fn a_timed_out_alter_releases_the_convoy() {
        check(
            "
            trx: acquire SR db.t1
            alter: acquire SU db.t1 stmt
            alter: upgrade T2 X timeout 50s
            q1: acquire SR db.t1 timeout 50s
            advance 10s
            q2: acquire SW db.t1
            # Both 50 s timers fire together: q1 times out too, though alter leaves.
            advance 40s
            expire
            locks
            ",
            expect![[r#"
                trx: acquire SR db.t1
                  granted T1
                alter: acquire SU db.t1 stmt
                  granted T2
                alter: upgrade T2 X timeout 50s
                  waiting R1 (Waiting for table metadata lock)
                q1: acquire SR db.t1 timeout 50s
                  waiting R2 (Waiting for table metadata lock)
                advance 10s
                q2: acquire SW db.t1
                  waiting R3 (Waiting for table metadata lock)
                advance 40s
                expire
                  wake q2: R3 granted T3 SW
                  wake alter: R1 ERROR 1205 (HY000): Lock wait timeout exceeded; try restarting transaction
                  wake q1: R2 ERROR 1205 (HY000): Lock wait timeout exceeded; try restarting transaction
                locks
                  TABLE  db   t1   SHARED_READ          TRANSACTION GRANTED trx   T1
                  TABLE  db   t1   SHARED_UPGRADABLE    STATEMENT   GRANTED alter T2
                  TABLE  db   t1   SHARED_WRITE         TRANSACTION GRANTED q2    T3
            "#]],
        );
    }

    #[test]
    fn kill_withdraws_a_waiting_request() {
        check(
            "
            trx: acquire SR db.t1
            drop: acquire X db.t1 stmt
            q1: acquire SR db.t1
            drop: kill
            # A disconnecting waiter just leaves the queue.
            drop: acquire X db.t1 stmt
            drop: release-all
            waits
            ",
            expect![[r#"
                trx: acquire SR db.t1
                  granted T1
                drop: acquire X db.t1 stmt
                  waiting R1 (Waiting for table metadata lock)
                q1: acquire SR db.t1
                  waiting R2 (Waiting for table metadata lock)
                drop: kill
                  wake q1: R2 granted T2 SR
                  wake drop: R1 ERROR 1317 (70100): Query execution was interrupted
                drop: acquire X db.t1 stmt
                  waiting R3 (Waiting for table metadata lock)
                drop: release-all
                waits
            "#]],
        );
    }

    #[test]
    fn deadlock_chooses_the_dml_session_when_it_closes_the_cycle() {
        check(
            "
            trx: acquire SR db.t1
            alter: acquire X db.t2 stmt
            alter: acquire SU db.t1 stmt
            alter: upgrade T3 X
            # trx now waits for alter, which waits for trx: trx's wait weighs 25 (DML),
            # alter's 100 (DDL), so trx's request fails.
            trx: acquire SR db.t2
            waits
            trx: release-trx
            ",
            expect![[r#"
                trx: acquire SR db.t1
                  granted T1
                alter: acquire X db.t2 stmt
                  granted T2
                alter: acquire SU db.t1 stmt
                  granted T3
                alter: upgrade T3 X
                  waiting R1 (Waiting for table metadata lock)
                trx: acquire SR db.t2
                  failed ERROR 1213 (40001): Deadlock found when trying to get lock; try restarting transaction
                waits
                  alter R1 X TABLE db.t1 [Waiting for table metadata lock] since 0s until 31536000s <- trx SR granted
                trx: release-trx
                  wake alter: R1 granted T3 X
            "#]],
        );
    }

    #[test]
    fn deadlock_chooses_the_dml_session_when_ddl_closes_the_cycle() {
        check(
            "
            trx: acquire SR db.t1
            alter: acquire X db.t2 stmt
            trx: acquire SR db.t2
            alter: acquire SU db.t1 stmt
            # alter's upgrade closes the cycle; the victim is trx, whose request fails
            # while alter keeps waiting for trx's SR until trx rolls back.
            alter: upgrade T3 X
            waits
            trx: release-trx
            ",
            expect![[r#"
                trx: acquire SR db.t1
                  granted T1
                alter: acquire X db.t2 stmt
                  granted T2
                trx: acquire SR db.t2
                  waiting R1 (Waiting for table metadata lock)
                alter: acquire SU db.t1 stmt
                  granted T3
                alter: upgrade T3 X
                  waiting R2 (Waiting for table metadata lock)
                  wake trx: R1 ERROR 1213 (40001): Deadlock found when trying to get lock; try restarting transaction
                waits
                  alter R2 X TABLE db.t1 [Waiting for table metadata lock] since 0s until 31536000s <- trx SR granted
                trx: release-trx
                  wake alter: R2 granted T3 X
            "#]],
        );
    }

    #[test]
    fn deadlock_between_equals_fails_the_requester() {
        check(
            "
            # a holds SU on t2 and t1 and upgrades on t1; b holds SR on t1 and wants SU
            # on t2. Both waits weigh 100 (DDL): the context that searched is the victim.
            b: acquire SR db.t1
            a: acquire SU db.t2 stmt
            a: acquire SU db.t1 stmt
            a: upgrade T3 X
            b: acquire SU db.t2 stmt
            ",
            expect![[r#"
                b: acquire SR db.t1
                  granted T1
                a: acquire SU db.t2 stmt
                  granted T2
                a: acquire SU db.t1 stmt
                  granted T3
                a: upgrade T3 X
                  waiting R1 (Waiting for table metadata lock)
                b: acquire SU db.t2 stmt
                  failed ERROR 1213 (40001): Deadlock found when trying to get lock; try restarting transaction
            "#]],
        );
    }

    #[test]
    fn forced_dml_weight_makes_the_victim() {
        check(
            "
            # The same cycle the other way round, closed by c's upgrade; d's SU wait
            # would weigh 100 and make c (the searcher) the victim, but d runs under
            # LOCK TABLES and is forced to DML weight, so d's request fails instead.
            d: dml-weight
            d: acquire SR db.t1
            c: acquire SU db.t2 stmt
            c: acquire SU db.t1 stmt
            d: acquire SU db.t2 stmt
            c: upgrade T3 X
            waits
            ",
            expect![[r#"
                d: dml-weight
                d: acquire SR db.t1
                  granted T1
                c: acquire SU db.t2 stmt
                  granted T2
                c: acquire SU db.t1 stmt
                  granted T3
                d: acquire SU db.t2 stmt
                  waiting R1 (Waiting for table metadata lock)
                c: upgrade T3 X
                  waiting R2 (Waiting for table metadata lock)
                  wake d: R1 ERROR 1213 (40001): Deadlock found when trying to get lock; try restarting transaction
                waits
                  c R2 X TABLE db.t1 [Waiting for table metadata lock] since 0s until 31536000s <- d SR granted
            "#]],
        );
    }

    #[test]
    fn global_read_lock_blocks_writers_and_commits() {
        check(
            "
            # FLUSH TABLES WITH READ LOCK waits for a running UPDATE's GLOBAL IX.
            w: acquire IX global stmt
            w: acquire SW db.t1
            ftwrl: acquire S global explicit
            # New writers queue behind the pending S.
            w2: acquire IX global stmt
            waits
            w: release-stmt
            ftwrl: acquire S commit explicit
            # w's COMMIT needs IX on COMMIT.
            w: acquire IX commit explicit
            waits
            ftwrl: release-all
            ",
            expect![[r#"
                w: acquire IX global stmt
                  granted T1
                w: acquire SW db.t1
                  granted T2
                ftwrl: acquire S global explicit
                  waiting R1 (Waiting for global read lock)
                w2: acquire IX global stmt
                  waiting R2 (Waiting for global read lock)
                waits
                  ftwrl R1 S GLOBAL [Waiting for global read lock] since 0s until 31536000s <- w IX granted
                  w2 R2 IX GLOBAL [Waiting for global read lock] since 0s until 31536000s <- ftwrl S pending
                w: release-stmt
                  wake ftwrl: R1 granted T3 S
                ftwrl: acquire S commit explicit
                  granted T4
                w: acquire IX commit explicit
                  waiting R3 (Waiting for commit lock)
                waits
                  w2 R2 IX GLOBAL [Waiting for global read lock] since 0s until 31536000s <- ftwrl S granted
                  w R3 IX COMMIT [Waiting for commit lock] since 0s until 31536000s <- ftwrl S granted
                ftwrl: release-all
                  wake w: R3 granted T5 IX
                  wake w2: R2 granted T6 IX
            "#]],
        );
    }

    #[test]
    fn hogs_past_max_write_lock_count_yield_to_readers() {
        let script = "
            a: acquire SW db.t1
            b: acquire X db.t1 stmt
            c: acquire SR db.t1
            a: release-trx
            matrix db.t1
            d: acquire X db.t1 stmt
            b: release-stmt
            matrix db.t1
            ";
        // Default (ULONG_MAX): the second X overtakes the earlier SR.
        check(
            script,
            expect![[r#"
            a: acquire SW db.t1
              granted T1
            b: acquire X db.t1 stmt
              waiting R1 (Waiting for table metadata lock)
            c: acquire SR db.t1
              waiting R2 (Waiting for table metadata lock)
            a: release-trx
              wake b: R1 granted T2 X
            matrix db.t1
              Some(0)
            d: acquire X db.t1 stmt
              waiting R3 (Waiting for table metadata lock)
            b: release-stmt
              wake d: R3 granted T3 X
            matrix db.t1
              Some(0)
        "#]],
        );
        // One hog in a row is the limit: the SR goes first.
        check(
            &format!("max-write-lock-count 1\n{script}"),
            expect![[r#"
                max-write-lock-count 1
                a: acquire SW db.t1
                  granted T1
                b: acquire X db.t1 stmt
                  waiting R1 (Waiting for table metadata lock)
                c: acquire SR db.t1
                  waiting R2 (Waiting for table metadata lock)
                a: release-trx
                  wake b: R1 granted T2 X
                matrix db.t1
                  Some(2)
                d: acquire X db.t1 stmt
                  waiting R3 (Waiting for table metadata lock)
                b: release-stmt
                  wake c: R2 granted T3 SR
                matrix db.t1
                  Some(0)
            "#]],
        );
    }

    #[test]
    fn piglets_past_max_write_lock_count_yield_to_read_only() {
        let script = "
            a: acquire SW db.t1
            b: acquire SRO db.t1 explicit
            c: acquire SW db.t1
            matrix db.t1
            d: acquire SW db.t1
            a: release-trx
            c: release-trx
            matrix db.t1
            ";
        check(
            script,
            expect![[r#"
            a: acquire SW db.t1
              granted T1
            b: acquire SRO db.t1 explicit
              waiting R1 (Waiting for table metadata lock)
            c: acquire SW db.t1
              granted T2
            matrix db.t1
              Some(0)
            d: acquire SW db.t1
              granted T3
            a: release-trx
            c: release-trx
            matrix db.t1
              Some(0)
        "#]],
        );
        check(
            &format!("max-write-lock-count 1\n{script}"),
            expect![[r#"
                max-write-lock-count 1
                a: acquire SW db.t1
                  granted T1
                b: acquire SRO db.t1 explicit
                  waiting R1 (Waiting for table metadata lock)
                c: acquire SW db.t1
                  granted T2
                matrix db.t1
                  Some(1)
                d: acquire SW db.t1
                  waiting R2 (Waiting for table metadata lock)
                a: release-trx
                c: release-trx
                  wake b: R1 granted T3 SRO
                matrix db.t1
                  Some(0)
            "#]],
        );
    }

    /// Random sessions against one manager: invariants after every step, every waiter
    /// woken exactly once, everything released at the end, and the same trace twice.
    #[test]
    fn random_sessions_keep_invariants() {
        for seed in 0..300 {
            let first = random_run(seed);
            assert_eq!(first, random_run(seed), "reproduce with seed={seed}");
        }
    }

    fn random_run(seed: u64) -> String {
        let mut rng = SimRng::stream(seed, "mdl-test");
        let mut mdl = MdlManager::new();
        if rng.chance(1, 3) {
            mdl.max_write_lock_count = 1 + rng.below(3);
        }
        let keys = [
            MdlKey::global(),
            MdlKey::schema("db"),
            MdlKey::table("db", "t1"),
            MdlKey::table("db", "t2"),
        ];
        let mut now = Tick::ZERO;
        let mut waiting: BTreeMap<MdlContextId, MdlRequestId> = BTreeMap::new();
        let mut trace = String::new();
        let pick = |rng: &mut SimRng, n: usize| rng.below(n as u64) as usize;
        for step in 0..200 {
            let ctx = MdlContextId(rng.below(6) as u32);
            let mut wakeups = Wakeups::default();
            let note = |trace: &mut String, w: &str| writeln!(trace, "{step} {ctx:?} {w}").unwrap();
            if let Some(&request) = waiting.get(&ctx) {
                match rng.below(4) {
                    0 => wakeups = mdl.cancel(request, MdlError::QueryInterrupted),
                    1 => {
                        now += Tick::from_secs(rng.below(4));
                        wakeups = mdl.expire(now);
                    }
                    _ => {}
                }
            } else {
                let tickets = mdl.tickets_of(ctx);
                match rng.below(8) {
                    0..=3 => {
                        let key = keys[pick(&mut rng, keys.len())].clone();
                        let types: Vec<MdlType> = MdlType::ALL
                            .into_iter()
                            .filter(|&t| key.namespace().strategy().supports(t))
                            .collect();
                        let ty = types[pick(&mut rng, types.len())];
                        let duration = MdlDuration::ALL[pick(&mut rng, 3)];
                        let timeout = Tick::from_secs(rng.below(5));
                        let (a, w) =
                            mdl.acquire(ctx, MdlRequest::new(key, ty, duration), now, timeout);
                        note(&mut trace, &format!("acquire {ty} {a:?}"));
                        if let Acquire::Waiting(r) = a {
                            waiting.insert(ctx, r);
                        }
                        wakeups = w;
                    }
                    4 if !tickets.is_empty() => {
                        let t = tickets[pick(&mut rng, tickets.len())];
                        let scoped = mdl.ticket(t).unwrap().key.namespace().strategy()
                            == MdlLockStrategy::Scoped;
                        let to = if scoped {
                            MdlType::Exclusive
                        } else {
                            [
                                MdlType::SharedNoWrite,
                                MdlType::SharedNoReadWrite,
                                MdlType::Exclusive,
                            ][pick(&mut rng, 3)]
                        };
                        let stronger = has_stronger_or_equal_type(
                            mdl.ticket(t).unwrap().key.namespace().strategy(),
                            to,
                            mdl.ticket(t).unwrap().mdl_type,
                        );
                        if stronger {
                            let (a, w) = mdl.upgrade(t, to, now, Tick::from_secs(rng.below(5)));
                            note(&mut trace, &format!("upgrade {t:?} {to} {a:?}"));
                            if let Acquire::Waiting(r) = a {
                                waiting.insert(ctx, r);
                            }
                            wakeups = w;
                        }
                    }
                    5 if !tickets.is_empty() => {
                        let t = tickets[pick(&mut rng, tickets.len())];
                        let held = mdl.ticket(t).unwrap().mdl_type;
                        if matches!(held, MdlType::Exclusive | MdlType::SharedNoWrite) {
                            let strategy = mdl.ticket(t).unwrap().key.namespace().strategy();
                            let to: Vec<MdlType> = MdlType::ALL
                                .into_iter()
                                .filter(|&x| {
                                    strategy.supports(x)
                                        && has_stronger_or_equal_type(strategy, held, x)
                                })
                                .collect();
                            let to = to[pick(&mut rng, to.len())];
                            wakeups = mdl.downgrade(t, to);
                            note(&mut trace, &format!("downgrade {t:?} {to}"));
                        }
                    }
                    6 if !tickets.is_empty() => {
                        let t = tickets[pick(&mut rng, tickets.len())];
                        wakeups = mdl.release(t);
                    }
                    _ => {
                        wakeups = if rng.chance(1, 2) {
                            mdl.release_statement_locks(ctx)
                        } else {
                            mdl.release_transactional_locks(ctx)
                        };
                    }
                }
            }
            for g in &wakeups.granted {
                assert_eq!(
                    waiting.remove(&g.ctx),
                    Some(g.request),
                    "seed={seed} step={step}"
                );
                writeln!(trace, "  granted {g:?}").unwrap();
            }
            for a in &wakeups.aborted {
                assert_eq!(
                    waiting.remove(&a.ctx),
                    Some(a.request),
                    "seed={seed} step={step}"
                );
                writeln!(trace, "  aborted {a:?}").unwrap();
            }
            for c in 0..6 {
                let c = MdlContextId(c);
                assert_eq!(
                    mdl.waiting_request(c),
                    waiting.get(&c).copied(),
                    "seed={seed} step={step}"
                );
            }
            if let Err(e) = mdl.validate() {
                panic!("seed={seed} step={step}: {e}\n{trace}");
            }
        }
        // Quiesce: every session disconnects; nothing may be left behind.
        for c in 0..6 {
            let w = mdl.release_all(MdlContextId(c));
            waiting.remove(&MdlContextId(c));
            for g in &w.granted {
                assert_eq!(waiting.remove(&g.ctx), Some(g.request), "seed={seed}");
            }
            assert!(w.aborted.is_empty());
            mdl.validate().unwrap();
        }
        assert!(mdl.metadata_locks().is_empty(), "seed={seed}");
        assert_eq!(mdl.next_deadline(), None);
        trace
    }
}
