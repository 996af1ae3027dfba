//! `SELECT`: MySQL's `query_specification` with its `select_item_list`,
//! `table_reference_list`, `where_clause`, `group_clause`, `having_clause`,
//! `order_clause`, `limit_clause` and `locking_clause`; and the row classification
//! of a WHERE clause ([`RowAccess`]) that UPDATE and DELETE share.

use super::super::command::{
    Command, IndexHint, IndexHintKind, RowAccess, RowLock, SelectColumn, TableName,
};
use super::super::lexer::Token;
use super::super::{Result, SqlError};
use super::cursor::Cursor;
use super::expr::{self, int_value, BinOp, Expr};
use super::names::table_ident;

/// The diagnostic tables `SelectSystemTable` covers, as (schema, table).
const SYSTEM_TABLES: &[(&str, &str)] = &[
    ("performance_schema", "metadata_locks"),
    ("performance_schema", "threads"),
    ("information_schema", "processlist"),
    ("information_schema", "innodb_trx"),
];

/// One select item: its text as written, its alias and, for `SLEEP(...)`, the call.
struct SelectItem {
    text: String,
    alias: Option<String>,
    expr: Option<Expr>,
}

/// What follows FROM, when it is one plain table.
struct FromTable {
    table: TableName,
    index_hints: Vec<IndexHint>,
}

/// A `query_specification` read up to its end: its items, its one table, its WHERE
/// clause, and the clauses after it.
struct QuerySpec {
    items: Vec<SelectItem>,
    from: Option<FromTable>,
    where_text: Option<(String, Expr)>,
    /// GROUP BY, HAVING or ORDER BY was written.
    grouped_or_ordered: bool,
    limit: Limit,
    lock: RowLock,
}

/// `SELECT ...` without the statement's end: what `select_stmt` and `INSERT ...
/// SELECT` share.
fn query_spec(c: &mut Cursor) -> Result<QuerySpec> {
    c.expect_word("SELECT")?;
    select_options(c);
    let items = select_item_list(c)?;
    if c.word("INTO") {
        c.defer(SqlError::not_modelled("SELECT ... INTO"));
        into_target(c)?;
    }
    let from = if c.word("FROM") {
        if c.word("DUAL") {
            None
        } else {
            table_reference_list(c)?
        }
    } else {
        None
    };
    let where_text = where_clause(c)?;
    let grouped = group_clause(c)? | having_clause(c)?;
    window_clause(c)?;
    let ordered = order_clause(c)?;
    let limit = limit_clause(c)?;
    let lock = locking_clause(c)?;
    if matches!(c.peek_word().as_str(), "UNION" | "EXCEPT" | "INTERSECT") {
        c.defer(SqlError::not_modelled(&c.peek_word()));
        c.next();
        let _ = c.word("ALL") || c.word("DISTINCT");
        query_spec(c)?;
    }
    Ok(QuerySpec {
        items,
        from,
        where_text,
        grouped_or_ordered: grouped || ordered,
        limit,
        lock,
    })
}

/// `SELECT ...` up to the end of the statement.
pub(in crate::sql) fn select_stmt(c: &mut Cursor) -> Result<Command> {
    let QuerySpec {
        items,
        from,
        where_text,
        grouped_or_ordered,
        limit,
        lock,
    } = query_spec(c)?;
    c.finish()?;
    let Some(from) = from else {
        return no_table_select(items);
    };
    let (where_text, where_expr) = match where_text {
        Some((text, e)) => (Some(text), Some(e)),
        None => (None, None),
    };
    if let Some(schema) = from.table.schema.as_deref().filter(|s| is_system_schema(s)) {
        let schema = schema.to_ascii_lowercase();
        let name = from.table.table.to_ascii_lowercase();
        let full = format!("{schema}.{name}");
        if !SYSTEM_TABLES.contains(&(schema.as_str(), name.as_str())) {
            return Err(SqlError::not_modelled(&format!("SELECT FROM {full}")).into());
        }
        if lock != RowLock::NonLocking || limit.read.is_some() || grouped_or_ordered {
            return Err(SqlError::not_modelled(&format!(
                "SELECT FROM {full} with GROUP BY, ORDER BY, LIMIT or a locking clause"
            ))
            .into());
        }
        return Ok(Command::SelectSystemTable {
            schema,
            table: name,
            columns: items.into_iter().map(|i| i.text).collect(),
            where_text,
        });
    }
    let mut sleep_ms_per_row = 0;
    for args in items.iter().filter_map(sleep_call) {
        sleep_ms_per_row += sleep_ms(args)?;
    }
    Ok(Command::Select {
        table: from.table,
        access: classify(where_expr.as_ref()),
        lock,
        limit: limit.read,
        offset: limit.offset,
        sleep_ms_per_row,
        index_hints: from.index_hints,
    })
}

