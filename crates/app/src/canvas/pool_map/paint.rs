//! The text and marks over the map's pixels: the labels, midpoints and scan cursors
//! drawn with the 2D context over the rows the worker painted (with the map crate's
//! pixel functions, `ddlscope_map::paint`: a frame's [`Shade`], a pixel's majority,
//! the same pixels as the CLI's posters; `model::map_pixels`).

use super::fit::Layout;
use crate::canvas::pen::Pen;
use crate::canvas::theme::{self, Theme};
use crate::model::format;
use crate::model::map_pixels::BandInfo;
use crate::model::spans::ScanSpan;
use ddlscope_engine::Tick;
pub use ddlscope_map::shade::{swept, Mark, Shade, Swept};
use web_sys::CanvasRenderingContext2d;

/// What the text and marks over the bands are drawn from: every instance's figures,
/// the running scans, the virtual time.
#[derive(Clone, Copy, Debug)]
pub struct Overlay<'a> {
    /// Every instance's figures.
    pub bands: &'a [BandInfo],
    /// The scans not over yet.
    pub scans: &'a [ScanSpan],
    /// The virtual time drawn.
    pub now: Tick,
    /// The colours.
    pub theme: &'a Theme,
    /// Device pixels per CSS pixel.
    pub dpr: f64,
}

/// The map's labels, CSS px.
pub const LABEL_PX: f64 = 11.0;

/// The smallest text the map draws, CSS px: "young | old" at 10 px, at the labels'
/// size in presenter mode's large text (20 px on screen once zoomed).
pub fn smallest_text_px() -> f64 {
    if crate::canvas::host_scale::large_text() {
        label_px()
    } else {
        10.0
    }
}

/// The labels' size, CSS px of the canvas: [`LABEL_PX`], larger with presenter
/// mode's large text (`host_scale::map_label_px`).
fn label_px() -> f64 {
    crate::canvas::host_scale::map_label_px(LABEL_PX)
}

/// Draws the label rows, midpoints, regions and scan cursors of `bands` over their
/// freshly put pixels.
pub fn draw_overlays(
    ctx: &CanvasRenderingContext2d,
    o: &Overlay<'_>,
    layout: &Layout,
    bands: &[u16],
) {
    let pen = Pen::new(ctx);
    for &i in bands {
        let Some(band) = o.bands.get(usize::from(i)) else {
            continue;
        };
        let text_end = draw_label(&pen, o, band, layout, i);
        draw_midpoint(&pen, o, band, layout, i, text_end);
        draw_regions(&pen, o, band, layout, i);
        draw_cursors(&pen, o, band, layout, i);
    }
}

/// The label row of band `i`: which instance, and its lists. Returns where its text
/// ends: later labels give way rather than overlap.
fn draw_label(ctx: &Pen<'_>, o: &Overlay<'_>, inst: &BandInfo, layout: &Layout, i: u16) -> f64 {
    let (theme, dpr) = (o.theme, o.dpr);
    let baseline = layout.label_top(i) + layout.label_h - 5.0 * dpr;

    let name = format!("buf_pool[{i}]");
    ctx.set_font(&format!("600 {}px system-ui, sans-serif", label_px() * dpr));
    ctx.set_fill_style_str(&theme::css(theme.text));
    let _ = ctx.fill_text(&name, 0.0, baseline);
    let name_w = ctx.measure_text(&name).map_or(70.0 * dpr, |m| m.width());
    let counts = [
        ("LRU", inst.lru),
        ("old", inst.old),
        ("free", inst.free),
        ("dirty", inst.dirty),
        ("stale", inst.stale),
        ("AHI/lock", inst.memory),
    ];
    let waiting = inst.waiting;
    ctx.set_font(&format!("{}px system-ui, sans-serif", label_px() * dpr));
    ctx.set_fill_style_str(&theme::css(theme.text_muted));
    let detail_x = name_w + 8.0 * dpr;
    // The fullest form that fits the row: a narrow map (a phone, an embed) gets
    // shorter numbers, then fewer of them, rather than text cut at the edge.
    let room = f64::from(layout.width) - detail_x;
    let detail = label_forms(&counts)
        .into_iter()
        .find(|d| ctx.measure_text(d).map_or(0.0, |m| m.width()) <= room)
        .unwrap_or_default();
    let _ = ctx.fill_text(&detail, detail_x, baseline);
    // Where the label row's text ends: later labels give way rather than overlap.
    let mut text_end = detail_x + ctx.measure_text(&detail).map_or(0.0, |m| m.width());
    if waiting > 0 {
        let note = format!("· {waiting} waiting");
        ctx.set_fill_style_str(&theme::css(theme.cursor));
        let _ = ctx.fill_text(&note, text_end + 4.0 * dpr, baseline);
        text_end += 4.0 * dpr + ctx.measure_text(&note).map_or(0.0, |m| m.width());
    }
    text_end
}

