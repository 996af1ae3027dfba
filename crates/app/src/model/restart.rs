//! A new scenario, profile or setting: the engines rebuilt (by the worker's host,
//! `worker::host`). What was typed is carried over to the same
//! scenario; compare mode stays on; a setting the engine refuses leaves the running
//! simulation as it was.

use super::knobs::Knobs;
use super::replay::carry_over;
use super::runner::{Engines, Runner};
use ddlscope_engine::Scenario;

/// What a restart did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Restarted {
    /// The engines already run this: nothing done.
    Same,
    /// New engines, their pools warming a slice a frame.
    New {
        /// What the page should say about the typed inputs (carried over, or not).
        notice: Option<String>,
        /// Why compare mode could not go on, if it could not.
        compare_failed: Option<String>,
    },
    /// The engine refused: the simulation named here still runs, as restart
    /// `generation`.
    Failed {
        /// Why, in the page's words.
        error: String,
        /// The scenario still running.
        scenario: String,
        /// Its profile.
        profile: String,
        /// Its settings.
        knobs: Knobs,
    },
}

/// Rebuilds `e` as `scenario` (built in, or `own`) on `profile` with `knobs`,
/// restart `generation`.
pub fn restart(
    e: &mut Engines,
    scenario: &str,
    own: Option<&Scenario>,
    profile: &str,
    knobs: &Knobs,
    generation: u32,
) -> Restarted {
    let current = e.main();
    if current.generation() == generation
        && current.scenario() == scenario
        && current.profile() == profile
        && current.knobs() == knobs
    {
        return Restarted::Same;
    }
    let compared = e.panes.get(1).map(|r| r.profile().to_string());
    match Runner::starting(scenario, own, profile, knobs, generation) {
        Ok(mut runner) => {
            let (playing, speed) = e.main().clock();
            runner.set_clock(playing, speed);
            let notice = carry_typed(e.main(), &mut runner);
            e.panes = vec![runner];
            let compare_failed = e.compare(compared.as_deref(), knobs).err();
            Restarted::New {
                notice,
                compare_failed,
            }
        }
        Err(error) => {
            for r in &mut e.panes {
                r.adopt_generation(generation);
            }
            let main = e.main();
            Restarted::Failed {
                error: Knobs::refused(&error),
                scenario: main.scenario().to_string(),
                profile: main.profile().to_string(),
                knobs: main.knobs().clone(),
            }
        }
    }
}

/// Carries what the user typed on `old` over to `new` (the same scenario on another
/// engine or other settings: replayed to the same time), or says it could not (another
/// scenario has other tables). `None` when there was nothing typed.
fn carry_typed(old: &Runner, new: &mut Runner) -> Option<String> {
    if old.inputs().is_empty() {
        return None;
    }
    if old.scenario() != new.scenario() {
        let n = old.inputs().len();
        return Some(format!(
            "{n} typed input{} of {} not carried over to {}: another scenario has other tables (your statements are still in the console's history, ↑).",
            if n == 1 { " was" } else { "s were" },
            old.scenario(),
            new.scenario()
        ));
    }
    let report = carry_over(old, new);
    (!report.is_empty()).then(|| report.to_string())
}
