//! The calibration machine's disk as the advisor takes it (`--write-us`, `--fsync-us`,
//! `--io-channels`): `dd` writes 16 KB pages one at a time into the directory the
//! private server's datadir is in, with `oflag=direct` (a page write past the page
//! cache, as `innodb_flush_method=O_DIRECT` writes) and with `oflag=dsync` (a write
//! and its sync, as a redo flush or a checkpoint). One at a time, so one channel: the
//! simulated page cleaner's batches queue on it as on a disk that serves one write.

use crate::util::Result;
use std::path::Path;
use std::process::Command;

/// What the advisor is told about the disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Disk {
    /// One 16 KB direct write, µs.
    pub write_us: u64,
    /// One 16 KB write with its sync, µs.
    pub fsync_us: u64,
}

/// Pages each probe writes (32 MB direct, 4 MB synced).
const DIRECT_PAGES: u32 = 2_000;
const DSYNC_PAGES: u32 = 250;

/// Measures the disk under `dir` (the probe's file is removed after).
pub fn measure(dir: &Path) -> Result<Disk> {
    let file = dir.join(format!("ddlscope-disk-probe-{}", std::process::id()));
    let direct = dd_us_per_page(&file, "direct", DIRECT_PAGES);
    let dsync = dd_us_per_page(&file, "dsync", DSYNC_PAGES);
    let _ = std::fs::remove_file(&file);
    Ok(Disk {
        write_us: direct?,
        fsync_us: dsync?,
    })
}

/// `dd` writing `pages` 16 KB pages to `file` with `oflag=FLAG`: µs a page.
fn dd_us_per_page(file: &Path, flag: &str, pages: u32) -> Result<u64> {
    let out = Command::new("dd")
        .arg("if=/dev/zero")
        .arg(format!("of={}", file.display()))
        .args([
            "bs=16k",
            &format!("count={pages}"),
            &format!("oflag={flag}"),
        ])
        .output()
        .map_err(|e| format!("could not start dd: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("dd oflag={flag} failed: {}", stderr.trim()));
    }
    let (bytes, seconds) = parse_dd(&stderr)
        .ok_or_else(|| format!("dd oflag={flag}: no \"copied\" line in {stderr:?}"))?;
    let pages_written = (bytes / 16_384).max(1) as f64;
    Ok((seconds * 1e6 / pages_written).round().max(1.0) as u64)
}

/// (bytes, seconds) from dd's last line: `32768000 bytes (33 MB, 31 MiB) copied, 0.245 s, 134 MB/s`.
fn parse_dd(stderr: &str) -> Option<(u64, f64)> {
    let line = stderr.lines().rev().find(|l| l.contains(" copied, "))?;
    let bytes = line.split_whitespace().next()?.parse().ok()?;
    let after = line.split(" copied, ").nth(1)?;
    let seconds = after
        .split_whitespace()
        .next()?
        .replace(',', ".")
        .parse()
        .ok()?;
    Some((bytes, seconds))
}

#[cfg(test)]
mod tests {
    use super::parse_dd;

    #[test]
    fn reads_the_copied_line_of_dd() {
        let stderr = "2000+0 records in\n2000+0 records out\n\
                      32768000 bytes (33 MB, 31 MiB) copied, 0.245 s, 134 MB/s\n";
        assert_eq!(parse_dd(stderr), Some((32_768_000, 0.245)));
        assert_eq!(parse_dd("dd: failed to open\n"), None);
    }
}
