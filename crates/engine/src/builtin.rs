//! The shipped scenarios and profiles, compiled in from `assets/` so the browser and the
//! command line run exactly the same files without any file access.

/// `(name, text)` pairs for files `assets/<dir>/<name>.toml`.
macro_rules! assets {
    ($dir:literal: $($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../../assets/", $dir, "/", $name, ".toml")))),*]
    };
}

/// Built-in engine profiles: (name, TOML text).
pub const PROFILES: &[(&str, &str)] = assets!("profiles": "mysql-5.1", "mysql-5.5.30", "mariadb-5.5", "fb-mysql-5.6", "mysql-5.7", "alisql-5.7", "mysql-8.0.22", "mysql-8.0.23", "mysql-8.0.28", "mysql-8.0.29", "polardb-8.0", "alisql-8.0", "mysql-8.4", "mariadb-10.11");

/// Built-in scenarios: (name, TOML text).
pub const SCENARIOS: &[(&str, &str)] = assets!("scenarios": "drop-table-demo", "steady-oltp-rw", "full-pool-writes", "i1-ahi-drop", "i3-ext3-drop", "i4-create-index", "i2-instant-columns", "workaround-truncate", "workaround-create-like-rename-drop", "workaround-hardlink-discard", "hardlink-plain-drop", "i5-compressed-partition-drop", "i5-truncate-then-drop");

/// Built-in lessons: (id, TOML text), in the order the app lists them.
pub const LESSONS: &[(&str, &str)] = assets!("lessons": "mdl-queue", "drop-table-57-vs-80", "ahi-dict-sys-stall", "ext3-lock-open", "instant-columns", "compressed-partitions", "which-statement");

/// The TOML text of a built-in profile.
pub fn profile_text(name: &str) -> Option<&'static str> {
    PROFILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The TOML text of a built-in scenario.
pub fn scenario_text(name: &str) -> Option<&'static str> {
    SCENARIOS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_asset_file_is_built_in() {
        // A scenario or profile added to assets/ but not to the lists above would be
        // invisible to users.
        for (dir, list) in [
            ("profiles", super::PROFILES),
            ("scenarios", super::SCENARIOS),
            ("lessons", super::LESSONS),
        ] {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/");
            let on_disk = std::fs::read_dir(format!("{path}{dir}")).unwrap().count();
            assert_eq!(
                on_disk,
                list.len(),
                "assets/{dir} has {on_disk} files, {} built in",
                list.len()
            );
        }
    }
}
