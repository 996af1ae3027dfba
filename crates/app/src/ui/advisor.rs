//! The Advisor: "is this DDL safe on my server, and what should I run instead?" A form
//! with `ddlscope advise`'s inputs (or pasted `SHOW VARIABLES` / `SHOW TABLE STATUS`
//! output), run in the engine's worker beside the simulation with its progress shown,
//! and the playbooks ranked as the CLI ranks them (`model::advisor`,
//! `worker/host/advice.rs`).
//!
//! ```text
//!   Advisor ▸   [form: server · table · workload · DDL · pasted output]  Run / Cancel
//!               playbook 3 of 6: pt-osc · 120 s run      ▓▓▓▓▓▓░░░░░░
//!               #  playbook  stall s  p99 ms  dip %  total s  lag s  disk GB  errors
//!               what was assumed · the same question to the CLI
//! ```

use crate::model::advisor::{AdviceLine, AdviceView, AdvisorForm, Progress};
use crate::model::state::Action;
use crate::ui::hooks::{focus_soon, EnginesProxy};
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// Properties of [`Advisor`].
#[derive(Properties, PartialEq, Debug)]
pub struct AdvisorProps {
    /// The worker that runs the advice.
    pub engines: EnginesProxy,
    /// Where the advice running is, if one runs.
    pub progress: Option<Progress>,
    /// The page's reducer (the advice's end).
    pub on_action: Callback<Action>,
    /// The engine on the page: the form's first profile.
    pub profile: AttrValue,
}

/// One of the form's single-line fields: the CLI's flag, its label, a hint.
struct Field {
    name: &'static str,
    label: &'static str,
    hint: &'static str,
    choices: &'static [&'static str],
}

const fn field(name: &'static str, label: &'static str, hint: &'static str) -> Field {
    Field {
        name,
        label,
        hint,
        choices: &[],
    }
}

const fn choice(
    name: &'static str,
    label: &'static str,
    choices: &'static [&'static str],
) -> Field {
    Field {
        name,
        label,
        hint: "",
        choices,
    }
}

/// The server's fields.
const SERVER: [Field; 9] = [
    field("pool", "Buffer pool", "128G"),
    field("instances", "Pool instances", "8"),
    choice("ahi", "Adaptive hash index", &["", "on", "off"]),
    choice("fs", "File system", &["", "ext3", "ext4", "xfs"]),
    choice("device", "Device", &["", "nvme", "sata_ssd", "hdd"]),
    field("write-us", "Page write, µs", "the device's"),
    field("fsync-us", "Log fsync, µs", "the device's"),
    field("io-channels", "Writes at once", "the device's"),
    field("cpus", "CPU cores", "none contended"),
];

/// The table's and the workload's fields.
const TABLE: [Field; 8] = [
    field("table-size", "Table size", "10G"),
    field("table-rows", "or rows", "1000000"),
    choice(
        "row-format",
        "Row format",
        &["", "dynamic", "compact", "compressed", "redundant"],
    ),
    field("partitions", "Partitions", "0"),
    field("secondary-indexes", "Secondary indexes", "1"),
    choice(
        "workload",
        "Workload",
        &[
            "",
            "oltp_read_write",
            "oltp_write_only",
            "oltp_read_only",
            "oltp_point_select",
            "oltp_update_index",
            "oltp_insert",
        ],
    ),
    field("threads", "Threads", "16"),
    field("open-txn", "An open transaction, s", "0"),
];

/// The form's starting question: the page's engine, I1's shape at a size that
/// runs in seconds.
fn starting_form(profile: &str) -> AdvisorForm {
    let mut f = AdvisorForm::default();
    for (k, v) in [
        ("profile", profile),
        ("pool", "4G"),
        ("instances", "4"),
        ("table-size", "1G"),
        ("workload", "oltp_write_only"),
        ("threads", "8"),
        ("ddl", "DROP TABLE big"),
    ] {
        f.set(k, v);
    }
    f
}

/// An input or a select for `f`, bound to the form's field.
fn field_input(f: &Field, form: &UseStateHandle<AdvisorForm>) -> Html {
    let id = format!("advisor-{}", f.name);
    let value = form.get(f.name).to_string();
    let name = f.name;
    let control = if f.choices.is_empty() {
        let form = form.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let mut next = (*form).clone();
            next.set(name, &e.target_unchecked_into::<HtmlInputElement>().value());
            form.set(next);
        });
        html! { <input id={id.clone()} type="text" {value} placeholder={f.hint} {oninput} autocomplete="off" /> }
    } else {
        let form = form.clone();
        let onchange = Callback::from(move |e: Event| {
            let mut next = (*form).clone();
            next.set(
                name,
                &e.target_unchecked_into::<HtmlSelectElement>().value(),
            );
            form.set(next);
        });
        html! {
            <select id={id.clone()} {onchange}>
                { for f.choices.iter().map(|c| html! {
                    <option value={*c} selected={*c == value}>{ if c.is_empty() { "the profile's default" } else { c } }</option>
                }) }
            </select>
        }
    };
    html! {
        <label class="advisor-field" for={id}>
            <span>{ f.label }</span>
            { control }
        </label>
    }
}

