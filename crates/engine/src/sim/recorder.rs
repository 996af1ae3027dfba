//! What a run records for those watching it: the event stream and its trace hash, the
//! status counters and the per-second samples taken from them, the wait gauges, and
//! the HA probe's findings.
//!
//! Event-ordering contract: an event is appended when the engine decides it, with the
//! current tick; spans whose end is known up front carry `t0`/`t1` and are appended at
//! `t0`. Samples are taken at each whole virtual second, before any thread step of that
//! same tick.
//!
//! Both records are bounded, so a run of any length keeps a fixed amount of them:
//!
//! ```text
//!  events   [ dropped ............ | kept: the newest EVENTS_KEEP..2×EVENTS_KEEP ]
//!           at 2×EVENTS_KEEP the oldest EVENTS_KEEP go (one move, amortised O(1))
//!  samples  [ history: every stride-th second | recent: the last SAMPLES_RECENT s ]
//!           past SAMPLES_RECENT + SAMPLES_HISTORY the history is thinned (stride ×2)
//! ```
//!
//! Every event and sample is fed to the trace hash when it is made, so what is kept
//! does not change the hash; counts of all ever made are kept for readers that follow
//! the stream (`events_since`, `samples_since`).

use crate::events::{Event, EventKind, TraceHash};
use crate::metrics::{Counters, LatencyWindow, Sample, WaitGauge};
use crate::time::Tick;

/// The run's observations.
#[derive(Clone, Debug, Default)]
pub(super) struct Recorder {
    pub(super) events: EventLog,
    pub(super) samples: SampleLog,
    pub(super) hash: TraceHash,
    /// The status counters now, and as the last sample saw them.
    pub(super) counters: Counters,
    pub(super) last_counters: Counters,
    /// Latencies of the events finished since the last sample.
    pub(super) latency: LatencyWindow,
    /// Since `Sim::open_latency_span`: every event's latency, corrected for
    /// coordinated omission with the interval beside it (µs).
    pub(super) span: Option<(LatencyWindow, u64)>,
    /// Workload statements in flight (`Threads_running`).
    pub(super) running: u64,
    /// The most waiting at once, by kind, since the last sample.
    pub(super) wait_peak: WaitGauge,
    /// The HA probe's heartbeat in progress (its start), the longest one so far, and
    /// whether it failed the primary over.
    pub(super) probe_in_flight: Option<Tick>,
    pub(super) probe_longest: Tick,
    pub(super) failed_over: bool,
}

impl Recorder {
    /// Appends an event at `at` and feeds it to the trace hash.
    pub(super) fn emit(&mut self, at: Tick, kind: EventKind) {
        let e = Event { at, kind };
        self.hash.feed_json(&e);
        self.events.push(e);
    }

    /// Appends the second's sample and feeds it to the trace hash.
    pub(super) fn sample(&mut self, s: Sample) {
        self.hash.feed(&s.to_json());
        self.hash.feed(b"\n");
        self.samples.push(s);
    }
}

/// Events kept at least: the newest 65,536 (between that and twice that, about 6–12 MB).
pub const EVENTS_KEEP: usize = 1 << 16;
/// Samples kept at full resolution: the last hour.
pub const SAMPLES_RECENT: usize = 3600;
/// Older samples kept, thinned to every `stride`-th second: at most this many.
pub const SAMPLES_HISTORY: usize = 3600;

/// The event stream's newest part, and how many events went before it.
#[derive(Clone, Debug, Default)]
pub(super) struct EventLog {
    dropped: u64,
    kept: Vec<Event>,
}

impl EventLog {
    fn push(&mut self, e: Event) {
        if self.kept.len() >= 2 * EVENTS_KEEP {
            self.kept.drain(..EVENTS_KEEP);
            self.dropped += EVENTS_KEEP as u64;
        }
        self.kept.push(e);
    }

    /// The events kept, oldest first.
    pub(super) fn kept(&self) -> &[Event] {
        &self.kept
    }

    /// Every event ever made.
    pub(super) fn total(&self) -> u64 {
        self.dropped + self.kept.len() as u64
    }

