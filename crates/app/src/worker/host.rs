//! The worker's end: the engines, what the page asked of them, and the frames that
//! tell the page what happened.
//!
//! ```text
//!   Command ──▶ Host::handle ──▶ Engines (open, a link, clock, connect, submit, seek,
//!                                 step; asks: the link now, an export, a tooltip)
//!   timer   ──▶ Host::frame(dt) ─▶ Engines::advance, digest, the map's bands painted
//!                                 ─▶ Frame + each pane's repainted rows, or nothing new
//! ```
//!
//! Nothing here knows the worker: the `worker` module calls [`Host::handle`] for
//! each message and [`Host::frame`] on its timer, and posts what comes back. Native
//! tests drive it the same way.

use crate::model::console;
use crate::model::inspect::tooltip;
use crate::model::knobs::Knobs;
use crate::model::lesson::{Sessions, StepPick};
use crate::model::link::{unopenable, LinkState};
use crate::model::map_pixels::{band_infos, MapPixels, PaintAsk};
use crate::model::panel_layout::PanelLayout;
use crate::model::panels::{chart_data, flush_view, latch_view};
use crate::model::remote::protocol::{Command, Frame, MapPatch, PaneFrame, Reply};
use crate::model::replay;
use crate::model::restart::{restart, Restarted};
use crate::model::runner::{Engines, Runner, DEFAULT_PROFILE, DEFAULT_SCENARIO};
use ddlscope_engine::Tick;
use ddlscope_map::Theme;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

/// Wall time a timer frame steps the engines while they play.
pub const WORK_MS: f64 = 12.0;
/// Wall time a timer frame gives a pool's warm-up or a replay to a moment: well
/// under what delays the next command noticeably.
pub const BUSY_WORK_MS: f64 = 30.0;
/// Wall time a timer frame gives a pool's warm-up before the worker's first map is
/// painted: the page asks for that map while the first pool builds, and its `View`
/// waits for the slice under way. Only in the worker's first [`FIRST_MAP_WINDOW_MS`]
/// (a page without a map asks for none).
const FIRST_MAP_WORK_MS: f64 = 10.0;
/// How long after the worker starts its first pool is built in short slices, ms.
const FIRST_MAP_WINDOW_MS: f64 = 2000.0;
/// How long after the worker starts its first engines wait for the page's first
/// view before they work, ms: the first slices of a build run code for the first
/// time (compiled as it is called, a slice overruns its budget several times over),
/// and the view would wait for them. A page without a map waits no longer than this.
const FIRST_VIEW_WAIT_MS: f64 = 500.0;
/// Wall time a timer frame steps the engines while they fall behind the clock (a
/// speed they cannot hold): the worker's frames go to the engines, not to frames
/// the page could not tell apart. Commands wait at most this long.
const LAGGING_WORK_MS: f64 = 45.0;
/// How often the map is repainted while the engines fall behind the clock.
const LAGGING_MAP_EVERY_MS: f64 = 100.0;
/// How often the map is repainted while the engines keep up: every other timer
/// frame (30 a second).
const MAP_EVERY_MS: f64 = 30.0;
/// Wall time the map may spend repainting bands past the scanned ones.
const MAP_BUDGET_MS: f64 = 3.0;
/// How often the page hears the figures.
const REPORT_EVERY_MS: f64 = 100.0;
/// How often the latch lanes and flush lists are sent while the clock moves.
const PANELS_EVERY_MS: f64 = 33.0;
/// How often the charts' data is sent while it changes.
const CHARTS_EVERY_MS: f64 = 250.0;
/// Map patches posted and not yet drawn, at most: past this the worker paints no
/// more until the page catches up.
const MAX_UNDRAWN: u32 = 2;

/// A map canvas as the page last described it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct View {
    width: u32,
    dpr: f64,
    dark: bool,
}

impl View {
    /// The map's height in device pixels for a pool of `instances`, as the page's
    /// `canvas::panel::fit` sizes the canvas.
    fn height(&self, instances: u16) -> u32 {
        (ddlscope_map::layout::css_height(instances) * self.dpr).round() as u32
    }
}

