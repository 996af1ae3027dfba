//! Compressed pages in the buffer pool (ROW_FORMAT=COMPRESSED, `KEY_BLOCK_SIZE` 1-16).
//!
//! A page of a compressed table can be in the pool in two ways:
//!
//! ```text
//!  BUF_BLOCK_ZIP_PAGE      descriptor ──▶ compressed frame (a slot of a buddy block)
//!  (compressed only)       on the LRU list, owns no pool block
//!
//!  BUF_BLOCK_FILE_PAGE     pool block (16 KiB uncompressed frame) ──▶ compressed frame
//!  with page.zip.data      on the LRU list *and* on unzip_LRU
//!
//!  buddy block (BUF_BLOCK_MEMORY)   ┌── 8K ──┬── 8K ──┐   KEY_BLOCK_SIZE=8: two frames
//!                                   └────────┴────────┘   per 16 KiB block
//! ```
//!
//! A read brings the compressed page in (`buf_page_init_for_read(unzip = FALSE)`); the
//! first `buf_page_get_gen()` that needs its records takes a free block, moves the page
//! into it (`buf_relocate()`) and inflates it (`buf_zip_decompress()`): the page now has
//! both frames and joins `unzip_LRU`. When a free block is needed and `unzip_LRU` holds
//! more than a tenth of the LRU list while the server is I/O-bound, the search frees an
//! uncompressed frame from the tail of `unzip_LRU` and keeps the compressed page
//! (`buf_LRU_evict_from_unzip_LRU()`, `buf_LRU_free_from_unzip_LRU_list()`); otherwise it
//! evicts whole pages from the LRU tail, both frames at once.
//!
//! Compressed frames come from the buddy allocator (`buf_buddy_alloc()`), which carves
//! pool blocks into frames of 1, 2, 4, 8 or 16 KiB; a block goes back to the free list
//! when its last frame is freed.
//!
//! Simplification: a buddy block serves one frame size (a segregated fit); InnoDB's
//! binary buddy splits a block into halves of mixed sizes, coalesces free buddies
//! (`buf_buddy_free_low()`) and relocates a lone buddy to free a whole block
//! (`buf_buddy_relocate()`). With one `KEY_BLOCK_SIZE` per table the number of blocks
//! used is the same; a block freed here only when both of its 8 KiB frames are free may
//! be freed a little earlier in InnoDB thanks to relocation.
//!
//! Simplification: compressed pages are read in at once (no `BUF_IO_READ` state for
//! them), and AHI entries are only ever on uncompressed frames, as in InnoDB.
//!
//! Memory: the per-descriptor extras (the compressed frame's location and the
//! `unzip_LRU` links, 12 bytes) are allocated only once a compressed page enters the
//! instance, so a pool without compressed tables keeps its 31 bytes per page.

use super::{
    BufBlock, BufPool, BufPoolInstance, FrameId, Lookup, PageId, SpaceId, FRAME_NONE, F_BUDDY,
    F_DIRTY, F_IO, F_OLD, F_ZIP, STATE_FILE, STATE_FREE, STATE_MASK, STATE_MEMORY, STATE_ZIP,
};

/// Compressed-only descriptors an instance can hold per pool block: sixteen 1 KiB frames.
pub(super) const DESCS_PER_BLOCK: u32 = 16;
/// `BUF_LRU_STAT_N_INTERVAL`: seconds of history for the I/O vs unzip comparison.
const LRU_STAT_N_INTERVAL: usize = 50;
/// `BUF_LRU_IO_TO_UNZIP_FACTOR`: an I/O counts as this many decompressions.
const LRU_IO_TO_UNZIP_FACTOR: u64 = 50;
/// Frame sizes: class `c` is `1 << c` KiB, `16 >> c` slots a block.
const CLASSES: usize = 5;

/// The first pool-wide id of instance `i`'s compressed-only descriptors: after every
/// pool block, `DESCS_PER_BLOCK` ids per block of each instance before it.
pub(super) fn desc_base(instances: u16, per: u32, i: u16) -> u32 {
    per * u32::from(instances) + u32::from(i) * DESCS_PER_BLOCK * per
}

/// The size class of a `KEY_BLOCK_SIZE` in KiB, if valid.
pub fn zip_class(key_block_kb: u32) -> Option<u8> {
    match key_block_kb {
        1 => Some(0),
        2 => Some(1),
        4 => Some(2),
        8 => Some(3),
        16 => Some(4),
        _ => None,
    }
}

fn class_slots(class: u8) -> u32 {
    16 >> class
}

fn class_full(class: u8) -> u32 {
    (1u32 << class_slots(class)) - 1
}

