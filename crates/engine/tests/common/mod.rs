//! What the integration tests share: a `Sim` built from a scenario text and a built-in
//! profile, running it until something happened, and a statement's outcome in a word.
//!
//! Only the crate root's API: the tests see the engine as the app and the CLI do.
//! Each test binary compiles this module on its own and uses a part of it.
#![allow(dead_code)]

use ddlscope_engine::{EventKind, Profile, Scenario, Sim, StatementOutcome, Tick};

/// A simulation of `scenario` (TOML) under the built-in `profile`.
pub fn sim(scenario: &str, profile: &str) -> Sim {
    sim_with(scenario, profile, |_| {})
}

/// A simulation of `scenario` (TOML), changed by `edit` (a seed, a switch), under the
/// built-in `profile`.
pub fn sim_with(scenario: &str, profile: &str, edit: impl FnOnce(&mut Scenario)) -> Sim {
    let mut scenario = Scenario::from_toml(scenario).unwrap();
    edit(&mut scenario);
    Sim::new(scenario, Profile::builtin(profile).unwrap()).unwrap()
}

/// Runs `sim` in `step` slices until `done` holds or virtual time reaches `deadline`;
/// returns whether `done` holds.
pub fn run_until(sim: &mut Sim, step: Tick, deadline: Tick, done: impl Fn(&Sim) -> bool) -> bool {
    while !done(sim) && sim.now() < deadline {
        sim.run_for(step);
    }
    done(sim)
}

/// Whether some statement has finished (its `StatementFinished` event is out).
pub fn any_statement_finished(sim: &Sim) -> bool {
    sim.events()
        .iter()
        .any(|e| matches!(e.kind, EventKind::StatementFinished { .. }))
}

/// How many statements have finished without an error.
pub fn statements_ok(sim: &Sim) -> usize {
    sim.events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::StatementFinished { error: false, .. }))
        .count()
}

/// Statement `id`'s outcome in a word: `waiting`, `ok` or `error <code>`.
pub fn outcome(sim: &Sim, id: u32) -> String {
    let r = &sim.statements()[id as usize];
    match &r.outcome {
        None => "waiting".into(),
        Some(StatementOutcome::Ok { .. }) => "ok".into(),
        Some(StatementOutcome::Error { code, .. }) => format!("error {code}"),
    }
}
