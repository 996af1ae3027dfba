//! A console session's CPU: with `server.cpus` > 0 its statements take their cores
//! from the run queue the workload's threads use (`sim/cpu.rs`), as a connection
//! thread does on the server: the statement's parse, optimise and execute
//! (`workload.statement_cpu_us`, the same per statement as the workload's), and the
//! rows' work in bursts of [`SESSION_CPU_SLICE`] (an online schema-change tool's copy
//! chunks compete with the load; they do not run beside it for free).
//!
//! ```text
//!   statement ─ session_cpu(work) ─▶ core free? ─ yes ─▶ burst ─▶ next step: session_cpu_done
//!                                        │ no                          ▲
//!                                        └──▶ run queue ─── a core ────┘
//! ```
//!
//! With `server.cpus = 0` (no CPU contention modelled) the same work is a delay, as
//! before: the 50 µs of [`STATEMENT_OVERHEAD`] and the rows' work at once.

use super::{Running, STATEMENT_OVERHEAD};
use crate::sim::catalog::TableId;
use crate::sim::{Next, Sim};
use crate::time::Tick;
use crate::ThreadId;

/// A burst of a statement's row work: about a workload statement's length, so the run
/// queue shares the cores much as the kernel's scheduler would (the index build's
/// slice, `sim/alter.rs`).
pub(super) const SESSION_CPU_SLICE: Tick = Tick::from_us(500);

impl Sim {
    /// A statement's CPU besides its rows: the fixed overhead without contention, the
    /// workload's per-statement CPU on a core with it.
    pub(super) fn statement_cpu(&self) -> Tick {
        if self.cpu.limited() {
            Tick::from_us(self.scenario.workload.statement_cpu_us)
        } else {
            STATEMENT_OVERHEAD
        }
    }

    /// One row inserted into `table`: its clustered-index record and an entry in each
    /// secondary index, dearer by the key's bytes (`row_ins_sec_index_entry()`
    /// compares the key at every level of the descent). The key is taken as its
    /// first column.
    pub(in crate::sim) fn insert_row_cpu(&self, table: TableId) -> Tick {
        let c = &self.profile.costs;
        let entry = &self.catalog[table];
        let secondary: u64 = entry
            .def
            .indexes
            .iter()
            .map(|ix| {
                let key = entry.table.column(&ix.column).map_or(0, |col| col.bytes);
                c.sec_index_insert_ns + c.sec_index_key_byte_ns * key
            })
            .sum();
        Tick(c.row_insert_ns_per_row + secondary)
    }

    /// `rows` of the statement's changed rows were inserted into `table`: their CPU
    /// is charged with the rows' work instead of a changed row's.
    pub(super) fn note_inserted(&self, run: &mut Running, table: TableId, rows: u64) {
        run.rows_inserted += rows;
        run.insert_cpu += self.insert_row_cpu(table).times(rows);
    }

    /// Runs `work` of session `id`'s CPU on thread `t`: a delay without contention, a
    /// burst from the run queue with it (the next step calls
    /// [`Sim::session_cpu_done`]).
    pub(super) fn session_cpu(&mut self, t: ThreadId, id: u32, work: Tick) -> Next {
        if !self.cpu.limited() {
            return Next::After(work);
        }
        if let Some(s) = self.sql.sessions.get_mut(&id) {
            s.on_cpu = true;
        }
        self.cpu_run(t, work)
    }

    /// The session's burst ended (if it had one): its core goes to the run queue's head.
    pub(super) fn session_cpu_done(&mut self, id: u32) {
        let Some(s) = self.sql.sessions.get_mut(&id) else {
            return;
        };
        if std::mem::take(&mut s.on_cpu) {
            self.cpu_done();
        }
    }
}
