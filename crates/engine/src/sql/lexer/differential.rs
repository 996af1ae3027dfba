//! Our lexer against sqlparser 0.64's tokenizer (MySQL dialect), the one the front
//! end used before, on every statement of `assets/scripts/`, `assets/lessons/`, the
//! SQL golden tests and `docs/errors.md`, and on their prefixes and splices.
//!
//! The two agree on the kind, value and span of every token except where MySQL's
//! rules and sqlparser's differ; each such input is counted under one of the
//! [`KNOWN`] differences (checked on MariaDB 10.11.19 where the server decides), and
//! any other difference fails the test. sqlparser is a dev-dependency only: nothing
//! shipped links it.

use super::{Lexeme, Lexer, Token};
use sqlparser::dialect::MySqlDialect;
use sqlparser::tokenizer::{Location, Token as Theirs, Tokenizer};
use std::collections::BTreeMap;

/// The differences between the two, each with why ours is right.
const KNOWN: &[(&str, &str)] = &[
    ("executable", "sqlparser expands `/*!` itself, placing the tokens inside as if the marker were not there"),
    ("dash-dash-at-end", "`--` at the end of the input starts a comment (MariaDB: `SELECT 1 --` is 1)"),
    ("malformed", "MySQL's ABORT_SYM: `X'123'`, `X'1G'`, `B'2'`, `1.5e` (MariaDB: 1064 near it)"),
    ("number-then-word", "`1.5x` is `1.5` and `x`, `0x1G` and `1L` are names (MariaDB: `1.5` aliased `x`, unknown column `0x1G`)"),
    ("at-sign", "`@` is a word's character to sqlparser (`a@b`) and `@a.b` is one user variable to MariaDB"),
    ("placeholder", "`?` is no placeholder outside prepared statements (MariaDB: 1064 near '?')"),
    ("not-mysql-operator", "`==`, `=>`, `::`, `!!`, `~*`, `#>`... are not MySQL operators (MariaDB: `1==1` is 1064 near '=1')"),
    ("after-qualifier", "after `name.` a word is a name even when it looks like a number (`t.1e5`)"),
    ("unicode-blank", "a non-ASCII blank is a name's character to MySQL (MariaDB: `SELECT\\u{a0}1` is one word)"),
    ("escape", "`\\a` and `\\f` are not MySQL escapes: they stand for `a` and `f`"),
    ("unclosed-position", "an unclosed `X'`/`N'` literal or `/*` comment fails at its start (MariaDB: near 'X'ab', near '/* a')"),
];

/// A token of either lexer, as both can spell it: its kind and value, and its span.
type Common = (String, usize, usize);

#[test]
fn our_lexer_agrees_with_sqlparser_except_where_mysql_disagrees() {
    let corpus = corpus();
    assert!(corpus.len() > 200, "the corpus shrank to {}", corpus.len());
    let mut inputs = 0;
    let mut known: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unexplained = Vec::new();
    for sql in variants(&corpus) {
        inputs += 1;
        let (ours, theirs) = (ours(&sql), theirs(&sql));
        if ours == theirs {
            continue;
        }
        match known_difference(&sql) {
            Some(name) => *known.entry(name).or_default() += 1,
            None => unexplained.push(format!("{sql:?}\n  ours   {ours:?}\n  theirs {theirs:?}")),
        }
    }
    assert!(
        unexplained.is_empty(),
        "{} of {inputs} inputs lex otherwise, unexplained:\n{}",
        unexplained.len(),
        unexplained[..unexplained.len().min(10)].join("\n")
    );
    for name in known.keys() {
        assert!(KNOWN.iter().any(|(k, _)| k == name));
    }
    println!("{inputs} inputs; known differences: {known:?}");
}

/// Our tokens in the common spelling, or the error's offset.
fn ours(sql: &str) -> Result<Vec<Common>, usize> {
    let mut out = Vec::new();
    for lexeme in Lexer::new(sql) {
        match lexeme {
            Ok(Lexeme::Token(t)) => out.push((spell_ours(&t.token), t.start, t.end)),
            Ok(Lexeme::ExecutableEnd(_)) => {}
            Err(e) => return Err(e.at),
        }
    }
    Ok(out)
}

fn spell_ours(t: &Token) -> String {
    match t {
        Token::Word(w) if w.quoted => format!("name {}", w.value),
        Token::Word(w) => format!("word {}", w.value),
        Token::Number(n) => format!("number {n}"),
        Token::Str(s) => format!("string {s}"),
        Token::NationalStr(s) => format!("national {s}"),
        Token::Hex(h) => format!("hex {h}"),
        Token::Bit(b) => format!("bit {b}"),
        Token::Other(c) => format!("char {c}"),
        other => format!("{other:?}"),
    }
}