/// A text area bound to one of the form's free-text parts.
fn text_area(
    id: &'static str,
    label: &'static str,
    hint: &'static str,
    form: &UseStateHandle<AdvisorForm>,
    part: fn(&mut AdvisorForm) -> &mut String,
) -> Html {
    let value = part(&mut (**form).clone()).clone();
    let form = form.clone();
    let oninput = Callback::from(move |e: InputEvent| {
        let mut next = (*form).clone();
        *part(&mut next) = e.target_unchecked_into::<HtmlTextAreaElement>().value();
        form.set(next);
    });
    html! {
        <label class="advisor-field advisor-wide" for={id}>
            <span>{ label }</span>
            <textarea {id} rows="3" placeholder={hint} {value} {oninput} spellcheck="false" />
        </label>
    }
}

/// The profile and DDL inputs, first in the form.
fn question_inputs(form: &UseStateHandle<AdvisorForm>) -> Html {
    html! {
        <>
            { field_input(&field("profile", "Server (profile)", "mysql-5.7"), form) }
            <label class="advisor-field advisor-wide" for="advisor-ddl">
                <span>{ "The DDL" }</span>
                { plain_input("advisor-ddl", "ddl", "DROP TABLE big", form) }
            </label>
        </>
    }
}

/// A text input for field `name` of the form.
fn plain_input(
    id: &'static str,
    name: &'static str,
    hint: &'static str,
    form: &UseStateHandle<AdvisorForm>,
) -> Html {
    let value = form.get(name).to_string();
    let form = form.clone();
    let oninput = Callback::from(move |e: InputEvent| {
        let mut next = (*form).clone();
        next.set(name, &e.target_unchecked_into::<HtmlInputElement>().value());
        form.set(next);
    });
    html! { <input {id} type="text" {value} placeholder={hint} {oninput} autocomplete="off" spellcheck="false" /> }
}

/// The progress line and bar of the advice running.
fn progress_view(p: &Progress) -> Html {
    let done = (p.playbook.saturating_sub(1) * 100 / p.of.max(1)) as u32;
    html! {
        <div class="advisor-progress" data-testid="advisor-progress">
            <div role="progressbar" aria-label="Advice" aria-valuemin="0" aria-valuemax="100" aria-valuenow={done.to_string()}
                aria-valuetext={format!("playbook {} of {}", p.playbook, p.of)} class="advisor-bar">
                <span class="advisor-bar-done" ~style={format!("width: {done}%")}></span>
            </div>
            <p role="status">{ format!("Running playbook {} of {}: {} · {} s of its run", p.playbook, p.of, p.name, p.seconds) }</p>
        </div>
    }
}

/// A figure that may be absent (no replica in the run).
fn maybe(v: Option<f64>) -> String {
    v.map_or("–".to_string(), |x| format!("{x:.1}"))
}

/// One ranked playbook.
fn line_row(l: &AdviceLine) -> Html {
    let f = &l.figures;
    html! {
        <tr data-testid="advisor-row">
            <td class="num">{ l.rank }</td>
            <th scope="row">
                <span class="advisor-name">{ l.name.clone() }</span><small>{ l.summary.clone() }</small>
                // Its run on a page of its own: the link carries the playbook's scenario.
                <a class="advisor-watch" data-testid="advisor-watch" href={format!("#{}", l.link)} target="_blank" rel="noopener"
                    aria-label={format!("Watch {} run, in a new tab", l.name)}>{ "Watch it run ↗" }</a>
            </th>
            <td class="num">{ f.worst_write_stall_s }</td>
            <td class="num">{ format!("{:.1}", f.p99_ms) }</td>
            <td class="num">{ format!("{:.0}", f.tps_dip_pct) }</td>
            <td class="num">{ format!("{:.1}", f.total_s) }</td>
            <td class="num">{ maybe(f.replica_lag_s) }</td>
            <td class="num">{ format!("{:.1}", f.extra_disk_gb) }</td>
            <td>{ if f.errors.is_empty() { "none".to_string() } else { f.errors.join("; ") } }</td>
            <td class="num">{ f.workload_errors }</td>
        </tr>
    }
}

/// The ranking, what was assumed, and the same question for the CLI.
fn advice_view(a: &AdviceView, command: &str) -> Html {
    html! {
        <div class="advisor-result" data-testid="advisor-result">
            <div class="advisor-table" tabindex="0" role="region" aria-label="Playbooks ranked">
                <table>
                    <thead><tr>
                        <th scope="col">{ "#" }</th><th scope="col">{ "Playbook" }</th>
                        <th scope="col" title="The longest run of seconds under 10% of the baseline writes">{ "Worst stall, s" }</th>
                        <th scope="col">{ "p99, ms" }</th><th scope="col">{ "tps dip, %" }</th>
                        <th scope="col">{ "Total, s" }</th><th scope="col">{ "Replica lag, s" }</th>
                        <th scope="col">{ "Extra disk, GB" }</th><th scope="col" title="Why the change was not made, if it was not">{ "Errors" }</th>
                        <th scope="col" title="Statements of the workload that failed (deadlocks, lock wait timeouts), which sysbench retries">{ "Workload errors" }</th>
                    </tr></thead>
                    <tbody>{ for a.rows.iter().map(line_row) }</tbody>
                </table>
            </div>
            if !a.assumptions.is_empty() {
                <details class="advisor-assumed">
                    <summary>{ format!("What was assumed ({})", a.assumptions.len()) }</summary>
                    <ul>{ for a.assumptions.iter().map(|s| html! { <li>{ s.clone() }</li> }) }</ul>
                </details>
            }
            <p class="advisor-cli">{ "The same question to the command line, which also writes each playbook's scenario for " }<code>{ "ddlscope run" }</code>{ ": " }<code data-testid="advisor-command">{ command.to_string() }</code></p>
        </div>
    }
}

