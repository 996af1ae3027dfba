//! `cargo xtask test`: everything CI checks, as named steps with a summary table.
//!
//! Steps run in order; a failure does not stop the ones that can still tell us
//! something (formatting says nothing about whether tests pass), but a step whose
//! input failed (browser tests without a site) is skipped and shown as such.

use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use crate::stamps::{self, Inputs};
use crate::util::{display_command, host_cargo, human_duration, run, Result};
use crate::{browser, bundle, dist, native_tests, toolchain};

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

/// Runs every step and returns an error if any failed; `rerun` forgets which long
/// steps passed on the same inputs before (`stamps`), so that every one runs.
pub fn test(rerun: bool) -> Result {
    if rerun {
        stamps::forget_all();
    }
    let (reports, wall) = timed(run_steps);
    print_summary(&reports, wall);
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

fn run_steps() -> Vec<StepReport> {
    let mut reports: Vec<StepReport> = Vec::new();

    // First: it reads files only, takes a second, and a circle or a layer break is
    // worth knowing before minutes of compiling.
    step(
        &mut reports,
        "layers (module circles)",
        crate::layers::layers,
    );
    // Downloads and unpacks while clippy compiles; joined before the wasm build.
    let setup = thread::spawn(crate::setup::prefetch);
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
    let mut built = None;
    step(&mut reports, "cargo test (native): build", || {
        built = Some(native_tests::build()?);
        Ok(())
    });
    match setup.join() {
        Ok(Ok(())) => {}
        // The steps below install what they need themselves, and say why they cannot.
        Ok(Err(e)) => println!("setup: {e}; the steps will try again"),
        Err(_) => println!("setup: the setup thread panicked; the steps will try again"),
    }
    // The conformance scripts mostly wait (each statement at its `at` time, on a
    // server that runs at a favoured nice value), so they run beside the wasm build,
    // which wants both cores: minutes saved, and the scripts' timing allows a
    // busy machine (crate::conformance retries a script that differs).
    let conformance = thread::spawn(|| timed(conformance_unless_passed));
    // The tests' runs beside the wasm build too: its last minutes (the module's
    // link-time optimisation, one codegen unit) keep one core busy, not two. Their
    // output is printed after the wasm step's, not mixed into it.
    let native =
        built.map(|b| thread::spawn(move || timed(|| native_tests::run(&b, run_captured))));
    let mut site = None;
    step(&mut reports, "wasm dist build and workshop bundle", || {
        let dir = dist::dist()?;
        bundle::bundle(&dir, &[])?;
        site = Some(dir);
        Ok(())
    });
    let (result, duration) = conformance.join().unwrap_or_else(|_| {
        (
            Err("the conformance thread panicked".into()),
            Duration::ZERO,
        )
    });
    reports.push(conformance_report(result, duration));
    reports.push(native_report(native));
    match site {
        Some(site) => {
            let (result, duration) = timed(|| browser_tests_unless_passed(&site));
            reports.push(report_said("browser tests", result, duration));
        }
        None => reports.push(StepReport {
            name: "browser tests",
            outcome: Outcome::Skipped,
            duration: Duration::ZERO,
            detail: "no site: the wasm dist build failed".into(),
        }),
    }

    reports
}

/// Conformance, unless it passed before with the same CLI sources, scripts and
/// MariaDB (`stamps`; the sources, as the CLI's binary is relinked with other
/// features by each run): `Ok(Some(words))` then, `Ok(None)` when MariaDB could not
/// be installed.
fn conformance_unless_passed() -> Result<Option<String>> {
    let root = crate::util::workspace_root();
    let mut inputs = Inputs::new();
    for part in [
        "crates/engine",
        "crates/moment",
        "crates/map",
        "crates/cli",
        "assets",
        "Cargo.lock",
    ] {
        inputs.dir_contents(&root.join(part));
    }
    inputs.output_of("mariadbd", &["--version"]);
    let key = inputs.key();
    if stamps::passed_before("conformance", key) {
        return Ok(Some(UNCHANGED.into()));
    }
    let ran = crate::conformance::conformance(crate::conformance::Scripts::Written, None)?;
    if ran {
        stamps::mark_passed("conformance", key);
    }
    Ok(ran.then(String::new))
}

/// The browser tests, unless they passed before on the same site, tests and
/// Chromium (`stamps`).
fn browser_tests_unless_passed(site: &std::path::Path) -> Result<String> {
    println!();
    println!("━━━ step: browser tests ━━━");
    let mut inputs = Inputs::new();
    inputs
        .dir_contents(site)
        .dir_contents(&crate::bundle::bundle_path())
        .dir_contents(&browser::e2e_dir())
        .output_of(browser::CHROMIUM, &["--version"]);
    let key = inputs.key();
    if stamps::passed_before("browser-tests", key) {
        return Ok(UNCHANGED.into());
    }
    browser::ensure_browser_tools()?;
    browser::run_e2e(site, None)?;
    stamps::mark_passed("browser-tests", key);
    Ok(String::new())
}

/// What a step that was not run again says.
const UNCHANGED: &str = "unchanged since it passed: not run again (`--rerun` runs it)";

/// The row of the native tests' runs, `None` when they did not build.
fn native_report(native: Option<thread::JoinHandle<(Result<String>, Duration)>>) -> StepReport {
    let name = "cargo test (native): run, beside the wasm build";
    match native.map(thread::JoinHandle::join) {
        Some(Ok((result, duration))) => report_said(name, result, duration),
        Some(Err(_)) => report(
            name,
            Err("the native tests' thread panicked".into()),
            Duration::ZERO,
        ),
        None => StepReport {
            name,
            outcome: Outcome::Skipped,
            duration: Duration::ZERO,
            detail: "the tests did not build".into(),
        },
    }
}

/// Runs `cmd` with its output gathered, then prints it whole: a step running beside
/// another does not mix its lines into the other's.
fn run_captured(cmd: &mut Command) -> Result {
    println!(
        "    $ {} (its output follows when it ends)",
        display_command(cmd)
    );
    let out = cmd
        .output()
        .map_err(|e| format!("could not start `{}`: {e}", display_command(cmd)))?;
    println!("━━━ the output of `{}` ━━━", display_command(cmd));
    print!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{}` failed ({})",
            display_command(cmd),
            out.status
        ))
    }
}

/// How long `body` took, with its result.
fn timed<T>(body: impl FnOnce() -> T) -> (T, Duration) {
    #[allow(
        clippy::disallowed_methods,
        reason = "xtask times real steps; only the engine is bound to virtual time"
    )]
    let started = Instant::now();
    let result = body();
    (result, started.elapsed())
}

/// The conformance step's row: skipped when MariaDB could not be installed.
fn conformance_report(result: Result<Option<String>>, duration: Duration) -> StepReport {
    let name = "conformance (MariaDB, beside the wasm build)";
    let (outcome, detail) = match result {
        Ok(Some(words)) => (Outcome::Passed, words),
        Ok(None) => (
            Outcome::Skipped,
            "mariadb-server could not be installed with apt-get".to_string(),
        ),
        Err(message) => (Outcome::Failed, message),
    };
    let said = match outcome {
        Outcome::Passed => "passed",
        Outcome::Failed => "FAILED",
        Outcome::Skipped => "skipped",
    };
    println!("━━━ {name}: {said} in {} ━━━", human_duration(duration));
    if !detail.is_empty() {
        println!("{detail}");
    }
    StepReport {
        name,
        outcome,
        duration,
        detail,
    }
}

/// Runs one named step, timing it and recording how it ended.
fn step(reports: &mut Vec<StepReport>, name: &'static str, body: impl FnOnce() -> Result) {
    println!();
    println!("━━━ step: {name} ━━━");
    let (result, duration) = timed(body);
    reports.push(report(name, result, duration));
}

/// How a step that took `duration` ended, said on the console.
fn report(name: &'static str, result: Result, duration: Duration) -> StepReport {
    report_said(name, result.map(|()| String::new()), duration)
}

/// Like [`report`], for a step that passes with words for the summary (that it was
/// not run again, or what of it ran).
fn report_said(name: &'static str, result: Result<String>, duration: Duration) -> StepReport {
    let (outcome, detail) = match result {
        Ok(words) => (Outcome::Passed, words),
        Err(message) => (Outcome::Failed, message),
    };
    let said = if outcome == Outcome::Passed {
        "passed"
    } else {
        "FAILED"
    };
    println!("━━━ {name}: {said} in {} ━━━", human_duration(duration));
    if !detail.is_empty() {
        println!("{detail}");
    }
    StepReport {
        name,
        outcome,
        duration,
        detail,
    }
}

/// The table; the total is the wall-clock time, less than the steps' sum when two
/// ran side by side.
fn print_summary(reports: &[StepReport], wall: Duration) {
    let width = reports.iter().map(|r| r.name.len()).max().unwrap_or(0);
    println!();
    println!("Summary");
    println!("{:<width$}  {:<7}  {:>8}  detail", "step", "result", "time");
    for report in reports {
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
        "total (wall clock)",
        "",
        human_duration(wall)
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
