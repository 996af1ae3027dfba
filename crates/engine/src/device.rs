//! Storage devices: latency, bandwidth and parallelism for reads, writes and fsyncs.
//!
//! A device has a number of channels (a spinning disk one, an SSD several, NVMe many);
//! each I/O takes the channel that frees up first and holds it for its latency plus its
//! transfer time at the device's bandwidth. Queueing is therefore visible: a burst of
//! page-cleaner writes delays the reads behind it.

use crate::size::ByteSize;
use crate::time::Tick;
use serde::{Deserialize, Serialize};

/// The storage device's kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeviceKind {
    /// A spinning disk.
    Hdd,
    /// A SATA SSD.
    #[default]
    SataSsd,
    /// NVMe or PCIe flash (Fusion-io).
    Nvme,
}

/// The storage device.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceConfig {
    /// The kind, which sets the default latency.
    #[serde(default)]
    pub kind: DeviceKind,
    /// Latency of one 16 KiB page read, µs; defaults by kind.
    #[serde(default)]
    pub read_latency_us: Option<u64>,
    /// Latency of one page write, µs; defaults by kind.
    #[serde(default)]
    pub write_latency_us: Option<u64>,
    /// Latency of a redo-log write + fsync at commit, µs; defaults by kind.
    #[serde(default)]
    pub fsync_latency_us: Option<u64>,
    /// Transfer rate per second; defaults by kind.
    #[serde(default)]
    pub bandwidth: Option<ByteSize>,
    /// I/Os the device serves at once; defaults by kind.
    #[serde(default)]
    pub channels: Option<u32>,
}

/// What an I/O does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IoOp {
    /// A page read.
    Read,
    /// A page write.
    Write,
}

/// A simulated device.
#[derive(Clone, Debug)]
pub struct Device {
    read_latency: Tick,
    write_latency: Tick,
    fsync_latency: Tick,
    bytes_per_s: u64,
    channels: Vec<Tick>,
    /// Bytes read so far.
    pub bytes_read: u64,
    /// Bytes written so far.
    pub bytes_written: u64,
}

impl Device {
    /// The device a scenario describes: the kind's typical figures, with any override.
    pub fn new(cfg: &DeviceConfig) -> Device {
        // (read µs, write µs, fsync µs, MB/s, channels)
        let (r, w, f, mbps, ch) = match cfg.kind {
            DeviceKind::Hdd => (8_000, 500, 8_000, 150, 1),
            DeviceKind::SataSsd => (150, 60, 1_000, 500, 8),
            DeviceKind::Nvme => (80, 20, 100, 3_000, 32),
        };
        Device {
            read_latency: Tick::from_us(cfg.read_latency_us.unwrap_or(r)),
            write_latency: Tick::from_us(cfg.write_latency_us.unwrap_or(w)),
            fsync_latency: Tick::from_us(cfg.fsync_latency_us.unwrap_or(f)),
            bytes_per_s: cfg.bandwidth.map_or(mbps * 1_000_000, |b| b.bytes()),
            channels: vec![Tick::ZERO; cfg.channels.unwrap_or(ch).max(1) as usize],
            bytes_read: 0,
            bytes_written: 0,
        }
    }

    /// The time one redo write + fsync takes.
    pub fn fsync_latency(&self) -> Tick {
        self.fsync_latency
    }

    /// Submits an I/O of `bytes` at `now`; returns when it completes.
    pub fn submit(&mut self, now: Tick, op: IoOp, bytes: u64) -> Tick {
        let latency = match op {
            IoOp::Read => {
                self.bytes_read += bytes;
                self.read_latency
            }
            IoOp::Write => {
                self.bytes_written += bytes;
                self.write_latency
            }
        };
        let transfer =
            Tick((u128::from(bytes) * 1_000_000_000 / u128::from(self.bytes_per_s.max(1))) as u64);
        let (idx, free_at) = self
            .channels
            .iter()
            .copied()
            .enumerate()
            .min_by_key(|&(i, t)| (t, i))
            .expect("a device has at least one channel");
        let start = free_at.max(now);
        let done = start + latency + transfer;
        self.channels[idx] = done;
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_channel_queues_and_bandwidth_adds_transfer_time() {
        let cfg = DeviceConfig {
            kind: DeviceKind::Hdd,
            ..DeviceConfig::default()
        };
        let mut d = Device::new(&cfg);
        let a = d.submit(Tick::ZERO, IoOp::Read, 16_384);
        let b = d.submit(Tick::ZERO, IoOp::Read, 16_384);
        // 8 ms + 16 KiB at 150 MB/s (109 µs), and the second waits for the first.
        assert_eq!(a, Tick::from_ns(8_109_226));
        assert_eq!(b, a + a);
    }

    #[test]
    fn nvme_serves_many_in_parallel() {
        let cfg = DeviceConfig {
            kind: DeviceKind::Nvme,
            ..DeviceConfig::default()
        };
        let mut d = Device::new(&cfg);
        let done: Vec<Tick> = (0..32)
            .map(|_| d.submit(Tick::ZERO, IoOp::Read, 16_384))
            .collect();
        assert!(
            done.iter().all(|t| *t == done[0]),
            "32 channels, no queueing"
        );
        assert!(
            d.submit(Tick::ZERO, IoOp::Read, 16_384) > done[0],
            "the 33rd queues"
        );
    }
}
