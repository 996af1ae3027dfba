//! The lock plan of a statement: the metadata locks `open_tables()` and
//! `lock_table_names()` take for it, in order, before it runs.
//!
//! A pure function of the command, the session's context (its default schema, LOCK
//! TABLES, FLUSH TABLES WITH READ LOCK, whether its transaction wrote) and the
//! profile's SQL layer, so it is tested as a table (below) and the statement machine
//! (`statement.rs`) only carries the plan out.
//!
//! ```text
//!   SELECT ... FROM t                 TABLE t SR (transaction)
//!   SELECT ... FOR UPDATE / DML       GLOBAL IX (statement), TABLE t SW (transaction)
//!   DDL                               GLOBAL IX, SCHEMA IX, then the tables sorted by
//!                                     key: X (DROP, TRUNCATE, RENAME, CREATE), SU
//!                                     (online ALTER, CREATE/DROP INDEX), the admin
//!                                     open's lock (OPTIMIZE)
//!   INSERT ... SELECT                 GLOBAL IX, TABLE target SW, TABLE source SR
//!   CREATE TRIGGER                    TRIGGER X (statement), GLOBAL IX, SCHEMA IX,
//!                                     TABLE t SNW (upgraded to X: triggers.rs)
//!   DROP TRIGGER                      TRIGGER X; the table's, once found
//!   LOCK TABLES                       [GLOBAL IX, SCHEMA IX if WRITE], SRO / SNRW
//!                                     sorted by key (explicit)
//!   FLUSH TABLES WITH READ LOCK       GLOBAL S, COMMIT S (explicit)
//!   COMMIT of a writer                COMMIT IX (explicit)
//! ```
//!
//! Simplification: the server takes the scoped locks and the table locks in two
//! passes of one `lock_table_names()`; the plan lists them in that order, one
//! request after another.

use crate::mdl::{MdlDuration, MdlKey, MdlRequest, MdlType};
use crate::profile::{AdminOpenLock, SqlLayer as SqlProfile};
use crate::sql::{
    AlterAction, Command, CreateTrigger, FlushMode, InsertSelect, RowLock, SqlError, TableLockMode,
    TableName,
};

/// What the lock plan needs to know of the session running the statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sim) struct LockContext<'a> {
    /// The default schema, for unqualified names.
    pub(in crate::sim) schema: &'a str,
    /// The session holds LOCK TABLES: its tables' locks are held already.
    pub(in crate::sim) under_lock_tables: bool,
    /// The session holds FLUSH TABLES WITH READ LOCK.
    pub(in crate::sim) global_read_lock: bool,
    /// The session's transaction wrote (its COMMIT takes the commit lock).
    pub(in crate::sim) trx_wrote: bool,
}

/// The metadata locks a statement takes, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::sim) struct LockPlan {
    /// The requests, in the order they are taken.
    pub(in crate::sim) requests: Vec<MdlRequest>,
    /// LOCK TABLES marks the context as DML for the deadlock victim's weight
    /// (`MDL_context::set_force_dml_deadlock_weight()`).
    pub(in crate::sim) force_dml_deadlock_weight: bool,
}

/// The metadata-lock name of table `name`, qualified by `schema` when it is not.
pub(in crate::sim) fn table_key(schema: &str, name: &TableName) -> MdlKey {
    let db = name
        .schema
        .as_deref()
        .unwrap_or(schema)
        .to_ascii_lowercase();
    MdlKey::table(&db, &name.table.to_ascii_lowercase())
}

