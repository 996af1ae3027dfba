//! The animation loop: one `requestAnimationFrame` callback steps the engines and
//! redraws every canvas.
//!
//! ```text
//!   requestAnimationFrame ──▶ LoopInner::frame(t)
//!        ▲                      │ dt = t - last (wall, clamped to 100 ms)
//!        │                      ├─▶ Engines::advance(dt × speed)  Runner::run_to, in slices,
//!        │                      │                                 within a 10 ms budget
//!        │                      ├─▶ Runner::digest()              scans, latch holds, spans, log
//!        │                      ├─▶ per engine: pool map, flush list, latch lanes (when the
//!        │                      │   clock moved), charts (when a sample or a span arrived)
//!        │                      ├─▶ News ──▶ reducer              at most ~10 times a second
//!        │                      └─▶ ?debug=1 overlay              frame time p50/p95, speed
//!        └──────── re-armed at the end of the frame (a panic stops the loop)
//! ```
//!
//! The loop is one `Closure` built once and handed to `requestAnimationFrame` again at
//! the end of each frame. The virtual clock advances by wall time × speed; when the
//! engine cannot keep up (a 1000× run of a large pool), the loop stops stepping after
//! its budget and drops the rest of that frame's virtual time, so the page stays
//! responsive and the shown speed says how fast the simulation really runs.

use crate::canvas::chart;
use crate::canvas::flush_list;
use crate::canvas::latch_lanes;
use crate::canvas::pool_map::{self, MapScratch};
use crate::canvas::theme::Theme;
use crate::model::frame_stats::FrameStats;
use crate::model::panels;
use crate::model::runner::{Engines, Runner, STEP_BUDGET_MS};
use crate::model::snapshot::News;
use ddlscope_engine::Tick;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;
use yew::{Callback, NodeRef};

/// Longest wall-clock step a frame may take: after a background tab or a long pause the
/// simulation resumes where it was instead of jumping ahead.
const MAX_DT_MS: f64 = 100.0;
/// How often Yew hears about the simulation (the stats, the clock).
const REPORT_EVERY_MS: f64 = 100.0;
/// Wall time a frame's work (stepping and drawing) should fit in, leaving the rest of
/// a 16.7 ms frame to the browser (Yew's re-render, layout, compositing).
const FRAME_WORK_MS: f64 = 12.0;
/// Wall time the pool map may spend repainting bands in a frame (it repaints the
/// bands being scanned and one more whatever this says).
const MAP_BUDGET_MS: f64 = 3.0;
/// The least a frame steps the engines, however long drawing takes.
const MIN_STEP_MS: f64 = 2.0;
/// The stepping budget of a frame while the engines build a pool or replay to a
/// moment (nothing plays meanwhile): most of the frame, well under the 50 ms that
/// makes a long task.
const BUSY_STEP_MS: f64 = 30.0;
/// How often the views are drawn while the engines are busy.
const BUSY_DRAW_EVERY_MS: f64 = 250.0;

/// The stepping budget of the next frame: what is left of [`FRAME_WORK_MS`] after
/// drawing, as recent frames drew, between [`MIN_STEP_MS`] and [`STEP_BUDGET_MS`].
pub fn step_budget(draw_ms: f64) -> f64 {
    (FRAME_WORK_MS - draw_ms).clamp(MIN_STEP_MS, STEP_BUDGET_MS)
}

/// What the charts were last drawn from; a change means redraw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ChartKey {
    generation: u32,
    now_s: u64,
    samples: u64,
    spans: usize,
    open_spans: usize,
    failovers: usize,
    sizes: [(u32, u32); 3],
    dark: bool,
}

/// What a clock-driven canvas was last drawn for: generation, virtual time, size,
/// theme.
type DrawKey = (u32, Tick, (u32, u32), bool);

/// One engine's canvases.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Canvases {
    /// The buffer-pool map.
    pub map: NodeRef,
    /// The charts, and what each drew last for its pointer handlers.
    pub charts: chart::ChartCanvases,
    /// The latch lanes.
    pub latches: NodeRef,
    /// The flush lists.
    pub flush: NodeRef,
}

