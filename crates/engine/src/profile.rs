//! Engine profiles: how one server version does each mechanism.
//!
//! A profile is data (one TOML file per version under `assets/profiles/`), never a
//! scatter of version checks: the simulated threads ask the profile which path to take,
//! and the profile says where that behaviour comes from.

use serde::{Deserialize, Serialize};

/// How DROP TABLE gets a tablespace's pages out of the buffer pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DropEviction {
    /// Scan every instance's whole LRU list under its buffer-pool mutex and free the
    /// tablespace's pages (5.7, `buf_LRU_remove_all_pages()`).
    LruScan,
    /// Bump the tablespace version; stale pages are freed when an LRU scan or a lookup
    /// meets them (8.0.23+, WL#14100).
    LazyStale,
    /// Walk the tablespace's own page list (AliSQL's 2048 space-partitioned lists): the
    /// cost follows the table's resident pages, not the pool.
    SpaceList,
}

/// How DROP TABLE removes the table's adaptive-hash-index entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AhiCleanup {
    /// 5.7: while freeing each index's extents under `dict_sys`, every page of every
    /// extent is looked up in the pool (`btr_search_drop_page_hash_when_freed()`), and a
    /// hashed page has every record hashed and its entry deleted.
    PerPageUnderDictSys,
    /// 8.0.21+: `btr_drop_ahi_for_table()` under `dict_sys`, only if an index has AHI
    /// entries: batches of hashed pages collected from each LRU list.
    LruScanIfHashed,
    /// AliSQL: the entries are cleared before the drop, without `dict_sys`, and only for
    /// indexes that have any.
    BeforeDropOutsideDictSys,
}

/// Where the data file is deleted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileDelete {
    /// `os_file_delete()` inside the dictionary latches (5.7 `fil_delete_tablespace`).
    UnderDictSys,
    /// After the DDL commits, with no InnoDB latch held (8.0 atomic DDL `post_ddl`).
    PostDdl,
    /// The file is renamed into a purge directory and a background thread truncates it
    /// 512 MiB at a time before unlinking it (AliSQL `innodb_data_file_purge`).
    AsyncPurge,
}

/// Which global mutex the SQL layer holds to open a table, and whether DROP TABLE holds
/// it throughout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableOpenLock {
    /// 5.0/5.1: every table open takes `LOCK_open`, and `mysql_rm_table_part2()` holds
    /// it across the whole drop, the file delete included ("Opening tables").
    LockOpenHeldByDrop,
    /// 5.5+: the table cache is partitioned and protected by MDL; DROP does not hold a
    /// global mutex across the storage engine's work.
    Mdl,
}