/// The lock plan of `command` run by a session in `ctx`, or the error the server gives
/// before taking any lock (1223 under FLUSH TABLES WITH READ LOCK, 1235 for a FLUSH
/// form not modelled).
pub(in crate::sim) fn lock_plan(
    command: &Command,
    ctx: &LockContext,
    sql: &SqlProfile,
) -> Result<LockPlan, SqlError> {
    let key = |name: &TableName| table_key(ctx.schema, name);
    let global_ix = || {
        MdlRequest::new(
            MdlKey::global(),
            MdlType::IntentionExclusive,
            MdlDuration::Statement,
        )
    };
    let trx = MdlDuration::Transaction;
    let mut plan = LockPlan::default();
    let requests = &mut plan.requests;
    match command {
        // Under LOCK TABLES the locks are already held.
        Command::Select { .. } if ctx.under_lock_tables => {}
        Command::Select { table, lock, .. } => {
            let ty = if *lock == RowLock::Exclusive {
                requests.push(global_ix());
                MdlType::SharedWrite
            } else {
                MdlType::SharedRead
            };
            requests.push(MdlRequest::new(key(table), ty, trx));
        }
        Command::Insert { table, .. }
        | Command::Update { table, .. }
        | Command::Delete { table, .. } => {
            if ctx.global_read_lock {
                return Err(SqlError::cant_update_with_readlock());
            }
            if !ctx.under_lock_tables {
                requests.push(global_ix());
                requests.push(MdlRequest::new(key(table), MdlType::SharedWrite, trx));
            }
        }
        Command::LockTables { tables } => {
            lock_tables_plan(tables, ctx, requests);
            plan.force_dml_deadlock_weight = true;
        }
        Command::FlushTables { mode, tables } => match mode {
            FlushMode::WithReadLock if tables.is_empty() => {
                let explicit = MdlDuration::Explicit;
                requests.push(MdlRequest::new(MdlKey::global(), MdlType::Shared, explicit));
                requests.push(MdlRequest::new(MdlKey::commit(), MdlType::Shared, explicit));
            }
            // close_cached_tables(): MariaDB 10.x asks EXCLUSIVE on each named table
            // for the statement; MySQL waits for the table's instances in use only.
            FlushMode::Close if sql.flush_tables_exclusive_mdl => {
                for name in tables {
                    let statement = MdlDuration::Statement;
                    requests.push(MdlRequest::new(key(name), MdlType::Exclusive, statement));
                }
            }
            FlushMode::Close => {}
            _ => return Err(SqlError::not_modelled(command.name())),
        },
        Command::CreateTrigger(ct) => {
            if ctx.global_read_lock {
                return Err(SqlError::cant_update_with_readlock());
            }
            create_trigger_plan(ct, ctx, requests);
        }
        Command::DropTrigger { name, .. } => {
            if ctx.global_read_lock {
                return Err(SqlError::cant_update_with_readlock());
            }
            // The table's locks follow once its trigger is found (`triggers.rs`).
            requests.push(trigger_request(ctx.schema, name));
        }
        Command::InsertSelect(is) => {
            if ctx.global_read_lock {
                return Err(SqlError::cant_update_with_readlock());
            }
            if !ctx.under_lock_tables {
                insert_select_plan(is, ctx, requests);
            }
        }
        Command::AnalyzeTable { tables } => {
            for name in tables {
                requests.push(MdlRequest::new(key(name), MdlType::SharedRead, trx));
            }
        }
        c if c.is_ddl() => {
            if ctx.global_read_lock {
                return Err(SqlError::cant_update_with_readlock());
            }
            requests.push(global_ix());
            requests.push(schema_ix(ctx));
            let mut keys = ddl_table_locks(c, ctx, sql);
            keys.sort_by(|a, b| a.0.cmp(&b.0));
            keys.dedup_by(|a, b| a.0 == b.0);
            for (k, ty) in keys {
                requests.push(MdlRequest::new(k, ty, trx));
            }
        }
        Command::Commit if ctx.trx_wrote => {
            // ha_commit_trans(): a committing writer takes COMMIT IX, which is what
            // FLUSH TABLES WITH READ LOCK's COMMIT S blocks ("Waiting for commit lock").
            requests.push(MdlRequest::new(
                MdlKey::commit(),
                MdlType::IntentionExclusive,
                MdlDuration::Explicit,
            ));
        }
        _ => {}
    }
    Ok(plan)
}

/// The statement's INTENTION_EXCLUSIVE lock on the current schema, for the transaction.
fn schema_ix(ctx: &LockContext) -> MdlRequest {
    let schema_key = MdlKey::schema(&ctx.schema.to_ascii_lowercase());
    MdlRequest::new(
        schema_key,
        MdlType::IntentionExclusive,
        MdlDuration::Transaction,
    )
}

/// CREATE TRIGGER's locks, as mysql_create_or_drop_trigger() takes them: the
/// trigger's name first, then the global and schema intention locks, then the table
/// opened for TL_READ_NO_INSERT (SHARED_NO_WRITE, upgraded later).
fn create_trigger_plan(ct: &CreateTrigger, ctx: &LockContext, requests: &mut Vec<MdlRequest>) {
    let name = crate::sql::TriggerName {
        schema: ct.name.schema.clone().or_else(|| ct.table.schema.clone()),
        name: ct.name.name.clone(),
    };
    requests.push(trigger_request(ctx.schema, &name));
    requests.push(MdlRequest::new(
        MdlKey::global(),
        MdlType::IntentionExclusive,
        MdlDuration::Statement,
    ));
    requests.push(schema_ix(ctx));
    let table = table_key(ctx.schema, &ct.table);
    requests.push(MdlRequest::new(
        table,
        MdlType::SharedNoWrite,
        MdlDuration::Transaction,
    ));
}

