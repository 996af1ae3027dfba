//! The map panel: title, canvas, tooltip and legend. The frame loop does the drawing.

use super::cursor::{CursorMove, MapCursor};
use super::fit::{css_height, Layout};
use crate::canvas::theme::{self, Theme};
use crate::model::snapshot::TableInfo;
use ddlscope_engine::SpaceId;
use web_sys::{FocusEvent, HtmlCanvasElement, KeyboardEvent};
use yew::prelude::*;

/// Asks for the tooltip at a point; `done` gets its text when the worker answers.
pub type Inspect = Callback<InspectAsk>;

/// A tooltip asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct InspectAsk {
    /// CSS px from the canvas's left edge.
    pub x: f64,
    /// CSS px from the canvas's top edge.
    pub y: f64,
    /// The canvas's CSS width.
    pub width: f64,
    /// Gets the tooltip's text (`None`: nothing there).
    pub done: Callback<Option<String>>,
}

/// Properties of [`PoolMap`].
#[derive(Properties, PartialEq, Debug)]
pub struct PoolMapProps {
    /// The canvas the frame loop draws into.
    pub canvas: NodeRef,
    /// Buffer-pool instances (one band each).
    pub instances: u16,
    /// The tables, for the legend.
    pub tables: Vec<TableInfo>,
    /// What the map shows, in words (`model::snapshot::map_summary`).
    #[prop_or_default]
    pub summary: AttrValue,
    /// What the frame under a point is (CSS px from the canvas's top left, and the
    /// canvas's CSS width): the tooltip's text.
    #[prop_or_default]
    pub inspect: Option<Inspect>,
}

/// A tooltip on screen: where (CSS px), the canvas's width, the text, and whether the
/// keyboard cursor asked for it (then it is also read out).
#[derive(Clone, Debug, PartialEq)]
struct Tip {
    x: f64,
    y: f64,
    width: f64,
    text: String,
    from_keys: bool,
}

/// Asks the worker for the tooltip at (`x`, `y`) and shows its answer, unless the
/// pointer left (or the focus went) since: `left` counts those, `asked` is its value now.
fn ask_tip(
    inspect: &Inspect,
    tip: &UseStateHandle<Option<Tip>>,
    left: &std::rc::Rc<std::cell::RefCell<u32>>,
    (x, y, width): (f64, f64, f64),
    from_keys: bool,
) {
    let (tip, left) = (tip.clone(), left.clone());
    let asked = *left.borrow();
    inspect.emit(InspectAsk {
        x,
        y,
        width,
        done: Callback::from(move |text: Option<String>| {
            if *left.borrow() == asked {
                tip.set(text.map(|text| Tip {
                    x,
                    y,
                    width,
                    text,
                    from_keys,
                }));
            }
        }),
    });
}

/// Whether `el` has the focus from the keyboard (Tab), not from a click: only then do
/// the arrows move its cursor. A click into an embedded player leaves them to the
/// host page (a reveal.js deck's slides: `web/embed-host.js`). A press of the mouse
/// marks the canvas ([`mark_pointer_focus`]) until it loses the focus. (Chromium's
/// `:focus-visible` cannot tell: a key pressed after a click turns it on.)
pub fn keyboard_focused(el: &web_sys::Element) -> bool {
    !el.has_attribute(POINTER_FOCUS)
}

/// The attribute a press of the mouse leaves on a canvas until it loses the focus.
const POINTER_FOCUS: &str = "data-pointer-focus";

/// Marks the canvas a mouse button went down on: its focus came from the pointer.
pub fn mark_pointer_focus(e: &MouseEvent) {
    if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
        let _ = el.set_attribute(POINTER_FOCUS, "");
    }
}

/// Clears the mark as the canvas loses the focus.
pub fn clear_pointer_focus(e: &FocusEvent) {
    if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
        let _ = el.remove_attribute(POINTER_FOCUS);
    }
}

/// The canvas's CSS width, whole pixels (the map's columns).
fn canvas_columns(canvas: &HtmlCanvasElement) -> u32 {
    canvas.get_bounding_client_rect().width().floor().max(1.0) as u32
}

