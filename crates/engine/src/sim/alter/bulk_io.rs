//! Two ways a profile's index build meets the server's I/O as MariaDB 10.5+ does
//! (`mechanisms.scan_read_ahead`, `mechanisms.bulk_load_redo`); without them the build
//! reads leaf by leaf and bulk-loads without redo, as MySQL's 5.7+ build does.
//!
//! ```text
//!  clustered-index scan ── leaf missing ──▶ its extent read at once (64 pages); at the
//!       │ (scan_read_ahead)                 56th leaf of it the next extent is asked
//!       │                                   for (buf_read_ahead_linear(), threshold 56)
//!       ▼                                   and read while the rows are sorted
//!  bulk load, a page ── log_free_check() ──▶ page made ──▶ its records' redo appended:
//!       (bulk_load_redo)                                   the page is dirty at that LSN
//! ```
//!
//! MariaDB 10.5 removed `innodb_log_optimize_ddl` (MDEV-19747): `PageBulk::init()`
//! starts each page's mini-transaction with `m_index->set_modified(m_mtr)`, a logged
//! one, where MySQL sets `MTR_LOG_NO_REDO` and a flush observer. The load's redo goes
//! through the same log as the workload's, so its checkpoint age reaches the clients'
//! `log_free_check()` and the page cleaner's adaptive flushing.
//!
//! Simplifications: the read-ahead pages go to the build's own buffer without being
//! cached (as the scan does when the pool has no free frame); a page's redo is its
//! records' bytes (`PageBulk::finish()` logs the page's used area).

use super::IndexBuild;
use crate::bufpool::Lsn;
use crate::device::IoOp;
use crate::sim::{Next, Sim};
use crate::time::Tick;
use crate::units::PAGE_SIZE;

/// `FSP_EXTENT_SIZE`: the pages of one read-ahead (16 KiB pages).
const EXTENT_PAGES: u64 = 64;
/// `innodb_read_ahead_threshold` (default 56): leaves of an extent read in order
/// before the next extent is asked for.
const READ_AHEAD_THRESHOLD: u64 = 56;

impl Sim {
    /// `ReadLeaf` of a leaf not in the pool, with read-ahead: the leaf's extent, read
    /// already, being read, or read now; then the leaf's rows.
    pub(super) fn index_build_read_ahead(&mut self, b: &mut IndexBuild, leaves: u64) -> Next {
        let now = self.sched.now;
        b.read_ahead.retain(|&(_, end, _)| end > b.leaf);
        let (start, end, ready) = match b.read_ahead.iter().find(|w| w.0 <= b.leaf) {
            Some(&w) => w,
            None => {
                let end = (b.leaf + EXTENT_PAGES).min(leaves);
                let w = (b.leaf, end, self.read_extent(now, b.leaf, end));
                b.read_ahead.insert(0, w);
                w
            }
        };
        // buf_read_ahead_linear(): far enough into this extent, ask for the next one.
        let next_asked = b.read_ahead.iter().any(|w| w.0 == end);
        if b.leaf >= start + READ_AHEAD_THRESHOLD.min(end - start - 1)
            && !next_asked
            && end < leaves
        {
            let next_end = (end + EXTENT_PAGES).min(leaves);
            let w = (end, next_end, self.read_extent(now, end, next_end));
            b.read_ahead.push(w);
        }
        b.step = super::BuildStep::ReadRows;
        Next::After(ready.saturating_sub(now) + Tick(self.profile.costs.page_get_ns))
    }

    /// One read of leaves `start..end` (`buf_read_page_low()` for each, one request to
    /// the device); when it is done.
    fn read_extent(&mut self, now: Tick, start: u64, end: u64) -> Tick {
        self.rec.counters.reads += end - start;
        self.device
            .submit(now, IoOp::Read, (end - start) * PAGE_SIZE)
    }

    /// `log_free_check()` before a bulk-load page, when the load writes redo: the log
    /// is nearly full, so wait for the page cleaner (`sim/checkpoint.rs`).
    pub(super) fn bulk_log_full(&mut self) -> Option<Next> {
        if !self.profile.mechanisms.bulk_load_redo {
            return None;
        }
        self.log_free_check().map(Next::After)
    }

    /// The LSN a new bulk-load page is dirty at: its records' redo appended when the
    /// load writes redo, the current LSN (a no-redo mini-transaction) when not.
    pub(super) fn bulk_page_lsn(&mut self) -> Lsn {
        if self.profile.mechanisms.bulk_load_redo {
            self.mtr_commit_redo(PAGE_SIZE * 15 / 16)
        } else {
            self.log.lsn
        }
    }
}
