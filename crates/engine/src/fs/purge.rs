//! AliSQL's purge of large files (`innodb_data_file_purge`): the name a dropped
//! table's file gets in the purge directory, and the purge thread's truncate-sleep-
//! unlink steps as a pure plan the simulation applies to the file system.

use crate::size::ByteSize;
use crate::time::Tick;

/// The name AliSQL gives a dropped table's file in its purge directory
/// (`File_purge::generate_file()`): `#FP_<server start time>_<n>`.
pub fn purge_file_name(dir: &str, start_time_s: u64, n: u64) -> String {
    format!("{}/#FP_{start_time_s}_{n}", dir.trim_end_matches('/'))
}

/// How each purge step shrinks the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PurgeStepping {
    /// Shrink by `max_size` per step (`os_file_truncate(path, handle, file_size -
    /// size)` in PolarDB-X's and GreatSQL's `File_purge::purge_file()`).
    #[default]
    ShrinkBy,
    /// Truncate straight to `max_size`, then unlink: how the 2019 AliSQL code is
    /// described in our notes (UNVERIFIED here); one step then frees nearly everything.
    TruncateTo,
}

/// One step of the purge thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PurgeStep {
    /// `ftruncate` the file to this size.
    Truncate {
        /// The size after the step.
        to_size_bytes: u64,
    },
    /// Sleep `innodb_data_file_purge_interval`.
    Sleep {
        /// How long.
        duration: Tick,
    },
    /// `os_file_delete()` of what is left (at most `max_size`); the plan ends.
    Unlink,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PurgePhase {
    Step,
    Sleep,
    Done,
}

/// AliSQL's "purge large file asynchronously" as a pure plan (InnoDB/AliSQL:
/// `srv_file_purge_thread()` driving `File_purge::purge_file()`): for a file renamed
/// into the purge directory, the truncate steps with a sleep after each, then the final
/// unlink. The simulator's background thread applies each step to the [`FileSystem`](super::FileSystem);
/// the plan is a plain value, so it clones with a checkpoint.
///
/// ```text
/// 2.1G file, max_size 512M:  truncate 1.6G, sleep, truncate 1.1G, sleep,
///                            truncate 612M, sleep, truncate 100M, sleep, unlink
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PurgePlan {
    size_bytes: u64,
    max_size_bytes: u64,
    interval: Tick,
    stepping: PurgeStepping,
    phase: PurgePhase,
}

impl PurgePlan {
    /// `innodb_data_file_purge_max_size` default: 512 MB per step.
    pub const DEFAULT_MAX_SIZE_BYTES: u64 = 512 * ByteSize::MIB;
    /// `innodb_data_file_purge_interval` default: 100 ms.
    pub const DEFAULT_INTERVAL: Tick = Tick::from_ms(100);

    /// The plan for a file of `size_bytes` with the default options.
    pub fn new(size_bytes: u64) -> PurgePlan {
        PurgePlan {
            size_bytes,
            max_size_bytes: Self::DEFAULT_MAX_SIZE_BYTES,
            interval: Self::DEFAULT_INTERVAL,
            stepping: PurgeStepping::default(),
            phase: PurgePhase::Step,
        }
    }

    /// `innodb_data_file_purge_max_size`; 0 unlinks at once (as `_immediate` does).
    pub fn with_max_size_bytes(self, max_size_bytes: u64) -> PurgePlan {
        PurgePlan {
            max_size_bytes,
            ..self
        }
    }

    /// `innodb_data_file_purge_interval`; zero means no sleeps.
    pub fn with_interval(self, interval: Tick) -> PurgePlan {
        PurgePlan { interval, ..self }
    }

    /// How each step shrinks the file.
    pub fn with_stepping(self, stepping: PurgeStepping) -> PurgePlan {
        PurgePlan { stepping, ..self }
    }
}

impl Iterator for PurgePlan {
    type Item = PurgeStep;

    /// Bounded: every truncate shrinks the file by `max_size > 0` (or to it, once).
    fn next(&mut self) -> Option<PurgeStep> {
        match self.phase {
            PurgePhase::Done => None,
            PurgePhase::Sleep => {
                self.phase = PurgePhase::Step;
                Some(PurgeStep::Sleep {
                    duration: self.interval,
                })
            }
            PurgePhase::Step => {
                if self.max_size_bytes > 0 && self.size_bytes > self.max_size_bytes {
                    self.size_bytes = match self.stepping {
                        PurgeStepping::ShrinkBy => self.size_bytes - self.max_size_bytes,
                        PurgeStepping::TruncateTo => self.max_size_bytes,
                    };
                    if self.interval > Tick::ZERO {
                        self.phase = PurgePhase::Sleep;
                    }
                    Some(PurgeStep::Truncate {
                        to_size_bytes: self.size_bytes,
                    })
                } else {
                    self.phase = PurgePhase::Done;
                    Some(PurgeStep::Unlink)
                }
            }
        }
    }
}
