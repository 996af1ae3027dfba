//! The bands on the charts' time axis: what happened when, so that a dip or a spike
//! lines up with its cause.
//!
//! ```text
//!   statement  [DROP TABLE t1]            a console statement, StatementStarted → Finished
//!   lock wait       [=========]           seconds in which sessions waited for a
//!                                         metadata or row lock, two or more in a row
//!   failover                  [////////|  writes stalled → the HA probe failed over
//! ```
//!
//! Lock waits come from the samples' `mdl_waits` and `row_lock_waits` (the most
//! sessions waiting at once in each second): a band covers a run of consecutive
//! seconds with a waiter, when the run is at least [`MIN_LOCK_WAIT_S`] long. A lone
//! second is left out: a busy server has sub-second lock waits all the time, and a
//! band for each would bury the ones that matter. Simplification: two waits of
//! different sessions back to back read as one band; the samples cannot tell them
//! apart, and an operator's dashboard could not either.
//!
//! The failover band runs from when the HA probe's heartbeat write started to hang to
//! the failover itself (`EventKind::Failover { stalled_for }`), ending in a marker.

use crate::model::format::secs_short;
use crate::model::spans::{DdlSpan, FailoverMark};
use ddlscope_engine::{Sample, Tick};

/// Shortest run of seconds with lock waiters that gets a band.
pub const MIN_LOCK_WAIT_S: u64 = 2;

/// What a band marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum BandKind {
    /// A console statement running.
    Statement,
    /// Sessions waiting for a metadata or row lock.
    LockWait,
    /// Writes stalled until the HA probe failed over.
    Failover,
}

impl BandKind {
    /// The name in the `data-band-hits` attribute and the legend.
    pub fn name(self) -> &'static str {
        match self {
            BandKind::Statement => "statement",
            BandKind::LockWait => "lock-wait",
            BandKind::Failover => "failover",
        }
    }
}

/// One band: a kind, a time span and what to say about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// What it marks.
    pub kind: BandKind,
    /// Start, and where a click on it seeks to.
    pub t0: Tick,
    /// End (now, for a statement still running).
    pub t1: Tick,
    /// The label drawn on it, shortened to fit.
    pub label: String,
    /// The tooltip: the whole story.
    pub title: String,
}

/// Every band, in the order drawn: lock waits (widest, at the back), statements,
/// failovers.
pub fn bands(
    samples: &[Sample],
    spans: &[DdlSpan],
    failovers: &[FailoverMark],
    now: Tick,
) -> Vec<Band> {
    let mut out = lock_wait_bands(samples);
    out.extend(statement_bands(spans, now));
    out.extend(failover_bands(failovers));
    out
}

/// The console statements' bands; one still running ends at `now`.
pub fn statement_bands(spans: &[DdlSpan], now: Tick) -> Vec<Band> {
    spans
        .iter()
        .map(|s| {
            let t1 = s.t1.unwrap_or(now).max(s.t0);
            let took = match s.t1 {
                Some(t1) => format!("ran {}", secs_short(t1 - s.t0)),
                None => format!("running for {}", secs_short(now.saturating_sub(s.t0))),
            };
            Band {
                kind: BandKind::Statement,
                t0: s.t0,
                t1,
                label: s.sql.clone(),
                title: format!(
                    "{} — at {}, {took}. Click to jump there.",
                    s.sql,
                    secs_short(s.t0)
                ),
            }
        })
        .collect()
}

