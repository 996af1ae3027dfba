//! The moments worth finding on the timeline: statements starting and finishing,
//! metadata-lock waits starting and ending, DDL phases. The scrubber draws them; step
//! and back move from one to the next.

use ddlscope_engine::{Event, EventKind, Tick};
use serde::{Deserialize, Serialize};

/// What happened at a mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum MarkKind {
    /// A statement started or finished.
    Statement,
    /// A metadata-lock wait started or ended.
    LockWait,
    /// A DDL statement entered a phase.
    DdlPhase,
}

impl MarkKind {
    /// Its CSS class and test id suffix.
    pub fn name(self) -> &'static str {
        match self {
            MarkKind::Statement => "statement",
            MarkKind::LockWait => "lock-wait",
            MarkKind::DdlPhase => "ddl-phase",
        }
    }
}

/// One mark.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Mark {
    /// When.
    pub at: Tick,
    /// What kind.
    pub kind: MarkKind,
    /// In words, for the marker's title.
    pub label: String,
}

/// The mark `e` makes, if it makes one.
pub fn mark_of(e: &Event) -> Option<Mark> {
    let (kind, label) = match &e.kind {
        EventKind::StatementStarted { sql, .. } => (MarkKind::Statement, format!("started: {sql}")),
        EventKind::StatementFinished { sql, error, .. } => (
            MarkKind::Statement,
            format!("{}: {sql}", if *error { "failed" } else { "finished" }),
        ),
        EventKind::MdlWaitStarted {
            lock, lock_type, ..
        } => (
            MarkKind::LockWait,
            format!("waits for {lock_type} on {lock}"),
        ),
        EventKind::MdlWaitEnded { error, .. } => (
            MarkKind::LockWait,
            match error {
                Some(code) => format!("lock wait failed ({code})"),
                None => "lock granted".to_string(),
            },
        ),
        EventKind::DdlPhase { table, phase, .. } => {
            (MarkKind::DdlPhase, format!("{table}: {phase}"))
        }
        _ => return None,
    };
    Some(Mark {
        at: e.at,
        kind,
        label,
    })
}

/// Adds `m` to the time-ordered `marks` unless it is there already (a seek back reads
/// the same events again).
pub fn add(marks: &mut Vec<Mark>, m: Mark) {
    let i = marks.partition_point(|x| x.at < m.at);
    if marks[i..]
        .iter()
        .take_while(|x| x.at == m.at)
        .any(|x| *x == m)
    {
        return;
    }
    let j = marks.partition_point(|x| x.at <= m.at);
    marks.insert(j, m);
}

/// The first mark after `t`.
pub fn next_after(marks: &[Mark], t: Tick) -> Option<Tick> {
    marks.iter().map(|m| m.at).find(|at| *at > t)
}

/// The last mark before `t`.
pub fn prev_before(marks: &[Mark], t: Tick) -> Option<Tick> {
    marks.iter().rev().map(|m| m.at).find(|at| *at < t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(ms: u64, kind: MarkKind) -> Mark {
        Mark {
            at: Tick::from_ms(ms),
            kind,
            label: String::new(),
        }
    }

    #[test]
    fn marks_stay_ordered_and_unique_and_step_between_them() {
        let mut marks = Vec::new();
        for x in [
            m(20, MarkKind::Statement),
            m(10, MarkKind::LockWait),
            m(20, MarkKind::Statement),
            m(20, MarkKind::DdlPhase),
        ] {
            add(&mut marks, x);
        }
        assert_eq!(marks.len(), 3);
        assert_eq!(marks[0].at, Tick::from_ms(10));
        assert_eq!(
            next_after(&marks, Tick::from_ms(10)),
            Some(Tick::from_ms(20))
        );
        assert_eq!(next_after(&marks, Tick::from_ms(20)), None);
        assert_eq!(
            prev_before(&marks, Tick::from_ms(20)),
            Some(Tick::from_ms(10))
        );
        assert_eq!(prev_before(&marks, Tick::from_ms(10)), None);
    }
}
