//! Golden tables for the SQL front end: each statement beside what it parses to,
//! through one `check()` helper. Regenerate with `UPDATE_EXPECT=1 cargo test -p
//! ddlscope-engine sql` and review the diff.

use super::*;
use expect_test::{expect, Expect};

/// Parses `sql` and prints each command's Debug form, one per line. When the text of
/// a statement is not simply the whole input (batches, comments around it), the line
/// starts with that text: `"BEGIN" => Begin { .. }`. Errors print as the `mysql`
/// client prints them.
fn check(sql: &str, expect: Expect) {
    let got = match parse(sql) {
        Ok(parsed) => {
            let whole = parsed.len() == 1 && parsed[0].text == sql.trim();
            let lines: Vec<String> = parsed
                .iter()
                .map(|p| match whole {
                    true => format!("{:?}", p.command),
                    false => format!("{:?} => {:?}", p.text, p.command),
                })
                .collect();
            lines.join("\n")
        }
        Err(e) => e.to_string(),
    };
    expect.assert_eq(&got);
}

/// BEGIN, START TRANSACTION, COMMIT, ROLLBACK.
#[test]
fn transactions() {
    check("BEGIN", expect!["Begin { consistent_snapshot: false }"]);
    check(
        "begin work",
        expect!["Begin { consistent_snapshot: false }"],
    );
    check(
        "START TRANSACTION",
        expect!["Begin { consistent_snapshot: false }"],
    );
    check("COMMIT", expect!["Commit"]);
    check("ROLLBACK WORK", expect!["Rollback"]);
}

