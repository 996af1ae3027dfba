//! The native tests of `cargo xtask test`: built first (`cargo test --no-run`, which
//! says what it built as JSON), then run beside the wasm build. A package whose test
//! binaries are the very ones that passed before (`stamps`) is not run
//! again; when every package changed (a fresh checkout, CI) it is `cargo test
//! --workspace` as ever, and when only some did, their test binaries are run
//! directly, as cargo runs them (in the package's directory, `CARGO_MANIFEST_DIR`
//! set), since `cargo test -p` would build their dependencies again with other
//! features. (The workspace has no doctests.)

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::stamps::{self, Inputs};
use crate::util::{display_command, host_cargo, Result};

/// One package's tests as built.
#[derive(Debug, Default)]
pub struct PackageTests {
    /// Its directory.
    dir: PathBuf,
    /// Its test binaries.
    tests: Vec<PathBuf>,
    /// Its test binaries. (Not its programs: the conformance and poster builds
    /// relink them with other features, a new file each run; a change to a program's
    /// code changes its own unit-test binary, and a change below it every test binary
    /// linking it.)
    inputs: Inputs,
}

/// Every package's tests, by package name.
pub type Built = BTreeMap<String, PackageTests>;

/// `cargo test --workspace` with `extra` (`--no-run`; `--no-fail-fast`: one failing
/// test binary should not hide the others' results).
pub fn cargo_test(extra: &[&str]) -> Command {
    let mut cmd = Command::new(host_cargo());
    cmd.args(["test", "--workspace", "-j", crate::toolchain::JOBS])
        .args(extra);
    cmd
}

/// Builds the tests, their diagnostics on the console, and says what each package has.
pub fn build() -> Result<Built> {
    let mut cmd = cargo_test(&["--no-run", "--message-format=json-render-diagnostics"]);
    cmd.stdout(Stdio::piped());
    println!("    $ {}", display_command(&cmd));
    let out = cmd
        .output()
        .map_err(|e| format!("could not start `{}`: {e}", display_command(&cmd)))?;
    if !out.status.success() {
        return Err(format!("`cargo test --no-run` failed ({})", out.status));
    }
    Ok(read_artifacts(&String::from_utf8_lossy(&out.stdout)))
}

/// The packages' binaries from cargo's JSON messages, one a line.
fn read_artifacts(json_lines: &str) -> Built {
    let mut built = Built::new();
    for line in json_lines.lines() {
        let Ok(m) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let (Some(exe), Some(manifest)) = (m["executable"].as_str(), m["manifest_path"].as_str())
        else {
            continue;
        };
        let dir = Path::new(manifest)
            .parent()
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let name = package_name(Path::new(manifest)).unwrap_or_else(|| dir.display().to_string());
        let p = built.entry(name).or_default();
        p.dir = dir;
        if m["profile"]["test"].as_bool() == Some(true) {
            p.tests.push(PathBuf::from(exe));
        }
    }
    // Cargo says what it built in the order it finished, which varies from run to
    // run: the binaries in name order, each once.
    for p in built.values_mut() {
        p.tests.sort();
        p.tests.dedup();
        for exe in &p.tests {
            p.inputs.file_meta(exe);
        }
    }
    built
}

/// The `name` of a manifest's `[package]`.
fn package_name(manifest: &Path) -> Option<String> {
    let text = std::fs::read_to_string(manifest).ok()?;
    let line = text.lines().find(|l| l.trim_start().starts_with("name"))?;
    Some(line.split('"').nth(1)?.to_string())
}

/// The stamp's name of package `name`'s tests.
fn stamp(name: &str) -> String {
    format!("native-tests-{name}")
}

/// Runs the tests of the packages that changed since their tests passed; what it
/// did, in words, for the summary.
pub fn run(built: &Built, run_captured: impl Fn(&mut Command) -> Result) -> Result<String> {
    let changed: Vec<(&String, &PackageTests)> = built
        .iter()
        .filter(|(name, p)| !stamps::passed_before(&stamp(name), p.inputs.key()))
        .collect();
    if changed.is_empty() {
        return Ok("every package's tests unchanged since they passed: not run again (`--rerun` runs them)".into());
    }
    if changed.len() == built.len() {
        run_captured(&mut cargo_test(&["--no-fail-fast"]))?;
    } else {
        let mut failed = Vec::new();
        for (name, p) in &changed {
            for exe in &p.tests {
                let mut cmd = Command::new(exe);
                cmd.current_dir(&p.dir).env("CARGO_MANIFEST_DIR", &p.dir);
                if run_captured(&mut cmd).is_err() {
                    failed.push(format!("{name}: {}", exe.display()));
                }
            }
        }
        if !failed.is_empty() {
            return Err(format!("failed: {}", failed.join(", ")));
        }
    }
    for (name, p) in &changed {
        stamps::mark_passed(&stamp(name), p.inputs.key());
    }
    let names: Vec<&str> = changed.iter().map(|(n, _)| n.as_str()).collect();
    Ok(match changed.len() == built.len() {
        true => String::new(),
        false => format!("changed since they passed, run: {}", names.join(", ")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artifacts_are_read_by_package() {
        let here = env!("CARGO_MANIFEST_DIR");
        let lines = format!(
            "{{\"reason\":\"compiler-artifact\",\"manifest_path\":\"{here}/Cargo.toml\",\"profile\":{{\"test\":true}},\"executable\":\"/x/xtask-1\"}}\n\
             {{\"reason\":\"compiler-artifact\",\"manifest_path\":\"{here}/Cargo.toml\",\"profile\":{{\"test\":false}},\"executable\":\"/x/xtask\"}}\n\
             {{\"reason\":\"compiler-artifact\",\"manifest_path\":\"{here}/Cargo.toml\",\"profile\":{{\"test\":false}},\"executable\":null}}\n\
             not json\n"
        );
        let built = read_artifacts(&lines);
        let p = &built["xtask"];
        assert_eq!(p.tests, vec![PathBuf::from("/x/xtask-1")]);
        assert_eq!(p.dir, Path::new(here));
    }

    #[test]
    fn the_order_cargo_reports_in_changes_no_key() {
        let here = env!("CARGO_MANIFEST_DIR");
        let line = |exe: &str| {
            format!("{{\"manifest_path\":\"{here}/Cargo.toml\",\"profile\":{{\"test\":true}},\"executable\":\"{exe}\"}}\n")
        };
        let ab = read_artifacts(&(line("/x/a") + &line("/x/b")));
        let ba = read_artifacts(&(line("/x/b") + &line("/x/a")));
        assert_eq!(ab["xtask"].inputs.key(), ba["xtask"].inputs.key());
    }
}