/// One engine's drawing state.
#[derive(Debug, Default)]
struct PaneState {
    view: Option<View>,
    pixels: MapPixels,
    /// What the map was last painted for: engine, virtual time, view.
    painted: Option<((u32, u64), Tick, View)>,
    /// When the latch lanes and flush lists were last sent, and for what time.
    panels: Option<(f64, (u32, u64), Tick)>,
    /// When the charts' data was last sent, and what it held.
    charts: Option<(f64, ChartKey)>,
    /// The flush lists' scratch buffer.
    cells: Vec<ddlscope_engine::Cell>,
}

/// What the charts' data was sent for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ChartKey {
    /// The engine: its generation and seek count.
    engine: (u32, u64),
    /// The virtual second.
    second: u64,
    /// The samples taken.
    samples: u64,
    /// The DDL spans, and how many of them are open.
    spans: usize,
    open_spans: usize,
    /// The failovers.
    failovers: usize,
}

/// The worker's engines and what the page knows of them.
#[derive(Debug, Default)]
pub struct Host {
    engines: Option<Engines>,
    panes: Vec<PaneState>,
    replies: Vec<Reply>,
    clock: (bool, f64),
    last_report_ms: Option<f64>,
    last_log: Option<(u32, u64)>,
    last_busy: Option<bool>,
    undrawn: u32,
    handled: u32,
    /// A view came since the last frame: that frame paints before the engines work.
    new_view: bool,
    /// The last frame's engines fell behind the clock (see [`LAGGING_WORK_MS`]).
    lagging: bool,
    /// When the map was last painted, ms.
    last_paint_ms: Option<f64>,
    /// Answers that come once the engines settle (a lesson step opened, a
    /// question's moment reached), taken by the next frame.
    late: Rc<RefCell<Vec<Reply>>>,
    /// The open lesson step's session names with their processlist ids.
    lesson_sessions: Rc<RefCell<Sessions>>,
    timings: HostTimings,
    /// The compare engine's worker, when compare mode runs there (`partner.rs`).
    partner: Option<Partner>,
    /// Whether this worker can start another for the compare engine.
    partner_ok: bool,
    /// Compare engines started in a worker of their own so far: each gets a fresh
    /// worker (a late frame of the one before cannot be taken for its).
    partner_epoch: u32,
    /// The scenario a link or the page carried whole (an Advisor playbook's run,
    /// `ddlscope_moment::own`), kept so that naming it again (another engine, other
    /// settings, chosen again in the select) rebuilds it.
    own_scenario: Option<Box<ddlscope_engine::Scenario>>,
    /// In the compare engine's worker: the main engine's moment it follows.
    follow: Option<Tick>,
    /// An engine opened since the last `Follow`: it goes to that moment by replay.
    fresh: bool,
    /// The frames posted with a map patch, in order: the compare engine's worker's
    /// (true) or this worker's own; the page's `Drawn`s answer them in that order.
    drawn_fifo: VecDeque<bool>,
    /// The main engine's time in the last frame posted.
    last_now: Option<Tick>,
    /// The open lesson's next step, opened ahead (`prefetch.rs`).
    prefetch: Option<Prefetch>,
    /// A copy of the open lesson step running on to its question (`reveal_ahead.rs`).
    reveal_ahead: Option<RevealAhead>,
    /// The Advisor's advice running beside the engines (`advice.rs`).
    advising: Option<advice::Advising>,
}

impl Host {
    /// No engine yet: the first [`Command::Open`] builds one.
    pub fn new() -> Host {
        Host {
            clock: (true, 1.0),
            ..Host::default()
        }
    }

    /// The engines, once opened.
    pub fn engines(&self) -> Option<&Engines> {
        self.engines.as_ref()
    }

