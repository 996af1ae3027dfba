//! What a statement means to the engine: [`Command`] and the pieces it is built from.
//!
//! These types say what to do, never how: a `Command` names tables, columns and
//! indexes as written and leaves every lookup (does the table exist, which column is
//! the primary key, is the variable known) to whoever executes it.

use super::error::SqlError;
use super::{Error, Result};
use std::fmt;

/// A table name as written: an optional schema and the table.
#[derive(Clone, PartialEq, Eq)]
pub struct TableName {
    /// The schema, if the statement named one.
    pub schema: Option<String>,
    /// The table.
    pub table: String,
}

impl fmt::Display for TableName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.schema {
            Some(s) => write!(f, "{s}.{}", self.table),
            None => f.write_str(&self.table),
        }
    }
}

/// Debug prints the name as SQL would write it (`test.t1`, `` `my db`.`t-2` ``), so
/// commands read like SQL in tests.
impl fmt::Debug for TableName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn part(f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
            let plain = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
                && !name.chars().all(|c| c.is_ascii_digit());
            if plain {
                f.write_str(name)
            } else {
                write!(f, "`{}`", name.replace('`', "``"))
            }
        }
        if let Some(schema) = &self.schema {
            part(f, schema)?;
            f.write_str(".")?;
        }
        part(f, &self.table)
    }
}

/// One statement of a batch: what to run and the text it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// What the statement asks for.
    pub command: Command,
    /// The statement's own text, without the `;` and surrounding comments: what
    /// `SHOW PROCESSLIST` shows in its Info column.
    pub text: String,
}

impl Parsed {
    /// For `KILL [QUERY | CONNECTION] id`: the processlist id, and whether only the
    /// statement is killed (`KILL QUERY`). What an exported session script rewrites
    /// as `KILL {session}`.
    pub fn kill_target(&self) -> Option<(u64, bool)> {
        match &self.command {
            Command::Kill { kind, id } => Some((*id, *kind == KillKind::Query)),
            _ => None,
        }
    }
}

