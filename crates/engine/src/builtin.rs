//! The shipped scenarios, profiles and lessons, compiled in from `assets/` so the browser
//! and the command line run exactly the same files without any file access.
//!
//! Two forms of the same files:
//!
//! ```text
//!   assets/*.toml ──build.rs: deflate──▶ the texts (Asset::text: the CLI, user-facing checks)
//!         │
//!         └──Scenario::from_toml, Profile::from_toml, lesson::parse (a test, UPDATE_GOLDEN=1)
//!              ──bincode, deflate──▶ builtin.bin ──▶ Scenario::builtin, Profile::builtin,
//!                                                    lesson::builtin (no TOML parser)
//! ```
//!
//! `build.rs` packs the texts into one deflate stream; the first [`Asset::text`]
//! inflates it, once, and every text is a slice of it from then on. `builtin.bin` holds
//! the same files already read and checked, so that what the browser needs of them does
//! not link the TOML parser and its deserializers for every scenario, profile and lesson
//! type (about 0.5 MB of the wasm); the test `builtin_bin_is_current` parses every file
//! again and fails, naming the command that rewrites it, when `builtin.bin` differs.

use std::sync::OnceLock;

use crate::lesson::Lesson;
use crate::profile::Profile;
use crate::scenario::Scenario;

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
pub const SCENARIOS: &[(&str, Asset)] = assets!("scenarios": "drop-table-demo", "steady-oltp-rw", "full-pool-writes", "i1-ahi-drop", "i3-ext3-drop", "i4-create-index", "i2-instant-columns", "workaround-truncate", "workaround-create-like-rename-drop", "workaround-hardlink-discard", "hardlink-plain-drop", "i5-compressed-partition-drop", "i5-truncate-then-drop");

/// Built-in lessons: (id, TOML file), in the order the app lists them.
pub const LESSONS: &[(&str, Asset)] = assets!("lessons": "mdl-queue", "drop-table-57-vs-80", "ahi-dict-sys-stall", "ext3-lock-open", "instant-columns", "compressed-partitions", "which-statement");

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

/// The built-ins, read and checked (`Scenario::from_toml`, `Profile::from_toml`,
/// `lesson::parse`), as bincode, deflated; rewritten by `UPDATE_GOLDEN=1 cargo test -p
/// ddlscope-engine builtin_bin`.
const COMPILED: &[u8] = include_bytes!("builtin.bin");

/// What `builtin.bin` holds: each file's name and what it reads as.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Compiled {
    scenarios: Vec<(String, Scenario)>,
    profiles: Vec<(String, Profile)>,
    lessons: Vec<(String, Lesson)>,
}

fn compiled() -> &'static Compiled {
    static COMPILED_ONCE: OnceLock<Compiled> = OnceLock::new();
    COMPILED_ONCE.get_or_init(|| {
        miniz_oxide::inflate::decompress_to_vec(COMPILED)
            .ok()
            .and_then(|bytes| bincode::deserialize(&bytes).ok())
            .expect(STALE)
    })
}

const STALE: &str = "crates/engine/src/builtin.bin does not match assets/: run \
     UPDATE_GOLDEN=1 cargo test -p ddlscope-engine builtin_bin";

fn find<T: Clone>(list: &[(String, T)], name: &str) -> T {
    list.iter()
        .find(|(n, _)| n == name)
        .map(|(_, t)| t.clone())
        .expect(STALE)
}

/// The built-in scenario `name`, read and checked; `None` if there is none.
pub(crate) fn scenario(name: &str) -> Option<Scenario> {
    SCENARIOS
        .iter()
        .any(|(n, _)| *n == name)
        .then(|| find(&compiled().scenarios, name))
}

/// The built-in profile `name`, read and checked; `None` if there is none.
pub(crate) fn profile(name: &str) -> Option<Profile> {
    PROFILES
        .iter()
        .any(|(n, _)| *n == name)
        .then(|| find(&compiled().profiles, name))
}

/// Every built-in lesson, read and checked, in [`LESSONS`]' order.
pub(crate) fn lessons() -> Vec<Lesson> {
    LESSONS
        .iter()
        .map(|(n, _)| find(&compiled().lessons, n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `builtin.bin` as the files read today: bincode, before deflate.
    fn compile() -> Vec<u8> {
        let scenarios = SCENARIOS
            .iter()
            .map(|(n, a)| {
                let s = Scenario::from_toml(a.text())
                    .unwrap_or_else(|e| panic!("built-in scenario {n}: {e}"));
                (n.to_string(), s)
            })
            .collect();
        let profiles = PROFILES
            .iter()
            .map(|(n, a)| {
                let p = Profile::from_toml(a.text())
                    .unwrap_or_else(|e| panic!("built-in profile {n}: {e}"));
                (n.to_string(), p)
            })
            .collect();
        let lessons = LESSONS
            .iter()
            .map(|(n, a)| {
                let l = crate::lesson::parse(&format!("assets/lessons/{n}.toml"), a.text())
                    .unwrap_or_else(|e| panic!("{e}"));
                (n.to_string(), l)
            })
            .collect();
        bincode::serialize(&Compiled {
            scenarios,
            profiles,
            lessons,
        })
        .expect("the built-ins serialize")
    }

    #[test]
    fn builtin_bin_is_current() {
        let fresh = compile();
        let shipped = miniz_oxide::inflate::decompress_to_vec(COMPILED).unwrap_or_default();
        if fresh != shipped {
            if std::env::var_os("UPDATE_GOLDEN").is_some() {
                let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/builtin.bin");
                let packed = miniz_oxide::deflate::compress_to_vec(&fresh, 10);
                std::fs::write(path, packed).unwrap();
                return;
            }
            panic!("{STALE}");
        }
    }

    #[test]
    fn the_compiled_builtins_read_as_their_files() {
        // Each built-in, from builtin.bin, is what its TOML file reads as.
        let c = compiled();
        for ((n, a), (m, s)) in SCENARIOS.iter().zip(&c.scenarios) {
            assert_eq!(n, m);
            assert_eq!(&Scenario::from_toml(a.text()).unwrap(), s, "{n}");
        }
        for ((n, a), (m, p)) in PROFILES.iter().zip(&c.profiles) {
            assert_eq!(n, m);
            let from_text = Profile::from_toml(a.text()).unwrap();
            assert_eq!(format!("{from_text:?}"), format!("{p:?}"), "{n}");
        }
        for ((n, a), (m, l)) in LESSONS.iter().zip(&c.lessons) {
            assert_eq!(n, m);
            let file = format!("assets/lessons/{n}.toml");
            assert_eq!(&crate::lesson::parse(&file, a.text()).unwrap(), l, "{n}");
        }
        assert_eq!(c.scenarios.len(), SCENARIOS.len());
        assert_eq!(c.profiles.len(), PROFILES.len());
        assert_eq!(c.lessons.len(), LESSONS.len());
    }

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
