//! Session scripts (`ddlscope script`): parsed, and when they parse, run on a bounded
//! server (a small pool and tables, few sessions, a few virtual seconds), so every
//! statement the fuzzer reaches also goes through the SQL layer's state machine.
#![no_main]

use ddlscope_engine::{SessionScript, Tick};
use libfuzzer_sys::fuzz_target;

/// The run's bounds: what keeps one execution in the milliseconds.
const MAX_POOL: u64 = 8 << 20;
const MAX_ROWS: u64 = 2_000;
const MAX_PARTITIONS: u32 = 8;
const MAX_THREADS: u32 = 2;
const MAX_STEPS: usize = 12;
const MAX_AT: Tick = Tick::from_secs(2);
const MAX_RUN: Tick = Tick::from_secs(3);

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(mut script) = SessionScript::parse(text) else {
        return;
    };
    bound(&mut script);
    // An error (a refused CREATE TABLE, an unknown profile) is an answer; a panic is
    // the bug this looks for.
    let _ = script.run(None);
});

fn bound(s: &mut SessionScript) {
    s.pool_bytes = Some(s.pool_bytes.unwrap_or(MAX_POOL).min(MAX_POOL));
    for t in &mut s.tables {
        t.rows = t.rows.min(MAX_ROWS);
        t.partitions = t.partitions.min(MAX_PARTITIONS);
    }
    if let Some((_, threads)) = &mut s.workload {
        *threads = (*threads).min(MAX_THREADS);
    }
    s.steps.truncate(MAX_STEPS);
    for st in &mut s.steps {
        st.at = st.at.min(MAX_AT);
    }
    s.run = Some(s.run.unwrap_or(MAX_RUN).min(MAX_RUN));
}