fn is_system_schema(s: &str) -> bool {
    s.eq_ignore_ascii_case("performance_schema") || s.eq_ignore_ascii_case("information_schema")
}

/// The SELECT of an `INSERT ... SELECT` (`insert_query_expression`), up to its end:
/// one table's rows; a SELECT without a table, of a diagnostic table, grouped or
/// sorted is read and deferred as 1235.
pub(in crate::sql) fn source_select(c: &mut Cursor) -> Result<SourceSelect> {
    let q = query_spec(c)?;
    let from = match q.from {
        Some(f) if f.table.schema.as_deref().is_some_and(is_system_schema) => {
            c.defer(SqlError::not_modelled(
                "INSERT ... SELECT from a system table",
            ));
            None
        }
        Some(f) => Some(f),
        None => {
            c.defer(SqlError::not_modelled("INSERT ... SELECT without a table"));
            None
        }
    };
    if q.grouped_or_ordered {
        c.defer(SqlError::not_modelled(
            "INSERT ... SELECT with GROUP BY, HAVING or ORDER BY",
        ));
    }
    let items = q
        .items
        .iter()
        .map(|i| match &i.expr {
            None => SelectColumn::Star,
            Some(e) => column_ref(e).map_or(SelectColumn::Expr, SelectColumn::Column),
        })
        .collect();
    let (table, index_hints) = match from {
        Some(f) => (f.table, f.index_hints),
        None => (
            TableName {
                schema: None,
                table: String::new(),
            },
            Vec::new(),
        ),
    };
    Ok(SourceSelect {
        table,
        items,
        access: classify(q.where_text.as_ref().map(|(_, e)| e)),
        lock: q.lock,
        limit: q.limit.read,
        offset: q.limit.offset,
        index_hints,
    })
}

/// What `INSERT ... SELECT` reads: [`source_select`]'s answer.
pub(in crate::sql) struct SourceSelect {
    pub(in crate::sql) table: TableName,
    pub(in crate::sql) items: Vec<SelectColumn>,
    pub(in crate::sql) access: RowAccess,
    pub(in crate::sql) lock: RowLock,
    pub(in crate::sql) limit: Option<u64>,
    pub(in crate::sql) offset: u64,
    pub(in crate::sql) index_hints: Vec<IndexHint>,
}

/// `ALL`, `DISTINCT`, `SQL_NO_CACHE` and the other `select_option`s.
fn select_options(c: &mut Cursor) {
    const OPTIONS: &[&str] = &[
        "ALL",
        "DISTINCT",
        "DISTINCTROW",
        "HIGH_PRIORITY",
        "STRAIGHT_JOIN",
        "SQL_SMALL_RESULT",
        "SQL_BIG_RESULT",
        "SQL_BUFFER_RESULT",
        "SQL_CACHE",
        "SQL_NO_CACHE",
        "SQL_CALC_FOUND_ROWS",
    ];
    while OPTIONS.contains(&c.peek_word().as_str()) {
        c.next();
    }
}

/// `select_item_list`: `*` or items, each `expr [[AS] alias]`.
fn select_item_list(c: &mut Cursor) -> Result<Vec<SelectItem>> {
    let mut items = Vec::new();
    loop {
        let from = c.mark();
        let expr = if c.token(&Token::Mul) {
            None
        } else {
            Some(expr::expr(c)?)
        };
        let text = match &expr {
            // Adjacent strings are one ('a' 'b' is 'ab'), printed single-quoted.
            Some(Expr::Str(s)) => format!("'{}'", s.replace('\'', "''")),
            _ => c.text_since(from),
        };
        // The column is named after its alias when it has one (`SELECT 1 AS a`: a).
        let alias = if expr.is_some() {
            select_alias(c)?
        } else {
            None
        };
        items.push(SelectItem { text, alias, expr });
        if !c.token(&Token::Comma) {
            return Ok(items);
        }
    }
}

