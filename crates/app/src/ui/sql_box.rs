//! The SQL console: several sessions in tabs, each with its own log printed the way
//! the `mysql` client prints it, an input that takes one statement or a pasted batch,
//! and a history per session (↑/↓).
//!
//! A statement is parsed when it is sent: a syntax error (1064) comes back at once and
//! joins the log. An accepted statement runs in virtual time in its session, after the
//! session's earlier statements: the tab shows it running (and its processlist state,
//! "Waiting for table metadata lock"), and its result (`Query OK, ... (0.43 sec)`, a
//! result table, or `ERROR 1205 ...`) joins the log when its StatementFinished event
//! arrives. Notes on what the server did meanwhile (an HA failover, the adaptive hash
//! index cleanup) are printed in every tab as `-- ...` lines.
//!
//! Each statement's line says when it was sent and when it finished
//! (`[4.700 s → 9.356 s] mysql> SELECT …`); the statement wraps, the result keeps the
//! client's columns and scrolls sideways inside the log if it must. A tab can be
//! named (✎, or a double click: `alice · 17`, the processlist id beside the name),
//! and "⤢ wide" gives the console most of the page for a wide result such as
//! `performance_schema.metadata_locks`.

use crate::model::format;
use crate::model::session_names::{tab_label, SessionNames};
use crate::model::snapshot::{ConsoleSession, LogEntry};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

/// Log lines a tab shows (the newest).
const SHOWN: usize = 60;
/// The statements operators run to see what is going on, one click each: they run
/// at once in the active session (after what it is running).
pub const LOOK: [(&str, &str); 3] = [
    ("SHOW PROCESSLIST", "SHOW FULL PROCESSLIST"),
    (
        "metadata_locks",
        "SELECT OBJECT_SCHEMA, OBJECT_NAME, LOCK_TYPE, LOCK_DURATION, LOCK_STATUS, OWNER_THREAD_ID FROM performance_schema.metadata_locks",
    ),
    ("INNODB STATUS", "SHOW ENGINE INNODB STATUS"),
];

/// Properties of [`SqlConsole`].
#[derive(Properties, PartialEq, Debug)]
pub struct SqlConsoleProps {
    /// Finished statements of every session and notes, oldest first.
    pub log: Vec<LogEntry>,
    /// The console sessions.
    pub sessions: Vec<ConsoleSession>,
    /// The session the input goes to.
    pub active: u32,
    /// Statements to offer with one click (filled in, not run).
    pub suggestions: Vec<String>,
    /// The input's placeholder.
    #[prop_or(AttrValue::Static("SHOW PROCESSLIST"))]
    pub placeholder: AttrValue,
    /// The sessions' names.
    #[prop_or_default]
    pub names: SessionNames,
    /// Whether the console takes most of the page.
    #[prop_or_default]
    pub wide: bool,
    /// Runs statements in the active session: how many were accepted, or the error.
    pub on_run: Callback<String, Result<u32, String>>,
    /// Opens a new session.
    pub on_connect: Callback<()>,
    /// Picks the session the input goes to.
    pub on_select: Callback<u32>,
    /// Names a session (empty: no name).
    #[prop_or_default]
    pub on_name: Callback<(u32, String)>,
    /// Widens the console or narrows it back.
    #[prop_or_default]
    pub on_wide: Callback<()>,
}

/// Where ↑/↓ are in a session's history.
#[derive(Default)]
struct History {
    entries: BTreeMap<u32, Vec<String>>,
    /// Index into the active session's entries while browsing; `None` at the draft.
    at: Option<usize>,
}

/// The text a history step shows, and the new position: `up` goes to older
/// statements; past the newest is the empty draft.
fn history_step(
    entries: &[String],
    at: Option<usize>,
    up: bool,
) -> Option<(String, Option<usize>)> {
    match (at, up) {
        (None, true) => entries
            .len()
            .checked_sub(1)
            .map(|i| (entries[i].clone(), Some(i))),
        (Some(i), true) => Some((
            entries[i.saturating_sub(1)].clone(),
            Some(i.saturating_sub(1)),
        )),
        (Some(i), false) if i + 1 < entries.len() => Some((entries[i + 1].clone(), Some(i + 1))),
        (Some(_), false) => Some((String::new(), None)),
        (None, false) => None,
    }
}