/// Per-descriptor extras: where the compressed frame is, and the `unzip_LRU` links.
#[derive(Clone, Copy, Debug)]
pub(super) struct ZipSide {
    /// Buddy block (local index) << 4 | first slot.
    loc: u32,
    prev: u32,
    next: u32,
}

const ZIP_SIDE_NONE: ZipSide = ZipSide {
    loc: FRAME_NONE,
    prev: FRAME_NONE,
    next: FRAME_NONE,
};

/// One instance's compressed-page state.
#[derive(Clone, Debug)]
pub(super) struct ZipState {
    /// Pool-wide id of the first compressed-only descriptor.
    pub(super) desc_base: u32,
    /// Unused descriptor slots past the pool blocks.
    desc_free: Vec<u32>,
    /// Compressed-only pages (descriptors in use).
    zip_only: u32,
    /// Blocks carved into compressed frames.
    buddy_blocks: u32,
    /// Per size class, the first buddy block with a free slot (linked through the
    /// block's `prev`/`next`, unused while it is not on the LRU list).
    partial: [u32; CLASSES],
    side: Vec<ZipSide>,
    unzip_head: u32,
    unzip_tail: u32,
    unzip_len: u32,
}

impl ZipState {
    pub(super) fn new(desc_base: u32) -> ZipState {
        ZipState {
            desc_base,
            desc_free: Vec::new(),
            zip_only: 0,
            buddy_blocks: 0,
            partial: [FRAME_NONE; CLASSES],
            side: Vec::new(),
            unzip_head: FRAME_NONE,
            unzip_tail: FRAME_NONE,
            unzip_len: 0,
        }
    }
}

/// `buf_LRU_stat_t` history: page reads and decompressions per second over the last
/// 50 s (`buf_LRU_stat_update()`), which `buf_LRU_evict_from_unzip_LRU()` compares.
#[derive(Clone, Debug)]
pub(super) struct LruStat {
    pub(super) cur_io: u64,
    cur_unzip: u64,
    arr: [(u64, u64); LRU_STAT_N_INTERVAL],
    ind: usize,
    sum_io: u64,
    sum_unzip: u64,
}

impl Default for LruStat {
    fn default() -> LruStat {
        LruStat {
            cur_io: 0,
            cur_unzip: 0,
            arr: [(0, 0); LRU_STAT_N_INTERVAL],
            ind: 0,
            sum_io: 0,
            sum_unzip: 0,
        }
    }
}

impl BufPoolInstance {
    fn side_ensure(&mut self) {
        if self.zip.side.len() < self.blocks.len() {
            self.zip.side.resize(self.blocks.len(), ZIP_SIDE_NONE);
        }
    }

    /// Compressed-only pages in this instance.
    pub fn zip_only_len(&self) -> u32 {
        self.zip.zip_only
    }
    /// Blocks carved into compressed frames.
    pub fn buddy_len(&self) -> u32 {
        self.zip.buddy_blocks
    }
    /// Length of `unzip_LRU` (pages with both frames).
    pub fn unzip_lru_len(&self) -> u32 {
        self.zip.unzip_len
    }

    /// Simulator bytes of the compressed-page extras.
    pub(super) fn zip_extra_bytes(&self) -> u64 {
        self.zip.side.capacity() as u64 * std::mem::size_of::<ZipSide>() as u64
            + self.zip.desc_free.capacity() as u64 * 4
    }

    pub(super) fn in_unzip_lru(&self, local: u32) -> bool {
        local < self.n_blocks && {
            let b = &self.blocks[local as usize];
            b.state() == STATE_FILE && b.is(F_ZIP)
        }
    }

    /// InnoDB: `buf_unzip_LRU_add_block()`: old blocks at the tail, others at the head.
    pub(super) fn unzip_add(&mut self, local: u32, old: bool) {
        self.side_ensure();
        let (head, tail) = (self.zip.unzip_head, self.zip.unzip_tail);
        if old {
            self.zip.side[local as usize].prev = tail;
            self.zip.side[local as usize].next = FRAME_NONE;
            if tail == FRAME_NONE {
                self.zip.unzip_head = local;
            } else {
                self.zip.side[tail as usize].next = local;
            }
            self.zip.unzip_tail = local;
        } else {
            self.zip.side[local as usize].prev = FRAME_NONE;
            self.zip.side[local as usize].next = head;
            if head == FRAME_NONE {
                self.zip.unzip_tail = local;
            } else {
                self.zip.side[head as usize].prev = local;
            }
            self.zip.unzip_head = local;
        }
        self.zip.unzip_len += 1;
    }

