//! Playbooks: the ways a DBA can run a DDL, each a named sequence of statements and
//! shell steps, written into a scenario (the same file `ddlscope run` replays) on the
//! question's server, table and workload.
//!
//! Which playbooks apply follows from the DDL: removing a table (DROP, TRUNCATE then
//! DROP, RENAME now and DROP later, hard link + DISCARD + truncate loop, partitions one
//! by one, the AHI switched off first), emptying it (TRUNCATE, or CREATE LIKE + RENAME + DROP), dropping partitions
//! (together or one by one), or changing it (native ALTER with each ALGORITHM).

use super::ddl::{Ddl, DdlKind};
use super::server::FIRST_STEP_S;
use crate::scenario::{Scenario, ScriptStep};

/// Seconds between the steps of a playbook that spaces them out.
pub const STEP_GAP_S: u64 = 5;

/// How long "later" is for RENAME now and DROP later: what this simulator can show
/// of it is the DROP's cost at the same load, so it runs after the RENAME's effects.
pub const DROP_LATER_S: u64 = 30;

/// One way to run the DDL.
#[derive(Clone, Debug, PartialEq)]
pub struct Playbook {
    /// Its name (kebab-case), unique within one advice.
    pub name: String,
    /// What it does, in a DBA's words.
    pub summary: String,
    /// The timed steps.
    pub steps: Vec<ScriptStep>,
}

fn sql(at_s: u64, text: impl Into<String>) -> ScriptStep {
    ScriptStep {
        at_s,
        sql: text.into(),
        shell: String::new(),
        tool: String::new(),
        session: 0,
    }
}

fn shell(at_s: u64, line: impl Into<String>) -> ScriptStep {
    ScriptStep {
        at_s,
        sql: String::new(),
        shell: line.into(),
        tool: String::new(),
        session: 0,
    }
}

fn tool(at_s: u64, line: impl Into<String>) -> ScriptStep {
    ScriptStep {
        at_s,
        sql: String::new(),
        shell: String::new(),
        tool: line.into(),
        session: 0,
    }
}

fn playbook(name: &str, summary: &str, steps: Vec<ScriptStep>) -> Playbook {
    Playbook {
        name: name.into(),
        summary: summary.into(),
        steps,
    }
}

/// Every playbook that applies to `ddl` on `base` (the server, table and workload).
pub fn playbooks(ddl: &Ddl, base: &Scenario) -> Vec<Playbook> {
    let t0 = FIRST_STEP_S;
    match &ddl.kind {
        DdlKind::DropTable => removing(ddl, base),
        DdlKind::TruncateTable => {
            let t = &ddl.table;
            vec![
                playbook(
                    "truncate",
                    "TRUNCATE TABLE as asked",
                    vec![sql(t0, &ddl.text)],
                ),
                playbook(
                    "create-like-rename-drop",
                    "CREATE TABLE ... LIKE, swap the names in one RENAME, DROP the old table",
                    vec![
                        sql(t0, format!("CREATE TABLE {t}_new LIKE {t}")),
                        sql(
                            t0 + 1,
                            format!("RENAME TABLE {t} TO {t}_old, {t}_new TO {t}"),
                        ),
                        sql(t0 + 2, format!("DROP TABLE {t}_old")),
                    ],
                ),
            ]
        }
        DdlKind::DropPartitions(names) => {
            let mut out = vec![playbook(
                "drop-partitions",
                "ALTER TABLE ... DROP PARTITION as asked",
                vec![sql(t0, &ddl.text)],
            )];
            if names.len() > 1 {
                let steps = names
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let at = t0 + i as u64 * STEP_GAP_S;
                        sql(at, format!("ALTER TABLE {} DROP PARTITION {p}", ddl.table))
                    })
                    .collect();
                out.push(playbook(
                    "partitions-one-by-one",
                    "one DROP PARTITION at a time, a few seconds apart",
                    steps,
                ));
            }
            out
        }
        DdlKind::Alter => {
            let mut out: Vec<Playbook> = ["INSTANT", "INPLACE", "COPY"]
                .iter()
                .map(|a| {
                    playbook(
                        &format!("alter-{}", a.to_ascii_lowercase()),
                        &format!("the native ALTER with ALGORITHM={a}"),
                        vec![sql(t0, ddl.with_clause(&format!("ALGORITHM={a}")))],
                    )
                })
                .collect();
            out.extend(online_tools(ddl, t0));
            out
        }
    }
}

/// pt-online-schema-change and gh-ost with their documented defaults
/// (`scenario/tool.rs`), for an `ALTER TABLE t <changes>`.
fn online_tools(ddl: &Ddl, t0: u64) -> Vec<Playbook> {
    let Some(changes) = alter_changes(&ddl.text, &ddl.table) else {
        return Vec::new();
    };
    let changes = changes.replace('"', "\\\"");
    let db = ddl
        .schema
        .as_deref()
        .map_or(String::new(), |d| format!("D={d},"));
    let gh_db = ddl
        .schema
        .as_deref()
        .map_or(String::new(), |d| format!(" --database {d}"));
    vec![
        playbook(
            "pt-osc",
            "pt-online-schema-change: a new table altered, three triggers, the rows copied in chunks, an atomic RENAME swap",
            vec![tool(
                t0,
                format!("pt-online-schema-change --alter \"{changes}\" {db}t={} --execute", ddl.table),
            )],
        ),
        playbook(
            "gh-ost",
            "gh-ost: a ghost table altered, the rows copied while the binary log's changes are applied to it, an atomic cut-over",
            vec![tool(
                t0,
                format!("gh-ost --table {}{gh_db} --alter \"{changes}\" --execute", ddl.table),
            )],
        ),
    ]
}

