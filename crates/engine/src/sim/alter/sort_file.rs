//! The merge sort's temporary file (`row_merge_file_create_low()`, in `tmpdir`).
//! `innodb_disable_sort_file_cache` is OFF by default in every version, so the file is
//! opened without `O_DIRECT`: its runs and merge blocks are `read()` and `write()`
//! through the OS page cache, copies the build's own thread makes on its core, and a
//! file of a few hundred megabytes is deleted before the kernel writes it back.
//!
//! Simplification: the page cache always holds the file (a sort file larger than the
//! kernel's dirty limit would also wait for writeback; `O_DIRECT` is not modelled).

use super::IndexBuild;
use crate::sim::Sim;
use crate::time::Tick;

impl Sim {
    /// CPU to copy `bytes` of the sort file to or from the page cache.
    pub(super) fn sort_file_copy(&self, bytes: u64) -> Tick {
        Tick(self.profile.costs.sort_file_ns_per_kb).times(bytes.div_ceil(1024))
    }

    /// The merge of one block of one pass: the block read (from the two runs it merges)
    /// and written, each a copy, and its entries compared.
    pub(super) fn sort_file_merge_cpu(&self, b: &IndexBuild, block_bytes: u64) -> Tick {
        let entries = block_bytes / b.entry_bytes.max(1);
        let compare = Tick(self.profile.costs.sort_compare_ns).times(entries);
        compare + self.sort_file_copy(block_bytes).times(2)
    }
}
