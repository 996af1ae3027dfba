//! The four figures a playbook is compared by, from a run's per-second throughput:
//! how long the DDL took, the mean transactions a second while it ran, its worst
//! second, and how many of its seconds fell under a tenth of the baseline.
//!
//! The same definitions serve the real server (sysbench's `--report-interval=1`
//! lines) and the simulator, so the two columns of the table mean one thing.

/// One second of the workload, as sysbench reports it: the second `[ Ns ]` covers
/// the interval (N-1, N] after sysbench started.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Second {
    pub end_s: u32,
    pub tps: f64,
}

/// Where the DDL ran, in seconds since the workload started.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub start_s: f64,
    pub end_s: f64,
}

/// What the table shows for one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figures {
    pub duration_s: f64,
    pub baseline_tps: f64,
    pub mean_tps_during: f64,
    pub worst_second_tps: f64,
    pub seconds_under_tenth: u32,
    /// The longest run of consecutive seconds under a tenth: the advisor's
    /// `worst_write_stall_s`.
    pub longest_stall_s: u32,
    /// The seconds that overlap the DDL.
    pub seconds_during: u32,
    /// The baseline seconds' standard deviation, in percent of their mean: how far
    /// one second strays with no DDL at all.
    pub baseline_sd_pct: f64,
    /// Two standard errors of the dip, in points: a real dip is not told from the
    /// simulated one within it. Made once, from the baseline's spread over the
    /// seconds during; made several times, from the makings' own dips.
    pub dip_noise_pct: f64,
}

impl Figures {
    /// The dip, in percent of the baseline.
    pub fn dip_pct(&self) -> f64 {
        100.0 * (1.0 - self.mean_tps_during / self.baseline_tps)
    }
}

/// A second sysbench reports before this is warm-up, not baseline: the pool and
/// the connections are still filling.
pub const WARM_UP_S: u32 = 5;

/// Reads one sysbench report line: `[ 12s ] thds: 8 tps: 250.95 qps: …`.
pub fn parse_report(line: &str) -> Option<Second> {
    let rest = line.trim_start().strip_prefix('[')?;
    let (secs, rest) = rest.split_once("s ]")?;
    let end_s = secs.trim().parse().ok()?;
    let tps = rest
        .split_once("tps:")?
        .1
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(Second { end_s, tps })
}

/// The figures of one run. The change was made once, or several times when it
/// takes under a second (`calibrate::real`: one second's dip is within a second's
/// noise, so a sub-second DDL is measured over several makings).
///
/// Made once, its baseline is the mean of the warm seconds wholly before it and
/// "during" the seconds that overlap it. Made several times, each making is held to
/// the seconds around it (the last wholly before it and the first wholly after it,
/// both clear of the undo between makings): the workload drifts by a fifth over
/// the half minute the makings span, and a baseline from before the first would
/// read that drift as the DDL's. The duration is a making's mean length, the longest
/// stall the longest within one making.
pub fn figures(seconds: &[Second], windows: &[Window]) -> Option<Figures> {
    let first = windows.first()?;
    let before: Vec<f64> = seconds
        .iter()
        .filter(|s| s.end_s > WARM_UP_S && f64::from(s.end_s) <= first.start_s)
        .map(|s| s.tps)
        .collect();
    let per_window: Vec<Vec<f64>> = windows.iter().map(|w| overlapping(seconds, *w)).collect();
    let during: Vec<f64> = per_window.concat();
    if before.is_empty() || during.is_empty() {
        return None;
    }
    let baseline_sd_pct = 100.0 * sd(&before) / mean(&before);
    let (baseline_tps, dip_noise_pct) = if windows.len() == 1 {
        let noise = 2.0 * baseline_sd_pct / (during.len() as f64).sqrt();
        (mean(&before), noise)
    } else {
        local_baseline(seconds, windows, &per_window)?
    };
    let stalled = |t: f64| t < baseline_tps / 10.0;
    let durations: Vec<f64> = windows.iter().map(|w| w.end_s - w.start_s).collect();
    Some(Figures {
        seconds_during: during.len() as u32,
        baseline_sd_pct,
        dip_noise_pct,
        duration_s: mean(&durations),
        baseline_tps,
        mean_tps_during: mean(&during),
        worst_second_tps: during.iter().copied().fold(f64::INFINITY, f64::min),
        seconds_under_tenth: during.iter().filter(|&&t| stalled(t)).count() as u32,
        longest_stall_s: per_window
            .iter()
            .map(|w| longest_run(w, stalled))
            .max()
            .unwrap_or(0),
    })
}

