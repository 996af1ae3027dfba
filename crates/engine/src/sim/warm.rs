//! The warm-up: the pool as a long-running workload would have left it, built before
//! the first tick.
//!
//! A 128 GB pool takes tens of millions of draws from the key distribution, most of
//! them of pages already read. "Already in?" is asked of [`WarmedPages`], one bit a
//! page, never of the pool's page hash: a lookup there is a random read into tens of
//! megabytes, a cache miss per draw, and was most of the time it took to build I1.
//! The pool ends exactly as with the page-hash lookup (only the warm-up puts pages in,
//! and none leave), so the trace does not change.
//!
//! A draw of a table whose every drawable leaf is read already cannot read a page: it
//! is passed over, its random numbers taken from the stream without being made into a
//! key (`warm_pass_over`). On I1 the small workload tables are read within the
//! first few million draws and the 10 GB table takes tens of millions more (a coupon
//! collector's wait): most draws are passed over.

use super::catalog::TableId;
use super::Sim;
use crate::bufpool::{FreeBlock, Lookup, PageId};
use crate::profile::Profile;
use crate::rng::SimRng;
use crate::scenario::Scenario;

/// Which index of the table a draw reads.
fn warm_index(plan: DrawPlan, rng: &mut SimRng) -> usize {
    if plan.secondary && rng.chance(1, 4) {
        1
    } else {
        0
    }
}

/// A draw of a table passed over: the numbers [`Sim::warm_key`] would take from the
/// stream, taken without making a key (`key_numbers`: what a draw from the workload's
/// distribution takes).
fn warm_pass_over(plan: DrawPlan, key_numbers: u32, rng: &mut SimRng) {
    let ix = warm_index(plan, rng);
    let numbers = if ix == 0 && plan.follows_workload {
        key_numbers
    } else {
        1
    };
    for _ in 0..numbers {
        rng.next_u64();
    }
}

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

/// What a draw of one table needs, looked up once.
#[derive(Clone, Copy, Debug)]
struct DrawPlan {
    /// Whether a draw goes to its first secondary key one time in four.
    secondary: bool,
    /// Whether positions in its primary key follow the workload's distribution.
    follows_workload: bool,
    /// The leaves a draw can land on not read yet; at 0 its draws are passed over.
    unread: u64,
}

/// Where a warm-up is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Internal pages of `tables[table]`'s index `index`, from its root + `page`.
    Internal {
        table: usize,
        index: usize,
        page: u64,
    },
    /// Leaf pages drawn from the key distribution, `left` draws at most.
    Leaves {
        left: u64,
    },
    /// The cached partitions, page by page in file order.
    Partitions {
        partition: usize,
        page: u32,
    },
    Done,
}

/// A warm-up under way (`Sim::warm_pool` in slices): what a caller with a frame budget
/// steps through to build a 128 GB pool without holding its thread for seconds, and
/// shows progress of. Stepping it to the end leaves the same pool, page for page, as
/// one call: the stages and the random stream are the same, only paused.
#[derive(Debug)]
pub(super) struct Warming {
    warmed: WarmedPages,
    rng: SimRng,
    /// Tables drawn from: not the partitions, which are read in whole or not at all,
    /// after the rest, with room kept for them.
    tables: Vec<TableId>,
    /// Per table of `tables`, what its draws need.
    plans: Vec<DrawPlan>,
    partitions: Vec<TableId>,
    /// `innodb_lru_scan_depth` plus the blocks kept for the cached partitions.
    depth: u32,
    reserve: u32,
    index_pages: u64,
    /// Whether the leaf stage's stop test held at the last page read.
    full: bool,
    stage: Stage,
}

/// A server being built: [`Sim::new`] in slices, for a caller that must not hold its
/// thread for the seconds a 128 GB pool's warm-up takes (the browser's page). Step it
/// until it says it is done (or call [`SimBuild::finish`] at any point, which does
/// the rest at once); the server is the same, tick for tick, as `Sim::new`'s.
#[derive(Debug)]
pub struct SimBuild {
    sim: Sim,
    warm_up: WarmUp,
}

/// The warm-up a server still has to run before its first tick, kept beside the
/// server ([`SimBuild::into_parts`]) by a caller that shows the server while its pool
/// fills: the server can be read meanwhile (its pool, its tables), not run.
#[derive(Debug)]
pub struct WarmUp {
    warming: Option<Warming>,
    /// The pool it fills, in frames: a check that it is stepped with its own server.
    frames: u64,
}

