//! Each fuzz target's starting corpus, from the project's own inputs: the scenario,
//! profile, lesson and script files of `assets/`, the statements inside them, the
//! frozen links of the link tests, the fragments of docs/embedding.md, and the
//! hand-written seeds in `fuzz/seeds/<target>/`. Written as `seed-*` files into the
//! corpus directory (rewritten each run; what libFuzzer added stays).

use crate::util::Result;
use std::fs;
use std::path::Path;

/// Writes `target`'s seeds into `corpus`; returns how many.
pub fn write(root: &Path, target: &str, corpus: &Path) -> Result<usize> {
    fs::create_dir_all(corpus).map_err(|e| format!("cannot create {}: {e}", corpus.display()))?;
    let seeds = collect(root, target);
    for (i, s) in seeds.iter().enumerate() {
        let path = corpus.join(format!("seed-{i:04}"));
        fs::write(&path, s).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(seeds.len())
}

/// The seeds of one target.
pub fn collect(root: &Path, target: &str) -> Vec<String> {
    let assets = root.join("assets");
    let mut seeds = match target {
        "sql" => statements(root),
        "script" => files(&assets.join("scripts"), "script"),
        "scenario" => files(&assets.join("scenarios"), "toml"),
        "profile" => files(&assets.join("profiles"), "toml"),
        "lesson" => files(&assets.join("lessons"), "toml"),
        "link" => {
            let mut v = frozen_links(root);
            v.extend(doc_fragments(root));
            v
        }
        "embed" => doc_fragments(root),
        _ => Vec::new(),
    };
    seeds.extend(files(&root.join("fuzz").join("seeds").join(target), ""));
    seeds.sort();
    seeds.dedup();
    seeds
}

/// The text of every file in `dir` whose name ends with `ext` (any, when empty).
fn files(dir: &Path, ext: &str) -> Vec<String> {
    let mut paths: Vec<_> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && (ext.is_empty() || p.extension().is_some_and(|e| e == ext)))
        .collect();
    paths.sort();
    paths
        .iter()
        .filter_map(|p| fs::read_to_string(p).ok())
        .collect()
}

/// Every statement of the session scripts (`at T s: SQL`, `CREATE TABLE` lines) and
/// every `sql = "..."` of the scenarios and lessons.
fn statements(root: &Path) -> Vec<String> {
    let assets = root.join("assets");
    let mut out = Vec::new();
    for text in files(&assets.join("scripts"), "script") {
        for line in text.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix("at ") {
                if let Some((_, sql)) = rest.split_once(':') {
                    out.push(sql.trim().to_string());
                }
            } else if line.to_ascii_uppercase().starts_with("CREATE ") {
                out.push(line.to_string());
            }
        }
    }
    for dir in ["scenarios", "lessons"] {
        for text in files(&assets.join(dir), "toml") {
            out.extend(text.lines().filter_map(toml_sql));
        }
    }
    out
}

/// The value of a `sql = "..."` line, its `\"` and `\\` unescaped.
fn toml_sql(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("sql")?.trim_start();
    let body = rest.strip_prefix('=')?.trim().strip_prefix('"')?;
    let body = body.strip_suffix('"')?;
    Some(body.replace("\\\"", "\"").replace("\\\\", "\\"))
}

/// The `"v1.…"` string literals of the link tests (the frozen links).
fn frozen_links(root: &Path) -> Vec<String> {
    let path = root.join("crates/app/src/model/link/tests.rs");
    let text = fs::read_to_string(path).unwrap_or_default();
    text.split('"')
        .filter(|s| {
            s.len() > 3
                && s.starts_with("v1.")
                && s[3..]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
        .map(|s| format!("#{s}"))
        .collect()
}

/// The fragments of docs/embedding.md's examples (`embed.html#...`).
fn doc_fragments(root: &Path) -> Vec<String> {
    let text = fs::read_to_string(root.join("docs/embedding.md")).unwrap_or_default();
    text.match_indices("embed.html#")
        .map(|(i, m)| {
            let tail = &text[i + m.len()..];
            let end = tail
                .find(|c: char| c == '"' || c == '\'' || c == '`' || c.is_whitespace())
                .unwrap_or(tail.len());
            format!("#{}", &tail[..end])
        })
        .filter(|f| f.len() > 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::workspace_root;

    #[test]
    fn every_target_has_seeds_from_the_project() {
        let root = workspace_root();
        for (target, _) in super::super::TARGETS {
            let seeds = collect(&root, target);
            assert!(seeds.len() >= 3, "{target}: {} seeds", seeds.len());
        }
        assert!(collect(&root, "sql")
            .iter()
            .any(|s| s.starts_with("CREATE INDEX")));
        assert!(collect(&root, "link").iter().any(|s| s.starts_with("#v1.")));
    }

    #[test]
    fn reads_a_toml_sql_line() {
        assert_eq!(
            toml_sql(r#"sql = "SELECT \"a\" FROM t""#).as_deref(),
            Some(r#"SELECT "a" FROM t"#)
        );
        assert_eq!(toml_sql("sqlx = 1"), None);
    }
}
