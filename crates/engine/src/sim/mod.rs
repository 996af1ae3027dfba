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

mod alter;
mod binlog;
mod catalog;
mod checkpoint;
mod cleaner;
mod client;
mod cpu;
mod ddl;
mod guess;
#[cfg(test)]
mod invariants;
mod locks;
pub mod log;
mod os;
mod partition;
mod recorder;
mod sched;
#[cfg(test)]
mod schedule_props;
mod session;
mod tools;
mod warm;

pub use warm::{SimBuild, WarmUp};

pub use session::{ProcesslistRow, StatementOutcome, StatementRecord};
pub use tools::ToolView;

use crate::bufpool::BufPool;
use crate::device::Device;
use crate::dict::Table;
use crate::events::{Event, EventKind};
use crate::fs::{FileSystem, FsConfig};
use crate::latch::{Latch, LatchId};
use crate::metrics::{Sample, WaitGauge};
use crate::profile::Profile;
use crate::rng::SimRng;
use crate::scenario::shell::{fs_path, DATADIR};
use crate::scenario::Scenario;
use crate::sql::SqlError;
use crate::time::Tick;
use crate::workload::KeyDist;
use crate::ThreadId;
use alter::{IndexBuild, MetaDdl};
use catalog::{Catalog, TableEntry, TableId};
use cleaner::PageCleaner;
use client::Client;
use cpu::Cpu;
use ddl::{Ddl, FilePurge};
use log::LogSys;
use os::Shell;
use recorder::Recorder;
use sched::{Next, Scheduler, Wake};

/// The page-cleaner coordinator's loop period.
const PAGE_CLEANER_PERIOD: Tick = Tick::SECOND;

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

/// A table's data file as MySQL names it, relative to the datadir.
pub fn ibd_path(schema: &str, table: &str) -> String {
    format!("./{schema}/{table}.ibd")
}

#[derive(Clone, Debug)]
enum Thread {
    Client(Box<Client>),
    PageCleaner(Box<PageCleaner>),
    Ddl(Box<Ddl>),
    IndexBuild(Box<IndexBuild>),
    MetaDdl(Box<MetaDdl>),
    FilePurge(Box<FilePurge>),
    Shell(Box<Shell>),
    HaProbe(Box<HaProbe>),
    Session(Box<session::SessionThread>),
    Tool(Box<tools::Tool>),
    Exited,
}

/// The HA manager's write probe (a heartbeat `UPDATE` every interval).
#[derive(Clone, Debug)]
struct HaProbe {
    step: ProbeStep,
    started: Tick,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ProbeStep {
    /// Send the heartbeat.
    Start,
    /// Open the heartbeat table (5.1: `LOCK_open`).
    OpenTable,
    /// The replication plugin's `before_dml` hook (5.7: `dict_sys`).
    BeforeDml,
    /// Written; sleep until the next one.
    Done,
}

/// The whole simulated server: the scheduler, the catalog, the SQL layer and what the
/// run records, over the storage engine's subsystems (each its own module's type).
#[derive(Clone, Debug)]
pub struct Sim {
    scenario: Scenario,
    profile: Profile,
    /// The clock, the wake-up queue and the threads (sim/sched.rs).
    sched: Scheduler,
    /// Every table, one record each (sim/catalog.rs).
    catalog: Catalog,
    /// Sessions, statements, transactions, metadata and row locks (sim/session).
    sql: session::SqlLayer,
    /// Events, trace hash, counters, samples, wait gauges, the HA probe (sim/recorder.rs).
    rec: Recorder,
    pool: BufPool,
    /// Where sessions last found pages, tried before the page hash (sim/guess.rs).
    guesses: guess::BlockGuesses,
    device: Device,
    /// The file system holding the data files.
    fs: FileSystem,
    cpu: Cpu,
    log: LogSys,
    latches: Vec<Latch>,
    dist: KeyDist,
    cleaner: ThreadId,
    /// A session could not find a free block and signalled `buf_flush_event`.
    cleaner_signalled: bool,
    /// The page cleaner is in its between-rounds sleep.
    cleaner_sleeping: bool,
    /// `log_sys.last_checkpoint_lsn` (`sim/checkpoint.rs`).
    last_checkpoint_lsn: crate::bufpool::Lsn,
    /// `buf_flush_sync_lsn`: a writer waits for the pages older than this to be
    /// written and a checkpoint past it (`mechanisms.checkpoint_margin`).
    buf_flush_sync_lsn: Option<crate::bufpool::Lsn>,
    /// `buf_flush_async_lsn`: the page cleaner writes `innodb_io_capacity_max` pages a
    /// batch older than this, batch after batch (`sim/checkpoint.rs`).
    buf_flush_async_lsn: Option<crate::bufpool::Lsn>,
    /// Bytes of row-lock structures held by open transactions (`trx->lock.lock_heap`).
    lock_heap_bytes: u64,
    /// Next instance to lend a frame from.
    lend_cursor: u16,
    warm_rng: SimRng,
    /// The binary log, read by the replica and by gh-ost (sim/binlog.rs).
    binlog: binlog::Binlog,
    /// The replica's SQL thread, if the scenario has a replica.
    replica: Option<binlog::Replica>,
    /// What each online schema-change tool started has done (sim/tools).
    tool_views: Vec<tools::ToolView>,
}

/// Bytes of one adaptive-hash-index node (`ha_node_t`: fold, data pointer, block, next).
const AHI_NODE_BYTES: u64 = 32;
/// Bytes of lock structures per page a transaction locks rows on (`lock_t` + bitmap).
pub(crate) const LOCK_BYTES_PER_PAGE: u64 = 120;

impl Sim {
    /// A server set up as `scenario` says, running `profile`, at virtual time zero.
    /// [`SimBuild`] builds the same server in slices.
    pub fn new(scenario: Scenario, profile: Profile) -> Result<Sim, String> {
        let mut build = SimBuild::new(scenario, profile)?;
        build.step(u64::MAX);
        Ok(build.finish())
    }