/// INSERT … SELECT's locks outside LOCK TABLES: the global intention lock, then the
/// insert's table, then the SELECT's (the table list's order), once if they are one.
fn insert_select_plan(is: &InsertSelect, ctx: &LockContext, requests: &mut Vec<MdlRequest>) {
    let trx = MdlDuration::Transaction;
    let (target, source) = (
        table_key(ctx.schema, &is.table),
        table_key(ctx.schema, &is.source),
    );
    requests.push(MdlRequest::new(
        MdlKey::global(),
        MdlType::IntentionExclusive,
        MdlDuration::Statement,
    ));
    requests.push(MdlRequest::new(target.clone(), MdlType::SharedWrite, trx));
    let source_lock = if is.lock == RowLock::Exclusive {
        MdlType::SharedWrite
    } else {
        MdlType::SharedRead
    };
    if source != target {
        requests.push(MdlRequest::new(source, source_lock, trx));
    }
}

/// The EXCLUSIVE lock on a trigger's name, for the statement (MariaDB takes it
/// EXPLICIT and lets it go as the statement ends).
fn trigger_request(schema: &str, name: &crate::sql::TriggerName) -> MdlRequest {
    let db = name
        .schema
        .as_deref()
        .unwrap_or(schema)
        .to_ascii_lowercase();
    MdlRequest::new(
        MdlKey::trigger(&db, &name.name.to_ascii_lowercase()),
        MdlType::Exclusive,
        MdlDuration::Statement,
    )
}

/// LOCK TABLES: SRO for READ, SNRW for WRITE (with the scoped IX locks first when any
/// table is written), sorted by key so every session takes them in the same order.
fn lock_tables_plan(
    tables: &[(TableName, TableLockMode)],
    ctx: &LockContext,
    requests: &mut Vec<MdlRequest>,
) {
    let explicit = MdlDuration::Explicit;
    let mut keys: Vec<(MdlKey, MdlType)> = tables
        .iter()
        .map(|(name, mode)| {
            let ty = match mode {
                TableLockMode::Read => MdlType::SharedReadOnly,
                TableLockMode::Write => MdlType::SharedNoReadWrite,
            };
            (table_key(ctx.schema, name), ty)
        })
        .collect();
    if keys.iter().any(|(_, t)| *t == MdlType::SharedNoReadWrite) {
        let schema_key = MdlKey::schema(&ctx.schema.to_ascii_lowercase());
        requests.push(MdlRequest::new(
            MdlKey::global(),
            MdlType::IntentionExclusive,
            explicit,
        ));
        requests.push(MdlRequest::new(
            schema_key,
            MdlType::IntentionExclusive,
            explicit,
        ));
    }
    // lock_table_names() sorts the requests by key.
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    for (k, ty) in keys {
        requests.push(MdlRequest::new(k, ty, explicit));
    }
}

