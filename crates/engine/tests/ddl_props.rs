//! Property runs over DDL: whatever the profile, seed and moment of the DROP, once the
//! statement has finished no page of the dropped tablespace version is reachable as live
//! data, the dictionary and table-open latches are free, and the pool's invariants hold.

use ddlscope_engine::bufpool::{Lookup, PageId};
use ddlscope_engine::{EventKind, LatchId, Profile, Scenario, Sim, Tick};

const SCENARIO: &str = r#"
name = "ddl-props"
title = "small pool, three tables, DROP at a random moment"
profile = "mysql-5.7"
seconds = 10

[buffer_pool]
size = "64M"
instances = 2

[server]
replication_plugin = true

[ha_probe]
enabled = true

[[tables]]
name = "a"
rows = 60000

[[tables]]
name = "b"
rows = 200000

[[tables]]
name = "c"
rows = 100000

[workload]
kind = "oltp_read_write"
threads = 6
tables = ["b", "c"]
distribution = "uniform"
round_trip_us = 200
"#;

fn check(profile: &str, seed: u64) {
    let mut scenario = Scenario::from_toml(SCENARIO).unwrap();
    scenario.seed = seed;
    scenario.innodb.adaptive_hash_index = seed.is_multiple_of(2);
    scenario.buffer_pool.warm_ahi_pct = (seed % 3) as u32 * 40;
    let mut sim = Sim::new(scenario, Profile::builtin(profile).unwrap()).unwrap();
    let at = Tick::from_ms(500 + seed * 137 % 2000);
    sim.run_until(at);
    let victim = if seed.is_multiple_of(3) {
        "DROP TABLE a, c"
    } else {
        "DROP TABLE a"
    };
    sim.execute(victim).unwrap();
    let done = |sim: &Sim| {
        sim.events()
            .iter()
            .any(|e| matches!(e.kind, EventKind::StatementFinished { .. }))
    };
    while !done(&sim) && sim.now() < Tick::from_secs(120) {
        sim.run_for(Tick::from_ms(50));
    }
    assert!(done(&sim), "{profile} seed {seed}: the DROP finished");
    // A little longer: 8.0's post-DDL unlink and AliSQL's purge run after the result.
    sim.run_for(Tick::from_secs(1));
    sim.pool().validate();
    for t in sim.tables().iter().filter(|t| t.dropped) {
        for page_no in 0..t.pages {
            let l = sim.pool().lookup(PageId {
                space: t.space,
                page_no,
            });
            assert!(
                matches!(l, Lookup::Miss | Lookup::Stale(_)),
                "{profile} seed {seed}: page {page_no} of dropped {} is live: {l:?}",
                t.name
            );
        }
    }
    for latch in [LatchId::DictSys, LatchId::LockOpen, LatchId::FilSys] {
        assert_eq!(
            sim.latch(latch).holder(),
            None,
            "{profile} seed {seed}: {latch} is free"
        );
    }
    // The workload carried on: statements kept finishing after the DROP.
    assert!(
        sim.samples().last().unwrap().qps > 0,
        "{profile} seed {seed}"
    );
}

#[test]
fn after_any_drop_no_dropped_page_is_live_and_the_latches_are_free() {
    for profile in ["mysql-5.1", "mysql-5.7", "alisql-5.7", "mysql-8.0.23"] {
        for seed in 1..=6 {
            check(profile, seed);
        }
    }
}

/// Runs `sql` at a seed-chosen moment and until it finishes; returns the sim.
fn run_ddl(profile: &str, seed: u64, sql: &str) -> Sim {
    let mut scenario = Scenario::from_toml(SCENARIO).unwrap();
    scenario.seed = seed;
    scenario.innodb.adaptive_hash_index = seed.is_multiple_of(2);
    scenario.buffer_pool.warm_ahi_pct = (seed % 3) as u32 * 40;
    scenario.server.cpus = (seed % 3) as u32;
    // The DDL's table is under the workload too.
    scenario.workload.tables = vec!["a".into(), "b".into()];
    let mut sim = Sim::new(scenario, Profile::builtin(profile).unwrap()).unwrap();
    sim.run_until(Tick::from_ms(500 + seed * 137 % 2000));
    sim.execute(sql).unwrap();
    let done = |sim: &Sim| {
        sim.events()
            .iter()
            .any(|e| matches!(e.kind, EventKind::StatementFinished { .. }))
    };
    while !done(&sim) && sim.now() < Tick::from_secs(120) {
        sim.run_for(Tick::from_ms(50));
    }
    assert!(done(&sim), "{profile} seed {seed}: {sql} finished");
    sim.run_for(Tick::from_secs(1));
    sim.pool().validate();
    for latch in [LatchId::DictSys, LatchId::LockOpen, LatchId::FilSys] {
        assert_eq!(
            sim.latch(latch).holder(),
            None,
            "{profile} seed {seed}: {latch} is free after {sql}"
        );
    }
    assert!(
        sim.samples().last().unwrap().qps > 0,
        "{profile} seed {seed}: the workload goes on after {sql}"
    );
    sim
}

#[test]
fn after_any_truncate_no_page_of_the_old_table_is_live() {
    for profile in [
        "mysql-5.7",
        "mysql-8.0.22",
        "mysql-8.0.23",
        "alisql-5.7",
        "mysql-8.4",
    ] {
        for seed in 1..=4 {
            let mut sim = run_ddl(profile, seed, "TRUNCATE TABLE a");
            let t = sim.tables()[0].clone();
            assert_eq!(t.name, "a");
            assert!(!t.dropped);
            // Space 1 was table a's: either it is the same space, live only within the
            // new (empty) layout, or a new space and nothing of space 1 is live.
            let old = ddlscope_engine::SpaceId(1);
            let live_limit = if t.space == old { t.pages } else { 0 };
            for page_no in live_limit..60_000 {
                let l = sim.pool().lookup(PageId {
                    space: old,
                    page_no,
                });
                assert!(
                    matches!(l, Lookup::Miss | Lookup::Stale(_)),
                    "{profile} seed {seed}: page {page_no} of the truncated table is live: {l:?}"
                );
            }
            // The table is usable again.
            sim.execute("TRUNCATE TABLE a").unwrap();
            sim.run_for(Tick::from_secs(2));
        }
    }
}

#[test]
fn after_any_index_build_its_pages_are_written_and_the_index_exists() {
    for profile in ["mysql-5.7", "mysql-8.0.28", "alisql-5.7"] {
        for seed in 1..=3 {
            let sim = run_ddl(profile, seed, "CREATE INDEX kc ON a (k, c)");
            let t = &sim.tables()[0];
            let ix = t
                .indexes
                .iter()
                .find(|ix| ix.name == "kc")
                .unwrap_or_else(|| panic!("{profile} seed {seed}: index kc exists"));
            for page_no in ix.root()..ix.root() + ix.pages() as u32 {
                if let Lookup::Hit(f) = sim.pool().lookup(PageId {
                    space: t.space,
                    page_no,
                }) {
                    assert!(
                        !sim.pool().is_dirty(f),
                        "{profile} seed {seed}: page {page_no} of the new index is still dirty"
                    );
                }
            }
        }
    }
}
