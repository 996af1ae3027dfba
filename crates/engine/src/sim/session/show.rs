//! Looking in, the way operators look: SHOW PROCESSLIST, `performance_schema`,
//! `information_schema`, SHOW ENGINE INNODB STATUS, SHOW VARIABLES and SHOW STATUS,
//! built from the simulation's own state as result sets.
//!
//! Simplification: `performance_schema` numbers threads on its own (background threads
//! first); here `THREAD_ID` and `OWNER_THREAD_ID` equal the processlist id, so the views
//! join without a lookup.

use super::VARIABLES;
use crate::mdl::MdlContextId;
use crate::resultset::ResultSet;
use crate::sim::catalog::TableId;
use crate::sim::locks::LockMode;
use crate::sim::{Sim, Thread};
use crate::sql::{SqlError, TableName, VarScope};
use crate::time::Tick;
use crate::workload::StatementKind;

/// One row of `SHOW PROCESSLIST` before formatting: what [`Sim::processlist_rows`]
/// returns, and what SHOW PROCESSLIST, `information_schema.processlist` and
/// `performance_schema.threads` print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcesslistRow {
    /// `Id`: the processlist id (also the metadata-lock owner).
    pub id: u32,
    /// `User`: `sbtest` for the workload's clients, `root` for console sessions.
    pub user: &'static str,
    /// `db`.
    pub db: Option<String>,
    /// `Command`: `Query` inside a statement, else `Sleep`.
    pub command: &'static str,
    /// `Time`, seconds: for a console session, since its state last changed; for a
    /// workload client waiting for a metadata lock, since the wait began (its
    /// statement started a moment before); otherwise 0 (sysbench's statements last
    /// milliseconds).
    pub time_s: u64,
    /// `State`: "Waiting for table metadata lock", "Sending data", ... (empty when idle).
    pub state: String,
    /// `Info`: the statement, whole (SHOW PROCESSLIST without FULL cuts it to 100
    /// characters).
    pub info: Option<String>,
}

pub(in crate::sim) fn some(s: impl ToString) -> Option<String> {
    Some(s.to_string())
}

/// sysbench's statement text for a kind.
pub(in crate::sim) fn sysbench_text(kind: StatementKind, table: &str) -> String {
    match kind {
        StatementKind::Begin => "BEGIN".into(),
        StatementKind::Commit => "COMMIT".into(),
        StatementKind::PointSelect => format!("SELECT c FROM {table} WHERE id=?"),
        StatementKind::RangeSelect => format!("SELECT c FROM {table} WHERE id BETWEEN ? AND ?"),
        StatementKind::UpdateIndex => format!("UPDATE {table} SET k=k+1 WHERE id=?"),
        StatementKind::UpdateNonIndex => format!("UPDATE {table} SET c=? WHERE id=?"),
        StatementKind::Delete => format!("DELETE FROM {table} WHERE id=?"),
        StatementKind::Insert | StatementKind::Reinsert => {
            format!("INSERT INTO {table} (id, k, c, pad) VALUES (?, ?, ?, ?)")
        }
    }
}

/// One processlist row's cells, as SHOW PROCESSLIST and
/// `information_schema.processlist` both print them (Id, User, Host, db, Command,
/// Time, State, Info).
fn processlist_cells(p: ProcesslistRow, info: Option<String>) -> Vec<Option<String>> {
    vec![
        some(p.id),
        some(p.user),
        some("localhost"),
        p.db,
        some(p.command),
        some(p.time_s),
        Some(p.state),
        info,
    ]
}

impl Sim {
    /// The processlist as an observer outside every session sees it (a monitoring
    /// panel, not a `SHOW` run in one of the sessions): one row per workload client and
    /// per console session, sorted by `Id` as the server lists them. The same rows as
    /// `SHOW FULL PROCESSLIST`, unformatted.
    pub fn processlist_rows(&self) -> Vec<ProcesslistRow> {
        self.procs(None)
    }

