use super::*;
use ddlscope_engine::{SpaceId, WorkloadKind};

fn scan(to: u32) -> ScanSpan {
    ScanSpan {
        instance: 1,
        space: SpaceId(1),
        latch: LatchId::BufPool(1),
        from: 0,
        to,
        t0: Tick::from_ms(100),
        t1: Tick::from_ms(100) + Tick(500).times(u64::from(to)),
    }
}

#[test]
fn the_scan_cursor_sweeps_from_the_tail_to_the_head() {
    let s = scan(1000);
    assert_eq!(s.unvisited(Tick::from_ms(100)), 1000, "starts at the tail");
    assert_eq!(
        s.unvisited(Tick::from_ms(100) + Tick::from_us(250)),
        500,
        "halfway"
    );
    assert_eq!(s.unvisited(s.t1), 0, "ends at the head");
    assert_eq!(s.unvisited(s.t1 + Tick::SECOND), 0);
    assert_eq!(s.visited(Tick::ZERO), 0, "before it starts");
    assert_eq!(s.visited(Tick::from_ms(100) + Tick::from_us(100)), 200);
    assert!(s.active(s.t0) && s.active(s.t1) && !s.active(s.t1 + Tick(1)));
}

#[test]
fn a_drop_on_57_shows_scans_a_span_and_a_log_line() {
    let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
    r.advance(100.0, &|| 0.0);
    assert_eq!(r.sim().now(), Tick::from_ms(100));
    assert_eq!(r.execute("DROP TABLE t1"), Ok(1));
    let free_before = r.snapshot().pages_free;
    // Run into the first instance's scan (after dict_sys and the per-extent walk).
    for _ in 0..1000 {
        r.advance(1.0, &|| 0.0);
        r.digest();
        if !r.scans().is_empty() {
            break;
        }
    }
    assert_eq!(r.scans().len(), 1, "{:?}", r.scans());
    assert!(r.scans()[0].active(r.sim().now()));
    assert_eq!(r.ddl_spans().len(), 1);
    assert_eq!(r.ddl_spans()[0].t1, None);
    for _ in 0..10 {
        r.advance(100.0, &|| 0.0);
    }
    r.digest();
    assert!(r.scans().is_empty(), "the scans are over: {:?}", r.scans());
    assert!(r.ddl_spans()[0].t1.is_some());
    let done: Vec<LogEntry> = r.log().into_iter().filter(|e| !e.note).collect();
    assert_eq!(done.len(), 1, "{done:?}");
    assert!(done[0].result.starts_with("Query OK"), "{done:?}");
    let snap = r.snapshot();
    assert!(
        snap.pages_free > free_before + 50_000,
        "{free_before} -> {}",
        snap.pages_free
    );
    assert!(snap.tables.iter().any(|t| t.name == "t1" && t.dropped));
}

#[test]
fn an_unknown_table_is_an_error_when_the_statement_runs() {
    let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-8.0.23", 0).unwrap();
    assert_eq!(
        r.execute("DROP TABLEX nope"),
        Err("ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'TABLEX nope' at line 1".to_string())
    );
    assert_eq!(r.execute("DROP TABLE nope"), Ok(1));
    r.advance(10.0, &|| 0.0);
    r.digest();
    let done = r.log();
    assert_eq!(
        done.len(),
        2,
        "the syntax error and the unknown table: {done:?}"
    );
    assert!(done[0].result.starts_with("ERROR 1064"));
    let done = &done[1..];
    assert!(done[0].error);
    assert_eq!(
        done[0].result,
        "ERROR 1051 (42S02): Unknown table 'test.nope'"
    );
}

