//! The page's root component: a few nodes in the module's first task, the app in the
//! next (see `ui::mount` for the stages after).

use crate::ui::app::App;
use crate::ui::brand::brand;
use crate::ui::mount::Waiter;
use yew::prelude::*;

/// The page's root: the toolbar's title alone in the module's first task (Yew's own
/// code compiled and run for the first time), [`App`] in the next.
#[function_component(Boot)]
pub fn boot() -> Html {
    let ready = use_state_eq(|| false);
    {
        let ready = ready.setter();
        use_effect_with((), move |_| {
            let waiter = Waiter::soon(move || ready.set(true));
            move || drop(waiter)
        });
    }
    if *ready {
        return html! { <App /> };
    }
    html! {
        <div class="app">
            <header class="toolbar">
                { brand() }
            </header>
        </div>
    }
}