    /// The server before its warm-up and its threads: tables, files, pool, latches.
    fn assemble(scenario: Scenario, profile: Profile) -> Result<Sim, String> {
        scenario.validate()?;
        let profile = profile.with_overrides(&scenario.profile_overrides)?;
        let bp = &scenario.buffer_pool;
        let mut pool = BufPool::new(scenario.pool_pages(), bp.instances, bp.old_blocks_pct);
        let mut latches = vec![
            Latch::new(LatchId::LockOpen),
            Latch::new(LatchId::DictSys),
            Latch::new(LatchId::FilSys),
        ];
        latches.extend((0..bp.instances).map(|i| Latch::new(LatchId::BufPool(i))));
        // Space 0 is the system tablespace; file-per-table ids start after it. A
        // partitioned table is one table (and tablespace) per partition.
        let tables: Vec<Table> = partition::build_tables(&scenario);
        for t in &tables {
            pool.register_space(t.space);
            if t.zip_kb != 0 {
                pool.set_space_zip_size(t.space, t.zip_kb);
            }
        }
        let w = &scenario.workload;
        let workload_tables = partition::workload_tables(&tables, &w.tables);
        let dist = KeyDist::new(w.distribution, w.special_pct, w.special_res, w.pareto_h);
        let threads_n = w.threads;
        let device = Device::new(&scenario.device);
        let fs = Self::data_files(&scenario, &tables)?;
        // The SQL layer's definition of every dictionary table; each partition of a
        // partitioned table carries the whole table's partition list.
        let entries = tables
            .into_iter()
            .map(|t| {
                let cfg = scenario
                    .tables
                    .iter()
                    .find(|c| c.name.eq_ignore_ascii_case(t.sql_name()));
                let mut def = session::TableDef::sysbench(
                    t.rows,
                    cfg.map_or(0, |c| c.secondary_indexes),
                    cfg.and_then(|c| c.partitions).unwrap_or(0),
                );
                def.live_rows = t.rows;
                let rows = t.rows;
                TableEntry::new(t, def, rows)
            })
            .collect();
        let catalog = Catalog::new(entries, workload_tables);
        let mut binlog = binlog::Binlog::default();
        let replica = scenario.replica.enabled.then(|| {
            binlog::Replica::new(&mut binlog, Tick::from_us(scenario.replica.apply_row_us))
        });
        let sim = Sim {
            sql: session::SqlLayer::new(threads_n, &profile),
            profile,
            sched: Scheduler::default(),
            catalog,
            rec: Recorder::default(),
            pool,
            guesses: guess::BlockGuesses::new(),
            device,
            fs,
            cpu: Cpu::new(scenario.server.cpus),
            log: LogSys::default(),
            latches,
            dist,
            cleaner: ThreadId(0),
            cleaner_signalled: false,
            cleaner_sleeping: false,
            last_checkpoint_lsn: crate::bufpool::Lsn(0),
            buf_flush_sync_lsn: None,
            buf_flush_async_lsn: None,
            lock_heap_bytes: 0,
            lend_cursor: 0,
            warm_rng: SimRng::stream(scenario.seed, "warm.ahi"),
            binlog,
            replica,
            tool_views: Vec::new(),
            scenario,
        };
        Ok(sim)
    }