/// The nine forms sqlparser 0.64 rejects (TOOLCHAIN.md), each read by the front door.
#[test]
fn front_door_forms() {
    check(
        "START TRANSACTION WITH CONSISTENT SNAPSHOT",
        expect!["Begin { consistent_snapshot: true }"],
    );
    check(
        "SELECT * FROM sbtest1 WHERE id = 5 LOCK IN SHARE MODE",
        expect![[
            r#"Select { table: sbtest1, access: Point { column: "id", value: 5 }, lock: Shared, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [] }"#
        ]],
    );
    check("CREATE TABLE log (id INT NOT NULL, PRIMARY KEY (id)) PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN (1000), PARTITION p1 VALUES LESS THAN (2000), PARTITION p2 VALUES LESS THAN MAXVALUE)", expect![[r#"CreateTable(CreateTable { table: log, if_not_exists: false, columns: [ColumnDef { name: "id", data_type: "INT", nullable: false, auto_increment: false }], primary_key: [id], indexes: [], engine: None, row_format: None, key_block_size: None, partition_by: Some(RangePartitioning { expr: "id", partitions: [PartitionDef { name: "p0", less_than: Value(1000) }, PartitionDef { name: "p1", less_than: Value(2000) }, PartitionDef { name: "p2", less_than: MaxValue }] }) })"#]]);
    check(
        "OPTIMIZE TABLE sbtest1",
        expect!["OptimizeTable { tables: [sbtest1] }"],
    );
    check(
        "ALTER TABLE sbtest1 ENGINE=InnoDB",
        expect![[
            r#"AlterTable { table: sbtest1, actions: [Engine { name: "InnoDB" }], algorithm: Default, lock: Default }"#
        ]],
    );
    check(
        "ALTER TABLE sbtest1 FORCE",
        expect![
            "AlterTable { table: sbtest1, actions: [Force], algorithm: Default, lock: Default }"
        ],
    );
    check(
        "ALTER TABLE log DROP PARTITION p2",
        expect![[
            r#"AlterTable { table: log, actions: [DropPartition { names: ["p2"] }], algorithm: Default, lock: Default }"#
        ]],
    );
    check(
        "ALTER TABLE log TRUNCATE PARTITION p1",
        expect![[
            r#"AlterTable { table: log, actions: [TruncatePartition { names: ["p1"] }], algorithm: Default, lock: Default }"#
        ]],
    );
    check("ALTER TABLE sbtest1 DISCARD TABLESPACE", expect!["AlterTable { table: sbtest1, actions: [DiscardTablespace], algorithm: Default, lock: Default }"]);
}

/// SET in its scopes and spellings; values as written, sizes in bytes.
#[test]
fn set_variables() {
    check(
        "SET autocommit = 0",
        expect![[r#"SetVariable { scope: Session, name: "autocommit", value: Int(0) }"#]],
    );
    check(
        "SET SESSION lock_wait_timeout = 5",
        expect![[r#"SetVariable { scope: Session, name: "lock_wait_timeout", value: Int(5) }"#]],
    );
    check(
        "set global innodb_lock_wait_timeout=50",
        expect![[
            r#"SetVariable { scope: Global, name: "innodb_lock_wait_timeout", value: Int(50) }"#
        ]],
    );
    check(
        "SET GLOBAL innodb_adaptive_hash_index = OFF",
        expect![[
            r#"SetVariable { scope: Global, name: "innodb_adaptive_hash_index", value: Bool(false) }"#
        ]],
    );
    check(
        "SET @@global.innodb_buffer_pool_size = 128M",
        expect![[
            r#"SetVariable { scope: Global, name: "innodb_buffer_pool_size", value: Int(134217728) }"#
        ]],
    );
    check(
        "SET GLOBAL innodb_buffer_pool_size = 1024*1024*1024",
        expect![[
            r#"SetVariable { scope: Global, name: "innodb_buffer_pool_size", value: Int(1073741824) }"#
        ]],
    );
    check(
        "SET GLOBAL innodb_buffer_pool_size = '2G'",
        expect![[
            r#"SetVariable { scope: Global, name: "innodb_buffer_pool_size", value: Int(2147483648) }"#
        ]],
    );
    check(
        "SET @@GLOBAL.Innodb_LRU_Scan_Depth = 256",
        expect![[
            r#"SetVariable { scope: Global, name: "innodb_lru_scan_depth", value: Int(256) }"#
        ]],
    );
    check(
        "SET @@session.autocommit = ON",
        expect![[r#"SetVariable { scope: Session, name: "autocommit", value: Bool(true) }"#]],
    );
    check(
        "SET @@innodb_old_blocks_pct = 5",
        expect![[
            r#"SetVariable { scope: Session, name: "innodb_old_blocks_pct", value: Int(5) }"#
        ]],
    );
    check(
        "SET GLOBAL innodb_old_blocks_time = DEFAULT",
        expect![[
            r#"SetVariable { scope: Global, name: "innodb_old_blocks_time", value: Default }"#
        ]],
    );
    check(
        "SET GLOBAL max_write_lock_count = 18446744073709551615",
        expect![[
            r#"SetVariable { scope: Global, name: "max_write_lock_count", value: Int(18446744073709551615) }"#
        ]],
    );
    check(
        "SET LOCAL autocommit = TRUE",
        expect![[r#"SetVariable { scope: Session, name: "autocommit", value: Bool(true) }"#]],
    );
    check(
        "SET SESSION transaction_isolation = 'READ-COMMITTED'",
        expect![[
            r#"SetVariable { scope: Session, name: "transaction_isolation", value: Str("READ-COMMITTED") }"#
        ]],
    );
    check(
        "SET long_query_time = 0.5",
        expect![[r#"SetVariable { scope: Session, name: "long_query_time", value: Str("0.5") }"#]],
    );
    check(
        "SET GLOBAL innodb_buffer_pool_size = 1.5G",
        expect![[
            r#"SetVariable { scope: Global, name: "innodb_buffer_pool_size", value: Int(1610612736) }"#
        ]],
    );
}

/// SELECT: point, range and full scan; locking reads; SLEEP; system tables.
#[test]
fn selects() {
    check(
        "SELECT * FROM sbtest1 WHERE id = 5",
        expect![[
            r#"Select { table: sbtest1, access: Point { column: "id", value: 5 }, lock: NonLocking, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [] }"#
        ]],
    );
    check(
        "SELECT c FROM sbtest1 WHERE id BETWEEN 100 AND 199",
        expect![[
            r#"Select { table: sbtest1, access: Range { column: "id", min: Some(100), max: Some(199) }, lock: NonLocking, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [] }"#
        ]],
    );
    check(
        "SELECT * FROM sbtest1 WHERE id < 10 FOR UPDATE",
        expect![[
            r#"Select { table: sbtest1, access: Range { column: "id", min: None, max: Some(9) }, lock: Exclusive, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [] }"#
        ]],
    );
    check(
        "SELECT * FROM sbtest1 WHERE id >= 10 AND id < 20 AND k > 0 FOR SHARE",
        expect![[
            r#"Select { table: sbtest1, access: Range { column: "id", min: Some(10), max: Some(19) }, lock: Shared, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [] }"#
        ]],
    );
    check(
        "select count(*) from sbtest1",
        expect!["Select { table: sbtest1, access: FullScan, lock: NonLocking, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [] }"],
    );
    check(
        "SELECT * FROM sbtest1 WHERE k = 3 OR id = 4",
        expect!["Select { table: sbtest1, access: FullScan, lock: NonLocking, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [] }"],
    );
    check(
        "SELECT * FROM test.sbtest1 s WHERE 10 > s.id LIMIT 5",
        expect![[
            r#"Select { table: test.sbtest1, access: Range { column: "id", min: None, max: Some(9) }, lock: NonLocking, limit: Some(5), offset: 0, sleep_ms_per_row: 0, index_hints: [] }"#
        ]],
    );
    check(
        "SELECT * FROM sbtest1 ORDER BY id LIMIT 100, 10",
        expect!["Select { table: sbtest1, access: FullScan, lock: NonLocking, limit: Some(110), offset: 100, sleep_ms_per_row: 0, index_hints: [] }"],
    );
    check(
        "SELECT * FROM `sbtest1` WHERE `ID` = -1",
        expect![[
            r#"Select { table: sbtest1, access: Point { column: "id", value: -1 }, lock: NonLocking, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [] }"#
        ]],
    );
    check(
        "SELECT SLEEP(5)",
        expect!["SelectSleep { duration_ms: 5000 }"],
    );
    check(
        "select sleep(0.25)",
        expect!["SelectSleep { duration_ms: 250 }"],
    );
    check(
        "SELECT 1",
        expect![[r#"SelectExpressions { items: ["1"], aliases: [None] }"#]],
    );
    check(
        "SELECT @@global.innodb_buffer_pool_size, NOW()",
        expect![[
            r#"SelectExpressions { items: ["@@global.innodb_buffer_pool_size", "NOW()"], aliases: [None, None] }"#
        ]],
    );
    check(
        "SELECT * FROM performance_schema.metadata_locks WHERE OBJECT_NAME = 'sbtest1'",
        expect![[
            r#"SelectSystemTable { schema: "performance_schema", table: "metadata_locks", columns: ["*"], where_text: Some("OBJECT_NAME = 'sbtest1'") }"#
        ]],
    );
    check(
        "SELECT THREAD_ID, PROCESSLIST_ID FROM performance_schema.threads",
        expect![[
            r#"SelectSystemTable { schema: "performance_schema", table: "threads", columns: ["THREAD_ID", "PROCESSLIST_ID"], where_text: None }"#
        ]],
    );
    check(
        "select id, state, info from INFORMATION_SCHEMA.PROCESSLIST where command <> 'Sleep'",
        expect![[
            r#"SelectSystemTable { schema: "information_schema", table: "processlist", columns: ["id", "state", "info"], where_text: Some("command <> 'Sleep'") }"#
        ]],
    );
    check("SELECT trx_id, trx_started FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'", expect![[r#"SelectSystemTable { schema: "information_schema", table: "innodb_trx", columns: ["trx_id", "trx_started"], where_text: Some("trx_state = 'LOCK WAIT'") }"#]]);
}

/// INSERT, UPDATE, DELETE.
#[test]
fn writes() {
    check(
        "INSERT INTO sbtest1 (k, c, pad) VALUES (1, 'a', 'b'), (2, 'c', 'd')",
        expect![[
            r#"Insert { table: sbtest1, rows: 2, columns: ["k", "c", "pad"], values: [[Some(1), None, None], [Some(2), None, None]], on_duplicate: Error }"#
        ]],
    );
    check(
        "INSERT INTO test.sbtest1 VALUES (1, 2, 'x', 'y')",
        expect!["Insert { table: test.sbtest1, rows: 1, columns: [], values: [[Some(1), Some(2), None, None]], on_duplicate: Error }"],
    );
    check(
        "INSERT INTO sbtest1 SET k = 1, c = 'x'",
        expect![[
            r#"Insert { table: sbtest1, rows: 1, columns: ["k", "c"], values: [[Some(1), None]], on_duplicate: Error }"#
        ]],
    );
    check(
        "INSERT IGNORE INTO t (t.id, k) VALUES (5001, -2), (DEFAULT, 1 + 1), (NULL, 'x')",
        expect![[
            r#"Insert { table: t, rows: 3, columns: ["id", "k"], values: [[Some(5001), Some(-2)], [None, Some(2)], [None, None]], on_duplicate: Ignore }"#
        ]],
    );
    check(
        "INSERT INTO t (id) VALUE (7) ON DUPLICATE KEY UPDATE k = k + 1",
        expect![[
            r#"Insert { table: t, rows: 1, columns: ["id"], values: [[Some(7)]], on_duplicate: Update }"#
        ]],
    );
    check(
        "INSERT INTO t () VALUES ()",
        expect!["Insert { table: t, rows: 1, columns: [], values: [[]], on_duplicate: Error }"],
    );
    check(
        "REPLACE INTO t (id) VALUES (7)",
        expect![[
            r#"Insert { table: t, rows: 1, columns: ["id"], values: [[Some(7)]], on_duplicate: Replace }"#
        ]],
    );
    check(
        "UPDATE sbtest1 SET k=1",
        expect!["Update { table: sbtest1, access: FullScan, limit: None }"],
    );
    check(
        "UPDATE sbtest1 SET k = k + 1 WHERE id = 10",
        expect![[
            r#"Update { table: sbtest1, access: Point { column: "id", value: 10 }, limit: None }"#
        ]],
    );
    check(
        "UPDATE test.sbtest1 SET c = 'x' WHERE id BETWEEN 1 AND 1000 LIMIT 100",
        expect![[
            r#"Update { table: test.sbtest1, access: Range { column: "id", min: Some(1), max: Some(1000) }, limit: Some(100) }"#
        ]],
    );
    check(
        "DELETE FROM sbtest1 WHERE id = 7",
        expect![[
            r#"Delete { table: sbtest1, access: Point { column: "id", value: 7 }, limit: None }"#
        ]],
    );
    check(
        "DELETE FROM sbtest1",
        expect!["Delete { table: sbtest1, access: FullScan, limit: None }"],
    );
    check(
        "delete from sbtest1 where id > 100 limit 1000",
        expect![[
            r#"Delete { table: sbtest1, access: Range { column: "id", min: Some(101), max: None }, limit: Some(1000) }"#
        ]],
    );
}

/// CREATE TABLE: columns, keys, options, LIKE, range partitioning.
#[test]
fn create_table() {
    check("CREATE TABLE sbtest2 (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_2 (k)) ENGINE=InnoDB", expect![[r#"CreateTable(CreateTable { table: sbtest2, if_not_exists: false, columns: [ColumnDef { name: "id", data_type: "INT", nullable: false, auto_increment: true }, ColumnDef { name: "k", data_type: "INT", nullable: false, auto_increment: false }, ColumnDef { name: "c", data_type: "CHAR(120)", nullable: false, auto_increment: false }, ColumnDef { name: "pad", data_type: "CHAR(60)", nullable: false, auto_increment: false }], primary_key: [id], indexes: [IndexDef { name: Some("k_2"), unique: false, columns: [k] }], engine: Some("InnoDB"), row_format: None, key_block_size: None, partition_by: None })"#]]);
    check("CREATE TABLE IF NOT EXISTS test.t2 (id BIGINT UNSIGNED PRIMARY KEY, v VARCHAR(255), UNIQUE KEY uv (v(10)), INDEX (v, id)) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8", expect![[r#"CreateTable(CreateTable { table: test.t2, if_not_exists: true, columns: [ColumnDef { name: "id", data_type: "BIGINT UNSIGNED", nullable: false, auto_increment: false }, ColumnDef { name: "v", data_type: "VARCHAR(255)", nullable: true, auto_increment: false }], primary_key: [id], indexes: [IndexDef { name: Some("uv"), unique: true, columns: [v(10)] }, IndexDef { name: None, unique: false, columns: [v, id] }], engine: None, row_format: Some(Compressed), key_block_size: Some(8), partition_by: None })"#]]);
    check(
        "CREATE TABLE t3 (a INT UNIQUE) ENGINE InnoDB ROW_FORMAT DYNAMIC DEFAULT CHARSET=utf8mb4",
        expect![[
            r#"CreateTable(CreateTable { table: t3, if_not_exists: false, columns: [ColumnDef { name: "a", data_type: "INT", nullable: true, auto_increment: false }], primary_key: [], indexes: [IndexDef { name: None, unique: true, columns: [a] }], engine: Some("InnoDB"), row_format: Some(Dynamic), key_block_size: None, partition_by: None })"#
        ]],
    );
    check(
        "CREATE TABLE t2 LIKE t1",
        expect!["CreateTableLike { table: t2, like: t1 }"],
    );
    check(
        "CREATE TABLE `my db`.`t-2` LIKE `test`.`t1`",
        expect!["CreateTableLike { table: `my db`.`t-2`, like: test.t1 }"],
    );
    check("CREATE TABLE ev (id INT, created DATE)\n  PARTITION BY RANGE (TO_DAYS(created)) (\n    PARTITION p2023 VALUES LESS THAN (TO_DAYS('2024-01-01')) ENGINE = InnoDB,\n    PARTITION pmax VALUES LESS THAN (MAXVALUE) ENGINE = InnoDB)", expect![[r#"CreateTable(CreateTable { table: ev, if_not_exists: false, columns: [ColumnDef { name: "id", data_type: "INT", nullable: true, auto_increment: false }, ColumnDef { name: "created", data_type: "DATE", nullable: true, auto_increment: false }], primary_key: [], indexes: [], engine: None, row_format: None, key_block_size: None, partition_by: Some(RangePartitioning { expr: "TO_DAYS(created)", partitions: [PartitionDef { name: "p2023", less_than: Expr("TO_DAYS('2024-01-01')") }, PartitionDef { name: "pmax", less_than: MaxValue }] }) })"#]]);
    // SHOW CREATE TABLE output, pasted back: partitioning inside an executable comment.
    check(
        "CREATE TABLE `sbtest1` (
  `id` int NOT NULL AUTO_INCREMENT,
  `k` int NOT NULL DEFAULT '0',
  `c` char(120) NOT NULL DEFAULT '',
  PRIMARY KEY (`id`),
  KEY `k_1` (`k`)
) ENGINE=InnoDB AUTO_INCREMENT=10001 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci
/*!50100 PARTITION BY RANGE (`id`)
(PARTITION p0 VALUES LESS THAN (5000) ENGINE = InnoDB,
 PARTITION p1 VALUES LESS THAN MAXVALUE ENGINE = InnoDB) */;",
        expect![[
            r#""CREATE TABLE `sbtest1` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `k` int NOT NULL DEFAULT '0',\n  `c` char(120) NOT NULL DEFAULT '',\n  PRIMARY KEY (`id`),\n  KEY `k_1` (`k`)\n) ENGINE=InnoDB AUTO_INCREMENT=10001 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci\n/*!50100 PARTITION BY RANGE (`id`)\n(PARTITION p0 VALUES LESS THAN (5000) ENGINE = InnoDB,\n PARTITION p1 VALUES LESS THAN MAXVALUE ENGINE = InnoDB) */" => CreateTable(CreateTable { table: sbtest1, if_not_exists: false, columns: [ColumnDef { name: "id", data_type: "INT", nullable: false, auto_increment: true }, ColumnDef { name: "k", data_type: "INT", nullable: false, auto_increment: false }, ColumnDef { name: "c", data_type: "CHAR(120)", nullable: false, auto_increment: false }], primary_key: [id], indexes: [IndexDef { name: Some("k_1"), unique: false, columns: [k] }], engine: Some("InnoDB"), row_format: None, key_block_size: None, partition_by: Some(RangePartitioning { expr: "`id`", partitions: [PartitionDef { name: "p0", less_than: Value(5000) }, PartitionDef { name: "p1", less_than: MaxValue }] }) })"#
        ]],
    );
}

/// DROP TABLE, TRUNCATE, RENAME TABLE.
#[test]
fn drop_truncate_rename() {
    check(
        "DROP TABLE t1",
        expect!["DropTable { tables: [t1], if_exists: false }"],
    );
    check(
        "drop table if exists test.t1, `t2`;",
        expect![[
            r#""drop table if exists test.t1, `t2`" => DropTable { tables: [test.t1, t2], if_exists: true }"#
        ]],
    );
    check(
        "TRUNCATE TABLE sbtest1",
        expect!["TruncateTable { table: sbtest1 }"],
    );
    check(
        "truncate sbtest1",
        expect!["TruncateTable { table: sbtest1 }"],
    );
    check(
        "RENAME TABLE t1 TO t1_old, t1_new TO t1",
        expect!["RenameTable { renames: [(t1, t1_old), (t1_new, t1)] }"],
    );
    check(
        "RENAME TABLE test.a TO archive.a",
        expect!["RenameTable { renames: [(test.a, archive.a)] }"],
    );
}

/// CREATE INDEX and DROP INDEX, with ALGORITHM and LOCK.
#[test]
fn indexes() {
    check(
        "CREATE INDEX k_2 ON sbtest1 (k)",
        expect![[
            r#"CreateIndex { table: sbtest1, index: IndexDef { name: Some("k_2"), unique: false, columns: [k] }, algorithm: Default, lock: Default }"#
        ]],
    );
    check(
        "CREATE UNIQUE INDEX u ON test.sbtest1 (k, c(10)) ALGORITHM=INPLACE LOCK=NONE",
        expect![[
            r#"CreateIndex { table: test.sbtest1, index: IndexDef { name: Some("u"), unique: true, columns: [k, c(10)] }, algorithm: Inplace, lock: None }"#
        ]],
    );
    check(
        "DROP INDEX k_1 ON sbtest1",
        expect![[
            r#"DropIndex { table: sbtest1, name: "k_1", algorithm: Default, lock: Default }"#
        ]],
    );
    check(
        "DROP INDEX k_1 ON test.sbtest1 ALGORITHM = INPLACE LOCK = NONE",
        expect![[
            r#"DropIndex { table: test.sbtest1, name: "k_1", algorithm: Inplace, lock: None }"#
        ]],
    );
}

/// ALTER TABLE: sqlparser's actions and ours, mixed in one list.
#[test]
fn alter_table() {
    check(
        "ALTER TABLE sbtest1 ADD INDEX k_2 (k), ALGORITHM=INPLACE, LOCK=NONE",
        expect![[
            r#"AlterTable { table: sbtest1, actions: [AddIndex(IndexDef { name: Some("k_2"), unique: false, columns: [k] })], algorithm: Inplace, lock: None }"#
        ]],
    );
    check("ALTER TABLE sbtest1 ADD UNIQUE KEY (c(20))", expect!["AlterTable { table: sbtest1, actions: [AddIndex(IndexDef { name: None, unique: true, columns: [c(20)] })], algorithm: Default, lock: Default }"]);
    check(
        "ALTER TABLE sbtest1 ADD COLUMN x INT NOT NULL DEFAULT 0 AFTER k, ALGORITHM=INSTANT",
        expect![[
            r#"AlterTable { table: sbtest1, actions: [AddColumn { column: ColumnDef { name: "x", data_type: "INT", nullable: false, auto_increment: false }, position: After("k") }], algorithm: Instant, lock: Default }"#
        ]],
    );
    check(
        "ALTER TABLE sbtest1 ADD y VARCHAR(10) FIRST",
        expect![[
            r#"AlterTable { table: sbtest1, actions: [AddColumn { column: ColumnDef { name: "y", data_type: "VARCHAR(10)", nullable: true, auto_increment: false }, position: First }], algorithm: Default, lock: Default }"#
        ]],
    );
    check(
        "ALTER TABLE sbtest1 DROP COLUMN x, LOCK=SHARED",
        expect![[
            r#"AlterTable { table: sbtest1, actions: [DropColumn { name: "x" }], algorithm: Default, lock: Shared }"#
        ]],
    );
    check(
        "ALTER TABLE sbtest1 DROP INDEX k_2, DROP KEY k_3",
        expect![[
            r#"AlterTable { table: sbtest1, actions: [DropIndex { name: "k_2" }, DropIndex { name: "k_3" }], algorithm: Default, lock: Default }"#
        ]],
    );
    check(
        "ALTER TABLE sbtest1 ALGORITHM=COPY",
        expect!["AlterTable { table: sbtest1, actions: [], algorithm: Copy, lock: Default }"],
    );
    check(
        "alter table test.sbtest1 engine innodb, algorithm=inplace, lock=none",
        expect![[
            r#"AlterTable { table: test.sbtest1, actions: [Engine { name: "innodb" }], algorithm: Inplace, lock: None }"#
        ]],
    );
    check(
        "ALTER TABLE log DROP PARTITION p0, p1, ALGORITHM=INPLACE",
        expect![[
            r#"AlterTable { table: log, actions: [DropPartition { names: ["p0", "p1"] }], algorithm: Inplace, lock: Default }"#
        ]],
    );
    check("ALTER TABLE sbtest1 IMPORT TABLESPACE", expect!["AlterTable { table: sbtest1, actions: [ImportTablespace], algorithm: Default, lock: Default }"]);
    check("ALTER TABLE sbtest1 ROW_FORMAT=COMPRESSED, KEY_BLOCK_SIZE=4", expect!["AlterTable { table: sbtest1, actions: [RowFormat(Compressed), KeyBlockSize(4)], algorithm: Default, lock: Default }"]);
    check(
        "ALTER TABLE `force` FORCE",
        expect!["AlterTable { table: force, actions: [Force], algorithm: Default, lock: Default }"],
    );
    check(
        "ALTER TABLE sbtest1 LOCK=EXCLUSIVE, ALGORITHM=DEFAULT, FORCE",
        expect![
            "AlterTable { table: sbtest1, actions: [Force], algorithm: Default, lock: Exclusive }"
        ],
    );
    check(
        "ALTER TABLE sbtest1",
        expect!["AlterTable { table: sbtest1, actions: [], algorithm: Default, lock: Default }"],
    );
}

/// OPTIMIZE, ANALYZE, LOCK/UNLOCK TABLES, FLUSH TABLES, KILL, USE.
#[test]
fn maintenance_locks_admin() {
    check(
        "optimize local table test.t1, t2",
        expect!["OptimizeTable { tables: [test.t1, t2] }"],
    );
    check(
        "ANALYZE TABLE sbtest1",
        expect!["AnalyzeTable { tables: [sbtest1] }"],
    );
    check(
        "ANALYZE NO_WRITE_TO_BINLOG TABLE t1, t2",
        expect!["AnalyzeTable { tables: [t1, t2] }"],
    );
    check(
        "LOCK TABLES t1 READ, test.t2 WRITE",
        expect!["LockTables { tables: [(t1, Read), (test.t2, Write)] }"],
    );
    check(
        "LOCK TABLE t1 AS a READ LOCAL, t2 b LOW_PRIORITY WRITE",
        expect!["LockTables { tables: [(t1, Read), (t2, Write)] }"],
    );
    // One table under two aliases is locked once, in the stronger mode.
    check(
        "LOCK TABLES t1 AS a READ, t1 AS b WRITE, t2 READ",
        expect!["LockTables { tables: [(t1, Write), (t2, Read)] }"],
    );
    check("UNLOCK TABLES", expect!["UnlockTables"]);
    check(
        "FLUSH TABLES",
        expect!["FlushTables { tables: [], mode: Close }"],
    );
    check(
        "FLUSH TABLES t1, test.t2",
        expect!["FlushTables { tables: [t1, test.t2], mode: Close }"],
    );
    check(
        "FLUSH TABLES WITH READ LOCK",
        expect!["FlushTables { tables: [], mode: WithReadLock }"],
    );
    check(
        "FLUSH TABLES t1 FOR EXPORT",
        expect!["FlushTables { tables: [t1], mode: ForExport }"],
    );
    check("KILL 12", expect!["Kill { kind: Connection, id: 12 }"]);
    check("KILL QUERY 12", expect!["Kill { kind: Query, id: 12 }"]);
    check(
        "KILL CONNECTION 12",
        expect!["Kill { kind: Connection, id: 12 }"],
    );
    check("USE test", expect![[r#"Use { schema: "test" }"#]]);
    check("use `my db`", expect![[r#"Use { schema: "my db" }"#]]);
}

/// SHOW statements.
#[test]
fn show() {
    check(
        "SHOW PROCESSLIST",
        expect!["ShowProcesslist { full: false }"],
    );
    check(
        "show full processlist",
        expect!["ShowProcesslist { full: true }"],
    );
    check(
        "SHOW ENGINE INNODB STATUS",
        expect!["ShowEngineInnodbStatus"],
    );
    check(
        "SHOW VARIABLES LIKE 'innodb_buffer_pool%'",
        expect![[r#"ShowVariables { scope: Session, like: Some("innodb_buffer_pool%") }"#]],
    );
    check(
        "SHOW GLOBAL VARIABLES",
        expect!["ShowVariables { scope: Global, like: None }"],
    );
    check(
        "SHOW SESSION VARIABLES LIKE 'autocommit'",
        expect![[r#"ShowVariables { scope: Session, like: Some("autocommit") }"#]],
    );
    check(
        "SHOW GLOBAL STATUS LIKE 'Threads_running'",
        expect![[r#"ShowStatus { scope: Global, like: Some("Threads_running") }"#]],
    );
    check(
        "SHOW STATUS",
        expect!["ShowStatus { scope: Session, like: None }"],
    );
    check("SHOW TABLES", expect!["ShowTables"]);
    check(
        "SHOW CREATE TABLE test.sbtest1",
        expect!["ShowCreateTable { table: test.sbtest1 }"],
    );
}

/// Batches split at `;` (not inside quotes), comments and blanks around statements dropped from their text, odd casing and spacing.
#[test]
fn batches_comments_whitespace() {
    check(
        "BEGIN; SELECT * FROM sbtest1 WHERE id = 1 FOR UPDATE; COMMIT;",
        expect![[r#"
            "BEGIN" => Begin { consistent_snapshot: false }
            "SELECT * FROM sbtest1 WHERE id = 1 FOR UPDATE" => Select { table: sbtest1, access: Point { column: "id", value: 1 }, lock: Exclusive, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [] }
            "COMMIT" => Commit"#]],
    );
    check(
        "-- take the lock first\nLOCK TABLES t1 WRITE; /* then */ FLUSH TABLES t1 ; UNLOCK TABLES",
        expect![[r#"
        "LOCK TABLES t1 WRITE" => LockTables { tables: [(t1, Write)] }
        "FLUSH TABLES t1" => FlushTables { tables: [t1], mode: Close }
        "UNLOCK TABLES" => UnlockTables"#]],
    );
    check(
        "# a hash comment\nDROP TABLE t1",
        expect![[r#""DROP TABLE t1" => DropTable { tables: [t1], if_exists: false }"#]],
    );
    check(
        "SELECT 'a;b'; SELECT 2",
        expect![[r#"
            "SELECT 'a;b'" => SelectExpressions { items: ["'a;b'"], aliases: [None] }
            "SELECT 2" => SelectExpressions { items: ["2"], aliases: [None] }"#]],
    );
    check(
        "\n\t  sElEcT   *\n  FROM\tsbtest1\n WHERE  ID=3  ;;  ",
        expect![[
            r#""sElEcT   *\n  FROM\tsbtest1\n WHERE  ID=3" => Select { table: sbtest1, access: Point { column: "id", value: 3 }, lock: NonLocking, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [] }"#
        ]],
    );
    check(
        "ALTER TABLE t1 /* rebuild */ FORCE",
        expect!["AlterTable { table: t1, actions: [Force], algorithm: Default, lock: Default }"],
    );
    check(
        "DROP TABLE t1;;;DROP TABLE t2",
        expect![[r#"
        "DROP TABLE t1" => DropTable { tables: [t1], if_exists: false }
        "DROP TABLE t2" => DropTable { tables: [t2], if_exists: false }"#]],
    );
    check("START TRANSACTION WITH CONSISTENT SNAPSHOT; SELECT * FROM sbtest1 LOCK IN SHARE MODE; ALTER TABLE sbtest1 ENGINE=InnoDB", expect![[r#"
        "START TRANSACTION WITH CONSISTENT SNAPSHOT" => Begin { consistent_snapshot: true }
        "SELECT * FROM sbtest1 LOCK IN SHARE MODE" => Select { table: sbtest1, access: FullScan, lock: Shared, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [] }
        "ALTER TABLE sbtest1 ENGINE=InnoDB" => AlterTable { table: sbtest1, actions: [Engine { name: "InnoDB" }], algorithm: Default, lock: Default }"#]]);
}

/// Errors with MySQL's numbers and texts: 1064 quotes the statement from the fault, with lines counted within the statement.
#[test]
fn errors() {
    check("DROP TABLEX t1", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'TABLEX t1' at line 1"]);
    check("  ;  ", expect!["ERROR 1065 (42000): Query was empty"]);
    check(
        "-- only a comment",
        expect!["ERROR 1065 (42000): Query was empty"],
    );
    check("DROP TABLE t1; SELEKT 1", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'SELEKT 1' at line 1"]);
    check("DROP TABLE", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1"]);
    check("SELECT * FROM t1 WHERE c = 'abc", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near ''abc' at line 1"]);
    check("SELECT 1;\nALTER TABLE t1\n  ADD INDEX (k),\n  FROB", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'FROB' at line 3"]);
    check(
        "LOCK TABLES t1 WRITE, t1 READ",
        expect!["ERROR 1066 (42000): Not unique table/alias: 't1'"],
    );
    check(
        "LOCK TABLES t1 AS a READ, t2 a WRITE",
        expect!["ERROR 1066 (42000): Not unique table/alias: 'a'"],
    );
    check("OPTIMIZE t1", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 't1' at line 1"]);
    // The grammar takes any word after ALGORITHM= and LOCK=, then names the unknown
    // one (checked on MariaDB 10.11.19: 1800, 1801; a number is still 1064).
    check(
        "ALTER TABLE t1 ALGORITHM=FAST",
        expect!["ERROR 1800 (HY000): Unknown ALGORITHM 'FAST'"],
    );
    check(
        "ALTER TABLE t1 ADD COLUMN c2 INT, LOCK=WHATEVER",
        expect!["ERROR 1801 (HY000): Unknown LOCK type 'WHATEVER'"],
    );
    check("ALTER TABLE t1 ALGORITHM=7", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '7' at line 1"]);
    check("ALTER TABLE t1 ROW_FORMAT=SPARSE", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'SPARSE' at line 1"]);
    check("SELECT * FROM t1 FOR UPDATE LOCK IN SHARE MODE", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'LOCK IN SHARE MODE' at line 1"]);
    check("LOCK TABLES t1", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1"]);
    check("TRUNCATE TABLE a, b", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near ', b' at line 1"]);
    check("DROP TABLE a.b.c", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '.c' at line 1"]);
    check(
        "DROP TABLE ``",
        expect!["ERROR 1103 (42000): Incorrect table name ''"],
    );
    check(
        "CREATE TABLE `t1 ` (id INT)",
        expect!["ERROR 1103 (42000): Incorrect table name 't1 '"],
    );
    check("DROP TABLE ttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt", expect!["ERROR 1059 (42000): Identifier name 'ttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt' is too long"]);
    check(
        "ALTER TABLE t1 ADD INDEX `PRIMARY` (k)",
        expect!["ERROR 1280 (42000): Incorrect index name 'PRIMARY'"],
    );
    check(
        "CREATE TABLE t (id INT, ID INT)",
        expect!["ERROR 1060 (42S21): Duplicate column name 'ID'"],
    );
    check(
        "CREATE TABLE t (a INT PRIMARY KEY, b INT, PRIMARY KEY (b))",
        expect!["ERROR 1068 (42000): Multiple primary key defined"],
    );
    check(
        "CREATE TABLE t (a INT, KEY k (a), KEY k (a))",
        expect!["ERROR 1061 (42000): Duplicate key name 'k'"],
    );
    check("CREATE TABLE t (id INT) PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN (10), PARTITION p1 VALUES LESS THAN (5))", expect!["ERROR 1493 (HY000): VALUES LESS THAN value must be strictly increasing for each partition"]);
    check("CREATE TABLE t (id INT) PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN MAXVALUE, PARTITION p1 VALUES LESS THAN (5))", expect!["ERROR 1481 (HY000): MAXVALUE can only be used in last partition definition"]);
    check("CREATE TABLE t (id INT) PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN (5), PARTITION P0 VALUES LESS THAN (9))", expect!["ERROR 1517 (HY000): Duplicate partition name P0"]);
    check(
        "CREATE TABLE t (id INT) PARTITION BY RANGE (id)",
        expect!["ERROR 1492 (HY000): For RANGE partitions each partition must be defined"],
    );
    check(
        "SET GLOBAL innodb_old_blocks_pct = 5M",
        expect!["ERROR 1232 (42000): Incorrect argument type to variable 'innodb_old_blocks_pct'"],
    );
    check(
        "SET GLOBAL innodb_buffer_pool_size = 99999999999999999999999999999999999999999",
        expect![
            "ERROR 1232 (42000): Incorrect argument type to variable 'innodb_buffer_pool_size'"
        ],
    );
    check("ALTER TABLE t1 ALGORITHM INPLACE LOCK NONE", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'LOCK NONE' at line 1"]);
    check(
        "DROP TABLE t1; SELECT 'x\n\nabc",
        expect![[r#"
        ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near ''x

        abc' at line 1"#]],
    );
}

/// Well-formed statements the simulator does not model: 1235 naming them.
#[test]
fn not_modelled() {
    check(
        "CREATE VIEW v AS SELECT 1",
        expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'CREATE VIEW'"],
    );
    check(
        "SELECT * FROM t1 JOIN t2 ON t1.id = t2.id",
        expect![
            "ERROR 1235 (42000): This version of ddlscope doesn't yet support 'SELECT ... JOIN'"
        ],
    );
    check("SELECT * FROM performance_schema.events_waits_current", expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'SELECT FROM performance_schema.events_waits_current'"]);
    check(
        "CREATE TRIGGER trg AFTER UPDATE ON t FOR EACH ROW BEGIN SET @a = 1; END",
        expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'CREATE TRIGGER with a SET body'"],
    );
    check(
        "CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW SET NEW.k = 1",
        expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'CREATE TRIGGER with a SET body'"],
    );
    check(
        "CREATE TRIGGER trg AFTER INSERT ON t FOR EACH ROW INSERT INTO n (id) VALUES (NEW.id), (NEW.k)",
        expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'CREATE TRIGGER with an INSERT of several rows'"],
    );
    check("INSERT INTO t SELECT 1, 2", expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'INSERT ... SELECT without a table'"]);
    check(
        "SELECT SLEEP(0.5), c FROM t1 WHERE id = 5",
        expect![[
            r#"Select { table: t1, access: Point { column: "id", value: 5 }, lock: NonLocking, limit: None, offset: 0, sleep_ms_per_row: 500, index_hints: [] }"#
        ]],
    );
    check(
        "SELECT * FROM t1 FORCE INDEX (idx_kc) IGNORE KEY (k_1) WHERE k = 5",
        expect![[
            r#"Select { table: t1, access: Point { column: "k", value: 5 }, lock: NonLocking, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [IndexHint { kind: Force, names: ["idx_kc"] }, IndexHint { kind: Ignore, names: ["k_1"] }] }"#
        ]],
    );
    check(
        "SELECT SLEEP(k) FROM t1",
        expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'SLEEP() of an expression'"],
    );
    check(
        "SELECT * FROM t1 FOR UPDATE NOWAIT",
        expect![
            "ERROR 1235 (42000): This version of ddlscope doesn't yet support 'SELECT ... NOWAIT'"
        ],
    );
    check(
        "SET @x = 1",
        expect![
            "ERROR 1235 (42000): This version of ddlscope doesn't yet support 'SET @user_variable'"
        ],
    );
    check("SET autocommit = 0, unique_checks = 0", expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'SET of several variables in one statement'"]);
    check(
        "SET NAMES utf8mb4",
        expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'SET NAMES'"],
    );
    check("ALTER TABLE t1 MODIFY c INT", expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'ALTER TABLE ... MODIFY COLUMN'"]);
    check("ALTER TABLE t1 ADD PRIMARY KEY (id)", expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'ALTER TABLE ... ADD PRIMARY KEY'"]);
    check(
        "CREATE TABLE t (id INT) PARTITION BY HASH (id) PARTITIONS 4",
        expect![
            "ERROR 1235 (42000): This version of ddlscope doesn't yet support 'PARTITION BY HASH'"
        ],
    );
    check(
        "CREATE TABLE t (id INT) ROW_FORMAT=FIXED",
        expect![
            "ERROR 1235 (42000): This version of ddlscope doesn't yet support 'ROW_FORMAT=FIXED'"
        ],
    );
    check("CREATE TEMPORARY TABLE t (id INT)", expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'CREATE TEMPORARY TABLE'"]);
    check("DROP TEMPORARY TABLE t", expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'DROP TEMPORARY TABLE'"]);
    check("SHOW ENGINE INNODB MUTEX", expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'SHOW ENGINE INNODB MUTEX'"]);
    check(
        "FLUSH LOGS",
        expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'FLUSH LOGS'"],
    );
    check("START TRANSACTION READ ONLY", expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'START TRANSACTION READ ONLY'"]);
    check("ROLLBACK TO SAVEPOINT s1", expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'ROLLBACK TO SAVEPOINT'"]);
}

/// `Command::name()` (what 1235 messages say) and `is_ddl()`, one statement a line.
fn check_names(statements: &[&str], expect: Expect) {
    let lines: Vec<String> = statements
        .iter()
        .map(|sql| {
            let parsed = parse(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
            let c = &parsed[0].command;
            let ddl = if c.is_ddl() { "ddl" } else { "" };
            format!("{:<44} {ddl:<3}  {sql}", c.name())
        })
        .collect();
    expect.assert_eq(&(lines.join("\n") + "\n"));
}

#[test]
fn names_and_ddl() {
    check_names(
        &[
            "BEGIN",
            "START TRANSACTION WITH CONSISTENT SNAPSHOT",
            "SET GLOBAL innodb_lru_scan_depth = 100",
            "SELECT * FROM t1 WHERE id = 1",
            "SELECT * FROM t1 WHERE id = 1 FOR UPDATE",
            "SELECT * FROM t1 LOCK IN SHARE MODE",
            "SELECT SLEEP(1)",
            "SELECT * FROM performance_schema.threads",
            "INSERT INTO t1 VALUES (1)",
            "CREATE TABLE t (id INT)",
            "CREATE TABLE t (id INT) PARTITION BY RANGE (id) (PARTITION p VALUES LESS THAN MAXVALUE)",
            "CREATE TABLE t2 LIKE t1",
            "DROP TABLE t1",
            "TRUNCATE t1",
            "RENAME TABLE a TO b",
            "CREATE INDEX i ON t1 (k)",
            "DROP INDEX i ON t1",
            "ALTER TABLE t1 DROP PARTITION p1",
            "ALTER TABLE t1 ADD INDEX (k), ALGORITHM=INPLACE",
            "ALTER TABLE t1 ADD INDEX (k), DROP INDEX j",
            "OPTIMIZE TABLE t1",
            "ANALYZE TABLE t1",
            "LOCK TABLES t1 READ",
            "FLUSH TABLES WITH READ LOCK",
            "FLUSH TABLES t1 FOR EXPORT",
            "KILL QUERY 5",
            "SHOW ENGINE INNODB STATUS",
        ],
        expect![[r#"
            BEGIN                                             BEGIN
            START TRANSACTION WITH CONSISTENT SNAPSHOT        START TRANSACTION WITH CONSISTENT SNAPSHOT
            SET                                               SET GLOBAL innodb_lru_scan_depth = 100
            SELECT                                            SELECT * FROM t1 WHERE id = 1
            SELECT ... FOR UPDATE                             SELECT * FROM t1 WHERE id = 1 FOR UPDATE
            SELECT ... FOR SHARE                              SELECT * FROM t1 LOCK IN SHARE MODE
            SELECT SLEEP                                      SELECT SLEEP(1)
            SELECT FROM performance_schema                    SELECT * FROM performance_schema.threads
            INSERT                                            INSERT INTO t1 VALUES (1)
            CREATE TABLE                                 ddl  CREATE TABLE t (id INT)
            CREATE TABLE ... PARTITION BY RANGE          ddl  CREATE TABLE t (id INT) PARTITION BY RANGE (id) (PARTITION p VALUES LESS THAN MAXVALUE)
            CREATE TABLE ... LIKE                        ddl  CREATE TABLE t2 LIKE t1
            DROP TABLE                                   ddl  DROP TABLE t1
            TRUNCATE TABLE                               ddl  TRUNCATE t1
            RENAME TABLE                                 ddl  RENAME TABLE a TO b
            CREATE INDEX                                 ddl  CREATE INDEX i ON t1 (k)
            DROP INDEX                                   ddl  DROP INDEX i ON t1
            ALTER TABLE ... DROP PARTITION               ddl  ALTER TABLE t1 DROP PARTITION p1
            ALTER TABLE ... ADD INDEX                    ddl  ALTER TABLE t1 ADD INDEX (k), ALGORITHM=INPLACE
            ALTER TABLE                                  ddl  ALTER TABLE t1 ADD INDEX (k), DROP INDEX j
            OPTIMIZE TABLE                               ddl  OPTIMIZE TABLE t1
            ANALYZE TABLE                                     ANALYZE TABLE t1
            LOCK TABLES                                       LOCK TABLES t1 READ
            FLUSH TABLES WITH READ LOCK                       FLUSH TABLES WITH READ LOCK
            FLUSH TABLES ... FOR EXPORT                       FLUSH TABLES t1 FOR EXPORT
            KILL QUERY                                        KILL QUERY 5
            SHOW ENGINE INNODB STATUS                         SHOW ENGINE INNODB STATUS
        "#]],
    );
}

/// A batch is parsed whole before anything runs: one syntax error and nothing in it
/// runs; a statement the simulation does not model fails alone, with 1235 naming it.
#[test]
fn a_batch_with_a_syntax_error_runs_nothing() {
    let mut scenario = crate::Scenario::builtin("drop-table-demo").unwrap();
    scenario.script.clear();
    let profile = crate::Profile::builtin("mysql-5.7").unwrap();
    let mut sim = crate::Sim::new(scenario, profile).unwrap();
    let events = sim.events().len();
    let e = sim.execute("DROP TABLE t1; OPTIMIZ TABLE t2").unwrap_err();
    assert_eq!(e.code, 1064, "{e}");
    sim.run_for(crate::Tick::from_secs(1));
    assert!(sim.tables().all(|t| !t.dropped));
    assert!(sim.statements().is_empty());
    assert!(sim.events()[events..]
        .iter()
        .all(|e| !matches!(e.kind, crate::EventKind::StatementStarted { .. })));
    sim.execute("FLUSH TABLES t1 FOR EXPORT").unwrap();
    sim.run_for(crate::Tick::from_ms(10));
    expect![[r#"
        "ERROR 1235 (42000): This version of ddlscope doesn't yet support 'FLUSH TABLES ... FOR EXPORT'"
    "#]]
    .assert_debug_eq(&sim.statements()[0].client_output().unwrap());
}

/// Statements that parse but name what does not exist fail when they run, with the
/// server's errors, once their metadata locks are held (as `open_tables()` finds out).
#[test]
fn ddl_on_what_does_not_exist_fails_with_the_servers_errors() {
    let mut scenario = crate::Scenario::builtin("drop-table-demo").unwrap();
    scenario.script.clear();
    let profile = crate::Profile::builtin("mysql-5.7").unwrap();
    let mut sim = crate::Sim::new(scenario, profile).unwrap();
    for sql in [
        "CREATE INDEX k_2 ON nosuch (k)",
        "CREATE INDEX k_1 ON t1 (k)",
        "ALTER TABLE t1 ADD INDEX kk (k, nosuch)",
        "CREATE INDEX k_2 ON t1 (k) ALGORITHM=INSTANT",
        "ALTER TABLE t1 DROP PARTITION p1",
    ] {
        sim.execute(sql).unwrap();
    }
    sim.run_for(crate::Tick::from_secs(1));
    let got: Vec<String> = sim
        .statements()
        .iter()
        .map(|r| r.client_output().unwrap())
        .collect();
    expect![[r#"
        [
            "ERROR 1146 (42S02): Table 'test.nosuch' doesn't exist",
            "ERROR 1061 (42000): Duplicate key name 'k_1'",
            "ERROR 1072 (42000): Key column 'nosuch' doesn't exist in table",
            "ERROR 1845 (0A000): ALGORITHM=INSTANT is not supported for this operation. Try ALGORITHM=COPY/INPLACE.",
            "ERROR 1505 (HY000): Partition management on a not partitioned table is not possible",
        ]
    "#]]
    .assert_debug_eq(&got);
}

/// What the hand-written grammar reads that sqlparser read otherwise, each checked on
/// MariaDB 10.11.19 where the server decides: valid MySQL that sqlparser refused,
/// faults now where the server's parser stops, and inputs that nest deeply.
#[test]
fn grammar_matches_the_server() {
    // MariaDB: 1064 near ')' (an empty list is no table_element_list); 1113 needs a
    // list with no column in it.
    check("CREATE TABLE t2 ()", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near ')' at line 1"]);
    check(
        "CREATE TABLE t3 (KEY (a))",
        expect!["ERROR 1113 (42000): A table must have at least 1 column"],
    );
    check("CREATE TABLE t4 (a INT, KEY PRIMARY (a))", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'PRIMARY (a))' at line 1"]);
    check("CREATE TABLE t5 (id INT) KEY_BLOCK_SIZE=x", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'x' at line 1"]);
    check(
        "CREATE TABLE t (LIKE u)",
        expect!["CreateTableLike { table: t, like: u }"],
    );
    check(
        "CREATE TABLE t (id INT) ENGINE='InnoDB'",
        expect![[
            r#"CreateTable(CreateTable { table: t, if_not_exists: false, columns: [ColumnDef { name: "id", data_type: "INT", nullable: true, auto_increment: false }], primary_key: [], indexes: [], engine: Some("InnoDB"), row_format: None, key_block_size: None, partition_by: None })"#
        ]],
    );
    check(
        "ALTER TABLE t ENGINE='InnoDB'",
        expect![[
            r#"AlterTable { table: t, actions: [Engine { name: "InnoDB" }], algorithm: Default, lock: Default }"#
        ]],
    );
    // MariaDB stops one token later (near ''): it reads `k` as the name of an
    // engine-defined table option (`k = v`); MySQL's grammar has none.
    check("ALTER TABLE t DROP COLUMN c, k", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'k' at line 1"]);
    check("SELECT * FROM t WHERE id = 1 LOCK IN SHARE MODE FOR UPDATE", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'FOR UPDATE' at line 1"]);
    check(
        "SELECT * FROM t WHERE id IN (SELECT id FROM u) AND id = 3",
        expect![[
            r#"Select { table: t, access: Point { column: "id", value: 3 }, lock: NonLocking, limit: None, offset: 0, sleep_ms_per_row: 0, index_hints: [] }"#
        ]],
    );
    check(
        "SELECT * FROM t WHERE id = 1 FOR UPDATE WAIT 5",
        expect![
            "ERROR 1235 (42000): This version of ddlscope doesn't yet support 'SELECT ... WAIT'"
        ],
    );
    check(
        "SELECT 1+1, 'a' 'b', -1, 5 DIV 2 FROM DUAL",
        expect![[
            r#"SelectExpressions { items: ["1+1", "'ab'", "-1", "5 DIV 2"], aliases: [None, None, None, None] }"#
        ]],
    );
    check(
        "UPDATE LOW_PRIORITY IGNORE t SET a = 1",
        expect!["Update { table: t, access: FullScan, limit: None }"],
    );
    check("UPDATE t, u SET t.a = 1", expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'UPDATE with several tables'"]);
    check(
        "DELETE QUICK IGNORE FROM t",
        expect!["Delete { table: t, access: FullScan, limit: None }"],
    );
    check(
        "SET autocommit := 1",
        expect![[r#"SetVariable { scope: Session, name: "autocommit", value: Int(1) }"#]],
    );
    check(
        "SET PASSWORD = 'x'",
        expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'SET PASSWORD'"],
    );
    check("COMMIT AND NO CHAIN", expect!["Commit"]);
    check(
        "COMMIT AND CHAIN",
        expect![
            "ERROR 1235 (42000): This version of ddlscope doesn't yet support 'COMMIT AND CHAIN'"
        ],
    );
    check("START", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1"]);
    check(
        "UNLOCK TABLE; FLUSH TABLE t; DROP TABLES a, b; RENAME TABLES a TO b",
        expect![[r#"
        "UNLOCK TABLE" => UnlockTables
        "FLUSH TABLE t" => FlushTables { tables: [t], mode: Close }
        "DROP TABLES a, b" => DropTable { tables: [a, b], if_exists: false }
        "RENAME TABLES a TO b" => RenameTable { renames: [(a, b)] }"#]],
    );
    check(
        "SHOW MASTER STATUS",
        expect![
            "ERROR 1235 (42000): This version of ddlscope doesn't yet support 'SHOW MASTER STATUS'"
        ],
    );
    check("SHOW ENGINE INNODB", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1"]);
    check("FLUSH LIST", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'LIST' at line 1"]);
    check(
        "XA START 'x'",
        expect!["ERROR 1235 (42000): This version of ddlscope doesn't yet support 'XA START'"],
    );
    check(
        "(SELECT 1)",
        expect![
            "ERROR 1235 (42000): This version of ddlscope doesn't yet support 'this kind of query'"
        ],
    );
    check(
        "USE a.b",
        expect!["ERROR 1102 (42000): Incorrect database name 'a.b'"],
    );
    // Nesting past 64 levels is refused, never a stack overflow.
    check(
        &format!("SELECT {}1{}", "(".repeat(5000), ")".repeat(5000)),
        expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1"],
    );
    check(&format!("SELECT {}1", "- ".repeat(5000)), expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1"]);
}

/// Where the lexer reads text otherwise than sqlparser's tokenizer did, each as
/// MariaDB 10.11.19 reads it (`mariadb --comments -e`).
#[test]
fn lexer_matches_the_server() {
    let near = |text: &str| {
        format!("ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '{text}' at line 1")
    };
    let items = |items: &str, aliases: &str| {
        format!("SelectExpressions {{ items: [{items}], aliases: [{aliases}] }}")
    };
    let cases = [
        // `--` at the end of the input starts a comment.
        ("SELECT 1 --", items(r#""1""#, "None")),
        // An unclosed comment: near the `/*`; an unclosed executable one: at the end.
        ("SELECT 1 /* abc", near("/* abc")),
        ("SELECT 1 /*! +2", near("")),
        // `/*!` inside `/*!` is skipped; the first `*/` ends both.
        ("SELECT 1 /*! + /*!50000 2 */", items(r#""1 + 2""#, "None")),
        ("SELECT 1 /*! + /*! 2 */ */", near("/")),
        // The server's ABORT_SYM: a hex literal of odd length or with a non-digit, a
        // bit literal with a 2, an exponent without digits.
        ("SELECT X'1G'", near("X'1G'")),
        ("SELECT X'123', 1", near("X'123', 1")),
        ("SELECT B'012'", near("B'012'")),
        ("SELECT 1.5e", near("1.5e")),
        ("SELECT COUNT(1.5e+)", near("1.5e+)")),
        // Unclosed prefixed strings: near their letter.
        ("SELECT X'ab", near("X'ab")),
        ("SELECT N'ab", near("N'ab")),
        // `?` is a placeholder only in prepared statements; `==` is `=` `=`.
        ("SELECT ?", near("?")),
        ("SELECT 1==1", near("=1")),
        ("SELECT 1 !=> 2", near("> 2")),
        // A decimal then a word: the number and its alias (MariaDB: `1.5` named `x`).
        ("SELECT 1.5x", items(r#""1.5""#, r#"Some("x")"#)),
        // Names that look like numbers: `1e`, `0x1G`, `0X1F`, `0b012` (MariaDB:
        // unknown column), and a non-ASCII blank is part of a name.
        (
            "SELECT 1e, 0x1G, 0X1F, 0b012",
            items(r#""1e", "0x1G", "0X1F", "0b012""#, "None, None, None, None"),
        ),
        ("SELECT\u{a0}1", near("SELECT\u{a0}1")),
        // A string in double quotes is a string after DATE too.
        (
            r#"SELECT DATE "2024-01-01""#,
            items(r#""DATE \"2024-01-01\"""#, "None"),
        ),
    ];
    let got: Vec<String> = cases
        .iter()
        .filter_map(|(sql, want)| {
            let got = match parse(sql) {
                Ok(parsed) => format!("{:?}", parsed[0].command),
                Err(e) => e.to_string(),
            };
            (got != *want).then(|| format!("{sql}\n  got  {got}\n  want {want}"))
        })
        .collect();
    assert!(got.is_empty(), "{}", got.join("\n"));
}

/// The statements online schema-change tools send: INSERT ... SELECT (pt-osc's and
/// gh-ost's copy chunks), REPLACE, CREATE/DROP TRIGGER with pt-osc's bodies, and their
/// errors.
#[test]
fn tool_statements() {
    check("INSERT INTO t2 SELECT * FROM t1", expect!["InsertSelect(InsertSelect { table: t2, columns: [], source: t1, items: [Star], access: FullScan, lock: NonLocking, limit: None, offset: 0, index_hints: [], on_duplicate: Error })"]);
    check("REPLACE INTO t1 VALUES (1)", expect!["Insert { table: t1, rows: 1, columns: [], values: [[Some(1)]], on_duplicate: Replace }"]);
    check(
        "INSERT LOW_PRIORITY IGNORE INTO `test`.`_t_new` (`id`, `k`, `c`, `pad`) SELECT `id`, `k`, `c`, `pad` FROM `test`.`t` FORCE INDEX(`PRIMARY`) WHERE ((`id` >= '1')) AND ((`id` <= '1000')) LOCK IN SHARE MODE /*pt-online-schema-change 1 copy nibble*/",
        expect![[r#""INSERT LOW_PRIORITY IGNORE INTO `test`.`_t_new` (`id`, `k`, `c`, `pad`) SELECT `id`, `k`, `c`, `pad` FROM `test`.`t` FORCE INDEX(`PRIMARY`) WHERE ((`id` >= '1')) AND ((`id` <= '1000')) LOCK IN SHARE MODE" => InsertSelect(InsertSelect { table: test._t_new, columns: ["id", "k", "c", "pad"], source: test.t, items: [Column("id"), Column("k"), Column("c"), Column("pad")], access: Range { column: "id", min: Some(1), max: Some(1000) }, lock: Shared, limit: None, offset: 0, index_hints: [IndexHint { kind: Force, names: ["PRIMARY"] }], on_duplicate: Ignore })"#]],
    );
    check(
        "INSERT IGNORE INTO `test`.`_t_gho` (`id`, `k`) (SELECT `id`, `k` FROM `test`.`t` FORCE INDEX (`PRIMARY`) WHERE (((`id` > 20)) AND ((`id` < 30) OR ((`id` = 30)))) LOCK IN SHARE MODE)",
        expect![[r#"InsertSelect(InsertSelect { table: test._t_gho, columns: ["id", "k"], source: test.t, items: [Column("id"), Column("k")], access: Range { column: "id", min: Some(21), max: Some(30) }, lock: Shared, limit: None, offset: 0, index_hints: [IndexHint { kind: Force, names: ["PRIMARY"] }], on_duplicate: Ignore })"#]],
    );
    check(
        "REPLACE INTO n (k, c) SELECT k, c FROM t WHERE id BETWEEN 1 AND 10 LIMIT 5",
        expect![[
            r#"InsertSelect(InsertSelect { table: n, columns: ["k", "c"], source: t, items: [Column("k"), Column("c")], access: Range { column: "id", min: Some(1), max: Some(10) }, lock: NonLocking, limit: Some(5), offset: 0, index_hints: [], on_duplicate: Replace })"#
        ]],
    );
    check(
        "INSERT INTO n SELECT * FROM t ON DUPLICATE KEY UPDATE k = 1",
        expect!["InsertSelect(InsertSelect { table: n, columns: [], source: t, items: [Star], access: FullScan, lock: NonLocking, limit: None, offset: 0, index_hints: [], on_duplicate: Update })"],
    );
    check(
        "CREATE TRIGGER `pt_osc_test_t_ins` AFTER INSERT ON `test`.`t` FOR EACH ROW REPLACE INTO `test`.`_t_new` (`id`, `k`, `c`, `pad`) VALUES (NEW.`id`, NEW.`k`, NEW.`c`, NEW.`pad`)",
        expect![[r#"CreateTrigger(CreateTrigger { name: TriggerName { schema: None, name: "pt_osc_test_t_ins" }, or_replace: false, if_not_exists: false, timing: After, event: Insert, table: test.t, body: [Insert { table: test._t_new, columns: ["id", "k", "c", "pad"], values: [New("id"), New("k"), New("c"), New("pad")], on_duplicate: Replace }], continue_on_no_such_table: false, body_text: "REPLACE INTO `test`.`_t_new` (`id`, `k`, `c`, `pad`) VALUES (NEW.`id`, NEW.`k`, NEW.`c`, NEW.`pad`)" })"#]],
    );
    check(
        "CREATE TRIGGER `pt_osc_test_t_del` AFTER DELETE ON `test`.`t` FOR EACH ROW DELETE IGNORE FROM `test`.`_t_new` WHERE `test`.`_t_new`.`id` <=> OLD.`id`",
        expect![[r#"CreateTrigger(CreateTrigger { name: TriggerName { schema: None, name: "pt_osc_test_t_del" }, or_replace: false, if_not_exists: false, timing: After, event: Delete, table: test.t, body: [Delete { table: test._t_new, key: Some(("id", Old("id"))), only_if_changed: None }], continue_on_no_such_table: false, body_text: "DELETE IGNORE FROM `test`.`_t_new` WHERE `test`.`_t_new`.`id` <=> OLD.`id`" })"#]],
    );
    check(
        "CREATE DEFINER=`root`@`localhost` TRIGGER IF NOT EXISTS trg BEFORE UPDATE ON t FOR EACH ROW FOLLOWS other INSERT IGNORE INTO n SET id = NEW.id, k = 5",
        expect![[r#"CreateTrigger(CreateTrigger { name: TriggerName { schema: None, name: "trg" }, or_replace: false, if_not_exists: true, timing: Before, event: Update, table: t, body: [Insert { table: n, columns: ["id", "k"], values: [New("id"), Other], on_duplicate: Ignore }], continue_on_no_such_table: false, body_text: "INSERT IGNORE INTO n SET id = NEW.id, k = 5" })"#]],
    );
    check(
        "CREATE OR REPLACE DEFINER = CURRENT_USER TRIGGER trg AFTER DELETE ON t FOR EACH ROW DELETE FROM n WHERE k = 1",
        expect![[r#"CreateTrigger(CreateTrigger { name: TriggerName { schema: None, name: "trg" }, or_replace: true, if_not_exists: false, timing: After, event: Delete, table: t, body: [Delete { table: n, key: None, only_if_changed: None }], continue_on_no_such_table: false, body_text: "DELETE FROM n WHERE k = 1" })"#]],
    );
    check(
        "DROP TRIGGER IF EXISTS test.trg",
        expect![[
            r#"DropTrigger { name: TriggerName { schema: Some("test"), name: "trg" }, if_exists: true }"#
        ]],
    );
    check(
        "DROP TRIGGER trg",
        expect![[
            r#"DropTrigger { name: TriggerName { schema: None, name: "trg" }, if_exists: false }"#
        ]],
    );
    check(
        "SHOW TRIGGERS LIKE 't%'",
        expect![[r#"ShowTriggers { like: Some("t%") }"#]],
    );
    check(
        "CREATE TRIGGER trg AFTER DELETE ON t FOR EACH ROW DELETE FROM n WHERE id = NEW.id",
        expect!["ERROR 1363 (HY000): There is no NEW row in on DELETE trigger"],
    );
    check(
        "CREATE TRIGGER trg AFTER INSERT ON t FOR EACH ROW REPLACE INTO n (id) VALUES (OLD.id + 1)",
        expect!["ERROR 1363 (HY000): There is no OLD row in on INSERT trigger"],
    );
    check("CREATE TRIGGER trg AFTER ON t FOR EACH ROW DELETE FROM n", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'ON t FOR EACH ROW DELETE FROM n' at line 1"]);
    check("DROP TRIGGER", expect!["ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '' at line 1"]);
}
