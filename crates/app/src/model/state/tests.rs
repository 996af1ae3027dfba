use super::*;
use crate::model::snapshot::ConsoleSession;
use ddlscope_engine::Tick;

fn log(entries: &[(&str, &str, bool)]) -> Action {
    Action::Frame {
        generation: 0,
        news: News::Log(
            entries
                .iter()
                .enumerate()
                .map(|(i, (sql, result, error))| LogEntry {
                    at: Tick::from_secs(i as u64),
                    issued: Tick::from_secs(i as u64),
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
fn escape_closes_the_help_and_the_error() {
    let s = AppState {
        help: true,
        error: Some("refused".into()),
        ..AppState::default()
    };
    let s = s.apply(Action::Escape).unwrap();
    assert!(!s.help && s.error.is_none());
    assert_eq!(s.apply(Action::Escape), None, "nothing left to close");
}

#[test]
fn the_layout_and_the_console_width_survive_a_restart_but_session_names_do_not() {
    use crate::model::panel_layout::PanelId;
    let s = AppState::default()
        .apply(Action::TogglePanel(PanelId::Flush))
        .and_then(|s| s.apply(Action::MovePanel(PanelId::Tps, true)))
        .and_then(|s| s.apply(Action::ToggleConsoleWide))
        .and_then(|s| {
            s.apply(Action::NameSession {
                id: 17,
                name: "alice".into(),
            })
        })
        .unwrap();
    assert_eq!(s.session_names.get(&17).map(String::as_str), Some("alice"));
    assert_eq!(
        s.layout.to_param(),
        "map,latches,-flush,tps|mdl,processlist,bp,waits"
    );
    let r = s.apply(Action::SetProfile("mysql-8.0.23".into())).unwrap();
    assert_eq!(r.layout, s.layout);
    assert!(r.console_wide);
    assert!(
        r.session_names.is_empty(),
        "the new simulation's sessions are new"
    );
}

#[test]
fn a_bad_session_name_is_refused_with_a_reason() {
    let s = AppState::default()
        .apply(Action::NameSession {
            id: 17,
            name: "two words".into(),
        })
        .unwrap();
    assert!(s.session_names.is_empty());
    assert!(s.error.unwrap().contains("letters, digits and _"));
}

#[test]
fn a_result_table_is_read_out_by_its_last_line() {
    let s = AppState::default()
        .apply(log(&[(
            "SELECT 1",
            "+---+\n| 1 |\n+---+\n| 1 |\n+---+\n1 row in set (0.00 sec)",
            false,
        )]))
        .unwrap();
    assert_eq!(
        s.narration,
        ["Session 8: SELECT 1 — 1 row in set (0.00 sec)"]
    );
}

#[test]
fn a_worker_that_cannot_start_stops_the_clock_and_says_why_and_what_the_browser_needs() {
    let s = AppState::default()
        .apply(Action::CannotStart(
            "the engine's worker stopped: Uncaught Error: no".to_string(),
        ))
        .unwrap();
    assert!(!s.playing);
    let said = s.error.clone().unwrap_or_default();
    assert!(
        said.starts_with("The simulation cannot start: it runs in a Web Worker, and the engine's worker stopped: Uncaught Error: no."),
        "{said}"
    );
    assert!(said.contains("module workers"), "{said}");
    assert_eq!(s.apply(Action::DismissError).map(|s| s.error), Some(None));
}
