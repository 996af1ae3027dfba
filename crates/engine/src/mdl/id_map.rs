//! [`IdMap`]: the manager's map of granted tickets, a `Vec` sorted by id.
//!
//! Ticket ids are handed out in increasing order, so a new ticket always goes at the
//! end (a push), and the few dozen live at once are found by a binary search over
//! contiguous memory. A workload grants and releases a ticket or two a statement; a
//! `BTreeMap` spent more on its nodes than the rest of the grant. A released ticket
//! leaves a hole where it was (closing it would move every later entry, most of the
//! release's cost); the holes are squeezed out once they are half the entries. The
//! order of iteration is the ids' order, as a `BTreeMap`'s would be.
//!
//! Entries pushed since the last squeeze are consecutive ids (a removal leaves its
//! hole in place), so a lookup first tries the place an id would have counting back
//! from the last one: the tickets a statement looks up are its own, the newest. Only
//! an id from before the last squeeze needs the binary search.

use super::types::MdlTicketId;
use std::ops::Index;

/// Holes tolerated whatever the number of entries: a few dozen tickets live at once.
const MIN_HOLES_TO_COMPACT: usize = 32;

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

    /// Drops the holes at the end, and all of them once they are half the entries.
    fn trim_holes(&mut self) {
        while self.entries.last().is_some_and(|(_, v)| v.is_none()) {
            self.entries.pop();
            self.holes -= 1;
        }
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
    use super::{IdMap, SeqId};

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
        let mut m = IdMap::default();
        for id in 0u64..100 {
            m.insert(id, id);
        }
        for id in 0u64..60 {
            assert_eq!(m.remove(&id), Some(id));
        }
        assert_eq!(m.len(), 40);
        assert!(m.entries.len() < 100, "compacted");
        assert_eq!(m.remove(&99), Some(99));
        assert_eq!(
            m.entries.last().map(|e| e.0),
            Some(98),
            "a hole at the end goes"
        );
        assert_eq!(m.insert(70, 7), Some(70));
        assert_eq!(m.remove(&70), Some(7));
        assert_eq!(m.get(&70), None);
        assert_eq!(m.insert(70, 8), None);
        assert_eq!(m[&70], 8);
        assert_eq!(m.len(), 39);
    }
}
