//! The front door: statements sqlparser 0.64 rejects or reads too narrowly,
//! recognised by hand before the rest go to sqlparser.
//!
//! | statement                                        | why it is ours                      |
//! |--------------------------------------------------|-------------------------------------|
//! | `START TRANSACTION WITH CONSISTENT SNAPSHOT`     | rejected                            |
//! | `SELECT ... LOCK IN SHARE MODE`                  | rejected (`FOR SHARE` is fine)      |
//! | `CREATE TABLE ... PARTITION BY RANGE (...) (...)`| rejected                            |
//! | `OPTIMIZE TABLE t`                               | rejected                            |
//! | `ANALYZE [LOCAL] TABLE a, b`                     | one table, no `LOCAL`               |
//! | `ALTER TABLE t ENGINE=, FORCE, DROP/TRUNCATE PARTITION, DISCARD/IMPORT TABLESPACE, ROW_FORMAT=, KEY_BLOCK_SIZE=, DROP KEY` | rejected |
//! | `DROP INDEX i ON t ALGORITHM=.. LOCK=..`         | no options                          |
//! | `LOCK TABLES db.t READ`                          | no schema-qualified names           |
//!
//! Each recogniser is a few lines of recursive descent over the statement's tokens,
//! using sqlparser's `Parser` as the cursor: its errors carry positions like
//! sqlparser's own, and where a statement mixes our forms with ones sqlparser reads
//! well, the two share one cursor. `ALTER TABLE` is the main case: we read the table
//! name and the comma-separated list, take the actions above ourselves, and hand
//! each other action (`ADD INDEX`, `ADD COLUMN ... AFTER`, `DROP COLUMN`) to
//! `Parser::parse_alter_table_operation`. `CREATE TABLE ... PARTITION BY` and
//! `... LOCK IN SHARE MODE` are split instead: sqlparser parses the tokens before
//! the clause, we parse the clause.
//!
//! Matching is on words, case-insensitively, never on backquoted identifiers, so
//! `` ALTER TABLE `force` FORCE `` means what it says.

use super::command::{
    Algorithm, AlterAction, AlterLock, Command, PartitionBound, PartitionDef, RangePartitioning,
    RowFormat, TableLockMode, TableName,
};
use super::error::SqlError;
use super::lower;
use super::source::{error_at, Stmt, DIALECT};
use super::{Error, Result};
use sqlparser::ast::Statement;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, TokenWithSpan};

/// A parser over `tokens`, sharing their positions in the whole input.
pub(super) fn parser(tokens: &[TokenWithSpan]) -> Parser<'static> {
    Parser::new(&DIALECT).with_tokens_with_locations(tokens.to_vec())
}

/// Our reading of `stmt` if it is one of the front door's forms, `None` for sqlparser.
pub(super) fn recognise(stmt: &Stmt) -> Option<Result<Command>> {
    let lead: Vec<String> = stmt
        .significant()
        .take(5)
        .map(|(_, t)| word_upper(&t.token))
        .collect();
    let starts =
        |words: &[&str]| lead.len() >= words.len() && words.iter().zip(&lead).all(|(w, l)| w == l);
    if starts(&["START", "TRANSACTION", "WITH", "CONSISTENT", "SNAPSHOT"]) {
        Some(start_transaction_with_consistent_snapshot(stmt))
    } else if starts(&["OPTIMIZE"]) || starts(&["ANALYZE"]) {
        Some(table_maintenance(stmt))
    } else if starts(&["ALTER", "TABLE"]) {
        Some(alter_table(stmt))
    } else if starts(&["DROP", "INDEX"]) {
        Some(drop_index(stmt))
    } else if starts(&["LOCK", "TABLES"]) || starts(&["LOCK", "TABLE"]) {
        Some(lock_tables(stmt))
    } else if starts(&["CREATE", "TABLE"]) || starts(&["CREATE", "TEMPORARY", "TABLE"]) {
        partition_by_at(stmt).map(|at| create_table_partitioned(stmt, at))
    } else if starts(&["SELECT"]) {
        lock_in_share_mode_at(stmt).map(|at| select_lock_in_share_mode(stmt, at))
    } else {
        None
    }
}

/// `START TRANSACTION WITH CONSISTENT SNAPSHOT`.
fn start_transaction_with_consistent_snapshot(stmt: &Stmt) -> Result<Command> {
    let mut p = parser(&stmt.tokens);
    for w in ["START", "TRANSACTION", "WITH", "CONSISTENT", "SNAPSHOT"] {
        expect_word(&mut p, w)?;
    }
    if p.peek_token_ref().token == Token::Comma {
        return Err(
            SqlError::not_modelled("START TRANSACTION with several characteristics").into(),
        );
    }
    expect_end(&p)?;
    Ok(Command::Begin {
        consistent_snapshot: true,
    })
}

