//! `cargo xtask conformance`: every session script in `assets/scripts/` against a real
//! MariaDB 10.11 and against the simulator's `mariadb-10.11` profile, statement by
//! statement.
//!
//! ```text
//!  apt-get install mariadb-server (if missing, as root)
//!  mariadb-install-db → mariadbd on a temporary datadir and socket (no TCP, no grants)
//!  for each script:
//!     real:  CREATE the tables (sysbench shape, rows from seq_1_to_N);
//!            one `mariadb --batch --force --unbuffered` child per session, stdin piped;
//!            each statement written at its `at` time, followed by a marker SELECT whose
//!            output timestamps the statement's end; errors come back on stderr as
//!            "ERROR 1205 (HY000) at line L" and L names the statement
//!     sim:   ddlscope script FILE --profile mariadb-10.11 --format tsv
//!     compare: outcome (ok / error / still waiting), error code, blocked or not
//!              (took longer than BLOCKED_MS), and the order of completion
//!     again:   a script with an unexplained difference runs on the real server up
//!              to REAL_RUNS times; a difference counts when every run shows it (the
//!              server and its clients run at nice -10 when root: a busy machine's
//!              timings otherwise cross the blocked line)
//!  stop the server we started (and only it); remove its datadir
//! ```
//!
//! A script may expect a difference: a comment line `# mariadb: <reason>` right before
//! an `at` line says why that statement differs on MariaDB (the script follows
//! MySQL's server source there); such differences are listed with the reason and do
//! not fail the run. Any other difference fails it.

use crate::mariadb::{ensure_mariadb, Server};
use crate::util::{note, say, workspace_root, Result};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A statement that takes longer than this waited for something.
const BLOCKED_MS: u64 = 300;
/// Two statements that took within this much of each other on either side are not
/// told apart by the "blocked" line (301 ms real against 300 ms simulated, after a
/// one-second timeout both sides time alike).
const BLOCKED_SLACK_MS: u64 = 25;
/// Two completions closer than this are not ordered (timing noise on a real server).
const ORDER_SLACK_MS: u64 = 100;
/// How many times at most a script with an unexplained difference runs on the real
/// server.
const REAL_RUNS: usize = 3;

/// One `at` line.
#[derive(Clone, Debug)]
pub(crate) struct Step {
    pub(crate) at_ms: u64,
    pub(crate) session: String,
    pub(crate) sql: String,
    line: usize,
    /// `# mariadb: reason` before it.
    expected_difference: Option<String>,
}

/// What the xtask needs of a script: tables, setup statements, steps, duration.
#[derive(Clone, Debug, Default)]
pub(crate) struct Script {
    tables: Vec<(String, u64, u32)>,
    setup: Vec<String>,
    /// `session` lines: sessions connected before their first statement, in order.
    declared: Vec<String>,
    /// `startup NAME=VALUE` lines: the server starts with `--NAME=VALUE`.
    startup: Vec<String>,
    pub(crate) steps: Vec<Step>,
    pub(crate) run_ms: u64,
}

fn parse_ms(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, scale) = if let Some(n) = s.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1000.0)
    } else {
        return None;
    };
    let v: f64 = num.parse().ok()?;
    (v >= 0.0).then(|| (v * scale).round() as u64)
}

/// The subset of the session-script format (docs/session-scripts.md) a real server
/// needs; the engine's parser is the reference and has checked the file already.
pub(crate) fn parse_script(text: &str) -> Script {
    let mut s = Script::default();
    let mut reason: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(r) = line.strip_prefix("# mariadb:") {
            reason = Some(r.trim().to_owned());
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match word.to_ascii_lowercase().as_str() {
            "table" => {
                let mut parts = rest.split_whitespace();
                let name = parts.next().unwrap_or_default().to_owned();
                let (mut rows, mut parts_n) = (0, 0);
                for p in parts {
                    match p.split_once('=') {
                        Some(("rows", v)) => rows = v.replace('_', "").parse().unwrap_or(0),
                        Some(("partitions", v)) => parts_n = v.parse().unwrap_or(0),
                        _ => {}
                    }
                }
                s.tables.push((name, rows, parts_n));
            }
            "create" => s.setup.push(line.to_owned()),
            "startup" => s
                .startup
                .push(format!("--{}", rest.trim().replace('_', "-"))),
            "session" => s
                .declared
                .extend(rest.split_whitespace().map(str::to_owned)),
            "at" => {
                let Some((time, rest)) = rest.split_once(char::is_whitespace) else {
                    continue;
                };
                let Some((session, sql)) = rest.split_once(':') else {
                    continue;
                };
                s.steps.push(Step {
                    at_ms: parse_ms(time).unwrap_or(0),
                    session: session.trim().to_owned(),
                    sql: sql.trim().trim_end_matches(';').to_owned(),
                    line: i + 1,
                    expected_difference: reason.take(),
                });
            }
            "run" => s.run_ms = parse_ms(rest).unwrap_or(0),
            _ => {}
        }
    }
    if s.run_ms == 0 {
        s.run_ms = s.steps.last().map_or(0, |st| st.at_ms) + 5000;
    }
    s
}

