//! The page's animation loop (on [`RafLoop`]): the engines run in the worker, so no
//! stepping and no pixel work here. Each animation frame tells the worker the
//! map canvases' sizes when they change, takes the frames that arrived, puts each
//! map patch's rows on its canvas (straight from the transferred buffer) with the
//! labels and cursors over them, and hands the news to the reducer.
//!
//! The flush lists, latch lanes and charts are drawn from the data the frames carry
//! (`model::panels`), with the painters of `flush_list.rs`, `latch_lanes.rs` and
//! `chart/`.

use crate::canvas::chart::{self, ChartSlot};
use crate::canvas::css_width::css_width_now;
use crate::canvas::debug_overlay::PageTimings;
use crate::canvas::flush_list;
use crate::canvas::frame_stages::{FrameStages, Stage, Stages};
use crate::canvas::host_scale::device_px_per_css;
use crate::canvas::latch_lanes;
use crate::canvas::pane_canvases::Canvases;
use crate::canvas::pool_map::{self, draw_overlays, Overlay};
use crate::canvas::raf::{RafLoop, Repeat};
use crate::canvas::theme::{dark_theme, Theme};
use crate::model::remote::mirror::FreshPanels;
use crate::model::remote::protocol::{Command, MapPatch, Reply};
use crate::model::snapshot::StampedNews;
use crate::model::state::Action;
use crate::worker::client::{Answer, Remote};
use crate::worker::perf_marks::{self, now_ms};
use ddlscope_map::Layout;
use js_sys::{Uint8Array, Uint8ClampedArray};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{HtmlCanvasElement, ImageData};
use yew::{Callback, NodeRef};

/// What a map canvas was last described to the worker as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ViewKey {
    /// The canvas's width, device px.
    width: u32,
    /// The device pixel ratio's bits.
    dpr_bits: u64,
    /// The dark theme.
    dark: bool,
}

/// What one of a pane's other canvases was last drawn at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PanelKey {
    /// Its size, device px.
    size: (u32, u32),
    /// The dark theme.
    dark: bool,
}

/// What a frame's panels are drawn with.
#[derive(Clone, Copy, Debug)]
struct Look<'a> {
    theme: &'a Theme,
    dpr: f64,
}

/// Whether a frame may draw a canvas for the first time (see [`which_to_draw`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DrawRoom {
    /// The dark theme.
    dark: bool,
    /// The frame has room for a first draw.
    room: bool,
}

/// Which of the first map's frames this is (see [`Held`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FirstFrames {
    /// The frame began before any map was put.
    before_map: bool,
    /// The frame drew the first map's labels.
    labels_frame: bool,
}

/// Where the loop tells the page what happened.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameOutputs {
    /// The news, for the reducer.
    pub on_news: Callback<StampedNews>,
    /// What the page should say or undo.
    pub on_action: Callback<Action>,
}

/// A pane's canvases other than the map, in [`PanelKey`]s' order.
const PANEL_CANVASES: usize = 5;

/// How long the page's first news may wait for the first map, ms from the loop's start.
const HOLD_FIRST_MS: f64 = 1500.0;

/// Work a frame may have done (map patches put, a layout a newly mounted part of
/// the page forced) before a canvas's first draw waits for the next frame, ms: a
/// panel drawn for the first time (its code compiled as it is called) would make
/// one long task of the two. (The panels' and news' own stages: `frame_stages`.)
const PANELS_ROOM_MS: f64 = 12.0;

/// The style, layout and paint a render of the news leaves to the next animation
/// frame, ms of the page's thread (2–3 ms each at 1 M pages, measured in traces):
/// counted as work that frame has already done, so its panels' stages wait.
const NEWS_LIFECYCLE_MS: f64 = 8.0;

/// The news and the answers a frame leaves to the news' task.
#[derive(Default)]
struct ToRender {
    news: Vec<StampedNews>,
    answered: Vec<(Answer, Reply)>,
}

/// The news' own task: a channel whose message the page's thread takes after the
/// animation frame that posted it, and the closure that renders the news then.
struct NewsTask {
    channel: web_sys::MessageChannel,
    _on_message: Closure<dyn FnMut(JsValue)>,
}

/// What the page's first frames leave for later: the news for Yew, the answers and
/// the panels to draw, held until the frame after the one that drew the first map's
/// labels, itself the frame after its pixels (not at all on a page without a map,
/// [`HOLD_FIRST_MS`] at most). The first map is shown in the frame it came, its
/// text in the next, and the page's first big render after them. (Stages that wait
/// leave theirs here too, and each frame gathers what came into one, starting from
/// what was held: [`PageLoop::take_arrivals`].)
#[derive(Default)]
struct Held {
    news: Vec<StampedNews>,
    answered: Vec<(Answer, Reply)>,
    panels: Vec<FreshPanels>,
}

