//! `cargo xtask dist`: the static site in `target/dist/`.
//!
//! ```text
//!   crates/app ──cargo build (wasm32, release)──▶ ddlscope_app.wasm
//!             ──wasm-bindgen --target web──────▶ ddlscope_app.js + ddlscope_app_bg.wasm
//!   web/{index,embed,notes}.html, their scripts and stylesheets, web/ddlscope-player.js,
//!   web/ddlscope-reveal.js, web/hugo/, assets/ ──copy──▶ target/dist/
//!   crates/cli ──cargo build (native, test profile)──▶ ddlscope poster --all ──▶ target/dist/posters/
//! ```
//!
//! The posters are the embed player's still frames (`poster=1`): each built-in
//! scenario's pool map at its own engine and moment, light and dark, drawn natively by
//! the same pixel code as the app's map, and `posters/index.json` listing them.
//!
//! Beside each text file and the wasm lie `.br` and `.gz` twins (`precompress`), for
//! servers that send a precompressed file when the browser accepts it (nginx's
//! `brotli_static`/`gzip_static`, Netlify, `cargo xtask serve`; docs/hosting.md).
//!
//! The result is plain static files: any web server (or `cargo xtask serve`) can host it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::bindgen;
use crate::toolchain::{self, WASM_TARGET};
use crate::util::{self, human_size, note, run, say, Result};

/// The app package and the file name cargo gives its cdylib.
const APP_PACKAGE: &str = "ddlscope-app";
const APP_WASM: &str = "ddlscope_app.wasm";

/// The module the page loads, as wasm-bindgen names it.
pub const SHIPPED_WASM: &str = "ddlscope_app_bg.wasm";

/// Files from `web/` that make up the site.
const WEB_FILES: [&str; 16] = [
    "index.html",
    "boot.js",
    "app.js",
    "failed.js",
    "embed.js",
    "embed-host.js",
    "notes.js",
    "notes.css",
    "ddlscope-reveal.js",
    "worker.js",
    "bundle-worker.js",
    "embed.html",
    "styles.css",
    "notes.html",
    "links.css",
    "ddlscope-player.js",
];

/// Where the site is assembled.
pub fn dist_dir() -> PathBuf {
    util::target_dir().join("dist")
}

/// Builds the wasm, generates the JS glue and assembles the site. Returns its directory.
pub fn dist() -> Result<PathBuf> {
    let root = util::workspace_root();
    let wasm = build_app_wasm()?;
    let dist = dist_dir();
    say(
        format!("generating JS bindings into {}", dist.display()),
        "wasm-bindgen turns the module's imports and exports into an ES module the page loads",
    );
    if dist.exists() {
        // Start clean so files removed from web/ or assets/ do not linger.
        fs::remove_dir_all(&dist).map_err(|e| format!("cannot clear {}: {e}", dist.display()))?;
    }
    bindgen::generate(&wasm, &dist, bindgen::Names::Removed)?;
    // No wasm-opt pass: binaryen's -Oz (and -O3) made the engine 30-40% slower in
    // Chromium and the gzipped module larger (docs/performance.md, "wasm-opt dropped").
    let shipped = dist.join(SHIPPED_WASM);

    say(
        "copying web/ pages and assets/ into the site",
        "the site must be self-contained static files",
    );
    for name in WEB_FILES {
        copy_file(&root.join("web").join(name), &dist.join(name))?;
    }
    // The Hugo shortcodes, for a docs site to copy (docs/embedding.md).
    copy_tree(&root.join("web").join("hugo"), &dist.join("hugo"))?;
    let assets = root.join("assets");
    if assets.is_dir() {
        copy_tree(&assets, &dist.join("assets"))?;
    }

    posters(&dist)?;
    precompress(&dist)?;

    for (label, path) in [("raw build", &wasm), ("shipped", &shipped)] {
        let size = fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        note(format!(
            "{label}: {} is {}",
            path.display(),
            human_size(size)
        ));
    }
    println!("==> site ready in {}", dist.display());
    Ok(dist)
}

