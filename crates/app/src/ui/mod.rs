//! The Yew components and hooks: the root [`app::App`], the toolbar, its panels menu,
//! the scenario card, the SQL console,
//! the status figures, one engine's pane, the processlist and metadata-lock panels,
//! the keyboard help and the panic banner. They read the model's snapshot and state,
//! dispatch its actions, and mount the canvases that `canvas` draws.

pub mod advisor;
pub mod app;
pub mod boot;
pub mod brand;
pub mod choices;
pub mod controls;
pub mod embed;
pub mod export;
pub mod help;
pub mod hooks;
pub mod lesson;
pub mod mdl_panel;
pub mod mount;
pub mod notice;
pub mod pane;
pub mod panels_menu;
pub mod panic;
pub mod processlist;
pub mod scenario_card;
pub mod scrubber_marks;
pub mod share;
pub mod share_poster;
pub mod sql_box;
pub mod start;
pub mod stats;
