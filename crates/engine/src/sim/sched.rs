//! The scheduler: the virtual clock, the wake-up queue and the simulated threads.
//!
//! ```text
//!   queue: (tick, seq, wake) ──pop──▶ step the thread ──▶ Next::After(d) ─▶ re-queue at now+d
//!                                          │                Next::Parked  ─▶ a latch queue
//!                                          ▼                Next::Exit
//! ```
//!
//! Ties at the same tick run in the order they were scheduled (`seq`). A thread whose
//! next step would be the next wake anyway runs it at once (`runs_next`, used by
//! `Sim::step_thread`), which is the same order without the queue's push and pop; one that
//! is not goes on the queue as the next wake comes off it (`reschedule_then_pop`). A thread woken
//! early (a latch handed to it, a signal) gets a new generation; the wake it was
//! sleeping on is then stale and dropped when it comes up.

use super::Thread;
use crate::time::Tick;
use crate::ThreadId;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What wakes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Wake {
    Sample,
    Script(u32),
    /// A metadata-lock request's `lock_wait_timeout` deadline.
    MdlTimeout,
    /// A row-lock wait's `innodb_lock_wait_timeout` deadline, for this session.
    RowLockTimeout(u32),
    /// A thread, with the generation it was scheduled under: a wake whose generation is
    /// stale (the thread was woken early since) is dropped.
    Thread(ThreadId, u32),
}

/// What a step asks of the scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// Run the next step after this much virtual time.
    After(Tick),
    /// Parked in a latch queue; the release that hands it the latch wakes it.
    Parked,
    /// The thread is finished.
    Exit,
}

/// A queued wake: `(at, seq)` packed into one `u128` (`at` in the high half), so that
/// the heap orders its entries with one comparison; `seq` is unique, so the wake itself
/// never breaks a tie.
#[derive(Clone, Copy, Debug)]
struct Queued {
    key: u128,
    wake: Wake,
}

impl Queued {
    fn new(at: Tick, seq: u64, wake: Wake) -> Queued {
        Queued {
            key: (u128::from(at.0) << 64) | u128::from(seq),
            wake,
        }
    }

    /// When it is due.
    fn at(&self) -> Tick {
        Tick((self.key >> 64) as u64)
    }
}

/// Reversed, so that the max-heap pops the earliest `(at, seq)` first.
impl Ord for Queued {
    fn cmp(&self, other: &Queued) -> Ordering {
        other.key.cmp(&self.key)
    }
}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Queued) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Queued {
    fn eq(&self, other: &Queued) -> bool {
        self.key == other.key
    }
}

impl Eq for Queued {}

/// The clock, the queue of wake-ups and the threads they wake.
#[derive(Clone, Debug, Default)]
pub(super) struct Scheduler {
    /// Virtual now.
    pub(super) now: Tick,
    seq: u64,
    queue: BinaryHeap<Queued>,
    /// Every thread ever spawned, by id (`Thread::Exited` once done).
    pub(super) threads: Vec<Thread>,
    thread_gen: Vec<u32>,
}

impl Scheduler {
    /// Adds a thread; it runs once scheduled.
    pub(super) fn spawn(&mut self, t: Thread) -> ThreadId {
        self.threads.push(t);
        self.thread_gen.push(0);
        ThreadId(self.threads.len() as u32 - 1)
    }

    /// Queues `wake` at `at`.
    pub(super) fn schedule(&mut self, at: Tick, wake: Wake) {
        self.seq += 1;
        self.queue.push(Queued::new(at, self.seq, wake));
    }

    /// Queues thread `t`'s next step at `at`.
    pub(super) fn schedule_thread(&mut self, at: Tick, t: ThreadId) {
        let gen = self.thread_gen[t.0 as usize];
        self.schedule(at, Wake::Thread(t, gen));
    }

    /// Wakes a sleeping thread now, dropping its pending wake.
    pub(super) fn wake_early(&mut self, t: ThreadId) {
        self.thread_gen[t.0 as usize] = self.thread_gen[t.0 as usize].wrapping_add(1);
        let now = self.now;
        self.schedule_thread(now, t);
    }

    /// The next wake due at or before `until`, taken off the queue, with the clock set
    /// to it; a thread's stale wake is passed over.
    pub(super) fn pop_due(&mut self, until: Tick) -> Option<Wake> {
        while let Some(first) = self.queue.peek() {
            if first.at() > until {
                return None;
            }
            let q = self.queue.pop()?;
            self.now = q.at();
            let wake = q.wake;
            match wake {
                Wake::Thread(t, gen) if self.thread_gen[t.0 as usize] != gen => continue,
                _ => return Some(wake),
            }
        }
        None
    }

    /// [`Scheduler::schedule_thread`] then [`Scheduler::pop_due`], for a thread whose
    /// next step at `at` is not the next wake ([`Scheduler::runs_next`] said no): the
    /// first wake, if due, comes off the queue as the thread's goes on, one sift of the
    /// heap instead of two. The wakes come off in the same order: keys are unique.
    pub(super) fn reschedule_then_pop(
        &mut self,
        at: Tick,
        t: ThreadId,
        until: Tick,
    ) -> Option<Wake> {
        let gen = self.thread_gen[t.0 as usize];
        self.seq += 1;
        let queued = Queued::new(at, self.seq, Wake::Thread(t, gen));
        if self.queue.peek().is_none_or(|first| first.at() > until) {
            self.queue.push(queued);
            return None;
        }
        let mut first = self.queue.peek_mut()?;
        // Due by `until` and not after `at` (else the thread's step would run next),
        // and queued before it: it goes first.
        debug_assert!(first.key < queued.key);
        let due = std::mem::replace(&mut *first, queued);
        drop(first);
        self.now = due.at();
        match due.wake {
            Wake::Thread(t, gen) if self.thread_gen[t.0 as usize] != gen => self.pop_due(until),
            wake => Some(wake),
        }
    }

    /// Whether a wake queued now at `at` would be the next one [`Scheduler::pop_due`]
    /// returns before `until` passes: due by `until`, and strictly before everything
    /// queued (a wake already queued at `at` was queued first, so it goes first). The
    /// caller may then run it at once instead of queueing it: the order of every step
    /// is the same, and `seq` only orders wakes against each other.
    pub(super) fn runs_next(&self, at: Tick, until: Tick) -> bool {
        at <= until && self.queue.peek().is_none_or(|first| first.at() > at)
    }

    /// Whether a step that continues at once ([`Next::After`] zero) runs before anything
    /// else: nothing else is queued for now ([`Scheduler::runs_next`] at `now`, which is
    /// never past `until` while a step runs).
    pub(super) fn runs_now(&self) -> bool {
        self.queue.peek().is_none_or(|first| first.at() > self.now)
    }

    /// Every live wake still queued (stale thread wakes left out), in no order: what
    /// the invariant checks look through for a waiter's wake-up or deadline.
    #[cfg(test)]
    pub(super) fn pending(&self) -> impl Iterator<Item = (Tick, Wake)> + '_ {
        self.queue
            .iter()
            .map(|q| (q.at(), q.wake))
            .filter(|(_, wake)| match wake {
                Wake::Thread(t, gen) => self.thread_gen[t.0 as usize] == *gen,
                _ => true,
            })
    }

    /// When the next wake is due, if any.
    pub(super) fn next_wake(&self) -> Option<Tick> {
        self.queue.peek().map(Queued::at)
    }
}
