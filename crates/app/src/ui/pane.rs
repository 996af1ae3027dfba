//! One engine's panels: the buffer-pool map, the latch lanes, the metadata locks, the
//! processlist, the flush lists and the charts. The page shows one pane, or two side by side in compare mode; the frame
//! loop draws each pane's canvases from its own engine.

use crate::canvas::chart::{BpChart, TpsChart, WaitsChart};
use crate::canvas::flush_list::FlushList;
use crate::canvas::frame::Canvases;
use crate::canvas::latch_lanes::LatchLanes;
use crate::canvas::pool_map::PoolMap;
use crate::model::snapshot::Snapshot;
use crate::ui::mdl_panel::MdlPanel;
use crate::ui::processlist::Processlist;
use ddlscope_engine::Tick;
use yew::prelude::*;

/// Properties of [`Pane`].
#[derive(Properties, PartialEq, Debug)]
pub struct PaneProps {
    /// Which engine: 0 the main one, 1 the compared one.
    pub index: usize,
    /// Its canvases.
    pub canvases: Canvases,
    /// Buffer-pool instances.
    pub instances: u16,
    /// Its figures.
    pub snapshot: Snapshot,
    /// The engine's title, shown above the panels in compare mode.
    #[prop_or_default]
    pub title: Option<AttrValue>,
    /// The pool map's tooltip text for a point (see [`crate::canvas::pool_map::locate`]).
    #[prop_or_default]
    pub inspect: Option<Callback<(f64, f64, f64), Option<String>>>,
    /// Called with a band's start when a band on a chart is clicked.
    #[prop_or_default]
    pub on_seek: Callback<Tick>,
}

/// The panels of one engine.
#[function_component(Pane)]
pub fn pane(props: &PaneProps) -> Html {
    let c = &props.canvases;
    let instances = props.instances;
    html! {
        <div class="pane" data-testid={format!("pane-{}", props.index)} data-profile={props.title.clone()}>
            if let Some(title) = props.title.clone() {
                <h2 class="pane-title" data-testid="pane-title">{ title }</h2>
            }
            <PoolMap canvas={c.map.clone()} {instances} tables={props.snapshot.tables.clone()} inspect={props.inspect.clone()} />
            <LatchLanes canvas={c.latches.clone()} {instances} />
            <MdlPanel view={props.snapshot.mdl.clone()} />
            <Processlist rows={props.snapshot.processlist.clone()} />
            <FlushList canvas={c.flush.clone()} {instances} walks={props.snapshot.flush_walks} />
            <div class="chart-row">
                <TpsChart slot={c.charts.tps.clone()} on_seek={props.on_seek.clone()} />
                <BpChart slot={c.charts.bp.clone()} on_seek={props.on_seek.clone()} />
                <WaitsChart slot={c.charts.waits.clone()} on_seek={props.on_seek.clone()} />
            </div>
        </div>
    }
}
