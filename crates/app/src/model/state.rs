//! The page's state as a plain struct, the actions that change it, the reducer and the
//! narration. The root component that wires the panels to the engines is `ui::app`;
//! `Reducible` (Yew's hook for this reducer) is implemented there.
//!
//! ```text
//!   user ──▶ Controls / SqlConsole / keys ──Action──▶ reduce() ──▶ AppState ──▶ render
//!               │ (seek, step, submit: straight to the engines)        │
//!               ▼                                                      ▼ effects: scenario,
//!   FrameLoop ──▶ Engines { Runner (+ Runner) } ──News (≤10/s)──▶ reduce()   profile, settings,
//!                                                                      compare → rebuild
//! ```
//!
//! Architecture invariant: `AppState` holds only small values (flags, a snapshot of a
//! few dozen figures per engine, the console's log). The simulations are in
//! [`Engines`] behind an `Rc<RefCell<…>>`, driven by the frame loop; Yew never clones
//! them.

use super::advisor::Progress;
use super::format;
use super::knobs::Knobs;
use super::panel_layout::{PanelId, PanelLayout};
use super::runner::{DEFAULT_PROFILE, DEFAULT_SCENARIO};
use super::session_names::{check_name, SessionNames};
use super::snapshot::{LogEntry, News, Snapshot};

/// Lines the narration keeps.
const NARRATION_LEN: usize = 6;

/// Everything the page shows, apart from the canvases.
#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    /// Bumped at each restart; news from an older simulation is dropped.
    pub generation: u32,
    /// Whether virtual time runs.
    pub playing: bool,
    /// Virtual seconds per wall second.
    pub speed: f64,
    /// The built-in scenario.
    pub scenario: String,
    /// The engine profile.
    pub profile: String,
    /// The server settings changed from the scenario's.
    pub knobs: Knobs,
    /// The profile compared side by side, if any.
    pub compare: Option<String>,
    /// A restart is pending or under way: no snapshot of the new simulation yet.
    pub building: bool,
    /// The figures of each engine, as of the last report from the loop.
    pub snapshots: Vec<Snapshot>,
    /// The console's log, oldest first.
    pub log: Vec<LogEntry>,
    /// The console session the input goes to (0: the first one).
    pub active: u32,
    /// A setting the engine refused, shown until dismissed.
    pub error: Option<String>,
    /// What the page did on the user's behalf (statements carried over to a new
    /// engine, a recorded future dropped), shown until dismissed.
    pub notice: Option<String>,
    /// What happened, in words, newest last: the live region reads them out.
    pub narration: Vec<String>,
    /// Whether the keyboard help is open.
    pub help: bool,
    /// The panels shown, their order and columns, and the scenario card.
    pub layout: PanelLayout,
    /// Names given to console sessions, by processlist id.
    pub session_names: SessionNames,
    /// Whether the console takes the width of the page (for wide result tables).
    pub console_wide: bool,
    /// Where the Advisor's advice running in the worker is, if one runs.
    pub advice_progress: Option<Progress>,
}

impl Default for AppState {
    fn default() -> AppState {
        AppState {
            generation: 0,
            playing: true,
            speed: 1.0,
            scenario: DEFAULT_SCENARIO.to_string(),
            profile: DEFAULT_PROFILE.to_string(),
            knobs: Knobs::default(),
            compare: None,
            building: false,
            snapshots: vec![Snapshot::default()],
            log: Vec::new(),
            active: 0,
            error: None,
            notice: None,
            narration: Vec::new(),
            help: false,
            layout: PanelLayout::default(),
            session_names: SessionNames::new(),
            console_wide: false,
            advice_progress: None,
        }
    }
}

/// What a lesson step opened: the engines' set-up and clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Opened {
    /// The generation the new engines carry.
    pub generation: u32,
    /// The scenario.
    pub scenario: String,
    /// The main engine's profile.
    pub profile: String,
    /// The settings.
    pub knobs: Knobs,
    /// The compare engine's profile.
    pub compare: Option<String>,
    /// Whether it plays on.
    pub playing: bool,
    /// At what speed.
    pub speed: f64,
}

