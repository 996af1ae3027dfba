//! `cargo xtask size`: what each crate costs in the shipped module.
//!
//! ```text
//!   dist's wasm build ──wasm-bindgen (names kept)──▶ target/size/ddlscope_app_bg.wasm
//!        ──▶ twiggy top --format csv
//!        ──▶ per-crate totals + the largest items ──▶ stdout and target/size.md
//! ```
//!
//! The module measured is the shipped one with its name section kept, so every
//! function has a name; the name section itself is left out of the totals. Each
//! function is charged to the first crate its demangled name mentions that is not a
//! generic container (`core`, `alloc`, `serde`, ...): `drop_in_place::<sqlparser::ast::
//! Statement>` is sqlparser's cost, `<toml::de::ValueDeserializer as Deserializer>::
//! deserialize_any::<Profile>` is toml's. twiggy is a report tool: only this command
//! needs it, installed from crates.io once per machine when missing.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

use crate::toolchain::{self, JOBS};
use crate::util::{self, capture, host_cargo, run, say, which, Result};
use crate::{bindgen, dist};

/// Crates whose generic code is charged to the crate of its type parameters.
const GENERIC: [&str; 8] = [
    "core",
    "alloc",
    "std",
    "serde",
    "serde_core",
    "hashbrown",
    "indexmap",
    "implicit_clone",
];

/// Items with no crate in their name: `<str>::trim`, `<u64>::fmt`, wasm-bindgen glue.
const NO_CRATE: &str = "(primitives, glue)";
/// Data segments: string constants, tables, the compiled-in assets.
const DATA: &str = "(data)";

/// How many crates and items the report lists.
const CRATE_ROWS: usize = 20;
const ITEM_ROWS: usize = 25;

