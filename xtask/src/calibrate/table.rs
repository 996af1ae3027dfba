//! The calibration's files: every second of every real run (`.tsv`, which
//! `--sim-only` reads back) and the table of real against simulated (`.md`).

use super::disk::Disk;
use super::figures::{figures, Figures, Second, Window};
use super::real::{Playbook, RealRun};
use super::sim::agree;
use super::Row;
use crate::util::{note, target_dir, Result};
use std::fmt::Write as _;
use std::path::PathBuf;

/// One line a second of a run. `ddl_start_s` and `ddl_end_s` list each time the change
/// was made, comma-separated (once, or `real::REPEATS` times for a short change).
const TSV_HEADER: &str =
    "autoinc_lock_mode\tplaybook\topen_txn_s\tddl_start_s\tddl_end_s\terror\tsecond\ttps";

const TSV: &str = "calibrate-playbooks.tsv";
const DISK: &str = "calibrate-playbooks-disk.txt";

fn tsv_path() -> PathBuf {
    target_dir().join(TSV)
}

/// Where `--sim-only` reads the last real runs and the disk measured after them:
/// this machine's `target/` when it holds both, else the runs the README's table comes
/// from, kept in the repository (`assets/calibration/`) so that it works on a machine
/// that never ran them. One place for both, so runs and disk are never mixed.
fn runs_dir() -> PathBuf {
    let target = target_dir();
    if target.join(TSV).exists() && target.join(DISK).exists() {
        target
    } else {
        crate::util::workspace_root().join("assets/calibration")
    }
}

fn behind(row: &Row) -> String {
    row.open_txn_s
        .map_or("–".to_string(), |s| format!("{s} s txn"))
}

/// The playbook's name, with how many times a short change was made and measured.
fn made(row: &Row) -> String {
    match row.run.ddl.len() {
        1 => row.playbook.name.to_string(),
        n => format!("{} (×{n})", row.playbook.name),
    }
}

/// The real side of a row, as printed while the runs go.
pub fn real_line(row: &Row) -> String {
    let head = format!(
        "{} | {} | {}",
        row.autoinc_lock_mode,
        made(row),
        behind(row)
    );
    match (&row.figures, &row.run.error) {
        (_, Some(e)) => format!("{head}: failed: {e}"),
        (Some(f), None) => format!(
            "{head}: {:.1} s, {:.0} of {:.0} tps, worst second {:.0}, {} s under a tenth",
            f.duration_s,
            f.mean_tps_during,
            f.baseline_tps,
            f.worst_second_tps,
            f.seconds_under_tenth
        ),
        (None, None) => format!("{head}: no warm second before the change"),
    }
}

/// A figure pair: `real / simulated`, with ✗ where they do not agree.
fn pair(real: f64, sim: f64, slack: f64, unit: &str) -> String {
    let mark = if agree(real, sim, slack) { "" } else { " ✗" };
    format!("{real:.0}{unit} / {sim:.0}{unit}{mark}")
}

/// The dip pair: ✗ where they do not agree, ≈ where they do not by the bar
/// but the real dip, over so few seconds, is within two standard errors of the
/// simulated one ([`Figures::dip_noise_pct`]).
fn dip_pair(f: &Figures, sim: f64) -> String {
    let real = f.dip_pct();
    let mark = if agree(real, sim, 5.0) {
        ""
    } else if (real - sim).abs() <= f.dip_noise_pct {
        " ≈"
    } else {
        " ✗"
    };
    format!("{real:.0} % / {sim:.0} %{mark}")
}

fn table_line(row: &Row) -> String {
    let head = format!(
        "| {} | {} | {} |",
        row.autoinc_lock_mode,
        made(row),
        behind(row)
    );
    let Some(f) = row.figures.filter(|_| row.run.error.is_none()) else {
        let why = row
            .run
            .error
            .as_deref()
            .unwrap_or("no warm second before the change");
        return format!("{head} failed: {why} | | | | | |");
    };
    let dip = f.dip_pct();
    let sim = match &row.advised {
        Ok(a) => format!(
            " {} | {} | {} |",
            pair(f.duration_s, a.total_s, 1.0, " s"),
            dip_pair(&f, a.tps_dip_pct),
            pair(
                f64::from(f.longest_stall_s),
                a.worst_write_stall_s,
                1.0,
                " s"
            ),
        ),
        Err(why) => format!(
            " {:.0} s / – | {dip:.0} % / – | {} s / – ({why}) |",
            f.duration_s, f.longest_stall_s
        ),
    };
    format!(
        "{head}{sim} {} | {:.0} | ±{:.0} % |",
        f.seconds_under_tenth, f.worst_second_tps, f.baseline_sd_pct
    )
}

