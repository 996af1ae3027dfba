//! Session scripts: timed statements from several sessions, in one plain-text file.
//!
//! ```text
//! # I4: a long transaction holds SHARED_WRITE; CREATE INDEX waits for EXCLUSIVE.
//! profile mysql-8.0.23
//! table t rows=10000
//! table tp rows=10000 partitions=3
//! CREATE TABLE log (id INT PRIMARY KEY, msg VARCHAR(100))
//! at 0ms   s1: BEGIN
//! at 100ms s1: UPDATE t SET k=1
//! at 1s    s2: CREATE INDEX idx ON t (k, c)
//! at 1500ms s3: SELECT * FROM t WHERE id = 5
//! at 3s    s1: COMMIT
//! run 5s
//! ```
//!
//! Setup lines come first: `profile NAME`, `table NAME rows=N [partitions=P]` (a
//! sysbench-shaped table: id INT primary key, k INT, c CHAR(120), pad CHAR(60),
//! KEY k_1 (k); with `partitions=P`, RANGE-partitioned on id into P equal parts named
//! p0..), `pool SIZE` (innodb_buffer_pool_size, default 128M), `workload KIND
//! threads=N` (a background sysbench workload; by default a script runs none, so what
//! the sessions see is only what they do to each other), and CREATE TABLE statements
//! (run before time zero). Then `at TIME SESSION: STATEMENT` lines (TIME as `250ms`,
//! `2s`, `1.5s`; absolute from the start; non-decreasing) and one optional `run
//! DURATION`: the run lasts that long from time zero (default: 5 s after the last
//! statement is issued). `#` starts a comment line. Sessions are named freely (`s1`,
//! `alice`) and get processlist ids in order of first appearance; a setup line
//! `session NAME...` names sessions ahead of their first statement (first, in its
//! order), so that a connection that never sends one can still be `{NAME}` in
//! another's statement (`KILL {s2}`). Every error names its line.
//!
//! The same file runs against a real server (`cargo xtask conformance`), one client
//! connection per session, which is why the format has nothing simulator-specific in
//! its statements.

use crate::mdl::MdlContextId;
use crate::profile::Profile;
use crate::resultset::ResultSet;
use crate::scenario::Scenario;
use crate::sim::{Sim, StatementOutcome};
use crate::time::Tick;
use crate::workload::WorkloadKind;
use serde::de::value::{Error as DeError, StrDeserializer};
use serde::{Deserialize, Serialize};

/// The server startup variables a `startup` line may set, each with the scenario's
/// `[innodb]` field it sets and whether that field is a size (the conformance run
/// starts its server with `--NAME=VALUE`).
pub const STARTUP_VARIABLES: &[(&str, &str, bool)] = &[
    ("innodb_autoinc_lock_mode", "autoinc_lock_mode", false),
    (
        "innodb_online_alter_log_max_size",
        "online_alter_log_max_size",
        true,
    ),
    ("innodb_sort_buffer_size", "sort_buffer_size", true),
];

/// One `at` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptStep {
    /// When, from time zero.
    pub at: Tick,
    /// The session's name.
    pub session: String,
    /// The statement.
    pub sql: String,
    /// Its line in the file (1-based).
    pub line: u32,
}

/// A `table` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptTable {
    /// Name.
    pub name: String,
    /// Rows.
    pub rows: u64,
    /// RANGE partitions on id (0: none).
    pub partitions: u32,
}

/// A parsed session script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionScript {
    /// `profile` (default `mysql-8.0.23`).
    pub profile: Option<String>,
    /// `pool`, bytes.
    pub pool_bytes: Option<u64>,
    /// `workload KIND threads=N`.
    pub workload: Option<(String, u32)>,
    /// `session` lines: sessions named before their first statement, in order.
    pub declared: Vec<String>,
    /// `startup` lines: server startup variables (a `my.cnf` line each), as
    /// `(name, value)` in order.
    pub startup: Vec<(String, String)>,
    /// `table` lines.
    pub tables: Vec<ScriptTable>,
    /// CREATE TABLE lines, with their line numbers.
    pub setup: Vec<(u32, String)>,
    /// `at` lines, in order.
    pub steps: Vec<ScriptStep>,
    /// `run`.
    pub run: Option<Tick>,
}

