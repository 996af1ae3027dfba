//! Painting the map on its canvas: the bands with the map crate's pixel functions
//! (`ddlscope_map::paint`: a frame's [`Shade`], a pixel's majority, one RGBA image,
//! the same pixels as the CLI's posters) kept between frames, and the labels,
//! midpoints and scan cursors drawn over them with the 2D context.

use super::layout::{band_order, Layout};
use crate::canvas::theme::{self, Theme};
use crate::model::format;
use crate::model::spans::ScanSpan;
use ddlscope_engine::{Cell, Sim};
pub use ddlscope_map::shade::{swept, Mark, Shade, Swept};
use ddlscope_map::{fill, paint_instance};
use wasm_bindgen::Clamped;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

/// Buffers reused from frame to frame: the image of every band, kept between frames
/// so that a frame repaints only some bands (see [`draw`]).
#[derive(Debug, Default)]
pub struct MapScratch {
    cells: Vec<Cell>,
    pixels: Vec<u8>,
    /// What `pixels` was laid out for: canvas size, instances, theme.
    key: Option<(u32, u32, u16, bool)>,
    /// The band the round robin repaints next.
    next: u16,
}

impl MapScratch {
    /// Forgets the kept bands: the next [`draw`] repaints them all (after a seek or a
    /// restart, when what they show is from another time).
    pub fn invalidate(&mut self) {
        self.key = None;
    }
}

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    crate::canvas::panel::context_2d(canvas).ok()
}

/// What [`draw`] draws from, besides the canvas and the kept image.
pub struct MapFrame<'a> {
    /// The simulation, now.
    pub sim: &'a Sim,
    /// The scans not over yet.
    pub scans: &'a [ScanSpan],
    /// The colours.
    pub theme: &'a Theme,
    /// Device pixels per CSS pixel.
    pub dpr: f64,
    /// Wall time the frame may spend repainting bands past the ones it must.
    pub budget_ms: f64,
    /// Whether one band more than the scanned ones must be repainted (false in a
    /// frame that has other work to do).
    pub extra: bool,
    /// The wall clock, ms.
    pub clock: &'a dyn Fn() -> f64,
}

impl std::fmt::Debug for MapFrame<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapFrame")
            .field("now", &self.sim.now())
            .field("scans", &self.scans.len())
            .field("dpr", &self.dpr)
            .field("budget_ms", &self.budget_ms)
            .field("extra", &self.extra)
            .finish_non_exhaustive()
    }
}

/// Draws the map for the pool's state now, with the cursors of the active scans.
/// With `extra` false (a frame that has other work to do), only the scanned bands
/// are sure to be repainted.
///
/// Reading an instance's LRU order means walking its linked list, one cache miss a
/// block: 65,536 blocks take a few milliseconds, 8 M take tens. So a frame repaints
/// the bands of the instances being scanned, then other bands in turn while
/// `clock()` stays within `budget_ms` of the start, and keeps the rest from earlier
/// frames; the labels, midpoints and cursors are drawn fresh every frame. A resize
/// or a theme change repaints everything.
pub fn draw(canvas: &HtmlCanvasElement, f: &MapFrame<'_>, scratch: &mut MapScratch) {
    let (w, h) = (canvas.width(), canvas.height());
    let Some(ctx) = context(canvas) else { return };
    if w == 0 || h == 0 {
        return;
    }
    let started = (f.clock)();
    let pool = f.sim.pool();
    let layout = Layout::new(pool.n_instances(), w, f.dpr);
    let (wu, hu) = (w as usize, h as usize);
    let MapScratch {
        cells,
        pixels,
        key,
        next,
    } = scratch;
    let (sim, scans, theme) = (f.sim, f.scans, f.theme);
    let now = sim.now();
    let this_key = (w, h, pool.n_instances(), theme.dark);
    let full = *key != Some(this_key);
    let (bands, must) = if full {
        *key = Some(this_key);
        pixels.clear();
        pixels.resize(wu * hu * 4, 0);
        fill(pixels, theme);
        let all: Vec<u16> = (0..pool.n_instances()).collect();
        let n = all.len();
        (all, n)
    } else {
        let scanned: Vec<u16> = scans
            .iter()
            .filter(|s| s.active(now))
            .map(|s| s.instance)
            .collect();
        let order = band_order(pool.n_instances(), &scanned, *next);
        let must = order.len().min(scanned.len() + usize::from(f.extra));
        (order, must)
    };
    let mut painted: Vec<u16> = Vec::with_capacity(bands.len());
    for (k, &i) in bands.iter().enumerate() {
        if k >= must && (f.clock)() - started > f.budget_ms {
            break;
        }
        painted.push(i);
        if !full {
            *next = (i + 1) % pool.n_instances().max(1);
        }
        paint_instance(sim, scans, i, &layout, theme, pixels, (wu, hu), cells);
    }
    if put_image(&ctx, pixels, &layout, &painted, full, (w, h)).is_none() {
        return;
    }
    for &i in &painted {
        let text_end = draw_label(&ctx, f, &layout, i);
        draw_midpoint(&ctx, f, &layout, i, text_end);
        draw_regions(&ctx, f, &layout, i);
        draw_cursors(&ctx, f, &layout, i);
    }
}

