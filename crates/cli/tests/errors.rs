//! docs/errors.md, the command line's part: every catalogued bad invocation prints
//! exactly the documented first line on stderr and exits with status 2.

#[path = "../../engine/tests/catalogue/mod.rs"]
mod catalogue;

use std::process::Command;

/// `args` split as a shell splits them (single and double quotes; no escapes).
fn words(args: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    let mut quote = None;
    for c in args.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.get_or_insert_with(String::new);
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => out.extend(cur.take()),
            (_, c) => cur.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(cur);
    out
}

#[test]
fn bad_invocations_print_the_documented_line_and_exit_2() {
    catalogue::check("cli", |args| {
        let words = words(args);
        assert_eq!(
            words[0], "ddlscope",
            "a cli case starts with ddlscope: {args}"
        );
        let out = Command::new(env!("CARGO_BIN_EXE_ddlscope"))
            .args(&words[1..])
            .current_dir(catalogue::root())
            .output()
            .expect("run ddlscope");
        let err = String::from_utf8_lossy(&out.stderr);
        // Progress lines (`# reading the trace…`) come before the error.
        let first = err
            .lines()
            .find(|l| !l.starts_with("# "))
            .unwrap_or("")
            .to_string();
        assert_eq!(out.status.code(), Some(2), "{args}: {err}");
        first
    });
}

#[test]
fn splits_like_a_shell() {
    assert_eq!(
        words(r#"ddlscope run x --at '10:DROP TABLE t1' "a b""#),
        ["ddlscope", "run", "x", "--at", "10:DROP TABLE t1", "a b"]
    );
}