    /// The server's threads, started once the pool is warm: the clients (staggered over
    /// one round trip so they do not march in step), the console's session, the page
    /// cleaner, the HA probe, the sampler and the scenario's script.
    fn start_threads(&mut self) {
        let sim = self;
        let threads_n = sim.scenario.workload.threads;
        let round_trip = Tick::from_us(sim.scenario.workload.round_trip_us.max(1));
        for n in 0..threads_n {
            let mut rng = SimRng::stream(sim.scenario.seed, &format!("client.{n}"));
            let start = Tick(rng.below(round_trip.as_ns()));
            let id = sim
                .sched
                .spawn(Thread::Client(Box::new(Client::new(n + 1, rng))));
            sim.sched.schedule_thread(start, id);
        }
        sim.sql.console_session = sim.connect();
        sim.cleaner = sim
            .sched
            .spawn(Thread::PageCleaner(Box::new(PageCleaner::new(
                PAGE_CLEANER_PERIOD,
            ))));
        sim.sched.schedule_thread(PAGE_CLEANER_PERIOD, sim.cleaner);
        if sim.scenario.ha_probe.enabled {
            let probe = sim.sched.spawn(Thread::HaProbe(Box::new(HaProbe {
                step: ProbeStep::Start,
                started: Tick::ZERO,
            })));
            let first = Tick::from_ms(sim.scenario.ha_probe.interval_ms);
            sim.sched.schedule_thread(first, probe);
        }
        sim.sched.schedule(Tick::SECOND, Wake::Sample);
        for i in 0..sim.scenario.script.len() {
            let at = Tick::from_secs(sim.scenario.script[i].at_s);
            sim.sched.schedule(at, Wake::Script(i as u32));
        }
    }

    /// The file system with the datadir, the AliSQL purge directory and every table's
    /// `.ibd` at its size.
    fn data_files(scenario: &Scenario, tables: &[Table]) -> Result<FileSystem, String> {
        let fail = |e: crate::fs::FsError| format!("file system: {e}");
        let config = FsConfig::new(scenario.file_system.kind);
        let mut fs = FileSystem::new(config, SimRng::stream(scenario.seed, "fs")).map_err(fail)?;
        fs.mkdir(DATADIR).map_err(fail)?;
        fs.mkdir(&format!("{DATADIR}/{}", scenario.schema))
            .map_err(fail)?;
        fs.mkdir(&format!("{DATADIR}/#file_purge")).map_err(fail)?;
        for t in tables {
            os::create_data_file(&mut fs, &scenario.schema, &t.name, t.bytes).map_err(fail)?;
        }
        Ok(fs)
    }

    /// A built-in scenario, optionally with another built-in profile than its own.
    pub fn builtin(scenario: &str, profile: Option<&str>) -> Result<Sim, String> {
        let scenario = Scenario::builtin(scenario)?;
        let profile = Profile::builtin(profile.unwrap_or(&scenario.profile))?;
        Sim::new(scenario, profile)
    }

    fn emit(&mut self, kind: EventKind) {
        self.rec.emit(self.sched.now, kind);
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
        let now = self.sched.now;
        let got = self.latches[Self::latch_index(latch)].try_acquire(t, now);
        if !got {
            self.note_wait();
        }
        got
    }

    /// Takes `latch` and lets it go at once, for a step that needs it only for a moment
    /// (a hook's look under `dict_sys`, a name under `fil_system`): [`Sim::acquire`]
    /// then an unreported [`Sim::release`], without the hand-over work when the latch
    /// is free. False, queued, if another thread holds it.
    #[inline]
    fn pass_latch(&mut self, latch: LatchId, t: ThreadId) -> bool {
        let now = self.sched.now;
        if self.latches[Self::latch_index(latch)].pass_if_free(now) {
            return true;
        }
        if !self.acquire(latch, t) {
            return false;
        }
        self.release(latch, t, false);
        true
    }

