//! A lesson in the worker: a step opened on fresh engines by replay, its question
//! run on to and measured, and the clock stopped at the step's pause, as the page's
//! thread does them (`model::lesson`); the next step opened ahead (`prefetch.rs`).

use super::prefetch::{self, Prefetch};
use super::Host;
use crate::model::lesson::{lesson_from, open, plan_of, reveal, Sessions, StepPick};
use crate::model::remote::protocol::Reply;
use std::cell::RefCell;
use std::rc::Rc;

impl Host {
    /// Opens step `place` of lesson `id` (read from its text when the reader
    /// brought it) as restart `generation`; the answer to `ask` goes out once its
    /// sessions are connected, or at once with why it cannot open. The step opened
    /// ahead is taken when it is this one; the one after is then opened ahead.
    pub(super) fn open_lesson(
        &mut self,
        ask: u32,
        (id, source): (&str, Option<&str>),
        place: StepPick,
        generation: u32,
    ) {
        let ahead = self
            .prefetch
            .take()
            .filter(|p| p.is(id, source, place))
            .map(|p| p.adopt(generation));
        let found = lesson_from(id, source);
        let opened = match ahead {
            Some(taken) => Ok(taken),
            None => found.clone().and_then(|l| {
                let sessions: Rc<RefCell<Sessions>> = Rc::default();
                let (_, plan) = plan_of(std::slice::from_ref(&l), id, place)?;
                let (engines, _) = open(&plan, generation, sessions.clone())?;
                Ok((engines, sessions))
            }),
        };
        match opened {
            Ok((mut engines, sessions)) => {
                self.lesson_sessions = sessions.clone();
                let late = self.late.clone();
                engines.when_settled(move |_| {
                    let result = Ok(sessions.borrow().clone());
                    late.borrow_mut().push(Reply::LessonOpened { ask, result });
                });
                self.clock = engines.main().clock();
                if engines.panes.len() > 1 {
                    // The step's compare engine runs beside the main one (its
                    // question reads both): no worker runs another.
                    self.partner = None;
                }
                self.engines = Some(engines);
                self.prefetch = found.ok().and_then(|l| Prefetch::next(&l, source, place));
            }
            Err(e) => self.replies.push(Reply::LessonOpened {
                ask,
                result: Err(e),
            }),
        }
    }

    /// Gives the step opened ahead the frame's spare time: none while the open
    /// step's engines are busy or behind the clock; while they play, a little and
    /// what they left of their own share of the frame (`spare_ms` of
    /// [`super::WORK_MS`]); more while they are paused.
    pub(super) fn work_ahead(&mut self, spare_ms: f64, clock: &dyn Fn() -> f64) {
        let (Some(e), Some(p)) = (self.engines.as_ref(), self.prefetch.as_mut()) else {
            return;
        };
        if e.busy().is_some() || self.lagging || p.engines.busy().is_none() {
            return;
        }
        let budget = if self.clock.0 {
            prefetch::PLAYING_WORK_MS + spare_ms
        } else {
            prefetch::PAUSED_WORK_MS
        };
        p.engines.work(budget, clock);
    }

    /// Runs on to the question of step `step` of lesson `id` and answers `ask` with
    /// what the simulation shows there, once it is there.
    pub(super) fn reveal(&mut self, ask: u32, (id, source): (&str, Option<&str>), step: usize) {
        let found = lesson_from(id, source).ok();
        let question = found
            .as_ref()
            .and_then(|l| l.steps.get(step))
            .and_then(|s| s.question.as_ref());
        let (Some(q), Some(e)) = (question, self.engines.as_mut()) else {
            let seen = Err(format!(
                "step {} of lesson '{id}' asks no question on a running server",
                step + 1
            ));
            self.replies.push(Reply::Revealed { ask, seen });
            return;
        };
        let late = self.late.clone();
        reveal(e, self.lesson_sessions.clone(), q, move |seen| {
            let seen = Ok(seen.to_string());
            late.borrow_mut().push(Reply::Revealed { ask, seen });
        });
    }

    /// Stops the clock where a lesson step pauses, once it is there; the page hears
    /// it as [`Reply::PausedAtMark`].
    pub(super) fn pause_at_mark(&mut self, replies: &mut Vec<Reply>) {
        let Some(e) = self.engines.as_mut() else {
            return;
        };
        if self.clock.0 && e.paused_at_mark() {
            e.pause_at = None;
            self.clock.0 = false;
            e.set_clock(false, self.clock.1);
            replies.push(Reply::PausedAtMark);
        }
    }
}
