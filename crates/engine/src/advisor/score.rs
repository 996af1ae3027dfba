//! A playbook's figures from its run, and the ranking: pure functions over what the
//! run recorded each second ([`Timeline`]).
//!
//! - **worst write stall**: the longest run of whole seconds, from the first step to
//!   the end of the run, whose committed transactions fell under 10% of the baseline
//!   (the mean of the seconds before the first step, the first two left out as the
//!   clients start). The workload's transactions stand for its writes: the advisor's
//!   workloads are sysbench's, whose transactions all write but `oltp_read_only`'s and
//!   `oltp_point_select`'s.
//! - **p99**: the 99th percentile of the workload's transaction latency from the first
//!   step to the end of the run, corrected for coordinated omission (a client stalled
//!   for 150 s counts the transactions it would have run meanwhile, one every baseline
//!   mean latency; `Sim::open_latency_span`): uncorrected, a closed loop's 16 stalled
//!   transactions would vanish among the thousands around them.
//! - **tps dip**: how far the mean transactions a second from the first step to the
//!   end of the last fell below the baseline, in percent (negative: above it).
//! - **total**: from the first step to the end of the last, seconds.
//! - **extra disk**: the most the file system held beyond what it held when the first
//!   step ran, GiB.
//! - **errors**: every step that failed, as the client printed it, and a playbook that
//!   did not end within the run: the change was not made.
//! - **workload errors**: statements of the workload that failed from the first step
//!   on (a metadata-lock deadlock, 1213, a lock wait timeout, 1205), which sysbench
//!   counts and retries. The change was made; the application saw errors.

use crate::metrics::Sample;
use crate::size::ByteSize;
use crate::time::Tick;

/// A stall is a second under this share of the baseline, in percent.
pub const STALL_PCT: u64 = 10;
/// Seconds at the start left out of the baseline while the clients ramp up.
const RAMP_S: u64 = 2;

/// What a playbook's run recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Timeline<'a> {
    /// One sample a second, `t_s` 1, 2, ...
    pub samples: &'a [Sample],
    /// Bytes the file system held at the end of each second: index `s` is the end of
    /// second `s` (index 0 the start).
    pub disk_bytes: &'a [u64],
    /// When the first step ran, s.
    pub first_step_s: u64,
    /// When the last step ended, if it did within the run.
    pub ended: Option<Tick>,
    /// The p99 transaction latency from the first step on, ms (corrected).
    pub p99_ms: f64,
    /// The steps that failed, as `statement: error`.
    pub step_errors: Vec<String>,
}

/// One playbook's figures.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Figures {
    /// The longest run of seconds under 10% of the baseline transactions.
    pub worst_write_stall_s: u64,
    /// The p99 transaction latency from the first step on, corrected for coordinated
    /// omission, ms.
    pub p99_ms: f64,
    /// Throughput lost while the playbook ran, percent of the baseline.
    pub tps_dip_pct: f64,
    /// From the first step to the end of the last, s.
    pub total_s: f64,
    /// The replica's apply lag at its worst, s; `None`: no replica in this run.
    pub replica_lag_s: Option<f64>,
    /// The most disk space used beyond the start's, GiB.
    pub extra_disk_gb: f64,
    /// What failed: the change was not made.
    pub errors: Vec<String>,
    /// Statements of the workload that failed from the first step on.
    pub workload_errors: u64,
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The mean transactions a second before the first step (the seconds after the ramp).
pub fn baseline_tps(samples: &[Sample], first_step_s: u64) -> f64 {
    let before: Vec<u64> = samples
        .iter()
        .filter(|s| s.t_s > RAMP_S && s.t_s <= first_step_s)
        .map(|s| s.tps)
        .collect();
    if before.is_empty() {
        return 0.0;
    }
    before.iter().sum::<u64>() as f64 / before.len() as f64
}

/// The mean transaction latency before the first step (the seconds after the ramp),
/// ms.
pub fn baseline_latency_ms(samples: &[Sample], first_step_s: u64) -> f64 {
    let before: Vec<f64> = samples
        .iter()
        .filter(|s| s.t_s > RAMP_S && s.t_s <= first_step_s)
        .map(|s| s.latency_avg_ms)
        .collect();
    before.iter().sum::<f64>() / before.len().max(1) as f64
}

