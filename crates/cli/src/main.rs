//! `ddlscope`: run ddlscope scenarios headless and print the per-second counters a
//! monitoring agent would record.
//!
//! This crate is the only one that prints. It stands on the engine's public API, the
//! same one the browser app uses, and runs the same scenario files.

use clap::{Parser, Subcommand, ValueEnum};
use ddlscope_engine::{
    scenario_text, EventKind, ListKind, Profile, Sample, Scenario, Sim, Tick, PROFILES, SCENARIOS,
};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

mod bench;
mod bench_text;
mod error;
mod lesson;
mod poster;
mod reproduce;

use error::CliError;

#[derive(Parser, Debug)]
#[command(
    name = "ddlscope",
    version,
    about = "See why DDL freezes a MySQL/InnoDB server: a deterministic simulation, headless"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Run a scenario and print one row of counters per virtual second.
    Run(RunArgs),
    /// List the built-in scenarios and engine profiles.
    List,
    /// Measure the engine: trace replay, memory per page, real-time factor, eviction pass.
    Bench(BenchArgs),
    /// Run a session script (timed statements from several sessions; see
    /// docs/session-scripts.md) and print each statement's outcome.
    Script(ScriptArgs),
    /// Lessons (see docs/lessons.md).
    #[command(subcommand)]
    Lesson(LessonCmd),
    /// Draw a scenario's buffer-pool map at one moment as a PNG: the pixels the app's
    /// map shows there (the embed player's still frame, `poster=1`).
    Poster(PosterArgs),
    /// Run the incident scenarios: each published figure beside the simulated one.
    Reproduce {
        /// Print a JSON array of {id, published, simulated, unit, tolerance, ok}.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand, Debug)]
enum LessonCmd {
    /// Run every step of the lessons headless; fail when a question's stated answer
    /// is not what the simulation shows.
    Check {
        /// Lesson files (default: every built-in lesson).
        files: Vec<String>,
    },
}

#[derive(clap::Args, Debug)]
struct PosterArgs {
    /// A built-in scenario (see `ddlscope list`).
    #[arg(default_value = "drop-table-demo")]
    scenario: String,
    /// Engine profile (default: the scenario's own).
    #[arg(long)]
    profile: Option<String>,
    /// The moment, virtual seconds (default: a second after the scenario's first timed
    /// statement, or 5 s).
    #[arg(long)]
    at: Option<f64>,
    /// The map's width, CSS pixels.
    #[arg(long, default_value_t = poster::DEFAULT_WIDTH)]
    width: u32,
    /// Device pixels per CSS pixel.
    #[arg(long, default_value_t = 1.0)]
    dpr: f64,
    /// The colours: the app's light or dark theme.
    #[arg(long, value_enum, default_value_t = PosterTheme::Light)]
    theme: PosterTheme,
    /// The PNG file to write (with `--all`, the directory for every poster and
    /// index.json).
    #[arg(short, long)]
    output: String,
    /// Every built-in scenario at its own engine and moment, in both themes, with the
    /// index.json the embed player reads.
    #[arg(long)]
    all: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PosterTheme {
    Light,
    Dark,
}

#[derive(clap::Args, Debug)]
struct ScriptArgs {
    /// The session script file.
    file: String,
    /// Engine profile to run instead of the script's own.
    #[arg(long)]
    profile: Option<String>,
    /// `json`: {"statements": [...], "metadata_locks": [...]}; `table`: for people;
    /// `tsv`: one tab-separated line per statement, for programs.
    #[arg(long, value_enum, default_value_t = ScriptFormat::Table)]
    format: ScriptFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ScriptFormat {
    Table,
    Json,
    Tsv,
}

#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// A page-access trace, one page id per line (../shared/bench/gen_trace.py writes
    /// the reference one); default: a generated trace of the same shape.
    #[arg(long)]
    trace: Option<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// bench-web's report (target/bench-web.json): adds the wasm real-time factor
    /// measured in Chromium and its ratio to this machine's native one.
    #[arg(long, value_name = "FILE")]
    web: Option<String>,
    /// Only the real-time factor runs (8 M pages, 16 threads oltp_read_write, 60
    /// virtual seconds; I1 past its DROP's stall, virtual 170 to 290 s): what `cargo
    /// xtask bench-web` times between its wasm runs.
    #[arg(long, conflicts_with_all = ["trace", "web"])]
    realtime_only: bool,
    /// Only the pool's figures: the trace replays, bytes a page, the tablespace
    /// freeing pass and the scan trace, with the machine they ran on.
    #[arg(long, conflicts_with_all = ["web", "realtime_only"])]
    pool_only: bool,
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// A built-in scenario (its file stem, see `ddlscope list`) or the path of a scenario
    /// TOML file.
    #[arg(default_value = "drop-table-demo")]
    scenario: String,
    /// Engine profile to run instead of the scenario's own.
    #[arg(long)]
    profile: Option<String>,
    /// Virtual seconds to run (default: the scenario's).
    #[arg(long)]
    seconds: Option<u64>,
    /// Seed of the random streams (default: the scenario's).
    #[arg(long)]
    seed: Option<u64>,
    /// Output format: an aligned table, CSV with a header, or one JSON object per line.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Statements to run in addition to the scenario's script, as `SECONDS:SQL`
    /// (e.g. `--at '10:DROP TABLE t1'`); may be repeated.
    #[arg(long = "at", value_name = "SECONDS:SQL")]
    at: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Table,
    Csv,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Run(args) => run(&args),
        Cmd::List => list(),
        Cmd::Bench(args) => bench_cmd(&args),
        Cmd::Reproduce { json } => reproduce_cmd(json),
        Cmd::Script(args) => script_cmd(&args),
        Cmd::Poster(args) => poster_cmd(&args),
        Cmd::Lesson(LessonCmd::Check { files }) => lesson_check(&files),
    };
    match result {
        Ok(()) | Err(CliError::OutputClosed) => ExitCode::SUCCESS,
        Err(CliError::Failed(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn lesson_check(files: &[String]) -> Result<(), CliError> {
    if lesson::check(files, &mut io::stdout().lock())? {
        Ok(())
    } else {
        Err(CliError::Failed(
            "a lesson's stated answer is not what the simulation shows".into(),
        ))
    }
}

fn poster_cmd(args: &PosterArgs) -> Result<(), CliError> {
    if !(16..=4096).contains(&args.width) {
        return Err(format!("--width {}: from 16 to 4096 CSS pixels", args.width).into());
    }
    if !(0.5..=4.0).contains(&args.dpr) {
        return Err(format!("--dpr {}: from 0.5 to 4", args.dpr).into());
    }
    if args.all {
        let entries = poster::write_all(std::path::Path::new(&args.output), args.width, &|name| {
            eprintln!("# {name}…")
        })?;
        println!("{} posters in {}", entries.len() * 2, args.output);
        return Ok(());
    }
    let at = match args.at {
        Some(s) if (0.0..=3600.0).contains(&s) => Tick::from_ns((s * 1e9).round() as u64),
        Some(s) => return Err(format!("--at {s}: virtual seconds from 0 to 3600").into()),
        None => Tick::from_secs(poster::default_moment(&Scenario::builtin(&args.scenario)?)),
    };
    let sim = poster::still(&args.scenario, args.profile.as_deref(), at)?;
    let theme = match args.theme {
        PosterTheme::Light => ddlscope_map::Theme::LIGHT,
        PosterTheme::Dark => ddlscope_map::Theme::DARK,
    };
    let png = poster::encode_png(&poster::picture(&sim, &theme, args.width, args.dpr))?;
    std::fs::write(&args.output, png).map_err(|e| format!("cannot write {}: {e}", args.output))?;
    Ok(())
}

fn script_cmd(args: &ScriptArgs) -> Result<(), CliError> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read {}: {e}", args.file))?;
    let script =
        ddlscope_engine::SessionScript::parse(&text).map_err(|e| format!("{}: {e}", args.file))?;
    let report = script
        .run(args.profile.as_deref())
        .map_err(|e| format!("{}: {e}", args.file))?;
    let out = match args.format {
        ScriptFormat::Json => {
            serde_json::to_string_pretty(&report.to_json()).map_err(|e| e.to_string())? + "\n"
        }
        ScriptFormat::Table => report.render_table(),
        ScriptFormat::Tsv => report.render_tsv(),
    };
    io::stdout().write_all(out.as_bytes())?;
    Ok(())
}

fn list() -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    writeln!(out, "Scenarios:")?;
    for (name, _) in SCENARIOS {
        match Scenario::builtin(name) {
            Ok(s) => writeln!(out, "  {name:<24} {} (profile {})", s.title, s.profile)?,
            Err(e) => writeln!(out, "  {name:<24} (broken: {e})")?,
        }
    }
    writeln!(out, "Profiles:")?;
    for (name, _) in PROFILES {
        match Profile::builtin(name) {
            Ok(p) => writeln!(out, "  {name:<24} {}", p.title)?,
            Err(e) => writeln!(out, "  {name:<24} (broken: {e})")?,
        }
    }
    Ok(())
}

fn reproduce_cmd(json: bool) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    let figures = reproduce::reproduce(&mut |what| eprintln!("# {what}…"))?;
    if json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&figures).map_err(|e| e.to_string())?
        )?;
        return Ok(());
    }
    let show = |v: &Option<reproduce::Value>| match v {
        Some(reproduce::Value::Number(n)) if n.abs() >= 1000.0 => format!("{n:.0}"),
        Some(reproduce::Value::Number(n)) => format!("{n:.2}"),
        Some(reproduce::Value::Bool(b)) => b.to_string(),
        None => "not modelled yet".to_string(),
    };
    writeln!(
        out,
        "{:<28} {:>12} {:>18} {:<6} {:<22} result",
        "figure", "published", "simulated", "unit", "tolerance"
    )?;
    for f in &figures {
        let published = show(&Some(f.published.clone()));
        let result = match (&f.simulated, f.ok) {
            (None, _) => "-",
            (Some(_), true) => "ok",
            (Some(_), false) => "OUT OF TOLERANCE",
        };
        writeln!(
            out,
            "{:<28} {:>12} {:>18} {:<6} {:<22} {result}",
            f.id,
            published,
            show(&f.simulated),
            f.unit,
            f.tolerance
        )?;
    }
    Ok(())
}

