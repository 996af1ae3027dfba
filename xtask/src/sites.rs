//! `cargo xtask sites`: the docs' mdBook snippet in a real book, in Chromium.
//!
//! ```text
//! cargo install mdbook (pinned, once, into target/tools/)
//!     └──▶ node --test web/e2e/mdbook.site.mjs   (MDBOOK=target/tools/bin/mdbook)
//! ```
//!
//! mdBook comes from crates.io and takes minutes to build on two cores, which would
//! push the first `cargo xtask test` past its time goal; the Hugo and reveal.js sites
//! (Debian's hugo, reveal.js from npm) are in the test run (`web/e2e/sites.test.mjs`).

use crate::browser;
use crate::util::{self, capture, note, run, say, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The mdBook the test builds its book with: 0.5, the series the docs' snippet was
/// written for.
const MDBOOK_VERSION: &str = "0.5.4";

/// Builds an mdBook (unless the pinned one is there) and runs the mdBook site test
/// against `site`.
pub fn sites(site: &Path) -> Result {
    let mdbook = ensure_mdbook()?;
    browser::ensure_browser_tools()?;
    let test = browser::e2e_dir().join("mdbook.site.mjs");
    browser::run_tests(site, &[test], &[("MDBOOK", mdbook.as_os_str())])
}

/// `target/tools/bin/mdbook`, installed from crates.io at [`MDBOOK_VERSION`] when it
/// is missing or another version: without its `serve` and `watch` features (an HTTP
/// server and a file watcher the test does not use, about half its build).
fn ensure_mdbook() -> Result<PathBuf> {
    let root = util::target_dir().join("tools");
    let bin = root.join("bin").join("mdbook");
    let installed = capture(Command::new(&bin).arg("--version"));
    if installed.is_some_and(|v| v.trim_end().ends_with(MDBOOK_VERSION)) {
        note(format!("mdBook {MDBOOK_VERSION} is at {}", bin.display()));
        return Ok(bin);
    }
    say(
        format!(
            "building mdBook {MDBOOK_VERSION} from crates.io into {}",
            root.display()
        ),
        "the docs' mdBook snippet is tested in a real book (a few minutes, once)",
    );
    run(Command::new(util::host_cargo())
        .args(["install", "mdbook", "--locked", "--no-default-features"])
        .args([
            "--features",
            "search",
            "--version",
            MDBOOK_VERSION,
            "--root",
        ])
        .arg(&root))?;
    Ok(bin)
}
