//! DDL planning: a DDL statement, checked the way the server checks it (names, the
//! algorithm the profile can do it with, MySQL's errors), becomes a plan of SQL-layer
//! phases ([`DdlOp`]: metadata-lock upgrades and downgrades, storage-engine work on a
//! thread of its own, the dictionary change) before anything runs. Planning changes
//! nothing; `ddl_phases.rs` runs the plan.
//!
//! ```text
//!   ALTER TABLE t ADD INDEX k (c), ALGORITHM=INPLACE
//!     → [Upgrade(X) prepare, Downgrade(SU), Executor(AddIndex), Upgrade(X), Dict(AddIndex)]
//! ```

use super::{Running, SecondaryIndex, TableDef};
use crate::mdl::MdlType;
use crate::sim::alter::MetaChange;
use crate::sim::catalog::TableId;
use crate::sim::ddl;
use crate::sim::Sim;
use crate::sql;
use crate::sql::codes;
use crate::sql::{Algorithm, AlterAction, Command, SqlError, TableName};
use crate::time::Tick;

/// The table ticket's index in a DDL statement's tickets: after GLOBAL IX and SCHEMA
/// IX (`lock_plan.rs`).
const TABLE_TICKET: usize = 2;

/// An accepted DDL statement's storage-engine work, checked and ready to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) enum Plan {
    Truncate(TableId),
    /// ALTER TABLE ... TRUNCATE PARTITION (and TRUNCATE TABLE of a partitioned table):
    /// the TRUNCATE path on each partition's table.
    TruncatePartitions(Vec<ddl::DropTarget>),
    /// ALTER TABLE ... DROP PARTITION: the DROP path on each partition's table.
    DropPartitions(Vec<ddl::DropTarget>),
    Discard(TableId),
    AddIndex {
        table: TableId,
        name: String,
        entry_bytes: u64,
    },
    Meta(MetaChange),
    Rebuild {
        table: TableId,
        add: Vec<(String, u64)>,
        drop: Vec<String>,
    },
}

/// One SQL-layer phase of a DDL statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) enum DdlOp {
    /// Upgrade the statement's lock on table `lock` (index into `Running::tickets`).
    Upgrade(usize, MdlType),
    /// Release it and ask again for another type (OPTIMIZE: the admin open's lock goes
    /// with `release_transactional_locks()`, then the recreate asks for SU).
    Reacquire(usize, MdlType),
    /// Downgrade it.
    Downgrade(usize, MdlType),
    /// The storage engine works for this long, in this processlist state.
    Work(&'static str, Tick),
    /// DROP TABLE's storage-engine path (sim/ddl), on a thread of its own.
    DropStorage(Vec<TableId>),
    /// A storage-engine executor (sim/alter.rs) on a thread of its own, given the
    /// session's context and its ticket on the table (index into `Running::tickets`)
    /// to upgrade and downgrade between its phases.
    Executor(Plan, usize),
    /// The dictionary changes.
    Dict(DictEffect),
    /// A trigger is created or dropped, checked under the table's EXCLUSIVE lock
    /// (`triggers.rs`).
    Trigger(TriggerChange),
}

/// CREATE or DROP TRIGGER's change to its table's triggers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) enum TriggerChange {
    Create {
        table: TableId,
        def: crate::sim::catalog::table_def::TriggerDef,
        if_not_exists: bool,
        or_replace: bool,
    },
    Drop {
        table: TableId,
        name: String,
    },
}

/// What a DDL statement changes in the dictionary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) enum DictEffect {
    Create {
        name: String,
        def: TableDef,
        rows: u64,
        row_bytes: u64,
    },
    Truncate(TableId),
    AddIndex(TableId, String, String),
    DropIndex(TableId, String),
    AddColumn(TableId, String),
    DropColumn(TableId, String),
    Rebuild(TableId),
    DropPartitions(TableId, Vec<String>),
    Discard(TableId),
    Import(TableId),
    None,
}

/// Bytes of a column of this type in a row (for a created table's row length).
pub(in crate::sim) fn column_bytes(t: &str) -> u64 {
    let t = t.to_ascii_uppercase();
    let n = t
        .split(['(', ')'])
        .nth(1)
        .and_then(|n| n.split(',').next())
        .and_then(|n| n.trim().parse::<u64>().ok());
    if t.starts_with("BIGINT") || t.starts_with("DATETIME") || t.starts_with("DOUBLE") {
        8
    } else if t.starts_with("CHAR") || t.starts_with("VARCHAR") || t.starts_with("BINARY") {
        n.unwrap_or(1)
    } else if t.starts_with("TEXT") || t.starts_with("BLOB") {
        20
    } else {
        4
    }
}

