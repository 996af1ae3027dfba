//! The checkpoint and `log_free_check()`: how much redo the log holds, and what a
//! writer does when the log is nearly full. Two models, by profile:
//!
//! - **From the oldest modification** (MySQL 5.x/8.0 profiles): the age is the LSN less
//!   the oldest dirty page's; a writer past 15/16 of the log's capacity waits in 1 ms
//!   steps for the page cleaner, which it wakes.
//! - **From the last checkpoint** (`mechanisms.checkpoint_margin`, MariaDB 10.5+): the
//!   age is the LSN less `log_sys.last_checkpoint_lsn`, which moves only when a
//!   checkpoint is written. `log_checkpoint_margin()` (log0log.cc): past
//!   `max_checkpoint_age` a writer asks for a sync flush to at most 1 MB past the last
//!   checkpoint (`buf_flush_wait_flushed()`), then sleeps 10 ms "to avoid a thundering
//!   herd", and looks again. The page cleaner's furious flush
//!   (`buf_flush_sync_for_checkpoint()`, buf0flu.cc) writes up to
//!   `innodb_io_capacity_max` pages older than the target, syncs the files and writes a
//!   checkpoint, batch after batch, until the target is met; after any other batch that
//!   wrote pages (or found none dirty) it writes a checkpoint too.
//!
//!   Each mini-transaction's commit looks at the age too (`log_close()`, mtr0mtr.cc):
//!   past `max_modified_age_async` it calls `buf_flush_ahead(commit_lsn, false)`, past
//!   `max_checkpoint_age` `buf_flush_ahead(commit_lsn, true)` (buf0flu.cc). The first
//!   sets `buf_flush_async_lsn`: the page cleaner writes `innodb_io_capacity_max` pages
//!   older than it a batch, with a checkpoint after each, until the oldest
//!   modification passes it. The second sets `buf_flush_sync_lsn` to the commit's LSN,
//!   so the furious flush aims at the whole log, not at the writers' 1 MB step: a bulk
//!   load's writers then wait for batches of `innodb_io_capacity_max` pages, not for a
//!   megabyte every 10 ms.
//!
//! ```text
//!  writer ── lsn − last_checkpoint > max_checkpoint_age? ── no ──▶ its mini-transaction
//!               │ yes: buf_flush_sync_lsn = min(ckpt + max age, ckpt + 1 MB)
//!               ▼
//!       sleeps 10 ms, looks again     page cleaner: batch ≤ io_capacity_max pages older
//!                                     than the target ──▶ fsync ──▶ checkpoint at the
//!                                     oldest modification (the LSN, none dirty)
//!
//!  mtr commit ── age > max_modified_age_async? ── yes ─▶ buf_flush_async_lsn = its LSN
//!               age > max_checkpoint_age?      ── yes ─▶ buf_flush_sync_lsn  = its LSN
//! ```

use super::Sim;
use crate::bufpool::Lsn;
use crate::time::Tick;

/// `log_free_check()`'s poll where the age counts from the oldest modification.
const OLDEST_MODIFICATION_POLL: Tick = Tick::from_ms(1);
/// `log_checkpoint_margin()`'s sleep after each sync-flush wait.
const CHECKPOINT_MARGIN_SLEEP: Tick = Tick::from_ms(10);
/// `log_checkpoint_margin()` asks the sync flush for at most this past the checkpoint.
const SYNC_FLUSH_STEP: u64 = 1 << 20;
/// `log_t::set_capacity()`: the log's capacity less this many pages, "extra safety
/// calculated from the number of writer threads" (48 << srv_page_size_shift).
const WRITER_SAFETY_PAGES: u64 = 48;

impl Sim {
    /// `mtr_t::commit()` of `bytes` of redo: the LSN it ends at, after `log_close()`'s
    /// flush-ahead (`mechanisms.checkpoint_margin`).
    pub(super) fn mtr_commit_redo(&mut self, bytes: u64) -> Lsn {
        let lsn = self.log.append(bytes);
        if self.profile.mechanisms.checkpoint_margin {
            let age = self.checkpoint_age();
            if age > self.max_checkpoint_age() {
                self.buf_flush_ahead(lsn, true);
            } else if age > self.max_modified_age_async() {
                self.buf_flush_ahead(lsn, false);
            }
        }
        lsn
    }

