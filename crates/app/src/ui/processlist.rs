//! The processlist panel: `SHOW PROCESSLIST` as the server prints it, live.
//!
//! ```text
//!   19 sessions: 2 running, 16 Waiting for table metadata lock (3, 4, 5, 6, …), 1 sleeping
//!   ┌────┬────────┬─────────┬──────┬─────────────────────────────────┬──────────────────────┐
//!   │ Id │ User   │ Command │ Time │ State                           │ Info                 │
//!   │  1 │ root   │ Sleep   │   12 │                                 │                      │
//!   │  2 │ root   │ Query   │    9 │ Waiting for table metadata lock │ CREATE INDEX k2 ON … │ ← highlighted
//!   │  3 │ sbtest │ Query   │    4 │ Waiting for table metadata lock │ SELECT c FROM t1 …   │
//!   └────┴────────┴─────────┴──────┴─────────────────────────────────┴──────────────────────┘
//!                                      (a fixed-height scroll area)
//! ```
//!
//! The rows are `model::processlist`'s [`ProcRow`]s, copied from the engine's own
//! processlist builder into the snapshot ~10 times a second (see there), shown who
//! matters first ([`who_matters_first`]: blockers, waiters, console sessions, the
//! rest): the first [`FIRST_ROWS`], then a line counting the rows left out with a
//! button that shows them all (in a scroll area of fixed height, so a workload of 64
//! sessions does not push the page down while the simulation runs).

use crate::model::processlist::{summary, who_matters_first, ProcRow, Role, FIRST_ROWS};
use crate::model::session_names::SessionNames;
use yew::prelude::*;

/// At most this many rows are kept for the panel; the summary line counts them all.
pub const MAX_ROWS: usize = 200;

/// Props of [`Processlist`].
#[derive(Properties, PartialEq, Debug)]
pub struct ProcesslistProps {
    /// The rows, sorted by Id.
    pub rows: Vec<ProcRow>,
    /// Sessions holding a lock someone waits for.
    #[prop_or_default]
    pub blockers: Vec<u32>,
    /// The console sessions.
    #[prop_or_default]
    pub console: Vec<u32>,
    /// The sessions' names, beside their ids.
    #[prop_or_default]
    pub names: SessionNames,
}

fn row((r, role): &(ProcRow, Role), names: &SessionNames) -> Html {
    let waiting = r.is_waiting();
    let class = classes!(
        waiting.then_some("waiting"),
        (*role == Role::Blocker).then_some("blocker"),
        (r.command == "Sleep").then_some("sleeping")
    );
    let mark = match role {
        Role::Blocker => {
            html! { <span class="proc-mark" title="holds a lock another session waits for">{ "blocking" }</span> }
        }
        _ => html! {},
    };
    let info = r.info.clone().unwrap_or_else(|| "NULL".to_string());
    html! {
        <tr key={r.id} {class} data-testid={waiting.then_some("proc-waiting")} data-role={role.name()} data-id={r.id.to_string()}>
            <td class="num">{ r.id } if let Some(n) = names.get(&r.id) { <span class="proc-name" data-testid="proc-name">{ format!(" {n}") }</span> }</td>
            <td>{ r.user.to_string() }</td>
            <td>{ r.command.to_string() }</td>
            <td class="num">{ r.time_s }</td>
            <td class="state" title={r.state.clone()}>{ mark }{ r.state.clone() }</td>
            <td class="info" title={info.clone()}>{ info }</td>
        </tr>
    }
}

/// The panel.
#[function_component(Processlist)]
pub fn processlist(props: &ProcesslistProps) -> Html {
    let rows = &props.rows;
    let all = use_state(|| false);
    let waiting = rows.iter().filter(|r| r.is_waiting()).count();
    let ordered = who_matters_first(rows, &props.blockers, &props.console);
    let shown = if *all { MAX_ROWS } else { FIRST_ROWS };
    let hidden = ordered.len().saturating_sub(shown);
    let toggle = {
        let all = all.clone();
        Callback::from(move |_: MouseEvent| all.set(!*all))
    };
    html! {
        <section class="panel" aria-labelledby="processlist-title" data-testid="processlist">
            <h2 class="panel-title" id="processlist-title">
                <span>{ "Processlist" }</span>
                <span class="title-plain">
                    { "live · blockers and waiters first" }
                </span>
            </h2>
            <p class={classes!("proc-summary", (waiting > 0).then_some("waiting"))} data-testid="processlist-summary">
                { summary(rows) }
            </p>
            <div class={classes!("proc-scroll", (*all).then_some("all"))} tabindex="0" role="region" aria-label="Processlist rows">
                <table class="proc-table">
                    <thead>
                        <tr>
                            <th class="num">{ "Id" }</th>
                            <th>{ "User" }</th>
                            <th>{ "Command" }</th>
                            <th class="num">{ "Time" }</th>
                            <th>{ "State" }</th>
                            <th>{ "Info" }</th>
                        </tr>
                    </thead>
                    <tbody>
                        { for ordered.iter().take(shown).map(|r| row(r, &props.names)) }
                    </tbody>
                </table>
            </div>
            if hidden > 0 || *all {
                <p class="proc-more" data-testid="processlist-hidden" data-hidden={hidden.to_string()}>
                    if hidden > 0 {
                        { format!("{hidden} more {} not shown ", if hidden == 1 { "row" } else { "rows" }) }
                    }
                    <button type="button" data-testid="processlist-all" onclick={toggle}>
                        { if *all { "show the first ten" } else { "show all" } }
                    </button>
                </p>
            }
        </section>
    }
}
