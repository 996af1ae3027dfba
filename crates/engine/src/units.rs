//! Units the whole engine shares.
//!
//! Only constants of the server's own geometry live here, so every subsystem can name
//! them without depending on the one that happens to use them most.

/// InnoDB's page size (`UNIV_PAGE_SIZE_DEF`).
pub const PAGE_SIZE: u64 = 16 * 1024;
