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
//!  second, seconds under a tenth of the baseline → target/calibrate-playbooks.tsv
//!  (every second of every run)
//!  ddlscope advise --json on the same server and disk (calibrate::disk: dd's 16 KB
//!  direct and synced writes), per DDL, lock mode and open transaction
//!  (calibrate::sim): each run's playbook's figures beside it
//!  → target/calibrate-playbooks.md: the table, each figure pair marked as agreeing
//!    (within a factor of 1.5, or 5 points of dip, or 1 s of stall) or not
//! ```
//!
//! `--sim-only` skips the real runs and reads the last ones (this machine's `target/`,
//! else `assets/calibration/`: the seconds and the disk measured after them): the
//! simulator's side again after a change to the model, in seconds.
//!
//! It takes about twenty minutes and loads both cores, so it is not part of
//! `cargo xtask test`; the README's calibration table comes from its output.

mod disk;
mod figures;
mod real;
mod sim;
mod table;

use crate::mariadb::{ensure_mariadb, Server};
use crate::util::{apt_install, host_cargo, is_root, note, run, say, target_dir, which, Result};
use figures::{figures, Figures};
use real::{Method, Playbook, RealRun, Shape};
use sim::Advised;
use std::process::Command;

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

const ADD_INDEX: &str = "ALTER TABLE sbtest1 ADD INDEX k_c (c)";
const ADD_COLUMN: &str = "ALTER TABLE sbtest1 ADD COLUMN extra INT NOT NULL DEFAULT 0";
const DROP_INDEX: Option<&str> = Some("ALTER TABLE sbtest1 DROP INDEX k_c");

const PLAYBOOKS: [Playbook; 4] = [
    Playbook {
        name: "INPLACE ADD INDEX",
        method: Method::Native {
            ddl: "ALTER TABLE sbtest1 ADD INDEX k_c (c), ALGORITHM=INPLACE, LOCK=NONE",
        },
        undo: DROP_INDEX,
        asked: ADD_INDEX,
        advisor_playbook: "INPLACE",
    },
    Playbook {
        name: "INSTANT ADD COLUMN",
        method: Method::Native {
            ddl: "ALTER TABLE sbtest1 ADD COLUMN extra INT NOT NULL DEFAULT 0, ALGORITHM=INSTANT",
        },
        undo: Some("ALTER TABLE sbtest1 DROP COLUMN extra"),
        asked: ADD_COLUMN,
        advisor_playbook: "INSTANT",
    },
    Playbook {
        name: "COPY ADD INDEX",
        method: Method::Native {
            ddl: "ALTER TABLE sbtest1 ADD INDEX k_c (c), ALGORITHM=COPY",
        },
        undo: DROP_INDEX,
        asked: ADD_INDEX,
        advisor_playbook: "COPY",
    },
    Playbook {
        name: "pt-osc ADD INDEX",
        method: Method::PtOsc {
            alter: "ADD INDEX k_c (c)",
        },
        undo: DROP_INDEX,
        asked: ADD_INDEX,
        advisor_playbook: "pt-osc",
    },
];

/// One row of the table.
pub(crate) struct Row {
    autoinc_lock_mode: u8,
    playbook: &'static Playbook,
    open_txn_s: Option<u64>,
    run: RealRun,
    figures: Option<Figures>,
    /// The advisor's figures for this run's playbook, or why there are none.
    advised: std::result::Result<Advised, String>,
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
                playbook,
                open_txn_s,
                figures: figures(&run.seconds, &run.ddl),
                run,
                advised: Err("not asked yet".into()),
            };
            note(table::real_line(&row));
            rows.push(row);
        }
    }
    Ok(())
}

/// The simulator's figures beside each real run: `ddlscope advise` (release build)
/// on the same server, table, workload, lock mode and open transaction.
fn advise_rows(rows: &mut [Row], table_rows: u64, sim_only: bool) -> Result {
    say(
        "building the CLI natively (release) for `ddlscope advise`",
        "the simulator's side of the table is the advisor's own figures",
    );
    run(Command::new(host_cargo()).args(["build", "--release", "-p", "ddlscope"]))?;
    let ddlscope = target_dir().join("release").join("ddlscope");
    // The disk the private server's datadir was on (std::env::temp_dir()), as measured
    // after the real runs; `--sim-only` takes those figures again.
    let disk = if sim_only {
        table::read_disk()?
    } else {
        let disk = disk::measure(&std::env::temp_dir())?;
        table::write_disk(disk)?;
        disk
    };
    note(format!(
        "this machine's disk: a 16 KB direct write {} µs, a synced one {} µs, {} at once",
        disk.write_us, disk.fsync_us, disk.channels
    ));
    let mut advice = sim::Advice::new(disk);
    // Each lock mode's runs were one server: the statement CPU at which the simulated
    // workload runs its median baseline.
    let mut per_mode = Vec::new();
    for mode in [1, 2] {
        let baseline = median_baseline(rows, mode).ok_or("a lock mode without a baseline")?;
        let us = sim::fit_statement_cpu_us(&ddlscope, table_rows, mode, disk, baseline)?;
        note(format!(
            "innodb_autoinc_lock_mode={mode}: {us} µs of the cores a statement (the simulated baseline at the real median, {baseline:.0} tps)"
        ));
        per_mode.push((mode, us));
    }
    for row in rows.iter_mut() {
        let statement_cpu_us = per_mode
            .iter()
            .find(|(m, _)| *m == row.autoinc_lock_mode)
            .map_or(50, |(_, us)| *us);
        let question = sim::Question {
            ddl: row.playbook.asked,
            autoinc_lock_mode: row.autoinc_lock_mode,
            open_txn_s: row.open_txn_s,
            statement_cpu_us,
        };
        let wanted = row.playbook.advisor_playbook;
        row.advised = match advice.figures(&ddlscope, table_rows, question, wanted) {
            Ok(Some(advised)) => Ok(advised),
            Ok(None) => Err(format!("no {wanted} playbook in the advice")),
            Err(e) => Err(e),
        };
    }
    Ok(())
}

/// The median of the baselines of the runs at lock mode `mode`.
fn median_baseline(rows: &[Row], mode: u8) -> Option<f64> {
    let baselines: Vec<f64> = rows
        .iter()
        .filter(|r| r.autoinc_lock_mode == mode)
        .filter_map(|r| r.figures.as_ref().map(|f| f.baseline_tps))
        .collect();
    sim::median_tps(&baselines)
}

/// `cargo xtask calibrate-playbooks`: the real runs (unless `sim_only`, which reads
/// the last runs' `.tsv`), then the advisor's figures beside them.
pub fn calibrate_playbooks(table_rows: u64, sim_only: bool) -> Result {
    let mut rows = if sim_only {
        table::read_runs(&PLAYBOOKS)?
    } else {
        real_runs(table_rows)?
    };
    advise_rows(&mut rows, table_rows, sim_only)?;
    table::write(&rows)
}

fn real_runs(table_rows: u64) -> Result<Vec<Row>> {
    ensure_tools()?;
    let shape = Shape {
        rows: table_rows,
        ..SHAPE
    };
    let mut rows = Vec::new();
    for mode in [1, 2] {
        runs_at_mode(&shape, mode, &mut rows)?;
    }
    table::write_runs(&rows)?;
    Ok(rows)
}
