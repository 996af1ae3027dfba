//! The reader's own lesson: a file picked or dropped on the page, a URL
//! (`#lesson-url=`, or typed into the lessons menu) and pasted text that opens again
//! as it changes (a live preview while writing one). Each is read by the engine's
//! own reader (`lesson::parse`, as `ddlscope lesson check` reads a file), so a
//! mistake is told with its line and field and the simulation runs on.

use crate::model::lesson::Own;
use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{DragEvent, File, HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

/// How long the pasted text rests before it is read again.
const PREVIEW_MS: u32 = 600;

/// Reads `file` and gives `done` the lesson in it, or what is wrong with it.
pub fn read_file(file: File, done: Callback<Result<Own, String>>) {
    let name = file.name();
    spawn_local(async move {
        let text = JsFuture::from(file.text()).await;
        let result = match text.ok().and_then(|t| t.as_string()) {
            Some(text) => Own::read(&name, &text, None),
            None => Err(format!("{name}: the file could not be read")),
        };
        done.emit(result);
    });
}

/// Why a fetch of `url` was refused, in words: the browser says only "Failed to
/// fetch" whether the server is down or did not allow this page to read it.
fn unreachable(url: &str) -> String {
    format!(
        "The lesson at {url} could not be fetched. Either the address cannot be \
         reached, or its server does not let other sites read it (CORS): it must \
         answer with the header `Access-Control-Allow-Origin: *` (GitHub's \
         raw.githubusercontent.com and gist.githubusercontent.com do). Otherwise \
         download the file and open it here with Lessons → Open a lesson file."
    )
}

/// Fetches the lesson at `url` and gives `done` the lesson, or why not.
pub fn fetch_url(url: String, done: Callback<Result<Own, String>>) {
    spawn_local(async move {
        let result = fetch_text(&url).await.and_then(|text| {
            let name = url.rsplit('/').next().unwrap_or(&url).to_string();
            Own::read(&name, &text, Some(url.clone()))
        });
        done.emit(result);
    });
}

async fn fetch_text(url: &str) -> Result<String, String> {
    let response = JsFuture::from(gloo::utils::window().fetch_with_str(url))
        .await
        .map_err(|_| unreachable(url))?;
    let response: web_sys::Response = response.unchecked_into();
    if !response.ok() {
        return Err(format!(
            "The lesson at {url} could not be fetched: the server answered {} {}.",
            response.status(),
            response.status_text()
        ));
    }
    let text = response.text().map_err(|_| unreachable(url))?;
    JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| format!("The lesson at {url} is not text."))
}

/// Opens a lesson file dropped anywhere on the page; `done` hears the lesson or
/// what is wrong with it. A drop that carries no file is left to the page.
#[hook]
pub fn use_lesson_drop(done: Callback<Result<Own, String>>) {
    use_effect_with((), move |_| {
        let window = gloo::utils::window();
        let over = EventListener::new_with_options(
            &window,
            "dragover",
            gloo::events::EventListenerOptions::enable_prevent_default(),
            |e| {
                let files = e
                    .dyn_ref::<DragEvent>()
                    .and_then(DragEvent::data_transfer)
                    .is_some_and(|d| d.types().includes(&"Files".into(), 0));
                if files {
                    e.prevent_default();
                }
            },
        );
        let dropped = EventListener::new_with_options(
            &window,
            "drop",
            gloo::events::EventListenerOptions::enable_prevent_default(),
            move |e| {
                let file = e
                    .dyn_ref::<DragEvent>()
                    .and_then(DragEvent::data_transfer)
                    .and_then(|d| d.files())
                    .and_then(|f| f.get(0));
                if let Some(file) = file {
                    e.prevent_default();
                    read_file(file, done.clone());
                }
            },
        );
        move || drop((over, dropped))
    });
}

/// Props of [`OwnLesson`].
#[derive(Properties, Clone, PartialEq)]
pub struct OwnProps {
    /// Opens a lesson read without fault.
    pub on_open: Callback<Own>,
}

