//! LOCK TABLES mode: what a session holding LOCK TABLES may run, checked before
//! any lock is asked, as `open_tables()` checks it against `thd->open_tables` under
//! `locked_tables_mode` (`find_table_for_mdl_upgrade()`, `sql_base.cc`).
//!
//! ```text
//!   a table the statement names        READ-locked    WRITE-locked    not locked
//!   SELECT, ANALYZE                    ok             ok              1100
//!   DML, DDL, OPTIMIZE, FLUSH TABLES t 1099           ok              1100
//!   RENAME TABLE                       1192 (MariaDB, MySQL < 8.0.13); 8.0.13+: as DDL
//!   FLUSH TABLES WITH READ LOCK        1192
//! ```
//!
//! The mode ends with UNLOCK TABLES, with LOCK TABLES (which unlocks first) and with
//! BEGIN / START TRANSACTION; COMMIT, ROLLBACK and a DDL leave it (the DDL commits
//! the transaction only). A DROP TABLE of a locked table takes it out of the mode.
//! Checked against MariaDB 10.11.19 (`cargo xtask conformance`, script
//! `lock-tables-ddl`).

use super::lock_plan::table_key;
use crate::mdl::{MdlContextId, MdlDuration, MdlKey, MdlTicketId, MdlType};
use crate::sim::Sim;
use crate::sql::{Command, FlushMode, RowLock, SqlError, TableName};

impl Sim {
    /// A table `id`'s statement names, checked against its LOCK TABLES: 1100 when
    /// it is not locked, 1099 when `write` and it is locked READ. Ok outside LOCK
    /// TABLES.
    pub(in crate::sim) fn check_locked_tables(
        &self,
        id: u32,
        name: &TableName,
        write: bool,
    ) -> Result<(), SqlError> {
        let s = &self.sql.sessions[&id];
        if s.locked_tables.is_empty() {
            return Ok(());
        }
        let found = self
            .resolve(name)
            .first()
            .copied()
            .and_then(|t| s.locked_tables.iter().find(|(lt, _)| *lt == t));
        match found {
            None => Err(SqlError::table_not_locked(&name.table)),
            Some((_, false)) if write => Err(SqlError::table_not_locked_for_write(&name.table)),
            _ => Ok(()),
        }
    }

    /// [`Sim::check_locked_tables`] for each of `names`: the first refusal.
    fn check_all_locked<'a>(
        &self,
        id: u32,
        names: impl IntoIterator<Item = &'a TableName>,
        write: bool,
    ) -> Result<(), SqlError> {
        names
            .into_iter()
            .try_for_each(|n| self.check_locked_tables(id, n, write))
    }

    /// A DDL, admin or FLUSH statement of session `id` checked against its LOCK
    /// TABLES (the table above); DML is checked where it opens its table.
    pub(in crate::sim) fn check_under_lock_tables(
        &self,
        id: u32,
        command: &Command,
    ) -> Result<(), SqlError> {
        let s = &self.sql.sessions[&id];
        if s.locked_tables.is_empty() {
            return Ok(());
        }
        match command {
            Command::RenameTable { renames } if self.profile.sql.rename_under_lock_tables => {
                self.check_all_locked(id, renames.iter().map(|(from, _)| from), true)
            }
            Command::RenameTable { .. } => Err(SqlError::lock_or_active_transaction()),
            Command::FlushTables {
                mode: FlushMode::WithReadLock,
                ..
            } => Err(SqlError::lock_or_active_transaction()),
            // FLUSH TABLES: every table the session holds must be locked WRITE.
            Command::FlushTables { tables, .. } if tables.is_empty() => {
                match s.locked_tables.iter().find(|(_, write)| !write) {
                    Some((ti, _)) => Err(SqlError::table_not_locked_for_write(
                        self.catalog[*ti].table.sql_name(),
                    )),
                    None => Ok(()),
                }
            }
            Command::AnalyzeTable { tables } => self.check_all_locked(id, tables, false),
            Command::CreateTable(ct) => self.check_locked_tables(id, &ct.table, true),
            Command::CreateTableLike { table, like } => {
                self.check_locked_tables(id, table, true)?;
                self.check_locked_tables(id, like, false)
            }
            Command::FlushTables { tables, .. }
            | Command::DropTable { tables, .. }
            | Command::OptimizeTable { tables } => self.check_all_locked(id, tables, true),
            Command::TruncateTable { table }
            | Command::CreateIndex { table, .. }
            | Command::DropIndex { table, .. }
            | Command::AlterTable { table, .. } => self.check_locked_tables(id, table, true),
            _ => Ok(()),
        }
    }

    /// Whether `command` ends LOCK TABLES mode before it runs (an implicit UNLOCK
    /// TABLES): LOCK TABLES itself, and starting a transaction ("Beginning a
    /// transaction ... releases existing table locks", MySQL manual 15.3.3; MariaDB
    /// 10.11.19 the same).
    pub(in crate::sim) fn unlocks_tables(command: &Command) -> bool {
        matches!(command, Command::LockTables { .. } | Command::Begin { .. })
    }

    /// After RENAME TABLE under LOCK TABLES succeeded (MySQL 8.0.13+): the session
    /// keeps its tables locked under their new names, as `mysql_rename_tables()` does
    /// (the statement's EXCLUSIVE on each new name downgraded to SHARED_NO_READ_WRITE
    /// and held until UNLOCK TABLES), and lets go of the old names.
    pub(in crate::sim) fn keep_renamed_tables_locked(
        &mut self,
        id: u32,
        renames: &[(TableName, TableName)],
    ) {
        let schema = self.schema();
        let ctx = MdlContextId(id);
        for (from, to) in renames {
            for (ticket, _) in self.tickets_on(ctx, &table_key(&schema, from)) {
                self.mdl_release(ticket);
            }
            for (ticket, ty) in self.tickets_on(ctx, &table_key(&schema, to)) {
                if ty == MdlType::Exclusive {
                    self.mdl_downgrade(ticket, MdlType::SharedNoReadWrite);
                    self.sql
                        .mdl
                        .set_lock_duration(ticket, MdlDuration::Explicit);
                }
            }
        }
    }

    /// After a DDL of session `id` succeeded: tables it dropped leave its LOCK TABLES,
    /// and their locks go (`release_all_locks_for_name()`); with none left, the mode
    /// ends (MariaDB 10.11.19: a SELECT of another table then passes).
    pub(in crate::sim) fn forget_dropped_locked_tables(&mut self, id: u32) {
        let Some(s) = self.sql.sessions.get(&id) else {
            return;
        };
        let schema = self.schema();
        let dropped: Vec<_> = s
            .locked_tables
            .iter()
            .filter(|(ti, _)| self.catalog[*ti].table.dropped)
            .map(|(ti, _)| (*ti, table_key(&schema, &self.sql_table_name(*ti))))
            .collect();
        if dropped.is_empty() {
            return;
        }
        let ctx = MdlContextId(id);
        for (_, key) in &dropped {
            for (ticket, _) in self.tickets_on(ctx, key) {
                self.mdl_release(ticket);
            }
        }
        let s = self.sql.sessions.get_mut(&id).expect("checked");
        s.locked_tables
            .retain(|(ti, _)| dropped.iter().all(|(d, _)| d != ti));
    }

    /// Context `ctx`'s tickets on `key`, with their types.
    fn tickets_on(&self, ctx: MdlContextId, key: &MdlKey) -> Vec<(MdlTicketId, MdlType)> {
        let mdl = &self.sql.mdl;
        mdl.tickets_of(ctx)
            .into_iter()
            .filter_map(|ticket| mdl.ticket(ticket).map(|t| (ticket, t)))
            .filter(|(_, t)| mdl.key(t.lock) == key)
            .map(|(ticket, t)| (ticket, t.mdl_type))
            .collect()
    }
}

