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

fn trace(profile: &str) -> String {
    let scenario = Scenario::from_toml(SCENARIO).unwrap();
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
