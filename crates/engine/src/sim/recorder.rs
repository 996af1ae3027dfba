//! What a run records for those watching it: the event stream and its trace hash, the
//! status counters and the per-second samples taken from them, the wait gauges, and
//! the HA probe's findings.
//!
//! Event-ordering contract: an event is appended when the engine decides it, with the
//! current tick; spans whose end is known up front carry `t0`/`t1` and are appended at
//! `t0`. Samples are taken at each whole virtual second, before any thread step of that
//! same tick.

use crate::events::{Event, EventKind, TraceHash};
use crate::metrics::{Counters, LatencyWindow, Sample, WaitGauge};
use crate::time::Tick;

/// The run's observations.
#[derive(Clone, Debug, Default)]
pub(super) struct Recorder {
    pub(super) events: Vec<Event>,
    pub(super) samples: Vec<Sample>,
    pub(super) hash: TraceHash,
    /// The status counters now, and as the last sample saw them.
    pub(super) counters: Counters,
    pub(super) last_counters: Counters,
    /// Latencies of the events finished since the last sample.
    pub(super) latency: LatencyWindow,
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
}
