//! Per-virtual-second samples, named the way operators know them.
//!
//! Gauges (`..._pages_free`) are read at the end of each second; counters that the
//! server reports as running totals (`..._reads`) are given here as the rate over that
//! second, as a monitoring agent graphs them. Latency percentiles come from an
//! HdrHistogram of the statements that finished during the second.
//!
//! The wait gauges (`mdl_waits`, `row_lock_waits`, `latch_waits`) are the most
//! sessions (threads, for latches) seen waiting at once at any instant of the second,
//! not the count at its last instant: a buffer-pool mutex held for a 0.4 s LRU scan
//! queues every client behind it and is gone again before the second ends, and a
//! gauge read only at whole seconds would miss it most of the time. A wait that lasts
//! several seconds counts in each of them. The peak is exact, not sampled: the engine
//! raises it whenever a thread starts waiting (the only moment a count can grow).

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// One second of counters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Virtual second this sample closes (1 = the first second).
    pub t_s: u64,
    /// `Innodb_buffer_pool_pages_total`.
    #[serde(rename = "Innodb_buffer_pool_pages_total")]
    pub pages_total: u64,
    /// `Innodb_buffer_pool_pages_data` (stale pages included).
    #[serde(rename = "Innodb_buffer_pool_pages_data")]
    pub pages_data: u64,
    /// `Innodb_buffer_pool_pages_dirty`.
    #[serde(rename = "Innodb_buffer_pool_pages_dirty")]
    pub pages_dirty: u64,
    /// `Innodb_buffer_pool_pages_free`.
    #[serde(rename = "Innodb_buffer_pool_pages_free")]
    pub pages_free: u64,
    /// `Innodb_buffer_pool_pages_misc` (AHI and lock memory borrowed from the pool).
    #[serde(rename = "Innodb_buffer_pool_pages_misc")]
    pub pages_misc: u64,
    /// Pages of dropped or truncated tablespaces not yet reclaimed (8.0.23+).
    pub pages_stale: u64,
    /// `Innodb_buffer_pool_wait_free` per second.
    #[serde(rename = "Innodb_buffer_pool_wait_free")]
    pub wait_free: u64,
    /// `Innodb_buffer_pool_reads` per second (pages read from the device).
    #[serde(rename = "Innodb_buffer_pool_reads")]
    pub reads: u64,
    /// `Innodb_buffer_pool_read_requests` per second (page requests, hits included).
    #[serde(rename = "Innodb_buffer_pool_read_requests")]
    pub read_requests: u64,
    /// `Innodb_buffer_pool_pages_flushed` per second.
    #[serde(rename = "Innodb_buffer_pool_pages_flushed")]
    pub pages_flushed: u64,
    /// `Innodb_buffer_pool_pages_made_young` per second.
    #[serde(rename = "Innodb_buffer_pool_pages_made_young")]
    pub made_young: u64,
    /// `Innodb_buffer_pool_pages_made_not_young` per second.
    #[serde(rename = "Innodb_buffer_pool_pages_made_not_young")]
    pub made_not_young: u64,
    /// Transactions committed per second.
    pub tps: u64,
    /// Statements per second.
    pub qps: u64,
    /// Mean statement latency, ms.
    pub latency_avg_ms: f64,
    /// 95th percentile, ms.
    pub latency_p95_ms: f64,
    /// 99th percentile, ms.
    pub latency_p99_ms: f64,
    /// Longest, ms.
    pub latency_max_ms: f64,
    /// Client threads inside an event (transaction) at the end of the second.
    pub threads_running: u64,
    /// Redo between the current LSN and the oldest unwritten change, MiB.
    pub checkpoint_age_mb: u64,
    /// Statements that failed per second (sysbench's "ignored errors").
    pub errors: u64,
    /// Most sessions waiting for a metadata lock at once during the second
    /// ("Waiting for table metadata lock" and the other MDL wait states).
    pub mdl_waits: u64,
    /// Most sessions waiting for an InnoDB row lock at once during the second.
    pub row_lock_waits: u64,
    /// Most threads queued for an internal latch at once during the second: dict_sys,
    /// LOCK_open, fil_sys or a buffer-pool instance mutex.
    pub latch_waits: u64,
    /// The replica's `Seconds_Behind_Master` at the end of the second (`None`: the
    /// scenario has no replica).
    pub replica_lag_s: Option<u64>,
}