/// sqlparser's tokens in the common spelling (blanks and comments left out), or the
/// error's offset.
fn theirs(sql: &str) -> Result<Vec<Common>, usize> {
    let lines = LineIndex::new(sql);
    let tokens = Tokenizer::new(&MySqlDialect {}, sql)
        .tokenize_with_location()
        .map_err(|e| lines.offset(e.location))?;
    Ok(tokens
        .into_iter()
        .filter(|t| !matches!(t.token, Theirs::Whitespace(_)))
        .map(|t| {
            let (start, end) = (lines.offset(t.span.start), lines.offset(t.span.end));
            (spell_theirs(&t.token), start, end)
        })
        .collect())
}

fn spell_theirs(t: &Theirs) -> String {
    let ours = |t: Token| spell_ours(&t);
    match t {
        Theirs::Word(w) if w.quote_style.is_some() => format!("name {}", w.value),
        Theirs::Word(w) => format!("word {}", w.value),
        Theirs::Number(n, false) => format!("number {n}"),
        Theirs::SingleQuotedString(s) | Theirs::DoubleQuotedString(s) => format!("string {s}"),
        Theirs::NationalStringLiteral(s) => format!("national {s}"),
        Theirs::HexStringLiteral(h) => format!("hex {h}"),
        Theirs::SingleQuotedByteStringLiteral(b) => format!("bit {b}"),
        Theirs::Char(c) => format!("char {c}"),
        Theirs::AtSign => "char @".into(),
        Theirs::LBrace => "char {".into(),
        Theirs::RBrace => "char }".into(),
        Theirs::LBracket => "char [".into(),
        Theirs::RBracket => "char ]".into(),
        Theirs::Backslash => "char \\".into(),
        Theirs::LParen => ours(Token::LParen),
        Theirs::RParen => ours(Token::RParen),
        Theirs::Comma => ours(Token::Comma),
        Theirs::Period => ours(Token::Period),
        Theirs::SemiColon => ours(Token::SemiColon),
        Theirs::Colon => ours(Token::Colon),
        Theirs::Assignment => ours(Token::Assignment),
        Theirs::Eq => ours(Token::Eq),
        Theirs::Neq => ours(Token::Neq),
        Theirs::Lt => ours(Token::Lt),
        Theirs::LtEq => ours(Token::LtEq),
        Theirs::Gt => ours(Token::Gt),
        Theirs::GtEq => ours(Token::GtEq),
        Theirs::Spaceship => ours(Token::Spaceship),
        Theirs::Plus => ours(Token::Plus),
        Theirs::Minus => ours(Token::Minus),
        Theirs::Mul => ours(Token::Mul),
        Theirs::Div => ours(Token::Div),
        Theirs::Mod => ours(Token::Mod),
        Theirs::Pipe => ours(Token::Pipe),
        Theirs::StringConcat => ours(Token::PipePipe),
        Theirs::Ampersand => ours(Token::Ampersand),
        Theirs::Overlap => ours(Token::AmpAmp),
        Theirs::Caret => ours(Token::Caret),
        Theirs::Tilde => ours(Token::Tilde),
        Theirs::ExclamationMark => ours(Token::ExclamationMark),
        Theirs::ShiftLeft => ours(Token::ShiftLeft),
        Theirs::ShiftRight => ours(Token::ShiftRight),
        Theirs::Arrow => ours(Token::Arrow),
        Theirs::LongArrow => ours(Token::LongArrow),
        other => format!("sqlparser {other:?}"),
    }
}

/// Which known difference explains `sql` lexing otherwise, judged from the text
/// and the two lexers' own words.
fn known_difference(sql: &str) -> Option<&'static str> {
    let ours = ours(sql);
    let theirs = theirs(sql);
    let our_spellings: Vec<&str> = ours.iter().flatten().map(|t| t.0.as_str()).collect();
    let their_spellings: Vec<&str> = theirs.iter().flatten().map(|t| t.0.as_str()).collect();
    let digit_word = |w: &&str| {
        w.strip_prefix("word ")
            .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
    };
    if sql.contains("/*!") {
        Some("executable")
    } else if our_spellings.contains(&"Malformed") {
        Some("malformed")
    } else if sql.trim_end().ends_with("--") {
        Some("dash-dash-at-end")
    } else if sql.contains('@') {
        Some("at-sign")
    } else if sql.contains('?') {
        Some("placeholder")
    } else if their_spellings.iter().any(|t| t.starts_with("sqlparser ")) {
        Some("not-mysql-operator")
    } else if sql.chars().any(|c| !c.is_ascii() && c.is_whitespace()) {
        Some("unicode-blank")
    } else if sql.contains("\\a") || sql.contains("\\f") {
        Some("escape")
    } else if ours.is_err() && theirs.is_err() {
        Some("unclosed-position")
    } else if our_spellings.iter().any(digit_word) || their_spellings.iter().any(digit_word) {
        let after_dot = sql.contains('.');
        Some(if after_dot && our_spellings.contains(&"Period") {
            "after-qualifier"
        } else {
            "number-then-word"
        })
    } else if their_spellings.iter().any(|t| t.starts_with("hex ")) {
        Some("number-then-word")
    } else {
        None
    }
}

