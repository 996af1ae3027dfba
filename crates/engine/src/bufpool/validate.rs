//! The buffer pool's structural invariants, checked by tests and debug runs: list
//! lengths, blocks conserved, the old sublist's share, stale counts, the page hash, and
//! the flush list in LSN order with one live entry per dirty page.

use super::{
    BufPool, BufPoolInstance, LruPolicy, Lsn, PageId, FRAME_NONE, F_BUDDY, F_DIRTY, F_OLD,
    LRU_NON_OLD_MIN_LEN, LRU_OLD_MIN_LEN, LRU_OLD_TOLERANCE, STATE_FREE, STATE_MEMORY,
};

impl BufPool {
    /// Checks the structural invariants; panics with a description on the first broken
    /// one. Used by tests and debug runs.
    pub fn validate(&self) {
        self.validate_ahi();
        self.validate_hash();
        let mut slot_pages: Vec<u64> = Vec::new();
        for inst in &self.instances {
            let order: Vec<u32> = inst.lru_iter().collect();
            validate_lists(inst, &order);
            inst.validate_zip();
            if inst.policy == LruPolicy::Midpoint {
                validate_midpoint(inst, &order);
            }
            self.validate_lru_pages(inst, &order);
            validate_slots(inst, &mut slot_pages);
            validate_flush_list(inst);
        }
        assert_eq!(
            self.scan_oldest_modification(),
            self.oldest_modification,
            "the pool's oldest modification"
        );
        self.spaces.validate(&slot_pages);
    }

    /// The LRU's pages: each a page, found by the page hash, the stale ones counted.
    fn validate_lru_pages(&self, inst: &BufPoolInstance, order: &[u32]) {
        let id = inst.id;
        let stale = order
            .iter()
            .filter(|&&b| self.is_stale(&inst.blocks[b as usize]))
            .count() as u32;
        assert_eq!(stale, inst.stale_len, "instance {id}: stale count");
        for &b in order {
            let blk = &inst.blocks[b as usize];
            assert!(blk.holds_page(), "instance {id}: LRU holds a non-page");
            let page = PageId {
                space: self.block_space(blk),
                page_no: blk.page_no,
            };
            assert_eq!(
                self.hash_find(usize::from(id), page),
                Some(b),
                "instance {id}: page hash"
            );
        }
    }
}

/// The lists' lengths, the free list's blocks, and every block in one place.
fn validate_lists(inst: &BufPoolInstance, order: &[u32]) {
    let id = inst.id;
    assert_eq!(
        order.len() as u32,
        inst.lru_len,
        "instance {id}: LRU length"
    );
    let mut free = 0;
    for b in inst.free_iter() {
        assert!(
            inst.blocks
                .get(b as usize)
                .is_none_or(|blk| blk.state() == STATE_FREE),
            "instance {id}: free list holds a used block"
        );
        free += 1;
    }
    assert_eq!(free, inst.free_len, "instance {id}: free length");
    assert_eq!(
        inst.short_of_blocks,
        inst.free_len + inst.lru_len < inst.n_blocks / 4,
        "instance {id}: short_of_blocks"
    );
    let memory = inst
        .blocks
        .iter()
        .filter(|b| b.state() == STATE_MEMORY && !b.is(F_BUDDY))
        .count() as u32;
    assert_eq!(memory, inst.memory_len, "instance {id}: lent frames");
    assert_eq!(
        inst.lru_len - inst.zip_only_len() + inst.free_len + inst.memory_len + inst.buddy_len(),
        inst.size(),
        "instance {id}: blocks conserved"
    );
}

/// The old sublist: its count, `LRU_old` at its head, every block after it old, and
/// its share within the tolerance of `innodb_old_blocks_pct`
/// (InnoDB: `buf_LRU_old_adjust_len()`).
fn validate_midpoint(inst: &BufPoolInstance, order: &[u32]) {
    let id = inst.id;
    let old = order
        .iter()
        .filter(|&&b| inst.blocks[b as usize].is(F_OLD))
        .count() as u32;
    assert_eq!(old, inst.lru_old_len, "instance {id}: old count");
    if inst.lru_len < LRU_OLD_MIN_LEN {
        assert_eq!(inst.lru_old, FRAME_NONE);
        return;
    }
    let first_old = order
        .iter()
        .position(|&b| inst.blocks[b as usize].is(F_OLD));
    assert_eq!(
        first_old.map(|p| order[p]),
        Some(inst.lru_old),
        "instance {id}: LRU_old"
    );
    assert!(order[first_old.unwrap_or(0)..]
        .iter()
        .all(|&b| inst.blocks[b as usize].is(F_OLD)));
    let target = (u64::from(inst.lru_len) * u64::from(inst.old_ratio) / 1024) as u32;
    assert!(inst.lru_old_len.abs_diff(target) <= LRU_OLD_TOLERANCE + LRU_NON_OLD_MIN_LEN);
}

/// Pages per tablespace slot, added into the pool's totals.
fn validate_slots(inst: &BufPoolInstance, slot_pages: &mut Vec<u64>) {
    let id = inst.id;
    let mut here = vec![0u32; inst.slot_pages.len()];
    for blk in inst.blocks.iter().filter(|b| b.holds_page()) {
        let s = usize::from(blk.slot);
        assert!(s < here.len(), "instance {id}: slot {s} not counted");
        here[s] += 1;
        if slot_pages.len() <= s {
            slot_pages.resize(s + 1, 0);
        }
        slot_pages[s] += 1;
    }
    assert_eq!(here, inst.slot_pages, "instance {id}: pages per slot");
}

/// Every dirty page has exactly one live flush-list entry, in LSN order, and no
/// tombstone sits at the list's old end.
fn validate_flush_list(inst: &BufPoolInstance) {
    let id = inst.id;
    let mut live = 0;
    let mut last = Lsn(0);
    for (k, e) in inst.flush.entries.iter().enumerate() {
        if e.frame == FRAME_NONE {
            continue;
        }
        live += 1;
        assert!(e.lsn >= last, "instance {id}: flush list out of LSN order");
        last = e.lsn;
        let blk = &inst.blocks[e.frame as usize];
        assert!(
            blk.is(F_DIRTY),
            "instance {id}: clean page on the flush list"
        );
        assert_eq!(
            blk.access_or_flush,
            inst.flush.front_seq.wrapping_add(k as u32),
            "instance {id}: flush seq"
        );
        assert_eq!(
            blk.dirty_accessed(),
            e.access_ms != 0,
            "instance {id}: a dirty page's accessed bit"
        );
    }
    let dirty = inst.blocks.iter().filter(|b| b.is(F_DIRTY)).count() as u32;
    assert_eq!(live, inst.flush.live, "instance {id}: flush list length");
    assert_eq!(
        dirty, live,
        "instance {id}: dirty pages are on the flush list"
    );
    if let Some(front) = inst.flush.entries.front() {
        assert_ne!(
            front.frame, FRAME_NONE,
            "instance {id}: tombstone at the flush list's old end"
        );
    }
}
