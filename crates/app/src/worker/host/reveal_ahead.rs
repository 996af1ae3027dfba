//! The open step's question, run to and measured ahead on a second copy of the step
//! in the worker's spare time, so that Reveal answers at once instead of after the
//! engines run on to the question's moment (up to 1.5 s: choosing,
//! compressed-partitions, ext3, instant-columns).
//!
//! ```text
//!   step N opens ──▶ RevealAhead::open: the question noted, no engines yet
//!   each timer frame: the open step's work first; once its engines have been
//!                     settled about a second (before the question's moment),
//!                     RevealAhead::copy clones them (model::runner::fork: no
//!                     pool built, no replay)
//!                     with model::lesson::reveal asked of the clone; then the
//!                     copy's work and the next step's prefetch's, half the spare
//!                     time each while both work
//!   any input to N ──▶ the copy is dropped (a statement, a seek, a step, a restart,
//!                     another step or link: N would no longer reach its state)
//!   Reveal (N)    ──▶ N not past the question, and the copy answered (or on its
//!                     last run, past N's moment): the copy's engines take N's
//!                     place, its answer goes out in the next frame (or once they
//!                     reach the question); else the usual reveal
//! ```
//!
//! The engine is deterministic: the clone, run on with the same inputs, reaches
//! exactly the state the open step reaches at the question's moment. The copy is of
//! the step as the page opened it (a quiz's drawn variant and seed too), and only
//! when its pool fits in [`MAX_POOL_BYTES`] (its own budget, beside the next step's
//! opened ahead: compressed-partitions' 36 GB steps hold three engines, about
//! 170 MB each as the engine counts them). A copy built afresh, its pool and a
//! replay to the step's moment, was not
//! at compressed-partitions' questions after 5 s of a playing step's spare time;
//! the clone starts where the open step is.

use super::prefetch::plan_pool_bytes;
#[cfg(doc)]
use super::prefetch::MAX_POOL_BYTES;
use crate::model::lesson::{reveal, Sessions, StepPick};
use crate::model::runner::{Busy, Engines};
use ddlscope_engine::lesson::{Lesson, Question};
use ddlscope_engine::Tick;
use std::cell::RefCell;
use std::rc::Rc;

/// Frames the open step's engines are settled before they are cloned, about a
/// second of the worker's 16 ms frames: the step's first frames (its LessonOpened,
/// its first map) go to the page before the clone, a copy of the whole pool (about
/// 170 MB for compressed-partitions' 36 GB, tens of ms), and the next step opened
/// ahead has that second's spare time alone, so a presenter who moves on within it
/// does not wait for the copy. Four frames: compressed-partitions' steps ready after
/// Next at 1 s a step in 1,073 ms (median of one walk under load; a second: 903;
/// main, no copy for it: 604 and 824).
const COPY_AFTER_FRAMES: u32 = 60;

/// Where the copy's answer comes, measured at the question's moment.
pub(super) type Seen = Rc<RefCell<Option<String>>>;

/// The copy as it takes the open step's place: its engines, its sessions and where
/// its answer comes.
pub(super) type Adopted = (Engines, Rc<RefCell<Sessions>>, Seen);

/// The open step's copy, on its way to its question's answer.
#[derive(Debug)]
pub(super) struct RevealAhead {
    /// The lesson's id and its text when the reader brought it.
    id: String,
    source: Option<String>,
    /// The step, as the page opened it.
    place: StepPick,
    /// The question, and its moment (where the copy runs to measure it).
    question: Question,
    at: Tick,
    /// The copy's engines, once cloned from the open step's: on their way to the
    /// question's moment, or there.
    pub(super) engines: Option<Engines>,
    /// Frames the open step has been settled, until it is cloned.
    settled_frames: u32,
    /// The copy's sessions' names and ids (the open step's, when cloned).
    sessions: Rc<RefCell<Sessions>>,
    /// What the question asks about, measured at its moment, once there.
    seen: Seen,
}

impl RevealAhead {
    /// The copy of step `place` of `lesson` (its text `source` when the reader
    /// brought it) to come, if the step asks a question and its pool fits in
    /// [`MAX_POOL_BYTES`]; its engines are cloned once the open step's settle
    /// ([`RevealAhead::copy`]).
    pub(super) fn open(
        lesson: &Lesson,
        source: Option<&str>,
        place: StepPick,
    ) -> Option<RevealAhead> {
        let q = lesson.steps.get(place.step)?.question.as_ref()?;
        // The variant and seed the page drew (a quiz's): the copy is of this step.
        let plan = lesson.plan(place.step, place.variant, place.seed)?;
        plan_pool_bytes(&plan)?;
        Some(RevealAhead {
            id: lesson.id.clone(),
            source: source.map(str::to_string),
            place,
            question: q.clone(),
            at: q.at,
            engines: None,
            settled_frames: 0,
            sessions: Rc::default(),
            seen: Rc::default(),
        })
    }

    /// Clones the open step's `engines` and `sessions` once the engines have been
    /// settled [`COPY_AFTER_FRAMES`] frames (a frame's call each), and sets the clone
    /// off to the question's moment (nothing once cloned). False
    /// when the copy is of no use: the open step is at the question's moment or past
    /// it (the usual reveal measures where it is, at once).
    pub(super) fn copy(&mut self, open: &Engines, sessions: &Sessions) -> bool {
        if self.engines.is_some() {
            return true;
        }
        if open.main().sim().now() >= self.at {
            return false;
        }
        if self.settled_frames < COPY_AFTER_FRAMES {
            self.settled_frames += 1;
            return true;
        }
        let Some(mut engines) = open.fork() else {
            return true;
        };
        *self.sessions.borrow_mut() = sessions.clone();
        let put = self.seen.clone();
        reveal(
            &mut engines,
            self.sessions.clone(),
            &self.question,
            move |o| {
                *put.borrow_mut() = Some(o.to_string());
            },
        );
        self.engines = Some(engines);
        true
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
            || self.engines.as_ref().is_some_and(|e| {
                e.panes.iter().all(|r| {
                    !matches!(r.busy(), Some(Busy::Warming { .. }))
                        && r.destination() == self.at
                        && r.sim().now() > now
                })
            })
    }

    /// Gives the copy `budget_ms` of the frame, until it has its answer.
    pub(super) fn work(&mut self, budget_ms: f64, clock: &dyn Fn() -> f64) {
        if let Some(e) = self
            .engines
            .as_mut()
            .filter(|_| self.seen.borrow().is_none())
        {
            e.work(budget_ms, clock);
        }
    }

    /// Whether the copy still wants the frames' spare time: cloned and on its way.
    pub(super) fn working(&self) -> bool {
        self.engines.is_some() && self.seen.borrow().is_none()
    }

    /// The copy's engines under generation `g` (the open step's), its sessions and
    /// where its answer comes (at once, or once its engines settle at the
    /// question's moment); None before the clone.
    pub(super) fn adopt(self, g: u32) -> Option<Adopted> {
        let mut engines = self.engines?;
        for r in &mut engines.panes {
            r.adopt_generation(g);
        }
        Some((engines, self.sessions, self.seen))
    }
}
