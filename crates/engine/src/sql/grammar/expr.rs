//! Expressions, after MySQL's `expr` → `bool_pri` → `predicate` → `bit_expr` →
//! `simple_expr` ladder. The simulator reads only a few shapes (integer constants,
//! `col <op> n`, `BETWEEN`, `AND`, `SLEEP(n)`, a SET value); everything else is
//! parsed, so that it fails where MySQL fails, and kept as [`Expr::Other`].

use super::super::lexer::Token;
use super::super::Result;
use super::cursor::{word_upper, Cursor};
use super::keywords::is_reserved;

/// What the simulator can see of an expression.
#[derive(Debug)]
pub(in crate::sql) enum Expr {
    /// An unsigned number as written (`5`, `0.25`, `1e3`).
    Number(String),
    /// A quoted string's value.
    Str(String),
    Bool(bool),
    /// A name: `id`, `ON`, `128M`; `quoted` when it was backquoted.
    Ident {
        name: String,
        quoted: bool,
    },
    /// `t.id`, `db.t.id`.
    Compound(Vec<String>),
    /// `-e`, `+e`.
    Neg(Box<Expr>),
    Binary(Box<Expr>, BinOp, Box<Expr>),
    Between(Box<Expr>, Box<Expr>, Box<Expr>),
    Nested(Box<Expr>),
    /// `NOT e`, `!e`.
    Not(Box<Expr>),
    /// `f(args)`; `args` is `None` when they are not all expressions (`COUNT(*)`).
    Call {
        name: String,
        args: Option<Vec<Expr>>,
    },
    /// Anything else the grammar allows.
    Other,
}

/// The binary operators the simulator reads; the rest are `Other`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sql) enum BinOp {
    And,
    Or,
    Eq,
    /// `<=>`: equal, NULL-safe.
    NullSafeEq,
    /// `<>`, `!=`.
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    Plus,
    Minus,
    Mul,
    Other,
}

/// `expr`: OR, XOR, AND, NOT, in rising precedence.
pub(in crate::sql) fn expr(c: &mut Cursor) -> Result<Expr> {
    c.nested(or_expr)
}

fn or_expr(c: &mut Cursor) -> Result<Expr> {
    let mut left = xor_expr(c)?;
    while c.word("OR") || c.token(&Token::PipePipe) {
        left = binary(left, BinOp::Or, xor_expr(c)?);
    }
    Ok(left)
}

fn xor_expr(c: &mut Cursor) -> Result<Expr> {
    let mut left = and_expr(c)?;
    while c.word("XOR") {
        and_expr(c)?;
        left = Expr::Other;
    }
    Ok(left)
}

fn and_expr(c: &mut Cursor) -> Result<Expr> {
    let mut left = not_expr(c)?;
    while c.word("AND") || c.token(&Token::AmpAmp) {
        left = binary(left, BinOp::And, not_expr(c)?);
    }
    Ok(left)
}

fn not_expr(c: &mut Cursor) -> Result<Expr> {
    if c.word("NOT") {
        return Ok(Expr::Not(Box::new(c.nested(not_expr)?)));
    }
    bool_pri(c)
}

/// `bool_pri`: `IS [NOT] NULL|TRUE|FALSE|UNKNOWN` and comparisons.
fn bool_pri(c: &mut Cursor) -> Result<Expr> {
    let mut left = predicate(c)?;
    loop {
        if c.word("IS") {
            c.word("NOT");
            if !(c.word("NULL") || c.word("TRUE") || c.word("FALSE") || c.word("UNKNOWN")) {
                return Err(c.error());
            }
            left = Expr::Other;
            continue;
        }
        let op = match c.peek() {
            Token::Eq => BinOp::Eq,
            Token::Lt => BinOp::Lt,
            Token::LtEq => BinOp::LtEq,
            Token::Gt => BinOp::Gt,
            Token::GtEq => BinOp::GtEq,
            Token::Spaceship => BinOp::NullSafeEq,
            Token::Neq => BinOp::NotEq,
            _ => return Ok(left),
        };
        c.next();
        if matches!(c.peek_word().as_str(), "ALL" | "ANY" | "SOME") {
            c.next();
            c.skip_group()?;
            left = Expr::Other;
            continue;
        }
        left = binary(left, op, predicate(c)?);
    }
}

