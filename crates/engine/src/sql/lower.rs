//! From sqlparser's syntax tree to [`Command`]: keep what the simulation needs, name
//! what it does not model (1235), and check names as MySQL does.
//!
//! sqlparser's tree covers every dialect it knows; the matches below accept the
//! MySQL shapes of the statements this product runs and send everything else to
//! `not_modelled`, named by its leading keywords.

use super::command::{
    Algorithm, AlterAction, AlterLock, ColumnDef, ColumnPosition, Command, CreateTable, FlushMode,
    IndexDef, IndexHint, IndexHintKind, KeyPart, KillKind, RangePartitioning, RowAccess, RowFormat,
    RowLock, SetValue, TableName, VarScope,
};
use super::error::SqlError;
use super::source::error_at;
use super::Result;
use crate::size::ByteSize;
use sqlparser::ast::{
    self, AlterTableAlgorithm, AlterTableLock, AlterTableOperation, BinaryOperator, ColumnOption,
    ContextModifier, CreateTableLikeKind, CreateTableOptions, Expr, FlushType, FromTable,
    FunctionArg, FunctionArgExpr, FunctionArguments, GroupByExpr, IndexColumn, KillType,
    LimitClause, LockType, MySQLColumnPosition, ObjectName, ObjectType, Query, SelectItem, Set,
    SetExpr, ShowCreateObject, ShowStatementFilter, Spanned, SqlOption, Statement, TableConstraint,
    TableFactor, TableObject, TableWithJoins, UnaryOperator, Use, Value,
};

/// MySQL's longest identifier, in characters.
const IDENT_CHARS_MAX: usize = 64;

/// The diagnostic tables `SelectSystemTable` covers, as (schema, table).
const SYSTEM_TABLES: &[(&str, &str)] = &[
    ("performance_schema", "metadata_locks"),
    ("performance_schema", "threads"),
    ("information_schema", "processlist"),
    ("information_schema", "innodb_trx"),
];

/// The command for one parsed statement.
pub(super) fn statement(ast: &Statement) -> Result<Command> {
    match ast {
        Statement::StartTransaction {
            modes,
            statements,
            exception: None,
            has_end_keyword: false,
            ..
        } if modes.is_empty() && statements.is_empty() => Ok(Command::Begin {
            consistent_snapshot: false,
        }),
        // START TRANSACTION READ ONLY and the like: short, so named in full.
        Statement::StartTransaction { .. } => Err(SqlError::not_modelled(&ast.to_string()).into()),
        Statement::Commit {
            chain: false,
            end: false,
            modifier: None,
        } => Ok(Command::Commit),
        Statement::Rollback {
            chain: false,
            savepoint: None,
        } => Ok(Command::Rollback),
        Statement::Set(set) => set_statement(set),
        Statement::Use(Use::Object(name)) => use_schema(name),
        Statement::Query(q) => query(q, false),
        Statement::Insert(insert) => self::insert(insert),
        Statement::Update(update) => self::update(update),
        Statement::Delete(delete) => self::delete(delete),
        Statement::CreateTable(create) => create_table(create, None),
        Statement::Drop {
            object_type: ObjectType::Table,
            if_exists,
            names,
            temporary: false,
            ..
        } => Ok(Command::DropTable {
            tables: names.iter().map(table_name).collect::<Result<_>>()?,
            if_exists: *if_exists,
        }),
        Statement::Truncate(truncate) => self::truncate(truncate),
        Statement::RenameTable(renames) => rename_table(renames),
        Statement::CreateIndex(create) => create_index(create),
        Statement::UnlockTables => Ok(Command::UnlockTables),
        Statement::Flush {
            object_type: FlushType::Tables,
            channel: None,
            read_lock,
            export,
            tables,
            ..
        } => flush_tables(tables, *read_lock, *export),
        Statement::Kill { modifier, id } => kill(modifier.as_ref(), *id),
        Statement::ShowProcessList { full } => Ok(Command::ShowProcesslist { full: *full }),
        Statement::ShowVariable { variable } => show_variable(variable),
        Statement::ShowVariables { filter, global, .. } => show_variables(filter.as_ref(), *global),
        Statement::ShowStatus { filter, global, .. } => show_status(filter.as_ref(), *global),
        Statement::ShowTables {
            terse: false,
            history: false,
            extended: false,
            full: false,
            external: false,
            show_options,
        } if show_options.show_in.is_none()
            && show_options.starts_with.is_none()
            && show_options.limit.is_none()
            && show_options.limit_from.is_none()
            && show_options.filter_position.is_none() =>
        {
            Ok(Command::ShowTables)
        }
        Statement::ShowTables { .. } => {
            Err(SqlError::not_modelled("SHOW TABLES with FULL, FROM or LIKE").into())
        }
        Statement::ShowCreate {
            obj_type: ShowCreateObject::Table,
            obj_name,
        } => Ok(Command::ShowCreateTable {
            table: table_name(obj_name)?,
        }),
        other => Err(SqlError::not_modelled(&statement_kind(other)).into()),
    }
}