/// Whether a SELECT only reads (under LOCK TABLES, READ is enough for it).
pub(in crate::sim) fn reads_only(command: &Command) -> bool {
    matches!(
        command,
        Command::Select {
            lock: RowLock::NonLocking | RowLock::Shared,
            ..
        }
    )
}

#[cfg(test)]
mod tests {
    use crate::script::SessionScript;

    /// Each statement's session, outcome and error code, under `profile`.
    fn fates(script: &str, profile: &str) -> Vec<(String, &'static str, Option<u16>)> {
        let r = SessionScript::parse(script)
            .unwrap()
            .run(Some(profile))
            .unwrap();
        r.statements
            .iter()
            .map(|s| (s.sql.clone(), s.outcome, s.error_code))
            .collect()
    }

    const RENAME: &str = "table t rows=100\n\
        at 0ms s1: LOCK TABLES t WRITE\n\
        at 100ms s1: RENAME TABLE t TO t2\n\
        at 200ms s1: SELECT * FROM t2 WHERE id = 1\n\
        at 300ms s2: SELECT * FROM t2 WHERE id = 1\n\
        at 400ms s1: DROP TABLE t2\n\
        at 500ms s1: SELECT * FROM t2 WHERE id = 1\n\
        run 1s\n";

    #[test]
    fn rename_under_lock_tables_follows_the_profile() {
        // MySQL 8.0.13+: the WRITE-locked table is renamed and stays locked under its
        // new name; s2 waits for it until the DROP, which ends the mode (its only
        // table gone).
        let f = fates(RENAME, "mysql-8.0.23");
        let outcome: Vec<(&str, Option<u16>)> = f.iter().map(|(_, o, e)| (*o, *e)).collect();
        assert_eq!(
            outcome,
            [
                ("ok", None),
                ("ok", None),
                ("ok", None),
                ("error", Some(1146)),
                ("ok", None),
                ("error", Some(1146)),
            ],
            "{f:?}"
        );
        // MariaDB: 1192, and the table keeps its name.
        let f = fates(RENAME, "mariadb-10.11");
        assert_eq!((f[1].1, f[1].2), ("error", Some(1192)), "{f:?}");
        assert_eq!((f[2].1, f[2].2), ("error", Some(1100)), "{f:?}");
    }

    #[test]
    fn begin_ends_lock_tables_and_commit_does_not() {
        let f = fates(
            "table t rows=100\ntable u rows=100\n\
             at 0ms s1: LOCK TABLES t READ\n\
             at 100ms s1: COMMIT\n\
             at 200ms s1: SELECT * FROM u WHERE id = 1\n\
             at 300ms s1: START TRANSACTION WITH CONSISTENT SNAPSHOT\n\
             at 400ms s1: SELECT * FROM u WHERE id = 1\n\
             run 1s\n",
            "mysql-8.0.23",
        );
        assert_eq!(f[2].2, Some(1100), "{f:?}");
        assert_eq!((f[4].1, f[4].2), ("ok", None), "{f:?}");
    }
}
