//! The worker's own frame timings, for the page's `?debug=1` overlay: how often its
//! timer frames come, how long each works, and where that goes.

use crate::model::frame_stats::{FrameStats, Phases};
use crate::model::remote::protocol::{Timings, WORKER_PHASES};
use crate::model::runner::Engines;

/// How often the page hears the timings.
const TIMINGS_EVERY_MS: f64 = 250.0;

/// The phases of a timer frame (see [`WORKER_PHASES`]).
pub(super) type Phase = [f64; WORKER_PHASES.len()];

/// Which phase is which in a [`Phase`].
pub(super) mod phase {
    pub const ADVANCE: usize = 0;
    pub const DIGEST: usize = 1;
    pub const MAP: usize = 2;
    pub const PANELS: usize = 3;
    pub const CHARTS: usize = 4;
    pub const SNAPSHOT: usize = 5;
}

/// The timer frames measured so far.
#[derive(Debug, Default)]
pub(super) struct HostTimings {
    stats: FrameStats,
    phases: Phases<{ WORKER_PHASES.len() }>,
    last_frame_ms: Option<f64>,
    last_sent_ms: Option<f64>,
}

impl HostTimings {
    /// A timer frame that started at `now_ms` and worked `work_ms`, in `phase`.
    pub(super) fn record(&mut self, now_ms: f64, work_ms: f64, phase: &Phase) {
        if let Some(last) = self.last_frame_ms.replace(now_ms) {
            self.stats.push(now_ms - last, work_ms);
        }
        self.phases.add(phase);
    }

    /// The timings for the page, if they were not sent in the last
    /// [`TIMINGS_EVERY_MS`].
    pub(super) fn due(&mut self, now_ms: f64, e: &Engines) -> Option<Timings> {
        if self
            .last_sent_ms
            .is_some_and(|t| now_ms - t < TIMINGS_EVERY_MS)
        {
            return None;
        }
        self.last_sent_ms = Some(now_ms);
        let (f50, w50) = self.stats.quantiles(0.5);
        let (f95, w95) = self.stats.quantiles(0.95);
        let (playing, speed) = e.main().clock();
        Some(Timings {
            frame_ms: (f50, f95),
            work_ms: (w50, w95),
            frames: u32::try_from(self.stats.frames()).unwrap_or(u32::MAX),
            phases: self.phases.0,
            playing,
            speed,
            achieved: e.main().actual_speed(),
            pages: e.panes.iter().map(|r| r.sim().pool().pages_total()).sum(),
            engines: u8::try_from(e.panes.len()).unwrap_or(u8::MAX),
            workers: 1,
        })
    }
}

/// Adds the wall time since the last lap to a phase.
pub(super) struct Lap<'a> {
    clock: &'a dyn Fn() -> f64,
    last: f64,
    /// The phases so far.
    pub(super) phase: Phase,
}

impl<'a> Lap<'a> {
    /// Starts at `clock`'s now.
    pub(super) fn new(clock: &'a dyn Fn() -> f64) -> Lap<'a> {
        Lap {
            clock,
            last: clock(),
            phase: Phase::default(),
        }
    }

    /// The time since the last lap goes to phase `i`.
    pub(super) fn to(&mut self, i: usize) {
        let now = (self.clock)();
        self.phase[i] += now - self.last;
        self.last = now;
    }
}