impl SimBuild {
    /// Checks the scenario and sets the server up, its pool still empty.
    pub fn new(scenario: Scenario, profile: Profile) -> Result<SimBuild, String> {
        let sim = Sim::assemble(scenario, profile)?;
        let warming = sim.scenario.buffer_pool.warm.then(|| sim.warm_start());
        let frames = sim.pool.pages_total();
        Ok(SimBuild {
            sim,
            warm_up: WarmUp { warming, frames },
        })
    }

    /// Goes on with the warm-up for about `work` pages (tried or drawn; a 128 GB pool
    /// takes some tens of millions). True once the pool is warm.
    pub fn step(&mut self, work: u64) -> bool {
        self.warm_up.step(&mut self.sim, work)
    }

    /// Frames taken so far (off the free list), and the pool's size in frames.
    pub fn progress(&self) -> (u64, u64) {
        WarmUp::progress(&self.sim)
    }

    /// The server, warm and with its threads started, at virtual time zero.
    pub fn finish(mut self) -> Sim {
        self.warm_up.finish(&mut self.sim);
        self.sim
    }

    /// The server as built so far (not to be run yet) and the warm-up still to do.
    pub fn into_parts(self) -> (Sim, WarmUp) {
        (self.sim, self.warm_up)
    }
}

impl WarmUp {
    /// Goes on with `sim`'s warm-up for about `work` pages. True once the pool is warm.
    pub fn step(&mut self, sim: &mut Sim, work: u64) -> bool {
        assert_eq!(
            sim.pool.pages_total(),
            self.frames,
            "a warm-up of another server"
        );
        match &mut self.warming {
            Some(w) => sim.warm_step(w, work),
            None => true,
        }
    }

    /// Frames of `sim`'s pool taken so far (off the free list), and its size in frames.
    pub fn progress(sim: &Sim) -> (u64, u64) {
        let total = sim.pool.pages_total();
        (total - sim.pool.pages_free(), total)
    }

    /// Does the rest of the warm-up at once and starts `sim`'s threads: the server at
    /// virtual time zero, the same as [`Sim::new`]'s.
    pub fn finish(mut self, sim: &mut Sim) {
        self.step(sim, u64::MAX);
        sim.start_threads();
    }
}

impl Sim {
    /// Fills the pool the way the workload would have after a long warm-up: leaf pages
    /// drawn from the workload's key distribution (with every internal page of their
    /// trees), until each instance is down to `innodb_lru_scan_depth` free blocks, the
    /// steady state the page cleaner keeps. Tables the workload does not use are warmed
    /// uniformly, as earlier traffic would have left them.
    pub(super) fn warm_start(&self) -> Warming {
        let tables: Vec<TableId> = self
            .catalog
            .ids()
            .filter(|&t| self.catalog[t].table.partition.is_none())
            .collect();
        let reserve = self.cached_partitions_reserve();
        let index_pages = tables
            .iter()
            .flat_map(|&t| self.catalog[t].table.indexes.iter().map(|ix| ix.pages()))
            .sum();
        // warm_key() draws from the primary key, and from the first secondary one if
        // there is one.
        let plans = tables
            .iter()
            .map(|&t| {
                let ixs = &self.catalog[t].table.indexes;
                DrawPlan {
                    secondary: ixs.len() > 1,
                    follows_workload: self.catalog.workload_tables.contains(&t),
                    unread: ixs.iter().take(2).map(|ix| ix.leaves()).sum(),
                }
            })
            .collect();
        Warming {
            warmed: WarmedPages::default(),
            rng: SimRng::stream(self.scenario.seed, "warm"),
            tables,
            plans,
            partitions: self.cached_partitions(),
            depth: self.scenario.buffer_pool.lru_scan_depth + reserve,
            reserve,
            index_pages,
            full: false,
            stage: Stage::Internal {
                table: 0,
                index: 0,
                page: 0,
            },
        }
    }

    /// Goes on with `w` for at most `work` pages tried or draws; true once it is done.
    pub(super) fn warm_step(&mut self, w: &mut Warming, mut work: u64) -> bool {
        while work > 0 {
            let spent = match w.stage {
                Stage::Internal { .. } => self.warm_internal_pages(w, work),
                Stage::Leaves { .. } => self.warm_leaves(w, work),
                Stage::Partitions { .. } => self.warm_partitions(w, work),
                Stage::Done => return true,
            };
            work = work.saturating_sub(spent.max(1));
        }
        w.stage == Stage::Done
    }

