//! The simulation driver: a [`Runner`] owns one [`Sim`], the timed list of what the
//! user did to it, and what the views need from its event stream.
//!
//! ```text
//!   user ──▶ connect() / submit() ──▶ Input { at, Connect | Submit } ──▶ Sim
//!                                        │ recorded: scenario + profile + seed +
//!                                        ▼ inputs = the whole run
//!   advance(dt) / run_to(t) ─▶ Sim::run_until, in slices, applying each input at its tick
//!                           └─▶ a checkpoint (a clone of the Sim) every few virtual s
//!   seek(t) ─▶ the last checkpoint at or before t (or a fresh Sim), replay the inputs
//!              up to t: the same state at the same tick, whatever the path there
//!   digest() ─▶ scans, latch holds, statement spans, the console's log
//! ```
//!
//! Seeking back keeps the inputs after the new time: playing on replays them, so a
//! scrub back and forth lands on the same state. Typing a statement in the past drops
//! the inputs after it (a new branch of history), like editing a recording.
//!
//! The [`Sim`] lives in an `Rc<RefCell<…>>` next to Yew (see `canvas::frame`), never
//! in Yew's render state: it holds a quarter of a million page descriptors, and a
//! re-render must not clone or compare it. Yew sees only small [`Snapshot`]s of it.

use super::knobs::Knobs;
use super::mdl::mdl_view;
use super::processlist::proc_rows;
use super::snapshot::{note_for, table_infos, ConsoleSession, LogEntry, Snapshot};
use super::spans::{DdlSpan, FailoverMark, LatchSpan, ScanSpan, LATCH_WINDOW};
use super::timeline_marks::{self, Mark};
use ddlscope_engine::{
    parse_sql, EventKind, LatchId, ListKind, Profile, Sample, Scenario, SessionView, Sim, SimBuild,
    Tick, WarmUp,
};
use std::collections::BTreeSet;

/// The scenario and the engine profile the page starts with (a link's defaults too).
pub use ddlscope_moment::{DEFAULT_PROFILE, DEFAULT_SCENARIO};
/// A buffer pool at least this large takes the engine noticeably long to build and
/// warm up (i1-ahi-drop's 128 GB pool is 8.4 M pages): the page warns about it and
/// defers the construction so that a "building…" state is painted first.
pub const HEAVY_POOL_BYTES: u64 = 32 << 30;

/// Whether building `scenario` blocks the page for a noticeable time.
pub fn is_heavy(scenario: &Scenario) -> bool {
    scenario.buffer_pool.size.0 >= HEAVY_POOL_BYTES
}

/// Wall time a frame may spend stepping the engines.
pub const STEP_BUDGET_MS: f64 = 10.0;
/// Virtual time per `run_for` call inside a frame, so the budget is checked often.
const STEP_SLICE: Tick = Tick::from_ms(5);
/// The window over which the achieved speed is measured.
const SPEED_WINDOW_MS: f64 = 1000.0;
/// Virtual time between checkpoints at first; doubled each time the checkpoints
/// outgrow [`CHECKPOINT_BUDGET_BYTES`].
const CHECKPOINT_EVERY: Tick = Tick::from_secs(5);
/// Memory the checkpoints of one runner may take, estimated from the pool's size. A
/// simulation bigger than this (a 128 GB pool) takes none: a seek back replays from
/// the start.
const CHECKPOINT_BUDGET_BYTES: u64 = 256 << 20;
/// Statements and notes the console's log keeps.
pub const LOG_KEEP: usize = 400;
/// Marks the scrubber keeps: the newest (a day with a DDL every ten minutes makes
/// about 2,000).
pub const MARKS_KEEP: usize = 4096;
/// Finished console statements' spans the charts keep (open ones are all kept).
pub const SPANS_KEEP: usize = 400;
/// How far [`Runner::step_event`] runs looking for the next mark.
const MARK_HORIZON: Tick = Tick::from_secs(10);