/// Builds the module, measures it and prints the report; also writes `target/size.md`.
pub fn size(build: bool) -> Result {
    let twiggy = ensure_twiggy()?;
    let module = if build {
        named_module()?
    } else {
        let module = size_dir().join("ddlscope_app_bg.wasm");
        if !module.is_file() {
            return Err(format!(
                "{} is missing; run `cargo xtask size` without --no-build",
                module.display()
            ));
        }
        module
    };
    say(
        format!("measuring {} with twiggy", module.display()),
        "twiggy lists every function and data segment with its size",
    );
    let output = Command::new(&twiggy)
        .args(["top", "--format", "csv", "-n", "10000000"])
        .arg(&module)
        .output()
        .map_err(|e| format!("cannot start {}: {e}", twiggy.display()))?;
    if !output.status.success() {
        return Err(format!(
            "twiggy failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let items = parse_csv(&String::from_utf8_lossy(&output.stdout))?;
    let report = render(&items, &shipped_sizes());
    print!("{report}");
    let out = util::target_dir().join("size.md");
    fs::write(&out, &report).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!("==> report in {}", out.display());
    Ok(())
}

fn size_dir() -> PathBuf {
    util::target_dir().join("size")
}

/// The app's module as dist ships it, but with its function names.
fn named_module() -> Result<PathBuf> {
    let wasm = dist::build_app_wasm()?;
    let dir = size_dir();
    say(
        format!(
            "generating the module with its names into {}",
            dir.display()
        ),
        "the same wasm-bindgen run as dist's, without --remove-name-section",
    );
    bindgen::generate(&wasm, &dir, bindgen::Names::Kept)?;
    Ok(dir.join("ddlscope_app_bg.wasm"))
}

/// `(raw, gzip -9)` bytes of `target/dist/ddlscope_app_bg.wasm`, if it is there.
fn shipped_sizes() -> Option<(u64, u64)> {
    let shipped = dist::dist_dir().join("ddlscope_app_bg.wasm");
    let raw = fs::metadata(&shipped).ok()?.len();
    let gzip = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(&shipped)
        .output()
        .ok()
        .filter(|o| o.status.success())?
        .stdout
        .len() as u64;
    Some((raw, gzip))
}

/// twiggy from Cargo's bin directory or PATH, else `cargo install twiggy` (once).
fn ensure_twiggy() -> Result<PathBuf> {
    let cargo_bin = toolchain::cargo_home().join("bin").join("twiggy");
    if cargo_bin.is_file() {
        return Ok(cargo_bin);
    }
    if let Some(found) = which("twiggy") {
        return Ok(found);
    }
    say(
        "installing twiggy with cargo install (a few minutes, once per machine)",
        "the size report reads the module with it; nothing else in xtask needs it",
    );
    run(Command::new(host_cargo())
        .args(["install", "twiggy", "-j", JOBS])
        .current_dir(toolchain::cargo_home()))?;
    capture(Command::new(&cargo_bin).arg("--version"))
        .map(|_| cargo_bin.clone())
        .ok_or_else(|| format!("installed twiggy, but {} does not run", cargo_bin.display()))
}

/// One row of twiggy's report.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Item {
    name: String,
    bytes: u64,
}

/// twiggy's CSV: `Name,ShallowSize,...`, names quoted when they hold commas or quotes.
fn parse_csv(text: &str) -> Result<Vec<Item>> {
    let mut items = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        if line.is_empty() {
            continue;
        }
        let fields = csv_fields(line);
        let bytes = fields
            .get(1)
            .and_then(|b| b.parse().ok())
            .ok_or_else(|| format!("twiggy's CSV line {}: no size in {line:?}", n + 1))?;
        items.push(Item {
            name: fields[0].clone(),
            bytes,
        });
    }
    Ok(items)
}

/// Splits one CSV line: fields in double quotes may hold commas and `""` for a quote.
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// Whether an item is the debugging name section (measured, never shipped).
fn is_names(name: &str) -> bool {
    name.ends_with("names\" subsection") || name == "name section"
}

/// The crate an item's code is charged to (see the module's comment).
fn crate_of(name: &str) -> &str {
    if name.starts_with("data segment") {
        return DATA;
    }
    let mut first_generic = None;
    for krate in crate_names(name) {
        if !GENERIC.contains(&krate) {
            return krate;
        }
        first_generic.get_or_insert(krate);
    }
    first_generic.unwrap_or(NO_CRATE)
}

/// The crate names in a demangled symbol: `name[hash]::` (v0 mangling) or a path's
/// first segment `name::` (legacy), in order.
fn crate_names(symbol: &str) -> impl Iterator<Item = &str> {
    let bytes = symbol.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_')
            && (i == 0 || b"<&( ,*[".contains(&bytes[i - 1]));
        if !starts_word {
            i += 1;
            continue;
        }
        let end = i + bytes[i..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let rest = &symbol[end..];
        let hashed = rest.strip_prefix('[').and_then(|r| {
            let hex = r.bytes().take_while(u8::is_ascii_hexdigit).count();
            (hex > 0 && r[hex..].starts_with("]::")).then_some(())
        });
        if hashed.is_some() || rest.starts_with("::") {
            found.push(&symbol[i..end]);
        }
        i = end;
    }
    found.into_iter()
}

/// The report as Markdown: the module's totals, per-crate totals, the largest items.
fn render(items: &[Item], shipped: &Option<(u64, u64)>) -> String {
    let measured: Vec<&Item> = items.iter().filter(|i| !is_names(&i.name)).collect();
    let total: u64 = measured.iter().map(|i| i.bytes).sum();
    let mut by_crate: BTreeMap<&str, (u64, usize)> = BTreeMap::new();
    for item in &measured {
        let entry = by_crate.entry(crate_of(&item.name)).or_default();
        entry.0 += item.bytes;
        entry.1 += 1;
    }
    let mut crates: Vec<(&str, (u64, usize))> = by_crate.into_iter().collect();
    crates.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));

    let mut out = String::new();
    if let Some((raw, gzip)) = shipped {
        out += &format!(
            "shipped target/dist/ddlscope_app_bg.wasm: {raw} bytes ({:.2} MiB), {gzip} gzipped (-9)\n\n",
            *raw as f64 / 1_048_576.0
        );
    }
    out += &format!("code and data without the name section: {total} bytes\n\n");
    out += "| crate | bytes | share | items |\n|---|---:|---:|---:|\n";
    let shown = crates.len().min(CRATE_ROWS);
    for (krate, (bytes, count)) in &crates[..shown] {
        out += &format!(
            "| {krate} | {bytes} | {} | {count} |\n",
            percent(*bytes, total)
        );
    }
    let (rest_bytes, rest_items) = crates[shown..]
        .iter()
        .fold((0, 0), |(b, n), (_, (bytes, count))| (b + bytes, n + count));
    if rest_items > 0 {
        out += &format!(
            "| {} more crates | {rest_bytes} | {} | {rest_items} |\n",
            crates.len() - shown,
            percent(rest_bytes, total)
        );
    }
    let mut largest = measured.clone();
    largest.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.name.cmp(&b.name)));
    out += "\n| largest items | bytes |\n|---|---:|\n";
    for item in largest.iter().take(ITEM_ROWS) {
        out += &format!("| `{}` | {} |\n", short_name(&item.name), item.bytes);
    }
    out
}

fn percent(part: u64, whole: u64) -> String {
    format!("{:.1}%", part as f64 * 100.0 / whole.max(1) as f64)
}

