//! The grammar: a recursive-descent reading of the MySQL statements the simulator
//! models, straight from the tokens to [`Command`], one function per rule of MySQL's
//! `sql/sql_yacc.yy` and named after it (`select_stmt`, `alter_list_item`,
//! `key_list`, `table_ident`, ...).
//!
//! | module          | rules                                                        |
//! |-----------------|--------------------------------------------------------------|
//! | `session`       | BEGIN, START TRANSACTION, COMMIT, ROLLBACK, SET, USE         |
//! | `select`        | SELECT, and the WHERE classification UPDATE and DELETE share |
//! | `dml`           | INSERT, REPLACE (with VALUES, SET or SELECT), UPDATE, DELETE |
//! | `create_table`  | CREATE TABLE: columns, keys, options, PARTITION BY RANGE     |
//! | `alter_table`   | ALTER TABLE, CREATE INDEX, DROP INDEX                        |
//! | `admin`         | LOCK, UNLOCK, FLUSH, KILL, SHOW, OPTIMIZE, ANALYZE, DROP TABLE, TRUNCATE, RENAME |
//! | `trigger`       | CREATE TRIGGER (and its body), DROP TRIGGER                  |
//! | `expr`          | expressions (`expr` down to `simple_expr`)                    |
//! | `names`, `cursor` | `table_ident` and MySQL's name checks; the token cursor     |
//!
//! Errors follow the server: a token the grammar cannot take is 1064 at that token;
//! a name MySQL refuses fails as soon as it is read (1103, 1059, ...); a well-formed
//! statement, or part of one, the simulator does not model is 1235 once the whole
//! statement has parsed ([`Cursor::defer`]), so bad syntax further on still wins.
//!
//! Simplification: the grammar reads what the simulator's statements can contain
//! and MySQL's common extras (index options, column attributes, table options,
//! joins, subqueries in expressions), not all of MySQL; a rarer construct is a 1064
//! at its first token.

mod admin;
mod alter_table;
mod create_table;
mod cursor;
mod dml;
mod expr;
mod keywords;
mod names;
mod select;
mod session;
mod trigger;

use super::command::Command;
use super::lexer::Token;
use super::source::Stmt;
use super::{Result, SqlError};
use cursor::Cursor;

/// The command for one statement.
pub(super) fn statement(stmt: &Stmt) -> Result<Command> {
    let mut c = Cursor::new(stmt);
    verb_clause(&mut c)
}

/// `verb_clause`: the statement, chosen by its first words.
fn verb_clause(c: &mut Cursor) -> Result<Command> {
    let verb = c.peek_word();
    match verb.as_str() {
        "SELECT" => select::select_stmt(c),
        "INSERT" | "REPLACE" => dml::insert_stmt(c),
        "UPDATE" => dml::update_stmt(c),
        "DELETE" => dml::delete_stmt(c),
        "BEGIN" => session::begin_stmt(c),
        "START" => start(c),
        "COMMIT" => session::commit_stmt(c),
        "ROLLBACK" => session::rollback_stmt(c),
        "SET" => session::set_stmt(c),
        "USE" => session::use_stmt(c),
        "CREATE" => create(c),
        "ALTER" => alter(c),
        "DROP" => drop(c),
        "TRUNCATE" => admin::truncate_stmt(c),
        "RENAME" => admin::rename_stmt(c),
        "OPTIMIZE" | "ANALYZE" => admin::table_maintenance_stmt(c),
        "LOCK" => admin::lock_stmt(c),
        "UNLOCK" => admin::unlock_stmt(c),
        "FLUSH" => admin::flush_stmt(c),
        "KILL" => admin::kill_stmt(c),
        "SHOW" => admin::show_stmt(c),
        _ if OTHER_VERBS.contains(&verb.as_str()) => not_modelled(c, 3),
        // `(SELECT ...)`: a query in parentheses.
        _ if c.peek() == &Token::LParen && c.word_at(1) == "SELECT" => {
            c.skip_group()?;
            c.finish()?;
            Err(SqlError::not_modelled("this kind of query").into())
        }
        _ => Err(c.error()),
    }
}

/// `START TRANSACTION`; `START SLAVE` and the like named in a 1235.
fn start(c: &mut Cursor) -> Result<Command> {
    match c.word_at(1).as_str() {
        "TRANSACTION" => session::start_transaction_stmt(c),
        "SLAVE" | "REPLICA" | "ALL" | "GROUP_REPLICATION" => not_modelled(c, 2),
        _ => {
            c.next();
            Err(c.error())
        }
    }
}

