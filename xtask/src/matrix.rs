//! The conformance matrix: session scripts generated from a small table of statement
//! kinds, run by `cargo xtask conformance` beside the hand-written ones (the online
//! schema-change tools' INSERT ... SELECT, REPLACE and CREATE TRIGGER among them).
//!
//! ```text
//!  HOLDERS (a session ran it; keeps its transaction or table lock open)
//!     × REQUESTERS (every statement kind the console knows)
//!     × VARIANTS (plain, lock_wait_timeout 1 and 0, innodb_lock_wait_timeout 1,
//!                 KILL QUERY of the waiter, KILL of the holder)
//!  one case:   0 ms  h: BEGIN            (a transaction holder)
//!            100 ms  h: <holder>
//!            300 ms  r: SET ... timeout   (a timeout variant)
//!            500 ms  r: <requester>
//!            900 ms  a: SELECT            (a reader arriving during the wait)
//!           1100 ms  b: UPDATE            (a writer arriving during the wait)
//!           1600 ms  k: KILL [QUERY] ...  (a kill variant)
//!           2000 ms  h: COMMIT / UNLOCK TABLES (a snapshot holder reads first)
//!           2600 ms  r: UNLOCK TABLES     (a requester that took a table lock)
//! ```
//!
//! Each case has its own table and its own sessions (`c12_h`, `c12_r`, ...: the
//! `c12` group), so the cases of one script run side by side; the comparison orders
//! statements only within a group. Cases with FLUSH TABLES WITH READ LOCK touch every
//! table, so they run one after another in scripts of their own.
//!
//! A known difference is written into the script as `# mariadb: reason` from
//! [`EXPECTED`], which cites the server source or manual for it.

use std::fmt::Write as _;

/// A statement kind: its name and its SQL on table `$T`.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    /// Short name, used in session and table names.
    pub name: &'static str,
    /// The statements, `$T` for the case's table; a holder's run in order.
    pub sql: &'static [&'static str],
    /// Statements that release what it holds (COMMIT, UNLOCK TABLES); run at 2 s.
    pub release: &'static [&'static str],
    /// It needs a partitioned table.
    pub partitioned: bool,
    /// It takes the global read lock: the case runs alone.
    pub global: bool,
}

const fn kind(name: &'static str, sql: &'static [&'static str]) -> Kind {
    Kind {
        name,
        sql,
        release: &[],
        partitioned: false,
        global: false,
    }
}

const fn holder(
    name: &'static str,
    sql: &'static [&'static str],
    release: &'static [&'static str],
) -> Kind {
    Kind {
        name,
        sql,
        release,
        partitioned: false,
        global: false,
    }
}

/// Sessions that ran these and keep what they took until the release at 2 s.
pub const HOLDERS: &[Kind] = &[
    holder(
        "sel",
        &["BEGIN", "SELECT * FROM $T WHERE id = 1"],
        &["COMMIT"],
    ),
    holder(
        "forupd",
        &["BEGIN", "SELECT * FROM $T WHERE id = 1 FOR UPDATE"],
        &["COMMIT"],
    ),
    holder(
        "share",
        &["BEGIN", "SELECT * FROM $T WHERE id = 1 LOCK IN SHARE MODE"],
        &["COMMIT"],
    ),
    holder(
        "ins",
        &[
            "BEGIN",
            "INSERT INTO $T (id, k, c, pad) VALUES (5000, 1, 'c', 'p')",
        ],
        &["COMMIT"],
    ),
    holder(
        "upd",
        &["BEGIN", "UPDATE $T SET k = k + 1 WHERE id = 1"],
        &["COMMIT"],
    ),
    holder(
        "del",
        &["BEGIN", "DELETE FROM $T WHERE id = 1"],
        &["COMMIT"],
    ),
    holder("lockr", &["LOCK TABLES $T READ"], &["UNLOCK TABLES"]),
    holder("lockw", &["LOCK TABLES $T WRITE"], &["UNLOCK TABLES"]),
    holder("sleep", &["SELECT SLEEP(1) FROM $T WHERE id <= 2"], &[]),
    holder(
        "snap",
        &["START TRANSACTION WITH CONSISTENT SNAPSHOT"],
        &["SELECT * FROM $T WHERE id = 1", "COMMIT"],
    ),
    Kind {
        global: true,
        ..holder(
            "ftwrl",
            &["FLUSH TABLES WITH READ LOCK"],
            &["UNLOCK TABLES"],
        )
    },
    // The online schema-change tools' statements: a copy chunk (shared locks on the
    // rows it read, its new rows' exclusive ones, SHARED_WRITE) and REPLACE (an
    // exclusive lock on the row that was there).
    holder(
        "insel",
        &[
            "BEGIN",
            "INSERT INTO $T (k, c, pad) SELECT k, c, pad FROM $T WHERE id BETWEEN 1 AND 5 LOCK IN SHARE MODE",
        ],
        &["COMMIT"],
    ),
    holder(
        "repl",
        &[
            "BEGIN",
            "REPLACE INTO $T (id, k, c, pad) VALUES (1, 1, 'c', 'p')",
        ],
        &["COMMIT"],
    ),
];

