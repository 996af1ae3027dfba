//! The statements online schema-change tools send, with a workload running: triggers
//! that fire on the workload's writes and take their locks, an INSERT ... SELECT chunk
//! whose AUTO-INC lock the triggers' writes queue behind (at mode 1, not at 2), and
//! the atomic RENAME swap waiting for the transactions that fired a trigger.

mod common;

use common::outcome;
use ddlscope_engine::{Sim, Tick};

/// oltp_update_index on `t` (autocommit UPDATEs), with `n` shaped like it and empty,
/// and `u`, larger, that the workload does not touch.
fn sim(autoinc_lock_mode: u8) -> Sim {
    let text = format!(
        r#"
name = "t"
title = "t"
profile = "mariadb-10.11"
seconds = 20
[buffer_pool]
size = "64M"
[[tables]]
name = "t"
rows = 10000
[[tables]]
name = "u"
rows = 30000
[innodb]
autoinc_lock_mode = {autoinc_lock_mode}
[workload]
kind = "oltp_update_index"
threads = 4
tables = ["t"]
"#
    );
    let mut s = common::sim(&text, "mariadb-10.11");
    let setup = s.connect();
    s.submit_to(setup, "CREATE TABLE n LIKE t").unwrap();
    s.run_for(Tick::from_ms(100));
    s
}

/// Transactions (the workload's UPDATEs) committed in each of the last `n` whole seconds.
fn last_seconds_queries(s: &Sim, n: usize) -> Vec<u64> {
    let samples = s.samples();
    samples[samples.len() - n..].iter().map(|x| x.tps).collect()
}

/// Runs `s` to the next whole second, then `secs` more.
fn run_seconds(s: &mut Sim, secs: u64) {
    let now = s.now();
    let next = Tick::from_secs(now.as_secs() + 1);
    s.run_until(next + Tick::from_secs(secs));
}

const UPDATE_TRIGGER: &str = "CREATE TRIGGER pt_osc_upd AFTER UPDATE ON t FOR EACH ROW \
    REPLACE INTO n (id, k, c, pad) VALUES (NEW.id, NEW.k, NEW.c, NEW.pad)";

#[test]
fn a_trigger_locks_its_table_for_every_write_of_the_workload() {
    // Without a trigger, LOCK TABLES n WRITE leaves the workload on t alone; with
    // one, every UPDATE of t prelocks n and waits.
    for with_trigger in [false, true] {
        let mut s = sim(1);
        let console = s.connect();
        if with_trigger {
            let id = s.submit_to(console, UPDATE_TRIGGER).unwrap()[0];
            s.run_for(Tick::from_secs(1));
            assert_eq!(outcome(&s, id), "ok");
        }
        run_seconds(&mut s, 2);
        let before = last_seconds_queries(&s, 1)[0];
        assert!(before > 100, "the workload runs: {before}");
        s.submit_to(console, "LOCK TABLES n WRITE").unwrap();
        run_seconds(&mut s, 2);
        let during = last_seconds_queries(&s, 1)[0];
        if with_trigger {
            assert_eq!(during, 0, "every UPDATE of t waits for n's lock");
        } else {
            assert!(during > before / 2, "{during} against {before}");
        }
        s.submit_to(console, "UNLOCK TABLES").unwrap();
        run_seconds(&mut s, 2);
        assert!(last_seconds_queries(&s, 1)[0] > before / 2);
    }
}