#[test]
fn a_killed_tab_reports_2006_reconnects_and_goes_on() {
    let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-8.0.23", 0).unwrap();
    let tab = r.connect();
    r.submit(tab, "BEGIN; UPDATE t1 SET k = 1 WHERE id = 1")
        .unwrap();
    r.advance(100.0, &|| 0.0);
    r.execute(&format!("KILL {tab}")).unwrap();
    r.advance(100.0, &|| 0.0);
    r.submit(tab, "SELECT 1").unwrap();
    r.submit(tab, "SELECT * FROM t1 WHERE id = 1").unwrap();
    r.advance(100.0, &|| 0.0);
    r.digest();
    let mine: Vec<LogEntry> = r.log().into_iter().filter(|e| e.session == tab).collect();
    assert_eq!(mine.len(), 4, "{mine:?}");
    let gone = &mine[2];
    assert!(gone.error, "{gone:?}");
    assert!(
        gone.result.starts_with("ERROR 2006 (HY000): MySQL server has gone away\nNo connection. Trying to reconnect...\nConnection id:"),
        "{}",
        gone.result
    );
    assert!(
        !mine[3].error && mine[3].result.contains("1 row in set"),
        "{mine:?}"
    );
    // One tab still, on a new connection; the kill rolled the transaction back.
    assert!(r.sim().console_sessions().contains(&tab));
    assert_ne!(r.sim().connection_of(tab), tab);
    assert!(r
        .sim()
        .console_connections()
        .contains(&r.sim().connection_of(tab)));
}

#[test]
fn a_paused_runner_does_not_move_and_the_budget_stops_a_slow_frame() {
    let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
    r.set_clock(false, 1.0);
    assert_eq!(r.advance(50.0, &|| 0.0), Tick::ZERO);
    r.set_clock(true, 10.0);
    // A clock that says each slice took 20 ms: one slice, then stop.
    let t = std::cell::Cell::new(0.0);
    let clock = || {
        t.set(t.get() + 20.0);
        t.get()
    };
    assert_eq!(r.advance(100.0, &clock), STEP_SLICE);
}

#[test]
fn a_scenario_runs_on_the_profile_asked_for_without_its_script() {
    let r = Runner::new("i3-ext3-drop", "mysql-5.1", 0).unwrap();
    assert_eq!(r.scenario(), "i3-ext3-drop");
    assert_eq!(r.profile(), "mysql-5.1");
    assert_eq!(r.script(), ["DROP TABLE big".to_string()]);
    assert!(
        r.sim().scenario().script.is_empty(),
        "the user is the script"
    );
    let mut r = Runner::new("i3-ext3-drop", "mysql-5.7", 1).unwrap();
    assert_eq!(
        (r.scenario(), r.profile(), r.generation()),
        ("i3-ext3-drop", "mysql-5.7", 1)
    );
    // Nothing runs by itself: 20 virtual seconds later big is still there.
    for _ in 0..200 {
        r.advance(100.0, &|| 0.0);
    }
    r.digest();
    assert!(r.ddl_spans().is_empty());
    assert!(r
        .snapshot()
        .tables
        .iter()
        .any(|t| t.name == "big" && !t.dropped));
    assert!(Runner::new("no-such-scenario", "mysql-5.7", 0).is_err());
}

#[test]
fn only_the_incidents_with_pools_of_tens_of_gb_are_heavy() {
    // I1's 128 GB pool, I5's 36 GB (a 48 GB server's), and the 32 GB of the 8.0.22
    // against 8.0.23 DROP.
    let heavy = [
        "i1-ahi-drop",
        "i5-compressed-partition-drop",
        "i5-truncate-then-drop",
        "drop-table-80-32g",
    ];
    for (name, _) in ddlscope_engine::SCENARIOS {
        let s = Scenario::builtin(name).unwrap();
        assert_eq!(is_heavy(&s), heavy.contains(name), "{name}");
    }
}

#[test]
fn a_failover_and_the_ahi_cleanup_become_log_notes() {
    let note = note_for(
        Tick::from_secs(45),
        &EventKind::Failover {
            stalled_for: Tick::from_secs(30),
        },
    )
    .unwrap();
    assert!(note.note && !note.error);
    assert_eq!(note.sql, "HA probe: failover after 30 s of stalled writes");
    let done = note_for(
        Tick::from_secs(160),
        &EventKind::AhiCleanupDone {
            space: SpaceId(1),
            t0: Tick::from_secs(10),
            t1: Tick::from_secs(160),
            hashed_pages: 1_200_000,
            records: 90_000_000,
        },
    )
    .unwrap();
    assert_eq!(
        done.sql,
        "AHI cleanup of space 1: done in 150.000 s, 1,200,000 hashed pages, 90,000,000 records"
    );

    // And from a real run: the demo with the AHI on, dropped on 5.7.
    let mut scenario = Scenario::builtin(DEFAULT_SCENARIO).unwrap();
    scenario.innodb.adaptive_hash_index = true;
    let mut r = Runner::from_scenario(scenario, "mysql-5.7", 0).unwrap();
    r.advance(100.0, &|| 0.0);
    r.execute("DROP TABLE t1").unwrap();
    for _ in 0..30 {
        r.advance(100.0, &|| 0.0);
    }
    r.digest();
    let notes: Vec<LogEntry> = r.log().into_iter().filter(|e| e.note).collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].sql.starts_with("AHI cleanup of space ") && notes[0].sql.contains("started"),
        "{notes:?}"
    );
    assert!(notes[0].sql.contains("holding dict_sys"), "{notes:?}");
    assert!(notes[1].sql.contains(": done in "), "{notes:?}");
    assert_eq!(
        r.log().iter().filter(|e| !e.note).count(),
        1,
        "the DROP itself is not a note"
    );
}

