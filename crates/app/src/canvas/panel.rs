//! What every canvas panel does the same way: size the pixel buffer to the CSS box,
//! get the 2D context, and (for the plain ones) the panel markup around the canvas.

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// How much larger than its own a canvas drawing `own` px text draws everything
/// (text, lanes, columns), so that in presenter mode its text is 20 px on screen; 1
/// outside it. Its CSS height grows as much (styles.css, `.scales-text`).
pub fn text_scale(own: f64) -> f64 {
    super::host_scale::label_px(own) / own
}

/// Sizes the canvas's pixel buffer to its CSS width (as last laid out: see
/// [`super::css_width`]) and `css_height` × device pixel ratio, only when that changed
/// (resizing clears the canvas). Returns the size in device pixels: (0, 0), the
/// canvas untouched, until its width is known.
pub fn fit(canvas: &HtmlCanvasElement, css_height: f64, dpr: f64) -> (u32, u32) {
    let Some(css_width) = super::css_width::css_width(canvas) else {
        return (0, 0);
    };
    let w = (css_width * dpr).round() as u32;
    let h = (css_height * dpr).round() as u32;
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    (w, h)
}

/// The canvas's 2D context.
pub fn context_2d(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, String> {
    canvas
        .get_context("2d")
        .map_err(|_| "no 2d context".to_string())?
        .ok_or("no 2d context")?
        .dyn_into()
        .map_err(|_| "not a 2d context".to_string())
}

/// Properties of [`CanvasPanel`].
#[derive(yew::Properties, PartialEq, Debug)]
pub struct CanvasPanelProps {
    /// The heading's element id (for `aria-labelledby`).
    pub title_id: yew::AttrValue,
    /// The heading.
    pub title: yew::AttrValue,
    /// What the panel shows, beside the heading.
    pub children: yew::Html,
    /// The canvas the frame loop draws on.
    pub canvas: yew::NodeRef,
    /// The canvas's `data-testid`.
    pub testid: yew::AttrValue,
    /// The canvas's accessible description.
    pub label: yew::AttrValue,
    /// The canvas's height, CSS px.
    pub css_height: f64,
    /// The size of the text the canvas draws, CSS px: in presenter mode the canvas
    /// grows by as much as its text must to reach 20 px on screen (styles.css;
    /// [`text_scale`]).
    pub text_px: f64,
}

/// A panel holding one canvas under a heading: the frame loop draws the canvas.
#[yew::function_component(CanvasPanel)]
pub fn canvas_panel(props: &CanvasPanelProps) -> yew::Html {
    yew::html! {
        <section class="panel" aria-labelledby={props.title_id.clone()}>
            <h2 class="panel-title" id={props.title_id.clone()}>
                <span>{ props.title.clone() }</span>
                <span class="title-plain">
                    { props.children.clone() }
                </span>
            </h2>
            <canvas
                ref={props.canvas.clone()}
                data-testid={props.testid.clone()}
                role="img"
                aria-label={props.label.clone()}
                class="panel-canvas scales-text"
                ~style={format!("--canvas-h: {}px; --canvas-text: {}", props.css_height, props.text_px)}
            />
        </section>
    }
}
