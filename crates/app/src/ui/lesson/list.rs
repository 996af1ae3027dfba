//! The Lessons button and the list it opens.

use ddlscope_engine::catalog::LessonHead;
use yew::prelude::*;

/// The properties of [`LessonList`].
#[derive(Properties, Clone, Debug, PartialEq)]
pub struct LessonListProps {
    /// The built-in lessons.
    pub heads: Vec<LessonHead>,
    /// Whether the list is open.
    pub open: bool,
    /// Opens or closes the list.
    pub on_toggle: Callback<MouseEvent>,
    /// Opens lesson `i` at its first step.
    pub on_open: Callback<usize>,
}

/// The Lessons button, and the list of lessons when it is open.
#[function_component(LessonList)]
pub fn lesson_list(props: &LessonListProps) -> Html {
    let list = props.open.then(|| {
        html! {
            <div class="lesson-list" data-testid="lessons" role="dialog" aria-label="Lessons">
                <h2>{ "Lessons" }</h2>
                <ul>
                { for props.heads.iter().enumerate().map(|(i, l)| {
                    let on_open = props.on_open.clone();
                    let onclick = Callback::from(move |_: MouseEvent| on_open.emit(i));
                    html! {
                        <li>
                            <button type="button" data-testid="lesson-open" data-lesson={l.id} {onclick}>
                                <strong>{ l.title }</strong>
                                <small>{ format!("{} · {} steps · {}", l.duration, l.steps, l.audience) }</small>
                            </button>
                        </li>
                    }
                }) }
                </ul>
            </div>
        }
    });
    html! {
        <>
            <button type="button" class="lesson-toggle" data-testid="lessons-toggle" onclick={props.on_toggle.clone()}
                aria-expanded={if props.open { "true" } else { "false" }}>{ "Lessons" }</button>
            { for list }
        </>
    }
}