/// The loop's state between frames.
struct PageLoop {
    remote: Rc<Remote>,
    canvases: Vec<Canvases>,
    out: FrameOutputs,
    debug: Option<NodeRef>,
    timings: RefCell<PageTimings>,
    views: RefCell<Vec<Option<ViewKey>>>,
    panel_keys: RefCell<Vec<[Option<PanelKey>; PANEL_CANVASES]>>,
    stopped: Cell<bool>,
    ready: Cell<bool>,
    busy: Cell<bool>,
    drawn_any: Cell<bool>,
    held: RefCell<Held>,
    /// The news and answers a frame handed to the news' task ([`NewsTask`]).
    to_render: RefCell<ToRender>,
    news_task: RefCell<Option<NewsTask>>,
    /// The news' task rendered since the last frame (its layout is that frame's),
    /// and how long it worked (the `?debug=1` overlay's news phase).
    news_rendered: Cell<Option<f64>>,
    /// The first map's labels and cursors, drawn the frame after its pixels (their
    /// text is the page's first, and finding its font takes the browser a while):
    /// the pane and its patch.
    owed_labels: RefCell<Vec<(usize, MapPatch)>>,
    /// How long the panels' and news' stages have waited (`frame_stages`).
    stages: Cell<Stages>,
    /// The last frame left a canvas's first draw to this one (never two running).
    first_draw_waited: Cell<bool>,
    started_ms: f64,
    dark_query: Option<web_sys::MediaQueryList>,
}

/// The running loop; dropping it stops it.
pub struct FrameLoop {
    inner: Rc<PageLoop>,
    _raf: RafLoop,
}

impl std::fmt::Debug for FrameLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameLoop").finish_non_exhaustive()
    }
}

impl FrameLoop {
    /// Starts drawing `remote`'s frames into `canvases` (engine `i` into
    /// `canvases[i]`), telling `out` the news and what the page should say; with
    /// `debug`, the overlay element gets the page's frame timings and the worker's.
    pub fn start(
        remote: Rc<Remote>,
        canvases: Vec<Canvases>,
        debug: Option<NodeRef>,
        out: FrameOutputs,
    ) -> FrameLoop {
        let dark_query = gloo::utils::window()
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten();
        let inner = Rc::new(PageLoop {
            remote,
            canvases,
            out,
            debug,
            timings: RefCell::default(),
            views: RefCell::new(Vec::new()),
            panel_keys: RefCell::new(Vec::new()),
            stopped: Cell::new(false),
            ready: Cell::new(false),
            busy: Cell::new(false),
            drawn_any: Cell::new(false),
            held: RefCell::default(),
            to_render: RefCell::default(),
            news_task: RefCell::new(None),
            news_rendered: Cell::new(None),
            owed_labels: RefCell::default(),
            stages: Cell::default(),
            first_draw_waited: Cell::new(false),
            started_ms: now_ms(),
            dark_query,
        });
        *inner.news_task.borrow_mut() = NewsTask::new(Rc::downgrade(&inner));
        // The first map is asked for now, in the effect after the page's first
        // render (only the map's pane, see `ui::mount`: its layout is a few nodes'),
        // not a frame later: the worker paints it while the page mounts the rest.
        let dark = dark_theme(inner.dark_query.as_ref());
        inner.describe_views(device_px_per_css(), dark);
        let weak = Rc::downgrade(&inner);
        let raf = RafLoop::start(move || match weak.upgrade() {
            Some(inner) => inner.frame(),
            None => Repeat::Stop,
        });
        FrameLoop { inner, _raf: raf }
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        self.inner.stopped.set(true);
        if let Some(task) = self.inner.news_task.borrow_mut().take() {
            task.channel.port1().set_onmessage(None);
        }
    }
}

impl NewsTask {
    /// A channel whose messages render `inner`'s news; `None` where the browser
    /// gives no channel (the news are then rendered in the frame).
    fn new(inner: std::rc::Weak<PageLoop>) -> Option<NewsTask> {
        let channel = web_sys::MessageChannel::new().ok()?;
        let on_message = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            if let Some(inner) = inner.upgrade() {
                inner.render_news();
            }
        });
        channel
            .port1()
            .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Some(NewsTask {
            channel,
            _on_message: on_message,
        })
    }
}