    /// InnoDB: `buf_unzip_LRU_remove_block_if_needed()`.
    pub(super) fn unzip_remove(&mut self, local: u32) {
        let ZipSide { prev, next, .. } = self.zip.side[local as usize];
        if prev == FRAME_NONE {
            self.zip.unzip_head = next;
        } else {
            self.zip.side[prev as usize].next = next;
        }
        if next == FRAME_NONE {
            self.zip.unzip_tail = prev;
        } else {
            self.zip.side[next as usize].prev = prev;
        }
        self.zip.side[local as usize].prev = FRAME_NONE;
        self.zip.side[local as usize].next = FRAME_NONE;
        self.zip.unzip_len -= 1;
    }

    /// `new` takes `old`'s place in the LRU list (`buf_relocate()`); lengths unchanged.
    fn lru_replace(&mut self, old: u32, new: u32) {
        let BufBlock { prev, next, .. } = self.blocks[old as usize];
        self.blocks[new as usize].prev = prev;
        self.blocks[new as usize].next = next;
        if prev == FRAME_NONE {
            self.lru_head = new;
        } else {
            self.blocks[prev as usize].next = new;
        }
        if next == FRAME_NONE {
            self.lru_tail = new;
        } else {
            self.blocks[next as usize].prev = new;
        }
        if self.lru_old == old {
            self.lru_old = new;
        }
        self.blocks[old as usize].prev = FRAME_NONE;
        self.blocks[old as usize].next = FRAME_NONE;
    }

    /// `buf_page_alloc_descriptor()`: a descriptor for a compressed-only page.
    fn zip_alloc_desc(&mut self) -> u32 {
        let local = match self.zip.desc_free.pop() {
            Some(l) => l,
            None => {
                self.make_all_blocks();
                let l = self.blocks.len() as u32;
                assert!(
                    l - self.n_blocks < DESCS_PER_BLOCK * self.n_blocks,
                    "compressed-only descriptors are bounded by the frames the pool can hold"
                );
                self.blocks.push(BufBlock::FREE);
                l
            }
        };
        self.side_ensure();
        self.zip.zip_only += 1;
        local
    }

    /// `buf_page_free_descriptor()`.
    pub(super) fn zip_free_desc(&mut self, local: u32) {
        debug_assert!(local >= self.n_blocks);
        self.blocks[local as usize] = BufBlock::FREE;
        self.zip.side[local as usize] = ZIP_SIDE_NONE;
        self.zip.desc_free.push(local);
        self.zip.zip_only -= 1;
    }

    /// The page in `blocks[local]` gives up its compressed frame (and leaves
    /// `unzip_LRU` if it was on it).
    pub(super) fn zip_release_frame(&mut self, local: u32, b: BufBlock) {
        if b.state() == STATE_FILE {
            self.unzip_remove(local);
        }
        let loc = std::mem::replace(&mut self.zip.side[local as usize].loc, FRAME_NONE);
        self.buddy_free(loc);
    }

    fn partial_push(&mut self, class: u8, block: u32) {
        let head = self.zip.partial[usize::from(class)];
        self.blocks[block as usize].prev = FRAME_NONE;
        self.blocks[block as usize].next = head;
        if head != FRAME_NONE {
            self.blocks[head as usize].prev = block;
        }
        self.zip.partial[usize::from(class)] = block;
    }

    fn partial_remove(&mut self, class: u8, block: u32) {
        let BufBlock { prev, next, .. } = self.blocks[block as usize];
        if prev == FRAME_NONE {
            self.zip.partial[usize::from(class)] = next;
        } else {
            self.blocks[prev as usize].next = next;
        }
        if next != FRAME_NONE {
            self.blocks[next as usize].prev = prev;
        }
        self.blocks[block as usize].prev = FRAME_NONE;
        self.blocks[block as usize].next = FRAME_NONE;
    }

    /// A free slot of `class` from a partly used buddy block.
    fn buddy_take(&mut self, class: u8) -> Option<u32> {
        let block = self.zip.partial[usize::from(class)];
        if block == FRAME_NONE {
            return None;
        }
        let used = self.blocks[block as usize].page_no;
        let slot = (!used).trailing_zeros();
        let used = used | (1 << slot);
        self.blocks[block as usize].page_no = used;
        if used == class_full(class) {
            self.partial_remove(class, block);
        }
        Some(block << 4 | slot)
    }

    /// `buf_buddy_alloc_from()` on a whole free block: carve it into `class` frames.
    fn buddy_carve(&mut self, block: u32, class: u8) {
        self.blocks[block as usize] = BufBlock {
            flags: STATE_MEMORY | F_BUDDY,
            ahi_index: class,
            page_no: 0,
            ..BufBlock::FREE
        };
        self.zip.buddy_blocks += 1;
        self.partial_push(class, block);
    }

