//! The simulation driver and the animation loop.
//!
//! ```text
//!   requestAnimationFrame ──▶ FrameLoop::frame(t)
//!        ▲                      │ dt = t - last (wall, clamped to 100 ms)
//!        │                      ├─▶ Runner::advance(dt × speed)   Sim::run_for, in slices,
//!        │                      │                                 within a CPU budget
//!        │                      ├─▶ Runner::digest()              new events: scans, DDL spans,
//!        │                      │                                 finished statements
//!        │                      ├─▶ pool_map::draw()              every frame the clock moved
//!        │                      ├─▶ ChartCanvases::draw()         when a sample arrived
//!        │                      └─▶ News ──▶ reducer              at most ~10 times a second
//!        └──────── re-armed at the end of the frame (a panic stops the loop)
//! ```
//!
//! The [`Sim`] lives in an `Rc<RefCell<Runner>>` next to Yew, never in Yew's render
//! state: it holds a quarter of a million page descriptors, and a re-render must not
//! clone or compare it. Yew sees only small [`Snapshot`]s of it.
//!
//! The loop is one `Closure` built once and handed to `requestAnimationFrame` again at
//! the end of each frame. The virtual clock advances by wall time × speed; when the
//! engine cannot keep up (a 10× run on a slow machine), the loop stops stepping after
//! its budget and drops the rest of that frame's virtual time, so the page stays
//! responsive and the shown speed says how fast the simulation really runs.

use crate::chart;
use crate::flush_list;
use crate::format;
use crate::latch_lanes::{self, LatchSpan};
use crate::pool_map::{self, MapScratch};
use crate::theme::Theme;
use ddlscope_engine::{
    EventKind, LatchId, ListKind, Profile, Sample, Scenario, Sim, SpaceId, Tick,
};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;
use yew::{Callback, NodeRef};

/// The scenario the page starts with.
pub const DEFAULT_SCENARIO: &str = "drop-table-demo";
/// A buffer pool at least this large takes the engine noticeably long to build and
/// warm up (i1-ahi-drop's 128 GB pool is 8.4 M pages): the page warns about it and
/// defers the construction so that a "building…" state is painted first.
pub const HEAVY_POOL_BYTES: u64 = 32 << 30;

/// Whether building `scenario` blocks the page for a noticeable time.
pub fn is_heavy(scenario: &Scenario) -> bool {
    scenario.buffer_pool.size.0 >= HEAVY_POOL_BYTES
}
/// The engine profile the page starts with.
pub const DEFAULT_PROFILE: &str = "mysql-5.7";

/// Longest wall-clock step a frame may take: after a background tab or a long pause the
/// simulation resumes where it was instead of jumping ahead.
const MAX_DT_MS: f64 = 100.0;
/// Wall time a frame may spend stepping the engine.
const STEP_BUDGET_MS: f64 = 10.0;
/// Virtual time per `run_for` call inside a frame, so the budget is checked often.
const STEP_SLICE: Tick = Tick::from_ms(5);
/// How often Yew hears about the simulation (the stats, the clock).
const REPORT_EVERY_MS: f64 = 100.0;
/// The window over which the achieved speed is measured.
const SPEED_WINDOW_MS: f64 = 1000.0;

/// An LRU scan in progress, as the pool map draws it.
///
/// The engine emits the span when the scan takes the instance mutex and frees the
/// tablespace's pages when it releases it, at `t1`, all at once: no thread can look at
/// the list in between, so only the viewer sees the walk. The map interpolates the
/// cursor from the span and shows the pages it has passed as freed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScanSpan {
    /// The buffer-pool instance whose list is scanned.
    pub instance: u16,
    /// The tablespace whose pages the scan frees.
    pub space: SpaceId,
    /// The latch held throughout.
    pub latch: LatchId,
    /// First position, counted from the tail.
    pub from: u32,
    /// One past the last position, counted from the tail.
    pub to: u32,
    /// Start.
    pub t0: Tick,
    /// End.
    pub t1: Tick,
}

impl ScanSpan {
    /// Whether the scan is running at `now`.
    pub fn active(&self, now: Tick) -> bool {
        self.t0 <= now && now <= self.t1
    }

    /// Blocks the cursor has passed at `now`, counted from the tail: the walk covers
    /// `to - from` blocks at an even pace over `[t0, t1]`.
    pub fn visited(&self, now: Tick) -> u32 {
        let span = (self.t1 - self.t0).as_ns();
        let len = u64::from(self.to - self.from);
        // Tick subtraction saturates: before t0 nothing is visited. A zero-length span
        // is over as soon as it starts.
        (len * (now - self.t0).as_ns().min(span))
            .checked_div(span)
            .unwrap_or(len) as u32
    }