/// What the status line says about `session`.
fn status(session: Option<&ConsoleSession>, log: &[&LogEntry]) -> (String, &'static str) {
    if let Some(s) = session.filter(|s| s.pending > 0) {
        let what = s.running.clone().unwrap_or_else(|| "queued".to_string());
        let state = if s.state.is_empty() {
            String::new()
        } else {
            format!(" — {}", s.state)
        };
        let queued = if s.pending > 1 {
            format!(" (+{} queued)", s.pending - 1)
        } else {
            String::new()
        };
        let style = if s.state.starts_with("Waiting") {
            "color: var(--danger)"
        } else {
            "color: var(--warning)"
        };
        return (format!("running: {what}{state}{queued}"), style);
    }
    match log.iter().rev().find(|e| !e.note) {
        Some(e) if e.error => (first_line(&e.result), "color: var(--danger)"),
        Some(e) => (last_line(&e.result), "color: var(--ok)"),
        None => (
            "Type a statement and press Enter (Shift+Enter: new line).".to_string(),
            "color: var(--text-muted)",
        ),
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

/// The mysql client's last line: `3 rows in set (0.00 sec)` under a table.
fn last_line(s: &str) -> String {
    s.lines().last().unwrap_or("").to_string()
}

/// The console.
#[function_component(SqlConsole)]
pub fn sql_console(props: &SqlConsoleProps) -> Html {
    let input = use_node_ref();
    let history = use_mut_ref(History::default);
    let active = props.active;
    let run = {
        let input = input.clone();
        let on_run = props.on_run.clone();
        let history = history.clone();
        move || {
            let Some(el) = input.cast::<HtmlTextAreaElement>() else {
                return;
            };
            let sql = el.value().trim().to_string();
            if sql.is_empty() {
                return;
            }
            let mut h = history.borrow_mut();
            h.entries.entry(active).or_default().push(sql.clone());
            h.at = None;
            // Accepted or refused, the text has gone to the log: clear the input.
            let _ = on_run.emit(sql);
            el.set_value("");
        }
    };
    let onclick = {
        let run = run.clone();
        Callback::from(move |_: MouseEvent| run())
    };
    let onkeydown = on_keydown(history.clone(), active, run);
    let mine: Vec<&LogEntry> = props
        .log
        .iter()
        .filter(|e| e.note || e.session == active)
        .collect();
    let current = props.sessions.iter().find(|s| s.id == active);
    let (text, style) = status(current, &mine);
    let shown = &mine[mine.len().saturating_sub(SHOWN)..];
    let renaming = use_state(|| None::<u32>);
    let on_wide = props.on_wide.reform(|_: MouseEvent| ());
    html! {
        <section class="sql-box" data-testid="sql-console" aria-labelledby="sql-title">
            <h2 class="panel-title" id="sql-title">
                <label for="sql-input">{ "SQL console" }</label>
                <button type="button" class="wide-toggle" data-testid="console-wide" aria-pressed={if props.wide { "true" } else { "false" }} title="Give the console most of the page, for wide results" onclick={on_wide}>
                    { if props.wide { "⤡ narrow" } else { "⤢ wide" } }
                </button>
            </h2>
            { tabs(props, &renaming, !shown.is_empty()) }
            if !shown.is_empty() {
                { log_view(shown, &tab_label(&props.names, active)) }
            }
            <div class="output" data-testid="sql-result" role="status" aria-live="polite" ~style={style}>{ text }</div>
            <textarea
                id="sql-input"
                ref={input.clone()}
                data-testid="sql-input"
                rows="2"
                placeholder={props.placeholder.clone()}
                autocomplete="off"
                spellcheck="false"
                {onkeydown}
            />
            <div class="actions actions-spread">
                { chips(props, &input) }
                <button class="primary" data-testid="sql-run" {onclick}>{ "Run" }</button>
            </div>
            { look(props) }
        </section>
    }
}

/// The input's keys: Enter runs (Shift+Enter is a new line), ↑ and ↓ at the first or
/// last line walk session `active`'s history.
fn on_keydown(
    history: Rc<RefCell<History>>,
    active: u32,
    run: impl Fn() + 'static,
) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        let el: HtmlTextAreaElement = e.target_unchecked_into();
        match e.key().as_str() {
            "Enter" if !e.shift_key() => {
                e.prevent_default();
                run();
            }
            key @ ("ArrowUp" | "ArrowDown") => {
                let value = el.value();
                let caret = el.selection_start().ok().flatten().unwrap_or(0) as usize;
                let up = key == "ArrowUp";
                // Only from the first line going up, or the last going down: inside
                // a pasted batch the arrows move the caret.
                let at_edge = if up {
                    !value[..caret.min(value.len())].contains('\n')
                } else {
                    !value[caret.min(value.len())..].contains('\n')
                };
                if !at_edge {
                    return;
                }
                let mut h = history.borrow_mut();
                let at = h.at;
                let entries = h.entries.get(&active).cloned().unwrap_or_default();
                if let Some((text, at)) = history_step(&entries, at, up) {
                    e.prevent_default();
                    el.set_value(&text);
                    h.at = at;
                }
            }
            _ => {}
        }
    })
}

