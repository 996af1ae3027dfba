//! Partitioned and compressed tables: MySQL's errors for bad partition statements (the
//! simulation carries on), DROP TABLE of a partitioned table, and the scenario fields'
//! checks, each naming the field.

mod common;

use common::{run_until, sim_with};
use ddlscope_engine::{EventKind, Scenario, Sim, StatementOutcome, Tick};

const SCENARIO: &str = r#"
name = "partitions"
title = "a compressed table in four partitions"
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
cached_partitions = ["p0"]

[[tables]]
name = "b"
rows = 100000

[workload]
kind = "oltp_read_only"
threads = 4
tables = ["b"]
distribution = "uniform"
"#;

fn sim() -> Sim {
    let mut sim = common::sim(SCENARIO, "mariadb-5.5");
    sim.run_until(Tick::from_secs(1));
    sim
}

/// Runs `sql` on the console session until it finishes and returns its error, as the
/// client prints it (`None`: it succeeded). Name errors arrive when the statement runs,
/// in its outcome, as in the server.
fn error_of(sim: &mut Sim, sql: &str) -> Option<(u16, String)> {
    sim.execute(sql).unwrap();
    let id = sim.statements().len() - 1;
    let step = Tick::from_ms(10);
    let deadline = sim.now() + Tick(step.0 * 2000);
    run_until(sim, step, deadline, |sim| {
        sim.statements()[id].finished_at.is_some()
    });
    let r = &sim.statements()[id];
    match r.outcome.as_ref().expect("the statement finished") {
        StatementOutcome::Ok { .. } => None,
        StatementOutcome::Error { code, .. } => Some((*code, r.client_output().unwrap())),
    }
}