/// One statement's fate, on either side.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Fate {
    finished_ms: Option<u64>,
    /// `None`: ok or still waiting.
    error: Option<u16>,
}

impl Fate {
    fn outcome(&self) -> &'static str {
        match (self.finished_ms, self.error) {
            (None, _) => "waiting",
            (Some(_), None) => "ok",
            (Some(_), Some(_)) => "error",
        }
    }
}

/// The sysbench-shaped table of a `table` line, as the simulator builds it.
fn create_table_sql(name: &str, rows: u64, partitions: u32) -> String {
    let mut sql = format!(
        "CREATE TABLE {name} (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, \
         c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', \
         PRIMARY KEY (id), KEY k_1 (k)) ENGINE=InnoDB"
    );
    if partitions > 0 {
        let per = rows.div_ceil(u64::from(partitions));
        let parts: Vec<String> = (0..partitions)
            .map(|p| {
                if p + 1 == partitions {
                    format!("PARTITION p{p} VALUES LESS THAN MAXVALUE")
                } else {
                    format!(
                        "PARTITION p{p} VALUES LESS THAN ({})",
                        per * u64::from(p + 1) + 1
                    )
                }
            })
            .collect();
        sql.push_str(&format!(" PARTITION BY RANGE (id) ({})", parts.join(", ")));
    }
    // k = id: a search on k finds one row, as the simulator assumes.
    sql.push_str(&format!(
        "; INSERT INTO {name} (id, k, c, pad) SELECT seq, seq, 'c', 'pad' FROM seq_1_to_{rows}"
    ));
    sql
}

/// A session's client process: one `mariadb` connection. A killed connection's client
/// is replaced by a new process once a statement has met the closed connection (2006),
/// as the interactive client reconnects.
struct Client {
    child: Child,
    stdin: ChildStdin,
    /// Which process of this session it is (0, then 1 after a reconnect, ...).
    generation: u32,
    /// Lines written so far (the client counts input lines for "at line N").
    lines: usize,
    /// Statement index (into the script's steps) by input line.
    line_to_step: Vec<(usize, usize)>,
    /// `CONNECTION_ID()`, once the first line's answer arrives.
    connection_id: Option<u64>,
    /// A statement got 2006: the next one goes to a new connection.
    lost: bool,
    /// The process that connection will be, started as soon as the 2006 arrived
    /// (starting a client takes hundreds of ms on a loaded machine, which the
    /// reconnect of a real client does not), taken over at the session's next
    /// statement; `{NAME}` is its connection's id from the 2006 on (the `mysql`
    /// client reconnects as it reports the 2006).
    spare: Option<Box<Client>>,
}

/// An event read from a client: session index, its process generation, arrival time,
/// and a stdout (`Ok`) or stderr (`Err`) line.
type Arrival = (usize, u32, Instant, std::result::Result<String, String>);

/// The marker line that reports a new connection's id.
const ID_MARKER: &str = "ddlscope-connection-id";

