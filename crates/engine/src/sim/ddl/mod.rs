//! DDL threads: each accepted DDL statement runs on its own simulated thread, step by
//! step along the server's code path, as the engine profile selects it.
//!
//! DROP TABLE (file-per-table), per profile:
//!
//! ```text
//!  5.1    LOCK_open ─ dict_sys ─ DictDrop ─ LRU scans ─ unlink ─ release all
//!         (every other query waits in "Opening tables" for LOCK_open)
//!  5.7    dict_sys ─ DictDrop ─ AHI: every page of every extent (149 s in I1) ─
//!         LRU scan of each instance under its mutex ─ unlink ─ release
//!         (with a replication plugin, every DML's before_dml hook waits for dict_sys)
//!  8.0.23 dict_sys ─ DictDrop ─ AHI: LRU scan, only if hashed ─ bump version ─ release
//!         ─ unlink after commit (no latch)
//!  AliSQL AHI cleared first, no dict_sys ─ dict_sys ─ DictDrop ─ the space's own page
//!         list ─ rename the file ─ release; a background thread truncates and unlinks
//! ```
//!
//! ALTER TABLE ... DROP PARTITION runs the same path on each partition's own table,
//! and TRUNCATE PARTITION the profile's TRUNCATE path (see `partition.rs`); on servers
//! with Bug#16067973 the per-extent walk decompresses compressed-only pages first.

mod zip_peek;

use super::{Next, Sim, Thread};
use crate::bufpool::{PageId, SpaceId};
use crate::events::{EventKind, ListKind};
use crate::latch::LatchId;
use crate::profile::{AhiCleanup, DropEviction, FileDelete, TableOpenLock};
use crate::sim::catalog::TableId;
use crate::time::Tick;
use crate::ThreadId;
use zip_peek::PeekStep;

/// `buf_LRU_remove_all_pages()` sleeps this long before rescanning when it had to skip
/// I/O-fixed pages.
const RESCAN_SLEEP: Tick = Tick::from_ms(20);
/// `btr_drop_ahi_for_table()` collects at most this many pages per walk
/// (`BUF_LRU_DROP_SEARCH_SIZE`).
const AHI_BATCH: usize = 1024;
/// Pages in an extent: `fseg_free_step()` frees one extent per mini-transaction.
pub(super) const EXTENT_PAGES: u32 = 64;
/// AliSQL's `innodb_data_file_purge_max_size` (512 MiB) and `_interval` (100 ms).
const PURGE_STEP_BYTES: u64 = 512 << 20;
const PURGE_INTERVAL: Tick = Tick::from_ms(100);

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
    /// Next page of the per-extent AHI walk.
    pub(super) next_page: u32,
    /// AHI cleanup so far: (start, hashed pages, records).
    pub(super) ahi: (Tick, u64, u64),
    pub(super) holds_lock_open: bool,
    /// The session thread that runs the statement's SQL layer and waits for this
    /// storage-engine work; `None` reports the result itself.
    pub(super) notify: Option<ThreadId>,
    /// TRUNCATE TABLE rather than DROP: the tables stay, emptied.
    pub(super) truncate: bool,
    /// 8.0's AHI batches in the current instance: hashed pages with their positions
    /// from the tail, and the next one to collect.
    pub(super) ahi_batch: Vec<(u32, crate::bufpool::FrameId)>,
    pub(super) ahi_batch_pos: usize,
    pub(super) ahi_batch_ready: bool,
    /// The per-extent walk has looked for compressed-only pages up to here.
    pub(super) peeked_to: u32,
    /// Decompressions so far: (start, pages, blocks found by evicting).
    pub(super) unzip: (Tick, u64, u64),
    /// ALTER TABLE ... DISCARD TABLESPACE: the table stays, without its tablespace.
    pub(super) discard: bool,
    /// Part of another statement (a rebuild dropping the old table): no result of its
    /// own.
    pub(super) internal: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct DropTarget {
    pub(super) table: TableId,
}

