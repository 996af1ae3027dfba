//! The page: its state as a plain struct, the actions that change it, the reducer, and
//! the root component that wires the panels to the engines.
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

use crate::controls::{Controls, ProfileChoice, ScenarioChoice};
use crate::frame::{Canvases, FrameLoop};
use crate::pane::Pane;
use crate::runner::{
    is_heavy, Engines, Knobs, LogEntry, News, Runner, Snapshot, DEFAULT_PROFILE, DEFAULT_SCENARIO,
};
use crate::sql_box::SqlConsole;
use crate::stats::Stats;
use ddlscope_engine::{Profile, Scenario, Tick};
use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

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
    /// What happened, in words, newest last: the live region reads them out.
    pub narration: Vec<String>,
    /// Whether the keyboard help is open.
    pub help: bool,
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
            narration: Vec::new(),
            help: false,
        }
    }
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
    /// Hide the error.
    DismissError,
    /// The input goes to this console session.
    SelectSession(u32),
    /// Show or hide the keyboard help.
    ToggleHelp,
    /// The frame loop reports on simulation `generation`.
    Frame {
        /// Which simulation the news is from.
        generation: u32,
        /// The news.
        news: News,
    },
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
            Action::DismissError => next.error = None,
            Action::SelectSession(id) => next.active = id,
            Action::ToggleHelp => next.help = !next.help,
            Action::Frame { generation, .. } if generation != self.generation => return None,
            Action::Frame {
                news: News::Snapshot { pane, snapshot },
                ..
            } => {
                if pane > 0 && self.compare.is_none() {
                    return None;
                }
                if pane == 0 {
                    next.narrate(&snapshot);
                    next.building = false;
                    if !snapshot.console.iter().any(|c| c.id == next.active) {
                        next.active = snapshot.console.first().map_or(0, |c| c.id);
                    }
                }
                if next.snapshots.len() <= pane {
                    next.snapshots.resize(pane + 1, Snapshot::default());
                }
                next.snapshots[pane] = snapshot;
            }
            Action::Frame {
                news: News::Log(log),
                ..
            } => {
                // A finished statement or a note is news worth reading out.
                if let Some(last) = log.last().filter(|e| Some(*e) != self.log.last()) {
                    if log.len() >= self.log.len() {
                        next.say(narration_for(last));
                    }
                }
                next.log = log;
            }
        }
        (next != *self).then_some(next)
    }

    /// A fresh simulation of `scenario` on `profile` with `knobs`: a new generation,
    /// an empty console, the speed and the comparison kept, playing.
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
    format!("{} session{s} waiting", crate::format::int(n))
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
            first_line(&e.result)
        )
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match self.apply(action) {
            Some(next) => Rc::new(next),
            // The same Rc: Yew skips the re-render.
            None => self,
        }
    }
}

/// The built-in profiles, for the select and the summary.
fn profiles() -> Vec<(ProfileChoice, String)> {
    ddlscope_engine::builtin::PROFILES
        .iter()
        .filter_map(|(name, _)| Profile::builtin(name).ok())
        .map(|p| {
            (
                ProfileChoice {
                    name: p.name.clone(),
                    title: p.title.clone(),
                },
                p.summary.clone(),
            )
        })
        .collect()
}

/// The built-in scenarios, for the select, the description and the console's chips.
fn scenarios() -> Vec<ScenarioChoice> {
    ddlscope_engine::builtin::SCENARIOS
        .iter()
        .filter_map(|(name, _)| Scenario::builtin(name).ok())
        .map(|s| ScenarioChoice {
            heavy: is_heavy(&s),
            name: s.name,
            title: s.title,
            description: s.description,
            profile: s.profile,
            script: s.script.into_iter().map(|st| (st.at_s, st.sql)).collect(),
            pool_bytes: s.buffer_pool.size.0,
        })
        .collect()
}

