//! The pool map's pixel work, apart from any canvas: which bands a frame repaints
//! (the scanned ones, then others in turn while the budget lasts), painted with the
//! map crate's functions into one RGBA image kept between frames, and the figures
//! each band's label row and overlays are drawn from ([`BandInfo`]). The page's
//! frame loop runs it beside the canvas; the Web Worker runs it beside the engine and
//! posts the repainted rows (see `model::remote`).

use super::spans::ScanSpan;
use ddlscope_engine::{Cell, LatchId, Sim, Tick};
use ddlscope_map::{band_order, fill, paint_instance, Layout, Theme};
use serde::{Deserialize, Serialize};

/// One instance's figures, as its band's label row, midpoint and regions show them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BandInfo {
    /// Frames in the instance.
    pub size: u32,
    /// Its LRU list's length.
    pub lru: u32,
    /// Its old sublist's length.
    pub old: u32,
    /// Its free list's length.
    pub free: u32,
    /// Dirty pages.
    pub dirty: u32,
    /// Stale pages (a dropped tablespace's, not yet freed).
    pub stale: u32,
    /// Frames lent to the adaptive hash index and the lock heaps.
    pub memory: u32,
    /// Threads waiting for its mutex.
    pub waiting: u32,
}

/// Every instance's [`BandInfo`], now.
pub fn band_infos(sim: &Sim) -> Vec<BandInfo> {
    let pool = sim.pool();
    pool.instances()
        .iter()
        .enumerate()
        .map(|(i, inst)| BandInfo {
            size: inst.size(),
            lru: inst.lru_len(),
            old: inst.lru_old_len(),
            free: inst.free_len(),
            dirty: inst.dirty_len(),
            stale: inst.stale_len(),
            memory: inst.memory_len(),
            waiting: sim.latch(LatchId::BufPool(i as u16)).waiter_count() as u32,
        })
        .collect()
}

/// What one [`MapPixels::paint`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Painted {
    /// Whether the whole image was painted afresh (a new size, theme or engine).
    pub full: bool,
    /// The bands repainted, in the order painted.
    pub bands: Vec<u16>,
}

impl Painted {
    /// The image rows to put on the canvas: the whole image after a full repaint,
    /// else each repainted band with its label row (which the image holds blank, so
    /// the old text goes), as `(first row, one past the last)`.
    pub fn regions(&self, layout: &Layout, height: u32) -> Vec<(u32, u32)> {
        if self.full {
            return vec![(0, height)];
        }
        self.bands
            .iter()
            .map(|&i| {
                let row0 = (layout.label_top(i).floor() as u32).min(height);
                let row1 = (layout.band_top(i) + layout.band_h).min(height);
                (row0, row1)
            })
            .filter(|(a, b)| b > a)
            .collect()
    }
}

/// The size, theme and budget a frame paints for.
#[derive(Clone, Copy, Debug)]
pub struct PaintAsk<'a> {
    /// The canvas, device pixels.
    pub width: u32,
    /// The canvas, device pixels.
    pub height: u32,
    /// Device pixels per CSS pixel.
    pub dpr: f64,
    /// The colours.
    pub theme: &'a Theme,
    /// Wall time the frame may spend repainting bands past the ones it must.
    pub budget_ms: f64,
    /// Whether one band more than the scanned ones must be repainted.
    pub extra: bool,
}

/// The image of every band, kept between frames so that a frame repaints only some.
#[derive(Debug, Default)]
pub struct MapPixels {
    cells: Vec<Cell>,
    pixels: Vec<u8>,
    /// What `pixels` was laid out for: size, instances, theme.
    key: Option<(u32, u32, u16, bool)>,
    /// The band the round robin repaints next.
    next: u16,
    /// The virtual time each band was last painted at (`None`: not since the image
    /// was laid out): a band already painted at the engine's time is left as it is,
    /// and a band behind it is painted on the next frames even when the clock stands
    /// still (paused), so the whole map comes to show one moment.
    painted_at: Vec<Option<Tick>>,
}

impl MapPixels {
    /// Forgets the kept bands: the next [`MapPixels::paint`] repaints them all (after
    /// a seek or a restart, when what they show is from another time).
    pub fn invalidate(&mut self) {
        self.key = None;
        self.painted_at.clear();
    }

    /// Whether every band shows virtual time `now`: the map is one moment, its
    /// labels' counts those of the server at `now`.
    pub fn complete_at(&self, now: Tick) -> bool {
        self.key.is_some()
            && !self.painted_at.is_empty()
            && self.painted_at.iter().all(|t| *t == Some(now))
    }

