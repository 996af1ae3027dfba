//! The buffer pool: page frames, the page hash, the LRU list with its old/young
//! midpoint, the free list and the flush list, split into instances.
//!
//! ```text
//!  instance i (its own mutex, `buf_pool->mutex` in 5.7)
//!  ┌───────────────────────────── LRU list ──────────────────────────────┐
//!  head (young) ──── 63% ────▶ LRU_old ──────── 37% old ──────────▶ tail
//!     ▲ make young (accessed again after innodb_old_blocks_time)        │
//!     └───────────── new reads go in at the midpoint (after LRU_old) ◀──┤
//!                                                          evict from ▼ tail
//!  free list ◀──────────────────────────────────────────────── freed blocks
//! ```
//!
//! A page read from disk is inserted just after `LRU_old`, so a one-off scan cannot push
//! the hot pages out; it moves to the head only when touched again at least
//! `innodb_old_blocks_time` after its first access (`buf_page_peek_if_too_old()`).
//! Free blocks come from the free list, else from the tail of the LRU list
//! (`buf_LRU_get_free_block()`); the page cleaner keeps `innodb_lru_scan_depth` blocks
//! free per instance.
//!
//! Dirty pages sit on the flush list in the order they were first modified (oldest
//! modification LSN); the page cleaner writes from its old end, and a free-block search
//! that finds only dirty pages at the LRU tail writes one itself (a single-page flush,
//! counted in `Innodb_buffer_pool_wait_free`).
//!
//! Memory layout: each instance keeps its frame descriptors (32 bytes each) in one `Vec`
//! and links the LRU list, and the free list, through `u32` indices into it, so a scan is
//! a walk over contiguous memory. The flush list is a deque of (LSN, frame) in
//! modification order; a page cleaned out of order leaves a tombstone that is skipped
//! and compacted away.
//! A page id maps to its instance as `buf_pool_get()` does: the extent number
//! (`page_no >> 6`) folded with the space id, modulo the number of instances.
//!
//! Simplification: InnoDB's page hash is a hash table per instance; ours is a direct
//! map per tablespace (page number → frame). It answers the same questions, and a
//! lookup is one array read.
//!
//! Tablespace versions (MySQL 8.0.23, WL#14100): every frame remembers the version of
//! its tablespace when it was read. DROP and TRUNCATE bump the version; a frame whose
//! version differs is *stale*, still counted in the LRU list, and freed when a scan or
//! a lookup meets it.
//!
//! Compressed tables (ROW_FORMAT=COMPRESSED) keep compressed-only pages, pages with
//! both frames on `unzip_LRU`, and compressed frames carved from pool blocks by the
//! buddy allocator: see the `zip` submodule. A compressed-only page's descriptor lives
//! past the instance's blocks in the same `Vec` (so the LRU list links it like any
//! page) and has a frame id after every block of the pool.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};
use std::fmt;

mod zip;
pub use zip::zip_class;

/// A tablespace id (`space_id`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SpaceId(pub u32);

impl fmt::Display for SpaceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "space {}", self.0)
    }
}

/// A page number within a tablespace.
pub type PageNo = u32;

/// A page: its tablespace and its number in it (`page_id_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PageId {
    /// The tablespace.
    pub space: SpaceId,
    /// The page number.
    pub page_no: PageNo,
}

/// A log sequence number: bytes of redo written since the server was created.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Lsn(pub u64);

/// A frame, numbered across the whole pool: instance `i` owns frames
/// `i * frames_per_instance ..`.
pub type FrameId = u32;

/// No frame.
pub const FRAME_NONE: u32 = u32::MAX;

/// Pages in an extent (1 MiB of 16 KiB pages); extents share an instance.
const EXTENT_SHIFT: u32 = 6;
/// `BUF_LRU_OLD_MIN_LEN`: below this many pages there is no old sublist.
pub const LRU_OLD_MIN_LEN: u32 = 512;
/// `BUF_LRU_OLD_TOLERANCE`.
const LRU_OLD_TOLERANCE: u32 = 20;
/// `BUF_LRU_NON_OLD_MIN_LEN`.
const LRU_NON_OLD_MIN_LEN: u32 = 5;
/// `BUF_LRU_MIN_LEN`: the page cleaner stops evicting below this LRU length.
pub const LRU_MIN_LEN: u32 = 256;
/// `BUF_LRU_SEARCH_SCAN_THRESHOLD`: blocks a first free-block search looks at.
pub const LRU_SEARCH_SCAN_THRESHOLD: u32 = 100;

/// How pages move in the LRU list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LruPolicy {
    /// InnoDB's: reads go in at the old/young midpoint, `innodb_old_blocks_time` guards
    /// promotion, young pages near the head stay put.
    #[default]
    Midpoint,
    /// Textbook LRU: every read and every hit goes to the head. For comparing with other
    /// cache simulators, never a server profile.
    Exact,
}

// Block state, the low two bits of `flags` (`buf_page_state`).
const STATE_MASK: u8 = 0b11;
/// `BUF_BLOCK_NOT_USED`: on the free list.
const STATE_FREE: u8 = 0;
/// `BUF_BLOCK_FILE_PAGE`: a page on the LRU list.
const STATE_FILE: u8 = 1;
/// `BUF_BLOCK_MEMORY`: lent to the AHI or lock heaps, or carved into compressed frames
/// by the buddy allocator ([`F_BUDDY`]).
const STATE_MEMORY: u8 = 2;
/// `BUF_BLOCK_ZIP_PAGE` (clean) or `BUF_BLOCK_ZIP_DIRTY` (with [`F_DIRTY`]): a
/// compressed-only page. Its descriptor owns no pool block; its compressed frame lives
/// in a buddy block. Only descriptors past `n_blocks` are in this state.
const STATE_ZIP: u8 = 3;
/// In the old sublist.
const F_OLD: u8 = 1 << 2;
/// Modified since last written; on the flush list.
const F_DIRTY: u8 = 1 << 3;
/// Being read (`BUF_IO_READ`).
const F_IO_READ: u8 = 1 << 4;
/// Being written (`BUF_IO_WRITE`).
const F_IO_WRITE: u8 = 1 << 5;
const F_IO: u8 = F_IO_READ | F_IO_WRITE;
/// The page has a compressed frame (`page.zip.data != NULL`): a `BUF_BLOCK_ZIP_*`
/// descriptor, or a file page of a compressed table with both frames (on `unzip_LRU`).
const F_ZIP: u8 = 1 << 6;
/// A `BUF_BLOCK_MEMORY` block carved into compressed frames by the buddy allocator.
const F_BUDDY: u8 = 1 << 7;