/// The statement that asks for a lock while a holder holds one.
pub const REQUESTERS: &[Kind] = &[
    kind("sel", &["SELECT * FROM $T WHERE id = 2"]),
    kind("forupd", &["SELECT * FROM $T WHERE id = 1 FOR UPDATE"]),
    kind(
        "share",
        &["SELECT * FROM $T WHERE id = 1 LOCK IN SHARE MODE"],
    ),
    kind(
        "ins",
        &["INSERT INTO $T (id, k, c, pad) VALUES (5001, 1, 'c', 'p')"],
    ),
    // The holder "ins" inserted id 5000: this one waits for it, then 1062.
    kind(
        "dupins",
        &["INSERT INTO $T (id, k, c, pad) VALUES (5000, 2, 'c', 'p')"],
    ),
    kind("upd", &["UPDATE $T SET k = k + 1 WHERE id = 1"]),
    kind("del", &["DELETE FROM $T WHERE id = 1"]),
    kind(
        "idxin",
        &["ALTER TABLE $T ADD INDEX idx_x (k, c), ALGORITHM=INPLACE"],
    ),
    kind(
        "idxcp",
        &["ALTER TABLE $T ADD INDEX idx_x (k, c), ALGORITHM=COPY"],
    ),
    kind(
        "dropidxin",
        &["ALTER TABLE $T DROP INDEX k_1, ALGORITHM=INPLACE"],
    ),
    kind(
        "dropidxcp",
        &["ALTER TABLE $T DROP INDEX k_1, ALGORITHM=COPY"],
    ),
    kind(
        "addcolit",
        &["ALTER TABLE $T ADD COLUMN z INT, ALGORITHM=INSTANT"],
    ),
    kind(
        "addcolin",
        &["ALTER TABLE $T ADD COLUMN z INT, ALGORITHM=INPLACE"],
    ),
    kind(
        "addcolcp",
        &["ALTER TABLE $T ADD COLUMN z INT, ALGORITHM=COPY"],
    ),
    kind(
        "dropcolit",
        &["ALTER TABLE $T DROP COLUMN pad, ALGORITHM=INSTANT"],
    ),
    kind(
        "dropcolin",
        &["ALTER TABLE $T DROP COLUMN pad, ALGORITHM=INPLACE"],
    ),
    kind(
        "dropcolcp",
        &["ALTER TABLE $T DROP COLUMN pad, ALGORITHM=COPY"],
    ),
    kind("optimize", &["OPTIMIZE TABLE $T"]),
    kind("analyze", &["ANALYZE TABLE $T"]),
    kind("truncate", &["TRUNCATE TABLE $T"]),
    kind("rename", &["RENAME TABLE $T TO $T_new"]),
    kind("drop", &["DROP TABLE $T"]),
    Kind {
        partitioned: true,
        ..kind("droppart", &["ALTER TABLE $T DROP PARTITION p2"])
    },
    Kind {
        partitioned: true,
        ..kind("truncpart", &["ALTER TABLE $T TRUNCATE PARTITION p1"])
    },
    kind("like", &["CREATE TABLE $T_copy LIKE $T"]),
    kind("discard", &["ALTER TABLE $T DISCARD TABLESPACE"]),
    Kind {
        release: &["UNLOCK TABLES"],
        ..kind("lockr", &["LOCK TABLES $T READ"])
    },
    Kind {
        release: &["UNLOCK TABLES"],
        ..kind("lockw", &["LOCK TABLES $T WRITE"])
    },
    kind("sleep", &["SELECT SLEEP(0.5) FROM $T WHERE id = 1"]),
    Kind {
        release: &["UNLOCK TABLES"],
        global: true,
        ..kind("ftwrl", &["FLUSH TABLES WITH READ LOCK"])
    },
    // The online schema-change tools' statements.
    kind(
        "insel",
        &["INSERT INTO $T (k, c, pad) SELECT k, c, pad FROM $T WHERE id BETWEEN 1 AND 3"],
    ),
    kind(
        "repl",
        &["REPLACE INTO $T (id, k, c, pad) VALUES (1, 2, 'c', 'p')"],
    ),
    kind(
        "trigger",
        &["CREATE TRIGGER $T_trg AFTER INSERT ON $T FOR EACH ROW REPLACE INTO $T_new (id, k, c, pad) VALUES (NEW.id, NEW.k, NEW.c, NEW.pad)"],
    ),
];

