//! Scenarios: the machine, the data, the workload and the timed statements of one run.
//!
//! A scenario is a TOML file under `assets/scenarios/`; the file stem names it. Every
//! field is checked when the scenario is loaded, and a bad one gets an error that names
//! the field and says what is allowed, so a typo never becomes a silent default.

pub mod shell;
pub mod tool;

use crate::device::DeviceConfig;
use crate::fs::FileSystemConfig;
use crate::size::ByteSize;
use crate::units::PAGE_SIZE;
use crate::workload::{Distribution, WorkloadKind};
use serde::{Deserialize, Serialize};
use shell::ShellCommand;
use tool::ToolCommand;

/// `innodb_buffer_pool_size` minimum.
pub const POOL_MIN: u64 = 5 * ByteSize::MIB;
/// The largest pool this simulator models (32 B of descriptor per 16 KiB page).
pub const POOL_MAX: u64 = 256 * ByteSize::GIB;

/// One run's set-up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The file stem.
    pub name: String,
    /// Display title.
    pub title: String,
    /// What the scenario shows.
    #[serde(default)]
    pub description: String,
    /// The engine profile to run (a file stem under `assets/profiles/`).
    pub profile: String,
    /// Single switches or costs of the profile to override, by name:
    /// `[profile_overrides] flush_scan = "pin_next"`, `record_parse_ns = 70`.
    #[serde(default)]
    pub profile_overrides: toml::Table,
    /// The seed of every random stream.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// How long a headless run lasts by default, in virtual seconds.
    #[serde(default = "default_seconds")]
    pub seconds: u64,
    /// The schema the tables live in.
    #[serde(default = "default_schema")]
    pub schema: String,
    /// The buffer pool.
    pub buffer_pool: BufferPoolConfig,
    /// The storage device.
    #[serde(default)]
    pub device: DeviceConfig,
    /// The file system the data files live on.
    #[serde(default)]
    pub file_system: FileSystemConfig,
    /// The tables, each in its own tablespace (file-per-table).
    pub tables: Vec<TableConfig>,
    /// The client workload.
    pub workload: WorkloadConfig,
    /// InnoDB variables.
    #[serde(default)]
    pub innodb: InnodbConfig,
    /// The server around InnoDB.
    #[serde(default)]
    pub server: ServerConfig,
    /// The HA manager's write probe.
    #[serde(default)]
    pub ha_probe: HaProbeConfig,
    /// A replica applying the source's binary log.
    #[serde(default)]
    pub replica: ReplicaConfig,
    /// Statements issued at fixed virtual times.
    #[serde(default)]
    pub script: Vec<ScriptStep>,
}

fn default_seed() -> u64 {
    1
}
fn default_seconds() -> u64 {
    60
}
fn default_schema() -> String {
    "test".into()
}

/// `innodb_buffer_pool_*` settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferPoolConfig {
    /// `innodb_buffer_pool_size`.
    pub size: ByteSize,
    /// `innodb_buffer_pool_instances` (1-64).
    #[serde(default = "default_instances")]
    pub instances: u16,
    /// `innodb_lru_scan_depth`, per instance.
    #[serde(default = "default_lru_scan_depth")]
    pub lru_scan_depth: u32,
    /// `innodb_old_blocks_pct` (5-95).
    #[serde(default = "default_old_blocks_pct")]
    pub old_blocks_pct: u32,
    /// `innodb_old_blocks_time`, ms.
    #[serde(default = "default_old_blocks_time_ms")]
    pub old_blocks_time_ms: u32,
    /// Fill the pool with the tables' pages before the run starts, as a server that has
    /// been up for a while would be.
    #[serde(default = "default_true")]
    pub warm: bool,
    /// Percent of the leaf pages loaded by the warm-up that already carry adaptive-hash
    /// entries (a server whose AHI has been built up by earlier traffic).
    #[serde(default)]
    pub warm_ahi_pct: u32,
}

fn default_instances() -> u16 {
    1
}
fn default_lru_scan_depth() -> u32 {
    1024
}
fn default_old_blocks_pct() -> u32 {
    37
}
fn default_old_blocks_time_ms() -> u32 {
    1000
}
fn default_true() -> bool {
    true
}

