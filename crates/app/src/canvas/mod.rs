//! What is drawn on a `<canvas>`: the frame loop that steps the engines and redraws,
//! the buffer-pool map, the flush-list and latch-lane panels, the charts, and the
//! canvas colours. Each reads the model (the runner, its spans) and paints; none of
//! them knows the Yew components around it beyond its own panel.

pub mod chart;
pub mod css_width;
pub mod flush_list;
pub mod frame;
pub mod frame_stages;
pub mod latch_lanes;
pub mod panel;
pub mod pen;
pub mod pool_map;
pub mod remote_debug;
pub mod remote_frame;
pub mod theme;
