//! The online schema-change tools a scenario or a session script starts, as their
//! command lines: parsed and checked here with the rest of the scenario format, run by
//! the simulation as clients of the server (`sim/tools/`).
//!
//! ```text
//!   pt-online-schema-change --alter "ADD INDEX k_c(c)" D=sbtest,t=sbtest1 --execute
//!       [--chunk-time 0.5] [--chunk-size 1000] [--max-load Threads_running=25]
//!       [--critical-load Threads_running=50] [--tries swap_tables:10:1,...]
//!       [--set-vars lock_wait_timeout=60,innodb_lock_wait_timeout=1]
//!       [--[no-]drop-old-table]
//!   gh-ost --table sbtest1 --alter "ADD INDEX k_c(c)" [--database sbtest] --execute
//!       [--chunk-size 1000] [--dml-batch-size 10] [--max-load Threads_running=25]
//!       [--critical-load Threads_running=50] [--max-lag-millis 1500]
//!       [--cut-over-lock-timeout-seconds 3] [--default-retries 60]
//! ```
//!
//! `pt-osc` stands for `pt-online-schema-change`. Without `--execute` the tools do
//! nothing but check, as the real ones (`--dry-run`); here that is an error, so that
//! a scenario never silently runs nothing. An option the model does not know is an
//! error naming it.
//!
//! The defaults are the tools' documented ones: pt-online-schema-change 3.x
//! (`perldoc pt-online-schema-change`: `--chunk-time` 0.5, `--chunk-size` 1000,
//! `--max-load` Threads_running=25, `--critical-load` Threads_running=50, `--tries`
//! create_triggers/drop_triggers/swap_tables 10 tries 1 s apart and copy_rows 10 tries
//! 0.25 s apart, `--set-vars` lock_wait_timeout=60 and innodb_lock_wait_timeout=1,
//! `--check-interval` 1 s, `--drop-old-table` on), gh-ost 1.1 (`gh-ost --help`:
//! `--chunk-size` 1000, `--dml-batch-size` 10, `--max-lag-millis` 1500,
//! `--cut-over-lock-timeout-seconds` 3, `--default-retries` 60, no `--max-load` or
//! `--critical-load` unless given).

use crate::time::Tick;

/// A tool's command line, checked.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolCommand {
    /// `pt-online-schema-change`.
    PtOsc(PtOscOptions),
    /// `gh-ost`.
    GhOst(GhOstOptions),
}

/// A `STATUS_VAR=N` threshold (`--max-load`, `--critical-load`): only
/// `Threads_running` is modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threshold {
    /// `Threads_running` at or above which the tool pauses (or aborts).
    pub threads_running: u64,
}

/// One `--tries` operation: how often, and how long apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tries {
    /// Attempts in all.
    pub tries: u32,
    /// The wait between two.
    pub wait: Tick,
}

/// pt-online-schema-change's options.
#[derive(Clone, Debug, PartialEq)]
pub struct PtOscOptions {
    /// `D=`: the schema (default: the scenario's).
    pub database: Option<String>,
    /// `t=`: the table.
    pub table: String,
    /// `--alter`: the ALTER TABLE clauses.
    pub alter: String,
    /// `--chunk-time`, seconds (0: a fixed `--chunk-size`).
    pub chunk_time_ms: u64,
    /// `--chunk-size`: the first chunk's rows.
    pub chunk_size: u64,
    /// `--max-load`.
    pub max_load: Threshold,
    /// `--critical-load`.
    pub critical_load: Threshold,
    /// `--tries create_triggers`, `drop_triggers`.
    pub triggers_tries: Tries,
    /// `--tries copy_rows`.
    pub copy_tries: Tries,
    /// `--tries swap_tables`.
    pub swap_tries: Tries,
    /// `--set-vars lock_wait_timeout`, seconds.
    pub lock_wait_timeout_s: u64,
    /// `--set-vars innodb_lock_wait_timeout`, seconds.
    pub innodb_lock_wait_timeout_s: u64,
    /// `--[no-]drop-old-table`.
    pub drop_old_table: bool,
}

