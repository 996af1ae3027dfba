//! The server's processors: `server.cpus` cores and one run queue.
//!
//! ```text
//!   thread ── cpu_run(work) ──▶ a core is free? ── yes ─▶ runs `work`, next step at now+work
//!                                   │ no                       │ (that step calls cpu_done)
//!                                   ▼                          ▼
//!                              run queue (FIFO) ◀─────── cpu_done: the core takes the
//!                                                         queue's head, which runs its work
//! ```
//!
//! Every CPU burst of a simulated thread (a statement's parse/optimise/execute, the
//! records it parses, a DDL's scan or sort of a batch of rows) asks for a core. With
//! fewer cores than runnable threads the bursts queue, which is what makes a CPU-bound
//! server's latency grow with threads and a DDL thread take its share from the workload.
//!
//! Simplification: a burst runs to completion on its core (no preemption). DDL threads
//! cut their work into bursts of about a statement's length, so the run queue shares the
//! cores between threads much as the kernel's fair scheduler would; `server.cpus = 0`
//! means as many cores as threads (no CPU contention modelled).

use super::{Next, Sim};
use crate::time::Tick;
use crate::ThreadId;
use std::collections::VecDeque;

/// The cores and their run queue.
#[derive(Clone, Debug, Default)]
pub(super) struct Cpu {
    /// Cores; 0 = unlimited.
    cores: u32,
    /// Bursts running now.
    running: u32,
    /// Threads waiting for a core, with the work each will run.
    queue: VecDeque<(ThreadId, Tick)>,
    /// Core time used so far (for utilisation).
    pub(super) busy: Tick,
}

impl Cpu {
    pub(super) fn new(cores: u32) -> Cpu {
        Cpu {
            cores,
            ..Cpu::default()
        }
    }

    /// Whether the cores are contended: `server.cpus` > 0.
    pub(super) fn limited(&self) -> bool {
        self.cores > 0
    }

    /// Threads waiting for a core.
    pub(super) fn queued(&self) -> usize {
        self.queue.len()
    }
}

impl Sim {
    /// Runs `work` of CPU for thread `t`: at once if a core is free, else after the
    /// bursts queued before it. Either way the thread's next step runs when the burst
    /// ends, and must call [`Sim::cpu_done`] first.
    pub(super) fn cpu_run(&mut self, t: ThreadId, work: Tick) -> Next {
        self.cpu.busy += work;
        if self.cpu.cores == 0 || self.cpu.running < self.cpu.cores {
            self.cpu.running += 1;
            return Next::After(work);
        }
        self.cpu.queue.push_back((t, work));
        Next::Parked
    }

    /// The burst that just ended frees its core for the head of the run queue.
    pub(super) fn cpu_done(&mut self) {
        debug_assert!(self.cpu.running > 0, "cpu_done without a running burst");
        self.cpu.running -= 1;
        if let Some((next, work)) = self.cpu.queue.pop_front() {
            self.cpu.running += 1;
            let at = self.sched.now + work;
            self.sched.schedule_thread(at, next);
        }
    }
}
