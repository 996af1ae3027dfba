//! `ALTER TABLE` (MySQL's `alter_table_stmt`, `alter_list_item`, `alter_algorithm_option`,
//! `alter_lock_option`), `CREATE INDEX` and `DROP INDEX`, which share the last two.

use super::super::command::{
    Algorithm, AlterAction, AlterLock, ColumnPosition, Command, RowFormat,
};
use super::super::lexer::Token;
use super::super::{Result, SqlError};
use super::create_table::{column_def, index_options, key_list, table_constraint_def, Element};
use super::cursor::{word_upper, Cursor};
use super::names::{column_name, index_name, table_ident};

/// `ALTER TABLE t [action [, action ...]]`, where `ALGORITHM=` and `LOCK=` may come
/// anywhere in the list; the cursor after `ALTER`.
pub(in crate::sql) fn alter_table_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("TABLE")?;
    let table = table_ident(c)?;
    let mut actions = Vec::new();
    let mut algorithm = Algorithm::Default;
    let mut lock = AlterLock::Default;
    // `ALTER TABLE t` alone is a no-op MySQL accepts.
    if !c.at_end() {
        loop {
            if !alter_option(c, &mut algorithm, &mut lock)? {
                if let Some(action) = alter_list_item(c)? {
                    actions.push(action);
                }
            }
            if !c.token(&Token::Comma) {
                break;
            }
        }
    }
    c.finish()?;
    Ok(Command::AlterTable {
        table,
        actions,
        algorithm,
        lock,
    })
}

/// `alter_list_item`: one action, `None` when it was read and deferred as 1235.
fn alter_list_item(c: &mut Cursor) -> Result<Option<AlterAction>> {
    let action = match c.peek_word().as_str() {
        "ADD" => {
            c.next();
            return add_item(c);
        }
        "DROP" => {
            c.next();
            return drop_item(c);
        }
        "ENGINE" => {
            c.next();
            c.optional_eq();
            let name = match c.string() {
                Ok(name) => name,
                Err(_) => c.ident()?,
            };
            AlterAction::Engine { name }
        }
        "FORCE" => {
            c.next();
            AlterAction::Force
        }
        "ROW_FORMAT" => {
            c.next();
            c.optional_eq();
            AlterAction::RowFormat(row_format(c)?)
        }
        "KEY_BLOCK_SIZE" => {
            c.next();
            c.optional_eq();
            let at = c.error();
            match c.number().ok().and_then(|n| u32::try_from(n).ok()) {
                Some(n) => AlterAction::KeyBlockSize(n),
                None => return Err(at),
            }
        }
        "TRUNCATE" if c.word_at(1) == "PARTITION" => {
            c.next();
            c.next();
            if c.word("ALL") {
                AlterAction::TruncatePartition { names: Vec::new() }
            } else {
                AlterAction::TruncatePartition {
                    names: partition_names(c)?,
                }
            }
        }
        "DISCARD" | "IMPORT" if c.word_at(1) == "TABLESPACE" => {
            let discard = c.peek_word() == "DISCARD";
            c.next();
            c.next();
            match discard {
                true => AlterAction::DiscardTablespace,
                false => AlterAction::ImportTablespace,
            }
        }
        _ => return other_item(c),
    };
    Ok(Some(action))
}

/// `ADD [COLUMN] column_def [FIRST | AFTER c]`, `ADD {INDEX | KEY | UNIQUE} ...`, and
/// the keys and partitions the simulator does not model.
fn add_item(c: &mut Cursor) -> Result<Option<AlterAction>> {
    const CONTEXT: &str = "ALTER TABLE ... ADD ";
    if c.peek_word() == "PARTITION" {
        c.defer(SqlError::not_modelled("ALTER TABLE ... ADD PARTITION"));
        c.next();
        c.skip_group()?;
        return Ok(None);
    }
    if let Some(element) = table_constraint_def(c, CONTEXT)? {
        return Ok(match element {
            Element::Index(index) => Some(AlterAction::AddIndex(index)),
            Element::PrimaryKey(_) => {
                c.defer(SqlError::not_modelled("ALTER TABLE ... ADD PRIMARY KEY"));
                None
            }
            Element::Column(..) => None,
        });
    }
    c.word("COLUMN");
    if c.peek() == &Token::LParen {
        c.defer(SqlError::not_modelled("ALTER TABLE ... ADD COLUMN (...)"));
        c.skip_group()?;
        return Ok(None);
    }
    let (column, primary, unique) = column_def(c)?;
    if primary || unique {
        c.defer(SqlError::not_modelled(
            "ALTER TABLE ... ADD COLUMN ... PRIMARY KEY or UNIQUE",
        ));
    }
    let position = column_position(c)?;
    Ok(Some(AlterAction::AddColumn { column, position }))
}

