//! Random schedules as a property test: for each seed, a profile (all 14), a workload
//! or none, 2 to 8 console sessions, and 30 to 80 statements drawn from the console's
//! repertoire (the conformance matrix's holders and requesters, and the rest the
//! console reads: viewers, SET, KILL and KILL QUERY of any session), each sent after a
//! random pause (none, a few milliseconds, up to four seconds), with random
//! `lock_wait_timeout` and `innodb_lock_wait_timeout`. The run is checked
//! ([`Sim::check_invariants`]) after every slice of time and every statement sent;
//! then every session commits and unlocks, and once the waits have run out the quiet
//! state is checked ([`Sim::check_quiesced`]): every statement finished, nothing held.
//!
//! ```text
//!  seed ─▶ Plan { profile, workload?, sessions, steps: (pause, session, SQL) }
//!            │ for each step: run the pause in 1–4 slices, check; send, check
//!            │ then COMMIT; UNLOCK TABLES everywhere, run until all finished (≤ 10 min)
//!            ▼
//!          Ok(summary) | Err("seed N: <broken invariant>\n  replay: ...\n  last steps")
//! ```
//!
//! `cargo xtask test` runs [`SEEDS_IN_TEST`] seeds; `cargo xtask soak --seeds N` runs
//! more through the ignored test below, with `DDLSCOPE_SOAK_SEEDS`, `_FIRST` and
//! `_THREADS`; `cargo xtask soak --seed N` (`DDLSCOPE_SOAK_SEED`) replays one.

use crate::rng::SimRng;
use crate::{Profile, Scenario, Sim, StatementOutcome, Tick};

/// Seeds the normal test run takes.
const SEEDS_IN_TEST: u64 = 240;

/// Tables `t`, `u` and `w` (the workload's), and `p` with three partitions; a 16 MB
/// pool (1,024 pages) that `w` alone overfills, so pages are evicted and flushed.
const SCENARIO: &str = r#"
name = "schedule-props"
title = "random sessions over four tables and a small pool"
profile = "mysql-8.0.23"
seconds = 600

[buffer_pool]
size = "16M"
lru_scan_depth = 100

[[tables]]
name = "t"
rows = 3000
secondary_indexes = 1

[[tables]]
name = "u"
rows = 1500

[[tables]]
name = "w"
rows = 80000

[[tables]]
name = "p"
rows = 900
partitions = 3

[workload]
kind = "oltp_read_write"
threads = 0
tables = ["w", "t"]
distribution = "uniform"
round_trip_us = 2000
"#;