/// What the user did to the simulation, at a virtual time. With the scenario, the
/// profile and the seed, the list of inputs is the whole run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Input {
    /// When.
    pub at: Tick,
    /// What.
    pub kind: InputKind,
}

/// One input.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum InputKind {
    /// A new console session.
    Connect,
    /// Statements given to a console session.
    Submit {
        /// The session.
        session: u32,
        /// The text (one or more statements).
        sql: String,
    },
}

/// An input typed in the past: the recorded inputs after it were dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Branch {
    /// Where history branched.
    pub at: Tick,
    /// How many recorded inputs were dropped.
    pub dropped: usize,
}

/// A copy of the simulation at a virtual time, to seek from.
#[derive(Clone, Debug)]
struct Checkpoint {
    /// Inputs applied when it was taken.
    applied: usize,
    sim: Sim,
}

/// The simulation and what the views need from its event stream.
#[derive(Debug)]
pub struct Runner {
    sim: Sim,
    /// The pool's warm-up still to run (a server built a slice a frame, see
    /// [`Runner::work`]): the server can be shown meanwhile, not run.
    warm_up: Option<WarmUp>,
    /// A virtual time the simulation is on its way to (a seek, a link, a lesson step),
    /// run a slice a frame by [`Runner::work`] with the clock held.
    catch_up: Option<Tick>,
    /// Where that run started, for its progress.
    catch_up_from: Tick,
    /// A step forward under way (the step control), run a slice a frame.
    stepping: Option<busy::Stepping>,
    /// The scenario as built (knobs applied, script taken out) and the profile: a
    /// fresh simulation for a seek to the start.
    scenario: Scenario,
    profile: Profile,
    knobs: Knobs,
    /// The scenario as a link carried it, when it is not built in (an Advisor
    /// playbook's run, `ddlscope_moment::own`): a restart or a compare engine
    /// builds from it again, and a link of this page carries it on.
    own: Option<Box<Scenario>>,
    generation: u32,
    playing: bool,
    speed: f64,
    /// Everything the user did, in time order.
    inputs: Vec<Input>,
    /// How many of `inputs` the simulation has had.
    applied: usize,
    checkpoints: Vec<Checkpoint>,
    checkpoint_every: Tick,
    /// Whether it takes checkpoints: a copy run on ahead (`runner/fork.rs`) takes
    /// none, and the original's when it takes its place.
    checkpointing: bool,
    /// The furthest virtual time reached.
    horizon: Tick,
    /// Events already digested.
    cursor: u64,
    /// Statements, lock waits and DDL phases seen so far, in time order (kept across
    /// seeks: the run replays the same way), for the scrubber and step/back.
    marks: Vec<Mark>,
    scans: Vec<ScanSpan>,
    /// Flush-list walks not over yet, and every instance's walks so far.
    flush_walks: Vec<ScanSpan>,
    flush_walk_count: Vec<u64>,
    latch_spans: Vec<LatchSpan>,
    ddl: Vec<DdlSpan>,
    /// The HA probe's failovers, for the charts' bands.
    failovers: Vec<FailoverMark>,
    /// The console's log: finished statements of every console session and notes.
    log: Vec<LogEntry>,
    /// Statements refused when typed (a syntax error): kept apart from the events'
    /// log, so that a seek keeps the ones typed before the new time.
    rejected: Vec<LogEntry>,
    log_version: u64,
    /// Seeks so far: a view keeping state from earlier frames starts afresh on a new
    /// one.
    seeks: u64,
    /// Where typing in the past dropped the recorded future, oldest first.
    branches: Vec<Tick>,
    /// The last such branch, until the page has said so.
    last_branch: Option<Branch>,
    /// The statements of the scenario's own script, in order.
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
        Runner::with_knobs(scenario, None, profile, &Knobs::default(), generation)
    }

    /// Like [`Runner::new`], with the toolbar's server settings applied.
    pub fn with_knobs(
        scenario: &str,
        own: Option<&Scenario>,
        profile: &str,
        knobs: &Knobs,
        generation: u32,
    ) -> Result<Runner, String> {
        let mut runner = Runner::starting(scenario, own, profile, knobs, generation)?;
        runner.settle();
        Ok(runner)
    }

    /// Like [`Runner::with_knobs`], its pool not warmed yet: [`Runner::work`] warms
    /// it a slice a frame (a 128 GB pool takes seconds), the page showing it fill.
    /// `scenario` names a built-in scenario, or `own` (see [`Runner::own`]).
    pub fn starting(
        scenario: &str,
        own: Option<&Scenario>,
        profile: &str,
        knobs: &Knobs,
        generation: u32,
    ) -> Result<Runner, String> {
        let mut s = ddlscope_moment::own::scenario_of(scenario, own)?;
        knobs.apply(&mut s);
        let mut runner = Runner::prepare(s, profile, generation, knobs.runs_script())?;
        runner.knobs = knobs.clone();
        runner.own = own.map(|o| Box::new(o.clone()));
        Ok(runner)
    }

    /// Like [`Runner::new`], from a scenario already read.
    pub fn from_scenario(
        scenario: Scenario,
        profile: &str,
        generation: u32,
    ) -> Result<Runner, String> {
        let mut runner = Runner::prepare(scenario, profile, generation, false)?;
        runner.settle();
        Ok(runner)
    }

    /// The runner of `scenario` on `profile`; with `run_script` the simulation runs the
    /// scenario's own timed statements (a link, an embed), otherwise they are only
    /// offered in the console (the sandbox).
    fn prepare(
        mut scenario: Scenario,
        profile: &str,
        generation: u32,
        run_script: bool,
    ) -> Result<Runner, String> {
        let script = scenario
            .script
            .iter()
            .map(|s| s.sql.clone())
            .filter(|sql| !sql.is_empty())
            .collect();
        if !run_script {
            scenario.script.clear();
        }
        Runner::build(scenario, profile, generation, script)
    }

    /// A lesson's server: `scenario` as the lesson set it up (settings and seed
    /// applied; its own script still in it when the lesson runs it), remembered as
    /// running with `knobs`; its pool not warmed yet (see [`Runner::starting`]).
    pub fn for_lesson(
        scenario: Scenario,
        profile: &str,
        knobs: Knobs,
        generation: u32,
    ) -> Result<Runner, String> {
        let mut runner = Runner::build(scenario, profile, generation, Vec::new())?;
        runner.knobs = knobs;
        Ok(runner)
    }

    fn build(
        scenario: Scenario,
        profile: &str,
        generation: u32,
        script: Vec<String>,
    ) -> Result<Runner, String> {
        let profile = Profile::builtin(profile)?;
        let (sim, warm_up) = SimBuild::new(scenario.clone(), profile.clone())?.into_parts();
        Ok(Runner {
            sim,
            warm_up: Some(warm_up),
            catch_up: None,
            catch_up_from: Tick::ZERO,
            stepping: None,
            scenario,
            profile,
            knobs: Knobs::default(),
            own: None,
            generation,
            playing: true,
            speed: 1.0,
            inputs: Vec::new(),
            applied: 0,
            checkpoints: Vec::new(),
            checkpoint_every: CHECKPOINT_EVERY,
            checkpointing: true,
            horizon: Tick::ZERO,
            cursor: 0,
            marks: Vec::new(),
            scans: Vec::new(),
            flush_walks: Vec::new(),
            flush_walk_count: Vec::new(),
            latch_spans: Vec::new(),
            ddl: Vec::new(),
            failovers: Vec::new(),
            log: Vec::new(),
            rejected: Vec::new(),
            log_version: 0,
            seeks: 0,
            branches: Vec::new(),
            last_branch: None,
            script,
            window_wall_ms: 0.0,
            window_virtual_ns: 0,
            actual_speed: 0.0,
        })
    }

    /// The simulation.
    pub fn sim(&self) -> &Sim {
        &self.sim
    }
    /// Which restart this is; news carries it so the reducer can drop stale news.
    pub fn generation(&self) -> u32 {
        self.generation
    }
    /// Takes generation `g` while keeping this simulation (a restart that failed).
    pub fn adopt_generation(&mut self, g: u32) {
        self.generation = g;
    }
    /// The profile's name.
    pub fn profile(&self) -> &str {
        &self.sim.profile().name
    }
    /// The server settings applied on top of the scenario.
    pub fn knobs(&self) -> &Knobs {
        &self.knobs
    }
    /// The scenario's name.
    pub fn scenario(&self) -> &str {
        &self.sim.scenario().name
    }
    /// The scenario as its link carried it, when it is not built in.
    pub fn own(&self) -> Option<&Scenario> {
        self.own.as_deref()
    }
    /// The statements of the scenario's script (which this page does not run itself).
    pub fn script(&self) -> &[String] {
        &self.script
    }
    /// Flush-list walks not over yet, and every instance's count of walks so far.
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
    pub fn failovers(&self) -> &[FailoverMark] {
        &self.failovers
    }
    /// What the user did so far, in time order.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }
    /// Where typing in the past dropped the recorded future, oldest first.
    pub fn branches(&self) -> &[Tick] {
        &self.branches
    }
    /// The last branch of history not yet reported, taken (the page says so once).
    pub fn take_branch(&mut self) -> Option<Branch> {
        self.last_branch.take()
    }

    /// Puts `inputs` (from a link, or from the engine this one replaces) on this
    /// fresh runner and runs to `t`: the inputs at or before `t` are applied at
    /// their ticks, the later ones wait for the clock, as after a seek back.
    pub fn restore(&mut self, inputs: Vec<Input>, branches: Vec<Tick>, t: Tick) {
        self.horizon = inputs.last().map_or(t, |i| i.at.max(t));
        self.inputs = inputs;
        self.branches = branches;
        self.go_to(t);
    }

    /// Adds inputs recorded for later than now: they apply when the clock gets there.
    pub fn append_future(&mut self, later: Vec<Input>) {
        let now = self.sim.now();
        self.inputs.extend(later.into_iter().filter(|i| i.at > now));
        let last = self.inputs.last().map_or(now, |i| i.at);
        self.horizon = self.horizon.max(last);
    }

    /// Takes the main engine's `inputs` as this engine's own (a compare engine
    /// follows the main engine's: beside it, [`Engines::submit`], or in a worker of
    /// its own, `worker/host/partner.rs`). What it applied that the main engine no
    /// longer has (history branched there), and an input stamped before this
    /// engine's time (it ran ahead of the main engine in a frame), are put right by
    /// a replay to the first input that differs: every input lands at the tick the
    /// main engine stamped it with. The checkpoints taken after it are dropped.
    pub fn adopt_inputs(&mut self, inputs: Vec<Input>) {
        let same = self
            .inputs
            .iter()
            .zip(&inputs)
            .take_while(|(a, b)| a == b)
            .count();
        if same == self.inputs.len() && same == inputs.len() {
            return;
        }
        let changed_at = [self.inputs.get(same), inputs.get(same)]
            .into_iter()
            .flatten()
            .map(|i| i.at)
            .min();
        let now = self.sim.now();
        let missed = changed_at.is_some_and(|t| t < now);
        let undo = self.applied > same || missed;
        self.checkpoints.retain(|c| c.applied <= same);
        self.inputs = inputs;
        let last = self.inputs.last().map_or(Tick::ZERO, |i| i.at);
        self.horizon = self.horizon.max(last);
        if undo {
            self.go_to(changed_at.unwrap_or(now).min(now));
        }
    }

    /// Where the engine is headed: the moment a build, a replay or a seek is on its
    /// way to, or now.
    pub fn destination(&self) -> Tick {
        self.catch_up.unwrap_or(self.sim.now())
    }

    /// The furthest virtual time reached.
    pub fn horizon(&self) -> Tick {
        self.horizon
    }
    /// The console's log, oldest first.
    pub fn log(&self) -> Vec<LogEntry> {
        let mut all: Vec<LogEntry> = self.log.iter().chain(&self.rejected).cloned().collect();
        all.sort_by_key(|e| e.at);
        let skip = all.len().saturating_sub(LOG_KEEP);
        all.drain(..skip);
        all
    }
    /// How many seeks there have been.
    pub fn seeks(&self) -> u64 {
        self.seeks
    }
    /// Bumped whenever [`Runner::log`] changes.
    pub fn log_version(&self) -> u64 {
        self.log_version
    }
    /// Whether virtual time runs, and how fast.
    pub fn clock(&self) -> (bool, f64) {
        (self.playing, self.speed)
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

    /// Opens a console session now and returns its processlist id.
    pub fn connect(&mut self) -> u32 {
        self.settle();
        let before = self.sim.console_sessions();
        self.record(InputKind::Connect)
            .expect("opening a session cannot fail");
        self.sim
            .console_sessions()
            .into_iter()
            .find(|id| !before.contains(id))
            .expect("connect adds a session")
    }

    /// Runs `sql` on the console's first session. See [`Runner::submit`].
    pub fn execute(&mut self, sql: &str) -> Result<u32, String> {
        let session = self.sim.console_session();
        self.submit(session, sql)
    }

    /// Gives `sql` (one or more `;`-separated statements) to console session
    /// `session`. Returns how many statements were accepted, or the error the mysql
    /// client would print: a syntax error comes back at once and changes nothing (it
    /// joins the log); a statement's own error arrives when it runs.
    pub fn submit(&mut self, session: u32, sql: &str) -> Result<u32, String> {
        let refuse = |runner: &mut Runner, e: String| {
            runner.rejected.push(LogEntry {
                at: runner.sim.now(),
                issued: runner.sim.now(),
                session,
                sql: sql.to_string(),
                result: e.clone(),
                error: true,
                note: false,
            });
            drop_oldest(&mut runner.rejected, LOG_KEEP);
            runner.log_version += 1;
            Err(e)
        };
        let statements = match parse_sql(sql) {
            Ok(s) => s.len() as u32,
            Err(e) => return refuse(self, e.to_string()),
        };
        if let Some(busy) = self.busy() {
            let e = format!(
                "Not sent: the server is {busy}. Send it again when it is done (↑ recalls it)."
            );
            return refuse(self, e);
        }
        if !self.sim.console_sessions().contains(&session) {
            let e = format!("ERROR 1094 (HY000): Unknown thread id: {session}");
            return refuse(self, e);
        }
        if let Err(e) = self.record(InputKind::Submit {
            session,
            sql: sql.to_string(),
        }) {
            return refuse(self, e);
        }
        Ok(statements)
    }

    /// Queues `sql` for console session `session` at virtual time `at` (now or
    /// later): a lesson's statements, sent as the clock reaches them, replayed by a
    /// seek like anything typed.
    pub fn schedule(&mut self, at: Tick, session: u32, sql: &str) -> Result<(), String> {
        parse_sql(sql).map_err(|e| e.to_string())?;
        if at < self.sim.now() {
            return Err(format!("{at} is in the past (now {})", self.sim.now()));
        }
        let i = self.applied + self.inputs[self.applied..].partition_point(|x| x.at <= at);
        self.inputs.insert(
            i,
            Input {
                at,
                kind: InputKind::Submit {
                    session,
                    sql: sql.to_string(),
                },
            },
        );
        self.apply_due();
        Ok(())
    }

    /// Records `kind` at the current time and applies it. An input typed after a seek
    /// back drops the recorded future: history branches here.
    fn record(&mut self, kind: InputKind) -> Result<(), String> {
        let now = self.sim.now();
        if self.applied < self.inputs.len() || self.horizon > now {
            let dropped = self.inputs.len() - self.applied;
            if dropped > 0 {
                self.branches.push(now);
                self.last_branch = Some(Branch { at: now, dropped });
            }
            self.inputs.truncate(self.applied);
            self.marks.retain(|m| m.at <= now);
            self.checkpoints.retain(|c| c.sim.now() <= now);
            self.horizon = now;
        }
        let input = Input { at: now, kind };
        self.apply(&input)?;
        self.inputs.push(input);
        self.applied += 1;
        Ok(())
    }

    fn apply(&mut self, input: &Input) -> Result<(), String> {
        match &input.kind {
            InputKind::Connect => {
                self.sim.connect();
                Ok(())
            }
            InputKind::Submit { session, sql } => self
                .sim
                .submit_to(*session, sql)
                .map(|_| ())
                .map_err(|e| e.to_string()),
        }
    }

    /// Applies the recorded inputs that are due now (after a seek back, as the clock
    /// passes them again).
    fn apply_due(&mut self) {
        if self.warm_up.is_some() {
            return;
        }
        while let Some(input) = self.inputs.get(self.applied) {
            if input.at > self.sim.now() {
                break;
            }
            let input = input.clone();
            // It was accepted when typed, and the run is deterministic: it is again.
            let _ = self.apply(&input);
            self.applied += 1;
        }
    }

    /// Adds a frame's wall time and virtual time to the achieved-speed window.
    pub fn count_speed(&mut self, dt_ms: f64, done: Tick) {
        self.window_wall_ms += dt_ms;
        self.window_virtual_ns += done.as_ns();
        if self.window_wall_ms >= SPEED_WINDOW_MS {
            let actual = self.window_virtual_ns as f64 / 1e6 / self.window_wall_ms;
            self.actual_speed = (actual * 100.0).round() / 100.0;
            self.window_wall_ms = 0.0;
            self.window_virtual_ns = 0;
        }
    }

    /// Runs the simulation to `target`, applying recorded inputs at their ticks and
    /// taking checkpoints, until done or until `clock()` says `budget_ms` is spent.
    /// Returns the virtual time run.
    pub fn run_to(&mut self, target: Tick, budget_ms: f64, clock: &dyn Fn() -> f64) -> Tick {
        let started_ms = clock();
        if !self.warm(budget_ms, clock) {
            return Tick::ZERO;
        }
        let from = self.sim.now();
        while self.sim.now() < target {
            let mut stop = (self.sim.now() + STEP_SLICE).min(target);
            if let Some(input) = self.inputs.get(self.applied) {
                stop = stop.min(input.at.max(self.sim.now()));
            }
            self.sim.run_until(stop);
            self.apply_due();
            self.checkpoint();
            if clock() - started_ms > budget_ms {
                break;
            }
        }
        self.horizon = self.horizon.max(self.sim.now());
        self.sim.now() - from
    }

    /// Takes a checkpoint when the last one is `checkpoint_every` old; thins them out
    /// when they outgrow the memory budget.
    fn checkpoint(&mut self) {
        if !self.checkpointing {
            return;
        }
        let now = self.sim.now();
        if let Some(last) = self.checkpoints.last() {
            if now < last.sim.now() + self.checkpoint_every {
                return;
            }
        }
        // What one copy holds (the engine's estimate: pool, kept events and samples).
        let bytes = self.sim.approx_bytes();
        let keep = (CHECKPOINT_BUDGET_BYTES / bytes.max(1)) as usize;
        if keep == 0 {
            return;
        }
        self.checkpoints.push(Checkpoint {
            applied: self.applied,
            sim: self.sim.clone(),
        });
        if self.checkpoints.len() > keep {
            let mut i = 0;
            self.checkpoints.retain(|_| {
                i += 1;
                i % 2 == 0
            });
            self.checkpoint_every = self.checkpoint_every.times(2);
        }
    }

    /// Puts the simulation in its state at virtual time `target` (at most the
    /// horizon): from the last checkpoint at or before it, or from the start,
    /// replaying the recorded inputs. Deterministic: the same tick gives the same
    /// state whatever the path there. The views' data is rebuilt from the events.
    pub fn seek(&mut self, target: Tick) {
        self.seek_within(target, f64::INFINITY, &|| 0.0);
    }

    /// Runs to the next mark (a statement starting or finishing, a lock wait, a DDL
    /// phase): one already seen, or the next one the run makes within
    /// [`MARK_HORIZON`], the clock paused: the step control, done at once (see
    /// [`Runner::start_step`] for the step a slice a frame). Returns the virtual time
    /// run.
    pub fn step_event(&mut self) -> Tick {
        let from = self.sim.now();
        self.start_step();
        self.settle();
        self.sim.now() - from
    }

    /// Runs to the simulation's next wake (or the next recorded input), at most to
    /// `limit`: the smallest step the step control takes.
    fn step_wake(&mut self, limit: Tick) {
        let mut next = self.sim.next_wake().unwrap_or(limit).min(limit);
        if let Some(input) = self.inputs.get(self.applied) {
            next = next.min(input.at);
        }
        // A wake due now still runs: run_until takes everything at or before it.
        self.sim.run_until(next.max(self.sim.now()).min(limit));
        self.apply_due();
        self.checkpoint();
        self.horizon = self.horizon.max(self.sim.now());
    }

    /// Seeks back to the previous mark (statement, lock wait, DDL phase), or without
    /// one to the previous event in the engine's stream (or the start): the back
    /// control.
    pub fn step_back(&mut self) {
        self.step_back_within(f64::INFINITY, &|| 0.0);
    }

    /// Like [`Runner::step_back`], doing at most `budget_ms` of the replay now (see
    /// [`Runner::seek_within`]). Nothing while the runner is busy.
    pub fn step_back_within(&mut self, budget_ms: f64, clock: &dyn Fn() -> f64) {
        // Back while a step forward is under way: from where that step has got.
        self.stepping = None;
        if self.busy().is_some() {
            return;
        }
        self.digest();
        let now = self.sim.now();
        let to = timeline_marks::prev_before(&self.marks, now).unwrap_or_else(|| {
            let events = self.sim.events();
            let i = events.partition_point(|e| e.at < now);
            i.checked_sub(1).map_or(Tick::ZERO, |i| events[i].at)
        });
        self.seek_within(to, budget_ms, clock);
    }

    /// The marks seen so far, in time order.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// Reads the events that arrived since the last call: keeps scans that are not over,
    /// opens and closes the console statements' spans, and fills the console's log.
    pub fn digest(&mut self) {
        let now = self.sim.now();
        let console: BTreeSet<u32> = self.sim.console_sessions().into_iter().collect();
        let before = self.log.len();
        for e in self.sim.events_since(self.cursor) {
            if let Some(m) = timeline_marks::mark_of(e) {
                timeline_marks::add(&mut self.marks, m);
            }
            if let Some((list, span)) = ScanSpan::of_event(e) {
                if list == ListKind::Flush {
                    let i = usize::from(span.instance);
                    if self.flush_walk_count.len() <= i {
                        self.flush_walk_count.resize(i + 1, 0);
                    }
                    self.flush_walk_count[i] += 1;
                    self.flush_walks.push(span);
                } else {
                    self.scans.push(span);
                }
            }
            match &e.kind {
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
                EventKind::StatementStarted { session, sql } if console.contains(session) => {
                    self.ddl.push(DdlSpan {
                        session: *session,
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
                } if console.contains(session) => {
                    let mut issued = e.at;
                    if let Some(span) = self
                        .ddl
                        .iter_mut()
                        .find(|s| s.t1.is_none() && s.session == *session && s.sql == *sql)
                    {
                        span.t1 = Some(e.at);
                        issued = span.t0;
                    }
                    self.log.push(LogEntry {
                        at: e.at,
                        issued,
                        session: *session,
                        sql: sql.clone(),
                        result: result.clone(),
                        error: *error,
                        note: false,
                    });
                }
                kind => {
                    if let EventKind::Failover { stalled_for } = kind {
                        self.failovers.push(FailoverMark {
                            stalled_from: e.at.saturating_sub(*stalled_for),
                            at: e.at,
                        });
                    }
                    self.log.extend(note_for(e.at, kind));
                }
            }
        }
        self.cursor = self.sim.event_count();
        if self.log.len() != before {
            self.log_version += 1;
            let skip = self.log.len().saturating_sub(LOG_KEEP);
            self.log.drain(..skip);
        }
        drop_oldest(&mut self.marks, MARKS_KEEP);
        let finished = self.ddl.iter().filter(|s| s.t1.is_some()).count();
        let mut extra = finished.saturating_sub(SPANS_KEEP);
        self.ddl.retain(|s| {
            let drop = extra > 0 && s.t1.is_some();
            extra -= usize::from(drop);
            !drop
        });
        self.scans.retain(|s| s.t1 >= now);
        self.flush_walks.retain(|s| s.t1 >= now);
        let horizon = now.saturating_sub(LATCH_WINDOW);
        self.latch_spans.retain(|s| s.t1 >= horizon);
    }

    /// The console sessions as their tabs show them, their states read from `views`
    /// ([`Sim::sessions`], which the snapshot reads once for this and its waiters).
    fn console(&self, views: &[SessionView]) -> Vec<ConsoleSession> {
        self.sim
            .console_sessions()
            .into_iter()
            .map(|id| {
                let mine = self
                    .sim
                    .statements()
                    .iter()
                    .filter(|s| s.session == id && s.finished_at.is_none());
                let mut pending = 0;
                let mut running = None;
                for s in mine {
                    pending += 1;
                    if running.is_none() && s.started_at.is_some() {
                        running = Some(s.sql.clone());
                    }
                }
                ConsoleSession {
                    id,
                    pending,
                    running,
                    state: views
                        .iter()
                        .find(|v| v.id == self.sim.connection_of(id))
                        .map_or(String::new(), |v| v.state.to_string()),
                }
            })
            .collect()
    }

    /// The speed achieved over the last second while playing (0 when paused).
    pub fn actual_speed(&self) -> f64 {
        if self.playing {
            self.actual_speed
        } else {
            0.0
        }
    }

    /// The figures Yew shows, read from the pool now.
    pub fn snapshot(&self) -> Snapshot {
        let pool = self.sim.pool();
        let views = self.sim.sessions();
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
            actual_speed: self.actual_speed(),
            tables: table_infos(&self.sim),
            flush_walks: self.flush_walk_count.iter().sum(),
            horizon: self.horizon,
            marks: self.marks.clone(),
            latches_held: self
                .sim
                .latches()
                .iter()
                .filter(|l| l.holder().is_some())
                .map(|l| l.id.to_string())
                .collect(),
            waiting: views
                .iter()
                .filter(|v| v.waiting_for.is_some() || v.state.starts_with("Waiting for"))
                .count() as u64,
            console: self.console(&views),
            log_version: self.log_version,
            mdl: mdl_view(&self.sim),
            processlist: proc_rows(&self.sim),
            busy: self.busy().map(|b| b.to_string()),
        }
    }
}

/// Keeps the newest `keep` of `v` (which is in time order).
fn drop_oldest<T>(v: &mut Vec<T>, keep: usize) {
    let extra = v.len().saturating_sub(keep);
    v.drain(..extra);
}

mod busy;
mod engines;
mod fork;
#[cfg(test)]
mod tests;

pub use busy::Busy;
pub use engines::Engines;
