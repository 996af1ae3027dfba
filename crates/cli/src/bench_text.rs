//! `ddlscope bench`'s figures as text (or JSON for `--realtime-only`): each
//! figure on a line of its own, with its goal where the project has one.

use crate::bench::{BenchReport, PoolFigures, ScanFigures};
use std::io::{self, Write};

/// The real-time factors `--realtime-only` measures.
pub struct Speeds {
    /// 8 M pages, 16 threads of oltp_read_write.
    pub realtime: f64,
    /// I1 past its DROP's stall.
    pub i1_steady: f64,
    /// I1 as a demo plays it, its DROP's stall included.
    pub i1_played: f64,
}

/// Writes `s` as JSON (`json`) or as three lines of text.
pub fn write_speeds(out: &mut impl Write, s: &Speeds, json: bool) -> io::Result<()> {
    if json {
        let figures = serde_json::json!({
            "realtime_factor": s.realtime,
            "i1_steady_realtime_factor": s.i1_steady,
            "i1_played_realtime_factor": s.i1_played,
        });
        return writeln!(out, "{figures}");
    }
    let (factor, i1, i1_played) = (s.realtime, s.i1_steady, s.i1_played);
    writeln!(
        out,
        "real time:   {factor:.0}x (8 M pages, 16 threads oltp_read_write)"
    )?;
    writeln!(
        out,
        "I1 steady:   {i1:.1}x (8 M pages, 16 threads oltp_write_only, past its DROP's stall)"
    )?;
    writeln!(
        out,
        "I1 played:   {i1_played:.1}x (virtual 0 to 200 s, its DROP's stall included)"
    )
}

/// Writes the whole report, a line a figure, each goal met or not.
pub fn write_report(out: &mut impl Write, report: &BenchReport) -> io::Result<()> {
    let goal = |ok: bool| if ok { "met" } else { "NOT met" };
    write_pool(out, &report.pool)?;
    writeln!(
        out,
        "real time:   {:.0}x (8 M pages, 16 threads oltp_read_write; goal >= 100x: {})",
        report.realtime_factor,
        goal(report.realtime_factor >= 100.0)
    )?;
    writeln!(
        out,
        "I1 steady:   {:.1}x (8 M pages, 16 threads oltp_write_only, past its DROP's stall: virtual 170 to 290 s)",
        report.i1_steady_realtime_factor
    )?;
    writeln!(
        out,
        "I1 played:   {:.1}x (the same, as a demo plays it: virtual 0 to 200 s, its DROP's stall included)",
        report.i1_played_realtime_factor
    )?;
    writeln!(
        out,
        "I1 build:    {:.0} ms for a 128 GB pool, of which {:.0} ms assembling it cold (goal <= 1,500 ms in the browser: see cargo xtask bench-web)",
        report.i1_build_ms, report.i1_assemble_ms
    )?;
    write_web(out, report)
}

/// Writes the pool's figures (`--pool-only`, and the head of the whole report).
pub fn write_pool(out: &mut impl Write, p: &PoolFigures) -> io::Result<()> {
    let goal = |ok: bool| if ok { "met" } else { "NOT met" };
    let m = &p.machine;
    writeln!(
        out,
        "machine:     {} ({} CPUs), load average {:.2} before, {:.2} after",
        m.cpu, m.cpus, m.load_before, m.load_after
    )?;
    writeln!(
        out,
        "trace:       {} ({:.2} M distinct pages)",
        p.trace,
        p.trace_distinct_pages as f64 / 1e6
    )?;
    let per_cpu = |x: Option<f64>| {
        x.map_or(String::new(), |x| {
            format!(", {:.2} M per CPU second", x / 1e6)
        })
    };
    writeln!(
        out,
        "exact LRU:   {:>6.2} M accesses/s{}, miss ratio {:.7}  (goal >= 12 M/s: {}; libCacheSim: 0.2085)",
        p.exact_lru_accesses_per_s / 1e6,
        per_cpu(p.exact_lru_accesses_per_cpu_s),
        p.exact_lru_miss_ratio,
        goal(p.exact_lru_accesses_per_s >= 12e6)
    )?;
    writeln!(
        out,
        "InnoDB LRU:  {:>6.2} M accesses/s{}, miss ratio {:.7}  (goal >= 20 M/s: {})",
        p.innodb_lru_accesses_per_s / 1e6,
        per_cpu(p.innodb_lru_accesses_per_cpu_s),
        p.innodb_lru_miss_ratio,
        goal(p.innodb_lru_accesses_per_s >= 20e6)
    )?;
    writeln!(
        out,
        "             prefetching {} accesses ahead (a replay knows what comes next); access by access, as the engine's own accesses come: exact {:.2} M, InnoDB {:.2} M per CPU second",
        ddlscope_engine::REPLAY_PREFETCH.cell,
        p.exact_lru_one_by_one_accesses_per_cpu_s / 1e6,
        p.innodb_lru_one_by_one_accesses_per_cpu_s / 1e6
    )?;
    if p.trace_distinct_pages <= u64::from(crate::bench::POOL_PAGES) {
        writeln!(
            out,
            "             the trace touches fewer pages than the pool holds: nothing is evicted, every miss is a page's first access, and the two ratios are equal; the scan trace below tells the policies apart"
        )?;
    }
    writeln!(
        out,
        "memory:      {:.1} bytes per page: 28 of frame descriptor, 3 of page hash, the rest flush list and tablespaces (goal <= 32: {})",
        p.bytes_per_page,
        goal(p.bytes_per_page <= 32.0)
    )?;
    writeln!(
        out,
        "evict pass:  {:.2}x a plain sweep (goal <= 1.5x: {})",
        p.evict_pass_vs_sweep_ratio,
        goal(p.evict_pass_vs_sweep_ratio <= 1.5)
    )?;
    write_scan(out, &p.scan)
}