/// Per engine: what each canvas was last drawn for, and scratch buffers.
#[derive(Default)]
struct PaneDraw {
    /// The engine drawn: its generation and seek count.
    drawn: Option<(u32, u64)>,
    scratch: MapScratch,
    map_key: Option<DrawKey>,
    chart_key: Option<ChartKey>,
    latch_key: Option<DrawKey>,
    flush_key: Option<DrawKey>,
    flush_cells: Vec<ddlscope_engine::Cell>,
}

/// Where a frame's work goes, ms, smoothed: step, map, flush list, latch lanes,
/// charts, snapshot, Yew (the reducer and the re-render the news causes).
type Phases = crate::model::frame_stats::Phases<7>;

/// The names of [`Phases`], in order.
const PHASE_NAMES: [&str; 7] = ["step", "map", "flush", "latch", "charts", "snap", "yew"];

/// The closure `requestAnimationFrame` calls.
type FrameClosure = Closure<dyn FnMut(f64)>;

/// The state the frame closure keeps between frames.
struct LoopInner {
    engines: Rc<RefCell<Engines>>,
    canvases: Vec<Canvases>,
    debug: Option<NodeRef>,
    on_news: Callback<(u32, News)>,
    closure: RefCell<Option<FrameClosure>>,
    frame_id: Cell<Option<i32>>,
    stopped: Cell<bool>,
    last_ms: Cell<Option<f64>>,
    last_report_ms: Cell<f64>,
    /// When the views were last drawn while the engines were busy.
    last_busy_draw_ms: Cell<f64>,
    last_debug_ms: Cell<f64>,
    last_log_version: Cell<Option<(u32, u64)>>,
    ready: Cell<bool>,
    /// Whether `body[data-busy]` is set.
    busy: Cell<bool>,
    /// Drawing time per frame, ms, smoothed: sets the stepping budget.
    draw_ms: Cell<f64>,
    phases: Cell<Phases>,
    panes: RefCell<Vec<PaneDraw>>,
    stats: RefCell<FrameStats>,
    dark_query: Option<web_sys::MediaQueryList>,
}

/// The running animation loop; dropping it stops the loop.
pub struct FrameLoop {
    inner: Rc<LoopInner>,
}

impl std::fmt::Debug for FrameLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameLoop")
            .field("stopped", &self.inner.stopped.get())
            .finish_non_exhaustive()
    }
}

impl FrameLoop {
    /// Starts animating `engines`, engine `i` into `canvases[i]`, telling `on_news`
    /// what Yew should show, stamped with the main engine's generation. With `debug`,
    /// the overlay element gets the frame timings.
    pub fn start(
        engines: Rc<RefCell<Engines>>,
        canvases: Vec<Canvases>,
        debug: Option<NodeRef>,
        on_news: Callback<(u32, News)>,
    ) -> FrameLoop {
        let dark_query = gloo::utils::window()
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten();
        let inner = Rc::new(LoopInner {
            engines,
            canvases,
            debug,
            on_news,
            closure: RefCell::new(None),
            frame_id: Cell::new(None),
            stopped: Cell::new(false),
            last_ms: Cell::new(None),
            last_report_ms: Cell::new(f64::NEG_INFINITY),
            last_busy_draw_ms: Cell::new(f64::NEG_INFINITY),
            last_debug_ms: Cell::new(f64::NEG_INFINITY),
            last_log_version: Cell::new(None),
            ready: Cell::new(false),
            busy: Cell::new(false),
            draw_ms: Cell::new(0.0),
            phases: Cell::new(Phases::default()),
            panes: RefCell::new(Vec::new()),
            stats: RefCell::new(FrameStats::default()),
            dark_query,
        });
        // The closure holds the loop state and the state holds the closure: the cycle
        // keeps both alive while the loop runs, and `Drop` breaks it.
        let weak = Rc::downgrade(&inner);
        let closure = Closure::<dyn FnMut(f64)>::new(move |_timestamp: f64| {
            if let Some(inner) = weak.upgrade() {
                inner.frame();
            }
        });
        *inner.closure.borrow_mut() = Some(closure);
        inner.arm();
        FrameLoop { inner }
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        self.inner.stopped.set(true);
        if let Some(id) = self.inner.frame_id.take() {
            let _ = gloo::utils::window().cancel_animation_frame(id);
        }
        self.inner.closure.borrow_mut().take();
    }
}

