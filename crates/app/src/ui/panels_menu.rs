//! The toolbar's "Panels" menu: show or hide each panel of the pane and move it up
//! or down (past the end of the first column it goes to the top of the second; see
//! `model::layout`). The choices are the page's state, so they can travel in a URL.

use crate::model::panel_layout::{PanelId, PanelLayout};
use yew::prelude::*;

/// Properties of [`PanelsMenu`].
#[derive(Properties, PartialEq, Debug)]
pub struct PanelsMenuProps {
    /// The layout now.
    pub layout: PanelLayout,
    /// Show or hide a panel.
    pub on_toggle: Callback<PanelId>,
    /// Move a panel up (`true`) or down.
    pub on_move: Callback<(PanelId, bool)>,
}

/// The menu.
#[function_component(PanelsMenu)]
pub fn panels_menu(props: &PanelsMenuProps) -> Html {
    let l = &props.layout;
    let n = l.order.len();
    html! {
        <details class="group menu" data-testid="panels-menu">
            <summary title="Show, hide and reorder the panels">{ "Panels ▾" }</summary>
            <div class="menu-body panels-grid">
                { for l.order.iter().enumerate().map(|(i, &id)| {
                    let toggle = props.on_toggle.reform(move |_: Event| id);
                    let up = props.on_move.reform(move |_: MouseEvent| (id, true));
                    let down = props.on_move.reform(move |_: MouseEvent| (id, false));
                    let column = if i < l.split { "left" } else { "right" };
                    let first_of_second = i == l.split && i > 0;
                    html! {
                        <div class={classes!("panels-row", first_of_second.then_some("divider"))} data-panel={id.name()}>
                            <label class="check">
                                <input type="checkbox" checked={l.shown(id)} onchange={toggle} data-testid={format!("panel-show-{}", id.name())} />
                                { id.title() }
                            </label>
                            <span class="panels-col">{ column }</span>
                            <button type="button" aria-label={format!("Move {} up", id.title())} title="Move up" disabled={i == 0 && l.split > 0} onclick={up}>{ "↑" }</button>
                            <button type="button" aria-label={format!("Move {} down", id.title())} title="Move down" disabled={i + 1 == n && l.split < n} onclick={down}>{ "↓" }</button>
                        </div>
                    }
                }) }
            </div>
        </details>
    }
}
