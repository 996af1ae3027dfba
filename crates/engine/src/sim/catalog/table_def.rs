//! The SQL layer's definition of a table (`dd::Table` in 8.0, the `.frm` before):
//! what DDL statements check names against, kept beside InnoDB's own dictionary
//! table in the catalog's record.

use crate::sql::{IndexHint, IndexHintKind, RowAccess, TriggerBody, TriggerEvent, TriggerTiming};
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
    /// The `AUTO_INCREMENT` column, if any: inserts take InnoDB's AUTO-INC lock
    /// (`ha_innobase::innobase_lock_autoinc()`).
    pub(in crate::sim) auto_increment: Option<String>,
    /// Its triggers, in the order they fire (`Table_triggers_list`, the `.TRG` file);
    /// they go with the table through a RENAME and with it at a DROP.
    pub(in crate::sim) triggers: Vec<TriggerDef>,
}

/// A trigger as the SQL layer keeps it (a line of the table's `.TRG` file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sim) struct TriggerDef {
    /// Its name (unique in the schema).
    pub(in crate::sim) name: String,
    /// BEFORE or AFTER.
    pub(in crate::sim) timing: TriggerTiming,
    /// The row change that fires it.
    pub(in crate::sim) event: TriggerEvent,
    /// The statements it runs for each row, in order.
    pub(in crate::sim) body: Vec<TriggerBody>,
    /// Its body declares `CONTINUE HANDLER FOR 1146`: a statement of the body whose
    /// table is missing is skipped.
    pub(in crate::sim) continue_on_no_such_table: bool,
    /// The body as written (`SHOW TRIGGERS`' Statement).
    pub(in crate::sim) body_text: String,
    /// When it was created (`SHOW TRIGGERS`' Created).
    pub(in crate::sim) created: Tick,
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
            auto_increment: Some("id".into()),
            triggers: Vec::new(),
        }
    }

    /// Whether `column` is the primary key's (first) column.
    pub(in crate::sim) fn is_pk(&self, column: &str) -> bool {
        self.pk
            .as_deref()
            .is_some_and(|p| p.eq_ignore_ascii_case(column))
    }

    /// Whether the table has a column called `name`.
    pub(in crate::sim) fn has_column(&self, name: &str) -> bool {
        self.columns.iter().any(|c| c.eq_ignore_ascii_case(name))
    }

    /// Its triggers fired by `event`, in order.
    pub(in crate::sim) fn triggers_on(
        &self,
        event: TriggerEvent,
    ) -> impl Iterator<Item = &TriggerDef> + '_ {
        self.triggers.iter().filter(move |t| t.event == event)
    }
}

impl TriggerDef {
    /// The body's statements that run for a row of `subject`: all of them, but a
    /// DELETE guarded by `!(OLD.col <=> NEW.col)` on `subject`'s primary key (an
    /// UPDATE here never changes a key value: `session/mod.rs`' simplification).
    pub(in crate::sim) fn statements<'a>(
        &'a self,
        subject: &'a TableDef,
    ) -> impl Iterator<Item = &'a TriggerBody> + 'a {
        self.body.iter().filter(move |b| match b {
            TriggerBody::Delete {
                only_if_changed: Some(col),
                ..
            } => !subject.is_pk(col),
            _ => true,
        })
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