    /// The rows; `me`, the session running the SHOW, shows itself in state `init`.
    pub(in crate::sim) fn procs(&self, me: Option<u32>) -> Vec<ProcesslistRow> {
        let mut rows = Vec::new();
        for th in &self.sched.threads {
            if let Thread::Client(c) = th {
                let ctx = MdlContextId(c.session);
                let current = c.current();
                let state = match self.sql.mdl.wait_state(ctx) {
                    Some(w) => w.to_owned(),
                    None => c.state_name().to_owned(),
                };
                let waited = self
                    .sql
                    .mdl
                    .waiting_request(ctx)
                    .and_then(|r| self.sql.mdl.pending(r))
                    .map_or(Tick::ZERO, |p| self.sched.now - p.requested_at);
                rows.push(ProcesslistRow {
                    id: c.session,
                    user: "sbtest",
                    db: Some(self.scenario.schema.clone()),
                    command: if current.is_some() { "Query" } else { "Sleep" },
                    time_s: waited.as_secs(),
                    state,
                    info: current.map(|(k, t)| sysbench_text(k, self.catalog[t].table.sql_name())),
                });
            }
        }
        for s in self.sql.sessions.values() {
            if s.gone {
                continue;
            }
            let running = s.running.map(|i| &self.sql.statements[i as usize]);
            let state = if Some(s.id) == me {
                "init".to_owned()
            } else {
                s.state.to_owned()
            };
            rows.push(ProcesslistRow {
                id: s.id,
                user: s.user,
                db: s.db.clone(),
                command: if running.is_some() { "Query" } else { "Sleep" },
                time_s: (self.sched.now - s.since).as_secs(),
                state,
                info: running.map(|r| r.sql.clone()),
            });
        }
        rows.sort_by_key(|p| p.id);
        rows
    }

    /// `SHOW [FULL] PROCESSLIST`.
    pub(in crate::sim) fn processlist(&self, me: u32, full: bool) -> ResultSet {
        let mut r = ResultSet::new(
            &[
                "Id", "User", "Host", "db", "Command", "Time", "State", "Info",
            ],
            &["Id", "Time"],
        );
        for mut p in self.procs(Some(me)) {
            let info = p.info.take().map(|i| {
                if full {
                    i
                } else {
                    i.chars().take(100).collect()
                }
            });
            r.push(processlist_cells(p, info));
        }
        r
    }

    /// A diagnostic table, whole.
    pub(in crate::sim) fn system_table(
        &self,
        schema: &str,
        table: &str,
        me: u32,
    ) -> Result<ResultSet, SqlError> {
        match (schema, table) {
            ("performance_schema", "metadata_locks") => Ok(self.metadata_locks_table()),
            ("performance_schema", "threads") => {
                let mut r = ResultSet::new(
                    &[
                        "THREAD_ID",
                        "NAME",
                        "TYPE",
                        "PROCESSLIST_ID",
                        "PROCESSLIST_USER",
                        "PROCESSLIST_HOST",
                        "PROCESSLIST_DB",
                        "PROCESSLIST_COMMAND",
                        "PROCESSLIST_TIME",
                        "PROCESSLIST_STATE",
                        "PROCESSLIST_INFO",
                    ],
                    &["THREAD_ID", "PROCESSLIST_ID", "PROCESSLIST_TIME"],
                );
                for p in self.procs(Some(me)) {
                    r.push(vec![
                        some(p.id),
                        some("thread/sql/one_connection"),
                        some("FOREGROUND"),
                        some(p.id),
                        some(p.user),
                        some("localhost"),
                        p.db,
                        some(p.command),
                        some(p.time_s),
                        if p.state.is_empty() {
                            None
                        } else {
                            Some(p.state)
                        },
                        p.info,
                    ]);
                }
                Ok(r)
            }
            ("information_schema", "processlist") => {
                let mut r = ResultSet::new(
                    &[
                        "ID", "USER", "HOST", "DB", "COMMAND", "TIME", "STATE", "INFO",
                    ],
                    &["ID", "TIME"],
                );
                for mut p in self.procs(Some(me)) {
                    let info = p.info.take();
                    r.push(processlist_cells(p, info));
                }
                Ok(r)
            }
            ("information_schema", "innodb_trx") => {
                let mut r = ResultSet::new(
                    &[
                        "trx_id",
                        "trx_state",
                        "trx_started",
                        "trx_wait_started",
                        "trx_mysql_thread_id",
                        "trx_query",
                        "trx_rows_locked",
                        "trx_rows_modified",
                    ],
                    &[
                        "trx_id",
                        "trx_mysql_thread_id",
                        "trx_rows_locked",
                        "trx_rows_modified",
                    ],
                );
                for s in self.sql.sessions.values() {
                    let Some(trx) = &s.trx else { continue };
                    if trx.read_view.is_none() && trx.rows_locked == 0 && !trx.wrote {
                        continue;
                    }
                    let wait = self.sql.row_waits.get(&s.id);
                    r.push(vec![
                        some(trx.id),
                        some(if wait.is_some() {
                            "LOCK WAIT"
                        } else {
                            "RUNNING"
                        }),
                        some(virtual_datetime(trx.started)),
                        wait.map(|w| virtual_datetime(w.since)),
                        some(s.id),
                        s.running
                            .map(|i| self.sql.statements[i as usize].sql.clone()),
                        some(trx.rows_locked),
                        some(trx.rows_modified),
                    ]);
                }
                Ok(r)
            }
            _ => Err(SqlError::not_modelled(&format!(
                "SELECT FROM {schema}.{table}"
            ))),
        }
    }

