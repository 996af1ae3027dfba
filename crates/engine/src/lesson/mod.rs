//! Lessons: a guided path through the simulation, as data (`assets/lessons/*.toml`,
//! the format in `docs/lessons.md`).
//!
//! ```text
//!   lesson file ──parse()──▶ Lesson { steps } ──plan(step)──▶ Plan { set-up, statements,
//!                                                │              seek, speed, pause_at }
//!                                                │                 │ the app replays it;
//!                                                ▼                 ▼ so does check()
//!                        check(): every question's answer ◀── observe(sim) at the moment
//!                        against what the simulation shows      the question names
//! ```
//!
//! A step either sets the server up (scenario, engine, compare engine, settings) or
//! continues the run of the step before; the statements of every step since the last
//! set-up are replayed, so a step opens in the same state whatever the path to it.
//! Questions name what the simulation must show ([`Observe`]); `check` runs each
//! lesson headless and refuses an answer the engine does not give.

mod check;
mod observe;
mod parse;
mod plan;

pub use check::{check, CheckReport, QuestionCheck};
pub use observe::{Observation, Observe};
pub use plan::{LessonRun, Plan};

use crate::device::DeviceKind;
use crate::fs::FileSystemKind;
use crate::size::ByteSize;
use crate::time::Tick;
use crate::workload::WorkloadKind;

/// A lesson, read and checked.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Lesson {
    /// Its id, used in links (`#lesson=mdl-queue&step=3`).
    pub id: String,
    /// Title.
    pub title: String,
    /// Who it is for.
    pub audience: String,
    /// How long it takes in a room (`15 min`).
    pub duration: String,
    /// The steps, at least one.
    pub steps: Vec<Step>,
}

/// One step of a lesson: a slide over the live simulation.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Step {
    /// Title.
    pub title: String,
    /// What the instructor says, markdown.
    pub narration: String,
    /// Speaker notes shown only in the notes window, markdown.
    pub notes: String,
    /// A fresh server, or `None` to continue the step before's run.
    pub setup: Option<Setup>,
    /// Several set-ups, one drawn at random when the step opens (the quiz).
    pub variants: Vec<Variant>,
    /// Statements sent when the step's run reaches their time.
    pub actions: Vec<Action>,
    /// The virtual time the step opens at (default: where the step before paused).
    pub seek: Option<Tick>,
    /// The speed it plays at (virtual seconds per second).
    pub speed: Option<f64>,
    /// The moment it pauses at.
    pub pause_at: Option<Tick>,
    /// What to point at.
    pub highlights: Vec<Highlight>,
    /// Panels hidden during the step (the quiz hides the statement log).
    pub hide: Vec<Panel>,
    /// A question to answer before running on.
    pub question: Option<Question>,
    /// Its line in the file.
    pub line: u32,
}

/// A server to start from.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// A built-in scenario.
    pub scenario: String,
    /// The engine profile (default: the scenario's).
    pub engine: Option<String>,
    /// A second engine on the same clock and statements.
    pub compare: Option<String>,
    /// Settings changed from the scenario's.
    pub settings: Settings,
    /// Whether the scenario's own `[[script]]` runs too (its shell lines, say);
    /// otherwise the lesson's actions are the only statements.
    pub script: bool,
}

/// Server settings on top of a scenario: the app's Server menu, and the seed.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// `innodb_buffer_pool_size`.
    pub pool: Option<ByteSize>,
    /// `innodb_buffer_pool_instances`.
    pub instances: Option<u16>,
    /// `innodb_adaptive_hash_index`.
    pub ahi: Option<bool>,
    /// The file system.
    pub file_system: Option<FileSystemKind>,
    /// The storage device.
    pub device: Option<DeviceKind>,
    /// The sysbench script.
    pub workload: Option<WorkloadKind>,
    /// Its threads.
    pub threads: Option<u32>,
    /// The scenario's random seed.
    pub seed: Option<u64>,
}

/// One set-up of a quiz step, with the choice it is the answer to.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Variant {
    /// The server.
    pub setup: Setup,
    /// Its statements.
    pub actions: Vec<Action>,
    /// The choice that is right for it.
    pub answer: String,
    /// The seeds it may run with, one drawn at random.
    pub seeds: Vec<u64>,
    /// Its line in the file.
    pub line: u32,
}

/// A statement a session sends at a virtual time.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Action {
    /// When, from the set-up's time zero.
    pub at: Tick,
    /// The session (`s1` is the console's first session; others connect at time zero).
    pub session: String,
    /// The statement(s).
    pub sql: String,
    /// Its line in the file.
    pub line: u32,
}

/// A panel of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Panel {
    /// The buffer-pool map.
    PoolMap,
    /// The latch lanes.
    LatchLanes,
    /// The flush list.
    FlushList,
    /// The metadata-lock panel.
    Mdl,
    /// The processlist.
    Processlist,
    /// The charts.
    Charts,
    /// The SQL console and its log.
    Console,
    /// The narration of what the server does.
    LiveLog,
    /// The counters.
    Stats,
}