/// `USE db`.
fn use_schema(name: &ObjectName) -> Result<Command> {
    match name.0.as_slice() {
        [part] if part.as_ident().is_some() => Ok(Command::Use {
            schema: check_name(&ident_text(part), SqlError::wrong_db_name)?,
        }),
        _ => Err(SqlError::wrong_db_name(&name.to_string()).into()),
    }
}

/// `UPDATE t SET ... [WHERE ...] [LIMIT n]`, one table.
fn update(update: &ast::Update) -> Result<Command> {
    if update.from.is_some() {
        return Err(SqlError::not_modelled("UPDATE with several tables").into());
    }
    Ok(Command::Update {
        table: single_table(&update.table, "UPDATE")?,
        access: classify(update.selection.as_ref()),
        limit: update.limit.as_ref().map(limit_value).transpose()?,
    })
}

/// `DELETE FROM t [WHERE ...] [LIMIT n]`, one table.
fn delete(delete: &ast::Delete) -> Result<Command> {
    let (ast::FromTable::WithFromKeyword(from) | FromTable::WithoutKeyword(from)) = &delete.from;
    let ([table], true, None) = (from.as_slice(), delete.tables.is_empty(), &delete.using) else {
        return Err(SqlError::not_modelled("DELETE with several tables").into());
    };
    Ok(Command::Delete {
        table: single_table(table, "DELETE")?,
        access: classify(delete.selection.as_ref()),
        limit: delete.limit.as_ref().map(limit_value).transpose()?,
    })
}

/// `TRUNCATE [TABLE] t`.
fn truncate(truncate: &ast::Truncate) -> Result<Command> {
    match truncate.table_names.as_slice() {
        [target] if truncate.partitions.is_none() => Ok(Command::TruncateTable {
            table: table_name(&target.name)?,
        }),
        // MySQL truncates one table at a time: the fault is the comma after the first.
        [first, _, ..] => Err(error_at("Expected: end of statement", first.name.span().end).into()),
        _ => Err(SqlError::not_modelled("TRUNCATE ... PARTITION").into()),
    }
}

/// `RENAME TABLE a TO b [, c TO d ...]`.
fn rename_table(renames: &[ast::RenameTable]) -> Result<Command> {
    Ok(Command::RenameTable {
        renames: renames
            .iter()
            .map(|r| Ok((table_name(&r.old_name)?, table_name(&r.new_name)?)))
            .collect::<Result<_>>()?,
    })
}

/// `FLUSH TABLES [t, ...] [WITH READ LOCK | FOR EXPORT]`.
fn flush_tables(tables: &[ObjectName], read_lock: bool, export: bool) -> Result<Command> {
    Ok(Command::FlushTables {
        tables: tables.iter().map(table_name).collect::<Result<_>>()?,
        mode: if read_lock {
            FlushMode::WithReadLock
        } else if export {
            FlushMode::ForExport
        } else {
            FlushMode::Close
        },
    })
}

/// `KILL [CONNECTION | QUERY] id`.
fn kill(modifier: Option<&KillType>, id: u64) -> Result<Command> {
    Ok(Command::Kill {
        kind: match modifier {
            None | Some(KillType::Connection) => KillKind::Connection,
            Some(KillType::Query) => KillKind::Query,
            Some(other) => return Err(SqlError::not_modelled(&format!("KILL {other}")).into()),
        },
        id,
    })
}

/// `SHOW ENGINE INNODB STATUS` (sqlparser's `ShowVariable`); any other `SHOW words`.
fn show_variable(variable: &[ast::Ident]) -> Result<Command> {
    let words: Vec<String> = variable
        .iter()
        .map(|i| i.value.to_ascii_uppercase())
        .collect();
    if words == ["ENGINE", "INNODB", "STATUS"] {
        Ok(Command::ShowEngineInnodbStatus)
    } else {
        Err(SqlError::not_modelled(&format!("SHOW {}", words.join(" "))).into())
    }
}

/// `SHOW [GLOBAL | SESSION] VARIABLES [LIKE '...']`.
fn show_variables(filter: Option<&ShowStatementFilter>, global: bool) -> Result<Command> {
    Ok(Command::ShowVariables {
        scope: if global {
            VarScope::Global
        } else {
            VarScope::Session
        },
        like: show_like(filter, "SHOW VARIABLES")?,
    })
}

/// `SHOW [GLOBAL | SESSION] STATUS [LIKE '...']`.
fn show_status(filter: Option<&ShowStatementFilter>, global: bool) -> Result<Command> {
    Ok(Command::ShowStatus {
        scope: if global {
            VarScope::Global
        } else {
            VarScope::Session
        },
        like: show_like(filter, "SHOW STATUS")?,
    })
}

/// The statement's leading keywords (`CREATE VIEW`, `DROP TEMPORARY TABLE`), for
/// 1235 messages.
fn statement_kind(stmt: &Statement) -> String {
    leading_keywords(&stmt.to_string(), 3).unwrap_or_else(|| "this statement".into())
}

