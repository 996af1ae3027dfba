//! `cargo xtask soak`: the engine's property runs at length, outside the normal test
//! run.
//!
//! ```text
//!  soak [--seeds N] [--first N]   random schedules (crates/engine/src/sim/schedule_props.rs)
//!                                  over N seeds (10,000 by default), one thread a core
//!  soak --seed N                   replay one seed: what a failure's "replay:" line says
//!  soak --hours H                  the long runs (crates/engine/tests/long_run.rs and the
//!                                  app runner's) for H virtual hours
//! ```
//!
//! Each runs the test in the `test` profile, which checks integer overflow; the
//! figures (statements, timeouts, deadlocks, kills; kept events and samples, peak
//! memory) are printed by the tests themselves.

use std::process::Command;

use crate::util::{host_cargo, run, say, Result};

/// What to soak.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Soak {
    /// `seeds` random schedules from seed `first`.
    Seeds { first: u64, seeds: u64 },
    /// One seed, replayed.
    Seed(u64),
    /// The long runs, for this many virtual hours.
    Hours(u64),
}

/// Seeds `cargo xtask soak` runs without `--seeds`.
pub const DEFAULT_SEEDS: u64 = 10_000;

/// Runs it; an error when an invariant broke (the test's output names the seed).
pub fn soak(what: &Soak) -> Result {
    match what {
        Soak::Seeds { first, seeds } => {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            say(
                format!("random schedules: {seeds} seeds from {first} on {threads} threads"),
                "every invariant after every step, and a quiet state at the end of each",
            );
            schedules(&[
                ("DDLSCOPE_SOAK_FIRST", first.to_string()),
                ("DDLSCOPE_SOAK_SEEDS", seeds.to_string()),
                ("DDLSCOPE_SOAK_THREADS", threads.to_string()),
            ])
        }
        Soak::Seed(seed) => {
            say(
                format!("replaying seed {seed}"),
                "a failure prints its broken invariant and last steps",
            );
            schedules(&[("DDLSCOPE_SOAK_SEED", seed.to_string())])
        }
        Soak::Hours(hours) => {
            say(
                format!("{hours} virtual hours of oltp_read_write with a DDL every ten minutes"),
                "the engine's records and the app runner's state stay bounded",
            );
            let h = hours.to_string();
            run(Command::new(host_cargo())
                .args([
                    "test",
                    "-p",
                    "ddlscope-engine",
                    "--test",
                    "long_run",
                    "--",
                    "--nocapture",
                ])
                .env("DDLSCOPE_LONG_RUN_HOURS", &h))?;
            run(Command::new(host_cargo())
                .args([
                    "test",
                    "-p",
                    "ddlscope-app",
                    "--lib",
                    "long_run",
                    "--",
                    "--nocapture",
                ])
                .env("DDLSCOPE_LONG_RUN_HOURS", &h))
        }
    }
}

fn schedules(env: &[(&str, String)]) -> Result {
    let mut cmd = Command::new(host_cargo());
    cmd.args([
        "test",
        "-p",
        "ddlscope-engine",
        "--lib",
        "sim::schedule_props::random_schedules_keep_every_invariant",
        "--",
        "--exact",
        "--nocapture",
    ]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    run(&mut cmd)
}