/// The session tabs, the one being renamed as an input, and, outside the tablist,
/// the rename and new-session buttons. The tabs are one Tab stop (the active one);
/// the arrows, Home and End move between them.
/// `log_shown`: whether the log the tabs control is on the page (an
/// `aria-controls` must name an element that is there).
fn tabs(props: &SqlConsoleProps, renaming: &UseStateHandle<Option<u32>>, log_shown: bool) -> Html {
    let active = props.active;
    let on_connect = props.on_connect.reform(|_: MouseEvent| ());
    let on_rename = {
        let renaming = renaming.clone();
        Callback::from(move |_: MouseEvent| renaming.set(Some(active)))
    };
    html! {
    <div class="tabs" data-testid="session-tabs">
        <div class="tablist" role="tablist" aria-label="Console sessions" onkeydown={tab_keys(props)}>
        { for props.sessions.iter().map(|s| {
            if **renaming == Some(s.id) {
                return name_input(props, s.id, renaming);
            }
            let id = s.id;
            let select = props.on_select.reform(move |_: MouseEvent| id);
            let rename = {
                let renaming = renaming.clone();
                Callback::from(move |_: MouseEvent| renaming.set(Some(id)))
            };
            let waiting = s.state.starts_with("Waiting");
            let busy = waiting || s.pending > 0;
            let label = tab_label(&props.names, id);
            html! {
                <button
                    type="button"
                    role="tab"
                    class={classes!("tab", (id == active).then_some("active"), waiting.then_some("waiting"))}
                    aria-selected={if id == active { "true" } else { "false" }}
                    aria-controls={log_shown.then_some("session-log")}
                    tabindex={if id == active { "0" } else { "-1" }}
                    data-session={id.to_string()}
                    title={if s.state.is_empty() { format!("{label}: idle (double-click to name it)") } else { format!("{label}: {}", s.state) }}
                    onclick={select}
                    ondblclick={rename}
                >
                    { label }
                    if busy { <span class="badge" aria-hidden="true"></span> }
                </button>
            }
        }) }
        </div>
        if **renaming != Some(active) {
            <button type="button" class="tab rename" data-testid="rename-session" title="Name this session (as in session scripts: s1, alice)" aria-label="Name this session" onclick={on_rename}>{ "✎" }</button>
        }
        <button type="button" class="tab new" data-testid="new-session" title="Open another connection" onclick={on_connect}>{ "+ new" }</button>
    </div>
    }
}

/// The tablist's keys: ← → (and ↑ ↓) select the session before or after, Home and
/// End the first and last; the focus follows to the selected tab.
fn tab_keys(props: &SqlConsoleProps) -> Callback<KeyboardEvent> {
    let ids: Vec<u32> = props.sessions.iter().map(|s| s.id).collect();
    let (active, on_select) = (props.active, props.on_select.clone());
    Callback::from(move |e: KeyboardEvent| {
        let Some(at) = ids.iter().position(|&id| id == active) else {
            return;
        };
        let last = ids.len().saturating_sub(1);
        let to = match e.key().as_str() {
            "ArrowRight" | "ArrowDown" => (at + 1).min(last),
            "ArrowLeft" | "ArrowUp" => at.saturating_sub(1),
            "Home" => 0,
            "End" => last,
            _ => return,
        };
        e.prevent_default();
        e.stop_propagation();
        let id = ids[to];
        on_select.emit(id);
        // Once the tabs are drawn with the new one selected.
        crate::ui::hooks::focus_soon(format!("[role=tab][data-session=\"{id}\"]"));
    })
}

