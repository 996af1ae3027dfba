//! Punctuation and operators, the longest spelling first (MySQL's `MY_LEX_CMP_OP`,
//! `MY_LEX_LONG_CMP_OP`, `MY_LEX_BOOL`, `MY_LEX_SET_VAR` and single characters).

use super::{Lexer, Token};

/// Every operator of more than one character, longest first where one starts
/// another.
const LONG: &[(&str, Token)] = &[
    ("<=>", Token::Spaceship),
    ("->>", Token::LongArrow),
    ("<=", Token::LtEq),
    ("<>", Token::Neq),
    ("<<", Token::ShiftLeft),
    (">=", Token::GtEq),
    (">>", Token::ShiftRight),
    ("!=", Token::Neq),
    (":=", Token::Assignment),
    ("||", Token::PipePipe),
    ("&&", Token::AmpAmp),
    ("->", Token::Arrow),
];

impl Lexer<'_> {
    /// The operator or punctuation at the position (never a blank, word, quote or
    /// digit); a character that is none is [`Token::Other`].
    pub(super) fn operator(&mut self) -> Token {
        let rest = &self.sql[self.pos..];
        if let Some((text, token)) = LONG.iter().find(|(text, _)| rest.starts_with(text)) {
            self.pos += text.len();
            return token.clone();
        }
        let c = rest.chars().next().unwrap_or('\0');
        self.pos += c.len_utf8();
        single(c)
    }
}

/// A one-character token.
fn single(c: char) -> Token {
    match c {
        '(' => Token::LParen,
        ')' => Token::RParen,
        ',' => Token::Comma,
        '.' => Token::Period,
        ';' => Token::SemiColon,
        ':' => Token::Colon,
        '=' => Token::Eq,
        '<' => Token::Lt,
        '>' => Token::Gt,
        '+' => Token::Plus,
        '-' => Token::Minus,
        '*' => Token::Mul,
        '/' => Token::Div,
        '%' => Token::Mod,
        '|' => Token::Pipe,
        '&' => Token::Ampersand,
        '^' => Token::Caret,
        '~' => Token::Tilde,
        '!' => Token::ExclamationMark,
        c => Token::Other(c),
    }
}
