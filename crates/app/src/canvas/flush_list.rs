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

use crate::canvas::panel::text_scale;
use crate::canvas::theme::{css, Rgb, Theme};
use crate::model::panels::{FlushView, MAX_FLUSH_LANES};
use wasm_bindgen::Clamped;
use web_sys::{HtmlCanvasElement, ImageData};
use yew::prelude::*;

/// CSS pixels per instance lane.
const LANE_PX: f64 = 16.0;
/// The lanes' text, CSS px (larger in presenter mode: `panel::text_scale`).
const TEXT_PX: f64 = 12.0;
/// Label and count columns, CSS pixels.
const LABEL_PX: f64 = 84.0;
const COUNT_PX: f64 = 160.0;

/// CSS height of the canvas for `instances` instances.
pub fn css_height(instances: u16) -> f64 {
    LANE_PX * f64::from(instances.clamp(1, MAX_FLUSH_LANES)) + 4.0
}

/// Sizes the canvas's pixel buffer; returns its pixel size.
pub fn fit_canvas(canvas: &HtmlCanvasElement, instances: u16, dpr: f64) -> (u32, u32) {
    crate::canvas::panel::fit(canvas, css_height(instances) * text_scale(TEXT_PX), dpr)
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
    // Everything drawn larger by the text's scale (presenter mode), the canvas too.
    let scale = text_scale(TEXT_PX);
    let dpr = dpr * scale;
    let _ = canvas.set_attribute("data-label-px", &format!("{:.3}", TEXT_PX * scale));
    let w = f64::from(canvas.width()) / dpr;
    let plot_w = (w - LABEL_PX - COUNT_PX).max(10.0);
    ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0)
        .map_err(|_| "transform")?;
    ctx.set_fill_style_str(&css(theme.background));
    ctx.fill_rect(0.0, 0.0, w, f64::from(canvas.height()) / dpr);
    ctx.set_font(&format!("{TEXT_PX}px system-ui, sans-serif"));
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
        let columns = bar_w.ceil() as usize;
        let colour_of = |c: usize| {
            let cell = lane.cells.get(c * kept / columns.max(1))?;
            Some(if cell.io {
                theme.io
            } else {
                theme.space(cell.space)
            })
        };
        // The bar as pixels, put at once: a colour for every pixel column through
        // the context would be hundreds of calls a lane, 30 times a second.
        let bar = Bar::new(plot_w, LANE_PX - 4.0, dpr);
        let pixels = bar.pixels(&runs(columns, colour_of), theme.free);
        let image =
            ImageData::new_with_u8_clamped_array_and_sh(Clamped(&pixels), bar.width, bar.height)
                .map_err(|_| "the flush list's image")?;
        ctx.put_image_data(&image, (LABEL_PX * dpr).round(), ((y + 2.0) * dpr).round())
            .map_err(|_| "the flush list's image")?;
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
            text_px={TEXT_PX}
            css_height={css_height(props.instances)}
        >
            { "dirty pages, oldest modification first, with a walk's cursor; walks by DDL: " }
            <b data-testid="flush-walks">{ crate::model::format::int(props.walks) }</b>
        </crate::canvas::panel::CanvasPanel>
    }
}

/// A lane's bar in device pixels: `css_w` by `css_h` CSS pixels at `dpr`.
struct Bar {
    width: u32,
    height: u32,
    dpr: f64,
}

impl Bar {
    fn new(css_w: f64, css_h: f64, dpr: f64) -> Bar {
        Bar {
            width: (css_w * dpr).round().max(1.0) as u32,
            height: (css_h * dpr).round().max(1.0) as u32,
            dpr,
        }
    }

    /// RGBA rows: `free` where no run is, each run (`(first, width, colour)` in CSS
    /// pixel columns) over the device pixels its columns cover.
    fn pixels(&self, runs: &[(usize, usize, Rgb)], free: Rgb) -> Vec<u8> {
        let w = self.width as usize;
        let px = |x: usize| ((x as f64 * self.dpr).round() as usize).min(w);
        let mut row = Vec::with_capacity(w * 4);
        for _ in 0..w {
            row.extend_from_slice(&[free[0], free[1], free[2], 255]);
        }
        for &(first, width, c) in runs {
            for p in row[px(first) * 4..px(first + width) * 4].chunks_exact_mut(4) {
                p.copy_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
        row.repeat(self.height as usize)
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
    fn a_bar_is_its_runs_over_the_free_colour_in_device_pixels() {
        let (free, a, b) = ([0, 0, 0], [10, 20, 30], [200, 100, 50]);
        let bar = Bar::new(4.0, 2.0, 1.5);
        assert_eq!((bar.width, bar.height), (6, 3));
        let pixels = bar.pixels(&[(0, 1, a), (1, 2, b)], free);
        assert_eq!(pixels.len(), 6 * 3 * 4);
        let colour = |x: usize, y: usize| {
            let i = (y * 6 + x) * 4;
            [pixels[i], pixels[i + 1], pixels[i + 2]]
        };
        // Column 0 covers device pixels 0..2 (1.5 rounds up), columns 1..3 pixels 2..5.
        let row: Vec<_> = (0..6).map(|x| colour(x, 0)).collect();
        assert_eq!(row, vec![a, a, b, b, b, free]);
        assert!((0..6).all(|x| colour(x, 2) == row[x]), "every row alike");
        assert!(pixels.chunks_exact(4).all(|p| p[3] == 255), "opaque");
    }

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