/// Which path each mechanism takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mechanisms {
    /// DROP TABLE's buffer-pool eviction.
    pub drop_eviction: DropEviction,
    /// Where the file is deleted.
    pub file_delete: FileDelete,
    /// How the table's AHI entries are removed.
    pub ahi_cleanup: AhiCleanup,
    /// How tables are opened.
    pub table_open_lock: TableOpenLock,
    /// With a replication plugin installed, every DML statement's `before_dml` hook
    /// looks up foreign keys through InnoDB's dictionary under `dict_sys` (5.7).
    pub before_dml_takes_dict_sys: bool,
    /// Bug#16067973 (fixed in 5.5.31 / 5.6.11; MariaDB 5.5 and 5.5.30 have it):
    /// `btr_search_drop_page_hash_when_freed()` calls `buf_page_get_gen(
    /// BUF_PEEK_IF_IN_POOL)`, which for a compressed-only page takes a free block and
    /// decompresses the page, for every page of every extent a DROP frees, under
    /// `dict_sys`. Fixed servers return NULL for a compressed-only page in PEEK mode
    /// (it cannot carry AHI entries). Default false: the fixed behaviour.
    #[serde(default)]
    pub peek_decompresses_zip_pages: bool,
    /// A locking search of a range of the primary key also locks the first record
    /// past the range, as `row_search_mvcc()` takes a next-key lock on each record it
    /// reads before testing it against the range's end: an UPDATE of the row right
    /// after `WHERE id BETWEEN 10 AND 20` waits (5.x, MariaDB: seen on 10.11.19,
    /// conformance script `range-next-key`). MySQL 8.0.18 stops at the range's end on
    /// a unique index (Bug #29508068). Default false: 8.0's behaviour. A range on a
    /// non-unique index, or one that runs past the last row (the supremum's gap),
    /// locks past its end on every server.
    #[serde(default)]
    pub unique_range_locks_next_record: bool,
    /// How a flush-list scan for one tablespace goes on after writing a page.
    pub flush_scan: FlushScan,
    /// What `ALTER TABLE ... ADD/DROP COLUMN` can do without a rebuild.
    pub instant_columns: InstantColumns,
    /// How TRUNCATE TABLE empties a file-per-table tablespace.
    pub truncate: Truncate,
    /// Every page-modifying mini-transaction names its tablespace under the global
    /// `fil_system->mutex` (5.7 `fil_names_write_if_was_clean()`); 8.0 splits it into
    /// 64 shards.
    pub mtr_takes_fil_sys: bool,
    /// An index build's clustered-index scan reads a missing leaf's extent at once and
    /// the next extent ahead (`buf_read_ahead_linear()`; `sim/alter/bulk_io.rs`).
    /// Default off: the other profiles' build costs were fitted leaf by leaf.
    #[serde(default)]
    pub scan_read_ahead: bool,
    /// The index build's bulk load writes redo for its pages (MariaDB 10.5+, MDEV-19747:
    /// `PageBulk::init()` logs), where MySQL's is redo-less (`MTR_LOG_NO_REDO`).
    #[serde(default)]
    pub bulk_load_redo: bool,
    /// The checkpoint age counts from the last checkpoint written, and a writer past
    /// `max_checkpoint_age` waits for a sync flush and a checkpoint
    /// (`log_checkpoint_margin()`, MariaDB 10.5+; `sim/checkpoint.rs`). Default off:
    /// the age counts from the oldest modification.
    #[serde(default)]
    pub checkpoint_margin: bool,
}

/// TRUNCATE TABLE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Truncate {
    /// 5.7 (WL#6501): free the index trees under `dict_sys` (per-page AHI drop), an LRU
    /// scan of every instance (`BUF_REMOVE_ALL_NO_WRITE`), then `os_file_truncate()`
    /// under the global `fil_sys` mutex.
    InPlaceUnderFilSys,
    /// 8.0: rename the tablespace, drop it along the DROP path, create a new one.
    DropCreate,
    /// 5.1-5.6 `row_truncate_table_for_mysql()`: `fil_discard_tablespace()` (an LRU
    /// scan of every instance, `BUF_REMOVE_ALL_NO_WRITE`, then the unlink) and a new
    /// tablespace under a new id, all under `dict_sys`. No index tree is freed, so no
    /// page is looked up one by one (nor, with Bug#16067973, decompressed).
    DiscardAndCreate,
}

/// Instant ADD/DROP COLUMN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InstantColumns {
    /// None: every column change rebuilds the table (5.7 and before; ALGORITHM=INSTANT
    /// is not even a keyword: ER_UNKNOWN_ALTER_ALGORITHM).
    None,
    /// 8.0.12-8.0.28: ADD COLUMN at the end only, flagged in the record's info bits
    /// (`REC_INFO_INSTANT_FLAG`).
    AppendOnly,
    /// 8.0.29+: ADD at any position and DROP, each giving the table a new row version
    /// (at most `MAX_ROW_VERSION` = 64, then ER_INNODB_MAX_ROW_VERSION).
    RowVersions,
}

/// `buf_flush_or_remove_pages()` in a flush mode (an index build's FlushObserver,
/// FLUSH TABLES ... FOR EXPORT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlushScan {
    /// 5.7: writing a page releases the mutexes, so the walk restarts from the tail of
    /// the flush list after every page written: quadratic when other dirty pages are
    /// older (MySQL bug #102289).
    RestartAfterFlush,
    /// 8.0.27+: `buf_page_try_pin()` pins the previous page before the write and the
    /// walk continues from it: one walk, plus a verification pass.
    PinNext,
    /// AliSQL: the tablespace's own flush list (2048 lists partitioned by space id):
    /// only its pages are visited.
    SpaceList,
}

