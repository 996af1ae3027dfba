//! ddlscope's engine: a deterministic simulation of the InnoDB internals that make DDL
//! freeze a MySQL server.
//!
//! The engine takes a [`Scenario`], an engine [`Profile`] and timed SQL commands, and
//! gives back an event stream ([`Event`]), per-second samples ([`Sample`]) and state
//! queries (the buffer pool, latches, tables). It runs on virtual time ([`Tick`]) with
//! one seeded random generator per subsystem, so the same inputs give the same trace,
//! bit for bit, natively and in WebAssembly.
//!
//! Architecture invariant: this crate knows nothing of browsers, terminals, files or
//! wall clocks. Built-in scenarios and profiles are compiled in from `assets/`.
//!
//! Entry points, all at the crate root: the app and the CLI build a [`Sim`] with
//! [`Sim::builtin`] or [`Sim::new`] (a [`Scenario`] and a [`Profile`], from [`SCENARIOS`]
//! and [`PROFILES`] or TOML), drive it with [`Sim::run_until`] / [`Sim::run_for`], and
//! type SQL with [`Sim::execute`] (the console) or [`Sim::connect`] + [`Sim::submit_to`]
//! (one session each). They read the views: [`Sim::events`], [`Sim::samples`],
//! [`Sim::sessions`], [`Sim::processlist_rows`], [`Sim::statements`],
//! [`Sim::mdl_queues`], [`Sim::pool`], [`Sim::latch`]. The CLI runs session scripts with
//! [`SessionScript::parse`] then [`SessionScript::run`], and checks `--at` SQL with
//! [`parse_sql`]. Both time the engine with [`SpeedRun`] (their own clock passed in).
//! Everything else is `pub(crate)`: the modules are not part of the API.

// Small functions: clippy's too_many_lines (clippy.toml) holds the code to 120 lines a
// function; tests (a table of cases, a walk through a scenario) may run longer.
#![cfg_attr(test, allow(clippy::too_many_lines))]

pub mod advisor;
pub(crate) mod bufpool;
pub(crate) mod builtin;
pub mod catalog;
pub(crate) mod detmath;
pub(crate) mod device;
pub(crate) mod dict;
pub(crate) mod events;
pub(crate) mod fs;
pub(crate) mod latch;
pub mod lesson;
pub(crate) mod mdl;
pub(crate) mod metrics;
pub(crate) mod profile;
pub(crate) mod resultset;
pub(crate) mod rng;
pub(crate) mod scenario;
pub(crate) mod script;
pub(crate) mod sim;
pub(crate) mod size;
pub(crate) mod speed;
pub(crate) mod sql;
pub(crate) mod time;
pub(crate) mod units;
pub(crate) mod workload;

// Inputs: scenarios, profiles, the built-in ones, session scripts.
pub use builtin::{scenario_text, Asset, LESSONS, PROFILES, SCENARIOS};
pub use device::DeviceKind;
pub use fs::FileSystemKind;
pub use profile::Profile;
pub use scenario::{Scenario, ScriptStep};
pub use script::{ScriptReport, SessionScript};
pub use workload::WorkloadKind;

// Running: the simulation, and SQL checked without running it.
pub use sim::{Sim, SimBuild, WarmUp};
pub use speed::SpeedRun;
pub use sql::parse as parse_sql;

// Outputs: events and samples.
pub use events::{Event, EventKind, ListKind};
pub use metrics::{Sample, WaitGauge};

// Views: sessions and statements, metadata locks, tables, latches, the buffer pool.
pub use dict::Table;
pub use latch::Latch;
pub use mdl::{
    MdlBlocker, MdlContextId, MdlDuration, MdlKey, MdlLockStatus, MdlNamespace, MdlQueue,
    MdlQueueEntry, MdlRequestId, MdlRowId, MdlTicketId, MdlType, MdlWait, MetadataLockRow,
};
pub use resultset::ResultSet;
pub use sim::{ProcesslistRow, SessionView, StatementOutcome, StatementRecord, ToolView};
// The buffer pool itself: the CLI's bench measures it, the app draws its cells.
pub use bufpool::{BufPool, Cell, CellKind, FrameInfo, Lookup, LruPolicy, Lsn, PageId, SpaceId};
pub use bufpool::{ReplayPrefetch, REPLAY_PREFETCH};
pub use rng::SimRng;

// Errors.
pub use sql::SqlError;

// Units.
pub use latch::LatchId;
pub use size::ByteSize;
pub use time::Tick;
pub use units::ThreadId;
