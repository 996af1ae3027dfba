//! `ddlscope bench`'s figures as text (or JSON for `--realtime-only`): each
//! figure on a line of its own, with its goal where the project has one.

use crate::bench::BenchReport;
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
    writeln!(out, "trace: {}", report.trace)?;
    writeln!(
        out,
        "exact LRU:   {:>6.2} M accesses/s, miss ratio {:.6}  (goal >= 10 M/s: {}; libCacheSim: 0.2085)",
        report.exact_lru_accesses_per_s / 1e6,
        report.exact_lru_miss_ratio,
        goal(report.exact_lru_accesses_per_s >= 10e6)
    )?;
    writeln!(
        out,
        "InnoDB LRU:  {:>6.2} M accesses/s, miss ratio {:.6}",
        report.innodb_lru_accesses_per_s / 1e6,
        report.innodb_lru_miss_ratio
    )?;
    writeln!(
        out,
        "memory:      {:.1} bytes per page: 28 of frame descriptor, 3 of page hash, the rest flush list and tablespaces (goal <= 32: {})",
        report.bytes_per_page,
        goal(report.bytes_per_page <= 32.0)
    )?;
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
        "evict pass:  {:.2}x a plain sweep (goal <= 2x: {})",
        report.evict_pass_vs_sweep_ratio,
        goal(report.evict_pass_vs_sweep_ratio <= 2.0)
    )?;
    writeln!(
        out,
        "I1 build:    {:.0} ms for a 128 GB pool, of which {:.0} ms assembling it cold (goal <= 1,500 ms in the browser: see cargo xtask bench-web)",
        report.i1_build_ms, report.i1_assemble_ms
    )?;
    write_web(out, report)
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