/// Puts the repainted bands of the image on the canvas; `None` when the browser
/// refuses the image.
fn put_image(
    ctx: &CanvasRenderingContext2d,
    pixels: &[u8],
    layout: &Layout,
    painted: &[u16],
    full: bool,
    (w, h): (u32, u32),
) -> Option<()> {
    let (wu, hu) = (w as usize, h as usize);
    // Only the repainted bands go to the canvas, each with its label row (which the
    // image holds blank, so the old text goes): the others keep their last picture,
    // label and cursor included.
    // A full repaint puts the whole image, the gaps between bands included.
    let regions: Vec<(usize, usize)> = if full {
        vec![(0, hu)]
    } else {
        painted
            .iter()
            .map(|&i| {
                let row0 = (layout.label_top(i).floor() as usize).min(hu);
                (
                    row0,
                    (layout.band_top(i) as usize + layout.band_h as usize).min(hu),
                )
            })
            .collect()
    };
    for (row0, row1) in regions {
        if row1 <= row0 {
            continue;
        }
        let rows = &pixels[row0 * wu * 4..row1 * wu * 4];
        match ImageData::new_with_u8_clamped_array_and_sh(Clamped(rows), w, (row1 - row0) as u32) {
            Ok(image) => {
                let _ = ctx.put_image_data(&image, 0.0, row0 as f64);
            }
            Err(_) => return None,
        }
    }
    Some(())
}

/// The label row of band `i`: which instance, and its lists. Returns where its text
/// ends: later labels give way rather than overlap.
fn draw_label(ctx: &CanvasRenderingContext2d, f: &MapFrame<'_>, layout: &Layout, i: u16) -> f64 {
    let (sim, theme, dpr) = (f.sim, f.theme, f.dpr);
    let inst = &sim.pool().instances()[usize::from(i)];
    let baseline = layout.label_top(i) + layout.label_h - 5.0 * dpr;

    let name = format!("buf_pool[{i}]");
    ctx.set_font(&format!("600 {}px system-ui, sans-serif", 11.0 * dpr));
    ctx.set_fill_style_str(&theme::css(theme.text));
    let _ = ctx.fill_text(&name, 0.0, baseline);
    let name_w = ctx.measure_text(&name).map_or(70.0 * dpr, |m| m.width());
    let counts = [
        ("LRU", inst.lru_len()),
        ("old", inst.lru_old_len()),
        ("free", inst.free_len()),
        ("dirty", inst.dirty_len()),
        ("stale", inst.stale_len()),
        ("AHI/lock", inst.memory_len()),
    ];
    let waiting = sim
        .latch(ddlscope_engine::LatchId::BufPool(i))
        .waiter_count();
    ctx.set_font(&format!("{}px system-ui, sans-serif", 11.0 * dpr));
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
    ctx: &CanvasRenderingContext2d,
    f: &MapFrame<'_>,
    layout: &Layout,
    i: u16,
    text_end: f64,
) {
    let (theme, dpr) = (f.theme, f.dpr);
    let inst = &f.sim.pool().instances()[usize::from(i)];
    let n = inst.size();
    let top = f64::from(layout.band_top(i));
    let bottom = top + f64::from(layout.band_h);
    let baseline = layout.label_top(i) + layout.label_h - 5.0 * dpr;
    if inst.lru_old_len() > 0 {
        let x = layout.x_of(inst.lru_len() - inst.lru_old_len(), n).round() + 0.5;
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
            ctx.set_font(&format!("{}px system-ui, sans-serif", 10.0 * dpr));
            ctx.set_fill_style_str(&theme::css(theme.text_muted));
            let _ = ctx.fill_text("young | old", x + 6.0 * dpr, baseline);
        }
    }
}

/// The lent frames and the free blocks of band `i`, named when there is room.
fn draw_regions(ctx: &CanvasRenderingContext2d, f: &MapFrame<'_>, layout: &Layout, i: u16) {
    let (theme, dpr) = (f.theme, f.dpr);
    let inst = &f.sim.pool().instances()[usize::from(i)];
    let n = inst.size();
    let w = layout.width;
    let top = f64::from(layout.band_top(i));
    let memory_x = layout.x_of(inst.lru_len(), n);
    let free_x = layout.x_of(inst.lru_len() + inst.memory_len(), n);
    let regions = [
        ("AHI / lock", memory_x, free_x, theme.background),
        ("free", free_x, f64::from(w), theme.text_muted),
    ];
    for (name, x0, x1, colour) in regions {
        if x1 - x0 > 60.0 * dpr && layout.band_h as f64 > 14.0 * dpr {
            ctx.set_font(&format!("{}px system-ui, sans-serif", 11.0 * dpr));
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
fn draw_cursors(ctx: &CanvasRenderingContext2d, f: &MapFrame<'_>, layout: &Layout, i: u16) {
    let (theme, dpr, now) = (f.theme, f.dpr, f.sim.now());
    let inst = &f.sim.pool().instances()[usize::from(i)];
    let n = inst.size();
    let w = layout.width;
    let top = f64::from(layout.band_top(i));
    let bottom = top + f64::from(layout.band_h);
    for s in f.scans.iter().filter(|s| s.instance == i && s.active(now)) {
        let pos = inst.lru_len().saturating_sub(s.visited(now));
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
        ctx.set_font(&format!("600 {}px system-ui, sans-serif", 11.0 * dpr));
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
