//! The layer check on small crates written as strings.

use super::*;

fn m(path: &str) -> Vec<String> {
    if path.is_empty() {
        return Vec::new();
    }
    path.split("::").map(String::from).collect()
}

/// The absolute paths `src` names, written in module `module` of a crate whose module
/// files are `modules`.
fn paths(src: &str, module: &str, modules: &[&str]) -> Vec<String> {
    let modules: Vec<Vec<String>> = modules.iter().map(|x| m(x)).collect();
    let is_module = |p: &[String]| modules.iter().any(|x| x == p);
    scan(src, &m(module), &is_module)
        .refs
        .iter()
        .map(|r| format!("{}@{}", r.path.join("::"), r.lines.last().unwrap_or(&0)))
        .collect()
}

const SPEC: &str = "\
# Architecture

## Layers

Some words.

```layers
# a comment
crate demo src
crate later src/app when model
demo bottom: units.rs a   # trailing comment
demo middle: b.rs c
demo top: lib.rs
later ui: ui
```

## Next
";

/// Checks a crate of `(path, source)` files against SPEC's `demo` layers.
fn check(files: &[(&str, &str)]) -> CrateReport {
    let spec = parse_spec(SPEC).unwrap();
    let files: BTreeMap<String, String> = files
        .iter()
        .map(|(p, s)| (p.to_string(), s.to_string()))
        .collect();
    check_crate(&spec.crates[0], &spec.layers_of("demo"), &files)
}

#[test]
fn parses_the_layers_block() {
    let spec = parse_spec(SPEC).unwrap();
    assert_eq!(
        spec.crates,
        [
            CrateSpec {
                name: "demo".into(),
                src: "src".into(),
                when: None
            },
            CrateSpec {
                name: "later".into(),
                src: "src/app".into(),
                when: Some("model".into())
            },
        ]
    );
    let names: Vec<_> = spec.layers.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["bottom", "middle", "top", "ui"]);
    assert_eq!(spec.layers[0].entries, ["units.rs", "a"]);
    assert!(parse_spec("# no section").is_err());
    assert!(parse_spec("## Layers\n```layers\nghost x: a.rs\n```")
        .unwrap_err()
        .contains("not declared"));
}

#[test]
fn reads_plain_grouped_and_public_uses() {
    let src = "\
use crate::a::X;
pub use crate::b::{c::Y, d::{Z, W as V}};
pub(crate) use crate::e;
use std::fmt;
use serde::Serialize;
use child::Thing;
";
    assert_eq!(
        paths(src, "", &["child"]),
        [
            "a::X@1",
            "b::c::Y@2",
            "b::d::Z@2",
            "b::d::W@2",
            "e@3",
            "child::Thing@6"
        ]
    );
}

#[test]
fn resolves_self_super_and_super_super() {
    let src = "\
use self::inner::A;
use super::sibling::B;
use super::super::top::C;
use super::{self, D};
fn f() { let _ = super::super::far::g(); let _ = self::h(); }
";
    assert_eq!(
        paths(src, "x::y::z", &[]),
        [
            "x::y::z::inner::A@1",
            "x::y::sibling::B@2",
            "x::top::C@3",
            "x::y@4",
            "x::y::D@4",
            "x::far::g@5",
            "x::y::z::h@5"
        ]
    );
}

#[test]
fn ignores_comments_strings_and_test_code() {
    let src = r####"
// use crate::a::X;
/// crate::b::Y in a doc comment
//! crate::c
/* crate::d /* nested crate::e */ still crate::f */
fn f() {
    let s = "crate::g::h";
    let r = r#"crate::i "quoted" crate::j"#;
    let c = '{';
    let q = '"';
    let lifetime: &'static str = "x";
    crate::real::call();
}
#[cfg(test)]
mod tests {
    use crate::k::Z;
}
#[cfg(test)]
use crate::l::W;
pub(in crate::m) fn g() {}
"####;
    assert_eq!(paths(src, "", &[]), ["real::call@12"]);
}

#[test]
fn an_inline_module_moves_super() {
    let src = "mod inner { use super::a::X; }\nuse super::b::Y;";
    assert_eq!(paths(src, "p::q", &[]), ["p::q::a::X@1", "p::b::Y@2"]);
}

