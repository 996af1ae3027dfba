//! What `cargo xtask test` need not run again: a long step (the native tests'
//! runs, a package at a time; conformance; the browser tests) that passed on the same
//! inputs has a stamp, the hash of those inputs, under `target/xtask/stamps/`, and a
//! later run whose inputs hash the same says so instead of running it. The engine is
//! deterministic and the tests' inputs are what they read: the built test binaries
//! (their size and modification time: cargo rewrites one only when it rebuilds it), the conformance scripts, the site's files, the browser tests'
//! files, the versions of MariaDB and Chromium, and this program's own sources.
//! A fresh checkout (CI) has no `target/` and runs everything; `cargo xtask test
//! --rerun` forgets the stamps first.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A hash of a step's inputs, fed piece by piece (FNV-1a: stable from one build of
/// this program to the next, unlike std's hasher).
#[derive(Debug, Clone)]
pub struct Inputs(u64);

impl Default for Inputs {
    fn default() -> Inputs {
        Inputs::new()
    }
}

impl Inputs {
    /// Nothing yet but this program's sources (a change to the checks reruns them;
    /// its binary is no key: the test profile's builds replace it under a running
    /// `cargo xtask`).
    pub fn new() -> Inputs {
        let mut i = Inputs(0xcbf2_9ce4_8422_2325);
        let xtask = crate::util::workspace_root().join("xtask");
        i.dir_contents(&xtask.join("src"))
            .dir_contents(&xtask.join("Cargo.toml"));
        i
    }

    /// Bytes.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Inputs {
        for &x in b {
            self.0 = (self.0 ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3);
        }
        self
    }

    /// A file's path, size and modification time (a missing file counts as such).
    pub fn file_meta(&mut self, path: &Path) -> &mut Inputs {
        self.bytes(path.to_string_lossy().as_bytes());
        match fs::metadata(path) {
            Ok(m) => {
                let mtime = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                self.bytes(&m.len().to_le_bytes())
                    .bytes(&mtime.to_le_bytes())
            }
            Err(_) => self.bytes(b"missing"),
        }
    }

    /// The files under `dir` (recursively, in name order), path and content.
    pub fn dir_contents(&mut self, dir: &Path) -> &mut Inputs {
        for path in files_under(dir) {
            self.bytes(path.to_string_lossy().as_bytes());
            match fs::read(&path) {
                Ok(content) => self.bytes(&content),
                Err(_) => self.bytes(b"unreadable"),
            };
        }
        self
    }

    /// What `program args` prints (a tool's version), or that it cannot run.
    pub fn output_of(&mut self, program: &str, args: &[&str]) -> &mut Inputs {
        match Command::new(program).args(args).output() {
            Ok(out) => self.bytes(&out.stdout),
            Err(_) => self.bytes(b"cannot run"),
        }
    }

    /// The hash.
    pub fn key(&self) -> u64 {
        self.0
    }
}

/// Every file under `dir` (a file alone if `dir` is one), sorted; `node_modules` left
/// out (the lock file stands for it).
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        if d.is_file() {
            out.push(d);
            continue;
        }
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.file_name().is_some_and(|n| n == "node_modules") {
                continue;
            }
            todo.push(p);
        }
    }
    out.sort();
    out
}

/// Where the stamps are.
fn dir() -> PathBuf {
    crate::util::target_dir().join("xtask").join("stamps")
}

/// The stamp's file for `step` (a name made of letters, digits and `-`).
fn path(step: &str) -> PathBuf {
    let name: String = step
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    dir().join(name)
}

/// Whether `step` passed before on inputs hashing to `key`.
pub fn passed_before(step: &str, key: u64) -> bool {
    fs::read_to_string(path(step)).is_ok_and(|s| s.trim() == format!("{key:016x}"))
}

/// Notes that `step` passed on inputs hashing to `key`.
pub fn mark_passed(step: &str, key: u64) {
    let _ = fs::create_dir_all(dir());
    let _ = fs::write(path(step), format!("{key:016x}\n"));
}

/// Forgets every stamp (`cargo xtask test --rerun`).
pub fn forget_all() {
    let _ = fs::remove_dir_all(dir());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_follows_the_inputs() {
        let key = |b: &[u8]| Inputs::new().bytes(b).key();
        assert_eq!(key(b"a"), key(b"a"));
        assert_ne!(key(b"a"), key(b"b"));
        let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let a = Inputs::new().dir_contents(&here).key();
        assert_eq!(a, Inputs::new().dir_contents(&here).key());
        assert_ne!(a, Inputs::new().dir_contents(&here.join("stamps.rs")).key());
    }

    #[test]
    fn a_stamp_says_only_its_own_key() {
        let step = "xtask-stamps-self-test";
        mark_passed(step, 42);
        assert!(passed_before(step, 42));
        assert!(!passed_before(step, 43));
        assert!(!passed_before("xtask-stamps-never-run", 42));
        let _ = fs::remove_file(path(step));
    }
}
