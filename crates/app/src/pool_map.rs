//! The buffer-pool map: every frame of the pool, in LRU order, one band per instance.
//!
//! ```text
//!  buf_pool[0]  LRU 64,519 · old 23,800 · free 1,024          ▾old
//!  ┌────────────────────────────────────────────┬──────────────┬──┐
//!  │ head (young)  t1 t2 t2 t1 ...              │ old ... tail │fr│   column by column:
//!  └────────────────────────────────────────────┴──────────────┴──┘   each pixel column is
//!  buf_pool[1]  ...                    buf_pool[1] held ┃              a contiguous run of
//!  ┌───────────────────────────────────────────────────┃───────────┐  LRU positions
//! ```
//!
//! A band is filled column-major: pixel column `x` of a `w`-pixel band holds LRU
//! positions `x·n/w ..(x+1)·n/w` (`n` = the instance's frames: its LRU list, then its
//! free list), stacked top to bottom. So a vertical line is one LRU position, and the
//! scan cursor of `buf_LRU_remove_all_pages()` is a vertical line that walks left, from
//! the tail toward the head. At the demo's 262,144 frames a pixel holds a few frames
//! and takes the colour of the most common state among them (ties go to the rarer
//! state: under I/O, then stale, then clean, then free), so no state vanishes.
//!
//! Colours: clean pages in their tablespace's colour, stale pages (8.0.23 after a DROP)
//! as washed-out diagonal stripes of it, pages being read bright yellow, free blocks
//! neutral. The whole map is built in one RGBA buffer and put on the canvas with one
//! `putImageData` a frame; the labels, the old/young midpoints and the scan cursors are
//! drawn over it with the 2D context. No DOM node per page.

use crate::format;
use crate::runner::{ScanSpan, TableInfo};
use crate::theme::{self, Rgb, Theme};
use ddlscope_engine::{Cell, CellKind, Sim, SpaceId};
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};
use yew::prelude::*;

/// Height of the text row above each band, CSS px.
const LABEL_H: f64 = 18.0;
/// Space between one band and the next label, CSS px.
const GAP: f64 = 8.0;

/// Height of each instance's band, CSS px: roomy for a few instances, thinner for many.
fn band_height(instances: u16) -> f64 {
    (136.0 / f64::from(instances.max(1))).clamp(10.0, 34.0)
}

/// The canvas's CSS height for `instances` bands.
pub fn css_height(instances: u16) -> f64 {
    let n = f64::from(instances.max(1));
    n * (LABEL_H + band_height(instances)) + (n - 1.0) * GAP + 2.0
}

/// Band geometry in device pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Layout {
    dpr: f64,
    width: u32,
    label_h: f64,
    band_h: u32,
    pitch: f64,
}

impl Layout {
    fn new(instances: u16, width: u32, dpr: f64) -> Layout {
        Layout {
            dpr,
            width,
            label_h: LABEL_H * dpr,
            band_h: (band_height(instances) * dpr).round() as u32,
            pitch: (LABEL_H + band_height(instances) + GAP) * dpr,
        }
    }
    /// Top of instance `i`'s label row.
    fn label_top(&self, i: u16) -> f64 {
        f64::from(i) * self.pitch
    }
    /// Top of instance `i`'s band.
    fn band_top(&self, i: u16) -> u32 {
        (self.label_top(i) + self.label_h).round() as u32
    }
    /// The x of LRU position `pos` (0 = head) in a band of `n` frames.
    fn x_of(&self, pos: u32, n: u32) -> f64 {
        f64::from(self.width) * f64::from(pos) / f64::from(n.max(1))
    }
}

/// Buffers reused from frame to frame.
#[derive(Debug, Default)]
pub struct MapScratch {
    cells: Vec<Cell>,
    pixels: Vec<u8>,
}

/// Sizes the canvas's pixel buffer to its CSS box × device pixel ratio (only when it
/// changed: resizing clears the canvas). Returns the size in device pixels.
pub fn fit_canvas(canvas: &HtmlCanvasElement, instances: u16, dpr: f64) -> (u32, u32) {
    let w = (f64::from(canvas.client_width()) * dpr).round() as u32;
    let h = (css_height(instances) * dpr).round() as u32;
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    (w, h)
}

/// A pixel's summary of the frames it covers: what it shows, by priority on ties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    /// A free block.
    Free,
    /// A page of a live tablespace.
    Clean(SpaceId),
    /// A page of an old tablespace version.
    Stale(SpaceId),
    /// A page being read.
    Io,
}

