//! What the user did, at the virtual tick the engine applied it: a link's journal.
//! The app's runner records these as it applies them (`model::runner::Input`), so
//! the journal's ticks are the engine's own, never the page's clock.

use ddlscope_engine::Tick;
use serde::{Deserialize, Serialize};

/// One thing the user did, at a virtual time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "k")]
pub enum JournalEntry {
    /// A console session opened (`+ new`).
    #[serde(rename = "c")]
    Connect {
        /// When, virtual ns.
        at: Tick,
    },
    /// Statements typed into a console session.
    #[serde(rename = "s")]
    Submit {
        /// When, virtual ns.
        at: Tick,
        /// The session's processlist id.
        session: u32,
        /// The text, as typed.
        sql: String,
    },
}

impl JournalEntry {
    /// When it happened.
    pub fn at(&self) -> Tick {
        match self {
            JournalEntry::Connect { at } | JournalEntry::Submit { at, .. } => *at,
        }
    }
}
