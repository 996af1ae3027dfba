use super::*;

const VARIABLES_BOXED: &str = "\
+----------------------------------+--------------+
| Variable_name                    | Value        |
+----------------------------------+--------------+
| innodb_adaptive_hash_index       | ON           |
| innodb_autoinc_lock_mode         | 2            |
| innodb_buffer_pool_instances     | 8            |
| innodb_buffer_pool_size          | 137438953472 |
| innodb_flush_log_at_trx_commit   | 1            |
| rpl_semi_sync_master_enabled     | ON           |
| version                          | 5.7.44-log   |
+----------------------------------+--------------+
7 rows in set (0.01 sec)
";

const STATUS_VERTICAL: &str = "\
*************************** 1. row ***************************
           Name: big
         Engine: InnoDB
        Version: 10
     Row_format: Dynamic
           Rows: 49152000
 Avg_row_length: 210
    Data_length: 10200547328
Max_data_length: 0
   Index_length: 536870912
      Data_free: 4194304
 Create_options:
*************************** 2. row ***************************
           Name: small
         Engine: MyISAM
    Data_length: 16384
   Index_length: 0
";

fn finished(b: InputBuilder) -> (super::super::AdviceInput, Vec<String>) {
    b.finish().unwrap()
}

fn with_ddl() -> InputBuilder {
    let mut b = InputBuilder::new();
    b.set("ddl", "DROP TABLE big").unwrap();
    b
}

#[test]
fn show_variables_boxed_gives_profile_pool_ahi_and_the_plugin() {
    let mut b = with_ddl();
    read_show_variables(&mut b, VARIABLES_BOXED).unwrap();
    b.set("table-size", "10G").unwrap();
    let (input, notes) = finished(b);
    assert_eq!(input.profile, "mysql-5.7");
    assert_eq!(input.pool, ByteSize(128 << 30));
    assert_eq!(input.instances, 8);
    assert!(input.ahi);
    assert_eq!(
        input.variables,
        vec![
            ("innodb_autoinc_lock_mode".to_string(), "2".to_string()),
            ("rpl_semi_sync_master_enabled".to_string(), "ON".to_string())
        ]
    );
    // What it took and what it assumed are both said.
    assert!(
        notes
            .iter()
            .any(|n| n.contains("version 5.7.44-log, profile mysql-5.7")),
        "{notes:?}"
    );
    assert!(notes
        .iter()
        .any(|n| n.contains("innodb_buffer_pool_size = 137438953472")));
    assert!(notes.iter().any(|n| n.starts_with("assumed: the workload")));
    // innodb_flush_log_at_trx_commit is not modelled: left out, not an error.
    assert!(!notes.iter().any(|n| n.contains("flush_log")));
}

#[test]
fn flags_win_over_pasted_variables() {
    let mut b = with_ddl();
    b.set("pool", "16G").unwrap();
    b.set("profile", "mysql-8.0.23").unwrap();
    read_show_variables(&mut b, VARIABLES_BOXED).unwrap();
    b.set("table-size", "1G").unwrap();
    let (input, _) = finished(b);
    assert_eq!(input.pool, ByteSize(16 << 30));
    assert_eq!(input.profile, "mysql-8.0.23");
}

#[test]
fn show_variables_tab_separated() {
    let mut b = with_ddl();
    read_show_variables(
        &mut b,
        "Variable_name\tValue\ninnodb_buffer_pool_size\t4294967296\nversion\t8.0.22\n",
    )
    .unwrap();
    b.set("table-rows", "1000").unwrap();
    let (input, _) = finished(b);
    assert_eq!(input.profile, "mysql-8.0.22");
    assert_eq!(input.pool, ByteSize(4 << 30));
}

#[test]
fn show_variables_errors_say_what_is_wrong() {
    let mut b = with_ddl();
    let e = read_show_variables(&mut b, "hello world\n").unwrap_err();
    assert!(e.contains("not the mysql client's output"), "{e}");
    let e = read_show_variables(&mut b, "Variable_name\tValue\nversion\t5.6.51\n").unwrap_err();
    assert!(
        e.contains("version '5.6.51'") && e.contains("--profile"),
        "{e}"
    );
    let e = read_show_variables(
        &mut b,
        "Variable_name\tValue\ninnodb_buffer_pool_size\tlots\n",
    )
    .unwrap_err();
    assert!(e.contains("innodb_buffer_pool_size = lots"), "{e}");
    let e = read_show_variables(&mut b, "Variable_name\tValue\nsql_mode\t\n").unwrap_err();
    assert!(e.contains("none of the variables"), "{e}");
}

#[test]
fn table_status_vertical_gives_the_file_size_and_row_format() {
    let mut b = with_ddl();
    b.set("profile", "mysql-5.7").unwrap();
    b.set("pool", "16G").unwrap();
    read_table_status(&mut b, STATUS_VERTICAL, "big").unwrap();
    let (input, notes) = finished(b);
    // 10200547328 + 536870912 = 10737418240 = 10G exactly.
    assert_eq!(input.table.size, Some(ByteSize(10 << 30)));
    assert!(
        notes
            .iter()
            .any(|n| n.contains("Data_length + Index_length = 10G")),
        "{notes:?}"
    );
    assert!(notes.iter().any(|n| n.contains("ROW_FORMAT=Dynamic")));
}

#[test]
fn table_status_refuses_other_engines_missing_tables_and_unknown_partitions() {
    let mut b = with_ddl();
    let e = read_table_status(&mut b, STATUS_VERTICAL, "small").unwrap_err();
    assert!(e.contains("Engine MyISAM"), "{e}");
    let e = read_table_status(&mut b, STATUS_VERTICAL, "nope").unwrap_err();
    assert!(e.contains("no row for table nope"), "{e}");
    let partitioned = "Name\tEngine\tRow_format\tData_length\tIndex_length\tCreate_options\n\
                       big\tInnoDB\tDynamic\t1073741824\t0\tpartitioned\n";
    let e = read_table_status(&mut b, partitioned, "big").unwrap_err();
    assert!(e.contains("--partitions N"), "{e}");
}

#[test]
fn versions_map_to_profiles() {
    for (v, p) in [
        ("5.7.44-log", "mysql-5.7"),
        ("8.0.22", "mysql-8.0.22"),
        ("8.0.27-18", "mysql-8.0.23"),
        ("8.0.28", "mysql-8.0.28"),
        ("8.0.36", "mysql-8.0.29"),
        ("8.4.3", "mysql-8.4"),
        ("10.11.19-MariaDB-log", "mariadb-10.11"),
    ] {
        assert_eq!(profile_for_version(v).unwrap(), p, "{v}");
    }
}