/// The longest run of consecutive seconds in `samples` whose `tps` is under
/// [`STALL_PCT`] of `baseline`.
pub fn longest_stall(samples: &[&Sample], baseline: f64) -> u64 {
    let (mut run, mut worst) = (0u64, 0u64);
    for s in samples {
        if (s.tps as f64) * 100.0 < baseline * STALL_PCT as f64 {
            run += 1;
            worst = worst.max(run);
        } else {
            run = 0;
        }
    }
    worst
}

/// The playbook's figures.
pub fn score(t: &Timeline) -> Figures {
    let baseline = baseline_tps(t.samples, t.first_step_s);
    let last_s = t.samples.last().map_or(0, |s| s.t_s);
    let after: Vec<&Sample> = t
        .samples
        .iter()
        .filter(|s| s.t_s > t.first_step_s)
        .collect();
    let start = Tick::from_secs(t.first_step_s);
    let end = t.ended.unwrap_or(Tick::from_secs(last_s)).max(start);
    // The seconds the playbook ran in: up to the one its last step ended in.
    let end_s = end
        .as_ns()
        .div_ceil(Tick::SECOND.as_ns())
        .max(t.first_step_s + 1);
    let during: Vec<u64> = after
        .iter()
        .filter(|s| s.t_s <= end_s)
        .map(|s| s.tps)
        .collect();
    let mean = during.iter().sum::<u64>() as f64 / during.len().max(1) as f64;
    let tps_dip_pct = if baseline > 0.0 {
        round2((baseline - mean) / baseline * 100.0)
    } else {
        0.0
    };
    let at_start = t
        .disk_bytes
        .get(t.first_step_s as usize)
        .copied()
        .unwrap_or(0);
    let peak = t
        .disk_bytes
        .iter()
        .skip(t.first_step_s as usize)
        .copied()
        .max()
        .unwrap_or(at_start);
    let mut errors = t.step_errors.clone();
    if t.ended.is_none() {
        errors.push(format!(
            "not finished after {} s of the run",
            last_s.saturating_sub(t.first_step_s)
        ));
    }
    Figures {
        worst_write_stall_s: longest_stall(&after, baseline),
        p99_ms: round2(t.p99_ms),
        tps_dip_pct,
        total_s: round2((end - start).as_ns() as f64 / 1e9),
        // The worst Seconds_Behind_Master from the first step on (the tail included:
        // a replica applies a native DDL only after the source committed it).
        replica_lag_s: after
            .iter()
            .filter_map(|s| s.replica_lag_s)
            .max()
            .map(|lag| lag as f64),
        extra_disk_gb: round2(peak.saturating_sub(at_start) as f64 / ByteSize::GIB as f64),
        errors,
        workload_errors: after.iter().map(|s| s.errors).sum(),
    }
}