/// One frame descriptor (`buf_block_t`, reduced to what the simulation needs): 32 bytes.
#[derive(Clone, Copy, Debug)]
struct BufBlock {
    space: u32,
    page_no: u32,
    prev: u32,
    /// LRU successor, or the next free block while on the free list.
    next: u32,
    /// `freed_page_clock` of the instance when the block was last put at the head.
    freed_page_clock: u32,
    /// Virtual ms of the first access since the page was read, 0 = not yet accessed.
    access_ms: u32,
    /// Sequence number of the page's flush-list entry while dirty.
    flush_seq: u32,
    /// The tablespace version when the page was read (8.0.23+).
    version: u16,
    flags: u8,
    /// `block->index`: which index of the table has AHI entries on this page (0 = none).
    ahi_index: u8,
}

const _: () = assert!(std::mem::size_of::<BufBlock>() == 32);

impl BufBlock {
    const FREE: BufBlock = BufBlock {
        space: 0,
        page_no: 0,
        prev: FRAME_NONE,
        next: FRAME_NONE,
        freed_page_clock: 0,
        access_ms: 0,
        flush_seq: 0,
        version: 0,
        flags: STATE_FREE,
        ahi_index: 0,
    };
    fn state(&self) -> u8 {
        self.flags & STATE_MASK
    }
    fn is(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
    /// Holds a page: a file page (uncompressed frame) or a compressed-only page.
    fn holds_page(&self) -> bool {
        matches!(self.state(), STATE_FILE | STATE_ZIP)
    }
    fn set(&mut self, flag: u8, on: bool) {
        if on {
            self.flags |= flag;
        } else {
            self.flags &= !flag;
        }
    }
}

/// One flush-list entry: a page's oldest modification.
#[derive(Clone, Copy, Debug)]
struct FlushEntry {
    lsn: Lsn,
    /// Local frame, [`FRAME_NONE`] once the page was cleaned out of order.
    frame: u32,
}

/// The flush list (`buf_pool->flush_list`) as a deque in modification order: the front
/// is the oldest modification (InnoDB's tail, where flushing starts).
#[derive(Clone, Debug, Default)]
struct FlushList {
    entries: VecDeque<FlushEntry>,
    /// Sequence number of `entries[0]`.
    front_seq: u32,
    live: u32,
}

impl FlushList {
    fn push(&mut self, lsn: Lsn, frame: u32) -> u32 {
        debug_assert!(
            self.entries.back().is_none_or(|e| e.lsn <= lsn),
            "flush list stays in LSN order"
        );
        let seq = self.front_seq.wrapping_add(self.entries.len() as u32);
        self.entries.push_back(FlushEntry { lsn, frame });
        self.live += 1;
        seq
    }

    fn remove(&mut self, seq: u32) {
        let idx = seq.wrapping_sub(self.front_seq) as usize;
        debug_assert!(
            self.entries[idx].frame != FRAME_NONE,
            "flush entry removed twice"
        );
        self.entries[idx].frame = FRAME_NONE;
        self.live -= 1;
        while self.entries.front().is_some_and(|e| e.frame == FRAME_NONE) {
            self.entries.pop_front();
            self.front_seq = self.front_seq.wrapping_add(1);
        }
    }
}

/// Counters of one instance, as `SHOW ENGINE INNODB STATUS` reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct InstanceStats {
    /// Pages moved to the head of the LRU list (`Innodb_buffer_pool_pages_made_young`).
    pub made_young: u64,
    /// Accesses that left an old page where it was (`..._pages_made_not_young`).
    pub not_made_young: u64,
    /// Pages evicted from the LRU list to the free list.
    pub evicted: u64,
    /// Stale pages freed (8.0.23+).
    pub stale_freed: u64,
    /// Pages written (`Innodb_buffer_pool_pages_flushed`).
    pub flushed: u64,
    /// Compressed pages decompressed into an uncompressed frame (`unzip` in `SHOW ENGINE
    /// INNODB STATUS`'s LRU statistics).
    pub unzipped: u64,
    /// Uncompressed frames freed from `unzip_LRU`, their compressed pages kept.
    pub unzip_evicted: u64,
}

/// One buffer-pool instance.
#[derive(Clone, Debug)]
pub struct BufPoolInstance {
    id: u16,
    base: u32,
    policy: LruPolicy,
    blocks: Vec<BufBlock>,
    free_head: u32,
    free_len: u32,
    lru_head: u32,
    lru_tail: u32,
    lru_len: u32,
    /// `LRU_old`: the head-most block of the old sublist.
    lru_old: u32,
    lru_old_len: u32,
    /// `LRU_old_ratio`: the old sublist's share of the list, in 1/1024.
    old_ratio: u32,
    freed_page_clock: u32,
    stale_len: u32,
    memory_len: u32,
    flush: FlushList,
    /// Pool blocks (`curr_size`): `blocks[..n_blocks]`; descriptors of compressed-only
    /// pages follow them.
    n_blocks: u32,
    /// The compressed-page state (descriptors, buddy blocks, `unzip_LRU`).
    zip: zip::ZipState,
    /// This instance's counters.
    pub stats: InstanceStats,
}

/// What a page lookup found (`buf_page_get_gen()`'s first step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Not in the pool.
    Miss,
    /// In the pool, usable.
    Hit(FrameId),
    /// In the pool but being read; wait for the I/O.
    IoFixed(FrameId),
    /// In the pool but of an older tablespace version: free it, then read.
    Stale(FrameId),
}

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

/// How a cell of the pool map is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CellKind {
    /// On the free list.
    Free,
    /// A clean page.
    Clean,
    /// A modified page, on the flush list.
    Dirty,
    /// A page of an old tablespace version, waiting to be reclaimed.
    Stale,
    /// A page being read or written.
    Io,
    /// Lent to the adaptive hash index or the lock heaps.
    Memory,
}

/// One frame as the pool map draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// The tablespace (meaningless when free).
    pub space: SpaceId,
    /// The state.
    pub kind: CellKind,
    /// In the old sublist.
    pub old: bool,
    /// Has adaptive-hash-index entries.
    pub ahi: bool,
}

/// One frame of the pool as a viewer inspects it ([`BufPool::inspect`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameInfo {
    /// Its position in the LRU list from the head, if it is on it.
    pub lru_position: Option<u32>,
    /// Its state and tablespace, as the map draws it.
    pub cell: Cell,
    /// The page number in its tablespace, for a page.
    pub page_no: Option<u32>,
    /// `oldest_modification`: the LSN of its first unflushed change, if dirty.
    pub oldest_modification: Option<Lsn>,
    /// The tablespace version it was read under (8.0.23+ stale pages have an older
    /// one).
    pub version: u16,
}

