//! The panels the fragment chose (`panels=`), for each engine shown: the pool map, the
//! latch lanes, the metadata locks, the processlist, the three charts and the console
//! (main engine only), in one column per engine (stacked below 1000 px).

use crate::canvas::chart::{BpChart, TpsChart, WaitsChart};
use crate::canvas::frame::Canvases;
use crate::canvas::latch_lanes::LatchLanes;
use crate::canvas::pool_map::PoolMap;
use crate::model::embed::EmbedOptions;
use crate::model::state::{Action, AppState};
use crate::ui::hooks::{dispatch, SharedEngines};
use crate::ui::mdl_panel::MdlPanel;
use crate::ui::processlist::Processlist;
use crate::ui::sql_box::SqlConsole;
use yew::prelude::*;

/// One column of panels per engine.
pub fn panes(
    state: &UseReducerHandle<AppState>,
    engines: &SharedEngines,
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
    engines: &SharedEngines,
    c: &Canvases,
    options: &EmbedOptions,
    i: usize,
    comparing: bool,
) -> Html {
    let snapshot = state.snapshots.get(i).cloned().unwrap_or_default();
    let instances = engines
        .borrow()
        .panes
        .get(i)
        .map_or(1, |r| r.sim().pool().n_instances());
    let on_seek = crate::ui::hooks::seeker(&crate::ui::hooks::EnginesProxy::Local(engines.clone()));
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
                <PoolMap canvas={c.map.clone()} {instances} tables={snapshot.tables.clone()} />
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

fn console(state: &UseReducerHandle<AppState>, engines: &SharedEngines) -> Html {
    let on_run = {
        let engines = engines.clone();
        let active = state.active;
        Callback::from(move |sql: String| -> Result<u32, String> {
            let mut e = engines.borrow_mut();
            let session = if active == 0 {
                e.main().sim().console_session()
            } else {
                active
            };
            e.submit(session, &sql)
        })
    };
    let on_connect = {
        let (engines, d) = (engines.clone(), state.dispatcher());
        Callback::from(move |()| {
            let id = engines.borrow_mut().connect();
            d.dispatch(Action::SelectSession(id));
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