/// Starts session `si`'s client process number `generation`; its output lines go to
/// `tx`, timed from `t0`.
fn spawn_client(
    server: &Server,
    si: usize,
    generation: u32,
    tx: &mpsc::Sender<Arrival>,
) -> Result<Client> {
    let mut child = server
        .client()
        .args(["--force", "--unbuffered", "--database=test"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("mariadb client: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped");
    let out = child.stdout.take().expect("piped");
    let err = child.stderr.take().expect("piped");
    for (pipe, is_err) in [
        (Box::new(out) as Box<dyn std::io::Read + Send>, false),
        (Box::new(err), true),
    ] {
        let tx = tx.clone();
        thread::spawn(move || {
            for line in BufReader::new(pipe).lines() {
                let Ok(line) = line else { break };
                #[allow(clippy::disallowed_methods, reason = "xtask times a real server")]
                let at = Instant::now();
                let item = if is_err { Err(line) } else { Ok(line) };
                if tx.send((si, generation, at, item)).is_err() {
                    break;
                }
            }
        });
    }
    stdin
        .write_all(format!("SELECT '{ID_MARKER}', CONNECTION_ID();\n").as_bytes())
        .and_then(|_| stdin.flush())
        .map_err(|e| format!("mariadb client: {e}"))?;
    Ok(Client {
        child,
        stdin,
        generation,
        lines: 1,
        line_to_step: Vec::new(),
        connection_id: None,
        lost: false,
        spare: None,
    })
}

/// Starts the spare process of every session whose connection was lost.
fn prepare_reconnects(
    server: &Server,
    clients: &mut [Client],
    tx: &mpsc::Sender<Arrival>,
) -> Result {
    for (si, c) in clients.iter_mut().enumerate() {
        if c.lost && c.spare.is_none() {
            c.spare = Some(Box::new(spawn_client(server, si, c.generation + 1, tx)?));
        }
    }
    Ok(())
}

/// Reads one arrival into the statements' fates and the clients' state (times in ms
/// from `t0`).
fn collect(
    fates: &mut [Fate],
    clients: &mut [Client],
    t0: Instant,
    (si, generation, at, item): Arrival,
) {
    let ms = at.saturating_duration_since(t0).as_millis() as u64;
    let c = &mut clients[si];
    if c.generation != generation {
        // The spare's connection id; else the old process of a reconnected session
        // (only 2006s for marker lines).
        if let (Some(spare), Ok(line)) = (c.spare.as_deref_mut(), &item) {
            if spare.generation == generation {
                if let Some(id) = line.strip_prefix(ID_MARKER) {
                    spare.connection_id = id.trim().parse().ok();
                }
            }
        }
        return;
    }
    match item {
        Ok(line) => {
            if let Some(id) = line.strip_prefix(ID_MARKER) {
                c.connection_id = id.trim().parse().ok();
            } else if let Some(idx) = line.strip_prefix("ddlscope-done-") {
                if let Ok(i) = idx.trim().parse::<usize>() {
                    if fates[i].finished_ms.is_none() {
                        fates[i].finished_ms = Some(ms);
                    }
                }
            }
        }
        Err(line) => {
            // "ERROR 1205 (HY000) at line 3: Lock wait timeout exceeded; ..."
            let code = line
                .strip_prefix("ERROR ")
                .and_then(|r| r.split_whitespace().next())
                .and_then(|c| c.parse::<u16>().ok());
            let at = line
                .split(" at line ")
                .nth(1)
                .and_then(|r| r.split(':').next())
                .and_then(|n| n.trim().parse::<usize>().ok());
            if let (Some(code), Some(at)) = (code, at) {
                if let Some(&(_, step)) = c.line_to_step.iter().find(|(l, _)| *l == at) {
                    fates[step].error = Some(code);
                    if fates[step].finished_ms.is_none() {
                        fates[step].finished_ms = Some(ms);
                    }
                    if code == CR_SERVER_GONE_ERROR {
                        c.lost = true;
                    }
                }
            }
        }
    }
}

/// The client's "server has gone away": the statement never reached a server.
const CR_SERVER_GONE_ERROR: u16 = 2006;

/// `sql` with each `{SESSION}` replaced by that session's connection id: once a
/// statement of it got 2006, the new connection's (the client reconnects there, as
/// the simulator does), else the current one's.
fn with_connection_ids(sql: &str, names: &[String], clients: &[Client]) -> String {
    let mut out = sql.to_owned();
    for (i, n) in names.iter().enumerate() {
        let c = &clients[i];
        let reconnected = c
            .spare
            .as_ref()
            .filter(|_| c.lost)
            .and_then(|s| s.connection_id);
        if let Some(id) = reconnected.or(c.connection_id) {
            out = out.replace(&format!("{{{n}}}"), &id.to_string());
        }
    }
    out
}

/// Runs the script on the real server.
fn run_real(server: &Server, script: &Script) -> Result<Vec<Fate>> {
    setup_real(server, script)?;
    // As the engine numbers them: the declared sessions, then the others in order.
    let mut names: Vec<String> = script.declared.clone();
    for s in &script.steps {
        if !names.contains(&s.session) {
            names.push(s.session.clone());
        }
    }
    let (tx, rx) = mpsc::channel::<Arrival>();
    let mut clients = Vec::new();
    for si in 0..names.len() {
        clients.push(spawn_client(server, si, 0, &tx)?);
    }
    let mut fates = vec![
        Fate {
            finished_ms: None,
            error: None,
        };
        script.steps.len()
    ];
    // Time zero once every client is connected (a script of 50 sessions takes a
    // second to start them on two cores).
    #[allow(clippy::disallowed_methods, reason = "xtask paces a real server")]
    let started = Instant::now();
    while clients.iter().any(|c| c.connection_id.is_none())
        && started.elapsed() < Duration::from_secs(20)
    {
        if let Ok(a) = rx.recv_timeout(Duration::from_millis(20)) {
            collect(&mut fates, &mut clients, started, a);
        }
    }
    #[allow(clippy::disallowed_methods, reason = "xtask paces a real server")]
    let t0 = Instant::now();
    let mut run = RealRun {
        server,
        names: &names,
        clients,
        fates,
        tx,
        rx,
        t0,
    };
    for (i, step) in script.steps.iter().enumerate() {
        run.wait_until(Duration::from_millis(step.at_ms))?;
        run.send(i, step)?;
    }
    let RealRun {
        mut clients,
        mut fates,
        tx,
        rx,
        ..
    } = run;
    drop(tx);
    let end = Duration::from_millis(script.run_ms);
    loop {
        let now = t0.elapsed();
        if now >= end {
            break;
        }
        match rx.recv_timeout(end - now) {
            Ok(a) => collect(&mut fates, &mut clients, t0, a),
            Err(mpsc::RecvTimeoutError::Timeout) => break,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                thread::sleep(end - now);
                break;
            }
        }
    }
    // Anything that arrived exactly at the end.
    while let Ok(a) = rx.try_recv() {
        if a.2.saturating_duration_since(t0) <= end {
            collect(&mut fates, &mut clients, t0, a);
        }
    }
    for mut c in clients {
        let spare = c.spare.take().map(|s| *s);
        for mut process in std::iter::once(c).chain(spare) {
            let _ = process.child.kill();
            let _ = process.child.wait();
        }
    }
    Ok(fates)
}

/// A fresh `test` database with the script's tables and setup statements.
fn setup_real(server: &Server, script: &Script) -> Result {
    server.sql("DROP DATABASE IF EXISTS test; CREATE DATABASE test")?;
    let mut setup: Vec<String> = script
        .tables
        .iter()
        .map(|(n, r, p)| create_table_sql(n, *r, *p))
        .collect();
    setup.extend(script.setup.iter().cloned());
    for sql in setup {
        server
            .sql(&format!("USE test; {sql}"))
            .map_err(|e| format!("setup failed: {sql}: {e}"))?;
    }
    Ok(())
}

/// A script's run on the real server while its steps are sent: the clients, what
/// became of each step, and the channel their answers arrive on.
struct RealRun<'a> {
    server: &'a Server,
    names: &'a [String],
    clients: Vec<Client>,
    fates: Vec<Fate>,
    tx: mpsc::Sender<Arrival>,
    rx: mpsc::Receiver<Arrival>,
    t0: Instant,
}