/// The changes of `ALTER TABLE [schema.]table <changes>`, or `None` for another
/// statement (CREATE INDEX, which the tools do not take as it is).
fn alter_changes(text: &str, table: &str) -> Option<String> {
    let words: Vec<&str> = text
        .trim()
        .trim_end_matches(';')
        .splitn(4, char::is_whitespace)
        .collect();
    let [alter, kw, name, rest] = words[..] else {
        return None;
    };
    let named = name.trim_matches('`');
    let same =
        named == table || named.rsplit('.').next().map(|t| t.trim_matches('`')) == Some(table);
    (alter.eq_ignore_ascii_case("ALTER") && kw.eq_ignore_ascii_case("TABLE") && same)
        .then(|| rest.trim().to_string())
        .filter(|r| !r.is_empty())
}

/// The playbooks for DROP TABLE.
fn removing(ddl: &Ddl, base: &Scenario) -> Vec<Playbook> {
    let t0 = FIRST_STEP_S;
    let t = &ddl.table;
    let mut out = vec![
        playbook("drop", "DROP TABLE as asked", vec![sql(t0, &ddl.text)]),
        playbook(
            "truncate-then-drop",
            "TRUNCATE TABLE first, then DROP the empty table",
            vec![sql(t0, format!("TRUNCATE TABLE {t}")), sql(t0 + STEP_GAP_S, format!("DROP TABLE {t}"))],
        ),
        playbook(
            "rename-now-drop-later",
            "RENAME the table away now, DROP it later (the simulated load does not fall off-peak: the DROP is measured at the same load)",
            vec![
                sql(t0, format!("RENAME TABLE {t} TO {t}_old")),
                sql(t0 + DROP_LATER_S, format!("DROP TABLE {t}_old")),
            ],
        ),
    ];
    if base.innodb.adaptive_hash_index {
        out.push(playbook(
            "ahi-off-then-drop",
            "SET GLOBAL innodb_adaptive_hash_index=OFF (which empties the hash), DROP TABLE, switch it back ON",
            vec![
                sql(t0, "SET GLOBAL innodb_adaptive_hash_index = OFF"),
                sql(
                    t0 + 1,
                    format!("{}; SET GLOBAL innodb_adaptive_hash_index = ON", ddl.text),
                ),
            ],
        ));
    }
    if base.tables[0].partitions.is_none() {
        out.push(hardlink_discard(ddl, base));
    }
    if let Some(n) = base.tables[0].partitions.filter(|n| *n > 1) {
        let mut steps: Vec<ScriptStep> = (0..n - 1)
            .map(|i| {
                let at = t0 + u64::from(i) * STEP_GAP_S;
                sql(at, format!("ALTER TABLE {t} DROP PARTITION p{i}"))
            })
            .collect();
        steps.push(sql(
            t0 + u64::from(n - 1) * STEP_GAP_S,
            format!("DROP TABLE {t}"),
        ));
        out.push(playbook(
            "partitions-one-by-one",
            "DROP PARTITION one at a time, a few seconds apart, then DROP TABLE",
            steps,
        ));
    }
    out
}

/// Hard-link the `.ibd`, DISCARD TABLESPACE, DROP TABLE, then truncate the link 1 GB a
/// second outside the server and remove it (workaround-hardlink-discard).
fn hardlink_discard(ddl: &Ddl, base: &Scenario) -> Playbook {
    let t0 = FIRST_STEP_S;
    let t = &ddl.table;
    let ibd = format!("./{}/{t}.ibd", base.schema);
    let link = format!("/ddlscope-hardlinks/{t}.ibd.hardlink");
    playbook(
        "hardlink-discard-truncate-loop",
        "hard-link the .ibd, DISCARD TABLESPACE, DROP TABLE, truncate the link 1 GB a second and remove it",
        vec![
            shell(t0, "mkdir /ddlscope-hardlinks"),
            shell(t0 + 1, format!("ln {ibd} {link}")),
            sql(t0 + 2, format!("ALTER TABLE {t} DISCARD TABLESPACE")),
            sql(t0 + 3, format!("DROP TABLE {t}")),
            shell(t0 + 4, format!("truncate-loop 1G 1s {link}")),
        ],
    )
}

/// The application's transaction of `--open-txn SECONDS`, on a client of its own
/// (script session 1): it reads the table a second before the playbook's first step
/// and stays open, idle, until `open_s` seconds after that step, holding its
/// SHARED_READ metadata lock; every DDL's EXCLUSIVE request (the native ALTER's
/// upgrade, pt-osc's CREATE TRIGGER and RENAME, gh-ost's LOCK TABLES) waits for it.
pub fn open_transaction(ddl: &Ddl, open_s: u64) -> Vec<ScriptStep> {
    let t = match &ddl.schema {
        Some(db) => format!("{db}.{}", ddl.table),
        None => ddl.table.clone(),
    };
    let on_other = |at_s: u64, text: String| ScriptStep {
        session: OPEN_TXN_SESSION,
        ..sql(at_s, text)
    };
    vec![
        on_other(
            FIRST_STEP_S - 1,
            format!("BEGIN; SELECT COUNT(*) FROM {t} WHERE id <= 10"),
        ),
        on_other(FIRST_STEP_S + open_s, "COMMIT".into()),
    ]
}

/// The script session the open transaction runs on.
pub const OPEN_TXN_SESSION: u32 = 1;

/// The scenario that runs `p` on `base`, for `seconds`.
pub fn scenario(base: &Scenario, p: &Playbook, seconds: u64) -> Scenario {
    let mut s = base.clone();
    s.name = format!("advise-{}", p.name);
    s.title = format!("Playbook {}: {}", p.name, p.summary);
    s.seconds = seconds;
    s.script = p.steps.clone();
    s
}
