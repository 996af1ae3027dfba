//! The simulation: one virtual clock, a deterministic scheduler, and the simulated
//! threads (client sessions, the page cleaner, DDL threads) written as step machines.
//!
//! ```text
//!   queue: (tick, seq, wake) ──pop──▶ step the thread ──▶ Next::After(d) ─▶ re-queue at now+d
//!                                          │                Next::Parked  ─▶ a latch queue
//!                                          ▼                Next::Exit
//!                                   events, counters
//! ```
//!
//! Each step runs at one virtual instant and says how long until the thread's next step,
//! so every latch wait and every cost is visible. Ties at the same tick run in the order
//! they were scheduled (`seq`), which makes the whole run a function of the scenario, the
//! seed and the timed list of user commands.
//!
//! Event-ordering contract: an event is appended when the engine decides it, with the
//! current tick; spans whose end is known up front carry `t0`/`t1` and are appended at
//! `t0`. Samples are taken at each whole virtual second, before any thread step of that
//! same tick.

use crate::bufpool::{
    BufPool, FrameId, FreeBlock, Lookup, PageId, SpaceId, FRAME_NONE, LRU_SEARCH_SCAN_THRESHOLD,
};
use crate::events::{Event, EventKind, ListKind, TraceHash};
use crate::latch::{Latch, LatchId};
use crate::metrics::{Counters, LatencyWindow, Sample};
use crate::profile::{DropEviction, FileDelete, Profile};
use crate::rng::SimRng;
use crate::scenario::{Scenario, PAGE_SIZE};
use crate::sql::{self, Command, SqlError};
use crate::time::Tick;
use crate::ThreadId;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Pages a DDL thread's LRU scan visits per step. Engine granularity only: the latch is
/// held across steps, so no other thread can tell.
const SCAN_STRETCH_PAGES: u32 = 1024;
/// `buf_LRU_remove_all_pages()` sleeps this long before rescanning when it had to skip
/// I/O-fixed pages.
const RESCAN_SLEEP: Tick = Tick::from_ms(20);
/// A thread that finds its page being read by another thread polls this often.
const IO_WAIT_POLL: Tick = Tick::from_us(20);
/// `buf_LRU_get_free_block()` sleeps 10 ms from its third attempt on.
const FREE_BLOCK_SLEEP: Tick = Tick::from_ms(10);
/// The page-cleaner coordinator's loop period.
const PAGE_CLEANER_PERIOD: Tick = Tick::SECOND;

/// A table in the simulated dictionary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Its name.
    pub name: String,
    /// Its file-per-table tablespace.
    pub space: SpaceId,
    /// Size of the data file.
    pub bytes: u64,
    /// Pages in the data file.
    pub pages: u32,
    /// Whether a DROP has removed it from the dictionary.
    pub dropped: bool,
}

/// One session as a processlist row sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionView {
    /// The processlist id.
    pub id: u32,
    /// What the session is doing, in words close to the server's stage names.
    pub state: &'static str,
    /// The latch the session is queued for, if any.
    pub waiting_for: Option<LatchId>,
}

/// What wakes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Wake {
    Sample,
    Script(u32),
    Thread(ThreadId),
}

/// What a step asks of the scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// Run the next step after this much virtual time.
    After(Tick),
    /// Parked in a latch queue; the release that hands it the latch wakes it.
    Parked,
    /// The thread is finished.
    Exit,
}

/// A client session running the workload, one statement at a time.
#[derive(Clone, Debug)]
struct Client {
    session: u32,
    rng: SimRng,
    step: ClientStep,
    page: PageId,
    frame: FrameId,
    stmt_start: Tick,
    free_block_attempt: u32,
}