/// Where a DROP TABLE is, named after the server code it models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DdlStep {
    /// Next table of the statement, or finish.
    Begin,
    /// The session holds MDL X on every table of the statement (sim/session took
    /// it before starting this thread): take the profile's first global latch.
    AfterMdl,
    /// 5.1 `mysql_rm_table_part2()`: take `LOCK_open` for the whole statement.
    LockOpen,
    /// AliSQL: clear the table's AHI entries before the drop, without `dict_sys`.
    AhiDropBeforeDrop,
    /// `row_mysql_lock_data_dictionary()`: take `dict_sys`.
    DictLock,
    /// `row_drop_table_for_mysql()`: delete the SYS_* rows, drop the table from the cache.
    DictDrop,
    /// 5.7 `fseg_free_extent()` → `btr_search_drop_page_hash_when_freed()`, one extent
    /// per step, under `dict_sys`.
    AhiFreeExtents,
    /// 8.0 `btr_drop_ahi_for_table()`: under instance `i`'s LRU mutex, walk from the
    /// tail collecting up to 1024 hashed pages of the table. Every batch starts again
    /// at the tail, so later batches walk past the earlier ones' pages. Simplification:
    /// the pages' positions are taken once per instance, at its first batch.
    AhiLruScan,
    /// ...then release the mutex and drop the batch's entries, under `dict_sys` only.
    AhiLruDrop,
    /// Every instance done: report the cleanup.
    AhiLruDropDone,
    /// `buf_LRU_remove_all_pages()`: take instance `i`'s mutex and walk its LRU list.
    LruScanBegin,
    /// The walk is done: the space's pages are freed, mutex still held.
    LruScan,
    /// Release the instance mutex; rescan after 20 ms if I/O-fixed pages were skipped.
    LruScanEnd,
    /// AliSQL: walk the space's own page list in instance `i` under its mutex.
    SpaceListScan,
    /// Release the instance mutex.
    SpaceListEnd,
    /// `fil_space_t::set_deleted()` (8.0.23): bump the version; pages become stale.
    BumpVersion,
    /// 5.7 TRUNCATE: `fil_reinit_space_header_for_table()` releases the dictionary
    /// before its LRU scan.
    DictUnlockForScan,
    /// 5.7 TRUNCATE: `truncate_t::truncate()`: `os_file_truncate()` under the global
    /// `fil_system->mutex`, which every page-modifying mini-transaction needs.
    FileTruncate,
    /// The truncate finished: release `fil_sys`.
    FileTruncated,
    /// `os_file_delete()`.
    FileUnlink,
    /// The unlink finished.
    FileUnlinked,
    /// AliSQL: rename the file into the purge directory instead of deleting it.
    PurgeRename,
    /// `row_mysql_unlock_data_dictionary()`.
    DictUnlock,
    /// Release `LOCK_open` (5.1) and report the result to the session.
    Finish,
    /// Bug#16067973: the per-extent walk decompresses compressed-only pages
    /// (`partition.rs`).
    Peek(PeekStep),
}

/// AliSQL's background purge of one renamed data file.
#[derive(Clone, Debug)]
pub(super) struct FilePurge {
    path: String,
    remaining_bytes: u64,
}

impl Ddl {
    pub(super) fn new(session: u32, sql: String, started: Tick, targets: Vec<DropTarget>) -> Ddl {
        Ddl {
            session,
            sql,
            started,
            targets,
            current: 0,
            step: DdlStep::Begin,
            instance: 0,
            io_skipped: false,
            file_done: false,
            next_page: 0,
            ahi: (Tick::ZERO, 0, 0),
            holds_lock_open: false,
            notify: None,
            truncate: false,
            ahi_batch: Vec::new(),
            ahi_batch_pos: 0,
            ahi_batch_ready: false,
            peeked_to: 0,
            unzip: (Tick::ZERO, 0, 0),
            discard: false,
            internal: false,
        }
    }
}

impl Sim {
    /// Whether this is 5.7's in-place TRUNCATE (WL#6501) rather than a drop.
    fn truncates_in_place(&self, d: &Ddl) -> bool {
        d.truncate
            && self.profile.mechanisms.truncate == crate::profile::Truncate::InPlaceUnderFilSys
    }

    /// Whether this is 5.1-5.6's TRUNCATE: `fil_discard_tablespace()` and a new one.
    fn truncates_by_discard(&self, d: &Ddl) -> bool {
        d.truncate && self.profile.mechanisms.truncate == crate::profile::Truncate::DiscardAndCreate
    }