    /// Blocks still ahead of the cursor at `now`, between it and the list head: the
    /// cursor's index in LRU order from the head. The scan holds the instance mutex and
    /// the engine frees the pages only at `t1`, so the list keeps its length meanwhile.
    pub fn unvisited(&self, now: Tick) -> u32 {
        self.to - self.from - self.visited(now)
    }
}

/// A statement from the console, from StatementStarted to StatementFinished: a band on
/// the charts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DdlSpan {
    /// The statement.
    pub sql: String,
    /// Started.
    pub t0: Tick,
    /// Finished, or `None` while it runs.
    pub t1: Option<Tick>,
}

/// A finished statement, or a note about what the server did, for the console's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// When it finished (or happened, for a note).
    pub at: Tick,
    /// The statement, or the note's text.
    pub sql: String,
    /// `Query OK, ...` or the error; empty for a note.
    pub result: String,
    /// Whether it failed.
    pub error: bool,
    /// A line about the server (an HA failover, the AHI cleanup), not a statement.
    pub note: bool,
}

impl LogEntry {
    /// A note line at `at`.
    pub fn note(at: Tick, text: String) -> LogEntry {
        LogEntry {
            at,
            sql: text,
            result: String::new(),
            error: false,
            note: true,
        }
    }
}

/// A table, for the legend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableInfo {
    /// Its name.
    pub name: String,
    /// Its tablespace (picks the colour).
    pub space: SpaceId,
    /// Whether it was dropped.
    pub dropped: bool,
}

/// The log line an engine event deserves, if any: the HA probe's failover and the
/// adaptive hash index cleanup of a dropped table.
pub fn note_for(at: Tick, kind: &EventKind) -> Option<LogEntry> {
    let text = match kind {
        EventKind::Failover { stalled_for } => format!(
            "HA probe: failover after {} s of stalled writes",
            stalled_for.as_secs()
        ),
        EventKind::AhiCleanupStarted {
            space,
            pages,
            hashed_pages,
            latch,
            ..
        } => {
            let held = latch.map_or(String::new(), |l| format!(", holding {l}"));
            format!(
                "AHI cleanup of space {}: started, {} pages to look at, {} hashed{held}",
                space.0,
                format::int(*pages),
                format::int(*hashed_pages),
            )
        }
        EventKind::AhiCleanupDone {
            space,
            t0,
            t1,
            hashed_pages,
            records,
        } => format!(
            "AHI cleanup of space {}: done in {} s, {} hashed pages, {} records",
            space.0,
            format::secs(*t1 - *t0),
            format::int(*hashed_pages),
            format::int(*records),
        ),
        _ => return None,
    };
    Some(LogEntry::note(at, text))
}

/// What Yew shows of the simulation: small, cheap to compare.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// The virtual time.
    pub now: Tick,
    /// `Innodb_buffer_pool_pages_total`.
    pub pages_total: u64,
    /// `Innodb_buffer_pool_pages_data`.
    pub pages_data: u64,
    /// `Innodb_buffer_pool_pages_free`.
    pub pages_free: u64,
    /// Stale pages not yet reclaimed.
    pub pages_stale: u64,
    /// `Innodb_buffer_pool_pages_dirty`.
    pub pages_dirty: u64,
    /// `Innodb_buffer_pool_pages_misc`: frames lent to the AHI and lock heaps.
    pub pages_misc: u64,
    /// `Innodb_buffer_pool_wait_free` in the last whole second: a thread found no free
    /// block and waited for the page cleaner.
    pub wait_free: u64,
    /// Statements per second, from the last whole second.
    pub qps: u64,
    /// 95th percentile statement latency in the last whole second, ms.
    pub latency_p95_ms: f64,
    /// Client threads inside a statement now.
    pub threads_running: u64,
    /// Whether a thread holds `dict_sys` now.
    pub dict_sys_held: bool,
    /// Virtual seconds per wall second over the last second while playing (0 when
    /// unknown or paused).
    pub actual_speed: f64,
    /// The tables.
    pub tables: Vec<TableInfo>,
    /// Flush-list walks by DDL so far, every instance together.
    pub flush_walks: u64,
}

/// What the loop tells the reducer.
#[derive(Clone, Debug, PartialEq)]
pub enum News {
    /// The simulation's state now.
    Snapshot(Snapshot),
    /// A console statement finished.
    Finished(LogEntry),
    /// Something the statement log should mention (not a statement).
    Note(LogEntry),
}

