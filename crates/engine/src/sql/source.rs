//! The text side: tokens, statement boundaries, and turning a fault's position into
//! MySQL's "near '...' at line N".
//!
//! The whole input is tokenized once with sqlparser's tokenizer (MySQL dialect), so
//! quotes, backquotes, `--`, `#` and `/* */` comments are handled exactly as the
//! parser will see them; statements are then cut at top-level `;` tokens. Each
//! statement keeps its tokens with their positions in the whole input, which lets
//! every error point back into the text.
//!
//! The `mysql` client sends each statement of a pasted batch on its own, without the
//! `;` and without leading blanks, so the server's line numbers and near-text are
//! relative to the statement. We do the same.

use super::error::SqlError;
use sqlparser::dialect::MySqlDialect;
use sqlparser::tokenizer::{Location, Token, TokenWithSpan, Tokenizer, TokenizerError, Whitespace};

/// The dialect every parse uses.
pub(super) static DIALECT: MySqlDialect = MySqlDialect {};

/// How much of the statement MySQL quotes after "near" (`%-.80s`).
const NEAR_CHARS_MAX: usize = 80;

/// The input text with a line index, for mapping token positions to byte offsets.
pub(super) struct Source<'a> {
    sql: &'a str,
    /// Byte offset where each line starts; `line_starts[0] == 0`.
    line_starts: Vec<usize>,
}

/// One statement: its tokens (whitespace and comments inside it included, none
/// around it) and where its text lies in the input.
pub(super) struct Stmt {
    /// The tokens, with positions in the whole input.
    pub tokens: Vec<TokenWithSpan>,
    /// Byte offset of the first token.
    start: usize,
    /// Byte offset just past the last token.
    end: usize,
}

impl Stmt {
    /// The tokens that are not whitespace or comments.
    pub fn significant(&self) -> impl Iterator<Item = (usize, &TokenWithSpan)> {
        self.tokens
            .iter()
            .enumerate()
            .filter(|(_, t)| !matches!(t.token, Token::Whitespace(_)))
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

    /// Splits the input into statements; comment-only and empty statements vanish.
    pub fn statements(&self) -> Result<Vec<Stmt>, SqlError> {
        let (text, closers) = self.open_executable_comments();
        let tokens = Tokenizer::new(&DIALECT, &text)
            .tokenize_with_location()
            .map_err(|e| self.tokenizer_error(&e))?;
        let mut out = Vec::new();
        let mut current = Vec::new();
        for t in tokens {
            if t.token == Token::SemiColon {
                self.push_statement(&mut out, std::mem::take(&mut current), &closers);
            } else {
                current.push(t);
            }
        }
        self.push_statement(&mut out, current, &closers);
        Ok(out)
    }

    /// Adds the statement made of `tokens`, if it has any besides blanks and comments.
    /// `closers` are the `*/` of executable comments: one right after the last token
    /// belongs to the statement's text.
    fn push_statement(
        &self,
        out: &mut Vec<Stmt>,
        mut tokens: Vec<TokenWithSpan>,
        closers: &[usize],
    ) {
        let significant = |t: &TokenWithSpan| !matches!(t.token, Token::Whitespace(_));
        let Some(first) = tokens.iter().position(significant) else {
            return;
        };
        let last = tokens.iter().rposition(significant).unwrap_or(first);
        tokens.truncate(last + 1);
        tokens.drain(..first);
        let start = self.offset(tokens[0].span.start);
        let mut end = self.offset(tokens[tokens.len() - 1].span.end).max(start);
        for &closer in closers {
            if closer >= end && self.sql[end..closer].trim().is_empty() {
                end = closer + 2;
            }
        }
        out.push(Stmt { tokens, start, end });
    }

    /// The input with the markers of MySQL's executable comments blanked out:
    /// `/*!50100 PARTITION BY ... */` becomes `         PARTITION BY ...   `, which
    /// is how the server reads it. SHOW CREATE TABLE prints partitioning this way.
    ///
    /// sqlparser expands these comments itself, but places the tokens inside them as
    /// if the `/*!50100` were not there, which would cut statement texts short and
    /// misplace errors. Blanking keeps every byte where it was. The comments are
    /// found by the tokenizer, on a copy where `/*!` reads `/* `, so quotes and other
    /// comments are respected.
    ///
    /// Simplification: the version number is ignored; the content always runs.
    /// Returns the text and where each blanked `*/` starts.
    fn open_executable_comments(&self) -> (std::borrow::Cow<'a, str>, Vec<usize>) {
        if !self.sql.contains("/*!") {
            return (self.sql.into(), Vec::new());
        }
        let probe = self.sql.replace("/*!", "/* ");
        let Ok(tokens) = Tokenizer::new(&DIALECT, &probe).tokenize_with_location() else {
            return (self.sql.into(), Vec::new());
        };
        let mut text = self.sql.as_bytes().to_vec();
        let mut closers = Vec::new();
        for t in tokens {
            let Token::Whitespace(Whitespace::MultiLineComment(_)) = t.token else {
                continue;
            };
            let (start, end) = (self.offset(t.span.start), self.offset(t.span.end));
            let comment = &self.sql[start..end];
            if !comment.starts_with("/*!") || !comment.ends_with("*/") || comment.len() < 5 {
                continue;
            }
            let version_len = comment[3..].bytes().take_while(u8::is_ascii_digit).count();
            text[start..start + 3 + version_len].fill(b' ');
            text[end - 2..end].fill(b' ');
            closers.push(end - 2);
        }
        // Only ASCII bytes were replaced by ASCII spaces.
        match String::from_utf8(text) {
            Ok(text) => (text.into(), closers),
            Err(_) => (self.sql.into(), Vec::new()),
        }
    }

    /// The statement's text.
    pub fn text(&self, stmt: &Stmt) -> &'a str {
        &self.sql[stmt.start..stmt.end]
    }

    /// The byte offset of a tokenizer position (1-based line and character column);
    /// positions past the end clamp to the end.
    fn offset(&self, loc: Location) -> usize {
        let Some(&line_start) = self.line_starts.get((loc.line as usize).wrapping_sub(1)) else {
            return self.sql.len();
        };
        let line = &self.sql[line_start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        line_start
            + line
                .char_indices()
                .nth((loc.column as usize).saturating_sub(1))
                .map_or(line.len(), |(i, _)| i)
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

    /// MySQL's 1064 for a fault at `at` in `stmt` (the token where the grammar
    /// stopped); a fault at the end of the statement (`None`) is near ''.
    pub fn syntax_error(&self, stmt: &Stmt, at: Option<Location>) -> SqlError {
        let offset = at.map_or(stmt.end, |loc| self.offset(loc));
        self.syntax_at(stmt.start, offset, stmt.end)
    }

    /// MySQL's 1064 for text the tokenizer cannot read (an unclosed quote): near the
    /// fault, up to the end of the input, since the quote swallowed the rest.
    fn tokenizer_error(&self, e: &TokenizerError) -> SqlError {
        let offset = self.offset(e.location);
        // The statement starts after the last `;` before the fault.
        let start = Tokenizer::new(&DIALECT, &self.sql[..offset])
            .tokenize_with_location()
            .ok()
            .and_then(|tokens| {
                let from = tokens
                    .iter()
                    .rposition(|t| t.token == Token::SemiColon)
                    .map_or(0, |i| i + 1);
                tokens[from..]
                    .iter()
                    .find(|t| !matches!(t.token, Token::Whitespace(_)))
                    .map(|t| self.offset(t.span.start))
            })
            .unwrap_or(offset);
        self.syntax_at(start, offset, self.sql.trim_end().len().max(offset))
    }
}
