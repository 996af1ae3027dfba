//! The map panel: title, canvas, tooltip and legend. The frame loop does the drawing.

use super::fit::css_height;
use crate::canvas::theme::{self, Theme};
use crate::model::snapshot::TableInfo;
use ddlscope_engine::SpaceId;
use web_sys::HtmlCanvasElement;
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

/// The map panel: title, canvas and legend. The frame loop does the drawing.
#[function_component(PoolMap)]
pub fn pool_map(props: &PoolMapProps) -> Html {
    let height = format!("height: {}px", css_height(props.instances));
    let first_space = props.tables.first().map_or(SpaceId(1), |t| t.space);
    let tip = use_state(|| None::<(f64, f64, f64, String)>);
    // Counts the pointer's leaving: an answer asked for before it is dropped.
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
            let (x, y) = (
                f64::from(e.client_x()) - rect.left(),
                f64::from(e.client_y()) - rect.top(),
            );
            let w = rect.width();
            let (tip, left) = (tip.clone(), left.clone());
            let asked = *left.borrow();
            inspect.emit(InspectAsk {
                x,
                y,
                width: w,
                done: Callback::from(move |text: Option<String>| {
                    if *left.borrow() == asked {
                        tip.set(text.map(|text| (x, y, w, text)));
                    }
                }),
            });
        })
    };
    let on_leave = {
        let tip = tip.clone();
        Callback::from(move |_: MouseEvent| {
            *left.borrow_mut() += 1;
            tip.set(None);
        })
    };
    let swatch = |style: String, name: &str, title: &str| {
        html! { <li title={title.to_string()}><span class="swatch" ~style={style}></span>{ name.to_string() }</li> }
    };
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
                    ~style={height}
                    role="img"
                    aria-label={props.summary.clone()}
                    onmousemove={on_move.clone()}
                    onclick={on_move}
                    onmouseleave={on_leave}
                />
                if let Some((x, y, w, text)) = (*tip).clone() {
                    // Beside the pointer, on the side with room.
                    <div class="map-tip" data-testid="map-tip" role="tooltip" ~style={if x < w / 2.0 {
                        format!("left: {:.0}px; top: {:.0}px", x + 12.0, y + 14.0)
                    } else {
                        format!("right: {:.0}px; top: {:.0}px", w - x + 12.0, y + 14.0)
                    }}>{ text }</div>
                }
            </div>
            <div class="legend-line">
                <ul class="legend" data-testid="bufpool-legend">
                    { for props.tables.iter().map(|t| {
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
        </section>
    }
}