/// A fingerprint of the whole state an engine shows: its trace hash, its clock,
/// and the pool's counters.
fn state(r: &Runner) -> (u64, Tick, u64, u64, usize) {
    let p = r.sim().pool();
    (
        r.sim().trace_hash(),
        r.sim().now(),
        p.pages_free(),
        p.pages_dirty(),
        r.sim().events().len(),
    )
}

#[test]
fn scrubbing_back_and_forth_lands_on_the_same_state_at_the_same_tick() {
    let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
    for _ in 0..30 {
        r.advance(100.0, &|| 0.0);
    }
    let s2 = r.connect();
    r.submit(s2, "BEGIN; SELECT * FROM t1 WHERE id = 5")
        .unwrap();
    for _ in 0..10 {
        r.advance(100.0, &|| 0.0);
    }
    r.execute("DROP TABLE t2").unwrap();
    for _ in 0..120 {
        r.advance(100.0, &|| 0.0);
    }
    r.digest();
    let end = r.sim().now();
    assert_eq!(r.horizon(), end);
    assert!(
        r.checkpoints.len() >= 2,
        "{} checkpoints",
        r.checkpoints.len()
    );
    let log_at_end = r.log();
    let at_end = state(&r);
    let mid = Tick::from_ms(4_250);
    r.seek(mid);
    let at_mid = state(&r);
    assert_eq!(at_mid.1, mid);
    assert!(
        r.sim().console_sessions().contains(&s2),
        "the session opened at 3 s is there"
    );
    // Back to the start: no session, nothing in the log.
    r.seek(Tick::from_ms(1_000));
    assert!(!r.sim().console_sessions().contains(&s2));
    assert!(r.log().is_empty());
    // Forward again, and back again: the same states.
    r.seek(end);
    assert_eq!(state(&r), at_end);
    assert_eq!(r.log(), log_at_end);
    r.seek(mid);
    assert_eq!(state(&r), at_mid);
    // Playing on from the middle replays the recorded inputs at their ticks.
    while r.sim().now() < end {
        let to = (r.sim().now() + Tick::from_ms(100)).min(end);
        r.run_to(to, STEP_BUDGET_MS, &|| 0.0);
    }
    assert_eq!(state(&r), at_end);
}

#[test]
fn typing_in_the_past_branches_history() {
    let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-8.0.23", 0).unwrap();
    for _ in 0..20 {
        r.advance(100.0, &|| 0.0);
    }
    r.execute("DROP TABLE t1").unwrap();
    for _ in 0..20 {
        r.advance(100.0, &|| 0.0);
    }
    r.seek(Tick::from_secs(1));
    assert_eq!(r.horizon(), Tick::from_secs(4), "the future is still there");
    r.execute("DROP TABLE t2").unwrap();
    assert_eq!(r.horizon(), Tick::from_secs(1), "until the user types");
    assert_eq!(r.inputs().len(), 1);
    assert!(matches!(&r.inputs()[0].kind, InputKind::Submit { sql, .. } if sql == "DROP TABLE t2"));
}

