//! Online ALTER TABLE: building a secondary index while the workload runs
//! (InnoDB `row_merge_build_indexes()`, 5.6+ online DDL), one thread per statement.
//!
//! ```text
//!  prepare ── MDL: SU → X briefly (waits for every open transaction on the table,
//!     │        "Waiting for table metadata lock") ── dict_sys: add
//!     │        the index to the dictionary, start the row log
//!     ▼
//!  read     every clustered leaf in key order (page gets through the pool); each row
//!     │     becomes an index entry in a sort buffer (innodb_sort_buffer_size); a full
//!     │     buffer is sorted in memory and written to the temp file as one run
//!     ▼
//!  merge    ceil(log2(runs)) passes, each reading and writing the whole temp file
//!     │     (through the OS page cache: copies on the build's core, `sort_file.rs`)
//!     ▼
//!  insert   BtrBulk: fill new leaf pages in order (buf_page_create + no-redo mtr); each
//!     │     page joins the flush list, tagged with the build's FlushObserver
//!     ▼
//!  flush    Flush_observer::flush(): buf_LRU_flush_or_remove_pages(BUF_REMOVE_FLUSH_
//!     │     WRITE) on every instance under its mutex. 5.7 restarts the walk from the
//!     │     tail after every page it writes (bug #102289): with the workload's dirty
//!     │     pages older than the index's, that is quadratic. 8.0 pins the next page and
//!     │     walks once (plus a verification pass). Then wait for the writes.
//!     ▼
//!  apply    row_log_apply(): the DML the workload did on the table meanwhile; a
//!     │     log past innodb_online_alter_log_max_size fails the ALTER (1799, also
//!     │     checked at the end of the read), rolled back
//!     ▼
//!  commit   MDL: SU → X again ── dict_sys ── done (the session releases the locks)
//! ```
//!
//! Every CPU step runs on the server's cores ([`super::cpu`]), in bursts of about a
//! statement's length, so a busy server slows the build and the build takes its share
//! from the workload: I4's 6.87 s idle against 31.97 s under sysbench.

mod bulk_io;
mod sort_file;

use super::locks::MdlPoll;
use super::{Next, Sim};
use crate::bufpool::{FrameId, FreeBlock, Lookup, PageId, SpaceId};
use crate::device::IoOp;
use crate::events::{EventKind, ListKind};
use crate::latch::LatchId;
use crate::mdl::{MdlContextId, MdlTicketId, MdlType};
use crate::profile::FlushScan;
use crate::sim::catalog::TableId;
use crate::time::Tick;
use crate::units::PAGE_SIZE;
use crate::ThreadId;

/// Longest CPU burst a DDL thread runs before going back to the run queue: about one
/// workload statement, so the cores are shared roughly as the kernel's fair scheduler
/// would share them.
const CPU_SLICE: Tick = Tick::from_us(500);
/// `buf_flush_try_yield()`: a flush-list walk releases the pool mutex after this many
/// visited pages (`BUF_LRU_DROP_SEARCH_SIZE`).
const FLUSH_YIELD_PAGES: u32 = 1024;
/// `Flush_observer` waits for its writes polling every 2 ms.
const FLUSH_WAIT_POLL: Tick = Tick::from_ms(2);
/// A DDL that finds no free block for a new page waits this long for the page cleaner.
const FREE_BLOCK_WAIT: Tick = Tick::from_ms(10);
/// Leaf pages read per step of the clustered-index scan.
const SCAN_PAGES_PER_STEP: u64 = 1;

/// An online index build.
#[derive(Clone, Debug)]
pub(super) struct IndexBuild {
    pub(super) session: u32,
    pub(super) table: TableId,
    /// Name of the new index.
    pub(super) name: String,
    /// Bytes of one entry of the new index.
    pub(super) entry_bytes: u64,
    step: BuildStep,
    /// CPU work still to run before `after_cpu`.
    cpu_left: Tick,
    /// CPU work done between bursts (page by page), run as one burst once it reaches a
    /// slice: a CPU-bound thread does not give up its core after every page.
    cpu_owed: Tick,
    after_cpu: BuildStep,
    /// Next clustered leaf to read (0-based among the leaves).
    leaf: u64,
    /// Read-ahead requests of the scan (`bulk_io.rs`): leaves `start..end`, done at.
    read_ahead: Vec<(u64, u64, Tick)>,
    /// Entries in the current sort buffer, runs written.
    in_buffer: u64,
    runs: u64,
    /// Merge passes to do and done; blocks of the temp file per pass and done.
    passes: u32,
    pass: u32,
    block: u64,
    /// The new index: number, first page, pages, next page to create.
    index: u8,
    first_page: u32,
    new_pages: u32,
    next_page: u32,
    /// Flush phase: current instance, pages written and restarts so far, walk left.
    instance: u16,
    walk_left: u32,
    walk_target: Option<FrameId>,
    /// Writes in flight: (completion, frame).
    in_flight: Vec<(Tick, FrameId)>,
    flushed: u64,
    restarts: u64,
    /// Row-log entries logged when the build started.
    log_start: u64,
    /// A table rebuild (OPTIMIZE, ENGINE=InnoDB, FORCE, a column change that is not
    /// instant) rather than one index: the new table being built, in its own tablespace.
    pub(super) rebuild: Option<Rebuild>,
    /// The tablespace the new pages go to.
    target_space: SpaceId,
    holds: Option<LatchId>,
    /// The session's metadata-lock context and its SHARED_UPGRADABLE ticket on the
    /// table, upgraded to EXCLUSIVE to prepare and to commit.
    mdl: (MdlContextId, MdlTicketId),
    /// The session thread waiting for this build.
    notify: ThreadId,
}