/// gh-ost's options.
#[derive(Clone, Debug, PartialEq)]
pub struct GhOstOptions {
    /// `--database` (default: the scenario's).
    pub database: Option<String>,
    /// `--table`.
    pub table: String,
    /// `--alter`.
    pub alter: String,
    /// `--chunk-size`: rows a copy statement.
    pub chunk_size: u64,
    /// `--dml-batch-size`: binlog events applied a transaction.
    pub dml_batch_size: u64,
    /// `--max-load` (none by default).
    pub max_load: Option<Threshold>,
    /// `--critical-load` (none by default).
    pub critical_load: Option<Threshold>,
    /// `--max-lag-millis`: replica lag it throttles on.
    pub max_lag_ms: u64,
    /// `--cut-over-lock-timeout-seconds`.
    pub cut_over_lock_timeout_s: u64,
    /// `--default-retries`.
    pub default_retries: u32,
}

/// The command line split into words, quotes (`"..."`, `'...'`) kept together.
fn words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    for ch in line.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(ch);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("unclosed {q} quote"));
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

/// `--name value` or `--name=value` pairs and bare words, in order.
struct Args {
    /// (option without `--`, value) and bare words as (word, None) with a `=`.
    opts: Vec<(String, Option<String>)>,
    bare: Vec<String>,
}

/// Options that take no value.
const FLAGS: [&str; 5] = [
    "execute",
    "dry-run",
    "drop-old-table",
    "no-drop-old-table",
    "allow-on-master",
];

fn split_args(tool: &str, ws: &[String]) -> Result<Args, String> {
    let mut args = Args {
        opts: Vec::new(),
        bare: Vec::new(),
    };
    let mut i = 0;
    while i < ws.len() {
        let w = &ws[i];
        i += 1;
        let Some(opt) = w.strip_prefix("--") else {
            args.bare.push(w.clone());
            continue;
        };
        if let Some((name, value)) = opt.split_once('=') {
            args.opts.push((name.to_owned(), Some(value.to_owned())));
        } else if FLAGS.contains(&opt) {
            args.opts.push((opt.to_owned(), None));
        } else {
            let value = ws
                .get(i)
                .filter(|v| !v.starts_with("--"))
                .ok_or_else(|| format!("{tool}: option --{opt} needs a value"))?;
            i += 1;
            args.opts.push((opt.to_owned(), Some(value.clone())));
        }
    }
    Ok(args)
}

fn number<T: std::str::FromStr>(tool: &str, opt: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{tool}: --{opt} {v}: not a whole number"))
}

/// Seconds as written (`0.5`, `2`), in ms.
fn seconds_ms(tool: &str, opt: &str, v: &str) -> Result<u64, String> {
    Tick::parse_duration(&format!("{v}s"))
        .or_else(|| Tick::parse_duration(v))
        .map(|t| t.as_ms())
        .ok_or_else(|| format!("{tool}: --{opt} {v}: not a number of seconds"))
}

/// `Threads_running=N` (or `Threads_running:N`).
fn threshold(tool: &str, opt: &str, v: &str) -> Result<Threshold, String> {
    let (var, n) = v
        .split_once(['=', ':'])
        .ok_or_else(|| format!("{tool}: --{opt} {v}: use Threads_running=N"))?;
    if !var.eq_ignore_ascii_case("Threads_running") {
        return Err(format!(
            "{tool}: --{opt} {var}: only Threads_running is modelled"
        ));
    }
    Ok(Threshold {
        threads_running: number(tool, opt, n)?,
    })
}

