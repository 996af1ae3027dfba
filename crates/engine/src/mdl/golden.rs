//! The lock manager's transcript tests: every `testdata/*.mdl` file is one scenario,
//! run against a fresh [`MdlManager`] by the one test here, [`transcripts`], which
//! checks the manager's invariants ([`MdlManager::validate`]) after every command.
//!
//! A `.mdl` file is plain text, read line by line:
//!
//! ```text
//! # A comment (kept, not run); blank lines are kept too.
//! trx: acquire SR db.t1                a command at column 0
//!   granted T1                         its expected output, each line indented two spaces
//! alter: upgrade T2 X
//!   waiting R1 (Waiting for table metadata lock)
//! ```
//!
//! A command is either a session's, prefixed by the session's name (its `MDL_context`,
//! created on first use), or the manager's:
//!
//! ```text
//! NAME: acquire TYPE KEY [stmt|trx|explicit] [timeout DUR]   KEY: global, commit, backup,
//! NAME: try TYPE KEY [stmt|trx|explicit]                          schema:db, db.t
//! NAME: upgrade T<n> TYPE [timeout DUR]    NAME: downgrade T<n> TYPE
//! NAME: release T<n> | release-stmt | release-trx | release-all | kill | dml-weight
//! advance DUR | expire | next-deadline | locks | waits | queues | matrix KEY
//! max-write-lock-count N                   DUR: 5s, 20ms, 7ns   TYPE: SR, SNW, X, ...
//! ```
//!
//! The duration word defaults to `trx`, the timeout to `lock_wait_timeout`'s default.
//! Output: `granted T<n>`, `waiting R<n> (state)`, `failed ERROR ...`, `conflict` (try),
//! then one `wake NAME: R<n> ...` line per session woken; `locks` prints
//! `performance_schema.metadata_locks`, `waits` the waits with their blockers, `queues`
//! each lock name's lists. Tickets and requests are numbered from 1 per scenario.
//!
//! The test reruns each file and compares the whole text, comments and commands
//! included, with what the file says. `UPDATE_GOLDEN=1 cargo test -p ddlscope-engine
//! --lib mdl` (or the crate-wide `UPDATE_EXPECT=1`) rewrites the expected output in
//! place instead; review the diff before committing it. A new scenario is a new file,
//! commands only, filled in by such a run.

use super::*;
use crate::time::Tick;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Where the scenarios live. Only tests read files; the engine itself never does.
const TESTDATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/mdl/testdata");

#[test]
fn transcripts() {
    let update = ["UPDATE_GOLDEN", "UPDATE_EXPECT"]
        .iter()
        .any(|v| std::env::var_os(v).is_some());
    let files = scenario_files(Path::new(TESTDATA));
    assert!(!files.is_empty(), "no .mdl scenarios in {TESTDATA}");
    let mut failures = Vec::new();
    for path in &files {
        let expected =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let actual = run_script(path, &expected);
        if actual == expected {
            continue;
        }
        if update {
            std::fs::write(path, &actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        } else {
            failures.push(diff(path, &expected, &actual));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} transcripts differ (rerun with UPDATE_GOLDEN=1 to accept, then review \
         the diff):\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// Every `.mdl` file in `dir`, sorted so that runs are in a fixed order.
fn scenario_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "mdl"))
        .collect();
    files.sort();
    files
}

/// Runs one scenario and returns the file as it should read: comments, blank lines and
/// commands as they are, each command followed by the output it gives now (the old
/// output lines are dropped). Panics, naming the line, if an invariant breaks.
fn run_script(path: &Path, script: &str) -> String {
    let mut h = Harness::default();
    let mut text = String::new();
    for (n, line) in script.lines().enumerate() {
        if line.starts_with(char::is_whitespace) && !line.trim().is_empty() {
            continue; // expected output, regenerated below
        }
        writeln!(text, "{line}").unwrap();
        let command = line.trim();
        if command.is_empty() || command.starts_with('#') {
            continue;
        }
        h.run(command);
        text.push_str(&std::mem::take(&mut h.out));
        if let Err(e) = h.mdl.validate() {
            panic!(
                "{}:{}: invariant broken after `{command}`: {e}\n{text}",
                path.display(),
                n + 1
            );
        }
    }
    text
}

