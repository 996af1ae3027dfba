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
//! (`buf_LRU_get_free_block()`); once a round the page cleaner refills each instance's
//! free list toward `innodb_lru_scan_depth` blocks, a ceiling rather than a floor.
//!
//! Dirty pages sit on the flush list in the order they were first modified (oldest
//! modification LSN); the page cleaner writes from its old end, and a free-block search
//! that finds only dirty pages at the LRU tail writes one itself (a single-page flush,
//! counted in `Innodb_buffer_pool_wait_free`).
//!
//! Memory layout: each instance keeps its frame descriptors (28 bytes each) in one `Vec`
//! and links the LRU list, the free list and the page hash's chains through `u32`
//! indices into it, so a scan is a walk over contiguous memory. The page hash
//! (`hash.rs`) is InnoDB's: a prime number of cells, three for every four blocks, whose
//! chains run through the descriptors (`buf_page_t::hash`): 28 + 3 = 31 bytes a page.
//! The flush list is a deque of (LSN, frame) in modification order; a page cleaned out
//! of order leaves a tombstone that is skipped and compacted away. A dirty page's
//! descriptor holds its flush-list entry's number where a clean one holds its first
//! access time, which then waits in the entry (it had 4 bytes of padding).
//! A page id maps to its instance as `buf_pool_get()` does: the extent number
//! (`page_no >> 6`) folded with the space id, modulo the number of instances.
//!
//! Tablespace versions (MySQL 8.0.23, WL#14100): every frame remembers the version of
//! its tablespace when it was read, as a 16-bit *slot* standing for (space, version)
//! (`space.rs`). DROP and TRUNCATE bump the version; a frame of an older version is
//! *stale*, still counted in the LRU list, and freed when a scan or a lookup meets it.
//!
//! Compressed tables (ROW_FORMAT=COMPRESSED) keep compressed-only pages, pages with
//! both frames on `unzip_LRU`, and compressed frames carved from pool blocks by the
//! buddy allocator: see the `zip` submodule. A compressed-only page's descriptor lives
//! past the instance's blocks in the same `Vec` (so the LRU list links it like any
//! page) and has a frame id after every block of the pool.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

mod ahi;
mod flush;
mod free;
mod hash;
mod huge_array;
mod lru;
mod prefetch;
#[cfg(test)]
mod props_tests;
mod space;
#[cfg(test)]
mod tests;
mod validate;
mod view;
mod zip;

use flush::{FlushEntry, FlushList};
use hash::PageHash;
use huge_array::HugeArray;
use lru::old_ratio;
use space::{Slot, Spaces};

pub use flush::SinglePageFlush;
pub use free::FreeBlock;
pub use prefetch::{ReplayPrefetch, REPLAY_PREFETCH};
pub use view::{Cell, CellKind, FrameInfo};
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

/// One frame descriptor (`buf_block_t`, reduced to what the simulation needs): 28
/// bytes. What a page-hash lookup reads comes first (`repr(C)` keeps the order), so
/// that it is more often within one cache line.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(target_os = "linux", derive(bytemuck::Pod, bytemuck::Zeroable))]
#[repr(C)]
struct BufBlock {
    page_no: u32,
    /// `buf_page_t::hash`: the next descriptor in the page hash's chain (local + 1, 0 =
    /// the end).
    hash: u32,
    /// The page's tablespace and its version when the page was read (8.0.23+).
    slot: Slot,
    flags: u8,
    /// `block->index`: which index of the table has AHI entries on this page (0 = none).
    ahi_index: u8,
    prev: u32,
    /// LRU successor, or the next free block while on the free list.
    next: u32,
    /// Low 31 bits: `freed_page_clock` of the instance when the block was last put at
    /// the head (31 bits, as `buf_page_t::freed_page_clock:31`). Top bit
    /// ([`DIRTY_ACCESSED`]): the page is dirty and its flush-list entry holds a first
    /// access time, so `buf_page_is_accessed()` needs no look at the entry.
    freed_page_clock: u32,
    /// Clean: virtual ms of the first access since the page was read, 0 = not yet
    /// accessed. Dirty: the sequence number of its flush-list entry, which keeps the
    /// access time meanwhile.
    access_or_flush: u32,
}

