//! The engines on the page: the main [`Runner`], and in compare mode a second one
//! beside it on the same clock, given the same statements; and what waits for
//! both to be built and at their moment ([`Engines::when_settled`]).

use super::{Busy, Runner};
use crate::model::knobs::Knobs;
use ddlscope_engine::Tick;
use std::fmt;

/// The engines on the page: one, or two side by side (compare mode) on one clock,
/// given the same statements.
#[derive(Debug)]
pub struct Engines {
    /// The main engine first.
    pub panes: Vec<Runner>,
    /// A moment playing stops at (a lesson step's pause), once.
    pub pause_at: Option<Tick>,
    /// The furthest the clock may run (the compare engine's time in its own
    /// worker, plus a margin: `worker/host/partner.rs`).
    pub bound: Option<Tick>,
    /// What to do once no engine is busy, in order (see [`Engines::when_settled`]).
    pub(super) settled: Vec<Settled>,
}

/// Something to do to the engines once they are built and at their moment.
pub(super) struct Settled(Box<dyn FnOnce(&mut Engines)>);

impl fmt::Debug for Settled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Settled(..)")
    }
}

impl Engines {
    /// One engine.
    pub fn new(main: Runner) -> Engines {
        Engines {
            panes: vec![main],
            pause_at: None,
            bound: None,
            settled: Vec::new(),
        }
    }

    /// What the engines are busy with before they can play (the one furthest from
    /// done), if anything.
    pub fn busy(&self) -> Option<Busy> {
        self.panes
            .iter()
            .filter_map(Runner::busy)
            .min_by_key(Busy::percent)
    }

    /// Does `f` once no engine is busy: now, or after the frame that settles them.
    pub fn when_settled(&mut self, f: impl FnOnce(&mut Engines) + 'static) {
        self.settled.push(Settled(Box::new(f)));
        if self.busy().is_none() {
            self.run_settled();
        }
    }

    /// Runs what waited for the engines to settle, until one of them makes them busy
    /// again.
    fn run_settled(&mut self) {
        while self.busy().is_none() && !self.settled.is_empty() {
            let Settled(f) = self.settled.remove(0);
            f(self);
        }
    }

    /// Goes on with every engine's warm-up and run to its moment, sharing `budget_ms`,
    /// then does what waited for that. True when nothing is left to do.
    pub fn work(&mut self, budget_ms: f64, clock: &dyn Fn() -> f64) -> bool {
        let budget = budget_ms / self.panes.len() as f64;
        let mut done = true;
        for r in &mut self.panes {
            done &= r.work(budget, clock);
        }
        if done {
            self.run_settled();
        }
        done && self.busy().is_none()
    }

    /// Does whatever is left at once (tests; a caller that needs the engines now).
    pub fn settle(&mut self) {
        while !self.work(f64::INFINITY, &|| 0.0) {}
    }

    /// The main engine.
    pub fn main(&self) -> &Runner {
        &self.panes[0]
    }

    /// The main engine, to change.
    pub fn main_mut(&mut self) -> &mut Runner {
        &mut self.panes[0]
    }

    /// Sets play/pause and speed on every engine.
    pub fn set_clock(&mut self, playing: bool, speed: f64) {
        for r in &mut self.panes {
            r.set_clock(playing, speed);
        }
    }

    /// Advances every engine by `dt_ms` of wall time × speed, on one clock: each runs
    /// to the same virtual time, from the one furthest behind, and they share
    /// `budget_ms` of wall time. Returns whether they fell behind the clock: the
    /// budget ran out before every engine reached the time asked.
    pub fn advance(&mut self, dt_ms: f64, budget_ms: f64, clock: &dyn Fn() -> f64) -> bool {
        if !self.work(budget_ms, clock) {
            return false;
        }
        let (playing, speed) = self.panes[0].clock();
        if !playing {
            return false;
        }
        let want = Tick((dt_ms * speed * 1e6) as u64);
        let behind = self
            .panes
            .iter()
            .map(|r| r.sim().now())
            .min()
            .unwrap_or_default();
        let mut goal = behind + want;
        if let Some(p) = self.pause_at.filter(|p| *p > behind) {
            goal = goal.min(p);
        }
        if let Some(b) = self.bound {
            goal = goal.min(b.max(behind));
        }
        let budget = budget_ms / self.panes.len() as f64;
        let mut lagging = false;
        for r in &mut self.panes {
            let done = r.run_to(goal, budget, clock);
            r.count_speed(dt_ms, done);
            lagging |= r.sim().now() < goal;
        }
        lagging
    }

    /// Runs the one engine towards `to` (a compare engine in a worker of its own,
    /// following the main engine's moment: `worker/host/partner.rs`), back to it
    /// by a replay when past it, in `budget_ms`. Returns whether it fell behind.
    pub fn follow(
        &mut self,
        to: Tick,
        dt_ms: f64,
        budget_ms: f64,
        clock: &dyn Fn() -> f64,
    ) -> bool {
        if !self.work(budget_ms, clock) {
            return false;
        }
        let r = &mut self.panes[0];
        if to < r.sim().now() {
            r.go_to(to);
            self.work(budget_ms, clock);
            return false;
        }
        let done = r.run_to(to, budget_ms, clock);
        r.count_speed(dt_ms, done);
        r.sim().now() < to
    }

