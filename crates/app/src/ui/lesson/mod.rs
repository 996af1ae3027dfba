//! The lesson player: the lesson list, the step panel with its narration, question and
//! reveal, the keys a presentation remote sends, presenter mode and the notes window.
//!
//! Opening a step asks the worker to replace its engines with the step's replay
//! (`model::lesson::open`, run there) and tells the page's state
//! (`Action::LessonOpened`), so the hooks that rebuild on a new scenario see nothing
//! to do.
//!
//! The files: `list.rs` the Lessons button and list, `step.rs` the open step's panel,
//! `question.rs` its question, `keys.rs` the player's keys (a presentation remote's
//! and the learner's), `notes.rs` the notes window, `own.rs` a lesson of one's own
//! (a file, a URL, pasted text, or carried in the workshop bundle), `markdown.rs`
//! the narration, `style.rs` what a step points at and hides, as a style sheet, `adopted.rs` that sheet on the page through the CSSOM
//! (a strict CSP refuses a `<style>` element).

mod adopted;
mod fit;
mod keys;
mod list;
mod markdown;
mod notes;
mod own;
mod question;
mod step;
mod style;

use crate::model::lesson::{self as model, Answer, Lessons, Own, Place, Sessions, Wanted};
use crate::model::state::Action;
use crate::ui::hooks::EnginesProxy;
use crate::ui::mount::say_top_mounted;
use ddlscope_engine::lesson::Lesson;
use gloo::timers::callback::Timeout;
use list::LessonList;
use notes::post_notes;
use std::cell::RefCell;
use std::rc::Rc;
use step::{StepPanel, StepPanelProps};
use yew::prelude::*;

/// The player's inputs from the page.
#[derive(Properties, Clone, Debug, PartialEq)]
pub struct LessonProps {
    /// The engines it replaces when a step opens.
    pub engines: EnginesProxy,
    /// The page's reducer.
    pub on_action: Callback<Action>,
    /// The page's generation, to number the next simulation.
    pub generation: u32,
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
    let on_action = props.on_action.clone();
    let failed = move |e: String| {
        not_opened(&on_action, format!("The lesson step did not open: {e}"));
    };
    let own = lessons.own_at(place.lesson);
    // The sessions carry the names the narration uses (s2, s3), in the console's
    // tabs and the processlist. They connect once the step is at its moment, which
    // body[data-lesson-step] then tells (the browser tests time a step by it).
    let body = gloo::utils::body();
    let _ = body.remove_attribute("data-lesson-step");
    let connected = {
        let (sessions, on_action) = (sessions.clone(), props.on_action.clone());
        let step = (place.step + 1).to_string();
        move |ids: Sessions| {
            for (name, id) in &ids {
                let (id, name) = (*id, name.clone());
                on_action.emit(Action::NameSession { id, name });
            }
            *sessions.borrow_mut() = ids;
            let _ = body.set_attribute("data-lesson-step", &step);
        }
    };
    let opened = props.engines.open_lesson(
        (&lesson, own.as_ref().map(|o| &*o.source)),
        place,
        props.generation + 1,
        connected,
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
                match place_at(lessons, lesson, step) {
                    Some(place) => go.emit(place),
                    None => say_top_mounted(),
                }
            }
            None => not_opened(on_action, model::lesson(&id).err().unwrap_or_default()),
        },
        Wanted::Url(url, step) => {
            let (own, on_action) = (own.clone(), on_action.clone());
            own::fetch_url(
                url,
                Callback::from(move |r: Result<Own, String>| match r {
                    Ok(o) => own.emit((o, step)),
                    Err(e) => not_opened(&on_action, e),
                }),
            );
        }
    }
}

/// The linked lesson cannot open: the page says why, and is shown without its step
/// card (which would otherwise say the parts above the panes are in: `ui::mount`).
fn not_opened(on_action: &Callback<Action>, why: String) {
    say_top_mounted();
    on_action.emit(Action::Notice(why));
}

