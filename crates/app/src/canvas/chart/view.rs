//! The chart panels: title, canvas, legend, and the pointer handlers that turn a
//! click on a band into a seek. The frame loop does the drawing.

use super::canvases::{ChartSlot, Which};
use super::draw::DATA;
use super::geometry::Drawn;
use crate::canvas::theme::{self, Rgb, Theme};
use ddlscope_engine::Tick;
use web_sys::{FocusEvent, HtmlCanvasElement, KeyboardEvent, MouseEvent};
use yew::prelude::*;

/// Properties of the chart panels.
#[derive(Properties, PartialEq, Debug)]
pub struct ChartProps {
    /// The canvas and what its last draw left.
    pub slot: ChartSlot,
    /// Called with a band's start when the user clicks the band.
    pub on_seek: Callback<Tick>,
}

/// A legend entry: a swatch in `swatch_style`, a name, and a tooltip.
fn entry(swatch_style: String, name: &str, title: &str) -> Html {
    html! {
        <li title={title.to_string()}><span class="swatch" ~style={swatch_style}></span>{ name.to_string() }</li>
    }
}

/// A band's legend entry (presenter mode leaves these out: the bands are labelled on
/// the plots).
fn band_entry(swatch_style: String, name: &str, title: &str) -> Html {
    html! {
        <li class="band-entry" title={title.to_string()}><span class="swatch" ~style={swatch_style}></span>{ name.to_string() }</li>
    }
}

/// A legend entry in a theme colour.
fn themed(pick: fn(&Theme) -> Rgb, name: &str, title: &str) -> Html {
    entry(
        format!("--swatch: {}", theme::swatch_css(pick)),
        name,
        title,
    )
}

/// The legend entries of the bands.
fn band_entries() -> Html {
    let band = |pick: fn(&Theme) -> Rgb| {
        format!(
            "--swatch: color-mix(in srgb, {} 40%, transparent)",
            theme::swatch_css(pick)
        )
    };
    html! {
        <>
            { band_entry(band(|t| t.ddl_band), "statement", "A statement from the console, from StatementStarted to StatementFinished. Click a band to jump there.") }
            { band_entry(band(|t| t.lock_band), "lock wait ≥ 2 s", "Seconds in a row (two or more) in which sessions waited for a metadata lock or a row lock. Click a band to jump there.") }
            { band_entry(band(|t| t.failover), "failover", "Writes stalled until the HA probe failed over (the solid edge). Click a band to jump there.") }
        </>
    }
}

/// The canvas of chart `which`, with the panel's seek.
fn canvas(which: Which, props: &ChartProps, label: &'static str) -> Html {
    html! {
        <ChartCanvas {which} slot={props.slot.clone()} on_seek={props.on_seek.clone()} {label} />
    }
}

/// Properties of [`ChartCanvas`].
#[derive(Properties, PartialEq, Debug)]
struct ChartCanvasProps {
    which: Which,
    slot: ChartSlot,
    on_seek: Callback<Tick>,
    label: &'static str,
}

/// The band the keyboard cursor is on: its place among the chart's stops, its box in
/// CSS px (left, top, width, height) and what it reads out.
#[derive(Clone, Debug, PartialEq)]
struct BandCursor {
    index: usize,
    at: (f64, f64, f64, f64),
    text: String,
    seek_to: Tick,
}

/// The stop `index` would move to after `key` among `count` stops (`None`: the key is
/// not the cursor's, or there are no stops).
fn band_step(key: &str, index: Option<usize>, count: usize) -> Option<usize> {
    let last = count.checked_sub(1)?;
    Some(match (key, index) {
        ("ArrowRight" | "ArrowDown", Some(i)) => (i + 1).min(last),
        ("ArrowLeft" | "ArrowUp", Some(i)) => i.saturating_sub(1),
        ("ArrowRight" | "ArrowDown" | "ArrowLeft" | "ArrowUp" | "Home", _) => 0,
        ("End", _) => last,
        _ => return None,
    })
}

/// The cursor on stop `index` of what the chart last drew, if it is there.
fn band_cursor(drawn: &Drawn, index: usize) -> Option<BandCursor> {
    let stops = drawn.stops();
    let b = stops.get(index)?;
    Some(BandCursor {
        index,
        at: (b.x0, b.y0, (b.x1 - b.x0).max(2.0), b.y1 - b.y0),
        text: format!(
            "{} ({} of {}). Enter jumps there.",
            b.title,
            index + 1,
            stops.len()
        ),
        seek_to: b.seek_to,
    })
}

