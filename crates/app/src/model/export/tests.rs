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
