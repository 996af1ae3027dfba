//! `log_checkpoint_margin()` (MariaDB 10.5+, `sim/checkpoint.rs`): an index build whose
//! bulk load logs its pages fills a small redo log, and every writer waits for the
//! page cleaner's sync flush and checkpoint, as on the calibration server.

use ddlscope_engine::{Profile, Sample, Scenario, Sim, Tick};

/// The fixture's samples, with the profile's `checkpoint_margin` as given.
fn samples(checkpoint_margin: bool) -> Vec<Sample> {
    let path = format!(
        "{}/tests/checkpoint-margin.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let scenario = Scenario::from_toml(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut profile = Profile::builtin(&scenario.profile).unwrap();
    assert!(profile.mechanisms.checkpoint_margin, "MariaDB 10.11 has it");
    profile.mechanisms.checkpoint_margin = checkpoint_margin;
    let mut sim = Sim::new(scenario, profile).unwrap();
    sim.run_until(Tick::from_secs(25));
    sim.samples().to_vec()
}

/// Mean transactions a second over seconds `(from, to]`.
fn mean_tps(s: &[Sample], from: u64, to: u64) -> f64 {
    let tps: Vec<u64> = s
        .iter()
        .filter(|x| x.t_s > from && x.t_s <= to)
        .map(|x| x.tps)
        .collect();
    tps.iter().sum::<u64>() as f64 / tps.len() as f64
}

/// The slowest second of the build (the ALTER starts at 10 s).
fn min_tps_during_build(s: &[Sample]) -> u64 {
    s.iter()
        .filter(|x| x.t_s > 10 && x.t_s <= 22)
        .map(|x| x.tps)
        .min()
        .unwrap()
}

#[test]
fn the_bulk_load_fills_the_log_and_writers_wait_for_the_checkpoint() {
    let on = samples(true);
    let baseline = mean_tps(&on, 2, 10);
    let slowest = min_tps_during_build(&on);
    for s in &on {
        eprintln!(
            "{:>3} s  tps {:>5}  age {:>2} MB  dirty {:>5}  flushed {:>5}",
            s.t_s, s.tps, s.checkpoint_age_mb, s.pages_dirty, s.pages_flushed
        );
    }
    // The age counts from the last checkpoint written and never passes the log.
    let max_age = on.iter().map(|s| s.checkpoint_age_mb).max().unwrap();
    assert!(max_age <= 16, "checkpoint age {max_age} MB in a 16 MB log");
    // While the load waits for the sync flush, so does the workload: a second under
    // 40% of the baseline (the real server: 10-15% for 5 s, docs/testing.md).
    assert!(
        (slowest as f64) < baseline * 0.4,
        "slowest second {slowest} tps against a baseline of {baseline:.0}"
    );
    // Counted from the oldest modification with waits at 15/16 of the log, the
    // writers barely notice.
    let off = samples(false);
    let slowest_off = min_tps_during_build(&off);
    assert!(
        slowest_off > slowest * 3 / 2,
        "without the margin the slowest second is {slowest_off} tps, with it {slowest}"
    );
}