    /// `performance_schema.metadata_locks`.
    pub fn metadata_locks_table(&self) -> ResultSet {
        let mut r = ResultSet::new(
            &[
                "OBJECT_TYPE",
                "OBJECT_SCHEMA",
                "OBJECT_NAME",
                "LOCK_TYPE",
                "LOCK_DURATION",
                "LOCK_STATUS",
                "OWNER_THREAD_ID",
            ],
            &["OWNER_THREAD_ID"],
        );
        for row in self.sql.mdl.metadata_locks() {
            r.push(vec![
                some(row.object_type),
                row.object_schema,
                row.object_name,
                some(row.lock_type.pfs_name()),
                some(row.lock_duration.pfs_name()),
                some(row.lock_status.pfs_name()),
                some(row.owner.0),
            ]);
        }
        r
    }

    /// `SHOW ENGINE INNODB STATUS`: SEMAPHORES, TRANSACTIONS, BUFFER POOL AND MEMORY.
    pub(in crate::sim) fn innodb_status(&self) -> ResultSet {
        let mut text = String::new();
        text.push_str("\n=====================================\n");
        text.push_str(&format!(
            "{} INNODB MONITOR OUTPUT\n=====================================\n",
            virtual_datetime(self.sched.now)
        ));
        text.push_str("----------\nSEMAPHORES\n----------\n");
        for l in &self.latches {
            if let Some(holder) = l.holder() {
                text.push_str(&format!(
                    "Mutex {} held by thread {}; {} waiting\n",
                    l.id,
                    holder.0,
                    l.waiter_count()
                ));
            }
        }
        text.push_str("------------\nTRANSACTIONS\n------------\n");
        text.push_str(&format!("Trx id counter {}\n", self.sql.next_trx_id + 1));
        text.push_str("LIST OF TRANSACTIONS FOR EACH SESSION:\n");
        for s in self.sql.sessions.values() {
            match &s.trx {
                Some(trx) => {
                    let wait = self.sql.row_waits.get(&s.id).map(|w| w.range);
                    let auto_inc = wait.filter(|r| r.mode == LockMode::AutoInc);
                    text.push_str(&format!(
                        "---TRANSACTION {}, ACTIVE {} sec{}\n",
                        trx.id,
                        (self.sched.now - trx.started).as_secs(),
                        match (wait, auto_inc) {
                            (_, Some(_)) => " setting auto-inc lock",
                            (Some(_), None) => " starting index read",
                            (None, None) => "",
                        }
                    ));
                    if trx.rows_locked > 0 || trx.rows_modified > 0 {
                        text.push_str(&format!(
                            "{} lock struct(s), heap size {}, {} row lock(s), undo log entries {}\n",
                            trx.lock_bytes / crate::sim::LOCK_BYTES_PER_PAGE + 1,
                            trx.lock_bytes + 1136,
                            trx.rows_locked,
                            trx.rows_modified
                        ));
                    }
                    text.push_str(&format!(
                        "MySQL thread id {}, OS thread handle 0, query id 0 localhost root\n",
                        s.id
                    ));
                    if wait.is_some() {
                        text.push_str(
                            "------- TRX HAS BEEN WAITING FOR THIS LOCK TO BE GRANTED:\n",
                        );
                    }
                    if let Some(r) = auto_inc {
                        text.push_str(&format!(
                            "TABLE LOCK table `{}`.`{}` trx id {} lock mode AUTO-INC waiting\n",
                            self.scenario.schema,
                            self.catalog[r.table].table.sql_name(),
                            trx.id
                        ));
                    }
                }
                None => text.push_str(&format!(
                    "---TRANSACTION (not started), not started\nMySQL thread id {}\n",
                    s.id
                )),
            }
        }
        text.push_str("----------------------\nBUFFER POOL AND MEMORY\n----------------------\n");
        let p = &self.pool;
        text.push_str(&format!(
            "Total large memory allocated {}\n",
            p.pages_total() * crate::units::PAGE_SIZE
        ));
        text.push_str(&format!(
            "Buffer pool size   {}\nFree buffers       {}\nDatabase pages     {}\nOld database pages {}\nModified db pages  {}\n",
            p.pages_total(),
            p.pages_free(),
            p.pages_data(),
            p.instances().iter().map(|i| u64::from(i.lru_old_len())).sum::<u64>(),
            p.pages_dirty()
        ));
        let stats = p.stats();
        text.push_str(&format!(
            "Pages made young {}, not young {}\nPages read {}, created 0, written {}\n",
            stats.made_young, stats.not_made_young, self.rec.counters.reads, stats.flushed
        ));
        text.push_str("----------------------------\nEND OF INNODB MONITOR OUTPUT\n============================\n");
        let mut r = ResultSet::new(&["Type", "Name", "Status"], &[]);
        r.push(vec![some("InnoDB"), some(""), Some(text)]);
        r
    }