    /// Does what `c` asks; answers go out with the next frame.
    pub fn handle(&mut self, c: Command, clock: &dyn Fn() -> f64) {
        self.handled = self.handled.wrapping_add(1);
        if changes_the_step(&c, self.compared()) {
            self.drop_reveal_ahead();
        }
        match c {
            Command::Open {
                scenario,
                own,
                profile,
                knobs,
                generation,
            } => {
                if own.is_some() {
                    self.own_scenario = own;
                }
                if self.follow.is_some() {
                    // The compare engine's worker: a fresh engine, the inputs follow.
                    self.engines = None;
                }
                self.fresh = true;
                let before = self.engines.as_ref().map(|e| e.main().generation());
                self.open(&scenario, &profile, &knobs, generation);
                let after = self.engines.as_ref().map(|e| e.main().generation());
                if after != before {
                    self.restart_partner();
                }
            }
            Command::View {
                pane,
                width,
                dpr,
                dark,
            } if self.partner_view(pane, width, dpr, dark) => {
                let i = usize::from(pane);
                if self.panes.len() <= i {
                    self.panes.resize_with(i + 1, PaneState::default);
                }
                self.panes[i].view = Some(View { width, dpr, dark });
            }
            Command::View {
                pane,
                width,
                dpr,
                dark,
            } => {
                let i = usize::from(pane);
                if self.panes.len() <= i {
                    self.panes.resize_with(i + 1, PaneState::default);
                }
                // The page sends a view when its canvas is new, resized or cleared:
                // the whole map is painted again.
                self.panes[i].view = Some(View { width, dpr, dark });
                self.panes[i].painted = None;
                self.new_view = true;
            }
            Command::Drawn => match self.drawn_fifo.pop_front() {
                Some(true) => self.tell_partner(Command::Drawn),
                _ => self.undrawn = self.undrawn.saturating_sub(1),
            },
            Command::OpenLink { link, generation } => {
                self.open_link(&link.0, generation);
                self.partner = None;
                let compare = self
                    .engines
                    .as_mut()
                    .filter(|e| e.panes.len() > 1 && self.partner_ok);
                if let Some(other) = compare.and_then(|e| e.panes.pop()) {
                    self.start_partner(other.profile());
                }
            }
            Command::OpenLesson {
                ask,
                lesson,
                source,
                step,
                variant,
                seed,
                generation,
            } => {
                let place = StepPick {
                    step: step as usize,
                    variant: variant as usize,
                    seed: seed as usize,
                };
                // A lesson's question reads both engines: its compare engine runs
                // beside the main one.
                self.partner = None;
                self.open_lesson(ask, (&lesson, source.as_deref()), place, generation);
            }
            Command::Clock { playing, speed } => {
                self.clock = (playing, speed);
                if let Some(e) = self.engines.as_mut() {
                    e.set_clock(playing, speed);
                }
                self.tell_partner(Command::Clock { playing, speed });
            }
            Command::Follow { to, inputs } => self.follow(to, inputs),
            Command::Advise { ask, form } => self.advise(ask, &form),
            Command::CancelAdvice => self.cancel_advice(),
            Command::Compare(profile) if self.partner_ok => self.compare_in_partner(profile),
            Command::Inspect {
                ask,
                pane,
                x,
                y,
                width,
            } if self.partner_inspect(ask, pane, (x, y, width)) => {}
            other => self.on_engines(other, clock),
        }
    }

    /// The compare engine's profile, beside the main one or in its own worker.
    fn compared(&self) -> Option<&str> {
        let beside = self.engines.as_ref().and_then(|e| e.panes.get(1));
        beside
            .map(Runner::profile)
            .or(self.partner.as_ref().map(|p| p.profile.as_str()))
    }

    /// A message the worker could not read: the page hears why.
    pub fn refuse(&mut self, error: String) {
        self.handled = self.handled.wrapping_add(1);
        self.replies.push(Reply::Refused(error));
    }