impl Shade {
    /// How a frame is drawn. Kinds this map does not tell apart yet are drawn as their
    /// tablespace's pages (comparisons rather than a `match`, so a new kind in the
    /// engine does not break the app).
    pub fn of(cell: &Cell) -> Shade {
        if cell.kind == CellKind::Free {
            Shade::Free
        } else if cell.kind == CellKind::Io {
            Shade::Io
        } else if cell.kind == CellKind::Stale {
            Shade::Stale(cell.space)
        } else {
            Shade::Clean(cell.space)
        }
    }
    /// Which wins a tie: the rarer state.
    fn priority(self) -> u8 {
        match self {
            Shade::Free => 0,
            Shade::Clean(_) => 1,
            Shade::Stale(_) => 2,
            Shade::Io => 3,
        }
    }
    fn colour(self, theme: &Theme, stripe: bool) -> Rgb {
        match self {
            Shade::Free => theme.free,
            Shade::Clean(s) => theme.space(s),
            Shade::Stale(s) => theme.stale_of(s, stripe),
            Shade::Io => theme.io,
        }
    }
}

/// The most common shade among `cells` (ties to the higher priority).
fn majority<T>(cells: &[T], shade_of: impl Fn(&T) -> Shade) -> Shade {
    // A pixel covers a handful of frames and at most a few distinct shades.
    let mut seen: [(Shade, u32); 6] = [(Shade::Free, 0); 6];
    let mut distinct = 0;
    for c in cells {
        let s = shade_of(c);
        if let Some(slot) = seen[..distinct].iter_mut().find(|(k, _)| *k == s) {
            slot.1 += 1;
        } else if distinct < seen.len() {
            seen[distinct] = (s, 1);
            distinct += 1;
        }
    }
    seen[..distinct]
        .iter()
        .max_by_key(|(s, n)| (*n, s.priority()))
        .map_or(Shade::Free, |(s, _)| *s)
}

