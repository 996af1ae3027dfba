//! What `cargo xtask test` will install, fetched at its start beside clippy.
//!
//! On a fresh machine the wasm build, the conformance step and the browser tests each
//! found a package missing and ran apt-get in turn, each while the machine waited
//! for it. Here one apt-get installs all of them (Debian's wasm toolchain,
//! mariadb-server, chromium and its driver, brotli, hugo) and `npm ci` the browser tests'
//! packages, in a thread that runs while clippy compiles: downloading and unpacking
//! are mostly network and disk, which the compiler leaves free. The steps still
//! check for what they need, and install it themselves if this could not.

use crate::browser::{self, CHROMEDRIVER, CHROMIUM};
use crate::util::{apt_install, is_root, note, say, which, Result};
use crate::{mariadb, toolchain};
use std::path::Path;

/// Every Debian package the steps will need that is absent.
pub fn missing_packages() -> Vec<&'static str> {
    let mut packages = toolchain::wasm_packages_missing();
    if which("mariadbd").is_none() || which("mariadb").is_none() {
        packages.extend(mariadb::PACKAGES);
    }
    if !Path::new(CHROMIUM).is_file() || !Path::new(CHROMEDRIVER).is_file() {
        packages.extend(["chromium", "chromium-driver"]);
    }
    if which("brotli").is_none() {
        packages.push("brotli");
    }
    // The browser tests build a real Hugo site (web/e2e/sites.test.mjs).
    if which("hugo").is_none() {
        packages.push("hugo");
    }
    packages
}

/// Installs what is missing, as root; then the browser tests' npm packages.
pub fn prefetch() -> Result {
    let packages = missing_packages();
    if packages.is_empty() {
        note("setup: every package the steps need is installed");
    } else if is_root() {
        say(
            format!("setup: installing {} with apt-get", packages.join(" ")),
            "one apt-get beside clippy, instead of one in front of each step that needs one",
        );
        apt_install(&packages)?;
    } else {
        note(format!(
            "setup: missing {}; not root, so each step says what to install",
            packages.join(" ")
        ));
    }
    if which("npm").is_some() {
        browser::ensure_npm_packages(&browser::e2e_dir())?;
    }
    Ok(())
}
