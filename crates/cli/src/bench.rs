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
use ddlscope_engine::{BufPool, LruPolicy, PageId, SpaceId, REPLAY_PREFETCH};
use ddlscope_engine::{Profile, Scenario, SimBuild, SpeedRun};
use serde::Serialize;
use std::time::{Duration, Instant};

/// Pool size of the cache-simulation comparison.
pub const POOL_PAGES: u32 = 8_000_000;
/// Shape of the generated trace (as ../shared/bench/gen_trace.py).
const TRACE_PAGES: u64 = 12_000_000;
const TRACE_REQUESTS: usize = 20_000_000;

/// The pool's own figures: (a), (b), (d) and (g), and the machine they ran on.
#[derive(Debug, Serialize)]
pub struct PoolFigures {
    /// Where the trace came from.
    pub trace: String,
    /// Distinct pages the trace touches: under the pool's 8 M pages, nothing is ever
    /// evicted and every miss is a first access, whatever the policy.
    pub trace_distinct_pages: u64,
    /// Accesses per second through the exact-LRU pool.
    pub exact_lru_accesses_per_s: f64,
    /// Accesses per second of this thread's CPU time (Linux only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_lru_accesses_per_cpu_s: Option<f64>,
    /// Its miss ratio.
    pub exact_lru_miss_ratio: f64,
    /// Accesses per CPU second (wall second where Linux does not tell CPU time)
    /// through the exact-LRU pool access by access, without the replay's read-ahead.
    pub exact_lru_one_by_one_accesses_per_cpu_s: f64,
    /// Accesses per second through InnoDB's midpoint LRU.
    pub innodb_lru_accesses_per_s: f64,
    /// Accesses per second of this thread's CPU time (Linux only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub innodb_lru_accesses_per_cpu_s: Option<f64>,
    /// Its miss ratio.
    pub innodb_lru_miss_ratio: f64,
    /// Accesses per CPU second (wall second where Linux does not tell CPU time)
    /// through the midpoint LRU access by access.
    pub innodb_lru_one_by_one_accesses_per_cpu_s: f64,
    /// Simulator bytes per pool page (descriptors, page hash, flush list, tablespaces).
    pub bytes_per_page: f64,
    /// Wall time of the pass that frees a tablespace's pages / a plain sweep.
    pub evict_pass_vs_sweep_ratio: f64,
    /// (g) A hot set and table scans, through each policy.
    pub scan: ScanFigures,
    /// What the figures were measured on.
    pub machine: MachineFacts,
}

/// The figures.
#[derive(Debug, Serialize)]
pub struct BenchReport {
    /// The pool's own figures.
    #[serde(flatten)]
    pub pool: PoolFigures,
    /// Virtual seconds per wall second, 8 M pages, 16 threads oltp_read_write.
    pub realtime_factor: f64,
    /// Virtual seconds per wall second of I1 past its DROP's stall (8 M pages, 16
    /// threads oltp_write_only, virtual 170 to 290 s).
    pub i1_steady_realtime_factor: f64,
    /// Virtual seconds per wall second of I1 as a demo plays it: from its first tick
    /// to its end, the DROP's stall included (virtual 0 to 200 s).
    pub i1_played_realtime_factor: f64,
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

/// This thread's CPU time in seconds (user + system, `/proc/thread-self/stat`, in
/// Linux's 100 Hz clock ticks), when Linux tells it: on a machine shared with other
/// work the wall time counts the others' turns too, the CPU time only this one's.
fn thread_cpu_s() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which may hold spaces): state is field 3, utime 14.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: f64 = fields.next()?.parse().ok()?;
    let stime: f64 = fields.next()?.parse().ok()?;
    Some((utime + stime) / 100.0)
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

/// A replay's misses and how long it took.
struct Replay {
    misses: u64,
    wall: Duration,
    /// CPU seconds, when the system tells them.
    cpu_s: Option<f64>,
}

/// How a replay walks the trace.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Walk {
    /// Access by access, as the engine's own accesses come (it cannot know the next).
    OneByOne,
    /// Each access made after prefetching for the next ones ([`BufPool::replay_prefetch`]
    /// at [`REPLAY_PREFETCH`]): what a trace replay, which knows what comes next, can do.
    Prefetching,
}

