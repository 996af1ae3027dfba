//! Getting a Rust toolchain that can build `wasm32-unknown-unknown`, and a
//! `wasm-bindgen` CLI that matches the `wasm-bindgen` crate in Cargo.lock.
//!
//! Two routes, tried in this order (see shared/TOOLCHAIN.md):
//!
//! ```text
//!   rustup target installed?  ── yes ─▶  cargo build --target wasm32-unknown-unknown
//!            │ no
//!            ▼
//!   Debian rustc-web + cargo-web + rust-web-src + lld present?
//!            │ no, and root ─▶ apt-get install them
//!            │ no, not root ─▶ stop and say what to install
//!            ▼
//!   RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 /usr/bin/cargo build
//!       --target wasm32-unknown-unknown -Z build-std=std,panic_abort   (links with wasm-ld)
//! ```
//!
//! We never call `rustup target add`: on these machines rustup's download server is
//! unreachable and the command hangs instead of failing.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{self, apt_install, capture, host_cargo, is_root, note, run, say, which, Result};

/// The target every browser build uses.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// Build jobs for every inner cargo: the machines have 2 cores, shared with other work.
pub const JOBS: &str = "2";

/// Debian 12 packages that make up the fallback toolchain.
const DEBIAN_RUST_PACKAGES: [&str; 4] = ["rustc-web", "cargo-web", "rust-web-src", "lld"];
const DEBIAN_RUSTC: &str = "/usr/bin/rustc";
const DEBIAN_CARGO: &str = "/usr/bin/cargo";
const DEBIAN_RUST_SRC: &str = "/usr/lib/rustlib/src/rust/library";

/// The oldest rustc that builds this workspace (root Cargo.toml `rust-version`);
/// Debian's plain `rustc` package (1.63) also installs /usr/bin/rustc and is too old.
const MIN_RUSTC_MINOR: u32 = 85;

/// How to compile for wasm32 on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WasmToolchain {
    /// The rustup toolchain has the wasm32 standard library: plain `cargo build`.
    Rustup,
    /// Debian's rustc-web, building the standard library from rust-web-src.
    Debian,
}

/// Works out which wasm toolchain to use, installing Debian's when needed and allowed.
pub fn ensure_wasm_toolchain() -> Result<WasmToolchain> {
    say(
        format!("looking for the {WASM_TARGET} standard library in the rustup toolchain"),
        "if rustup has the target, a plain `cargo build --target` is all we need",
    );
    if let Some(libdir) = rustup_wasm_libdir() {
        note(format!(
            "found libstd in {}: using the rustup toolchain",
            libdir.display()
        ));
        return Ok(WasmToolchain::Rustup);
    }
    note("not installed (and `rustup target add` would hang here: its server is unreachable)");

    say(
        "checking for Debian's rustc-web, cargo-web, rust-web-src and lld",
        "Debian's newer rustc can build the wasm32 standard library from source (-Z build-std)",
    );
    let missing = missing_debian_packages();
    if missing.is_empty() {
        note("all present: using the Debian toolchain with build-std");
        return Ok(WasmToolchain::Debian);
    }
    note(format!("missing: {}", missing.join(" ")));
    if !is_root() {
        return Err(format!(
            "no toolchain can build {WASM_TARGET} here. Either:\n  \
             rustup target add {WASM_TARGET}            (needs rustup's download server), or\n  \
             sudo apt-get install {}   (Debian 12)\n\
             then run this command again.",
            DEBIAN_RUST_PACKAGES.join(" ")
        ));
    }
    say(
        format!("installing {} with apt-get", DEBIAN_RUST_PACKAGES.join(" ")),
        "we run as root, and these packages are the only wasm32 toolchain this machine can fetch",
    );
    apt_install(&DEBIAN_RUST_PACKAGES)?;
    let still_missing = missing_debian_packages();
    if !still_missing.is_empty() {
        return Err(format!(
            "apt-get finished but these are still missing: {}",
            still_missing.join(" ")
        ));
    }
    Ok(WasmToolchain::Debian)
}

/// The rustup toolchain's wasm32 libdir, if it holds a `libstd-*.rlib`.
fn rustup_wasm_libdir() -> Option<PathBuf> {
    // The rustc beside the cargo that ran us belongs to the same toolchain.
    let rustc = Path::new(&host_cargo())
        .parent()
        .map(|dir| dir.join("rustc"))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("rustc"));
    let libdir =
        capture(Command::new(rustc).args(["--print", "target-libdir", "--target", WASM_TARGET]))?;
    let libdir = PathBuf::from(libdir);
    let has_std = fs::read_dir(&libdir).ok()?.flatten().any(|entry| {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        name.starts_with("libstd-") && name.ends_with(".rlib")
    });
    has_std.then_some(libdir)
}