/// `{OPTIMIZE | ANALYZE} [NO_WRITE_TO_BINLOG | LOCAL] {TABLE | TABLES} t [, t ...]`.
fn table_maintenance(stmt: &Stmt) -> Result<Command> {
    let mut p = parser(&stmt.tokens);
    let optimize = word(&mut p, "OPTIMIZE");
    if !optimize {
        expect_word(&mut p, "ANALYZE")?;
    }
    let _ = word(&mut p, "NO_WRITE_TO_BINLOG") || word(&mut p, "LOCAL");
    if !word(&mut p, "TABLE") && !word(&mut p, "TABLES") {
        expect_word(&mut p, "TABLE")?;
    }
    let mut tables = vec![table_name(&mut p)?];
    while p.consume_token(&Token::Comma) {
        tables.push(table_name(&mut p)?);
    }
    expect_end(&p)?;
    Ok(if optimize {
        Command::OptimizeTable { tables }
    } else {
        Command::AnalyzeTable { tables }
    })
}

/// `ALTER TABLE t action [, action ...]`, where `ALGORITHM=` and `LOCK=` may come
/// anywhere in the list.
fn alter_table(stmt: &Stmt) -> Result<Command> {
    let mut p = parser(&stmt.tokens);
    expect_word(&mut p, "ALTER")?;
    expect_word(&mut p, "TABLE")?;
    let table = table_name(&mut p)?;
    let mut actions = Vec::new();
    let mut algorithm = Algorithm::Default;
    let mut lock = AlterLock::Default;
    // `ALTER TABLE t` alone is a no-op MySQL accepts.
    if !at_end(&p) {
        loop {
            if !alter_option(&mut p, &mut algorithm, &mut lock)? {
                actions.push(alter_action(&mut p)?);
            }
            if !p.consume_token(&Token::Comma) {
                break;
            }
        }
    }
    expect_end(&p)?;
    Ok(Command::AlterTable {
        table,
        actions,
        algorithm,
        lock,
    })
}

/// One ALTER TABLE action: ours if sqlparser would reject it, else sqlparser's.
fn alter_action(p: &mut Parser) -> Result<AlterAction> {
    if word(p, "ENGINE") {
        optional_eq(p);
        return Ok(AlterAction::Engine {
            name: p.parse_identifier()?.value,
        });
    }
    if word(p, "FORCE") {
        return Ok(AlterAction::Force);
    }
    if word(p, "ROW_FORMAT") {
        optional_eq(p);
        return Ok(AlterAction::RowFormat(row_format(p)?));
    }
    if word(p, "KEY_BLOCK_SIZE") {
        optional_eq(p);
        return Ok(AlterAction::KeyBlockSize(key_block_size(p)?));
    }
    if words(p, &["DROP", "PARTITION"]) {
        return Ok(AlterAction::DropPartition {
            names: partition_names(p)?,
        });
    }
    if words(p, &["TRUNCATE", "PARTITION"]) {
        if word(p, "ALL") {
            return Ok(AlterAction::TruncatePartition { names: Vec::new() });
        }
        return Ok(AlterAction::TruncatePartition {
            names: partition_names(p)?,
        });
    }
    if words(p, &["DISCARD", "TABLESPACE"]) {
        return Ok(AlterAction::DiscardTablespace);
    }
    if words(p, &["IMPORT", "TABLESPACE"]) {
        return Ok(AlterAction::ImportTablespace);
    }
    if words(p, &["DROP", "INDEX"]) || words(p, &["DROP", "KEY"]) {
        return Ok(AlterAction::DropIndex {
            name: lower::index_name(&p.parse_identifier()?.value)?,
        });
    }
    let op = p.parse_alter_table_operation()?;
    lower::alter_operation(&op)
}

/// Words that start an ALTER TABLE action, so a comma followed by one of them ends
/// a `DROP PARTITION p, q` list.
const ALTER_ACTION_WORDS: &[&str] = &[
    "ADD",
    "ALGORITHM",
    "ALTER",
    "CHANGE",
    "DISCARD",
    "DROP",
    "ENGINE",
    "FORCE",
    "IMPORT",
    "KEY_BLOCK_SIZE",
    "LOCK",
    "MODIFY",
    "RENAME",
    "ROW_FORMAT",
    "TRUNCATE",
];

