//! SHOW PROCESSLIST's rows as the processlist panel shows them (`ui::processlist`).
//!
//! The rows come from the engine's own processlist builder ([`Sim::processlist_rows`],
//! the rows SHOW PROCESSLIST formats), sorted by Id as the server lists them. The
//! runner copies them into the snapshot (~10 times a second) as small [`ProcRow`]s.
//!
//! The panel shows who matters first ([`who_matters_first`]): the sessions holding a
//! lock someone waits for (the idle transaction in Sleep), then the waiters (the
//! ALTER waiting for its metadata lock), then the presenter's console sessions, then
//! the workload's rows by Id; it shows the first [`FIRST_ROWS`] and counts the rest.

use ddlscope_engine::Sim;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// SHOW PROCESSLIST (without FULL) cuts `Info` to this many characters.
pub const INFO_CHARS: usize = 100;

/// One processlist row, as the panel shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProcRow {
    /// `Id`.
    pub id: u32,
    /// `User`.
    pub user: Cow<'static, str>,
    /// `Command`: `Query` or `Sleep`.
    pub command: Cow<'static, str>,
    /// `Time`, seconds.
    pub time_s: u64,
    /// `State`.
    pub state: String,
    /// `Info`, at most [`INFO_CHARS`] characters; `None` prints as NULL.
    pub info: Option<String>,
}

impl ProcRow {
    /// Whether the session waits for a lock ("Waiting for table metadata lock",
    /// "Waiting for global read lock", ...): the rows a presenter points at.
    pub fn is_waiting(&self) -> bool {
        self.state.starts_with("Waiting for")
    }
}

/// The processlist of `sim` now, as an observer outside every session sees it.
pub fn proc_rows(sim: &Sim) -> Vec<ProcRow> {
    sim.processlist_rows()
        .into_iter()
        .map(|r| ProcRow {
            id: r.id,
            user: r.user.into(),
            command: r.command.into(),
            time_s: r.time_s,
            state: r.state,
            info: r.info.map(|i| i.chars().take(INFO_CHARS).collect()),
        })
        .collect()
}

/// Rows the panel shows before "N more".
pub const FIRST_ROWS: usize = 10;

/// Why a row comes early in the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// Holds a lock another session waits for.
    Blocker,
    /// Waits for a lock.
    Waiting,
    /// One of the presenter's console sessions.
    Console,
    /// Anything else (the workload's clients).
    Other,
}

impl Role {
    /// The row's mark in `data-role`, and its words in the panel.
    pub fn name(self) -> &'static str {
        match self {
            Role::Blocker => "blocker",
            Role::Waiting => "waiting",
            Role::Console => "console",
            Role::Other => "other",
        }
    }
}

/// The rows in the panel's order, each with its [`Role`]: blockers, waiters (the
/// longest wait first), console sessions, the rest; by Id within each. A session
/// both waiting and blocking (an ALTER holding SU while it waits for X, with reads
/// queued behind) counts as a blocker.
pub fn who_matters_first(
    rows: &[ProcRow],
    blockers: &[u32],
    console: &[u32],
) -> Vec<(ProcRow, Role)> {
    let role = |r: &ProcRow| {
        if blockers.contains(&r.id) {
            Role::Blocker
        } else if r.is_waiting() {
            Role::Waiting
        } else if console.contains(&r.id) {
            Role::Console
        } else {
            Role::Other
        }
    };
    let mut out: Vec<(ProcRow, Role)> = rows.iter().map(|r| (r.clone(), role(r))).collect();
    out.sort_by_key(|(r, role)| {
        let wait = if *role == Role::Waiting { r.time_s } else { 0 };
        (*role, std::cmp::Reverse(wait), r.id)
    });
    out
}

/// Ids of the sessions in one waiting state named in the summary line, before "…".
const SUMMARY_IDS: usize = 4;

