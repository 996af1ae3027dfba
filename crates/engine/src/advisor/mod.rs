//! The advisor: "is this DDL safe on my server, and what should I run instead?"
//!
//! A question ([`AdviceInput`]: the server, the table, the workload, the DDL; from
//! flags, a form or pasted `SHOW VARIABLES` / `SHOW TABLE STATUS` output) becomes one
//! scenario per playbook that applies ([`plan`]); each runs on its own engine to its
//! end ([`run_to_end`]) and is scored ([`Figures`]); [`rank`] orders them.
//!
//! This module starts no threads and reads no clock: the CLI runs the playbooks in
//! parallel, the app's worker one after another.
//!
//! Parts: `input.rs` the question's fields, `variables.rs` the `--set` server
//! variables, `show.rs` pasted SHOW output, `ddl.rs`
//! the DDL's kind, `server.rs` the scenario every playbook shares, `playbook.rs` the
//! playbooks, `run.rs` a run watched a second at a time, `score.rs` figures and rank.

mod ddl;
mod input;
mod playbook;
mod run;
mod score;
mod server;
mod show;
mod variables;

pub use ddl::{Ddl, DdlKind};
pub use input::{AdviceInput, InputBuilder, TableInput, FIELDS, SETTABLE};
pub use playbook::Playbook;
pub use run::{first_step_s, run_to_end, PlaybookRun, TAIL_S};
pub use score::{rank, Figures};
pub use show::{read_show_variables, read_table_status};

use crate::scenario::Scenario;

/// The longest a playbook's run goes on, virtual seconds, before it is called
/// unfinished (an error in its figures).
pub const MAX_RUN_S: u64 = 1800;

/// One playbook ready to run: its steps and the scenario that runs them.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedPlaybook {
    /// The playbook.
    pub playbook: Playbook,
    /// Its scenario, `seconds` at [`MAX_RUN_S`] ([`run_to_end`] sets the length run).
    pub scenario: Scenario,
}

/// The playbooks for `input` and what was assumed in setting them up (beside the
/// input's own assumptions).
pub fn plan(input: &AdviceInput) -> Result<(Vec<PlannedPlaybook>, Vec<String>), String> {
    let ddl = Ddl::parse(&input.ddl)?;
    if let DdlKind::DropPartitions(names) = &ddl.kind {
        check_partitions(&ddl.text, names, input.table.partitions)?;
    }
    let (base, notes) = server::base_scenario(input, &ddl)?;
    let description = notes.join("\n");
    let planned = playbook::playbooks(&ddl, &base)
        .into_iter()
        .map(|p| {
            let mut scenario = playbook::scenario(&base, &p, MAX_RUN_S);
            scenario.description = format!("{}\n{description}", p.summary);
            if let Some(s) = input.open_txn_s {
                scenario.script.extend(playbook::open_transaction(&ddl, s));
            }
            PlannedPlaybook {
                playbook: p,
                scenario,
            }
        })
        .collect();
    Ok((planned, notes))
}

