//! The page cleaner: keeps free blocks available and dirty pages flowing to disk.
//!
//! Once a second (or at once when a session that found no free block sets
//! `buf_flush_event`) the coordinator runs, per instance:
//!
//! - an LRU batch (`buf_flush_LRU_list()`): from the LRU tail, free clean pages until
//!   `innodb_lru_scan_depth` blocks are free and write dirty ones, at most that many
//!   freed or written (a written page is freed when its write completes, so the free
//!   list can pass the depth then; between rounds sessions drain it);
//! - a flush-list batch (`buf_flush_do_batch(BUF_FLUSH_LIST)`): write the pages with the
//!   oldest modifications, as many as adaptive flushing recommends.
//!
//! The writes go to the device together; when the last completes the pages are clean
//! (and the LRU-batch ones freed), and the coordinator sleeps until the next second.
//! With `mechanisms.checkpoint_margin` (MariaDB 10.5+, `sim/checkpoint.rs`) a batch
//! that wrote is followed by a sync and a checkpoint, and a writer's sync-flush target
//! makes the next batches furious: `innodb_io_capacity_max` pages older than the
//! target, one after another with no sleep, until a checkpoint passes it; a
//! mini-transaction past the async age makes them flush-ahead batches, as many pages
//! older than its LSN, each commit that raises the target waking the cleaner again.
//!
//! Adaptive flushing, simplified from `page_cleaner_flush_pages_recommendation()`: the
//! percentage of `innodb_io_capacity` to use is the larger of one for dirty pages
//! (`dirty% / innodb_max_dirty_pages_pct`, from `innodb_max_dirty_pages_pct_lwm` on) and one
//! for redo age (`age%·sqrt(age%)/7.5` from `innodb_adaptive_flushing_lwm` on, as
//! `af_get_pct_for_lsn()`), capped at `innodb_io_capacity_max`. Simplification: the
//! server also averages in the recent page and LSN rates; we do not.

use super::{Next, Sim};
use crate::bufpool::{FrameId, Lsn};
use crate::device::IoOp;
use crate::latch::LatchId;
use crate::time::Tick;
use crate::units::PAGE_SIZE;
use crate::ThreadId;

/// The page cleaner coordinator.
#[derive(Clone, Debug)]
pub(super) struct PageCleaner {
    step: CleanerStep,
    instance: u16,
    next_round: Tick,
    period: Tick,
    /// Flush-list pages to write per instance this round.
    flush_quota: u32,
    /// Only pages modified before this: a sync flush's target (`Lsn(u64::MAX)`: any).
    lsn_limit: Lsn,
    /// Pages write-fixed this round, and whether each is freed after its write.
    writes: Vec<(FrameId, bool)>,
    lru_writes: Vec<FrameId>,
    flush_writes: Vec<FrameId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CleanerStep {
    /// Work out this round's flush-list quota.
    RoundStart,
    /// Take the instance mutex; run the LRU and flush-list batches.
    Batch,
    /// Release the instance mutex; next instance, or issue the writes.
    BatchDone,
    /// `buf_flush_wait_batch_end()`: the writes are done; clean (and free) the pages.
    WritesDone,
    /// `log_checkpoint()` (`mechanisms.checkpoint_margin`): the files synced and the
    /// checkpoint written; it moves.
    Checkpoint,
}

impl PageCleaner {
    pub(super) fn new(period: Tick) -> PageCleaner {
        PageCleaner {
            step: CleanerStep::RoundStart,
            instance: 0,
            next_round: period,
            period,
            flush_quota: 0,
            lsn_limit: Lsn(u64::MAX),
            writes: Vec::new(),
            lru_writes: Vec::new(),
            flush_writes: Vec::new(),
        }
    }
}

impl Sim {
    /// Pages per second adaptive flushing asks for.
    fn flush_recommendation(&self) -> u32 {
        let inn = &self.scenario.innodb;
        let data = self.pool.pages_data() + self.pool.pages_free();
        let dirty_pct = (self.pool.pages_dirty() * 100)
            .checked_div(data)
            .unwrap_or(0) as f64;
        let max_dirty = f64::from(inn.max_dirty_pages_pct.max(1));
        let pct_for_dirty = if dirty_pct >= max_dirty {
            100.0
        } else if dirty_pct >= f64::from(inn.max_dirty_pages_pct_lwm)
            && inn.max_dirty_pages_pct_lwm > 0
        {
            dirty_pct * 100.0 / max_dirty
        } else {
            0.0
        };
        // af_get_pct_for_lsn(): the oldest modification's age as a percentage of
        // max_modified_age_async.
        let max_async_age = self.max_modified_age_async() as f64;
        let age_pct = self.oldest_modification_age() as f64 * 100.0 / max_async_age;
        let pct_for_lsn = if age_pct < f64::from(inn.adaptive_flushing_lwm) {
            0.0
        } else {
            f64::from(inn.io_capacity_max) / f64::from(inn.io_capacity) * age_pct * age_pct.sqrt()
                / 7.5
        };
        let pct = pct_for_dirty.max(pct_for_lsn);
        let pages = (f64::from(inn.io_capacity) * pct / 100.0) as u32;
        pages.min(inn.io_capacity_max)
    }