    /// `buf_buddy_free()`: the block goes back to the free list with its last frame.
    fn buddy_free(&mut self, loc: u32) {
        let (block, slot) = (loc >> 4, loc & 0xf);
        let class = self.blocks[block as usize].ahi_index;
        let used = self.blocks[block as usize].page_no;
        debug_assert!(used & (1 << slot) != 0, "compressed frame freed twice");
        let was_full = used == class_full(class);
        let used = used & !(1 << slot);
        self.blocks[block as usize].page_no = used;
        if used == 0 {
            if !was_full {
                self.partial_remove(class, block);
            }
            self.zip.buddy_blocks -= 1;
            self.free_push(block);
        } else if was_full {
            self.partial_push(class, block);
        }
    }

    /// Checks the compressed-page structures of this instance.
    pub(super) fn validate_zip(&self) {
        let id = self.id;
        let n = self.n_blocks as usize;
        let mut zip_only = 0;
        let mut unused = 0;
        for (l, b) in self.blocks.iter().enumerate() {
            if l < n {
                assert_ne!(b.state(), STATE_ZIP, "instance {id}: a block in ZIP state");
                assert!(
                    !b.is(F_BUDDY) || b.state() == STATE_MEMORY,
                    "instance {id}: buddy flag on a non-memory block"
                );
            } else {
                match b.state() {
                    STATE_ZIP => {
                        zip_only += 1;
                        assert!(b.is(F_ZIP), "instance {id}: ZIP page without a frame");
                        assert_eq!(b.ahi_index, 0, "instance {id}: AHI on a compressed page");
                    }
                    STATE_FREE => unused += 1,
                    s => panic!("instance {id}: descriptor {l} in state {s}"),
                }
            }
        }
        assert_eq!(zip_only, self.zip.zip_only, "instance {id}: zip-only count");
        assert_eq!(
            unused,
            self.zip.desc_free.len(),
            "instance {id}: unused slots"
        );
        for &l in &self.zip.desc_free {
            assert!(l as usize >= n && self.blocks[l as usize].state() == STATE_FREE);
        }
        // unzip_LRU holds exactly the file pages with a compressed frame.
        let mut on_unzip = 0;
        let mut b = self.zip.unzip_head;
        let mut last = FRAME_NONE;
        while b != FRAME_NONE {
            assert!(self.in_unzip_lru(b), "instance {id}: unzip_LRU holds {b}");
            assert_eq!(
                self.zip.side[b as usize].prev, last,
                "instance {id}: unzip links"
            );
            on_unzip += 1;
            last = b;
            b = self.zip.side[b as usize].next;
        }
        assert_eq!(last, self.zip.unzip_tail, "instance {id}: unzip tail");
        assert_eq!(on_unzip, self.zip.unzip_len, "instance {id}: unzip length");
        let n = n.min(self.blocks.len());
        let with_zip = (0..n as u32).filter(|&l| self.in_unzip_lru(l)).count() as u32;
        assert_eq!(with_zip, on_unzip, "instance {id}: file pages with frames");
        // Every compressed frame is one used slot of a buddy block of its class.
        let buddies = self.blocks[..n]
            .iter()
            .filter(|b| b.state() == STATE_MEMORY && b.is(F_BUDDY))
            .count() as u32;
        assert_eq!(
            buddies, self.zip.buddy_blocks,
            "instance {id}: buddy blocks"
        );
        let mut used = vec![0u32; n];
        for (l, b) in self.blocks.iter().enumerate() {
            if b.holds_page() && b.is(F_ZIP) {
                let loc = self.zip.side[l].loc;
                let (block, slot) = ((loc >> 4) as usize, loc & 0xf);
                assert!(block < n, "instance {id}: frame outside the pool");
                let bb = &self.blocks[block];
                assert!(bb.is(F_BUDDY), "instance {id}: frame in a non-buddy block");
                assert!(slot < class_slots(bb.ahi_index));
                assert_eq!(used[block] & (1 << slot), 0, "instance {id}: shared frame");
                used[block] |= 1 << slot;
            } else if b.holds_page() {
                assert!(
                    self.zip.side.get(l).is_none_or(|s| s.loc == FRAME_NONE),
                    "instance {id}: uncompressed page with a frame"
                );
            }
        }
        for (l, bb) in self.blocks[..n].iter().enumerate() {
            if bb.is(F_BUDDY) {
                assert_eq!(bb.page_no, used[l], "instance {id}: buddy bitmap of {l}");
                assert_ne!(used[l], 0, "instance {id}: empty buddy block kept");
            }
        }
        for class in 0..CLASSES as u8 {
            let mut b = self.zip.partial[usize::from(class)];
            while b != FRAME_NONE {
                let bb = &self.blocks[b as usize];
                assert!(bb.is(F_BUDDY) && bb.ahi_index == class);
                assert_ne!(
                    bb.page_no,
                    class_full(class),
                    "instance {id}: full block partial"
                );
                b = bb.next;
            }
        }
        let partial = self.blocks[..n]
            .iter()
            .filter(|b| b.is(F_BUDDY) && b.page_no != class_full(b.ahi_index))
            .count();
        let listed: usize = (0..CLASSES)
            .map(|c| {
                let mut k = 0;
                let mut b = self.zip.partial[c];
                while b != FRAME_NONE {
                    k += 1;
                    b = self.blocks[b as usize].next;
                }
                k
            })
            .sum();
        assert_eq!(
            partial, listed,
            "instance {id}: partly used buddy blocks listed"
        );
    }
}