/// CPU costs of the engine's inner loops, in virtual nanoseconds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    /// One block visited by a scan of the LRU list.
    pub lru_scan_ns_per_page: u64,
    /// Bumping a tablespace version (stop new operations, shard mutex).
    pub version_bump_ns: u64,
    /// The dictionary work of a DROP apart from the pool and the file.
    pub drop_dict_ns: u64,
    /// A page-hash lookup and buffer fix of a resident page (`buf_page_get_gen()`).
    pub page_get_ns: u64,
    /// One LRU-list operation under the instance mutex (make young, take a free block,
    /// insert a read page).
    pub lru_op_ns: u64,
    /// AHI cleanup steps 1-2 for one page of a freed extent: is it in the pool, does
    /// its block have an index (`buf_page_get_gen(PEEK_IF_IN_POOL)`).
    pub ahi_check_ns_per_page: u64,
    /// AHI cleanup step 3, per record of a hashed page: hash it, delete its entry.
    pub ahi_drop_ns_per_record: u64,
    /// Inflating one compressed page into a 16 KiB frame (`buf_zip_decompress()` →
    /// `page_zip_decompress()`, zlib inflate plus rebuilding the page directory).
    /// Default: the I5 calibration (see `mariadb-5.5.toml`), the same CPU work on any
    /// version.
    #[serde(default = "default_zip_decompress_ns")]
    pub zip_decompress_ns_per_page: u64,
    /// Creating a file-per-table tablespace (`fil_create_new_single_table_tablespace()`:
    /// create, write the header pages, fsync). Default 2 ms.
    #[serde(default = "default_tablespace_create_ns")]
    pub tablespace_create_ns: u64,
    /// Parsing one record while searching or scanning a page (`rec_get_offsets()`,
    /// `cmp_dtuple_rec()`, `rec_get_nth_field()`): I2's regression lives here.
    pub record_parse_ns: u64,
    /// Online index build, per clustered row read: build the index entry and copy it to
    /// the sort buffer (`row_merge_read_clustered_index()`).
    #[serde(default = "default_index_scan_ns_per_row")]
    pub index_scan_ns_per_row: u64,
    /// One key comparison of the in-memory sort or a merge pass (`row_merge_cmp()`).
    #[serde(default = "default_sort_compare_ns")]
    pub sort_compare_ns: u64,
    /// Copying 1 KiB of an index build's sort file to or from the OS page cache
    /// (`row_merge_write()`/`row_merge_read()`: `write()`/`read()` of a file opened
    /// without `O_DIRECT`). Default 340 ns (about 3 GB/s), fitted to mariadbd's merge
    /// phase on the calibration machine (see `mariadb-10.11.toml`).
    #[serde(default = "default_sort_file_ns_per_kb")]
    pub sort_file_ns_per_kb: u64,
    /// Appending one sorted entry to a new leaf (`BtrBulk::insert()`).
    #[serde(default = "default_bulk_insert_ns_per_row")]
    pub bulk_insert_ns_per_row: u64,
    /// Logging one concurrent change to the row log (`row_log_online_op()`), paid by
    /// the DML statement.
    #[serde(default = "default_row_log_ns")]
    pub row_log_ns: u64,
    /// Applying one row-log entry at the end of the build (`row_log_apply()`).
    #[serde(default = "default_row_log_apply_ns")]
    pub row_log_apply_ns: u64,
    /// A console statement's work per row it reads (`row_search_mvcc()`: fetch, check
    /// the read view or lock the record, evaluate the condition).
    #[serde(default = "default_row_search_ns")]
    pub row_search_ns_per_row: u64,
    /// A consistent (non-locking) read's work per row (`row_search_mvcc()` with a
    /// read view and no lock; the LIMIT offset's rows, read and not sent, included):
    /// pt-online-schema-change's `/*next chunk boundary*/` query reads a chunk's worth
    /// of the primary key.
    #[serde(default = "default_consistent_read_ns")]
    pub consistent_read_ns_per_row: u64,
    /// ...and per row it changes (`row_upd_clust_step()`: undo record, in-place
    /// update, redo; secondary-index maintenance for `k`).
    #[serde(default = "default_row_update_ns")]
    pub row_update_ns_per_row: u64,
    /// ...and per row it inserts, into the clustered index (`row_ins_clust_index_entry()`):
    /// default the changed row's cost, as I4 gives no other figure.
    #[serde(default = "default_row_update_ns")]
    pub row_insert_ns_per_row: u64,
    /// An inserted row's entry in each secondary index (`row_ins_sec_index_entry()`:
    /// the descent and the insert), besides its key's bytes; default 0 (included in
    /// the row's cost).
    #[serde(default)]
    pub sec_index_insert_ns: u64,
    /// ...and per byte of that index's key: the descent compares the key at every
    /// level (`cmp_dtuple_rec()`, by the column's collation). Default 0.
    #[serde(default)]
    pub sec_index_key_byte_ns: u64,
    /// An index build or table rebuild, per row (read the clustered index, sort, bulk
    /// load): I4's CREATE INDEX took 6.87 s on an idle 1,000,000-row table.
    #[serde(default = "default_index_build_ns")]
    pub index_build_ns_per_row: u64,
    /// An online table rebuild (`ALTER TABLE ... FORCE`, `row_merge_build_indexes()`
    /// with a new clustered index), per row read, on top of the index build's costs:
    /// converting and inserting the whole row (`row_merge_insert_index_tuples()`).
    /// Default 0 (the build's costs alone).
    #[serde(default)]
    pub rebuild_ns_per_row: u64,
}

