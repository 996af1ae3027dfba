//! Property runs over DDL: whatever the profile, seed and moment of the DROP, once the
//! statement has finished no page of the dropped tablespace version is reachable as live
//! data, the dictionary and table-open latches are free, and the pool's invariants hold.

mod common;

use common::{any_statement_finished, run_until, sim_with, statements_ok};
use ddlscope_engine::{EventKind, LatchId, Sim, Tick};
use ddlscope_engine::{Lookup, PageId};

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
    let mut sim = sim_with(SCENARIO, profile, |scenario| {
        scenario.seed = seed;
        scenario.innodb.adaptive_hash_index = seed.is_multiple_of(2);
        scenario.buffer_pool.warm_ahi_pct = (seed % 3) as u32 * 40;
    });
    let at = Tick::from_ms(500 + seed * 137 % 2000);
    sim.run_until(at);
    let victim = if seed.is_multiple_of(3) {
        "DROP TABLE a, c"
    } else {
        "DROP TABLE a"
    };
    sim.execute(victim).unwrap();
    let done = run_until(
        &mut sim,
        Tick::from_ms(50),
        Tick::from_secs(120),
        any_statement_finished,
    );
    assert!(done, "{profile} seed {seed}: the DROP finished");
    // A little longer: 8.0's post-DDL unlink and AliSQL's purge run after the result.
    sim.run_for(Tick::from_secs(1));
    sim.pool().validate();
    for t in sim.tables().filter(|t| t.dropped) {
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
    let mut sim = sim_with(SCENARIO, profile, |scenario| {
        scenario.seed = seed;
        scenario.innodb.adaptive_hash_index = seed.is_multiple_of(2);
        scenario.buffer_pool.warm_ahi_pct = (seed % 3) as u32 * 40;
        scenario.server.cpus = (seed % 3) as u32;
        // The DDL's table is under the workload too.
        scenario.workload.tables = vec!["a".into(), "b".into()];
    });
    sim.run_until(Tick::from_ms(500 + seed * 137 % 2000));
    sim.execute(sql).unwrap();
    let done = run_until(
        &mut sim,
        Tick::from_ms(50),
        Tick::from_secs(120),
        any_statement_finished,
    );
    assert!(done, "{profile} seed {seed}: {sql} finished");
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
            let t = sim.tables().next().unwrap().clone();
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
            let t = sim.tables().next().unwrap();
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

/// A compressed, partitioned table beside the workload's tables, two partitions cached.
const PARTITIONED: &str = r#"
name = "partition-props"
title = "small pool, a compressed partitioned table, DROP/TRUNCATE PARTITION at a random moment"
profile = "mariadb-5.5"
seconds = 10

[buffer_pool]
size = "64M"
instances = 2

[[tables]]
name = "logs"
row_format = "compressed"
key_block_size = 8
partitions = 4
size = "16M"
cached_partitions = ["p0", "p2"]

[[tables]]
name = "b"
rows = 200000

[workload]
kind = "oltp_read_write"
threads = 6
tables = ["b"]
distribution = "uniform"
round_trip_us = 200
"#;

fn check_partition(profile: &str, seed: u64) {
    let mut sim = sim_with(PARTITIONED, profile, |scenario| {
        scenario.seed = seed;
        scenario.tables[0].key_block_size = Some([1, 2, 4, 8, 16][(seed % 5) as usize]);
        scenario.tables[0].warm_unzip_pct = (seed * 23 % 101) as u32;
        if seed.is_multiple_of(2) {
            // Sessions on the compressed partitions too, racing the DDL.
            scenario.workload.tables.push("logs".into());
        }
    });
    sim.run_until(Tick::from_ms(300 + seed * 211 % 1500));
    let before: Vec<_> = sim
        .tables()
        .filter(|t| t.partition.is_some())
        .map(|t| (t.name.clone(), t.space, t.pages))
        .collect();
    let statements = match seed % 4 {
        0 => vec!["ALTER TABLE logs DROP PARTITION p0"],
        1 => vec!["ALTER TABLE logs TRUNCATE PARTITION p0, p2"],
        2 => vec![
            "ALTER TABLE logs TRUNCATE PARTITION p2",
            "ALTER TABLE logs DROP PARTITION p2, p0",
        ],
        _ => vec!["DROP TABLE logs"],
    };
    for sql in &statements {
        sim.execute(sql).unwrap();
        let before = statements_ok(&sim);
        let done = run_until(&mut sim, Tick::from_ms(50), Tick::from_secs(120), |sim| {
            statements_ok(sim) > before
        });
        assert!(done, "{profile} seed {seed}: {sql} finished");
    }
    sim.run_for(Tick::from_secs(1));
    sim.pool().validate();
    // Every partition tablespace no live table uses any more (dropped, or replaced by a
    // TRUNCATE's new one) has no live page left. A 5.7 in-place TRUNCATE keeps its
    // tablespace: its old pages were freed by the LRU scan, new ones may be read since.
    let gone = before
        .iter()
        .filter(|(_, space, _)| !sim.tables().any(|t| !t.dropped && t.space == *space));
    let mut checked = 0;
    for (name, space, pages) in gone {
        checked += 1;
        for page_no in 0..*pages {
            let l = sim.pool().lookup(PageId {
                space: *space,
                page_no,
            });
            assert!(
                matches!(l, Lookup::Miss | Lookup::Stale(_)),
                "{profile} seed {seed}: page {page_no} of the old {name} is live: {l:?}"
            );
        }
    }
    let in_place = profile == "mysql-5.7" || profile == "alisql-5.7";
    assert!(
        checked > 0 || (in_place && seed % 4 == 1),
        "{profile} seed {seed}: a tablespace went"
    );
    // The DDL thread holds nothing any more. A workload session may be inside one of
    // its own short holds of a buffer-pool mutex at this instant: sessions are the
    // first threads spawned, ids below the thread count.
    let sessions = sim.scenario().workload.threads;
    for latch in sim.latches() {
        let held = latch.holder();
        assert!(
            held.is_none()
                || (matches!(latch.id, LatchId::BufPool(_)) && held.unwrap().0 < sessions),
            "{profile} seed {seed}: {} is held by {held:?}",
            latch.id
        );
    }
    // A truncated partition is back, empty, under a new tablespace; a dropped one is gone.
    let live = |p: &str| {
        sim.tables()
            .any(|t| !t.dropped && t.partition.as_ref().is_some_and(|x| x.name == p))
    };
    match seed % 4 {
        0 => assert!(!live("p0") && live("p1") && live("p2")),
        1 => assert!(live("p0") && live("p2")),
        2 => assert!(!live("p0") && !live("p2") && live("p1") && live("p3")),
        _ => assert!(!live("p0") && !live("p1") && !live("p2") && !live("p3")),
    }
    assert!(
        sim.samples().last().unwrap().qps > 0,
        "{profile} seed {seed}"
    );
}

#[test]
fn after_any_partition_ddl_no_dropped_page_is_live_and_every_latch_is_free() {
    for profile in [
        "mysql-5.1",
        "mysql-5.5.30",
        "mariadb-5.5",
        "fb-mysql-5.6",
        "mysql-5.7",
        "alisql-5.7",
        "mysql-8.0.23",
    ] {
        for seed in 1..=8 {
            check_partition(profile, seed);
        }
    }
}

#[test]
fn the_pre_fix_drop_decompresses_cached_pages_and_the_fixed_one_does_not() {
    let decompressed = |profile: &str| {
        let mut sim = common::sim(PARTITIONED, profile);
        sim.run_until(Tick::from_secs(1));
        let zip_only = sim.pool().pages_zip_only();
        sim.execute("ALTER TABLE logs DROP PARTITION p0").unwrap();
        sim.run_for(Tick::from_secs(5));
        let pages: u64 = sim
            .events()
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::ZipPagesDecompressed { pages, .. } => Some(pages),
                _ => None,
            })
            .sum();
        (zip_only, pages, sim.pool().stats().unzipped)
    };
    let (zip_only, pages, _) = decompressed("mariadb-5.5");
    assert!(zip_only > 0 && pages > 0, "{zip_only} {pages}");
    // p0 is one of two cached partitions: at most its share of the compressed-only pages.
    assert!(pages <= zip_only, "{pages} of {zip_only}");
    let (_, pages, _) = decompressed("mysql-5.7");
    assert_eq!(pages, 0);
}