/// `[FIRST | AFTER c]`.
fn column_position(c: &mut Cursor) -> Result<ColumnPosition> {
    if c.word("FIRST") {
        Ok(ColumnPosition::First)
    } else if c.word("AFTER") {
        Ok(ColumnPosition::After(column_name(&c.ident()?)?))
    } else {
        Ok(ColumnPosition::Last)
    }
}

/// `DROP [COLUMN] c`, `DROP {INDEX | KEY} i`, `DROP PARTITION p, ...`; `DROP PRIMARY
/// KEY`, `DROP FOREIGN KEY f` and the like are read and deferred as 1235.
fn drop_item(c: &mut Cursor) -> Result<Option<AlterAction>> {
    let action = match c.peek_word().as_str() {
        "INDEX" | "KEY" => {
            c.next();
            AlterAction::DropIndex {
                name: index_name(&c.ident()?)?,
            }
        }
        "PARTITION" => {
            c.next();
            AlterAction::DropPartition {
                names: partition_names(c)?,
            }
        }
        "PRIMARY" => {
            c.next();
            c.expect_word("KEY")?;
            c.defer(SqlError::not_modelled("ALTER TABLE ... DROP PRIMARY KEY"));
            return Ok(None);
        }
        kind @ ("FOREIGN" | "CHECK" | "CONSTRAINT") => {
            c.next();
            if kind == "FOREIGN" {
                c.expect_word("KEY")?;
            }
            c.ident()?;
            let what = if kind == "FOREIGN" {
                "FOREIGN KEY"
            } else {
                kind
            };
            c.defer(SqlError::not_modelled(&format!(
                "ALTER TABLE ... DROP {what}"
            )));
            return Ok(None);
        }
        _ => {
            c.word("COLUMN");
            c.words(&["IF", "EXISTS"]);
            AlterAction::DropColumn {
                name: column_name(&c.ident()?)?,
            }
        }
    };
    Ok(Some(action))
}

