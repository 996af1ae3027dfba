//! Latch lanes: one lane per simulated mutex on a shared time axis (the last minute of
//! virtual time), so a DDL holding `dict_sys` for 150 s reads at a glance.
//!
//! ```text
//!   LOCK_open   |                                            |
//!   dict_sys    |      ████████████████████████████████████▶ | 214 waiting
//!   fil_sys     |                                            |
//!   buf_pool[0] |        ▌   ▌  ▌▌                           |
//!               -60 s                                      now
//! ```
//!
//! Spans come from the engine's `LatchHeld` events (holds by DDL and background threads)
//! and from each latch's current holder; the count on the right is the latch's queue
//! right now. Drawn straight on a 2D canvas once per frame while the clock moves.

use crate::canvas::theme::{css, css_alpha, Theme};
use crate::model::spans::{LatchSpan, LATCH_WINDOW};
use ddlscope_engine::{LatchId, Sim, Tick};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// The time window shown.
pub const WINDOW: Tick = LATCH_WINDOW;
/// CSS pixels per lane.
const LANE_PX: f64 = 18.0;
/// Width of the label column and of the waiting count, CSS pixels.
const LABEL_PX: f64 = 84.0;
const COUNT_PX: f64 = 78.0;
/// At most this many buffer-pool instances get a lane of their own.
const MAX_POOL_LANES: usize = 8;
/// A current hold shorter than this is a workload thread's brief visit: not drawn.
const MIN_VISIBLE_HOLD: Tick = Tick::from_ms(5);

/// The lanes shown for `sim`: the global latches, then the first buffer-pool instances.
pub fn lanes(sim: &Sim) -> Vec<LatchId> {
    let mut out = vec![LatchId::LockOpen, LatchId::DictSys, LatchId::FilSys];
    out.extend(
        (0..sim.pool().n_instances())
            .take(MAX_POOL_LANES)
            .map(LatchId::BufPool),
    );
    out
}

/// CSS height of the canvas for `n` lanes.
pub fn css_height(n: usize) -> f64 {
    LANE_PX * n as f64 + 18.0
}

/// Sizes the canvas's pixel buffer for `n` lanes; returns its pixel size.
pub fn fit_canvas(canvas: &HtmlCanvasElement, n: usize, dpr: f64) -> (u32, u32) {
    crate::canvas::panel::fit(canvas, css_height(n), dpr)
}

/// Draws the lanes of `sim` at its current time.
pub fn draw(
    canvas: &HtmlCanvasElement,
    sim: &Sim,
    spans: &[LatchSpan],
    theme: &Theme,
    dpr: f64,
) -> Result<(), String> {
    let ctx = crate::canvas::panel::context_2d(canvas)?;
    let lanes = lanes(sim);
    let w = f64::from(canvas.width()) / dpr;
    let now = sim.now();
    let start = now.saturating_sub(WINDOW);
    let plot_w = (w - LABEL_PX - COUNT_PX).max(10.0);
    let x = |t: Tick| {
        LABEL_PX + plot_w * (t.saturating_sub(start)).as_secs_f64() / WINDOW.as_secs_f64()
    };
    ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0)
        .map_err(|_| "transform")?;
    ctx.set_fill_style_str(&css(theme.background));
    ctx.fill_rect(0.0, 0.0, w, f64::from(canvas.height()) / dpr);
    ctx.set_font("12px system-ui, sans-serif");
    ctx.set_text_baseline("middle");
    for (i, &latch) in lanes.iter().enumerate() {
        let y = i as f64 * LANE_PX;
        if i % 2 == 1 {
            ctx.set_fill_style_str(&css_alpha(theme.grid, 0.35));
            ctx.fill_rect(0.0, y, w, LANE_PX);
        }
        ctx.set_fill_style_str(&css(theme.text));
        let _ = ctx.fill_text(&latch.to_string(), 4.0, y + LANE_PX / 2.0);
        // Finished holds in the window.
        ctx.set_fill_style_str(&css(theme.marker));
        for s in spans.iter().filter(|s| s.latch == latch && s.t1 >= start) {
            let (x0, x1) = (x(s.t0.max(start)), x(s.t1));
            ctx.fill_rect(x0, y + 3.0, (x1 - x0).max(1.5), LANE_PX - 6.0);
        }
        // The hold going on now.
        let l = sim.latch(latch);
        if let Some(since) = l.held_since().filter(|_| l.holder().is_some()) {
            if now - since >= MIN_VISIBLE_HOLD {
                ctx.set_fill_style_str(&css(theme.cursor));
                let (x0, x1) = (x(since.max(start)), x(now));
                ctx.fill_rect(x0, y + 3.0, (x1 - x0).max(1.5), LANE_PX - 6.0);
            }
        }
        let waiting = l.waiter_count();
        if waiting > 0 {
            ctx.set_fill_style_str(&css(theme.latency_max));
            let _ = ctx.fill_text(
                &format!("{waiting} waiting"),
                LABEL_PX + plot_w + 6.0,
                y + LANE_PX / 2.0,
            );
        }
    }
    // The time axis.
    let axis_y = lanes.len() as f64 * LANE_PX + 9.0;
    ctx.set_fill_style_str(&css(theme.text_muted));
    let _ = ctx.fill_text("−60 s", LABEL_PX, axis_y);
    let _ = ctx.fill_text("now", LABEL_PX + plot_w - 22.0, axis_y);
    Ok(())
}

/// Props of [`LatchLanes`].
#[derive(Properties, PartialEq, Debug)]
pub struct LatchLanesProps {
    /// The canvas the frame loop draws on.
    pub canvas: NodeRef,
    /// Buffer-pool instances (one lane each, up to eight).
    pub instances: u16,
}

/// The panel around the canvas.
#[function_component(LatchLanes)]
pub fn latch_lanes(props: &LatchLanesProps) -> Html {
    html! {
        <crate::canvas::panel::CanvasPanel
            title_id="latches-title"
            title="Latches"
            canvas={props.canvas.clone()}
            testid="latch-lanes"
            label="Latch holds over the last minute"
            css_height={css_height(3 + usize::from(props.instances).min(MAX_POOL_LANES))}
        >
            { "DDL and background holds over the last minute; how many wait now" }
        </crate::canvas::panel::CanvasPanel>
    }
}