impl ToolCommand {
    /// Parses a command line; the error names the option that is wrong.
    pub fn parse(line: &str) -> Result<ToolCommand, String> {
        let ws = words(line)?;
        let (first, rest) = ws
            .split_first()
            .ok_or_else(|| "an empty tool line".to_string())?;
        match first.as_str() {
            "pt-online-schema-change" | "pt-osc" => {
                let args = split_args("pt-online-schema-change", rest)?;
                Ok(ToolCommand::PtOsc(PtOscOptions::from_args(&args)?))
            }
            "gh-ost" => {
                let args = split_args("gh-ost", rest)?;
                Ok(ToolCommand::GhOst(GhOstOptions::from_args(&args)?))
            }
            other => Err(format!(
                "unknown tool '{other}': pt-online-schema-change (pt-osc) or gh-ost"
            )),
        }
    }

    /// The table the tool changes.
    pub fn table(&self) -> &str {
        match self {
            ToolCommand::PtOsc(o) => &o.table,
            ToolCommand::GhOst(o) => &o.table,
        }
    }
}

/// `--execute` given, `--dry-run` not.
fn check_execute(tool: &str, args: &Args) -> Result<(), String> {
    let has = |n: &str| args.opts.iter().any(|(o, _)| o == n);
    if has("dry-run") || !has("execute") {
        return Err(format!(
            "{tool}: without --execute the tool only checks (a dry run); add --execute"
        ));
    }
    Ok(())
}

impl PtOscOptions {
    fn from_args(args: &Args) -> Result<PtOscOptions, String> {
        const T: &str = "pt-online-schema-change";
        let secs = |s: u64| Tick::from_secs(s);
        let mut o = PtOscOptions {
            database: None,
            table: String::new(),
            alter: String::new(),
            chunk_time_ms: 500,
            chunk_size: 1000,
            max_load: Threshold {
                threads_running: 25,
            },
            critical_load: Threshold {
                threads_running: 50,
            },
            triggers_tries: Tries {
                tries: 10,
                wait: secs(1),
            },
            copy_tries: Tries {
                tries: 10,
                wait: Tick::from_ms(250),
            },
            swap_tries: Tries {
                tries: 10,
                wait: secs(1),
            },
            lock_wait_timeout_s: 60,
            innodb_lock_wait_timeout_s: 1,
            drop_old_table: true,
        };
        for dsn in &args.bare {
            o.read_dsn(dsn)?;
        }
        for (name, value) in &args.opts {
            let v = value.as_deref().unwrap_or("");
            match name.as_str() {
                "execute" | "allow-on-master" => {}
                "dry-run" => {}
                "alter" => o.alter = v.to_owned(),
                "database" | "D" => o.database = Some(v.to_owned()),
                "table" | "t" => o.table = v.to_owned(),
                "chunk-time" => o.chunk_time_ms = seconds_ms(T, name, v)?,
                "chunk-size" => o.chunk_size = number(T, name, v)?,
                "max-load" => o.max_load = threshold(T, name, v)?,
                "critical-load" => o.critical_load = threshold(T, name, v)?,
                "tries" => o.read_tries(v)?,
                "set-vars" => o.read_set_vars(v)?,
                "drop-old-table" => o.drop_old_table = true,
                "no-drop-old-table" => o.drop_old_table = false,
                other => return Err(format!("{T}: unknown option --{other}")),
            }
        }
        check_execute(T, args)?;
        if o.table.is_empty() {
            return Err(format!("{T}: name the table: D=db,t=table (or --table)"));
        }
        if o.alter.trim().is_empty() {
            return Err(format!("{T}: --alter \"...\" is required"));
        }
        if o.chunk_size == 0 {
            return Err(format!("{T}: --chunk-size 0: must be at least 1"));
        }
        Ok(o)
    }

