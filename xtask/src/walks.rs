//! Random walks: session scripts drawn at random from the statements the console
//! knows, for `cargo xtask conformance --random N [--seed S]`. The matrix
//! (`matrix.rs`) pairs one holder with one requester at fixed moments; a walk lets
//! three sessions take turns on one table for a dozen statements, so sequences the
//! matrix never writes come up: a DDL inside an open transaction (its implicit
//! commit), a wait that times out while another session's statement queues behind
//! it, a row lock on a row another session deleted, a session killed mid-wait and
//! reconnected, autocommit switched off, an index created twice.
//!
//! ```text
//!  one walk (group w3, table w3t, sessions w3_a w3_b w3_c):
//!     0 ms   each session: SET SESSION lock_wait_timeout / innodb_lock_wait_timeout = 1
//!            (most walks: a wait then ends within the walk)
//!   400 ms   STEPS statements, a random session each, 200-600 ms apart
//!   end      each session: ROLLBACK, UNLOCK TABLES (what it holds is released)
//!  a script: WALKS_PER_SCRIPT walks, each STAGGER_MS after the last, side by side
//! ```
//!
//! A walk is a function of its seed: `--seed S` writes the same scripts again, so a
//! difference found once can be run again (`--only`) while it is fixed. Walks are a
//! campaign, not part of `cargo xtask test`: a difference they find becomes a
//! hand-written script in `assets/scripts/` once it is understood.

use std::fmt::Write as _;

/// Walks side by side in one script (each on its own table and sessions).
const WALKS_PER_SCRIPT: usize = 6;
/// The walks of one script start this far apart (see `matrix::STAGGER_MS`).
const STAGGER_MS: u64 = 60;
/// Statements in a walk, between its timeouts and its releases.
const STEPS: std::ops::RangeInclusive<u64> = 10..=14;
/// The gaps between a walk's statements: past the 100 ms order slack of the
/// comparison, and long enough that a statement that waits for nothing (tens of ms
/// at most, a DDL on ROWS rows included) finishes before the next is sent.
const GAP_MS: std::ops::RangeInclusive<u64> = 200..=600;
/// Rows in a walk's table: a DDL copies them in well under the gap.
const ROWS: u64 = 300;

/// xorshift64*: small, and the same walks on every machine for one seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn within(&mut self, r: &std::ops::RangeInclusive<u64>) -> u64 {
        r.start() + self.below(r.end() - r.start() + 1)
    }

    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len() as u64) as usize]
    }
}

