//! Browser end-to-end tests: Debian's Chromium driven by `playwright-core` (npm).
//!
//! ```text
//!   xtask ──thread──▶ static server on 127.0.0.1:<free port> serving target/dist/
//!     ├──thread──▶ the same under the strict CSP (E2E_CSP_URL, serve::STRICT_CSP)
//!     │
//!     └──▶ node --test web/e2e/*.test.mjs   (E2E_BASE_URL=http://127.0.0.1:<port>/)
//!              └──▶ playwright-core ──CDP──▶ /usr/bin/chromium --headless ...
//! ```
//!
//! Only the npm package is used, never `npx playwright install`: that downloads a
//! browser build, which this network refuses. Screenshots land in `target/e2e/`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::serve;
use crate::util::{self, apt_install, capture, is_root, note, run, say, which, Result};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// playwright-core declares `engines.node >= 20`.
const MIN_NODE_MAJOR: u32 = 20;

/// Directory of the e2e project (package.json, lockfile, tests).
pub fn e2e_dir() -> PathBuf {
    util::workspace_root().join("web").join("e2e")
}

/// Where screenshots and other test artifacts go.
pub fn artifacts_dir() -> PathBuf {
    util::target_dir().join("e2e")
}

/// Makes sure Chromium, ChromeDriver, Node.js and the npm packages are present.
pub fn ensure_browser_tools() -> Result {
    say(
        format!("checking for {CHROMIUM} and {CHROMEDRIVER}"),
        "the tests drive Debian's Chromium; no other browser build can be downloaded here",
    );
    let missing = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !Path::new(p).is_file())
        .collect::<Vec<_>>();
    if missing.is_empty() {
        note("both present");
    } else if is_root() {
        say(
            "installing chromium and chromium-driver with apt-get",
            format!("missing {}, and we run as root", missing.join(", ")),
        );
        apt_install(&["chromium", "chromium-driver"])?;
    } else {
        return Err(format!(
            "missing {}: install Debian's packages with\n  sudo apt-get install chromium chromium-driver",
            missing.join(", ")
        ));
    }
    // The documentation-tool case builds a real Hugo site (web/e2e/sites.test.mjs).
    if which("hugo").is_none() {
        if is_root() {
            say(
                "installing hugo with apt-get",
                "the browser tests build a real Hugo site",
            );
            apt_install(&["hugo"])?;
        } else {
            return Err(
                "missing hugo: install Debian's package with\n  sudo apt-get install hugo".into(),
            );
        }
    }

    say(
        "checking Node.js",
        format!("playwright-core (the test driver) needs Node.js {MIN_NODE_MAJOR} or newer"),
    );
    let version = capture(Command::new("node").arg("--version"));
    match version.as_deref().and_then(node_major) {
        Some(major) if major >= MIN_NODE_MAJOR => {
            note(format!("node {}", version.unwrap_or_default()))
        }
        _ => {
            return Err(format!(
                "Node.js {MIN_NODE_MAJOR}+ with npm is needed for the browser tests (found: {}); \
                 install it, e.g. from nodejs.org or your distribution",
                version.as_deref().unwrap_or("none")
            ))
        }
    }
    if which("npm").is_none() {
        return Err("npm is missing; install it alongside Node.js".into());
    }

    ensure_npm_packages(&e2e_dir())
}

/// `npm ci` in `dir` (a folder of web/ with a package-lock.json) unless its
/// node_modules already matches the lockfile.
pub fn ensure_npm_packages(dir: &Path) -> Result {
    let name = dir
        .strip_prefix(util::workspace_root())
        .unwrap_or(dir)
        .display()
        .to_string();
    if needs_npm_ci(dir) {
        say(
            format!("installing the packages of {name} with `npm ci`"),
            "node_modules is missing or older than package-lock.json; npm ci installs exactly the lockfile",
        );
        run(Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(dir))
    } else {
        note(format!(
            "{name}/node_modules is up to date with package-lock.json"
        ));
        Ok(())
    }
}

/// `v20.20.2` → 20.
fn node_major(version: &str) -> Option<u32> {
    version
        .trim()
        .strip_prefix('v')?
        .split('.')
        .next()?
        .parse()
        .ok()
}

/// npm writes `node_modules/.package-lock.json` on install; if it is missing or older
/// than the lockfile, the installed tree may not match.
fn needs_npm_ci(dir: &Path) -> bool {
    let modified = |p: PathBuf| fs::metadata(p).and_then(|m| m.modified()).ok();
    match (
        modified(dir.join("node_modules").join(".package-lock.json")),
        modified(dir.join("package-lock.json")),
    ) {
        (Some(installed), Some(lock)) => installed < lock,
        _ => true,
    }
}