fn bench_cmd(args: &BenchArgs) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    if args.realtime_only {
        let speeds = bench_text::Speeds {
            realtime: bench::realtime_factor()?,
            i1_steady: bench::i1_steady_factor()?,
            i1_played: bench::i1_played_factor()?,
        };
        return Ok(bench_text::write_speeds(&mut out, &speeds, args.json)?);
    }
    let mut progress = |what: &str| eprintln!("# {what}…");
    if args.pool_only {
        let pool = bench::pool_figures(args.trace.as_deref(), &mut progress)?;
        if args.json {
            let text = serde_json::to_string(&pool).map_err(|e| e.to_string())?;
            writeln!(out, "{text}")?;
            return Ok(());
        }
        return Ok(bench_text::write_pool(&mut out, &pool)?);
    }
    let report = bench::run(args.trace.as_deref(), args.web.as_deref(), &mut progress)?;
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string(&report).map_err(|e| e.to_string())?
        )?;
        return Ok(());
    }
    Ok(bench_text::write_report(&mut out, &report)?)
}

fn load_scenario(arg: &str) -> Result<Scenario, String> {
    if scenario_text(arg).is_some() {
        return Scenario::builtin(arg);
    }
    if arg.ends_with(".toml") || arg.contains('/') {
        let text = std::fs::read_to_string(arg)
            .map_err(|e| format!("cannot read scenario file {arg}: {e}"))?;
        return Scenario::from_toml(&text).map_err(|e| format!("{arg}: {e}"));
    }
    Scenario::builtin(arg)
}

