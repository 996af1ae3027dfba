//! Transactions and session state: `BEGIN`, `START TRANSACTION`, `COMMIT`,
//! `ROLLBACK` (MySQL's `begin_stmt`, `start_transaction_stmt`, `commit`, `rollback`),
//! `SET` (`set`, `option_value`, `set_expr_or_default`) and `USE` (`use`).

use super::super::command::{Command, SetValue, VarScope};
use super::super::lexer::Token;
use super::super::{Result, SqlError};
use super::cursor::Cursor;
use super::expr::{self, const_int, Expr};
use super::names::schema_name;
use crate::size::ByteSize;

/// `BEGIN [WORK]`.
pub(in crate::sql) fn begin_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("BEGIN")?;
    c.word("WORK");
    c.finish()?;
    Ok(Command::Begin {
        consistent_snapshot: false,
    })
}

/// `START TRANSACTION [WITH CONSISTENT SNAPSHOT | READ ONLY | READ WRITE [, ...]]`.
pub(in crate::sql) fn start_transaction_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("START")?;
    c.expect_word("TRANSACTION")?;
    let mut characteristics = Vec::new();
    if !c.at_end() {
        loop {
            characteristics.push(if c.words(&["WITH", "CONSISTENT", "SNAPSHOT"]) {
                "WITH CONSISTENT SNAPSHOT"
            } else if c.words(&["READ", "ONLY"]) {
                "READ ONLY"
            } else if c.words(&["READ", "WRITE"]) {
                "READ WRITE"
            } else {
                return Err(c.error());
            });
            if !c.token(&Token::Comma) {
                break;
            }
        }
    }
    c.finish()?;
    match characteristics.as_slice() {
        [] => Ok(Command::Begin {
            consistent_snapshot: false,
        }),
        ["WITH CONSISTENT SNAPSHOT"] => Ok(Command::Begin {
            consistent_snapshot: true,
        }),
        [one] => Err(SqlError::not_modelled(&format!("START TRANSACTION {one}")).into()),
        _ => Err(SqlError::not_modelled("START TRANSACTION with several characteristics").into()),
    }
}

/// `COMMIT [WORK] [AND [NO] CHAIN] [[NO] RELEASE]`.
pub(in crate::sql) fn commit_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("COMMIT")?;
    c.word("WORK");
    completion(c, "COMMIT")?;
    Ok(Command::Commit)
}

/// `ROLLBACK [WORK] [TO [SAVEPOINT] s | AND [NO] CHAIN | [NO] RELEASE]`.
pub(in crate::sql) fn rollback_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("ROLLBACK")?;
    c.word("WORK");
    if c.word("TO") {
        c.word("SAVEPOINT");
        c.ident()?;
        c.finish()?;
        return Err(SqlError::not_modelled("ROLLBACK TO SAVEPOINT").into());
    }
    completion(c, "ROLLBACK")?;
    Ok(Command::Rollback)
}

/// `opt_chain opt_release`: read, and named in a 1235 when written.
fn completion(c: &mut Cursor, verb: &str) -> Result<()> {
    let mut asked = Vec::new();
    if c.word("AND") {
        if !c.word("NO") {
            c.expect_word("CHAIN")?;
            asked.push("AND CHAIN");
        } else {
            c.expect_word("CHAIN")?;
        }
    }
    if c.word("NO") {
        c.expect_word("RELEASE")?;
    } else if c.word("RELEASE") {
        asked.push("RELEASE");
    }
    c.finish()?;
    // AND NO CHAIN and NO RELEASE are what COMMIT does anyway.
    match asked.as_slice() {
        [] => Ok(()),
        _ => Err(SqlError::not_modelled(&format!("{verb} {}", asked.join(" "))).into()),
    }
}

