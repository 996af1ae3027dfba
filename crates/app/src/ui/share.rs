//! Links in the browser: the fragment read when the page opens, the address bar kept
//! following the run (`history.replaceState`: a new input within a second, the
//! clock alone every ten seconds and when the page loses the focus), and the Share
//! button that shows and copies the link (its other tabs: `model::snippets`, the
//! poster `ui::share_poster`). The state and its encoding are the model's
//! (`model::link`, `model::replay`); this file only talks to `location`, `history`
//! and the clipboard.

use crate::model::link::{
    address_due, fragment_params, parse_fragment, unreadable, with_params, Address, LinkState,
};
use crate::model::panel_layout::PanelLayout;
use crate::model::snippets::Snippets;
use crate::model::state::AppState;
use crate::ui::hooks::EnginesProxy;
use crate::ui::share_poster::{PosterAsk, PosterTab};
use gloo::events::EventListener;
use gloo::timers::callback::Interval;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use yew::prelude::*;

/// How often the address bar may change, wall ms.
const SYNC_EVERY_MS: u32 = 1000;

/// What the page was opened with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Opening {
    /// The state the fragment carries, if any.
    pub state: Option<LinkState>,
    /// Its `key=value` parameters (embed options, lessons...), kept in later links.
    pub params: Vec<(String, String)>,
    /// Why the fragment could not be opened, for the banner.
    pub error: Option<String>,
}

