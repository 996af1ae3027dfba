//! Names: `table_ident` (`t`, `db.t`) and MySQL's checks on every identifier.

use super::super::command::TableName;
use super::super::lexer::Token;
use super::super::{Result, SqlError};
use super::cursor::Cursor;

/// MySQL's longest identifier, in characters.
const IDENT_CHARS_MAX: usize = 64;

/// `table_ident`: `t` or `db.t`, checked as MySQL checks it. A third part is a
/// syntax error at the second dot.
pub(in crate::sql) fn table_ident(c: &mut Cursor) -> Result<TableName> {
    let first = c.ident()?;
    if !c.token(&Token::Period) {
        return Ok(TableName {
            schema: None,
            table: check_name(&first, SqlError::wrong_table_name)?,
        });
    }
    let table = any_word(c)?;
    if c.peek() == &Token::Period {
        return Err(c.error());
    }
    Ok(TableName {
        schema: Some(check_name(&first, SqlError::wrong_db_name)?),
        table: check_name(&table, SqlError::wrong_table_name)?,
    })
}

/// A name after a dot, where MySQL takes reserved words too (`db.order`).
fn any_word(c: &mut Cursor) -> Result<String> {
    match c.peek() {
        Token::Word(w) => {
            let name = w.value.clone();
            c.next();
            Ok(name)
        }
        _ => Err(c.error()),
    }
}

/// `table_ident [, table_ident ...]`.
pub(in crate::sql) fn table_list(c: &mut Cursor) -> Result<Vec<TableName>> {
    let mut tables = vec![table_ident(c)?];
    while c.token(&Token::Comma) {
        tables.push(table_ident(c)?);
    }
    Ok(tables)
}

/// A schema name (`USE db`).
pub(in crate::sql) fn schema_name(c: &mut Cursor) -> Result<String> {
    let name = c.ident()?;
    check_name(&name, SqlError::wrong_db_name)
}

/// An index name: not empty, not `PRIMARY` (that one is the primary key's).
pub(in crate::sql) fn index_name(name: &str) -> Result<String> {
    if name.eq_ignore_ascii_case("PRIMARY") {
        return Err(SqlError::wrong_index_name(name).into());
    }
    check_name(name, SqlError::wrong_index_name)
}

pub(in crate::sql) fn column_name(name: &str) -> Result<String> {
    check_name(name, SqlError::wrong_column_name)
}

/// MySQL's rules for every identifier: not empty, no trailing space, at most 64
/// characters. `wrong` makes the error for the kind of name.
pub(in crate::sql) fn check_name(name: &str, wrong: fn(&str) -> SqlError) -> Result<String> {
    if name.is_empty() || name.ends_with(' ') {
        return Err(wrong(name).into());
    }
    if name.chars().count() > IDENT_CHARS_MAX {
        return Err(SqlError::too_long_ident(name).into());
    }
    Ok(name.to_string())
}

/// Whether two names are the same table as written (names compare
/// case-insensitively).
pub(in crate::sql) fn same_table(a: &TableName, b: &TableName) -> bool {
    let schema = |t: &TableName| t.schema.as_deref().map(str::to_ascii_lowercase);
    a.table.eq_ignore_ascii_case(&b.table) && schema(a) == schema(b)
}