/// One table (and its file-per-table tablespace). Give `rows`, or `size` (the rows
/// that fill a file that big), or both (rows, in a file at least that big).
///
/// `row_format = "compressed"` with `key_block_size` (KiB, default 8) stores it
/// ROW_FORMAT=COMPRESSED; `size` is then the file's size, `key_block_size` KiB a page.
/// `partitions = N` makes it `PARTITION BY RANGE (id)` in N equal parts `p0..`, each
/// its own tablespace; `partition_sizes` gives each partition's file size instead, and
/// `cached_partitions` the partitions the warm-up reads in whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableConfig {
    /// The table name.
    pub name: String,
    /// Rows.
    #[serde(default)]
    pub rows: Option<u64>,
    /// Size of its data file.
    #[serde(default)]
    pub size: Option<ByteSize>,
    /// Average row length in bytes (sysbench's sbtest rows are about 210).
    #[serde(default = "default_row_bytes")]
    pub row_bytes: u64,
    /// Integer secondary indexes (sysbench's `k`).
    #[serde(default = "default_secondary_indexes")]
    pub secondary_indexes: u8,
    /// `ROW_FORMAT`.
    #[serde(default)]
    pub row_format: RowFormatConfig,
    /// `KEY_BLOCK_SIZE` in KiB (1, 2, 4, 8, 16), with `row_format = "compressed"`.
    #[serde(default)]
    pub key_block_size: Option<u32>,
    /// `PARTITION BY RANGE (id)` into this many partitions `p0`, `p1`, ...
    #[serde(default)]
    pub partitions: Option<u32>,
    /// Each partition's file size (one per partition), instead of equal parts of `size`.
    #[serde(default)]
    pub partition_sizes: Vec<ByteSize>,
    /// Partitions the warm-up reads in whole, as a scan of them would have (the others
    /// are not in the pool at the start).
    #[serde(default)]
    pub cached_partitions: Vec<String>,
    /// Percent of a compressed table's pages loaded by the warm-up that also keep their
    /// uncompressed frame (on `unzip_LRU`); the rest are compressed-only. Default 10:
    /// past a tenth of the LRU list, an I/O-bound pool frees uncompressed frames first
    /// (`buf_LRU_evict_from_unzip_LRU()`), so a busy pool settles near it.
    #[serde(default = "default_warm_unzip_pct")]
    pub warm_unzip_pct: u32,
}

/// `ROW_FORMAT` of a table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RowFormatConfig {
    /// The 5.7+ default.
    #[default]
    Dynamic,
    /// The 5.0-5.6 default.
    Compact,
    /// The pre-5.0 format.
    Redundant,
    /// Pages compressed to `KEY_BLOCK_SIZE`.
    Compressed,
}

fn default_warm_unzip_pct() -> u32 {
    10
}

impl TableConfig {
    /// `KEY_BLOCK_SIZE` in KiB if the table is compressed, else 0.
    pub fn zip_kb(&self) -> u32 {
        match self.row_format {
            RowFormatConfig::Compressed => self.key_block_size.unwrap_or(8),
            _ => 0,
        }
    }

    /// The partitions' names, `p0..pN-1` (empty when not partitioned).
    pub fn partition_names(&self) -> Vec<String> {
        (0..self.partitions.unwrap_or(0))
            .map(|k| format!("p{k}"))
            .collect()
    }
}

fn default_row_bytes() -> u64 {
    210
}
fn default_secondary_indexes() -> u8 {
    1
}

