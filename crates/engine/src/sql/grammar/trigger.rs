//! `CREATE TRIGGER` and `DROP TRIGGER` (MySQL's `trigger_tail` and the TRIGGER branch
//! of `drop`), and a trigger's body as the online schema-change tools write it:
//!
//! ```text
//!   CREATE TRIGGER pt_osc_test_t_ins AFTER INSERT ON test.t FOR EACH ROW
//!     REPLACE INTO test._t_new (id, k, c, pad) VALUES (NEW.id, NEW.k, NEW.c, NEW.pad)
//!   CREATE TRIGGER pt_osc_test_t_del AFTER DELETE ON test.t FOR EACH ROW
//!     DELETE IGNORE FROM test._t_new WHERE test._t_new.id <=> OLD.id
//! ```
//!
//! The body is one INSERT, REPLACE or DELETE whose values are the firing row's
//! columns (`NEW.col`, `OLD.col`), or a compound body of them as
//! pt-online-schema-change 3.x writes it (`sp_proc_stmt_unlabeled` → `BEGIN
//! sp_decls sp_proc_stmts END`, each statement ended by `;`):
//!
//! ```text
//!   CREATE TRIGGER `pt_osc_test_t_upd` AFTER UPDATE ON test.t FOR EACH ROW BEGIN
//!     DECLARE CONTINUE HANDLER FOR 1146 begin end;
//!     DELETE IGNORE FROM test._t_new WHERE !(OLD.id <=> NEW.id) AND test._t_new.id <=> OLD.id;
//!     REPLACE INTO test._t_new (id, k, c, pad) VALUES (NEW.id, NEW.k, NEW.c, NEW.pad);
//!   END
//! ```
//!
//! The compound body comes as one statement (a client's single query, not the `mysql`
//! client's `;`-split lines: `crate::sql::parse_one`). A `NEW` row in a DELETE
//! trigger, or an `OLD` row in an INSERT trigger, is MySQL's 1363 as soon as it is
//! read (the parser's check).
//!
//! Simplification: any other statement (`SET`, `UPDATE`, `CALL`, `IF`), a handler
//! that runs a statement or for another condition than 1146, are read up to the
//! statement's end and named in a 1235; an INSERT body of several rows is too.

use super::super::command::{
    Command, CreateTrigger, OnDuplicate, RowValue, TriggerBody, TriggerEvent, TriggerName,
    TriggerTiming,
};
use super::super::lexer::Token;
use super::super::{Result, SqlError};
use super::cursor::Cursor;
use super::dml::column_name;
use super::expr::{self, BinOp, Expr};
use super::names::{check_name, table_ident};

/// Whether the statement after `CREATE` is `[OR REPLACE] [DEFINER = user] TRIGGER`.
/// Leaves the cursor where it was.
pub(in crate::sql) fn is_create_trigger(c: &mut Cursor) -> bool {
    let start = c.mark();
    c.words(&["OR", "REPLACE"]);
    definer_clause(c);
    let found = c.peek_word() == "TRIGGER";
    c.reset(start);
    found
}

/// `DEFINER = user`: read and ignored (the simulator has one user). The user is
/// `CURRENT_USER[()]`, `name`, `'name'@'host'` or `name@host`.
fn definer_clause(c: &mut Cursor) {
    if !c.word("DEFINER") {
        return;
    }
    c.token(&Token::Eq);
    while !c.at_end()
        && !matches!(
            c.peek_word().as_str(),
            "TRIGGER" | "VIEW" | "PROCEDURE" | "FUNCTION" | "EVENT" | "SQL"
        )
    {
        c.next();
    }
}

