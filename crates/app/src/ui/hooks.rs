//! The hooks that keep the engines in step with the page's state: the frame loop, the
//! clock, the keyboard shortcuts, restarts and compare mode. Each is one effect of the
//! root component, in the order it declares them (Yew runs effects in that order).

use crate::canvas::frame::{performance_now, Canvases, FrameLoop};
use crate::model::knobs::Knobs;
use crate::model::replay::carry_over;
use crate::model::runner::{Engines, Runner};
use crate::model::snapshot::News;
use crate::model::state::{Action, AppState};
use ddlscope_engine::Tick;
use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Wall time a seek or a step back may take at once: the rest of a long replay (a
/// 128 GB pool has no checkpoints to start from) goes on a slice a frame, the page
/// showing how far it has got.
pub const SEEK_NOW_MS: f64 = 25.0;

/// The engines, shared between Yew's callbacks and the frame loop.
pub type SharedEngines = Rc<RefCell<Engines>>;

/// A callback that dispatches the action `f` makes of its argument: the one helper
/// for the many callbacks that only tell the reducer something.
pub fn dispatch<T: 'static>(
    state: &UseReducerHandle<AppState>,
    f: impl Fn(T) -> Action + 'static,
) -> Callback<T> {
    let d = state.dispatcher();
    Callback::from(move |x| d.dispatch(f(x)))
}

/// Whether a key press belongs to a text field (typing, not a shortcut).
fn typing(e: &KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// The animation loop: built once, stopped when the page goes away.
#[hook]
pub fn use_frame_loop(
    engines: &SharedEngines,
    state: &UseReducerHandle<AppState>,
    canvases: Vec<Canvases>,
    debug: Option<NodeRef>,
) {
    let engines = engines.clone();
    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let on_news = Callback::from(move |(generation, news): (u32, News)| {
            dispatcher.dispatch(Action::Frame { generation, news });
        });
        let frame_loop = FrameLoop::start(engines, canvases, debug, on_news);
        move || drop(frame_loop)
    });
}

/// The clock follows the state.
#[hook]
pub fn use_clock(engines: &SharedEngines, state: &UseReducerHandle<AppState>) {
    let engines = engines.clone();
    use_effect_with((state.playing, state.speed), move |(playing, speed)| {
        engines.borrow_mut().set_clock(*playing, *speed);
    });
}

/// Takes the focus off the element that has it (a text field, after Esc).
fn blur_focused() {
    if let Some(el) = gloo::utils::document()
        .active_element()
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.blur();
    }
}

/// Keyboard shortcuts: space plays or pauses, → steps, ← steps back, ? shows help,
/// Esc closes the help (and the error banner) and leaves the SQL box.
#[hook]
pub fn use_shortcuts(engines: &SharedEngines, state: &UseReducerHandle<AppState>) {
    let engines = engines.clone();
    let d = state.dispatcher();
    use_effect_with((), move |_| {
        let options = EventListenerOptions::enable_prevent_default();
        let document = gloo::utils::document();
        let listener = EventListener::new_with_options(&document, "keydown", options, move |e| {
            let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                return;
            };
            // Esc closes the help and leaves a text field, so that Space and the
            // arrows are shortcuts again.
            if e.key() == "Escape" {
                if typing(e) {
                    blur_focused();
                }
                d.dispatch(Action::Escape);
                return;
            }
            if typing(e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            match e.key().as_str() {
                " " => {
                    e.prevent_default();
                    d.dispatch(Action::TogglePlay);
                }
                "ArrowRight" => {
                    e.prevent_default();
                    d.dispatch(Action::Pause);
                    engines.borrow_mut().step_event();
                }
                "ArrowLeft" => {
                    e.prevent_default();
                    d.dispatch(Action::Pause);
                    engines
                        .borrow_mut()
                        .step_back_within(SEEK_NOW_MS, &performance_now);
                }
                "?" => d.dispatch(Action::ToggleHelp),
                _ => {}
            }
        });
        move || drop(listener)
    });
}

