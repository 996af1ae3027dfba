//! `ddlscope bench`: how fast and how compact the engine is, measured in this process.
//!
//! (a) Trace replay through an exact-LRU pool and through InnoDB's midpoint LRU, 8 M
//!     pages: accesses per second and miss ratio. With `--trace` the reference trace of
//!     ../shared/bench (one page id per line); without, a trace of the same shape
//!     (20 M accesses, 12 M pages, 75% to the hottest 1%) from the engine's own PRNG.
//! (b) Bytes of simulator memory per pool page.
//! (c) Real-time factor: a 128 GB pool (8 M pages) under 16 threads of
//!     oltp_read_write for 60 virtual seconds; and I1's, past its DROP's stall
//!     (virtual 170 to 290 s: `SpeedRun::i1_steady`), the run the app's
//!     "I1 at 1000x past its DROP" is held against; and I1 as a demo plays it, from
//!     its first tick to its end, the stall included (virtual 0 to 200 s:
//!     `SpeedRun::i1_played`), the run the app's "I1 as it plays" is.
//! (d) A whole-pool pass freeing one tablespace's pages, as a ratio to a plain sweep
//!     over the same descriptors.
//! (e) Building I1's 128 GB pool (8.4 M frames): the server assembled cold
//!     (`SimBuild::new`), then warmed to its first tick (`SimBuild::finish`), as the app
//!     does when the scenario is chosen.
//! (f) With `--web FILE` (the `target/bench-web.json` that `cargo xtask bench-web`
//!     writes): the real-time factor of (c) measured in Chromium's wasm, and its ratio
//!     to the native one bench-web measured between its wasm runs (this process's
//!     when the report has none: minutes apart, on a machine whose speed drifts);
//!     the same for I1 past its stall (the engine alone in wasm) and for I1 as it
//!     plays (the page, from bench-web's "I1 as it plays" case).
//!
//! `--realtime-only` runs (c) alone, for bench-web to interleave with its wasm runs.
//!
//! Wall-clock times vary with the machine and its load; the ratios are what compare.

use ddlscope_engine::SimRng;
use ddlscope_engine::{BufPool, LruPolicy, PageId, SpaceId};
use ddlscope_engine::{Profile, Scenario, SimBuild, SpeedRun};
use serde::Serialize;
use std::time::{Duration, Instant};

/// Pool size of the cache-simulation comparison.
const POOL_PAGES: u32 = 8_000_000;
/// Shape of the generated trace (as ../shared/bench/gen_trace.py).
const TRACE_PAGES: u64 = 12_000_000;
const TRACE_REQUESTS: usize = 20_000_000;

/// The figures.
#[derive(Debug, Serialize)]
pub struct BenchReport {
    /// Where the trace came from.
    pub trace: String,
    /// Accesses per second through the exact-LRU pool.
    pub exact_lru_accesses_per_s: f64,
    /// Its miss ratio.
    pub exact_lru_miss_ratio: f64,
    /// Accesses per second through InnoDB's midpoint LRU.
    pub innodb_lru_accesses_per_s: f64,
    /// Its miss ratio.
    pub innodb_lru_miss_ratio: f64,
    /// Simulator bytes per pool page (descriptors, page hash, flush list, tablespaces).
    pub bytes_per_page: f64,
    /// Virtual seconds per wall second, 8 M pages, 16 threads oltp_read_write.
    pub realtime_factor: f64,
    /// Virtual seconds per wall second of I1 past its DROP's stall (8 M pages, 16
    /// threads oltp_write_only, virtual 170 to 290 s).
    pub i1_steady_realtime_factor: f64,
    /// Virtual seconds per wall second of I1 as a demo plays it: from its first tick
    /// to its end, the DROP's stall included (virtual 0 to 200 s).
    pub i1_played_realtime_factor: f64,
    /// Wall time of the pass that frees a tablespace's pages / a plain sweep.
    pub evict_pass_vs_sweep_ratio: f64,
    /// Milliseconds to build I1's 128 GB pool: assembled cold, then warmed.
    pub i1_build_ms: f64,
    /// Of which assembling the cold server (the pool's descriptors and page hash).
    pub i1_assemble_ms: f64,
    /// The same run as `realtime_factor` in wasm in Chromium, read from bench-web's
    /// report; absent unless measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wasm_realtime_factor: Option<f64>,
    /// The native real-time factor bench-web measured between its wasm runs (read
    /// from its report); absent when it measured none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interleaved_native_realtime_factor: Option<f64>,
    /// `wasm_realtime_factor` over the native factor measured in the same minute:
    /// `interleaved_native_realtime_factor` when the report has it, else this
    /// process's `realtime_factor`; absent unless measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wasm_speed_ratio: Option<f64>,
    /// I1 past its DROP's stall in wasm in Chromium, read from bench-web's report;
    /// absent unless measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wasm_i1_steady_factor: Option<f64>,
    /// `wasm_i1_steady_factor` over the native one measured in the same minute (or,
    /// when the report has none, this process's `i1_steady_realtime_factor`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wasm_i1_speed_ratio: Option<f64>,
    /// I1 as it plays (virtual 0 to 200 s) in the page at 1000x, read from
    /// bench-web's report; absent unless measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_i1_played_speed: Option<f64>,
    /// `page_i1_played_speed` over the native run measured in the same minute (or,
    /// when the report has none, this process's `i1_played_realtime_factor`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_i1_played_ratio: Option<f64>,
}