/// What else happens in a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Nothing.
    Plain,
    /// The requester's session sets `lock_wait_timeout` (1 or 0) first.
    LockWaitTimeout(u8),
    /// ...`innodb_lock_wait_timeout = 1`.
    InnodbLockWaitTimeout,
    /// A fifth session runs `KILL QUERY` on the requester during its wait.
    KillQueryWaiter,
    /// ...`KILL` on the holder's connection.
    KillHolder,
}

impl Variant {
    fn tag(self) -> &'static str {
        match self {
            Variant::Plain => "",
            Variant::LockWaitTimeout(0) => "lwt0",
            Variant::LockWaitTimeout(_) => "lwt1",
            Variant::InnodbLockWaitTimeout => "ilwt1",
            Variant::KillQueryWaiter => "kq",
            Variant::KillHolder => "kh",
        }
    }
}

/// One case: a holder, a requester and a variant.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// The holder.
    pub holder: Kind,
    /// The requester.
    pub requester: Kind,
    /// The variant.
    pub variant: Variant,
}

/// A difference the simulator keeps on purpose, with its reason.
struct Expected {
    holder: &'static str,
    requester: &'static str,
    /// `None`: every variant.
    variant: Option<&'static str>,
    /// Which statement of the case: `h`, `r`, `a`, `b`, `k`.
    who: &'static str,
    reason: &'static str,
}

