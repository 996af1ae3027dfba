//! What the advisor is asked about: the server, the table, the workload and the DDL,
//! each field checked where it enters, with an error that names it.
//!
//! The fields come in as text by name ([`InputBuilder::set`]), from the command line's
//! flags, the app's form or pasted `SHOW VARIABLES` output (`show.rs`), so each source
//! gets the same checks and the same messages. [`InputBuilder::finish`] fills what was
//! not given with a stated assumption.

use crate::device::{DeviceConfig, DeviceKind};
use crate::fs::FileSystemKind;
use crate::scenario::{RowFormatConfig, POOL_MAX, POOL_MIN};
use crate::size::ByteSize;
use crate::units::PAGE_SIZE;
use crate::workload::WorkloadKind;

/// The server variables `--set NAME=VALUE` takes, and what each sets.
pub const SETTABLE: [&str; 15] = [
    "innodb_autoinc_lock_mode",
    "innodb_redo_log_capacity",
    "innodb_online_alter_log_max_size",
    "innodb_sort_buffer_size",
    "innodb_io_capacity",
    "innodb_io_capacity_max",
    "innodb_lru_scan_depth",
    "innodb_old_blocks_pct",
    "innodb_old_blocks_time",
    "innodb_max_dirty_pages_pct",
    "innodb_adaptive_hash_index_parts",
    "innodb_buffer_pool_size",
    "innodb_buffer_pool_instances",
    "innodb_adaptive_hash_index",
    "rpl_semi_sync_master_enabled",
];

/// The table the DDL is about.
#[derive(Clone, Debug, PartialEq)]
pub struct TableInput {
    /// Its data file's size (`--table-size`), or
    pub size: Option<ByteSize>,
    /// its rows (`--table-rows`).
    pub rows: Option<u64>,
    /// `ROW_FORMAT`.
    pub row_format: RowFormatConfig,
    /// `PARTITION BY RANGE (id)` into this many partitions.
    pub partitions: Option<u32>,
    /// Integer secondary indexes.
    pub secondary_indexes: u8,
}

/// One checked question for the advisor.
#[derive(Clone, Debug, PartialEq)]
pub struct AdviceInput {
    /// The engine profile (a built-in one's name).
    pub profile: String,
    /// Server variables, by name, as `--set` gave them (checked against [`SETTABLE`]).
    pub variables: Vec<(String, String)>,
    /// An idle transaction that read the table a second before the DDL and stays open
    /// this many seconds after it started.
    pub open_txn_s: Option<u64>,
    /// `innodb_buffer_pool_size`.
    pub pool: ByteSize,
    /// `innodb_buffer_pool_instances`.
    pub instances: u16,
    /// `innodb_adaptive_hash_index`.
    pub ahi: bool,
    /// The data files' file system.
    pub fs: FileSystemKind,
    /// The storage device: its kind, and the latencies and queue measured on the
    /// server's own disk where given (the kind's figures where not).
    pub device: DeviceConfig,
    /// The server's CPU cores, shared by its threads (`server.cpus`); 0: as many as
    /// there are runnable threads (no CPU contention).
    pub cpus: u32,
    /// The server's CPU a statement takes on a core besides its page accesses (parse,
    /// optimise, execute), µs: `workload.statement_cpu_us`, which with `cpus` > 0 sets
    /// how many statements a second the cores serve.
    pub statement_cpu_us: u64,
    /// A statement's round trip between the client and the server besides the CPU
    /// either spends, µs (`workload.round_trip_us`): the network, or a local socket's
    /// wake-ups.
    pub round_trip_us: u64,
    /// The table.
    pub table: TableInput,
    /// The sysbench script the application's load looks like.
    pub workload: WorkloadKind,
    /// Its client threads.
    pub threads: u32,
    /// The DDL statement.
    pub ddl: String,
}

/// The fields as they arrive, each checked by [`InputBuilder::set`].
#[derive(Clone, Debug, Default)]
pub struct InputBuilder {
    profile: Option<String>,
    variables: Vec<(String, String)>,
    open_txn_s: Option<u64>,
    pool: Option<ByteSize>,
    instances: Option<u16>,
    ahi: Option<bool>,
    fs: Option<FileSystemKind>,
    device: Option<DeviceKind>,
    write_us: Option<u64>,
    fsync_us: Option<u64>,
    io_channels: Option<u32>,
    cpus: Option<u32>,
    statement_cpu_us: Option<u64>,
    round_trip_us: Option<u64>,
    size: Option<ByteSize>,
    rows: Option<u64>,
    row_format: Option<RowFormatConfig>,
    partitions: Option<u32>,
    secondary_indexes: Option<u8>,
    workload: Option<WorkloadKind>,
    threads: Option<u32>,
    ddl: Option<String>,
    /// What was assumed or taken from pasted output, in order.
    notes: Vec<String>,
}

