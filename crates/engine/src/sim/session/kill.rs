//! KILL [CONNECTION | QUERY] and disconnects: what a killed statement or connection
//! gives back, and the locks and transaction a gone connection releases
//! (`THD::awake()`, `close_connection()`).

use super::StatementOutcome;
use crate::events::EventKind;
use crate::mdl::MdlContextId;
use crate::sim::Sim;
use crate::sql::{KillKind, SqlError};
use crate::time::Tick;

impl Sim {
    /// The connection goes away: its transaction rolls back and every lock goes.
    pub(in crate::sim) fn disconnect(&mut self, id: u32) {
        self.rollback_trx(id);
        self.sql.row_waits.remove(&id);
        self.mdl_release_all(MdlContextId(id));
        let queued: Vec<u32> = match self.sql.sessions.get_mut(&id) {
            Some(s) => {
                s.gone = true;
                s.locked_tables.clear();
                s.global_read_lock = false;
                s.queue.drain(..).collect()
            }
            None => Vec::new(),
        };
        // What the client still had to send: the next statement meets the closed
        // connection, the client reconnects, the rest go on.
        self.queue_statements(id, &queued);
    }

    /// The client of gone connection `gone` sent statement `stmt`: it fails with 2006
    /// ("MySQL server has gone away"), and the client reconnects as `mysql.cc` does
    /// (`reconnect()`: "No connection. Trying to reconnect..."), with a new connection
    /// id and fresh session state. Returns the new connection.
    ///
    /// Simplification: the interactive client then re-sends the statement
    /// (`mysql_real_query_for_lazy()` retries once); here, as in `mysql --batch`, it
    /// stays failed and the client goes on with the next one.
    pub(in crate::sim) fn reconnect(&mut self, gone: u32, stmt: u32) -> u32 {
        let new = self.connect();
        let client = self.sql.sessions[&gone].client;
        self.sql
            .sessions
            .get_mut(&gone)
            .expect("gone")
            .reconnected_as = Some(new);
        self.sql.sessions.get_mut(&new).expect("new").client = client;
        let db = self.scenario.schema.clone();
        let e = SqlError::server_gone();
        let message = format!(
            "{}\nNo connection. Trying to reconnect...\nConnection id:    {new}\nCurrent database: {db}",
            e.message
        );
        let rec = &mut self.sql.statements[stmt as usize];
        rec.finished_at = Some(self.sched.now);
        rec.outcome = Some(StatementOutcome::Error {
            code: e.code,
            sqlstate: e.sqlstate,
            message,
        });
        let (sql, result) = (rec.sql.clone(), rec.client_output().unwrap_or_default());
        self.emit(EventKind::StatementFinished {
            session: client,
            sql,
            elapsed: Tick::ZERO,
            result,
            error: true,
        });
        new
    }

    /// `KILL [QUERY] id` (`sql_kill()`): flags the target; a wait ends at once with
    /// 1317, running work stops at its next step.
    pub(in crate::sim) fn kill(&mut self, target: u64, kind: KillKind) -> Result<(), SqlError> {
        let Some(s) = u32::try_from(target)
            .ok()
            .and_then(|t| self.sql.sessions.get_mut(&t))
        else {
            return Err(SqlError::unknown_thread(target));
        };
        if s.gone {
            return Err(SqlError::unknown_thread(target));
        }
        let id = s.id;
        let thread = s.thread;
        if s.running.is_none() {
            if kind == KillKind::Connection {
                self.disconnect(id);
            }
            return Ok(());
        }
        s.killed = Some(kind);
        if self.mdl_cancel_wait(MdlContextId(id)) {
            // The wake-up comes with the aborted request.
        } else if let Some(t) = self.row_cancel_wait(id) {
            self.sched.schedule_thread(self.sched.now, t);
        } else if self.sql.sessions[&id].on_cpu {
            // On a core or in the run queue: the kill is seen once the burst ends.
        } else if self.sql.ddl_running.contains(&id) {
            // Simplification: a DDL's storage-engine phase runs to its end; the kill
            // is seen at the next SQL-layer step.
        } else if self
            .latches
            .iter()
            .any(|l| l.holder() == Some(thread) || l.waiters().any(|w| w == thread))
        {
            // Holding or queued for a latch: the kill is seen once the page is done.
        } else {
            self.sched.wake_early(thread);
        }
        Ok(())
    }
}
