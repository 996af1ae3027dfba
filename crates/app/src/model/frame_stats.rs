//! Frame timings for the `?debug=1` overlay, wherever the frames run (the page's
//! animation frames, the worker's timer frames): the last [`FRAME_WINDOW`] frames'
//! intervals and work, and where a frame's work goes, smoothed.

/// Frames the percentiles cover.
pub const FRAME_WINDOW: usize = 240;

/// The last [`FRAME_WINDOW`] frames: wall time between them and spent in them, ms.
#[derive(Clone, Debug, Default)]
pub struct FrameStats {
    intervals: Vec<f64>,
    work: Vec<f64>,
    next: usize,
}

impl FrameStats {
    /// One frame, `interval` ms after the last, that worked `work` ms.
    pub fn push(&mut self, interval: f64, work: f64) {
        if self.intervals.len() < FRAME_WINDOW {
            self.intervals.push(interval);
            self.work.push(work);
        } else {
            self.intervals[self.next] = interval;
            self.work[self.next] = work;
        }
        self.next = (self.next + 1) % FRAME_WINDOW;
    }

    /// The `q`-quantile of frame intervals and of work per frame, ms.
    pub fn quantiles(&self, q: f64) -> (f64, f64) {
        (quantile(&self.intervals, q), quantile(&self.work, q))
    }

    /// Frames measured (at most [`FRAME_WINDOW`]).
    pub fn frames(&self) -> usize {
        self.intervals.len()
    }
}

/// The `q`-quantile of `xs` (nearest rank), 0 when empty.
pub fn quantile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// Where a frame's work goes, ms, each phase smoothed over recent frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Phases<const N: usize>(pub [f64; N]);

impl<const N: usize> Default for Phases<N> {
    fn default() -> Self {
        Phases([0.0; N])
    }
}

impl<const N: usize> Phases<N> {
    /// Takes in one frame's phases.
    pub fn add(&mut self, sample: &[f64; N]) {
        for (avg, x) in self.0.iter_mut().zip(sample) {
            *avg = 0.9 * *avg + 0.1 * x;
        }
    }

    /// `step 2.1 map 0.4 …` with `names`.
    pub fn named(&self, names: &[&str; N]) -> String {
        names
            .iter()
            .zip(self.0)
            .map(|(name, ms)| format!("{name} {ms:.1}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_cover_the_last_window_of_frames() {
        let mut s = FrameStats::default();
        for i in 0..FRAME_WINDOW + 10 {
            s.push(if i < 10 { 1000.0 } else { 16.0 }, i as f64 % 4.0);
        }
        assert_eq!(s.frames(), FRAME_WINDOW);
        assert_eq!(
            s.quantiles(0.95),
            (16.0, 3.0),
            "the ten slow frames left the window"
        );
        assert_eq!(quantile(&[], 0.5), 0.0);
        assert_eq!(quantile(&[3.0, 1.0, 2.0], 0.5), 2.0);
        let xs: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile(&xs, 0.5), 50.0, "nearest rank");
        assert_eq!(quantile(&xs, 0.95), 95.0);
    }

    #[test]
    fn phases_are_smoothed_and_named() {
        let mut p = Phases::<2>::default();
        p.add(&[10.0, 0.0]);
        assert_eq!(p.named(&["step", "map"]), "step 1.0 map 0.0");
    }
}