    /// A DSN: `D=db,t=table` (`h=`, `u=`, `p=`, `P=`, `S=` are read and ignored).
    fn read_dsn(&mut self, dsn: &str) -> Result<(), String> {
        for part in dsn.split(',') {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                format!("pt-online-schema-change: '{dsn}': a DSN is D=db,t=table")
            })?;
            match k {
                "D" => self.database = Some(v.to_owned()),
                "t" => self.table = v.to_owned(),
                "h" | "u" | "p" | "P" | "S" | "F" | "A" => {}
                other => {
                    return Err(format!(
                    "pt-online-schema-change: DSN key '{other}=' is not one of D, t, h, u, p, P, S"
                ))
                }
            }
        }
        Ok(())
    }

    /// `--tries op:tries:wait[,...]`.
    fn read_tries(&mut self, v: &str) -> Result<(), String> {
        for spec in v.split(',') {
            let parts: Vec<&str> = spec.split(':').collect();
            let [op, tries, wait] = parts.as_slice() else {
                return Err(format!(
                    "pt-online-schema-change: --tries {spec}: use operation:tries:wait"
                ));
            };
            let t = Tries {
                tries: number("pt-online-schema-change", "tries", tries)?,
                wait: Tick::from_ms(seconds_ms("pt-online-schema-change", "tries", wait)?),
            };
            if t.tries == 0 {
                return Err(format!(
                    "pt-online-schema-change: --tries {spec}: tries must be > 0"
                ));
            }
            match *op {
                "create_triggers" | "drop_triggers" => self.triggers_tries = t,
                "copy_rows" => self.copy_tries = t,
                "swap_tables" => self.swap_tries = t,
                "update_foreign_keys" | "analyze_table" => {}
                other => {
                    return Err(format!(
                        "pt-online-schema-change: --tries: invalid operation {other}"
                    ))
                }
            }
        }
        Ok(())
    }

    /// `--set-vars name=value[,...]`: the timeouts the tool's connection runs with.
    fn read_set_vars(&mut self, v: &str) -> Result<(), String> {
        for spec in v.split(',') {
            let (name, value) = spec.split_once('=').ok_or_else(|| {
                format!("pt-online-schema-change: --set-vars {spec}: use name=value")
            })?;
            match name {
                "lock_wait_timeout" => {
                    self.lock_wait_timeout_s = number("pt-online-schema-change", "set-vars", value)?
                }
                "innodb_lock_wait_timeout" => {
                    self.innodb_lock_wait_timeout_s =
                        number("pt-online-schema-change", "set-vars", value)?
                }
                "wait_timeout" => {}
                other => {
                    return Err(format!(
                        "pt-online-schema-change: --set-vars {other}: only lock_wait_timeout, innodb_lock_wait_timeout and wait_timeout are modelled"
                    ))
                }
            }
        }
        Ok(())
    }
}

