//! The lexer's rules one by one, through one `check()` helper: each input beside
//! its tokens, one a line as `start..end Token`, or the error.

use super::*;
use expect_test::{expect, Expect};

/// Lexes `sql` and prints each lexeme with its span, and the error if any.
fn check(sql: &str, expect: Expect) {
    expect.assert_eq(&lexed(sql));
}

fn lexed(sql: &str) -> String {
    let mut lines = Vec::new();
    for lexeme in Lexer::new(sql) {
        match lexeme {
            Ok(Lexeme::Token(t)) => {
                assert!(sql.is_char_boundary(t.start) && sql.is_char_boundary(t.end));
                lines.push(format!("{}..{} {:?}", t.start, t.end, t.token));
            }
            Ok(Lexeme::ExecutableEnd(at)) => lines.push(format!("{at} */")),
            Err(e) => lines.push(format!("error at {}", e.at)),
        }
    }
    lines.join("\n")
}

/// The tokens alone, for inputs where spans say nothing more.
fn tokens(sql: &str) -> Vec<Token> {
    Lexer::new(sql)
        .map(|l| match l {
            Ok(Lexeme::Token(t)) => t.token,
            other => panic!("{sql:?}: {other:?}"),
        })
        .collect()
}

fn word(value: &str) -> Token {
    Token::Word(Word {
        value: value.into(),
        quoted: false,
    })
}

fn number(text: &str) -> Token {
    Token::Number(text.into())
}

