//! DROP TABLE, both ways, on the demo scenario: what a user sees in the pool.

use ddlscope_engine::{EventKind, LatchId, Sim, SpaceId, Tick};

fn sim(profile: &str) -> Sim {
    sim_with(profile, true)
}

fn sim_with(profile: &str, ahi: bool) -> Sim {
    sim_hashed(profile, ahi, 0)
}

/// `warm_ahi_pct` of t1's cached leaves carry AHI entries: the workload reads t2 only,
/// so t1's entries can only come from earlier traffic.
fn sim_hashed(profile: &str, ahi: bool, warm_ahi_pct: u32) -> Sim {
    let mut s = ddlscope_engine::Scenario::builtin("drop-table-demo").unwrap();
    // The test issues the DROP itself.
    s.script.clear();
    s.innodb.adaptive_hash_index = ahi;
    s.buffer_pool.warm_ahi_pct = warm_ahi_pct;
    Sim::new(s, ddlscope_engine::Profile::builtin(profile).unwrap()).unwrap()
}

const T1: SpaceId = SpaceId(1);

#[test]
fn the_warm_pool_is_full_and_stays_full() {
    let mut s = sim("mysql-5.7");
    s.pool().validate();
    let depth =
        u64::from(s.scenario().buffer_pool.lru_scan_depth) * u64::from(s.pool().n_instances());
    assert_eq!(
        s.pool().pages_free(),
        depth,
        "warm-up leaves lru_scan_depth free per instance"
    );
    s.run_until(Tick::from_secs(5));
    s.pool().validate();
    let last = s.samples().last().unwrap().clone();
    assert_eq!(last.t_s, 5);
    assert!(last.qps > 1000, "the workload runs: {last:?}");
    assert!(
        last.reads > 0 && last.reads < last.read_requests,
        "{last:?}"
    );
    assert!(
        last.pages_free <= depth + 64,
        "the pool stays full: {last:?}"
    );
    assert!(s.pool().resident_pages(T1) > 10_000);
}

#[test]
fn mysql_57_sweeps_every_lru_list_under_the_pool_mutex() {
    let mut s = sim("mysql-5.7");
    s.run_until(Tick::from_secs(3));
    let resident = s.pool().resident_pages(T1);
    let free_before = s.pool().pages_free();
    s.execute("DROP TABLE t1").unwrap();
    s.run_until(Tick::from_secs(8));
    s.pool().validate();
    assert_eq!(
        s.pool().resident_pages(T1),
        0,
        "every page of t1 left the pool"
    );
    let scans: Vec<_> = s
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Scan {
                instance,
                from,
                to,
                t0,
                t1,
                latch,
                ..
            } => Some((*instance, *from, *to, *t0, *t1, *latch)),
            _ => None,
        })
        .collect();
    assert_eq!(scans.len(), 4, "one scan per instance: {scans:?}");
    for (i, (inst, from, to, t0, t1, latch)) in scans.iter().enumerate() {
        assert_eq!(*inst as usize, i);
        assert_eq!(*latch, LatchId::BufPool(*inst));
        assert_eq!(*from, 0);
        assert!(*to > 60_000, "the whole LRU list of a 1 GB instance: {to}");
        let per_page = s.profile().costs.lru_scan_ns_per_page;
        assert_eq!(
            *t1 - *t0,
            Tick(per_page).times(u64::from(*to)),
            "the profile's cost a page"
        );
    }
    let finished = s.events().iter().find_map(|e| match &e.kind {
        EventKind::StatementFinished { result, error, .. } => Some((result.clone(), *error)),
        _ => None,
    });
    let (result, error) = finished.expect("the DROP finished");
    assert!(
        !error && result.starts_with("Query OK, 0 rows affected"),
        "{result}"
    );
    // The freed pages show up as free pages at once.
    let jump = s.samples().iter().map(|x| x.pages_free).max().unwrap() - free_before;
    // Reads take some of the freed blocks before the next sample.
    assert!(
        jump as f64 > 0.8 * resident as f64,
        "free pages jump by about {resident}: {jump}"
    );
}

