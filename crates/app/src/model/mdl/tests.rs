//! The view's tests, on queues built by a real [`Sim`]: console sessions run the
//! statements, and the `console` list given to [`MdlView::build`] says which of them
//! count as the presenter's (the others group as the workload's clients would).

use super::*;

/// The demo on 5.7 with `n` console sessions connected, and their ids.
fn sim_with_sessions(n: usize) -> (Sim, Vec<u32>) {
    let mut sim = Sim::builtin("drop-table-demo", Some("mysql-5.7")).unwrap();
    let ids = (0..n).map(|_| sim.connect()).collect();
    (sim, ids)
}

/// The lock named `name` in `view`.
fn lock<'a>(view: &'a MdlView, name: &str) -> &'a LockView {
    view.locks
        .iter()
        .find(|l| l.name == name)
        .unwrap_or_else(|| panic!("{name}: {view:#?}"))
}

/// On the demo's idle t1: one presenter's open transaction holds SHARED_READ, 20
/// other sessions' open transactions too (grouped as workload clients), the
/// presenter's second session's ALTER holds SHARED_UPGRADABLE and waits for
/// EXCLUSIVE, then 8 SELECTs and 4 UPDATEs queue behind it. Returns the view and the
/// two presenter sessions.
pub(crate) fn alter_behind_readers() -> (MdlView, [u32; 2]) {
    let (mut sim, ids) = sim_with_sessions(34);
    let (presenter, alter) = (ids[0], ids[1]);
    sim.submit_to(presenter, "BEGIN; SELECT * FROM t1 WHERE id = 1")
        .unwrap();
    for &s in &ids[2..22] {
        sim.run_for(Tick::from_ms(100));
        sim.submit_to(s, "BEGIN; SELECT * FROM t1 WHERE id = 1")
            .unwrap();
    }
    sim.run_for(Tick::from_secs(1));
    sim.submit_to(alter, "ALTER TABLE t1 ADD INDEX k2 (k)")
        .unwrap();
    sim.run_for(Tick::from_secs(1));
    for &s in &ids[22..30] {
        sim.submit_to(s, "SELECT * FROM t1 WHERE id = 2").unwrap();
    }
    sim.run_for(Tick::from_secs(1));
    for &s in &ids[30..34] {
        sim.submit_to(s, "UPDATE t1 SET k = k + 1 WHERE id = 3")
            .unwrap();
    }
    sim.run_for(Tick::from_secs(2));
    let view = MdlView::build(&sim.mdl_queues(), sim.now(), &[presenter, alter]);
    (view, [presenter, alter])
}

/// LOCK TABLES t1 WRITE, then 20 sessions alternating SELECT and UPDATE on t1: each
/// its own run, more runs than rows shown. Returns the view.
pub(crate) fn long_queue() -> MdlView {
    let (mut sim, ids) = sim_with_sessions(21);
    sim.submit_to(ids[0], "LOCK TABLES t1 WRITE").unwrap();
    sim.run_for(Tick::from_ms(100));
    for (i, &s) in ids[1..].iter().enumerate() {
        let sql = if i % 2 == 0 {
            "SELECT * FROM t1 WHERE id = 1"
        } else {
            "UPDATE t1 SET k = k + 1 WHERE id = 1"
        };
        sim.submit_to(s, sql).unwrap();
        sim.run_for(Tick::from_ms(10));
    }
    sim.run_for(Tick::from_secs(1));
    MdlView::build(&sim.mdl_queues(), sim.now(), &ids[..1])
}

/// The lock rows of `view` as text: one line per row, `>` and the target rows for
/// its arrows.
fn render(view: &MdlView) -> String {
    let mut out = String::new();
    for l in &view.locks {
        out.push_str(&format!(
            "{} [{} granted, {} waiting, {} hidden]\n",
            l.title(),
            l.granted,
            l.waiting,
            l.hidden_waiting
        ));
        for (i, r) in l.rows.iter().enumerate() {
            let arrows = if r.waits_for.is_empty() {
                String::new()
            } else {
                format!(" > {:?}", r.waits_for)
            };
            out.push_str(&format!(
                "  {i} {} {} {} | {} | {}{arrows}\n",
                if r.granted { "GRANTED" } else { "PENDING" },
                r.lock_type,
                r.duration,
                r.sessions_text(),
                r.age_text(),
            ));
        }
    }
    out
}