/// The console's one-click statements: the scenario's scripted ones, or, for a
/// scenario without a script, a DROP TABLE of each table still there.
fn suggestions(scenario: Option<&ScenarioChoice>, snapshot: &Snapshot) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, sql) in scenario.map_or(&[][..], |s| &s.script[..]) {
        if !out.contains(sql) {
            out.push(sql.clone());
        }
    }
    if out.is_empty() {
        out = snapshot
            .tables
            .iter()
            .filter(|t| !t.dropped)
            .map(|t| format!("DROP TABLE {}", t.name))
            .collect();
    }
    out
}

/// Whether the URL asks for the debug overlay (`?debug=1`).
fn debug_requested() -> bool {
    gloo::utils::window().location().search().is_ok_and(|q| {
        q.trim_start_matches('?')
            .split('&')
            .any(|kv| kv == "debug=1")
    })
}

/// Whether the user asked the system for less motion.
fn reduced_motion() -> bool {
    gloo::utils::window()
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|q| q.matches())
}

/// Whether a key press belongs to a text field (typing, not a shortcut).
fn typing(e: &KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// The page.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(|| AppState {
        // With less motion asked for, nothing moves until the user presses play.
        playing: !reduced_motion(),
        ..AppState::default()
    });
    let engines = use_mut_ref(|| {
        Engines::new(
            Runner::new(DEFAULT_SCENARIO, DEFAULT_PROFILE, 0)
                .expect("the built-in demo scenario and profile load"),
        )
    });
    let canvases = use_memo((), |_| vec![Canvases::default(), Canvases::default()]);
    let debug = use_memo((), |_| debug_requested().then(NodeRef::default));
    let profiles = use_memo((), |_| profiles());
    let scenarios = use_memo((), |_| scenarios());
    let chosen = scenarios.iter().find(|s| s.name == state.scenario).cloned();
    let heavy = chosen.as_ref().is_some_and(|s| {
        s.heavy
            || state
                .knobs
                .pool_mib
                .is_some_and(|m| m << 20 >= crate::runner::HEAVY_POOL_BYTES)
    });

    // The animation loop: built once, stopped when the page goes away.
    {
        let engines = engines.clone();
        let canvases = (*canvases).clone();
        let debug = (*debug).clone();
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let on_news = Callback::from(move |(generation, news): (u32, News)| {
                dispatcher.dispatch(Action::Frame { generation, news });
            });
            let frame_loop = FrameLoop::start(engines, canvases, debug, on_news);
            move || drop(frame_loop)
        });
    }
    // The clock follows the state.
    {
        let engines = engines.clone();
        use_effect_with((state.playing, state.speed), move |(playing, speed)| {
            engines.borrow_mut().set_clock(*playing, *speed);
        });
    }
    // Keyboard shortcuts: space plays or pauses, → steps, ← steps back, ? shows help.
    {
        let engines = engines.clone();
        let d = state.dispatcher();
        use_effect_with((), move |_| {
            let options = EventListenerOptions::enable_prevent_default();
            let document = gloo::utils::document();
            let listener =
                EventListener::new_with_options(&document, "keydown", options, move |e| {
                    let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                        return;
                    };
                    if typing(e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
                        return;
                    }
                    match e.key().as_str() {
                        " " => {
                            e.prevent_default();
                            d.dispatch(Action::TogglePlay);
                        }
                        "ArrowRight" => {
                            e.prevent_default();
                            d.dispatch(Action::Pause);
                            engines.borrow_mut().step_event();
                        }
                        "ArrowLeft" => {
                            e.prevent_default();
                            d.dispatch(Action::Pause);
                            engines.borrow_mut().step_back();
                        }
                        "?" => d.dispatch(Action::ToggleHelp),
                        "Escape" => d.dispatch(Action::DismissError),
                        _ => {}
                    }
                });
            move || drop(listener)
        });
    }
    // A new scenario, profile or setting restarts the simulation. Building a heavy
    // scenario blocks for seconds, so it waits two animation frames: the browser
    // paints the "building…" state in between. A setting the engine refuses leaves
    // the running simulation as it was, and says why.
    {
        let engines = engines.clone();
        let d = state.dispatcher();
        use_effect_with(
            (
                state.scenario.clone(),
                state.profile.clone(),
                state.knobs.clone(),
                state.generation,
                heavy,
            ),
            move |(scenario, profile, knobs, generation, heavy)| {
                let (scenario, profile, knobs, generation) = (
                    scenario.clone(),
                    profile.clone(),
                    knobs.clone(),
                    *generation,
                );
                let restart = move || {
                    let mut e = engines.borrow_mut();
                    let current = e.main();
                    if current.generation() == generation
                        && current.scenario() == scenario
                        && current.profile() == profile
                        && *current.knobs() == knobs
                    {
                        return;
                    }
                    let compared = e.panes.get(1).map(|r| r.profile().to_string());
                    match Runner::with_knobs(&scenario, &profile, &knobs, generation) {
                        Ok(mut runner) => {
                            let (playing, speed) = e.main().clock();
                            runner.set_clock(playing, speed);
                            e.panes = vec![runner];
                            if let Err(err) = e.compare(compared.as_deref(), &knobs) {
                                d.dispatch(Action::CompareFailed(err));
                            }
                        }
                        Err(error) => {
                            let main = e.main_mut();
                            main.adopt_generation(generation);
                            if let Some(other) = e.panes.get_mut(1) {
                                other.adopt_generation(generation);
                            }
                            let main = e.main();
                            d.dispatch(Action::RestartFailed {
                                error,
                                scenario: main.scenario().to_string(),
                                profile: main.profile().to_string(),
                                knobs: main.knobs().clone(),
                            });
                        }
                    }
                };
                // Dropping an AnimationFrame cancels it: a newer choice supersedes.
                let pending: Rc<RefCell<Option<AnimationFrame>>> = Rc::default();
                if *heavy {
                    let inner = pending.clone();
                    *pending.borrow_mut() = Some(request_animation_frame(move |_| {
                        *inner.borrow_mut() = Some(request_animation_frame(move |_| restart()));
                    }));
                } else {
                    restart();
                }
                move || drop(pending.borrow_mut().take())
            },
        );
    }
    // Compare mode follows the state.
    {
        let engines = engines.clone();
        let d = state.dispatcher();
        use_effect_with(state.compare.clone(), move |compare| {
            let mut e = engines.borrow_mut();
            if e.panes.get(1).map(|r| r.profile()) != compare.as_deref() {
                let knobs = e.main().knobs().clone();
                if let Err(err) = e.compare(compare.as_deref(), &knobs) {
                    d.dispatch(Action::CompareFailed(err));
                }
            }
        });
    }

    let on_toggle = {
        let d = state.dispatcher();
        Callback::from(move |()| d.dispatch(Action::TogglePlay))
    };
    let on_step = {
        let d = state.dispatcher();
        let engines = engines.clone();
        Callback::from(move |forward: bool| {
            d.dispatch(Action::Pause);
            let mut e = engines.borrow_mut();
            if forward {
                e.step_event();
            } else {
                e.step_back();
            }
        })
    };
    let on_seek = {
        let engines = engines.clone();
        Callback::from(move |t: Tick| engines.borrow_mut().seek(t))
    };
    let on_speed = {
        let d = state.dispatcher();
        Callback::from(move |x| d.dispatch(Action::SetSpeed(x)))
    };
    let on_profile = {
        let d = state.dispatcher();
        Callback::from(move |name| d.dispatch(Action::SetProfile(name)))
    };
    let on_compare = {
        let d = state.dispatcher();
        Callback::from(move |p| d.dispatch(Action::SetCompare(p)))
    };
    let on_knobs = {
        let d = state.dispatcher();
        Callback::from(move |k| d.dispatch(Action::SetKnobs(k)))
    };
    let on_scenario = {
        let d = state.dispatcher();
        let scenarios = scenarios.clone();
        Callback::from(move |name: String| {
            if let Some(s) = scenarios.iter().find(|s| s.name == name) {
                d.dispatch(Action::SetScenario {
                    name,
                    profile: s.profile.clone(),
                });
            }
        })
    };
    let on_run = {
        let engines = engines.clone();
        let active = state.active;
        Callback::from(move |sql: String| -> Result<u32, String> {
            let mut e = engines.borrow_mut();
            let session = if active == 0 {
                e.main().sim().console_session()
            } else {
                active
            };
            e.submit(session, &sql)
        })
    };
    let on_connect = {
        let engines = engines.clone();
        let d = state.dispatcher();
        Callback::from(move |()| {
            let id = engines.borrow_mut().connect();
            d.dispatch(Action::SelectSession(id));
        })
    };
    let on_select = {
        let d = state.dispatcher();
        Callback::from(move |id| d.dispatch(Action::SelectSession(id)))
    };
    let on_help = {
        let d = state.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::ToggleHelp))
    };
    let on_dismiss = {
        let d = state.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::DismissError))
    };
    let on_theme = Callback::from(|_: MouseEvent| {
        if let Some(root) = gloo::utils::document().document_element() {
            let dark = crate::frame::dark_theme(
                gloo::utils::window()
                    .match_media("(prefers-color-scheme: dark)")
                    .ok()
                    .flatten()
                    .as_ref(),
            );
            let _ = root.set_attribute("data-theme", if dark { "light" } else { "dark" });
        }
    });

    let instances: Vec<u16> = engines
        .borrow()
        .panes
        .iter()
        .map(|r| r.sim().pool().n_instances())
        .collect();
    let main_snapshot = state.snapshots[0].clone();
    let (scenario_title, scenario_text) = chosen
        .as_ref()
        .map(|s| (s.title.clone(), s.description.clone()))
        .unwrap_or_default();
    let choices: Vec<ProfileChoice> = profiles.iter().map(|(c, _)| c.clone()).collect();
    let title_of = |name: &str| {
        profiles
            .iter()
            .find(|(c, _)| c.name == name)
            .map(|(c, s)| (c.title.clone(), s.clone()))
            .unwrap_or_default()
    };
    let (profile_title, summary) = title_of(&state.profile);
    let suggestions = suggestions(chosen.as_ref(), &main_snapshot);
    let try_it = match chosen.as_ref().and_then(|s| s.script.first()) {
        _ if state.scenario == DEFAULT_SCENARIO => "Try it: run DROP TABLE t1 from the console, at 0.05× to watch the scans; then compare with another engine.".to_string(),
        Some((at, sql)) => format!("Try it: run {sql} from the console (the scenario's script runs it at {at} s); then compare with another engine."),
        None => "Try it: run a statement from the console; then compare with another engine.".to_string(),
    };
    let script_text = chosen
        .as_ref()
        .map(|s| {
            s.script
                .iter()
                .map(|(at, sql)| format!("at {at} s: {sql}"))
                .collect::<Vec<_>>()
                .join("; ")
        })
        .filter(|t| !t.is_empty())
        .map_or(
            "This scenario has no script: the workload just runs.".to_string(),
            |t| format!("The scenario's own script (not run here; you are the script): {t}."),
        );
    let subtle = "text-transform: none; letter-spacing: 0; font-weight: 400";
    let comparing = state.compare.is_some() && state.snapshots.len() > 1 && instances.len() > 1;
    let panes: Vec<Html> = (0..if comparing { 2 } else { 1 })
        .map(|i| {
            let name = if i == 0 {
                state.profile.clone()
            } else {
                state.compare.clone().unwrap_or_default()
            };
            let title = comparing.then(|| AttrValue::from(title_of(&name).0));
            let inspect = {
                let engines = engines.clone();
                Callback::from(move |(x, y, w): (f64, f64, f64)| -> Option<String> {
                    let e = engines.borrow();
                    let r = e.panes.get(i)?;
                    let pool = r.sim().pool();
                    let sizes: Vec<u32> = pool.instances().iter().map(|inst| inst.size()).collect();
                    let (instance, pos) = crate::pool_map::locate(&sizes, w, x, y)?;
                    let info = pool.inspect(instance, pos)?;
                    let tables = crate::runner::table_infos(r.sim());
                    Some(crate::pool_map::describe(instance, &info, &tables))
                })
            };
            html! {
                <Pane
                    index={i}
                    canvases={canvases[i].clone()}
                    instances={instances.get(i).copied().unwrap_or(1)}
                    snapshot={state.snapshots.get(i).cloned().unwrap_or_default()}
                    {title}
                    inspect={Some(inspect)}
                    on_seek={on_seek.clone()}
                />
            }
        })
        .collect();

    html! {
        <div class={classes!("app", comparing.then_some("comparing"))}>
            <header class="toolbar">
                <span class="brand">{ "ddlscope" }<small>{ "why a DDL statement can freeze InnoDB" }</small></span>
                <Controls
                    playing={state.playing}
                    speed={state.speed}
                    scenario={AttrValue::from(state.scenario.clone())}
                    scenarios={(*scenarios).clone()}
                    building={state.building && heavy}
                    profile={AttrValue::from(state.profile.clone())}
                    profiles={choices}
                    compare={state.compare.clone()}
                    knobs={state.knobs.clone()}
                    now={main_snapshot.now}
                    horizon={main_snapshot.horizon}
                    actual_speed={main_snapshot.actual_speed}
                    {on_toggle}
                    {on_step}
                    {on_seek}
                    {on_speed}
                    {on_scenario}
                    {on_profile}
                    {on_compare}
                    {on_knobs}
                />
                <div class="group toolbar-end">
                    <button type="button" data-testid="theme-toggle" title="Switch between light and dark" aria-label="Switch between light and dark theme" onclick={on_theme}>{ "◐" }</button>
                    <button type="button" data-testid="help-toggle" title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts" aria-expanded={if state.help { "true" } else { "false" }} onclick={on_help.clone()}>{ "?" }</button>
                </div>
            </header>
            if let Some(error) = state.error.clone() {
                <div class="error-banner" role="alert" data-testid="settings-error">
                    <span>{ error }</span>
                    <button type="button" onclick={on_dismiss}>{ "Dismiss" }</button>
                </div>
            }
            if state.help {
                <div class="help" role="dialog" aria-label="Keyboard shortcuts" data-testid="help">
                    <h2 class="panel-title">{ "Keyboard" }</h2>
                    <dl>
                        <dt><kbd>{ "Space" }</kbd></dt><dd>{ "play or pause virtual time" }</dd>
                        <dt><kbd>{ "→" }</kbd></dt><dd>{ "step to the engine's next event (pauses)" }</dd>
                        <dt><kbd>{ "←" }</kbd></dt><dd>{ "step back to the previous event (deterministic replay)" }</dd>
                        <dt><kbd>{ "?" }</kbd></dt><dd>{ "show or hide this help" }</dd>
                        <dt><kbd>{ "↑" }</kbd>{ " " }<kbd>{ "↓" }</kbd></dt><dd>{ "in the console: the session's earlier statements" }</dd>
                        <dt><kbd>{ "Enter" }</kbd></dt><dd>{ "in the console: run (Shift+Enter for a new line)" }</dd>
                    </dl>
                    <button type="button" onclick={on_help}>{ "Close" }</button>
                </div>
            }
            <main class="grid">
                <div class="main-col">
                    <section class="panel" aria-labelledby="about-title">
                        <h2 class="panel-title" id="about-title">
                            <span data-testid="profile-title">{ profile_title }</span>
                            <span style={subtle}>{ scenario_title }</span>
                        </h2>
                        <p style="margin: 0 0 6px" data-testid="scenario-description">{ scenario_text }</p>
                        <p style="margin: 0 0 6px; color: var(--text-muted)" data-testid="profile-summary">{ summary }</p>
                        <details style="color: var(--text-muted); font-size: 13px">
                            <summary style="cursor: pointer">{ try_it }</summary>
                            <p style="margin: 6px 0 0">{ script_text }</p>
                        </details>
                    </section>
                    <div class="panes">{ for panes }</div>
                </div>
                <aside class="panel side" style="display: grid; gap: 18px; align-content: start">
                    <SqlConsole
                        log={state.log.clone()}
                        sessions={main_snapshot.console.clone()}
                        active={state.active}
                        {suggestions}
                        {on_run}
                        {on_connect}
                        {on_select}
                    />
                    <div class="narration" data-testid="live-log" role="log" aria-live="polite" aria-label="What the server is doing">
                        { for state.narration.iter().map(|l| html! { <p>{ l }</p> }) }
                    </div>
                    { for state.snapshots.iter().enumerate().filter(|(i, _)| *i == 0 || comparing).map(|(i, s)| {
                        let heading = comparing.then(|| title_of(if i == 0 { &state.profile } else { state.compare.as_deref().unwrap_or_default() }).0);
                        html! { <Stats snapshot={s.clone()} heading={heading.map(AttrValue::from)} /> }
                    }) }
                </aside>
            </main>
            if let Some(debug) = (*debug).clone() {
                <pre class="debug-overlay" data-testid="debug-overlay" ref={debug} aria-hidden="true"></pre>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::ConsoleSession;

    fn log(entries: &[(&str, &str, bool)]) -> Action {
        Action::Frame {
            generation: 0,
            news: News::Log(
                entries
                    .iter()
                    .enumerate()
                    .map(|(i, (sql, result, error))| LogEntry {
                        at: Tick::from_secs(i as u64),
                        session: 8,
                        sql: (*sql).into(),
                        result: (*result).into(),
                        error: *error,
                        note: false,
                    })
                    .collect(),
            ),
        }
    }

    fn snap(generation: u32, pane: usize, s: Snapshot) -> Action {
        Action::Frame {
            generation,
            news: News::Snapshot { pane, snapshot: s },
        }
    }

    #[test]
    fn the_log_is_replaced_and_a_new_entry_is_read_out() {
        let s = AppState::default()
            .apply(log(&[(
                "DROP TABLE t1",
                "Query OK, 0 rows affected (0.43 sec)",
                false,
            )]))
            .unwrap();
        assert_eq!(s.log.len(), 1);
        assert_eq!(
            s.narration,
            ["Session 8: DROP TABLE t1 — Query OK, 0 rows affected (0.43 sec)"]
        );
        // A seek back shortens the log: nothing new to read out.
        let s = s.apply(log(&[])).unwrap();
        assert!(s.log.is_empty());
        assert_eq!(s.narration.len(), 1);
    }

    #[test]
    fn a_latch_taken_and_released_is_narrated_with_the_waiters() {
        let held = Snapshot {
            latches_held: vec!["dict_sys".into()],
            waiting: 214,
            console: vec![ConsoleSession {
                id: 8,
                pending: 1,
                running: Some("DROP TABLE t1".into()),
                state: "checking permissions".into(),
            }],
            ..Snapshot::default()
        };
        let s = AppState::default().apply(snap(0, 0, held.clone())).unwrap();
        assert_eq!(
            s.narration,
            ["DROP TABLE t1 holds dict_sys; 214 sessions waiting"]
        );
        assert_eq!(s.active, 8, "the first console session is picked");
        assert_eq!(
            s.apply(snap(0, 0, held.clone())),
            None,
            "no change, no news"
        );
        let s = s
            .apply(snap(
                0,
                0,
                Snapshot {
                    waiting: 0,
                    ..Snapshot::default()
                },
            ))
            .unwrap();
        assert_eq!(s.narration[1], "dict_sys released; 0 sessions waiting");
    }

    #[test]
    fn a_new_profile_restarts_and_drops_old_news() {
        let s = AppState::default()
            .apply(log(&[("DROP TABLE t1", "Query OK", false)]))
            .unwrap()
            .apply(Action::SetProfile("mysql-8.0.23".into()))
            .unwrap();
        assert_eq!(s.generation, 1);
        assert!(s.log.is_empty());
        assert!(s.playing && s.building);
        assert_eq!(
            s.apply(log(&[("DROP TABLE t1", "Query OK", false)])),
            None,
            "generation 0"
        );
        assert_eq!(s.apply(Action::SetProfile("mysql-8.0.23".into())), None);
    }

    #[test]
    fn play_pause_and_speed() {
        let s = AppState::default();
        assert!(s.playing, "plays on load");
        let s = s.apply(Action::TogglePlay).unwrap();
        assert!(!s.playing);
        assert_eq!(s.apply(Action::Pause), None);
        let s = s.apply(Action::SetSpeed(1000.0)).unwrap();
        assert_eq!(s.speed, 1000.0);
        assert_eq!(s.apply(Action::SetSpeed(1000.0)), None);
    }

    #[test]
    fn settings_restart_and_a_refused_one_goes_back_with_the_reason() {
        let knobs = Knobs {
            pool_mib: Some(64),
            instances: Some(64),
            ..Knobs::default()
        };
        let s = AppState::default()
            .apply(Action::SetKnobs(knobs.clone()))
            .unwrap();
        assert_eq!((s.generation, &s.knobs), (1, &knobs));
        assert_eq!(s.apply(Action::SetKnobs(knobs)), None);
        let s = s
            .apply(Action::RestartFailed {
                error: "buffer_pool.instances: too many".into(),
                scenario: DEFAULT_SCENARIO.into(),
                profile: DEFAULT_PROFILE.into(),
                knobs: Knobs::default(),
            })
            .unwrap();
        assert_eq!(s.knobs, Knobs::default());
        assert_eq!(s.generation, 1, "the old engine adopted the generation");
        assert!(s.error.is_some() && !s.building);
        assert_eq!(s.apply(Action::DismissError).unwrap().error, None);
    }

    #[test]
    fn compare_mode_keeps_a_second_snapshot_only_while_on() {
        let s = AppState::default();
        assert_eq!(
            s.apply(snap(0, 1, Snapshot::default())),
            None,
            "not comparing"
        );
        let s = s
            .apply(Action::SetCompare(Some("mysql-8.0.23".into())))
            .unwrap();
        let s = s
            .apply(snap(
                0,
                1,
                Snapshot {
                    now: Tick::from_secs(1),
                    ..Snapshot::default()
                },
            ))
            .unwrap();
        assert_eq!(s.snapshots.len(), 2);
        let s = s
            .apply(Action::SetScenario {
                name: "i3-ext3-drop".into(),
                profile: "mysql-5.1".into(),
            })
            .unwrap();
        assert_eq!(
            s.compare.as_deref(),
            Some("mysql-8.0.23"),
            "kept across a restart"
        );
        assert_eq!(s.snapshots.len(), 1);
        let s = s.apply(Action::CompareFailed("no".into())).unwrap();
        assert_eq!(s.compare, None);
    }

    #[test]
    fn every_builtin_scenario_is_offered_and_its_script_fills_the_chips() {
        let all = scenarios();
        let names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
        let shipped: Vec<&str> = ddlscope_engine::builtin::SCENARIOS
            .iter()
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(names, shipped);
        assert!(
            names.contains(&"i4-create-index") && names.contains(&"workaround-hardlink-discard")
        );
        let by = |n: &str| all.iter().find(|s| s.name == n).unwrap();
        assert_eq!(by("i3-ext3-drop").profile, "mysql-5.1");
        assert!(by("i1-ahi-drop").heavy && !by("i3-ext3-drop").heavy);
        assert_eq!(by("i1-ahi-drop").pool_bytes >> 30, 128);
        assert!(all
            .iter()
            .all(|s| !s.title.is_empty() && !s.description.is_empty()));
        let snap = Snapshot {
            tables: vec![
                crate::runner::TableInfo {
                    name: "t1".into(),
                    space: ddlscope_engine::SpaceId(1),
                    dropped: true,
                },
                crate::runner::TableInfo {
                    name: "t2".into(),
                    space: ddlscope_engine::SpaceId(2),
                    dropped: false,
                },
            ],
            ..Snapshot::default()
        };
        assert_eq!(
            suggestions(Some(by("i3-ext3-drop")), &snap),
            ["DROP TABLE big"]
        );
        assert_eq!(
            suggestions(Some(by("steady-oltp-rw")), &snap),
            ["DROP TABLE t2"],
            "no script: the tables still there"
        );
    }
}
