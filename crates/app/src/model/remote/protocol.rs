//! The messages between the page and the worker, and their encoding.
//!
//! Both ends are this crate, built once, so the encoding needs no versioning or
//! self-description: bincode (1.3, serde only, and already in the lock file
//! through gloo-worker) writes the fields in order, fixed-width integers, no names.
//! Pixels do not go through it: a [`MapPatch`] says which rows changed, and their
//! RGBA bytes travel beside the encoded frame as a transferred `ArrayBuffer`, never
//! copied into the page's wasm memory.
//!
//! Two kinds of field bincode cannot carry as derived: [`Knobs`] (it skips its
//! absent settings when serialised, which only self-describing formats read back)
//! crosses as its link form, JSON; the engine's `LatchId` (an adjacently tagged
//! enum) as a number (`wire.rs`). MessagePack, self-describing, reads both, but its
//! code made the shipped module 0.8 MiB larger.

use crate::model::knobs::Knobs;
use crate::model::map_pixels::BandInfo;
use crate::model::panels::{ChartData, FlushView, LatchView};
use crate::model::snapshot::{LogEntry, Snapshot};
use crate::model::spans::ScanSpan;
use ddlscope_engine::Tick;
use serde::{Deserialize, Serialize};

/// What the page asks of the worker. `ask` numbers a command that wants an answer:
/// the [`Reply`] carries it back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Command {
    /// Build `scenario` on `profile` with `knobs` as restart `generation` (the first
    /// engine, or a new scenario, engine or setting: what was typed is carried over
    /// to the same scenario, as on the page); compare mode stays on.
    Open {
        /// The built-in scenario.
        scenario: String,
        /// The engine profile.
        profile: String,
        /// The server settings.
        #[serde(with = "knobs_json")]
        knobs: Knobs,
        /// The restart's number.
        generation: u32,
    },
    /// Compare with `profile`, or stop comparing.
    Compare(Option<String>),
    /// Play or pause, and how fast.
    Clock {
        /// Whether virtual time runs.
        playing: bool,
        /// Virtual seconds per wall second.
        speed: f64,
    },
    /// Pane `pane`'s map canvas: its size in device pixels and its colours.
    View {
        /// Which engine.
        pane: u8,
        /// Width, device pixels.
        width: u32,
        /// Height, device pixels.
        height: u32,
        /// Device pixels per CSS pixel.
        dpr: f64,
        /// The dark theme.
        dark: bool,
    },
    /// The page drew the map patches of a frame: the worker may paint the next.
    Drawn,
    /// Open a console session on every engine.
    Connect {
        /// The ask's number.
        ask: u32,
    },
    /// Give `sql` to console session `session` (0: the console's first).
    Submit {
        /// The ask's number.
        ask: u32,
        /// The session.
        session: u32,
        /// The text.
        sql: String,
    },
    /// Seek every engine to `t`.
    Seek(Tick),
    /// Pause and step to the next mark (`true`) or back to the previous one.
    Step(bool),
}

/// An answer, or something the page should say.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// [`Command::Connect`]'s session.
    Connected {
        /// The ask's number.
        ask: u32,
        /// The new session's processlist id.
        session: u32,
    },
    /// [`Command::Submit`]'s outcome: statements accepted, or the error the mysql
    /// client prints.
    Submitted {
        /// The ask's number.
        ask: u32,
        /// The outcome.
        result: Result<u32, String>,
    },
    /// A line for the page's notice (history branched, typed statements carried over).
    Notice(String),
    /// A restart the engine refused: the running simulation is still the one named.
    RestartFailed {
        /// Why.
        error: String,
        /// The scenario still running.
        scenario: String,
        /// Its profile.
        profile: String,
        /// Its settings.
        #[serde(with = "knobs_json")]
        knobs: Knobs,
    },
    /// Compare mode could not start.
    CompareFailed(String),
}

/// What the worker posts after a timer frame that changed something.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// The main engine's restart number: news of an older one is dropped.
    pub generation: u32,
    /// Whether an engine is building its pool or replaying to a moment.
    pub busy: bool,
    /// Per engine.
    pub panes: Vec<PaneFrame>,
    /// The main engine's console log, when it changed.
    pub log: Option<Vec<LogEntry>>,
    /// Answers and notices since the last frame.
    pub replies: Vec<Reply>,
}

/// One engine's part of a [`Frame`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PaneFrame {
    /// Buffer-pool instances (the panels' heights).
    pub instances: u16,
    /// Its figures, about ten times a second.
    pub snapshot: Option<Snapshot>,
    /// The map's repainted rows, when it was repainted.
    pub map: Option<MapPatch>,
    /// The latch lanes, when the clock moved (at most ~30 times a second).
    pub latches: Option<LatchView>,
    /// The flush lists, likewise.
    pub flush: Option<FlushView>,
    /// The charts' data, when a sample or a statement span arrived (at most four
    /// times a second).
    pub charts: Option<ChartData>,
}

/// The rows of the map image a frame repainted, and what the text over them is drawn
/// from. Their RGBA bytes, region after region, are the frame's pixel buffer for this
/// pane.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MapPatch {
    /// The image's width, device pixels.
    pub width: u32,
    /// The image's height, device pixels.
    pub height: u32,
    /// Device pixels per CSS pixel it was painted for.
    pub dpr: f64,
    /// Rows repainted, `(first, one past the last)`, in the order of the bytes.
    pub regions: Vec<(u32, u32)>,
    /// The bands repainted, whose labels and cursors are drawn afresh.
    pub bands: Vec<u16>,
    /// Every instance's figures.
    pub infos: Vec<BandInfo>,
    /// The scans not over yet.
    #[serde(with = "super::wire::scans")]
    pub scans: Vec<ScanSpan>,
    /// The virtual time painted.
    pub now: Tick,
    /// The engine painted: its restart number and seek count (the page's tick
    /// attribute and the tests read `now`).
    pub engine: (u32, u64),
}

impl MapPatch {
    /// The bytes [`MapPatch::regions`] take, RGBA.
    pub fn byte_len(&self) -> usize {
        self.regions
            .iter()
            .map(|(a, b)| (b - a) as usize * self.width as usize * 4)
            .sum()
    }
}

/// A command as bytes.
pub fn encode_command(c: &Command) -> Vec<u8> {
    bincode::serialize(c).expect("a command always encodes")
}

/// A command from bytes; an error names what was wrong (a message from another
/// build of the module).
pub fn decode_command(bytes: &[u8]) -> Result<Command, String> {
    bincode::deserialize(bytes).map_err(|e| format!("unreadable command: {e}"))
}

/// A frame as bytes.
pub fn encode_frame(f: &Frame) -> Vec<u8> {
    bincode::serialize(f).expect("a frame always encodes")
}

/// A frame from bytes.
pub fn decode_frame(bytes: &[u8]) -> Result<Frame, String> {
    bincode::deserialize(bytes).map_err(|e| format!("unreadable frame: {e}"))
}

/// [`Knobs`] as its JSON text (see the module's note).
mod knobs_json {
    use crate::model::knobs::Knobs;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(k: &Knobs, s: S) -> Result<S::Ok, S::Error> {
        serde_json::to_string(k)
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Knobs, D::Error> {
        let text = String::deserialize(d)?;
        serde_json::from_str(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests;