/// The label row's counts, from the fullest form to the shortest: every nonzero
/// count with thousands separators (LRU, old and free always), then in short numbers
/// (`51k`), then without the old sublist, then the LRU and free lists alone, then
/// nothing.
pub fn label_forms(counts: &[(&str, u32)]) -> Vec<String> {
    let always = ["LRU", "old", "free"];
    let shown: Vec<(&str, u32)> = counts
        .iter()
        .copied()
        .filter(|(what, n)| *n > 0 || always.contains(what))
        .collect();
    let join = |items: &[(&str, u32)], short: bool| {
        items
            .iter()
            .map(|(what, n)| {
                let n = if short {
                    format::count_short(f64::from(*n))
                } else {
                    format::int(u64::from(*n))
                };
                format!("{what} {n}")
            })
            .collect::<Vec<_>>()
            .join(" · ")
    };
    let without_old: Vec<(&str, u32)> =
        shown.iter().copied().filter(|(w, _)| *w != "old").collect();
    let lists: Vec<(&str, u32)> = shown
        .iter()
        .copied()
        .filter(|(w, _)| *w == "LRU" || *w == "free")
        .collect();
    vec![
        join(&shown, false),
        join(&shown, true),
        join(&without_old, true),
        join(&lists, true),
        String::new(),
    ]
}

/// The old/young midpoint of band `i`: LRU_old, the first block of the old sublist,
/// labelled when there is room after `text_end`.
fn draw_midpoint(
    ctx: &Pen<'_>,
    o: &Overlay<'_>,
    inst: &BandInfo,
    layout: &Layout,
    i: u16,
    text_end: f64,
) {
    let (theme, dpr) = (o.theme, o.dpr);
    let n = inst.size;
    let top = f64::from(layout.band_top(i));
    let bottom = top + f64::from(layout.band_h);
    let baseline = layout.label_top(i) + layout.label_h - 5.0 * dpr;
    if inst.old > 0 {
        let x = layout.x_of(inst.lru - inst.old, n).round() + 0.5;
        // The flag sits in the label row: only where it covers none of the text.
        let flag = x - 6.0 * dpr > text_end;
        ctx.set_stroke_style_str(&theme::css_alpha(theme.marker, 0.85));
        ctx.set_line_width((1.5 * dpr).max(1.0));
        ctx.begin_path();
        ctx.move_to(x, if flag { top - 3.0 * dpr } else { top });
        ctx.line_to(x, bottom);
        ctx.stroke();
        if !flag {
            return;
        }
        // A small flag above the band, labelled when there is room.
        ctx.set_fill_style_str(&theme::css(theme.marker));
        ctx.begin_path();
        ctx.move_to(x - 4.0 * dpr, top - 7.0 * dpr);
        ctx.line_to(x + 4.0 * dpr, top - 7.0 * dpr);
        ctx.line_to(x, top - 2.0 * dpr);
        ctx.close_path();
        ctx.fill();
        if x - 6.0 * dpr > text_end {
            ctx.set_font(&format!(
                "{}px system-ui, sans-serif",
                smallest_text_px() * dpr
            ));
            ctx.set_fill_style_str(&theme::css(theme.text_muted));
            let _ = ctx.fill_text("young | old", x + 6.0 * dpr, baseline);
        }
    }
}

