//! The shell commands operators run on the data files beside the server: a scenario's
//! `shell = "..."` script lines, parsed here with the rest of the scenario format and
//! run by the simulation (`sim/os.rs`).
//!
//! Paths are absolute, or relative to the datadir as MySQL prints them (`./test/big.ibd`):
//!
//! ```text
//!   mkdir PATH                       a directory
//!   ln SRC DST                       a hard link
//!   rm PATH                          unlink
//!   truncate -s SIZE PATH            to SIZE (e.g. 0, 10G)
//!   truncate-loop STEP EVERY PATH    the operators' loop: shrink by STEP (1G), sleep
//!                                    EVERY (1s, 500ms), until empty; then rm
//! ```

use crate::size::ByteSize;
use crate::time::Tick;

/// The datadir on the simulated file system.
pub const DATADIR: &str = "/datadir";

/// A file path as MySQL shows it (`./test/t.ibd`) on the simulated file system.
pub fn fs_path(display: &str) -> String {
    match display.strip_prefix("./") {
        Some(rest) => format!("{DATADIR}/{rest}"),
        None => display.to_string(),
    }
}

/// One parsed shell command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShellCommand {
    /// `mkdir PATH`.
    Mkdir { path: String },
    /// `ln SRC DST`.
    Link { from: String, to: String },
    /// `rm PATH`.
    Remove { path: String },
    /// `truncate -s SIZE PATH`.
    Truncate { path: String, size: u64 },
    /// `truncate-loop STEP EVERY PATH`.
    TruncateLoop {
        path: String,
        step: u64,
        every: Tick,
    },
}

impl ShellCommand {
    /// Parses one command line; the error says what is wrong with it.
    pub fn parse(line: &str) -> Result<ShellCommand, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let size = |s: &str| -> Result<u64, String> {
            ByteSize::parse(s)
                .map(|b| b.bytes())
                .map_err(|e| format!("'{s}': {e}"))
        };
        match words.as_slice() {
            ["mkdir", path] => Ok(ShellCommand::Mkdir {
                path: fs_path(path),
            }),
            ["ln", from, to] => Ok(ShellCommand::Link {
                from: fs_path(from),
                to: fs_path(to),
            }),
            ["rm", path] => Ok(ShellCommand::Remove {
                path: fs_path(path),
            }),
            ["truncate", "-s", s, path] => Ok(ShellCommand::Truncate {
                path: fs_path(path),
                size: size(s)?,
            }),
            ["truncate-loop", step, every, path] => {
                let step = size(step)?;
                if step == 0 {
                    return Err("truncate-loop: the step must be more than 0".into());
                }
                Ok(ShellCommand::TruncateLoop {
                    path: fs_path(path),
                    step,
                    every: Tick::parse_duration(every).ok_or_else(|| {
                        format!("'{every}': a duration is a number and a unit (500ms, 2s, 1.5s)")
                    })?,
                })
            }
            _ => Err(format!(
                "unknown shell command '{line}': use mkdir PATH, ln SRC DST, rm PATH, \
                 truncate -s SIZE PATH or truncate-loop STEP EVERY PATH"
            )),
        }
    }
}
