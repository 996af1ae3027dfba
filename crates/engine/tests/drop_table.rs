//! DROP TABLE, both ways, on the demo scenario: what a user sees in the pool.

use ddlscope_engine::{EventKind, LatchId, Sim, SpaceId, Tick};

fn sim(profile: &str) -> Sim {
    sim_with(profile, true)
}

fn sim_with(profile: &str, ahi: bool) -> Sim {
    let mut s = ddlscope_engine::Scenario::builtin("drop-table-demo").unwrap();
    // The test issues the DROP itself.
    s.script.clear();
    s.innodb.adaptive_hash_index = ahi;
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
    let mut s = sim("mysql-8.0.23");
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
    s.run_until(Tick::from_secs(30));
    s.pool().validate();
    let stale_later = s.pool().pages_stale();
    assert!(
        stale_later < stale_now / 10 * 7,
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
    let e = s.execute("DROP TABLE nope").unwrap_err();
    assert_eq!(
        e.to_string(),
        "ERROR 1051 (42S02): Unknown table 'test.nope'"
    );
    let e = s.execute("DROP TABLE t1, nope").unwrap_err();
    assert_eq!(e.code, 1051);
    assert!(s
        .execute("DROP TABL t1")
        .unwrap_err()
        .to_string()
        .starts_with("ERROR 1064 (42000)"));
    assert_eq!(s.events().len(), events, "nothing ran");
    assert!(s.tables().iter().all(|t| !t.dropped));
    assert!(
        s.execute("DROP TABLE IF EXISTS nope").is_ok(),
        "IF EXISTS makes it a no-op"
    );
    s.run_until(Tick::from_secs(3));
    assert!(s.tables().iter().all(|t| !t.dropped));
    assert!(s.commands().len() == 1);
}