/// What bench-web's report says of the engine's speed: the wasm real-time factor, and
/// the native one when it measured it between its wasm runs; and the same two for I1
/// past its DROP's stall, when measured (reports before them have neither).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WebFactors {
    pub wasm: f64,
    pub native: Option<f64>,
    pub wasm_i1: Option<f64>,
    pub native_i1: Option<f64>,
    /// I1 as it plays, in the page; and natively between the wasm runs.
    pub page_i1_played: Option<f64>,
    pub native_i1_played: Option<f64>,
}

/// The real-time factors in bench-web's report (`wasm_realtime_factor`, required;
/// `native_realtime_factor`, `wasm_i1_steady_factor`, `native_i1_steady_factor`,
/// `page_i1_played_speed` and `native_i1_played_factor`, when present).
pub fn read_web_factors(path: &str) -> Result<WebFactors, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the bench-web report {path}: {e}"))?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{path} is not a bench-web report (JSON): {e}"))?;
    let factor = |key: &str| -> Result<Option<f64>, String> {
        match v.get(key) {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(x) => x
                .as_f64()
                .filter(|x| x.is_finite() && *x > 0.0)
                .map(Some)
                .ok_or_else(|| format!("{path}: {key} is not a positive number")),
        }
    };
    let wasm = factor("wasm_realtime_factor")?.ok_or_else(|| {
        format!("{path} has no positive wasm_realtime_factor; `cargo xtask bench-web` measures it")
    })?;
    Ok(WebFactors {
        wasm,
        native: factor("native_realtime_factor")?,
        wasm_i1: factor("wasm_i1_steady_factor")?,
        native_i1: factor("native_i1_steady_factor")?,
        page_i1_played: factor("page_i1_played_speed")?,
        native_i1_played: factor("native_i1_played_factor")?,
    })
}

#[allow(clippy::disallowed_methods)] // a benchmark measures wall time
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let r = std::hint::black_box(f());
    (r, t.elapsed())
}

/// Reads a trace: one page id per line.
pub fn read_trace(path: &str) -> Result<Vec<u32>, String> {
    let text = std::fs::read(path).map_err(|e| format!("cannot read trace {path}: {e}"))?;
    let mut out = Vec::with_capacity(text.len() / 8);
    let mut cur: u64 = 0;
    let mut digits = 0;
    for (i, &b) in text.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                cur = cur * 10 + u64::from(b - b'0');
                digits += 1;
                if cur > u64::from(u32::MAX) {
                    return Err(format!("{path}: page id too large at byte {i}"));
                }
            }
            b'\n' | b'\r' => {
                if digits > 0 {
                    out.push(cur as u32);
                }
                cur = 0;
                digits = 0;
            }
            _ => {
                return Err(format!(
                    "{path}: byte {i} is not a digit or a newline; expected one page id per line"
                ))
            }
        }
    }
    if digits > 0 {
        out.push(cur as u32);
    }
    if out.is_empty() {
        return Err(format!("{path}: no page ids"));
    }
    Ok(out)
}