/// The console's repertoire; `$T` and `$U` are two tables of `t`, `u`, `w`.
const REPERTOIRE: &[&str] = &[
    "BEGIN",
    "START TRANSACTION WITH CONSISTENT SNAPSHOT",
    "COMMIT",
    "ROLLBACK",
    "SET SESSION autocommit = 0",
    "SET SESSION autocommit = 1",
    "SELECT * FROM $T WHERE id = 1",
    "SELECT * FROM $T WHERE id BETWEEN 10 AND 60",
    "SELECT * FROM $T WHERE id = 1 FOR UPDATE",
    "SELECT * FROM $T WHERE id = 1 LOCK IN SHARE MODE",
    "SELECT * FROM $T FORCE INDEX (idx_x) WHERE k = 5",
    "INSERT INTO $T (k, c, pad) VALUES (1, 'c', 'p')",
    "INSERT INTO $T (id, k, c, pad) VALUES (7, 1, 'c', 'p')",
    "INSERT INTO $T (id, k, c, pad) VALUES (5000, 1, 'c', 'p'), (5001, 2, 'c', 'p')",
    "INSERT IGNORE INTO $T (id, k, c, pad) VALUES (1, 1, 'c', 'p')",
    "INSERT INTO $T (id, k, c, pad) VALUES (1, 1, 'c', 'p') ON DUPLICATE KEY UPDATE k = k + 1",
    "UPDATE $T SET k = k + 1 WHERE id = 1",
    "UPDATE $T SET c = 'x' WHERE id BETWEEN 1 AND 100",
    "DELETE FROM $T WHERE id = 7",
    "SELECT SLEEP(1) FROM $T WHERE id <= 2",
    "SELECT SLEEP(0.5)",
    "ALTER TABLE $T ADD INDEX idx_x (k, c), ALGORITHM=INPLACE",
    "ALTER TABLE $T ADD INDEX idx_x (k, c), ALGORITHM=COPY",
    "CREATE INDEX idx_x ON $T (k)",
    "DROP INDEX idx_x ON $T",
    "ALTER TABLE $T DROP INDEX idx_x, ALGORITHM=COPY",
    "ALTER TABLE $T ADD COLUMN z INT, ALGORITHM=INSTANT",
    "ALTER TABLE $T ADD COLUMN z INT, ALGORITHM=INPLACE",
    "ALTER TABLE $T ADD COLUMN z INT, ALGORITHM=COPY",
    "ALTER TABLE $T DROP COLUMN z, ALGORITHM=INSTANT",
    "ALTER TABLE $T DROP COLUMN z, ALGORITHM=INPLACE",
    "ALTER TABLE $T DROP COLUMN z, ALGORITHM=COPY",
    "ALTER TABLE $T FORCE",
    "ALTER TABLE $T ENGINE=InnoDB",
    "OPTIMIZE TABLE $T",
    "ANALYZE TABLE $T",
    "TRUNCATE TABLE $T",
    "RENAME TABLE $T TO $T_new",
    "RENAME TABLE $T_new TO $T",
    "DROP TABLE $T",
    "CREATE TABLE $T LIKE $U",
    "CREATE TABLE $T_copy LIKE $T",
    "DROP TABLE $T_copy",
    "ALTER TABLE $T DISCARD TABLESPACE",
    "ALTER TABLE p DROP PARTITION p2",
    "ALTER TABLE p TRUNCATE PARTITION p1",
    "SELECT * FROM p WHERE id = 5",
    "UPDATE p SET k = 2 WHERE id = 400",
    "LOCK TABLES $T READ",
    "LOCK TABLES $T WRITE",
    "LOCK TABLES $T WRITE, $U READ",
    "LOCK TABLES $T AS a READ, $T AS b WRITE",
    "UNLOCK TABLES",
    "FLUSH TABLES WITH READ LOCK",
    "SHOW PROCESSLIST",
    "SHOW ENGINE INNODB STATUS",
    "SHOW TABLES",
    "SHOW CREATE TABLE $T",
    "SELECT * FROM performance_schema.metadata_locks",
    "SELECT * FROM information_schema.innodb_trx",
    "SET SESSION lock_wait_timeout = $N",
    "SET SESSION innodb_lock_wait_timeout = $M",
    "KILL $K",
    "KILL QUERY $K",
    "INSERT INTO $T (k, c, pad) SELECT k, c, pad FROM $U WHERE id BETWEEN 1 AND 50 LOCK IN SHARE MODE",
    "INSERT IGNORE INTO $T SELECT * FROM $U WHERE id BETWEEN 1 AND 20",
    "REPLACE INTO $T (id, k, c, pad) VALUES (1, 1, 'c', 'p')",
    "REPLACE INTO $T SELECT * FROM $U WHERE id BETWEEN 30 AND 40",
    "CREATE TRIGGER $T_tu AFTER UPDATE ON $T FOR EACH ROW REPLACE INTO $U (id, k, c, pad) VALUES (NEW.id, NEW.k, NEW.c, NEW.pad)",
    "CREATE TRIGGER $T_td AFTER DELETE ON $T FOR EACH ROW DELETE IGNORE FROM $U WHERE id <=> OLD.id",
    "CREATE TRIGGER $T_ti AFTER INSERT ON $T FOR EACH ROW INSERT IGNORE INTO $U (k, c, pad) VALUES (NEW.k, NEW.c, NEW.pad)",
    "DROP TRIGGER $T_tu",
    "DROP TRIGGER IF EXISTS $T_ti",
    "RENAME TABLE $T TO $T_old, $U TO $T, $T_old TO $U",
    "SHOW TRIGGERS",
];

/// The profiles the seeds go through, in turn.
fn profiles() -> Vec<&'static str> {
    crate::builtin::PROFILES.iter().map(|(n, _)| *n).collect()
}

