//! The catalog: every table the server knows, one record each.
//!
//! InnoDB's dictionary (`dict_sys`'s table cache) and the SQL layer's definitions
//! (`dd::Table`) are two views of one table; the simulation also keeps a little
//! per-table state of its own (the next appended row, the statements using it, the
//! online build's row log). All of it lives in one [`TableEntry`] per table, found by
//! its [`TableId`], so nothing runs "parallel" to anything else.
//!
//! ```text
//!   TableId(3) ──▶ TableEntry { table: dict::Table   (InnoDB: space, B-trees, pages)
//!                               def:   TableDef      (SQL layer: columns, indexes)
//!                               append_row, keys, users, online_build, row_log_ops }
//! ```
//!
//! A name reaches a table through [`Catalog::resolve`]: a statement names `logs`, which
//! is every partition's table (`logs#P#p0`, ...) of a partitioned table, or the one
//! table of that name.
//!
//! Simplification: ids are positions and are never reused; a dropped table keeps its
//! entry (marked `dropped`), as views of the past (events, spans) name it.

pub(in crate::sim) mod keys;
pub(in crate::sim) mod table_def;

use crate::bufpool::SpaceId;
use crate::dict::Table;
use crate::mdl::{MdlKey, MdlLockId, MdlManager, MdlNamespace};
use crate::sql::TableName;
use keys::KeySet;
use std::ops::{Index, IndexMut};
use table_def::TableDef;

/// A table's place in the catalog: its id for its whole life (a dropped table keeps
/// its entry, flagged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct TableId(pub(crate) u32);

impl TableId {
    /// Its place in per-table arrays.
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

/// Everything the server keeps about one table.
#[derive(Clone, Debug)]
pub(crate) struct TableEntry {
    /// InnoDB's dictionary table: tablespace, indexes, size.
    pub(crate) table: Table,
    /// The SQL layer's definition (`dd::Table`): what DDL checks against.
    pub(crate) def: TableDef,
    /// Next auto-increment row position (appends).
    pub(crate) append_row: u64,
    /// The primary-key values it holds (a partition: its own id range).
    pub(crate) keys: KeySet,
    /// Statements using the table right now.
    pub(crate) users: u32,
    /// An online index build logs concurrent DML to a row log.
    pub(crate) online_build: bool,
    /// Row-log entries written so far.
    pub(crate) row_log_ops: u64,
    /// How many times TRUNCATE has laid the table out anew (InnoDB gives it a new
    /// table id): a statement that planned its pages on an older layout and waited for
    /// its metadata lock meanwhile plans them again once granted.
    pub(crate) layout: u32,
    /// The table's metadata-lock name as a workload statement last formed it (the
    /// lower-cased schema and name, `open_table()`'s `MDL_key`) and its lock object,
    /// kept so a statement neither forms the name anew nor looks it up;
    /// [`TableEntry::mdl_lock`] checks it against the table's name now and forms it
    /// again after a RENAME or a swap.
    mdl_lock: Option<(MdlKey, MdlLockId)>,
}

impl TableEntry {
    /// A table nobody uses yet; appends start at row `append_row`.
    pub(crate) fn new(table: Table, def: TableDef, append_row: u64) -> TableEntry {
        let keys = match &table.partition {
            Some(p) => {
                let hi = i64::try_from(p.less_than).unwrap_or(i64::MAX) - 1;
                KeySet::span(hi - i64::try_from(append_row).unwrap_or(0) + 1, hi)
            }
            None => KeySet::ids(append_row),
        };
        TableEntry {
            table,
            def,
            append_row,
            keys,
            users: 0,
            online_build: false,
            row_log_ops: 0,
            layout: 0,
            mdl_lock: None,
        }
    }

