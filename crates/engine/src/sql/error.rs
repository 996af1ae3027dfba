//! MySQL's errors, with the server's numbers, SQLSTATEs and message texts
//! (`share/messages_to_clients.txt` in the MySQL source), so the console reads like
//! the `mysql` client.

use std::fmt;

/// The error numbers, by the server's own names (`include/mysqld_error.h`; the
/// client's `CR_` errors from `include/errmsg.h`).
pub mod codes {
    pub const ER_BAD_DB_ERROR: u16 = 1049;
    pub const ER_TABLE_EXISTS_ERROR: u16 = 1050;
    pub const ER_BAD_TABLE_ERROR: u16 = 1051;
    pub const ER_BAD_FIELD_ERROR: u16 = 1054;
    pub const ER_TOO_LONG_IDENT: u16 = 1059;
    pub const ER_DUP_FIELDNAME: u16 = 1060;
    pub const ER_DUP_KEYNAME: u16 = 1061;
    pub const ER_PARSE_ERROR: u16 = 1064;
    pub const ER_EMPTY_QUERY: u16 = 1065;
    pub const ER_DUP_ENTRY: u16 = 1062;
    pub const ER_MULTIPLE_PRI_KEY: u16 = 1068;
    pub const ER_NONUNIQ_TABLE: u16 = 1066;
    pub const ER_KEY_COLUMN_DOES_NOT_EXITS: u16 = 1072;
    pub const ER_CANT_DROP_FIELD_OR_KEY: u16 = 1091;
    pub const ER_NO_SUCH_THREAD: u16 = 1094;
    pub const ER_TABLE_NOT_LOCKED_FOR_WRITE: u16 = 1099;
    pub const ER_TABLE_NOT_LOCKED: u16 = 1100;
    pub const ER_WRONG_DB_NAME: u16 = 1102;
    pub const ER_WRONG_TABLE_NAME: u16 = 1103;
    pub const ER_TABLE_MUST_HAVE_COLUMNS: u16 = 1113;
    pub const ER_WRONG_VALUE_COUNT_ON_ROW: u16 = 1136;
    pub const ER_NO_SUCH_TABLE: u16 = 1146;
    pub const ER_WRONG_COLUMN_NAME: u16 = 1166;
    pub const ER_KEY_DOES_NOT_EXITS: u16 = 1176;
    pub const ER_LOCK_OR_ACTIVE_TRANSACTION: u16 = 1192;
    pub const ER_UNKNOWN_SYSTEM_VARIABLE: u16 = 1193;
    pub const ER_LOCK_WAIT_TIMEOUT: u16 = 1205;
    pub const ER_LOCK_TABLE_FULL: u16 = 1206;
    pub const ER_LOCK_DEADLOCK: u16 = 1213;
    pub const ER_CANT_UPDATE_WITH_READLOCK: u16 = 1223;
    pub const ER_GLOBAL_VARIABLE: u16 = 1229;
    pub const ER_WRONG_VALUE_FOR_VAR: u16 = 1231;
    pub const ER_WRONG_TYPE_FOR_VAR: u16 = 1232;
    pub const ER_NOT_SUPPORTED_YET: u16 = 1235;
    pub const ER_INCORRECT_GLOBAL_LOCAL_VAR: u16 = 1238;
    pub const ER_WRONG_NAME_FOR_INDEX: u16 = 1280;
    pub const ER_QUERY_INTERRUPTED: u16 = 1317;
    pub const ER_TRG_ALREADY_EXISTS: u16 = 1359;
    pub const ER_TRG_DOES_NOT_EXIST: u16 = 1360;
    pub const ER_TRG_NO_SUCH_ROW_IN_TRG: u16 = 1363;
    pub const ER_TABLE_DEF_CHANGED: u16 = 1412;
    pub const ER_TRG_IN_WRONG_SCHEMA: u16 = 1435;
    pub const ER_SP_WRONG_NAME: u16 = 1458;
    pub const ER_PARTITION_MAXVALUE_ERROR: u16 = 1481;
    pub const ER_PARTITIONS_MUST_BE_DEFINED_ERROR: u16 = 1492;
    pub const ER_RANGE_NOT_INCREASING_ERROR: u16 = 1493;
    pub const ER_PARTITION_MGMT_ON_NONPARTITIONED: u16 = 1505;
    pub const ER_DROP_PARTITION_NON_EXISTENT: u16 = 1507;
    pub const ER_DROP_LAST_PARTITION: u16 = 1508;
    pub const ER_SAME_NAME_PARTITION: u16 = 1517;
    pub const ER_INNODB_ONLINE_LOG_TOO_BIG: u16 = 1799;
    pub const ER_UNKNOWN_ALTER_ALGORITHM: u16 = 1800;
    pub const ER_UNKNOWN_ALTER_LOCK: u16 = 1801;
    pub const ER_TABLESPACE_DISCARDED: u16 = 1814;
    pub const ER_ALTER_OPERATION_NOT_SUPPORTED: u16 = 1845;
    pub const ER_ALTER_OPERATION_NOT_SUPPORTED_REASON: u16 = 1846;
    pub const CR_SERVER_GONE_ERROR: u16 = 2006;
    pub const CR_SERVER_LOST: u16 = 2013;
    pub const ER_INNODB_MAX_ROW_VERSION: u16 = 4092;
}