    /// Every internal page of every index first: every search passes through them.
    fn warm_internal_pages(&mut self, w: &mut Warming, budget: u64) -> u64 {
        let Stage::Internal {
            mut table,
            mut index,
            mut page,
        } = w.stage
        else {
            return 0;
        };
        let mut spent = 0;
        while spent < budget {
            let Some(&t) = w.tables.get(table) else {
                w.full = self.warm_full(w);
                w.stage = Stage::Leaves {
                    left: u64::from(self.scenario.pool_pages()) * 8,
                };
                return spent;
            };
            let Some(ix) = self.catalog[t].table.indexes.get(index) else {
                (table, index, page) = (table + 1, 0, 0);
                continue;
            };
            let (internal, root) = (ix.pages() - ix.leaves(), ix.root());
            if page >= internal {
                (index, page) = (index + 1, 0);
                continue;
            }
            self.warm_page(&mut w.warmed, t, root + page as u32, w.depth);
            page += 1;
            spent += 1;
        }
        w.stage = Stage::Internal { table, index, page };
        spent
    }

    /// Leaf pages drawn from the workload's key distribution: enough draws to fill the
    /// pool when the data is larger than it; a smaller data set leaves the rest free, as
    /// on a real server. The stop test sums over the instances, so it is asked again
    /// only after a draw that read a page: one that found its page in changed nothing.
    fn warm_leaves(&mut self, w: &mut Warming, budget: u64) -> u64 {
        let Stage::Leaves { mut left } = w.stage else {
            return 0;
        };
        let mut spent = 0;
        while spent < budget {
            if w.full || left == 0 {
                w.stage = Stage::Partitions {
                    partition: 0,
                    page: 0,
                };
                return spent;
            }
            let k = w.rng.below(w.tables.len() as u64) as usize;
            let (t, plan) = (w.tables[k], w.plans[k]);
            if plan.unread == 0 {
                warm_pass_over(plan, self.dist.stream_per_draw(), &mut w.rng);
            } else {
                let page = self.warm_key(t, plan, &mut w.rng);
                let known = w.warmed.contains(t, page);
                if self.warm_page(&mut w.warmed, t, page, w.depth) {
                    w.full = self.warm_full(w);
                }
                if !known && w.warmed.contains(t, page) {
                    w.plans[k].unread -= 1;
                }
            }
            left -= 1;
            spent += 1;
        }
        w.stage = Stage::Leaves { left };
        spent
    }

    /// Every instance down to its free-block target, or every index page read.
    fn warm_full(&self, w: &Warming) -> bool {
        self.pool
            .instances()
            .iter()
            .all(|i| i.free_len() <= w.depth)
            || self.pool.pages_data() >= w.index_pages
    }

    /// Reads every page of the cached partitions, in file order as a scan would, while
    /// each instance has more than `innodb_lru_scan_depth` free blocks.
    fn warm_partitions(&mut self, w: &mut Warming, budget: u64) -> u64 {
        let Stage::Partitions {
            mut partition,
            mut page,
        } = w.stage
        else {
            return 0;
        };
        let depth = w.depth - w.reserve;
        let mut spent = 0;
        while spent < budget {
            let Some(&t) = w.partitions.get(partition) else {
                // The history the unzip_LRU rule weighs starts with the run, not the
                // warm-up.
                self.pool.clear_lru_stat();
                w.stage = Stage::Done;
                return spent;
            };
            if page >= self.catalog[t].table.used_pages() {
                (partition, page) = (partition + 1, 0);
                continue;
            }
            self.warm_page(&mut w.warmed, t, page, depth);
            page += 1;
            spent += 1;
        }
        w.stage = Stage::Partitions { partition, page };
        spent
    }

    /// One draw, after the table `t` was drawn: a leaf of its primary key (secondary
    /// keys one time in four, where it has them).
    fn warm_key(&self, t: TableId, plan: DrawPlan, rng: &mut SimRng) -> u32 {
        let table = &self.catalog[t].table;
        let ix = warm_index(plan, rng);
        let index = &table.indexes[ix];
        // Secondary keys (sysbench's k) are uniform; primary keys follow the workload.
        let pos = if ix == 0 && plan.follows_workload {
            self.dist.draw(rng, table.rows)
        } else {
            rng.below(table.rows.max(1))
        };
        index.leaf_of(pos)
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
    fn a_draw_passed_over_takes_what_the_draw_takes_from_the_stream() {
        for scenario in [
            "steady-oltp-rw",
            "drop-table-demo",
            "i5-compressed-partition-drop",
        ] {
            let sim = Sim::builtin(scenario, None).unwrap();
            let w = sim.warm_start();
            for (&t, &plan) in w.tables.iter().zip(&w.plans) {
                let mut drawn = SimRng::stream(7, "t");
                let mut passed = drawn.clone();
                for _ in 0..2_000 {
                    sim.warm_key(t, plan, &mut drawn);
                    warm_pass_over(plan, sim.dist.stream_per_draw(), &mut passed);
                }
                assert_eq!(drawn.next_u64(), passed.next_u64(), "{scenario} {t:?}");
            }
        }
    }

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
