//! A statement's page work, one step at a time: `buf_page_get_gen()`'s look in the
//! page hash, a page made young, read into a free block (evicting, or writing a dirty
//! page first when none is clean), unzipped or freed when stale, and the change noted
//! on the page (`mtr_commit()`). The client's step loop ([`super`]) runs these steps;
//! the statements of other sessions (`session::statement`) too.

use super::{after, PageWalk, WalkNext, WalkStep, PARKED};
use super::{FREE_BLOCK_SLEEP, IO_WAIT_POLL};
use crate::bufpool::{FreeBlock, Lookup, PageId, SinglePageFlush, LRU_SEARCH_SCAN_THRESHOLD};
use crate::device::IoOp;
use crate::latch::LatchId;
use crate::rng::SimRng;
use crate::sim::{Next, Sim};
use crate::time::Tick;
use crate::units::PAGE_SIZE;
use crate::ThreadId;

impl Sim {
    /// One step of a statement's page work. Latches are held only across the steps
    /// that need them; a thread parked in a latch queue is woken by the release.
    ///
    /// It is inlined into the client's step loop, with the steps every page found in
    /// the pool takes (the look, the AHI build, `PageDone`): those are most of a run's
    /// steps, and the calls cost about as much as the steps (I1: 4% of its instructions).
    #[inline(always)]
    pub(in crate::sim) fn step_page_walk(
        &mut self,
        t: ThreadId,
        w: &mut PageWalk,
        rng: &mut SimRng,
    ) -> WalkNext {
        let lru_op = Tick(self.profile.costs.lru_op_ns);
        match w.step {
            WalkStep::BufPageGet => self.page_walk_buf_page_get(w),
            WalkStep::MakeYoung => self.page_walk_make_young(t, w),
            WalkStep::MakeYoungDone => {
                let latch = LatchId::BufPool(self.pool.instance_of(w.page));
                self.release(latch, t, false);
                w.step = WalkStep::PageDone;
                after(Tick::ZERO)
            }
            WalkStep::Unzip => self.page_walk_unzip(t, w),
            WalkStep::UnzipDone => {
                let latch = LatchId::BufPool(self.pool.instance_of(w.page));
                self.release(latch, t, false);
                w.step = WalkStep::UnzipInflated;
                WalkNext::Step(self.cpu_run(t, Tick(self.profile.costs.zip_decompress_ns_per_page)))
            }
            WalkStep::UnzipInflated => {
                self.cpu_done();
                w.step = WalkStep::PageDone;
                after(Tick::ZERO)
            }
            WalkStep::FreeStale => self.page_walk_free_stale(t, w),
            WalkStep::FreeStaleDone => {
                let latch = LatchId::BufPool(self.pool.instance_of(w.page));
                self.release(latch, t, false);
                w.step = WalkStep::BufPageGet;
                self.rec.counters.read_requests -= 1;
                after(Tick::ZERO)
            }
            WalkStep::GetFreeBlock => self.page_walk_get_free_block(t, w),
            WalkStep::SinglePageWrite => {
                let latch = LatchId::BufPool(self.pool.instance_of(w.page));
                self.release(latch, t, false);
                let done = self.device.submit(self.sched.now, IoOp::Write, PAGE_SIZE);
                w.step = WalkStep::SinglePageWriteDone;
                after(done - self.sched.now)
            }
            WalkStep::SinglePageWriteDone => {
                let latch = LatchId::BufPool(self.pool.instance_of(self.pool.page_of(w.frame)));
                if !self.acquire(latch, t) {
                    return PARKED;
                }
                self.pool.complete_write(w.frame, true);
                self.release(latch, t, false);
                w.step = WalkStep::GetFreeBlock;
                after(lru_op)
            }
            WalkStep::ReadIssue => self.page_walk_read_issue(t, w),
            WalkStep::ReadComplete => {
                let latch = LatchId::BufPool(self.pool.instance_of(w.page));
                if !self.acquire(latch, t) {
                    return PARKED;
                }
                self.pool.complete_read(w.frame);
                w.step = WalkStep::ReadCompleteDone;
                after(lru_op)
            }
            WalkStep::ReadCompleteDone => {
                let latch = LatchId::BufPool(self.pool.instance_of(w.page));
                self.release(latch, t, false);
                w.step = WalkStep::PageDone;
                after(Tick::ZERO)
            }
            WalkStep::PageDone => self.page_walk_page_done(w, rng),
            WalkStep::FilNames => {
                // fil_names_write_if_was_clean(): the tablespace is named for redo under
                // the global fil_system mutex (5.7).
                if !self.pass_latch(LatchId::FilSys, t) {
                    return PARKED;
                }
                self.note_modification(w)
            }
            WalkStep::NoteModification => self.page_walk_note_modification(t, w),
        }
    }

