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

use super::locks::{MdlPoll, RowPoll, RowRange};
use super::{Next, Sim};
use crate::bufpool::{BlockGuess, FrameId, Lookup, Lsn, PageId, PageLook, SpaceId, FRAME_NONE};
use crate::latch::LatchId;
use crate::mdl::{MdlContextId, MdlDuration, MdlManager, MdlType};
use crate::profile::TableOpenLock;
use crate::rng::SimRng;
use crate::sim::catalog::TableId;
use crate::time::Tick;
use crate::workload::{event_statements, statement_ops, PageOp, StatementKind};
use crate::ThreadId;

mod page_walk;
mod triggers;

/// A thread that finds its page being read by another thread polls this often.
const IO_WAIT_POLL: Tick = Tick::from_us(20);
/// `buf_LRU_get_free_block()` sleeps 10 ms from its third attempt on.
const FREE_BLOCK_SLEEP: Tick = Tick::from_ms(10);
/// A client session running the workload.
#[derive(Clone, Debug)]
pub(super) struct Client {
    pub(super) session: u32,
    rng: SimRng,
    step: ClientStep,
    stmts: &'static [StatementKind],
    stmt_idx: usize,
    event_start: Tick,
    /// The statement's page work.
    walk: PageWalk,
    /// Metadata locks of the current statement taken so far (GLOBAL IX for writes,
    /// then the table's SR or SW).
    mdl_taken: u8,
    /// The table's layout (`TableEntry::layout`) the statement's pages were planned on.
    layout: u32,
    /// The tables the statement's triggers write (`triggers.rs`); empty for most.
    triggers: Vec<triggers::ClientTrigger>,
    /// Their metadata locks taken so far, and their page walks done.
    trigger_mdl_taken: usize,
    trigger_walked: usize,
    /// The row position the triggers' writes stand at, and the statement's own table
    /// while its walk does theirs.
    trigger_pos: u64,
    subject: TableId,
    /// The event's rows written so far, and the first one's position: its binary
    /// log entry at commit (`sim/binlog.rs`).
    binlog_rows: u64,
    binlog_first: u64,
}

/// One statement's page work: the pages it touches, in order, each fixed through
/// `buf_page_get_gen()` (a read on a miss, a free block found first). Workload clients
/// and console sessions run their statements through this same machine.
#[derive(Clone, Debug)]
pub(super) struct PageWalk {
    /// The table (index into `Sim::tables`).
    pub(super) table: TableId,
    pub(super) ops: Vec<PageOp>,
    op_idx: usize,
    page: PageId,
    frame: FrameId,
    /// The descriptor the page was last found in, for this walk's next looks at it.
    guess: BlockGuess,
    pub(super) last_lsn: Lsn,
    /// The transaction has modified a page (its commit must flush the redo log).
    pub(super) wrote: bool,
    free_block_attempt: u32,
    /// Bytes of row-lock structures this transaction holds.
    pub(super) lock_bytes: u64,
    step: WalkStep,
    /// A write failed for want of lock memory (`DB_LOCK_TABLE_FULL`).
    pub(super) lock_table_full: bool,
}

impl PageWalk {
    pub(super) fn new() -> PageWalk {
        PageWalk {
            table: TableId(0),
            ops: Vec::with_capacity(8),
            op_idx: 0,
            page: PageId {
                space: SpaceId(0),
                page_no: 0,
            },
            frame: FRAME_NONE,
            guess: BlockGuess::NONE,
            last_lsn: Lsn(0),
            wrote: false,
            free_block_attempt: 0,
            lock_bytes: 0,
            step: WalkStep::BufPageGet,
            lock_table_full: false,
        }
    }

    /// Starts over on `ops` (already filled) of `table`.
    pub(super) fn restart(&mut self, table: TableId) {
        self.table = table;
        self.op_idx = 0;
        self.free_block_attempt = 0;
        self.step = WalkStep::BufPageGet;
        self.lock_table_full = false;
    }

