//! The token cursor every grammar rule reads through: the statement's tokens, one lookahead, words matched case-insensitively (never backquoted names),
//! and syntax errors positioned at the token where reading stopped.

use super::super::lexer::{Spanned, Token};
use super::super::source::Stmt;
use super::super::{Error, Result, SqlError};
use super::keywords::is_reserved;

/// A cursor over one statement's tokens.
pub(in crate::sql) struct Cursor<'s> {
    stmt: &'s Stmt<'s>,
    /// The statement's tokens before the first [`Token::Malformed`], if any.
    tokens: &'s [Spanned],
    /// Where that [`Token::Malformed`] starts: MySQL's parser stops at it (its
    /// `ABORT_SYM`), so to the grammar the statement ends there, and an error at the
    /// end, or a statement complete before it, is a syntax error at it.
    malformed: Option<usize>,
    /// The next token.
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
    pub fn new(stmt: &'s Stmt<'s>) -> Cursor<'s> {
        let malformed = stmt.tokens.iter().position(|t| t.token == Token::Malformed);
        Cursor {
            stmt,
            tokens: &stmt.tokens[..malformed.unwrap_or(stmt.tokens.len())],
            malformed: malformed.map(|i| stmt.tokens[i].start),
            pos: 0,
            deferred: None,
            depth: 0,
        }
    }

    /// The `n`th token ahead (`Token::Eof` past the end).
    pub fn peek_nth(&self, n: usize) -> &'s Token {
        static EOF: Token = Token::Eof;
        match self.tokens.get(self.pos + n) {
            Some(t) => &t.token,
            None => &EOF,
        }
    }

    pub fn peek(&self) -> &'s Token {
        self.peek_nth(0)
    }

    /// Takes the next token.
    pub fn next(&mut self) -> &'s Token {
        let t = self.peek();
        if self.pos < self.tokens.len() {
            self.pos += 1;
        }
        t
    }

    /// Whether the `n`th token ahead follows the one before it with nothing
    /// between (`1.5` and `G` in `1.5G`).
    pub fn touches_previous(&self, n: usize) -> bool {
        let at = self.pos + n;
        match (
            at.checked_sub(1).and_then(|i| self.tokens.get(i)),
            self.tokens.get(at),
        ) {
            (Some(before), Some(t)) => before.end == t.start,
            _ => false,
        }
    }

    /// The next token's text as written; empty at the end.
    pub fn peek_text(&self) -> &'s str {
        self.tokens
            .get(self.pos)
            .map_or("", |t| self.stmt.text_of(t))
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.tokens.len()
    }

    /// Where the cursor is, to come back to or to take text from.
    pub fn mark(&self) -> usize {
        self.pos
    }

    pub fn reset(&mut self, mark: usize) {
        self.pos = mark;
    }

    /// The next token's byte offset; at the end, the malformed token's, else `None`
    /// (the end of the statement).
    pub fn location(&self) -> Option<usize> {
        self.tokens
            .get(self.pos)
            .map(|t| t.start)
            .or(self.malformed)
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
        if !self.at_end() || self.malformed.is_some() {
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
            Token::Word(w) if w.quoted || !is_reserved(&w.value) => {
                let name = w.value.clone();
                self.next();
                Ok(name)
            }
            _ => Err(self.error()),
        }
    }

    /// Whether the next token can start an identifier.
    pub fn at_ident(&self) -> bool {
        matches!(self.peek(), Token::Word(w) if w.quoted || !is_reserved(&w.value))
    }

    /// An unsigned integer literal.
    pub fn number(&mut self) -> Result<u64> {
        match self.peek() {
            Token::Number(text) => match text.parse() {
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
            Token::Str(s) => {
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
                Token::Eof => return Err(self.error()),
                _ => {}
            }
        }
        Ok(())
    }

    /// The text of the tokens from `from` up to the cursor, as written, each run of
    /// blanks and comments between them read as one space.
    pub fn text_since(&self, from: usize) -> String {
        let Some(taken) = self.tokens.get(from..self.pos) else {
            return String::new();
        };
        let mut out = String::new();
        let mut prev_end = None;
        for t in taken {
            if prev_end.is_some_and(|end| end < t.start) {
                out.push(' ');
            }
            out.push_str(self.stmt.text_of(t));
            prev_end = Some(t.end);
        }
        out
    }
}

/// A bare word, upper-cased; empty for anything else (backquoted names included).
pub(in crate::sql) fn word_upper(t: &Token) -> String {
    match t {
        Token::Word(w) if !w.quoted => w.value.to_ascii_uppercase(),
        _ => String::new(),
    }
}