/// The other actions (MODIFY, CHANGE, ALTER COLUMN, RENAME, CONVERT, ORDER BY and
/// the table options): read and deferred as 1235 naming the action.
fn other_item(c: &mut Cursor) -> Result<Option<AlterAction>> {
    let word = c.peek_word();
    let name = match word.as_str() {
        "MODIFY" => {
            c.next();
            c.word("COLUMN");
            column_def(c)?;
            column_position(c)?;
            "MODIFY COLUMN"
        }
        "CHANGE" => {
            c.next();
            c.word("COLUMN");
            c.ident()?;
            column_def(c)?;
            column_position(c)?;
            "CHANGE COLUMN"
        }
        "ALTER" => {
            c.next();
            c.word("COLUMN");
            c.ident()?;
            if c.words(&["SET", "DEFAULT"]) {
                if c.peek() == &Token::LParen {
                    c.skip_group()?;
                } else {
                    super::expr::simple_expr(c)?;
                }
            } else if !(c.words(&["DROP", "DEFAULT"])
                || c.words(&["SET", "VISIBLE"])
                || c.words(&["SET", "INVISIBLE"]))
            {
                return Err(c.error());
            }
            "ALTER COLUMN"
        }
        "RENAME" => {
            c.next();
            if c.word("COLUMN") {
                c.ident()?;
                c.expect_word("TO")?;
                c.ident()?;
                "RENAME COLUMN"
            } else if c.word("INDEX") || c.word("KEY") {
                c.ident()?;
                c.expect_word("TO")?;
                c.ident()?;
                "RENAME INDEX"
            } else {
                let _ = c.word("TO") || c.word("AS");
                table_ident(c)?;
                "RENAME TO"
            }
        }
        "CONVERT" => {
            c.next();
            c.expect_word("TO")?;
            if !c.word("CHARSET") {
                c.expect_word("CHARACTER")?;
                c.expect_word("SET")?;
            }
            c.ident()?;
            if c.word("COLLATE") {
                c.ident()?;
            }
            "CONVERT TO"
        }
        "AUTO_INCREMENT" | "COMMENT" | "CHARSET" | "COLLATE" | "STATS_PERSISTENT" => {
            c.next();
            c.optional_eq();
            if c.number().is_err() && c.string().is_err() {
                c.ident()?;
            }
            word.as_str()
        }
        _ => return Err(c.error()),
    };
    c.defer(SqlError::not_modelled(&format!("ALTER TABLE ... {name}")));
    Ok(None)
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
fn partition_names(c: &mut Cursor) -> Result<Vec<String>> {
    let mut names = vec![c.ident()?];
    while c.peek() == &Token::Comma
        && matches!(c.peek_nth(1), Token::Word(_))
        && !ALTER_ACTION_WORDS.contains(&word_upper(c.peek_nth(1)).as_str())
    {
        c.next();
        names.push(c.ident()?);
    }
    Ok(names)
}

/// `ALGORITHM [=] x` or `LOCK [=] x`, if next; returns whether it read one.
fn alter_option(c: &mut Cursor, algorithm: &mut Algorithm, lock: &mut AlterLock) -> Result<bool> {
    if c.word("ALGORITHM") {
        c.optional_eq();
        *algorithm = match c.peek_word().as_str() {
            "DEFAULT" => Algorithm::Default,
            "INSTANT" => Algorithm::Instant,
            "INPLACE" => Algorithm::Inplace,
            "COPY" => Algorithm::Copy,
            // The grammar takes any word here; the server names the one it does not know.
            "" => return Err(c.error()),
            _ => return Err(SqlError::unknown_alter_algorithm(&written(c)).into()),
        };
        c.next();
        return Ok(true);
    }
    if c.word("LOCK") {
        c.optional_eq();
        *lock = match c.peek_word().as_str() {
            "DEFAULT" => AlterLock::Default,
            "NONE" => AlterLock::None,
            "SHARED" => AlterLock::Shared,
            "EXCLUSIVE" => AlterLock::Exclusive,
            "" => return Err(c.error()),
            _ => return Err(SqlError::unknown_alter_lock(&written(c)).into()),
        };
        c.next();
        return Ok(true);
    }
    Ok(false)
}

/// The next token as written (a word's own case).
fn written(c: &Cursor) -> String {
    c.peek_text().to_string()
}

/// `DEFAULT | DYNAMIC | COMPACT | REDUNDANT | COMPRESSED` after `ROW_FORMAT [=]`.
fn row_format(c: &mut Cursor) -> Result<RowFormat> {
    let at = c.location();
    let word = word_upper(c.next());
    RowFormat::from_word(&word, at)
}

/// `CREATE [UNIQUE] INDEX i [USING t] ON t (key_list) [options] [ALGORITHM [=] x]
/// [LOCK [=] x]`, the cursor after `CREATE`.
pub(in crate::sql) fn create_index_stmt(c: &mut Cursor) -> Result<Command> {
    let unique = c.word("UNIQUE");
    if !unique {
        if let kind @ ("FULLTEXT" | "SPATIAL") = c.peek_word().as_str() {
            c.defer(SqlError::not_modelled(&format!("CREATE {kind} INDEX")));
            c.next();
        }
    }
    c.expect_word("INDEX")?;
    let name = index_name(&c.ident()?)?;
    if c.word("USING") {
        c.next();
    }
    c.expect_word("ON")?;
    let table = table_ident(c)?;
    let columns = key_list(c)?;
    index_options(c)?;
    let (algorithm, lock) = algorithm_and_lock(c)?;
    Ok(Command::CreateIndex {
        table,
        index: super::super::command::IndexDef {
            name: Some(name),
            unique,
            columns,
        },
        algorithm,
        lock,
    })
}

/// `DROP INDEX i ON t [ALGORITHM [=] x] [LOCK [=] x]`, the cursor after `DROP`.
pub(in crate::sql) fn drop_index_stmt(c: &mut Cursor) -> Result<Command> {
    c.expect_word("INDEX")?;
    let name = index_name(&c.ident()?)?;
    c.expect_word("ON")?;
    let table = table_ident(c)?;
    let (algorithm, lock) = algorithm_and_lock(c)?;
    Ok(Command::DropIndex {
        table,
        name,
        algorithm,
        lock,
    })
}

/// `[ALGORITHM [=] x] [LOCK [=] x]` in any order, to the end of the statement.
fn algorithm_and_lock(c: &mut Cursor) -> Result<(Algorithm, AlterLock)> {
    let mut algorithm = Algorithm::Default;
    let mut lock = AlterLock::Default;
    while !c.at_end() {
        if !alter_option(c, &mut algorithm, &mut lock)? {
            return Err(c.error());
        }
    }
    c.finish()?;
    Ok((algorithm, lock))
}
