//! What the page's components hold of the engines: a handle on the Web Worker that
//! runs them. A call that answers takes a callback, run when the worker's reply
//! arrives; the others post their command and return.

use super::client::Remote;
use crate::model::advisor::{AdviceView, AdvisorForm};
use crate::model::export::TextExport;
use crate::model::knobs::Knobs;
use crate::model::lesson::{self, Place, Sessions};
use crate::model::link::LinkState;
use crate::model::panel_layout::PanelLayout;
use crate::model::remote::protocol::{Command, MapPatch, Reply};
use crate::model::state::Opened;
use ddlscope_engine::lesson::Lesson;
use ddlscope_engine::{parse_sql, Tick};
use std::rc::Rc;

/// A point on engine `pane`'s map canvas, `width` CSS px wide: where a tooltip is
/// asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MapPoint {
    /// The engine's pane: 0 the main one, 1 the compare one.
    pub pane: usize,
    /// CSS px from the canvas's left edge.
    pub x: f64,
    /// CSS px from the canvas's top edge.
    pub y: f64,
    /// The canvas's width, CSS px.
    pub width: f64,
}

/// A link of the run as the worker encodes it: the fragment
/// ([`LinkState::encode`]) and its [`LinkState::run_key`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedLink {
    /// The fragment's text.
    pub encoded: String,
    /// The run's key (`None` before the first engine).
    pub run: Option<u64>,
}

/// The engines in their worker.
#[derive(Clone, Debug)]
pub struct EnginesProxy(Rc<Remote>);

impl EnginesProxy {
    /// The proxy of the engines in `remote`.
    pub fn new(remote: Remote) -> EnginesProxy {
        EnginesProxy(Rc::new(remote))
    }

    /// The worker's client, for the frame loop.
    pub fn remote(&self) -> &Rc<Remote> {
        &self.0
    }

    /// Posts `c` to the worker.
    pub fn send(&self, c: &Command) {
        self.0.send(c);
    }

    /// Play or pause, and how fast.
    pub fn set_clock(&self, playing: bool, speed: f64) {
        self.0.send(&Command::Clock { playing, speed });
    }

    /// Steps to the next mark (`forward`) or back to the previous one.
    pub fn step(&self, forward: bool) {
        self.0.send(&Command::Step(forward));
    }

    /// Seeks every engine to `t`, within what was run.
    pub fn seek(&self, t: Tick) {
        self.0.send(&Command::Seek(t));
    }

    /// Goes to `t`, within what was run or beyond it (an embedding page's `seek`);
    /// the frames that follow do the run.
    pub fn go_to(&self, t: Tick) {
        self.0.send(&Command::GoTo(t));
    }

    /// Opens a console session on every engine; `done` gets its id.
    pub fn connect(&self, done: impl FnOnce(u32) + 'static) {
        self.0.ask(
            Box::new(move |reply| {
                if let Reply::Connected { session, .. } = reply {
                    done(session);
                }
            }),
            |ask| Command::Connect { ask },
        );
    }

    /// Gives `sql` to console session `active` (0: the first). The answer is the
    /// parser's, what the console shows at once (the number of statements, or why
    /// not); the engines' refusal, if any, and what the page should say (history
    /// branched) come with a frame.
    pub fn submit(&self, active: u32, sql: &str) -> Result<u32, String> {
        self.0.send(&Command::Submit {
            // Nobody waits for this answer: a notice comes as its own reply.
            ask: 0,
            session: active,
            sql: sql.to_string(),
        });
        parse_sql(sql)
            .map(|s| s.len() as u32)
            .map_err(|e| e.to_string())
    }

    /// Rebuilds the engines as `scenario` on `profile` with `knobs`, restart
    /// `generation`; what the page should say comes with a frame.
    pub fn restart(&self, scenario: &str, profile: &str, knobs: &Knobs, generation: u32) {
        self.0.send(&Command::Open {
            scenario: scenario.to_string(),
            own: None,
            profile: profile.to_string(),
            knobs: knobs.clone(),
            generation,
        });
    }

    /// Compares with `profile`, or stops with `None`; a refusal comes with a frame.
    pub fn compare(&self, profile: Option<&str>) {
        self.0.send(&Command::Compare(profile.map(str::to_string)));
    }

    /// Each engine's buffer-pool instances, as last known.
    pub fn instances(&self) -> Vec<u16> {
        self.0
            .mirror
            .borrow()
            .panes
            .iter()
            .map(|p| p.instances)
            .collect()
    }