/// The line above the table: `19 sessions: 2 running, 16 Waiting for table metadata
/// lock (3, 4, 5, 6, …), 1 sleeping`. Waiting states are listed by count, largest
/// first, with the first few waiters' ids, so they can be found without scrolling; a
/// count of zero is left out.
pub fn summary(rows: &[ProcRow]) -> String {
    let mut waiting: Vec<(&str, Vec<u32>)> = Vec::new();
    let (mut running, mut sleeping) = (0u32, 0u32);
    for r in rows {
        if r.is_waiting() {
            match waiting.iter_mut().find(|(s, _)| *s == r.state) {
                Some((_, ids)) => ids.push(r.id),
                None => waiting.push((&r.state, vec![r.id])),
            }
        } else if r.command == "Sleep" {
            sleeping += 1;
        } else {
            running += 1;
        }
    }
    // Stable: equal counts keep the order of first appearance (by Id).
    waiting.sort_by_key(|w| std::cmp::Reverse(w.1.len()));
    let mut parts = Vec::new();
    if running > 0 {
        parts.push(format!("{running} running"));
    }
    parts.extend(waiting.iter().map(|(s, ids)| {
        let mut listed: Vec<String> = ids.iter().take(SUMMARY_IDS).map(u32::to_string).collect();
        if ids.len() > SUMMARY_IDS {
            listed.push("…".into());
        }
        format!("{} {s} ({})", ids.len(), listed.join(", "))
    }));
    if sleeping > 0 {
        parts.push(format!("{sleeping} sleeping"));
    }
    let n = rows.len();
    let sessions = if n == 1 { "session" } else { "sessions" };
    if parts.is_empty() {
        format!("{n} {sessions}")
    } else {
        format!("{n} {sessions}: {}", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddlscope_engine::Tick;

    fn r(id: u32, command: &'static str, state: &str) -> ProcRow {
        ProcRow {
            id,
            user: "sbtest".into(),
            command: command.into(),
            time_s: 0,
            state: state.into(),
            info: None,
        }
    }

    #[test]
    fn the_summary_counts_running_waiting_and_sleeping() {
        let mut rows = vec![r(1, "Sleep", "")];
        rows.extend((2..50).map(|i| r(i, "Query", "Sending data")));
        rows.extend((50..66).map(|i| r(i, "Query", "Waiting for table metadata lock")));
        assert_eq!(
            summary(&rows),
            "65 sessions: 48 running, 16 Waiting for table metadata lock (50, 51, 52, 53, …), 1 sleeping"
        );
        assert_eq!(summary(&rows[..1]), "1 session: 1 sleeping");
        assert_eq!(summary(&[]), "0 sessions");
        let mixed = [
            r(1, "Query", "Waiting for global read lock"),
            r(2, "Query", "Waiting for table metadata lock"),
            r(3, "Query", "Waiting for table metadata lock"),
        ];
        assert_eq!(
            summary(&mixed),
            "3 sessions: 2 Waiting for table metadata lock (2, 3), 1 Waiting for global read lock (1)"
        );
    }

    #[test]
    fn blockers_and_waiters_come_before_the_workload() {
        let mut rows: Vec<ProcRow> = (1..=16).map(|i| r(i, "Query", "Sending data")).collect();
        rows.push(r(17, "Sleep", ""));
        let mut alter = r(18, "Query", "Waiting for table metadata lock");
        alter.time_s = 9;
        rows.push(alter);
        rows.push(r(19, "Query", "Waiting for table metadata lock"));
        rows.push(r(20, "Sleep", ""));
        let order: Vec<(u32, Role)> = who_matters_first(&rows, &[17], &[17, 18, 19, 20])
            .into_iter()
            .map(|(r, role)| (r.id, role))
            .collect();
        assert_eq!(
            order[..5],
            [
                (17, Role::Blocker),
                (18, Role::Waiting),
                (19, Role::Waiting),
                (20, Role::Console),
                (1, Role::Other)
            ]
        );
        assert_eq!(order.len(), rows.len());
        assert!(order[5..].iter().all(|(_, role)| *role == Role::Other));
    }

    /// The rows come from the engine's SHOW PROCESSLIST builder: a CREATE INDEX
    /// waiting behind an open transaction on the demo's idle t1, with the demo's 16
    /// sysbench clients on t2 around it.
    #[test]
    fn a_waiting_alter_shows_in_the_rows_of_a_real_sim() {
        let mut sim = ddlscope_engine::Sim::builtin("drop-table-demo", Some("mysql-5.7")).unwrap();
        let s1 = sim.connect();
        let s2 = sim.connect();
        sim.submit_to(s1, "BEGIN; SELECT * FROM t1 WHERE id = 1")
            .unwrap();
        sim.run_for(Tick::from_ms(100));
        sim.submit_to(s2, "ALTER TABLE t1 ADD INDEX k2 (k)")
            .unwrap();
        sim.run_for(Tick::from_ms(2_500));
        let rows = proc_rows(&sim);
        let ids: Vec<u32> = rows.iter().map(|r| r.id).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        assert_eq!(ids, sorted, "sorted by Id");
        assert_eq!(rows.iter().filter(|r| r.user == "sbtest").count(), 16);
        let alter = rows.iter().find(|r| r.id == s2).unwrap();
        assert_eq!(alter.state, "Waiting for table metadata lock");
        assert_eq!(alter.command, "Query");
        assert_eq!(
            alter.info.as_deref(),
            Some("ALTER TABLE t1 ADD INDEX k2 (k)")
        );
        assert_eq!(alter.time_s, 2);
        let holder = rows.iter().find(|r| r.id == s1).unwrap();
        assert_eq!((&*holder.command, holder.info.as_deref()), ("Sleep", None));
        let line = summary(&rows);
        assert!(
            line.contains(&format!(" 1 Waiting for table metadata lock ({s2})")),
            "{line}"
        );
        assert!(
            line.starts_with(&format!("{} sessions: ", rows.len())),
            "{line}"
        );
    }
}