/// Writes the table to `target/calibrate-playbooks.md` and prints it.
pub fn write(rows: &[Row]) -> Result {
    let mut md = String::from(
        "| lock mode | playbook | behind | duration real / sim | tps dip real / sim | \
         longest stall real / sim | real s under 10 % | real worst second (tps) | \
         real baseline's second-to-second sd |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for row in rows {
        let _ = writeln!(md, "{}", table_line(row));
    }
    print!("{md}");
    let path = target_dir().join("calibrate-playbooks.md");
    std::fs::write(&path, md).map_err(|e| format!("{}: {e}", path.display()))?;
    note(format!(
        "wrote {} (✗: real and simulated differ by more than the issue's bar; ≈: by more \
         than the bar but not than the real dip's own noise over so few seconds)",
        path.display()
    ));
    Ok(())
}

/// Writes every second of every real run to `target/calibrate-playbooks.tsv`.
pub fn write_runs(rows: &[Row]) -> Result {
    let mut tsv = format!("{TSV_HEADER}\n");
    for row in rows {
        let error = row
            .run
            .error
            .as_deref()
            .unwrap_or("")
            .replace(['\t', '\n'], " ");
        let starts = join_s(row.run.ddl.iter().map(|w| w.start_s));
        let ends = join_s(row.run.ddl.iter().map(|w| w.end_s));
        for s in &row.run.seconds {
            let _ = writeln!(
                tsv,
                "{}\t{}\t{}\t{starts}\t{ends}\t{error}\t{}\t{:.2}",
                row.autoinc_lock_mode,
                row.playbook.name,
                row.open_txn_s.unwrap_or(0),
                s.end_s,
                s.tps
            );
        }
    }
    std::fs::create_dir_all(target_dir()).map_err(|e| e.to_string())?;
    std::fs::write(tsv_path(), tsv).map_err(|e| format!("{}: {e}", tsv_path().display()))?;
    write_status(rows)
}

fn join_s(seconds: impl Iterator<Item = f64>) -> String {
    seconds
        .map(|s| format!("{s:.2}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The windows of a `.tsv` line: its starts and ends, paired.
fn parse_windows(starts: &str, ends: &str) -> Option<Vec<Window>> {
    let list =
        |text: &str| -> Option<Vec<f64>> { text.split(',').map(|n| n.parse().ok()).collect() };
    let (starts, ends) = (list(starts)?, list(ends)?);
    (starts.len() == ends.len()).then(|| {
        starts
            .into_iter()
            .zip(ends)
            .map(|(start_s, end_s)| Window { start_s, end_s })
            .collect()
    })
}

/// Writes the InnoDB counters sampled during every real run to
/// `target/calibrate-playbooks-status.tsv`: one line a counter a sample.
fn write_status(rows: &[Row]) -> Result {
    let mut tsv = String::from("autoinc_lock_mode\tplaybook\topen_txn_s\tat_s\tname\tvalue\n");
    for row in rows {
        for s in &row.run.status {
            let _ = writeln!(
                tsv,
                "{}\t{}\t{}\t{:.2}\t{}\t{}",
                row.autoinc_lock_mode,
                row.playbook.name,
                row.open_txn_s.unwrap_or(0),
                s.at_s,
                s.name,
                s.value
            );
        }
    }
    let path = target_dir().join("calibrate-playbooks-status.tsv");
    std::fs::write(&path, tsv).map_err(|e| format!("{}: {e}", path.display()))
}

/// Keeps the disk measured after the real runs beside them.
pub fn write_disk(disk: Disk) -> Result {
    let path = target_dir().join(DISK);
    let line = format!("{} {} {}\n", disk.write_us, disk.fsync_us, disk.channels);
    std::fs::write(&path, line).map_err(|e| format!("{}: {e}", path.display()))
}

/// The disk measured after the real runs `--sim-only` reads ([`runs_dir`]).
pub fn read_disk() -> Result<Disk> {
    let path = runs_dir().join(DISK);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{}: {e}; run `cargo xtask calibrate-playbooks` first",
            path.display()
        )
    })?;
    let bad = || format!("{}: not `WRITE_US FSYNC_US CHANNELS`", path.display());
    let mut nums = text.split_whitespace().map(|n| n.parse::<u64>());
    match (nums.next(), nums.next(), nums.next()) {
        (Some(Ok(write_us)), Some(Ok(fsync_us)), Some(Ok(channels))) => Ok(Disk {
            write_us,
            fsync_us,
            channels: u32::try_from(channels).map_err(|_| bad())?,
        }),
        _ => Err(bad()),
    }
}

