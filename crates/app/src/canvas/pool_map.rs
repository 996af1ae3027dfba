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
//! A band is filled column-major: pixel column `x` of a `w`-pixel band holds positions
//! `x·n/w ..(x+1)·n/w` (`n` = the instance's frames: its LRU list from the head, then
//! the frames lent to the AHI and lock heaps, then its free list), stacked top to
//! bottom. So a vertical line is one LRU position, and the scan cursor of
//! `buf_LRU_remove_all_pages()` is a vertical line that walks left, from the tail
//! toward the head. At the demo's 262,144 frames a pixel holds a few frames and takes
//! the colour of the most common state among them; ties go to the rarer, more telling
//! state (under I/O, then freed by a scan, stale, lent, dirty, clean, free), so no
//! state vanishes.
//!
//! Colours: clean pages in their tablespace's colour, dirty pages a darker shade of it,
//! stale pages (8.0.23 after a DROP) washed-out diagonal stripes of it, pages being
//! read or written bright yellow, lent frames (`Innodb_buffer_pool_pages_misc`) a
//! strong neutral, free blocks a pale one. A page carrying adaptive-hash-index entries
//! gets a light dot on a sparse grid, drawn where most of a pixel's frames are hashed:
//! a texture over the hashed region rather than a colour, so it combines with every
//! state above and survives aggregation.
//!
//! The 5.7 scan. The engine takes the instance mutex at the `Scan` span's `t0` and
//! frees the dropped tablespace's pages at `t1`, in one step: under the mutex no other
//! thread can see the list, so the walk's intermediate states exist only here. While a
//! span is active the map draws its cursor `visited(now)` blocks in from the tail and
//! every page of the tablespace between the cursor and the tail (not under I/O: the
//! real scan skips those and rescans) as freed, so the table's pages vanish behind the
//! cursor as it sweeps; at `t1` the engine's state catches up and the freed frames move
//! to the free list.
//!
//! ```text
//!   head ───────────────── cursor ◀── tail   free
//!   1 2 2 1 2 1 1 2 2 1 2 1 ┃ x 2 2 x x 2 x │ . . .      1 = t1, x = t1 freed by the scan
//! ```
//!
//! The whole map is built in one RGBA buffer and put on the canvas with one
//! `putImageData` a frame; the labels, the old/young midpoints and the scan cursors are
//! drawn over it with the 2D context. No DOM node per page.

use crate::canvas::theme::{self, Rgb, Theme};
use crate::model::format;
use crate::model::snapshot::TableInfo;
use crate::model::spans::ScanSpan;
use ddlscope_engine::{Cell, CellKind, Sim, SpaceId, Tick};
use wasm_bindgen::Clamped;
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

/// Frames a pixel's majority looks at, at most: past that, evenly spaced samples.
const MAX_CELLS_PER_PIXEL: usize = 16;

/// Sizes the canvas's pixel buffer to its CSS box × device pixel ratio (only when it
/// changed: resizing clears the canvas). Returns the size in device pixels.
pub fn fit_canvas(canvas: &HtmlCanvasElement, instances: u16, dpr: f64) -> (u32, u32) {
    crate::canvas::panel::fit(canvas, css_height(instances), dpr)
}

/// A frame's state as the map draws it (and a pixel's, by majority).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    /// A free block.
    Free,
    /// A clean page of a live tablespace.
    Clean(SpaceId),
    /// A modified page, on the flush list.
    Dirty(SpaceId),
    /// A frame lent to the adaptive hash index or the lock heaps.
    Memory,
    /// A page of an old tablespace version.
    Stale(SpaceId),
    /// A page of the tablespace a running LRU scan frees, already passed by its cursor.
    Freed,
    /// A page being read or written.
    Io,
}

