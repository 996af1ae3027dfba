//! The metadata-locks panel: per lock name, who holds it, who queues for it, and who
//! waits for whom. The rows come from [`MdlView`] (`model::mdl`, where the grouping of
//! granted tickets and waiting runs is explained).
//!
//! Rows have a fixed height, so the arrows' SVG is laid out here, without measuring the
//! DOM: a gutter left of the rows with one lane per arrow.

use crate::model::mdl::{LockView, MdlView};
use yew::prelude::*;

/// Height of a row, CSS pixels (two lines of text).
pub const ROW_PX: u32 = 40;
/// Space between rows, CSS pixels.
pub const ROW_GAP_PX: u32 = 4;
/// Arrow lanes in a gutter; further arrows share the outermost lane.
pub const MAX_LANES: usize = 6;
/// Width of one arrow lane, and the gutter's margin, CSS pixels.
const LANE_PX: u32 = 8;
const GUTTER_MARGIN_PX: u32 = 10;

/// An arrow from waiting row `from` to row `to`, in lane `lane` of the gutter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// The waiting row.
    pub from: usize,
    /// The row it waits for.
    pub to: usize,
    /// The lane, 0 nearest the rows.
    pub lane: usize,
    /// Whether the target is a granted row (solid) or a waiting one (dashed).
    pub to_granted: bool,
}

/// Every arrow of `lock`, shorter spans in inner lanes so that arrows nest instead of
/// crossing; returns them with the number of lanes used.
pub fn arrows(lock: &LockView) -> (Vec<Arrow>, usize) {
    let mut out: Vec<Arrow> = lock
        .rows
        .iter()
        .enumerate()
        .flat_map(|(from, r)| {
            r.waits_for.iter().map(move |&to| Arrow {
                from,
                to: usize::from(to),
                lane: 0,
                to_granted: false,
            })
        })
        .collect();
    out.sort_by_key(|a| (a.from.abs_diff(a.to), a.from, a.to));
    for (i, a) in out.iter_mut().enumerate() {
        a.lane = i.min(MAX_LANES - 1);
        a.to_granted = lock.rows[a.to].granted;
    }
    let lanes = out.len().min(MAX_LANES);
    (out, lanes)
}

/// Width of the arrows' gutter for `lanes` lanes, CSS pixels.
pub fn gutter_px(lanes: usize) -> u32 {
    if lanes == 0 {
        0
    } else {
        GUTTER_MARGIN_PX + LANE_PX * lanes as u32
    }
}

/// The vertical middle of row `i`, CSS pixels from the top of the rows.
fn row_mid_px(i: usize) -> u32 {
    i as u32 * (ROW_PX + ROW_GAP_PX) + ROW_PX / 2
}

fn arrows_svg(lock: &LockView) -> Html {
    let (arrows, lanes) = arrows(lock);
    if arrows.is_empty() {
        return html! {};
    }
    let w = gutter_px(lanes);
    let n = lock.rows.len() as u32;
    let h = n * ROW_PX + n.saturating_sub(1) * ROW_GAP_PX;
    let end = w - 1;
    html! {
        <svg class="mdl-arrows" width={w.to_string()} height={h.to_string()}
             viewBox={format!("0 0 {w} {h}")} aria-hidden="true">
            { for arrows.iter().map(|a| {
                let x = end - 4 - LANE_PX * (a.lane as u32 + 1);
                let (y0, y1) = (row_mid_px(a.from), row_mid_px(a.to));
                let class = classes!("mdl-edge", (!a.to_granted).then_some("queued"));
                html! {
                    <g {class}>
                        <circle cx={end.saturating_sub(2).to_string()} cy={y0.to_string()} r="2.5" />
                        <path d={format!("M {} {y0} H {x} V {y1} H {}", end - 2, end - 1)} />
                        <polygon points={format!("{},{} {end},{y1} {},{}", end - 6, y1 - 4, end - 6, y1 + 4)} />
                    </g>
                }
            }) }
        </svg>
    }
}

fn queue_row(lock: &LockView, i: usize) -> Html {
    let r = &lock.rows[i];
    let all: Vec<String> = r.sessions.iter().map(u32::to_string).collect();
    let mut line2 = r.sessions_text();
    if !r.waits_for.is_empty() {
        line2.push_str(" · ");
        line2.push_str(&lock.waits_for_text(i));
    }
    let title = format!(
        "{} {} {}: {} (sessions {}); the oldest is session {}",
        if r.granted { "GRANTED" } else { "PENDING" },
        r.lock_type,
        r.duration,
        r.age_text(),
        all.join(", "),
        r.oldest
    );
    let status = if r.granted { "granted" } else { "pending" };
    html! {
        <li class={classes!("mdl-row", status)} data-testid={format!("mdl-{status}")}
            data-sessions={all.join(" ")} {title}>
            <div class="mdl-line">
                <span class="mdl-status">{ if r.granted { "GRANTED" } else { "PENDING" } }</span>
                <span class="mdl-type">{ r.lock_type.to_string() }</span>
                <span class="mdl-duration">{ r.duration.to_string() }</span>
                <span class="mdl-age">{ r.age_text() }</span>
            </div>
            <div class="mdl-line mdl-who">
                <span class="mdl-duration-alt">{ r.duration.to_string() }{ " · " }</span>{ line2 }
            </div>
        </li>
    }
}

fn lock_card(lock: &LockView) -> Html {
    let (_, lanes) = arrows(lock);
    let counts = if lock.waiting > 0 {
        format!("{} granted · {} waiting", lock.granted, lock.waiting)
    } else {
        format!("{} granted", lock.granted)
    };
    html! {
        <div class={classes!("mdl-lock", (lock.waiting > 0).then_some("contended"))}
             data-testid="mdl-lock" data-key={lock.title()}>
            <div class="mdl-lock-head">
                <span class="mdl-key">{ lock.title() }</span>
                if lock.object_type == "TABLE" {
                    <span class="mdl-ns">{ "TABLE" }</span>
                }
                <span class="mdl-counts">{ counts }</span>
            </div>
            <div class="mdl-queue" ~style={format!("padding-left: {}px", gutter_px(lanes))}>
                { arrows_svg(lock) }
                <ol class="mdl-rows" ~style={format!("--mdl-row: {ROW_PX}px; --mdl-gap: {ROW_GAP_PX}px")}>
                    { for (0..lock.rows.len()).map(|i| queue_row(lock, i)) }
                </ol>
            </div>
            if lock.hidden_waiting > 0 {
                <p class="mdl-more">{ format!("+ {} more waiting", lock.hidden_waiting) }</p>
            }
        </div>
    }
}

/// Props of [`MdlPanel`].
#[derive(Properties, PartialEq, Debug)]
pub struct MdlPanelProps {
    /// The locks.
    pub view: MdlView,
}

/// The panel.
#[function_component(MdlPanel)]
pub fn mdl_panel(props: &MdlPanelProps) -> Html {
    let view = &props.view;
    html! {
        <section class="panel" aria-labelledby="mdl-title" data-testid="mdl-panel">
            <h2 class="panel-title" id="mdl-title">
                <span>{ "Metadata locks" }</span>
                <span class="title-plain">
                    { "granted, then the queue; arrows: waits for" }
                </span>
            </h2>
            if view.is_empty() {
                <p class="mdl-empty" data-testid="mdl-empty">{ "no metadata locks held" }</p>
            } else {
                <div class="mdl-locks">
                    { for view.locks.iter().map(lock_card) }
                </div>
            }
        </section>
    }
}

#[cfg(test)]
mod tests;