    /// The commands that need the engines; before the first [`Command::Open`] they
    /// are refused (an ask still gets its answer).
    fn on_engines(&mut self, c: Command, clock: &dyn Fn() -> f64) {
        let Some(e) = self.engines.as_mut() else {
            self.replies.extend(unanswerable(c));
            return;
        };
        match c {
            Command::Compare(profile) => {
                if e.panes.get(1).map(Runner::profile) == profile.as_deref() {
                    return;
                }
                let knobs = e.main().knobs().clone();
                if let Err(err) = e.compare(profile.as_deref(), &knobs) {
                    self.replies.push(Reply::CompareFailed(err));
                }
            }
            Command::Connect { ask } => {
                let session = e.connect();
                self.replies.push(Reply::Connected { ask, session });
            }
            Command::Submit { ask, session, sql } => {
                let (result, notice) = console::submit(e, session, &sql);
                self.replies.push(Reply::Submitted { ask, result });
                self.replies.extend(notice.map(Reply::Notice));
            }
            Command::Seek(t) => e.seek_within(t, BUSY_WORK_MS, clock),
            Command::GoTo(t) => e.go_to(t),
            Command::Step(forward) => {
                self.clock.0 = false;
                e.set_clock(false, self.clock.1);
                if forward {
                    e.step_event_within(BUSY_WORK_MS, clock);
                } else {
                    e.step_back_within(BUSY_WORK_MS, clock);
                }
            }
            Command::Link { ask, layout } => {
                let mut state = replay::capture(e, &PanelLayout::default());
                if let Some(p) = &self.partner {
                    state.compare = Some(p.profile.clone());
                }
                state.layout = layout;
                self.replies.push(Reply::Link {
                    ask,
                    encoded: Some(state.encode()),
                    run: state.run_key(),
                });
            }
            Command::Poster {
                ask,
                width,
                dpr,
                dark,
            } => self.replies.push(Reply::Poster {
                ask,
                result: poster(e.main(), View { width, dpr, dark }),
            }),
            Command::Export { ask, kind } => self.replies.push(Reply::Exported {
                ask,
                result: Ok(kind.file(e.main())),
            }),
            Command::Inspect {
                ask,
                pane,
                x,
                y,
                width,
            } => {
                let text = e
                    .panes
                    .get(usize::from(pane))
                    .and_then(|r| tooltip(r, x, y, width));
                self.replies.push(Reply::Inspected { ask, text });
            }
            Command::Reveal {
                ask,
                lesson,
                source,
                step,
            } => self.reveal(ask, (&lesson, source.as_deref()), step as usize),
            Command::Open { .. }
            | Command::OpenLink { .. }
            | Command::OpenLesson { .. }
            | Command::View { .. }
            | Command::Drawn
            | Command::Clock { .. }
            | Command::Follow { .. }
            | Command::Advise { .. }
            | Command::CancelAdvice => {}
        }
    }

    /// Opens the moment `link` describes in place of any engines running, replayed
    /// to its tick a slice a frame (`model::replay::open`); one that cannot be
    /// opened is said why, and the default scenario opens instead (as on the page).
    fn open_link(&mut self, link: &LinkState, generation: u32) {
        self.prefetch = None;
        self.reveal_ahead = None;
        if link.own.is_some() {
            self.own_scenario = link.own.clone();
        }
        match replay::open(link, generation) {
            Ok(engines) => {
                self.clock = engines.main().clock();
                self.engines = Some(engines);
            }
            Err(error) => {
                self.replies.push(Reply::LinkFailed(unopenable(&error)));
                self.engines = None;
                self.open(
                    DEFAULT_SCENARIO,
                    DEFAULT_PROFILE,
                    &Knobs::default(),
                    generation,
                );
            }
        }
    }

    fn open(&mut self, scenario: &str, profile: &str, knobs: &crate::model::knobs::Knobs, g: u32) {
        let own = self.own_scenario.as_deref().filter(|o| o.name == scenario);
        let Some(e) = self.engines.as_mut() else {
            match Runner::starting(scenario, own, profile, knobs, g) {
                Ok(mut r) => {
                    r.set_clock(self.clock.0, self.clock.1);
                    self.engines = Some(Engines::new(r));
                }
                Err(error) => self.replies.push(Reply::RestartFailed {
                    error: crate::model::knobs::Knobs::refused(&error),
                    scenario: scenario.to_string(),
                    profile: profile.to_string(),
                    knobs: knobs.clone(),
                }),
            }
            return;
        };
        match restart(e, scenario, own, profile, knobs, g) {
            Restarted::Same => {}
            Restarted::New {
                notice,
                compare_failed,
            } => {
                // Out of the lesson (another scenario, engine or setting): its next
                // step will not be asked for, nor its question.
                self.prefetch = None;
                self.reveal_ahead = None;
                self.replies.extend(notice.map(Reply::Notice));
                self.replies
                    .extend(compare_failed.map(Reply::CompareFailed));
            }
            Restarted::Failed {
                error,
                scenario,
                profile,
                knobs,
            } => self.replies.push(Reply::RestartFailed {
                error,
                scenario,
                profile,
                knobs,
            }),
        }
    }