/// Which of the Debian route's packages are absent (judged by the files they install).
fn missing_debian_packages() -> Vec<&'static str> {
    let mut missing = Vec::new();
    if !debian_rustc_is_recent() {
        missing.push("rustc-web");
    }
    if !Path::new(DEBIAN_CARGO).is_file() {
        missing.push("cargo-web");
    }
    if !Path::new(DEBIAN_RUST_SRC).is_dir() {
        missing.push("rust-web-src");
    }
    if which("wasm-ld").is_none() {
        missing.push("lld");
    }
    missing
}

fn debian_rustc_is_recent() -> bool {
    capture(Command::new(DEBIAN_RUSTC).arg("--version"))
        .and_then(|v| rustc_minor(&v))
        .is_some_and(|minor| minor >= MIN_RUSTC_MINOR)
}

/// `rustc 1.96.0 (ac68faa20 2026-05-25)` → 96.
fn rustc_minor(version_line: &str) -> Option<u32> {
    let version = version_line.split_whitespace().nth(1)?;
    let mut parts = version.split('.');
    (parts.next()? == "1").then_some(())?;
    parts.next()?.parse().ok()
}

/// The `cargo build` for a wasm32 release build of one package, environment included.
pub fn wasm_build_command(toolchain: &WasmToolchain, package: &str) -> Command {
    let root = util::workspace_root();
    let mut cmd = match toolchain {
        WasmToolchain::Rustup => {
            let mut cmd = Command::new(host_cargo());
            scrub_outer_cargo_env(&mut cmd, false);
            cmd.args(["build", "--release", "--target", WASM_TARGET]);
            cmd
        }
        WasmToolchain::Debian => {
            let mut cmd = Command::new(DEBIAN_CARGO);
            // The outer `cargo xtask` is rustup's cargo; none of its settings may leak
            // into Debian's cargo, or it would mix two compilers' artifacts.
            scrub_outer_cargo_env(&mut cmd, true);
            cmd.env("RUSTC", DEBIAN_RUSTC)
                .env("RUSTC_BOOTSTRAP", "1")
                .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER", "wasm-ld");
            cmd.args(["build", "--release", "--target", WASM_TARGET])
                .args(["-Z", "build-std=std,panic_abort"]);
            cmd
        }
    };
    cmd.args(["-j", JOBS, "-p", package]).current_dir(root);
    cmd
}

/// Removes what the outer `cargo run` put in our environment that would confuse a
/// nested cargo. `CARGO_TARGET_DIR` and `CARGO_HOME` stay: the user set those.
fn scrub_outer_cargo_env(cmd: &mut Command, other_toolchain: bool) {
    const ALWAYS: [&str; 12] = [
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_MAKEFLAGS",
        "CARGO_MANIFEST_DIR",
        "CARGO_MANIFEST_PATH",
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_CRATE_NAME",
        "CARGO_BIN_NAME",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "MAKEFLAGS",
        "MFLAGS",
        "OUT_DIR",
    ];
    const OTHER_TOOLCHAIN: [&str; 7] = [
        "CARGO",
        "RUSTC",
        "RUSTDOC",
        "RUSTUP_TOOLCHAIN",
        "RUSTUP_TOOLCHAIN_SOURCE",
        "RUST_RECURSION_COUNT",
        "CARGO_BUILD_RUSTC",
    ];
    for key in ALWAYS {
        cmd.env_remove(key);
    }
    for (key, _) in env::vars_os() {
        if key.to_string_lossy().starts_with("CARGO_PKG_") {
            cmd.env_remove(key);
        }
    }
    if other_toolchain {
        for key in OTHER_TOOLCHAIN {
            cmd.env_remove(key);
        }
        // `cargo run` prepends the rustup toolchain's lib dirs and our own target dir.
        if let Some(paths) = env::var_os("LD_LIBRARY_PATH") {
            let kept: Vec<PathBuf> = env::split_paths(&paths)
                .filter(|p| !is_cargo_added_lib_dir(p))
                .collect();
            if kept.is_empty() {
                cmd.env_remove("LD_LIBRARY_PATH");
            } else if let Ok(joined) = env::join_paths(kept) {
                cmd.env("LD_LIBRARY_PATH", joined);
            }
        }
    }
}

fn is_cargo_added_lib_dir(dir: &Path) -> bool {
    let text = dir.to_string_lossy();
    text.contains("/toolchains/") || dir.starts_with(util::target_dir())
}

/// Reads the exact version of `package` from Cargo.lock (the first entry of that name).
pub fn lock_version(lock_text: &str, package: &str) -> Option<String> {
    let mut in_package = false;
    let mut name_matches = false;
    for line in lock_text.lines() {
        let line = line.trim();
        if line == "[[package]]" {
            in_package = true;
            name_matches = false;
        } else if line.starts_with('[') {
            in_package = false;
        } else if in_package {
            if let Some(name) = toml_string(line, "name") {
                name_matches = name == package;
            } else if let Some(version) = toml_string(line, "version") {
                if name_matches {
                    return Some(version.to_string());
                }
            }
        }
    }
    None
}

