//! The token cursor every grammar rule reads through: the statement's significant
//! tokens, one lookahead, words matched case-insensitively (never backquoted names),
//! and syntax errors positioned at the token where reading stopped.

use super::super::source::Stmt;
use super::super::{Error, Result, SqlError};
use sqlparser::tokenizer::{Location, Token, TokenWithSpan};

/// A cursor over one statement's tokens.
pub(in crate::sql) struct Cursor<'s> {
    /// Every token of the statement, blanks and comments included (for texts).
    raw: &'s [TokenWithSpan],
    /// Indexes into `raw` of the significant tokens.
    significant: Vec<usize>,
    /// The next significant token.
    pos: usize,
    /// A well-formed statement's first not-modelled part, reported once the whole
    /// statement has parsed (MySQL reports syntax before anything else).
    deferred: Option<SqlError>,
    /// How deeply expressions nest here, against [`NESTING_MAX`].
    depth: usize,
}

/// How deeply expressions may nest (`((((1))))`, `- - 1`, `NOT NOT x`) before the
/// statement is refused, as sqlparser's parser refused past 50 levels: a 1064 near
/// the end, never an exhausted stack.
const NESTING_MAX: usize = 64;

impl<'s> Cursor<'s> {
    pub fn new(stmt: &'s Stmt) -> Cursor<'s> {
        let significant = stmt.significant().map(|(i, _)| i).collect();
        Cursor {
            raw: &stmt.tokens,
            significant,
            pos: 0,
            deferred: None,
            depth: 0,
        }
    }

    /// The `n`th significant token ahead (`Token::EOF` past the end).
    pub fn peek_nth(&self, n: usize) -> &'s Token {
        static EOF: Token = Token::EOF;
        match self.significant.get(self.pos + n) {
            Some(&i) => &self.raw[i].token,
            None => &EOF,
        }
    }

    pub fn peek(&self) -> &'s Token {
        self.peek_nth(0)
    }

    /// Takes the next token.
    pub fn next(&mut self) -> &'s Token {
        let t = self.peek();
        if self.pos < self.significant.len() {
            self.pos += 1;
        }
        t
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.significant.len()
    }

    /// Where the cursor is, to come back to or to take text from.
    pub fn mark(&self) -> usize {
        self.pos
    }

    pub fn reset(&mut self, mark: usize) {
        self.pos = mark;
    }

    /// The next token's position; `None` at the end of the statement.
    pub fn location(&self) -> Option<Location> {
        self.significant
            .get(self.pos)
            .map(|&i| self.raw[i].span.start)
    }

    /// The `n`th upper-cased word ahead; empty for anything else.
    pub fn word_at(&self, n: usize) -> String {
        word_upper(self.peek_nth(n))
    }

    pub fn peek_word(&self) -> String {
        self.word_at(0)
    }

    /// Takes the word `w` if it is next.
    pub fn word(&mut self, w: &str) -> bool {
        let hit = self.peek_word() == w;
        if hit {
            self.next();
        }
        hit
    }

    /// Takes the words `ws` if they are all next, else nothing.
    pub fn words(&mut self, ws: &[&str]) -> bool {
        let all = ws.iter().enumerate().all(|(i, w)| self.word_at(i) == *w);
        if all {
            self.pos += ws.len();
        }
        all
    }

    /// Takes the word `w`, or fails near what is there instead.
    pub fn expect_word(&mut self, w: &str) -> Result<()> {
        if self.word(w) {
            Ok(())
        } else {
            Err(self.error())
        }
    }

    /// Takes `t` if it is next.
    pub fn token(&mut self, t: &Token) -> bool {
        let hit = self.peek() == t;
        if hit {
            self.next();
        }
        hit
    }

    pub fn expect(&mut self, t: &Token) -> Result<()> {
        if self.token(t) {
            Ok(())
        } else {
            Err(self.error())
        }
    }

    /// Takes the `=` of `ENGINE [=] x`, if written.
    pub fn optional_eq(&mut self) {
        self.token(&Token::Eq);
    }

    /// A syntax error at the next token: MySQL's parser stops there.
    pub fn error(&self) -> Error {
        Error::Syntax(self.location())
    }

    /// Fails near whatever follows a complete statement; else the deferred error.
    pub fn finish(&mut self) -> Result<()> {
        if !self.at_end() {
            return Err(self.error());
        }
        match self.deferred.take() {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }

    /// Records a part of a well-formed statement the simulator does not model; the
    /// first one is the statement's error if the rest parses.
    pub fn defer(&mut self, e: SqlError) {
        self.deferred.get_or_insert(e);
    }

    /// Runs `rule` one nesting level deeper; past [`NESTING_MAX`] a syntax error.
    pub fn nested<T>(&mut self, rule: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= NESTING_MAX {
            return Err(Error::Syntax(None));
        }
        self.depth += 1;
        let out = rule(self);
        self.depth -= 1;
        out
    }

    /// An identifier: a bare word that is not reserved, or a quoted name.
    pub fn ident(&mut self) -> Result<String> {
        match self.peek() {
            Token::Word(w) if w.quote_style.is_some() || !is_reserved(&w.value) => {
                let name = w.value.clone();
                self.next();
                Ok(name)
            }
            _ => Err(self.error()),
        }
    }

    /// Whether the next token can start an identifier.
    pub fn at_ident(&self) -> bool {
        matches!(self.peek(), Token::Word(w) if w.quote_style.is_some() || !is_reserved(&w.value))
    }

    /// An unsigned integer literal.
    pub fn number(&mut self) -> Result<u64> {
        match self.peek() {
            Token::Number(text, _) => match text.parse() {
                Ok(n) => {
                    self.next();
                    Ok(n)
                }
                Err(_) => Err(self.error()),
            },
            _ => Err(self.error()),
        }
    }

    /// A string literal's value.
    pub fn string(&mut self) -> Result<String> {
        match self.peek() {
            Token::SingleQuotedString(s) | Token::DoubleQuotedString(s) => {
                let s = s.clone();
                self.next();
                Ok(s)
            }
            _ => Err(self.error()),
        }
    }

    /// Skips a parenthesised group, the cursor on its `(`; fails if it never closes.
    pub fn skip_group(&mut self) -> Result<()> {
        self.expect(&Token::LParen)?;
        let mut depth = 1;
        while depth > 0 {
            match self.next() {
                Token::LParen => depth += 1,
                Token::RParen => depth -= 1,
                Token::EOF => return Err(self.error()),
                _ => {}
            }
        }
        Ok(())
    }

    /// The text of the tokens from `from` up to the cursor, each run of blanks and
    /// comments read as one space.
    pub fn text_since(&self, from: usize) -> String {
        if from >= self.pos {
            return String::new();
        }
        let (Some(&first), Some(&last)) = (
            self.significant.get(from),
            self.significant.get(self.pos - 1),
        ) else {
            return String::new();
        };
        let mut out = String::new();
        for t in &self.raw[first..=last] {
            match &t.token {
                Token::Whitespace(_) if out.ends_with(' ') => {}
                Token::Whitespace(_) => out.push(' '),
                tok => out.push_str(&tok.to_string()),
            }
        }
        out
    }
}

