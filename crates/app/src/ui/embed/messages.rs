//! The player's postMessage API. From the parent: `{type: "play"}`, `"pause"`,
//! `{type: "seek", t}`, `{type: "speed", x}`, `{type: "run", session, sql}`, obeyed
//! only from the player's own origin or one in the fragment's `origins=`; a foreign
//! or malformed message is ignored with one console warning. To the parent (those
//! origins only): `ddlscope:ready`, `ddlscope:state {t, paused}` when either changes,
//! and `ddlscope:statement {session, sql, outcome, error_code}` as statements finish.
//! They go to the parent's origin only, and only when it is one of those: a message
//! posted at another origin than the parent's is an error in the console each time
//! (twice a second), so before the parent's origin is known nothing is posted.
//! (`ddlscope:resize {height}` is posted by embed.js itself, to any parent; reveal.js's
//! `slide:start`/`slide:stop` are embed-host.js's, and quietly not commands here.)
//! From the parent, whatever its origin: `{type: "ddlscope:scale", scale}`, how much
//! the host scales the player on screen (`canvas::host_scale`; ddlscope-reveal.js
//! sends it), which changes nothing but the canvases' resolution.

use crate::canvas::host_scale::set_host_scale;
use crate::model::embed::{
    error_code, foreign, ignored, parse_command, parse_host_scale, run_refused, Command,
    EmbedOptions,
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

thread_local! {
    /// The parent's origin as a message from it told (where the browser has no
    /// `location.ancestorOrigins` and the parent is on another origin).
    static LEARNED: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The parent page's origin, when known: `location.ancestorOrigins[0]` (Chromium,
/// Safari), the parent's own location (same origin), or a message's from the parent.
fn parent_origin(window: &web_sys::Window, parent: &web_sys::Window) -> Option<String> {
    let location = window.location();
    let ancestors = js_sys::Reflect::get(&location, &"ancestorOrigins".into()).ok();
    if let Some(first) = ancestors
        .filter(|a| !a.is_undefined() && !a.is_null())
        .and_then(|a| js_sys::Reflect::get(&a, &JsValue::from(0)).ok())
        .and_then(|o| o.as_string())
    {
        return Some(first);
    }
    if let Ok(origin) = parent.location().origin() {
        return Some(origin);
    }
    LEARNED.with(|l| l.borrow().clone())
}

/// Posts `message` to the parent page, if there is one, when its origin is known and
/// allowed (its own or one in `origins=`); otherwise nothing.
fn post(options: &EmbedOptions, message: &serde_json::Value) {
    let window = gloo::utils::window();
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if parent == window {
        return;
    }
    let Some(origin) = parent_origin(&window, &parent) else {
        return;
    };
    if !options.allows(&origin, &own_origin()) {
        return;
    }
    let Ok(value) = js_sys::JSON::parse(&message.to_string()) else {
        return;
    };
    let _ = parent.post_message(&value, &origin);
}

/// reveal.js's messages to the iframes of a slide (`slide:start`, `slide:stop`):
/// embed-host.js acts on them; they are not commands, nor mistakes.
fn is_slide_message(data: &JsValue) -> bool {
    data.as_string().is_some_and(|s| s.starts_with("slide:"))
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
                let window = gloo::utils::window();
                let from_parent = matches!((window.parent(), e.source()), (Ok(Some(p)), Some(s))
                    if p != window && JsValue::from(p.clone()) == JsValue::from(s.clone()));
                if from_parent && e.origin() != "null" {
                    LEARNED.with(|l| *l.borrow_mut() = Some(e.origin()));
                }
                if is_slide_message(&e.data()) {
                    return;
                }
                let warn = |why: String| {
                    if !warned.replace(true) {
                        gloo::console::warn!(ignored(&why));
                    }
                };
                let text = js_sys::JSON::stringify(&e.data())
                    .ok()
                    .and_then(|s| s.as_string())
                    .unwrap_or_default();
                // From the host, or embed-host.js passing it on once the player is up.
                let from_self = e
                    .source()
                    .is_some_and(|s| JsValue::from(s) == JsValue::from(window.clone()));
                if let Some(scale) = parse_host_scale(&text).filter(|_| from_parent || from_self) {
                    return scale.map_or_else(warn, set_host_scale);
                }
                if let Some(why) = foreign(&options, &e.origin(), &own_origin()) {
                    return warn(why);
                }
                // Our own outgoing messages and other tools' are not commands.
                if is_ours_outgoing(&e.data()) {
                    return;
                }
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
