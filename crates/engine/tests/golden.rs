//! The event trace of a small pool, as text, against a reviewed snapshot.
//! Regenerate with `UPDATE_EXPECT=1 cargo test -p ddlscope-engine --test golden` and
//! review the diff.

use ddlscope_engine::{Profile, Scenario, Sim, Tick};
use expect_test::expect_file;

const SCENARIO: &str = r#"
name = "golden-small"
title = "a 32 MB pool, two small tables, DROP TABLE"
profile = "mysql-5.7"
seed = 11
seconds = 4

[buffer_pool]
size = "32M"
instances = 1

[[tables]]
name = "a"
rows = 20000

[[tables]]
name = "b"
rows = 300000

[workload]
kind = "oltp_read_write"
threads = 4
distribution = "uniform"
round_trip_us = 300

[[script]]
at_s = 2
sql = "DROP TABLE a"
"#;

/// A compressed table in three partitions, p0 cached (mostly compressed-only), dropped.
const COMPRESSED: &str = r#"
name = "golden-compressed"
title = "a 64 MB pool, a compressed partitioned table, DROP PARTITION"
profile = "mariadb-5.5"
seed = 11
seconds = 4

[buffer_pool]
size = "64M"
instances = 1

[[tables]]
name = "logs"
row_format = "compressed"
key_block_size = 8
partitions = 3
size = "3M"
cached_partitions = ["p0"]
warm_unzip_pct = 25

[[tables]]
name = "b"
rows = 100000

[workload]
kind = "oltp_read_write"
threads = 4
tables = ["b"]
distribution = "uniform"
round_trip_us = 300

[[script]]
at_s = 2
sql = "ALTER TABLE logs DROP PARTITION p0"
"#;

fn trace(profile: &str) -> String {
    trace_of(SCENARIO, profile)
}

fn trace_of(scenario: &str, profile: &str) -> String {
    let scenario = Scenario::from_toml(scenario).unwrap();
    let mut sim = Sim::new(scenario, Profile::builtin(profile).unwrap()).unwrap();
    sim.run_until(Tick::from_secs(4));
    let mut out = String::new();
    for e in sim.events() {
        out.push_str(&serde_json::to_string(e).unwrap());
        out.push('\n');
    }
    for s in sim.samples() {
        out.push_str(&s.row().join(","));
        out.push('\n');
    }
    out.push_str(&format!("trace hash {:016x}\n", sim.trace_hash()));
    out
}

#[test]
fn small_pool_drop_table_57() {
    expect_file!["golden/small-pool-drop-5.7.txt"].assert_eq(&trace("mysql-5.7"));
}

#[test]
fn small_pool_drop_table_8023() {
    expect_file!["golden/small-pool-drop-8.0.23.txt"].assert_eq(&trace("mysql-8.0.23"));
}

#[test]
fn small_pool_compressed_partition_drop_decompresses_on_mariadb_55() {
    let mariadb = trace_of(COMPRESSED, "mariadb-5.5");
    assert!(
        mariadb.contains("zip_pages_decompressed"),
        "Bug#16067973's path ran"
    );
    expect_file!["golden/small-pool-compressed-drop-mariadb-5.5.txt"].assert_eq(&mariadb);
}

#[test]
fn small_pool_compressed_partition_drop_57() {
    let mysql57 = trace_of(COMPRESSED, "mysql-5.7");
    assert!(
        !mysql57.contains("zip_pages_decompressed"),
        "fixed: PEEK returns NULL"
    );
    expect_file!["golden/small-pool-compressed-drop-5.7.txt"].assert_eq(&mysql57);
}

#[test]
fn small_pool_truncate_partition_57_in_place_under_fil_sys() {
    let scenario = COMPRESSED.replace(
        "ALTER TABLE logs DROP PARTITION p0",
        "ALTER TABLE logs TRUNCATE PARTITION p0",
    );
    let mysql57 = trace_of(&scenario, "mysql-5.7");
    assert!(mysql57.contains("\"file_truncate\"") && mysql57.contains("\"fil_sys\""));
    assert!(
        !mysql57.contains("\"tablespace_created\""),
        "in place: same tablespace"
    );
    expect_file!["golden/small-pool-truncate-partition-5.7.txt"].assert_eq(&mysql57);
}

/// An online index build on table a while the workload writes to it: 5.7's flush-list
/// walk restarts from the tail after each page (one walk per page written), 8.0.28's
/// pins the next page (one walk and a verification pass per instance).
fn index_build_trace(profile: &str) -> String {
    let scenario = SCENARIO
        .replace(
            "sql = \"DROP TABLE a\"",
            "sql = \"CREATE INDEX kc ON a (k, c)\"",
        )
        .replace("seconds = 4", "seconds = 4\n\n[server]\ncpus = 2");
    trace_of(&scenario, profile)
        .lines()
        // One flush-list walk per page written: keep the first few, count the rest.
        .filter(|l| !l.contains("\"list\":\"flush\"") || l.contains("\"to\":1,"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn small_pool_create_index_57_restarts_its_flush_list_walk() {
    expect_file!["golden/small-pool-create-index-5.7.txt"]
        .assert_eq(&index_build_trace("mysql-5.7"));
}

#[test]
fn small_pool_create_index_8028_pins_the_next_page() {
    expect_file!["golden/small-pool-create-index-8.0.28.txt"]
        .assert_eq(&index_build_trace("mysql-8.0.28"));
}

#[test]
fn small_pool_drop_table_51_holds_lock_open() {
    expect_file!["golden/small-pool-drop-5.1.txt"].assert_eq(&trace("mysql-5.1"));
}

#[test]
fn small_pool_drop_table_alisql_clears_ahi_first_and_purges_later() {
    expect_file!["golden/small-pool-drop-alisql-5.7.txt"].assert_eq(&trace("alisql-5.7"));
}

fn truncate_trace(profile: &str) -> String {
    trace_of(
        &SCENARIO.replace("sql = \"DROP TABLE a\"", "sql = \"TRUNCATE TABLE a\""),
        profile,
    )
}

#[test]
fn small_pool_truncate_57_in_place_under_fil_sys() {
    expect_file!["golden/small-pool-truncate-5.7.txt"].assert_eq(&truncate_trace("mysql-5.7"));
}

#[test]
fn small_pool_truncate_8023_drop_and_create() {
    expect_file!["golden/small-pool-truncate-8.0.23.txt"]
        .assert_eq(&truncate_trace("mysql-8.0.23"));
}