#[test]
fn step_and_back_move_from_statement_to_statement() {
    let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
    r.set_clock(false, 1.0);
    r.run_to(Tick::from_secs(2), f64::INFINITY, &|| 0.0);
    r.execute("DROP TABLE t1").unwrap();
    let finished_drop = |r: &Runner| {
        r.sim().events().iter().find_map(|e| match &e.kind {
            EventKind::StatementFinished { sql, .. } if sql == "DROP TABLE t1" => Some(e.at),
            _ => None,
        })
    };
    // Each press lands on a mark, past the scans and latch holds in between; a few
    // presses reach the DROP's end.
    let mut presses = 0;
    while finished_drop(&r).is_none_or(|at| r.sim().now() < at) {
        let before = r.sim().now();
        let ran = r.step_event();
        assert!(
            ran > Tick::ZERO && ran <= MARK_HORIZON,
            "{ran:?} from {before:?}: {:?}",
            r.marks()
        );
        r.digest();
        assert!(
            r.marks().iter().any(|m| m.at == r.sim().now()),
            "lands on a mark"
        );
        presses += 1;
        assert!(presses < 10, "the DROP's end is a few marks away");
    }
    let finished = r.sim().now();
    assert_eq!(Some(finished), finished_drop(&r));
    r.execute("DROP TABLE t2").unwrap();
    r.step_event();
    let later = r.sim().now();
    assert!(later > finished, "{later:?}");
    r.step_back();
    assert!(r.sim().now() < later);
    assert!(
        r.marks().iter().any(|m| m.at == r.sim().now()),
        "back lands on a mark"
    );
    r.step_event();
    assert_eq!(
        r.sim().now(),
        later,
        "and step returns to the one after, already known"
    );
}

#[test]
fn a_statement_typed_while_the_compare_engine_builds_reaches_it_at_the_same_tick() {
    let mut e = Engines::new(Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap());
    for _ in 0..5 {
        e.advance(100.0, STEP_BUDGET_MS, &|| 0.0);
    }
    e.compare(Some("mysql-8.0.23"), &Knobs::default()).unwrap();
    assert!(
        e.panes[1].busy().is_some(),
        "the compare engine is building"
    );
    assert!(e.panes[0].busy().is_none());
    let at = e.panes[0].sim().now();
    let session = e.panes[0].sim().console_session();
    assert_eq!(e.submit(session, "DROP TABLE t1"), Ok(1));
    e.settle();
    for _ in 0..10 {
        e.advance(100.0, STEP_BUDGET_MS, &|| 0.0);
    }
    let dropped_at = |r: &Runner| {
        r.inputs()
            .iter()
            .filter(|i| matches!(&i.kind, InputKind::Submit { sql, .. } if sql == "DROP TABLE t1"))
            .map(|i| i.at)
            .collect::<Vec<_>>()
    };
    assert_eq!(dropped_at(&e.panes[0]), vec![at]);
    assert_eq!(dropped_at(&e.panes[1]), vec![at], "not refused, not moved");
    for r in &mut e.panes {
        r.digest();
        assert!(
            r.snapshot()
                .tables
                .iter()
                .any(|t| t.name == "t1" && t.dropped),
            "{} ran the DROP",
            r.profile()
        );
    }
}

#[test]
fn compare_mode_runs_two_engines_on_one_clock_with_the_same_statements() {
    let mut e = Engines::new(Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap());
    for _ in 0..10 {
        e.advance(100.0, STEP_BUDGET_MS, &|| 0.0);
    }
    let s2 = e.connect();
    e.compare(Some("mysql-8.0.23"), &Knobs::default()).unwrap();
    assert_eq!(e.panes.len(), 2);
    assert!(
        e.busy().is_some(),
        "the second engine builds a frame at a time"
    );
    e.settle();
    assert_eq!(e.panes[1].sim().now(), e.panes[0].sim().now(), "caught up");
    assert!(
        e.panes[1].sim().console_sessions().contains(&s2),
        "the inputs replayed"
    );
    assert_eq!(e.submit(s2, "DROP TABLE t1"), Ok(1));
    assert!(e
        .submit(s2, "DROP TABLEX t1")
        .unwrap_err()
        .starts_with("ERROR 1064"));
    for _ in 0..30 {
        e.advance(100.0, STEP_BUDGET_MS, &|| 0.0);
    }
    for r in &mut e.panes {
        r.digest();
    }
    let (a, b) = (&e.panes[0], &e.panes[1]);
    assert_eq!(a.sim().now(), b.sim().now());
    assert_eq!(a.profile(), "mysql-5.7");
    assert_eq!(b.profile(), "mysql-8.0.23");
    // The same DROP: 5.7 frees t1's pages, 8.0.23 leaves them stale.
    let (sa, sb) = (a.snapshot(), b.snapshot());
    assert!(sa.tables.iter().any(|t| t.name == "t1" && t.dropped));
    assert!(sb.tables.iter().any(|t| t.name == "t1" && t.dropped));
    assert_eq!(sa.pages_stale, 0);
    assert!(
        sb.pages_stale > 0 || sb.pages_free > sa.pages_free / 2,
        "{sb:?}"
    );
    e.seek(Tick::from_secs(2));
    assert_eq!(e.panes[1].sim().now(), Tick::from_secs(2));
    e.compare(None, &Knobs::default()).unwrap();
    assert_eq!(e.panes.len(), 1);
}

