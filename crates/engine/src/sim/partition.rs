//! Partitioned and compressed tables: building them from the scenario, warming them
//! into the pool, and the partition-management statements.
//!
//! A `PARTITION BY RANGE (id)` table is, in InnoDB, one table per partition, each in its
//! own tablespace `t#P#p0`, `t#P#p1`, ... (5.5/5.6 through `ha_partition`, which opens
//! one InnoDB handler per partition; 5.7+ natively, with the same file names). So the
//! dictionary keeps one [`Table`] per partition and the partitioned table is the set of
//! them:
//!
//! ```text
//!  ALTER TABLE logs DROP PARTITION p0      -> the DROP TABLE path on logs#P#p0
//!  ALTER TABLE logs TRUNCATE PARTITION p0  -> the profile's TRUNCATE path on logs#P#p0
//!  DROP TABLE logs                         -> the DROP TABLE path on every partition
//! ```
//!
//! `ha_partition::drop_partitions()` (5.5/5.6) calls `handler::ha_delete_table()` for each
//! dropped partition, which is `row_drop_table_for_mysql()` on the partition's table;
//! 5.7's `ha_innopart` and 8.0 drop each partition's tablespace the same way. The
//! profile's DROP path (AHI cleanup, eviction, file delete, under its latches) and, on
//! servers before Bug#16067973's fix, the decompression of every compressed-only page
//! of each freed extent, therefore apply to a partition as to a table.
//!
//! Simplification: the SQL layer's own work for ALTER TABLE ... DROP/TRUNCATE PARTITION
//! (the `.par`/`.frm` rewrite and the DDL log of 5.5-5.7) costs nothing here; its
//! metadata locking is whatever the DROP path does.
//!
//! TRUNCATE PARTITION takes the TRUNCATE TABLE path of `ddl.rs` on each partition:
//! 5.1-5.6 discard the tablespace (an LRU scan that frees its pages, compressed ones
//! without decompressing them) and create a new one; 5.7 empties it in place; 8.0 drops
//! it and creates a new one.
//!
use super::Sim;
use crate::bufpool::{FreeBlock, Lookup, PageId, SpaceId};
use crate::dict::{partition_table_name, Table};
use crate::scenario::Scenario;
use crate::sim::catalog::TableId;
use crate::units::PAGE_SIZE;

/// The dictionary's tables for a scenario: one per `[[tables]]` entry, or one per
/// partition of a partitioned one, in order, with tablespace ids from 1.
pub(super) fn build_tables(scenario: &Scenario) -> Vec<Table> {
    let mut out = Vec::new();
    let mut next_space = 1u32;
    for t in &scenario.tables {
        let kb = u64::from(t.zip_kb());
        // The bytes of 16 KiB pages a file of `bytes` holds: a compressed file stores
        // each page in KEY_BLOCK_SIZE KiB.
        let logical = |bytes: u64| {
            if kb == 0 {
                bytes
            } else {
                bytes / (kb * 1024) * PAGE_SIZE
            }
        };
        let build = |name: &str, space: u32, rows: Option<u64>, bytes: u64| {
            let rows = rows.unwrap_or_else(|| {
                Table::rows_for_size(logical(bytes), t.row_bytes, t.secondary_indexes)
            });
            let table = Table::new(
                name,
                SpaceId(space),
                rows.max(1),
                t.row_bytes,
                t.secondary_indexes,
                logical(bytes),
            );
            if kb == 0 {
                table
            } else {
                table.compressed(kb as u32)
            }
        };
        let Some(n) = t.partitions else {
            out.push(build(
                &t.name,
                next_space,
                t.rows,
                t.size.map_or(0, |s| s.bytes()),
            ));
            next_space += 1;
            continue;
        };
        // RANGE (id): ids from 1, each partition holding its rows' id range.
        let mut first_id = 1u64;
        for (k, name) in t.partition_names().iter().enumerate() {
            let bytes = match t.partition_sizes.get(k) {
                Some(sz) => sz.bytes(),
                None => t.size.map_or(0, |s| s.bytes() / u64::from(n)),
            };
            let rows = t.rows.map(|r| (r / u64::from(n)).max(1));
            let table = build(
                &partition_table_name(&t.name, name),
                next_space,
                rows,
                bytes,
            );
            first_id += table.rows;
            out.push(table.partition_of(&t.name, name, first_id));
            next_space += 1;
        }
    }
    out
}