/// Runs of at least [`MIN_LOCK_WAIT_S`] consecutive seconds in which some session
/// waited for a metadata lock or a row lock. A sample closes the second before it, so
/// a run of samples `a..=b` covers `[a - 1, b]` s.
pub fn lock_wait_bands(samples: &[Sample]) -> Vec<Band> {
    let mut out = Vec::new();
    let mut run: Option<(u64, u64, u64, u64)> = None; // first t_s, last t_s, peak MDL, peak row
    let close = |run: Option<(u64, u64, u64, u64)>, out: &mut Vec<Band>| {
        if let Some((a, b, mdl, row)) = run {
            if b + 1 - a >= MIN_LOCK_WAIT_S {
                out.push(lock_wait_band(a - 1, b, mdl, row));
            }
        }
    };
    for s in samples {
        let waiting = s.mdl_waits + s.row_lock_waits > 0;
        run = match run {
            // A gap in the samples (there is none in a run) ends a run too.
            Some((a, b, mdl, row)) if waiting && s.t_s == b + 1 => {
                Some((a, s.t_s, mdl.max(s.mdl_waits), row.max(s.row_lock_waits)))
            }
            _ => {
                close(run, &mut out);
                waiting.then_some((s.t_s, s.t_s, s.mdl_waits, s.row_lock_waits))
            }
        };
    }
    close(run, &mut out);
    out
}

fn lock_wait_band(from_s: u64, to_s: u64, mdl: u64, row: u64) -> Band {
    let what = match (mdl > 0, row > 0) {
        (true, true) => format!("up to {mdl} for a metadata lock and {row} for a row lock"),
        (true, false) => format!("up to {mdl} for a metadata lock"),
        _ => format!("up to {row} for a row lock"),
    };
    let label = if mdl >= row {
        format!("MDL wait ×{mdl}")
    } else {
        format!("row-lock wait ×{row}")
    };
    Band {
        kind: BandKind::LockWait,
        t0: Tick::from_secs(from_s),
        t1: Tick::from_secs(to_s),
        label,
        title: format!(
            "Lock waits from {from_s} s to {to_s} s: sessions waiting, {what}. Click to jump there."
        ),
    }
}

/// The failovers' bands: from the stalled write to the failover.
pub fn failover_bands(failovers: &[FailoverMark]) -> Vec<Band> {
    failovers
        .iter()
        .map(|f| Band {
            kind: BandKind::Failover,
            t0: f.stalled_from,
            t1: f.at,
            label: "failover".to_string(),
            title: format!(
                "Writes stalled from {}; the HA probe failed over at {} ({} later). Click to jump there.",
                secs_short(f.stalled_from),
                secs_short(f.at),
                secs_short(f.at.saturating_sub(f.stalled_from)),
            ),
        })
        .collect()
}

/// `text` in at most `max_chars` characters, with an ellipsis when cut.
pub fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        text.to_string()
    } else if max_chars == 0 {
        String::new()
    } else {
        text.chars().take(max_chars - 1).chain(['…']).collect()
    }
}