impl Shade {
    /// How a frame is drawn. Kinds this map does not know are drawn as their
    /// tablespace's pages (comparisons rather than a `match`, so a new kind in the
    /// engine does not break the app).
    pub fn of(cell: &Cell) -> Shade {
        if cell.kind == CellKind::Free {
            Shade::Free
        } else if cell.kind == CellKind::Memory {
            Shade::Memory
        } else if cell.kind == CellKind::Io {
            Shade::Io
        } else if cell.kind == CellKind::Stale {
            Shade::Stale(cell.space)
        } else if cell.kind == CellKind::Dirty {
            Shade::Dirty(cell.space)
        } else {
            Shade::Clean(cell.space)
        }
    }
    /// Which wins a tie: the rarer, more telling state.
    fn priority(self) -> u8 {
        match self {
            Shade::Free => 0,
            Shade::Clean(_) => 1,
            Shade::Dirty(_) => 2,
            Shade::Memory => 3,
            Shade::Stale(_) => 4,
            Shade::Freed => 5,
            Shade::Io => 6,
        }
    }
    /// Whether a page in this state can carry an AHI dot.
    fn hashable(self) -> bool {
        matches!(self, Shade::Clean(_) | Shade::Dirty(_) | Shade::Stale(_))
    }
    fn colour(self, theme: &Theme, stripe: bool) -> Rgb {
        match self {
            Shade::Free => theme.free,
            Shade::Clean(s) => theme.space(s),
            Shade::Dirty(s) => theme.dirty_of(s),
            Shade::Memory => theme.memory,
            Shade::Stale(s) => theme.stale_of(s, stripe),
            Shade::Freed => theme.freed,
            Shade::Io => theme.io,
        }
    }
}

/// The stretch of an instance's LRU list a running scan has passed: positions
/// `lo..hi` from the head, where the scan frees the pages of `space`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Swept {
    /// The cursor's position from the head.
    pub lo: u32,
    /// The end of the LRU list (the tail is `hi - 1`).
    pub hi: u32,
    /// The tablespace being freed.
    pub space: SpaceId,
}

/// What the scans of `instance` running at `now` have passed, on an LRU list of
/// `lru_len` blocks. Anchored at the tail, where the walk starts.
pub fn swept(scans: &[ScanSpan], instance: u16, lru_len: u32, now: Tick) -> Vec<Swept> {
    scans
        .iter()
        .filter(|s| s.instance == instance && s.active(now))
        .map(|s| Swept {
            lo: lru_len.saturating_sub(s.visited(now)),
            hi: lru_len,
            space: s.space,
        })
        .collect()
}

/// One frame as the map draws it: its shade and whether it carries AHI entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The state.
    pub shade: Shade,
    /// Has adaptive-hash-index entries.
    pub ahi: bool,
}

impl From<Shade> for Mark {
    fn from(shade: Shade) -> Mark {
        Mark { shade, ahi: false }
    }
}

impl Mark {
    /// The frame at position `pos` (from the LRU head) holding `cell`, with the pages
    /// the running scans have passed shown as freed. Pages under I/O stay: the scan
    /// skips them (`buf_LRU_remove_all_pages()` rescans after a sleep).
    pub fn of(cell: &Cell, pos: u32, swept: &[Swept]) -> Mark {
        let shade = Shade::of(cell);
        let freed = matches!(shade, Shade::Clean(s) | Shade::Dirty(s)
            if swept.iter().any(|w| w.space == s && (w.lo..w.hi).contains(&pos)));
        if freed {
            Mark::from(Shade::Freed)
        } else {
            Mark {
                shade,
                ahi: cell.ahi,
            }
        }
    }
}

/// A pixel's summary of `marks`: the most common shade (ties to the higher priority),
/// and whether at least half the frames carry AHI entries.
fn majority(marks: impl Iterator<Item = Mark>) -> Mark {
    // A pixel covers a handful of frames and at most a few distinct shades.
    let mut seen: [(Shade, u32); 8] = [(Shade::Free, 0); 8];
    let mut distinct = 0;
    let (mut n, mut hashed) = (0u32, 0u32);
    for m in marks {
        n += 1;
        hashed += u32::from(m.ahi);
        if let Some(slot) = seen[..distinct].iter_mut().find(|(k, _)| *k == m.shade) {
            slot.1 += 1;
        } else if distinct < seen.len() {
            seen[distinct] = (m.shade, 1);
            distinct += 1;
        }
    }
    let shade = seen[..distinct]
        .iter()
        .max_by_key(|(s, n)| (*n, s.priority()))
        .map_or(Shade::Free, |(s, _)| *s);
    Mark {
        shade,
        ahi: shade.hashable() && 2 * hashed >= n.max(1),
    }
}

