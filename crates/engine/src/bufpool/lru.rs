//! The LRU list with its old/young midpoint: `buf0lru.cc`'s list primitives, the
//! access rule that makes a page young (`buf_page_peek_if_too_old()`,
//! `buf_LRU_make_block_young()`), the LRU walks DROP TABLE uses, and the replay of an
//! access trace.
//!
//! A page read from disk goes in just after `LRU_old`; `buf_LRU_old_adjust_len()` keeps
//! the old sublist at `innodb_old_blocks_pct` of the list, within
//! `BUF_LRU_OLD_TOLERANCE`. The list is linked through `u32` indices into the
//! instance's descriptor `Vec`.

use super::prefetch::Found;
use super::{
    BufBlock, BufPool, BufPoolInstance, FrameId, FreeBlock, Lookup, LruPolicy, PageId, PageLook,
    SpaceId, FRAME_NONE, F_DIRTY, F_IO, F_OLD, LRU_NON_OLD_MIN_LEN, LRU_OLD_MIN_LEN,
    LRU_OLD_TOLERANCE, PAGE_CLOCK_MASK, STATE_FILE,
};

/// `LRU_old_ratio` from `innodb_old_blocks_pct` (`buf_LRU_old_ratio_update_instance()`).
pub(super) fn old_ratio(pct: u32) -> u32 {
    (pct * 1024 / 100).clamp(51, 1024)
}

impl BufPoolInstance {
    // The list primitives take the descriptors as a slice once, not a checked view of
    // the mapped array at every link they read or write (`huge_array.rs`).
    fn unlink(&mut self, b: u32) {
        let blocks: &mut [BufBlock] = &mut self.blocks;
        let BufBlock { prev, next, .. } = blocks[b as usize];
        if prev == FRAME_NONE {
            self.lru_head = next;
        } else {
            blocks[prev as usize].next = next;
        }
        if next == FRAME_NONE {
            self.lru_tail = prev;
        } else {
            blocks[next as usize].prev = prev;
        }
        blocks[b as usize].prev = FRAME_NONE;
        blocks[b as usize].next = FRAME_NONE;
        self.lru_len -= 1;
        self.note_lengths();
    }

    fn link_first(&mut self, b: u32) {
        let head = self.lru_head;
        let blocks: &mut [BufBlock] = &mut self.blocks;
        blocks[b as usize].prev = FRAME_NONE;
        blocks[b as usize].next = head;
        if head == FRAME_NONE {
            self.lru_tail = b;
        } else {
            blocks[head as usize].prev = b;
        }
        self.lru_head = b;
        self.lru_len += 1;
        self.note_lengths();
    }

    fn link_after(&mut self, after: u32, b: u32) {
        let blocks: &mut [BufBlock] = &mut self.blocks;
        let next = blocks[after as usize].next;
        blocks[b as usize].prev = after;
        blocks[b as usize].next = next;
        blocks[after as usize].next = b;
        if next == FRAME_NONE {
            self.lru_tail = b;
        } else {
            blocks[next as usize].prev = b;
        }
        self.lru_len += 1;
        self.note_lengths();
    }

    /// InnoDB: `buf_LRU_old_adjust_len()`: move `LRU_old` until the old sublist is
    /// within the tolerance of its target length.
    fn old_adjust_len(&mut self) {
        if self.lru_old == FRAME_NONE {
            return;
        }
        let new_len = (self.lru_len as u64 * self.old_ratio as u64 / 1024) as u32;
        let new_len = new_len.min(self.lru_len - (LRU_OLD_TOLERANCE + LRU_NON_OLD_MIN_LEN));
        let blocks: &mut [BufBlock] = &mut self.blocks;
        loop {
            let old = self.lru_old;
            if self.lru_old_len + LRU_OLD_TOLERANCE < new_len {
                let prev = blocks[old as usize].prev;
                self.lru_old = prev;
                blocks[prev as usize].set(F_OLD, true);
                self.lru_old_len += 1;
            } else if self.lru_old_len > new_len + LRU_OLD_TOLERANCE {
                blocks[old as usize].set(F_OLD, false);
                self.lru_old = blocks[old as usize].next;
                self.lru_old_len -= 1;
            } else {
                return;
            }
        }
    }