#[test]
fn words_and_names() {
    check(
        "SELECT t1.id, 1a, $x, a$b, été FROM `my``db`.`t`",
        expect![[r#"
            0..6 Word(Word { value: "SELECT", quoted: false })
            7..9 Word(Word { value: "t1", quoted: false })
            9..10 Period
            10..12 Word(Word { value: "id", quoted: false })
            12..13 Comma
            14..16 Word(Word { value: "1a", quoted: false })
            16..17 Comma
            18..20 Word(Word { value: "$x", quoted: false })
            20..21 Comma
            22..25 Word(Word { value: "a$b", quoted: false })
            25..26 Comma
            27..32 Word(Word { value: "été", quoted: false })
            33..37 Word(Word { value: "FROM", quoted: false })
            38..46 Word(Word { value: "my`db", quoted: true })
            46..47 Period
            47..50 Word(Word { value: "t", quoted: true })"#]],
    );
}

/// After `name.` the next word is a name, even all digits or a float's spelling.
#[test]
fn a_word_after_a_qualifier_is_a_name() {
    assert_eq!(
        tokens("t.1e5 db.123 x .5"),
        vec![
            word("t"),
            Token::Period,
            word("1e5"),
            word("db"),
            Token::Period,
            word("123"),
            word("x"),
            number(".5"),
        ]
    );
}

#[test]
fn variables() {
    assert_eq!(
        tokens("@x @@global.innodb_lru_scan_depth @a.b @ @'x'"),
        vec![
            word("@x"),
            word("@@global"),
            Token::Period,
            word("innodb_lru_scan_depth"),
            word("@a.b"),
            Token::Other('@'),
            Token::Other('@'),
            Token::Str("x".into()),
        ]
    );
}

#[test]
fn strings_undo_escapes_and_doubled_quotes() {
    assert_eq!(
        tokens(r#"'it''s' "say ""hi""" 'a\'b' 'tab\there' '\0\b\n\r\Z' '\%\_\q' "\"""#),
        vec![
            Token::Str("it's".into()),
            Token::Str("say \"hi\"".into()),
            Token::Str("a'b".into()),
            Token::Str("tab\there".into()),
            Token::Str("\0\u{8}\n\r\u{1a}".into()),
            Token::Str("\\%\\_q".into()),
            Token::Str("\"".into()),
        ]
    );
    assert_eq!(tokens("'é\\ü'"), vec![Token::Str("éü".into())]);
    assert_eq!(tokens("''"), vec![Token::Str(String::new())]);
}

#[test]
fn prefixed_literals() {
    assert_eq!(
        tokens("N'x' n'y' X'1f' x'' B'101' b'' 0x1F 0b01 _utf8mb4'z'"),
        vec![
            Token::NationalStr("x".into()),
            Token::NationalStr("y".into()),
            Token::Hex("1f".into()),
            Token::Hex(String::new()),
            Token::Bit("101".into()),
            Token::Bit(String::new()),
            Token::Hex("1F".into()),
            Token::Bit("01".into()),
            word("_utf8mb4"),
            Token::Str("z".into()),
        ]
    );
    // The server's ABORT_SYM: odd length, a non-digit.
    assert_eq!(tokens("X'123'"), vec![Token::Malformed]);
    assert_eq!(
        tokens("X'1G' B'012'"),
        vec![Token::Malformed, Token::Malformed]
    );
    // Upper-case 0X and 0B, or a letter after the digits: names (MariaDB: unknown column).
    assert_eq!(
        tokens("0X1F 0x1G 0b012 0x 0b"),
        vec![
            word("0X1F"),
            word("0x1G"),
            word("0b012"),
            word("0x"),
            word("0b")
        ]
    );
}

#[test]
fn numbers() {
    assert_eq!(
        tokens("5 0.25 .5 1. 1e3 1E+3 1.5e-3 .5e1 1.e2 1e 1e+ 1.5x 128M"),
        vec![
            number("5"),
            number("0.25"),
            number(".5"),
            number("1."),
            number("1e3"),
            number("1E+3"),
            number("1.5e-3"),
            number(".5e1"),
            number("1.e2"),
            word("1e"),
            word("1e"),
            Token::Plus,
            number("1.5"),
            word("x"),
            word("128M"),
        ]
    );
    // An exponent without digits after a decimal point: the server's ABORT_SYM.
    check(
        "1.5e 2.5E+ 3",
        expect![[r#"
            0..4 Malformed
            5..10 Malformed
            11..12 Number("3")"#]],
    );
}

#[test]
fn operators_longest_first() {
    assert_eq!(
        tokens("<=> <= <> < << >= >> > != ! := : || | && & -> ->> - = + * / % ^ ~ ( ) , ; . ? {"),
        vec![
            Token::Spaceship,
            Token::LtEq,
            Token::Neq,
            Token::Lt,
            Token::ShiftLeft,
            Token::GtEq,
            Token::ShiftRight,
            Token::Gt,
            Token::Neq,
            Token::ExclamationMark,
            Token::Assignment,
            Token::Colon,
            Token::PipePipe,
            Token::Pipe,
            Token::AmpAmp,
            Token::Ampersand,
            Token::Arrow,
            Token::LongArrow,
            Token::Minus,
            Token::Eq,
            Token::Plus,
            Token::Mul,
            Token::Div,
            Token::Mod,
            Token::Caret,
            Token::Tilde,
            Token::LParen,
            Token::RParen,
            Token::Comma,
            Token::SemiColon,
            Token::Period,
            Token::Other('?'),
            Token::Other('{'),
        ]
    );
    // MariaDB 10.11 reads `1==1` as `1 = =1` and `!=>` as `!= >`.
    assert_eq!(
        tokens("==!=>"),
        vec![Token::Eq, Token::Eq, Token::Neq, Token::Gt]
    );
}

#[test]
fn comments_and_blanks() {
    check(
        "a -- x\nb --\tx\nc --x\n# d\ne /* f\n*/ g\u{b}\u{c}\r h --",
        expect![[r#"
            0..1 Word(Word { value: "a", quoted: false })
            7..8 Word(Word { value: "b", quoted: false })
            14..15 Word(Word { value: "c", quoted: false })
            16..17 Minus
            17..18 Minus
            18..19 Word(Word { value: "x", quoted: false })
            24..25 Word(Word { value: "e", quoted: false })
            34..35 Word(Word { value: "g", quoted: false })
            39..40 Word(Word { value: "h", quoted: false })"#]],
    );
    // `--` and a control character, or the end of the input, start a comment.
    assert_eq!(tokens("1 --\u{1}x"), vec![number("1")]);
    assert_eq!(tokens("1 --"), vec![number("1")]);
    // Comments do not nest: the first `*/` ends one.
    assert_eq!(
        tokens("/* a /* b */ c */"),
        vec![word("c"), Token::Mul, Token::Div]
    );
}

#[test]
fn executable_comments_are_read_as_sql() {
    check(
        "a /*!50100 b */ c /*!d*/",
        expect![[r#"
            0..1 Word(Word { value: "a", quoted: false })
            11..12 Word(Word { value: "b", quoted: false })
            13 */
            16..17 Word(Word { value: "c", quoted: false })
            21..22 Word(Word { value: "d", quoted: false })
            22 */"#]],
    );
    // A plain comment inside one; another `/*!` inside one is skipped and the first
    // `*/` ends both (MariaDB: `SELECT 1 /*! + /*!50000 2 */` is 3).
    check(
        "/*! 1 /* x */ + /*!50000 2 */ */",
        expect![[r#"
            4..5 Number("1")
            14..15 Plus
            25..26 Number("2")
            27 */
            30..31 Mul
            31..32 Div"#]],
    );
    // A `*/` outside one is `*` and `/`.
    assert_eq!(tokens("1 */"), vec![number("1"), Token::Mul, Token::Div]);
}

#[test]
fn unclosed_quotes_and_comments_fail_where_the_server_points() {
    // Near the opening quote.
    check(
        "SELECT 'abc",
        expect![[r#"
        0..6 Word(Word { value: "SELECT", quoted: false })
        error at 7"#]],
    );
    check(
        "x \"abc\\\"",
        expect![[r#"
        0..1 Word(Word { value: "x", quoted: false })
        error at 2"#]],
    );
    check("`abc``", expect!["error at 0"]);
    check("'abc\\", expect!["error at 0"]);
    // Near the letter of a prefixed literal (MariaDB: near 'X'ab').
    check("X'ab", expect!["error at 0"]);
    check("N'ab", expect!["error at 0"]);
    // A plain comment: near the `/*` (MariaDB: near '/* a').
    check(
        "1 /* a",
        expect![[r#"
        0..1 Number("1")
        error at 2"#]],
    );
    // An executable one, or a lone `/*!`: at the end.
    check(
        "1 /*! + 2",
        expect![[r#"
        0..1 Number("1")
        6..7 Plus
        8..9 Number("2")
        error at 9"#]],
    );
    check("/*!", expect!["error at 3"]);
    check("/*!50100", expect!["error at 8"]);
}

#[test]
fn odd_bytes() {
    // NUL and other control characters are tokens no rule takes.
    assert_eq!(
        tokens("a\0b\u{1}"),
        vec![
            word("a"),
            Token::Other('\0'),
            word("b"),
            Token::Other('\u{1}')
        ]
    );
    // A non-ASCII blank is a name's character to MySQL (MariaDB: SELECT\u{a0}1 is
    // one unknown word).
    assert_eq!(tokens("SELECT\u{a0}1"), vec![word("SELECT\u{a0}1")]);
    // Multi-byte characters wherever a rule stops: spans stay on boundaries.
    for sql in [
        "'ü", "`ü", "/*ü", "ü'", "1ü", "0xü", "@ü", "é.ü", "X'ü'", "\\ü",
    ] {
        lexed(sql);
    }
}

/// Every prefix of a statement lexes without a panic, on character boundaries.
#[test]
fn every_prefix_of_a_statement_lexes() {
    let sql = "SELECT `a``b`, 'it''s', X'1f', 1.5e3, @@global.x /*!50100 + 1 */ -- é\n# ü";
    for (i, _) in sql.char_indices() {
        lexed(&sql[..i]);
    }
}

/// A long input lexes in one pass: a million-character string, a long statement.
#[test]
fn long_inputs() {
    let long = format!("'{}'", "x".repeat(1_000_000));
    assert_eq!(tokens(&long), vec![Token::Str("x".repeat(1_000_000))]);
    let many = "1+".repeat(100_000) + "1";
    assert_eq!(tokens(&many).len(), 200_001);
}