/// DROP PARTITION names partitions the table has (`p0..pN-1`).
fn check_partitions(text: &str, names: &[String], partitions: Option<u32>) -> Result<(), String> {
    let Some(n) = partitions else {
        return Err(format!(
            "--ddl \"{text}\": the table has no partitions; give --partitions N"
        ));
    };
    for name in names {
        let known = (0..n).any(|k| name.eq_ignore_ascii_case(&format!("p{k}")));
        if !known {
            return Err(format!(
                "--ddl \"{text}\": no partition {name}; --partitions {n} makes p0..p{}",
                n - 1
            ));
        }
    }
    if names.len() as u32 >= n {
        return Err(format!(
            "--ddl \"{text}\": dropping every partition is DROP TABLE (MySQL's error 1508)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(flags: &[(&str, &str)]) -> AdviceInput {
        question_and_notes(flags).0
    }

    /// The checked question and what was assumed.
    fn question_and_notes(flags: &[(&str, &str)]) -> (AdviceInput, Vec<String>) {
        let mut b = InputBuilder::new();
        for (f, v) in flags {
            b.set(f, v).unwrap();
        }
        b.finish().unwrap()
    }

    fn names(planned: &[PlannedPlaybook]) -> Vec<&str> {
        planned.iter().map(|p| p.playbook.name.as_str()).collect()
    }

    const I1: [(&str, &str); 8] = [
        ("profile", "mysql-5.7"),
        ("set", "rpl_semi_sync_master_enabled=ON"),
        ("pool", "128G"),
        ("instances", "8"),
        ("ahi", "on"),
        ("table-size", "10G"),
        ("threads", "16"),
        ("ddl", "DROP TABLE big"),
    ];

    #[test]
    fn the_adaptive_hash_index_is_assumed_as_the_server_defaults_it() {
        // OFF from MariaDB 10.5 (MDEV-20487) and MySQL 8.4; ON before; what is given wins.
        for (profile, ahi, on) in [
            ("mysql-5.7", None, true),
            ("mysql-8.0.23", None, true),
            ("mysql-8.4", None, false),
            ("mariadb-10.11", None, false),
            ("mariadb-10.11", Some("on"), true),
        ] {
            let mut flags = vec![
                ("profile", profile),
                ("pool", "8G"),
                ("table-size", "1G"),
                ("ddl", "DROP TABLE big"),
            ];
            flags.extend(ahi.map(|v| ("ahi", v)));
            let (input, notes) = question_and_notes(&flags);
            assert_eq!(input.ahi, on, "{profile} {ahi:?}");
            let said = notes
                .iter()
                .any(|n| n.contains("innodb_adaptive_hash_index"));
            assert_eq!(said, ahi.is_none(), "{profile}: {notes:?}");
        }
    }

    #[test]
    fn a_drop_gets_the_removal_playbooks_on_the_same_server() {
        let (planned, notes) = plan(&question(&I1)).unwrap();
        assert_eq!(
            names(&planned),
            [
                "drop",
                "truncate-then-drop",
                "rename-now-drop-later",
                "ahi-off-then-drop",
                "hardlink-discard-truncate-loop"
            ]
        );
        for p in &planned {
            let s = &p.scenario;
            assert_eq!(s.buffer_pool.size.bytes(), 128 << 30);
            assert_eq!(s.buffer_pool.instances, 8);
            assert!(s.server.replication_plugin);
            assert_eq!(s.tables[0].name, "big");
            assert_eq!(
                s.workload.tables,
                ["sbtest1", "sbtest2", "sbtest3", "sbtest4"]
            );
            assert_eq!(s.script, p.playbook.steps);
            assert_eq!(s.script[0].at_s, server::FIRST_STEP_S);
        }
        assert!(notes
            .iter()
            .any(|n| n.contains("four other 1 M-row tables")));
    }

    #[test]
    fn partitions_and_alters_get_their_own_playbooks() {
        let mut flags = I1.to_vec();
        flags.push(("partitions", "4"));
        let (planned, _) = plan(&question(&flags)).unwrap();
        let n = names(&planned);
        assert!(
            n.contains(&"partitions-one-by-one") && !n.contains(&"hardlink-discard-truncate-loop"),
            "{n:?}"
        );
        let p = planned
            .iter()
            .find(|p| p.playbook.name == "partitions-one-by-one")
            .unwrap();
        let sql: Vec<&str> = p.playbook.steps.iter().map(|s| s.sql.as_str()).collect();
        assert_eq!(
            sql,
            [
                "ALTER TABLE big DROP PARTITION p0",
                "ALTER TABLE big DROP PARTITION p1",
                "ALTER TABLE big DROP PARTITION p2",
                "DROP TABLE big"
            ]
        );
        let mut flags = I1.to_vec();
        flags[7] = ("ddl", "CREATE INDEX i ON big (k)");
        let (planned, notes) = plan(&question(&flags)).unwrap();
        assert_eq!(
            names(&planned),
            ["alter-instant", "alter-inplace", "alter-copy"]
        );
        assert_eq!(
            planned[2].playbook.steps[0].sql,
            "CREATE INDEX i ON big (k) ALGORITHM=COPY"
        );
        assert_eq!(planned[0].scenario.workload.tables, ["big"]);
        assert!(notes.iter().any(|n| n.contains("runs on big itself")));
    }

    #[test]
    fn refusals_name_the_field() {
        let mut b = InputBuilder::new();
        b.set("ddl", "DROP TABLE big").unwrap();
        assert!(b
            .clone()
            .finish()
            .unwrap_err()
            .starts_with("--profile: missing"));
        b.set("profile", "mysql-5.7").unwrap();
        b.set("pool", "128M").unwrap();
        b.set("instances", "64").unwrap();
        b.set("table-rows", "100").unwrap();
        let e = b.finish().unwrap_err();
        assert!(e.starts_with("--pool 128M over --instances 64"), "{e}");
        let mut flags = I1.to_vec();
        flags.push(("partitions", "2"));
        flags[7] = ("ddl", "ALTER TABLE big DROP PARTITION p0, p1");
        assert!(plan(&question(&flags)).unwrap_err().contains("1508"));
        flags[7] = ("ddl", "ALTER TABLE big DROP PARTITION p7");
        assert!(plan(&question(&flags))
            .unwrap_err()
            .contains("no partition p7"));
        let mut b = InputBuilder::new();
        assert!(b
            .set("pool", "lots")
            .unwrap_err()
            .starts_with("--pool lots"));
        assert!(b
            .set("colour", "red")
            .unwrap_err()
            .contains("unknown field 'colour'"));
        assert!(b
            .set("set", "innodb_io_capacity=5")
            .unwrap_err()
            .contains("between 100"));
    }

    /// gh-ost is offered for an ALTER TABLE and its figures are the workload's: while
    /// it copied and applied, the clients' transactions stayed near the baseline (a
    /// row-lock waiter woken twice in one instant used to run as two clients, and the
    /// throughput read double).
    #[test]
    fn gh_ost_runs_beside_the_workload_without_inflating_it() {
        let flags = [
            ("profile", "mariadb-10.11"),
            ("pool", "1G"),
            ("table-rows", "100000"),
            ("workload", "oltp_read_write"),
            ("threads", "8"),
            ("ddl", "ALTER TABLE sbtest1 ADD INDEX k_c (c)"),
        ];
        let (planned, _) = plan(&question(&flags)).unwrap();
        let n = names(&planned);
        assert!(n.contains(&"pt-osc") && n.contains(&"gh-ost"), "{n:?}");
        let p = planned
            .iter()
            .find(|p| p.playbook.name == "gh-ost")
            .unwrap();
        let profile = crate::profile::Profile::builtin("mariadb-10.11").unwrap();
        let (_, f) = run_to_end(p.scenario.clone(), profile, 300, &mut |_| {}).unwrap();
        // The tool finished; the only failures are the workload's statements caught
        // at the cut-over (sysbench's 1213s and 1146s), as on a real server.
        assert!(
            f.errors
                .iter()
                .all(|e| e.ends_with("statements of the workload failed")),
            "{f:?}"
        );
        assert!(
            f.tps_dip_pct > -10.0 && f.tps_dip_pct < 50.0,
            "the workload's throughput during gh-ost: {f:?}"
        );
    }

    /// --open-txn: a transaction on another client holds the table's metadata lock for
    /// the seconds given, and the native ALTER's EXCLUSIVE upgrade waits for it.
    #[test]
    fn an_open_transaction_holds_the_alter_back() {
        let flags = [
            ("profile", "mariadb-10.11"),
            ("pool", "1G"),
            ("table-rows", "100000"),
            ("workload", "oltp_read_write"),
            ("threads", "8"),
            ("open-txn", "12"),
            (
                "ddl",
                "ALTER TABLE sbtest1 ADD COLUMN extra INT NOT NULL DEFAULT 0",
            ),
        ];
        let (planned, _) = plan(&question(&flags)).unwrap();
        let p = planned
            .iter()
            .find(|p| p.playbook.name == "alter-instant")
            .unwrap();
        let sessions: Vec<u32> = p.scenario.script.iter().map(|s| s.session).collect();
        assert_eq!(sessions, [0, 1, 1]);
        let profile = crate::profile::Profile::builtin("mariadb-10.11").unwrap();
        let (_, f) = run_to_end(p.scenario.clone(), profile, 300, &mut |_| {}).unwrap();
        // The ALTER finished; transactions that held the table's SHARED_READ and then
        // asked SHARED_WRITE behind the pending EXCLUSIVE were deadlock victims
        // (MDL_context::find_deadlock(), 1213), as sysbench sees them on a server.
        assert!(
            f.errors
                .iter()
                .all(|e| e.ends_with("statements of the workload failed")),
            "{f:?}"
        );
        // The ALTER waits the transaction's 12 s, and the workload queues behind its
        // pending EXCLUSIVE request all that while.
        assert!((11.0..14.0).contains(&f.total_s), "{f:?}");
        assert!((11..=13).contains(&f.worst_write_stall_s), "{f:?}");
    }

    /// A small I1: the plain DROP stalls the writes for many seconds, switching the
    /// AHI off first (btr_search_disable() empties the hash) leaves the DROP only its
    /// page checks.
    #[test]
    fn ahi_off_first_shortens_the_drop_on_57() {
        let small = [
            ("profile", "mysql-5.7"),
            ("set", "rpl_semi_sync_master_enabled=ON"),
            ("pool", "2G"),
            ("instances", "2"),
            ("table-size", "1G"),
            ("threads", "4"),
            ("ddl", "DROP TABLE big"),
        ];
        let (planned, _) = plan(&question(&small)).unwrap();
        let run = |name: &str| {
            let p = planned.iter().find(|p| p.playbook.name == name).unwrap();
            let profile = crate::profile::Profile::builtin("mysql-5.7").unwrap();
            run_to_end(p.scenario.clone(), profile, 300, &mut |_| {}).unwrap()
        };
        let (_, drop) = run("drop");
        let (scenario, off) = run("ahi-off-then-drop");
        assert!(
            drop.errors.is_empty() && off.errors.is_empty(),
            "{drop:?} {off:?}"
        );
        assert!(drop.worst_write_stall_s >= 5, "{drop:?}");
        assert!(
            off.worst_write_stall_s < drop.worst_write_stall_s,
            "{off:?} vs {drop:?}"
        );
        // The run stopped TAIL_S after its last step.
        assert!(scenario.seconds < 300);
    }
}