    /// `BufPageGet`: `buf_page_get_gen()` looks the page up in the page hash.
    #[inline(always)]
    fn page_walk_buf_page_get(&mut self, w: &mut PageWalk) -> WalkNext {
        let page_get = Tick(self.profile.costs.page_get_ns);
        let op = w.ops[w.op_idx];
        w.page = PageId {
            space: self.catalog[w.table].table.space,
            page_no: op.page,
        };
        self.rec.counters.read_requests += 1;
        let look = self
            .pool
            .page_hash_get_guess(w.page, self.guesses.get(w.page));
        self.guesses.note(w.page, &look);
        w.guess = look.guess();
        match look.found {
            Lookup::Hit(f) if look.is_zip_only() => {
                w.frame = f;
                w.step = WalkStep::Unzip;
                after(page_get)
            }
            Lookup::Hit(f) => {
                w.frame = f;
                let now_ms = self.sched.now.as_ms() as u32;
                w.step = if self.pool.note_access_looked(
                    &look,
                    now_ms,
                    self.scenario.buffer_pool.old_blocks_time_ms,
                ) {
                    WalkStep::MakeYoung
                } else {
                    WalkStep::PageDone
                };
                after(page_get)
            }
            Lookup::IoFixed(_) => {
                // Counted once per access: undo this poll's request.
                self.rec.counters.read_requests -= 1;
                after(IO_WAIT_POLL)
            }
            Lookup::Stale(f) => {
                w.frame = f;
                w.step = WalkStep::FreeStale;
                after(page_get)
            }
            Lookup::Miss => {
                w.step = WalkStep::GetFreeBlock;
                after(page_get)
            }
        }
    }

    /// `MakeYoung`: `buf_page_make_young()` moves the page to the LRU head, under the
    /// instance mutex.
    fn page_walk_make_young(&mut self, t: ThreadId, w: &mut PageWalk) -> WalkNext {
        let lru_op = Tick(self.profile.costs.lru_op_ns);
        let latch = LatchId::BufPool(self.pool.instance_of(w.page));
        if !self.acquire(latch, t) {
            return PARKED;
        }
        // The page may have been evicted while we waited.
        if self.pool.lookup_guess(w.page, w.guess) == Lookup::Hit(w.frame) {
            self.pool.make_young(w.frame);
        }
        w.step = WalkStep::MakeYoungDone;
        after(lru_op)
    }

    /// `Unzip`: a compressed-only page moves into a free block (`buf_relocate()`).
    fn page_walk_unzip(&mut self, t: ThreadId, w: &mut PageWalk) -> WalkNext {
        let lru_op = Tick(self.profile.costs.lru_op_ns);
        let inst = self.pool.instance_of(w.page);
        let latch = LatchId::BufPool(inst);
        if !self.acquire(latch, t) {
            return PARKED;
        }
        let zip = match self.pool.lookup(w.page) {
            Lookup::Hit(z) if self.pool.is_zip_only(z) && self.pool.can_relocate(z) => z,
            // Decompressed, evicted or being written meanwhile: look again.
            _ => {
                self.release(latch, t, false);
                self.rec.counters.read_requests -= 1;
                w.step = WalkStep::BufPageGet;
                return after(IO_WAIT_POLL);
            }
        };
        let (block, scanned) = self.pool.free_block_for_unzip(inst);
        let scan = Tick(self.profile.costs.lru_scan_ns_per_page).times(u64::from(scanned));
        let Some(block) = block else {
            // Nothing clean to evict: wait for the page cleaner, as
            // buf_LRU_get_free_block() does, and try again.
            self.release(latch, t, false);
            self.rec.counters.wait_free += 1;
            self.signal_page_cleaner();
            self.rec.counters.read_requests -= 1;
            w.step = WalkStep::BufPageGet;
            return after(scan + FREE_BLOCK_SLEEP);
        };
        self.pool.unzip(zip, block);
        w.frame = block;
        w.step = WalkStep::UnzipDone;
        after(lru_op + scan)
    }

    /// `FreeStale`: 8.0.23 `buf_page_free_stale()` frees a stale page.
    fn page_walk_free_stale(&mut self, t: ThreadId, w: &mut PageWalk) -> WalkNext {
        let lru_op = Tick(self.profile.costs.lru_op_ns);
        let latch = LatchId::BufPool(self.pool.instance_of(w.page));
        if !self.acquire(latch, t) {
            return PARKED;
        }
        if self.pool.lookup_guess(w.page, w.guess) == Lookup::Stale(w.frame) {
            self.pool.free_stale(w.frame);
        }
        w.step = WalkStep::FreeStaleDone;
        after(lru_op)
    }

