//! What the page's components hold of the engines: on the page's thread (the
//! fallback, `?worker=0`, and a link replayed to its tick) or in the worker. The
//! same calls either way; a call that returns an answer on the page's thread takes
//! a callback in the worker's case.

use super::client::Remote;
use crate::model::export::TextExport;
use crate::model::inspect::tooltip;
use crate::model::knobs::Knobs;
use crate::model::layout::PanelLayout;
use crate::model::lesson::{self, Place, Sessions};
use crate::model::link::LinkState;
use crate::model::remote::protocol::{Command, Reply};
use crate::model::replay;
use crate::model::restart::{restart, Restarted};
use crate::model::runner::Engines;
use crate::model::state::Opened;
use crate::model::{console, runner::Runner};
use ddlscope_engine::lesson::Lesson;
use ddlscope_engine::{parse_sql, Tick};
use std::cell::RefCell;
use std::rc::Rc;

/// The engines on the page's thread, shared between the components and the frame
/// loop.
pub type SharedEngines = Rc<RefCell<Engines>>;

/// The engines, wherever they run.
#[derive(Clone, Debug)]
pub enum EnginesProxy {
    /// On the page's thread.
    Local(SharedEngines),
    /// In the worker.
    Remote(Rc<Remote>),
}

impl EnginesProxy {
    /// The engines on the page's thread, if they run there.
    pub fn local(&self) -> Option<&SharedEngines> {
        match self {
            EnginesProxy::Local(e) => Some(e),
            EnginesProxy::Remote(_) => None,
        }
    }

    /// Play or pause, and how fast.
    pub fn set_clock(&self, playing: bool, speed: f64) {
        match self {
            EnginesProxy::Local(e) => e.borrow_mut().set_clock(playing, speed),
            EnginesProxy::Remote(r) => r.send(&Command::Clock { playing, speed }),
        }
    }

    /// Steps to the next mark (`forward`) or back to the previous one, doing at most
    /// `budget_ms` of a replay back now on the page's thread.
    pub fn step(&self, forward: bool, budget_ms: f64, clock: &dyn Fn() -> f64) {
        match self {
            EnginesProxy::Local(e) if forward => e.borrow_mut().step_event_within(budget_ms, clock),
            EnginesProxy::Local(e) => e.borrow_mut().step_back_within(budget_ms, clock),
            EnginesProxy::Remote(r) => r.send(&Command::Step(forward)),
        }
    }

    /// Seeks every engine to `t` (see [`EnginesProxy::step`] for `budget_ms`).
    pub fn seek(&self, t: Tick, budget_ms: f64, clock: &dyn Fn() -> f64) {
        match self {
            EnginesProxy::Local(e) => e.borrow_mut().seek_within(t, budget_ms, clock),
            EnginesProxy::Remote(r) => r.send(&Command::Seek(t)),
        }
    }

    /// Goes to `t`, within what was run or beyond it (an embedding page's `seek`);
    /// the frames that follow do the run.
    pub fn go_to(&self, t: Tick) {
        match self {
            EnginesProxy::Local(e) => e.borrow_mut().go_to(t),
            EnginesProxy::Remote(r) => r.send(&Command::GoTo(t)),
        }
    }

    /// Opens a console session on every engine; `done` gets its id.
    pub fn connect(&self, done: impl FnOnce(u32) + 'static) {
        match self {
            EnginesProxy::Local(e) => {
                let id = e.borrow_mut().connect();
                done(id);
            }
            EnginesProxy::Remote(r) => r.ask(
                Box::new(move |reply| {
                    if let Reply::Connected { session, .. } = reply {
                        done(session);
                    }
                }),
                |ask| Command::Connect { ask },
            ),
        }
    }

    /// Gives `sql` to console session `active` (0: the first). On the page's thread
    /// the answer is the engines'; in the worker's case it is the parser's (what the
    /// console shows at once), and the engines' refusal, if any, reaches the log.
    /// With it, what the page should say (history branched), when known now.
    pub fn submit(&self, active: u32, sql: &str) -> (Result<u32, String>, Option<String>) {
        match self {
            EnginesProxy::Local(e) => console::submit(&mut e.borrow_mut(), active, sql),
            EnginesProxy::Remote(r) => {
                r.send(&Command::Submit {
                    // Nobody waits for this answer: a notice comes as its own reply.
                    ask: 0,
                    session: active,
                    sql: sql.to_string(),
                });
                let parsed = parse_sql(sql)
                    .map(|s| s.len() as u32)
                    .map_err(|e| e.to_string());
                (parsed, None)
            }
        }
    }

