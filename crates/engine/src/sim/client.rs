//! Client sessions: each runs the workload's events (sysbench transactions) one
//! statement at a time, and each statement one page at a time.
//!
//! ```text
//!  NextEvent ─▶ StatementStart ─▶ BufPageGet ─hit──────────────────────────▶ PageDone ─┐
//!                    ▲                │ miss                                    ▲      │
//!                    │                ▼                                         │      │
//!                    │           GetFreeBlock ─▶ ReadIssue ─▶ ReadComplete ─────┘      │
//!                    │            │ none free                                          │
//!                    │            ▼                                                    │
//!                    │      SinglePageWrite ─▶ SinglePageWriteDone (retry)             │
//!                    └──── StatementEnd ◀── LogFlush (COMMIT) ◀── last page ◀──────────┘
//! ```
//!
//! Latches are held only across the steps that need them (`MakeYoung`, `GetFreeBlock`,
//! `ReadComplete`); a session parked in a latch queue shows in the processlist.

use super::{Next, Sim};
use crate::bufpool::{
    FrameId, FreeBlock, Lookup, Lsn, PageId, SinglePageFlush, SpaceId, FRAME_NONE,
    LRU_SEARCH_SCAN_THRESHOLD,
};
use crate::device::IoOp;
use crate::latch::LatchId;
use crate::profile::TableOpenLock;
use crate::rng::SimRng;
use crate::scenario::PAGE_SIZE;
use crate::time::Tick;
use crate::workload::{event_statements, statement_ops, PageOp, StatementKind};
use crate::ThreadId;

/// A thread that finds its page being read by another thread polls this often.
const IO_WAIT_POLL: Tick = Tick::from_us(20);
/// `buf_LRU_get_free_block()` sleeps 10 ms from its third attempt on.
const FREE_BLOCK_SLEEP: Tick = Tick::from_ms(10);
/// `log_free_check()` waits in steps of this while the checkpoint age is too high.
const LOG_FREE_CHECK_POLL: Tick = Tick::from_ms(1);

/// A client session running the workload.
#[derive(Clone, Debug)]
pub(super) struct Client {
    pub(super) session: u32,
    rng: SimRng,
    step: ClientStep,
    stmts: &'static [StatementKind],
    stmt_idx: usize,
    table: usize,
    ops: Vec<PageOp>,
    op_idx: usize,
    page: PageId,
    frame: FrameId,
    event_start: Tick,
    last_lsn: Lsn,
    wrote: bool,
    free_block_attempt: u32,
    /// Bytes of row-lock structures this transaction holds.
    lock_bytes: u64,
}

/// Where a client is, named after the InnoDB code it models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClientStep {
    /// Start the next sysbench event.
    NextEvent,
    /// The statement arrives after the client round trip; parse and execute.
    StatementStart,
    /// The statement's CPU burst is over: free the core.
    StatementCpuDone,
    /// `open_table()`: 5.1 needs the global `LOCK_open` ("Opening tables").
    OpenTable,
    /// A replication plugin's `before_dml` hook (5.7: under `dict_sys`).
    BeforeDml,
    /// `buf_page_get_gen()`: look the page up in the page hash.
    BufPageGet,
    /// `buf_page_make_young()`: move the page to the LRU head, under the instance mutex.
    MakeYoung,
    /// Release the instance mutex after `MakeYoung`.
    MakeYoungDone,
    /// `buf_page_get_gen()` met a compressed-only page: under the instance mutex take a
    /// free block and move the page into it (`buf_relocate()`).
    Unzip,
    /// Release the mutex and inflate the page (`buf_zip_decompress()`), a CPU burst.
    UnzipDone,
    /// The inflate's burst ended.
    UnzipInflated,
    /// 8.0.23 `buf_page_free_stale()`: the lookup met a stale page; free it.
    FreeStale,
    /// Release the instance mutex after `FreeStale`, then read the page.
    FreeStaleDone,
    /// `buf_LRU_get_free_block()` + `buf_page_init_for_read()`, under the instance mutex.
    GetFreeBlock,
    /// `buf_flush_single_page_from_LRU()`: write the dirty tail page synchronously.
    SinglePageWrite,
    /// The single-page write finished: free the block, retry the free-block search.
    SinglePageWriteDone,
    /// Release the instance mutex and issue the read (`buf_read_page()`).
    ReadIssue,
    /// `buf_page_io_complete()`: the read is done; clear the I/O fix under the mutex.
    ReadComplete,
    /// Release the instance mutex after `ReadComplete`.
    ReadCompleteDone,
    /// The page is fixed: apply the change (`mtr_commit()`), go to the next page.
    PageDone,
    /// 5.7: name the tablespace for redo under the global `fil_sys` mutex.
    FilNames,
    /// `buf_flush_insert_into_flush_list()`: a clean page's first modification puts it
    /// on the flush list, under the instance's flush-list mutex.
    NoteModification,
    /// `trx_commit()` → `log_write_up_to(flush = true)`: wait for the redo flush.
    LogFlush,
    /// The statement's result goes back to the client.
    StatementEnd,
}

