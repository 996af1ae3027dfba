//! `cargo xtask layers`: the module graph of the engine and the app, checked for
//! circles and against the layers written in ARCHITECTURE.md.
//!
//! ```text
//!   *.rs ──strip comments, strings──▶ tokens ──▶ `use` trees, `crate::`/`super::`/`self::`
//!        paths ──resolve──▶ the file defining the longest module prefix ──▶ file graph
//!   file graph ──Tarjan──▶ circles          file graph + "## Layers" ──▶ layer breaks
//! ```
//!
//! A path resolves to the file of the longest module prefix that exists as a file
//! (`foo.rs` or `foo/mod.rs`), so `crate::bufpool::zip::zip_class` is an edge to
//! `bufpool/zip.rs` and `crate::bufpool::BufPool` one to the file of `bufpool`. A name
//! the crate root re-exports (`crate::Tick`, from `pub use time::Tick` in `lib.rs`)
//! resolves to the file it is re-exported from: the root is the API on top, not a
//! place lower files reach down through.
//!
//! Not edges: a module's path to a module nested inside it (`sim/mod.rs` composing
//! `sim/alter.rs`: a parent composes its children), except from the crate root, whose
//! `mod` declarations are not edges but whose `pub use x::Y` is; and test code, that is
//! an item under `#[cfg(test)]` or a file declared by `#[cfg(test)] mod x;`, which may
//! use the whole crate.
//!
//! Simplification: this reads tokens, not a syntax tree. It does not follow `#[path]`
//! attributes, macros that build paths, or re-exports other than the crate root's; a
//! bare `name::` path outside a `use` (valid only after a `use` that already counted)
//! is not read.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use crate::util::{workspace_root, Result};

/// `cargo xtask layers`: reads the tree and ARCHITECTURE.md, prints warnings and a
/// one-line summary, and fails with every circle and layer break.
pub fn layers() -> Result {
    let root = workspace_root();
    let doc = fs::read_to_string(root.join("ARCHITECTURE.md"))
        .map_err(|e| format!("cannot read ARCHITECTURE.md: {e}"))?;
    let spec = parse_spec(&doc)?;
    let mut summary = Vec::new();
    let mut problems = String::new();
    for krate in &spec.crates {
        let src = root.join(&krate.src);
        if let Some(gate) = &krate.when {
            if !src.join(gate).exists() {
                println!(
                    "layers: crate {} skipped: {}/{gate} does not exist yet",
                    krate.name, krate.src
                );
                summary.push(format!("{} skipped", krate.name));
                continue;
            }
        }
        let files = read_tree(&src)?;
        let report = check_crate(krate, &spec.layers_of(&krate.name), &files);
        for warning in &report.warnings {
            println!("warning: {warning}");
        }
        problems.push_str(&report.problems);
        summary.push(format!(
            "{}: {} files, {} edges, {} layers",
            krate.name, report.files, report.edges, report.layers
        ));
    }
    if problems.is_empty() {
        println!("layers ok: {}", summary.join("; "));
        Ok(())
    } else {
        Err(format!(
            "{}layers FAILED ({}); the layers are in ARCHITECTURE.md, \"## Layers\"",
            problems,
            summary.join("; ")
        ))
    }
}

/// Every `*.rs` below `src`, by path relative to it with `/` separators.
fn read_tree(src: &Path) -> Result<BTreeMap<String, String>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result {
        let entries =
            fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
            if path.is_dir() {
                walk(&path, out)?;
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut paths = Vec::new();
    walk(src, &mut paths)?;
    let mut files = BTreeMap::new();
    for path in paths {
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let rel = path.strip_prefix(src).expect("walked below src");
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        files.insert(rel.join("/"), text);
    }
    Ok(files)
}

// ---------------------------------------------------------------------------------
// The layer specification.

/// A crate the check reads: its name in layer lines, its source directory, and the
/// path below it whose existence switches the crate's check on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrateSpec {
    pub name: String,
    pub src: String,
    pub when: Option<String>,
}

