//! Packs `assets/{profiles,scenarios,lessons}/*.toml` into one deflate stream for
//! `src/builtin.rs`: the texts cost the shipped wasm a fifth of their size, and are
//! inflated once, on first use.
//!
//! ```text
//!   assets/<dir>/<name>.toml, sorted ──concatenate──▶ deflate (level 10) ──▶ OUT_DIR/assets.deflate
//!                                    └─────────────▶ ("<dir>/<name>", start, end) ──▶ OUT_DIR/assets.rs
//! ```

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

const DIRS: [&str; 3] = ["profiles", "scenarios", "lessons"];

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut text = String::new();
    let mut index = String::from("/// `(\"<dir>/<name>\", start, end)` of each file in the inflated text, sorted.\nconst INDEX: &[(&str, usize, usize)] = &[\n");
    for dir in DIRS {
        let path = root.join(dir);
        println!("cargo:rerun-if-changed={}", path.display());
        let mut names: Vec<String> = fs::read_dir(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
            .map(|e| {
                e.expect("a directory entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter_map(|n| n.strip_suffix(".toml").map(str::to_string))
            .collect();
        names.sort();
        for name in names {
            let file = path.join(format!("{name}.toml"));
            let body = fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
            let start = text.len();
            text.push_str(&body);
            writeln!(index, "    (\"{dir}/{name}\", {start}, {}),", text.len()).unwrap();
        }
    }
    index.push_str("];\n");
    let packed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 10);
    fs::write(Path::new(&out).join("assets.deflate"), packed).expect("write assets.deflate");
    fs::write(Path::new(&out).join("assets.rs"), index).expect("write assets.rs");
}