/// `[AS] alias` after a select item: the alias, if there is one.
fn select_alias(c: &mut Cursor) -> Result<Option<String>> {
    if c.word("AS") {
        return match c.string() {
            Ok(s) => Ok(Some(s)),
            Err(_) => c.ident().map(Some),
        };
    }
    if matches!(c.peek(), Token::Str(_)) {
        return c.string().map(Some);
    }
    if c.at_ident() && !ends_select_item(&c.peek_word()) {
        return c.ident().map(Some);
    }
    Ok(None)
}

/// Words that are not reserved but still end a select item or a table reference.
fn ends_select_item(w: &str) -> bool {
    matches!(w, "DUAL" | "OFFSET" | "NOWAIT" | "SKIP" | "SHARE" | "MODE")
}

/// `INTO @v, ...`, `INTO OUTFILE 'f'`, `INTO DUMPFILE 'f'`.
fn into_target(c: &mut Cursor) -> Result<()> {
    if c.word("OUTFILE") || c.word("DUMPFILE") {
        c.string()?;
        while !c.at_end() && !matches!(c.peek_word().as_str(), "FROM" | "FOR" | "LOCK") {
            c.next();
        }
        return Ok(());
    }
    loop {
        expr::simple_expr(c)?;
        if !c.token(&Token::Comma) {
            return Ok(());
        }
    }
}

/// `table_reference_list`: the one plain table the simulator reads, or `None`
/// after deferring a 1235 for joins and derived tables.
fn table_reference_list(c: &mut Cursor) -> Result<Option<FromTable>> {
    let first = table_factor(c)?;
    let mut joined = false;
    loop {
        if c.token(&Token::Comma) {
            table_factor(c)?;
            joined = true;
            continue;
        }
        if !join_keyword(c) {
            break;
        }
        table_factor(c)?;
        joined = true;
        if c.word("ON") {
            expr::expr(c)?;
        } else if c.word("USING") {
            c.skip_group()?;
        }
    }
    if joined {
        c.defer(SqlError::not_modelled("SELECT ... JOIN"));
        return Ok(None);
    }
    if first.is_none() {
        c.defer(SqlError::not_modelled("SELECT from a derived table"));
    }
    Ok(first)
}

/// `[NATURAL] [INNER | CROSS | LEFT [OUTER] | RIGHT [OUTER]] JOIN`, `STRAIGHT_JOIN`.
pub(super) fn join_keyword(c: &mut Cursor) -> bool {
    let start = c.mark();
    c.word("NATURAL");
    let _ = c.word("INNER")
        || c.word("CROSS")
        || ((c.word("LEFT") || c.word("RIGHT")) && {
            c.word("OUTER");
            true
        });
    if c.word("JOIN") || c.word("STRAIGHT_JOIN") {
        return true;
    }
    c.reset(start);
    false
}

/// `table_factor`: `t [PARTITION (p)] [[AS] alias] [index hints]`; a derived table
/// or a parenthesised join is skipped (`None`).
fn table_factor(c: &mut Cursor) -> Result<Option<FromTable>> {
    if c.peek() == &Token::LParen {
        c.skip_group()?;
        table_alias(c)?;
        return Ok(None);
    }
    let table = table_ident(c)?;
    if c.word("PARTITION") {
        c.skip_group()?;
    }
    table_alias(c)?;
    let index_hints = index_hints_list(c)?;
    Ok(Some(FromTable { table, index_hints }))
}

/// `[AS] alias` after a table.
pub(in crate::sql) fn table_alias(c: &mut Cursor) -> Result<()> {
    if c.word("AS") {
        c.ident()?;
    } else if c.at_ident() && !ends_select_item(&c.peek_word()) {
        c.next();
    }
    Ok(())
}

