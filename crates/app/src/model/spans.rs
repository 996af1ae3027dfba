//! Spans and marks: what the views draw over time, digested by the runner from the
//! engine's event stream. An LRU or flush-list scan ([`ScanSpan`]), a latch hold
//! ([`LatchSpan`]), a console statement ([`DdlSpan`]) and the HA probe's failover
//! ([`FailoverMark`]). The pool map, the latch lanes and the charts read them; they are
//! plain data here so that the runner, which fills them, needs none of those views.

use ddlscope_engine::{LatchId, SpaceId, ThreadId, Tick};
use serde::{Deserialize, Serialize};

/// The time window the latch lanes show: the runner keeps the latch holds of the
/// last [`LATCH_WINDOW`] of virtual time.
pub const LATCH_WINDOW: Tick = Tick::from_secs(60);

/// An LRU scan in progress, as the pool map draws it.
///
/// The engine emits the span when the scan takes the instance mutex and frees the
/// tablespace's pages when it releases it, at `t1`, all at once: no thread can look at
/// the list in between, so only the viewer sees the walk. The map interpolates the
/// cursor from the span and shows the pages it has passed as freed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanSpan {
    /// The buffer-pool instance whose list is scanned.
    pub instance: u16,
    /// The tablespace whose pages the scan frees.
    pub space: SpaceId,
    /// The latch held throughout.
    pub latch: LatchId,
    /// First position, counted from the tail.
    pub from: u32,
    /// One past the last position, counted from the tail.
    pub to: u32,
    /// Start.
    pub t0: Tick,
    /// End.
    pub t1: Tick,
}

impl ScanSpan {
    /// Whether the scan is running at `now`.
    pub fn active(&self, now: Tick) -> bool {
        self.t0 <= now && now <= self.t1
    }

    /// Blocks the cursor has passed at `now`, counted from the tail: the walk covers
    /// `to - from` blocks at an even pace over `[t0, t1]`.
    pub fn visited(&self, now: Tick) -> u32 {
        let span = (self.t1 - self.t0).as_ns();
        let len = u64::from(self.to - self.from);
        // Tick subtraction saturates: before t0 nothing is visited. A zero-length span
        // is over as soon as it starts.
        (len * (now - self.t0).as_ns().min(span))
            .checked_div(span)
            .unwrap_or(len) as u32
    }

    /// Blocks still ahead of the cursor at `now`, between it and the list head: the
    /// cursor's index in LRU order from the head. The scan holds the instance mutex and
    /// the engine frees the pages only at `t1`, so the list keeps its length meanwhile.
    pub fn unvisited(&self, now: Tick) -> u32 {
        self.to - self.from - self.visited(now)
    }
}

/// A statement from the console, from StatementStarted to StatementFinished: a band on
/// the charts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DdlSpan {
    /// The console session that ran it.
    pub session: u32,
    /// The statement.
    pub sql: String,
    /// Started.
    pub t0: Tick,
    /// Finished, or `None` while it runs.
    pub t1: Option<Tick>,
}

/// A finished hold of a latch by a DDL or background thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatchSpan {
    /// The latch.
    pub latch: LatchId,
    /// The holder.
    pub thread: ThreadId,
    /// Acquired.
    pub t0: Tick,
    /// Released.
    pub t1: Tick,
    /// Threads queued for it at the release.
    pub waiters: u32,
}

/// The HA probe's failover: writes stalled from `stalled_from`, failover at `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailoverMark {
    /// When the heartbeat write that never finished started.
    pub stalled_from: Tick,
    /// When the probe failed over.
    pub at: Tick,
}
