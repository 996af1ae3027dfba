//! The notice line: what the page did on the user's behalf (statements carried over
//! to a new engine, a recorded future dropped by typing in the past), shown until
//! dismissed, and read out by screen readers.

use crate::model::format;
use crate::model::runner::Branch;
use yew::prelude::*;

/// The words for a branch of history.
pub fn branch_text(b: Branch) -> String {
    let inputs = if b.dropped == 1 { "input" } else { "inputs" };
    format!(
        "Typing at {} s dropped {} recorded {inputs} after it: history branches here (scrub forward no longer replays them).",
        format::secs(b.at),
        b.dropped
    )
}

/// Properties of [`Notice`].
#[derive(Properties, PartialEq, Debug)]
pub struct NoticeProps {
    /// The text, or nothing to show.
    pub text: Option<String>,
    /// The Dismiss button.
    pub on_dismiss: Callback<MouseEvent>,
}

/// The notice banner.
#[function_component(Notice)]
pub fn notice(props: &NoticeProps) -> Html {
    let Some(text) = props.text.clone() else {
        return html! {};
    };
    html! {
        <div class="notice-banner" role="status" data-testid="notice">
            <span>{ text }</span>
            <button type="button" onclick={props.on_dismiss.clone()}>{ "Dismiss" }</button>
        </div>
    }
}
