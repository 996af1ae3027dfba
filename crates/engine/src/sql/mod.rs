//! The SQL front end: statement text in, engine [`Command`]s out. Parse only; what a
//! command does is the simulation's business.
//!
//! ```text
//!  "BEGIN; ALTER TABLE t1 ENGINE=InnoDB, LOCK=NONE"
//!        │  lexer: MySQL's lexical rules; source: cut at top-level `;`
//!        ▼
//!  [BEGIN]                 [ALTER TABLE t1 ENGINE=InnoDB, LOCK=NONE]
//!        │                          │
//!        ▼  grammar: recursive descent over the tokens, one function per rule of
//!                    MySQL's sql_yacc.yy (verb_clause, alter_list_item, key_list, ...)
//!                                   ▼
//!                   Vec<Parsed { command, text }>
//! ```
//!
//! `lexer` reads quotes, backquotes, comments and numbers as MySQL's `sql_lex.cc`
//! does, and `grammar` turns the tokens straight into the small [`Command`], with no
//! syntax tree in between. The grammar reads the
//! statements the simulator models and the common MySQL around them (index options,
//! column attributes, table options, joins, subqueries); what it reads but does not
//! model is named in a 1235.
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
mod lexer;
mod source;
#[cfg(test)]
mod tests;

pub use command::{
    Algorithm, AlterAction, ColumnPosition, Command, CreateTable, CreateTrigger, FlushMode,
    IndexDef, IndexHint, IndexHintKind, InsertSelect, KillKind, OnDuplicate, Parsed, RowAccess,
    RowLock, RowValue, SelectColumn, SetValue, TableLockMode, TableName, TriggerBody, TriggerEvent,
    TriggerName, TriggerTiming, VarScope,
};
pub use error::{codes, SqlError};

use source::{Source, Stmt};

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

/// Parses `sql` as one statement, `;` included: what a client sends as one query
/// (`COM_QUERY` without multi-statements), such as a trigger's compound body. An
/// online schema-change tool sends its statements this way.
pub fn parse_one(sql: &str) -> std::result::Result<Parsed, SqlError> {
    let source = Source::new(sql);
    let Some(stmt) = source.one_statement()? else {
        return Err(SqlError::empty());
    };
    let command = parse_statement(&stmt).map_err(|e| match e {
        Error::Syntax(at) => source.syntax_error(&stmt, at),
        Error::Sql(e) => e,
    })?;
    Ok(Parsed {
        command,
        text: source.text(&stmt).to_string(),
    })
}

fn parse_statement(stmt: &Stmt) -> Result<Command> {
    grammar::statement(stmt)
}

/// Why a statement failed: a syntax error at a token's byte offset (`None`: at the
/// end of the statement), turned into 1064 with the statement's near-text at the
/// top, or a finished MySQL error.
#[derive(Debug)]
enum Error {
    Syntax(Option<usize>),
    Sql(SqlError),
}

type Result<T> = std::result::Result<T, Error>;

impl From<SqlError> for Error {
    fn from(e: SqlError) -> Error {
        Error::Sql(e)
    }
}
