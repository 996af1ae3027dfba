//! The messages between the page and the worker, and their encoding.
//!
//! Both ends are this crate, built once, so the encoding needs no self-description:
//! bincode (1.3, serde only, and already in the lock file through gloo-worker)
//! writes the fields in order, fixed-width integers, no names. Every message starts
//! with [`PROTOCOL_VERSION`] (a page and a worker from two builds, a cached
//! `worker.js`, are told apart and the message refused with the reason), and a
//! message longer than [`MAX_MESSAGE`] is refused before it is read.
//! Pixels do not go through it: a [`MapPatch`] says which rows changed, and their
//! RGBA bytes travel beside the encoded frame as a transferred `ArrayBuffer`, never
//! copied into the page's wasm memory.
//!
//! Three kinds of field bincode cannot carry as derived: [`Knobs`] and a scenario a
//! link carried whole (they skip absent settings when serialised, which only
//! self-describing formats read back) cross as their link form, JSON; the engine's `LatchId` (an adjacently tagged
//! enum) as a number (`wire.rs`). MessagePack, self-describing, reads both, but its
//! code made the shipped module 0.8 MiB larger.

use crate::model::advisor::{AdviceView, AdvisorForm, Progress};
use crate::model::export::TextExport;
use crate::model::knobs::Knobs;
use crate::model::link::LinkState;
use crate::model::map_pixels::BandInfo;
use crate::model::panels::{ChartData, FlushView, LatchView};
use crate::model::runner::Input;
use crate::model::snapshot::{LogEntry, Snapshot};
use crate::model::spans::ScanSpan;
use bincode::Options;
use ddlscope_engine::Tick;
use serde::{Deserialize, Serialize};

/// The messages' layout: raised whenever a [`Command`], [`Reply`] or [`Frame`]
/// changes shape.
pub const PROTOCOL_VERSION: u16 = 7;
/// The longest message read, bytes (a frame is a few kB; a link's journal at most
/// a few hundred).
pub const MAX_MESSAGE: u64 = 16 << 20;