/// Maps sqlparser's 1-based (line, character column) to a byte offset.
struct LineIndex<'a> {
    sql: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    fn new(sql: &'a str) -> LineIndex<'a> {
        let starts = std::iter::once(0)
            .chain(sql.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { sql, starts }
    }

    fn offset(&self, loc: Location) -> usize {
        let Some(&start) = self.starts.get((loc.line as usize).wrapping_sub(1)) else {
            return self.sql.len();
        };
        let line = &self.sql[start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        start
            + line
                .char_indices()
                .nth((loc.column as usize).saturating_sub(1))
                .map_or(line.len(), |(i, _)| i)
    }
}

/// The statements of the scripts, lessons, SQL golden tests and docs/errors.md,
/// and the lexical edge cases the rules name.
fn corpus() -> Vec<String> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut out = Vec::new();
    for dir in ["assets/scripts", "assets/lessons"] {
        let mut paths: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
            .expect("the assets are there")
            .map(|e| e.expect("a readable directory").path())
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("a readable asset");
            out.extend(text.lines().filter_map(statement_of_line));
        }
    }
    let tests = include_str!("../tests.rs");
    out.extend(tests.lines().filter_map(|l| first_literal(l, "check(")));
    let errors = include_str!("../../../../../docs/errors.md");
    out.extend(errors.lines().filter_map(|l| first_literal(l, "| `")));
    out.extend(EDGES.iter().map(|s| s.to_string()));
    out.retain(|s| !s.is_empty());
    out.dedup();
    out
}

/// A script line's statement (`at 1s s1: SQL`) or a lesson's (`sql = "SQL"`).
fn statement_of_line(line: &str) -> Option<String> {
    if let Some(rest) = line.strip_prefix("at ") {
        return rest.split_once(": ").map(|(_, sql)| sql.to_string());
    }
    let (_, rest) = line.split_once("sql = \"")?;
    let (sql, _) = rest.split_once("\" }").or_else(|| rest.rsplit_once('"'))?;
    Some(sql.replace("\\\"", "\"").replace("\\\\", "\\"))
}

/// The first string literal after `opening` on a line: `"..."` with `\"`, `\\` and
/// `\n` undone, `r#"..."#`, or a Markdown code span.
fn first_literal(line: &str, opening: &str) -> Option<String> {
    let (_, rest) = line.split_once(opening)?;
    if opening.ends_with('`') {
        return rest.split_once("` |").map(|(sql, _)| sql.to_string());
    }
    if let Some(raw) = rest.strip_prefix("r#\"") {
        return raw.split_once("\"#").map(|(sql, _)| sql.to_string());
    }
    let mut chars = rest.strip_prefix('"')?.chars();
    let mut sql = String::new();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(sql),
            '\\' => match chars.next()? {
                'n' => sql.push('\n'),
                't' => sql.push('\t'),
                c => sql.push(c),
            },
            c => sql.push(c),
        }
    }
    None
}

/// Every corpus statement, each of its prefixes at a character boundary, and
/// splices: one statement's head on the next one's tail.
fn variants(corpus: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, sql) in corpus.iter().enumerate() {
        out.push(sql.clone());
        out.extend(sql.char_indices().map(|(at, _)| sql[..at].to_string()));
        let next = &corpus[(i + 1) % corpus.len()];
        for (at, _) in sql.char_indices().step_by(7) {
            let cut = next.char_indices().nth(at % (next.chars().count() + 1));
            let tail = cut.map_or("", |(b, _)| &next[b..]);
            out.push(format!("{}{tail}", &sql[..at]));
        }
    }
    out
}

/// Inputs for each lexical rule, beside the corpus.
const EDGES: &[&str] = &[
    "SELECT `a``b`, 'it''s', \"say \"\"hi\"\"\", 'a\\'b', '\\n\\t\\0\\Z'",
    "SELECT 1 -- comment\n, 2 # another\n, 3 /* block */ + 4",
    "SELECT 1 --, 2",
    "SELECT 0x1F, X'1f', B'101', N'x', _utf8mb4'z', 1.5e3, .5, 1., 1e3",
    "SELECT 1 <=> 2, 1 <> 2, 1 != 2, 1 <= 2, 1 >= 2, 1 << 2, 4 >> 1, 1 || 0, 1 && 1, a := 1",
    "SELECT t.1e5, db.123, 1a, $x, été FROM t",
    "SELECT 1.5x, 0x1G, 1L, 0b01",
    "SELECT @x, @@global.x, @a.b, ?",
    "SELECT 1 == 1, a => b, a::int",
    "SELECT\u{a0}1",
    "SELECT '\\a\\f'",
    "SELECT X'ab",
    "SELECT 1 /* never closed",
    "SELECT 1 --",
    "SELECT 1 /*!50100 + 1 */",
    "SELECT X'123', 1.5e",
];
