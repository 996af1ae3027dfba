//! The lesson player: the lesson list, the step panel with its narration, question and
//! reveal, the keys a presentation remote sends, presenter mode and the notes window.
//!
//! Opening a step replaces the engines with the step's replay (`model::lesson::open`)
//! and tells the page's state (`Action::LessonOpened`), so the hooks that rebuild on a
//! new scenario see nothing to do.

mod keys;
mod markdown;
mod own;
mod style;

use crate::model::lesson::{self as model, Answer, Lessons, Own, Place, Sessions, Wanted};
use crate::model::state::Action;
use crate::ui::hooks::EnginesProxy;
use ddlscope_engine::lesson::{Lesson, QuestionKind};
use ddlscope_engine::Tick;
use gloo::timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The engines, wherever they run, compared by identity.
#[derive(Clone, Debug)]
pub struct EnginesRef(pub EnginesProxy);

impl PartialEq for EnginesRef {
    fn eq(&self, other: &Self) -> bool {
        self.0.same(&other.0)
    }
}

/// The player's inputs from the page.
#[derive(Properties, Clone, Debug, PartialEq)]
pub struct LessonProps {
    /// The engines it replaces when a step opens.
    pub engines: EnginesRef,
    /// The page's reducer.
    pub on_action: Callback<Action>,
    /// The page's generation, to number the next simulation.
    pub generation: u32,
    /// The main engine's virtual time (from the last snapshot).
    pub now: Tick,
    /// Whether the clock runs.
    pub playing: bool,
    /// What the engines are busy with before the step is at its moment, if anything.
    #[prop_or_default]
    pub busy: Option<String>,
}

/// What the player shows.
#[derive(Clone, Debug, Default, PartialEq)]
struct View {
    place: Option<Place>,
    answer: Answer,
    presenter: bool,
    blank: bool,
    list: bool,
    error: Option<String>,
}

fn random_below(n: usize) -> usize {
    ((js_sys::Math::random() * n as f64) as usize).min(n.saturating_sub(1))
}

/// A place at step `step` of lesson `lesson`, a quiz's variant and seed drawn.
fn place_at(lessons: &Lessons, lesson: usize, step: usize) -> Option<Place> {
    let l = lessons.get(lesson)?;
    let s = l.steps.get(step)?;
    let variant = random_below(s.variants.len().max(1));
    let seeds = s.variants.get(variant).map_or(1, |v| v.seeds.len());
    Some(Place {
        lesson,
        step,
        variant,
        seed: random_below(seeds),
    })
}

/// Opens `place` on the engines (their pools warm and they run to the step's moment
/// in the frames that follow); the page follows. The lesson's sessions land in
/// `sessions` once connected.
fn open_place(
    props: &LessonProps,
    lessons: &Lessons,
    place: &Place,
    sessions: &Rc<RefCell<Sessions>>,
) -> Result<(), String> {
    let lesson = lessons
        .get(place.lesson)
        .ok_or_else(|| format!("no lesson number {}", place.lesson + 1))?;
    let own = lessons.own_at(place.lesson);
    let on_action = props.on_action.clone();
    let failed = move |e: String| {
        on_action.emit(Action::Notice(format!("The lesson step did not open: {e}")));
    };
    let opened = props.engines.0.open_lesson(
        (&lesson, own.as_ref().map(|o| &*o.source)),
        place,
        props.generation + 1,
        sessions.clone(),
        failed,
    )?;
    props.on_action.emit(Action::LessonOpened(Box::new(opened)));
    let fragment = match own.and_then(|o| o.url) {
        Some(url) => model::url_fragment(&url, place.step),
        None => model::fragment(&lesson.id, place.step),
    };
    let _ = gloo::utils::window().location().set_hash(&fragment);
    Ok(())
}