/// What the page asks of the worker. `ask` numbers a command that wants an answer:
/// the [`Reply`] carries it back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Command {
    /// Build `scenario` on `profile` with `knobs` as restart `generation` (the first
    /// engine, or a new scenario, engine or setting: what was typed is carried over
    /// to the same scenario, as on the page); compare mode stays on.
    Open {
        /// The scenario's name: a built-in one's, or `own`'s.
        scenario: String,
        /// The scenario itself when a link carried it whole (`ddlscope_moment::own`);
        /// the worker keeps it, so that naming it again later rebuilds it.
        #[serde(with = "own_json")]
        own: Option<Box<ddlscope_engine::Scenario>>,
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
    /// Pane `pane`'s map canvas: its width in device pixels and its colours. Its
    /// height follows from the engine's pool (`ddlscope_map::layout::css_height` of
    /// its instances × `dpr`), which the worker knows first: the page can ask for
    /// the first map before it has heard of the engine, and sizes the canvas to the
    /// patches that come back.
    View {
        /// Which engine.
        pane: u8,
        /// Width, device pixels.
        width: u32,
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
    /// Seek every engine to `t`, within what was run (the scrubber).
    Seek(Tick),
    /// Go to `t`, within what was run or beyond it (an embedding page's `seek`).
    GoTo(Tick),
    /// Pause and step to the next mark (`true`) or back to the previous one.
    Step(bool),
    /// Open the moment a link describes (replayed to its tick a slice a frame, as
    /// restart `generation`); a link that cannot be opened is answered with
    /// [`Reply::LinkFailed`] and the default scenario opens.
    OpenLink {
        /// The link's state.
        link: LinkJson,
        /// The restart's number.
        generation: u32,
    },
    /// The link of the engines now: answered with [`Reply::Link`].
    Link {
        /// The ask's number.
        ask: u32,
        /// The page's panel layout, as the link writes it ([`LinkState::layout_param`]).
        layout: Option<String>,
    },
    /// The main engine's map of this moment painted whole, `width` device pixels
    /// wide at `dpr` (the Share dialog's poster, at 2×): answered with
    /// [`Reply::Poster`].
    Poster {
        /// The ask's number.
        ask: u32,
        /// Width, device pixels.
        width: u32,
        /// Device pixels per CSS pixel.
        dpr: f64,
        /// The dark theme.
        dark: bool,
    },
    /// A text export of the main engine: answered with [`Reply::Exported`].
    Export {
        /// The ask's number.
        ask: u32,
        /// Which.
        kind: TextExport,
    },
    /// The map's tooltip at a point of pane `pane`'s canvas (CSS px from its top
    /// left, and its CSS width): answered with [`Reply::Inspected`].
    Inspect {
        /// The ask's number.
        ask: u32,
        /// Which engine.
        pane: u8,
        /// The point, CSS px.
        x: f64,
        /// The point, CSS px.
        y: f64,
        /// The canvas's CSS width.
        width: f64,
    },
    /// Open step `step` of lesson `lesson` (quiz variant `variant`, seed `seed`) on
    /// fresh engines as restart `generation` (`model::lesson::open`): answered with
    /// [`Reply::LessonOpened`] once its sessions are connected, or at once with why
    /// not.
    OpenLesson {
        /// The ask's number.
        ask: u32,
        /// The lesson's id.
        lesson: String,
        /// The text of a lesson the reader brought (a file, a URL), read again
        /// here; `None` for a built-in one.
        source: Option<String>,
        /// The step, 0-based.
        step: u32,
        /// The quiz variant.
        variant: u32,
        /// The seed's index in the variant's list.
        seed: u32,
        /// The restart's number.
        generation: u32,
    },
    /// From the worker running the main engine to the one it started for the
    /// compare engine (`host/partner.rs`): run to `to`, the main engine's moment
    /// (back to it by a replay when past it), with the main engine's inputs, when
    /// they changed since the last.
    Follow {
        /// The main engine's moment, or where it is headed (a seek, a replay).
        to: Tick,
        /// The main engine's inputs, all of them, when they changed.
        inputs: Option<Vec<Input>>,
    },
    /// Run on to the question of step `step` of lesson `lesson` and measure what it
    /// asks about (`model::lesson::reveal`): answered with [`Reply::Revealed`].
    Reveal {
        /// The ask's number.
        ask: u32,
        /// The lesson's id.
        lesson: String,
        /// The text of a lesson the reader brought, as in [`Command::OpenLesson`].
        source: Option<String>,
        /// The step, 0-based.
        step: u32,
    },
    /// Run the Advisor's playbooks for `form` beside the engines, a slice a frame
    /// (`worker/host/advice.rs`): progress comes as [`Reply::AdviceProgress`], the
    /// ranking as [`Reply::Advised`]. A new one replaces one running.
    Advise {
        /// The ask's number.
        ask: u32,
        /// The question, as the panel's form has it.
        form: AdvisorForm,
    },
    /// Stop the advice running, if any.
    CancelAdvice,
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
    /// [`Command::Link`]'s answer: the link state of the engines with the page's
    /// panels, encoded as the fragment carries it ([`LinkState::encode`], done here
    /// so that the page's thread neither parses nor deflates it every second), or
    /// `None` before the first engine.
    Link {
        /// The ask's number.
        ask: u32,
        /// The encoded state.
        encoded: Option<String>,
        /// Its run apart from its moment ([`LinkState::run_key`]), so the page
        /// reads no fragment to tell whether only the clock moved.
        run: Option<u64>,
    },
    /// [`Command::Poster`]'s answer: the whole map as one patch (its labels drawn by
    /// the page, as on the canvas) and its pixels, RGBA row by row; or why not.
    Poster {
        /// The ask's number.
        ask: u32,
        /// The patch and its pixels.
        result: Result<(MapPatch, Vec<u8>), String>,
    },
    /// [`Command::Export`]'s answer: the file's name and text, or why not.
    Exported {
        /// The ask's number.
        ask: u32,
        /// `(name, text)`.
        result: Result<(String, String), String>,
    },
    /// [`Command::Inspect`]'s answer: the tooltip's text, if a frame is there.
    Inspected {
        /// The ask's number.
        ask: u32,
        /// The text.
        text: Option<String>,
    },
    /// [`Command::OpenLesson`]'s answer: the lesson's session names with their
    /// processlist ids, or why the step could not open.
    LessonOpened {
        /// The ask's number.
        ask: u32,
        /// The sessions, or why not.
        result: Result<Vec<(String, u32)>, String>,
    },
    /// [`Command::Reveal`]'s answer: what the simulation shows at the question's
    /// moment, in words, or why it cannot say.
    Revealed {
        /// The ask's number.
        ask: u32,
        /// The observation, or why not.
        seen: Result<String, String>,
    },
    /// The clock reached a lesson step's pause and stopped there.
    PausedAtMark,
    /// [`Command::OpenLink`]'s link could not be opened: why, in the banner's words
    /// (the default scenario runs instead).
    LinkFailed(String),
    /// A message the worker could not read, and why.
    Refused(String),
    /// Where the advice running is.
    AdviceProgress(Progress),
    /// [`Command::Advise`]'s answer: the playbooks ranked, or why there is no
    /// advice (input the advisor cannot model, naming the field).
    Advised {
        /// The ask's number.
        ask: u32,
        /// The ranking, or why not.
        result: Result<AdviceView, String>,
    },
}

impl Reply {
    /// The ask a reply answers, if it answers one.
    pub fn ask(&self) -> Option<u32> {
        match self {
            Reply::Connected { ask, .. }
            | Reply::Submitted { ask, .. }
            | Reply::Link { ask, .. }
            | Reply::Poster { ask, .. }
            | Reply::Exported { ask, .. }
            | Reply::Inspected { ask, .. }
            | Reply::LessonOpened { ask, .. }
            | Reply::Revealed { ask, .. }
            | Reply::Advised { ask, .. } => Some(*ask),
            Reply::Notice(_)
            | Reply::PausedAtMark
            | Reply::RestartFailed { .. }
            | Reply::CompareFailed(_)
            | Reply::LinkFailed(_)
            | Reply::Refused(_)
            | Reply::AdviceProgress(_) => None,
        }
    }
}

/// A [`LinkState`] on the wire: as its JSON text, like [`Knobs`] (it skips absent
/// fields when serialised).
#[derive(Clone, Debug, PartialEq)]
pub struct LinkJson(pub LinkState);

impl Serialize for LinkJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde_json::to_string(&self.0)
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

impl<'de> Deserialize<'de> for LinkJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<LinkJson, D::Error> {
        let text = String::deserialize(d)?;
        serde_json::from_str(&text)
            .map(LinkJson)
            .map_err(serde::de::Error::custom)
    }
}