/// What a table rebuild changes.
#[derive(Clone, Debug)]
pub(super) struct Rebuild {
    /// Columns added (name, bytes) and dropped.
    pub(super) add: Vec<(String, u64)>,
    pub(super) drop: Vec<String>,
    /// The old table, once the new one took its name: dropped along the profile's DROP
    /// path (5.1: under LOCK_open, "rename result table").
    old: Option<TableId>,
    /// The thread dropping it.
    dropper: Option<ThreadId>,
}

impl Rebuild {
    pub(super) fn new(add: Vec<(String, u64)>, drop: Vec<String>) -> Rebuild {
        Rebuild {
            add,
            drop,
            old: None,
            dropper: None,
        }
    }
}

/// Where an index build is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BuildStep {
    /// Run `cpu_left` in slices, then go to `after_cpu`.
    Cpu,
    /// A slice ended: free the core.
    CpuDone,
    /// Prepare: upgrade the session's SU to X (`wait_while_table_is_used()`).
    PrepareWait,
    /// `ha_prepare_inplace_alter_table()`: add the index to the dictionary under
    /// `dict_sys`, create the row log.
    PrepareDict,
    PrepareDictDone,
    /// `row_merge_read_clustered_index()`: the next leaf page.
    ReadLeaf,
    /// The page was not in the pool: its read finished.
    ReadLeafDone,
    /// Rows of the page are in the sort buffer; sort and write a full buffer.
    ReadRows,
    /// A sorted run was written to the temp file.
    RunWritten,
    /// `row_merge_sort()`: one block of one merge pass.
    MergeBlock,
    /// `BtrBulk::insert()`: fill the next new page.
    BulkPage,
    /// `Flush_observer::flush()`: the flush-list walk of instance `instance`.
    FlushScan,
    /// A stretch of the walk ended (a page to write was reached, or 1024 pages visited).
    FlushWalkDone,
    /// Every instance walked: wait for the writes.
    FlushWait,
    /// `row_log_apply()`.
    ApplyLog,
    /// Commit: upgrade SU to X again; every transaction using the table must end.
    CommitWait,
    CommitDict,
    CommitDictDone,
    /// A rebuild waits for the old table's drop (5.1: under LOCK_open).
    DropOld,
    Finish,
}

impl IndexBuild {
    pub(super) fn new(
        session: u32,
        table: TableId,
        name: String,
        entry_bytes: u64,
        mdl: (MdlContextId, MdlTicketId),
        notify: ThreadId,
    ) -> IndexBuild {
        IndexBuild {
            mdl,
            notify,
            session,
            table,
            name,
            entry_bytes,
            step: BuildStep::PrepareWait,
            cpu_left: Tick::ZERO,
            cpu_owed: Tick::ZERO,
            after_cpu: BuildStep::PrepareWait,
            leaf: 0,
            in_buffer: 0,
            runs: 0,
            passes: 0,
            pass: 0,
            block: 0,
            index: 0,
            first_page: 0,
            new_pages: 0,
            next_page: 0,
            instance: 0,
            walk_left: 0,
            walk_target: None,
            read_ahead: Vec::new(),
            in_flight: Vec::new(),
            flushed: 0,
            restarts: 0,
            log_start: 0,
            holds: None,
            rebuild: None,
            target_space: SpaceId(0),
        }
    }

    /// A table rebuild (`row_merge_build_indexes()` into a new `#sql-ib` table, then
    /// the old table dropped): OPTIMIZE TABLE, ALTER TABLE ... ENGINE=InnoDB / FORCE, a
    /// column change with ALGORITHM=INPLACE or COPY.
    pub(super) fn rebuild(
        session: u32,
        table: TableId,
        rebuild: Rebuild,
        mdl: (MdlContextId, MdlTicketId),
        notify: ThreadId,
    ) -> IndexBuild {
        let mut b = IndexBuild::new(session, table, String::new(), 14, mdl, notify);
        b.rebuild = Some(rebuild);
        b
    }

    /// Runs `work` of CPU (and whatever was owed), then continues at `then`.
    fn burn(&mut self, work: Tick, then: BuildStep) -> Next {
        self.cpu_left = work + std::mem::take(&mut self.cpu_owed);
        self.after_cpu = then;
        self.step = BuildStep::Cpu;
        Next::After(Tick::ZERO)
    }

    /// Adds `work` to what is owed; runs it as a burst once it reaches a slice.
    fn owe(&mut self, work: Tick, then: BuildStep) -> Next {
        self.cpu_owed += work;
        if self.cpu_owed >= CPU_SLICE {
            return self.burn(Tick::ZERO, then);
        }
        self.step = then;
        Next::After(Tick::ZERO)
    }

    /// The processlist stage.
    pub(super) fn stage(&self) -> &'static str {
        match self.step {
            BuildStep::PrepareWait | BuildStep::CommitWait => "Waiting for table metadata lock",
            BuildStep::CommitDict | BuildStep::CommitDictDone | BuildStep::Finish => {
                "committing alter table to storage engine"
            }
            BuildStep::PrepareDict | BuildStep::PrepareDictDone => "preparing for alter table",
            _ => "altering table",
        }
    }
}

impl Sim {
    /// Entries of the sort buffer (`innodb_sort_buffer_size`) for `entry_bytes` entries.
    fn sort_buffer_entries(&self, entry_bytes: u64) -> u64 {
        (self.scenario.innodb.sort_buffer_size.bytes() / entry_bytes.max(1)).max(1)
    }

    fn build_phase(&mut self, b: &IndexBuild, phase: &'static str) {
        self.emit(EventKind::DdlPhase {
            session: b.session,
            table: self.catalog[b.table].table.name.clone(),
            phase: phase.to_string(),
            detail: String::new(),
        });
    }