/// The name field that replaces tab `id` while it is renamed.
fn name_input(props: &SqlConsoleProps, id: u32, renaming: &UseStateHandle<Option<u32>>) -> Html {
    let done = {
        let (renaming, on_name) = (renaming.clone(), props.on_name.clone());
        Callback::from(move |name: Option<String>| {
            if let Some(name) = name {
                on_name.emit((id, name));
            }
            renaming.set(None);
        })
    };
    html! {
        <NameInput {id} name={props.names.get(&id).cloned().unwrap_or_default()} {done} />
    }
}

/// Properties of [`NameInput`].
#[derive(Properties, PartialEq, Debug)]
struct NameInputProps {
    id: u32,
    /// The name it has now (the field starts with it).
    name: String,
    /// The name typed (Enter, or leaving the field), or `None` (Esc).
    done: Callback<Option<String>>,
}

/// The name field: focused, filled with the name once (not on every render, which
/// would undo the typing), Enter or leaving it names the session, Esc keeps the name.
#[function_component(NameInput)]
fn name_field(props: &NameInputProps) -> Html {
    let field = use_node_ref();
    let finished = use_mut_ref(|| false);
    {
        let (field, name) = (field.clone(), props.name.clone());
        use_effect_with((), move |_| {
            if let Some(el) = field.cast::<HtmlInputElement>() {
                el.set_value(&name);
                let _ = el.focus();
                el.select();
            }
        });
    }
    let finish = {
        let (finished, done) = (finished.clone(), props.done.clone());
        move |name: Option<String>| {
            if !std::mem::replace(&mut *finished.borrow_mut(), true) {
                done.emit(name);
            }
        }
    };
    let onkeydown = {
        let finish = finish.clone();
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Enter" => {
                e.prevent_default();
                finish(Some(e.target_unchecked_into::<HtmlInputElement>().value()));
            }
            "Escape" => {
                e.prevent_default();
                e.stop_propagation();
                finish(None);
            }
            _ => {}
        })
    };
    let onblur = Callback::from(move |e: FocusEvent| {
        finish(Some(e.target_unchecked_into::<HtmlInputElement>().value()))
    });
    html! {
        <input
            ref={field}
            class="tab-name"
            data-testid="session-name"
            aria-label={format!("Name of session {}", props.id)}
            placeholder="alice"
            maxlength="16"
            {onkeydown}
            {onblur}
        />
    }
}

/// The log of the active session's statements (and the notes), the last [`SHOWN`]:
/// each statement with when it was sent and when it finished.
fn log_view(shown: &[&LogEntry], label: &str) -> Html {
    html! {
    <div class="console-log" id="session-log" data-testid="sql-log" role="tabpanel" aria-label={label.to_string()} tabindex="0">
        { for shown.iter().map(|e| {
            if e.note {
                return html! {
                    <p class="log-note">{ format!("[{} s] -- {}\n", format::secs(e.at), e.sql) }</p>
                };
            }
            let colour = if e.error { "log-result error" } else { "log-result" };
            let when = if e.issued == e.at {
                format!("[{} s]", format::secs(e.at))
            } else {
                format!("[{} s → {} s]", format::secs(e.issued), format::secs(e.at))
            };
            html! {
                <div class="log-entry">
                    <p class="log-sql"><span class="log-when" title="sent → finished, virtual time">{ when }</span>{ format!(" mysql> {}\n", e.sql) }</p>
                    <pre class={colour}>{ format!("{}\n", e.result) }</pre>
                </div>
            }
        }) }
    </div>
    }
}

/// The one-click statements, each filling the input.
fn chips(props: &SqlConsoleProps, input: &NodeRef) -> Html {
    html! {
    <span class="chips">
        { for props.suggestions.iter().map(|s| {
            let input = input.clone();
            let s2 = s.clone();
            let fill = Callback::from(move |_: MouseEvent| {
                if let Some(el) = input.cast::<HtmlTextAreaElement>() {
                    el.set_value(&s2);
                    let _ = el.focus();
                }
            });
            html! { <button type="button" class="chip" title="Put this statement in the input" onclick={fill}>{ s }</button> }
        }) }
    </span>
    }
}

