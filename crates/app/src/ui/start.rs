//! Where the main page's engines start: in the worker by default, told what to open; on the page's thread with `?worker=0`
//! or when no worker can start (`worker::fallback`), with a line saying why.

use crate::model::remote::protocol::{Command, LinkJson};
use crate::model::state::AppState;
use crate::ui::hooks::EnginesProxy;
use crate::ui::share;
use crate::worker::client::Remote;
use crate::worker::fallback::{self, Start};
use std::cell::RefCell;
use std::rc::Rc;

/// The page's first state and engines. By default the engines start in a Web
/// Worker (`web/worker.js`): the link's moment, replayed to its tick there, or the
/// default scenario. With `?worker=0`, or when no worker can start
/// (`worker::fallback`), on the page's thread: the link's, replayed to its tick, or
/// the default scenario (playing unless `still`), with a line saying why.
pub fn first_engines(opening: &share::Opening, still: bool) -> (AppState, EnginesProxy) {
    let location = gloo::utils::window().location();
    let (search, protocol) = (
        location.search().unwrap_or_default(),
        location.protocol().unwrap_or_default(),
    );
    let early = crate::worker::client::has_early_worker();
    let notice = match fallback::start(&search, &protocol, early) {
        Start::Worker => match Remote::start("./worker.js") {
            Ok(remote) => return in_worker(remote, opening, still),
            Err(e) => {
                gloo::console::warn!(e.clone());
                Some(fallback::not_started(&e))
            }
        },
        Start::PageThread(notice) => notice,
    };
    crate::worker::client::end_early_worker();
    let (mut state, engines) = share::initial(opening, still);
    state.notice = state.notice.or(notice);
    (state, EnginesProxy::Local(Rc::new(RefCell::new(engines))))
}

/// The first state with the engines in `remote`, told what to open.
fn in_worker(remote: Remote, opening: &share::Opening, still: bool) -> (AppState, EnginesProxy) {
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
        profile: state.profile.clone(),
        knobs: state.knobs.clone(),
        generation: state.generation,
    });
    (state, EnginesProxy::Remote(Rc::new(remote)))
}
