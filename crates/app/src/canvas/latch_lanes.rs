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
//!
//! The right edge is always now and the left edge 60 s ago ([`time_x`]); in the
//! first minute the part of the axis before the run started is shaded, so a hold
//! that began at 12 s and goes on at 18 s covers the last tenth of the lanes, where
//! the axis says it is. What was drawn is also written to the canvas's `data-holds`
//! attribute (`dict_sys:x0:x1 …`, CSS px), for the browser tests.

use crate::canvas::panel::text_scale;
use crate::canvas::theme::{css, css_alpha, Theme};
use crate::model::panels::{LatchView, MAX_POOL_LANES};
use crate::model::spans::LATCH_WINDOW;
use ddlscope_engine::{LatchId, Tick};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// The time window shown.
pub const WINDOW: Tick = LATCH_WINDOW;
/// CSS pixels per lane.
const LANE_PX: f64 = 20.0;
/// The lanes' text, CSS px (larger in presenter mode: `panel::text_scale`).
const TEXT_PX: f64 = 14.0;
/// Width of the label column and of the waiting count, CSS pixels.
const LABEL_PX: f64 = 96.0;
const COUNT_PX: f64 = 92.0;
/// A current hold shorter than this is a workload thread's brief visit: not drawn.
const MIN_VISIBLE_HOLD: Tick = Tick::from_ms(5);

/// Where time `t` goes on the axis at `now`: `now` at `left + width`, `now − 60 s`
/// at `left`; earlier times clamp to `left`.
pub fn time_x(now: Tick, t: Tick, left: f64, width: f64) -> f64 {
    let ago = (now.saturating_sub(t)).min(WINDOW);
    left + width * (1.0 - ago.as_secs_f64() / WINDOW.as_secs_f64())
}

/// CSS height of the canvas for `n` lanes.
pub fn css_height(n: usize) -> f64 {
    LANE_PX * n as f64 + 20.0
}

/// Sizes the canvas's pixel buffer for `n` lanes; returns its pixel size.
pub fn fit_canvas(canvas: &HtmlCanvasElement, n: usize, dpr: f64) -> (u32, u32) {
    crate::canvas::panel::fit(canvas, css_height(n) * text_scale(TEXT_PX), dpr)
}

/// Draws the lanes of `view` at its time.
pub fn draw(
    canvas: &HtmlCanvasElement,
    view: &LatchView,
    theme: &Theme,
    dpr: f64,
) -> Result<(), String> {
    let context = crate::canvas::panel::context_2d(canvas)?;
    let ctx = crate::canvas::pen::Pen::new(&context);
    // Everything drawn larger by the text's scale (presenter mode), the canvas too.
    let scale = text_scale(TEXT_PX);
    let dpr = dpr * scale;
    let _ = canvas.set_attribute("data-label-px", &format!("{:.3}", TEXT_PX * scale));
    let (lanes, spans) = (&view.lanes, &view.spans);
    let w = f64::from(canvas.width()) / dpr;
    let now = view.now;
    let start = now.saturating_sub(WINDOW);
    let plot_w = (w - LABEL_PX - COUNT_PX).max(10.0);
    let x = |t: Tick| time_x(now, t, LABEL_PX, plot_w);
    let mut holds: Vec<String> = Vec::new();
    let mut hold = |latch: LatchId, x0: f64, x1: f64| {
        holds.push(format!("{latch}:{x0:.0}:{x1:.0}"));
    };
    ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0)
        .map_err(|_| "transform")?;
    ctx.set_fill_style_str(&css(theme.background));
    ctx.fill_rect(0.0, 0.0, w, f64::from(canvas.height()) / dpr);
    // Before the run started: nothing to show there yet.
    let h = lanes.len() as f64 * LANE_PX;
    if now < WINDOW {
        ctx.set_fill_style_str(&css_alpha(theme.grid, 0.6));
        ctx.fill_rect(LABEL_PX, 0.0, x(Tick::ZERO) - LABEL_PX, h);
    }
    ctx.set_font(&format!("{TEXT_PX}px system-ui, sans-serif"));
    ctx.set_text_baseline("middle");
    for (i, lane) in lanes.iter().enumerate() {
        let latch = lane.latch;
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
            hold(latch, x0, x1);
        }
        // The hold going on now.
        if let Some(since) = lane.held_since {
            if now - since >= MIN_VISIBLE_HOLD {
                ctx.set_fill_style_str(&css(theme.cursor));
                let (x0, x1) = (x(since.max(start)), x(now));
                ctx.fill_rect(x0, y + 3.0, (x1 - x0).max(1.5), LANE_PX - 6.0);
                hold(latch, x0, x1);
            }
        }
        let waiting = lane.waiting;
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
    // Unless the plot is too narrow to hold it apart from "now" (presenter mode's
    // zoomed lanes beside another panel).
    if plot_w > 90.0 {
        let _ = ctx.fill_text("−60 s", LABEL_PX, axis_y);
    }
    // "start" where the run began, unless it would run into "now".
    if now < WINDOW && LABEL_PX + plot_w - x(Tick::ZERO) > 70.0 {
        let _ = ctx.fill_text("start", x(Tick::ZERO) + 4.0, axis_y);
    }
    ctx.set_text_align("right");
    let _ = ctx.fill_text("now", LABEL_PX + plot_w, axis_y);
    ctx.set_text_align("left");
    let _ = canvas.set_attribute("data-holds", &holds.join(" "));
    let _ = canvas.set_attribute(
        "data-plot",
        &format!("{LABEL_PX:.0}:{:.0}", LABEL_PX + plot_w),
    );
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
            text_px={TEXT_PX}
            css_height={css_height(3 + usize::from(props.instances).min(MAX_POOL_LANES))}
        >
            { "holds in the last minute · waiting now" }
        </crate::canvas::panel::CanvasPanel>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn now_is_the_right_edge_from_the_first_second() {
        let at = |now_s: u64, t_ms: u64| {
            time_x(Tick::from_secs(now_s), Tick::from_ms(t_ms), 100.0, 600.0)
        };
        assert_eq!(at(18, 18_000), 700.0, "now at the right edge, at 18 s");
        assert_eq!(
            at(18, 12_000),
            640.0,
            "6 s ago: a tenth of the minute from the right"
        );
        assert_eq!(at(18, 0), 520.0, "the start of the run, 18 s ago");
        assert_eq!(at(120, 0), 100.0, "older than a minute: the left edge");
        assert_eq!(at(120, 60_000), 100.0);
        assert_eq!(at(120, 90_000), 400.0);
    }
}