impl PageLoop {
    /// One animation frame: what arrived from the worker put on the canvases and
    /// handed to the page, in stages.
    fn frame(&self) -> Repeat {
        if self.stopped.get() {
            return Repeat::Stop;
        }
        let started = now_ms();
        let mut phase = [0.0; 3];
        // The news' render since the last frame left its style, layout and paint
        // to this one: the stages count them as done.
        let rendered = self.news_rendered.take();
        phase[2] = rendered.unwrap_or(0.0);
        let room_from = started - rendered.map_or(0.0, |_| NEWS_LIFECYCLE_MS);
        let dark = dark_theme(self.dark_query.as_ref());
        let theme = Theme::for_scheme(dark);
        let dpr = device_px_per_css();
        self.describe_views(dpr, dark);
        let mut came = self.held.take();
        came.panels
            .resize(self.canvases.len(), FreshPanels::default());
        let before_map = !self.drawn_any.get();
        let labels_frame = self.draw_owed_labels(None, &theme);
        phase[0] = self.take_arrivals(&mut came, &theme);
        if self.stop_if_failed() {
            return Repeat::Stop;
        }
        self.set_page_flags(false);
        let first = FirstFrames {
            before_map,
            labels_frame,
        };
        if self.holds_first_frames(first, started, &mut came) {
            return Repeat::Again;
        }
        let panels_started = now_ms();
        let mut stages = self.stages.get();
        let mut this_frame = stages.frame();
        let first_draw_waited = self.draw_panel_stages(
            &mut this_frame,
            &came.panels,
            Look { theme: &theme, dpr },
            room_from,
        );
        self.first_draw_waited.set(first_draw_waited);
        phase[1] = now_ms() - panels_started;
        // The news, the page's ready and settled flags with them (the figures they
        // promise are the news').
        let any_news = !came.news.is_empty() || !came.answered.is_empty();
        let news_go = this_frame.runs(Stage::News, any_news, now_ms() - room_from);
        self.stages.set(stages);
        if news_go {
            if let Some(ms) = self.hand_over_news(came.news, came.answered) {
                phase[2] = ms;
            }
        } else {
            let mut held = self.held.borrow_mut();
            held.news = came.news;
            held.answered = came.answered;
        }
        self.show_debug(started, now_ms() - started, &phase);
        Repeat::Again
    }

    /// Takes the frames that arrived from the worker: puts their map patches, and
    /// adds their news, answers and fresh panels to `came` (the page's actions are
    /// said at once). How long putting the patches took, ms.
    fn take_arrivals(&self, came: &mut Held, theme: &Theme) -> f64 {
        let mut put_ms = 0.0;
        for arrived in self.remote.take_arrived() {
            let put_started = now_ms();
            let got = self.remote.mirror.borrow_mut().receive(arrived.frame);
            let drew = self.put_patches(&got.patches, &arrived.pixels, theme);
            if !got.patches.is_empty() {
                self.remote.send(&Command::Drawn);
            }
            put_ms += now_ms() - put_started;
            if drew {
                perf_marks::once(perf_marks::PAGE_FIRST_MAP);
            }
            self.drawn_any.set(self.drawn_any.get() || drew);
            for &(pane, fresh) in &got.panels {
                if let Some(f) = came.panels.get_mut(pane) {
                    f.merge(fresh);
                }
            }
            let generation = got.generation;
            came.news.extend(
                got.news
                    .into_iter()
                    .map(|news| StampedNews { generation, news }),
            );
            came.answered.extend(got.answered);
            for a in got.actions {
                self.out.on_action.emit(a);
            }
        }
        put_ms
    }

    /// When the worker has failed, stops the loop: before its first frame the page
    /// says the simulation cannot start, after it says why it stopped. Whether it
    /// stopped.
    fn stop_if_failed(&self) -> bool {
        let Some(why) = self.remote.failure() else {
            return false;
        };
        self.stopped.set(true);
        gloo::console::error!(why.clone());
        if self.remote.mirror.borrow().heard {
            self.out.on_action.emit(Action::Notice(why));
        } else {
            self.out.on_action.emit(Action::CannotStart(why));
        }
        true
    }

    /// In the first map's frames (see [`Held`]: the frame that put its pixels,
    /// begun `before_map` on a page that shows one, and the `labels_frame` that drew
    /// its text), for at most [`HOLD_FIRST_MS`], keeps what `came` for the frame
    /// after. Whether it did.
    fn holds_first_frames(&self, first: FirstFrames, started: f64, came: &mut Held) -> bool {
        let map_shown = self
            .canvases
            .iter()
            .any(|c| c.map.cast::<HtmlCanvasElement>().is_some());
        let first_frames = (first.before_map && map_shown) || first.labels_frame;
        let hold = first_frames && started - self.started_ms < HOLD_FIRST_MS;
        if hold {
            *self.held.borrow_mut() = std::mem::take(came);
        }
        hold
    }

