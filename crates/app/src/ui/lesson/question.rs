//! A step's question: the choices or the number to type, whether the guess is
//! right, and the reveal (the engines run on to the question's moment and the
//! answer is shown beside what the simulation measured).

use super::markdown;
use crate::model::lesson::{self as model, Answer};
use ddlscope_engine::lesson::{Question, QuestionKind};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The properties of [`QuestionCard`].
#[derive(Properties, Clone, Debug, PartialEq)]
pub struct QuestionProps {
    /// The question.
    pub question: Question,
    /// The variant's own answer, when the step has variants.
    pub variant_answer: Option<String>,
    /// The learner's answer so far.
    pub answer: Answer,
    /// Gets the answer after a guess.
    pub on_answer: Callback<Answer>,
    /// Runs on and reveals.
    pub on_reveal: Callback<MouseEvent>,
}

/// The question, its input, the feedback on a guess and the revealed answer.
#[function_component(QuestionCard)]
pub fn question_card(props: &QuestionProps) -> Html {
    let q = &props.question;
    let guess = {
        let props = props.clone();
        Callback::from(move |g: String| {
            let right = props
                .question
                .kind
                .accepts(&g, props.variant_answer.as_deref());
            props.on_answer.emit(Answer {
                guess: Some((g, right)),
                ..props.answer.clone()
            });
        })
    };
    let feedback = props.answer.guess.as_ref().map(|(g, right)| {
        let text = match (right, model::hint(&q.kind, g)) {
            (true, _) => format!("Right: {g}."),
            (false, Some(way)) => {
                format!("{g}: not quite, the answer is {way}. Try again, or reveal it.")
            }
            (false, None) => format!("{g}: not quite. Try again, or reveal the answer."),
        };
        html! { <p class={classes!("lesson-feedback", right.then_some("right"))} data-testid="lesson-feedback" role="status">{ text }</p> }
    });
    let revealed = props.answer.revealed.clone().map(|t| {
        html! {
            <div class="lesson-answer" data-testid="lesson-answer">
                <p>{ t }</p>
                { markdown::render(&q.explain) }
            </div>
        }
    });
    html! {
        <div class="lesson-question" data-testid="lesson-question">
            <p class="lesson-prompt">{ q.prompt.clone() }</p>
            { input(&q.kind, &props.answer, &guess) }
            // One node each, shown or not: with `for`, none when absent, and Yew,
            // matching children from the end, would make the form (and what was typed)
            // again when the feedback appears.
            { feedback.unwrap_or_default() }
            <button type="button" data-testid="lesson-reveal" onclick={props.on_reveal.clone()}>{ "Run on and reveal" }</button>
            { revealed.unwrap_or_default() }
        </div>
    }
}

/// The choices to pick from (keys 1 to 9), or the number to type, each guess to
/// `guess`.
fn input(kind: &QuestionKind, answer: &Answer, guess: &Callback<String>) -> Html {
    match kind {
        QuestionKind::Choice { choices, .. } => html! {
            <div class="lesson-choices">
            { for choices.iter().enumerate().map(|(i, c)| {
                let (guess, c2) = (guess.clone(), c.clone());
                let picked = answer.guess.as_ref().is_some_and(|(g, _)| g == c);
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
            html! {
                <form class="lesson-choices" {onsubmit}>
                    <input type="number" step="any" data-testid="lesson-number" ref={input_ref} aria-label="Your answer" />
                    <span>{ unit.clone() }</span>
                    <button type="submit" data-testid="lesson-check">{ "Check" }</button>
                </form>
            }
        }
    }
}