/// `p [, q ...]` after `DROP PARTITION` or `TRUNCATE PARTITION`.
fn partition_names(p: &mut Parser) -> Result<Vec<String>> {
    let mut names = vec![p.parse_identifier()?.value];
    while p.peek_token_ref().token == Token::Comma
        && matches!(p.peek_nth_token_ref(1).token, Token::Word(_))
        && !ALTER_ACTION_WORDS.contains(&word_upper(&p.peek_nth_token_ref(1).token).as_str())
    {
        p.next_token();
        names.push(p.parse_identifier()?.value);
    }
    Ok(names)
}

/// `ALGORITHM [=] x` or `LOCK [=] x`, if next; returns whether it read one.
fn alter_option(p: &mut Parser, algorithm: &mut Algorithm, lock: &mut AlterLock) -> Result<bool> {
    if word(p, "ALGORITHM") {
        optional_eq(p);
        *algorithm = match word_upper(&p.peek_token_ref().token).as_str() {
            "DEFAULT" => Algorithm::Default,
            "INSTANT" => Algorithm::Instant,
            "INPLACE" => Algorithm::Inplace,
            "COPY" => Algorithm::Copy,
            // The grammar takes any word here; the server names the one it does not know.
            "" => return expected(p, "DEFAULT, INSTANT, INPLACE or COPY"),
            _ => return Err(SqlError::unknown_alter_algorithm(&written(p)).into()),
        };
        p.next_token();
        return Ok(true);
    }
    if word(p, "LOCK") {
        optional_eq(p);
        *lock = match word_upper(&p.peek_token_ref().token).as_str() {
            "DEFAULT" => AlterLock::Default,
            "NONE" => AlterLock::None,
            "SHARED" => AlterLock::Shared,
            "EXCLUSIVE" => AlterLock::Exclusive,
            "" => return expected(p, "DEFAULT, NONE, SHARED or EXCLUSIVE"),
            _ => return Err(SqlError::unknown_alter_lock(&written(p)).into()),
        };
        p.next_token();
        return Ok(true);
    }
    Ok(false)
}

/// `DEFAULT | DYNAMIC | COMPACT | REDUNDANT | COMPRESSED` after `ROW_FORMAT [=]`.
fn row_format(p: &mut Parser) -> Result<RowFormat> {
    let t = p.next_token();
    RowFormat::from_word(&word_upper(&t.token), t.span.start)
}

/// The number after `KEY_BLOCK_SIZE [=]`.
fn key_block_size(p: &mut Parser) -> Result<u32> {
    let at = p.peek_token_ref().span.start;
    let n = p.parse_literal_uint()?;
    u32::try_from(n).map_err(|_| error_at("Expected: a key block size", at).into())
}

/// `DROP INDEX i ON t [ALGORITHM [=] x] [LOCK [=] x]`.
fn drop_index(stmt: &Stmt) -> Result<Command> {
    let mut p = parser(&stmt.tokens);
    expect_word(&mut p, "DROP")?;
    expect_word(&mut p, "INDEX")?;
    let name = lower::index_name(&p.parse_identifier()?.value)?;
    expect_word(&mut p, "ON")?;
    let table = table_name(&mut p)?;
    let mut algorithm = Algorithm::Default;
    let mut lock = AlterLock::Default;
    while !at_end(&p) {
        if !alter_option(&mut p, &mut algorithm, &mut lock)? {
            return expected(&p, "ALGORITHM, LOCK or end of statement");
        }
    }
    Ok(Command::DropIndex {
        table,
        name,
        algorithm,
        lock,
    })
}

/// `LOCK {TABLE | TABLES} t [[AS] alias] {READ [LOCAL] | [LOW_PRIORITY] WRITE} [, ...]`.
/// Each alias (a table's name when it has none) may appear once, as the server's
/// parser checks (`st_select_lex::add_table_to_list()`: 1066); one table under two
/// aliases is locked once, in the stronger mode (its SHARED_NO_READ_WRITE covers the
/// read).
fn lock_tables(stmt: &Stmt) -> Result<Command> {
    let mut p = parser(&stmt.tokens);
    expect_word(&mut p, "LOCK")?;
    if !word(&mut p, "TABLES") {
        expect_word(&mut p, "TABLE")?;
    }
    let mut tables: Vec<(TableName, TableLockMode)> = Vec::new();
    let mut aliases: Vec<String> = Vec::new();
    loop {
        let table = table_name(&mut p)?;
        let next = word_upper(&p.peek_token_ref().token);
        let mut alias = table.table.clone();
        if word(&mut p, "AS")
            || (matches!(p.peek_token_ref().token, Token::Word(_))
                && !["READ", "WRITE", "LOW_PRIORITY"].contains(&next.as_str()))
        {
            alias = p.parse_identifier()?.value;
        }
        if aliases.iter().any(|a| a.eq_ignore_ascii_case(&alias)) {
            return Err(SqlError::nonuniq_table(&alias).into());
        }
        aliases.push(alias);
        let mode = if word(&mut p, "READ") {
            word(&mut p, "LOCAL");
            TableLockMode::Read
        } else {
            word(&mut p, "LOW_PRIORITY");
            expect_word(&mut p, "WRITE")?;
            TableLockMode::Write
        };
        match tables.iter_mut().find(|(t, _)| same_table(t, &table)) {
            Some(seen) if mode == TableLockMode::Write => seen.1 = mode,
            Some(_) => {}
            None => tables.push((table, mode)),
        }
        if !p.consume_token(&Token::Comma) {
            break;
        }
    }
    expect_end(&p)?;
    Ok(Command::LockTables { tables })
}