    pub(super) fn step_index_build(&mut self, t: ThreadId, b: &mut IndexBuild) -> Next {
        match b.step {
            BuildStep::Cpu => {
                let slice = b.cpu_left.min(CPU_SLICE);
                b.cpu_left = b.cpu_left.saturating_sub(slice);
                b.step = BuildStep::CpuDone;
                self.cpu_run(t, slice)
            }
            BuildStep::CpuDone => {
                self.cpu_done();
                b.step = if b.cpu_left > Tick::ZERO {
                    BuildStep::Cpu
                } else {
                    b.after_cpu
                };
                Next::After(Tick::ZERO)
            }
            BuildStep::PrepareWait | BuildStep::CommitWait => self.index_build_mdl_upgrade(t, b),
            BuildStep::PrepareDict | BuildStep::CommitDict => {
                if !self.acquire(LatchId::DictSys, t) {
                    return Next::Parked;
                }
                b.holds = Some(LatchId::DictSys);
                b.step = if b.step == BuildStep::PrepareDict {
                    BuildStep::PrepareDictDone
                } else {
                    BuildStep::CommitDictDone
                };
                Next::After(Tick(self.profile.costs.drop_dict_ns))
            }
            BuildStep::PrepareDictDone if b.rebuild.is_some() => {
                self.index_build_prepare_rebuild(t, b)
            }
            BuildStep::PrepareDictDone => self.index_build_prepare_index(t, b),
            BuildStep::ReadLeaf => self.index_build_read_leaf(b),
            BuildStep::ReadLeafDone => {
                if let Some(f) = b.walk_target.take() {
                    self.pool.complete_read(f);
                }
                b.step = BuildStep::ReadRows;
                Next::After(Tick::ZERO)
            }
            BuildStep::ReadRows => self.index_build_read_rows(b),
            BuildStep::RunWritten => {
                // row_merge_write(): the sorted buffer goes to the temp file.
                let copy = self.sort_file_copy(b.in_buffer * b.entry_bytes);
                b.runs += 1;
                b.in_buffer = 0;
                b.burn(copy, BuildStep::ReadLeaf)
            }
            BuildStep::MergeBlock => self.index_build_merge_block(b),
            BuildStep::BulkPage => self.index_build_bulk_page(t, b),
            BuildStep::FlushScan => self.flush_scan_step(t, b),
            BuildStep::FlushWalkDone => self.index_build_flush_walk_done(t, b),
            BuildStep::FlushWait => self.index_build_flush_wait(b),
            BuildStep::ApplyLog => {
                let ops = self.catalog[b.table].row_log_ops - b.log_start;
                if b.rebuild.is_none() && self.row_log_overflowed(b, ops) {
                    return self.index_build_log_too_big(b);
                }
                let cpu = Tick(self.profile.costs.row_log_apply_ns).times(ops);
                b.burn(cpu, BuildStep::CommitWait)
            }
            BuildStep::CommitDictDone => self.index_build_commit_dict_done(t, b),
            BuildStep::DropOld => {
                let dropper = b.rebuild.as_ref().and_then(|r| r.dropper);
                if dropper.is_some_and(|d| {
                    !matches!(self.sched.threads[d.0 as usize], super::Thread::Exited)
                }) {
                    return Next::After(Tick::from_ms(1));
                }
                b.step = BuildStep::Finish;
                Next::After(Tick::ZERO)
            }
            BuildStep::Finish => {
                // The session reports the result and releases the metadata locks.
                self.sched.schedule_thread(self.sched.now, b.notify);
                Next::Exit
            }
        }
    }

    /// Whether `ops` row-log entries of an index build overflowed
    /// `innodb_online_alter_log_max_size` (`row_log_online_op()`): each entry is the
    /// new index's entry and a 2-byte header; a full block
    /// (`innodb_sort_buffer_size`) goes to the temporary file, and a block that would
    /// take the file past the limit marks the log `DB_ONLINE_LOG_TOO_BIG` instead.
    fn row_log_overflowed(&self, b: &IndexBuild, ops: u64) -> bool {
        const ROW_LOG_HEADER_BYTES: u64 = 2;
        let inn = &self.scenario.innodb;
        let block = inn.sort_buffer_size.bytes().max(1);
        let bytes = ops.saturating_mul(b.entry_bytes + ROW_LOG_HEADER_BYTES);
        (bytes / block) * block > inn.online_alter_log_max_size.bytes()
    }

    /// `row_log_apply()` found the log overflowed: the ALTER fails with 1799 and is
    /// rolled back (the new index goes), without the commit's EXCLUSIVE upgrade.
    fn index_build_log_too_big(&mut self, b: &mut IndexBuild) -> Next {
        let name = b.name.clone();
        self.catalog[b.table]
            .table
            .indexes
            .retain(|ix| !ix.name.eq_ignore_ascii_case(&name));
        self.catalog[b.table].online_build = false;
        let e = crate::sql::SqlError::online_log_too_big(&name);
        self.sql.ddl_outcomes.insert(b.session, e);
        self.sched.schedule_thread(self.sched.now, b.notify);
        Next::Exit
    }

