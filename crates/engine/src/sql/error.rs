//! MySQL's errors, with the server's numbers, SQLSTATEs and message texts
//! (`share/messages_to_clients.txt` in the MySQL source), so the console reads like
//! the `mysql` client.

use std::fmt;

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
            1064,
            "42000",
            format!(
                "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '{near}' at line {line}"
            ),
        )
    }

    /// `ER_EMPTY_QUERY` (1065).
    pub fn empty() -> SqlError {
        SqlError::new(1065, "42000", "Query was empty".into())
    }

    /// `ER_NOT_SUPPORTED_YET` (1235), naming what the simulator does not model.
    pub fn not_modelled(what: &str) -> SqlError {
        SqlError::new(
            1235,
            "42000",
            format!("This version of ddlscope doesn't yet support '{what}'"),
        )
    }

    /// `ER_LOCK_WAIT_TIMEOUT` (1205): `lock_wait_timeout` or `innodb_lock_wait_timeout`
    /// passed.
    pub fn lock_wait_timeout() -> SqlError {
        SqlError::new(
            1205,
            "HY000",
            "Lock wait timeout exceeded; try restarting transaction".into(),
        )
    }

    /// `ER_LOCK_DEADLOCK` (1213).
    pub fn deadlock() -> SqlError {
        SqlError::new(
            1213,
            "40001",
            "Deadlock found when trying to get lock; try restarting transaction".into(),
        )
    }

    /// `ER_QUERY_INTERRUPTED` (1317): the statement was killed.
    pub fn query_interrupted() -> SqlError {
        SqlError::new(1317, "70100", "Query execution was interrupted".into())
    }

    /// The client's `CR_SERVER_LOST` (2013): the connection was killed mid-statement.
    pub fn lost_connection() -> SqlError {
        SqlError::new(
            2013,
            "HY000",
            "Lost connection to MySQL server during query".into(),
        )
    }

    /// The client's `CR_SERVER_GONE_ERROR` (2006): a statement on a killed connection.
    pub fn server_gone() -> SqlError {
        SqlError::new(2006, "HY000", "MySQL server has gone away".into())
    }

    /// `ER_UNKNOWN_SYSTEM_VARIABLE` (1193).
    pub fn unknown_variable(name: &str) -> SqlError {
        SqlError::new(
            1193,
            "HY000",
            format!("Unknown system variable '{}'", clip(name, 64)),
        )
    }

    /// `ER_WRONG_VALUE_FOR_VAR` (1231).
    pub fn wrong_value_for_var(name: &str, value: &str) -> SqlError {
        SqlError::new(
            1231,
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
            1229,
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
            1091,
            "42000",
            format!("Can't DROP '{name}'; check that column/key exists"),
        )
    }

    /// `ER_BAD_FIELD_ERROR` (1054) in `place` (`where clause`, `field list`).
    pub fn unknown_column_in(name: &str, place: &str) -> SqlError {
        SqlError::new(
            1054,
            "42S22",
            format!("Unknown column '{name}' in '{place}'"),
        )
    }

    /// `ER_BAD_DB_ERROR` (1049).
    pub fn unknown_database(name: &str) -> SqlError {
        SqlError::new(1049, "42000", format!("Unknown database '{name}'"))
    }

    /// `ER_NO_SUCH_THREAD` (1094).
    pub fn unknown_thread(id: u64) -> SqlError {
        SqlError::new(1094, "HY000", format!("Unknown thread id: {id}"))
    }

    /// `ER_TABLE_DEF_CHANGED` (1412): a consistent read met a table rebuilt after its
    /// read view was created.
    pub fn table_def_changed() -> SqlError {
        SqlError::new(
            1412,
            "HY000",
            "Table definition has changed, please retry transaction".into(),
        )
    }

    /// `ER_TABLE_NOT_LOCKED` (1100).
    pub fn table_not_locked(table: &str) -> SqlError {
        SqlError::new(
            1100,
            "HY000",
            format!("Table '{table}' was not locked with LOCK TABLES"),
        )
    }

    /// `ER_TABLE_NOT_LOCKED_FOR_WRITE` (1099).
    pub fn table_not_locked_for_write(table: &str) -> SqlError {
        SqlError::new(
            1099,
            "HY000",
            format!("Table '{table}' was locked with a READ lock and can't be updated"),
        )
    }

    /// `ER_CANT_UPDATE_WITH_READLOCK` (1223): a write while this session holds the
    /// global read lock.
    pub fn cant_update_with_readlock() -> SqlError {
        SqlError::new(
            1223,
            "HY000",
            "Can't execute the query because you have a conflicting read lock".into(),
        )
    }

    /// `ER_ALTER_OPERATION_NOT_SUPPORTED` (1845): an `ALGORITHM=` the operation
    /// cannot use.
    pub fn algorithm_not_supported(algorithm: &str, try_: &str) -> SqlError {
        SqlError::new(
            1845,
            "0A000",
            format!("{algorithm} is not supported for this operation. Try {try_}."),
        )
    }

    /// `ER_LOCK_TABLE_FULL` (1206): lock memory would exceed 75% of the pool.
    pub fn lock_table_full() -> SqlError {
        SqlError::new(
            1206,
            "HY000",
            "The total number of locks exceeds the lock table size".into(),
        )
    }

    /// `ER_TABLESPACE_DISCARDED` (1814).
    pub fn tablespace_discarded(table: &str) -> SqlError {
        SqlError::new(
            1814,
            "HY000",
            format!("Tablespace has been discarded for table '{table}'"),
        )
    }

    /// `ER_BAD_TABLE_ERROR` (1051) naming every unknown table of a DROP.
    pub fn unknown_tables(names: &[String]) -> SqlError {
        SqlError::new(
            1051,
            "42S02",
            format!("Unknown table '{}'", names.join(",")),
        )
    }

    /// `ER_INCORRECT_GLOBAL_LOCAL_VAR` (1238): a read-only variable.
    pub fn read_only_variable(name: &str) -> SqlError {
        SqlError::new(
            1238,
            "HY000",
            format!("Variable '{name}' is a read only variable"),
        )
    }

    /// `ER_BAD_TABLE_ERROR` (1051).
    pub fn unknown_table(schema: &str, table: &str) -> SqlError {
        SqlError::new(1051, "42S02", format!("Unknown table '{schema}.{table}'"))
    }

    /// `ER_NO_SUCH_TABLE` (1146).
    pub fn no_such_table(schema: &str, table: &str) -> SqlError {
        SqlError::new(
            1146,
            "42S02",
            format!("Table '{schema}.{table}' doesn't exist"),
        )
    }

    /// `ER_TABLE_EXISTS_ERROR` (1050).
    pub fn table_exists(table: &str) -> SqlError {
        SqlError::new(1050, "42S01", format!("Table '{table}' already exists"))
    }

    /// `ER_KEY_COLUMN_DOES_NOT_EXITS` (1072).
    pub fn key_column_missing(column: &str) -> SqlError {
        SqlError::new(
            1072,
            "42000",
            format!("Key column '{column}' doesn't exist in table"),
        )
    }

    /// `ER_CANT_DROP_FIELD_OR_KEY` (1091).
    pub fn cant_drop_field_or_key(name: &str) -> SqlError {
        SqlError::new(
            1091,
            "42000",
            format!("Can't DROP '{name}'; check that column/key exists"),
        )
    }

    /// `ER_BAD_FIELD_ERROR` (1054) in a field list.
    pub fn unknown_column(column: &str) -> SqlError {
        SqlError::new(
            1054,
            "42S22",
            format!("Unknown column '{column}' in 'field list'"),
        )
    }

    /// `ER_ALTER_OPERATION_NOT_SUPPORTED_REASON` (1846).
    pub fn alter_not_supported_reason(what: &str, reason: &str, try_instead: &str) -> SqlError {
        SqlError::new(
            1846,
            "0A000",
            format!("{what} is not supported. Reason: {reason}. Try {try_instead}."),
        )
    }

    /// `ER_ALTER_OPERATION_NOT_SUPPORTED` (1845).
    pub fn alter_not_supported(what: &str, try_instead: &str) -> SqlError {
        SqlError::new(
            1845,
            "0A000",
            format!("{what} is not supported for this operation. Try {try_instead}."),
        )
    }

    /// `ER_UNKNOWN_ALTER_ALGORITHM` (1800): 5.7 has no `ALGORITHM=INSTANT`.
    pub fn unknown_alter_algorithm(name: &str) -> SqlError {
        SqlError::new(1800, "HY000", format!("Unknown ALGORITHM '{name}'"))
    }

    /// `ER_INNODB_MAX_ROW_VERSION` (4092, 8.0.29+): 64 instant ADD/DROP COLUMNs.
    pub fn max_row_version(table: &str) -> SqlError {
        SqlError::new(
            4092,
            "HY000",
            format!("Maximum row versions reached for table {table}. No more columns can be added or dropped instantly. Please use COPY/INPLACE."),
        )
    }

    /// `ER_INNODB_ONLINE_LOG_TOO_BIG` (1799).
    pub fn online_log_too_big(index: &str) -> SqlError {
        SqlError::new(
            1799,
            "HY000",
            format!("Creating index '{index}' required more than 'innodb_online_alter_log_max_size' bytes of modification log. Please try again."),
        )
    }

    /// `ER_TOO_LONG_IDENT` (1059): names are at most 64 characters.
    pub fn too_long_ident(name: &str) -> SqlError {
        SqlError::new(
            1059,
            "42000",
            format!("Identifier name '{}' is too long", clip(name, 100)),
        )
    }

    /// `ER_DUP_FIELDNAME` (1060).
    pub fn duplicate_column(name: &str) -> SqlError {
        SqlError::new(1060, "42S21", format!("Duplicate column name '{name}'"))
    }

    /// `ER_DUP_KEYNAME` (1061).
    pub fn duplicate_key(name: &str) -> SqlError {
        SqlError::new(1061, "42000", format!("Duplicate key name '{name}'"))
    }

    /// `ER_MULTIPLE_PRI_KEY` (1068).
    pub fn multiple_primary_key() -> SqlError {
        SqlError::new(1068, "42000", "Multiple primary key defined".into())
    }

    /// `ER_TABLE_MUST_HAVE_COLUMNS` (1113).
    pub fn table_must_have_columns() -> SqlError {
        SqlError::new(1113, "42000", "A table must have at least 1 column".into())
    }

    /// `ER_WRONG_DB_NAME` (1102).
    pub fn wrong_db_name(name: &str) -> SqlError {
        SqlError::new(
            1102,
            "42000",
            format!("Incorrect database name '{}'", clip(name, 100)),
        )
    }

    /// `ER_WRONG_TABLE_NAME` (1103).
    pub fn wrong_table_name(name: &str) -> SqlError {
        SqlError::new(
            1103,
            "42000",
            format!("Incorrect table name '{}'", clip(name, 100)),
        )
    }

    /// `ER_WRONG_COLUMN_NAME` (1166).
    pub fn wrong_column_name(name: &str) -> SqlError {
        SqlError::new(
            1166,
            "42000",
            format!("Incorrect column name '{}'", clip(name, 100)),
        )
    }

    /// `ER_WRONG_TYPE_FOR_VAR` (1232): a value of the wrong kind for the variable.
    pub fn wrong_type_for_var(name: &str) -> SqlError {
        SqlError::new(
            1232,
            "42000",
            format!("Incorrect argument type to variable '{}'", clip(name, 64)),
        )
    }

    /// `ER_WRONG_NAME_FOR_INDEX` (1280).
    pub fn wrong_index_name(name: &str) -> SqlError {
        SqlError::new(
            1280,
            "42000",
            format!("Incorrect index name '{}'", clip(name, 100)),
        )
    }

    /// `ER_PARTITION_MAXVALUE_ERROR` (1481).
    pub fn partition_maxvalue_not_last() -> SqlError {
        SqlError::new(
            1481,
            "HY000",
            "MAXVALUE can only be used in last partition definition".into(),
        )
    }

    /// `ER_PARTITIONS_MUST_BE_DEFINED_ERROR` (1492).
    pub fn partitions_must_be_defined(kind: &str) -> SqlError {
        SqlError::new(
            1492,
            "HY000",
            format!("For {kind} partitions each partition must be defined"),
        )
    }

    /// `ER_RANGE_NOT_INCREASING_ERROR` (1493).
    pub fn range_not_increasing() -> SqlError {
        SqlError::new(
            1493,
            "HY000",
            "VALUES LESS THAN value must be strictly increasing for each partition".into(),
        )
    }

    /// `ER_PARTITION_MGMT_ON_NONPARTITIONED` (1505).
    pub fn partition_mgmt_on_nonpartitioned() -> SqlError {
        SqlError::new(
            1505,
            "HY000",
            "Partition management on a not partitioned table is not possible".into(),
        )
    }

    /// `ER_DROP_PARTITION_NON_EXISTENT` (1507): "Error in list of partitions to %s",
    /// with `DROP` or `TRUNCATE`.
    pub fn partition_list(command: &str) -> SqlError {
        SqlError::new(
            1507,
            "HY000",
            format!("Error in list of partitions to {command}"),
        )
    }

    /// `ER_DROP_LAST_PARTITION` (1508).
    pub fn drop_last_partition() -> SqlError {
        SqlError::new(
            1508,
            "HY000",
            "Cannot remove all partitions, use DROP TABLE instead".into(),
        )
    }

    /// `ER_SAME_NAME_PARTITION` (1517).
    pub fn duplicate_partition(name: &str) -> SqlError {
        SqlError::new(1517, "HY000", format!("Duplicate partition name {name}"))
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
