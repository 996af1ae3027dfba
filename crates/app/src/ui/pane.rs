//! One engine's panels: the buffer-pool map, the latch lanes, the flush lists, the
//! charts, the metadata locks and the processlist, in the order and the two columns
//! of the page's [`PanelLayout`] (hidden ones left out). The page shows one pane, or
//! two side by side in compare mode (one column each); the frame loop draws each
//! pane's canvases from its own engine.

use crate::canvas::chart::{BpChart, TpsChart, WaitsChart};
use crate::canvas::flush_list::FlushList;
use crate::canvas::latch_lanes::LatchLanes;
use crate::canvas::pane_canvases::Canvases;
use crate::canvas::pool_map::PoolMap;
use crate::model::panel_layout::{Column, PanelId, PanelLayout};
use crate::model::session_names::SessionNames;
use crate::model::snapshot::Snapshot;
use crate::ui::mdl_panel::MdlPanel;
use crate::ui::mount::Stage;
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
    /// Which panels, in which order and column.
    pub layout: PanelLayout,
    /// The sessions' names (a lesson's s2, s3, or the reader's), shown in the
    /// processlist.
    #[prop_or_default]
    pub names: SessionNames,
    /// The engine's title, shown above the panels in compare mode.
    #[prop_or_default]
    pub title: Option<AttrValue>,
    /// The pool map's tooltip text for a point (see [`crate::model::inspect::tooltip`]).
    #[prop_or_default]
    pub inspect: Option<crate::canvas::pool_map::Inspect>,
    /// Called with a band's start when a band on a chart is clicked.
    #[prop_or_default]
    pub on_seek: Callback<Tick>,
    /// How much of the page is mounted: the panels it shows (see
    /// [`crate::ui::mount`]).
    #[prop_or(Stage::Full)]
    pub stage: Stage,
}

/// One panel of the pane, wrapped so the stylesheet and the tests can find it.
fn panel(props: &PaneProps, id: PanelId) -> Html {
    let c = &props.canvases;
    let s = &props.snapshot;
    let instances = props.instances;
    let on_seek = props.on_seek.clone();
    let inner = match id {
        PanelId::Map => html! {
            <PoolMap canvas={c.map.clone()} {instances} tables={s.tables.clone()} summary={crate::model::snapshot::map_summary(s, instances)} inspect={props.inspect.clone()} />
        },
        PanelId::Latches => html! { <LatchLanes canvas={c.latches.clone()} {instances} /> },
        PanelId::Flush => html! {
            <FlushList canvas={c.flush.clone()} {instances} walks={s.flush_walks} />
        },
        PanelId::Tps => html! { <TpsChart slot={c.charts.tps.clone()} {on_seek} /> },
        PanelId::Bp => html! { <BpChart slot={c.charts.bp.clone()} {on_seek} /> },
        PanelId::Waits => html! { <WaitsChart slot={c.charts.waits.clone()} {on_seek} /> },
        PanelId::Mdl => html! { <MdlPanel view={s.mdl.clone()} /> },
        PanelId::Processlist => {
            let console: Vec<u32> = s.console.iter().map(|c| c.id).collect();
            html! { <Processlist rows={s.processlist.clone()} blockers={s.mdl.blockers()} {console} names={props.names.clone()} /> }
        }
    };
    html! { <div class="pane-panel" data-panel={id.name()} key={id.name()}>{ inner }</div> }
}

/// The panels of one engine.
#[function_component(Pane)]
pub fn pane(props: &PaneProps) -> Html {
    let column = |c: Column| {
        let ids = props.layout.column(c);
        let ids = ids.into_iter().filter(|id| props.stage.shows(*id));
        html! {
            <div class="pane-col" data-column={if c == Column::First { "1" } else { "2" }}>
                { for ids.map(|id| panel(props, id)) }
            </div>
        }
    };
    html! {
        <div class="pane" data-testid={format!("pane-{}", props.index)} data-profile={props.title.clone()}>
            if let Some(title) = props.title.clone() {
                <h2 class="pane-title" data-testid="pane-title">{ title }</h2>
            }
            <div class="pane-cols">
                { column(Column::First) }
                { column(Column::Second) }
            </div>
        </div>
    }
}