/// A line diff of a file against its rerun (longest common subsequence; the files are
/// small), `-` for the file's lines, `+` for the rerun's, numbered as in the file.
fn diff(path: &Path, expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    // lcs[i][j]: the longest common subsequence of e[i..] and a[j..].
    let mut lcs = vec![vec![0u32; a.len() + 1]; e.len() + 1];
    for i in (0..e.len()).rev() {
        for j in (0..a.len()).rev() {
            lcs[i][j] = if e[i] == a[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = format!("--- {}\n", path.display());
    let (mut i, mut j) = (0, 0);
    while i < e.len() || j < a.len() {
        if i < e.len() && j < a.len() && e[i] == a[j] {
            (i, j) = (i + 1, j + 1);
        } else if i < e.len() && (j == a.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            writeln!(out, "{:>4} - {}", i + 1, e[i]).unwrap();
            i += 1;
        } else {
            writeln!(out, "{:>4} + {}", i + 1, a[j]).unwrap();
            j += 1;
        }
    }
    out
}

/// One scenario's manager and sessions, and the output of the command being run.
#[derive(Default)]
struct Harness {
    mdl: MdlManager,
    now: Tick,
    names: Vec<String>,
    out: String,
}

impl Harness {
    fn ctx(&mut self, name: &str) -> MdlContextId {
        let i = match self.names.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                self.names.push(name.to_owned());
                self.names.len() - 1
            }
        };
        MdlContextId(i as u32)
    }

    fn name(&self, ctx: MdlContextId) -> &str {
        &self.names[ctx.0 as usize]
    }

    fn run(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["advance", d] => self.now += dur(d),
            ["expire"] => {
                let w = self.mdl.expire(self.now);
                self.print_wakeups(&w);
            }
            ["next-deadline"] => {
                let d = self.mdl.next_deadline().map_or("none".to_owned(), tick);
                writeln!(self.out, "  {d}").unwrap();
            }
            ["max-write-lock-count", n] => self.mdl.max_write_lock_count = n.parse().unwrap(),
            ["matrix", k] => {
                let m = self.mdl.priority_matrix(&key(k));
                writeln!(self.out, "  {m:?}").unwrap();
            }
            ["locks"] => self.print_locks(),
            ["waits"] => self.print_waits(),
            ["queues"] => self.print_queues(),
            [who, verb, args @ ..] => {
                let ctx = self.ctx(who.strip_suffix(':').expect("NAME: verb"));
                self.session(ctx, verb, args);
            }
            _ => panic!("bad line {line}"),
        }
    }

    fn session(&mut self, ctx: MdlContextId, verb: &str, args: &[&str]) {
        // As the simulator does: grants from a release are made at the current time.
        self.mdl.set_clock(self.now);
        let timeout = match args.iter().position(|a| *a == "timeout") {
            Some(i) => dur(args[i + 1]),
            None => LOCK_WAIT_TIMEOUT_DEFAULT,
        };
        let duration = match args.get(2).copied() {
            Some("stmt") => MdlDuration::Statement,
            Some("explicit") => MdlDuration::Explicit,
            _ => MdlDuration::Transaction,
        };
        match verb {
            "acquire" => {
                let req = MdlRequest::new(key(args[1]), ty(args[0]), duration);
                let (a, w) = self.mdl.acquire(ctx, req, self.now, timeout);
                self.print_acquire(a, &w);
            }
            "try" => {
                let req = MdlRequest::new(key(args[1]), ty(args[0]), duration);
                let (t, w) = self.mdl.try_acquire(ctx, req);
                match t {
                    Some(t) => writeln!(self.out, "  granted T{}", t.0).unwrap(),
                    None => writeln!(self.out, "  conflict").unwrap(),
                }
                self.print_wakeups(&w);
            }
            "upgrade" => {
                let (a, w) = self
                    .mdl
                    .upgrade(ticket(args[0]), ty(args[1]), self.now, timeout);
                self.print_acquire(a, &w);
            }
            "downgrade" => {
                let w = self.mdl.downgrade(ticket(args[0]), ty(args[1]));
                self.print_wakeups(&w);
            }
            "release" => {
                let w = self.mdl.release(ticket(args[0]));
                self.print_wakeups(&w);
            }
            "release-stmt" => {
                let w = self.mdl.release_statement_locks(ctx);
                self.print_wakeups(&w);
            }
            "release-trx" => {
                let w = self.mdl.release_transactional_locks(ctx);
                self.print_wakeups(&w);
            }
            "release-all" => {
                let w = self.mdl.release_all(ctx);
                self.print_wakeups(&w);
            }
            "kill" => {
                let r = self
                    .mdl
                    .waiting_request(ctx)
                    .expect("kill a waiting session");
                let w = self.mdl.cancel(r, MdlError::QueryInterrupted);
                self.print_wakeups(&w);
            }
            "dml-weight" => self.mdl.set_force_dml_deadlock_weight(ctx, true),
            _ => panic!("bad verb {verb}"),
        }
    }

    fn print_acquire(&mut self, a: Acquire, w: &Wakeups) {
        match a {
            Acquire::Granted(t) => writeln!(self.out, "  granted T{}", t.0),
            Acquire::Waiting(r) => {
                let state = self
                    .mdl
                    .key(self.mdl.pending(r).unwrap().lock)
                    .wait_state_name();
                writeln!(self.out, "  waiting R{} ({state})", r.0)
            }
            Acquire::Failed(e) => writeln!(self.out, "  failed {e}"),
        }
        .unwrap();
        self.print_wakeups(w);
    }

    fn print_wakeups(&mut self, w: &Wakeups) {
        for g in &w.granted {
            let t = self.mdl.ticket(g.ticket).unwrap().mdl_type.abbrev();
            let line = format!(
                "  wake {}: R{} granted T{} {t}",
                self.name(g.ctx),
                g.request.0,
                g.ticket.0
            );
            writeln!(self.out, "{line}").unwrap();
        }
        for a in &w.aborted {
            let line = format!("  wake {}: R{} {}", self.name(a.ctx), a.request.0, a.error);
            writeln!(self.out, "{line}").unwrap();
        }
    }

    fn print_locks(&mut self) {
        let mut text = String::new();
        for r in self.mdl.metadata_locks() {
            let id = match r.id {
                MdlRowId::Ticket(t) => format!("T{}", t.0),
                MdlRowId::Request(q) => format!("R{}", q.0),
            };
            writeln!(
                text,
                "  {:<6} {:<4} {:<4} {:<20} {:<11} {:<7} {:<5} {id}",
                r.object_type,
                r.object_schema.as_deref().unwrap_or("NULL"),
                r.object_name.as_deref().unwrap_or("NULL"),
                r.lock_type.pfs_name(),
                r.lock_duration.pfs_name(),
                r.lock_status.pfs_name(),
                self.name(r.owner),
            )
            .unwrap();
        }
        if text.is_empty() {
            text.push_str("  (none)\n");
        }
        self.out.push_str(&text);
    }

    fn print_queues(&mut self) {
        let mut text = String::new();
        for q in self.mdl.queues() {
            writeln!(text, "  {}", q.key).unwrap();
            for e in q.granted.iter().chain(&q.waiting) {
                let blockers: Vec<String> = e
                    .blockers
                    .iter()
                    .map(|b| {
                        let s = b.status.pfs_name().to_lowercase();
                        format!("{} {} {s}", self.name(b.ctx), b.mdl_type.abbrev())
                    })
                    .collect();
                let arrow = if blockers.is_empty() {
                    String::new()
                } else {
                    format!(" <- {}", blockers.join(", "))
                };
                writeln!(
                    text,
                    "    {} {} {} {} since {}{arrow}",
                    e.status.pfs_name(),
                    self.name(e.ctx),
                    e.mdl_type.abbrev(),
                    e.duration.pfs_name(),
                    tick(e.since),
                )
                .unwrap();
            }
        }
        if text.is_empty() {
            text.push_str("  (none)\n");
        }
        self.out.push_str(&text);
    }

    fn print_waits(&mut self) {
        let mut text = String::new();
        for w in self.mdl.waits() {
            let blockers: Vec<String> = w
                .blockers
                .iter()
                .map(|b| {
                    let s = b.status.pfs_name().to_lowercase();
                    format!("{} {} {s}", self.name(b.ctx), b.mdl_type.abbrev())
                })
                .collect();
            writeln!(
                text,
                "  {} R{} {} {} [{}] since {} until {} <- {}",
                self.name(w.ctx),
                w.request.0,
                w.mdl_type.abbrev(),
                w.key,
                w.wait_state,
                tick(w.requested_at),
                tick(w.deadline),
                blockers.join(", ")
            )
            .unwrap();
        }
        self.out.push_str(&text);
    }
}

