//! The keyboard help: a dialog listing the shortcuts, opened with `?` or the toolbar's
//! `?` button.

use yew::prelude::*;

/// Props of [`Help`].
#[derive(Properties, PartialEq, Debug)]
pub struct HelpProps {
    /// Closes the dialog.
    pub on_close: Callback<MouseEvent>,
}

/// The dialog.
#[function_component(Help)]
pub fn help(props: &HelpProps) -> Html {
    // The focus moves into the dialog (Esc gives it back to the ? button).
    use_effect_with((), |_| {
        crate::ui::hooks::focus_soon("[data-testid=help] button")
    });
    html! {
        <div class="help" role="dialog" aria-label="Keyboard shortcuts" data-testid="help">
            <h2 class="panel-title">{ "Keyboard" }</h2>
            <dl>
                <dt><kbd>{ "Space" }</kbd></dt><dd>{ "play or pause virtual time" }</dd>
                <dt><kbd>{ "→" }</kbd></dt><dd>{ "step to the engine's next event (pauses)" }</dd>
                <dt><kbd>{ "←" }</kbd></dt><dd>{ "step back to the previous event (deterministic replay)" }</dd>
                <dt><kbd>{ "?" }</kbd></dt><dd>{ "show or hide this help" }</dd>
                <dt><kbd>{ "Esc" }</kbd></dt><dd>{ "close this help and every menu (the focus goes back to its button); leave the SQL box (then Space and the arrows are shortcuts again)" }</dd>
                <dt><kbd>{ "↑" }</kbd>{ " " }<kbd>{ "↓" }</kbd></dt><dd>{ "in the console: the session's earlier statements" }</dd>
                <dt><kbd>{ "Enter" }</kbd></dt><dd>{ "in the console: run (Shift+Enter for a new line)" }</dd>
            </dl>
            <h3 class="panel-title">{ "In a lesson (the keys a presentation remote sends)" }</h3>
            <dl data-testid="help-lesson">
                <dt><kbd>{ "→" }</kbd>{ " " }<kbd>{ "PageDown" }</kbd>{ " " }<kbd>{ "Space" }</kbd></dt><dd>{ "next step" }</dd>
                <dt><kbd>{ "←" }</kbd>{ " " }<kbd>{ "PageUp" }</kbd></dt><dd>{ "previous step" }</dd>
                <dt><kbd>{ "P" }</kbd></dt><dd>{ "presenter mode: large type, only the step's panels" }</dd>
                <dt><kbd>{ "B" }</kbd></dt><dd>{ "blank the screen (again, or →, to bring it back)" }</dd>
                <dt><kbd>{ "L" }</kbd></dt><dd>{ "open or close the lessons" }</dd>
                <dt><kbd>{ "1" }</kbd>{ "–" }<kbd>{ "9" }</kbd></dt><dd>{ "pick that answer" }</dd>
                <dt><kbd>{ "Enter" }</kbd></dt><dd>{ "in the number field: check it" }</dd>
                <dt><kbd>{ "R" }</kbd></dt><dd>{ "run on and reveal the answer" }</dd>
            </dl>
            <button type="button" onclick={props.on_close.clone()}>{ "Close" }</button>
        </div>
    }
}
