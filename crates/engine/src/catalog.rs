//! What a list of the built-in scenarios, profiles and lessons shows, without parsing
//! them: titles, descriptions, a scenario's scripted statements and pool size, a
//! lesson's audience and step count. `build.rs` reads them from `assets/` at build
//! time; the browser's toolbar and lesson menu use them when the page opens, and
//! parse a file (`Scenario::builtin`, `lesson::builtin_one`) only to run it. The
//! tests below hold every field to the parsed file.

use crate::size::ByteSize;

/// A built-in scenario, as a list shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScenarioHead {
    /// The file stem (`drop-table-demo`).
    pub name: &'static str,
    /// Its title.
    pub title: &'static str,
    /// What it shows.
    pub description: &'static str,
    /// The profile it names.
    pub profile: &'static str,
    /// `[buffer_pool] size` as written (`4G`).
    pub pool_size: &'static str,
    /// `[[script]]`: `(at_s, sql)`, the SQL empty for a shell line.
    pub script: &'static [(u64, &'static str)],
}

impl ScenarioHead {
    /// `innodb_buffer_pool_size` in bytes (0 if the file's size does not parse: the
    /// scenario itself then does not open, with the parser's reason).
    pub fn pool_bytes(&self) -> u64 {
        ByteSize::parse(self.pool_size).map_or(0, |b| b.0)
    }
}

/// A built-in profile, as a list shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProfileHead {
    /// The file stem (`mysql-5.7`).
    pub name: &'static str,
    /// Its title.
    pub title: &'static str,
    /// What distinguishes this version.
    pub summary: &'static str,
}

/// A built-in lesson, as a menu shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonHead {
    /// Its id (the file stem, used in links).
    pub id: &'static str,
    /// Its title.
    pub title: &'static str,
    /// Who it is for.
    pub audience: &'static str,
    /// How long it takes in a room.
    pub duration: &'static str,
    /// How many steps it has.
    pub steps: usize,
}

mod generated {
    use super::{LessonHead, ProfileHead, ScenarioHead};
    include!(concat!(env!("OUT_DIR"), "/catalog.rs"));
}

/// The built-in scenarios, in `SCENARIOS`' order.
pub fn scenarios() -> Vec<ScenarioHead> {
    in_order(crate::builtin::SCENARIOS, generated::SCENARIOS, |h| h.name)
}

/// The built-in profiles, in `PROFILES`' order.
pub fn profiles() -> Vec<ProfileHead> {
    in_order(crate::builtin::PROFILES, generated::PROFILES, |h| h.name)
}

/// The built-in lessons, in `LESSONS`' order (the app's).
pub fn lessons() -> Vec<LessonHead> {
    in_order(crate::builtin::LESSONS, generated::LESSONS, |h| h.id)
}

fn in_order<H: Copy>(
    names: &[(&str, crate::builtin::Asset)],
    heads: &[H],
    name: impl Fn(&H) -> &'static str,
) -> Vec<H> {
    names
        .iter()
        .filter_map(|(n, _)| heads.iter().find(|h| name(h) == *n).copied())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Profile, Scenario};

    #[test]
    fn scenario_heads_are_the_parsed_files() {
        let heads = scenarios();
        assert_eq!(heads.len(), crate::builtin::SCENARIOS.len());
        for h in heads {
            let s = Scenario::builtin(h.name).unwrap();
            assert_eq!(
                (h.title, h.description, h.profile),
                (&s.title[..], &s.description[..], &s.profile[..]),
                "{}",
                h.name
            );
            assert_eq!(h.pool_bytes(), s.buffer_pool.size.0, "{}", h.name);
            let script: Vec<(u64, &str)> =
                s.script.iter().map(|st| (st.at_s, &st.sql[..])).collect();
            assert_eq!(h.script, &script[..], "{}", h.name);
        }
    }

    #[test]
    fn profile_heads_are_the_parsed_files() {
        let heads = profiles();
        assert_eq!(heads.len(), crate::builtin::PROFILES.len());
        for h in heads {
            let p = Profile::builtin(h.name).unwrap();
            assert_eq!(
                (h.title, h.summary),
                (&p.title[..], &p.summary[..]),
                "{}",
                h.name
            );
        }
    }

    #[test]
    fn lesson_heads_are_the_parsed_files() {
        let heads = lessons();
        assert_eq!(heads.len(), crate::builtin::LESSONS.len());
        for (h, parsed) in heads.iter().zip(crate::lesson::builtin()) {
            let l = parsed.unwrap();
            assert_eq!(
                (h.id, h.title, h.audience, h.duration, h.steps),
                (
                    &l.id[..],
                    &l.title[..],
                    &l.audience[..],
                    &l.duration[..],
                    l.steps.len()
                )
            );
        }
    }
}