    /// InnoDB: `buf_LRU_old_init()`: once the list reaches `BUF_LRU_OLD_MIN_LEN`, call
    /// every page old, then let the adjustment give the young part back.
    fn old_init(&mut self) {
        let mut b = self.lru_head;
        while b != FRAME_NONE {
            self.blocks[b as usize].set(F_OLD, true);
            b = self.blocks[b as usize].next;
        }
        self.lru_old = self.lru_head;
        self.lru_old_len = self.lru_len;
        self.old_adjust_len();
    }

    /// InnoDB: `buf_LRU_add_block_low()`.
    pub(super) fn add_block(&mut self, b: u32, old: bool) {
        if self.policy == LruPolicy::Exact {
            self.link_first(b);
            return;
        }
        if !old || self.lru_len < LRU_OLD_MIN_LEN {
            self.link_first(b);
            let clock = self.freed_page_clock;
            let block = &mut self.blocks[b as usize];
            block.set(F_OLD, false);
            block.set_page_clock(clock);
        } else {
            self.link_after(self.lru_old, b);
            self.blocks[b as usize].set(F_OLD, true);
            self.lru_old_len += 1;
        }
        if self.lru_len > LRU_OLD_MIN_LEN {
            self.old_adjust_len();
        } else if self.lru_len == LRU_OLD_MIN_LEN {
            self.old_init();
        }
    }

    /// InnoDB: `buf_LRU_remove_block()`.
    pub(super) fn remove_block(&mut self, b: u32) {
        if self.policy == LruPolicy::Exact {
            self.unlink(b);
            return;
        }
        if b == self.lru_old {
            let prev = self.blocks[b as usize].prev;
            self.lru_old = prev;
            self.blocks[prev as usize].set(F_OLD, true);
            self.lru_old_len += 1;
        }
        let was_old = self.blocks[b as usize].is(F_OLD);
        self.unlink(b);
        self.blocks[b as usize].set(F_OLD, false);
        if self.lru_len < LRU_OLD_MIN_LEN {
            if self.lru_old != FRAME_NONE {
                let mut x = self.lru_head;
                while x != FRAME_NONE {
                    self.blocks[x as usize].set(F_OLD, false);
                    x = self.blocks[x as usize].next;
                }
            }
            self.lru_old = FRAME_NONE;
            self.lru_old_len = 0;
            return;
        }
        if was_old {
            self.lru_old_len -= 1;
        }
        self.old_adjust_len();
    }

    /// Walks the LRU list from head to tail.
    pub(super) fn lru_iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.chain_from(self.lru_head)
    }

    /// The blocks of a list linked through `next` (the LRU list, the free list),
    /// from `head` to the end.
    pub(super) fn chain_from(&self, head: u32) -> impl Iterator<Item = u32> + '_ {
        let mut b = head;
        let blocks: &[BufBlock] = &self.blocks;
        std::iter::from_fn(move || {
            if b == FRAME_NONE {
                return None;
            }
            let cur = b;
            b = blocks[b as usize].next;
            Some(cur)
        })
    }
}

impl BufPool {
    /// Records an access to a resident page and says whether it should be made young
    /// (`buf_page_peek_if_too_old()`). Counts `not_made_young` when the old-blocks time
    /// keeps an old page where it is. Under the exact policy every hit is made young.
    pub fn note_access(&mut self, frame: FrameId, now_ms: u32, old_blocks_time_ms: u32) -> bool {
        let i = self.inst_of_frame(frame);
        let local = self.instances[i].local(frame);
        self.instances[i].note_access(local, now_ms, old_blocks_time_ms)
    }

    /// [`BufPool::note_access`] on the frame a page-hash lookup found, with no
    /// change to the pool since.
    pub fn note_access_looked(
        &mut self,
        look: &PageLook,
        now_ms: u32,
        old_blocks_time_ms: u32,
    ) -> bool {
        debug_assert!(matches!(look.found, Lookup::Hit(_)));
        self.instances[usize::from(look.inst)].note_access(look.local, now_ms, old_blocks_time_ms)
    }
}

