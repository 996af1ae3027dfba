//! `cargo xtask test`: everything CI checks, as named steps with a summary table.
//!
//! Steps run in order; a failure does not stop the ones that can still tell us
//! something (formatting says nothing about whether tests pass), but a step whose
//! input failed (browser tests without a site) is skipped and shown as such.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::util::{host_cargo, human_duration, run, Result};
use crate::{browser, bundle, dist, toolchain};

/// How one step ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Passed,
    Failed,
    Skipped,
}

/// One row of the summary table.
#[derive(Debug)]
struct StepReport {
    name: &'static str,
    outcome: Outcome,
    duration: Duration,
    detail: String,
}

/// Runs every step and returns an error if any failed.
pub fn test() -> Result {
    let mut reports: Vec<StepReport> = Vec::new();

    // First: it reads files only, takes a second, and a circle or a layer break is
    // worth knowing before minutes of compiling.
    step(
        &mut reports,
        "layers (module circles)",
        crate::layers::layers,
    );
    step(&mut reports, "cargo fmt --check", || {
        run(Command::new(host_cargo()).args(["fmt", "--all", "--check"]))
    });
    step(&mut reports, "cargo clippy", || {
        run(Command::new(host_cargo()).args([
            "clippy",
            "--workspace",
            "--all-targets",
            "-j",
            toolchain::JOBS,
            "--",
            "-D",
            "warnings",
        ]))
    });
    step(&mut reports, "cargo test (native)", || {
        // --no-fail-fast: one failing test binary should not hide the others' results.
        run(Command::new(host_cargo()).args([
            "test",
            "--workspace",
            "--no-fail-fast",
            "-j",
            toolchain::JOBS,
        ]))
    });
    let mut skipped = false;
    step(&mut reports, "conformance (MariaDB)", || {
        skipped = !crate::conformance::conformance(crate::conformance::Scripts::Written, None)?;
        Ok(())
    });
    if skipped {
        if let Some(last) = reports.last_mut() {
            last.outcome = Outcome::Skipped;
            last.detail = "mariadb-server could not be installed with apt-get".into();
        }
    }
    let mut site = None;
    step(&mut reports, "wasm dist build and workshop bundle", || {
        let dir = dist::dist()?;
        bundle::bundle(&dir, &[])?;
        site = Some(dir);
        Ok(())
    });
    match site {
        Some(site) => step(&mut reports, "browser tests", || {
            browser::ensure_browser_tools()?;
            browser::run_e2e(&site)
        }),
        None => reports.push(StepReport {
            name: "browser tests",
            outcome: Outcome::Skipped,
            duration: Duration::ZERO,
            detail: "no site: the wasm dist build failed".into(),
        }),
    }

    print_summary(&reports);
    let failed = reports
        .iter()
        .filter(|r| r.outcome == Outcome::Failed)
        .count();
    if failed == 0 {
        Ok(())
    } else {
        Err(format!("{failed} step(s) failed"))
    }
}

/// Runs one named step, timing it and recording how it ended.
fn step(reports: &mut Vec<StepReport>, name: &'static str, body: impl FnOnce() -> Result) {
    println!();
    println!("━━━ step: {name} ━━━");
    #[allow(
        clippy::disallowed_methods,
        reason = "xtask times real steps; only the engine is bound to virtual time"
    )]
    let started = Instant::now();
    let result = body();
    let duration = started.elapsed();
    let (outcome, detail) = match result {
        Ok(()) => (Outcome::Passed, String::new()),
        Err(message) => (Outcome::Failed, message),
    };
    println!(
        "━━━ {name}: {} in {} ━━━",
        if outcome == Outcome::Passed {
            "passed"
        } else {
            "FAILED"
        },
        human_duration(duration)
    );
    if !detail.is_empty() {
        println!("{detail}");
    }
    reports.push(StepReport {
        name,
        outcome,
        duration,
        detail,
    });
}

fn print_summary(reports: &[StepReport]) {
    let width = reports.iter().map(|r| r.name.len()).max().unwrap_or(0);
    println!();
    println!("Summary");
    println!("{:<width$}  {:<7}  {:>8}  detail", "step", "result", "time");
    let mut total = Duration::ZERO;
    for report in reports {
        total += report.duration;
        let result = match report.outcome {
            Outcome::Passed => "pass",
            Outcome::Failed => "FAIL",
            Outcome::Skipped => "skipped",
        };
        let detail = report.detail.lines().next().unwrap_or("");
        println!(
            "{:<width$}  {:<7}  {:>8}  {detail}",
            report.name,
            result,
            human_duration(report.duration)
        );
    }
    println!(
        "{:<width$}  {:<7}  {:>8}",
        "total",
        "",
        human_duration(total)
    );
    let count = |o: Outcome| reports.iter().filter(|r| r.outcome == o).count();
    let skipped = count(Outcome::Skipped);
    let mut line = format!(
        "steps: {} passed, {} failed",
        count(Outcome::Passed),
        count(Outcome::Failed)
    );
    if skipped > 0 {
        line.push_str(&format!(", {skipped} skipped"));
    }
    println!("{line}");
}