#[test]
fn mysql_8023_leaves_stale_pages_that_the_lru_tail_reclaims() {
    let mut s = sim_hashed("mysql-8.0.23", true, 5);
    s.run_until(Tick::from_secs(3));
    let resident = s.pool().resident_pages(T1);
    s.execute("DROP TABLE t1").unwrap();
    let finished = |s: &Sim| {
        s.events()
            .iter()
            .any(|e| matches!(e.kind, EventKind::StatementFinished { .. }))
    };
    while !finished(&s) && s.now() < Tick::from_secs(20) {
        s.run_for(Tick::from_ms(10));
    }
    assert!(finished(&s), "the DROP finished");
    // 8.0's only scans look for hashed pages (btr_drop_ahi_for_table); none frees a page.
    assert!(
        s.events()
            .iter()
            .any(|e| matches!(e.kind, EventKind::AhiCleanupDone { .. })),
        "the AHI entries were dropped"
    );
    let stale_now = s.pool().pages_stale();
    assert!(
        stale_now > resident / 2,
        "right after the DROP most of t1 is stale: {stale_now} of {resident}"
    );
    // The workload's misses on t2 move the LRU tail, which frees the stale pages it
    // meets. t2's hot set (sysbench's special distribution) is mostly cached, so the tail
    // moves a few hundred pages a second: about a fifth of t1 goes in 27 s.
    s.run_until(Tick::from_secs(30));
    s.pool().validate();
    let stale_later = s.pool().pages_stale();
    assert!(
        stale_later < stale_now / 100 * 85,
        "the LRU tail reclaims stale pages: {stale_now} -> {stale_later}"
    );
    assert!(s.pool().stats().stale_freed > 0);
}

#[test]
fn the_57_drop_stalls_reads_and_8023_does_not() {
    // AHI off, to compare the evictions alone: with it on, 8.0's btr_drop_ahi_for_table
    // holds each LRU mutex while it collects hashed pages, and stalls reads too.
    let worst_qps = |profile: &str| {
        let mut s = sim_with(profile, false);
        s.run_until(Tick::from_secs(3));
        s.execute("DROP TABLE t1").unwrap();
        s.run_until(Tick::from_secs(8));
        let max_latency = s.samples()[3..]
            .iter()
            .map(|x| x.latency_max_ms)
            .fold(0.0, f64::max);
        let dict_hold = s
            .events()
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::LatchHeld {
                    latch: LatchId::DictSys,
                    t0,
                    t1,
                    ..
                } => Some(t1 - t0),
                _ => None,
            })
            .max()
            .unwrap_or(Tick::ZERO);
        (max_latency, dict_hold)
    };
    // While 5.7 scans an instance, the sessions that need a free block there queue for
    // its mutex; the processlist shows them.
    let mut s = sim("mysql-5.7");
    s.run_until(Tick::from_secs(3));
    s.execute("DROP TABLE t1").unwrap();
    // Run to the middle of the first instance's scan (after the AHI cleanup).
    let mut mid = None;
    while mid.is_none() && s.now() < Tick::from_secs(10) {
        s.run_for(Tick::from_ms(1));
        mid = s.events().iter().find_map(|e| match e.kind {
            EventKind::Scan {
                instance: 0,
                t0,
                t1,
                ..
            } => Some(t0 + Tick((t1 - t0).as_ns() / 2)),
            _ => None,
        });
    }
    s.run_until(mid.expect("the 5.7 DROP scans instance 0"));
    let waiting = s
        .sessions()
        .iter()
        .filter(|v| v.waiting_for == Some(LatchId::BufPool(0)))
        .count();
    assert!(
        waiting >= 4,
        "sessions queue behind the scan of instance 0: {:?}",
        s.sessions()
    );
    // The second that holds the scan samples at least as many latch waiters as the
    // processlist shows in its middle, though the scan is over when it closes.
    assert!(s.waiting_now().latch >= waiting as u64);
    let scan_second = s.now().as_secs() + 1;
    s.run_until(Tick::from_secs(scan_second));
    let sample = s.samples().last().unwrap();
    assert_eq!(sample.t_s, scan_second);
    assert!(
        sample.latch_waits >= waiting as u64,
        "{waiting} waiting mid-scan, the sample says {}",
        sample.latch_waits
    );
    assert_eq!(sample.mdl_waits + sample.row_lock_waits, 0, "{sample:?}");
    let before: Vec<u64> = s.samples()[..3].iter().map(|x| x.latch_waits).collect();
    assert!(
        before.iter().all(|&n| n < waiting as u64),
        "no such queue before the DROP: {before:?}"
    );
    let (lat57, dict57) = worst_qps("mysql-5.7");
    let (lat80, dict80) = worst_qps("mysql-8.0.23");
    assert!(
        lat57 > 5.0,
        "a read waits behind a whole-instance scan: {lat57} ms"
    );
    assert!(
        lat80 < lat57 / 4.0,
        "8.0.23 does not stall reads: {lat80} vs {lat57} ms"
    );
    assert!(
        dict57 > dict80.times(10),
        "5.7 holds dict_sys across scan and unlink: {dict57} vs {dict80}"
    );
}