/// The simulation and what the views need from its event stream.
#[derive(Debug)]
pub struct Runner {
    sim: Sim,
    generation: u32,
    playing: bool,
    speed: f64,
    /// Events already digested.
    cursor: usize,
    scans: Vec<ScanSpan>,
    /// Flush-list walks not over yet, and every instance's walks so far.
    flush_walks: Vec<ScanSpan>,
    flush_walk_count: Vec<u64>,
    latch_spans: Vec<LatchSpan>,
    ddl: Vec<DdlSpan>,
    failovers: Vec<chart::FailoverMark>,
    finished: Vec<LogEntry>,
    notes: Vec<LogEntry>,
    /// The statements the scenario's own script would have run, in order.
    script: Vec<String>,
    /// Achieved speed: wall ms and virtual ns accumulated since the window started.
    window_wall_ms: f64,
    window_virtual_ns: u64,
    actual_speed: f64,
}

impl Runner {
    /// The built-in `scenario` on `profile`, at virtual time zero. The scenario's own
    /// script is dropped: on this page the user is the script (its statements are
    /// offered in the console, see [`Runner::script`]).
    pub fn new(scenario: &str, profile: &str, generation: u32) -> Result<Runner, String> {
        Runner::from_scenario(Scenario::builtin(scenario)?, profile, generation)
    }

    /// Like [`Runner::new`], from a scenario already read.
    pub fn from_scenario(
        mut scenario: Scenario,
        profile: &str,
        generation: u32,
    ) -> Result<Runner, String> {
        let script = scenario
            .script
            .drain(..)
            .map(|s| s.sql)
            .filter(|sql| !sql.is_empty())
            .collect();
        let sim = Sim::new(scenario, Profile::builtin(profile)?)?;
        Ok(Runner {
            sim,
            generation,
            playing: true,
            speed: 1.0,
            cursor: 0,
            scans: Vec::new(),
            flush_walks: Vec::new(),
            flush_walk_count: Vec::new(),
            latch_spans: Vec::new(),
            ddl: Vec::new(),
            failovers: Vec::new(),
            finished: Vec::new(),
            notes: Vec::new(),
            script,
            window_wall_ms: 0.0,
            window_virtual_ns: 0,
            actual_speed: 0.0,
        })
    }

    /// Replaces the simulation with a fresh one of `scenario` on `profile`, keeping the
    /// clock settings.
    pub fn restart(
        &mut self,
        scenario: &str,
        profile: &str,
        generation: u32,
    ) -> Result<(), String> {
        let (playing, speed) = (self.playing, self.speed);
        *self = Runner::new(scenario, profile, generation)?;
        self.playing = playing;
        self.speed = speed;
        Ok(())
    }

    /// The simulation.
    pub fn sim(&self) -> &Sim {
        &self.sim
    }
    /// Which restart this is; news carries it so the reducer can drop stale news.
    pub fn generation(&self) -> u32 {
        self.generation
    }
    /// The profile's name.
    pub fn profile(&self) -> &str {
        &self.sim.profile().name
    }
    /// The scenario's name.
    pub fn scenario(&self) -> &str {
        &self.sim.scenario().name
    }
    /// The statements of the scenario's script (which this page does not run itself).
    pub fn script(&self) -> &[String] {
        &self.script
    }
    /// Scans known so far that have not ended before now.
    pub fn flush_walks(&self) -> (&[ScanSpan], &[u64]) {
        (&self.flush_walks, &self.flush_walk_count)
    }

    /// Finished latch holds by DDL and background threads, last minute.
    pub fn latch_spans(&self) -> &[LatchSpan] {
        &self.latch_spans
    }

    /// Scans not over yet.
    pub fn scans(&self) -> &[ScanSpan] {
        &self.scans
    }
    /// The console statements' spans.
    pub fn ddl_spans(&self) -> &[DdlSpan] {
        &self.ddl
    }
    /// The HA probe's failovers, for the charts' bands.
    pub fn failovers(&self) -> &[chart::FailoverMark] {
        &self.failovers
    }

    /// Sets play/pause and the speed factor.
    pub fn set_clock(&mut self, playing: bool, speed: f64) {
        if playing != self.playing || speed != self.speed {
            self.window_wall_ms = 0.0;
            self.window_virtual_ns = 0;
        }
        self.playing = playing;
        self.speed = speed;
        if !playing {
            self.actual_speed = 0.0;
        }
    }