/// Builds the app for wasm32 (release profile) and returns the module cargo wrote.
pub fn build_app_wasm() -> Result<PathBuf> {
    let wasm_toolchain = toolchain::ensure_wasm_toolchain()?;
    say(
        format!("building {APP_PACKAGE} for {WASM_TARGET} (release profile)"),
        "the browser runs the simulator and the UI as one WebAssembly module",
    );
    if wasm_toolchain == toolchain::WasmToolchain::Debian {
        note("the first build also compiles the standard library for wasm32 (1-3 minutes)");
    }
    run(&mut toolchain::wasm_build_command(
        &wasm_toolchain,
        APP_PACKAGE,
    ))?;
    let wasm = util::target_dir()
        .join(WASM_TARGET)
        .join("release")
        .join(APP_WASM);
    if !wasm.is_file() {
        return Err(format!(
            "the build succeeded but {} is missing",
            wasm.display()
        ));
    }
    Ok(wasm)
}

/// Draws the embed's posters into `dist/posters/` with the native CLI, built with the
/// test profile (optimised) and the whole workspace's features, as `cargo test
/// --workspace` builds it: in `cargo xtask test` it is built already by then (built
/// for `ddlscope` alone, its dependencies' features would differ and it would all be
/// compiled again).
fn posters(dist: &Path) -> Result {
    say(
        "drawing the embed player's posters into posters/",
        "poster=1 shows a still frame of the map before any WebAssembly loads; the CLI draws it with the map's own pixel code",
    );
    run(Command::new(util::host_cargo()).args([
        "build",
        "--profile",
        "test",
        "--workspace",
        "--bins",
        "-j",
        toolchain::JOBS,
    ]))?;
    let cli = util::target_dir().join("debug").join("ddlscope");
    #[allow(
        clippy::disallowed_methods,
        reason = "xtask reports how long a real step took"
    )]
    let started = std::time::Instant::now();
    run(Command::new(&cli)
        .args(["poster", "--all", "-o"])
        .arg(dist.join("posters")))?;
    note(format!(
        "posters drawn in {}",
        util::human_duration(started.elapsed())
    ));
    Ok(())
}

/// The kinds of file worth compressing (the PNG posters are compressed already).
const COMPRESSED_KINDS: [&str; 5] = ["wasm", "js", "css", "html", "json"];

/// Writes `x.gz` (gzip -9) and `x.br` (brotli -q 11) beside every wasm, JS, CSS, HTML
/// and JSON file of the site. gzip is everywhere; brotli is installed with apt-get
/// when missing and we run as root, otherwise the `.br` files are left out (say so).
fn precompress(dist: &Path) -> Result {
    say(
        "precompressing the wasm, scripts, styles and pages (.gz, .br beside each)",
        "a server that sends them saves the browser 3-4 MB of the wasm's 5 MB download, with no work per request",
    );
    if util::which("brotli").is_none() && util::is_root() {
        util::apt_install(&["brotli"])?;
    }
    let brotli = util::which("brotli").is_some();
    if !brotli {
        note("brotli is not installed (apt-get install brotli): writing .gz only");
    }
    let mut files = Vec::new();
    collect(dist, &mut files)?;
    let (mut plain, mut br) = (0u64, 0u64);
    for file in files.iter().filter(|f| {
        f.extension()
            .is_some_and(|e| COMPRESSED_KINDS.contains(&e.to_string_lossy().as_ref()))
    }) {
        run(Command::new("gzip")
            .args(["-9", "-k", "-n", "-f"])
            .arg(file))?;
        if brotli {
            run(Command::new("brotli")
                .args(["-q", "11", "-k", "-f"])
                .arg(file))?;
        }
        if file.extension().is_some_and(|e| e == "wasm") {
            plain = fs::metadata(file).map(|m| m.len()).unwrap_or(0);
            let twin = if brotli { "br" } else { "gz" };
            br = fs::metadata(file.with_extension(format!("wasm.{twin}")))
                .map(|m| m.len())
                .unwrap_or(0);
        }
    }
    note(format!(
        "the wasm: {} plain, {} {}",
        human_size(plain),
        human_size(br),
        if brotli { "brotli" } else { "gzip" }
    ));
    Ok(())
}

/// Every regular file under `dir`, recursively.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            collect(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

fn copy_file(from: &Path, to: &Path) -> Result {
    fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
}

/// Copies a directory tree (regular files and directories; symlinks are followed).
fn copy_tree(from: &Path, to: &Path) -> Result {
    fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let entries = fs::read_dir(from).map_err(|e| format!("cannot list {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", from.display()))?;
        let source = entry.path();
        let dest = to.join(entry.file_name());
        if source.is_dir() {
            copy_tree(&source, &dest)?;
        } else {
            copy_file(&source, &dest)?;
        }
    }
    Ok(())
}
