//! Table locks, maintenance and administration: `LOCK TABLES`, `UNLOCK TABLES`,
//! `FLUSH`, `KILL`, `SHOW`, `OPTIMIZE`/`ANALYZE TABLE` (MySQL's `lock`, `unlock`,
//! `flush`, `kill`, `show`, `optimize`, `analyze`), and `DROP TABLE`, `TRUNCATE`,
//! `RENAME TABLE` (`drop_table_stmt`, `truncate_stmt`, `rename`).

use super::super::command::{Command, FlushMode, KillKind, TableLockMode, TableName, VarScope};
use super::super::lexer::Token;
use super::super::{Result, SqlError};
use super::cursor::Cursor;
use super::expr;
use super::leading_keywords;
use super::names::{same_table, table_ident, table_list};

/// `LOCK {TABLE | TABLES} t [[AS] alias] {READ [LOCAL] | [LOW_PRIORITY] WRITE} [, ...]`.
/// Each alias (a table's name when it has none) may appear once, as the server's
/// parser checks (`st_select_lex::add_table_to_list()`: 1066); one table under two
/// aliases is locked once, in the stronger mode (its SHARED_NO_READ_WRITE covers the
/// read).
pub(in crate::sql) fn lock_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("LOCK")?;
    if !c.word("TABLES") {
        c.expect_word("TABLE")?;
    }
    let mut tables: Vec<(TableName, TableLockMode)> = Vec::new();
    let mut aliases: Vec<String> = Vec::new();
    loop {
        let table = table_ident(c)?;
        let mut alias = table.table.clone();
        if c.word("AS")
            || (matches!(c.peek(), Token::Word(_))
                && !["READ", "WRITE", "LOW_PRIORITY"].contains(&c.peek_word().as_str()))
        {
            alias = c.ident()?;
        }
        if aliases.iter().any(|a| a.eq_ignore_ascii_case(&alias)) {
            return Err(SqlError::nonuniq_table(&alias).into());
        }
        aliases.push(alias);
        let mode = if c.word("READ") {
            c.word("LOCAL");
            TableLockMode::Read
        } else {
            c.word("LOW_PRIORITY");
            c.expect_word("WRITE")?;
            TableLockMode::Write
        };
        match tables.iter_mut().find(|(t, _)| same_table(t, &table)) {
            Some(seen) if mode == TableLockMode::Write => seen.1 = mode,
            Some(_) => {}
            None => tables.push((table, mode)),
        }
        if !c.token(&Token::Comma) {
            break;
        }
    }
    c.finish()?;
    Ok(Command::LockTables { tables })
}

/// `UNLOCK {TABLE | TABLES}`.
pub(in crate::sql) fn unlock_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("UNLOCK")?;
    if !c.word("TABLES") {
        c.expect_word("TABLE")?;
    }
    c.finish()?;
    Ok(Command::UnlockTables)
}

/// `FLUSH [NO_WRITE_TO_BINLOG | LOCAL] {TABLE | TABLES} [t, ...] [WITH READ LOCK |
/// FOR EXPORT]`; the other flush options are named in a 1235.
pub(in crate::sql) fn flush_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("FLUSH")?;
    let _ = c.word("NO_WRITE_TO_BINLOG") || c.word("LOCAL");
    if !(c.word("TABLES") || c.word("TABLE")) {
        let option = c.peek_word();
        if !FLUSH_OPTIONS.contains(&option.as_str()) {
            return Err(c.error());
        }
        c.next();
        let words = leading_keywords(c, 1);
        return Err(SqlError::not_modelled(format!("FLUSH {option} {words}").trim()).into());
    }
    let tables = if c.at_ident() {
        table_list(c)?
    } else {
        Vec::new()
    };
    let mode = if c.words(&["WITH", "READ", "LOCK"]) {
        FlushMode::WithReadLock
    } else if c.words(&["FOR", "EXPORT"]) {
        FlushMode::ForExport
    } else {
        FlushMode::Close
    };
    c.finish()?;
    Ok(Command::FlushTables { tables, mode })
}