impl Sample {
    /// Column names, in row order.
    pub const COLUMNS: [&'static str; 25] = [
        "t_s",
        "Innodb_buffer_pool_pages_total",
        "Innodb_buffer_pool_pages_data",
        "Innodb_buffer_pool_pages_dirty",
        "Innodb_buffer_pool_pages_free",
        "Innodb_buffer_pool_pages_misc",
        "pages_stale",
        "Innodb_buffer_pool_wait_free",
        "Innodb_buffer_pool_reads",
        "Innodb_buffer_pool_read_requests",
        "Innodb_buffer_pool_pages_flushed",
        "Innodb_buffer_pool_pages_made_young",
        "Innodb_buffer_pool_pages_made_not_young",
        "tps",
        "qps",
        "latency_avg_ms",
        "latency_p95_ms",
        "latency_p99_ms",
        "latency_max_ms",
        "threads_running",
        "checkpoint_age_mb",
        "errors",
        "mdl_waits",
        "row_lock_waits",
        "latch_waits",
    ];

    /// The sample's JSON as the trace hash reads it and the CLI prints it: without
    /// `replica_lag_s` when the scenario has no replica, so that runs without one hash
    /// and print as they did before the replica lane existed.
    pub fn to_json(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(self).expect("a sample serializes");
        let tail: &[u8] = b",\"replica_lag_s\":null}";
        if bytes.ends_with(tail) {
            bytes.truncate(bytes.len() - tail.len());
            bytes.push(b'}');
        }
        bytes
    }

    /// The values as text, in [`Sample::COLUMNS`] order (ms with two decimals).
    pub fn row(&self) -> Vec<String> {
        let ms = |v: f64| format!("{v:.2}");
        vec![
            self.t_s.to_string(),
            self.pages_total.to_string(),
            self.pages_data.to_string(),
            self.pages_dirty.to_string(),
            self.pages_free.to_string(),
            self.pages_misc.to_string(),
            self.pages_stale.to_string(),
            self.wait_free.to_string(),
            self.reads.to_string(),
            self.read_requests.to_string(),
            self.pages_flushed.to_string(),
            self.made_young.to_string(),
            self.made_not_young.to_string(),
            self.tps.to_string(),
            self.qps.to_string(),
            ms(self.latency_avg_ms),
            ms(self.latency_p95_ms),
            ms(self.latency_p99_ms),
            ms(self.latency_max_ms),
            self.threads_running.to_string(),
            self.checkpoint_age_mb.to_string(),
            self.errors.to_string(),
            self.mdl_waits.to_string(),
            self.row_lock_waits.to_string(),
            self.latch_waits.to_string(),
        ]
    }
}

/// Running totals, from which each second's rates are taken.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Page requests.
    pub read_requests: u64,
    /// Pages read from the device.
    pub reads: u64,
    /// Waits for a free block.
    pub wait_free: u64,
    /// Statements finished.
    pub queries: u64,
    /// Transactions committed.
    pub transactions: u64,
    /// Pages made young.
    pub made_young: u64,
    /// Accesses that did not make a page young.
    pub made_not_young: u64,
    /// Pages written.
    pub pages_flushed: u64,
    /// Waits in `log_free_check()` for the checkpoint to advance.
    pub log_waits: u64,
    /// Statements that failed.
    pub errors: u64,
}

impl Counters {
    /// `self - earlier`, field by field.
    pub fn since(&self, earlier: &Counters) -> Counters {
        Counters {
            read_requests: self.read_requests - earlier.read_requests,
            reads: self.reads - earlier.reads,
            wait_free: self.wait_free - earlier.wait_free,
            queries: self.queries - earlier.queries,
            transactions: self.transactions - earlier.transactions,
            made_young: self.made_young - earlier.made_young,
            made_not_young: self.made_not_young - earlier.made_not_young,
            pages_flushed: self.pages_flushed - earlier.pages_flushed,
            log_waits: self.log_waits - earlier.log_waits,
            errors: self.errors - earlier.errors,
        }
    }
}

/// How many are waiting for each kind of lock: at an instant, or the peak of a second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WaitGauge {
    /// Sessions waiting for a metadata lock.
    pub mdl: u64,
    /// Sessions waiting for a row lock.
    pub row_lock: u64,
    /// Threads queued for an internal latch.
    pub latch: u64,
}

impl WaitGauge {
    /// Raises each count to `now`'s where that is higher.
    pub fn raise(&mut self, now: WaitGauge) {
        self.mdl = self.mdl.max(now.mdl);
        self.row_lock = self.row_lock.max(now.row_lock);
        self.latch = self.latch.max(now.latch);
    }
}

/// Statement latencies of the current second, in µs.
#[derive(Clone, Debug)]
pub struct LatencyWindow {
    hist: Histogram<u64>,
    sum_us: u64,
}

impl Default for LatencyWindow {
    fn default() -> LatencyWindow {
        LatencyWindow {
            // 1 µs .. 1 hour at 3 significant digits.
            hist: Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("valid histogram bounds"),
            sum_us: 0,
        }
    }
}