/// Up to `n` leading upper-case words of sqlparser's rendering of a node.
fn leading_keywords(text: &str, n: usize) -> Option<String> {
    let words: Vec<&str> = text
        .split_whitespace()
        .take_while(|w| w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
        .take(n)
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

// ----- Names -----

/// A table name, `t` or `schema.t`, checked as MySQL checks it.
pub(super) fn table_name(name: &ObjectName) -> Result<TableName> {
    let parts: Option<Vec<&str>> = name
        .0
        .iter()
        .map(|p| p.as_ident().map(|i| i.value.as_str()))
        .collect();
    match parts.as_deref() {
        Some([t]) => Ok(TableName {
            schema: None,
            table: check_name(t, SqlError::wrong_table_name)?,
        }),
        Some([s, t]) => Ok(TableName {
            schema: Some(check_name(s, SqlError::wrong_db_name)?),
            table: check_name(t, SqlError::wrong_table_name)?,
        }),
        // `a.b.c`: MySQL's grammar has no third part, so the fault is the second dot.
        Some([_, _, _, ..]) => {
            Err(error_at("Expected: end of table name", name.0[1].span().end).into())
        }
        _ => Err(SqlError::wrong_table_name(&name.to_string()).into()),
    }
}

/// An index name: not empty, not `PRIMARY` (that one is the primary key's).
pub(super) fn index_name(name: &str) -> Result<String> {
    if name.eq_ignore_ascii_case("PRIMARY") {
        return Err(SqlError::wrong_index_name(name).into());
    }
    check_name(name, SqlError::wrong_index_name)
}

fn column_name(name: &str) -> Result<String> {
    check_name(name, SqlError::wrong_column_name)
}

/// MySQL's rules for every identifier: not empty, no trailing space, at most 64
/// characters. `wrong` makes the error for the kind of name.
fn check_name(name: &str, wrong: fn(&str) -> SqlError) -> Result<String> {
    if name.is_empty() || name.ends_with(' ') {
        return Err(wrong(name).into());
    }
    if name.chars().count() > IDENT_CHARS_MAX {
        return Err(SqlError::too_long_ident(name).into());
    }
    Ok(name.to_string())
}

/// A name part's text, without quotes.
fn ident_text(part: &ast::ObjectNamePart) -> String {
    part.as_ident()
        .map_or_else(|| part.to_string(), |i| i.value.clone())
}

/// The one plain table an UPDATE or DELETE names.
fn single_table(from: &TableWithJoins, what: &str) -> Result<TableName> {
    match &from.relation {
        TableFactor::Table { name, .. } if from.joins.is_empty() => table_name(name),
        _ => Err(SqlError::not_modelled(&format!("{what} with several tables")).into()),
    }
}

// ----- SET -----

fn set_statement(set: &Set) -> Result<Command> {
    match set {
        Set::SingleAssignment {
            scope,
            hivevar: false,
            variable,
            values,
        } => match values.as_slice() {
            [value] => set_variable(scope.as_ref(), variable, value),
            _ => Err(SqlError::not_modelled("SET to a list of values").into()),
        },
        Set::MultipleAssignments { .. } => {
            Err(SqlError::not_modelled("SET of several variables in one statement").into())
        }
        Set::SetNames { .. } | Set::SetNamesDefault {} => {
            Err(SqlError::not_modelled("SET NAMES").into())
        }
        Set::SetTransaction { .. } => Err(SqlError::not_modelled("SET TRANSACTION").into()),
        other => Err(SqlError::not_modelled(
            &leading_keywords(&other.to_string(), 2).unwrap_or_else(|| "SET".into()),
        )
        .into()),
    }
}

/// `SET [GLOBAL | SESSION] name = value`, `SET @@global.name = value`.
fn set_variable(
    scope: Option<&ContextModifier>,
    variable: &ObjectName,
    value: &Expr,
) -> Result<Command> {
    let mut scope = match scope {
        Some(ContextModifier::Global) => VarScope::Global,
        _ => VarScope::Session,
    };
    let parts: Vec<&str> = variable
        .0
        .iter()
        .filter_map(|p| p.as_ident())
        .map(|i| i.value.as_str())
        .collect();
    let name = match parts.as_slice() {
        [s, n] if s.eq_ignore_ascii_case("@@global") => {
            scope = VarScope::Global;
            *n
        }
        [s, n] if s.eq_ignore_ascii_case("@@session") || s.eq_ignore_ascii_case("@@local") => {
            scope = VarScope::Session;
            *n
        }
        [n] if n.starts_with("@@") => &n[2..],
        [n] if n.starts_with('@') => {
            return Err(SqlError::not_modelled("SET @user_variable").into())
        }
        [n] => *n,
        _ => return Err(error_at("Expected: a system variable", variable.span().start).into()),
    };
    if name.is_empty() {
        return Err(error_at("Expected: a system variable", variable.span().start).into());
    }
    let name = name.to_ascii_lowercase();
    let value = set_value(&name, value)?;
    Ok(Command::SetVariable { scope, name, value })
}

/// Variables whose values are byte sizes, so `128M` means 134217728.
///
/// Simplification: MySQL takes K/M/G suffixes only in option files and on the
/// command line, not in SET; a console is friendlier with them.
fn is_size_variable(name: &str) -> bool {
    name.ends_with("_size") || name.ends_with("_capacity") || name == "max_allowed_packet"
}

fn set_value(name: &str, e: &Expr) -> Result<SetValue> {
    if let Some(v) = const_int(e) {
        return Ok(SetValue::Int(v));
    }
    let size = |text: &str| {
        ByteSize::parse(text)
            .map(|b| SetValue::Int(i128::from(b.0)))
            .map_err(|_| SqlError::wrong_type_for_var(name).into())
    };
    match e {
        Expr::Value(v) => match &v.value {
            // A decimal (`0.5`) arrives as text; an integer too large for any
            // variable is the wrong type.
            Value::Number(text, _) if text.contains(['.', 'e', 'E']) => {
                Ok(SetValue::Str(text.clone()))
            }
            Value::Number(..) => Err(SqlError::wrong_type_for_var(name).into()),
            Value::SingleQuotedString(s) | Value::DoubleQuotedString(s) => {
                if is_size_variable(name) && s.starts_with(|c: char| c.is_ascii_digit()) {
                    size(s)
                } else {
                    Ok(SetValue::Str(s.clone()))
                }
            }
            Value::Boolean(b) => Ok(SetValue::Bool(*b)),
            _ => Err(SqlError::not_modelled(&format!("SET {name} = {e}")).into()),
        },
        Expr::Identifier(i) if i.quote_style.is_none() => {
            match i.value.to_ascii_uppercase().as_str() {
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
                _ => Ok(SetValue::Str(i.value.clone())),
            }
        }
        _ => Err(SqlError::not_modelled(&format!("SET {name} = {e}")).into()),
    }
}

/// The value of an integer constant expression: `5`, `-1`, `128*1024*1024`.
pub(super) fn const_int(e: &Expr) -> Option<i128> {
    match e {
        Expr::Value(v) => match &v.value {
            Value::Number(text, _) => text.parse().ok(),
            _ => None,
        },
        Expr::Nested(inner) => const_int(inner),
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } => const_int(expr)?.checked_neg(),
        Expr::UnaryOp {
            op: UnaryOperator::Plus,
            expr,
        } => const_int(expr),
        Expr::BinaryOp { left, op, right } => {
            let (l, r) = (const_int(left)?, const_int(right)?);
            match op {
                BinaryOperator::Plus => l.checked_add(r),
                BinaryOperator::Minus => l.checked_sub(r),
                BinaryOperator::Multiply => l.checked_mul(r),
                _ => None,
            }
        }
        _ => None,
    }
}

// ----- SELECT -----

/// A query. `lock_in_share_mode` is set when the front door took that clause off.
pub(super) fn query(q: &Query, lock_in_share_mode: bool) -> Result<Command> {
    if q.with.is_some() {
        return Err(SqlError::not_modelled("WITH").into());
    }
    let select = match q.body.as_ref() {
        SetExpr::Select(s) => s,
        SetExpr::SetOperation { op, .. } => {
            return Err(SqlError::not_modelled(&op.to_string()).into())
        }
        _ => return Err(SqlError::not_modelled("this kind of query").into()),
    };
    if select.into.is_some() {
        return Err(SqlError::not_modelled("SELECT ... INTO").into());
    }
    let lock = row_lock(q, lock_in_share_mode)?;
    let limit = q.limit_clause.as_ref().map(limit_rows).transpose()?;
    let from = match select.from.as_slice() {
        [] => return no_table_select(&select.projection),
        [from] if from.joins.is_empty() => from,
        _ => return Err(SqlError::not_modelled("SELECT ... JOIN").into()),
    };
    let TableFactor::Table {
        name,
        index_directives,
        ..
    } = &from.relation
    else {
        return Err(SqlError::not_modelled("SELECT from a derived table").into());
    };
    let table = table_name(name)?;
    let index_hints = index_directives
        .iter()
        .map(index_hint)
        .collect::<Result<Vec<_>>>()?;
    if let Some(schema) = table.schema.as_deref().filter(|s| {
        s.eq_ignore_ascii_case("performance_schema") || s.eq_ignore_ascii_case("information_schema")
    }) {
        let schema = schema.to_ascii_lowercase();
        let name = table.table.to_ascii_lowercase();
        let full = format!("{schema}.{name}");
        if !SYSTEM_TABLES.contains(&(schema.as_str(), name.as_str())) {
            return Err(SqlError::not_modelled(&format!("SELECT FROM {full}")).into());
        }
        let grouped = !matches!(&select.group_by, GroupByExpr::Expressions(e, m) if e.is_empty() && m.is_empty());
        if lock != RowLock::NonLocking
            || limit.is_some()
            || q.order_by.is_some()
            || grouped
            || select.having.is_some()
        {
            return Err(SqlError::not_modelled(&format!(
                "SELECT FROM {full} with GROUP BY, ORDER BY, LIMIT or a locking clause"
            ))
            .into());
        }
        return Ok(Command::SelectSystemTable {
            schema,
            table: name,
            columns: select.projection.iter().map(ToString::to_string).collect(),
            where_text: select.selection.as_ref().map(ToString::to_string),
        });
    }
    let mut sleep_ms_per_row = 0;
    for args in select.projection.iter().filter_map(sleep_call) {
        sleep_ms_per_row += sleep_ms(args)?;
    }
    Ok(Command::Select {
        table,
        access: classify(select.selection.as_ref()),
        lock,
        limit,
        sleep_ms_per_row,
        index_hints,
    })
}

/// A MySQL index hint (`FORCE INDEX (idx)`).
fn index_hint(d: &ast::TableIndexDirective) -> Result<IndexHint> {
    let ast::TableIndexDirective::MySql(h) = d else {
        return Err(SqlError::not_modelled(&d.to_string()).into());
    };
    if h.for_clause.is_some() {
        return Err(SqlError::not_modelled("an index hint with FOR JOIN/ORDER BY/GROUP BY").into());
    }
    let kind = match h.hint_type {
        ast::TableIndexHintType::Use => IndexHintKind::Use,
        ast::TableIndexHintType::Force => IndexHintKind::Force,
        ast::TableIndexHintType::Ignore => IndexHintKind::Ignore,
    };
    Ok(IndexHint {
        kind,
        names: h.index_names.iter().map(|i| i.value.clone()).collect(),
    })
}

/// `SLEEP(n)`'s argument in milliseconds: a number (`5`, `0.25`).
fn sleep_ms(args: &[FunctionArg]) -> Result<u64> {
    let ms = match args {
        [FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Value(v)))] => match &v.value {
            Value::Number(text, _) => decimal_ms(text),
            _ => None,
        },
        _ => None,
    };
    ms.ok_or_else(|| SqlError::not_modelled("SLEEP() of an expression").into())
}