/// A sample at `t_s` with every figure zero, for tests.
#[cfg(test)]
pub(crate) fn tests_sample(t_s: u64) -> Sample {
    Sample {
        t_s,
        pages_total: 0,
        pages_data: 0,
        pages_dirty: 0,
        pages_free: 0,
        pages_misc: 0,
        pages_stale: 0,
        wait_free: 0,
        reads: 0,
        read_requests: 0,
        pages_flushed: 0,
        made_young: 0,
        made_not_young: 0,
        tps: 0,
        qps: 0,
        latency_avg_ms: 0.0,
        latency_p95_ms: 0.0,
        latency_p99_ms: 0.0,
        latency_max_ms: 0.0,
        threads_running: 0,
        checkpoint_age_mb: 0,
        errors: 0,
        mdl_waits: 0,
        row_lock_waits: 0,
        latch_waits: 0,
        replica_lag_s: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(t_s: u64, mdl: u64, row: u64) -> Sample {
        Sample {
            mdl_waits: mdl,
            row_lock_waits: row,
            latch_waits: 7,
            ..tests_sample(t_s)
        }
    }

    fn check(waits: &[(u64, u64)], expected: &[(u64, u64, &str)]) {
        let samples: Vec<Sample> = waits
            .iter()
            .enumerate()
            .map(|(i, &(m, r))| sample(i as u64 + 1, m, r))
            .collect();
        let got: Vec<(u64, u64, String)> = lock_wait_bands(&samples)
            .into_iter()
            .map(|b| (b.t0.as_secs(), b.t1.as_secs(), b.label))
            .collect();
        let expected: Vec<(u64, u64, String)> = expected
            .iter()
            .map(|&(a, b, l)| (a, b, l.to_string()))
            .collect();
        assert_eq!(got, expected, "{waits:?}");
    }

    #[test]
    fn lock_wait_bands_cover_runs_of_two_seconds_or_more() {
        check(&[(0, 0), (0, 0)], &[]);
        // Latch waits alone (7 in every sample) are no lock wait.
        check(&[(0, 0), (1, 0), (0, 0)], &[]);
        check(
            &[(0, 0), (1, 0), (3, 0), (2, 0), (0, 0)],
            &[(1, 4, "MDL wait ×3")],
        );
        check(&[(0, 1), (0, 4)], &[(0, 2, "row-lock wait ×4")]);
        check(
            &[(2, 0), (2, 0), (0, 0), (0, 1), (1, 0), (0, 0), (1, 0)],
            &[(0, 2, "MDL wait ×2"), (3, 5, "MDL wait ×1")],
        );
    }

    #[test]
    fn a_gap_in_the_samples_ends_a_run_and_the_title_says_who_waited() {
        let samples = [sample(4, 1, 0), sample(5, 1, 0), sample(9, 1, 2)];
        let b = lock_wait_bands(&samples);
        assert_eq!(b.len(), 1);
        assert_eq!((b[0].t0, b[0].t1), (Tick::from_secs(3), Tick::from_secs(5)));
        let both = lock_wait_bands(&[sample(1, 3, 1), sample(2, 1, 2)]);
        assert_eq!(
            both[0].title,
            "Lock waits from 0 s to 2 s: sessions waiting, up to 3 for a metadata lock and 2 for a row lock. Click to jump there."
        );
    }

    #[test]
    fn statements_run_to_now_and_failovers_to_the_failover() {
        let spans = [
            DdlSpan {
                session: 1,
                sql: "DROP TABLE t1".into(),
                t0: Tick::from_ms(10_500),
                t1: Some(Tick::from_ms(10_900)),
            },
            DdlSpan {
                session: 1,
                sql: "CREATE INDEX idx ON sbtest1(k)".into(),
                t0: Tick::from_secs(20),
                t1: None,
            },
        ];
        let failover = FailoverMark {
            stalled_from: Tick::from_secs(30),
            at: Tick::from_secs(60),
        };
        let all = bands(&[], &spans, &[failover], Tick::from_secs(65));
        let kinds: Vec<BandKind> = all.iter().map(|b| b.kind).collect();
        assert_eq!(
            kinds,
            [BandKind::Statement, BandKind::Statement, BandKind::Failover]
        );
        assert_eq!(
            all[0].title,
            "DROP TABLE t1 — at 10.5 s, ran 0.4 s. Click to jump there."
        );
        assert_eq!(
            (all[1].t0, all[1].t1),
            (Tick::from_secs(20), Tick::from_secs(65))
        );
        assert!(
            all[1].title.contains("running for 45.0 s"),
            "{}",
            all[1].title
        );
        assert_eq!(
            (all[2].t0, all[2].t1),
            (Tick::from_secs(30), Tick::from_secs(60))
        );
        assert!(all[2]
            .title
            .contains("failed over at 60.0 s (30.0 s later)"));
    }

    #[test]
    fn labels_are_shortened_with_an_ellipsis() {
        assert_eq!(shorten("DROP TABLE t1", 20), "DROP TABLE t1");
        assert_eq!(shorten("DROP TABLE t1", 8), "DROP TA…");
        assert_eq!(shorten("DROP TABLE t1", 0), "");
    }
}
