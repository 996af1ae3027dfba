//! The charts' pure geometry: which seconds the x axis shows, the mapping between a
//! CSS pixel column and virtual time, what a click lands on, and thinning a long
//! series to the pixels it is drawn on. No browser types, so it is tested natively.
//!
//! ```text
//!   canvas (CSS px)   0 ── px0 ─────────────────────── px1 ── width
//!   virtual time            s0 ─────────────────────── s1
//!   bands                     [x0 ── x1]   [x0 ─ x1]          hit(x, y) → seek_to
//! ```
//!
//! Everything here is in CSS pixels: the pointer events' offsets are, while plotters
//! draws in device pixels (CSS × devicePixelRatio); the drawing code divides once.

use super::bands::BandKind;
use ddlscope_engine::Tick;

/// Seconds shown once the run is longer than this: ten minutes (600 samples), enough
/// to hold a 150 s stall with its lead-in and its recovery.
pub const WINDOW_S: f64 = 600.0;
/// The axis is never shorter than this.
pub const MIN_SPAN_S: f64 = 30.0;

/// The x range in seconds for a run whose last sample is at `last_s`: the whole run
/// while it is short, then the last [`WINDOW_S`].
pub fn x_range(last_s: f64) -> (f64, f64) {
    let lo = (last_s - WINDOW_S).max(0.0).floor();
    let hi = (last_s + 2.0).max(lo + MIN_SPAN_S);
    (lo, hi)
}

/// A plot area's horizontal mapping: CSS px from the canvas's left edge ↔ virtual
/// seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct XMap {
    /// The plot area's left edge, CSS px.
    pub px0: f64,
    /// Its right edge, CSS px.
    pub px1: f64,
    /// The second at the left edge.
    pub s0: f64,
    /// The second at the right edge.
    pub s1: f64,
}

impl XMap {
    /// The pixel column of virtual second `s` (outside the plot when `s` is).
    pub fn px(&self, s: f64) -> f64 {
        let span = (self.s1 - self.s0).max(f64::EPSILON);
        self.px0 + (s - self.s0) / span * (self.px1 - self.px0)
    }

    /// The virtual second under pixel column `px`.
    pub fn secs(&self, px: f64) -> f64 {
        let width = (self.px1 - self.px0).max(f64::EPSILON);
        self.s0 + (px - self.px0) / width * (self.s1 - self.s0)
    }

    /// The virtual time under pixel column `px`, never before zero.
    pub fn tick(&self, px: f64) -> Tick {
        Tick((self.secs(px).max(0.0) * 1e9).round() as u64)
    }
}

/// A band as drawn: its rectangle in CSS px, and where a click on it seeks to.
#[derive(Clone, Debug, PartialEq)]
pub struct HitBand {
    /// What the band marks.
    pub kind: BandKind,
    /// Left edge, CSS px.
    pub x0: f64,
    /// Right edge, CSS px.
    pub x1: f64,
    /// Top edge, CSS px.
    pub y0: f64,
    /// Bottom edge, CSS px.
    pub y1: f64,
    /// The band's start: where a click on it jumps to.
    pub seek_to: Tick,
    /// The tooltip.
    pub title: String,
}

impl HitBand {
    fn contains(&self, x: f64, y: f64) -> bool {
        self.x0 <= x && x <= self.x1 && self.y0 <= y && y <= self.y1
    }
}

/// What the last draw of one chart left for its pointer handlers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawn {
    /// The (first) plot area's mapping.
    pub x: XMap,
    /// The bands drawn, every plot area of the chart.
    pub bands: Vec<HitBand>,
}

impl Drawn {
    /// The band under (`x`, `y`), CSS px: where bands overlap (a statement inside a
    /// long lock wait), the narrowest, which is the one the pointer is most precisely
    /// on.
    pub fn hit(&self, x: f64, y: f64) -> Option<&HitBand> {
        self.bands
            .iter()
            .filter(|b| b.contains(x, y))
            .min_by(|a, b| (a.x1 - a.x0).total_cmp(&(b.x1 - b.x0)))
    }