impl GhOstOptions {
    fn from_args(args: &Args) -> Result<GhOstOptions, String> {
        const T: &str = "gh-ost";
        let mut o = GhOstOptions {
            database: None,
            table: String::new(),
            alter: String::new(),
            chunk_size: 1000,
            dml_batch_size: 10,
            max_load: None,
            critical_load: None,
            max_lag_ms: 1500,
            cut_over_lock_timeout_s: 3,
            default_retries: 60,
        };
        if let Some(b) = args.bare.first() {
            return Err(format!("{T}: unexpected argument '{b}'"));
        }
        for (name, value) in &args.opts {
            let v = value.as_deref().unwrap_or("");
            match name.as_str() {
                "execute" | "allow-on-master" | "dry-run" => {}
                "alter" => o.alter = v.to_owned(),
                "database" => o.database = Some(v.to_owned()),
                "table" => o.table = v.to_owned(),
                "chunk-size" => o.chunk_size = number(T, name, v)?,
                "dml-batch-size" => o.dml_batch_size = number(T, name, v)?,
                "max-load" => o.max_load = Some(threshold(T, name, v)?),
                "critical-load" => o.critical_load = Some(threshold(T, name, v)?),
                "max-lag-millis" => o.max_lag_ms = number(T, name, v)?,
                "cut-over-lock-timeout-seconds" => o.cut_over_lock_timeout_s = number(T, name, v)?,
                "default-retries" => o.default_retries = number(T, name, v)?,
                other => return Err(format!("{T}: unknown option --{other}")),
            }
        }
        check_execute(T, args)?;
        if o.table.is_empty() {
            return Err(format!("{T}: --table is required"));
        }
        if o.alter.trim().is_empty() {
            return Err(format!("{T}: --alter \"...\" is required"));
        }
        // gh-ost's own bounds (`SetChunkSize`, `SetDMLBatchSize`, `SetCutOverLockTimeoutSeconds`).
        if !(10..=100_000).contains(&o.chunk_size) {
            return Err(format!("{T}: --chunk-size {}: 10 to 100000", o.chunk_size));
        }
        if !(1..=100).contains(&o.dml_batch_size) {
            return Err(format!(
                "{T}: --dml-batch-size {}: 1 to 100",
                o.dml_batch_size
            ));
        }
        if !(1..=10).contains(&o.cut_over_lock_timeout_s) {
            return Err(format!(
                "{T}: --cut-over-lock-timeout-seconds {}: 1 to 10",
                o.cut_over_lock_timeout_s
            ));
        }
        if o.default_retries == 0 {
            return Err(format!("{T}: --default-retries 0: must be at least 1"));
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tools_defaults_are_their_documented_ones() {
        let ToolCommand::PtOsc(p) =
            ToolCommand::parse("pt-osc --alter \"ADD INDEX k_c(c)\" D=sbtest,t=sbtest1 --execute")
                .unwrap()
        else {
            panic!("pt-osc");
        };
        assert_eq!((p.chunk_time_ms, p.chunk_size), (500, 1000));
        assert_eq!(p.max_load.threads_running, 25);
        assert_eq!(p.critical_load.threads_running, 50);
        assert_eq!(p.swap_tries.tries, 10);
        assert_eq!(p.copy_tries.wait, Tick::from_ms(250));
        assert_eq!(
            (p.lock_wait_timeout_s, p.innodb_lock_wait_timeout_s),
            (60, 1)
        );
        assert_eq!(p.alter, "ADD INDEX k_c(c)");
        assert_eq!(
            (p.database.as_deref(), p.table.as_str()),
            (Some("sbtest"), "sbtest1")
        );
        let ToolCommand::GhOst(g) =
            ToolCommand::parse("gh-ost --table=t --alter 'ADD COLUMN x INT' --execute").unwrap()
        else {
            panic!("gh-ost");
        };
        assert_eq!(
            (g.chunk_size, g.dml_batch_size, g.max_lag_ms),
            (1000, 10, 1500)
        );
        assert_eq!((g.cut_over_lock_timeout_s, g.default_retries), (3, 60));
        assert_eq!(g.max_load, None);
    }

    #[test]
    fn a_bad_option_is_named() {
        let err = |l: &str| ToolCommand::parse(l).unwrap_err();
        assert_eq!(
            err("gh-ost --table t --alter x --execute --chunk-sise 5"),
            "gh-ost: unknown option --chunk-sise"
        );
        assert_eq!(
            err("gh-ost --table t --alter x --execute --cut-over-lock-timeout-seconds 30"),
            "gh-ost: --cut-over-lock-timeout-seconds 30: 1 to 10"
        );
        assert_eq!(
            err("pt-osc D=a,t=b --alter x --execute --max-load Threads_connected=5"),
            "pt-online-schema-change: --max-load Threads_connected: only Threads_running is modelled"
        );
        assert_eq!(
            err("pt-osc D=a,t=b --alter x"),
            "pt-online-schema-change: without --execute the tool only checks (a dry run); add --execute"
        );
        assert_eq!(
            err("pt-osc D=a,t=b --alter x --execute --chunk-time"),
            "pt-online-schema-change: option --chunk-time needs a value"
        );
        assert!(err("gh-ost --table t --alter \"x --execute").contains("unclosed"));
    }
}
