//! The stats panel: the counters an operator would watch, read from the simulated pool
//! several times a second (not only from the per-second samples), so a 5.7 DROP's jump
//! in free pages shows the moment its scans end.
//!
//! Each value's `data-testid` is `stat-…` and its text is the bare figure (integers
//! with thousands separators; the virtual time in seconds), so tests and people read
//! the same thing. Labels use the server's status names where there is one.

use crate::model::format;
use crate::model::snapshot::Snapshot;
use yew::prelude::*;

/// Properties of [`Stats`].
#[derive(Properties, PartialEq, Debug)]
pub struct StatsProps {
    /// The figures.
    pub snapshot: Snapshot,
    /// Whose figures, in compare mode (the engine's title).
    #[prop_or_default]
    pub heading: Option<AttrValue>,
}

/// One figure.
struct Stat {
    id: &'static str,
    label: &'static str,
    title: &'static str,
    value: String,
    mood: Option<&'static str>,
}

fn stat(s: Stat) -> Html {
    html! {
        <div class={classes!("stat", s.mood)} title={s.title}>
            <dt class="stat-label">{ s.label }</dt>
            <dd class="stat-value" data-testid={s.id}>{ s.value }</dd>
        </div>
    }
}

/// The stats grid.
#[function_component(Stats)]
pub fn stats(props: &StatsProps) -> Html {
    let s = &props.snapshot;
    let p95 = s.latency_p95_ms;
    let items = [
        Stat {
            id: "stat-free-pages",
            label: "free pages",
            title: "Innodb_buffer_pool_pages_free: blocks on the free lists",
            value: format::int(s.pages_free),
            mood: None,
        },
        Stat {
            id: "stat-data-pages",
            label: "data pages",
            title: "Innodb_buffer_pool_pages_data: pages holding data (stale ones included)",
            value: format::int(s.pages_data),
            mood: None,
        },
        Stat {
            id: "stat-stale-pages",
            label: "stale pages",
            title: "Pages of dropped tablespaces still in the LRU lists, waiting to be reclaimed (8.0.23+)",
            value: format::int(s.pages_stale),
            mood: (s.pages_stale > 0).then_some("warn"),
        },
        Stat {
            id: "stat-dirty-pages",
            label: "dirty pages",
            title: "Innodb_buffer_pool_pages_dirty: modified pages on the flush lists, not yet written",
            value: format::int(s.pages_dirty),
            mood: None,
        },
        Stat {
            id: "stat-wait-free",
            label: "free-block waits / s",
            title: "Innodb_buffer_pool_wait_free in the last whole virtual second: a thread found no free block and waited for the page cleaner",
            value: format::int(s.wait_free),
            mood: (s.wait_free > 0).then_some("warn"),
        },
        Stat {
            id: "stat-total-pages",
            label: "total pages",
            title: "Innodb_buffer_pool_pages_total",
            value: format::int(s.pages_total),
            mood: None,
        },
        Stat {
            id: "stat-qps",
            label: "queries / s",
            title: "Statements finished in the last whole virtual second",
            value: format::int(s.qps),
            mood: None,
        },
        Stat {
            id: "stat-p95-ms",
            label: "p95 latency, ms",
            title: "95th percentile statement latency in the last whole virtual second",
            value: format!("{p95:.2}"),
            mood: if p95 >= 10.0 {
                Some("bad")
            } else if p95 >= 1.0 {
                Some("warn")
            } else {
                None
            },
        },
        Stat {
            id: "stat-threads-running",
            label: "threads running",
            title: "Threads_running: client sessions inside a statement now",
            value: format::int(s.threads_running),
            mood: None,
        },
        Stat {
            id: "stat-time",
            label: "virtual time, s",
            title: "Virtual seconds since the simulated server started",
            value: format::secs(s.now),
            mood: None,
        },
    ];
    let title_id = match &props.heading {
        Some(h) => format!(
            "stats-title-{}",
            h.chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
        ),
        None => "stats-title".to_string(),
    };
    html! {
        <section aria-labelledby={title_id.clone()} data-testid="server-status" data-tick={s.now.as_ns().to_string()}>
            <h2 class="panel-title" id={title_id.clone()}>
                <span>{ "Server status" }</span>
                if let Some(h) = props.heading.clone() {
                    <span class="title-plain title-strong">{ h }</span>
                }
                if s.dict_sys_held {
                    <span class="title-plain title-strong title-warning" data-testid="dict-sys-held">{ "dict_sys held" }</span>
                }
            </h2>
            <dl class="stats">
                { for items.into_iter().map(stat) }
            </dl>
        </section>
    }
}