/// The online ALTER's metadata-lock choreography (`mysql_inplace_alter_table()`): X
/// to prepare (`dict` long), SU while the storage engine works (`work` long), X again
/// to commit; the dictionary change comes after.
fn online_phases(lock: usize, dict: Tick, work: Tick) -> Vec<DdlOp> {
    vec![
        DdlOp::Upgrade(lock, MdlType::Exclusive),
        DdlOp::Work("preparing for alter table", dict),
        DdlOp::Downgrade(lock, MdlType::SharedUpgradable),
        DdlOp::Work("altering table", work),
        DdlOp::Upgrade(lock, MdlType::Exclusive),
        DdlOp::Work("committing alter table to storage engine", dict),
    ]
}

impl Sim {
    /// The SQL layer's phases of a DDL statement, checked against the dictionary now
    /// that its metadata locks are held.
    pub(in crate::sim) fn ddl_plan(
        &mut self,
        c: &Command,
        run: &Running,
    ) -> Result<Vec<DdlOp>, SqlError> {
        let _ = run;
        Ok(match c {
            Command::DropTable { tables, if_exists } => self.drop_table_plan(tables, *if_exists)?,
            Command::TruncateTable { table } => self.truncate_plan(table)?,
            Command::RenameTable { renames } => {
                // Checked as the server does (1146, 1050), every pair at once; the
                // session holds X on every name, old and new.
                let plan = self.plan_rename(renames, &mut Vec::new())?;
                vec![DdlOp::Executor(plan, TABLE_TICKET)]
            }
            Command::CreateTable(ct) => self.create_table_plan(ct)?,
            Command::CreateTableLike { table, like } => {
                let src = self.table_named(like)?;
                if self.resolve(table).first().copied().is_some() {
                    return Err(SqlError::table_exists(&table.table));
                }
                let change = crate::sim::alter::MetaChange::CreateLike {
                    like: src,
                    name: table.table.clone(),
                };
                vec![DdlOp::Executor(Plan::Meta(change), TABLE_TICKET)]
            }
            Command::CreateIndex {
                table,
                index,
                algorithm,
                ..
            } => self.add_index_plan(table, index, *algorithm, TABLE_TICKET)?,
            Command::DropIndex {
                table,
                name,
                algorithm,
                ..
            } => {
                let ti = self.table_named(table)?;
                if self.catalog[ti].def.index(name).is_none() {
                    return Err(SqlError::cant_drop(name));
                }
                let effect = DictEffect::DropIndex(ti, name.clone());
                self.online_alter(ti, TABLE_TICKET, *algorithm, false, effect)?
            }
            Command::OptimizeTable { tables } => self.optimize_plan(tables)?,
            Command::AlterTable {
                table,
                actions,
                algorithm,
                ..
            } => {
                let ti = self.table_named(table)?;
                self.alter_plan(ti, TABLE_TICKET, actions, *algorithm)?
            }
            other => return Err(SqlError::not_modelled(other.name())),
        })
    }

    /// The live table `n` names first (a partitioned table's first partition), or 1146.
    fn table_named(&self, n: &TableName) -> Result<TableId, SqlError> {
        self.resolve(n).first().copied().ok_or_else(|| {
            SqlError::no_such_table(
                n.schema.as_deref().unwrap_or(&self.scenario.schema),
                &n.table,
            )
        })
    }

    /// DROP TABLE [IF EXISTS]: every named table (every partition of a partitioned
    /// one) down the storage engine's DROP path; an unknown name fails the whole
    /// statement (1051, naming them all) unless IF EXISTS.
    fn drop_table_plan(
        &self,
        tables: &[TableName],
        if_exists: bool,
    ) -> Result<Vec<DdlOp>, SqlError> {
        let schema = self.schema();
        let mut found = Vec::new();
        let mut missing = Vec::new();
        for n in tables {
            let named = self.resolve(n);
            if named.is_empty() {
                missing.push(format!(
                    "{}.{}",
                    n.schema.as_deref().unwrap_or(&schema),
                    n.table
                ));
            }
            for i in named {
                if !found.contains(&i) {
                    found.push(i);
                }
            }
        }
        if !missing.is_empty() && !if_exists {
            // The server drops nothing and names every unknown table.
            return Err(SqlError::unknown_tables(&missing));
        }
        Ok(vec![DdlOp::DropStorage(found)])
    }

    /// TRUNCATE TABLE: the storage engine's TRUNCATE (sim/ddl: 5.7 in place under
    /// fil_sys, 8.0 DROP + CREATE of the tablespace), on every partition of a
    /// partitioned table; the session holds X.
    fn truncate_plan(&self, table: &TableName) -> Result<Vec<DdlOp>, SqlError> {
        let ti = self.table_named(table)?;
        if self.catalog[ti].table.partition.is_none() {
            return Ok(vec![
                DdlOp::Executor(Plan::Truncate(ti), TABLE_TICKET),
                DdlOp::Dict(DictEffect::Truncate(ti)),
            ]);
        }
        let parts = self.resolve(table);
        let targets = parts
            .iter()
            .map(|&table| crate::sim::ddl::DropTarget { table })
            .collect();
        let mut ops = vec![DdlOp::Executor(
            Plan::TruncatePartitions(targets),
            TABLE_TICKET,
        )];
        ops.extend(
            parts
                .into_iter()
                .map(|p| DdlOp::Dict(DictEffect::Truncate(p))),
        );
        Ok(ops)
    }