/// The locking clause: none, `FOR SHARE` / `LOCK IN SHARE MODE`, or `FOR UPDATE`.
fn row_lock(q: &Query, lock_in_share_mode: bool) -> Result<RowLock> {
    match q.locks.as_slice() {
        [] if lock_in_share_mode => Ok(RowLock::Shared),
        [] => Ok(RowLock::NonLocking),
        [ast::LockClause {
            lock_type,
            of: None,
            nonblock: None,
        }] => Ok(match lock_type {
            LockType::Share => RowLock::Shared,
            LockType::Update => RowLock::Exclusive,
        }),
        [ast::LockClause {
            nonblock: Some(nonblock),
            ..
        }] => Err(SqlError::not_modelled(&format!("SELECT ... {nonblock}")).into()),
        [_] => Err(SqlError::not_modelled("SELECT ... FOR UPDATE OF").into()),
        _ => Err(SqlError::not_modelled("several locking clauses").into()),
    }
}

/// `SELECT SLEEP(n)` or `SELECT 1`, `SELECT @@autocommit`.
fn no_table_select(projection: &[SelectItem]) -> Result<Command> {
    if let [item] = projection {
        if let Some(args) = sleep_call(item) {
            let duration_ms = sleep_ms(args)?;
            return Ok(Command::SelectSleep { duration_ms });
        }
    }
    Ok(Command::SelectExpressions {
        items: projection.iter().map(ToString::to_string).collect(),
    })
}