impl Opening {
    /// A parameter's value.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads `location.hash`. A fragment that cannot be read gives the default page and
/// the reason.
pub fn opening() -> Opening {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    match parse_fragment(&hash) {
        Ok(f) => Opening {
            state: f.state,
            params: f.params,
            error: None,
        },
        Err(e) => Opening {
            error: Some(unreadable(&e)),
            ..Opening::default()
        },
    }
}

/// Whether the address's fragment carries a state payload (`v1.…`), not only
/// parameters: a shared moment, whose own settings say whether the script runs.
pub fn had_payload() -> bool {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    hash.trim_start_matches('#')
        .split('&')
        .any(|item| item.starts_with('v') && !item.contains('='))
}

/// The page's first state when it opens `link` (replayed to its tick in the
/// worker).
pub fn state_of(link: &LinkState) -> AppState {
    AppState {
        playing: !link.paused,
        speed: link.speed,
        scenario: link.scenario.clone(),
        profile: link.engine.clone(),
        knobs: link.knobs.clone(),
        compare: link.compare.clone(),
        layout: link.panel_layout(),
        ..AppState::default()
    }
}

/// The fragment of the engines now, with the panels as `layout` has them and `params`
/// after the state, to `done` with the worker's answer (never before the first
/// engine).
pub fn fragment_now(
    engines: &EnginesProxy,
    layout: &PanelLayout,
    params: Vec<(String, String)>,
    done: impl FnOnce(Address) + 'static,
) {
    engines.link(layout, move |encoded| {
        if let Some(link) = encoded {
            done(Address {
                fragment: with_params(link.encoded, &params),
                run: link.run,
            });
        }
    });
}

/// What makes the Share dialog's link: the main page's address with the fragment of
/// the engines now (panels as `layout`, the address bar's parameters after it).
pub fn url_maker(
    engines: &EnginesProxy,
    opened: Rc<Vec<(String, String)>>,
    layout: PanelLayout,
) -> Callback<Callback<String>> {
    let engines = engines.clone();
    Callback::from(move |done: Callback<String>| {
        let params = current_params(&opened);
        fragment_now(&engines, &layout, params, move |address| {
            done.emit(page_url("", &address.fragment));
        });
    })
}

/// The absolute address of `page` (`index.html`, `embed.html`) beside this one, with
/// `fragment`.
pub fn page_url(page: &str, fragment: &str) -> String {
    let href = gloo::utils::window().location().href().unwrap_or_default();
    let base = href.split('#').next().unwrap_or_default().to_string();
    let url = web_sys::Url::new_with_base(page, &base)
        .map(|u| u.href())
        .unwrap_or(base);
    format!("{url}#{fragment}")
}

/// The parameters the address bar carries now (another part of the page, a lesson,
/// may have changed them since it opened), or `opened` when it cannot be read; its
/// state is not read (this runs every second).
pub fn current_params(opened: &[(String, String)]) -> Vec<(String, String)> {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    fragment_params(&hash).unwrap_or_else(|_| opened.to_vec())
}

/// Whether a lesson owns the address (`#lesson=ID&step=N`, or `#lesson-url=URL&step=N`
/// for one's own): it does while open, and while its file is fetched.
fn lesson_open(params: &[(String, String)]) -> bool {
    params
        .iter()
        .any(|(k, _)| k == "lesson" || k == "lesson-url")
}

/// Keeps the address bar's fragment on the engines' state and the panels' `layout`
/// (which the page keeps current): asked for once a second, written at once when
/// the run's inputs or the panels changed, but when only the clock moved, every
/// [`MOMENT_EVERY_MS`](crate::model::link::MOMENT_EVERY_MS) (`address_due`), and
/// whenever the page loses the focus (to the address bar, say) or is hidden. With
/// the engines in the worker the state is asked for, and the address follows when
/// the answer comes.
#[hook]
pub fn use_link_sync(
    engines: &EnginesProxy,
    layout: Rc<RefCell<PanelLayout>>,
    params: Rc<Vec<(String, String)>>,
) {
    let engines = engines.clone();
    use_effect_with((), move |_| {
        let sync = Rc::new(address_sync(engines, layout, params));
        let interval = Interval::new(SYNC_EVERY_MS, {
            let sync = sync.clone();
            move || sync(false)
        });
        let window = gloo::utils::window();
        let blur = EventListener::new(&window, "blur", {
            let sync = sync.clone();
            move |_| sync(true)
        });
        let document = gloo::utils::document();
        let hidden = EventListener::new(&document, "visibilitychange", move |_| {
            if gloo::utils::document().hidden() {
                sync(true);
            }
        });
        move || drop((interval, blur, hidden))
    });
}

/// [`use_link_sync`]'s step: asks for the fragment of the moment and writes it when
/// it is due, or (`now`) whenever it differs.
fn address_sync(
    engines: EnginesProxy,
    layout: Rc<RefCell<PanelLayout>>,
    params: Rc<Vec<(String, String)>>,
) -> impl Fn(bool) {
    // The address written last and when, wall ms.
    let shown: Rc<RefCell<(Address, f64)>> = Rc::default();
    move |now: bool| {
        let params = current_params(&params);
        if lesson_open(&params) {
            return;
        }
        let shown = shown.clone();
        fragment_now(&engines, &layout.borrow(), params, move |next| {
            let at = js_sys::Date::now();
            let (last, since) = shown.borrow().clone();
            let due = if now {
                last.fragment != next.fragment
            } else {
                address_due(&last, &next, at - since)
            };
            // The lesson may have opened while the worker answered.
            if !due || lesson_open(&current_params(&[])) {
                return;
            }
            let url = format!("#{}", next.fragment);
            if let Ok(history) = gloo::utils::window().history() {
                let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
            }
            *shown.borrow_mut() = (next, at);
        });
    }
}

/// Properties of [`ShareButton`].
#[derive(Properties, PartialEq, Debug)]
pub struct ShareProps {
    /// Makes the link of the moment shown and gives it to the callback it is given
    /// (at once, or when the worker answers).
    pub make_url: Callback<Callback<String>>,
    /// The panels shown, in the embed's names (`model::snippets::embed_panel`), comma
    /// separated: what the embed snippets show.
    #[prop_or_default]
    pub panels: AttrValue,
    /// Two engines side by side: the snippets are taller.
    #[prop_or_default]
    pub comparing: bool,
    /// Makes the Poster tab's PNG of this moment.
    pub make_poster: PosterAsk,
}

/// The Share dialog's tabs: the link, then the same moment for other pages.
const TABS: [(&str, &str); 7] = [
    ("link", "Link"),
    ("iframe", "iframe"),
    ("component", "Web component"),
    ("hugo", "Hugo"),
    ("mdbook", "mdBook"),
    ("reveal", "reveal.js"),
    ("poster", "Poster"),
];

/// The text of tab `tab` for the moment `link`.
fn tab_text(tab: &str, link: &str, panels: &str, comparing: bool) -> String {
    let panels: Vec<&str> = panels.split(',').filter(|p| !p.is_empty()).collect();
    let s = Snippets::new(link, &panels, comparing);
    match tab {
        "iframe" => s.iframe,
        "component" => s.component,
        "hugo" => s.hugo,
        "mdbook" => s.mdbook,
        "reveal" => s.reveal,
        "poster" => format!("ddlscope poster '{link}' --dpr 2 -o moment.png"),
        _ => s.link,
    }
}

/// The Share button: shows the link of this moment, selected, and copies it; the
/// other tabs give the same moment as an iframe, the web component, a Hugo
/// shortcode, an mdBook page and a reveal.js slide, each copied when chosen.
#[function_component(ShareButton)]
pub fn share_button(props: &ShareProps) -> Html {
    let url = use_state(|| None::<String>);
    let copied = use_state(|| None::<bool>);
    let tab = use_state(|| "link");
    let on_share = {
        let (url, copied, make_url, tab) = (
            url.clone(),
            copied.clone(),
            props.make_url.clone(),
            tab.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            if url.is_some() {
                url.set(None);
                return;
            }
            let (url, copied) = (url.clone(), copied.clone());
            tab.set("link");
            make_url.emit(Callback::from(move |link: String| {
                copy(&link, copied.clone());
                url.set(Some(link));
            }));
        })
    };
    let on_focus = Callback::from(|e: FocusEvent| {
        if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
            input.select();
        } else if let Some(area) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
            area.select();
        }
    });
    let said = match *copied {
        Some(true) => "Copied to the clipboard.",
        Some(false) => "Select it and copy it (the clipboard is not available here).",
        None => "",
    };
    html! {
        <span class="share">
            <button type="button" data-testid="share" data-popup="" title="A link to this moment: the same run at the same virtual time" aria-expanded={if url.is_some() { "true" } else { "false" }} onclick={on_share}>{ "Share" }</button>
            if let Some(link) = (*url).clone() {
                <span class="share-pop" role="dialog" aria-label="Share this moment">
                    <span class="share-tabs" role="tablist">
                        { for TABS.iter().map(|(id, label)| {
                            let chosen = *tab == *id;
                            let onclick = {
                                let (tab, copied, link, panels, comparing) = (tab.clone(), copied.clone(), link.clone(), props.panels.clone(), props.comparing);
                                let id = *id;
                                Callback::from(move |_: MouseEvent| {
                                    tab.set(id);
                                    copy(&tab_text(id, &link, &panels, comparing), copied.clone());
                                })
                            };
                            html! {
                                <button type="button" role="tab" class="share-tab" aria-selected={if chosen { "true" } else { "false" }} data-testid={format!("share-tab-{id}")} {onclick}>{ *label }</button>
                            }
                        }) }
                    </span>
                    if *tab == "link" {
                        <input type="text" readonly=true data-testid="share-url" value={link} onfocus={on_focus} aria-label="Link" autofocus=true />
                    } else if *tab == "poster" {
                        <PosterTab make={props.make_poster.clone()} link={link.clone()} />
                    } else {
                        <textarea readonly=true rows="7" data-testid="share-snippet" aria-label="Snippet" onfocus={on_focus} value={tab_text(&tab, &link, &props.panels, props.comparing)} />
                    }
                    <small role="status">{ said }</small>
                </span>
            }
        </span>
    }
}

/// Writes `text` to the clipboard; `done` says whether it could.
fn copy(text: &str, done: UseStateHandle<Option<bool>>) {
    let clipboard = gloo::utils::window().navigator().clipboard();
    let promise = clipboard.write_text(text);
    wasm_bindgen_futures::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        done.set(Some(ok));
    });
}
