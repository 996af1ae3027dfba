//! Painting the map: a frame's [`Shade`], a pixel's majority over its frames, each
//! band into one RGBA image kept between frames, and the labels, midpoints and scan
//! cursors drawn over it with the 2D context.

use super::layout::{band_order, Layout};
use crate::canvas::theme::{self, Rgb, Theme};
use crate::model::format;
use crate::model::spans::ScanSpan;
use ddlscope_engine::{Cell, CellKind, Sim, SpaceId, Tick};
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

/// Frames a pixel's majority looks at, at most: past that, evenly spaced samples.
const MAX_CELLS_PER_PIXEL: usize = 16;

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
    pub(super) fn priority(self) -> u8 {
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
    pub(super) fn hashable(self) -> bool {
        matches!(self, Shade::Clean(_) | Shade::Dirty(_) | Shade::Stale(_))
    }
    pub(super) fn colour(self, theme: &Theme, stripe: bool) -> Rgb {
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
pub(super) fn majority(marks: impl Iterator<Item = Mark>) -> Mark {
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

/// Where [`paint_band`] paints: the `w`×`h` box at row `y0`, and `pattern_px`, the
/// width of a stale stripe and the pitch of the AHI dots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BandRect {
    /// The first row.
    pub(super) y0: usize,
    /// Width, pixels.
    pub(super) w: usize,
    /// Height, pixels.
    pub(super) h: usize,
    /// The stripes' width and the dots' pitch, pixels.
    pub(super) pattern_px: usize,
}

/// Paints one band: `n` frames (one instance, positions as [`Mark::of`] takes them),
/// whose marks `mark_at` gives, into `rect` of an RGBA image `img_w` pixels wide.
pub(super) fn paint_band(
    n: usize,
    mark_at: impl Fn(usize) -> Mark,
    theme: &Theme,
    img: &mut [u8],
    img_w: usize,
    rect: BandRect,
) {
    let BandRect {
        y0,
        w,
        h,
        pattern_px,
    } = rect;
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
    let (sim, scans, theme, dpr) = (f.sim, f.scans, f.theme, f.dpr);
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
        let must = order.len().min(scanned.len() + usize::from(f.extra));
        (order, must)
    };
    let pattern_px = (3.0 * dpr).round() as usize;
    let mut painted: Vec<u16> = Vec::with_capacity(bands.len());
    for (k, &i) in bands.iter().enumerate() {
        if k >= must && (f.clock)() - started > f.budget_ms {
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
        let rect = BandRect {
            y0: top,
            w: wu,
            h: band_h,
            pattern_px,
        };
        paint_band(
            cells.len(),
            |j| Mark::of(&cells[j], j as u32, &passed),
            theme,
            pixels,
            wu,
            rect,
        );
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
    text_end
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