/// Where a client is in its statement, named after the InnoDB code it models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClientStep {
    /// The client sends its next statement (after the round trip).
    NextStatement,
    /// `buf_page_get_gen()`: look the page up in the page hash.
    BufPageGet,
    /// `buf_page_make_young()`: move the page to the LRU head, under the instance mutex.
    MakeYoung,
    /// Release the instance mutex after `MakeYoung`.
    MakeYoungDone,
    /// 8.0.23 `buf_page_free_stale()`: the lookup met a stale page; free it.
    FreeStale,
    /// Release the instance mutex after `FreeStale`, then read the page.
    FreeStaleDone,
    /// `buf_LRU_get_free_block()` + `buf_page_init_for_read()`, under the instance mutex.
    GetFreeBlock,
    /// Release the instance mutex and issue the read (`buf_read_page()`).
    ReadIssue,
    /// `buf_page_io_complete()`: the read is done; clear the I/O fix under the mutex.
    ReadComplete,
    /// Release the instance mutex after `ReadComplete`.
    ReadCompleteDone,
    /// The statement's result goes back to the client.
    StatementDone,
}

/// The page cleaner's LRU batches (`buf_flush_page_cleaner_coordinator`).
#[derive(Clone, Debug)]
struct PageCleaner {
    step: CleanerStep,
    instance: u16,
    round_start: Tick,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CleanerStep {
    /// Take the instance mutex and run `buf_flush_LRU_list_batch()`.
    LruBatch,
    /// Release the instance mutex; next instance or sleep until the next round.
    LruBatchDone,
}

/// A DDL statement's thread.
#[derive(Clone, Debug)]
struct Ddl {
    session: u32,
    sql: String,
    started: Tick,
    targets: Vec<DropTarget>,
    current: usize,
    step: DdlStep,
    instance: u16,
    cursor: u32,
    io_skipped: bool,
    file_done: bool,
}

#[derive(Clone, Debug)]
struct DropTarget {
    table: usize,
}

/// Where a DROP TABLE is, named after the InnoDB code it models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DdlStep {
    /// Next table of the statement, or finish.
    Begin,
    /// `row_mysql_lock_data_dictionary()`: take `dict_sys`.
    DictLock,
    /// `row_drop_table_for_mysql()`: delete the SYS_* rows, drop the table from the cache.
    DictDrop,
    /// `buf_LRU_remove_all_pages()`: take instance `i`'s mutex, start the tail-to-head scan.
    LruScanBegin,
    /// One stretch of the scan, mutex held.
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

#[derive(Clone, Debug)]
enum Thread {
    Client(Client),
    PageCleaner(PageCleaner),
    Ddl(Box<Ddl>),
    Exited,
}

/// The whole simulated server.
#[derive(Clone, Debug)]
pub struct Sim {
    scenario: Scenario,
    profile: Profile,
    now: Tick,
    seq: u64,
    queue: BinaryHeap<Reverse<(Tick, u64, Wake)>>,
    threads: Vec<Thread>,
    pool: BufPool,
    latches: Vec<Latch>,
    tables: Vec<Table>,
    events: Vec<Event>,
    samples: Vec<Sample>,
    hash: TraceHash,
    counters: Counters,
    last_counters: Counters,
    latency: LatencyWindow,
    running: u64,
    commands: Vec<(Tick, String)>,
    console_session: u32,
    next_session: u32,
}

impl Sim {
    /// A server set up as `scenario` says, running `profile`, at virtual time zero.
    pub fn new(scenario: Scenario, profile: Profile) -> Result<Sim, String> {
        scenario.validate()?;
        let bp = &scenario.buffer_pool;
        let mut pool = BufPool::new(scenario.pool_pages(), bp.instances, bp.old_blocks_pct);
        let mut latches = vec![
            Latch::new(LatchId::LockOpen),
            Latch::new(LatchId::DictSys),
            Latch::new(LatchId::FilSys),
        ];
        latches.extend((0..bp.instances).map(|i| Latch::new(LatchId::BufPool(i))));
        let tables: Vec<Table> = scenario
            .tables
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let pages = (t.size.bytes() / PAGE_SIZE) as u32;
                Table {
                    name: t.name.clone(),
                    // Space 0 is the system tablespace; file-per-table ids start after it.
                    space: SpaceId(i as u32 + 1),
                    bytes: t.size.bytes(),
                    pages,
                    dropped: false,
                }
            })
            .collect();
        for t in &tables {
            pool.register_space(t.space, t.pages);
        }
        let threads_n = scenario.workload.threads;
        let mut sim = Sim {
            profile,
            now: Tick::ZERO,
            seq: 0,
            queue: BinaryHeap::new(),
            threads: Vec::new(),
            pool,
            latches,
            tables,
            events: Vec::new(),
            samples: Vec::new(),
            hash: TraceHash::default(),
            counters: Counters::default(),
            last_counters: Counters::default(),
            latency: LatencyWindow::default(),
            running: 0,
            commands: Vec::new(),
            console_session: threads_n + 1,
            next_session: threads_n + 2,
            scenario,
        };
        if sim.scenario.buffer_pool.warm {
            sim.warm_pool();
        }
        // Client sessions start staggered over one round trip so they do not march in step.
        let round_trip = Tick::from_us(sim.scenario.workload.round_trip_us.max(1));
        for n in 0..threads_n {
            let mut rng = SimRng::stream(sim.scenario.seed, &format!("client.{n}"));
            let start = Tick(rng.below(round_trip.as_ns()));
            let id = sim.spawn(Thread::Client(Client {
                session: n + 1,
                rng,
                step: ClientStep::NextStatement,
                page: PageId {
                    space: SpaceId(0),
                    page_no: 0,
                },
                frame: FRAME_NONE,
                stmt_start: Tick::ZERO,
                free_block_attempt: 0,
            }));
            sim.schedule(start, Wake::Thread(id));
        }
        let cleaner = sim.spawn(Thread::PageCleaner(PageCleaner {
            step: CleanerStep::LruBatch,
            instance: 0,
            round_start: PAGE_CLEANER_PERIOD,
        }));
        sim.schedule(PAGE_CLEANER_PERIOD, Wake::Thread(cleaner));
        sim.schedule(Tick::SECOND, Wake::Sample);
        for i in 0..sim.scenario.script.len() {
            let at = Tick::from_secs(sim.scenario.script[i].at_s);
            sim.schedule(at, Wake::Script(i as u32));
        }
        Ok(sim)
    }

    /// A built-in scenario, optionally with another built-in profile than its own.
    pub fn builtin(scenario: &str, profile: Option<&str>) -> Result<Sim, String> {
        let scenario = Scenario::builtin(scenario)?;
        let profile = Profile::builtin(profile.unwrap_or(&scenario.profile))?;
        Sim::new(scenario, profile)
    }

    /// Fills the pool the way the workload would have after a long warm-up: pages drawn
    /// from the workload's access distribution, until each instance is down to
    /// `innodb_lru_scan_depth` free blocks (the steady state the page cleaner keeps).
    fn warm_pool(&mut self) {
        let depth = self.scenario.buffer_pool.lru_scan_depth;
        let mut rng = SimRng::stream(self.scenario.seed, "warm");
        // Enough draws to fill the pool when the data is larger than it; a smaller data set
        // leaves the rest free, as on a real server.
        let attempts = u64::from(self.scenario.pool_pages()) * 16;
        for _ in 0..attempts {
            if self.pool.instances().iter().all(|i| i.free_len() <= depth) {
                break;
            }
            let Some(page) = self.pick_page(&mut rng) else {
                return;
            };
            let inst = self.pool.instance_of(page);
            if self.pool.instances()[usize::from(inst)].free_len() <= depth
                || self.pool.lookup(page) != Lookup::Miss
            {
                continue;
            }
            if let FreeBlock::FromFreeList(f) = self.pool.get_free_block(inst, 0) {
                self.pool.init_for_read(f, page);
                self.pool.complete_read(f);
            }
        }
    }

    /// A page of a live table, from the workload's access distribution.
    fn pick_page(&self, rng: &mut SimRng) -> Option<PageId> {
        let live = self.tables.iter().filter(|t| !t.dropped).count() as u64;
        if live == 0 {
            return None;
        }
        let pick = rng.below(live) as usize;
        let t = self.tables.iter().filter(|t| !t.dropped).nth(pick)?;
        let w = &self.scenario.workload;
        let hot = (u64::from(t.pages) * u64::from(w.hot_pages_pct) / 100).max(1);
        let page_no = if rng.chance(u64::from(w.hot_access_pct), 100) {
            rng.below(hot)
        } else {
            rng.below(u64::from(t.pages))
        };
        Some(PageId {
            space: t.space,
            page_no: page_no as u32,
        })
    }

    fn spawn(&mut self, t: Thread) -> ThreadId {
        self.threads.push(t);
        ThreadId(self.threads.len() as u32 - 1)
    }

    fn schedule(&mut self, at: Tick, wake: Wake) {
        self.seq += 1;
        self.queue.push(Reverse((at, self.seq, wake)));
    }

    fn emit(&mut self, kind: EventKind) {
        let e = Event { at: self.now, kind };
        self.hash.feed_json(&e);
        self.events.push(e);
    }

    fn latch_index(id: LatchId) -> usize {
        match id {
            LatchId::LockOpen => 0,
            LatchId::DictSys => 1,
            LatchId::FilSys => 2,
            LatchId::BufPool(i) => 3 + usize::from(i),
        }
    }

    fn acquire(&mut self, latch: LatchId, t: ThreadId) -> bool {
        let now = self.now;
        self.latches[Self::latch_index(latch)].try_acquire(t, now)
    }

    /// Releases `latch`, waking the next holder; background and DDL threads' holds are
    /// reported as spans.
    fn release(&mut self, latch: LatchId, t: ThreadId, report: bool) {
        let now = self.now;
        let l = &mut self.latches[Self::latch_index(latch)];
        let waiters = l.waiter_count() as u32;
        let r = l.release(t, now);
        if let Some(next) = r.next_holder {
            self.schedule(now, Wake::Thread(next));
        }
        if report {
            self.emit(EventKind::LatchHeld {
                latch,
                thread: t,
                t0: r.held_since,
                t1: now,
                waiters,
            });
        }
    }

    // ---- the public run loop -------------------------------------------------------

    /// Runs every step due up to and including `until`, then sets the clock to `until`.
    pub fn run_until(&mut self, until: Tick) {
        while let Some(&Reverse((at, _, _))) = self.queue.peek() {
            if at > until {
                break;
            }
            let Some(Reverse((at, _, wake))) = self.queue.pop() else {
                break;
            };
            self.now = at;
            match wake {
                Wake::Sample => self.take_sample(),
                Wake::Script(i) => {
                    let sql = self.scenario.script[i as usize].sql.clone();
                    let session = self.console_session;
                    if let Err(e) = self.submit(session, &sql) {
                        self.emit(EventKind::StatementFinished {
                            session,
                            sql,
                            elapsed: Tick::ZERO,
                            result: e.to_string(),
                            error: true,
                        });
                    }
                }
                Wake::Thread(t) => self.step_thread(t),
            }
        }
        self.now = self.now.max(until);
    }

    /// Runs for `d` more virtual time.
    pub fn run_for(&mut self, d: Tick) {
        let until = self.now + d;
        self.run_until(until);
    }

    /// Runs `sql` from the console session at the current virtual time. Errors in the
    /// text or unknown tables come back at once and change nothing; accepted statements
    /// report their result as a [`EventKind::StatementFinished`] event.
    pub fn execute(&mut self, sql: &str) -> Result<(), SqlError> {
        let session = self.console_session;
        self.submit(session, sql)?;
        self.commands.push((self.now, sql.to_string()));
        Ok(())
    }

    fn submit(&mut self, session: u32, sql: &str) -> Result<(), SqlError> {
        let commands = sql::parse(sql)?;
        // Check every statement before running any, so a batch is all or nothing.
        let mut plans = Vec::new();
        let mut claimed: Vec<usize> = Vec::new();
        for c in &commands {
            match &c.command {
                Command::DropTable { tables, if_exists } => {
                    let mut targets = Vec::new();
                    for name in tables {
                        let schema_ok = name
                            .schema
                            .as_deref()
                            .is_none_or(|s| s.eq_ignore_ascii_case(&self.scenario.schema));
                        let found = self
                            .tables
                            .iter()
                            .position(|t| {
                                !t.dropped && schema_ok && t.name.eq_ignore_ascii_case(&name.table)
                            })
                            .filter(|i| !claimed.contains(i));
                        match found {
                            Some(i) => {
                                claimed.push(i);
                                targets.push(DropTarget { table: i });
                            }
                            None if *if_exists => {}
                            None => {
                                let schema = name
                                    .schema
                                    .clone()
                                    .unwrap_or_else(|| self.scenario.schema.clone());
                                return Err(SqlError::unknown_table(&schema, &name.table));
                            }
                        }
                    }
                    plans.push(targets);
                }
                // Parsed, but not executed yet: MySQL's 1235, naming the statement.
                other => return Err(SqlError::not_modelled(other.name())),
            }
        }
        let texts = commands.into_iter().map(|c| c.text);
        for (targets, text) in plans.into_iter().zip(texts) {
            self.emit(EventKind::StatementStarted {
                session,
                sql: text.clone(),
            });
            let id = self.spawn(Thread::Ddl(Box::new(Ddl {
                session,
                sql: text,
                started: self.now,
                targets,
                current: 0,
                step: DdlStep::Begin,
                instance: 0,
                cursor: FRAME_NONE,
                io_skipped: false,
                file_done: false,
            })));
            let now = self.now;
            self.schedule(now, Wake::Thread(id));
        }
        Ok(())
    }

    fn step_thread(&mut self, t: ThreadId) {
        let mut th = std::mem::replace(&mut self.threads[t.0 as usize], Thread::Exited);
        let next = match &mut th {
            Thread::Client(c) => self.step_client(t, c),
            Thread::PageCleaner(p) => self.step_cleaner(t, p),
            Thread::Ddl(d) => self.step_ddl(t, d),
            Thread::Exited => Next::Exit,
        };
        match next {
            Next::After(d) => {
                self.threads[t.0 as usize] = th;
                let at = self.now + d;
                self.schedule(at, Wake::Thread(t));
            }
            Next::Parked => self.threads[t.0 as usize] = th,
            Next::Exit => {}
        }
    }

    // ---- client sessions -----------------------------------------------------------

    fn step_client(&mut self, t: ThreadId, c: &mut Client) -> Next {
        let costs = &self.profile.costs;
        let (page_get, lru_op) = (Tick(costs.page_get_ns), Tick(costs.lru_op_ns));
        match c.step {
            ClientStep::NextStatement => {
                let Some(page) = self.pick_page(&mut c.rng) else {
                    // Nothing left to read: idle until a table exists again.
                    return Next::After(Tick::SECOND);
                };
                c.page = page;
                c.stmt_start = self.now;
                c.free_block_attempt = 0;
                self.running += 1;
                c.step = ClientStep::BufPageGet;
                Next::After(Tick::from_us(self.scenario.workload.statement_cpu_us))
            }
            ClientStep::BufPageGet => {
                self.counters.read_requests += 1;
                match self.pool.lookup(c.page) {
                    Lookup::Hit(f) => {
                        c.frame = f;
                        let now_ms = self.now.as_ms() as u32;
                        if self.pool.note_access(
                            f,
                            now_ms,
                            self.scenario.buffer_pool.old_blocks_time_ms,
                        ) {
                            c.step = ClientStep::MakeYoung;
                        } else {
                            c.step = ClientStep::StatementDone;
                        }
                        Next::After(page_get)
                    }
                    Lookup::IoFixed(_) => {
                        // Counted once per statement: undo this poll's request.
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
                c.step = ClientStep::StatementDone;
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
                let limit = if c.free_block_attempt == 0 {
                    LRU_SEARCH_SCAN_THRESHOLD
                } else {
                    u32::MAX
                };
                match self.pool.get_free_block(inst, limit) {
                    FreeBlock::FromFreeList(f) => {
                        self.pool.init_for_read(f, c.page);
                        c.frame = f;
                        c.step = ClientStep::ReadIssue;
                        Next::After(lru_op)
                    }
                    FreeBlock::Evicted { frame, scanned } => {
                        self.pool.init_for_read(frame, c.page);
                        c.frame = frame;
                        c.step = ClientStep::ReadIssue;
                        Next::After(
                            lru_op
                                + Tick(self.profile.costs.lru_scan_ns_per_page)
                                    .times(u64::from(scanned)),
                        )
                    }
                    FreeBlock::NoneFound { scanned } => {
                        // Every block looked at was fixed: count the wait, let go, retry.
                        self.counters.wait_free += 1;
                        c.free_block_attempt += 1;
                        self.release(latch, t, false);
                        let scan =
                            Tick(self.profile.costs.lru_scan_ns_per_page).times(u64::from(scanned));
                        let sleep = if c.free_block_attempt > 1 {
                            FREE_BLOCK_SLEEP
                        } else {
                            Tick::ZERO
                        };
                        Next::After(scan + sleep)
                    }
                }
            }
            ClientStep::ReadIssue => {
                let latch = LatchId::BufPool(self.pool.instance_of(c.page));
                self.release(latch, t, false);
                self.counters.reads += 1;
                c.step = ClientStep::ReadComplete;
                Next::After(Tick::from_us(self.scenario.device.read_latency_us()))
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
                c.step = ClientStep::StatementDone;
                Next::After(Tick::ZERO)
            }
            ClientStep::StatementDone => {
                let latency = self.now - c.stmt_start;
                self.latency.record(latency.as_us());
                self.counters.queries += 1;
                self.counters.transactions += 1;
                self.running -= 1;
                c.step = ClientStep::NextStatement;
                Next::After(Tick::from_us(self.scenario.workload.round_trip_us))
            }
        }
    }

    // ---- the page cleaner ----------------------------------------------------------

    fn step_cleaner(&mut self, t: ThreadId, p: &mut PageCleaner) -> Next {
        let latch = LatchId::BufPool(p.instance);
        match p.step {
            CleanerStep::LruBatch => {
                if !self.acquire(latch, t) {
                    return Next::Parked;
                }
                let depth = self.scenario.buffer_pool.lru_scan_depth;
                let (scanned, _freed) = self.pool.lru_flush_batch(p.instance, depth);
                p.step = CleanerStep::LruBatchDone;
                Next::After(Tick(self.profile.costs.lru_scan_ns_per_page).times(u64::from(scanned)))
            }
            CleanerStep::LruBatchDone => {
                self.release(latch, t, false);
                p.step = CleanerStep::LruBatch;
                p.instance += 1;
                if p.instance < self.pool.n_instances() {
                    return Next::After(Tick::ZERO);
                }
                p.instance = 0;
                p.round_start += PAGE_CLEANER_PERIOD;
                while p.round_start <= self.now {
                    p.round_start += PAGE_CLEANER_PERIOD;
                }
                Next::After(p.round_start - self.now)
            }
        }
    }

    // ---- DDL -------------------------------------------------------------------------

    fn step_ddl(&mut self, t: ThreadId, d: &mut Ddl) -> Next {
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
                d.cursor = self.pool.lru_scan_start(d.instance);
                d.io_skipped = false;
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
                Next::After(Tick::ZERO)
            }
            DdlStep::LruScan => {
                let space = self.tables[d.targets[d.current].table].space;
                let (visited, _freed, skipped) = self.pool.lru_remove_space_pages(
                    d.instance,
                    &mut d.cursor,
                    space,
                    SCAN_STRETCH_PAGES,
                );
                d.io_skipped |= skipped > 0;
                if d.cursor == FRAME_NONE {
                    d.step = DdlStep::LruScanEnd;
                }
                Next::After(Tick(self.profile.costs.lru_scan_ns_per_page).times(u64::from(visited)))
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

    // ---- samples ---------------------------------------------------------------------

    fn take_sample(&mut self) {
        let stats = self.pool.stats();
        self.counters.made_young = stats.made_young;
        self.counters.made_not_young = stats.not_made_young;
        let d = self.counters.since(&self.last_counters);
        self.last_counters = self.counters.clone();
        let (avg, p95, p99, max) = self.latency.take_ms();
        let pages_total = self.pool.pages_total();
        let pages_data = self.pool.pages_data();
        let pages_free = self.pool.pages_free();
        let s = Sample {
            t_s: self.now.as_secs(),
            pages_total,
            pages_data,
            pages_dirty: 0,
            pages_free,
            pages_misc: pages_total - pages_data - pages_free,
            pages_stale: self.pool.pages_stale(),
            wait_free: d.wait_free,
            reads: d.reads,
            read_requests: d.read_requests,
            made_young: d.made_young,
            made_not_young: d.made_not_young,
            tps: d.transactions,
            qps: d.queries,
            latency_avg_ms: avg,
            latency_p95_ms: p95,
            latency_p99_ms: p99,
            latency_max_ms: max,
            threads_running: self.running,
        };
        self.hash.feed_json(&s);
        self.samples.push(s);
        let next = self.now + Tick::SECOND;
        self.schedule(next, Wake::Sample);
    }

    // ---- what viewers read -------------------------------------------------------------

    /// The virtual time.
    pub fn now(&self) -> Tick {
        self.now
    }
    /// Every event so far, oldest first.
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// Every per-second sample so far.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }
    /// The hash of every event and sample so far.
    pub fn trace_hash(&self) -> u64 {
        self.hash.value()
    }
    /// The buffer pool.
    pub fn pool(&self) -> &BufPool {
        &self.pool
    }
    /// The tables, dropped ones included (flagged).
    pub fn tables(&self) -> &[Table] {
        &self.tables
    }
    /// A latch's state.
    pub fn latch(&self, id: LatchId) -> &Latch {
        &self.latches[Self::latch_index(id)]
    }
    /// Every latch.
    pub fn latches(&self) -> &[Latch] {
        &self.latches
    }
    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }
    /// The engine profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }
    /// The user's accepted commands with the virtual time of each: with the scenario and
    /// the seed, everything needed to replay this run.
    pub fn commands(&self) -> &[(Tick, String)] {
        &self.commands
    }
    /// The console's session id.
    pub fn console_session(&self) -> u32 {
        self.console_session
    }
    /// A new session id (for tabs of the SQL console).
    pub fn new_session_id(&mut self) -> u32 {
        self.next_session += 1;
        self.next_session - 1
    }
    /// The workload's client sessions, in id order.
    pub fn sessions(&self) -> Vec<SessionView> {
        self.threads
            .iter()
            .enumerate()
            .filter_map(|(i, th)| match th {
                Thread::Client(c) => {
                    let tid = ThreadId(i as u32);
                    let waiting_for = self
                        .latches
                        .iter()
                        .find(|l| l.waiters().any(|w| w == tid))
                        .map(|l| l.id);
                    let state = match (waiting_for, c.step) {
                        (Some(_), _) => "waiting for a buffer pool mutex",
                        (None, ClientStep::NextStatement) => "",
                        (None, ClientStep::ReadComplete) => "reading a page",
                        (None, _) => "Sending data",
                    };
                    Some(SessionView {
                        id: c.session,
                        state,
                        waiting_for,
                    })
                }
                _ => None,
            })
            .collect()
    }

    /// Client sessions inside a statement right now.
    pub fn threads_running(&self) -> u64 {
        self.running
    }
}