impl RealRun<'_> {
    /// Collects answers until `due` after time zero, reconnecting lost clients.
    fn wait_until(&mut self, due: Duration) -> Result {
        loop {
            let now = self.t0.elapsed();
            if now >= due {
                return Ok(());
            }
            if let Ok(a) = self.rx.recv_timeout(due - now) {
                collect(&mut self.fates, &mut self.clients, self.t0, a);
                prepare_reconnects(self.server, &mut self.clients, &self.tx)?;
            }
        }
    }

    /// Sends step `i` on its session's client (a new connection first where the
    /// last one was lost, as the interactive client reconnects).
    fn send(&mut self, i: usize, step: &Step) -> Result {
        let si = self
            .names
            .iter()
            .position(|n| *n == step.session)
            .expect("named");
        if self.clients[si].lost {
            let generation = self.clients[si].generation + 1;
            let next = match self.clients[si].spare.take() {
                Some(spare) => *spare,
                None => spawn_client(self.server, si, generation, &self.tx)?,
            };
            let mut old = std::mem::replace(&mut self.clients[si], next);
            let _ = old.child.kill();
            let _ = old.child.wait();
        }
        // A `{s1}` needs s1's connection id: the first line's answer, long arrived.
        let due = Duration::from_millis(step.at_ms);
        while step.sql.contains('{')
            && self.clients.iter().any(|c| c.connection_id.is_none())
            && self.t0.elapsed() < due + Duration::from_secs(2)
        {
            if let Ok(a) = self.rx.recv_timeout(Duration::from_millis(20)) {
                collect(&mut self.fates, &mut self.clients, self.t0, a);
            }
        }
        let sql = with_connection_ids(&step.sql.replace('\n', " "), self.names, &self.clients);
        let c = &mut self.clients[si];
        c.lines += 1;
        c.line_to_step.push((c.lines, i));
        c.lines += 1;
        let text = format!("{sql};\nSELECT 'ddlscope-done-{i}';\n");
        if c.stdin
            .write_all(text.as_bytes())
            .and_then(|_| c.stdin.flush())
            .is_err()
        {
            // The client process is gone: the statement never runs.
            self.fates[i].error = Some(CR_SERVER_GONE_ERROR);
            self.fates[i].finished_ms = Some(step.at_ms);
            c.lost = true;
        }
        Ok(())
    }
}