    /// `SHOW VARIABLES [LIKE]`.
    pub(in crate::sim) fn show_variables(
        &self,
        me: u32,
        scope: VarScope,
        like: Option<&str>,
    ) -> ResultSet {
        let mut r = ResultSet::new(&["Variable_name", "Value"], &[]);
        for (name, _) in VARIABLES {
            if like.is_some_and(|p| !like_match(p, name)) {
                continue;
            }
            if let Some(v) = self.variable_value(me, scope, name) {
                r.push(vec![some(name), Some(v)]);
            }
        }
        r
    }

    /// `SHOW [GLOBAL] STATUS [LIKE]`: the counters the engine keeps.
    pub(in crate::sim) fn show_status(&self, like: Option<&str>) -> ResultSet {
        let p = &self.pool;
        let c = &self.rec.counters;
        let waits = self.sql.mdl.waits().len();
        let threads_running = self.rec.running
            + self
                .sql
                .sessions
                .values()
                .filter(|s| s.running.is_some())
                .count() as u64;
        let values: Vec<(&str, String)> = vec![
            ("Innodb_buffer_pool_pages_data", p.pages_data().to_string()),
            (
                "Innodb_buffer_pool_pages_dirty",
                p.pages_dirty().to_string(),
            ),
            (
                "Innodb_buffer_pool_pages_flushed",
                p.stats().flushed.to_string(),
            ),
            ("Innodb_buffer_pool_pages_free", p.pages_free().to_string()),
            ("Innodb_buffer_pool_pages_misc", p.pages_misc().to_string()),
            (
                "Innodb_buffer_pool_pages_total",
                p.pages_total().to_string(),
            ),
            (
                "Innodb_buffer_pool_read_requests",
                c.read_requests.to_string(),
            ),
            ("Innodb_buffer_pool_reads", c.reads.to_string()),
            ("Innodb_buffer_pool_wait_free", c.wait_free.to_string()),
            (
                "Innodb_row_lock_current_waits",
                self.sql.row_waits.len().to_string(),
            ),
            ("Queries", c.queries.to_string()),
            (
                "Threads_connected",
                (self.sql.sessions.values().filter(|s| !s.gone).count() as u64
                    + u64::from(self.scenario.workload.threads))
                .to_string(),
            ),
            ("Threads_running", threads_running.to_string()),
            ("Uptime", self.sched.now.as_secs().to_string()),
            ("ddlscope_metadata_lock_waits", waits.to_string()),
        ];
        let mut r = ResultSet::new(&["Variable_name", "Value"], &[]);
        for (n, v) in values {
            if like.is_some_and(|p| !like_match(p, n)) {
                continue;
            }
            r.push(vec![some(n), Some(v)]);
        }
        r
    }
}