impl SessionScript {
    /// Parses a script; errors read `line N: ...`.
    pub fn parse(text: &str) -> Result<SessionScript, String> {
        let mut s = SessionScript {
            profile: None,
            pool_bytes: None,
            workload: None,
            declared: Vec::new(),
            startup: Vec::new(),
            tables: Vec::new(),
            setup: Vec::new(),
            steps: Vec::new(),
            run: None,
        };
        let (mut pool_line, mut workload_line) = (None, None);
        for (i, raw) in text.lines().enumerate() {
            let n = i as u32 + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |m: String| format!("line {n}: {m}");
            let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            let setup_over = !s.steps.is_empty() || s.run.is_some();
            // Each directive's parser gives its errors without the `line N: ` prefix.
            match word.to_ascii_lowercase().as_str() {
                "profile" | "table" | "pool" | "workload" | "create" | "session" | "startup"
                    if setup_over =>
                {
                    return Err(err(format!(
                        "'{word}' is a setup line: put it before the first 'at' line"
                    )));
                }
                "profile" => s.parse_profile(rest).map_err(err)?,
                "pool" => {
                    s.parse_pool(rest).map_err(err)?;
                    pool_line = Some(n);
                }
                "workload" => {
                    s.parse_workload(rest).map_err(err)?;
                    workload_line = Some(n);
                }
                "table" => s.parse_table(rest).map_err(err)?,
                "session" => s.parse_session(rest).map_err(err)?,
                "startup" => s.parse_startup(rest).map_err(err)?,
                "create" => s.parse_create(n, line).map_err(err)?,
                "at" => s.parse_at(n, rest).map_err(err)?,
                "run" => s.parse_run(rest).map_err(err)?,
                _ => {
                    return Err(err(format!(
                        "unknown line '{word}': expected profile, pool, startup, table, workload, session, CREATE TABLE, at, run or # comment"
                    )))
                }
            }
        }
        if s.steps.is_empty() {
            return Err("the script has no 'at' lines".into());
        }
        if let (Some(n), true) = (workload_line, s.tables.is_empty()) {
            return Err(format!(
                "line {n}: a workload needs a table to run on: add a 'table NAME rows=N' line"
            ));
        }
        // The server the setup lines describe, checked as a scenario: what it refuses
        // (a pool too small for the LRU scan) is the pool line's error.
        if let Err(e) = s.scenario() {
            return Err(match pool_line {
                Some(n) if e.starts_with("buffer_pool.size = ") => {
                    format!("line {n}: pool {}", &e["buffer_pool.size = ".len()..])
                }
                _ => e,
            });
        }
        Ok(s)
    }

    /// `profile NAME`: a built-in profile.
    fn parse_profile(&mut self, rest: &str) -> Result<(), String> {
        if rest.is_empty() || rest.contains(char::is_whitespace) {
            return Err("use: profile NAME (e.g. profile mysql-8.0.23)".into());
        }
        if crate::builtin::profile_text(rest).is_none() {
            return Profile::builtin(rest).map(|_| ());
        }
        self.profile = Some(rest.to_owned());
        Ok(())
    }

    /// `pool SIZE`.
    fn parse_pool(&mut self, rest: &str) -> Result<(), String> {
        let size = crate::size::ByteSize::parse(rest).map_err(|e| format!("pool '{rest}': {e}"))?;
        self.pool_bytes = Some(size.bytes());
        Ok(())
    }

    /// `workload KIND threads=N`.
    fn parse_workload(&mut self, rest: &str) -> Result<(), String> {
        let mut parts = rest.split_whitespace();
        let kind = parts
            .next()
            .ok_or_else(|| "use: workload KIND threads=N".to_string())?;
        WorkloadKind::deserialize(StrDeserializer::<DeError>::new(kind))
            .map_err(|e| format!("workload '{kind}': {e}"))?;
        let mut threads = None;
        for p in parts {
            match p.split_once('=') {
                Some(("threads", v)) => {
                    threads = Some(
                        v.parse::<u32>()
                            .map_err(|_| format!("threads '{v}': a whole number"))?,
                    )
                }
                _ => return Err(format!("unknown workload option '{p}'")),
            }
        }
        let threads = threads.ok_or_else(|| "use: workload KIND threads=N".to_string())?;
        self.workload = Some((kind.to_owned(), threads));
        Ok(())
    }

