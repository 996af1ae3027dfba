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
    chain_head: usize,
    chain_link: usize,
}

const FREE_AHEAD: FreePrefetch = FreePrefetch {
    descriptor: 32,
    neighbours: 16,
    chain_head: 8,
    chain_link: 3,
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

    /// The first descriptor of `page`'s chain (its cell read).
    #[inline]
    fn prefetch_chain_head(&self, page: PageId) {
        let inst = &self.instances[usize::from(self.instance_of(page))];
        if let Some(local) = inst.hash_head(page).checked_sub(1) {
            prefetch_index::<BufBlock>(&*inst.blocks, local as usize);
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
            let b = &blocks[local as usize];
            prefetch_link(blocks, b.prev);
            prefetch_link(blocks, b.next);
        }
    }

    /// Prefetches, in stages as a replay does, what freeing the pages of instance `i`
    /// at `locals` will touch, before `locals[0]` is freed: the descriptor itself
    /// farthest ahead; then (it cached) its LRU neighbours and its page's hash cell;
    /// then (the cell cached) the first descriptor of its chain; then (that cached) the
    /// chain's next, the one whose link a page second in its chain rewrites; and the
    /// block before the old sublist's boundary, where a removal may move it.
    #[inline]
    pub(super) fn prefetch_free(&self, i: usize, locals: &[u32]) {
        let inst = &self.instances[i];
        let blocks: &[BufBlock] = &inst.blocks;
        if let Some(&far) = locals.get(FREE_AHEAD.descriptor) {
            prefetch_index(blocks, far as usize);
        }
        if let Some(&mid) = locals.get(FREE_AHEAD.neighbours) {
            let b = &blocks[mid as usize];
            prefetch_link(blocks, b.prev);
            prefetch_link(blocks, b.next);
            inst.page_hash.prefetch_cell(self.page_of_block(b));
        }
        if let Some(&near) = locals.get(FREE_AHEAD.chain_head) {
            prefetch_link(blocks, self.chain_head_of(i, near));
        }
        if let Some(&nearest) = locals.get(FREE_AHEAD.chain_link) {
            let head = self.chain_head_of(i, nearest);
            if head != nearest && head != FRAME_NONE {
                prefetch_link(blocks, blocks[head as usize].hash.wrapping_sub(1));
            }
        }
        if inst.lru_old != FRAME_NONE {
            prefetch_link(blocks, blocks[inst.lru_old as usize].prev);
        }
    }

    /// The first descriptor of the hash chain of the page `blocks[local]` of instance
    /// `i` holds ([`FRAME_NONE`] for an empty cell).
    #[inline]
    fn chain_head_of(&self, i: usize, local: u32) -> u32 {
        let inst = &self.instances[i];
        let page = self.page_of_block(&inst.blocks[local as usize]);
        inst.hash_head(page).wrapping_sub(1)
    }

    /// The page a descriptor holds.
    #[inline]
    fn page_of_block(&self, b: &BufBlock) -> PageId {
        PageId {
            space: self.block_space(b),
            page_no: b.page_no,
        }
    }
}

/// The descriptor an LRU link names, if it names one.
#[inline]
fn prefetch_link(blocks: &[BufBlock], link: u32) {
    if link != FRAME_NONE {
        prefetch_index(blocks, link as usize);
    }
}