impl Client {
    pub(super) fn new(session: u32, rng: SimRng) -> Client {
        Client {
            session,
            rng,
            step: ClientStep::NextEvent,
            stmts: &[],
            stmt_idx: 0,
            table: 0,
            ops: Vec::with_capacity(8),
            op_idx: 0,
            page: PageId {
                space: SpaceId(0),
                page_no: 0,
            },
            frame: FRAME_NONE,
            event_start: Tick::ZERO,
            last_lsn: Lsn(0),
            wrote: false,
            free_block_attempt: 0,
            lock_bytes: 0,
        }
    }

    /// The processlist state for this session.
    pub(super) fn state_name(&self) -> &'static str {
        match self.step {
            ClientStep::NextEvent => "",
            ClientStep::ReadComplete | ClientStep::ReadIssue => "reading a page",
            ClientStep::SinglePageWrite | ClientStep::SinglePageWriteDone => {
                "flushing a page to free a block"
            }
            ClientStep::LogFlush => "waiting for handler commit",
            ClientStep::OpenTable => "Opening tables",
            _ => match self.stmts.get(self.stmt_idx) {
                Some(k) if k.is_write() => "updating",
                _ => "Sending data",
            },
        }
    }
}

/// Records a statement parses: a binary search over the page directory and a short
/// linear walk on every page of each descent (about `log2(records per page)` + 2
/// records: 9 for sysbench's 60-odd rows a leaf), plus every row a range reads.
pub(super) fn records_parsed(kind: StatementKind, pages: usize, table_rows: u64) -> u64 {
    const PER_PAGE_SEARCH: u64 = 9;
    let range = if kind == StatementKind::RangeSelect {
        crate::workload::RANGE_ROWS.min(table_rows)
    } else {
        0
    };
    pages as u64 * PER_PAGE_SEARCH + range
}

/// A leaf page hit this many times is hashed, on average: InnoDB builds a page's hash
/// once enough searches on it would have been helped (`btr_search_info_update_hash()`,
/// `BTR_SEARCH_BUILD_LIMIT`). Simplification: a 1-in-16 chance per hit.
const AHI_BUILD_ODDS: u64 = 16;

impl Sim {
    /// `btr_search_build_page_hash_index()`: a hit on an unhashed leaf may hash it.
    fn maybe_build_hash(&mut self, c: &mut Client) {
        if !self.scenario.innodb.adaptive_hash_index || c.frame == FRAME_NONE {
            return;
        }
        let op = c.ops[c.op_idx];
        let table = &self.tables[c.table];
        // Sessions hold no buffer fix between steps: make sure the frame still holds the page.
        if self.pool.lookup(PageId {
            space: table.space,
            page_no: op.page,
        }) != Lookup::Hit(c.frame)
        {
            return;
        }
        let index = table.index_of_page(op.page);
        let is_leaf = index != 0 && op.page >= table.indexes[usize::from(index) - 1].first_leaf();
        if is_leaf && !self.pool.is_hashed(c.frame) && c.rng.chance(1, AHI_BUILD_ODDS) {
            self.pool.ahi_mark(c.frame, index);
        }
    }