/// Paints one band: `cells` (one instance, LRU order then free) into the `w`×`h` box at
/// row `y0` of an RGBA image `img_w` pixels wide. `stripe_px` is the width of a stale
/// stripe.
#[allow(clippy::too_many_arguments)]
fn paint_band<T>(
    cells: &[T],
    shade_of: impl Fn(&T) -> Shade + Copy,
    theme: &Theme,
    img: &mut [u8],
    img_w: usize,
    y0: usize,
    w: usize,
    h: usize,
    stripe_px: usize,
) {
    let n = cells.len() as u64;
    if n == 0 || w == 0 || h == 0 {
        return;
    }
    let total = (w * h) as u64;
    for x in 0..w {
        for y in 0..h {
            let p = (x * h + y) as u64;
            let lo = (p * n / total) as usize;
            let hi = (((p + 1) * n / total) as usize)
                .max(lo + 1)
                .min(cells.len());
            let shade = majority(&cells[lo..hi], shade_of);
            let stripe = ((x + y) / stripe_px.max(1)) & 1 == 0;
            let c = shade.colour(theme, stripe);
            let at = ((y0 + y) * img_w + x) * 4;
            img[at..at + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
}

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok().flatten()?.dyn_into().ok()
}

/// Draws the whole map for the pool's state now, with the cursors of the active scans.
pub fn draw(
    canvas: &HtmlCanvasElement,
    sim: &Sim,
    scans: &[ScanSpan],
    theme: &Theme,
    dpr: f64,
    scratch: &mut MapScratch,
) {
    let (w, h) = (canvas.width(), canvas.height());
    let Some(ctx) = context(canvas) else { return };
    if w == 0 || h == 0 {
        return;
    }
    let pool = sim.pool();
    let layout = Layout::new(pool.n_instances(), w, dpr);
    let (wu, hu) = (w as usize, h as usize);
    let MapScratch { cells, pixels } = scratch;
    pixels.clear();
    pixels.resize(wu * hu * 4, 0);
    let bg = theme.background;
    for px in pixels.chunks_exact_mut(4) {
        px.copy_from_slice(&[bg[0], bg[1], bg[2], 255]);
    }
    let stripe_px = (3.0 * dpr).round() as usize;
    for i in 0..pool.n_instances() {
        pool.lru_cells(i, cells);
        let top = layout.band_top(i) as usize;
        let band_h = (layout.band_h as usize).min(hu.saturating_sub(top));
        paint_band(
            cells,
            Shade::of,
            theme,
            pixels,
            wu,
            top,
            wu,
            band_h,
            stripe_px,
        );
    }
    match ImageData::new_with_u8_clamped_array_and_sh(Clamped(&pixels[..]), w, h) {
        Ok(image) => {
            let _ = ctx.put_image_data(&image, 0.0, 0.0);
        }
        Err(_) => return,
    }
    let now = sim.now();
    for i in 0..pool.n_instances() {
        let inst = &pool.instances()[usize::from(i)];
        let n = inst.size();
        let top = f64::from(layout.band_top(i));
        let bottom = top + f64::from(layout.band_h);
        let baseline = layout.label_top(i) + layout.label_h - 5.0 * dpr;

        // The label: which instance, and its lists.
        let name = format!("buf_pool[{i}]");
        ctx.set_font(&format!("600 {}px system-ui, sans-serif", 11.0 * dpr));
        ctx.set_fill_style_str(&theme::css(theme.text));
        let _ = ctx.fill_text(&name, 0.0, baseline);
        let name_w = ctx.measure_text(&name).map_or(70.0 * dpr, |m| m.width());
        let mut detail = format!(
            "LRU {} · old {} · free {}",
            format::int(u64::from(inst.lru_len())),
            format::int(u64::from(inst.lru_old_len())),
            format::int(u64::from(inst.free_len()))
        );
        if inst.stale_len() > 0 {
            detail.push_str(&format!(
                " · stale {}",
                format::int(u64::from(inst.stale_len()))
            ));
        }
        let waiting = sim
            .latch(ddlscope_engine::LatchId::BufPool(i))
            .waiter_count();
        ctx.set_font(&format!("{}px system-ui, sans-serif", 11.0 * dpr));
        ctx.set_fill_style_str(&theme::css(theme.text_muted));
        let detail_x = name_w + 8.0 * dpr;
        let _ = ctx.fill_text(&detail, detail_x, baseline);
        // Where the label row's text ends: later labels give way rather than overlap.
        let mut text_end = detail_x + ctx.measure_text(&detail).map_or(0.0, |m| m.width());
        if waiting > 0 {
            let note = format!("· {waiting} waiting");
            ctx.set_fill_style_str(&theme::css(theme.cursor));
            let _ = ctx.fill_text(&note, text_end + 4.0 * dpr, baseline);
            text_end += 4.0 * dpr + ctx.measure_text(&note).map_or(0.0, |m| m.width());
        }

        // The old/young midpoint: LRU_old, the first block of the old sublist.
        if inst.lru_old_len() > 0 {
            let x = layout.x_of(inst.lru_len() - inst.lru_old_len(), n).round() + 0.5;
            ctx.set_stroke_style_str(&theme::css_alpha(theme.marker, 0.85));
            ctx.set_line_width((1.5 * dpr).max(1.0));
            ctx.begin_path();
            ctx.move_to(x, top - 3.0 * dpr);
            ctx.line_to(x, bottom);
            ctx.stroke();
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

        // The free blocks, named when there is room.
        let free_x = layout.x_of(inst.lru_len(), n);
        let free_w = f64::from(w) - free_x;
        if free_w > 60.0 * dpr && layout.band_h as f64 > 14.0 * dpr {
            ctx.set_font(&format!("{}px system-ui, sans-serif", 11.0 * dpr));
            ctx.set_fill_style_str(&theme::css(theme.text_muted));
            ctx.set_text_align("center");
            let _ = ctx.fill_text(
                "free",
                free_x + free_w / 2.0,
                top + f64::from(layout.band_h) / 2.0 + 4.0 * dpr,
            );
            ctx.set_text_align("start");
        }

        // The scan cursors sweeping this instance.
        for s in scans.iter().filter(|s| s.instance == i && s.active(now)) {
            let x = layout.x_of(s.unvisited(now), n).round();
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
}

/// Properties of [`PoolMap`].
#[derive(Properties, PartialEq, Debug)]
pub struct PoolMapProps {
    /// The canvas the frame loop draws into.
    pub canvas: NodeRef,
    /// Buffer-pool instances (one band each).
    pub instances: u16,
    /// The tables, for the legend.
    pub tables: Vec<TableInfo>,
}

/// The map panel: title, canvas and legend. The frame loop does the drawing.
#[function_component(PoolMap)]
pub fn pool_map(props: &PoolMapProps) -> Html {
    let height = format!("height: {}px", css_height(props.instances));
    let first_space = props.tables.first().map_or(SpaceId(1), |t| t.space);
    let subtle = "text-transform: none; letter-spacing: 0; font-weight: 400";
    html! {
        <section class="panel map" aria-labelledby="map-title">
            <h2 class="panel-title" id="map-title">
                <span>{ "Buffer pool map" }</span>
                <span style={subtle}>{ "one band per instance: LRU list from head (young) to tail (old), then free blocks" }</span>
            </h2>
            <canvas
                ref={props.canvas.clone()}
                data-testid="bufpool-map"
                style={height}
                role="img"
                aria-label="Buffer pool map: every page frame in LRU order, coloured by tablespace"
            />
            <ul class="legend" data-testid="bufpool-legend">
                { for props.tables.iter().map(|t| {
                    let colour = format!("--swatch: {}", theme::css(theme::space_colour(t.space)));
                    let name = if t.dropped { format!("{} (dropped)", t.name) } else { t.name.clone() };
                    html! { <li><span class="swatch" style={colour}></span>{ name }</li> }
                }) }
                <li><span class="swatch free"></span>{ "free" }</li>
                <li><span class="swatch" style={format!("background: {}", theme::stale_swatch_css(first_space))}></span>{ "stale (dropped table's pages not yet freed)" }</li>
                <li><span class="swatch" style={format!("--swatch: {}", theme::css(Theme::LIGHT.io))}></span>{ "being read" }</li>
                <li><span class="swatch" style={format!("--swatch: {}; width: 3px", theme::css(Theme::LIGHT.cursor))}></span>{ "scan cursor, holding the instance mutex" }</li>
                <li><span class="swatch" style="background: var(--text); width: 2px"></span>{ "old/young midpoint" }</li>
            </ul>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Shade::{Clean, Free, Io, Stale};

    const T1: SpaceId = SpaceId(1);
    const T2: SpaceId = SpaceId(2);

    /// Paints `cells` into a `w`×`h` band and returns the shade letter of each pixel,
    /// row by row: `1`/`2` clean of that space, `s` stale, `i` under I/O, `.` free.
    fn check(cells: &[Shade], w: usize, h: usize) -> Vec<String> {
        let theme = Theme::LIGHT;
        let mut img = vec![0u8; w * h * 4];
        paint_band(cells, |s: &Shade| *s, &theme, &mut img, w, 0, w, h, 1000);
        let name = |px: &[u8]| -> char {
            let c = [px[0], px[1], px[2]];
            if c == theme.free {
                '.'
            } else if c == theme.io {
                'i'
            } else if c == theme.space(SpaceId(1)) {
                '1'
            } else if c == theme.space(SpaceId(2)) {
                '2'
            } else if c == theme.stale_of(SpaceId(1), true) {
                's'
            } else {
                '?'
            }
        };
        (0..h)
            .map(|y| (0..w).map(|x| name(&img[(y * w + x) * 4..])).collect())
            .collect()
    }

    #[test]
    fn columns_run_from_the_head_to_the_tail_then_the_free_blocks() {
        // 8 cells in a 4×2 band: one cell a pixel, column by column.
        let cells = [
            Clean(T1),
            Clean(T1),
            Clean(T1),
            Clean(T1),
            Clean(T2),
            Clean(T2),
            Free,
            Free,
        ];
        assert_eq!(check(&cells, 4, 2), ["112.", "112."]);
    }

    #[test]
    fn a_pixel_of_many_cells_shows_the_majority_and_ties_go_to_the_rarer_state() {
        // 4 pixels (4×1) over 16 cells: 4 cells a pixel.
        let cells = [
            [Clean(T1), Clean(T1), Clean(T1), Clean(T2)],
            [Clean(T2), Clean(T2), Clean(T2), Clean(T1)],
            [Clean(T2), Clean(T2), Stale(T1), Stale(T1)],
            [Free, Free, Io, Free],
        ]
        .concat();
        assert_eq!(check(&cells, 4, 1), ["12s."]);
        assert_eq!(check(&[Free, Io], 1, 1), ["i"]);
    }

    #[test]
    fn fewer_cells_than_pixels_stretch() {
        assert_eq!(check(&[Clean(T1), Free], 4, 1), ["11.."]);
    }

    #[test]
    fn engine_cells_map_to_shades() {
        let mut s = ddlscope_engine::Scenario::builtin("drop-table-demo").unwrap();
        s.script.clear();
        let sim = Sim::new(s, ddlscope_engine::Profile::builtin("mysql-5.7").unwrap()).unwrap();
        let mut cells = Vec::new();
        sim.pool().lru_cells(0, &mut cells);
        let shades: Vec<Shade> = cells.iter().map(Shade::of).collect();
        assert_eq!(shades.len() as u32, sim.pool().instances()[0].size());
        assert_eq!(shades.last(), Some(&Free), "free blocks come last");
        assert!(shades.contains(&Clean(T1)) && shades.contains(&Clean(T2)));
    }

    #[test]
    fn the_layout_stacks_bands_under_their_labels() {
        let l = Layout::new(4, 800, 2.0);
        assert_eq!(l.band_h, 68);
        assert_eq!(l.band_top(0), 36);
        assert_eq!(l.band_top(1), 36 + ((18.0 + 34.0 + 8.0) * 2.0) as u32);
        assert_eq!(l.x_of(0, 100), 0.0);
        assert_eq!(l.x_of(50, 100), 400.0);
        assert!(css_height(4) >= 4.0 * (18.0 + 34.0));
    }
}