    /// Where the walk is, for the processlist.
    pub(super) fn is_reading(&self) -> bool {
        matches!(self.step, WalkStep::ReadComplete | WalkStep::ReadIssue)
    }

    /// Whether it is flushing a page to get a free block.
    pub(super) fn is_flushing(&self) -> bool {
        matches!(
            self.step,
            WalkStep::SinglePageWrite | WalkStep::SinglePageWriteDone
        )
    }
}

/// What one step of a [`PageWalk`] asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum WalkNext {
    /// Step again (scheduler answer as for any thread).
    Step(Next),
    /// Every page done.
    Done,
}

/// Where a page walk is, named after the InnoDB code it models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WalkStep {
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
    /// The statement's pages, one [`PageWalk`] step at a time.
    Walk,
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
            event_start: Tick::ZERO,
            walk: PageWalk::new(),
            mdl_taken: 0,
            layout: 0,
            triggers: Vec::new(),
            trigger_mdl_taken: 0,
            trigger_walked: 0,
            trigger_pos: 0,
            subject: TableId(0),
            binlog_rows: 0,
            binlog_first: 0,
        }
    }

    /// The statement running and its table, if any.
    pub(super) fn current(&self) -> Option<(StatementKind, TableId)> {
        if self.step == ClientStep::NextEvent {
            return None;
        }
        self.stmts.get(self.stmt_idx).map(|&k| (k, self.walk.table))
    }

    /// The processlist state for this session.
    pub(super) fn state_name(&self) -> &'static str {
        match self.step {
            ClientStep::NextEvent => "",
            ClientStep::Walk if self.walk.is_reading() => "reading a page",
            ClientStep::Walk if self.walk.is_flushing() => "flushing a page to free a block",
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

/// A page-walk step parked in a latch queue.
const PARKED: WalkNext = WalkNext::Step(Next::Parked);

/// A page-walk step that continues after `d`.
fn after(d: Tick) -> WalkNext {
    WalkNext::Step(Next::After(d))
}

impl Sim {
    /// `btr_search_build_page_hash_index()`: a hit on an unhashed leaf may hash it.
    /// Returns the page-hash look it made, if any (marking a page hashed moves no
    /// page, so the caller may use it again at the same instant; its AHI mark is the
    /// one before any mark made here).
    #[inline(always)]
    fn maybe_build_hash(
        &mut self,
        c: &mut PageWalk,
        rng: &mut SimRng,
    ) -> Option<(PageId, PageLook)> {
        if !self.scenario.innodb.adaptive_hash_index || c.frame == FRAME_NONE {
            return None;
        }
        let op = c.ops[c.op_idx];
        let table = &self.catalog[c.table].table;
        // Only leaves are hashed: an internal page (most of a descent) needs no look
        // at the pool.
        let index = table.leaf_index_of(op.page);
        if index == 0 {
            return None;
        }
        // Sessions hold no buffer fix between steps: make sure the frame still holds the page.
        let page = PageId {
            space: table.space,
            page_no: op.page,
        };
        let found = self.pool.page_hash_get_guess(page, c.guess);
        if found.found == Lookup::Hit(c.frame)
            && !found.is_hashed()
            && rng.chance(1, AHI_BUILD_ODDS)
        {
            self.pool.ahi_mark(c.frame, index);
        }
        Some((page, found))
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

    /// sysbench's `sysbench.rand.uniform(1, sysbench.opt.tables)`, over the tables that
    /// still exist.
    fn pick_table(&self, rng: &mut SimRng) -> Option<TableId> {
        let tables = &self.catalog.workload_tables;
        let live = tables.iter().filter(|&&t| self.table_open(t)).count();
        if live == 0 {
            return None;
        }
        let pick = rng.below(live as u64) as usize;
        if live == tables.len() {
            // All there (as a rule): the pick is the table itself.
            return Some(tables[pick]);
        }
        tables
            .iter()
            .copied()
            .filter(|&t| self.table_open(t))
            .nth(pick)
    }

    /// A client's step, and the steps after it of the same instant while nothing else
    /// is due now: those are the ones the scheduler would run next anyway
    /// ([`super::sched::Scheduler::runs_now`]), so they run here, in the same order,
    /// without going back through the thread table.
    pub(super) fn step_client(&mut self, t: ThreadId, c: &mut Client) -> Next {
        loop {
            let next = self.client_step(t, c);
            if next != Next::After(Tick::ZERO) || !self.sched.runs_now() {
                return next;
            }
        }
    }

    /// One step of a client's state machine.
    fn client_step(&mut self, t: ThreadId, c: &mut Client) -> Next {
        match c.step {
            ClientStep::NextEvent => {
                c.stmts = event_statements(self.scenario.workload.kind);
                c.stmt_idx = 0;
                c.event_start = self.sched.now;
                c.walk.wrote = false;
                self.rec.running += 1;
                c.step = ClientStep::StatementStart;
                Next::After(self.round_trip(&mut c.rng))
            }
            ClientStep::StatementStart => self.client_statement_start(t, c),
            ClientStep::StatementCpuDone => {
                self.cpu_done();
                c.step = ClientStep::OpenTable;
                Next::After(Tick::ZERO)
            }
            ClientStep::OpenTable => self.client_open_table(t, c),
            ClientStep::BeforeDml => self.client_before_dml(t, c),
            ClientStep::Walk => self.client_walk(t, c),
            ClientStep::LogFlush => {
                // Simplification: the redo log has its own device queue (it usually sits on
                // the same disk, but its sequential writes barely interact with page I/O).
                let fsync = self.device.fsync_latency();
                let done = self
                    .log
                    .commit_done_at(self.sched.now, c.walk.last_lsn, fsync);
                c.step = ClientStep::StatementEnd;
                Next::After(done - self.sched.now)
            }
            ClientStep::StatementEnd => self.client_statement_end(c),
        }
    }

    /// `StatementStart`: the statement arrived; pick its table and pages, parse and execute.
    fn client_statement_start(&mut self, t: ThreadId, c: &mut Client) -> Next {
        let kind = c.stmts[c.stmt_idx];
        let Some(table) = self.pick_table(&mut c.rng) else {
            // Every table the workload uses is gone: sysbench's statements fail;
            // idle until one exists again. A transaction that had begun rolls back
            // and its earlier statements' metadata locks go with it (released at the
            // transaction's end, `MDL_context::release_transactional_locks()`);
            // kept, they would block every DDL on those tables for good.
            c.mdl_taken = 0;
            self.mdl_release_transactional(MdlContextId(c.session));
            self.lock_heap_bytes -= c.walk.lock_bytes;
            c.walk.lock_bytes = 0;
            self.rec.running -= 1;
            c.step = ClientStep::NextEvent;
            return Next::After(Tick::SECOND);
        };
        c.walk.table = table;
        self.catalog[table].users += 1;
        self.client_plan(c, kind, table);
        c.trigger_mdl_taken = 0;
        c.trigger_walked = 0;
        if kind.is_write() && !self.catalog[table].def.triggers.is_empty() {
            if self.client_triggers(table, kind, &mut c.triggers).is_err() {
                // A trigger's table is gone: the statement fails at open (1146).
                return self.client_abort(c);
            }
        } else if !c.triggers.is_empty() {
            c.triggers.clear();
        }
        c.step = ClientStep::StatementCpuDone;
        let parsed = records_parsed(kind, c.walk.ops.len(), self.catalog[table].table.rows);
        let mut cpu = Tick::from_us(self.scenario.workload.statement_cpu_us)
            + Tick(self.profile.costs.record_parse_ns).times(parsed);
        if kind.is_write() && self.catalog[table].online_build {
            // row_log_online_op(): an index is being built; log the change.
            self.catalog[table].row_log_ops += 1;
            cpu += Tick(self.profile.costs.row_log_ns);
        }
        if self.cpu.limited() {
            // Each trigger body runs as a statement of its own (`sp_head::execute()`),
            // and an inserting body's row goes into its table's indexes
            // (`session/cpu.rs`). Without contention modelled (`server.cpus = 0`) the
            // bodies cost only their pages, as before.
            let bodies = c.triggers.len() as u64;
            cpu += Tick::from_us(self.scenario.workload.statement_cpu_us).times(bodies);
            for body in c.triggers.iter().filter(|b| b.insert) {
                cpu += self.insert_row_cpu(body.table);
            }
        }
        self.cpu_run(t, cpu)
    }

    /// The statement's pages on `table` as it is laid out now (`row_search_mvcc()`'s
    /// descents, planned ahead), and the layout they were planned on.
    fn client_plan(&mut self, c: &mut Client, kind: StatementKind, table: TableId) {
        let entry = &mut self.catalog[table];
        statement_ops(
            kind,
            &entry.table,
            &self.dist,
            &mut c.rng,
            &mut entry.append_row,
            &mut c.walk.ops,
        );
        if kind == StatementKind::PointSelect && self.scenario.innodb.adaptive_hash_index {
            // btr_search_guess_on_hash(): a point lookup whose leaf is hashed goes
            // straight to it, skipping the descent.
            if let Some(&leaf) = c.walk.ops.last() {
                let page = PageId {
                    space: self.catalog[table].table.space,
                    page_no: leaf.page,
                };
                if let Lookup::Hit(f) = self.pool.lookup(page) {
                    if self.pool.is_hashed(f) {
                        c.walk.ops.clear();
                        c.walk.ops.push(leaf);
                    }
                }
            }
        }
        c.walk.restart(table);
        c.layout = self.catalog[table].layout;
    }

    /// `OpenTable`: `open_table()` takes the statement's metadata locks (and 5.1's
    /// `LOCK_open`).
    fn client_open_table(&mut self, t: ThreadId, c: &mut Client) -> Next {
        // open_table(): the statement's metadata locks first (sysbench's
        // transaction keeps them to COMMIT).
        let kind = c.stmts[c.stmt_idx];
        if !matches!(kind, StatementKind::Begin | StatementKind::Commit) {
            match self.client_mdl(t, c, kind) {
                Some(Ok(())) => {}
                Some(Err(())) => return self.client_abort(c),
                None => return Next::Parked,
            }
        }
        // 5.1 takes the global LOCK_open for every table it opens.
        if self.profile.mechanisms.table_open_lock == TableOpenLock::LockOpenHeldByDrop
            && !matches!(
                c.stmts[c.stmt_idx],
                StatementKind::Begin | StatementKind::Commit
            )
            && !self.pass_latch(LatchId::LockOpen, t)
        {
            return Next::Parked;
        }
        c.step = ClientStep::BeforeDml;
        Next::After(Tick::ZERO)
    }

    /// `BeforeDml`: the replication plugin's hook and console sessions' row locks.
    fn client_before_dml(&mut self, t: ThreadId, c: &mut Client) -> Next {
        // The replication plugin's before_dml hook looks up foreign keys through
        // InnoDB's dictionary, under dict_sys (5.7).
        let kind = c.stmts[c.stmt_idx];
        if kind.is_write()
            && self.scenario.server.replication_plugin
            && self.profile.mechanisms.before_dml_takes_dict_sys
            && !self.pass_latch(LatchId::DictSys, t)
        {
            return Next::Parked;
        }
        // A row a console session's transaction has locked: wait for it. A waiter
        // woken by the last lock's release looks again too, which ends its wait
        // (`lock_wait_suspend_thread()` returns to a granted lock).
        let waiting = self.sql.row_waits.contains_key(&c.session);
        if kind.is_write() && self.client_has_trigger_or_autoinc_waits(c) {
            match self.client_trigger_waits(t, c) {
                RowPoll::Granted => {}
                RowPoll::Wait => return Next::Parked,
                RowPoll::Failed(_) => return self.client_abort(c),
            }
        } else if kind.is_write() && (waiting || !self.sql.row_locks.is_empty()) {
            if let Some(range) = self.client_row(c) {
                match self.row_wait_for_console(t, c.session, range) {
                    RowPoll::Granted => {}
                    RowPoll::Wait => return Next::Parked,
                    RowPoll::Failed(_) => return self.client_abort(c),
                }
            }
        }
        c.step = if c.walk.ops.is_empty() {
            if kind == StatementKind::Commit && c.walk.wrote {
                ClientStep::LogFlush
            } else {
                ClientStep::StatementEnd
            }
        } else {
            ClientStep::Walk
        };
        Next::After(Tick::ZERO)
    }

    /// `Walk`: the statement's page work, its steps of the same instant run at once as
    /// in [`Sim::step_client`].
    fn client_walk(&mut self, t: ThreadId, c: &mut Client) -> Next {
        loop {
            match self.step_page_walk(t, &mut c.walk, &mut c.rng) {
                WalkNext::Step(Next::After(Tick::ZERO)) if self.sched.runs_now() => {}
                WalkNext::Step(next) => return next,
                WalkNext::Done => return self.client_walk_done(c),
            }
        }
    }

    /// `Walk` is done: the triggers' page work, if any; then an autocommit write
    /// flushes the log.
    fn client_walk_done(&mut self, c: &mut Client) -> Next {
        if c.walk.lock_table_full {
            c.walk.table = if c.trigger_walked > 0 {
                c.subject
            } else {
                c.walk.table
            };
            c.step = ClientStep::StatementEnd;
            return Next::After(Tick::ZERO);
        }
        if c.trigger_walked < c.triggers.len() {
            if c.trigger_walked == 0 {
                c.subject = c.walk.table;
                c.trigger_pos = self.client_row(c).map_or(0, |r| r.lo);
            }
            if let Some(next) = self.client_next_trigger_walk(c) {
                return next;
            }
        }
        if c.trigger_walked > 0 {
            c.walk.table = c.subject;
        }
        let kind = c.stmts[c.stmt_idx];
        let autocommit_write = kind.is_write() && c.stmts.len() == 1;
        c.step = if autocommit_write {
            ClientStep::LogFlush
        } else {
            ClientStep::StatementEnd
        };
        Next::After(Tick::ZERO)
    }

    /// `StatementEnd`: the statement is done; the event ends with its last one.
    fn client_statement_end(&mut self, c: &mut Client) -> Next {
        self.catalog[c.walk.table].users -= 1;
        if c.stmts[c.stmt_idx].is_write() {
            if c.binlog_rows == 0 {
                c.binlog_first = self.client_row(c).map_or(0, |r| r.lo);
            }
            c.binlog_rows += 1;
        }
        self.rec.counters.queries += 1;
        c.stmt_idx += 1;
        c.mdl_taken = 0;
        self.mdl_release_statement(MdlContextId(c.session));
        if c.stmt_idx < c.stmts.len() {
            c.step = ClientStep::StatementStart;
            return Next::After(self.round_trip(&mut c.rng));
        }
        // Commit (or autocommit) releases the transaction's row locks and its
        // metadata locks.
        self.mdl_release_transactional(MdlContextId(c.session));
        self.lock_heap_bytes -= c.walk.lock_bytes;
        c.walk.lock_bytes = 0;
        // The event (sysbench's transaction) is done: its latency is what sysbench
        // reports.
        let latency = self.sched.now - c.event_start;
        self.rec.latency.record(latency.as_us());
        if let Some((span, interval_us)) = &mut self.rec.span {
            span.record_corrected(latency.as_us(), *interval_us);
        }
        self.rec.counters.transactions += 1;
        self.rec.running -= 1;
        let rows = std::mem::take(&mut c.binlog_rows);
        self.binlog_rows(c.event_start, rows, (c.walk.table, rows, c.binlog_first));
        c.step = ClientStep::NextEvent;
        Next::After(Tick::ZERO)
    }

    /// The statement's metadata locks (`open_table()` → `MDL_context::acquire_lock()`):
    /// GLOBAL IX for a write, then SR or SW on the table with TRANSACTION duration.
    /// `None`: parked; `Some(Err)`: the wait failed or the table went away meanwhile.
    fn client_mdl(
        &mut self,
        t: ThreadId,
        c: &mut Client,
        kind: StatementKind,
    ) -> Option<Result<(), ()>> {
        let ctx = MdlContextId(c.session);
        let table = c.walk.table;
        let lock = self.catalog[table].mdl_lock(&self.scenario.schema, &mut self.sql.mdl);
        let plan = if kind.is_write() {
            [
                Some((
                    MdlManager::GLOBAL,
                    MdlType::IntentionExclusive,
                    MdlDuration::Statement,
                )),
                Some((lock, MdlType::SharedWrite, MdlDuration::Transaction)),
            ]
        } else {
            [
                Some((lock, MdlType::SharedRead, MdlDuration::Transaction)),
                None,
            ]
        };
        while let Some(&Some((lock, mdl_type, duration))) = plan.get(usize::from(c.mdl_taken)) {
            match self.mdl_acquire_lock(t, ctx, lock, mdl_type, duration) {
                MdlPoll::Granted(_) => c.mdl_taken += 1,
                MdlPoll::Wait => return None,
                MdlPoll::Failed(_) => return Some(Err(())),
            }
        }
        if !c.triggers.is_empty() {
            match self.client_trigger_mdl(t, c) {
                Some(Ok(())) => {}
                other => return other,
            }
        }
        // The lock was granted after a DROP: the table is gone (ER_NO_SUCH_TABLE).
        if self.catalog[table].table.dropped {
            return Some(Err(()));
        }
        // After a TRUNCATE: the table opened now is the new, empty one.
        if self.catalog[table].layout != c.layout {
            self.client_plan(c, kind, table);
        }
        Some(Ok(()))
    }

    /// Whether a write's `BeforeDml` goes through `triggers.rs`: its table has
    /// triggers for it, or a console session holds an AUTO-INC lock an insert may
    /// wait for.
    fn client_has_trigger_or_autoinc_waits(&self, c: &Client) -> bool {
        !c.triggers.is_empty()
            || (matches!(
                c.stmts[c.stmt_idx],
                StatementKind::Insert | StatementKind::Reinsert
            ) && self
                .sql
                .row_locks
                .iter()
                .any(|l| l.range.mode == crate::sim::locks::LockMode::AutoInc))
    }

    /// The rows of the clustered leaf a write statement changes.
    fn client_row(&self, c: &Client) -> Option<RowRange> {
        let pk = self.catalog[c.walk.table].table.primary();
        let first = pk.first_leaf();
        let leaf = c
            .walk
            .ops
            .iter()
            .find(|o| o.write && o.page >= first && u64::from(o.page - first) < pk.leaves())?;
        let per = pk.records_per_leaf;
        let lo = u64::from(leaf.page - first) * per;
        Some(RowRange::records(c.walk.table, lo, lo + per - 1, true))
    }

    /// The statement failed: sysbench's transaction is rolled back, its locks go, and
    /// the client starts its next event.
    fn client_abort(&mut self, c: &mut Client) -> Next {
        let ctx = MdlContextId(c.session);
        self.catalog[c.walk.table].users -= 1;
        self.rec.counters.errors += 1;
        c.mdl_taken = 0;
        self.mdl_release_transactional(ctx);
        self.lock_heap_bytes -= c.walk.lock_bytes;
        c.walk.lock_bytes = 0;
        self.rec.running -= 1;
        c.binlog_rows = 0;
        c.step = ClientStep::NextEvent;
        Next::After(Tick::ZERO)
    }
}
