//! What the lexer hands the grammar: a [`Token`] and the bytes of the input it
//! was read from ([`Spanned`]).

/// One token of MySQL's lexical grammar. Blanks and comments are not tokens; the
/// gaps between spans are where they were.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sql) enum Token {
    /// A word: a keyword or a name (`SELECT`, `t1`, `1a`, `$x`, `@x`, `@@global`),
    /// or a backquoted name.
    Word(Word),
    /// A number as written: `5`, `0.25`, `.5`, `1e3`, `1.5E-3`.
    Number(String),
    /// A quoted string's value, escapes and doubled quotes undone: `'it''s'`,
    /// `"a\tb"`.
    Str(String),
    /// `N'text'`: a national character string.
    NationalStr(String),
    /// `X'1F'` or `0x1F`: the hex digits.
    Hex(String),
    /// `B'101'` or `0b101`: the binary digits.
    Bit(String),
    /// What MySQL's lexer reads as `ABORT_SYM`, which no rule takes: a bad
    /// `X'..'`/`B'..'` literal, an exponent without digits (`1.5e`).
    Malformed,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `,`
    Comma,
    /// `.`
    Period,
    /// `;`
    SemiColon,
    /// `:`
    Colon,
    /// `:=`
    Assignment,
    /// `=`
    Eq,
    /// `<>` or `!=`
    Neq,
    /// `<`
    Lt,
    /// `<=`
    LtEq,
    /// `>`
    Gt,
    /// `>=`
    GtEq,
    /// `<=>`
    Spaceship,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `|`
    Pipe,
    /// `||`: OR (without `PIPES_AS_CONCAT`)
    PipePipe,
    /// `&`
    Ampersand,
    /// `&&`: AND
    AmpAmp,
    /// `^`
    Caret,
    /// `~`
    Tilde,
    /// `!`
    ExclamationMark,
    /// `<<`
    ShiftLeft,
    /// `>>`
    ShiftRight,
    /// `->` (MySQL 8's JSON column path)
    Arrow,
    /// `->>`
    LongArrow,
    /// Any other character: `?`, `@` alone, `{`, `\`, a control character.
    Other(char),
    /// Past the last token of a statement.
    Eof,
}

/// A word as read: its text (a backquoted name's with the quotes and doubled
/// backquotes undone) and whether it was backquoted, which makes it a name even
/// when it is spelled like a keyword.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sql) struct Word {
    pub value: String,
    pub quoted: bool,
}

/// A token and the byte range of the input it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sql) struct Spanned {
    pub token: Token,
    /// Byte offset of the token's first byte.
    pub start: usize,
    /// Byte offset just past the token.
    pub end: usize,
}