/// Replays `trace` through a pool of `POOL_PAGES` pages; returns the replay and the
/// pool.
fn replay(trace: &[u32], policy: LruPolicy, walk: Walk) -> (Replay, BufPool) {
    let mut pool = BufPool::with_policy(POOL_PAGES, 1, 37, policy);
    pool.register_space(SpaceId(1));
    let page = |page_no| PageId {
        space: SpaceId(1),
        page_no,
    };
    let cpu_before = thread_cpu_s();
    let ((misses, pool), wall) = timed(move || {
        let mut misses = 0u64;
        for (i, &p) in trace.iter().enumerate() {
            if walk == Walk::Prefetching {
                pool.replay_prefetch(REPLAY_PREFETCH, |k| trace.get(i + k).map(|&q| page(q)));
            }
            // One access per virtual microsecond: innodb_old_blocks_time (1 s) spans a
            // million accesses.
            let now_ms = (i / 1000) as u32 + 1;
            if !pool.replay_access(page(p), now_ms, 1000) {
                misses += 1;
            }
        }
        (misses, pool)
    });
    let cpu_s = cpu_before.zip(thread_cpu_s()).map(|(a, b)| b - a);
    (
        Replay {
            misses,
            wall,
            cpu_s,
        },
        pool,
    )
}

impl Replay {
    /// Accesses of `n` per CPU second, or per wall second where the CPU time is
    /// unknown.
    fn per_cpu_s(&self, n: f64) -> f64 {
        n / self
            .cpu_s
            .filter(|&c| c > 0.0)
            .unwrap_or(self.wall.as_secs_f64())
    }
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
/// Best of three of each, measured alike: the pass changes the pool, so each round
/// fills a pool of its own (the same pages, the same order) and times a sweep and then
/// the pass on it. (Best of three sweeps against one pass, as before, set a
/// machine's luckiest sweep against an ordinary pass.)
fn evict_pass_ratio() -> f64 {
    let (mut sweep, mut pass) = (Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        let (s, p) = evict_round();
        sweep = sweep.min(s);
        pass = pass.min(p);
    }
    pass.as_secs_f64() / sweep.as_secs_f64()
}

/// One round of (d): a filled pool's sweep for the tablespace, then its pass.
fn evict_round() -> (Duration, Duration) {
    let mut pool = filled_pool();
    // black_box keeps the compiler from knowing the sweep's result is unused.
    let (count, sweep) =
        timed(|| std::hint::black_box(&pool).count_space_pages(std::hint::black_box(SpaceId(3))));
    let (freed, pass) = timed(|| {
        (0..8)
            .map(|i| u64::from(pool.remove_space_pages(i, SpaceId(3)).0))
            .sum::<u64>()
    });
    assert_eq!(freed, count);
    (sweep, pass)
}

/// A full 8 M-page pool shared by a hundred tablespaces; the dropped one holds about
/// 1% of it, as an ordinary table among many does.
fn filled_pool() -> BufPool {
    let mut pool = BufPool::new(POOL_PAGES, 8, 37);
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
    pool
}

/// (g) The scan trace: a hot set the pool holds, read by point lookups, and between
/// them table scans of pages read once each, several rows a page in quick succession,
/// more pages than the pool. Exact LRU lets each scan push the hot set out; InnoDB puts
/// the scanned pages at the midpoint and, with `innodb_old_blocks_time`, leaves them in
/// the old sublist, so the hot set stays in the young part.
pub mod scan {
    /// Pool pages (one instance).
    pub const POOL_PAGES: u32 = 200_000;
    /// The hot set: pages 1..=HOT_PAGES, half the pool (less than its young 63%).
    pub const HOT_PAGES: u32 = 100_000;
    /// Point lookups over the hot set between two scans, uniform.
    pub const HOT_ACCESSES: usize = 400_000;
    /// Pages a scan reads, each new: one and a half pools.
    pub const SCAN_PAGES: u32 = 300_000;
    /// Accesses to each scanned page in a row (rows of a page read one by one).
    pub const ROWS_PER_PAGE: usize = 3;
    /// Rounds of lookups then a scan.
    pub const ROUNDS: usize = 4;
    /// Virtual microseconds between accesses: a round lasts 13 s, so a hot page is
    /// seen again well after `innodb_old_blocks_time` (1 s), a scanned page's rows
    /// within 30 µs.
    pub const US_PER_ACCESS: usize = 10;
}

/// The scan trace's page ids, in order.
pub fn scan_trace() -> Vec<u32> {
    let mut rng = SimRng::stream(42, "bench.scan");
    let per_round = scan::HOT_ACCESSES + scan::SCAN_PAGES as usize * scan::ROWS_PER_PAGE;
    let mut out = Vec::with_capacity(per_round * scan::ROUNDS);
    let mut next_scanned = scan::HOT_PAGES + 1;
    for _ in 0..scan::ROUNDS {
        for _ in 0..scan::HOT_ACCESSES {
            out.push(1 + rng.below(u64::from(scan::HOT_PAGES)) as u32);
        }
        for _ in 0..scan::SCAN_PAGES {
            out.extend(std::iter::repeat_n(next_scanned, scan::ROWS_PER_PAGE));
            next_scanned += 1;
        }
    }
    out
}

/// One policy over the scan trace.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ScanRun {
    /// Misses over all accesses (the scans' first reads are misses under any policy).
    pub miss_ratio: f64,
    /// Misses over the hot set's accesses: what the policy is for.
    pub hot_miss_ratio: f64,
    /// `Innodb_buffer_pool_pages_made_young`.
    pub made_young: u64,
    /// `Innodb_buffer_pool_pages_made_not_young`.
    pub not_made_young: u64,
}

