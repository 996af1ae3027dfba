//! CREATE TRIGGER, DROP TRIGGER and SHOW TRIGGERS, with the metadata locks the server
//! takes (`sql_trigger.cc` `mysql_create_or_drop_trigger()`, MariaDB 10.11):
//!
//! ```text
//!   TRIGGER db.name X        the trigger's name (MDL_key::TRIGGER), against a
//!                            concurrent CREATE or DROP of the same name
//!   GLOBAL IX, SCHEMA IX,    the table opened for TL_READ_NO_INSERT: SHARED_NO_WRITE,
//!   TABLE t SNW              so it waits for an open transaction that wrote t, and
//!                            while it waits new reads pass, new writes queue
//!   SNW → X                  wait_while_table_is_used(): waits for every reader too;
//!                            while it waits nothing passes
//!   checks, .TRG written     1359 if the name is taken (after the wait), 1054 for a
//!                            NEW/OLD column the table does not have
//!   commit                   the locks go (the statement commits implicitly)
//! ```
//!
//! DROP TRIGGER takes the name's lock first, then finds the trigger's table (its
//! `.TRN` file): 1360 when there is none (a note with IF EXISTS), before any table
//! lock. Checked against mariadbd 10.11.19: conformance script `trigger-mdl`.
//!
//! A trigger belongs to its table's definition (`TableDef::triggers`), so it moves
//! with a RENAME and goes with a DROP; its body names its table as written, found
//! when it fires.
//!
//! Simplification: `FOLLOWS`/`PRECEDES` are read and ignored (a new trigger fires
//! after the table's others for its event); CREATE and DROP TRIGGER under LOCK
//! TABLES are not modelled (1235).

use super::plan::{DdlOp, TriggerChange};
use super::show::{like_match, virtual_datetime};
use super::{Running, Step, TableDef};
use crate::mdl::{MdlDuration, MdlKey, MdlRequest, MdlType};
use crate::resultset::ResultSet;
use crate::sim::catalog::table_def::TriggerDef;
use crate::sim::catalog::TableId;
use crate::sim::{Next, Sim};
use crate::sql::{
    Command, CreateTrigger, RowValue, SqlError, TriggerBody, TriggerName, TriggerTiming,
};
use crate::time::Tick;

/// The table ticket's index in a trigger statement's plan: after the trigger's own
/// lock, GLOBAL IX and SCHEMA IX.
const TRIGGER_TABLE_TICKET: usize = 3;

/// The first `NEW.col` or `OLD.col` of a body that `subject` lacks, as MySQL's 1054
/// names it: `Unknown column 'x' in 'NEW'`.
fn unknown_row_column(ct: &CreateTrigger, subject: &TableDef) -> Option<SqlError> {
    ct.body
        .iter()
        .flat_map(TriggerBody::row_values)
        .find_map(|v| match v {
            RowValue::New(c) if !subject.has_column(c) => {
                Some(SqlError::unknown_column_in(c, "NEW"))
            }
            RowValue::Old(c) if !subject.has_column(c) => {
                Some(SqlError::unknown_column_in(c, "OLD"))
            }
            _ => None,
        })
}

impl Sim {
    /// CREATE or DROP TRIGGER, its first locks held: check what needs no exclusive
    /// lock, add the table's locks (DROP, once the trigger's table is known) or plan
    /// the phases.
    pub(in crate::sim) fn open_trigger_ddl(
        &mut self,
        id: u32,
        run: &mut Running,
    ) -> Result<Next, SqlError> {
        if !self.sql.sessions[&id].locked_tables.is_empty() {
            return Err(SqlError::not_modelled(&format!(
                "{} under LOCK TABLES",
                run.command.name()
            )));
        }
        let schema = self.schema();
        let change = match &run.command {
            Command::CreateTrigger(ct) => {
                let table = self.table_for_trigger(&ct.table)?;
                let trigger_schema = ct.name.schema.as_deref().unwrap_or(&schema);
                let table_schema = ct.table.schema.as_deref().unwrap_or(&schema);
                if !trigger_schema.eq_ignore_ascii_case(table_schema) {
                    return Err(SqlError::trigger_in_wrong_schema());
                }
                let def = TriggerDef {
                    name: ct.name.name.clone(),
                    timing: ct.timing,
                    event: ct.event,
                    body: ct.body.clone(),
                    continue_on_no_such_table: ct.continue_on_no_such_table,
                    body_text: ct.body_text.clone(),
                    created: self.sched.now,
                };
                TriggerChange::Create {
                    table,
                    def,
                    if_not_exists: ct.if_not_exists,
                    or_replace: ct.or_replace,
                }
            }
            Command::DropTrigger { name, if_exists } => {
                let Some(table) = self.trigger_table(name) else {
                    if *if_exists {
                        run.message = "Query OK, 0 rows affected, 1 warning".into();
                        run.step = Step::End;
                        return Ok(Next::After(Tick::ZERO));
                    }
                    return Err(SqlError::trigger_does_not_exist());
                };
                if run.plan.len() <= TRIGGER_TABLE_TICKET {
                    self.plan_trigger_table_locks(run, table);
                    run.step = Step::Mdl;
                    return Ok(Next::After(Tick::ZERO));
                }
                let name = name.name.clone();
                TriggerChange::Drop { table, name }
            }
            _ => unreachable!("a trigger statement"),
        };
        run.ddl = vec![
            DdlOp::Upgrade(TRIGGER_TABLE_TICKET, MdlType::Exclusive),
            DdlOp::Work(
                "After opening tables",
                Tick(self.profile.costs.drop_dict_ns),
            ),
            DdlOp::Trigger(change),
        ];
        run.step = Step::Ddl;
        Ok(Next::After(Tick::ZERO))
    }