    /// Gives `sql` to console session `session` of every engine; the main engine's
    /// answer is returned. The main engine stamps it with its tick; the others take
    /// the main engine's inputs as they are ([`Runner::adopt_inputs`]), so each
    /// applies it at that tick whether it is behind (still building its pool,
    /// catching up, a frame late) or a frame ahead: both engines, and a link's
    /// replay, see the same statements at the same ticks.
    pub fn submit(&mut self, session: u32, sql: &str) -> Result<u32, String> {
        let result = self.panes[0].submit(session, sql);
        self.share_inputs();
        result
    }

    /// Queues `sql` for `session` at `at` on every engine (see [`Runner::schedule`]).
    pub fn schedule(&mut self, at: Tick, session: u32, sql: &str) -> Result<(), String> {
        self.panes[0].schedule(at, session, sql)?;
        self.share_inputs();
        Ok(())
    }

    /// The main engine's inputs to the other engines (see [`Engines::submit`]).
    fn share_inputs(&mut self) {
        let (main, others) = self.panes.split_first_mut().expect("at least one engine");
        for r in others {
            r.adopt_inputs(main.inputs.clone());
        }
    }

    /// Whether the clock has reached the pause it was given (see [`Engines::pause_at`]).
    pub fn paused_at_mark(&self) -> bool {
        self.pause_at
            .is_some_and(|p| self.panes.iter().all(|r| r.sim().now() >= p))
    }

    /// Opens a console session on every engine at the main engine's tick; they get
    /// the same id, as both run the same scenario.
    pub fn connect(&mut self) -> u32 {
        let id = self.panes[0].connect();
        self.share_inputs();
        id
    }

    /// Seeks every engine to `t`, at once.
    pub fn seek(&mut self, t: Tick) {
        self.seek_within(t, f64::INFINITY, &|| 0.0);
    }

    /// Seeks every engine to `t`, doing at most `budget_ms` of the replay now and
    /// the rest in the frames that follow ([`Engines::work`]).
    pub fn seek_within(&mut self, t: Tick, budget_ms: f64, clock: &dyn Fn() -> f64) {
        for r in &mut self.panes {
            r.go_to(t.min(r.horizon()));
        }
        self.work(budget_ms, clock);
    }

    /// Goes to virtual time `t`, within what was run or beyond it: what a parent
    /// page's `seek` and a lesson step ask. The run is done by the frames that
    /// follow ([`Engines::work`]).
    pub fn go_to(&mut self, t: Tick) {
        for r in &mut self.panes {
            r.go_to(t);
        }
    }

    /// Steps the main engine to its next event and the others to the same time, at
    /// once.
    pub fn step_event(&mut self) {
        self.step_event_within(f64::INFINITY, &|| 0.0);
    }

    /// Like [`Engines::step_event`], doing at most `budget_ms` of the run now and the
    /// rest in the frames that follow ([`Engines::work`]): the next mark may be up to
    /// [`MARK_HORIZON`] of a busy server away.
    pub fn step_event_within(&mut self, budget_ms: f64, clock: &dyn Fn() -> f64) {
        self.panes[0].start_step();
        self.work(budget_ms, clock);
        self.when_settled(|e| {
            e.sync();
        });
    }

    /// Steps the main engine back to its previous event, the others with it, at
    /// once.
    pub fn step_back(&mut self) {
        self.step_back_within(f64::INFINITY, &|| 0.0);
    }

    /// Like [`Engines::step_back`], doing at most `budget_ms` of the replay now.
    pub fn step_back_within(&mut self, budget_ms: f64, clock: &dyn Fn() -> f64) {
        self.panes[0].step_back_within(budget_ms, clock);
        self.sync();
        self.work(budget_ms, clock);
    }

    /// Sets the other engines on their way to the main engine's moment.
    fn sync(&mut self) {
        let main = &self.panes[0];
        let to = main.catch_up.unwrap_or(main.sim().now());
        for r in &mut self.panes[1..] {
            if r.catch_up.unwrap_or(r.sim().now()) != to {
                r.go_to(to);
            }
        }
    }

    /// Starts comparing with `profile` (the same scenario and settings, the same
    /// inputs replayed to the main engine's time), or stops with `None`.
    pub fn compare(&mut self, profile: Option<&str>, knobs: &Knobs) -> Result<(), String> {
        self.panes.truncate(1);
        let Some(profile) = profile else {
            return Ok(());
        };
        let main = &self.panes[0];
        let mut other = Runner::starting(
            main.scenario(),
            main.own(),
            profile,
            knobs,
            main.generation(),
        )?;
        let (playing, speed) = main.clock();
        other.set_clock(playing, speed);
        other.inputs = main.inputs.clone();
        other.horizon = main.horizon;
        other.go_to(main.catch_up.unwrap_or(main.sim().now()));
        self.panes.push(other);
        Ok(())
    }
}
