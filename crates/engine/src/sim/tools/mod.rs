//! Online schema-change tools as clients of the server: each is a thread of its own
//! that opens connections like any client, sends the statements the real tool sends
//! (`Sim::submit_one`, one query each), reads their results and decides what to send
//! next, with the tool's timeouts, retries and throttling. Every lock they meet is the
//! server's: metadata locks, row locks and the AUTO-INC lock come from the statements,
//! never from here.
//!
//! ```text
//!   scenario [[script]] tool = "pt-online-schema-change ..."  (scenario/tool.rs)
//!        │ Sim::start_tool: a thread, its connections (woken when a statement ends)
//!        ▼
//!   step_tool ──▶ pt_osc.rs  new table, ALTER, triggers, chunked copy, swap, drop
//!             └─▶ gh_ost.rs  ghost table, ALTER, changelog, copy + binlog apply,
//!                            atomic cut-over (sentry table, LOCK TABLES, RENAME)
//! ```
//!
//! What a tool prints as it goes is a `ToolStatus` event; its progress is
//! [`ToolView`] (`Sim::tools`).

mod gh_ost;
mod pt_osc;

use crate::events::EventKind;
use crate::scenario::tool::ToolCommand;
use crate::sim::{Next, Sim, Thread};
use crate::sql::SqlError;
use crate::time::Tick;
use crate::ThreadId;
use serde::Serialize;

/// What a tool has done so far, for tests and viewers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ToolView {
    /// `pt-online-schema-change` or `gh-ost`.
    pub tool: &'static str,
    /// The table it changes.
    pub table: String,
    /// Where it is, in the tool's words (`copying rows`, `throttled: ...`, `done`).
    pub state: String,
    /// Rows copied (rows the copy statements inserted or ignored).
    pub rows_copied: u64,
    /// Copy statements (chunks) sent.
    pub chunks: u64,
    /// Seconds it spent throttled (paused by its load or lag checks).
    pub throttled_ms: u64,
    /// Statements that failed with a lock wait timeout (1205) and were retried.
    pub lock_wait_timeouts: u32,
    /// gh-ost: binlog row events applied to the ghost table.
    pub events_applied: u64,
    /// gh-ost: the oldest unapplied row event's age, ms (0: caught up).
    pub apply_lag_ms: u64,
    /// gh-ost: cut-over attempts.
    pub cut_over_attempts: u32,
    /// When it finished (the swap done and cleaned up), if it did.
    pub finished_at: Option<Tick>,
    /// Why it gave up, if it did.
    pub failed: Option<String>,
}

/// A tool's thread.
#[derive(Clone, Debug)]
pub(super) struct Tool {
    kind: ToolKind,
    /// Its index in `Sim::tools`' views.
    view: usize,
    /// A timed wait, if it is in one: it sleeps until then (a statement of its
    /// ending meanwhile wakes it early, and it goes back to sleep).
    sleep_until: Option<Tick>,
}

#[derive(Clone, Debug)]
enum ToolKind {
    PtOsc(Box<pt_osc::PtOsc>),
    GhOst(Box<gh_ost::GhOst>),
}

/// What a statement a tool sent came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Sent {
    /// Still running or waiting.
    Pending,
    /// Done; its message (`Query OK, 5 rows affected`, `Records: 5 ...`).
    Ok(String),
    /// Failed with this error.
    Failed(u16, String),
}

impl Sim {
    /// Starts the tool `line` describes (checked when the scenario was read).
    pub(super) fn start_tool(&mut self, line: &str) {
        let cmd = match ToolCommand::parse(line) {
            Ok(c) => c,
            Err(e) => {
                self.emit(EventKind::ToolStatus {
                    tool: "tool".into(),
                    message: e,
                    error: true,
                });
                return;
            }
        };
        let view = self.tool_views.len();
        let name = match &cmd {
            ToolCommand::PtOsc(_) => "pt-online-schema-change",
            ToolCommand::GhOst(_) => "gh-ost",
        };
        self.tool_views.push(ToolView {
            tool: name,
            table: cmd.table().to_owned(),
            state: "starting".into(),
            ..ToolView::default()
        });
        let id = self.sched.spawn(Thread::Exited);
        let schema = self.scenario.schema.clone();
        let kind = match cmd {
            ToolCommand::PtOsc(o) => {
                let conn = self.connect_program(id);
                ToolKind::PtOsc(Box::new(pt_osc::PtOsc::new(o, &schema, conn)))
            }
            ToolCommand::GhOst(o) => {
                let conns = [
                    self.connect_program(id),
                    self.connect_program(id),
                    self.connect_program(id),
                ];
                let reader = self.binlog.add_reader();
                ToolKind::GhOst(Box::new(gh_ost::GhOst::new(o, &schema, conns, reader)))
            }
        };
        self.sched.threads[id.0 as usize] = Thread::Tool(Box::new(Tool {
            kind,
            view,
            sleep_until: None,
        }));
        let now = self.sched.now;
        self.sched.schedule_thread(now, id);
    }

