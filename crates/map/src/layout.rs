//! The map's geometry: each instance's label row and band, stacked, in CSS and device
//! pixels; the inverse (a point to the frame under it, for the tooltip); and the order
//! a frame repaints bands in.

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
pub struct Layout {
    /// Device pixels per CSS pixel.
    pub dpr: f64,
    /// The map's width.
    pub width: u32,
    /// The height of a label row.
    pub label_h: f64,
    /// The height of a band.
    pub band_h: u32,
    /// From one label row's top to the next's.
    pub pitch: f64,
}

impl Layout {
    /// The geometry of `instances` bands `width` pixels wide at `dpr`.
    pub fn new(instances: u16, width: u32, dpr: f64) -> Layout {
        Layout {
            dpr,
            width,
            label_h: LABEL_H * dpr,
            band_h: (band_height(instances) * dpr).round() as u32,
            pitch: (LABEL_H + band_height(instances) + GAP) * dpr,
        }
    }
    /// Top of instance `i`'s label row.
    pub fn label_top(&self, i: u16) -> f64 {
        f64::from(i) * self.pitch
    }
    /// Top of instance `i`'s band.
    pub fn band_top(&self, i: u16) -> u32 {
        (self.label_top(i) + self.label_h).round() as u32
    }
    /// The x of LRU position `pos` (0 = head) in a band of `n` frames.
    pub fn x_of(&self, pos: u32, n: u32) -> f64 {
        f64::from(self.width) * f64::from(pos) / f64::from(n.max(1))
    }
    /// The width of a stale stripe and the pitch of the AHI dots, pixels.
    pub fn pattern_px(&self) -> usize {
        (3.0 * self.dpr).round() as usize
    }
}

/// The order a frame repaints bands in: every band a scan sweeps (its cursor must
/// move smoothly), then the others in turn from `next`. the app's `draw` paints the scanned
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

/// The frame under the point (`x`, `y`) of the map, in CSS pixels from its top left,
/// on a canvas `css_w` CSS pixels wide: its instance and its position in the band (as
/// [`BufPool::inspect`](ddlscope_engine::BufPool::inspect) takes it). The inverse of
/// `paint_band`'s column-major layout.
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