/// The tooltip box, beside its point on the side with room.
fn tip_box(t: &Tip) -> Html {
    let style = if t.x < t.width / 2.0 {
        format!("left: {:.0}px; top: {:.0}px", t.x + 12.0, t.y + 14.0)
    } else {
        format!(
            "right: {:.0}px; top: {:.0}px",
            t.width - t.x + 12.0,
            t.y + 14.0
        )
    };
    html! {
        <div class="map-tip" data-testid="map-tip" role="tooltip" ~style={style}>{ t.text.clone() }</div>
    }
}

/// The keyboard cursor's marker over its band.
fn cursor_marker(cursor: Option<MapCursor>, instances: u16, columns: u32) -> Html {
    let Some(c) = cursor else {
        return Html::default();
    };
    let (left, top, height) = c.marker(&Layout::new(instances, columns, 1.0));
    html! {
        <div class="map-cursor" data-testid="map-cursor" aria-hidden="true"
            ~style={format!("left: {left:.0}px; top: {top:.0}px; height: {height:.0}px")}></div>
    }
}

/// The legend: the tables' colours, then the states and the key.
fn legend(tables: &[TableInfo]) -> Html {
    let first_space = tables.first().map_or(SpaceId(1), |t| t.space);
    let swatch = |style: String, name: &str, title: &str| {
        html! { <li title={title.to_string()}><span class="swatch" ~style={style}></span>{ name.to_string() }</li> }
    };
    html! {
        <div class="legend-line">
            <ul class="legend" data-testid="bufpool-legend">
                { for tables.iter().map(|t| {
                    let colour = format!("--swatch: {}", theme::css(theme::space_colour(t.space)));
                    let name = if t.dropped { format!("{} (dropped)", t.name) } else { t.name.clone() };
                    html! { <li><span class="swatch" ~style={colour}></span>{ name }</li> }
                }) }
                { swatch(format!("--swatch: {}", theme::css(theme::dirty_colour(first_space))), "dirty", "dirty: a darker shade of the table's colour") }
                { swatch(format!("background: {}", theme::stale_swatch_css(first_space)), "stale", "stale: a dropped table's pages not yet freed (8.0.23+)") }
                <li><span class="swatch free"></span>{ "free" }</li>
            </ul>
            <details class="legend-more">
                <summary>{ "key" }</summary>
                <ul class="legend">
                    <li><span class="swatch" ~style={format!("background: {}", theme::ahi_swatch_css(first_space))}></span>{ "dotted: has adaptive-hash-index entries" }</li>
                    <li><span class="swatch" ~style={format!("--swatch: {}", theme::swatch_css(|t| t.memory))}></span>{ "AHI / lock memory" }</li>
                    <li><span class="swatch" ~style={format!("--swatch: {}", theme::css(Theme::LIGHT.io))}></span>{ "being read or written" }</li>
                    <li><span class="swatch" ~style={format!("--swatch: {}; width: 3px", theme::css(Theme::LIGHT.cursor))}></span>{ "scan cursor, holding the instance mutex" }</li>
                    <li><span class="swatch" ~style={format!("--swatch: {}", theme::swatch_css(|t| t.freed))}></span>{ "passed by the scan: freed when it releases the mutex" }</li>
                    <li><span class="swatch swatch-midpoint"></span>{ "old/young midpoint" }</li>
                </ul>
            </details>
        </div>
    }
}

