//! `CREATE TABLE`: MySQL's `create_table_stmt` with its `table_element_list`
//! (`column_def`, `table_constraint_def`), `create_table_options` and
//! `partition_clause` (RANGE only), then the checks `mysql_prepare_create_table()`
//! makes on what was read.

use super::super::command::{
    ColumnDef, Command, CreateTable, IndexDef, KeyPart, PartitionBound, PartitionDef,
    RangePartitioning, RowFormat, TableName,
};
use super::super::lexer::Token;
use super::super::{Result, SqlError};
use super::cursor::Cursor;
use super::expr::{self, const_int};
use super::names::{column_name, index_name, table_ident};
use super::select::select_stmt;

/// One element of the parenthesised list: a column or a key.
pub(in crate::sql) enum Element {
    Column(ColumnDef, bool, bool),
    PrimaryKey(Vec<KeyPart>),
    Index(IndexDef),
}

/// `CREATE [TEMPORARY] TABLE [IF NOT EXISTS] t {LIKE t2 | (elements) [options]
/// [PARTITION BY ...] [[AS] SELECT ...]}`, the cursor after `CREATE`.
pub(in crate::sql) fn create_table_stmt(c: &mut Cursor) -> Result<Command> {
    if c.word("TEMPORARY") {
        c.defer(SqlError::not_modelled("CREATE TEMPORARY TABLE"));
    }
    c.expect_word("TABLE")?;
    let if_not_exists = c.words(&["IF", "NOT", "EXISTS"]);
    let table = table_ident(c)?;
    if c.word("LIKE") {
        return create_like(c, table);
    }
    if c.peek() == &Token::LParen && c.word_at(1) == "LIKE" {
        c.next();
        c.next();
        let like = table_ident(c)?;
        c.expect(&Token::RParen)?;
        return finish_like(c, table, like);
    }
    let mut elements = Vec::new();
    if c.peek() == &Token::LParen && c.word_at(1) != "SELECT" {
        c.next();
        loop {
            elements.push(table_element(c)?);
            if !c.token(&Token::Comma) {
                break;
            }
        }
        c.expect(&Token::RParen)?;
    }
    let mut out = CreateTable {
        table,
        if_not_exists,
        columns: Vec::new(),
        primary_key: Vec::new(),
        indexes: Vec::new(),
        engine: None,
        row_format: None,
        key_block_size: None,
        partition_by: None,
    };
    create_table_options(c, &mut out)?;
    if c.peek_word() == "PARTITION" {
        out.partition_by = Some(partition_clause(c)?);
    }
    let _ = c.word("IGNORE") || c.word("REPLACE");
    c.word("AS");
    if c.peek_word() == "SELECT" || c.peek() == &Token::LParen {
        c.defer(SqlError::not_modelled("CREATE TABLE ... SELECT"));
        if c.peek() == &Token::LParen {
            c.skip_group()?;
        } else {
            return select_stmt(c);
        }
    }
    c.finish()?;
    prepare_create_table(out, elements)
}

/// `LIKE t2`, after the table's name.
fn create_like(c: &mut Cursor, table: TableName) -> Result<Command> {
    let like = table_ident(c)?;
    finish_like(c, table, like)
}

fn finish_like(c: &mut Cursor, table: TableName, like: TableName) -> Result<Command> {
    if c.peek_word() == "PARTITION" {
        partition_clause(c)?;
        c.defer(SqlError::not_modelled(
            "CREATE TABLE ... LIKE ... PARTITION BY",
        ));
    }
    c.finish()?;
    Ok(Command::CreateTableLike { table, like })
}