/// A symbol without its crate hashes, cut to a readable length.
fn short_name(name: &str) -> String {
    let mut out = String::new();
    let mut rest = name;
    while let Some(open) = rest.find('[') {
        let tail = &rest[open + 1..];
        let hex = tail.bytes().take_while(u8::is_ascii_hexdigit).count();
        if hex >= 8 && tail[hex..].starts_with(']') {
            out += &rest[..open];
            rest = &tail[hex + 1..];
        } else {
            out += &rest[..=open];
            rest = tail;
        }
    }
    out += rest;
    let out = out.replace('|', "\\|");
    match out.char_indices().nth(110) {
        Some((cut, _)) => format!("{}…", &out[..cut]),
        None => out,
    }
}

/// A few rows of twiggy's CSV for a real module, for the tests.
#[cfg(test)]
fn sample_items() -> Vec<Item> {
    let csv = "Name,ShallowSize,ShallowSizePercent,RetainedSize,RetainedSizePercent\n\
\"\"\"function names\"\" subsection\",2913040,35.9,,\n\
\"data segment \"\".rodata\"\"\",458322,5.6,,\n\
<sqlparser[cb8d223bad9f50af]::keywords::Keyword as core[8a97de082bc4c33]::fmt::Display>::fmt,56763,0.7,,\n\
\"core[8a97de082bc4c33]::ptr::drop_in_place::<sqlparser[cb8d223bad9f50af]::ast::Statement>\",2000,0.1,,\n\
\"<toml[3be51ebda0bccbff]::value::Value as serde_core[c06da84db441be22]::de::Deserializer>::deserialize_any::<ddlscope_engine[7bd4002f1661e992]::profile::Costs, a>\",1000,0.1,,\n\
<str>::to_lowercase,3528,0.04,,\n\
alloc[1041499c94bd69a6]::raw_vec::finish_grow,300,0.01,,\n";
    parse_csv(csv).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_names_keep_commas_and_quotes() {
        let items = sample_items();
        assert_eq!(items[0].name, "\"function names\" subsection");
        assert_eq!(items[1].name, "data segment \".rodata\"");
        assert!(items[4].name.ends_with("Costs, a>"));
        assert_eq!(items[4].bytes, 1000);
        assert!(parse_csv("Name,ShallowSize\nbroken line\n").is_err());
    }

    #[test]
    fn code_is_charged_to_the_crate_of_its_types() {
        assert_eq!(
            crate_of("<sqlparser[cb8d]::keywords::Keyword as core[8a97]::fmt::Display>::fmt"),
            "sqlparser"
        );
        assert_eq!(
            crate_of("core[8a97]::ptr::drop_in_place::<sqlparser[cb8d]::ast::Statement>"),
            "sqlparser"
        );
        assert_eq!(
            crate_of("<toml[3be5]::value::Value as serde_core[c06d]::de::Deserializer>::deserialize_any::<ddlscope_engine[7bd4]::profile::Costs>"),
            "toml"
        );
        assert_eq!(crate_of("alloc[1041]::raw_vec::finish_grow"), "alloc");
        assert_eq!(crate_of("<str>::to_lowercase"), NO_CRATE);
        assert_eq!(crate_of("data segment \".rodata\""), DATA);
        // Legacy mangling: paths without hashes.
        assert_eq!(crate_of("core::ptr::drop_in_place<yew::html::Html>"), "yew");
        assert_eq!(crate_of("yew::scheduler::start::h0123"), "yew");
    }

    #[test]
    fn the_report_leaves_out_names_and_sums_crates() {
        let report = render(&sample_items(), &Some((5_000_000, 1_700_000)));
        assert!(report.starts_with(
            "shipped target/dist/ddlscope_app_bg.wasm: 5000000 bytes (4.77 MiB), 1700000 gzipped"
        ));
        // 458322 + 56763 + 2000 + 1000 + 3528 + 300, without the 2913040 of names.
        assert!(report.contains("without the name section: 521913 bytes"));
        assert!(report.contains("| sqlparser | 58763 | 11.3% | 2 |"));
        assert!(report.contains("| (data) | 458322 |"));
        assert!(report
            .contains("| `<sqlparser::keywords::Keyword as core::fmt::Display>::fmt` | 56763 |"));
        assert!(!report.contains("function names"));
    }

    #[test]
    fn short_names_drop_hashes_only() {
        assert_eq!(short_name("a[0123456789abcdef]::b[x]"), "a::b[x]");
        assert_eq!(short_name("x|y").as_str(), "x\\|y");
        assert_eq!(short_name(&"n".repeat(200)).chars().count(), 111);
    }
}
