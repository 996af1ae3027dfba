//! The typed statements of an exported session script, with each `KILL` of a console
//! tab named by its session (`KILL {s2}`): the processlist id the browser showed is
//! not the one a replay gives that tab (`ddlscope script` numbers its sessions
//! afresh, a real server its own way), but `{s2}` is s2's connection id wherever the
//! script runs. A `KILL` of anything else keeps its number, with a comment saying what
//! that number was in the browser.

use ddlscope_engine::{parse_sql, Sim, StatementOutcome, StatementRecord, Tick};

/// MySQL's `ER_NO_SUCH_THREAD`: the id was no thread's when the KILL ran.
const ER_NO_SUCH_THREAD: u16 = 1094;

/// The console tabs of a run, named as a script names them: `s1` the first console
/// session, then `s2`, `s3`... in the order they were opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tabs {
    /// Each tab's session id (its first connection's), in opening order.
    ids: Vec<u32>,
}

impl Tabs {
    /// The tabs of `sim`.
    pub fn of(sim: &Sim) -> Tabs {
        let first = sim.console_session();
        let mut ids = vec![first];
        ids.extend(sim.console_sessions().into_iter().filter(|&id| id != first));
        Tabs { ids }
    }

    /// Tab `session`'s name in the script.
    pub fn name(&self, session: u32) -> String {
        let i = self.ids.iter().position(|&id| id == session);
        format!("s{}", i.map_or(u64::from(session), |i| i as u64 + 1))
    }

    /// Every tab's name, in order: the script's `session` line.
    pub fn names(&self) -> Vec<String> {
        self.ids.iter().map(|&id| self.name(id)).collect()
    }
}

/// One typed input as a script line: its statements, and comments to put above it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The statements, `; `-separated, on one line.
    pub sql: String,
    /// What the comments say (without the `# `).
    pub notes: Vec<String>,
}

/// The statement records the browser made for inputs, taken in order: an input of `n`
/// statements typed into `session` at `at` owns the first `n` records of that
/// session and time not taken yet.
#[derive(Debug)]
pub struct Records<'a> {
    all: &'a [StatementRecord],
    taken: Vec<bool>,
}

impl<'a> Records<'a> {
    /// The records of `sim`.
    pub fn of(sim: &'a Sim) -> Records<'a> {
        let all = sim.statements();
        Records {
            all,
            taken: vec![false; all.len()],
        }
    }

    fn take(&mut self, session: u32, at: Tick, n: usize) -> Vec<&'a StatementRecord> {
        let mut out = Vec::with_capacity(n);
        for (i, r) in self.all.iter().enumerate() {
            if out.len() == n {
                break;
            }
            if !self.taken[i] && r.session == session && r.issued_at == at {
                self.taken[i] = true;
                out.push(r);
            }
        }
        out
    }
}

/// A statement as the user typed it.
#[derive(Clone, Copy, Debug)]
pub struct Typed<'a> {
    /// The console session it was typed into.
    pub session: u32,
    /// When.
    pub at: Tick,
    /// The text.
    pub sql: &'a str,
}

/// `typed` as a script line: unchanged unless it holds a `KILL`, whose target
/// becomes `{NAME}` when it was a tab's live connection.
pub fn script_line(sim: &Sim, tabs: &Tabs, records: &mut Records<'_>, typed: Typed<'_>) -> Line {
    let Typed { session, at, sql } = typed;
    let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let Ok(parsed) = parse_sql(sql) else {
        return Line {
            sql: one_line(sql),
            notes: Vec::new(),
        };
    };
    if parsed.iter().all(|p| p.kill_target().is_none()) {
        return Line {
            sql: one_line(sql),
            notes: Vec::new(),
        };
    }
    let mine = records.take(session, at, parsed.len());
    let mut notes = Vec::new();
    let texts: Vec<String> = parsed
        .iter()
        .enumerate()
        .map(|(k, p)| match p.kill_target() {
            None => p.text.clone(),
            Some((id, query)) => {
                let outcome = mine.get(k).and_then(|r| r.outcome.as_ref());
                let (text, note) = kill(sim, tabs, id, query, outcome, &p.text);
                notes.push(note);
                text
            }
        })
        .collect();
    Line {
        sql: one_line(&texts.join("; ")),
        notes,
    }
}

/// One `KILL [QUERY] id` as the script writes it, and the comment above it.
fn kill(
    sim: &Sim,
    tabs: &Tabs,
    id: u64,
    query: bool,
    outcome: Option<&StatementOutcome>,
    typed: &str,
) -> (String, String) {
    let missed =
        matches!(outcome, Some(StatementOutcome::Error { code, .. }) if *code == ER_NO_SUCH_THREAD);
    let tab = u32::try_from(id).ok().and_then(|c| sim.client_of(c));
    let threads = u64::from(sim.scenario().workload.threads);
    match tab {
        Some(tab) if !missed => {
            let name = tabs.name(tab);
            let verb = if query { "KILL QUERY" } else { "KILL" };
            (
                format!("{verb} {{{name}}}"),
                format!("{typed}: {id} was {name}'s connection in the browser; {{{name}}} is its id wherever this runs"),
            )
        }
        Some(tab) => (
            typed.to_string(),
            format!(
                "{typed}: {id} was a closed connection of {} in the browser (ERROR 1094 there); kept as typed, though here {id} may be another connection",
                tabs.name(tab)
            ),
        ),
        None if (1..=threads).contains(&id) => (
            typed.to_string(),
            format!(
                "{typed}: {id} was workload thread {id} of {threads} in the browser; `ddlscope script` runs the same workload, whose threads have the same ids; a real server runs none (ERROR 1094 there)"
            ),
        ),
        None => (
            typed.to_string(),
            format!("{typed}: {id} was no thread in the browser (ERROR 1094 there); kept as typed"),
        ),
    }
}