/// MySQL's checks on the columns and keys read: unique column and key names, one
/// primary key, at least one column.
fn prepare_create_table(mut out: CreateTable, elements: Vec<Element>) -> Result<Command> {
    let mut primary_key: Option<Vec<KeyPart>> = None;
    let mut set_primary_key = |parts: Vec<KeyPart>| match primary_key.replace(parts) {
        Some(_) => Err(SqlError::multiple_primary_key()),
        None => Ok(()),
    };
    let mut constraints = Vec::new();
    for element in elements {
        let (column, inline_primary, inline_unique) = match element {
            Element::Column(column, p, u) => (column, p, u),
            other => {
                constraints.push(other);
                continue;
            }
        };
        if out
            .columns
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
            out.indexes.push(IndexDef {
                name: None,
                unique: true,
                columns: vec![part],
            });
        }
        out.columns.push(column);
    }
    if out.columns.is_empty() {
        return Err(SqlError::table_must_have_columns().into());
    }
    for constraint in constraints {
        match constraint {
            Element::PrimaryKey(parts) => set_primary_key(parts)?,
            Element::Index(index) => out.indexes.push(index),
            Element::Column(..) => {}
        }
    }
    for (i, index) in out.indexes.iter().enumerate() {
        if let Some(name) = &index.name {
            let mut earlier = out.indexes[..i].iter().filter_map(|x| x.name.as_ref());
            if earlier.any(|n| n.eq_ignore_ascii_case(name)) {
                return Err(SqlError::duplicate_key(name).into());
            }
        }
    }
    out.primary_key = primary_key.unwrap_or_default();
    Ok(Command::CreateTable(Box::new(out)))
}

/// `table_element`: a column definition or a key.
fn table_element(c: &mut Cursor) -> Result<Element> {
    if let Some(key) = table_constraint_def(c, "")? {
        return Ok(key);
    }
    let (column, primary, unique) = column_def(c)?;
    Ok(Element::Column(column, primary, unique))
}

/// `table_constraint_def` if one is next: `[CONSTRAINT [s]] PRIMARY KEY (...)`,
/// `{INDEX | KEY} [i] (...)`, `UNIQUE [INDEX | KEY] [i] (...)`; FULLTEXT, SPATIAL,
/// FOREIGN KEY and CHECK are read and deferred as 1235 (`context` prefixes it).
pub(in crate::sql) fn table_constraint_def(
    c: &mut Cursor,
    context: &str,
) -> Result<Option<Element>> {
    let start = c.mark();
    // `CONSTRAINT [symbol]`: the symbol is not one of the keys' first words.
    if c.word("CONSTRAINT")
        && c.at_ident()
        && !matches!(
            c.peek_word().as_str(),
            "PRIMARY" | "UNIQUE" | "FOREIGN" | "CHECK"
        )
    {
        c.next();
    }
    let constrained = c.mark() != start;
    let not_modelled = |what: &str| SqlError::not_modelled(&format!("{context}{what}"));
    match c.peek_word().as_str() {
        "PRIMARY" => {
            c.next();
            c.expect_word("KEY")?;
            index_type(c)?;
            let parts = key_list(c)?;
            index_options(c)?;
            Ok(Some(Element::PrimaryKey(parts)))
        }
        "UNIQUE" => {
            c.next();
            let _ = c.word("INDEX") || c.word("KEY");
            Ok(Some(Element::Index(key_def_rest(c, true)?)))
        }
        "INDEX" | "KEY" if !constrained => {
            c.next();
            Ok(Some(Element::Index(key_def_rest(c, false)?)))
        }
        kind @ ("FULLTEXT" | "SPATIAL") if !constrained => {
            c.defer(not_modelled(&format!("{kind} INDEX")));
            c.next();
            let _ = c.word("INDEX") || c.word("KEY");
            key_def_rest(c, false)?;
            Ok(Some(Element::Index(IndexDef {
                name: None,
                unique: false,
                columns: Vec::new(),
            })))
        }
        "FOREIGN" => {
            c.defer(not_modelled("FOREIGN KEY"));
            c.next();
            c.expect_word("KEY")?;
            if c.at_ident() {
                c.next();
            }
            c.skip_group()?;
            references(c)?;
            Ok(Some(Element::Index(IndexDef {
                name: None,
                unique: false,
                columns: Vec::new(),
            })))
        }
        "CHECK" => {
            c.defer(not_modelled("CHECK"));
            c.next();
            c.skip_group()?;
            c.word("NOT");
            c.word("ENFORCED");
            Ok(Some(Element::Index(IndexDef {
                name: None,
                unique: false,
                columns: Vec::new(),
            })))
        }
        _ if constrained => Err(c.error()),
        _ => Ok(None),
    }
}

/// `[name] [USING type] (key_list) [options]` after `INDEX`, `KEY` or `UNIQUE`.
fn key_def_rest(c: &mut Cursor, unique: bool) -> Result<IndexDef> {
    let name = if c.at_ident() && c.peek_word() != "USING" {
        Some(index_name(&c.ident()?)?)
    } else {
        None
    };
    index_type(c)?;
    let columns = key_list(c)?;
    index_options(c)?;
    Ok(IndexDef {
        name,
        unique,
        columns,
    })
}

