//! The page: its state as a plain struct, the actions that change it, the reducer, and
//! the root component that wires the panels to the simulation.
//!
//! ```text
//!   user ──▶ Controls / SqlBox ──Action──▶ reduce() ──▶ AppState ──▶ render
//!                    │                                     │
//!                    ▼ (execute)                           ▼ effects: profile → restart,
//!   FrameLoop ──▶ Runner { Sim } ──News (≤10/s)──▶ reduce()         play/speed → clock
//! ```
//!
//! Architecture invariant: `AppState` holds only small values (flags, a snapshot of a
//! dozen figures, the console's log). The simulation itself is in the [`Runner`]
//! behind an `Rc<RefCell<…>>`, driven by the frame loop; Yew never clones it.

use crate::chart::{Chart, TpsChart};
use crate::controls::{Controls, ProfileChoice};
use crate::pool_map::PoolMap;
use crate::runner::{Canvases, FrameLoop, LogEntry, News, Runner, Snapshot, DEFAULT_PROFILE};
use crate::sql_box::{SqlBox, SqlResult, LOG_LEN};
use crate::stats::Stats;
use ddlscope_engine::Profile;
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
    /// The engine profile.
    pub profile: String,
    /// The figures, as of the last report from the loop.
    pub snapshot: Snapshot,
    /// The console's result line.
    pub sql: SqlResult,
    /// Finished statements, oldest first, at most [`LOG_LEN`].
    pub log: Vec<LogEntry>,
    /// Statements accepted and not finished yet.
    pub outstanding: u32,
}

impl Default for AppState {
    fn default() -> AppState {
        AppState {
            generation: 0,
            playing: true,
            speed: 1.0,
            profile: DEFAULT_PROFILE.to_string(),
            snapshot: Snapshot::default(),
            sql: SqlResult::Idle,
            log: Vec::new(),
            outstanding: 0,
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
    /// Another engine profile: restart the simulation on it.
    SetProfile(String),
    /// The console sent a statement and the engine accepted `statements` of them.
    SqlAccepted {
        /// How many statements the text held.
        statements: u32,
    },
    /// The console sent a statement and the engine rejected it.
    SqlRejected(String),
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
                next = AppState {
                    generation: self.generation + 1,
                    profile: name,
                    playing: true,
                    speed: self.speed,
                    ..AppState::default()
                };
            }
            Action::SqlAccepted { statements } => {
                next.outstanding += statements;
                next.sql = SqlResult::Running;
            }
            Action::SqlRejected(e) => next.sql = SqlResult::Rejected(e),
            Action::Frame { generation, .. } if generation != self.generation => return None,
            Action::Frame {
                news: News::Snapshot(s),
                ..
            } => next.snapshot = s,
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
                next.log.push(entry);
                if next.log.len() > LOG_LEN {
                    next.log.remove(0);
                }
            }
        }
        (next != *self).then_some(next)
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

/// The page.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(AppState::default);
    let runner = use_mut_ref(|| {
        Runner::new(DEFAULT_PROFILE, 0).expect("the built-in demo scenario and profile load")
    });
    let canvases = use_memo((), |_| Canvases::default());
    let profiles = use_memo((), |_| profiles());

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
    // A new profile restarts the simulation.
    {
        let runner = runner.clone();
        use_effect_with(
            (state.profile.clone(), state.generation),
            move |(profile, generation)| {
                let mut r = runner.borrow_mut();
                if r.generation() != *generation || r.profile() != profile {
                    r.restart(profile, *generation)
                        .expect("built-in profiles load");
                }
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

    let (instances, scenario_title, scenario_text) = {
        let r = runner.borrow();
        let s = r.sim().scenario();
        (
            r.sim().pool().n_instances(),
            s.title.clone(),
            s.description.clone(),
        )
    };
    let choices: Vec<ProfileChoice> = profiles.iter().map(|(c, _)| c.clone()).collect();
    let (profile_title, summary) = profiles
        .iter()
        .find(|(c, _)| c.name == state.profile)
        .map(|(c, s)| (c.title.clone(), s.clone()))
        .unwrap_or_default();
    let suggestions: Vec<String> = state
        .snapshot
        .tables
        .iter()
        .filter(|t| !t.dropped)
        .map(|t| format!("DROP TABLE {}", t.name))
        .collect();
    let subtle = "text-transform: none; letter-spacing: 0; font-weight: 400";

    html! {
        <div class="app">
            <header class="toolbar">
                <span class="brand">{ "ddlscope" }<small>{ "why a DDL statement can freeze InnoDB" }</small></span>
                <Controls
                    playing={state.playing}
                    speed={state.speed}
                    profile={AttrValue::from(state.profile.clone())}
                    profiles={choices}
                    now={state.snapshot.now}
                    actual_speed={state.snapshot.actual_speed}
                    {on_toggle}
                    {on_speed}
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
                        <p style="margin: 0 0 6px" data-testid="profile-summary">{ summary }</p>
                        <details style="color: var(--text-muted); font-size: 13px">
                            <summary style="cursor: pointer">{ "Try it: run DROP TABLE t1 from the console, at 0.05× to watch the scans; then switch the engine and compare." }</summary>
                            <p style="margin: 6px 0 0">{ scenario_text }</p>
                        </details>
                    </section>
                    <PoolMap canvas={canvases.map.clone()} {instances} tables={state.snapshot.tables.clone()} />
                    <div style="display: grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap: var(--gap); min-width: 0">
                        <Chart canvas={canvases.pages.clone()} />
                        <TpsChart canvas={canvases.tps.clone()} />
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
    use ddlscope_engine::Tick;

    fn finished(sql: &str, result: &str, error: bool) -> Action {
        Action::Frame {
            generation: 0,
            news: News::Finished(LogEntry {
                at: Tick::from_secs(3),
                sql: sql.into(),
                result: result.into(),
                error,
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
    fn play_and_speed() {
        let s = AppState::default();
        assert!(s.playing, "plays on load");
        let s = s.apply(Action::TogglePlay).unwrap();
        assert!(!s.playing);
        let s = s.apply(Action::SetSpeed(0.05)).unwrap();
        assert_eq!(s.speed, 0.05);
        assert_eq!(s.apply(Action::SetSpeed(0.05)), None);
    }
}