    /// `PrepareWait` / `CommitWait`: upgrade the session's SU to X.
    fn index_build_mdl_upgrade(&mut self, t: ThreadId, b: &mut IndexBuild) -> Next {
        // mysql_inplace_alter_table(): SU -> X to prepare (InnoDB answers
        // HA_ALTER_INPLACE_NO_LOCK_AFTER_PREPARE for ADD INDEX) and again to
        // commit. Every transaction that used the table must end first, and
        // the pending X holds back every new statement on it.
        let (ctx, ticket) = b.mdl;
        let prepare = b.step == BuildStep::PrepareWait;
        match self.mdl_upgrade(t, ctx, ticket, MdlType::Exclusive) {
            MdlPoll::Granted(_) => {}
            MdlPoll::Wait => {
                self.set_state(b.session, "Waiting for table metadata lock");
                return Next::Parked;
            }
            MdlPoll::Failed(e) => {
                if !prepare {
                    // The ALTER is rolled back: the new index goes.
                    let name = b.name.clone();
                    self.catalog[b.table]
                        .table
                        .indexes
                        .retain(|ix| !ix.name.eq_ignore_ascii_case(&name));
                    self.catalog[b.table].online_build = false;
                }
                self.sql.ddl_outcomes.insert(b.session, e.into());
                self.sched.schedule_thread(self.sched.now, b.notify);
                return Next::Exit;
            }
        }
        self.set_state(
            b.session,
            if prepare {
                "preparing for alter table"
            } else {
                "committing alter table to storage engine"
            },
        );
        b.step = if prepare {
            BuildStep::PrepareDict
        } else {
            BuildStep::CommitDict
        };
        Next::After(Tick::ZERO)
    }

    /// `PrepareDictDone` of a rebuild: create the new table.
    fn index_build_prepare_rebuild(&mut self, t: ThreadId, b: &mut IndexBuild) -> Next {
        self.release(LatchId::DictSys, t, true);
        b.holds = None;
        // The new table, in a new tablespace (`#sql-ib<id>`), laid out whole; the
        // bulk load fills every one of its pages.
        let old = &self.catalog[b.table].table;
        let space = self.catalog.next_space_id();
        let r = b.rebuild.as_ref().expect("matched");
        let row_bytes = old.row_bytes + r.add.iter().map(|(_, n)| n).sum::<u64>()
            - r.drop
                .iter()
                .filter_map(|n| old.column(n).map(|c| c.bytes))
                .sum::<u64>();
        let secondary = old.indexes.len().saturating_sub(1) as u8;
        let mut fresh = crate::dict::Table::new(
            &format!("#sql-ib{}", space.0),
            space,
            old.rows,
            row_bytes,
            secondary,
            0,
        );
        fresh.columns = old.columns.clone();
        for (name, bytes) in &r.add {
            fresh.columns.push(crate::dict::Column {
                name: name.clone(),
                bytes: *bytes,
            });
        }
        fresh
            .columns
            .retain(|c| !r.drop.iter().any(|d| d.eq_ignore_ascii_case(&c.name)));
        b.first_page = 0;
        b.new_pages = fresh.pages;
        b.next_page = 0;
        b.target_space = space;
        self.pool.register_space(space);
        let _ = super::os::create_data_file(
            &mut self.fs,
            &self.scenario.schema,
            &fresh.name,
            fresh.bytes,
        );
        self.push_table(fresh);
        self.start_build(b)
    }

    /// `PrepareDictDone` of an index build: add the index to the table.
    fn index_build_prepare_index(&mut self, t: ThreadId, b: &mut IndexBuild) -> Next {
        self.release(LatchId::DictSys, t, true);
        b.holds = None;
        // The index exists in the dictionary (not yet usable); its pages are
        // allocated at the end of the file as the bulk load fills them.
        // Leaves appended since the load sit past the file's end (workload.rs); the
        // new index's pages go after them, as the file-space manager gives each page
        // to one tree only.
        let entry = &mut self.catalog[b.table];
        let appended = appended_leaves(&entry.table, entry.append_row);
        let table = &mut entry.table;
        table.pages += appended;
        let old_pages = table.pages;
        b.index = table.add_index(&b.name, b.entry_bytes);
        let ix = table.indexes.last().expect("just added");
        b.first_page = ix.root();
        b.new_pages = ix.pages() as u32;
        b.next_page = b.first_page;
        let (space, pages, bytes) = (table.space, table.pages, table.bytes);
        b.target_space = space;
        debug_assert!(pages >= old_pages);
        self.pool.register_space(space);
        // Simplification: the file grows to its new size at once (the server
        // extends it as the bulk load allocates extents).
        let path = super::fs_path(&super::ibd_path(&self.scenario.schema, &table.name));
        let _ = self.fs.grow_to(&path, bytes, super::os::EXTEND_MAX_BYTES);
        self.start_build(b)
    }

    /// `ReadLeaf`: `row_merge_read_clustered_index()` gets the next leaf page.
    fn index_build_read_leaf(&mut self, b: &mut IndexBuild) -> Next {
        let pk = self.catalog[b.table].table.primary().clone();
        if b.leaf >= pk.leaves() {
            // The last, partial buffer becomes a run too.
            if b.in_buffer > 0 {
                return self.sort_run(b);
            }
            // The scan ends with the row log's error, if it has one: on mariadbd
            // 10.11.19 the 1799 comes at the end of the clustered index scan (5.2 s of
            // an 11.9 s build), not after the sort (conformance script
            // online-log-overflow).
            let ops = self.catalog[b.table].row_log_ops - b.log_start;
            if b.rebuild.is_none() && self.row_log_overflowed(b, ops) {
                return self.index_build_log_too_big(b);
            }
            b.passes = if b.runs > 1 {
                64 - (b.runs - 1).leading_zeros()
            } else {
                0
            };
            b.pass = 0;
            b.block = 0;
            self.build_phase(b, "sorting");
            b.step = BuildStep::MergeBlock;
            return Next::After(Tick::ZERO);
        }
        let page = PageId {
            space: self.catalog[b.table].table.space,
            page_no: pk.first_leaf() + b.leaf as u32,
        };
        self.rec.counters.read_requests += 1;
        match self.pool.lookup(page) {
            Lookup::Hit(_) => {
                b.step = BuildStep::ReadRows;
                Next::After(Tick(self.profile.costs.page_get_ns))
            }
            Lookup::IoFixed(_) => {
                self.rec.counters.read_requests -= 1;
                Next::After(Tick::from_us(20))
            }
            Lookup::Stale(_) | Lookup::Miss if self.profile.mechanisms.scan_read_ahead => {
                self.index_build_read_ahead(b, pk.leaves())
            }
            Lookup::Stale(_) | Lookup::Miss => {
                // Simplification: the scan reads a missing leaf into a frame taken
                // from the free list when one is free, and otherwise into its own
                // buffer without caching it (the server would evict from the LRU).
                self.rec.counters.reads += 1;
                let done = self.device.submit(self.sched.now, IoOp::Read, PAGE_SIZE);
                if self.pool.lookup(page) == Lookup::Miss {
                    let inst = self.pool.instance_of(page);
                    if self.pool.instances()[usize::from(inst)].free_len() > 0 {
                        if let FreeBlock::FromFreeList(f) = self.pool.get_free_block(inst, 0) {
                            self.pool.init_for_read(f, page);
                            b.walk_target = Some(f);
                        }
                    }
                }
                b.step = BuildStep::ReadLeafDone;
                Next::After(done - self.sched.now)
            }
        }
    }

