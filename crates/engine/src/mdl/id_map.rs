//! [`IdMap`]: the manager's map of granted tickets, a `Vec` sorted by id.
//!
//! Ticket ids are handed out in increasing order, so a new ticket always goes at the
//! end (a push), and the few dozen live at once are found by a binary search over
//! contiguous memory. A workload grants and releases a ticket or two a statement; a
//! `BTreeMap` spent more on its nodes than the rest of the grant. A released ticket
//! leaves a hole where it was (closing it would move every later entry, most of the
//! release's cost); the holes are squeezed out once they are half the entries and a
//! thousand or more. The order of iteration is the ids' order, as a `BTreeMap`'s
//! would be.
//!
//! Entries pushed since the last squeeze are consecutive ids (a removal leaves its
//! hole in place, even at the end), so a lookup first tries the place an id would have counting back
//! from the last one: the tickets a statement looks up are its own, the newest. Only
//! an id from before the last squeeze needs the binary search, which is why squeezes
//! wait for many holes: a busy workload's few dozen live tickets, spread over a
//! window of a few hundred ids, never need one.

use super::types::MdlTicketId;
use std::ops::Index;

/// Holes tolerated whatever the number of entries: a few dozen tickets live at once,
/// their ids spread over a few hundred (16 KiB of entries per thousand holes).
const MIN_HOLES_TO_COMPACT: usize = 1024;

/// An id handed out in increasing order: its number, for [`IdMap`]'s guess of where
/// it is.
pub(super) trait SeqId: Ord + Copy {
    /// The id as a number; ids compare as their numbers do.
    fn seq(self) -> u64;
}

impl SeqId for MdlTicketId {
    #[inline]
    fn seq(self) -> u64 {
        self.0
    }
}

/// A map from ids to values, kept as a `Vec` sorted by id: an insert of a new largest
/// id is a push, a removal leaves a hole.
#[derive(Clone, Debug)]
pub(super) struct IdMap<K, V> {
    /// Sorted by id; `None` is a released entry's hole.
    entries: Vec<(K, Option<V>)>,
    holes: usize,
}

impl<K, V> Default for IdMap<K, V> {
    fn default() -> IdMap<K, V> {
        IdMap {
            entries: Vec::new(),
            holes: 0,
        }
    }
}

impl<K: SeqId, V> IdMap<K, V> {
    #[inline]
    fn position(&self, id: K) -> Result<usize, usize> {
        let n = self.entries.len();
        if let Some(&(last, _)) = self.entries.last() {
            // Where `id` is if nothing was squeezed out since it was pushed.
            let back = last.seq().wrapping_sub(id.seq());
            if back < n as u64 {
                let i = n - 1 - back as usize;
                if self.entries[i].0 == id {
                    return Ok(i);
                }
            }
        }
        self.entries.binary_search_by(|(k, _)| k.cmp(&id))
    }

    /// Inserts `value` under `id` (into its hole, if it had one), returning the value
    /// it replaces.
    pub(super) fn insert(&mut self, id: K, value: V) -> Option<V> {
        if self.entries.last().is_none_or(|(last, _)| *last < id) {
            self.entries.push((id, Some(value)));
            return None;
        }
        match self.position(id) {
            Ok(i) => {
                let old = self.entries[i].1.replace(value);
                if old.is_none() {
                    self.holes -= 1;
                }
                old
            }
            Err(i) => {
                self.entries.insert(i, (id, Some(value)));
                None
            }
        }
    }

    /// Takes the value under `id` out, leaving a hole.
    pub(super) fn remove(&mut self, id: &K) -> Option<V> {
        let i = self.position(*id).ok()?;
        let value = self.entries[i].1.take()?;
        self.holes += 1;
        self.trim_holes();
        Some(value)
    }

    /// Squeezes the holes out once they are half the entries (and many). A hole at the
    /// end stays too, so that the entries since the last squeeze stay consecutive ids.
    fn trim_holes(&mut self) {
        if self.holes >= MIN_HOLES_TO_COMPACT && self.holes * 2 >= self.entries.len() {
            self.entries.retain(|(_, v)| v.is_some());
            self.holes = 0;
        }
    }

    /// The value under `id`.
    pub(super) fn get(&self, id: &K) -> Option<&V> {
        let i = self.position(*id).ok()?;
        self.entries[i].1.as_ref()
    }

    /// The value under `id`, to change.
    pub(super) fn get_mut(&mut self, id: &K) -> Option<&mut V> {
        let i = self.position(*id).ok()?;
        self.entries[i].1.as_mut()
    }

    /// How many ids have a value.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.entries.len() - self.holes
    }
}

impl<K: SeqId + std::fmt::Debug, V> Index<&K> for IdMap<K, V> {
    type Output = V;

    fn index(&self, id: &K) -> &V {
        self.get(id)
            .unwrap_or_else(|| panic!("no entry for {id:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::{IdMap, SeqId, MIN_HOLES_TO_COMPACT};

    impl SeqId for u64 {
        fn seq(self) -> u64 {
            self
        }
    }

    #[test]
    fn keeps_ids_in_order_whatever_the_order_of_inserts() {
        let mut m = IdMap::default();
        for id in [3u64, 5, 8] {
            assert_eq!(m.insert(id, id * 10), None);
        }
        assert_eq!(m.insert(4, 40), None);
        assert_eq!(m.insert(5, 51), Some(50));
        assert_eq!(m.remove(&3), Some(30));
        assert_eq!(m.remove(&3), None);
        assert_eq!(m.get(&4), Some(&40));
        *m.get_mut(&8).unwrap() += 1;
        assert_eq!(m[&8], 81);
        assert_eq!(m.len(), 3);
        assert_eq!(
            m.entries,
            vec![(3, None), (4, Some(40)), (5, Some(51)), (8, Some(81))]
        );
    }

    #[test]
    fn holes_are_squeezed_out_and_a_hole_takes_its_id_back() {
        let n = 2 * MIN_HOLES_TO_COMPACT as u64 + 100;
        let mut m = IdMap::default();
        for id in 0..n {
            m.insert(id, id);
        }
        // Removing the first half and more squeezes the holes out once.
        for id in 0..n - 40 {
            assert_eq!(m.remove(&id), Some(id));
        }
        assert_eq!(m.len(), 40);
        assert!((m.entries.len() as u64) < n, "compacted");
        // Found after the squeeze (binary search) as before it (the guess).
        assert_eq!(m.get(&(n - 40)), Some(&(n - 40)));
        assert_eq!(m.remove(&(n - 1)), Some(n - 1));
        assert_eq!(
            m.entries.last(),
            Some(&(n - 1, None)),
            "a hole at the end stays"
        );
        assert_eq!(m.get(&(n - 2)), Some(&(n - 2)));
        let id = n - 30;
        assert_eq!(m.insert(id, 7), Some(id));
        assert_eq!(m.remove(&id), Some(7));
        assert_eq!(m.get(&id), None);
        assert_eq!(m.insert(id, 8), None);
        assert_eq!(m[&id], 8);
        assert_eq!(m.len(), 39);
    }
}