#[test]
fn a_clean_crate_passes_with_counts() {
    let report = check(&[
        (
            "lib.rs",
            "mod a; mod b; pub use b::Thing; pub use units::Id;",
        ),
        ("units.rs", "pub struct Id;"),
        ("a/mod.rs", "mod inner; use self::inner::I; use crate::Id;"),
        (
            "a/inner.rs",
            "use super::super::units::Id; use crate::a::Top;",
        ),
        ("b.rs", "use crate::a::inner::I; use crate::c::C;"),
        ("c.rs", "use crate::Id; #[cfg(test)] mod tests;"),
        ("c/tests.rs", "use crate::b::Thing;"),
    ]);
    assert_eq!(report.problems, "");
    assert_eq!(report.files, 7);
    // lib→b, lib→units, a→units (via the root re-export of Id), a/inner→units,
    // a/inner→a (a child to its parent counts), b→a/inner, b→c, c→units; a→a/inner
    // does not count (a parent composes its children), nor does c/tests.rs (test code).
    assert_eq!(report.edges, 8);
    assert_eq!(report.layers, 3);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
}

#[test]
fn a_circle_fails_naming_its_files_and_lines() {
    let report = check(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;"),
        ("a.rs", "use crate::b::B;"),
        ("b.rs", "\nuse crate::c::{\n    C,\n};"),
        ("c.rs", "fn f() {\n    crate::a::g();\n}"),
    ]);
    assert!(
        report
            .problems
            .contains("circle in demo: a.rs ↔ b.rs ↔ c.rs"),
        "{}",
        report.problems
    );
    assert!(report
        .problems
        .contains("a.rs -> b.rs  at src/a.rs:1: use crate::b::B;"));
    assert!(report
        .problems
        .contains("b.rs -> c.rs  at src/b.rs:2: use crate::c::{"));
    assert!(report
        .problems
        .contains("c.rs -> a.rs  at src/c.rs:2: crate::a::g();"));
}

#[test]
fn the_crate_root_is_not_a_parent() {
    // lib.rs's own items used from below, and its `pub use` of that file: a circle.
    let report = check(&[
        ("lib.rs", "mod units;\npub use units::X;\npub struct Id;"),
        ("units.rs", "use crate::Id;"),
    ]);
    assert!(report
        .problems
        .contains("circle in demo: lib.rs ↔ units.rs"));
    assert!(report
        .problems
        .contains("layer break in demo: units.rs (bottom) uses lib.rs (top)"));
}

#[test]
fn a_use_of_a_layer_above_fails_and_unplaced_files_fail() {
    let report = check(&[
        ("lib.rs", ""),
        ("units.rs", "use crate::c::C;"),
        ("c.rs", ""),
        ("stray.rs", ""),
    ]);
    assert!(report.problems.contains(
        "layer break in demo: units.rs (bottom) uses c.rs (middle), a layer above it\n  at src/units.rs:1: use crate::c::C;"
    ));
    assert!(report.problems.contains("src/stray.rs is in no layer"));
    // `a` and `b.rs` match nothing: warnings, not failures.
    assert_eq!(report.warnings.len(), 2, "{:?}", report.warnings);
}

#[test]
fn the_longest_entry_places_a_file() {
    assert!(covers("a", "a.rs"));
    assert!(covers("a", "a/mod.rs"));
    assert!(covers("a", "a/b/c.rs"));
    assert!(!covers("a", "ab.rs"));
    assert!(covers("a.rs", "a.rs"));
    assert!(!covers("a.rs", "a/b.rs"));
    let spec =
        parse_spec("## Layers\n```layers\ncrate d src\nd low: a/low.rs\nd high: a lib.rs\n```")
            .unwrap();
    let files: BTreeMap<String, String> = [
        ("lib.rs", ""),
        ("a/mod.rs", "mod low;"),
        ("a/low.rs", "use super::X;"),
    ]
    .iter()
    .map(|(p, s)| (p.to_string(), s.to_string()))
    .collect();
    let report = check_crate(&spec.crates[0], &spec.layers_of("d"), &files);
    assert!(report
        .problems
        .contains("layer break in d: a/low.rs (low) uses a/mod.rs (high)"));
}

