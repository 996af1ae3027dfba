//! Work a runner does a slice a frame instead of in one long task: the pool's warm-up
//! (a 128 GB pool takes seconds) and the run to a moment asked for (a seek back
//! through a long replay, a link's or a lesson step's moment). While either is under
//! way the clock is held, the views show the server as it is so far, and
//! [`Runner::busy`] says how far it has got.

use super::{timeline_marks, Runner, MARK_HORIZON, STEP_BUDGET_MS};
use ddlscope_engine::{SimBuild, Tick, WarmUp};
use std::fmt;

/// Pages a slice of the warm-up tries or draws: a few milliseconds of work.
const WARM_SLICE: u64 = 20_000;

/// Wakes a step runs between two looks at the clock (a wake is microseconds of
/// work; the clock, in the browser, a call out of the module).
const WAKES_PER_CLOCK_READ: u32 = 64;

/// What a runner is busy with before it can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    /// Filling the buffer pool before the first tick: `frames` of `of` taken.
    Warming {
        /// Frames taken so far.
        frames: u64,
        /// Frames in the pool.
        of: u64,
    },
    /// Stepping from `from` to the next mark, at most to `to`, now at `at`.
    Stepping {
        /// Where the step started.
        from: Tick,
        /// Where it is now.
        at: Tick,
        /// As far as it may go.
        to: Tick,
    },
    /// Running from `from` towards `to` (replaying the recorded inputs), now at `at`.
    Replaying {
        /// Where the run started.
        from: Tick,
        /// Where it is now.
        at: Tick,
        /// Where it is going.
        to: Tick,
    },
}

impl Busy {
    /// How far it has got, 0 to 100.
    pub fn percent(&self) -> u32 {
        let (done, of) = match *self {
            Busy::Warming { frames, of } => (frames, of),
            Busy::Replaying { from, at, to } | Busy::Stepping { from, at, to } => (
                at.saturating_sub(from).as_ns(),
                to.saturating_sub(from).as_ns(),
            ),
        };
        if of == 0 {
            return 100;
        }
        ((done as u128 * 100 / of as u128) as u32).min(100)
    }
}

impl fmt::Display for Busy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Busy::Warming { of, .. } => write!(
                f,
                "building the buffer pool ({} frames): {} %",
                count(of),
                self.percent()
            ),
            Busy::Stepping { .. } => write!(
                f,
                "running to the next event (at most {} s ahead): {} %",
                MARK_HORIZON.as_ns() / 1_000_000_000,
                self.percent()
            ),
            Busy::Replaying { to, .. } => write!(
                f,
                "replaying to {:.1} s: {} %",
                to.as_ns() as f64 / 1e9,
                self.percent()
            ),
        }
    }
}

/// A step forward under way: from where, and as far as it may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stepping {
    from: Tick,
    to: Tick,
    /// Whether `to` is a mark already seen (the run stops there), or only the
    /// horizon (the run stops at the first new mark).
    known: bool,
}

/// A frame count as people say it: 262 k, 8.4 M.
fn count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{} k", n / 1000),
        _ => format!("{:.1} M", n as f64 / 1e6),
    }
}

impl Runner {
    /// What the runner is busy with before it can play, if anything.
    pub fn busy(&self) -> Option<Busy> {
        if self.warm_up.is_some() {
            let (frames, of) = WarmUp::progress(&self.sim);
            return Some(Busy::Warming { frames, of });
        }
        if let Some(to) = self.catch_up {
            return Some(Busy::Replaying {
                from: self.catch_up_from,
                at: self.sim.now(),
                to,
            });
        }
        self.stepping.map(|s| Busy::Stepping {
            from: s.from,
            at: self.sim.now(),
            to: s.to,
        })
    }

    /// Sets off to the next mark: one already seen, or the first the run makes
    /// within [`MARK_HORIZON`]. [`Runner::work`] runs there; nothing while busy.
    pub fn start_step(&mut self) {
        if self.busy().is_some() {
            return;
        }
        self.digest();
        let from = self.sim.now();
        let known = timeline_marks::next_after(&self.marks, from);
        self.stepping = Some(Stepping {
            from,
            to: known.unwrap_or(from + MARK_HORIZON),
            known: known.is_some(),
        });
    }

    /// Goes on with the step until it lands or `budget_ms` is spent. True when done.
    fn step(&mut self, budget_ms: f64, clock: &dyn Fn() -> f64) -> bool {
        let Some(s) = self.stepping else {
            return true;
        };
        let started = clock();
        if s.known {
            self.run_to(s.to, budget_ms, clock);
        } else {
            let mut wakes = 0u32;
            while self.sim.now() < s.to {
                wakes = wakes.wrapping_add(1);
                if wakes.is_multiple_of(WAKES_PER_CLOCK_READ) && clock() - started > budget_ms {
                    return false;
                }
                let seen = self.sim.event_count();
                self.step_wake(s.to);
                let marked = self
                    .sim
                    .events_since(seen)
                    .iter()
                    .any(|e| e.at > s.from && timeline_marks::mark_of(e).is_some());
                if marked {
                    self.stepping = None;
                    return true;
                }
            }
        }
        if self.sim.now() < s.to {
            return false;
        }
        self.stepping = None;
        true
    }

