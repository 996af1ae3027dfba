//! The simulator's side of the table: `ddlscope advise --json` on the calibration
//! server (the `mariadb-10.11` profile, a 1 GB pool, the adaptive hash index off,
//! this machine's cores, 1,000,000 rows, 8 threads of oltp_read_write), once per
//! DDL, lock mode and open transaction, and the figures
//! of the playbook that matches each real run.

use super::disk::Disk;
use crate::util::Result;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// The advisor's figures for one playbook.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advised {
    pub worst_write_stall_s: f64,
    pub tps_dip_pct: f64,
    pub total_s: f64,
}

/// What the advisor is asked, and which of its playbooks a real run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Question {
    pub ddl: &'static str,
    pub autoinc_lock_mode: u8,
    pub open_txn_s: Option<u64>,
    /// The server's CPU a statement took on this machine ([`statement_cpu_us`]).
    pub statement_cpu_us: u64,
}

/// Statements of one sysbench oltp_read_write transaction: BEGIN, 10 point selects,
/// 4 ranges, 2 updates, a delete, an insert, COMMIT (the engine's `event_statements`).
const STATEMENTS_PER_TXN: f64 = 20.0;

/// The median of the runs' baselines (transactions a second), those with any; `None`
/// without one.
pub fn median_tps(baselines: &[f64]) -> Option<f64> {
    let mut b: Vec<f64> = baselines.iter().copied().filter(|t| *t > 0.0).collect();
    b.sort_by(f64::total_cmp);
    b.get(b.len() / 2).copied()
}

/// The core time one statement took at `tps` transactions a second: the cores over the
/// statements a second (sysbench's 8 threads keep both cores busy, its own client work
/// included, so this is what a statement costs the machine). `None` for no throughput.
fn statement_cpu_us(tps: f64) -> Option<u64> {
    (tps > 0.0).then(|| {
        let us = cores() as f64 * 1e6 / (tps * STATEMENTS_PER_TXN);
        us.round().max(1.0) as u64
    })
}

/// A statement's round trip between sysbench and the private server besides the CPU
/// either spends, µs: a Unix socket's wake-ups. Measured on the calibration machine,
/// idle (6 December 2026): oltp_read_write at 1 thread ran 2.47 ms a transaction; at
/// 8 threads both cores served 1,595 a second (1.25 ms of the cores each); less a 0.2 ms
/// log flush, (2.47 - 1.25 - 0.2) ms over 20 statements.
const LOCAL_ROUND_TRIP_US: u64 = 50;

/// The statement CPU at which the simulated workload runs the real baseline's
/// transactions a second, on this server and disk: [`statement_cpu_us`] first (all of
/// the cores' time in the statements), then scaled by simulated over real tps until they
/// agree within 1 % (at most 8 tries), since the simulator also spends CPU on rows and
/// pages.
pub fn fit_statement_cpu_us(
    ddlscope: &Path,
    rows: u64,
    mode: u8,
    disk: Disk,
    real_tps: f64,
) -> Result<u64> {
    let mut us = statement_cpu_us(real_tps).ok_or("no real baseline to fit")?;
    let q = Question {
        ddl: BASELINE_DDL,
        autoinc_lock_mode: mode,
        open_txn_s: None,
        statement_cpu_us: us,
    };
    advise(ddlscope, rows, q, disk)?;
    let dir = crate::util::target_dir().join("calibrate-advice");
    let scenario = std::fs::read_to_string(dir.join("advise-alter-instant.toml"))
        .map_err(|e| format!("the advice's INSTANT scenario: {e}"))?;
    let fit = dir.join("fit-baseline.toml");
    for _ in 0..8 {
        std::fs::write(&fit, with_statement_cpu(&scenario, us)?)
            .map_err(|e| format!("{}: {e}", fit.display()))?;
        let ratio = simulated_baseline_tps(ddlscope, &fit)? / real_tps;
        if (ratio - 1.0).abs() < 0.01 {
            break;
        }
        us = ((us as f64) * ratio).round().max(1.0) as u64;
    }
    Ok(us)
}

/// The question whose INSTANT playbook's scenario the fit replays (any DDL would do: the
/// seconds before it are the baseline).
const BASELINE_DDL: &str = "ALTER TABLE sbtest1 ADD COLUMN extra INT NOT NULL DEFAULT 0";