    /// `ReadRows`: the rows of the page go into the sort buffer; a full buffer is sorted.
    fn index_build_read_rows(&mut self, b: &mut IndexBuild) -> Next {
        let costs = &self.profile.costs;
        let pk = self.catalog[b.table].table.primary();
        let rows_total = self.catalog[b.table].table.rows;
        let first_row = b.leaf * pk.records_per_leaf;
        let rows = pk
            .records_per_leaf
            .min(rows_total.saturating_sub(first_row));
        b.leaf += SCAN_PAGES_PER_STEP;
        // A rebuild sorts an entry per secondary index (the clustered index is
        // already in key order); an index build one entry.
        let sorted = match b.rebuild {
            Some(_) => rows * (self.catalog[b.table].table.indexes.len() as u64 - 1),
            None => rows,
        };
        b.in_buffer += sorted;
        let rebuild = if b.rebuild.is_some() {
            costs.rebuild_ns_per_row
        } else {
            0
        };
        let cpu = Tick(costs.index_scan_ns_per_row + costs.record_parse_ns + rebuild).times(rows);
        let cap = self.sort_buffer_entries(b.entry_bytes);
        let then = if b.in_buffer >= cap {
            BuildStep::RunWritten
        } else {
            BuildStep::ReadLeaf
        };
        if then == BuildStep::RunWritten {
            // Sort the full buffer in memory: n log2 n comparisons.
            let n = b.in_buffer;
            let sort = Tick(costs.sort_compare_ns).times(n * u64::from(log2_ceil(n)));
            return b.burn(cpu + sort, BuildStep::RunWritten);
        }
        b.owe(cpu, then)
    }

    /// `MergeBlock`: `row_merge_sort()` merges one block of one pass.
    fn index_build_merge_block(&mut self, b: &mut IndexBuild) -> Next {
        let per_row = match b.rebuild {
            Some(_) => self.catalog[b.table].table.indexes.len() as u64 - 1,
            None => 1,
        };
        let file_bytes = self.catalog[b.table].table.rows * per_row * b.entry_bytes;
        let block_bytes = self.scenario.innodb.sort_buffer_size.bytes();
        let blocks = file_bytes.div_ceil(block_bytes).max(1);
        if b.pass >= b.passes {
            self.build_phase(b, "loading index");
            b.step = BuildStep::BulkPage;
            return Next::After(Tick::ZERO);
        }
        // Read one block of two runs, merge it, write it out (`sort_file.rs`).
        b.block += 1;
        if b.block >= blocks {
            b.block = 0;
            b.pass += 1;
        }
        let cpu = self.sort_file_merge_cpu(b, block_bytes);
        b.burn(cpu, BuildStep::MergeBlock)
    }

    /// `BulkPage`: `BtrBulk::insert()` fills the next new page.
    fn index_build_bulk_page(&mut self, t: ThreadId, b: &mut IndexBuild) -> Next {
        if b.next_page >= b.first_page + b.new_pages {
            if b.cpu_owed > Tick::ZERO {
                return b.burn(Tick::ZERO, BuildStep::BulkPage);
            }
            self.build_phase(b, "flushing index pages");
            b.instance = 0;
            b.step = BuildStep::FlushScan;
            return Next::After(Tick::ZERO);
        }
        if let Some(wait) = self.bulk_log_full() {
            return wait;
        }
        let page = PageId {
            space: b.target_space,
            page_no: b.next_page,
        };
        let inst = self.pool.instance_of(page);
        let latch = LatchId::BufPool(inst);
        if !self.acquire(latch, t) {
            return Next::Parked;
        }
        // buf_page_create() looks in the page hash first: a page of the tablespace's
        // old version (8.0.23's stale pages, after a TRUNCATE kept the space) is freed
        // (`buf_page_free_stale()`), one still in the pool is re-initialised in place,
        // and one being read is waited for.
        match self.pool.lookup(page) {
            Lookup::Stale(f) => self.pool.free_stale(f),
            Lookup::Hit(f) => {
                let lsn = self.bulk_page_lsn();
                self.pool.mark_dirty(f, lsn);
                self.release(latch, t, false);
                return self.index_build_page_made(b);
            }
            Lookup::IoFixed(_) => {
                self.release(latch, t, false);
                return Next::After(FREE_BLOCK_WAIT);
            }
            Lookup::Miss => {}
        }
        // A free block for the new page.
        let frame = match self.pool.get_free_block(inst, u32::MAX) {
            FreeBlock::FromFreeList(f) => Some(f),
            FreeBlock::Evicted { frame, .. } => Some(frame),
            FreeBlock::NoneFound { .. } => None,
        };
        let Some(f) = frame else {
            self.release(latch, t, false);
            self.rec.counters.wait_free += 1;
            self.signal_page_cleaner();
            return Next::After(FREE_BLOCK_WAIT);
        };
        self.pool.init_for_read(f, page);
        self.pool.complete_read(f);
        // A no-redo mini-transaction (the page is dirty as of the current LSN), or
        // MariaDB 10.5+'s logged one (`bulk_io.rs`).
        let lsn = self.bulk_page_lsn();
        self.pool.mark_dirty(f, lsn);
        self.release(latch, t, false);
        self.index_build_page_made(b)
    }