/// Where a top-level `PARTITION BY` starts, if the statement has one.
fn partition_by_at(stmt: &Stmt) -> Option<usize> {
    let mut depth = 0_i32;
    let mut prev_partition: Option<usize> = None;
    for (i, t) in stmt.significant() {
        match &t.token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            tok if depth == 0 && word_upper(tok) == "BY" && prev_partition.is_some() => {
                return prev_partition;
            }
            _ => {}
        }
        prev_partition = (depth == 0 && word_upper(&t.token) == "PARTITION").then_some(i);
    }
    None
}

/// `CREATE TABLE ... PARTITION BY RANGE ...`: sqlparser reads up to `PARTITION`, we
/// read the rest.
fn create_table_partitioned(stmt: &Stmt, at: usize) -> Result<Command> {
    let mut p = parser(&stmt.tokens[..at]);
    let ast = p.parse_statement()?;
    expect_end(&p)?;
    let Statement::CreateTable(create) = &ast else {
        return Err(error_at("Expected: end of statement", stmt.tokens[at].span.start).into());
    };
    let mut p = parser(&stmt.tokens[at..]);
    let partitioning = range_partitioning(&mut p)?;
    expect_end(&p)?;
    lower::create_table(create, Some(partitioning))
}

/// `PARTITION BY RANGE (expr) (PARTITION p VALUES LESS THAN (n | MAXVALUE) [ENGINE
/// [=] x], ...)`.
fn range_partitioning(p: &mut Parser) -> Result<RangePartitioning> {
    expect_word(p, "PARTITION")?;
    expect_word(p, "BY")?;
    if !word(p, "RANGE") {
        let kind = word_upper(&p.peek_token_ref().token);
        if matches!(kind.as_str(), "HASH" | "KEY" | "LIST" | "LINEAR") {
            return Err(SqlError::not_modelled(&format!("PARTITION BY {kind}")).into());
        }
        expect_word(p, "RANGE")?;
    }
    if word(p, "COLUMNS") {
        return Err(SqlError::not_modelled("PARTITION BY RANGE COLUMNS").into());
    }
    p.expect_token(&Token::LParen)?;
    let expr = p.parse_expr()?.to_string();
    p.expect_token(&Token::RParen)?;
    if at_end(p) {
        return Err(SqlError::partitions_must_be_defined("RANGE").into());
    }
    p.expect_token(&Token::LParen)?;
    let mut partitions = Vec::new();
    loop {
        expect_word(p, "PARTITION")?;
        let name = p.parse_identifier()?.value;
        for w in ["VALUES", "LESS", "THAN"] {
            expect_word(p, w)?;
        }
        let less_than = if word(p, "MAXVALUE") {
            PartitionBound::MaxValue
        } else {
            p.expect_token(&Token::LParen)?;
            let bound = if word(p, "MAXVALUE") {
                PartitionBound::MaxValue
            } else {
                let e = p.parse_expr()?;
                match lower::const_int(&e).and_then(|v| i64::try_from(v).ok()) {
                    Some(v) => PartitionBound::Value(v),
                    None => PartitionBound::Expr(e.to_string()),
                }
            };
            p.expect_token(&Token::RParen)?;
            bound
        };
        // SHOW CREATE TABLE prints `ENGINE = InnoDB` after each partition.
        if words(p, &["STORAGE", "ENGINE"]) || word(p, "ENGINE") {
            optional_eq(p);
            p.parse_identifier()?;
        }
        partitions.push(PartitionDef { name, less_than });
        if !p.consume_token(&Token::Comma) {
            break;
        }
    }
    p.expect_token(&Token::RParen)?;
    check_range_partitions(&partitions)?;
    Ok(RangePartitioning { expr, partitions })
}

