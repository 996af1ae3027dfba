//! The data files on the simulated file system, and the shell commands operators run
//! on them beside the server (a scenario's `shell = "..."` script lines).
//!
//! Every table's `.ibd` lives in [`crate::fs::FileSystem`] under `/datadir/<schema>/`;
//! DDL threads create, extend, rename, truncate and unlink them there, and pay what the
//! file system says each operation costs (ext3's indirect-block walk, ext4/XFS extents).
//! A hard link made by an operator keeps the data alive: the server's unlink then only
//! removes a name, which is the point of I1's hard-link workaround.
//!
//! Shell commands (paths absolute, or relative to the datadir as MySQL prints them,
//! `./test/big.ibd`):
//!
//! ```text
//!   mkdir PATH                       a directory
//!   ln SRC DST                       a hard link
//!   rm PATH                          unlink
//!   truncate -s SIZE PATH            to SIZE (e.g. 0, 10G)
//!   truncate-loop STEP EVERY PATH    the operators' loop: shrink by STEP (1G), sleep
//!                                    EVERY (1s, 500ms), until empty; then rm
//! ```

use super::{Next, Sim};
use crate::events::EventKind;
use crate::fs::FsError;
use crate::size::ByteSize;
use crate::time::Tick;
use crate::ThreadId;

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
                    every: parse_duration(every)?,
                })
            }
            _ => Err(format!(
                "unknown shell command '{line}': use mkdir PATH, ln SRC DST, rm PATH, \
                 truncate -s SIZE PATH or truncate-loop STEP EVERY PATH"
            )),
        }
    }
}

/// `500ms`, `2s`.
fn parse_duration(s: &str) -> Result<Tick, String> {
    let bad = || format!("'{s}': a duration is a whole number of ms or s (500ms, 2s)");
    if let Some(ms) = s.strip_suffix("ms") {
        return ms.parse().map(Tick::from_ms).map_err(|_| bad());
    }
    if let Some(secs) = s.strip_suffix('s') {
        return secs.parse().map(Tick::from_secs).map_err(|_| bad());
    }
    Err(bad())
}

/// An operator's shell command running beside the server.
#[derive(Clone, Debug)]
pub(super) struct Shell {
    pub(super) command: ShellCommand,
    pub(super) line: String,
}

impl Sim {
    /// Runs a shell command line from the scenario's script on its own thread.
    pub(super) fn start_shell(&mut self, line: &str) {
        match ShellCommand::parse(line) {
            Ok(command) => {
                let id = self.spawn(super::Thread::Shell(Box::new(Shell {
                    command,
                    line: line.to_string(),
                })));
                let now = self.now;
                self.schedule_thread(now, id);
            }
            Err(e) => self.emit(EventKind::ShellDone {
                line: line.to_string(),
                result: e,
                error: true,
            }),
        }
    }

    fn shell_done(&mut self, s: &Shell, r: Result<(), FsError>) -> Next {
        let (result, error) = match r {
            Ok(()) => ("ok".to_string(), false),
            Err(e) => (e.to_string(), true),
        };
        self.emit(EventKind::ShellDone {
            line: s.line.clone(),
            result,
            error,
        });
        Next::Exit
    }

    pub(super) fn step_shell(&mut self, t: ThreadId, s: &mut Shell) -> Next {
        match s.command.clone() {
            ShellCommand::Mkdir { path } => {
                let r = self.fs.mkdir(&path).map(|_| ());
                self.shell_done(s, r)
            }
            ShellCommand::Link { from, to } => {
                let r = self.fs.link(&from, &to).map(|_| ());
                self.shell_done(s, r)
            }
            ShellCommand::Remove { path } => {
                let bytes = self.fs.stat(&path).map(|st| st.size_bytes).unwrap_or(0);
                match self.fs.unlink(&path) {
                    Ok(cost) => {
                        self.emit(EventKind::FileUnlink {
                            path: path.clone(),
                            bytes,
                            thread: t,
                            t0: self.now,
                            t1: self.now + cost,
                        });
                        self.shell_done(s, Ok(()))
                    }
                    Err(e) => self.shell_done(s, Err(e)),
                }
            }
            ShellCommand::Truncate { path, size } => {
                let before = self.fs.stat(&path).map(|st| st.size_bytes).unwrap_or(0);
                match self.fs.truncate(&path, size) {
                    Ok(cost) => {
                        self.emit(EventKind::FileTruncate {
                            path,
                            bytes: before.saturating_sub(size),
                            latch: None,
                            t0: self.now,
                            t1: self.now + cost,
                        });
                        self.shell_done(s, Ok(()))
                    }
                    Err(e) => self.shell_done(s, Err(e)),
                }
            }
            ShellCommand::TruncateLoop { path, step, every } => {
                let size = match self.fs.stat(&path) {
                    Ok(st) => st.size_bytes,
                    Err(e) => return self.shell_done(s, Err(e)),
                };
                if size == 0 {
                    s.command = ShellCommand::Remove { path };
                    return Next::After(Tick::ZERO);
                }
                match self.fs.truncate_by(&path, step) {
                    Ok(cost) => {
                        self.emit(EventKind::FileTruncate {
                            path,
                            bytes: step.min(size),
                            latch: None,
                            t0: self.now,
                            t1: self.now + cost,
                        });
                        Next::After(cost + every)
                    }
                    Err(e) => self.shell_done(s, Err(e)),
                }
            }
        }
    }
}
