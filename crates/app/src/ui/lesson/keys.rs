//! The keys a presentation remote sends while a step is open, taken before the
//! page's own shortcuts.

use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// What a key asks of the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemoteKey {
    /// → , Page Down or Space: the next step.
    Next,
    /// ← or Page Up: the step before.
    Back,
    /// P: presenter mode on or off.
    Presenter,
    /// B: the screen blank or back.
    Blank,
}

impl RemoteKey {
    /// The player's key for `key` (`KeyboardEvent.key`), if it is one.
    pub fn of(key: &str) -> Option<RemoteKey> {
        match key {
            "ArrowRight" | "PageDown" | " " => Some(RemoteKey::Next),
            "ArrowLeft" | "PageUp" => Some(RemoteKey::Back),
            "p" | "P" => Some(RemoteKey::Presenter),
            "b" | "B" => Some(RemoteKey::Blank),
            _ => None,
        }
    }
}

/// While `open`, the player's keys go to `on_key` (in the capture phase, so the
/// page's shortcuts do not see them); keys typed into a field, or with Ctrl, Meta
/// or Alt, are left alone.
#[hook]
pub fn use_remote_keys(open: bool, on_key: Callback<RemoteKey>) {
    use_effect_with(open, move |open| {
        let listener = open.then(|| {
            let options = EventListenerOptions {
                phase: EventListenerPhase::Capture,
                passive: false,
            };
            EventListener::new_with_options(&gloo::utils::window(), "keydown", options, move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                let typing = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| {
                        matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                    });
                if typing || e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                if let Some(key) = RemoteKey::of(&e.key()) {
                    on_key.emit(key);
                    e.prevent_default();
                    e.stop_immediate_propagation();
                }
            })
        });
        move || drop(listener)
    });
}

#[cfg(test)]
mod tests {
    use super::RemoteKey;

    #[test]
    fn a_remotes_keys_step_present_and_blank_and_others_pass() {
        assert_eq!(RemoteKey::of("PageDown"), Some(RemoteKey::Next));
        assert_eq!(RemoteKey::of(" "), Some(RemoteKey::Next));
        assert_eq!(RemoteKey::of("PageUp"), Some(RemoteKey::Back));
        assert_eq!(RemoteKey::of("P"), Some(RemoteKey::Presenter));
        assert_eq!(RemoteKey::of("b"), Some(RemoteKey::Blank));
        assert_eq!(RemoteKey::of("?"), None);
        assert_eq!(RemoteKey::of("Enter"), None);
    }
}
