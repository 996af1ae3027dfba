//! What Yew sees of a simulation: the small [`Snapshot`] the frame loop sends ~10 times
//! a second, the console's log ([`LogEntry`]) and the [`News`] that carries them to the
//! reducer. Everything here is plain data, cheap to clone and compare; the views that
//! read it (the stats, the console, the processlist and metadata-lock panels) import
//! it from here.

use super::format;
use super::mdl::MdlView;
use super::processlist::ProcRow;
use ddlscope_engine::{EventKind, Sim, SpaceId, Tick};
use serde::{Deserialize, Serialize};

/// A finished statement, or a note about what the server did, for the console's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// When it finished (or happened, for a note).
    pub at: Tick,
    /// When the session sent it to the server (StatementStarted; a statement queued
    /// behind its session's earlier ones is sent when they finish, as the `mysql`
    /// client does), or when it was refused. Equal to `at` for a note.
    #[serde(default)]
    pub issued: Tick,
    /// The console session it ran on (0 for a note).
    pub session: u32,
    /// The statement, or the note's text.
    pub sql: String,
    /// `Query OK, ...` or the error; empty for a note.
    pub result: String,
    /// Whether it failed.
    pub error: bool,
    /// A line about the server (an HA failover, the AHI cleanup), not a statement.
    pub note: bool,
}

impl LogEntry {
    /// A note line at `at`.
    pub fn note(at: Tick, text: String) -> LogEntry {
        LogEntry {
            at,
            issued: at,
            session: 0,
            sql: text,
            result: String::new(),
            error: false,
            note: true,
        }
    }
}

/// A table, for the legend.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableInfo {
    /// Its name.
    pub name: String,
    /// Its tablespace (picks the colour).
    pub space: SpaceId,
    /// Whether it was dropped.
    pub dropped: bool,
}

/// The tables of `sim`, for the legend and the map's tooltip.
pub fn table_infos(sim: &Sim) -> Vec<TableInfo> {
    sim.tables()
        .map(|t| TableInfo {
            name: t.name.clone(),
            space: t.space,
            dropped: t.dropped,
        })
        .collect()
}

/// The log line an engine event deserves, if any: the HA probe's failover, the
/// adaptive hash index cleanup of a dropped table, an online schema-change tool's lines.
pub fn note_for(at: Tick, kind: &EventKind) -> Option<LogEntry> {
    let text = match kind {
        EventKind::Failover { stalled_for } => format!(
            "HA probe: failover after {} s of stalled writes",
            stalled_for.as_secs()
        ),
        EventKind::AhiCleanupStarted {
            space,
            pages,
            hashed_pages,
            latch,
            ..
        } => {
            let held = latch.map_or(String::new(), |l| format!(", holding {l}"));
            format!(
                "AHI cleanup of space {}: started, {} pages to look at, {} hashed{held}",
                space.0,
                format::int(*pages),
                format::int(*hashed_pages),
            )
        }
        EventKind::AhiCleanupDone {
            space,
            t0,
            t1,
            hashed_pages,
            records,
        } => format!(
            "AHI cleanup of space {}: done in {} s, {} hashed pages, {} records",
            space.0,
            format::secs(*t1 - *t0),
            format::int(*hashed_pages),
            format::int(*records),
        ),
        // What an online schema-change tool prints: its progress, throttling, retries.
        EventKind::ToolStatus { tool, message, .. } => format!("{tool}: {message}"),
        _ => return None,
    };
    Some(LogEntry::note(at, text))
}

