//! The primary-key values a table holds, so that an INSERT of a value that is there
//! fails with 1062 (`row_ins_duplicate_error_in_clust()`), and the undo of the key
//! changes a transaction made, so that a rollback puts them back.
//!
//! Rows are otherwise counts and positions (`dml.rs`); only the key values are kept,
//! as sorted intervals: a sysbench table of a billion rows is one interval, and each
//! INSERT or DELETE of a single value splits or joins at most one.
//!
//! The set is the clustered index's latest state, as InnoDB's B-tree is: a row
//! another open transaction inserted is in it (under that transaction's implicit
//! lock), a row it deleted is not (delete-marked, under its lock). Who waits for
//! whom is the row locks' business (`locks.rs`): the inserter and the deleter hold
//! exclusive locks on the row's position until they end.

/// The key values present: sorted, disjoint, non-adjacent inclusive intervals, and
/// the next auto-increment value (`dict_table_t::autoinc`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::sim) struct KeySet {
    spans: Vec<(i64, i64)>,
    /// The next value an INSERT that gives none takes.
    next_auto: i64,
}

/// A change to a table's keys that a rollback undoes (`trx_undo_rec_t`'s
/// `TRX_UNDO_INSERT_REC` / `TRX_UNDO_DEL_MARK_REC`, as far as keys go).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) enum KeyUndo {
    /// This value was inserted: a rollback removes it.
    Inserted(i64),
    /// These intervals were deleted: a rollback puts them back.
    Deleted(Vec<(i64, i64)>),
    /// These intervals were inserted (an INSERT ... SELECT, a trigger's writes): a
    /// rollback removes them.
    InsertedSpans(Vec<(i64, i64)>),
}

impl KeySet {
    /// The values `lo..=hi` (none when `hi < lo`), auto-increment from `hi + 1`.
    pub(in crate::sim) fn span(lo: i64, hi: i64) -> KeySet {
        KeySet {
            spans: if hi >= lo { vec![(lo, hi)] } else { Vec::new() },
            next_auto: hi.max(0) + 1,
        }
    }

    /// Values `1..=rows`: a sysbench table as `sysbench prepare` (or the conformance
    /// run's `INSERT ... SELECT seq FROM seq_1_to_N`) leaves it.
    pub(in crate::sim) fn ids(rows: u64) -> KeySet {
        KeySet::span(1, i64::try_from(rows).unwrap_or(i64::MAX))
    }

    /// How many values.
    #[cfg(test)]
    pub(in crate::sim) fn len(&self) -> u64 {
        self.spans
            .iter()
            .map(|&(a, b)| (b.abs_diff(a)).saturating_add(1))
            .fold(0u64, u64::saturating_add)
    }

    /// Whether `k` is there.
    pub(in crate::sim) fn contains(&self, k: i64) -> bool {
        let i = self.spans.partition_point(|&(_, hi)| hi < k);
        self.spans.get(i).is_some_and(|&(lo, _)| lo <= k)
    }

    /// The value an INSERT that gives none takes, at least `floor` (the next appended
    /// row's value), and the counter moves past it (`row_ins()`'s autoinc: a rolled
    /// back value is not given again).
    pub(in crate::sim) fn take_auto(&mut self, floor: i64) -> i64 {
        let k = self.next_auto.max(floor);
        self.next_auto = k.saturating_add(1);
        k
    }

    /// An explicit value `k` moves the counter past it
    /// (`ha_innobase::write_row()` → `update_auto_increment()`).
    pub(in crate::sim) fn note_explicit(&mut self, k: i64) {
        if k >= self.next_auto {
            self.next_auto = k.saturating_add(1);
        }
    }

    /// Adds the values `lo..=hi`.
    pub(in crate::sim) fn add(&mut self, lo: i64, hi: i64) {
        if hi < lo {
            return;
        }
        // The spans that touch or overlap [lo, hi] merge with it.
        let first = self
            .spans
            .partition_point(|&(_, b)| b < lo.saturating_sub(1));
        let last = self
            .spans
            .partition_point(|&(a, _)| a <= hi.saturating_add(1));
        let (mut a, mut b) = (lo, hi);
        if first < last {
            a = a.min(self.spans[first].0);
            b = b.max(self.spans[last - 1].1);
        }
        self.spans.splice(first..last, [(a, b)]);
    }

    /// Removes the values `lo..=hi` and returns the intervals that were there.
    pub(in crate::sim) fn remove(&mut self, lo: i64, hi: i64) -> Vec<(i64, i64)> {
        if hi < lo {
            return Vec::new();
        }
        let first = self.spans.partition_point(|&(_, b)| b < lo);
        let last = self.spans.partition_point(|&(a, _)| a <= hi);
        if first >= last {
            return Vec::new();
        }
        let mut removed = Vec::with_capacity(last - first);
        let mut kept = Vec::with_capacity(2);
        for &(a, b) in &self.spans[first..last] {
            removed.push((a.max(lo), b.min(hi)));
            if a < lo {
                kept.push((a, lo - 1));
            }
            if b > hi {
                kept.push((hi + 1, b));
            }
        }
        self.spans.splice(first..last, kept);
        removed
    }

