//! What a question's answer is measured by: a figure or a name read off a running
//! [`Sim`] through the same views the app draws.

use crate::metrics::Sample;
use crate::sim::{Sim, StatementOutcome, StatementRecord};
use crate::time::Tick;
use serde::Deserialize;

/// `observe = { kind = "...", ... }` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawObserve {
    kind: String,
    session: Option<String>,
    sql: Option<String>,
    table: Option<String>,
    code: Option<u16>,
    column: Option<String>,
    from: Option<String>,
    to: Option<String>,
}

/// What the simulation shows, at the question's moment.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Observe {
    /// Seconds the first finished statement of `session` (starting with `sql`, if
    /// given) ran, as the `mysql` client reports it.
    StatementSeconds {
        /// The session.
        session: String,
        /// The statement's first words, if the session sent several.
        sql: Option<String>,
    },
    /// The HA probe's longest heartbeat write, seconds: how long writes stalled.
    WriteStallSeconds,
    /// Whether the HA probe failed the primary over: `yes` or `no`.
    FailedOver,
    /// The first session whose statement got error `code`.
    ErrorSession(u16),
    /// The error number `session`'s first failed statement got (0: none failed).
    SessionError(String),
    /// `session`'s state in the processlist.
    SessionState(String),
    /// The longest workload statement in the samples of `(from, to]`, seconds.
    MaxLatencySeconds(Window),
    /// The workload's mean transactions a second over `(from, to]`.
    TpsMean(Window),
    /// How much lower the main engine's mean tps is than the compare engine's, %.
    TpsDropPct(Window),
    /// Requests waiting in `table`'s metadata-lock queue.
    MdlWaiters(String),
    /// The session holding the oldest granted metadata lock on `table` while
    /// requests wait for it: the blocker to find.
    BlockerSession(String),
    /// The DDL statement that ran (the quiz): its text.
    DdlStatement,
    /// The largest value of a per-second counter (a [`Sample`] column, as
    /// `ddlscope run` names it) over `(from, to]`.
    SampleMax(String, Window),
    /// Its mean over `(from, to]`.
    SampleMean(String, Window),
}

/// Whole seconds of samples: those closing in `(from, to]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Window {
    /// Start, exclusive.
    pub from: Tick,
    /// End, inclusive.
    pub to: Tick,
}

/// A measurement.
#[derive(Clone, Debug, PartialEq)]
pub enum Observation {
    /// A figure.
    Number(f64),
    /// A name or a text.
    Text(String),
    /// Nothing to measure yet (the statement has not finished, nobody waits).
    Nothing(String),
}

impl std::fmt::Display for Observation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Observation::Number(x) => write!(f, "{}", round3(*x)),
            Observation::Text(t) => write!(f, "{t}"),
            Observation::Nothing(why) => write!(f, "nothing ({why})"),
        }
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The kinds, with their names in lesson files.
const KINDS: [&str; 14] = [
    "statement_seconds",
    "write_stall_seconds",
    "failed_over",
    "error_session",
    "session_error",
    "session_state",
    "max_latency_seconds",
    "tps_mean",
    "tps_drop_pct",
    "mdl_waiters",
    "blocker_session",
    "ddl_statement",
    "sample_max",
    "sample_mean",
];

impl Observe {
    pub(super) fn from_raw(r: &RawObserve) -> Result<Observe, String> {
        let need = |v: &Option<String>, what: &str| {
            v.clone()
                .ok_or_else(|| format!("observe '{}' needs {what} = \"...\"", r.kind))
        };
        let window = || -> Result<Window, String> {
            let t = |v: &Option<String>, what: &str| {
                let s = need(v, what)?;
                Tick::parse_duration(&s)
                    .ok_or_else(|| format!("observe.{what} '{s}': use 250ms, 2s or 1.5s"))
            };
            let (from, to) = (t(&r.from, "from")?, t(&r.to, "to")?);
            if to <= from {
                return Err(format!("observe: to {to} is not after from {from}"));
            }
            Ok(Window { from, to })
        };
        Ok(match r.kind.as_str() {
            "statement_seconds" => Observe::StatementSeconds {
                session: need(&r.session, "session")?,
                sql: r.sql.clone(),
            },
            "write_stall_seconds" => Observe::WriteStallSeconds,
            "failed_over" => Observe::FailedOver,
            "error_session" => Observe::ErrorSession(
                r.code
                    .ok_or("observe 'error_session' needs code = an error number")?,
            ),
            "session_error" => Observe::SessionError(need(&r.session, "session")?),
            "session_state" => Observe::SessionState(need(&r.session, "session")?),
            "max_latency_seconds" => Observe::MaxLatencySeconds(window()?),
            "tps_mean" => Observe::TpsMean(window()?),
            "tps_drop_pct" => Observe::TpsDropPct(window()?),
            "mdl_waiters" => Observe::MdlWaiters(need(&r.table, "table")?),
            "blocker_session" => Observe::BlockerSession(need(&r.table, "table")?),
            "ddl_statement" => Observe::DdlStatement,
            "sample_max" => Observe::SampleMax(column(&r.column)?, window()?),
            "sample_mean" => Observe::SampleMean(column(&r.column)?, window()?),
            k => return Err(format!("observe kind '{k}': one of {}", KINDS.join(", "))),
        })
    }

