//! The data dictionary: tables, their indexes, and where each index's pages lie in the
//! tablespace.
//!
//! A statement in the simulator does not read rows; it touches the pages a B-tree
//! search would touch. So each index is laid out as InnoDB grows one: a root, levels of
//! internal pages, and leaves, contiguous in the table's file-per-table tablespace:
//!
//! ```text
//!  page 0-2   FSP header, ibuf bitmap, inode page
//!  PRIMARY    root | level h-2 .. level 1 | leaves (rows_per_leaf rows each)
//!  k          root | internal             | leaves (entries_per_leaf keys each)
//!  ...        free extents up to the file size
//! ```
//!
//! The tree's height follows from its size: a 1,000,000-row sysbench table (about 70
//! rows a leaf) has 14,286 leaves under 12 internal pages and a root: height 3.
//!
//! Simplification: pages are full to the fill factor and never split or merge during a
//! run except at the right edge (appends).
//!
//! A ROW_FORMAT=COMPRESSED table has the same B-trees, each page stored in the file as
//! `KEY_BLOCK_SIZE` KiB (`zip_kb`). A partitioned table (`PARTITION BY RANGE (id)`) is,
//! as in InnoDB, one table per partition, each in its own tablespace named
//! `t#P#p0`, `t#P#p1`, ... (`partition`); the partitioned table itself is only the set
//! of them.
//!
//! Simplification: a compressed page holds as many rows as an uncompressed one
//! (InnoDB splits a page whose records do not compress into `KEY_BLOCK_SIZE`, so a real
//! compressed tree has somewhat more, emptier pages).

use crate::bufpool::{PageNo, SpaceId};
use crate::units::PAGE_SIZE;

/// Node pointers per internal page: a 4-byte key, a 4-byte child page number and the
/// 5-byte record header, in 15/16 of a 16 KiB page.
pub const INTERNAL_FANOUT: u64 = 1_180;
/// Levels a B-tree can have: a level above holds INTERNAL_FANOUT (over 2^10) nodes
/// of the one below, so even 2^64 leaves need no more than 7 levels above them.
const MAX_HEIGHT: usize = 8;
/// Pages before the first index: FSP header, insert-buffer bitmap, inode page.
const FIRST_INDEX_PAGE: u64 = 3;
/// Usable bytes of a page at InnoDB's 15/16 fill factor.
const PAGE_FILL_BYTES: u64 = PAGE_SIZE * 15 / 16;
/// Bytes of a secondary-index entry on an integer column: key, primary key, header.
const SECONDARY_ENTRY_BYTES: u64 = 4 + 4 + 6;

/// One B-tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexLayout {
    /// 1-based index number within the table (`block->index` in the pool).
    pub number: u8,
    /// Index name (`PRIMARY`, `k_1`, ...).
    pub name: String,
    /// Records per leaf page.
    pub records_per_leaf: u64,
    /// First page of each level, root first; the last level is the leaves.
    pub level_first: Vec<PageNo>,
    /// Pages on each level, root first.
    pub level_pages: Vec<u64>,
}

impl IndexLayout {
    fn new(
        number: u8,
        name: &str,
        records: u64,
        records_per_leaf: u64,
        first_page: u64,
    ) -> IndexLayout {
        let leaves = records.div_ceil(records_per_leaf).max(1);
        let mut levels = vec![leaves];
        while *levels.last().unwrap_or(&1) > 1 {
            let above = levels
                .last()
                .copied()
                .unwrap_or(1)
                .div_ceil(INTERNAL_FANOUT);
            levels.push(above);
        }
        levels.reverse();
        let mut first = Vec::with_capacity(levels.len());
        let mut next = first_page;
        for &n in &levels {
            first.push(next as PageNo);
            next += n;
        }
        IndexLayout {
            number,
            name: name.to_string(),
            records_per_leaf,
            level_first: first,
            level_pages: levels,
        }
    }

    /// Levels, leaves included (the tree's height).
    pub fn height(&self) -> u32 {
        self.level_pages.len() as u32
    }

    /// Pages the index occupies.
    pub fn pages(&self) -> u64 {
        self.level_pages.iter().sum()
    }

    /// Whether `page` is one of the index's pages: its levels lie one after another from
    /// the root, so they end where the leaves do.
    fn holds(&self, page: PageNo) -> bool {
        page >= self.root() && u64::from(page) < u64::from(self.first_leaf()) + self.leaves()
    }

    /// Leaf pages.
    pub fn leaves(&self) -> u64 {
        self.level_pages.last().copied().unwrap_or(1)
    }