    /// The bands a keyboard reader steps through, left to right: each band once (a
    /// chart with two plot areas draws each twice, one above the other; the upper
    /// one stands for both), at the same start the narrower first.
    pub fn stops(&self) -> Vec<&HitBand> {
        let mut out: Vec<&HitBand> = Vec::new();
        for b in &self.bands {
            let same = |o: &&HitBand| o.kind == b.kind && o.x0 == b.x0 && o.x1 == b.x1;
            if !out.iter().any(same) {
                out.push(b);
            }
        }
        out.sort_by(|a, b| {
            a.x0.total_cmp(&b.x0)
                .then((a.x1 - a.x0).total_cmp(&(b.x1 - b.x0)))
        });
        out
    }

    /// The bands as the `data-band-hits` attribute lists them for the browser tests:
    /// `kind:x0:x1` in whole CSS px, space separated.
    pub fn describe(&self) -> String {
        let mut seen: Vec<(BandKind, i64, i64)> = Vec::new();
        for b in &self.bands {
            let key = (b.kind, b.x0.round() as i64, b.x1.round() as i64);
            // A chart with two plot areas draws each band twice, one above the other.
            if !seen.contains(&key) {
                seen.push(key);
            }
        }
        seen.iter()
            .map(|(k, x0, x1)| format!("{}:{x0}:{x1}", k.name()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Room for a band's label starting at `starts[i]` (CSS px): up to the next band's
/// start in the same row or the plot's right edge `right`, less a small gap.
/// `starts` is sorted.
pub fn label_room(starts: &[f64], i: usize, right: f64) -> f64 {
    let end = starts[i + 1..]
        .iter()
        .copied()
        .find(|&s| s > starts[i])
        .map_or(right, |s| s.min(right));
    (end - starts[i] - 6.0).max(0.0)
}

/// `points` (sorted by x) thinned to about `max_points`: each run of consecutive
/// points keeps its lowest and its highest, in time order. With a run per pixel
/// column the line looks the same as with every point, and a one-second spike or dip
/// survives, which an average or every n-th point would lose.
pub fn thin(points: &[(f64, f64)], max_points: usize) -> Vec<(f64, f64)> {
    if points.len() <= max_points || max_points < 4 {
        return points.to_vec();
    }
    let per = points.len().div_ceil(max_points / 2);
    let mut out = Vec::with_capacity(max_points + 2);
    for run in points.chunks(per) {
        let (mut lo, mut hi) = (0, 0);
        for (i, p) in run.iter().enumerate() {
            if p.1 < run[lo].1 {
                lo = i;
            }
            if p.1 > run[hi].1 {
                hi = i;
            }
        }
        let (a, b) = (lo.min(hi), lo.max(hi));
        out.push(run[a]);
        if b != a {
            out.push(run[b]);
        }
    }
    out
}

/// The lines of a series with gaps: runs of consecutive points that have a value.
pub fn runs(points: impl Iterator<Item = (f64, Option<f64>)>) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for (x, y) in points {
        match y {
            Some(y) => out.last_mut().expect("never empty").push((x, y)),
            None if out.last().is_some_and(|r| !r.is_empty()) => out.push(Vec::new()),
            None => {}
        }
    }
    out.retain(|r| !r.is_empty());
    out
}

/// A step line for per-second values: a sample closes the second before it, so its
/// value holds over `(t - 1, t]`.
pub fn steps(points: impl Iterator<Item = (f64, f64)>) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for (t, v) in points {
        out.push((t - 1.0, v));
        out.push((t, v));
    }
    out
}

/// The latency axis (ms, log scale) for seconds whose fastest mean is `min_ms` and
/// slowest statement `max_ms`: whole decades around both, at least two of them, never
/// below 10 µs. A 150 s stall (150,000 ms) takes the axis to 1,000 s and a point
/// select stays readable at the bottom.
pub fn latency_range(min_ms: f64, max_ms: f64) -> (f64, f64) {
    const FLOOR_MS: f64 = 0.01;
    let decade = |v: f64, up: bool| {
        let e = v.max(FLOOR_MS).log10();
        10f64.powf(if up { e.ceil() } else { e.floor() })
    };
    let lo = decade(min_ms, false);
    let hi = decade(max_ms * 1.2, true).max(lo * 100.0);
    (lo, hi)
}

/// `v` ms as a log-axis label: `10 µs`, `0.1 ms`, `1 ms`, `100 ms`, `1 s`, `100 s`.
pub fn ms_label(v: f64) -> String {
    if v >= 1000.0 {
        format!("{} s", trim(v / 1000.0))
    } else if v >= 0.1 {
        format!("{} ms", trim(v))
    } else {
        format!("{} µs", trim(v * 1000.0))
    }
}

/// A decade's value without trailing zeros: `0.1`, `1`, `100`.
fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A count axis (a rate, a log scale from 1): up to the decade above `max`, at least
/// two decades.
pub fn count_log_range(max: f64) -> (f64, f64) {
    let hi = 10f64.powf((max.max(1.0) * 1.2).log10().ceil());
    (1.0, hi.max(100.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axis_shows_the_whole_short_run_then_a_sliding_window() {
        assert_eq!(x_range(0.0), (0.0, 30.0));
        assert_eq!(x_range(20.0), (0.0, 30.0));
        assert_eq!(x_range(40.0), (0.0, 42.0));
        assert_eq!(x_range(200.0), (0.0, 202.0));
        assert_eq!(x_range(1000.0), (400.0, 1002.0));
    }

    #[test]
    fn pixels_and_seconds_map_both_ways() {
        let m = XMap {
            px0: 50.0,
            px1: 350.0,
            s0: 100.0,
            s1: 400.0,
        };
        assert_eq!(m.px(100.0), 50.0);
        assert_eq!(m.px(250.0), 200.0);
        assert_eq!(m.secs(350.0), 400.0);
        for px in [50.0, 123.0, 349.5] {
            assert!((m.px(m.secs(px)) - px).abs() < 1e-9);
        }
        assert_eq!(m.tick(200.0), Tick::from_secs(250));
        assert_eq!(m.tick(0.0), Tick::from_secs(50));
        let early = XMap { s0: 0.0, ..m };
        assert_eq!(early.tick(0.0), Tick::ZERO, "never before zero");
    }

    fn band(kind: BandKind, x0: f64, x1: f64, at_s: u64) -> HitBand {
        HitBand {
            kind,
            x0,
            x1,
            y0: 10.0,
            y1: 100.0,
            seek_to: Tick::from_secs(at_s),
            title: format!("{kind:?}"),
        }
    }

    #[test]
    fn a_click_hits_the_narrowest_band_under_it_and_nothing_outside() {
        let drawn = Drawn {
            x: XMap::default(),
            bands: vec![
                band(BandKind::LockWait, 100.0, 300.0, 10),
                band(BandKind::Statement, 150.0, 160.0, 12),
                band(BandKind::Failover, 400.0, 420.0, 40),
            ],
        };
        let at = |x, y| drawn.hit(x, y).map(|b| b.seek_to.as_secs());
        assert_eq!(at(120.0, 50.0), Some(10));
        assert_eq!(at(155.0, 50.0), Some(12), "the statement inside the wait");
        assert_eq!(at(160.0, 50.0), Some(12), "edges count");
        assert_eq!(at(410.0, 50.0), Some(40));
        assert_eq!(at(350.0, 50.0), None, "between bands");
        assert_eq!(at(155.0, 5.0), None, "above the plot");
        assert_eq!(at(155.0, 101.0), None, "below the plot");
        assert_eq!(Drawn::default().hit(1.0, 1.0), None);
    }

    #[test]
    fn the_band_list_names_each_band_once() {
        let mut lower = band(BandKind::Statement, 150.2, 159.8, 12);
        lower.y0 = 120.0;
        lower.y1 = 200.0;
        let drawn = Drawn {
            x: XMap::default(),
            bands: vec![
                band(BandKind::Statement, 150.2, 159.8, 12),
                lower,
                band(BandKind::LockWait, 100.0, 300.0, 10),
            ],
        };
        assert_eq!(drawn.describe(), "statement:150:160 lock-wait:100:300");
    }

    #[test]
    fn the_keyboard_steps_through_each_band_once_left_to_right() {
        let mut lower = band(BandKind::Statement, 150.0, 160.0, 12);
        lower.y0 = 120.0;
        lower.y1 = 200.0;
        let drawn = Drawn {
            x: XMap::default(),
            bands: vec![
                band(BandKind::Failover, 400.0, 420.0, 40),
                band(BandKind::Statement, 150.0, 160.0, 12),
                lower,
                band(BandKind::LockWait, 100.0, 300.0, 10),
                band(BandKind::Statement, 100.0, 110.0, 10),
            ],
        };
        let order: Vec<(BandKind, u64)> = drawn
            .stops()
            .iter()
            .map(|b| (b.kind, b.seek_to.as_secs()))
            .collect();
        assert_eq!(
            order,
            vec![
                (BandKind::Statement, 10),
                (BandKind::LockWait, 10),
                (BandKind::Statement, 12),
                (BandKind::Failover, 40),
            ]
        );
        assert!(Drawn::default().stops().is_empty());
    }

    #[test]
    fn a_label_gets_the_room_up_to_the_next_band() {
        let starts = [10.0, 110.0, 110.0, 300.0];
        assert_eq!(label_room(&starts, 0, 500.0), 94.0);
        assert_eq!(
            label_room(&starts, 1, 500.0),
            184.0,
            "a band at the same x is skipped"
        );
        assert_eq!(label_room(&starts, 3, 500.0), 194.0);
        assert_eq!(label_room(&starts, 3, 302.0), 0.0);
    }

    #[test]
    fn thinning_keeps_every_spike_and_dip_in_time_order() {
        let points: Vec<(f64, f64)> = (0..600).map(|i| (f64::from(i), 100.0)).collect();
        let mut spiky = points.clone();
        spiky[250].1 = 0.0; // a stall
        spiky[251].1 = 900.0; // the catch-up
        spiky[599].1 = 50.0;
        let out = thin(&spiky, 200);
        assert!(out.len() <= 202, "{}", out.len());
        assert!(out.windows(2).all(|w| w[0].0 < w[1].0), "in time order");
        assert!(out.contains(&(250.0, 0.0)) && out.contains(&(251.0, 900.0)));
        assert!(out.contains(&(599.0, 50.0)));
        assert_eq!(out.first(), Some(&(0.0, 100.0)));
        assert_eq!(
            thin(&points[..100], 200),
            points[..100],
            "short series as is"
        );
    }

    #[test]
    fn a_series_breaks_where_a_second_has_no_value_and_steps_hold_a_second() {
        let points = [
            (1.0, Some(0.2)),
            (2.0, None),
            (3.0, Some(0.3)),
            (4.0, Some(0.4)),
        ];
        assert_eq!(
            runs(points.into_iter()),
            [vec![(1.0, 0.2)], vec![(3.0, 0.3), (4.0, 0.4)]]
        );
        assert!(runs([(1.0, None)].into_iter()).is_empty());
        assert_eq!(
            steps([(1.0, 2.0), (2.0, 0.0)].into_iter()),
            [(0.0, 2.0), (1.0, 2.0), (1.0, 0.0), (2.0, 0.0)]
        );
    }

    #[test]
    fn the_log_axes_span_whole_decades_and_a_150_s_stall_fits() {
        assert_eq!(latency_range(0.2, 3.0), (0.1, 10.0));
        assert_eq!(latency_range(0.2, 450.0), (0.1, 1000.0));
        assert_eq!(latency_range(0.5, 0.6), (0.1, 10.0), "two decades at least");
        assert_eq!(latency_range(0.0, 0.001), (0.01, 1.0), "never below 10 µs");
        let (lo, hi) = latency_range(0.3, 150_000.0);
        assert_eq!((lo, hi), (0.1, 1_000_000.0));
        assert_eq!(ms_label(0.01), "10 µs");
        assert_eq!(ms_label(0.1), "0.1 ms");
        assert_eq!(ms_label(1.0), "1 ms");
        assert_eq!(ms_label(100.0), "100 ms");
        assert_eq!(ms_label(1000.0), "1 s");
        assert_eq!(ms_label(1_000_000.0), "1000 s");
        assert_eq!(count_log_range(0.0), (1.0, 100.0));
        assert_eq!(count_log_range(25_000.0), (1.0, 100_000.0));
    }
}