    /// Its name in lesson files.
    pub fn name(&self) -> &'static str {
        KINDS[match self {
            Observe::StatementSeconds { .. } => 0,
            Observe::WriteStallSeconds => 1,
            Observe::FailedOver => 2,
            Observe::ErrorSession(_) => 3,
            Observe::SessionError(_) => 4,
            Observe::SessionState(_) => 5,
            Observe::MaxLatencySeconds(_) => 6,
            Observe::TpsMean(_) => 7,
            Observe::TpsDropPct(_) => 8,
            Observe::MdlWaiters(_) => 9,
            Observe::BlockerSession(_) => 10,
            Observe::DdlStatement => 11,
            Observe::SampleMax(..) => 12,
            Observe::SampleMean(..) => 13,
        }]
    }

    /// Whether it measures a figure (else it names something).
    pub fn is_number(&self) -> bool {
        !matches!(
            self,
            Observe::FailedOver
                | Observe::ErrorSession(_)
                | Observe::SessionState(_)
                | Observe::BlockerSession(_)
                | Observe::DdlStatement
        )
    }

    /// Whether it compares the two engines.
    pub fn needs_compare(&self) -> bool {
        matches!(self, Observe::TpsDropPct(_))
    }

    /// The session it names, if any.
    pub fn session(&self) -> Option<&str> {
        match self {
            Observe::StatementSeconds { session, .. }
            | Observe::SessionError(session)
            | Observe::SessionState(session) => Some(session),
            _ => None,
        }
    }

    /// Measures it on `sim` (and `compare`, the second engine, if any). `sessions`
    /// maps the lesson's session names to processlist ids.
    pub fn measure(
        &self,
        sim: &Sim,
        compare: Option<&Sim>,
        sessions: &[(String, u32)],
    ) -> Observation {
        let id = |name: &str| sessions.iter().find(|(n, _)| n == name).map(|(_, id)| *id);
        let name = |id: u32| {
            sessions
                .iter()
                .find(|(_, i)| *i == id)
                .map_or_else(|| format!("thread {id}"), |(n, _)| n.clone())
        };
        match self {
            Observe::StatementSeconds { session, sql } => {
                let found = sim.statements().iter().find(|s| {
                    Some(s.session) == id(session)
                        && s.finished_at.is_some()
                        && sql.as_deref().is_none_or(|p| starts_with_words(&s.sql, p))
                });
                found.map_or_else(
                    || Observation::Nothing(format!("{session}'s statement has not finished")),
                    |s| Observation::Number(elapsed(s).as_secs_f64()),
                )
            }
            Observe::WriteStallSeconds => {
                Observation::Number(sim.probe_longest_write().as_secs_f64())
            }
            Observe::FailedOver => {
                Observation::Text(if sim.failed_over() { "yes" } else { "no" }.into())
            }
            Observe::ErrorSession(code) => sim
                .statements()
                .iter()
                .find(|s| error_code(s) == Some(*code))
                .map_or_else(
                    || Observation::Nothing(format!("no statement got error {code}")),
                    |s| Observation::Text(name(s.session)),
                ),
            Observe::SessionError(session) => Observation::Number(
                sim.statements()
                    .iter()
                    .filter(|s| Some(s.session) == id(session))
                    .find_map(error_code)
                    .map_or(0.0, f64::from),
            ),
            Observe::SessionState(session) => sim
                .sessions()
                .iter()
                .find(|v| Some(v.id) == id(session))
                .map_or_else(
                    || Observation::Nothing(format!("{session} is not connected")),
                    |v| Observation::Text(v.state.to_string()),
                ),
            Observe::MaxLatencySeconds(w) => Observation::Number(
                window(sim, *w)
                    .map(|s| s.latency_max_ms)
                    .fold(0.0, f64::max)
                    / 1000.0,
            ),
            Observe::TpsMean(w) => Observation::Number(tps_mean(sim, *w)),
            Observe::TpsDropPct(w) => match compare {
                Some(c) => {
                    let base = tps_mean(c, *w);
                    Observation::Number((base - tps_mean(sim, *w)) / base.max(1e-9) * 100.0)
                }
                None => Observation::Nothing("no compare engine".into()),
            },
            Observe::MdlWaiters(table) => {
                Observation::Number(table_queue(sim, table).map_or(0, |q| q.waiting.len()) as f64)
            }
            Observe::BlockerSession(table) => table_queue(sim, table)
                .filter(|q| !q.waiting.is_empty())
                .and_then(|q| q.granted.first().map(|g| name(g.ctx.0)))
                .map_or_else(
                    || Observation::Nothing(format!("nothing waits on {table}")),
                    Observation::Text,
                ),
            Observe::DdlStatement => sim
                .statements()
                .iter()
                .find(|s| s.finished_at.is_some() && is_ddl(&s.sql))
                .map_or_else(
                    || Observation::Nothing("no DDL statement finished".into()),
                    |s| Observation::Text(s.sql.clone()),
                ),
            Observe::SampleMax(c, w) => {
                Observation::Number(column_values(sim, c, *w).fold(0.0, f64::max))
            }
            Observe::SampleMean(c, w) => {
                let (n, sum) =
                    column_values(sim, c, *w).fold((0u32, 0.0), |(n, s), v| (n + 1, s + v));
                Observation::Number(sum / f64::from(n.max(1)))
            }
        }
    }

    /// Whether `choice` names what was observed: the same text for a name, every word
    /// of the choice in order in the statement for [`Observe::DdlStatement`].
    pub fn matches(&self, choice: &str, observed: &Observation) -> bool {
        let Observation::Text(t) = observed else {
            return false;
        };
        match self {
            Observe::DdlStatement => words_in_order(t, choice),
            _ => t.eq_ignore_ascii_case(choice.trim()),
        }
    }
}

