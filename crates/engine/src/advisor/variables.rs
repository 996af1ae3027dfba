//! The server variables `--set` takes (`input::SETTABLE`), read and checked as the
//! server reads them, and applied to a scenario.

use crate::scenario::Scenario;
use crate::size::ByteSize;

/// `ON`/`OFF`, `1`/`0`, `true`/`false`, as the server reads a switch.
pub fn switch(field: &str, value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "1" | "true" | "yes" => Ok(true),
        "off" | "0" | "false" | "no" => Ok(false),
        _ => Err(format!("--{field} {value}: must be on or off")),
    }
}

/// A server variable of `input::SETTABLE` applied to the scenario, checked as the
/// server checks it.
pub fn apply_variable(s: &mut Scenario, name: &str, value: &str) -> Result<(), String> {
    let int = |lo: u64, hi: u64| -> Result<u64, String> {
        let v: u64 = value
            .parse()
            .map_err(|_| format!("--set {name}={value}: not a whole number"))?;
        if (lo..=hi).contains(&v) {
            Ok(v)
        } else {
            Err(format!(
                "--set {name}={value}: must be between {lo} and {hi}"
            ))
        }
    };
    let bytes = || ByteSize::parse(value).map_err(|e| format!("--set {name}={value}: {e}"));
    let inn = &mut s.innodb;
    match name {
        "innodb_autoinc_lock_mode" => inn.autoinc_lock_mode = Some(int(0, 2)? as u8),
        "innodb_online_alter_log_max_size" => inn.online_alter_log_max_size = bytes()?,
        "innodb_sort_buffer_size" => inn.sort_buffer_size = bytes()?,
        // The redo log's size (MySQL 8.0.30+; MariaDB 10.5+'s one innodb_log_file_size).
        "innodb_redo_log_capacity" => {
            let b = bytes()?;
            if !(8 * ByteSize::MIB..=512 * ByteSize::GIB).contains(&b.bytes()) {
                return Err(format!("--set {name}={value}: must be between 8M and 512G"));
            }
            inn.redo_log_capacity = b
        }
        "innodb_io_capacity" => inn.io_capacity = int(100, u64::from(u32::MAX / 2))? as u32,
        "innodb_io_capacity_max" => inn.io_capacity_max = int(100, u64::from(u32::MAX))? as u32,
        "innodb_max_dirty_pages_pct" => inn.max_dirty_pages_pct = int(0, 99)? as u32,
        "innodb_adaptive_hash_index_parts" => inn.adaptive_hash_index_parts = int(1, 512)? as u32,
        "innodb_lru_scan_depth" => {
            s.buffer_pool.lru_scan_depth = int(100, u64::from(u32::MAX))? as u32
        }
        "innodb_old_blocks_pct" => s.buffer_pool.old_blocks_pct = int(5, 95)? as u32,
        "innodb_old_blocks_time" => {
            s.buffer_pool.old_blocks_time_ms = int(0, u64::from(u32::MAX))? as u32
        }
        "rpl_semi_sync_master_enabled" => {
            s.server.replication_plugin = switch(&format!("set {name}"), value)?
        }
        _ => {
            return Err(format!(
                "--set {name}: the advisor does not model this variable"
            ))
        }
    }
    Ok(())
}

/// Checks one `--set` value on its own.
pub fn check_variable(name: &str, value: &str) -> Result<(), String> {
    let mut s = Scenario::builtin("drop-table-demo")?;
    apply_variable(&mut s, name, value)
}