/// The Advisor button and, open, its panel on a row of its own.
#[function_component(Advisor)]
pub fn advisor(props: &AdvisorProps) -> Html {
    let open = use_state(|| false);
    let form = use_state(|| starting_form(&props.profile));
    let result = use_state(|| None::<Result<AdviceView, String>>);
    let asked = use_state(|| None::<String>);
    // Counts runs and cancels: an answer to a run since cancelled or replaced is dropped.
    let runs = use_mut_ref(|| 0u32);
    // Whether a run of this panel's is on: progress that arrives after its end or a
    // cancel (frames already on their way) is not shown.
    let running = use_state(|| false);
    let on_toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| {
            if !*open {
                focus_soon("#advisor-profile");
            }
            open.set(!*open);
        })
    };
    let on_run = {
        let (engines, form, result, asked, on_action) = (
            props.engines.clone(),
            form.clone(),
            result.clone(),
            asked.clone(),
            props.on_action.clone(),
        );
        let (runs, running) = (runs.clone(), running.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            result.set(None);
            asked.set(Some(form.command_line()));
            *runs.borrow_mut() += 1;
            running.set(true);
            let this = *runs.borrow();
            let (result, on_action, runs, running) = (
                result.clone(),
                on_action.clone(),
                runs.clone(),
                running.clone(),
            );
            engines.advise((*form).clone(), move |r| {
                if *runs.borrow() == this {
                    running.set(false);
                    result.set(Some(r));
                    on_action.emit(Action::AdviceEnded);
                }
            });
        })
    };
    let on_cancel = {
        let (engines, on_action) = (props.engines.clone(), props.on_action.clone());
        let running = running.clone();
        Callback::from(move |_: MouseEvent| {
            *runs.borrow_mut() += 1;
            running.set(false);
            engines.cancel_advice();
            on_action.emit(Action::AdviceEnded);
        })
    };
    let progress = props.progress.as_ref().filter(|_| *running);
    let running = *running;
    html! {
        <>
            <button type="button" data-testid="advisor-toggle" aria-expanded={if *open { "true" } else { "false" }} onclick={on_toggle}
                title="Is this DDL safe on my server, and what should I run instead?">{ "Advisor" }</button>
            if *open {
                <section class="advisor" data-testid="advisor" aria-labelledby="advisor-title">
                    <h2 id="advisor-title">{ "Advisor: which way to run this DDL?" }</h2>
                    <p class="muted">{ "Each playbook (native ALTER, pt-online-schema-change, gh-ost; for removing data DROP, TRUNCATE, RENAME and drop later, partitions one by one…) runs on a model of your server, table and workload, and is ranked by its worst write stall, p99 latency, throughput dip and time." }</p>
                    <form class="advisor-form" onsubmit={on_run}>
                        { question_inputs(&form) }
                        <fieldset><legend>{ "Server" }</legend>{ for SERVER.iter().map(|f| field_input(f, &form)) }</fieldset>
                        <fieldset><legend>{ "Table and workload" }</legend>{ for TABLE.iter().map(|f| field_input(f, &form)) }</fieldset>
                        <details class="advisor-paste">
                            <summary>{ "Settings and pasted output" }</summary>
                            { text_area("advisor-set", "Settings, NAME=VALUE a line", "innodb_autoinc_lock_mode=2", &form, |f| &mut f.settings) }
                            { text_area("advisor-variables", "SHOW VARIABLES output", "paste it here", &form, |f| &mut f.show_variables) }
                            { text_area("advisor-status", "SHOW TABLE STATUS output", "paste it here", &form, |f| &mut f.table_status) }
                        </details>
                        <div class="advisor-actions">
                            <button type="submit" class="primary" data-testid="advisor-run" disabled={running}>{ "Run the playbooks" }</button>
                            if running {
                                <button type="button" data-testid="advisor-cancel" onclick={on_cancel}>{ "Cancel" }</button>
                            }
                        </div>
                    </form>
                    if let Some(p) = progress { { progress_view(p) } }
                    { match &*result {
                        Some(Ok(a)) => advice_view(a, asked.as_deref().unwrap_or_default()),
                        Some(Err(e)) => html! { <p class="advisor-error" role="alert" data-testid="advisor-error">{ e.clone() }</p> },
                        None => Html::default(),
                    } }
                </section>
            }
        </>
    }
}