    /// Steps and digests the engines, unless the page has just asked for a map
    /// (painted first: the first map of a page, or a resized one, waits for no
    /// build slice) or the first engines still wait for the page's first view.
    /// Whether the page had asked for a map.
    fn work(
        &mut self,
        dt_ms: f64,
        now_ms: f64,
        clock: &dyn Fn() -> f64,
        lap: &mut Lap<'_>,
    ) -> bool {
        let new_view = std::mem::take(&mut self.new_view);
        let Some(e) = self.engines.as_mut() else {
            return new_view;
        };
        let first_map = self.last_paint_ms.is_none() && now_ms < FIRST_MAP_WINDOW_MS;
        let budget = work_budget(e.busy().is_some(), self.lagging, first_map);
        let viewless = self.panes.iter().all(|p| p.view.is_none());
        let wait_for_view = first_map && viewless && now_ms < FIRST_VIEW_WAIT_MS;
        let started_ms = clock();
        if !new_view && !wait_for_view {
            self.lagging = match self.follow {
                Some(to) => e.follow(to, dt_ms, budget, clock),
                None => e.advance(dt_ms, budget, clock),
            };
        }
        lap.to(phase::ADVANCE);
        for r in &mut e.panes {
            r.digest();
        }
        lap.to(phase::DIGEST);
        let spare_ms = (WORK_MS - (clock() - started_ms)).max(0.0);
        self.work_ahead(spare_ms, clock);
        new_view
    }

    /// Counts a frame that carries a map patch (the page says when it has put it);
    /// whether this one does.
    fn count_drawn(&mut self, panes: &[PaneFrame], now_ms: f64) -> bool {
        let drew = panes.iter().any(|p| p.map.is_some());
        self.undrawn += u32::from(drew);
        if drew {
            self.last_paint_ms = Some(now_ms);
            self.drawn_fifo.push_back(false);
        }
        drew
    }

    /// One timer frame, `dt_ms` of wall time after the last, at `now_ms` on `clock`:
    /// steps the engines, paints what changed, and returns the frame with each
    /// pane's repainted rows (RGBA), or `None` when there is nothing new to tell.
    pub fn frame(
        &mut self,
        dt_ms: f64,
        now_ms: f64,
        clock: &dyn Fn() -> f64,
    ) -> Option<(Frame, Vec<Vec<u8>>)> {
        self.work_advice(clock);
        let mut replies = std::mem::take(&mut self.replies);
        self.bound_by_partner();
        if self.engines.is_none() {
            return (!replies.is_empty()).then(|| {
                let frame = Frame {
                    replies,
                    handled: self.handled,
                    ..Frame::default()
                };
                (frame, Vec::new())
            });
        }
        let mut lap = Lap::new(clock);
        let new_view = self.work(dt_ms, now_ms, clock, &mut lap);
        replies.append(&mut self.late.borrow_mut());
        self.pause_at_mark(&mut replies);
        self.lead_partner();
        let partner_busy = self.partner_busy();
        let partner_pane = self.partner_pane();
        // Still there: nothing above drops the engines.
        let e = self.engines.as_mut()?;
        let busy = e.busy().is_some() || partner_busy;
        let report = self
            .last_report_ms
            .is_none_or(|t| now_ms - t >= REPORT_EVERY_MS);
        let main = e.main();
        let version = (main.generation(), main.log_version());
        let log = (self.last_log != Some(version)).then(|| {
            self.last_log = Some(version);
            main.log()
        });
        // The frame where the engines settle (a build or a replay done) carries the
        // figures of that moment: the page's clock must not lag its `ready`.
        let busy_changed = self.last_busy.replace(busy) != Some(busy);
        let report = report || log.is_some() || busy_changed;
        if report {
            self.last_report_ms = Some(now_ms);
        }
        if self.panes.len() < e.panes.len() {
            self.panes.resize_with(e.panes.len(), PaneState::default);
        }
        let mut pixels = Vec::new();
        let mut panes = Vec::new();
        let paint = self.undrawn < MAX_UNDRAWN
            && (new_view || paint_due(self.last_paint_ms, now_ms, self.lagging));
        let due = Due {
            paint,
            report,
            lagging: self.lagging,
            first_paint: self.last_paint_ms.is_none(),
            now_ms,
        };
        for (r, state) in e.panes.iter().zip(&mut self.panes) {
            let (pane, rows) = pane_frame(r, state, &due, &mut lap, clock);
            panes.push(pane);
            pixels.push(rows);
        }
        let apart = partner_pane.is_some();
        if let Some(p) = partner_pane {
            pixels.push(Vec::new());
            panes.push(p);
        }
        self.timings.record(now_ms, clock() - now_ms, &lap.phase);
        let timings = self.timings.due(now_ms, e).map(|mut t| {
            if apart {
                t.engines += 1;
                t.workers += 1;
            }
            t
        });
        let now = e.main().sim().now();
        let generation = e.main().generation();
        let drew = self.count_drawn(&panes, now_ms);
        let moved = self.last_now.replace(now) != Some(now);
        let panels = panes
            .iter()
            .any(|p| p.latches.is_some() || p.charts.is_some());
        // The compare engine's worker tells the main engine's every moment it reaches.
        let moved = moved && self.follow.is_some();
        let quiet = !report && !drew && !panels && !busy_changed && !moved && timings.is_none();
        if quiet && replies.is_empty() {
            return None;
        }
        let frame = Frame {
            generation,
            busy,
            handled: self.handled,
            now,
            panes,
            log,
            replies,
            timings,
        };
        Some((frame, pixels))
    }
}