    /// The lock object in `mdl` of this table's metadata-lock name in `schema`
    /// (`MDL_key` of `TABLE schema.name`, both lower-cased).
    pub(crate) fn mdl_lock(&mut self, schema: &str, mdl: &mut MdlManager) -> MdlLockId {
        if let Some((key, lock)) = &self.mdl_lock {
            // Names the key holds as they are (lower case, as a rule) compare
            // bytewise first; only a name in another case needs the slower test.
            let same = |a: &str, b: &str| a == b || a.eq_ignore_ascii_case(b);
            let current = key.namespace() == MdlNamespace::Table
                && same(key.db_name(), schema)
                && same(key.name(), self.table.sql_name());
            if current {
                return *lock;
            }
        }
        let key = MdlKey::table(
            &schema.to_ascii_lowercase(),
            &self.table.sql_name().to_ascii_lowercase(),
        );
        let lock = mdl.lock_id(&key);
        self.mdl_lock = Some((key, lock));
        lock
    }
}

/// Every table, and which of them the workload draws from.
#[derive(Clone, Debug, Default)]
pub(crate) struct Catalog {
    entries: Vec<TableEntry>,
    /// Tables the workload draws from.
    pub(crate) workload_tables: Vec<TableId>,
    /// Their names: after a RENAME the workload follows the name, as sysbench does.
    pub(crate) workload_names: Vec<String>,
}

impl Catalog {
    /// A catalog of `entries`, with the workload on the tables at `workload`.
    pub(crate) fn new(entries: Vec<TableEntry>, workload: Vec<TableId>) -> Catalog {
        let workload_names = workload
            .iter()
            .map(|&i| entries[i.index()].table.name.clone())
            .collect();
        Catalog {
            entries,
            workload_tables: workload,
            workload_names,
        }
    }

    /// Every id, in order.
    pub(crate) fn ids(&self) -> impl DoubleEndedIterator<Item = TableId> + use<> {
        (0..self.entries.len() as u32).map(TableId)
    }

    /// Every table with its id.
    pub(crate) fn tables_with_ids(&self) -> impl Iterator<Item = (TableId, &Table)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .map(|(i, e)| (TableId(i as u32), &e.table))
    }

    /// The first table for which `pred` holds.
    pub(crate) fn find(&self, pred: impl Fn(&Table) -> bool) -> Option<TableId> {
        self.tables_with_ids()
            .find(|(_, t)| pred(t))
            .map(|(i, _)| i)
    }

    /// The InnoDB tables, in id order.
    pub(crate) fn tables(&self) -> impl ExactSizeIterator<Item = &Table> + '_ {
        self.entries.iter().map(|e| &e.table)
    }

    /// Adds a table with its definition; appends start at row `append_row`.
    pub(crate) fn push(&mut self, table: Table, def: TableDef, append_row: u64) -> TableId {
        self.entries.push(TableEntry::new(table, def, append_row));
        TableId(self.entries.len() as u32 - 1)
    }

    /// The next free tablespace id (`fil_assign_new_space_id()`).
    pub(crate) fn next_space_id(&self) -> SpaceId {
        SpaceId(self.tables().map(|x| x.space.0).max().unwrap_or(0) + 1)
    }

    /// Swaps two tables' InnoDB parts, leaving their SQL definitions and bookkeeping
    /// where they are: a rebuild's new table takes the old one's place under its name.
    pub(crate) fn swap_tables(&mut self, a: TableId, b: TableId) {
        if a == b {
            return;
        }
        let (lo, hi) = (a.index().min(b.index()), a.index().max(b.index()));
        let (left, right) = self.entries.split_at_mut(hi);
        std::mem::swap(&mut left[lo].table, &mut right[0].table);
    }

    /// The live tables `name` means in `schema` (the session's default for an
    /// unqualified name, compared with the server's own `server_schema`): the table,
    /// or every partition of a partitioned one, in partition order; empty when there
    /// is none. The one name lookup every statement and check goes through.
    pub(crate) fn resolve(&self, server_schema: &str, name: &TableName) -> Vec<TableId> {
        let schema_ok = name
            .schema
            .as_deref()
            .is_none_or(|s| s.eq_ignore_ascii_case(server_schema));
        if !schema_ok {
            return Vec::new();
        }
        self.ids()
            .filter(|&i| {
                let t = &self[i].table;
                !t.dropped && t.sql_name().eq_ignore_ascii_case(&name.table)
            })
            .collect()
    }

    /// The tables the workload uses: the live ones bearing the names it started with.
    pub(crate) fn refresh_workload_tables(&mut self) {
        self.workload_tables = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                !e.table.dropped
                    && self
                        .workload_names
                        .iter()
                        .any(|n| n.eq_ignore_ascii_case(&e.table.name))
            })
            .map(|(i, _)| TableId(i as u32))
            .collect();
    }
}

impl Index<TableId> for Catalog {
    type Output = TableEntry;
    fn index(&self, id: TableId) -> &TableEntry {
        &self.entries[id.index()]
    }
}

impl IndexMut<TableId> for Catalog {
    fn index_mut(&mut self, id: TableId) -> &mut TableEntry {
        &mut self.entries[id.index()]
    }
}
