//! The open step's panel: its count and title, the narration, the question, and
//! the buttons to move, reset, present, open the notes window and close.

use super::markdown;
use super::notes::{open_notes, post_notes};
use super::question::QuestionCard;
use super::style;
use crate::model::format;
use crate::model::lesson::{self as model, Answer, Place};
use crate::ui::mount::say_top_mounted;
use ddlscope_engine::lesson::Lesson;
use std::rc::Rc;
use yew::prelude::*;

/// The properties of [`StepPanel`].
#[derive(Properties, Clone, Debug, PartialEq)]
pub struct StepPanelProps {
    /// The lesson.
    pub lesson: Rc<Lesson>,
    /// Where in it.
    pub place: Place,
    /// The variant's own answer to the step's question, when it has variants.
    pub variant_answer: Option<String>,
    /// The learner's answer so far.
    pub answer: Answer,
    /// Presenter mode.
    pub presenter: bool,
    /// The screen blanked (B).
    pub blank: bool,
    /// Why the step did not open, if it did not.
    pub error: Option<String>,
    /// What the engines are busy with before the step is at its moment.
    pub busy: Option<String>,
    /// Moves by that many steps.
    pub on_step: Callback<i32>,
    /// Opens the step afresh.
    pub on_reset: Callback<MouseEvent>,
    /// Presenter mode on or off.
    pub on_presenter: Callback<MouseEvent>,
    /// Closes the lesson.
    pub on_close: Callback<MouseEvent>,
    /// Gets the answer after a guess.
    pub on_answer: Callback<Answer>,
    /// Runs on and reveals.
    pub on_reveal: Callback<MouseEvent>,
}

/// The step's panel (and the blank screen over the page, when asked for).
#[function_component(StepPanel)]
pub fn step_panel(props: &StepPanelProps) -> Html {
    // A lesson's link: the step card is the last part above the panes to mount.
    use_effect_with((), |()| say_top_mounted());
    let (lesson, place) = (&props.lesson, &props.place);
    let Some(step) = lesson.steps.get(place.step) else {
        return Html::default();
    };
    let nav = |delta: i32| {
        let on_step = props.on_step.clone();
        Callback::from(move |_: MouseEvent| on_step.emit(delta))
    };
    let notes = {
        let (lesson, place) = (lesson.clone(), place.clone());
        Callback::from(move |_: MouseEvent| {
            open_notes();
            // A window already open hears this; a new one says hello once it
            // listens, and is answered (`notes::use_notes_hello`).
            post_notes(&lesson, &place, "");
        })
    };
    let question = step.question.clone().map(|question| {
        html! {
            <QuestionCard {question} variant_answer={props.variant_answer.clone()} answer={props.answer.clone()}
                on_answer={props.on_answer.clone()} on_reveal={props.on_reveal.clone()} />
        }
    });
    let n = lesson.steps.len();
    // What the step points at, for presenter mode's fit check (e2e): each lit panel's
    // selector, `|` between them.
    let lit = style::lit_selectors(step);
    // In presenter mode a long narration scrolls inside its box, which the keys reach.
    let narration_tab = props.presenter.then_some("0");
    html! {
        <>
            if props.blank {
                <div class="lesson-blank" data-testid="lesson-blank"></div>
            }
            <section class="panel lesson-step" data-testid="lesson-step" aria-labelledby="lesson-title" data-lit={lit.join("|")}>
                if props.presenter {
                    <span class="presenter-badge" data-testid="presenter">{ "Presenter" }</span>
                }
                <header class="lesson-head">
                    <span class="lesson-count" data-testid="lesson-count">{ model::step_label(place.step, n) }</span>
                    <h2 id="lesson-title" tabindex="-1" aria-live="polite">{ step.title.clone() }</h2>
                    // The lesson's title, and over it while the step gets ready what the
                    // engines are busy with: one line, held whether it shows or not, so
                    // that its coming and going moves nothing below (a paragraph of its
                    // own did: a layout shift each step).
                    <small class="lesson-sub">
                        <span class="lesson-sub-title">{ lesson.title.clone() }</span>
                        <span class="lesson-status" role="status">
                            if let Some(busy) = props.busy.as_deref() {
                                <span class="lesson-busy" data-testid="lesson-busy" title={busy.to_string()}>
                                    { format!("Getting the step ready: {}", format::progress_first(busy)) }
                                </span>
                            }
                        </span>
                    </small>
                </header>
                if let Some(e) = props.error.clone() {
                    <p role="alert">{ e }</p>
                }
                <div class="lesson-narration" tabindex={narration_tab} role={props.presenter.then_some("region")}
                    aria-label={props.presenter.then_some("Narration")}>{ markdown::render(&step.narration) }</div>
                { question.unwrap_or_default() }
                <nav class="lesson-nav">
                    <button type="button" data-testid="lesson-prev" disabled={place.step == 0} onclick={nav(-1)}>{ "← Back" }</button>
                    <button type="button" data-testid="lesson-reset" onclick={props.on_reset.clone()}>{ "Reset step" }</button>
                    <button type="button" data-testid="presenter-toggle" aria-pressed={if props.presenter { "true" } else { "false" }} onclick={props.on_presenter.clone()}>{ "Presenter (P)" }</button>
                    <button type="button" data-testid="lesson-notes" onclick={notes}>{ "Notes window" }</button>
                    <button type="button" data-testid="lesson-close" onclick={props.on_close.clone()}>{ "Close" }</button>
                    <button type="button" data-testid="lesson-next" disabled={place.step + 1 >= n} onclick={nav(1)}>{ "Next →" }</button>
                </nav>
            </section>
        </>
    }
}