/// The matrix's known differences (each cites where the server's behaviour comes from).
const EXPECTED: &[Expected] = &[
    Expected {
        holder: "lockr",
        requester: "idxcp",
        variant: None,
        who: "a",
        reason: "NOT MODELLED: on mariadbd 10.11.19 a read passes a COPY ALTER (and OPTIMIZE's recreate) that waits for LOCK TABLES READ, so the server's wait there is not for EXCLUSIVE; the simulator grants SHARED_NO_WRITE beside SHARED_READ_ONLY (MySQL's matrix, sql/mdl.cc m_granted_incompatible) and queues the read behind the pending EXCLUSIVE",
    },
    Expected {
        holder: "lockr",
        requester: "idxcp",
        variant: None,
        who: "h",
        reason: "follows from the read above (completion order only)",
    },
    Expected {
        holder: "lockr",
        requester: "dropidxcp",
        variant: None,
        who: "a",
        reason: "NOT MODELLED: on mariadbd 10.11.19 a read passes a COPY ALTER (and OPTIMIZE's recreate) that waits for LOCK TABLES READ, so the server's wait there is not for EXCLUSIVE; the simulator grants SHARED_NO_WRITE beside SHARED_READ_ONLY (MySQL's matrix, sql/mdl.cc m_granted_incompatible) and queues the read behind the pending EXCLUSIVE",
    },
    Expected {
        holder: "lockr",
        requester: "dropidxcp",
        variant: None,
        who: "h",
        reason: "follows from the read above (completion order only)",
    },
    Expected {
        holder: "ftwrl",
        requester: "rename",
        variant: None,
        who: "b",
        reason: "after UNLOCK TABLES both the DDL and this UPDATE wake from the global read lock and race for the table's lock; on mariadbd 10.11.19 the UPDATE (one SHARED_WRITE in open_tables()) wins, in the simulator the earlier request does (MDL_lock grants in queue order, sql/mdl.cc MDL_lock::reschedule_waiters())",
    },
    Expected {
        holder: "ftwrl",
        requester: "drop",
        variant: None,
        who: "b",
        reason: "after UNLOCK TABLES both the DDL and this UPDATE wake from the global read lock and race for the table's lock; on mariadbd 10.11.19 the UPDATE (one SHARED_WRITE in open_tables()) wins, in the simulator the earlier request does (MDL_lock grants in queue order, sql/mdl.cc MDL_lock::reschedule_waiters())",
    },
    Expected {
        holder: "ftwrl",
        requester: "discard",
        variant: None,
        who: "b",
        reason: "after UNLOCK TABLES both the DDL and this UPDATE wake from the global read lock and race for the table's lock; on mariadbd 10.11.19 the UPDATE (one SHARED_WRITE in open_tables()) wins, in the simulator the earlier request does (MDL_lock grants in queue order, sql/mdl.cc MDL_lock::reschedule_waiters())",
    },
    Expected {
        holder: "ftwrl",
        requester: "lockw",
        variant: None,
        who: "b",
        reason: "after UNLOCK TABLES both the DDL and this UPDATE wake from the global read lock and race for the table's lock; on mariadbd 10.11.19 the UPDATE (one SHARED_WRITE in open_tables()) wins, in the simulator the earlier request does (MDL_lock grants in queue order, sql/mdl.cc MDL_lock::reschedule_waiters())",
    },
    Expected {
        holder: "ftwrl",
        requester: "lockw",
        variant: None,
        who: "r",
        reason: "after UNLOCK TABLES both the DDL and this UPDATE wake from the global read lock and race for the table's lock; on mariadbd 10.11.19 the UPDATE (one SHARED_WRITE in open_tables()) wins, in the simulator the earlier request does (MDL_lock grants in queue order, sql/mdl.cc MDL_lock::reschedule_waiters())",
    },
    Expected {
        holder: "ftwrl",
        requester: "analyze",
        variant: None,
        who: "r",
        reason: "NOT MODELLED: MariaDB's ANALYZE TABLE writes the persistent statistics (mysql.table_stats, innodb_table_stats), which waits for FLUSH TABLES WITH READ LOCK on mariadbd 10.11.19; the simulator's ANALYZE takes no global lock",
    },
    Expected {
        holder: "lockr",
        requester: "optimize",
        variant: None,
        who: "a",
        reason: "NOT MODELLED: on mariadbd 10.11.19 a read passes OPTIMIZE's recreate while it waits for LOCK TABLES READ; the simulator's recreate waits with EXCLUSIVE pending (the prepare-phase upgrade of MySQL's mysql_inplace_alter_table()), which queues the read",
    },
    Expected {
        holder: "lockr",
        requester: "optimize",
        variant: None,
        who: "h",
        reason: "follows from the read above (completion order only)",
    },
    Expected {
        holder: "ftwrl",
        requester: "analyze",
        variant: None,
        who: "a",
        reason: "follows from the ANALYZE above (completion order only)",
    },
];

/// The requesters the timeout and kill variants run against: the DDL kinds whose
/// waits differ, and a read and a write.
const VARIANT_REQUESTERS: &[&str] = &[
    "sel", "upd", "idxin", "idxcp", "addcolcp", "optimize", "rename", "lockw",
];