/// What Yew shows of the simulation: small, cheap to compare.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The virtual time.
    pub now: Tick,
    /// `Innodb_buffer_pool_pages_total`.
    pub pages_total: u64,
    /// `Innodb_buffer_pool_pages_data`.
    pub pages_data: u64,
    /// `Innodb_buffer_pool_pages_free`.
    pub pages_free: u64,
    /// Stale pages not yet reclaimed.
    pub pages_stale: u64,
    /// `Innodb_buffer_pool_pages_dirty`.
    pub pages_dirty: u64,
    /// `Innodb_buffer_pool_pages_misc`: frames lent to the AHI and lock heaps.
    pub pages_misc: u64,
    /// `Innodb_buffer_pool_wait_free` in the last whole second: a thread found no free
    /// block and waited for the page cleaner.
    pub wait_free: u64,
    /// Statements per second, from the last whole second.
    pub qps: u64,
    /// 95th percentile statement latency in the last whole second, ms.
    pub latency_p95_ms: f64,
    /// Client threads inside a statement now.
    pub threads_running: u64,
    /// Whether a thread holds `dict_sys` now.
    pub dict_sys_held: bool,
    /// Virtual seconds per wall second over the last second while playing (0 when
    /// unknown or paused).
    pub actual_speed: f64,
    /// The tables.
    pub tables: Vec<TableInfo>,
    /// Flush-list walks by DDL so far, every instance together.
    pub flush_walks: u64,
    /// The furthest virtual time reached: the scrubber's end.
    pub horizon: Tick,
    /// Statements, lock waits and DDL phases up to the horizon, for the scrubber.
    pub marks: Vec<super::timeline_marks::Mark>,
    /// The InnoDB latches held right now (`dict_sys`, `LOCK_open`, ...).
    pub latches_held: Vec<String>,
    /// Sessions waiting now: for a latch, a metadata lock or a row lock.
    pub waiting: u64,
    /// The console sessions, in order.
    pub console: Vec<ConsoleSession>,
    /// Bumped whenever the console's log changes (a statement finished, a note, a
    /// seek): the frame loop then sends the log itself.
    pub log_version: u64,
    /// The metadata locks: per name, granted and waiting, with "waits for" edges.
    pub mdl: MdlView,
    /// SHOW PROCESSLIST's rows, sorted by Id.
    pub processlist: Vec<ProcRow>,
    /// What the engine is busy with before it can play (building its pool, replaying
    /// to a moment), with how far it has got, in words.
    pub busy: Option<String>,
}

/// A console session as its tab shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsoleSession {
    /// The processlist id.
    pub id: u32,
    /// Statements given and not finished yet (running, then queued).
    pub pending: u32,
    /// The statement it runs now, if any.
    pub running: Option<String>,
    /// Its processlist state ("Waiting for table metadata lock").
    pub state: String,
}

/// What the loop tells the reducer.
// A few of these a second: the snapshot's size (its lock and processlist views are on
// the heap anyway) is not worth a Box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum News {
    /// Engine `pane`'s state now (0 is the main engine, 1 the compared one).
    Snapshot {
        /// Which engine.
        pane: usize,
        /// Its figures.
        snapshot: Snapshot,
    },
    /// The main engine's console log changed: here it is, oldest first.
    Log(Vec<LogEntry>),
}

/// News stamped with the restart it is from: the reducer drops news of a simulation
/// the page has moved past.
#[derive(Clone, Debug, PartialEq)]
pub struct StampedNews {
    /// The main engine's restart number when the news was made.
    pub generation: u32,
    /// The news.
    pub news: News,
}

/// The buffer-pool map in words, for its canvas's text alternative: what the
/// colours show, in figures (the frames in the LRU lists, dirty, free, and the
/// stale pages of a dropped table waiting to be freed).
pub fn map_summary(s: &Snapshot, instances: u16) -> String {
    use super::format::int;
    let mut out = format!(
        "Buffer pool map, {} instance{}, {} frames: {} pages in the LRU lists ({} dirty), {} free",
        instances,
        if instances == 1 { "" } else { "s" },
        int(s.pages_total),
        int(s.pages_data),
        int(s.pages_dirty),
        int(s.pages_free),
    );
    if s.pages_stale > 0 {
        let dropped: Vec<&str> = s
            .tables
            .iter()
            .filter(|t| t.dropped)
            .map(|t| t.name.as_str())
            .collect();
        out.push_str(&format!(", {} stale pages being freed", int(s.pages_stale)));
        if !dropped.is_empty() {
            out.push_str(&format!(" (of {})", dropped.join(", ")));
        }
    }
    out.push('.');
    out
}

#[cfg(test)]
mod map_summary_tests {
    use super::*;

    #[test]
    fn the_map_says_its_figures() {
        let s = Snapshot {
            pages_total: 8192,
            pages_data: 6000,
            pages_dirty: 120,
            pages_free: 1000,
            pages_stale: 1192,
            tables: vec![TableInfo {
                name: "t1".into(),
                space: ddlscope_engine::SpaceId(5),
                dropped: true,
            }],
            ..Snapshot::default()
        };
        assert_eq!(
            map_summary(&s, 4),
            "Buffer pool map, 4 instances, 8,192 frames: 6,000 pages in the LRU lists (120 dirty), 1,000 free, 1,192 stale pages being freed (of t1)."
        );
    }
}