    /// The tools started so far, in order.
    pub fn tools(&self) -> &[ToolView] {
        &self.tool_views
    }

    /// One step of a tool's thread.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    pub(super) fn step_tool(&mut self, t: ThreadId, tool: &mut Tool) -> Next {
        if let Some(until) = tool.sleep_until {
            if self.sched.now < until {
                return Next::After(until - self.sched.now);
            }
            tool.sleep_until = None;
        }
        let view = tool.view;
        let next = match &mut tool.kind {
            ToolKind::PtOsc(p) => self.step_pt_osc(t, view, p),
            ToolKind::GhOst(g) => {
                let next = self.step_gh_ost(t, view, g);
                if next == Next::Exit {
                    // Its binlog streamer stops reading.
                    self.binlog.remove_reader(g.reader());
                }
                next
            }
        };
        if let Next::After(d) = next {
            if d > Tick::ZERO {
                tool.sleep_until = Some(self.sched.now + d);
            }
        }
        next
    }

    /// Sends `sql` on connection `conn` as one query; its statement's id, or the
    /// error that refused it at once (a syntax error).
    pub(super) fn tool_send(&mut self, conn: u32, sql: &str) -> Result<u32, SqlError> {
        self.submit_one(conn, sql)
    }

    /// What statement `id` came to.
    pub(super) fn tool_result(&self, id: u32) -> Sent {
        use crate::sim::StatementOutcome;
        match &self.sql.statements[id as usize].outcome {
            None => Sent::Pending,
            Some(StatementOutcome::Ok { message, .. }) => Sent::Ok(message.clone()),
            Some(StatementOutcome::Error { code, message, .. }) => {
                Sent::Failed(*code, message.clone())
            }
        }
    }

    /// The processlist state of connection `conn` (what `SHOW PROCESSLIST` shows).
    pub(super) fn tool_peer_state(&self, conn: u32) -> &'static str {
        self.sql.sessions.get(&conn).map_or("", |s| s.state)
    }

    /// `SHOW GLOBAL STATUS LIKE 'Threads_running'`'s answer now.
    pub(super) fn tool_threads_running(&self) -> u64 {
        self.threads_running()
    }

    /// The tool says something (a line of its output).
    pub(super) fn tool_say(&mut self, view: usize, message: String, error: bool) {
        let tool = self.tool_views[view].tool.to_owned();
        self.emit(EventKind::ToolStatus {
            tool,
            message,
            error,
        });
    }

    /// The tool's view, to update.
    pub(super) fn tool_view(&mut self, view: usize) -> &mut ToolView {
        &mut self.tool_views[view]
    }

    /// The tool gives up: `message` said, its view marked.
    pub(super) fn tool_fail(&mut self, view: usize, message: String) -> Next {
        self.tool_say(view, message.clone(), true);
        let v = self.tool_view(view);
        v.state = "failed".into();
        v.failed = Some(message);
        Next::Exit
    }

    /// The tool is done.
    pub(super) fn tool_done(&mut self, view: usize) -> Next {
        let now = self.sched.now;
        let v = self.tool_view(view);
        v.state = "done".into();
        v.finished_at = Some(now);
        self.tool_say(view, "Successfully altered the table.".into(), false);
        Next::Exit
    }
}

/// `Records: N  Duplicates: D  Warnings: W` or `N rows affected`: N.
pub(super) fn rows_of(message: &str) -> u64 {
    let after = |key: &str| {
        message
            .split(key)
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.trim_end_matches(',').parse().ok())
    };
    after("Records: ")
        .or_else(|| {
            message
                .split_whitespace()
                .zip(message.split_whitespace().skip(1))
                .find(|(_, w)| w.starts_with("row"))
                .and_then(|(n, _)| n.parse().ok())
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_rows_a_statement_reports() {
        assert_eq!(super::rows_of("Query OK, 12 rows affected"), 12);
        assert_eq!(
            super::rows_of("Query OK, 7 rows affected\nRecords: 9  Duplicates: 2  Warnings: 2"),
            9
        );
        assert_eq!(super::rows_of("Query OK, 0 rows affected"), 0);
    }
}