/// What a timer frame sends of each pane.
struct Due {
    /// The map, repainted where it changed.
    paint: bool,
    /// The figures (a snapshot).
    report: bool,
    /// The engines fall behind the clock: the panels go less often.
    lagging: bool,
    /// No map painted yet: the first goes alone.
    first_paint: bool,
    /// The frame's wall time, ms.
    now_ms: f64,
}

/// Runner `r`'s pane in this frame: its map patch (and the patch's rows, RGBA),
/// panels, charts and snapshot, as `due` asks and as they fall due, each phase
/// timed on `lap`.
fn pane_frame(
    r: &Runner,
    state: &mut PaneState,
    due: &Due,
    lap: &mut Lap<'_>,
    clock: &dyn Fn() -> f64,
) -> (PaneFrame, Vec<u8>) {
    let map = if due.paint {
        paint_pane(r, state, !due.report, clock)
    } else {
        None
    };
    let rows = map.as_ref().map_or_else(Vec::new, |(_, rows)| rows.clone());
    // The page's first map goes alone: the panels and charts (due still) come with
    // the next frame, a timer's tick later.
    let map_alone = map.is_some() && due.first_paint;
    lap.to(phase::MAP);
    let (latches, flush) = if map_alone {
        (None, None)
    } else {
        panels_due(r, state, due.now_ms, due.lagging)
    };
    lap.to(phase::PANELS);
    let charts = if map_alone {
        None
    } else {
        charts_due(r, state, due.now_ms)
    };
    lap.to(phase::CHARTS);
    let snapshot = due.report.then(|| r.snapshot());
    lap.to(phase::SNAPSHOT);
    let pane = PaneFrame {
        instances: r.sim().pool().n_instances(),
        snapshot,
        map: map.map(|(patch, _)| patch),
        latches,
        flush,
        charts,
    };
    (pane, rows)
}

/// The wall time a timer frame gives the engines: a build's or a replay's slice
/// (short while the worker's `first_map` is still to paint), a lagging run's, or a
/// playing one's.
fn work_budget(busy: bool, lagging: bool, first_map: bool) -> f64 {
    match (busy, lagging) {
        (true, _) if first_map => FIRST_MAP_WORK_MS,
        (true, _) => BUSY_WORK_MS,
        (false, true) => LAGGING_WORK_MS,
        (false, false) => WORK_MS,
    }
}

/// Whether a map last painted at `last_ms` is due again at `now_ms`
/// ([`MAP_EVERY_MS`], or [`LAGGING_MAP_EVERY_MS`] while the engines lag).
fn paint_due(last_ms: Option<f64>, now_ms: f64, lagging: bool) -> bool {
    let every = if lagging {
        LAGGING_MAP_EVERY_MS
    } else {
        MAP_EVERY_MS
    };
    last_ms.is_none_or(|t| now_ms - t >= every)
}