/// What the worker posts after a timer frame that changed something.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// The main engine's restart number: news of an older one is dropped.
    pub generation: u32,
    /// Whether an engine is building its pool or replaying to a moment.
    pub busy: bool,
    /// Commands the worker has taken so far: the page knows a seek it sent is not
    /// in a frame's `busy` until this counts it.
    pub handled: u32,
    /// The main engine's virtual time (a compare engine's worker tells the main
    /// engine's how far it has got).
    pub now: Tick,
    /// Per engine.
    pub panes: Vec<PaneFrame>,
    /// The main engine's console log, when it changed.
    pub log: Option<Vec<LogEntry>>,
    /// Answers and notices since the last frame.
    pub replies: Vec<Reply>,
    /// The worker's frame timings, when due.
    pub timings: Option<Timings>,
}

/// The phases of a worker's timer frame, as [`Timings::phases`] orders them: the
/// engines' advance, the digest of their events, the map's pixels, the latch lanes
/// and flush lists, the charts' data, the snapshots.
pub const WORKER_PHASES: [&str; 6] = ["advance", "digest", "map", "panels", "charts", "snap"];

/// The worker's frame timings, for the `?debug=1` overlay (about four times a
/// second).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    /// Wall time between timer frames, p50 and p95, ms.
    pub frame_ms: (f64, f64),
    /// Wall time a timer frame works (before posting), p50 and p95, ms.
    pub work_ms: (f64, f64),
    /// Frames the percentiles cover.
    pub frames: u32,
    /// Where a frame's work goes, ms, smoothed, in [`WORKER_PHASES`]' order.
    pub phases: [f64; 6],
    /// Whether the clock runs.
    pub playing: bool,
    /// The speed asked for.
    pub speed: f64,
    /// The speed achieved (the main engine's).
    pub achieved: f64,
    /// Pages of every engine's pool.
    pub pages: u64,
    /// Engines running.
    pub engines: u8,
    /// Workers they run in (compare mode: one each, where the browser can).
    pub workers: u8,
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
    /// Whether, with this patch, every band shows `now` (the clock stopped, the
    /// frames after it paint the bands a budget left behind until one does).
    pub complete: bool,
}