/// A chart's canvas with its pointer and keyboard handlers: a click on a band seeks to
/// the band's start, and over a band the cursor is a pointer and the tooltip tells the
/// band's story; focused, the arrow keys (Home, End) step through the bands, each read
/// out, and Enter seeks to the one the cursor is on.
#[function_component(ChartCanvas)]
fn chart_canvas(props: &ChartCanvasProps) -> Html {
    let cursor = use_state(|| None::<BandCursor>);
    let at = |e: &MouseEvent| (f64::from(e.offset_x()), f64::from(e.offset_y()));
    let onclick = {
        let (drawn, on_seek) = (props.slot.drawn.clone(), props.on_seek.clone());
        Callback::from(move |e: MouseEvent| {
            let (x, y) = at(&e);
            let hit = drawn.borrow().hit(x, y).map(|b| b.seek_to);
            if let Some(t) = hit {
                on_seek.emit(t);
            }
        })
    };
    let onmousemove = {
        let drawn = props.slot.drawn.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(canvas) = e.target_dyn_into::<HtmlCanvasElement>() else {
                return;
            };
            let (x, y) = at(&e);
            let title = drawn.borrow().hit(x, y).map(|b| b.title.clone());
            hover(&canvas, title.as_deref());
        })
    };
    let onmouseleave = Callback::from(|e: MouseEvent| {
        if let Some(canvas) = e.target_dyn_into::<HtmlCanvasElement>() {
            hover(&canvas, None);
        }
    });
    let onkeydown = {
        let (drawn, on_seek, cursor) = (
            props.slot.drawn.clone(),
            props.on_seek.clone(),
            cursor.clone(),
        );
        Callback::from(move |e: KeyboardEvent| {
            let canvas: HtmlCanvasElement = e.target_unchecked_into();
            if !crate::canvas::pool_map::keyboard_focused(&canvas) {
                return;
            }
            if e.key() == "Enter" {
                if let Some(c) = cursor.as_ref() {
                    e.prevent_default();
                    on_seek.emit(c.seek_to);
                }
                return;
            }
            let drawn = drawn.borrow();
            let index = cursor.as_ref().map(|c| c.index);
            let Some(next) = band_step(&e.key(), index, drawn.stops().len()) else {
                return;
            };
            e.prevent_default();
            cursor.set(band_cursor(&drawn, next));
        })
    };
    let onblur = {
        let cursor = cursor.clone();
        Callback::from(move |e: FocusEvent| {
            crate::canvas::pool_map::clear_pointer_focus(&e);
            cursor.set(None);
        })
    };
    let which = props.which;
    let read_out = match cursor.as_ref() {
        Some(c) => c.text.clone(),
        None => String::new(),
    };
    html! {
        <div class="chart-wrap">
            <canvas
                ref={props.slot.canvas.clone()}
                data-testid={which.test_id()}
                data-cursor=""
                tabindex="0"
                ~style={format!("height: {}px", which.css_height())}
                role="img"
                aria-label={props.label}
                aria-describedby={format!("{}-keys", which.test_id())}
                {onclick}
                {onmousemove}
                {onmouseleave}
                onmousedown={Callback::from(|e: MouseEvent| crate::canvas::pool_map::mark_pointer_focus(&e))}
                {onkeydown}
                {onblur}
            />
            if let Some(c) = cursor.as_ref() {
                <div class="band-cursor" data-testid="band-cursor" aria-hidden="true"
                    ~style={format!("left: {:.0}px; top: {:.0}px; width: {:.0}px; height: {:.0}px", c.at.0, c.at.1, c.at.2, c.at.3)}></div>
            }
            <p id={format!("{}-keys", which.test_id())} class="visually-hidden">{ "The arrow keys step through the chart's bands (statements, lock waits, failovers), Home and End to the first and last; Enter jumps to the one read out." }</p>
            <p class="visually-hidden" data-testid="band-read" aria-live="polite">{ read_out }</p>
        </div>
    }
}

/// Shows `title` as the canvas's tooltip and marks the canvas `data-over-band` (the
/// stylesheet gives it a pointer cursor), or neither. Straight on the element, so
/// moving the mouse never re-renders the panel.
fn hover(canvas: &HtmlCanvasElement, title: Option<&str>) {
    match title {
        Some(t) => {
            if canvas.get_attribute("title").as_deref() != Some(t) {
                let _ = canvas.set_attribute("title", t);
                let _ = canvas.set_attribute("data-over-band", "");
            }
        }
        None => {
            let _ = canvas.remove_attribute("title");
            let _ = canvas.remove_attribute("data-over-band");
        }
    }
}

