//! [`IdMap`]: the manager's map of granted tickets, a `Vec` sorted by id.
//!
//! Ticket ids are handed out in increasing order, so a new ticket always goes at the
//! end (a push), and the few dozen live at once are found by a binary search over
//! contiguous memory. A workload grants and releases a ticket or two a statement; a
//! `BTreeMap` spent more on its nodes than the rest of the grant. The order of
//! iteration is the ids' order, as a `BTreeMap`'s would be.

use std::ops::Index;

/// A map from ids to values, kept as a `Vec` sorted by id: an insert of a new largest
/// id is a push, a removal shifts the younger entries down.
#[derive(Clone, Debug)]
pub(super) struct IdMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for IdMap<K, V> {
    fn default() -> IdMap<K, V> {
        IdMap {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord + Copy, V> IdMap<K, V> {
    fn position(&self, id: K) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.cmp(&id))
    }

    /// Inserts `value` under `id`, returning the value it replaces.
    pub(super) fn insert(&mut self, id: K, value: V) -> Option<V> {
        if self.entries.last().is_none_or(|(last, _)| *last < id) {
            self.entries.push((id, value));
            return None;
        }
        match self.position(id) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (id, value));
                None
            }
        }
    }

    /// Takes the value under `id` out.
    pub(super) fn remove(&mut self, id: &K) -> Option<V> {
        let i = self.position(*id).ok()?;
        Some(self.entries.remove(i).1)
    }

    /// The value under `id`.
    pub(super) fn get(&self, id: &K) -> Option<&V> {
        let i = self.position(*id).ok()?;
        Some(&self.entries[i].1)
    }

    /// The value under `id`, to change.
    pub(super) fn get_mut(&mut self, id: &K) -> Option<&mut V> {
        let i = self.position(*id).ok()?;
        Some(&mut self.entries[i].1)
    }

    /// How many ids have a value.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }
}

impl<K: Ord + Copy + std::fmt::Debug, V> Index<&K> for IdMap<K, V> {
    type Output = V;

    fn index(&self, id: &K) -> &V {
        self.get(id)
            .unwrap_or_else(|| panic!("no entry for {id:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::IdMap;

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
        assert_eq!(m.entries, vec![(4, 40), (5, 51), (8, 81)]);
    }
}