/// One seed's schedule.
#[derive(Clone, Debug)]
struct Plan {
    profile: &'static str,
    workload_threads: u32,
    sessions: usize,
    /// Sessions that keep the server's timeouts (a year for metadata locks): a
    /// forgotten waiter there never times out.
    default_timeouts: Vec<bool>,
    steps: Vec<(Tick, usize, String)>,
}

/// Draws seed `seed`'s schedule. `$K` is left for the run to name a connection.
fn plan(seed: u64) -> Plan {
    let mut rng = SimRng::stream(seed, "test.soak");
    let profiles = profiles();
    let profile = profiles[(seed % profiles.len() as u64) as usize];
    let workload_threads = if rng.chance(1, 2) {
        0
    } else {
        1 + rng.below(3) as u32
    };
    let sessions = 2 + rng.below(7) as usize;
    let default_timeouts = (0..sessions).map(|_| rng.chance(1, 3)).collect();
    let n = 30 + rng.below(51);
    let tables = ["t", "u", "w"];
    let steps = (0..n)
        .map(|_| {
            let pause = match rng.below(20) {
                0..=4 => Tick::ZERO,
                5..=11 => Tick::from_ms(1 + rng.below(100)),
                12..=17 => Tick::from_ms(100 + rng.below(900)),
                _ => Tick::from_ms(1000 + rng.below(3000)),
            };
            let session = rng.below(sessions as u64) as usize;
            let t = tables[rng.below(3) as usize];
            let u = tables[rng.below(3) as usize];
            let mut sql = REPERTOIRE[rng.below(REPERTOIRE.len() as u64) as usize]
                .replace("$T", t)
                .replace("$U", u)
                .replace("$N", &rng.below(4).to_string())
                .replace("$M", &(1 + rng.below(3)).to_string());
            if sql.contains("$K") {
                sql = sql.replace("$K", &format!("$K{}", rng.below(sessions as u64)));
            }
            (pause, session, sql)
        })
        .collect();
    Plan {
        profile,
        workload_threads,
        sessions,
        default_timeouts,
        steps,
    }
}

/// What a seed's run came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Summary {
    statements: usize,
    errors: usize,
    /// 1205 (lock wait timeout), 1213 (deadlock), 1317 (killed), 2013/2006 (connection).
    timeouts: usize,
    deadlocks: usize,
    killed: usize,
    trace_hash: u64,
}

/// The replay line a failure prints.
fn replay(seed: u64) -> String {
    format!(
        "replay: cargo xtask soak --seed {seed}   (or DDLSCOPE_SOAK_SEED={seed} cargo test -p ddlscope-engine --lib schedule_props)"
    )
}