/// A statement's round trip unless `--round-trip-us` says otherwise: I1's clients, on
/// the server's LAN (0.3 ms).
pub const I1_ROUND_TRIP_US: u64 = 300;

/// The field names [`InputBuilder::set`] takes (the CLI's flags without `--`).
pub const FIELDS: [&str; 22] = [
    "profile",
    "set",
    "open-txn",
    "pool",
    "instances",
    "ahi",
    "fs",
    "device",
    "write-us",
    "fsync-us",
    "io-channels",
    "cpus",
    "statement-cpu-us",
    "round-trip-us",
    "table-size",
    "table-rows",
    "row-format",
    "partitions",
    "secondary-indexes",
    "workload",
    "threads",
    "ddl",
];

/// A snake_case keyword read as one of a serde enum's variants.
fn keyword<T: serde::de::DeserializeOwned>(
    field: &str,
    value: &str,
    allowed: &str,
) -> Result<T, String> {
    let v = value.trim().to_ascii_lowercase().replace('-', "_");
    T::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new(&v))
        .map_err(|_| format!("--{field} {value}: must be one of {allowed}"))
}

fn number<T: std::str::FromStr>(field: &str, value: &str, range: &str) -> Result<T, String> {
    value
        .trim()
        .replace('_', "")
        .parse()
        .map_err(|_| format!("--{field} {value}: not a whole number ({range})"))
}

/// A device latency, µs: what `fio` or `dd oflag=direct` measures on the server's disk.
fn micros(field: &str, value: &str) -> Result<u64, String> {
    let n = number(field, value, "µs, 1 to 1000000")?;
    in_range(field, n, 1, 1_000_000)?;
    Ok(n)
}

fn in_range(field: &str, value: u64, lo: u64, hi: u64) -> Result<(), String> {
    if (lo..=hi).contains(&value) {
        Ok(())
    } else {
        Err(format!("--{field} {value}: must be between {lo} and {hi}"))
    }
}

/// A size as a scenario file writes it back: sizes print with one decimal of their
/// unit (`10.3G`), so a size is taken at what that reads back as, and a replay of the
/// written scenario has the same table.
fn size(field: &str, value: &str) -> Result<ByteSize, String> {
    let given = ByteSize::parse(value.trim()).map_err(|e| format!("--{field} {value}: {e}"))?;
    ByteSize::parse(&given.to_string()).map_err(|e| format!("--{field} {value}: {e}"))
}

impl InputBuilder {
    /// An empty form.
    pub fn new() -> InputBuilder {
        InputBuilder::default()
    }

    /// Sets one field from text; an error names the field and says what it takes.
    pub fn set(&mut self, field: &str, value: &str) -> Result<(), String> {
        match field {
            "profile" => self.profile = Some(profile_name(value)?),
            "set" => self.set_variable(value)?,
            "open-txn" => {
                let s = number("open-txn", value, "seconds, 1 to 3600")?;
                in_range(field, s, 1, 3600)?;
                self.open_txn_s = Some(s);
            }
            "pool" => self.pool = Some(pool_size(value)?),
            "instances" => {
                let n = number(field, value, "1 to 64")?;
                in_range(field, n, 1, 64)?;
                self.instances = Some(n as u16);
            }
            "ahi" => self.ahi = Some(super::variables::switch(field, value)?),
            "fs" => self.fs = Some(keyword(field, value, "ext3, ext4, xfs")?),
            "device" => self.device = Some(keyword(field, value, "hdd, sata_ssd, nvme")?),
            "write-us" => self.write_us = Some(micros(field, value)?),
            "fsync-us" => self.fsync_us = Some(micros(field, value)?),
            "io-channels" => {
                let n = number(field, value, "1 to 256")?;
                in_range(field, n, 1, 256)?;
                self.io_channels = Some(n as u32);
            }
            "cpus" => {
                let n = number(field, value, "1 to 4096")?;
                in_range(field, n, 1, 4096)?;
                self.cpus = Some(n as u32);
            }
            "statement-cpu-us" => {
                let n = number(field, value, "1 to 100000")?;
                in_range(field, n, 1, 100_000)?;
                self.statement_cpu_us = Some(n);
            }
            "round-trip-us" => {
                let n = number(field, value, "0 to 1000000")?;
                in_range(field, n, 0, 1_000_000)?;
                self.round_trip_us = Some(n);
            }
            _ => return self.set_table_or_workload(field, value),
        }
        Ok(())
    }