/// The scenario text with `workload.statement_cpu_us` set to `us`.
fn with_statement_cpu(scenario: &str, us: u64) -> Result<String> {
    let key = "statement_cpu_us = ";
    let at = scenario
        .find(key)
        .ok_or("the advice's scenario has no statement_cpu_us")?;
    let end = scenario[at..].find('\n').map_or(scenario.len(), |n| at + n);
    Ok(format!("{}{key}{us}{}", &scenario[..at], &scenario[end..]))
}

/// Mean tps of seconds 4 to 10 of `ddlscope run FILE --format csv` (the DDL starts at
/// 10 s; the first seconds warm up).
fn simulated_baseline_tps(ddlscope: &Path, scenario: &Path) -> Result<f64> {
    let out = Command::new(ddlscope)
        .arg("run")
        .arg(scenario)
        .args(["--format", "csv"])
        .output()
        .map_err(|e| format!("{}: {e}", ddlscope.display()))?;
    let csv = String::from_utf8_lossy(&out.stdout);
    mean_tps(&csv, 4, 10).ok_or_else(|| format!("{}: no tps column", scenario.display()))
}

/// Mean of the `tps` column over `t_s` in `from..=to`.
fn mean_tps(csv: &str, from: u32, to: u32) -> Option<f64> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next()?.split(',').collect();
    let t = header.iter().position(|h| *h == "t_s")?;
    let tps = header.iter().position(|h| *h == "tps")?;
    let values: Vec<f64> = lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f.len() == header.len())
        .filter(|f| f[t].parse::<u32>().is_ok_and(|s| (from..=to).contains(&s)))
        .filter_map(|f| f[tps].parse().ok())
        .collect();
    (!values.is_empty()).then(|| super::figures::mean(&values))
}

/// The advice for each question asked so far, on one disk.
pub struct Advice {
    disk: Disk,
    answers: BTreeMap<Question, Vec<(String, Advised)>>,
}

impl Advice {
    /// No question asked yet; every answer for a server on `disk`.
    pub fn new(disk: Disk) -> Advice {
        Advice {
            disk,
            answers: BTreeMap::new(),
        }
    }

    /// The figures of the playbook whose name contains `playbook` (case-insensitive).
    pub fn figures(
        &mut self,
        ddlscope: &Path,
        rows: u64,
        q: Question,
        playbook: &str,
    ) -> Result<Option<Advised>> {
        if let std::collections::btree_map::Entry::Vacant(e) = self.answers.entry(q) {
            e.insert(parse_playbooks(&advise(ddlscope, rows, q, self.disk)?));
        }
        let wanted = playbook.to_lowercase();
        Ok(self.answers[&q]
            .iter()
            .find(|(name, _)| name.to_lowercase().contains(&wanted))
            .map(|(_, f)| *f))
    }
}