/// The client workload: sysbench's scripts and options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkloadConfig {
    /// The sysbench script.
    #[serde(default = "default_kind")]
    pub kind: WorkloadKind,
    /// Client threads (`--threads`).
    pub threads: u32,
    /// Tables the workload uses (default: all). sysbench picks one at random per statement.
    #[serde(default)]
    pub tables: Vec<String>,
    /// `--rand-type`.
    #[serde(default)]
    pub distribution: Distribution,
    /// `--rand-spec-pct`.
    #[serde(default = "default_special_pct")]
    pub special_pct: u32,
    /// `--rand-spec-res`.
    #[serde(default = "default_special_res")]
    pub special_res: u32,
    /// `--rand-pareto-h`.
    #[serde(default = "default_pareto_h")]
    pub pareto_h: f64,
    /// Mean client round trip per statement, µs (network, client, protocol).
    #[serde(default = "default_round_trip_us")]
    pub round_trip_us: u64,
    /// Spread of ordinary round trips: uniform within ±this percent of the mean.
    #[serde(default = "default_jitter_pct")]
    pub round_trip_jitter_pct: u32,
    /// Share of round trips that are slow, in tenths of a percent.
    #[serde(default)]
    pub round_trip_tail_permille: u32,
    /// How many times the mean a slow round trip takes (uniform from 1x to this).
    #[serde(default = "default_tail_x")]
    pub round_trip_tail_x: u32,
    /// Server CPU per statement besides page accesses (parse, optimise, execute), µs.
    #[serde(default = "default_statement_cpu_us")]
    pub statement_cpu_us: u64,
}

fn default_kind() -> WorkloadKind {
    WorkloadKind::OltpReadWrite
}
fn default_special_pct() -> u32 {
    1
}
fn default_special_res() -> u32 {
    75
}
fn default_pareto_h() -> f64 {
    0.2
}
fn default_round_trip_us() -> u64 {
    200
}
fn default_jitter_pct() -> u32 {
    20
}
fn default_tail_x() -> u32 {
    4
}
pub(crate) fn default_statement_cpu_us() -> u64 {
    50
}

/// The server around InnoDB.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    /// A replication plugin (semi-sync, group replication) with a `before_dml` hook is
    /// installed.
    #[serde(default)]
    pub replication_plugin: bool,
    /// CPU cores running the server's threads; 0 = as many as there are runnable
    /// threads (no CPU contention).
    #[serde(default)]
    pub cpus: u32,
}

/// An HA manager's health check: it writes a heartbeat row every interval and fails the
/// primary over when a write stalls for too long.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HaProbeConfig {
    /// Whether the probe runs.
    #[serde(default)]
    pub enabled: bool,
    /// Time between heartbeats, ms.
    #[serde(default = "default_probe_interval_ms")]
    pub interval_ms: u64,
    /// A heartbeat stalled this long declares a failover, s.
    #[serde(default = "default_failover_after_s")]
    pub failover_after_s: u64,
}

impl Default for HaProbeConfig {
    fn default() -> HaProbeConfig {
        toml::from_str("").expect("every HA probe setting has a default")
    }
}

fn default_probe_interval_ms() -> u64 {
    1000
}
fn default_failover_after_s() -> u64 {
    30
}

/// A replica of the server: its SQL thread applies the source's binary log one
/// transaction at a time (`slave_parallel_workers = 0`), in commit order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplicaConfig {
    /// Whether there is a replica.
    #[serde(default)]
    pub enabled: bool,
    /// What applying one row event costs the applier, in microseconds (a row-based
    /// binlog's `Write_rows`/`Update_rows`/`Delete_rows`: no parse, no client round
    /// trip).
    #[serde(default = "default_apply_row_us")]
    pub apply_row_us: u64,
}

impl Default for ReplicaConfig {
    fn default() -> ReplicaConfig {
        toml::from_str("").expect("every replica setting has a default")
    }
}

fn default_apply_row_us() -> u64 {
    20
}