/// Virtual time as a server timestamp, the clock starting at 2024-01-01 00:00:00.
pub(in crate::sim) fn virtual_datetime(t: Tick) -> String {
    let s = t.as_secs();
    let (d, rem) = (s / 86_400, s % 86_400);
    format!(
        "2024-01-{:02} {:02}:{:02}:{:02}",
        (d % 31) + 1,
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// SQL LIKE, case-insensitive: `%` any run, `_` one character, `\` escapes.
pub(in crate::sim) fn like_match(pattern: &str, s: &str) -> bool {
    pub(in crate::sim) fn go(p: &[char], s: &[char]) -> bool {
        match p.first() {
            None => s.is_empty(),
            Some('%') => (0..=s.len()).any(|i| go(&p[1..], &s[i..])),
            Some('_') => !s.is_empty() && go(&p[1..], &s[1..]),
            Some('\\') if p.len() > 1 => {
                !s.is_empty() && s[0].eq_ignore_ascii_case(&p[1]) && go(&p[2..], &s[1..])
            }
            Some(c) => !s.is_empty() && s[0].eq_ignore_ascii_case(c) && go(&p[1..], &s[1..]),
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let s: Vec<char> = s.chars().collect();
    go(&p, &s)
}

/// Keeps the requested columns (`*` for all) and the rows matching a WHERE clause of
/// `col = value` terms joined by AND.
pub(in crate::sim) fn project(
    full: ResultSet,
    columns: &[String],
    where_text: Option<&str>,
) -> Result<ResultSet, SqlError> {
    let mut keep: Vec<usize> = Vec::new();
    for c in columns {
        let c = c.trim();
        if c == "*" {
            keep.extend(0..full.columns.len());
            continue;
        }
        let bare = c.rsplit('.').next().unwrap_or(c).trim_matches('`');
        match full.column(bare) {
            Some(i) => keep.push(i),
            None => return Err(SqlError::unknown_column_in(c, "field list")),
        }
    }
    let mut conds: Vec<(usize, String)> = Vec::new();
    if let Some(w) = where_text {
        for term in split_and(w) {
            let Some((l, r)) = term.split_once('=') else {
                return Err(SqlError::not_modelled(&format!("WHERE {term}")));
            };
            let l = l.trim();
            let bare = l.rsplit('.').next().unwrap_or(l).trim_matches('`');
            let Some(i) = full.column(bare) else {
                return Err(SqlError::unknown_column_in(l, "where clause"));
            };
            let v = r.trim().trim_matches(|c| c == '\'' || c == '"').to_owned();
            conds.push((i, v));
        }
    }
    let mut out = ResultSet {
        columns: keep.iter().map(|&i| full.columns[i].clone()).collect(),
        numeric: keep.iter().map(|&i| full.numeric[i]).collect(),
        rows: Vec::new(),
    };
    for row in &full.rows {
        let ok = conds.iter().all(|(i, v)| {
            row[*i]
                .as_deref()
                .is_some_and(|x| x.eq_ignore_ascii_case(v))
        });
        if ok {
            out.rows
                .push(keep.iter().map(|&i| row[i].clone()).collect());
        }
    }
    Ok(out)
}

/// `a = 1 AND b = 'x'` → `["a = 1", "b = 'x'"]` (AND in any case, outside quotes).
pub(in crate::sim) fn split_and(w: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    let words: Vec<&str> = w.split_inclusive(' ').collect();
    for word in words {
        for ch in word.chars() {
            match quote {
                Some(q) if ch == q => quote = None,
                None if ch == '\'' || ch == '"' => quote = Some(ch),
                _ => {}
            }
        }
        if quote.is_none() && word.trim().eq_ignore_ascii_case("and") {
            out.push(cur.trim().to_owned());
            cur.clear();
        } else {
            cur.push_str(word);
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_owned());
    }
    out
}

impl Sim {
    pub(in crate::sim) fn show_create(&self, ti: TableId) -> String {
        let t = &self.catalog[ti].table;
        let d = &self.catalog[ti].def;
        let mut lines: Vec<String> = d
            .columns
            .iter()
            .map(|c| {
                // pt-online-schema-change and gh-ost create their new table from
                // this: without AUTO_INCREMENT its copy would take no AUTO-INC lock.
                let auto = d.auto_increment.as_deref() == Some(c.as_str());
                format!(
                    "  `{c}` int NOT NULL{}",
                    if auto { " AUTO_INCREMENT" } else { "" }
                )
            })
            .collect();
        if let Some(pk) = &d.pk {
            lines.push(format!("  PRIMARY KEY (`{pk}`)"));
        }
        for ix in &d.indexes {
            lines.push(format!("  KEY `{}` (`{}`)", ix.name, ix.column));
        }
        let mut s = format!(
            "CREATE TABLE `{}` (\n{}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
            t.name,
            lines.join(",\n")
        );
        if !d.partitions.is_empty() {
            s.push_str("\n/*!50100 PARTITION BY RANGE (`id`)\n(");
            let parts: Vec<String> = d
                .partitions
                .iter()
                .map(|p| format!("PARTITION {p} ENGINE = InnoDB"))
                .collect();
            s.push_str(&parts.join(",\n "));
            s.push_str(") */");
        }
        s
    }
}

impl Sim {
    /// SHOW TABLES: the live tables' names, sorted.
    pub(in crate::sim) fn show_tables(&self) -> ResultSet {
        let schema = &self.scenario.schema;
        let mut r = ResultSet::new(&[&format!("Tables_in_{schema}")], &[]);
        let mut names: Vec<&str> = self
            .catalog
            .tables()
            .filter(|t| !t.dropped)
            .map(|t| t.name.as_str())
            .collect();
        names.sort_unstable();
        for n in names {
            r.push(vec![Some(n.to_owned())]);
        }
        r
    }

    /// SHOW CREATE TABLE, or 1146.
    pub(in crate::sim) fn show_create_table(
        &self,
        table: &TableName,
    ) -> Result<ResultSet, SqlError> {
        let Some(ti) = self.resolve(table).first().copied() else {
            return Err(SqlError::no_such_table(&self.scenario.schema, &table.table));
        };
        let mut r = ResultSet::new(&["Table", "Create Table"], &[]);
        r.push(vec![
            Some(self.catalog[ti].table.sql_name().to_owned()),
            Some(self.show_create(ti)),
        ]);
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::{like_match, split_and};

    #[test]
    pub(in crate::sim) fn like_matches_as_mysql() {
        assert!(like_match(
            "Innodb_buffer_pool_pages%",
            "Innodb_buffer_pool_pages_free"
        ));
        assert!(like_match("%lock_wait%", "innodb_lock_wait_timeout"));
        assert!(!like_match("lock_wait_timeout", "innodb_lock_wait_timeout"));
        assert!(like_match("lock\\_wait_timeout", "lock_wait_timeout"));
    }

    #[test]
    fn where_terms_split_on_and_outside_quotes() {
        assert_eq!(
            split_and("OBJECT_TYPE = 'TABLE' and OBJECT_NAME='a and b'"),
            vec!["OBJECT_TYPE = 'TABLE'", "OBJECT_NAME='a and b'"]
        );
    }
}