    /// Sessions and threads waiting right now, by kind of lock.
    pub fn waiting_now(&self) -> WaitGauge {
        WaitGauge {
            mdl: self.sql.mdl_waiters.len() as u64,
            row_lock: self.sql.row_waits.len() as u64,
            latch: self.latches.iter().map(|l| l.waiter_count() as u64).sum(),
        }
    }

    /// A thread started waiting: the second's peak may have grown. (Counts only grow
    /// when a wait starts, so this is the only place the peak needs looking at.)
    pub(super) fn note_wait(&mut self) {
        let now = self.waiting_now();
        self.rec.wait_peak.raise(now);
    }

    /// Releases `latch`, waking the next holder; background and DDL threads' holds are
    /// reported as spans.
    fn release(&mut self, latch: LatchId, t: ThreadId, report: bool) {
        let now = self.sched.now;
        let l = &mut self.latches[Self::latch_index(latch)];
        let waiters = l.waiter_count() as u32;
        let r = l.release(t, now);
        if let Some(next) = r.next_holder {
            self.sched.schedule_thread(now, next);
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

    /// `buf_flush_event` is set: wake the page cleaner if it is between rounds.
    fn signal_page_cleaner(&mut self) {
        self.cleaner_signalled = true;
        if self.cleaner_sleeping {
            self.cleaner_sleeping = false;
            let c = self.cleaner;
            self.sched.wake_early(c);
        }
    }

    // ---- the public run loop -------------------------------------------------------

    /// Runs every step due up to and including `until`, then sets the clock to `until`.
    pub fn run_until(&mut self, until: Tick) {
        let mut due = self.sched.pop_due(until);
        while let Some(wake) = due {
            due = match wake {
                // A thread's steps end by taking the next wake off the queue.
                Wake::Thread(t, _) => self.step_thread(t, until),
                other => {
                    self.run_wake(other);
                    self.sched.pop_due(until)
                }
            };
        }
        self.sched.now = self.sched.now.max(until);
    }

    /// A wake that is not a thread's: a sample, a timeout, a script line. Not
    /// inlined into the run loop in wasm: once a second or rarer, and its callees
    /// (a sample's) would make the loop one large function for the browser to
    /// compile (see [`Sim::step_thread_until_it_waits`]).
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn run_wake(&mut self, wake: Wake) {
        match wake {
            Wake::Sample => self.take_sample(),
            Wake::MdlTimeout => self.mdl_expire(),
            Wake::RowLockTimeout(s) => self.row_lock_timeout(s),
            Wake::Script(i) => self.run_script_line(i as usize),
            Wake::Thread(..) => unreachable!("a thread's wake runs through step_thread"),
        }
    }

    /// A scenario script line comes due: a shell command, or SQL for the console
    /// session or another client's (an error in it is reported as the statement's
    /// result).
    fn run_script_line(&mut self, i: usize) {
        if !self.scenario.script[i].shell.is_empty() {
            let line = self.scenario.script[i].shell.clone();
            self.start_shell(&line);
            return;
        }
        if !self.scenario.script[i].tool.is_empty() {
            let line = self.scenario.script[i].tool.clone();
            self.start_tool(&line);
            return;
        }
        let sql = self.scenario.script[i].sql.clone();
        let session = match self.scenario.script[i].session {
            0 => self.sql.console_session,
            n => match self.sql.script_sessions.get(&n) {
                Some(&id) => id,
                None => {
                    let id = self.connect();
                    self.sql.script_sessions.insert(n, id);
                    id
                }
            },
        };
        if let Err(e) = self.submit_to(session, &sql) {
            self.emit(EventKind::StatementFinished {
                session,
                sql,
                elapsed: Tick::ZERO,
                result: e.to_string(),
                error: true,
            });
        }
    }

    /// When the next thing is due (a thread's step, a sample, a timeout), if anything
    /// is: a viewer steps to it to see the next change.
    pub fn next_wake(&self) -> Option<Tick> {
        self.sched.next_wake()
    }

    /// Runs for `d` more virtual time.
    pub fn run_for(&mut self, d: Tick) {
        let until = self.sched.now + d;
        self.run_until(until);
    }

    /// Runs `sql` from the console session at the current virtual time. Errors in the
    /// text or unknown tables come back at once and change nothing; accepted statements
    /// report their result as a [`EventKind::StatementFinished`] event.
    pub fn execute(&mut self, sql: &str) -> Result<(), SqlError> {
        let session = self.sql.console_session;
        self.submit_to(session, sql)?;
        self.sql.commands.push((self.sched.now, sql.to_string()));
        Ok(())
    }

    /// Adds a rebuild's new table: its SQL definition is the old one's shape until the
    /// names are swapped.
    fn push_table(&mut self, t: Table) {
        self.catalog
            .push(t, session::TableDef::sysbench(0, 0, 0), 0);
    }

    /// Runs thread `t`'s steps due now, and its next ones as long as each would be the
    /// next wake anyway (see [`Scheduler::runs_next`]): a step that continues after a
    /// zero or short delay with nothing else due before it runs at once, without a trip
    /// through the queue, in exactly the order the queue would have given. Then the next
    /// wake due by `until` comes off the queue ([`Scheduler::pop_due`]; a thread that
    /// sleeps goes on the queue as it comes off, [`Scheduler::reschedule_then_pop`]): a
    /// thread's is run here the same way, and the first that is not a thread's is
    /// returned, so that a run's thread steps go through one call of this function (its
    /// set-up once, not once a step).
    ///
    /// Not inlined into [`Sim::run_until`] in wasm: V8 optimises a wasm function for
    /// its next calls, never the call under way, and a long run is one call of
    /// `run_until`; this function, called again at every sample, is optimised as
    /// soon as it runs hot.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn step_thread(&mut self, mut t: ThreadId, until: Tick) -> Option<Wake> {
        loop {
            match self.step_thread_until_it_waits(t, until) {
                Some(Wake::Thread(next, _)) => t = next,
                other => return other,
            }
        }
    }

    /// One thread's part of [`Sim::step_thread`]: its steps until it sleeps, parks or
    /// exits; returns the next wake due, taken off the queue.
    ///
    /// In wasm, each kind's step but a client's is a function of its own
    /// (`inline(never)`), not inlined here: inlined, they made `step_thread` one
    /// 48 kB function, which the browser's optimising compiler (V8's TurboFan, on a
    /// background thread) took 234 ms of CPU to compile in the page's first second,
    /// on a 2-core machine the page's thread's share of a core. Apart, each is
    /// compiled when it runs hot, and a DDL's only once a DDL runs. A client's step,
    /// the one that runs nearly every time, stays inlined (apart, the engine ran
    /// about 5% slower in Chromium). Natively nothing is compiled at run time, and
    /// LLVM inlines as it sees fit.
    #[inline(always)]
    fn step_thread_until_it_waits(&mut self, t: ThreadId, until: Tick) -> Option<Wake> {
        let mut th = std::mem::replace(&mut self.sched.threads[t.0 as usize], Thread::Exited);
        loop {
            let next = match &mut th {
                Thread::Client(c) => self.step_client(t, c),
                Thread::PageCleaner(p) => self.step_cleaner(t, p),
                Thread::Ddl(d) => self.step_ddl(t, d),
                Thread::IndexBuild(b) => self.step_index_build(t, b),
                Thread::MetaDdl(a) => self.step_meta_ddl(t, a),
                Thread::FilePurge(p) => self.step_file_purge(t, p),
                Thread::Shell(s) => self.step_shell(t, s),
                Thread::HaProbe(p) => self.step_probe(t, p),
                Thread::Session(st) => self.step_session(t, st),
                Thread::Tool(tool) => self.step_tool(t, tool),
                Thread::Exited => Next::Exit,
            };
            match next {
                Next::After(d) => {
                    let at = self.sched.now + d;
                    if self.sched.runs_next(at, until) {
                        self.sched.now = at;
                        continue;
                    }
                    self.sched.threads[t.0 as usize] = th;
                    return self.sched.reschedule_then_pop(at, t, until);
                }
                Next::Parked => self.sched.threads[t.0 as usize] = th,
                Next::Exit => {}
            }
            return self.sched.pop_due(until);
        }
    }

    // ---- samples ---------------------------------------------------------------------

    /// Bytes the adaptive hash index uses: one node per record on every hashed page.
    pub fn ahi_bytes(&self) -> u64 {
        self.pool
            .ahi_pages()
            .iter()
            .map(|(&(space, index), &pages)| {
                let recs = self
                    .catalog
                    .tables()
                    .find(|t| t.space == space)
                    .and_then(|t| t.indexes.get(usize::from(index) - 1))
                    .map_or(0, |ix| ix.records_per_leaf);
                pages * recs * AHI_NODE_BYTES
            })
            .sum()
    }

    /// Lends or takes back whole pool frames so the AHI and lock heaps have what they use
    /// (`mem_heap_create_block_func()` takes a pool block for every heap block of half a
    /// page or more). Done once a second. Simplification: no instance mutex is taken.
    fn rebalance_lent_frames(&mut self) {
        let page = crate::units::PAGE_SIZE;
        let need = self.ahi_bytes().div_ceil(page) + self.lock_heap_bytes.div_ceil(page);
        let n = self.pool.n_instances();
        let mut lent = self.pool.pages_misc();
        let mut stuck = 0;
        while lent < need && stuck < n {
            let got = self.pool.borrow_frames(self.lend_cursor, 1);
            self.lend_cursor = (self.lend_cursor + 1) % n;
            if got == 0 {
                stuck += 1;
            } else {
                stuck = 0;
                lent += 1;
            }
        }
        // Give back the excess from the instances that lent the most, one call each:
        // returning a frame means finding it among the instance's descriptors.
        let mut order: Vec<u16> = (0..n).collect();
        order.sort_by_key(|&i| {
            std::cmp::Reverse(self.pool.instances()[usize::from(i)].memory_len())
        });
        for i in order {
            if lent <= need {
                break;
            }
            let give = (lent - need).min(u64::from(
                self.pool.instances()[usize::from(i)].memory_len(),
            ));
            self.pool.return_frames(i, give as u32);
            lent -= give;
        }
    }

    fn take_sample(&mut self) {
        self.log.advance(self.sched.now);
        if let Some(started) = self.rec.probe_in_flight {
            let stalled = self.sched.now - started;
            self.rec.probe_longest = self.rec.probe_longest.max(stalled);
            let limit = Tick::from_secs(self.scenario.ha_probe.failover_after_s);
            if stalled >= limit && !self.rec.failed_over {
                self.rec.failed_over = true;
                self.emit(EventKind::Failover {
                    stalled_for: stalled,
                });
            }
        }
        self.pool.lru_stat_update();
        let stats = self.pool.stats();
        self.rec.counters.made_young = stats.made_young;
        self.rec.counters.made_not_young = stats.not_made_young;
        self.rec.counters.pages_flushed = stats.flushed;
        let d = self.rec.counters.since(&self.rec.last_counters);
        self.rec.last_counters = self.rec.counters.clone();
        let (avg, p95, p99, max) = self.rec.latency.take_ms();
        // The second's peak, then the next second starts from who waits now.
        let waits = self.rec.wait_peak;
        self.rec.wait_peak = self.waiting_now();
        let s = Sample {
            t_s: self.sched.now.as_secs(),
            pages_total: self.pool.pages_total(),
            pages_data: self.pool.pages_data(),
            pages_dirty: self.pool.pages_dirty(),
            pages_free: self.pool.pages_free(),
            pages_misc: self.pool.pages_misc(),
            pages_stale: self.pool.pages_stale(),
            wait_free: d.wait_free,
            reads: d.reads,
            read_requests: d.read_requests,
            pages_flushed: d.pages_flushed,
            made_young: d.made_young,
            made_not_young: d.made_not_young,
            tps: d.transactions,
            qps: d.queries,
            latency_avg_ms: avg,
            latency_p95_ms: p95,
            latency_p99_ms: p99,
            latency_max_ms: max,
            threads_running: self.rec.running,
            checkpoint_age_mb: self.checkpoint_age() >> 20,
            errors: d.errors,
            mdl_waits: waits.mdl,
            row_lock_waits: waits.row_lock,
            latch_waits: waits.latch,
            replica_lag_s: self.replica_lag(),
        };
        self.rec.sample(s);
        self.rebalance_lent_frames();
        let next = self.sched.now + Tick::SECOND;
        self.sched.schedule(next, Wake::Sample);
    }

    /// Whether new statements may use table `t`: it exists. (Statements on a table a
    /// DDL is changing queue for its metadata lock, as in the server.)
    fn table_open(&self, t: TableId) -> bool {
        !self.catalog[t].table.dropped && !self.catalog[t].table.discarded
    }

    // ---- what viewers read -------------------------------------------------------------

    /// The virtual time.
    pub fn now(&self) -> Tick {
        self.sched.now
    }
    /// The events kept, oldest first: every event of a run's first 65,536 and at
    /// least the newest 65,536 after that (`sim/recorder.rs`).
    pub fn events(&self) -> &[Event] {
        self.rec.events.kept()
    }
    /// How many events the run has made (kept or not): a reader following the stream
    /// remembers it and asks [`Sim::events_since`] next time.
    pub fn event_count(&self) -> u64 {
        self.rec.events.total()
    }
    /// The events made after the first `seen`, as far as they are kept.
    pub fn events_since(&self, seen: u64) -> &[Event] {
        self.rec.events.since(seen)
    }
    /// The per-second samples kept, in time order: every second of the last hour, and
    /// before that every `2^k`-th second, at most 7,200 in all (`sim/recorder.rs`).
    pub fn samples(&self) -> &[Sample] {
        self.rec.samples.kept()
    }
    /// How many samples the run has taken (one a virtual second).
    pub fn sample_count(&self) -> u64 {
        self.rec.samples.total()
    }
    /// The samples taken after the first `seen`, as far as kept (the last hour's are).
    pub fn samples_since(&self, seen: u64) -> &[Sample] {
        self.rec.samples.since(seen)
    }
    /// About how many bytes of memory this simulation holds: the pool's descriptors,
    /// page hash and flush lists, the kept events and samples, the statements. What a
    /// viewer that keeps copies (checkpoints) budgets with.
    pub fn approx_bytes(&self) -> u64 {
        let pool = self.pool.approx_bytes();
        let events = self.rec.events.kept().len() * (std::mem::size_of::<Event>() + 32);
        let samples = std::mem::size_of_val(self.rec.samples.kept());
        let statements = self.sql.statements.len() * 256;
        pool + (events + samples + statements) as u64
    }
    /// The hash of every event and sample so far.
    pub fn trace_hash(&self) -> u64 {
        self.rec.hash.value()
    }
    /// The buffer pool.
    pub fn pool(&self) -> &BufPool {
        &self.pool
    }
    /// The tables, dropped ones included (flagged).
    pub fn tables(&self) -> impl ExactSizeIterator<Item = &Table> + '_ {
        self.catalog.tables()
    }
    /// A latch's state.
    pub fn latch(&self, id: LatchId) -> &Latch {
        &self.latches[Self::latch_index(id)]
    }
    /// Every latch.
    pub fn latches(&self) -> &[Latch] {
        &self.latches
    }
    /// From now on, keeps every workload event's latency, corrected for coordinated
    /// omission with `interval` the expected time between a client's events (the
    /// advisor's p99 over a playbook). Samples and the trace do not change.
    pub fn open_latency_span(&mut self, interval: Tick) {
        let window = crate::metrics::LatencyWindow::default();
        self.rec.span = Some((window, interval.as_us().max(1)));
    }
    /// The 99th percentile of the latencies kept since [`Sim::open_latency_span`], ms.
    pub fn latency_span_p99_ms(&self) -> Option<f64> {
        self.rec.span.as_ref().map(|(w, _)| w.p99_ms())
    }
    /// Bytes the data files' file system holds now: what `df` would show as used.
    pub fn disk_used_bytes(&self) -> u64 {
        self.fs.used_bytes()
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
        &self.sql.commands
    }
    /// The console's session id.
    pub fn console_session(&self) -> u32 {
        self.sql.console_session
    }
    /// Client sessions inside a statement right now.
    pub fn threads_running(&self) -> u64 {
        self.rec.running
    }
    /// Core time the server's threads have used so far.
    pub fn cpu_busy(&self) -> Tick {
        self.cpu.busy
    }
    /// Threads waiting for a core right now.
    pub fn cpu_queued(&self) -> usize {
        self.cpu.queued()
    }
    /// The redo log's current LSN.
    pub fn lsn(&self) -> crate::bufpool::Lsn {
        self.log.lsn
    }
    /// Each metadata-lock name's granted list and waiting queue, with grant and wait
    /// times and wait-for edges: what the app's MDL panel draws.
    pub fn mdl_queues(&self) -> Vec<crate::mdl::MdlQueue> {
        self.mdl().queues()
    }
    /// Every waiting metadata-lock request with what blocks it (the wait-for edges).
    pub fn mdl_waits(&self) -> Vec<crate::mdl::MdlWait> {
        self.mdl().waits()
    }
    /// The rows of `performance_schema.metadata_locks`, typed.
    pub fn metadata_locks(&self) -> Vec<crate::mdl::MetadataLockRow> {
        self.mdl().metadata_locks()
    }