#[test]
fn bad_partition_statements_get_mysqls_errors_and_change_nothing() {
    let mut sim = sim();
    let live = |sim: &Sim| sim.tables().filter(|t| !t.dropped).count();
    let tables = live(&sim);
    let errors: Vec<String> = [
        "ALTER TABLE nosuch DROP PARTITION p0",
        "ALTER TABLE other.logs DROP PARTITION p0",
        "ALTER TABLE b DROP PARTITION p0",
        "ALTER TABLE b TRUNCATE PARTITION p0",
        "ALTER TABLE logs DROP PARTITION p9",
        "ALTER TABLE logs DROP PARTITION p0, p0",
        "ALTER TABLE logs TRUNCATE PARTITION p4",
        "ALTER TABLE logs DROP PARTITION p0, p1, p2, p3",
        "ALTER TABLE logs DROP PARTITION p1, P1",
    ]
    .iter()
    .map(|sql| error_of(&mut sim, sql).expect("refused").1)
    .collect();
    expect_test::expect![[r#"
        [
            "ERROR 1146 (42S02): Table 'test.nosuch' doesn't exist",
            "ERROR 1146 (42S02): Table 'other.logs' doesn't exist",
            "ERROR 1505 (HY000): Partition management on a not partitioned table is not possible",
            "ERROR 1505 (HY000): Partition management on a not partitioned table is not possible",
            "ERROR 1507 (HY000): Error in list of partitions to DROP",
            "ERROR 1507 (HY000): Error in list of partitions to DROP",
            "ERROR 1507 (HY000): Error in list of partitions to TRUNCATE",
            "ERROR 1508 (HY000): Cannot remove all partitions, use DROP TABLE instead",
            "ERROR 1507 (HY000): Error in list of partitions to DROP",
        ]
    "#]]
    .assert_debug_eq(&errors);
    assert_eq!(live(&sim), tables, "nothing was dropped");
    // The simulation carries on, and a good statement still runs.
    assert_eq!(
        error_of(&mut sim, "ALTER TABLE logs DROP PARTITION p0"),
        None
    );
    sim.run_for(Tick::from_secs(3));
    assert!(sim.samples().last().unwrap().qps > 0);
    let err = error_of(&mut sim, "ALTER TABLE logs DROP PARTITION p0").unwrap();
    assert_eq!(err.0, 1507, "p0 is gone: {}", err.1);
    // Three partitions left: dropping them all is refused, dropping two is not.
    assert_eq!(
        error_of(&mut sim, "ALTER TABLE logs DROP PARTITION p1, p2, p3").map(|e| e.0),
        Some(1508)
    );
    assert_eq!(
        error_of(&mut sim, "ALTER TABLE logs DROP PARTITION p1, p2"),
        None
    );
}

#[test]
fn drop_table_of_a_partitioned_table_drops_every_partition() {
    let mut sim = sim();
    sim.execute("DROP TABLE logs").unwrap();
    sim.run_for(Tick::from_secs(5));
    let dropped: Vec<String> = sim
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TableDropped { table, .. } => Some(table.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        dropped,
        ["logs#P#p0", "logs#P#p1", "logs#P#p2", "logs#P#p3"],
        "each partition's own table, as InnoDB names them"
    );
    let unlinked = sim
        .events()
        .iter()
        .filter(
            |e| matches!(&e.kind, EventKind::FileUnlink { path, .. } if path.contains("logs#P#p")),
        )
        .count();
    assert_eq!(unlinked, 4);
    let err = error_of(&mut sim, "ALTER TABLE logs DROP PARTITION p0").unwrap();
    assert_eq!(err.0, 1146, "{}", err.1);
    assert_eq!(
        error_of(&mut sim, "DROP TABLE logs").map(|e| e.0),
        Some(1051)
    );
}

#[test]
fn truncate_partition_gives_the_partition_a_new_empty_tablespace() {
    let mut sim = sim();
    let p0 = sim
        .tables()
        .find(|t| t.name == "logs#P#p0")
        .unwrap()
        .clone();
    assert!(sim.pool().resident_pages(p0.space) > 0, "p0 is cached");
    sim.execute("ALTER TABLE logs TRUNCATE PARTITION p0")
        .unwrap();
    sim.run_for(Tick::from_secs(3));
    assert_eq!(sim.pool().resident_pages(p0.space), 0);
    let new = sim
        .tables()
        .find(|t| t.name == "logs#P#p0" && !t.dropped)
        .unwrap();
    assert_ne!(new.space, p0.space);
    assert!(new.pages < p0.pages && new.zip_kb == 8);
    // 5.5 discards the tablespace: the LRU scan frees the compressed pages without
    // decompressing them.
    assert!(!sim
        .events()
        .iter()
        .any(|e| matches!(e.kind, EventKind::ZipPagesDecompressed { .. })));
    assert!(sim.events().iter().any(
        |e| matches!(&e.kind, EventKind::TablespaceCreated { table, .. } if table == "logs#P#p0")
    ));
}

#[test]
fn bad_table_fields_name_the_field() {
    let cases = [
        (
            "key_block_size = 8",
            "key_block_size = 3",
            "tables[0].key_block_size = 3: must be 1, 2, 4, 8 or 16",
        ),
        (
            "row_format = \"compressed\"",
            "row_format = \"dynamic\"",
            "tables[0].key_block_size = 8: only with row_format = \"compressed\"",
        ),
        (
            "row_format = \"compressed\"",
            "row_format = \"zipped\"",
            "unknown variant `zipped`",
        ),
        (
            "partitions = 4",
            "partitions = 0",
            "tables[0].partitions = 0: must be between 1 and 8192",
        ),
        (
            "partitions = 4",
            "partitions = 4\npartition_sizes = [\"1M\", \"2M\"]",
            "tables[0].partition_sizes has 2 sizes for 4 partitions",
        ),
        (
            "cached_partitions = [\"p0\"]",
            "cached_partitions = [\"p7\"]",
            "tables[0].cached_partitions: no partition 'p7' (the partitions are p0..p3)",
        ),
        (
            "partitions = 4\n",
            "",
            "tables[0] (logs): partition_sizes and cached_partitions need partitions = N",
        ),
        (
            "cached_partitions = [\"p0\"]",
            "warm_unzip_pct = 101",
            "tables[0].warm_unzip_pct = 101: must be 0-100",
        ),
    ];
    for (from, to, expect) in cases {
        assert!(SCENARIO.contains(from), "fixture has {from}");
        let e = Scenario::from_toml(&SCENARIO.replacen(from, to, 1)).unwrap_err();
        assert!(e.contains(expect), "{to}: {e}");
    }
}

#[test]
fn a_workload_on_a_compressed_table_reads_and_decompresses_its_pages() {
    // A pool too small for the table: pages come in compressed and are inflated, and the
    // free-block search frees uncompressed frames from unzip_LRU and whole pages.
    let text = SCENARIO
        .replace("instances = 2", "instances = 1")
        .replace("size = \"64M\"", "size = \"32M\"")
        .replace("size = \"16M\"", "size = \"64M\"")
        .replace("tables = [\"b\"]", "tables = [\"logs\"]");
    let mut sim = common::sim(&text, "mariadb-5.5");
    let before = sim.pool().stats();
    sim.run_until(Tick::from_secs(6));
    sim.pool().validate();
    let after = sim.pool().stats();
    assert!(after.unzipped > before.unzipped + 100, "{after:?}");
    assert!(
        after.unzip_evicted > 0 || after.evicted > before.evicted,
        "{after:?}"
    );
    assert!(sim.pool().pages_zip_only() > 0);
    let s = &sim.samples()[2..];
    assert!(s.iter().all(|x| x.qps > 0), "{s:?}");
    assert!(s.iter().map(|x| x.reads).sum::<u64>() > 0);
    // After a TRUNCATE PARTITION the workload goes on with the new, empty partition:
    // its pages come into the pool (and, the pool thrashing, leave it again).
    sim.execute("ALTER TABLE logs TRUNCATE PARTITION p0")
        .unwrap();
    sim.run_for(Tick::from_secs(1));
    let p0 = sim
        .tables()
        .find(|t| t.name == "logs#P#p0" && !t.dropped)
        .unwrap()
        .space;
    let mut seen = 0;
    for _ in 0..200 {
        sim.run_for(Tick::from_ms(10));
        seen += sim.pool().resident_pages(p0);
    }
    assert!(seen > 0, "the new p0 was read");
    sim.pool().validate();
}

/// A run of the compressed partitions with DROP and TRUNCATE PARTITION, stepped in
/// `slice` increments: (trace hash, events).
fn partition_run(profile: &str, seed: u64, slice: Tick) -> (u64, usize) {
    let text = SCENARIO
        .replace("tables = [\"b\"]", "tables = [\"b\", \"logs\"]")
        .replace(
            "cached_partitions = [\"p0\"]",
            "cached_partitions = [\"p0\", \"p1\"]",
        );
    let mut sim = sim_with(&text, profile, |scenario| scenario.seed = seed);
    let mut t = Tick::ZERO;
    let mut step = |sim: &mut Sim, until: Tick| {
        while t < until {
            t = (t + slice).min(until);
            sim.run_until(t);
        }
    };
    step(&mut sim, Tick::from_secs(1));
    sim.execute("ALTER TABLE logs DROP PARTITION p0").unwrap();
    step(&mut sim, Tick::from_secs(3));
    sim.execute("ALTER TABLE logs TRUNCATE PARTITION p1")
        .unwrap();
    step(&mut sim, Tick::from_secs(5));
    (sim.trace_hash(), sim.events().len())
}

#[test]
fn compressed_partition_runs_reproduce_and_do_not_depend_on_slicing() {
    for profile in ["mariadb-5.5", "mysql-5.7", "mysql-8.0.23"] {
        let whole = partition_run(profile, 3, Tick::from_secs(5));
        assert_eq!(
            whole,
            partition_run(profile, 3, Tick::from_secs(5)),
            "{profile}"
        );
        assert_eq!(
            whole,
            partition_run(profile, 3, Tick::from_us(16_667)),
            "{profile}: stepped a frame at a time"
        );
        assert_ne!(whole.0, partition_run(profile, 4, Tick::from_secs(5)).0);
    }
}

#[test]
fn truncate_partition_all_and_truncate_table_empty_every_partition() {
    for sql in [
        "ALTER TABLE logs TRUNCATE PARTITION ALL",
        "TRUNCATE TABLE logs",
    ] {
        let mut sim = sim();
        sim.execute(sql).unwrap();
        sim.run_for(Tick::from_secs(3));
        let created = sim
            .events()
            .iter()
            .filter(|e| matches!(e.kind, EventKind::TablespaceCreated { .. }))
            .count();
        assert_eq!(
            created, 4,
            "{sql}: 5.5 gives each partition a new tablespace"
        );
        assert_eq!(
            sim.tables()
                .filter(|t| t.partition.is_some() && !t.dropped && t.rows <= 1)
                .count(),
            4,
            "{sql}"
        );
    }
}

#[test]
fn partition_ddl_waits_for_the_tables_metadata_lock_then_runs_the_partition_executor() {
    let mut sim = sim();
    let outcome = |sim: &Sim, id: u32| match &sim.statements()[id as usize].outcome {
        None => "waiting".to_owned(),
        Some(StatementOutcome::Ok { .. }) => "ok".to_owned(),
        Some(StatementOutcome::Error { code, .. }) => format!("error {code}"),
    };
    let a = sim.connect();
    let b = sim.connect();
    // A transaction reads the partitioned table by its SQL name: SHARED_READ on `logs`.
    let read = sim
        .submit_to(a, "BEGIN; SELECT * FROM logs WHERE id = 5")
        .unwrap()[1];
    sim.run_for(Tick::from_ms(200));
    assert_eq!(outcome(&sim, read), "ok");
    let ddl = sim
        .submit_to(b, "ALTER TABLE logs DROP PARTITION p1")
        .unwrap()[0];
    sim.run_for(Tick::from_ms(500));
    assert_eq!(
        outcome(&sim, ddl),
        "waiting",
        "X on logs waits for the reader"
    );
    assert!(sim.tables().all(|t| !t.dropped));
    sim.submit_to(a, "COMMIT").unwrap();
    sim.run_for(Tick::from_secs(3));
    assert_eq!(outcome(&sim, ddl), "ok");
    let dropped: Vec<&str> = sim
        .tables()
        .filter(|t| t.dropped)
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(dropped, ["logs#P#p1"], "only the partition's own table");
    let sel = sim.submit_to(a, "SELECT * FROM logs WHERE id = 5").unwrap()[0];
    sim.run_for(Tick::from_ms(200));
    assert_eq!(
        outcome(&sim, sel),
        "ok",
        "the other partitions are still there"
    );
}
