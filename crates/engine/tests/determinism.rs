//! Same scenario, seed and commands → the same trace, bit for bit.

use ddlscope_engine::{Profile, Scenario, Sim, SimBuild, Tick};

fn run(profile: &str, seed: u64) -> (u64, usize) {
    let mut s = Scenario::builtin("drop-table-demo").unwrap();
    s.seed = seed;
    let mut sim = Sim::new(s, Profile::builtin(profile).unwrap()).unwrap();
    sim.run_until(Tick::from_secs(4));
    sim.execute("DROP TABLE IF EXISTS t2").unwrap();
    sim.run_until(Tick::from_secs(14));
    (sim.trace_hash(), sim.events().len())
}

#[test]
fn two_runs_of_the_same_scenario_give_the_same_trace_hash() {
    for profile in ["mysql-5.7", "mysql-8.0.23"] {
        for seed in [1, 42, 7_777] {
            let a = run(profile, seed);
            let b = run(profile, seed);
            assert_eq!(a, b, "reproduce with profile={profile} seed={seed}");
            assert!(a.1 > 3, "the run produced events");
        }
    }
}

#[test]
fn different_seeds_or_profiles_give_different_traces() {
    assert_ne!(run("mysql-5.7", 1).0, run("mysql-5.7", 2).0);
    assert_ne!(run("mysql-5.7", 1).0, run("mysql-8.0.23", 1).0);
}

#[test]
fn stepping_in_slices_is_the_same_as_one_long_step() {
    // The browser advances the engine a frame at a time; the result must not depend on
    // how time was sliced.
    let scenario = Scenario::builtin("drop-table-demo").unwrap();
    let profile = Profile::builtin("mysql-5.7").unwrap();
    let mut whole = Sim::new(scenario.clone(), profile.clone()).unwrap();
    whole.run_until(Tick::from_secs(15));
    let mut sliced = Sim::new(scenario, profile).unwrap();
    let mut t = Tick::ZERO;
    while t < Tick::from_secs(15) {
        t = (t + Tick::from_us(16_667)).min(Tick::from_secs(15));
        sliced.run_until(t);
    }
    assert_eq!(whole.trace_hash(), sliced.trace_hash());
    assert_eq!(whole.samples(), sliced.samples());
}

#[test]
fn a_pool_built_in_slices_is_the_pool_built_at_once() {
    // The browser builds a large pool a slice a frame; the server must be the same.
    // i5 warms cached compressed partitions too, drop-table-demo only drawn pages.
    for name in ["drop-table-demo", "i5-compressed-partition-drop"] {
        let scenario = Scenario::builtin(name).unwrap();
        let profile = Profile::builtin(&scenario.profile).unwrap();
        let mut whole = Sim::new(scenario.clone(), profile.clone()).unwrap();
        let mut build = SimBuild::new(scenario, profile).unwrap();
        let mut slices = 0;
        let mut seen = 0;
        while !build.step(5_000) {
            let (data, total) = build.progress();
            assert!(
                data >= seen && data <= total,
                "{name}: progress {data} of {total}"
            );
            seen = data;
            slices += 1;
        }
        assert!(slices > 10, "{name}: the warm-up took {slices} slices");
        let mut sliced = build.finish();
        assert_eq!(
            sliced.pool().pages_data(),
            whole.pool().pages_data(),
            "{name}"
        );
        whole.run_until(Tick::from_secs(5));
        sliced.run_until(Tick::from_secs(5));
        assert_eq!(whole.trace_hash(), sliced.trace_hash(), "{name}");
        assert_eq!(whole.samples(), sliced.samples(), "{name}");
    }
}
