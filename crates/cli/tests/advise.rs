//! `ddlscope advise` as users meet it: a process with flags (or pasted SHOW output),
//! JSON on stdout, scenario files that `ddlscope run` replays to the same figures.

use expect_test::expect_file;
use std::path::{Path, PathBuf};
use std::process::Command;

fn ddlscope(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ddlscope"))
        .args(args)
        .output()
        .expect("run ddlscope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A fresh directory for one test's scenario files.
fn out_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("advise-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `advise --json` with `flags`, the scenario files under `dir`; the JSON with the
/// directory left out of the paths (so the golden does not depend on where it ran).
fn advise_json(dir: &Path, flags: &[&str]) -> (serde_json::Value, String) {
    let dir_s = dir.display().to_string();
    let mut args = vec!["advise", "--json", "--out", &dir_s];
    args.extend_from_slice(flags);
    let (code, out, err) = ddlscope(&args);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    (json, out.replace(&format!("{dir_s}/"), ""))
}

/// I1's server at a size a test runs quickly: 5.7 with the semi-sync plugin, the AHI
/// on, a hot 1 GB table dropped under a write load on four other tables.
const I1_SMALL: &[&str] = &[
    "--profile",
    "mysql-5.7",
    "--set",
    "rpl_semi_sync_master_enabled=ON",
    "--pool",
    "4G",
    "--instances",
    "4",
    "--ahi",
    "on",
    "--fs",
    "ext4",
    "--table-size",
    "1G",
    "--workload",
    "oltp_write_only",
    "--threads",
    "8",
    "--ddl",
    "DROP TABLE big",
];

/// An ADD COLUMN on 8.0.29, where INSTANT exists, under oltp_read_write on the table.
const ADD_COLUMN: &[&str] = &[
    "--profile",
    "mysql-8.0.29",
    "--pool",
    "1G",
    "--table-rows",
    "300000",
    "--workload",
    "oltp_read_write",
    "--threads",
    "4",
    "--ddl",
    "ALTER TABLE orders ADD COLUMN note INT",
];

/// I5's workaround: TRUNCATE of a 2 GB table on ext3 and a disk, 5.7, AHI off.
const TRUNCATE_EXT3: &[&str] = &[
    "--profile",
    "mysql-5.7",
    "--pool",
    "1G",
    "--ahi",
    "off",
    "--fs",
    "ext3",
    "--device",
    "hdd",
    "--table-size",
    "2G",
    "--workload",
    "oltp_update_index",
    "--threads",
    "8",
    "--ddl",
    "TRUNCATE TABLE big",
];

#[test]
fn golden_i1_small_drop() {
    let (json, text) = advise_json(&out_dir("i1"), I1_SMALL);
    expect_file!["advise/i1-small-drop.json"].assert_eq(&text);
    let books = json["playbooks"].as_array().unwrap();
    let drop = books.iter().find(|p| p["name"] == "drop").unwrap();
    let first = &books[0];
    assert!(
        first["worst_write_stall_s"].as_u64().unwrap()
            < drop["worst_write_stall_s"].as_u64().unwrap(),
        "the first playbook stalls writes less than the plain DROP: {text}"
    );
}

#[test]
fn golden_add_column() {
    let (_, text) = advise_json(&out_dir("alter"), ADD_COLUMN);
    expect_file!["advise/add-column-8.0.29.json"].assert_eq(&text);
}

#[test]
fn golden_truncate_on_ext3() {
    let (_, text) = advise_json(&out_dir("truncate"), TRUNCATE_EXT3);
    expect_file!["advise/truncate-ext3.json"].assert_eq(&text);
}

#[test]
fn every_playbook_replays_to_its_figures() {
    let (json, _) = advise_json(&out_dir("replay"), I1_SMALL);
    let keys = [
        "worst_write_stall_s",
        "p99_ms",
        "tps_dip_pct",
        "total_s",
        "replica_lag_s",
        "extra_disk_gb",
        "errors",
    ];
    for p in json["playbooks"].as_array().unwrap() {
        let file = p["scenario"].as_str().unwrap();
        let (code, out, err) = ddlscope(&["run", file, "--figures"]);
        assert_eq!(code, 0, "{file}: {err}");
        let replay: serde_json::Value = serde_json::from_str(&out).unwrap();
        for k in keys {
            assert_eq!(p[k], replay[k], "{}: {k}", p["name"]);
        }
    }
}

#[test]
fn pasted_show_output_fills_the_question_and_says_what_it_took() {
    let dir = out_dir("pasted");
    std::fs::create_dir_all(&dir).unwrap();
    let vars = dir.join("variables.txt");
    std::fs::write(
        &vars,
        "+------------------------------+------------+\n\
         | Variable_name                | Value      |\n\
         +------------------------------+------------+\n\
         | innodb_adaptive_hash_index   | OFF        |\n\
         | innodb_buffer_pool_size      | 1073741824 |\n\
         | version                      | 8.0.22     |\n\
         +------------------------------+------------+\n",
    )
    .unwrap();
    let status = dir.join("status.txt");
    std::fs::write(
        &status,
        "Name\tEngine\tRow_format\tRows\tData_length\tIndex_length\tCreate_options\n\
         big\tInnoDB\tDynamic\t4000000\t939524096\t134217728\t\n",
    )
    .unwrap();
    let (v, s) = (vars.display().to_string(), status.display().to_string());
    let (json, _) = advise_json(
        &dir,
        &[
            "--show-variables",
            &v,
            "--table-status",
            &s,
            "--threads",
            "4",
            "--ddl",
            "DROP TABLE big",
        ],
    );
    let notes: Vec<&str> = json["assumptions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    for expect in [
        "from SHOW VARIABLES: version 8.0.22, profile mysql-8.0.22",
        "from SHOW VARIABLES: innodb_buffer_pool_size = 1073741824",
        "from SHOW TABLE STATUS: the table's file is Data_length + Index_length = 1G",
        "assumed: the data files are on ext4",
    ] {
        assert!(notes.contains(&expect), "{expect}: {notes:?}");
    }
    // With the AHI off there is no AHI playbook.
    let names: Vec<&str> = json["playbooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(!names.contains(&"ahi-off-then-drop"), "{names:?}");
    assert!(names.contains(&"drop"), "{names:?}");
}

#[test]
fn input_the_engine_cannot_model_is_refused_naming_the_field() {
    // Each case's flags, with these where the case does not give its own.
    let defaults = [
        ("--profile", "mysql-5.7"),
        ("--pool", "4G"),
        ("--table-size", "1G"),
    ];
    let cases: &[(&[&str], &str)] = &[
        (
            &["--ddl", "DROP TABLE big", "--pool", "1T"],
            "--pool 1T: the simulator models pools from",
        ),
        (
            &["--ddl", "DROP TABLE big", "--fs", "zfs"],
            "--fs zfs: must be one of ext3, ext4, xfs",
        ),
        (
            &["--ddl", "DROP TABLE big", "--workload", "tpcc"],
            "--workload tpcc: must be one of",
        ),
        (
            &["--ddl", "DROP TABLE big", "--threads", "0"],
            "--threads 0: must be between 1 and 4096",
        ),
        (
            &["--ddl", "DROP TABLE big", "--table-rows", "5"],
            "--table-size and --table-rows: give one of them",
        ),
        (
            &[
                "--ddl",
                "DROP TABLE big",
                "--set",
                "innodb_flush_method=O_DIRECT",
            ],
            "--set innodb_flush_method: the advisor does not model this variable",
        ),
        (
            &[
                "--ddl",
                "DROP TABLE big",
                "--set",
                "innodb_autoinc_lock_mode=3",
            ],
            "--set innodb_autoinc_lock_mode=3: must be between 0 and 2",
        ),
        (
            &["--ddl", "SELECT 1"],
            "--ddl \"SELECT 1\": the advisor plans",
        ),
        (
            &["--ddl", "ALTER TABLE big ADD COLUMN c INT, ALGORITHM=COPY"],
            "leave ALGORITHM= out",
        ),
        (
            &["--ddl", "ALTER TABLE big DROP PARTITION p0"],
            "the table has no partitions; give --partitions N",
        ),
        (
            &["--ddl", "DROP TABLE big", "--profile", "mysql-9.9"],
            "--profile mysql-9.9: not a built-in profile",
        ),
        (
            &["--ddl", "DROP TABLE big", "--cpus", "0"],
            "--cpus 0: must be between 1 and 4096",
        ),
        (
            &["--ddl", "DROP TABLE big", "--statement-cpu-us", "0"],
            "--statement-cpu-us 0: must be between 1 and 100000",
        ),
        (
            &["--ddl", "DROP TABLE big", "--statement-cpu-us", "fast"],
            "--statement-cpu-us fast: not a whole number (1 to 100000)",
        ),
        (
            &["--ddl", "DROP TABLE big", "--round-trip-us", "2000000"],
            "--round-trip-us 2000000: must be between 0 and 1000000",
        ),
        (
            &["--ddl", "DROP TABLE big", "--round-trip-us", "abc"],
            "--round-trip-us abc: not a whole number (0 to 1000000)",
        ),
        (
            &["--ddl", "DROP TABLE big", "--write-us", "0"],
            "--write-us 0: must be between 1 and 1000000",
        ),
        (
            &["--ddl", "DROP TABLE big", "--fsync-us", "slow"],
            "--fsync-us slow: not a whole number (µs, 1 to 1000000)",
        ),
        (
            &["--ddl", "DROP TABLE big", "--io-channels", "257"],
            "--io-channels 257: must be between 1 and 256",
        ),
        (
            &[
                "--ddl",
                "DROP TABLE big",
                "--set",
                "innodb_redo_log_capacity=1M",
            ],
            "--set innodb_redo_log_capacity=1M: must be between 8M and 512G",
        ),
        (
            &["--ddl", "DROP TABLE big", "--open-txn", "0"],
            "--open-txn 0: must be between 1 and 3600",
        ),
        (&[], "--ddl: missing"),
    ];
    for (extra, expect) in cases {
        let mut args = vec!["advise"];
        for (flag, value) in defaults {
            if !extra.contains(&flag) {
                args.extend([flag, value]);
            }
        }
        args.extend_from_slice(extra);
        let (code, out, err) = ddlscope(&args);
        assert_eq!(code, 2, "{extra:?}: {out}");
        assert!(err.contains(expect), "{extra:?}: {err}");
    }
}
