//! The shipped scenarios and profiles, compiled in from `assets/` so the browser and the
//! command line run exactly the same files without any file access.

/// Built-in engine profiles: (name, TOML text).
pub const PROFILES: &[(&str, &str)] = &[
    (
        "mysql-5.7",
        include_str!("../../../assets/profiles/mysql-5.7.toml"),
    ),
    (
        "mysql-8.0.23",
        include_str!("../../../assets/profiles/mysql-8.0.23.toml"),
    ),
];

/// Built-in scenarios: (name, TOML text).
pub const SCENARIOS: &[(&str, &str)] = &[(
    "drop-table-demo",
    include_str!("../../../assets/scenarios/drop-table-demo.toml"),
)];

/// The TOML text of a built-in profile.
pub fn profile_text(name: &str) -> Option<&'static str> {
    PROFILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The TOML text of a built-in scenario.
pub fn scenario_text(name: &str) -> Option<&'static str> {
    SCENARIOS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}