/// Runs the script in the simulator.
fn run_sim(ddlscope: &Path, file: &Path) -> Result<Vec<Fate>> {
    let out = Command::new(ddlscope)
        .arg("script")
        .arg(file)
        .args(["--profile", "mariadb-10.11", "--format", "tsv"])
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Fate {
                finished_ms: f.get(2).and_then(|v| v.parse().ok()),
                error: f.get(4).and_then(|v| v.parse().ok()),
            }
        })
        .collect())
}

/// The differences between the two runs, statement by statement.
fn compare(script: &Script, real: &[Fate], sim: &[Fate]) -> Vec<(usize, String)> {
    let mut diffs = Vec::new();
    let blocked = |f: &Fate, at: u64| match f.finished_ms {
        None => true,
        Some(t) => t.saturating_sub(at) > BLOCKED_MS,
    };
    for (i, step) in script.steps.iter().enumerate() {
        let (r, s) = (&real[i], &sim[i]);
        if r.outcome() != s.outcome() {
            diffs.push((
                i,
                format!("outcome: real {}, simulated {}", r.outcome(), s.outcome()),
            ));
        } else if r.error != s.error {
            diffs.push((
                i,
                format!("error code: real {:?}, simulated {:?}", r.error, s.error),
            ));
        } else if blocked(r, step.at_ms) != blocked(s, step.at_ms)
            && !near_each_other(r, s, step.at_ms)
        {
            diffs.push((
                i,
                format!(
                    "blocked: real {} ({:?} ms), simulated {} ({:?} ms)",
                    blocked(r, step.at_ms),
                    r.finished_ms.map(|t| t.saturating_sub(step.at_ms)),
                    blocked(s, step.at_ms),
                    s.finished_ms.map(|t| t.saturating_sub(step.at_ms))
                ),
            ));
        }
    }
    // Order of completion: pairs the real server separates clearly, within a group.
    for i in 0..script.steps.len() {
        for j in i + 1..script.steps.len() {
            let (gi, gj) = (
                group(&script.steps[i].session),
                group(&script.steps[j].session),
            );
            if gi.is_some() && gj.is_some() && gi != gj {
                continue;
            }
            let (Some(ri), Some(rj), Some(si), Some(sj)) = (
                real[i].finished_ms,
                real[j].finished_ms,
                sim[i].finished_ms,
                sim[j].finished_ms,
            ) else {
                continue;
            };
            if ri.abs_diff(rj) > ORDER_SLACK_MS && (ri < rj) != (si < sj) && si != sj {
                diffs.push((
                    j,
                    format!(
                        "order: real finishes line {} {} line {}, simulated the other way",
                        script.steps[i].line,
                        if ri < rj { "before" } else { "after" },
                        script.steps[j].line
                    ),
                ));
            }
        }
    }
    diffs
}

/// Whether both runs of a statement finished within [`BLOCKED_SLACK_MS`] of each
/// other (measured from when it was sent).
fn near_each_other(real: &Fate, sim: &Fate, at: u64) -> bool {
    match (real.finished_ms, sim.finished_ms) {
        (Some(r), Some(s)) => {
            r.saturating_sub(at).abs_diff(s.saturating_sub(at)) <= BLOCKED_SLACK_MS
        }
        _ => false,
    }
}