/// `opt_index_hints_list`: `{USE | FORCE | IGNORE} {INDEX | KEY} [FOR ...] (names)`.
fn index_hints_list(c: &mut Cursor) -> Result<Vec<IndexHint>> {
    let mut hints = Vec::new();
    loop {
        let kind = match c.peek_word().as_str() {
            "USE" => IndexHintKind::Use,
            "FORCE" => IndexHintKind::Force,
            "IGNORE" => IndexHintKind::Ignore,
            _ => return Ok(hints),
        };
        c.next();
        if !c.word("INDEX") {
            c.expect_word("KEY")?;
        }
        if c.word("FOR") {
            c.defer(SqlError::not_modelled(
                "an index hint with FOR JOIN/ORDER BY/GROUP BY",
            ));
            if !c.word("JOIN") {
                if !c.word("ORDER") {
                    c.expect_word("GROUP")?;
                }
                c.expect_word("BY")?;
            }
        }
        c.expect(&Token::LParen)?;
        let mut names = Vec::new();
        if c.peek() != &Token::RParen {
            loop {
                names.push(if c.word("PRIMARY") {
                    "PRIMARY".to_string()
                } else {
                    c.ident()?
                });
                if !c.token(&Token::Comma) {
                    break;
                }
            }
        }
        c.expect(&Token::RParen)?;
        hints.push(IndexHint { kind, names });
    }
}

/// `WHERE expr`: its text and tree.
pub(in crate::sql) fn where_clause(c: &mut Cursor) -> Result<Option<(String, Expr)>> {
    if !c.word("WHERE") {
        return Ok(None);
    }
    let from = c.mark();
    let e = expr::expr(c)?;
    Ok(Some((c.text_since(from), e)))
}

/// `GROUP BY expr [ASC | DESC], ... [WITH ROLLUP]`; whether there was one.
fn group_clause(c: &mut Cursor) -> Result<bool> {
    if !c.words(&["GROUP", "BY"]) {
        return Ok(false);
    }
    ordered_list(c)?;
    c.words(&["WITH", "ROLLUP"]);
    Ok(true)
}

fn having_clause(c: &mut Cursor) -> Result<bool> {
    if !c.word("HAVING") {
        return Ok(false);
    }
    expr::expr(c)?;
    Ok(true)
}

/// `WINDOW w AS (spec) [, ...]`: read, not used.
fn window_clause(c: &mut Cursor) -> Result<()> {
    if !c.word("WINDOW") {
        return Ok(());
    }
    loop {
        c.ident()?;
        c.expect_word("AS")?;
        c.skip_group()?;
        if !c.token(&Token::Comma) {
            return Ok(());
        }
    }
}

/// `ORDER BY expr [ASC | DESC], ...`; whether there was one.
pub(in crate::sql) fn order_clause(c: &mut Cursor) -> Result<bool> {
    if !c.words(&["ORDER", "BY"]) {
        return Ok(false);
    }
    ordered_list(c)?;
    Ok(true)
}

fn ordered_list(c: &mut Cursor) -> Result<()> {
    loop {
        expr::expr(c)?;
        let _ = c.word("ASC") || c.word("DESC");
        if !c.token(&Token::Comma) {
            return Ok(());
        }
    }
}

/// A SELECT's `LIMIT`: the rows it lets the statement read, and of those the first
/// ones it does not send.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::sql) struct Limit {
    /// `off + n`: the rows InnoDB reads (and a locking read locks) before it stops;
    /// `None` without a LIMIT.
    pub(in crate::sql) read: Option<u64>,
    /// `off`: the rows read but not sent.
    pub(in crate::sql) offset: u64,
}

/// `LIMIT n`, `LIMIT off, n`, `LIMIT n OFFSET off` of a SELECT.
pub(in crate::sql) fn limit_clause(c: &mut Cursor) -> Result<Limit> {
    if !c.word("LIMIT") {
        return Ok(Limit::default());
    }
    let first = limit_option(c)?;
    let (count, offset) = if c.token(&Token::Comma) {
        (limit_option(c)?, first)
    } else if c.word("OFFSET") {
        (first, limit_option(c)?)
    } else {
        (first, Some(0))
    };
    match (count, offset) {
        (Some(n), Some(off)) => Ok(Limit {
            read: Some(n.saturating_add(off)),
            offset: off,
        }),
        _ => {
            c.defer(SqlError::not_modelled("LIMIT of an expression"));
            Ok(Limit::default())
        }
    }
}