    /// Rebuilds the engines as `scenario` on `profile` with `knobs`, restart
    /// `generation`. On the page's thread, what happened; in the worker's case
    /// `None`, and what the page should say comes with a frame.
    pub fn restart(
        &self,
        scenario: &str,
        profile: &str,
        knobs: &Knobs,
        generation: u32,
    ) -> Option<Restarted> {
        match self {
            EnginesProxy::Local(e) => Some(restart(
                &mut e.borrow_mut(),
                scenario,
                profile,
                knobs,
                generation,
            )),
            EnginesProxy::Remote(r) => {
                r.send(&Command::Open {
                    scenario: scenario.to_string(),
                    profile: profile.to_string(),
                    knobs: knobs.clone(),
                    generation,
                });
                None
            }
        }
    }

    /// Compares with `profile`, or stops with `None`; an error when it cannot (on
    /// the page's thread; the worker's refusal comes with a frame).
    pub fn compare(&self, profile: Option<&str>) -> Result<(), String> {
        match self {
            EnginesProxy::Local(e) => {
                let mut e = e.borrow_mut();
                if e.panes.get(1).map(Runner::profile) == profile {
                    return Ok(());
                }
                let knobs = e.main().knobs().clone();
                e.compare(profile, &knobs)
            }
            EnginesProxy::Remote(r) => {
                r.send(&Command::Compare(profile.map(str::to_string)));
                Ok(())
            }
        }
    }

    /// Each engine's buffer-pool instances, as last known.
    pub fn instances(&self) -> Vec<u16> {
        match self {
            EnginesProxy::Local(e) => e
                .borrow()
                .panes
                .iter()
                .map(|r| r.sim().pool().n_instances())
                .collect(),
            EnginesProxy::Remote(r) => r
                .mirror
                .borrow()
                .panes
                .iter()
                .map(|p| p.instances)
                .collect(),
        }
    }

    /// The link state of the engines now, with its panels laid out as `layout`,
    /// encoded as the fragment carries it ([`LinkState::encode`]) with its
    /// [`LinkState::run_key`] (`None` before the first engine), to `done`.
    pub fn link(
        &self,
        layout: &PanelLayout,
        done: impl FnOnce(Option<(String, Option<u64>)>) + 'static,
    ) {
        let layout = LinkState::layout_param(layout);
        match self {
            EnginesProxy::Local(e) => {
                let state = replay::capture(&e.borrow(), &PanelLayout::default());
                let state = LinkState { layout, ..state };
                done(Some((state.encode(), state.run_key())));
            }
            EnginesProxy::Remote(r) => r.ask(
                Box::new(move |reply| {
                    if let Reply::Link { encoded, run, .. } = reply {
                        done(encoded.map(|e| (e, run)));
                    }
                }),
                |ask| Command::Link { ask, layout },
            ),
        }
    }

    /// The main engine's `kind` export, `(name, text)` or why not, to `done`.
    pub fn export(
        &self,
        kind: TextExport,
        done: impl FnOnce(Result<(String, String), String>) + 'static,
    ) {
        match self {
            EnginesProxy::Local(e) => done(Ok(kind.file(e.borrow().main()))),
            EnginesProxy::Remote(r) => r.ask(
                Box::new(move |reply| {
                    if let Reply::Exported { result, .. } = reply {
                        done(result);
                    }
                }),
                |ask| Command::Export { ask, kind },
            ),
        }
    }