/// InnoDB server variables the simulation uses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InnodbConfig {
    /// `innodb_io_capacity`.
    #[serde(default = "default_io_capacity")]
    pub io_capacity: u32,
    /// `innodb_io_capacity_max`.
    #[serde(default = "default_io_capacity_max")]
    pub io_capacity_max: u32,
    /// `innodb_max_dirty_pages_pct`.
    #[serde(default = "default_max_dirty_pct")]
    pub max_dirty_pages_pct: u32,
    /// `innodb_max_dirty_pages_pct_lwm`.
    #[serde(default = "default_max_dirty_lwm")]
    pub max_dirty_pages_pct_lwm: u32,
    /// `innodb_adaptive_flushing_lwm`, percent of the redo capacity.
    #[serde(default = "default_adaptive_flushing_lwm")]
    pub adaptive_flushing_lwm: u32,
    /// Redo log capacity (`innodb_log_file_size` x `innodb_log_files_in_group`, or 8.0.30's
    /// `innodb_redo_log_capacity`).
    #[serde(default = "default_redo_capacity")]
    pub redo_log_capacity: ByteSize,
    /// Redo bytes a row change writes.
    #[serde(default = "default_redo_bytes_per_row")]
    pub redo_bytes_per_row: u64,
    /// `innodb_adaptive_hash_index`.
    #[serde(default = "default_true")]
    pub adaptive_hash_index: bool,
    /// `innodb_adaptive_hash_index_parts`.
    #[serde(default = "default_ahi_parts")]
    pub adaptive_hash_index_parts: u32,
    /// `innodb_sort_buffer_size`: an online index build's sort buffer and row-log block.
    #[serde(default = "default_sort_buffer_size")]
    pub sort_buffer_size: ByteSize,
    /// `innodb_online_alter_log_max_size`.
    #[serde(default = "default_online_alter_log_max_size")]
    pub online_alter_log_max_size: ByteSize,
    /// `innodb_autoinc_lock_mode` (0, 1 or 2), a startup setting; the profile's
    /// default when not given.
    #[serde(default)]
    pub autoinc_lock_mode: Option<u8>,
}

impl Default for InnodbConfig {
    fn default() -> InnodbConfig {
        toml::from_str("").expect("every InnoDB variable has a default")
    }
}

fn default_io_capacity() -> u32 {
    200
}
fn default_io_capacity_max() -> u32 {
    2000
}
fn default_max_dirty_pct() -> u32 {
    90
}
fn default_max_dirty_lwm() -> u32 {
    10
}
fn default_adaptive_flushing_lwm() -> u32 {
    10
}
fn default_redo_capacity() -> ByteSize {
    ByteSize(96 * ByteSize::MIB)
}
fn default_redo_bytes_per_row() -> u64 {
    250
}
fn default_ahi_parts() -> u32 {
    8
}
fn default_sort_buffer_size() -> ByteSize {
    ByteSize(1 << 20)
}
fn default_online_alter_log_max_size() -> ByteSize {
    ByteSize(128 << 20)
}

/// A statement issued at a fixed virtual time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptStep {
    /// When, in virtual seconds from the start.
    pub at_s: u64,
    /// The SQL text (or empty, for a shell line).
    #[serde(default)]
    pub sql: String,
    /// Instead of SQL, an operator's shell command on the data files (`ln`, `rm`,
    /// `truncate -s`, `truncate-loop`; see `sim/os.rs`).
    #[serde(default)]
    pub shell: String,
    /// Instead of SQL, an online schema-change tool's command line
    /// (`pt-online-schema-change ...`, `gh-ost ...`; see `scenario/tool.rs`).
    #[serde(default)]
    pub tool: String,
    /// Whose SQL this is: 0 the console session (the default), N another client's
    /// connection, opened when its first step comes due (an application transaction
    /// left open beside the console's DDL). Shell and tool steps are always 0.
    #[serde(default)]
    pub session: u32,
}

/// The other clients' connections a scenario's `[[script]]` may use (`session` 1..=).
pub const MAX_SCRIPT_SESSIONS: u32 = 16;

/// The checks on `row_format`, `key_block_size` and the partition fields of
/// `tables[i]`.
/// Tablespaces (tables and partitions) a scenario may declare.
const MAX_TABLESPACES: u64 = 16_384;

