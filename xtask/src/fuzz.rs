//! `cargo xtask fuzz [--seconds N] [--runs N] [--no-build] [TARGET]`: builds the cargo-fuzz targets
//! of `fuzz/` (libFuzzer, no sanitizer, so a stable toolchain builds them), seeds each
//! target's corpus from `assets/` and the tests, runs the targets one after another
//! and reports executions, speed, corpus size and crashes per target.
//!
//! ```text
//!   fuzz/fuzz_targets/*.rs ──cargo fuzz build──▶ target/fuzz/<triple>/release/<target>
//!   assets/, tests, fuzz/seeds/ ──seeds::collect──▶ target/fuzz/corpus/<target>/seed-*
//!   <target> corpus -max_total_time=N ──▶ target/fuzz/logs/<target>.log  (stats parsed)
//!                                      ──▶ target/fuzz/artifacts/<target>/crash-*
//! ```
//!
//! Campaigns are never part of `cargo xtask test`; the fuzz crate is its own
//! workspace, so nothing else builds it either.

mod seeds;

use crate::util::{self, note, say, Result};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The targets, in the order a full campaign runs them, and the largest input each
/// is given (bytes): enough for the biggest seed, small enough to keep runs fast.
pub const TARGETS: [(&str, usize); 8] = [
    ("sql", 2048),
    ("script", 4096),
    ("scenario", 8192),
    ("profile", 16384),
    ("lesson", 16384),
    ("link", 4096),
    ("embed", 1024),
    ("message", 1024),
];

/// What `cargo xtask fuzz` was asked.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    /// Wall seconds per target.
    pub seconds: u64,
    /// Stop a target after this many executions (whichever of the two comes first).
    pub runs: Option<u64>,
    /// One target, or all of them.
    pub target: Option<String>,
    /// Build the targets first (`--no-build` runs the ones already built).
    pub build: bool,
}

/// One target's campaign, as libFuzzer reported it.
#[derive(Debug, Default, PartialEq)]
struct Outcome {
    executions: u64,
    exec_per_sec: u64,
    seconds: f64,
    corpus_files: usize,
    corpus_bytes: u64,
    crashes: Vec<PathBuf>,
}

/// Runs the campaign; fails when a target crashed.
pub fn fuzz(opts: &Options) -> Result {
    let targets: Vec<(&str, usize)> = match &opts.target {
        None => TARGETS.to_vec(),
        Some(name) => vec![*TARGETS.iter().find(|(t, _)| t == name).ok_or_else(|| {
            let names: Vec<&str> = TARGETS.iter().map(|(t, _)| *t).collect();
            format!(
                "no fuzz target {name:?}; the targets are {}",
                names.join(", ")
            )
        })?],
    };
    let root = util::workspace_root();
    let work = util::target_dir().join("fuzz");
    if opts.build {
        ensure_cargo_fuzz()?;
        build(&root, &work, opts.target.as_deref())?;
    }
    for (target, _) in &targets {
        if !binary(&work, target).is_file() {
            return Err(format!(
                "{} is not built; run cargo xtask fuzz without --no-build",
                binary(&work, target).display()
            ));
        }
    }
    let mut rows = Vec::new();
    for (target, max_len) in targets {
        let corpus = work.join("corpus").join(target);
        let n = seeds::write(&root, target, &corpus)?;
        say(
            format!("fuzz {target} for {} s", opts.seconds),
            format!("{n} seeds in {}", corpus.display()),
        );
        let outcome = run_target(&work, target, max_len, &corpus, opts)?;
        rows.push((target, outcome));
    }
    report(&rows);
    let crashed: Vec<&str> = rows
        .iter()
        .filter(|(_, o)| !o.crashes.is_empty())
        .map(|(t, _)| *t)
        .collect();
    if crashed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "fuzz targets crashed: {} (inputs in target/fuzz/artifacts/; replay one with \
             target/fuzz/x86_64-unknown-linux-gnu/release/TARGET FILE)",
            crashed.join(", ")
        ))
    }
}

/// Installs cargo-fuzz from crates.io when `cargo fuzz` is missing.
fn ensure_cargo_fuzz() -> Result {
    let probe = util::capture(Command::new(util::host_cargo()).args(["fuzz", "--version"]));
    if probe.is_some() {
        return Ok(());
    }
    say(
        "cargo install cargo-fuzz",
        "cargo-fuzz builds the libFuzzer targets (once per machine, about a minute)",
    );
    util::run(Command::new(util::host_cargo()).args(["install", "cargo-fuzz"]))
}

/// `cargo fuzz build`: release with debug assertions and overflow checks, coverage
/// instrumentation, no sanitizer (a sanitizer needs a nightly compiler; this code is
/// `unsafe`-free, so what the fuzzer looks for is panics and hangs).
fn build(root: &Path, work: &Path, target: Option<&str>) -> Result {
    say(
        "cargo fuzz build",
        "coverage-instrumented targets (the first build takes several minutes)",
    );
    let mut cmd = Command::new(util::host_cargo());
    cmd.current_dir(root)
        .args([
            "fuzz",
            "build",
            "-O",
            "--debug-assertions",
            "--sanitizer",
            "none",
        ])
        .arg("--target-dir")
        .arg(work)
        // cargo-fuzz passes -Z flags to cargo; this lets a stable toolchain take them.
        .env("RUSTC_BOOTSTRAP", "1");
    if let Some(t) = target {
        cmd.arg(t);
    }
    util::run(&mut cmd)
}