/// One statement, as the engine runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    // ----- Transactions and session state -----
    /// `BEGIN [WORK]`, `START TRANSACTION [WITH CONSISTENT SNAPSHOT]`.
    Begin {
        /// `WITH CONSISTENT SNAPSHOT`: InnoDB assigns the read view now, not at the
        /// first read.
        consistent_snapshot: bool,
    },
    /// `COMMIT [WORK]`.
    Commit,
    /// `ROLLBACK [WORK]`.
    Rollback,
    /// `SET [SESSION | GLOBAL] name = value`, also written `@@global.name`.
    SetVariable {
        /// Which value to change; `SESSION` when the statement does not say.
        scope: VarScope,
        /// The variable, lower-cased: `innodb_buffer_pool_size`.
        name: String,
        /// The new value.
        value: SetValue,
    },
    /// `USE db`.
    Use {
        /// The new default schema.
        schema: String,
    },

    // ----- Reads and writes -----
    /// `SELECT ... FROM t [WHERE ...] [LIMIT n] [FOR UPDATE | FOR SHARE | LOCK IN SHARE MODE]`.
    Select {
        /// The table read.
        table: TableName,
        /// Which rows the WHERE clause reaches.
        access: RowAccess,
        /// Consistent (MVCC) read or a locking read.
        lock: RowLock,
        /// Stop after this many rows (`LIMIT off, n` counts `off + n`: rows read).
        limit: Option<u64>,
        /// `LIMIT off, n`'s `off`: rows read but not sent.
        offset: u64,
        /// `SELECT SLEEP(n) FROM t`: the server evaluates `SLEEP()` once per row it
        /// sends, holding the statement's metadata lock throughout (0: no sleep).
        sleep_ms_per_row: u64,
        /// `USE`/`FORCE`/`IGNORE INDEX (...)` on the table.
        index_hints: Vec<IndexHint>,
    },
    /// `SELECT SLEEP(n)`: a statement that holds its session for `n` seconds.
    SelectSleep {
        /// How long, in milliseconds.
        duration_ms: u64,
    },
    /// `SELECT` with no table: `SELECT 1`, `SELECT @@autocommit`.
    SelectExpressions {
        /// Each select item as text, for an evaluator.
        items: Vec<String>,
        /// Each item's alias (`SELECT 1 AS a`), which names its column.
        aliases: Vec<Option<String>>,
    },
    /// `SELECT ... FROM` one of the diagnostic tables a DBA reads when the server
    /// freezes: `performance_schema.metadata_locks`, `performance_schema.threads`,
    /// `information_schema.processlist`, `information_schema.innodb_trx`.
    SelectSystemTable {
        /// `performance_schema` or `information_schema`, lower-cased.
        schema: String,
        /// The table, lower-cased.
        table: String,
        /// Each select item as text (`*`, `OBJECT_NAME`, `COUNT(*)`).
        columns: Vec<String>,
        /// The WHERE clause as text, for an evaluator.
        where_text: Option<String>,
    },
    /// `INSERT [IGNORE] INTO t [(cols)] VALUES (...), (...) [ON DUPLICATE KEY UPDATE
    /// ...]` or `INSERT INTO t SET ...`.
    Insert {
        /// The table written to.
        table: TableName,
        /// How many rows.
        rows: u64,
        /// The column list as written (or SET's columns); empty: none was given, the
        /// values are in the table's column order.
        columns: Vec<String>,
        /// Each row's values in that order: an integer constant, or `None` for
        /// anything else (DEFAULT, NULL, a string, an expression).
        values: Vec<Vec<Option<i64>>>,
        /// What a row whose primary key is there does.
        on_duplicate: OnDuplicate,
    },
    /// `INSERT [IGNORE] INTO t [(cols)] SELECT ... FROM s ...` and `REPLACE INTO t
    /// [(cols)] SELECT ...`: the rows one table's SELECT reads, written into another
    /// (or the same) table.
    InsertSelect(Box<InsertSelect>),
    /// `UPDATE t SET ... [WHERE ...] [LIMIT n]`.
    Update {
        /// The table written to.
        table: TableName,
        /// Which rows the WHERE clause reaches (`FullScan` without one: every row).
        access: RowAccess,
        /// Stop after this many rows.
        limit: Option<u64>,
    },
    /// `DELETE FROM t [WHERE ...] [LIMIT n]`.
    Delete {
        /// The table deleted from.
        table: TableName,
        /// Which rows the WHERE clause reaches.
        access: RowAccess,
        /// Stop after this many rows.
        limit: Option<u64>,
    },

    // ----- Data definition -----
    /// `CREATE TABLE t (...) [options] [PARTITION BY RANGE ...]`.
    CreateTable(Box<CreateTable>),
    /// `CREATE TABLE t LIKE s`.
    CreateTableLike {
        /// The new table.
        table: TableName,
        /// The table whose definition is copied.
        like: TableName,
    },
    /// `DROP TABLE [IF EXISTS] t [, t ...]`.
    DropTable {
        /// The tables, in the order written.
        tables: Vec<TableName>,
        /// `IF EXISTS`: unknown tables are notes, not errors.
        if_exists: bool,
    },
    /// `TRUNCATE [TABLE] t`: InnoDB drops and re-creates the tablespace.
    TruncateTable {
        /// The table emptied.
        table: TableName,
    },
    /// `RENAME TABLE a TO b [, c TO d]`: atomic, under one exclusive MDL per table.
    RenameTable {
        /// `(from, to)` pairs, in the order written.
        renames: Vec<(TableName, TableName)>,
    },
    /// `CREATE [OR REPLACE] TRIGGER [IF NOT EXISTS] name {BEFORE | AFTER} {INSERT |
    /// UPDATE | DELETE} ON t FOR EACH ROW body`.
    CreateTrigger(Box<CreateTrigger>),
    /// `DROP TRIGGER [IF EXISTS] [db.]name`.
    DropTrigger {
        /// The trigger.
        name: TriggerName,
        /// `IF EXISTS`: an unknown trigger is a note, not an error.
        if_exists: bool,
    },
    /// `CREATE [UNIQUE] INDEX i ON t (cols) [ALGORITHM=..] [LOCK=..]`.
    CreateIndex {
        /// The table indexed.
        table: TableName,
        /// The new index; its name is always set.
        index: IndexDef,
        /// `ALGORITHM=`.
        algorithm: Algorithm,
        /// `LOCK=`.
        lock: AlterLock,
    },
    /// `DROP INDEX i ON t [ALGORITHM=..] [LOCK=..]`.
    DropIndex {
        /// The table.
        table: TableName,
        /// The index dropped.
        name: String,
        /// `ALGORITHM=`.
        algorithm: Algorithm,
        /// `LOCK=`.
        lock: AlterLock,
    },
    /// `ALTER TABLE t action [, action ...]`.
    AlterTable {
        /// The table altered.
        table: TableName,
        /// The changes, in the order written, without `ALGORITHM=` and `LOCK=`.
        actions: Vec<AlterAction>,
        /// `ALGORITHM=`; the last one written wins.
        algorithm: Algorithm,
        /// `LOCK=`; the last one written wins.
        lock: AlterLock,
    },
    /// `OPTIMIZE TABLE t [, t ...]`: for InnoDB, `ALTER TABLE t FORCE` plus ANALYZE.
    OptimizeTable {
        /// The tables.
        tables: Vec<TableName>,
    },
    /// `ANALYZE TABLE t [, t ...]`: samples index pages, then marks the table
    /// definition stale so new statements wait for old ones ("Waiting for table flush").
    AnalyzeTable {
        /// The tables.
        tables: Vec<TableName>,
    },

    // ----- Table locks and administration -----
    /// `LOCK TABLES t READ | WRITE [, ...]`.
    LockTables {
        /// Each table with the lock asked for.
        tables: Vec<(TableName, TableLockMode)>,
    },
    /// `UNLOCK TABLES`.
    UnlockTables,
    /// `FLUSH TABLES [t, ...] [WITH READ LOCK | FOR EXPORT]`.
    FlushTables {
        /// The tables; empty means every open table.
        tables: Vec<TableName>,
        /// What the flush leaves behind.
        mode: FlushMode,
    },
    /// `KILL [QUERY | CONNECTION] id`.
    Kill {
        /// The connection or only its statement.
        kind: KillKind,
        /// The processlist id.
        id: u64,
    },

    // ----- Diagnostics -----
    /// `SHOW [FULL] PROCESSLIST`.
    ShowProcesslist {
        /// `FULL`: the whole Info text, not its first 100 characters.
        full: bool,
    },
    /// `SHOW ENGINE INNODB STATUS`.
    ShowEngineInnodbStatus,
    /// `SHOW [GLOBAL | SESSION] VARIABLES [LIKE 'pattern']`.
    ShowVariables {
        /// Which values; `SESSION` when the statement does not say.
        scope: VarScope,
        /// The `LIKE` pattern.
        like: Option<String>,
    },
    /// `SHOW [GLOBAL | SESSION] STATUS [LIKE 'pattern']`.
    ShowStatus {
        /// Which counters; `SESSION` when the statement does not say.
        scope: VarScope,
        /// The `LIKE` pattern.
        like: Option<String>,
    },
    /// `SHOW TABLES`.
    ShowTables,
    /// `SHOW CREATE TABLE t`.
    ShowCreateTable {
        /// The table.
        table: TableName,
    },
    /// `SHOW TRIGGERS [FROM db] [LIKE 'pattern']`.
    ShowTriggers {
        /// The `LIKE` pattern, matched against the subject table's name.
        like: Option<String>,
    },
}

