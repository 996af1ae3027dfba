//! The built-in scenarios and profiles as the toolbar offers them, and the console's
//! one-click statements.

use crate::model::runner::HEAVY_POOL_BYTES;
use crate::model::snapshot::Snapshot;
use crate::ui::controls::{ProfileChoice, ScenarioChoice};
use ddlscope_engine::{catalog, Scenario};

/// The built-in profiles, for the select and the summary (from the build-time
/// catalog: the page opens without parsing a profile).
pub fn profiles() -> Vec<(ProfileChoice, String)> {
    catalog::profiles()
        .into_iter()
        .map(|p| {
            (
                ProfileChoice {
                    name: p.name.to_string(),
                    title: p.title.to_string(),
                },
                p.summary.to_string(),
            )
        })
        .collect()
}

/// The built-in scenarios, for the select, the description and the console's chips
/// (from the build-time catalog: the page opens without parsing a scenario).
pub fn scenarios() -> Vec<ScenarioChoice> {
    catalog::scenarios()
        .into_iter()
        .map(|s| ScenarioChoice {
            heavy: s.pool_bytes() >= HEAVY_POOL_BYTES,
            name: s.name.to_string(),
            title: s.title.to_string(),
            description: s.description.to_string(),
            profile: s.profile.to_string(),
            script: s
                .script
                .iter()
                .map(|&(at, sql)| (at, sql.to_string()))
                .collect(),
            pool_bytes: s.pool_bytes(),
        })
        .collect()
}

/// A scenario a link carried whole (an Advisor playbook's run), as the select offers it.
pub fn own_choice(s: &Scenario) -> ScenarioChoice {
    ScenarioChoice {
        heavy: s.buffer_pool.size.0 >= HEAVY_POOL_BYTES,
        name: s.name.clone(),
        title: s.title.clone(),
        description: s.description.clone(),
        profile: s.profile.clone(),
        script: s
            .script
            .iter()
            .filter(|st| !st.sql.is_empty())
            .map(|st| (st.at_s, st.sql.clone()))
            .collect(),
        pool_bytes: s.buffer_pool.size.0,
    }
}

/// The console's one-click statements: the scenario's scripted ones, or, for a
/// scenario without a script, a DROP TABLE of each table still there.
pub fn suggestions(scenario: Option<&ScenarioChoice>, snapshot: &Snapshot) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, sql) in scenario.map_or(&[][..], |s| &s.script[..]) {
        if !out.contains(sql) {
            out.push(sql.clone());
        }
    }
    if out.is_empty() {
        out = snapshot
            .tables
            .iter()
            .filter(|t| !t.dropped)
            .map(|t| format!("DROP TABLE {}", t.name))
            .collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::snapshot::TableInfo;

    #[test]
    fn every_builtin_scenario_is_offered_and_its_script_fills_the_chips() {
        let all = scenarios();
        let names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
        let shipped: Vec<&str> = ddlscope_engine::SCENARIOS.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, shipped);
        assert!(
            names.contains(&"i4-create-index") && names.contains(&"workaround-hardlink-discard")
        );
        let by = |n: &str| all.iter().find(|s| s.name == n).unwrap();
        assert_eq!(by("i3-ext3-drop").profile, "mysql-5.1");
        assert!(by("i1-ahi-drop").heavy && !by("i3-ext3-drop").heavy);
        assert_eq!(by("i1-ahi-drop").pool_bytes >> 30, 128);
        assert!(all
            .iter()
            .all(|s| !s.title.is_empty() && !s.description.is_empty()));
        let snap = Snapshot {
            tables: vec![
                TableInfo {
                    name: "t1".into(),
                    space: ddlscope_engine::SpaceId(1),
                    dropped: true,
                },
                TableInfo {
                    name: "t2".into(),
                    space: ddlscope_engine::SpaceId(2),
                    dropped: false,
                },
            ],
            ..Snapshot::default()
        };
        assert_eq!(
            suggestions(Some(by("i3-ext3-drop")), &snap),
            ["DROP TABLE big"]
        );
        assert_eq!(
            suggestions(Some(by("steady-oltp-rw")), &snap),
            ["DROP TABLE t2"],
            "no script: the tables still there"
        );
    }
}