/// `CREATE [OR REPLACE] [DEFINER = user] TRIGGER [IF NOT EXISTS] name {BEFORE |
/// AFTER} {INSERT | UPDATE | DELETE} ON t FOR EACH ROW [{FOLLOWS | PRECEDES} other]
/// body`, the cursor after `CREATE`.
pub(in crate::sql) fn create_trigger_stmt(c: &mut Cursor) -> Result<Command> {
    let or_replace = c.words(&["OR", "REPLACE"]);
    definer_clause(c);
    c.expect_word("TRIGGER")?;
    let if_not_exists = c.words(&["IF", "NOT", "EXISTS"]);
    let name = trigger_name(c)?;
    let timing = if c.word("BEFORE") {
        TriggerTiming::Before
    } else {
        c.expect_word("AFTER")?;
        TriggerTiming::After
    };
    let event = if c.word("INSERT") {
        TriggerEvent::Insert
    } else if c.word("UPDATE") {
        TriggerEvent::Update
    } else {
        c.expect_word("DELETE")?;
        TriggerEvent::Delete
    };
    c.expect_word("ON")?;
    let table = table_ident(c)?;
    c.expect_word("FOR")?;
    c.expect_word("EACH")?;
    c.expect_word("ROW")?;
    if c.word("FOLLOWS") || c.word("PRECEDES") {
        c.ident()?;
    }
    let from = c.mark();
    let (body, continue_on_no_such_table) = if c.word("BEGIN") {
        compound_body(c, event)?
    } else {
        (vec![trigger_body(c, event)?], false)
    };
    let body_text = c.text_since(from);
    c.finish()?;
    Ok(Command::CreateTrigger(Box::new(CreateTrigger {
        name,
        or_replace,
        if_not_exists,
        timing,
        event,
        table,
        body,
        continue_on_no_such_table,
        body_text,
    })))
}

/// `DROP TRIGGER [IF EXISTS] [db.]name`, the cursor after `DROP`.
pub(in crate::sql) fn drop_trigger_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("TRIGGER")?;
    let if_exists = c.words(&["IF", "EXISTS"]);
    let name = trigger_name(c)?;
    c.finish()?;
    Ok(Command::DropTrigger { name, if_exists })
}

/// `sp_name`: `name` or `db.name`.
fn trigger_name(c: &mut Cursor) -> Result<TriggerName> {
    let table = table_ident(c)?;
    let name = check_name(&table.table, SqlError::wrong_trigger_name)?;
    Ok(TriggerName {
        schema: table.schema,
        name,
    })
}

/// The body: one INSERT, REPLACE or DELETE; anything else is read to the end and
/// deferred as 1235.
fn trigger_body(c: &mut Cursor, event: TriggerEvent) -> Result<TriggerBody> {
    let verb = c.peek_word();
    let body = match verb.as_str() {
        "INSERT" | "REPLACE" => insert_body(c, event)?,
        "DELETE" => delete_body(c, event)?,
        _ => {
            if verb.is_empty() {
                return Err(c.error());
            }
            // A compound body or another statement: read to the end (its syntax is
            // not checked), then named in a 1235.
            while !c.at_end() {
                c.next();
            }
            let what = format!("CREATE TRIGGER with a {verb} body");
            return Err(SqlError::not_modelled(&what).into());
        }
    };
    Ok(body)
}

/// `BEGIN [DECLARE CONTINUE HANDLER FOR 1146 BEGIN END;] stmt; ... END`, the cursor
/// after `BEGIN`: the statements, and whether a missing table is handled.
fn compound_body(c: &mut Cursor, event: TriggerEvent) -> Result<(Vec<TriggerBody>, bool)> {
    let mut handles_1146 = false;
    let mut body = Vec::new();
    while !c.word("END") {
        if c.at_end() {
            return Err(c.error());
        }
        if c.word("DECLARE") {
            handles_1146 |= handler_declaration(c)?;
        } else {
            body.push(trigger_body(c, event)?);
        }
        c.expect(&Token::SemiColon)?;
    }
    Ok((body, handles_1146))
}

/// `DECLARE CONTINUE HANDLER FOR 1146 BEGIN END`, the cursor after `DECLARE`: true
/// for that handler; any other declaration is read and deferred as 1235.
fn handler_declaration(c: &mut Cursor) -> Result<bool> {
    let continue_1146 = c.word("CONTINUE")
        && c.word("HANDLER")
        && c.word("FOR")
        && matches!(c.peek(), Token::Number(n) if n == "1146")
        && {
            c.next();
            c.words(&["BEGIN", "END"])
        };
    if !continue_1146 {
        while !c.at_end() && c.peek() != &Token::SemiColon {
            c.next();
        }
        c.defer(SqlError::not_modelled(
            "CREATE TRIGGER with another DECLARE than CONTINUE HANDLER FOR 1146 BEGIN END",
        ));
    }
    Ok(continue_1146)
}