/// One layer: its crate, its name, the entries it owns, and the external crates its
/// files must not name (`CRATE LAYER forbids: ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    pub krate: String,
    pub name: String,
    pub entries: Vec<String>,
    pub forbids: Vec<String>,
}

/// The parsed ```` ```layers ```` block: crates, then layers bottom to top.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub crates: Vec<CrateSpec>,
    pub layers: Vec<Layer>,
}

impl Spec {
    /// The layers of one crate, bottom to top.
    fn layers_of(&self, krate: &str) -> Vec<Layer> {
        self.layers
            .iter()
            .filter(|l| l.krate == krate)
            .cloned()
            .collect()
    }
}

/// Finds the fenced ```` ```layers ```` block under "## Layers" and parses it:
///
/// ```text
/// # a comment
/// crate engine crates/engine/src              a crate and its source directory
/// crate app crates/app/src when model         ... checked only once src/model exists
/// engine units: time.rs size.rs               a layer: crate, name, entries
/// app model forbids: yew web_sys              crates a layer's files must not name
/// ```
pub fn parse_spec(doc: &str) -> Result<Spec> {
    let start = doc
        .lines()
        .position(|l| l.trim_end() == "## Layers")
        .ok_or("ARCHITECTURE.md has no \"## Layers\" section")?;
    let section: Vec<&str> = doc
        .lines()
        .skip(start + 1)
        .take_while(|l| !l.starts_with("## "))
        .collect();
    let section = section.join("\n");
    let block = section
        .split("```layers")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .ok_or("the \"## Layers\" section has no ```layers block")?;
    let mut spec = Spec {
        crates: Vec::new(),
        layers: Vec::new(),
    };
    for (n, line) in block.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |why: &str| format!("layers block, line {n}: {why}: {line:?}");
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0] == "crate" {
            let (name, src, when) = match words.as_slice() {
                [_, name, src] => (name, src, None),
                [_, name, src, "when", gate] => (name, src, Some(gate.to_string())),
                _ => return Err(bad("want `crate NAME SRC-DIR [when PATH]`")),
            };
            spec.crates.push(CrateSpec {
                name: name.to_string(),
                src: src.to_string(),
                when,
            });
            continue;
        }
        let (head, entries) = line
            .split_once(':')
            .ok_or_else(|| bad("want `CRATE LAYER: ENTRY...`"))?;
        let head: Vec<&str> = head.split_whitespace().collect();
        if let [krate, name, "forbids"] = head.as_slice() {
            let layer = spec
                .layers
                .iter_mut()
                .find(|l| l.krate == *krate && l.name == *name)
                .ok_or_else(|| bad("`forbids` for a layer not declared above"))?;
            layer
                .forbids
                .extend(entries.split_whitespace().map(String::from));
            continue;
        }
        let [krate, name] = head.as_slice() else {
            return Err(bad(
                "want `CRATE LAYER: ENTRY...` or `CRATE LAYER forbids: CRATE...`",
            ));
        };
        if !spec.crates.iter().any(|c| c.name == *krate) {
            return Err(bad("a layer of a crate not declared above"));
        }
        spec.layers.push(Layer {
            krate: krate.to_string(),
            name: name.to_string(),
            entries: entries.split_whitespace().map(String::from).collect(),
            forbids: Vec::new(),
        });
    }
    if spec.crates.is_empty() {
        return Err("the ```layers block declares no crate".into());
    }
    Ok(spec)
}

// ---------------------------------------------------------------------------------
// Reading a file: tokens with comments and literals gone.

/// A token: an identifier or keyword, `::`, or one punctuation character.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Tok {
    text: String,
    line: u32,
}