    /// `GetFreeBlock`: `buf_LRU_get_free_block()` + `buf_page_init_for_read()`, under the
    /// instance mutex.
    fn page_walk_get_free_block(&mut self, t: ThreadId, w: &mut PageWalk) -> WalkNext {
        let lru_op = Tick(self.profile.costs.lru_op_ns);
        let inst = self.pool.instance_of(w.page);
        let latch = LatchId::BufPool(inst);
        if !self.acquire(latch, t) {
            return PARKED;
        }
        if self.pool.lookup(w.page) != Lookup::Miss {
            // Another session read it (or it went stale) while we waited.
            self.release(latch, t, false);
            w.step = WalkStep::BufPageGet;
            self.rec.counters.read_requests -= 1;
            return after(Tick::ZERO);
        }
        let scan_ns = self.profile.costs.lru_scan_ns_per_page;
        // The first pass looks at BUF_LRU_SEARCH_SCAN_THRESHOLD blocks, later ones at
        // the whole list.
        let limit = if w.free_block_attempt == 0 {
            LRU_SEARCH_SCAN_THRESHOLD
        } else {
            u32::MAX
        };
        let (frame, scanned) = match self.pool.get_free_block(inst, limit) {
            FreeBlock::FromFreeList(f) => (f, 0),
            FreeBlock::Evicted { frame, scanned } => (frame, scanned),
            FreeBlock::NoneFound { scanned } => {
                // Nothing clean at the tail: count the wait, wake the page cleaner and
                // write a dirty page ourselves.
                self.rec.counters.wait_free += 1;
                w.free_block_attempt += 1;
                self.signal_page_cleaner();
                let scan = Tick(scan_ns).times(u64::from(scanned));
                return match self.pool.single_page_flush(inst) {
                    SinglePageFlush::Freed { scanned: s2 } => {
                        // A block was freed after all; retry at once, still holding the
                        // mutex (the retry takes it again harmlessly).
                        self.release(latch, t, false);
                        after(scan + Tick(scan_ns).times(u64::from(s2)))
                    }
                    SinglePageFlush::Write { frame, scanned: s2 } => {
                        w.frame = frame;
                        w.step = WalkStep::SinglePageWrite;
                        after(scan + Tick(scan_ns).times(u64::from(s2)))
                    }
                    SinglePageFlush::Nothing { scanned: s2 } => {
                        self.release(latch, t, false);
                        let sleep = if w.free_block_attempt > 2 {
                            FREE_BLOCK_SLEEP
                        } else {
                            Tick::ZERO
                        };
                        after(scan + Tick(scan_ns).times(u64::from(s2)) + sleep)
                    }
                };
            }
        };
        let op = w.ops[w.op_idx];
        if self.pool.space_zip_kb(w.page.space) == 0 {
            self.pool.init_for_read(frame, w.page);
        } else if !self.pool.init_for_read_zip(frame, w.page) {
            // No compressed frame to be had: the block went back; wait as for a
            // free block.
            self.release(latch, t, false);
            self.rec.counters.wait_free += 1;
            self.signal_page_cleaner();
            return after(FREE_BLOCK_SLEEP);
        }
        w.frame = frame;
        let cost = lru_op + Tick(scan_ns).times(u64::from(scanned));
        if op.create {
            // buf_page_create(): a new page at the end of the file, nothing to read.
            self.pool.complete_read(frame);
            self.release(latch, t, false);
            w.step = WalkStep::PageDone;
        } else {
            w.step = WalkStep::ReadIssue;
        }
        after(cost)
    }

    /// `ReadIssue`: release the instance mutex and issue the read (`buf_read_page()`).
    fn page_walk_read_issue(&mut self, t: ThreadId, w: &mut PageWalk) -> WalkNext {
        let latch = LatchId::BufPool(self.pool.instance_of(w.page));
        self.release(latch, t, false);
        self.rec.counters.reads += 1;
        // A compressed page is read as KEY_BLOCK_SIZE bytes, then inflated by
        // buf_page_io_complete() before the page is released.
        let zip_kb = u64::from(self.pool.space_zip_kb(w.page.space));
        let (bytes, inflate) = if zip_kb == 0 {
            (PAGE_SIZE, Tick::ZERO)
        } else {
            (
                zip_kb * 1024,
                Tick(self.profile.costs.zip_decompress_ns_per_page),
            )
        };
        let done = self.device.submit(self.sched.now, IoOp::Read, bytes);
        w.step = WalkStep::ReadComplete;
        after(done - self.sched.now + inflate)
    }