    /// The intervals of the values in `lo..=hi`, the first `limit` of them in key
    /// order (a search of the clustered index that stops after `limit` rows).
    pub(in crate::sim) fn within(&self, lo: i64, hi: i64, limit: Option<u64>) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        let mut left = limit.unwrap_or(u64::MAX);
        let first = self.spans.partition_point(|&(_, b)| b < lo);
        for &(a, b) in &self.spans[first..] {
            if a > hi || left == 0 {
                break;
            }
            let (a, b) = (a.max(lo), b.min(hi));
            let len = b.abs_diff(a).saturating_add(1);
            if len <= left {
                out.push((a, b));
                left -= len;
            } else {
                out.push((a, a.saturating_add_unsigned(left - 1)));
                left = 0;
            }
        }
        out
    }

    /// Applies the undo of one change.
    pub(in crate::sim) fn undo(&mut self, u: &KeyUndo) {
        match u {
            KeyUndo::Inserted(k) => {
                self.remove(*k, *k);
            }
            KeyUndo::Deleted(spans) => {
                for &(a, b) in spans {
                    self.add(a, b);
                }
            }
            KeyUndo::InsertedSpans(spans) => {
                for &(a, b) in spans {
                    self.remove(a, b);
                }
            }
        }
    }

    /// The values of `spans` (sorted, disjoint) that are there.
    pub(in crate::sim) fn present(&self, spans: &[(i64, i64)]) -> Vec<(i64, i64)> {
        spans
            .iter()
            .flat_map(|&(a, b)| self.within(a, b, None))
            .collect()
    }

    /// The intervals, for tests and the invariant check.
    #[cfg(test)]
    pub(in crate::sim) fn spans(&self) -> &[(i64, i64)] {
        &self.spans
    }

    /// The largest value, if any (`SELECT MAX(id)`).
    pub(in crate::sim) fn max(&self) -> Option<i64> {
        self.spans.last().map(|s| s.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_split_and_join() {
        let mut k = KeySet::ids(1000);
        assert!(k.contains(1) && k.contains(1000) && !k.contains(0) && !k.contains(1001));
        assert_eq!(k.remove(500, 500), vec![(500, 500)]);
        assert_eq!(k.spans(), &[(1, 499), (501, 1000)]);
        assert!(!k.contains(500));
        k.add(5001, 5001);
        assert_eq!(k.spans(), &[(1, 499), (501, 1000), (5001, 5001)]);
        k.add(500, 500);
        assert_eq!(k.spans(), &[(1, 1000), (5001, 5001)]);
        assert_eq!(k.len(), 1001);
        assert_eq!(k.remove(990, 6000), vec![(990, 1000), (5001, 5001)]);
        assert_eq!(k.spans(), &[(1, 989)]);
        assert_eq!(k.within(i64::MIN, i64::MAX, Some(3)), vec![(1, 3)]);
        assert_eq!(k.within(5, 100, None), vec![(5, 100)]);
        assert_eq!(k.within(985, 2000, Some(10)), vec![(985, 989)]);
        k.undo(&KeyUndo::Deleted(vec![(990, 1000), (5001, 5001)]));
        assert_eq!(k.spans(), &[(1, 1000), (5001, 5001)]);
        k.undo(&KeyUndo::Inserted(5001));
        assert_eq!(k.spans(), &[(1, 1000)]);
        assert_eq!(k.present(&[(990, 1010), (2000, 2001)]), vec![(990, 1000)]);
        k.add(2000, 2005);
        k.undo(&KeyUndo::InsertedSpans(vec![(2000, 2005)]));
        assert_eq!(k.spans(), &[(1, 1000)]);
        assert_eq!(k.remove(2000, 3000), vec![]);
        k.add(1002, 1003);
        k.add(1001, 1001);
        assert_eq!(k.spans(), &[(1, 1003)]);
    }

    #[test]
    fn auto_increment_never_goes_back() {
        let mut k = KeySet::ids(10);
        assert_eq!(k.take_auto(11), 11);
        k.note_explicit(100);
        assert_eq!(k.take_auto(12), 101);
        k.note_explicit(50);
        assert_eq!(k.take_auto(0), 102);
        assert_eq!(k.take_auto(500), 500);
    }

    #[test]
    fn a_billion_rows_are_one_interval() {
        let mut k = KeySet::ids(1_000_000_000);
        k.remove(1, 1_000_000_000);
        assert_eq!(k.len(), 0);
        assert!(k.spans().is_empty());
    }
}