fn advise(ddlscope: &Path, rows: u64, q: Question, disk: Disk) -> Result<String> {
    let mut cmd = Command::new(ddlscope);
    cmd.args([
        "advise",
        "--profile",
        "mariadb-10.11",
        "--pool",
        "1G",
        "--instances",
        "1",
    ])
    .args([
        "--fs",
        "ext4",
        "--workload",
        "oltp_read_write",
        "--threads",
        "8",
    ])
    // MariaDB 10.5+ starts with the adaptive hash index off (MDEV-20487), as the
    // private server does; its cores are this machine's, shared with sysbench.
    .args(["--ahi", "off", "--cpus"])
    .arg(cores().to_string())
    .arg("--table-rows")
    .arg(rows.to_string())
    .arg("--set")
    .arg(format!("innodb_autoinc_lock_mode={}", q.autoinc_lock_mode))
    // The private server's redo log (crate::mariadb: --innodb-log-file-size=16M).
    .args(["--set", "innodb_redo_log_capacity=16M"])
    .arg("--round-trip-us")
    .arg(LOCAL_ROUND_TRIP_US.to_string())
    .arg("--statement-cpu-us")
    .arg(q.statement_cpu_us.to_string())
    // This machine's disk (calibrate::disk).
    .arg("--write-us")
    .arg(disk.write_us.to_string())
    .arg("--fsync-us")
    .arg(disk.fsync_us.to_string())
    .arg("--io-channels")
    .arg(disk.channels.to_string())
    .args(["--ddl", q.ddl, "--json", "--out"])
    // The playbooks' scenario files go beside the table, not into the working tree.
    .arg(crate::util::target_dir().join("calibrate-advice"));
    if let Some(s) = q.open_txn_s {
        cmd.arg("--open-txn").arg(s.to_string());
    }
    let out = cmd
        .output()
        .map_err(|e| format!("{}: {e}", ddlscope.display()))?;
    if !out.status.success() {
        return Err(format!(
            "ddlscope advise failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The cores the real server ran on: this machine's (the real runs and `--sim-only`
/// are meant for the same machine).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The playbooks of `advise --json`: each object's name and figures. The shape is
/// flat (docs/cli.md), so a scan for the keys reads it without a JSON library.
pub fn parse_playbooks(json: &str) -> Vec<(String, Advised)> {
    json.split("\"name\"")
        .skip(1)
        .filter_map(|object| {
            let name = object.split('"').nth(1)?.to_string();
            Some((
                name,
                Advised {
                    worst_write_stall_s: number(object, "worst_write_stall_s")?,
                    tps_dip_pct: number(object, "tps_dip_pct")?,
                    total_s: number(object, "total_s")?,
                },
            ))
        })
        .collect()
}

fn number(object: &str, key: &str) -> Option<f64> {
    let after = object.split(&format!("\"{key}\"")).nth(1)?;
    let value = after.trim_start().strip_prefix(':')?.trim_start();
    let end = value
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | 'e' | 'E' | '+')))
        .unwrap_or(value.len());
    value[..end].parse().ok()
}

/// The issue's bar: two figures agree within a factor of 1.5 or within `slack`
/// (5 percentage points for a dip, 1 s for stall seconds).
pub fn agree(real: f64, sim: f64, slack: f64) -> bool {
    if (real - sim).abs() <= slack {
        return true;
    }
    let (lo, hi) = if real < sim { (real, sim) } else { (sim, real) };
    lo > 0.0 && hi / lo <= 1.5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_costs_the_cores_over_the_statements_a_second() {
        let cores = cores() as f64;
        let median = median_tps(&[1000.0, 0.0, 1100.0, 900.0]).unwrap();
        let got = statement_cpu_us(median).unwrap() as f64;
        assert!((got - cores * 1e6 / 20_000.0).abs() <= 1.0, "{got}");
        assert_eq!(median_tps(&[0.0]), None);
        assert_eq!(statement_cpu_us(0.0), None);
    }

    #[test]
    fn the_fit_reads_the_baseline_seconds_and_rewrites_the_statement_cpu() {
        let csv = "t_s,tps,qps\n3,1,2\n4,100,2\n10,200,2\n11,5,2\n";
        assert_eq!(mean_tps(csv, 4, 10), Some(150.0));
        assert_eq!(mean_tps("t_s,qps\n4,1\n", 4, 10), None);
        let s = "[workload]\nthreads = 8\nstatement_cpu_us = 70\nround_trip_us = 50\n";
        assert_eq!(
            with_statement_cpu(s, 64).unwrap(),
            "[workload]\nthreads = 8\nstatement_cpu_us = 64\nround_trip_us = 50\n"
        );
    }

    #[test]
    fn reads_the_playbooks_of_advise_json() {
        let json = r#"{"playbooks": [{"name": "INPLACE", "rank": 1, "worst_write_stall_s": 2, "p99_ms": 40.5,
            "tps_dip_pct": 12.5, "total_s": 31.2, "replica_lag_s": 0, "extra_disk_gb": 0.2, "errors": [],
            "scenario": "a.toml"}, {"name": "pt-osc", "rank": 2, "worst_write_stall_s": 0,
            "tps_dip_pct": -1.5e0, "total_s": 180}]}"#;
        let got = parse_playbooks(json);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, "INPLACE");
        assert_eq!(
            got[0].1,
            Advised {
                worst_write_stall_s: 2.0,
                tps_dip_pct: 12.5,
                total_s: 31.2
            }
        );
        assert_eq!(got[1].1.tps_dip_pct, -1.5);
    }

    #[test]
    fn agreement_is_a_factor_of_one_and_a_half_or_the_slack() {
        assert!(agree(30.0, 44.0, 1.0));
        assert!(!agree(30.0, 46.0, 1.0));
        assert!(agree(0.0, 1.0, 1.0));
        assert!(!agree(0.0, 3.0, 1.0));
        assert!(agree(62.0, 58.0, 5.0));
    }
}