/// A repeated change's baseline, the mean of the seconds around each making, and
/// the noise of its dip: two standard errors of the makings' own dips.
fn local_baseline(
    seconds: &[Second],
    windows: &[Window],
    per_window: &[Vec<f64>],
) -> Option<(f64, f64)> {
    let mut around_all = Vec::new();
    let mut dips = Vec::new();
    for (w, during) in windows.iter().zip(per_window) {
        let around = around(seconds, *w)?;
        dips.push(100.0 * (1.0 - mean(during) / mean(&around)));
        around_all.extend(around);
    }
    let noise = 2.0 * sample_sd(&dips) / (dips.len() as f64).sqrt();
    Some((mean(&around_all), noise))
}

/// The last second wholly before `window` and the first wholly after it.
fn around(seconds: &[Second], window: Window) -> Option<[f64; 2]> {
    let before = seconds
        .iter()
        .rev()
        .find(|s| f64::from(s.end_s) <= window.start_s)?;
    let after = seconds
        .iter()
        .find(|s| f64::from(s.end_s) - 1.0 >= window.end_s)?;
    Some([before.tps, after.tps])
}

/// The throughput of the seconds that overlap `window`.
fn overlapping(seconds: &[Second], window: Window) -> Vec<f64> {
    seconds
        .iter()
        .filter(|s| f64::from(s.end_s) > window.start_s && f64::from(s.end_s) - 1.0 < window.end_s)
        .map(|s| s.tps)
        .collect()
}