/// Runs seed `seed`; a broken invariant comes back as the error, with the replay
/// command and the last steps sent.
fn run(seed: u64) -> Result<Summary, String> {
    let p = plan(seed);
    let mut log: Vec<String> = Vec::new();
    let fail = |e: String, log: &[String], now: Tick| {
        let tail: Vec<&String> = log.iter().rev().take(25).rev().collect();
        let mut m = format!(
            "seed {seed} ({}, {} workload threads, {} sessions): at {now}: {e}\n  {}\n  last steps sent:",
            p.profile,
            p.workload_threads,
            p.sessions,
            replay(seed)
        );
        for l in tail {
            m.push_str("\n    ");
            m.push_str(l);
        }
        m
    };
    let mut scenario = Scenario::from_toml(SCENARIO).map_err(|e| e.to_string())?;
    scenario.seed = seed;
    scenario.workload.threads = p.workload_threads;
    let profile = Profile::builtin(p.profile)?;
    let mut sim = Sim::new(scenario, profile)?;
    let mut sessions = vec![sim.console_session()];
    while sessions.len() < p.sessions {
        sessions.push(sim.connect());
    }
    for (i, &s) in sessions.iter().enumerate() {
        if !p.default_timeouts[i] {
            sim.submit_to(
                s,
                "SET SESSION lock_wait_timeout = 3; SET SESSION innodb_lock_wait_timeout = 2",
            )
            .map_err(|e| e.to_string())?;
        }
    }
    let mut slicer = SimRng::stream(seed, "test.soak.slices");
    for (pause, who, sql) in &p.steps {
        let slices = 1 + slicer.below(4);
        for k in 0..slices {
            let d = Tick(pause.as_ns() / slices + u64::from(k == 0) * (pause.as_ns() % slices));
            sim.run_for(d);
            sim.check_invariants()
                .map_err(|e| fail(e, &log, sim.now()))?;
        }
        let sql = name_connection(&sim, &sessions, sql);
        log.push(format!("{} s{who}: {sql}", sim.now()));
        match sim.submit_to(sessions[*who], &sql) {
            // Refused as the server's parser refuses it (1066 for a table named twice):
            // nothing runs. A syntax error is a mistake in the repertoire.
            Err(e) if e.code != 1064 => log.push(format!("  refused: {e}")),
            Err(e) => return Err(fail(format!("{sql}: refused: {e}"), &log, sim.now())),
            Ok(_) => {}
        }
        sim.check_invariants()
            .map_err(|e| fail(e, &log, sim.now()))?;
    }
    // Everyone ends what they hold. A KILL sent before may still land on this COMMIT
    // (a COMMIT waiting for a global read lock gets 1317 and the transaction stays
    // open, as on the server), so a second round follows when something is held.
    for round in 0..3 {
        for &s in &sessions {
            sim.submit_to(s, "COMMIT; UNLOCK TABLES")
                .map_err(|e| e.to_string())?;
        }
        log.push(format!(
            "{} every session: COMMIT; UNLOCK TABLES",
            sim.now()
        ));
        let deadline = sim.now() + Tick::from_secs(600);
        while sim.statements().iter().any(|r| r.finished_at.is_none()) && sim.now() < deadline {
            sim.run_for(Tick::from_ms(500));
            sim.check_invariants()
                .map_err(|e| fail(e, &log, sim.now()))?;
        }
        // A moment more: the DDL executors exit and the sessions go idle.
        sim.run_for(Tick::from_ms(50));
        if round == 2 || !sim.console_holds_locks() {
            break;
        }
    }
    sim.check_quiesced().map_err(|e| fail(e, &log, sim.now()))?;
    Ok(summary(&sim))
}

/// `$K3` becomes the connection id session 3 has now (KILL follows reconnects).
fn name_connection(sim: &Sim, sessions: &[u32], sql: &str) -> String {
    match sql.split_once("$K") {
        Some((head, n)) => {
            let i: usize = n.parse().unwrap_or(0);
            format!("{head}{}", sim.connection_of(sessions[i]))
        }
        None => sql.to_owned(),
    }
}

fn summary(sim: &Sim) -> Summary {
    let mut s = Summary {
        statements: sim.statements().len(),
        trace_hash: sim.trace_hash(),
        ..Summary::default()
    };
    for r in sim.statements() {
        if let Some(StatementOutcome::Error { code, .. }) = r.outcome {
            s.errors += 1;
            match code {
                1205 => s.timeouts += 1,
                1213 => s.deadlocks += 1,
                1317 | 2013 => s.killed += 1,
                _ => {}
            }
        }
    }
    s
}

/// Seeds `first..first + n` on `threads` threads; every failure, each with its
/// replay line. Returns the summaries in seed order.
fn run_seeds(first: u64, n: u64, threads: usize) -> Result<Vec<Summary>, Vec<String>> {
    let seeds: Vec<u64> = (first..first + n).collect();
    let chunks: Vec<&[u64]> = seeds
        .chunks(seeds.len().div_ceil(threads.max(1)).max(1))
        .collect();
    let results: Vec<Vec<Result<Summary, String>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| scope.spawn(move || chunk.iter().map(|&s| run_noted(s)).collect()))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a soak thread"))
            .collect()
    });
    let all: Vec<Result<Summary, String>> = results.into_iter().flatten().collect();
    let failures: Vec<String> = all.iter().filter_map(|r| r.clone().err()).collect();
    if failures.is_empty() {
        Ok(all.into_iter().map(|r| r.expect("ok")).collect())
    } else {
        Err(failures)
    }
}

/// [`run_caught`], with a failure told at once (a long soak's report comes at its end).
fn run_noted(seed: u64) -> Result<Summary, String> {
    let r = run_caught(seed);
    if let Err(e) = &r {
        eprintln!("soak: FAILED {e}");
    }
    r
}