    fn set_table_or_workload(&mut self, field: &str, value: &str) -> Result<(), String> {
        match field {
            "table-size" => {
                let s = size(field, value)?;
                if s.bytes() < 4 * PAGE_SIZE || s.bytes() > 64 * ByteSize::TIB {
                    return Err(format!("--table-size {value}: must be between 64K and 64T"));
                }
                self.size = Some(s);
            }
            "table-rows" => {
                let n = number(field, value, "1 to 100000000000")?;
                in_range(field, n, 1, 100_000_000_000)?;
                self.rows = Some(n);
            }
            "row-format" => {
                let f = keyword(field, value, "dynamic, compact, redundant, compressed")?;
                self.row_format = Some(f);
            }
            "partitions" => {
                let n = number(field, value, "1 to 8192")?;
                in_range(field, n, 1, 8192)?;
                self.partitions = Some(n as u32);
            }
            "secondary-indexes" => {
                let n = number(field, value, "0 to 63")?;
                in_range(field, n, 0, 63)?;
                self.secondary_indexes = Some(n as u8);
            }
            "workload" => {
                self.workload = Some(keyword(
                    field,
                    value,
                    "oltp_read_write, oltp_read_only, oltp_write_only, oltp_point_select, oltp_update_index, oltp_insert",
                )?)
            }
            "threads" => {
                let n = number(field, value, "1 to 4096")?;
                in_range(field, n, 1, 4096)?;
                self.threads = Some(n as u32);
            }
            "ddl" => self.ddl = Some(value.trim().to_string()),
            _ => {
                return Err(format!(
                    "unknown field '{field}'; the fields are {}",
                    FIELDS.join(", ")
                ))
            }
        }
        Ok(())
    }

    /// `--set NAME=VALUE`: a server variable the advisor models.
    fn set_variable(&mut self, spec: &str) -> Result<(), String> {
        let (name, value) = spec
            .split_once('=')
            .ok_or_else(|| format!("--set {spec}: expected NAME=VALUE"))?;
        let name = name.trim().to_ascii_lowercase();
        let value = value.trim();
        match name.as_str() {
            "innodb_buffer_pool_size" => return self.set("pool", value),
            "innodb_buffer_pool_instances" => return self.set("instances", value),
            "innodb_adaptive_hash_index" => return self.set("ahi", value),
            n if SETTABLE.contains(&n) => {}
            _ => {
                return Err(format!(
                    "--set {name}: the advisor does not model this variable; it models {}",
                    SETTABLE.join(", ")
                ))
            }
        }
        super::variables::check_variable(&name, value)?;
        self.variables.retain(|(n, _)| *n != name);
        self.variables.push((name, value.to_string()));
        Ok(())
    }

    /// Whether `field` has been given.
    pub fn has(&self, field: &str) -> bool {
        match field {
            "profile" => self.profile.is_some(),
            "pool" => self.pool.is_some(),
            "instances" => self.instances.is_some(),
            "ahi" => self.ahi.is_some(),
            "table-size" => self.size.is_some(),
            "table-rows" => self.rows.is_some(),
            "row-format" => self.row_format.is_some(),
            "partitions" => self.partitions.is_some(),
            _ => false,
        }
    }

    /// Records where a value came from (pasted output) or what was assumed.
    pub fn note(&mut self, text: String) {
        self.notes.push(text);
    }

