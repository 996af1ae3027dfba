//! The free list and the free-block search: `buf_LRU_get_free_block()` and eviction
//! (`buf_LRU_free_page()`), and the frames lent to the AHI and lock heaps.
//!
//! Free blocks come from the free list, else from the tail of the LRU list; a clean,
//! unfixed block (or a stale one, 8.0.23) is evicted to the free list. The free list is
//! linked through the descriptors' `next` field.

use super::{
    BufBlock, BufPool, BufPoolInstance, FrameId, PageId, FRAME_NONE, F_BUDDY, F_DIRTY, F_IO, F_ZIP,
    LRU_SEARCH_SCAN_THRESHOLD, STATE_MEMORY, STATE_ZIP,
};

/// Where a free block came from (`buf_LRU_get_free_block()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreeBlock {
    /// Taken from the free list.
    FromFreeList(FrameId),
    /// A clean or stale block evicted from the LRU tail, after looking at `scanned` blocks.
    Evicted {
        /// The block, now off every list.
        frame: FrameId,
        /// Blocks looked at.
        scanned: u32,
    },
    /// Nothing free or evictable among the `scanned` blocks looked at.
    NoneFound {
        /// Blocks looked at.
        scanned: u32,
    },
}

impl BufPoolInstance {
    pub(super) fn free_pop(&mut self) -> Option<u32> {
        let b = self.free_head;
        if b != FRAME_NONE {
            self.free_head = self.blocks[b as usize].next;
            self.blocks[b as usize].next = FRAME_NONE;
        } else if self.unused < self.n_blocks {
            // The first use of a block: its descriptor is made now.
            let b = self.unused;
            self.unused += 1;
            if b as usize == self.blocks.len() {
                self.blocks.push(BufBlock::FREE);
            }
            self.free_len -= 1;
            self.note_lengths();
            return Some(b);
        } else {
            return None;
        }
        self.free_len -= 1;
        self.note_lengths();
        Some(b)
    }

    /// Keeps `short_of_blocks` true exactly while the free and LRU lists together hold
    /// under a quarter of the instance's blocks.
    #[inline]
    pub(super) fn note_lengths(&mut self) {
        self.short_of_blocks = self.free_len + self.lru_len < self.n_blocks / 4;
    }

    /// Makes the descriptors of every pool block, so that descriptors can follow them.
    pub(super) fn make_all_blocks(&mut self) {
        if self.blocks.len() < self.n_blocks as usize {
            self.blocks.resize(self.n_blocks as usize, BufBlock::FREE);
        }
    }

    /// The free blocks in the order the free list hands them out.
    pub(super) fn free_iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.chain_from(self.free_head)
            .chain(self.unused..self.n_blocks)
    }

    pub(super) fn free_push(&mut self, b: u32) {
        self.blocks[b as usize] = BufBlock {
            next: self.free_head,
            ..BufBlock::FREE
        };
        self.free_head = b;
        self.free_len += 1;
        self.note_lengths();
    }
}

impl BufPool {
    /// InnoDB: `buf_LRU_get_free_block()`, one pass: the free list, then up to
    /// `scan_limit` blocks from the LRU tail for a clean, unfixed (or stale) block.
    /// Caller holds the instance mutex.
    ///
    /// With compressed pages in the pool, the LRU pass is preceded by a pass over
    /// `unzip_LRU` when [`BufPool::evict_from_unzip_lru`] says so
    /// (`buf_LRU_free_from_unzip_LRU_list()`), which frees an uncompressed frame and keeps
    /// the compressed page; and freeing a compressed-only page at the LRU tail yields a
    /// block only when it empties the buddy block its frame was carved from.
    pub fn get_free_block(&mut self, instance: u16, scan_limit: u32) -> FreeBlock {
        let i = usize::from(instance);
        if let Some(local) = self.instances[i].free_pop() {
            return FreeBlock::FromFreeList(self.instances[i].frame_id(local));
        }
        let mut scanned = 0;
        if self.evict_from_unzip_lru(instance) {
            let (found, n) = self.free_from_unzip_lru(instance, scan_limit);
            scanned += n;
            if let Some(frame) = found {
                return FreeBlock::Evicted { frame, scanned };
            }
        }
        let mut b = self.instances[i].lru_tail;
        while b != FRAME_NONE && scanned < scan_limit {
            scanned += 1;
            let blk = self.instances[i].blocks[b as usize];
            let prev = blk.prev;
            let frame = self.instances[i].frame_id(b);
            if self.ready_for_replace(&blk) {
                self.evict(frame);
                // A compressed-only page frees a block only with the last frame of its
                // buddy block; then that block is at the head of the free list.
                if let Some(local) = self.instances[i].free_pop() {
                    let frame = self.instances[i].frame_id(local);
                    return FreeBlock::Evicted { frame, scanned };
                }
            }
            b = prev;
        }
        FreeBlock::NoneFound { scanned }
    }