    /// The HA probe's longest heartbeat write so far (the longest write stall it saw).
    pub fn probe_longest_write(&self) -> Tick {
        let current = self
            .rec
            .probe_in_flight
            .map_or(Tick::ZERO, |s| self.sched.now - s);
        self.rec.probe_longest.max(current)
    }

    /// Whether the HA probe failed the primary over.
    pub fn failed_over(&self) -> bool {
        self.rec.failed_over
    }

    /// The HA probe: a heartbeat write every interval, through the same hooks as any DML.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `Sim::step_thread_until_it_waits`
    fn step_probe(&mut self, t: ThreadId, p: &mut HaProbe) -> Next {
        use crate::profile::TableOpenLock;
        match p.step {
            ProbeStep::Start => {
                p.started = self.sched.now;
                self.rec.probe_in_flight = Some(self.sched.now);
                p.step = ProbeStep::OpenTable;
                Next::After(Tick::ZERO)
            }
            ProbeStep::OpenTable => {
                if self.profile.mechanisms.table_open_lock == TableOpenLock::LockOpenHeldByDrop
                    && !self.pass_latch(LatchId::LockOpen, t)
                {
                    return Next::Parked;
                }
                p.step = ProbeStep::BeforeDml;
                Next::After(Tick(self.profile.costs.lru_op_ns))
            }
            ProbeStep::BeforeDml => {
                if self.profile.mechanisms.before_dml_takes_dict_sys
                    && self.scenario.server.replication_plugin
                    && !self.pass_latch(LatchId::DictSys, t)
                {
                    return Next::Parked;
                }
                p.step = ProbeStep::Done;
                // The write itself and its commit.
                Next::After(self.device.fsync_latency())
            }
            ProbeStep::Done => {
                let took = self.sched.now - p.started;
                self.rec.probe_longest = self.rec.probe_longest.max(took);
                self.rec.probe_in_flight = None;
                p.step = ProbeStep::Start;
                let interval = Tick::from_ms(self.scenario.ha_probe.interval_ms);
                Next::After(interval.saturating_sub(took))
            }
        }
    }