/// MySQL's and MariaDB's `flush_option`s besides TABLES.
const FLUSH_OPTIONS: &[&str] = &[
    "BINARY",
    "CHANGED_PAGE_BITMAPS",
    "CLIENT_STATISTICS",
    "DES_KEY_FILE",
    "ENGINE",
    "ERROR",
    "GENERAL",
    "HOSTS",
    "INDEX_STATISTICS",
    "LOGS",
    "MASTER",
    "OPTIMIZER_COSTS",
    "PRIVILEGES",
    "QUERY",
    "RELAY",
    "SLAVE",
    "SLOW",
    "SSL",
    "STATUS",
    "TABLE_STATISTICS",
    "USER_RESOURCES",
    "USER_STATISTICS",
    "USER_VARIABLES",
];

/// `KILL [CONNECTION | QUERY] id`.
pub(in crate::sql) fn kill_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("KILL")?;
    let kind = if c.word("QUERY") {
        KillKind::Query
    } else {
        c.word("CONNECTION");
        KillKind::Connection
    };
    let id = c.number()?;
    c.finish()?;
    Ok(Command::Kill { kind, id })
}

/// `{OPTIMIZE | ANALYZE} [NO_WRITE_TO_BINLOG | LOCAL] {TABLE | TABLES} t [, t ...]`.
pub(in crate::sql) fn table_maintenance_stmt(c: &mut Cursor) -> Result<Command> {
    let optimize = c.word("OPTIMIZE");
    if !optimize {
        c.expect_word("ANALYZE")?;
    }
    let _ = c.word("NO_WRITE_TO_BINLOG") || c.word("LOCAL");
    if !c.word("TABLE") && !c.word("TABLES") {
        return Err(c.error());
    }
    let tables = table_list(c)?;
    c.finish()?;
    Ok(if optimize {
        Command::OptimizeTable { tables }
    } else {
        Command::AnalyzeTable { tables }
    })
}

/// `SHOW`: PROCESSLIST, ENGINE INNODB STATUS, VARIABLES, STATUS, TABLES, CREATE
/// TABLE; the rest named in a 1235.
pub(in crate::sql) fn show_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("SHOW")?;
    let full = c.word("FULL");
    if c.word("PROCESSLIST") {
        c.finish()?;
        return Ok(Command::ShowProcesslist { full });
    }
    if c.word("TABLES") {
        return show_tables(c, full);
    }
    if !full && c.word("TRIGGERS") {
        if c.word("FROM") || c.word("IN") {
            c.ident()?;
        }
        let like = wild_and_where(c, "SHOW TRIGGERS")?;
        c.finish()?;
        return Ok(Command::ShowTriggers { like });
    }
    if !full && c.word("ENGINE") {
        let from = c.mark();
        c.ident()?;
        if !(c.word("STATUS") || c.word("MUTEX") || c.word("LOGS")) {
            return Err(c.error());
        }
        let words = c.text_since(from).to_ascii_uppercase();
        c.finish()?;
        if words == "INNODB STATUS" {
            return Ok(Command::ShowEngineInnodbStatus);
        }
        return Err(SqlError::not_modelled(&format!("SHOW ENGINE {words}")).into());
    }
    if !full && c.words(&["CREATE", "TABLE"]) {
        let table = table_ident(c)?;
        c.finish()?;
        return Ok(Command::ShowCreateTable { table });
    }
    let scope = if c.word("GLOBAL") {
        Some(VarScope::Global)
    } else if c.word("SESSION") || c.word("LOCAL") {
        Some(VarScope::Session)
    } else {
        None
    };
    if !full && (c.peek_word() == "VARIABLES" || c.peek_word() == "STATUS") {
        let variables = c.word("VARIABLES");
        if !variables {
            c.next();
        }
        let what = if variables {
            "SHOW VARIABLES"
        } else {
            "SHOW STATUS"
        };
        let like = wild_and_where(c, what)?;
        c.finish()?;
        let scope = scope.unwrap_or(VarScope::Session);
        return Ok(match variables {
            true => Command::ShowVariables { scope, like },
            false => Command::ShowStatus { scope, like },
        });
    }
    let target = c.peek_word();
    if !SHOW_TARGETS.contains(&target.as_str()) {
        return Err(c.error());
    }
    c.next();
    let words = leading_keywords(c, 2);
    let full = if full { "FULL " } else { "" };
    Err(SqlError::not_modelled(format!("SHOW {full}{target} {words}").trim()).into())
}