impl Command {
    /// The statement's kind as MySQL's messages name it: `CREATE INDEX`,
    /// `ALTER TABLE ... DROP PARTITION`. An `ALTER TABLE` with one action is named
    /// after it; with several, plain `ALTER TABLE`.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Begin {
                consistent_snapshot: false,
            } => "BEGIN",
            Command::Begin {
                consistent_snapshot: true,
            } => "START TRANSACTION WITH CONSISTENT SNAPSHOT",
            Command::Commit => "COMMIT",
            Command::Rollback => "ROLLBACK",
            Command::SetVariable { .. } => "SET",
            Command::Use { .. } => "USE",
            Command::Select { lock, .. } => match lock {
                RowLock::NonLocking => "SELECT",
                RowLock::Shared => "SELECT ... FOR SHARE",
                RowLock::Exclusive => "SELECT ... FOR UPDATE",
            },
            Command::SelectSleep { .. } => "SELECT SLEEP",
            Command::SelectExpressions { .. } => "SELECT",
            Command::SelectSystemTable { schema, .. } => {
                if schema == "performance_schema" {
                    "SELECT FROM performance_schema"
                } else {
                    "SELECT FROM information_schema"
                }
            }
            Command::Insert {
                on_duplicate: OnDuplicate::Replace,
                ..
            } => "REPLACE",
            Command::Insert { .. } => "INSERT",
            Command::InsertSelect(i) if i.on_duplicate == OnDuplicate::Replace => {
                "REPLACE ... SELECT"
            }
            Command::InsertSelect(_) => "INSERT ... SELECT",
            Command::Update { .. } => "UPDATE",
            Command::Delete { .. } => "DELETE",
            Command::CreateTable(t) if t.partition_by.is_some() => {
                "CREATE TABLE ... PARTITION BY RANGE"
            }
            Command::CreateTable(_) => "CREATE TABLE",
            Command::CreateTableLike { .. } => "CREATE TABLE ... LIKE",
            Command::DropTable { .. } => "DROP TABLE",
            Command::TruncateTable { .. } => "TRUNCATE TABLE",
            Command::RenameTable { .. } => "RENAME TABLE",
            Command::CreateTrigger(_) => "CREATE TRIGGER",
            Command::DropTrigger { .. } => "DROP TRIGGER",
            Command::CreateIndex { .. } => "CREATE INDEX",
            Command::DropIndex { .. } => "DROP INDEX",
            Command::AlterTable { actions, .. } => match actions.as_slice() {
                [one] => one.name(),
                _ => "ALTER TABLE",
            },
            Command::OptimizeTable { .. } => "OPTIMIZE TABLE",
            Command::AnalyzeTable { .. } => "ANALYZE TABLE",
            Command::LockTables { .. } => "LOCK TABLES",
            Command::UnlockTables => "UNLOCK TABLES",
            Command::FlushTables { mode, .. } => match mode {
                FlushMode::Close => "FLUSH TABLES",
                FlushMode::WithReadLock => "FLUSH TABLES WITH READ LOCK",
                FlushMode::ForExport => "FLUSH TABLES ... FOR EXPORT",
            },
            Command::Kill { kind, .. } => match kind {
                KillKind::Connection => "KILL",
                KillKind::Query => "KILL QUERY",
            },
            Command::ShowProcesslist { .. } => "SHOW PROCESSLIST",
            Command::ShowEngineInnodbStatus => "SHOW ENGINE INNODB STATUS",
            Command::ShowVariables { .. } => "SHOW VARIABLES",
            Command::ShowStatus { .. } => "SHOW STATUS",
            Command::ShowTables => "SHOW TABLES",
            Command::ShowCreateTable { .. } => "SHOW CREATE TABLE",
            Command::ShowTriggers { .. } => "SHOW TRIGGERS",
        }
    }

    /// Whether the statement defines or rebuilds a table: it commits the open
    /// transaction first and takes an exclusive metadata lock at some point, which is
    /// what queues every later statement on the table behind it. `OPTIMIZE TABLE` is
    /// one (InnoDB runs it as `ALTER TABLE ... FORCE`); `ANALYZE`, `FLUSH` and
    /// `LOCK TABLES` are not.
    pub fn is_ddl(&self) -> bool {
        matches!(
            self,
            Command::CreateTable(_)
                | Command::CreateTableLike { .. }
                | Command::DropTable { .. }
                | Command::TruncateTable { .. }
                | Command::RenameTable { .. }
                | Command::CreateTrigger(_)
                | Command::DropTrigger { .. }
                | Command::CreateIndex { .. }
                | Command::DropIndex { .. }
                | Command::AlterTable { .. }
                | Command::OptimizeTable { .. }
        )
    }
}