    /// Gives the news and answers to the news' task ([`NewsTask`]), or renders them
    /// now where there is none: then how long that took, ms.
    fn hand_over_news(
        &self,
        news: Vec<StampedNews>,
        answered: Vec<(Answer, Reply)>,
    ) -> Option<f64> {
        {
            let mut to_render = self.to_render.borrow_mut();
            to_render.news.extend(news);
            to_render.answered.extend(answered);
        }
        let posted = self
            .news_task
            .borrow()
            .as_ref()
            .is_some_and(|t| t.channel.port2().post_message(&JsValue::NULL).is_ok());
        if posted {
            return None;
        }
        self.render_news();
        Some(self.news_rendered.take().unwrap_or(0.0))
    }

    /// Hands the news and answers a frame left to Yew's reducer, with the page's
    /// ready and settled flags, in a task of their own after that frame: Yew's
    /// render runs here, and the style, layout and paint it causes in the next
    /// animation frame, so no task does the frame's drawing, the render and its
    /// layout at once.
    fn render_news(&self) {
        if self.stopped.get() {
            return;
        }
        let ToRender { news, answered } = self.to_render.take();
        if news.is_empty() && answered.is_empty() {
            return;
        }
        let started = now_ms();
        self.set_page_flags(true);
        for n in news {
            self.out.on_news.emit(n);
        }
        for (answer, reply) in answered {
            answer(reply);
        }
        self.news_rendered.set(Some(now_ms() - started));
    }

    /// The flush lists and latch lanes, then the charts, of every pane whose data
    /// came (`fresh_panels`), each stage in this frame (begun at `started`) or held
    /// for a later one as `this_frame` decides. Whether a canvas's first draw
    /// waited.
    fn draw_panel_stages(
        &self,
        this_frame: &mut FrameStages<'_>,
        fresh_panels: &[FreshPanels],
        look: Look<'_>,
        started: f64,
    ) -> bool {
        let mut first_draw_waited = false;
        for stage in [Stage::Lanes, Stage::Charts] {
            let came = |f: &FreshPanels| match stage {
                Stage::Lanes => f.lanes,
                _ => f.charts,
            };
            let pending = fresh_panels.iter().any(came);
            let runs = this_frame.runs(stage, pending, now_ms() - started);
            let mut held = self.held.borrow_mut();
            held.panels
                .resize(self.canvases.len(), FreshPanels::default());
            for (pane, flags) in fresh_panels.iter().enumerate() {
                let now = runs && came(flags);
                // The canvases resized, re-themed or never drawn are drawn with the
                // lanes' stage (a first draw only when the frame has room).
                if stage == Stage::Lanes {
                    let room = now_ms() - started <= PANELS_ROOM_MS || self.first_draw_waited.get();
                    let fresh = FreshPanels {
                        lanes: now,
                        charts: false,
                    };
                    first_draw_waited |= self.draw_panels(pane, fresh, look, room);
                } else if now {
                    let fresh = FreshPanels {
                        lanes: false,
                        charts: true,
                    };
                    first_draw_waited |= self.draw_panels(pane, fresh, look, false);
                }
                if came(flags) && !runs {
                    let h = &mut held.panels[pane];
                    if stage == Stage::Lanes {
                        h.lanes = true;
                    } else {
                        h.charts = true;
                    }
                }
            }
        }
        first_draw_waited
    }

    /// Puts a frame's map `patches` (pane, patch) from its `pixels` and draws their
    /// labels, the first map's a frame later ([`PageLoop::draw_owed_labels`]).
    /// Whether any was put.
    fn put_patches(
        &self,
        patches: &[(usize, MapPatch)],
        pixels: &[Uint8Array],
        theme: &Theme,
    ) -> bool {
        let first_map = !self.drawn_any.get();
        let mut drew = false;
        for (pane, patch) in patches {
            let (Some(c), Some(px)) = (self.canvases.get(*pane), pixels.get(*pane)) else {
                continue;
            };
            if !first_map {
                // A second patch in the first map's frame: the first's labels go
                // under it, not over its own a frame later.
                self.draw_owed_labels(Some(*pane), theme);
            }
            let put = put_patch(&c.map, patch, px);
            if put && first_map {
                self.owed_labels.borrow_mut().push((*pane, patch.clone()));
            } else if put {
                draw_labels(&c.map, patch, theme);
            }
            drew |= put;
        }
        drew
    }