impl Panel {
    /// Every panel with its name in lesson files.
    pub const ALL: [(Panel, &'static str); 9] = [
        (Panel::PoolMap, "pool-map"),
        (Panel::LatchLanes, "latch-lanes"),
        (Panel::FlushList, "flush-list"),
        (Panel::Mdl, "mdl"),
        (Panel::Processlist, "processlist"),
        (Panel::Charts, "charts"),
        (Panel::Console, "console"),
        (Panel::LiveLog, "live-log"),
        (Panel::Stats, "stats"),
    ];

    /// Its name in lesson files.
    pub fn name(self) -> &'static str {
        Panel::ALL
            .iter()
            .find(|(p, _)| *p == self)
            .map_or("", |(_, n)| n)
    }

    /// The panel named `name`.
    pub fn named(name: &str) -> Option<Panel> {
        Panel::ALL.iter().find(|(_, n)| *n == name).map(|(p, _)| *p)
    }
}

/// Something a step points at.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Highlight {
    /// A whole panel.
    Panel(Panel),
    /// One latch's lane (`dict_sys`, `LOCK_open`, `fil_sys`, `buf_pool[0]`).
    Latch(String),
    /// One table's metadata-lock card.
    MdlTable(String),
    /// A session, in the processlist and the console's tabs.
    Session(String),
    /// One of the charts ([`CHARTS`]: `throughput`, `buffer-pool`, `waits`), the
    /// others left out in presenter mode.
    Chart(String),
}

/// The charts' names in lesson files, in the order the page shows them.
pub const CHARTS: [&str; 3] = ["throughput", "buffer-pool", "waits"];

impl Highlight {
    /// The panel it is in.
    pub fn panel(&self) -> Panel {
        match self {
            Highlight::Panel(p) => *p,
            Highlight::Latch(_) => Panel::LatchLanes,
            Highlight::MdlTable(_) => Panel::Mdl,
            Highlight::Session(_) => Panel::Processlist,
            Highlight::Chart(_) => Panel::Charts,
        }
    }
}

/// A question: predict, then run on and see.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Question {
    /// What is asked.
    pub prompt: String,
    /// Choices or a number.
    pub kind: QuestionKind,
    /// What the simulation must show for the answer to hold.
    pub observe: Observe,
    /// The moment it shows it (default: the step's `pause_at`).
    pub at: Tick,
    /// Why, shown with the answer.
    pub explain: String,
    /// Its line in the file.
    pub line: u32,
}

/// The form of an answer.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum QuestionKind {
    /// Pick one; `answer` indexes `choices` (a quiz's variants carry their own).
    Choice {
        /// The choices.
        choices: Vec<String>,
        /// The right one, if the question has one answer for every run.
        answer: Option<usize>,
    },
    /// A number within `tolerance` of `answer`.
    Number {
        /// The stated answer.
        answer: f64,
        /// How far off still counts.
        tolerance: f64,
        /// Its unit, for display (`s`, `%`, `tps`).
        unit: String,
    },
}

impl QuestionKind {
    /// Whether a learner's `guess` (a choice's index, or a number typed) is right.
    pub fn accepts(&self, guess: &str, variant_answer: Option<&str>) -> bool {
        match self {
            QuestionKind::Choice { choices, answer } => {
                let right = variant_answer.or(answer.map(|i| choices[i].as_str()));
                right.is_some_and(|r| r == guess.trim())
            }
            QuestionKind::Number {
                answer, tolerance, ..
            } => guess
                .trim()
                .parse::<f64>()
                .is_ok_and(|g| (g - answer).abs() <= *tolerance),
        }
    }
}

/// Reads and checks a lesson file; `name` is how errors name the file.
pub fn parse(name: &str, text: &str) -> Result<Lesson, String> {
    parse::lesson(name, text)
}

/// The built-in lessons as `builtin/lessons.bin` holds them, decoded once.
fn compiled() -> &'static [(String, Lesson)] {
    static COMPILED: std::sync::OnceLock<Vec<(String, Lesson)>> = std::sync::OnceLock::new();
    COMPILED.get_or_init(|| crate::builtin::compiled(crate::builtin::COMPILED_LESSONS))
}

/// Every built-in lesson, read and checked (a broken one is a build bug: the tests
/// parse them; `builtin.rs`).
pub fn builtin() -> Vec<Result<Lesson, String>> {
    crate::builtin::LESSONS
        .iter()
        .map(|(name, _)| Ok(crate::builtin::find(compiled(), name)))
        .collect()
}

/// The built-in lesson `id`, read and checked, or `None` when there is no such lesson.
pub fn builtin_one(id: &str) -> Option<Result<Lesson, String>> {
    crate::builtin::LESSONS
        .iter()
        .find(|(name, _)| *name == id)
        .map(|(name, _)| Ok(crate::builtin::find(compiled(), name)))
}

impl Lesson {
    /// The step at `index` (0-based), if there is one.
    pub fn step(&self, index: usize) -> Option<&Step> {
        self.steps.get(index)
    }
}

#[cfg(test)]
mod tests;
