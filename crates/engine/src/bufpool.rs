//! The buffer pool: page frames, the page hash, the LRU list with its old/young
//! midpoint, and the free list, split into instances.
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
//! Memory layout: each instance keeps its frame descriptors in one `Vec` and links the
//! LRU list through `u32` indices into it, so a scan is a walk over contiguous memory.
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

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

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

/// What a frame holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockState {
    /// On the free list (`BUF_BLOCK_NOT_USED`).
    Free,
    /// A file page on the LRU list (`BUF_BLOCK_FILE_PAGE`).
    FilePage,
}

/// One frame descriptor (`buf_block_t`, reduced to what the simulation needs).
#[derive(Clone, Copy, Debug)]
struct BufBlock {
    space: u32,
    page_no: u32,
    /// The tablespace version when the page was read (8.0.23+).
    version: u32,
    prev: u32,
    next: u32,
    /// `freed_page_clock` of the instance when the block was last made young.
    freed_page_clock: u32,
    /// Virtual ms of the first access since the page was read, 0 = not yet accessed.
    access_ms: u32,
    state: BlockState,
    old: bool,
    io_fix: bool,
}

impl BufBlock {
    const FREE: BufBlock = BufBlock {
        space: 0,
        page_no: 0,
        version: 0,
        prev: FRAME_NONE,
        next: FRAME_NONE,
        freed_page_clock: 0,
        access_ms: 0,
        state: BlockState::Free,
        old: false,
        io_fix: false,
    };
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
}

/// One buffer-pool instance.
#[derive(Clone, Debug)]
pub struct BufPoolInstance {
    id: u16,
    base: u32,
    blocks: Vec<BufBlock>,
    free: Vec<u32>,
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

/// How a cell of the pool map is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CellKind {
    /// On the free list.
    Free,
    /// A clean page.
    Clean,
    /// A page of an old tablespace version, waiting to be reclaimed.
    Stale,
    /// A page being read.
    Io,
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
}

impl BufPoolInstance {
    fn new(id: u16, base: u32, frames: u32, old_blocks_pct: u32) -> BufPoolInstance {
        BufPoolInstance {
            id,
            base,
            blocks: vec![BufBlock::FREE; frames as usize],
            // Pop from the end: frame 0 is handed out first.
            free: (0..frames).rev().collect(),
            lru_head: FRAME_NONE,
            lru_tail: FRAME_NONE,
            lru_len: 0,
            lru_old: FRAME_NONE,
            lru_old_len: 0,
            old_ratio: old_ratio(old_blocks_pct),
            freed_page_clock: 0,
            stale_len: 0,
            stats: InstanceStats::default(),
        }
    }

    /// The instance number.
    pub fn id(&self) -> u16 {
        self.id
    }
    /// Frames in this instance (`curr_size`).
    pub fn size(&self) -> u32 {
        self.blocks.len() as u32
    }
    /// Length of the free list.
    pub fn free_len(&self) -> u32 {
        self.free.len() as u32
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

    fn local(&self, frame: FrameId) -> u32 {
        frame - self.base
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
                self.blocks[prev as usize].old = true;
                self.lru_old_len += 1;
            } else if self.lru_old_len > new_len + LRU_OLD_TOLERANCE {
                self.blocks[old as usize].old = false;
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
            self.blocks[b as usize].old = true;
            b = self.blocks[b as usize].next;
        }
        self.lru_old = self.lru_head;
        self.lru_old_len = self.lru_len;
        self.old_adjust_len();
    }