/// The scan trace through exact LRU, InnoDB's midpoint with `innodb_old_blocks_time`
/// 1000 ms (the default), and the midpoint with it 0.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ScanFigures {
    /// Accesses in the trace.
    pub accesses: u64,
    /// Exact LRU.
    pub exact: ScanRun,
    /// InnoDB's midpoint, `innodb_old_blocks_time` 1000 ms.
    pub midpoint: ScanRun,
    /// InnoDB's midpoint, `innodb_old_blocks_time` 0.
    pub midpoint_no_old_blocks_time: ScanRun,
}

fn scan_run(trace: &[u32], policy: LruPolicy, old_blocks_time_ms: u32) -> ScanRun {
    let mut pool = BufPool::with_policy(scan::POOL_PAGES, 1, 37, policy);
    pool.register_space(SpaceId(1));
    let (mut misses, mut hot, mut hot_misses) = (0u64, 0u64, 0u64);
    for (i, &p) in trace.iter().enumerate() {
        let now_ms = (i * scan::US_PER_ACCESS / 1000) as u32 + 1;
        let page = PageId {
            space: SpaceId(1),
            page_no: p,
        };
        let miss = !pool.replay_access(page, now_ms, old_blocks_time_ms);
        let is_hot = p <= scan::HOT_PAGES;
        misses += u64::from(miss);
        hot += u64::from(is_hot);
        hot_misses += u64::from(is_hot && miss);
    }
    let stats = pool.stats();
    ScanRun {
        miss_ratio: misses as f64 / trace.len() as f64,
        hot_miss_ratio: hot_misses as f64 / hot.max(1) as f64,
        made_young: stats.made_young,
        not_made_young: stats.not_made_young,
    }
}

/// (g): the scan trace through the three policies.
pub fn scan_figures() -> ScanFigures {
    let trace = scan_trace();
    ScanFigures {
        accesses: trace.len() as u64,
        exact: scan_run(&trace, LruPolicy::Exact, 1000),
        midpoint: scan_run(&trace, LruPolicy::Midpoint, 1000),
        midpoint_no_old_blocks_time: scan_run(&trace, LruPolicy::Midpoint, 0),
    }
}

/// Distinct page ids in a trace.
fn distinct_pages(trace: &[u32]) -> u64 {
    let max = trace.iter().copied().max().unwrap_or(0) as usize;
    let mut seen = vec![false; max + 1];
    trace
        .iter()
        .filter(|&&p| !std::mem::replace(&mut seen[p as usize], true))
        .count() as u64
}

/// The machine the figures were measured on, as Linux tells it (empty elsewhere).
#[derive(Clone, Debug, Default, Serialize)]
pub struct MachineFacts {
    /// The processor's model name.
    pub cpu: String,
    /// Processors this process may run on.
    pub cpus: usize,
    /// The 1-minute load average when the pool figures started.
    pub load_before: f64,
    /// And when they ended.
    pub load_after: f64,
}

impl MachineFacts {
    /// What `/proc` says now (the load goes in `load_before`).
    pub fn read() -> MachineFacts {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find_map(|l| l.strip_prefix("model name"))
            .and_then(|l| l.split_once(':'))
            .map_or(String::new(), |(_, name)| name.trim().to_string());
        MachineFacts {
            cpu,
            cpus: std::thread::available_parallelism().map_or(0, usize::from),
            load_before: load_average(),
            load_after: 0.0,
        }
    }

    /// These facts with the load now as `load_after`.
    fn then(self, later: MachineFacts) -> MachineFacts {
        MachineFacts {
            load_after: later.load_before,
            ..self
        }
    }
}

/// The 1-minute load average (`/proc/loadavg`), 0 when unknown.
fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
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

