//! `ddlscope advise`'s table for people: one line a playbook, best first, then what
//! failed, where each run's scenario is, and what was assumed.

use crate::advise::Advice;
use std::io::{self, Write};

/// Writes the advice as an aligned table and notes.
pub fn write(out: &mut impl Write, advice: &Advice) -> io::Result<()> {
    let width = advice
        .playbooks
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(8)
        .max(8);
    writeln!(
        out,
        "rank  {:<width$}  stall_s   p99_ms  tps_dip_%  total_s  lag_s  extra_GB  wl_err  errors",
        "playbook"
    )?;
    for p in &advice.playbooks {
        let f = &p.figures;
        let lag = f
            .replica_lag_s
            .map_or_else(|| "-".to_string(), |l| format!("{l:.1}"));
        writeln!(
            out,
            "{:>4}  {:<width$}  {:>7}  {:>7.1}  {:>9.1}  {:>7.1}  {:>5}  {:>8.2}  {:>6}  {}",
            p.rank,
            p.name,
            f.worst_write_stall_s,
            f.p99_ms,
            f.tps_dip_pct,
            f.total_s,
            lag,
            f.extra_disk_gb,
            f.workload_errors,
            f.errors.len()
        )?;
    }
    writeln!(out)?;
    for p in &advice.playbooks {
        writeln!(out, "{}: {}", p.name, p.summary)?;
        for e in &p.figures.errors {
            writeln!(out, "  error: {e}")?;
        }
        writeln!(out, "  replay: ddlscope run {}", p.scenario)?;
    }
    writeln!(out)?;
    for a in &advice.assumptions {
        writeln!(out, "{a}")?;
    }
    writeln!(
        out,
        "stall_s: the longest run of seconds under 10% of the baseline transactions; lag_s '-': no replica in the run (one runs beside ALTERs); wl_err: the workload's failed statements (sysbench retries them); errors: why the change was not made"
    )
}