/// `REFERENCES t (cols) [MATCH ...] [ON {DELETE | UPDATE} action ...]`.
fn references(c: &mut Cursor) -> Result<()> {
    c.expect_word("REFERENCES")?;
    table_ident(c)?;
    if c.peek() == &Token::LParen {
        c.skip_group()?;
    }
    if c.word("MATCH") {
        c.next();
    }
    while c.word("ON") {
        if !c.word("DELETE") {
            c.expect_word("UPDATE")?;
        }
        if !(c.word("RESTRICT")
            || c.word("CASCADE")
            || c.words(&["SET", "NULL"])
            || c.words(&["SET", "DEFAULT"])
            || c.words(&["NO", "ACTION"]))
        {
            return Err(c.error());
        }
    }
    Ok(())
}

/// `[USING {BTREE | HASH}]`.
fn index_type(c: &mut Cursor) -> Result<()> {
    if c.word("USING") && !(c.word("BTREE") || c.word("HASH") || c.word("RTREE")) {
        return Err(c.error());
    }
    Ok(())
}

/// `index_option`s: `USING`, `COMMENT 's'`, `KEY_BLOCK_SIZE [=] n`, `VISIBLE`, ...
pub(in crate::sql) fn index_options(c: &mut Cursor) -> Result<()> {
    loop {
        match c.peek_word().as_str() {
            "USING" => index_type(c)?,
            "COMMENT" => {
                c.next();
                c.string()?;
            }
            "KEY_BLOCK_SIZE" => {
                c.next();
                c.optional_eq();
                c.number()?;
            }
            "VISIBLE" | "INVISIBLE" | "IGNORED" => {
                c.next();
            }
            "NOT" if c.word_at(1) == "IGNORED" => {
                c.next();
                c.next();
            }
            "WITH" if c.word_at(1) == "PARSER" => {
                c.next();
                c.next();
                c.ident()?;
            }
            _ => return Ok(()),
        }
    }
}

/// `key_list`: `(c [(n)] [ASC | DESC], ...)`; a functional key part is read and
/// deferred as 1235.
pub(in crate::sql) fn key_list(c: &mut Cursor) -> Result<Vec<KeyPart>> {
    c.expect(&Token::LParen)?;
    let mut parts = Vec::new();
    loop {
        if c.peek() == &Token::LParen {
            c.defer(SqlError::not_modelled("functional key parts"));
            c.skip_group()?;
        } else {
            let column = column_name(&c.ident()?)?;
            let prefix_len = if c.token(&Token::LParen) {
                let n = c.number()?;
                c.expect(&Token::RParen)?;
                match u32::try_from(n) {
                    Ok(n) => Some(n),
                    Err(_) => return Err(c.error()),
                }
            } else {
                None
            };
            parts.push(KeyPart { column, prefix_len });
        }
        let _ = c.word("ASC") || c.word("DESC");
        if !c.token(&Token::Comma) {
            break;
        }
    }
    c.expect(&Token::RParen)?;
    Ok(parts)
}

/// `column_def`: `name type [attributes]`, and whether it said `PRIMARY KEY` or
/// `UNIQUE` inline.
pub(in crate::sql) fn column_def(c: &mut Cursor) -> Result<(ColumnDef, bool, bool)> {
    let name = column_name(&c.ident()?)?;
    let data_type = data_type(c)?;
    let (mut nullable, mut primary, mut unique) = (true, false, false);
    let mut auto_increment = false;
    loop {
        match c.peek_word().as_str() {
            "AUTO_INCREMENT" => {
                c.next();
                auto_increment = true;
            }
            "NOT" if c.word_at(1) == "NULL" => {
                c.next();
                c.next();
                nullable = false;
            }
            "NULL" => {
                c.next();
                nullable = true;
            }
            "PRIMARY" => {
                c.next();
                c.expect_word("KEY")?;
                primary = true;
                nullable = false;
            }
            "KEY" => {
                c.next();
                primary = true;
                nullable = false;
            }
            "UNIQUE" => {
                c.next();
                c.word("KEY");
                unique = true;
            }
            _ => {
                if !column_attribute(c)? {
                    break;
                }
            }
        }
    }
    Ok((
        ColumnDef {
            name,
            data_type,
            nullable,
            auto_increment,
        },
        primary,
        unique,
    ))
}