/// The page's clock, in ms: what a frame budget is measured with.
pub fn performance_now() -> f64 {
    crate::worker::marks::now_ms()
}

/// The theme the page shows: the `data-theme` attribute on `<html>` when the user
/// picked one, else the system's.
pub fn dark_theme(query: Option<&web_sys::MediaQueryList>) -> bool {
    let chosen = gloo::utils::document()
        .document_element()
        .and_then(|e| e.get_attribute("data-theme"));
    match chosen.as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => query.is_some_and(|q| q.matches()),
    }
}

impl LoopInner {
    /// Asks for the next frame.
    fn arm(&self) {
        if self.stopped.get() {
            return;
        }
        if let Some(closure) = self.closure.borrow().as_ref() {
            let id = gloo::utils::window()
                .request_animation_frame(closure.as_ref().unchecked_ref())
                .expect("requestAnimationFrame is available");
            self.frame_id.set(Some(id));
        }
    }

    /// One animation frame.
    fn frame(&self) {
        self.frame_id.set(None);
        if self.stopped.get() {
            return;
        }
        let now_ms = performance_now();
        let interval = self.last_ms.replace(Some(now_ms)).map(|last| now_ms - last);
        let dt_ms = interval.map_or(0.0, |d| d.clamp(0.0, MAX_DT_MS));
        let theme = Theme::for_scheme(dark_theme(self.dark_query.as_ref()));
        let dpr = gloo::utils::window().device_pixel_ratio().max(1.0);
        let mut news = Vec::new();
        let mut drew_map = false;
        let mut phase = [0.0; 7];
        let (generation, settled) = {
            let mut engines = self.engines.borrow_mut();
            // A frame that reports to Yew pays for the re-render that follows (the
            // stats, the panels): it steps and repaints less, so that it too fits.
            let report_due = now_ms - self.last_report_ms.get() >= REPORT_EVERY_MS;
            let budget = if engines.busy().is_some() {
                BUSY_STEP_MS
            } else if report_due {
                MIN_STEP_MS
            } else {
                step_budget(self.draw_ms.get())
            };
            engines.advance(dt_ms, budget, &performance_now);
            let draw_started = performance_now();
            phase[0] = draw_started - now_ms;
            let mut panes = self.panes.borrow_mut();
            // While the engines build or replay, the views are redrawn a few times a
            // second, not every frame: the frames go to the work.
            let busy = engines.busy().is_some();
            let draw = !busy || now_ms - self.last_busy_draw_ms.get() >= BUSY_DRAW_EVERY_MS;
            if busy && draw {
                self.last_busy_draw_ms.set(now_ms);
            }
            for (i, runner) in engines.panes.iter_mut().enumerate() {
                runner.digest();
                if panes.len() <= i {
                    panes.push(PaneDraw::default());
                }
                if let Some(canvases) = self.canvases.get(i).filter(|_| draw) {
                    drew_map |= draw_pane(
                        !report_due,
                        runner,
                        canvases,
                        &mut panes[i],
                        &theme,
                        dpr,
                        &mut phase,
                    );
                    if drew_map {
                        crate::worker::marks::once(crate::worker::marks::PAGE_FIRST_MAP);
                    }
                }
            }
            let drew = performance_now() - draw_started;
            self.draw_ms.set(0.8 * self.draw_ms.get() + 0.2 * drew);
            let main = engines.main();
            let generation = main.generation();
            let version = (generation, main.log_version());
            if self.last_log_version.get() != Some(version) {
                self.last_log_version.set(Some(version));
                news.push(News::Log(main.log()));
            }
            let report_started = performance_now();
            // The frame where the engines settle (a build or a replay done) reports the
            // figures of that moment, so that the clock shown never lags `ready`.
            let settling = engines.busy().is_none() && (self.busy.get() || !self.ready.get());
            if settling || !news.is_empty() || now_ms - self.last_report_ms.get() >= REPORT_EVERY_MS
            {
                self.last_report_ms.set(now_ms);
                for (pane, r) in engines.panes.iter().enumerate() {
                    news.push(News::Snapshot {
                        pane,
                        snapshot: r.snapshot(),
                    });
                }
            }
            phase[5] = performance_now() - report_started;
            if let Some(debug) = self.debug.as_ref() {
                self.show_debug(debug, &engines, now_ms);
            }
            (generation, engines.busy().is_none())
        };
        // Ready once the first map is drawn with the engines at their moment (a link's
        // or a lesson step's replay done): what tests and embedding pages wait for.
        if drew_map && settled && !self.ready.replace(true) {
            if let Some(body) = gloo::utils::document().body() {
                let _ = body.dataset().set("ready", "1");
            }
        }
        // body[data-busy] while the engines build a pool or replay to a moment.
        let busy = !settled;
        if self.busy.replace(busy) != busy {
            if let Some(body) = gloo::utils::document().body() {
                if settled {
                    body.dataset().delete("busy");
                } else {
                    let _ = body.dataset().set("busy", "1");
                }
            }
        }
        // The engines are no longer borrowed: the reducer and any re-render may use them.
        let yew_started = performance_now();
        for n in news {
            self.on_news.emit((generation, n));
        }
        phase[6] = performance_now() - yew_started;
        let mut phases = self.phases.get();
        phases.add(&phase);
        self.phases.set(phases);
        if let Some(interval) = interval {
            self.stats
                .borrow_mut()
                .push(interval, performance_now() - now_ms);
        }
        self.arm();
    }

