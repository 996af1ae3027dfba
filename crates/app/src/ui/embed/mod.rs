//! The embed player (`embed.html`): a compact page for documentation and slides, made
//! for about 800×450 and usable from 320 to 1280 px wide. It shows the panels the
//! fragment names, a caption line, play/pause, the scrubber and the clock (`controls=
//! full` adds step, back and speed), and an **Open in full** link carrying the same
//! state. `start=`, `end=`, `loop=` and `autoplay=` set its clock; `theme=` its
//! colours; `origins=` who may drive it over postMessage (`messages.rs`).
//!
//! It shares the main page's model (AppState, the reducer, the engines) and hooks,
//! and starts its engines as the main page does (`ui::start`): in a Web Worker, or
//! says why it cannot. Only the
//! layout is its own: `panels.rs` the chosen panels, `bar.rs` the controls.

mod bar;
mod messages;
mod panels;

use crate::canvas::pane_canvases::Canvases;
use crate::model::embed::{EmbedOptions, Theme};
use crate::model::state::{Action, AppState};
use crate::ui::hooks::{
    seeker, stepper, use_clock, use_compare, use_frame_loop, use_restart, EnginesProxy,
};
use crate::ui::share::{self, Opening};
use crate::ui::start::{first_engines, CannotStart};
use ddlscope_engine::Tick;
use gloo::timers::callback::Interval;
use std::cell::Cell;
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
    let first = use_memo((), |_| {
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
        first_engines(&o, !options.autoplay)
    });
    match &*first {
        Ok((state, engines)) => html! {
            <Player first={state.clone()} engines={engines.clone()} {options} {option_error} />
        },
        Err(why) => html! { <CannotStart why={AttrValue::from(why.clone())} /> },
    }
}

/// The properties of [`Player`].
#[derive(Properties, PartialEq, Debug)]
struct PlayerProps {
    /// The player's first state.
    first: AppState,
    /// The engines, in their worker.
    engines: EnginesProxy,
    /// The player's options.
    options: Rc<EmbedOptions>,
    /// Why the options could not be read, if they could not.
    option_error: Option<String>,
}

/// The player with its engines running.
#[function_component(Player)]
fn player(props: &PlayerProps) -> Html {
    let state = use_reducer(|| props.first.clone());
    let proxy = props.engines.clone();
    let options = props.options.clone();
    let option_error = props.option_error.clone();
    let canvases = use_memo((), |_| vec![Canvases::default(), Canvases::default()]);

    use_frame_loop(&proxy, &state, (*canvases).clone(), None);
    use_clock(&proxy, &state);
    use_restart(&proxy, &state, false);
    use_compare(&proxy, &state);
    use_theme(options.theme);
    use_end(&proxy, &state, &options);
    messages::use_messages(&proxy, &state, options.clone());
    let full_url = use_full_url(&proxy, &state);

    let comparing = state.compare.is_some() && state.snapshots.len() > 1;
    let error = option_error.or_else(|| state.error.clone());
    html! {
        <main class={classes!("embed-player", comparing.then_some("comparing"))} data-testid="embed-player" aria-labelledby="embed-caption">
            <h1 class="embed-caption" id="embed-caption" data-testid="embed-caption">{ caption(&state) }</h1>
            if let Some(e) = error {
                <p class="error-banner" role="alert" data-testid="embed-error">{ e }</p>
            }
            { panels::panes(&state, &proxy, &canvases, &options, comparing) }
            <bar::Bar
                playing={state.playing}
                speed={state.speed}
                now={state.snapshots[0].now}
                horizon={state.snapshots[0].horizon}
                full={options.controls == crate::model::embed::ControlSet::Full}
                full_url={(*full_url).clone()}
                on_toggle={crate::ui::hooks::dispatch(&state, |()| Action::TogglePlay)}
                on_speed={crate::ui::hooks::dispatch(&state, Action::SetSpeed)}
                on_seek={seeker(&proxy)}
                on_step={stepper(&proxy, &state)}
            />
        </main>
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
/// Once per arrival at the end: the engines' answer to the seek (in a worker, a frame
/// later) is waited for before looking again.
#[hook]
fn use_end(engines: &EnginesProxy, state: &UseReducerHandle<AppState>, options: &EmbedOptions) {
    let now = use_mut_ref(|| Tick::ZERO);
    *now.borrow_mut() = state.snapshots[0].now;
    let (engines, d) = (engines.clone(), state.dispatcher());
    let (start, end, looped) = (
        options.start.unwrap_or_default(),
        options.end,
        options.looped,
    );
    use_effect_with((), move |_| {
        let sought = Cell::new(false);
        let interval = end.map(|end| {
            Interval::new(END_CHECK_MS, move || {
                if *now.borrow() < end {
                    sought.set(false);
                    return;
                }
                if sought.replace(true) {
                    return;
                }
                if looped {
                    engines.seek(start);
                } else {
                    engines.seek(end);
                    d.dispatch(Action::Pause);
                }
            })
        });
        move || drop(interval)
    });
}

/// **Open in full**'s address: the main page at this moment. Asked of the engines
/// (in a worker, answered a frame later) when the moment changes: at each change
/// while paused, at most once a second while playing.
#[hook]
fn use_full_url(
    engines: &EnginesProxy,
    state: &UseReducerHandle<AppState>,
) -> UseStateHandle<String> {
    let url = use_state(|| share::page_url("index.html", &location_fragment()));
    let now = state.snapshots[0].now;
    let moment = if state.playing {
        now.as_ns() / 1_000_000_000
    } else {
        now.as_ns()
    };
    let key = (moment, state.playing, state.log.len(), state.generation);
    let (engines, layout, setter) = (engines.clone(), state.layout.clone(), url.setter());
    use_effect_with(key, move |_| {
        share::fragment_now(&engines, &layout, Vec::new(), move |address| {
            setter.set(share::page_url("index.html", &address.fragment));
        });
    });
    url
}

/// The page's own fragment, `#` included (what Open in full carries before the
/// engines have answered).
fn location_fragment() -> String {
    gloo::utils::window().location().hash().unwrap_or_default()
}