/// A new scenario, profile or setting restarts the simulation. The new server's
/// pool warms a slice a frame (the page shows it fill, see [`Runner::work`]);
/// allocating a heavy scenario's pool still takes a moment, so that waits two
/// animation frames: the browser paints the "building…" state in between. Typed
/// statements carried over to the new engine need it warm at once (see
/// [`carry_typed`]). A setting the engine refuses leaves the running simulation as
/// it was, and says why.
#[hook]
pub fn use_restart(engines: &SharedEngines, state: &UseReducerHandle<AppState>, heavy: bool) {
    let engines = engines.clone();
    let d = state.dispatcher();
    use_effect_with(
        (
            state.scenario.clone(),
            state.profile.clone(),
            state.knobs.clone(),
            state.generation,
            heavy,
        ),
        move |(scenario, profile, knobs, generation, heavy)| {
            let (scenario, profile, knobs, generation) = (
                scenario.clone(),
                profile.clone(),
                knobs.clone(),
                *generation,
            );
            let restart = move || {
                let mut e = engines.borrow_mut();
                let current = e.main();
                if current.generation() == generation
                    && current.scenario() == scenario
                    && current.profile() == profile
                    && *current.knobs() == knobs
                {
                    return;
                }
                let compared = e.panes.get(1).map(|r| r.profile().to_string());
                match Runner::starting(&scenario, &profile, &knobs, generation) {
                    Ok(mut runner) => {
                        let (playing, speed) = e.main().clock();
                        runner.set_clock(playing, speed);
                        if let Some(said) = carry_typed(e.main(), &mut runner) {
                            d.dispatch(Action::Notice(said));
                        }
                        e.panes = vec![runner];
                        if let Err(err) = e.compare(compared.as_deref(), &knobs) {
                            d.dispatch(Action::CompareFailed(err));
                        }
                    }
                    Err(error) => {
                        let main = e.main_mut();
                        main.adopt_generation(generation);
                        if let Some(other) = e.panes.get_mut(1) {
                            other.adopt_generation(generation);
                        }
                        let main = e.main();
                        d.dispatch(Action::RestartFailed {
                            error: Knobs::refused(&error),
                            scenario: main.scenario().to_string(),
                            profile: main.profile().to_string(),
                            knobs: main.knobs().clone(),
                        });
                    }
                }
            };
            // Dropping an AnimationFrame cancels it: a newer choice supersedes.
            let pending: Rc<RefCell<Option<AnimationFrame>>> = Rc::default();
            if *heavy {
                let inner = pending.clone();
                *pending.borrow_mut() = Some(request_animation_frame(move |_| {
                    *inner.borrow_mut() = Some(request_animation_frame(move |_| restart()));
                }));
            } else {
                restart();
            }
            move || drop(pending.borrow_mut().take())
        },
    );
}

/// Carries what the user typed on `old` over to `new` (the same scenario on another
/// engine or other settings: replayed to the same time), or says it could not (another
/// scenario has other tables). `None` when there was nothing typed.
fn carry_typed(old: &Runner, new: &mut Runner) -> Option<String> {
    if old.inputs().is_empty() {
        return None;
    }
    if old.scenario() != new.scenario() {
        let n = old.inputs().len();
        return Some(format!(
            "{n} typed input{} of {} not carried over to {}: another scenario has other tables (your statements are still in the console's history, ↑).",
            if n == 1 { " was" } else { "s were" },
            old.scenario(),
            new.scenario()
        ));
    }
    let report = carry_over(old, new);
    (!report.is_empty()).then(|| report.to_string())
}

/// Compare mode follows the state.
#[hook]
pub fn use_compare(engines: &SharedEngines, state: &UseReducerHandle<AppState>) {
    let engines = engines.clone();
    let d = state.dispatcher();
    use_effect_with(state.compare.clone(), move |compare| {
        let mut e = engines.borrow_mut();
        if e.panes.get(1).map(|r| r.profile()) != compare.as_deref() {
            let knobs = e.main().knobs().clone();
            if let Err(err) = e.compare(compare.as_deref(), &knobs) {
                d.dispatch(Action::CompareFailed(err));
            }
        }
    });
}

/// A callback that seeks every engine.
pub fn seeker(engines: &SharedEngines) -> Callback<Tick> {
    let engines = engines.clone();
    Callback::from(move |t: Tick| {
        engines
            .borrow_mut()
            .seek_within(t, SEEK_NOW_MS, &performance_now)
    })
}

/// A callback that pauses and steps every engine to its next event (`true`) or back.
pub fn stepper(engines: &SharedEngines, state: &UseReducerHandle<AppState>) -> Callback<bool> {
    let (engines, d) = (engines.clone(), state.dispatcher());
    Callback::from(move |forward: bool| {
        d.dispatch(Action::Pause);
        let mut e = engines.borrow_mut();
        if forward {
            e.step_event();
        } else {
            e.step_back_within(SEEK_NOW_MS, &performance_now);
        }
    })
}
