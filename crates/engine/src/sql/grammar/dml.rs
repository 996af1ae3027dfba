//! `INSERT`/`REPLACE`, `UPDATE` and `DELETE`: MySQL's `insert_stmt`,
//! `replace_stmt`, `update_stmt` and `delete_stmt`, one table each.

use super::super::command::{Command, InsertSelect, OnDuplicate, TableName};
use super::super::lexer::Token;
use super::super::{Result, SqlError};
use super::cursor::Cursor;
use super::expr;
use super::names::table_ident;
use super::select::{
    classify, join_keyword, order_clause, simple_limit_clause, source_select, table_alias,
    where_clause,
};

/// `{INSERT | REPLACE} [options] [INTO] t [PARTITION (p)] [(cols)] {VALUES rows |
/// SET assignments | SELECT ... | (SELECT ...)} [ON DUPLICATE KEY UPDATE assignments]`.
pub(in crate::sql) fn insert_stmt(c: &mut Cursor) -> Result<Command> {
    let replace = c.word("REPLACE");
    if !replace {
        c.expect_word("INSERT")?;
    }
    let mut ignore = false;
    for w in ["LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY", "IGNORE"] {
        if c.word(w) && w == "IGNORE" {
            ignore = true;
        }
    }
    c.word("INTO");
    let table = table_ident(c)?;
    if c.word("PARTITION") {
        c.skip_group()?;
    }
    let mut columns = Vec::new();
    if c.peek() == &Token::LParen && c.word_at(1) != "SELECT" {
        c.next();
        if !c.token(&Token::RParen) {
            loop {
                columns.push(column_name(c)?);
                if !c.token(&Token::Comma) {
                    break;
                }
            }
            c.expect(&Token::RParen)?;
        }
    }
    let mut on_duplicate = if replace {
        OnDuplicate::Replace
    } else if ignore {
        OnDuplicate::Ignore
    } else {
        OnDuplicate::Error
    };
    let mut source = None;
    let values = if c.word("VALUES") || c.word("VALUE") {
        values_list(c)?
    } else if c.word("SET") {
        let (names, row) = assignments(c)?;
        columns = names;
        vec![row]
    } else if c.peek_word() == "SELECT" {
        source = Some(source_select(c)?);
        Vec::new()
    } else if c.peek() == &Token::LParen && c.word_at(1) == "SELECT" {
        c.next();
        source = Some(source_select(c)?);
        c.expect(&Token::RParen)?;
        Vec::new()
    } else {
        return Err(c.error());
    };
    if !replace && c.words(&["ON", "DUPLICATE", "KEY", "UPDATE"]) {
        assignments(c)?;
        on_duplicate = OnDuplicate::Update;
    }
    c.finish()?;
    if let Some(s) = source {
        return Ok(Command::InsertSelect(Box::new(InsertSelect {
            table,
            columns,
            source: s.table,
            items: s.items,
            access: s.access,
            lock: s.lock,
            limit: s.limit,
            offset: s.offset,
            index_hints: s.index_hints,
            on_duplicate,
        })));
    }
    Ok(Command::Insert {
        table,
        rows: values.len() as u64,
        columns,
        values,
        on_duplicate,
    })
}

/// A column of an INSERT's list or a SET: `c`, `t.c` or `db.t.c`; its last part.
pub(super) fn column_name(c: &mut Cursor) -> Result<String> {
    let mut name = c.ident()?;
    while c.token(&Token::Period) {
        name = c.ident()?;
    }
    Ok(name)
}

/// `(row), (row) ...`: each row's values (integer constants; `None` for the rest).
fn values_list(c: &mut Cursor) -> Result<Vec<Vec<Option<i64>>>> {
    let mut rows = Vec::new();
    loop {
        c.word("ROW");
        c.expect(&Token::LParen)?;
        let mut row = Vec::new();
        if !c.token(&Token::RParen) {
            row = value_list(c)?;
            c.expect(&Token::RParen)?;
        }
        rows.push(row);
        if !c.token(&Token::Comma) {
            return Ok(rows);
        }
    }
}

