//! The shipped scenarios, profiles and lessons, compiled in from `assets/` so the browser
//! and the command line run exactly the same files without any file access.
//!
//! Two forms of the same files:
//!
//! ```text
//!   assets/*.toml ──build.rs: deflate──▶ the texts (Asset::text: the CLI, user-facing checks)
//!         │
//!         └──Scenario::from_toml, Profile::from_toml, lesson::parse (a test, UPDATE_GOLDEN=1)
//!              ──bincode, deflate──▶ builtin/*.bin ──▶ Scenario::builtin, Profile::builtin,
//!                                                      lesson::builtin (no TOML parser)
//! ```
//!
//! `build.rs` packs the texts into one deflate stream; the first [`Asset::text`]
//! inflates it, once, and every text is a slice of it from then on. `builtin/*.bin`
//! hold the same files already read and checked, so that what the browser needs of them
//! does not link the TOML parser and its deserializers for every scenario, profile and
//! lesson type (0.5 MB of the wasm). Each type's module decodes its own file
//! ([`compiled`]) and has a test that reads every file again and fails, naming the
//! command that rewrites it, when its `.bin` differs ([`check_compiled`]).

use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The deflated texts, as `build.rs` packed them.
const PACKED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/assets.deflate"));

/// A built-in file: `assets/<path>.toml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asset {
    path: &'static str,
}

impl Asset {
    /// The file's TOML text (the first call inflates every built-in file).
    pub fn text(&self) -> &'static str {
        static TEXT: OnceLock<String> = OnceLock::new();
        let all = TEXT.get_or_init(|| {
            let bytes = miniz_oxide::inflate::decompress_to_vec(PACKED)
                .expect("build.rs deflated the assets");
            String::from_utf8(bytes).expect("the assets are UTF-8")
        });
        let (_, start, end) = INDEX
            .iter()
            .find(|(p, _, _)| *p == self.path)
            .unwrap_or_else(|| panic!("assets/{}.toml is not built in", self.path));
        &all[*start..*end]
    }
}

/// `(name, asset)` pairs for files `assets/<dir>/<name>.toml`.
macro_rules! assets {
    ($dir:literal: $($name:literal),* $(,)?) => {
        &[$(($name, Asset { path: concat!($dir, "/", $name) })),*]
    };
}

/// Built-in engine profiles: (name, TOML file).
pub const PROFILES: &[(&str, Asset)] = assets!("profiles": "mysql-5.1", "mysql-5.5.30", "mariadb-5.5", "fb-mysql-5.6", "mysql-5.7", "alisql-5.7", "mysql-8.0.22", "mysql-8.0.23", "mysql-8.0.28", "mysql-8.0.29", "polardb-8.0", "alisql-8.0", "mysql-8.4", "mariadb-10.11");

/// Built-in scenarios: (name, TOML file).
pub const SCENARIOS: &[(&str, Asset)] = assets!("scenarios": "drop-table-demo", "steady-oltp-rw", "full-pool-writes", "i1-ahi-drop", "i3-ext3-drop", "i4-create-index", "i2-instant-columns", "workaround-truncate", "workaround-create-like-rename-drop", "workaround-hardlink-discard", "hardlink-plain-drop", "i5-compressed-partition-drop", "i5-truncate-then-drop", "gh-ost-cut-over-long-transaction", "pt-osc-triggers-write-load", "replica-lag-native", "replica-lag-gh-ost", "inplace-row-log-overflow", "drop-table-80-32g", "instant-columns-row-version-limit");

/// Built-in lessons: (id, TOML file), in the order the app lists them.
pub const LESSONS: &[(&str, Asset)] = assets!("lessons": "mdl-queue", "drop-table-57-vs-80", "ahi-dict-sys-stall", "ext3-lock-open", "instant-columns", "compressed-partitions", "which-statement", "choosing-how-to-run-a-ddl");

/// The TOML text of a built-in profile.
pub fn profile_text(name: &str) -> Option<&'static str> {
    PROFILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, a)| a.text())
}

/// The TOML text of a built-in scenario.
pub fn scenario_text(name: &str) -> Option<&'static str> {
    SCENARIOS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, a)| a.text())
}

/// The built-in scenarios, read and checked, as bincode, deflated.
pub(crate) const COMPILED_SCENARIOS: &[u8] = include_bytes!("builtin/scenarios.bin");
/// The built-in profiles, read and checked, as bincode, deflated.
pub(crate) const COMPILED_PROFILES: &[u8] = include_bytes!("builtin/profiles.bin");
/// The built-in lessons, read and checked, as bincode, deflated.
pub(crate) const COMPILED_LESSONS: &[u8] = include_bytes!("builtin/lessons.bin");

/// What a stale `builtin/*.bin` says.
pub(crate) const STALE: &str = "crates/engine/src/builtin/*.bin do not match assets/: run \
     UPDATE_GOLDEN=1 cargo test -p ddlscope-engine --lib builtin_bin";

/// A `builtin/*.bin` file's `(name, value)` pairs, in its list's order.
pub(crate) fn compiled<T: serde::de::DeserializeOwned>(packed: &[u8]) -> Vec<(String, T)> {
    miniz_oxide::inflate::decompress_to_vec(packed)
        .ok()
        .and_then(|bytes| bincode::deserialize(&bytes).ok())
        .expect(STALE)
}

/// The value named `name` in a decoded `builtin/*.bin`.
pub(crate) fn find<T: Clone>(list: &[(String, T)], name: &str) -> T {
    list.iter()
        .find(|(n, _)| n == name)
        .map(|(_, t)| t.clone())
        .expect(STALE)
}

/// Test support: `builtin/<file>` must hold `fresh` (`(name, value)` pairs read from
/// the files today); with `UPDATE_GOLDEN=1` it is rewritten instead.
#[cfg(test)]
pub(crate) fn check_compiled<T: serde::Serialize>(
    file: &str,
    shipped: &[u8],
    fresh: &[(String, T)],
) {
    let fresh = bincode::serialize(fresh).expect("the built-ins serialize");
    let now = miniz_oxide::inflate::decompress_to_vec(shipped).unwrap_or_default();
    if fresh == now {
        return;
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let path = format!("{}/src/builtin/{file}", env!("CARGO_MANIFEST_DIR"));
        let packed = miniz_oxide::deflate::compress_to_vec(&fresh, 10);
        std::fs::write(&path, packed).unwrap_or_else(|e| panic!("{path}: {e}"));
        return;
    }
    panic!("{STALE}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_file_is_built_in() {
        // A scenario or profile added to assets/ but not to the lists above would be
        // invisible to users.
        for (dir, list) in [
            ("profiles", PROFILES),
            ("scenarios", SCENARIOS),
            ("lessons", LESSONS),
        ] {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/");
            let on_disk = std::fs::read_dir(format!("{path}{dir}")).unwrap().count();
            assert_eq!(
                on_disk,
                list.len(),
                "assets/{dir} has {on_disk} files, {} built in",
                list.len()
            );
            for (name, asset) in list {
                let file = std::fs::read_to_string(format!("{path}{dir}/{name}.toml")).unwrap();
                assert_eq!(asset.text(), file, "assets/{dir}/{name}.toml");
            }
        }
        assert_eq!(
            INDEX.len(),
            PROFILES.len() + SCENARIOS.len() + LESSONS.len()
        );
    }
}