    /// `startup NAME=VALUE`: a server startup variable, one of [`STARTUP_VARIABLES`].
    fn parse_startup(&mut self, rest: &str) -> Result<(), String> {
        let (name, value) = rest
            .split_once('=')
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .ok_or_else(|| {
                "use: startup NAME=VALUE (e.g. startup innodb_autoinc_lock_mode=2)".to_string()
            })?;
        if !STARTUP_VARIABLES.iter().any(|(n, _, _)| *n == name) {
            let known: Vec<&str> = STARTUP_VARIABLES.iter().map(|(n, _, _)| *n).collect();
            return Err(format!(
                "startup variable '{name}': one of {}",
                known.join(", ")
            ));
        }
        if value.is_empty() || !value.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!(
                "startup {name}: value '{value}' (a number or a size such as 64K)"
            ));
        }
        self.startup.retain(|(n, _)| *n != name);
        self.startup.push((name, value));
        Ok(())
    }

    /// `session NAME [NAME ...]`: sessions connected from time zero, named ahead of
    /// their first statement.
    fn parse_session(&mut self, rest: &str) -> Result<(), String> {
        if rest.is_empty() {
            return Err("use: session NAME [NAME ...]".into());
        }
        for name in rest.split_whitespace() {
            check_session_name(name)?;
            if self.declared.iter().any(|d| d == name) {
                return Err(format!("session '{name}' is declared twice"));
            }
            self.declared.push(name.to_owned());
        }
        Ok(())
    }

    /// `table NAME rows=N [partitions=P]`.
    fn parse_table(&mut self, rest: &str) -> Result<(), String> {
        let mut parts = rest.split_whitespace();
        let name = parts
            .next()
            .ok_or_else(|| "use: table NAME rows=N [partitions=P]".to_string())?;
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!("table name '{name}': use letters, digits and _"));
        }
        if self
            .tables
            .iter()
            .any(|t| t.name.eq_ignore_ascii_case(name))
        {
            return Err(format!("table '{name}' is declared twice"));
        }
        let (mut rows, mut partitions) = (None, 0);
        for p in parts {
            match p.split_once('=') {
                Some(("rows", v)) => {
                    rows = Some(
                        v.replace('_', "")
                            .parse::<u64>()
                            .ok()
                            .filter(|r| (1..=1_000_000_000).contains(r))
                            .ok_or_else(|| {
                                format!("rows '{v}': a whole number from 1 to 1000000000")
                            })?,
                    )
                }
                Some(("partitions", v)) => {
                    partitions = v
                        .parse::<u32>()
                        .ok()
                        .filter(|p| (1..=1024).contains(p))
                        .ok_or_else(|| format!("partitions '{v}': from 1 to 1024"))?
                }
                _ => return Err(format!("unknown table option '{p}'")),
            }
        }
        let rows = rows.ok_or_else(|| format!("table {name}: give rows=N"))?;
        self.tables.push(ScriptTable {
            name: name.to_owned(),
            rows,
            partitions,
        });
        Ok(())
    }

    /// A CREATE TABLE setup line, line `n`.
    fn parse_create(&mut self, n: u32, line: &str) -> Result<(), String> {
        crate::sql::parse(line).map_err(|e| e.to_string())?;
        self.setup.push((n, line.to_owned()));
        Ok(())
    }

    /// `at TIME SESSION: STATEMENT`, line `n`.
    fn parse_at(&mut self, n: u32, rest: &str) -> Result<(), String> {
        let (time, rest) = rest
            .split_once(char::is_whitespace)
            .ok_or_else(|| "use: at TIME SESSION: STATEMENT".to_string())?;
        let at = Tick::parse_duration(time)
            .ok_or_else(|| format!("malformed time '{time}' (use 250ms, 2s or 1.5s)"))?;
        let (session, sql) = rest
            .split_once(':')
            .ok_or_else(|| "use: at TIME SESSION: STATEMENT".to_string())?;
        let session = session.trim();
        check_session_name(session)?;
        let sql = sql.trim();
        // `{s1}` stands for session s1's connection id: one named on an earlier line.
        let known = self.sessions();
        let checked = connection_ids(sql, |name| {
            (known.iter().any(|k| k == name) || name == session).then(|| "1".to_owned())
        })?;
        crate::sql::parse(&checked).map_err(|e| e.to_string())?;
        if let Some(last) = self.steps.last() {
            if at < last.at {
                return Err(format!(
                    "time {time} is before the previous line's; keep 'at' lines in time order"
                ));
            }
        }
        self.steps.push(ScriptStep {
            at,
            session: session.to_owned(),
            sql: sql.to_owned(),
            line: n,
        });
        Ok(())
    }

    /// `run DURATION`.
    fn parse_run(&mut self, rest: &str) -> Result<(), String> {
        if self.run.is_some() {
            return Err("only one 'run' line".into());
        }
        let d = Tick::parse_duration(rest)
            .ok_or_else(|| format!("malformed duration '{rest}' (use 5s or 500ms)"))?;
        if let Some(last) = self.steps.last() {
            if d < last.at {
                return Err(format!(
                    "run {rest} ends before the last statement is issued"
                ));
            }
        }
        self.run = Some(d);
        Ok(())
    }

    /// The session names: the `session` lines', then the others in order of first
    /// appearance.
    pub fn sessions(&self) -> Vec<String> {
        let mut v: Vec<String> = self.declared.clone();
        for st in &self.steps {
            if !v.contains(&st.session) {
                v.push(st.session.clone());
            }
        }
        v
    }

    /// How long the run lasts.
    pub fn duration(&self) -> Tick {
        self.run
            .unwrap_or_else(|| self.steps.last().map_or(Tick::ZERO, |s| s.at) + Tick::from_secs(5))
    }

    /// The scenario the script describes.
    pub fn scenario(&self) -> Result<Scenario, String> {
        let pool = crate::size::ByteSize(self.pool_bytes.unwrap_or(128 << 20));
        let mut text = format!(
            "name = \"script\"\ntitle = \"session script\"\nprofile = \"{}\"\n[buffer_pool]\nsize = \"{pool}\"\n",
            self.profile.as_deref().unwrap_or("mysql-8.0.23")
        );
        if self.tables.is_empty() {
            // Before the first section: a key after `[buffer_pool]` would belong to it.
            text.insert_str(0, "tables = []\n");
        }
        for t in &self.tables {
            text.push_str(&format!(
                "[[tables]]\nname = \"{}\"\nrows = {}\n",
                t.name, t.rows
            ));
            if t.partitions > 0 {
                text.push_str(&format!("partitions = {}\n", t.partitions));
            }
        }
        if !self.startup.is_empty() {
            text.push_str("[innodb]\n");
            for (name, value) in &self.startup {
                let (_, field, size) = STARTUP_VARIABLES
                    .iter()
                    .find(|(n, _, _)| n == name)
                    .expect("checked when read");
                let value = if *size {
                    format!("\"{value}\"")
                } else {
                    value.clone()
                };
                text.push_str(&format!("{field} = {value}\n"));
            }
        }
        match &self.workload {
            Some((kind, threads)) => text.push_str(&format!(
                "[workload]\nkind = \"{kind}\"\nthreads = {threads}\n"
            )),
            None => text.push_str("[workload]\nthreads = 0\n"),
        }
        Scenario::from_toml(&text)
    }

    /// Runs the script with `profile` (default: the script's own) and reports every
    /// statement and the metadata locks left at the end.
    pub fn run(&self, profile: Option<&str>) -> Result<ScriptReport, String> {
        let scenario = self.scenario()?;
        let profile_name = profile
            .map(str::to_owned)
            .unwrap_or_else(|| scenario.profile.clone());
        let profile = Profile::builtin(&profile_name)?;
        let mut sim = Sim::new(scenario, profile)?;
        // CREATE TABLE lines first, on a connection of their own; time zero is when
        // they are done.
        let mut t0 = Tick::ZERO;
        if !self.setup.is_empty() {
            let setup = sim.connect();
            for (line, sql) in &self.setup {
                let ids = sim
                    .submit_to(setup, sql)
                    .map_err(|e| format!("line {line}: {e}"))?;
                for _ in 0..10_000 {
                    if ids
                        .iter()
                        .all(|&i| sim.statements()[i as usize].finished_at.is_some())
                    {
                        break;
                    }
                    sim.run_for(Tick::from_ms(1));
                }
                for &i in &ids {
                    if let Some(StatementOutcome::Error {
                        code,
                        sqlstate,
                        message,
                    }) = &sim.statements()[i as usize].outcome
                    {
                        return Err(format!("line {line}: ERROR {code} ({sqlstate}): {message}"));
                    }
                }
            }
            t0 = sim.now();
        }
        let names = self.sessions();
        let mut ids = Vec::new();
        for (i, _) in names.iter().enumerate() {
            ids.push(if i == 0 {
                sim.console_session()
            } else {
                sim.connect()
            });
        }
        let first_stmt = sim.statements().len();
        let mut issued: Vec<(usize, u32)> = Vec::new();
        for step in &self.steps {
            sim.run_until(t0 + step.at);
            let si = names
                .iter()
                .position(|n| *n == step.session)
                .expect("named");
            let sql = connection_ids(&step.sql, |name| {
                let i = names.iter().position(|n| n == name)?;
                Some(sim.connection_of(ids[i]).to_string())
            })
            .map_err(|e| format!("line {}: {e}", step.line))?;
            let got = sim
                .submit_to(ids[si], &sql)
                .map_err(|e| format!("line {}: {e}", step.line))?;
            for g in got {
                issued.push((si, g));
            }
        }
        sim.run_until(t0 + self.duration());
        let mut statements = Vec::new();
        for (si, id) in issued {
            let r = &sim.statements()[id as usize];
            debug_assert!(id as usize >= first_stmt);
            let (outcome, code, message) = match &r.outcome {
                None => ("waiting", None, None),
                Some(StatementOutcome::Ok { .. }) => ("ok", None, None),
                Some(StatementOutcome::Error { code, message, .. }) => {
                    ("error", Some(*code), Some(message.clone()))
                }
            };
            statements.push(ScriptStatement {
                session: names[si].clone(),
                sql: r.sql.clone(),
                issued_at_ms: (r.issued_at - t0).as_ms(),
                finished_at_ms: r.finished_at.map(|f| (f - t0).as_ms()),
                outcome,
                error_code: code,
                error_message: message,
                states_seen: r.states_seen.clone(),
                output: r.client_output(),
            });
        }
        let mut metadata_locks = sim.metadata_locks_table();
        // OWNER_THREAD_ID is the processlist id; name the script's session beside it.
        let owner = metadata_locks.column("OWNER_THREAD_ID").expect("column");
        metadata_locks.columns.push("SESSION".into());
        metadata_locks.numeric.push(false);
        for row in &mut metadata_locks.rows {
            let id: u32 = row[owner]
                .as_deref()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            let name = ids
                .iter()
                .position(|&s| sim.connection_of(s) == id || s == id)
                .map(|i| names[i].clone());
            row.push(name);
        }
        let _ = MdlContextId(0);
        Ok(ScriptReport {
            profile: profile_name,
            statements,
            metadata_locks,
        })
    }
}

