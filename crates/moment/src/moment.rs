//! The part of a link's state that decides the server's state at its moment: the
//! scenario, the engine, the settings, the journal and the virtual time (the page's
//! state around it, speed, panels, compare engine's own panes, stays the app's:
//! `model::link::LinkState`, whose JSON this reads), and the server it replays to.

use crate::journal::JournalEntry;
use crate::knobs::Knobs;
use crate::payload::{self, LinkError};
use ddlscope_engine::{Profile, Scenario, Sim, Tick};
use serde::{Deserialize, Serialize};

/// The scenario a page starts with.
pub const DEFAULT_SCENARIO: &str = "drop-table-demo";
/// The engine profile a page starts with.
pub const DEFAULT_PROFILE: &str = "mysql-5.7";
/// The latest virtual time a link may ask for: replaying further would keep the
/// page busy for minutes.
pub const MAX_LINK_TIME: Tick = Tick::from_secs(3600);
/// The most journal entries a link may hold.
pub const MAX_JOURNAL: usize = 2000;

/// A moment of a run: what makes the server's state there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Moment {
    /// The scenario's name: a built-in one's, or [`Moment::own`]'s.
    pub scenario: String,
    /// The scenario itself, when it is not built in (`crate::own`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own: Option<Box<Scenario>>,
    /// The engine profile.
    pub engine: String,
    /// The profile compared side by side, if any (its server is this one's replay on
    /// that engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<String>,
    /// Server settings, seed and whether the scenario's script runs.
    #[serde(default, skip_serializing_if = "Knobs::is_default")]
    pub knobs: Knobs,
    /// What the user did, in time order, at the engine's ticks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub journal: Vec<JournalEntry>,
    /// The virtual time.
    #[serde(default)]
    pub t: Tick,
}

impl Moment {
    /// The moment of a link: a whole address, its fragment or its `v1.…` item.
    pub fn from_link(link: &str) -> Result<Moment, LinkError> {
        let item = payload::state_item(link.trim()).ok_or_else(|| {
            LinkError::Malformed(
                "no state (v1.…) in it: use the link the Share button gives".into(),
            )
        })?;
        let json = payload::decode(item)?;
        let moment: Moment =
            serde_json::from_slice(&json).map_err(|e| LinkError::Malformed(e.to_string()))?;
        check_times(moment.t, &moment.journal)?;
        if let Some(own) = &moment.own {
            crate::own::check_own(&moment.scenario, own).map_err(LinkError::Invalid)?;
        }
        Ok(moment)
    }

    /// The link's state item for this moment (the page opens it paused there).
    pub fn to_item(&self) -> String {
        let mut json = serde_json::to_value(self).expect("a moment always serializes");
        json["paused"] = serde_json::Value::Bool(true);
        payload::encode(json.to_string().as_bytes())
    }

    /// The server at this moment on `engine` (the moment's own, or its compare
    /// engine): the scenario with the settings applied (its own timed statements
    /// only when the settings run them), warmed, each journal entry applied at its
    /// tick, run to `t`: as the app's runner replays a link (`model::runner`).
    pub fn replay_on(&self, engine: &str) -> Result<Sim, String> {
        let mut scenario = crate::own::scenario_of(&self.scenario, self.own.as_deref())?;
        self.knobs.apply(&mut scenario);
        if !self.knobs.runs_script() {
            scenario.script.clear();
        }
        let mut sim = Sim::new(scenario, Profile::builtin(engine)?)?;
        for entry in self.journal.iter().take_while(|e| e.at() <= self.t) {
            if entry.at() > sim.now() {
                sim.run_until(entry.at());
            }
            // Accepted when typed, and the run is deterministic: it is again (a
            // statement's own error is the server's answer, part of the run).
            match entry {
                JournalEntry::Connect { .. } => {
                    sim.connect();
                }
                JournalEntry::Submit { session, sql, .. } => {
                    let _ = sim.submit_to(*session, sql);
                }
            }
        }
        if self.t > sim.now() {
            sim.run_until(self.t);
        }
        Ok(sim)
    }

    /// The server at this moment on its own engine (see [`Moment::replay_on`]).
    pub fn replay(&self) -> Result<Sim, String> {
        self.replay_on(&self.engine)
    }
}

/// Checks what a hand-edited or hostile link could get wrong in its times: `t` and
/// every entry within [`MAX_LINK_TIME`], the journal in time order and at most
/// [`MAX_JOURNAL`] long.
pub fn check_times(t: Tick, journal: &[JournalEntry]) -> Result<(), LinkError> {
    let bad = |s: String| Err(LinkError::Invalid(s));
    if t > MAX_LINK_TIME {
        return bad(format!(
            "virtual time {} s (at most {} s)",
            t.as_secs(),
            MAX_LINK_TIME.as_secs()
        ));
    }
    if journal.len() > MAX_JOURNAL {
        return bad(format!(
            "{} journal entries (at most {MAX_JOURNAL})",
            journal.len()
        ));
    }
    let mut last = Tick::ZERO;
    for e in journal {
        if e.at() < last {
            return bad(format!(
                "the journal goes back in time at {} ns",
                e.at().as_ns()
            ));
        }
        if e.at() > MAX_LINK_TIME {
            return bad(format!("an input at {} s", e.at().as_secs()));
        }
        last = e.at();
    }
    Ok(())
}

#[cfg(test)]
mod tests;
