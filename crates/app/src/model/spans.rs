//! Spans and marks: what the views draw over time, digested by the runner from the
//! engine's event stream. An LRU or flush-list scan ([`ScanSpan`]), a latch hold
//! ([`LatchSpan`]), a console statement ([`DdlSpan`]) and the HA probe's failover
//! ([`FailoverMark`]). The pool map, the latch lanes and the charts read them; they are
//! plain data here so that the runner, which fills them, needs none of those views.

use ddlscope_engine::{LatchId, ThreadId, Tick};
use serde::{Deserialize, Serialize};

/// The time window the latch lanes show: the runner keeps the latch holds of the
/// last [`LATCH_WINDOW`] of virtual time.
pub const LATCH_WINDOW: Tick = Tick::from_secs(60);

/// An LRU or flush-list scan in progress: the map crate's, which the CLI's posters
/// draw too.
pub use ddlscope_map::ScanSpan;

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
