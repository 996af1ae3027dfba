//! The flush list and writing pages: `buf0flu.cc`.
//!
//! Dirty pages sit on the flush list in the order they were first modified (oldest
//! modification LSN). The page cleaner writes from its old end in flush-list batches
//! (`buf_flush_do_batch(BUF_FLUSH_LIST)`) and frees or writes from the LRU tail in LRU
//! batches (`buf_flush_LRU_list_batch()`); a free-block search that finds only dirty
//! pages writes one itself (`buf_flush_single_page_from_LRU()`). A page being written
//! stays dirty and write-fixed until [`BufPool::complete_write`].
//!
//! The list is a deque of (LSN, frame) in modification order; a page cleaned out of
//! order leaves a tombstone that is skipped and compacted away.

use super::{
    BufPool, BufPoolInstance, FrameId, Lsn, PageNo, SpaceId, FRAME_NONE, F_DIRTY, F_IO, F_IO_WRITE,
    LRU_MIN_LEN, STATE_FILE,
};
use std::collections::VecDeque;

/// One flush-list entry: a page's oldest modification.
#[derive(Clone, Copy, Debug)]
pub(super) struct FlushEntry {
    pub(super) lsn: Lsn,
    /// Local frame, [`FRAME_NONE`] once the page was cleaned out of order.
    pub(super) frame: u32,
    /// The page's first access time while it is dirty (its descriptor holds this
    /// entry's number instead).
    pub(super) access_ms: u32,
}

const _: () = assert!(std::mem::size_of::<FlushEntry>() == 16);

/// The flush list (`buf_pool->flush_list`) as a deque in modification order: the front
/// is the oldest modification (InnoDB's tail, where flushing starts).
#[derive(Clone, Debug, Default)]
pub(super) struct FlushList {
    pub(super) entries: VecDeque<FlushEntry>,
    /// Sequence number of `entries[0]`.
    pub(super) front_seq: u32,
    /// Live (non-tombstone) entries: the dirty pages.
    pub(super) live: u32,
}

impl FlushList {
    fn push(&mut self, lsn: Lsn, frame: u32, access_ms: u32) -> u32 {
        debug_assert!(
            self.entries.back().is_none_or(|e| e.lsn <= lsn),
            "flush list stays in LSN order"
        );
        let seq = self.front_seq.wrapping_add(self.entries.len() as u32);
        self.entries.push_back(FlushEntry {
            lsn,
            frame,
            access_ms,
        });
        self.live += 1;
        seq
    }

    /// The entry numbered `seq`.
    pub(super) fn entry(&self, seq: u32) -> &FlushEntry {
        &self.entries[seq.wrapping_sub(self.front_seq) as usize]
    }

    pub(super) fn entry_mut(&mut self, seq: u32) -> &mut FlushEntry {
        &mut self.entries[seq.wrapping_sub(self.front_seq) as usize]
    }

    /// Tombstones entry `seq`; returns the access time it kept.
    fn remove(&mut self, seq: u32) -> u32 {
        let idx = seq.wrapping_sub(self.front_seq) as usize;
        debug_assert!(
            self.entries[idx].frame != FRAME_NONE,
            "flush entry removed twice"
        );
        self.entries[idx].frame = FRAME_NONE;
        let access_ms = self.entries[idx].access_ms;
        self.live -= 1;
        while self.entries.front().is_some_and(|e| e.frame == FRAME_NONE) {
            self.entries.pop_front();
            self.front_seq = self.front_seq.wrapping_add(1);
        }
        access_ms
    }
}

/// What `buf_flush_single_page_from_LRU()` found at the tail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinglePageFlush {
    /// A clean (or stale) page was freed; the free list has a block.
    Freed {
        /// Blocks looked at.
        scanned: u32,
    },
    /// A dirty page must be written first; it is now write-fixed. Call
    /// [`BufPool::complete_write`] with `evict = true` when the write is done.
    Write {
        /// The page being written.
        frame: FrameId,
        /// Blocks looked at.
        scanned: u32,
    },
    /// Every block is fixed.
    Nothing {
        /// Blocks looked at.
        scanned: u32,
    },
}