/// [`run`], with a panic inside the engine turned into a failure of the seed.
fn run_caught(seed: u64) -> Result<Summary, String> {
    match std::panic::catch_unwind(|| run(seed)) {
        Ok(r) => r,
        Err(p) => {
            let text = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            Err(format!(
                "seed {seed}: the engine panicked: {text}\n  {}",
                replay(seed)
            ))
        }
    }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// The seeds a run takes: one (`DDLSCOPE_SOAK_SEED`) or `DDLSCOPE_SOAK_SEEDS` from
/// `DDLSCOPE_SOAK_FIRST` (default 1), or `default_n`.
fn seeds_from_env(default_n: u64) -> (u64, u64) {
    match env_u64("DDLSCOPE_SOAK_SEED") {
        Some(seed) => (seed, 1),
        None => (
            env_u64("DDLSCOPE_SOAK_FIRST").unwrap_or(1),
            env_u64("DDLSCOPE_SOAK_SEEDS").unwrap_or(default_n),
        ),
    }
}

fn report(first: u64, n: u64, threads: usize) -> Vec<Summary> {
    match run_seeds(first, n, threads) {
        Ok(v) => v,
        Err(failures) => panic!(
            "{} of {n} seeds broke an invariant:\n{}",
            failures.len(),
            failures.join("\n\n")
        ),
    }
}

#[test]
fn random_schedules_keep_every_invariant() {
    let (first, n) = seeds_from_env(SEEDS_IN_TEST);
    let threads = env_u64("DDLSCOPE_SOAK_THREADS").unwrap_or(1) as usize;
    let v = report(first, n, threads);
    let sum = |f: fn(&Summary) -> usize| v.iter().map(f).sum::<usize>();
    eprintln!(
        "soak: {n} seeds from {first}: {} statements, {} errors ({} lock wait timeouts, {} deadlocks, {} killed); no invariant broken",
        sum(|s| s.statements),
        sum(|s| s.errors),
        sum(|s| s.timeouts),
        sum(|s| s.deadlocks),
        sum(|s| s.killed)
    );
    if n >= 100 {
        // The schedules reach what they are for: waits that time out, deadlocks, kills.
        assert!(sum(|s| s.timeouts) > 0, "no lock wait timed out");
        assert!(sum(|s| s.deadlocks) > 0, "no deadlock");
        assert!(sum(|s| s.killed) > 0, "no statement killed");
    }
}

#[test]
fn a_seed_replays_bit_for_bit() {
    for seed in [3, 17] {
        assert_eq!(run(seed), run(seed), "seed {seed}");
    }
}

#[test]
fn every_statement_of_the_repertoire_parses() {
    for sql in REPERTOIRE {
        let sql = sql
            .replace("$T", "t")
            .replace("$U", "u")
            .replace("$N", "1")
            .replace("$M", "1")
            .replace("$K", "5");
        crate::sql::parse(&sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}

#[test]
fn the_checks_catch_a_forgotten_statement_and_name_the_replay() {
    let mut sim = Sim::new(
        Scenario::from_toml(SCENARIO).unwrap(),
        Profile::builtin("mysql-8.0.23").unwrap(),
    )
    .unwrap();
    let s = sim.console_session();
    sim.submit_to(s, "SELECT SLEEP(1)").unwrap();
    sim.run_for(Tick::from_ms(10));
    assert_eq!(sim.check_invariants(), Ok(()));
    // A session that forgot its statement: idle with one queued.
    let id = sim.submit_to(s, "SELECT 1").unwrap()[0];
    let session = sim.sql.sessions.get_mut(&s).unwrap();
    session.running = None;
    session.idle = true;
    let e = sim.check_invariants().unwrap_err();
    assert!(e.contains("idle with 1 statement(s) queued"), "{e}");
    assert!(sim.check_quiesced().is_err(), "statement {id} never ran");
    let line = replay(42);
    assert!(line.contains("cargo xtask soak --seed 42"), "{line}");
    assert!(line.contains("DDLSCOPE_SOAK_SEED=42"), "{line}");
}
