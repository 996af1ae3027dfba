//! The lexer: SQL text in, [`Token`]s with their byte spans out, by MySQL's
//! lexical rules as MariaDB 10.11 and MySQL 8 read them (`sql/sql_lex.cc`,
//! `MYSQLlex()` and its `MY_LEX_*` states).
//!
//! ```text
//!  "SELECT `a``b`, 'it''s' /*!50100 + 1 */ -- done"
//!   ├─────┘ ├────┘  ├─────┘ ├──────┘ │ │ └┘ ├─────┘
//!   Word    Word    Str     blank    + 1 blank comment
//!           (quoted)        (marker)        (closer: ExecutableEnd)
//! ```
//!
//! The rules, each in the function named after it:
//! - blanks are space, tab, newline, carriage return, vertical tab and form feed;
//!   `#` and `-- ` start a comment to the end of the line (`--` only when a blank, a
//!   control character or the end of the input follows); `/* ... */` does not nest;
//!   an unclosed one is a 1064 near the `/*` (MariaDB: near '/* ...');
//! - `/*!` and `/*!50100` open an *executable comment*, whose text is read as SQL
//!   (SHOW CREATE TABLE prints partitioning so); its `*/` is handed on as
//!   [`Lexeme::ExecutableEnd`], so that the statement text can take it in, and an
//!   unclosed one is a 1064 at the end of the input;
//! - words ([`scan::word`]): `[A-Za-z0-9_$]` and every non-ASCII byte (MySQL's
//!   `ident_map`), so `1a`, `$x` and `été` are names; a word right after `name.` is
//!   always a name (`t.1e5`, `db.order`); `@x` and `@@x` are one word;
//! - backquoted names with doubled backquotes; strings in single or double quotes
//!   with backslash escapes and doubled quotes; `N'..'`, `X'..'`, `B'..'`;
//! - numbers ([`scan::number`]): `5`, `1.5`, `.5`, `1e3`, `1.5E-3`; `0x1F` and
//!   `0b101` (lower-case `x` and `b` only); `1e`, `0x1G` are names, as in MySQL;
//! - operators ([`operator`]), longest first: `<=>`, `<=`, `<>`, `<<`, `>=`, `>>`,
//!   `!=`, `:=`, `||`, `&&`, `->>`, `->`.
//!
//! An unclosed quote is a 1064 near the quote, to the end of the input (the `mysql`
//! client would have sent the rest of the input with it). What MySQL's lexer reads
//! as `ABORT_SYM` (a hex literal of odd length, `1.5e`) is [`Token::Malformed`],
//! which no grammar rule takes, so the error is near it as the server's is.
//!
//! Everything is read on bytes: every byte the rules stop at is ASCII, so every
//! span starts and ends on a character boundary of the `&str` it came from.
//!
//! Simplification: the version number of `/*!50100` is not compared with the
//! server's (the content always runs); MariaDB's own `/*M!` comments are plain
//! comments; `NO_BACKSLASH_ESCAPES`, `ANSI_QUOTES` and `PIPES_AS_CONCAT` are off.

#[cfg(test)]
mod differential;
mod operator;
mod scan;
#[cfg(test)]
mod tests;
mod token;

pub(in crate::sql) use token::{Spanned, Token, Word};

/// What the lexer gives: a token, or where an executable comment's `*/` was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sql) enum Lexeme {
    Token(Spanned),
    /// The `*/` closing a `/*!` comment, at this byte offset.
    ExecutableEnd(usize),
}

/// Text the lexer cannot read (an unclosed quote or comment): MySQL's 1064 near
/// the byte offset `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sql) struct LexError {
    pub at: usize,
}

/// The lexer over one input: an iterator of lexemes that stops after an error.
#[derive(Debug)]
pub(in crate::sql) struct Lexer<'a> {
    sql: &'a str,
    pos: usize,
    /// Inside a `/*!` comment: its `*/` ends it.
    executable: bool,
    /// The last token was `name.`: the next word is a name whatever it spells.
    after_qualifier: bool,
    failed: bool,
}