impl BufPoolInstance {
    /// [`BufPool::make_young`] on `blocks[local]`.
    fn make_young(&mut self, local: u32) {
        if self.blocks[local as usize].is(F_OLD) {
            self.stats.made_young += 1;
        }
        self.remove_block(local);
        self.add_block(local, false);
        // buf_LRU_add_block_low() -> buf_unzip_LRU_add_block(block, old = false).
        if self.in_unzip_lru(local) {
            self.unzip_remove(local);
            self.unzip_add(local, false);
        }
    }

    /// [`BufPool::note_access`] on `blocks[local]`.
    fn note_access(&mut self, local: u32, now_ms: u32, old_blocks_time_ms: u32) -> bool {
        let inst = self;
        if inst.policy == LruPolicy::Exact {
            return inst.lru_head != local;
        }
        // buf_page_get_gen() stamps the first access before buf_page_make_young_if_needed().
        // A dirty page keeps its access time on its flush-list entry; the descriptor's
        // bit says whether it is stamped, so the entry is read only when the old-blocks
        // time needs the time itself.
        let b = inst.blocks[local as usize];
        let accessed = if b.is(F_DIRTY) {
            b.dirty_accessed()
        } else {
            b.access_or_flush != 0
        };
        if !accessed {
            inst.set_access_ms(local, now_ms.max(1));
        }
        if inst.freed_page_clock == 0 {
            return false;
        }
        if old_blocks_time_ms != 0 && b.is(F_OLD) {
            let access_ms = if accessed {
                inst.access_ms(local)
            } else {
                now_ms.max(1)
            };
            if now_ms.saturating_sub(access_ms) >= old_blocks_time_ms {
                return true;
            }
            inst.stats.not_made_young += 1;
            return false;
        }
        !inst.peek_if_young(&b)
    }

    /// InnoDB: `buf_page_peek_if_young()`: the block is young enough, not too far
    /// behind the clock, to stay where it is.
    fn peek_if_young(&self, b: &BufBlock) -> bool {
        let window = (u64::from(self.size()) * u64::from(1024 - self.old_ratio) / 4096) as u32;
        // The pool's clock is compared in 31 bits, as the block keeps it.
        (self.freed_page_clock & PAGE_CLOCK_MASK) < b.page_clock().saturating_add(window)
    }

    /// Whether some access might make a page of this instance young: under the midpoint
    /// policy none does before the first eviction (`buf_page_peek_if_too_old()` says no
    /// while `freed_page_clock` is 0).
    pub(super) fn may_make_any_young(&self) -> bool {
        self.policy == LruPolicy::Exact || self.freed_page_clock != 0
    }

    /// Whether an access to `blocks[local]` might make it young, at any time: what
    /// [`BufPoolInstance::note_access`] answers, without its side effects, and yes
    /// where the answer waits on the old-blocks time.
    pub(super) fn may_make_young(&self, local: u32) -> bool {
        if self.policy == LruPolicy::Exact {
            return self.lru_head != local;
        }
        let b = &self.blocks[local as usize];
        self.freed_page_clock != 0 && (b.is(F_OLD) || !self.peek_if_young(b))
    }
}

impl BufPool {
    /// InnoDB: `buf_LRU_make_block_young()`. Caller holds the instance mutex.
    pub fn make_young(&mut self, frame: FrameId) {
        let i = self.inst_of_frame(frame);
        let local = self.instances[i].local(frame);
        self.instances[i].make_young(local);
    }

    /// Where a full LRU scan starts: the tail of `instance`'s LRU list. The simulation
    /// computes the walk with [`BufPool::remove_space_pages`]; this and
    /// `lru_remove_space_pages` are the walk itself, kept to test that the two agree.
    #[cfg(test)]
    pub fn lru_scan_start(&self, instance: u16) -> u32 {
        self.instances[usize::from(instance)].lru_tail
    }

    #[cfg(test)]
    /// One bounded stretch of `buf_LRU_remove_all_pages()`: from `*cursor` (a local frame,
    /// walking toward the head) look at up to `budget` blocks and free every page of
    /// `space`, dirty ones without writing them. Returns (blocks looked at, pages freed,
    /// pages skipped because they were under I/O); `*cursor` becomes [`FRAME_NONE`] at
    /// the head. Caller holds the instance mutex throughout.
    pub fn lru_remove_space_pages(
        &mut self,
        instance: u16,
        cursor: &mut u32,
        space: SpaceId,
        budget: u32,
    ) -> (u32, u32, u32) {
        let i = usize::from(instance);
        let (mut visited, mut freed, mut skipped) = (0, 0, 0);
        while *cursor != FRAME_NONE && visited < budget {
            let b = *cursor;
            let blk = self.instances[i].blocks[b as usize];
            *cursor = blk.prev;
            visited += 1;
            if blk.holds_page() && self.block_space(&blk) == space {
                if blk.is(F_IO) {
                    skipped += 1;
                } else {
                    self.evict(self.instances[i].frame_id(b));
                    freed += 1;
                }
            }
        }
        (visited, freed, skipped)
    }

