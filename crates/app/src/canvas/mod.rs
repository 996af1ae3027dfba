//! What is drawn on a `<canvas>`: the page's one frame loop (`frame_loop.rs` on
//! `raf.rs`), which draws what the engines' worker sends; the buffer-pool map, the
//! flush-list and latch-lane panels, the charts, and the canvas colours. None of
//! them knows the Yew components around it beyond its own panel.

pub mod chart;
pub mod css_width;
pub mod debug_overlay;
pub mod flush_list;
pub mod frame_loop;
pub mod frame_stages;
pub mod host_scale;
pub mod latch_lanes;
pub mod pane_canvases;
pub mod panel;
pub mod pen;
pub mod pool_map;
pub mod raf;
pub mod theme;
