//! The toolbar's title, shown from the page's first task on (`boot.rs`), over the
//! app and over the page that says the simulation cannot start.

use yew::prelude::*;

/// The toolbar's title.
pub fn brand() -> Html {
    html! {
        <h1 class="brand">{ "ddlscope" }<small>{ "why a DDL statement can freeze InnoDB" }</small></h1>
    }
}