/// Opens what the page's fragment names, if anything: a lesson by its id (an
/// unknown one is said so on the page) or a lesson file at a URL, fetched.
fn from_fragment(
    lessons: &Lessons,
    go: &Callback<Place>,
    own: &Callback<(Own, usize)>,
    on_action: &Callback<Action>,
) {
    let Some(wanted) = gloo::utils::window()
        .location()
        .hash()
        .ok()
        .and_then(|h| model::wanted(&h))
    else {
        return;
    };
    match wanted {
        Wanted::Id(id, step) => match lessons.position(&id) {
            Some(lesson) => {
                let step = step.min(lessons.steps(lesson).saturating_sub(1));
                if let Some(place) = place_at(lessons, lesson, step) {
                    go.emit(place);
                }
            }
            None => on_action.emit(Action::Notice(model::lesson(&id).err().unwrap_or_default())),
        },
        Wanted::Url(url, step) => {
            let (own, on_action) = (own.clone(), on_action.clone());
            own::fetch_url(
                url,
                Callback::from(move |r: Result<Own, String>| match r {
                    Ok(o) => own.emit((o, step)),
                    Err(e) => on_action.emit(Action::Notice(e)),
                }),
            );
        }
    }
}

thread_local! {
    /// The notes window this page opened, if any: posted to directly, as a window
    /// opened from a file (the workshop bundle) may share no BroadcastChannel.
    static NOTES: RefCell<Option<web_sys::Window>> = const { RefCell::new(None) };
}

/// Opens the notes window: notes.html beside the page, or, in the workshop bundle
/// (one file, no notes.html beside it), the notes page it carries, written into a
/// blank window.
fn open_notes() {
    let window = gloo::utils::window();
    let carried = gloo::utils::document()
        .query_selector("meta[name=ddlscope-notes]")
        .ok()
        .flatten()
        .and_then(|m| m.get_attribute("content"));
    let opened = match carried {
        Some(b64) => {
            use base64::Engine as _;
            let page = base64::engine::general_purpose::STANDARD
                .decode(b64.as_bytes())
                .ok()
                .and_then(|b| String::from_utf8(b).ok());
            let opened = window
                .open_with_url_and_target("", "ddlscope-notes")
                .ok()
                .flatten();
            if let (Some(w), Some(page)) = (&opened, page) {
                // The other window's document is of its own realm: `instanceof` (dyn_into)
                // against this one's HTMLDocument would fail.
                if let Some(doc) = w
                    .document()
                    .map(|d| d.unchecked_into::<web_sys::HtmlDocument>())
                {
                    let _ = doc.open();
                    let _ = doc.write_1(&page);
                    let _ = doc.close();
                }
            }
            opened
        }
        None => window
            .open_with_url_and_target("notes.html", "ddlscope-notes")
            .ok()
            .flatten(),
    };
    NOTES.with(|n| *n.borrow_mut() = opened);
}

/// Posts the step to the notes window.
fn post_notes(lesson: &Lesson, place: &Place, answer: &str) {
    let step = &lesson.steps[place.step];
    let msg = serde_json::json!({
        "lesson": lesson.title,
        "label": model::step_label(place.step, lesson.steps.len()),
        "title": step.title,
        "narration": step.narration,
        "notes": step.notes,
        "answer": answer,
    });
    let msg = wasm_bindgen::JsValue::from_str(&msg.to_string());
    NOTES.with(|n| {
        if let Some(w) = n.borrow().as_ref().filter(|w| !w.closed().unwrap_or(true)) {
            let _ = w.post_message(&msg, "*");
        }
    });
    if let Ok(channel) = web_sys::BroadcastChannel::new("ddlscope-lesson") {
        let _ = channel.post_message(&msg);
        channel.close();
    }
}

