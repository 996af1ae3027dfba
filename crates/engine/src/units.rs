//! Units the whole engine shares.
//!
//! Only constants of the server's own geometry and ids every layer names live here, so
//! every subsystem can name them without depending on the one that happens to use them
//! most (or on the crate root, which re-exports them for the app and the CLI).

use serde::{Deserialize, Serialize};

/// InnoDB's page size (`UNIV_PAGE_SIZE_DEF`).
pub const PAGE_SIZE: u64 = 16 * 1024;

/// A simulated thread: a client session, a background thread or a DDL thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ThreadId(pub u32);
