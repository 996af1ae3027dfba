//! The engine's speed: virtual seconds per wall second over a window of a run, one
//! definition for `ddlscope bench` natively and the app's exports in wasm
//! (`realtime_factor`, `i1_steady_factor`), each passing its own clock (`Instant`
//! natively, `Date.now()` in the browser), so that the two speeds bench-web divides
//! are timed alike. The engine itself reads no clock.

use crate::profile::Profile;
use crate::scenario::Scenario;
use crate::sim::Sim;
use crate::time::Tick;
use std::ops::Range;

/// A run to time: a scenario, the window of virtual seconds timed, and whether the
/// server's build counts (the 128 GB oltp_read_write run times its build with its
/// 60 s, as it always has; the I1 windows time their seconds alone).
#[derive(Clone, Debug)]
pub struct SpeedRun {
    pub scenario: Scenario,
    pub window: Range<u64>,
    pub time_build: bool,
}

impl SpeedRun {
    /// `Scenario::speed_benchmark` (8 M pages, 16 threads of oltp_read_write), built
    /// and run for `seconds`, all timed.
    pub fn oltp_128g(seconds: u64) -> SpeedRun {
        SpeedRun {
            scenario: Scenario::speed_benchmark(),
            window: 0..seconds,
            time_build: true,
        }
    }

    /// I1's steady state: `i1-ahi-drop` (8,388,608 pages, 16 threads of
    /// oltp_write_only) past its DROP's stall, which ends near 160 s: virtual 170 to
    /// 290 s, the 16 threads running. The run the page's "I1 at 1000x past its DROP"
    /// is held against.
    pub fn i1_steady() -> SpeedRun {
        SpeedRun::i1(|_| 170..290)
    }

    /// I1 as a demo plays it: from its first tick to its declared end (200 virtual
    /// s), the DROP at 10 s and the stall it causes included. The run the page's "I1
    /// as it plays" is set against.
    pub fn i1_played() -> SpeedRun {
        SpeedRun::i1(|s| 0..s.seconds)
    }

    /// `i1-ahi-drop` over the window `window` picks from it, its build untimed.
    fn i1(window: impl FnOnce(&Scenario) -> Range<u64>) -> SpeedRun {
        let scenario = Scenario::builtin("i1-ahi-drop").expect("i1-ahi-drop is built in");
        SpeedRun {
            window: window(&scenario),
            scenario,
            time_build: false,
        }
    }

    /// Virtual seconds per wall second over the window; `clock` reads wall time in
    /// milliseconds. Also returns the simulation, for the caller's checks.
    ///
    /// # Errors
    /// An empty window, or a scenario whose profile or server cannot be built.
    pub fn factor(self, clock: &dyn Fn() -> f64) -> Result<(f64, Sim), String> {
        if self.window.is_empty() {
            return Err(format!(
                "an empty window of virtual seconds ({}..{})",
                self.window.start, self.window.end
            ));
        }
        let profile = Profile::builtin(&self.scenario.profile)?;
        let built_at = clock();
        let mut sim = Sim::new(self.scenario, profile)?;
        sim.run_until(Tick::from_secs(self.window.start));
        let started = if self.time_build { built_at } else { clock() };
        sim.run_until(Tick::from_secs(self.window.end));
        let wall_s = ((clock() - started) / 1000.0).max(1e-6);
        let virtual_s = (self.window.end - self.window.start) as f64;
        Ok((virtual_s / wall_s, sim))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A clock that moves 500 ms each time it is read.
    fn ticking() -> impl Fn() -> f64 {
        let t = Cell::new(0.0);
        move || {
            let now = t.get();
            t.set(now + 500.0);
            now
        }
    }

    fn demo(window: Range<u64>, time_build: bool) -> SpeedRun {
        SpeedRun {
            scenario: Scenario::builtin("drop-table-demo").unwrap(),
            window,
            time_build,
        }
    }

    #[test]
    fn the_window_is_timed_with_the_callers_clock() {
        // Read at the build, at the window's start and at its end: 0.5 s for 2 s.
        let (factor, sim) = demo(1..3, false).factor(&ticking()).unwrap();
        assert_eq!(factor, 4.0);
        assert_eq!(sim.now(), Tick::from_secs(3));
        // With the build timed, the clock is not read at the window's start: 0.5 s for
        // the build and 3 s.
        let (factor, _) = demo(0..3, true).factor(&ticking()).unwrap();
        assert_eq!(factor, 6.0);
    }

    #[test]
    fn an_empty_window_or_an_unknown_profile_is_an_error() {
        let err = demo(2..2, false).factor(&ticking()).unwrap_err();
        assert!(err.contains("empty window"), "{err}");
        let mut run = demo(0..1, false);
        run.scenario.profile = "mysql-9.9".to_string();
        assert!(run.factor(&ticking()).is_err());
    }
}