    /// The map's tooltip at `(x, y)` of engine `pane`'s canvas, `width` CSS px wide
    /// (see [`tooltip`]), to `done`.
    pub fn inspect(
        &self,
        pane: usize,
        (x, y, width): (f64, f64, f64),
        done: impl FnOnce(Option<String>) + 'static,
    ) {
        match self {
            EnginesProxy::Local(e) => {
                let e = e.borrow();
                done(e.panes.get(pane).and_then(|r| tooltip(r, x, y, width)));
            }
            EnginesProxy::Remote(r) => r.ask(
                Box::new(move |reply| {
                    if let Reply::Inspected { text, .. } = reply {
                        done(text);
                    }
                }),
                |ask| Command::Inspect {
                    ask,
                    pane: u8::try_from(pane).unwrap_or(u8::MAX),
                    x,
                    y,
                    width,
                },
            ),
        }
    }

    /// Opens step `place` of `lesson` (with its text when the reader brought it: the
    /// worker reads it again) on fresh engines as restart `generation`
    /// (their pools warm and they run to the step's moment in the frames that
    /// follow); the lesson's sessions land in `sessions` once connected. What the
    /// page's state becomes, or why the step cannot open; in the worker's case a
    /// refusal found only there (building the server) goes to `failed`.
    pub fn open_lesson(
        &self,
        (l, source): (&Lesson, Option<&str>),
        place: &Place,
        generation: u32,
        sessions: Rc<RefCell<Sessions>>,
        failed: impl FnOnce(String) + 'static,
    ) -> Result<Opened, String> {
        let plan = l
            .plan(place.step, place.variant, place.seed)
            .ok_or("this step has no set-up")?;
        match self {
            EnginesProxy::Local(e) => {
                let (engines, opened) = lesson::open(&plan, generation, sessions)?;
                *e.borrow_mut() = engines;
                Ok(opened)
            }
            EnginesProxy::Remote(r) => {
                let opened = lesson::opened_of(&plan, generation)?;
                let number = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
                r.ask(
                    Box::new(move |reply| {
                        if let Reply::LessonOpened { result, .. } = reply {
                            match result {
                                Ok(ids) => *sessions.borrow_mut() = ids,
                                Err(e) => failed(e),
                            }
                        }
                    }),
                    |ask| Command::OpenLesson {
                        ask,
                        lesson: l.id.clone(),
                        source: source.map(String::from),
                        step: number(place.step),
                        variant: number(place.variant),
                        seed: number(place.seed),
                        generation,
                    },
                );
                Ok(opened)
            }
        }
    }

    /// Runs on to the question of step `step` of `l` (after whatever the engines
    /// are busy with) and gives `shown` what it asks about, measured there, in
    /// words (or why not).
    pub fn reveal(
        &self,
        (l, source): (&Lesson, Option<&str>),
        step: usize,
        sessions: Rc<RefCell<Sessions>>,
        shown: impl FnOnce(Result<String, String>) + 'static,
    ) {
        match self {
            EnginesProxy::Local(e) => {
                let Some(q) = l.steps.get(step).and_then(|s| s.question.as_ref()) else {
                    return shown(Err("this step asks no question".to_string()));
                };
                lesson::reveal(&mut e.borrow_mut(), sessions, q, move |seen| {
                    shown(Ok(seen.to_string()))
                });
            }
            EnginesProxy::Remote(r) => r.ask(
                Box::new(move |reply| {
                    if let Reply::Revealed { seen, .. } = reply {
                        shown(seen);
                    }
                }),
                |ask| Command::Reveal {
                    ask,
                    lesson: l.id.clone(),
                    source: source.map(String::from),
                    step: u32::try_from(step).unwrap_or(u32::MAX),
                },
            ),
        }
    }

    /// Whether the clock has reached a lesson step's pause (which is then spent).
    /// In the worker's case always false: the worker stops there itself and says
    /// so (`Reply::PausedAtMark`).
    pub fn take_mark_pause(&self) -> bool {
        match self {
            EnginesProxy::Local(e) => {
                let mut e = e.borrow_mut();
                let at = e.paused_at_mark();
                if at {
                    e.pause_at = None;
                }
                at
            }
            EnginesProxy::Remote(_) => false,
        }
    }

    /// Whether the two are the same engines.
    pub fn same(&self, other: &EnginesProxy) -> bool {
        match (self, other) {
            (EnginesProxy::Local(a), EnginesProxy::Local(b)) => Rc::ptr_eq(a, b),
            (EnginesProxy::Remote(a), EnginesProxy::Remote(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }
}
