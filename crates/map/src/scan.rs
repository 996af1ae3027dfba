//! A scan in progress, as viewers draw it: the engine's `Scan` event as a span.

use ddlscope_engine::{Event, EventKind, LatchId, ListKind, SpaceId, Tick};
use serde::{Deserialize, Serialize};

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

impl ScanSpan {
    /// The span of a `Scan` event and which list it walked; `None` for other events.
    pub fn of_event(e: &Event) -> Option<(ListKind, ScanSpan)> {
        match &e.kind {
            EventKind::Scan {
                list,
                instance,
                space,
                latch,
                from,
                to,
                t0,
                t1,
                ..
            } => Some((
                *list,
                ScanSpan {
                    instance: *instance,
                    space: *space,
                    latch: *latch,
                    from: *from,
                    to: *to,
                    t0: *t0,
                    t1: *t1,
                },
            )),
            _ => None,
        }
    }
}

/// The LRU scans among `events` (not the flush-list walks), in order: what the map
/// draws a cursor for while one runs.
pub fn lru_scans(events: &[Event]) -> Vec<ScanSpan> {
    events
        .iter()
        .filter_map(ScanSpan::of_event)
        .filter(|(list, _)| *list != ListKind::Flush)
        .map(|(_, span)| span)
        .collect()
}