/// MySQL's checks on range partition definitions: names unique, integer bounds
/// strictly increasing, `MAXVALUE` only last.
fn check_range_partitions(partitions: &[PartitionDef]) -> Result<()> {
    for (i, part) in partitions.iter().enumerate() {
        if partitions[..i]
            .iter()
            .any(|q| q.name.eq_ignore_ascii_case(&part.name))
        {
            return Err(SqlError::duplicate_partition(&part.name).into());
        }
        if part.less_than == PartitionBound::MaxValue && i + 1 != partitions.len() {
            return Err(SqlError::partition_maxvalue_not_last().into());
        }
        if let (Some(PartitionBound::Value(prev)), PartitionBound::Value(v)) = (
            i.checked_sub(1).map(|j| &partitions[j].less_than),
            &part.less_than,
        ) {
            if v <= prev {
                return Err(SqlError::range_not_increasing().into());
            }
        }
    }
    Ok(())
}

/// Where a trailing `LOCK IN SHARE MODE` starts, if the statement ends with one.
fn lock_in_share_mode_at(stmt: &Stmt) -> Option<usize> {
    let tail: Vec<(usize, &TokenWithSpan)> = stmt.significant().collect();
    let [.., (at, lock), (_, a), (_, b), (_, c)] = tail.as_slice() else {
        return None;
    };
    (word_upper(&lock.token) == "LOCK"
        && word_upper(&a.token) == "IN"
        && word_upper(&b.token) == "SHARE"
        && word_upper(&c.token) == "MODE")
        .then_some(*at)
}

/// `SELECT ... LOCK IN SHARE MODE`: sqlparser reads the SELECT, the clause makes it
/// a shared locking read.
fn select_lock_in_share_mode(stmt: &Stmt, at: usize) -> Result<Command> {
    let clause = || error_at("Expected: end of statement", stmt.tokens[at].span.start);
    let mut p = parser(&stmt.tokens[..at]);
    let ast = p.parse_statement()?;
    if !at_end(&p) {
        return Err(clause().into());
    }
    match &ast {
        Statement::Query(q) if q.locks.is_empty() => lower::query(q, true),
        _ => Err(clause().into()),
    }
}

/// A table name, checked.
/// Whether two names are the same table as written (names compare
/// case-insensitively).
fn same_table(a: &TableName, b: &TableName) -> bool {
    let schema = |t: &TableName| t.schema.as_deref().map(str::to_ascii_lowercase);
    a.table.eq_ignore_ascii_case(&b.table) && schema(a) == schema(b)
}

fn table_name(p: &mut Parser) -> Result<TableName> {
    lower::table_name(&p.parse_object_name(false)?)
}

/// A bare word, upper-cased; empty for anything else (backquoted names included).
/// The next token as written (a word's own case).
fn written(p: &Parser) -> String {
    p.peek_token_ref().token.to_string()
}

fn word_upper(t: &Token) -> String {
    match t {
        Token::Word(w) if w.quote_style.is_none() => w.value.to_ascii_uppercase(),
        _ => String::new(),
    }
}

/// Takes the word `w` if it is next.
fn word(p: &mut Parser, w: &str) -> bool {
    if word_upper(&p.peek_token_ref().token) == w {
        p.next_token();
        true
    } else {
        false
    }
}

/// Takes the words `ws` if they are all next, else nothing.
fn words(p: &mut Parser, ws: &[&str]) -> bool {
    let all = ws
        .iter()
        .enumerate()
        .all(|(i, w)| word_upper(&p.peek_nth_token_ref(i).token) == *w);
    if all {
        for _ in ws {
            p.next_token();
        }
    }
    all
}

/// Takes the word `w`, or fails near what is there instead.
fn expect_word(p: &mut Parser, w: &str) -> Result<()> {
    if word(p, w) {
        Ok(())
    } else {
        expected(p, w)
    }
}

/// A syntax error near the next token, saying what should have been there.
fn expected<T>(p: &Parser, what: &str) -> Result<T> {
    p.expected(what, p.peek_token()).map_err(Error::from)
}

/// Takes the `=` of `ENGINE [=] x`, if written.
fn optional_eq(p: &mut Parser) {
    let _ = p.consume_token(&Token::Eq);
}

fn at_end(p: &Parser) -> bool {
    p.peek_token_ref().token == Token::EOF
}

/// Fails near whatever follows a complete statement.
pub(super) fn expect_end(p: &Parser) -> Result<()> {
    if at_end(p) {
        Ok(())
    } else {
        expected(p, "end of statement")
    }
}