    /// The first leaf page.
    pub fn first_leaf(&self) -> PageNo {
        self.level_first.last().copied().unwrap_or(0)
    }

    /// The root page.
    pub fn root(&self) -> PageNo {
        self.level_first[0]
    }

    /// The pages a search for the record at `position` (0-based, in key order) visits,
    /// root to leaf (`btr_cur_search_to_nth_level()`).
    pub fn search_path(&self, position: u64) -> impl ExactSizeIterator<Item = PageNo> + '_ {
        let leaf = (position / self.records_per_leaf).min(self.leaves() - 1);
        // The node on each level, from the leaf up: a node on a level covers
        // INTERNAL_FANOUT nodes of the level below (floor divisions compose), each a
        // division by a constant.
        let mut nodes = [0u64; MAX_HEIGHT];
        let mut node = leaf;
        for slot in nodes[..self.level_pages.len()].iter_mut().rev() {
            *slot = node;
            node /= INTERNAL_FANOUT;
        }
        self.level_first
            .iter()
            .zip(&self.level_pages)
            .zip(nodes)
            .map(|((&first, &n), node)| first + node.min(n - 1) as PageNo)
    }

    /// The leaf holding the record at `position`.
    pub fn leaf_of(&self, position: u64) -> PageNo {
        self.first_leaf() + (position / self.records_per_leaf).min(self.leaves() - 1) as PageNo
    }
}

/// A table in the simulated dictionary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Its name.
    pub name: String,
    /// Its file-per-table tablespace.
    pub space: SpaceId,
    /// Size of the data file.
    pub bytes: u64,
    /// Pages in the data file.
    pub pages: u32,
    /// Rows.
    pub rows: u64,
    /// Average row length, bytes.
    pub row_bytes: u64,
    /// The clustered index first, then the secondary indexes.
    pub indexes: Vec<IndexLayout>,
    /// Columns and their stored widths in bytes.
    pub columns: Vec<Column>,
    /// Instant ADD/DROP COLUMNs so far (8.0.29's row versions; a rebuild resets it).
    pub row_version: u32,
    /// Whether a DROP has removed it from the dictionary.
    pub dropped: bool,
    /// `ALTER TABLE ... DISCARD TABLESPACE`: in the dictionary, with no tablespace.
    pub discarded: bool,
    /// `KEY_BLOCK_SIZE` in KiB for ROW_FORMAT=COMPRESSED, 0 for uncompressed rows.
    pub zip_kb: u32,
    /// For one partition of a partitioned table: which, and its range.
    pub partition: Option<PartitionOf>,
}

/// One partition of a `PARTITION BY RANGE (id)` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionOf {
    /// The partitioned table's name (`logs`).
    pub table: String,
    /// The partition's name (`p0`).
    pub name: String,
    /// `VALUES LESS THAN`: ids below this (and at or above the previous partition's).
    pub less_than: u64,
}

/// InnoDB's name for a partition's own table and tablespace: `logs#P#p0`.
pub fn partition_table_name(table: &str, partition: &str) -> String {
    format!("{table}#P#{partition}")
}

impl Table {
    /// A table of `rows` rows of `row_bytes` bytes with `secondary` integer secondary
    /// indexes; the file is at least `min_bytes` long (free extents beyond the data).
    pub fn new(
        name: &str,
        space: SpaceId,
        rows: u64,
        row_bytes: u64,
        secondary: u8,
        min_bytes: u64,
    ) -> Table {
        let per_leaf = (PAGE_FILL_BYTES / row_bytes.max(16)).max(2);
        let mut indexes = vec![IndexLayout::new(
            1,
            "PRIMARY",
            rows,
            per_leaf,
            FIRST_INDEX_PAGE,
        )];
        for k in 0..secondary {
            let first = FIRST_INDEX_PAGE + indexes.iter().map(IndexLayout::pages).sum::<u64>();
            let name = format!("k_{}", k + 1);
            indexes.push(IndexLayout::new(
                k + 2,
                &name,
                rows,
                PAGE_FILL_BYTES / SECONDARY_ENTRY_BYTES,
                first,
            ));
        }
        let used = FIRST_INDEX_PAGE + indexes.iter().map(IndexLayout::pages).sum::<u64>();
        // Files grow by whole extents (64 pages).
        let pages = used.max(min_bytes.div_ceil(PAGE_SIZE)).div_ceil(64) * 64;
        Table {
            name: name.to_string(),
            space,
            bytes: pages * PAGE_SIZE,
            pages: pages as u32,
            rows,
            row_bytes,
            indexes,
            columns: sysbench_columns(),
            row_version: 0,
            dropped: false,
            zip_kb: 0,
            partition: None,
            discarded: false,
        }
    }