    /// Writes the frame timings into the overlay, four times a second.
    fn show_debug(&self, el: &NodeRef, engines: &Engines, now_ms: f64) {
        if now_ms - self.last_debug_ms.get() < 250.0 {
            return;
        }
        self.last_debug_ms.set(now_ms);
        let Some(el) = el.cast::<web_sys::HtmlElement>() else {
            return;
        };
        let stats = self.stats.borrow();
        let (i50, w50) = stats.quantiles(0.5);
        let (i95, w95) = stats.quantiles(0.95);
        let main = engines.main();
        let pages: u64 = engines
            .panes
            .iter()
            .map(|r| r.sim().pool().pages_total())
            .sum();
        let (playing, speed) = main.clock();
        let actual = main.actual_speed();
        let text = format!(
            "frame p50 {i50:.1} ms · p95 {i95:.1} ms\nwork  p50 {w50:.1} ms · p95 {w95:.1} ms\nspeed {} asked, {} achieved{}\npool {} pages · {} engine(s)\nms: {}",
            crate::model::format::speed(speed),
            crate::model::format::speed(actual),
            if playing { "" } else { " (paused)" },
            crate::model::format::int(pages),
            engines.panes.len(),
            self.phases.get().named(&PHASE_NAMES),
        );
        el.set_inner_text(&text);
        let dataset = el.dataset();
        let _ = dataset.set("p50", &format!("{i50:.2}"));
        let _ = dataset.set("p95", &format!("{i95:.2}"));
        let _ = dataset.set("work95", &format!("{w95:.2}"));
        let _ = dataset.set("frames", &stats.frames().to_string());
    }
}

