//! The warm-up: the pool as a long-running workload would have left it, built before
//! the first tick.
//!
//! A long warm-up is a stream of draws from the key distribution (a table, one of
//! its indexes, a key); a draw reads its leaf unless it is in already. Only the order
//! in which leaves are *first* drawn shapes the pool, and that order is computed in
//! bulk: put the draws on a Poisson clock of rate one, and each leaf's draws become
//! independent Poisson streams at the leaf's chance `p` (the table's, times the
//! index's, times the keys under the leaf by [`KeyDist::cdf`]), so its first draw
//! comes after `E / p` draws, `E` exponential. Sorting the leaves by that time gives
//! the order of first reads with exactly the law of the draw-by-draw process (whose
//! cap on draws becomes a horizon on that clock), for one random number a leaf: a
//! 128 GB pool took tens of millions of draws, most of them of pages read already (a
//! coupon collector's wait).
//!
//! Each page is tried once (the internal pages, each leaf's one arrival, the cached
//! partitions' pages), so no "already in?" is asked: a page-hash lookup is a random
//! read into tens of megabytes.
//!
//! [`KeyDist::cdf`]: crate::workload::KeyDist::cdf

use super::catalog::TableId;
use super::Sim;
use crate::bufpool::{FreeBlock, Lookup, PageId};
use crate::detmath;
use crate::profile::Profile;
use crate::rng::SimRng;
use crate::scenario::Scenario;