    /// `buf_LRU_remove_all_pages()` for one instance, computed as one sweep over the
    /// instance's descriptors instead of a walk of the LRU list: the same pages are freed
    /// (dirty ones without a write), and the caller charges the virtual time of the walk
    /// it models. The sweep reads the descriptor array in order, which on 8 M pages is
    /// tens of times faster than chasing the list's links. Returns (pages freed, pages
    /// skipped because they were under I/O). Caller holds the instance mutex.
    pub fn remove_space_pages(&mut self, instance: u16, space: SpaceId) -> (u32, u32) {
        let i = usize::from(instance);
        let mut counts = (0, 0);
        // The sweep first, then the frees in its order, each prefetching what a free a
        // few pages on will touch, so that the frees' cache misses overlap. (Freeing
        // while sweeping, a little behind, measured slower: the frees' misses held up
        // the sweep's stream.) Freeing a page changes no other descriptor's state or
        // tablespace: the pages found are those a sweep that freed each page as it met
        // it would free.
        let found = self.space_pages_found(i, space);
        let mut k = 0;
        while k < found.len() {
            k = self.free_plain_run(i, &found, k, &mut counts);
            // A page the run stopped at: under I/O, or freed step by step.
            let Some(&Found { local, .. }) = found.get(k) else {
                break;
            };
            if self.instances[i].blocks[local as usize].is(F_IO) {
                counts.1 += 1;
            } else {
                self.evict_local(i, local);
                counts.0 += 1;
            }
            k += 1;
        }
        counts
    }

    /// [`BufPool::remove_space_pages`] as it was before its plain frees: each page the
    /// sweep found freed by [`BufPool::evict_local`], in order, without prefetching.
    /// Tests hold the two to the same pool, field for field.
    #[cfg(test)]
    pub(super) fn remove_space_pages_one_by_one(
        &mut self,
        instance: u16,
        space: SpaceId,
    ) -> (u32, u32) {
        let i = usize::from(instance);
        let mut counts = (0, 0);
        for Found { local, .. } in self.space_pages_found(i, space) {
            if self.instances[i].blocks[local as usize].is(F_IO) {
                counts.1 += 1;
            } else {
                self.evict_local(i, local);
                counts.0 += 1;
            }
        }
        counts
    }