#[test]
fn settings_apply_and_a_bad_one_is_refused_with_the_reason() {
    let knobs = Knobs {
        pool_mib: Some(512),
        instances: Some(2),
        ahi: Some(false),
        file_system: Some(ddlscope_engine::FileSystemKind::Xfs),
        device: Some(ddlscope_engine::DeviceKind::Nvme),
        workload: Some(WorkloadKind::OltpPointSelect),
        threads: Some(4),
        ..Knobs::default()
    };
    let r = Runner::with_knobs(DEFAULT_SCENARIO, None, "mysql-5.7", &knobs, 3).unwrap();
    assert_eq!(r.sim().pool().pages_total(), 512 * 64);
    assert_eq!(r.sim().pool().n_instances(), 2);
    assert_eq!(r.sim().scenario().workload.threads, 4);
    assert_eq!(r.knobs(), &knobs);
    let bad = Knobs {
        pool_mib: Some(128),
        instances: Some(64),
        ..Knobs::default()
    };
    let e = Runner::with_knobs(DEFAULT_SCENARIO, None, "mysql-5.7", &bad, 4).unwrap_err();
    assert!(!e.is_empty());
}

/// A statement's log line carries when it was sent as well as when it finished: an
/// ALTER sent at 0.1 s that waits for an open transaction until its COMMIT at 2 s.
#[test]
fn a_statement_that_waited_is_logged_with_when_it_was_sent() {
    let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-8.0.23", 0).unwrap();
    let s1 = r.sim().console_session();
    let s2 = r.connect();
    assert_eq!(r.submit(s1, "BEGIN; SELECT * FROM t1 WHERE id = 1"), Ok(2));
    r.advance(100.0, &|| 0.0);
    assert_eq!(
        r.submit(s2, "ALTER TABLE t1 ADD COLUMN c2 INT, ALGORITHM=INSTANT"),
        Ok(1)
    );
    for _ in 0..19 {
        r.advance(100.0, &|| 0.0);
    }
    assert_eq!(r.submit(s1, "COMMIT"), Ok(1));
    for _ in 0..10 {
        r.advance(100.0, &|| 0.0);
    }
    r.digest();
    let alter = r
        .log()
        .into_iter()
        .find(|e| e.session == s2)
        .expect("the ALTER finished");
    assert!(!alter.error, "{alter:?}");
    assert_eq!(alter.issued, Tick::from_ms(100), "{alter:?}");
    assert!(alter.at >= Tick::from_secs(2), "{alter:?}");
}

/// The engine's long-run scenario: oltp_read_write on a 16 MB pool.
const LONG_RUN: &str = include_str!("../../../../engine/tests/long-run.toml");