fn longest_run(values: &[f64], stalled: impl Fn(f64) -> bool) -> u32 {
    let (mut longest, mut run) = (0, 0);
    for &v in values {
        run = if stalled(v) { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

pub(super) fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// The standard deviation of a whole population (the baseline's seconds).
fn sd(values: &[f64]) -> f64 {
    let m = mean(values);
    (values.iter().map(|v| (v - m).powi(2)).sum::<f64>() / values.len() as f64).sqrt()
}

/// The standard deviation of a sample (the makings' dips), n − 1 in the divisor.
fn sample_sd(values: &[f64]) -> f64 {
    let m = mean(values);
    let n = values.len().max(2) as f64;
    (values.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(tps: &[f64]) -> Vec<Second> {
        tps.iter()
            .enumerate()
            .map(|(i, &tps)| Second {
                end_s: i as u32 + 1,
                tps,
            })
            .collect()
    }

    #[test]
    fn reads_sysbench_report_lines() {
        let line = "[ 12s ] thds: 8 tps: 250.95 qps: 5036.93 (r/w/o: 3527.65/1005.80/503.48) \
                    lat (ms,99%): 44.98 err/s: 0.00 reconn/s: 0.00";
        assert_eq!(
            parse_report(line),
            Some(Second {
                end_s: 12,
                tps: 250.95
            })
        );
        assert_eq!(parse_report("Threads started!"), None);
        assert_eq!(parse_report("[ xs ] thds: 8 tps: 1"), None);
    }

    #[test]
    fn the_ddl_window_splits_baseline_from_during() {
        // Seconds 1–5 warm up (ignored), 6–10 at 100 tps, the DDL from 10.0 to 13.5:
        // seconds 11, 12, 13 and 14 overlap it.
        let tps = [
            1.0, 1.0, 1.0, 1.0, 1.0, 100.0, 100.0, 100.0, 100.0, 100.0, 5.0, 50.0, 9.0, 80.0, 100.0,
        ];
        let f = figures(
            &run(&tps),
            &[Window {
                start_s: 10.0,
                end_s: 13.5,
            }],
        )
        .unwrap();
        assert_eq!(f.baseline_tps, 100.0);
        assert_eq!(f.baseline_sd_pct, 0.0);
        assert_eq!(f.seconds_during, 4);
        assert_eq!(f.duration_s, 3.5);
        assert_eq!(f.worst_second_tps, 5.0);
        assert_eq!(f.seconds_under_tenth, 2);
        assert_eq!(f.longest_stall_s, 1);
        assert_eq!(f.mean_tps_during, (5.0 + 50.0 + 9.0 + 80.0) / 4.0);
    }

    #[test]
    fn the_longest_stall_is_consecutive_seconds() {
        let mut tps = vec![100.0; 10];
        tps.extend([5.0, 5.0, 50.0, 5.0, 5.0, 5.0, 100.0]);
        let f = figures(
            &run(&tps),
            &[Window {
                start_s: 10.0,
                end_s: 16.0,
            }],
        )
        .unwrap();
        assert_eq!((f.seconds_under_tenth, f.longest_stall_s), (5, 3));
    }

    #[test]
    fn a_one_second_dip_is_held_to_the_baselines_own_spread() {
        // Baseline seconds 6-10: 90, 110, 90, 110, 100 (sd 8.9 %); a 0.1 s DDL at 10.5
        // overlaps second 11 alone, at 80: a 20 % dip, just past two sd from none.
        let tps = [
            1.0, 1.0, 1.0, 1.0, 1.0, 90.0, 110.0, 90.0, 110.0, 100.0, 80.0,
        ];
        let f = figures(
            &run(&tps),
            &[Window {
                start_s: 10.5,
                end_s: 10.6,
            }],
        )
        .unwrap();
        assert_eq!(f.seconds_during, 1);
        assert!(
            (f.baseline_sd_pct - 8.94).abs() < 0.01,
            "{}",
            f.baseline_sd_pct
        );
        assert!((f.dip_pct() - 20.0).abs() < 1e-9);
        assert!((f.dip_noise_pct - 17.89).abs() < 0.01);
    }

    #[test]
    fn a_change_made_several_times_is_measured_over_all_its_windows() {
        // Baseline 6-10 at 100; three 0.2 s changes at 10, 14 and 18 overlap seconds
        // 11, 15 and 19 (90, 60, 0); the undo's seconds between (13, 17: 40) are in
        // neither the baseline nor the dip.
        let mut tps = vec![100.0; 20];
        tps[..5].fill(1.0);
        (tps[10], tps[14], tps[18]) = (90.0, 60.0, 0.0);
        (tps[12], tps[16]) = (40.0, 40.0);
        let windows = [10.0, 14.0, 18.0].map(|start_s| Window {
            start_s,
            end_s: start_s + 0.2,
        });
        let f = figures(&run(&tps), &windows).unwrap();
        assert_eq!(f.baseline_tps, 100.0);
        assert_eq!(f.seconds_during, 3);
        assert_eq!(f.mean_tps_during, 50.0);
        assert!((f.duration_s - 0.2).abs() < 1e-9);
        assert_eq!((f.worst_second_tps, f.seconds_under_tenth), (0.0, 1));
        assert_eq!(f.longest_stall_s, 1);
        // The makings' dips, 10, 40 and 100 %: sd 45.8, two standard errors 52.9.
        assert!(
            (f.dip_noise_pct - 52.92).abs() < 0.01,
            "{}",
            f.dip_noise_pct
        );
    }

    #[test]
    fn a_repeated_change_reads_no_dip_from_the_workloads_drift() {
        // The workload climbs 5 tps a second; changes that cost nothing, at 10, 14 and
        // 18, see each of their seconds at the mean of the seconds around it.
        let tps: Vec<f64> = (0..24).map(|i| 100.0 + 5.0 * f64::from(i)).collect();
        let windows = [10.0, 14.0, 18.0].map(|start_s| Window {
            start_s,
            end_s: start_s + 0.1,
        });
        let f = figures(&run(&tps), &windows).unwrap();
        assert!(f.dip_pct().abs() < 1e-9, "{}", f.dip_pct());
        assert!(f.dip_noise_pct < 1e-6);
        // The making at 18 alone, held to the warm seconds before it (6-18, mean
        // 155), reads the climb as a dip of -23 %.
        let once = figures(&run(&tps), &windows[2..]).unwrap();
        assert!((once.dip_pct() + 22.58).abs() < 0.01, "{}", once.dip_pct());
    }

    #[test]
    fn a_stall_does_not_run_on_across_windows() {
        // Two changes each stalling their one second: two stalls of one second, not one of two.
        let mut tps = vec![100.0; 16];
        (tps[10], tps[14]) = (0.0, 0.0);
        let windows = [10.0, 14.0].map(|start_s| Window {
            start_s,
            end_s: start_s + 0.5,
        });
        let f = figures(&run(&tps), &windows).unwrap();
        assert_eq!((f.seconds_under_tenth, f.longest_stall_s), (2, 1));
    }

    #[test]
    fn a_ddl_before_any_warm_second_has_no_figures() {
        assert_eq!(
            figures(
                &run(&[100.0; 8]),
                &[Window {
                    start_s: 3.0,
                    end_s: 4.0
                }]
            ),
            None
        );
    }
}