    /// The statement is done with its current table: a TRUNCATE leaves it empty, in the
    /// same tablespace (5.7, in place) or a new one (5.5 discard and create, 8.0 DROP +
    /// CREATE).
    fn next_target(&mut self, d: &mut Ddl) {
        if d.truncate {
            let t = d.targets[d.current].table;
            let space = if self.truncates_in_place(d) {
                self.catalog[t].table.space
            } else {
                self.catalog.next_space_id()
            };
            let old = &self.catalog[t].table;
            let secondary = old.indexes.len().saturating_sub(1) as u8;
            let mut fresh =
                crate::dict::Table::new(&old.name, space, 0, old.row_bytes, secondary, 0);
            fresh.columns = old.columns.clone();
            if old.zip_kb != 0 {
                fresh = fresh.compressed(old.zip_kb);
            }
            fresh.partition = old.partition.clone();
            let (name, old_space) = (old.name.clone(), old.space);
            let path = super::fs_path(&super::ibd_path(&self.scenario.schema, &fresh.name));
            if !self.fs.exists(&path) {
                // 8.0: the new tablespace's file.
                let schema = &self.scenario.schema;
                let _ = super::os::create_data_file(&mut self.fs, schema, &fresh.name, fresh.bytes);
            }
            self.catalog[t].table = fresh;
            self.catalog[t].append_row = 0;
            self.catalog[t].layout += 1;
            self.pool.register_space(space);
            if self.catalog[t].table.zip_kb != 0 {
                self.pool
                    .set_space_zip_size(space, self.catalog[t].table.zip_kb);
            }
            if space != old_space {
                self.emit(EventKind::TablespaceCreated {
                    table: name,
                    old_space,
                    space,
                });
            }
        }
        d.current += 1;
    }

    /// AHI records on a hashed page of `index` (1-based) of the table in `space`.
    fn ahi_records(&self, space: SpaceId, index: u8) -> u64 {
        self.catalog
            .tables()
            .find(|t| t.space == space)
            .and_then(|t| t.indexes.get(usize::from(index).wrapping_sub(1)))
            .map_or(0, |ix| ix.records_per_leaf)
    }

    fn hashed_pages_of(&self, space: SpaceId) -> u64 {
        self.pool
            .ahi_pages()
            .range((space, 0)..=(space, u8::MAX))
            .map(|(_, n)| n)
            .sum()
    }

    /// The step after the AHI cleanup under `dict_sys`: the profile's eviction.
    fn eviction_step(&self, d: &mut Ddl) -> DdlStep {
        d.instance = 0;
        if self.truncates_in_place(d) {
            return DdlStep::DictUnlockForScan;
        }
        if self.truncates_by_discard(d) {
            // fil_discard_tablespace(): buf_LRU_flush_or_remove_pages(
            // BUF_REMOVE_ALL_NO_WRITE), whatever the DROP path.
            return DdlStep::LruScanBegin;
        }
        match self.profile.mechanisms.drop_eviction {
            DropEviction::LruScan => DdlStep::LruScanBegin,
            DropEviction::LazyStale => DdlStep::BumpVersion,
            DropEviction::SpaceList => DdlStep::SpaceListScan,
        }
    }

    /// The step after eviction: the profile's file handling.
    fn file_step(&self, d: &Ddl) -> DdlStep {
        if self.truncates_in_place(d) {
            return DdlStep::FileTruncate;
        }
        match self.profile.mechanisms.file_delete {
            FileDelete::UnderDictSys => DdlStep::FileUnlink,
            FileDelete::PostDdl => DdlStep::DictUnlock,
            FileDelete::AsyncPurge => DdlStep::PurgeRename,
        }
    }