    /// CREATE TABLE [IF NOT EXISTS]: a dictionary change (1050 if the name is taken).
    fn create_table_plan(&self, ct: &crate::sql::CreateTable) -> Result<Vec<DdlOp>, SqlError> {
        if self.resolve(&ct.table).first().copied().is_some() {
            if ct.if_not_exists {
                return Ok(vec![DdlOp::Dict(DictEffect::None)]);
            }
            return Err(SqlError::table_exists(&ct.table.table));
        }
        let def = TableDef {
            columns: ct.columns.iter().map(|c| c.name.clone()).collect(),
            pk: ct.primary_key.first().map(|k| k.column.clone()),
            indexes: ct
                .indexes
                .iter()
                .map(|ix| {
                    let first = ix.columns[0].column.clone();
                    let name = ix.name.clone().unwrap_or_else(|| first.clone());
                    SecondaryIndex::new(name, first, self.sched.now)
                })
                .collect(),
            partitions: ct
                .partition_by
                .as_ref()
                .map(|p| p.partitions.iter().map(|d| d.name.clone()).collect())
                .unwrap_or_default(),
            live_rows: 0,
            rebuilt_at: self.sched.now,
            discarded: false,
            auto_increment: ct
                .columns
                .iter()
                .find(|c| c.auto_increment)
                .map(|c| c.name.clone()),
            triggers: Vec::new(),
        };
        let row_bytes = ct
            .columns
            .iter()
            .map(|c| column_bytes(&c.data_type))
            .sum::<u64>()
            .clamp(16, 65_535);
        Ok(vec![
            DdlOp::Work("creating table", Tick(self.profile.costs.drop_dict_ns)),
            DdlOp::Dict(DictEffect::Create {
                name: ct.table.table.clone(),
                def,
                rows: 0,
                row_bytes,
            }),
        ])
    }

    /// OPTIMIZE TABLE on InnoDB: "Table does not support optimize, doing recreate +
    /// analyze instead" (HA_ADMIN_TRY_ALTER): the admin open's locks go, and the
    /// recreate is an online ALTER TABLE ... FORCE (sql_admin.cc).
    fn optimize_plan(&self, tables: &[TableName]) -> Result<Vec<DdlOp>, SqlError> {
        let ti = self.table_named(&tables[0])?;
        if tables.len() > 1 {
            return Err(SqlError::not_modelled("OPTIMIZE TABLE of several tables"));
        }
        Ok(vec![
            DdlOp::Reacquire(TABLE_TICKET, MdlType::SharedUpgradable),
            DdlOp::Executor(
                Plan::Rebuild {
                    table: ti,
                    add: Vec::new(),
                    drop: Vec::new(),
                },
                TABLE_TICKET,
            ),
            DdlOp::Dict(DictEffect::Rebuild(ti)),
        ])
    }

    /// CREATE INDEX / ADD INDEX: checked by the storage engine's planner
    /// (`plan_add_index()`: 1146, 1061, 1072, 1845) and run by its online build
    /// (sim/alter.rs), which takes the session's lock through SU → X → SU → X; with
    /// ALGORITHM=COPY, the SQL layer's copy.
    pub(in crate::sim) fn add_index_plan(
        &self,
        table: &TableName,
        index: &crate::sql::IndexDef,
        algorithm: Algorithm,
        lock: usize,
    ) -> Result<Vec<DdlOp>, SqlError> {
        let ti = self
            .resolve(table)
            .first()
            .copied()
            .ok_or_else(|| SqlError::no_such_table(&self.schema(), &table.table))?;
        if algorithm == Algorithm::Copy {
            let name = index
                .name
                .clone()
                .unwrap_or_else(|| index.columns[0].column.clone());
            self.check_new_index(ti, &name, &index.columns[0].column)?;
            let first = index.columns[0].column.clone();
            return self.online_alter(
                ti,
                lock,
                algorithm,
                false,
                DictEffect::AddIndex(ti, name, first),
            );
        }
        let plan = self.plan_add_index(table, index, algorithm)?;
        let Plan::AddIndex { name, .. } = &plan else {
            unreachable!("plan_add_index plans an index build");
        };
        let effect = DictEffect::AddIndex(ti, name.clone(), index.columns[0].column.clone());
        Ok(vec![DdlOp::Executor(plan, lock), DdlOp::Dict(effect)])
    }