fn default_index_build_ns() -> u64 {
    6_870
}

/// Calibrated on incident I4: `UPDATE sbtest1 SET k=1` over 1,000,000 rows took
/// 15.54 s (Aurora MySQL 5.7.12), i.e. 15.54 µs per row read and changed; split as
/// 1.5 µs to find and lock the row and 14.04 µs to change it.
fn default_row_search_ns() -> u64 {
    1_500
}
fn default_row_update_ns() -> u64 {
    14_040
}
/// Measured on mariadbd 10.11 on this machine class (6 December 2026, quiet, a warm
/// 1 GB pool): pt-online-schema-change's boundary query over 100,000 rows of the
/// primary key took 17 to 27 ms, about 250 ns a row; a consistent read takes no lock,
/// which is most of a locking read's 1.5 µs. The same code in every profile.
fn default_consistent_read_ns() -> u64 {
    250
}

/// The SQL layer's defaults that differ between servers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SqlLayer {
    /// `lock_wait_timeout` default, seconds: MySQL's 31536000 (`LONG_TIMEOUT`,
    /// `sql/sql_const.h`); MariaDB's 86400 since 10.2.
    #[serde(default = "default_lock_wait_timeout_s")]
    pub lock_wait_timeout_s: u64,
    /// `innodb_lock_wait_timeout` default, seconds (50 in every version).
    #[serde(default = "default_innodb_lock_wait_timeout_s")]
    pub innodb_lock_wait_timeout_s: u64,
    /// The least `lock_wait_timeout` and `innodb_lock_wait_timeout` a `SET` accepts
    /// (smaller values are truncated to it): 1 in MySQL (`sys_vars.cc`
    /// `VALID_RANGE(1, LONG_TIMEOUT)`), 0 in MariaDB 10.3+, where 0 means "do not wait"
    /// (the `NOWAIT` of MDEV-11388).
    #[serde(default = "default_lock_wait_timeout_min_s")]
    pub lock_wait_timeout_min_s: u64,
    /// The metadata lock `OPTIMIZE TABLE` opens the table with before InnoDB answers
    /// "doing recreate" and the online rebuild starts.
    #[serde(default)]
    pub optimize_open_lock: AdminOpenLock,
    /// `ALTER TABLE ... DROP PARTITION` first upgrades its SHARED_UPGRADABLE to
    /// SHARED_NO_WRITE and only then to EXCLUSIVE (MariaDB `sql_partition.cc`
    /// `fast_alter_partition_table()`, then `wait_while_table_is_used()`): while it
    /// waits for an open writer, new reads pass and new writes queue.
    #[serde(default)]
    pub drop_partition_snw_first: bool,
    /// `CREATE TABLE ... LIKE src` opens `src` with SHARED_READ (MariaDB, as observed
    /// on 10.11.19: it passes an open writer) rather than MySQL 8.0's
    /// SHARED_READ_ONLY (which waits for writers).
    #[serde(default)]
    pub create_like_source_shared_read: bool,
    /// ER_DUP_ENTRY (1062) names the key with its table, `for key 't.PRIMARY'`
    /// (MySQL 8.0.19+, WL#12589 "Add more information to Duplicate Key Error"),
    /// rather than `for key 'PRIMARY'` (MySQL before 8.0.19, MariaDB).
    #[serde(default)]
    pub dup_key_name_has_table: bool,
    /// `ALTER TABLE ... ADD/DROP COLUMN, ALGORITHM=INPLACE` is done instantly when it
    /// can be (MariaDB 10.3+: instant is a kind of in-place; MySQL 8.0 rebuilds).
    #[serde(default)]
    pub inplace_tries_instant: bool,
    /// `RENAME TABLE` runs under LOCK TABLES on tables locked WRITE, which stay locked
    /// under their new names (MySQL 8.0.13+, `sql_rename.cc` `mysql_rename_tables()`
    /// with `thd->locked_tables_mode`); before it, and in MariaDB (10.11.19, as
    /// observed), it is refused with 1192.
    #[serde(default)]
    pub rename_under_lock_tables: bool,
    /// `FLUSH TABLES t` takes EXCLUSIVE on each table for the statement, so it waits
    /// for every session holding a lock on it, an open transaction's SHARED_READ too,
    /// up to `lock_wait_timeout` (MariaDB 10.x `sql_base.cc` `close_cached_tables()`;
    /// 10.11.19: 1205 behind a transaction that read the table). MySQL takes no
    /// metadata lock there: it waits only for the table's old versions in use.
    #[serde(default)]
    pub flush_tables_exclusive_mdl: bool,
    /// `innodb_autoinc_lock_mode` default, a startup setting: 0 ("traditional", every
    /// insert holds the table's AUTO-INC lock to its statement's end), 1
    /// ("consecutive", only bulk inserts such as INSERT ... SELECT do; simple inserts
    /// take the AUTO-INC mutex unless another transaction holds or waits for the
    /// lock), 2 ("interleaved", no AUTO-INC table lock). 1 in MySQL 5.1-5.7 and
    /// MariaDB, 2 from MySQL 8.0.3 (WL#9699) (`ha_innodb.cc`
    /// `innobase_lock_autoinc()`).
    #[serde(default = "default_autoinc_lock_mode")]
    pub autoinc_lock_mode: u8,
    /// `innodb_adaptive_hash_index` default: ON through MySQL 8.3 and MariaDB 10.4; OFF
    /// from MariaDB 10.5.0 (MDEV-20487) and MySQL 8.4.0 (its changed InnoDB defaults).
    /// What `ddlscope advise` assumes when the user does not say.
    #[serde(default = "default_adaptive_hash_index")]
    pub adaptive_hash_index: bool,
}