/// The arguments of a select item that is a `SLEEP(...)` call.
fn sleep_call(item: &SelectItem) -> Option<&[FunctionArg]> {
    let (SelectItem::UnnamedExpr(Expr::Function(f))
    | SelectItem::ExprWithAlias {
        expr: Expr::Function(f),
        ..
    }) = item
    else {
        return None;
    };
    if !f.name.to_string().eq_ignore_ascii_case("SLEEP") {
        return None;
    }
    match &f.args {
        FunctionArguments::List(list) => Some(&list.args),
        _ => Some(&[]),
    }
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

/// The rows a LIMIT lets a statement read: `LIMIT n` is n, `LIMIT off, n` and
/// `LIMIT n OFFSET off` are off + n.
fn limit_rows(limit: &LimitClause) -> Result<u64> {
    let (count, offset) = match limit {
        LimitClause::LimitOffset {
            limit: Some(count),
            offset,
            limit_by,
        } if limit_by.is_empty() => (count, offset.as_ref().map(|o| &o.value)),
        LimitClause::OffsetCommaLimit { offset, limit } => (limit, Some(offset)),
        _ => return Err(SqlError::not_modelled("this LIMIT").into()),
    };
    let offset = offset.map(limit_value).transpose()?.unwrap_or(0);
    Ok(limit_value(count)?.saturating_add(offset))
}

fn limit_value(e: &Expr) -> Result<u64> {
    const_int(e)
        .and_then(|v| u64::try_from(v).ok())
        .ok_or_else(|| SqlError::not_modelled("LIMIT of an expression").into())
}

/// Which rows a WHERE clause reaches, from its shape: the first `col = n` among the
/// AND-ed conditions makes a point; bounds on one column (`BETWEEN`, `<`, `>=`, ...)
/// make a range; anything else is a full scan.
fn classify(selection: Option<&Expr>) -> RowAccess {
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
        Expr::BinaryOp {
            left,
            op: BinaryOperator::And,
            right,
        } => {
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
        Expr::Identifier(i) => Some(i.value.to_ascii_lowercase()),
        Expr::CompoundIdentifier(parts) => parts.last().map(|i| i.value.to_ascii_lowercase()),
        Expr::Nested(inner) => column_ref(inner),
        _ => None,
    }
}

fn int_value(e: &Expr) -> Option<i64> {
    const_int(e).and_then(|v| i64::try_from(v).ok())
}

/// `col <op> n`, with `n <op> col` turned around.
fn comparison(e: &Expr) -> Option<(String, BinaryOperator, i64)> {
    let Expr::BinaryOp { left, op, right } = e else {
        return None;
    };
    if let (Some(c), Some(v)) = (column_ref(left), int_value(right)) {
        return Some((c, op.clone(), v));
    }
    let flipped = match op {
        BinaryOperator::Lt => BinaryOperator::Gt,
        BinaryOperator::LtEq => BinaryOperator::GtEq,
        BinaryOperator::Gt => BinaryOperator::Lt,
        BinaryOperator::GtEq => BinaryOperator::LtEq,
        other => other.clone(),
    };
    Some((column_ref(right)?, flipped, int_value(left)?))
}

fn equality(e: &Expr) -> Option<(String, i64)> {
    match comparison(e)? {
        (c, BinaryOperator::Eq, v) => Some((c, v)),
        _ => None,
    }
}

/// Inclusive bounds a condition puts on one column.
fn bounds(e: &Expr) -> Option<(String, Option<i64>, Option<i64>)> {
    if let Expr::Between {
        expr,
        negated: false,
        low,
        high,
    } = e
    {
        return Some((
            column_ref(expr)?,
            Some(int_value(low)?),
            Some(int_value(high)?),
        ));
    }
    let (c, op, v) = comparison(e)?;
    match op {
        BinaryOperator::Lt => Some((c, None, Some(v.checked_sub(1)?))),
        BinaryOperator::LtEq => Some((c, None, Some(v))),
        BinaryOperator::Gt => Some((c, Some(v.checked_add(1)?), None)),
        BinaryOperator::GtEq => Some((c, Some(v), None)),
        _ => None,
    }
}

fn show_like(filter: Option<&ShowStatementFilter>, what: &str) -> Result<Option<String>> {
    match filter {
        None => Ok(None),
        Some(ShowStatementFilter::Like(pattern)) => Ok(Some(pattern.clone())),
        Some(_) => Err(SqlError::not_modelled(&format!("{what} WHERE")).into()),
    }
}

// ----- INSERT -----

fn insert(insert: &ast::Insert) -> Result<Command> {
    if insert.replace_into {
        return Err(SqlError::not_modelled("REPLACE").into());
    }
    let TableObject::TableName(name) = &insert.table else {
        return Err(SqlError::not_modelled("INSERT INTO a table function").into());
    };
    let rows = match &insert.source {
        Some(source) => match source.body.as_ref() {
            SetExpr::Values(values) => values.rows.len() as u64,
            _ => return Err(SqlError::not_modelled("INSERT ... SELECT").into()),
        },
        // INSERT INTO t SET a = 1, ...
        None => 1,
    };
    Ok(Command::Insert {
        table: table_name(name)?,
        rows,
    })
}

// ----- CREATE TABLE, CREATE INDEX, ALTER TABLE actions -----

/// `CREATE TABLE`, with the partitioning the front door read, if any.
pub(super) fn create_table(
    create: &ast::CreateTable,
    partition_by: Option<RangePartitioning>,
) -> Result<Command> {
    if create.temporary {
        return Err(SqlError::not_modelled("CREATE TEMPORARY TABLE").into());
    }
    if create.query.is_some() {
        return Err(SqlError::not_modelled("CREATE TABLE ... SELECT").into());
    }
    let table = table_name(&create.name)?;
    if let Some(like) = &create.like {
        if partition_by.is_some() {
            return Err(SqlError::not_modelled("CREATE TABLE ... LIKE ... PARTITION BY").into());
        }
        let (CreateTableLikeKind::Plain(like) | CreateTableLikeKind::Parenthesized(like)) = like;
        return Ok(Command::CreateTableLike {
            table,
            like: table_name(&like.name)?,
        });
    }
    let mut columns: Vec<ColumnDef> = Vec::new();
    let mut primary_key: Option<Vec<KeyPart>> = None;
    let mut indexes = Vec::new();
    let mut set_primary_key = |parts: Vec<KeyPart>| match primary_key.replace(parts) {
        Some(_) => Err(SqlError::multiple_primary_key()),
        None => Ok(()),
    };
    for c in &create.columns {
        let (column, inline_primary, inline_unique) = column_def(c)?;
        if columns
            .iter()
            .any(|d| d.name.eq_ignore_ascii_case(&column.name))
        {
            return Err(SqlError::duplicate_column(&column.name).into());
        }
        let part = KeyPart {
            column: column.name.clone(),
            prefix_len: None,
        };
        if inline_primary {
            set_primary_key(vec![part.clone()])?;
        }
        if inline_unique {
            indexes.push(IndexDef {
                name: None,
                unique: true,
                columns: vec![part],
            });
        }
        columns.push(column);
    }
    if columns.is_empty() {
        return Err(SqlError::table_must_have_columns().into());
    }
    for constraint in &create.constraints {
        match constraint {
            TableConstraint::PrimaryKey(pk) => set_primary_key(key_parts(&pk.columns)?)?,
            other => indexes.push(index_constraint(other, "")?),
        }
    }
    for (i, index) in indexes.iter().enumerate() {
        if let Some(name) = &index.name {
            let earlier = indexes[..i].iter().filter_map(|x| x.name.as_ref());
            if earlier.into_iter().any(|n| n.eq_ignore_ascii_case(name)) {
                return Err(SqlError::duplicate_key(name).into());
            }
        }
    }
    let mut out = CreateTable {
        table,
        if_not_exists: create.if_not_exists,
        columns,
        primary_key: primary_key.unwrap_or_default(),
        indexes,
        engine: None,
        row_format: None,
        key_block_size: None,
        partition_by,
    };
    table_options(&create.table_options, &mut out)?;
    Ok(Command::CreateTable(Box::new(out)))
}

/// ENGINE, ROW_FORMAT and KEY_BLOCK_SIZE; other options (charset, comment,
/// AUTO_INCREMENT) do not change what the simulation does.
fn table_options(options: &CreateTableOptions, out: &mut CreateTable) -> Result<()> {
    let options: &[SqlOption] = match options {
        CreateTableOptions::None => &[],
        CreateTableOptions::With(o)
        | CreateTableOptions::Options(o)
        | CreateTableOptions::Plain(o)
        | CreateTableOptions::TableProperties(o) => o,
    };
    for option in options {
        match option {
            SqlOption::NamedParenthesizedList(list)
                if list.key.value.eq_ignore_ascii_case("ENGINE") =>
            {
                out.engine = list.name.as_ref().map(|n| n.value.clone());
            }
            SqlOption::KeyValue { key, value } => {
                let text = match value {
                    Expr::Identifier(i) => i.value.clone(),
                    other => other.to_string(),
                };
                match key.to_string().to_ascii_uppercase().as_str() {
                    "ENGINE" => out.engine = Some(text),
                    "ROW_FORMAT" => {
                        out.row_format = Some(RowFormat::from_word(&text, value.span().start)?)
                    }
                    "KEY_BLOCK_SIZE" => {
                        let size = const_int(value).and_then(|v| u32::try_from(v).ok());
                        let Some(size) = size else {
                            return Err(
                                error_at("Expected: a key block size", value.span().start).into()
                            );
                        };
                        out.key_block_size = Some(size);
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// A column and whether it said `PRIMARY KEY` or `UNIQUE` inline.
fn column_def(c: &ast::ColumnDef) -> Result<(ColumnDef, bool, bool)> {
    let mut nullable = true;
    let (mut primary, mut unique) = (false, false);
    for option in &c.options {
        match &option.option {
            ColumnOption::NotNull => nullable = false,
            ColumnOption::Null => nullable = true,
            ColumnOption::PrimaryKey(_) => {
                primary = true;
                nullable = false;
            }
            ColumnOption::Unique(_) => unique = true,
            _ => {}
        }
    }
    let column = ColumnDef {
        name: column_name(&c.name.value)?,
        data_type: c.data_type.to_string(),
        nullable,
    };
    Ok((column, primary, unique))
}

/// A secondary index from a table constraint; `context` prefixes 1235 messages.
fn index_constraint(constraint: &TableConstraint, context: &str) -> Result<IndexDef> {
    let (name, unique, columns) = match constraint {
        TableConstraint::Index(ix) => (ix.name.as_ref(), false, &ix.columns),
        TableConstraint::Unique(ux) => (
            ux.index_name.as_ref().or(ux.name.as_ref()),
            true,
            &ux.columns,
        ),
        TableConstraint::PrimaryKey(_) => {
            return Err(SqlError::not_modelled(&format!("{context}PRIMARY KEY")).into())
        }
        TableConstraint::FulltextOrSpatial(f) => {
            let kind = if f.fulltext { "FULLTEXT" } else { "SPATIAL" };
            return Err(SqlError::not_modelled(&format!("{context}{kind} INDEX")).into());
        }
        TableConstraint::ForeignKey(_) => {
            return Err(SqlError::not_modelled(&format!("{context}FOREIGN KEY")).into())
        }
        TableConstraint::Check(_) => {
            return Err(SqlError::not_modelled(&format!("{context}CHECK")).into())
        }
        _ => return Err(SqlError::not_modelled(&format!("{context}this constraint")).into()),
    };
    Ok(IndexDef {
        name: name.map(|n| index_name(&n.value)).transpose()?,
        unique,
        columns: key_parts(columns)?,
    })
}

/// Index columns: `c` or a prefix `c(10)`. Functional key parts are not modelled.
fn key_parts(columns: &[IndexColumn]) -> Result<Vec<KeyPart>> {
    columns
        .iter()
        .map(|ic| match &ic.column.expr {
            Expr::Identifier(i) => Ok(KeyPart {
                column: column_name(&i.value)?,
                prefix_len: None,
            }),
            // sqlparser reads a prefix `c(10)` as a call.
            Expr::Function(f) => {
                let prefix = match &f.args {
                    FunctionArguments::List(list) => match list.args.as_slice() {
                        [FunctionArg::Unnamed(FunctionArgExpr::Expr(e))] => {
                            const_int(e).and_then(|v| u32::try_from(v).ok())
                        }
                        _ => None,
                    },
                    _ => None,
                };
                match (prefix, f.name.0.as_slice()) {
                    (Some(n), [part]) => Ok(KeyPart {
                        column: column_name(&ident_text(part))?,
                        prefix_len: Some(n),
                    }),
                    _ => Err(SqlError::not_modelled("functional key parts").into()),
                }
            }
            _ => Err(SqlError::not_modelled("functional key parts").into()),
        })
        .collect()
}

/// `CREATE [UNIQUE] INDEX i ON t (cols) [ALGORITHM=..] [LOCK=..]`.
fn create_index(create: &ast::CreateIndex) -> Result<Command> {
    let table = table_name(&create.table_name)?;
    let name = match create.name.as_ref().map(|n| n.0.as_slice()) {
        Some([part]) => index_name(&ident_text(part))?,
        Some(_) => {
            return Err(SqlError::wrong_index_name(
                &create
                    .name
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default(),
            )
            .into())
        }
        None => {
            return Err(error_at("Expected: an index name", create.table_name.span().start).into())
        }
    };
    let mut algorithm = Algorithm::Default;
    let mut lock = AlterLock::Default;
    for option in &create.alter_options {
        match option {
            AlterTableOperation::Algorithm { algorithm: a, .. } => algorithm = self::algorithm(a),
            AlterTableOperation::Lock { lock: l, .. } => lock = alter_lock(l),
            other => {
                return Err(SqlError::not_modelled(&format!(
                    "CREATE INDEX ... {}",
                    leading_keywords(&other.to_string(), 2).unwrap_or_default()
                ))
                .into())
            }
        }
    }
    Ok(Command::CreateIndex {
        table,
        index: IndexDef {
            name: Some(name),
            unique: create.unique,
            columns: key_parts(&create.columns)?,
        },
        algorithm,
        lock,
    })
}

fn algorithm(a: &AlterTableAlgorithm) -> Algorithm {
    match a {
        AlterTableAlgorithm::Default => Algorithm::Default,
        AlterTableAlgorithm::Instant => Algorithm::Instant,
        AlterTableAlgorithm::Inplace => Algorithm::Inplace,
        AlterTableAlgorithm::Copy => Algorithm::Copy,
    }
}

fn alter_lock(l: &AlterTableLock) -> AlterLock {
    match l {
        AlterTableLock::Default => AlterLock::Default,
        AlterTableLock::None => AlterLock::None,
        AlterTableLock::Shared => AlterLock::Shared,
        AlterTableLock::Exclusive => AlterLock::Exclusive,
    }
}

/// An ALTER TABLE action sqlparser read: ADD INDEX / KEY, ADD COLUMN, DROP COLUMN,
/// DROP INDEX; the rest are named in a 1235.
pub(super) fn alter_operation(op: &AlterTableOperation) -> Result<AlterAction> {
    const CONTEXT: &str = "ALTER TABLE ... ADD ";
    match op {
        AlterTableOperation::AddConstraint { constraint, .. } => Ok(AlterAction::AddIndex(
            index_constraint(constraint, CONTEXT)?,
        )),
        AlterTableOperation::AddColumn {
            column_def: c,
            column_position,
            ..
        } => {
            let (column, primary, unique) = column_def(c)?;
            if primary || unique {
                return Err(SqlError::not_modelled(
                    "ALTER TABLE ... ADD COLUMN ... PRIMARY KEY or UNIQUE",
                )
                .into());
            }
            let position = match column_position {
                None => ColumnPosition::Last,
                Some(MySQLColumnPosition::First) => ColumnPosition::First,
                Some(MySQLColumnPosition::After(c)) => {
                    ColumnPosition::After(column_name(&c.value)?)
                }
            };
            Ok(AlterAction::AddColumn { column, position })
        }
        AlterTableOperation::DropColumn { column_names, .. } => match column_names.as_slice() {
            [name] => Ok(AlterAction::DropColumn {
                name: column_name(&name.value)?,
            }),
            _ => Err(SqlError::not_modelled("ALTER TABLE ... DROP COLUMN a, b").into()),
        },
        AlterTableOperation::DropIndex { name } => Ok(AlterAction::DropIndex {
            name: index_name(&name.value)?,
        }),
        other => Err(SqlError::not_modelled(&format!(
            "ALTER TABLE ... {}",
            leading_keywords(&other.to_string(), 2).unwrap_or_else(|| "this action".into())
        ))
        .into()),
    }
}
