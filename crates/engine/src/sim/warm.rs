//! The warm-up: the pool as a long-running workload would have left it, built before
//! the first tick.
//!
//! A 128 GB pool takes tens of millions of draws from the key distribution, most of
//! them of pages already read. "Already in?" is asked of [`WarmedPages`], one bit a
//! page, never of the pool's page map: a lookup there is a random read into tens of
//! megabytes, a cache miss per draw, and was most of the time it took to build I1.
//! The pool ends exactly as with the page-map lookup (only the warm-up puts pages in,
//! and none leave), so the trace does not change.

use super::catalog::TableId;
use super::Sim;
use crate::bufpool::{FreeBlock, Lookup, PageId};
use crate::rng::SimRng;

/// The pages the warm-up has read into the pool: one bit a page, per table.
#[derive(Debug, Default)]
pub(super) struct WarmedPages {
    bits: Vec<Vec<u64>>,
}

impl WarmedPages {
    fn word(&self, table: TableId, page_no: u32) -> Option<&u64> {
        self.bits.get(table.index())?.get(page_no as usize / 64)
    }
    pub(super) fn contains(&self, table: TableId, page_no: u32) -> bool {
        self.word(table, page_no)
            .is_some_and(|w| w & (1 << (page_no % 64)) != 0)
    }
    pub(super) fn insert(&mut self, table: TableId, page_no: u32) {
        let t = table.index();
        if self.bits.len() <= t {
            self.bits.resize_with(t + 1, Vec::new);
        }
        let words = &mut self.bits[t];
        let w = page_no as usize / 64;
        if words.len() <= w {
            words.resize(w + 1, 0);
        }
        words[w] |= 1 << (page_no % 64);
    }
}

impl Sim {
    /// Fills the pool the way the workload would have after a long warm-up: leaf pages
    /// drawn from the workload's key distribution (with every internal page of their
    /// trees), until each instance is down to `innodb_lru_scan_depth` free blocks, the
    /// steady state the page cleaner keeps. Tables the workload does not use are warmed
    /// uniformly, as earlier traffic would have left them.
    pub(super) fn warm_pool(&mut self) {
        let depth = self.scenario.buffer_pool.lru_scan_depth;
        let mut warmed = WarmedPages::default();
        let mut rng = SimRng::stream(self.scenario.seed, "warm");
        // Tables drawn from: not the partitions, which are read in whole or not at all,
        // after the rest, with room kept for them.
        let candidates: Vec<TableId> = self
            .catalog
            .ids()
            .filter(|&t| self.catalog[t].table.partition.is_none())
            .collect();
        let reserve = self.cached_partitions_reserve();
        let depth = depth + reserve;
        self.warm_internal_pages(&mut warmed, &candidates, depth);
        self.warm_leaves(&mut warmed, &candidates, depth, &mut rng);
        self.warm_cached_partitions(&mut warmed, depth - reserve);
    }

    /// Every internal page of every index first: every search passes through them.
    fn warm_internal_pages(&mut self, warmed: &mut WarmedPages, tables: &[TableId], depth: u32) {
        for &t in tables {
            for ix in 0..self.catalog[t].table.indexes.len() {
                let index = &self.catalog[t].table.indexes[ix];
                let (internal, root) = (index.pages() - index.leaves(), index.root());
                for p in 0..internal as u32 {
                    self.warm_page(warmed, t, root + p, depth);
                }
            }
        }
    }

    /// Leaf pages drawn from the workload's key distribution: enough draws to fill the
    /// pool when the data is larger than it; a smaller data set leaves the rest free, as
    /// on a real server. The stop test sums over the instances, so it is asked again
    /// only after a draw that read a page: one that found its page in changed nothing.
    fn warm_leaves(
        &mut self,
        warmed: &mut WarmedPages,
        tables: &[TableId],
        depth: u32,
        rng: &mut SimRng,
    ) {
        let index_pages: u64 = tables
            .iter()
            .flat_map(|&t| self.catalog[t].table.indexes.iter().map(|ix| ix.pages()))
            .sum();
        let full = |pool: &crate::bufpool::BufPool| {
            pool.instances().iter().all(|i| i.free_len() <= depth)
                || pool.pages_data() >= index_pages
        };
        let mut done = full(&self.pool);
        for _ in 0..u64::from(self.scenario.pool_pages()) * 8 {
            if done {
                break;
            }
            let (t, page) = self.warm_draw(tables, rng);
            if self.warm_page(warmed, t, page, depth) {
                done = full(&self.pool);
            }
        }
    }

    /// One draw: a table, then a leaf of its primary key (secondary keys one time in
    /// four, where it has them).
    fn warm_draw(&self, tables: &[TableId], rng: &mut SimRng) -> (TableId, u32) {
        let t = tables[rng.below(tables.len() as u64) as usize];
        let table = &self.catalog[t].table;
        let ix = if table.indexes.len() > 1 && rng.chance(1, 4) {
            1
        } else {
            0
        };
        let index = &table.indexes[ix];
        // Secondary keys (sysbench's k) are uniform; primary keys follow the workload.
        let pos = if ix == 0 && self.catalog.workload_tables.contains(&t) {
            self.dist.draw(rng, table.rows)
        } else {
            rng.below(table.rows.max(1))
        };
        (t, index.leaf_of(pos))
    }

    /// Reads one page into the pool, as a miss of the workload would have, unless its
    /// instance is down to `depth` free blocks or the page is in already. Returns
    /// whether the pool may have changed.
    pub(super) fn warm_page(
        &mut self,
        warmed: &mut WarmedPages,
        table: TableId,
        page_no: u32,
        depth: u32,
    ) -> bool {
        if self.catalog[table].table.zip_kb != 0 {
            self.warm_zip_page(table, page_no, depth);
            return true;
        }
        let page = PageId {
            space: self.catalog[table].table.space,
            page_no,
        };
        // Most draws find their page read already: ask the bits before the instance.
        if warmed.contains(table, page_no) {
            return false;
        }
        let inst = self.pool.instance_of(page);
        if self.pool.instances()[usize::from(inst)].free_len() <= depth {
            return false;
        }
        debug_assert_eq!(self.pool.lookup(page), Lookup::Miss);
        if let FreeBlock::FromFreeList(f) = self.pool.get_free_block(inst, 0) {
            warmed.insert(table, page_no);
            self.pool.init_for_read(f, page);
            self.pool.complete_read(f);
            let pct = u64::from(self.scenario.buffer_pool.warm_ahi_pct);
            let table = &self.catalog[table].table;
            let index = table.index_of_page(page_no);
            let is_leaf =
                index != 0 && page_no >= table.indexes[usize::from(index) - 1].first_leaf();
            if is_leaf && pct > 0 && self.warm_rng.chance(pct, 100) {
                self.pool.ahi_mark(f, index);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warmed_pages_remember_each_page_of_each_table() {
        let mut w = WarmedPages::default();
        assert!(!w.contains(TableId(3), 200));
        w.insert(TableId(3), 200);
        w.insert(TableId(0), 63);
        assert!(w.contains(TableId(3), 200));
        assert!(w.contains(TableId(0), 63));
        assert!(!w.contains(TableId(3), 201));
        assert!(!w.contains(TableId(0), 64));
        assert!(!w.contains(TableId(1), 200));
    }
}