    /// The step after `DictDrop`: the profile's AHI cleanup under `dict_sys`.
    fn ahi_step(&mut self, d: &mut Ddl) -> DdlStep {
        if self.truncates_by_discard(d) {
            // fil_discard_tablespace() frees no index tree: the LRU scan drops the AHI
            // entries of the pages it frees.
            return self.eviction_step(d);
        }
        let space = self.catalog[d.targets[d.current].table].table.space;
        let ahi_on = self.scenario.innodb.adaptive_hash_index;
        // DISCARD frees no index tree page by page: 5.7's BUF_REMOVE_ALL_NO_WRITE drops
        // the hash entries it meets on an LRU walk (buf_LRU_drop_page_hash_for_
        // tablespace()), as 8.0 does for DROP.
        let cleanup = if d.discard {
            AhiCleanup::LruScanIfHashed
        } else {
            self.profile.mechanisms.ahi_cleanup
        };
        match cleanup {
            AhiCleanup::PerPageUnderDictSys => {
                // Every page of every extent is checked, AHI on or off (the check is how
                // the code learns whether there is anything to drop).
                let pages = u64::from(self.catalog[d.targets[d.current].table].table.pages);
                let hashed = self.hashed_pages_of(space);
                let costs = &self.profile.costs;
                let estimate = Tick(costs.ahi_check_ns_per_page).times(pages)
                    + Tick(costs.ahi_drop_ns_per_record).times(self.hashed_records(space));
                self.emit(EventKind::AhiCleanupStarted {
                    space,
                    pages,
                    hashed_pages: hashed,
                    latch: Some(LatchId::DictSys),
                    until: self.sched.now + estimate,
                });
                d.next_page = 0;
                d.ahi = (self.sched.now, 0, 0);
                DdlStep::AhiFreeExtents
            }
            AhiCleanup::LruScanIfHashed if ahi_on && self.hashed_pages_of(space) > 0 => {
                d.instance = 0;
                d.ahi = (self.sched.now, 0, 0);
                let hashed = self.hashed_pages_of(space);
                let until = self.sched.now
                    + Tick(self.profile.costs.lru_scan_ns_per_page).times(self.pool.pages_data())
                    + Tick(self.profile.costs.ahi_drop_ns_per_record)
                        .times(self.hashed_records(space));
                self.emit(EventKind::AhiCleanupStarted {
                    space,
                    pages: self.pool.pages_data(),
                    hashed_pages: hashed,
                    latch: Some(LatchId::DictSys),
                    until,
                });
                DdlStep::AhiLruScan
            }
            _ => self.eviction_step(d),
        }
    }

    fn hashed_records(&self, space: SpaceId) -> u64 {
        self.pool
            .ahi_pages()
            .range((space, 0)..=(space, u8::MAX))
            .map(|(&(s, ix), &n)| n * self.ahi_records(s, ix))
            .sum()
    }

    /// Takes instance `d.instance`'s mutex and starts a walk of its whole LRU list,
    /// reported as a `Scan` span; returns how long the walk takes, or `None` if the
    /// thread is parked waiting for the mutex.
    fn walk_lru_list(&mut self, t: ThreadId, d: &Ddl) -> Option<Tick> {
        let latch = LatchId::BufPool(d.instance);
        if !self.acquire(latch, t) {
            return None;
        }
        let len = self.pool.instances()[usize::from(d.instance)].lru_len();
        let walk = Tick(self.profile.costs.lru_scan_ns_per_page).times(u64::from(len));
        self.emit(EventKind::Scan {
            list: ListKind::Lru,
            instance: d.instance,
            space: self.catalog[d.targets[d.current].table].table.space,
            latch,
            thread: t,
            from: 0,
            to: len,
            t0: self.sched.now,
            t1: self.sched.now + walk,
        });
        Some(walk)
    }

