//! `cargo xtask calibrate-playbooks`: the playbooks the advisor scores, run on a
//! real server so the simulator's figures can be checked against measurement.
//!
//! ```text
//!  apt-get install mariadb-server sysbench percona-toolkit (if missing, as root)
//!  for innodb_autoinc_lock_mode in 1, 2:
//!     private mariadbd (crate::mariadb), sysbench prepare: sbtest.sbtest1, ROWS rows
//!     for each playbook (INPLACE ADD INDEX, INSTANT ADD COLUMN, COPY rebuild,
//!                        pt-online-schema-change ADD INDEX), alone and behind a
//!                        transaction that read the table and stays open OPEN_TXN_S:
//!        sysbench oltp_read_write, THREADS threads, a report each second
//!        after WARM_S: the change; after it ends, TAIL_S more seconds; undo it
//!  figures (calibrate::figures): duration, baseline tps, mean tps during, worst
//!  second, seconds under a tenth of the baseline
//!  → target/calibrate-playbooks.md (the table) and .tsv (every second of every run)
//! ```
//!
//! It takes about half an hour and loads both cores, so it is not part of
//! `cargo xtask test`; the README's calibration table comes from its output.

mod figures;
mod real;

use crate::mariadb::{ensure_mariadb, Server};
use crate::util::{apt_install, is_root, note, say, target_dir, which, Result};
use figures::{figures, Figures};
use real::{Method, Playbook, RealRun, Shape};
use std::fmt::Write as _;

/// The calibration table's rows unless `--rows` says otherwise.
pub const ROWS: u64 = 1_000_000;
/// The issue's calibration server: a 1 M-row table under 8 threads of
/// oltp_read_write, 20 s of warm-up before the change and 10 s after it.
const SHAPE: Shape = Shape {
    rows: ROWS,
    threads: 8,
    warm_s: 20,
    tail_s: 10,
};
/// The open transaction's life after the change starts.
const OPEN_TXN_S: u64 = 30;
/// The buffer pool: the 1 M-row table (about 240 MB) fits, as on a server sized
/// for its hot table.
const POOL: &str = "--innodb-buffer-pool-size=1G";

const PLAYBOOKS: [Playbook; 4] = [
    Playbook {
        name: "INPLACE ADD INDEX",
        method: Method::Native {
            ddl: "ALTER TABLE sbtest1 ADD INDEX k_c (c), ALGORITHM=INPLACE, LOCK=NONE",
        },
        undo: Some("ALTER TABLE sbtest1 DROP INDEX k_c"),
    },
    Playbook {
        name: "INSTANT ADD COLUMN",
        method: Method::Native {
            ddl: "ALTER TABLE sbtest1 ADD COLUMN extra INT NOT NULL DEFAULT 0, ALGORITHM=INSTANT",
        },
        undo: Some("ALTER TABLE sbtest1 DROP COLUMN extra"),
    },
    Playbook {
        name: "COPY rebuild",
        method: Method::Native {
            ddl: "ALTER TABLE sbtest1 FORCE, ALGORITHM=COPY",
        },
        undo: None,
    },
    Playbook {
        name: "pt-osc ADD INDEX",
        method: Method::PtOsc {
            alter: "ADD INDEX k_c (c)",
        },
        undo: Some("ALTER TABLE sbtest1 DROP INDEX k_c"),
    },
];

/// One row of the table.
struct Row {
    autoinc_lock_mode: u8,
    playbook: &'static str,
    open_txn_s: Option<u64>,
    run: RealRun,
    figures: Option<Figures>,
}

fn ensure_tools() -> Result {
    if !ensure_mariadb()? {
        return Err("calibration needs mariadb-server".into());
    }
    let missing: Vec<&str> = [
        ("sysbench", "sysbench"),
        ("pt-online-schema-change", "percona-toolkit"),
    ]
    .into_iter()
    .filter(|(program, _)| which(program).is_none())
    .map(|(_, package)| package)
    .collect();
    if missing.is_empty() {
        return Ok(());
    }
    if !is_root() {
        return Err(format!(
            "missing {}: run `apt-get install {}` first",
            missing.join(", "),
            missing.join(" ")
        ));
    }
    say(
        format!("installing {} with apt-get", missing.join(" ")),
        "calibration drives the real server with Debian's sysbench and pt-online-schema-change",
    );
    apt_install(&missing)
}

fn runs_at_mode(shape: &Shape, mode: u8, rows: &mut Vec<Row>) -> Result {
    let server = Server::start(&[
        POOL.to_string(),
        format!("--innodb-autoinc-lock-mode={mode}"),
    ])?;
    note(format!(
        "innodb_autoinc_lock_mode={mode}: sysbench prepare, {} rows",
        shape.rows
    ));
    real::prepare(&server, shape)?;
    for playbook in &PLAYBOOKS {
        for open_txn_s in [None, Some(OPEN_TXN_S)] {
            let run = real::run(&server, shape, playbook, open_txn_s)?;
            let row = Row {
                autoinc_lock_mode: mode,
                playbook: playbook.name,
                open_txn_s,
                figures: figures(&run.seconds, run.ddl),
                run,
            };
            note(table_line(&row));
            rows.push(row);
        }
    }
    Ok(())
}

fn table_line(row: &Row) -> String {
    let behind = row
        .open_txn_s
        .map_or("–".to_string(), |s| format!("{s} s txn"));
    let head = format!(
        "| {} | {} | {behind} |",
        row.autoinc_lock_mode, row.playbook
    );
    let tail = match (&row.figures, &row.run.error) {
        (_, Some(e)) => format!(" failed: {e} | | | |"),
        (Some(f), None) => format!(
            " {:.1} s | {:.0} of {:.0} | {:.0} | {} |",
            f.duration_s,
            f.mean_tps_during,
            f.baseline_tps,
            f.worst_second_tps,
            f.seconds_under_tenth
        ),
        (None, None) => " no warm second before the change | | | |".to_string(),
    };
    head + &tail
}

fn write_outputs(rows: &[Row]) -> Result {
    let mut md = String::from(
        "| lock mode | playbook | behind | duration | mean tps during (of baseline) | worst second | s under 10 % |\n\
         |---|---|---|---|---|---|---|\n",
    );
    let mut tsv = String::from(
        "autoinc_lock_mode\tplaybook\topen_txn_s\tddl_start_s\tddl_end_s\tsecond\ttps\n",
    );
    for row in rows {
        let _ = writeln!(md, "{}", table_line(row));
        for s in &row.run.seconds {
            let _ = writeln!(
                tsv,
                "{}\t{}\t{}\t{:.2}\t{:.2}\t{}\t{:.2}",
                row.autoinc_lock_mode,
                row.playbook,
                row.open_txn_s.unwrap_or(0),
                row.run.ddl.start_s,
                row.run.ddl.end_s,
                s.end_s,
                s.tps
            );
        }
    }
    let dir = target_dir();
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("calibrate-playbooks.md"), md).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("calibrate-playbooks.tsv"), tsv).map_err(|e| e.to_string())?;
    note(format!(
        "wrote {}",
        dir.join("calibrate-playbooks.md").display()
    ));
    Ok(())
}

/// `cargo xtask calibrate-playbooks`.
pub fn calibrate_playbooks(table_rows: u64) -> Result {
    ensure_tools()?;
    let shape = Shape {
        rows: table_rows,
        ..SHAPE
    };
    let mut rows = Vec::new();
    for mode in [1, 2] {
        runs_at_mode(&shape, mode, &mut rows)?;
    }
    write_outputs(&rows)
}