/// The lessons menu's part for the reader's own lesson: a file, a URL, or text
/// pasted and opened again while it is written.
#[function_component(OwnLesson)]
pub fn own_lesson(props: &OwnProps) -> Html {
    let error = use_state(|| None::<String>);
    let status = use_state(String::new);
    let done = {
        let (error, status, on_open) = (error.clone(), status.clone(), props.on_open.clone());
        Callback::from(move |r: Result<Own, String>| match r {
            Ok(own) => {
                error.set(None);
                status.set(format!(
                    "Read '{}': {} steps, no mistakes.",
                    own.lesson.title,
                    own.lesson.steps.len()
                ));
                on_open.emit(own);
            }
            Err(e) => {
                status.set(String::new());
                error.set(Some(e));
            }
        })
    };
    let on_file = {
        let done = done.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                read_file(file, done.clone());
            }
            input.set_value("");
        })
    };
    let url_ref = use_node_ref();
    let on_url = {
        let (done, url_ref) = (done.clone(), url_ref.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let url = url_ref
                .cast::<HtmlInputElement>()
                .map(|i| i.value().trim().to_string())
                .unwrap_or_default();
            if !url.is_empty() {
                fetch_url(url, done.clone());
            }
        })
    };
    let on_paste = use_preview(done);
    html! {
        <section class="own-lesson" aria-labelledby="own-lesson-title" data-testid="own-lesson">
            <h3 id="own-lesson-title">{ "Your own lesson" }</h3>
            <p class="own-hint">{ "A lesson file as docs/lessons.md describes it; you can also drop it anywhere on the page." }</p>
            <label class="own-file">
                { "Open a lesson file" }
                <input type="file" accept=".toml,text/plain" data-testid="lesson-file" onchange={on_file} />
            </label>
            <form class="own-url" onsubmit={on_url}>
                <label for="own-url">{ "Or its address" }</label>
                <input id="own-url" type="url" placeholder="https://…/my-lesson.toml" ref={url_ref} data-testid="lesson-url" />
                <button type="submit" data-testid="lesson-url-open">{ "Open" }</button>
            </form>
            <label for="own-text">{ "Or paste it here: it opens again as you write" }</label>
            <textarea id="own-text" class="own-text" rows="6" spellcheck="false" data-testid="lesson-text" oninput={on_paste} />
            if let Some(e) = (*error).clone() {
                <p class="own-error" role="alert" data-testid="lesson-load-error">{ e }</p>
            }
            <p class="own-status" role="status" data-testid="lesson-load-status">{ (*status).clone() }</p>
        </section>
    }
}

/// The text area's input: read again once it rests, and opened when it reads
/// without fault (the step shown stays the one the writer is on).
#[hook]
fn use_preview(done: Callback<Result<Own, String>>) -> Callback<InputEvent> {
    let pending = use_mut_ref(|| None::<Timeout>);
    let last = use_mut_ref(String::new);
    Callback::from(move |e: InputEvent| {
        let area: HtmlTextAreaElement = e.target_unchecked_into();
        let (done, last) = (done.clone(), last.clone());
        let timeout = Timeout::new(PREVIEW_MS, move || {
            let text = area.value();
            if text.trim().is_empty() || *last.borrow() == text {
                return;
            }
            *last.borrow_mut() = text.clone();
            done.emit(Own::read("pasted lesson", &text, None));
        });
        *pending.borrow_mut() = Some(timeout);
    })
}

/// The lessons the page carries (`cargo xtask bundle --lesson FILE`: data blocks
/// `<script type="application/toml" data-ddlscope-lesson="NAME">`), each read or
/// told what is wrong with it.
pub fn carried() -> Vec<Result<Own, String>> {
    let Ok(blocks) = gloo::utils::document()
        .query_selector_all("script[type='application/toml'][data-ddlscope-lesson]")
    else {
        return Vec::new();
    };
    (0..blocks.length())
        .filter_map(|i| blocks.item(i)?.dyn_into::<web_sys::Element>().ok())
        .map(|b| {
            let name = b.get_attribute("data-ddlscope-lesson").unwrap_or_default();
            Own::read(&name, &b.text_content().unwrap_or_default(), None)
        })
        .collect()
}