/// What can happen to the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Play or pause.
    TogglePlay,
    /// Pause (a step or a seek).
    Pause,
    /// A new speed.
    SetSpeed(f64),
    /// Another engine profile: restart the same scenario on it.
    SetProfile(String),
    /// Another scenario: restart the simulation with it on its own profile.
    SetScenario {
        /// The scenario.
        name: String,
        /// The profile it names.
        profile: String,
    },
    /// New server settings: restart.
    SetKnobs(Knobs),
    /// Compare with this profile, or stop comparing.
    SetCompare(Option<String>),
    /// The engine refused a restart and kept running what it ran: back to that.
    RestartFailed {
        /// The engine's message.
        error: String,
        /// What still runs.
        scenario: String,
        /// Its profile.
        profile: String,
        /// Its settings.
        knobs: Knobs,
    },
    /// The compared engine could not be built.
    CompareFailed(String),
    /// The link the page opened with could not be opened where the engines run (the
    /// worker): the default scenario runs instead, and the banner says why.
    LinkFailed(String),
    /// The engines' worker stopped before its first frame: the simulation cannot
    /// start here, and the banner says why.
    CannotStart(String),
    /// Hide the error.
    DismissError,
    /// Say what the page did on the user's behalf.
    Notice(String),
    /// Hide the notice.
    DismissNotice,
    /// The input goes to this console session.
    SelectSession(u32),
    /// Show or hide the keyboard help.
    ToggleHelp,
    /// Esc: close the help and hide the error.
    Escape,
    /// Show or hide a panel.
    TogglePanel(PanelId),
    /// Move a panel one place up (`true`) or down.
    MovePanel(PanelId, bool),
    /// Open or close the scenario card.
    ToggleAbout,
    /// Widen the console to the page, or back.
    ToggleConsoleWide,
    /// Name console session `id` (empty text clears its name).
    NameSession {
        /// The processlist id.
        id: u32,
        /// The name typed.
        name: String,
    },
    /// A lesson step put these engines in place (built, statements queued, run to the
    /// step's moment): the page follows them rather than rebuilding.
    LessonOpened(Box<Opened>),
    /// The advice running in the worker got this far (`None`: it ended).
    AdviceProgress(Progress),
    /// The advice ended, with its ranking or its error, or was cancelled.
    AdviceEnded,
    /// The frame loop reports on simulation `generation`.
    Frame {
        /// Which simulation the news is from.
        generation: u32,
        /// The news.
        news: News,
    },
}

/// What the page says when the simulation cannot start: its engines run in a Web
/// Worker, and this one did not.
pub fn cannot_start(why: &str) -> String {
    format!(
        "The simulation cannot start: it runs in a Web Worker, and {why}. ddlscope needs a browser with module workers (Chrome 80, Firefox 114, Safari 15 or later), over http(s) or as the workshop bundle."
    )
}

impl AppState {
    /// The state after `action`, or `None` when nothing changes.
    pub fn apply(&self, action: Action) -> Option<AppState> {
        let mut next = self.clone();
        match action {
            Action::TogglePlay => next.playing = !next.playing,
            Action::Pause => next.playing = false,
            Action::SetSpeed(x) => next.speed = x,
            Action::SetProfile(name) => {
                if name == self.profile {
                    return None;
                }
                next = self.restarted(self.scenario.clone(), name, self.knobs.clone());
            }
            Action::SetScenario { name, profile } => {
                if name == self.scenario {
                    return None;
                }
                next = self.restarted(name, profile, self.knobs.clone());
            }
            Action::SetKnobs(knobs) => {
                if knobs == self.knobs {
                    return None;
                }
                next = self.restarted(self.scenario.clone(), self.profile.clone(), knobs);
            }
            Action::SetCompare(profile) => {
                next.compare = profile;
                next.snapshots.truncate(1);
            }
            Action::RestartFailed {
                error,
                scenario,
                profile,
                knobs,
            } => {
                next.error = Some(error);
                next.scenario = scenario;
                next.profile = profile;
                next.knobs = knobs;
                next.building = false;
            }
            Action::CompareFailed(error) => {
                next.error = Some(error);
                next.compare = None;
                next.snapshots.truncate(1);
            }
            Action::LinkFailed(error) => {
                next = AppState {
                    playing: self.playing,
                    generation: self.generation,
                    error: Some(error),
                    ..AppState::default()
                };
            }
            Action::CannotStart(why) => {
                next.error = Some(cannot_start(&why));
                next.playing = false;
            }
            Action::DismissError => next.error = None,
            Action::Notice(text) => {
                next.say(text.clone());
                next.notice = Some(text);
            }
            Action::DismissNotice => next.notice = None,
            Action::AdviceProgress(p) => next.advice_progress = Some(p),
            Action::AdviceEnded => next.advice_progress = None,
            Action::SelectSession(id) => next.active = id,
            Action::ToggleHelp => next.help = !next.help,
            Action::Escape => {
                next.help = false;
                next.error = None;
            }
            Action::TogglePanel(panel) => next.layout.toggle(panel),
            Action::MovePanel(panel, up) => {
                next.layout.step(panel, up);
            }
            Action::ToggleAbout => next.layout.about_open = !next.layout.about_open,
            Action::ToggleConsoleWide => next.console_wide = !next.console_wide,
            Action::NameSession { id, name } => match check_name(&self.session_names, id, &name) {
                Ok(Some(name)) => {
                    next.session_names.insert(id, name);
                }
                Ok(None) => {
                    next.session_names.remove(&id);
                }
                Err(e) => next.error = Some(e),
            },
            Action::LessonOpened(o) => {
                next = AppState {
                    generation: o.generation,
                    scenario: o.scenario,
                    profile: o.profile,
                    knobs: o.knobs,
                    compare: o.compare,
                    playing: o.playing,
                    speed: o.speed,
                    help: self.help,
                    layout: self.layout.clone(),
                    console_wide: self.console_wide,
                    // Where the engines run (a worker that could not start) still holds.
                    notice: self.notice.clone(),
                    ..AppState::default()
                };
            }
            Action::Frame { generation, .. } if generation != self.generation => return None,
            Action::Frame {
                news: News::Snapshot { pane, snapshot },
                ..
            } => {
                if pane > 0 && self.compare.is_none() {
                    return None;
                }
                next.take_snapshot(pane, snapshot);
            }
            Action::Frame {
                news: News::Log(log),
                ..
            } => next.take_log(log),
        }
        (next != *self).then_some(next)
    }

