//! The same run gives the same trace everywhere: the trace hashes of twelve scenario ×
//! profile runs, against a reviewed list that the browser test
//! (`web/e2e/everywhere.test.mjs`) holds the wasm build to as well. A hash here that
//! changes means the engine's behaviour changed: regenerate with
//! `UPDATE_EXPECT=1 cargo test -p ddlscope-engine --test everywhere` and say why.

use ddlscope_engine::{Sim, Tick};
use expect_test::expect_file;

/// `scenario profile seconds`: each scenario's own script runs (its DDL is within the
/// seconds), on its own profile and others.
const RUNS: &str = "\
drop-table-demo mysql-5.7 11
drop-table-demo mysql-8.0.23 11
drop-table-demo alisql-5.7 11
i3-ext3-drop mysql-5.1 6
i3-ext3-drop mysql-5.7 6
workaround-truncate mysql-5.7 6
workaround-truncate mysql-8.0.23 6
workaround-create-like-rename-drop mysql-5.7 8
full-pool-writes mysql-5.7 3
full-pool-writes mysql-8.4 3
steady-oltp-rw mariadb-10.11 3
i2-instant-columns mysql-8.0.29 3
";

#[test]
fn trace_hashes_of_the_reference_runs() {
    let mut out = String::from("# scenario profile seconds trace-hash\n");
    for line in RUNS.lines() {
        let [scenario, profile, seconds] = line.split(' ').collect::<Vec<_>>()[..] else {
            panic!("bad run line {line:?}");
        };
        let mut sim = Sim::builtin(scenario, Some(profile)).unwrap();
        sim.run_until(Tick::from_secs(seconds.parse().unwrap()));
        out.push_str(&format!("{line} {:016x}\n", sim.trace_hash()));
    }
    expect_file!["golden/trace-hashes.txt"].assert_eq(&out);
}