/// Every case: each holder against each requester plainly; the timeout and kill
/// variants for the holders that take row or table locks in a transaction.
pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for &holder in HOLDERS {
        for &requester in REQUESTERS {
            if holder.global && requester.global {
                continue;
            }
            v.push(Case {
                holder,
                requester,
                variant: Variant::Plain,
            });
        }
    }
    let variants = [
        ("sel", Variant::LockWaitTimeout(1)),
        ("upd", Variant::LockWaitTimeout(0)),
        ("upd", Variant::InnodbLockWaitTimeout),
        ("upd", Variant::KillQueryWaiter),
        ("sel", Variant::KillHolder),
        ("lockw", Variant::KillHolder),
    ];
    for (h, variant) in variants {
        let holder = *HOLDERS.iter().find(|k| k.name == h).expect("a holder");
        for &requester in REQUESTERS
            .iter()
            .filter(|r| VARIANT_REQUESTERS.contains(&r.name))
        {
            v.push(Case {
                holder,
                requester,
                variant,
            });
        }
    }
    v
}

/// Cases that run side by side in one script.
/// (More than a dozen cases, 50 client processes, and a 2-core machine's timing
/// noise reaches the 300 ms "blocked" line: 20 gave false differences.)
const CASES_PER_SCRIPT: usize = 12;
/// How long one case lasts, and the gap before the next one of a sequential script.
const CASE_MS: u64 = 3000;
/// The cases of one script start this far apart: a dozen ALTERs sent at the same
/// instant share the real server's two cores and its fsyncs, and one that waits for
/// nothing still took 330–380 ms (past the 300 ms "blocked" line) where it takes
/// 60–120 ms alone; staggered, no more than two or three run at once.
const STAGGER_MS: u64 = 50;

/// The generated scripts: `(file stem, text)`.
pub fn scripts() -> Vec<(String, String)> {
    let all = cases();
    let (global, local): (Vec<Case>, Vec<Case>) = all
        .into_iter()
        .partition(|c| c.holder.global || c.requester.global);
    let mut out = Vec::new();
    for (n, chunk) in local.chunks(CASES_PER_SCRIPT).enumerate() {
        let cases: Vec<(usize, Case, u64)> = chunk
            .iter()
            .enumerate()
            .map(|(i, c)| (n * CASES_PER_SCRIPT + i, *c, i as u64 * STAGGER_MS))
            .collect();
        out.push((format!("matrix-{n:02}"), script_text(&cases)));
    }
    // Global cases one after another, a few per script.
    let base = local.len();
    for (n, chunk) in global.chunks(8).enumerate() {
        let cases: Vec<(usize, Case, u64)> = chunk
            .iter()
            .enumerate()
            .map(|(i, c)| (base + n * 8 + i, *c, i as u64 * (CASE_MS + 500)))
            .collect();
        out.push((format!("matrix-global-{n:02}"), script_text(&cases)));
    }
    out
}

/// A script of `(case number, case, start ms)`.
fn script_text(cases: &[(usize, Case, u64)]) -> String {
    let mut lines: Vec<(u64, String, String)> = Vec::new();
    let mut text = String::from(
        "# Generated by cargo xtask conformance (xtask/src/matrix.rs): holder x requester\n\
         # cases, each on its own table, a reader and a writer arriving during the wait.\n\
         profile mariadb-10.11\n",
    );
    for &(n, case, start) in cases {
        let table = format!("t{n}");
        let _ = writeln!(
            text,
            "# c{n}: holder {} / requester {} {}",
            case.holder.name,
            case.requester.name,
            case.variant.tag()
        );
        if case.requester.partitioned {
            let _ = writeln!(text, "table {table} rows=900 partitions=3");
        } else {
            let _ = writeln!(text, "table {table} rows=1000");
        }
        for (at, who, sql) in case_steps(n, &case) {
            lines.push((start + at, who, sql.replace("$T", &table)));
        }
    }
    lines.sort_by_key(|(at, _, _)| *at);
    // Every case runs its whole length: a holder without a release (SELECT SLEEP)
    // ends at 2 s, and what waited for it needs time after that.
    let mut end = cases
        .iter()
        .map(|&(_, _, start)| start + CASE_MS)
        .max()
        .unwrap_or(0);
    for (at, who, sql) in lines {
        let group = who.split('_').next().unwrap_or_default();
        let role = who.rsplit('_').next().unwrap_or_default();
        let n: usize = group[1..].parse().unwrap_or(usize::MAX);
        if let Some((_, case, _)) = cases.iter().find(|(k, _, _)| *k == n) {
            if let Some(e) = expected(case, role) {
                let _ = writeln!(text, "# mariadb: {}", e.reason);
            }
        }
        let _ = writeln!(text, "at {at}ms {who}: {sql}");
        end = end.max(at);
    }
    let _ = writeln!(text, "run {}ms", end + 1000);
    text
}

