use super::*;
use crate::model::runner::DEFAULT_SCENARIO;
use ddlscope_engine::SessionScript;

fn typed() -> Runner {
    let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
    r.run_to(Tick::from_ms(300), f64::INFINITY, &|| 0.0);
    let s2 = r.connect();
    r.run_to(Tick::from_ms(700), f64::INFINITY, &|| 0.0);
    r.submit(s2, "BEGIN;\nSELECT * FROM t1 WHERE id = 5")
        .unwrap();
    r.run_to(Tick::from_ms(900), f64::INFINITY, &|| 0.0);
    r.execute("DROP TABLE t1").unwrap();
    r.run_to(Tick::from_ms(1_200), f64::INFINITY, &|| 0.0);
    r.execute("SELECT * FROM nope").unwrap();
    r.run_to(Tick::from_ms(2_500), f64::INFINITY, &|| 0.0);
    r.submit(s2, "COMMIT").unwrap();
    r.run_to(Tick::from_secs(4), f64::INFINITY, &|| 0.0);
    r.digest();
    r
}

#[test]
fn metrics_have_exactly_the_clis_columns() {
    let r = typed();
    let csv = metrics_csv(r.sim().samples());
    let mut rows = csv.lines();
    assert_eq!(rows.next().unwrap(), Sample::COLUMNS.join(","));
    assert_eq!(rows.count(), r.sim().samples().len());
    let json = metrics_json(r.sim().samples());
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    for column in Sample::COLUMNS {
        assert!(first.get(column).is_some(), "{column} in {first}");
    }
    let events = events_ndjson(r.sim().events());
    assert_eq!(events.lines().count(), r.sim().events().len());
    for line in events.lines().take(50) {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
}

#[test]
fn the_exported_script_replays_with_the_browsers_outcomes() {
    let r = typed();
    let text = session_script(&r);
    assert!(
        text.contains("at 700.000000ms s2: BEGIN; SELECT * FROM t1 WHERE id = 5"),
        "{text}"
    );
    assert!(text.contains("at 900.000000ms s1: DROP TABLE t1"), "{text}");
    assert!(
        text.contains("workload oltp_read_only threads=16") || text.contains("workload "),
        "{text}"
    );
    let script = SessionScript::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let report = script.run(None).unwrap();
    let mut got: Vec<(String, &str, Option<u32>)> = report
        .statements
        .iter()
        .map(|s| (s.sql.clone(), s.outcome, s.error_code.map(u32::from)))
        .collect();
    // What the browser's console showed, statement by statement.
    let mut shown: Vec<(String, &str, Option<u32>)> = r
        .log()
        .iter()
        .filter(|e| !e.note)
        .map(|e| {
            let code = crate::model::embed::error_code(&e.result);
            (e.sql.clone(), if e.error { "error" } else { "ok" }, code)
        })
        .collect();
    // The report lists statements as issued, the console as they finished.
    got.sort();
    shown.sort();
    assert_eq!(got, shown, "\n{text}");
    assert!(
        got.iter()
            .any(|(_, o, c)| *o == "error" && *c == Some(1146)),
        "{got:?}"
    );
}

/// Two tabs besides the first: s1 kills s2 (idle in a transaction) and s3 (which
/// never typed), a workload thread and an id that is no thread; s2 then reconnects.
fn killed() -> Runner {
    let mut r = Runner::new(DEFAULT_SCENARIO, "mysql-8.0.23", 0).unwrap();
    r.run_to(Tick::from_ms(200), f64::INFINITY, &|| 0.0);
    let s2 = r.connect();
    let s3 = r.connect();
    r.submit(s2, "BEGIN; UPDATE t1 SET k = 1 WHERE id = 1")
        .unwrap();
    r.run_to(Tick::from_ms(500), f64::INFINITY, &|| 0.0);
    r.execute(&format!("KILL {s2}; KILL {s3}")).unwrap();
    r.run_to(Tick::from_ms(800), f64::INFINITY, &|| 0.0);
    r.submit(s2, "SELECT 1").unwrap();
    r.run_to(Tick::from_ms(900), f64::INFINITY, &|| 0.0);
    r.submit(s2, "SELECT * FROM t1 WHERE id = 1").unwrap();
    r.run_to(Tick::from_ms(1_000), f64::INFINITY, &|| 0.0);
    // s2's new connection, KILLed by the id the browser shows for it now.
    let again = r.sim().connection_of(s2);
    assert_ne!(again, s2);
    r.execute(&format!("KILL QUERY {again}")).unwrap();
    r.run_to(Tick::from_ms(1_100), f64::INFINITY, &|| 0.0);
    r.execute("KILL 3").unwrap();
    r.run_to(Tick::from_ms(1_200), f64::INFINITY, &|| 0.0);
    r.execute("KILL 999").unwrap();
    r.run_to(Tick::from_secs(3), f64::INFINITY, &|| 0.0);
    r.digest();
    r
}

#[test]
fn a_kill_of_a_tab_names_its_session_and_replays_with_the_same_outcomes() {
    let r = killed();
    let text = session_script(&r);
    assert!(text.contains("\nsession s1 s2 s3\n"), "{text}");
    assert!(
        text.contains("s1: KILL {s2}; KILL {s3}\n"),
        "the typed ids became sessions:\n{text}"
    );
    assert!(text.contains("s1: KILL QUERY {s2}\n"), "{text}");
    assert!(
        text.contains("# KILL 3: 3 was workload thread 3 of"),
        "{text}"
    );
    assert!(
        text.contains("# KILL 999: 999 was no thread in the browser"),
        "{text}"
    );
    let script = SessionScript::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let report = script.run(None).unwrap();
    let got: Vec<(&str, Option<u32>)> = report
        .statements
        .iter()
        .map(|s| (s.outcome, s.error_code.map(u32::from)))
        .collect();
    let mut log: Vec<_> = r.log().into_iter().filter(|e| !e.note).collect();
    log.sort_by_key(|e| e.issued);
    let shown: Vec<(&str, Option<u32>)> = log
        .iter()
        .map(|e| {
            let code = crate::model::embed::error_code(&e.result);
            (if e.error { "error" } else { "ok" }, code)
        })
        .collect();
    assert_eq!(got, shown, "\n{text}\n{:#?}", report.statements);
    // s2's statement after the KILL met the closed connection; KILL 999 no thread.
    assert!(shown.contains(&("error", Some(2006))), "{shown:?}");
    assert!(shown.contains(&("error", Some(1094))), "{shown:?}");
}