/// `{INSERT [IGNORE] | REPLACE} [INTO] t [(cols)] {VALUES (row) | SET assignments}
/// [ON DUPLICATE KEY UPDATE assignments]`.
fn insert_body(c: &mut Cursor, event: TriggerEvent) -> Result<TriggerBody> {
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
    let mut columns = Vec::new();
    if c.token(&Token::LParen) && !c.token(&Token::RParen) {
        loop {
            columns.push(column_name(c)?.to_ascii_lowercase());
            if !c.token(&Token::Comma) {
                break;
            }
        }
        c.expect(&Token::RParen)?;
    }
    let mut values = Vec::new();
    if c.word("SET") {
        loop {
            columns.push(column_name(c)?.to_ascii_lowercase());
            if !c.token(&Token::Eq) {
                c.expect(&Token::Assignment)?;
            }
            values.push(row_value(c, event)?);
            if !c.token(&Token::Comma) {
                break;
            }
        }
    } else {
        if !c.word("VALUES") {
            c.expect_word("VALUE")?;
        }
        let mut rows = 0;
        loop {
            c.expect(&Token::LParen)?;
            if !c.token(&Token::RParen) {
                loop {
                    let v = row_value(c, event)?;
                    if rows == 0 {
                        values.push(v);
                    }
                    if !c.token(&Token::Comma) {
                        break;
                    }
                }
                c.expect(&Token::RParen)?;
            }
            rows += 1;
            if !c.token(&Token::Comma) {
                break;
            }
        }
        if rows > 1 {
            c.defer(SqlError::not_modelled(
                "CREATE TRIGGER with an INSERT of several rows",
            ));
        }
    }
    let mut on_duplicate = match (replace, ignore) {
        (true, _) => OnDuplicate::Replace,
        (false, true) => OnDuplicate::Ignore,
        (false, false) => OnDuplicate::Error,
    };
    if !replace && c.words(&["ON", "DUPLICATE", "KEY", "UPDATE"]) {
        loop {
            column_name(c)?;
            if !c.token(&Token::Eq) {
                c.expect(&Token::Assignment)?;
            }
            row_value(c, event)?;
            if !c.token(&Token::Comma) {
                break;
            }
        }
        on_duplicate = OnDuplicate::Update;
    }
    Ok(TriggerBody::Insert {
        table,
        columns,
        values,
        on_duplicate,
    })
}

/// `DELETE [LOW_PRIORITY] [QUICK] [IGNORE] FROM t [WHERE expr]`: the WHERE clause's
/// first `col = value` or `col <=> value` names the row.
fn delete_body(c: &mut Cursor, event: TriggerEvent) -> Result<TriggerBody> {
    c.expect_word("DELETE")?;
    for w in ["LOW_PRIORITY", "QUICK", "IGNORE"] {
        c.word(w);
    }
    c.expect_word("FROM")?;
    let table = table_ident(c)?;
    let mut key = None;
    let mut only_if_changed = None;
    if c.word("WHERE") {
        let e = expr::expr(c)?;
        let mut conjuncts = Vec::new();
        flatten_and(&e, &mut conjuncts);
        for conj in &conjuncts {
            check_row_refs(conj, event)?;
        }
        key = conjuncts.iter().find_map(|e| key_conjunct(e));
        only_if_changed = conjuncts.iter().find_map(|e| changed_conjunct(e));
    }
    Ok(TriggerBody::Delete {
        table,
        key,
        only_if_changed,
    })
}

