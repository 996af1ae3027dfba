//! Shrinking the shipped module with binaryen's `wasm-opt`, when there is one.
//!
//! ```text
//!   wasm-opt on PATH?  ── no, and root ─▶ apt-get install binaryen
//!        │ yes                 │ no, not root ─▶ ship the module as it is, and say so
//!        ▼
//!   wasm-opt -Oz <features> ddlscope_app_bg.wasm ─▶ a smaller module, same behaviour
//!        │ fails (e.g. an opcode binaryen does not know) ─▶ ship the unoptimised one
//! ```
//!
//! Debian 12's binaryen is version 108. It reads what rustc emits once the build
//! leaves out reference types (`.cargo/config.toml`): with them, wasm-bindgen puts its
//! JS values in an externref table and initialises it with `table.fill`, an opcode
//! binaryen learnt after 108 (`invalid code after misc prefix: 17`). The features
//! passed below are exactly those rustc's wasm32 target enables by default minus
//! reference types, so wasm-opt neither rejects an instruction nor emits one a
//! browser of the rustc default's age would not run.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{apt_install, capture, human_size, is_root, note, say, which, Result};

/// The optimisation level. Measured on the app (README, "Shipping small"): `-Oz`
/// 7.0% smaller, `-Os` 5.4%, `-O2` 3.9%; gzipped, all three within 0.7% of the input.
pub const LEVEL: &str = "-Oz";

/// The wasm features the module uses (rustc's wasm32 defaults, reference types off).
pub const FEATURES: [&str; 5] = [
    "--enable-bulk-memory",
    "--enable-mutable-globals",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-multivalue",
];

/// A `wasm-opt` to run, installing Debian's binaryen when root; `None` (with a note
/// saying why) when there is none, in which case the module ships unoptimised.
pub fn find() -> Option<PathBuf> {
    if let Some(found) = which("wasm-opt") {
        return Some(found);
    }
    if !is_root() {
        note(
            "wasm-opt is not installed (Debian: apt-get install binaryen); \
             the module ships without it, about 8% larger",
        );
        return None;
    }
    say(
        "installing binaryen with apt-get",
        "its wasm-opt shrinks the shipped module by about 7% (-Oz)",
    );
    if let Err(e) = apt_install(&["binaryen"]) {
        note(format!(
            "could not install binaryen ({e}); the module ships without wasm-opt"
        ));
        return None;
    }
    which("wasm-opt")
}

/// Optimises `module` in place with `wasm_opt`. On failure the module is left as it
/// was and the reason is printed: a site without wasm-opt still works.
pub fn optimise(wasm_opt: &Path, module: &Path) -> Result {
    run_wasm_opt(wasm_opt, module, &[])
}

/// As [`optimise`], keeping the name section (`-g`): the size report's module.
pub fn optimise_keeping_names(wasm_opt: &Path, module: &Path) -> Result {
    run_wasm_opt(wasm_opt, module, &["-g"])
}

fn run_wasm_opt(wasm_opt: &Path, module: &Path, extra: &[&str]) -> Result {
    let version = capture(Command::new(wasm_opt).arg("--version")).unwrap_or_default();
    say(
        format!("shrinking the module with {version} {LEVEL}"),
        "binaryen's size passes go further than LLVM's on the whole, linked module",
    );
    let before = fs::metadata(module).map(|m| m.len()).unwrap_or(0);
    let out = module.with_extension("opt.wasm");
    let output = Command::new(wasm_opt)
        .arg(LEVEL)
        .args(FEATURES)
        .args(extra)
        .arg(module)
        .arg("-o")
        .arg(&out)
        .output()
        .map_err(|e| format!("cannot start {}: {e}", wasm_opt.display()))?;
    if !output.status.success() {
        let _ = fs::remove_file(&out);
        let stderr = String::from_utf8_lossy(&output.stderr);
        note(format!(
            "wasm-opt failed, so the module ships unoptimised: {}",
            stderr.trim()
        ));
        return Ok(());
    }
    fs::rename(&out, module).map_err(|e| {
        format!(
            "cannot move {} over {}: {e}",
            out.display(),
            module.display()
        )
    })?;
    let after = fs::metadata(module).map(|m| m.len()).unwrap_or(0);
    note(format!(
        "wasm-opt: {} -> {}",
        human_size(before),
        human_size(after)
    ));
    Ok(())
}
