//! The page: its state as a plain struct, the actions that change it, the reducer, and
//! the root component that wires the panels to the simulation.
//!
//! ```text
//!   user ──▶ Controls / SqlBox ──Action──▶ reduce() ──▶ AppState ──▶ render
//!                    │                                     │
//!                    ▼ (execute)                           ▼ effects: scenario/profile →
//!                                                            restart (a heavy scenario
//!                                                            after a painted frame),
//!   FrameLoop ──▶ Runner { Sim } ──News (≤10/s)──▶ reduce()         play/speed → clock
//! ```
//!
//! Architecture invariant: `AppState` holds only small values (flags, a snapshot of a
//! dozen figures, the console's log). The simulation itself is in the [`Runner`]
//! behind an `Rc<RefCell<…>>`, driven by the frame loop; Yew never clones it.

use crate::chart::{BpChart, TpsChart, WaitsChart};
use crate::controls::{Controls, ProfileChoice, ScenarioChoice};
use crate::flush_list::FlushList;
use crate::latch_lanes::LatchLanes;
use crate::pool_map::PoolMap;
use crate::runner::{
    is_heavy, Canvases, FrameLoop, LogEntry, News, Runner, Snapshot, DEFAULT_PROFILE,
    DEFAULT_SCENARIO,
};
use crate::sql_box::{SqlBox, SqlResult, LOG_LEN};
use crate::stats::Stats;
use ddlscope_engine::{Profile, Scenario, Tick};
use gloo::render::{request_animation_frame, AnimationFrame};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

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
    /// A restart is pending or under way: no snapshot of the new simulation yet.
    pub building: bool,
    /// The figures, as of the last report from the loop.
    pub snapshot: Snapshot,
    /// The console's result line.
    pub sql: SqlResult,
    /// Finished statements, oldest first, at most [`LOG_LEN`].
    pub log: Vec<LogEntry>,
    /// Statements accepted and not finished yet.
    pub outstanding: u32,
    /// The virtual time the user last asked to jump to (a chart band was clicked),
    /// for the runner's seek to act on.
    pub seek_to: Option<Tick>,
}

impl Default for AppState {
    fn default() -> AppState {
        AppState {
            generation: 0,
            playing: true,
            speed: 1.0,
            scenario: DEFAULT_SCENARIO.to_string(),
            profile: DEFAULT_PROFILE.to_string(),
            building: false,
            snapshot: Snapshot::default(),
            sql: SqlResult::Idle,
            log: Vec::new(),
            outstanding: 0,
            seek_to: None,
        }
    }
}

/// What can happen to the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Play or pause.
    TogglePlay,
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
    /// The console sent a statement and the engine accepted `statements` of them.
    SqlAccepted {
        /// How many statements the text held.
        statements: u32,
    },
    /// The console sent a statement and the engine rejected it.
    SqlRejected(String),
    /// Jump to this virtual time: a band on a chart was clicked.
    Seek(Tick),
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
            Action::SetSpeed(x) => next.speed = x,
            Action::SetProfile(name) => {
                if name == self.profile {
                    return None;
                }
                next = self.restarted(self.scenario.clone(), name);
            }
            Action::SetScenario { name, profile } => {
                if name == self.scenario {
                    return None;
                }
                next = self.restarted(name, profile);
            }
            Action::SqlAccepted { statements } => {
                next.outstanding += statements;
                next.sql = SqlResult::Running;
            }
            Action::SqlRejected(e) => next.sql = SqlResult::Rejected(e),
            Action::Seek(t) => next.seek_to = Some(t),
            Action::Frame { generation, .. } if generation != self.generation => return None,
            Action::Frame {
                news: News::Snapshot(s),
                ..
            } => {
                next.snapshot = s;
                next.building = false;
            }
            Action::Frame {
                news: News::Note(entry),
                ..
            } => next.push_log(entry),
            Action::Frame {
                news: News::Finished(entry),
                ..
            } => {
                next.outstanding = next.outstanding.saturating_sub(1);
                if next.outstanding == 0 || entry.error {
                    next.sql = SqlResult::Done {
                        result: entry.result.clone(),
                        error: entry.error,
                    };
                }
                next.push_log(entry);
            }
        }
        (next != *self).then_some(next)
    }

    /// A fresh simulation of `scenario` on `profile`: a new generation, an empty
    /// console, the speed kept, playing.
    fn restarted(&self, scenario: String, profile: String) -> AppState {
        AppState {
            generation: self.generation + 1,
            scenario,
            profile,
            building: true,
            playing: true,
            speed: self.speed,
            ..AppState::default()
        }
    }

    fn push_log(&mut self, entry: LogEntry) {
        self.log.push(entry);
        if self.log.len() > LOG_LEN {
            self.log.remove(0);
        }
    }
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