/// A MySQL error: code, SQLSTATE and message, printed as the `mysql` client prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqlError {
    /// The server error number (`ER_PARSE_ERROR` = 1064, ...).
    pub code: u16,
    /// The SQLSTATE.
    pub sqlstate: &'static str,
    /// The message.
    pub message: String,
}

impl SqlError {
    fn new(code: u16, sqlstate: &'static str, message: String) -> SqlError {
        SqlError {
            code,
            sqlstate,
            message,
        }
    }

    /// `ER_PARSE_ERROR` (1064) near `near` (the statement from the fault on, up to 80
    /// characters), at `line` of the statement.
    pub fn syntax(near: &str, line: u64) -> SqlError {
        SqlError::new(
            codes::ER_PARSE_ERROR,
            "42000",
            format!(
                "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '{near}' at line {line}"
            ),
        )
    }

    /// `ER_EMPTY_QUERY` (1065).
    pub fn empty() -> SqlError {
        SqlError::new(codes::ER_EMPTY_QUERY, "42000", "Query was empty".into())
    }

    /// `ER_NOT_SUPPORTED_YET` (1235), naming what the simulator does not model.
    pub fn not_modelled(what: &str) -> SqlError {
        SqlError::new(
            codes::ER_NOT_SUPPORTED_YET,
            "42000",
            format!("This version of ddlscope doesn't yet support '{what}'"),
        )
    }

    /// `ER_LOCK_WAIT_TIMEOUT` (1205): `lock_wait_timeout` or `innodb_lock_wait_timeout`
    /// passed.
    pub fn duplicate_entry(value: &str, key: &str) -> SqlError {
        SqlError::new(
            codes::ER_DUP_ENTRY,
            "23000",
            format!("Duplicate entry '{value}' for key '{key}'"),
        )
    }

    pub fn lock_wait_timeout() -> SqlError {
        SqlError::new(
            codes::ER_LOCK_WAIT_TIMEOUT,
            "HY000",
            "Lock wait timeout exceeded; try restarting transaction".into(),
        )
    }

    /// `ER_LOCK_DEADLOCK` (1213).
    pub fn deadlock() -> SqlError {
        SqlError::new(
            codes::ER_LOCK_DEADLOCK,
            "40001",
            "Deadlock found when trying to get lock; try restarting transaction".into(),
        )
    }

    /// `ER_QUERY_INTERRUPTED` (1317): the statement was killed.
    pub fn query_interrupted() -> SqlError {
        SqlError::new(
            codes::ER_QUERY_INTERRUPTED,
            "70100",
            "Query execution was interrupted".into(),
        )
    }

    /// The client's `CR_SERVER_LOST` (2013): the connection was killed mid-statement.
    pub fn lost_connection() -> SqlError {
        SqlError::new(
            codes::CR_SERVER_LOST,
            "HY000",
            "Lost connection to MySQL server during query".into(),
        )
    }

    /// The client's `CR_SERVER_GONE_ERROR` (2006): a statement on a killed connection.
    pub fn server_gone() -> SqlError {
        SqlError::new(
            codes::CR_SERVER_GONE_ERROR,
            "HY000",
            "MySQL server has gone away".into(),
        )
    }