    /// InnoDB: `buf_LRU_add_block_low()`.
    fn add_block(&mut self, b: u32, old: bool) {
        if !old || self.lru_len < LRU_OLD_MIN_LEN {
            self.link_first(b);
            self.blocks[b as usize].old = false;
            self.blocks[b as usize].freed_page_clock = self.freed_page_clock;
        } else {
            self.link_after(self.lru_old, b);
            self.blocks[b as usize].old = true;
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
        if b == self.lru_old {
            let prev = self.blocks[b as usize].prev;
            self.lru_old = prev;
            self.blocks[prev as usize].old = true;
            self.lru_old_len += 1;
        }
        let was_old = self.blocks[b as usize].old;
        self.unlink(b);
        self.blocks[b as usize].old = false;
        if self.lru_len < LRU_OLD_MIN_LEN {
            if self.lru_old != FRAME_NONE {
                let mut x = self.lru_head;
                while x != FRAME_NONE {
                    self.blocks[x as usize].old = false;
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
    version: u32,
    /// page_no → frame, [`FRAME_NONE`] when not in the pool.
    frames: Vec<u32>,
}

/// The whole buffer pool.
#[derive(Clone, Debug)]
pub struct BufPool {
    instances: Vec<BufPoolInstance>,
    frames_per_instance: u32,
    spaces: BTreeMap<SpaceId, SpacePages>,
}

impl BufPool {
    /// A pool of `pages` frames split over `instances` instances, all free.
    pub fn new(pages: u32, instances: u16, old_blocks_pct: u32) -> BufPool {
        assert!(instances >= 1);
        let per = pages / u32::from(instances);
        BufPool {
            instances: (0..instances)
                .map(|i| BufPoolInstance::new(i, u32::from(i) * per, per, old_blocks_pct))
                .collect(),
            frames_per_instance: per,
            spaces: BTreeMap::new(),
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

    /// Frames in the pool (`Innodb_buffer_pool_pages_total`).
    pub fn pages_total(&self) -> u64 {
        self.instances.iter().map(|i| u64::from(i.size())).sum()
    }
    /// Σ LRU length (`Innodb_buffer_pool_pages_data`).
    pub fn pages_data(&self) -> u64 {
        self.instances.iter().map(|i| u64::from(i.lru_len)).sum()
    }
    /// Σ free list length (`Innodb_buffer_pool_pages_free`).
    pub fn pages_free(&self) -> u64 {
        self.instances.iter().map(|i| u64::from(i.free_len())).sum()
    }
    /// Stale pages still in the pool.
    pub fn pages_stale(&self) -> u64 {
        self.instances.iter().map(|i| u64::from(i.stale_len)).sum()
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
            })
    }

    /// InnoDB: `buf_pool_get()`: the instance a page belongs to.
    pub fn instance_of(&self, page: PageId) -> u16 {
        let extent = page.page_no >> EXTENT_SHIFT;
        let fold = (u64::from(page.space.0) << 20) + u64::from(page.space.0) + u64::from(extent);
        (fold % self.instances.len() as u64) as u16
    }

    fn instance_of_frame(&self, frame: FrameId) -> usize {
        (frame / self.frames_per_instance) as usize
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
        self.spaces.get(&space).map_or(0, |s| s.version)
    }

    /// WL#14100 `fil_space_t::bump_version()`: every frame of the space becomes stale.
    /// Returns the new version and how many frames just became stale.
    pub fn bump_space_version(&mut self, space: SpaceId) -> (u32, u64) {
        let Some(sp) = self.spaces.get_mut(&space) else {
            return (0, 0);
        };
        sp.version += 1;
        let version = sp.version;
        let mut became_stale = 0u64;
        for &f in &sp.frames {
            if f != FRAME_NONE {
                let inst = &mut self.instances[(f / self.frames_per_instance) as usize];
                let b = &inst.blocks[(f - inst.base) as usize];
                if b.version + 1 == version {
                    inst.stale_len += 1;
                    became_stale += 1;
                }
            }
        }
        (version, became_stale)
    }

    /// InnoDB: the page-hash step of `buf_page_get_gen()`.
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
        let inst = &self.instances[self.instance_of_frame(frame)];
        let b = &inst.blocks[inst.local(frame) as usize];
        if b.version != sp.version {
            Lookup::Stale(frame)
        } else if b.io_fix {
            Lookup::IoFixed(frame)
        } else {
            Lookup::Hit(frame)
        }
    }

    fn is_stale(&self, b: &BufBlock) -> bool {
        self.spaces
            .get(&SpaceId(b.space))
            .is_some_and(|s| s.version != b.version)
    }

    /// Records an access to a resident page and says whether it should be made young
    /// (`buf_page_peek_if_too_old()`). Counts `not_made_young` when the old-blocks time
    /// keeps an old page where it is.
    pub fn note_access(&mut self, frame: FrameId, now_ms: u32, old_blocks_time_ms: u32) -> bool {
        let i = self.instance_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame) as usize;
        // buf_page_get_gen() stamps the first access before buf_page_make_young_if_needed().
        if inst.blocks[local].access_ms == 0 {
            inst.blocks[local].access_ms = now_ms.max(1);
        }
        let b = inst.blocks[local];
        if inst.freed_page_clock == 0 {
            return false;
        }
        if old_blocks_time_ms != 0 && b.old {
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
        let i = self.instance_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame);
        if inst.blocks[local as usize].old {
            inst.stats.made_young += 1;
        }
        inst.remove_block(local);
        inst.add_block(local, false);
    }

    /// InnoDB: `buf_LRU_get_free_block()`, one pass: the free list, then up to
    /// `scan_limit` blocks from the LRU tail for a clean, unfixed (or stale) block.
    /// Caller holds the instance mutex.
    pub fn get_free_block(&mut self, instance: u16, scan_limit: u32) -> FreeBlock {
        let i = usize::from(instance);
        if let Some(local) = self.instances[i].free.pop() {
            return FreeBlock::FromFreeList(self.instances[i].base + local);
        }
        let mut scanned = 0;
        let mut b = self.instances[i].lru_tail;
        while b != FRAME_NONE && scanned < scan_limit {
            scanned += 1;
            let blk = self.instances[i].blocks[b as usize];
            let prev = blk.prev;
            if !blk.io_fix {
                let frame = self.instances[i].base + b;
                self.evict(frame);
                let local = self.instances[i]
                    .free
                    .pop()
                    .expect("evict put the block on the free list");
                debug_assert_eq!(local, b);
                return FreeBlock::Evicted { frame, scanned };
            }
            b = prev;
        }
        FreeBlock::NoneFound { scanned }
    }

    /// Removes a page from the LRU list and the page hash and puts its frame on the free
    /// list (`buf_LRU_free_page()` + `buf_LRU_block_remove_hashed()`). Returns whether the
    /// page was stale.
    fn evict(&mut self, frame: FrameId) -> bool {
        let i = self.instance_of_frame(frame);
        let b = self.instances[i].blocks[self.instances[i].local(frame) as usize];
        let stale = self.is_stale(&b);
        if let Some(sp) = self.spaces.get_mut(&SpaceId(b.space)) {
            if let Some(slot) = sp.frames.get_mut(b.page_no as usize) {
                if *slot == frame {
                    *slot = FRAME_NONE;
                }
            }
        }
        let inst = &mut self.instances[i];
        let local = inst.local(frame);
        inst.remove_block(local);
        inst.blocks[local as usize] = BufBlock::FREE;
        inst.free.push(local);
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
    /// Caller holds the instance mutex.
    pub fn init_for_read(&mut self, frame: FrameId, page: PageId) {
        let version = self.space_version(page.space);
        let sp = self
            .spaces
            .get_mut(&page.space)
            .expect("page of an unregistered tablespace");
        if sp.frames.len() <= page.page_no as usize {
            sp.frames.resize(page.page_no as usize + 1, FRAME_NONE);
        }
        debug_assert_eq!(
            sp.frames[page.page_no as usize], FRAME_NONE,
            "page read twice"
        );
        sp.frames[page.page_no as usize] = frame;
        let i = self.instance_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame);
        inst.blocks[local as usize] = BufBlock {
            space: page.space.0,
            page_no: page.page_no,
            version,
            io_fix: true,
            state: BlockState::FilePage,
            ..BufBlock::FREE
        };
        inst.add_block(local, true);
    }

    /// The read finished (`buf_page_io_complete()`).
    pub fn complete_read(&mut self, frame: FrameId) {
        let i = self.instance_of_frame(frame);
        let inst = &mut self.instances[i];
        let local = inst.local(frame) as usize;
        inst.blocks[local].io_fix = false;
    }

    /// The page cleaner's LRU batch for one instance (`buf_flush_LRU_list_batch()`): from
    /// the tail, look at up to `scan_depth` blocks while fewer than `scan_depth` are free
    /// and the list is longer than `BUF_LRU_MIN_LEN`, evicting clean unfixed (and stale)
    /// ones. Returns (blocks looked at, blocks freed). Caller holds the instance mutex.
    pub fn lru_flush_batch(&mut self, instance: u16, scan_depth: u32) -> (u32, u32) {
        let i = usize::from(instance);
        let (mut scanned, mut freed) = (0, 0);
        let mut b = self.instances[i].lru_tail;
        while b != FRAME_NONE
            && scanned < scan_depth
            && self.instances[i].free_len() < scan_depth
            && self.instances[i].lru_len > LRU_MIN_LEN
        {
            scanned += 1;
            let blk = self.instances[i].blocks[b as usize];
            let prev = blk.prev;
            if !blk.io_fix {
                self.evict(self.instances[i].base + b);
                freed += 1;
            }
            b = prev;
        }
        (scanned, freed)
    }

    /// Where a full LRU scan starts: the tail of `instance`'s LRU list.
    pub fn lru_scan_start(&self, instance: u16) -> u32 {
        self.instances[usize::from(instance)].lru_tail
    }

    /// One bounded stretch of `buf_LRU_remove_all_pages()`: from `*cursor` (a local frame,
    /// walking toward the head) look at up to `budget` blocks and free every page of
    /// `space`. Returns (blocks looked at, pages freed, pages skipped because they were
    /// being read); `*cursor` becomes [`FRAME_NONE`] at the head. Caller holds the
    /// instance mutex throughout.
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
            if blk.space == space.0 && blk.state == BlockState::FilePage {
                if blk.io_fix {
                    skipped += 1;
                } else {
                    self.evict(self.instances[i].base + b);
                    freed += 1;
                }
            }
        }
        (visited, freed, skipped)
    }

    /// Pages of `space` resident in the pool (any version).
    pub fn resident_pages(&self, space: SpaceId) -> u64 {
        self.spaces.get(&space).map_or(0, |s| {
            s.frames.iter().filter(|&&f| f != FRAME_NONE).count() as u64
        })
    }

    /// The cells of one instance for the pool map, in LRU order from the head, then the
    /// free blocks. `out` is cleared first.
    pub fn lru_cells(&self, instance: u16, out: &mut Vec<Cell>) {
        out.clear();
        let inst = &self.instances[usize::from(instance)];
        for b in inst.lru_iter() {
            let blk = &inst.blocks[b as usize];
            let kind = if self.is_stale(blk) {
                CellKind::Stale
            } else if blk.io_fix {
                CellKind::Io
            } else {
                CellKind::Clean
            };
            out.push(Cell {
                space: SpaceId(blk.space),
                kind,
                old: blk.old,
            });
        }
        out.extend(std::iter::repeat_n(
            Cell {
                space: SpaceId(0),
                kind: CellKind::Free,
                old: false,
            },
            inst.free.len(),
        ));
    }

    /// Checks the structural invariants; panics with a description on the first broken
    /// one. Used by tests and debug runs.
    pub fn validate(&self) {
        for inst in &self.instances {
            let order: Vec<u32> = inst.lru_iter().collect();
            assert_eq!(
                order.len() as u32,
                inst.lru_len,
                "instance {}: LRU length",
                inst.id
            );
            assert_eq!(
                inst.lru_len + inst.free_len(),
                inst.size(),
                "instance {}: pages conserved",
                inst.id
            );
            let old = order
                .iter()
                .filter(|&&b| inst.blocks[b as usize].old)
                .count() as u32;
            assert_eq!(old, inst.lru_old_len, "instance {}: old count", inst.id);
            if inst.lru_len >= LRU_OLD_MIN_LEN {
                // Old blocks are exactly the suffix starting at LRU_old.
                let first_old = order.iter().position(|&b| inst.blocks[b as usize].old);
                assert_eq!(
                    first_old.map(|p| order[p]),
                    Some(inst.lru_old),
                    "instance {}: LRU_old",
                    inst.id
                );
                assert!(order[first_old.unwrap_or(0)..]
                    .iter()
                    .all(|&b| inst.blocks[b as usize].old));
                let target = (u64::from(inst.lru_len) * u64::from(inst.old_ratio) / 1024) as u32;
                assert!(
                    inst.lru_old_len.abs_diff(target) <= LRU_OLD_TOLERANCE + LRU_NON_OLD_MIN_LEN
                );
            } else {
                assert_eq!(inst.lru_old, FRAME_NONE);
            }
            let stale = order
                .iter()
                .filter(|&&b| self.is_stale(&inst.blocks[b as usize]))
                .count() as u32;
            assert_eq!(stale, inst.stale_len, "instance {}: stale count", inst.id);
            for &b in &order {
                let blk = &inst.blocks[b as usize];
                let mapped = self.spaces[&SpaceId(blk.space)].frames[blk.page_no as usize];
                assert_eq!(mapped, inst.base + b, "instance {}: page hash", inst.id);
            }
        }
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
        let (scanned, freed) = pool.lru_flush_batch(0, 1024);
        assert_eq!(scanned, freed);
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