/// Serves `site` on a free loopback port and runs the e2e tests against it: every
/// `*.test.mjs`, or with `only` those whose file name holds it.
pub fn run_e2e(site: &Path, only: Option<&str>) -> Result {
    let tests = test_files(only)?;
    run_tests(site, &tests, &[])
}

/// The `*.test.mjs` files of `web/e2e/` (with `only`, those whose name holds it), sorted.
fn test_files(only: Option<&str>) -> Result<Vec<PathBuf>> {
    let dir = e2e_dir();
    let mut tests: Vec<PathBuf> = fs::read_dir(&dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
        .filter(|p| {
            only.is_none_or(|o| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().contains(o))
            })
        })
        .collect();
    tests.sort_by_key(|p| (longest_first(p), p.clone()));
    if tests.is_empty() {
        return Err(match only {
            Some(o) => format!(
                "no *.test.mjs file in {} has {o:?} in its name",
                dir.display()
            ),
            None => format!("no *.test.mjs files in {}", dir.display()),
        });
    }
    Ok(tests)
}

/// The files whose tests take longest (2026-12-05, two at a time: pace 270 s alone,
/// links 181 s, app 106 s, presenter 81 s, moments 81 s, the rest 54 s or less),
/// started first so that the suite does not end on one of them alone.
const LONGEST: [&str; 5] = ["pace", "links", "app", "presenter", "moments"];

/// Where `file` goes in the run: the [`LONGEST`] in that order, then the rest.
fn longest_first(file: &Path) -> usize {
    let stem = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    LONGEST
        .iter()
        .position(|l| stem == format!("{l}.test.mjs"))
        .unwrap_or(LONGEST.len())
}

/// Test files run at once, each in its own Chromium. Two at a time took the suite
/// from 7 min 48 s to 5 min 32 s on a quiet machine. (Under that load the engine fell
/// behind and the scenario card's speed note came and went, moving the panes: a real
/// layout shift, now gone, as the note's box keeps its widest size.)
const E2E_FILES_AT_ONCE: u32 = 2;

/// Serves `site` (and again under the strict CSP) on free loopback ports and runs
/// `tests` with node's test runner against it, `env` added to what every test reads.
pub fn run_tests(site: &Path, tests: &[PathBuf], env: &[(&str, &std::ffi::OsStr)]) -> Result {
    if !site.join("index.html").is_file() {
        return Err(format!(
            "{} has no index.html; run `cargo xtask dist` first",
            site.display()
        ));
    }
    let addr = serve::spawn(site.to_path_buf(), serve::Options::default())?;
    let base_url = format!("http://{addr}/");
    // The same site under the strict Content-Security-Policy (csp.test.mjs).
    let strict = serve::spawn(site.to_path_buf(), serve::Options { strict_csp: true })?;
    let csp_url = format!("http://{strict}/");
    let artifacts = artifacts_dir();
    // Start empty, so every screenshot there belongs to this run.
    if artifacts.exists() {
        fs::remove_dir_all(&artifacts)
            .map_err(|e| format!("cannot clear {}: {e}", artifacts.display()))?;
    }
    fs::create_dir_all(&artifacts)
        .map_err(|e| format!("cannot create {}: {e}", artifacts.display()))?;

    say(
        format!(
            "running the browser tests against {base_url} (serving {})",
            site.display()
        ),
        "they load the real page in headless Chromium and check it the way a person would",
    );
    note(format!("screenshots go to {}", artifacts.display()));
    let mut node = Command::new("node");
    node.args(["--test", "--test-reporter=spec"])
        .arg(format!("--test-concurrency={E2E_FILES_AT_ONCE}"))
        .args(tests)
        .env("E2E_BASE_URL", &base_url)
        .env("E2E_CSP_URL", &csp_url)
        .env("E2E_ARTIFACTS", &artifacts)
        .env("E2E_CHROMIUM", CHROMIUM)
        .env("E2E_BUNDLE", crate::bundle::bundle_path())
        .envs(env.iter().copied())
        .current_dir(e2e_dir());
    run(&mut node)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_major_reads_node_versions() {
        assert_eq!(node_major("v20.20.2"), Some(20));
        assert_eq!(node_major("v18.19.0\n"), Some(18));
        assert_eq!(node_major("20.1"), None);
    }
}