/// Runs (a), (b), (d) and (g): the pool alone; `progress` is told what is running.
pub fn pool_figures(
    trace_path: Option<&str>,
    progress: &mut dyn FnMut(&str),
) -> Result<PoolFigures, String> {
    let machine_before = MachineFacts::read();
    progress("reading the trace");
    let (trace, source) = match trace_path {
        Some(p) => (read_trace(p)?, p.to_string()),
        None => (
            generated_trace(),
            "generated (reference shape, engine PRNG)".to_string(),
        ),
    };
    progress("replaying through exact LRU, access by access");
    let (exact_one, _) = replay(&trace, LruPolicy::Exact, Walk::OneByOne);
    progress("replaying through exact LRU, prefetching");
    let (exact, _) = replay(&trace, LruPolicy::Exact, Walk::Prefetching);
    progress("replaying through InnoDB's midpoint LRU, access by access");
    let (innodb_one, _) = replay(&trace, LruPolicy::Midpoint, Walk::OneByOne);
    progress("replaying through InnoDB's midpoint LRU, prefetching");
    let (innodb, pool) = replay(&trace, LruPolicy::Midpoint, Walk::Prefetching);
    assert_eq!(
        (exact.misses, innodb.misses),
        (exact_one.misses, innodb_one.misses)
    );
    let bytes_per_page = pool.bytes_per_page();
    drop(pool);
    progress("timing a tablespace-eviction pass against a plain sweep");
    let evict_pass_vs_sweep_ratio = evict_pass_ratio();
    progress("replaying a hot set and table scans through each policy");
    let scan = scan_figures();
    let n = trace.len() as f64;
    Ok(PoolFigures {
        trace: source,
        trace_distinct_pages: distinct_pages(&trace),
        exact_lru_accesses_per_s: n / exact.wall.as_secs_f64(),
        exact_lru_accesses_per_cpu_s: exact.cpu_s.filter(|&c| c > 0.0).map(|c| n / c),
        exact_lru_miss_ratio: exact.misses as f64 / n,
        exact_lru_one_by_one_accesses_per_cpu_s: exact_one.per_cpu_s(n),
        innodb_lru_accesses_per_s: n / innodb.wall.as_secs_f64(),
        innodb_lru_accesses_per_cpu_s: innodb.cpu_s.filter(|&c| c > 0.0).map(|c| n / c),
        innodb_lru_miss_ratio: innodb.misses as f64 / n,
        innodb_lru_one_by_one_accesses_per_cpu_s: innodb_one.per_cpu_s(n),
        bytes_per_page,
        evict_pass_vs_sweep_ratio,
        scan,
        machine: machine_before.then(MachineFacts::read()),
    })
}

/// Runs everything; `progress` is told what is running.
pub fn run(
    trace_path: Option<&str>,
    web_path: Option<&str>,
    progress: &mut dyn FnMut(&str),
) -> Result<BenchReport, String> {
    let web = web_path.map(read_web_factors).transpose()?;
    let pool = pool_figures(trace_path, progress)?;
    progress("running 60 virtual seconds on a 128 GB pool");
    let realtime_factor = realtime_factor()?;
    progress("running I1 past its DROP's stall (virtual 170 to 290 s)");
    let i1_steady_realtime_factor = i1_steady_factor()?;
    progress("running I1 as it plays (virtual 0 to 200 s)");
    let i1_played_realtime_factor = i1_played_factor()?;
    progress("building I1's 128 GB pool");
    let (i1_build_ms, i1_assemble_ms) = i1_build_ms()?;
    Ok(BenchReport {
        pool,
        realtime_factor,
        i1_steady_realtime_factor,
        i1_played_realtime_factor,
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
    fn the_scan_trace_tells_the_midpoint_from_exact_lru() {
        let per_round = scan::HOT_ACCESSES + scan::SCAN_PAGES as usize * scan::ROWS_PER_PAGE;
        let trace = &scan_trace()[..2 * per_round];
        let exact = scan_run(trace, LruPolicy::Exact, 1000);
        let midpoint = scan_run(trace, LruPolicy::Midpoint, 1000);
        let no_time = scan_run(trace, LruPolicy::Midpoint, 0);
        // Exact LRU: the scan evicts the whole hot set, read again in round two.
        assert!(exact.hot_miss_ratio > 0.24, "{exact:?}");
        // The midpoint keeps most of it; without the old-blocks time it does not.
        assert!(
            midpoint.hot_miss_ratio < 0.7 * exact.hot_miss_ratio,
            "{midpoint:?}"
        );
        assert!(
            no_time.hot_miss_ratio > 0.9 * exact.hot_miss_ratio,
            "{no_time:?}"
        );
        assert!(midpoint.not_made_young > 0 && no_time.not_made_young == 0);
        assert!(no_time.made_young > 10 * midpoint.made_young);
        // Every scanned page's first row misses under any policy.
        let scanned = (2 * scan::SCAN_PAGES) as f64 / trace.len() as f64;
        assert!(midpoint.miss_ratio > scanned, "{midpoint:?}");
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