fn dur(s: &str) -> Tick {
    let num = |suffix: &str| s.strip_suffix(suffix).unwrap().parse::<u64>().unwrap();
    if s.ends_with("ns") {
        Tick::from_ns(num("ns"))
    } else if s.ends_with("ms") {
        Tick::from_ms(num("ms"))
    } else {
        Tick::from_secs(num("s"))
    }
}

fn tick(t: Tick) -> String {
    if Tick::from_secs(t.as_secs()) == t {
        format!("{}s", t.as_secs())
    } else {
        format!("{}ns", t.as_ns())
    }
}

fn ty(s: &str) -> MdlType {
    MdlType::from_abbrev(s).unwrap_or_else(|| panic!("no type {s}"))
}

fn ticket(s: &str) -> MdlTicketId {
    MdlTicketId(s.strip_prefix('T').unwrap().parse().unwrap())
}

fn key(s: &str) -> MdlKey {
    match s {
        "global" => MdlKey::global(),
        "commit" => MdlKey::commit(),
        "backup" => MdlKey::backup_lock(),
        _ => match s.strip_prefix("schema:") {
            Some(db) => MdlKey::schema(db),
            None => {
                let (db, t) = s.split_once('.').expect("db.table");
                MdlKey::table(db, t)
            }
        },
    }
}