    /// A new page of the bulk load is made: on to the next, after its rows' CPU.
    fn index_build_page_made(&mut self, b: &mut IndexBuild) -> Next {
        b.next_page += 1;
        let entry = match b.rebuild {
            Some(_) => self
                .catalog
                .tables()
                .last()
                .map_or(b.entry_bytes, |t| t.row_bytes),
            None => b.entry_bytes,
        };
        let per_page = (PAGE_SIZE * 15 / 16) / entry.max(1);
        let costs = &self.profile.costs;
        let cpu = Tick(costs.bulk_insert_ns_per_row).times(per_page);
        b.owe(cpu + Tick(costs.lru_op_ns), BuildStep::BulkPage)
    }

    /// `FlushWalkDone`: a stretch of the flush-list walk ended.
    fn index_build_flush_walk_done(&mut self, t: ThreadId, b: &mut IndexBuild) -> Next {
        self.cpu_done();
        let latch = LatchId::BufPool(b.instance);
        if b.walk_left > 0 {
            // buf_flush_try_yield(): 1024 pages visited; let others in.
            self.release(latch, t, true);
            b.step = BuildStep::FlushScan;
            return Next::After(Tick::ZERO);
        }
        match b.walk_target.take() {
            Some(f) => {
                // buf_flush_page(): write it (asynchronously); the write releases
                // the mutexes, so the walk restarts from the tail. The page
                // cleaner may have written it while the walk yielded.
                if self.pool.is_dirty_unfixed(f) {
                    self.pool.start_page_write(f);
                    let done = self.device.submit(self.sched.now, IoOp::Write, PAGE_SIZE);
                    b.in_flight.push((done, f));
                    b.flushed += 1;
                }
            }
            // 8.0's single walk (and its verification pass) is over.
            None => b.instance += 1,
        }
        self.release(latch, t, true);
        b.step = BuildStep::FlushScan;
        Next::After(Tick::ZERO)
    }

    /// `FlushWait`: every instance walked; wait for the writes.
    fn index_build_flush_wait(&mut self, b: &mut IndexBuild) -> Next {
        self.complete_build_writes(b);
        if !b.in_flight.is_empty() {
            return Next::After(FLUSH_WAIT_POLL);
        }
        self.catalog[b.table].online_build = false;
        let detail = format!(
            "{} pages written, {} flush-list walks",
            b.flushed, b.restarts
        );
        self.emit(EventKind::DdlPhase {
            session: b.session,
            table: self.catalog[b.table].table.name.clone(),
            phase: "applying row log".to_string(),
            detail,
        });
        b.step = BuildStep::ApplyLog;
        Next::After(Tick::ZERO)
    }

    /// `CommitDictDone`: the commit is in the dictionary; a rebuild swaps the tables.
    fn index_build_commit_dict_done(&mut self, t: ThreadId, b: &mut IndexBuild) -> Next {
        self.release(LatchId::DictSys, t, true);
        b.holds = None;
        if let Some(mut r) = b.rebuild.take() {
            {
                // Swap names: the new table becomes the table; the old one, now
                // `#sql-ib<old space>`, is dropped along the DROP path.
                let new = self
                    .catalog
                    .find(|x| x.space == b.target_space)
                    .expect("the new table exists");
                let name = self.catalog[b.table].table.name.clone();
                let hidden = format!("#sql-ib{}", self.catalog[b.table].table.space.0);
                let schema = self.scenario.schema.clone();
                let file = |n: &str| super::fs_path(&super::ibd_path(&schema, n));
                let _ = self.fs.rename(&file(&name), &file(&hidden));
                let _ = self
                    .fs
                    .rename(&file(&self.catalog[new].table.name), &file(&name));
                self.catalog.swap_tables(b.table, new);
                self.catalog[b.table].table.name = name;
                self.catalog[new].table.name = hidden;
                self.catalog[b.table].append_row = self.catalog[b.table].table.rows;
                r.old = Some(new);
                self.build_phase(b, "rename result table");
                let mut d = super::ddl::Ddl::new(
                    b.session,
                    String::new(),
                    self.sched.now,
                    vec![super::ddl::DropTarget { table: new }],
                );
                d.internal = true;
                let id = self.sched.spawn(super::Thread::Ddl(Box::new(d)));
                self.sched.schedule_thread(self.sched.now, id);
                r.dropper = Some(id);
            }
            b.rebuild = Some(r);
            b.step = BuildStep::DropOld;
            return Next::After(Tick::ZERO);
        }
        b.step = BuildStep::Finish;
        Next::After(Tick::ZERO)
    }

    /// Prepared: start the row log, go back to SU so DML on the table runs (logged), and
    /// start reading the clustered index.
    fn start_build(&mut self, b: &mut IndexBuild) -> Next {
        self.catalog[b.table].online_build = true;
        b.log_start = self.catalog[b.table].row_log_ops;
        self.mdl_downgrade(b.mdl.1, MdlType::SharedUpgradable);
        self.set_state(b.session, "altering table");
        self.build_phase(b, "reading clustered index");
        b.step = BuildStep::ReadLeaf;
        Next::After(Tick::ZERO)
    }