/// The order to try the playbooks in: those that made the change first (no errors),
/// then by worst write stall, the workload's failed statements, p99 latency,
/// throughput dip and total time. Returns indexes into `figures`, best first; ties
/// keep the given order.
pub fn rank(figures: &[Figures]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..figures.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&figures[a], &figures[b]);
        (!x.errors.is_empty())
            .cmp(&!y.errors.is_empty())
            .then(x.worst_write_stall_s.cmp(&y.worst_write_stall_s))
            .then(x.workload_errors.cmp(&y.workload_errors))
            .then(x.p99_ms.total_cmp(&y.p99_ms))
            .then(x.tps_dip_pct.total_cmp(&y.tps_dip_pct))
            .then(x.total_s.total_cmp(&y.total_s))
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn second(t_s: u64, tps: u64, p99: f64) -> Sample {
        Sample {
            t_s,
            tps,
            latency_p99_ms: p99,
            ..Sample::default()
        }
    }

    /// Ten seconds at 1000 tps (the first two at 100, ramping up), then `after`.
    fn run(after: &[u64]) -> Vec<Sample> {
        let mut v: Vec<Sample> = (1..=10)
            .map(|s| second(s, if s <= 2 { 100 } else { 1000 }, 2.0))
            .collect();
        for (i, tps) in after.iter().enumerate() {
            v.push(second(
                11 + i as u64,
                *tps,
                if *tps < 100 { 900.0 } else { 3.0 },
            ));
        }
        v
    }

    fn timeline<'a>(samples: &'a [Sample], disk: &'a [u64], ended_s: Option<u64>) -> Timeline<'a> {
        Timeline {
            samples,
            disk_bytes: disk,
            first_step_s: 10,
            ended: ended_s.map(Tick::from_secs),
            p99_ms: 900.004,
            step_errors: Vec::new(),
        }
    }

    #[test]
    fn the_baseline_leaves_out_the_ramp() {
        let mut s = run(&[]);
        s[0].latency_avg_ms = 50.0;
        for x in &mut s[2..] {
            x.latency_avg_ms = 2.5;
        }
        assert_eq!(baseline_tps(&s, 10), 1000.0);
        assert_eq!(baseline_latency_ms(&s, 10), 2.5);
    }

    #[test]
    fn the_worst_stall_is_the_longest_run_under_a_tenth() {
        // 99 is under 10% of 1000; 100 is not.
        let s = run(&[1000, 0, 0, 99, 100, 0, 0, 1000]);
        let f = score(&timeline(&s, &[0; 19], Some(18)));
        assert_eq!(f.worst_write_stall_s, 3);
        assert_eq!(f.p99_ms, 900.0, "rounded to 0.01 ms");
        // (1000 + 0 + 0 + 99 + 100 + 0 + 0 + 1000) / 8 = 274.875: 72.51% below.
        assert_eq!(f.tps_dip_pct, 72.51);
        assert_eq!(f.total_s, 8.0);
        assert!(f.errors.is_empty());
    }

    #[test]
    fn a_playbook_that_does_not_end_is_an_error_and_its_time_is_the_run() {
        let s = run(&[1000, 1000, 1000]);
        let f = score(&timeline(&s, &[0; 14], None));
        assert_eq!(f.total_s, 3.0);
        assert_eq!(
            f.errors,
            vec!["not finished after 3 s of the run".to_string()]
        );
    }

    #[test]
    fn extra_disk_is_the_peak_over_the_start() {
        let s = run(&[1000, 1000, 1000]);
        let gib = ByteSize::GIB;
        let mut disk = vec![50 * gib; 11];
        disk.extend([55 * gib, 60 * gib + gib / 2, 40 * gib]);
        let f = score(&timeline(&s, &disk, Some(13)));
        assert_eq!(f.extra_disk_gb, 10.5);
        // Space freed is not extra space.
        let f = score(&timeline(&s, &[50 * gib; 14], Some(13)));
        assert_eq!(f.extra_disk_gb, 0.0);
    }

    #[test]
    fn failed_workload_statements_are_counted_apart_from_the_playbooks_errors() {
        let mut s = run(&[1000, 1000]);
        s[9].errors = 3; // before the first step: not the playbook's
        s[11].errors = 7;
        let f = score(&timeline(&s, &[0; 13], Some(12)));
        assert_eq!(f.workload_errors, 7);
        assert!(f.errors.is_empty(), "{:?}", f.errors);
    }

    #[test]
    fn ranking_puts_errors_last_then_the_shortest_stall() {
        let f = |stall: u64, p99: f64, errors: usize, workload_errors: u64| Figures {
            worst_write_stall_s: stall,
            p99_ms: p99,
            tps_dip_pct: 0.0,
            total_s: 1.0,
            replica_lag_s: None,
            extra_disk_gb: 0.0,
            errors: vec!["x".into(); errors],
            workload_errors,
        };
        // A playbook that could not make the change (an ALGORITHM=INSTANT the server
        // refuses: no stall at all) ranks after every one that made it; among those
        // that did, the workload's failed statements come before latency.
        let figures = [
            f(150, 9.0, 0, 0),
            f(0, 1.0, 1, 0),
            f(2, 5.0, 0, 0),
            f(2, 4.0, 0, 0),
            f(2, 1.0, 0, 11),
        ];
        assert_eq!(rank(&figures), vec![3, 2, 4, 0, 1]);
    }
}
