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

pub mod bufpool;
pub mod builtin;
pub mod detmath;
pub mod device;
pub mod dict;
pub mod events;
pub mod fs;
pub mod latch;
pub mod mdl;
pub mod metrics;
pub mod profile;
pub mod resultset;
pub mod rng;
pub mod scenario;
pub mod script;
pub mod sim;
pub mod size;
pub mod sql;
pub mod time;
pub mod units;
pub mod workload;

pub use bufpool::{BufPool, Cell, CellKind, FrameInfo, LruPolicy, PageId, SpaceId};
pub use builtin::{PROFILES, SCENARIOS};
pub use device::DeviceKind;
pub use dict::Table;
pub use events::{Event, EventKind, ListKind};
pub use fs::FileSystemKind;
pub use latch::LatchId;
pub use mdl::{MdlLockStatus, MdlNamespace, MdlQueue, MdlType};
pub use metrics::Sample;
pub use profile::Profile;
pub use resultset::ResultSet;
pub use rng::SimRng;
pub use scenario::{Scenario, ScriptStep};
pub use script::SessionScript;
pub use sim::{MdlPoll, ProcesslistRow, SessionView, Sim, StatementOutcome, StatementRecord};
pub use size::ByteSize;
pub use sql::{parse as parse_sql, SqlError};
pub use time::Tick;
pub use units::ThreadId;
pub use workload::WorkloadKind;