/// The lock an admin statement (OPTIMIZE, REPAIR) opens its table with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdminOpenLock {
    /// MySQL `sql_admin.cc` `mysql_admin_table()`: `lock_type >= TL_WRITE_ALLOW_WRITE ?
    /// MDL_SHARED_NO_READ_WRITE : MDL_SHARED_READ` (5.7, 8.0): a pending request blocks
    /// new reads too.
    #[default]
    SharedNoReadWrite,
    /// MariaDB 10.11, as observed against the server: new reads pass the pending
    /// request, writes wait.
    SharedNoWrite,
}

impl Default for SqlLayer {
    fn default() -> SqlLayer {
        SqlLayer {
            lock_wait_timeout_s: default_lock_wait_timeout_s(),
            innodb_lock_wait_timeout_s: default_innodb_lock_wait_timeout_s(),
            lock_wait_timeout_min_s: default_lock_wait_timeout_min_s(),
            optimize_open_lock: AdminOpenLock::default(),
            autoinc_lock_mode: default_autoinc_lock_mode(),
            adaptive_hash_index: default_adaptive_hash_index(),
            drop_partition_snw_first: false,
            create_like_source_shared_read: false,
            dup_key_name_has_table: false,
            inplace_tries_instant: false,
            rename_under_lock_tables: false,
            flush_tables_exclusive_mdl: false,
        }
    }
}

fn default_lock_wait_timeout_s() -> u64 {
    31_536_000
}
fn default_innodb_lock_wait_timeout_s() -> u64 {
    50
}
fn default_lock_wait_timeout_min_s() -> u64 {
    1
}
fn default_autoinc_lock_mode() -> u8 {
    1
}

