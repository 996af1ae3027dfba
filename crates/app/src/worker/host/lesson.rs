//! A lesson in the worker: a step opened on fresh engines by replay, its question
//! run on to and measured, and the clock stopped at the step's pause, as the page's
//! thread does them (`model::lesson`); the open step's question answered ahead
//! (`reveal_ahead.rs`) and the next step opened ahead (`prefetch.rs`).

use super::prefetch::{self, Prefetch};
use super::reveal_ahead::{Adopted, RevealAhead};
use super::Host;
use crate::model::lesson::{lesson_from, open, plan_of, reveal, Sessions, StepPick};
use crate::model::remote::protocol::Reply;
use std::cell::RefCell;
use std::rc::Rc;

impl Host {
    /// Opens step `place` of lesson `id` (read from its text when the reader
    /// brought it) as restart `generation`; the answer to `ask` goes out once its
    /// sessions are connected, or at once with why it cannot open. The step opened
    /// ahead is taken when it is this one; the one after is then opened ahead, and
    /// a copy of this one, once it settles, runs on to its question
    /// (`reveal_ahead.rs`).
    pub(super) fn open_lesson(
        &mut self,
        ask: u32,
        (id, source): (&str, Option<&str>),
        place: StepPick,
        generation: u32,
    ) {
        self.reveal_ahead = None;
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
                let lesson = found.ok();
                self.prefetch = lesson
                    .as_ref()
                    .and_then(|l| Prefetch::next(l, source, place));
                self.reveal_ahead = lesson.and_then(|l| RevealAhead::open(&l, source, place));
            }
            Err(e) => self.replies.push(Reply::LessonOpened {
                ask,
                result: Err(e),
            }),
        }
    }

    /// Gives the question run ahead and the step opened ahead the frame's spare
    /// time, half each while both work: none while the open step's engines are
    /// busy or behind the clock; while they play, a little and what they left of
    /// their own share of the frame (`spare_ms` of [`super::WORK_MS`]); more while
    /// they are paused. The question's copy is cloned from the open step's engines
    /// about a second of such frames on (they are settled then), or dropped once
    /// the step is at its question.
    pub(super) fn work_ahead(&mut self, spare_ms: f64, clock: &dyn Fn() -> f64) {
        let Some(e) = self.engines.as_ref() else {
            return;
        };
        if e.busy().is_some() || self.lagging {
            return;
        }
        let copied = self
            .reveal_ahead
            .as_mut()
            .map(|r| r.copy(e, &self.lesson_sessions.borrow()));
        if copied == Some(false) {
            self.reveal_ahead = None;
        }
        let budget = if self.clock.0 {
            prefetch::PLAYING_WORK_MS + spare_ms
        } else {
            prefetch::PAUSED_WORK_MS
        };
        let copy = self.reveal_ahead.as_mut().filter(|r| r.working());
        let next = self
            .prefetch
            .as_mut()
            .filter(|p| p.engines.busy().is_some());
        // Both at work: half each. The question's copy alone first starved the next
        // step on a busy machine (drop-table-57-vs-80's fifth, two engines, ready
        // 4.6 s after Next at 5 s a step, against 0.64 s before the copy).
        let share = if copy.is_some() && next.is_some() {
            budget / 2.0
        } else {
            budget
        };
        if let Some(r) = copy {
            r.work(share, clock);
        }
        if let Some(p) = next {
            p.engines.work(share, clock);
        }
    }

    /// Drops the question run ahead: an input changed the open step (a statement, a
    /// seek, a step, another engine).
    pub(super) fn drop_reveal_ahead(&mut self) {
        self.reveal_ahead = None;
    }

    /// Runs on to the question of step `step` of lesson `id` and answers `ask` with
    /// what the simulation shows there, once it is there: at once when the question
    /// was answered ahead (`reveal_ahead.rs`) and the open step is not past it.
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
        let now = e.main().sim().now();
        let ready = self.reveal_ahead.as_ref().is_some_and(|r| {
            r.is(id, source, step)
                && r.at() == q.at
                && e.busy().is_none()
                && now <= q.at
                && r.ahead_of(now)
        });
        let g = e.main().generation();
        if let Some(copy) = self
            .reveal_ahead
            .take()
            .filter(|_| ready)
            .and_then(|r| r.adopt(g))
        {
            self.adopt_reveal(ask, copy);
            return;
        }
        self.drop_reveal_ahead();
        let Some(e) = self.engines.as_mut() else {
            return;
        };
        let late = self.late.clone();
        reveal(e, self.lesson_sessions.clone(), q, move |seen| {
            let seen = Ok(seen.to_string());
            late.borrow_mut().push(Reply::Revealed { ask, seen });
        });
    }

    /// Puts the question's copy (at its moment, or on its way there) in the open
    /// step's place and answers `ask` with what it measured there, at once or once
    /// it is there. The copy takes the open step's generation, clock and pause; the
    /// next frame sends the console's log and a whole map again, as after the usual
    /// reveal's run (a seek).
    fn adopt_reveal(&mut self, ask: u32, (mut engines, sessions, seen): Adopted) {
        let Some(mut old) = self.engines.take() else {
            return;
        };
        engines.pause_at = old.pause_at;
        engines.bound = old.bound;
        engines.set_clock(self.clock.0, self.clock.1);
        // The open step's checkpoints hold for the copy (the same inputs): a seek
        // back after the reveal starts from them, as it would have.
        for (new, old) in engines.panes.iter_mut().zip(&mut old.panes) {
            new.take_checkpoints(old);
        }
        drop(old);
        self.engines = Some(engines);
        self.lesson_sessions = sessions;
        self.last_log = None;
        for p in &mut self.panes {
            p.painted = None;
            p.panels = None;
            p.charts = None;
        }
        let answer = seen.borrow_mut().take();
        match answer {
            Some(a) => self.replies.push(Reply::Revealed { ask, seen: Ok(a) }),
            None => {
                let late = self.late.clone();
                let e = self.engines.as_mut().expect("just put");
                // After the copy's own measure, queued before.
                e.when_settled(move |_| {
                    let seen = seen
                        .borrow_mut()
                        .take()
                        .ok_or_else(|| "the question was not measured".to_string());
                    late.borrow_mut().push(Reply::Revealed { ask, seen });
                });
            }
        }
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
