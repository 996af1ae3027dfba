//! The SQL front end: statement text in, engine [`Command`]s out. Parse only; what a
//! command does is the simulation's business.
//!
//! ```text
//!  "BEGIN; ALTER TABLE t1 ENGINE=InnoDB, LOCK=NONE"
//!        │  source: sqlparser's tokenizer (MySQL dialect), cut at top-level `;`
//!        ▼
//!  [BEGIN]                 [ALTER TABLE t1 ENGINE=InnoDB, LOCK=NONE]
//!        │                          │
//!        │  front_door::recognise ──┤ the forms sqlparser 0.64 rejects, read by hand
//!        ▼  (not ours)              │ over the same tokens
//!  sqlparser Parser ─► ast ─► lower ┤
//!                                   ▼
//!                   Vec<Parsed { command, text }>
//! ```
//!
//! Most statements go through the `sqlparser` crate and its MySQL dialect, then
//! `lower` maps its syntax tree onto the much smaller [`Command`]. sqlparser 0.64
//! rejects a handful of statements that matter most here (`START TRANSACTION WITH
//! CONSISTENT SNAPSHOT`, `LOCK IN SHARE MODE`, `PARTITION BY RANGE`, `OPTIMIZE TABLE`
//! and the ALTER TABLE forms `ENGINE=`, `FORCE`, `DROP`/`TRUNCATE PARTITION`,
//! `DISCARD`/`IMPORT TABLESPACE`, `ROW_FORMAT=`), and a few it reads too narrowly
//! (`LOCK TABLES db.t`, `DROP INDEX ... ALGORITHM=`, `ANALYZE TABLE a, b`). The front
//! door recognises those first, by hand, with sqlparser's parser used only as a token
//! cursor and for the parts it does read well (expressions, column definitions, the
//! ordinary ALTER TABLE actions), so the two halves fail in the same way.
//!
//! Errors read like MySQL's: text that does not parse is 1064 with the statement
//! quoted from the fault, empty input is 1065, a well-formed statement the simulator
//! does not model is 1235 naming it, and bad names get MySQL's name errors (1103
//! "Incorrect table name", 1059 "Identifier name ... is too long", ...). An error
//! anywhere fails the whole batch, so a batch is either all understood or not run.
//!
//! Simplification: MySQL's parser knows the server's variables and the tables'
//! columns; ours knows neither. A WHERE clause is classified by its shape
//! ([`RowAccess`]) and `SET` values arrive as written ([`SetValue`]), for the
//! executor to check against the schema and the variable's type.

mod command;
mod error;
mod grammar;
mod source;
#[cfg(test)]
mod tests;

pub use command::{
    Algorithm, AlterAction, ColumnPosition, Command, CreateTable, FlushMode, IndexDef, IndexHint,
    IndexHintKind, KillKind, Parsed, RowAccess, RowLock, SetValue, TableLockMode, TableName,
    VarScope,
};
pub use error::{codes, SqlError};

use source::{Source, Stmt};
use sqlparser::tokenizer::Location;

/// Parses one or more `;`-separated statements.
pub fn parse(sql: &str) -> std::result::Result<Vec<Parsed>, SqlError> {
    let source = Source::new(sql);
    let statements = source.statements()?;
    if statements.is_empty() {
        return Err(SqlError::empty());
    }
    statements
        .iter()
        .map(|stmt| {
            let command = parse_statement(stmt).map_err(|e| match e {
                Error::Syntax(at) => source.syntax_error(stmt, at),
                Error::Sql(e) => e,
            })?;
            Ok(Parsed {
                command,
                text: source.text(stmt).to_string(),
            })
        })
        .collect()
}

fn parse_statement(stmt: &Stmt) -> Result<Command> {
    grammar::statement(stmt)
}

/// Why a statement failed: a syntax error at a token (`None`: at the end of the
/// statement), turned into 1064 with the statement's near-text at the top, or a
/// finished MySQL error.
#[derive(Debug)]
enum Error {
    Syntax(Option<Location>),
    Sql(SqlError),
}

type Result<T> = std::result::Result<T, Error>;

impl From<SqlError> for Error {
    fn from(e: SqlError) -> Error {
        Error::Sql(e)
    }
}