fn validate_compressed_and_partitions(i: usize, t: &TableConfig) -> Result<(), String> {
    if let Some(kb) = t.key_block_size {
        if crate::bufpool::zip_class(kb).is_none() {
            return Err(format!(
                "tables[{i}].key_block_size = {kb}: must be 1, 2, 4, 8 or 16"
            ));
        }
        if t.row_format != RowFormatConfig::Compressed {
            return Err(format!(
                "tables[{i}].key_block_size = {kb}: only with row_format = \"compressed\""
            ));
        }
    }
    if t.warm_unzip_pct > 100 {
        return Err(format!(
            "tables[{i}].warm_unzip_pct = {}: must be 0-100",
            t.warm_unzip_pct
        ));
    }
    let Some(n) = t.partitions else {
        if !t.partition_sizes.is_empty() || !t.cached_partitions.is_empty() {
            return Err(format!(
                "tables[{i}] ({}): partition_sizes and cached_partitions need partitions = N",
                t.name
            ));
        }
        return Ok(());
    };
    // MySQL's limit (MAX_PARTITIONS, 8192 since 5.6.7).
    if !(1..=8192).contains(&n) {
        return Err(format!(
            "tables[{i}].partitions = {n}: must be between 1 and 8192"
        ));
    }
    if !t.partition_sizes.is_empty() {
        if t.partition_sizes.len() != n as usize {
            return Err(format!(
                "tables[{i}].partition_sizes has {} sizes for {n} partitions",
                t.partition_sizes.len()
            ));
        }
        if let Some(sz) = t
            .partition_sizes
            .iter()
            .find(|s| s.bytes() < 4 * PAGE_SIZE || s.bytes() > 64 * ByteSize::TIB)
        {
            return Err(format!(
                "tables[{i}].partition_sizes: {sz} must be between 64K and 64T"
            ));
        }
    }
    let names = t.partition_names();
    for c in &t.cached_partitions {
        if !names.iter().any(|p| p.eq_ignore_ascii_case(c)) {
            return Err(format!(
                "tables[{i}].cached_partitions: no partition '{c}' (the partitions are p0..p{})",
                n - 1
            ));
        }
    }
    Ok(())
}

impl Scenario {
    /// Reads and checks a scenario from TOML text.
    pub fn from_toml(text: &str) -> Result<Scenario, String> {
        let s: Scenario =
            toml::from_str(text).map_err(|e| crate::profile::toml_error("scenario", text, &e))?;
        s.validate()?;
        Ok(s)
    }

    /// The run the engine's speed is measured on, natively (`ddlscope bench`) and in
    /// wasm (`bench-web`, through the app's `realtime_factor` export), so the two
    /// figures divide: `steady-oltp-rw` (16 threads of oltp_read_write) on a 128 GB
    /// pool (8,388,608 pages) in 8 instances.
    pub fn speed_benchmark() -> Scenario {
        let mut s = Scenario::builtin("steady-oltp-rw").expect("steady-oltp-rw is built in");
        s.buffer_pool.size = ByteSize(128 << 30);
        s.buffer_pool.instances = 8;
        s
    }

