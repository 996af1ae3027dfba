//! The server settings the toolbar changes on top of a scenario: the
//! `ddlscope-moment` crate's (a link carries them, and the CLI's posters read them).

pub use ddlscope_moment::knobs::{parse_named, Knobs};