/// `LIMIT n` of an UPDATE or a DELETE: the server's grammar takes no offset there
/// (`LIMIT 1, 2` fails near `2`, `LIMIT 2 OFFSET 1` near `OFFSET`).
pub(in crate::sql) fn simple_limit_clause(c: &mut Cursor) -> Result<Option<u64>> {
    if !c.word("LIMIT") {
        return Ok(None);
    }
    let n = limit_option(c)?;
    if c.token(&Token::Comma) {
        return Err(c.error());
    }
    if n.is_none() {
        c.defer(SqlError::not_modelled("LIMIT of an expression"));
    }
    Ok(n)
}

/// One LIMIT number; `None` when it is not a constant.
fn limit_option(c: &mut Cursor) -> Result<Option<u64>> {
    let e = expr::bit_expr(c)?;
    Ok(expr::const_int(&e).and_then(|v| u64::try_from(v).ok()))
}

/// `FOR UPDATE`, `FOR SHARE`, `LOCK IN SHARE MODE`, with `OF t`, `NOWAIT`, `SKIP
/// LOCKED`, `WAIT n`.
fn locking_clause(c: &mut Cursor) -> Result<RowLock> {
    let lock = if c.words(&["LOCK", "IN", "SHARE", "MODE"]) {
        RowLock::Shared
    } else if c.word("FOR") {
        let lock = if c.word("UPDATE") {
            RowLock::Exclusive
        } else {
            c.expect_word("SHARE")?;
            RowLock::Shared
        };
        if c.word("OF") {
            c.defer(SqlError::not_modelled("SELECT ... FOR UPDATE OF"));
            loop {
                c.ident()?;
                if !c.token(&Token::Comma) {
                    break;
                }
            }
        }
        lock
    } else {
        return Ok(RowLock::NonLocking);
    };
    if c.word("NOWAIT") {
        c.defer(SqlError::not_modelled("SELECT ... NOWAIT"));
    } else if c.words(&["SKIP", "LOCKED"]) {
        c.defer(SqlError::not_modelled("SELECT ... SKIP LOCKED"));
    } else if c.word("WAIT") {
        c.number()?;
        c.defer(SqlError::not_modelled("SELECT ... WAIT"));
    }
    Ok(lock)
}

/// `SELECT SLEEP(n)` or `SELECT 1`, `SELECT @@autocommit`.
fn no_table_select(items: Vec<SelectItem>) -> Result<Command> {
    if let [item] = items.as_slice() {
        if let Some(args) = sleep_call(item) {
            let duration_ms = sleep_ms(args)?;
            return Ok(Command::SelectSleep { duration_ms });
        }
    }
    let (items, aliases) = items.into_iter().map(|i| (i.text, i.alias)).unzip();
    Ok(Command::SelectExpressions { items, aliases })
}

/// The arguments of a select item that is a `SLEEP(...)` call.
fn sleep_call(item: &SelectItem) -> Option<Option<&[Expr]>> {
    match &item.expr {
        Some(Expr::Call { name, args }) if name.eq_ignore_ascii_case("SLEEP") => {
            Some(args.as_deref())
        }
        _ => None,
    }
}

/// `SLEEP(n)`'s argument in milliseconds: a number (`5`, `0.25`).
fn sleep_ms(args: Option<&[Expr]>) -> Result<u64> {
    let ms = match args {
        Some([Expr::Number(text)]) => decimal_ms(text),
        _ => None,
    };
    ms.ok_or_else(|| SqlError::not_modelled("SLEEP() of an expression").into())
}

/// Seconds written as a decimal (`5`, `0.25`) in milliseconds, without floats.
fn decimal_ms(text: &str) -> Option<u64> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let int: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let frac_ms: u64 = format!("{frac:0<3}")[..3].parse().ok()?;
    int.checked_mul(1000)?.checked_add(frac_ms)
}

// ----- WHERE classification -----

