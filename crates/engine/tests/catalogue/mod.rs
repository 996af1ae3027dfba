//! docs/errors.md read as test data, so the catalogue of bad inputs cannot drift from
//! what the code says. Each crate's `tests/errors.rs` includes this file and checks
//! the kinds it owns.
//!
//! Two forms in the document:
//! - after a line `<!-- check: KIND -->`, a table whose rows are `` | `input` | `what
//!   you get` | `` (code spans; `\|` is a `|`);
//! - a fenced block whose info string has `check=KIND` (the input, a whole file),
//!   followed by a fenced block with what you get.
#![allow(dead_code)]

use std::path::PathBuf;

/// One catalogued bad input.
#[derive(Debug)]
pub struct Case {
    /// What the user gets, as the document says.
    pub expect: String,
    /// The input.
    pub input: String,
    /// Its line in docs/errors.md.
    pub line: usize,
}

/// The workspace root (every crate is two levels below it).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The cases of `kind`, in document order.
pub fn cases(kind: &str) -> Vec<Case> {
    let path = root().join("docs/errors.md");
    let text = std::fs::read_to_string(&path).expect("docs/errors.md");
    parse(&text, kind)
}

fn parse(text: &str, kind: &str) -> Vec<Case> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim();
        if l == format!("<!-- check: {kind} -->") {
            i = table(&lines, i + 1, &mut out);
            continue;
        }
        if l.starts_with("```") && l.split_whitespace().any(|w| w == format!("check={kind}")) {
            let (input, next) = block(&lines, i);
            let start = (next..lines.len())
                .find(|&j| lines[j].trim_start().starts_with("```"))
                .expect("a block of what you get after the input");
            let (expect, after) = block(&lines, start);
            out.push(Case {
                expect,
                input,
                line: i + 1,
            });
            i = after;
            continue;
        }
        i += 1;
    }
    out
}

/// The rows of the table starting at or after `from`; returns the line after it.
fn table(lines: &[&str], from: usize, out: &mut Vec<Case>) -> usize {
    let mut i = from;
    while i < lines.len() && !lines[i].trim_start().starts_with('|') {
        i += 1;
    }
    // The header and the separator.
    i += 2;
    while i < lines.len() && lines[i].trim_start().starts_with('|') {
        let cells = cells(lines[i]);
        assert!(
            cells.len() >= 2,
            "docs/errors.md:{}: a row needs two cells",
            i + 1
        );
        out.push(Case {
            input: code(&cells[0]),
            expect: code(&cells[1]),
            line: i + 1,
        });
        i += 1;
    }
    i
}

/// A table row's cells, `\|` kept inside its cell.
fn cells(row: &str) -> Vec<String> {
    let row = row.trim().trim_start_matches('|');
    let mut cells = vec![String::new()];
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cells.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    if cells.last().is_some_and(|c| c.trim().is_empty()) {
        cells.pop();
    }
    cells
}

/// The text of a cell's code span (`` `x` `` or ``` `` x `` ```).
fn code(cell: &str) -> String {
    let cell = cell.trim();
    let n = cell.chars().take_while(|&c| c == '`').count();
    assert!(n > 0, "a cell is a code span: {cell}");
    let fence = "`".repeat(n);
    let inner = cell
        .strip_prefix(&fence)
        .and_then(|c| c.strip_suffix(&fence))
        .unwrap_or_else(|| panic!("unclosed code span: {cell}"));
    if n > 1 && inner.starts_with(' ') && inner.ends_with(' ') && inner.trim() != "" {
        inner[1..inner.len() - 1].to_string()
    } else {
        inner.to_string()
    }
}

/// The fenced block opening at line `at`: its text and the line after its close.
fn block(lines: &[&str], at: usize) -> (String, usize) {
    let mut body = Vec::new();
    let mut i = at + 1;
    while i < lines.len() && !lines[i].trim_start().starts_with("```") {
        body.push(lines[i]);
        i += 1;
    }
    (body.join("\n"), i + 1)
}

/// Checks every case of `kind` with `got` (what the user gets for an input); fails
/// listing every case whose text differs, with what it got, so the document can be
/// corrected in one pass.
pub fn check(kind: &str, mut got: impl FnMut(&str) -> String) {
    let cases = cases(kind);
    assert!(!cases.is_empty(), "docs/errors.md has no '{kind}' cases");
    let mut wrong = Vec::new();
    for c in &cases {
        let actual = got(&c.input);
        if actual != c.expect {
            wrong.push(format!(
                "docs/errors.md:{} ({kind}) input {:?}\n  documented: {}\n  got:        {}",
                c.line, c.input, c.expect, actual
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} '{kind}' cases differ:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rows_and_blocks() {
        let doc = "<!-- check: k -->\n| input | you get |\n|---|---|\n| `a \\| b` | ``x `y` z`` |\n\n```toml check=k\nn = 1\nm = 2\n```\n\n```text\nbad n\n```\n";
        let cs = parse(doc, "k");
        assert_eq!(cs.len(), 2);
        assert_eq!(
            (cs[0].input.as_str(), cs[0].expect.as_str()),
            ("a | b", "x `y` z")
        );
        assert_eq!(
            (cs[1].input.as_str(), cs[1].expect.as_str()),
            ("n = 1\nm = 2", "bad n")
        );
        assert!(parse(doc, "other").is_empty());
    }
}