/// `USE db`.
pub(in crate::sql) fn use_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("USE")?;
    let schema = schema_name(c)?;
    if c.peek() == &Token::Period {
        // The client sends the rest of the line as the name: `a.b` is no schema.
        let mut name = schema;
        while c.token(&Token::Period) {
            name.push('.');
            name.push_str(&c.ident()?);
        }
        c.finish()?;
        return Err(SqlError::wrong_db_name(&name).into());
    }
    c.finish()?;
    Ok(Command::Use { schema })
}

/// One `SET` assignment as read.
struct Assignment {
    scope: VarScope,
    /// The variable's name, `@@` prefixes and scope parts removed; `None` for a
    /// user variable (`@x`).
    name: Option<String>,
    value: Expr,
    value_text: String,
}

/// `SET option_value [, option_value ...]`; one system variable is what the
/// simulator models.
pub(in crate::sql) fn set_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("SET")?;
    if let Some(kind) = unmodelled_set(c) {
        return Err(SqlError::not_modelled(&kind).into());
    }
    let mut assignments = vec![option_value(c)?];
    while c.token(&Token::Comma) {
        assignments.push(option_value(c)?);
    }
    c.finish()?;
    if assignments.len() > 1 {
        return Err(SqlError::not_modelled("SET of several variables in one statement").into());
    }
    let a = assignments.remove(0);
    let Some(name) = a.name else {
        return Err(SqlError::not_modelled("SET @user_variable").into());
    };
    let value = set_value(&name, &a.value, &a.value_text)?;
    Ok(Command::SetVariable {
        scope: a.scope,
        name,
        value,
    })
}

/// The SET forms that are not variable assignments, named for a 1235.
fn unmodelled_set(c: &Cursor) -> Option<String> {
    let (first, second) = (c.word_at(0), c.word_at(1));
    let scoped = matches!(first.as_str(), "GLOBAL" | "SESSION" | "LOCAL");
    match (first.as_str(), second.as_str()) {
        ("NAMES", _) => Some("SET NAMES".into()),
        ("TRANSACTION", _) => Some("SET TRANSACTION".into()),
        (_, "TRANSACTION") if scoped => Some("SET TRANSACTION".into()),
        ("CHARACTER", "SET") | ("CHARSET", _) => Some("SET CHARACTER SET".into()),
        ("PASSWORD" | "ROLE" | "STATEMENT", _) => Some(format!("SET {first}")),
        ("DEFAULT", "ROLE") => Some("SET DEFAULT ROLE".into()),
        _ => None,
    }
}

/// `[GLOBAL | SESSION | LOCAL] name {= | :=} value`, `@@[global.]name = value`,
/// `@name = value`.
fn option_value(c: &mut Cursor) -> Result<Assignment> {
    let mut scope = VarScope::Session;
    if c.word("GLOBAL") || c.word("PERSIST") || c.word("PERSIST_ONLY") {
        scope = VarScope::Global;
    } else {
        let _ = c.word("SESSION") || c.word("LOCAL");
    }
    let name = variable_name(c, &mut scope)?;
    if !c.token(&Token::Eq) {
        c.expect(&Token::Assignment)?;
    }
    let from = c.mark();
    let value = set_expr_or_default(c)?;
    Ok(Assignment {
        scope,
        name,
        value,
        value_text: c.text_since(from),
    })
}

/// `internal_variable_name`: `x`, `@@x`, `@@global.x`, `@@session.x`; `None` for a
/// user variable.
fn variable_name(c: &mut Cursor, scope: &mut VarScope) -> Result<Option<String>> {
    let Token::Word(w) = c.peek() else {
        return Err(c.error());
    };
    let first = w.value.clone();
    let quoted = w.quoted;
    if !quoted && first.starts_with('@') && !first.starts_with("@@") {
        c.next();
        return Ok(None);
    }
    if !quoted && !first.starts_with("@@") && super::keywords::is_reserved(&first) {
        return Err(c.error());
    }
    c.next();
    let mut name = if quoted {
        first.clone()
    } else {
        first.trim_start_matches("@@").to_string()
    };
    if c.token(&Token::Period) {
        let Token::Word(part) = c.peek() else {
            return Err(c.error());
        };
        let part = part.value.clone();
        c.next();
        match name.to_ascii_lowercase().as_str() {
            "global" => *scope = VarScope::Global,
            "session" | "local" => *scope = VarScope::Session,
            _ => {}
        }
        name = part;
    }
    if name.is_empty() {
        return Err(c.error());
    }
    Ok(Some(name.to_ascii_lowercase()))
}