#[test]
fn a_copy_chunk_holds_the_autoinc_lock_the_triggers_writes_wait_for_at_mode_1() {
    // A chunk stopped at a row another transaction holds keeps n's AUTO-INC lock
    // (mode 1): the trigger's REPLACE of every UPDATE of t queues behind it. At mode 2
    // there is no such lock and the workload goes on. (The chunk copies rows of u whose
    // ids are past t's, so its row locks are in no workload write's way: a stopped
    // chunk of t's own rows would catch every client on its shared locks, in either
    // mode.)
    for mode in [1u8, 2] {
        let mut s = sim(mode);
        let console = s.connect();
        let holder = s.connect();
        s.submit_to(console, UPDATE_TRIGGER).unwrap();
        run_seconds(&mut s, 1);
        let before = last_seconds_queries(&s, 1)[0];
        s.submit_to(holder, "BEGIN; SELECT * FROM u WHERE id = 20500 FOR UPDATE")
            .unwrap();
        s.run_for(Tick::from_ms(10));
        let chunk = s
            .submit_to(
                console,
                "INSERT LOW_PRIORITY IGNORE INTO n (id, k, c, pad) SELECT id, k, c, pad \
                 FROM u FORCE INDEX(PRIMARY) WHERE id >= 20001 AND id <= 21000 LOCK IN SHARE MODE",
            )
            .unwrap()[0];
        run_seconds(&mut s, 2);
        assert_eq!(outcome(&s, chunk), "waiting");
        let during = last_seconds_queries(&s, 1)[0];
        // A console insert into n: it waits for the AUTO-INC lock at mode 1, and SHOW
        // ENGINE INNODB STATUS says so as InnoDB does.
        let other = s.connect();
        let ins = s
            .submit_to(other, "INSERT INTO n (k, c, pad) VALUES (1, 'a', 'b')")
            .unwrap()[0];
        s.run_for(Tick::from_ms(100));
        let status = s.submit_to(holder, "SHOW ENGINE INNODB STATUS").unwrap()[0];
        s.run_for(Tick::from_ms(10));
        let text = s.statements()[status as usize].client_output().unwrap();
        let waiting = text.contains("setting auto-inc lock")
            && text.contains("TABLE LOCK table `test`.`n` trx id")
            && text.contains("lock mode AUTO-INC waiting");
        assert_eq!(waiting, mode == 1, "mode {mode}: {text}");
        assert_eq!(outcome(&s, ins) == "waiting", mode == 1);
        if mode == 1 {
            assert_eq!(during, 0, "mode 1: every trigger write waits for the chunk");
        } else {
            assert!(during > before / 3, "mode 2: {during} against {before}");
        }
        s.submit_to(holder, "COMMIT").unwrap();
        run_seconds(&mut s, 2);
        assert_eq!(outcome(&s, chunk), "ok");
        assert!(last_seconds_queries(&s, 1)[0] > before / 3);
    }
}

#[test]
fn the_atomic_swap_waits_for_the_triggers_writers_and_the_workload_goes_on_on_the_new_table() {
    let mut s = sim(1);
    let console = s.connect();
    s.submit_to(console, UPDATE_TRIGGER).unwrap();
    s.submit_to(
        console,
        "INSERT IGNORE INTO n SELECT * FROM t WHERE id BETWEEN 1 AND 10000",
    )
    .unwrap();
    run_seconds(&mut s, 1);
    // An open transaction that wrote t through the workload's path: its UPDATE fired
    // the trigger, so it holds SHARED_WRITE on n too.
    let open = s.connect();
    s.submit_to(open, "BEGIN; UPDATE t SET k = k + 1 WHERE id = 5")
        .unwrap();
    s.run_for(Tick::from_ms(100));
    let swap = s
        .submit_to(console, "RENAME TABLE t TO _t_old, n TO t")
        .unwrap()[0];
    run_seconds(&mut s, 1);
    assert_eq!(outcome(&s, swap), "waiting");
    assert_eq!(
        last_seconds_queries(&s, 1)[0],
        0,
        "the workload queues behind it"
    );
    s.submit_to(open, "COMMIT").unwrap();
    run_seconds(&mut s, 2);
    assert_eq!(outcome(&s, swap), "ok");
    assert!(
        last_seconds_queries(&s, 1)[0] > 100,
        "the workload runs on the new t"
    );
    // The trigger went with the old table: dropping it needs no trigger's table.
    let drop = s
        .submit_to(console, "DROP TRIGGER pt_osc_upd; DROP TABLE _t_old")
        .unwrap();
    run_seconds(&mut s, 1);
    for id in drop {
        assert_eq!(outcome(&s, id), "ok");
    }
}

/// pt-online-schema-change 3.x's update trigger, as the tool sends it (one query).
const COMPOUND_UPDATE_TRIGGER: &str = "CREATE TRIGGER `pt_osc_test_t_upd` AFTER UPDATE ON \
    `test`.`t` FOR EACH ROW BEGIN DECLARE CONTINUE HANDLER FOR 1146 begin end; \
    DELETE IGNORE FROM `test`.`n` WHERE !(OLD.`id` <=> NEW.`id`) AND `test`.`n`.`id` <=> OLD.`id`; \
    REPLACE INTO `test`.`n` (`id`, `k`, `c`, `pad`) VALUES (NEW.`id`, NEW.`k`, NEW.`c`, NEW.`pad`); \
    END ";