/// Redraws engine `runner`'s canvases that are out of date; on a frame that is not
/// `full_frame` the map repaints only the bands being scanned. Returns whether the
/// pool map has been drawn.
fn draw_pane(
    full_frame: bool,
    runner: &Runner,
    canvases: &Canvases,
    pane: &mut PaneDraw,
    theme: &Theme,
    dpr: f64,
    phase: &mut [f64; 7],
) -> bool {
    let mut t = performance_now();
    let mut lap = |i: usize| {
        let now = performance_now();
        phase[i] += now - t;
        t = now;
    };
    let generation = runner.generation();
    let sim = runner.sim();
    let now = sim.now();
    let instances = sim.pool().n_instances();
    // Another engine, or this one at another time: the map's kept bands are stale.
    let engine = Some((generation, runner.seeks()));
    if pane.drawn != engine {
        pane.drawn = engine;
        pane.map_key = None;
        pane.scratch.invalidate();
    }
    if let Some(canvas) = canvases.map.cast::<HtmlCanvasElement>() {
        if fresh(&canvas) {
            pane.map_key = None;
            pane.scratch.invalidate();
        }
        let size = pool_map::fit_canvas(&canvas, instances, dpr);
        let key = (generation, now, size, theme.dark);
        if pane.map_key != Some(key) && size.0 > 0 {
            let frame = pool_map::MapFrame {
                sim,
                scans: runner.scans(),
                theme,
                dpr,
                budget_ms: if full_frame { MAP_BUDGET_MS } else { 0.0 },
                extra: full_frame,
                clock: &performance_now,
            };
            pool_map::draw(&canvas, &frame, &mut pane.scratch);
            pane.map_key = Some(key);
            mark_drawn(&canvas);
            // For tests and curious readers: the scans sweeping now, and the tick drawn.
            let active = runner.scans().iter().filter(|s| s.active(now)).count();
            let dataset = canvas.dataset();
            let _ = dataset.set("scans", &active.to_string());
            let _ = dataset.set("tick", &now.as_ns().to_string());
        }
    }
    lap(1);
    if let Some(canvas) = canvases.flush.cast::<HtmlCanvasElement>() {
        let size = flush_list::fit_canvas(&canvas, instances, dpr);
        let key = (generation, now, size, theme.dark);
        if (pane.flush_key != Some(key) || fresh(&canvas)) && size.0 > 0 {
            mark_drawn(&canvas);
            let (walks, counts) = runner.flush_walks();
            let view = panels::flush_view(sim, walks, counts, &mut pane.flush_cells);
            if let Err(e) = flush_list::draw(&canvas, &view, theme, dpr) {
                gloo::console::error!(format!("flush list: {e}"));
            }
            pane.flush_key = Some(key);
        }
    }
    lap(2);
    if let Some(canvas) = canvases.latches.cast::<HtmlCanvasElement>() {
        let size = latch_lanes::fit_canvas(&canvas, panels::lane_latches(sim).len(), dpr);
        let key = (generation, now, size, theme.dark);
        if (pane.latch_key != Some(key) || fresh(&canvas)) && size.0 > 0 {
            mark_drawn(&canvas);
            let view = panels::latch_view(sim, runner.latch_spans());
            if let Err(e) = latch_lanes::draw(&canvas, &view, theme, dpr) {
                gloo::console::error!(format!("latch lanes: {e}"));
            }
            pane.latch_key = Some(key);
        }
    }
    lap(3);
    let spans = runner.ddl_spans();
    let key = ChartKey {
        generation,
        now_s: now.as_secs(),
        samples: sim.sample_count(),
        spans: spans.len(),
        open_spans: spans.iter().filter(|s| s.t1.is_none()).count(),
        failovers: runner.failovers().len(),
        sizes: canvases.charts.fit(dpr),
        dark: theme.dark,
    };
    // The charts plot the samples: they change together, once a virtual second (or
    // when a statement starts or ends, a seek, or the page is resized).
    let slots = [
        &canvases.charts.tps,
        &canvases.charts.bp,
        &canvases.charts.waits,
    ];
    let new_chart = slots.iter().any(|slot| {
        let canvas = slot.canvas.cast::<HtmlCanvasElement>();
        canvas.as_ref().is_some_and(fresh)
    });
    if pane.chart_key != Some(key) || new_chart {
        for slot in slots {
            if let Some(canvas) = slot.canvas.cast::<HtmlCanvasElement>() {
                mark_drawn(&canvas);
            }
        }
        let input = chart::Input {
            samples: sim.samples(),
            spans,
            failovers: runner.failovers(),
            now,
            pages_total: sim.pool().pages_total(),
        };
        canvases.charts.draw(&input, theme, dpr, |_| true);
        pane.chart_key = Some(key);
    }
    lap(4);
    pane.map_key.is_some()
}

/// Whether the loop has never drawn on `canvas`: Yew re-creates a canvas element when
/// the markup around it changes (an embed's pane gets its title in compare mode), and
/// what was drawn for the old element says nothing of the new one.
fn fresh(canvas: &HtmlCanvasElement) -> bool {
    canvas.dataset().get("drawn").is_none()
}

/// Marks `canvas` as drawn by the loop (see [`fresh`]).
fn mark_drawn(canvas: &HtmlCanvasElement) {
    let _ = canvas.dataset().set("drawn", "1");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawing_time_comes_out_of_the_stepping_budget() {
        assert_eq!(step_budget(0.0), STEP_BUDGET_MS);
        assert_eq!(step_budget(4.0), 8.0);
        assert_eq!(step_budget(30.0), MIN_STEP_MS, "always some progress");
    }
}