/// Which scripts a conformance run takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scripts {
    /// `assets/scripts/` only: the hand-written scripts, a few minutes
    /// (`cargo xtask test`).
    Written,
    /// Those and the generated matrix (`xtask/src/matrix.rs`, about ten minutes):
    /// `cargo xtask conformance`.
    WithMatrix,
    /// `count` random walks' scripts from `seed` (`xtask/src/walks.rs`), alone:
    /// `cargo xtask conformance --random N [--seed S]`.
    Random { count: usize, seed: u64 },
}

/// The conformance scripts, sorted: `assets/scripts/`, then (with the matrix) the
/// matrix's, written under `target/conformance-matrix/`; or the random walks', under
/// `target/conformance-random/`.
fn scripts(which: Scripts) -> Result<Vec<PathBuf>> {
    if let Scripts::Random { count, seed } = which {
        return write_scripts("conformance-random", crate::walks::scripts(count, seed));
    }
    let dir = workspace_root().join("assets/scripts");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "script"))
        .collect();
    v.sort();
    if which == Scripts::Written {
        return Ok(v);
    }
    v.extend(write_scripts(
        "conformance-matrix",
        crate::matrix::scripts(),
    )?);
    Ok(v)
}

/// Generated scripts written under `target/<dir>/` (emptied first), in order.
fn write_scripts(dir: &str, scripts: Vec<(String, String)>) -> Result<Vec<PathBuf>> {
    let out = crate::util::target_dir().join(dir);
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut v = Vec::new();
    for (name, text) in scripts {
        let path = out.join(format!("{name}.script"));
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        v.push(path);
    }
    Ok(v)
}

/// Whether two differences are the same one: the same statement, and the same kind
/// (outcome, error code, blocked, order) against the same other line.
fn same_difference(a: &(usize, String), b: &(usize, String)) -> bool {
    let kind = |d: &str| -> String {
        match d.split_once(':') {
            Some(("order", _)) => d.to_owned(),
            Some((k, _)) => k.to_owned(),
            None => d.to_owned(),
        }
    };
    a.0 == b.0 && kind(&a.1) == kind(&b.1)
}

/// A session's group: `c12` of `c12_r` (the matrix's cases), `None` without `_`.
fn group(session: &str) -> Option<&str> {
    session.split_once('_').map(|(g, _)| g)
}

/// How many private servers run scripts at once. A script mostly waits for its
/// statements' `at` times, so three lanes take about a third of one lane's time
/// on 2 cores; a difference that is only a busy machine's timing does not repeat
/// when the script runs again (REAL_RUNS).
const LANES: usize = 3;

/// One script's results, printed once every lane is done so the log reads in order.
struct ScriptResult {
    statements: usize,
    matched: usize,
    unexpected: usize,
    noise: usize,
    /// One line per statement: `=` or `≠`, real and simulated outcomes.
    lines: Vec<String>,
    /// Each difference, expected (with its reason) or not.
    report: Vec<String>,
}

/// Runs every script both ways; `Ok(false)` when skipped (no server available).
/// `only`: run just the scripts whose file name contains it.
pub fn conformance(which: Scripts, only: Option<&str>) -> Result<bool> {
    if !ensure_mariadb()? {
        println!("conformance: SKIPPED (mariadb-server could not be installed)");
        return Ok(false);
    }
    say(
        "building the ddlscope CLI (the test profile, as the posters do: after the native tests, a relink)",
        "the simulated side runs each script through `ddlscope script`",
    );
    // `--workspace --bins`, not `-p ddlscope`: features unify as in `cargo test
    // --workspace`, so its dependencies are built already (with `-p`, 84 s more of
    // a fresh machine's 2 cores, beside the wasm build).
    crate::util::run(Command::new(crate::util::host_cargo()).args([
        "build",
        "--profile",
        "test",
        "--workspace",
        "--bins",
        "-j",
        crate::toolchain::JOBS,
    ]))?;
    let ddlscope = crate::util::target_dir().join("debug/ddlscope");
    let files: Vec<PathBuf> = scripts(which)?
        .into_iter()
        .filter(|f| only.is_none_or(|o| script_name(f).contains(o)))
        .collect();
    let results = run_lanes(&ddlscope, &files)?;
    print_summary(&files, &results)
}