    fn sort_run(&mut self, b: &mut IndexBuild) -> Next {
        let n = b.in_buffer;
        let sort = Tick(self.profile.costs.sort_compare_ns).times(n * u64::from(log2_ceil(n)));
        b.burn(sort, BuildStep::RunWritten)
    }

    fn complete_build_writes(&mut self, b: &mut IndexBuild) {
        let now = self.sched.now;
        let mut k = 0;
        while k < b.in_flight.len() {
            if b.in_flight[k].0 <= now {
                let (_, f) = b.in_flight.swap_remove(k);
                self.pool.complete_write(f, false);
            } else {
                k += 1;
            }
        }
    }

    /// One stretch of `Flush_observer::flush()` on instance `b.instance`.
    fn flush_scan_step(&mut self, t: ThreadId, b: &mut IndexBuild) -> Next {
        if b.instance >= self.pool.n_instances() {
            b.step = BuildStep::FlushWait;
            return Next::After(Tick::ZERO);
        }
        let latch = LatchId::BufPool(b.instance);
        if !self.acquire(latch, t) {
            return Next::Parked;
        }
        self.complete_build_writes(b);
        let space: SpaceId = b.target_space;
        let scan_ns = self.profile.costs.lru_scan_ns_per_page;
        if b.walk_left == 0 {
            // A new walk from the tail.
            match self.profile.mechanisms.flush_scan {
                FlushScan::RestartAfterFlush => {
                    let observed = b.first_page..b.first_page + b.new_pages;
                    match self
                        .pool
                        .flush_list_next_of_space(b.instance, space, observed)
                    {
                        Some((frame, visits)) => {
                            b.walk_left = visits;
                            b.walk_target = Some(frame);
                            b.restarts += 1;
                            let len = self.pool.instances()[usize::from(b.instance)].dirty_len();
                            self.emit(EventKind::Scan {
                                list: ListKind::Flush,
                                instance: b.instance,
                                space,
                                latch,
                                thread: t,
                                from: 0,
                                to: visits.min(len),
                                t0: self.sched.now,
                                t1: self.sched.now + Tick(scan_ns).times(u64::from(visits)),
                            });
                        }
                        None => {
                            self.release(latch, t, true);
                            b.instance += 1;
                            return Next::After(Tick::ZERO);
                        }
                    }
                }
                FlushScan::PinNext | FlushScan::SpaceList => {
                    // One walk writing every page of the space as it is met, then a
                    // verification walk (flush mode always returns DB_FAIL once).
                    let mut pages = Vec::new();
                    let observed = b.first_page..b.first_page + b.new_pages;
                    let len = self
                        .pool
                        .flush_list_pages_of_space(b.instance, space, observed, &mut pages);
                    for &f in &pages {
                        self.pool.start_page_write(f);
                        let done = self.device.submit(self.sched.now, IoOp::Write, PAGE_SIZE);
                        b.in_flight.push((done, f));
                    }
                    b.flushed += pages.len() as u64;
                    b.restarts += 1;
                    let len = if self.profile.mechanisms.flush_scan == FlushScan::SpaceList {
                        pages.len() as u32
                    } else {
                        len
                    };
                    b.walk_left = 2 * len;
                    b.walk_target = None;
                    self.emit(EventKind::Scan {
                        list: ListKind::Flush,
                        instance: b.instance,
                        space,
                        latch,
                        thread: t,
                        from: 0,
                        to: len,
                        t0: self.sched.now,
                        t1: self.sched.now + Tick(scan_ns).times(2 * u64::from(len)),
                    });
                    if len == 0 {
                        self.release(latch, t, true);
                        b.instance += 1;
                        return Next::After(Tick::ZERO);
                    }
                }
            }
        }
        let stretch = b.walk_left.min(FLUSH_YIELD_PAGES);
        b.walk_left -= stretch;
        b.step = BuildStep::FlushWalkDone;
        self.cpu_run(t, Tick(scan_ns).times(u64::from(stretch)))
    }
}

/// `ceil(log2(n))`, at least 1.
fn log2_ceil(n: u64) -> u32 {
    if n <= 2 {
        1
    } else {
        64 - (n - 1).leading_zeros()
    }
}

/// DDL that changes only the data dictionary (and at most creates or renames a file):
/// instant ADD/DROP COLUMN (`Instant_ddl_impl`: no row is read or written), RENAME
/// TABLE, CREATE TABLE ... LIKE. Each takes the metadata lock's exclusive phase on the
/// tables it changes and `dict_sys`, whatever the tables' sizes.
#[derive(Clone, Debug)]
pub(super) struct MetaDdl {
    pub(super) session: u32,
    pub(super) change: MetaChange,
    step: MetaStep,
    /// For an instant column change, the session's context and its SHARED_UPGRADABLE
    /// ticket, upgraded to EXCLUSIVE for the commit; RENAME and CREATE ... LIKE come
    /// with their EXCLUSIVE locks already held by the session.
    mdl: Option<(MdlContextId, MdlTicketId)>,
    /// The session thread waiting for this change.
    notify: ThreadId,
}

/// What a [`MetaDdl`] changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum MetaChange {
    /// Instant ADD/DROP COLUMN: columns added (name, bytes) and dropped; whether the
    /// table gets a new row version (8.0.29+).
    Columns {
        table: TableId,
        add: Vec<(String, u64)>,
        drop: Vec<String>,
        new_row_version: bool,
    },
    /// RENAME TABLE a TO b, c TO d: every pair at once.
    Rename(Vec<(TableId, String)>),
    /// CREATE TABLE name LIKE table: an empty table of the same shape.
    CreateLike { like: TableId, name: String },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MetaStep {
    /// The metadata lock's EXCLUSIVE phase: upgrade the session's SU (instant column
    /// change); RENAME and CREATE ... LIKE hold X already.
    Wait,
    Dict,
    DictDone,
}