    /// `PageDone`: the page is fixed: apply the change (`mtr_commit()`), go to the next page.
    #[inline(always)]
    fn page_walk_page_done(&mut self, w: &mut PageWalk, rng: &mut SimRng) -> WalkNext {
        let op = w.ops[w.op_idx];
        let looked = self.maybe_build_hash(w, rng);
        if op.write {
            // A pessimistic insert or update needs lock memory; when the pool is
            // nearly all lent to the AHI and lock heaps it fails
            // (buf_LRU_buf_pool_running_out() -> DB_LOCK_TABLE_FULL).
            if self.pool.running_out() {
                self.rec.counters.errors += 1;
                w.op_idx = w.ops.len();
                w.lock_table_full = true;
                return WalkNext::Done;
            }
            // The page may have been evicted since it was fixed only if we let it go;
            // look again (the AHI build's look, if it was of this page: the same instant).
            let look = match looked {
                Some((page, look)) if page == w.page => look,
                _ => self.pool.page_hash_get_guess(w.page, w.guess),
            };
            match look.found {
                // Modified through the uncompressed frame only.
                Lookup::Hit(f) if !look.is_zip_only() => w.frame = f,
                _ => {
                    w.step = WalkStep::BufPageGet;
                    self.rec.counters.read_requests -= 1;
                    return after(Tick::ZERO);
                }
            }
            // log_free_check(): no new redo while the log is nearly full.
            if let Some(wait) = self.log_free_check() {
                return after(wait);
            }
            if self.profile.mechanisms.mtr_takes_fil_sys {
                w.step = WalkStep::FilNames;
                return after(Tick::ZERO);
            }
            return self.note_modification_dirty(w, look.is_dirty());
        }
        Self::next_page_op(w)
    }

    /// `NoteModification`: `buf_flush_insert_into_flush_list()`, under the flush-list mutex.
    fn page_walk_note_modification(&mut self, t: ThreadId, w: &mut PageWalk) -> WalkNext {
        // Simplification: the instance mutex stands for the flush-list mutex too;
        // the flush-list scans that block here hold both.
        let latch = LatchId::BufPool(self.pool.instance_of(w.page));
        if !self.acquire(latch, t) {
            return PARKED;
        }
        if self.pool.lookup_guess(w.page, w.guess) != Lookup::Hit(w.frame) {
            // Evicted while we waited: fetch it again.
            self.release(latch, t, false);
            w.step = WalkStep::BufPageGet;
            self.rec.counters.read_requests -= 1;
            return after(Tick::ZERO);
        }
        self.apply_modification(w);
        self.release(latch, t, false);
        Self::next_page_op(w)
    }

    /// The change goes into the page: straight away if it is already dirty, else through
    /// the flush-list mutex.
    fn note_modification(&mut self, w: &mut PageWalk) -> WalkNext {
        let dirty = self.pool.is_dirty(w.frame);
        self.note_modification_dirty(w, dirty)
    }

    /// [`Sim::note_modification`], the frame's dirty flag read by the caller at this
    /// instant.
    fn note_modification_dirty(&mut self, w: &mut PageWalk, dirty: bool) -> WalkNext {
        if !dirty {
            w.step = WalkStep::NoteModification;
            return WalkNext::Step(Next::After(Tick::ZERO));
        }
        self.apply_modification(w);
        Self::next_page_op(w)
    }

    /// `mtr_commit()` of a row change: redo, the page dirty as of its LSN, the row lock.
    fn apply_modification(&mut self, w: &mut PageWalk) {
        let lsn = self.mtr_commit_redo(self.scenario.innodb.redo_bytes_per_row);
        self.pool.mark_dirty(w.frame, lsn);
        w.last_lsn = lsn;
        w.wrote = true;
        // The row lock, held to commit.
        w.lock_bytes += crate::sim::LOCK_BYTES_PER_PAGE;
        self.lock_heap_bytes += crate::sim::LOCK_BYTES_PER_PAGE;
    }

    /// The statement's next page, or the end of the walk.
    fn next_page_op(w: &mut PageWalk) -> WalkNext {
        w.op_idx += 1;
        if w.op_idx < w.ops.len() {
            w.step = WalkStep::BufPageGet;
            WalkNext::Step(Next::After(Tick::ZERO))
        } else {
            WalkNext::Done
        }
    }
}
