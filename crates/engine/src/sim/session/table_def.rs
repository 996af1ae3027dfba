//! The SQL layer's definition of a table (`dd::Table` in 8.0, the `.frm` before):
//! what DDL statements check names against, kept beside InnoDB's own dictionary
//! table in the catalog's record.

use crate::time::Tick;

/// The SQL layer's definition of a table (`dd::Table`): what DDL checks against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) struct TableDef {
    pub(in crate::sim) columns: Vec<String>,
    /// The primary key's first column, if any.
    pub(in crate::sim) pk: Option<String>,
    /// Secondary indexes: name and first column.
    pub(in crate::sim) indexes: Vec<(String, String)>,
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
                .map(|i| (format!("k_{i}"), "k".to_owned()))
                .collect(),
            partitions: (0..partitions).map(|p| format!("p{p}")).collect(),
            live_rows: rows,
            rebuilt_at: Tick::ZERO,
            discarded: false,
        }
    }
}