/// The player.
#[function_component(LessonPlayer)]
pub fn lesson_player(props: &LessonProps) -> Html {
    let lessons = use_memo((), |_| Lessons::builtin());
    let view = use_state(View::default);
    let sessions = use_mut_ref(Sessions::new);

    // Stop at the step's pause.
    {
        let engines = props.engines.0.clone();
        let on_action = props.on_action.clone();
        use_effect_with((props.now, props.playing), move |(_, playing)| {
            if *playing && engines.take_mark_pause() {
                on_action.emit(Action::Pause);
            }
        });
    }

    let go = {
        let (view, props, lessons, sessions) = (
            view.clone(),
            props.clone(),
            lessons.clone(),
            sessions.clone(),
        );
        Callback::from(move |place: Place| {
            let mut next = View {
                place: Some(place.clone()),
                presenter: view.presenter,
                ..View::default()
            };
            if let Err(e) = open_place(&props, &lessons, &place, &sessions) {
                next.error = Some(e);
            }
            if let Some(lesson) = lessons.get(place.lesson) {
                post_notes(&lesson, &place, "");
            }
            // The focus moves to the step opened (the list it was picked from is gone).
            crate::ui::hooks::focus_soon("#lesson-title");
            view.set(next);
        })
    };
    // The reader's own lesson, opened at `step` (or its last).
    let open_own = {
        let (lessons, go) = (lessons.clone(), go.clone());
        Callback::from(move |(own, step): (Own, usize)| {
            let lesson = lessons.add(own);
            let step = step.min(lessons.steps(lesson).saturating_sub(1));
            if let Some(place) = place_at(&lessons, lesson, step) {
                go.emit(place);
            }
        })
    };
    // A lesson opened from the menu or dropped: at the step shown when it is the
    // lesson open (a preview while writing it), else at its start.
    let open_read = {
        let (view, lessons, open_own) = (view.clone(), lessons.clone(), open_own.clone());
        Callback::from(move |own: Own| {
            let same = view
                .place
                .as_ref()
                .filter(|p| lessons.get(p.lesson).is_some_and(|l| l.id == own.lesson.id));
            open_own.emit((own, same.map_or(0, |p| p.step)));
        })
    };
    {
        let (open_read, on_action) = (open_read.clone(), props.on_action.clone());
        own::use_lesson_drop(Callback::from(move |r: Result<Own, String>| match r {
            Ok(own) => open_read.emit(own),
            Err(e) => on_action.emit(Action::Notice(e)),
        }));
    }
    // Open what the link names, once.
    {
        let (lessons, go, open_own, on_action) = (
            lessons.clone(),
            go.clone(),
            open_own.clone(),
            props.on_action.clone(),
        );
        use_effect_with((), move |_| {
            // After the page's own first effects, which build the default engines.
            Timeout::new(0, move || {
                // The lessons the page carries (the workshop bundle's --lesson).
                for read in own::carried() {
                    match read {
                        Ok(own) => drop(lessons.add(own)),
                        Err(e) => on_action.emit(Action::Notice(e)),
                    }
                }
                from_fragment(&lessons, &go, &open_own, &on_action)
            })
            .forget();
        });
    }
    let step_by = {
        let (view, lessons, go) = (view.clone(), lessons.clone(), go.clone());
        Callback::from(move |delta: i32| {
            let Some(p) = view.place.clone() else { return };
            let n = lessons.steps(p.lesson) as i32;
            let to = (p.step as i32 + delta).clamp(0, n - 1) as usize;
            if to != p.step {
                if let Some(place) = place_at(&lessons, p.lesson, to) {
                    go.emit(place);
                }
            }
        })
    };
    keys::use_lesson_keys(&view, &step_by);

    let toggle_list = {
        let view = view.clone();
        Callback::from(move |_: MouseEvent| {
            if !view.list {
                crate::ui::hooks::focus_soon("[data-testid=lessons] button");
            }
            view.set(View {
                list: !view.list,
                ..(*view).clone()
            })
        })
    };
    let list = view.list.then(|| {
        html! {
            <div class="lesson-list" data-testid="lessons" role="dialog" aria-label="Lessons">
                <h2>{ "Lessons" }</h2>
                <ul>
                { for lessons.menu().into_iter().enumerate().map(|(i, l)| {
                    let go = go.clone();
                    let lessons = lessons.clone();
                    let onclick = Callback::from(move |_: MouseEvent| {
                        if let Some(place) = place_at(&lessons, i, 0) {
                            go.emit(place);
                        }
                    });
                    html! {
                        <li>
                            <button type="button" data-testid="lesson-open" data-lesson={l.id.clone()} {onclick}>
                                <strong>{ l.title }</strong>
                                <small>{ format!("{} · {}", l.id, l.about) }</small>
                            </button>
                        </li>
                    }
                }) }
                </ul>
                <own::OwnLesson on_open={open_read.clone()} />
            </div>
        }
    });
    let toolbar = html! {
        <button type="button" class="lesson-toggle" data-testid="lessons-toggle" data-popup="" title="Lessons (L)" onclick={toggle_list}
            aria-expanded={if view.list { "true" } else { "false" }}>{ "Lessons" }</button>
    };
    let Some(place) = view.place.clone() else {
        return html! { <div class="lesson-bar">{ toolbar }{ for list }</div> };
    };
    let Some((lesson, step)) = lessons
        .get(place.lesson)
        .and_then(|l| Some((l.clone(), l.steps.get(place.step)?.clone())))
    else {
        return html! { <div class="lesson-bar">{ toolbar }{ for list }</div> };
    };
    let source = lessons.own_at(place.lesson).map(|o| o.source);
    let plan = lesson.plan(place.step, place.variant, place.seed);
    let variant_answer = plan.as_ref().and_then(|p| p.answer).map(str::to_string);
    let sheet = style::sheet(&step, view.presenter, &sessions.borrow());
    let nav = |delta: i32| {
        let step_by = step_by.clone();
        Callback::from(move |_: MouseEvent| step_by.emit(delta))
    };
    let reset = {
        let (go, place) = (go.clone(), place.clone());
        Callback::from(move |_: MouseEvent| go.emit(place.clone()))
    };
    let presenter = {
        let view = view.clone();
        Callback::from(move |_: MouseEvent| {
            view.set(View {
                presenter: !view.presenter,
                ..(*view).clone()
            })
        })
    };
    let notes = {
        let (lesson, place) = (lesson.clone(), place.clone());
        Callback::from(move |_: MouseEvent| {
            open_notes();
            let (lesson, place) = (lesson.clone(), place.clone());
            // The window needs a moment to start listening.
            gloo::timers::callback::Timeout::new(800, move || post_notes(&lesson, &place, ""))
                .forget();
        })
    };
    let close = {
        let (view, props) = (view.clone(), props.clone());
        Callback::from(move |_: MouseEvent| {
            let _ = gloo::utils::window().location().set_hash("");
            props.on_action.emit(Action::Pause);
            view.set(View::default());
        })
    };
    let question = step.question.as_ref().map(|q| {
        let guess = {
            let (view, q, va) = (view.clone(), q.clone(), variant_answer.clone());
            Callback::from(move |g: String| {
                let right = q.kind.accepts(&g, va.as_deref());
                let answer = Answer { guess: Some((g, right)), ..view.answer.clone() };
                view.set(View { answer, ..(*view).clone() });
            })
        };
        let reveal = {
            let (view, q, va, props, sessions) =
                (view.clone(), q.clone(), variant_answer.clone(), props.clone(), sessions.clone());
            let (lesson, place, source) = (lesson.clone(), place.clone(), source.clone());
            Callback::from(move |_: MouseEvent| {
                let (lesson_now, place_now) = (lesson.clone(), place.clone());
                let (view, q2, va, on_action) = (view.clone(), q.clone(), va.clone(), props.on_action.clone());
                let (lesson, place) = (lesson.clone(), place.clone());
                let shown = move |seen: Result<String, String>| {
                    // Called from the engines' work, borrowed: Yew hears of it after.
                    Timeout::new(0, move || {
                        on_action.emit(Action::Pause);
                        let seen = seen.unwrap_or_else(|e| format!("nothing ({e})"));
                        let text = format!("Answer: {}. The simulation shows: {seen}.", model::stated(&q2, va.as_deref()));
                        post_notes(&lesson, &place, &text);
                        let answer = Answer { revealed: Some(text), ..view.answer.clone() };
                        view.set(View { answer, ..(*view).clone() });
                    })
                    .forget();
                };
                props.engines.0.reveal((&lesson_now, source.as_deref()), place_now.step, sessions.clone(), shown);
            })
        };
        let input = match &q.kind {
            QuestionKind::Choice { choices, .. } => html! {
                <div class="lesson-choices">
                { for choices.iter().enumerate().map(|(i, c)| {
                    let (guess, c2) = (guess.clone(), c.clone());
                    let picked = view.answer.guess.as_ref().is_some_and(|(g, _)| g == c);
                    html! {
                        <button type="button" data-testid="lesson-choice" class={classes!(picked.then_some("picked"))}
                            aria-pressed={if picked { "true" } else { "false" }}
                            onclick={Callback::from(move |_: MouseEvent| guess.emit(c2.clone()))}>
                            if i < 9 { <kbd class="choice-key" aria-hidden="true">{ i + 1 }</kbd> }
                            { c.clone() }
                        </button>
                    }
                }) }
                </div>
            },
            QuestionKind::Number { unit, .. } => {
                let input_ref = NodeRef::default();
                // Enter in the field checks it, as the button does; the number stays.
                let onsubmit = {
                    let (guess, input_ref) = (guess.clone(), input_ref.clone());
                    Callback::from(move |e: SubmitEvent| {
                        e.prevent_default();
                        if let Some(i) = input_ref.cast::<HtmlInputElement>() {
                            guess.emit(i.value());
                        }
                    })
                };
                let typed = view.answer.guess.as_ref().map(|(g, _)| g.clone()).unwrap_or_default();
                html! {
                    <form class="lesson-choices" {onsubmit}>
                        <input type="number" step="any" data-testid="lesson-number" ref={input_ref} aria-label="Your answer" value={typed} />
                        <span>{ unit.clone() }</span>
                        <button type="submit" data-testid="lesson-check">{ "Check" }</button>
                    </form>
                }
            }
        };
        let feedback = view.answer.guess.as_ref().map(|(g, right)| {
            let text = match (right, model::hint(&q.kind, g)) {
                (true, _) => format!("Right: {g}."),
                (false, Some(way)) => format!("{g}: not quite, the answer is {way}. Try again, or reveal it."),
                (false, None) => format!("{g}: not quite. Try again, or reveal the answer."),
            };
            html! { <p class={classes!("lesson-feedback", right.then_some("right"))} data-testid="lesson-feedback" role="status">{ text }</p> }
        });
        let revealed = view.answer.revealed.clone().map(|t| html! {
            <div class="lesson-answer" data-testid="lesson-answer">
                <p>{ t }</p>
                { markdown::render(&q.explain) }
            </div>
        });
        html! {
            <div class="lesson-question" data-testid="lesson-question">
                <p class="lesson-prompt">{ q.prompt.clone() }</p>
                { input }
                { for feedback }
                <button type="button" data-testid="lesson-reveal" onclick={reveal}>{ "Run on and reveal" }</button>
                { for revealed }
            </div>
        }
    });
    let n = lesson.steps.len();
    html! {
        <div class={classes!("lesson-bar", view.presenter.then_some("presenting"))}>
            <style>{ sheet }</style>
            { toolbar }{ for list }
            if view.blank {
                <div class="lesson-blank" data-testid="lesson-blank"></div>
            }
            <section class="panel lesson-step" data-testid="lesson-step" aria-labelledby="lesson-title">
                if view.presenter {
                    <span class="presenter-badge" data-testid="presenter">{ "Presenter" }</span>
                }
                <header class="lesson-head">
                    <span class="lesson-count" data-testid="lesson-count">{ model::step_label(place.step, n) }</span>
                    <h2 id="lesson-title" tabindex="-1" aria-live="polite">{ step.title.clone() }</h2>
                    <small>{ lesson.title.clone() }</small>
                </header>
                if let Some(e) = view.error.clone() {
                    <p role="alert">{ e }</p>
                }
                if let Some(busy) = props.busy.clone() {
                    <p class="lesson-busy" data-testid="lesson-busy" role="status">{ format!("Getting the step ready: {busy}") }</p>
                }
                <div class="lesson-narration">{ markdown::render(&step.narration) }</div>
                { for question }
                <nav class="lesson-nav">
                    <button type="button" data-testid="lesson-prev" disabled={place.step == 0} onclick={nav(-1)}>{ "← Back" }</button>
                    <button type="button" data-testid="lesson-reset" onclick={reset}>{ "Reset step" }</button>
                    <button type="button" data-testid="presenter-toggle" aria-pressed={if view.presenter { "true" } else { "false" }} onclick={presenter}>{ "Presenter (P)" }</button>
                    <button type="button" data-testid="lesson-notes" onclick={notes}>{ "Notes window" }</button>
                    <button type="button" data-testid="lesson-close" onclick={close}>{ "Close" }</button>
                    <button type="button" data-testid="lesson-next" disabled={place.step + 1 >= n} onclick={nav(1)}>{ "Next →" }</button>
                </nav>
            </section>
        </div>
    }
}