/// The statements a walk draws from, `$T` its table (`$U` its second, smaller one),
/// `$R` a row id (1 to 6: the
/// sessions meet on the same rows), `$N` a new row id (1001 to 1003: two inserts may
/// meet), `$I` an index or column number (1 or 2: a second ADD meets the first),
/// `$O` another session of the walk (a kill's target). Weighted by repetition.
const STATEMENTS: &[&str] = &[
    "BEGIN",
    "BEGIN",
    "COMMIT",
    "COMMIT",
    "ROLLBACK",
    "START TRANSACTION WITH CONSISTENT SNAPSHOT",
    "SET SESSION autocommit = 0",
    "SET SESSION autocommit = 1",
    "SELECT * FROM $T WHERE id = $R",
    "SELECT * FROM $T WHERE id = $R FOR UPDATE",
    "SELECT * FROM $T WHERE id = $R FOR UPDATE",
    "SELECT * FROM $T WHERE id = $R LOCK IN SHARE MODE",
    "SELECT * FROM $T WHERE id BETWEEN $R AND 8 FOR UPDATE",
    "SELECT SLEEP(0.5)",
    "UPDATE $T SET k = k + 1 WHERE id = $R",
    "UPDATE $T SET k = k + 1 WHERE id = $R",
    "UPDATE $T SET c = 'u' WHERE id BETWEEN $R AND 8",
    "DELETE FROM $T WHERE id = $R",
    "INSERT INTO $T (id, k, c, pad) VALUES ($N, 1, 'c', 'p')",
    "INSERT INTO $T (id, k, c, pad) VALUES ($R, 1, 'c', 'p')",
    "ALTER TABLE $T ADD COLUMN x$I INT",
    "ALTER TABLE $T DROP COLUMN x$I",
    "ALTER TABLE $T ADD COLUMN y$I INT, ALGORITHM=INSTANT",
    "ALTER TABLE $T ADD COLUMN z$I INT, ALGORITHM=COPY",
    "CREATE INDEX i$I ON $T (k)",
    "DROP INDEX i$I ON $T",
    "ALTER TABLE $T ADD INDEX j$I (k, c), ALGORITHM=INPLACE, LOCK=NONE",
    "OPTIMIZE TABLE $T",
    "ANALYZE TABLE $T",
    "TRUNCATE TABLE $T",
    "RENAME TABLE $T TO $T_r",
    "RENAME TABLE $T_r TO $T",
    "LOCK TABLES $T READ",
    "LOCK TABLES $T WRITE",
    "UNLOCK TABLES",
    "UNLOCK TABLES",
    "FLUSH TABLES $T",
    "KILL QUERY {$O}",
    "KILL {$O}",
    "SELECT * FROM $T_missing WHERE id = 1",
    "ALTER TABLE $T DROP COLUMN nosuch",
    // Ranges, gaps and the supremum: next-key locks meet inserts past the last row.
    "SELECT * FROM $T WHERE k BETWEEN $R AND 8 FOR UPDATE",
    "SELECT * FROM $T WHERE id > 295 FOR UPDATE",
    "SELECT COUNT(*) FROM $T",
    "SELECT * FROM $T WHERE id > $R LIMIT 2",
    "UPDATE $T SET k = 5 WHERE id < 10 LIMIT 2",
    "DELETE FROM $T WHERE id BETWEEN $R AND 8",
    "INSERT INTO $T (id, k, c, pad) VALUES ($N, 1, 'c', 'p'), (1004, 1, 'c', 'p')",
    "INSERT INTO $T (id, k, c, pad) VALUES ($R, 1, 'c', 'p') ON DUPLICATE KEY UPDATE k = k + 1",
    "ALTER TABLE $T ENGINE=InnoDB",
    "ALTER TABLE $T FORCE",
    "CREATE TABLE $T_l LIKE $T",
    "DROP TABLE IF EXISTS $T_l",
    // A second table: locks over two tables, statements on the one not locked.
    "LOCK TABLES $T READ, $U WRITE",
    "LOCK TABLES $U READ",
    "SELECT * FROM $U WHERE id = $R FOR UPDATE",
    "UPDATE $U SET k = k + 1 WHERE id = $R",
    "ALTER TABLE $U ADD COLUMN x$I INT",
    "ANALYZE TABLE $T, $U",
];

/// `count` scripts from `seed`: `(file stem, text)`.
pub fn scripts(count: usize, seed: u64) -> Vec<(String, String)> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|n| {
            let first = n * WALKS_PER_SCRIPT;
            let walks: Vec<Vec<(u64, String, String)>> = (first..first + WALKS_PER_SCRIPT)
                .map(|w| walk(&mut rng, w))
                .collect();
            (
                format!("walk-{seed}-{n:02}"),
                script_text(seed, first, &walks),
            )
        })
        .collect()
}

/// Walk `w`'s statements: `(ms from its start, session, SQL)`.
fn walk(rng: &mut Rng, w: usize) -> Vec<(u64, String, String)> {
    let (table, second) = (format!("w{w}t"), format!("w{w}u"));
    let sessions = ["a", "b", "c"].map(|s| format!("w{w}_{s}"));
    let mut v = Vec::new();
    // Most walks bound their waits; the rest leave the defaults (a wait lasts past
    // the walk, and what the session sends next queues behind it).
    if rng.below(4) != 0 {
        for (i, s) in sessions.iter().enumerate() {
            let at = i as u64 * 20;
            v.push((at, s.clone(), "SET SESSION lock_wait_timeout = 1".into()));
            v.push((
                at + 100,
                s.clone(),
                "SET SESSION innodb_lock_wait_timeout = 1".into(),
            ));
        }
    }
    let mut at = 400;
    for _ in 0..rng.within(&STEPS) {
        let who = rng.below(3) as usize;
        let other = (who + 1 + rng.below(2) as usize) % 3;
        let sql = rng
            .pick(STATEMENTS)
            .replace("$T", &table)
            .replace("$U", &second)
            .replace("$R", &(1 + rng.below(6)).to_string())
            .replace("$N", &(1001 + rng.below(3)).to_string())
            .replace("$I", &(1 + rng.below(2)).to_string())
            .replace("$O", &sessions[other]);
        v.push((at, sessions[who].clone(), sql));
        at += rng.within(&GAP_MS);
    }
    // Releases, so that the walk's last waits end inside the run.
    for s in &sessions {
        v.push((at, s.clone(), "ROLLBACK".into()));
        v.push((at + 100, s.clone(), "UNLOCK TABLES".into()));
        at += 200;
    }
    v
}

