//! Long runs stay bounded: sysbench oltp_read_write for hours of virtual time with a
//! DDL every ten minutes, checked every ten minutes: the kept events and samples stay
//! under their caps, the engine's own size estimate stays under what the caps allow,
//! the one part no cap bounds (page maps of rebuilt tables) grows only by what each
//! DDL rebuilt, every DDL finishes, the workload keeps running, and no counter overflows
//! (the test profile checks integer overflow).
//!
//! `cargo xtask test` runs 130 virtual minutes (past the two hours where the samples
//! start being thinned); `cargo xtask soak --hours 24` runs the whole day
//! (`DDLSCOPE_LONG_RUN_HOURS=24`), and prints the process's peak memory.

use ddlscope_engine::{Profile, Scenario, Sim, StatementOutcome, Tick};

/// A small pool (16 MB), one 100,000-row table, two sysbench threads (the app's
/// runner test reads the same file).
pub const SCENARIO: &str = include_str!("long-run.toml");

/// The DDLs, in turn, one every ten minutes: instant, in-place and copying changes.
pub const DDLS: &[&str] = &[
    "ALTER TABLE sbtest1 ADD COLUMN z INT, ALGORITHM=INSTANT",
    "CREATE INDEX idx_c ON sbtest1 (c)",
    "ANALYZE TABLE sbtest1",
    "DROP INDEX idx_c ON sbtest1",
    "ALTER TABLE sbtest1 DROP COLUMN z",
    "OPTIMIZE TABLE sbtest1",
];

/// Events kept at most (twice the engine's EVENTS_KEEP) and samples kept at most
/// (an hour whole and an hour's worth thinned).
const EVENTS_MAX: usize = 2 * 65_536;
const SAMPLES_MAX: usize = 7_200;
/// The engine's estimate of its own size may not pass this (the pool's 1,024 frames
/// with their page hash, the full event and sample records, the statements).
const BYTES_MAX: u64 = 24 << 20;

/// Virtual minutes to run: 130 in the test run (the samples start being thinned at
/// 120), or `DDLSCOPE_LONG_RUN_HOURS` hours.
fn minutes() -> u64 {
    std::env::var("DDLSCOPE_LONG_RUN_HOURS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(130, |h| h * 60)
}

/// The process's peak resident memory (Linux), for the report.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn hours_of_oltp_with_a_ddl_every_ten_minutes_stay_bounded() {
    let minutes = minutes();
    let ddls = minutes / 10;
    let scenario = Scenario::from_toml(SCENARIO).unwrap();
    let mut sim = Sim::new(scenario, Profile::builtin("mysql-8.0.23").unwrap()).unwrap();
    let spaces_at_start = sim.pool().tablespaces();
    let mut most_bytes = 0;
    for slot in 0..ddls {
        sim.execute(DDLS[slot as usize % DDLS.len()]).unwrap();
        sim.run_for(Tick::from_secs(600));
        let (events, samples, bytes) =
            (sim.events().len(), sim.samples().len(), sim.approx_bytes());
        assert!(
            events <= EVENTS_MAX,
            "{events} events kept at {}",
            sim.now()
        );
        assert!(
            samples <= SAMPLES_MAX,
            "{samples} samples kept at {}",
            sim.now()
        );
        assert!(bytes <= BYTES_MAX, "{bytes} bytes at {}", sim.now());
        most_bytes = most_bytes.max(bytes);
        // The DDL sent ten minutes ago finished, and finished well.
        let last = sim.statements().last().unwrap();
        match &last.outcome {
            Some(StatementOutcome::Ok { .. }) => {}
            other => panic!("{} at {}: {other:?}", last.sql, sim.now()),
        }
        let s = sim.samples().last().unwrap();
        assert!(s.tps > 0, "the workload stopped at {}", sim.now());
    }
    assert_eq!(sim.sample_count(), ddls * 600);
    assert_eq!(sim.statements().len() as u64, ddls);
    // What no cap bounds: a rebuilt table's tablespace stays registered (a few bytes),
    // and each statement's record.
    let grown = sim.pool().tablespaces() - spaces_at_start;
    assert!(
        grown as u64 <= ddls,
        "{grown} tablespaces more after {ddls} DDLs"
    );
    let kept = sim.samples();
    let recent = &kept[kept.len() - 3600..];
    assert!(recent.windows(2).all(|w| w[1].t_s == w[0].t_s + 1));
    eprintln!(
        "long run: {minutes} virtual minutes, {ddls} DDLs, {} events made ({} kept), {} samples taken ({} kept), estimate at most {} KiB, peak RSS {} KiB",
        sim.event_count(),
        sim.events().len(),
        sim.sample_count(),
        kept.len(),
        most_bytes >> 10,
        peak_rss_kib().map_or("unknown".to_owned(), |k| k.to_string())
    );
}
