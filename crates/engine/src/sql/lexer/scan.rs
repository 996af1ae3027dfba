//! The lexer's rules for words, names, strings and numbers (MySQL's `MY_LEX_IDENT`,
//! `MY_LEX_USER_VARIABLE_DELIMITER`, `MY_LEX_STRING`, `MY_LEX_NUMBER_IDENT`,
//! `MY_LEX_INT_OR_REAL`, `MY_LEX_REAL`, `MY_LEX_HEX_NUMBER`, `MY_LEX_BIN_NUMBER`).

use super::{is_ident_byte, LexError, Lexer, Token, Word};

impl Lexer<'_> {
    /// Takes bytes while `keep` holds; returns how many.
    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> usize {
        let from = self.pos;
        while !self.at_end() && keep(self.peek(0)) {
            self.pos += 1;
        }
        self.pos - from
    }

    /// An unquoted word from the position: a keyword or a name.
    pub(super) fn word(&mut self) -> Token {
        let start = self.pos;
        self.take_while(is_ident_byte);
        unquoted(&self.sql[start..self.pos])
    }

    /// `@name` (a user variable, whose name may hold dots, as MariaDB reads
    /// `@a.b`) or `@@name` (a system variable) as one word; a lone `@` is itself.
    pub(super) fn variable(&mut self) -> Token {
        let start = self.pos;
        let system = self.peek(1) == b'@';
        let name_at = if system { 2 } else { 1 };
        if !is_ident_byte(self.peek(name_at)) {
            self.pos += 1;
            return Token::Other('@');
        }
        self.pos += name_at;
        if system {
            self.take_while(is_ident_byte);
        } else {
            self.take_while(|b| is_ident_byte(b) || b == b'.');
        }
        unquoted(&self.sql[start..self.pos])
    }

    /// `` `name` ``, a doubled backquote standing for one; unclosed, a 1064 near
    /// the opening backquote.
    pub(super) fn backquoted(&mut self) -> Result<Token, LexError> {
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        loop {
            let rest = &self.sql[self.pos..];
            let Some(close) = rest.find('`') else {
                return Err(LexError { at: start });
            };
            value.push_str(&rest[..close]);
            self.pos += close + 1;
            if self.peek(0) != b'`' {
                break;
            }
            value.push('`');
            self.pos += 1;
        }
        Ok(Token::Word(Word {
            value,
            quoted: true,
        }))
    }

    /// `'text'` or `"text"`, the cursor on the quote.
    pub(super) fn string(&mut self) -> Result<Token, LexError> {
        let start = self.pos;
        self.quoted_text(start).map(Token::Str)
    }

    /// The text of the quoted string whose quote is at the position, escapes and
    /// doubled quotes undone; unclosed, a 1064 near `error_at`.
    fn quoted_text(&mut self, error_at: usize) -> Result<String, LexError> {
        let quote = self.peek(0);
        self.pos += 1;
        let mut value = String::new();
        loop {
            let rest = &self.bytes()[self.pos..];
            let Some(stop) = rest.iter().position(|&b| b == quote || b == b'\\') else {
                return Err(LexError { at: error_at });
            };
            value.push_str(&self.sql[self.pos..self.pos + stop]);
            self.pos += stop;
            match self.peek(0) {
                b'\\' => {
                    if self.pos + 1 >= self.sql.len() {
                        return Err(LexError { at: error_at });
                    }
                    self.pos += 1;
                    self.escape(&mut value);
                }
                _ if self.peek(1) == quote => {
                    value.push(char::from(quote));
                    self.pos += 2;
                }
                _ => {
                    self.pos += 1;
                    return Ok(value);
                }
            }
        }
    }

    /// The character after a backslash, the cursor on it (MySQL's escapes: `\0`,
    /// `\b`, `\n`, `\r`, `\t`, `\Z`; `\%` and `\_` keep their backslash for LIKE;
    /// any other character stands for itself).
    fn escape(&mut self, value: &mut String) {
        let Some(c) = self.sql[self.pos..].chars().next() else {
            return;
        };
        self.pos += c.len_utf8();
        match c {
            '0' => value.push('\0'),
            'b' => value.push('\u{8}'),
            'n' => value.push('\n'),
            'r' => value.push('\r'),
            't' => value.push('\t'),
            'Z' => value.push('\u{1a}'),
            '%' | '_' => {
                value.push('\\');
                value.push(c);
            }
            c => value.push(c),
        }
    }

    /// `N'text'`, `X'1F'`, `B'101'` (either case), the cursor on the letter. A hex
    /// literal of odd length or with other characters, or a bit literal with other
    /// digits than 0 and 1, is [`Token::Malformed`] (the server's `ABORT_SYM`).
    pub(super) fn prefixed_literal(&mut self) -> Result<Token, LexError> {
        let start = self.pos;
        let prefix = self.peek(0).to_ascii_uppercase();
        self.pos += 1;
        let text = self.quoted_text(start)?;
        let raw = &self.sql[start + 2..self.pos - 1];
        Ok(match prefix {
            b'N' => Token::NationalStr(text),
            b'X' if raw.len().is_multiple_of(2) && raw.bytes().all(|b| b.is_ascii_hexdigit()) => {
                Token::Hex(raw.to_string())
            }
            b'B' if raw.bytes().all(|b| b == b'0' || b == b'1') => Token::Bit(raw.to_string()),
            _ => Token::Malformed,
        })
    }

    /// A token starting with a digit, or `.` and a digit: a number, `0x..`/`0b..`,
    /// or a name that starts with digits (`1a`, `1e`, `0x1G`).
    pub(super) fn number(&mut self) -> Token {
        let start = self.pos;
        if let Some(token) = self.radix_literal() {
            return token;
        }
        self.take_while(|b| b.is_ascii_digit());
        if self.peek(0) == b'.' {
            return self.real(start);
        }
        if !is_ident_byte(self.peek(0)) {
            return Token::Number(self.sql[start..self.pos].to_string());
        }
        if self.exponent() {
            return Token::Number(self.sql[start..self.pos].to_string());
        }
        self.pos = start;
        self.word()
    }

    /// `0x1F` or `0b101` (lower-case prefix), if that is what is here; a longer
    /// word (`0x1G`, `0x`) is a name.
    fn radix_literal(&mut self) -> Option<Token> {
        if self.peek(0) != b'0' {
            return None;
        }
        let hex = match self.peek(1) {
            b'x' => true,
            b'b' => false,
            _ => return None,
        };
        let start = self.pos;
        self.pos += 2;
        let digits = self.take_while(|b| match hex {
            true => b.is_ascii_hexdigit(),
            false => b == b'0' || b == b'1',
        });
        if digits > 0 && !is_ident_byte(self.peek(0)) {
            let digits = self.sql[start + 2..self.pos].to_string();
            return Some(if hex {
                Token::Hex(digits)
            } else {
                Token::Bit(digits)
            });
        }
        self.pos = start;
        Some(self.word())
    }

    /// `e5`, `E+5`, `e-5` after an integer's digits, if it is there (taken).
    fn exponent(&mut self) -> bool {
        if !matches!(self.peek(0), b'e' | b'E') {
            return false;
        }
        let sign = usize::from(matches!(self.peek(1), b'+' | b'-'));
        if !self.peek(1 + sign).is_ascii_digit() {
            return false;
        }
        self.pos += 1 + sign;
        self.take_while(|b| b.is_ascii_digit());
        true
    }

    /// `1.5`, `1.`, `.5`, `1.5e3`, the cursor on the `.`; an `e` without digits
    /// after it (`1.5e`, `1.5e+`) is [`Token::Malformed`].
    fn real(&mut self, start: usize) -> Token {
        self.pos += 1;
        self.take_while(|b| b.is_ascii_digit());
        if matches!(self.peek(0), b'e' | b'E') && !self.exponent() {
            self.pos += 1;
            if matches!(self.peek(0), b'+' | b'-') {
                self.pos += 1;
            }
            return Token::Malformed;
        }
        Token::Number(self.sql[start..self.pos].to_string())
    }
}

fn unquoted(text: &str) -> Token {
    Token::Word(Word {
        value: text.to_string(),
        quoted: false,
    })
}
