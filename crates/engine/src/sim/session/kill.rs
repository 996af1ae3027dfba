//! KILL [CONNECTION | QUERY] and disconnects: what a killed statement or connection
//! gives back, and the locks and transaction a gone connection releases
//! (`THD::awake()`, `close_connection()`).

use super::StatementOutcome;
use crate::mdl::MdlContextId;
use crate::sim::Sim;
use crate::sql::{KillKind, SqlError};

impl Sim {
    /// The connection goes away: its transaction rolls back and every lock goes.
    pub(in crate::sim) fn disconnect(&mut self, id: u32) {
        self.rollback_trx(id);
        self.sql.row_waits.remove(&id);
        self.mdl_release_all(MdlContextId(id));
        let failed: Vec<u32> = match self.sql.sessions.get_mut(&id) {
            Some(s) => {
                s.gone = true;
                s.locked_tables.clear();
                s.global_read_lock = false;
                s.queue.drain(..).collect()
            }
            None => Vec::new(),
        };
        for stmt in failed {
            let rec = &mut self.sql.statements[stmt as usize];
            rec.finished_at = Some(self.sched.now);
            let e = SqlError::server_gone();
            rec.outcome = Some(StatementOutcome::Error {
                code: e.code,
                sqlstate: e.sqlstate,
                message: e.message,
            });
        }
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