    /// Frees `found[k..]` of instance `i` in order, after prefetching for each, while
    /// they free plainly: uncompressed, clean pages without AHI entries, on a midpoint
    /// list longer than `BUF_LRU_OLD_MIN_LEN`, so that [`BufPool::evict_local`] would
    /// only take the page out of its hash chain, its slot, the LRU list (moving
    /// `LRU_old` as `buf_LRU_old_adjust_len()` does) and put it on the free list. Those
    /// same steps, in the same order, are done here with the descriptors and cells
    /// taken once for the whole run, and none of the checks that cannot apply (the
    /// per-access views of the mapped arrays were most of a free's instructions).
    /// Returns the index of the first page that does not free plainly (prefetched
    /// for, not freed), or the end.
    fn free_plain_run(
        &mut self,
        i: usize,
        found: &[Found],
        mut k: usize,
        counts: &mut (u32, u32),
    ) -> usize {
        let spaces = &mut self.spaces;
        let BufPoolInstance {
            blocks,
            page_hash,
            policy,
            lru_head,
            lru_tail,
            lru_len,
            lru_old,
            lru_old_len,
            old_ratio,
            free_head,
            free_len,
            n_blocks,
            short_of_blocks,
            freed_page_clock,
            stale_len,
            stats,
            slot_pages,
            ..
        } = &mut self.instances[i];
        let blocks: &mut [BufBlock] = blocks;
        let cells = page_hash.cells_mut();
        while let Some(&Found { local, cell }) = found.get(k) {
            super::prefetch::prefetch_free(blocks, cells, &found[k..], *lru_old);
            let b = blocks[local as usize];
            if !(b.flags & !F_OLD == STATE_FILE
                && b.ahi_index == 0
                && *policy == LruPolicy::Midpoint
                && *lru_len > LRU_OLD_MIN_LEN
                && *lru_old != FRAME_NONE)
            {
                break;
            }
            let stale = !spaces.slot(b.slot).current;
            // buf_LRU_block_remove_hashed(): HASH_DELETE.
            let to = b.hash;
            let cell = cell as usize;
            let mut at = cells[cell];
            if at == local + 1 {
                cells[cell] = to;
            } else {
                loop {
                    assert!(at != 0, "descriptor {local} is not in the page hash");
                    let x = &mut blocks[at as usize - 1];
                    if x.hash == local + 1 {
                        x.hash = to;
                        break;
                    }
                    at = x.hash;
                }
            }
            slot_pages[usize::from(b.slot)] -= 1;
            spaces.give_back(b.slot);
            // buf_LRU_remove_block(), the list longer than BUF_LRU_OLD_MIN_LEN.
            if local == *lru_old {
                let prev = b.prev;
                *lru_old = prev;
                blocks[prev as usize].set(F_OLD, true);
                *lru_old_len += 1;
            }
            if b.prev == FRAME_NONE {
                *lru_head = b.next;
            } else {
                blocks[b.prev as usize].next = b.next;
            }
            if b.next == FRAME_NONE {
                *lru_tail = b.prev;
            } else {
                blocks[b.next as usize].prev = b.prev;
            }
            *lru_len -= 1;
            if b.is(F_OLD) {
                *lru_old_len -= 1;
            }
            // buf_LRU_old_adjust_len().
            let new_len = (u64::from(*lru_len) * u64::from(*old_ratio) / 1024) as u32;
            let new_len = new_len.min(*lru_len - (LRU_OLD_TOLERANCE + LRU_NON_OLD_MIN_LEN));
            loop {
                let old = *lru_old;
                if *lru_old_len + LRU_OLD_TOLERANCE < new_len {
                    let prev = blocks[old as usize].prev;
                    *lru_old = prev;
                    blocks[prev as usize].set(F_OLD, true);
                    *lru_old_len += 1;
                } else if *lru_old_len > new_len + LRU_OLD_TOLERANCE {
                    blocks[old as usize].set(F_OLD, false);
                    *lru_old = blocks[old as usize].next;
                    *lru_old_len -= 1;
                } else {
                    break;
                }
            }
            // The free list.
            blocks[local as usize] = BufBlock {
                next: *free_head,
                ..BufBlock::FREE
            };
            *free_head = local;
            *free_len += 1;
            *short_of_blocks = *free_len + *lru_len < *n_blocks / 4;
            *freed_page_clock = freed_page_clock.wrapping_add(1);
            if stale {
                *stale_len -= 1;
                stats.stale_freed += 1;
            } else {
                stats.evicted += 1;
            }
            counts.0 += 1;
            k += 1;
        }
        k
    }

    /// The pages of `space` (any version) in instance `i`'s descriptors, in order.
    fn space_pages_found(&self, i: usize, space: SpaceId) -> Vec<Found> {
        let of_space = self.spaces.slots_of(space);
        let slots: Vec<usize> = (0..of_space.len()).filter(|&s| of_space[s]).collect();
        match slots[..] {
            // The usual case, the space's current version only: one comparison a
            // descriptor, no table.
            [only] => self.found_where(i, space, |b| usize::from(b.slot) == only && b.holds_page()),
            _ => self.found_where(i, space, |b| {
                b.holds_page() && of_space[usize::from(b.slot)]
            }),
        }
    }

