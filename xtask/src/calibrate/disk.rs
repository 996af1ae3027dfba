//! The calibration machine's disk as the advisor takes it (`--write-us`, `--fsync-us`,
//! `--io-channels`): `dd` writes 16 KB pages one at a time into the directory the
//! private server's datadir is in, with `oflag=direct` (a page write past the page
//! cache, as `innodb_flush_method=O_DIRECT` writes) and with `oflag=dsync` (a write
//! and its sync, as a redo flush or a checkpoint); then `PARALLEL` direct writers at
//! once, as the page cleaner's asynchronous batches keep many writes in flight: the
//! disk's channels are their pages a second times one write's time (a disk that
//! serves one write at a time has one).

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
    /// Writes the disk serves at once.
    pub channels: u32,
}

/// Pages each probe writes (32 MB direct, 4 MB synced).
const DIRECT_PAGES: u32 = 2_000;
const DSYNC_PAGES: u32 = 250;
/// Direct writers at once for the channels probe (the cap on the channels found).
const PARALLEL: u32 = 8;

/// Measures the disk under `dir` (the probe's file is removed after).
pub fn measure(dir: &Path) -> Result<Disk> {
    let file = dir.join(format!("ddlscope-disk-probe-{}", std::process::id()));
    let direct = dd_us_per_page(&file, "direct", DIRECT_PAGES);
    let dsync = dd_us_per_page(&file, "dsync", DSYNC_PAGES);
    let _ = std::fs::remove_file(&file);
    let write_us = direct?;
    Ok(Disk {
        write_us,
        fsync_us: dsync?,
        channels: channels(write_us, parallel_pages_per_s(dir)?),
    })
}

/// The channels a disk serving `pages_per_s` with [`PARALLEL`] writers has, when one
/// write alone takes `write_us`.
fn channels(write_us: u64, pages_per_s: f64) -> u32 {
    let n = (pages_per_s * write_us as f64 / 1e6).round();
    (n as u32).clamp(1, PARALLEL)
}

/// [`PARALLEL`] `dd` direct writers at once, each its own file: pages a second.
fn parallel_pages_per_s(dir: &Path) -> Result<f64> {
    #[allow(clippy::disallowed_methods, reason = "xtask times a real disk")]
    let started = std::time::Instant::now();
    let writers: Vec<_> = (0..PARALLEL)
        .map(|i| {
            let file = dir.join(format!("ddlscope-disk-probe-{}-{i}", std::process::id()));
            std::thread::spawn(move || {
                let r = dd_us_per_page(&file, "direct", DIRECT_PAGES);
                let _ = std::fs::remove_file(&file);
                r
            })
        })
        .collect();
    for w in writers {
        w.join().map_err(|_| "a dd writer thread panicked")??;
    }
    let seconds = started.elapsed().as_secs_f64().max(1e-6);
    Ok(f64::from(PARALLEL * DIRECT_PAGES) / seconds)
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
    use super::{channels, parse_dd};

    #[test]
    fn channels_are_the_parallel_rate_times_one_write() {
        // 98 µs a write alone; 8 writers 40,000 pages a second: about 4 at once.
        assert_eq!(channels(98, 40_000.0), 4);
        assert_eq!(channels(98, 5_000.0), 1, "never fewer than one");
        assert_eq!(channels(1_000, 1e6), 8, "never more than the writers");
    }

    #[test]
    fn reads_the_copied_line_of_dd() {
        let stderr = "2000+0 records in\n2000+0 records out\n\
                      32768000 bytes (33 MB, 31 MiB) copied, 0.245 s, 134 MB/s\n";
        assert_eq!(parse_dd(stderr), Some((32_768_000, 0.245)));
        assert_eq!(parse_dd("dd: failed to open\n"), None);
    }
}