impl<'a> Lexer<'a> {
    pub fn new(sql: &'a str) -> Lexer<'a> {
        Lexer {
            sql,
            pos: 0,
            executable: false,
            after_qualifier: false,
            failed: false,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.sql.as_bytes()
    }

    /// The byte `n` ahead of the position; 0 past the end, as MySQL's buffer reads.
    fn peek(&self, n: usize) -> u8 {
        self.bytes().get(self.pos + n).copied().unwrap_or(0)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.sql.len()
    }

    /// Skips blanks and comments; stops at a token, an executable comment's end or
    /// the end of the input.
    fn skip_blanks(&mut self) -> Result<(), LexError> {
        while !self.at_end() {
            match (self.peek(0), self.peek(1)) {
                (b, _) if is_blank(b) => self.pos += 1,
                (b'#', _) => self.line_comment(),
                (b'-', b'-') if is_control(self.peek(2)) => self.line_comment(),
                (b'/', b'*') if self.peek(2) == b'!' => self.open_executable(),
                (b'/', b'*') => self.block_comment()?,
                _ => break,
            }
        }
        Ok(())
    }

    /// `# ...` or `-- ...` up to the end of the line.
    fn line_comment(&mut self) {
        let rest = &self.bytes()[self.pos..];
        self.pos += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    }

    /// `/* ... */`, not nested; unclosed, a 1064 near its `/*`.
    fn block_comment(&mut self) -> Result<(), LexError> {
        let start = self.pos;
        match find(&self.bytes()[start + 2..], b"*/") {
            Some(i) => {
                self.pos = start + 2 + i + 2;
                Ok(())
            }
            None => Err(LexError { at: start }),
        }
    }

    /// `/*!` and its version digits: read on as SQL until the `*/`. One inside
    /// another is skipped the same way, and the first `*/` ends both (MariaDB
    /// 10.11: `SELECT 1 /*! + /*!50000 2 */` is 3).
    fn open_executable(&mut self) {
        self.pos += 3;
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        self.executable = true;
    }

    /// The next lexeme, after blanks and comments; `None` at the end.
    fn next_lexeme(&mut self) -> Result<Option<Lexeme>, LexError> {
        self.skip_blanks()?;
        if self.at_end() {
            if self.executable {
                return Err(LexError { at: self.sql.len() });
            }
            return Ok(None);
        }
        if self.executable && self.peek(0) == b'*' && self.peek(1) == b'/' {
            self.executable = false;
            self.after_qualifier = false;
            self.pos += 2;
            return Ok(Some(Lexeme::ExecutableEnd(self.pos - 2)));
        }
        let start = self.pos;
        let token = self.token()?;
        let spanned = Spanned {
            token,
            start,
            end: self.pos,
        };
        self.after_qualifier = spanned.token == Token::Period
            && is_ident_byte(self.peek(0))
            && is_ident_byte(self.bytes()[start.saturating_sub(1)]);
        Ok(Some(Lexeme::Token(spanned)))
    }

    /// Whether the byte before the position ends a word: `t.5` is a name's dot,
    /// not a number.
    fn follows_word(&self) -> bool {
        self.pos > 0 && is_ident_byte(self.bytes()[self.pos - 1])
    }

    /// The token at the position, which is neither blank nor comment.
    fn token(&mut self) -> Result<Token, LexError> {
        let b = self.peek(0);
        if self.after_qualifier && is_ident_byte(b) {
            return Ok(self.word());
        }
        match b {
            b'.' if self.follows_word() => {
                self.pos += 1;
                Ok(Token::Period)
            }
            b'\'' | b'"' => self.string(),
            b'`' => self.backquoted(),
            b'0'..=b'9' => Ok(self.number()),
            b'.' if self.peek(1).is_ascii_digit() => Ok(self.number()),
            b'x' | b'X' | b'b' | b'B' | b'n' | b'N' if self.peek(1) == b'\'' => {
                self.prefixed_literal()
            }
            b'@' => Ok(self.variable()),
            b if is_ident_byte(b) => Ok(self.word()),
            _ => Ok(self.operator()),
        }
    }
}

impl Iterator for Lexer<'_> {
    type Item = Result<Lexeme, LexError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let next = self.next_lexeme();
        self.failed = next.is_err();
        next.transpose()
    }
}

/// MySQL's blanks (`my_isspace` on ASCII).
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// What may follow `--` in a comment: a blank or a control character.
fn is_control(b: u8) -> bool {
    is_blank(b) || b < 0x20 || b == 0x7f
}

/// MySQL's `ident_map`: letters, digits, `_`, `$` and every byte of a non-ASCII
/// character.
fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The first offset of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}
