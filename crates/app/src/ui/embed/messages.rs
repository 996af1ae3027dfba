//! The player's postMessage API. From the parent: `{type: "play"}`, `"pause"`,
//! `{type: "seek", t}`, `{type: "speed", x}`, `{type: "run", session, sql}`, obeyed
//! only from the player's own origin or one in the fragment's `origins=`; a foreign
//! or malformed message is ignored with one console warning. To the parent (those
//! origins only): `ddlscope:ready`, `ddlscope:state {t, paused}` when either changes,
//! and `ddlscope:statement {session, sql, outcome, error_code}` as statements finish.
//! (`ddlscope:resize {height}` is posted by embed.html itself, to any parent.)

use crate::model::embed::{
    error_code, foreign, ignored, parse_command, run_refused, Command, EmbedOptions,
};
use crate::model::snapshot::LogEntry;
use crate::model::state::{Action, AppState};
use crate::ui::hooks::EnginesProxy;
use ddlscope_engine::Tick;
use gloo::events::EventListener;
use gloo::timers::callback::Interval;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::MessageEvent;
use yew::prelude::*;

/// How often the player tells its parent where it is, wall ms.
const STATE_EVERY_MS: u32 = 250;

/// The origin of this page.
fn own_origin() -> String {
    gloo::utils::window()
        .location()
        .origin()
        .unwrap_or_default()
}

/// Posts `message` to the parent page, if there is one, at each allowed origin (the
/// browser delivers it only where the parent's origin matches).
fn post(options: &EmbedOptions, message: &serde_json::Value) {
    let window = gloo::utils::window();
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if parent == window {
        return;
    }
    let Ok(value) = js_sys::JSON::parse(&message.to_string()) else {
        return;
    };
    let own = own_origin();
    for origin in std::iter::once(&own).chain(options.origins.iter()) {
        let _ = parent.post_message(&value, origin);
    }
}

/// Listens to the parent and reports to it.
#[hook]
pub fn use_messages(
    engines: &EnginesProxy,
    state: &UseReducerHandle<AppState>,
    options: Rc<EmbedOptions>,
) {
    // What the listener and the reporter read: the page's state as its last render
    // had it.
    let seen = use_mut_ref(Seen::default);
    seen.borrow_mut().update(state);
    let (engines, d) = (engines.clone(), state.dispatcher());
    use_effect_with((), move |_| {
        post(&options, &serde_json::json!({"type": "ddlscope:ready"}));
        let warned = Rc::new(Cell::new(false));
        let listener = {
            let (engines, d, options, seen) =
                (engines.clone(), d.clone(), options.clone(), seen.clone());
            EventListener::new(&gloo::utils::window(), "message", move |e| {
                let Some(e) = e.dyn_ref::<MessageEvent>() else {
                    return;
                };
                let warn = |why: String| {
                    if !warned.replace(true) {
                        gloo::console::warn!(ignored(&why));
                    }
                };
                if let Some(why) = foreign(&options, &e.origin(), &own_origin()) {
                    return warn(why);
                }
                let data = e.data();
                // Our own outgoing messages and other tools' are not commands.
                if is_ours_outgoing(&data) {
                    return;
                }
                let text = js_sys::JSON::stringify(&data)
                    .ok()
                    .and_then(|s| s.as_string())
                    .unwrap_or_default();
                match parse_command(&text) {
                    Ok(c) => obey(c, &engines, &d, !seen.borrow().paused),
                    Err(why) => warn(why),
                }
            })
        };
        let reporter = reporter(seen, options);
        move || {
            drop(listener);
            drop(reporter);
        }
    });
}

/// Whether `data` is a `ddlscope:` message (the player's own kind, going out).
fn is_ours_outgoing(data: &JsValue) -> bool {
    js_sys::Reflect::get(data, &"type".into())
        .ok()
        .and_then(|t| t.as_string())
        .is_some_and(|t| t.starts_with("ddlscope:"))
}

fn obey(c: Command, engines: &EnginesProxy, d: &UseReducerDispatcher<AppState>, playing: bool) {
    match c {
        Command::Play if !playing => d.dispatch(Action::TogglePlay),
        Command::Pause => d.dispatch(Action::Pause),
        Command::Play => {}
        Command::Seek(t) => engines.go_to(t),
        Command::Speed(x) => d.dispatch(Action::SetSpeed(x)),
        Command::Run { session, sql } => {
            // Session 0: the console's own.
            if let Err(err) = engines.submit(session.unwrap_or(0), &sql) {
                gloo::console::warn!(run_refused(&err));
            }
        }
    }
}

/// The page's state as the reporter reads it: the clock, and the console's log with
/// how often it was rebuilt (a seek back replays it).
#[derive(Debug, Default)]
struct Seen {
    now: Tick,
    paused: bool,
    log: Vec<LogEntry>,
    /// The page's log length the statements were taken from (notes included).
    seen_len: usize,
    rebuilt: u64,
}

impl Seen {
    fn update(&mut self, state: &AppState) {
        let now = state.snapshots[0].now;
        let back = now < self.now;
        self.rebuilt += u64::from(back);
        self.now = now;
        self.paused = !state.playing;
        if back || state.log.len() != self.seen_len {
            self.seen_len = state.log.len();
            self.log = state.log.iter().filter(|l| !l.note).cloned().collect();
        }
    }
}

/// Every [`STATE_EVERY_MS`]: the state if it changed, and the statements finished
/// since the last report.
fn reporter(seen: Rc<RefCell<Seen>>, options: Rc<EmbedOptions>) -> Interval {
    let last = RefCell::new((None::<(u64, bool)>, 0usize, 0u64));
    Interval::new(STATE_EVERY_MS, move || {
        let seen = seen.borrow();
        let now = (seen.now.as_ns(), seen.paused);
        let mut last = last.borrow_mut();
        if last.0 != Some(now) {
            let t = now.0 as f64 / 1e9;
            post(
                &options,
                &serde_json::json!({"type": "ddlscope:state", "t": t, "paused": now.1}),
            );
            last.0 = Some(now);
        }
        let log = &seen.log;
        if last.2 == seen.rebuilt && log.len() <= last.1 {
            return;
        }
        // After a seek back the log is rebuilt: report only what is new past it.
        let from = if last.2 == seen.rebuilt {
            last.1.min(log.len())
        } else {
            log.len()
        };
        for entry in &log[from..] {
            post(
                &options,
                &serde_json::json!({
                    "type": "ddlscope:statement",
                    "session": entry.session,
                    "sql": entry.sql,
                    "outcome": if entry.error { "error" } else { "ok" },
                    "error_code": error_code(&entry.result),
                }),
            );
        }
        *last = (last.0, log.len(), seen.rebuilt);
    })
}