#[test]
fn a_layer_that_forbids_a_crate_fails_where_a_file_names_it() {
    let spec = parse_spec(
        "## Layers\n```layers\ncrate demo src\ndemo low: low.rs\ndemo low forbids: yew web_sys\ndemo high: high.rs\n```\n",
    )
    .unwrap();
    assert_eq!(spec.layers[0].forbids, ["yew", "web_sys"]);
    let files: BTreeMap<String, String> = [
        (
            "low.rs",
            "// yew::Html in a comment is fine\nuse std::fmt;\nfn f() -> yew::Html {}\n",
        ),
        ("high.rs", "use yew::prelude::*;\n"),
    ]
    .iter()
    .map(|(p, s)| (p.to_string(), s.to_string()))
    .collect();
    let report = check_crate(&spec.crates[0], &spec.layers_of("demo"), &files);
    assert!(
        report.problems.contains("src/low.rs:3 (low) names `yew`"),
        "{}",
        report.problems
    );
    assert!(!report.problems.contains("high.rs"), "{}", report.problems);
    let clean: BTreeMap<String, String> = [("low.rs", "use std::fmt;\n"), ("high.rs", "")]
        .iter()
        .map(|(p, s)| (p.to_string(), s.to_string()))
        .collect();
    let report = check_crate(&spec.crates[0], &spec.layers_of("demo"), &clean);
    assert!(report.problems.is_empty(), "{}", report.problems);
}

#[test]
fn sibling_folders_that_use_each_other_are_a_folder_circle() {
    // No two files form a circle, but the folders `session` and `ddl` use each
    // other: one knot, reported under their common folder with each line.
    let report = check(&[
        ("lib.rs", "mod sim;"),
        ("sim/mod.rs", "mod ddl;\nmod session;"),
        ("sim/session/mod.rs", "mod plan;\nuse crate::sim::ddl::Ddl;"),
        ("sim/session/plan.rs", "pub struct Plan;"),
        ("sim/ddl/mod.rs", "mod phases;\npub struct Ddl;"),
        ("sim/ddl/phases.rs", "use crate::sim::session::plan::Plan;"),
    ]);
    assert!(
        report
            .problems
            .contains("folder circle in demo under src/sim: ddl ↔ session"),
        "{}",
        report.problems
    );
    assert!(report
        .problems
        .contains("src/sim/ddl/phases.rs:1: use crate::sim::session::plan::Plan;"));
    assert!(
        !report.problems.contains("circle in demo: "),
        "{}",
        report.problems
    );
}

#[test]
fn a_facade_may_reexport_its_children_and_a_use_through_it_reaches_the_file() {
    // sim/mod.rs re-exports session's Plan; ddl reaching Plan through the façade is
    // an edge to session/plan.rs, so session -> ddl and ddl -> session still knot.
    let knot = check(&[
        ("lib.rs", "mod sim;"),
        (
            "sim/mod.rs",
            "mod ddl;\nmod session;\npub use session::Plan;",
        ),
        (
            "sim/session/mod.rs",
            "mod plan;\npub use plan::Plan;\nuse crate::sim::ddl::Ddl;",
        ),
        ("sim/session/plan.rs", "pub struct Plan;"),
        ("sim/ddl/mod.rs", "pub struct Ddl;\nuse crate::sim::Plan;"),
    ]);
    assert!(
        knot.problems
            .contains("folder circle in demo under src/sim: ddl ↔ session"),
        "{}",
        knot.problems
    );
    // One direction only (session uses ddl), the façade composing both: clean.
    let clean = check(&[
        ("lib.rs", "mod sim;"),
        (
            "sim/mod.rs",
            "mod ddl;\nmod session;\npub use session::Plan;\nuse ddl::Ddl;",
        ),
        (
            "sim/session/mod.rs",
            "mod plan;\npub use plan::Plan;\nuse crate::sim::ddl::Ddl;",
        ),
        ("sim/session/plan.rs", "pub struct Plan;"),
        (
            "sim/ddl/mod.rs",
            "pub struct Ddl;\nfn f() { let _ = crate::sim::Ddl2; }",
        ),
    ]);
    assert!(
        !clean.problems.contains("folder circle"),
        "{}",
        clean.problems
    );
}