/// The page.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(AppState::default);
    let runner = use_mut_ref(|| {
        Runner::new(DEFAULT_SCENARIO, DEFAULT_PROFILE, 0)
            .expect("the built-in demo scenario and profile load")
    });
    let canvases = use_memo((), |_| Canvases::default());
    let profiles = use_memo((), |_| profiles());
    let scenarios = use_memo((), |_| scenarios());
    let chosen = scenarios.iter().find(|s| s.name == state.scenario).cloned();
    let heavy = chosen.as_ref().is_some_and(|s| s.heavy);

    // The animation loop: built once, stopped when the page goes away.
    {
        let runner = runner.clone();
        let canvases = (*canvases).clone();
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let on_news = Callback::from(move |(generation, news): (u32, News)| {
                dispatcher.dispatch(Action::Frame { generation, news });
            });
            let frame_loop = FrameLoop::start(runner, canvases, on_news);
            move || drop(frame_loop)
        });
    }
    // The clock follows the state.
    {
        let runner = runner.clone();
        use_effect_with((state.playing, state.speed), move |(playing, speed)| {
            runner.borrow_mut().set_clock(*playing, *speed);
        });
    }
    // A new scenario or profile restarts the simulation. Building a heavy scenario
    // blocks for seconds, so it waits two animation frames: the browser paints the
    // "building…" state in between.
    {
        let runner = runner.clone();
        use_effect_with(
            (
                state.scenario.clone(),
                state.profile.clone(),
                state.generation,
                heavy,
            ),
            move |(scenario, profile, generation, heavy)| {
                let (scenario, profile, generation) =
                    (scenario.clone(), profile.clone(), *generation);
                let restart = move || {
                    let mut r = runner.borrow_mut();
                    if r.generation() != generation
                        || r.scenario() != scenario
                        || r.profile() != profile
                    {
                        r.restart(&scenario, &profile, generation)
                            .expect("built-in scenarios and profiles load");
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

    let on_toggle = {
        let d = state.dispatcher();
        Callback::from(move |()| d.dispatch(Action::TogglePlay))
    };
    let on_speed = {
        let d = state.dispatcher();
        Callback::from(move |x| d.dispatch(Action::SetSpeed(x)))
    };
    let on_profile = {
        let d = state.dispatcher();
        Callback::from(move |name| d.dispatch(Action::SetProfile(name)))
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
        let d = state.dispatcher();
        let runner = runner.clone();
        Callback::from(move |sql: String| -> bool {
            let result = runner.borrow_mut().execute(&sql);
            match result {
                Ok(statements) => {
                    d.dispatch(Action::SqlAccepted { statements });
                    true
                }
                Err(e) => {
                    d.dispatch(Action::SqlRejected(e));
                    false
                }
            }
        })
    };

    // A click on a chart band. The runner has no seek yet (the scrubber brings
    // Runner::seek): the request is kept in the state for it.
    let on_seek = {
        let d = state.dispatcher();
        Callback::from(move |t: Tick| d.dispatch(Action::Seek(t)))
    };

    let instances = runner.borrow().sim().pool().n_instances();
    let (scenario_title, scenario_text) = chosen
        .as_ref()
        .map(|s| (s.title.clone(), s.description.clone()))
        .unwrap_or_default();
    let choices: Vec<ProfileChoice> = profiles.iter().map(|(c, _)| c.clone()).collect();
    let (profile_title, summary) = profiles
        .iter()
        .find(|(c, _)| c.name == state.profile)
        .map(|(c, s)| (c.title.clone(), s.clone()))
        .unwrap_or_default();
    let suggestions = suggestions(chosen.as_ref(), &state.snapshot);
    let try_it = match chosen.as_ref().and_then(|s| s.script.first()) {
        _ if state.scenario == DEFAULT_SCENARIO => "Try it: run DROP TABLE t1 from the console, at 0.05× to watch the scans; then switch the engine and compare.".to_string(),
        Some((at, sql)) => format!("Try it: run {sql} from the console (the scenario's script runs it at {at} s); then switch the engine and compare."),
        None => "Try it: run a statement from the console; then switch the engine and compare.".to_string(),
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

    html! {
        <div class="app">
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
                    now={state.snapshot.now}
                    actual_speed={state.snapshot.actual_speed}
                    {on_toggle}
                    {on_speed}
                    {on_scenario}
                    {on_profile}
                />
            </header>
            <main class="grid">
                <div style="grid-column: 1 / -2; display: grid; gap: var(--gap); min-width: 0; align-content: start">
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
                    <PoolMap canvas={canvases.map.clone()} {instances} tables={state.snapshot.tables.clone()} />
                    <LatchLanes canvas={canvases.latches.clone()} {instances} />
                    <FlushList canvas={canvases.flush.clone()} {instances} walks={state.snapshot.flush_walks} />
                    <div class="chart-grid">
                        <TpsChart slot={canvases.charts.tps.clone()} on_seek={on_seek.clone()} />
                        <BpChart slot={canvases.charts.bp.clone()} on_seek={on_seek.clone()} />
                        <WaitsChart slot={canvases.charts.waits.clone()} {on_seek} />
                    </div>
                </div>
                <aside class="panel side" style="display: grid; gap: 18px">
                    <SqlBox result={state.sql.clone()} log={state.log.clone()} {suggestions} {on_run} />
                    <Stats snapshot={state.snapshot.clone()} />
                </aside>
            </main>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(sql: &str, result: &str, error: bool) -> Action {
        Action::Frame {
            generation: 0,
            news: News::Finished(LogEntry {
                at: Tick::from_secs(3),
                sql: sql.into(),
                result: result.into(),
                error,
                note: false,
            }),
        }
    }

    #[test]
    fn a_statement_runs_then_shows_its_result_and_joins_the_log() {
        let s = AppState::default();
        let s = s.apply(Action::SqlAccepted { statements: 1 }).unwrap();
        assert_eq!(s.sql, SqlResult::Running);
        let s = s
            .apply(finished(
                "DROP TABLE t1",
                "Query OK, 0 rows affected (0.43 sec)",
                false,
            ))
            .unwrap();
        assert_eq!(
            s.sql,
            SqlResult::Done {
                result: "Query OK, 0 rows affected (0.43 sec)".into(),
                error: false
            }
        );
        assert_eq!(s.log.len(), 1);
        assert_eq!(s.outstanding, 0);
    }

    #[test]
    fn a_batch_runs_until_its_last_statement_finishes() {
        let s = AppState::default()
            .apply(Action::SqlAccepted { statements: 2 })
            .unwrap();
        let s = s
            .apply(finished("DROP TABLE t1", "Query OK", false))
            .unwrap();
        assert_eq!(s.sql, SqlResult::Running);
        let s = s
            .apply(finished("DROP TABLE t2", "Query OK", false))
            .unwrap();
        assert!(matches!(s.sql, SqlResult::Done { .. }));
    }

    #[test]
    fn the_log_keeps_the_last_few() {
        let mut s = AppState::default();
        for i in 0..20 {
            s = s
                .apply(finished(&format!("DROP TABLE t{i}"), "Query OK", false))
                .unwrap();
        }
        assert_eq!(s.log.len(), LOG_LEN);
        assert_eq!(s.log.last().unwrap().sql, "DROP TABLE t19");
    }

    #[test]
    fn a_rejected_statement_shows_the_error() {
        let s = AppState::default()
            .apply(Action::SqlRejected(
                "ERROR 1051 (42S02): Unknown table 'test.nope'".into(),
            ))
            .unwrap();
        assert_eq!(
            s.sql,
            SqlResult::Rejected("ERROR 1051 (42S02): Unknown table 'test.nope'".into())
        );
    }

    #[test]
    fn a_new_profile_restarts_and_drops_old_news() {
        let s = AppState::default()
            .apply(Action::SqlAccepted { statements: 1 })
            .unwrap()
            .apply(Action::SetProfile("mysql-8.0.23".into()))
            .unwrap();
        assert_eq!(s.generation, 1);
        assert_eq!(s.sql, SqlResult::Idle);
        assert_eq!(s.outstanding, 0);
        assert!(s.playing);
        assert_eq!(
            s.apply(finished("DROP TABLE t1", "Query OK", false)),
            None,
            "news from generation 0"
        );
        assert_eq!(
            s.apply(Action::SetProfile("mysql-8.0.23".into())),
            None,
            "same profile"
        );
    }

    #[test]
    fn a_click_on_a_band_asks_to_seek_there() {
        let s = AppState::default();
        assert_eq!(s.seek_to, None);
        let s = s.apply(Action::Seek(Tick::from_secs(12))).unwrap();
        assert_eq!(s.seek_to, Some(Tick::from_secs(12)));
        assert_eq!(
            s.apply(Action::Seek(Tick::from_secs(12))),
            None,
            "same place"
        );
    }

    #[test]
    fn play_and_speed() {
        let s = AppState::default();
        assert!(s.playing, "plays on load");
        let s = s.apply(Action::TogglePlay).unwrap();
        assert!(!s.playing);
        let s = s.apply(Action::SetSpeed(0.05)).unwrap();
        assert_eq!(s.speed, 0.05);
        assert_eq!(s.apply(Action::SetSpeed(0.05)), None);
    }

    #[test]
    fn a_new_scenario_restarts_on_its_own_profile_and_keeps_it_for_a_profile_switch() {
        let s = AppState::default();
        assert_eq!(
            (s.scenario.as_str(), s.profile.as_str()),
            ("drop-table-demo", "mysql-5.7")
        );
        assert!(!s.building);
        let s = s
            .apply(Action::SqlAccepted { statements: 1 })
            .unwrap()
            .apply(Action::SetSpeed(4.0))
            .unwrap()
            .apply(Action::SetScenario {
                name: "i3-ext3-drop".into(),
                profile: "mysql-5.1".into(),
            })
            .unwrap();
        assert_eq!(
            (s.scenario.as_str(), s.profile.as_str()),
            ("i3-ext3-drop", "mysql-5.1")
        );
        assert_eq!(s.generation, 1);
        assert!(s.building && s.playing);
        assert_eq!(s.speed, 4.0, "the speed is kept");
        assert_eq!((s.outstanding, &s.sql), (0, &SqlResult::Idle));
        assert_eq!(
            s.apply(Action::SetScenario {
                name: "i3-ext3-drop".into(),
                profile: "mysql-5.1".into(),
            }),
            None,
            "same scenario"
        );
        let s = s.apply(Action::SetProfile("mysql-5.7".into())).unwrap();
        assert_eq!(
            (s.scenario.as_str(), s.profile.as_str()),
            ("i3-ext3-drop", "mysql-5.7")
        );
        assert_eq!(s.generation, 2);
        // The first snapshot of the new simulation ends the building state.
        let stale = Action::Frame {
            generation: 1,
            news: News::Snapshot(Snapshot::default()),
        };
        assert_eq!(s.apply(stale), None);
        let s = s
            .apply(Action::Frame {
                generation: 2,
                news: News::Snapshot(Snapshot {
                    now: Tick::from_ms(16),
                    ..Snapshot::default()
                }),
            })
            .unwrap();
        assert!(!s.building);
    }

    #[test]
    fn a_note_joins_the_log_without_touching_the_statement() {
        let s = AppState::default()
            .apply(Action::SqlAccepted { statements: 1 })
            .unwrap();
        let note = LogEntry::note(
            Tick::from_secs(40),
            "HA probe: failover after 30 s of stalled writes".into(),
        );
        let s = s
            .apply(Action::Frame {
                generation: 0,
                news: News::Note(note.clone()),
            })
            .unwrap();
        assert_eq!(s.log, vec![note]);
        assert_eq!((s.outstanding, &s.sql), (1, &SqlResult::Running));
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
