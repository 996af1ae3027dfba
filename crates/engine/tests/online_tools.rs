//! The online schema-change tools as clients of the engine, and the replica lane: the
//! built-in scenarios that show them, with their figures.

use ddlscope_engine::{EventKind, Profile, Scenario, Sim, Tick, ToolView};

/// Runs built-in scenario `name` (its file under `assets/scenarios/`) for `secs`
/// virtual seconds.
fn run(name: &str, secs: u64) -> Sim {
    let path = format!(
        "{}/../../assets/scenarios/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let scenario = Scenario::from_toml(&std::fs::read_to_string(path).unwrap()).unwrap();
    let profile = Profile::builtin(&scenario.profile).unwrap();
    let mut sim = Sim::new(scenario, profile).unwrap();
    sim.run_until(Tick::from_secs(secs));
    sim
}

fn tool(sim: &Sim) -> &ToolView {
    &sim.tools()[0]
}

/// The tool's output lines.
fn said(sim: &Sim) -> Vec<(Tick, String)> {
    sim.events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ToolStatus { message, .. } => Some((e.at, message.clone())),
            _ => None,
        })
        .collect()
}

/// Transactions a second over `[from, to)` seconds.
fn tps(sim: &Sim, from: u64, to: u64) -> Vec<u64> {
    sim.samples()
        .iter()
        .filter(|s| s.t_s > from && s.t_s <= to)
        .map(|s| s.tps)
        .collect()
}

/// The statements sent on a connection whose text starts so, and their outcomes.
fn sent<'a>(sim: &'a Sim, start: &str) -> Vec<&'a ddlscope_engine::StatementRecord> {
    sim.statements()
        .iter()
        .filter(|r| r.sql.starts_with(start))
        .collect()
}

#[test]
fn gh_ost_cut_over_behind_a_long_transaction_times_out_retries_and_the_workload_runs_between() {
    let sim = run("gh-ost-cut-over-long-transaction", 60);
    let v = tool(&sim);
    for (at, line) in said(&sim) {
        eprintln!("{:>8} ms  {line}", at.as_ms());
    }
    eprintln!("{v:?}");
    eprintln!("tps {:?}", tps(&sim, 0, 60));
    let locks = sent(&sim, "lock /* gh-ost */ tables");
    let timeouts = locks
        .iter()
        .filter(|r| {
            matches!(
                &r.outcome,
                Some(ddlscope_engine::StatementOutcome::Error { code: 1205, .. })
            )
        })
        .count();
    assert!(timeouts >= 4, "LOCK TABLES timed out {timeouts} times");
    assert_eq!(v.cut_over_attempts as usize, timeouts + 1, "{v:?}");
    let done = v
        .finished_at
        .expect("the cut-over succeeds after the COMMIT");
    assert!(
        done > Tick::from_secs(40) && done < Tick::from_secs(48),
        "{done:?}"
    );
    // Each attempt stalls the workload for the LOCK's 6 s; it runs in between.
    let during = tps(&sim, 10, 38);
    assert!(
        during.iter().filter(|&&t| t == 0).count() >= 12,
        "{during:?}"
    );
    assert!(
        during.iter().filter(|&&t| t > 100).count() >= 3,
        "{during:?}"
    );
    assert!(tps(&sim, 50, 60).iter().all(|&t| t > 100));
}

