//! One engine's canvases, as the page's components mount them and the frame loop
//! draws on them.

use crate::canvas::chart::ChartCanvases;
use yew::NodeRef;

/// One engine's canvases.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Canvases {
    /// The buffer-pool map.
    pub map: NodeRef,
    /// The charts, and what each drew last for its pointer handlers.
    pub charts: ChartCanvases,
    /// The latch lanes.
    pub latches: NodeRef,
    /// The flush lists.
    pub flush: NodeRef,
}