/// `!(OLD.col <=> NEW.col)`, `NOT OLD.col = NEW.col` or `OLD.col <> NEW.col` (either
/// way round): the row's column `col` changed.
fn changed_conjunct(e: &Expr) -> Option<String> {
    let (l, r) = match unnest(e) {
        Expr::Not(inner) => match unnest(inner) {
            Expr::Binary(l, BinOp::Eq | BinOp::NullSafeEq, r) => (l, r),
            _ => return None,
        },
        Expr::Binary(l, BinOp::NotEq, r) => (l, r),
        _ => return None,
    };
    match (row_ref(unnest(l))?, row_ref(unnest(r))?) {
        (RowValue::Old(a), RowValue::New(b)) | (RowValue::New(a), RowValue::Old(b)) if a == b => {
            Some(a)
        }
        _ => None,
    }
}

fn flatten_and<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match e {
        Expr::Binary(l, BinOp::And, r) => {
            flatten_and(l, out);
            flatten_and(r, out);
        }
        Expr::Nested(inner) => flatten_and(inner, out),
        _ => out.push(e),
    }
}

/// `col = NEW.x`, `t.col <=> OLD.x` or the other way round: the column and the value.
fn key_conjunct(e: &Expr) -> Option<(String, RowValue)> {
    let Expr::Binary(l, BinOp::Eq | BinOp::NullSafeEq, r) = e else {
        return None;
    };
    let (l, r) = (unnest(l), unnest(r));
    match (row_ref(l), row_ref(r)) {
        (None, Some(v)) => Some((plain_column(l)?, v)),
        (Some(v), None) => Some((plain_column(r)?, v)),
        _ => None,
    }
}

fn unnest(e: &Expr) -> &Expr {
    match e {
        Expr::Nested(inner) => unnest(inner),
        _ => e,
    }
}

/// A column of the written table: `col`, `t.col`, `db.t.col` (not `NEW.col`).
fn plain_column(e: &Expr) -> Option<String> {
    match e {
        Expr::Ident { name, .. } => Some(name.to_ascii_lowercase()),
        Expr::Compound(parts) if row_ref(e).is_none() => {
            parts.last().map(|p| p.to_ascii_lowercase())
        }
        _ => None,
    }
}

/// `NEW.col` or `OLD.col`.
fn row_ref(e: &Expr) -> Option<RowValue> {
    let Expr::Compound(parts) = e else {
        return None;
    };
    let [row, col] = parts.as_slice() else {
        return None;
    };
    let col = col.to_ascii_lowercase();
    if row.eq_ignore_ascii_case("NEW") {
        Some(RowValue::New(col))
    } else if row.eq_ignore_ascii_case("OLD") {
        Some(RowValue::Old(col))
    } else {
        None
    }
}

/// One value of the body: `NEW.col`, `OLD.col` or anything else, checked against
/// the event (1363).
fn row_value(c: &mut Cursor, event: TriggerEvent) -> Result<RowValue> {
    if c.peek_word() == "DEFAULT" && c.peek_nth(1) != &Token::LParen {
        c.next();
        return Ok(RowValue::Other);
    }
    let e = expr::expr(c)?;
    check_row_refs(&e, event)?;
    Ok(row_ref(unnest(&e)).unwrap_or(RowValue::Other))
}

/// MySQL's parser refuses a `NEW` row in a DELETE trigger and an `OLD` row in an
/// INSERT trigger (1363), wherever in the expression it stands.
fn check_row_refs(e: &Expr, event: TriggerEvent) -> Result<()> {
    let bad = match (row_ref(e), event) {
        (Some(RowValue::New(_)), TriggerEvent::Delete) => Some(("NEW", "on DELETE")),
        (Some(RowValue::Old(_)), TriggerEvent::Insert) => Some(("OLD", "on INSERT")),
        _ => None,
    };
    if let Some((row, on)) = bad {
        return Err(SqlError::no_such_row_in_trigger(row, on).into());
    }
    match e {
        Expr::Binary(l, _, r) => {
            check_row_refs(l, event)?;
            check_row_refs(r, event)
        }
        Expr::Between(a, b, c) => {
            check_row_refs(a, event)?;
            check_row_refs(b, event)?;
            check_row_refs(c, event)
        }
        Expr::Nested(inner) | Expr::Neg(inner) | Expr::Not(inner) => check_row_refs(inner, event),
        Expr::Call {
            args: Some(args), ..
        } => args.iter().try_for_each(|a| check_row_refs(a, event)),
        _ => Ok(()),
    }
}