/// What one page-cleaner LRU batch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LruBatch {
    /// Blocks looked at.
    pub scanned: u32,
    /// Clean or stale blocks freed.
    pub freed: u32,
    /// Dirty blocks write-fixed (their frames were pushed on the caller's list).
    pub writes: u32,
}

impl BufPoolInstance {
    /// Removes a flush-list entry and returns the access time it kept; when tombstones
    /// outnumber live entries, compacts the deque and renumbers the blocks' entries, so
    /// the deque stays within twice the number of dirty pages.
    pub(super) fn flush_remove(&mut self, seq: u32) -> u32 {
        let access_ms = self.flush.remove(seq);
        if self.flush.entries.len() > 2 * self.flush.live as usize + 4096 {
            self.flush.entries.retain(|e| e.frame != FRAME_NONE);
            for (k, e) in self.flush.entries.iter().enumerate() {
                self.blocks[e.frame as usize].access_or_flush =
                    self.flush.front_seq.wrapping_add(k as u32);
            }
        }
        access_ms
    }

    /// The first access time of `blocks[local]`'s page (0 = not yet accessed), wherever
    /// it is kept.
    pub(super) fn access_ms(&self, local: u32) -> u32 {
        let b = &self.blocks[local as usize];
        if b.is(F_DIRTY) {
            self.flush.entry(b.access_or_flush).access_ms
        } else {
            b.access_or_flush
        }
    }

    pub(super) fn set_access_ms(&mut self, local: u32, ms: u32) {
        let b = self.blocks[local as usize];
        if b.is(F_DIRTY) {
            self.flush.entry_mut(b.access_or_flush).access_ms = ms;
            self.blocks[local as usize].set_dirty_accessed(ms != 0);
        } else {
            self.blocks[local as usize].access_or_flush = ms;
        }
    }

    /// The oldest modification of the dirty page in `blocks[local]`.
    pub(super) fn oldest_modification_of(&self, local: u32) -> Option<Lsn> {
        let b = &self.blocks[local as usize];
        b.is(F_DIRTY)
            .then(|| self.flush.entry(b.access_or_flush).lsn)
    }
}

