//! The event stream: the one seam between the engine and everything that shows it.
//!
//! Long operations are spans with their whole extent known when they start (a scan of
//! `from..to` over `[t0, t1]`), so a scan of a million pages is one event and a viewer
//! interpolates the cursor. Events are appended in the order the engine decides them;
//! `at` never decreases along the stream.
//!
//! The trace hash (64-bit FNV-1a over each event's JSON and each sample's JSON) is what
//! the determinism tests compare: same scenario, seed and commands, same hash.

use crate::bufpool::SpaceId;
use crate::latch::LatchId;
use crate::time::Tick;
use crate::ThreadId;
use serde::Serialize;

/// Which list a scan walks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ListKind {
    /// The LRU list.
    Lru,
    /// The flush list.
    Flush,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    /// A statement was accepted from a session.
    StatementStarted {
        /// The session (processlist id).
        session: u32,
        /// The statement text.
        sql: String,
    },
    /// A statement finished.
    StatementFinished {
        /// The session.
        session: u32,
        /// The statement text.
        sql: String,
        /// How long it ran.
        elapsed: Tick,
        /// `Query OK, ...` or the error, as the `mysql` client prints them.
        result: String,
        /// Whether it failed.
        error: bool,
    },
    /// A session's request for a metadata lock had to wait ("Waiting for table
    /// metadata lock").
    MdlWaitStarted {
        /// The session (processlist id).
        session: u32,
        /// The lock name: `TABLE test.t`, `GLOBAL`, ...
        lock: String,
        /// The type requested, as `performance_schema` names it: `EXCLUSIVE`.
        lock_type: String,
    },
    /// A session's metadata-lock wait ended: granted, or failed with `error`
    /// (1205 timeout, 1213 deadlock victim, 1317 killed).
    MdlWaitEnded {
        /// The session.
        session: u32,
        /// The error code if the request failed.
        error: Option<u16>,
    },
    /// A console session's processlist state changed.
    SessionState {
        /// The session.
        session: u32,
        /// The new state ("" when idle).
        state: String,
    },
    /// A scan of one instance's list, under `latch`, from position `from` to `to`
    /// (positions count from the tail), over `[t0, t1]`.
    Scan {
        /// The list.
        list: ListKind,
        /// The buffer-pool instance.
        instance: u16,
        /// The tablespace being removed.
        space: SpaceId,
        /// The latch held throughout.
        latch: LatchId,
        /// The DDL thread.
        thread: ThreadId,
        /// First position.
        from: u32,
        /// One past the last position.
        to: u32,
        /// Start.
        t0: Tick,
        /// End.
        t1: Tick,
    },
    /// A latch was held by a background or DDL thread over `[t0, t1]`.
    LatchHeld {
        /// The latch.
        latch: LatchId,
        /// The holder.
        thread: ThreadId,
        /// Acquired.
        t0: Tick,
        /// Released.
        t1: Tick,
        /// Threads waiting for it when it was released.
        waiters: u32,
    },
    /// A tablespace's version was bumped; its pages in the pool are now stale.
    SpaceVersionBumped {
        /// The tablespace.
        space: SpaceId,
        /// The new version.
        version: u32,
        /// Pages that became stale.
        stale_pages: u64,
    },
    /// A table left the dictionary.
    TableDropped {
        /// The table.
        table: String,
        /// Its tablespace.
        space: SpaceId,
    },
    /// DROP TABLE started removing the table's adaptive-hash-index entries, expecting to
    /// finish around `until` (the work depends on what is hashed as it goes).
    AhiCleanupStarted {
        /// The tablespace.
        space: SpaceId,
        /// Pages to look at.
        pages: u64,
        /// Hashed pages among them right now.
        hashed_pages: u64,
        /// The latch held throughout, if any.
        latch: Option<LatchId>,
        /// Estimated end.
        until: Tick,
    },
    /// The AHI cleanup finished: `[t0, t1]`, hashed pages dropped, records hashed.
    AhiCleanupDone {
        /// The tablespace.
        space: SpaceId,
        /// Start.
        t0: Tick,
        /// End.
        t1: Tick,
        /// Hashed pages whose entries were deleted.
        hashed_pages: u64,
        /// Records hashed to delete their entries.
        records: u64,
    },
    /// The HA manager's write probe has stalled past its limit and fails the primary over.
    Failover {
        /// How long the heartbeat write had been stalled.
        stalled_for: Tick,
    },
    /// A truncate step of the background purge of a dropped table's renamed file.
    PurgeStep {
        /// The file.
        path: String,
        /// Bytes left after the step.
        remaining_bytes: u64,
        /// Start.
        t0: Tick,
        /// End.
        t1: Tick,
    },
    /// Compressed-only pages a DROP decompressed while looking its freed extents up in
    /// the pool (Bug#16067973), over `[t0, t1]`, holding `latch`.
    ZipPagesDecompressed {
        /// The tablespace being dropped.
        space: SpaceId,
        /// Pages decompressed.
        pages: u64,
        /// Uncompressed frames that had to be found for them by evicting.
        evicted: u64,
        /// The latch held throughout.
        latch: LatchId,
        /// Start.
        t0: Tick,
        /// End.
        t1: Tick,
    },
    /// A TRUNCATE gave a table (or partition) a new, empty tablespace.
    TablespaceCreated {
        /// The table, `t#P#p0` for a partition.
        table: String,
        /// The old tablespace.
        old_space: SpaceId,
        /// The new one.
        space: SpaceId,
    },
    /// A DDL statement entered a phase of its work (an online ALTER's read, sort, load,
    /// flush, row-log apply).
    DdlPhase {
        /// The session running it.
        session: u32,
        /// The table.
        table: String,
        /// The phase, in words.
        phase: String,
        /// What the previous phase did, if worth saying.
        detail: String,
    },
    /// A data file is being truncated to its initial size over `[t0, t1]`, under `latch`.
    FileTruncate {
        /// The file.
        path: String,
        /// Bytes freed.
        bytes: u64,
        /// The latch held throughout (5.7: the global `fil_sys`).
        latch: Option<LatchId>,
        /// Start.
        t0: Tick,
        /// End.
        t1: Tick,
    },
    /// An operator's shell command (a scenario's `shell` line) finished.
    ShellDone {
        /// The command line.
        line: String,
        /// `ok`, or what went wrong.
        result: String,
        /// Whether it failed.
        error: bool,
    },
    /// An online schema-change tool (a scenario's `tool` line) said something: its
    /// progress, a throttle, a retried lock wait timeout, its end.
    ToolStatus {
        /// `pt-online-schema-change` or `gh-ost`.
        tool: String,
        /// The line.
        message: String,
        /// Whether it reports an error.
        error: bool,
    },
    /// A data file is being unlinked over `[t0, t1]`.
    FileUnlink {
        /// The file.
        path: String,
        /// Its size.
        bytes: u64,
        /// The DDL thread.
        thread: ThreadId,
        /// Start.
        t0: Tick,
        /// End.
        t1: Tick,
    },
}

/// One event, stamped with the virtual time it was decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Event {
    /// When.
    pub at: Tick,
    /// What.
    #[serde(flatten)]
    pub kind: EventKind,
}

/// 64-bit FNV-1a, fed incrementally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceHash(u64);

impl Default for TraceHash {
    fn default() -> TraceHash {
        TraceHash(0xcbf2_9ce4_8422_2325)
    }
}

impl TraceHash {
    /// Feeds bytes.
    pub fn feed(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// Feeds a value's JSON.
    pub fn feed_json<T: Serialize>(&mut self, v: &T) {
        let bytes = serde_json::to_vec(v).expect("engine types serialize");
        self.feed(&bytes);
        self.feed(b"\n");
    }
    /// The hash so far.
    pub fn value(self) -> u64 {
        self.0
    }
}
