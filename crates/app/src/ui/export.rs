//! The Export menu: metrics as CSV and JSON (the CLI's columns), the event log as
//! NDJSON, the pool map or the throughput chart as PNG, and what the user typed as a
//! session script. The texts are the model's (`model::export`), made by the worker
//! answering an ask; this file makes the files (a Blob and a download link) and
//! reads the canvases, which the page draws.

use crate::canvas::pane_canvases::Canvases;
pub use crate::model::export::TextExport;
use crate::ui::hooks::EnginesProxy;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, Url};
use yew::prelude::*;

/// A text file, `(name, text)`, or why it could not be made.
pub type TextFile = Result<(String, String), String>;

/// Asks for a text export; the callback gets the file with the worker's answer.
pub type TextAsk = Callback<(TextExport, Callback<TextFile>)>;

/// The callback that makes each text export from the main engine, wherever it runs.
pub fn texts(engines: &EnginesProxy) -> TextAsk {
    let engines = engines.clone();
    Callback::from(move |(kind, done): (TextExport, Callback<TextFile>)| {
        engines.export(kind, move |file| done.emit(file));
    })
}

/// Properties of [`ExportMenu`].
#[derive(Properties, PartialEq, Debug)]
pub struct ExportProps {
    /// Makes a text export.
    pub texts: TextAsk,
    /// The main engine's canvases, for the PNGs.
    pub canvases: Canvases,
}

/// The Export button and its menu.
#[function_component(ExportMenu)]
pub fn export_menu(props: &ExportProps) -> Html {
    let open = use_state(|| false);
    let error = use_state(|| None::<String>);
    let on_toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| {
            if !*open {
                crate::ui::hooks::focus_soon(".export-menu button");
            }
            open.set(!*open)
        })
    };
    let text_item = |kind: TextExport, id: &'static str, label: &'static str| {
        let (texts, error) = (props.texts.clone(), error.clone());
        let onclick = Callback::from(move |_: MouseEvent| {
            let error = error.clone();
            let done = Callback::from(move |file: TextFile| {
                let made = file.and_then(|(name, body)| download_text(&name, kind.mime(), &body));
                error.set(made.err());
            });
            texts.emit((kind, done));
        });
        html! { <button type="button" data-testid={id} {onclick}>{ label }</button> }
    };
    let png_item = |canvas: NodeRef, id: &'static str, label: &'static str, name: &'static str| {
        let error = error.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            error.set(download_png(&canvas, name).err());
        });
        html! { <button type="button" data-testid={id} {onclick}>{ label }</button> }
    };
    let c = &props.canvases;
    html! {
        <span class="export">
            <button type="button" data-testid="export" data-popup="" title="Download the metrics, the event log, a picture or your statements" aria-expanded={if *open { "true" } else { "false" }} onclick={on_toggle}>{ "Export" }</button>
            if *open {
                <span class="export-menu" role="group" aria-label="Export">
                    { text_item(TextExport::MetricsCsv, "export-csv", "Metrics, CSV (ddlscope run's columns)") }
                    { text_item(TextExport::MetricsJson, "export-json", "Metrics, JSON lines") }
                    { text_item(TextExport::Events, "export-events", "Event log, NDJSON") }
                    { png_item(c.map.clone(), "export-map-png", "Buffer-pool map, PNG", "ddlscope-pool-map.png") }
                    { png_item(c.charts.tps.canvas.clone(), "export-chart-png", "Throughput chart, PNG", "ddlscope-throughput.png") }
                    { text_item(TextExport::Script, "export-script", "What you typed, as a session script") }
                    <small>{ "Replay a script with: ddlscope script FILE" }</small>
                    if let Some(e) = (*error).clone() {
                        <small role="alert">{ e }</small>
                    }
                </span>
            }
        </span>
    }
}

/// Offers `body` as the file `name`.
fn download_text(name: &str, mime: &str, body: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&body.into());
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "the browser could not make the file".to_string())?;
    let url = Url::create_object_url_with_blob(&blob)
        .map_err(|_| "the browser could not make the file's address".to_string())?;
    let result = click_link(&url, name);
    let _ = Url::revoke_object_url(&url);
    result
}

/// Offers `canvas` as the PNG `name`.
fn download_png(canvas: &NodeRef, name: &str) -> Result<(), String> {
    let canvas = canvas
        .cast::<HtmlCanvasElement>()
        .ok_or_else(|| "that panel is not on the page".to_string())?;
    let url = canvas
        .to_data_url_with_type("image/png")
        .map_err(|_| "the browser could not encode the picture".to_string())?;
    click_link(&url, name)
}

fn click_link(href: &str, name: &str) -> Result<(), String> {
    let document = gloo::utils::document();
    let a: HtmlAnchorElement = document
        .create_element("a")
        .ok()
        .and_then(|el| el.dyn_into().ok())
        .ok_or_else(|| "the browser could not make a link".to_string())?;
    a.set_href(href);
    a.set_download(name);
    a.click();
    Ok(())
}