/// The tables the workload draws from: those named (every partition of a partitioned
/// one), or all.
pub(super) fn workload_tables(tables: &[Table], named: &[String]) -> Vec<TableId> {
    if named.is_empty() {
        return (0..tables.len() as u32).map(TableId).collect();
    }
    named
        .iter()
        .flat_map(|n| {
            (0..tables.len())
                .filter(move |&i| tables[i].sql_name().eq_ignore_ascii_case(n))
                .map(|i| TableId(i as u32))
        })
        .collect()
}

/// Whether the warm-up keeps this page of a compressed table in both frames: a fixed
/// spread of `pct` percent of the pages, the same on every run.
fn keeps_uncompressed(page: PageId, pct: u32) -> bool {
    let h = (u64::from(page.space.0) << 32 | u64::from(page.page_no))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> 40) % 100 < u64::from(pct)
}

impl Sim {
    /// The scenario's `[[tables]]` entry a dictionary table comes from.
    fn table_config(&self, t: TableId) -> &crate::scenario::TableConfig {
        let name = self.catalog[t].table.sql_name();
        self.scenario
            .tables
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
            .expect("every table comes from the scenario")
    }

    /// The partitions the scenario asks the warm-up to read in whole.
    pub(super) fn cached_partitions(&self) -> Vec<TableId> {
        self.catalog
            .ids()
            .filter(|&t| {
                self.catalog[t].table.partition.as_ref().is_some_and(|p| {
                    self.table_config(t)
                        .cached_partitions
                        .iter()
                        .any(|c| c.eq_ignore_ascii_case(&p.name))
                })
            })
            .collect()
    }

    /// Free blocks per instance to keep for the cached partitions while the rest of the
    /// pool is warmed: their compressed frames (KEY_BLOCK_SIZE/16 of a block each) and
    /// the uncompressed frames kept, or one block a page when uncompressed.
    pub(super) fn cached_partitions_reserve(&self) -> u32 {
        let blocks: u64 = self
            .cached_partitions()
            .iter()
            .map(|&t| {
                let table = &self.catalog[t].table;
                let pages = u64::from(table.used_pages());
                if table.zip_kb == 0 {
                    pages
                } else {
                    let pct = u64::from(self.table_config(t).warm_unzip_pct);
                    pages * u64::from(table.zip_kb) / 16 + pages * pct / 100 + 1
                }
            })
            .sum();
        let per = blocks.div_ceil(u64::from(self.pool.n_instances()));
        u32::try_from(per).unwrap_or(u32::MAX)
    }

    /// The warm-up's read of a compressed table's page: compressed-only
    /// (`buf_read_page()`), and for `warm_unzip_pct` percent of them also inflated into a
    /// block, as a `buf_page_get_gen()` would have left them.
    pub(super) fn warm_zip_page(&mut self, table: TableId, page_no: u32, depth: u32) {
        let page = PageId {
            space: self.catalog[table].table.space,
            page_no,
        };
        let inst = self.pool.instance_of(page);
        if self.pool.instances()[usize::from(inst)].free_len() <= depth
            || self.pool.lookup(page) != Lookup::Miss
        {
            return;
        }
        let Some(zip) = self.pool.read_zip_page(page) else {
            return;
        };
        if keeps_uncompressed(page, self.table_config(table).warm_unzip_pct) {
            if let FreeBlock::FromFreeList(block) = self.pool.get_free_block(inst, 0) {
                self.pool.unzip(zip, block);
            }
        }
    }
}
