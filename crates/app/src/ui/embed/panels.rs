//! The panels the fragment chose (`panels=`), for each engine shown: the pool map, the
//! latch lanes, the metadata locks, the processlist, the three charts and the console
//! (main engine only), in one column per engine (stacked below 1000 px).

use crate::canvas::chart::{BpChart, TpsChart, WaitsChart};
use crate::canvas::latch_lanes::LatchLanes;
use crate::canvas::pane_canvases::Canvases;
use crate::canvas::pool_map::PoolMap;
use crate::model::embed::EmbedOptions;
use crate::model::state::{Action, AppState};
use crate::ui::hooks::{dispatch, EnginesProxy};
use crate::ui::mdl_panel::MdlPanel;
use crate::ui::processlist::Processlist;
use crate::ui::sql_box::SqlConsole;
use yew::prelude::*;

/// One column of panels per engine.
pub fn panes(
    state: &UseReducerHandle<AppState>,
    engines: &EnginesProxy,
    canvases: &[Canvases],
    options: &EmbedOptions,
    comparing: bool,
) -> Html {
    let count = if comparing { 2 } else { 1 };
    html! {
        <div class="embed-panes">
            { for (0..count).map(|i| pane(state, engines, &canvases[i], options, i, comparing)) }
        </div>
    }
}

fn pane(
    state: &UseReducerHandle<AppState>,
    engines: &EnginesProxy,
    c: &Canvases,
    options: &EmbedOptions,
    i: usize,
    comparing: bool,
) -> Html {
    let snapshot = state.snapshots.get(i).cloned().unwrap_or_default();
    let instances = engines.instances().get(i).copied().unwrap_or(1);
    let on_seek = crate::ui::hooks::seeker(engines);
    let title = if i == 0 {
        state.profile.clone()
    } else {
        state.compare.clone().unwrap_or_default()
    };
    let show = |p: &str| options.shows(p);
    html! {
        <div class="pane embed-pane" data-testid={format!("pane-{i}")}>
            if comparing {
                <h2 class="pane-title" data-testid="pane-title">{ title }</h2>
            }
            if show("map") {
                <PoolMap canvas={c.map.clone()} {instances} tables={snapshot.tables.clone()} summary={crate::model::snapshot::map_summary(&snapshot, instances)} />
            }
            if show("latches") {
                <LatchLanes canvas={c.latches.clone()} {instances} />
            }
            if show("mdl") {
                <MdlPanel view={snapshot.mdl.clone()} />
            }
            if show("processlist") {
                <Processlist rows={snapshot.processlist.clone()} />
            }
            if show("chart-tps") {
                <TpsChart slot={c.charts.tps.clone()} on_seek={on_seek.clone()} />
            }
            if show("chart-bp") {
                <BpChart slot={c.charts.bp.clone()} on_seek={on_seek.clone()} />
            }
            if show("chart-waits") {
                <WaitsChart slot={c.charts.waits.clone()} on_seek={on_seek.clone()} />
            }
            if show("console") && i == 0 {
                { console(state, engines) }
            }
        </div>
    }
}

fn console(state: &UseReducerHandle<AppState>, engines: &EnginesProxy) -> Html {
    let on_run = {
        let engines = engines.clone();
        let active = state.active;
        // Session 0: the console's own.
        Callback::from(move |sql: String| -> Result<u32, String> { engines.submit(active, &sql) })
    };
    let on_connect = {
        let (engines, d) = (engines.clone(), state.dispatcher());
        Callback::from(move |()| {
            let d = d.clone();
            engines.connect(move |id| d.dispatch(Action::SelectSession(id)));
        })
    };
    html! {
        <SqlConsole
            log={state.log.clone()}
            sessions={state.snapshots[0].console.clone()}
            active={state.active}
            suggestions={Vec::<String>::new()}
            {on_run}
            {on_connect}
            on_select={dispatch(state, Action::SelectSession)}
        />
    }
}
