//! Runs rebuilt from their inputs: the engines a link describes ([`open`]), the link
//! that describes the engines on the page ([`capture`]), and the user's statements
//! carried over to a new engine or new server settings ([`carry_over`]) so that
//! nothing typed is lost without a word.

use super::link::LinkState;
use super::panel_layout::PanelLayout;
use super::runner::{Engines, Input, InputKind, Runner};
use ddlscope_engine::Tick;
use std::fmt;

/// The engines `state` describes, on their way to its virtual time (their pools
/// warm and they replay a slice a frame, see [`Engines::work`]): the same tick, the
/// same counters and pool as where the link was made. The clock is left as the link
/// says (paused or playing, at its speed).
pub fn open(state: &LinkState, generation: u32) -> Result<Engines, String> {
    let mut main = Runner::starting(
        &state.scenario,
        state.own.as_deref(),
        &state.engine,
        &state.knobs,
        generation,
    )?;
    main.set_clock(!state.paused, state.speed);
    main.restore(state.inputs(), state.branches.clone(), state.t);
    let mut engines = Engines::new(main);
    if let Some(other) = &state.compare {
        engines.compare(Some(other), &state.knobs)?;
    }
    Ok(engines)
}

/// The link state of the engines on the page, with its panels laid out as `layout`.
pub fn capture(engines: &Engines, layout: &PanelLayout) -> LinkState {
    let main = engines.main();
    let (playing, speed) = main.clock();
    LinkState {
        scenario: main.scenario().to_string(),
        own: main.own().map(|o| Box::new(o.clone())),
        engine: main.profile().to_string(),
        compare: engines.panes.get(1).map(|r| r.profile().to_string()),
        knobs: main.knobs().clone(),
        journal: LinkState::journal_of(main.inputs()),
        branches: main.branches().to_vec(),
        t: main.sim().now(),
        speed,
        paused: !playing,
        panels: Vec::new(),
        layout: LinkState::layout_param(layout),
    }
}

/// What [`carry_over`] did, in words for the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CarryOver {
    /// The new engine's profile.
    pub profile: String,
    /// Statement texts replayed.
    pub statements: usize,
    /// Sessions opened again.
    pub sessions: usize,
    /// Statement texts the new engine refused, with its errors.
    pub refused: Vec<String>,
    /// Inputs recorded after the old engine's time, kept for when the clock gets there.
    pub later: usize,
    /// The virtual time replayed to.
    pub to: Tick,
}

impl CarryOver {
    /// Whether there was anything to carry.
    pub fn is_empty(&self) -> bool {
        self.statements == 0 && self.sessions == 0 && self.later == 0
    }
}

impl fmt::Display for CarryOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        write!(
            f,
            "Your {} replayed on {} up to {:.1} s",
            plural(self.statements, "statement was", "statements were"),
            self.profile,
            self.to.as_ns() as f64 / 1e9
        )?;
        if self.sessions > 0 {
            write!(
                f,
                " ({} opened again)",
                plural(self.sessions, "session", "sessions")
            )?;
        }
        if self.later > 0 {
            write!(
                f,
                "; {} recorded later will run when the clock gets there",
                plural(self.later, "input", "inputs")
            )?;
        }
        if !self.refused.is_empty() {
            write!(f, "; refused there: {}", self.refused.join("; "))?;
        }
        write!(f, ".")
    }
}

/// Replays what the user typed on `old` onto the fresh runner `new` (another engine,
/// or other server settings), up to `old`'s virtual time, through the console's own
/// path: a statement the new engine refuses is logged there and reported. Console
/// session ids are shifted by the difference between the two first console
/// sessions (a new thread count moves them), so each statement goes to the same tab.
pub fn carry_over(old: &Runner, new: &mut Runner) -> CarryOver {
    new.settle();
    let to = old.sim().now();
    let first_old = old.sim().console_session();
    let first_new = new.sim().console_session();
    let map = |id: u32| (id + first_new).saturating_sub(first_old);
    let mut report = CarryOver {
        profile: new.profile().to_string(),
        statements: 0,
        sessions: 0,
        refused: Vec::new(),
        later: 0,
        to,
    };
    let (now, later): (Vec<&Input>, Vec<&Input>) = old.inputs().iter().partition(|i| i.at <= to);
    for input in now {
        new.run_to(input.at, f64::INFINITY, &|| 0.0);
        match &input.kind {
            InputKind::Connect => {
                new.connect();
                report.sessions += 1;
            }
            InputKind::Submit { session, sql } => {
                report.statements += 1;
                if let Err(e) = new.submit(map(*session), sql) {
                    report.refused.push(format!("{sql}: {e}"));
                }
            }
        }
    }
    new.run_to(to, f64::INFINITY, &|| 0.0);
    let later: Vec<Input> = later
        .into_iter()
        .map(|i| Input {
            at: i.at,
            kind: match &i.kind {
                InputKind::Submit { session, sql } => InputKind::Submit {
                    session: map(*session),
                    sql: sql.clone(),
                },
                InputKind::Connect => InputKind::Connect,
            },
        })
        .collect();
    report.later = later.len();
    new.append_future(later);
    new.digest();
    report
}

#[cfg(test)]
mod tests;
