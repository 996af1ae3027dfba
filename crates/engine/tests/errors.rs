//! docs/errors.md, the engine's part: every catalogued bad SQL statement, session
//! script, scenario file, profile file and lesson file gives exactly the message the
//! document says, and the simulation runs on after a refused or failed statement.

mod catalogue;

use ddlscope_engine::{lesson, Profile, Scenario, SessionScript, Sim, StatementOutcome, Tick};

/// The small server the SQL cases run on: t1 and a partitioned tp, no workload.
const SERVER: &str = r#"
name = "errors"
title = "the server of docs/errors.md's SQL cases"
profile = "mysql-8.0.23"
[buffer_pool]
size = "32M"
[[tables]]
name = "t1"
rows = 1000
[[tables]]
name = "tp"
rows = 1000
partitions = 2
[workload]
threads = 0
"#;

fn server() -> Sim {
    let scenario = Scenario::from_toml(SERVER).unwrap();
    Sim::new(scenario, Profile::builtin("mysql-8.0.23").unwrap()).unwrap()
}

/// Runs `sim` until the statements `ids` are finished (at most 60 virtual seconds).
fn finish(sim: &mut Sim, ids: &[u32]) {
    let deadline = sim.now() + Tick::from_secs(60);
    while sim.now() < deadline
        && !ids
            .iter()
            .all(|&i| sim.statements()[i as usize].finished_at.is_some())
    {
        sim.run_for(Tick::from_ms(10));
    }
}

/// What the console prints for `sql` typed into a fresh session: the refusal, or the
/// first failed statement's error line. Then the same session runs a good statement.
fn console(sql: &str) -> String {
    let mut sim = server();
    let s = sim.connect();
    let got = match sim.submit_to(s, sql) {
        Err(e) => e.to_string(),
        Ok(ids) => {
            finish(&mut sim, &ids);
            ids.iter()
                .find_map(|&i| match &sim.statements()[i as usize].outcome {
                    Some(StatementOutcome::Error { .. }) => {
                        sim.statements()[i as usize].client_output()
                    }
                    _ => None,
                })
                .unwrap_or_else(|| "(no error)".into())
        }
    };
    // The simulation runs on: the clock moves and the session answers.
    let before = sim.now();
    let ids = sim.submit_to(s, "SELECT 1").expect("SELECT 1 parses");
    finish(&mut sim, &ids);
    let last = &sim.statements()[ids[0] as usize];
    assert!(
        matches!(last.outcome, Some(StatementOutcome::Ok { .. })),
        "after {sql:?} the session does not answer SELECT 1: {:?}",
        last.outcome
    );
    assert!(sim.now() > before);
    got
}

#[test]
fn sql_errors_are_as_documented_and_the_session_goes_on() {
    catalogue::check("sql", console);
}

#[test]
fn script_errors_are_as_documented() {
    // A table cell writes a line break as `\n`.
    catalogue::check("script", |text| {
        match SessionScript::parse(&text.replace("\\n", "\n")) {
            Err(e) => e,
            Ok(s) => match s.run(None) {
                Err(e) => e,
                Ok(_) => "(no error)".into(),
            },
        }
    });
}

#[test]
fn scenario_errors_are_as_documented() {
    catalogue::check("scenario", |text| {
        let s = match Scenario::from_toml(text) {
            Err(e) => return e,
            Ok(s) => s,
        };
        let p = match Profile::builtin(&s.profile) {
            Err(e) => return e,
            Ok(p) => p,
        };
        match Sim::new(s, p) {
            Err(e) => e,
            Ok(_) => "(no error)".into(),
        }
    });
}

#[test]
fn profile_errors_are_as_documented() {
    catalogue::check("profile", |text| match Profile::from_toml(text) {
        Err(e) => e,
        Ok(_) => "(no error)".into(),
    });
}

#[test]
fn lesson_errors_are_as_documented() {
    catalogue::check("lesson", |text| match lesson::parse("lesson.toml", text) {
        Err(e) => e,
        Ok(_) => "(no error)".into(),
    });
}