#[test]
fn workload_sessions_are_grouped_and_a_console_session_stands_alone() {
    let (view, [presenter, alter]) = alter_behind_readers();
    assert!(
        view.locks.iter().all(|l| l.object_type == "TABLE"),
        "a GLOBAL IX is not worth a card: {view:#?}"
    );
    let t1 = MdlView {
        locks: vec![lock(&view, "test.t1").clone()],
    };
    expect_test::expect![[r#"
        test.t1 [22 granted, 13 waiting, 0 hidden]
          0 GRANTED SHARED_READ TRANSACTION | session 18 | held 6.9 s
          1 GRANTED SHARED_READ TRANSACTION | 20 sessions: 20, 21, 22, 23, 24, 25, 26, 27, … | held up to 6.8 s
          2 GRANTED SHARED_UPGRADABLE TRANSACTION | session 19 | held 3.9 s
          3 PENDING EXCLUSIVE TRANSACTION | session 19 | waiting 3.9 s > [0, 1]
          4 PENDING SHARED_READ TRANSACTION | 8 sessions: 40, 41, 42, 43, 44, 45, 46, 47 | waiting up to 2.9 s > [3]
          5 PENDING SHARED_WRITE TRANSACTION | 4 sessions: 48, 49, 50, 51 | waiting up to 1.9 s > [3]
    "#]]
    .assert_eq(&render(&t1));
    let l = &t1.locks[0];
    assert_eq!(l.rows[0].sessions, [presenter]);
    assert_eq!(
        l.waits_for_text(3),
        format!("waits for {presenter} (SHARED_READ), 20 sessions (SHARED_READ)")
    );
    assert_eq!(
        l.waits_for_text(4),
        format!("waits for {alter} (EXCLUSIVE, pending)")
    );
    assert_eq!(l.rows[1].oldest, l.rows[1].sessions[0], "the first reader");
    assert!(l.rows.iter().any(|r| r.granted && r.sessions == [alter]));
}

#[test]
fn a_long_queue_shows_its_first_rows_and_counts_the_rest() {
    let view = long_queue();
    let l = lock(&view, "test.t1");
    assert_eq!(l.rows.len(), 1 + MAX_WAITING_ROWS, "{l:#?}");
    assert_eq!(l.hidden_waiting, 20 - MAX_WAITING_ROWS as u32);
    assert!(l.rows[0].granted);
    assert!(l.rows[1..].iter().all(|r| r.waits_for == [0]), "{l:#?}");
}

#[test]
fn nothing_held_is_the_empty_view() {
    let sim = Sim::builtin("drop-table-demo", Some("mysql-5.7")).unwrap();
    assert!(mdl_view(&sim).is_empty(), "nothing runs at time zero");
    assert!(MdlView::build(&[], Tick::ZERO, &[]).is_empty());
}

/// The real engine: the demo's 16 sysbench clients read t2; on the idle t1 an open
/// transaction's SELECT holds SHARED_READ, an ALTER's EXCLUSIVE waits for it, and a
/// later SELECT queues behind the pending EXCLUSIVE.
#[test]
fn an_alter_behind_an_open_transaction_in_a_real_sim() {
    let mut sim = Sim::builtin("drop-table-demo", Some("mysql-5.7")).unwrap();
    let s1 = sim.connect();
    let s2 = sim.connect();
    let s3 = sim.connect();
    sim.submit_to(s1, "BEGIN; SELECT * FROM t1 WHERE id = 1")
        .unwrap();
    sim.run_for(Tick::from_ms(500));
    sim.submit_to(s2, "ALTER TABLE t1 ADD INDEX k2 (k)")
        .unwrap();
    sim.run_for(Tick::from_ms(500));
    sim.submit_to(s3, "SELECT * FROM t1 WHERE id = 2").unwrap();
    sim.run_for(Tick::from_ms(1000));
    let view = mdl_view(&sim);
    let titles: Vec<String> = view.locks.iter().map(LockView::title).collect();
    assert_eq!(titles, ["test.t1", "test.t2"], "tables only: {view:#?}");

    let t1 = &view.locks[0];
    let find = |granted: bool, session: u32| {
        t1.rows
            .iter()
            .position(|r| r.granted == granted && r.sessions == [session])
            .unwrap_or_else(|| panic!("{granted} {session}: {t1:#?}"))
    };
    let held = &t1.rows[find(true, s1)];
    assert_eq!(
        (&*held.lock_type, &*held.duration),
        ("SHARED_READ", "TRANSACTION")
    );
    // Taken a moment after the statement was sent, 2 s ago.
    assert!(held.age > Tick::from_ms(1900) && held.age <= Tick::from_secs(2));
    assert_eq!(held.age_text(), format!("held {}", age(held.age)));
    let x = find(false, s2);
    assert_eq!(t1.rows[x].lock_type, "EXCLUSIVE");
    let waited = t1.rows[x].age;
    assert!(waited > Tick::from_ms(1400) && waited <= Tick::from_ms(1500));
    assert!(t1.rows[x].age_text().starts_with("waiting 1."));
    assert_eq!(t1.rows[x].waits_for, [find(true, s1) as u16]);
    assert_eq!(
        t1.waits_for_text(x),
        format!("waits for {s1} (SHARED_READ)")
    );
    let sel = find(false, s3);
    assert!(sel > x, "queue order");
    assert_eq!(t1.rows[sel].lock_type, "SHARED_READ");
    assert_eq!(t1.rows[sel].waits_for, [x as u16], "behind the pending X");
    assert!(
        t1.rows.iter().any(|r| r.granted && r.sessions == [s2]),
        "{t1:#?}"
    );
    assert_eq!(
        view.blockers(),
        [s1],
        "the open transaction; the ALTER's own SU blocks nobody"
    );

    // t2: the workload's readers, in one row. How many hold SHARED_READ at this
    // instant is the run's (autocommit point selects of 0.3 ms between round trips);
    // that several are grouped is `workload_sessions_are_grouped_...`'s to check.
    let t2 = &view.locks[1];
    assert_eq!(t2.waiting, 0);
    assert_eq!(t2.rows.len(), 1, "{t2:#?}");
    assert_eq!(
        (&*t2.rows[0].lock_type, &*t2.rows[0].duration),
        ("SHARED_READ", "TRANSACTION")
    );
    assert!(!t2.rows[0].sessions.is_empty(), "{t2:#?}");
    assert!(t2.rows[0]
        .sessions
        .iter()
        .all(|s| ![s1, s2, s3].contains(s)));

    // COMMIT: the ALTER gets its EXCLUSIVE, prepares, goes back to SHARED_UPGRADABLE
    // and builds the index (1.5 GB: for a while); the queued SELECT runs meanwhile.
    sim.submit_to(s1, "COMMIT").unwrap();
    sim.run_for(Tick::from_secs(2));
    let view = mdl_view(&sim);
    let t1 = &view.locks[0];
    assert_eq!((t1.name.as_str(), t1.waiting), ("test.t1", 0), "{t1:#?}");
    let holders: Vec<(&[u32], &str)> = t1
        .rows
        .iter()
        .map(|r| (r.sessions.as_slice(), &*r.lock_type))
        .collect();
    assert_eq!(holders, [(&[s2][..], "SHARED_UPGRADABLE")]);
    assert!(
        t1.rows[0].age > Tick::from_secs(3),
        "held since the ALTER began"
    );
}

/// LOCK TABLES t2 WRITE under the demo's workload: the 16 sysbench clients queue
/// for t2 and show as one waiting row with one arrow to the console session.
#[test]
fn the_workload_queued_behind_lock_tables_is_one_row() {
    let mut sim = Sim::builtin("drop-table-demo", Some("mysql-5.7")).unwrap();
    sim.run_for(Tick::from_ms(500));
    let me = sim.console_session();
    sim.execute("LOCK TABLES t2 WRITE").unwrap();
    sim.run_for(Tick::from_ms(1000));
    let view = mdl_view(&sim);
    let t2 = view.locks.iter().find(|l| l.name == "test.t2").unwrap();
    assert_eq!(t2.rows.len(), 2, "{t2:#?}");
    let (held, queue) = (&t2.rows[0], &t2.rows[1]);
    assert_eq!(
        (
            held.granted,
            &*held.lock_type,
            &*held.duration,
            held.sessions.as_slice()
        ),
        (true, "SHARED_NO_READ_WRITE", "EXPLICIT", &[me][..])
    );
    assert_eq!((queue.granted, &*queue.lock_type), (false, "SHARED_READ"));
    assert_eq!(queue.sessions.len(), 16, "{queue:#?}");
    assert_eq!(queue.waits_for, [0]);
    assert_eq!(
        t2.waits_for_text(1),
        format!("waits for {me} (SHARED_NO_READ_WRITE)")
    );
    let rows = crate::model::processlist::proc_rows(&sim);
    assert!(
        crate::model::processlist::summary(&rows).contains("16 Waiting for table metadata lock"),
        "{}",
        crate::model::processlist::summary(&rows)
    );
}