/// `CREATE TABLE`, `CREATE INDEX`; other objects named in a 1235.
fn create(c: &mut Cursor) -> Result<Command> {
    c.expect_word("CREATE")?;
    match c.peek_word().as_str() {
        "TABLE" | "TEMPORARY" => create_table::create_table_stmt(c),
        "INDEX" | "UNIQUE" | "FULLTEXT" | "SPATIAL" => alter_table::create_index_stmt(c),
        "TRIGGER" | "OR" | "DEFINER" if trigger::is_create_trigger(c) => {
            trigger::create_trigger_stmt(c)
        }
        _ => object_not_modelled(c, "CREATE"),
    }
}

/// `ALTER TABLE`; other objects named in a 1235.
fn alter(c: &mut Cursor) -> Result<Command> {
    c.expect_word("ALTER")?;
    match c.peek_word().as_str() {
        "TABLE" => alter_table::alter_table_stmt(c),
        _ => object_not_modelled(c, "ALTER"),
    }
}

/// `DROP TABLE`, `DROP INDEX`; other objects named in a 1235.
fn drop(c: &mut Cursor) -> Result<Command> {
    c.expect_word("DROP")?;
    match c.peek_word().as_str() {
        "TABLE" | "TABLES" | "TEMPORARY" => admin::drop_table_stmt(c),
        "INDEX" => alter_table::drop_index_stmt(c),
        "TRIGGER" => trigger::drop_trigger_stmt(c),
        _ => object_not_modelled(c, "DROP"),
    }
}

/// The objects of CREATE, ALTER and DROP besides tables and indexes.
const OTHER_OBJECTS: &[&str] = &[
    "DATABASE",
    "SCHEMA",
    "VIEW",
    "TRIGGER",
    "PROCEDURE",
    "FUNCTION",
    "EVENT",
    "USER",
    "ROLE",
    "SERVER",
    "TABLESPACE",
    "LOGFILE",
    "SEQUENCE",
    "OR",
    "DEFINER",
    "ALGORITHM",
    "SQL",
    "AGGREGATE",
    "INSTANCE",
    "RESOURCE",
    "SPATIAL",
    "UNDO",
    "ONLINE",
    "IGNORE",
];

/// A 1235 for `verb <object>`, or a 1064 at a word that is no object.
fn object_not_modelled(c: &mut Cursor, verb: &str) -> Result<Command> {
    if !OTHER_OBJECTS.contains(&c.peek_word().as_str()) {
        return Err(c.error());
    }
    let words = leading_keywords(c, 2);
    Err(SqlError::not_modelled(&format!("{verb} {words}")).into())
}

/// MySQL's statements the simulator does not model, by their first word.
const OTHER_VERBS: &[&str] = &[
    "BACKUP",
    "BINLOG",
    "CACHE",
    "CALL",
    "CHANGE",
    "CHECK",
    "CHECKSUM",
    "CLONE",
    "DEALLOCATE",
    "DECLARE",
    "DESC",
    "DESCRIBE",
    "DO",
    "EXECUTE",
    "EXPLAIN",
    "GET",
    "GRANT",
    "HANDLER",
    "HELP",
    "IMPORT",
    "INSTALL",
    "LOAD",
    "PREPARE",
    "PURGE",
    "RELEASE",
    "REPAIR",
    "RESET",
    "RESIGNAL",
    "RESTART",
    "REVOKE",
    "SAVEPOINT",
    "SHUTDOWN",
    "SIGNAL",
    "TABLE",
    "UNINSTALL",
    "VALUES",
    "WITH",
    "XA",
];

/// A 1235 naming the statement by its verb and up to `n - 1` more keywords.
fn not_modelled(c: &mut Cursor, n: usize) -> Result<Command> {
    let verb = c.peek_word();
    c.next();
    let words = leading_keywords(c, n - 1);
    Err(SqlError::not_modelled(format!("{verb} {words}").trim()).into())
}

/// Up to `n` of the next words, upper-cased, while they are SQL keywords (not
/// names): `VIEW`, `ENGINE INNODB MUTEX`. Takes them.
fn leading_keywords(c: &mut Cursor, n: usize) -> String {
    let mut words = Vec::new();
    while words.len() < n {
        match c.peek() {
            Token::Word(w) if !w.quoted && keywords::is_keyword(&w.value) => {
                words.push(w.value.to_ascii_uppercase());
                c.next();
            }
            _ => break,
        }
    }
    words.join(" ")
}
