use super::*;
use crate::model::knobs::Knobs;
use crate::model::link::parse_fragment;
use crate::model::runner::DEFAULT_SCENARIO;

fn played() -> Engines {
    let mut e = Engines::new(Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap());
    e.main_mut()
        .run_to(Tick::from_ms(300), f64::INFINITY, &|| 0.0);
    let s2 = e.connect();
    e.main_mut()
        .run_to(Tick::from_ms(700), f64::INFINITY, &|| 0.0);
    e.submit(s2, "BEGIN; SELECT * FROM t1 WHERE id = 5")
        .unwrap();
    let first = e.main().sim().console_session();
    e.main_mut()
        .run_to(Tick::from_ms(900), f64::INFINITY, &|| 0.0);
    e.submit(first, "DROP TABLE t1").unwrap();
    e.main_mut()
        .run_to(Tick::from_ms(1_600), f64::INFINITY, &|| 0.0);
    e.main_mut().set_clock(false, 0.5);
    e.main_mut().digest();
    e
}

#[test]
fn a_captured_link_opens_at_the_same_tick_with_the_same_state() {
    let e = played();
    let state = capture(&e, &moved_layout());
    assert_eq!(state.t, Tick::from_ms(1_600));
    assert!(state.paused);
    assert_eq!(state.journal.len(), 3);
    // Through the fragment, as a browser would carry it.
    let state = parse_fragment(&state.encode()).unwrap().state.unwrap();
    let mut opened = open(&state, 1).unwrap();
    opened.settle();
    let (a, b) = (e.main(), opened.main());
    assert_eq!(b.sim().now(), a.sim().now());
    assert_eq!(b.sim().trace_hash(), a.sim().trace_hash());
    let figures = |r: &Runner| crate::model::snapshot::Snapshot {
        log_version: 0,
        ..r.snapshot()
    };
    assert_eq!(figures(b), figures(a));
    assert_eq!(b.inputs(), a.inputs());
    assert_eq!(b.clock(), (false, 0.5));
    assert_eq!(b.log(), a.log());
    // And the panels as they were laid out.
    assert_eq!(state.panel_layout(), moved_layout());
}

/// The default layout with the flush list hidden and the metadata locks moved to the
/// top of the second column.
fn moved_layout() -> PanelLayout {
    use crate::model::panel_layout::PanelId;
    let mut l = PanelLayout::default();
    l.toggle(PanelId::Flush);
    assert!(l.step(PanelId::Mdl, true));
    l
}

#[test]
fn a_link_made_after_a_seek_back_keeps_the_recorded_future() {
    let mut e = played();
    e.seek(Tick::from_ms(800));
    let state = capture(&e, &PanelLayout::default());
    assert_eq!(state.t, Tick::from_ms(800));
    assert_eq!(
        state.journal.len(),
        3,
        "the DROP at 0.9 s is still recorded"
    );
    let mut opened = open(&state, 1).unwrap();
    opened
        .main_mut()
        .run_to(Tick::from_ms(1_600), f64::INFINITY, &|| 0.0);
    let mut original = played();
    original
        .main_mut()
        .run_to(Tick::from_ms(1_600), f64::INFINITY, &|| 0.0);
    assert_eq!(
        opened.main().sim().trace_hash(),
        original.main().sim().trace_hash()
    );
}

#[test]
fn a_compare_link_opens_both_engines() {
    let e = played();
    let mut state = capture(&e, &PanelLayout::default());
    state.compare = Some("mysql-8.0.23".into());
    let mut opened = open(&state, 1).unwrap();
    opened.settle();
    assert_eq!(opened.panes.len(), 2);
    assert_eq!(opened.panes[1].profile(), "mysql-8.0.23");
    assert_eq!(opened.panes[1].sim().now(), state.t);
    let mut bad = state.clone();
    bad.engine = "mysql-9.9".into();
    assert!(open(&bad, 1).unwrap_err().contains("mysql-9.9"));
}

#[test]
fn typed_statements_carry_over_to_a_new_engine_and_new_thread_counts() {
    let e = played();
    let old = e.main();
    let knobs = Knobs {
        threads: Some(4),
        ..Knobs::default()
    };
    let mut new = Runner::with_knobs(DEFAULT_SCENARIO, None, "mysql-8.0.23", &knobs, 1).unwrap();
    let report = carry_over(old, &mut new);
    assert_eq!(report.statements, 2);
    assert_eq!(report.sessions, 1);
    assert!(report.refused.is_empty(), "{report:?}");
    assert_eq!(new.sim().now(), old.sim().now());
    // Fewer workload threads: the console's sessions have lower ids, same tabs.
    assert!(new.sim().console_session() < old.sim().console_session());
    let sessions = new.sim().console_sessions();
    assert_eq!(sessions.len(), 2);
    let texts: Vec<(u32, String)> = new
        .sim()
        .statements()
        .iter()
        .map(|s| (s.session, s.sql.clone()))
        .collect();
    assert!(
        texts.contains(&(sessions[0], "DROP TABLE t1".to_string())),
        "{texts:?}"
    );
    assert!(
        texts.contains(&(sessions[1], "BEGIN".to_string())),
        "{texts:?}"
    );
    let said = report.to_string();
    assert!(
        said.contains("2 statements were replayed on mysql-8.0.23 up to 1.6 s"),
        "{said}"
    );
}