/// A uniform number in (0, 1] (never 0: its logarithm is taken).
fn unit(rng: &mut SimRng) -> f64 {
    ((rng.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
}

/// The least `u` whose exponential `-ln(u) / chance` is within `horizon`, from
/// `x = chance * horizon`: a leaf with a smaller one is not drawn in time, which is
/// known without its logarithm.
fn least_unit(x: f64) -> f64 {
    if x > 700.0 {
        0.0
    } else {
        detmath::exp(-x)
    }
}

/// The last least unit computed, `least_unit(x)`, which answers for a nearby `x`
/// too whenever `u` is far enough from it: `e^-x` moves by a factor within
/// `1 ± 1.01 |dx|` for `|dx| < 0.01`, and `detmath::exp` is within 1e-12 of it, so a
/// `u` outside `least · (1 ± (2 |dx| + 1e-9))` is on the same side of either. Only
/// when it is not is `least_unit(x)` computed: the answer is always the exact one.
#[derive(Clone, Copy, Debug)]
struct LeastUnit {
    x: f64,
    least: f64,
}

impl LeastUnit {
    const NONE: LeastUnit = LeastUnit {
        x: f64::NAN,
        least: 0.0,
    };

    /// Whether `u >= least_unit(x)`.
    fn reaches(&mut self, u: f64, x: f64) -> bool {
        if x != self.x {
            let dx = (x - self.x).abs();
            if x <= 700.0 && self.x <= 700.0 && dx < 0.01 {
                let margin = 2.0 * dx + 1e-9;
                if u >= self.least * (1.0 + margin) {
                    return true;
                }
                if u < self.least * (1.0 - margin) {
                    return false;
                }
            }
            *self = LeastUnit {
                x,
                least: least_unit(x),
            };
        }
        u >= self.least
    }
}

/// Sorts the arrivals as `sort_unstable` would (by time, then table, then page):
/// a least-significant-digit radix sort on that key, 11 bits a pass, skipping the
/// digits every arrival shares. Drawn table by table and page by page, the arrivals
/// are most often in (table, page) order already, and then only the time is sorted
/// on (a stable sort keeps that order among equal times).
fn sort_arrivals(v: &mut Vec<Arrival>) {
    if v.len() < 2 {
        return;
    }
    let mut from = std::mem::take(v);
    let mut to = from.clone();
    let presorted = from
        .windows(2)
        .all(|p| (p[0].table, p[0].page) <= (p[1].table, p[1].page));
    if !presorted {
        for shift in [0, RADIX_BITS, 2 * RADIX_BITS] {
            radix_pass(&mut from, &mut to, shift, |a| u64::from(a.page));
        }
        for shift in [0, RADIX_BITS, 2 * RADIX_BITS] {
            radix_pass(&mut from, &mut to, shift, |a| u64::from(a.table));
        }
    }
    for k in 0..64u32.div_ceil(RADIX_BITS) {
        radix_pass(&mut from, &mut to, k * RADIX_BITS, |a| a.at);
    }
    *v = from;
}

/// Bits of a radix-sort digit.
const RADIX_BITS: u32 = 11;

/// One stable pass of `sort_arrivals` on the digit of `key` at `shift`, from `from`
/// into `to`, then swapped; nothing when every arrival has the same digit.
fn radix_pass(
    from: &mut Vec<Arrival>,
    to: &mut Vec<Arrival>,
    shift: u32,
    key: impl Fn(&Arrival) -> u64,
) {
    const MASK: u64 = (1 << RADIX_BITS) - 1;
    let digit = |a: &Arrival| ((key(a) >> shift) & MASK) as usize;
    let mut count = [0u32; 1 << RADIX_BITS];
    for a in from.iter() {
        count[digit(a)] += 1;
    }
    if count[digit(&from[0])] as usize == from.len() {
        return;
    }
    let mut sum = 0;
    for c in count.iter_mut() {
        (*c, sum) = (sum, sum + *c);
    }
    for a in from.iter() {
        let slot = &mut count[digit(a)];
        to[*slot as usize] = *a;
        *slot += 1;
    }
    std::mem::swap(from, to);
}

/// A leaf's first draw in the warm-up: after `at` draws, of `tables[table]`'s page
/// `page`. Ordered by the time first (a non-negative `f64` orders as its bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Arrival {
    at: u64,
    table: u32,
    page: u32,
}

/// What a draw of one table needs, looked up once.
#[derive(Clone, Copy, Debug)]
struct DrawPlan {
    /// Whether a draw goes to its first secondary key one time in four.
    secondary: bool,
    /// Whether positions in its primary key follow the workload's distribution.
    follows_workload: bool,
}

impl DrawPlan {
    /// The indexes a draw reads: the primary key, and the first secondary one.
    fn indexes(self) -> usize {
        1 + usize::from(self.secondary)
    }

    /// The chance that a draw of the table reads index `index`: the first secondary
    /// key one time in four, where the table has one.
    fn index_chance(self, index: usize) -> f64 {
        match (self.secondary, index) {
            (false, _) => 1.0,
            (true, 0) => 0.75,
            (true, _) => 0.25,
        }
    }
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
    /// Each leaf's first draw, table by table, index by index, leaf by leaf.
    Draws {
        table: usize,
        index: usize,
        leaf: u64,
    },
    /// The leaves read in the order of their first draws, from `arrivals[next]`.
    Leaves {
        next: usize,
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
    rng: SimRng,
    /// Tables drawn from: not the partitions, which are read in whole or not at all,
    /// after the rest, with room kept for them.
    tables: Vec<TableId>,
    /// Per table of `tables`, what its draws need.
    plans: Vec<DrawPlan>,
    /// The leaves' first draws within `horizon`, sorted once every one is drawn.
    arrivals: Vec<Arrival>,
    /// How many draws the warm-up makes at most: enough to fill the pool when the
    /// data is larger than it.
    horizon: f64,
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

/// The most pages or draws one call of a warm-up stage takes (see [`Sim::warm_step`]).
const WARM_SLICE: u64 = 1 << 16;

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
        // A draw reads the primary key, or the first secondary one if there is one.
        let plans = tables
            .iter()
            .map(|&t| {
                let ixs = &self.catalog[t].table.indexes;
                DrawPlan {
                    secondary: ixs.len() > 1,
                    follows_workload: self.catalog.workload_tables.contains(&t),
                }
            })
            .collect();
        Warming {
            rng: SimRng::stream(self.scenario.seed, "warm"),
            tables,
            plans,
            arrivals: Vec::new(),
            horizon: f64::from(self.scenario.pool_pages()) * 8.0,
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
    /// In wasm each stage is a function of its own: inlined here they made one
    /// 10 kB function the browser's optimising compiler took about 100 ms to compile
    /// beside the page's first frames (see `Sim::step_thread_until_it_waits`). And a
    /// stage is called for [`WARM_SLICE`] at most: V8 optimises a wasm function for
    /// its next calls, never the call under way, so a whole build in one call would
    /// run its stages' loops in baseline code to the end.
    pub(super) fn warm_step(&mut self, w: &mut Warming, mut work: u64) -> bool {
        while work > 0 {
            let slice = work.min(WARM_SLICE);
            let spent = match w.stage {
                Stage::Internal { .. } => self.warm_internal_pages(w, slice),
                Stage::Draws { .. } => self.warm_draws(w, slice),
                Stage::Leaves { .. } => self.warm_leaves(w, slice),
                Stage::Partitions { .. } => self.warm_partitions(w, slice),
                Stage::Done => return true,
            };
            work = work.saturating_sub(spent.max(1));
        }
        w.stage == Stage::Done
    }

    /// Every internal page of every index first: every search passes through them.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `Sim::warm_step`
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
                w.stage = if w.full {
                    Stage::Partitions {
                        partition: 0,
                        page: 0,
                    }
                } else {
                    Stage::Draws {
                        table: 0,
                        index: 0,
                        leaf: 0,
                    }
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
            self.warm_page(t, root + page as u32, w.depth);
            page += 1;
            spent += 1;
        }
        w.stage = Stage::Internal { table, index, page };
        spent
    }

    /// Each leaf's first draw (one random number a leaf), then the leaves sorted by
    /// it. A leaf no draw reaches within the horizon is left out.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `Sim::warm_step`
    fn warm_draws(&mut self, w: &mut Warming, budget: u64) -> u64 {
        let Stage::Draws {
            mut table,
            mut index,
            mut leaf,
        } = w.stage
        else {
            return 0;
        };
        let table_chance = 1.0 / w.tables.len() as f64;
        // Runs of leaves share a chance (a uniform index, the hot and cold keys of
        // sysbench's special distribution), to within rounding: their least unit is
        // computed once a run.
        let mut least = LeastUnit::NONE;
        let mut spent = 0;
        while spent < budget {
            let Some(&t) = w.tables.get(table) else {
                sort_arrivals(&mut w.arrivals);
                w.stage = Stage::Leaves { next: 0 };
                return spent + w.arrivals.len() as u64 / 8;
            };
            let plan = w.plans[table];
            if index >= plan.indexes() {
                (table, index, leaf) = (table + 1, 0, 0);
                continue;
            }
            let ix = &self.catalog[t].table.indexes[index];
            if leaf >= ix.leaves() {
                (index, leaf) = (index + 1, 0);
                continue;
            }
            let chance = table_chance * self.leaf_chance(t, plan, index, leaf);
            let u = unit(&mut w.rng);
            if chance > 0.0 && least.reaches(u, chance * w.horizon) {
                w.arrivals.push(Arrival {
                    at: (-detmath::ln(u) / chance).to_bits(),
                    table: table as u32,
                    page: ix.first_leaf() + leaf as u32,
                });
            }
            leaf += 1;
            spent += 1;
        }
        w.stage = Stage::Draws { table, index, leaf };
        spent
    }

    /// The chance that a draw of table `t` lands on leaf `leaf` of its index `index`:
    /// a draw takes a position in `0..rows` (by the workload's distribution in a
    /// workload table's primary key, uniformly otherwise) and reads the leaf holding
    /// it, the last leaf taking every position past the others.
    fn leaf_chance(&self, t: TableId, plan: DrawPlan, index: usize, leaf: u64) -> f64 {
        let table = &self.catalog[t].table;
        let ix = &table.indexes[index];
        let n = table.rows.max(1);
        let lo = leaf * ix.records_per_leaf;
        let hi = if leaf + 1 >= ix.leaves() {
            n
        } else {
            (leaf + 1) * ix.records_per_leaf
        };
        let below = |x: u64| {
            if index == 0 && plan.follows_workload {
                self.dist.cdf(x, n)
            } else {
                x.min(n) as f64 / n as f64
            }
        };
        plan.index_chance(index) * (below(hi) - below(lo)).max(0.0)
    }

    /// The leaves in the order of their first draws, until the pool is full: each
    /// instance down to its free-block target (a page for a full instance is not
    /// read, as a draw's was not), or every index page read. The stop test sums over
    /// the instances, so it is asked only after a read.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `Sim::warm_step`
    fn warm_leaves(&mut self, w: &mut Warming, budget: u64) -> u64 {
        let Stage::Leaves { mut next } = w.stage else {
            return 0;
        };
        let mut spent = 0;
        while spent < budget {
            let Some(a) = w.arrivals.get(next).filter(|_| !w.full).copied() else {
                w.arrivals = Vec::new();
                w.stage = Stage::Partitions {
                    partition: 0,
                    page: 0,
                };
                return spent;
            };
            let t = w.tables[a.table as usize];
            if self.warm_page(t, a.page, w.depth) {
                w.full = self.warm_full(w);
            }
            next += 1;
            spent += 1;
        }
        w.stage = Stage::Leaves { next };
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
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `Sim::warm_step`
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
            self.warm_page(t, page, depth);
            page += 1;
            spent += 1;
        }
        w.stage = Stage::Partitions { partition, page };
        spent
    }

    /// Reads one page into the pool, as a miss of the workload would have, unless its
    /// instance is down to `depth` free blocks (each page is tried once). Returns
    /// whether the pool may have changed.
    pub(super) fn warm_page(&mut self, table: TableId, page_no: u32, depth: u32) -> bool {
        if self.catalog[table].table.zip_kb != 0 {
            self.warm_zip_page(table, page_no, depth);
            return true;
        }
        let page = PageId {
            space: self.catalog[table].table.space,
            page_no,
        };
        let inst = self.pool.instance_of(page);
        if self.pool.instances()[usize::from(inst)].free_len() <= depth {
            return false;
        }
        debug_assert_eq!(self.pool.lookup(page), Lookup::Miss);
        if let FreeBlock::FromFreeList(f) = self.pool.get_free_block(inst, 0) {
            self.pool.init_for_read(f, page);
            self.pool.complete_read(f);
            let pct = u64::from(self.scenario.buffer_pool.warm_ahi_pct);
            let table = &self.catalog[table].table;
            let index = table.leaf_index_of(page_no);
            if index != 0 && pct > 0 && self.warm_rng.chance(pct, 100) {
                self.pool.ahi_mark(f, index);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The draw-by-draw process the bulk warm-up stands for: `draws` draws of a table,
    /// an index and a key; how many distinct leaves each table's indexes were read at.
    fn drawn_one_by_one(sim: &Sim, w: &Warming, draws: u64) -> Vec<usize> {
        let mut rng = SimRng::stream(3, "reference");
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..draws {
            let k = rng.below(w.tables.len() as u64) as usize;
            let (plan, table) = (w.plans[k], &sim.catalog[w.tables[k]].table);
            let ix = usize::from(plan.secondary && rng.chance(1, 4));
            let pos = if ix == 0 && plan.follows_workload {
                sim.dist.draw(&mut rng, table.rows)
            } else {
                rng.below(table.rows.max(1))
            };
            seen.insert((k, table.indexes[ix].leaf_of(pos)));
        }
        let mut per_table = vec![0; w.tables.len()];
        for (k, _) in seen {
            per_table[k] += 1;
        }
        per_table
    }

    #[test]
    fn the_first_draws_have_the_law_of_the_draws_one_by_one() {
        for scenario in ["steady-oltp-rw", "drop-table-demo", "full-pool-writes"] {
            let mut sim = Sim::builtin(scenario, None).unwrap();
            let mut w = sim.warm_start();
            w.stage = Stage::Draws {
                table: 0,
                index: 0,
                leaf: 0,
            };
            while w.stage != (Stage::Leaves { next: 0 }) {
                sim.warm_draws(&mut w, 10_000);
            }
            assert!(w.arrivals.windows(2).all(|p| p[0] <= p[1]), "sorted");
            for draws in [1_000u64, 5_000, 20_000, 300_000] {
                let reference = drawn_one_by_one(&sim, &w, draws);
                let mut bulk = vec![0; w.tables.len()];
                for a in &w.arrivals {
                    if f64::from_bits(a.at) <= draws as f64 {
                        bulk[a.table as usize] += 1;
                    }
                }
                for (k, (&b, &r)) in bulk.iter().zip(&reference).enumerate() {
                    // A distinct count's spread is below the square root of its mean.
                    let slack = 4.0 * (r as f64).sqrt() + 0.01 * r as f64 + 5.0;
                    assert!(
                        (b as f64 - r as f64).abs() <= slack,
                        "{scenario}, table {k}, {draws} draws: bulk {b}, one by one {r}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_radix_sort_orders_arrivals_as_sort_unstable() {
        let mut rng = SimRng::stream(9, "arrivals");
        for (len, tables, pages) in [(0, 1, 1), (1, 1, 1), (5, 2, 3), (3000, 3, 5000)] {
            for spread in [1u64, 1 << 20, u64::MAX] {
                let mut v: Vec<Arrival> = (0..len)
                    .map(|_| Arrival {
                        // Times of exponentials, and ties (a narrow spread).
                        at: if spread == u64::MAX {
                            (-detmath::ln(unit(&mut rng)) * 1e6).to_bits()
                        } else {
                            rng.below(spread)
                        },
                        table: rng.below(tables) as u32,
                        page: rng.below(pages) as u32 * 4099,
                    })
                    .collect();
                let mut want = v.clone();
                want.sort_unstable();
                let mut drawn = v.clone();
                sort_arrivals(&mut v);
                assert_eq!(v, want, "{len} arrivals, spread {spread}");
                // As drawn: in (table, page) order already.
                drawn.sort_unstable_by_key(|a| (a.table, a.page));
                sort_arrivals(&mut drawn);
                assert_eq!(
                    drawn, want,
                    "{len} arrivals drawn in order, spread {spread}"
                );
            }
        }
    }

    #[test]
    fn a_nearby_least_unit_answers_as_the_exact_one() {
        let mut rng = SimRng::stream(9, "least");
        let mut memo = LeastUnit::NONE;
        for x0 in [1e-6, 0.003, 0.5, 1.0, 7.0, 40.0, 699.99, 700.0, 750.0] {
            for _ in 0..20_000 {
                // x a few ulps to a few thousandths off, u near the least unit or not.
                let x = x0 * (1.0 + (rng.below(2001) as f64 - 1000.0) * 1e-15)
                    + rng.below(3) as f64 * 1e-3;
                let exact = least_unit(x);
                let u = match rng.below(3) {
                    0 => unit(&mut rng),
                    1 => exact * (1.0 + (rng.below(2001) as f64 - 1000.0) * 1e-12),
                    _ => exact,
                };
                assert_eq!(memo.reaches(u, x), u >= exact, "x {x}, u {u}");
            }
        }
    }

    #[test]
    fn stepping_the_warm_up_leaves_the_pool_of_one_call() {
        let scenario = Scenario::builtin("drop-table-demo").unwrap();
        let profile = Profile::builtin(&scenario.profile).unwrap();
        let whole = SimBuild::new(scenario.clone(), profile.clone())
            .unwrap()
            .finish();
        let mut build = SimBuild::new(scenario, profile).unwrap();
        while !build.step(777) {}
        let stepped = build.finish();
        assert!(whole.pool.pages_data() > 0);
        assert_eq!(whole.pool.pages_data(), stepped.pool.pages_data());
        let (mut whole, mut stepped) = (whole, stepped);
        for s in [&mut whole, &mut stepped] {
            s.run_until(crate::Tick::from_secs(2));
        }
        assert_eq!(whole.trace_hash(), stepped.trace_hash());
    }
}
