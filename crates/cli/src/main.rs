//! `ddlscope`: run ddlscope scenarios headless and print the per-second counters a
//! monitoring agent would record.
//!
//! This crate is the only one that prints. It stands on the engine's public API, the
//! same one the browser app uses, and runs the same scenario files.

// Small functions: clippy's too_many_lines (clippy.toml) holds the code to 120 lines a
// function; tests (a table of cases, a walk through a scenario) may run longer.
#![cfg_attr(test, allow(clippy::too_many_lines))]

use clap::{Parser, Subcommand, ValueEnum};
use ddlscope_engine::{
    scenario_text, EventKind, ListKind, Profile, Sample, Scenario, Sim, Tick, PROFILES, SCENARIOS,
};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

mod advise;
mod advise_text;
mod bench;
mod bench_text;
mod error;
mod lesson;
mod parallel;
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
    /// Is this DDL safe on my server, and what should I run instead? Runs every
    /// playbook that applies (each its own engine, in parallel) and ranks them.
    Advise(Box<AdviseArgs>),
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
struct AdviseArgs {
    /// Engine profile (see `ddlscope list`), e.g. mysql-5.7; or from --show-variables.
    #[arg(long)]
    profile: Option<String>,
    /// A server variable, NAME=VALUE (innodb_autoinc_lock_mode,
    /// rpl_semi_sync_master_enabled, ...); may be repeated.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// An open transaction on the table, this many seconds old when the DDL starts.
    #[arg(long = "open-txn", value_name = "SECONDS")]
    open_txn: Option<String>,
    /// innodb_buffer_pool_size, e.g. 128G.
    #[arg(long)]
    pool: Option<String>,
    /// innodb_buffer_pool_instances.
    #[arg(long)]
    instances: Option<String>,
    /// innodb_adaptive_hash_index: on or off.
    #[arg(long)]
    ahi: Option<String>,
    /// The data files' file system: ext3, ext4 or xfs.
    #[arg(long)]
    fs: Option<String>,
    /// The storage device: hdd, sata_ssd or nvme.
    #[arg(long)]
    device: Option<String>,
    /// One 16 KB page write on the server's disk, µs (default: the device's).
    #[arg(long = "write-us")]
    write_us: Option<String>,
    /// A write and fsync of the redo log, µs (default: the device's).
    #[arg(long = "fsync-us")]
    fsync_us: Option<String>,
    /// Writes the disk serves at once (default: the device's).
    #[arg(long = "io-channels")]
    io_channels: Option<String>,
    /// The server's CPU cores, which its threads share (default: no CPU contention).
    #[arg(long)]
    cpus: Option<String>,
    /// The server's CPU a statement takes besides its page accesses, µs (default 50):
    /// with --cpus, how many statements a second the cores serve.
    #[arg(long = "statement-cpu-us")]
    statement_cpu_us: Option<String>,
    /// A statement's client round trip besides CPU, µs (default 300, a LAN; a local
    /// socket's is tens of µs).
    #[arg(long = "round-trip-us")]
    round_trip_us: Option<String>,
    /// The table's data file size, e.g. 10G.
    #[arg(long = "table-size")]
    table_size: Option<String>,
    /// The table's rows, instead of its size.
    #[arg(long = "table-rows")]
    table_rows: Option<String>,
    /// ROW_FORMAT: dynamic, compact, redundant or compressed.
    #[arg(long = "row-format")]
    row_format: Option<String>,
    /// PARTITION BY RANGE (id) into this many partitions p0, p1, ...
    #[arg(long)]
    partitions: Option<String>,
    /// Integer secondary indexes on the table.
    #[arg(long = "secondary-indexes")]
    secondary_indexes: Option<String>,
    /// The workload: a sysbench script (oltp_write_only, oltp_read_write, ...).
    #[arg(long)]
    workload: Option<String>,
    /// The workload's client threads.
    #[arg(long)]
    threads: Option<String>,
    /// The DDL, e.g. "DROP TABLE big".
    #[arg(long)]
    ddl: Option<String>,
    /// A file of pasted SHOW VARIABLES output: the version, the pool, the AHI, ...
    #[arg(long = "show-variables", value_name = "FILE")]
    show_variables: Option<String>,
    /// A file of pasted SHOW TABLE STATUS output: the table's size and row format.
    #[arg(long = "table-status", value_name = "FILE")]
    table_status: Option<String>,
    /// The directory the playbooks' scenario files are written to.
    #[arg(long, default_value = "ddlscope-advice")]
    out: String,
    /// Playbooks run at once (default: one a core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Print {"playbooks": [...], "assumptions": [...]} instead of a table.
    #[arg(long)]
    json: bool,
}