    /// InnoDB: `buf_flush_ready_for_replace()`: unfixed and clean, or stale (8.0.23
    /// frees stale pages without writing them).
    pub(super) fn ready_for_replace(&self, b: &BufBlock) -> bool {
        !b.is(F_IO) && (!b.is(F_DIRTY) || self.is_stale(b))
    }

    /// Removes a page from the LRU list, the flush list and the page hash and puts its
    /// frame on the free list (`buf_LRU_free_page()` + `buf_LRU_block_remove_hashed()`).
    /// Returns whether the page was stale.
    ///
    /// A page with a compressed frame loses both frames (`buf_LRU_free_page(zip =
    /// true)`): the buddy slot is freed, and a compressed-only page's descriptor too.
    pub(super) fn evict(&mut self, frame: FrameId) -> bool {
        let i = self.inst_of_frame(frame);
        let local = self.instances[i].local(frame);
        self.evict_local(i, local)
    }

    /// [`BufPool::evict`] of `blocks[local]` of instance `i`.
    pub(super) fn evict_local(&mut self, i: usize, local: u32) -> bool {
        let b = self.instances[i].blocks[local as usize];
        let stale = self.is_stale(&b);
        let page = PageId {
            space: self.block_space(&b),
            page_no: b.page_no,
        };
        if b.is(F_ZIP) {
            self.instances[i].zip_release_frame(local, b);
        }
        // buf_LRU_block_remove_hashed().
        self.instances[i].hash_remove(local, page);
        self.slot_out(i, b.slot);
        if b.ahi_index != 0 {
            // buf_LRU_free_page() drops the page's hash entries before freeing it.
            self.ahi_forget(page.space, b.ahi_index);
        }
        if b.is(F_DIRTY) {
            self.flush_remove_in(i, b.access_or_flush);
        }
        let inst = &mut self.instances[i];
        inst.remove_block(local);
        if b.state() == STATE_ZIP {
            inst.zip_free_desc(local);
        } else {
            inst.free_push(local);
        }
        inst.freed_page_clock = inst.freed_page_clock.wrapping_add(1);
        if stale {
            inst.stale_len -= 1;
            inst.stats.stale_freed += 1;
        } else {
            inst.stats.evicted += 1;
        }
        stale
    }

    /// Frees a stale page met by a lookup (8.0.23 `buf_page_free_stale()`).
    /// Caller holds the instance mutex.
    pub fn free_stale(&mut self, frame: FrameId) {
        let stale = self.evict(frame);
        debug_assert!(stale, "free_stale on a current page");
    }

    /// Lends up to `n` frames of `instance` to the AHI or lock heaps (`BUF_BLOCK_MEMORY`),
    /// from the free list, then by evicting clean pages from the LRU tail. Returns how
    /// many were lent. Caller holds the instance mutex.
    pub fn borrow_frames(&mut self, instance: u16, n: u32) -> u32 {
        let i = usize::from(instance);
        let mut lent = 0;
        while lent < n {
            let local = match self.instances[i].free_pop() {
                Some(l) => l,
                None => match self.get_free_block(instance, LRU_SEARCH_SCAN_THRESHOLD) {
                    FreeBlock::Evicted { frame, .. } | FreeBlock::FromFreeList(frame) => {
                        self.instances[i].local(frame)
                    }
                    FreeBlock::NoneFound { .. } => break,
                },
            };
            let inst = &mut self.instances[i];
            inst.blocks[local as usize] = BufBlock {
                flags: STATE_MEMORY,
                ..BufBlock::FREE
            };
            inst.memory_len += 1;
            lent += 1;
        }
        lent
    }

    /// Returns `n` lent frames of `instance` to the free list.
    pub fn return_frames(&mut self, instance: u16, n: u32) {
        let inst = &mut self.instances[usize::from(instance)];
        let mut left = n.min(inst.memory_len);
        let mut b = 0usize;
        while left > 0 && b < inst.blocks.len() {
            if inst.blocks[b].state() == STATE_MEMORY && !inst.blocks[b].is(F_BUDDY) {
                inst.free_push(b as u32);
                inst.memory_len -= 1;
                left -= 1;
            }
            b += 1;
        }
    }

    /// InnoDB: `buf_LRU_buf_pool_running_out()`: some instance has less than a quarter
    /// of its frames free or holding pages, the rest lent to the AHI and lock heaps.
    pub fn running_out(&self) -> bool {
        // Every instance's flag, without a branch each (this is asked for every row a
        // statement changes).
        self.instances
            .iter()
            .fold(false, |short, i| short | i.short_of_blocks)
    }
}
