//! The map's pixels: each band of frames into one RGBA image, column by column, a
//! pixel taking the majority of its frames ([`paint_band`]); an instance's band from
//! the simulation ([`paint_instance`]); and the whole map at one moment
//! ([`render`]), which the CLI writes as a poster. The app's canvas paints its bands
//! with the same two functions and draws its text over them.

use crate::layout::Layout;
use crate::scan::ScanSpan;
use crate::shade::{majority, swept, Mark, Shade};
use crate::theme::Rgb;
use crate::theme::Theme;
use ddlscope_engine::{Cell, Sim};

/// Frames a pixel's majority looks at, at most: past that, evenly spaced samples.
const MAX_CELLS_PER_PIXEL: usize = 16;

/// Where [`paint_band`] paints: the `w`×`h` box at row `y0`, and `pattern_px`, the
/// width of a stale stripe and the pitch of the AHI dots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BandRect {
    /// The first row.
    pub y0: usize,
    /// Width, pixels.
    pub w: usize,
    /// Height, pixels.
    pub h: usize,
    /// The stripes' width and the dots' pitch, pixels.
    pub pattern_px: usize,
}

/// Paints one band: `n` frames (one instance, positions as [`Mark::of`] takes them),
/// whose marks `mark_at` gives, into `rect` of an RGBA image `img_w` pixels wide.
pub fn paint_band(
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
    let mut frames = Spread::new(n, w * h);
    let mut colours = ColourMemo::new(theme);
    for x in 0..w {
        for y in 0..h {
            let (lo, hi) = frames.next_pixel();
            // An 8 M-page pool puts ~40 frames in a pixel: a spread sample of them
            // gives the same majority for a fraction of the work.
            let m = majority(spread_sample(lo, hi).map(&mark_at));
            let stripe = ((x + y) / pitch) & 1 == 0;
            let dotted = m.ahi && x % pitch < dot && y % pitch < dot;
            let c = colours.get(m.shade, stripe, dotted);
            let at = ((y0 + y) * img_w + x) * 4;
            img[at..at + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
}

/// The frames of each pixel in turn, pixel `p` of `pixels` taking frames
/// `p·n/pixels .. (p+1)·n/pixels` (at least one): kept as a quotient and a remainder,
/// so a pixel costs no division.
struct Spread {
    n: usize,
    pixels: u64,
    /// Whole frames per pixel, and the fraction left over, in `pixels`ths.
    per: (u64, u64),
    /// Where the next pixel starts: `p·n = start·pixels + rest`.
    start: u64,
    rest: u64,
}

impl Spread {
    fn new(n: usize, pixels: usize) -> Spread {
        let pixels = pixels as u64;
        Spread {
            n,
            pixels,
            per: (n as u64 / pixels, n as u64 % pixels),
            start: 0,
            rest: 0,
        }
    }

    /// The next pixel's frames, `lo..hi`.
    fn next_pixel(&mut self) -> (usize, usize) {
        let lo = self.start as usize;
        self.start += self.per.0;
        self.rest += self.per.1;
        if self.rest >= self.pixels {
            self.start += 1;
            self.rest -= self.pixels;
        }
        let hi = (self.start as usize).max(lo + 1).min(self.n);
        (lo, hi)
    }
}

/// Frames `lo..hi`, or at most [`MAX_CELLS_PER_PIXEL`] of them evenly spaced (an
/// iterator of its own: `step_by`'s costs a division to set up, in every pixel).
fn spread_sample(lo: usize, hi: usize) -> impl Iterator<Item = usize> {
    let step = if hi - lo <= MAX_CELLS_PER_PIXEL {
        1
    } else {
        (hi - lo).div_ceil(MAX_CELLS_PER_PIXEL)
    };
    std::iter::successors(Some(lo), move |&j| Some(j + step)).take_while(move |&j| j < hi)
}

/// The last colour worked out, kept for the next pixel: neighbours mostly share a
/// shade, and a dirty, stale or dotted colour is a blend worked out in floating point.
struct ColourMemo<'t> {
    theme: &'t Theme,
    last: Option<((Shade, bool, bool), Rgb)>,
}

impl<'t> ColourMemo<'t> {
    fn new(theme: &'t Theme) -> ColourMemo<'t> {
        ColourMemo { theme, last: None }
    }

    /// The colour of `shade` on a `stripe` pixel, `dotted` for an AHI dot.
    fn get(&mut self, shade: Shade, stripe: bool, dotted: bool) -> Rgb {
        let key = (shade, stripe, dotted);
        if let Some((k, c)) = self.last {
            if k == key {
                return c;
            }
        }
        let mut c = shade.colour(self.theme, stripe);
        if dotted {
            c = self.theme.ahi_dot(c);
        }
        self.last = Some((key, c));
        c
    }
}

/// Paints instance `i` of `sim`'s pool, as it is now with the running `scans`, into
/// its band of `layout` in the RGBA image `img` (`w`×`h` pixels). `cells` is a buffer
/// kept between calls (an instance's LRU order, read into it).
#[allow(
    clippy::too_many_arguments,
    reason = "the image, its size and the scratch buffer travel together"
)]
pub fn paint_instance(
    sim: &Sim,
    scans: &[ScanSpan],
    i: u16,
    layout: &Layout,
    theme: &Theme,
    img: &mut [u8],
    (w, h): (usize, usize),
    cells: &mut Vec<Cell>,
) {
    let pool = sim.pool();
    pool.lru_cells(i, cells);
    let passed = swept(
        scans,
        i,
        pool.instances()[usize::from(i)].lru_len(),
        sim.now(),
    );
    let top = layout.band_top(i) as usize;
    let rect = BandRect {
        y0: top,
        w,
        h: (layout.band_h as usize).min(h.saturating_sub(top)),
        pattern_px: layout.pattern_px(),
    };
    let cells: &[Cell] = cells;
    paint_band(
        cells.len(),
        |j| Mark::of(&cells[j], j as u32, &passed),
        theme,
        img,
        w,
        rect,
    );
}

/// A picture of the map: what [`render`] draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapImage {
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
    /// RGBA, row by row.
    pub rgba: Vec<u8>,
}