/// `expr | DEFAULT [, ...]`.
fn value_list(c: &mut Cursor) -> Result<Vec<Option<i64>>> {
    let mut row = Vec::new();
    loop {
        row.push(expr_or_default(c)?);
        if !c.token(&Token::Comma) {
            return Ok(row);
        }
    }
}

/// A value: its integer if it is an integer constant.
fn expr_or_default(c: &mut Cursor) -> Result<Option<i64>> {
    if c.peek_word() == "DEFAULT" && c.peek_nth(1) != &Token::LParen {
        c.next();
        return Ok(None);
    }
    expr::expr(c).map(|e| expr::int_value(&e))
}

/// `col = expr [, col = expr ...]` (SET, ON DUPLICATE KEY UPDATE): the columns and
/// their values.
fn assignments(c: &mut Cursor) -> Result<(Vec<String>, Vec<Option<i64>>)> {
    let (mut names, mut values) = (Vec::new(), Vec::new());
    loop {
        names.push(column_name(c)?);
        if !c.token(&Token::Eq) {
            c.expect(&Token::Assignment)?;
        }
        values.push(expr_or_default(c)?);
        if !c.token(&Token::Comma) {
            return Ok((names, values));
        }
    }
}

/// `UPDATE [LOW_PRIORITY] [IGNORE] t SET ... [WHERE ...] [ORDER BY ...] [LIMIT n]`.
pub(in crate::sql) fn update_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("UPDATE")?;
    c.word("LOW_PRIORITY");
    c.word("IGNORE");
    let table = single_table(c, "UPDATE")?;
    c.expect_word("SET")?;
    assignments(c)?;
    let selection = where_clause(c)?;
    order_clause(c)?;
    let limit = simple_limit_clause(c)?;
    c.finish()?;
    Ok(Command::Update {
        table,
        access: classify(selection.as_ref().map(|(_, e)| e)),
        limit,
    })
}

/// `DELETE [LOW_PRIORITY] [QUICK] [IGNORE] FROM t [WHERE ...] [ORDER BY ...] [LIMIT
/// n]`; the multi-table forms are read and named.
pub(in crate::sql) fn delete_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("DELETE")?;
    for w in ["LOW_PRIORITY", "QUICK", "IGNORE"] {
        c.word(w);
    }
    if !c.word("FROM") {
        // DELETE t1, t2 FROM t1 JOIN t2 ...
        c.defer(SqlError::not_modelled("DELETE with several tables"));
        loop {
            table_ident(c)?;
            if c.token(&Token::Period) {
                c.expect(&Token::Mul)?;
            }
            if !c.token(&Token::Comma) {
                break;
            }
        }
        c.expect_word("FROM")?;
    }
    let table = single_table(c, "DELETE")?;
    if c.word("USING") {
        c.defer(SqlError::not_modelled("DELETE with several tables"));
        single_table(c, "DELETE")?;
    }
    let selection = where_clause(c)?;
    order_clause(c)?;
    let limit = simple_limit_clause(c)?;
    c.finish()?;
    Ok(Command::Delete {
        table,
        access: classify(selection.as_ref().map(|(_, e)| e)),
        limit,
    })
}

/// The one table an UPDATE or DELETE names; joins and lists are read and deferred
/// as 1235.
fn single_table(c: &mut Cursor, what: &str) -> Result<TableName> {
    let table = table_ident(c)?;
    if c.word("PARTITION") {
        c.skip_group()?;
    }
    table_alias(c)?;
    let several = || SqlError::not_modelled(&format!("{what} with several tables"));
    loop {
        if !(c.token(&Token::Comma) || join_keyword(c)) {
            return Ok(table);
        }
        c.defer(several());
        table_ident(c)?;
        table_alias(c)?;
        if c.word("ON") {
            expr::expr(c)?;
        } else if c.word("USING") {
            c.skip_group()?;
        }
    }
}