    /// The workload's client sessions, the DDL executors' statements and the console
    /// sessions, each with the state SHOW PROCESSLIST would show.
    pub fn sessions(&self) -> Vec<SessionView> {
        let console = self
            .sql
            .sessions
            .values()
            .filter(|s| !s.gone && !self.sql.ddl_running.contains(&s.id))
            .map(|s| SessionView {
                id: s.id,
                state: s.state,
                waiting_for: None,
            });
        let mut views: Vec<SessionView> = self
            .sched
            .threads
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
                    Some(SessionView {
                        id: c.session,
                        state: match waiting_for {
                            Some(LatchId::BufPool(_)) => "waiting for a buffer pool mutex",
                            Some(LatchId::LockOpen) => "Opening tables",
                            Some(LatchId::DictSys) => "waiting for dict_sys (before_dml hook)",
                            _ => self
                                .sql
                                .mdl
                                .wait_state(crate::mdl::MdlContextId(c.session))
                                .unwrap_or_else(|| c.state_name()),
                        },
                        waiting_for,
                    })
                }
                Thread::IndexBuild(b) => Some(SessionView {
                    id: b.session,
                    state: b.stage(),
                    waiting_for: None,
                }),
                Thread::MetaDdl(a) => Some(SessionView {
                    id: a.session,
                    state: a.stage(),
                    waiting_for: None,
                }),
                _ => None,
            })
            .collect();
        views.extend(console);
        views
    }
}