/// One of the column attributes that do not change the simulation (DEFAULT,
/// AUTO_INCREMENT, COMMENT, COLLATE, ...), if next; whether it read one.
fn column_attribute(c: &mut Cursor) -> Result<bool> {
    match c.peek_word().as_str() {
        "DEFAULT" => {
            c.next();
            expr::simple_expr(c)?;
        }
        "ON" if c.word_at(1) == "UPDATE" => {
            c.next();
            c.next();
            expr::simple_expr(c)?;
        }
        "SERIAL" | "VISIBLE" | "INVISIBLE" | "VIRTUAL" | "STORED" | "PERSISTENT" | "ZEROFILL" => {
            c.next();
            if c.words(&["DEFAULT", "VALUE"]) {}
        }
        "COMMENT" => {
            c.next();
            c.string()?;
        }
        "COLLATE" | "CHARSET" | "COLUMN_FORMAT" | "STORAGE" | "SRID" => {
            c.next();
            c.next();
        }
        "CHARACTER" if c.word_at(1) == "SET" => {
            c.next();
            c.next();
            c.next();
        }
        "GENERATED" => {
            c.next();
            c.expect_word("ALWAYS")?;
            c.expect_word("AS")?;
            c.skip_group()?;
        }
        "AS" => {
            c.next();
            c.skip_group()?;
        }
        "CHECK" => {
            c.next();
            c.skip_group()?;
        }
        "REFERENCES" => references(c)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// `type`: a type name, its `(args)`, and `UNSIGNED`/`SIGNED`/`ZEROFILL`/`BINARY`;
/// upper-cased (`CHAR(120)`, `BIGINT UNSIGNED`).
fn data_type(c: &mut Cursor) -> Result<String> {
    let Token::Word(w) = c.peek() else {
        return Err(c.error());
    };
    if w.quoted {
        return Err(c.error());
    }
    let mut text = w.value.to_ascii_uppercase();
    c.next();
    for second in ["PRECISION", "VARYING", "VARCHAR", "CHAR"] {
        if c.word(second) {
            text = format!("{text} {second}");
        }
    }
    if c.peek() == &Token::LParen {
        let from = c.mark();
        c.skip_group()?;
        let args = c.text_since(from);
        text.push_str(&args.replace(' ', ""));
    }
    for attribute in ["UNSIGNED", "SIGNED", "ZEROFILL", "BINARY"] {
        if c.word(attribute) {
            text = format!("{text} {attribute}");
        }
    }
    Ok(text)
}

/// `create_table_options`: ENGINE, ROW_FORMAT and KEY_BLOCK_SIZE kept; the others
/// (charset, comment, AUTO_INCREMENT, ...) read and dropped.
fn create_table_options(c: &mut Cursor, out: &mut CreateTable) -> Result<()> {
    loop {
        let name = c.peek_word();
        match name.as_str() {
            "ENGINE" | "TYPE" => {
                c.next();
                c.optional_eq();
                out.engine = Some(option_word(c)?);
            }
            "ROW_FORMAT" => {
                c.next();
                c.optional_eq();
                let at = c.location();
                let word = option_word(c)?;
                out.row_format = Some(RowFormat::from_word(&word, at)?);
            }
            "KEY_BLOCK_SIZE" => {
                c.next();
                c.optional_eq();
                let at = c.error();
                let e = expr::simple_expr(c).map_err(|_| c.error())?;
                match const_int(&e).and_then(|v| u32::try_from(v).ok()) {
                    Some(n) => out.key_block_size = Some(n),
                    None => return Err(at),
                }
            }
            "DEFAULT" => {
                c.next();
                if !matches!(c.peek_word().as_str(), "CHARSET" | "CHARACTER" | "COLLATE") {
                    return Err(c.error());
                }
            }
            "CHARACTER" => {
                c.next();
                c.expect_word("SET")?;
                c.optional_eq();
                option_word(c)?;
            }
            _ if is_plain_table_option(&name) => {
                c.next();
                c.optional_eq();
                option_value(c)?;
            }
            _ => return Ok(()),
        }
        c.token(&Token::Comma);
    }
}

/// Table options that take one value and do not change the simulation.
fn is_plain_table_option(name: &str) -> bool {
    matches!(
        name,
        "CHARSET"
            | "COLLATE"
            | "AUTO_INCREMENT"
            | "COMMENT"
            | "AVG_ROW_LENGTH"
            | "CHECKSUM"
            | "TABLE_CHECKSUM"
            | "MAX_ROWS"
            | "MIN_ROWS"
            | "PACK_KEYS"
            | "STATS_PERSISTENT"
            | "STATS_AUTO_RECALC"
            | "STATS_SAMPLE_PAGES"
            | "COMPRESSION"
            | "ENCRYPTION"
            | "ENCRYPTED"
            | "ENCRYPTION_KEY_ID"
            | "TABLESPACE"
            | "PAGE_COMPRESSED"
            | "PAGE_COMPRESSION_LEVEL"
            | "INSERT_METHOD"
            | "DELAY_KEY_WRITE"
            | "TRANSACTIONAL"
            | "PAGE_CHECKSUM"
    )
}

/// A name or a quoted string, as written.
fn option_word(c: &mut Cursor) -> Result<String> {
    match c.peek() {
        Token::Word(w) => {
            let v = w.value.clone();
            c.next();
            Ok(v)
        }
        Token::Str(s) => {
            let v = s.clone();
            c.next();
            Ok(v)
        }
        _ => Err(c.error()),
    }
}

/// A table option's value: a word, a string or a number.
fn option_value(c: &mut Cursor) -> Result<()> {
    if matches!(c.peek(), Token::Number(..)) {
        c.next();
        return Ok(());
    }
    option_word(c).map(drop)
}

/// `PARTITION BY RANGE (expr) (PARTITION p VALUES LESS THAN (n | MAXVALUE) [ENGINE
/// [=] x], ...)`; the other kinds are named in a 1235.
pub(in crate::sql) fn partition_clause(c: &mut Cursor) -> Result<RangePartitioning> {
    c.expect_word("PARTITION")?;
    c.expect_word("BY")?;
    if !c.word("RANGE") {
        let kind = c.peek_word();
        if matches!(kind.as_str(), "HASH" | "KEY" | "LIST" | "LINEAR") {
            return Err(SqlError::not_modelled(&format!("PARTITION BY {kind}")).into());
        }
        c.expect_word("RANGE")?;
    }
    if c.word("COLUMNS") {
        return Err(SqlError::not_modelled("PARTITION BY RANGE COLUMNS").into());
    }
    c.expect(&Token::LParen)?;
    let from = c.mark();
    expr::bit_expr(c)?;
    let expr = c.text_since(from);
    c.expect(&Token::RParen)?;
    if c.at_end() {
        return Err(SqlError::partitions_must_be_defined("RANGE").into());
    }
    c.expect(&Token::LParen)?;
    let mut partitions = Vec::new();
    loop {
        partitions.push(part_definition(c)?);
        if !c.token(&Token::Comma) {
            break;
        }
    }
    c.expect(&Token::RParen)?;
    check_range_partitions(&partitions)?;
    Ok(RangePartitioning { expr, partitions })
}

/// `part_definition`: `PARTITION p VALUES LESS THAN (bound) [[STORAGE] ENGINE [=] x]`.
fn part_definition(c: &mut Cursor) -> Result<PartitionDef> {
    c.expect_word("PARTITION")?;
    let name = c.ident()?;
    for w in ["VALUES", "LESS", "THAN"] {
        c.expect_word(w)?;
    }
    let less_than = if c.word("MAXVALUE") {
        PartitionBound::MaxValue
    } else {
        c.expect(&Token::LParen)?;
        let bound = if c.word("MAXVALUE") {
            PartitionBound::MaxValue
        } else {
            let from = c.mark();
            let e = expr::bit_expr(c)?;
            match const_int(&e).and_then(|v| i64::try_from(v).ok()) {
                Some(v) => PartitionBound::Value(v),
                None => PartitionBound::Expr(c.text_since(from)),
            }
        };
        c.expect(&Token::RParen)?;
        bound
    };
    // SHOW CREATE TABLE prints `ENGINE = InnoDB` after each partition.
    if c.words(&["STORAGE", "ENGINE"]) || c.word("ENGINE") {
        c.optional_eq();
        c.ident()?;
    }
    Ok(PartitionDef { name, less_than })
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