fn default_adaptive_hash_index() -> bool {
    true
}

fn default_zip_decompress_ns() -> u64 {
    70_000
}

fn default_tablespace_create_ns() -> u64 {
    2_000_000
}

// The online index build's CPU costs are the same code in 5.6 to 8.4; calibrated
// together with the scenario's cores to I4's idle build of 6.87 s (1 M rows, an index
// on (id, k, c, pad): ~200-byte entries). Since the sort file goes through the page
// cache (`sim/alter/sort_file.rs`) rather than the device, the scan carries what the
// device's time did: 4,000 ns gives 6.89 s idle and 32.2 s loaded (1,500 did with the
// file on the device).
fn default_index_scan_ns_per_row() -> u64 {
    4_000
}
fn default_sort_compare_ns() -> u64 {
    60
}
fn default_sort_file_ns_per_kb() -> u64 {
    340
}
fn default_bulk_insert_ns_per_row() -> u64 {
    700
}
fn default_row_log_ns() -> u64 {
    3_000
}
fn default_row_log_apply_ns() -> u64 {
    4_000
}

/// Where a behaviour comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cite {
    /// What the citation supports.
    pub what: String,
    /// Source file and function, bug number, or article.
    pub source: String,
}

/// One engine profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Short name, the file stem: `mysql-5.7`.
    pub name: String,
    /// Display title: `MySQL 5.7`.
    pub title: String,
    /// What distinguishes this version, for people.
    pub summary: String,
    /// The mechanisms.
    pub mechanisms: Mechanisms,
    /// The costs.
    pub costs: Costs,
    /// SQL-layer defaults.
    #[serde(default)]
    pub sql: SqlLayer,
    /// Where each behaviour comes from.
    #[serde(default)]
    pub cites: Vec<Cite>,
}

/// A TOML file's error as the user reads it: `invalid KIND: message (line N)`, N the
/// 1-based line where the fault starts.
pub(crate) fn toml_error(kind: &str, text: &str, e: &toml::de::Error) -> String {
    let mut msg = format!("invalid {kind}: {}", e.message().trim());
    if let Some(span) = e.span() {
        let mut start = span.start.min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let line = text[..start].matches('\n').count() + 1;
        msg.push_str(&format!(" (line {line})"));
    }
    msg
}

impl Profile {
    /// Reads a profile from TOML text.
    pub fn from_toml(text: &str) -> Result<Profile, String> {
        toml::from_str(text).map_err(|e| toml_error("profile", text, &e))
    }