impl BufPool {
    /// Declares `space` ROW_FORMAT=COMPRESSED with `KEY_BLOCK_SIZE` `key_block_kb` KiB.
    /// Panics on a size other than 1, 2, 4, 8 or 16 (scenarios check it first).
    pub fn set_space_zip_size(&mut self, space: SpaceId, key_block_kb: u32) {
        let class = zip_class(key_block_kb).expect("KEY_BLOCK_SIZE is 1, 2, 4, 8 or 16");
        self.spaces.entry(space).zip_class = class + 1;
        self.spaces.any_zip = true;
    }

    /// The space's `KEY_BLOCK_SIZE` in KiB, 0 when it is not compressed.
    pub fn space_zip_kb(&self, space: SpaceId) -> u32 {
        self.spaces.get(space).map_or(0, |s| {
            if s.zip_class == 0 {
                0
            } else {
                1 << (s.zip_class - 1)
            }
        })
    }

    /// Whether the frame is a compressed-only page (`BUF_BLOCK_ZIP_PAGE`/`_DIRTY`).
    pub fn is_zip_only(&self, frame: FrameId) -> bool {
        self.block(frame).state() == STATE_ZIP
    }

    /// InnoDB: `buf_page_can_relocate()`: no I/O in flight on the page, so it may be
    /// moved to another frame (a write of a compressed-only page must finish before
    /// `buf_page_get_gen()` can decompress it).
    pub fn can_relocate(&self, frame: FrameId) -> bool {
        !self.block(frame).is(F_IO)
    }

    #[cfg(test)]
    fn free_stale_or_evict_for_test(&mut self, frame: FrameId) {
        self.evict(frame);
    }

    /// Compressed-only pages in the pool.
    pub fn pages_zip_only(&self) -> u64 {
        self.sum(BufPoolInstance::zip_only_len)
    }
    /// Blocks carved into compressed frames.
    pub fn pages_buddy(&self) -> u64 {
        self.sum(BufPoolInstance::buddy_len)
    }
    /// Pages with both frames (Σ `unzip_LRU` length).
    pub fn pages_unzip_lru(&self) -> u64 {
        self.sum(BufPoolInstance::unzip_lru_len)
    }

    /// InnoDB: `buf_buddy_alloc()`: a compressed frame of `class`, from a partly used
    /// buddy block, else a free block carved up (which may evict from the LRU tail).
    /// `None` when no block can be had.
    fn buddy_alloc(&mut self, i: usize, class: u8) -> Option<u32> {
        loop {
            if let Some(loc) = self.instances[i].buddy_take(class) {
                return Some(loc);
            }
            let block = match self.instances[i].free_pop() {
                Some(b) => b,
                None => match self.get_free_block(i as u16, u32::MAX) {
                    super::FreeBlock::FromFreeList(f)
                    | super::FreeBlock::Evicted { frame: f, .. } => self.instances[i].local(f),
                    super::FreeBlock::NoneFound { .. } => return None,
                },
            };
            self.instances[i].buddy_carve(block, class);
        }
    }