/// Paints one band: `n` frames (one instance, positions as [`Mark::of`] takes them),
/// whose marks `mark_at` gives, into the `w`×`h` box at row `y0` of an RGBA image
/// `img_w` pixels wide. `pattern_px` is the width of a stale stripe and the pitch of
/// the AHI dots.
#[allow(clippy::too_many_arguments)]
fn paint_band(
    n: usize,
    mark_at: impl Fn(usize) -> Mark,
    theme: &Theme,
    img: &mut [u8],
    img_w: usize,
    y0: usize,
    w: usize,
    h: usize,
    pattern_px: usize,
) {
    if n == 0 || w == 0 || h == 0 {
        return;
    }
    let pitch = pattern_px.max(1);
    // A dot a third of the pitch wide, at least one pixel.
    let dot = (pitch / 3).max(1);
    let total = (w * h) as u64;
    for x in 0..w {
        for y in 0..h {
            let p = (x * h + y) as u64;
            let lo = (p * n as u64 / total) as usize;
            let hi = (((p + 1) * n as u64 / total) as usize).max(lo + 1).min(n);
            // An 8 M-page pool puts ~40 frames in a pixel: a spread sample of them
            // gives the same majority for a fraction of the work.
            let step = (hi - lo).div_ceil(MAX_CELLS_PER_PIXEL);
            let m = majority((lo..hi).step_by(step).map(&mark_at));
            let stripe = ((x + y) / pitch) & 1 == 0;
            let mut c = m.shade.colour(theme, stripe);
            if m.ahi && x % pitch < dot && y % pitch < dot {
                c = theme.ahi_dot(c);
            }
            let at = ((y0 + y) * img_w + x) * 4;
            img[at..at + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
}

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    crate::canvas::panel::context_2d(canvas).ok()
}

/// The order a frame repaints bands in: every band a scan sweeps (its cursor must
/// move smoothly), then the others in turn from `next`. [`draw`] paints the scanned
/// ones and at least one more, then goes on while its budget lasts.
pub fn band_order(instances: u16, scanned: &[u16], next: u16) -> Vec<u16> {
    let n = instances.max(1);
    let mut out: Vec<u16> = Vec::with_capacity(usize::from(n));
    for &i in scanned {
        if i < n && !out.contains(&i) {
            out.push(i);
        }
    }
    for k in 0..n {
        let i = (next % n + k) % n;
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
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
#[allow(clippy::too_many_arguments)]
pub fn draw(
    canvas: &HtmlCanvasElement,
    sim: &Sim,
    scans: &[ScanSpan],
    theme: &Theme,
    dpr: f64,
    scratch: &mut MapScratch,
    budget_ms: f64,
    extra: bool,
    clock: &dyn Fn() -> f64,
) {
    let (w, h) = (canvas.width(), canvas.height());
    let Some(ctx) = context(canvas) else { return };
    if w == 0 || h == 0 {
        return;
    }
    let started = clock();
    let pool = sim.pool();
    let layout = Layout::new(pool.n_instances(), w, dpr);
    let (wu, hu) = (w as usize, h as usize);
    let MapScratch {
        cells,
        pixels,
        key,
        next,
    } = scratch;
    let now = sim.now();
    let this_key = (w, h, pool.n_instances(), theme.dark);
    let full = *key != Some(this_key);
    let (bands, must) = if full {
        *key = Some(this_key);
        pixels.clear();
        pixels.resize(wu * hu * 4, 0);
        let bg = theme.background;
        for px in pixels.chunks_exact_mut(4) {
            px.copy_from_slice(&[bg[0], bg[1], bg[2], 255]);
        }
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
        let must = order.len().min(scanned.len() + usize::from(extra));
        (order, must)
    };
    let pattern_px = (3.0 * dpr).round() as usize;
    let mut painted: Vec<u16> = Vec::with_capacity(bands.len());
    for (k, &i) in bands.iter().enumerate() {
        if k >= must && clock() - started > budget_ms {
            break;
        }
        painted.push(i);
        if !full {
            *next = (i + 1) % pool.n_instances().max(1);
        }
        pool.lru_cells(i, cells);
        let passed = swept(scans, i, pool.instances()[usize::from(i)].lru_len(), now);
        let top = layout.band_top(i) as usize;
        let band_h = (layout.band_h as usize).min(hu.saturating_sub(top));
        paint_band(
            cells.len(),
            |j| Mark::of(&cells[j], j as u32, &passed),
            theme,
            pixels,
            wu,
            top,
            wu,
            band_h,
            pattern_px,
        );
    }
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
            Err(_) => return,
        }
    }
    for &i in &painted {
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
        for (what, count) in [
            ("dirty", inst.dirty_len()),
            ("stale", inst.stale_len()),
            ("AHI/lock", inst.memory_len()),
        ] {
            if count > 0 {
                detail.push_str(&format!(" · {what} {}", format::int(u64::from(count))));
            }
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

        // The lent frames and the free blocks, named when there is room.
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

        // The scan cursors sweeping this instance, where the masking above put them.
        for s in scans.iter().filter(|s| s.instance == i && s.active(now)) {
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
}

/// The frame under the point (`x`, `y`) of the map, in CSS pixels from its top left,
/// on a canvas `css_w` CSS pixels wide: its instance and its position in the band (as
/// [`BufPool::inspect`](ddlscope_engine::BufPool::inspect) takes it). The inverse of
/// [`paint_band`]'s column-major layout.
pub fn locate(sizes: &[u32], css_w: f64, x: f64, y: f64) -> Option<(u16, u32)> {
    let instances = u16::try_from(sizes.len()).ok()?;
    let layout = Layout::new(instances, css_w.round() as u32, 1.0);
    let pitch = layout.pitch;
    let i = (y / pitch).floor();
    if i < 0.0 || i >= f64::from(instances) || x < 0.0 || x >= css_w {
        return None;
    }
    let i = i as u16;
    let dy = y - f64::from(layout.band_top(i));
    let h = f64::from(layout.band_h);
    if dy < 0.0 || dy >= h {
        return None;
    }
    let n = u64::from(sizes[usize::from(i)]);
    let (w, h) = (u64::from(layout.width.max(1)), layout.band_h.max(1) as u64);
    let p = (x as u64).min(w - 1) * h + (dy as u64).min(h - 1);
    Some((i, (p * n / (w * h)) as u32))
}

/// The tooltip for a frame: where it is, what it holds, its state.
pub fn describe(instance: u16, info: &ddlscope_engine::FrameInfo, tables: &[TableInfo]) -> String {
    use ddlscope_engine::CellKind;
    let c = &info.cell;
    let state = match c.kind {
        CellKind::Free => return format!("buf_pool[{instance}] · a free block"),
        CellKind::Memory => {
            return format!(
                "buf_pool[{instance}] · a frame lent to the adaptive hash index or the lock heaps"
            )
        }
        CellKind::Clean => "clean",
        CellKind::Dirty => "dirty",
        CellKind::Stale => "stale (its tablespace was dropped or truncated)",
        CellKind::Io => "being read or written",
    };
    let table = tables
        .iter()
        .find(|t| t.space == c.space)
        .map_or(format!("space {}", c.space.0), |t| {
            format!("{} (space {})", t.name, c.space.0)
        });
    let mut s = format!("buf_pool[{instance}] · {table}");
    if let Some(page) = info.page_no {
        s.push_str(&format!(" page {}", format::int(u64::from(page))));
    }
    s.push_str(&format!(" · {state}"));
    if let Some(pos) = info.lru_position {
        let sub = if c.old { "old" } else { "young" };
        s.push_str(&format!(
            " · LRU position {} ({sub})",
            format::int(u64::from(pos))
        ));
    }
    if let Some(lsn) = info.oldest_modification {
        s.push_str(&format!(
            " · oldest_modification LSN {}",
            format::int(lsn.0)
        ));
    }
    if c.ahi {
        s.push_str(" · has AHI entries");
    }
    s
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
    /// What the frame under a point is (CSS px from the canvas's top left, and the
    /// canvas's CSS width): the tooltip's text.
    #[prop_or_default]
    pub inspect: Option<Callback<(f64, f64, f64), Option<String>>>,
}

/// The map panel: title, canvas and legend. The frame loop does the drawing.
#[function_component(PoolMap)]
pub fn pool_map(props: &PoolMapProps) -> Html {
    let height = format!("height: {}px", css_height(props.instances));
    let first_space = props.tables.first().map_or(SpaceId(1), |t| t.space);
    let tip = use_state(|| None::<(f64, f64, f64, String)>);
    let on_move = {
        let tip = tip.clone();
        let inspect = props.inspect.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(inspect) = inspect.as_ref() else {
                return;
            };
            let canvas: HtmlCanvasElement = e.target_unchecked_into();
            let rect = canvas.get_bounding_client_rect();
            let (x, y) = (
                f64::from(e.client_x()) - rect.left(),
                f64::from(e.client_y()) - rect.top(),
            );
            let w = rect.width();
            tip.set(inspect.emit((x, y, w)).map(|text| (x, y, w, text)));
        })
    };
    let on_leave = {
        let tip = tip.clone();
        Callback::from(move |_: MouseEvent| tip.set(None))
    };
    let subtle = "text-transform: none; letter-spacing: 0; font-weight: 400";
    html! {
        <section class="panel map" aria-labelledby="map-title">
            <h2 class="panel-title" id="map-title">
                <span>{ "Buffer pool map" }</span>
                <span style={subtle}>{ "one band per instance: LRU list from head (young) to tail (old), then free blocks" }</span>
            </h2>
            <div class="map-wrap">
                <canvas
                    ref={props.canvas.clone()}
                    data-testid="bufpool-map"
                    style={height}
                    role="img"
                    aria-label="Buffer pool map: every page frame in LRU order, coloured by tablespace; point at a frame to see its page"
                    onmousemove={on_move.clone()}
                    onclick={on_move}
                    onmouseleave={on_leave}
                />
                if let Some((x, y, w, text)) = (*tip).clone() {
                    // Beside the pointer, on the side with room.
                    <div class="map-tip" data-testid="map-tip" role="tooltip" style={if x < w / 2.0 {
                        format!("left: {:.0}px; top: {:.0}px", x + 12.0, y + 14.0)
                    } else {
                        format!("right: {:.0}px; top: {:.0}px", w - x + 12.0, y + 14.0)
                    }}>{ text }</div>
                }
            </div>
            <ul class="legend" data-testid="bufpool-legend">
                { for props.tables.iter().map(|t| {
                    let colour = format!("--swatch: {}", theme::css(theme::space_colour(t.space)));
                    let name = if t.dropped { format!("{} (dropped)", t.name) } else { t.name.clone() };
                    html! { <li><span class="swatch" style={colour}></span>{ name }</li> }
                }) }
                <li><span class="swatch" style={format!("--swatch: {}", theme::css(theme::dirty_colour(first_space)))}></span>{ "dirty (darker)" }</li>
                <li><span class="swatch" style={format!("background: {}", theme::ahi_swatch_css(first_space))}></span>{ "dotted: has adaptive-hash-index entries" }</li>
                <li><span class="swatch" style={format!("--swatch: {}", theme::swatch_css(|t| t.memory))}></span>{ "AHI / lock memory" }</li>
                <li><span class="swatch free"></span>{ "free" }</li>
                <li><span class="swatch" style={format!("background: {}", theme::stale_swatch_css(first_space))}></span>{ "stale (dropped table's pages not yet freed)" }</li>
                <li><span class="swatch" style={format!("--swatch: {}", theme::css(Theme::LIGHT.io))}></span>{ "being read or written" }</li>
                <li><span class="swatch" style={format!("--swatch: {}; width: 3px", theme::css(Theme::LIGHT.cursor))}></span>{ "scan cursor, holding the instance mutex" }</li>
                <li><span class="swatch" style={format!("--swatch: {}", theme::swatch_css(|t| t.freed))}></span>{ "passed by the scan: freed when it releases the mutex" }</li>
                <li><span class="swatch" style="background: var(--text); width: 2px"></span>{ "old/young midpoint" }</li>
            </ul>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::runner::Runner;
    use Shade::{Clean, Dirty, Free, Freed, Io, Memory, Stale};

    const T1: SpaceId = SpaceId(1);
    const T2: SpaceId = SpaceId(2);

    /// A hashed page.
    fn ahi(shade: Shade) -> Mark {
        Mark { shade, ahi: true }
    }

    /// Paints `marks` into a `w`×`h` band and returns the letter of each pixel, row by
    /// row: `1`/`2` clean of that space, `d`/`D` dirty of t1/t2, `a` a hashed clean t1
    /// page's dot, `s` stale, `m` lent memory, `x` freed by a scan, `i` under I/O,
    /// `.` free. The pattern pitch is so large that every pixel is a stripe and a dot.
    fn check<M: Into<Mark> + Copy>(marks: &[M], w: usize, h: usize) -> Vec<String> {
        let theme = Theme::LIGHT;
        let mut img = vec![0u8; w * h * 4];
        let marks: Vec<Mark> = marks.iter().map(|m| (*m).into()).collect();
        paint_band(
            marks.len(),
            |j| marks[j],
            &theme,
            &mut img,
            w,
            0,
            w,
            h,
            3000,
        );
        let letters = [
            ('.', theme.free),
            ('i', theme.io),
            ('1', theme.space(T1)),
            ('2', theme.space(T2)),
            ('d', theme.dirty_of(T1)),
            ('D', theme.dirty_of(T2)),
            ('a', theme.ahi_dot(theme.space(T1))),
            ('s', theme.stale_of(T1, true)),
            ('m', theme.memory),
            ('x', theme.freed),
        ];
        let name = |px: &[u8]| -> char {
            let c = [px[0], px[1], px[2]];
            letters
                .iter()
                .find(|(_, colour)| *colour == c)
                .map_or('?', |(l, _)| *l)
        };
        (0..h)
            .map(|y| (0..w).map(|x| name(&img[(y * w + x) * 4..])).collect())
            .collect()
    }

    /// An engine cell.
    fn cell(kind: CellKind, space: SpaceId) -> Cell {
        Cell {
            space,
            kind,
            old: false,
            ahi: false,
        }
    }

    #[test]
    fn columns_run_from_the_head_to_the_tail_then_lent_then_free_blocks() {
        // 8 cells in a 4×2 band: one cell a pixel, column by column.
        let cells = [
            Clean(T1),
            Clean(T1),
            Dirty(T1),
            Dirty(T2),
            Clean(T2),
            Memory,
            Free,
            Free,
        ];
        assert_eq!(check(&cells, 4, 2), ["1d2.", "1Dm."]);
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
        // Two cells a pixel, one of each: the rarer state wins every tie.
        let ties = [
            [Free, Clean(T1)],
            [Clean(T1), Dirty(T1)],
            [Dirty(T1), Memory],
            [Memory, Stale(T1)],
            [Stale(T1), Freed],
            [Freed, Io],
        ]
        .concat();
        assert_eq!(check(&ties, 6, 1), ["1dmsxi"]);
    }

    #[test]
    fn hashed_pages_are_dotted_where_at_least_half_a_pixel_is_hashed() {
        let marks = [
            // One page a pixel: hashed, not hashed.
            ahi(Clean(T1)),
            Mark::from(Clean(T1)),
        ];
        assert_eq!(check(&marks, 2, 1), ["a1"]);
        // Three pixels of three pages: 2 of 3 hashed, 1 of 3, none.
        let marks = [
            [ahi(Clean(T1)), ahi(Clean(T1)), Clean(T1).into()],
            [ahi(Clean(T1)), Clean(T1).into(), Clean(T1).into()],
            [Clean(T1).into(), Clean(T1).into(), Clean(T1).into()],
        ]
        .concat();
        assert_eq!(check(&marks, 3, 1), ["a11"]);
        // Half of two pages.
        assert_eq!(check(&marks[2..4], 1, 1), ["a"]);
        // A state that has no index pages is never dotted.
        assert_eq!(
            check(
                &[Mark {
                    shade: Memory,
                    ahi: true
                }],
                1,
                1
            ),
            ["m"]
        );
    }

    #[test]
    fn fewer_cells_than_pixels_stretch() {
        assert_eq!(check(&[Clean(T1), Free], 4, 1), ["11.."]);
    }

    #[test]
    fn a_scan_frees_its_tablespace_behind_the_cursor_only() {
        use CellKind as K;
        // LRU of 6 (head first), then 1 lent frame and 1 free block; the cursor has
        // passed the last 3 LRU blocks.
        let cells = [
            cell(K::Clean, T1),
            cell(K::Clean, T2),
            cell(K::Dirty, T1),
            cell(K::Dirty, T1),
            cell(K::Io, T1),
            Cell {
                ahi: true,
                ..cell(K::Clean, T1)
            },
            cell(K::Memory, SpaceId(0)),
            cell(K::Free, SpaceId(0)),
        ];
        let passed = [Swept {
            lo: 3,
            hi: 6,
            space: T1,
        }];
        let shades: Vec<Shade> = cells
            .iter()
            .enumerate()
            .map(|(j, c)| Mark::of(c, j as u32, &passed).shade)
            .collect();
        assert_eq!(
            shades,
            [
                Clean(T1),
                Clean(T2),
                Dirty(T1),
                Freed,
                Io,
                Freed,
                Memory,
                Free
            ]
        );
        assert!(
            !Mark::of(&cells[5], 5, &passed).ahi,
            "a freed page has no dot"
        );
        assert!(Mark::of(&cells[5], 5, &[]).ahi);
    }

    #[test]
    fn the_swept_stretch_grows_from_the_tail_while_the_scan_runs() {
        let scan = ScanSpan {
            instance: 2,
            space: T1,
            latch: ddlscope_engine::LatchId::BufPool(2),
            from: 0,
            to: 1000,
            t0: Tick::from_ms(10),
            t1: Tick::from_ms(20),
        };
        let scans = [scan.clone()];
        assert_eq!(
            swept(&scans, 1, 1000, Tick::from_ms(15)),
            [],
            "another instance"
        );
        assert_eq!(swept(&scans, 2, 1000, Tick::from_ms(9)), [], "not started");
        assert_eq!(swept(&scans, 2, 1000, Tick::from_ms(21)), [], "over");
        assert_eq!(
            swept(&scans, 2, 1000, Tick::from_ms(14)),
            [Swept {
                lo: 600,
                hi: 1000,
                space: T1
            }]
        );
        assert_eq!(swept(&scans, 2, 1000, scan.t1)[0].lo, 0, "the head at t1");
    }

    /// The marks of instance `i` as `draw` computes them.
    fn marks_of(r: &Runner, i: u16) -> Vec<Mark> {
        let pool = r.sim().pool();
        let mut cells = Vec::new();
        pool.lru_cells(i, &mut cells);
        let now = r.sim().now();
        let passed = swept(
            r.scans(),
            i,
            pool.instances()[usize::from(i)].lru_len(),
            now,
        );
        cells
            .iter()
            .enumerate()
            .map(|(j, c)| Mark::of(c, j as u32, &passed))
            .collect()
    }

    #[test]
    fn mid_sweep_on_57_the_dropped_table_vanishes_behind_the_cursor() {
        let mut r = Runner::new(crate::model::runner::DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
        r.advance(100.0, &|| 0.0);
        r.execute("DROP TABLE t1").unwrap();
        // Into the first instance's scan (after dict_sys and the per-extent walk).
        for _ in 0..1000 {
            r.advance(1.0, &|| 0.0);
            r.digest();
            if !r.scans().is_empty() {
                break;
            }
        }
        let scan = r.scans()[0].clone();
        let t1 = r
            .sim()
            .tables()
            .iter()
            .find(|t| t.name == "t1")
            .unwrap()
            .space;
        assert_eq!(scan.space, t1);
        let i = scan.instance;
        // Halfway through the walk.
        let half = scan.t0 + Tick((scan.t1 - scan.t0).as_ns() / 2);
        r.advance((half - r.sim().now()).as_ns() as f64 / 1e6, &|| 0.0);
        r.digest();
        assert!(scan.active(r.sim().now()), "{scan:?} at {}", r.sim().now());
        let cursor = r.sim().pool().instances()[usize::from(i)]
            .lru_len()
            .saturating_sub(scan.visited(r.sim().now())) as usize;
        let marks = marks_of(&r, i);
        let is_t1 = |m: &Mark| matches!(m.shade, Clean(s) | Dirty(s) if s == t1);
        let (ahead, behind) = marks.split_at(cursor);
        assert!(
            ahead.iter().any(is_t1),
            "t1 still shows ahead of the cursor"
        );
        assert!(ahead.iter().all(|m| m.shade != Freed));
        assert!(
            !behind.iter().any(is_t1),
            "none of t1 left behind the cursor"
        );
        assert!(behind.iter().any(|m| m.shade == Freed));

        // After the scan the engine has freed them: nothing of t1 and nothing masked.
        r.advance(
            (scan.t1 - r.sim().now()).as_ns() as f64 / 1e6 + 1.0,
            &|| 0.0,
        );
        r.digest();
        let marks = marks_of(&r, i);
        assert!(!marks.iter().any(|m| is_t1(m) || m.shade == Freed));
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
        let kinds = |k| Shade::of(&cell(k, T1));
        assert_eq!(kinds(CellKind::Dirty), Dirty(T1));
        assert_eq!(kinds(CellKind::Memory), Memory);
        assert_eq!(kinds(CellKind::Stale), Stale(T1));
        assert_eq!(kinds(CellKind::Io), Io);
    }

    #[test]
    fn a_point_finds_its_frame_and_the_tooltip_names_it() {
        let mut sim = Sim::builtin("drop-table-demo", Some("mysql-5.7")).unwrap();
        sim.run_for(Tick::from_secs(2));
        let pool = sim.pool();
        let sizes: Vec<u32> = pool.instances().iter().map(|i| i.size()).collect();
        let w = 800.0;
        let layout = Layout::new(4, 800, 1.0);
        let top1 = f64::from(layout.band_top(1));
        // The top left pixel of band 1 is its LRU head; the bottom right its last block.
        assert_eq!(locate(&sizes, w, 0.0, top1), Some((1, 0)));
        let (i, last) = locate(&sizes, w, 799.0, top1 + f64::from(layout.band_h) - 1.0).unwrap();
        assert_eq!(i, 1);
        assert!(last >= sizes[1] - sizes[1] / 1000, "{last}");
        assert_eq!(locate(&sizes, w, 10.0, 2.0), None, "the label row");
        assert_eq!(locate(&sizes, w, 900.0, top1), None, "outside");
        let head = pool.inspect(1, 0).unwrap();
        assert_eq!(head.lru_position, Some(0));
        let tables = crate::model::snapshot::table_infos(&sim);
        let text = describe(1, &head, &tables);
        assert!(text.starts_with("buf_pool[1] · t"), "{text}");
        assert!(
            text.contains(" page ") && text.contains("LRU position 0 (young)"),
            "{text}"
        );
        // The demo's pool is full: its last block is the LRU tail.
        let tail = pool.inspect(1, sizes[1] - 1).unwrap();
        assert_eq!(tail.lru_position, Some(sizes[1] - 1));
        assert!(tail.cell.old);
        assert_eq!(pool.inspect(1, sizes[1] + 5), None);
        let free = ddlscope_engine::FrameInfo {
            lru_position: None,
            cell: Cell {
                space: SpaceId(0),
                kind: CellKind::Free,
                old: false,
                ahi: false,
            },
            page_no: None,
            oldest_modification: None,
            version: 0,
        };
        assert_eq!(describe(3, &free, &tables), "buf_pool[3] · a free block");
    }

    #[test]
    fn scanned_bands_come_first_then_the_others_in_turn() {
        assert_eq!(band_order(4, &[], 0), [0, 1, 2, 3]);
        assert_eq!(band_order(4, &[], 6), [2, 3, 0, 1], "next wraps");
        assert_eq!(
            band_order(4, &[3, 3], 1),
            [3, 1, 2, 0],
            "a scanned band once"
        );
        assert_eq!(band_order(1, &[], 5), [0]);
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