    /// The same table stored ROW_FORMAT=COMPRESSED with `KEY_BLOCK_SIZE` `kb` KiB: the
    /// file holds each page in `kb` KiB.
    pub fn compressed(mut self, kb: u32) -> Table {
        self.zip_kb = kb;
        self.bytes = u64::from(self.pages) * u64::from(kb) * 1024;
        self
    }

    /// This table as partition `name` (ids below `less_than`) of `table`.
    pub fn partition_of(mut self, table: &str, name: &str, less_than: u64) -> Table {
        self.partition = Some(PartitionOf {
            table: table.to_string(),
            name: name.to_string(),
            less_than,
        });
        self
    }

    /// The name SQL uses for it: the partitioned table's name for a partition.
    pub fn sql_name(&self) -> &str {
        self.partition.as_ref().map_or(&self.name, |p| &p.table)
    }

    /// Pages holding index records (the header pages and every B-tree), the file's
    /// free extents excluded: what a full scan reads.
    pub fn used_pages(&self) -> u32 {
        (FIRST_INDEX_PAGE + self.indexes.iter().map(IndexLayout::pages).sum::<u64>()) as u32
    }

    /// A column by name (case-insensitive, as MySQL compares column names).
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// An index by name (case-insensitive).
    pub fn index_named(&self, name: &str) -> Option<&IndexLayout> {
        self.indexes
            .iter()
            .find(|ix| ix.name.eq_ignore_ascii_case(name))
    }

    /// Lays out a new secondary index of `entry_bytes` entries after the table's current
    /// last page, as a bulk load allocates it at the end of the file, and grows the file
    /// by whole extents. Returns the index number.
    pub fn add_index(&mut self, name: &str, entry_bytes: u64) -> u8 {
        let number = self.indexes.iter().map(|ix| ix.number).max().unwrap_or(0) + 1;
        let per_leaf = (PAGE_FILL_BYTES / entry_bytes.max(8)).max(2);
        let layout = IndexLayout::new(number, name, self.rows, per_leaf, u64::from(self.pages));
        let end = u64::from(self.pages) + layout.pages();
        self.indexes.push(layout);
        let pages = end.div_ceil(64) * 64;
        self.pages = pages as u32;
        self.bytes = pages * PAGE_SIZE;
        number
    }
}

/// One column of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// The name.
    pub name: String,
    /// Bytes it takes in a record.
    pub bytes: u64,
}

/// Bytes a column of SQL type `data_type` takes in a record, roughly as InnoDB stores
/// it (variable-length columns at half their maximum, BLOB/TEXT as the 20-byte pointer
/// to off-page storage).
pub fn column_bytes(data_type: &str) -> u64 {
    let t = data_type.to_ascii_uppercase();
    let arg = |t: &str| -> Option<u64> {
        let open = t.find('(')?;
        let close = t[open..].find([',', ')'])? + open;
        t[open + 1..close].trim().parse().ok()
    };
    let base = t.split(['(', ' ']).next().unwrap_or("");
    match base {
        "TINYINT" | "BOOL" | "BOOLEAN" => 1,
        "SMALLINT" | "YEAR" => 2,
        "MEDIUMINT" | "DATE" | "TIME" => 3,
        "INT" | "INTEGER" | "FLOAT" | "TIMESTAMP" => 4,
        "DATETIME" => 5,
        "BIGINT" | "DOUBLE" | "REAL" => 8,
        "CHAR" | "BINARY" => arg(&t).unwrap_or(1),
        "VARCHAR" | "VARBINARY" => arg(&t).map_or(1, |n| n / 2 + 1),
        "DECIMAL" | "NUMERIC" => arg(&t).map_or(5, |p| p / 2 + 1),
        "TEXT" | "BLOB" | "MEDIUMTEXT" | "MEDIUMBLOB" | "LONGTEXT" | "LONGBLOB" | "JSON" => 20,
        _ => 8,
    }
}

/// sysbench's table: `id INT PRIMARY KEY, k INT, c CHAR(120), pad CHAR(60), KEY k_1(k)`.
pub fn sysbench_columns() -> Vec<Column> {
    [("id", 4), ("k", 4), ("c", 120), ("pad", 60)]
        .into_iter()
        .map(|(name, bytes)| Column {
            name: name.to_string(),
            bytes,
        })
        .collect()
}