impl MetaDdl {
    pub(super) fn new(
        session: u32,
        change: MetaChange,
        mdl: Option<(MdlContextId, MdlTicketId)>,
        notify: ThreadId,
    ) -> MetaDdl {
        MetaDdl {
            session,
            change,
            step: MetaStep::Wait,
            mdl,
            notify,
        }
    }

    /// The processlist stage once the exclusive lock is held.
    fn stage_after_lock(&self) -> &'static str {
        match &self.change {
            MetaChange::Columns { .. } => "committing alter table to storage engine",
            MetaChange::Rename(_) => "rename",
            MetaChange::CreateLike { .. } => "creating table",
        }
    }

    /// The processlist stage.
    pub(super) fn stage(&self) -> &'static str {
        match (self.step, &self.change) {
            (MetaStep::Wait, _) => "Waiting for table metadata lock",
            (_, MetaChange::Columns { .. }) => "committing alter table to storage engine",
            (_, MetaChange::Rename(_)) => "rename",
            (_, MetaChange::CreateLike { .. }) => "creating table",
        }
    }
}

impl Sim {
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `Sim::step_thread_until_it_waits`
    pub(super) fn step_meta_ddl(&mut self, t: ThreadId, a: &mut MetaDdl) -> Next {
        match a.step {
            MetaStep::Wait => {
                if let Some((ctx, ticket)) = a.mdl {
                    match self.mdl_upgrade(t, ctx, ticket, MdlType::Exclusive) {
                        MdlPoll::Granted(_) => {}
                        MdlPoll::Wait => {
                            self.set_state(a.session, "Waiting for table metadata lock");
                            return Next::Parked;
                        }
                        MdlPoll::Failed(e) => {
                            self.sql.ddl_outcomes.insert(a.session, e.into());
                            self.sched.schedule_thread(self.sched.now, a.notify);
                            return Next::Exit;
                        }
                    }
                }
                self.set_state(a.session, a.stage_after_lock());
                a.step = MetaStep::Dict;
                Next::After(Tick::ZERO)
            }
            MetaStep::Dict => {
                if !self.acquire(LatchId::DictSys, t) {
                    return Next::Parked;
                }
                a.step = MetaStep::DictDone;
                Next::After(Tick(self.profile.costs.drop_dict_ns))
            }
            MetaStep::DictDone => {
                self.release(LatchId::DictSys, t, true);
                self.apply_meta_change(&mut a.change);
                // The session reports the result and releases the metadata locks.
                self.sched.schedule_thread(self.sched.now, a.notify);
                Next::Exit
            }
        }
    }

    fn apply_meta_change(&mut self, change: &mut MetaChange) {
        match change {
            MetaChange::Columns {
                table,
                add,
                drop,
                new_row_version,
            } => {
                let table = &mut self.catalog[*table].table;
                for (name, bytes) in add.drain(..) {
                    table.row_bytes += bytes;
                    table.columns.push(crate::dict::Column { name, bytes });
                }
                for name in drop.drain(..) {
                    if let Some(c) = table.column(&name) {
                        table.row_bytes = table.row_bytes.saturating_sub(c.bytes);
                    }
                    table
                        .columns
                        .retain(|c| !c.name.eq_ignore_ascii_case(&name));
                }
                if *new_row_version {
                    table.row_version += 1;
                }
            }
            MetaChange::Rename(pairs) => {
                // Files first to temporary names, then to their new ones, so swaps work.
                let schema = self.scenario.schema.clone();
                let file = |name: &str| super::fs_path(&super::ibd_path(&schema, name));
                for (t, _) in pairs.iter() {
                    let from = file(&self.catalog[*t].table.name);
                    let _ = self.fs.rename(&from, &format!("{from}.#rename"));
                }
                for (t, name) in pairs.iter() {
                    let from = format!("{}.#rename", file(&self.catalog[*t].table.name));
                    let _ = self.fs.rename(&from, &file(name));
                    self.catalog[*t].table.name = name.clone();
                }
                self.catalog.refresh_workload_tables();
            }
            MetaChange::CreateLike { like, name } => {
                let src = &self.catalog[*like].table;
                let space = self.catalog.next_space_id();
                let secondary = src.indexes.len().saturating_sub(1) as u8;
                let mut fresh =
                    crate::dict::Table::new(name, space, 0, src.row_bytes, secondary, 0);
                fresh.columns = src.columns.clone();
                self.pool.register_space(space);
                let schema = &self.scenario.schema;
                let _ = super::os::create_data_file(&mut self.fs, schema, name, fresh.bytes);
                // The SQL layer's definition, copied (sim/session).
                let mut def = self.catalog[*like].def.clone();
                // LIKE copies columns, keys and AUTO_INCREMENT, not triggers.
                def.triggers.clear();
                def.live_rows = 0;
                def.rebuilt_at = self.sched.now;
                self.catalog.push(fresh, def, 0);
                self.catalog.refresh_workload_tables();
            }
        }
    }
}

/// Leaves past the loaded ones that appends up to row `append_row` have taken (their
/// pages follow the file's end: `workload.rs`'s insert).
fn appended_leaves(table: &crate::dict::Table, append_row: u64) -> u32 {
    let pk = table.primary();
    let last = append_row.saturating_sub(1) / pk.records_per_leaf.max(1);
    last.saturating_sub(pk.leaves().saturating_sub(1)) as u32
}