    /// The image, RGBA row by row.
    pub fn rgba(&self) -> &[u8] {
        &self.pixels
    }

    /// Repaints the bands of `sim`'s pool now with the running `scans`: those being
    /// scanned (an instance walked by a scan changes every frame), then the others in
    /// turn while `clock()` stays within the budget of the start. Reading an
    /// instance's LRU order walks its linked list, one cache miss a block: 65,536
    /// blocks take a few milliseconds, 8 M take tens, hence the round robin. A new
    /// size or theme repaints everything. A band painted at `sim`'s time already is
    /// skipped: with the clock stopped, the frames that follow paint only the bands
    /// still behind, until none is.
    pub fn paint(
        &mut self,
        sim: &Sim,
        scans: &[ScanSpan],
        ask: &PaintAsk<'_>,
        clock: &dyn Fn() -> f64,
    ) -> Painted {
        let started = clock();
        let n = sim.pool().n_instances();
        let (w, h) = (ask.width as usize, ask.height as usize);
        let layout = Layout::new(n, ask.width, ask.dpr);
        let key = (ask.width, ask.height, n, ask.theme.dark);
        let full = self.key != Some(key);
        let now: Tick = sim.now();
        let (bands, must) = if full {
            self.key = Some(key);
            self.pixels.clear();
            self.pixels.resize(w * h * 4, 0);
            fill(&mut self.pixels, ask.theme);
            self.painted_at = vec![None; usize::from(n)];
            ((0..n).collect::<Vec<u16>>(), usize::from(n))
        } else {
            let behind = |i: &u16| self.painted_at.get(usize::from(*i)) != Some(&Some(now));
            let scanned: Vec<u16> = scans
                .iter()
                .filter(|s| s.active(now))
                .map(|s| s.instance)
                .filter(behind)
                .collect();
            let order: Vec<u16> = band_order(n, &scanned, self.next)
                .into_iter()
                .filter(behind)
                .collect();
            let must = order.len().min(scanned.len() + usize::from(ask.extra));
            (order, must)
        };
        let mut painted = Vec::with_capacity(bands.len());
        for (k, &i) in bands.iter().enumerate() {
            if k >= must && clock() - started > ask.budget_ms {
                break;
            }
            painted.push(i);
            if !full {
                self.next = (i + 1) % n.max(1);
            }
            if let Some(at) = self.painted_at.get_mut(usize::from(i)) {
                *at = Some(now);
            }
            paint_instance(
                sim,
                scans,
                i,
                &layout,
                ask.theme,
                &mut self.pixels,
                (w, h),
                &mut self.cells,
            );
        }
        Painted {
            full,
            bands: painted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_size_repaints_everything_then_bands_go_round() {
        let mut sim = Sim::builtin("drop-table-demo", Some("mysql-5.7")).expect("builtin");
        let theme = Theme::LIGHT;
        let mut px = MapPixels::default();
        let ask = PaintAsk {
            width: 600,
            height: 200,
            dpr: 1.0,
            theme: &theme,
            budget_ms: 0.0,
            extra: true,
        };
        let n = sim.pool().n_instances();
        let first = px.paint(&sim, &[], &ask, &|| 0.0);
        assert!(first.full);
        assert_eq!(first.bands.len(), usize::from(n));
        assert_eq!(px.rgba().len(), 600 * 200 * 4);
        let layout = Layout::new(n, 600, 1.0);
        assert_eq!(first.regions(&layout, 200), vec![(0, 200)]);
        // A clock that moves a millisecond a reading: past the budget at once.
        let t = std::cell::Cell::new(0.0);
        let ticking = || {
            t.set(t.get() + 1.0);
            t.get()
        };
        sim.run_until(Tick::from_ms(10));
        let second = px.paint(&sim, &[], &ask, &ticking);
        assert!(!second.full);
        assert_eq!(second.bands, vec![0], "one band past the budget, in turn");
        sim.run_until(Tick::from_ms(20));
        let third = px.paint(&sim, &[], &ask, &ticking);
        assert_eq!(third.bands, vec![1 % n]);
        // The clock stopped: the bands still behind it are painted in turn, then none.
        let mut rest = Vec::new();
        while !px.complete_at(sim.now()) {
            rest.extend(px.paint(&sim, &[], &ask, &ticking).bands);
        }
        assert_eq!(rest, (2..n).chain([0]).collect::<Vec<u16>>());
        assert!(px.paint(&sim, &[], &ask, &ticking).bands.is_empty());
        let infos = band_infos(&sim);
        assert_eq!(infos.len(), usize::from(n));
        assert!(infos.iter().all(|b| b.size >= b.lru + b.free));
    }
}