    /// ADD/DROP COLUMN done instantly if the profile can (`plan_column_change()`), by
    /// its executor; `None` if it needs a rebuild (the SQL layer's online path).
    pub(in crate::sim) fn instant_plan(
        &self,
        ti: TableId,
        actions: &[AlterAction],
        algorithm: Algorithm,
        lock: usize,
    ) -> Result<Option<Vec<DdlOp>>, SqlError> {
        let name = TableName {
            schema: None,
            table: self.catalog[ti].table.sql_name().to_owned(),
        };
        match self.plan_column_change(&name, actions, algorithm) {
            // COPY works under SHARED_NO_WRITE: the SQL layer's path.
            Ok(Plan::Rebuild { .. }) if algorithm == Algorithm::Copy => Ok(None),
            Ok(plan) => {
                let rebuild = matches!(plan, Plan::Rebuild { .. });
                let mut ops = vec![DdlOp::Executor(plan, lock)];
                if rebuild {
                    ops.push(DdlOp::Dict(DictEffect::Rebuild(ti)));
                }
                for a in actions {
                    match a {
                        AlterAction::AddColumn { column, .. } => {
                            ops.push(DdlOp::Dict(DictEffect::AddColumn(ti, column.name.clone())))
                        }
                        AlterAction::DropColumn { name } => {
                            ops.push(DdlOp::Dict(DictEffect::DropColumn(ti, name.clone())))
                        }
                        _ => {}
                    }
                }
                Ok(Some(ops))
            }
            // 1235: a rebuild, which the SQL layer's online path runs.
            Err(e) if e.code == codes::ER_NOT_SUPPORTED_YET => Ok(None),
            Err(e) => Err(e),
        }
    }

    pub(in crate::sim) fn check_new_index(
        &self,
        ti: TableId,
        name: &str,
        column: &str,
    ) -> Result<(), SqlError> {
        let def = &self.catalog[ti].def;
        if def.index(name).is_some() || name.eq_ignore_ascii_case("PRIMARY") {
            return Err(SqlError::duplicate_key(name));
        }
        if !def.columns.iter().any(|c| c.eq_ignore_ascii_case(column)) {
            return Err(SqlError::key_column_missing(column));
        }
        Ok(())
    }

    /// How long the storage engine's bulk work on table `ti` takes.
    /// Simplification: until the DDL executors of sim/ddl are wired in here, a
    /// rebuild or index build costs `index_build_ns_per_row` per row (I4's idle build)
    /// plus the dictionary work (`drop_dict_ns`); its pages do not go through the pool.
    pub(in crate::sim) fn build_cost(&self, ti: TableId) -> Tick {
        let c = &self.profile.costs;
        Tick(c.index_build_ns_per_row).times(self.catalog[ti].def.live_rows) + Tick(c.drop_dict_ns)
    }

    /// An in-place ALTER's choreography (`mysql_inplace_alter_table()`): SU held; X to
    /// prepare, back to SU while building, X again to commit; the instant path takes X
    /// for its commit only; COPY works under SNW and renames under X.
    pub(in crate::sim) fn online_alter(
        &self,
        ti: TableId,
        lock: usize,
        algorithm: Algorithm,
        rebuild: bool,
        effect: DictEffect,
    ) -> Result<Vec<DdlOp>, SqlError> {
        let dict = Tick(self.profile.costs.drop_dict_ns);
        let build = if rebuild || matches!(effect, DictEffect::AddIndex(..)) {
            self.build_cost(ti)
        } else {
            dict
        };
        Ok(match algorithm {
            Algorithm::Copy => vec![
                // copy_data_between_tables() under SNW: reads go on, writes wait.
                DdlOp::Upgrade(lock, MdlType::SharedNoWrite),
                DdlOp::Work("copy to tmp table", self.build_cost(ti)),
                DdlOp::Upgrade(lock, MdlType::Exclusive),
                DdlOp::Work("rename result table", dict),
                DdlOp::Dict(match effect {
                    DictEffect::AddIndex(..)
                    | DictEffect::DropIndex(..)
                    | DictEffect::AddColumn(..)
                    | DictEffect::DropColumn(..) => effect,
                    _ => DictEffect::Rebuild(ti),
                }),
                DdlOp::Dict(DictEffect::Rebuild(ti)),
            ],
            Algorithm::Instant => vec![
                DdlOp::Upgrade(lock, MdlType::Exclusive),
                DdlOp::Work("committing alter table to storage engine", dict),
                DdlOp::Dict(effect),
            ],
            Algorithm::Default | Algorithm::Inplace => {
                let mut ops = online_phases(lock, dict, build);
                if rebuild {
                    ops.push(DdlOp::Dict(DictEffect::Rebuild(ti)));
                }
                ops.push(DdlOp::Dict(effect));
                ops
            }
        })
    }