/// Which copy of a system variable or status counter a statement means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarScope {
    /// This connection's value (`SESSION`, `LOCAL`, or no scope at all).
    Session,
    /// The server-wide value (`GLOBAL`).
    Global,
}

/// The value in `SET name = value`, as written; the executor coerces it to the
/// variable's type (`1` for a boolean, `'ON'` for a switch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetValue {
    /// An integer: `5`, `-1`, `128*1024*1024`, or a size with a suffix (`128M`) for a
    /// variable whose name ends in `_size` or `_capacity`. Wide enough for MySQL's
    /// unsigned maximum, `max_write_lock_count`'s default.
    Int(i128),
    /// A quoted string, a bare word such as `O_DIRECT`, or a decimal such as `0.5`.
    Str(String),
    /// `ON`, `OFF`, `TRUE`, `FALSE`.
    Bool(bool),
    /// `DEFAULT`: back to the compiled-in default.
    Default,
}

/// Which rows a WHERE clause reaches, judged from its shape alone.
///
/// Simplification: the parser does not know the schema, so it keeps the column and
/// lets the executor decide whether that is the primary key (a unique search), a
/// secondary index (a ref or range scan) or an unindexed column (a full scan after
/// all). Conditions it cannot read (OR, IN, functions, strings) make a full scan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowAccess {
    /// `WHERE col = n`: one key value.
    Point {
        /// The column compared, lower-cased.
        column: String,
        /// The value.
        value: i64,
    },
    /// `WHERE col BETWEEN a AND b`, `col < n`, `col >= n AND col < m`: bounds,
    /// both inclusive; `None` is open.
    Range {
        /// The column compared, lower-cased.
        column: String,
        /// Smallest value reached.
        min: Option<i64>,
        /// Largest value reached.
        max: Option<i64>,
    },
    /// Every row: no WHERE, or one the parser cannot bound.
    FullScan,
}