/// `assets/scripts/kill.script` → `kill`.
fn script_name(file: &Path) -> String {
    file.file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// The scripts shared out over LANES private servers, each lane taking the next
/// script when it is done; the results in the scripts' order.
fn run_lanes(ddlscope: &Path, files: &[PathBuf]) -> Result<Vec<Result<ScriptResult>>> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<Result<ScriptResult>>>> =
        files.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let lane = || -> Result {
        let mut server: Option<Server> = None;
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(file) = files.get(i) else {
                return Ok(());
            };
            let result = run_script(&mut server, ddlscope, file);
            let failed = result.is_err();
            *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
            if failed {
                return Ok(());
            }
        }
    };
    thread::scope(|scope| {
        let lanes: Vec<_> = (0..LANES.min(files.len()))
            .map(|_| scope.spawn(lane))
            .collect();
        for l in lanes {
            l.join()
                .map_err(|_| "a conformance lane panicked".to_string())??;
        }
        Ok::<(), String>(())
    })?;
    Ok(slots
        .into_iter()
        .zip(files)
        .map(|(slot, file)| {
            slot.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .unwrap_or_else(|| {
                    Err(format!(
                        "{}: not run (another script's lane stopped on an error)",
                        script_name(file)
                    ))
                })
        })
        .collect())
}

/// One script on this lane's server (started, or restarted with the script's
/// `startup` options, as needed) and on the simulator, its differences confirmed by
/// running it again on the real server.
fn run_script(server: &mut Option<Server>, ddlscope: &Path, file: &Path) -> Result<ScriptResult> {
    let name = script_name(file);
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let script = parse_script(&text);
    if server.as_ref().is_none_or(|s| s.options != script.startup) {
        if server.is_some() {
            // A script's `startup` lines need a server started with them.
            say(
                format!("restarting mariadbd with {:?}", script.startup),
                "startup variables are read-only while the server runs",
            );
        }
        *server = None;
        *server = Some(Server::start(&script.startup)?);
    }
    let server = server.as_ref().ok_or("no server")?;
    say(format!("script {name}"), "real MariaDB, then the simulator");
    let mut real = run_real(server, &script)?;
    let sim = run_sim(ddlscope, file)?;
    if sim.len() != real.len() {
        return Err(format!(
            "{name}: the simulator reported {} statements, the script has {}",
            sim.len(),
            real.len()
        ));
    }
    let mut diffs = compare(&script, &real, &sim);
    let mut noise = 0;
    // A real server's timings vary from run to run (a machine busy with builds, a
    // shared disk's fsyncs); the simulator's do not. A difference counts when every
    // one of up to REAL_RUNS runs shows it.
    for _ in 1..REAL_RUNS {
        let unexplained = diffs
            .iter()
            .any(|(i, _)| script.steps[*i].expected_difference.is_none());
        if !unexplained {
            break;
        }
        say(
            format!("script {name} again"),
            "a difference must show in every run to count",
        );
        let again = run_real(server, &script)?;
        let seen = compare(&script, &again, &sim);
        let before = diffs.len();
        diffs.retain(|d| seen.iter().any(|t| same_difference(d, t)));
        noise += before - diffs.len();
        real = again;
    }
    let mut differing: Vec<usize> = diffs.iter().map(|(i, _)| *i).collect();
    differing.dedup();
    let lines = script
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| statement_line(s, differing.contains(&i), &real[i], &sim[i]))
        .collect();
    let mut report = Vec::new();
    let mut unexpected = 0;
    for (i, d) in diffs {
        let step = &script.steps[i];
        match &step.expected_difference {
            Some(reason) => report.push(format!(
                "{name} line {}: {d}\n      expected: {reason}",
                step.line
            )),
            None => {
                unexpected += 1;
                report.push(format!("{name} line {}: {d}\n      UNEXPECTED", step.line));
            }
        }
    }
    Ok(ScriptResult {
        statements: script.steps.len(),
        matched: script.steps.len() - differing.len(),
        unexpected,
        noise,
        lines,
        report,
    })
}

/// `= line  12   1500 ms s2: DROP TABLE t1    real ok   @1502  sim ok   @1500`.
fn statement_line(s: &Step, differs: bool, real: &Fate, sim: &Fate) -> String {
    let fate = |f: &Fate| {
        f.error.map_or(String::new(), |e| e.to_string())
            + &f.finished_ms.map_or(String::new(), |at| format!("@{at}"))
    };
    format!(
        "{} line {:>3} {:>6} ms {}: {:<60} real {:<7} {:>6}  sim {:<7} {:>6}",
        if differs { "≠" } else { "=" },
        s.line,
        s.at_ms,
        s.session,
        s.sql.chars().take(60).collect::<String>(),
        real.outcome(),
        fate(real),
        sim.outcome(),
        fate(sim),
    )
}