/// `set_expr_or_default`: an expression, or `ON`, `OFF`, `DEFAULT`, `ALL` as words.
fn set_expr_or_default(c: &mut Cursor) -> Result<Expr> {
    if let Some(size) = fractional_size(c) {
        return Ok(size);
    }
    let word = c.peek_word();
    if matches!(word.as_str(), "ON" | "DEFAULT" | "ALL" | "BINARY")
        && matches!(c.peek_nth(1), Token::Eof | Token::Comma)
    {
        let Token::Word(w) = c.next() else {
            return Err(c.error());
        };
        return Ok(Expr::Ident {
            name: w.value.clone(),
            quoted: false,
        });
    }
    expr::expr(c)
}

/// A decimal with a unit written against it, `1.5G`, as one word. MySQL reads
/// `1.5` and then `G` (a syntax error); like `128M`, which MySQL reads as a name,
/// it is taken for a size (see [`is_size_variable`]).
fn fractional_size(c: &mut Cursor) -> Option<Expr> {
    let (Token::Number(n), Token::Word(unit)) = (c.peek(), c.peek_nth(1)) else {
        return None;
    };
    if unit.quoted || !n.contains('.') || !c.touches_previous(1) {
        return None;
    }
    let name = format!("{n}{}", unit.value);
    c.next();
    c.next();
    Some(Expr::Ident {
        name,
        quoted: false,
    })
}

/// Variables whose values are byte sizes, so `128M` means 134217728.
///
/// Simplification: MySQL takes K/M/G suffixes only in option files and on the
/// command line, not in SET; a console is friendlier with them.
fn is_size_variable(name: &str) -> bool {
    name.ends_with("_size") || name.ends_with("_capacity") || name == "max_allowed_packet"
}

/// The value as the executor receives it.
fn set_value(name: &str, e: &Expr, text: &str) -> Result<SetValue> {
    if let Some(v) = const_int(e) {
        return Ok(SetValue::Int(v));
    }
    let size = |text: &str| {
        ByteSize::parse(text)
            .map(|b| SetValue::Int(i128::from(b.0)))
            .map_err(|_| SqlError::wrong_type_for_var(name).into())
    };
    match e {
        // A decimal (`0.5`) arrives as text; an integer too large for any variable is
        // the wrong type.
        Expr::Number(text) if text.contains(['.', 'e', 'E']) => Ok(SetValue::Str(text.clone())),
        Expr::Number(..) => Err(SqlError::wrong_type_for_var(name).into()),
        Expr::Str(s) => {
            if is_size_variable(name) && s.starts_with(|c: char| c.is_ascii_digit()) {
                size(s)
            } else {
                Ok(SetValue::Str(s.clone()))
            }
        }
        Expr::Bool(b) => Ok(SetValue::Bool(*b)),
        Expr::Ident {
            name: word,
            quoted: false,
        } => match word.to_ascii_uppercase().as_str() {
            "ON" => Ok(SetValue::Bool(true)),
            "OFF" => Ok(SetValue::Bool(false)),
            "DEFAULT" => Ok(SetValue::Default),
            w if w.starts_with(|c: char| c.is_ascii_digit()) => {
                if is_size_variable(name) {
                    size(w)
                } else {
                    Err(SqlError::wrong_type_for_var(name).into())
                }
            }
            _ => Ok(SetValue::Str(word.clone())),
        },
        _ => Err(SqlError::not_modelled(&format!("SET {name} = {text}")).into()),
    }
}