#[test]
fn typing_in_the_past_reports_the_dropped_future_once() {
    let mut e = played();
    e.seek(Tick::from_ms(800));
    let first = e.main().sim().console_session();
    e.submit(first, "SELECT 1").unwrap();
    let branch = e.main_mut().take_branch().unwrap();
    assert_eq!(branch.at, Tick::from_ms(800));
    assert_eq!(branch.dropped, 1, "the DROP TABLE at 0.9 s");
    assert_eq!(e.main_mut().take_branch(), None);
    assert_eq!(e.main().branches(), &[Tick::from_ms(800)]);
    assert_eq!(
        capture(&e, &PanelLayout::default()).branches,
        vec![Tick::from_ms(800)]
    );
}

#[test]
fn the_scenarios_own_script_runs_when_asked() {
    let knobs = Knobs {
        script: Some(true),
        ..Knobs::default()
    };
    let scenario = "i5-truncate-then-drop";
    let mut with = Runner::with_knobs(scenario, None, "mysql-5.7", &knobs, 0).unwrap();
    let mut without =
        Runner::with_knobs(scenario, None, "mysql-5.7", &Knobs::default(), 0).unwrap();
    assert!(!with.script().is_empty());
    assert_eq!(with.script(), without.script());
    let end = Tick::from_secs(6);
    with.run_to(end, f64::INFINITY, &|| 0.0);
    without.run_to(end, f64::INFINITY, &|| 0.0);
    assert!(
        !with.sim().statements().is_empty(),
        "the script's statements ran"
    );
    assert!(
        without.sim().statements().is_empty(),
        "the sandbox runs none"
    );
}

#[test]
fn go_to_seeks_back_or_runs_forward() {
    let mut e = played();
    e.go_to(Tick::from_ms(800));
    e.settle();
    assert_eq!(e.main().sim().now(), Tick::from_ms(800));
    e.go_to(Tick::from_ms(2_000));
    e.settle();
    assert_eq!(
        e.main().sim().now(),
        Tick::from_ms(2_000),
        "past the horizon: runs there"
    );
    assert_eq!(e.main().horizon(), Tick::from_ms(2_000));
}

#[test]
fn a_link_replayed_outside_the_page_is_the_server_the_page_shows() {
    // `ddlscope poster LINK` reads the link with the moment crate and replays it
    // without the runner: the same server, tick for tick.
    let e = played();
    let state = capture(&e, &PanelLayout::default());
    let link = format!("https://example.org/ddlscope/#{}", state.encode());
    let moment = ddlscope_moment::Moment::from_link(&link).unwrap();
    assert_eq!(moment.journal, state.journal);
    let sim = moment.replay().unwrap();
    let page = e.main().sim();
    assert_eq!(sim.now(), page.now());
    assert_eq!(sim.trace_hash(), page.trace_hash());
    assert_eq!(sim.pool().pages_free(), page.pool().pages_free());
    assert_eq!(sim.pool().pages_data(), page.pool().pages_data());
}

#[test]
fn a_setting_changed_mid_run_is_the_run_its_link_replays() {
    use crate::model::restart::{restart, Restarted};
    let mut e = played();
    let knobs = Knobs {
        ahi: Some(true),
        ..Knobs::default()
    };
    let done = restart(&mut e, DEFAULT_SCENARIO, None, "mysql-5.7", &knobs, 1);
    assert!(matches!(done, Restarted::New { .. }), "{done:?}");
    e.settle();
    assert_eq!(
        e.main().sim().now(),
        Tick::from_ms(1_600),
        "carried over to its time"
    );
    let first = e.main().sim().console_session();
    e.submit(first, "SELECT COUNT(*) FROM t2").unwrap();
    e.main_mut()
        .run_to(Tick::from_ms(2_400), f64::INFINITY, &|| 0.0);
    let state = capture(&e, &PanelLayout::default());
    assert_eq!(state.knobs, knobs);
    let mut opened = open(&state, 2).unwrap();
    opened.settle();
    let (a, b) = (e.main().sim(), opened.main().sim());
    assert_eq!(b.now(), a.now());
    assert_eq!(b.trace_hash(), a.trace_hash());
}
