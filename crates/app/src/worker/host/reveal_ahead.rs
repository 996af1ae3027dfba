//! The open step's question, run to and measured ahead on a second copy of the step
//! in the worker's spare time, so that Reveal answers at once instead of after the
//! engines run on to the question's moment (up to 1.5 s: choosing,
//! compressed-partitions, ext3, instant-columns).
//!
//! ```text
//!   step N opens ──▶ RevealAhead::open: a copy of N's engines (the same plan), with
//!                    model::lesson::reveal asked of it at once
//!   each timer frame: the open step's work first, then the copy's and the next
//!                     step's prefetch's, half the spare time each while both work
//!   any input to N ──▶ the copy is dropped (a statement, a seek, a step, a restart,
//!                     another step or link: N would no longer reach its state)
//!   Reveal (N)    ──▶ N not past the question, and the copy answered (or on its
//!                     last run, past N's moment): the copy's engines take N's
//!                     place, its answer goes out in the next frame (or once they
//!                     reach the question); else the usual reveal
//! ```
//!
//! The engine is deterministic: from the step's moment with the same inputs, the
//! copy reaches exactly the state the open step reaches at the question's moment.
//! The copy is of the step as the page opened it (a quiz's drawn variant and seed
//! too), and only when its pool fits in [`MAX_POOL_BYTES`] beside the next step's
//! opened ahead (the next step first: see there).

use super::prefetch::plan_pool_bytes;
#[cfg(doc)]
use super::prefetch::MAX_POOL_BYTES;
use crate::model::lesson::{open, reveal, Sessions, StepPick};
use crate::model::runner::{Busy, Engines};
use ddlscope_engine::lesson::Lesson;
use ddlscope_engine::Tick;
use std::cell::RefCell;
use std::rc::Rc;

/// Where the copy's answer comes, measured at the question's moment.
pub(super) type Seen = Rc<RefCell<Option<String>>>;

/// The open step's copy, on its way to its question's answer.
#[derive(Debug)]
pub(super) struct RevealAhead {
    /// The lesson's id and its text when the reader brought it.
    id: String,
    source: Option<String>,
    /// The step, as the page opened it.
    place: StepPick,
    /// The question's moment, and where the copy runs to measure it (the step's
    /// moment when that is later, as `model::lesson::reveal` goes).
    at: Tick,
    to: Tick,
    /// The copy's engines: warming, on their way to the question's moment, or there.
    pub(super) engines: Engines,
    /// The copy's sessions' names and ids, once connected.
    sessions: Rc<RefCell<Sessions>>,
    /// What the question asks about, measured at its moment, once there.
    seen: Seen,
}

impl RevealAhead {
    /// A copy of step `place` of `lesson` (its text `source` when the reader brought
    /// it), on its way to its question's answer, if it asks one and its pool takes
    /// at most `room` bytes (what [`MAX_POOL_BYTES`] leaves beside the next step
    /// opened ahead).
    pub(super) fn open(
        lesson: &Lesson,
        source: Option<&str>,
        place: StepPick,
        room: u64,
    ) -> Option<RevealAhead> {
        let q = lesson.steps.get(place.step)?.question.as_ref()?;
        // The variant and seed the page drew (a quiz's): the copy is of this step.
        let plan = lesson.plan(place.step, place.variant, place.seed)?;
        plan_pool_bytes(&plan).filter(|b| *b <= room)?;
        let sessions: Rc<RefCell<Sessions>> = Rc::default();
        let (mut engines, _) = open(&plan, 0, sessions.clone()).ok()?;
        let seen: Seen = Rc::default();
        let put = seen.clone();
        reveal(&mut engines, sessions.clone(), q, move |o| {
            *put.borrow_mut() = Some(o.to_string());
        });
        Some(RevealAhead {
            id: lesson.id.clone(),
            source: source.map(str::to_string),
            place,
            at: q.at,
            to: q.at.max(plan.open_at),
            engines,
            sessions,
            seen,
        })
    }

    /// Whether this is a copy of step `step` of lesson `id` (its text `source`).
    pub(super) fn is(&self, id: &str, source: Option<&str>, step: usize) -> bool {
        self.id == id && self.source.as_deref() == source && self.place.step == step
    }

    /// The question's moment.
    pub(super) fn at(&self) -> Tick {
        self.at
    }

    /// The answer, once measured.
    pub(super) fn answer(&self) -> Option<String> {
        self.seen.borrow().clone()
    }

    /// Whether the copy would answer sooner than the open step run on from `now`:
    /// it has its answer, or it is on its last run, to the question's moment, and
    /// past `now` (every engine of it; the frames after finish its run and measure).
    pub(super) fn ahead_of(&self, now: Tick) -> bool {
        self.answer().is_some()
            || self.engines.panes.iter().all(|r| {
                !matches!(r.busy(), Some(Busy::Warming { .. }))
                    && r.destination() == self.to
                    && r.sim().now() > now
            })
    }

    /// Gives the copy `budget_ms` of the frame, until it has its answer.
    pub(super) fn work(&mut self, budget_ms: f64, clock: &dyn Fn() -> f64) {
        if self.seen.borrow().is_none() {
            self.engines.work(budget_ms, clock);
        }
    }

    /// Whether the copy still wants the frames' spare time.
    pub(super) fn working(&self) -> bool {
        self.seen.borrow().is_none()
    }

    /// The copy's engines under generation `g` (the open step's), its sessions and
    /// where its answer comes (at once, or once its engines settle at the
    /// question's moment).
    pub(super) fn adopt(mut self, g: u32) -> (Engines, Rc<RefCell<Sessions>>, Seen) {
        for r in &mut self.engines.panes {
            r.adopt_generation(g);
        }
        (self.engines, self.sessions, self.seen)
    }
}
