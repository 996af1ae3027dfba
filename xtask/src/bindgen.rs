//! The app module's JS glue: wasm-bindgen's own library, linked into xtask.
//!
//! `wasm-bindgen-cli-support` is what the `wasm-bindgen` CLI runs; as a dependency
//! of xtask it is compiled once, in the debug profile, with the rest of the
//! workspace, where `cargo install wasm-bindgen-cli` built it in release mode into
//! `~/.cargo/bin` (about 4 minutes of a fresh machine's 2 cores). Its version must
//! equal the `wasm-bindgen` crate's in Cargo.lock: the glue and the module's
//! custom sections are one protocol (a test below checks the pin).

use crate::util::Result;
use std::path::Path;
use wasm_bindgen_cli_support::Bindgen;

/// What the generated files are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Names {
    /// The shipped site: the name section only serves debuggers, and is 40 % of
    /// the file.
    Removed,
    /// `cargo xtask size`: every function keeps its name, for twiggy.
    Kept,
}

/// Writes `ddlscope_app.js` and `ddlscope_app_bg.wasm` for `--target web` into
/// `out_dir`, as `wasm-bindgen --target web --no-typescript [--remove-name-section]`.
pub fn generate(wasm: &Path, out_dir: &Path, names: Names) -> Result {
    let mut bindgen = Bindgen::new();
    bindgen
        .input_path(wasm)
        .web(true)
        .map_err(|e| format!("wasm-bindgen refused --target web: {e:#}"))?
        .typescript(false)
        // The CLI's defaults where the library's differ: the glue names its module
        // (`new URL('ddlscope_app_bg.wasm', import.meta.url)`) so `init()` works
        // without an argument.
        .omit_default_module_path(false)
        .remove_name_section(names == Names::Removed);
    bindgen.generate(out_dir).map_err(|e| {
        format!(
            "wasm-bindgen could not generate the JS glue for {} into {}: {e:#}",
            wasm.display(),
            out_dir.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use crate::util::workspace_root;

    /// Reads the exact version of `package` from Cargo.lock (the first entry of that name).
    pub fn lock_version(lock_text: &str, package: &str) -> Option<String> {
        let mut in_package = false;
        let mut name_matches = false;
        for line in lock_text.lines() {
            let line = line.trim();
            if line == "[[package]]" {
                in_package = true;
                name_matches = false;
            } else if line.starts_with('[') {
                in_package = false;
            } else if in_package {
                if let Some(name) = toml_string(line, "name") {
                    name_matches = name == package;
                } else if let Some(version) = toml_string(line, "version") {
                    if name_matches {
                        return Some(version.to_string());
                    }
                }
            }
        }
        None
    }

    /// `key = "value"` → `value`.
    fn toml_string<'a>(line: &'a str, key: &str) -> Option<&'a str> {
        let rest = line
            .strip_prefix(key)?
            .trim_start()
            .strip_prefix('=')?
            .trim();
        rest.strip_prefix('"')?.strip_suffix('"')
    }

    const LOCK: &str = r#"
version = 4

[[package]]
name = "wasm-bindgen-macro"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
dependencies = [
 "cfg-if",
]
"#;

    #[test]
    fn lock_version_finds_the_exact_package() {
        assert_eq!(
            lock_version(LOCK, "wasm-bindgen").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(
            lock_version(LOCK, "wasm-bindgen-macro").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(lock_version(LOCK, "yew"), None);
    }

    #[test]
    fn the_glue_library_is_pinned_to_the_app_crates_wasm_bindgen() {
        let lock = std::fs::read_to_string(workspace_root().join("Cargo.lock")).unwrap();
        let crate_version =
            lock_version(&lock, "wasm-bindgen").expect("wasm-bindgen in Cargo.lock");
        let glue_version = lock_version(&lock, "wasm-bindgen-cli-support")
            .expect("wasm-bindgen-cli-support in Cargo.lock");
        assert_eq!(
            glue_version, crate_version,
            "xtask's wasm-bindgen-cli-support must be the app's wasm-bindgen version: pin it with =x.y.z in xtask/Cargo.toml"
        );
    }
}
