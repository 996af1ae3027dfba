//! The SQL layer's definition of a table (`dd::Table` in 8.0, the `.frm` before):
//! what DDL statements check names against, kept beside InnoDB's own dictionary
//! table in the catalog's record.

use crate::sql::{IndexHint, IndexHintKind, RowAccess};
use crate::time::Tick;

/// The SQL layer's definition of a table (`dd::Table`): what DDL checks against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) struct TableDef {
    pub(in crate::sim) columns: Vec<String>,
    /// The primary key's first column, if any.
    pub(in crate::sim) pk: Option<String>,
    /// Secondary indexes, in the order they were made.
    pub(in crate::sim) indexes: Vec<SecondaryIndex>,
    /// Range partitions, in order (empty: not partitioned).
    pub(in crate::sim) partitions: Vec<String>,
    /// Rows in the table now.
    pub(in crate::sim) live_rows: u64,
    /// When the clustered index was (re)built: a read view older than this cannot
    /// read it (`dict_index_t::trx_id` against the view, 1412).
    pub(in crate::sim) rebuilt_at: Tick,
    /// `DISCARD TABLESPACE` removed its data.
    pub(in crate::sim) discarded: bool,
}

impl TableDef {
    /// sysbench's `sbtest` shape: id, k, c, pad, KEY k_1 (k) (and more `k_n` on k).
    pub(in crate::sim) fn sysbench(rows: u64, secondary: u8, partitions: u32) -> TableDef {
        TableDef {
            columns: ["id", "k", "c", "pad"].map(String::from).to_vec(),
            pk: Some("id".into()),
            indexes: (1..=secondary)
                .map(|i| SecondaryIndex::new(format!("k_{i}"), "k".to_owned(), Tick::ZERO))
                .collect(),
            partitions: (0..partitions).map(|p| format!("p{p}")).collect(),
            live_rows: rows,
            rebuilt_at: Tick::ZERO,
            discarded: false,
        }
    }
}

/// A secondary index as the SQL layer knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) struct SecondaryIndex {
    /// Its name (`k_1`, `idx_c`).
    pub(in crate::sim) name: String,
    /// Its first column.
    pub(in crate::sim) column: String,
    /// When it was built: a read view older than this cannot read through it
    /// (`dict_index_t::trx_id`, `row_search_mvcc()`: `!index->is_usable(trx)`, 1412).
    pub(in crate::sim) built_at: Tick,
}

impl SecondaryIndex {
    /// An index named `name` on `column`, built at `built_at`.
    pub(in crate::sim) fn new(name: String, column: String, built_at: Tick) -> SecondaryIndex {
        SecondaryIndex {
            name,
            column,
            built_at,
        }
    }

    /// Whether it is called `name` (index names are case-insensitive).
    pub(in crate::sim) fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }
}

impl TableDef {
    /// The secondary index called `name`.
    pub(in crate::sim) fn index(&self, name: &str) -> Option<&SecondaryIndex> {
        self.indexes.iter().find(|ix| ix.is(name))
    }

    /// The first index name in `hints` the table does not have (1176).
    pub(in crate::sim) fn unknown_hinted_index<'h>(
        &self,
        hints: &'h [IndexHint],
    ) -> Option<&'h str> {
        hints
            .iter()
            .flat_map(|h| &h.names)
            .map(String::as_str)
            .find(|n| !n.eq_ignore_ascii_case("PRIMARY") && self.index(n).is_none())
    }

    /// The secondary index a read reaching `access` goes through, if any: one whose
    /// first column the WHERE clause bounds, among those the hints allow (a USE or
    /// FORCE list names the only candidates, IGNORE removes some), the first made.
    /// A bound primary key is read through the clustered index whatever the hints
    /// (a const or range access on PRIMARY), and a full scan through no index.
    ///
    /// Simplification: MySQL's optimizer weighs the candidates by cost; here the
    /// oldest wins, and FORCE INDEX never turns a full scan into a full index scan.
    pub(in crate::sim) fn index_read(
        &self,
        access: &RowAccess,
        hints: &[IndexHint],
    ) -> Option<&SecondaryIndex> {
        let column = match access {
            RowAccess::Point { column, .. } | RowAccess::Range { column, .. } => column,
            RowAccess::FullScan => return None,
        };
        if self
            .pk
            .as_deref()
            .is_some_and(|p| p.eq_ignore_ascii_case(column))
        {
            return None;
        }
        let named = |kinds: &[IndexHintKind], ix: &SecondaryIndex| {
            hints
                .iter()
                .filter(|h| kinds.contains(&h.kind))
                .any(|h| h.names.iter().any(|n| ix.is(n)))
        };
        let restricted = hints.iter().any(|h| h.kind != IndexHintKind::Ignore);
        self.indexes.iter().find(|ix| {
            ix.column.eq_ignore_ascii_case(column)
                && !named(&[IndexHintKind::Ignore], ix)
                && (!restricted || named(&[IndexHintKind::Use, IndexHintKind::Force], ix))
        })
    }
}
