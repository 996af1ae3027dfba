//! The charts: throughput and latency, the buffer pool's counters, and lock waits,
//! over virtual time, one point per virtual second, as a monitoring dashboard plots
//! the server's status counters, with what happened marked as bands on the time axis.
//!
//! ```text
//!   chart-tps    tps on the left axis; latency avg / p95 / max on the right, log scale
//!   chart-bp     pages total / data / dirty / free / misc / stale;
//!                below: reads, read_requests, wait_free per second, log scale
//!   chart-waits  sessions waiting for a metadata lock, a row lock; threads queued
//!                for a latch (dict_sys, LOCK_open, fil_sys, a buffer-pool mutex)
//!   every chart  bands: console statements, lock waits of 2 s or more, failover
//! ```
//!
//! Latency is on a log scale because the interesting seconds are the outliers: a point
//! select takes a fraction of a millisecond, the one that waited behind a pool mutex
//! for the whole LRU scan takes hundreds, and an I1-style stall 150 s; each stays
//! readable on the same axis. A second without a finished statement has no latency,
//! and its lines break there rather than dive.
//!
//! Drawing and interaction are split: the frame loop ([`crate::model::runner`]) calls
//! [`ChartCanvases::draw`] only when a sample arrives, a band changes or the canvas,
//! the theme or the window change, never every frame. Each draw leaves a [`Drawn`]
//! (the plot's pixel ↔ time mapping and the bands' rectangles) in the chart's
//! [`ChartSlot`], which the component's pointer handlers read to hit-test: a click on
//! a band seeks to its start, hovering one shows its story and a pointer cursor.
//!
//! The x axis shows the whole run while it is short, then the last ten minutes
//! ([`geometry::WINDOW_S`]).

pub mod bands;
pub mod canvases;
pub mod draw;
pub mod geometry;
mod view;

pub use bands::{Band, BandKind};
pub use canvases::{visible, ChartCanvases, ChartSlot, Input, Which};
pub use draw::{Frame, DATA};
pub use geometry::{Drawn, HitBand, XMap};
pub use view::{BpChart, ChartProps, TpsChart, WaitsChart};