/// A session's name: letters, digits and `_`.
fn check_session_name(name: &str) -> Result<(), String> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("session name '{name}': use letters, digits and _"));
    }
    Ok(())
}

/// `sql` with every `{NAME}` replaced by `id_of(NAME)` (a session's connection id, as
/// `KILL {s2}` needs it); a name `id_of` does not know is an error.
fn connection_ids(sql: &str, id_of: impl Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::with_capacity(sql.len());
    let mut rest = sql;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let tail = &rest[open + 1..];
        let close = tail.find('}').ok_or_else(|| {
            "'{' without '}': write {SESSION} for a session's connection id".to_string()
        })?;
        let name = &tail[..close];
        let id = id_of(name).ok_or_else(|| {
            format!("{{{name}}}: no session '{name}' before this line (write {{SESSION}} for a session's connection id)")
        })?;
        out.push_str(&id);
        rest = &tail[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// One statement of a script run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScriptStatement {
    /// The session's name.
    pub session: String,
    /// The statement.
    pub sql: String,
    /// When it was issued, ms from time zero.
    pub issued_at_ms: u64,
    /// When it finished; `None` if it was still running or waiting at the end.
    pub finished_at_ms: Option<u64>,
    /// `ok`, `error` or `waiting`.
    pub outcome: &'static str,
    /// The MySQL error number.
    pub error_code: Option<u16>,
    /// The error message.
    pub error_message: Option<String>,
    /// The processlist states it showed, in order.
    pub states_seen: Vec<String>,
    /// What the `mysql` client printed for it (not part of the JSON).
    #[serde(skip)]
    pub output: Option<String>,
}

/// A script run's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptReport {
    /// The profile it ran with.
    pub profile: String,
    /// Every statement, in the order issued.
    pub statements: Vec<ScriptStatement>,
    /// `performance_schema.metadata_locks` at the end, with each owner's session name.
    pub metadata_locks: ResultSet,
}