    /// InnoDB: `buf_page_init_for_read(unzip = FALSE)` for a compressed table, as
    /// `buf_read_page()` does: a descriptor and a compressed frame, no pool block; the
    /// page goes in at the LRU midpoint. Returns its frame id, or `None` if no frame
    /// could be found. Caller holds the instance mutex.
    pub fn read_zip_page(&mut self, page: PageId) -> Option<FrameId> {
        let sp = self.spaces.get(page.space).expect("registered tablespace");
        assert!(
            sp.zip_class != 0,
            "{page:?} is not in a compressed tablespace"
        );
        debug_assert_eq!(
            self.lookup(page),
            Lookup::Miss,
            "{page:?} is already in the pool"
        );
        let class = sp.zip_class - 1;
        let i = usize::from(self.instance_of(page));
        let loc = self.buddy_alloc(i, class)?;
        let slot = self.slot_in(i, page.space);
        let inst = &mut self.instances[i];
        let local = inst.zip_alloc_desc();
        inst.blocks[local as usize] = BufBlock {
            page_no: page.page_no,
            slot,
            flags: STATE_ZIP | F_ZIP,
            ..BufBlock::FREE
        };
        inst.zip.side[local as usize].loc = loc;
        inst.hash_insert(local, page);
        inst.add_block(local, true);
        let frame = inst.frame_id(local);
        self.lru_stat.cur_io += 1;
        Some(frame)
    }

    /// InnoDB: `buf_page_init_for_read(unzip = TRUE)` for a compressed table: `frame`
    /// (from [`BufPool::get_free_block`]) takes the uncompressed frame, the buddy
    /// allocator the compressed one; the page is I/O-fixed at the LRU midpoint and on
    /// `unzip_LRU`, and `buf_page_io_complete()` will inflate it. Returns false, with
    /// `frame` back on the free list, when no compressed frame could be had. Caller holds
    /// the instance mutex.
    pub fn init_for_read_zip(&mut self, frame: FrameId, page: PageId) -> bool {
        let class = self.spaces.get(page.space).map_or(0, |s| s.zip_class);
        assert!(class != 0, "{page:?} is not in a compressed tablespace");
        let i = self.inst_of_frame(frame);
        let Some(loc) = self.buddy_alloc(i, class - 1) else {
            self.release_free_block(frame);
            return false;
        };
        self.init_for_read(frame, page);
        let inst = &mut self.instances[i];
        let local = inst.local(frame);
        inst.blocks[local as usize].set(F_ZIP, true);
        inst.side_ensure();
        inst.zip.side[local as usize].loc = loc;
        inst.unzip_add(local, inst.blocks[local as usize].is(F_OLD));
        inst.stats.unzipped += 1;
        self.lru_stat.cur_unzip += 1;
        true
    }

    /// InnoDB: `buf_page_get_gen()` on a `BUF_BLOCK_ZIP_PAGE`: the free `block` (from
    /// [`BufPool::get_free_block`]) takes the compressed-only page's place in the LRU
    /// list (`buf_relocate()`), the descriptor is freed, and the page is inflated into
    /// the block (`buf_zip_decompress()`): it now has both frames and is on `unzip_LRU`.
    /// The caller charges the decompression. Caller holds the instance mutex.
    pub fn unzip(&mut self, zip_frame: FrameId, block: FrameId) {
        let i = self.inst_of_frame(zip_frame);
        assert_eq!(
            i,
            self.inst_of_frame(block),
            "the block is of the page's instance"
        );
        let page = self.page_of(zip_frame);
        let inst = &mut self.instances[i];
        let (d, l) = (inst.local(zip_frame), inst.local(block));
        let z = inst.blocks[d as usize];
        assert_eq!(
            z.state(),
            STATE_ZIP,
            "unzip of a page that is not compressed-only"
        );
        assert_eq!(inst.blocks[l as usize].state(), STATE_FREE);
        inst.blocks[l as usize] = BufBlock {
            flags: (z.flags & !STATE_MASK) | STATE_FILE,
            ..z
        };
        inst.side_ensure();
        inst.zip.side[l as usize].loc = inst.zip.side[d as usize].loc;
        inst.zip.side[d as usize].loc = FRAME_NONE;
        inst.lru_replace(d, l);
        inst.hash_relocate(d, l, page);
        if z.is(F_DIRTY) {
            // buf_flush_relocate_on_flush_list().
            inst.flush.entry_mut(z.access_or_flush).frame = l;
        }
        inst.zip_free_desc(d);
        inst.unzip_add(l, z.is(F_OLD));
        inst.stats.unzipped += 1;
        self.lru_stat.cur_unzip += 1;
    }

