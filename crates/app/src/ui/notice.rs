//! The notice line: what the page did on the user's behalf (statements carried over
//! to a new engine, a recorded future dropped by typing in the past), shown until
//! dismissed, and read out by screen readers.

use yew::prelude::*;

pub use crate::model::console::branch_text;

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
