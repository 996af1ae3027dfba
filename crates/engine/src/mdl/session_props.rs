//! Property runs over random multi-session schedules: statements of every kind the
//! console runs (transactions, reads, writes, LOCK TABLES, FTWRL, online and copying
//! ALTERs, TRUNCATE, OPTIMIZE) issued at random moments by several sessions, beside a
//! small sysbench workload. Checked throughout: the metadata-lock manager's invariants
//! (granted locks pairwise compatible, no waiting request that could be granted). At the
//! end every session commits and unlocks, and after the timeouts nothing waits, no
//! session holds a lock, and no statement is left unfinished: no waiter is forgotten.
//! Each seed runs twice; the two runs must agree bit for bit. A failure names its seed.

use crate::SimRng;
use crate::{Profile, Scenario, Sim, StatementOutcome, Tick};

const SCENARIO: &str = r#"
name = "session-props"
title = "three tables, a small workload and four console sessions"
profile = "mysql-8.0.23"

[buffer_pool]
size = "32M"

[[tables]]
name = "t"
rows = 5000

[[tables]]
name = "u"
rows = 2000

[[tables]]
name = "w"
rows = 20000

[workload]
kind = "oltp_read_write"
threads = 3
tables = ["w", "u"]
distribution = "uniform"
round_trip_us = 300
"#;

const STATEMENTS: &[&str] = &[
    "BEGIN",
    "START TRANSACTION WITH CONSISTENT SNAPSHOT",
    "COMMIT",
    "ROLLBACK",
    "SELECT * FROM t WHERE id = 7",
    "SELECT * FROM u WHERE id BETWEEN 10 AND 50",
    "SELECT * FROM t WHERE id = 7 FOR UPDATE",
    "SELECT * FROM u WHERE id = 3 LOCK IN SHARE MODE",
    "UPDATE t SET k = k + 1 WHERE id = 7",
    "UPDATE u SET c = 'x' WHERE id BETWEEN 1 AND 100",
    "UPDATE w SET k = 1 WHERE id = 12",
    "DELETE FROM u WHERE id = 99",
    "INSERT INTO t (k, c, pad) VALUES (1, 'a', 'b')",
    "ALTER TABLE t ADD COLUMN x INT, ALGORITHM=INSTANT",
    "ALTER TABLE u FORCE",
    "ALTER TABLE t ENGINE=InnoDB, ALGORITHM=COPY",
    "CREATE INDEX kk ON u (k)",
    "DROP INDEX kk ON u",
    "OPTIMIZE TABLE w",
    "ANALYZE TABLE t",
    "TRUNCATE TABLE u",
    "LOCK TABLES t READ",
    "LOCK TABLES u WRITE, t READ",
    "UNLOCK TABLES",
    "FLUSH TABLES WITH READ LOCK",
    "SHOW PROCESSLIST",
    "SELECT * FROM performance_schema.metadata_locks",
    "SET SESSION autocommit = 0",
    "SET SESSION autocommit = 1",
];

/// One run: the statements' outcomes and finish times, and the trace hash.
fn run(seed: u64) -> (Vec<(Option<u64>, String)>, u64) {
    let mut scenario = Scenario::from_toml(SCENARIO).unwrap();
    scenario.seed = seed;
    let mut sim = Sim::new(scenario, Profile::builtin("mysql-8.0.23").unwrap()).unwrap();
    let mut rng = SimRng::stream(seed, "test.schedule");
    let mut sessions = vec![sim.console_session()];
    for _ in 0..3 {
        sessions.push(sim.connect());
    }
    for &s in &sessions {
        sim.submit_to(
            s,
            "SET SESSION lock_wait_timeout = 3; SET SESSION innodb_lock_wait_timeout = 2",
        )
        .unwrap();
    }
    for _ in 0..40 {
        sim.run_for(Tick::from_ms(20 + rng.below(300)));
        let s = sessions[rng.below(sessions.len() as u64) as usize];
        let sql = STATEMENTS[rng.below(STATEMENTS.len() as u64) as usize];
        sim.submit_to(s, sql).unwrap();
        if let Err(e) = sim.mdl().validate() {
            panic!("seed {seed}: at {}: {e}", sim.now());
        }
    }
    // Quiesce: everyone ends what they hold.
    for &s in &sessions {
        sim.submit_to(s, "COMMIT; UNLOCK TABLES; SET SESSION autocommit = 1")
            .unwrap();
    }
    for _ in 0..300 {
        sim.run_for(Tick::from_ms(100));
        if let Err(e) = sim.mdl().validate() {
            panic!("seed {seed}: at {}: {e}", sim.now());
        }
    }
    let unfinished: Vec<&str> = sim
        .statements()
        .iter()
        .filter(|r| r.finished_at.is_none())
        .map(|r| r.sql.as_str())
        .collect();
    assert!(
        unfinished.is_empty(),
        "seed {seed}: a waiter was forgotten: {unfinished:?}"
    );
    let held: Vec<_> = sim
        .metadata_locks()
        .into_iter()
        .filter(|l| sessions.contains(&l.owner.0))
        .collect();
    assert!(held.is_empty(), "seed {seed}: locks left behind: {held:?}");
    let outcomes = sim
        .statements()
        .iter()
        .map(|r| {
            let o = match &r.outcome {
                Some(StatementOutcome::Ok { .. }) => "ok".to_owned(),
                Some(StatementOutcome::Error { code, .. }) => code.to_string(),
                None => "waiting".to_owned(),
            };
            (r.finished_at.map(|t| t.as_ns()), o)
        })
        .collect();
    (outcomes, sim.trace_hash())
}

#[test]
fn random_schedules_keep_locks_compatible_and_forget_no_waiter() {
    let mut waits_seen = 0;
    for seed in 1..=12 {
        let (a, hash_a) = run(seed);
        let (b, hash_b) = run(seed);
        assert_eq!(a, b, "seed {seed}: outcomes differ between two runs");
        assert_eq!(hash_a, hash_b, "seed {seed}: trace hashes differ");
        waits_seen += a.iter().filter(|(_, o)| o == "1205").count();
    }
    // The schedules are busy enough to make sessions time out on each other.
    assert!(waits_seen > 0, "no lock wait timed out in 12 schedules");
}