/// The throughput and latency chart panel.
#[function_component(TpsChart)]
pub fn tps_chart(props: &ChartProps) -> Html {
    html! {
        <section class="panel charts" aria-labelledby="tps-title">
            <h2 class="panel-title" id="tps-title">
                <span>{ "Throughput and latency" }</span>
                <span class="title-plain">{ "right axis: latency, log scale" }</span>
            </h2>
            { canvas(Which::Tps, props, "Chart of transactions per second and statement latency (mean, 95th percentile, longest) over virtual time, with statements, lock waits and failovers as bands; click a band to jump there") }
            <ul class="legend">
                { themed(|t| t.qps, "tps", "Transactions committed per virtual second (left axis)") }
                { themed(|t| t.latency_avg, "latency avg", "Mean statement latency in the second (right axis)") }
                { themed(|t| t.latency_p95, "p95", "95th percentile statement latency in the second (right axis)") }
                { themed(|t| t.latency_max, "max", "Longest statement that finished in the second (right axis)") }
                { band_entries() }
            </ul>
        </section>
    }
}

/// The buffer-pool chart panel.
#[function_component(BpChart)]
pub fn bp_chart(props: &ChartProps) -> Html {
    html! {
        <section class="panel charts" aria-labelledby="chart-title">
            <h2 class="panel-title" id="chart-title">
                <span>{ "Buffer pool" }</span>
                <span class="title-plain">{ "Innodb_buffer_pool_*, per virtual second" }</span>
            </h2>
            { canvas(Which::Bp, props, "Chart of total, data, free, dirty, borrowed and stale buffer-pool pages, and below it the reads, read requests and waits for a free block per second, over virtual time, with bands; click a band to jump there") }
            <ul class="legend">
                { themed(|t| t.total_line, "total", "Innodb_buffer_pool_pages_total") }
                { entry(format!("--swatch: {}", theme::css(DATA)), "data", "Innodb_buffer_pool_pages_data: pages holding data, stale ones included") }
                { themed(|t| t.free_line, "free", "Innodb_buffer_pool_pages_free: blocks on the free lists") }
                { themed(|t| t.dirty_line, "dirty", "Innodb_buffer_pool_pages_dirty: modified pages not yet written") }
                { themed(|t| t.memory, "misc", "Innodb_buffer_pool_pages_misc: frames lent to the adaptive hash index and the lock heaps") }
                <li title="Pages of dropped tablespaces still in the LRU lists (8.0.23+); not a server status variable"><span class="swatch stale"></span>{ "stale" }</li>
                { themed(|t| t.read_requests_line, "read requests / s", "Innodb_buffer_pool_read_requests per second: page requests, hits included (lower plot, log scale)") }
                { themed(|t| t.reads_line, "reads / s", "Innodb_buffer_pool_reads per second: pages read from the device (lower plot)") }
                { themed(|t| t.wait_free_line, "wait_free / s", "Innodb_buffer_pool_wait_free per second: a thread found no free block and waited for the page cleaner (lower plot)") }
                { band_entries() }
            </ul>
        </section>
    }
}

/// The waits chart panel.
#[function_component(WaitsChart)]
pub fn waits_chart(props: &ChartProps) -> Html {
    html! {
        <section class="panel charts" aria-labelledby="waits-title">
            <h2 class="panel-title" id="waits-title">
                <span>{ "Waits" }</span>
                <span class="title-plain">{ "most waiting at once in each second" }</span>
            </h2>
            { canvas(Which::Waits, props, "Chart of sessions waiting for a metadata lock or a row lock, and threads queued for an internal latch, per virtual second, with bands; click a band to jump there") }
            <ul class="legend">
                { themed(|t| t.lock_band, "metadata lock", "Sessions waiting for a metadata lock (Waiting for table metadata lock, ...)") }
                { themed(|t| t.row_lock_line, "row lock", "Sessions waiting for an InnoDB row lock") }
                { themed(|t| t.latch_line, "latch", "Threads queued for dict_sys, LOCK_open, fil_sys or a buffer-pool mutex") }
                { band_entries() }
            </ul>
        </section>
    }
}