/// Which rows a WHERE clause reaches, from its shape: the first `col = n` among the
/// AND-ed conditions makes a point; bounds on one column (`BETWEEN`, `<`, `>=`, ...)
/// make a range; anything else is a full scan.
pub(in crate::sql) fn classify(selection: Option<&Expr>) -> RowAccess {
    let mut conjuncts = Vec::new();
    if let Some(e) = selection {
        flatten_and(e, &mut conjuncts);
    }
    if let Some((column, value)) = conjuncts.iter().find_map(|c| equality(c)) {
        return RowAccess::Point { column, value };
    }
    let mut range: Option<(String, Option<i64>, Option<i64>)> = None;
    for (column, min, max) in conjuncts.iter().filter_map(|c| bounds(c)) {
        match &mut range {
            None => range = Some((column, min, max)),
            Some((c, lo, hi)) if *c == column => {
                *lo = (*lo).max(min);
                *hi = match (*hi, max) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
            Some(_) => {}
        }
    }
    match range {
        Some((column, min, max)) => RowAccess::Range { column, min, max },
        None => RowAccess::FullScan,
    }
}

fn flatten_and<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match e {
        Expr::Binary(left, BinOp::And, right) => {
            flatten_and(left, out);
            flatten_and(right, out);
        }
        Expr::Nested(inner) => flatten_and(inner, out),
        _ => out.push(e),
    }
}

/// A column reference, lower-cased: `id`, `t.id`.
fn column_ref(e: &Expr) -> Option<String> {
    match e {
        Expr::Ident { name, .. } => Some(name.to_ascii_lowercase()),
        Expr::Compound(parts) => parts.last().map(|p| p.to_ascii_lowercase()),
        Expr::Nested(inner) => column_ref(inner),
        _ => None,
    }
}

/// `col <op> n`, with `n <op> col` turned around.
fn comparison(e: &Expr) -> Option<(String, BinOp, i64)> {
    let Expr::Binary(left, op, right) = e else {
        return None;
    };
    if let (Some(c), Some(v)) = (column_ref(left), int_value(right)) {
        return Some((c, *op, v));
    }
    let flipped = match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::LtEq => BinOp::GtEq,
        BinOp::Gt => BinOp::Lt,
        BinOp::GtEq => BinOp::LtEq,
        other => *other,
    };
    Some((column_ref(right)?, flipped, int_value(left)?))
}

fn equality(e: &Expr) -> Option<(String, i64)> {
    if let Expr::Nested(inner) = e {
        return equality(inner);
    }
    match comparison(e)? {
        (c, BinOp::Eq | BinOp::NullSafeEq, v) => Some((c, v)),
        _ => None,
    }
}

/// Inclusive bounds a condition puts on one column: a comparison, a BETWEEN, or an
/// OR of two of them (or of equalities) on the same column, read as the range that
/// covers both (gh-ost's `((id < 30) OR ((id = 30)))`).
fn bounds(e: &Expr) -> Option<(String, Option<i64>, Option<i64>)> {
    if let Expr::Nested(inner) = e {
        return bounds(inner);
    }
    if let Expr::Binary(l, BinOp::Or, r) = e {
        let either =
            |e: &Expr| bounds(e).or_else(|| equality(e).map(|(c, v)| (c, Some(v), Some(v))));
        let ((c1, lo1, hi1), (c2, lo2, hi2)) = (either(l)?, either(r)?);
        if c1 != c2 {
            return None;
        }
        let lo = lo1.zip(lo2).map(|(a, b)| a.min(b));
        let hi = hi1.zip(hi2).map(|(a, b)| a.max(b));
        return Some((c1, lo, hi));
    }
    if let Expr::Between(expr, low, high) = e {
        return Some((
            column_ref(expr)?,
            Some(int_value(low)?),
            Some(int_value(high)?),
        ));
    }
    let (c, op, v) = comparison(e)?;
    match op {
        BinOp::Lt => Some((c, None, Some(v.checked_sub(1)?))),
        BinOp::LtEq => Some((c, None, Some(v))),
        BinOp::Gt => Some((c, Some(v.checked_add(1)?), None)),
        BinOp::GtEq => Some((c, Some(v), None)),
        _ => None,
    }
}