    /// Runs `sql` on the console session. Returns how many statements were accepted
    /// (a batch may hold several), or the error the mysql client would print.
    pub fn execute(&mut self, sql: &str) -> Result<u32, String> {
        // The console session runs the statements one after the other; a syntax error
        // comes back at once, a statement's own error when it runs.
        let statements = ddlscope_engine::sql::parse(sql).map_err(|e| e.to_string())?;
        self.sim.execute(sql).map_err(|e| e.to_string())?;
        Ok(statements.len() as u32)
    }

    /// Advances the virtual clock by `dt_ms` of wall time × speed, in slices, until done
    /// or until `clock()` says the frame's budget is spent. Returns the virtual time run.
    pub fn advance(&mut self, dt_ms: f64, clock: &dyn Fn() -> f64) -> Tick {
        if !self.playing {
            return Tick::ZERO;
        }
        let started_ms = clock();
        let want = Tick((dt_ms * self.speed * 1e6) as u64);
        let mut done = Tick::ZERO;
        while done < want {
            let step = (want - done).min(STEP_SLICE);
            self.sim.run_for(step);
            done += step;
            if clock() - started_ms > STEP_BUDGET_MS {
                break;
            }
        }
        self.window_wall_ms += dt_ms;
        self.window_virtual_ns += done.as_ns();
        if self.window_wall_ms >= SPEED_WINDOW_MS {
            let actual = self.window_virtual_ns as f64 / 1e6 / self.window_wall_ms;
            self.actual_speed = (actual * 100.0).round() / 100.0;
            self.window_wall_ms = 0.0;
            self.window_virtual_ns = 0;
        }
        done
    }

    /// Reads the events that arrived since the last call: keeps scans that are not over,
    /// opens and closes the console statements' spans, and queues finished statements
    /// for [`Runner::take_finished`].
    pub fn digest(&mut self) {
        let now = self.sim.now();
        let console = self.sim.console_session();
        for e in &self.sim.events()[self.cursor..] {
            match &e.kind {
                EventKind::Scan {
                    list: ListKind::Flush,
                    instance,
                    space,
                    latch,
                    from,
                    to,
                    t0,
                    t1,
                    ..
                } => {
                    let i = usize::from(*instance);
                    if self.flush_walk_count.len() <= i {
                        self.flush_walk_count.resize(i + 1, 0);
                    }
                    self.flush_walk_count[i] += 1;
                    self.flush_walks.push(ScanSpan {
                        instance: *instance,
                        space: *space,
                        latch: *latch,
                        from: *from,
                        to: *to,
                        t0: *t0,
                        t1: *t1,
                    });
                }
                EventKind::Scan {
                    instance,
                    space,
                    latch,
                    from,
                    to,
                    t0,
                    t1,
                    ..
                } => self.scans.push(ScanSpan {
                    instance: *instance,
                    space: *space,
                    latch: *latch,
                    from: *from,
                    to: *to,
                    t0: *t0,
                    t1: *t1,
                }),
                EventKind::LatchHeld {
                    latch,
                    thread,
                    t0,
                    t1,
                    waiters,
                } => self.latch_spans.push(LatchSpan {
                    latch: *latch,
                    thread: *thread,
                    t0: *t0,
                    t1: *t1,
                    waiters: *waiters,
                }),
                EventKind::StatementStarted { session, sql } if *session == console => {
                    self.ddl.push(DdlSpan {
                        sql: sql.clone(),
                        t0: e.at,
                        t1: None,
                    })
                }
                EventKind::StatementFinished {
                    session,
                    sql,
                    result,
                    error,
                    ..
                } if *session == console => {
                    if let Some(span) = self
                        .ddl
                        .iter_mut()
                        .find(|s| s.t1.is_none() && s.sql == *sql)
                    {
                        span.t1 = Some(e.at);
                    }
                    self.finished.push(LogEntry {
                        at: e.at,
                        sql: sql.clone(),
                        result: result.clone(),
                        error: *error,
                        note: false,
                    });
                }
                kind => {
                    if let EventKind::Failover { stalled_for } = kind {
                        self.failovers.push(chart::FailoverMark {
                            stalled_from: e.at.saturating_sub(*stalled_for),
                            at: e.at,
                        });
                    }
                    self.notes.extend(note_for(e.at, kind));
                }
            }
        }
        self.cursor = self.sim.events().len();
        self.scans.retain(|s| s.t1 >= now);
        self.flush_walks.retain(|s| s.t1 >= now);
        let horizon = now.saturating_sub(crate::latch_lanes::WINDOW);
        self.latch_spans.retain(|s| s.t1 >= horizon);
    }