/// The player: the Lessons button and list, and the open step's panel with the
/// style sheet that points at what it shows.
#[function_component(LessonPlayer)]
pub fn lesson_player(props: &LessonProps) -> Html {
    let lessons = use_memo((), |_| Lessons::builtin());
    let view = use_state(View::default);
    let sessions = use_mut_ref(Sessions::new);
    let go = go_to_place(props, &lessons, &view, &sessions);
    let open_own = open_own(&lessons, &go);
    let open_read = open_read(&view, &lessons, &open_own);
    {
        let (open_read, on_action) = (open_read.clone(), props.on_action.clone());
        own::use_lesson_drop(Callback::from(move |r: Result<Own, String>| match r {
            Ok(own) => open_read.emit(own),
            Err(e) => on_action.emit(Action::Notice(e)),
        }));
    }
    use_linked_step(props, &lessons, &go, &open_own);
    let step_by = step_by(&view, &lessons, &go);
    keys::use_lesson_keys(&view, &step_by);
    notes::use_notes_hello(view.place.clone().and_then(|p| {
        let revealed = view.answer.revealed.clone().unwrap_or_default();
        Some((lessons.get(p.lesson)?, p, revealed))
    }));

    let list = {
        let (all, go) = (lessons.clone(), go.clone());
        let on_open = Callback::from(move |i: usize| {
            if let Some(place) = place_at(&all, i, 0) {
                go.emit(place);
            }
        });
        let on_toggle = view_toggle(&view, |v| v.list = !v.list);
        html! { <LessonList entries={lessons.menu()} open={view.list} {on_toggle} {on_open} on_read={open_read} /> }
    };
    let open = view.place.clone().and_then(|place| {
        let lesson = lessons.get(place.lesson)?;
        let step = lesson.steps.get(place.step)?.clone();
        Some((place, lesson, step))
    });
    let sheet = open.as_ref().map_or_else(String::new, |(_, _, step)| {
        style::sheet(step, view.presenter, &sessions.borrow())
    });
    adopted::use_adopted_sheet(sheet);
    let (step_key, lit) = open
        .as_ref()
        .map_or_else(Default::default, |(place, _, step)| {
            (format!("{place:?}"), style::lit_selectors(step))
        });
    fit::use_presenter_fit(view.presenter && open.is_some(), step_key, lit);
    let Some((place, lesson, _)) = open else {
        return html! { <div class="lesson-bar">{ list }</div> };
    };
    let variant_answer = lesson
        .plan(place.step, place.variant, place.seed)
        .and_then(|p| p.answer.map(str::to_string));
    let panel = StepPanelProps {
        lesson: lesson.clone(),
        place: place.clone(),
        variant_answer: variant_answer.clone(),
        answer: view.answer.clone(),
        presenter: view.presenter,
        blank: view.blank,
        error: view.error.clone(),
        busy: props.busy.clone(),
        on_step: step_by,
        on_reset: {
            let (go, place) = (go.clone(), place.clone());
            Callback::from(move |_: MouseEvent| go.emit(place.clone()))
        },
        on_presenter: view_toggle(&view, |v| v.presenter = !v.presenter),
        on_close: {
            let (view, on_action) = (view.clone(), props.on_action.clone());
            Callback::from(move |_: MouseEvent| {
                let _ = gloo::utils::window().location().set_hash("");
                on_action.emit(Action::Pause);
                view.set(View::default());
            })
        },
        on_answer: {
            let view = view.clone();
            Callback::from(move |answer: Answer| {
                view.set(View {
                    answer,
                    ..(*view).clone()
                })
            })
        },
        on_reveal: revealer(props, &view, (&lesson, &lessons), &place, variant_answer),
    };
    html! {
        <div class={classes!("lesson-bar", view.presenter.then_some("presenting"))}>
            { list }
            <StepPanel ..panel />
        </div>
    }
}

