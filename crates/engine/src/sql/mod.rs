//! The SQL front end: statement text in, engine commands out.
//!
//! Parsing is the `sqlparser` crate's, with its MySQL dialect. What it parses but the
//! engine does not model yet gets MySQL's "doesn't yet support" error naming the
//! statement; what it cannot parse gets MySQL's error 1064 with the text near the fault,
//! as the `mysql` client prints it. An error never reaches the simulation: a batch of
//! statements is either all understood or not run at all.

use sqlparser::ast::{ObjectName, ObjectType, Statement};
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::{Parser, ParserError};
use std::fmt;

/// A table name as written: an optional schema and the table.
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// One statement, as the engine runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `DROP TABLE [IF EXISTS] t [, t ...]`.
    DropTable {
        /// The tables, in the order written.
        tables: Vec<TableName>,
        /// `IF EXISTS`: unknown tables are notes, not errors.
        if_exists: bool,
    },
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
    /// `ER_PARSE_ERROR` (1064) near `near`.
    pub fn syntax(near: &str, line: u64) -> SqlError {
        SqlError {
            code: 1064,
            sqlstate: "42000",
            message: format!(
                "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '{near}' at line {line}"
            ),
        }
    }

    /// `ER_EMPTY_QUERY` (1065).
    pub fn empty() -> SqlError {
        SqlError {
            code: 1065,
            sqlstate: "42000",
            message: "Query was empty".into(),
        }
    }

    /// `ER_NOT_SUPPORTED_YET` (1235), naming what the simulator does not model.
    pub fn not_modelled(what: &str) -> SqlError {
        SqlError {
            code: 1235,
            sqlstate: "42000",
            message: format!("This version of ddlscope doesn't yet support '{what}'"),
        }
    }

    /// `ER_BAD_TABLE_ERROR` (1051).
    pub fn unknown_table(schema: &str, table: &str) -> SqlError {
        SqlError {
            code: 1051,
            sqlstate: "42S02",
            message: format!("Unknown table '{schema}.{table}'"),
        }
    }
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

/// Parses one or more `;`-separated statements.
pub fn parse(sql: &str) -> Result<Vec<Command>, SqlError> {
    if sql.trim().trim_matches(';').trim().is_empty() {
        return Err(SqlError::empty());
    }
    let statements = Parser::parse_sql(&MySqlDialect {}, sql).map_err(|e| syntax_error(sql, &e))?;
    statements.iter().map(command).collect()
}

fn command(stmt: &Statement) -> Result<Command, SqlError> {
    match stmt {
        Statement::Drop {
            object_type: ObjectType::Table,
            if_exists,
            names,
            temporary: false,
            ..
        } => Ok(Command::DropTable {
            tables: names.iter().map(table_name).collect::<Result<_, _>>()?,
            if_exists: *if_exists,
        }),
        other => Err(SqlError::not_modelled(&statement_kind(other))),
    }
}

fn table_name(name: &ObjectName) -> Result<TableName, SqlError> {
    let parts: Vec<&str> = name
        .0
        .iter()
        .filter_map(|p| p.as_ident())
        .map(|i| i.value.as_str())
        .collect();
    match parts.as_slice() {
        [t] => Ok(TableName {
            schema: None,
            table: (*t).to_string(),
        }),
        [s, t] => Ok(TableName {
            schema: Some((*s).to_string()),
            table: (*t).to_string(),
        }),
        _ => Err(SqlError {
            code: 1103,
            sqlstate: "42000",
            message: format!("Incorrect table name '{name}'"),
        }),
    }
}

/// The statement's leading keywords, `CREATE TABLE` or `SELECT`, for error messages.
fn statement_kind(stmt: &Statement) -> String {
    let text = stmt.to_string();
    let words: Vec<&str> = text
        .split_whitespace()
        .take_while(|w| w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
        .take(2)
        .collect();
    if words.is_empty() {
        "this statement".into()
    } else {
        words.join(" ")
    }
}

/// Turns a sqlparser error into MySQL's 1064, quoting the statement from the fault on
/// (MySQL quotes up to 80 characters).
fn syntax_error(sql: &str, e: &ParserError) -> SqlError {
    let msg = e.to_string();
    let (line, col) = position(&msg).unwrap_or((1, 1));
    let offset = sql
        .split_inclusive('\n')
        .take(line.saturating_sub(1) as usize)
        .map(str::len)
        .sum::<usize>()
        + sql
            .split('\n')
            .nth(line.saturating_sub(1) as usize)
            .map_or(0, |l| {
                l.char_indices()
                    .nth(col.saturating_sub(1) as usize)
                    .map_or(l.len(), |(i, _)| i)
            });
    let near: String = sql.get(offset..).unwrap_or("").chars().take(80).collect();
    SqlError::syntax(near.trim_end_matches(['\n', ' ']), line)
}

/// Reads "Line: L, Column: C" out of a sqlparser message.
fn position(msg: &str) -> Option<(u64, u64)> {
    let l = msg.rfind("Line: ")?;
    let rest = &msg[l + 6..];
    let (line, rest) = rest.split_once(", Column: ")?;
    let col: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((line.trim().parse().ok()?, col.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    fn check(sql: &str, expect: Expect) {
        let got = match parse(sql) {
            Ok(cmds) => format!("{cmds:?}"),
            Err(e) => e.to_string(),
        };
        expect.assert_eq(&got);
    }

    #[test]
    fn drop_table_forms() {
        check(
            "DROP TABLE t1",
            expect![[
                r#"[DropTable { tables: [TableName { schema: None, table: "t1" }], if_exists: false }]"#
            ]],
        );
        check(
            "drop table if exists test.t1, `t2`;",
            expect![[
                r#"[DropTable { tables: [TableName { schema: Some("test"), table: "t1" }, TableName { schema: None, table: "t2" }], if_exists: true }]"#
            ]],
        );
        check(
            "DROP TABLE a; DROP TABLE b;",
            expect![[
                r#"[DropTable { tables: [TableName { schema: None, table: "a" }], if_exists: false }, DropTable { tables: [TableName { schema: None, table: "b" }], if_exists: false }]"#
            ]],
        );
    }

    #[test]
    fn errors_read_like_mysql() {
        check(
            "DROP TABLEX t1",
            expect![[
                r#"ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'TABLEX t1' at line 1"#
            ]],
        );
        check("  ;  ", expect![[r#"ERROR 1065 (42000): Query was empty"#]]);
        check(
            "CREATE TABLE t3 (id INT PRIMARY KEY)",
            expect![[
                r#"ERROR 1235 (42000): This version of ddlscope doesn't yet support 'CREATE TABLE'"#
            ]],
        );
        check(
            "DROP TABLE t1; SELEKT 1",
            expect![[
                r#"ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'SELEKT 1' at line 1"#
            ]],
        );
    }
}
