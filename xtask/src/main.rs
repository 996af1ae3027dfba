//! xtask: ddlscope's build, serve and test driver, run as `cargo xtask <command>`.
//!
//! It owns the toolchain (finding or installing a Rust that targets wasm32 and the
//! matching wasm-bindgen CLI), assembling the static site, serving it, and the
//! browser tests. It knows nothing of the engine or the app beyond the app's package
//! name and the files in `web/`.
//!
//! Commands:
//! - `dist`: build the app to wasm and assemble `target/dist/`.
//! - `serve [--port N] [--no-build] [--dir DIR]`: dist, then serve it on 127.0.0.1.
//! - `test`: layers, fmt, clippy, native tests, the wasm build and the browser tests, with a
//!   summary table; this is what CI runs (`.ci/run`).
//! - `e2e [--dir DIR] [--only TEXT]`: only the browser tests (or the files whose name holds
//!   TEXT), against an existing site.
//! - `conformance [--only TEXT]`: the session scripts of `assets/scripts/` and the
//!   generated matrix against a real MariaDB and the simulator (`test` runs only the
//!   scripts of `assets/scripts/`); `--random N [--seed S]`: N scripts of random walks
//!   instead (`walks.rs`), a campaign.
//! - `bench-web [--no-build] [--dir DIR]`: the browser's figures (frames, long
//!   tasks, speed, heap, first map, the I1 switch, wasm size) of the page (the
//!   engines in their Web Worker) into `target/bench-web.json`.
//! - `sites [--no-build] [--dir DIR]`: the docs' mdBook snippet in a real book (mdBook
//!   built from crates.io once, into `target/tools/`); never in `test`.
//! - `soak [--seeds N] [--first N] | --seed N | --hours H`: the random-schedule
//!   property test over many seeds, one seed replayed, or the long runs.
//! - `fuzz [--seconds N] [--runs N] [--no-build] [TARGET]`: the cargo-fuzz targets of `fuzz/`,
//!   corpora seeded from `assets/`, executions and crashes per target (never in `test`).
//! - `layers`: the engine's and the app's module graphs checked for circles and
//!   against the layers in ARCHITECTURE.md.

// Small functions: clippy's too_many_lines (clippy.toml) holds the code to 120 lines a
// function; tests (a table of cases, a walk through a scenario) may run longer.
#![cfg_attr(test, allow(clippy::too_many_lines))]

mod bench_web;
mod bindgen;
mod browser;
mod bundle;
mod calibrate;
mod check;
mod conformance;
mod dist;
mod fuzz;
mod layers;
mod mariadb;
mod matrix;
mod native_tests;
mod serve;
mod setup;
mod sites;
mod size;
mod soak;
mod stamps;
mod toolchain;
mod util;
mod walks;

use std::path::PathBuf;
use std::process::ExitCode;

use util::Result;