    pub(in crate::sim) fn alter_plan(
        &self,
        ti: TableId,
        lock: usize,
        actions: &[AlterAction],
        algorithm: Algorithm,
    ) -> Result<Vec<DdlOp>, SqlError> {
        let dict = Tick(self.profile.costs.drop_dict_ns);
        let def = &self.catalog[ti].def;
        let [action] = actions else {
            return Err(SqlError::not_modelled("ALTER TABLE with several actions"));
        };
        let has_column = |name: &str| def.columns.iter().any(|c| c.eq_ignore_ascii_case(name));
        Ok(match action {
            AlterAction::AddIndex(ix) => {
                let name = TableName {
                    schema: None,
                    table: self.catalog[ti].table.sql_name().to_owned(),
                };
                self.add_index_plan(&name, ix, algorithm, lock)?
            }
            AlterAction::DropIndex { name } => {
                if def.index(name).is_none() {
                    return Err(SqlError::cant_drop(name));
                }
                let effect = DictEffect::DropIndex(ti, name.clone());
                self.online_alter(ti, lock, algorithm, false, effect)?
            }
            AlterAction::AddColumn { column, .. } => {
                if has_column(&column.name) {
                    return Err(SqlError::duplicate_column(&column.name));
                }
                let effect = DictEffect::AddColumn(ti, column.name.clone());
                self.column_change_plan(ti, lock, actions, algorithm, effect)?
            }
            AlterAction::DropColumn { name } => {
                if !has_column(name) {
                    return Err(SqlError::cant_drop(name));
                }
                let effect = DictEffect::DropColumn(ti, name.clone());
                self.column_change_plan(ti, lock, actions, algorithm, effect)?
            }
            AlterAction::Engine { .. }
            | AlterAction::Force
            | AlterAction::RowFormat(_)
            | AlterAction::KeyBlockSize(_) => self.rebuild_plan(ti, lock, action, algorithm)?,
            AlterAction::DropPartition { names } => {
                self.drop_partition_plan(ti, lock, actions, names)?
            }
            AlterAction::TruncatePartition { names } => {
                self.truncate_partition_plan(ti, lock, actions, names)?
            }
            // mysql_discard_or_import_tablespace() under X; the storage engine's
            // fil_delete_tablespace() (sim/ddl).
            AlterAction::DiscardTablespace => vec![
                DdlOp::Executor(Plan::Discard(ti), lock),
                DdlOp::Dict(DictEffect::Discard(ti)),
            ],
            AlterAction::ImportTablespace => vec![
                DdlOp::Work("discard_or_import_tablespace", dict),
                DdlOp::Dict(DictEffect::Import(ti)),
            ],
        })
    }

    /// ADD or DROP COLUMN: INSTANT where the profile can (`instant_plan`); otherwise
    /// 8.0.29+'s INSTANT by default, and INPLACE or COPY rebuild.
    fn column_change_plan(
        &self,
        ti: TableId,
        lock: usize,
        actions: &[AlterAction],
        algorithm: Algorithm,
        effect: DictEffect,
    ) -> Result<Vec<DdlOp>, SqlError> {
        if algorithm == Algorithm::Inplace && self.profile.sql.inplace_tries_instant {
            if let Ok(Some(ops)) = self.instant_plan(ti, actions, Algorithm::Instant, lock) {
                return Ok(ops);
            }
        }
        if let Some(ops) = self.instant_plan(ti, actions, algorithm, lock)? {
            return Ok(ops);
        }
        let rebuild = algorithm != Algorithm::Default && algorithm != Algorithm::Instant;
        let algorithm = if algorithm == Algorithm::Default {
            Algorithm::Instant
        } else {
            algorithm
        };
        self.online_alter(ti, lock, algorithm, rebuild, effect)
    }

    /// ENGINE=InnoDB, FORCE, ROW_FORMAT=, KEY_BLOCK_SIZE=: a table rebuild, COPY or
    /// the storage engine's own (sim/alter.rs: a new tablespace built like an index,
    /// names swapped, the old table dropped).
    fn rebuild_plan(
        &self,
        ti: TableId,
        lock: usize,
        action: &AlterAction,
        algorithm: Algorithm,
    ) -> Result<Vec<DdlOp>, SqlError> {
        if algorithm == Algorithm::Instant {
            return Err(SqlError::algorithm_not_supported(
                "ALGORITHM=INSTANT",
                "ALGORITHM=COPY/INPLACE",
            ));
        }
        if let AlterAction::Engine { name } = action {
            if !name.eq_ignore_ascii_case("innodb") {
                return Err(SqlError::not_modelled(&format!(
                    "ALTER TABLE ... ENGINE={name} (only InnoDB is simulated)"
                )));
            }
        }
        if algorithm == Algorithm::Copy {
            return self.online_alter(ti, lock, algorithm, true, DictEffect::Rebuild(ti));
        }
        let rebuild = Plan::Rebuild {
            table: ti,
            add: Vec::new(),
            drop: Vec::new(),
        };
        Ok(vec![
            DdlOp::Executor(rebuild, lock),
            DdlOp::Dict(DictEffect::Rebuild(ti)),
        ])
    }

