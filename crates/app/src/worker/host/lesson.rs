//! A lesson in the worker: a step opened on fresh engines by replay, its question
//! run on to and measured, and the clock stopped at the step's pause, as the page's
//! thread does them (`model::lesson`).

use super::Host;
use crate::model::lesson::{lesson_from, open, plan_of, reveal, Sessions, StepPick};
use crate::model::remote::protocol::Reply;
use std::cell::RefCell;
use std::rc::Rc;

impl Host {
    /// Opens step `place` of lesson `id` (read from its text when the reader
    /// brought it) as restart `generation`; the answer to `ask` goes out once its
    /// sessions are connected, or at once with why it cannot open.
    pub(super) fn open_lesson(
        &mut self,
        ask: u32,
        (id, source): (&str, Option<&str>),
        place: StepPick,
        generation: u32,
    ) {
        let sessions: Rc<RefCell<Sessions>> = Rc::default();
        let opened = lesson_from(id, source).and_then(|l| {
            let (_, plan) = plan_of(std::slice::from_ref(&l), id, place)?;
            open(&plan, generation, sessions.clone())
        });
        match opened {
            Ok((mut engines, _)) => {
                self.lesson_sessions = sessions.clone();
                let late = self.late.clone();
                engines.when_settled(move |_| {
                    let result = Ok(sessions.borrow().clone());
                    late.borrow_mut().push(Reply::LessonOpened { ask, result });
                });
                self.clock = engines.main().clock();
                self.engines = Some(engines);
            }
            Err(e) => self.replies.push(Reply::LessonOpened {
                ask,
                result: Err(e),
            }),
        }
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
