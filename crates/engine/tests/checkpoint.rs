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
    // The first commit past max_checkpoint_age asks for a furious flush up to its own
    // LSN (buf_flush_ahead()), not to the writers' 1 MB step: in the slowest second the
    // page cleaner writes batch after batch of innodb_io_capacity_max (2,000) pages.
    let worst = on.iter().find(|s| s.tps == slowest).unwrap();
    assert!(
        worst.pages_flushed >= 2 * 2_000,
        "{} pages flushed in the slowest second",
        worst.pages_flushed
    );
    // And the log is emptied: the age right after is below the async point.
    let after = on.iter().find(|s| s.t_s == worst.t_s + 1).unwrap();
    assert!(
        after.checkpoint_age_mb < 11,
        "age {} MB after",
        after.checkpoint_age_mb
    );
}