impl AdviseArgs {
    /// The flags given, as the advisor's (field, value) pairs, in the advisor's order.
    fn fields(&self) -> Vec<(&'static str, String)> {
        let mut out: Vec<(&'static str, String)> = Vec::new();
        let one = [
            ("profile", &self.profile),
            ("open-txn", &self.open_txn),
            ("pool", &self.pool),
            ("instances", &self.instances),
            ("ahi", &self.ahi),
            ("fs", &self.fs),
            ("device", &self.device),
            ("write-us", &self.write_us),
            ("fsync-us", &self.fsync_us),
            ("io-channels", &self.io_channels),
            ("cpus", &self.cpus),
            ("statement-cpu-us", &self.statement_cpu_us),
            ("round-trip-us", &self.round_trip_us),
            ("table-size", &self.table_size),
            ("table-rows", &self.table_rows),
            ("row-format", &self.row_format),
            ("partitions", &self.partitions),
            ("secondary-indexes", &self.secondary_indexes),
            ("workload", &self.workload),
            ("threads", &self.threads),
            ("ddl", &self.ddl),
        ];
        for (field, value) in one {
            if let Some(v) = value {
                out.push((field, v.clone()));
            }
        }
        out.extend(self.set.iter().map(|v| ("set", v.clone())));
        out
    }
}

#[derive(clap::Args, Debug)]
struct PosterArgs {
    /// A built-in scenario (see `ddlscope list`), or a moment shared from the app:
    /// its Share link, whole (`https://…/#v1.…`) or its fragment (`#v1.…`).
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
    /// Instead of the rows, print the run's playbook figures as `ddlscope advise`
    /// scores them (JSON): a playbook's scenario file replays to the advice's figures.
    #[arg(long)]
    figures: bool,
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
        Cmd::Advise(args) => advise_cmd(&args),
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

fn read_pasted(path: &Option<String>) -> Result<Option<String>, CliError> {
    match path {
        Some(p) => Ok(Some(
            std::fs::read_to_string(p).map_err(|e| format!("cannot read {p}: {e}"))?,
        )),
        None => Ok(None),
    }
}

fn advise_cmd(args: &AdviseArgs) -> Result<(), CliError> {
    let variables = read_pasted(&args.show_variables)?;
    let status = read_pasted(&args.table_status)?;
    let (input, assumptions) =
        advise::question(&args.fields(), variables.as_deref(), status.as_deref())?;
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    // Wall time only for the closing line; the engines never see it.
    #[allow(clippy::disallowed_methods)]
    let started = Instant::now();
    let progress = |name: &str| eprintln!("# {name}: done");
    let advice = advise::advise(
        &input,
        assumptions,
        std::path::Path::new(&args.out),
        jobs,
        &progress,
    )?;
    let mut out = io::stdout().lock();
    if args.json {
        let text = serde_json::to_string_pretty(&advice).map_err(|e| e.to_string())?;
        writeln!(out, "{text}")?;
    } else {
        advise_text::write(&mut out, &advice)?;
    }
    eprintln!(
        "# {} playbooks in {:.1} s wall on {jobs} threads",
        advice.playbooks.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
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
    let sim = if poster::is_link(&args.scenario) {
        if let Some(s) = args.at {
            return Err(format!("--at {s}: a link is its own moment (leave --at out)").into());
        }
        poster::still_of_link(&args.scenario, args.profile.as_deref())?
    } else {
        let at = match args.at {
            Some(s) if (0.0..=3600.0).contains(&s) => Tick::from_ns((s * 1e9).round() as u64),
            Some(s) => return Err(format!("--at {s}: virtual seconds from 0 to 3600").into()),
            None => Tick::from_secs(poster::default_moment(&Scenario::builtin(&args.scenario)?)),
        };
        poster::still(&args.scenario, args.profile.as_deref(), at)?
    };
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
            tool: String::new(),
            session: 0,
        });
    }
    let profile = Profile::builtin(args.profile.as_deref().unwrap_or(&scenario.profile))?;
    let seconds = scenario.seconds;
    if args.figures {
        return print_figures(scenario, profile);
    }
    let mut sim = Sim::new(scenario, profile)?;

    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    // A replica's Seconds_Behind_Master is a column of its own when there is one.
    let replica = sim.scenario().replica.enabled;
    let mut columns: Vec<&str> = Sample::COLUMNS.to_vec();
    if replica {
        columns.push("replica_lag_s");
    }
    let widths: Vec<usize> = columns.iter().map(|c| short_name(c).len().max(6)).collect();
    match args.format {
        Format::Table => {
            let header: Vec<String> = columns
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{:>w$}", short_name(c), w = w))
                .collect();
            writeln!(out, "{}", header.join(" "))?;
        }
        Format::Csv => writeln!(out, "{}", columns.join(","))?,
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
            let mut values = sample.row();
            if replica {
                values.push(sample.replica_lag_s.unwrap_or(0).to_string());
            }
            match args.format {
                Format::Table => {
                    let row: Vec<String> = values
                        .iter()
                        .zip(&widths)
                        .map(|(v, w)| format!("{v:>w$}"))
                        .collect();
                    writeln!(out, "{}", row.join(" "))?;
                }
                Format::Csv => writeln!(out, "{}", values.join(","))?,
                Format::Json => {
                    out.write_all(&sample.to_json())?;
                    writeln!(out)?;
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

/// `run --figures`: the scenario's whole run watched as the advisor watches a
/// playbook's, then its figures.
fn print_figures(scenario: Scenario, profile: Profile) -> Result<(), CliError> {
    let seconds = scenario.seconds;
    let mut run = ddlscope_engine::advisor::PlaybookRun::new(scenario, profile)?;
    for _ in 0..seconds {
        run.second();
    }
    let text = serde_json::to_string_pretty(&run.figures()).map_err(|e| e.to_string())?;
    writeln!(io::stdout().lock(), "{text}")?;
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
        EventKind::ToolStatus {
            tool,
            message,
            error,
        } => Some(if *error {
            format!("{tool}: ERROR {message}")
        } else {
            format!("{tool}: {message}")
        }),
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
