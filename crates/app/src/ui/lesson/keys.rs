//! The player's keys, before the page's own shortcuts: the ones a presentation
//! remote sends (→ PageDown Space, ← PageUp, B to blank; P for presenter mode) and
//! the learner's (L the lessons, 1–9 an answer, R the reveal). A key that belongs to
//! the focused widget (Space on a button, an arrow in the session tabs or a box that
//! scrolls, typing) is left to it.

use super::View;
use crate::ui::hooks::{focus_soon, widget_key};
use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// Clicks the `n`th (from 0) element `selector` finds, if it is there and enabled.
fn click(selector: &str, n: usize) -> bool {
    let found = gloo::utils::document()
        .query_selector_all(selector)
        .ok()
        .and_then(|l| l.item(u32::try_from(n).ok()?))
        .and_then(|el| el.dyn_into::<HtmlElement>().ok())
        .filter(|el| !el.has_attribute("disabled"));
    found.map(|el| el.click()).is_some()
}

/// What key `key` does to the player showing `view`: `None` when the key is not the
/// player's, else the view it leaves, if it changes it. A step key changes no view
/// here: `step_by` opens the step (and sets the view itself), which a view set after
/// it from the one before would undo.
fn act(key: &str, view: &View, step_by: &Callback<i32>) -> Option<Option<View>> {
    let mut next = view.clone();
    // A blanked screen: the keys that would move on only bring it back.
    if view.blank {
        if matches!(key, "ArrowRight" | "PageDown" | " " | "b" | "B" | "Escape") {
            next.blank = false;
            return Some(Some(next));
        }
        return None;
    }
    match key {
        "l" | "L" => {
            next.list = !view.list;
            if next.list {
                focus_soon("[data-testid=lessons] button");
            }
        }
        _ if view.place.is_none() => return None,
        "ArrowRight" | "PageDown" | " " => {
            step_by.emit(1);
            return Some(None);
        }
        "ArrowLeft" | "PageUp" => {
            step_by.emit(-1);
            return Some(None);
        }
        "p" | "P" => next.presenter = !view.presenter,
        "b" | "B" => next.blank = true,
        "r" | "R" if click("[data-testid=lesson-reveal]", 0) => return Some(None),
        d if d.len() == 1 && ('1'..='9').contains(&d.chars().next()?) => {
            let n = d.parse::<usize>().ok()? - 1;
            return click("[data-testid=lesson-choice]", n).then_some(None);
        }
        _ => return None,
    }
    Some(Some(next))
}

/// Listens for the player's keys while the page shows the player (the view as it is
/// now: the listener is made again when it changes).
#[hook]
pub fn use_lesson_keys(view: &UseStateHandle<View>, step_by: &Callback<i32>) {
    let (view, step_by) = (view.clone(), step_by.clone());
    use_effect_with((*view).clone(), move |_| {
        let options = EventListenerOptions {
            phase: EventListenerPhase::Capture,
            passive: false,
        };
        let listener =
            EventListener::new_with_options(&gloo::utils::window(), "keydown", options, move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                if widget_key(e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                if let Some(next) = act(&e.key(), &view, &step_by) {
                    e.prevent_default();
                    e.stop_immediate_propagation();
                    if let Some(next) = next.filter(|n| n != &*view) {
                        view.set(next);
                    }
                }
            });
        move || drop(listener)
    });
}