/// What else SHOW shows, by its first word, for a 1235 naming it.
const SHOW_TARGETS: &[&str] = &[
    "AUTHORS",
    "BINARY",
    "BINLOG",
    "CHARACTER",
    "CHARSET",
    "CLIENT_STATISTICS",
    "COLLATION",
    "COLUMNS",
    "CONTRIBUTORS",
    "COUNT",
    "CREATE",
    "DATABASES",
    "ENGINES",
    "ERRORS",
    "EVENTS",
    "EXPLAIN",
    "FIELDS",
    "FUNCTION",
    "GRANTS",
    "INDEX",
    "INDEXES",
    "INDEX_STATISTICS",
    "KEYS",
    "MASTER",
    "OPEN",
    "PACKAGE",
    "PLUGINS",
    "PRIVILEGES",
    "PROCEDURE",
    "PROFILE",
    "PROFILES",
    "RELAYLOG",
    "REPLICA",
    "REPLICAS",
    "SCHEMAS",
    "SLAVE",
    "STORAGE",
    "TABLE",
    "TABLE_STATISTICS",
    "USER_STATISTICS",
    "WARNINGS",
];

/// `[FULL] TABLES [{FROM | IN} db] [LIKE 's' | WHERE expr]`.
fn show_tables(c: &mut Cursor, full: bool) -> Result<Command> {
    let from = c.word("FROM") || c.word("IN");
    if from {
        c.ident()?;
    }
    let filtered = c.peek_word() == "LIKE" || c.peek_word() == "WHERE";
    wild_and_where(c, "SHOW TABLES")?;
    c.finish()?;
    if full || from || filtered {
        return Err(SqlError::not_modelled("SHOW TABLES with FULL, FROM or LIKE").into());
    }
    Ok(Command::ShowTables)
}

/// `[LIKE 'pattern' | WHERE expr]`; WHERE is named in a 1235 for `what`.
fn wild_and_where(c: &mut Cursor, what: &str) -> Result<Option<String>> {
    if c.word("LIKE") {
        return c.string().map(Some);
    }
    if c.word("WHERE") {
        expr::expr(c)?;
        c.defer(SqlError::not_modelled(&format!("{what} WHERE")));
    }
    Ok(None)
}

/// `DROP [TEMPORARY] {TABLE | TABLES} [IF EXISTS] t [, ...] [RESTRICT | CASCADE]`,
/// the cursor after `DROP`.
pub(in crate::sql) fn drop_table_stmt(c: &mut Cursor) -> Result<Command> {
    if c.word("TEMPORARY") {
        c.defer(SqlError::not_modelled("DROP TEMPORARY TABLE"));
    }
    if !c.word("TABLE") {
        c.expect_word("TABLES")?;
    }
    let if_exists = c.words(&["IF", "EXISTS"]);
    let tables = table_list(c)?;
    let _ = c.word("RESTRICT") || c.word("CASCADE");
    c.finish()?;
    Ok(Command::DropTable { tables, if_exists })
}

/// `TRUNCATE [TABLE] t`.
pub(in crate::sql) fn truncate_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("TRUNCATE")?;
    c.word("TABLE");
    let table = table_ident(c)?;
    c.finish()?;
    Ok(Command::TruncateTable { table })
}

/// `RENAME {TABLE | TABLES} a TO b [, c TO d ...]`.
pub(in crate::sql) fn rename_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("RENAME")?;
    if !(c.word("TABLE") || c.word("TABLES")) {
        if !c.word("USER") {
            return Err(c.error());
        }
        return Err(SqlError::not_modelled("RENAME USER").into());
    }
    let mut renames = Vec::new();
    loop {
        let old = table_ident(c)?;
        c.expect_word("TO")?;
        renames.push((old, table_ident(c)?));
        if !c.token(&Token::Comma) {
            break;
        }
    }
    c.finish()?;
    Ok(Command::RenameTable { renames })
}