fn parse_at(spec: &str) -> Result<(u64, String), String> {
    let (secs, sql) = spec
        .split_once(':')
        .ok_or_else(|| format!("--at '{spec}': expected SECONDS:SQL, like '10:DROP TABLE t1'"))?;
    let secs: u64 = secs
        .trim()
        .parse()
        .map_err(|_| format!("--at '{spec}': '{secs}' is not a whole number of seconds"))?;
    ddlscope_engine::parse_sql(sql).map_err(|e| format!("--at '{spec}': {e}"))?;
    Ok((secs, sql.trim().to_string()))
}

fn run(args: &RunArgs) -> Result<(), CliError> {
    let mut scenario = load_scenario(&args.scenario)?;
    if let Some(seed) = args.seed {
        scenario.seed = seed;
    }
    if let Some(s) = args.seconds {
        if s == 0 || s > 86_400 {
            return Err(format!("--seconds {s}: must be between 1 and 86400").into());
        }
        scenario.seconds = s;
    }
    for spec in &args.at {
        let (at_s, sql) = parse_at(spec)?;
        scenario.script.push(ddlscope_engine::ScriptStep {
            at_s,
            sql,
            shell: String::new(),
        });
    }
    let profile = Profile::builtin(args.profile.as_deref().unwrap_or(&scenario.profile))?;
    let seconds = scenario.seconds;
    let mut sim = Sim::new(scenario, profile)?;

    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let widths: Vec<usize> = Sample::COLUMNS
        .iter()
        .map(|c| short_name(c).len().max(6))
        .collect();
    match args.format {
        Format::Table => {
            let header: Vec<String> = Sample::COLUMNS
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{:>w$}", short_name(c), w = w))
                .collect();
            writeln!(out, "{}", header.join(" "))?;
        }
        Format::Csv => writeln!(out, "{}", Sample::COLUMNS.join(","))?,
        Format::Json => {}
    }

    // Wall time only paces the progress bar; the simulation never sees it.
    #[allow(clippy::disallowed_methods)]
    let started = Instant::now();
    let progress = io::stderr().is_terminal();
    let mut printed_events = 0;
    let mut printed_samples = 0;
    for s in 1..=seconds {
        sim.run_until(Tick::from_secs(s));
        for e in sim.events_since(printed_events) {
            if let Some(line) = narrate(&e.kind) {
                out.flush()?;
                // Statements are narrated on stderr so that stdout stays machine-readable.
                eprintln!("# {:>9}  {line}", e.at.to_string());
            }
        }
        printed_events = sim.event_count();
        for sample in sim.samples_since(printed_samples) {
            match args.format {
                Format::Table => {
                    let row: Vec<String> = sample
                        .row()
                        .iter()
                        .zip(&widths)
                        .map(|(v, w)| format!("{v:>w$}"))
                        .collect();
                    writeln!(out, "{}", row.join(" "))?;
                }
                Format::Csv => writeln!(out, "{}", sample.row().join(","))?,
                Format::Json => {
                    let line = serde_json::to_string(sample).map_err(|e| e.to_string())?;
                    writeln!(out, "{line}")?;
                }
            }
        }
        printed_samples = sim.sample_count();
        if progress && started.elapsed().as_secs_f64() > 1.0 {
            out.flush()?;
            eprint!(
                "\r[{:<30}] {s}/{seconds} s virtual",
                "#".repeat((s * 30 / seconds) as usize)
            );
            if s == seconds {
                eprintln!();
            }
        }
    }
    out.flush()?;
    eprintln!(
        "# trace hash {:016x}; {} virtual s in {:.2} s wall",
        sim.trace_hash(),
        seconds,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A one-line account of the events a person running the CLI wants to see.
fn narrate(kind: &EventKind) -> Option<String> {
    match kind {
        EventKind::StatementStarted { session, sql } => Some(format!("session {session}: {sql}")),
        EventKind::StatementFinished {
            session, result, ..
        } => Some(format!("session {session}: {result}")),
        // One per page an index build writes: its phase event sums them up.
        EventKind::Scan {
            list: ListKind::Flush,
            ..
        } => None,
        EventKind::Scan {
            instance,
            latch,
            to,
            t0,
            t1,
            ..
        } => Some(format!(
            "LRU scan of instance {instance}: {to} pages under {latch}, {}",
            *t1 - *t0
        )),
        EventKind::SpaceVersionBumped {
            space,
            version,
            stale_pages,
        } => Some(format!(
            "{space} now at version {version}: {stale_pages} pages stale"
        )),
        EventKind::FileUnlink { path, t0, t1, .. } => Some(format!("unlink {path}: {}", *t1 - *t0)),
        EventKind::ZipPagesDecompressed {
            space,
            pages,
            latch,
            t0,
            t1,
            ..
        } => Some(format!(
            "{space}: {pages} compressed-only pages decompressed by the drop under {latch}: {}",
            *t1 - *t0
        )),
        EventKind::TablespaceCreated {
            table,
            old_space,
            space,
        } => Some(format!("{table}: new tablespace ({old_space} -> {space})")),
        EventKind::ShellDone {
            line,
            result,
            error,
        } => Some(if *error {
            format!("$ {line}: {result}")
        } else {
            format!("$ {line}")
        }),
        EventKind::FileTruncate {
            path,
            latch,
            t0,
            t1,
            ..
        } => Some(match latch {
            Some(l) => format!("truncate {path} under {l}: {}", *t1 - *t0),
            None => format!("truncate {path}: {}", *t1 - *t0),
        }),
        EventKind::DdlPhase {
            session,
            table,
            phase,
            detail,
        } => Some(if detail.is_empty() {
            format!("session {session}: {table}: {phase}")
        } else {
            format!("session {session}: {table}: {detail}; {phase}")
        }),
        _ => None,
    }
}

/// Column headers for the table view: the status-variable prefix dropped, as `bp_*`
/// monitoring agents shorten them.
fn short_name(column: &str) -> String {
    column
        .strip_prefix("Innodb_buffer_pool_")
        .map_or_else(|| column.to_string(), |rest| format!("bp_{rest}"))
}