    /// Statements that finished since the last call.
    pub fn take_finished(&mut self) -> Vec<LogEntry> {
        std::mem::take(&mut self.finished)
    }

    /// Notes for the log (failover, AHI cleanup) since the last call.
    pub fn take_notes(&mut self) -> Vec<LogEntry> {
        std::mem::take(&mut self.notes)
    }

    /// The figures Yew shows, read from the pool now.
    pub fn snapshot(&self) -> Snapshot {
        let pool = self.sim.pool();
        let last: Option<&Sample> = self.sim.samples().last();
        Snapshot {
            now: self.sim.now(),
            pages_total: pool.pages_total(),
            pages_data: pool.pages_data(),
            pages_free: pool.pages_free(),
            pages_stale: pool.pages_stale(),
            pages_dirty: pool.pages_dirty(),
            pages_misc: pool.pages_misc(),
            wait_free: last.map_or(0, |s| s.wait_free),
            qps: last.map_or(0, |s| s.qps),
            latency_p95_ms: last.map_or(0.0, |s| s.latency_p95_ms),
            threads_running: self.sim.threads_running(),
            dict_sys_held: self.sim.latch(LatchId::DictSys).holder().is_some(),
            actual_speed: if self.playing { self.actual_speed } else { 0.0 },
            tables: self
                .sim
                .tables()
                .iter()
                .map(|t| TableInfo {
                    name: t.name.clone(),
                    space: t.space,
                    dropped: t.dropped,
                })
                .collect(),
            flush_walks: self.flush_walk_count.iter().sum(),
        }
    }
}

/// What the chart was last drawn from; a change means redraw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ChartKey {
    generation: u32,
    samples: usize,
    spans: usize,
    open_spans: usize,
    failovers: usize,
    sizes: [(u32, u32); 3],
    dark: bool,
}

/// What the map was last drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MapKey {
    generation: u32,
    now: Tick,
    size: (u32, u32),
    dark: bool,
}

/// The canvases the loop draws into.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Canvases {
    /// The buffer-pool map.
    pub map: NodeRef,
    /// The charts.
    pub charts: chart::ChartCanvases,
    /// The latch lanes.
    pub latches: NodeRef,
    /// The flush lists.
    pub flush: NodeRef,
}

/// What the latch lanes were last drawn for: generation, virtual time, size, theme.
type LatchKey = (u32, Tick, (u32, u32), bool);

/// The closure `requestAnimationFrame` calls.
type FrameClosure = Closure<dyn FnMut(f64)>;

/// The state the frame closure keeps between frames.
struct LoopInner {
    runner: Rc<RefCell<Runner>>,
    canvases: Canvases,
    on_news: Callback<(u32, News)>,
    closure: RefCell<Option<FrameClosure>>,
    frame_id: Cell<Option<i32>>,
    stopped: Cell<bool>,
    last_ms: Cell<Option<f64>>,
    last_report_ms: Cell<f64>,
    ready: Cell<bool>,
    scratch: RefCell<MapScratch>,
    map_key: Cell<Option<MapKey>>,
    chart_key: Cell<Option<ChartKey>>,
    latch_key: Cell<Option<LatchKey>>,
    flush_key: Cell<Option<LatchKey>>,
    flush_cells: RefCell<Vec<ddlscope_engine::Cell>>,
    dark_query: Option<web_sys::MediaQueryList>,
}

/// The running animation loop; dropping it stops the loop.
pub struct FrameLoop {
    inner: Rc<LoopInner>,
}

impl std::fmt::Debug for FrameLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameLoop")
            .field("stopped", &self.inner.stopped.get())
            .finish_non_exhaustive()
    }
}