/// A trace of the reference shape from the engine's PRNG.
pub fn generated_trace() -> Vec<u32> {
    let mut rng = SimRng::stream(42, "bench.trace");
    let hot = TRACE_PAGES / 100;
    (0..TRACE_REQUESTS)
        .map(|_| {
            let p = if rng.chance(75, 100) {
                rng.below(hot)
            } else {
                rng.below(TRACE_PAGES)
            };
            (p + 1) as u32
        })
        .collect()
}

/// Replays `trace` through a pool of `POOL_PAGES` pages; returns (misses, wall time,
/// the pool).
fn replay(trace: &[u32], policy: LruPolicy) -> (u64, Duration, BufPool) {
    let mut pool = BufPool::with_policy(POOL_PAGES, 1, 37, policy);
    pool.register_space(SpaceId(1));
    let ((misses, pool), wall) = timed(move || {
        let mut misses = 0u64;
        for (i, &p) in trace.iter().enumerate() {
            // One access per virtual microsecond: innodb_old_blocks_time (1 s) spans a
            // million accesses.
            let now_ms = (i / 1000) as u32 + 1;
            if !pool.replay_access(
                PageId {
                    space: SpaceId(1),
                    page_no: p,
                },
                now_ms,
                1000,
            ) {
                misses += 1;
            }
        }
        (misses, pool)
    });
    (misses, wall, pool)
}

/// The real-time factor run: the I4 calibration scenario on a 128 GB pool.
pub fn realtime_factor() -> Result<f64, String> {
    let (factor, sim) = SpeedRun::oltp_128g(60).factor(&wall_ms)?;
    assert_eq!(sim.pool().pages_total(), 8_388_608);
    Ok(factor)
}

/// I1's real-time factor past its DROP's stall.
pub fn i1_steady_factor() -> Result<f64, String> {
    Ok(SpeedRun::i1_steady().factor(&wall_ms)?.0)
}

/// I1's real-time factor as a demo plays it, its DROP's stall included.
pub fn i1_played_factor() -> Result<f64, String> {
    Ok(SpeedRun::i1_played().factor(&wall_ms)?.0)
}

/// Milliseconds since this process first asked: the clock [`SpeedRun::factor`] reads.
#[allow(clippy::disallowed_methods)] // a benchmark measures wall time
fn wall_ms() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

/// (d): free one tablespace's pages from a full 8 M-page pool, vs a plain sweep.
fn evict_pass_ratio() -> f64 {
    let mut pool = BufPool::new(POOL_PAGES, 8, 37);
    // A hundred tablespaces sharing the pool; the dropped one holds about 1% of it, as
    // an ordinary table among many does.
    for s in 1..=100 {
        pool.register_space(SpaceId(s));
    }
    let mut rng = SimRng::stream(1, "bench.fill");
    for _ in 0..u64::from(POOL_PAGES) * 2 {
        let space = SpaceId(1 + rng.below(100) as u32);
        let page = PageId {
            space,
            page_no: rng.below(1_000_000) as u32,
        };
        pool.replay_access(page, 1, 1000);
    }
    // Best of three of the baseline sweep (black_box keeps the compiler from reusing
    // the first result), then the real pass once (it changes the pool).
    let mut sweep = Duration::MAX;
    let mut count = 0;
    for _ in 0..3 {
        let (c, d) = timed(|| {
            std::hint::black_box(&pool).count_space_pages(std::hint::black_box(SpaceId(3)))
        });
        sweep = sweep.min(d);
        count = c;
    }
    let (freed, pass) = timed(|| {
        (0..8)
            .map(|i| u64::from(pool.remove_space_pages(i, SpaceId(3)).0))
            .sum::<u64>()
    });
    assert_eq!(freed, count);
    pass.as_secs_f64() / sweep.as_secs_f64()
}