impl BufPoolInstance {
    fn new(
        id: u16,
        base: u32,
        zip_base: u32,
        frames: u32,
        old_blocks_pct: u32,
        policy: LruPolicy,
    ) -> BufPoolInstance {
        let mut blocks = vec![BufBlock::FREE; frames as usize];
        // The free list links frames in order: frame 0 is handed out first.
        for (i, b) in blocks.iter_mut().enumerate() {
            b.next = if i + 1 < frames as usize {
                i as u32 + 1
            } else {
                FRAME_NONE
            };
        }
        BufPoolInstance {
            id,
            base,
            policy,
            blocks,
            free_head: if frames > 0 { 0 } else { FRAME_NONE },
            free_len: frames,
            lru_head: FRAME_NONE,
            lru_tail: FRAME_NONE,
            lru_len: 0,
            lru_old: FRAME_NONE,
            lru_old_len: 0,
            old_ratio: old_ratio(old_blocks_pct),
            freed_page_clock: 0,
            stale_len: 0,
            memory_len: 0,
            flush: FlushList::default(),
            n_blocks: frames,
            zip: zip::ZipState::new(zip_base),
            stats: InstanceStats::default(),
        }
    }

    /// The instance number.
    pub fn id(&self) -> u16 {
        self.id
    }
    /// Frames in this instance (`curr_size`).
    pub fn size(&self) -> u32 {
        self.n_blocks
    }
    /// Length of the free list.
    pub fn free_len(&self) -> u32 {
        self.free_len
    }
    /// Length of the LRU list (data pages, stale ones included).
    pub fn lru_len(&self) -> u32 {
        self.lru_len
    }
    /// Length of the old sublist.
    pub fn lru_old_len(&self) -> u32 {
        self.lru_old_len
    }
    /// Stale pages still on the LRU list.
    pub fn stale_len(&self) -> u32 {
        self.stale_len
    }
    /// Dirty pages (the flush list's length).
    pub fn dirty_len(&self) -> u32 {
        self.flush.live
    }
    /// Frames lent to the AHI and lock heaps.
    pub fn memory_len(&self) -> u32 {
        self.memory_len
    }
    /// The oldest modification still unwritten.
    pub fn oldest_modification(&self) -> Option<Lsn> {
        self.flush.entries.front().map(|e| e.lsn)
    }

    /// The index into `blocks` of a pool-wide frame id.
    fn local(&self, frame: FrameId) -> u32 {
        if frame >= self.base && frame - self.base < self.n_blocks {
            frame - self.base
        } else {
            frame - self.zip.desc_base + self.n_blocks
        }
    }

    /// The pool-wide id of `blocks[local]`.
    fn frame_id(&self, local: u32) -> FrameId {
        if local < self.n_blocks {
            self.base + local
        } else {
            self.zip.desc_base + (local - self.n_blocks)
        }
    }

    /// Removes a flush-list entry; when tombstones outnumber live entries, compacts the
    /// deque and renumbers the blocks' entries, so the deque stays within twice the
    /// number of dirty pages.
    fn flush_remove(&mut self, seq: u32) {
        self.flush.remove(seq);
        if self.flush.entries.len() > 2 * self.flush.live as usize + 4096 {
            self.flush.entries.retain(|e| e.frame != FRAME_NONE);
            for (k, e) in self.flush.entries.iter().enumerate() {
                self.blocks[e.frame as usize].flush_seq =
                    self.flush.front_seq.wrapping_add(k as u32);
            }
        }
    }

    // ---- free list ----------------------------------------------------------------------

    fn free_pop(&mut self) -> Option<u32> {
        let b = self.free_head;
        if b == FRAME_NONE {
            return None;
        }
        self.free_head = self.blocks[b as usize].next;
        self.blocks[b as usize].next = FRAME_NONE;
        self.free_len -= 1;
        Some(b)
    }

    fn free_push(&mut self, b: u32) {
        self.blocks[b as usize] = BufBlock {
            next: self.free_head,
            ..BufBlock::FREE
        };
        self.free_head = b;
        self.free_len += 1;
    }

    // ---- LRU list primitives (buf0lru.cc) ---------------------------------------------

    fn unlink(&mut self, b: u32) {
        let BufBlock { prev, next, .. } = self.blocks[b as usize];
        if prev == FRAME_NONE {
            self.lru_head = next;
        } else {
            self.blocks[prev as usize].next = next;
        }
        if next == FRAME_NONE {
            self.lru_tail = prev;
        } else {
            self.blocks[next as usize].prev = prev;
        }
        self.blocks[b as usize].prev = FRAME_NONE;
        self.blocks[b as usize].next = FRAME_NONE;
        self.lru_len -= 1;
    }

    fn link_first(&mut self, b: u32) {
        let head = self.lru_head;
        self.blocks[b as usize].prev = FRAME_NONE;
        self.blocks[b as usize].next = head;
        if head == FRAME_NONE {
            self.lru_tail = b;
        } else {
            self.blocks[head as usize].prev = b;
        }
        self.lru_head = b;
        self.lru_len += 1;
    }

    fn link_after(&mut self, after: u32, b: u32) {
        let next = self.blocks[after as usize].next;
        self.blocks[b as usize].prev = after;
        self.blocks[b as usize].next = next;
        self.blocks[after as usize].next = b;
        if next == FRAME_NONE {
            self.lru_tail = b;
        } else {
            self.blocks[next as usize].prev = b;
        }
        self.lru_len += 1;
    }