/// The lent frames and the free blocks of band `i`, named when there is room.
fn draw_regions(ctx: &Pen<'_>, o: &Overlay<'_>, inst: &BandInfo, layout: &Layout, i: u16) {
    let (theme, dpr) = (o.theme, o.dpr);
    let n = inst.size;
    let w = layout.width;
    let top = f64::from(layout.band_top(i));
    let memory_x = layout.x_of(inst.lru, n);
    let free_x = layout.x_of(inst.lru + inst.memory, n);
    let regions = [
        ("AHI / lock", memory_x, free_x, theme.background),
        ("free", free_x, f64::from(w), theme.text_muted),
    ];
    for (name, x0, x1, colour) in regions {
        if x1 - x0 > 60.0 * dpr && layout.band_h as f64 > 14.0 * dpr {
            ctx.set_font(&format!("{}px system-ui, sans-serif", label_px() * dpr));
            ctx.set_fill_style_str(&theme::css(colour));
            ctx.set_text_align("center");
            let _ = ctx.fill_text(
                name,
                (x0 + x1) / 2.0,
                top + f64::from(layout.band_h) / 2.0 + 4.0 * dpr,
            );
            ctx.set_text_align("start");
        }
    }
}

/// The scan cursors sweeping band `i`, where the masking put them.
fn draw_cursors(ctx: &Pen<'_>, o: &Overlay<'_>, inst: &BandInfo, layout: &Layout, i: u16) {
    let (theme, dpr, now) = (o.theme, o.dpr, o.now);
    let n = inst.size;
    let w = layout.width;
    let top = f64::from(layout.band_top(i));
    let bottom = top + f64::from(layout.band_h);
    for s in o.scans.iter().filter(|s| s.instance == i && s.active(now)) {
        let pos = inst.lru.saturating_sub(s.visited(now));
        let x = layout.x_of(pos, n).round();
        ctx.set_fill_style_str(&theme::css_alpha(theme.cursor, 0.25));
        ctx.fill_rect(x - 4.0 * dpr, top, 8.0 * dpr, f64::from(layout.band_h));
        ctx.set_fill_style_str(&theme::css(theme.cursor));
        ctx.fill_rect(
            x - dpr,
            layout.label_top(i) + 2.0 * dpr,
            2.0 * dpr,
            bottom - layout.label_top(i) - 2.0 * dpr,
        );
        let label = format!("{} held", s.latch);
        ctx.set_font(&format!("600 {}px system-ui, sans-serif", label_px() * dpr));
        let tw = ctx.measure_text(&label).map_or(90.0 * dpr, |m| m.width());
        let pw = tw + 12.0 * dpr;
        let ph = 16.0 * dpr;
        // The label trails the cursor inside the band, over the part already swept,
        // where it hides no unvisited page; at the tail it has to lead.
        let px = if x + 2.0 * dpr + pw <= f64::from(w) {
            x + 2.0 * dpr
        } else {
            x - pw - 2.0 * dpr
        };
        let py = if f64::from(layout.band_h) >= ph + 2.0 * dpr {
            top + (f64::from(layout.band_h) - ph) / 2.0
        } else {
            layout.label_top(i) + 1.0 * dpr
        };
        ctx.set_fill_style_str(&theme::css(theme.cursor));
        ctx.fill_rect(px, py, pw, ph);
        ctx.set_fill_style_str("#ffffff");
        ctx.set_text_baseline("middle");
        let _ = ctx.fill_text(&label, px + 6.0 * dpr, py + ph / 2.0 + 0.5 * dpr);
        ctx.set_text_baseline("alphabetic");
    }
}
