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
//! The rows are `model::processlist`'s [`ProcRow`]s, sorted by Id, copied from the
//! engine's own processlist builder into the snapshot ~10 times a second (see
//! there); the panel's height is fixed so a workload of 64 sessions scrolls inside it instead
//! of pushing the page down while the simulation runs.

use crate::model::processlist::{summary, ProcRow};
use yew::prelude::*;

/// At most this many rows are kept for the panel; the summary line counts them all.
pub const MAX_ROWS: usize = 200;

/// Props of [`Processlist`].
#[derive(Properties, PartialEq, Debug)]
pub struct ProcesslistProps {
    /// The rows, sorted by Id.
    pub rows: Vec<ProcRow>,
}

fn row(r: &ProcRow) -> Html {
    let waiting = r.is_waiting();
    let class = classes!(
        waiting.then_some("waiting"),
        (r.command == "Sleep").then_some("sleeping")
    );
    let info = r.info.clone().unwrap_or_else(|| "NULL".to_string());
    html! {
        <tr key={r.id} {class} data-testid={waiting.then_some("proc-waiting")}>
            <td class="num">{ r.id }</td>
            <td>{ r.user }</td>
            <td>{ r.command }</td>
            <td class="num">{ r.time_s }</td>
            <td class="state" title={r.state.clone()}>{ r.state.clone() }</td>
            <td class="info" title={info.clone()}>{ info }</td>
        </tr>
    }
}

/// The panel.
#[function_component(Processlist)]
pub fn processlist(props: &ProcesslistProps) -> Html {
    let rows = &props.rows;
    let waiting = rows.iter().filter(|r| r.is_waiting()).count();
    html! {
        <section class="panel" aria-labelledby="processlist-title" data-testid="processlist">
            <h2 class="panel-title" id="processlist-title">
                <span>{ "Processlist" }</span>
                <span style="text-transform: none; letter-spacing: 0; font-weight: 400">
                    { "SHOW PROCESSLIST, live" }
                </span>
            </h2>
            <p class={classes!("proc-summary", (waiting > 0).then_some("waiting"))} data-testid="processlist-summary">
                { summary(rows) }
            </p>
            <div class="proc-scroll" tabindex="0" aria-label="Processlist rows">
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
                        { for rows.iter().take(MAX_ROWS).map(row) }
                    </tbody>
                </table>
            </div>
        </section>
    }
}
