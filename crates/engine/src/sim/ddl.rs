//! DDL threads: each accepted DDL statement runs on its own simulated thread, step by
//! step along the server's code path, as the engine profile selects it.
//!
//! DROP TABLE (file-per-table), two ways:
//!
//! ```text
//!  5.7   dict_sys ─┬─ DictDrop ─ LRU scan inst 0 ─ ... ─ LRU scan inst n ─ unlink ─┐ release
//!                  │            (buf_pool[i] held for the whole list)              │
//!  8.0.23 dict_sys ┴─ DictDrop ─ bump version ─ release ─ unlink (post-DDL, no latch)
//! ```

use super::{Next, Sim};
use crate::events::{EventKind, ListKind};
use crate::latch::LatchId;
use crate::profile::{DropEviction, FileDelete};
use crate::time::Tick;
use crate::ThreadId;

/// `buf_LRU_remove_all_pages()` sleeps this long before rescanning when it had to skip
/// I/O-fixed pages.
const RESCAN_SLEEP: Tick = Tick::from_ms(20);

/// A DDL statement's thread.
#[derive(Clone, Debug)]
pub(super) struct Ddl {
    pub(super) session: u32,
    pub(super) sql: String,
    pub(super) started: Tick,
    pub(super) targets: Vec<DropTarget>,
    pub(super) current: usize,
    pub(super) step: DdlStep,
    pub(super) instance: u16,
    pub(super) io_skipped: bool,
    pub(super) file_done: bool,
}

#[derive(Clone, Debug)]
pub(super) struct DropTarget {
    pub(super) table: usize,
}

/// Where a DROP TABLE is, named after the InnoDB code it models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DdlStep {
    /// Next table of the statement, or finish.
    Begin,
    /// `row_mysql_lock_data_dictionary()`: take `dict_sys`.
    DictLock,
    /// `row_drop_table_for_mysql()`: delete the SYS_* rows, drop the table from the cache.
    DictDrop,
    /// `buf_LRU_remove_all_pages()`: take instance `i`'s mutex and walk its LRU list.
    LruScanBegin,
    /// The walk is done: the space's pages are freed, mutex still held.
    LruScan,
    /// Release the instance mutex; rescan after 20 ms if I/O-fixed pages were skipped.
    LruScanEnd,
    /// `fil_space_t::set_deleted()` (8.0.23): bump the version; pages become stale.
    BumpVersion,
    /// `os_file_delete()`.
    FileUnlink,
    /// The unlink finished.
    FileUnlinked,
    /// `row_mysql_unlock_data_dictionary()`.
    DictUnlock,
    /// Report the result to the session.
    Finish,
}

