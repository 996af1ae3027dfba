//! The DROP's per-extent walk meeting compressed pages, on servers with Bug#16067973
//! (MariaDB 5.5, MySQL 5.5/5.6 before the fix): every compressed-only page of each
//! freed extent is decompressed under `dict_sys` before the extent's AHI check.
//!
//! The walk (`PeekStep::Alloc`, `PeekStep::Inflate`):
//!
//! ```text
//!  dict_sys held ── for each extent of the dropped space:
//!     buf_pool[i] ── for each compressed-only page: buf_LRU_get_free_block()
//!                    (free list, else evict from unzip_LRU or the LRU tail, else
//!                    flush one dirty page) + buf_relocate()
//!     release ────── buf_zip_decompress() of those pages (a CPU burst)
//!     btr_search_drop_page_hash_when_freed() checks of the extent's pages
//! ```
//!
//! Simplification: the server does this page by page inside the check; we take an
//! extent's blocks under one hold of the instance mutex (an extent's pages share an
//! instance), then inflate them in one burst.
//!

use super::{Ddl, DdlStep, EXTENT_PAGES};
use crate::bufpool::{FrameId, FreeBlock, Lookup, PageId, SinglePageFlush};
use crate::device::IoOp;
use crate::events::EventKind;
use crate::latch::LatchId;
use crate::sim::{Next, Sim};
use crate::time::Tick;
use crate::units::PAGE_SIZE;
use crate::ThreadId;

/// The steps of a DROP's per-extent walk meeting compressed-only pages (Bug#16067973).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sim) enum PeekStep {
    /// Bug#16067973: `btr_search_drop_page_hash_when_freed()` → `buf_page_get_gen(
    /// BUF_PEEK_IF_IN_POOL)` met compressed-only pages in the extent being freed: under
    /// the instance's mutex, `buf_LRU_get_free_block()` (which may evict, or flush a
    /// dirty page) and `buf_relocate()` for each.
    Alloc,
    /// ...then release the mutex and inflate them (`buf_zip_decompress()`), a CPU
    /// burst, `dict_sys` still held.
    Inflate(u32),
    /// The inflate's burst ended: on to the extent's AHI check.
    Inflated,
}

impl Sim {
    /// Before the per-extent AHI walk checks an extent: on a server with Bug#16067973,
    /// if the extent has compressed-only pages in the pool, decompress them first
    /// (`PeekStep::Alloc`). `None` lets the walk go on.
    pub(super) fn peek_zip_pages(&mut self, d: &mut Ddl) -> Option<Next> {
        if !self.profile.mechanisms.peek_decompresses_zip_pages {
            return None;
        }
        let table = &self.catalog[d.targets[d.current].table].table;
        let (space, pages) = (table.space, table.pages);
        if table.zip_kb == 0 {
            return None;
        }
        let end = (d.next_page + EXTENT_PAGES).min(pages);
        if d.peeked_to >= end {
            return None;
        }
        if d.peeked_to == 0 {
            d.unzip = (self.sched.now, 0, 0);
        }
        d.peeked_to = end;
        let any = (d.next_page..end).any(|page_no| {
            matches!(self.pool.lookup(PageId { space, page_no }),
                Lookup::Hit(f) if self.pool.is_zip_only(f))
        });
        if !any {
            return None;
        }
        d.step = DdlStep::Peek(PeekStep::Alloc);
        Some(Next::After(Tick::ZERO))
    }

    /// The DROP's decompressions, reported when its per-extent walk ends.
    pub(super) fn finish_peek(&mut self, d: &mut Ddl) {
        let (t0, pages, evicted) = std::mem::take(&mut d.unzip);
        if pages > 0 {
            let space = self.catalog[d.targets[d.current].table].table.space;
            self.emit(EventKind::ZipPagesDecompressed {
                space,
                pages,
                evicted,
                latch: LatchId::DictSys,
                t0,
                t1: self.sched.now,
            });
        }
    }

