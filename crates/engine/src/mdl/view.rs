//! What the lock manager shows: `performance_schema.metadata_locks` rows, the waits with
//! their wait-for edges (the UI's arrows), and each lock name's queue. All read-only;
//! every row comes from the manager's lock lists, in key order and then list order.

use super::lock::{MdlBlocker, MdlLockStatus};
use super::manager::MdlManager;
use super::types::{MdlContextId, MdlDuration, MdlKey, MdlRequestId, MdlTicketId, MdlType};
use crate::time::Tick;

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
    /// Granted at ([`MdlTicket::granted_at`](super::MdlTicket::granted_at)), or waiting
    /// since ([`MdlPending::requested_at`](super::MdlPending::requested_at)).
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

impl MdlManager {
    /// `performance_schema.metadata_locks`: by key, granted tickets then waiting
    /// requests, each in list order.
    pub fn metadata_locks(&self) -> Vec<MetadataLockRow> {
        let mut rows = Vec::new();
        for (key, lock) in self.used_locks() {
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
        for (key, lock) in self.used_locks() {
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
        self.used_locks()
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
}