    /// A round trip drawn from the workload's distribution: most within ±jitter of the
    /// mean, a few slow ones (uniform up to `tail_x` times the mean).
    fn round_trip(&self, rng: &mut SimRng) -> Tick {
        let w = &self.scenario.workload;
        let mean = w.round_trip_us * 1_000;
        if w.round_trip_tail_permille > 0 && rng.chance(u64::from(w.round_trip_tail_permille), 1000)
        {
            let span = mean * u64::from(w.round_trip_tail_x.max(1));
            return Tick(mean + rng.below(span.saturating_sub(mean).max(1)));
        }
        let j = mean * u64::from(w.round_trip_jitter_pct) / 100;
        Tick(mean - j + rng.below(2 * j + 1))
    }

    fn pick_table(&self, rng: &mut SimRng) -> Option<usize> {
        let live = self
            .workload_tables
            .iter()
            .filter(|&&t| self.table_open(t))
            .count() as u64;
        if live == 0 {
            return None;
        }
        let pick = rng.below(live) as usize;
        self.workload_tables
            .iter()
            .copied()
            .filter(|&t| self.table_open(t))
            .nth(pick)
    }

    pub(super) fn step_client(&mut self, t: ThreadId, c: &mut Client) -> Next {
        let (page_get, lru_op) = (
            Tick(self.profile.costs.page_get_ns),
            Tick(self.profile.costs.lru_op_ns),
        );
        match c.step {
            ClientStep::NextEvent => {
                c.stmts = event_statements(self.scenario.workload.kind);
                c.stmt_idx = 0;
                c.event_start = self.now;
                c.wrote = false;
                self.running += 1;
                c.step = ClientStep::StatementStart;
                Next::After(self.round_trip(&mut c.rng))
            }
            ClientStep::StatementStart => {
                let kind = c.stmts[c.stmt_idx];
                let Some(table) = self.pick_table(&mut c.rng) else {
                    if self
                        .workload_tables
                        .iter()
                        .any(|&t| !self.tables[t].dropped && self.ddl_claimed[t])
                    {
                        // A DDL holds the table exclusively for a moment: wait for it.
                        return Next::After(Tick::from_us(200));
                    }
                    // Every table the workload uses is gone: sysbench's statements fail;
                    // idle until one exists again.
                    self.running -= 1;
                    c.step = ClientStep::NextEvent;
                    return Next::After(Tick::SECOND);
                };
                c.table = table;
                self.table_users[table] += 1;
                statement_ops(
                    kind,
                    &self.tables[table],
                    &self.dist,
                    &mut c.rng,
                    &mut self.append_row[table],
                    &mut c.ops,
                );
                if kind == StatementKind::PointSelect && self.scenario.innodb.adaptive_hash_index {
                    // btr_search_guess_on_hash(): a point lookup whose leaf is hashed goes
                    // straight to it, skipping the descent.
                    if let Some(&leaf) = c.ops.last() {
                        let page = PageId {
                            space: self.tables[table].space,
                            page_no: leaf.page,
                        };
                        if let Lookup::Hit(f) = self.pool.lookup(page) {
                            if self.pool.is_hashed(f) {
                                c.ops.clear();
                                c.ops.push(leaf);
                            }
                        }
                    }
                }
                c.op_idx = 0;
                c.free_block_attempt = 0;
                c.step = ClientStep::StatementCpuDone;
                let parsed = records_parsed(kind, c.ops.len(), self.tables[table].rows);
                let mut cpu = Tick::from_us(self.scenario.workload.statement_cpu_us)
                    + Tick(self.profile.costs.record_parse_ns).times(parsed);
                if kind.is_write() && self.online_build[table] {
                    // row_log_online_op(): an index is being built; log the change.
                    self.row_log_ops[table] += 1;
                    cpu += Tick(self.profile.costs.row_log_ns);
                }
                self.cpu_run(t, cpu)
            }
            ClientStep::StatementCpuDone => {
                self.cpu_done();
                c.step = ClientStep::OpenTable;
                Next::After(Tick::ZERO)
            }
            ClientStep::OpenTable => {
                // open_table(): 5.1 takes the global LOCK_open for every table it opens.
                if self.profile.mechanisms.table_open_lock == TableOpenLock::LockOpenHeldByDrop
                    && !matches!(
                        c.stmts[c.stmt_idx],
                        StatementKind::Begin | StatementKind::Commit
                    )
                {
                    if !self.acquire(LatchId::LockOpen, t) {
                        return Next::Parked;
                    }
                    self.release(LatchId::LockOpen, t, false);
                }
                c.step = ClientStep::BeforeDml;
                Next::After(Tick::ZERO)
            }
            ClientStep::BeforeDml => {
                // The replication plugin's before_dml hook looks up foreign keys through
                // InnoDB's dictionary, under dict_sys (5.7).
                let kind = c.stmts[c.stmt_idx];
                if kind.is_write()
                    && self.scenario.server.replication_plugin
                    && self.profile.mechanisms.before_dml_takes_dict_sys
                {
                    if !self.acquire(LatchId::DictSys, t) {
                        return Next::Parked;
                    }
                    self.release(LatchId::DictSys, t, false);
                }
                c.step = if c.ops.is_empty() {
                    if kind == StatementKind::Commit && c.wrote {
                        ClientStep::LogFlush
                    } else {
                        ClientStep::StatementEnd
                    }
                } else {
                    ClientStep::BufPageGet
                };
                Next::After(Tick::ZERO)
            }
            ClientStep::BufPageGet => {
                let op = c.ops[c.op_idx];
                c.page = PageId {
                    space: self.tables[c.table].space,
                    page_no: op.page,
                };
                self.counters.read_requests += 1;
                match self.pool.lookup(c.page) {
                    Lookup::Hit(f) if self.pool.is_zip_only(f) => {
                        c.frame = f;
                        c.step = ClientStep::Unzip;
                        Next::After(page_get)
                    }
                    Lookup::Hit(f) => {
                        c.frame = f;
                        let now_ms = self.now.as_ms() as u32;
                        c.step = if self.pool.note_access(
                            f,
                            now_ms,
                            self.scenario.buffer_pool.old_blocks_time_ms,
                        ) {
                            ClientStep::MakeYoung
                        } else {
                            ClientStep::PageDone
                        };
                        Next::After(page_get)
                    }
                    Lookup::IoFixed(_) => {
                        // Counted once per access: undo this poll's request.
                        self.counters.read_requests -= 1;
                        Next::After(IO_WAIT_POLL)
                    }
                    Lookup::Stale(f) => {
                        c.frame = f;
                        c.step = ClientStep::FreeStale;
                        Next::After(page_get)
                    }
                    Lookup::Miss => {
                        c.step = ClientStep::GetFreeBlock;
                        Next::After(page_get)
                    }
                }
            }
            ClientStep::MakeYoung => {
                let latch = LatchId::BufPool(self.pool.instance_of(c.page));
                if !self.acquire(latch, t) {
                    return Next::Parked;
                }
                // The page may have been evicted while we waited.
                if self.pool.lookup(c.page) == Lookup::Hit(c.frame) {
                    self.pool.make_young(c.frame);
                }
                c.step = ClientStep::MakeYoungDone;
                Next::After(lru_op)
            }
            ClientStep::MakeYoungDone => {
                let latch = LatchId::BufPool(self.pool.instance_of(c.page));
                self.release(latch, t, false);
                c.step = ClientStep::PageDone;
                Next::After(Tick::ZERO)
            }
            ClientStep::Unzip => {
                let inst = self.pool.instance_of(c.page);
                let latch = LatchId::BufPool(inst);
                if !self.acquire(latch, t) {
                    return Next::Parked;
                }
                let zip = match self.pool.lookup(c.page) {
                    Lookup::Hit(z) if self.pool.is_zip_only(z) && self.pool.can_relocate(z) => z,
                    // Decompressed, evicted or being written meanwhile: look again.
                    _ => {
                        self.release(latch, t, false);
                        self.counters.read_requests -= 1;
                        c.step = ClientStep::BufPageGet;
                        return Next::After(IO_WAIT_POLL);
                    }
                };
                let (block, scanned) = self.pool.free_block_for_unzip(inst);
                let scan = Tick(self.profile.costs.lru_scan_ns_per_page).times(u64::from(scanned));
                let Some(block) = block else {
                    // Nothing clean to evict: wait for the page cleaner, as
                    // buf_LRU_get_free_block() does, and try again.
                    self.release(latch, t, false);
                    self.counters.wait_free += 1;
                    self.signal_page_cleaner();
                    self.counters.read_requests -= 1;
                    c.step = ClientStep::BufPageGet;
                    return Next::After(scan + FREE_BLOCK_SLEEP);
                };
                self.pool.unzip(zip, block);
                c.frame = block;
                c.step = ClientStep::UnzipDone;
                Next::After(lru_op + scan)
            }
            ClientStep::UnzipDone => {
                let latch = LatchId::BufPool(self.pool.instance_of(c.page));
                self.release(latch, t, false);
                c.step = ClientStep::UnzipInflated;
                self.cpu_run(t, Tick(self.profile.costs.zip_decompress_ns_per_page))
            }
            ClientStep::UnzipInflated => {
                self.cpu_done();
                c.step = ClientStep::PageDone;
                Next::After(Tick::ZERO)
            }
            ClientStep::FreeStale => {
                let latch = LatchId::BufPool(self.pool.instance_of(c.page));
                if !self.acquire(latch, t) {
                    return Next::Parked;
                }
                if self.pool.lookup(c.page) == Lookup::Stale(c.frame) {
                    self.pool.free_stale(c.frame);
                }
                c.step = ClientStep::FreeStaleDone;
                Next::After(lru_op)
            }
            ClientStep::FreeStaleDone => {
                let latch = LatchId::BufPool(self.pool.instance_of(c.page));
                self.release(latch, t, false);
                c.step = ClientStep::BufPageGet;
                self.counters.read_requests -= 1;
                Next::After(Tick::ZERO)
            }
            ClientStep::GetFreeBlock => {
                let inst = self.pool.instance_of(c.page);
                let latch = LatchId::BufPool(inst);
                if !self.acquire(latch, t) {
                    return Next::Parked;
                }
                if self.pool.lookup(c.page) != Lookup::Miss {
                    // Another session read it (or it went stale) while we waited.
                    self.release(latch, t, false);
                    c.step = ClientStep::BufPageGet;
                    self.counters.read_requests -= 1;
                    return Next::After(Tick::ZERO);
                }
                let scan_ns = self.profile.costs.lru_scan_ns_per_page;
                // The first pass looks at BUF_LRU_SEARCH_SCAN_THRESHOLD blocks, later ones at
                // the whole list.
                let limit = if c.free_block_attempt == 0 {
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
                        self.counters.wait_free += 1;
                        c.free_block_attempt += 1;
                        self.signal_page_cleaner();
                        let scan = Tick(scan_ns).times(u64::from(scanned));
                        return match self.pool.single_page_flush(inst) {
                            SinglePageFlush::Freed { scanned: s2 } => {
                                // A block was freed after all; retry at once, still holding the
                                // mutex (the retry takes it again harmlessly).
                                self.release(latch, t, false);
                                Next::After(scan + Tick(scan_ns).times(u64::from(s2)))
                            }
                            SinglePageFlush::Write { frame, scanned: s2 } => {
                                c.frame = frame;
                                c.step = ClientStep::SinglePageWrite;
                                Next::After(scan + Tick(scan_ns).times(u64::from(s2)))
                            }
                            SinglePageFlush::Nothing { scanned: s2 } => {
                                self.release(latch, t, false);
                                let sleep = if c.free_block_attempt > 2 {
                                    FREE_BLOCK_SLEEP
                                } else {
                                    Tick::ZERO
                                };
                                Next::After(scan + Tick(scan_ns).times(u64::from(s2)) + sleep)
                            }
                        };
                    }
                };
                let op = c.ops[c.op_idx];
                if self.pool.space_zip_kb(c.page.space) == 0 {
                    self.pool.init_for_read(frame, c.page);
                } else if !self.pool.init_for_read_zip(frame, c.page) {
                    // No compressed frame to be had: the block went back; wait as for a
                    // free block.
                    self.release(latch, t, false);
                    self.counters.wait_free += 1;
                    self.signal_page_cleaner();
                    return Next::After(FREE_BLOCK_SLEEP);
                }
                c.frame = frame;
                let cost = lru_op + Tick(scan_ns).times(u64::from(scanned));
                if op.create {
                    // buf_page_create(): a new page at the end of the file, nothing to read.
                    self.pool.complete_read(frame);
                    self.release(latch, t, false);
                    c.step = ClientStep::PageDone;
                } else {
                    c.step = ClientStep::ReadIssue;
                }
                Next::After(cost)
            }
            ClientStep::SinglePageWrite => {
                let latch = LatchId::BufPool(self.pool.instance_of(c.page));
                self.release(latch, t, false);
                let done = self.device.submit(self.now, IoOp::Write, PAGE_SIZE);
                c.step = ClientStep::SinglePageWriteDone;
                Next::After(done - self.now)
            }
            ClientStep::SinglePageWriteDone => {
                let latch = LatchId::BufPool(self.pool.instance_of(self.pool.page_of(c.frame)));
                if !self.acquire(latch, t) {
                    return Next::Parked;
                }
                self.pool.complete_write(c.frame, true);
                self.release(latch, t, false);
                c.step = ClientStep::GetFreeBlock;
                Next::After(lru_op)
            }
            ClientStep::ReadIssue => {
                let latch = LatchId::BufPool(self.pool.instance_of(c.page));
                self.release(latch, t, false);
                self.counters.reads += 1;
                // A compressed page is read as KEY_BLOCK_SIZE bytes, then inflated by
                // buf_page_io_complete() before the page is released.
                let zip_kb = u64::from(self.pool.space_zip_kb(c.page.space));
                let (bytes, inflate) = if zip_kb == 0 {
                    (PAGE_SIZE, Tick::ZERO)
                } else {
                    (
                        zip_kb * 1024,
                        Tick(self.profile.costs.zip_decompress_ns_per_page),
                    )
                };
                let done = self.device.submit(self.now, IoOp::Read, bytes);
                c.step = ClientStep::ReadComplete;
                Next::After(done - self.now + inflate)
            }
            ClientStep::ReadComplete => {
                let latch = LatchId::BufPool(self.pool.instance_of(c.page));
                if !self.acquire(latch, t) {
                    return Next::Parked;
                }
                self.pool.complete_read(c.frame);
                c.step = ClientStep::ReadCompleteDone;
                Next::After(lru_op)
            }
            ClientStep::ReadCompleteDone => {
                let latch = LatchId::BufPool(self.pool.instance_of(c.page));
                self.release(latch, t, false);
                c.step = ClientStep::PageDone;
                Next::After(Tick::ZERO)
            }
            ClientStep::PageDone => {
                let op = c.ops[c.op_idx];
                self.maybe_build_hash(c);
                if op.write {
                    // A pessimistic insert or update needs lock memory; when the pool is
                    // nearly all lent to the AHI and lock heaps it fails
                    // (buf_LRU_buf_pool_running_out() -> DB_LOCK_TABLE_FULL).
                    if self.pool.running_out() {
                        self.counters.errors += 1;
                        c.op_idx = c.ops.len();
                        c.step = ClientStep::StatementEnd;
                        return Next::After(Tick::ZERO);
                    }
                    // The page may have been evicted since it was fixed only if we let it go;
                    // look again.
                    match self.pool.lookup(c.page) {
                        // Modified through the uncompressed frame only.
                        Lookup::Hit(f) if !self.pool.is_zip_only(f) => c.frame = f,
                        _ => {
                            c.step = ClientStep::BufPageGet;
                            self.counters.read_requests -= 1;
                            return Next::After(Tick::ZERO);
                        }
                    }
                    // log_free_check(): no new redo while the checkpoint age is near the log's
                    // capacity.
                    let capacity = self.scenario.innodb.redo_log_capacity.bytes();
                    if self.checkpoint_age() > capacity / 16 * 15 {
                        self.counters.log_waits += 1;
                        self.signal_page_cleaner();
                        return Next::After(LOG_FREE_CHECK_POLL);
                    }
                    if self.profile.mechanisms.mtr_takes_fil_sys {
                        c.step = ClientStep::FilNames;
                        return Next::After(Tick::ZERO);
                    }
                    return self.note_modification(c);
                }
                self.next_page_op(c)
            }
            ClientStep::FilNames => {
                // fil_names_write_if_was_clean(): the tablespace is named for redo under
                // the global fil_system mutex (5.7).
                if !self.acquire(LatchId::FilSys, t) {
                    return Next::Parked;
                }
                self.release(LatchId::FilSys, t, false);
                self.note_modification(c)
            }
            ClientStep::NoteModification => {
                // Simplification: the instance mutex stands for the flush-list mutex too;
                // the flush-list scans that block here hold both.
                let latch = LatchId::BufPool(self.pool.instance_of(c.page));
                if !self.acquire(latch, t) {
                    return Next::Parked;
                }
                if self.pool.lookup(c.page) != Lookup::Hit(c.frame) {
                    // Evicted while we waited: fetch it again.
                    self.release(latch, t, false);
                    c.step = ClientStep::BufPageGet;
                    self.counters.read_requests -= 1;
                    return Next::After(Tick::ZERO);
                }
                self.apply_modification(c);
                self.release(latch, t, false);
                self.next_page_op(c)
            }
            ClientStep::LogFlush => {
                // Simplification: the redo log has its own device queue (it usually sits on
                // the same disk, but its sequential writes barely interact with page I/O).
                let fsync = self.device.fsync_latency();
                let done = self.log.commit_done_at(self.now, c.last_lsn, fsync);
                c.step = ClientStep::StatementEnd;
                Next::After(done - self.now)
            }
            ClientStep::StatementEnd => {
                self.table_users[c.table] -= 1;
                self.counters.queries += 1;
                c.stmt_idx += 1;
                if c.stmt_idx < c.stmts.len() {
                    c.step = ClientStep::StatementStart;
                    return Next::After(self.round_trip(&mut c.rng));
                }
                // Commit (or autocommit) releases the transaction's row locks.
                self.lock_heap_bytes -= c.lock_bytes;
                c.lock_bytes = 0;
                // The event (sysbench's transaction) is done: its latency is what sysbench
                // reports.
                let latency = self.now - c.event_start;
                self.latency.record(latency.as_us());
                self.counters.transactions += 1;
                self.running -= 1;
                c.step = ClientStep::NextEvent;
                Next::After(Tick::ZERO)
            }
        }
    }

    /// The change goes into the page: straight away if it is already dirty, else through
    /// the flush-list mutex.
    fn note_modification(&mut self, c: &mut Client) -> Next {
        if !self.pool.is_dirty(c.frame) {
            c.step = ClientStep::NoteModification;
            return Next::After(Tick::ZERO);
        }
        self.apply_modification(c);
        self.next_page_op(c)
    }

    /// `mtr_commit()` of a row change: redo, the page dirty as of its LSN, the row lock.
    fn apply_modification(&mut self, c: &mut Client) {
        let lsn = self.log.append(self.scenario.innodb.redo_bytes_per_row);
        self.pool.mark_dirty(c.frame, lsn);
        c.last_lsn = lsn;
        c.wrote = true;
        // The row lock, held to commit.
        c.lock_bytes += super::LOCK_BYTES_PER_PAGE;
        self.lock_heap_bytes += super::LOCK_BYTES_PER_PAGE;
    }

    /// The statement's next page, or its end.
    fn next_page_op(&mut self, c: &mut Client) -> Next {
        c.op_idx += 1;
        if c.op_idx < c.ops.len() {
            c.step = ClientStep::BufPageGet;
        } else {
            let kind = c.stmts[c.stmt_idx];
            let autocommit_write = kind.is_write() && c.stmts.len() == 1;
            c.step = if autocommit_write {
                ClientStep::LogFlush
            } else {
                ClientStep::StatementEnd
            };
        }
        Next::After(Tick::ZERO)
    }
}