    /// The subject table of CREATE TRIGGER: a live, unpartitioned table, or 1146.
    fn table_for_trigger(&self, name: &crate::sql::TableName) -> Result<TableId, SqlError> {
        self.resolve(name).first().copied().ok_or_else(|| {
            SqlError::no_such_table(
                name.schema.as_deref().unwrap_or(&self.scenario.schema),
                &name.table,
            )
        })
    }

    /// The live table trigger `name` belongs to, if any.
    fn trigger_table(&self, name: &TriggerName) -> Option<TableId> {
        let schema_ok = name
            .schema
            .as_deref()
            .is_none_or(|s| s.eq_ignore_ascii_case(&self.scenario.schema));
        if !schema_ok {
            return None;
        }
        self.catalog.ids().find(|&i| {
            let e = &self.catalog[i];
            !e.table.dropped
                && e.def
                    .triggers
                    .iter()
                    .any(|t| t.name.eq_ignore_ascii_case(&name.name))
        })
    }

    /// DROP TRIGGER found its table: GLOBAL IX, SCHEMA IX and SHARED_NO_WRITE on it
    /// (`add_table_for_trigger()` then `open_n_lock_single_table()`).
    fn plan_trigger_table_locks(&mut self, run: &mut Running, table: TableId) {
        let schema = self.schema();
        let trx = MdlDuration::Transaction;
        run.plan.push(MdlRequest::new(
            MdlKey::global(),
            MdlType::IntentionExclusive,
            MdlDuration::Statement,
        ));
        run.plan.push(MdlRequest::new(
            MdlKey::schema(&schema.to_ascii_lowercase()),
            MdlType::IntentionExclusive,
            trx,
        ));
        let name = self.catalog[table].table.sql_name().to_ascii_lowercase();
        let key = MdlKey::table(&schema.to_ascii_lowercase(), &name);
        run.plan
            .push(MdlRequest::new(key, MdlType::SharedNoWrite, trx));
    }

    /// `Table_triggers_list::create_trigger()` / `drop_trigger()`, the table locked
    /// EXCLUSIVE: 1359 for a name taken (a note with IF NOT EXISTS; OR REPLACE drops
    /// it first), 1054 for a row column the table lacks.
    pub(in crate::sim) fn apply_trigger_change(
        &mut self,
        run: &mut Running,
        change: TriggerChange,
    ) -> Result<(), SqlError> {
        match change {
            TriggerChange::Create {
                table,
                def,
                if_not_exists,
                or_replace,
            } => {
                let name = TriggerName {
                    schema: None,
                    name: def.name.clone(),
                };
                if let Some(owner) = self.trigger_table(&name) {
                    if if_not_exists {
                        run.message = "Query OK, 0 rows affected, 1 warning".into();
                        return Ok(());
                    }
                    if !or_replace {
                        let full = format!("{}.{}", self.schema(), def.name);
                        return Err(SqlError::trigger_exists(&full));
                    }
                    self.catalog[owner]
                        .def
                        .triggers
                        .retain(|t| !t.name.eq_ignore_ascii_case(&def.name));
                }
                if let Command::CreateTrigger(ct) = &run.command {
                    if let Some(e) = unknown_row_column(ct, &self.catalog[table].def) {
                        return Err(e);
                    }
                }
                self.catalog[table].def.triggers.push(def);
            }
            TriggerChange::Drop { table, name } => {
                self.catalog[table]
                    .def
                    .triggers
                    .retain(|t| !t.name.eq_ignore_ascii_case(&name));
            }
        }
        Ok(())
    }

    /// SHOW TRIGGERS [LIKE 'pattern']: the schema's triggers, by table, as MariaDB
    /// prints them (the pattern matches the table's name).
    pub(in crate::sim) fn show_triggers(&self, like: Option<&str>) -> ResultSet {
        let mut r = ResultSet::new(
            &[
                "Trigger",
                "Event",
                "Table",
                "Statement",
                "Timing",
                "Created",
                "sql_mode",
                "Definer",
                "character_set_client",
                "collation_connection",
                "Database Collation",
            ],
            &[],
        );
        for i in self.catalog.ids() {
            let e = &self.catalog[i];
            let table = e.table.sql_name();
            if e.table.dropped || like.is_some_and(|p| !like_match(p, table)) {
                continue;
            }
            for t in &e.def.triggers {
                let timing = match t.timing {
                    TriggerTiming::Before => "BEFORE",
                    TriggerTiming::After => "AFTER",
                };
                r.push(
                    [
                        t.name.as_str(),
                        t.event.name(),
                        table,
                        t.body_text.as_str(),
                        timing,
                        &virtual_datetime(t.created),
                        "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION",
                        "root@localhost",
                        "utf8mb4",
                        "utf8mb4_general_ci",
                        "utf8mb4_general_ci",
                    ]
                    .map(|v| Some(v.to_owned()))
                    .to_vec(),
                );
            }
        }
        r
    }
}