const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  dist                      build the wasm app and assemble target/dist/
  bundle [--no-build]       dist, then inline it into one HTML file, target/ddlscope-workshop.html,
                            that opens from disk with no server (a workshop without Wi-Fi)
         [--lesson FILE...] carrying these lesson files too (listed with the built-in lessons)
  serve [--port N]          dist, then serve target/dist/ on http://127.0.0.1:N/ (default 8080)
        [--no-build]        serve the existing target/dist/ without building
        [--dir DIR]         serve DIR instead (implies --no-build)
        [--csp]             send the strict Content-Security-Policy the pages must run under
  test [--rerun]            layers, fmt, clippy, native tests, wasm build, browser tests (what CI runs);
                            a long step that passed on the same inputs is not run again
                            (--rerun: every step runs)
  e2e [--dir DIR] [--only TEXT]
                            only the browser tests, against target/dist/ or DIR
                            (--only: the test files whose name holds TEXT)
  conformance [--only TEXT] session scripts and the generated matrix against a private
                            MariaDB and the simulator (test runs the scripts only)
        [--only TEXT]       only the scripts whose name contains TEXT (matrix ones too)
        [--random N]        instead: N scripts of random walks (three sessions taking turns
                            on a table, six walks a script) into target/conformance-random/
        [--seed S]          the walks' seed (default 1): the same seed writes the same walks
  calibrate-playbooks       INPLACE, INSTANT, COPY and pt-online-schema-change under sysbench on a
                            private MariaDB, at both AUTO-INC lock modes, alone and behind an open
                            transaction, into target/calibrate-playbooks.md (about twenty minutes)
        [--rows N]          the table's rows (default 1000000)
        [--sim-only]        only the simulator's side (ddlscope advise), beside the last real runs
  bench-web [--no-build]    measure the app in headless Chromium into target/bench-web.json
        [--dir DIR]         against DIR instead of a fresh dist
  sites [--no-build]        the docs' mdBook snippet in a real book in Chromium (mdBook built
                            from crates.io into target/tools/ the first time: minutes)
        [--dir DIR]         against DIR instead of a fresh dist
  size [--no-build]         what each crate costs in the shipped wasm (twiggy), into target/size.md
  soak [--seeds N]          the engine's random-schedule property test over N seeds (10000)
        [--first N]         starting at seed N (1)
        [--seed N]          replay one seed (as a failure's replay line says)
        [--hours H]         instead: H virtual hours of oltp_read_write + a DDL every 10 min
  fuzz [TARGET]             build the cargo-fuzz targets of fuzz/ and run each (or TARGET) in turn,
                            corpora seeded from assets/; reports executions, exec/s, corpus, crashes
        [--seconds N]       wall seconds per target (default 60)
        [--runs N]          stop a target after N executions
        [--no-build]        run the targets already built
  layers                    module circles and the layers in ARCHITECTURE.md (## Layers)
  help                      this text";

/// A parsed command line.
#[derive(Debug, PartialEq, Eq)]
enum Task {
    Dist,
    Bundle {
        build: bool,
        /// Lesson files carried in the bundle beside the built-in ones.
        lessons: Vec<PathBuf>,
    },
    Serve {
        port: u16,
        build: bool,
        dir: Option<PathBuf>,
        /// `--csp`: every response under `serve::STRICT_CSP`.
        csp: bool,
    },
    Test {
        /// Forget which long steps passed on the same inputs (`stamps`).
        rerun: bool,
    },
    E2e {
        dir: Option<PathBuf>,
        /// `--only TEXT`: the test files whose name holds TEXT.
        only: Option<String>,
    },
    BenchWeb {
        build: bool,
        dir: Option<PathBuf>,
    },
    Sites {
        build: bool,
        dir: Option<PathBuf>,
    },
    Conformance {
        only: Option<String>,
        /// `--random N`, `--seed S`: N scripts of random walks from seed S.
        random: Option<(usize, u64)>,
    },
    Size {
        build: bool,
    },
    Soak(soak::Soak),
    Fuzz(fuzz::Options),
    Layers,
    CalibratePlaybooks {
        rows: u64,
        /// `--sim-only`: the simulator's side again, on the last real runs.
        sim_only: bool,
    },
    Help,
}

fn parse(args: &[String]) -> Result<Task> {
    let (command, mut rest) = match args.split_first() {
        Some((command, rest)) => (command.as_str(), rest),
        None => return Ok(Task::Help),
    };
    let mut port = 8080;
    let mut build = true;
    let mut lessons: Vec<PathBuf> = Vec::new();
    let mut dir = None;
    let mut csp = false;
    let mut only = None;
    let mut random = None;
    let (mut seeds, mut first, mut seed, mut hours) = (None, None, None, None);
    let mut rows = None;
    let mut sim_only = false;
    let mut rerun = false;
    let mut fuzz = fuzz::Options {
        seconds: 60,
        runs: None,
        target: None,
        build: true,
    };
    while let Some((flag, tail)) = rest.split_first() {
        rest = tail;
        let mut value = |name: &str| -> Result<String> {
            let (v, tail) = rest
                .split_first()
                .ok_or_else(|| format!("{name} needs a value"))?;
            rest = tail;
            Ok(v.clone())
        };
        match (command, flag.as_str()) {
            ("serve", "--port") => port = parse_port(&value("--port")?)?,
            ("serve" | "bench-web" | "bundle" | "size" | "sites", "--no-build") => build = false,
            ("bundle", "--lesson") => lessons.push(PathBuf::from(value("--lesson")?)),
            // `--lesson a.toml b.toml`: the files after it.
            ("bundle", f) if !f.starts_with('-') && !lessons.is_empty() => {
                lessons.push(PathBuf::from(f))
            }
            ("serve", "--csp") => csp = true,
            ("fuzz", "--no-build") => fuzz.build = false,
            ("conformance" | "e2e", "--only") => only = Some(value("--only")?),
            ("conformance", "--random") => random = Some(number("--random", &value("--random")?)?),
            ("conformance" | "soak", "--seed") => seed = Some(number("--seed", &value("--seed")?)?),
            ("calibrate-playbooks", "--sim-only") => sim_only = true,
            ("test", "--rerun") => rerun = true,
            ("calibrate-playbooks", "--rows") => rows = Some(number("--rows", &value("--rows")?)?),
            ("soak", "--seeds") => seeds = Some(number("--seeds", &value("--seeds")?)?),
            ("soak", "--first") => first = Some(number("--first", &value("--first")?)?),
            ("soak", "--hours") => hours = Some(number("--hours", &value("--hours")?)?),
            ("fuzz", "--seconds" | "--runs") => {
                let v = value(flag)?;
                let n: u64 = v
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("{flag} wants a whole number above 0, not {v:?}"))?;
                if flag == "--runs" {
                    fuzz.runs = Some(n);
                } else {
                    fuzz.seconds = n;
                }
            }
            ("fuzz", t) if !t.starts_with('-') && fuzz.target.is_none() => {
                fuzz.target = Some(t.to_string());
            }
            ("serve" | "e2e" | "bench-web" | "sites", "--dir") => {
                dir = Some(PathBuf::from(value("--dir")?));
                build = false;
            }
            (_, "-h" | "--help") => return Ok(Task::Help),
            _ => {
                return Err(format!(
                    "unknown option {flag:?} for `{command}`\n\n{USAGE}"
                ))
            }
        }
    }
    match command {
        "dist" => Ok(Task::Dist),
        "bundle" => Ok(Task::Bundle { build, lessons }),
        "serve" => Ok(Task::Serve {
            port,
            build,
            dir,
            csp,
        }),
        "test" => Ok(Task::Test { rerun }),
        "e2e" => Ok(Task::E2e { dir, only }),
        "bench-web" => Ok(Task::BenchWeb { build, dir }),
        "sites" => Ok(Task::Sites { build, dir }),
        "conformance" => Ok(Task::Conformance {
            only,
            random: match (random, seed) {
                (Some(n), s) => Some((n as usize, s.unwrap_or(1))),
                (None, Some(_)) => return Err("--seed goes with --random N".into()),
                (None, None) => None,
            },
        }),
        "size" => Ok(Task::Size { build }),
        "soak" => Ok(Task::Soak(match (seed, hours) {
            (Some(_), Some(_)) => return Err("--seed and --hours do not go together".into()),
            (Some(s), None) => soak::Soak::Seed(s),
            (None, Some(h)) => soak::Soak::Hours(h),
            (None, None) => soak::Soak::Seeds {
                first: first.unwrap_or(1),
                seeds: seeds.unwrap_or(soak::DEFAULT_SEEDS),
            },
        })),
        "fuzz" => Ok(Task::Fuzz(fuzz)),
        "layers" => Ok(Task::Layers),
        "calibrate-playbooks" => Ok(Task::CalibratePlaybooks {
            rows: rows.unwrap_or(calibrate::ROWS),
            sim_only,
        }),
        "help" | "-h" | "--help" => Ok(Task::Help),
        other => Err(format!("unknown command {other:?}\n\n{USAGE}")),
    }
}

/// `--port`'s value.
fn parse_port(v: &str) -> Result<u16> {
    v.parse()
        .map_err(|_| format!("--port wants a number from 0 to 65535, not {v:?}"))
}

/// A whole number option's value.
fn number(flag: &str, v: &str) -> Result<u64> {
    v.parse()
        .map_err(|_| format!("{flag} wants a whole number, not {v:?}"))
}

fn execute(task: Task) -> Result {
    match task {
        Task::Help => {
            println!("{USAGE}");
            Ok(())
        }
        Task::Dist => dist::dist().map(|_| ()),
        Task::Bundle { build, lessons } => {
            let dir = if build {
                dist::dist()?
            } else {
                dist::dist_dir()
            };
            bundle::bundle(&dir, &lessons).map(|_| ())
        }
        Task::Serve {
            port,
            build,
            dir,
            csp,
        } => {
            // Claim the port before a build that may take minutes, so a busy port
            // fails at once.
            let listener = serve::bind(port)?;
            let site = match dir {
                Some(dir) => dir,
                None if build => dist::dist()?,
                None => dist::dist_dir(),
            };
            if !site.join("index.html").is_file() {
                return Err(format!(
                    "{} has no index.html; run `cargo xtask dist` (or serve without --no-build)",
                    site.display()
                ));
            }
            let addr = listener
                .local_addr()
                .map_err(|e| format!("cannot read the listening address: {e}"))?;
            println!(
                "==> serving {} at http://{addr}/{}  (Ctrl-C stops)",
                site.display(),
                if csp { " under the strict CSP" } else { "" }
            );
            serve::serve_forever(listener, site, serve::Options { strict_csp: csp });
            Ok(())
        }
        Task::Test { rerun } => check::test(rerun),
        Task::Conformance { only, random } => {
            let which = match random {
                Some((count, seed)) => conformance::Scripts::Random { count, seed },
                None => conformance::Scripts::WithMatrix,
            };
            conformance::conformance(which, only.as_deref()).map(|_| ())
        }
        Task::Fuzz(opts) => fuzz::fuzz(&opts),
        Task::Layers => layers::layers(),
        Task::CalibratePlaybooks { rows, sim_only } => {
            calibrate::calibrate_playbooks(rows, sim_only)
        }
        Task::Soak(what) => soak::soak(&what),
        Task::Size { build } => size::size(build),
        Task::BenchWeb { build, dir } => bench_web::bench_web(&site_for(build, dir)?),
        Task::Sites { build, dir } => sites::sites(&site_for(build, dir)?),
        Task::E2e { dir, only } => {
            browser::ensure_browser_tools()?;
            browser::run_e2e(&dir.unwrap_or_else(dist::dist_dir), only.as_deref())
        }
    }
}

/// The site a command measures or tests: `--dir DIR`, else a fresh dist (or, with
/// `--no-build`, the one in `target/dist/`).
fn site_for(build: bool, dir: Option<PathBuf>) -> Result<PathBuf> {
    Ok(match dir {
        Some(dir) => dir,
        None if build => dist::dist()?,
        None => dist::dist_dir(),
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args).and_then(execute) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(args: &[&str], expect: Result<Task>) {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let got = parse(&args).map_err(|e| e.lines().next().unwrap_or_default().to_string());
        assert_eq!(got, expect, "args {args:?}");
    }

    #[test]
    fn parses_commands_and_options() {
        check(&[], Ok(Task::Help));
        check(&["dist"], Ok(Task::Dist));
        check(
            &["bundle", "--no-build"],
            Ok(Task::Bundle {
                build: false,
                lessons: vec![],
            }),
        );
        check(
            &[
                "bundle", "--lesson", "a.toml", "b.toml", "--lesson", "c.toml",
            ],
            Ok(Task::Bundle {
                build: true,
                lessons: vec!["a.toml".into(), "b.toml".into(), "c.toml".into()],
            }),
        );
        check(&["test"], Ok(Task::Test { rerun: false }));
        check(&["test", "--rerun"], Ok(Task::Test { rerun: true }));
        check(&["layers"], Ok(Task::Layers));
        check(
            &["calibrate-playbooks"],
            Ok(Task::CalibratePlaybooks {
                rows: 1_000_000,
                sim_only: false,
            }),
        );
        check(
            &["calibrate-playbooks", "--rows", "5000"],
            Ok(Task::CalibratePlaybooks {
                rows: 5000,
                sim_only: false,
            }),
        );
        check(
            &["calibrate-playbooks", "--sim-only"],
            Ok(Task::CalibratePlaybooks {
                rows: 1_000_000,
                sim_only: true,
            }),
        );
        check(&["size"], Ok(Task::Size { build: true }));
        check(&["size", "--no-build"], Ok(Task::Size { build: false }));
        check(
            &["conformance"],
            Ok(Task::Conformance {
                only: None,
                random: None,
            }),
        );
        check(
            &["conformance", "--only", "kill"],
            Ok(Task::Conformance {
                only: Some("kill".into()),
                random: None,
            }),
        );
        check(
            &["conformance", "--random", "20", "--seed", "9"],
            Ok(Task::Conformance {
                only: None,
                random: Some((20, 9)),
            }),
        );
        check(
            &["conformance", "--random", "3"],
            Ok(Task::Conformance {
                only: None,
                random: Some((3, 1)),
            }),
        );
        check(
            &["conformance", "--seed", "9"],
            Err("--seed goes with --random N".into()),
        );
        check(
            &["serve"],
            Ok(Task::Serve {
                port: 8080,
                build: true,
                dir: None,
                csp: false,
            }),
        );
        check(
            &["serve", "--port", "9000", "--no-build"],
            Ok(Task::Serve {
                port: 9000,
                build: false,
                dir: None,
                csp: false,
            }),
        );
        check(
            &["serve", "--dir", "/tmp/site"],
            Ok(Task::Serve {
                port: 8080,
                build: false,
                dir: Some("/tmp/site".into()),
                csp: false,
            }),
        );
        check(
            &["serve", "--csp", "--no-build"],
            Ok(Task::Serve {
                port: 8080,
                build: false,
                dir: None,
                csp: true,
            }),
        );
        check(
            &["e2e", "--dir", "x"],
            Ok(Task::E2e {
                dir: Some("x".into()),
                only: None,
            }),
        );
        check(
            &["e2e", "--only", "csp"],
            Ok(Task::E2e {
                dir: None,
                only: Some("csp".into()),
            }),
        );
        check(
            &["sites", "--dir", "x"],
            Ok(Task::Sites {
                build: false,
                dir: Some(PathBuf::from("x")),
            }),
        );
        check(
            &["bench-web", "--no-build"],
            Ok(Task::BenchWeb {
                build: false,
                dir: None,
            }),
        );
        check(
            &["soak"],
            Ok(Task::Soak(soak::Soak::Seeds {
                first: 1,
                seeds: 10_000,
            })),
        );
        check(
            &["soak", "--seeds", "300", "--first", "7"],
            Ok(Task::Soak(soak::Soak::Seeds {
                first: 7,
                seeds: 300,
            })),
        );
        check(
            &["soak", "--seed", "42"],
            Ok(Task::Soak(soak::Soak::Seed(42))),
        );
        check(
            &["soak", "--hours", "24"],
            Ok(Task::Soak(soak::Soak::Hours(24))),
        );
        check(
            &["soak", "--seeds", "many"],
            Err("--seeds wants a whole number, not \"many\"".into()),
        );
        check(&["serve", "--port"], Err("--port needs a value".into()));
        check(
            &["serve", "--port", "http"],
            Err("--port wants a number from 0 to 65535, not \"http\"".into()),
        );
        check(
            &["dist", "--port", "1"],
            Err("unknown option \"--port\" for `dist`".into()),
        );
        check(&["deploy"], Err("unknown command \"deploy\"".into()));
        check(
            &["fuzz", "--seconds", "30", "sql"],
            Ok(Task::Fuzz(fuzz::Options {
                seconds: 30,
                runs: None,
                target: Some("sql".into()),
                build: true,
            })),
        );
        check(
            &["fuzz", "--runs", "0"],
            Err("--runs wants a whole number above 0, not \"0\"".into()),
        );
    }
}