impl LatencyWindow {
    /// Records one statement.
    pub fn record(&mut self, latency_us: u64) {
        self.hist.saturating_record(latency_us.max(1));
        self.sum_us += latency_us;
    }

    /// Records one event and the ones a stalled closed-loop client did not start
    /// meanwhile, one every `interval_us` (HdrHistogram's correction for coordinated
    /// omission): a 150 s stall of 16 clients then weighs as the 150 s it lasted, not
    /// as 16 events.
    pub fn record_corrected(&mut self, latency_us: u64, interval_us: u64) {
        let v = latency_us.clamp(1, 3_600_000_000);
        // In bounds by the clamp, so the record cannot fail.
        let _ = self.hist.record_correct(v, interval_us.max(1));
        self.sum_us += latency_us;
    }

    /// The 99th percentile of everything recorded, ms (0 when empty), without
    /// clearing.
    pub fn p99_ms(&self) -> f64 {
        if self.hist.is_empty() {
            return 0.0;
        }
        self.hist.value_at_quantile(0.99) as f64 / 1000.0
    }

    /// (avg, p95, p99, max) in ms, then clears the window.
    pub fn take_ms(&mut self) -> (f64, f64, f64, f64) {
        let n = self.hist.len();
        let out = if n == 0 {
            (0.0, 0.0, 0.0, 0.0)
        } else {
            let ms = |us: u64| us as f64 / 1000.0;
            (
                self.sum_us as f64 / n as f64 / 1000.0,
                ms(self.hist.value_at_quantile(0.95)),
                ms(self.hist.value_at_quantile(0.99)),
                ms(self.hist.max()),
            )
        };
        self.hist.reset();
        self.sum_us = 0;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_window_reports_and_resets() {
        let mut w = LatencyWindow::default();
        for us in 1..=100u64 {
            w.record(us * 1000);
        }
        let (avg, p95, p99, max) = w.take_ms();
        assert!((avg - 50.5).abs() < 0.01, "{avg}");
        assert!((p95 - 95.0).abs() < 0.1, "{p95}");
        assert!((p99 - 99.0).abs() < 0.1, "{p99}");
        assert!((max - 100.0).abs() < 0.1, "{max}");
        assert_eq!(w.take_ms(), (0.0, 0.0, 0.0, 0.0));
    }

    #[test]
    fn a_corrected_window_weighs_a_stall_by_its_length() {
        // 35,000 events of 2 ms and 16 clients stalled 150 s: uncorrected the 16 are
        // under 1% and the p99 is 2 ms; corrected (an event every 2 ms expected) the
        // stall's missing events dominate.
        let (mut plain, mut corrected) = (LatencyWindow::default(), LatencyWindow::default());
        for _ in 0..35_000 {
            plain.record(2_000);
            corrected.record_corrected(2_000, 2_000);
        }
        for _ in 0..16 {
            plain.record(150_000_000);
            corrected.record_corrected(150_000_000, 2_000);
        }
        assert!((plain.p99_ms() - 2.0).abs() < 0.01, "{}", plain.p99_ms());
        assert!(corrected.p99_ms() > 100_000.0, "{}", corrected.p99_ms());
        assert_eq!(LatencyWindow::default().p99_ms(), 0.0);
    }

    #[test]
    fn a_wait_gauge_keeps_the_peak_of_each_kind() {
        let mut g = WaitGauge::default();
        g.raise(WaitGauge {
            mdl: 3,
            row_lock: 0,
            latch: 1,
        });
        g.raise(WaitGauge {
            mdl: 1,
            row_lock: 2,
            latch: 0,
        });
        assert_eq!(
            g,
            WaitGauge {
                mdl: 3,
                row_lock: 2,
                latch: 1
            }
        );
    }

    #[test]
    fn a_row_has_one_value_per_column() {
        let s = Sample {
            t_s: 1,
            pages_total: 2,
            pages_data: 3,
            pages_dirty: 0,
            pages_free: 4,
            pages_misc: 0,
            pages_stale: 0,
            wait_free: 0,
            reads: 5,
            read_requests: 6,
            pages_flushed: 0,
            made_young: 0,
            made_not_young: 0,
            tps: 7,
            qps: 7,
            latency_avg_ms: 1.0,
            latency_p95_ms: 2.0,
            latency_p99_ms: 3.0,
            latency_max_ms: 4.0,
            threads_running: 1,
            checkpoint_age_mb: 0,
            errors: 0,
            mdl_waits: 1,
            row_lock_waits: 0,
            latch_waits: 2,
            replica_lag_s: None,
        };
        assert_eq!(s.row().len(), Sample::COLUMNS.len());
        let json = serde_json::to_value(&s).unwrap();
        for c in Sample::COLUMNS {
            assert!(json.get(c).is_some(), "json has {c}");
        }
    }
}