    /// The round is over: the next at once if a session signalled, a sync flush is
    /// still short of its target, or the round overran its second; else sleep.
    fn cleaner_round_end(&mut self, p: &mut PageCleaner) -> Next {
        p.step = CleanerStep::RoundStart;
        let furious = self.buf_flush_sync_lsn.is_some();
        if self.cleaner_signalled || furious || p.next_round <= self.sched.now {
            return Next::After(Tick::ZERO);
        }
        self.cleaner_sleeping = true;
        Next::After(p.next_round - self.sched.now)
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `Sim::step_thread_until_it_waits`
    pub(super) fn step_cleaner(&mut self, t: ThreadId, p: &mut PageCleaner) -> Next {
        let latch = LatchId::BufPool(p.instance);
        match p.step {
            CleanerStep::RoundStart => {
                self.cleaner_signalled = false;
                // pc_sleep_if_needed(): the next round is due a second after this one
                // started, so an early wake-up shifts the cadence, as in the server.
                p.next_round = self.sched.now + p.period;
                let n = u32::from(self.pool.n_instances());
                // buf_flush_sync_for_checkpoint() and the flush-ahead batch: io_capacity_max
                // pages older than the target.
                let (quota, limit) = match self.flush_ahead_limit() {
                    Some(target) => (self.scenario.innodb.io_capacity_max, target),
                    None => (self.flush_recommendation(), Lsn(u64::MAX)),
                };
                p.flush_quota = quota.div_ceil(n);
                p.lsn_limit = limit;
                p.instance = 0;
                p.writes.clear();
                p.step = CleanerStep::Batch;
                Next::After(Tick::ZERO)
            }
            CleanerStep::Batch => {
                if !self.acquire(latch, t) {
                    return Next::Parked;
                }
                let depth = self.scenario.buffer_pool.lru_scan_depth;
                p.lru_writes.clear();
                p.flush_writes.clear();
                let lru = self
                    .pool
                    .lru_flush_batch(p.instance, depth, &mut p.lru_writes);
                let scanned = self.pool.flush_list_batch(
                    p.instance,
                    p.flush_quota,
                    p.lsn_limit,
                    &mut p.flush_writes,
                );
                p.writes.extend(p.lru_writes.iter().map(|&f| (f, true)));
                p.writes.extend(p.flush_writes.iter().map(|&f| (f, false)));
                p.step = CleanerStep::BatchDone;
                let cost = u64::from(lru.scanned) + u64::from(scanned);
                Next::After(Tick(self.profile.costs.lru_scan_ns_per_page).times(cost))
            }
            CleanerStep::BatchDone => {
                self.release(latch, t, false);
                p.instance += 1;
                if p.instance < self.pool.n_instances() {
                    p.step = CleanerStep::Batch;
                    return Next::After(Tick::ZERO);
                }
                // Issue every write; the batch ends when the last completes.
                let mut done = self.sched.now;
                for _ in 0..p.writes.len() {
                    done = done.max(self.device.submit(self.sched.now, IoOp::Write, PAGE_SIZE));
                }
                p.step = CleanerStep::WritesDone;
                Next::After(done - self.sched.now)
            }
            CleanerStep::WritesDone => {
                // Simplification: write completion does not take the instance mutex.
                for &(frame, evict) in &p.writes {
                    self.pool.complete_write(frame, evict);
                }
                let wrote = !p.writes.is_empty();
                p.writes.clear();
                // A sync flush tries a checkpoint after every batch, written or not
                // (else a target its pages already passed would never be met); other
                // batches when they wrote, or when nothing is dirty.
                let furious = p.lsn_limit != Lsn(u64::MAX);
                if self.profile.mechanisms.checkpoint_margin
                    && (wrote || furious || self.pool.oldest_modification().is_none())
                {
                    // fil_flush_file_spaces(), then the checkpoint block written and synced.
                    p.step = CleanerStep::Checkpoint;
                    return Next::After(self.device.fsync_latency().times(2));
                }
                self.cleaner_round_end(p)
            }
            CleanerStep::Checkpoint => {
                self.log_checkpoint();
                self.cleaner_round_end(p)
            }
        }
    }
}