#[test]
fn bad_statements_are_refused_and_change_nothing() {
    let mut s = sim("mysql-5.7");
    s.run_until(Tick::from_secs(2));
    let events = s.events().len();
    // A syntax error is refused at once and nothing runs.
    assert!(s
        .execute("DROP TABL t1")
        .unwrap_err()
        .to_string()
        .starts_with("ERROR 1064 (42000)"));
    assert_eq!(s.events().len(), events, "nothing ran");
    // Unknown tables are found once the statement holds its metadata locks, as in the
    // server: the statement fails and drops nothing, not even the tables it knows.
    s.execute("DROP TABLE nope").unwrap();
    s.execute("DROP TABLE t1, nope").unwrap();
    s.execute("DROP TABLE IF EXISTS nope").unwrap();
    s.run_until(Tick::from_secs(3));
    let outputs: Vec<String> = s
        .statements()
        .iter()
        .map(|r| r.client_output().unwrap())
        .collect();
    assert_eq!(outputs[0], "ERROR 1051 (42S02): Unknown table 'test.nope'");
    assert_eq!(outputs[1], "ERROR 1051 (42S02): Unknown table 'test.nope'");
    assert!(
        outputs[2].starts_with("Query OK, 0 rows affected"),
        "IF EXISTS makes it a no-op: {}",
        outputs[2]
    );
    assert!(s.tables().all(|t| !t.dropped));
    let console = s.console_session();
    assert!(
        s.metadata_locks().iter().all(|l| l.owner.0 != console),
        "no lock left behind"
    );
}

#[test]
fn on_a_32_gb_pool_8_0_22_walks_every_lru_list_and_8_0_23_does_not() {
    // drop-table-80-32g: DROP TABLE t1 (4 GB, cached) at 10 s on a 32 GB, 8-instance
    // pool under a read workload on t2.
    let run = |profile: &str| {
        let s = ddlscope_engine::Scenario::builtin("drop-table-80-32g").unwrap();
        let p = ddlscope_engine::Profile::builtin(profile).unwrap();
        let mut sim = Sim::new(s, p).unwrap();
        sim.run_until(Tick::from_secs(14));
        sim
    };
    let lru_scans = |sim: &Sim| {
        sim.events()
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    EventKind::Scan {
                        list: ddlscope_engine::ListKind::Lru,
                        ..
                    }
                )
            })
            .count()
    };
    let worst_ms = |sim: &Sim| {
        sim.samples()
            .iter()
            .filter(|s| s.t_s > 10)
            .map(|s| s.latency_max_ms)
            .fold(0.0, f64::max)
    };
    let old = run("mysql-8.0.22");
    let new = run("mysql-8.0.23");
    // 8.0.22: buf_LRU_flush_or_remove_pages() walks each instance's LRU list under its
    // mutex; a read that needs the mutex waits for the walk.
    assert_eq!(lru_scans(&old), 8);
    assert!(worst_ms(&old) > 10.0, "8.0.22 worst {} ms", worst_ms(&old));
    // 8.0.23: a version bump, no walk; reads never wait for the DROP.
    assert_eq!(lru_scans(&new), 0);
    assert!(worst_ms(&new) < 2.0, "8.0.23 worst {} ms", worst_ms(&new));
}