impl ScriptReport {
    /// `{"statements": [...], "metadata_locks": [{column: value, ...}]}`.
    pub fn to_json(&self) -> serde_json::Value {
        let locks: Vec<serde_json::Value> = self
            .metadata_locks
            .rows
            .iter()
            .map(|row| {
                let mut m = serde_json::Map::new();
                for ((c, v), num) in self
                    .metadata_locks
                    .columns
                    .iter()
                    .zip(row)
                    .zip(&self.metadata_locks.numeric)
                {
                    let value = match v {
                        None => serde_json::Value::Null,
                        Some(v) if *num => v
                            .parse::<u64>()
                            .map_or_else(|_| serde_json::Value::String(v.clone()), Into::into),
                        Some(v) => serde_json::Value::String(v.clone()),
                    };
                    m.insert(c.clone(), value);
                }
                serde_json::Value::Object(m)
            })
            .collect();
        serde_json::json!({
            "statements": self.statements,
            "metadata_locks": locks,
        })
    }

    /// One line per statement for programs (`cargo xtask conformance`): session,
    /// issued ms, finished ms or `-`, outcome, error code or `-`, SQL; tab-separated,
    /// after a header line.
    pub fn render_tsv(&self) -> String {
        let mut out =
            "session\tissued_at_ms\tfinished_at_ms\toutcome\terror_code\tsql\n".to_owned();
        for s in &self.statements {
            out.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t{}\n",
                s.session,
                s.issued_at_ms,
                s.finished_at_ms.map_or("-".to_owned(), |f| f.to_string()),
                s.outcome,
                s.error_code.map_or("-".to_owned(), |c| c.to_string()),
                s.sql.replace(['\t', '\n'], " ")
            ));
        }
        out
    }

    /// For people: each statement with its timing, states and what the client printed,
    /// then the metadata locks left.
    pub fn render_table(&self) -> String {
        let mut out = format!("profile {}\n", self.profile);
        for s in &self.statements {
            let end = s
                .finished_at_ms
                .map_or("still waiting".to_owned(), |f| format!("{f} ms"));
            out.push_str(&format!(
                "\n[{} ms -> {end}] {}> {}\n",
                s.issued_at_ms, s.session, s.sql
            ));
            if !s.states_seen.is_empty() {
                out.push_str(&format!("  states: {}\n", s.states_seen.join(" -> ")));
            }
            if let Some(o) = &s.output {
                for l in o.lines() {
                    out.push_str(&format!("  {l}\n"));
                }
            }
        }
        out.push_str("\nperformance_schema.metadata_locks at the end:\n");
        out.push_str(&self.metadata_locks.render(Tick::ZERO));
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(Tick::parse_duration("250ms"), Some(Tick::from_ms(250)));
        assert_eq!(Tick::parse_duration("2s"), Some(Tick::from_secs(2)));
        assert_eq!(Tick::parse_duration("1.5s"), Some(Tick::from_ms(1500)));
        assert_eq!(Tick::parse_duration("25xms"), None);
        assert_eq!(Tick::parse_duration("ms"), None);
        assert_eq!(Tick::parse_duration("-1s"), None);
    }

    #[test]
    fn errors_name_their_line() {
        let e = SessionScript::parse("# x\ntable t rows=10\nat 1q s1: SELECT 1\n").unwrap_err();
        assert!(e.starts_with("line 3: malformed time '1q'"), "{e}");
        let e = SessionScript::parse("table t rows=10\nat 1s s1: SELEC 1\n").unwrap_err();
        assert!(e.starts_with("line 2: ERROR 1064"), "{e}");
        let e = SessionScript::parse("tabel t rows=10\n").unwrap_err();
        assert!(e.starts_with("line 1: unknown line 'tabel'"), "{e}");
        let e = SessionScript::parse("at 2s s1: SELECT 1\nat 1s s1: SELECT 1\n").unwrap_err();
        assert!(e.starts_with("line 2: time 1s is before"), "{e}");
        let e = SessionScript::parse("at 2s s1: SELECT 1\ntable t rows=1\n").unwrap_err();
        assert!(e.starts_with("line 2: 'table' is a setup line"), "{e}");
        let e = SessionScript::parse("table t rows=0\nat 1s s1: SELECT 1").unwrap_err();
        assert!(e.starts_with("line 1: rows '0'"), "{e}");
        let e = SessionScript::parse("at 1s s1: KILL {s2}\n").unwrap_err();
        assert!(
            e.starts_with("line 1: {s2}: no session 's2' before this line"),
            "{e}"
        );
        let e = SessionScript::parse("session s1 s-2\nat 1s s1: SELECT 1").unwrap_err();
        assert!(e.starts_with("line 1: session name 's-2'"), "{e}");
        let e = SessionScript::parse("session s1 s1\nat 1s s1: SELECT 1").unwrap_err();
        assert!(
            e.starts_with("line 1: session 's1' is declared twice"),
            "{e}"
        );
    }

    #[test]
    fn a_declared_session_that_never_sends_a_statement_can_be_killed() {
        let s = SessionScript::parse(
            "session s1 idle\ntable t rows=10\nat 0ms s2: SELECT 1\nat 100ms s1: KILL {idle}\nat 200ms s1: KILL {idle}\nat 300ms idle: SELECT 1\nat 400ms idle: SELECT 2\nat 500ms s1: KILL {idle}\nrun 1s\n",
        )
        .unwrap();
        assert_eq!(s.sessions(), ["s1", "idle", "s2"]);
        let r = s.run(None).unwrap();
        let fate: Vec<(&str, &str, Option<u16>)> = r
            .statements
            .iter()
            .map(|st| (st.session.as_str(), st.outcome, st.error_code))
            .collect();
        assert_eq!(
            fate,
            [
                ("s2", "ok", None),
                ("s1", "ok", None),
                // The killed connection is gone: its id is no thread's now.
                ("s1", "error", Some(1094)),
                ("idle", "error", Some(2006)),
                ("idle", "ok", None),
                // {idle} is the connection the client reconnected on.
                ("s1", "ok", None),
            ]
        );
        // Processlist ids: the declared sessions first, in their order.
        assert_eq!(r.statements[1].sql, "KILL 2");
    }

    #[test]
    fn a_script_without_tables_runs() {
        // Its server used to be a scenario without `tables`: "missing field `tables`".
        let s =
            SessionScript::parse("at 0ms s1: SELECT 1\nat 10ms s1: SHOW PROCESSLIST\n").unwrap();
        let r = s.run(None).unwrap();
        assert!(
            r.statements.iter().all(|st| st.outcome == "ok"),
            "{:?}",
            r.statements
        );
    }

    #[test]
    fn a_script_runs_and_reports_the_wait() {
        let s = SessionScript::parse(
            "table t rows=1000\nat 0ms s1: BEGIN\nat 10ms s1: SELECT * FROM t WHERE id = 1\nat 100ms s2: DROP TABLE t\nrun 1s\n",
        )
        .unwrap();
        let r = s.run(None).unwrap();
        assert_eq!(r.statements[2].outcome, "waiting");
        assert_eq!(
            r.statements[2].states_seen.last().map(String::as_str),
            Some("Waiting for table metadata lock")
        );
        let json = r.to_json();
        // s2's GLOBAL IX and SCHEMA IX granted, s1's SHARED_READ granted, s2's
        // EXCLUSIVE pending.
        let locks = json["metadata_locks"].as_array().unwrap();
        assert_eq!(locks.len(), 4, "{json:#}");
        assert_eq!(locks[3]["LOCK_TYPE"], "EXCLUSIVE");
        assert_eq!(locks[3]["LOCK_STATUS"], "PENDING");
        assert_eq!(locks[3]["SESSION"], "s2");
        assert_eq!(
            json["statements"][2]["finished_at_ms"],
            serde_json::Value::Null
        );
    }
}