    /// InnoDB: `buf_LRU_free_page(zip = false)` on a page with both frames: the
    /// uncompressed frame's block goes to the free list and a new descriptor keeps the
    /// compressed page in the same LRU position (a dirty page moves on the flush list
    /// as `BUF_BLOCK_ZIP_DIRTY`; its compressed copy is always current). Its AHI
    /// entries, which point into the uncompressed frame, are dropped first.
    fn evict_unzip_frame(&mut self, i: usize, l: u32) {
        let b = self.instances[i].blocks[l as usize];
        let page = PageId {
            space: self.block_space(&b),
            page_no: b.page_no,
        };
        if b.ahi_index != 0 {
            self.ahi_forget(page.space, b.ahi_index);
        }
        let inst = &mut self.instances[i];
        inst.unzip_remove(l);
        let d = inst.zip_alloc_desc();
        inst.blocks[d as usize] = BufBlock {
            flags: (b.flags & !STATE_MASK) | STATE_ZIP,
            ahi_index: 0,
            ..b
        };
        inst.zip.side[d as usize].loc = inst.zip.side[l as usize].loc;
        inst.zip.side[l as usize].loc = FRAME_NONE;
        inst.lru_replace(l, d);
        inst.hash_relocate(l, d, page);
        if b.is(F_DIRTY) {
            inst.flush.entry_mut(b.access_or_flush).frame = d;
        }
        inst.free_push(l);
        inst.freed_page_clock = inst.freed_page_clock.wrapping_add(1);
        inst.stats.unzip_evicted += 1;
    }

    /// InnoDB: `buf_LRU_free_from_unzip_LRU_list()`: from the tail of `unzip_LRU`, look
    /// at up to `scan_limit` blocks and free the first unfixed one's uncompressed frame.
    /// Returns the block (taken off the free list) and the blocks looked at.
    pub(super) fn free_from_unzip_lru(
        &mut self,
        instance: u16,
        scan_limit: u32,
    ) -> (Option<FrameId>, u32) {
        let i = usize::from(instance);
        let mut scanned = 0;
        let mut b = self.instances[i].zip.unzip_tail;
        while b != FRAME_NONE && scanned < scan_limit {
            scanned += 1;
            let prev = self.instances[i].zip.side[b as usize].prev;
            if !self.instances[i].blocks[b as usize].is(F_IO) {
                self.evict_unzip_frame(i, b);
                let local = self.instances[i].free_pop().expect("the frame was freed");
                return (Some(self.instances[i].frame_id(local)), scanned);
            }
            b = prev;
        }
        (None, scanned)
    }

    /// InnoDB: `buf_LRU_evict_from_unzip_LRU()`: free uncompressed frames rather than
    /// whole pages when `unzip_LRU` is over a tenth of the LRU list and the server is
    /// I/O-bound: decompressions over the last 50 s at most 50 times the page reads.
    /// Before any eviction at all, always.
    pub fn evict_from_unzip_lru(&self, instance: u16) -> bool {
        let inst = &self.instances[usize::from(instance)];
        let unzip = inst.zip.unzip_len;
        if unzip == 0 || unzip <= inst.lru_len / 10 {
            return false;
        }
        if inst.freed_page_clock == 0 {
            return true;
        }
        let s = &self.lru_stat;
        let n = LRU_STAT_N_INTERVAL as u64;
        let io_avg = s.sum_io / n + s.cur_io;
        let unzip_avg = s.sum_unzip / n + s.cur_unzip;
        unzip_avg <= io_avg * LRU_IO_TO_UNZIP_FACTOR
    }

    /// InnoDB: `buf_LRU_stat_update()`, once a second: this second's reads and
    /// decompressions join the 50-second history.
    pub fn lru_stat_update(&mut self) {
        let s = &mut self.lru_stat;
        let (old_io, old_unzip) = s.arr[s.ind];
        s.sum_io = s.sum_io + s.cur_io - old_io;
        s.sum_unzip = s.sum_unzip + s.cur_unzip - old_unzip;
        s.arr[s.ind] = (s.cur_io, s.cur_unzip);
        s.ind = (s.ind + 1) % LRU_STAT_N_INTERVAL;
        s.cur_io = 0;
        s.cur_unzip = 0;
    }

    /// Puts back on the free list a block taken with [`BufPool::get_free_block`] and not
    /// used.
    pub fn release_free_block(&mut self, block: FrameId) {
        let i = self.inst_of_frame(block);
        let local = self.instances[i].local(block);
        assert_eq!(self.instances[i].blocks[local as usize].state(), STATE_FREE);
        self.instances[i].free_push(local);
    }

    /// Forgets the read and decompression history (after a warm-up that stands for
    /// traffic long past).
    pub fn clear_lru_stat(&mut self) {
        self.lru_stat = LruStat::default();
    }