    /// `buf_LRU_get_free_block()` for a page the DROP decompresses, instance mutex held:
    /// the free list, an LRU pass, the whole LRU, then a synchronous single-page flush
    /// (`buf_flush_single_page_from_LRU()`). Returns the block, the time it cost, and
    /// whether it had to evict.
    ///
    /// Simplification: the single-page write is charged to this step and completes in
    /// it, with the instance mutex held (InnoDB releases it around the write).
    fn block_for_unzip(&mut self, inst: u16) -> (Option<FrameId>, Tick, bool) {
        let costs = &self.profile.costs;
        let (scan_ns, op_ns) = (costs.lru_scan_ns_per_page, costs.lru_op_ns);
        let had_free = self.pool.instances()[usize::from(inst)].free_len() > 0;
        let (block, scanned) = self.pool.free_block_for_unzip(inst);
        let mut cost = Tick(op_ns) + Tick(scan_ns).times(u64::from(scanned));
        if block.is_some() {
            return (block, cost, !had_free);
        }
        self.rec.counters.wait_free += 1;
        self.signal_page_cleaner();
        match self.pool.single_page_flush(inst) {
            SinglePageFlush::Freed { scanned } => {
                cost += Tick(scan_ns).times(u64::from(scanned));
            }
            SinglePageFlush::Write { frame, scanned } => {
                cost += Tick(scan_ns).times(u64::from(scanned));
                let done = self
                    .device
                    .submit(self.sched.now + cost, IoOp::Write, PAGE_SIZE);
                cost = done - self.sched.now;
                self.pool.complete_write(frame, true);
            }
            SinglePageFlush::Nothing { scanned } => {
                return (None, cost + Tick(scan_ns).times(u64::from(scanned)), true);
            }
        }
        match self.pool.get_free_block(inst, 0) {
            FreeBlock::FromFreeList(f) | FreeBlock::Evicted { frame: f, .. } => {
                (Some(f), cost, true)
            }
            FreeBlock::NoneFound { .. } => (None, cost, true),
        }
    }

    pub(super) fn step_peek(&mut self, t: ThreadId, d: &mut Ddl, step: PeekStep) -> Next {
        let ti = d.targets[d.current].table;
        match step {
            PeekStep::Alloc => {
                let space = self.catalog[ti].table.space;
                let first = PageId {
                    space,
                    page_no: d.next_page,
                };
                // An extent's pages all belong to one instance (buf_pool_get()).
                let inst = self.pool.instance_of(first);
                if !self.acquire(LatchId::BufPool(inst), t) {
                    return Next::Parked;
                }
                let mut cost = Tick::ZERO;
                let mut n = 0;
                for page_no in d.next_page..d.peeked_to {
                    let page = PageId { space, page_no };
                    if !matches!(self.pool.lookup(page),
                        Lookup::Hit(f) if self.pool.is_zip_only(f) && self.pool.can_relocate(f))
                    {
                        continue;
                    }
                    let (block, c, evicted) = self.block_for_unzip(inst);
                    cost += c;
                    let Some(block) = block else {
                        // Nothing evictable: the rest of the extent stays compressed.
                        break;
                    };
                    // Finding the block may have evicted this very page.
                    match self.pool.lookup(page) {
                        Lookup::Hit(z) if self.pool.is_zip_only(z) && self.pool.can_relocate(z) => {
                            self.pool.unzip(z, block);
                            n += 1;
                            d.unzip.2 += u64::from(evicted);
                        }
                        _ => self.pool.release_free_block(block),
                    }
                }
                d.unzip.1 += u64::from(n);
                d.step = DdlStep::Peek(PeekStep::Inflate(n));
                Next::After(cost)
            }
            PeekStep::Inflate(n) => {
                let first = PageId {
                    space: self.catalog[ti].table.space,
                    page_no: d.next_page,
                };
                let inst = self.pool.instance_of(first);
                self.release(LatchId::BufPool(inst), t, true);
                d.step = DdlStep::Peek(PeekStep::Inflated);
                let inflate =
                    Tick(self.profile.costs.zip_decompress_ns_per_page).times(u64::from(n));
                self.cpu_run(t, inflate)
            }
            PeekStep::Inflated => {
                self.cpu_done();
                d.step = DdlStep::AhiFreeExtents;
                Next::After(Tick::ZERO)
            }
        }
    }
}