    /// This profile with single mechanisms or costs replaced, by name (a scenario's
    /// `[profile_overrides]`); an unknown name or a bad value is an error naming it.
    pub fn with_overrides(&self, overrides: &toml::Table) -> Result<Profile, String> {
        if overrides.is_empty() {
            return Ok(self.clone());
        }
        let mut value = toml::Value::try_from(self).map_err(|e| e.to_string())?;
        for (key, v) in overrides {
            let root = value
                .as_table_mut()
                .ok_or("a profile serializes to a table")?;
            let section = ["mechanisms", "costs"]
                .into_iter()
                .find(|s| {
                    root.get(*s)
                        .and_then(|t| t.as_table())
                        .is_some_and(|t| t.contains_key(key))
                })
                .ok_or_else(|| {
                    let names = |s: &str| {
                        root.get(s)
                            .and_then(|t| t.as_table())
                            .map(|t| t.keys().cloned().collect::<Vec<_>>().join(", "))
                            .unwrap_or_default()
                    };
                    format!(
                        "profile_overrides.{key}: no such switch; mechanisms: {}; costs: {}",
                        names("mechanisms"),
                        names("costs")
                    )
                })?;
            if let Some(t) = root.get_mut(section).and_then(|t| t.as_table_mut()) {
                t.insert(key.clone(), v.clone());
            }
            let check: Result<Profile, _> = value.clone().try_into();
            if let Err(e) = check {
                return Err(format!("profile_overrides.{key} = {v}: {}", e.message()));
            }
        }
        let mut p: Profile = value
            .try_into()
            .map_err(|e: toml::de::Error| e.message().to_string())?;
        p.summary = format!(
            "{}\n\nOverridden by the scenario: {}.",
            p.summary,
            overrides
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        Ok(p)
    }

    /// A built-in profile by name (read and checked when the engine was built:
    /// `builtin.rs`).
    pub fn builtin(name: &str) -> Result<Profile, String> {
        Profile::check_builtin(name)?;
        static COMPILED: std::sync::OnceLock<Vec<(String, Profile)>> = std::sync::OnceLock::new();
        let all =
            COMPILED.get_or_init(|| crate::builtin::compiled(crate::builtin::COMPILED_PROFILES));
        Ok(crate::builtin::find(all, name))
    }

    /// `Ok` if `name` is a built-in profile, else the error [`Profile::builtin`] gives.
    pub(crate) fn check_builtin(name: &str) -> Result<(), String> {
        if crate::builtin::PROFILES.iter().any(|(n, _)| *n == name) {
            return Ok(());
        }
        Err(format!(
            "unknown engine profile '{name}'; known profiles: {}",
            crate::builtin::PROFILES
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scenario_overrides_single_switches_and_bad_ones_are_named() {
        let p = Profile::builtin("mysql-5.7").unwrap();
        let o: toml::Table =
            toml::from_str("flush_scan = \"pin_next\"\nrecord_parse_ns = 70").unwrap();
        let q = p.with_overrides(&o).unwrap();
        assert_eq!(q.mechanisms.flush_scan, FlushScan::PinNext);
        assert_eq!(q.costs.record_parse_ns, 70);
        assert_eq!(q.mechanisms.drop_eviction, p.mechanisms.drop_eviction);
        assert!(q.summary.contains("flush_scan = \"pin_next\""));
        let bad: toml::Table = toml::from_str("flush_scna = \"pin_next\"").unwrap();
        let e = p.with_overrides(&bad).unwrap_err();
        assert!(
            e.starts_with("profile_overrides.flush_scna: no such switch"),
            "{e}"
        );
        assert!(e.contains("flush_scan"), "{e}");
        let bad: toml::Table = toml::from_str("flush_scan = \"sideways\"").unwrap();
        let e = p.with_overrides(&bad).unwrap_err();
        assert!(
            e.starts_with("profile_overrides.flush_scan = \"sideways\""),
            "{e}"
        );
        let bad: toml::Table = toml::from_str("record_parse_ns = -1").unwrap();
        assert!(p.with_overrides(&bad).is_err());
    }

    /// Every built-in profile as its file reads today.
    fn from_files() -> Vec<(String, Profile)> {
        crate::builtin::PROFILES
            .iter()
            .map(|(n, a)| {
                let p = Profile::from_toml(a.text())
                    .unwrap_or_else(|e| panic!("built-in profile {n}: {e}"));
                (n.to_string(), p)
            })
            .collect()
    }

    #[test]
    fn builtin_bin_profiles_is_current() {
        crate::builtin::check_compiled(
            "profiles.bin",
            crate::builtin::COMPILED_PROFILES,
            &from_files(),
        );
    }

    #[test]
    fn every_builtin_profile_reads_as_its_file() {
        for (name, from_text) in from_files() {
            let p = Profile::builtin(&name).unwrap();
            assert_eq!(format!("{p:?}"), format!("{from_text:?}"), "{name}");
        }
    }

    #[test]
    fn every_builtin_profile_parses_and_is_named_after_its_file() {
        for (name, _) in crate::builtin::PROFILES {
            let p = Profile::builtin(name).unwrap();
            assert_eq!(&p.name, name);
            assert!(!p.cites.is_empty(), "{name} cites its sources");
        }
    }

    #[test]
    fn an_unknown_profile_lists_the_known_ones() {
        let e = Profile::builtin("mysql-9.9").unwrap_err();
        assert!(e.contains("mysql-5.7") && e.contains("mysql-8.0.23"), "{e}");
    }

    #[test]
    fn a_misspelt_switch_is_an_error() {
        let text = crate::builtin::profile_text("mysql-5.7")
            .unwrap()
            .replace("drop_eviction", "drop_evicton");
        let e = Profile::from_toml(&text).unwrap_err();
        assert!(e.contains("drop_evicton"), "{e}");
    }
}