/// The map panel: title, canvas and legend. The frame loop does the drawing. The
/// pointer's tooltip and the keyboard cursor (focus the map, then the arrow keys) ask
/// the worker what the frame under them is; the cursor's answer is also read out.
#[function_component(PoolMap)]
pub fn pool_map(props: &PoolMapProps) -> Html {
    let height = format!("height: {}px", css_height(props.instances));
    let tip = use_state(|| None::<Tip>);
    let cursor = use_state(|| None::<MapCursor>);
    let columns = use_state(|| 1u32);
    // Counts the pointer's leaving and the focus going: an answer asked for before
    // either is dropped.
    let left = use_mut_ref(|| 0u32);
    let on_move = {
        let (tip, left) = (tip.clone(), left.clone());
        let inspect = props.inspect.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(inspect) = inspect.as_ref() else {
                return;
            };
            let canvas: HtmlCanvasElement = e.target_unchecked_into();
            let rect = canvas.get_bounding_client_rect();
            let x = f64::from(e.client_x()) - rect.left();
            let y = f64::from(e.client_y()) - rect.top();
            ask_tip(inspect, &tip, &left, (x, y, rect.width()), false);
        })
    };
    let on_leave = {
        let (tip, left) = (tip.clone(), left.clone());
        Callback::from(move |_: MouseEvent| {
            *left.borrow_mut() += 1;
            tip.set(None);
        })
    };
    let instances = props.instances;
    // Moves the cursor (or puts it where it was, on focus) and reads its frame.
    let read_at = {
        let (tip, left, cursor, columns) =
            (tip.clone(), left.clone(), cursor.clone(), columns.clone());
        let inspect = props.inspect.clone();
        move |canvas: &HtmlCanvasElement, m: Option<CursorMove>| {
            let cols = canvas_columns(canvas);
            let at = cursor.unwrap_or_default();
            let at = match m {
                Some(m) => at.moved(m, instances, cols),
                None => at.clamped(instances, cols),
            };
            cursor.set(Some(at));
            columns.set(cols);
            if let Some(inspect) = inspect.as_ref() {
                let (x, y) = at.point(&Layout::new(instances, cols, 1.0));
                ask_tip(inspect, &tip, &left, (x, y, f64::from(cols)), true);
            }
        }
    };
    let on_key = {
        let read_at = read_at.clone();
        Callback::from(move |e: KeyboardEvent| {
            let canvas: HtmlCanvasElement = e.target_unchecked_into();
            if !keyboard_focused(&canvas) {
                return;
            }
            let Some(m) = CursorMove::from_key(&e.key(), e.shift_key(), canvas_columns(&canvas))
            else {
                return;
            };
            e.prevent_default();
            read_at(&canvas, Some(m));
        })
    };
    let on_focus = Callback::from(move |e: FocusEvent| {
        let canvas: HtmlCanvasElement = e.target_unchecked_into();
        if keyboard_focused(&canvas) {
            read_at(&canvas, None);
        }
    });
    let on_blur = {
        let (tip, cursor) = (tip.clone(), cursor.clone());
        Callback::from(move |e: FocusEvent| {
            clear_pointer_focus(&e);
            *left.borrow_mut() += 1;
            cursor.set(None);
            tip.set(None);
        })
    };
    let read_out = (*tip)
        .as_ref()
        .filter(|t| t.from_keys)
        .map(|t| t.text.clone());
    html! {
        <section class="panel map" aria-labelledby="map-title">
            <h2 class="panel-title" id="map-title">
                <span>{ "Buffer pool map" }</span>
                <span class="title-plain">{ "LRU head (young) → tail (old), then free" }</span>
            </h2>
            <div class="map-wrap">
                <canvas
                    ref={props.canvas.clone()}
                    data-testid="bufpool-map"
                    data-cursor=""
                    tabindex="0"
                    ~style={height}
                    role="img"
                    aria-label={props.summary.clone()}
                    aria-describedby="map-keys"
                    onmousemove={on_move.clone()}
                    onclick={on_move}
                    onmouseleave={on_leave}
                    onmousedown={Callback::from(|e: MouseEvent| mark_pointer_focus(&e))}
                    onkeydown={on_key}
                    onfocus={on_focus}
                    onblur={on_blur}
                />
                { cursor_marker(*cursor, instances, *columns) }
                if let Some(t) = (*tip).as_ref() { { tip_box(t) } }
                <p id="map-keys" class="visually-hidden">{ "Arrow keys move a cursor over the frames: left and right along an instance's LRU list, up and down between instances, Home and End to its ends." }</p>
                <p class="visually-hidden" data-testid="map-read" aria-live="polite">{ read_out.unwrap_or_default() }</p>
            </div>
            { legend(&props.tables) }
        </section>
    }
}