/// `{USE | FORCE | IGNORE} INDEX (name, ...)`: which indexes the optimizer may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexHint {
    /// USE, FORCE or IGNORE.
    pub kind: IndexHintKind,
    /// The indexes named.
    pub names: Vec<String>,
}

/// The kind of an index hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexHintKind {
    /// `USE INDEX`: only these (the optimizer may still scan the table).
    Use,
    /// `FORCE INDEX`: these, a table scan only if none can serve the WHERE clause.
    Force,
    /// `IGNORE INDEX`: not these.
    Ignore,
}

/// What an INSERT does with a row whose primary key is already there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnDuplicate {
    /// Fails with 1062 (ER_DUP_ENTRY).
    Error,
    /// `INSERT IGNORE`: skips the row with a warning.
    Ignore,
    /// `ON DUPLICATE KEY UPDATE`: updates the row that is there.
    Update,
    /// `REPLACE`: deletes the row that is there and inserts the new one.
    Replace,
}

/// The SELECT of an `INSERT ... SELECT`: one table's rows, as a SELECT reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InsertSelect {
    /// The table written to.
    pub table: TableName,
    /// The column list as written; empty: the table's columns in order.
    pub columns: Vec<String>,
    /// The table read.
    pub source: TableName,
    /// The select items, in order.
    pub items: Vec<SelectColumn>,
    /// Which of the source's rows the WHERE clause reaches.
    pub access: RowAccess,
    /// `LOCK IN SHARE MODE` / `FOR UPDATE` as written (InnoDB reads the rows of an
    /// INSERT ... SELECT with shared locks whatever it says, `ha_innobase::store_lock()`).
    pub lock: RowLock,
    /// Stop after this many rows (`LIMIT off, n` counts `off + n`: rows read and
    /// locked).
    pub limit: Option<u64>,
    /// `LIMIT off, n`'s `off`: rows read but not inserted.
    pub offset: u64,
    /// `USE`/`FORCE`/`IGNORE INDEX (...)` on the source.
    pub index_hints: Vec<IndexHint>,
    /// What a row whose primary key is there does (`IGNORE`, `REPLACE`, `ON DUPLICATE
    /// KEY UPDATE`).
    pub on_duplicate: OnDuplicate,
}

/// One select item of an `INSERT ... SELECT`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelectColumn {
    /// `*`: every column of the source, in order.
    Star,
    /// A column, by its last name part, lower-cased (`id`, `s.id`).
    Column(String),
    /// Anything else (a constant, an expression).
    Expr,
}

/// A trigger's name as written: an optional schema and the name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TriggerName {
    /// The schema, if the statement named one.
    pub schema: Option<String>,
    /// The trigger.
    pub name: String,
}

/// When a trigger runs, relative to its row's change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerTiming {
    /// `BEFORE`.
    Before,
    /// `AFTER`.
    After,
}

/// Which change of a row fires a trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerEvent {
    /// `INSERT` (also INSERT ... SELECT, REPLACE, LOAD DATA).
    Insert,
    /// `UPDATE` (also ON DUPLICATE KEY UPDATE).
    Update,
    /// `DELETE` (also REPLACE's deletion of the row that was there).
    Delete,
}