    fn finish_ahi(&mut self, d: &mut Ddl) {
        self.finish_peek(d);
        let space = self.catalog[d.targets[d.current].table].table.space;
        let (t0, pages, records) = d.ahi;
        self.emit(EventKind::AhiCleanupDone {
            space,
            t0,
            t1: self.sched.now,
            hashed_pages: pages,
            records,
        });
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `Sim::step_thread_until_it_waits`
    pub(super) fn step_ddl(&mut self, t: ThreadId, d: &mut Ddl) -> Next {
        let mech = self.profile.mechanisms.clone();
        match d.step {
            DdlStep::Begin => {
                if d.current >= d.targets.len() {
                    d.step = DdlStep::Finish;
                    return Next::After(Tick::ZERO);
                }
                d.file_done = false;
                d.peeked_to = 0;
                d.step = DdlStep::AfterMdl;
                Next::After(Tick::ZERO)
            }
            DdlStep::AfterMdl => {
                d.step = if mech.table_open_lock == TableOpenLock::LockOpenHeldByDrop
                    && !d.holds_lock_open
                {
                    DdlStep::LockOpen
                } else if mech.ahi_cleanup == AhiCleanup::BeforeDropOutsideDictSys {
                    DdlStep::AhiDropBeforeDrop
                } else {
                    DdlStep::DictLock
                };
                Next::After(Tick::ZERO)
            }
            DdlStep::LockOpen => {
                if !self.acquire(LatchId::LockOpen, t) {
                    return Next::Parked;
                }
                d.holds_lock_open = true;
                d.step = if mech.ahi_cleanup == AhiCleanup::BeforeDropOutsideDictSys {
                    DdlStep::AhiDropBeforeDrop
                } else {
                    DdlStep::DictLock
                };
                Next::After(Tick::ZERO)
            }
            DdlStep::AhiDropBeforeDrop => self.ddl_ahi_drop_before_drop(d),
            DdlStep::DictLock => {
                if !self.acquire(LatchId::DictSys, t) {
                    return Next::Parked;
                }
                d.step = DdlStep::DictDrop;
                Next::After(Tick(self.profile.costs.drop_dict_ns))
            }
            DdlStep::DictDrop => self.ddl_dict_drop(d),
            DdlStep::AhiFreeExtents => self.ddl_ahi_free_extents(d),
            DdlStep::AhiLruScan => self.ddl_ahi_lru_scan(t, d),
            DdlStep::AhiLruDrop => self.ddl_ahi_lru_drop(t, d),
            DdlStep::AhiLruDropDone => {
                self.finish_ahi(d);
                d.step = self.eviction_step(d);
                Next::After(Tick::ZERO)
            }
            DdlStep::LruScanBegin => match self.walk_lru_list(t, d) {
                Some(walk) => {
                    d.step = DdlStep::LruScan;
                    Next::After(walk)
                }
                None => Next::Parked,
            },
            DdlStep::LruScan => self.ddl_lru_scan(d),
            DdlStep::LruScanEnd => self.ddl_lru_scan_end(t, d),
            DdlStep::SpaceListScan => self.ddl_space_list_scan(t, d),
            DdlStep::SpaceListEnd => self.ddl_space_list_end(t, d),
            DdlStep::BumpVersion => self.ddl_bump_version(d),
            DdlStep::DictUnlockForScan => {
                self.release(LatchId::DictSys, t, true);
                d.step = DdlStep::LruScanBegin;
                Next::After(Tick::ZERO)
            }
            DdlStep::FileTruncate => self.ddl_file_truncate(t, d),
            DdlStep::FileTruncated => {
                self.release(LatchId::FilSys, t, true);
                d.file_done = true;
                self.next_target(d);
                d.step = DdlStep::Begin;
                Next::After(Tick::ZERO)
            }
            DdlStep::FileUnlink => self.ddl_file_unlink(t, d),
            DdlStep::FileUnlinked => {
                d.file_done = true;
                if mech.file_delete == FileDelete::UnderDictSys {
                    d.step = DdlStep::DictUnlock;
                } else {
                    self.next_target(d);
                    d.step = DdlStep::Begin;
                }
                Next::After(Tick::ZERO)
            }
            DdlStep::PurgeRename => self.ddl_purge_rename(d),
            DdlStep::DictUnlock => {
                self.release(LatchId::DictSys, t, true);
                if d.file_done {
                    self.next_target(d);
                    d.step = DdlStep::Begin;
                } else {
                    d.step = DdlStep::FileUnlink;
                }
                Next::After(Tick::ZERO)
            }
            DdlStep::Finish => self.ddl_finish(t, d),
            DdlStep::Peek(step) => self.step_peek(t, d, step),
        }
    }

    /// `LruScan`: the walk of `buf_LRU_remove_all_pages()` is done; free the space's pages.
    fn ddl_lru_scan(&mut self, d: &mut Ddl) -> Next {
        // The walk from tail to head ran under the mutex for the span's length; no
        // other thread could see the list meanwhile, so its result is computed
        // here in one sweep (viewers interpolate the cursor from the span).
        let space = self.catalog[d.targets[d.current].table].table.space;
        let (_freed, skipped) = self.pool.remove_space_pages(d.instance, space);
        d.io_skipped = skipped > 0;
        d.step = DdlStep::LruScanEnd;
        Next::After(Tick::ZERO)
    }

    /// `BumpVersion`: `fil_space_t::set_deleted()` (8.0.23) bumps the space's version.
    fn ddl_bump_version(&mut self, d: &mut Ddl) -> Next {
        let costs = self.profile.costs.clone();
        let space = self.catalog[d.targets[d.current].table].table.space;
        let (version, stale_pages) = self.pool.bump_space_version(space);
        self.emit(EventKind::SpaceVersionBumped {
            space,
            version,
            stale_pages,
        });
        d.step = self.file_step(d);
        Next::After(Tick(costs.version_bump_ns))
    }

    /// `AhiDropBeforeDrop`: AliSQL clears the table's AHI entries without `dict_sys`.
    fn ddl_ahi_drop_before_drop(&mut self, d: &mut Ddl) -> Next {
        let costs = self.profile.costs.clone();
        // AliSQL: drop the entries of indexes that have any, page by page, with no
        // dictionary latch: DML carries on.
        let space = self.catalog[d.targets[d.current].table].table.space;
        let records = self.hashed_records(space);
        let mut pages = 0;
        for i in 0..self.pool.n_instances() {
            pages += self
                .pool
                .ahi_drop_space(i, space)
                .iter()
                .map(|(_, n)| n)
                .sum::<u64>();
        }
        let cost = Tick(costs.ahi_drop_ns_per_record).times(records);
        if pages > 0 {
            self.emit(EventKind::AhiCleanupStarted {
                space,
                pages,
                hashed_pages: pages,
                latch: None,
                until: self.sched.now + cost,
            });
        }
        d.ahi = (self.sched.now, pages, records);
        d.step = DdlStep::DictLock;
        Next::After(cost)
    }

    /// `DictDrop`: `row_drop_table_for_mysql()` drops the table from the dictionary.
    fn ddl_dict_drop(&mut self, d: &mut Ddl) -> Next {
        let ti = d.targets[d.current].table;
        let (table, space) = (
            self.catalog[ti].table.name.clone(),
            self.catalog[ti].table.space,
        );
        if self.catalog[ti].table.discarded {
            // Nothing of it is in the pool or on disk: only the dictionary.
            if !d.discard {
                self.catalog[ti].table.dropped = true;
                self.emit(EventKind::TableDropped { table, space });
            }
            d.file_done = true;
            d.step = DdlStep::DictUnlock;
            return Next::After(Tick::ZERO);
        }
        if d.discard {
            self.catalog[ti].table.discarded = true;
            self.emit(EventKind::DdlPhase {
                session: d.session,
                table,
                phase: "discarding tablespace".to_string(),
                detail: String::new(),
            });
        } else if d.truncate {
            self.emit(EventKind::DdlPhase {
                session: d.session,
                table,
                phase: "truncating".to_string(),
                detail: String::new(),
            });
        } else {
            self.catalog[ti].table.dropped = true;
            self.emit(EventKind::TableDropped { table, space });
        }
        d.step = self.ahi_step(d);
        Next::After(Tick::ZERO)
    }

    /// `AhiFreeExtents`: 5.7 `fseg_free_extent()` drops the AHI entries of one extent.
    fn ddl_ahi_free_extents(&mut self, d: &mut Ddl) -> Next {
        let costs = self.profile.costs.clone();
        if let Some(next) = self.peek_zip_pages(d) {
            return next;
        }
        let table = &self.catalog[d.targets[d.current].table].table;
        let (space, pages) = (table.space, table.pages);
        let end = (d.next_page + EXTENT_PAGES).min(pages);
        let mut cost = Tick(costs.ahi_check_ns_per_page).times(u64::from(end - d.next_page));
        for p in d.next_page..end {
            let Some(f) = self.pool.frame_of(PageId { space, page_no: p }) else {
                continue;
            };
            let index = self.pool.ahi_unmark(f);
            if index != 0 {
                let recs = self.ahi_records(space, index);
                cost += Tick(costs.ahi_drop_ns_per_record).times(recs);
                d.ahi.1 += 1;
                d.ahi.2 += recs;
            }
        }
        d.next_page = end;
        if end >= pages {
            self.finish_ahi(d);
            d.step = self.eviction_step(d);
        }
        Next::After(cost)
    }

    /// `AhiLruScan`: 8.0 `btr_drop_ahi_for_table()` collects a batch of hashed pages.
    fn ddl_ahi_lru_scan(&mut self, t: ThreadId, d: &mut Ddl) -> Next {
        let costs = self.profile.costs.clone();
        let latch = LatchId::BufPool(d.instance);
        if !self.acquire(latch, t) {
            return Next::Parked;
        }
        let space = self.catalog[d.targets[d.current].table].table.space;
        if !d.ahi_batch_ready {
            let mut batch = std::mem::take(&mut d.ahi_batch);
            self.pool.hashed_from_tail(d.instance, space, &mut batch);
            d.ahi_batch = batch;
            d.ahi_batch_pos = 0;
            d.ahi_batch_ready = true;
        }
        let end = (d.ahi_batch_pos + AHI_BATCH).min(d.ahi_batch.len());
        // The walk reaches the batch's last page, or the head when none is left.
        let walk = match end.checked_sub(1).and_then(|e| d.ahi_batch.get(e)) {
            Some(&(rank, _)) => rank,
            None => self.pool.instances()[usize::from(d.instance)].lru_len(),
        };
        let took = Tick(costs.lru_scan_ns_per_page).times(u64::from(walk));
        self.emit(EventKind::Scan {
            list: ListKind::Lru,
            instance: d.instance,
            space,
            latch,
            thread: t,
            from: 0,
            to: walk,
            t0: self.sched.now,
            t1: self.sched.now + took,
        });
        d.step = DdlStep::AhiLruDrop;
        Next::After(took)
    }

    /// `AhiLruDrop`: drop the batch's AHI entries, the instance mutex released.
    fn ddl_ahi_lru_drop(&mut self, t: ThreadId, d: &mut Ddl) -> Next {
        let costs = self.profile.costs.clone();
        self.release(LatchId::BufPool(d.instance), t, true);
        let space = self.catalog[d.targets[d.current].table].table.space;
        let end = (d.ahi_batch_pos + AHI_BATCH).min(d.ahi_batch.len());
        let mut cost = Tick::ZERO;
        for k in d.ahi_batch_pos..end {
            let f = d.ahi_batch[k].1;
            // btr_search_drop_page_hash_when_freed(): if it is still that page
            // and still hashed.
            if self.pool.page_of(f).space != space || !self.pool.is_hashed(f) {
                continue;
            }
            let index = self.pool.ahi_unmark(f);
            let recs = self.ahi_records(space, index);
            cost += Tick(costs.ahi_drop_ns_per_record).times(recs);
            d.ahi.1 += 1;
            d.ahi.2 += recs;
        }
        d.ahi_batch_pos = end;
        if end < d.ahi_batch.len() {
            d.step = DdlStep::AhiLruScan;
            return Next::After(cost);
        }
        d.ahi_batch_ready = false;
        d.instance += 1;
        d.step = if d.instance < self.pool.n_instances() {
            DdlStep::AhiLruScan
        } else {
            DdlStep::AhiLruDropDone
        };
        Next::After(cost)
    }

    /// `LruScanEnd`: release the instance mutex; rescan if I/O-fixed pages were skipped.
    fn ddl_lru_scan_end(&mut self, t: ThreadId, d: &mut Ddl) -> Next {
        let latch = LatchId::BufPool(d.instance);
        self.release(latch, t, true);
        if d.io_skipped {
            // Pages of the space were being read: sleep and rescan this instance.
            d.step = DdlStep::LruScanBegin;
            return Next::After(RESCAN_SLEEP);
        }
        d.instance += 1;
        d.step = if d.instance < self.pool.n_instances() {
            DdlStep::LruScanBegin
        } else {
            self.file_step(d)
        };
        Next::After(Tick::ZERO)
    }

    /// `SpaceListScan`: AliSQL walks the space's own page list in one instance.
    fn ddl_space_list_scan(&mut self, t: ThreadId, d: &mut Ddl) -> Next {
        let costs = self.profile.costs.clone();
        let latch = LatchId::BufPool(d.instance);
        if !self.acquire(latch, t) {
            return Next::Parked;
        }
        // Only the space's own pages are visited.
        let space = self.catalog[d.targets[d.current].table].table.space;
        let (freed, skipped) = self.pool.remove_space_pages(d.instance, space);
        d.io_skipped = skipped > 0;
        d.step = DdlStep::SpaceListEnd;
        Next::After(Tick(costs.lru_scan_ns_per_page).times(u64::from(freed + skipped)))
    }

    /// `SpaceListEnd`: release the instance mutex; rescan if I/O-fixed pages were skipped.
    fn ddl_space_list_end(&mut self, t: ThreadId, d: &mut Ddl) -> Next {
        self.release(LatchId::BufPool(d.instance), t, true);
        if d.io_skipped {
            d.step = DdlStep::SpaceListScan;
            return Next::After(RESCAN_SLEEP);
        }
        d.instance += 1;
        d.step = if d.instance < self.pool.n_instances() {
            DdlStep::SpaceListScan
        } else {
            self.file_step(d)
        };
        Next::After(Tick::ZERO)
    }

    /// `FileTruncate`: 5.7 `truncate_t::truncate()` truncates the file under `fil_sys`.
    fn ddl_file_truncate(&mut self, t: ThreadId, d: &mut Ddl) -> Next {
        if !self.acquire(LatchId::FilSys, t) {
            return Next::Parked;
        }
        let table = &self.catalog[d.targets[d.current].table].table;
        let bytes = table.bytes;
        let path = super::ibd_path(&self.scenario.schema, &table.name);
        // To the size of an empty table: its first extent.
        let keep =
            u64::from(crate::dict::Table::new("t", table.space, 0, table.row_bytes, 0, 0).pages)
                * crate::units::PAGE_SIZE;
        let cost = self
            .fs
            .truncate(&super::fs_path(&path), keep)
            .unwrap_or(Tick::ZERO);
        self.emit(EventKind::FileTruncate {
            path,
            bytes,
            latch: Some(LatchId::FilSys),
            t0: self.sched.now,
            t1: self.sched.now + cost,
        });
        d.step = DdlStep::FileTruncated;
        Next::After(cost)
    }

    /// `FileUnlink`: `os_file_delete()`.
    fn ddl_file_unlink(&mut self, t: ThreadId, d: &mut Ddl) -> Next {
        let table = &self.catalog[d.targets[d.current].table].table;
        let bytes = table.bytes;
        let path = super::ibd_path(&self.scenario.schema, &table.name);
        // A discarded table has no file left; a hard link keeps the data, and
        // the unlink only removes the name.
        let cost = self.fs.unlink(&super::fs_path(&path)).unwrap_or(Tick::ZERO);
        self.emit(EventKind::FileUnlink {
            path,
            bytes,
            thread: t,
            t0: self.sched.now,
            t1: self.sched.now + cost,
        });
        d.step = DdlStep::FileUnlinked;
        Next::After(cost)
    }

    /// `PurgeRename`: AliSQL renames the file into the purge directory and starts its
    /// purge thread.
    fn ddl_purge_rename(&mut self, d: &mut Ddl) -> Next {
        let table = &self.catalog[d.targets[d.current].table].table;
        let path = format!(
            "./#file_purge/#FP_{}_{}",
            self.sched.now.as_secs(),
            table.space.0
        );
        let from = super::ibd_path(&self.scenario.schema, &table.name);
        let renamed = self
            .fs
            .rename(&super::fs_path(&from), &super::fs_path(&path))
            .unwrap_or(Tick::ZERO);
        let purge = FilePurge {
            path,
            remaining_bytes: table.bytes,
        };
        let id = self.sched.spawn(Thread::FilePurge(Box::new(purge)));
        // The purge thread starts after its interval.
        self.sched
            .schedule_thread(self.sched.now + PURGE_INTERVAL, id);
        d.file_done = true;
        d.step = DdlStep::DictUnlock;
        Next::After(renamed)
    }

    /// `Finish`: release `LOCK_open` (5.1) and report the result.
    fn ddl_finish(&mut self, t: ThreadId, d: &mut Ddl) -> Next {
        if d.holds_lock_open {
            self.release(LatchId::LockOpen, t, true);
            d.holds_lock_open = false;
        }
        if d.internal {
            return Next::Exit;
        }
        if let Some(session) = d.notify {
            self.sched.schedule_thread(self.sched.now, session);
            return Next::Exit;
        }
        let elapsed = self.sched.now - d.started;
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

    /// AliSQL's purge thread: truncate 512 MiB, sleep 100 ms, ..., unlink the rest.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `Sim::step_thread_until_it_waits`
    pub(super) fn step_file_purge(&mut self, t: ThreadId, p: &mut FilePurge) -> Next {
        let path = super::fs_path(&p.path);
        if p.remaining_bytes > PURGE_STEP_BYTES {
            let cost = self
                .fs
                .truncate_by(&path, PURGE_STEP_BYTES)
                .unwrap_or(Tick::ZERO);
            p.remaining_bytes -= PURGE_STEP_BYTES;
            self.emit(EventKind::PurgeStep {
                path: p.path.clone(),
                remaining_bytes: p.remaining_bytes,
                t0: self.sched.now,
                t1: self.sched.now + cost,
            });
            return Next::After(cost + PURGE_INTERVAL);
        }
        let cost = self.fs.unlink(&path).unwrap_or(Tick::ZERO);
        self.emit(EventKind::FileUnlink {
            path: p.path.clone(),
            bytes: p.remaining_bytes,
            thread: t,
            t0: self.sched.now,
            t1: self.sched.now + cost,
        });
        Next::Exit
    }
}