impl Command {
    /// Whether the engines may be busy after it (building a pool, replaying to a
    /// moment, a step forward that runs up to ten virtual seconds to find a mark)
    /// until a frame says otherwise.
    pub fn unsettles(&self) -> bool {
        matches!(
            self,
            Command::Open { .. }
                | Command::OpenLink { .. }
                | Command::OpenLesson { .. }
                | Command::Compare(_)
                | Command::Seek(_)
                | Command::GoTo(_)
                | Command::Step(_)
        )
    }
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

/// bincode as both ends use it: fixed-width integers, at most [`MAX_MESSAGE`] read.
fn codec() -> impl Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_limit(MAX_MESSAGE)
}

/// `message` as bytes, after the protocol's version.
fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    codec()
        .serialize(&(PROTOCOL_VERSION, message))
        .expect("a message always encodes")
}

/// A message from bytes; `what` names it in the error (a message from another build
/// of the module, or not one at all).
fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T, String> {
    let version: u16 = bytes
        .get(..2)
        .and_then(|b| codec().deserialize(b).ok())
        .ok_or_else(|| format!("unreadable {what}: {} bytes, no version", bytes.len()))?;
    if version != PROTOCOL_VERSION {
        return Err(format!(
            "unreadable {what}: protocol version {version}, this page speaks {PROTOCOL_VERSION} (reload the page)"
        ));
    }
    codec()
        .deserialize(&bytes[2..])
        .map_err(|e| format!("unreadable {what}: {e}"))
}

/// A command as bytes.
pub fn encode_command(c: &Command) -> Vec<u8> {
    encode(c)
}

/// A command from bytes; an error names what was wrong.
pub fn decode_command(bytes: &[u8]) -> Result<Command, String> {
    decode(bytes, "command")
}

/// A frame as bytes.
pub fn encode_frame(f: &Frame) -> Vec<u8> {
    encode(f)
}

/// A frame from bytes.
pub fn decode_frame(bytes: &[u8]) -> Result<Frame, String> {
    decode(bytes, "frame")
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

/// A scenario a link carried whole, as its JSON text (see the module's note).
mod own_json {
    use ddlscope_engine::Scenario;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(own: &Option<Box<Scenario>>, s: S) -> Result<S::Ok, S::Error> {
        own.as_ref()
            .map(serde_json::to_string)
            .transpose()
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Box<Scenario>>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| serde_json::from_str(&text))
            .transpose()
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests;