/// The scan trace's lines: each policy's miss ratios, and what they say.
fn write_scan(out: &mut impl Write, s: &ScanFigures) -> io::Result<()> {
    use crate::bench::scan;
    writeln!(
        out,
        "scan trace:  {:.1} M accesses, pool {} k pages: {} rounds of {} k lookups over a {} k-page hot set, then a scan of {} k new pages ({} rows a page)",
        s.accesses as f64 / 1e6,
        scan::POOL_PAGES / 1000,
        scan::ROUNDS,
        scan::HOT_ACCESSES / 1000,
        scan::HOT_PAGES / 1000,
        scan::SCAN_PAGES / 1000,
        scan::ROWS_PER_PAGE
    )?;
    let runs = [
        ("exact LRU", &s.exact),
        ("midpoint, old_blocks_time 1000 ms", &s.midpoint),
        (
            "midpoint, old_blocks_time 0",
            &s.midpoint_no_old_blocks_time,
        ),
    ];
    for (name, r) in runs {
        writeln!(
            out,
            "  {name:<34} miss ratio {:.4}, hot set's {:.4}; made young {}, not made young {}",
            r.miss_ratio, r.hot_miss_ratio, r.made_young, r.not_made_young
        )?;
    }
    writeln!(
        out,
        "  every scan pushes the hot set out of an exact LRU; InnoDB reads the scanned pages in at the midpoint and, their rows read within innodb_old_blocks_time, never makes them young, so they leave from the old sublist and the hot set stays; with old_blocks_time 0 a page's second row makes it young and the scan floods the young part too"
    )
}

/// The lines of the figures measured in Chromium (`--web`), when they were.
fn write_web(out: &mut impl Write, report: &BenchReport) -> io::Result<()> {
    let goal = |ok: bool| if ok { "met" } else { "NOT met" };
    if let (Some(wasm), Some(ratio)) = (report.wasm_realtime_factor, report.wasm_speed_ratio) {
        writeln!(
            out,
            "wasm:        {wasm:.0}x in Chromium, {ratio:.2} of native (goal >= 0.5: {})",
            goal(ratio >= 0.5)
        )?;
    }
    if let (Some(wasm), Some(ratio)) = (report.wasm_i1_steady_factor, report.wasm_i1_speed_ratio) {
        writeln!(
            out,
            "wasm I1:     {wasm:.1}x in Chromium past its DROP's stall, the engine alone, {ratio:.2} of native (goal >= 0.5: {})",
            goal(ratio >= 0.5)
        )?;
    }
    if let (Some(page), Some(ratio)) = (report.page_i1_played_speed, report.page_i1_played_ratio) {
        writeln!(
            out,
            "page I1:     {page:.1}x in Chromium at 1000x as it plays (virtual 0 to 200 s), {ratio:.2} of native (goals >= 30x: {}, >= 0.5: {})",
            goal(page >= 30.0),
            goal(ratio >= 0.5)
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &Speeds, json: bool) -> String {
        let mut out = Vec::new();
        write_speeds(&mut out, s, json).expect("writes to a Vec");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn the_speeds_are_three_lines_or_one_json_object() {
        let s = Speeds {
            realtime: 212.4,
            i1_steady: 36.88,
            i1_played: 141.46,
        };
        let lines = text(&s, false);
        assert_eq!(lines.lines().count(), 3);
        assert!(lines.contains("real time:   212x"), "{lines}");
        assert!(lines.contains("I1 played:   141.5x"), "{lines}");
        let json: serde_json::Value =
            serde_json::from_str(&text(&s, true)).expect("one JSON object");
        assert_eq!(json["i1_steady_realtime_factor"], 36.88);
        assert_eq!(json["realtime_factor"], 212.4);
    }
}