    /// The page's `data-ready` (once: the first map drawn, the engines settled) and
    /// `data-busy` (while the engines build, replay or catch up) on its body. Only
    /// with the news (`with_news`) does the page say it is ready or settled (the
    /// figures those promise are the news'); once ready, it says it is busy the
    /// frame the worker says so, whichever stage waits.
    fn set_page_flags(&self, with_news: bool) {
        let (heard, busy) = {
            let m = self.remote.mirror.borrow();
            (m.heard, m.busy)
        };
        let settled = heard && !busy;
        if !with_news && (settled || !self.ready.get()) {
            return;
        }
        if self.drawn_any.get() && settled && !self.ready.replace(true) {
            if let Some(body) = gloo::utils::document().body() {
                let _ = body.dataset().set("ready", "1");
            }
        }
        let unsettled = !settled;
        if self.busy.replace(unsettled) != unsettled {
            if let Some(body) = gloo::utils::document().body() {
                if settled {
                    body.dataset().delete("busy");
                } else {
                    let _ = body.dataset().set("busy", "1");
                }
            }
        }
    }

    /// Draws the first map's labels and cursors, left by the frame that put its
    /// pixels (those of pane `only`, or every pane's); before any later patch of
    /// theirs, which draws its own over them. Whether there were any.
    fn draw_owed_labels(&self, only: Option<usize>, theme: &Theme) -> bool {
        let (due, kept): (Vec<_>, Vec<_>) = self
            .owed_labels
            .take()
            .into_iter()
            .partition(|(pane, _)| only.is_none_or(|p| p == *pane));
        *self.owed_labels.borrow_mut() = kept;
        for (pane, patch) in &due {
            if let Some(c) = self.canvases.get(*pane) {
                draw_labels(&c.map, patch, theme);
            }
        }
        !due.is_empty()
    }

    /// Counts the frame and rewrites the `?debug=1` overlay, if there is one.
    fn show_debug(&self, started: f64, work: f64, phase: &[f64; 3]) {
        let Some(el) = self.debug.as_ref() else {
            return;
        };
        let mut timings = self.timings.borrow_mut();
        timings.record(started, work, phase);
        let mirror = self.remote.mirror.borrow();
        timings.show(el, mirror.timings.as_ref(), started);
    }

    /// Draws pane `pane`'s flush lists and latch lanes (when `fresh.lanes`) and
    /// charts (when `fresh.charts`) from the latest frames, and a canvas whole when it
    /// is resized or re-themed. Of the canvases never drawn, one a frame: a canvas's
    /// first draw runs its code for the first time (compiled as it is called) and
    /// reads its layout, tens of ms on a 2-core machine; the others wait for the
    /// next frames. A first draw also waits when the frame has no `room` (sizing the
    /// canvases forced a layout that took [`PANELS_ROOM_MS`]: a stage just mounted),
    /// but never two frames running. Whether one waited.
    fn draw_panels(&self, pane: usize, fresh: FreshPanels, look: Look<'_>, room: bool) -> bool {
        let Look { theme, dpr } = look;
        let Some(c) = self.canvases.get(pane) else {
            return false;
        };
        let mirror = self.remote.mirror.borrow();
        let Some(m) = mirror.panes.get(pane) else {
            return false;
        };
        let flush = c.flush.cast::<HtmlCanvasElement>();
        let latch = c.latches.cast::<HtmlCanvasElement>();
        let flush_size = flush
            .as_ref()
            .map_or((0, 0), |cv| flush_list::fit_canvas(cv, m.instances, dpr));
        let lane_count = m.latches.as_ref().map_or(0, |v| v.lanes.len());
        let latch_size = latch
            .as_ref()
            .map_or((0, 0), |cv| latch_lanes::fit_canvas(cv, lane_count, dpr));
        let [tps, bp, waits] = c.charts.fit(dpr);
        let chart = |s: &ChartSlot| s.canvas.cast::<HtmlCanvasElement>();
        let elements = [
            flush,
            latch,
            chart(&c.charts.tps),
            chart(&c.charts.bp),
            chart(&c.charts.waits),
        ];
        let sizes = [flush_size, latch_size, tps, bp, waits];
        let came = [
            fresh.lanes,
            fresh.lanes,
            fresh.charts,
            fresh.charts,
            fresh.charts,
        ];
        let mut keys = self.panel_keys.borrow_mut();
        keys.resize(self.canvases.len(), [None; PANEL_CANVASES]);
        let (draw, waited) = which_to_draw(
            &elements,
            sizes,
            came,
            &mut keys[pane],
            DrawRoom {
                dark: theme.dark,
                room,
            },
        );
        for (i, cv) in elements.iter().enumerate() {
            if let Some(cv) = cv.as_ref().filter(|_| draw[i]) {
                let _ = cv.dataset().set("drawn", "1");
            }
        }
        if let (true, Some(cv), Some(v)) = (draw[0], elements[0].as_ref(), &m.flush) {
            if let Err(e) = flush_list::draw(cv, v, theme, dpr) {
                gloo::console::error!(format!("flush list: {e}"));
            }
        }
        if let (true, Some(cv), Some(v)) = (draw[1], elements[1].as_ref(), &m.latches) {
            if let Err(e) = latch_lanes::draw(cv, v, theme, dpr) {
                gloo::console::error!(format!("latch lanes: {e}"));
            }
        }
        if let Some(d) = m.charts.as_ref().filter(|_| draw[2] || draw[3] || draw[4]) {
            let input = chart::Input {
                samples: &d.samples,
                spans: &d.spans,
                failovers: &d.failovers,
                now: d.now,
                pages_total: d.pages_total,
            };
            c.charts.draw(&input, theme, dpr, |w| draw[2 + w as usize]);
        }
        waited
    }

