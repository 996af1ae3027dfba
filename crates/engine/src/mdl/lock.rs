//! One lock name's state (`MDL_lock`): the granted list, the waiting queue, and the
//! counters that pick the priority matrix. [`MdlLock::can_grant_lock`] is the whole
//! grant policy; [`MdlLock::blockers`] gives the wait-for edges that the deadlock search
//! walks and the views draw.
//!
//! Simplification: the server grants the "unobtrusive" types (S, SH, SR, SW, SWLP) on a
//! lock-free fast path while no obtrusive lock is granted or pending; that path only
//! changes the cost, never the decision, so every ticket here takes the slow path.

use super::matrix;
use super::types::{MdlContextId, MdlKey, MdlLockStrategy, MdlRequestId, MdlTicketId, MdlType};
use serde::{Deserialize, Serialize};

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

/// One entry of a lock's granted list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct GrantedEntry {
    pub(super) ticket: MdlTicketId,
    pub(super) ctx: MdlContextId,
    pub(super) mdl_type: MdlType,
}

/// One entry of a lock's waiting queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct WaitingEntry {
    pub(super) request: MdlRequestId,
    pub(super) ctx: MdlContextId,
    pub(super) mdl_type: MdlType,
}

/// One lock name's state (`MDL_lock`). It is made when its name is first locked and
/// kept once unused (see `MdlManager::lock_id` in `manager.rs`).
#[derive(Clone, Debug)]
pub(super) struct MdlLock {
    /// The name (`MDL_lock::key`).
    pub(super) key: MdlKey,
    pub(super) strategy: MdlLockStrategy,
    /// Granted tickets, oldest first (`m_granted`). Changed only through
    /// [`MdlLock::push_granted`] and [`MdlLock::remove_granted`], which keep the counts
    /// below.
    pub(super) granted: Vec<GrantedEntry>,
    /// Granted tickets of each type, and the bitmap of the types with any
    /// (`MDL_lock::fast_path_granted_bitmap()` | the granted list's types): a request
    /// no granted type conflicts with is granted without walking the list.
    granted_count: [u32; 16],
    granted_bitmap: u16,
    /// Waiting requests in arrival order (`m_waiting`).
    pub(super) waiting: Vec<WaitingEntry>,
    /// Hogs granted in a row while weaker requests waited (`m_hog_lock_count`).
    pub(super) hog_lock_count: u64,
    /// SW granted in a row while SRO waited (`m_piglet_lock_count`).
    pub(super) piglet_lock_count: u64,
    /// Which priority matrix is in use (`m_current_waiting_incompatible_idx`).
    pub(super) waiting_incompatible_idx: usize,
}

impl MdlLock {
    pub(super) fn new(key: MdlKey) -> MdlLock {
        MdlLock {
            strategy: key.namespace().strategy(),
            key,
            granted: Vec::new(),
            granted_count: [0; 16],
            granted_bitmap: 0,
            waiting: Vec::new(),
            hog_lock_count: 0,
            piglet_lock_count: 0,
            waiting_incompatible_idx: 0,
        }
    }

    /// Adds a ticket at the end of the granted list.
    pub(super) fn push_granted(&mut self, entry: GrantedEntry) {
        self.granted_count[entry.mdl_type as usize] += 1;
        self.granted_bitmap |= entry.mdl_type.bit();
        self.granted.push(entry);
    }

    /// Takes a ticket out of the granted list, the others keeping their order.
    pub(super) fn remove_granted(&mut self, ticket: MdlTicketId) -> Option<GrantedEntry> {
        let pos = self.granted.iter().position(|g| g.ticket == ticket)?;
        let entry = self.granted.remove(pos);
        let count = &mut self.granted_count[entry.mdl_type as usize];
        *count -= 1;
        if *count == 0 {
            self.granted_bitmap &= !entry.mdl_type.bit();
        }
        Some(entry)
    }

    /// Whether the granted counts agree with the granted list.
    #[cfg(test)]
    pub(super) fn granted_counts_agree(&self) -> bool {
        let mut count = [0u32; 16];
        for g in &self.granted {
            count[g.mdl_type as usize] += 1;
        }
        let bitmap = self.granted.iter().fold(0, |b, g| b | g.mdl_type.bit());
        count == self.granted_count && bitmap == self.granted_bitmap
    }

    pub(super) fn is_unused(&self) -> bool {
        self.granted.is_empty() && self.waiting.is_empty()
    }

    /// An unused object kept for its name's next request starts again as a new one
    /// would: counters at zero, the default priority matrix (its lists keep their
    /// capacity).
    pub(super) fn reset_unused(&mut self) {
        debug_assert!(self.is_unused());
        self.hog_lock_count = 0;
        self.piglet_lock_count = 0;
        self.waiting_incompatible_idx = 0;
    }

    /// Whether the counters are a new object's.
    #[cfg(test)]
    pub(super) fn is_fresh(&self) -> bool {
        self.hog_lock_count == 0
            && self.piglet_lock_count == 0
            && self.waiting_incompatible_idx == 0
    }

    pub(super) fn granted_incompatible(&self, mdl_type: MdlType) -> u16 {
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
    pub(super) fn can_grant_lock(&self, mdl_type: MdlType, ctx: MdlContextId) -> bool {
        if self.waiting_bitmap() & self.waiting_incompatible(mdl_type) != 0 {
            return false;
        }
        let incompatible = self.granted_incompatible(mdl_type);
        if self.granted_bitmap & incompatible == 0 {
            return true;
        }
        !self
            .granted
            .iter()
            .any(|g| g.ctx != ctx && g.mdl_type.bit() & incompatible != 0)
    }

    /// Whether a request of `mdl_type` is granted with nothing more to decide: nothing
    /// waits, no granted type conflicts with it, and `ctx` holds nothing on this name
    /// (its own ticket would be found instead). Then [`MdlLock::can_grant_lock`] is
    /// true and [`MdlLock::count_piglets_and_hogs`] counts nothing (it counts only
    /// jumps over waiters): `MdlManager::acquire_fast`'s test.
    #[inline]
    pub(super) fn grants_at_once(&self, mdl_type: MdlType, ctx: MdlContextId) -> bool {
        self.waiting.is_empty()
            && self.granted_bitmap & self.granted_incompatible(mdl_type) == 0
            && !self.granted.iter().any(|g| g.ctx == ctx)
    }

    /// The wait-for edges of a request of `mdl_type` by `ctx`: granted tickets, then
    /// waiting requests, of other contexts that block it (`MDL_lock::visit_subgraph()`).
    pub(super) fn blockers(&self, mdl_type: MdlType, ctx: MdlContextId) -> Vec<MdlBlocker> {
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
    pub(super) fn count_piglets_and_hogs(
        &mut self,
        mdl_type: MdlType,
        max_write_lock_count: u64,
    ) -> bool {
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
    pub(super) fn reset_priority_matrix(&mut self) {
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