    /// ALTER TABLE ... DROP PARTITION.
    fn drop_partition_plan(
        &self,
        ti: TableId,
        lock: usize,
        actions: &[AlterAction],
        names: &[String],
    ) -> Result<Vec<DdlOp>, SqlError> {
        let dict = Tick(self.profile.costs.drop_dict_ns);
        self.check_partitions(ti, names, "DROP")?;
        if names.len() >= self.catalog[ti].def.partitions.len() {
            return Err(SqlError::drop_last_partition());
        }
        if self.catalog[ti].table.partition.is_none() {
            // Partitioned at the dictionary level only (CREATE TABLE ... PARTITION BY in
            // a session: one B-tree). InnoDB answers HA_ALTER_INPLACE_NO_LOCK_AFTER_PREPARE
            // (handler0alter.cc alter_parts::need_copy): the online choreography with a
            // metadata-only middle phase.
            let mut ops = self.drop_partition_no_write(lock);
            ops.extend(online_phases(lock, dict, dict));
            ops.push(DdlOp::Dict(DictEffect::DropPartitions(ti, names.to_vec())));
            return Ok(ops);
        }
        let (targets, _) = self.plan_partition_alter(&self.sql_table_name(ti), actions, &[])?;
        // The storage engine's DROP path on each partition's table (sim/ddl,
        // sim/partition.rs) under the session's EXCLUSIVE lock, as for DROP TABLE.
        // Simplification: the server's online choreography (X, SU for the
        // metadata-only middle phase, X to commit) is collapsed into one X.
        let targets = targets
            .into_iter()
            .map(|table| crate::sim::ddl::DropTarget { table })
            .collect();
        let mut ops = self.drop_partition_no_write(lock);
        ops.extend([
            DdlOp::Upgrade(lock, MdlType::Exclusive),
            DdlOp::Executor(Plan::DropPartitions(targets), lock),
            DdlOp::Dict(DictEffect::DropPartitions(ti, names.to_vec())),
        ]);
        Ok(ops)
    }

    /// MariaDB's first step of DROP PARTITION (`fast_alter_partition_table()`:
    /// `upgrade_shared_lock(MDL_SHARED_NO_WRITE)` before `wait_while_table_is_used()`
    /// takes EXCLUSIVE): behind an open writer it waits for SHARED_NO_WRITE, which new
    /// reads pass and new writes queue behind. TRUNCATE PARTITION asks EXCLUSIVE at
    /// once (`Sql_cmd_alter_table_truncate_partition`), as observed on 10.11.19.
    fn drop_partition_no_write(&self, lock: usize) -> Vec<DdlOp> {
        if self.profile.sql.drop_partition_snw_first {
            vec![DdlOp::Upgrade(lock, MdlType::SharedNoWrite)]
        } else {
            Vec::new()
        }
    }

    /// ALTER TABLE ... TRUNCATE PARTITION (names, or ALL when empty).
    fn truncate_partition_plan(
        &self,
        ti: TableId,
        lock: usize,
        actions: &[AlterAction],
        names: &[String],
    ) -> Result<Vec<DdlOp>, SqlError> {
        if !names.is_empty() {
            self.check_partitions(ti, names, "TRUNCATE")?;
        }
        if self.catalog[ti].table.partition.is_none() {
            if names.is_empty() {
                self.check_partitions(ti, names, "TRUNCATE")?;
            }
            // Partitioned at the dictionary level only: no partition's own table.
            let dict = Tick(self.profile.costs.drop_dict_ns);
            return Ok(vec![DdlOp::Work("checking permissions", dict)]);
        }
        let (targets, _) = self.plan_partition_alter(&self.sql_table_name(ti), actions, &[])?;
        // The TRUNCATE path on each partition's table, under X.
        let drop_targets = targets
            .iter()
            .map(|&table| crate::sim::ddl::DropTarget { table })
            .collect();
        let mut ops = vec![
            DdlOp::Upgrade(lock, MdlType::Exclusive),
            DdlOp::Executor(Plan::TruncatePartitions(drop_targets), lock),
        ];
        ops.extend(
            targets
                .into_iter()
                .map(|p| DdlOp::Dict(DictEffect::Truncate(p))),
        );
        Ok(ops)
    }

    /// The SQL name of dictionary table `ti` (a partition's table: its table's name).
    pub(in crate::sim) fn sql_table_name(&self, ti: TableId) -> TableName {
        TableName {
            schema: None,
            table: self.catalog[ti].table.sql_name().to_owned(),
        }
    }

    pub(in crate::sim) fn check_partitions(
        &self,
        ti: TableId,
        names: &[String],
        op: &str,
    ) -> Result<(), SqlError> {
        let def = &self.catalog[ti].def;
        if def.partitions.is_empty() {
            return Err(SqlError::partition_mgmt_on_nonpartitioned());
        }
        if names
            .iter()
            .any(|n| !def.partitions.iter().any(|p| p.eq_ignore_ascii_case(n)))
        {
            return Err(SqlError::partition_list(op));
        }
        Ok(())
    }

