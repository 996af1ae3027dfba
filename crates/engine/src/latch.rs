//! Internal latches: the server's mutexes, as simulated mutexes with an owner and a FIFO
//! of waiters.
//!
//! A latch here is what InnoDB calls a mutex (`buf_pool->mutex`, `dict_sys->mutex`,
//! `fil_system->mutex`) or what the SQL layer calls `LOCK_open`. Acquisition is
//! explicit: a simulated thread asks, and either holds the latch at once or is parked
//! in the latch's queue. Release hands the latch straight to the first waiter, which the
//! scheduler then wakes at the same instant.
//!
//! Simplification: real mutexes spin and then sleep on an OS event, so the waker order
//! is not strictly FIFO; FIFO is the fair and easily explained approximation.

use crate::time::Tick;
use crate::ThreadId;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt;

/// Which latch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "latch", content = "instance")]
pub enum LatchId {
    /// The SQL layer's global table-cache mutex (5.1 holds it across the whole drop).
    LockOpen,
    /// InnoDB's global dictionary mutex (`dict_sys->mutex`).
    DictSys,
    /// One buffer-pool instance's mutex (5.7 `buf_pool->mutex`; 8.0 `LRU_list_mutex`).
    BufPool(u16),
    /// The tablespace-memory-cache mutex (`fil_system->mutex`).
    FilSys,
}

impl fmt::Display for LatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LatchId::LockOpen => f.write_str("LOCK_open"),
            LatchId::DictSys => f.write_str("dict_sys"),
            LatchId::BufPool(i) => write!(f, "buf_pool[{i}]"),
            LatchId::FilSys => f.write_str("fil_sys"),
        }
    }
}

/// One simulated mutex.
#[derive(Clone, Debug)]
pub struct Latch {
    /// Which latch this is.
    pub id: LatchId,
    holder: Option<ThreadId>,
    held_since: Tick,
    waiters: VecDeque<ThreadId>,
    /// Total virtual time threads spent waiting for this latch, ended waits only.
    pub wait_time: Tick,
    /// Number of acquisitions that had to wait.
    pub contended: u64,
    wait_started: Vec<(ThreadId, Tick)>,
}

/// What [`Latch::release`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Released {
    /// When the releasing thread took the latch.
    pub held_since: Tick,
    /// The waiter that now holds the latch, to be woken by the scheduler.
    pub next_holder: Option<ThreadId>,
}

impl Latch {
    /// A free latch.
    pub fn new(id: LatchId) -> Latch {
        Latch {
            id,
            holder: None,
            held_since: Tick::ZERO,
            waiters: VecDeque::new(),
            wait_time: Tick::ZERO,
            contended: 0,
            wait_started: Vec::new(),
        }
    }

    /// Takes the latch for `thread` if it is free (or already `thread`'s, after a
    /// hand-over); otherwise queues `thread` once and returns false.
    pub fn try_acquire(&mut self, thread: ThreadId, now: Tick) -> bool {
        match self.holder {
            None => {
                self.holder = Some(thread);
                self.held_since = now;
                true
            }
            Some(h) if h == thread => true,
            Some(_) => {
                if !self.waiters.contains(&thread) {
                    self.waiters.push_back(thread);
                    self.wait_started.push((thread, now));
                    self.contended += 1;
                }
                false
            }
        }
    }

    /// Takes a free latch and lets it go at the same instant, as [`Latch::try_acquire`]
    /// then [`Latch::release`] would: true if it was free (nobody holds a latch that
    /// has waiters, so none is handed over); false, changing nothing, if it is held.
    #[inline]
    pub fn pass_if_free(&mut self, now: Tick) -> bool {
        if self.holder.is_some() {
            return false;
        }
        debug_assert!(self.waiters.is_empty(), "{} free with waiters", self.id);
        self.held_since = now;
        true
    }

    /// Releases the latch held by `thread` and hands it to the first waiter.
    pub fn release(&mut self, thread: ThreadId, now: Tick) -> Released {
        assert_eq!(
            self.holder,
            Some(thread),
            "{} released by a thread that does not hold it",
            self.id
        );
        let held_since = self.held_since;
        let next = self.waiters.pop_front();
        self.holder = next;
        self.held_since = now;
        if let Some(n) = next {
            if let Some(pos) = self.wait_started.iter().position(|(t, _)| *t == n) {
                let (_, since) = self.wait_started.swap_remove(pos);
                self.wait_time += now - since;
            }
        }
        Released {
            held_since,
            next_holder: next,
        }
    }

    /// The thread holding the latch.
    pub fn holder(&self) -> Option<ThreadId> {
        self.holder
    }

    /// Threads queued for the latch, first to be served first.
    pub fn waiters(&self) -> impl Iterator<Item = ThreadId> + '_ {
        self.waiters.iter().copied()
    }

    /// How many threads are queued.
    pub fn waiter_count(&self) -> usize {
        self.waiters.len()
    }

    /// Since when the current holder has held the latch.
    pub fn held_since(&self) -> Option<Tick> {
        self.holder.map(|_| self.held_since)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_hands_over_in_fifo_order_and_counts_wait_time() {
        let mut l = Latch::new(LatchId::DictSys);
        let (a, b, c) = (ThreadId(1), ThreadId(2), ThreadId(3));
        assert!(l.try_acquire(a, Tick(0)));
        assert!(!l.try_acquire(b, Tick(10)));
        assert!(!l.try_acquire(c, Tick(20)));
        assert!(
            !l.try_acquire(b, Tick(25)),
            "asking twice does not queue twice"
        );
        assert_eq!(l.waiter_count(), 2);
        let r = l.release(a, Tick(100));
        assert_eq!(
            r,
            Released {
                held_since: Tick(0),
                next_holder: Some(b)
            }
        );
        assert!(
            l.try_acquire(b, Tick(100)),
            "the woken waiter already holds it"
        );
        assert_eq!(l.wait_time, Tick(90));
        let r = l.release(b, Tick(150));
        assert_eq!(r.next_holder, Some(c));
        assert_eq!(l.wait_time, Tick(90 + 130));
        assert_eq!(l.release(c, Tick(151)).next_holder, None);
        assert_eq!(l.holder(), None);
    }

    #[test]
    #[should_panic(expected = "released by a thread that does not hold it")]
    fn releasing_someone_elses_latch_is_a_bug() {
        let mut l = Latch::new(LatchId::FilSys);
        assert!(l.try_acquire(ThreadId(1), Tick(0)));
        l.release(ThreadId(2), Tick(1));
    }
}
