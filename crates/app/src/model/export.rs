//! What the page exports, as text: the per-second metrics in exactly the columns of
//! `ddlscope run --format csv|json`, the event log as NDJSON, and what the user typed
//! as a session script (docs/session-scripts.md) that `ddlscope script` and
//! `cargo xtask conformance` replay. The download itself is `ui::export`.

mod kill;

use super::runner::{InputKind, Runner};
use ddlscope_engine::{Event, Sample, Scenario, Tick};
use kill::{script_line, Records, Tabs, Typed};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// A text export.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TextExport {
    /// `ddlscope run --format csv`.
    MetricsCsv,
    /// `ddlscope run --format json`.
    MetricsJson,
    /// The event stream.
    Events,
    /// The typed statements as a session script.
    Script,
}

impl TextExport {
    /// The file's MIME type.
    pub fn mime(self) -> &'static str {
        match self {
            TextExport::MetricsCsv => "text/csv",
            TextExport::MetricsJson => "application/json",
            TextExport::Events => "application/x-ndjson",
            TextExport::Script => "text/plain",
        }
    }

    /// The file of `runner`'s run: its name and text (the same wherever the engines
    /// run: the page's Export menu or the worker's answer to it).
    pub fn file(self, runner: &Runner) -> (String, String) {
        let stem = format!("ddlscope-{}-{}", runner.scenario(), runner.profile());
        let sim = runner.sim();
        match self {
            TextExport::MetricsCsv => (format!("{stem}.csv"), metrics_csv(sim.samples())),
            TextExport::MetricsJson => (format!("{stem}.jsonl"), metrics_json(sim.samples())),
            TextExport::Events => (format!("{stem}-events.ndjson"), events_ndjson(sim.events())),
            TextExport::Script => (format!("{stem}.script"), session_script(runner)),
        }
    }
}

/// `ddlscope run --format csv`: the header, then one row per virtual second.
pub fn metrics_csv(samples: &[Sample]) -> String {
    let mut out = Sample::COLUMNS.join(",");
    out.push('\n');
    for s in samples {
        out.push_str(&s.row().join(","));
        out.push('\n');
    }
    out
}

/// `ddlscope run --format json`: one object per virtual second, one a line.
pub fn metrics_json(samples: &[Sample]) -> String {
    lines(samples.iter().map(serde_json::to_string))
}

/// The engine's event stream, one JSON object a line (`{"at": ns, "kind": …}`).
pub fn events_ndjson(events: &[Event]) -> String {
    lines(events.iter().map(serde_json::to_string))
}

fn lines(items: impl Iterator<Item = serde_json::Result<String>>) -> String {
    let mut out = String::new();
    for line in items {
        out.push_str(&line.expect("engine records always serialize"));
        out.push('\n');
    }
    out
}

/// A time as a script writes it, exact to the nanosecond: `700.050000ms`.
fn script_time(t: Tick) -> String {
    let ns = t.as_ns();
    format!("{}.{:06}ms", ns / 1_000_000, ns % 1_000_000)
}

/// What `runner`'s user typed (and, when it runs, the scenario's own script), as a
/// session script: the scenario's profile, pool, tables and workload, the console
/// tabs as sessions `s1` (the first console session), `s2`... in the order they were
/// opened, then every statement at its virtual time (a `KILL` of a tab as
/// `KILL {s2}`: see `kill.rs`) and a `run` line ending [`RUN_MARGIN`] after where the
/// page is now. Run by
/// `ddlscope script`, each statement the browser finished meets the same outcome;
/// times differ where the scenario has what a script cannot say (devices, CPU cores,
/// compressed rows, the warm-up).
pub fn session_script(runner: &Runner) -> String {
    let sim = runner.sim();
    let scenario = sim.scenario();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# ddlscope: what was typed in the browser on scenario {} ({}), exported at {}",
        scenario.name,
        runner.profile(),
        script_time(sim.now())
    );
    header(&mut out, scenario, runner.profile());
    let tabs = Tabs::of(sim);
    if tabs.names().len() > 1 {
        // Every tab, typed into or not (one may only be killed), numbered in order.
        let _ = writeln!(out, "session {}", tabs.names().join(" "));
    }
    let mut records = Records::of(sim);
    let mut steps: Vec<(Tick, String, String, Vec<String>)> = Vec::new();
    if runner.knobs().runs_script() {
        for line in &scenario.script {
            let at = Tick::from_secs(line.at_s);
            if line.sql.is_empty() {
                let _ = writeln!(
                    out,
                    "# not exported (a shell line): at {}s {}",
                    line.at_s, line.shell
                );
            } else {
                steps.push((at, "s1".into(), line.sql.clone(), Vec::new()));
            }
        }
    }
    for input in runner.inputs().iter().filter(|i| i.at <= sim.now()) {
        if let InputKind::Submit { session, sql } = &input.kind {
            let typed = Typed {
                session: *session,
                at: input.at,
                sql,
            };
            let line = script_line(sim, &tabs, &mut records, typed);
            steps.push((input.at, tabs.name(*session), line.sql, line.notes));
        }
    }
    steps.sort_by_key(|(at, ..)| *at);
    for (at, session, sql, notes) in steps {
        for note in notes {
            let _ = writeln!(out, "# {note}");
        }
        let _ = writeln!(out, "at {} {session}: {sql}", script_time(at));
    }
    let pending = sim
        .statements()
        .iter()
        .filter(|s| s.finished_at.is_none())
        .count();
    if pending > 0 {
        let _ = writeln!(
            out,
            "# {pending} statement(s) had not finished in the browser at {}",
            script_time(sim.now())
        );
    }
    let _ = writeln!(out, "run {}", script_time(sim.now() + RUN_MARGIN));
    out
}

/// How long the script runs past the page's time: a statement that took a moment in
/// the browser can take longer without the scenario's device, cores and warm pool
/// (a script cannot say them), and should still meet its outcome.
const RUN_MARGIN: Tick = Tick::from_secs(10);

/// The setup lines: profile, pool, tables, workload.
fn header(out: &mut String, scenario: &Scenario, profile: &str) {
    let _ = writeln!(out, "profile {profile}");
    let _ = writeln!(out, "pool {}M", scenario.buffer_pool.size.0 >> 20);
    for t in &scenario.tables {
        let rows = t
            .rows
            .unwrap_or_else(|| t.size.map_or(0, |s| s.0 / t.row_bytes.max(1)));
        match t.partitions {
            Some(p) if p > 0 => {
                let _ = writeln!(out, "table {} rows={rows} partitions={p}", t.name);
            }
            _ => {
                let _ = writeln!(out, "table {} rows={rows}", t.name);
            }
        }
    }
    let w = &scenario.workload;
    if w.threads > 0 {
        let kind = serde_json::to_value(w.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let _ = writeln!(out, "workload {kind} threads={}", w.threads);
    }
}

#[cfg(test)]
mod tests;
