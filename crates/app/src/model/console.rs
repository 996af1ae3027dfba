//! What the console does to the engines (run by the worker's host, `worker::host`):
//! a statement given to the active session, with the
//! notice when typing in the past branched history.

use super::format;
use super::runner::{Branch, Engines};

/// The words for a branch of history.
pub fn branch_text(b: Branch) -> String {
    let inputs = if b.dropped == 1 { "input" } else { "inputs" };
    format!(
        "Typing at {} s dropped {} recorded {inputs} after it: history branches here (scrub forward no longer replays them).",
        format::secs(b.at),
        b.dropped
    )
}

/// Gives `sql` to console session `active` of every engine (0: the console's first
/// session). Returns the main engine's answer (see [`Engines::submit`]) and, when the
/// statement branched history, what the page should say.
pub fn submit(e: &mut Engines, active: u32, sql: &str) -> (Result<u32, String>, Option<String>) {
    let session = if active == 0 {
        e.main().sim().console_session()
    } else {
        active
    };
    let result = e.submit(session, sql);
    let branched = e.panes.iter_mut().filter_map(|r| r.take_branch()).next();
    (result, branched.map(branch_text))
}