/// A bare word, upper-cased; empty for anything else (backquoted names included).
pub(in crate::sql) fn word_upper(t: &Token) -> String {
    match t {
        Token::Word(w) if w.quote_style.is_none() => w.value.to_ascii_uppercase(),
        _ => String::new(),
    }
}

/// MySQL's reserved words that the statements here could meet where a name may be:
/// they end a list or start a clause, so they are never taken as a name unquoted.
const RESERVED: &[&str] = &[
    "ADD",
    "ALL",
    "ALTER",
    "AND",
    "AS",
    "ASC",
    "BETWEEN",
    "BY",
    "CASE",
    "CHANGE",
    "CHECK",
    "COLLATE",
    "COLUMN",
    "CONSTRAINT",
    "CREATE",
    "CROSS",
    "DEFAULT",
    "DELETE",
    "DESC",
    "DISTINCT",
    "DIV",
    "DROP",
    "ELSE",
    "END",
    "EXISTS",
    "FOR",
    "FORCE",
    "FOREIGN",
    "FROM",
    "FULLTEXT",
    "GROUP",
    "HAVING",
    "IGNORE",
    "IN",
    "INDEX",
    "INNER",
    "INSERT",
    "INTERVAL",
    "INTO",
    "IS",
    "JOIN",
    "KEY",
    "KEYS",
    "KILL",
    "LEFT",
    "LIKE",
    "LIMIT",
    "LOCK",
    "MOD",
    "NATURAL",
    "NOT",
    "NULL",
    "ON",
    "OR",
    "ORDER",
    "OUTER",
    "PARTITION",
    "PRIMARY",
    "REFERENCES",
    "REGEXP",
    "RENAME",
    "RIGHT",
    "RLIKE",
    "SELECT",
    "SET",
    "SHOW",
    "SPATIAL",
    "STRAIGHT_JOIN",
    "TABLE",
    "THEN",
    "TO",
    "UNION",
    "UNIQUE",
    "UPDATE",
    "USE",
    "USING",
    "VALUES",
    "WHEN",
    "WHERE",
    "WINDOW",
    "WITH",
    "XOR",
];

/// Whether `word` (unquoted) is reserved.
pub(in crate::sql) fn is_reserved(word: &str) -> bool {
    RESERVED.iter().any(|r| r.eq_ignore_ascii_case(word))
}