    /// `ALTER TABLE ... ADD/DROP COLUMN`: which algorithm the profile can do it with
    /// (`ha_innobase::check_if_supported_inplace_alter()`), MySQL's errors otherwise.
    pub(in crate::sim) fn plan_column_change(
        &self,
        table: &sql::TableName,
        actions: &[sql::AlterAction],
        algorithm: sql::Algorithm,
    ) -> Result<Plan, SqlError> {
        use crate::profile::InstantColumns;
        use sql::{Algorithm, AlterAction, ColumnPosition};
        let t = self.resolve_table(table)?;
        let tb = &self.catalog[t].table;
        let mut add = Vec::new();
        let mut drop = Vec::new();
        let mut append_only = true;
        for a in actions {
            match a {
                AlterAction::AddColumn { column, position } => {
                    if tb.column(&column.name).is_some()
                        || add
                            .iter()
                            .any(|(n, _): &(String, u64)| n.eq_ignore_ascii_case(&column.name))
                    {
                        return Err(SqlError::duplicate_column(&column.name));
                    }
                    if let ColumnPosition::After(c) = position {
                        if tb.column(c).is_none() {
                            return Err(SqlError::unknown_column(c));
                        }
                    }
                    append_only &= *position == ColumnPosition::Last;
                    add.push((
                        column.name.clone(),
                        crate::dict::column_bytes(&column.data_type),
                    ));
                }
                AlterAction::DropColumn { name } => {
                    if tb.column(name).is_none() {
                        return Err(SqlError::cant_drop_field_or_key(name));
                    }
                    append_only = false;
                    drop.push(name.clone());
                }
                _ => unreachable!("only column changes are planned here"),
            }
        }
        let not_instant =
            || SqlError::alter_not_supported("ALGORITHM=INSTANT", "ALGORITHM=COPY/INPLACE");
        let instant = match self.profile.mechanisms.instant_columns {
            InstantColumns::None => {
                if algorithm == Algorithm::Instant {
                    return Err(SqlError::unknown_alter_algorithm("INSTANT"));
                }
                false
            }
            InstantColumns::AppendOnly => match algorithm {
                Algorithm::Instant if !append_only => return Err(not_instant()),
                Algorithm::Instant | Algorithm::Default => append_only,
                Algorithm::Inplace | Algorithm::Copy => false,
            },
            InstantColumns::RowVersions => {
                // MAX_ROW_VERSION: 64 instant changes, then INPLACE (or 4092 if asked).
                let room = tb.row_version < 64;
                match algorithm {
                    Algorithm::Instant if !room => {
                        return Err(SqlError::max_row_version(&format!(
                            "{}/{}",
                            self.scenario.schema, tb.name
                        )))
                    }
                    Algorithm::Instant | Algorithm::Default => room,
                    Algorithm::Inplace | Algorithm::Copy => false,
                }
            }
        };
        if !instant {
            return Ok(Plan::Rebuild {
                table: t,
                add,
                drop,
            });
        }
        let new_row_version =
            self.profile.mechanisms.instant_columns == InstantColumns::RowVersions;
        Ok(Plan::Meta(MetaChange::Columns {
            table: t,
            add,
            drop,
            new_row_version,
        }))
    }

    /// `RENAME TABLE a TO b, ...`: every pair checked in order as if the earlier ones
    /// were done (so `a TO tmp, b TO a, tmp TO b` swaps), all applied at once.
    pub(in crate::sim) fn plan_rename(
        &self,
        renames: &[(sql::TableName, sql::TableName)],
        claimed: &mut Vec<TableId>,
    ) -> Result<Plan, SqlError> {
        // Names as they will be after each pair: (table index, name).
        let mut names: Vec<(TableId, String)> = self
            .catalog
            .tables_with_ids()
            .filter(|(_, t)| !t.dropped)
            .map(|(i, t)| (i, t.name.clone()))
            .collect();
        let mut pairs: Vec<(TableId, String)> = Vec::new();
        for (from, to) in renames {
            let schema_ok = |n: &sql::TableName| {
                n.schema
                    .as_deref()
                    .is_none_or(|s| s.eq_ignore_ascii_case(&self.scenario.schema))
            };
            let schema = from.schema.as_deref().unwrap_or(&self.scenario.schema);
            let pos = names
                .iter()
                .position(|(_, n)| schema_ok(from) && n.eq_ignore_ascii_case(&from.table))
                .ok_or_else(|| SqlError::no_such_table(schema, &from.table))?;
            if !schema_ok(to) {
                return Err(SqlError::not_modelled("RENAME TABLE into another schema"));
            }
            if names.iter().any(|(_, n)| n.eq_ignore_ascii_case(&to.table)) {
                return Err(SqlError::table_exists(&to.table));
            }
            let t = names[pos].0;
            names[pos].1 = to.table.clone();
            pairs.retain(|(x, _)| *x != t);
            pairs.push((t, to.table.clone()));
            if !claimed.contains(&t) {
                claimed.push(t);
            }
        }
        Ok(Plan::Meta(MetaChange::Rename(pairs)))
    }