    /// `ER_UNKNOWN_SYSTEM_VARIABLE` (1193).
    pub fn unknown_variable(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_UNKNOWN_SYSTEM_VARIABLE,
            "HY000",
            format!("Unknown system variable '{}'", clip(name, 64)),
        )
    }

    /// `ER_WRONG_VALUE_FOR_VAR` (1231).
    pub fn wrong_value_for_var(name: &str, value: &str) -> SqlError {
        SqlError::new(
            codes::ER_WRONG_VALUE_FOR_VAR,
            "42000",
            format!(
                "Variable '{}' can't be set to the value of '{}'",
                clip(name, 64),
                clip(value, 200)
            ),
        )
    }

    /// `ER_GLOBAL_VARIABLE` (1229): a global-only variable set with SESSION.
    pub fn global_variable(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_GLOBAL_VARIABLE,
            "HY000",
            format!(
                "Variable '{}' is a GLOBAL variable and should be set with SET GLOBAL",
                clip(name, 64)
            ),
        )
    }

    /// `ER_CANT_DROP_FIELD_OR_KEY` (1091).
    pub fn cant_drop(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_CANT_DROP_FIELD_OR_KEY,
            "42000",
            format!("Can't DROP '{name}'; check that column/key exists"),
        )
    }

    /// `ER_BAD_FIELD_ERROR` (1054) in `place` (`where clause`, `field list`).
    pub fn unknown_column_in(name: &str, place: &str) -> SqlError {
        SqlError::new(
            codes::ER_BAD_FIELD_ERROR,
            "42S22",
            format!("Unknown column '{name}' in '{place}'"),
        )
    }

    /// `ER_BAD_DB_ERROR` (1049).
    pub fn unknown_database(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_BAD_DB_ERROR,
            "42000",
            format!("Unknown database '{name}'"),
        )
    }

    /// `ER_NO_SUCH_THREAD` (1094).
    pub fn unknown_thread(id: u64) -> SqlError {
        SqlError::new(
            codes::ER_NO_SUCH_THREAD,
            "HY000",
            format!("Unknown thread id: {id}"),
        )
    }

    /// `ER_TABLE_DEF_CHANGED` (1412): a consistent read met a table rebuilt after its
    /// read view was created.
    pub fn table_def_changed() -> SqlError {
        SqlError::new(
            codes::ER_TABLE_DEF_CHANGED,
            "HY000",
            "Table definition has changed, please retry transaction".into(),
        )
    }

    /// `ER_KEY_DOES_NOT_EXITS` (1176, the server's spelling): an index hint names an
    /// index the table does not have.
    pub fn key_does_not_exist(key: &str, table: &str) -> SqlError {
        SqlError::new(
            codes::ER_KEY_DOES_NOT_EXITS,
            "42000",
            format!("Key '{key}' doesn't exist in table '{table}'"),
        )
    }

    /// `ER_TABLE_NOT_LOCKED` (1100).
    pub fn table_not_locked(table: &str) -> SqlError {
        SqlError::new(
            codes::ER_TABLE_NOT_LOCKED,
            "HY000",
            format!("Table '{table}' was not locked with LOCK TABLES"),
        )
    }

    /// `ER_TABLE_NOT_LOCKED_FOR_WRITE` (1099).
    pub fn table_not_locked_for_write(table: &str) -> SqlError {
        SqlError::new(
            codes::ER_TABLE_NOT_LOCKED_FOR_WRITE,
            "HY000",
            format!("Table '{table}' was locked with a READ lock and can't be updated"),
        )
    }

    /// `ER_LOCK_OR_ACTIVE_TRANSACTION` (1192): a statement the server refuses under
    /// LOCK TABLES (RENAME TABLE before MySQL 8.0.13 and in MariaDB, FLUSH TABLES WITH
    /// READ LOCK).
    pub fn lock_or_active_transaction() -> SqlError {
        SqlError::new(
            codes::ER_LOCK_OR_ACTIVE_TRANSACTION,
            "HY000",
            "Can't execute the given command because you have active locked tables or an \
             active transaction"
                .to_string(),
        )
    }

    /// `ER_CANT_UPDATE_WITH_READLOCK` (1223): a write while this session holds the
    /// global read lock.
    pub fn cant_update_with_readlock() -> SqlError {
        SqlError::new(
            codes::ER_CANT_UPDATE_WITH_READLOCK,
            "HY000",
            "Can't execute the query because you have a conflicting read lock".into(),
        )
    }

    /// `ER_ALTER_OPERATION_NOT_SUPPORTED` (1845): an `ALGORITHM=` the operation
    /// cannot use.
    pub fn algorithm_not_supported(algorithm: &str, try_: &str) -> SqlError {
        SqlError::new(
            codes::ER_ALTER_OPERATION_NOT_SUPPORTED,
            "0A000",
            format!("{algorithm} is not supported for this operation. Try {try_}."),
        )
    }

    /// `ER_LOCK_TABLE_FULL` (1206): lock memory would exceed 75% of the pool.
    pub fn lock_table_full() -> SqlError {
        SqlError::new(
            codes::ER_LOCK_TABLE_FULL,
            "HY000",
            "The total number of locks exceeds the lock table size".into(),
        )
    }

    /// `ER_TABLESPACE_DISCARDED` (1814).
    pub fn tablespace_discarded(table: &str) -> SqlError {
        SqlError::new(
            codes::ER_TABLESPACE_DISCARDED,
            "HY000",
            format!("Tablespace has been discarded for table '{table}'"),
        )
    }

    /// `ER_BAD_TABLE_ERROR` (1051) naming every unknown table of a DROP.
    pub fn unknown_tables(names: &[String]) -> SqlError {
        SqlError::new(
            codes::ER_BAD_TABLE_ERROR,
            "42S02",
            format!("Unknown table '{}'", names.join(",")),
        )
    }

    /// `ER_INCORRECT_GLOBAL_LOCAL_VAR` (1238): a read-only variable.
    pub fn read_only_variable(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_INCORRECT_GLOBAL_LOCAL_VAR,
            "HY000",
            format!("Variable '{name}' is a read only variable"),
        )
    }

    /// `ER_BAD_TABLE_ERROR` (1051).
    pub fn unknown_table(schema: &str, table: &str) -> SqlError {
        SqlError::new(
            codes::ER_BAD_TABLE_ERROR,
            "42S02",
            format!("Unknown table '{schema}.{table}'"),
        )
    }

    /// `ER_NO_SUCH_TABLE` (1146).
    pub fn no_such_table(schema: &str, table: &str) -> SqlError {
        SqlError::new(
            codes::ER_NO_SUCH_TABLE,
            "42S02",
            format!("Table '{schema}.{table}' doesn't exist"),
        )
    }

    /// `ER_NONUNIQ_TABLE` (1066): a table or alias named twice in one statement
    /// (`LOCK TABLES t READ, t WRITE`).
    pub fn nonuniq_table(alias: &str) -> SqlError {
        SqlError::new(
            codes::ER_NONUNIQ_TABLE,
            "42000",
            format!("Not unique table/alias: '{alias}'"),
        )
    }

    /// `ER_TRG_ALREADY_EXISTS` (1359): `name` as `db.trigger`.
    pub fn trigger_exists(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_TRG_ALREADY_EXISTS,
            "HY000",
            format!("Trigger '{name}' already exists"),
        )
    }

    /// `ER_TRG_DOES_NOT_EXIST` (1360).
    pub fn trigger_does_not_exist() -> SqlError {
        SqlError::new(
            codes::ER_TRG_DOES_NOT_EXIST,
            "HY000",
            "Trigger does not exist".into(),
        )
    }

    /// `ER_TRG_NO_SUCH_ROW_IN_TRG` (1363): `NEW` in a DELETE trigger, `OLD` in an
    /// INSERT trigger.
    pub fn no_such_row_in_trigger(row: &str, on: &str) -> SqlError {
        SqlError::new(
            codes::ER_TRG_NO_SUCH_ROW_IN_TRG,
            "HY000",
            format!("There is no {row} row in {on} trigger"),
        )
    }

    /// `ER_TRG_IN_WRONG_SCHEMA` (1435): a trigger in another schema than its table.
    pub fn trigger_in_wrong_schema() -> SqlError {
        SqlError::new(
            codes::ER_TRG_IN_WRONG_SCHEMA,
            "HY000",
            "Trigger in wrong schema".into(),
        )
    }

    /// `ER_SP_WRONG_NAME` (1458): a routine's or trigger's name MySQL refuses.
    pub fn wrong_trigger_name(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_SP_WRONG_NAME,
            "42000",
            format!("Incorrect routine name '{name}'"),
        )
    }

    /// `ER_WRONG_VALUE_COUNT_ON_ROW` (1136).
    pub fn value_count(row: u64) -> SqlError {
        SqlError::new(
            codes::ER_WRONG_VALUE_COUNT_ON_ROW,
            "21S01",
            format!("Column count doesn't match value count at row {row}"),
        )
    }

    /// `ER_TABLE_EXISTS_ERROR` (1050).
    pub fn table_exists(table: &str) -> SqlError {
        SqlError::new(
            codes::ER_TABLE_EXISTS_ERROR,
            "42S01",
            format!("Table '{table}' already exists"),
        )
    }

    /// `ER_KEY_COLUMN_DOES_NOT_EXITS` (1072).
    pub fn key_column_missing(column: &str) -> SqlError {
        SqlError::new(
            codes::ER_KEY_COLUMN_DOES_NOT_EXITS,
            "42000",
            format!("Key column '{column}' doesn't exist in table"),
        )
    }

    /// `ER_CANT_DROP_FIELD_OR_KEY` (1091).
    pub fn cant_drop_field_or_key(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_CANT_DROP_FIELD_OR_KEY,
            "42000",
            format!("Can't DROP '{name}'; check that column/key exists"),
        )
    }

    /// `ER_BAD_FIELD_ERROR` (1054) in a field list.
    pub fn unknown_column(column: &str) -> SqlError {
        SqlError::new(
            codes::ER_BAD_FIELD_ERROR,
            "42S22",
            format!("Unknown column '{column}' in 'field list'"),
        )
    }

    /// `ER_ALTER_OPERATION_NOT_SUPPORTED_REASON` (1846).
    pub fn alter_not_supported_reason(what: &str, reason: &str, try_instead: &str) -> SqlError {
        SqlError::new(
            codes::ER_ALTER_OPERATION_NOT_SUPPORTED_REASON,
            "0A000",
            format!("{what} is not supported. Reason: {reason}. Try {try_instead}."),
        )
    }

    /// `ER_ALTER_OPERATION_NOT_SUPPORTED` (1845).
    pub fn alter_not_supported(what: &str, try_instead: &str) -> SqlError {
        SqlError::new(
            codes::ER_ALTER_OPERATION_NOT_SUPPORTED,
            "0A000",
            format!("{what} is not supported for this operation. Try {try_instead}."),
        )
    }

    /// `ER_UNKNOWN_ALTER_ALGORITHM` (1800): 5.7 has no `ALGORITHM=INSTANT`.
    pub fn unknown_alter_algorithm(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_UNKNOWN_ALTER_ALGORITHM,
            "HY000",
            format!("Unknown ALGORITHM '{name}'"),
        )
    }

    /// `ER_UNKNOWN_ALTER_LOCK` (1801): `LOCK=` names no lock type.
    pub fn unknown_alter_lock(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_UNKNOWN_ALTER_LOCK,
            "HY000",
            format!("Unknown LOCK type '{name}'"),
        )
    }

    /// `ER_INNODB_MAX_ROW_VERSION` (4092, 8.0.29+): 64 instant ADD/DROP COLUMNs.
    pub fn max_row_version(table: &str) -> SqlError {
        SqlError::new(
            codes::ER_INNODB_MAX_ROW_VERSION,
            "HY000",
            format!("Maximum row versions reached for table {table}. No more columns can be added or dropped instantly. Please use COPY/INPLACE."),
        )
    }

    /// `ER_INNODB_ONLINE_LOG_TOO_BIG` (1799).
    pub fn online_log_too_big(index: &str) -> SqlError {
        SqlError::new(
            codes::ER_INNODB_ONLINE_LOG_TOO_BIG,
            "HY000",
            format!("Creating index '{index}' required more than 'innodb_online_alter_log_max_size' bytes of modification log. Please try again."),
        )
    }

    /// `ER_TOO_LONG_IDENT` (1059): names are at most 64 characters.
    pub fn too_long_ident(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_TOO_LONG_IDENT,
            "42000",
            format!("Identifier name '{}' is too long", clip(name, 100)),
        )
    }

    /// `ER_DUP_FIELDNAME` (1060).
    pub fn duplicate_column(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_DUP_FIELDNAME,
            "42S21",
            format!("Duplicate column name '{name}'"),
        )
    }

    /// `ER_DUP_KEYNAME` (1061).
    pub fn duplicate_key(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_DUP_KEYNAME,
            "42000",
            format!("Duplicate key name '{name}'"),
        )
    }

    /// `ER_MULTIPLE_PRI_KEY` (1068).
    pub fn multiple_primary_key() -> SqlError {
        SqlError::new(
            codes::ER_MULTIPLE_PRI_KEY,
            "42000",
            "Multiple primary key defined".into(),
        )
    }

    /// `ER_TABLE_MUST_HAVE_COLUMNS` (1113).
    pub fn table_must_have_columns() -> SqlError {
        SqlError::new(
            codes::ER_TABLE_MUST_HAVE_COLUMNS,
            "42000",
            "A table must have at least 1 column".into(),
        )
    }

    /// `ER_WRONG_DB_NAME` (1102).
    pub fn wrong_db_name(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_WRONG_DB_NAME,
            "42000",
            format!("Incorrect database name '{}'", clip(name, 100)),
        )
    }

    /// `ER_WRONG_TABLE_NAME` (1103).
    pub fn wrong_table_name(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_WRONG_TABLE_NAME,
            "42000",
            format!("Incorrect table name '{}'", clip(name, 100)),
        )
    }

    /// `ER_WRONG_COLUMN_NAME` (1166).
    pub fn wrong_column_name(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_WRONG_COLUMN_NAME,
            "42000",
            format!("Incorrect column name '{}'", clip(name, 100)),
        )
    }

    /// `ER_WRONG_TYPE_FOR_VAR` (1232): a value of the wrong kind for the variable.
    pub fn wrong_type_for_var(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_WRONG_TYPE_FOR_VAR,
            "42000",
            format!("Incorrect argument type to variable '{}'", clip(name, 64)),
        )
    }

    /// `ER_WRONG_NAME_FOR_INDEX` (1280).
    pub fn wrong_index_name(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_WRONG_NAME_FOR_INDEX,
            "42000",
            format!("Incorrect index name '{}'", clip(name, 100)),
        )
    }

    /// `ER_PARTITION_MAXVALUE_ERROR` (1481).
    pub fn partition_maxvalue_not_last() -> SqlError {
        SqlError::new(
            codes::ER_PARTITION_MAXVALUE_ERROR,
            "HY000",
            "MAXVALUE can only be used in last partition definition".into(),
        )
    }

    /// `ER_PARTITIONS_MUST_BE_DEFINED_ERROR` (1492).
    pub fn partitions_must_be_defined(kind: &str) -> SqlError {
        SqlError::new(
            codes::ER_PARTITIONS_MUST_BE_DEFINED_ERROR,
            "HY000",
            format!("For {kind} partitions each partition must be defined"),
        )
    }

    /// `ER_RANGE_NOT_INCREASING_ERROR` (1493).
    pub fn range_not_increasing() -> SqlError {
        SqlError::new(
            codes::ER_RANGE_NOT_INCREASING_ERROR,
            "HY000",
            "VALUES LESS THAN value must be strictly increasing for each partition".into(),
        )
    }

    /// `ER_PARTITION_MGMT_ON_NONPARTITIONED` (1505).
    pub fn partition_mgmt_on_nonpartitioned() -> SqlError {
        SqlError::new(
            codes::ER_PARTITION_MGMT_ON_NONPARTITIONED,
            "HY000",
            "Partition management on a not partitioned table is not possible".into(),
        )
    }

    /// `ER_DROP_PARTITION_NON_EXISTENT` (1507): "Error in list of partitions to %s",
    /// with `DROP` or `TRUNCATE`.
    pub fn partition_list(command: &str) -> SqlError {
        SqlError::new(
            codes::ER_DROP_PARTITION_NON_EXISTENT,
            "HY000",
            format!("Error in list of partitions to {command}"),
        )
    }

    /// `ER_DROP_LAST_PARTITION` (1508).
    pub fn drop_last_partition() -> SqlError {
        SqlError::new(
            codes::ER_DROP_LAST_PARTITION,
            "HY000",
            "Cannot remove all partitions, use DROP TABLE instead".into(),
        )
    }

    /// `ER_SAME_NAME_PARTITION` (1517).
    pub fn duplicate_partition(name: &str) -> SqlError {
        SqlError::new(
            codes::ER_SAME_NAME_PARTITION,
            "HY000",
            format!("Duplicate partition name {name}"),
        )
    }
}

/// MySQL's `%-.100s`: at most `n` characters.
fn clip(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

impl fmt::Display for SqlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ERROR {} ({}): {}",
            self.code, self.sqlstate, self.message
        )
    }
}

impl std::error::Error for SqlError {}