/// The whole map of `sim`'s pool now, `css_width` CSS pixels wide at `dpr` device
/// pixels per CSS pixel, with the running `scans`: the background, then every band,
/// as the app's canvas of that size shows it under its text. The label rows stay
/// background (the app writes its text there; a poster has its caption beside it).
pub fn render(sim: &Sim, scans: &[ScanSpan], theme: &Theme, css_width: u32, dpr: f64) -> MapImage {
    let instances = sim.pool().n_instances();
    let width = (f64::from(css_width) * dpr).round() as u32;
    let height = (crate::layout::css_height(instances) * dpr).round() as u32;
    let layout = Layout::new(instances, width, dpr);
    let (w, h) = (width as usize, height as usize);
    let mut rgba = vec![0u8; w * h * 4];
    fill(&mut rgba, theme);
    let mut cells = Vec::new();
    for i in 0..instances {
        paint_instance(sim, scans, i, &layout, theme, &mut rgba, (w, h), &mut cells);
    }
    MapImage {
        width,
        height,
        rgba,
    }
}

/// Fills an RGBA image with the theme's background.
pub fn fill(rgba: &mut [u8], theme: &Theme) {
    let bg = theme.background;
    for px in rgba.chunks_exact_mut(4) {
        px.copy_from_slice(&[bg[0], bg[1], bg[2], 255]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spread_gives_each_pixel_the_frames_the_division_gives() {
        for (n, pixels) in [
            (1, 7),
            (7, 7),
            (258_048, 136_000),
            (8_388_608, 123_457),
            (5, 64),
        ] {
            let mut s = Spread::new(n, pixels);
            for p in 0..pixels as u64 {
                let lo = (p * n as u64 / pixels as u64) as usize;
                let hi = (((p + 1) * n as u64 / pixels as u64) as usize)
                    .max(lo + 1)
                    .min(n);
                assert_eq!(
                    s.next_pixel(),
                    (lo, hi),
                    "pixel {p} of {pixels}, {n} frames"
                );
            }
        }
    }

    #[test]
    fn a_sample_is_step_by_s() {
        for (lo, hi) in [
            (0usize, 1usize),
            (3, 19),
            (3, 20),
            (10, 51),
            (0, 16),
            (0, 17),
            (100, 1000),
        ] {
            let step = (hi - lo).div_ceil(MAX_CELLS_PER_PIXEL);
            let want: Vec<usize> = (lo..hi).step_by(step).collect();
            assert_eq!(
                spread_sample(lo, hi).collect::<Vec<_>>(),
                want,
                "{lo}..{hi}"
            );
        }
    }
}