    /// The live tables `name` means: the table, or every partition of a partitioned
    /// one (`Catalog::resolve`).
    pub(in crate::sim) fn resolve(&self, name: &sql::TableName) -> Vec<TableId> {
        self.catalog.resolve(&self.scenario.schema, name)
    }

    /// The live table `name` names, or MySQL's 1146. A partitioned table is not one
    /// table to the storage-engine plans that use this (index builds, column changes),
    /// so it is not found here.
    pub(in crate::sim) fn resolve_table(&self, name: &sql::TableName) -> Result<TableId, SqlError> {
        let schema = name.schema.as_deref().unwrap_or(&self.scenario.schema);
        self.resolve(name)
            .into_iter()
            .find(|&t| self.catalog[t].table.partition.is_none())
            .ok_or_else(|| SqlError::no_such_table(schema, &name.table))
    }

    /// `CREATE INDEX` / `ALTER TABLE ... ADD INDEX`: checks it the way the server does
    /// (table, duplicate name, key columns, algorithm) and plans an online build.
    pub(in crate::sim) fn plan_add_index(
        &self,
        table: &sql::TableName,
        index: &sql::IndexDef,
        algorithm: sql::Algorithm,
    ) -> Result<Plan, SqlError> {
        let t = self.resolve_table(table)?;
        let tb = &self.catalog[t].table;
        if algorithm == sql::Algorithm::Instant {
            return Err(SqlError::alter_not_supported(
                "ALGORITHM=INSTANT",
                "ALGORITHM=COPY/INPLACE",
            ));
        }
        if self.catalog[t].online_build {
            return Err(SqlError::not_modelled(
                "a second online index build on a table while one runs",
            ));
        }
        let mut key_bytes = 0;
        let mut includes_pk = false;
        for part in &index.columns {
            let col = tb
                .column(&part.column)
                .ok_or_else(|| SqlError::key_column_missing(&part.column))?;
            key_bytes += part
                .prefix_len
                .map_or(col.bytes, |n| u64::from(n).min(col.bytes));
            includes_pk |= col.name.eq_ignore_ascii_case("id");
        }
        // MySQL names an unnamed index after its first column: k, k_2, k_3...
        let name = match &index.name {
            Some(n) => {
                if tb.index_named(n).is_some() {
                    return Err(SqlError::duplicate_key(n));
                }
                n.clone()
            }
            None => {
                let base = index.columns[0].column.clone();
                let mut name = base.clone();
                let mut k = 2;
                while tb.index_named(&name).is_some() {
                    name = format!("{base}_{k}");
                    k += 1;
                }
                name
            }
        };
        // The entry: the key, the primary key unless the key has it, the record header.
        let entry_bytes = key_bytes + if includes_pk { 0 } else { 4 } + 6;
        Ok(Plan::AddIndex {
            table: t,
            name,
            entry_bytes,
        })
    }

    /// Checks an `ALTER TABLE t DROP | TRUNCATE PARTITION ...` the way the server does
    /// (`mysql_alter_table()` → `prep_alter_part_table()`) and returns the partitions'
    /// tables and whether to truncate (else drop) them. Other ALTER TABLE actions are
    /// not modelled here.
    pub(in crate::sim) fn plan_partition_alter(
        &self,
        table: &TableName,
        actions: &[AlterAction],
        claimed: &[TableId],
    ) -> Result<(Vec<TableId>, bool), SqlError> {
        let (names, drop) = match actions {
            [AlterAction::DropPartition { names }] => (names, true),
            [AlterAction::TruncatePartition { names }] => (names, false),
            [one] => return Err(SqlError::not_modelled(one.name())),
            _ => return Err(SqlError::not_modelled("ALTER TABLE")),
        };
        let found = self.resolve(table);
        if found.is_empty() {
            let schema = table.schema.as_deref().unwrap_or(&self.scenario.schema);
            return Err(SqlError::no_such_table(schema, &table.table));
        }
        if self.catalog[found[0]].table.partition.is_none() {
            return Err(SqlError::partition_mgmt_on_nonpartitioned());
        }
        let command = if drop { "DROP" } else { "TRUNCATE" };
        let part_name = |i: TableId| {
            self.catalog[i]
                .table
                .partition
                .as_ref()
                .map_or("", |p| p.name.as_str())
        };
        let mut targets = Vec::new();
        if !drop && names.is_empty() {
            // TRUNCATE PARTITION ALL.
            targets = found.clone();
        } else {
            for n in names {
                let i = found
                    .iter()
                    .copied()
                    .find(|&i| part_name(i).eq_ignore_ascii_case(n))
                    .filter(|i| !targets.contains(i))
                    .ok_or_else(|| SqlError::partition_list(command))?;
                targets.push(i);
            }
        }
        if targets.iter().any(|i| claimed.contains(i)) {
            return Err(SqlError::partition_list(command));
        }
        if drop && targets.len() == found.len() {
            return Err(SqlError::drop_last_partition());
        }
        Ok((targets, !drop))
    }
}