    /// Pane `pane`'s latest figures; the main pane's also end a build, are read out
    /// and keep the active console session one that exists.
    fn take_snapshot(&mut self, pane: usize, snapshot: Snapshot) {
        if pane == 0 {
            self.narrate(&snapshot);
            self.building = false;
            if !snapshot.console.iter().any(|c| c.id == self.active) {
                self.active = snapshot.console.first().map_or(0, |c| c.id);
            }
        }
        if self.snapshots.len() <= pane {
            self.snapshots.resize(pane + 1, Snapshot::default());
        }
        self.snapshots[pane] = snapshot;
    }

    /// The statement log as the engine now has it.
    fn take_log(&mut self, log: Vec<LogEntry>) {
        // A finished statement or a note is news worth reading out.
        if let Some(last) = log.last().filter(|e| Some(*e) != self.log.last()) {
            if log.len() >= self.log.len() {
                self.say(narration_for(last));
            }
        }
        self.log = log;
    }

    /// A fresh simulation of `scenario` on `profile` with `knobs`: a new generation,
    /// an empty console (its sessions are new: their names go), the speed, the
    /// comparison and the page's layout kept, playing.
    fn restarted(&self, scenario: String, profile: String, knobs: Knobs) -> AppState {
        AppState {
            generation: self.generation + 1,
            scenario,
            profile,
            knobs,
            building: true,
            playing: true,
            speed: self.speed,
            compare: self.compare.clone(),
            help: self.help,
            layout: self.layout.clone(),
            console_wide: self.console_wide,
            ..AppState::default()
        }
    }

    fn say(&mut self, line: String) {
        self.narration.push(line);
        let skip = self.narration.len().saturating_sub(NARRATION_LEN);
        self.narration.drain(..skip);
    }

    /// Narrates what changed from the main engine's last snapshot: a server-wide
    /// latch (LOCK_open, dict_sys, fil_sys) taken by a statement while sessions pile
    /// up behind it. The buffer-pool mutexes change hands thousands of times a
    /// second: the map and the latch lanes show those.
    fn narrate(&mut self, s: &Snapshot) {
        let global = |l: &&String| !l.starts_with("buf_pool");
        let before: Vec<String> = self.snapshots[0]
            .latches_held
            .iter()
            .filter(global)
            .cloned()
            .collect();
        let now: Vec<&String> = s.latches_held.iter().filter(global).collect();
        for latch in now.iter().copied() {
            if !before.contains(latch) {
                let who = s
                    .console
                    .iter()
                    .find_map(|c| c.running.clone())
                    .unwrap_or_else(|| "a background thread".to_string());
                self.say(format!(
                    "{who} holds {latch}; {}",
                    sessions_waiting(s.waiting)
                ));
            }
        }
        for latch in &before {
            if !now.contains(&latch) {
                self.say(format!("{latch} released; {}", sessions_waiting(s.waiting)));
            }
        }
    }
}

/// "1 session waiting", "214 sessions waiting".
fn sessions_waiting(n: u64) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} session{s} waiting", format::int(n))
}

/// The live region's line for a log entry.
fn narration_for(e: &LogEntry) -> String {
    if e.note {
        e.sql.clone()
    } else {
        format!(
            "Session {}: {} — {}",
            e.session,
            e.sql,
            summary_line(&e.result)
        )
    }
}

/// A result in one line: `Query OK, ...` or the error, or under a result table its
/// last line (`3 rows in set (0.00 sec)`) rather than its top border.
fn summary_line(s: &str) -> &str {
    if s.starts_with('+') {
        s.lines().last().unwrap_or("")
    } else {
        s.lines().next().unwrap_or("")
    }
}

#[cfg(test)]
mod tests;
