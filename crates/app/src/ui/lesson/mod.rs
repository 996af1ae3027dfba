//! The lesson player: the lesson list, the step panel with its narration, question and
//! reveal, the keys a presentation remote sends, presenter mode and the notes window.
//!
//! Opening a step asks the worker to replace its engines with the step's replay
//! (`model::lesson::open`, run there) and tells the page's state
//! (`Action::LessonOpened`), so the hooks that rebuild on a new scenario see nothing
//! to do.
//!
//! The files: `list.rs` the Lessons button and list, `step.rs` the open step's panel,
//! `question.rs` its question, `keys.rs` the presentation remote's keys, `notes.rs`
//! the notes window, `markdown.rs` the narration, `style.rs` what a step points at
//! and hides, as a style sheet.

mod keys;
mod list;
mod markdown;
mod notes;
mod question;
mod step;
mod style;

use crate::model::lesson::{self as model, Answer, Lessons, Place, Sessions};
use crate::model::state::Action;
use crate::ui::hooks::EnginesProxy;
use ddlscope_engine::lesson::Lesson;
use gloo::timers::callback::Timeout;
use keys::{use_remote_keys, RemoteKey};
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
    let s = lessons.get(lesson)?.steps.get(step)?;
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
        on_action.emit(Action::Notice(format!("The lesson step did not open: {e}")));
    };
    let opened = props.engines.open_lesson(
        lesson,
        place,
        props.generation + 1,
        sessions.clone(),
        failed,
    )?;
    props.on_action.emit(Action::LessonOpened(Box::new(opened)));
    let _ = gloo::utils::window()
        .location()
        .set_hash(&model::fragment(&lesson.id, place.step));
    Ok(())
}

/// The lesson named in the page's fragment, if any.
fn from_fragment(lessons: &Lessons) -> Option<Place> {
    let hash = gloo::utils::window().location().hash().ok()?;
    let (id, step) = model::parse_fragment(&hash)?;
    let lesson = lessons.position(&id)?;
    let step = step.min(lessons.heads()[lesson].steps.saturating_sub(1));
    place_at(lessons, lesson, step)
}

/// The player: the Lessons button and list, and the open step's panel with the
/// style sheet that points at what it shows.
#[function_component(LessonPlayer)]
pub fn lesson_player(props: &LessonProps) -> Html {
    let lessons = use_memo((), |_| Lessons::builtin());
    let view = use_state(View::default);
    let sessions = use_mut_ref(Sessions::new);
    use_linked_step(props, &lessons, &view, &sessions);
    let go = go_to_place(props, &lessons, &view, &sessions);
    let step_by = step_by(&view, &lessons, &go);
    use_remote_keys(view.place.is_some(), remote_keys(&view, &step_by));

    let list = {
        let (all, go) = (lessons.clone(), go.clone());
        let on_open = Callback::from(move |i: usize| {
            if let Some(place) = place_at(&all, i, 0) {
                go.emit(place);
            }
        });
        let on_toggle = view_toggle(&view, |v| v.list = !v.list);
        html! { <LessonList heads={lessons.heads().to_vec()} open={view.list} {on_toggle} {on_open} /> }
    };
    let open = view.place.clone().and_then(|place| {
        let lesson = lessons.get(place.lesson)?;
        let step = lesson.steps.get(place.step)?;
        Some((place, lesson, step))
    });
    let Some((place, lesson, step)) = open else {
        return html! { <div class="lesson-bar">{ list }</div> };
    };
    let sheet = style::sheet(step, view.presenter, &sessions.borrow());
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
        on_reveal: revealer(props, &view, lesson, &place, variant_answer),
    };
    html! {
        <div class={classes!("lesson-bar", view.presenter.then_some("presenting"))}>
            <style>{ sheet }</style>
            { list }
            <StepPanel ..panel />
        </div>
    }
}

/// Opens the step the page's link names, once, after the page's own first effects
/// (which start the default engines).
#[hook]
fn use_linked_step(
    props: &LessonProps,
    lessons: &Rc<Lessons>,
    view: &UseStateHandle<View>,
    sessions: &Rc<RefCell<Sessions>>,
) {
    let (view, props, lessons, sessions) = (
        view.clone(),
        props.clone(),
        lessons.clone(),
        sessions.clone(),
    );
    use_effect_with((), move |_| {
        Timeout::new(0, move || {
            if let Some(place) = from_fragment(&lessons) {
                let error = open_place(&props, &lessons, &place, &sessions).err();
                view.set(View {
                    place: Some(place),
                    error,
                    ..View::default()
                });
            }
        })
        .forget();
    });
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
            post_notes(lesson, &place, "");
        }
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
        let n = lessons.heads()[p.lesson].steps as i32;
        let to = (p.step as i32 + delta).clamp(0, n - 1) as usize;
        if to != p.step {
            if let Some(place) = place_at(&lessons, p.lesson, to) {
                go.emit(place);
            }
        }
    })
}

/// What the presentation remote's keys do.
fn remote_keys(view: &UseStateHandle<View>, step_by: &Callback<i32>) -> Callback<RemoteKey> {
    let (view, step_by) = (view.clone(), step_by.clone());
    Callback::from(move |key: RemoteKey| match key {
        RemoteKey::Next => step_by.emit(1),
        RemoteKey::Back => step_by.emit(-1),
        RemoteKey::Presenter => view.set(View {
            presenter: !view.presenter,
            ..(*view).clone()
        }),
        RemoteKey::Blank => view.set(View {
            blank: !view.blank,
            ..(*view).clone()
        }),
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
    lesson: &Lesson,
    place: &Place,
    variant_answer: Option<String>,
) -> Callback<MouseEvent> {
    let (view, engines, on_action) = (view.clone(), props.engines.clone(), props.on_action.clone());
    let (lesson, place) = (lesson.clone(), place.clone());
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
        engines.reveal(&lesson, place.step, shown);
    })
}