    /// A free block of `instance` for decompressing a page: the free list, else a first
    /// LRU pass of `BUF_LRU_SEARCH_SCAN_THRESHOLD` blocks, else the whole list
    /// (`buf_LRU_get_free_block()` without its flush fallback). Returns the block, if
    /// any, and the blocks looked at.
    pub fn free_block_for_unzip(&mut self, instance: u16) -> (Option<FrameId>, u32) {
        let mut scanned = 0;
        for limit in [super::LRU_SEARCH_SCAN_THRESHOLD, u32::MAX] {
            match self.get_free_block(instance, limit) {
                super::FreeBlock::FromFreeList(f) => return (Some(f), scanned),
                super::FreeBlock::Evicted { frame, scanned: s } => {
                    return (Some(frame), scanned + s)
                }
                super::FreeBlock::NoneFound { scanned: s } => scanned += s,
            }
        }
        (None, scanned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const Z: SpaceId = SpaceId(1);

    fn page(p: u32) -> PageId {
        PageId {
            space: Z,
            page_no: p,
        }
    }

    #[test]
    fn two_8k_frames_share_a_block_and_the_block_returns_with_the_last() {
        let mut pool = BufPool::new(1024, 1, 37);
        pool.register_space(Z);
        pool.set_space_zip_size(Z, 8);
        let a = pool.read_zip_page(page(0)).unwrap();
        let b = pool.read_zip_page(page(1)).unwrap();
        assert_eq!((pool.pages_buddy(), pool.pages_zip_only()), (1, 2));
        assert_eq!(pool.pages_free(), 1023);
        assert_eq!(
            pool.pages_data(),
            2,
            "compressed-only pages are on the LRU list"
        );
        pool.validate();
        pool.free_stale_or_evict_for_test(a);
        assert_eq!(pool.pages_buddy(), 1, "one frame still used");
        pool.free_stale_or_evict_for_test(b);
        assert_eq!((pool.pages_buddy(), pool.pages_free()), (0, 1024));
        pool.validate();
    }

    #[test]
    fn decompressing_moves_the_page_into_a_block_and_unzip_lru_eviction_keeps_it() {
        let mut pool = BufPool::new(1024, 1, 37);
        pool.register_space(Z);
        pool.set_space_zip_size(Z, 4);
        // 900 pages inflated: 900 blocks for the frames, 225 for four 4K frames each,
        // more than the pool: the search has to free uncompressed frames or pages.
        for p in 0..900 {
            assert!(pool.replay_access(page(p), p, 1000));
        }
        pool.validate();
        let s = pool.stats();
        assert_eq!(s.unzipped, 900);
        assert!(s.unzip_evicted > 0, "{s:?}");
        // Every page evicted from unzip_LRU is still in the pool, compressed.
        assert!(pool.pages_zip_only() > 0);
        assert_eq!(
            pool.pages_data(),
            pool.pages_zip_only() + pool.pages_unzip_lru()
        );
        // A hit on a compressed-only page decompresses it again.
        let zip = (0..900)
            .find(|&p| matches!(pool.lookup(page(p)), Lookup::Hit(f) if pool.is_zip_only(f)))
            .unwrap();
        assert!(pool.replay_access(page(zip), 2000, 1000));
        let Lookup::Hit(f) = pool.lookup(page(zip)) else {
            panic!()
        };
        assert!(!pool.is_zip_only(f));
        assert_eq!(pool.stats().unzipped, 901);
        pool.validate();
    }

    #[test]
    fn unzip_lru_is_preferred_only_past_a_tenth_of_the_lru_and_when_io_bound() {
        let mut pool = BufPool::new(1024, 1, 37);
        pool.register_space(Z);
        pool.register_space(SpaceId(2));
        pool.set_space_zip_size(Z, 8);
        // 300 plain pages and 20 with both frames: unzip_LRU under a tenth of the LRU.
        for p in 0..300 {
            pool.replay_access(
                PageId {
                    space: SpaceId(2),
                    page_no: p,
                },
                1,
                1000,
            );
        }
        for p in 0..20 {
            pool.replay_access(page(p), 1, 1000);
        }
        assert!(!pool.evict_from_unzip_lru(0), "20 of 320: common LRU");
        for p in 20..100 {
            pool.replay_access(page(p), 1, 1000);
        }
        // 100 of 400, and nothing evicted yet: buf_pool->freed_page_clock == 0.
        assert!(pool.evict_from_unzip_lru(0));
        // Once pages have been evicted, it depends on I/O against decompressions: here
        // 400 reads and 100 decompressions in the current second: I/O-bound.
        pool.free_stale_or_evict_for_test(pool.frame_of(page(0)).unwrap());
        assert!(pool.evict_from_unzip_lru(0));
        // A history of decompressions without reads (a CPU-bound second, 50 times over)
        // turns it off.
        pool.lru_stat_update();
        pool.lru_stat.cur_unzip = 50 * 1_000;
        assert!(!pool.evict_from_unzip_lru(0));
        pool.validate();
    }
}