/// `key = "value"` → `value`.
fn toml_string<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line
        .strip_prefix(key)?
        .trim_start()
        .strip_prefix('=')?
        .trim();
    rest.strip_prefix('"')?.strip_suffix('"')
}

/// Returns a `wasm-bindgen` CLI whose version equals the crate's in Cargo.lock,
/// installing it with `cargo install` (once per machine) when there is none.
pub fn ensure_wasm_bindgen() -> Result<PathBuf> {
    let lock_path = util::workspace_root().join("Cargo.lock");
    let lock = fs::read_to_string(&lock_path)
        .map_err(|e| format!("cannot read {}: {e}", lock_path.display()))?;
    let wanted = lock_version(&lock, "wasm-bindgen").ok_or(
        "Cargo.lock has no wasm-bindgen package; is crates/app in the workspace?".to_string(),
    )?;
    say(
        format!("looking for wasm-bindgen {wanted} (the CLI)"),
        "the CLI must be exactly the version of the wasm-bindgen crate in Cargo.lock",
    );
    let candidates = wasm_bindgen_candidates();
    for candidate in &candidates {
        let version = capture(Command::new(candidate).arg("--version"));
        match version.as_deref().and_then(|v| v.split_whitespace().nth(1)) {
            Some(found) if found == wanted => {
                note(format!("found {}", candidate.display()));
                return Ok(candidate.clone());
            }
            Some(found) => note(format!("{} is {found}; not the one", candidate.display())),
            None => {}
        }
    }

    say(
        format!("installing wasm-bindgen-cli {wanted} with cargo install (about 4 minutes, once per machine)"),
        "no matching CLI is installed, and crates.io is the only place we may get it from; \
         it goes to Cargo's bin directory, outside target/, so later runs reuse it",
    );
    // Without --locked: the registry mirror lacks one of its pinned transitive versions.
    run(Command::new(host_cargo())
        .args([
            "install",
            "wasm-bindgen-cli",
            "--version",
            &wanted,
            "-j",
            JOBS,
        ])
        .current_dir(cargo_home()))?;
    let installed = cargo_home().join("bin").join("wasm-bindgen");
    match capture(Command::new(&installed).arg("--version")) {
        Some(v) if v.split_whitespace().nth(1) == Some(wanted.as_str()) => Ok(installed),
        other => Err(format!(
            "installed wasm-bindgen-cli, but {} reports {other:?}, not {wanted}",
            installed.display()
        )),
    }
}

/// Cargo's home: `CARGO_HOME`, else `~/.cargo`.
pub fn cargo_home() -> PathBuf {
    if let Some(home) = env::var_os("CARGO_HOME").filter(|h| !h.is_empty()) {
        return PathBuf::from(home);
    }
    let home = env::var_os("HOME").unwrap_or_else(|| "/root".into());
    PathBuf::from(home).join(".cargo")
}

/// Cargo's bin directory first (where `cargo install` puts it), then PATH.
fn wasm_bindgen_candidates() -> Vec<PathBuf> {
    let mut candidates = vec![cargo_home().join("bin").join("wasm-bindgen")];
    if let Some(path) = env::var_os("PATH") {
        for dir in env::split_paths(&path) {
            let candidate = dir.join("wasm-bindgen");
            if !candidates.contains(&candidate) {
                candidates.push(candidate);
            }
        }
    }
    candidates.retain(|c| c.is_file());
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"
version = 4

[[package]]
name = "wasm-bindgen-macro"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
dependencies = [
 "cfg-if",
]
"#;

    #[test]
    fn lock_version_finds_the_exact_package() {
        assert_eq!(
            lock_version(LOCK, "wasm-bindgen").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(
            lock_version(LOCK, "wasm-bindgen-macro").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(lock_version(LOCK, "yew"), None);
    }

    #[test]
    fn rustc_minor_reads_version_lines() {
        assert_eq!(
            rustc_minor("rustc 1.96.0 (ac68faa20 2026-05-25) (built from a source tarball)"),
            Some(96)
        );
        assert_eq!(rustc_minor("rustc 1.63.0"), Some(63));
        assert_eq!(rustc_minor("garbage"), None);
    }

    #[test]
    fn debian_build_drops_the_outer_toolchain() {
        let cmd = wasm_build_command(&WasmToolchain::Debian, "ddlscope-app");
        let envs: Vec<(String, Option<String>)> = cmd
            .get_envs()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.map(|v| v.to_string_lossy().into_owned()),
                )
            })
            .collect();
        assert!(envs.contains(&("RUSTUP_TOOLCHAIN".into(), None)));
        assert!(envs.contains(&("RUSTC".into(), Some(DEBIAN_RUSTC.into()))));
        let args: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert!(args
            .windows(2)
            .any(|w| w == ["-Z", "build-std=std,panic_abort"]));
        assert!(args.windows(2).any(|w| w == ["-j", "2"]));
    }
}