/// Each script's statements, then the totals and the differences; an error when a
/// script could not run or a difference was unexpected.
fn print_summary(files: &[PathBuf], results: &[Result<ScriptResult>]) -> Result<bool> {
    let (mut matched, mut statements, mut unexpected, mut noise) = (0, 0, 0, 0);
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (file, result) in files.iter().zip(results) {
        match result {
            Ok(r) => {
                println!("==> script {}", script_name(file));
                for line in &r.lines {
                    note(line);
                }
                matched += r.matched;
                statements += r.statements;
                unexpected += r.unexpected;
                noise += r.noise;
                report.extend(r.report.iter().cloned());
            }
            Err(e) => failures.push(e.clone()),
        }
    }
    println!();
    println!("conformance: {matched} of {statements} statements match the real MariaDB");
    if noise > 0 {
        println!(
            "  ({noise} difference(s) did not repeat when the script ran again: timing noise)"
        );
    }
    for r in &report {
        println!("  {r}");
    }
    if !failures.is_empty() {
        return Err(failures.join("\n"));
    }
    if unexpected > 0 {
        Err(format!("{unexpected} unexpected difference(s)"))
    } else {
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_script_format_and_expected_differences() {
        let s = parse_script(
            "# x\ntable t rows=100 partitions=2\nat 0ms s1: BEGIN\n# mariadb: differs because\nat 1.5s s2: SELECT 1;\nrun 3s\n",
        );
        assert_eq!(s.tables, vec![("t".to_owned(), 100, 2)]);
        assert_eq!(s.steps.len(), 2);
        assert_eq!(s.steps[1].at_ms, 1500);
        assert_eq!(s.steps[1].sql, "SELECT 1");
        assert_eq!(
            s.steps[1].expected_difference.as_deref(),
            Some("differs because")
        );
        assert_eq!(s.steps[0].expected_difference, None);
        assert_eq!(s.run_ms, 3000);
        assert!(create_table_sql("t", 100, 2).contains("PARTITION p1 VALUES LESS THAN MAXVALUE"));
    }

    #[test]
    fn a_difference_repeats_when_its_statement_and_kind_do() {
        let d = |i, m: &str| (i, m.to_owned());
        let first = d(
            3,
            "blocked: real true (Some(376) ms), simulated false (Some(19) ms)",
        );
        let again = d(
            3,
            "blocked: real true (Some(512) ms), simulated false (Some(19) ms)",
        );
        assert!(same_difference(&first, &again));
        assert!(!same_difference(&first, &d(4, &again.1)));
        assert!(!same_difference(
            &first,
            &d(3, "outcome: real ok, simulated error")
        ));
        let order = d(
            5,
            "order: real finishes line 3 before line 5, simulated the other way",
        );
        assert!(same_difference(&order, &order.clone()));
        assert!(!same_difference(
            &order,
            &d(
                5,
                "order: real finishes line 4 before line 5, simulated the other way"
            )
        ));
    }

    #[test]
    fn a_wait_that_ends_differently_is_a_difference() {
        let s = parse_script("at 0ms s1: SELECT 1\nat 100ms s2: SELECT 2\n");
        let real = vec![
            Fate {
                finished_ms: Some(5),
                error: None,
            },
            Fate {
                finished_ms: None,
                error: None,
            },
        ];
        let sim = vec![
            Fate {
                finished_ms: Some(5),
                error: None,
            },
            Fate {
                finished_ms: Some(120),
                error: None,
            },
        ];
        let d = compare(&s, &real, &sim);
        assert_eq!(d.len(), 1);
        assert!(d[0].1.contains("outcome"), "{d:?}");
        assert!(compare(&s, &real, &real).is_empty());
    }

    #[test]
    fn the_blocked_line_does_not_split_two_runs_a_millisecond_apart() {
        let s = parse_script("at 0ms s1: SELECT 1\n");
        let fate = |ms| Fate {
            finished_ms: Some(ms),
            error: None,
        };
        assert!(compare(&s, &[fate(301)], &[fate(300)]).is_empty());
        let d = compare(&s, &[fate(420)], &[fate(20)]);
        assert!(d[0].1.starts_with("blocked"), "{d:?}");
    }
}
