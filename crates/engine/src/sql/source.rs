//! The text side: tokens, statement boundaries, and turning a fault's position into
//! MySQL's "near '...' at line N".
//!
//! The whole input is read once by the [`lexer`](super::lexer), so quotes,
//! backquotes, `--`, `#`, `/* */` and executable comments are handled exactly as
//! the grammar will see them; statements are then cut at top-level `;` tokens. Each
//! statement keeps its tokens with their byte spans in the whole input, which lets
//! every error point back into the text.
//!
//! The `mysql` client sends each statement of a pasted batch on its own, without the
//! `;` and without leading blanks, so the server's line numbers and near-text are
//! relative to the statement. We do the same.

use super::error::SqlError;
use super::lexer::{LexError, Lexeme, Lexer, Spanned, Token};

/// How much of the statement MySQL quotes after "near" (`%-.80s`).
const NEAR_CHARS_MAX: usize = 80;

/// The input text with a line index, for MySQL's "at line N".
pub(super) struct Source<'a> {
    sql: &'a str,
    /// Byte offset where each line starts; `line_starts[0] == 0`.
    line_starts: Vec<usize>,
}

/// One statement: its tokens (blanks and comments are the gaps between them) and
/// where its text lies in the input.
pub(super) struct Stmt<'a> {
    /// The whole input the token spans point into.
    sql: &'a str,
    /// The tokens, with byte spans in the whole input.
    pub tokens: Vec<Spanned>,
    /// Byte offset of the first token.
    start: usize,
    /// Byte offset just past the last token (or the `*/` of an executable comment
    /// right after it).
    end: usize,
}

impl<'a> Stmt<'a> {
    /// The text `t` was read from, as written.
    pub fn text_of(&self, t: &Spanned) -> &'a str {
        &self.sql[t.start..t.end]
    }
}

impl<'a> Source<'a> {
    /// Indexes `sql`.
    pub fn new(sql: &'a str) -> Source<'a> {
        let line_starts = std::iter::once(0)
            .chain(sql.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Source { sql, line_starts }
    }

    /// Splits the input into statements at top-level `;`; empty statements (blanks
    /// and comments only) vanish. An executable comment's `*/` right after a
    /// statement's last token belongs to its text (SHOW CREATE TABLE's partitioning
    /// ends so).
    pub fn statements(&self) -> Result<Vec<Stmt<'a>>, SqlError> {
        let mut out = Vec::new();
        let mut current = Vec::new();
        let mut end = 0;
        for lexeme in Lexer::new(self.sql) {
            match lexeme.map_err(|e| self.lex_error(e, &current))? {
                Lexeme::Token(t) if t.token == Token::SemiColon => {
                    self.push_statement(&mut out, std::mem::take(&mut current), end);
                }
                Lexeme::Token(t) => {
                    end = t.end;
                    current.push(t);
                }
                Lexeme::ExecutableEnd(closer) => {
                    if !current.is_empty() && self.sql[end..closer].trim().is_empty() {
                        end = closer + 2;
                    }
                }
            }
        }
        self.push_statement(&mut out, current, end);
        Ok(out)
    }

    /// The whole input as one statement, its `;` tokens kept (one query a client
    /// sends, as a compound `BEGIN ... END` body needs); `None` if it is empty. A
    /// trailing `;` is dropped, as the server ignores it.
    pub fn one_statement(&self) -> Result<Option<Stmt<'a>>, SqlError> {
        let mut current = Vec::new();
        let mut end = 0;
        for lexeme in Lexer::new(self.sql) {
            match lexeme.map_err(|e| self.lex_error(e, &current))? {
                Lexeme::Token(t) => {
                    end = t.end;
                    current.push(t);
                }
                Lexeme::ExecutableEnd(closer) => {
                    if !current.is_empty() && self.sql[end..closer].trim().is_empty() {
                        end = closer + 2;
                    }
                }
            }
        }
        if current.last().is_some_and(|t| t.token == Token::SemiColon) {
            current.pop();
            end = current.last().map_or(0, |t| t.end);
        }
        let mut out = Vec::new();
        self.push_statement(&mut out, current, end);
        Ok(out.pop())
    }

    /// Adds the statement made of `tokens` and ending at `end`, if it has any.
    fn push_statement(&self, out: &mut Vec<Stmt<'a>>, tokens: Vec<Spanned>, end: usize) {
        let Some(first) = tokens.first() else {
            return;
        };
        let start = first.start;
        out.push(Stmt {
            sql: self.sql,
            tokens,
            start,
            end: end.max(start),
        });
    }

    /// The statement's text.
    pub fn text(&self, stmt: &Stmt) -> &'a str {
        &self.sql[stmt.start..stmt.end]
    }

    /// The 1-based line of a byte offset.
    fn line_of(&self, offset: usize) -> u64 {
        self.line_starts.partition_point(|&s| s <= offset) as u64
    }

    /// MySQL's 1064 for a fault at `offset` in a statement starting at `start` and
    /// ending at `end`.
    fn syntax_at(&self, start: usize, offset: usize, end: usize) -> SqlError {
        let offset = offset.clamp(start, end);
        let near: String = self.sql[offset..end].chars().take(NEAR_CHARS_MAX).collect();
        let line = self.line_of(offset) - self.line_of(start) + 1;
        SqlError::syntax(near.trim_end(), line)
    }

    /// MySQL's 1064 for a fault at byte `at` in `stmt` (the token where the
    /// grammar stopped); a fault at the end of the statement (`None`) is near ''.
    pub fn syntax_error(&self, stmt: &Stmt, at: Option<usize>) -> SqlError {
        self.syntax_at(stmt.start, at.unwrap_or(stmt.end), stmt.end)
    }

    /// MySQL's 1064 for text the lexer cannot read (an unclosed quote or comment):
    /// near the fault, up to the end of the input, since the quote swallowed the
    /// rest. `current` are the tokens of the statement read so far.
    fn lex_error(&self, e: LexError, current: &[Spanned]) -> SqlError {
        let start = current.first().map_or(e.at, |t| t.start);
        self.syntax_at(start, e.at, self.sql.trim_end().len().max(e.at))
    }
}