fn elapsed(s: &StatementRecord) -> Tick {
    s.finished_at.unwrap_or(s.issued_at) - s.started_at.unwrap_or(s.issued_at)
}

fn error_code(s: &StatementRecord) -> Option<u16> {
    match s.outcome {
        Some(StatementOutcome::Error { code, .. }) => Some(code),
        _ => None,
    }
}

fn window(sim: &Sim, w: Window) -> impl Iterator<Item = &Sample> {
    let (from, to) = (w.from.as_secs_f64(), w.to.as_secs_f64());
    sim.samples()
        .iter()
        .filter(move |s| (s.t_s as f64) > from && (s.t_s as f64) <= to)
}

/// The replica's lag, the column `ddlscope run` adds when the scenario has a replica.
const REPLICA_LAG: &str = "replica_lag_s";

/// `column` of the samples in `w`, as numbers (seconds without a replica have no
/// `replica_lag_s`).
fn column_values<'a>(sim: &'a Sim, column: &str, w: Window) -> impl Iterator<Item = f64> + 'a {
    let lag = column == REPLICA_LAG;
    let i = Sample::COLUMNS.iter().position(|c| *c == column);
    window(sim, w).filter_map(move |s| match lag {
        true => s.replica_lag_s.map(|v| v as f64),
        false => s.row()[i?].parse().ok(),
    })
}

/// A [`Sample`] column's name, checked.
fn column(c: &Option<String>) -> Result<String, String> {
    let c = c
        .clone()
        .ok_or("observe 'sample_max' and 'sample_mean' need column = \"...\"")?;
    if !Sample::COLUMNS.contains(&c.as_str()) && c != REPLICA_LAG {
        return Err(format!(
            "observe column '{c}': one of {}, {REPLICA_LAG}",
            Sample::COLUMNS.join(", ")
        ));
    }
    Ok(c)
}

fn tps_mean(sim: &Sim, w: Window) -> f64 {
    let (n, sum) = window(sim, w).fold((0u64, 0u64), |(n, sum), s| (n + 1, sum + s.tps));
    sum as f64 / n.max(1) as f64
}

fn table_queue(sim: &Sim, table: &str) -> Option<crate::mdl::MdlQueue> {
    sim.mdl_queues().into_iter().find(|q| {
        q.key
            .object_name()
            .is_some_and(|n| n.eq_ignore_ascii_case(table))
    })
}

fn upper_words(s: &str) -> Vec<String> {
    s.split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_uppercase)
        .collect()
}

fn starts_with_words(sql: &str, prefix: &str) -> bool {
    let (s, p) = (upper_words(sql), upper_words(prefix));
    s.len() >= p.len() && s[..p.len()] == p[..]
}

fn words_in_order(sql: &str, choice: &str) -> bool {
    let mut words = upper_words(sql).into_iter();
    upper_words(choice)
        .iter()
        .all(|c| words.by_ref().any(|w| &w == c))
}

fn is_ddl(sql: &str) -> bool {
    const DDL: [&str; 6] = ["ALTER", "CREATE", "DROP", "TRUNCATE", "RENAME", "OPTIMIZE"];
    upper_words(sql)
        .first()
        .is_some_and(|w| DDL.contains(&w.as_str()))
}
