//! Where the page's engines start: in their Web Worker (`web/worker.js`, or the one
//! the page's own script started: `worker::client`), told what to open. A browser
//! that cannot start one gets [`CannotStart`]: a page that says why, never blank.

use crate::model::remote::protocol::{Command, LinkJson};
use crate::model::state::{cannot_start, AppState};
use crate::ui::brand::brand;
use crate::ui::share;
use crate::worker::client::Remote;
use crate::worker::proxy::EnginesProxy;
use yew::prelude::*;

/// The page's first state and its engines' worker, told to open the link's moment
/// (replayed to its tick there) or the default scenario (playing unless `still`);
/// or why no worker can start.
pub fn first_engines(
    opening: &share::Opening,
    still: bool,
) -> Result<(AppState, EnginesProxy), String> {
    let remote = Remote::start("./worker.js")?;
    let state = match &opening.state {
        Some(link) => {
            let state = share::state_of(link);
            remote.send(&Command::OpenLink {
                link: LinkJson(link.clone()),
                generation: state.generation,
            });
            state
        }
        None => AppState {
            playing: !still,
            error: opening.error.clone(),
            ..AppState::default()
        },
    };
    remote.send(&Command::Open {
        scenario: state.scenario.clone(),
        own: opening.state.as_ref().and_then(|l| l.own.clone()),
        profile: state.profile.clone(),
        knobs: state.knobs.clone(),
        generation: state.generation,
    });
    Ok((state, EnginesProxy::new(remote)))
}

/// The properties of [`CannotStart`].
#[derive(Properties, PartialEq, Debug)]
pub struct CannotStartProps {
    /// Why the engines' worker did not start.
    pub why: AttrValue,
}

/// The page where the engines' worker cannot start: the title, and why.
#[function_component(CannotStart)]
pub fn cannot_start_page(props: &CannotStartProps) -> Html {
    html! {
        <div class="app">
            <header class="toolbar">
                { brand() }
            </header>
            <div class="error-banner" role="alert" data-testid="cannot-start">
                <span>{ cannot_start(&props.why) }</span>
            </div>
        </div>
    }
}
