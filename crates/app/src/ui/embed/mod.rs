//! The embed player (`embed.html`): a compact page for documentation and slides, made
//! for about 800×450 and usable from 320 to 1280 px wide. It shows the panels the
//! fragment names, a caption line, play/pause, the scrubber and the clock (`controls=
//! full` adds step, back and speed), and an **Open in full** link carrying the same
//! state. `start=`, `end=`, `loop=` and `autoplay=` set its clock; `theme=` its
//! colours; `origins=` who may drive it over postMessage (`messages.rs`).
//!
//! It shares the main page's model (AppState, the reducer, the engines) and hooks;
//! only the layout is its own: `panels.rs` the chosen panels, `bar.rs` the controls.

mod bar;
mod messages;
mod panels;

use crate::canvas::frame::{performance_now, Canvases};
use crate::model::embed::{EmbedOptions, Theme};
use crate::model::state::{Action, AppState};
use crate::ui::hooks::{
    seeker, stepper, use_clock, use_compare, use_frame_loop, use_restart, EnginesProxy,
    SharedEngines, SEEK_NOW_MS,
};
use crate::ui::share::{self, Opening};
use gloo::timers::callback::Interval;
use std::rc::Rc;
use yew::prelude::*;

/// How often the player checks `end=`, wall ms.
const END_CHECK_MS: u32 = 100;

/// The opening with the embed's defaults: the scenario's own script runs unless the
/// link is a shared state (which says) or `script=0`; `start=` is where it opens.
fn embed_opening(opening: &Opening, options: &EmbedOptions) -> Opening {
    let mut o = opening.clone();
    if let Some(state) = o.state.as_mut() {
        let explicit = opening.param("script").is_some() || share::had_payload();
        if !explicit {
            state.knobs.script = Some(true);
        }
        if let Some(start) = options.start {
            state.t = start;
        }
        state.paused = !options.autoplay;
    }
    o
}

/// The player.
#[function_component(EmbedApp)]
pub fn embed_app() -> Html {
    let opening = use_memo((), |_| share::opening());
    let read = use_memo((), |_| EmbedOptions::from_params(&opening.params));
    let options = Rc::new(read.as_ref().clone().unwrap_or_default());
    let option_error = read.as_ref().as_ref().err().map(|e| e.to_string());
    let first = use_mut_ref(|| {
        let mut o = embed_opening(&opening, &options);
        if o.state.is_none() && o.error.is_none() {
            // No scenario named: the default one, with its script, as a player shows it.
            o.state = Some(crate::model::link::LinkState {
                knobs: crate::model::knobs::Knobs {
                    script: Some(true),
                    ..Default::default()
                },
                t: options.start.unwrap_or_default(),
                paused: !options.autoplay,
                ..Default::default()
            });
        }
        Some(share::initial(&o, !options.autoplay))
    });
    let state = use_reducer(|| first.borrow().as_ref().expect("taken once").0.clone());
    let engines: SharedEngines = use_mut_ref(|| first.borrow_mut().take().expect("taken once").1);
    let canvases = use_memo((), |_| vec![Canvases::default(), Canvases::default()]);

    // The player's engines run on the page's thread.
    let proxy = EnginesProxy::Local(engines.clone());
    use_frame_loop(&proxy, &state, (*canvases).clone(), None);
    use_clock(&proxy, &state);
    use_restart(&proxy, &state, false);
    use_compare(&proxy, &state);
    use_theme(options.theme);
    use_end(&engines, &state, &options);
    messages::use_messages(&engines, &state, options.clone());

    let comparing = state.compare.is_some() && state.snapshots.len() > 1;
    let error = option_error.or_else(|| state.error.clone());
    let full_url = {
        let fragment = share::local_fragment(&engines, &state.layout, &[]);
        share::page_url("index.html", &fragment)
    };
    html! {
        <div class={classes!("embed-player", comparing.then_some("comparing"))} data-testid="embed-player">
            <p class="embed-caption" data-testid="embed-caption">{ caption(&state) }</p>
            if let Some(e) = error {
                <p class="error-banner" role="alert" data-testid="embed-error">{ e }</p>
            }
            { panels::panes(&state, &engines, &canvases, &options, comparing) }
            <bar::Bar
                playing={state.playing}
                speed={state.speed}
                now={state.snapshots[0].now}
                horizon={state.snapshots[0].horizon}
                full={options.controls == crate::model::embed::ControlSet::Full}
                {full_url}
                on_toggle={crate::ui::hooks::dispatch(&state, |()| Action::TogglePlay)}
                on_speed={crate::ui::hooks::dispatch(&state, Action::SetSpeed)}
                on_seek={seeker(&proxy)}
                on_step={stepper(&proxy, &state)}
            />
        </div>
    }
}

/// "DROP TABLE on a busy server · mysql-5.7 vs mysql-8.0.23".
fn caption(state: &AppState) -> String {
    // From the build-time catalog: the caption is drawn at every render.
    let title = ddlscope_engine::catalog::scenarios()
        .into_iter()
        .find(|s| s.name == state.scenario)
        .map_or_else(|| state.scenario.clone(), |s| s.title.to_string());
    match &state.compare {
        Some(other) => format!("{title} · {} vs {other}", state.profile),
        None => format!("{title} · {}", state.profile),
    }
}

/// `theme=light|dark` on the document.
#[hook]
fn use_theme(theme: Option<Theme>) {
    use_effect_with(theme, |theme| {
        if let (Some(t), Some(root)) = (theme, gloo::utils::document().document_element()) {
            let _ = root.set_attribute("data-theme", t.name());
        }
    });
}

/// `end=`: the clock stops there, or with `loop=1` goes back to `start=` (or 0).
#[hook]
fn use_end(engines: &SharedEngines, state: &UseReducerHandle<AppState>, options: &EmbedOptions) {
    let (engines, d) = (engines.clone(), state.dispatcher());
    let (start, end, looped) = (
        options.start.unwrap_or_default(),
        options.end,
        options.looped,
    );
    use_effect_with((), move |_| {
        let interval = end.map(|end| {
            Interval::new(END_CHECK_MS, move || {
                let mut e = engines.borrow_mut();
                if e.main().sim().now() < end {
                    return;
                }
                if looped {
                    e.seek_within(start, SEEK_NOW_MS, &performance_now);
                } else {
                    e.seek_within(end, SEEK_NOW_MS, &performance_now);
                    d.dispatch(Action::Pause);
                }
            })
        });
        move || drop(interval)
    });
}