impl FrameLoop {
    /// Starts animating `runner` into `canvases`, telling `on_news` what Yew should
    /// show, stamped with the runner's generation.
    pub fn start(
        runner: Rc<RefCell<Runner>>,
        canvases: Canvases,
        on_news: Callback<(u32, News)>,
    ) -> FrameLoop {
        let dark_query = gloo::utils::window()
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten();
        let inner = Rc::new(LoopInner {
            runner,
            canvases,
            on_news,
            closure: RefCell::new(None),
            frame_id: Cell::new(None),
            stopped: Cell::new(false),
            last_ms: Cell::new(None),
            last_report_ms: Cell::new(f64::NEG_INFINITY),
            ready: Cell::new(false),
            scratch: RefCell::new(MapScratch::default()),
            map_key: Cell::new(None),
            chart_key: Cell::new(None),
            latch_key: Cell::new(None),
            flush_key: Cell::new(None),
            flush_cells: RefCell::new(Vec::new()),
            dark_query,
        });
        // The closure holds the loop state and the state holds the closure: the cycle
        // keeps both alive while the loop runs, and `Drop` breaks it.
        let weak = Rc::downgrade(&inner);
        let closure = Closure::<dyn FnMut(f64)>::new(move |_timestamp: f64| {
            if let Some(inner) = weak.upgrade() {
                inner.frame();
            }
        });
        *inner.closure.borrow_mut() = Some(closure);
        inner.arm();
        FrameLoop { inner }
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        self.inner.stopped.set(true);
        if let Some(id) = self.inner.frame_id.take() {
            let _ = gloo::utils::window().cancel_animation_frame(id);
        }
        self.inner.closure.borrow_mut().take();
    }
}

fn performance_now() -> f64 {
    gloo::utils::window().performance().map_or(0.0, |p| p.now())
}

impl LoopInner {
    /// Asks for the next frame.
    fn arm(&self) {
        if self.stopped.get() {
            return;
        }
        if let Some(closure) = self.closure.borrow().as_ref() {
            let id = gloo::utils::window()
                .request_animation_frame(closure.as_ref().unchecked_ref())
                .expect("requestAnimationFrame is available");
            self.frame_id.set(Some(id));
        }
    }

    fn theme(&self) -> Theme {
        Theme::for_scheme(self.dark_query.as_ref().is_some_and(|q| q.matches()))
    }