    /// Tells the worker each map canvas's width and theme when they change (or the
    /// canvas is new or was cleared). The height follows from the engine's pool:
    /// once the page has heard of it, the canvas is sized here; before that (the
    /// page's first frames) the worker's first patch sizes it (`put_patch`), so the
    /// first map needs no round trip.
    fn describe_views(&self, dpr: f64, dark: bool) {
        // The map's own zoom in presenter mode (host_scale::map_gain).
        let dpr = dpr * crate::canvas::host_scale::map_gain();
        let instances: Vec<u16> = self
            .remote
            .mirror
            .borrow()
            .panes
            .iter()
            .map(|p| p.instances)
            .collect();
        let mut views = self.views.borrow_mut();
        views.resize(self.canvases.len(), None);
        for (pane, c) in self.canvases.iter().enumerate() {
            let Some(canvas) = c.map.cast::<HtmlCanvasElement>() else {
                continue;
            };
            // The main engine's pane is asked for at once; a compare pane once the
            // worker has said it is there.
            let before = (canvas.width(), canvas.height());
            let w = match instances.get(pane).copied() {
                Some(n) => pool_map::fit_canvas(&canvas, n, dpr).0,
                None if pane == 0 => {
                    let w = (css_width_now(&canvas) * dpr).round() as u32;
                    if canvas.width() != w {
                        canvas.set_width(w);
                    }
                    w
                }
                None => continue,
            };
            // Resizing cleared it.
            let cleared = (canvas.width(), canvas.height()) != before;
            let fresh = cleared || canvas.dataset().get("drawn").is_none();
            let key = ViewKey {
                width: w,
                dpr_bits: dpr.to_bits(),
                dark,
            };
            if (views[pane] != Some(key) || fresh) && w > 0 {
                views[pane] = Some(key);
                let _ = canvas.dataset().set("drawn", "1");
                perf_marks::once(perf_marks::PAGE_VIEW);
                self.remote.send(&Command::View {
                    pane: pane as u8,
                    width: w,
                    dpr,
                    dark,
                });
            }
        }
    }
}

/// Puts `patch`'s rows (`pixels`, region after region) on the map canvas (its
/// labels and cursors are [`draw_labels`]'). False when the canvas is not there or
/// has another width now (the worker repaints for the new one). A patch of another
/// height (the first of an engine the page had not heard of) sizes the canvas;
/// resizing clears it, so the canvas is marked undrawn and the page asks for a
/// whole map again (`describe_views`).
fn put_patch(map: &yew::NodeRef, patch: &MapPatch, pixels: &Uint8Array) -> bool {
    let Some(canvas) = map.cast::<HtmlCanvasElement>() else {
        return false;
    };
    if canvas.width() != patch.width {
        return false;
    }
    if canvas.height() != patch.height {
        canvas.set_height(patch.height);
        canvas.dataset().delete("drawn");
    }
    let Ok(ctx) = crate::canvas::panel::context_2d(&canvas) else {
        return false;
    };
    if pixels.byte_length() as usize != patch.byte_len() {
        return false;
    }
    let row = patch.width * 4;
    let mut offset = 0;
    for &(a, b) in &patch.regions {
        let len = (b - a) * row;
        let rows = Uint8ClampedArray::new_with_byte_offset_and_length(
            &pixels.buffer(),
            pixels.byte_offset() + offset,
            len,
        );
        offset += len;
        match ImageData::new_with_js_u8_clamped_array_and_sh(&rows, patch.width, b - a) {
            Ok(image) => {
                let _ = ctx.put_image_data(&image, 0.0, f64::from(a));
            }
            Err(_) => return false,
        }
    }
    let active = patch.scans.iter().filter(|s| s.active(patch.now)).count();
    let dataset = canvas.dataset();
    let _ = dataset.set("scans", &active.to_string());
    let _ = dataset.set("tick", &patch.now.as_ns().to_string());
    // Every band shows `tick` (the worker paints the ones a budget left behind
    // while the clock stands still): what a moment's pixels are compared at.
    let _ = dataset.set("complete", if patch.complete { "1" } else { "0" });
    true
}

