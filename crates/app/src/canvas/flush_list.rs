//! The flush list of each buffer-pool instance, oldest modification first: the order a
//! flush-list walk visits it, so a walk that restarts from the oldest end after every
//! page it writes (5.7, bug #102289) shows as a cursor snapping back again and again.
//!
//! ```text
//!   buf_pool[0] |▓▓▓▓▓▓▒▒▒▒▒▒▒░░░░░▓▓▓▓▓|        1,283 walks
//!                ^ oldest          ^ cursor of the walk running now
//! ```
//!
//! Each pixel column is coloured by the tablespace of the entries it covers (pages
//! being written in the I/O colour). Lengths are to scale across instances.

use crate::canvas::theme::{css, Rgb, Theme};
use crate::model::panels::{FlushView, MAX_FLUSH_LANES};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// CSS pixels per instance lane.
const LANE_PX: f64 = 16.0;
/// Label and count columns, CSS pixels.
const LABEL_PX: f64 = 84.0;
const COUNT_PX: f64 = 160.0;

/// CSS height of the canvas for `instances` instances.
pub fn css_height(instances: u16) -> f64 {
    LANE_PX * f64::from(instances.clamp(1, MAX_FLUSH_LANES)) + 4.0
}

/// Sizes the canvas's pixel buffer; returns its pixel size.
pub fn fit_canvas(canvas: &HtmlCanvasElement, instances: u16, dpr: f64) -> (u32, u32) {
    crate::canvas::panel::fit(canvas, css_height(instances), dpr)
}

/// Draws the first instances' flush lists with the walks running now.
pub fn draw(
    canvas: &HtmlCanvasElement,
    view: &FlushView,
    theme: &Theme,
    dpr: f64,
) -> Result<(), String> {
    let context = crate::canvas::panel::context_2d(canvas)?;
    let ctx = crate::canvas::pen::Pen::new(&context);
    let w = f64::from(canvas.width()) / dpr;
    let plot_w = (w - LABEL_PX - COUNT_PX).max(10.0);
    ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0)
        .map_err(|_| "transform")?;
    ctx.set_fill_style_str(&css(theme.background));
    ctx.fill_rect(0.0, 0.0, w, f64::from(canvas.height()) / dpr);
    ctx.set_font("12px system-ui, sans-serif");
    ctx.set_text_baseline("middle");
    let longest = view.lanes.iter().map(|l| l.len).max().unwrap_or(0).max(1);
    let now = view.now;
    for (i, lane) in view.lanes.iter().enumerate() {
        let i = i as u16;
        let y = f64::from(i) * LANE_PX;
        ctx.set_fill_style_str(&css(theme.text));
        let _ = ctx.fill_text(&format!("buf_pool[{i}]"), 4.0, y + LANE_PX / 2.0);
        let len = lane.len as usize;
        let kept = lane.cells.len();
        let bar_w = plot_w * len as f64 / f64::from(longest);
        ctx.set_fill_style_str(&css(theme.free));
        ctx.fill_rect(LABEL_PX, y + 2.0, plot_w, LANE_PX - 4.0);
        let columns = bar_w.ceil() as usize;
        let colour_of = |c: usize| {
            let cell = lane.cells.get(c * kept / columns.max(1))?;
            Some(if cell.io {
                theme.io
            } else {
                theme.space(cell.space)
            })
        };
        for (first, width, colour) in runs(columns, colour_of) {
            ctx.set_fill_style_str(&css(colour));
            ctx.fill_rect(
                LABEL_PX + first as f64,
                y + 2.0,
                width as f64,
                LANE_PX - 4.0,
            );
        }
        for s in view
            .running
            .iter()
            .filter(|s| s.instance == i && s.active(now))
        {
            let at = f64::from(s.from + s.visited(now)).min(len as f64);
            let x = LABEL_PX + plot_w * at / f64::from(longest);
            ctx.set_fill_style_str(&css(theme.cursor));
            ctx.fill_rect(x - 1.0, y, 2.0, LANE_PX);
        }
        ctx.set_fill_style_str(&css(theme.text_muted));
        let walks = lane.walks;
        let _ = ctx.fill_text(
            &format!(
                "{} dirty · {} walks",
                crate::model::format::int(len as u64),
                crate::model::format::int(walks)
            ),
            LABEL_PX + plot_w + 6.0,
            y + LANE_PX / 2.0,
        );
    }
    Ok(())
}

/// Props of [`FlushList`].
#[derive(Properties, PartialEq, Debug)]
pub struct FlushListProps {
    /// The canvas the frame loop draws on.
    pub canvas: NodeRef,
    /// Buffer-pool instances.
    pub instances: u16,
    /// Walks so far, every instance together.
    pub walks: u64,
}

/// The panel around the canvas.
#[function_component(FlushList)]
pub fn flush_list(props: &FlushListProps) -> Html {
    html! {
        <crate::canvas::panel::CanvasPanel
            title_id="flush-title"
            title="Flush list"
            canvas={props.canvas.clone()}
            testid="flush-list"
            label="Each instance's flush list, oldest modification first"
            css_height={css_height(props.instances)}
        >
            { "dirty pages, oldest modification first, with a walk's cursor; walks by DDL: " }
            <b data-testid="flush-walks">{ crate::model::format::int(props.walks) }</b>
        </crate::canvas::panel::CanvasPanel>
    }
}

/// Columns `0..columns` as runs of one colour, `(first, width, colour)`, each
/// column coloured by `colour_of` (the runs end at the first column without one):
/// one rectangle a run, not one a pixel column.
fn runs(columns: usize, colour_of: impl Fn(usize) -> Option<Rgb>) -> Vec<(usize, usize, Rgb)> {
    let mut out: Vec<(usize, usize, Rgb)> = Vec::new();
    for c in 0..columns {
        let Some(colour) = colour_of(c) else {
            break;
        };
        match out.last_mut() {
            Some((_, width, last)) if *last == colour => *width += 1,
            _ => out.push((c, 1, colour)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_of_one_colour_are_one_run() {
        let (a, b) = ([1, 2, 3], [9, 9, 9]);
        let colours = [a, a, a, b, b, a];
        assert_eq!(
            runs(6, |c| colours.get(c).copied()),
            vec![(0, 3, a), (3, 2, b), (5, 1, a)]
        );
        assert_eq!(
            runs(9, |c| colours.get(c).copied()).len(),
            3,
            "stops at the end"
        );
        assert!(runs(0, |_| Some(a)).is_empty());
    }
}
