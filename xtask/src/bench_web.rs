//! `cargo xtask bench-web`: the browser's figures (frame times, long tasks, speed,
//! heap, first map, the I1 switch, wasm size) measured in headless Chromium.
//!
//! ```text
//!   xtask ──▶ dist ──▶ static server on 127.0.0.1:<free port>
//!     └──▶ node web/e2e/bench-web.mjs ──▶ target/bench-web.json
//!     │                                      └──▶ ddlscope bench --web (release) ──▶ target/bench.json
//!     └──▶ node web/lighthouse/run.mjs (Lighthouse 12, mobile) ──▶ target/lighthouse.json
//! ```
//!
//! The native CLI is built first: bench-web.mjs times its real-time run between its
//! own wasm runs of the same server (`ddlscope bench --realtime-only`), so the two
//! speeds are taken in the same minute (this machine's speed drifts by half over
//! minutes) and divided (`wasm_speed_ratio`). The whole native bench runs last, on
//! the report.
//!
//! It prints figures and never judges them: docs/performance.md's table is read
//! from its output, and docs/performance-history.md keeps the runs of each round. It is not part
//! of `cargo xtask test`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::browser;
use crate::serve;
use crate::util::{self, note, run, say, Result};

/// Serves `site` and runs the measurements against it; the report lands in
/// `target/bench-web.json`: the page, its engines in their Web Worker.
pub fn bench_web(site: &Path) -> Result {
    if !site.join("index.html").is_file() {
        return Err(format!(
            "{} has no index.html; run `cargo xtask dist` first",
            site.display()
        ));
    }
    // node runs in web/e2e: a relative --dir would name another folder there.
    let site = &site
        .canonicalize()
        .map_err(|e| format!("{}: {e}", site.display()))?;
    browser::ensure_browser_tools()?;
    let cli = native_cli()?;
    let addr = serve::spawn(site.to_path_buf(), serve::Options::default())?;
    let out = util::target_dir().join("bench-web.json");
    let artifacts = browser::artifacts_dir();
    say(
        format!("measuring the app at http://{addr}/ in headless Chromium"),
        "pools of 262 k, 1 M and 8 M pages, steady and during a 5.7 DROP, compare mode and the I1 switch",
    );
    note("this takes a few minutes; the figures are printed as they come");
    run(Command::new("node")
        .arg("bench-web.mjs")
        .env("E2E_BASE_URL", format!("http://{addr}/"))
        .env("E2E_ARTIFACTS", &artifacts)
        .env("E2E_CHROMIUM", browser::CHROMIUM)
        .env("BENCH_OUT", &out)
        .env("BENCH_DIST", site)
        .env("BENCH_NATIVE", &cli)
        .current_dir(browser::e2e_dir()))?;
    native_bench(&cli, &out)?;
    println!("==> figures in {}", out.display());
    lighthouse(&addr)
}

/// Lighthouse (npm, web/lighthouse) on the app and an embed with a poster, mobile
/// settings, the site served compressed: `target/lighthouse.json`.
fn lighthouse(addr: &std::net::SocketAddr) -> Result {
    let dir = util::workspace_root().join("web").join("lighthouse");
    browser::ensure_npm_packages(&dir)?;
    let out = util::target_dir().join("lighthouse.json");
    say(
        "Lighthouse, mobile settings, on index.html and embed.html (poster and live)",
        "the first load a reader on a phone meets: LCP, CLS, total blocking time",
    );
    run(Command::new("node")
        .arg("run.mjs")
        .env("LH_BASE_URL", format!("http://{addr}/"))
        .env("E2E_CHROMIUM", browser::CHROMIUM)
        .env("LH_OUT", &out)
        .current_dir(&dir))?;
    println!("==> Lighthouse figures in {}", out.display());
    Ok(())
}

/// The CLI built with the release profile (the engine's fastest native build).
fn native_cli() -> Result<PathBuf> {
    say(
        "building the CLI natively (release)",
        "its real-time run is timed between the wasm ones, and its bench reads the report",
    );
    run(Command::new(util::host_cargo()).args(["build", "--release", "-p", "ddlscope"]))?;
    Ok(util::target_dir().join("release").join("ddlscope"))
}

/// `ddlscope bench --json --web REPORT` into `target/bench.json`, and prints it.
fn native_bench(cli: &Path, report: &Path) -> Result {
    say(
        "the native bench",
        "ddlscope bench --web reads the wasm and native real-time factors just measured and divides",
    );
    let out = Command::new(cli)
        .args(["bench", "--json", "--web"])
        .arg(report)
        .output()
        .map_err(|e| format!("{}: {e}", cli.display()))?;
    if !out.status.success() {
        return Err(format!(
            "ddlscope bench failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let json = util::target_dir().join("bench.json");
    std::fs::write(&json, &out.stdout).map_err(|e| format!("{}: {e}", json.display()))?;
    println!("{}", String::from_utf8_lossy(&out.stdout).trim());
    println!(
        "==> native figures in {} (wasm_speed_ratio: the wasm real-time factor over the native one timed between its runs)",
        json.display()
    );
    Ok(())
}