    /// Events made after the first `seen`, as far as they are kept.
    pub(super) fn since(&self, seen: u64) -> &[Event] {
        let skip = seen
            .saturating_sub(self.dropped)
            .min(self.kept.len() as u64);
        &self.kept[skip as usize..]
    }

    /// How many events were dropped from the front.
    #[cfg(test)]
    pub(super) fn dropped(&self) -> u64 {
        self.dropped
    }
}

/// The per-second samples: the last [`SAMPLES_RECENT`] all kept, older ones thinned.
#[derive(Clone, Debug)]
pub(super) struct SampleLog {
    taken: u64,
    /// History samples are kept when their second is a multiple of this.
    stride: u64,
    kept: Vec<Sample>,
}

impl Default for SampleLog {
    fn default() -> SampleLog {
        SampleLog {
            taken: 0,
            stride: 1,
            kept: Vec::new(),
        }
    }
}

impl SampleLog {
    fn push(&mut self, s: Sample) {
        self.kept.push(s);
        self.taken += 1;
        if self.kept.len() > SAMPLES_RECENT + SAMPLES_HISTORY {
            self.thin();
        }
    }

    /// Halves the history (doubling the stride) until it fits in half its room.
    fn thin(&mut self) {
        let history = self.kept.len() - SAMPLES_RECENT;
        let on = |stride: u64, kept: &[Sample]| kept.iter().filter(|s| s.t_s % stride == 0).count();
        while on(self.stride, &self.kept[..history]) > SAMPLES_HISTORY / 2 {
            self.stride *= 2;
        }
        let stride = self.stride;
        let mut i = 0;
        self.kept.retain(|s| {
            i += 1;
            i > history || s.t_s % stride == 0
        });
    }

    /// The samples kept, oldest first (one a second for the last hour, then thinned).
    pub(super) fn kept(&self) -> &[Sample] {
        &self.kept
    }

    /// Every sample ever taken.
    pub(super) fn total(&self) -> u64 {
        self.taken
    }

    /// The samples taken after the first `seen`, as far as they are kept (the last
    /// hour's always are).
    pub(super) fn since(&self, seen: u64) -> &[Sample] {
        let n = self.taken.saturating_sub(seen).min(self.kept.len() as u64) as usize;
        &self.kept[self.kept.len() - n..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(t_s: u64) -> Sample {
        Sample {
            t_s,
            ..Sample::default()
        }
    }

    #[test]
    fn a_day_of_samples_keeps_the_last_hour_whole_and_thins_the_rest() {
        let mut log = SampleLog::default();
        let mut most = 0;
        for t in 1..=86_400 {
            log.push(sample(t));
            most = most.max(log.kept().len());
            if t == 100 {
                assert_eq!(log.since(97).len(), 3);
            }
        }
        assert!(most <= SAMPLES_RECENT + SAMPLES_HISTORY, "{most}");
        assert_eq!(log.total(), 86_400);
        let kept = log.kept();
        let recent = &kept[kept.len() - SAMPLES_RECENT..];
        assert!(recent.windows(2).all(|w| w[1].t_s == w[0].t_s + 1));
        assert_eq!(recent.last().map(|s| s.t_s), Some(86_400));
        // The history reaches back to the start, in time order.
        assert!(kept[0].t_s <= 64, "{}", kept[0].t_s);
        assert!(kept.windows(2).all(|w| w[0].t_s < w[1].t_s));
        assert_eq!(log.since(86_390).len(), 10);
    }

    #[test]
    fn the_event_log_keeps_the_newest_and_counts_them_all() {
        let mut log = EventLog::default();
        let n = 3 * EVENTS_KEEP as u64 + 5;
        for i in 0..n {
            log.push(Event {
                at: Tick(i),
                kind: EventKind::TableDropped {
                    table: String::new(),
                    space: crate::bufpool::SpaceId(1),
                },
            });
            assert!(log.kept().len() <= 2 * EVENTS_KEEP);
        }
        assert_eq!(log.total(), n);
        assert_eq!(log.since(n - 2).len(), 2);
        assert_eq!(log.since(n - 2)[0].at, Tick(n - 2));
        assert_eq!(log.kept().len() as u64 + log.dropped(), n);
        // A reader that fell behind the kept part gets what is kept.
        assert_eq!(log.since(0).len(), log.kept().len());
    }
}