fn binary(work: &Path, target: &str) -> PathBuf {
    work.join(host_triple()).join("release").join(target)
}

fn host_triple() -> &'static str {
    if cfg!(target_arch = "aarch64") {
        "aarch64-unknown-linux-gnu"
    } else {
        "x86_64-unknown-linux-gnu"
    }
}

/// One target for `opts.seconds` (or `opts.runs` executions), its log kept beside the
/// corpus.
fn run_target(
    work: &Path,
    target: &str,
    max_len: usize,
    corpus: &Path,
    opts: &Options,
) -> Result<Outcome> {
    let artifacts = work.join("artifacts").join(target);
    let logs = work.join("logs");
    for d in [&artifacts, &logs] {
        fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    let before = crash_files(&artifacts);
    let log_path = logs.join(format!("{target}.log"));
    let log = fs::File::create(&log_path)
        .map_err(|e| format!("cannot write {}: {e}", log_path.display()))?;
    let mut cmd = Command::new(binary(work, target));
    cmd.arg(corpus)
        .arg(format!("-max_total_time={}", opts.seconds))
        .arg(format!("-max_len={max_len}"))
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        // One input taking 10 s is a hang, and counts as a crash.
        .arg("-timeout=10")
        .arg("-rss_limit_mb=2048")
        .arg("-print_final_stats=1")
        .stdout(Stdio::null())
        .stderr(log);
    if let Some(runs) = opts.runs {
        cmd.arg(format!("-runs={runs}"));
    }
    if let Some(dict) = dictionary(target) {
        cmd.arg(format!("-dict={}", dict.display()));
    }
    note(format!("$ {}", util::display_command(&cmd)));
    #[allow(clippy::disallowed_methods, reason = "xtask times a fuzzing campaign")]
    let started = Instant::now();
    let status = cmd
        .status()
        .map_err(|e| format!("could not start the {target} fuzzer: {e}"))?;
    let elapsed = started.elapsed().as_secs_f64();
    let text = fs::read_to_string(&log_path).unwrap_or_default();
    let mut outcome = parse_stats(&text);
    outcome.seconds = elapsed;
    let (files, bytes) = dir_size(corpus);
    outcome.corpus_files = files;
    outcome.corpus_bytes = bytes;
    outcome.crashes = crash_files(&artifacts)
        .into_iter()
        .filter(|f| !before.contains(f))
        .collect();
    if !status.success() && outcome.crashes.is_empty() {
        return Err(format!(
            "the {target} fuzzer stopped ({status}) without a crash file; see {}",
            log_path.display()
        ));
    }
    Ok(outcome)
}

/// The SQL keywords file for the targets whose inputs are statements.
fn dictionary(target: &str) -> Option<PathBuf> {
    let path = util::workspace_root()
        .join("fuzz")
        .join("dict")
        .join(format!("{target}.dict"));
    path.is_file().then_some(path)
}

/// libFuzzer's `-print_final_stats=1` lines (`stat::number_of_executed_units: N`).
fn parse_stats(log: &str) -> Outcome {
    let stat = |name: &str| -> u64 {
        log.lines()
            .filter_map(|l| l.strip_prefix(&format!("stat::{name}:")))
            .filter_map(|v| v.trim().parse().ok())
            .next_back()
            .unwrap_or(0)
    };
    Outcome {
        executions: stat("number_of_executed_units"),
        exec_per_sec: stat("average_exec_per_sec"),
        ..Outcome::default()
    }
}

fn crash_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                ["crash-", "timeout-", "oom-", "leak-", "slow-unit-"]
                    .iter()
                    .any(|k| n.starts_with(k))
            })
        })
        .collect();
    v.sort();
    v
}

fn dir_size(dir: &Path) -> (usize, u64) {
    fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .fold((0, 0), |(n, b), m| (n + 1, b + m.len()))
}

fn report(rows: &[(&str, Outcome)]) {
    println!();
    println!(
        "{:<10} {:>14} {:>10} {:>9} {:>14} {:>8}",
        "target", "executions", "exec/s", "seconds", "corpus", "crashes"
    );
    for (t, o) in rows {
        println!(
            "{:<10} {:>14} {:>10} {:>9.0} {:>14} {:>8}",
            t,
            o.executions,
            o.exec_per_sec,
            o.seconds,
            format!("{} / {}", o.corpus_files, util::human_size(o.corpus_bytes)),
            o.crashes.len()
        );
        for c in &o.crashes {
            println!("    {}", c.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_libfuzzers_final_stats() {
        let log = "#1000\tDONE   cov: 10 ft: 20 corp: 5/100b exec/s: 500 rss: 40Mb\n\
                   Done 1000 runs in 2 second(s)\n\
                   stat::number_of_executed_units: 1000\n\
                   stat::average_exec_per_sec:     500\n\
                   stat::new_units_added:          3\n";
        let o = parse_stats(log);
        assert_eq!((o.executions, o.exec_per_sec), (1000, 500));
        assert_eq!(parse_stats("no stats").executions, 0);
    }
}