impl TriggerEvent {
    /// The event as `SHOW TRIGGERS` prints it.
    pub fn name(self) -> &'static str {
        match self {
            TriggerEvent::Insert => "INSERT",
            TriggerEvent::Update => "UPDATE",
            TriggerEvent::Delete => "DELETE",
        }
    }
}

/// `CREATE TRIGGER`'s definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateTrigger {
    /// The trigger.
    pub name: TriggerName,
    /// `OR REPLACE`: a trigger of that name is dropped first.
    pub or_replace: bool,
    /// `IF NOT EXISTS`: a trigger of that name makes this a note, not an error.
    pub if_not_exists: bool,
    /// `BEFORE` or `AFTER`.
    pub timing: TriggerTiming,
    /// `INSERT`, `UPDATE` or `DELETE`.
    pub event: TriggerEvent,
    /// The subject table.
    pub table: TableName,
    /// The statements it runs for each row, in order: one, or those of a compound
    /// body (`BEGIN stmt; stmt; END`).
    pub body: Vec<TriggerBody>,
    /// The compound body declares `CONTINUE HANDLER FOR 1146`: a body statement
    /// whose table is missing is skipped, not an error (pt-online-schema-change 3.x).
    pub continue_on_no_such_table: bool,
    /// The body as written (`SHOW TRIGGERS`' Statement).
    pub body_text: String,
}

/// A value of a trigger's body: a column of the row that fired it, or anything else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowValue {
    /// `NEW.col` (lower-cased).
    New(String),
    /// `OLD.col` (lower-cased).
    Old(String),
    /// A constant or an expression.
    Other,
}

/// The statement a trigger runs, as pt-online-schema-change writes them: one INSERT,
/// REPLACE or DELETE on one table, keyed by the firing row's columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TriggerBody {
    /// `{INSERT [IGNORE] | REPLACE} [INTO] t [(cols)] VALUES (values)`.
    Insert {
        /// The table written to.
        table: TableName,
        /// The column list (empty: the table's columns in order).
        columns: Vec<String>,
        /// The row's values.
        values: Vec<RowValue>,
        /// Error, Ignore or Replace.
        on_duplicate: OnDuplicate,
    },
    /// `DELETE [IGNORE] FROM t WHERE ...`.
    Delete {
        /// The table deleted from.
        table: TableName,
        /// The WHERE clause's `col = value` or `col <=> value` on the table, if it has
        /// one: the column (lower-cased) and the value it is compared with.
        key: Option<(String, RowValue)>,
        /// The WHERE clause also says `!(OLD.col <=> NEW.col)` (NOT, or `<>`): the row
        /// is deleted only when the firing UPDATE changed column `col` (lower-cased),
        /// as pt-online-schema-change's update trigger deletes a row whose key moved.
        only_if_changed: Option<String>,
    },
}

impl TriggerBody {
    /// The table the body writes.
    pub fn table(&self) -> &TableName {
        match self {
            TriggerBody::Insert { table, .. } | TriggerBody::Delete { table, .. } => table,
        }
    }

    /// Every `NEW.col` and `OLD.col` the body reads.
    pub fn row_values(&self) -> Vec<&RowValue> {
        match self {
            TriggerBody::Insert { values, .. } => values.iter().collect(),
            TriggerBody::Delete { key, .. } => key.iter().map(|(_, v)| v).collect(),
        }
    }
}

/// How a SELECT reads rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowLock {
    /// A consistent nonlocking read from the transaction's read view.
    NonLocking,
    /// A locking read taking shared next-key locks (InnoDB `LOCK_S`):
    /// `FOR SHARE`, `LOCK IN SHARE MODE`.
    Shared,
    /// A locking read taking exclusive next-key locks (InnoDB `LOCK_X`): `FOR UPDATE`.
    Exclusive,
}