    /// The checked input and what was assumed, or the first field missing or at odds.
    pub fn finish(mut self) -> Result<(AdviceInput, Vec<String>), String> {
        let profile = self
            .profile
            .take()
            .ok_or("--profile: missing (e.g. mysql-5.7)")?;
        let ddl = self
            .ddl
            .take()
            .ok_or("--ddl: missing (e.g. \"DROP TABLE big\")")?;
        let pool = self
            .pool
            .ok_or("--pool: missing (innodb_buffer_pool_size, e.g. 128G)")?;
        let table = self.table()?;
        // The server's own default (a built-in profile: profile_name checked it).
        let ahi_default = crate::Profile::builtin(&profile)?.sql.adaptive_hash_index;
        let input = AdviceInput {
            instances: assume(
                &mut self.notes,
                self.instances,
                1,
                "innodb_buffer_pool_instances = 1",
            ),
            ahi: assume(
                &mut self.notes,
                self.ahi,
                ahi_default,
                &format!(
                    "innodb_adaptive_hash_index = {} ({profile}'s default)",
                    if ahi_default { "ON" } else { "OFF" }
                ),
            ),
            fs: assume(
                &mut self.notes,
                self.fs,
                FileSystemKind::Ext4,
                "the data files are on ext4",
            ),
            device: DeviceConfig {
                kind: assume(
                    &mut self.notes,
                    self.device,
                    DeviceKind::Nvme,
                    "the device is NVMe flash",
                ),
                write_latency_us: self.write_us,
                fsync_latency_us: self.fsync_us,
                channels: self.io_channels,
                ..DeviceConfig::default()
            },
            cpus: assume(
                &mut self.notes,
                self.cpus,
                0,
                "a core for every runnable thread (no CPU contention; give --cpus)",
            ),
            statement_cpu_us: self.statement_cpu_us(),
            round_trip_us: self.round_trip_us.unwrap_or(I1_ROUND_TRIP_US),
            workload: assume(
                &mut self.notes,
                self.workload,
                WorkloadKind::OltpWriteOnly,
                "the workload is sysbench oltp_write_only",
            ),
            threads: assume(&mut self.notes, self.threads, 16, "16 client threads"),
            profile,
            variables: std::mem::take(&mut self.variables),
            open_txn_s: self.open_txn_s,
            pool,
            table,
            ddl,
        };
        check_pool(&input)?;
        Ok((input, self.notes))
    }

    /// `--statement-cpu-us`, or the workload's default: noted as assumed only with
    /// `--cpus`, where it sets the cores' throughput (without, it is a fixed delay).
    fn statement_cpu_us(&mut self) -> u64 {
        let default_us = crate::scenario::default_statement_cpu_us();
        match (self.statement_cpu_us, self.cpus) {
            (Some(us), _) => us,
            (None, Some(_)) => assume(
                &mut self.notes,
                None,
                default_us,
                "50 µs of server CPU a statement (give --statement-cpu-us)",
            ),
            (None, None) => default_us,
        }
    }

    /// The table's fields, checked together.
    fn table(&mut self) -> Result<TableInput, String> {
        if self.size.is_some() && self.rows.is_some() {
            return Err("--table-size and --table-rows: give one of them".into());
        }
        if self.size.is_none() && self.rows.is_none() {
            return Err("--table-size or --table-rows: missing (e.g. --table-size 10G)".into());
        }
        let secondary_indexes = match self.secondary_indexes {
            Some(n) => n,
            None => {
                self.notes
                    .push("assumed: one secondary index (sysbench's k)".into());
                1
            }
        };
        Ok(TableInput {
            size: self.size,
            rows: self.rows,
            row_format: self.row_format.unwrap_or_default(),
            partitions: self.partitions,
            secondary_indexes,
        })
    }
}

/// `given`, or `default` with `what` noted as assumed.
fn assume<T>(notes: &mut Vec<String>, given: Option<T>, default: T, what: &str) -> T {
    given.unwrap_or_else(|| {
        notes.push(format!("assumed: {what}"));
        default
    })
}

/// A built-in profile's name, or an error listing them.
fn profile_name(value: &str) -> Result<String, String> {
    let name = value.trim();
    if crate::builtin::PROFILES.iter().any(|(n, _)| *n == name) {
        return Ok(name.to_string());
    }
    Err(format!(
        "--profile {name}: not a built-in profile; the profiles are {}",
        crate::builtin::PROFILES
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

fn pool_size(value: &str) -> Result<ByteSize, String> {
    let s = size("pool", value)?;
    if !(POOL_MIN..=POOL_MAX).contains(&s.bytes()) {
        return Err(format!(
            "--pool {value}: the simulator models pools from {} to {}",
            ByteSize(POOL_MIN),
            ByteSize(POOL_MAX)
        ));
    }
    Ok(s)
}

/// The pool over its instances: each needs room for its LRU scan depth.
fn check_pool(input: &AdviceInput) -> Result<(), String> {
    let per_instance = input.pool.bytes() / PAGE_SIZE / u64::from(input.instances);
    if per_instance < 2048 {
        return Err(format!(
            "--pool {} over --instances {}: {per_instance} pages an instance; at least 2048",
            input.pool, input.instances
        ));
    }
    Ok(())
}
