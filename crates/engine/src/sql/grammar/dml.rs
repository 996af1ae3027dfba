//! `INSERT`/`REPLACE`, `UPDATE` and `DELETE`: MySQL's `insert_stmt`,
//! `replace_stmt`, `update_stmt` and `delete_stmt`, one table each.

use super::super::command::{Command, TableName};
use super::super::lexer::Token;
use super::super::{Result, SqlError};
use super::cursor::Cursor;
use super::expr;
use super::names::table_ident;
use super::select::{
    classify, join_keyword, limit_clause, order_clause, select_stmt, table_alias, where_clause,
};

/// `{INSERT | REPLACE} [options] [INTO] t [PARTITION (p)] [(cols)] {VALUES rows |
/// SET assignments | SELECT ...} [ON DUPLICATE KEY UPDATE assignments]`.
pub(in crate::sql) fn insert_stmt(c: &mut Cursor) -> Result<Command> {
    let replace = c.word("REPLACE");
    if !replace {
        c.expect_word("INSERT")?;
    }
    for w in ["LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY", "IGNORE"] {
        c.word(w);
    }
    if replace {
        c.defer(SqlError::not_modelled("REPLACE"));
    }
    c.word("INTO");
    let table = table_ident(c)?;
    if c.word("PARTITION") {
        c.skip_group()?;
    }
    if c.peek() == &Token::LParen && c.word_at(1) != "SELECT" {
        c.skip_group()?;
    }
    let rows = if c.word("VALUES") || c.word("VALUE") {
        values_list(c)?
    } else if c.word("SET") {
        assignments(c)?;
        1
    } else if c.peek_word() == "SELECT" || c.peek() == &Token::LParen {
        c.defer(SqlError::not_modelled("INSERT ... SELECT"));
        if c.peek() == &Token::LParen {
            c.skip_group()?;
        } else {
            return insert_select(c);
        }
        0
    } else {
        return Err(c.error());
    };
    if c.words(&["ON", "DUPLICATE", "KEY", "UPDATE"]) {
        assignments(c)?;
    }
    c.finish()?;
    Ok(Command::Insert { table, rows })
}

/// The SELECT of `INSERT ... SELECT`: parsed for its syntax, then the deferred 1235.
fn insert_select(c: &mut Cursor) -> Result<Command> {
    select_stmt(c)
}

/// `(row), (row) ...`: how many rows.
fn values_list(c: &mut Cursor) -> Result<u64> {
    let mut rows = 0;
    loop {
        c.word("ROW");
        c.expect(&Token::LParen)?;
        if !c.token(&Token::RParen) {
            value_list(c)?;
            c.expect(&Token::RParen)?;
        }
        rows += 1;
        if !c.token(&Token::Comma) {
            return Ok(rows);
        }
    }
}

/// `expr | DEFAULT [, ...]`.
fn value_list(c: &mut Cursor) -> Result<()> {
    loop {
        expr_or_default(c)?;
        if !c.token(&Token::Comma) {
            return Ok(());
        }
    }
}

fn expr_or_default(c: &mut Cursor) -> Result<()> {
    if c.peek_word() == "DEFAULT" && c.peek_nth(1) != &Token::LParen {
        c.next();
        return Ok(());
    }
    expr::expr(c).map(drop)
}

/// `col = expr [, col = expr ...]` (SET, ON DUPLICATE KEY UPDATE).
fn assignments(c: &mut Cursor) -> Result<()> {
    loop {
        c.ident()?;
        while c.token(&Token::Period) {
            c.ident()?;
        }
        if !c.token(&Token::Eq) {
            c.expect(&Token::Assignment)?;
        }
        expr_or_default(c)?;
        if !c.token(&Token::Comma) {
            return Ok(());
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
    let limit = limit_clause(c)?;
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
    let limit = limit_clause(c)?;
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