/// A script of walks `first..`, each `STAGGER_MS` after the last.
fn script_text(seed: u64, first: usize, walks: &[Vec<(u64, String, String)>]) -> String {
    let mut text = format!(
        "# Generated by cargo xtask conformance --random (xtask/src/walks.rs), seed {seed}:\n\
         # three sessions take turns on one table, {} walks side by side.\n\
         profile mariadb-10.11\n",
        walks.len()
    );
    let mut lines = Vec::new();
    let mut end = 0;
    for (i, steps) in walks.iter().enumerate() {
        let _ = writeln!(text, "table w{}t rows={ROWS}", first + i);
        let _ = writeln!(text, "table w{}u rows={}", first + i, ROWS / 3);
        let start = i as u64 * STAGGER_MS;
        for (at, who, sql) in steps {
            lines.push((start + at, who.clone(), sql.clone()));
            end = end.max(start + at);
        }
    }
    // A session named by a kill before it sends anything needs connecting first.
    let sessions: Vec<String> = (first..first + walks.len())
        .flat_map(|w| ["a", "b", "c"].map(|s| format!("w{w}_{s}")))
        .collect();
    let _ = writeln!(text, "session {}", sessions.join(" "));
    lines.sort_by_key(|(at, _, _)| *at);
    for (at, who, sql) in lines {
        let _ = writeln!(text, "at {at}ms {who}: {sql}");
    }
    // Room for a wait at the default timeouts to show as one; a bounded one ends.
    let _ = writeln!(text, "run {}ms", end + 2000);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_seed_writes_the_same_walks_and_another_seed_others() {
        assert_eq!(scripts(3, 7), scripts(3, 7));
        assert_ne!(scripts(1, 7)[0].1, scripts(1, 8)[0].1);
        let names: Vec<String> = scripts(3, 7).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["walk-7-00", "walk-7-01", "walk-7-02"]);
    }

    #[test]
    fn a_walk_keeps_time_order_and_its_own_table_and_sessions() {
        let (_, text) = &scripts(2, 3)[1];
        assert!(text.contains(&format!("table w{}t rows={ROWS}", WALKS_PER_SCRIPT)));
        let steps = crate::conformance::parse_script(text).steps;
        assert!(steps.len() > WALKS_PER_SCRIPT * 10, "{} steps", steps.len());
        assert!(steps.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
        for step in &steps {
            let (who, sql) = (&step.session, &step.sql);
            let group = who.split('_').next().unwrap();
            // A walk's statements name its own table (or no table) and sessions.
            for word in sql.split(|c: char| !c.is_alphanumeric() && c != '_') {
                if word.starts_with('w')
                    && word.ends_with('t')
                    && word[1..word.len() - 1].parse::<u32>().is_ok()
                {
                    assert_eq!(&word[..word.len() - 1], group, "{step:?}");
                }
            }
            assert!(!sql.contains('$'), "{step:?}");
        }
        assert!(text.contains("\nsession w6_a w6_b w6_c"));
    }

    #[test]
    fn every_statement_form_is_drawn_over_a_campaign() {
        let all: String = scripts(40, 1).into_iter().map(|(_, t)| t).collect();
        for form in STATEMENTS {
            let head: String = form.split('$').next().unwrap().to_owned();
            assert!(all.contains(&head), "never drawn: {form}");
        }
    }
}