/// Virtual hours the runner's long run takes: 2h10 in the test run (past the two hours
/// where the engine starts thinning its samples), 24 with
/// `DDLSCOPE_LONG_RUN_HOURS=24` (`cargo xtask soak --hours 24`).
fn long_run_minutes() -> u64 {
    std::env::var("DDLSCOPE_LONG_RUN_HOURS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(130, |h| h * 60)
}

#[test]
fn a_long_run_with_a_ddl_every_ten_minutes_keeps_the_runner_bounded() {
    let scenario = Scenario::from_toml(LONG_RUN).unwrap();
    let mut r = Runner::from_scenario(scenario, "mysql-8.0.23", 0).unwrap();
    let ddls = [
        "ALTER TABLE sbtest1 ADD COLUMN z INT, ALGORITHM=INSTANT",
        "CREATE INDEX idx_c ON sbtest1 (c)",
        "DROP INDEX idx_c ON sbtest1",
        "ALTER TABLE sbtest1 DROP COLUMN z",
        "OPTIMIZE TABLE sbtest1",
    ];
    let minutes = long_run_minutes();
    let mut most_checkpoint_bytes = 0;
    for slot in 0..minutes / 10 {
        assert_eq!(r.execute(ddls[slot as usize % ddls.len()]), Ok(1));
        // As the page does: frames of a few virtual seconds, digested each time.
        let end = r.sim().now() + Tick::from_secs(600);
        while r.sim().now() < end {
            let t = (r.sim().now() + Tick::from_secs(5)).min(end);
            r.run_to(t, f64::INFINITY, &|| 0.0);
            r.digest();
        }
        let bytes: u64 = r.checkpoints.iter().map(|c| c.sim.approx_bytes()).sum();
        most_checkpoint_bytes = most_checkpoint_bytes.max(bytes);
        assert!(
            bytes <= CHECKPOINT_BUDGET_BYTES,
            "{bytes} bytes of checkpoints"
        );
        assert!(r.marks().len() <= MARKS_KEEP);
        assert!(r.ddl_spans().len() <= SPANS_KEEP + 1);
        assert!(r.log().len() <= LOG_KEEP);
        assert!(r
            .latch_spans()
            .iter()
            .all(|s| s.t1 + LATCH_WINDOW >= r.sim().now()));
        let done: Vec<&LogEntry> = r.log.iter().filter(|e| !e.note).collect();
        let last = done.last().expect("the DDL finished");
        assert!(
            last.result.starts_with("Query OK") || last.result.contains("optimize"),
            "{last:?}"
        );
    }
    // A seek back a quarter of an hour lands on the same state as going there.
    let now = r.sim().now();
    let hash = r.sim().trace_hash();
    r.seek(now - Tick::from_secs(900));
    r.run_to(now, f64::INFINITY, &|| 0.0);
    assert_eq!(r.sim().trace_hash(), hash);
    eprintln!(
        "runner long run: {minutes} virtual minutes, {} checkpoints ({} KiB, at most {} KiB), {} marks, {} spans, {} log lines, the engine's estimate {} KiB",
        r.checkpoints.len(),
        r.checkpoints.iter().map(|c| c.sim.approx_bytes()).sum::<u64>() >> 10,
        most_checkpoint_bytes >> 10,
        r.marks().len(),
        r.ddl_spans().len(),
        r.log().len(),
        r.sim().approx_bytes() >> 10
    );
}

/// A clock that moves `step` ms each time it is read: a frame budget runs out after a
/// few reads, as in the browser, whatever this machine's speed.
fn ticking(step: f64) -> impl Fn() -> f64 {
    let t = std::cell::Cell::new(0.0);
    move || {
        t.set(t.get() + step);
        t.get()
    }
}

#[test]
fn a_server_built_a_slice_a_frame_plays_the_run_built_at_once() {
    let knobs = Knobs::default();
    let mut whole = Runner::with_knobs(DEFAULT_SCENARIO, None, "mysql-5.7", &knobs, 0).unwrap();
    let mut sliced = Runner::starting(DEFAULT_SCENARIO, None, "mysql-5.7", &knobs, 0).unwrap();
    let clock = ticking(1.0);
    let mut frames = 0;
    let mut seen = 0;
    while let Some(Busy::Warming { frames: f, of }) = sliced.busy() {
        assert!(f >= seen && f <= of, "progress {f} of {of}");
        seen = f;
        let ran = sliced.advance(16.7, &clock);
        if sliced.busy().is_some() {
            assert_eq!(ran, Tick::ZERO, "the clock is held");
        }
        frames += 1;
    }
    assert!(frames > 3, "built in {frames} frames");
    assert!(sliced.busy().is_none());
    for r in [&mut whole, &mut sliced] {
        r.run_to(Tick::from_secs(3), f64::INFINITY, &|| 0.0);
    }
    assert_eq!(whole.sim().trace_hash(), sliced.sim().trace_hash());
}

#[test]
fn a_seek_done_a_slice_a_frame_lands_on_the_state_of_one_done_at_once() {
    let mut at_once = Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
    at_once.execute("DROP TABLE t1").unwrap();
    at_once.run_to(Tick::from_secs(12), f64::INFINITY, &|| 0.0);
    let mut sliced = Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
    sliced.execute("DROP TABLE t1").unwrap();
    sliced.run_to(Tick::from_secs(12), f64::INFINITY, &|| 0.0);
    at_once.seek(Tick::from_ms(9_250));
    let clock = ticking(2.0);
    sliced.seek_within(Tick::from_ms(9_250), 4.0, &clock);
    let mut frames = 0;
    while sliced.busy().is_some() {
        let busy = sliced.busy().unwrap();
        assert!(busy.to_string().starts_with("replaying to 9.2 s"), "{busy}");
        sliced.work(4.0, &clock);
        frames += 1;
    }
    assert!(frames > 2, "replayed in {frames} frames");
    assert_eq!(sliced.sim().now(), Tick::from_ms(9_250));
    assert_eq!(sliced.sim().trace_hash(), at_once.sim().trace_hash());
    assert_eq!(sliced.log(), at_once.log(), "the console's log is rebuilt");
}

#[test]
fn a_statement_sent_while_the_server_builds_is_refused_and_said_so() {
    let mut r =
        Runner::starting(DEFAULT_SCENARIO, None, "mysql-5.7", &Knobs::default(), 0).unwrap();
    let session = r.sim().console_session();
    let e = r.submit(session, "SELECT 1").unwrap_err();
    assert!(
        e.starts_with("Not sent: the server is building the buffer pool"),
        "{e}"
    );
    assert!(r.log().iter().any(|l| l.error && l.result == e), "logged");
    r.settle();
    let session = r.sim().console_session();
    assert_eq!(r.submit(session, "SELECT 1"), Ok(1), "accepted once built");
}

#[test]
fn what_waits_for_the_engines_runs_once_they_settle() {
    let r = Runner::starting(DEFAULT_SCENARIO, None, "mysql-5.7", &Knobs::default(), 0).unwrap();
    let mut e = Engines::new(r);
    let ran = std::rc::Rc::new(std::cell::Cell::new(Tick::ZERO));
    let seen = ran.clone();
    e.when_settled(move |e| {
        seen.set(e.main().sim().now());
        e.go_to(Tick::from_secs(2));
    });
    assert_eq!(ran.get(), Tick::ZERO);
    let clock = ticking(1.0);
    while !e.work(3.0, &clock) {}
    assert_eq!(
        e.main().sim().now(),
        Tick::from_secs(2),
        "the run it asked for"
    );
    assert!(e.busy().is_none());
}

#[test]
fn a_step_runs_a_slice_a_frame_and_lands_where_the_step_at_once_does() {
    let mut at_once = Engines::new(Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap());
    let mut sliced = Engines::new(Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap());
    for e in [&mut at_once, &mut sliced] {
        e.settle();
        e.set_clock(false, 1.0);
    }
    at_once.step_event();
    // A clock that moves a millisecond each time it is read: a 5 ms budget is a few
    // events' work.
    let ms = std::cell::Cell::new(0.0);
    let clock = || {
        ms.set(ms.get() + 1.0);
        ms.get()
    };
    sliced.step_event_within(5.0, &clock);
    let mut frames = 0;
    while let Some(busy) = sliced.busy() {
        assert!(matches!(busy, Busy::Stepping { .. }), "{busy}");
        assert!(
            busy.to_string().starts_with("running to the next event"),
            "{busy}"
        );
        sliced.work(5.0, &clock);
        frames += 1;
    }
    assert!(frames > 1, "the step took {frames} frames");
    assert!(at_once.main().sim().now() > Tick::ZERO);
    assert_eq!(sliced.main().sim().now(), at_once.main().sim().now());
}

#[test]
fn adopted_inputs_undo_a_statement_the_main_engine_dropped_and_land_as_it_does() {
    // The compare engine has applied a DROP the main engine's history no longer has
    // (typed over after a seek back); it is a little past where the branch was.
    let mut follower = Runner::new(DEFAULT_SCENARIO, "mysql-8.0.23", 0).unwrap();
    follower.advance(100.0, &|| 0.0);
    assert_eq!(follower.execute("DROP TABLE t1"), Ok(1));
    follower.advance(300.0, &|| 0.0);
    let mut main = Runner::new(DEFAULT_SCENARIO, "mysql-8.0.23", 0).unwrap();
    main.advance(50.0, &|| 0.0);
    assert_eq!(main.execute("SELECT 1"), Ok(1));
    assert_eq!(follower.sim().now(), Tick::from_ms(400));
    follower.adopt_inputs(main.inputs().to_vec());
    assert!(follower.sim().now() <= Tick::from_ms(50), "replayed back");
    follower.go_to(Tick::from_ms(400));
    main.go_to(Tick::from_ms(400));
    let mut both = [follower, main].map(Engines::new);
    for e in &mut both {
        e.settle();
    }
    assert_eq!(state(both[0].main()), state(both[1].main()));
    assert_eq!(
        both[0].main().sim().trace_hash(),
        both[1].main().sim().trace_hash()
    );
}

#[test]
fn a_compare_engine_a_frame_ahead_takes_a_statement_at_the_main_engines_tick() {
    let mut e = Engines::new(Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap());
    e.compare(Some("mysql-8.0.23"), &Knobs::default()).unwrap();
    e.settle();
    for _ in 0..5 {
        e.advance(100.0, STEP_BUDGET_MS, &|| 0.0);
    }
    // The main engine ran out of its budget in the last frame: the compare engine
    // is 30 virtual ms ahead of it when the statement is typed.
    let ahead = e.panes[1].sim().now() + Tick::from_ms(30);
    e.panes[1].run_to(ahead, f64::INFINITY, &|| 0.0);
    let at = e.panes[0].sim().now();
    let session = e.panes[0].sim().console_session();
    assert_eq!(e.submit(session, "DROP TABLE t1"), Ok(1));
    e.settle();
    for _ in 0..10 {
        e.advance(100.0, STEP_BUDGET_MS, &|| 0.0);
    }
    for r in &e.panes {
        assert_eq!(r.inputs().last().map(|i| i.at), Some(at), "{}", r.profile());
    }
    // What a link of this moment replays: the same ticks, the same runs.
    let state =
        crate::model::replay::capture(&e, &crate::model::panel_layout::PanelLayout::default());
    let mut again = crate::model::replay::open(&state, 1).unwrap();
    again.settle();
    assert_eq!(again.panes.len(), 2);
    for (a, b) in e.panes.iter().zip(&again.panes) {
        assert_eq!(a.sim().now(), b.sim().now());
        assert_eq!(
            a.sim().trace_hash(),
            b.sim().trace_hash(),
            "{} as its link replays it",
            a.profile()
        );
    }
}

#[test]
fn a_fork_runs_on_to_the_state_the_original_reaches_and_takes_its_checkpoints() {
    let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
    for _ in 0..60 {
        r.advance(100.0, &|| 0.0);
    }
    r.execute("DROP TABLE t2").unwrap();
    r.digest();
    let mut copy = r.fork().expect("settled: forked");
    assert!(copy.checkpoints.is_empty(), "the original's memory stays");
    assert_eq!(state(&copy), state(&r));
    // The original plays on; the copy runs there in one go.
    for _ in 0..40 {
        r.advance(100.0, &|| 0.0);
    }
    copy.go_to(r.sim().now());
    while !copy.work(f64::INFINITY, &|| 0.0) {}
    r.digest();
    copy.digest();
    assert_eq!(state(&copy), state(&r));
    assert_eq!(copy.log(), r.log(), "the same console log");
    assert!(copy.checkpoints.is_empty(), "none taken on its way");
    let times = |r: &Runner| {
        r.checkpoints
            .iter()
            .map(|c| c.sim.now())
            .collect::<Vec<_>>()
    };
    let theirs = times(&r);
    assert!(theirs.len() >= 2, "{theirs:?}");
    copy.take_checkpoints(&mut r);
    assert_eq!(times(&copy), theirs, "taken");
    let at = state(&copy);
    copy.seek(Tick::from_ms(2_000));
    copy.seek(at.1);
    assert_eq!(state(&copy), at, "seeks back and forth from them");
    // Busy (on its way to a moment): not forked.
    copy.go_to(at.1 + Tick::SECOND);
    assert!(copy.fork().is_none());
}