/// Whether `c` changes what the open lesson step's engines reach at its question's
/// moment (an input, a seek, a step, another compare engine than `compared`), so
/// that its copy run ahead (`reveal_ahead.rs`) no longer shows it. Looking (a view,
/// a link, an export, a tooltip, the Advisor beside) and the clock (play, pause,
/// speed: the engine reaches the same state at a tick however fast) do not, nor
/// does asking for the compare engine running (the page does, hearing a step
/// opened in compare mode). A restart that changes the server and an opened link
/// or step drop the copy where they are done (an `Open` asking for what runs
/// changes nothing); a reveal takes or drops it.
fn changes_the_step(c: &Command, compared: Option<&str>) -> bool {
    match c {
        Command::Compare(profile) => profile.as_deref() != compared,
        Command::Connect { .. }
        | Command::Submit { .. }
        | Command::Seek(_)
        | Command::GoTo(_)
        | Command::Step(_)
        | Command::Follow { .. } => true,
        Command::Open { .. }
        | Command::OpenLink { .. }
        | Command::OpenLesson { .. }
        | Command::Reveal { .. }
        | Command::View { .. }
        | Command::Drawn
        | Command::Clock { .. }
        | Command::Link { .. }
        | Command::Poster { .. }
        | Command::Export { .. }
        | Command::Inspect { .. }
        | Command::Advise { .. }
        | Command::CancelAdvice => false,
    }
}

/// The answer to an ask that came before the first engine, if it is one.
fn unanswerable(c: Command) -> Option<Reply> {
    let none = "Not done: no server is running yet.";
    match c {
        Command::Submit { ask, .. } => Some(Reply::Submitted {
            ask,
            result: Err("Not sent: no server is running yet.".to_string()),
        }),
        Command::Link { ask, .. } => Some(Reply::Link {
            ask,
            encoded: None,
            run: None,
        }),
        Command::Poster { ask, .. } => Some(Reply::Poster {
            ask,
            result: Err(none.to_string()),
        }),
        Command::Export { ask, .. } => Some(Reply::Exported {
            ask,
            result: Err(none.to_string()),
        }),
        Command::Inspect { ask, .. } => Some(Reply::Inspected { ask, text: None }),
        Command::Reveal { ask, .. } => Some(Reply::Revealed {
            ask,
            seen: Err(none.to_string()),
        }),
        _ => None,
    }
}

/// The latch lanes and flush lists of `r`, when its clock moved and they were not
/// sent in the last [`PANELS_EVERY_MS`] (while the engines lag, as often as the map:
/// [`LAGGING_MAP_EVERY_MS`]).
fn panels_due(
    r: &Runner,
    state: &mut PaneState,
    now_ms: f64,
    lagging: bool,
) -> (
    Option<crate::model::panels::LatchView>,
    Option<crate::model::panels::FlushView>,
) {
    let engine = (r.generation(), r.seeks());
    let now = r.sim().now();
    let every = if lagging {
        LAGGING_MAP_EVERY_MS
    } else {
        PANELS_EVERY_MS
    };
    let due = state
        .panels
        .is_none_or(|(at, e, t)| e != engine || (t != now && now_ms - at >= every));
    if !due {
        return (None, None);
    }
    state.panels = Some((now_ms, engine, now));
    let (walks, counts) = r.flush_walks();
    (
        Some(latch_view(r.sim(), r.latch_spans())),
        Some(flush_view(r.sim(), walks, counts, &mut state.cells)),
    )
}

/// The charts' data of `r`, when it changed and was not sent in the last
/// [`CHARTS_EVERY_MS`].
fn charts_due(
    r: &Runner,
    state: &mut PaneState,
    now_ms: f64,
) -> Option<crate::model::panels::ChartData> {
    let spans = r.ddl_spans();
    let key = ChartKey {
        engine: (r.generation(), r.seeks()),
        second: r.sim().now().as_secs(),
        samples: r.sim().sample_count(),
        spans: spans.len(),
        open_spans: spans.iter().filter(|s| s.t1.is_none()).count(),
        failovers: r.failovers().len(),
    };
    let due = state.charts.is_none_or(|(at, k)| {
        k.engine != key.engine || (k != key && now_ms - at >= CHARTS_EVERY_MS)
    });
    if !due {
        return None;
    }
    state.charts = Some((now_ms, key));
    Some(chart_data(r))
}