/// `CREATE TABLE`'s definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateTable {
    /// The new table.
    pub table: TableName,
    /// `IF NOT EXISTS`.
    pub if_not_exists: bool,
    /// The columns, in order.
    pub columns: Vec<ColumnDef>,
    /// The primary key's columns; empty means InnoDB adds its hidden `DB_ROW_ID`
    /// clustered index (`GEN_CLUST_INDEX`).
    pub primary_key: Vec<KeyPart>,
    /// Secondary indexes, in order.
    pub indexes: Vec<IndexDef>,
    /// `ENGINE=`, as written.
    pub engine: Option<String>,
    /// `ROW_FORMAT=`.
    pub row_format: Option<RowFormat>,
    /// `KEY_BLOCK_SIZE=` in KiB (compressed pages).
    pub key_block_size: Option<u32>,
    /// `PARTITION BY RANGE (...) (...)`.
    pub partition_by: Option<RangePartitioning>,
}

/// A column: enough to size a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnDef {
    /// The column name.
    pub name: String,
    /// The type as MySQL prints it: `INT`, `CHAR(120)`, `BIGINT UNSIGNED`.
    pub data_type: String,
    /// Whether NULL is allowed (false for `NOT NULL` and primary key columns).
    pub nullable: bool,
    /// `AUTO_INCREMENT`: an INSERT that gives no value takes the table's next one
    /// (and InnoDB's AUTO-INC lock).
    pub auto_increment: bool,
}

/// An index definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexDef {
    /// The name; MySQL names an unnamed index after its first column.
    pub name: Option<String>,
    /// `UNIQUE`.
    pub unique: bool,
    /// The key parts, in order.
    pub columns: Vec<KeyPart>,
}

/// One column of an index key, with an optional prefix length (`c(10)`).
#[derive(Clone, PartialEq, Eq)]
pub struct KeyPart {
    /// The column.
    pub column: String,
    /// Index only the first this many characters.
    pub prefix_len: Option<u32>,
}

/// Debug prints the key part as written (`k`, `c(10)`).
impl fmt::Debug for KeyPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.prefix_len {
            Some(n) => write!(f, "{}({n})", self.column),
            None => f.write_str(&self.column),
        }
    }
}

/// InnoDB's row formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFormat {
    /// `innodb_default_row_format`.
    Default,
    /// Off-page columns fully external (the default since 5.7).
    Dynamic,
    /// 768-byte prefixes inline.
    Compact,
    /// The pre-5.0 format.
    Redundant,
    /// `DYNAMIC` on compressed pages of `KEY_BLOCK_SIZE`.
    Compressed,
}

impl RowFormat {
    /// A row format by name; `at` places the syntax error for an unknown one.
    pub(super) fn from_word(name: &str, at: Option<usize>) -> Result<RowFormat> {
        match name.to_ascii_uppercase().as_str() {
            "DEFAULT" => Ok(RowFormat::Default),
            "DYNAMIC" => Ok(RowFormat::Dynamic),
            "COMPACT" => Ok(RowFormat::Compact),
            "REDUNDANT" => Ok(RowFormat::Redundant),
            "COMPRESSED" => Ok(RowFormat::Compressed),
            "FIXED" => Err(SqlError::not_modelled("ROW_FORMAT=FIXED").into()),
            _ => Err(Error::Syntax(at)),
        }
    }
}

/// `PARTITION BY RANGE (expr) (PARTITION p VALUES LESS THAN (...), ...)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangePartitioning {
    /// The partitioning expression as text: `id`, `TO_DAYS(created)`.
    pub expr: String,
    /// The partitions, in order; bounds increase.
    pub partitions: Vec<PartitionDef>,
}

/// One range partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionDef {
    /// The partition name.
    pub name: String,
    /// Its upper bound (exclusive).
    pub less_than: PartitionBound,
}

/// A `VALUES LESS THAN` bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartitionBound {
    /// An integer: `LESS THAN (100)`.
    Value(i64),
    /// An expression, as text: `LESS THAN (TO_DAYS('2024-01-01'))`.
    Expr(String),
    /// `LESS THAN MAXVALUE`: the last partition takes everything else.
    MaxValue,
}

/// `ALGORITHM=` of ALTER TABLE, CREATE INDEX and DROP INDEX.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Not written, or `DEFAULT`: the cheapest the server supports.
    Default,
    /// Metadata only (8.0.12+).
    Instant,
    /// In place, without a table copy (may still rebuild the table).
    Inplace,
    /// Copy rows into a new table.
    Copy,
}

