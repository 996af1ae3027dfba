//! The hooks that keep the engines in step with the page's state: the frame loop, the
//! clock, the keyboard shortcuts, restarts and compare mode. Each is one effect of the
//! root component, in the order it declares them (Yew runs effects in that order).

use crate::canvas::frame_loop::{FrameLoop, FrameOutputs};
use crate::canvas::pane_canvases::Canvases;
use crate::model::snapshot::StampedNews;
use crate::model::state::{Action, AppState};
pub use crate::worker::proxy::EnginesProxy;
use ddlscope_engine::Tick;
use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

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

/// Whether a key press belongs to the focused widget rather than to a shortcut:
/// typing in a field; Space or Enter on a button or link; the arrows, Home, End and
/// the page keys in a tablist, a canvas with a keyboard cursor (`data-cursor`: the map,
/// the charts, focused from the keyboard) or a box that scrolls (the processlist, the console's log), which they
/// move or scroll.
pub fn widget_key(e: &KeyboardEvent) -> bool {
    if typing(e) {
        return true;
    }
    let Some(el) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    match e.key().as_str() {
        " " | "Enter" => {
            matches!(el.tag_name().as_str(), "BUTTON" | "A" | "SUMMARY")
                || el.get_attribute("role").is_some_and(|r| r == "tab")
        }
        "ArrowRight" | "ArrowLeft" | "ArrowUp" | "ArrowDown" | "Home" | "End" | "PageUp"
        | "PageDown" => {
            let in_tabs = el.closest("[role=tablist]").ok().flatten().is_some();
            let cursor =
                el.has_attribute("data-cursor") && crate::canvas::pool_map::keyboard_focused(&el);
            in_tabs || cursor || scrolls(&el, "overflow-x") || scrolls(&el, "overflow-y")
        }
        _ => false,
    }
}

/// Whether `el` is a box that scrolls along `axis` (`overflow-x` or `overflow-y`):
/// its style lets it scroll and its content runs past it. A heading whose text only
/// overflows its line box (the step's title, focused when a step opens) is none.
fn scrolls(el: &web_sys::Element, axis: &str) -> bool {
    let overflows = if axis == "overflow-x" {
        el.scroll_width() > el.client_width() + 1
    } else {
        el.scroll_height() > el.client_height() + 1
    };
    overflows
        && gloo::utils::window()
            .get_computed_style(el)
            .ok()
            .flatten()
            .and_then(|s| s.get_property_value(axis).ok())
            .is_some_and(|v| v == "auto" || v == "scroll")
}

/// Closes every open menu and pop-up (a `details` menu, a button marked
/// `data-popup` whose pop-up is open) and gives the focus back to its button.
pub fn close_popups() {
    let document = gloo::utils::document();
    let mut back: Option<web_sys::HtmlElement> = None;
    if let Ok(open) = document.query_selector_all("details[open]") {
        for i in 0..open.length() {
            let Some(d) = open
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            else {
                continue;
            };
            let _ = d.remove_attribute("open");
            back = d
                .query_selector("summary")
                .ok()
                .flatten()
                .and_then(|s| s.dyn_into().ok())
                .or(back);
        }
    }
    if let Ok(open) = document.query_selector_all("button[data-popup][aria-expanded=true]") {
        for i in 0..open.length() {
            if let Some(b) = open
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
            {
                b.click();
                back = Some(b);
            }
        }
    }
    if let Some(b) = back {
        let _ = b.focus();
    }
}

/// Moves the focus to the first element `selector` finds, once the page has drawn
/// what just opened.
pub fn focus_soon(selector: impl Into<String>) {
    let selector = selector.into();
    gloo::timers::callback::Timeout::new(0, move || {
        let el = gloo::utils::document()
            .query_selector(&selector)
            .ok()
            .flatten()
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(el) = el {
            let _ = el.focus();
        }
    })
    .forget();
}

/// The animation loop, drawing the worker's frames: built once, stopped when the
/// page goes away.
#[hook]
pub fn use_frame_loop(
    engines: &EnginesProxy,
    state: &UseReducerHandle<AppState>,
    canvases: Vec<Canvases>,
    debug: Option<NodeRef>,
) {
    let engines = engines.clone();
    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let d = dispatcher.clone();
        let out = FrameOutputs {
            on_news: Callback::from(move |n: StampedNews| {
                d.dispatch(Action::Frame {
                    generation: n.generation,
                    news: n.news,
                });
            }),
            on_action: Callback::from(move |a: Action| dispatcher.dispatch(a)),
        };
        let frame_loop = FrameLoop::start(engines.remote().clone(), canvases, debug, out);
        move || drop(frame_loop)
    });
}

/// The clock follows the state.
#[hook]
pub fn use_clock(engines: &EnginesProxy, state: &UseReducerHandle<AppState>) {
    let engines = engines.clone();
    use_effect_with((state.playing, state.speed), move |(playing, speed)| {
        engines.set_clock(*playing, *speed);
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
pub fn use_shortcuts(engines: &EnginesProxy, state: &UseReducerHandle<AppState>) {
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
                close_popups();
                d.dispatch(Action::Escape);
                return;
            }
            if widget_key(e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            match e.key().as_str() {
                " " => {
                    e.prevent_default();
                    d.dispatch(Action::TogglePlay);
                }
                "ArrowRight" | "ArrowLeft" => {
                    e.prevent_default();
                    d.dispatch(Action::Pause);
                    engines.step(e.key() == "ArrowRight");
                }
                "?" => d.dispatch(Action::ToggleHelp),
                _ => {}
            }
        });
        move || drop(listener)
    });
}

/// A new scenario, profile or setting restarts the simulation in the worker. The
/// new server's pool warms a slice a frame there (the page shows it fill, see
/// `Runner::work`); a heavy scenario's restart waits two animation frames, so the
/// browser paints the "building…" state first. Typed statements are carried over to
/// the new engine (`model::restart`); a setting the engine refuses leaves the
/// running simulation as it was, and a frame says why.
#[hook]
pub fn use_restart(engines: &EnginesProxy, state: &UseReducerHandle<AppState>, heavy: bool) {
    let engines = engines.clone();
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
            let restart = move || engines.restart(&scenario, &profile, &knobs, generation);
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

/// Compare mode follows the state.
#[hook]
pub fn use_compare(engines: &EnginesProxy, state: &UseReducerHandle<AppState>) {
    let engines = engines.clone();
    use_effect_with(state.compare.clone(), move |compare| {
        engines.compare(compare.as_deref());
    });
}

/// A callback that seeks every engine.
pub fn seeker(engines: &EnginesProxy) -> Callback<Tick> {
    let engines = engines.clone();
    Callback::from(move |t: Tick| engines.seek(t))
}

/// A callback that pauses and steps every engine to its next event (`true`) or back.
pub fn stepper(engines: &EnginesProxy, state: &UseReducerHandle<AppState>) -> Callback<bool> {
    let (engines, d) = (engines.clone(), state.dispatcher());
    Callback::from(move |forward: bool| {
        d.dispatch(Action::Pause);
        engines.step(forward);
    })
}
