//! Triggers at work in console statements: the tables their bodies write are locked
//! with the statement's own (prelocking), and each body runs for the rows its event
//! changed.
//!
//! ```text
//!   UPDATE t ... (t has AFTER UPDATE trg: REPLACE INTO n ... VALUES (NEW.id, ...))
//!     Mdl     GLOBAL IX, TABLE t SW                      (lock_plan.rs)
//!     Open    t's triggers for UPDATE name n: TABLE n SW  (prelocking, back to Mdl)
//!     RowLock t's rows
//!     Triggers n: AUTO-INC as the mode says, the rows NEW.id names, REPLACE  (key_write.rs)
//!     Walk    t's pages, then n's
//! ```
//!
//! The server adds the tables a statement's triggers use to its table list when it
//! opens the subject table (`open_tables()` → `Table_triggers_list::
//! add_tables_and_routines_for_triggers()`), for the events the statement can fire
//! (`trg_event_map`: INSERT; UPDATE; DELETE; REPLACE fires INSERT and DELETE, ON
//! DUPLICATE KEY UPDATE fires INSERT and UPDATE), and locks them like the statement's
//! own written tables (SHARED_WRITE to the transaction's end): a RENAME or DROP of
//! the body's table waits for every open transaction that wrote the subject table. A
//! missing body table fails the statement at open (1146), before any row changes.
//! Each body's statement is its own `sql_command`: a REPLACE in a trigger is a simple
//! insert to the AUTO-INC lock (`autoinc.rs`).
//!
//! A body's row is named by the firing row's key: `VALUES (NEW.id, ...)` into a table
//! whose primary key is that column writes the same key value; a DELETE's `WHERE
//! n.id <=> OLD.id` deletes it. Any other value is an unknown one: an insert takes
//! new AUTO_INCREMENT values, a DELETE on no key scans (and locks) the whole table.
//!
//! Simplification: the statement's rows are all changed before the bodies run (the
//! server runs a row's AFTER trigger right after that row, a BEFORE trigger right
//! before it), so the bodies' locks come after all of the statement's own.

use super::key_write::{span_len, KeyOp, KeyWrite, WritePoll};
use super::lock_plan::table_key;
use super::{Running, Step, TableDef};
use crate::mdl::{MdlDuration, MdlRequest, MdlType};
use crate::sim::catalog::TableId;
use crate::sim::{Next, Sim};
use crate::sql::{Command, OnDuplicate, RowValue, SqlError, TableName, TriggerBody, TriggerEvent};
use crate::time::Tick;
use crate::ThreadId;

/// The rows a statement changed, as key values, by the event they fire.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::sim) struct RowsChanged {
    /// Rows inserted (REPLACE's replaced rows too), as key spans.
    pub(in crate::sim) inserted: Vec<(i64, i64)>,
    /// Rows inserted whose keys are not known (a table without a primary key).
    pub(in crate::sim) inserted_rows: u64,
    /// Rows updated (ON DUPLICATE KEY UPDATE's duplicates).
    pub(in crate::sim) updated: Vec<(i64, i64)>,
    /// Rows deleted (REPLACE's replaced rows).
    pub(in crate::sim) deleted: Vec<(i64, i64)>,
}

/// The events a statement can fire (`trg_event_map`).
pub(in crate::sim) fn trigger_events(c: &Command) -> &'static [TriggerEvent] {
    use TriggerEvent::{Delete, Insert, Update};
    let on_duplicate = match c {
        Command::Insert { on_duplicate, .. } => *on_duplicate,
        Command::InsertSelect(is) => is.on_duplicate,
        Command::Update { .. } => return &[Update],
        Command::Delete { .. } => return &[Delete],
        _ => return &[],
    };
    match on_duplicate {
        OnDuplicate::Replace => &[Delete, Insert],
        OnDuplicate::Update => &[Insert, Update],
        OnDuplicate::Error | OnDuplicate::Ignore => &[Insert],
    }
}

/// Whether a body's value `v` is the firing row's primary key (`NEW.id`, `OLD.id`):
/// then the body's row has the firing row's key value.
fn key_of_subject(v: &RowValue, subject: &TableDef) -> bool {
    match v {
        RowValue::New(c) | RowValue::Old(c) => subject.is_pk(c),
        RowValue::Other => false,
    }
}