/// The table locks a DDL statement opens its tables with, unsorted.
fn ddl_table_locks(c: &Command, ctx: &LockContext, sql: &SqlProfile) -> Vec<(MdlKey, MdlType)> {
    let key = |name: &TableName| table_key(ctx.schema, name);
    match c {
        Command::DropTable { tables, .. } => tables
            .iter()
            .map(|n| (key(n), MdlType::Exclusive))
            .collect(),
        Command::RenameTable { renames } => renames
            .iter()
            .flat_map(|(a, b)| [(key(a), MdlType::Exclusive), (key(b), MdlType::Exclusive)])
            .collect(),
        Command::TruncateTable { table } => vec![(key(table), MdlType::Exclusive)],
        Command::CreateTable(ct) => vec![(key(&ct.table), MdlType::Exclusive)],
        Command::CreateTableLike { table, like } => vec![
            (key(table), MdlType::Exclusive),
            (
                key(like),
                if sql.create_like_source_shared_read {
                    MdlType::SharedRead
                } else {
                    MdlType::SharedReadOnly
                },
            ),
        ],
        Command::AlterTable { table, actions, .. }
            if actions.iter().any(|a| {
                matches!(
                    a,
                    AlterAction::TruncatePartition { .. }
                        | AlterAction::DiscardTablespace
                        | AlterAction::ImportTablespace
                )
            }) =>
        {
            // sql_partition_admin.cc, mysql_discard_or_import_tablespace(): EXCLUSIVE
            // up front.
            vec![(key(table), MdlType::Exclusive)]
        }
        Command::CreateIndex { table, .. }
        | Command::DropIndex { table, .. }
        | Command::AlterTable { table, .. } => vec![(key(table), MdlType::SharedUpgradable)],
        Command::OptimizeTable { tables } => {
            // mysql_admin_table() opens the table for TL_WRITE first.
            let ty = match sql.optimize_open_lock {
                AdminOpenLock::SharedNoReadWrite => MdlType::SharedNoReadWrite,
                AdminOpenLock::SharedNoWrite => MdlType::SharedNoWrite,
            };
            tables.iter().map(|n| (key(n), ty)).collect()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;

    /// One row: the statement, the session's context, and the plan as
    /// `KEY TYPE DURATION` lines (`-` for none, `ERROR n` for a refusal).
    fn check(sql: &str, ctx: LockContext, profile: &str, expected: &[&str]) {
        let command = crate::sql::parse(sql).expect("parses").remove(0).command;
        let profile = Profile::builtin(profile).expect("profile");
        let got: Vec<String> = match lock_plan(&command, &ctx, &profile.sql) {
            Ok(p) => p
                .requests
                .iter()
                .map(|r| format!("{} {} {}", r.key, r.mdl_type, r.duration))
                .collect(),
            Err(e) => vec![format!("ERROR {}", e.code)],
        };
        assert_eq!(got, expected, "{sql}");
    }

    const PLAIN: LockContext = LockContext {
        schema: "test",
        under_lock_tables: false,
        global_read_lock: false,
        trx_wrote: false,
    };

    #[test]
    fn statements_lock_as_open_tables_does() {
        let ix = "GLOBAL MDL_INTENTION_EXCLUSIVE MDL_STATEMENT";
        let six = "SCHEMA test MDL_INTENTION_EXCLUSIVE MDL_TRANSACTION";
        let rows: &[(&str, LockContext, &str, &[&str])] = &[
            (
                "SELECT * FROM t1 WHERE id = 1",
                PLAIN,
                "mysql-5.7",
                &["TABLE test.t1 MDL_SHARED_READ MDL_TRANSACTION"],
            ),
            (
                "SELECT * FROM t1 WHERE id = 1 FOR UPDATE",
                PLAIN,
                "mysql-5.7",
                &[ix, "TABLE test.t1 MDL_SHARED_WRITE MDL_TRANSACTION"],
            ),
            (
                "UPDATE other.t1 SET k = 1 WHERE id = 2",
                PLAIN,
                "mysql-5.7",
                &[ix, "TABLE other.t1 MDL_SHARED_WRITE MDL_TRANSACTION"],
            ),
            (
                "DROP TABLE t2, t1",
                PLAIN,
                "mysql-5.7",
                &[
                    ix,
                    six,
                    "TABLE test.t1 MDL_EXCLUSIVE MDL_TRANSACTION",
                    "TABLE test.t2 MDL_EXCLUSIVE MDL_TRANSACTION",
                ],
            ),
            (
                "CREATE INDEX k2 ON t1 (c)",
                PLAIN,
                "mysql-5.7",
                &[
                    ix,
                    six,
                    "TABLE test.t1 MDL_SHARED_UPGRADABLE MDL_TRANSACTION",
                ],
            ),
            (
                "ALTER TABLE t1 DISCARD TABLESPACE",
                PLAIN,
                "mysql-5.7",
                &[ix, six, "TABLE test.t1 MDL_EXCLUSIVE MDL_TRANSACTION"],
            ),
            (
                "CREATE TABLE t3 LIKE t1",
                PLAIN,
                "mysql-5.7",
                &[
                    ix,
                    six,
                    "TABLE test.t1 MDL_SHARED_READ_ONLY MDL_TRANSACTION",
                    "TABLE test.t3 MDL_EXCLUSIVE MDL_TRANSACTION",
                ],
            ),
            (
                "OPTIMIZE TABLE t1",
                PLAIN,
                "mysql-5.7",
                &[
                    ix,
                    six,
                    "TABLE test.t1 MDL_SHARED_NO_READ_WRITE MDL_TRANSACTION",
                ],
            ),
            (
                "OPTIMIZE TABLE t1",
                PLAIN,
                "mariadb-10.11",
                &[ix, six, "TABLE test.t1 MDL_SHARED_NO_WRITE MDL_TRANSACTION"],
            ),
            (
                "LOCK TABLES t2 READ, t1 WRITE",
                PLAIN,
                "mysql-5.7",
                &[
                    "GLOBAL MDL_INTENTION_EXCLUSIVE MDL_EXPLICIT",
                    "SCHEMA test MDL_INTENTION_EXCLUSIVE MDL_EXPLICIT",
                    "TABLE test.t1 MDL_SHARED_NO_READ_WRITE MDL_EXPLICIT",
                    "TABLE test.t2 MDL_SHARED_READ_ONLY MDL_EXPLICIT",
                ],
            ),
            (
                "FLUSH TABLES WITH READ LOCK",
                PLAIN,
                "mysql-5.7",
                &[
                    "GLOBAL MDL_SHARED MDL_EXPLICIT",
                    "COMMIT MDL_SHARED MDL_EXPLICIT",
                ],
            ),
            (
                "ANALYZE TABLE t1",
                PLAIN,
                "mysql-5.7",
                &["TABLE test.t1 MDL_SHARED_READ MDL_TRANSACTION"],
            ),
            ("COMMIT", PLAIN, "mysql-5.7", &[]),
            (
                "COMMIT",
                LockContext {
                    trx_wrote: true,
                    ..PLAIN
                },
                "mysql-5.7",
                &["COMMIT MDL_INTENTION_EXCLUSIVE MDL_EXPLICIT"],
            ),
            (
                "SELECT * FROM t1",
                LockContext {
                    under_lock_tables: true,
                    ..PLAIN
                },
                "mysql-5.7",
                &[],
            ),
            (
                "DELETE FROM t1 WHERE id = 1",
                LockContext {
                    global_read_lock: true,
                    ..PLAIN
                },
                "mysql-5.7",
                &["ERROR 1223"],
            ),
            (
                "TRUNCATE TABLE t1",
                LockContext {
                    global_read_lock: true,
                    ..PLAIN
                },
                "mysql-5.7",
                &["ERROR 1223"],
            ),
            ("SET autocommit = 0", PLAIN, "mysql-5.7", &[]),
            (
                "INSERT IGNORE INTO t1 SELECT * FROM t2 WHERE id < 5 LOCK IN SHARE MODE",
                PLAIN,
                "mariadb-10.11",
                &[
                    ix,
                    "TABLE test.t1 MDL_SHARED_WRITE MDL_TRANSACTION",
                    "TABLE test.t2 MDL_SHARED_READ MDL_TRANSACTION",
                ],
            ),
            (
                "REPLACE INTO t1 SELECT * FROM t1",
                PLAIN,
                "mariadb-10.11",
                &[ix, "TABLE test.t1 MDL_SHARED_WRITE MDL_TRANSACTION"],
            ),
            (
                "CREATE TRIGGER tr AFTER INSERT ON t1 FOR EACH ROW DELETE FROM t2 WHERE id = NEW.id",
                PLAIN,
                "mariadb-10.11",
                &[
                    "TRIGGER test.tr MDL_EXCLUSIVE MDL_STATEMENT",
                    ix,
                    six,
                    "TABLE test.t1 MDL_SHARED_NO_WRITE MDL_TRANSACTION",
                ],
            ),
            (
                "DROP TRIGGER IF EXISTS tr",
                PLAIN,
                "mariadb-10.11",
                &["TRIGGER test.tr MDL_EXCLUSIVE MDL_STATEMENT"],
            ),
            (
                "RENAME TABLE t1 TO t_old, t2 TO t1",
                PLAIN,
                "mariadb-10.11",
                &[
                    ix,
                    six,
                    "TABLE test.t1 MDL_EXCLUSIVE MDL_TRANSACTION",
                    "TABLE test.t2 MDL_EXCLUSIVE MDL_TRANSACTION",
                    "TABLE test.t_old MDL_EXCLUSIVE MDL_TRANSACTION",
                ],
            ),
            (
                "CREATE TRIGGER tr AFTER INSERT ON t1 FOR EACH ROW DELETE FROM t2 WHERE id = NEW.id",
                LockContext {
                    global_read_lock: true,
                    ..PLAIN
                },
                "mariadb-10.11",
                &["ERROR 1223"],
            ),
        ];
        for (sql, ctx, profile, expected) in rows {
            check(sql, *ctx, profile, expected);
        }
    }

    #[test]
    fn lock_tables_marks_the_context_as_dml_for_deadlocks() {
        let command = crate::sql::parse("LOCK TABLES t1 READ")
            .unwrap()
            .remove(0)
            .command;
        let profile = Profile::builtin("mysql-5.7").unwrap();
        let plan = lock_plan(&command, &PLAIN, &profile.sql).unwrap();
        assert!(plan.force_dml_deadlock_weight);
        let command = crate::sql::parse("SELECT 1").unwrap().remove(0).command;
        assert!(
            !lock_plan(&command, &PLAIN, &profile.sql)
                .unwrap()
                .force_dml_deadlock_weight
        );
    }
}
