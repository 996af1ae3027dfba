//! A moment of a run as a link carries it, apart from any page: the payload's
//! encoding (`v1.` + deflated JSON in base64url, [`payload`]), what the user did
//! ([`JournalEntry`]) and the server settings ([`Knobs`]), and the server those
//! inputs replay to ([`Moment::replay`]). A scenario that is not built in (an
//! Advisor playbook's run) travels whole in the link ([`own`]). The app's links (`crates/app`,
//! `model::link`) and the CLI's `ddlscope poster LINK` read the same format with
//! this crate, so a poster of a shared moment is the page's moment.
//!
//! ```text
//!   "#v1.<payload>&k=v" ──payload::decode──▶ JSON ──serde──▶ Moment { scenario, engine,
//!                                                            own, knobs, journal, t }
//!   Moment::replay ──▶ Sim::new(scenario with knobs) ──run_until(at), apply each input──▶ Sim at t
//! ```
//!
//! Like the engine, it knows no browser, terminal, file or wall clock.

// Small functions: clippy's too_many_lines (clippy.toml) holds the code to 120 lines a
// function; tests (a table of cases, a walk through a scenario) may run longer.
#![cfg_attr(test, allow(clippy::too_many_lines))]

pub mod journal;
pub mod knobs;
pub mod moment;
pub mod own;
pub mod payload;

pub use journal::JournalEntry;
pub use knobs::Knobs;
pub use moment::{Moment, DEFAULT_PROFILE, DEFAULT_SCENARIO};
pub use payload::LinkError;
