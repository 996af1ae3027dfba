//! The server, table and workload of the question as one scenario: the set-up every
//! playbook runs on, before its own timed steps.

use super::ddl::Ddl;
use super::input::AdviceInput;
use super::variables::apply_variable;
use crate::fs::FileSystemConfig;
use crate::scenario::{
    BufferPoolConfig, HaProbeConfig, InnodbConfig, Scenario, ServerConfig, TableConfig,
    WorkloadConfig,
};
use crate::workload::Distribution;

/// When a playbook's first step runs: ten seconds of the workload first, the baseline
/// its throughput is measured against (`score.rs`).
pub const FIRST_STEP_S: u64 = 10;

/// Percent of the warm pool's leaf pages carrying AHI entries when the AHI is on: I1's
/// calibration (its borrowed-memory gap of about 90,000 pages during the DROP).
pub const WARM_AHI_PCT: u32 = 50;

/// The tables the workload writes when the DDL takes its own table away: sysbench's
/// four 1 M-row tables, as in I1.
const OTHER_TABLES: [&str; 4] = ["sbtest1", "sbtest2", "sbtest3", "sbtest4"];

/// The table as the scenario declares it.
fn the_table(input: &AdviceInput, ddl: &Ddl) -> TableConfig {
    let t = &input.table;
    TableConfig {
        name: ddl.table.clone(),
        rows: t.rows,
        size: t.size,
        row_bytes: 210,
        secondary_indexes: t.secondary_indexes,
        row_format: t.row_format,
        key_block_size: None,
        partitions: t.partitions,
        partition_sizes: Vec::new(),
        cached_partitions: Vec::new(),
        warm_unzip_pct: 10,
    }
}

/// The workload's tables: the DDL's own, or, when the DDL takes it away, four others.
fn workload_tables(ddl: &Ddl, tables: &mut Vec<TableConfig>) -> Vec<String> {
    if !ddl.removes_data() {
        return vec![ddl.table.clone()];
    }
    for name in OTHER_TABLES {
        if !name.eq_ignore_ascii_case(&ddl.table) {
            let mut t = tables[0].clone();
            t.name = name.to_string();
            t.rows = Some(1_000_000);
            t.size = None;
            t.partitions = None;
            t.secondary_indexes = 1;
            t.row_format = crate::scenario::RowFormatConfig::Dynamic;
            tables.push(t);
        }
    }
    tables[1..].iter().map(|t| t.name.clone()).collect()
}

/// The scenario every playbook starts from, and what it assumed beyond the input.
pub fn base_scenario(input: &AdviceInput, ddl: &Ddl) -> Result<(Scenario, Vec<String>), String> {
    let mut notes = Vec::new();
    let mut tables = vec![the_table(input, ddl)];
    let on = workload_tables(ddl, &mut tables);
    if ddl.removes_data() {
        notes.push(format!(
            "assumed: the workload writes four other 1 M-row tables ({}) while {} goes",
            on.join(", "),
            ddl.table
        ));
    } else {
        notes.push(format!(
            "assumed: the workload runs on {} itself",
            ddl.table
        ));
    }
    if input.ahi {
        notes.push(format!(
            "assumed: {WARM_AHI_PCT}% of the table's cached leaf pages carry AHI entries (I1's long-running server)"
        ));
    }
    let mut s = Scenario {
        name: "advise".into(),
        title: String::new(),
        description: String::new(),
        profile: input.profile.clone(),
        profile_overrides: toml::Table::new(),
        seed: 1,
        seconds: 60,
        schema: ddl.schema.clone().unwrap_or_else(|| "test".into()),
        buffer_pool: buffer_pool(input),
        device: input.device.clone(),
        file_system: FileSystemConfig { kind: input.fs },
        tables,
        workload: workload(input, on),
        innodb: InnodbConfig {
            adaptive_hash_index: input.ahi,
            ..InnodbConfig::default()
        },
        server: ServerConfig {
            cpus: input.cpus,
            ..ServerConfig::default()
        },
        ha_probe: HaProbeConfig::default(),
        script: Vec::new(),
        // A replica shows what each way of altering costs it: a native ALTER holds
        // its applier for as long as it ran here, the tools' small transactions do not.
        replica: crate::scenario::ReplicaConfig {
            enabled: matches!(ddl.kind, super::ddl::DdlKind::Alter),
            ..Default::default()
        },
    };
    for (name, value) in &input.variables {
        apply_variable(&mut s, name, value)?;
    }
    s.validate()?;
    Ok((s, notes))
}

fn buffer_pool(input: &AdviceInput) -> BufferPoolConfig {
    let mut bp: BufferPoolConfig = toml::from_str(&format!("size = \"{}\"", input.pool.bytes()))
        .expect("a pool size reads back");
    bp.instances = input.instances;
    bp.warm_ahi_pct = if input.ahi { WARM_AHI_PCT } else { 0 };
    bp
}

fn workload(input: &AdviceInput, tables: Vec<String>) -> WorkloadConfig {
    let mut w: WorkloadConfig =
        toml::from_str(&format!("threads = {}", input.threads)).expect("a thread count reads back");
    w.kind = input.workload;
    w.tables = tables;
    w.distribution = Distribution::Special;
    w.round_trip_us = input.round_trip_us;
    w.statement_cpu_us = input.statement_cpu_us;
    w
}