/// The real runs of the last calibration, read back from its `.tsv` ([`runs_dir`]).
pub fn read_runs(playbooks: &'static [Playbook]) -> Result<Vec<Row>> {
    let path = runs_dir().join(TSV);
    note(format!("the real runs: {}", path.display()));
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{}: {e}; run `cargo xtask calibrate-playbooks` first",
            path.display()
        )
    })?;
    if text.lines().next() != Some(TSV_HEADER) {
        return Err(format!(
            "{} is from another version of this command; run it again",
            path.display()
        ));
    }
    let mut rows: Vec<Row> = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        let bad = || format!("{}:{}: not a calibration line", path.display(), n + 1);
        let f: Vec<&str> = line.split('\t').collect();
        let [mode, name, txn, start, end, error, second, tps] = f[..] else {
            return Err(bad());
        };
        let playbook = playbooks.iter().find(|p| p.name == name).ok_or_else(bad)?;
        let mode: u8 = mode.parse().map_err(|_| bad())?;
        let open_txn_s = Some(txn.parse::<u64>().map_err(|_| bad())?).filter(|&s| s > 0);
        let second = Second {
            end_s: second.parse().map_err(|_| bad())?,
            tps: tps.parse().map_err(|_| bad())?,
        };
        let same = rows.last().is_some_and(|r| {
            r.autoinc_lock_mode == mode && r.playbook.name == name && r.open_txn_s == open_txn_s
        });
        if !same {
            let ddl = parse_windows(start, end).ok_or_else(bad)?;
            let error = Some(error.to_string()).filter(|e| !e.is_empty());
            rows.push(Row {
                autoinc_lock_mode: mode,
                playbook,
                open_txn_s,
                run: RealRun {
                    seconds: Vec::new(),
                    status: Vec::new(),
                    ddl,
                    error,
                },
                figures: None,
                advised: Err("not asked yet".into()),
            });
        }
        rows.last_mut()
            .expect("pushed above")
            .run
            .seconds
            .push(second);
    }
    for row in &mut rows {
        row.figures = figures(&row.run.seconds, &row.run.ddl);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lines_windows_round_trip_through_the_tsv_columns() {
        let windows = parse_windows("20.00,24.00", "20.13,24.09").unwrap();
        assert_eq!(
            windows,
            [
                Window {
                    start_s: 20.0,
                    end_s: 20.13
                },
                Window {
                    start_s: 24.0,
                    end_s: 24.09
                }
            ]
        );
        let starts = join_s(windows.iter().map(|w| w.start_s));
        let ends = join_s(windows.iter().map(|w| w.end_s));
        assert_eq!(
            (starts.as_str(), ends.as_str()),
            ("20.00,24.00", "20.13,24.09")
        );
        assert_eq!(parse_windows("20.00", "24.09").unwrap().len(), 1);
    }

    #[test]
    fn windows_that_do_not_pair_are_not_read() {
        assert_eq!(parse_windows("20.00,24.00", "20.13"), None);
        assert_eq!(parse_windows("20.00,x", "20.13,24.09"), None);
        assert_eq!(parse_windows("", "20.13"), None);
    }
}