    /// InnoDB: `buf_LRU_old_adjust_len()`: move `LRU_old` until the old sublist is
    /// within the tolerance of its target length.
    fn old_adjust_len(&mut self) {
        if self.lru_old == FRAME_NONE {
            return;
        }
        let new_len = (self.lru_len as u64 * self.old_ratio as u64 / 1024) as u32;
        let new_len = new_len.min(self.lru_len - (LRU_OLD_TOLERANCE + LRU_NON_OLD_MIN_LEN));
        loop {
            let old = self.lru_old;
            if self.lru_old_len + LRU_OLD_TOLERANCE < new_len {
                let prev = self.blocks[old as usize].prev;
                self.lru_old = prev;
                self.blocks[prev as usize].set(F_OLD, true);
                self.lru_old_len += 1;
            } else if self.lru_old_len > new_len + LRU_OLD_TOLERANCE {
                self.blocks[old as usize].set(F_OLD, false);
                self.lru_old = self.blocks[old as usize].next;
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
    fn add_block(&mut self, b: u32, old: bool) {
        if self.policy == LruPolicy::Exact {
            self.link_first(b);
            return;
        }
        if !old || self.lru_len < LRU_OLD_MIN_LEN {
            self.link_first(b);
            self.blocks[b as usize].set(F_OLD, false);
            self.blocks[b as usize].freed_page_clock = self.freed_page_clock;
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
    fn remove_block(&mut self, b: u32) {
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
    fn lru_iter(&self) -> impl Iterator<Item = u32> + '_ {
        let mut b = self.lru_head;
        std::iter::from_fn(move || {
            if b == FRAME_NONE {
                return None;
            }
            let cur = b;
            b = self.blocks[b as usize].next;
            Some(cur)
        })
    }
}

/// `LRU_old_ratio` from `innodb_old_blocks_pct` (`buf_LRU_old_ratio_update_instance()`).
fn old_ratio(pct: u32) -> u32 {
    (pct * 1024 / 100).clamp(51, 1024)
}

/// Per-tablespace state the pool needs: its current version and its page map.
#[derive(Clone, Debug, Default)]
struct SpacePages {
    version: u16,
    /// 0 for an uncompressed tablespace, else the compressed frame's size class + 1.
    zip_class: u8,
    /// page_no → frame, [`FRAME_NONE`] when not in the pool.
    frames: Vec<u32>,
}

/// The whole buffer pool.
#[derive(Clone, Debug)]
pub struct BufPool {
    instances: Vec<BufPoolInstance>,
    frames_per_instance: u32,
    spaces: BTreeMap<SpaceId, SpacePages>,
    ahi_pages: BTreeMap<(SpaceId, u8), u64>,
    lru_stat: zip::LruStat,
}

impl BufPool {
    /// A pool of `pages` frames split over `instances` instances, all free, with
    /// InnoDB's midpoint LRU.
    pub fn new(pages: u32, instances: u16, old_blocks_pct: u32) -> BufPool {
        BufPool::with_policy(pages, instances, old_blocks_pct, LruPolicy::Midpoint)
    }

    /// A pool with the given LRU policy.
    pub fn with_policy(
        pages: u32,
        instances: u16,
        old_blocks_pct: u32,
        policy: LruPolicy,
    ) -> BufPool {
        assert!(instances >= 1);
        let per = pages / u32::from(instances);
        BufPool {
            instances: (0..instances)
                .map(|i| {
                    let zip_base = zip::desc_base(instances, per, i);
                    BufPoolInstance::new(
                        i,
                        u32::from(i) * per,
                        zip_base,
                        per,
                        old_blocks_pct,
                        policy,
                    )
                })
                .collect(),
            frames_per_instance: per,
            spaces: BTreeMap::new(),
            ahi_pages: BTreeMap::new(),
            lru_stat: zip::LruStat::default(),
        }
    }

    /// The instances.
    pub fn instances(&self) -> &[BufPoolInstance] {
        &self.instances
    }

    /// Number of instances.
    pub fn n_instances(&self) -> u16 {
        self.instances.len() as u16
    }

    fn sum(&self, f: impl Fn(&BufPoolInstance) -> u32) -> u64 {
        self.instances.iter().map(|i| u64::from(f(i))).sum()
    }
    /// Frames in the pool (`Innodb_buffer_pool_pages_total`).
    pub fn pages_total(&self) -> u64 {
        self.sum(BufPoolInstance::size)
    }
    /// Σ LRU length (`Innodb_buffer_pool_pages_data`).
    pub fn pages_data(&self) -> u64 {
        self.sum(|i| i.lru_len)
    }
    /// Σ free list length (`Innodb_buffer_pool_pages_free`).
    pub fn pages_free(&self) -> u64 {
        self.sum(|i| i.free_len)
    }
    /// Σ flush list length (`Innodb_buffer_pool_pages_dirty`).
    pub fn pages_dirty(&self) -> u64 {
        self.sum(|i| i.flush.live)
    }
    /// Frames lent to the AHI and lock heaps (`Innodb_buffer_pool_pages_misc`).
    pub fn pages_misc(&self) -> u64 {
        self.sum(|i| i.memory_len)
    }
    /// Stale pages still in the pool.
    pub fn pages_stale(&self) -> u64 {
        self.sum(|i| i.stale_len)
    }
    /// Counters summed over the instances.
    pub fn stats(&self) -> InstanceStats {
        self.instances
            .iter()
            .fold(InstanceStats::default(), |a, i| InstanceStats {
                made_young: a.made_young + i.stats.made_young,
                not_made_young: a.not_made_young + i.stats.not_made_young,
                evicted: a.evicted + i.stats.evicted,
                stale_freed: a.stale_freed + i.stats.stale_freed,
                flushed: a.flushed + i.stats.flushed,
                unzipped: a.unzipped + i.stats.unzipped,
                unzip_evicted: a.unzip_evicted + i.stats.unzip_evicted,
            })
    }

    /// Bytes of simulator memory per pool frame: descriptors (compressed-only pages'
    /// included, with their compressed-frame extras) plus page maps plus the flush list,
    /// divided by the number of frames.
    pub fn bytes_per_page(&self) -> f64 {
        let descriptors: u64 = self
            .instances
            .iter()
            .map(|i| {
                i.blocks.capacity() as u64 * std::mem::size_of::<BufBlock>() as u64
                    + i.zip_extra_bytes()
            })
            .sum();
        let maps: u64 = self
            .spaces
            .values()
            .map(|s| s.frames.capacity() as u64 * 4)
            .sum();
        let flush: u64 = self
            .instances
            .iter()
            .map(|i| i.flush.entries.capacity() as u64 * std::mem::size_of::<FlushEntry>() as u64)
            .sum();
        (descriptors + maps + flush) as f64 / self.pages_total().max(1) as f64
    }

    /// InnoDB: `buf_pool_get()`: the instance a page belongs to.
    pub fn instance_of(&self, page: PageId) -> u16 {
        if self.instances.len() == 1 {
            return 0;
        }
        let extent = page.page_no >> EXTENT_SHIFT;
        let fold = (u64::from(page.space.0) << 20) + u64::from(page.space.0) + u64::from(extent);
        (fold % self.instances.len() as u64) as u16
    }

    fn inst_of_frame(&self, frame: FrameId) -> usize {
        let blocks = self.frames_per_instance * self.instances.len() as u32;
        if frame < blocks {
            (frame / self.frames_per_instance) as usize
        } else {
            ((frame - blocks) / (zip::DESCS_PER_BLOCK * self.frames_per_instance)) as usize
        }
    }

    fn block(&self, frame: FrameId) -> &BufBlock {
        let inst = &self.instances[self.inst_of_frame(frame)];
        &inst.blocks[inst.local(frame) as usize]
    }

    /// The page a frame holds.
    pub fn page_of(&self, frame: FrameId) -> PageId {
        let b = self.block(frame);
        PageId {
            space: SpaceId(b.space),
            page_no: b.page_no,
        }
    }

    /// Whether the frame's page is modified and unwritten.
    pub fn is_dirty(&self, frame: FrameId) -> bool {
        self.block(frame).is(F_DIRTY)
    }

    /// Registers a tablespace of `pages` pages at version 0 (creating its page map).
    pub fn register_space(&mut self, space: SpaceId, pages: u32) {
        let sp = self.spaces.entry(space).or_default();
        if sp.frames.len() < pages as usize {
            sp.frames.resize(pages as usize, FRAME_NONE);
        }
    }

    /// The current version of a tablespace.
    pub fn space_version(&self, space: SpaceId) -> u32 {
        self.spaces.get(&space).map_or(0, |s| u32::from(s.version))
    }

    fn is_stale(&self, b: &BufBlock) -> bool {
        b.holds_page()
            && self
                .spaces
                .get(&SpaceId(b.space))
                .is_some_and(|s| s.version != b.version)
    }

    /// WL#14100 `fil_space_t::bump_version()`: every frame of the space becomes stale.
    /// Returns the new version and how many frames just became stale.
    ///
    /// Simplification: versions are 16 bits; a page would look current again only after
    /// 65,536 bumps of its tablespace while it stayed in the pool.
    pub fn bump_space_version(&mut self, space: SpaceId) -> (u32, u64) {
        let Some(sp) = self.spaces.get_mut(&space) else {
            return (0, 0);
        };
        let old = sp.version;
        sp.version = sp.version.wrapping_add(1);
        let version = sp.version;
        let mut became_stale = 0u64;
        let frames = std::mem::take(&mut sp.frames);
        for &f in &frames {
            if f != FRAME_NONE {
                let i = self.inst_of_frame(f);
                let inst = &mut self.instances[i];
                let b = &inst.blocks[inst.local(f) as usize];
                if b.version == old {
                    inst.stale_len += 1;
                    became_stale += 1;
                }
            }
        }
        if let Some(sp) = self.spaces.get_mut(&space) {
            sp.frames = frames;
        }
        (u32::from(version), became_stale)
    }

    /// InnoDB: the page-hash step of `buf_page_get_gen()`.
    #[inline]
    pub fn lookup(&self, page: PageId) -> Lookup {
        let Some(sp) = self.spaces.get(&page.space) else {
            return Lookup::Miss;
        };
        let frame = sp
            .frames
            .get(page.page_no as usize)
            .copied()
            .unwrap_or(FRAME_NONE);
        if frame == FRAME_NONE {
            return Lookup::Miss;
        }
        let b = self.block(frame);
        if b.version != sp.version {
            Lookup::Stale(frame)
        } else if b.is(F_IO_READ) {
            Lookup::IoFixed(frame)
        } else {
            Lookup::Hit(frame)
        }
    }

    /// Records an access to a resident page and says whether it should be made young
    /// (`buf_page_peek_if_too_old()`). Counts `not_made_young` when the old-blocks time
    /// keeps an old page where it is. Under the exact policy every hit is made young.
    pub fn note_access(&mut self, frame: FrameId, now_ms: u32, old_blocks_time_ms: u32) -> bool {
        let i = self.inst_of_frame(frame);
        let inst = &mut self.instances[i];
        if inst.policy == LruPolicy::Exact {
            return inst.lru_head != inst.local(frame);
        }
        let local = inst.local(frame) as usize;
        // buf_page_get_gen() stamps the first access before buf_page_make_young_if_needed().
        if inst.blocks[local].access_ms == 0 {
            inst.blocks[local].access_ms = now_ms.max(1);
        }
        let b = inst.blocks[local];
        if inst.freed_page_clock == 0 {
            return false;
        }
        if old_blocks_time_ms != 0 && b.is(F_OLD) {
            if now_ms.saturating_sub(b.access_ms) >= old_blocks_time_ms {
                return true;
            }
            inst.stats.not_made_young += 1;
            return false;
        }
        // buf_page_peek_if_young(): young enough if not too far behind the clock.
        let window = (u64::from(inst.size()) * u64::from(1024 - inst.old_ratio) / 4096) as u32;
        inst.freed_page_clock >= b.freed_page_clock.saturating_add(window)
    }

    /// InnoDB: `buf_LRU_make_block_young()`. Caller holds the instance mutex.
    pub fn make_young(&mut self, frame: FrameId) {
        let i = self.inst_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame);
        if inst.blocks[local as usize].is(F_OLD) {
            inst.stats.made_young += 1;
        }
        inst.remove_block(local);
        inst.add_block(local, false);
        // buf_LRU_add_block_low() -> buf_unzip_LRU_add_block(block, old = false).
        if inst.in_unzip_lru(local) {
            inst.unzip_remove(local);
            inst.unzip_add(local, false);
        }
    }

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
    fn ready_for_replace(&self, b: &BufBlock) -> bool {
        !b.is(F_IO) && (!b.is(F_DIRTY) || self.is_stale(b))
    }

    /// Removes a page from the LRU list, the flush list and the page hash and puts its
    /// frame on the free list (`buf_LRU_free_page()` + `buf_LRU_block_remove_hashed()`).
    /// Returns whether the page was stale.
    ///
    /// A page with a compressed frame loses both frames (`buf_LRU_free_page(zip =
    /// true)`): the buddy slot is freed, and a compressed-only page's descriptor too.
    fn evict(&mut self, frame: FrameId) -> bool {
        let i = self.inst_of_frame(frame);
        let b = *self.block(frame);
        let stale = self.is_stale(&b);
        if b.is(F_ZIP) {
            let local = self.instances[i].local(frame);
            self.instances[i].zip_release_frame(local, b);
        }
        if let Some(sp) = self.spaces.get_mut(&SpaceId(b.space)) {
            if let Some(slot) = sp.frames.get_mut(b.page_no as usize) {
                if *slot == frame {
                    *slot = FRAME_NONE;
                }
            }
        }
        if b.ahi_index != 0 {
            // buf_LRU_free_page() drops the page's hash entries before freeing it.
            self.ahi_forget(SpaceId(b.space), b.ahi_index);
        }
        let inst = &mut self.instances[i];
        let local = inst.local(frame);
        if b.is(F_DIRTY) {
            inst.flush_remove(b.flush_seq);
        }
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

    /// InnoDB: `buf_page_init_for_read()` + `buf_LRU_add_block(old = true)`: the block
    /// taken by [`BufPool::get_free_block`] now holds `page`, I/O-fixed, at the midpoint.
    /// For a page of a compressed tablespace use [`BufPool::init_for_read_zip`].
    /// Caller holds the instance mutex.
    pub fn init_for_read(&mut self, frame: FrameId, page: PageId) {
        let sp = self
            .spaces
            .get_mut(&page.space)
            .expect("page of an unregistered tablespace");
        let version = sp.version;
        if sp.frames.len() <= page.page_no as usize {
            sp.frames.resize(page.page_no as usize + 1, FRAME_NONE);
        }
        assert_eq!(
            sp.frames[page.page_no as usize], FRAME_NONE,
            "{page:?} is already in the pool"
        );
        sp.frames[page.page_no as usize] = frame;
        let i = self.inst_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame);
        inst.blocks[local as usize] = BufBlock {
            space: page.space.0,
            page_no: page.page_no,
            version,
            flags: STATE_FILE | F_IO_READ,
            ..BufBlock::FREE
        };
        inst.add_block(local, true);
        // buf_LRU_stat_inc_io().
        self.lru_stat.cur_io += 1;
    }

    /// The read finished (`buf_page_io_complete()`).
    pub fn complete_read(&mut self, frame: FrameId) {
        let i = self.inst_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame) as usize;
        inst.blocks[local].set(F_IO_READ, false);
    }

    /// A mini-transaction modified the page at `lsn` (`buf_flush_note_modification()`):
    /// if it was clean it joins the flush list with `lsn` as its oldest modification.
    pub fn mark_dirty(&mut self, frame: FrameId, lsn: Lsn) {
        let i = self.inst_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame) as usize;
        if inst.blocks[local].is(F_DIRTY) {
            return;
        }
        let seq = inst.flush.push(lsn, local as u32);
        let b = &mut inst.blocks[local];
        b.set(F_DIRTY, true);
        b.flush_seq = seq;
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
            if b.space == space.0 && pages.contains(&b.page_no) && !b.is(F_IO) {
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
            if b.space == space.0 && pages.contains(&b.page_no) && !b.is(F_IO) {
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
            inst.flush_remove(b.flush_seq);
            inst.blocks[local].set(F_DIRTY, false);
        }
        inst.stats.flushed += 1;
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

    /// The page cleaner's LRU batch for one instance (`buf_flush_LRU_list_batch()`): from
    /// the tail, look at up to `scan_depth` blocks while fewer than `scan_depth` are free
    /// and the list is longer than `BUF_LRU_MIN_LEN`: free clean unfixed (and stale)
    /// blocks, write-fix dirty ones and push them on `writes` (the caller writes them
    /// and completes each with `evict = true`). Caller holds the instance mutex.
    pub fn lru_flush_batch(
        &mut self,
        instance: u16,
        scan_depth: u32,
        writes: &mut Vec<FrameId>,
    ) -> LruBatch {
        let i = usize::from(instance);
        let mut r = LruBatch::default();
        let mut b = self.instances[i].lru_tail;
        while b != FRAME_NONE
            && r.scanned < scan_depth
            && self.instances[i].free_len + r.writes < scan_depth
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
        *self.ahi_pages.entry((SpaceId(b.space), index)).or_insert(0) += 1;
        true
    }

    /// Drops a page's AHI entries (`btr_search_drop_page_hash_index()`); returns the
    /// index they belonged to (0 = none).
    pub fn ahi_unmark(&mut self, frame: FrameId) -> u8 {
        let i = self.inst_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame) as usize;
        let space = SpaceId(inst.blocks[local].space);
        let index = std::mem::take(&mut inst.blocks[local].ahi_index);
        if index != 0 {
            self.ahi_forget(space, index);
        }
        index
    }

    fn ahi_forget(&mut self, space: SpaceId, index: u8) {
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
        for b in 0..self.instances[i].blocks.len() {
            let blk = self.instances[i].blocks[b];
            if blk.space == space.0 && blk.ahi_index != 0 && blk.state() == STATE_FILE {
                self.instances[i].blocks[b].ahi_index = 0;
                self.ahi_forget(space, blk.ahi_index);
                *dropped.entry(blk.ahi_index).or_insert(0) += 1;
            }
        }
        dropped.into_iter().collect()
    }

    /// The frame holding `page` in any version, if resident.
    pub fn frame_of(&self, page: PageId) -> Option<FrameId> {
        match self.lookup(page) {
            Lookup::Miss => None,
            Lookup::Hit(f) | Lookup::IoFixed(f) | Lookup::Stale(f) => Some(f),
        }
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
            if blk.space == space.0 && blk.ahi_index != 0 {
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
            if blk.space == space.0 && blk.holds_page() {
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
        let (mut freed, mut skipped) = (0, 0);
        for b in 0..self.instances[i].blocks.len() {
            let blk = self.instances[i].blocks[b];
            if blk.space != space.0 || !blk.holds_page() {
                continue;
            }
            if blk.is(F_IO) {
                skipped += 1;
            } else {
                self.evict(self.instances[i].frame_id(b as u32));
                freed += 1;
            }
        }
        (freed, skipped)
    }

    /// A read-only sweep over every descriptor, counting the pages of `space`: the
    /// baseline the benchmark compares [`BufPool::remove_space_pages`] with.
    pub fn count_space_pages(&self, space: SpaceId) -> u64 {
        self.instances
            .iter()
            .map(|inst| {
                inst.blocks
                    .iter()
                    .filter(|b| b.space == space.0 && b.holds_page())
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
        if self.space_zip_kb(page.space) != 0 {
            return self.replay_zip_access(page, now_ms, old_blocks_time_ms);
        }
        match self.lookup(page) {
            Lookup::Hit(f) => {
                if self.note_access(f, now_ms, old_blocks_time_ms) {
                    self.make_young(f);
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
                    self.init_for_read(f, page);
                    self.complete_read(f);
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

    /// Pages of `space` resident in the pool (any version).
    pub fn resident_pages(&self, space: SpaceId) -> u64 {
        self.spaces.get(&space).map_or(0, |s| {
            s.frames.iter().filter(|&&f| f != FRAME_NONE).count() as u64
        })
    }

    fn cell(&self, blk: &BufBlock) -> Cell {
        self.cell_of(blk, self.is_stale(blk))
    }

    /// [`BufPool::cell`] with the stale check already made.
    fn cell_of(&self, blk: &BufBlock, stale: bool) -> Cell {
        let kind = match blk.state() {
            STATE_FREE => CellKind::Free,
            STATE_MEMORY => CellKind::Memory,
            _ if stale => CellKind::Stale,
            _ if blk.is(F_IO) => CellKind::Io,
            _ if blk.is(F_DIRTY) => CellKind::Dirty,
            _ => CellKind::Clean,
        };
        Cell {
            space: SpaceId(blk.space),
            kind,
            old: blk.is(F_OLD),
            ahi: blk.ahi_index != 0,
        }
    }

    /// The flush list of `instance` as cells, oldest modification first (the end a
    /// flush-list walk starts from). `out` is cleared first.
    pub fn flush_cells(&self, instance: u16, out: &mut Vec<Cell>) {
        out.clear();
        let inst = &self.instances[usize::from(instance)];
        out.extend(
            inst.flush
                .entries
                .iter()
                .filter(|e| e.frame != FRAME_NONE)
                .map(|e| self.cell(&inst.blocks[e.frame as usize])),
        );
    }

    /// The cells of one instance for the pool map, one per block: the LRU list's pages
    /// that own a block in LRU order from the head, then the lent frames and the blocks
    /// carved into compressed frames, then the free blocks. Compressed-only pages own no
    /// block and are not drawn. `out` is cleared first.
    pub fn lru_cells(&self, instance: u16, out: &mut Vec<Cell>) {
        out.clear();
        let inst = &self.instances[usize::from(instance)];
        // The viewer calls this every frame for a list of up to millions of blocks:
        // the tablespace versions go in a sorted array first, so that the stale check
        // is a binary search in a few cache lines rather than a tree walk per block.
        let versions: Vec<(u32, u16)> = self
            .spaces
            .iter()
            .map(|(id, s)| (id.0, s.version))
            .collect();
        out.extend(inst.lru_iter().filter(|&b| b < inst.n_blocks).map(|b| {
            let blk = &inst.blocks[b as usize];
            let stale = blk.holds_page()
                && versions
                    .binary_search_by_key(&blk.space, |&(id, _)| id)
                    .is_ok_and(|k| versions[k].1 != blk.version);
            self.cell_of(blk, stale)
        }));
        let filler = |kind| Cell {
            space: SpaceId(0),
            kind,
            old: false,
            ahi: false,
        };
        out.extend(std::iter::repeat_n(
            filler(CellKind::Memory),
            (inst.memory_len + inst.buddy_len()) as usize,
        ));
        out.extend(std::iter::repeat_n(
            filler(CellKind::Free),
            inst.free_len as usize,
        ));
    }

    /// What the pool map shows at position `pos` of `instance`'s band (positions as
    /// [`BufPool::lru_cells`] lays them out: the LRU list from the head, the lent
    /// frames, the free blocks), for a viewer pointing at it. Walks the list: meant
    /// for one hover, not for every frame.
    pub fn inspect(&self, instance: u16, pos: u32) -> Option<FrameInfo> {
        let inst = self.instances.get(usize::from(instance))?;
        let block = inst
            .lru_iter()
            .filter(|&b| b < inst.n_blocks)
            .nth(pos as usize);
        let Some(b) = block else {
            let lru = inst.lru_iter().filter(|&b| b < inst.n_blocks).count() as u32;
            let lent = inst.memory_len + inst.buddy_len();
            let kind = if pos < lru + lent {
                CellKind::Memory
            } else if pos < lru + lent + inst.free_len {
                CellKind::Free
            } else {
                return None;
            };
            return Some(FrameInfo {
                lru_position: None,
                cell: Cell {
                    space: SpaceId(0),
                    kind,
                    old: false,
                    ahi: false,
                },
                page_no: None,
                oldest_modification: None,
                version: 0,
            });
        };
        let blk = &inst.blocks[b as usize];
        let oldest_modification = blk
            .is(F_DIRTY)
            .then(|| {
                inst.flush
                    .entries
                    .get(blk.flush_seq.wrapping_sub(inst.flush.front_seq) as usize)
            })
            .flatten()
            .map(|e| e.lsn);
        Some(FrameInfo {
            lru_position: Some(pos),
            cell: self.cell(blk),
            page_no: Some(blk.page_no),
            oldest_modification,
            version: blk.version,
        })
    }

    /// Checks the structural invariants; panics with a description on the first broken
    /// one. Used by tests and debug runs.
    pub fn validate(&self) {
        self.validate_ahi();
        for inst in &self.instances {
            let id = inst.id;
            let order: Vec<u32> = inst.lru_iter().collect();
            assert_eq!(
                order.len() as u32,
                inst.lru_len,
                "instance {id}: LRU length"
            );
            let mut free = 0;
            let mut b = inst.free_head;
            while b != FRAME_NONE {
                assert_eq!(
                    inst.blocks[b as usize].state(),
                    STATE_FREE,
                    "instance {id}: free list holds a used block"
                );
                free += 1;
                b = inst.blocks[b as usize].next;
            }
            assert_eq!(free, inst.free_len, "instance {id}: free length");
            let memory = inst
                .blocks
                .iter()
                .filter(|b| b.state() == STATE_MEMORY && !b.is(F_BUDDY))
                .count() as u32;
            assert_eq!(memory, inst.memory_len, "instance {id}: lent frames");
            assert_eq!(
                inst.lru_len - inst.zip_only_len()
                    + inst.free_len
                    + inst.memory_len
                    + inst.buddy_len(),
                inst.size(),
                "instance {id}: blocks conserved"
            );
            inst.validate_zip();
            if inst.policy == LruPolicy::Midpoint {
                let old = order
                    .iter()
                    .filter(|&&b| inst.blocks[b as usize].is(F_OLD))
                    .count() as u32;
                assert_eq!(old, inst.lru_old_len, "instance {id}: old count");
                if inst.lru_len >= LRU_OLD_MIN_LEN {
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
                    let target =
                        (u64::from(inst.lru_len) * u64::from(inst.old_ratio) / 1024) as u32;
                    assert!(
                        inst.lru_old_len.abs_diff(target)
                            <= LRU_OLD_TOLERANCE + LRU_NON_OLD_MIN_LEN
                    );
                } else {
                    assert_eq!(inst.lru_old, FRAME_NONE);
                }
            }
            let stale = order
                .iter()
                .filter(|&&b| self.is_stale(&inst.blocks[b as usize]))
                .count() as u32;
            assert_eq!(stale, inst.stale_len, "instance {id}: stale count");
            for &b in &order {
                let blk = &inst.blocks[b as usize];
                assert!(blk.holds_page(), "instance {id}: LRU holds a non-page");
                let mapped = self.spaces[&SpaceId(blk.space)].frames[blk.page_no as usize];
                assert_eq!(mapped, inst.frame_id(b), "instance {id}: page hash");
            }
            // Every dirty page has exactly one live flush-list entry, in LSN order.
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
                    blk.flush_seq,
                    inst.flush.front_seq.wrapping_add(k as u32),
                    "instance {id}: flush seq"
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
    }

    /// InnoDB: `buf_LRU_buf_pool_running_out()`: some instance has less than a quarter
    /// of its frames free or holding pages, the rest lent to the AHI and lock heaps.
    pub fn running_out(&self) -> bool {
        self.instances
            .iter()
            .any(|i| i.free_len + i.lru_len < i.size() / 4)
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
                    *counted.entry((SpaceId(b.space), b.ahi_index)).or_insert(0) += 1;
                }
            }
        }
        assert_eq!(counted, self.ahi_pages, "AHI page counts");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: SpaceId = SpaceId(1);

    fn read(pool: &mut BufPool, page_no: u32) -> FrameId {
        let page = PageId { space: T, page_no };
        let inst = pool.instance_of(page);
        let frame = match pool.get_free_block(inst, LRU_SEARCH_SCAN_THRESHOLD) {
            FreeBlock::FromFreeList(f) | FreeBlock::Evicted { frame: f, .. } => f,
            FreeBlock::NoneFound { .. } => panic!("no free block"),
        };
        pool.init_for_read(frame, page);
        pool.complete_read(frame);
        frame
    }

    #[test]
    fn reads_go_in_at_the_midpoint_and_the_old_share_is_kept() {
        let mut pool = BufPool::new(2048, 1, 37);
        pool.register_space(T, 100_000);
        for p in 0..1500 {
            read(&mut pool, p);
            if p % 97 == 0 {
                pool.validate();
            }
        }
        pool.validate();
        let inst = &pool.instances()[0];
        assert_eq!(inst.lru_len(), 1500);
        // 37% of 1500 = 555, within the tolerance.
        assert!(
            inst.lru_old_len().abs_diff(555) <= 25,
            "old len {}",
            inst.lru_old_len()
        );
        // The newest read sits just after LRU_old: it is old, not at the head.
        let mut cells = Vec::new();
        pool.lru_cells(0, &mut cells);
        assert!(!cells[0].old && cells[cells.len() - 549].old);
    }

    #[test]
    fn a_full_pool_evicts_from_the_tail_and_reuses_frames() {
        let mut pool = BufPool::new(1024, 1, 37);
        pool.register_space(T, 100_000);
        for p in 0..5000 {
            read(&mut pool, p);
        }
        pool.validate();
        assert_eq!(pool.pages_free(), 0);
        assert_eq!(pool.pages_data(), 1024);
        assert_eq!(pool.stats().evicted, 5000 - 1024);
        // Midpoint insertion: page 0..(young part) read first were pushed out long ago,
        // the latest page is resident.
        assert!(matches!(
            pool.lookup(PageId {
                space: T,
                page_no: 4999
            }),
            Lookup::Hit(_)
        ));
        assert_eq!(
            pool.lookup(PageId {
                space: T,
                page_no: 0
            }),
            Lookup::Miss
        );
    }

    #[test]
    fn old_blocks_time_keeps_a_scan_from_making_pages_young() {
        let mut pool = BufPool::new(1024, 1, 37);
        pool.register_space(T, 100_000);
        for p in 0..2000 {
            read(&mut pool, p);
        }
        let Lookup::Hit(f) = pool.lookup(PageId {
            space: T,
            page_no: 1999,
        }) else {
            panic!()
        };
        assert!(
            !pool.note_access(f, 10, 1000),
            "the first access stamps the time"
        );
        assert!(!pool.note_access(f, 500, 1000), "too soon: not made young");
        assert_eq!(pool.stats().not_made_young, 2);
        assert!(
            pool.note_access(f, 1010, 1000),
            "after old_blocks_time: make young"
        );
        pool.make_young(f);
        assert_eq!(pool.stats().made_young, 1);
        let mut cells = Vec::new();
        pool.lru_cells(0, &mut cells);
        assert!(!cells[0].old);
        pool.validate();
    }

    #[test]
    fn exact_lru_evicts_the_least_recently_used_page() {
        let mut pool = BufPool::with_policy(1024, 1, 37, LruPolicy::Exact);
        pool.register_space(T, 10_000);
        let page = |p| PageId {
            space: T,
            page_no: p,
        };
        for p in 0..1024 {
            assert!(!pool.replay_access(page(p), 0, 1000));
        }
        // Touch page 0: now page 1 is the least recently used.
        assert!(pool.replay_access(page(0), 0, 1000));
        assert!(!pool.replay_access(page(5000), 0, 1000));
        assert_eq!(pool.lookup(page(1)), Lookup::Miss);
        assert!(matches!(pool.lookup(page(0)), Lookup::Hit(_)));
        pool.validate();
    }

    #[test]
    fn the_sweep_frees_the_same_pages_as_the_lru_walk() {
        let build = || {
            let mut pool = BufPool::new(4096, 2, 37);
            pool.register_space(T, 10_000);
            pool.register_space(SpaceId(2), 10_000);
            for p in 0..3000 {
                let sp = if p % 3 == 0 { T } else { SpaceId(2) };
                pool.replay_access(
                    PageId {
                        space: sp,
                        page_no: p,
                    },
                    p,
                    1000,
                );
            }
            pool
        };
        let mut walked = build();
        for i in 0..2 {
            let mut cursor = walked.lru_scan_start(i);
            while cursor != FRAME_NONE {
                walked.lru_remove_space_pages(i, &mut cursor, T, 100);
            }
        }
        let mut swept = build();
        let before = swept.count_space_pages(T);
        let freed: u32 = (0..2).map(|i| swept.remove_space_pages(i, T).0).sum();
        assert_eq!(u64::from(freed), before);
        assert_eq!(swept.count_space_pages(T), 0);
        assert_eq!(swept.pages_free(), walked.pages_free());
        assert_eq!(
            swept.resident_pages(SpaceId(2)),
            walked.resident_pages(SpaceId(2))
        );
        swept.validate();
    }

    #[test]
    fn instances_share_extents() {
        let pool = BufPool::new(8 * 1024, 8, 37);
        let inst = |p| {
            pool.instance_of(PageId {
                space: SpaceId(5),
                page_no: p,
            })
        };
        assert_eq!(inst(0), inst(63));
        assert_ne!(inst(63), inst(64));
        // fold = (5 << 20) + 5 + extent.
        assert_eq!(u64::from(inst(64)), ((5u64 << 20) + 5 + 1) % 8);
    }

    #[test]
    fn a_version_bump_makes_pages_stale_and_eviction_reclaims_them() {
        let mut pool = BufPool::new(1024, 1, 37);
        pool.register_space(T, 10_000);
        pool.register_space(SpaceId(2), 10_000);
        for p in 0..600 {
            read(&mut pool, p);
        }
        let (v, n) = pool.bump_space_version(T);
        assert_eq!((v, n), (1, 600));
        assert_eq!(pool.pages_stale(), 600);
        assert!(matches!(
            pool.lookup(PageId {
                space: T,
                page_no: 3
            }),
            Lookup::Stale(_)
        ));
        pool.validate();
        // The page cleaner frees stale pages as it meets them at the tail.
        let mut writes = Vec::new();
        let batch = pool.lru_flush_batch(0, 1024, &mut writes);
        let (scanned, freed) = (batch.scanned, batch.freed);
        assert_eq!(scanned, freed);
        assert!(writes.is_empty(), "nothing dirty");
        assert_eq!(pool.pages_stale(), 600 - u64::from(freed));
        assert_eq!(pool.stats().stale_freed, u64::from(freed));
        pool.validate();
    }

    #[test]
    fn a_full_lru_scan_frees_exactly_the_dropped_space() {
        let mut pool = BufPool::new(4096, 2, 37);
        pool.register_space(T, 10_000);
        pool.register_space(SpaceId(2), 10_000);
        for p in 0..1500 {
            read(&mut pool, p);
            let page = PageId {
                space: SpaceId(2),
                page_no: p,
            };
            let inst = pool.instance_of(page);
            let FreeBlock::FromFreeList(f) = pool.get_free_block(inst, 100) else {
                panic!()
            };
            pool.init_for_read(f, page);
            pool.complete_read(f);
        }
        let before = pool.pages_data();
        let mut freed_total = 0;
        for i in 0..2 {
            let mut cursor = pool.lru_scan_start(i);
            let len = pool.instances()[usize::from(i)].lru_len();
            let mut visited = 0;
            while cursor != FRAME_NONE {
                let (v, f, _) = pool.lru_remove_space_pages(i, &mut cursor, T, 100);
                visited += v;
                freed_total += f;
            }
            assert_eq!(visited, len, "the whole list is visited");
        }
        assert_eq!(freed_total, 1500);
        assert_eq!(pool.pages_data(), before - 1500);
        assert_eq!(pool.resident_pages(T), 0);
        assert_eq!(pool.resident_pages(SpaceId(2)), 1500);
        pool.validate();
    }
}
