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

use super::ibd_path;
use super::{Next, Sim};
use crate::events::EventKind;
use crate::fs::{FileSystem, FsError};
use crate::scenario::shell::fs_path;
use crate::scenario::shell::ShellCommand;
use crate::time::Tick;
use crate::ThreadId;

/// How far InnoDB extends a file-per-table tablespace at a time, at most
/// (`fsp_get_pages_to_extend_ibd()`: 4 extents while small, then 64 MiB).
pub(super) const EXTEND_MAX_BYTES: u64 = 64 << 20;

/// Creates `table`'s data file (`./schema/table.ibd`) and extends it to `bytes`, as
/// `fil_ibd_create()` and the extensions that follow it do.
pub(super) fn create_data_file(
    fs: &mut FileSystem,
    schema: &str,
    table: &str,
    bytes: u64,
) -> Result<(), FsError> {
    let path = fs_path(&ibd_path(schema, table));
    // Both run even if the create fails (the file is there already): the file is
    // extended either way, as the callers have always had it.
    let created = fs.create(&path);
    let grown = fs.grow_to(&path, bytes, EXTEND_MAX_BYTES);
    created.and(grown.map(|_| ()))
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
                let id = self.sched.spawn(super::Thread::Shell(Box::new(Shell {
                    command,
                    line: line.to_string(),
                })));
                let now = self.sched.now;
                self.sched.schedule_thread(now, id);
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

    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `Sim::step_thread_until_it_waits`
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
                            t0: self.sched.now,
                            t1: self.sched.now + cost,
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
                            t0: self.sched.now,
                            t1: self.sched.now + cost,
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
                            t0: self.sched.now,
                            t1: self.sched.now + cost,
                        });
                        Next::After(cost + every)
                    }
                    Err(e) => self.shell_done(s, Err(e)),
                }
            }
        }
    }
}