#[test]
fn pt_osc_copies_in_chunks_through_its_triggers_and_swaps() {
    let sim = run("pt-osc-triggers-write-load", 60);
    let v = tool(&sim);
    for (at, line) in said(&sim) {
        eprintln!("{:>8} ms  {line}", at.as_ms());
    }
    eprintln!("{v:?}");
    eprintln!("tps {:?}", tps(&sim, 0, 60));
    assert!(v.failed.is_none(), "{v:?}");
    assert!(v.finished_at.is_some(), "{v:?}");
    assert!(v.rows_copied >= 200_000, "{v:?}");
    let copies = sent(
        &sim,
        "INSERT LOW_PRIORITY IGNORE INTO `sbtest`.`_sbtest1_new`",
    );
    assert_eq!(copies.len() as u64, v.chunks);
    assert!(v.chunks > 3, "chunks sized by --chunk-time: {}", v.chunks);
    // _sbtest1_new was created from SHOW CREATE TABLE, AUTO_INCREMENT and all: each
    // chunk holds its AUTO-INC lock, and every trigger's REPLACE queues behind it
    // (innodb_autoinc_lock_mode = 1), so the workload nearly stops while it copies.
    let create = sent(&sim, "CREATE TABLE `sbtest`.`_sbtest1_new`");
    assert!(
        create[0].sql.contains("`id` int NOT NULL AUTO_INCREMENT"),
        "{}",
        create[0].sql
    );
    let t = tps(&sim, 0, 60);
    let baseline = t[1..5].iter().sum::<u64>() / 4;
    let slowest = *t.iter().min().unwrap();
    assert!(
        slowest < baseline / 10,
        "slowest second {slowest} tps, baseline {baseline}"
    );
    let triggers = sent(&sim, "CREATE TRIGGER `pt_osc_sbtest_sbtest1_");
    assert_eq!(triggers.len(), 3);
    let swap = sent(
        &sim,
        "RENAME TABLE `sbtest`.`sbtest1` TO `sbtest`.`_sbtest1_old`",
    );
    assert_eq!(swap.len(), 1);
    assert!(
        sent(&sim, "DROP TABLE IF EXISTS `sbtest`.`_sbtest1_old`")[0]
            .outcome
            .is_some()
    );
}

#[test]
fn a_replica_lags_by_a_native_alter_and_stays_close_under_gh_ost() {
    let native = run("replica-lag-native", 90);
    let lag = |s: &Sim| -> Vec<u64> {
        s.samples()
            .iter()
            .map(|x| x.replica_lag_s.unwrap())
            .collect()
    };
    let n = lag(&native);
    eprintln!("native {n:?}");
    let alter = native
        .statements()
        .iter()
        .find(|r| r.sql.starts_with("ALTER TABLE sbtest1"))
        .unwrap();
    let took = (alter.finished_at.unwrap() - alter.started_at.unwrap()).as_secs();
    eprintln!("ALTER took {took} s");
    let worst = *n.iter().max().unwrap();
    assert!(worst >= 2 * took - 1, "worst lag {worst} s, ALTER {took} s");
    let g = run("replica-lag-gh-ost", 90);
    let gl = lag(&g);
    eprintln!("gh-ost {gl:?} {:?}", tool(&g));
    for r in g
        .statements()
        .iter()
        .filter(|r| r.sql.contains("gh-ost"))
        .take(8)
    {
        eprintln!(
            "{} {:?} {:?} {:?}",
            r.sql, r.finished_at, r.outcome, r.states_seen
        );
    }
    assert!(tool(&g).finished_at.is_some());
    assert!(*gl.iter().max().unwrap() <= 2, "{gl:?}");
}

#[test]
fn an_online_add_index_whose_row_log_overflows_fails_with_1799_and_the_workload_runs_on() {
    let sim = run("inplace-row-log-overflow", 30);
    let alters = sent(&sim, "ALTER TABLE sbtest1 ADD INDEX k_c");
    assert_eq!(alters.len(), 1);
    let failed_at = match &alters[0].outcome {
        Some(ddlscope_engine::StatementOutcome::Error { code: 1799, .. }) => {
            alters[0].finished_at.expect("a failed statement has ended")
        }
        other => panic!("the ALTER ended {other:?}"),
    };
    // The build ran to its log's apply (scan, sort, load) before it found out.
    assert!(
        failed_at > Tick::from_secs(6) && failed_at < Tick::from_secs(20),
        "{failed_at:?}"
    );
    // LOCK=NONE: the writes never waited for it, before, during or after.
    let all = tps(&sim, 0, 30);
    let before = tps(&sim, 1, 5);
    let floor = before.iter().min().copied().unwrap_or(0) * 8 / 10;
    assert!(all.iter().skip(1).all(|&t| t >= floor), "{all:?}");
}