#[test]
fn a_compound_trigger_body_runs_its_statements_and_its_handler_skips_a_missing_table() {
    let mut s = sim(1);
    let console = s.connect();
    let id = s.submit_one(console, COMPOUND_UPDATE_TRIGGER).unwrap();
    s.run_for(Tick::from_secs(1));
    assert_eq!(outcome(&s, id), "ok");
    // The body's REPLACE writes n: LOCK TABLES n WRITE stops the workload's UPDATEs.
    let lock = s.submit_to(console, "LOCK TABLES n WRITE").unwrap()[0];
    run_seconds(&mut s, 2);
    assert_eq!(outcome(&s, lock), "ok");
    assert_eq!(last_seconds_queries(&s, 1)[0], 0, "the UPDATEs wait for n");
    s.submit_to(console, "UNLOCK TABLES").unwrap();
    run_seconds(&mut s, 1);
    // A console UPDATE runs the body too (the guarded DELETE deletes nothing).
    let upd = s
        .submit_to(console, "UPDATE t SET k = k + 1 WHERE id = 5")
        .unwrap()[0];
    s.run_for(Tick::from_secs(1));
    assert_eq!(outcome(&s, upd), "ok");
    // With n gone, the handler for 1146 skips the body: the workload goes on.
    s.submit_to(console, "DROP TABLE n").unwrap();
    run_seconds(&mut s, 2);
    assert!(
        last_seconds_queries(&s, 1)[0] > 100,
        "writes go on without n"
    );
    // Sent through the mysql client's ;-splitting, the body is cut at its first `;`.
    assert!(s.submit_to(console, COMPOUND_UPDATE_TRIGGER).is_err());
}

#[test]
fn a_copy_chunk_costs_each_secondary_index_by_its_key() {
    // pt-online-schema-change's chunk of 10,000 rows into three empty copies of t, on
    // an idle server: the primary key alone, with KEY k_1 (k), with k_1 and KEY k_c
    // (c). mariadbd 10.11 took 34, 73-83 and 211 ms (the profile's note): an entry in
    // an INT key costs about a record, one in a CHAR(120) key three times as much.
    let text = r#"
name = "t"
title = "t"
profile = "mariadb-10.11"
seconds = 10
[buffer_pool]
size = "64M"
[[tables]]
name = "t"
rows = 20000
[workload]
threads = 0
"#;
    let mut s = common::sim(text, "mariadb-10.11");
    let console = s.connect();
    let columns = "id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, \
                   c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', \
                   PRIMARY KEY (id)";
    let mut took_ms = Vec::new();
    for (table, keys) in [
        ("n_pk", ""),
        ("n_k", ", KEY k_1 (k)"),
        ("n_kc", ", KEY k_1 (k), KEY k_c (c)"),
    ] {
        s.submit_to(
            console,
            &format!("CREATE TABLE {table} ({columns}{keys}) ENGINE=InnoDB"),
        )
        .unwrap();
        s.run_for(Tick::from_ms(100));
        let chunk = s
            .submit_to(
                console,
                &format!(
                    "INSERT LOW_PRIORITY IGNORE INTO {table} (id, k, c, pad) SELECT id, k, c, pad \
                     FROM t FORCE INDEX(PRIMARY) WHERE id >= 1 AND id <= 10000 LOCK IN SHARE MODE"
                ),
            )
            .unwrap()[0];
        s.run_for(Tick::from_secs(1));
        assert_eq!(outcome(&s, chunk), "ok");
        let r = &s.statements()[chunk as usize];
        let took = r.finished_at.unwrap() - r.started_at.unwrap();
        took_ms.push(took.as_secs_f64() * 1000.0);
    }
    let [pk, k, kc] = took_ms[..] else {
        unreachable!()
    };
    assert!((25.0..45.0).contains(&pk), "{took_ms:?}");
    assert!((65.0..95.0).contains(&k), "{took_ms:?}");
    assert!((180.0..240.0).contains(&kc), "{took_ms:?}");
}
