//! Scenario files (`ddlscope run FILE`): read and checked field by field; one that
//! passes is built and run for a moment on bounded sizes (a small pool and tables, few
//! threads), so a scenario the checks let through cannot make the simulation panic.
#![no_main]

use ddlscope_engine::{ByteSize, Profile, Scenario, Sim, Tick};
use libfuzzer_sys::fuzz_target;

const MAX_POOL: u64 = 8 << 20;
const MAX_TABLE: u64 = 16 << 20;
const MAX_ROWS: u64 = 20_000;
const MAX_PARTITIONS: u32 = 8;
const MAX_THREADS: u32 = 2;
const MAX_SCRIPT: usize = 6;
const MAX_AT_S: u64 = 1;
const RUN: Tick = Tick::from_ms(1500);

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(mut scenario) = Scenario::from_toml(text) else {
        return;
    };
    bound(&mut scenario);
    let Ok(profile) = Profile::builtin(&scenario.profile) else {
        return;
    };
    if let Ok(mut sim) = Sim::new(scenario, profile) {
        sim.run_until(RUN);
    }
});

fn bound(s: &mut Scenario) {
    let pool = &mut s.buffer_pool;
    pool.size = ByteSize(pool.size.bytes().min(MAX_POOL));
    pool.instances = pool.instances.min(4);
    for t in &mut s.tables {
        t.rows = t.rows.map(|r| r.min(MAX_ROWS));
        t.size = t.size.map(|b| ByteSize(b.bytes().min(MAX_TABLE)));
        t.partitions = t.partitions.map(|p| p.min(MAX_PARTITIONS));
        t.partition_sizes.truncate(MAX_PARTITIONS as usize);
        for p in &mut t.partition_sizes {
            *p = ByteSize(p.bytes().min(MAX_TABLE));
        }
    }
    s.workload.threads = s.workload.threads.min(MAX_THREADS);
    s.script.truncate(MAX_SCRIPT);
    for st in &mut s.script {
        st.at_s = st.at_s.min(MAX_AT_S);
    }
}