    /// Goes on with the warm-up and the run to the moment asked for until both are
    /// done or `clock()` says `budget_ms` is spent. True when nothing is left to do.
    pub fn work(&mut self, budget_ms: f64, clock: &dyn Fn() -> f64) -> bool {
        let started = clock();
        if !self.warm(budget_ms, clock) {
            return false;
        }
        let Some(to) = self.catch_up else {
            let left = budget_ms - (clock() - started);
            return self.step(left.max(0.0), clock);
        };
        let left = budget_ms - (clock() - started);
        if left > 0.0 {
            self.run_to(to, left, clock);
        }
        if self.sim.now() < to {
            return false;
        }
        self.catch_up = None;
        self.digest();
        // The views drew the run as it went (a band at a time): they start afresh
        // on the moment reached, as after a seek done at once.
        self.seeks += 1;
        true
    }

    /// Does whatever is left at once: for a caller that needs the server now (a
    /// test, a new console session).
    pub fn settle(&mut self) {
        self.work(f64::INFINITY, &|| 0.0);
    }

    /// Warms the pool until done or until `budget_ms` is spent; once warm, the
    /// server's threads start and the inputs due at time zero are applied. True
    /// when the pool is warm.
    pub(super) fn warm(&mut self, budget_ms: f64, clock: &dyn Fn() -> f64) -> bool {
        let Some(warm_up) = self.warm_up.as_mut() else {
            return true;
        };
        let started = clock();
        while !warm_up.step(&mut self.sim, WARM_SLICE) {
            if clock() - started > budget_ms {
                return false;
            }
        }
        if let Some(warm_up) = self.warm_up.take() {
            warm_up.finish(&mut self.sim);
            self.seeks += 1;
        }
        // A checkpoint at time zero, where the memory budget allows one: a seek
        // back before the first regular one starts from it, not from a cold server.
        self.checkpoint();
        self.apply_due();
        true
    }

    /// Sets the simulation on its way to `target`: when it lies behind, back to the
    /// last checkpoint at or before it (or to a fresh server, cold, replaying from
    /// the start); [`Runner::work`] then runs it there. The views' data is rebuilt
    /// from the events as the run goes. Deterministic: the same tick gives the same
    /// state whatever the path there.
    pub fn go_to(&mut self, target: Tick) {
        self.stepping = None;
        if target < self.sim.now() {
            self.rewind(target);
        }
        self.catch_up_from = self.sim.now();
        self.catch_up = (target > self.sim.now() || self.warm_up.is_some()).then_some(target);
        self.cursor = 0;
        self.scans.clear();
        self.flush_walks.clear();
        self.flush_walk_count.clear();
        self.latch_spans.clear();
        self.ddl.clear();
        self.failovers.clear();
        self.log.clear();
        self.rejected.retain(|e| e.at <= target);
        self.log_version += 1;
        self.seeks += 1;
        self.digest();
    }

    /// Puts the simulation back to the last checkpoint at or before `target`, or to
    /// a fresh server before its warm-up.
    fn rewind(&mut self, target: Tick) {
        let restored = self
            .checkpoints
            .iter()
            .rev()
            .find(|c| c.sim.now() <= target)
            .cloned();
        match restored {
            Some(c) => {
                self.sim = c.sim;
                self.warm_up = None;
                self.applied = c.applied;
                self.apply_due();
            }
            None => {
                let (sim, warm_up) = SimBuild::new(self.scenario.clone(), self.profile.clone())
                    .expect("this simulation was built from it before")
                    .into_parts();
                self.sim = sim;
                self.warm_up = Some(warm_up);
                self.applied = 0;
            }
        }
    }

    /// Like [`Runner::seek`], doing at most `budget_ms` of the work now and the rest
    /// in later [`Runner::work`] calls (the frame loop's).
    pub fn seek_within(&mut self, target: Tick, budget_ms: f64, clock: &dyn Fn() -> f64) {
        self.go_to(target.min(self.horizon));
        self.work(budget_ms, clock);
    }

    /// Advances the virtual clock by `dt_ms` of wall time × speed, in slices, until done
    /// or until `clock()` says the frame's budget is spent, once the runner is not busy
    /// (see [`Runner::work`]). Returns the virtual time run.
    pub fn advance(&mut self, dt_ms: f64, clock: &dyn Fn() -> f64) -> Tick {
        if !self.work(STEP_BUDGET_MS, clock) || !self.playing {
            return Tick::ZERO;
        }
        let want = Tick((dt_ms * self.speed * 1e6) as u64);
        let done = self.run_to(self.sim.now() + want, STEP_BUDGET_MS, clock);
        self.count_speed(dt_ms, done);
        done
    }
}
