//! The lock manager's vocabulary, as `sql/mdl.h` names it: lock names ([`MdlKey`]) in
//! their namespaces, lock types and durations, requests, and what an operation answers
//! (a ticket, a wait, an error, and the sessions to wake).
//!
//! Nothing here decides anything; the decisions are in [`super::matrix`] (which types
//! conflict), [`super::lock`] (whether one lock name can grant a request) and
//! [`super::manager`] (everything else).
//!
//! Simplification: no user-level locks, stored routines, tablespaces or commit-order
//! waits; names are compared as given (no `lower_case_table_names`).

use crate::sql::codes;
use crate::time::Tick;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

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

/// A lock name's place in the lock manager's `MDL_map`
/// ([`MdlManager::lock_id`](super::MdlManager::lock_id)): a caller that resolves a name
/// once finds its lock object again without comparing names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MdlLockId(pub(super) u32);

impl MdlLockId {
    pub(super) fn index(self) -> usize {
        self.0 as usize
    }
}

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
    /// A trigger's name: CREATE and DROP TRIGGER take X on it.
    Trigger,
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
            MdlNamespace::Table | MdlNamespace::Trigger => MdlLockStrategy::Object,
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
            MdlNamespace::Trigger => "TRIGGER",
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
            MdlNamespace::Trigger => "Waiting for trigger metadata lock",
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
}

/// A lock name (`MDL_key`): namespace, schema and object name.
///
/// Every granted ticket and waiting request carries its lock's name, and a workload
/// takes and releases several locks a query, so the names are shared strings
/// ([`LockName`]): copying a key costs two counts, not two allocations.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MdlKey {
    namespace: MdlNamespace,
    db: LockName,
    name: LockName,
}

/// One part of a lock name: the empty name (GLOBAL, COMMIT, a schema's object) holds
/// nothing, any other a shared string. Ordered, compared, printed and serialised
/// exactly as the `String` it stands for; two copies of one name compare equal without
/// reading the text (the lock map's key and a workload's request are usually copies).
#[derive(Clone, Default, Eq)]
struct LockName(Option<Arc<str>>);

impl Hash for LockName {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialEq for LockName {
    fn eq(&self, other: &LockName) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

impl Ord for LockName {
    fn cmp(&self, other: &LockName) -> Ordering {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) if Arc::ptr_eq(a, b) => Ordering::Equal,
            _ => self.as_str().cmp(other.as_str()),
        }
    }
}

impl PartialOrd for LockName {
    fn partial_cmp(&self, other: &LockName) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl LockName {
    fn new(s: &str) -> LockName {
        LockName((!s.is_empty()).then(|| Arc::from(s)))
    }

    fn as_str(&self) -> &str {
        self.0.as_deref().unwrap_or("")
    }
}

impl fmt::Debug for LockName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for LockName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for LockName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<LockName, D::Error> {
        String::deserialize(d).map(|s| LockName::new(&s))
    }
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
    /// A trigger's key.
    pub fn trigger(db: &str, name: &str) -> MdlKey {
        MdlKey::new(MdlNamespace::Trigger, db, name)
    }

    fn new(namespace: MdlNamespace, db: &str, name: &str) -> MdlKey {
        MdlKey {
            namespace,
            db: LockName::new(db),
            name: LockName::new(name),
        }
    }

    /// The namespace.
    pub fn namespace(&self) -> MdlNamespace {
        self.namespace
    }
    /// The schema name; empty for GLOBAL, BACKUP LOCK and COMMIT.
    pub fn db_name(&self) -> &str {
        self.db.as_str()
    }
    /// The object name; empty except for tables.
    pub fn name(&self) -> &str {
        self.name.as_str()
    }
    /// The thread state a session shows while waiting for this lock.
    pub fn wait_state_name(&self) -> &'static str {
        self.namespace.wait_state_name()
    }

    /// `OBJECT_SCHEMA` as `performance_schema` shows it (NULL = `None`).
    pub fn object_schema(&self) -> Option<&str> {
        match self.namespace {
            MdlNamespace::Schema | MdlNamespace::Table | MdlNamespace::Trigger => {
                Some(self.db.as_str())
            }
            _ => None,
        }
    }
    /// `OBJECT_NAME` as `performance_schema` shows it (NULL = `None`).
    pub fn object_name(&self) -> Option<&str> {
        match self.namespace {
            MdlNamespace::Table | MdlNamespace::Trigger => Some(self.name.as_str()),
            _ => None,
        }
    }
}

impl fmt::Display for MdlKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.namespace {
            MdlNamespace::Schema => write!(f, "SCHEMA {}", self.db.as_str()),
            MdlNamespace::Table => write!(f, "TABLE {}.{}", self.db.as_str(), self.name.as_str()),
            MdlNamespace::Trigger => {
                write!(f, "TRIGGER {}.{}", self.db.as_str(), self.name.as_str())
            }
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

    /// This type's bit in the matrices' bitmaps (`MDL_BIT()`).
    pub(super) const fn bit(self) -> u16 {
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
            MdlError::Deadlock => codes::ER_LOCK_DEADLOCK,
            MdlError::LockWaitTimeout => codes::ER_LOCK_WAIT_TIMEOUT,
            MdlError::QueryInterrupted => codes::ER_QUERY_INTERRUPTED,
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

/// The answer to [`MdlManager::acquire_lock`](super::MdlManager::acquire_lock) or
/// [`MdlManager::upgrade`](super::MdlManager::upgrade).
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
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.granted.is_empty() && self.aborted.is_empty()
    }
}

/// A granted lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdlTicket {
    /// The owner.
    pub ctx: MdlContextId,
    /// The lock name ([`MdlManager::key`](super::MdlManager::key) reads it).
    pub lock: MdlLockId,
    /// The current type (upgrades and downgrades change it).
    pub mdl_type: MdlType,
    /// When it is released.
    pub duration: MdlDuration,
    /// When it was granted (see [`MdlManager::set_clock`](super::MdlManager::set_clock));
    /// an upgrade or a downgrade
    /// keeps the first grant's time, since the context has held the name all along.
    pub granted_at: Tick,
}

/// A waiting request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdlPending {
    /// The owner.
    pub ctx: MdlContextId,
    /// The lock name ([`MdlManager::key`](super::MdlManager::key) reads it).
    pub lock: MdlLockId,
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