    /// The descriptors of instance `i` that `wanted` says yes to, in order, each with
    /// its page's hash cell (every one a page of `space`).
    #[inline]
    fn found_where(
        &self,
        i: usize,
        space: SpaceId,
        wanted: impl Fn(&BufBlock) -> bool,
    ) -> Vec<Found> {
        let inst = &self.instances[i];
        let blocks: &[BufBlock] = &inst.blocks;
        let mut found = Vec::new();
        // A tight search for the next one, then the push: faster than a push in the
        // loop over every descriptor, the pages of one table among many being sparse.
        // The cell is computed while the descriptor is in the cache.
        let mut b = 0;
        while let Some(run) = blocks[b..].iter().position(&wanted) {
            b += run;
            let page = PageId {
                space,
                page_no: blocks[b].page_no,
            };
            found.push(Found {
                local: b as u32,
                cell: inst.page_hash.cell(page) as u32,
            });
            b += 1;
        }
        found
    }

    /// A read-only sweep over every descriptor, counting the pages of `space`: the
    /// baseline the benchmark compares [`BufPool::remove_space_pages`] with.
    pub fn count_space_pages(&self, space: SpaceId) -> u64 {
        let of_space = self.spaces.slots_of(space);
        self.instances
            .iter()
            .map(|inst| {
                inst.blocks
                    .iter()
                    .filter(|b| b.holds_page() && of_space[usize::from(b.slot)])
                    .count() as u64
            })
            .sum()
    }

    /// One access of a replayed trace: `buf_page_get_gen()` without latches or time —
    /// a hit makes the page young if the policy says so, a miss takes a free block (the
    /// free list, else the LRU tail) and reads the page in. Returns whether it was a hit.
    ///
    /// A page of a compressed tablespace is read compressed-only and then inflated into a
    /// free block, as `buf_page_get_gen()` does; a hit on a compressed-only page inflates
    /// it too. Returns false when no frame could be had.
    pub fn replay_access(&mut self, page: PageId, now_ms: u32, old_blocks_time_ms: u32) -> bool {
        if self.spaces.any_zip && self.space_zip_kb(page.space) != 0 {
            return self.replay_zip_access(page, now_ms, old_blocks_time_ms);
        }
        // The descriptor found is used by its place in its instance (no frame id to turn
        // back into one): this is the loop a trace replay spends its time in.
        let look = self.page_hash_get(page);
        match look.found {
            Lookup::Hit(_) => {
                let inst = &mut self.instances[usize::from(look.inst)];
                if inst.note_access(look.local, now_ms, old_blocks_time_ms) {
                    inst.make_young(look.local);
                }
                true
            }
            // buf_page_free_stale() waits for the I/O of a stale page.
            Lookup::Stale(f) if !self.can_relocate(f) => false,
            other => {
                if let Lookup::Stale(f) = other {
                    self.free_stale(f);
                }
                let inst = self.instance_of(page);
                if let FreeBlock::FromFreeList(f) | FreeBlock::Evicted { frame: f, .. } =
                    self.get_free_block(inst, u32::MAX)
                {
                    let i = usize::from(inst);
                    let local = self.instances[i].local(f);
                    self.init_for_read_local(i, local, page, 0);
                }
                false
            }
        }
    }

    fn replay_zip_access(&mut self, page: PageId, now_ms: u32, old_blocks_time_ms: u32) -> bool {
        let _zip_frame = match self.lookup(page) {
            Lookup::Hit(f) if !self.is_zip_only(f) => {
                if self.note_access(f, now_ms, old_blocks_time_ms) {
                    self.make_young(f);
                }
                return true;
            }
            Lookup::Hit(f) if self.can_relocate(f) => f,
            Lookup::Hit(_) | Lookup::IoFixed(_) => return true,
            // buf_page_free_stale() waits for the I/O of a stale page.
            Lookup::Stale(f) if !self.can_relocate(f) => return false,
            Lookup::Stale(f) => {
                self.free_stale(f);
                match self.read_zip_page(page) {
                    Some(f) => f,
                    None => return false,
                }
            }
            Lookup::Miss => match self.read_zip_page(page) {
                Some(f) => f,
                None => return false,
            },
        };
        let inst = self.instance_of(page);
        // The frame may have gone while a block was found: look again.
        let (block, _) = self.free_block_for_unzip(inst);
        match (block, self.lookup(page)) {
            (Some(b), Lookup::Hit(z)) if self.is_zip_only(z) && self.can_relocate(z) => {
                self.unzip(z, b);
                true
            }
            (Some(b), _) => {
                let i = self.inst_of_frame(b);
                let local = self.instances[i].local(b);
                self.instances[i].free_push(local);
                false
            }
            (None, _) => false,
        }
    }
}