/// Draws the labels, midpoints and cursors of `patch`'s bands over their pixels,
/// if the canvas is still the size they were painted for.
fn draw_labels(map: &yew::NodeRef, patch: &MapPatch, theme: &Theme) {
    let Some(canvas) = map.cast::<HtmlCanvasElement>() else {
        return;
    };
    if (canvas.width(), canvas.height()) != (patch.width, patch.height) {
        return;
    }
    let Ok(ctx) = crate::canvas::panel::context_2d(&canvas) else {
        return;
    };
    let layout = Layout::new(patch.infos.len() as u16, patch.width, patch.dpr);
    let overlay = Overlay {
        bands: &patch.infos,
        scans: &patch.scans,
        now: patch.now,
        theme,
        dpr: patch.dpr,
    };
    draw_overlays(&ctx, &overlay, &layout, &patch.bands);
    record_labels(&canvas, patch);
}

/// Writes what each band's label row now says on the canvas as
/// `data-band{i}="{tick ns} {LRU} {free} {dirty} {stale}"` (and `data-bands`, the
/// instances): the map's counts as drawn, which the tests add up against Server
/// status.
fn record_labels(canvas: &HtmlCanvasElement, patch: &MapPatch) {
    let dataset = canvas.dataset();
    // Its smallest text, CSS px of the canvas (the presenter test: times the zoom).
    let _ = dataset.set("labelPx", &pool_map::smallest_text_px().to_string());
    let _ = dataset.set("bands", &patch.infos.len().to_string());
    for &i in &patch.bands {
        if let Some(b) = patch.infos.get(usize::from(i)) {
            let said = format!(
                "{} {} {} {} {}",
                patch.now.as_ns(),
                b.lru,
                b.free,
                b.dirty,
                b.stale
            );
            let _ = dataset.set(&format!("band{i}"), &said);
        }
    }
}

/// Which of a pane's other canvases (`elements`, mounted or not, at `sizes`) this
/// frame draws: those whose data `came` new, those resized or re-themed since
/// `keys` (updated for those drawn), and the first never drawn (`data-drawn`
/// unset) when the frame has `room`; a canvas not laid out yet (width 0) waits. And
/// whether a first draw waited for want of room.
fn which_to_draw(
    elements: &[Option<HtmlCanvasElement>; PANEL_CANVASES],
    sizes: [(u32, u32); PANEL_CANVASES],
    came: [bool; PANEL_CANVASES],
    keys: &mut [Option<PanelKey>; PANEL_CANVASES],
    draw_room: DrawRoom,
) -> ([bool; PANEL_CANVASES], bool) {
    let fresh = elements.each_ref().map(|cv| {
        cv.as_ref()
            .is_some_and(|cv| cv.dataset().get("drawn").is_none())
    });
    let mounted = elements.each_ref().map(Option::is_some);
    plan_panel_draws(mounted, fresh, sizes, came, keys, draw_room)
}