    /// `buf_flush_ahead()`: raise the furious or the ahead target to `lsn` and wake the
    /// page cleaner.
    fn buf_flush_ahead(&mut self, lsn: Lsn, furious: bool) {
        let limit = if furious {
            &mut self.buf_flush_sync_lsn
        } else {
            &mut self.buf_flush_async_lsn
        };
        if limit.is_some_and(|l| l >= lsn) {
            return;
        }
        *limit = Some(lsn);
        self.signal_page_cleaner();
    }

    /// The page cleaner's next batch: `innodb_io_capacity_max` pages older than the
    /// furious target, else than the ahead target while the oldest modification is
    /// short of it (met, it is cleared), else `None` (adaptive flushing).
    pub(super) fn flush_ahead_limit(&mut self) -> Option<Lsn> {
        if let Some(target) = self.buf_flush_sync_lsn {
            return Some(target);
        }
        let target = self.buf_flush_async_lsn?;
        if self.pool.oldest_modification().is_some_and(|o| o < target) {
            return Some(target);
        }
        self.buf_flush_async_lsn = None;
        None
    }

    /// Redo bytes the next checkpoint must cover: from the last checkpoint written
    /// (`mechanisms.checkpoint_margin`) or from the oldest unflushed modification.
    pub fn checkpoint_age(&self) -> u64 {
        if self.profile.mechanisms.checkpoint_margin {
            self.log.lsn.0.saturating_sub(self.last_checkpoint_lsn.0)
        } else {
            self.oldest_modification_age()
        }
    }

    /// Redo bytes between the current LSN and the oldest unflushed modification: what
    /// adaptive flushing (`af_get_pct_for_lsn()`) reads in every profile.
    pub(super) fn oldest_modification_age(&self) -> u64 {
        let oldest = self.pool.oldest_modification();
        oldest.map_or(0, |o| self.log.lsn.0.saturating_sub(o.0))
    }

    /// `log_free_check()` before a mini-transaction writes redo: how long the writer
    /// waits before it looks again, or `None` when it may go on.
    pub(super) fn log_free_check(&mut self) -> Option<Tick> {
        let capacity = self.scenario.innodb.redo_log_capacity.bytes();
        if !self.profile.mechanisms.checkpoint_margin {
            if self.checkpoint_age() <= capacity / 16 * 15 {
                return None;
            }
            self.rec.counters.log_waits += 1;
            self.signal_page_cleaner();
            return Some(OLDEST_MODIFICATION_POLL);
        }
        let max_age = self.max_checkpoint_age();
        if self.checkpoint_age() <= max_age {
            return None;
        }
        let checkpoint = self.last_checkpoint_lsn.0;
        let target = Lsn(checkpoint + max_age.min(SYNC_FLUSH_STEP));
        self.buf_flush_sync_lsn = Some(self.buf_flush_sync_lsn.map_or(target, |t| t.max(target)));
        self.rec.counters.log_waits += 1;
        self.signal_page_cleaner();
        Some(CHECKPOINT_MARGIN_SLEEP)
    }

    /// `log_sys.max_checkpoint_age` (MariaDB `log_t::set_capacity()`): the capacity less
    /// the writers' safety, less a tenth.
    pub(super) fn max_checkpoint_age(&self) -> u64 {
        let capacity = self.scenario.innodb.redo_log_capacity.bytes();
        let margin = capacity.saturating_sub(WRITER_SAFETY_PAGES * crate::units::PAGE_SIZE);
        margin - margin / 10
    }

    /// The age at which adaptive flushing counts 100% for redo
    /// (`log_sys.max_modified_age_async`).
    pub(super) fn max_modified_age_async(&self) -> u64 {
        if self.profile.mechanisms.checkpoint_margin {
            let margin = self.max_checkpoint_age();
            margin - margin / 8
        } else {
            self.scenario.innodb.redo_log_capacity.bytes() / 8 * 7
        }
    }

    /// `log_checkpoint_low()` after a page-cleaner batch: the checkpoint moves to the
    /// oldest modification (the LSN when nothing is dirty), and a sync flush whose
    /// target it reached is over.
    pub(super) fn log_checkpoint(&mut self) {
        let at = self.pool.oldest_modification().unwrap_or(self.log.lsn);
        self.last_checkpoint_lsn = self.last_checkpoint_lsn.max(at);
        if self.buf_flush_sync_lsn.is_some_and(|t| at >= t) {
            self.buf_flush_sync_lsn = None;
        }
    }
}