/// `predicate`: `[NOT] IN`, `[NOT] BETWEEN`, `[NOT] LIKE`, `[NOT] REGEXP`, `SOUNDS LIKE`.
fn predicate(c: &mut Cursor) -> Result<Expr> {
    let left = bit_expr(c)?;
    let mark = c.mark();
    let negated = c.word("NOT");
    match c.peek_word().as_str() {
        "IN" => {
            c.next();
            c.expect(&Token::LParen)?;
            if c.peek_word() == "SELECT" {
                c.reset(c.mark() - 1);
                c.skip_group()?;
            } else {
                expr_list(c)?;
                c.expect(&Token::RParen)?;
            }
            Ok(Expr::Other)
        }
        "BETWEEN" => {
            c.next();
            let low = bit_expr(c)?;
            c.expect_word("AND")?;
            let high = predicate(c)?;
            Ok(match negated {
                true => Expr::Other,
                false => Expr::Between(Box::new(left), Box::new(low), Box::new(high)),
            })
        }
        "LIKE" => {
            c.next();
            simple_expr(c)?;
            if c.word("ESCAPE") {
                simple_expr(c)?;
            }
            Ok(Expr::Other)
        }
        "REGEXP" | "RLIKE" => {
            c.next();
            bit_expr(c)?;
            Ok(Expr::Other)
        }
        "SOUNDS" if !negated => {
            c.next();
            c.expect_word("LIKE")?;
            bit_expr(c)?;
            Ok(Expr::Other)
        }
        _ => {
            c.reset(mark);
            Ok(left)
        }
    }
}

/// `bit_expr`: `|`, `&`, shifts, `+ -`, `* / DIV MOD %`, `^`, lowest first.
pub(in crate::sql) fn bit_expr(c: &mut Cursor) -> Result<Expr> {
    bit_level(c, 0)
}

/// The operator levels of `bit_expr`, loosest first.
const BIT_LEVELS: usize = 6;

fn bit_level(c: &mut Cursor, level: usize) -> Result<Expr> {
    if level == BIT_LEVELS {
        return simple_expr(c);
    }
    let mut left = bit_level(c, level + 1)?;
    while let Some(op) = bit_op(c, level) {
        left = binary(left, op, bit_level(c, level + 1)?);
    }
    Ok(left)
}

/// Takes the operator of `level` if it is next.
fn bit_op(c: &mut Cursor, level: usize) -> Option<BinOp> {
    let op = match (level, c.peek()) {
        (0, Token::Pipe) | (1, Token::Ampersand) => BinOp::Other,
        (2, Token::ShiftLeft | Token::ShiftRight) => BinOp::Other,
        (3, Token::Plus) => BinOp::Plus,
        (3, Token::Minus) => BinOp::Minus,
        (4, Token::Mul) => BinOp::Mul,
        (4, Token::Div | Token::Mod) => BinOp::Other,
        (4, t) if matches!(word_upper(t).as_str(), "DIV" | "MOD") => BinOp::Other,
        (5, Token::Caret) => BinOp::Other,
        _ => return None,
    };
    c.next();
    Some(op)
}

/// `simple_expr`: literals, names, calls, variables, unary operators, `( expr )`,
/// subqueries, `EXISTS`, `CASE`, `INTERVAL`, `BINARY`.
pub(in crate::sql) fn simple_expr(c: &mut Cursor) -> Result<Expr> {
    c.nested(simple_expr_here)
}

fn simple_expr_here(c: &mut Cursor) -> Result<Expr> {
    match c.peek() {
        Token::Minus => {
            c.next();
            Ok(Expr::Neg(Box::new(simple_expr(c)?)))
        }
        Token::Plus => {
            c.next();
            simple_expr(c)
        }
        Token::ExclamationMark => {
            c.next();
            Ok(Expr::Not(Box::new(simple_expr(c)?)))
        }
        Token::Tilde => {
            c.next();
            simple_expr(c)?;
            Ok(Expr::Other)
        }
        Token::LParen => parenthesised(c),
        Token::Number(n) => {
            let n = n.clone();
            c.next();
            Ok(Expr::Number(n))
        }
        Token::Str(s) => {
            let s = s.clone();
            c.next();
            // Adjacent strings concatenate: 'a' 'b'.
            let mut s = s;
            while let Token::Str(t) = c.peek() {
                s.push_str(t);
                c.next();
            }
            Ok(Expr::Str(s))
        }
        Token::Hex(_) | Token::NationalStr(_) | Token::Bit(_) => {
            c.next();
            Ok(Expr::Other)
        }
        Token::Word(w) if !w.quoted => keyword_expr(c),
        Token::Word(_) => name_or_call(c),
        _ => Err(c.error()),
    }
}

/// `( expr [, expr ...] )` or a subquery.
fn parenthesised(c: &mut Cursor) -> Result<Expr> {
    if matches!(c.word_at(1).as_str(), "SELECT" | "WITH") {
        c.skip_group()?;
        return Ok(Expr::Other);
    }
    c.next();
    let mut list = expr_list(c)?;
    c.expect(&Token::RParen)?;
    Ok(match list.len() {
        1 => Expr::Nested(Box::new(list.remove(0))),
        _ => Expr::Other,
    })
}