/// Once, after the page's own first effects (which start the default engines):
/// adds the lessons the page carries (the workshop bundle's `--lesson`) and opens
/// the step the page's link names.
#[hook]
fn use_linked_step(
    props: &LessonProps,
    lessons: &Rc<Lessons>,
    go: &Callback<Place>,
    open_own: &Callback<(Own, usize)>,
) {
    let (lessons, go, open_own, on_action) = (
        lessons.clone(),
        go.clone(),
        open_own.clone(),
        props.on_action.clone(),
    );
    use_effect_with((), move |_| {
        Timeout::new(0, move || {
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

/// A callback that opens the reader's own lesson at a step (or its last).
fn open_own(lessons: &Rc<Lessons>, go: &Callback<Place>) -> Callback<(Own, usize)> {
    let (lessons, go) = (lessons.clone(), go.clone());
    Callback::from(move |(own, step): (Own, usize)| {
        let lesson = lessons.add(own);
        let step = step.min(lessons.steps(lesson).saturating_sub(1));
        if let Some(place) = place_at(&lessons, lesson, step) {
            go.emit(place);
        }
    })
}

/// A callback for a lesson opened from the menu or dropped: at the step shown when
/// it is the lesson open (a preview while writing it), else at its start.
fn open_read(
    view: &UseStateHandle<View>,
    lessons: &Rc<Lessons>,
    open_own: &Callback<(Own, usize)>,
) -> Callback<Own> {
    let (view, lessons, open_own) = (view.clone(), lessons.clone(), open_own.clone());
    Callback::from(move |own: Own| {
        let same = view
            .place
            .as_ref()
            .filter(|p| lessons.get(p.lesson).is_some_and(|l| l.id == own.lesson.id));
        open_own.emit((own, same.map_or(0, |p| p.step)));
    })
}

/// A callback that opens a place (presenter mode kept) and tells the notes window.
fn go_to_place(
    props: &LessonProps,
    lessons: &Rc<Lessons>,
    view: &UseStateHandle<View>,
    sessions: &Rc<RefCell<Sessions>>,
) -> Callback<Place> {
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
}

/// A callback that moves by that many steps within the lesson, through `go`.
fn step_by(
    view: &UseStateHandle<View>,
    lessons: &Rc<Lessons>,
    go: &Callback<Place>,
) -> Callback<i32> {
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
}

/// A click handler that changes the view with `change`.
fn view_toggle(view: &UseStateHandle<View>, change: fn(&mut View)) -> Callback<MouseEvent> {
    let view = view.clone();
    Callback::from(move |_: MouseEvent| {
        let mut next = (*view).clone();
        change(&mut next);
        view.set(next);
    })
}

/// The reveal button's handler: the engines run on to the question's moment, and
/// the answer is shown (and sent to the notes window) beside what they measured.
fn revealer(
    props: &LessonProps,
    view: &UseStateHandle<View>,
    (lesson, lessons): (&Rc<Lesson>, &Lessons),
    place: &Place,
    variant_answer: Option<String>,
) -> Callback<MouseEvent> {
    let (view, engines, on_action) = (view.clone(), props.engines.clone(), props.on_action.clone());
    let (lesson, place) = (lesson.clone(), place.clone());
    let source = lessons.own_at(place.lesson).map(|o| o.source);
    Callback::from(move |_: MouseEvent| {
        let Some(q) = lesson
            .steps
            .get(place.step)
            .and_then(|s| s.question.clone())
        else {
            return;
        };
        let (view, va, on_action) = (view.clone(), variant_answer.clone(), on_action.clone());
        let (shown_lesson, shown_place) = (lesson.clone(), place.clone());
        let shown = move |seen: Result<String, String>| {
            // Called as the worker's answer is handed out: Yew hears of it after.
            Timeout::new(0, move || {
                on_action.emit(Action::Pause);
                let seen = seen.unwrap_or_else(|e| format!("nothing ({e})"));
                let text = format!(
                    "Answer: {}. The simulation shows: {seen}.",
                    model::stated(&q, va.as_deref())
                );
                post_notes(&shown_lesson, &shown_place, &text);
                let answer = Answer {
                    revealed: Some(text),
                    ..view.answer.clone()
                };
                view.set(View {
                    answer,
                    ..(*view).clone()
                });
            })
            .forget();
        };
        engines.reveal((&lesson, source.as_deref()), place.step, shown);
    })
}