/// `LOCK=` of ALTER TABLE, CREATE INDEX and DROP INDEX: the concurrency asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlterLock {
    /// Not written, or `DEFAULT`: as much concurrency as the algorithm allows.
    Default,
    /// `LOCK=NONE`: reads and writes continue.
    None,
    /// `LOCK=SHARED`: reads continue.
    Shared,
    /// `LOCK=EXCLUSIVE`: nothing continues.
    Exclusive,
}

/// One action of an ALTER TABLE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AlterAction {
    /// `ADD [UNIQUE] INDEX | KEY [name] (cols)`.
    AddIndex(IndexDef),
    /// `DROP INDEX | KEY name`.
    DropIndex {
        /// The index.
        name: String,
    },
    /// `ADD [COLUMN] col type [FIRST | AFTER c]`.
    AddColumn {
        /// The new column.
        column: ColumnDef,
        /// Where it goes.
        position: ColumnPosition,
    },
    /// `DROP [COLUMN] col`.
    DropColumn {
        /// The column.
        name: String,
    },
    /// `ENGINE=name`: with the table's own engine, a null rebuild.
    Engine {
        /// The engine, as written.
        name: String,
    },
    /// `FORCE`: a null rebuild.
    Force,
    /// `ROW_FORMAT=...`: a rebuild.
    RowFormat(RowFormat),
    /// `KEY_BLOCK_SIZE=n`: a rebuild.
    KeyBlockSize(u32),
    /// `DROP PARTITION p [, q]`: drops the partitions' tablespaces.
    DropPartition {
        /// The partitions.
        names: Vec<String>,
    },
    /// `TRUNCATE PARTITION p [, q]` or `TRUNCATE PARTITION ALL`.
    TruncatePartition {
        /// The partitions; empty for `ALL`.
        names: Vec<String>,
    },
    /// `DISCARD TABLESPACE`: deletes the .ibd file, keeps the definition.
    DiscardTablespace,
    /// `IMPORT TABLESPACE`: adopts a copied-in .ibd file.
    ImportTablespace,
}

impl AlterAction {
    /// `ALTER TABLE ... ADD INDEX` and so on.
    pub fn name(&self) -> &'static str {
        match self {
            AlterAction::AddIndex(_) => "ALTER TABLE ... ADD INDEX",
            AlterAction::DropIndex { .. } => "ALTER TABLE ... DROP INDEX",
            AlterAction::AddColumn { .. } => "ALTER TABLE ... ADD COLUMN",
            AlterAction::DropColumn { .. } => "ALTER TABLE ... DROP COLUMN",
            AlterAction::Engine { .. } => "ALTER TABLE ... ENGINE",
            AlterAction::Force => "ALTER TABLE ... FORCE",
            AlterAction::RowFormat(_) => "ALTER TABLE ... ROW_FORMAT",
            AlterAction::KeyBlockSize(_) => "ALTER TABLE ... KEY_BLOCK_SIZE",
            AlterAction::DropPartition { .. } => "ALTER TABLE ... DROP PARTITION",
            AlterAction::TruncatePartition { .. } => "ALTER TABLE ... TRUNCATE PARTITION",
            AlterAction::DiscardTablespace => "ALTER TABLE ... DISCARD TABLESPACE",
            AlterAction::ImportTablespace => "ALTER TABLE ... IMPORT TABLESPACE",
        }
    }
}

/// Where `ADD COLUMN` puts the column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnPosition {
    /// At the end (not written). INSTANT can do this in 8.0.12+.
    Last,
    /// `FIRST`.
    First,
    /// `AFTER col`.
    After(String),
}

/// `LOCK TABLES` lock types.
///
/// Simplification: `READ LOCAL` is `Read` (InnoDB treats them alike) and the
/// deprecated `LOW_PRIORITY WRITE` is `Write`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableLockMode {
    /// `READ`: others may read, nobody may write.
    Read,
    /// `WRITE`: only this session may touch the table.
    Write,
}

/// What `FLUSH TABLES` leaves behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlushMode {
    /// Close the tables (waits for every statement using them).
    Close,
    /// `WITH READ LOCK`: close, then hold the global read lock.
    WithReadLock,
    /// `FOR EXPORT`: quiesce the tables for copying their .ibd files.
    ForExport,
}

/// What `KILL` ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KillKind {
    /// `KILL` / `KILL CONNECTION`: the whole session (rolling back its transaction).
    Connection,
    /// `KILL QUERY`: only the running statement.
    Query,
}