/// The known difference for `role`'s statement in `case`, if any.
fn expected(case: &Case, role: &str) -> Option<&'static Expected> {
    EXPECTED.iter().find(|e| {
        e.holder == case.holder.name
            && e.requester == case.requester.name
            && e.variant.is_none_or(|v| v == case.variant.tag())
            && e.who == role
    })
}

/// One case's timed statements: `(ms from the case's start, session, SQL)`.
fn case_steps(n: usize, case: &Case) -> Vec<(u64, String, String)> {
    let s = |role: &str| format!("c{n}_{role}");
    let mut v: Vec<(u64, String, String)> = Vec::new();
    let mut at = 0;
    for sql in case.holder.sql {
        v.push((at, s("h"), (*sql).to_owned()));
        at += 100;
    }
    match case.variant {
        Variant::LockWaitTimeout(t) => {
            v.push((300, s("r"), format!("SET SESSION lock_wait_timeout = {t}")))
        }
        Variant::InnodbLockWaitTimeout => v.push((
            300,
            s("r"),
            "SET SESSION innodb_lock_wait_timeout = 1".to_owned(),
        )),
        _ => {}
    }
    for (i, sql) in case.requester.sql.iter().enumerate() {
        v.push((500 + i as u64 * 50, s("r"), (*sql).to_owned()));
    }
    v.push((900, s("a"), "SELECT * FROM $T WHERE id = 3".to_owned()));
    v.push((1100, s("b"), "UPDATE $T SET k = 7 WHERE id = 3".to_owned()));
    match case.variant {
        // Late enough that the reader and the writer have waited past the 300 ms line
        // on both sides (the real server takes up to 250 ms to end a killed idle
        // connection).
        Variant::KillQueryWaiter => v.push((1600, s("k"), format!("KILL QUERY {{{}}}", s("r")))),
        Variant::KillHolder => v.push((1600, s("k"), format!("KILL {{{}}}", s("h")))),
        _ => {}
    }
    for (i, sql) in case.holder.release.iter().enumerate() {
        v.push((2000 + i as u64 * 100, s("h"), (*sql).to_owned()));
    }
    for sql in case.requester.release {
        v.push((2600, s("r"), (*sql).to_owned()));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_matrix_covers_every_pair_and_has_at_least_600_statements() {
        let scripts = scripts();
        let statements: usize = scripts
            .iter()
            .map(|(_, t)| t.lines().filter(|l| l.starts_with("at ")).count())
            .sum();
        assert!(statements >= 600, "{statements} statements");
        let all: String = scripts.iter().map(|(_, t)| t.as_str()).collect();
        for h in HOLDERS {
            for r in REQUESTERS {
                if h.global && r.global {
                    continue;
                }
                let tag = format!("holder {} / requester {} \n", h.name, r.name);
                assert!(all.contains(&tag), "no case {tag}");
            }
        }
        assert!(all.contains("KILL QUERY {c"), "a kill of a waiter");
        assert!(all.contains("SET SESSION lock_wait_timeout = 0"));
    }

    #[test]
    fn a_case_names_its_table_and_sessions_and_keeps_time_order() {
        let (_, text) = &scripts()[0];
        assert!(text.contains("table t0 rows=1000"), "{text}");
        assert!(text.contains("at 0ms c0_h: BEGIN"), "{text}");
        assert!(
            text.contains("at 500ms c0_r: SELECT * FROM t0 WHERE id = 2"),
            "{text}"
        );
        // The next case starts a stagger later, and the script runs past every case.
        assert!(text.contains("at 550ms c1_r: "), "{text}");
        let script = crate::conformance::parse_script(text);
        let run = script.run_ms;
        assert!(run >= 11 * STAGGER_MS + CASE_MS + 1000, "run {run}ms");
        let steps = &script.steps;
        assert!(steps.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
    }
}