/// The most bytes a poster's pixels may take: well within a message
/// ([`MAX_MESSAGE`](crate::model::remote::protocol::MAX_MESSAGE)).
const POSTER_MAX_BYTES: usize = 12 << 20;

/// Runner `r`'s map of its moment painted whole for `view` (the Share dialog's
/// poster): the patch of every band and its pixels, or why not.
fn poster(r: &Runner, view: View) -> Result<(MapPatch, Vec<u8>), String> {
    let height = view.height(r.sim().pool().n_instances());
    let bytes = view.width as usize * height as usize * 4;
    if view.width == 0 || height == 0 || !(0.5..=4.0).contains(&view.dpr) {
        return Err(format!(
            "no poster of {}×{} px at {}×",
            view.width, height, view.dpr
        ));
    }
    if bytes > POSTER_MAX_BYTES {
        return Err(format!(
            "a poster of {}×{} px is too large ({} MB; at most {} MB): make the map narrower",
            view.width,
            height,
            bytes >> 20,
            POSTER_MAX_BYTES >> 20
        ));
    }
    let mut state = PaneState {
        view: Some(view),
        ..PaneState::default()
    };
    paint_pane(r, &mut state, true, &|| 0.0)
        .filter(|(patch, _)| patch.complete)
        .ok_or_else(|| "the map could not be painted".to_string())
}

/// Repaints runner `r`'s map if its engine, time or view changed since the last
/// paint; returns the patch and its rows' bytes. With `full_frame` false (a frame
/// that also reports the figures) only the scanned bands are sure to be repainted.
fn paint_pane(
    r: &Runner,
    state: &mut PaneState,
    full_frame: bool,
    clock: &dyn Fn() -> f64,
) -> Option<(MapPatch, Vec<u8>)> {
    let view = state.view?;
    let height = view.height(r.sim().pool().n_instances());
    if view.width == 0 || height == 0 {
        return None;
    }
    let engine = (r.generation(), r.seeks());
    let now = r.sim().now();
    let key = (engine, now, view);
    // Painted for this moment, every band of it: nothing to do. A band left behind
    // by a frame's budget is painted by the next frames, the clock moving or not.
    if state.painted == Some(key) && state.pixels.complete_at(now) {
        return None;
    }
    if state
        .painted
        .is_none_or(|(e, _, v)| e != engine || v != view)
    {
        state.pixels.invalidate();
    }
    state.painted = Some(key);
    let theme = if view.dark { Theme::DARK } else { Theme::LIGHT };
    let ask = PaintAsk {
        width: view.width,
        height,
        dpr: view.dpr,
        theme: &theme,
        budget_ms: if full_frame { MAP_BUDGET_MS } else { 0.0 },
        extra: full_frame,
    };
    let painted = state.pixels.paint(r.sim(), r.scans(), &ask, clock);
    if !painted.full && painted.bands.is_empty() {
        return None;
    }
    let layout = ddlscope_map::Layout::new(r.sim().pool().n_instances(), view.width, view.dpr);
    let regions = painted.regions(&layout, height);
    let rgba = state.pixels.rgba();
    let row = view.width as usize * 4;
    let mut rows = Vec::new();
    for &(a, b) in &regions {
        rows.extend_from_slice(&rgba[a as usize * row..b as usize * row]);
    }
    let patch = MapPatch {
        width: view.width,
        height,
        dpr: view.dpr,
        regions,
        bands: painted.bands,
        infos: band_infos(r.sim()),
        scans: r.scans().to_vec(),
        now,
        engine,
        complete: state.pixels.complete_at(now),
    };
    Some((patch, rows))
}

mod advice;
mod lesson;
mod partner;
mod prefetch;
mod reveal_ahead;
mod timings;

use partner::Partner;
use prefetch::Prefetch;
use reveal_ahead::RevealAhead;

use timings::{phase, HostTimings, Lap};

#[cfg(test)]
mod asks;
#[cfg(test)]
mod tests;