    /// One animation frame.
    fn frame(&self) {
        self.frame_id.set(None);
        if self.stopped.get() {
            return;
        }
        let now_ms = performance_now();
        let dt_ms = self
            .last_ms
            .replace(Some(now_ms))
            .map_or(0.0, |last| (now_ms - last).clamp(0.0, MAX_DT_MS));
        let theme = self.theme();
        let dpr = gloo::utils::window().device_pixel_ratio().max(1.0);
        let mut news = Vec::new();
        let mut drew_map = false;
        let generation = {
            let mut runner = self.runner.borrow_mut();
            runner.advance(dt_ms, &performance_now);
            runner.digest();
            let generation = runner.generation();
            if let Some(canvas) = self.canvases.map.cast::<HtmlCanvasElement>() {
                let size = pool_map::fit_canvas(&canvas, runner.sim().pool().n_instances(), dpr);
                let key = MapKey {
                    generation,
                    now: runner.sim().now(),
                    size,
                    dark: theme.dark,
                };
                if self.map_key.get() != Some(key) && size.0 > 0 {
                    let mut scratch = self.scratch.borrow_mut();
                    pool_map::draw(
                        &canvas,
                        runner.sim(),
                        runner.scans(),
                        &theme,
                        dpr,
                        &mut scratch,
                    );
                    self.map_key.set(Some(key));
                }
                drew_map = self.map_key.get().is_some();
            }
            if let Some(canvas) = self.canvases.flush.cast::<HtmlCanvasElement>() {
                let sim = runner.sim();
                let size = flush_list::fit_canvas(&canvas, sim.pool().n_instances(), dpr);
                let key = (generation, sim.now(), size, theme.dark);
                if self.flush_key.get() != Some(key) && size.0 > 0 {
                    let (walks, counts) = runner.flush_walks();
                    let mut cells = self.flush_cells.borrow_mut();
                    if let Err(e) =
                        flush_list::draw(&canvas, sim, walks, counts, &theme, dpr, &mut cells)
                    {
                        gloo::console::error!(format!("flush list: {e}"));
                    }
                    self.flush_key.set(Some(key));
                }
            }
            if let Some(canvas) = self.canvases.latches.cast::<HtmlCanvasElement>() {
                let sim = runner.sim();
                let size = latch_lanes::fit_canvas(&canvas, latch_lanes::lanes(sim).len(), dpr);
                let key = (generation, sim.now(), size, theme.dark);
                if self.latch_key.get() != Some(key) && size.0 > 0 {
                    if let Err(e) =
                        latch_lanes::draw(&canvas, sim, runner.latch_spans(), &theme, dpr)
                    {
                        gloo::console::error!(format!("latch lanes: {e}"));
                    }
                    self.latch_key.set(Some(key));
                }
            }
            let spans = runner.ddl_spans();
            let key = ChartKey {
                generation,
                samples: runner.sim().samples().len(),
                spans: spans.len(),
                open_spans: spans.iter().filter(|s| s.t1.is_none()).count(),
                failovers: runner.failovers().len(),
                sizes: self.canvases.charts.fit(dpr),
                dark: theme.dark,
            };
            // The charts plot the samples: they change together, once a virtual second
            // (or when a statement starts or ends, or the page is resized).
            if self.chart_key.get() != Some(key) {
                let sim = runner.sim();
                let input = chart::Input {
                    samples: sim.samples(),
                    spans,
                    failovers: runner.failovers(),
                    now: sim.now(),
                    pages_total: sim.pool().pages_total(),
                };
                self.canvases.charts.draw(&input, &theme, dpr);
                self.chart_key.set(Some(key));
            }
            for entry in runner.take_notes() {
                news.push(News::Note(entry));
            }
            for entry in runner.take_finished() {
                news.push(News::Finished(entry));
            }
            if !news.is_empty() || now_ms - self.last_report_ms.get() >= REPORT_EVERY_MS {
                self.last_report_ms.set(now_ms);
                news.push(News::Snapshot(runner.snapshot()));
            }
            generation
        };
        if drew_map && !self.ready.replace(true) {
            if let Some(body) = gloo::utils::document().body() {
                let _ = body.dataset().set("ready", "1");
            }
        }
        // The runner is no longer borrowed: the reducer and any re-render may use it.
        for n in news {
            self.on_news.emit((generation, n));
        }
        self.arm();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(to: u32) -> ScanSpan {
        ScanSpan {
            instance: 1,
            space: SpaceId(1),
            latch: LatchId::BufPool(1),
            from: 0,
            to,
            t0: Tick::from_ms(100),
            t1: Tick::from_ms(100) + Tick(500).times(u64::from(to)),
        }
    }

    #[test]
    fn the_scan_cursor_sweeps_from_the_tail_to_the_head() {
        let s = scan(1000);
        assert_eq!(s.unvisited(Tick::from_ms(100)), 1000, "starts at the tail");
        assert_eq!(
            s.unvisited(Tick::from_ms(100) + Tick::from_us(250)),
            500,
            "halfway"
        );
        assert_eq!(s.unvisited(s.t1), 0, "ends at the head");
        assert_eq!(s.unvisited(s.t1 + Tick::SECOND), 0);
        assert_eq!(s.visited(Tick::ZERO), 0, "before it starts");
        assert_eq!(s.visited(Tick::from_ms(100) + Tick::from_us(100)), 200);
        assert!(s.active(s.t0) && s.active(s.t1) && !s.active(s.t1 + Tick(1)));
    }

    #[test]
    fn a_drop_on_57_shows_scans_a_span_and_a_log_line() {
        let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
        r.advance(100.0, &|| 0.0);
        assert_eq!(r.sim().now(), Tick::from_ms(100));
        assert_eq!(r.execute("DROP TABLE t1"), Ok(1));
        let free_before = r.snapshot().pages_free;
        // Run into the first instance's scan (after dict_sys and the per-extent walk).
        for _ in 0..1000 {
            r.advance(1.0, &|| 0.0);
            r.digest();
            if !r.scans().is_empty() {
                break;
            }
        }
        assert_eq!(r.scans().len(), 1, "{:?}", r.scans());
        assert!(r.scans()[0].active(r.sim().now()));
        assert_eq!(r.ddl_spans().len(), 1);
        assert_eq!(r.ddl_spans()[0].t1, None);
        for _ in 0..10 {
            r.advance(100.0, &|| 0.0);
        }
        r.digest();
        assert!(r.scans().is_empty(), "the scans are over: {:?}", r.scans());
        assert!(r.ddl_spans()[0].t1.is_some());
        let done = r.take_finished();
        assert_eq!(done.len(), 1);
        assert!(done[0].result.starts_with("Query OK"), "{done:?}");
        assert!(r.take_finished().is_empty(), "taken once");
        let snap = r.snapshot();
        assert!(
            snap.pages_free > free_before + 50_000,
            "{free_before} -> {}",
            snap.pages_free
        );
        assert!(snap.tables.iter().any(|t| t.name == "t1" && t.dropped));
    }

    #[test]
    fn an_unknown_table_is_an_error_when_the_statement_runs() {
        let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-8.0.23", 0).unwrap();
        assert_eq!(
            r.execute("DROP TABLEX nope"),
            Err("ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'TABLEX nope' at line 1".to_string())
        );
        assert_eq!(r.execute("DROP TABLE nope"), Ok(1));
        r.advance(10.0, &|| 0.0);
        r.digest();
        let done = r.take_finished();
        assert_eq!(done.len(), 1, "{done:?}");
        assert!(done[0].error);
        assert_eq!(
            done[0].result,
            "ERROR 1051 (42S02): Unknown table 'test.nope'"
        );
    }

    #[test]
    fn a_paused_runner_does_not_move_and_the_budget_stops_a_slow_frame() {
        let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
        r.set_clock(false, 1.0);
        assert_eq!(r.advance(50.0, &|| 0.0), Tick::ZERO);
        r.set_clock(true, 10.0);
        // A clock that says each slice took 20 ms: one slice, then stop.
        let t = Cell::new(0.0);
        let clock = || {
            t.set(t.get() + 20.0);
            t.get()
        };
        assert_eq!(r.advance(100.0, &clock), STEP_SLICE);
    }

    #[test]
    fn a_scenario_runs_on_the_profile_asked_for_without_its_script() {
        let mut r = Runner::new("i3-ext3-drop", "mysql-5.1", 0).unwrap();
        assert_eq!(r.scenario(), "i3-ext3-drop");
        assert_eq!(r.profile(), "mysql-5.1");
        assert_eq!(r.script(), ["DROP TABLE big".to_string()]);
        assert!(
            r.sim().scenario().script.is_empty(),
            "the user is the script"
        );
        r.restart("i3-ext3-drop", "mysql-5.7", 1).unwrap();
        assert_eq!(
            (r.scenario(), r.profile(), r.generation()),
            ("i3-ext3-drop", "mysql-5.7", 1)
        );
        // Nothing runs by itself: 20 virtual seconds later big is still there.
        for _ in 0..200 {
            r.advance(100.0, &|| 0.0);
        }
        r.digest();
        assert!(r.ddl_spans().is_empty());
        assert!(r
            .snapshot()
            .tables
            .iter()
            .any(|t| t.name == "big" && !t.dropped));
        assert!(Runner::new("no-such-scenario", "mysql-5.7", 0).is_err());
    }

    #[test]
    fn only_the_incidents_with_pools_of_tens_of_gb_are_heavy() {
        // I1's 128 GB pool, and I5's 36 GB (a 48 GB server's).
        let heavy = [
            "i1-ahi-drop",
            "i5-compressed-partition-drop",
            "i5-truncate-then-drop",
        ];
        for (name, _) in ddlscope_engine::builtin::SCENARIOS {
            let s = Scenario::builtin(name).unwrap();
            assert_eq!(is_heavy(&s), heavy.contains(name), "{name}");
        }
    }

    #[test]
    fn a_failover_and_the_ahi_cleanup_become_log_notes() {
        let note = note_for(
            Tick::from_secs(45),
            &EventKind::Failover {
                stalled_for: Tick::from_secs(30),
            },
        )
        .unwrap();
        assert!(note.note && !note.error);
        assert_eq!(note.sql, "HA probe: failover after 30 s of stalled writes");
        let done = note_for(
            Tick::from_secs(160),
            &EventKind::AhiCleanupDone {
                space: SpaceId(1),
                t0: Tick::from_secs(10),
                t1: Tick::from_secs(160),
                hashed_pages: 1_200_000,
                records: 90_000_000,
            },
        )
        .unwrap();
        assert_eq!(
            done.sql,
            "AHI cleanup of space 1: done in 150.000 s, 1,200,000 hashed pages, 90,000,000 records"
        );

        // And from a real run: the demo with the AHI on, dropped on 5.7.
        let mut scenario = Scenario::builtin(DEFAULT_SCENARIO).unwrap();
        scenario.innodb.adaptive_hash_index = true;
        let mut r = Runner::from_scenario(scenario, "mysql-5.7", 0).unwrap();
        r.advance(100.0, &|| 0.0);
        r.execute("DROP TABLE t1").unwrap();
        for _ in 0..30 {
            r.advance(100.0, &|| 0.0);
        }
        r.digest();
        let notes = r.take_notes();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[0].sql.starts_with("AHI cleanup of space ") && notes[0].sql.contains("started"),
            "{notes:?}"
        );
        assert!(notes[0].sql.contains("holding dict_sys"), "{notes:?}");
        assert!(notes[1].sql.contains(": done in "), "{notes:?}");
        assert!(r.take_notes().is_empty(), "taken once");
        assert_eq!(r.take_finished().len(), 1, "the DROP itself is not a note");
    }
}