impl Table {
    /// Rows that fill a file of `bytes` bytes, for tables given by size.
    pub fn rows_for_size(bytes: u64, row_bytes: u64, secondary: u8) -> u64 {
        let pages = bytes / PAGE_SIZE;
        let per_leaf = (PAGE_FILL_BYTES / row_bytes.max(16)).max(2) as f64;
        let per_sec_leaf = (PAGE_FILL_BYTES / SECONDARY_ENTRY_BYTES) as f64;
        // Pages per row, internal levels included (~1/1180 more per level).
        let per_row = (1.0 / per_leaf + f64::from(secondary) / per_sec_leaf)
            * (1.0 + 1.0 / INTERNAL_FANOUT as f64);
        (pages.saturating_sub(FIRST_INDEX_PAGE + 2) as f64 / per_row) as u64
    }

    /// The clustered index.
    pub fn primary(&self) -> &IndexLayout {
        &self.indexes[0]
    }

    /// Which index a page belongs to (1-based), 0 for the file's header pages and free
    /// extents.
    pub fn index_of_page(&self, page: PageNo) -> u8 {
        self.indexes
            .iter()
            .find(|ix| ix.holds(page))
            .map_or(0, |ix| ix.number)
    }

    /// The index whose leaf `page` is (1-based), 0 if it is no index's leaf
    /// (`page_is_leaf()`, told from where the page lies).
    pub fn leaf_index_of(&self, page: PageNo) -> u8 {
        self.indexes
            .iter()
            .find(|ix| ix.holds(page))
            .filter(|ix| page >= ix.first_leaf())
            .map_or(0, |ix| ix.number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sysbench_table_of_a_million_rows_is_three_levels_deep() {
        let t = Table::new("sbtest1", SpaceId(1), 1_000_000, 210, 1, 0);
        let pk = t.primary();
        assert_eq!(pk.records_per_leaf, 73);
        assert_eq!(pk.leaves(), 13_699);
        assert_eq!(pk.level_pages, vec![1, 12, 13_699]);
        assert_eq!(pk.height(), 3);
        let k = &t.indexes[1];
        assert_eq!(
            k.height(),
            2,
            "1,097 keys a leaf: 912 leaves under one root"
        );
        // About 240 MB, as sysbench's 1 M-row table is on disk.
        assert!(
            (220..260).contains(&(t.bytes >> 20)),
            "{} MiB",
            t.bytes >> 20
        );
    }

    #[test]
    fn a_search_visits_one_page_per_level_ending_at_the_rows_leaf() {
        let t = Table::new("t", SpaceId(1), 1_000_000, 210, 0, 0);
        let pk = t.primary();
        for pos in [0, 72, 73, 500_000, 999_999, 5_000_000] {
            let path: Vec<PageNo> = pk.search_path(pos).collect();
            assert_eq!(path.len(), 3);
            assert_eq!(path[0], pk.root());
            assert_eq!(*path.last().unwrap(), pk.leaf_of(pos));
            assert!(path[1] >= pk.level_first[1] && path[1] < pk.level_first[2]);
        }
        assert_eq!(pk.leaf_of(72), pk.leaf_of(0));
        assert_eq!(pk.leaf_of(73), pk.leaf_of(0) + 1);
    }

    #[test]
    fn a_table_given_by_size_fills_its_file() {
        let rows = Table::rows_for_size(10 << 30, 210, 1);
        let t = Table::new("big", SpaceId(3), rows, 210, 1, 10 << 30);
        let used: u64 = t.indexes.iter().map(IndexLayout::pages).sum();
        assert!(
            used <= u64::from(t.pages) && used * 100 / u64::from(t.pages) >= 98,
            "{used} of {}",
            t.pages
        );
        // 600k leaves under 509 internal pages under a root.
        assert_eq!(
            t.primary().height(),
            3,
            "a 10 GB table is three levels deep"
        );
        assert_eq!(t.index_of_page(t.primary().root()), 1);
        assert_eq!(t.index_of_page(t.indexes[1].first_leaf()), 2);
        assert_eq!(t.index_of_page(0), 0);
        assert_eq!(t.leaf_index_of(t.primary().root()), 0);
        assert_eq!(t.leaf_index_of(t.primary().first_leaf()), 1);
        assert_eq!(t.leaf_index_of(t.indexes[1].first_leaf()), 2);
        assert_eq!(t.leaf_index_of(0), 0);
    }
}