impl Sim {
    /// Prelocking: SHARED_WRITE on every table the subject table's triggers for the
    /// statement's events write, added to the statement's plan. True when the plan
    /// grew (the statement goes back to take them); 1146 when a body's table is not
    /// there (once its lock is held), 1100 when LOCK TABLES does not hold it.
    pub(in crate::sim) fn prelock_trigger_tables(
        &mut self,
        id: u32,
        run: &mut Running,
        subject: TableId,
    ) -> Result<bool, SqlError> {
        let events = trigger_events(&run.command);
        let def = &self.catalog[subject].def;
        if def.triggers.is_empty() || events.is_empty() {
            return Ok(false);
        }
        // Each table, and whether every trigger naming it handles its absence (1146).
        let mut tables: Vec<(TableName, bool)> = Vec::new();
        for t in def.triggers.iter().filter(|t| events.contains(&t.event)) {
            for name in t.statements(def).map(TriggerBody::table) {
                let handled = t.continue_on_no_such_table;
                match tables
                    .iter_mut()
                    .find(|(n, _)| table_key("", n) == table_key("", name))
                {
                    Some((_, h)) => *h &= handled,
                    None => tables.push((name.clone(), handled)),
                }
            }
        }
        let schema = self.schema();
        let under_lock_tables = !self.sql.sessions[&id].locked_tables.is_empty();
        let mut grew = false;
        for (name, handled) in &tables {
            if under_lock_tables {
                self.check_locked_tables(id, name, true)?;
                continue;
            }
            let key = table_key(&schema, name);
            if run.plan.iter().any(|r| r.key == key) {
                // Taken: the table must be there now, unless a handler skips it.
                if self.resolve(name).is_empty() && !handled {
                    let db = name.schema.as_deref().unwrap_or(&schema);
                    return Err(SqlError::no_such_table(db, &name.table));
                }
                continue;
            }
            run.plan.push(MdlRequest::new(
                key,
                MdlType::SharedWrite,
                MdlDuration::Transaction,
            ));
            grew = true;
        }
        Ok(grew)
    }

    /// The writes the subject table's triggers make for `changed`, in the order they
    /// fire (the events in `trigger_events`' order, each event's triggers in theirs).
    pub(in crate::sim) fn trigger_writes(
        &self,
        command: &Command,
        subject: TableId,
        changed: &RowsChanged,
    ) -> Result<Vec<KeyWrite>, SqlError> {
        let def = &self.catalog[subject].def;
        let mut writes = Vec::new();
        for &event in trigger_events(command) {
            let (spans, unkeyed) = match event {
                TriggerEvent::Insert => (&changed.inserted, changed.inserted_rows),
                TriggerEvent::Update => (&changed.updated, 0),
                TriggerEvent::Delete => (&changed.deleted, 0),
            };
            let rows = span_len(spans) + unkeyed;
            if rows == 0 {
                continue;
            }
            for trigger in def.triggers_on(event) {
                for body in trigger.statements(def) {
                    let target = match self.trigger_target(body.table()) {
                        Ok(target) => target,
                        // DECLARE CONTINUE HANDLER FOR 1146: the statement is skipped.
                        Err(_) if trigger.continue_on_no_such_table => continue,
                        Err(e) => return Err(e),
                    };
                    let keyed = if unkeyed == 0 { Some(spans) } else { None };
                    writes.push(self.body_write(body, def, target, keyed, rows)?);
                }
            }
        }
        Ok(writes)
    }

    /// The live table a body writes, or 1146.
    fn trigger_target(&self, name: &TableName) -> Result<TableId, SqlError> {
        let schema = self.schema();
        self.resolve(name).first().copied().ok_or_else(|| {
            SqlError::no_such_table(name.schema.as_deref().unwrap_or(&schema), &name.table)
        })
    }

