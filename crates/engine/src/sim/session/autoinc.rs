//! InnoDB's AUTO-INC lock: how an insert into a table with an `AUTO_INCREMENT` column
//! gets its values, by `innodb_autoinc_lock_mode` (`ha_innodb.cc`
//! `innobase_lock_autoinc()`, MariaDB 10.11 and MySQL alike).
//!
//! ```text
//!   mode              INSERT ... VALUES, REPLACE      INSERT ... SELECT, REPLACE ... SELECT
//!   0 traditional     table lock to statement end     table lock to statement end
//!   1 consecutive     the AUTO-INC mutex; the table   table lock to statement end
//!                     lock if another transaction
//!                     holds or waits for it
//!   2 interleaved     the mutex only                  the mutex only
//! ```
//!
//! The table lock (`LOCK_AUTO_INC`, `row_lock_table_autoinc_for_mysql()`) conflicts
//! only with another transaction's AUTO-INC lock; it waits up to
//! `innodb_lock_wait_timeout` (1205), takes part in deadlock detection, and is
//! released when its statement ends (`innobase_commit()` with `commit_trx` false →
//! `lock_unlock_table_autoinc()`), not at commit. An insert asks for it for an
//! explicit value too: the row's value moves the counter (`write_row()` →
//! `innobase_set_max_autoinc()`). A trigger's INSERT or REPLACE is a simple insert
//! (its own `sql_command`), so in mode 1 it queues behind a bulk insert's lock: what
//! pt-online-schema-change's copy chunks do to the writes its triggers make.
//!
//! The processlist shows a waiter in its statement's state (`update`); SHOW ENGINE
//! INNODB STATUS says `setting auto-inc lock` and `TABLE LOCK table ... lock mode
//! AUTO-INC waiting`.
//!
//! Simplification: the lock is asked once, before the statement's first row, whether
//! the value is generated or given (the server asks before a generated value's row,
//! after a given value's); the mutex itself is not modelled.

use super::RowPoll;
use crate::sim::catalog::TableId;
use crate::sim::locks::{AutoIncLock, LockMode, RowRange};
use crate::sim::Sim;
use crate::ThreadId;

impl Sim {
    /// Whether a session other than `session` holds table `ti`'s AUTO-INC lock.
    fn autoinc_held_by_other(&self, session: u32, ti: TableId) -> bool {
        let lock = RowRange::auto_inc(ti);
        self.sql
            .row_locks
            .iter()
            .any(|l| l.owner != session && l.range == lock)
            || self
                .sql
                .row_waits
                .iter()
                .any(|(&s, w)| s != session && w.range == lock)
    }

    /// Console session `id`'s insert into `ti` asks for the AUTO-INC lock as `how`
    /// says, on thread `t`: granted at once when it is not needed or already held.
    pub(in crate::sim) fn autoinc_acquire(
        &mut self,
        t: ThreadId,
        id: u32,
        ti: TableId,
        how: AutoIncLock,
    ) -> RowPoll {
        let lock = RowRange::auto_inc(ti);
        let held = self
            .sql
            .row_locks
            .iter()
            .any(|l| l.owner == id && l.range == lock);
        let waiting = self.sql.row_waits.get(&id).is_some_and(|w| w.range == lock);
        let needed = match how {
            AutoIncLock::None => false,
            AutoIncLock::IfOthersHold => waiting || self.autoinc_held_by_other(id, ti),
            AutoIncLock::Table => true,
        };
        if held || !needed {
            return RowPoll::Granted;
        }
        self.row_lock(t, id, lock)
    }

    /// The statement ended: session `id`'s AUTO-INC locks go, and their waiters look
    /// again (`lock_unlock_table_autoinc()`).
    pub(in crate::sim) fn autoinc_release(&mut self, id: u32) {
        let before = self.sql.row_locks.len();
        self.sql
            .row_locks
            .retain(|l| !(l.owner == id && l.range.mode == LockMode::AutoInc));
        if self.sql.row_locks.len() != before {
            self.row_wake_waiters();
        }
    }
}