    /// The link of the engines now, with its panels laid out as `layout`, to
    /// `done` (`None` before the first engine).
    pub fn link(&self, layout: &PanelLayout, done: impl FnOnce(Option<EncodedLink>) + 'static) {
        let layout = LinkState::layout_param(layout);
        self.0.ask(
            Box::new(move |reply| {
                if let Reply::Link { encoded, run, .. } = reply {
                    done(encoded.map(|encoded| EncodedLink { encoded, run }));
                }
            }),
            |ask| Command::Link { ask, layout },
        );
    }

    /// The main engine's map of this moment painted whole, `width` device pixels
    /// wide at `dpr` (the Share dialog's poster): the patch and its RGBA pixels, or
    /// why not, to `done`.
    pub fn poster(
        &self,
        width: u32,
        dpr: f64,
        dark: bool,
        done: impl FnOnce(Result<(MapPatch, Vec<u8>), String>) + 'static,
    ) {
        self.0.ask(
            Box::new(move |reply| {
                if let Reply::Poster { result, .. } = reply {
                    done(result);
                }
            }),
            |ask| Command::Poster {
                ask,
                width,
                dpr,
                dark,
            },
        );
    }

    /// The main engine's `kind` export, `(name, text)` or why not, to `done`.
    pub fn export(
        &self,
        kind: TextExport,
        done: impl FnOnce(Result<(String, String), String>) + 'static,
    ) {
        self.0.ask(
            Box::new(move |reply| {
                if let Reply::Exported { result, .. } = reply {
                    done(result);
                }
            }),
            |ask| Command::Export { ask, kind },
        );
    }

    /// The map's tooltip at `at` (see `model::inspect::tooltip`), to `done`.
    pub fn inspect(&self, at: MapPoint, done: impl FnOnce(Option<String>) + 'static) {
        self.0.ask(
            Box::new(move |reply| {
                if let Reply::Inspected { text, .. } = reply {
                    done(text);
                }
            }),
            |ask| Command::Inspect {
                ask,
                pane: u8::try_from(at.pane).unwrap_or(u8::MAX),
                x: at.x,
                y: at.y,
                width: at.width,
            },
        );
    }

    /// Opens step `place` of `lesson` (with its text when the reader brought it: the
    /// worker reads it again) on fresh engines as restart `generation`
    /// (their pools warm and they run to the step's moment in the frames that
    /// follow); the lesson's sessions (name and id) go to `connected` once connected. What the
    /// page's state becomes, or why the step cannot open; a refusal found only in
    /// the worker (building the server) goes to `failed`.
    pub fn open_lesson(
        &self,
        (l, source): (&Lesson, Option<&str>),
        place: &Place,
        generation: u32,
        connected: impl FnOnce(Sessions) + 'static,
        failed: impl FnOnce(String) + 'static,
    ) -> Result<Opened, String> {
        let plan = l
            .plan(place.step, place.variant, place.seed)
            .ok_or("this step has no set-up")?;
        let opened = lesson::opened_of(&plan, generation)?;
        let number = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        self.0.ask(
            Box::new(move |reply| {
                if let Reply::LessonOpened { result, .. } = reply {
                    match result {
                        Ok(ids) => connected(ids),
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

    /// Runs on to the question of step `step` of `l` (after whatever the engines
    /// are busy with) and gives `shown` what it asks about, measured there, in
    /// words (or why not).
    pub fn reveal(
        &self,
        (l, source): (&Lesson, Option<&str>),
        step: usize,
        shown: impl FnOnce(Result<String, String>) + 'static,
    ) {
        self.0.ask(
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
        );
    }

    /// Runs the Advisor's playbooks for `form` in the worker; `done` gets the
    /// ranking or why there is none (the progress comes as
    /// [`crate::model::state::Action::AdviceProgress`]).
    pub fn advise(
        &self,
        form: AdvisorForm,
        done: impl FnOnce(Result<AdviceView, String>) + 'static,
    ) {
        self.0.ask(
            Box::new(move |reply| {
                if let Reply::Advised { result, .. } = reply {
                    done(result);
                }
            }),
            |ask| Command::Advise { ask, form },
        );
    }

    /// Stops the advice running, if any.
    pub fn cancel_advice(&self) {
        self.0.send(&Command::CancelAdvice);
    }
}

/// The same engines: the same worker.
impl PartialEq for EnginesProxy {
    fn eq(&self, other: &EnginesProxy) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}