/// The statements operators run to look around, run at once.
fn look(props: &SqlConsoleProps) -> Html {
    html! {
    <div class="actions look">
        <span class="look-label">{ "Look:" }</span>
        { for LOOK.iter().map(|(label, sql)| {
            let on_run = props.on_run.clone();
            let title = format!("Run {sql} in this session");
            let sql = sql.to_string();
            let run = Callback::from(move |_: MouseEvent| { let _ = on_run.emit(sql.clone()); });
            html! { <button type="button" class="chip" data-look={*label} {title} onclick={run}>{ *label }</button> }
        }) }
    </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::runner::Runner;
    use ddlscope_engine::Tick;

    #[test]
    fn history_goes_up_to_the_oldest_and_down_to_the_draft() {
        let h: Vec<String> = ["BEGIN", "SELECT 1", "COMMIT"].map(String::from).to_vec();
        let (t, at) = history_step(&h, None, true).unwrap();
        assert_eq!((t.as_str(), at), ("COMMIT", Some(2)));
        let (t, at) = history_step(&h, at, true).unwrap();
        assert_eq!(t, "SELECT 1");
        let (t, at) = history_step(&h, at, true).unwrap();
        let (t2, at2) = history_step(&h, at, true).unwrap();
        assert_eq!(
            (t.as_str(), t2.as_str(), at2),
            ("BEGIN", "BEGIN", Some(0)),
            "stays at the oldest"
        );
        let (t, at) = history_step(&h, at2, false).unwrap();
        assert_eq!(t, "SELECT 1");
        let (_, at) = history_step(&h, at, false).unwrap();
        let (t, at) = history_step(&h, at, false).unwrap();
        assert_eq!(
            (t.as_str(), at),
            ("", None),
            "past the newest: the empty draft"
        );
        assert_eq!(history_step(&h, None, false), None);
        assert_eq!(history_step(&[], None, true), None);
    }

    #[test]
    fn the_status_line_says_what_the_session_waits_for_or_how_it_ended() {
        let waiting = ConsoleSession {
            id: 9,
            pending: 2,
            running: Some("CREATE INDEX k2 ON t1 (k)".into()),
            state: "Waiting for table metadata lock".into(),
        };
        let (text, style) = status(Some(&waiting), &[]);
        assert_eq!(
            text,
            "running: CREATE INDEX k2 ON t1 (k) — Waiting for table metadata lock (+1 queued)"
        );
        assert!(style.contains("danger"));
        let table = LogEntry {
            at: Tick::from_secs(1),
            issued: Tick::from_secs(1),
            session: 9,
            sql: "SELECT 1".into(),
            result: "+---+\n| 1 |\n+---+\n1 row in set (0.00 sec)".into(),
            error: false,
            note: false,
        };
        let idle = ConsoleSession {
            id: 9,
            ..ConsoleSession::default()
        };
        assert_eq!(status(Some(&idle), &[&table]).0, "1 row in set (0.00 sec)");
        let err = LogEntry {
            result: "ERROR 1205 (HY000): Lock wait timeout exceeded; try restarting transaction"
                .into(),
            error: true,
            ..table.clone()
        };
        assert!(status(Some(&idle), &[&table, &err])
            .0
            .starts_with("ERROR 1205"));
    }

    #[test]
    fn the_consoles_look_statements_run_and_print_tables() {
        let mut r = Runner::new(crate::model::runner::DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
        r.advance(100.0, &|| 0.0);
        for (_, sql) in LOOK {
            assert_eq!(r.execute(sql), Ok(1), "{sql}");
        }
        for _ in 0..10 {
            r.advance(100.0, &|| 0.0);
        }
        r.digest();
        let log: Vec<LogEntry> = r.log().into_iter().filter(|e| !e.note).collect();
        assert_eq!(log.len(), 3, "{log:?}");
        for e in &log {
            assert!(!e.error, "{e:?}");
            assert!(
                e.result.starts_with('+') && e.result.contains(" in set ("),
                "{}",
                e.result
            );
        }
        assert!(
            log[0].result.contains("SHOW FULL PROCESSLIST"),
            "it lists itself"
        );
    }
}