const _: () = assert!(std::mem::size_of::<BufBlock>() == 28);

/// The bits of [`BufBlock::freed_page_clock`] that keep the clock.
const PAGE_CLOCK_MASK: u32 = (1 << 31) - 1;
/// The bit of [`BufBlock::freed_page_clock`] that says a dirty page was accessed.
const DIRTY_ACCESSED: u32 = 1 << 31;

impl BufBlock {
    const FREE: BufBlock = BufBlock {
        page_no: 0,
        prev: FRAME_NONE,
        next: FRAME_NONE,
        hash: 0,
        freed_page_clock: 0,
        access_or_flush: 0,
        slot: 0,
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
    /// The pool's `freed_page_clock` (31 bits) when the block was last made young.
    fn page_clock(&self) -> u32 {
        self.freed_page_clock & PAGE_CLOCK_MASK
    }
    fn set_page_clock(&mut self, clock: u32) {
        self.freed_page_clock =
            (self.freed_page_clock & DIRTY_ACCESSED) | (clock & PAGE_CLOCK_MASK);
    }
    /// Dirty, with a first access time on its flush-list entry
    /// (`buf_page_is_accessed()` of a dirty page). Meaningless while clean.
    fn dirty_accessed(&self) -> bool {
        self.freed_page_clock & DIRTY_ACCESSED != 0
    }
    fn set_dirty_accessed(&mut self, on: bool) {
        if on {
            self.freed_page_clock |= DIRTY_ACCESSED;
        } else {
            self.freed_page_clock &= !DIRTY_ACCESSED;
        }
    }
    fn set(&mut self, flag: u8, on: bool) {
        if on {
            self.flags |= flag;
        } else {
            self.flags &= !flag;
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
    /// The descriptors made so far: the pool blocks the free list has handed out at
    /// least once (all of them once a compressed-only page needed a descriptor past
    /// them), then those compressed-only pages'. Room for every pool block is reserved
    /// up front but only touched as blocks come into use, so a 128 GB pool is built
    /// without writing 8 M descriptors.
    blocks: HugeArray<BufBlock>,
    /// The free list: blocks put back (`free_head`, linked through `next`), then the
    /// blocks never used yet, `unused..n_blocks` in order, as a list built in frame
    /// order would hand them out.
    free_head: u32,
    unused: u32,
    free_len: u32,
    /// `free_len + lru_len` is under a quarter of `n_blocks` (see
    /// [`BufPool::running_out`]): kept as the two lengths change, so the check each
    /// write makes reads one flag an instance.
    short_of_blocks: bool,
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
    page_hash: PageHash,
    /// Descriptors holding a page, per tablespace slot.
    slot_pages: Vec<u32>,
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

/// A page-hash lookup with the descriptor it found, as `buf_page_hash_get_low()`
/// returns the `buf_page_t` whose state the caller reads next: the descriptor is
/// decoded once, and the questions a step asks of the frame are answered from this copy
/// (true until the pool changes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageLook {
    /// What the lookup found.
    pub found: Lookup,
    /// The instance and the descriptor's index in its `blocks` (on a miss: none).
    inst: u16,
    local: u32,
    /// The descriptor's flags and AHI mark (on a miss: a free block's).
    flags: u8,
    ahi_index: u8,
}

/// A descriptor a caller remembers finding a page in, to try first the next time
/// (`buf_page_get_gen()`'s `guess`): only a hint, checked before it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockGuess {
    inst: u16,
    local: u32,
}

impl BlockGuess {
    /// No guess.
    pub const NONE: BlockGuess = BlockGuess {
        inst: u16::MAX,
        local: u32::MAX,
    };
}

impl PageLook {
    /// The descriptor found, as a guess for the next lookup of the page
    /// ([`BlockGuess::NONE`] on a miss).
    #[inline]
    pub fn guess(&self) -> BlockGuess {
        match self.found {
            Lookup::Miss => BlockGuess::NONE,
            _ => BlockGuess {
                inst: self.inst,
                local: self.local,
            },
        }
    }

    const MISS: PageLook = PageLook {
        found: Lookup::Miss,
        inst: 0,
        local: FRAME_NONE,
        flags: STATE_FREE,
        ahi_index: 0,
    };
    /// The page is compressed-only (`BUF_BLOCK_ZIP_PAGE`/`_DIRTY`), as
    /// [`BufPool::is_zip_only`].
    pub fn is_zip_only(&self) -> bool {
        self.flags & STATE_MASK == STATE_ZIP
    }
    /// The page carries AHI entries, as [`BufPool::is_hashed`].
    pub fn is_hashed(&self) -> bool {
        self.ahi_index != 0
    }
    /// The page is modified and unwritten, as [`BufPool::is_dirty`].
    pub fn is_dirty(&self) -> bool {
        self.flags & F_DIRTY != 0
    }
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
        BufPoolInstance {
            id,
            base,
            policy,
            blocks: HugeArray::with_capacity(frames as usize),
            free_head: FRAME_NONE,
            unused: 0,
            free_len: frames,
            short_of_blocks: false,
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
            page_hash: PageHash::new(frames),
            slot_pages: Vec::new(),
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
}

/// The whole buffer pool.
#[derive(Clone, Debug)]
pub struct BufPool {
    instances: Vec<BufPoolInstance>,
    frames_per_instance: u32,
    spaces: Spaces,
    ahi_pages: BTreeMap<(SpaceId, u8), u64>,
    lru_stat: zip::LruStat,
    /// `buf_pool_get_oldest_modification()`: the least of the instances' oldest
    /// modifications, kept as a flush list's old end changes (`flush.rs`).
    oldest_modification: Option<Lsn>,
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
            spaces: Spaces::default(),
            ahi_pages: BTreeMap::new(),
            lru_stat: zip::LruStat::default(),
            oldest_modification: None,
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

    /// Bytes of simulator memory the pool holds: descriptors (compressed-only pages'
    /// included, with their compressed-frame extras), the page hash, the flush lists,
    /// the tablespaces and their slots, the AHI counts.
    pub fn approx_bytes(&self) -> u64 {
        let instances: u64 = self
            .instances
            .iter()
            .map(|i| {
                i.blocks.capacity() as u64 * std::mem::size_of::<BufBlock>() as u64
                    + i.zip_extra_bytes()
                    + i.page_hash.bytes()
                    + i.flush.entries.capacity() as u64 * std::mem::size_of::<FlushEntry>() as u64
                    + i.slot_pages.capacity() as u64 * 4
            })
            .sum();
        let ahi = self.ahi_pages.len() as u64 * std::mem::size_of::<((SpaceId, u8), u64)>() as u64;
        instances + self.spaces.bytes() + ahi
    }

    /// Bytes of simulator memory per pool frame: [`BufPool::approx_bytes`] divided by
    /// the number of frames.
    pub fn bytes_per_page(&self) -> f64 {
        self.approx_bytes() as f64 / self.pages_total().max(1) as f64
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
        if self.instances.len() == 1 {
            return 0;
        }
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

    /// The tablespace of the page a descriptor holds (space 0 for a block without one).
    #[inline]
    fn block_space(&self, b: &BufBlock) -> SpaceId {
        if b.holds_page() {
            self.spaces.slot(b.slot).space
        } else {
            SpaceId(0)
        }
    }

    /// The page a frame holds.
    pub fn page_of(&self, frame: FrameId) -> PageId {
        let b = self.block(frame);
        PageId {
            space: self.block_space(b),
            page_no: b.page_no,
        }
    }

    /// Whether the frame's page is modified and unwritten.
    pub fn is_dirty(&self, frame: FrameId) -> bool {
        self.block(frame).is(F_DIRTY)
    }

    fn is_stale(&self, b: &BufBlock) -> bool {
        b.holds_page() && !self.spaces.slot(b.slot).current
    }

    /// InnoDB: the page-hash step of `buf_page_get_gen()`.
    #[inline]
    pub fn lookup(&self, page: PageId) -> Lookup {
        self.page_hash_get(page).found
    }

    /// InnoDB: `buf_page_hash_get_low()`: the page-hash step of `buf_page_get_gen()`,
    /// with the descriptor's state as found.
    #[inline]
    pub fn page_hash_get(&self, page: PageId) -> PageLook {
        let i = usize::from(self.instance_of(page));
        let Some(local) = self.hash_find(i, page) else {
            return PageLook::MISS;
        };
        self.look_at(i, local)
    }

    /// InnoDB: `buf_page_get_gen()` given a `guess` block (`btr_cur_search_to_nth_level()`
    /// passes the index's root guess, the AHI the block a record was hashed on): if the
    /// guessed descriptor still holds `page`, the page hash is not searched. The answer
    /// is [`BufPool::page_hash_get`]'s: a page is in the pool at most once (any
    /// version), so the descriptor holding it is the one the hash chain leads to.
    #[inline]
    pub fn page_hash_get_guess(&self, page: PageId, guess: BlockGuess) -> PageLook {
        if self.guess_holds(page, guess) {
            let look = self.look_at(usize::from(guess.inst), guess.local);
            debug_assert_eq!(look, self.page_hash_get(page), "guess for {page:?}");
            return look;
        }
        self.page_hash_get(page)
    }

    /// [`BufPool::lookup`] given a `guess` block, as [`BufPool::page_hash_get_guess`].
    #[inline]
    pub fn lookup_guess(&self, page: PageId, guess: BlockGuess) -> Lookup {
        self.page_hash_get_guess(page, guess).found
    }

    /// Whether the guessed descriptor holds `page` (`buf_block_get_state()` is a file
    /// page and `block->page.id` is the page's: the check `buf_page_get_gen()` makes of
    /// its guess).
    #[inline]
    fn guess_holds(&self, page: PageId, guess: BlockGuess) -> bool {
        let Some(inst) = self.instances.get(usize::from(guess.inst)) else {
            return false;
        };
        let Some(b) = inst.blocks.get(guess.local as usize) else {
            return false;
        };
        b.page_no == page.page_no && b.holds_page() && self.block_space(b) == page.space
    }

    /// The look of `blocks[local]` of instance `i`, a descriptor holding a page. Always
    /// inlined, as [`BufPool::hash_find`] before it, so a lookup reads the descriptors once.
    #[inline(always)]
    fn look_at(&self, i: usize, local: u32) -> PageLook {
        let inst = &self.instances[i];
        let frame = inst.frame_id(local);
        let b = &inst.blocks[local as usize];
        let found = if !self.spaces.slot(b.slot).current {
            Lookup::Stale(frame)
        } else if b.is(F_IO_READ) {
            Lookup::IoFixed(frame)
        } else {
            Lookup::Hit(frame)
        };
        PageLook {
            found,
            inst: i as u16,
            local,
            flags: b.flags,
            ahi_index: b.ahi_index,
        }
    }

    /// InnoDB: `buf_page_init_for_read()` + `buf_LRU_add_block(old = true)`: the block
    /// taken by [`BufPool::get_free_block`] now holds `page`, I/O-fixed, at the midpoint.
    /// For a page of a compressed tablespace use [`BufPool::init_for_read_zip`].
    /// Caller holds the instance mutex.
    pub fn init_for_read(&mut self, frame: FrameId, page: PageId) {
        let i = self.inst_of_frame(frame);
        let local = self.instances[i].local(frame);
        self.init_for_read_local(i, local, page, F_IO_READ);
    }

    /// [`BufPool::init_for_read`] on `blocks[local]` of instance `i`; `io` is
    /// [`F_IO_READ`] while the read is in flight, 0 for a page read at once (a replayed
    /// trace).
    fn init_for_read_local(&mut self, i: usize, local: u32, page: PageId, io: u8) {
        debug_assert_eq!(
            self.lookup(page),
            Lookup::Miss,
            "{page:?} is already in the pool"
        );
        let slot = self.slot_in(i, page.space);
        let inst = &mut self.instances[i];
        inst.blocks[local as usize] = BufBlock {
            page_no: page.page_no,
            slot,
            flags: STATE_FILE | io,
            ..BufBlock::FREE
        };
        inst.hash_insert(local, page);
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

    /// The frame holding `page` in any version, if resident.
    pub fn frame_of(&self, page: PageId) -> Option<FrameId> {
        match self.lookup(page) {
            Lookup::Miss => None,
            Lookup::Hit(f) | Lookup::IoFixed(f) | Lookup::Stale(f) => Some(f),
        }
    }
}