    /// A built-in scenario by name (read and checked when the engine was built:
    /// `builtin.rs`).
    pub fn builtin(name: &str) -> Result<Scenario, String> {
        if crate::builtin::SCENARIOS.iter().any(|(n, _)| *n == name) {
            static COMPILED: std::sync::OnceLock<Vec<(String, Scenario)>> =
                std::sync::OnceLock::new();
            let all = COMPILED
                .get_or_init(|| crate::builtin::compiled(crate::builtin::COMPILED_SCENARIOS));
            return Ok(crate::builtin::find(all, name));
        }
        Err(format!(
            "unknown scenario '{name}'; built-in scenarios: {}",
            crate::builtin::SCENARIOS
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }

    /// Pages in the pool.
    pub fn pool_pages(&self) -> u32 {
        (self.buffer_pool.size.bytes() / PAGE_SIZE) as u32
    }

    /// Checks every value against what the server (or this simulator) accepts.
    pub fn validate(&self) -> Result<(), String> {
        self.validate_buffer_pool()?;
        self.validate_tables()?;
        self.validate_workload()?;
        if self.server.cpus > 4096 {
            return Err(format!(
                "server.cpus = {}: must be 0 (no CPU contention) to 4096",
                self.server.cpus
            ));
        }
        self.validate_innodb()?;
        // buffer_pool.warm_ahi_pct is checked here, after the innodb section, so a
        // scenario with several errors still reports the same first one.
        let bp = &self.buffer_pool;
        if bp.warm_ahi_pct > 100 {
            return Err(format!(
                "buffer_pool.warm_ahi_pct = {}: must be 0-100",
                bp.warm_ahi_pct
            ));
        }
        let probe = &self.ha_probe;
        if !(10..=3_600_000).contains(&probe.interval_ms)
            || !(1..=86_400).contains(&probe.failover_after_s)
        {
            return Err(format!(
                "ha_probe.interval_ms = {} and failover_after_s = {}: the interval is 10 ms-1 h, the failover 1 s-1 day",
                probe.interval_ms, probe.failover_after_s
            ));
        }
        if let Some(c) = self.device.channels {
            if !(1..=1024).contains(&c) {
                return Err(format!("device.channels = {c}: must be between 1 and 1024"));
            }
        }
        if self.seconds == 0 || self.seconds > 86_400 {
            return Err(format!(
                "seconds = {}: must be between 1 and 86400",
                self.seconds
            ));
        }
        self.validate_script()
    }

    /// The `[buffer_pool]` checks (all but `warm_ahi_pct`).
    fn validate_buffer_pool(&self) -> Result<(), String> {
        let bp = &self.buffer_pool;
        let size = bp.size.bytes();
        if !(POOL_MIN..=POOL_MAX).contains(&size) {
            return Err(format!(
                "buffer_pool.size = {}: must be between {} and {}",
                bp.size,
                ByteSize(POOL_MIN),
                ByteSize(POOL_MAX)
            ));
        }
        if !(1..=64).contains(&bp.instances) {
            return Err(format!(
                "buffer_pool.instances = {}: must be between 1 and 64",
                bp.instances
            ));
        }
        let per_instance = self.pool_pages() / u32::from(bp.instances);
        if per_instance < 2 * bp.lru_scan_depth.max(crate::bufpool::LRU_OLD_MIN_LEN) {
            return Err(format!(
                "buffer_pool.size = {} over {} instances leaves {per_instance} pages per instance; need at least {}",
                bp.size,
                bp.instances,
                2 * bp.lru_scan_depth.max(crate::bufpool::LRU_OLD_MIN_LEN)
            ));
        }
        if bp.lru_scan_depth < 100 {
            return Err(format!(
                "buffer_pool.lru_scan_depth = {}: the minimum is 100",
                bp.lru_scan_depth
            ));
        }
        if !(5..=95).contains(&bp.old_blocks_pct) {
            return Err(format!(
                "buffer_pool.old_blocks_pct = {}: must be between 5 and 95",
                bp.old_blocks_pct
            ));
        }
        Ok(())
    }

    /// The `[[tables]]` checks.
    fn validate_tables(&self) -> Result<(), String> {
        if self.tables.is_empty() && self.workload.threads > 0 {
            return Err("tables: a scenario with a workload needs at least one table".into());
        }
        for (i, t) in self.tables.iter().enumerate() {
            self.validate_table(i, t)?;
        }
        // One tablespace per table or partition; the pool tells at most 65,535
        // tablespace versions with pages apart (`bufpool/space.rs`), and DDL adds more.
        let spaces: u64 = self
            .tables
            .iter()
            .map(|t| u64::from(t.partitions.unwrap_or(1)))
            .sum();
        if spaces > MAX_TABLESPACES {
            return Err(format!(
                "tables: {spaces} tablespaces (tables and partitions): at most {MAX_TABLESPACES}"
            ));
        }
        Ok(())
    }

    /// The checks on `tables[i]`.
    fn validate_table(&self, i: usize, t: &TableConfig) -> Result<(), String> {
        if t.name.is_empty()
            || !t
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        {
            return Err(format!(
                "tables[{i}].name = '{}': use letters, digits and _",
                t.name
            ));
        }
        if self.tables[..i]
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(&t.name))
        {
            return Err(format!(
                "tables[{i}].name = '{}': table names must be unique",
                t.name
            ));
        }
        match (t.rows, t.size) {
            (None, None) if t.partition_sizes.is_empty() => {
                return Err(format!("tables[{i}] ({}): give rows, size or both", t.name))
            }
            (Some(r), _) if r == 0 || r > 100_000_000_000 => {
                return Err(format!(
                    "tables[{i}].rows = {r}: must be between 1 and 100000000000"
                ))
            }
            (_, Some(sz)) if sz.bytes() < 4 * PAGE_SIZE || sz.bytes() > 64 * ByteSize::TIB => {
                return Err(format!(
                    "tables[{i}].size = {sz}: must be between 64K and 64T"
                ))
            }
            _ => {}
        }
        if !(16..=65_535).contains(&t.row_bytes) {
            return Err(format!(
                "tables[{i}].row_bytes = {}: must be between 16 and 65535",
                t.row_bytes
            ));
        }
        if t.secondary_indexes > 63 {
            return Err(format!(
                "tables[{i}].secondary_indexes = {}: at most 63",
                t.secondary_indexes
            ));
        }
        validate_compressed_and_partitions(i, t)
    }

    /// The `[workload]` checks.
    fn validate_workload(&self) -> Result<(), String> {
        let w = &self.workload;
        if w.threads > 4096 {
            return Err(format!(
                "workload.threads = {}: must be between 0 and 4096",
                w.threads
            ));
        }
        for name in &w.tables {
            if !self
                .tables
                .iter()
                .any(|t| t.name.eq_ignore_ascii_case(name))
            {
                return Err(format!(
                    "workload.tables: no table named '{name}' in [[tables]]"
                ));
            }
        }
        if w.special_pct == 0 || w.special_pct > 100 || w.special_res > 100 {
            return Err("workload.special_pct must be 1-100 and workload.special_res 0-100".into());
        }
        if !(w.pareto_h > 0.0 && w.pareto_h < 1.0) {
            return Err(format!(
                "workload.pareto_h = {}: must be strictly between 0 and 1",
                w.pareto_h
            ));
        }
        if w.round_trip_jitter_pct > 100
            || w.round_trip_tail_permille > 1000
            || w.round_trip_tail_x > 1000
        {
            return Err("workload.round_trip_jitter_pct must be 0-100, round_trip_tail_permille 0-1000 and round_trip_tail_x 0-1000".into());
        }
        Ok(())
    }

    /// The `[innodb]` checks.
    fn validate_innodb(&self) -> Result<(), String> {
        let inn = &self.innodb;
        if !(100..=u32::MAX / 2).contains(&inn.io_capacity) || inn.io_capacity_max < inn.io_capacity
        {
            return Err(format!(
                "innodb.io_capacity = {} and io_capacity_max = {}: io_capacity is at least 100 and io_capacity_max at least io_capacity",
                inn.io_capacity, inn.io_capacity_max
            ));
        }
        if inn.max_dirty_pages_pct > 99 || inn.max_dirty_pages_pct_lwm > inn.max_dirty_pages_pct {
            return Err(
                "innodb.max_dirty_pages_pct must be 0-99 and max_dirty_pages_pct_lwm at most it"
                    .into(),
            );
        }
        if inn.adaptive_flushing_lwm > 70 {
            return Err(format!(
                "innodb.adaptive_flushing_lwm = {}: must be 0-70",
                inn.adaptive_flushing_lwm
            ));
        }
        if inn.redo_log_capacity.bytes() < 8 * ByteSize::MIB
            || inn.redo_log_capacity.bytes() > 512 * ByteSize::GIB
        {
            return Err(format!(
                "innodb.redo_log_capacity = {}: must be between 8M and 512G",
                inn.redo_log_capacity
            ));
        }
        if !(1..=512).contains(&inn.adaptive_hash_index_parts) {
            return Err(format!(
                "innodb.adaptive_hash_index_parts = {}: must be between 1 and 512",
                inn.adaptive_hash_index_parts
            ));
        }
        if let Some(mode) = inn.autoinc_lock_mode.filter(|m| *m > 2) {
            return Err(format!(
                "innodb.autoinc_lock_mode = {mode}: must be 0 (traditional), 1 (consecutive) or 2 (interleaved)"
            ));
        }
        Ok(())
    }

    /// The `[[script]]` checks: each step is SQL that parses or a shell command.
    fn validate_script(&self) -> Result<(), String> {
        for (i, s) in self.script.iter().enumerate() {
            let at = |e: String| format!("script[{i}] (at_s = {}): {e}", s.at_s);
            match (s.sql.is_empty(), s.shell.is_empty(), s.tool.is_empty()) {
                (false, true, true) => {
                    crate::sql::parse(&s.sql).map_err(|e| at(e.to_string()))?;
                }
                (true, false, true) => {
                    ShellCommand::parse(&s.shell).map_err(at)?;
                }
                (true, true, false) => {
                    ToolCommand::parse(&s.tool).map_err(at)?;
                }
                _ => return Err(at("give one of sql, shell or tool".into())),
            }
            if s.session > MAX_SCRIPT_SESSIONS {
                return Err(at(format!(
                    "session = {}: must be 0 (the console) to {MAX_SCRIPT_SESSIONS}",
                    s.session
                )));
            }
            if s.session > 0 && s.sql.is_empty() {
                return Err(at(
                    "session: only an sql step runs on another session".into()
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(edit: impl Fn(&str) -> String) -> Result<Scenario, String> {
        Scenario::from_toml(&edit(
            crate::builtin::scenario_text("drop-table-demo").unwrap(),
        ))
    }

    /// Every built-in scenario as its file reads today.
    fn from_files() -> Vec<(String, Scenario)> {
        crate::builtin::SCENARIOS
            .iter()
            .map(|(n, a)| {
                let s = Scenario::from_toml(a.text())
                    .unwrap_or_else(|e| panic!("built-in scenario {n}: {e}"));
                (n.to_string(), s)
            })
            .collect()
    }

    #[test]
    fn builtin_bin_scenarios_is_current() {
        crate::builtin::check_compiled(
            "scenarios.bin",
            crate::builtin::COMPILED_SCENARIOS,
            &from_files(),
        );
    }

    #[test]
    fn every_builtin_scenario_reads_as_its_file() {
        for (name, from_text) in from_files() {
            assert_eq!(Scenario::builtin(&name).unwrap(), from_text, "{name}");
        }
    }

    #[test]
    fn every_builtin_scenario_loads_and_names_a_builtin_profile() {
        for (name, _) in crate::builtin::SCENARIOS {
            let s = Scenario::builtin(name).unwrap();
            assert_eq!(&s.name, name);
            crate::profile::Profile::builtin(&s.profile).unwrap();
        }
    }

    #[test]
    fn bad_values_name_the_field() {
        let cases: [(&str, &str, &str); 9] = [
            (
                "instances = 4",
                "instances = 65",
                "buffer_pool.instances = 65",
            ),
            ("size = \"4G\"", "size = \"1M\"", "buffer_pool.size = 1M"),
            (
                "size = \"4G\"",
                "size = \"four gigs\"",
                "invalid size 'four gigs'",
            ),
            (
                "threads = 16",
                "threads = 16\nthreds = 3",
                "unknown field `threds`",
            ),
            ("DROP TABLE t1", "DROP TABLEX t1", "script[0]"),
            (
                "distribution = \"special\"",
                "distribution = \"zipf\"",
                "unknown variant `zipf`",
            ),
            (
                "kind = \"oltp_point_select\"",
                "kind = \"tpcc\"",
                "unknown variant `tpcc`",
            ),
            (
                "size = \"1536M\"",
                "size = \"1536M\"\nrows = 0",
                "tables[0].rows = 0",
            ),
            (
                "special_pct = 10",
                "special_pct = 0",
                "workload.special_pct",
            ),
        ];
        for (from, to, expect) in cases {
            let e = with(|t| {
                assert!(t.contains(from), "fixture has {from}");
                t.replacen(from, to, 1)
            })
            .unwrap_err();
            assert!(e.contains(expect), "{to}: {e}");
        }
    }
}