/// A simple expression that starts with a bare word.
fn keyword_expr(c: &mut Cursor) -> Result<Expr> {
    let w = c.peek_word();
    match w.as_str() {
        "TRUE" | "FALSE" => {
            c.next();
            Ok(Expr::Bool(w == "TRUE"))
        }
        "NULL" => {
            c.next();
            Ok(Expr::Other)
        }
        "EXISTS" => {
            c.next();
            c.skip_group()?;
            Ok(Expr::Other)
        }
        "CASE" => case(c),
        "INTERVAL" => {
            c.next();
            expr(c)?;
            c.next(); // the unit: DAY, HOUR_MINUTE, ...
            Ok(Expr::Other)
        }
        "BINARY" => {
            c.next();
            simple_expr(c)?;
            Ok(Expr::Other)
        }
        "DEFAULT" if c.peek_nth(1) == &Token::LParen => {
            c.next();
            c.skip_group()?;
            Ok(Expr::Other)
        }
        // A typed literal or a character set introducer: DATE '2024-01-01', _utf8mb4'x'.
        _ if matches!(c.peek_nth(1), Token::Str(_) | Token::Hex(_))
            && (w.starts_with('_') || matches!(w.as_str(), "DATE" | "TIME" | "TIMESTAMP")) =>
        {
            c.next();
            c.next();
            Ok(Expr::Other)
        }
        // `@x`, `@@x`, `@@global.x` are names here.
        _ if w.starts_with('@') => name_or_call(c),
        _ if is_reserved(&w) => Err(c.error()),
        _ => name_or_call(c),
    }
}

/// `name`, `a.b[.c]`, `t.*`, or `f(args)`.
fn name_or_call(c: &mut Cursor) -> Result<Expr> {
    let Token::Word(first) = c.next() else {
        return Err(c.error());
    };
    if c.peek() == &Token::LParen && !first.quoted {
        return call(c, first.value.clone());
    }
    let mut parts = vec![first.value.clone()];
    while c.peek() == &Token::Period {
        c.next();
        match c.peek() {
            Token::Word(w) => {
                parts.push(w.value.clone());
                c.next();
            }
            Token::Mul => {
                c.next();
                return Ok(Expr::Other);
            }
            _ => return Err(c.error()),
        }
    }
    Ok(match parts.len() {
        1 => Expr::Ident {
            name: parts.remove(0),
            quoted: first.quoted,
        },
        _ => Expr::Compound(parts),
    })
}

/// `f(args)`: the arguments if they are a plain list, else skipped as a group
/// (`COUNT(*)`, `CAST(x AS CHAR)`, `GROUP_CONCAT(DISTINCT ...)`).
fn call(c: &mut Cursor, name: String) -> Result<Expr> {
    let open = c.mark();
    c.next();
    if c.token(&Token::RParen) {
        return Ok(Expr::Call {
            name,
            args: Some(Vec::new()),
        });
    }
    if let Ok(args) = expr_list(c) {
        if c.token(&Token::RParen) {
            return Ok(Expr::Call {
                name,
                args: Some(args),
            });
        }
    }
    c.reset(open);
    c.skip_group()?;
    Ok(Expr::Call { name, args: None })
}

/// `CASE [e] WHEN ... THEN ... [ELSE ...] END`.
fn case(c: &mut Cursor) -> Result<Expr> {
    c.expect_word("CASE")?;
    if c.peek_word() != "WHEN" {
        expr(c)?;
    }
    c.expect_word("WHEN")?;
    loop {
        expr(c)?;
        c.expect_word("THEN")?;
        expr(c)?;
        if !c.word("WHEN") {
            break;
        }
    }
    if c.word("ELSE") {
        expr(c)?;
    }
    c.expect_word("END")?;
    Ok(Expr::Other)
}

/// `expr [, expr ...]`.
pub(in crate::sql) fn expr_list(c: &mut Cursor) -> Result<Vec<Expr>> {
    let mut list = vec![expr(c)?];
    while c.token(&Token::Comma) {
        list.push(expr(c)?);
    }
    Ok(list)
}

fn binary(left: Expr, op: BinOp, right: Expr) -> Expr {
    Expr::Binary(Box::new(left), op, Box::new(right))
}

/// The value of an integer constant expression: `5`, `-1`, `128*1024*1024`.
pub(in crate::sql) fn const_int(e: &Expr) -> Option<i128> {
    match e {
        Expr::Number(text) => text.parse().ok(),
        Expr::Nested(inner) => const_int(inner),
        Expr::Neg(inner) => const_int(inner)?.checked_neg(),
        Expr::Binary(l, op, r) => {
            let (l, r) = (const_int(l)?, const_int(r)?);
            match op {
                BinOp::Plus => l.checked_add(r),
                BinOp::Minus => l.checked_sub(r),
                BinOp::Mul => l.checked_mul(r),
                _ => None,
            }
        }
        _ => None,
    }
}

/// An integer constant that fits an i64, or a string of one (`'1000'`, as
/// pt-online-schema-change quotes its chunk bounds: MySQL compares an integer column
/// with it as the number).
pub(in crate::sql) fn int_value(e: &Expr) -> Option<i64> {
    match e {
        Expr::Str(s) => s.trim().parse().ok(),
        _ => const_int(e).and_then(|v| i64::try_from(v).ok()),
    }
}
