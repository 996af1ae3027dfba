//! The SQL console: one input line (Enter runs it), a result line, and a short log of
//! finished statements, printed the way the `mysql` client prints them.
//!
//! A statement is checked when it is sent: an unknown table or a statement the engine
//! does not model fails at once with the server's error (`ERROR 1051 (42S02): ...`).
//! An accepted statement runs in virtual time; the result line says "running…" until
//! its StatementFinished event arrives, then shows `Query OK, ... (0.43 sec)`. The log
//! also carries notes on what the server did meanwhile (an HA failover, the adaptive
//! hash index cleanup), printed as `-- ...` lines.

use crate::format;
use crate::runner::LogEntry;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Statements kept in the log.
pub const LOG_LEN: usize = 8;

/// What the result line shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SqlResult {
    /// Nothing run yet.
    #[default]
    Idle,
    /// Rejected when sent.
    Rejected(String),
    /// Accepted; not all of it has finished.
    Running,
    /// The last statement finished.
    Done {
        /// `Query OK, ...` or the error.
        result: String,
        /// Whether it failed.
        error: bool,
    },
}

/// Properties of [`SqlBox`].
#[derive(Properties, PartialEq, Debug)]
pub struct SqlBoxProps {
    /// The result line.
    pub result: SqlResult,
    /// Finished statements, oldest first.
    pub log: Vec<LogEntry>,
    /// Statements to offer with one click (filled in, not run).
    pub suggestions: Vec<String>,
    /// Runs a statement; says whether it was accepted (the input is then cleared).
    pub on_run: Callback<String, bool>,
}

/// The console.
#[function_component(SqlBox)]
pub fn sql_box(props: &SqlBoxProps) -> Html {
    let input = use_node_ref();
    let run = {
        let input = input.clone();
        let on_run = props.on_run.clone();
        move || {
            if let Some(el) = input.cast::<HtmlInputElement>() {
                let sql = el.value();
                if sql.trim().is_empty() {
                    return;
                }
                if on_run.emit(sql.trim().to_string()) {
                    el.set_value("");
                }
            }
        }
    };
    let onclick = {
        let run = run.clone();
        Callback::from(move |_: MouseEvent| run())
    };
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" {
            e.prevent_default();
            run();
        }
    });
    let (text, style) = match &props.result {
        SqlResult::Idle => (
            "Type a statement and press Enter.".to_string(),
            "color: var(--text-muted)",
        ),
        SqlResult::Rejected(e) => (e.clone(), "color: var(--danger)"),
        SqlResult::Running => ("running…".to_string(), "color: var(--warning)"),
        SqlResult::Done {
            result,
            error: true,
        } => (result.clone(), "color: var(--danger)"),
        SqlResult::Done {
            result,
            error: false,
        } => (result.clone(), "color: var(--ok)"),
    };
    let chip = "height: 26px; padding: 0 8px; font: 12px var(--font-mono)";
    html! {
        <div class="sql-box">
            <h2 class="panel-title"><label for="sql-input">{ "SQL console" }</label></h2>
            <input
                id="sql-input"
                ref={input.clone()}
                data-testid="sql-input"
                type="text"
                placeholder="DROP TABLE t1"
                autocomplete="off"
                spellcheck="false"
                {onkeydown}
            />
            <div class="actions" style="justify-content: space-between; align-items: center">
                <span style="display: inline-flex; gap: 6px; flex-wrap: wrap">
                    { for props.suggestions.iter().map(|s| {
                        let input = input.clone();
                        let s2 = s.clone();
                        let fill = Callback::from(move |_: MouseEvent| {
                            if let Some(el) = input.cast::<HtmlInputElement>() {
                                el.set_value(&s2);
                                let _ = el.focus();
                            }
                        });
                        html! { <button type="button" style={chip} title="Put this statement in the input" onclick={fill}>{ s }</button> }
                    }) }
                </span>
                <button class="primary" data-testid="sql-run" {onclick}>{ "Run" }</button>
            </div>
            <div class="output" data-testid="sql-result" role="status" aria-live="polite" style={style}>{ text }</div>
            if !props.log.is_empty() {
                <pre data-testid="sql-log">
                    { for props.log.iter().rev().map(|e| {
                        if e.note {
                            return html! {
                                <span style="color: var(--warning)">{ format!("[{} s] -- {}\n", format::secs(e.at), e.sql) }</span>
                            };
                        }
                        let colour = if e.error { "color: var(--danger)" } else { "color: var(--text-muted)" };
                        html! {
                            <>
                                { format!("[{} s] mysql> {}\n", format::secs(e.at), e.sql) }
                                <span style={colour}>{ format!("{}\n", e.result) }</span>
                            </>
                        }
                    }) }
                </pre>
            }
        </div>
    }
}