impl BufPool {
    /// A mini-transaction modified the page at `lsn` (`buf_flush_note_modification()`):
    /// if it was clean it joins the flush list with `lsn` as its oldest modification.
    pub fn mark_dirty(&mut self, frame: FrameId, lsn: Lsn) {
        let i = self.inst_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame) as usize;
        if inst.blocks[local].is(F_DIRTY) {
            return;
        }
        let seq = inst
            .flush
            .push(lsn, local as u32, inst.blocks[local].access_or_flush);
        let b = &mut inst.blocks[local];
        b.set(F_DIRTY, true);
        b.set_dirty_accessed(b.access_or_flush != 0);
        b.access_or_flush = seq;
        if inst.flush.entries.len() == 1 {
            // The list was empty: this page is its old end now.
            self.refresh_oldest_modification();
        }
    }

    /// InnoDB: `buf_pool_get_oldest_modification()`: the oldest modification still
    /// unwritten in any instance.
    pub fn oldest_modification(&self) -> Option<Lsn> {
        self.oldest_modification
    }

    /// Recomputes [`BufPool::oldest_modification`] after an instance's flush list
    /// changed at its old end.
    fn refresh_oldest_modification(&mut self) {
        self.oldest_modification = self.scan_oldest_modification();
    }

    /// The least of the instances' oldest modifications, read from every flush list.
    pub(super) fn scan_oldest_modification(&self) -> Option<Lsn> {
        self.instances
            .iter()
            .filter_map(BufPoolInstance::oldest_modification)
            .min()
    }

    /// [`BufPoolInstance::flush_remove`] in instance `i`, keeping the pool's oldest
    /// modification.
    pub(super) fn flush_remove_in(&mut self, i: usize, seq: u32) -> u32 {
        let inst = &mut self.instances[i];
        let front = inst.flush.front_seq;
        let access_ms = inst.flush_remove(seq);
        if self.instances[i].flush.front_seq != front {
            self.refresh_oldest_modification();
        }
        access_ms
    }

    /// 5.7 `buf_flush_or_remove_pages()` in a flush mode, one pass from the tail: the
    /// oldest dirty page of `space` within `pages` (the pages a FlushObserver tagged) in
    /// instance `instance` that is not under I/O, and how
    /// many flush-list entries the walk from the tail visits to reach it (itself
    /// included). Pages of the space already being written are walked past, as the
    /// server does (`buf_flush_or_remove_page()` fails on an I/O-fixed page).
    pub fn flush_list_next_of_space(
        &self,
        instance: u16,
        space: SpaceId,
        pages: std::ops::Range<PageNo>,
    ) -> Option<(FrameId, u32)> {
        let inst = &self.instances[usize::from(instance)];
        let mut visited = 0;
        for e in &inst.flush.entries {
            if e.frame == FRAME_NONE {
                continue;
            }
            visited += 1;
            let b = &inst.blocks[e.frame as usize];
            if pages.contains(&b.page_no) && !b.is(F_IO) && self.block_space(b) == space {
                return Some((inst.base + e.frame, visited));
            }
        }
        None
    }

    /// 8.0 `flush_pages_flush_list()` with `buf_page_try_pin()`: one walk of the whole
    /// flush list from the tail, collecting every dirty page of `space` not under I/O.
    /// Returns the pages and the entries visited.
    pub fn flush_list_pages_of_space(
        &self,
        instance: u16,
        space: SpaceId,
        pages: std::ops::Range<PageNo>,
        out: &mut Vec<FrameId>,
    ) -> u32 {
        let inst = &self.instances[usize::from(instance)];
        for e in &inst.flush.entries {
            if e.frame == FRAME_NONE {
                continue;
            }
            let b = &inst.blocks[e.frame as usize];
            if pages.contains(&b.page_no) && !b.is(F_IO) && self.block_space(b) == space {
                out.push(inst.base + e.frame);
            }
        }
        inst.flush.live
    }

    /// Whether `frame` holds a dirty page not under I/O (a write may start on it).
    pub fn is_dirty_unfixed(&self, frame: FrameId) -> bool {
        let b = self.block(frame);
        b.state() == STATE_FILE && b.is(F_DIRTY) && !b.is(F_IO)
    }

    /// Write-fixes a dirty page for a write the caller issues (`buf_flush_page()`); the
    /// caller completes it with [`BufPool::complete_write`].
    pub fn start_page_write(&mut self, frame: FrameId) {
        self.begin_write(frame);
    }

    /// Starts writing a dirty page (`buf_flush_page()`): it stays dirty, write-fixed,
    /// until [`BufPool::complete_write`].
    fn begin_write(&mut self, frame: FrameId) {
        let i = self.inst_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame) as usize;
        debug_assert!(inst.blocks[local].is(F_DIRTY) && !inst.blocks[local].is(F_IO));
        inst.blocks[local].set(F_IO_WRITE, true);
    }

    /// A write finished (`buf_flush_write_complete()`): the page leaves the flush list;
    /// an LRU-list flush then frees the block (`evict`).
    pub fn complete_write(&mut self, frame: FrameId, evict: bool) {
        let i = self.inst_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame) as usize;
        let b = inst.blocks[local];
        debug_assert!(b.is(F_IO_WRITE));
        inst.blocks[local].set(F_IO_WRITE, false);
        if b.is(F_DIRTY) {
            let access_ms = self.flush_remove_in(i, b.access_or_flush);
            let inst = &mut self.instances[i];
            inst.blocks[local].set(F_DIRTY, false);
            inst.blocks[local].access_or_flush = access_ms;
        }
        self.instances[i].stats.flushed += 1;
        if evict && b.holds_page() {
            self.evict(frame);
        }
    }

    /// InnoDB: `buf_flush_single_page_from_LRU()`: from the tail, free the first clean
    /// page, or write-fix the first dirty one for the caller to write synchronously.
    /// Caller holds the instance mutex.
    pub fn single_page_flush(&mut self, instance: u16) -> SinglePageFlush {
        let i = usize::from(instance);
        let mut scanned = 0;
        let mut b = self.instances[i].lru_tail;
        while b != FRAME_NONE {
            scanned += 1;
            let blk = self.instances[i].blocks[b as usize];
            let frame = self.instances[i].frame_id(b);
            if self.ready_for_replace(&blk) {
                let free_before = self.instances[i].free_len;
                self.evict(frame);
                if self.instances[i].free_len > free_before {
                    return SinglePageFlush::Freed { scanned };
                }
                // A compressed-only page whose buddy block still holds other frames.
                b = blk.prev;
                continue;
            }
            if !blk.is(F_IO) && blk.is(F_DIRTY) {
                self.begin_write(frame);
                return SinglePageFlush::Write { frame, scanned };
            }
            b = blk.prev;
        }
        SinglePageFlush::Nothing { scanned }
    }

    /// The page cleaner's LRU batch for one instance (`buf_flush_LRU_list()` and
    /// `buf_flush_LRU_list_batch()`, 5.7 and 8.0 alike): from the tail, while fewer than
    /// `scan_depth` blocks are free, the list is longer than `BUF_LRU_MIN_LEN` and fewer
    /// than `max = min(scan_depth, LRU length)` blocks were freed or written, free clean
    /// unfixed (and stale) blocks and write-fix dirty ones, pushing them on `writes` (the
    /// caller writes them and completes each with `evict = true`). Fixed blocks are
    /// walked past without counting. A written page is freed only when its write
    /// completes, so it does not count toward the free list here: with `F` blocks free
    /// and a dirty tail, the batch writes `scan_depth` pages, not `scan_depth − F`.
    /// `scan_depth` is a ceiling the batch refills toward, not a floor: sessions take
    /// blocks between rounds. Caller holds the instance mutex.
    pub fn lru_flush_batch(
        &mut self,
        instance: u16,
        scan_depth: u32,
        writes: &mut Vec<FrameId>,
    ) -> LruBatch {
        let i = usize::from(instance);
        let max = scan_depth.min(self.instances[i].lru_len);
        let mut r = LruBatch::default();
        let mut b = self.instances[i].lru_tail;
        while b != FRAME_NONE
            && r.freed + r.writes < max
            && self.instances[i].free_len < scan_depth
            && self.instances[i].lru_len > LRU_MIN_LEN
        {
            r.scanned += 1;
            let blk = self.instances[i].blocks[b as usize];
            let prev = blk.prev;
            let frame = self.instances[i].frame_id(b);
            if self.ready_for_replace(&blk) {
                self.evict(frame);
                r.freed += 1;
            } else if !blk.is(F_IO) && blk.is(F_DIRTY) {
                self.begin_write(frame);
                writes.push(frame);
                r.writes += 1;
            }
            b = prev;
        }
        r
    }

    /// The page cleaner's flush-list batch for one instance (`buf_flush_do_batch(
    /// BUF_FLUSH_LIST)`): write-fix up to `max_pages` dirty pages from the oldest
    /// modification on, stopping at pages modified at or after `lsn_limit`. Pushes them
    /// on `writes`; returns the number of entries looked at.
    pub fn flush_list_batch(
        &mut self,
        instance: u16,
        max_pages: u32,
        lsn_limit: Lsn,
        writes: &mut Vec<FrameId>,
    ) -> u32 {
        let i = usize::from(instance);
        let mut scanned = 0;
        let mut picked = 0;
        let mut idx = 0;
        while picked < max_pages && idx < self.instances[i].flush.entries.len() {
            let e = self.instances[i].flush.entries[idx];
            idx += 1;
            if e.frame == FRAME_NONE {
                continue;
            }
            if e.lsn >= lsn_limit {
                break;
            }
            scanned += 1;
            let frame = self.instances[i].frame_id(e.frame);
            if !self.instances[i].blocks[e.frame as usize].is(F_IO) {
                self.begin_write(frame);
                writes.push(frame);
                picked += 1;
            }
        }
        scanned
    }
}