impl Sim {
    pub(super) fn step_ddl(&mut self, t: ThreadId, d: &mut Ddl) -> Next {
        let mech = self.profile.mechanisms.clone();
        match d.step {
            DdlStep::Begin => {
                if d.current >= d.targets.len() {
                    d.step = DdlStep::Finish;
                    return Next::After(Tick::ZERO);
                }
                d.file_done = false;
                d.step = DdlStep::DictLock;
                Next::After(Tick::ZERO)
            }
            DdlStep::DictLock => {
                if !self.acquire(LatchId::DictSys, t) {
                    return Next::Parked;
                }
                d.step = DdlStep::DictDrop;
                Next::After(Tick(self.profile.costs.drop_dict_ns))
            }
            DdlStep::DictDrop => {
                let ti = d.targets[d.current].table;
                self.tables[ti].dropped = true;
                let (table, space) = (self.tables[ti].name.clone(), self.tables[ti].space);
                self.emit(EventKind::TableDropped { table, space });
                match mech.drop_eviction {
                    DropEviction::LruScan => {
                        d.instance = 0;
                        d.step = DdlStep::LruScanBegin;
                    }
                    DropEviction::LazyStale => d.step = DdlStep::BumpVersion,
                }
                Next::After(Tick::ZERO)
            }
            DdlStep::LruScanBegin => {
                let latch = LatchId::BufPool(d.instance);
                if !self.acquire(latch, t) {
                    return Next::Parked;
                }
                let space = self.tables[d.targets[d.current].table].space;
                let len = self.pool.instances()[usize::from(d.instance)].lru_len();
                let t1 =
                    self.now + Tick(self.profile.costs.lru_scan_ns_per_page).times(u64::from(len));
                self.emit(EventKind::Scan {
                    list: ListKind::Lru,
                    instance: d.instance,
                    space,
                    latch,
                    thread: t,
                    from: 0,
                    to: len,
                    t0: self.now,
                    t1,
                });
                d.step = DdlStep::LruScan;
                Next::After(t1 - self.now)
            }
            DdlStep::LruScan => {
                // The walk from tail to head ran under the mutex for the span's length; no
                // other thread could see the list meanwhile, so its result is computed
                // here in one sweep (viewers interpolate the cursor from the span).
                let space = self.tables[d.targets[d.current].table].space;
                let (_freed, skipped) = self.pool.remove_space_pages(d.instance, space);
                d.io_skipped = skipped > 0;
                d.step = DdlStep::LruScanEnd;
                Next::After(Tick::ZERO)
            }
            DdlStep::LruScanEnd => {
                let latch = LatchId::BufPool(d.instance);
                self.release(latch, t, true);
                if d.io_skipped {
                    // Pages of the space were being read: sleep and rescan this instance.
                    d.step = DdlStep::LruScanBegin;
                    return Next::After(RESCAN_SLEEP);
                }
                d.instance += 1;
                if d.instance < self.pool.n_instances() {
                    d.step = DdlStep::LruScanBegin;
                } else {
                    d.step = match mech.file_delete {
                        FileDelete::UnderDictSys => DdlStep::FileUnlink,
                        FileDelete::PostDdl => DdlStep::DictUnlock,
                    };
                }
                Next::After(Tick::ZERO)
            }
            DdlStep::BumpVersion => {
                let space = self.tables[d.targets[d.current].table].space;
                let (version, stale_pages) = self.pool.bump_space_version(space);
                self.emit(EventKind::SpaceVersionBumped {
                    space,
                    version,
                    stale_pages,
                });
                d.step = match mech.file_delete {
                    FileDelete::UnderDictSys => DdlStep::FileUnlink,
                    FileDelete::PostDdl => DdlStep::DictUnlock,
                };
                Next::After(Tick(self.profile.costs.version_bump_ns))
            }
            DdlStep::FileUnlink => {
                let table = &self.tables[d.targets[d.current].table];
                let bytes = table.bytes;
                let path = format!("./{}/{}.ibd", self.scenario.schema, table.name);
                let cost = self.scenario.file_system.kind.unlink_cost(bytes);
                self.emit(EventKind::FileUnlink {
                    path,
                    bytes,
                    thread: t,
                    t0: self.now,
                    t1: self.now + cost,
                });
                d.step = DdlStep::FileUnlinked;
                Next::After(cost)
            }
            DdlStep::FileUnlinked => {
                d.file_done = true;
                if mech.file_delete == FileDelete::UnderDictSys {
                    d.step = DdlStep::DictUnlock;
                } else {
                    d.current += 1;
                    d.step = DdlStep::Begin;
                }
                Next::After(Tick::ZERO)
            }
            DdlStep::DictUnlock => {
                self.release(LatchId::DictSys, t, true);
                if d.file_done {
                    d.current += 1;
                    d.step = DdlStep::Begin;
                } else {
                    d.step = DdlStep::FileUnlink;
                }
                Next::After(Tick::ZERO)
            }
            DdlStep::Finish => {
                let elapsed = self.now - d.started;
                self.emit(EventKind::StatementFinished {
                    session: d.session,
                    sql: d.sql.clone(),
                    elapsed,
                    result: format!(
                        "Query OK, 0 rows affected ({}.{:02} sec)",
                        elapsed.as_secs(),
                        (elapsed.as_ms() % 1000) / 10
                    ),
                    error: false,
                });
                Next::Exit
            }
        }
    }
}
