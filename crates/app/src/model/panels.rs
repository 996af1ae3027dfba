//! What the flush-list panel, the latch lanes and the charts draw, as plain data read
//! from a runner: the page's frame loop builds them beside the canvas, the worker
//! (`model::remote`) builds them beside the engine and posts them in its frames.

use super::runner::Runner;
use super::spans::{DdlSpan, FailoverMark, LatchSpan, ScanSpan, LATCH_WINDOW};
use ddlscope_engine::{Cell, CellKind, LatchId, Sample, Sim, SpaceId, Tick};
use serde::{Deserialize, Serialize};

/// At most this many buffer-pool instances get a latch lane of their own.
pub const MAX_POOL_LANES: usize = 8;
/// At most this many instances get a flush-list lane.
pub const MAX_FLUSH_LANES: u16 = 8;
/// Entries a flush-list lane keeps, evenly spaced along the list: more than the
/// lane has pixel columns, so every column still shows one entry of its stretch.
pub const FLUSH_CELLS: usize = 2048;
/// The charts' time window, virtual seconds (`canvas::chart::geometry::WINDOW_S`);
/// the samples before it are not sent.
pub const CHART_WINDOW_S: u64 = 600;

/// One latch lane now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatchLane {
    /// The latch.
    #[serde(with = "super::remote::wire::latch")]
    pub latch: LatchId,
    /// Since when its holder has held it, if it is held.
    pub held_since: Option<Tick>,
    /// Threads queued for it.
    pub waiting: u32,
}

/// What the latch lanes draw.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatchView {
    /// The virtual time.
    pub now: Tick,
    /// The global latches, then the first buffer-pool instances.
    pub lanes: Vec<LatchLane>,
    /// Finished holds in the window.
    #[serde(with = "super::remote::wire::latch_spans")]
    pub spans: Vec<LatchSpan>,
}

/// The lanes' latches for `sim`: the global latches, then the first instances.
pub fn lane_latches(sim: &Sim) -> Vec<LatchId> {
    let mut out = vec![LatchId::LockOpen, LatchId::DictSys, LatchId::FilSys];
    out.extend(
        (0..sim.pool().n_instances())
            .take(MAX_POOL_LANES)
            .map(LatchId::BufPool),
    );
    out
}

/// The latch lanes of `sim` now, with the finished holds `spans`.
pub fn latch_view(sim: &Sim, spans: &[LatchSpan]) -> LatchView {
    let now = sim.now();
    let start = now.saturating_sub(LATCH_WINDOW);
    LatchView {
        now,
        lanes: lane_latches(sim)
            .into_iter()
            .map(|latch| {
                let l = sim.latch(latch);
                LatchLane {
                    latch,
                    held_since: l.held_since().filter(|_| l.holder().is_some()),
                    waiting: l.waiter_count() as u32,
                }
            })
            .collect(),
        spans: spans.iter().filter(|s| s.t1 >= start).copied().collect(),
    }
}

/// One flush-list entry as the panel colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlushCell {
    /// Its tablespace.
    pub space: SpaceId,
    /// Being written.
    pub io: bool,
}

/// One instance's flush list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlushLane {
    /// Its length.
    pub len: u32,
    /// At most [`FLUSH_CELLS`] of its entries, evenly spaced, oldest first.
    pub cells: Vec<FlushCell>,
    /// Walks of it so far.
    pub walks: u64,
}

/// What the flush-list panel draws.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlushView {
    /// The virtual time.
    pub now: Tick,
    /// The first instances' lists.
    pub lanes: Vec<FlushLane>,
    /// The walks not over yet.
    #[serde(with = "super::remote::wire::scans")]
    pub running: Vec<ScanSpan>,
}

/// The flush lists of `sim` now; `scratch` is a buffer kept between calls.
pub fn flush_view(
    sim: &Sim,
    running: &[ScanSpan],
    walks: &[u64],
    scratch: &mut Vec<Cell>,
) -> FlushView {
    let pool = sim.pool();
    let n = pool.n_instances().min(MAX_FLUSH_LANES);
    let lanes = (0..n)
        .map(|i| {
            pool.flush_cells(i, scratch);
            let len = scratch.len();
            let keep = len.min(FLUSH_CELLS);
            let cells = (0..keep)
                .map(|k| {
                    let c = &scratch[k * len / keep.max(1)];
                    FlushCell {
                        space: c.space,
                        io: c.kind == CellKind::Io,
                    }
                })
                .collect();
            FlushLane {
                len: len as u32,
                cells,
                walks: walks.get(usize::from(i)).copied().unwrap_or(0),
            }
        })
        .collect();
    FlushView {
        now: sim.now(),
        lanes,
        running: running.to_vec(),
    }
}

/// What the charts draw, for a page that has no `Sim` to read the samples from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChartData {
    /// The virtual time.
    pub now: Tick,
    /// The samples of the window, oldest first.
    pub samples: Vec<Sample>,
    /// The console statements.
    pub spans: Vec<DdlSpan>,
    /// The HA probe's failovers.
    pub failovers: Vec<FailoverMark>,
    /// `Innodb_buffer_pool_pages_total`.
    pub pages_total: u64,
}

/// The charts' data of `r` now: the samples of the last [`CHART_WINDOW_S`] (and the
/// second before, where a line starts).
pub fn chart_data(r: &Runner) -> ChartData {
    let sim = r.sim();
    let samples = sim.samples();
    let lo = sim.now().as_secs().saturating_sub(CHART_WINDOW_S + 1);
    let first = samples.partition_point(|s| s.t_s < lo);
    ChartData {
        now: sim.now(),
        samples: samples[first..].to_vec(),
        spans: r.ddl_spans().to_vec(),
        failovers: r.failovers().to_vec(),
        pages_total: sim.pool().pages_total(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_views_read_the_runner() {
        let mut r = Runner::new("drop-table-demo", "mysql-5.7", 0).expect("builtin");
        r.run_to(Tick::from_secs(3), f64::INFINITY, &|| 0.0);
        r.digest();
        let sim = r.sim();
        let lv = latch_view(sim, r.latch_spans());
        assert_eq!(lv.lanes.len(), lane_latches(sim).len());
        assert_eq!(lv.lanes[1].latch, LatchId::DictSys);
        let (walks, counts) = r.flush_walks();
        let fv = flush_view(sim, walks, counts, &mut Vec::new());
        let n = usize::from(sim.pool().n_instances().min(MAX_FLUSH_LANES));
        assert_eq!(fv.lanes.len(), n);
        for lane in &fv.lanes {
            assert_eq!(lane.cells.len(), (lane.len as usize).min(FLUSH_CELLS));
        }
        let cd = chart_data(&r);
        assert_eq!(
            cd.samples.len(),
            sim.samples().len(),
            "3 s: all in the window"
        );
        assert_eq!(cd.pages_total, sim.pool().pages_total());
    }
}