/// (e): I1 built as the app builds it; returns (whole build, assembly alone) in ms.
fn i1_build_ms() -> Result<(f64, f64), String> {
    let scenario = Scenario::builtin("i1-ahi-drop")?;
    let profile = Profile::builtin(&scenario.profile)?;
    let (build, assemble) = timed(|| SimBuild::new(scenario, profile));
    let build = build?;
    assert_eq!(build.progress().1, 8_388_608, "I1 is a 128 GB pool");
    let (sim, warm) = timed(|| build.finish());
    drop(sim);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    Ok((ms(assemble + warm), ms(assemble)))
}

/// Runs everything; `progress` is told what is running.
pub fn run(
    trace_path: Option<&str>,
    web_path: Option<&str>,
    progress: &mut dyn FnMut(&str),
) -> Result<BenchReport, String> {
    let web = web_path.map(read_web_factors).transpose()?;
    progress("reading the trace");
    let (trace, source) = match trace_path {
        Some(p) => (read_trace(p)?, p.to_string()),
        None => (
            generated_trace(),
            "generated (reference shape, engine PRNG)".to_string(),
        ),
    };
    progress("replaying through exact LRU");
    let (exact_misses, exact_wall, _) = replay(&trace, LruPolicy::Exact);
    progress("replaying through InnoDB's midpoint LRU");
    let (innodb_misses, innodb_wall, pool) = replay(&trace, LruPolicy::Midpoint);
    let bytes_per_page = pool.bytes_per_page();
    drop(pool);
    progress("running 60 virtual seconds on a 128 GB pool");
    let realtime_factor = realtime_factor()?;
    progress("running I1 past its DROP's stall (virtual 170 to 290 s)");
    let i1_steady_realtime_factor = i1_steady_factor()?;
    progress("running I1 as it plays (virtual 0 to 200 s)");
    let i1_played_realtime_factor = i1_played_factor()?;
    progress("timing a tablespace-eviction pass against a plain sweep");
    let evict_pass_vs_sweep_ratio = evict_pass_ratio();
    progress("building I1's 128 GB pool");
    let (i1_build_ms, i1_assemble_ms) = i1_build_ms()?;
    let n = trace.len() as f64;
    Ok(BenchReport {
        trace: source,
        exact_lru_accesses_per_s: n / exact_wall.as_secs_f64(),
        exact_lru_miss_ratio: exact_misses as f64 / n,
        innodb_lru_accesses_per_s: n / innodb_wall.as_secs_f64(),
        innodb_lru_miss_ratio: innodb_misses as f64 / n,
        bytes_per_page,
        realtime_factor,
        i1_steady_realtime_factor,
        i1_played_realtime_factor,
        evict_pass_vs_sweep_ratio,
        i1_build_ms,
        i1_assemble_ms,
        wasm_realtime_factor: web.map(|w| w.wasm),
        interleaved_native_realtime_factor: web.and_then(|w| w.native),
        wasm_speed_ratio: web.map(|w| w.wasm / w.native.unwrap_or(realtime_factor)),
        wasm_i1_steady_factor: web.and_then(|w| w.wasm_i1),
        wasm_i1_speed_ratio: web.and_then(|w| {
            w.wasm_i1
                .map(|i1| i1 / w.native_i1.unwrap_or(i1_steady_realtime_factor))
        }),
        page_i1_played_speed: web.and_then(|w| w.page_i1_played),
        page_i1_played_ratio: web.and_then(|w| {
            w.page_i1_played
                .map(|i1| i1 / w.native_i1_played.unwrap_or(i1_played_realtime_factor))
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traces_parse_strictly() {
        let dir = std::env::temp_dir().join(format!("ddlscope-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ok = dir.join("ok.txt");
        std::fs::write(&ok, "1\n22\r\n333").unwrap();
        assert_eq!(read_trace(ok.to_str().unwrap()).unwrap(), vec![1, 22, 333]);
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "1\nx\n").unwrap();
        assert!(read_trace(bad.to_str().unwrap())
            .unwrap_err()
            .contains("byte 2"));
        std::fs::write(&bad, "").unwrap();
        assert!(read_trace(bad.to_str().unwrap())
            .unwrap_err()
            .contains("no page ids"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_web_factor_is_read_strictly() {
        let dir = std::env::temp_dir().join(format!("ddlscope-web-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("bench-web.json");
        let path = f.to_str().unwrap();
        std::fs::write(&f, r#"{"cases": [], "wasm_realtime_factor": 41.5}"#).unwrap();
        let alone = WebFactors {
            wasm: 41.5,
            native: None,
            wasm_i1: None,
            native_i1: None,
            page_i1_played: None,
            native_i1_played: None,
        };
        assert_eq!(read_web_factors(path), Ok(alone));
        std::fs::write(
            &f,
            r#"{"wasm_realtime_factor": 41.5, "native_realtime_factor": 83}"#,
        )
        .unwrap();
        let both = WebFactors {
            native: Some(83.0),
            ..alone
        };
        assert_eq!(read_web_factors(path), Ok(both));
        std::fs::write(
            &f,
            r#"{"wasm_realtime_factor": 41.5, "native_realtime_factor": 83,
                "wasm_i1_steady_factor": 23.7, "native_i1_steady_factor": 40}"#,
        )
        .unwrap();
        let with_i1 = WebFactors {
            wasm_i1: Some(23.7),
            native_i1: Some(40.0),
            ..both
        };
        assert_eq!(read_web_factors(path), Ok(with_i1));
        std::fs::write(
            &f,
            r#"{"wasm_realtime_factor": 41.5, "native_realtime_factor": 83,
                "wasm_i1_steady_factor": 23.7, "native_i1_steady_factor": 40,
                "page_i1_played_speed": 61.2, "native_i1_played_factor": 110.5}"#,
        )
        .unwrap();
        let played = WebFactors {
            page_i1_played: Some(61.2),
            native_i1_played: Some(110.5),
            ..with_i1
        };
        assert_eq!(read_web_factors(path), Ok(played));
        std::fs::write(
            &f,
            r#"{"wasm_realtime_factor": 41.5, "page_i1_played_speed": 0}"#,
        )
        .unwrap();
        assert!(read_web_factors(path)
            .unwrap_err()
            .contains("page_i1_played_speed is not a positive number"));
        std::fs::write(
            &f,
            r#"{"wasm_realtime_factor": 41.5, "wasm_i1_steady_factor": -1}"#,
        )
        .unwrap();
        assert!(read_web_factors(path)
            .unwrap_err()
            .contains("wasm_i1_steady_factor is not a positive number"));
        std::fs::write(
            &f,
            r#"{"wasm_realtime_factor": 41.5, "native_realtime_factor": "fast"}"#,
        )
        .unwrap();
        assert!(read_web_factors(path)
            .unwrap_err()
            .contains("native_realtime_factor is not a positive number"));
        std::fs::write(&f, r#"{"cases": []}"#).unwrap();
        assert!(read_web_factors(path)
            .unwrap_err()
            .contains("no positive wasm_realtime_factor"));
        std::fs::write(&f, r#"{"wasm_realtime_factor": -3}"#).unwrap();
        assert!(read_web_factors(path).is_err());
        std::fs::write(&f, "not json").unwrap();
        assert!(read_web_factors(path)
            .unwrap_err()
            .contains("not a bench-web report"));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(read_web_factors(path).unwrap_err().contains("cannot read"));
    }

    #[test]
    fn exact_lru_replay_matches_a_reference_lru() {
        // A tiny reference LRU (a Vec, most recent last) against the pool's exact mode.
        let mut rng = SimRng::stream(5, "t");
        let trace: Vec<u32> = (0..20_000).map(|_| 1 + rng.below(3_000) as u32).collect();
        let cap = 1_000usize;
        let mut lru: Vec<u32> = Vec::new();
        let mut want = 0u64;
        for &p in &trace {
            if let Some(i) = lru.iter().position(|&x| x == p) {
                lru.remove(i);
            } else {
                want += 1;
                if lru.len() == cap {
                    lru.remove(0);
                }
            }
            lru.push(p);
        }
        let mut pool = BufPool::with_policy(cap as u32, 1, 37, LruPolicy::Exact);
        pool.register_space(SpaceId(1));
        let got = trace
            .iter()
            .filter(|&&p| {
                !pool.replay_access(
                    PageId {
                        space: SpaceId(1),
                        page_no: p,
                    },
                    1,
                    1000,
                )
            })
            .count() as u64;
        assert_eq!(got, want);
    }
}