/// The source with comments (line, block, doc), string, byte-string, raw-string and
/// character literals replaced by spaces; newlines are kept so lines still count.
fn strip(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(k).copied().unwrap_or('\0');
        if at(i) == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if at(i) == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            loop {
                if i >= c.len() {
                    break;
                }
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if let Some(len) = raw_string_open(&c, i) {
            // r"..", r#".."#, br".." (an identifier ending in r is not one: checked by
            // raw_string_open against the previous character).
            let hashes = len - if at(i) == 'b' || at(i) == 'c' { 3 } else { 2 };
            let mut k = i + len;
            loop {
                if k >= c.len() {
                    break;
                }
                if c[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#') {
                    k += 1 + hashes;
                    break;
                }
                k += 1;
            }
            for &ch in &c[i..k.min(c.len())] {
                blank(&mut out, ch);
            }
            i = k;
        } else if at(i) == '"' {
            let mut k = i + 1;
            while k < c.len() && c[k] != '"' {
                k += if c[k] == '\\' { 2 } else { 1 };
            }
            for &ch in &c[i..(k + 1).min(c.len())] {
                blank(&mut out, ch);
            }
            i = k + 1;
        } else if at(i) == '\'' {
            // A character literal ('x', '\n', '\'', '{') or a lifetime ('a): only the
            // literal is blanked.
            let end = if at(i + 1) == '\\' {
                let mut k = i + 2;
                while k < c.len() && c[k] != '\'' {
                    k += 1;
                }
                Some(k)
            } else if at(i + 2) == '\'' {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(k) => {
                    for &ch in &c[i..(k + 1).min(c.len())] {
                        blank(&mut out, ch);
                    }
                    i = k + 1;
                }
                None => {
                    out.push(' ');
                    i += 1;
                }
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The length of a raw string's opening (`r"`, `r#"`, `br##"`...) at `i`, if one starts
/// there.
fn raw_string_open(c: &[char], i: usize) -> Option<usize> {
    if i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_') {
        return None;
    }
    let mut k = i;
    if matches!(c.get(k), Some('b' | 'c')) {
        k += 1;
    }
    if c.get(k) != Some(&'r') {
        return None;
    }
    k += 1;
    while c.get(k) == Some(&'#') {
        k += 1;
    }
    (c.get(k) == Some(&'"')).then_some(k + 1 - i)
}

fn tokenize(stripped: &str) -> Vec<Tok> {
    let c: Vec<char> = stripped.chars().collect();
    let mut toks = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch.is_alphanumeric() || ch == '_' || ch == '$' {
            let start = i;
            i += 1;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let text: String = c[start..i].iter().collect();
            toks.push(Tok {
                text: text.trim_start_matches('$').to_string(),
                line,
            });
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            toks.push(Tok {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            toks.push(Tok {
                text: ch.to_string(),
                line,
            });
            i += 1;
        }
    }
    toks
}

// ---------------------------------------------------------------------------------
// Scanning a file for the paths it uses.

/// A path a file names, made absolute (from the crate root), with the line of each
/// segment (a segment the path did not spell, from `self` or `super`, gets the line of
/// the path's first token).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathRef {
    pub path: Vec<String>,
    pub lines: Vec<u32>,
}

/// What one file says about modules.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Scan {
    /// Every path through `crate`, `super`, `self` or a child module, outside test code.
    pub refs: Vec<PathRef>,
    /// Child modules declared `#[cfg(test)] mod name;`.
    pub test_children: Vec<String>,
    /// `use` items at the file's top level, by the name they bring in (for re-exports).
    pub top_uses: BTreeMap<String, Vec<String>>,
}

/// Scans one file whose module path is `module`; `is_module` says whether an absolute
/// module path has a file (to tell `use child::X` from `use serde::X`).
pub fn scan(src: &str, module: &[String], is_module: &dyn Fn(&[String]) -> bool) -> Scan {
    let toks = tokenize(&strip(src));
    let mut scan = Scan::default();
    let mut modules: Vec<String> = module.to_vec();
    // One entry per open `{`: whether it opened an inline `mod`.
    let mut braces: Vec<bool> = Vec::new();
    let mut test_item = false;
    let mut i = 0;
    let t = |k: usize| toks.get(k).map_or("", |t| t.text.as_str());
    while i < toks.len() {
        match t(i) {
            "#" if t(i + 1) == "[" || (t(i + 1) == "!" && t(i + 2) == "[") => {
                let open = if t(i + 1) == "[" { i + 1 } else { i + 2 };
                let close = matching(&toks, open);
                let body: Vec<&str> = (open + 1..close).map(t).collect();
                if body == ["cfg", "(", "test", ")"] {
                    if t(i + 1) == "!" {
                        return Scan::default();
                    }
                    test_item = true;
                }
                i = close + 1;
                continue;
            }
            _ if test_item => {
                test_item = false;
                if t(i) == "mod" && t(i + 2) == ";" {
                    scan.test_children.push(t(i + 1).to_string());
                }
                i = item_end(&toks, i) + 1;
                continue;
            }
            "mod" if t(i + 2) == "{" => {
                modules.push(t(i + 1).to_string());
                braces.push(true);
                i += 3;
                continue;
            }
            "{" => braces.push(false),
            "}" => {
                let closes_inline_mod = braces.pop() == Some(true);
                if closes_inline_mod {
                    modules.pop();
                }
            }
            "use" => {
                let end = item_end(&toks, i);
                let mut paths = Vec::new();
                use_tree(&toks, i + 1, end, &mut Vec::new(), &mut paths);
                for (path, name) in paths {
                    if let Some(r) = absolute(&path, &modules, true, is_module) {
                        if braces.is_empty() && name != "*" {
                            scan.top_uses.insert(name, r.path.clone());
                        }
                        scan.refs.push(r);
                    }
                }
                i = end + 1;
                continue;
            }
            "crate" | "super" | "self"
                if t(i + 1) == "::" && i.checked_sub(1).map(t) != Some("in") =>
            {
                let mut path = vec![(t(i).to_string(), toks[i].line)];
                let mut k = i + 1;
                while t(k) == "::" && is_ident(t(k + 1)) {
                    path.push((t(k + 1).to_string(), toks[k + 1].line));
                    k += 2;
                }
                if let Some(r) = absolute(&path, &modules, false, is_module) {
                    scan.refs.push(r);
                }
                i = k;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    scan
}

fn is_ident(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The index of the bracket closing the one at `open`.
fn matching(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0;
    for (k, tok) in toks.iter().enumerate().skip(open) {
        match tok.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// The index of the token that ends the item starting at `start`: its `;` at depth
/// zero, or the `}` closing its first top-level brace.
fn item_end(toks: &[Tok], start: usize) -> usize {
    let mut k = start;
    while k < toks.len() {
        match toks[k].text.as_str() {
            ";" => return k,
            "{" => return matching(toks, k),
            "(" | "[" => k = matching(toks, k),
            _ => {}
        }
        k += 1;
    }
    toks.len()
}

/// A path as written: each segment with its line.
type Written = Vec<(String, u32)>;

/// Flattens the use tree in `toks[start..end]` onto `prefix`: each path with the name
/// it brings in (`*` for a glob).
fn use_tree(
    toks: &[Tok],
    start: usize,
    end: usize,
    prefix: &mut Written,
    out: &mut Vec<(Written, String)>,
) {
    let depth = prefix.len();
    let mut k = start;
    while k < end {
        let text = toks[k].text.as_str();
        match text {
            "::" => {}
            "*" => {
                out.push((prefix.clone(), "*".into()));
            }
            "{" => {
                let close = matching(toks, k).min(end);
                let mut item = k + 1;
                while item < close {
                    let mut next = item;
                    while next < close && toks[next].text != "," {
                        if toks[next].text == "{" {
                            next = matching(toks, next);
                        }
                        next += 1;
                    }
                    use_tree(toks, item, next, prefix, out);
                    item = next + 1;
                }
                k = close;
            }
            "as" => {
                let alias = toks.get(k + 1).map_or("", |t| t.text.as_str()).to_string();
                if let Some(last) = out.last_mut() {
                    if last.0 == *prefix {
                        last.1 = alias;
                    }
                }
                k += 1;
            }
            "self" if !prefix.is_empty() && k == start => {
                // `use a::{self, b}`: the module itself.
                let name = prefix.last().map(|s| s.0.clone()).unwrap_or_default();
                out.push((prefix.clone(), name));
            }
            _ if is_ident(text) => {
                prefix.push((text.to_string(), toks[k].line));
                if k + 1 >= end || toks[k + 1].text != "::" {
                    out.push((prefix.clone(), text.to_string()));
                }
            }
            _ => {}
        }
        k += 1;
    }
    prefix.truncate(depth);
}

/// Makes a path absolute from the module it is written in: `crate::`, `self::`,
/// `super::` (any number), or, in a `use`, a first segment naming a child module.
fn absolute(
    path: &[(String, u32)],
    module: &[String],
    in_use: bool,
    is_module: &dyn Fn(&[String]) -> bool,
) -> Option<PathRef> {
    let ((first, first_line), rest) = path.split_first()?;
    let mut base: Vec<String> = match first.as_str() {
        "crate" => Vec::new(),
        "self" => module.to_vec(),
        "super" => module[..module.len().checked_sub(1)?].to_vec(),
        _ if in_use => {
            let mut child = module.to_vec();
            child.push(first.clone());
            if !is_module(&child) {
                return None;
            }
            child
        }
        _ => return None,
    };
    let mut rest = rest;
    while let Some(("super", tail)) = rest.split_first().map(|(h, t)| (h.0.as_str(), t)) {
        base.pop()?;
        rest = tail;
    }
    let mut lines = vec![*first_line; base.len()];
    for (segment, line) in rest.iter().filter(|s| s.0 != "self") {
        base.push(segment.clone());
        lines.push(*line);
    }
    Some(PathRef { path: base, lines })
}

// ---------------------------------------------------------------------------------
// The graph and the checks.

/// The module path of a file relative to src/: `lib.rs` → [], `a/mod.rs` → [a],
/// `a/b.rs` → [a, b].
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel.split('/').map(String::from).collect();
    let last = parts.pop().unwrap_or_default();
    if last != "mod.rs" && last != "lib.rs" && last != "main.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

/// One counted edge: from a file to a file, first seen at a line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Edge {
    from: String,
    to: String,
    line: u32,
}

/// What checking one crate found.
#[derive(Debug, Default)]
pub struct CrateReport {
    pub files: usize,
    pub edges: usize,
    pub layers: usize,
    pub warnings: Vec<String>,
    /// Every circle and layer break, one block each; empty when the crate passes.
    pub problems: String,
}

/// Builds the file graph of one crate (files by path relative to its src/) and checks
/// it for circles and against its layers.
pub fn check_crate(
    krate: &CrateSpec,
    layers: &[Layer],
    files: &BTreeMap<String, String>,
) -> CrateReport {
    let graph = FileGraph::build(files);
    let mut report = CrateReport {
        files: files.len(),
        edges: graph.edges.len(),
        layers: layers.len(),
        ..CrateReport::default()
    };
    let line_of = |e: &Edge| {
        let text = files[&e.from]
            .lines()
            .nth(e.line as usize - 1)
            .unwrap_or("")
            .trim();
        format!("{}/{}:{}: {text}", krate.src, e.from, e.line)
    };
    report_circles(&mut report, krate, &graph.edges, &line_of);
    check_layers(&mut report, krate, layers, files, &graph, &line_of);
    report
}

/// A crate's files and the uses between them, test code left out.
struct FileGraph {
    edges: Vec<Edge>,
    /// Files that are test code: declared `#[cfg(test)] mod x;`, and all below them.
    tests: BTreeSet<String>,
}

impl FileGraph {
    fn build(files: &BTreeMap<String, String>) -> FileGraph {
        let by_module: BTreeMap<Vec<String>, &String> =
            files.keys().map(|rel| (module_of(rel), rel)).collect();
        let is_module = |m: &[String]| by_module.contains_key(m);
        let scans: BTreeMap<&String, Scan> = files
            .iter()
            .map(|(rel, text)| (rel, scan(text, &module_of(rel), &is_module)))
            .collect();

        // Test files: declared `#[cfg(test)] mod x;`, and everything below them.
        let mut test_modules: Vec<Vec<String>> = Vec::new();
        for (rel, s) in &scans {
            for child in &s.test_children {
                let mut m = module_of(rel);
                m.push(child.clone());
                test_modules.push(m);
            }
        }
        let is_test = |rel: &str| {
            let m = module_of(rel);
            test_modules.iter().any(|t| m.starts_with(t))
        };

        // Resolve each path to the file of its longest module prefix, following the crate
        // root's re-exports for names the root itself does not define. Also returns how
        // many of the path's own segments led there, to name the line of the last one.
        let resolve = |path: &[String]| -> Option<(&String, usize)> {
            let mut path = path.to_vec();
            let mut spelled = None;
            for _ in 0..4 {
                let k = (0..=path.len())
                    .rev()
                    .find(|&k| by_module.contains_key(&path[..k]))?;
                if k < path.len() {
                    let facade = by_module[&path[..k]];
                    let reexport = scans[facade].top_uses.get(&path[k]);
                    let follows = is_facade(facade);
                    if let Some(target) = reexport.filter(|_| follows) {
                        if target[..] != path[..=k] {
                            let mut next = target.clone();
                            next.extend(path[k + 1..].iter().cloned());
                            path = next;
                            spelled.get_or_insert(k + 1);
                            continue;
                        }
                    }
                }
                return Some((by_module[&path[..k]], spelled.unwrap_or(k)));
            }
            None
        };

        let mut edges: BTreeMap<(String, String), u32> = BTreeMap::new();
        for (rel, s) in &scans {
            if is_test(rel) {
                continue;
            }
            let from_module = module_of(rel);
            for r in &s.refs {
                let Some((to, spelled)) = resolve(&r.path) else {
                    continue;
                };
                let line = r.lines.get(spelled.max(1) - 1).copied().unwrap_or(1);
                let to_module = module_of(to);
                let nested = !from_module.is_empty()
                    && to_module.len() > from_module.len()
                    && to_module.starts_with(&from_module);
                if to == *rel || nested {
                    continue;
                }
                let line_seen = edges.entry(((*rel).clone(), to.clone())).or_insert(line);
                *line_seen = (*line_seen).min(line);
            }
        }
        let edges: Vec<Edge> = edges
            .into_iter()
            .map(|((from, to), line)| Edge { from, to, line })
            .collect();

        let tests = files.keys().filter(|f| is_test(f)).cloned().collect();
        FileGraph { edges, tests }
    }
}

/// Every circle among files and among a folder's parts, with the lines that tie it.
fn report_circles(
    report: &mut CrateReport,
    krate: &CrateSpec,
    edges: &[Edge],
    line_of: &dyn Fn(&Edge) -> String,
) {
    let files: BTreeSet<String> = edges
        .iter()
        .flat_map(|e| [e.from.clone(), e.to.clone()])
        .collect();
    for (folder, circle) in folder_circles(edges) {
        let _ = writeln!(
            report.problems,
            "folder circle in {} under {}/{folder}: {}",
            krate.name,
            krate.src,
            circle.join(" ↔ ")
        );
        for e in edges.iter().filter(|e| {
            let parts = parts_in(&folder, &e.from, &e.to);
            parts.is_some_and(|(a, b)| circle.contains(&a) && circle.contains(&b))
        }) {
            let _ = writeln!(report.problems, "  {}", line_of(e));
        }
    }

    for circle in circles(files.iter(), edges) {
        let _ = writeln!(
            report.problems,
            "circle in {}: {}",
            krate.name,
            circle.join(" ↔ ")
        );
        for e in edges
            .iter()
            .filter(|e| circle.contains(&e.from) && circle.contains(&e.to))
        {
            let _ = writeln!(
                report.problems,
                "  {} -> {}  at {}",
                e.from,
                e.to,
                line_of(e)
            );
        }
    }
}

/// Places each file in its layer and reports unplaced files, forbidden crates and uses
/// of a layer above.
fn check_layers(
    report: &mut CrateReport,
    krate: &CrateSpec,
    layers: &[Layer],
    files: &BTreeMap<String, String>,
    graph: &FileGraph,
    line_of: &dyn Fn(&Edge) -> String,
) {
    // Layers: the most specific (longest) entry that covers a file places it.
    let mut place: BTreeMap<&String, (usize, usize)> = BTreeMap::new();
    for (index, layer) in layers.iter().enumerate() {
        for entry in &layer.entries {
            let covered: Vec<&String> = files.keys().filter(|f| covers(entry, f)).collect();
            if covered.is_empty() {
                report.warnings.push(format!(
                    "{} layer {}: entry {entry:?} matches no file under {}",
                    krate.name, layer.name, krate.src
                ));
            }
            for f in covered {
                let slot = place.entry(f).or_insert((index, 0));
                if entry.len() >= slot.1 {
                    *slot = (index, entry.len());
                }
            }
        }
    }
    for f in files.keys().filter(|f| !place.contains_key(f)) {
        let _ = writeln!(
            report.problems,
            "unplaced in {}: {}/{f} is in no layer; add it to a layer in ARCHITECTURE.md",
            krate.name, krate.src
        );
    }
    for (f, &(index, _)) in &place {
        if graph.tests.contains(*f) {
            continue;
        }
        for (krate_name, line) in forbidden_names(&files[*f], &layers[index].forbids) {
            let _ = writeln!(
                report.problems,
                "forbidden in {}: {}/{f}:{line} ({}) names `{krate_name}`, which layer {} must not know",
                krate.name, krate.src, layers[index].name, layers[index].name
            );
        }
    }
    for e in &graph.edges {
        let (Some(&(from, _)), Some(&(to, _))) = (place.get(&e.from), place.get(&e.to)) else {
            continue;
        };
        if to > from {
            let _ = writeln!(
                report.problems,
                "layer break in {}: {} ({}) uses {} ({}), a layer above it\n  at {}",
                krate.name,
                e.from,
                layers[from].name,
                e.to,
                layers[to].name,
                line_of(e)
            );
        }
    }
}

/// The forbidden crates a file names as a path's first segment (`yew::`, `use
/// web_sys`), with the line, comments and literals left out.
fn forbidden_names(src: &str, forbids: &[String]) -> Vec<(String, u32)> {
    if forbids.is_empty() {
        return Vec::new();
    }
    let toks = tokenize(&strip(src));
    let mut found = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if !forbids.contains(&t.text) {
            continue;
        }
        let after_path = i > 0 && toks[i - 1].text == "::";
        let starts_path = toks.get(i + 1).is_some_and(|n| n.text == "::");
        let used = i > 0 && toks[i - 1].text == "use";
        if (starts_path || used) && !after_path {
            found.push((t.text.clone(), t.line));
        }
    }
    found
}

/// Whether a layer entry covers a file: `x.rs` that file only; `x` the module `x`
/// (`x.rs`, `x/mod.rs`) and every file below `x/`.
fn covers(entry: &str, file: &str) -> bool {
    if entry.ends_with(".rs") {
        return entry == file;
    }
    file == format!("{entry}.rs")
        || file
            .strip_prefix(entry)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Whether a file is a folder's façade (`mod.rs`, `lib.rs`, `main.rs`): the file that
/// composes the folder's parts and may re-export them.
fn is_facade(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    matches!(name, "mod.rs" | "lib.rs" | "main.rs")
}

/// The folder of a file, `""` for the crate's `src/` itself.
fn folder_of(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// The part of `folder` a file belongs to: the file itself when it lies directly in
/// the folder, else the sub-folder it lies in, taken whole; `None` when the file is
/// outside the folder or is the folder's façade.
fn part_of(folder: &str, rel: &str) -> Option<String> {
    let rest = if folder.is_empty() {
        rel
    } else {
        rel.strip_prefix(folder)?.strip_prefix('/')?
    };
    match rest.split_once('/') {
        Some((sub, _)) => Some(sub.to_string()),
        None if is_facade(rest) => None,
        None => Some(rest.to_string()),
    }
}

/// The two sibling parts an edge joins inside `folder`, when it joins two.
fn parts_in(folder: &str, from: &str, to: &str) -> Option<(String, String)> {
    let a = part_of(folder, from)?;
    let b = part_of(folder, to)?;
    (a != b).then_some((a, b))
}

/// The deepest folder holding both files.
fn common_folder<'a>(a: &'a str, b: &str) -> &'a str {
    let mut folder = folder_of(a);
    while !folder.is_empty() && !b.starts_with(&format!("{folder}/")) {
        folder = folder_of(folder);
    }
    folder
}

/// Circles among the parts of each folder (its files and its sub-folders taken
/// whole, the façade left out), by folder: two sibling parts that use each other,
/// however many files each holds, are one knot even where no two files form a circle.
fn folder_circles(edges: &[Edge]) -> Vec<(String, Vec<String>)> {
    let mut by_folder: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    for e in edges {
        let folder = common_folder(&e.from, &e.to);
        if let Some((a, b)) = parts_in(folder, &e.from, &e.to) {
            by_folder
                .entry(folder.to_string())
                .or_default()
                .insert((a, b));
        }
    }
    let mut out = Vec::new();
    for (folder, pairs) in by_folder {
        let part_edges: Vec<Edge> = pairs
            .into_iter()
            .map(|(from, to)| Edge { from, to, line: 0 })
            .collect();
        let parts: BTreeSet<String> = part_edges
            .iter()
            .flat_map(|e| [e.from.clone(), e.to.clone()])
            .collect();
        for circle in circles(parts.iter(), &part_edges) {
            out.push((folder.clone(), circle));
        }
    }
    out
}

/// The strongly connected components with more than one file (Tarjan), each sorted,
/// in the order of their first file.
fn circles<'a>(files: impl Iterator<Item = &'a String>, edges: &[Edge]) -> Vec<Vec<String>> {
    struct Tarjan<'e> {
        next: BTreeMap<&'e str, Vec<&'e str>>,
        index: BTreeMap<&'e str, usize>,
        low: BTreeMap<&'e str, usize>,
        stack: Vec<&'e str>,
        on_stack: BTreeSet<&'e str>,
        out: Vec<Vec<String>>,
    }
    impl<'e> Tarjan<'e> {
        fn visit(&mut self, v: &'e str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.next.get(v).cloned().unwrap_or_default() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.out.push(component);
                }
            }
        }
    }
    let mut t = Tarjan {
        next: BTreeMap::new(),
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for e in edges {
        t.next.entry(&e.from).or_default().push(&e.to);
    }
    for f in files {
        if !t.index.contains_key(f.as_str()) {
            t.visit(f);
        }
    }
    t.out.sort();
    t.out
}

#[cfg(test)]
mod tests;
