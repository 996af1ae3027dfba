//! Console sessions, transactions and metadata locks, end to end through `Sim`.

use ddlscope_engine::{Profile, Scenario, Sim, StatementOutcome, Tick};

fn sim() -> Sim {
    let scenario = Scenario::from_toml(
        r#"
name = "t"
title = "t"
profile = "mysql-8.0.23"
[buffer_pool]
size = "64M"
[[tables]]
name = "t"
rows = 10000
[[tables]]
name = "u"
rows = 1000
[workload]
threads = 0
"#,
    )
    .unwrap();
    Sim::new(scenario, Profile::builtin("mysql-8.0.23").unwrap()).unwrap()
}

fn outcome(sim: &Sim, id: u32) -> String {
    let r = &sim.statements()[id as usize];
    match &r.outcome {
        None => "waiting".into(),
        Some(StatementOutcome::Ok { .. }) => "ok".into(),
        Some(StatementOutcome::Error { code, .. }) => format!("error {code}"),
    }
}

#[test]
fn i4_create_index_waits_for_the_open_transaction_and_new_statements_queue() {
    let mut s = sim();
    let a = s.connect();
    let b = s.connect();
    let c = s.connect();
    let d = s.connect();
    s.submit_to(a, "BEGIN; UPDATE t SET k=1").unwrap();
    s.run_for(Tick::from_ms(500));
    let ddl = s.submit_to(b, "CREATE INDEX idx ON t (k, c)").unwrap()[0];
    s.run_for(Tick::from_ms(200));
    let sel = s.submit_to(c, "SELECT * FROM t WHERE id = 5").unwrap()[0];
    let other = s.submit_to(d, "SELECT * FROM u WHERE id = 5").unwrap()[0];
    s.run_for(Tick::from_ms(200));
    assert_eq!(outcome(&s, ddl), "waiting");
    assert_eq!(outcome(&s, sel), "waiting");
    assert_eq!(outcome(&s, other), "ok");
    let show = s.submit_to(d, "SHOW PROCESSLIST").unwrap()[0];
    let pfs = s
        .submit_to(d, "SELECT OBJECT_NAME, LOCK_TYPE, LOCK_STATUS FROM performance_schema.metadata_locks WHERE OBJECT_TYPE = 'TABLE'")
        .unwrap()[0];
    s.run_for(Tick::from_ms(10));
    let out = s.statements()[show as usize].client_output().unwrap();
    eprintln!("{out}");
    assert!(out.contains("Waiting for table metadata lock"), "{out}");
    let out = s.statements()[pfs as usize].client_output().unwrap();
    eprintln!("{out}");
    assert!(
        out.contains("SHARED_WRITE") && out.contains("PENDING"),
        "{out}"
    );
    let commit = s.submit_to(a, "COMMIT").unwrap()[0];
    s.run_for(Tick::from_secs(2));
    assert_eq!(outcome(&s, commit), "ok");
    assert_eq!(outcome(&s, sel), "ok");
    assert_eq!(outcome(&s, ddl), "ok");
    let fin = |i: u32| s.statements()[i as usize].finished_at.unwrap();
    assert!(fin(sel) <= fin(ddl));
}