    /// What `body` writes into `target` for `rows` firing rows whose keys are `keys`
    /// (when known): 1054 for a column the target does not have, 1136 when the
    /// values do not match the columns.
    fn body_write(
        &self,
        body: &TriggerBody,
        subject: &TableDef,
        target: TableId,
        keys: Option<&Vec<(i64, i64)>>,
        rows: u64,
    ) -> Result<KeyWrite, SqlError> {
        let tdef = &self.catalog[target].def;
        match body {
            TriggerBody::Insert {
                columns,
                values,
                on_duplicate,
                ..
            } => {
                let cols: Vec<&str> = if columns.is_empty() {
                    tdef.columns.iter().map(String::as_str).collect()
                } else {
                    columns.iter().map(String::as_str).collect()
                };
                if let Some(c) = cols.iter().find(|c| !tdef.has_column(c)) {
                    return Err(SqlError::unknown_column_in(c, "field list"));
                }
                if cols.len() != values.len() {
                    return Err(SqlError::value_count(1));
                }
                let pk_value = cols.iter().position(|c| tdef.is_pk(c)).map(|i| &values[i]);
                let how = self.autoinc_lock_for(target, crate::sim::locks::InsertKind::Simple);
                let op = KeyOp::Insert(*on_duplicate);
                Ok(match (pk_value, keys) {
                    (Some(v), Some(keys)) if key_of_subject(v, subject) => {
                        KeyWrite::new(target, op, keys.clone(), 0, how)
                    }
                    _ => KeyWrite::new(target, op, Vec::new(), rows, how),
                })
            }
            TriggerBody::Delete { key, .. } => {
                let how = crate::sim::locks::AutoIncLock::None;
                let mut w = KeyWrite::new(target, KeyOp::Delete, Vec::new(), 0, how);
                match (key, keys) {
                    (Some((col, v)), Some(keys))
                        if tdef.is_pk(col) && key_of_subject(v, subject) =>
                    {
                        w.spans = keys.clone();
                    }
                    (Some((col, _)), _) if tdef.is_pk(col) => {}
                    _ => w.scan = true,
                }
                Ok(w)
            }
        }
    }

    /// `Triggers`: the bodies' writes, one after another; each may wait for the
    /// AUTO-INC lock or its rows' locks. Their pages are walked after the statement's.
    pub(in crate::sim) fn step_trigger_writes(
        &mut self,
        t: ThreadId,
        id: u32,
        run: &mut Running,
    ) -> Next {
        while let Some(w) = run.trigger_writes.first_mut() {
            match self.step_key_write(t, id, w) {
                WritePoll::Wait => {
                    self.set_state(id, self.work_state(&run.command));
                    return Next::Parked;
                }
                WritePoll::Failed(e) => return self.fail(id, run, e),
                WritePoll::Done(done) => {
                    let table = w.table;
                    run.rows_changed += done.inserted_rows + span_len(&done.deleted);
                    self.note_inserted(run, table, done.inserted_rows);
                    if !done.pages.is_empty() {
                        run.walks.push((table, done.pages));
                    }
                    run.trigger_writes.remove(0);
                }
            }
        }
        self.set_state(id, self.work_state(&run.command));
        run.step = Step::Walk;
        Next::After(Tick::ZERO)
    }

    /// After the statement's own rows: its triggers' writes, if any, else its pages.
    pub(in crate::sim) fn after_rows(
        &mut self,
        run: &mut Running,
        subject: TableId,
        changed: &RowsChanged,
    ) -> Result<(), SqlError> {
        run.trigger_writes = self.trigger_writes(&run.command, subject, changed)?;
        run.step = if run.trigger_writes.is_empty() {
            Step::Walk
        } else {
            Step::Triggers
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_statement_fires_the_events_the_server_maps_it_to() {
        use TriggerEvent::{Delete, Insert, Update};
        let rows: &[(&str, &[TriggerEvent])] = &[
            ("INSERT INTO t (id) VALUES (1)", &[Insert]),
            ("INSERT IGNORE INTO t SELECT * FROM s", &[Insert]),
            ("REPLACE INTO t (id) VALUES (1)", &[Delete, Insert]),
            ("REPLACE INTO t SELECT * FROM s", &[Delete, Insert]),
            (
                "INSERT INTO t (id) VALUES (1) ON DUPLICATE KEY UPDATE k = 1",
                &[Insert, Update],
            ),
            ("UPDATE t SET k = 1", &[Update]),
            ("DELETE FROM t WHERE id = 1", &[Delete]),
            ("SELECT * FROM t FOR UPDATE", &[]),
        ];
        for (sql, events) in rows {
            let c = crate::sql::parse(sql).unwrap().remove(0).command;
            assert_eq!(trigger_events(&c), *events, "{sql}");
        }
    }
}