/// [`which_to_draw`] without the DOM: `mounted` and `fresh` (never drawn) for each
/// canvas.
fn plan_panel_draws(
    mounted: [bool; PANEL_CANVASES],
    fresh: [bool; PANEL_CANVASES],
    sizes: [(u32, u32); PANEL_CANVASES],
    came: [bool; PANEL_CANVASES],
    keys: &mut [Option<PanelKey>; PANEL_CANVASES],
    draw_room: DrawRoom,
) -> ([bool; PANEL_CANVASES], bool) {
    let DrawRoom { dark, room } = draw_room;
    let mut first_draw_taken = !room;
    let mut waited = false;
    let draw = std::array::from_fn(|i| {
        if !mounted[i] || sizes[i].0 == 0 {
            return false;
        }
        if fresh[i] {
            if first_draw_taken {
                waited |= !room;
                return false;
            }
            first_draw_taken = true;
        }
        let key = PanelKey {
            size: sizes[i],
            dark,
        };
        let renew = fresh[i] || keys[i] != Some(key);
        keys[i] = Some(key);
        renew || came[i]
    });
    (draw, waited)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: (u32, u32) = (600, 220);
    const ROOM: DrawRoom = DrawRoom {
        dark: false,
        room: true,
    };
    const NO_ROOM: DrawRoom = DrawRoom {
        dark: false,
        room: false,
    };
    const DARK_ROOM: DrawRoom = DrawRoom {
        dark: true,
        room: true,
    };

    #[test]
    fn one_canvas_is_drawn_first_a_frame_and_the_others_come_the_next_frames() {
        let mut keys = [None; PANEL_CANVASES];
        let mounted = [true; PANEL_CANVASES];
        let mut fresh = [true; PANEL_CANVASES];
        let sizes = [SIZE; PANEL_CANVASES];
        let came = [false; PANEL_CANVASES];
        for frame in 0..PANEL_CANVASES {
            let draw = plan_panel_draws(mounted, fresh, sizes, came, &mut keys, ROOM).0;
            let expected: [bool; PANEL_CANVASES] = std::array::from_fn(|i| i == frame);
            assert_eq!(draw, expected, "frame {frame}");
            fresh[frame] = false;
        }
        let draw = plan_panel_draws(mounted, fresh, sizes, came, &mut keys, ROOM).0;
        assert_eq!(draw, [false; PANEL_CANVASES], "nothing new, nothing drawn");
    }

    #[test]
    fn new_data_a_resize_and_a_theme_redraw_the_canvases_they_touch() {
        let mut keys = [Some(PanelKey {
            size: SIZE,
            dark: false,
        }); PANEL_CANVASES];
        let mounted = [true; PANEL_CANVASES];
        let fresh = [false; PANEL_CANVASES];
        let mut sizes = [SIZE; PANEL_CANVASES];
        let lanes = [true, true, false, false, false];
        let draw = plan_panel_draws(mounted, fresh, sizes, lanes, &mut keys, ROOM).0;
        assert_eq!(
            draw, lanes,
            "the lanes' data came: the flush list and latch lanes"
        );
        sizes[3] = (800, 300);
        let draw = plan_panel_draws(mounted, fresh, sizes, [false; 5], &mut keys, ROOM).0;
        assert_eq!(
            draw,
            [false, false, false, true, false],
            "the resized chart"
        );
        let draw = plan_panel_draws(mounted, fresh, sizes, [false; 5], &mut keys, DARK_ROOM).0;
        assert_eq!(
            draw, [true; PANEL_CANVASES],
            "a new theme redraws them all at once"
        );
    }

    #[test]
    fn a_canvas_not_mounted_or_not_laid_out_waits_and_leaves_its_turn() {
        let mut keys = [None; PANEL_CANVASES];
        let mounted = [false, true, true, true, true];
        let mut sizes = [SIZE; PANEL_CANVASES];
        sizes[1] = (0, 0);
        let draw = plan_panel_draws(mounted, [true; 5], sizes, [true; 5], &mut keys, ROOM).0;
        assert_eq!(draw, [false, false, true, false, false]);
        assert_eq!(keys[1], None, "drawn once laid out");
    }

    #[test]
    fn a_first_draw_waits_for_a_frame_with_room_and_the_others_are_drawn_meanwhile() {
        let mut keys = [Some(PanelKey {
            size: SIZE,
            dark: false,
        }); PANEL_CANVASES];
        keys[2] = None;
        let mounted = [true; PANEL_CANVASES];
        let fresh = [false, false, true, false, false];
        let sizes = [SIZE; PANEL_CANVASES];
        let came = [true; PANEL_CANVASES];
        let (draw, waited) = plan_panel_draws(mounted, fresh, sizes, came, &mut keys, NO_ROOM);
        assert_eq!(draw, [true, true, false, true, true], "the new chart waits");
        assert!(waited);
        assert_eq!(keys[2], None, "not drawn, so not keyed");
        let (draw, waited) = plan_panel_draws(mounted, fresh, sizes, [false; 5], &mut keys, ROOM);
        assert_eq!(
            draw,
            [false, false, true, false, false],
            "drawn in a frame with room"
        );
        assert!(!waited);
        let (_, waited) = plan_panel_draws(mounted, [false; 5], sizes, came, &mut keys, NO_ROOM);
        assert!(!waited, "nothing new to wait for");
    }
}
