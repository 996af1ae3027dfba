//! Software prefetching where the pool knows which descriptors it will touch next: a
//! trace replay (it knows its next accesses) and the freeing of a tablespace's pages
//! (it knows the pages once it has swept the descriptors).
//!
//! On 8 M pages nearly every access misses the cache two to four times in a row (the
//! page-hash cell, the descriptor it leads to, the LRU neighbours a make-young relinks),
//! each miss waiting on the one before. A prefetch is a hint that changes nothing the
//! simulation sees: the cache line is requested and the instruction retires at once, so
//! the misses of several accesses to come overlap instead of following each other. A
//! replay prefetches each access in stages, farthest first: its cell, then (the cell
//! now cached) the first descriptor of its chain, then (that descriptor cached) the
//! LRU neighbours of the page the chain leads to. On wasm32 a prefetch is nothing.

use super::{BufBlock, BufPool, PageId, FRAME_NONE};
use prefetch_index::prefetch_index;

/// A page a tablespace sweep found: its descriptor and its page's hash cell.
#[derive(Clone, Copy, Debug)]
pub(super) struct Found {
    pub(super) local: u32,
    pub(super) cell: u32,
}

/// How many accesses ahead of the one being made each stage of a replay's prefetch
/// runs. Each stage reads what the stage before it brought into the cache; the gaps
/// are about a memory latency of accesses each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayPrefetch {
    /// The page-hash cell.
    pub cell: usize,
    /// The first descriptor of the cell's chain.
    pub chain_head: usize,
    /// The LRU neighbours of the page the chain leads to (walked, not prefetched).
    pub neighbours: usize,
}

/// The distances `ddlscope bench` replays with (measured best on the reference trace).
pub const REPLAY_PREFETCH: ReplayPrefetch = ReplayPrefetch {
    cell: 16,
    chain_head: 8,
    neighbours: 3,
};

/// How many pages ahead of the one being freed each stage of
/// [`BufPool::remove_space_pages`]'s prefetch runs (the frees are compute as much as
/// misses: farther measured no better).
struct FreePrefetch {
    descriptor: usize,
    neighbours: usize,
    chain_link: usize,
}

const FREE_AHEAD: FreePrefetch = FreePrefetch {
    descriptor: 32,
    neighbours: 16,
    chain_link: 8,
};

impl BufPool {
    /// Prefetches for the accesses to come of a replayed trace: `ahead(k)` is the
    /// access `k` places after the one about to be made (none past the trace's end).
    /// Changes nothing; call it before each access.
    #[inline]
    pub fn replay_prefetch(&self, stages: ReplayPrefetch, ahead: impl Fn(usize) -> Option<PageId>) {
        if let Some(page) = ahead(stages.cell) {
            self.prefetch_cell(page);
        }
        if let Some(page) = ahead(stages.chain_head) {
            self.prefetch_chain_head(page);
        }
        if let Some(page) = ahead(stages.neighbours) {
            self.prefetch_neighbours(page);
        }
    }

    /// The page-hash cell of `page`.
    #[inline]
    fn prefetch_cell(&self, page: PageId) {
        self.instances[usize::from(self.instance_of(page))]
            .page_hash
            .prefetch_cell(page);
    }

    /// The first descriptor of `page`'s chain (its cell read): both its cache lines when
    /// it straddles two, as the access reads its LRU links and access time too.
    #[inline]
    fn prefetch_chain_head(&self, page: PageId) {
        let inst = &self.instances[usize::from(self.instance_of(page))];
        if let Some(local) = inst.hash_head(page).checked_sub(1) {
            let blocks: &[BufBlock] = &inst.blocks;
            prefetch_field(blocks, local, 0);
            prefetch_field(blocks, local, DESC_LAST);
        }
    }

    /// If the access may make `page` young, its LRU neighbours (what the relinking
    /// writes); the chain is walked to find it.
    #[inline]
    fn prefetch_neighbours(&self, page: PageId) {
        let i = usize::from(self.instance_of(page));
        let inst = &self.instances[i];
        if !inst.may_make_any_young() {
            return;
        }
        let blocks: &[BufBlock] = &inst.blocks;
        let Some(local) = self.hash_find(i, page) else {
            return;
        };
        if inst.may_make_young(local) {
            // The fields the unlinking writes, which may not be in a descriptor's first line.
            let b = &blocks[local as usize];
            prefetch_field(blocks, b.prev, OFFSET_NEXT);
            prefetch_field(blocks, b.next, OFFSET_PREV);
        }
    }
}

/// Prefetches, in stages as a replay does, what freeing the pages `ahead` of an
/// instance (its descriptors `blocks`, its page hash's `cells`, its `LRU_old`) will
/// touch, before `ahead[0]` is freed ([`BufPool::remove_space_pages`]): the
/// descriptor (both its cache lines, when it straddles two) and its page's hash cell
/// (the sweep found it) farthest ahead; then (they cached) the fields of its LRU
/// neighbours the unlinking writes, and the link of its chain's first descriptor;
/// then (that cached) the chain's next one's, the link a page third in its chain
/// rewrites; and the blocks on either side of the old sublist's boundary, where a
/// removal may move it.
#[inline]
pub(super) fn prefetch_free(blocks: &[BufBlock], cells: &[u32], ahead: &[Found], lru_old: u32) {
    if let Some(far) = ahead.get(FREE_AHEAD.descriptor) {
        prefetch_field(blocks, far.local, 0);
        prefetch_field(blocks, far.local, DESC_LAST);
        prefetch_index(cells, far.cell as usize);
    }
    if let Some(mid) = ahead.get(FREE_AHEAD.neighbours) {
        let b = &blocks[mid.local as usize];
        prefetch_field(blocks, b.prev, OFFSET_NEXT);
        prefetch_field(blocks, b.next, OFFSET_PREV);
        let head = cells[mid.cell as usize].wrapping_sub(1);
        if head != mid.local {
            prefetch_field(blocks, head, OFFSET_HASH);
        }
    }
    if let Some(near) = ahead.get(FREE_AHEAD.chain_link) {
        let head = cells[near.cell as usize].wrapping_sub(1);
        if head != near.local && head != FRAME_NONE {
            let second = blocks[head as usize].hash.wrapping_sub(1);
            if second != near.local {
                prefetch_field(blocks, second, OFFSET_HASH);
            }
        }
    }
    if lru_old != FRAME_NONE {
        let old = &blocks[lru_old as usize];
        prefetch_field(blocks, old.prev, OFFSET_FLAGS);
        prefetch_field(blocks, old.next, OFFSET_FLAGS);
    }
}

/// Where fields sit in a [`BufBlock`] (`repr(C)`).
const OFFSET_HASH: usize = 4;
const OFFSET_FLAGS: usize = 10;
const OFFSET_PREV: usize = 12;
const OFFSET_NEXT: usize = 16;
/// Its last byte.
const DESC_LAST: usize = std::mem::size_of::<BufBlock>() - 1;

/// The cache line of byte `offset` of the descriptor `local` names, if it names one: a
/// descriptor is 28 bytes, so the field a step writes is often not in the line its
/// first byte is in.
#[inline]
fn prefetch_field(blocks: &[BufBlock], local: u32, offset: usize) {
    if local == FRAME_NONE {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let bytes: &[u8] = bytemuck::cast_slice(blocks);
        prefetch_index(
            bytes,
            local as usize * std::mem::size_of::<BufBlock>() + offset,
        );
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = offset;
        prefetch_index(blocks, local as usize);
    }
}
