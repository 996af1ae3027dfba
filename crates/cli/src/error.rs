//! How a command ends when it does not succeed.

use std::io;

/// Why a command stopped: a message for the user, or the reader of its output went
/// away (`ddlscope list | head`), after which it stops quietly, as `cat` and `grep` do.
#[derive(Debug)]
pub enum CliError {
    /// A message for the user; the exit code is 1.
    Failed(String),
    /// The reader of the output went away; the command stops quietly.
    OutputClosed,
}

impl From<String> for CliError {
    fn from(e: String) -> CliError {
        CliError::Failed(e)
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        if e.kind() == io::ErrorKind::BrokenPipe {
            CliError::OutputClosed
        } else {
            CliError::Failed(format!("writing output: {e}"))
        }
    }
}
