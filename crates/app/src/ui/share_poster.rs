//! The Share dialog's Poster tab: this moment's pool map as a PNG at twice the
//! page's resolution, painted whole by the worker from the main engine (not read off
//! the canvas, which may still be repainting a band), its labels drawn as the canvas
//! draws them, shown and offered for download; and the same picture from the command
//! line (`ddlscope poster` takes the link).

use crate::canvas::pool_map::poster_png;
use crate::canvas::theme::dark_theme;
use crate::model::format;
use crate::ui::hooks::EnginesProxy;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// Device pixels per CSS pixel of the poster.
pub const POSTER_DPR: f64 = 2.0;

/// A poster made: its PNG as a `data:` address, the file's name, its CSS size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poster {
    /// `data:image/png;base64,…`.
    pub url: String,
    /// The download's file name.
    pub name: String,
    /// Its size in CSS pixels (half its pixels).
    pub css: (u32, u32),
}

/// Makes the poster of this moment and gives it (or why not) to the callback given.
pub type PosterAsk = Callback<Callback<Result<Poster, String>>>;

/// The [`PosterAsk`] of the main engine's map, as wide as the map canvas `map`
/// shows it, in the page's colours.
pub fn poster_ask(engines: &EnginesProxy, map: NodeRef) -> PosterAsk {
    let engines = engines.clone();
    Callback::from(move |done: Callback<Result<Poster, String>>| {
        let Some(canvas) = map.cast::<HtmlCanvasElement>() else {
            done.emit(Err(
                "The map is not on the page: show it (Panels) to make its poster.".into(),
            ));
            return;
        };
        let css = u32::try_from(canvas.client_width()).unwrap_or(0).max(1);
        let query = gloo::utils::window()
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten();
        let dark = dark_theme(query.as_ref());
        let width = (f64::from(css) * POSTER_DPR).round() as u32;
        engines.poster(width, POSTER_DPR, dark, move |result| {
            done.emit(result.and_then(|(patch, rgba)| {
                Ok(Poster {
                    url: poster_png(&patch, &rgba, dark)?,
                    name: format!("ddlscope-{}s@2x.png", format::secs(patch.now)),
                    css: (css, (f64::from(patch.height) / POSTER_DPR).round() as u32),
                })
            }));
        });
    })
}

/// Properties of [`PosterTab`].
#[derive(Properties, PartialEq, Debug)]
pub struct PosterTabProps {
    /// Makes the poster.
    pub make: PosterAsk,
    /// The link of the moment, for the command line.
    pub link: AttrValue,
}

/// The Poster tab: asks for the poster when shown, then shows it with its download.
#[function_component(PosterTab)]
pub fn poster_tab(props: &PosterTabProps) -> Html {
    let poster = use_state(|| None::<Result<Poster, String>>);
    {
        let (poster, make) = (poster.clone(), props.make.clone());
        use_effect_with(props.link.clone(), move |_| {
            poster.set(None);
            make.emit(Callback::from(move |p| poster.set(Some(p))));
        });
    }
    let command = format!("ddlscope poster '{}' --dpr 2 -o moment.png", props.link);
    html! {
        <div class="share-poster" data-testid="share-poster">
            { match &*poster {
                None => html! { <p>{ "Painting this moment's map at 2×…" }</p> },
                Some(Err(e)) => html! { <p role="alert" data-testid="share-poster-error">{ e.clone() }</p> },
                Some(Ok(p)) => html! {
                    <>
                        <img class="share-poster-image" data-testid="share-poster-image" src={p.url.clone()}
                            width={p.css.0.to_string()} height={p.css.1.to_string()} alt="The buffer-pool map at this moment" />
                        <a class="share-poster-download" data-testid="share-poster-download" href={p.url.clone()} download={p.name.clone()}>
                            { format!("Download {} (2×)", p.name) }
                        </a>
                    </>
                },
            } }
            <small>{ "From the command line: " }<code data-testid="share-poster-command">{ command }</code></small>
            <small>{ "Host the file and give it to an embed as poster=https://…/moment.png." }</small>
        </div>
    }
}
