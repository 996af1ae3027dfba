//! The buffer pool's side of the adaptive hash index: which pages carry AHI entries
//! (`block->index`), counted per (tablespace, index), and dropping them
//! (`btr_search_drop_page_hash_index()`, 8.0's `btr_drop_ahi_for_table()`).

use super::{BufPool, FrameId, SpaceId, FRAME_NONE, F_BUDDY, STATE_FILE};
use std::collections::BTreeMap;

impl BufPool {
    /// Marks a page as carrying AHI entries of index `index` (1-based; `block->index`).
    /// Returns whether it was not hashed before.
    pub fn ahi_mark(&mut self, frame: FrameId, index: u8) -> bool {
        debug_assert!(index != 0);
        let i = self.inst_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame) as usize;
        let b = inst.blocks[local];
        // AHI entries point into uncompressed frames only.
        if b.ahi_index != 0 || b.state() != STATE_FILE {
            return false;
        }
        inst.blocks[local].ahi_index = index;
        let space = self.block_space(&b);
        *self.ahi_pages.entry((space, index)).or_insert(0) += 1;
        true
    }

    /// Drops a page's AHI entries (`btr_search_drop_page_hash_index()`); returns the
    /// index they belonged to (0 = none).
    pub fn ahi_unmark(&mut self, frame: FrameId) -> u8 {
        let i = self.inst_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame) as usize;
        let index = std::mem::take(&mut inst.blocks[local].ahi_index);
        let space = self.block_space(&self.instances[i].blocks[local]);
        if index != 0 {
            self.ahi_forget(space, index);
        }
        index
    }

    pub(super) fn ahi_forget(&mut self, space: SpaceId, index: u8) {
        if let Some(n) = self.ahi_pages.get_mut(&(space, index)) {
            *n -= 1;
            if *n == 0 {
                self.ahi_pages.remove(&(space, index));
            }
        }
    }

    /// Drops the AHI entries of every page of `space` in `instance` (one sweep over its
    /// descriptors); returns how many hashed pages of each index there were.
    pub fn ahi_drop_space(&mut self, instance: u16, space: SpaceId) -> Vec<(u8, u64)> {
        let i = usize::from(instance);
        let mut dropped: BTreeMap<u8, u64> = BTreeMap::new();
        let of_space = self.spaces.slots_of(space);
        for b in 0..self.instances[i].blocks.len() {
            let blk = self.instances[i].blocks[b];
            if blk.ahi_index != 0 && blk.state() == STATE_FILE && of_space[usize::from(blk.slot)] {
                self.instances[i].blocks[b].ahi_index = 0;
                self.ahi_forget(space, blk.ahi_index);
                *dropped.entry(blk.ahi_index).or_insert(0) += 1;
            }
        }
        dropped.into_iter().collect()
    }

    /// `buf_pool_clear_hash_index()`: every block's `block->index` reset, as
    /// `btr_search_disable()` does when `innodb_adaptive_hash_index` is switched off.
    /// Returns how many pages carried entries.
    pub fn ahi_clear_all(&mut self) -> u64 {
        let mut cleared = 0;
        for inst in &mut self.instances {
            for b in inst
                .blocks
                .iter_mut()
                .filter(|b| b.ahi_index != 0 && !b.is(F_BUDDY))
            {
                b.ahi_index = 0;
                cleared += 1;
            }
        }
        self.ahi_pages.clear();
        cleared
    }

    /// 8.0 `btr_drop_ahi_for_table()`'s view of one LRU list: every hashed page of
    /// `space`, with its position counted from the tail (1 = the tail), tail first.
    pub fn hashed_from_tail(&self, instance: u16, space: SpaceId, out: &mut Vec<(u32, FrameId)>) {
        out.clear();
        let inst = &self.instances[usize::from(instance)];
        let mut b = inst.lru_tail;
        let mut rank = 0;
        while b != FRAME_NONE {
            rank += 1;
            let blk = &inst.blocks[b as usize];
            if blk.ahi_index != 0 && self.block_space(blk) == space {
                out.push((rank, inst.base + b));
            }
            b = blk.prev;
        }
    }

    /// Whether the frame's page carries AHI entries.
    pub fn is_hashed(&self, frame: FrameId) -> bool {
        self.block(frame).ahi_index != 0
    }

    /// Pages with AHI entries, per (tablespace, index): what the AHI's memory and an
    /// index's `search_info->ref_count` follow.
    pub fn ahi_pages(&self) -> &BTreeMap<(SpaceId, u8), u64> {
        &self.ahi_pages
    }

    /// Checks that the AHI page counts match the frames' marks.
    pub fn validate_ahi(&self) {
        let mut counted: BTreeMap<(SpaceId, u8), u64> = BTreeMap::new();
        for inst in &self.instances {
            // A buddy block keeps its frame size class where a page keeps its index.
            for b in inst.blocks.iter().filter(|b| !b.is(F_BUDDY)) {
                if b.ahi_index != 0 {
                    assert_eq!(
                        b.state(),
                        STATE_FILE,
                        "AHI entries on a block that holds no uncompressed page"
                    );
                    *counted
                        .entry((self.block_space(b), b.ahi_index))
                        .or_insert(0) += 1;
                }
            }
        }
        assert_eq!(counted, self.ahi_pages, "AHI page counts");
    }
}
